# Private standardization: the private counterpart of glmnet's
# standardize = TRUE. With public bounds, the column means and second moments
# of x clamped to `x.bounds` (and of a gaussian y clamped to `y.bound`) are
# released with Gaussian noise at the fit's calibrated noise level, charged
# to the ledger like every other release. The solver then runs on
#   x~_ij = (clamp(x_ij) - c_j) s_j,   y~_i = (clamp(y_i) - m_y) / s_y
# (the core applies the transform as it reads x, no copy), and the path is
# mapped back to the original scale, as glmnet does. Everything below the
# releases is post-processing.

# The standardization releases take `standardize.budget` of the calibrated
# Gaussian privacy (in GDP: of mu^2), split evenly between its groups
# (quantile counts, moments); see share_factor() (R/scales.R).
standardization_factors <- function(problem, path_releases) {
  plan <- problem$standardization
  groups <- c(quantiles = plan$quantile_releases, moments = plan$moment_releases)
  groups <- groups[groups > 0]
  share_factor(groups, problem$standardize.budget / length(groups), path_share(problem),
               path_releases)
}

# What standardize = TRUE will do for this problem (public): NULL when off.
# Dense x in a private fit is first clamped to its privately released 5% and
# 95% quantiles (noisy-count bisection: a count's sensitivity is 1 whatever
# the bounds, so heavy-tailed columns with crude public bounds get useful
# scales; measured on California, Electricity and generated data, see
# inst/bench/defaults.R); sparse x keeps its public bounds (clamping would
# fill in its zeros) and is scaled, not centred.
standardization_plan <- function(standardize, intercept, family, y.bound, sparse, p,
                                 epsilon) {
  if (!standardize) return(NULL)
  scale_y <- family == "gaussian" && !is.null(y.bound)
  winsorize <- !sparse && is.finite(epsilon)
  columns <- p + scale_y
  list(center_x = intercept && !sparse, scale_y = scale_y, winsorize = winsorize,
       levels = c(0.05, 0.95), steps = 12L,
       quantile_releases = if (winsorize) 2 * 12 * columns else 0,
       moment_releases = 2 * columns)
}

# The standardization releases, from public inputs only.
standardization_mechanisms <- function(problem, path_releases) {
  plan <- problem$standardization
  if (is.null(plan)) return(list())
  f <- standardization_factors(problem, path_releases)
  columns <- problem$p + plan$scale_y
  what <- if (plan$scale_y) "x and y" else "x"
  list(
    if (plan$winsorize) {
      mechanism(sprintf(paste("standardization: 5%% and 95%% quantiles of %s",
                              "(noisy-count bisection, %d steps)"), what, plan$steps),
                "gaussian", plan$quantile_releases, "1 (a count)", calibrated = TRUE,
                factor = f[["quantiles"]])
    },
    mechanism(sprintf("standardization: column means of clamped %s", what), "gaussian",
              columns, "2 w_j / n (w_j: half-width of the clamp)", calibrated = TRUE,
              factor = f[["moments"]]),
    mechanism(sprintf("standardization: column second moments of clamped %s", what),
              "gaussian", columns, "w_j^2 / n", calibrated = TRUE,
              factor = f[["moments"]])
  )
}

# Releases the quantiles and moments of the columns of `x` (read clamped to
# `bound`) at noise multipliers f_q z and f_m z (0: exact, epsilon = Inf):
# list(lower, upper (the clamp; NULL when none), mean, sd).
release_column_scales <- function(x, bound, plan, intercept, noise_quantiles,
                                  noise_moments, rng) {
  n <- nrow(x)
  p <- ncol(x)
  secure <- rng == "secure"
  lower <- upper <- NULL
  mid <- rep(0, p)
  w <- bound
  if (plan$winsorize) {
    q <- .column_quantiles_cpp(x, list(
      transform = list(lower = -bound, upper = bound, center = NULL, scale = NULL),
      search_bound = bound, levels = plan$levels, steps = plan$steps,
      count_sd = noise_quantiles, seed = draw_seed(), secure = secure))
    lower <- q$lower
    upper <- pmax(q$upper, q$lower + 1e-6 * bound)
    mid <- (lower + upper) / 2
    w <- (upper - lower) / 2
  }
  # Noise sd = noise multiplier x replace-one sensitivity (2w/n, w^2/n);
  # none at all for epsilon = Inf (where w may be infinite).
  noise_sd <- function(sensitivity) {
    if (noise_moments > 0) noise_moments * sensitivity else rep(0, p)
  }
  second_noise <- noise_sd(w^2 / n)
  moments <- .column_moments_cpp(x, list(
    transform = list(lower = if (all(is.finite(bound))) -bound,
                     upper = if (all(is.finite(bound))) bound, center = NULL, scale = NULL),
    mean_sd = noise_sd(2 * w / n),
    second_sd = second_noise, lower = lower, upper = upper,
    shift = if (plan$winsorize) mid, seed = draw_seed(), secure = secure))
  scale <- standardization_scale(moments$mean, moments$second, w, 2 * second_noise)
  list(lower = lower, upper = upper, mean = scale$mean + mid,
       centred_second = scale$second, centred_mean = scale$mean, sd = scale$sd)
}

# Releases the standardization at noise level z (0: exact, epsilon = Inf)
# and returns the problem on the standardized scale, with what is needed to
# map its path back.
standardize_problem <- function(problem, z, path_releases) {
  plan <- problem$standardization
  if (is.null(plan)) return(problem)
  # Without bounds (epsilon = Inf only) nothing is clamped.
  b <- if (is.null(problem$x.bounds)) rep(Inf, problem$p) else problem$x.bounds
  private <- is.finite(problem$epsilon)
  if (private && !(z > 0)) stop("internal error: a private standardization needs noise")
  f <- standardization_factors(problem, path_releases)
  noise_q <- if (private && plan$winsorize) f[["quantiles"]] * z else 0
  noise_m <- if (private) f[["moments"]] * z else 0
  # The noisy-count bisection looks for the 5% of records in each tail; with
  # count noise above twice that many records the released ranges and scales
  # are mostly noise (measured on n = 400: worse than predicting the mean at
  # epsilon = 0.5). Public: the noise sd, n and the level.
  if (plan$winsorize && noise_q > 2 * plan$levels[1] * problem$n) {
    dpglmnet_warn(sprintf(paste(
      "with %d records at epsilon = %s the private standardization is noisy",
      "(count noise sd %.0f against %.0f records in each 5%% tail): the fit",
      "may be far from a non-private one, even worse than predicting the mean.",
      "More records or a larger epsilon help."), problem$n,
      format(problem$epsilon), noise_q, plan$levels[1] * problem$n))
  }
  xs <- release_column_scales(problem$x, b, plan, problem$intercept, noise_q, noise_m,
                              problem$rng)
  center <- if (plan$center_x) xs$mean else NULL
  scale <- 1 / xs$sd

  y <- problem$y
  y_mean <- 0
  y_sd <- 1
  if (plan$scale_y) {
    ys <- release_column_scales(matrix(y, ncol = 1L), problem$y.bound, plan,
                                problem$intercept, noise_q, noise_m, problem$rng)
    if (!is.null(ys$lower)) y <- pmin(pmax(y, ys$lower), ys$upper)
    y_mean <- if (problem$intercept) ys$mean else 0
    y_sd <- ys$sd
    y <- (y - y_mean) / y_sd
  }
  # On the standardized scale the data-fitting term is (1/s_y^2) times the
  # original one, so the original objective is kept with lambda' alpha' =
  # lambda alpha / s_y and lambda' (1 - alpha') = lambda (1 - alpha):
  # lambda' = k lambda with k = alpha / s_y + 1 - alpha (k = 1 unless y is
  # scaled). Limits on b_j bound c_j = b_j / (s_y s_j).
  k <- problem$alpha / y_sd + 1 - problem$alpha
  lower <- if (!is.null(xs$lower)) xs$lower else if (all(is.finite(b))) -b
  upper <- if (!is.null(xs$upper)) xs$upper else if (all(is.finite(b))) b
  scaled <- problem
  scaled$y <- y
  scaled$transform <- list(lower = lower, upper = upper, center = center, scale = scale)
  scaled$alpha <- if (k > 0) problem$alpha / y_sd / k else problem$alpha
  if (!is.null(problem$lambda)) scaled$lambda <- problem$lambda * k
  # l1 radii (R/l1.R) bound sum_j sd_j |b_j| on the original scale of y, as
  # glmnet's standardized penalty: the standardized coefficients c_j =
  # b_j sd_j / s_y then lie in the ball of radius R / s_y.
  if (!is.null(problem$l1.radius)) scaled$l1.radius <- problem$l1.radius / y_sd
  scaled$lower.limits <- problem$lower.limits / (y_sd * scale)
  scaled$upper.limits <- problem$upper.limits / (y_sd * scale)
  # |x~_ij| <= max(|lower_j - c_j|, |upper_j - c_j|) s_j: the bound of the
  # transformed values (from released constants), for smoothness sources
  # that need one.
  c0 <- if (is.null(center)) 0 else center
  scaled$value_bounds <- if (is.null(lower)) rep(Inf, problem$p) else
    pmax(abs(lower - c0), abs(upper - c0)) * scale
  # Smoothness constants of the standardized columns follow from the released
  # moments (post-processing): curvature (1/n) sum x~^2 = curvature s^2 E(x - c)^2,
  # which is curvature when centred (the variance is s^-2).
  mean_shift <- xs$mean - c0
  scaled$standardized_smoothness <- problem$curvature * scale^2 *
    (xs$sd^2 + mean_shift^2)
  scaled$standardization_result <- list(
    x_center = if (is.null(center)) rep(0, problem$p) else center, x_scale = scale,
    x_mean = xs$mean, x_sd = xs$sd, x_lower = xs$lower, x_upper = xs$upper,
    y_mean = y_mean, y_sd = y_sd, lambda_factor = k)
  scaled
}

# Post-processing of released moments into a mean and a standard deviation:
# the mean clamped to [-b, b], the second moment to [0, b^2], and the
# variance floored at `variance_floor` (twice the noise sd of the second
# moment: a smaller variance cannot be told from noise, and an underestimated
# scale makes the step 1 / M_j diverge), at 1e-8 b^2, and (exact moments of a
# constant column) at 1e-12 times the second moment. As glmnet, the scale is
# the standard deviation about the mean also without an intercept (then the
# columns are scaled but not centred).
standardization_scale <- function(mean, second, bound, variance_floor) {
  mean <- pmin(pmax(mean, -bound), bound)
  second <- pmin(pmax(second, 0), bound^2)
  relative_floor <- ifelse(is.finite(bound), 1e-8 * bound^2, 0)
  variance <- pmax(second - mean^2, variance_floor, relative_floor, 1e-12 * second,
                   .Machine$double.xmin)
  list(mean = mean, second = second, sd = sqrt(variance))
}

# The path of the standardized problem on the original scale: b_j = s_y s_j
# c_j, b_0 = m_y + s_y c_0 - sum_j b_j c_j, lambda = lambda' / k; an l1
# radius (parameter = "radius") R = s_y R', so that the reported radius
# bounds sum_j sd_j |b_j| (see standardize_problem()).
unstandardize_path <- function(path, lambda, scaled, parameter = c("lambda", "radius")) {
  parameter <- match.arg(parameter)
  r <- scaled$standardization_result
  if (is.null(r)) {
    return(list(beta = path$beta, a0 = path$a0, lambda = lambda, picks = path$picks))
  }
  beta <- path$beta * (r$y_sd * r$x_scale)
  a0 <- r$y_mean + r$y_sd * path$a0 - colSums(beta * r$x_center)
  list(beta = beta, a0 = a0, picks = path$picks,
       lambda = if (parameter == "radius") lambda * r$y_sd else lambda / r$lambda_factor)
}
