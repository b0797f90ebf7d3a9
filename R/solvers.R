# The private path skeleton every solver plugs into: the registry of
# solvers, the plan of a fit's releases and the fit itself. What a solver
# object holds is in R/aaa-protocols.R (new_solver()).
# (functions, so that each solver file may be collated after this one)
dpglmnet_solvers <- list(
  dpcd = function() dpcd_solver,
  dpsgd = function() dpsgd_solver,
  dpscd = function() dpscd_solver,
  dpfw = function() dpfw_solver,
  `dpfw-vr` = function() dpfw_vr_solver,
  nmd = function() nmd_solver,
  intercept = function() intercept_solver
)

# The solver object of a name (checked against dpglmnet_solvers before).
solver_object <- function(name) dpglmnet_solvers[[name]]()

# The names of the solvers that declare `what` (e.g. "weights").
solvers_with <- function(what) {
  names(dpglmnet_solvers)[vapply(names(dpglmnet_solvers), function(name) {
    isTRUE(solver_object(name)[[what]])
  }, logical(1))]
}

# The number of lambdas and passes of a spec (check_problem()): the user's,
# or the budget's (choose_schedule(), R/dpglmnet.R), public. With
# `single_requested` (cv.dpglmnet() when a split would leave one lambda) a
# single lambda. Planning a planned problem again gives the same schedule.
schedule_problem <- function(problem) {
  # (the standardization's share first: the schedule reads it; R/moderate-n.R)
  problem <- plan_standardize_budget(problem)
  # solver = "auto": the intercept alone where the standardization could
  # resolve no column (R/intercept.R; public)
  problem <- moderate_n_fallback(problem)
  # and where p >= n / 2 leaves too few Frank-Wolfe selections (R/highdim.R)
  problem <- highdim_fallback(problem)
  schedule <- choose_schedule(problem$nlambda_given, problem$passes_given, problem$lambda,
                              problem$solver, problem$epsilon, problem$delta, problem$n,
                              problem$p, problem$intercept, problem$clip,
                              # (bound-scaled columns, R/moderate-n.R, and
                              # columns taken at unit scale without x.bounds:
                              # the same rule, no standardization share)
                              !is.null(problem$standardization) ||
                                isTRUE(problem$bound_scaling) ||
                                identical(problem$smoothness, "uniform"),
                              if (is.null(problem$standardization)) 0
                              else problem$standardize.budget,
                              single = isTRUE(problem$single_requested),
                              # (a pass on a table costs a query per
                              # coordinate: no extra passes there)
                              extra_passes = !is_database_source(problem$x))
  if (isTRUE(problem$single_requested)) {
    schedule$nlambda <- 1L
    schedule$single_lambda <- TRUE
  }
  # the family's most passes at the schedule's single lambda, on
  # standardized columns (R/family.R)
  # (the schedule's own passes: what the signal check's eligibility reads,
  # R/signal.R, so that the cap does not switch the check off)
  problem$schedule_passes <- as.integer(schedule$passes)
  if (isTRUE(schedule$single_lambda) && is.null(problem$passes_given) &&
      !is.null(problem$standardization) && !isTRUE(problem$bound_scaling)) {
    schedule$passes <- min(schedule$passes,
                           dpglmnet_family(problem$family)$single_lambda_passes)
  }
  # and its most passes per lambda of a path, where the budget's schedule
  # chooses them within its noise target (R/family.R); where it affords
  # extra passes (large n, schedule_extra_passes), the schedule's. Decided
  # as in memory for a table too (whose schedule takes no extra passes),
  # and only for the solvers whose schedule the budget sets (DP-CD; the
  # others' 10 are a fixed default)
  if (!isTRUE(schedule$single_lambda) && is.null(problem$passes_given) &&
      solver_object(problem$solver)$automatic_schedule &&
      !is.null(problem$standardization) && !isTRUE(problem$bound_scaling) &&
      is.finite(problem$epsilon) && !is.null(schedule$affordable) &&
      schedule_passes(schedule$affordable, schedule$nlambda) <= schedule_target_passes) {
    schedule$passes <- min(schedule$passes, dpglmnet_family(problem$family)$path_passes)
  }
  # bound-scaled columns (R/moderate-n.R): more passes where they are spread
  if (isTRUE(problem$bound_scaling) && is.null(problem$passes_given) &&
      !is.null(schedule$affordable)) {
    schedule$passes <- bound_scaled_passes(problem, schedule$passes, schedule$affordable)
  }
  problem <- plan_factor_blocks(problem, schedule$affordable)
  problem$nlambda <- as.integer(schedule$nlambda)
  problem$single_lambda <- schedule$single_lambda
  problem$passes <- as.integer(schedule$passes)
  problem
}

# The releases a fit will make (standardization, smoothness, scales,
# lambda_max, path) and their calibrated noise level, from public inputs
# only: fit_private_path() runs them, cv.dpglmnet() plans its budget split
# with them.
# When the standardization's range histograms would be swamped by their
# count noise (a public rule, afford_standardization_ranges()), the fit is
# planned again without them. The plan carries the problem it was made for.
plan_private_path <- function(problem) {
  problem <- schedule_problem(problem)
  plan <- plan_private_path_once(problem)
  affordable <- afford_standardization_ranges(problem, plan$z, plan$path_releases)
  if (!identical(affordable$standardization, problem$standardization)) {
    plan <- plan_private_path_once(affordable)
  }
  # DP-CD's private scales, likewise (R/highdim.R)
  public_scales <- afford_private_scales(plan$problem, plan$z, plan$path_releases)
  if (!is.null(public_scales$scales_fallback)) plan <- plan_private_path_once(public_scales)
  plan
}

plan_private_path_once <- function(problem) {
  solver <- solver_object(problem$solver)
  by_radius <- isTRUE(solver$by_radius)
  public_max <- if (by_radius) NULL else public_lambda_max(problem)
  # A single-lambda fit (the schedule's single_lambda_scale / sqrt(n)) needs
  # no lambda_max: it is neither released nor charged.
  release_lambda_max <- !by_radius && is.null(problem$lambda) && is.null(public_max) &&
    !isTRUE(problem$single_lambda)
  solver_rows <- c(if (release_lambda_max) list(solver$start_release(problem)),
                   solver$releases(problem))
  path_releases <- path_cost(solver_rows, problem$epsilon, problem$delta)
  # (rows the solver releases beside its path, priced as the path releases
  # they cost: R/aaa-protocols.R; added after the signal check's, which is
  # priced on the path alone)
  priced <- solver$priced_releases(problem, path_releases)
  # The signal check of solver = "auto" (R/signal.R), priced with the path:
  # its rows count as the releases at the path's multiplier they cost, so
  # the other shares of the budget are those they would be without it.
  signal_check <- plans_signal_check(problem, path_releases)
  if (signal_check) {
    signal_rows <- signal_mechanisms(problem, path_releases)
    path_releases <- path_releases + priced_cost(signal_rows)
    solver_rows <- c(signal_rows, solver_rows)
  }
  # (or the gate, which releases nothing of its own)
  signal_gate <- plans_signal_gate(problem, path_releases)
  if (length(priced)) {
    path_releases <- path_releases + priced_cost(priced)
    solver_rows <- c(solver_rows, priced)
  }
  mechanisms <- mechanism_table(c(
    weights_mechanisms(problem, path_releases),
    standardization_mechanisms(problem, path_releases),
    list(smoothness_mechanism(problem)),
    scales_mechanisms(problem, path_releases),
    solver_rows))
  # (the noise level and the ledger's account at it, one core call)
  calibrated <- calibration(mechanisms, problem$epsilon, problem$delta)
  list(solver = solver, by_radius = by_radius, public_max = public_max,
       release_lambda_max = release_lambda_max, signal_check = signal_check,
       signal_gate = signal_gate, path_releases = path_releases,
       mechanisms = mechanisms, problem = problem,
       calibration = calibrated,
       z = calibrated$z)
}

# What the path's releases cost, as a number of full-batch Gaussian
# releases at the fit's noise level: the budget shares of the other
# releases (share_factor(), R/scales.R) are set against it. Full-batch
# Gaussian releases (DP-CD) compose exactly in GDP, R of them at noise
# multiplier z costing mu^2 = R / z^2: their count. Releases on minibatches
# sampled afresh at each step (DP-SGD, NMD) are amplified by the sampling
# and cost far less than their count: their cost is (mu z_path)^2, with
# z_path the noise multiplier that spends the whole budget (mu-GDP, mu =
# gdp_mu(epsilon, delta)) on the path alone, i.e. the number of full-batch
# releases that z_path would pay for. Counting DP-SGD's 12,700 steps (16,000
# California records, batch 126, 10 lambdas of 10 passes) as full releases
# gave the standardization 0.07 of the path's noise multiplier, and the
# joint calibration then put the path at 410 where the path alone needs 10:
# every coefficient was noise (test MSE 14,000 times cv.glmnet's). Public:
# from the planned mechanisms and the budget. The accounting of the fit is
# unchanged (one calibration over all its rows); only the split moves.
# The path releases that rows at a factor of the path's noise multiplier
# cost: count / factor^2 each (Gaussian DP: mu^2 adds up).
priced_cost <- function(rows) {
  sum(vapply(rows, function(row) row$count / row$factor^2, numeric(1)))
}

path_cost <- function(solver_rows, epsilon, delta) {
  count <- sum(vapply(solver_rows, `[[`, numeric(1), "count"))
  amplified <- vapply(solver_rows, function(row) {
    row$type == "gaussian" && row$sampling %in% c("without_replacement", "poisson")
  }, logical(1))
  if (!any(amplified) || !is.finite(epsilon)) return(count)
  z_path <- calibration(mechanism_table(solver_rows), epsilon, delta)$z
  min(count, (plan_gdp_mu(epsilon, delta) * z_path)^2)
}

# The fit of a plan (plan_private_path()): its releases in order, the
# solver, the map back to the original scale.
fit_private_path <- function(plan) {
  problem <- plan$problem
  warn_scales_fallback(problem)
  warn_moderate_n(plan)  # (R/moderate-n.R)
  warn_highdim_fallback(plan)  # (R/highdim.R)
  solver <- plan$solver
  by_radius <- plan$by_radius
  public_max <- plan$public_max
  release_lambda_max <- plan$release_lambda_max
  path_releases <- plan$path_releases
  z <- plan$z
  # The ledger travels with the problem through the releases: each records
  # its sensitivity on its row and takes its noise from it (release_noise()).
  problem$ledger <- new_privacy_ledger(plan$mechanisms, z, problem$epsilon, problem$delta,
                                       problem$rng, accounted = plan$calibration$account)
  # the weight sum first: every later release reads omega_i = w_i n / S
  problem <- normalize_weights(problem)
  # (bound_scaling, from solver = "auto": columns scaled by their public
  # bounds, no release; R/highdim.R)
  standardized <- standardize_problem(problem, path_releases)
  checks_signal <- isTRUE(plan$signal_check)
  gates_signal <- isTRUE(plan$signal_gate)
  if (isTRUE(standardized$constant_fallback)) {
    # (most columns read as constant: the path on bound-scaled columns,
    # R/moderate-n.R; no signal check there)
    problem <- constant_fallback_problem(problem, standardized)
    warn_constant_fallback(problem)
    standardized <- problem
    checks_signal <- gates_signal <- FALSE
  }
  scaled <- release_scales(scale_by_bounds(standardized))
  scaled <- record_smoothness_sensitivity(scaled)  # (R/smoothness.R)
  if (by_radius && is.null(scaled$l1.radius)) scaled$l1.radius <- l1_radius_grid(scaled)
  setup <- solver$setup(scaled)
  # (a setup's own releases: R/aaa-protocols.R)
  if (!is.null(setup$ledger)) scaled$ledger <- setup$ledger
  # (the releases the path makes now that the standardization is known: a
  # solver whose steps skip what it holds at 0 spreads its row over fewer)
  moving <- solver$path_releases(scaled, setup)
  if (!is.null(moving)) {
    scaled$ledger <- respread_release(
      scaled$ledger, "path", moving,
      if (moving > 0) {
        " (the coordinates held at 0 release nothing: the row's budget spread over the others)"
      } else " (every coordinate is held at 0: nothing released)")
  }
  lambda <- if (by_radius) scaled$l1.radius else scaled$lambda
  # The solver's sensitivities (they may rest on released constants: its
  # clip, smoothness, batch, radii) on its rows, then its noise from them.
  sensitivities <- solver$sensitivity(scaled, setup, lambda)
  if (!release_lambda_max) sensitivities$lambda_max <- NULL
  for (key in names(sensitivities)) {
    scaled$ledger <- record_sensitivity(scaled$ledger, key, sensitivities[[key]])
  }
  noise <- solver$noise(scaled, setup, scaled$ledger)
  signal <- NULL
  if (checks_signal) {
    signal <- release_signal_check(scaled, setup, noise)
    scaled <- signal$problem
    signal <- signal$check
    warn_signal_check(signal, problem)
  }
  ledger <- scaled$ledger
  alpha_floor <- solver$alpha_floor
  if (by_radius) {
    # the public radii: nothing to release
  } else if (isTRUE(problem$single_lambda)) {
    # on the standardized scale (bound-scaled columns, R/moderate-n.R: a
    # fraction of it, their spread being a fraction of 1; after a signal
    # check, R/signal.R, its lambda)
    lambda <- if (!is.null(signal)) signal$lambda else
      (if (isTRUE(problem$bound_scaling)) moderate_n_constants$bound_lambda
       else single_lambda_scale) / sqrt(problem$n)
  } else if (release_lambda_max) {
    lambda <- lambda_grid(solver$start_gradient(scaled, setup,
                                                release_noise(ledger, "lambda_max")),
                          scaled, alpha_floor)
  } else if (is.null(lambda)) {
    lambda <- lambda_grid(rep(public_max, problem$p), scaled, alpha_floor)
  }
  # (the gate, R/signal.R: from the path's first pass, at its single lambda)
  gate <- if (gates_signal) signal_gate(scaled, setup, noise, lambda)
  scaled$signal_gate <- gate
  fitted <- solver$path(scaled, setup, noise, lambda)
  if (!is.null(gate)) {
    # (the gate closed: the rest of the path was at its lambda)
    signal <- signal_gate_outcome(gate, fitted)
    lambda <- signal$lambda
    warn_signal_check(signal, problem)
  }
  settings_scaled <- solver$settings(scaled, setup, noise, lambda)
  diagnose_path(fitted, lambda, scaled, settings_scaled)
  path <- unstandardize_path(fitted, lambda, scaled,
                             parameter = if (by_radius) "radius" else "lambda")
  settings <- c(
    list(solver = problem$solver, passes = problem$passes, step = problem$step,
         clip = problem$clip, alpha = problem$alpha, noise_multiplier = z,
         lambda_max = if (is.null(problem$lambda)) path$lambda[1L],
         lambda_max_source = if (is.null(problem$lambda)) {
           if (isTRUE(problem$single_lambda) && isTRUE(problem$bound_scaling))
             sprintf("none (single lambda %g / sqrt(n), bound-scaled)",
                     moderate_n_constants$bound_lambda)
           else if (!is.null(signal) && !signal$passed)
             if (signal_partly_raised(signal))
               "none (single lambda part of the way to the noise level: the signal gate, standardized)"
             else "none (single lambda at the noise level: the signal check, standardized)"
           else if (isTRUE(problem$single_lambda))
             sprintf("none (single lambda %g / sqrt(n), standardized)", single_lambda_scale)
           else if (release_lambda_max) "private" else "public bound (standardized)"
         },
         standardize = !is.null(problem$standardization),
         standardization = if (!isTRUE(problem$bound_scaling)) scaled$standardization_result,
         bound_scaling = isTRUE(problem$bound_scaling),
         # (the standardization's fallback, R/moderate-n.R: its columns read
         # as constant, out of p)
         constant_fallback = problem$constant_fallback,
         # (the public column scales of bound scaling, R/highdim.R: what maps
         # the working scale back, for the noise summary() reports)
         bound_scale = if (isTRUE(problem$bound_scaling))
           scaled$standardization_result$x_scale,
         solver_choice = if (!is.null(signal) && !signal$passed) {
           paste0(problem$solver_choice,
                  if (isTRUE(signal$gate)) "; the first pass's signal did not clear the noise,"
                  else "; the released signal did not clear the noise,",
                  if (signal_partly_raised(signal)) " so its lambda is raised part of the way to the noise level"
                  else " so its lambda is at the noise level")
         } else problem$solver_choice,
         signal_check = signal,
         scale_levels = scaled$scale_levels,
         penalty.factor = problem$penalty.factor,
         lower.limits = problem$lower.limits, upper.limits = problem$upper.limits,
         x.bounds = problem$x.bounds, x.lower = problem$x.lower, x.upper = problem$x.upper,
         # (y.bound: the envelope max(|lower|, |upper|) of y's interval, which
         # code reading a magnitude bound on |y| uses; y.lower, y.upper: the
         # interval y was clamped to)
         y.bound = problem$y.bound, y.lower = problem$y.lower, y.upper = problem$y.upper,
         path_parameter = if (by_radius) "radius" else "lambda",
         # weights and offset (R/weights.R): W, the released weight sum, the
         # offset's interval; has_offset makes predict() ask for newoffset
         weights = !is.null(problem$weights), weights.bound = problem$weights.bound,
         weight_sum = problem$weight_sum, weight_factor = problem$weight_factor,
         has_offset = isTRUE(problem$has_offset), offset.lower = problem$offset.lower,
         offset.upper = problem$offset.upper),
    # a family's public parameter (Huber's delta), when it has one
    if (!is.null(problem$family_parameter)) list(family_parameter = problem$family_parameter),
    settings_scaled)
  # (DP-CD's adaptive clip, R/dpcd.R: its released scales and the clips'
  # last factor)
  if (isTRUE(settings$adaptive_clip)) settings$adaptive_clip_scale <- fitted$scale
  # (DP-CD's split intercept, R/dpcd.R: the released mean of y)
  if (isTRUE(settings$split_intercept)) {
    settings$intercept_response_mean <- fitted$intercept_response_mean
    settings$intercept_start <- fitted$intercept_start
  }
  diagnose_bounds(path, settings, problem, ledger)
  list(beta = path$beta, a0 = path$a0, lambda = path$lambda, privacy = ledger,
       settings = settings, picks = path$picks)
}

# A public (nominal) bound on every gradient coordinate at zero of the standardized
# problem, so that lambda_max needs no release: |(1/n) sum_i x~_ij y~_i| <= 1
# for standardized x and y (Cauchy-Schwarz), and |(1/n) sum_i x~_ij
# (1/2 - y_i)| <= 1/2 for binomial. NULL when there is none.
public_lambda_max <- function(problem) {
  plan <- problem$standardization
  if (is.null(plan) || !is.null(problem$lambda)) return(NULL)
  # (the family's bound, R/family.R)
  dpglmnet_family(problem$family)$public_lambda_max(plan$scale_y,
                                                    isTRUE(problem$has_offset))
}

# Says when the answer is noise, diverged, or (epsilon = Inf) has not
# converged, from released or public quantities only: the released path,
# the noise the solver adds to each coefficient update (public given the
# calibration and the released smoothness), and, for epsilon = Inf fits only
# (nothing to protect), the coefficient change in the last pass (the l1
# solvers: over the last 10% of the steps of each radius).
diagnose_path <- function(fitted, lambda, problem, settings) {
  beta <- fitted$beta
  if (!all(is.finite(beta)) || !all(is.finite(fitted$a0))) {
    dpglmnet_warn(paste(
      "the path diverged (non-finite coefficients): use a smaller `step`",
      "(steps above 2 can diverge)."))
    return(invisible())
  }
  standardized <- !is.null(problem$standardization_result)
  if (standardized && max(abs(beta)) > 1e3) {
    dpglmnet_warn(sprintf(paste(
      "coefficients on the standardized scale reach %.3g: the iterates have",
      "probably diverged; use a smaller `step`."), max(abs(beta))))
  }
  # Unstandardized with public bounds: a coefficient times its column's
  # bound is the most it moves a record's linear predictor; 1000 times the
  # response's bound (gaussian with y.bound; 1 on the logit scale) is
  # divergence or noise, not a model. (y.bound is the envelope
  # max(|lower|, |upper|) of an interval: |y| of the clamped response is at
  # most it.)
  family <- dpglmnet_family(problem$family)
  response_scale <- if (family$bounded_response) problem$y.bound else family$derivative_bound
  if (!standardized && is.finite(problem$epsilon) && !is.null(problem$x.bounds) &&
      !is.null(response_scale)) {
    reach <- max(abs(beta) * problem$x.bounds)
    if (reach > 1e3 * response_scale) {
      dpglmnet_warn(sprintf(paste(
        "a coefficient times its column's bound reaches %.3g, against a response",
        "bound of %g: the iterates have probably diverged or drowned in noise.",
        "Use a smaller `step`, standardize = TRUE, or public `smoothness`",
        "constants."), reach, response_scale))
    }
  }
  if (!is.finite(problem$epsilon)) {
    scale <- pmax(apply(abs(beta), 2L, max), abs(fitted$a0), 1e-8)
    relative <- fitted$last_pass_change / scale
    worst <- which.max(relative)
    solver <- solver_object(problem$solver)
    if (length(worst) && relative[worst] > solver$convergence_tolerance) {
      dpglmnet_warn(solver$unconverged_message(problem, settings, lambda[worst],
                                               relative[worst]))
    }
    return(invisible())
  }
  noise <- settings$coefficient_noise
  if (standardized && length(noise) && stats::median(noise) > 0.25) {
    dpglmnet_warn(sprintf(paste(
      "the noise may swamp the signal: each update adds noise of sd %.2g to",
      "a coefficient on the standardized scale (where coefficients are of",
      "order 1 or less). Increase `epsilon` or the number of records, or use",
      "fewer `passes`%s."), stats::median(noise),
      # (a single lambda has no fewer to take)
      if (length(lambda) > 1L) " or lambdas (`nlambda`)" else ""))
  }
  invisible()
}

# Says when a public bound was probably far below the data, from released
# or public quantities only (the privacy model). Clamping to a bound is free
# for privacy, but a bound far below the data makes the clamped response (nearly)
# the constant y.bound, or a column (nearly) two-valued at +-x.bounds, and
# the fit is then, silently, a model of the clamped data: an intercept stuck
# at y.bound whatever the response's true level, coefficients that grow like
# 1 / x.bounds. Both checks need the released values to be more than noise:
# `relative_noise` is the noise sd of the released second moments over
# bound^2 (the noise multiplier of the ledger's second-moment rows times
# their sensitivity, at most bound^2 / n), and nothing is said above 10%.
# - `y.bound` (gaussian, when the fit did not standardize y: the private
#   standardization of y says it from its own releases, R/standardize.R):
#   the median of the released intercepts along the path, within 10% of the
#   half-width of y's interval of one of its ends (of the bound, for
#   [-y.bound, y.bound]), when they agree (their median absolute deviation, a
#   public estimate of their noise, at most 30% of the envelope, and at least 3 of
#   them in a private fit). Measured on N(0, 1) data with y.bound 6, epsilon = 1,
#   unstandardized: the intercepts are noise of the size of the bound up to
#   n = 100 (no warning in 40 fits), and the warning comes in 9 of 10 fits
#   from n = 1000 when the response is at 1000.
# - `x.bounds`: columns whose clamped values have a second moment about the
#   midpoint of their interval [lower, upper] of at least 90% of its
#   half-width^2 (bound^2 for [-bound, bound]), i.e. nearly all their values
#   sit at its ends: from
#   the released standardization moments, or from released smoothness
#   constants (curvature times the clamped second moment; Laplace ones less
#   3 times their noise scale). Measured: 1e-50 bounds on N(0, 1) columns
#   give 0.94-1 from n = 500 at epsilon = 1 (noise 6%); N(0, 1) columns with
#   bounds 2 or 4, n = 300 to 1000, never warned (120 fits). Not from public
#   constants ("bounds", "uniform", user-given), nor from a quantile
#   smoothness constant that fell back to the public bound^2 (R/scales.R: a
#   column of >= 99% zeros), which say nothing about the data.
diagnose_bounds <- function(path, settings, problem, ledger) {
  r <- settings$standardization
  rows <- ledger$mechanisms
  moment_rows <- grepl("second moment", rows$mechanism, fixed = TRUE)
  # (weighted moments: their sensitivities are W n / S times larger)
  relative_noise <- if (is.finite(problem$epsilon) && any(moment_rows)) {
    max(rows$noise_multiplier[moment_rows]) / problem$n *
      (if (is.null(settings$weight_factor)) 1 else settings$weight_factor)
  } else 0
  y_scaled <- !is.null(r) && !identical(r$y_sd, 1)
  if (dpglmnet_family(problem$family)$bounded_response && !is.null(problem$y.bound) &&
      problem$intercept && !y_scaled) {
    # y's interval [lower, upper] ([-y.bound, y.bound] when symmetric): a
    # median intercept within 10% of the half-width h of one of its ends (or
    # beyond it), with a spread of at most 30% of the envelope y.bound (the
    # intercepts' noise follows the clip, which reads the envelope: R/scales.R)
    # (for [-b, b]: |centre| >= 0.9 b, mad <= 0.3 b, as before intervals)
    lower <- if (is.null(problem$y.lower)) -problem$y.bound else problem$y.lower
    upper <- if (is.null(problem$y.upper)) problem$y.bound else problem$y.upper
    half <- (upper - lower) / 2
    a0 <- path$a0[is.finite(path$a0)]
    centre <- if (length(a0)) stats::median(a0) else NA_real_
    end <- if (isTRUE(centre >= (lower + upper) / 2)) upper else lower
    near <- length(a0) >= (if (is.finite(problem$epsilon)) 3L else 1L) &&
      (if (end == upper) centre >= upper - 0.1 * half else centre <= lower + 0.1 * half) &&
      stats::mad(a0) <= 0.3 * problem$y.bound
    if (isTRUE(near)) {
      dpglmnet_warn(sprintf(paste(
        "`y.bound` may be too small: the median intercept along the path is %.4g,",
        "near the %s end %g of y's interval, so many records were probably clamped",
        "to it. The fit models the clamped response (its level cannot pass the",
        "bound); give a `y.bound` that covers the response."), centre,
        if (end == upper) "upper" else "lower", end))
    }
  }
  b <- problem$x.bounds
  if (is.null(b) || relative_noise > 0.1) return(invisible())
  # Each column's public interval [lower, upper]: its midpoint and half-width
  # (0 and b for a symmetric bound b). Values near its ends have a second
  # moment about the midpoint near half-width^2.
  mid <- (problem$x.lower + problem$x.upper) / 2
  half <- (problem$x.upper - problem$x.lower) / 2
  symmetric <- problem$x.lower == -problem$x.upper
  share <- NULL
  if (!is.null(r$x_mean) && !is.null(r$x_sd)) {
    share <- ((r$x_mean - mid)^2 + r$x_sd^2) / half^2
    # An asymmetric interval is public schema ([0, 1] for a dummy, [18, 90]
    # for an age): values at both of its ends are the data (every 0/1 dummy
    # would warn), not a sign of clamping; nearly all at one end is, except
    # at a lower end 0, a natural floor (counts, amounts, a rare dummy).
    position <- (r$x_mean - problem$x.lower) / (problem$x.upper - problem$x.lower)
    one_end <- position >= 0.95 | (position <= 0.05 & problem$x.lower != 0)
    share[!symmetric] <- ifelse(one_end[!symmetric], 1, 0)
  } else if (!is.null(settings$smoothness_values) &&
             isTRUE(settings$smoothness %in% c("private", "private (quantile)",
                                               "exact", "exact (quantile)"))) {
    features <- seq_len(problem$p)
    values <- settings$smoothness_values[features]
    if (identical(settings$smoothness, "private") && length(settings$laplace_scale)) {
      values <- values - 3 * settings$laplace_scale[features]
    }
    fallback <- grepl("quantile", settings$smoothness, fixed = TRUE) &
      values == problem$curvature * b^2
    share <- values / (problem$curvature * b^2)
    share[fallback] <- NA
    # a smoothness constant is a second moment about 0: it says where the
    # values lie in an interval only when the interval is centred on 0
    share[!symmetric] <- NA
  }
  # (a factor's dummy is 0/1 by the schema: its interval cannot be too
  # small, however rare one of its values; Titanic's AgeAdult, 95% ones,
  # warned)
  binary <- problem$standardization$binary
  if (length(share) && length(binary) == length(share)) share[binary] <- NA
  clamped <- which(share >= 0.9)
  if (length(clamped)) {
    dpglmnet_warn(sprintf(paste(
      "`x.bounds` may be too small for %s %s: nearly all of %s values sit at",
      "the ends of x.bounds (the released second moment of the clamped values",
      "about the interval's midpoint is %.0f%% or more of its half-width^2), so",
      "they were probably clamped to it, unless the column only takes the values",
      "at its ends. The fit models the clamped columns, whose coefficients grow",
      "like 1 / the interval's width (largest |coefficient| %.3g). Give bounds",
      "that cover the data."),
      if (length(clamped) == 1L) "column" else "columns",
      paste(utils::head(problem$variable_names[clamped], 5L), collapse = ", "),
      if (length(clamped) == 1L) "its" else "their",
      100 * min(floor(100 * min(share[clamped])) / 100, 1),
      max(abs(path$beta[clamped, , drop = FALSE]))))
  }
  invisible()
}

# What the C++ entries need of every problem: the family, the intercept, the
# column transform of x, the penalty, and a fresh seed (or the secure source).
core_settings <- function(problem, ...) {
  c(list(family = problem$family, family_parameter = problem$family_parameter,
         intercept = problem$intercept,
         transform = problem$transform, alpha = problem$alpha,
         penalty_factor = problem$penalty.factor,
         lower_limits = problem$lower.limits, upper_limits = problem$upper.limits,
         seed = draw_seed(), secure = problem$rng == "secure",
         trace = problem$trace.it,
         threads = if (is.null(problem$threads)) 1L else problem$threads,
         # per-record weights omega_i and offset o_i (R/weights.R), or NULL
         weights = problem$weights, offset = problem$offset,
         # y standardized where the core reads it (R/standardize.R), or NULL
         response_transform = problem$response_transform),
    list(...))
}

# The number of threads of the dense DP-CD sweeps: options(dpglmnet.threads),
# default 1. A fit is the same with any number (kernels.h).
dpglmnet_threads <- function() {
  threads <- getOption("dpglmnet.threads", 1L)
  if (!is.numeric(threads) || length(threads) != 1L || is.na(threads) ||
      threads < 1 || threads != round(threads) || threads > 1024) {
    dpglmnet_abort("options(dpglmnet.threads)", "must be one whole number from 1 to 1024.")
  }
  as.integer(threads)
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
