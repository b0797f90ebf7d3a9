# DP-SCD, private stochastic dual coordinate descent (Damaskinos et al., AAAI
# 2021, Algorithm 1), as a solver of the private path skeleton
# (R/solvers.R); the numerical work, the replace-one sensitivity and why the
# batch is accounted as revealed are in src/dpglmnet/dpscd.h.

dpscd_solver <- new_solver("dpscd",
  # 1: the scale of a dual variable (|a_i| <= 1 for logistic, a residual
  # for standardized ridge)
  default_clip = function(p, intercept) 1,
  check = function(problem) check_dpscd(problem),
  # lambda_max from the private gradient at 0 as max_j |g_j| / pf_j: alpha is
  # floored at 1 rather than glmnet's 1e-3 (which puts the top of a ridge
  # path at 1000 times the lasso's lambda_max, where the fit is 0 to every
  # printed digit).
  alpha_floor = 1,
  uses_batch = TRUE,  # reads `batch.size` (check_problem() checks it)
  setup = function(problem) {
    batch <- problem$batch.size
    private <- is.finite(problem$epsilon)
    row_bound <- dpscd_row_bound(problem)
    list(
      clip = if (private) problem$clip else Inf,
      row_bound = if (private) row_bound else Inf,
      batch = batch, rate = batch / problem$n,
      steps = dpscd_steps(problem)
    )
  },
  start_release = function(problem) {
    mechanism("lambda_max: clipped full gradient at 0", "gaussian", 1, "2 C",
              calibrated = TRUE, key = "lambda_max")
  },
  releases = function(problem) {
    rate <- problem$batch.size / problem$n
    list(mechanism("DP-SCD minibatch updates (dual coordinates of the batch, v)",
                   "gaussian", problem$nlambda * dpscd_steps(problem),
                   "2 C sqrt(1 + R^2)", calibrated = TRUE,
                   sampling = if (rate < 1) "revealed" else "none",
                   sampling_rate = rate, key = "path"))
  },
  # Replace-one sensitivity of one step's release (dpscd.h): 2 C sqrt(1 +
  # R^2); lambda_max is the DP-SGD release, every record's gradient at 0
  # clipped to C, summed: 2 C.
  sensitivity = function(problem, setup, lambda = NULL) {
    list(lambda_max = 2 * setup$clip,
         path = dpscd_sensitivity(setup$clip, setup$row_bound))
  },
  noise = function(problem, setup, ledger) release_noise(ledger, "path"),
  start_gradient = function(problem, setup, noise_sd) {
    .dpsgd_start_gradient_cpp(problem$x, problem$y, core_settings(
      problem, clip = setup$clip, noise_sd = noise_sd))
  },
  path = function(problem, setup, noise, lambda) {
    .dpscd_path_cpp(problem$x, problem$y, core_settings(
      problem, lambda = lambda, clip = setup$clip, noise_sd = noise,
      row_bound = setup$row_bound, batch_size = setup$batch, steps = setup$steps))
  },
  settings = function(problem, setup, noise, lambda = NULL) {
    list(batch.size = setup$batch, sampling_rate = setup$rate,
         steps_per_lambda = setup$steps, row_bound = setup$row_bound,
         sensitivity = dpscd_sensitivity(setup$clip, setup$row_bound),
         noise_sd = noise,
         coefficient_noise = dpscd_coefficient_noise(noise, lambda, problem$n,
                                                     setup$steps),
         # one value per lambda, the same on every coefficient (print())
         coefficient_noise_per = "lambda")
  }
)

# Minibatch steps per lambda: `passes` epochs of n / batch.size steps.
dpscd_steps <- function(problem) ceiling(problem$passes * problem$n / problem$batch.size)

# The sd of the noise the steps of one lambda leave in a coefficient (on the
# working scale, standardized when standardize = TRUE): a step adds
# N(0, s^2) to every coordinate of v (s = `noise`) and nothing takes it out
# again, so after T steps v_j carries N(0, T s^2), and the model is
# b = v / (lambda n): sd sqrt(T) s / (lambda n). (Unlike DP-CD, whose
# coordinate updates re-minimize, this noise accumulates.) The noise on the
# batch's dual coordinates reaches b only through later, clipped updates.
# Public: s, T, lambda (public or released) and n.
dpscd_coefficient_noise <- function(noise, lambda, n, steps = 1) {
  if (is.null(lambda)) return(NULL)
  sqrt(steps) * noise / (lambda * n)
}

dpscd_sensitivity <- function(clip, row_bound) 2 * clip * sqrt(1 + row_bound^2)

# The public L2 bound on a record as the solver reads it: from the per-column
# bounds on that scale (`value_bounds`: x.bounds, or the standardized
# bounds); Inf without bounds (epsilon = Inf only).
dpscd_row_bound <- function(problem) {
  # (with intervals: x is read clamped to [lower_j, upper_j], so |x_ij| <=
  # max(|lower_j|, |upper_j|), the envelope held in value_bounds; the row
  # bound, hence the sensitivity, stays valid)
  b <- problem$value_bounds
  if (is.null(b)) Inf else sqrt(sum(b^2))
}

# What DP-SCD needs of a problem, checked with the other arguments (before
# any computation).
check_dpscd <- function(problem) {
  family <- problem_family(problem)
  if (!family$closed_form_dual) {
    dpglmnet_abort("family", sprintf(paste(
      "= \"%s\" is not fitted by solver = \"dpscd\": its dual coordinate update",
      "has no closed form. Use solver = \"dpcd\"."), family$name))
  }
  if (problem$alpha != 0) {
    dpglmnet_abort("alpha", paste(
      "must be 0 for solver = \"dpscd\": the dual method needs the strongly",
      "convex L2 (ridge) penalty, and alpha > 0 has an l1 part it cannot",
      "handle. Use solver = \"dpcd\" or \"dpsgd\" for alpha > 0."))
  }
  if (problem$intercept) {
    dpglmnet_abort("intercept", paste(
      "must be FALSE for solver = \"dpscd\": the dual method has no",
      "unpenalized coordinate for an intercept. Centre y (and x) with public",
      "constants and use intercept = FALSE, or use solver = \"dpcd\"."))
  }
  if (any(problem$penalty.factor != problem$penalty.factor[1L])) {
    dpglmnet_abort("penalty.factor", paste(
      "must be the same for every column with solver = \"dpscd\" (its dual",
      "is that of the plain ridge penalty); rescale the columns instead."))
  }
  if (any(is.finite(problem$lower.limits)) || any(is.finite(problem$upper.limits))) {
    dpglmnet_abort(if (any(is.finite(problem$lower.limits))) "lower.limits" else "upper.limits",
                   "must be infinite with solver = \"dpscd\" (its dual has no box constraints).")
  }
  if (is.null(problem$x.bounds) && is.finite(problem$epsilon)) {
    dpglmnet_abort("x.bounds", paste(
      "must be given for solver = \"dpscd\": its sensitivity needs a public",
      "bound on the L2 norm of a record, sqrt(sum(x.bounds^2)), to which",
      "every record is scaled."))
  }
  if (!is.null(problem$lambda) && any(problem$lambda <= 0)) {
    dpglmnet_abort("lambda", "must be positive for solver = \"dpscd\" (the primal model is v / (lambda n)).")
  }
  problem
}
