# glmnet's `weights` and `offset`, privately (issue 18).
#
# Privacy model. A weight and an offset are part of a record: replacing one
# record replaces its row of x, its y, its weight and its offset. Both are
# clamped to public bounds (a per-record map, free for privacy, as x to
# x.bounds): weights to [0, W] with W = `weights.bound`, offsets to the
# interval of `offset.bound`.
#
# glmnet minimises sum_i w_i loss_i / sum_i w_i + lambda P(b): it rescales
# the weights to sum to n. The sum S = sum_i w_i depends on the data, so it
# is released once with the Gaussian mechanism (replace-one L2 sensitivity
# W: one weight moves from w to w' in [0, W]), its own ledger row with a
# small public share of the budget (`weight_sum_share` of mu^2, calibrated
# with the rest at one noise level), floored at the public W n / 1000, and
# the solver reads omega_i = w_i n / S_released (post-processing). With
# epsilon = Inf the exact sum is used, so the fit is glmnet's.
#
# Where the weights enter (DP-CD; the other solvers refuse them):
# - clipped releases (the coordinate gradients, lambda_max, cv.dpglmnet()'s
#   validation losses): each record's term is multiplied by omega_i before
#   it is clipped, so the sensitivity stays the clip;
# - bound-based releases (standardization moments of x and y): a record's
#   term omega_i v_i with v_i in a clamp of width w moves a mean by at most
#   max(omega) w / n = W w / S_released, the unweighted sensitivity times
#   W n / S_released (`weight_factor`); the noise sds carry that factor. The
#   range histograms stay unweighted: they locate the values (a count per
#   bin), they do not weigh them, and their sensitivity is 2 whatever W;
# - public smoothness constants from bounds: curvature b_j^2 W n / S_released
#   (the largest omega_i x_ij^2 / n summed over n records).
# Private scales searched from quantiles (clip = "quantile", smoothness =
# "quantile" or "private") are not weighted: they are refused with weights
# (the defaults become the public ones).
#
# An offset o_i enters the linear predictor, eta_i = o_i + b0 + x_i'b. For
# gaussian it is moved into the response, y_i - o_i (a per-record map, as
# glmnet's elnet does), whose interval is [y.lower - o.upper, y.upper -
# o.lower]: every bound on a residual widens by the offset's range. For
# binomial it sits inside the link, in the core's linear predictor.

# The share of the Gaussian budget (of mu^2 in GDP) of the weight-sum release.
# One number: 2% of mu^2 puts its noise at sqrt(50 / path releases) times the
# path's multiplier, small beside a sum of order n W.
weight_sum_share <- 0.02

# The public floor of the released weight sum, as a fraction of W n: it caps
# the factor W n / S_released of the bound-based sensitivities at 1000.
weight_sum_floor <- 1e-3

# Checks `weights` (NULL: none) against n and `weights.bound`: list(values
# (clamped to [0, W]), bound (W, or NULL at epsilon = Inf without one)), or
# NULL.
check_weights <- function(weights, n, weights.bound, epsilon) {
  if (is.null(weights)) {
    if (!is.null(weights.bound)) {
      dpglmnet_abort("weights.bound", "is given without `weights`.")
    }
    return(NULL)
  }
  if (!is.numeric(weights) || is.object(weights) || !is.null(dim(weights))) {
    dpglmnet_abort("weights", sprintf(
      "must be a numeric vector of one weight per record, not %s.", class(weights)[1L]))
  }
  if (length(weights) != n) {
    dpglmnet_abort("weights", sprintf(
      "must have one weight per record (length %d), not length %d.", n, length(weights)))
  }
  if (anyNA(weights)) dpglmnet_abort("weights", "must not contain NA or NaN.")
  if (any(!is.finite(weights))) dpglmnet_abort("weights", "must be finite.")
  if (any(weights < 0)) dpglmnet_abort("weights", "must be >= 0.")
  if (!(sum(weights) > 0) && !is.finite(epsilon)) {
    dpglmnet_abort("weights", "must not all be 0.")
  }
  bound <- NULL
  if (is.null(weights.bound)) {
    if (is.finite(epsilon)) {
      dpglmnet_abort("weights.bound", paste(
        "must be given with `weights` and a finite epsilon: a public bound W on",
        "each weight (weights are clamped to [0, W]), which sets how much one",
        "record's weight can move what is released."))
    }
  } else {
    bound <- check_numeric(weights.bound, "weights.bound", lower = 0, lower_open = TRUE,
                           upper = max_x_bound)
  }
  values <- as.numeric(weights)
  if (!is.null(bound)) values <- pmin(values, bound)
  list(values = values, bound = bound)
}

# Checks `offset` (NULL: none) against n and `offset.bound` (a number b,
# [-b, b], or an interval c(lower, upper), as y.bound): list(values (clamped),
# lower, upper) (lower, upper NULL at epsilon = Inf without a bound), or NULL.
check_offset <- function(offset, n, offset.bound, epsilon) {
  if (is.null(offset)) {
    if (!is.null(offset.bound)) {
      dpglmnet_abort("offset.bound", "is given without `offset`.")
    }
    return(NULL)
  }
  if (!is.numeric(offset) || is.object(offset) ||
      (!is.null(dim(offset)) && !(length(dim(offset)) == 2L && ncol(offset) == 1L))) {
    dpglmnet_abort("offset", sprintf(
      "must be a numeric vector of one offset per record, not %s.", class(offset)[1L]))
  }
  if (length(offset) != n) {
    dpglmnet_abort("offset", sprintf(
      "must have one offset per record (length %d), not length %d.", n, length(offset)))
  }
  if (anyNA(offset)) dpglmnet_abort("offset", "must not contain NA or NaN.")
  if (any(!is.finite(offset))) dpglmnet_abort("offset", "must be finite.")
  interval <- check_y_bound(offset.bound, "offset.bound")
  if (is.null(interval) && is.finite(epsilon)) {
    dpglmnet_abort("offset.bound", paste(
      "must be given with `offset` and a finite epsilon: a public bound b",
      "(|offset_i| <= b) or interval c(lower, upper); offsets are clamped to it."))
  }
  values <- as.numeric(offset)
  if (!is.null(interval)) values <- pmin(pmax(values, interval$lower), interval$upper)
  list(values = values, lower = interval$lower, upper = interval$upper)
}

# Refuses weights / offset for a solver that does not support them, before
# any computation (a solver says so with `weights = TRUE`).
check_weights_solver <- function(solver, weights, offset, clip, smoothness, epsilon) {
  supports <- isTRUE(dpglmnet_solvers[[solver]]()$weights)
  for (arg in c("weights", "offset")) {
    if (!is.null(get(arg)) && !supports) {
      dpglmnet_abort(arg, sprintf(paste(
        "is not supported by solver = \"%s\" (its per-record terms and",
        "sensitivities are not weighted); use solver = \"dpcd\"."), solver))
    }
  }
  if (!is.null(weights)) {
    if (identical(clip, "quantile")) {
      dpglmnet_abort("clip", paste(
        "= \"quantile\" is not available with `weights` (its quantile search does",
        "not weigh the records); give a numeric clip."))
    }
    if (identical(smoothness, "quantile") ||
        (identical(smoothness, "private") && is.finite(epsilon))) {
      dpglmnet_abort("smoothness", sprintf(paste(
        "= \"%s\" is not available with `weights` (its private constants do not",
        "weigh the records); use \"bounds\", \"uniform\", \"standardized\" or",
        "numeric constants."), smoothness))
    }
  }
  invisible()
}

# The weight-sum release (public: count, sensitivity, share), or NULL.
weights_mechanisms <- function(problem, path_releases) {
  if (is.null(problem$weights) || !is.finite(problem$epsilon)) return(list())
  list(mechanism(
    "weights: sum of the weights, clamped to [0, W]", "gaussian", 1L,
    "W (one weight in [0, W] replaced)", calibrated = TRUE,
    factor = share_factor(1, weight_sum_share, path_share(problem), path_releases),
    key = "weight_sum"))
}

# Releases the weight sum with the noise of its ledger row (problem$ledger)
# and returns the problem with the solver's weights omega_i = w_i n /
# S_released (`weights`), the released sum and `weight_factor` = max
# possible omega_i (W n / S_released; at epsilon = Inf the largest omega_i),
# which multiplies the bound-based sensitivities.
normalize_weights <- function(problem) {
  w <- problem$weights
  if (is.null(w)) return(problem)
  n <- problem$n
  if (is.finite(problem$epsilon)) {
    W <- problem$weights.bound
    # The Gaussian mechanism on S (sensitivity W: one weight in [0, W]
    # replaced) through the package's one column-moments release (as the cv
    # curve's): the mean of w / W with the row's noise sd over n W, times n W.
    problem$ledger <- record_sensitivity(problem$ledger, "weight_sum", W)
    moments <- .column_moments_cpp(matrix(w / W, ncol = 1L), list(
      transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
      mean_sd = release_noise(problem$ledger, "weight_sum") / (n * W), second_sd = 0, lower = NULL, upper = NULL, shift = NULL,
      seed = draw_seed(), secure = problem$rng == "secure"))
    released <- max(moments$mean * n * W, weight_sum_floor * W * n)
    factor <- W * n / released
  } else {
    released <- sum(w)
    factor <- max(w) * n / released
  }
  problem$weights <- w * n / released
  problem$weight_sum <- released
  problem$weight_factor <- factor
  problem
}

# predict()'s `newoffset`: one finite number per new record, clamped to the
# fit's offset interval (public) as the training offsets were.
check_newoffset <- function(newoffset, rows, settings) {
  if (!is.numeric(newoffset) || is.object(newoffset) ||
      (!is.null(dim(newoffset)) && !(length(dim(newoffset)) == 2L && ncol(newoffset) == 1L))) {
    dpglmnet_abort("newoffset", sprintf(
      "must be a numeric vector of one offset per row of `newx`, not %s.",
      class(newoffset)[1L]))
  }
  if (length(newoffset) != rows) {
    dpglmnet_abort("newoffset", sprintf(
      "must have one offset per row of `newx` (%d), not %d.", rows, length(newoffset)))
  }
  if (anyNA(newoffset)) dpglmnet_abort("newoffset", "must not contain NA or NaN.")
  if (any(!is.finite(newoffset))) dpglmnet_abort("newoffset", "must be finite.")
  offset <- as.numeric(newoffset)
  if (!is.null(settings$offset.lower)) {
    offset <- pmin(pmax(offset, settings$offset.lower), settings$offset.upper)
  }
  offset
}

# print()'s lines on weights and offset (public bounds, the released sum).
print_weights_offset <- function(settings, digits) {
  if (isTRUE(settings$weights)) {
    cat(wrap_text(paste0(
      "Weights: ", if (!is.null(settings$weights.bound)) {
        sprintf("clamped to [0, %s] (`weights.bound`), ",
                format(settings$weights.bound, digits = digits))
      }, sprintf("rescaled by their %s sum %s", if (!is.null(settings$weights.bound))
        "released" else "exact", format(settings$weight_sum, digits = digits)))),
      sep = "\n")
  }
  if (isTRUE(settings$has_offset)) {
    cat(wrap_text(paste0(
      "Offset: ", if (!is.null(settings$offset.lower)) {
        sprintf("clamped to [%s, %s] (`offset.bound`), ",
                format(settings$offset.lower, digits = digits),
                format(settings$offset.upper, digits = digits))
      }, "in the linear predictor; predict() needs `newoffset`")), sep = "\n")
  }
  invisible()
}
