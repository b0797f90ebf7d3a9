# Proximal DP coordinate descent (Mangold et al. 2022, Algorithm 1); the
# numerical work is in src/dpglmnet/dpcd.h.

fit_dpcd <- function(problem) {
  private <- is.finite(problem$epsilon)
  secure <- problem$rng == "secure"
  smooth <- problem_smoothness(problem)
  # Coordinates: the p features, then the intercept.
  m <- smooth$coordinates
  coordinates <- length(m)
  step_j <- ifelse(m > 0, problem$step / m, 0)
  # Sec. 5.1: C_j = sqrt(M_j / tr M) C, so the clipped gradient has
  # sensitivity at most 2C in the norm weighted by M^-1 / tr M.
  clip_j <- if (private) sqrt(m / sum(m)) * problem$clip else rep(Inf, coordinates)

  mechanisms <- rbind(
    if (smooth$source == "private") {
      mechanism_row("smoothness constants M_j (clamped per-record x_ij^2)",
                    "laplace", problem$p, smooth$laplace_epsilon)
    },
    if (is.null(problem$lambda)) {
      mechanism_row("lambda_max: clipped coordinate gradients at 0",
                    "gaussian", problem$p)
    },
    mechanism_row("DP-CD clipped coordinate gradients", "gaussian",
                  problem$nlambda * problem$passes * coordinates)
  )
  calibration <- calibrate_gaussian(mechanisms, mechanisms$type == "gaussian",
                                    problem)
  z <- calibration$noise_multiplier
  # sigma_j = z * (replace-one sensitivity 2 C_j / n).
  noise_sd <- if (private) z * 2 * clip_j / problem$n else rep(0, coordinates)

  lambda <- problem$lambda
  lambda_max <- NULL
  if (is.null(lambda)) {
    features <- seq_len(problem$p)
    start_gradient <- .dpcd_start_gradient_cpp(
      problem$x, problem$x.bounds, problem$y, problem$family, clip_j[features],
      noise_sd[features], draw_seed(), secure)
    lambda <- lambda_grid(start_gradient, problem)
    lambda_max <- lambda[1L]
  }
  path <- .dpcd_path_cpp(
    problem$x, problem$x.bounds, problem$y, problem$family, problem$intercept, lambda,
    problem$alpha, problem$penalty.factor, problem$lower.limits,
    problem$upper.limits, step_j, clip_j, noise_sd, problem$passes,
    problem$selection, problem$average, draw_seed(), secure, problem$trace.it)

  list(
    beta = path$beta, a0 = path$a0, lambda = lambda,
    privacy = calibration$ledger,
    settings = list(
      solver = "dpcd", passes = problem$passes, step = problem$step,
      clip = problem$clip, selection = problem$selection,
      average = problem$average, alpha = problem$alpha,
      smoothness = smooth$source, smoothness_values = m,
      laplace_scale = smooth$laplace_scale,
      coordinate_step = step_j, coordinate_clip = clip_j,
      noise_multiplier = z, noise_sd = noise_sd, lambda_max = lambda_max,
      penalty.factor = problem$penalty.factor,
      lower.limits = problem$lower.limits, upper.limits = problem$upper.limits,
      x.bounds = problem$x.bounds, y.bound = problem$y.bound
    )
  )
}
