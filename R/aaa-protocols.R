# The protocols of the objects every fit is assembled from: solvers and
# families. Each is a list made by its constructor here, which declares every
# field with its default, so that code outside a solver's or a family's file
# reads declarations and never tests a name (tests/testthat/
# test-protocols.R enforces it). (This file is collated first: the solver
# and family files build their objects when the package loads.)

# The private path skeleton every solver plugs into. A solver is an object
# made by new_solver() that holds everything solver-specific, so that no
# code outside its file tests the solver's name (tests/testthat/
# test-protocols.R enforces it). Its functions of the checked problem (see
# check_problem()):
#   releases(problem)         the mechanisms of its path (public: counts,
#                             sensitivities, sampling), noise calibrated;
#   start_release(problem)    the mechanism behind a private lambda_max (used
#                             when no lambda is given);
#   setup(problem)            its constants (smoothness, steps, clipping), on
#                             the standardized problem; a setup that makes
#                             releases of its own (R/intercept.R: y's range)
#                             returns the ledger with their sensitivities
#                             as `ledger`, which the fit then carries;
#   sensitivity(problem, setup, lambda)  the replace-one sensitivities of
#                             its releases, by the `key` of their ledger rows
#                             ("lambda_max", "path", "path_intercept"): one
#                             value per coordinate (or per radius: `lambda`
#                             is the path's radii for by_radius solvers);
#                             the fit records them on the rows;
#   noise(problem, setup, ledger)  the noise settings, every scale taken from
#                             the ledger's rows (release_noise(), R/privacy.R);
#   start_gradient(problem, setup, noise)  the released gradient at 0, with
#                             the noise of the "lambda_max" row;
#   path(problem, setup, noise, lambda)    list(beta = p x nlambda, a0);
#   settings(problem, setup, noise, lambda) what the fit reports about itself
#                             (lambda: the path's values on the working
#                             scale, for solvers whose noise on the model
#                             depends on it);
#   check(problem)            its own argument checks (after the common
#                             ones), returning the problem;
# and its declarations (defaults in new_solver()):
#   by_radius                 follows a public increasing sequence of l1
#                             radii instead of lambdas (R/l1.R): its `lambda`
#                             argument is the radius sequence on the working
#                             scale, and nothing is released for the grid;
#   uses_batch                draws minibatches of `batch.size` records (for
#                             the others `batch.size` is neither checked nor
#                             kept);
#   default_batch_size(n)     its `batch.size` when none is given;
#   weights                   takes glmnet's `weights` and `offset`;
#   in_database               runs on a database table (R/database.R);
#   reads_x                   its fit reads x (FALSE: the intercept alone),
#                             so a private fit needs `x.bounds`, or
#                             standardize = FALSE (check_x_bounds_given());
#   sparse_shift              centres bound-scaled sparse columns itself
#                             (problem$fw_shift, R/highdim.R);
#   smoothness                NULL: reads no smoothness constants; else the
#                             default private source with x.bounds
#                             ("quantile" or "private", R/smoothness.R);
#   quantile_clip             NULL, or how clip = "quantile" is released:
#                             "coordinate" (one threshold per coordinate) or
#                             "record" (one L2 threshold; R/scales.R);
#   default_clip(p, intercept) the clip when none is given (a number);
#   quantile_clip_default     clip = "quantile" is its default for private,
#                             unstandardized fits with x.bounds;
#   automatic_schedule        the number of lambdas and passes follow the
#                             budget (choose_schedule(), R/dpglmnet.R);
#   factor_blocks             releases the dummies of one factor as one
#                             block (R/dpcd.R): their standardization
#                             leaves them uncentred;
#   exact_convergence         at epsilon = Inf without `passes` given, the
#                             core stops each lambda once converged, up to
#                             exact_passes$max passes (R/dpglmnet.R,
#                             choose_schedule());
#   signal_check              solver = "auto" checks its single lambda
#                             against a released signal (R/signal.R: its
#                             gradients are the clipped coordinate ones);
#   signal_gate               its path takes the check's gate (R/signal.R:
#                             the decision from its first pass's released
#                             gradients; problem$signal_gate holds the
#                             core's settings);
#   priced_releases(problem, path_count)  rows released beside its path
#                             at a factor of the path's noise multiplier
#                             (list() for none), priced as the count / factor^2
#                             path releases they cost (like the signal
#                             check's, R/signal.R): `path_count`, the path's;
#   path_releases(problem, setup)  the releases its path makes once the
#                             standardization is released (NULL: as
#                             planned); fewer spread the planned row over
#                             them at the same cost (respread_release());
#   step_limit                a `step` above it may diverge (a warning);
#   alpha_floor               the floor of alpha in lambda_max (glmnet's
#                             1e-3);
#   convergence_tolerance, unconverged_message(problem, settings, lambda,
#                             relative): the epsilon = Inf convergence check
#                             (diagnose_path()): a relative coefficient
#                             change above the tolerance, and what to say.
# fit_private_path() lists every mechanism of the fit from public inputs
# (standardization, smoothness, lambda_max, path), calibrates one noise
# level for all of them, builds the ledger, then runs them in order and maps
# the path back to the original scale. Adding a solver is adding its file
# and an entry in dpglmnet_solvers.
new_solver <- function(name, ..., by_radius = FALSE, uses_batch = FALSE,
                       default_batch_size = function(n) min(n, max(10, round(sqrt(n)))),
                       weights = FALSE, reads_x = TRUE,
                       in_database = FALSE, smoothness = NULL, quantile_clip = NULL,
                       sparse_shift = FALSE,
                       default_clip = function(p, intercept) sqrt(p + intercept),
                       quantile_clip_default = FALSE, automatic_schedule = FALSE,
                       signal_check = FALSE, signal_gate = FALSE,
                       exact_convergence = FALSE, factor_blocks = FALSE,
                       step_limit = 2, alpha_floor = 1e-3,
                       check = function(problem) problem,
                       path_releases = function(problem, setup) NULL,
                       priced_releases = function(problem, path_count) list(),
                       convergence_tolerance = 1e-4,
                       unconverged_message = lambda_path_unconverged) {
  c(list(name = name, by_radius = by_radius, uses_batch = uses_batch,
         default_batch_size = default_batch_size, weights = weights, reads_x = reads_x,
         in_database = in_database, smoothness = smoothness, quantile_clip = quantile_clip,
         sparse_shift = sparse_shift,
         default_clip = default_clip, quantile_clip_default = quantile_clip_default,
         automatic_schedule = automatic_schedule, signal_check = signal_check,
         signal_gate = signal_gate,
         exact_convergence = exact_convergence,
         factor_blocks = factor_blocks,
         step_limit = step_limit,
         alpha_floor = alpha_floor, check = check, path_releases = path_releases,
         priced_releases = priced_releases,
         convergence_tolerance = convergence_tolerance,
         unconverged_message = unconverged_message),
    list(...))
}

# What an unconverged (epsilon = Inf) lambda path says: the largest
# coefficient change of the last pass, relative to the coefficients' scale,
# was above the tolerance.
lambda_path_unconverged <- function(problem, settings, lambda, relative) {
  sprintf(paste(
    "epsilon = Inf: the path has not converged in %d passes (the last pass",
    "still moved a coefficient by %.2g of its scale at lambda %.4g);",
    "increase `passes`."), problem$passes, relative, lambda)
}


# The families dpglmnet fits, as in glmnet. A family object is the single
# source of truth for everything that depends on the family in R, so that
# no code outside the family files tests a family's name
# (tests/testthat/test-protocols.R enforces it). It holds (defaults in
# new_family()):
#   name, curvature           the loss's curvature bound (its coordinate
#                             smoothness constant per unit x_ij^2);
#   check_response(y)         the response checked and coded;
#   linkinv, loss, classes    predict()'s inverse link, the per-record loss
#                             of objectives and validation, whether
#                             predictions have classes;
#   bounded_response          y is real-valued and clamped to `y.bound`
#                             (whose interval sets the scale of the
#                             per-record derivative); FALSE: the derivative
#                             is bounded by `derivative_bound` whatever y;
#   derivative_bound          a public bound on |l'(eta, y)| whatever y
#                             (binomial 1, Huber delta; Inf: none);
#   raised_clip(mean)         whether DP-CD's default clip grows with the
#                             budget (R/dpcd.R, dpcd_clip_factor()), given
#                             the split intercept's released mean of y (NULL
#                             where the fit releases none); by default where
#                             the derivative has no public bound;
#   standardize_response      y is standardized with x (needs y.bound);
#   public_lambda_max(scale_y, has_offset)  a public bound on every
#                             gradient coordinate at 0 of the standardized
#                             problem, or NULL;
#   offset_in_response        an offset moves into the response (glmnet's
#                             elnet) rather than the link;
#   single_lambda_passes      the most passes of a private, standardized fit
#                             at the schedule's single lambda (Inf: the
#                             schedule's; R/solvers.R schedule_problem());
#   path_passes               the most passes per lambda of such a fit's
#                             path where the schedule chooses them within
#                             its noise target (not its extra passes; Inf:
#                             the schedule's);
#   signal_mean(scale_y)      the mean model of the signal check (R/signal.R;
#                             a canonical link, so the loss's derivative
#                             there is m - y): list(release = FALSE) for a
#                             response centred by its released mean,
#                             list(release = TRUE, lower, upper) for a mean
#                             released on y's interval, NULL: no check;
#   derivative_scale(scale_y) the root mean square of l'(eta, y) at the
#                             start of a DP-CD fit (b = 0), public, or NULL:
#                             the reference of DP-CD's adaptive clip
#                             (R/dpcd.R; NULL: none);
#   tail_average              the share of a private DP-CD fit's passes
#                             whose end iterates each lambda's result
#                             averages (R/dpcd.R, dpcd_tail_average(); 0:
#                             none), for a loss whose steps 1 / M_j reach
#                             its minimum in a few passes;
#   split_intercept           list(lower, upper, link) for a loss with
#                             l'(eta, y) = l'(eta, 0) - y, y in [lower,
#                             upper] = [0, 1] and l'(., 0) increasing with
#                             values in it (a canonical link whose mean is
#                             bounded; link its inverse): DP-CD releases the
#                             mean of y once and its intercept's gradient as
#                             the mean of l'(eta_i, 0) minus it (R/dpcd.R);
#                             NULL: none;
#   cv_measures, deviance_name, default_loss_bound(type.measure, residual)
#                             cv.dpglmnet()'s measures (R/cv-curve.R);
#   sql_derivative(source, eta, y), sql_invalid_response(y)  the loss's
#                             derivative and the response check in SQL
#                             (R/database.R);
#   sql_linkinv(source, eta), sql_loss(source, eta, y, ln)  linkinv and
#                             loss in SQL, for cv.dpglmnet() on a table
#                             (R/database-cv.R; NULL: not offered there);
#   closed_form_dual          its loss has a closed-form dual coordinate
#                             update (DP-SCD, R/dpscd.R, fits only those);
#   parameter, parameter_name, with_parameter(value)  a family's public
#                             parameter (Huber's delta: the C++ loss reads
#                             it as `family_parameter`), its name, and the
#                             object at another value.
# Its C++ half is the family's loss in src/dpglmnet/losses/ (registry.h maps the
# name to it). An unknown family is an error, never a silent squared loss.
new_family <- function(name, ..., bounded_response = FALSE, derivative_bound = Inf,
                       raised_clip = function(mean) !is.finite(derivative_bound),
                       standardize_response = bounded_response,
                       public_lambda_max = function(scale_y, has_offset) NULL,
                       signal_mean = function(scale_y) NULL, single_lambda_passes = Inf,
                       path_passes = Inf,
                       derivative_scale = function(scale_y) NULL, split_intercept = NULL,
                       tail_average = 0, offset_in_response = FALSE, classes = FALSE,
                       sql_invalid_response = function(y) NULL,
                       parameter = NULL, parameter_name = NULL,
                       with_parameter = function(value) NULL, closed_form_dual = FALSE) {
  structure(c(list(name = name, bounded_response = bounded_response,
                   derivative_bound = derivative_bound, raised_clip = raised_clip,
                   standardize_response = standardize_response,
                   public_lambda_max = public_lambda_max, signal_mean = signal_mean,
                   derivative_scale = derivative_scale, split_intercept = split_intercept,
                   tail_average = tail_average, single_lambda_passes = single_lambda_passes, path_passes = path_passes,
                   offset_in_response = offset_in_response, classes = classes,
                   sql_invalid_response = sql_invalid_response, parameter = parameter,
                   parameter_name = parameter_name, with_parameter = with_parameter,
                   closed_form_dual = closed_form_dual),
              list(...)), class = "dpglmnet_family")
}

