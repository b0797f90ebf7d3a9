# Renyi-DP accountant for subsampled Gaussian mechanisms; the arithmetic is
# in src/dpglmnet/rdp_accountant.h.

#' Renyi differential privacy of subsampled Gaussian mechanisms
#'
#' `rdp_subsampled_gaussian()` returns the Renyi DP, at each order, of
#' `steps` compositions of a Gaussian mechanism with noise multiplier
#' `noise_multiplier` (noise sd over the L2 sensitivity) applied to a
#' subsample of rate `q`:
#' * `sampling = "poisson"`: each record is included independently with
#'   probability `q`, add/remove-one neighbours; exact RDP of Mironov, Talwar
#'   and Zhang (2019), with their series for fractional orders summed in log
#'   space and stopped only once its terms have peaked and are negligible
#'   (a series that cannot be summed reliably returns `Inf`).
#' * `sampling = "without_replacement"`: a fixed-size batch of `q n` records
#'   drawn uniformly without replacement, replace-one neighbours (then
#'   `noise_multiplier` is measured against the replace-one sensitivity, e.g.
#'   `2C` for a sum of vectors clipped to `C`); the upper bound of Wang, Balle
#'   and Kasiviswanathan (2019). At integer orders up to 256 it is their
#'   Theorem 27 for the Gaussian, as Google's `dp_accounting` evaluates it:
#'   each term is the smaller of the general (Theorem 9) one and the one
#'   built on the forward differences \eqn{E_q[(L - 1)^l]} of the privacy-loss
#'   ratio \eqn{L}, which are computed by quadrature with rigorous error
#'   bounds and rounded up (within 1e-6, relative, of a 400-digit evaluation
#'   for `noise_multiplier` in \[0.3, 100\] and `q` in \[1e-4, 0.5\], and
#'   never below it); above order 256 Theorem 9 alone. It is also capped by
#'   the unsampled \eqn{\alpha / (2 z^2)}. At fractional orders the log
#'   moment \eqn{(\alpha - 1) rdp(\alpha)}, convex in \eqn{\alpha}, is
#'   interpolated linearly between the neighbouring integers (their
#'   Corollary 10), and orders in (1, 2) take the value at 2.
#' * `sampling = "revealed"`: a fixed-size batch of `q n` records drawn
#'   uniformly without replacement whose membership the output discloses
#'   (DP-SCD: its release updates the dual coordinates of the batch only),
#'   replace-one neighbours. Then there is no amplification beyond the chance
#'   `q` that a record is used: the exact RDP of one step is
#'   \eqn{\log(1 - q + q e^{(\alpha - 1)\alpha / (2 z^2)}) / (\alpha - 1)}.
#'
#' `rdp_epsilon()` converts an RDP curve to epsilon at `delta` with
#' \deqn{\epsilon = \min_\alpha rdp(\alpha) + \log(1 - 1/\alpha) - (\log \delta + \log \alpha) / (\alpha - 1)}
#' (Balle et al. 2020), and `rdp_delta()` solves the same bound for delta.
#' `noise_multiplier()` calibrates: the smallest noise multiplier whose
#' epsilon is at most the target (bisection in log z to 1e-10 relative,
#' returning the noisier end), with the accountant of the fits: with `q = 1`
#' or `sampling = "none"` the exact Gaussian-DP accountant ([gdp_mu()]), which
#' is tighter than RDP there.
#'
#' @param q Sampling rate in \[0, 1\].
#' @param noise_multiplier Noise multiplier `z >= 0`.
#' @param steps Number of compositions (steps), `>= 0`.
#' @param orders Renyi orders `> 1` (may include `Inf`).
#' @param sampling The sampling scheme.
#' @param rdp RDP values at `orders`.
#' @param delta Target delta in (0, 1).
#' @param epsilon Target epsilon `>= 0`.
#' @return `rdp_subsampled_gaussian()`: RDP at each order. `rdp_epsilon()`:
#'   epsilon, with attribute `order` (the minimizing order). `rdp_delta()`:
#'   delta, with attribute `order`. `noise_multiplier()`: the noise
#'   multiplier. `default_orders()`: 1.1 to 10.9 by 0.1, 11 to 63, 128, 256,
#'   512, 1024.
#' @references
#' Mironov, I., Talwar, K. and Zhang, L. (2019). Renyi differential privacy of
#' the sampled Gaussian mechanism. arXiv:1908.10530.
#'
#' Wang, Y.-X., Balle, B. and Kasiviswanathan, S. (2019). Subsampled Renyi
#' differential privacy and analytical moments accountant. AISTATS.
#'
#' Balle, B., Barthe, G., Gaboardi, M., Hsu, J. and Sato, T. (2020).
#' Hypothesis testing interpretations and Renyi differential privacy.
#' AISTATS.
#' @examples
#' rdp <- rdp_subsampled_gaussian(q = 0.04, noise_multiplier = 1.5, steps = 2250)
#' rdp_epsilon(default_orders(), rdp, delta = 1e-5)
#' noise_multiplier(epsilon = 1, delta = 1e-5, steps = 1000, q = 0.01,
#'                  sampling = "without_replacement")
#' @name rdp
NULL

#' @rdname rdp
#' @export
default_orders <- function() c(1 + (1:99) / 10, 11:63, 128, 256, 512, 1024)

check_orders <- function(orders) {
  check_numeric(orders, "orders", lower = 1, lower_open = TRUE, length = NULL,
                finite = FALSE)
}

#' @rdname rdp
#' @export
rdp_subsampled_gaussian <- function(q, noise_multiplier, steps,
                                    orders = default_orders(),
                                    sampling = c("poisson", "without_replacement",
                                                 "revealed")) {
  q <- check_numeric(q, "q", 0, 1)
  noise_multiplier <- check_numeric(noise_multiplier, "noise_multiplier",
                                    lower = 0, finite = FALSE)
  steps <- check_numeric(steps, "steps", lower = 0)
  orders <- check_orders(orders)
  sampling <- check_choice(sampling, c("poisson", "without_replacement", "revealed"),
                           "sampling")
  if (steps == 0) return(rep(0, length(orders)))
  steps * .rdp_subsampled_gaussian_cpp(q, noise_multiplier, orders, sampling)
}

#' @rdname rdp
#' @export
rdp_epsilon <- function(orders, rdp, delta) {
  orders <- check_orders(orders)
  rdp <- check_numeric(rdp, "rdp", lower = 0, length = length(orders), finite = FALSE)
  delta <- check_numeric(delta, "delta", 0, 1, lower_open = TRUE, upper_open = TRUE)
  out <- .rdp_epsilon_cpp(orders, rdp, delta)
  structure(out$epsilon, order = out$order)
}

#' @rdname rdp
#' @export
rdp_delta <- function(orders, rdp, epsilon) {
  orders <- check_orders(orders)
  rdp <- check_numeric(rdp, "rdp", lower = 0, length = length(orders), finite = FALSE)
  epsilon <- check_numeric(epsilon, "epsilon", lower = 0)
  out <- .rdp_delta_cpp(orders, rdp, epsilon)
  structure(out$delta, order = out$order)
}

#' @rdname rdp
#' @export
noise_multiplier <- function(epsilon, delta, steps, q = 1,
                             sampling = c("none", "poisson", "without_replacement",
                                          "revealed"),
                             orders = default_orders()) {
  epsilon <- check_numeric(epsilon, "epsilon", lower = 0, lower_open = TRUE)
  delta <- check_numeric(delta, "delta", 0, 1, lower_open = TRUE, upper_open = TRUE)
  steps <- check_numeric(steps, "steps", lower = 1)
  q <- check_numeric(q, "q", 0, 1, lower_open = TRUE)
  sampling <- check_choice(sampling, c("none", "poisson", "without_replacement",
                                      "revealed"), "sampling")
  orders <- check_orders(orders)
  if (q == 1) sampling <- "none"
  # The fit's own accountant (src/dpglmnet/accountant.h) with one row, under
  # the relation its RDP bound holds for (Poisson: add/remove-one).
  .calibrate_cpp(mechanism_table(list(mechanism(
    "", "gaussian", steps, "", calibrated = TRUE, sampling = sampling,
    sampling_rate = q,
    relation = if (sampling == "poisson") "add/remove-one" else "replace-one"))),
    epsilon, delta, orders)$z
}
