# Private standardization: the private counterpart of glmnet's
# standardize = TRUE. With public bounds, the column means and second moments
# of x clamped to `x.bounds` (and of a gaussian y clamped to `y.bound`) are
# released with Gaussian noise at the fit's calibrated noise level, charged
# to the ledger like every other release. The solver then runs on
#   x~_ij = (clamp(x_ij) - c_j) s_j,   y~_i = (clamp(y_i) - m_y) / s_y
# (the core applies the transform as it reads x, no copy), and the path is
# mapped back to the original scale, as glmnet does. Everything below the
# releases is post-processing.

# The shares of the calibrated Gaussian privacy (in GDP: of mu^2) spent on
# standardization: the factor that multiplies the fit's noise level for these
# rows, so that K releases at factor f against R_total path releases at factor
# 1 take share s of mu^2: K / f^2 = s / (1 - s) R_total.
standardization_factor <- function(share, releases, path_releases) {
  sqrt(releases * (1 - share) / (share * path_releases))
}

# The standardization releases, from public inputs only.
standardization_mechanisms <- function(problem, path_releases) {
  plan <- problem$standardization
  if (is.null(plan)) return(list())
  releases <- plan$x_releases + plan$y_releases
  f <- standardization_factor(problem$standardize.budget, releases, path_releases)
  list(
    if (problem$intercept) {
      mechanism("standardization: column means of x (clamped to x.bounds)", "gaussian",
                problem$p, "2 b_j / n per column", calibrated = TRUE, factor = f)
    },
    mechanism("standardization: column second moments of x (clamped)", "gaussian",
              problem$p, "b_j^2 / n per column", calibrated = TRUE, factor = f),
    if (plan$scale_y) {
      mechanism("standardization: mean of y (clamped to y.bound)", "gaussian", 1,
                "2 y.bound / n", calibrated = TRUE, factor = f)
    },
    if (plan$scale_y) {
      mechanism("standardization: second moment of y (clamped)", "gaussian", 1,
                "y.bound^2 / n", calibrated = TRUE, factor = f)
    }
  )
}

# What standardize = TRUE will do for this problem (public): NULL when off.
standardization_plan <- function(standardize, intercept, family, y.bound, sparse, p) {
  if (!standardize) return(NULL)
  scale_y <- family == "gaussian" && !is.null(y.bound)
  list(center_x = intercept && !sparse, scale_y = scale_y,
       x_releases = p * (1 + intercept), y_releases = 2 * scale_y)
}

# Releases the moments at noise level z (0: exact, epsilon = Inf) and returns
# the problem on the standardized scale, with `back` to map its path back.
standardize_problem <- function(problem, z, path_releases) {
  plan <- problem$standardization
  if (is.null(plan)) return(problem)
  n <- problem$n
  # Without bounds (epsilon = Inf only) nothing is clamped.
  b <- if (is.null(problem$x.bounds)) rep(Inf, problem$p) else problem$x.bounds
  private <- is.finite(problem$epsilon) && z > 0
  f <- if (private) {
    standardization_factor(problem$standardize.budget,
                           plan$x_releases + plan$y_releases, path_releases)
  } else 0
  # Noise sd = noise multiplier (f z) x replace-one sensitivity.
  noise_sd <- function(sensitivity) {
    if (private) f * z * sensitivity else rep(0, length(sensitivity))
  }
  second_noise <- noise_sd(b^2 / n)
  moments <- .column_moments_cpp(problem$x, list(
    transform = list(bound = problem$x.bounds, center = NULL, scale = NULL),
    mean_sd = if (problem$intercept) noise_sd(2 * b / n) else rep(0, problem$p),
    second_sd = second_noise, seed = draw_seed(), secure = problem$rng == "secure"))
  x_scale <- standardization_scale(moments$mean, moments$second, b, second_noise,
                                   problem$intercept)
  center <- if (plan$center_x) x_scale$mean else NULL
  scale <- 1 / x_scale$sd

  y <- problem$y
  y_mean <- 0
  y_sd <- 1
  if (plan$scale_y) {
    B <- problem$y.bound
    y_moments <- .column_moments_cpp(matrix(y, ncol = 1L), list(
      transform = list(bound = B, center = NULL, scale = NULL),
      mean_sd = noise_sd(2 * B / n), second_sd = noise_sd(B^2 / n),
      seed = draw_seed(), secure = problem$rng == "secure"))
    y_scale <- standardization_scale(y_moments$mean, y_moments$second, B,
                                     noise_sd(B^2 / n), problem$intercept)
    y_mean <- if (problem$intercept) y_scale$mean else 0
    y_sd <- y_scale$sd
    y <- (y - y_mean) / y_sd
  }
  # On the standardized scale the data-fitting term is (1/s_y^2) times the
  # original one, so the original objective is kept with lambda' alpha' =
  # lambda alpha / s_y and lambda' (1 - alpha') = lambda (1 - alpha):
  # lambda' = k lambda with k = alpha / s_y + 1 - alpha (k = 1 unless y is
  # scaled). Limits on b_j bound c_j = b_j / (s_y s_j).
  k <- problem$alpha / y_sd + 1 - problem$alpha
  scaled <- problem
  scaled$y <- y
  scaled$transform <- list(bound = problem$x.bounds, center = center, scale = scale)
  scaled$alpha <- if (k > 0) problem$alpha / y_sd / k else problem$alpha
  if (!is.null(problem$lambda)) scaled$lambda <- problem$lambda * k
  # l1 radii (R/l1.R) bound sum_j sd_j |b_j| on the original scale of y, as
  # glmnet's standardized penalty: the standardized coefficients c_j =
  # b_j sd_j / s_y then lie in the ball of radius R / s_y.
  if (!is.null(problem$l1.radius)) scaled$l1.radius <- problem$l1.radius / y_sd
  scaled$lower.limits <- problem$lower.limits / (y_sd * scale)
  scaled$upper.limits <- problem$upper.limits / (y_sd * scale)
  # |x~_ij| <= (b_j + |c_j|) s_j: the public-after-release bound of the
  # transformed values, for smoothness sources that need one.
  scaled$value_bounds <- (b + if (is.null(center)) 0 else abs(center)) * scale
  # Smoothness constants of the standardized columns follow from the released
  # moments (post-processing): curvature (1/n) sum x~^2 =
  # curvature s^2 (second - 2 c mean + c^2).
  c0 <- if (is.null(center)) 0 else center
  scaled$standardized_smoothness <- problem$curvature * scale^2 *
    pmax(x_scale$second - 2 * c0 * x_scale$mean + c0^2, x_scale$sd^2 * 1e-3)
  scaled$standardization_result <- list(
    x_center = if (is.null(center)) rep(0, problem$p) else center, x_scale = scale,
    x_mean = x_scale$mean, x_sd = x_scale$sd, y_mean = y_mean, y_sd = y_sd,
    lambda_factor = k, noise_factor = f)
  scaled
}

# Post-processing of released moments into a mean and a standard deviation:
# the mean clamped to [-b, b], the second moment to [0, b^2], and the
# variance floored at the noise sd of the second moment (a smaller one cannot
# be told from noise) and at 1e-6 b^2. Without an intercept glmnet scales by
# the root mean square, so the mean is taken as 0.
standardization_scale <- function(mean, second, bound, second_noise, intercept) {
  mean <- if (intercept) pmin(pmax(mean, -bound), bound) else 0 * second
  second <- pmin(pmax(second, 0), bound^2)
  variance <- pmax(second - mean^2, second_noise, 1e-6 * bound^2)
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
