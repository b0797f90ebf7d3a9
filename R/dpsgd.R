# Proximal DP-SGD, the baseline of Mangold et al. (2022, Sec. 6), as a solver
# of the private path skeleton (R/solvers.R); the numerical work is in
# src/dpglmnet/dpsgd.h.

dpsgd_solver <- new_solver("dpsgd",
  uses_batch = TRUE,  # reads `batch.size` (check_problem() checks it)
  # All n records by default: full-batch proximal DP gradient descent, its
  # releases accounted exactly in GDP. At epsilon = 1 with its private
  # standardization, cv.dpglmnet() held out over cv.glmnet, batch sqrt(n) /
  # n / 4 / n (inst/bench/real_sets.R-style splits): California 1.08 / 0.81
  # / 0.84, Electricity 1.21 / 1.03 / 1.00, Bikeshare 5.4 / 2.3 / 1.32,
  # Default 1.57 / 1.17 / 1.20 (sqrt(n): its worst split 1.6x the majority
  # class), Satellite - / 4.1 / 1.85. Small batches pay the noise of
  # a sum of few clipped gradients at every step; sampling's amplification
  # does not make up for it at these budgets.
  default_batch_size = function(n) n,
  # DP-SGD's one step 1 / tr M diverged with quantile smoothness constants
  # on the Table 2 problems (heavy-tailed columns make the clamped moments
  # underestimate tr M), so it keeps the Laplace ones; clip = "quantile" is
  # one L2 threshold per record (R/scales.R)
  smoothness = "private", quantile_clip = "record",
  setup = function(problem) {
    smooth <- problem_smoothness(problem)
    # Global smoothness: beta = tr M (features and intercept), the average
    # over records of curvature * ||(x_i, 1)||^2, an upper bound on the
    # largest eigenvalue of the Hessian bound curvature * X'X / n.
    beta <- sum(smooth$coordinates)
    batch <- problem$batch.size
    list(
      smooth = smooth, beta = beta,
      step_size = if (beta > 0) problem$step / beta else 0,
      clip = if (!is.finite(problem$epsilon)) Inf
             else if (!is.null(problem$released_clip)) problem$released_clip  # R/scales.R
             else problem$clip,
      batch = batch, rate = batch / problem$n,
      steps = dpsgd_steps(problem)
    )
  },
  start_release = function(problem) {
    mechanism("lambda_max: clipped full gradient at 0", "gaussian", 1, "2 C",
              calibrated = TRUE, key = "lambda_max")
  },
  releases = function(problem) {
    rate <- problem$batch.size / problem$n
    list(mechanism("DP-SGD clipped minibatch gradient sums", "gaussian",
                   problem$nlambda * dpsgd_steps(problem), "2 C", calibrated = TRUE,
                   sampling = if (rate < 1) "without_replacement" else "none",
                   sampling_rate = rate, key = "path"))
  },
  # The sum of per-record gradients clipped to C has replace-one
  # sensitivity 2C (the path's steps and lambda_max alike).
  sensitivity = function(problem, setup, lambda = NULL) {
    list(lambda_max = 2 * setup$clip, path = 2 * setup$clip)
  },
  noise = function(problem, setup, ledger) release_noise(ledger, "path"),
  start_gradient = function(problem, setup, noise) {
    .dpsgd_start_gradient_cpp(problem$x, problem$y, core_settings(
      problem, clip = setup$clip, noise_sd = noise))
  },
  path = function(problem, setup, noise, lambda) {
    .dpsgd_path_cpp(problem$x, problem$y, core_settings(
      problem, lambda = lambda, step_size = setup$step_size, clip = setup$clip,
      noise_sd = noise, batch_size = setup$batch, steps = setup$steps))
  },
  settings = function(problem, setup, noise, lambda = NULL) {
    list(batch.size = setup$batch, sampling_rate = setup$rate,
         steps_per_lambda = setup$steps, smoothness = setup$smooth$source,
         smoothness_values = setup$smooth$coordinates,
         laplace_scale = setup$smooth$laplace_scale, global_smoothness = setup$beta,
         step_size = setup$step_size, clip_threshold = setup$clip, noise_sd = noise,
         # sd of the noise one step adds to each coefficient: gamma sigma / m.
         coefficient_noise = setup$step_size * noise / setup$batch)
  }
)

# Minibatch steps per lambda: `passes` epochs of n / batch.size steps.
dpsgd_steps <- function(problem) ceiling(problem$passes * problem$n / problem$batch.size)
