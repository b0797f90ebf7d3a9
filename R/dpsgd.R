# Proximal DP-SGD, the baseline of Mangold et al. (2022, Sec. 6); the
# numerical work is in src/dpglmnet/dpsgd.h.

fit_dpsgd <- function(problem) {
  private <- is.finite(problem$epsilon)
  secure <- problem$rng == "secure"
  smooth <- problem_smoothness(problem)
  # Global smoothness: beta = tr M (features and intercept), the average
  # over records of curvature * ||(x_i, 1)||^2, an upper bound on the
  # largest eigenvalue of the Hessian bound curvature * X'X / n.
  m <- smooth$coordinates
  beta <- sum(m)
  gamma <- if (beta > 0) problem$step / beta else 0
  clip <- if (private) problem$clip else Inf
  batch <- problem$batch.size
  rate <- batch / problem$n
  steps <- ceiling(problem$passes * problem$n / batch)

  mechanisms <- rbind(
    if (smooth$source == "private") {
      mechanism_row("smoothness constants M_j (clamped per-record x_ij^2)",
                    "laplace", problem$p, smooth$laplace_epsilon)
    },
    if (is.null(problem$lambda)) {
      mechanism_row("lambda_max: clipped full gradient at 0", "gaussian", 1)
    },
    mechanism_row("DP-SGD clipped minibatch gradient sums", "gaussian",
                  problem$nlambda * steps, sampling_rate = rate,
                  sampling = if (rate < 1) "without_replacement" else "none")
  )
  calibration <- calibrate_gaussian(mechanisms, mechanisms$type == "gaussian",
                                    problem, accountant = "rdp")
  z <- calibration$noise_multiplier
  # The sum of per-record gradients clipped to C has replace-one
  # sensitivity 2C.
  noise_sd <- if (private) z * 2 * clip else 0

  lambda <- problem$lambda
  lambda_max <- NULL
  if (is.null(lambda)) {
    start_gradient <- .dpsgd_start_gradient_cpp(
      problem$x, problem$x.bounds, problem$y, problem$family, problem$intercept, clip, noise_sd,
      draw_seed(), secure)
    lambda <- lambda_grid(start_gradient, problem)
    lambda_max <- lambda[1L]
  }
  path <- .dpsgd_path_cpp(
    problem$x, problem$x.bounds, problem$y, problem$family, problem$intercept, lambda,
    problem$alpha, problem$penalty.factor, problem$lower.limits,
    problem$upper.limits, gamma, clip, noise_sd, batch, steps, draw_seed(),
    secure, problem$trace.it)

  list(
    beta = path$beta, a0 = path$a0, lambda = lambda,
    privacy = calibration$ledger,
    settings = list(
      solver = "dpsgd", passes = problem$passes, step = problem$step,
      clip = problem$clip, batch.size = batch, sampling_rate = rate,
      steps_per_lambda = steps, alpha = problem$alpha,
      smoothness = smooth$source, smoothness_values = m,
      laplace_scale = smooth$laplace_scale, global_smoothness = beta,
      step_size = gamma, noise_multiplier = z, noise_sd = noise_sd,
      lambda_max = lambda_max, penalty.factor = problem$penalty.factor,
      lower.limits = problem$lower.limits, upper.limits = problem$upper.limits,
      x.bounds = problem$x.bounds,
      y.bound = problem$y.bound
    )
  )
}
