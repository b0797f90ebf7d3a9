# The private path skeleton every solver plugs into. A solver is a list of
# functions of the checked problem (see check_problem()):
#   releases(problem)         the mechanisms of its path (public: counts,
#                             sensitivities, sampling), noise calibrated;
#   start_release(problem)    the mechanism behind a private lambda_max (used
#                             when no lambda is given);
#   setup(problem)            its constants (smoothness, steps, clipping), on
#                             the standardized problem;
#   noise(problem, setup, z)  the noise settings given the noise level z;
#   start_gradient(problem, setup, noise)  the released gradient at 0;
#   path(problem, setup, noise, lambda)    list(beta = p x nlambda, a0);
#   settings(problem, setup, noise)        what the fit reports about itself.
# fit_private_path() lists every mechanism of the fit from public inputs
# (standardization, smoothness, lambda_max, path), calibrates one noise
# level for all of them, builds the ledger, then runs them in order and maps
# the path back to the original scale. Adding a solver is adding its file
# and an entry in dpglmnet_solvers.

dpglmnet_solvers <- list(
  dpcd = function() dpcd_solver,
  dpsgd = function() dpsgd_solver,
  dpscd = function() dpscd_solver
)

fit_private_path <- function(problem) {
  solver <- dpglmnet_solvers[[problem$solver]]()
  release_lambda_max <- is.null(problem$lambda)
  solver_rows <- c(if (release_lambda_max) list(solver$start_release(problem)),
                   solver$releases(problem))
  path_releases <- sum(vapply(solver_rows, `[[`, numeric(1), "count"))
  mechanisms <- mechanism_table(c(
    standardization_mechanisms(problem, path_releases),
    list(smoothness_mechanism(problem)),
    solver_rows))
  z <- calibrate_noise(mechanisms, problem$epsilon, problem$delta)
  ledger <- new_privacy_ledger(mechanisms, z, problem$epsilon, problem$delta,
                               problem$rng)
  scaled <- standardize_problem(problem, z, path_releases)
  setup <- solver$setup(scaled)
  noise <- solver$noise(scaled, setup, z)
  lambda <- scaled$lambda
  if (release_lambda_max) {
    lambda <- lambda_grid(solver$start_gradient(scaled, setup, noise), scaled,
                          alpha_floor = if (is.null(solver$alpha_floor)) 1e-3
                                        else solver$alpha_floor)
  }
  path <- unstandardize_path(solver$path(scaled, setup, noise, lambda), lambda, scaled)
  settings <- c(
    list(solver = problem$solver, passes = problem$passes, step = problem$step,
         clip = problem$clip, alpha = problem$alpha, noise_multiplier = z,
         lambda_max = if (release_lambda_max) path$lambda[1L],
         standardize = !is.null(problem$standardization),
         standardization = scaled$standardization_result,
         penalty.factor = problem$penalty.factor,
         lower.limits = problem$lower.limits, upper.limits = problem$upper.limits,
         x.bounds = problem$x.bounds, y.bound = problem$y.bound),
    solver$settings(scaled, setup, noise))
  list(beta = path$beta, a0 = path$a0, lambda = path$lambda, privacy = ledger,
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
# does for ridge, unless the solver sets its own `alpha_floor`), then a
# geometric sequence. Post-processing only.
lambda_grid <- function(start_gradient, problem, alpha_floor = 1e-3) {
  penalized <- problem$penalty.factor > 0
  lambda_max <- max(abs(start_gradient[penalized]) /
                      (max(problem$alpha, alpha_floor) * problem$penalty.factor[penalized]))
  if (!(lambda_max > 0) || !is.finite(lambda_max)) lambda_max <- .Machine$double.eps
  lambda_max * exp(seq(0, log(problem$lambda.min.ratio),
                       length.out = problem$nlambda))
}
