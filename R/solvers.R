# The private path skeleton every solver plugs into. A solver is a list of
# functions of the checked problem (see check_problem()):
#   setup(problem)            its constants, and the mechanisms already run
#                             to get them (e.g. private smoothness), as
#                             list(..., mechanisms = list of mechanism()s);
#   releases(problem, setup)  the mechanisms of the path, noise calibrated;
#   start_release(problem, setup)  the mechanism behind a private lambda_max
#                             (used when no lambda is given), or NULL;
#   noise(problem, setup, z)  the noise settings given the noise level z;
#   start_gradient(problem, setup, noise)  the released gradient at 0;
#   path(problem, setup, noise, lambda)    list(beta = p x nlambda, a0);
#   settings(problem, setup, noise)        what the fit reports about itself.
# fit_private_path() runs them in that order: it lists every mechanism of the
# fit, calibrates one noise level for all of them, releases lambda_max if
# needed, runs the path and builds the ledger. Adding a solver is adding its
# file and an entry in dpglmnet_solvers.

dpglmnet_solvers <- list(
  dpcd = function() dpcd_solver,
  dpsgd = function() dpsgd_solver
)

fit_private_path <- function(problem) {
  solver <- dpglmnet_solvers[[problem$solver]]()
  setup <- solver$setup(problem)
  release_lambda_max <- is.null(problem$lambda)
  mechanisms <- mechanism_table(c(
    problem$preprocessing$mechanisms,
    setup$mechanisms,
    if (release_lambda_max) list(solver$start_release(problem, setup)),
    solver$releases(problem, setup)))
  z <- calibrate_noise(mechanisms, problem$epsilon, problem$delta)
  ledger <- new_privacy_ledger(mechanisms, z, problem$epsilon, problem$delta,
                               problem$rng)
  noise <- solver$noise(problem, setup, z)
  lambda <- problem$lambda
  if (release_lambda_max) {
    lambda <- lambda_grid(solver$start_gradient(problem, setup, noise), problem)
  }
  path <- solver$path(problem, setup, noise, lambda)
  settings <- c(
    list(solver = problem$solver, passes = problem$passes, step = problem$step,
         clip = problem$clip, alpha = problem$alpha, noise_multiplier = z,
         lambda_max = if (release_lambda_max) lambda[1L],
         penalty.factor = problem$penalty.factor,
         lower.limits = problem$lower.limits, upper.limits = problem$upper.limits,
         x.bounds = problem$x.bounds, y.bound = problem$y.bound),
    solver$settings(problem, setup, noise))
  list(beta = path$beta, a0 = path$a0, lambda = lambda, privacy = ledger,
       settings = settings)
}

# What the C++ entries need of every problem: the family, the intercept, the
# column transform of x, the penalty, and a fresh seed (or the secure source).
core_settings <- function(problem, ...) {
  c(list(family = problem$family, intercept = problem$intercept,
         transform = problem$transform, alpha = problem$alpha,
         penalty_factor = problem$penalty.factor,
         lower_limits = problem$lower.limits, upper_limits = problem$upper.limits,
         seed = draw_seed(), secure = problem$rng == "secure",
         trace = problem$trace.it),
    list(...))
}

# The lambda grid from the private gradient at the starting point: glmnet's
# lambda_max = max_j |grad_j| / (alpha pf_j) (alpha floored at 1e-3 as glmnet
# does for ridge), then a geometric sequence. Post-processing only.
lambda_grid <- function(start_gradient, problem) {
  penalized <- problem$penalty.factor > 0
  lambda_max <- max(abs(start_gradient[penalized]) /
                      (max(problem$alpha, 1e-3) * problem$penalty.factor[penalized]))
  if (!(lambda_max > 0) || !is.finite(lambda_max)) lambda_max <- .Machine$double.eps
  lambda_max * exp(seq(0, log(problem$lambda.min.ratio),
                       length.out = problem$nlambda))
}
