# The intercept-only fit (issue 16): every coefficient 0 and one released
# intercept, the private mean of the clamped response (gaussian) or the
# private proportion of 1s (binomial, on the logit scale), with the whole
# budget. A solver of the private path skeleton (R/solvers.R); the release is
# src/dpglmnet/private_mean.h.
#
# Why: where the private standardization cannot resolve any column (the
# moderate-n criterion of R/moderate-n.R at or above its warning threshold,
# 1.5), every column reads as constant and DP-CD's prediction is its
# released intercept, whose noise (a Gaussian at a share of the budget, on a
# crude interval) made cv.dpglmnet() 1.2-2x the training mean's test MSE
# (inst/bench/results/2026-11-25-moderate-n.md). Spending the whole budget
# on that one number makes the fit the trivial model, up to the noise of one
# mean.
#
# The mechanism: the Laplace mechanism, pure epsilon (Dwork et al. 2006), on
# the mean of values in [l, u] (binomial: [0, 1]), replace-one sensitivity
# (u - l) / n, scale (u - l) / (n epsilon). Measured against the Gaussian
# mechanism at the whole budget (sd (u - l) / (n mu), mu = gdp_mu(epsilon,
# delta)): the Laplace noise's sd, sqrt(2) (u - l) / (n epsilon), is 0.39x
# the Gaussian's at epsilon 0.5, delta = 1 / n^2, n = 400, and 0.29-0.39x
# at every epsilon 0.5-2, n = 400-3000; on California subsamples the test
# MSE of the released mean over the training mean's was 1.012 (Laplace)
# against 1.078 (Gaussian) at epsilon 0.5, n = 400, and 1.000-1.004 against
# 1.002-1.034 elsewhere (inst/bench/intercept_noise.R;
# inst/bench/results/2026-11-25-moderate-n.md).
intercept_constants <- list(
  noise = "laplace",
  # binomial: the released proportion is clamped into [margin, 1 - margin]
  # (post-processing) with a public margin of 1 / n, so that its logit is
  # finite (the noise of the proportion is of order 1 / (n epsilon) too)
  margin = function(n) 1 / n
)

intercept_solver <- new_solver("intercept",
  # the mean of the clamped response is one aggregate query (R/database.R)
  in_database = TRUE,
  # The fit reads no x: no smoothness constants, no clip, no schedule.
  default_clip = function(p, intercept) 1,
  check = function(problem) intercept_problem(problem, given = TRUE),
  start_release = function(problem) {
    stop("internal error: the intercept-only fit releases no lambda_max", call. = FALSE)
  },
  releases = function(problem) {
    interval <- intercept_interval(problem)
    # (the noise multiplier, scale over sensitivity, rounded up so that the
    # accountant's epsilon = 1 / multiplier never exceeds the target)
    list(mechanism(
      "intercept-only: mean of the clamped response (Laplace)", "laplace", 1L,
      interval$sensitivity_text, noise_multiplier = intercept_multiplier(problem$epsilon),
      key = "path"))
  },
  setup = function(problem) {
    interval <- intercept_interval(problem)
    list(lower = interval$lower, upper = interval$upper)
  },
  # The mean of values clamped to [l, u]: (u - l) / n.
  sensitivity = function(problem, setup, lambda = NULL) {
    list(path = (setup$upper - setup$lower) / problem$n)
  },
  # Laplace scale = the row's noise multiplier x its sensitivity.
  noise = function(problem, setup, ledger) release_noise(ledger, "path"),
  start_gradient = function(problem, setup, noise) {
    stop("internal error: the intercept-only fit releases no gradient", call. = FALSE)
  },
  path = function(problem, setup, noise, lambda) {
    # x is not read, but its values are checked as every fit checks them
    # (the spec left the check to the standardization's first release,
    # which this fit does not make): before the release.
    if (isTRUE(problem$validate_x_in_release)) check_x_values(problem$x)
    # (a table: the exact mean of the clamped response from one aggregate,
    # the noise added in the core as in memory: the mean of one value is
    # itself, and the noise scale is given)
    y <- if (is_database_source(problem$x)) {
      database_clamped_mean(problem$y, setup$lower, setup$upper)
    } else problem$y
    released <- .private_mean_cpp(y, list(
      lower = setup$lower, upper = setup$upper, noise = intercept_constants$noise,
      scale = noise, seed = draw_seed(), secure = problem$rng == "secure"))$released
    a0 <- intercept_link(released, problem)
    nlambda <- length(lambda)
    list(beta = matrix(0, problem$p, nlambda), a0 = rep(a0, nlambda),
         last_pass_change = rep(0, nlambda))
  },
  settings = function(problem, setup, noise, lambda = NULL) {
    list(intercept_only = TRUE, intercept_noise = intercept_constants$noise,
         intercept_noise_scale = noise, intercept_interval = c(setup$lower, setup$upper),
         coefficient_noise = numeric(0))
  }
)

# The Laplace noise multiplier (scale over sensitivity) of the whole budget:
# 1 / epsilon, rounded up by a few ulps so that neither the accountant's
# epsilon = 1 / multiplier nor the scale (the sensitivity's own rounding
# included) errs on the unsafe side; 0 (no noise) at epsilon = Inf.
intercept_multiplier <- function(epsilon) {
  if (!is.finite(epsilon)) return(0)
  (1 / epsilon) * (1 + 4 * .Machine$double.eps)
}

# The public interval the response is clamped to: y.bound's (gaussian; at
# epsilon = Inf without it, y's range: nothing to protect) or [0, 1]
# (binomial), and the sensitivity of its mean, in words.
intercept_interval <- function(problem) {
  family <- dpglmnet_family(problem$family)
  if (family$bounded_response) {
    if (is.null(problem$y.lower)) {
      if (inherits(problem$y, "dpglmnet_db_response")) {
        dpglmnet_abort("y.bound", "must be given for solver = \"intercept\" on a database table.")
      }
      return(list(lower = min(problem$y), upper = max(problem$y),
                  sensitivity_text = "none (epsilon = Inf)"))
    }
    return(list(lower = problem$y.lower, upper = problem$y.upper,
                sensitivity_text = "(u - l) / n, y clamped to [l, u]"))
  }
  list(lower = 0, upper = 1, sensitivity_text = "1 / n (a proportion)")
}

# The intercept of the released mean, post-processing: clamped into y's
# interval (gaussian), or the logit of the proportion clamped into [m, 1 -
# m] with the public margin m = 1 / n (binomial).
intercept_link <- function(released, problem) {
  family <- dpglmnet_family(problem$family)
  interval <- intercept_interval(problem)
  if (family$bounded_response) {
    return(min(max(released, interval$lower), interval$upper))
  }
  m <- intercept_constants$margin(problem$n)
  stats::qlogis(min(max(released, m), 1 - m))
}

# The single lambda the fit reports: a public bound on glmnet's lambda_max,
# where glmnet's path starts with every coefficient 0 (so the intercept-only
# model is glmnet's fit there): on standardized columns |(1/n) sum_i x~_ij
# (y_i - ybar)| <= sd(y) <= (u - l) / 2 (Cauchy-Schwarz), and <= 1/2 for a
# 0/1 response, over alpha (floored at glmnet's 1e-3) times the smallest
# positive penalty factor. Public.
intercept_lambda <- function(problem) {
  interval <- intercept_interval(problem)
  half <- (interval$upper - interval$lower) / 2
  pf <- problem$penalty.factor[problem$penalty.factor > 0]
  half / (max(problem$alpha, 1e-3) * min(pf))
}

# The spec of the intercept-only fit: nothing standardized, smoothed or
# clipped, one lambda (intercept_lambda()), one release. `given`: the user
# named solver = "intercept" (the arguments it ignores are named in a
# warning; its own argument checks); else solver = "auto" chose it in the
# plan (moderate_n_fallback()), with `why`.
intercept_problem <- function(problem, given = FALSE, why = NULL) {
  family <- dpglmnet_family(problem$family)
  if (given) {
    if (!isTRUE(problem$intercept)) {
      dpglmnet_abort("intercept", paste(
        "must be TRUE for solver = \"intercept\": that fit is the intercept alone."))
    }
    if (!family$bounded_response && !family$classes) {
      dpglmnet_abort("family", sprintf(paste(
        "= \"%s\" has no bounded response or classes whose mean solver =",
        "\"intercept\" could release."), family$name))
    }
    if (family$bounded_response && is.null(problem$y.lower) && is.finite(problem$epsilon)) {
      dpglmnet_abort("y.bound", paste(
        "must be given for solver = \"intercept\": the released mean is of y",
        "clamped to its public interval, whose width sets the noise."))
    }
    if (is_database_source(problem$x)) {
      dpglmnet_abort("solver", "= \"intercept\" does not run on a database table.")
    }
    ignored <- c(lambda = !is.null(problem$lambda),
                 nlambda = !is.null(problem$nlambda_given) && is.null(problem$lambda),
                 passes = !is.null(problem$passes_given),
                 clip = !isTRUE(problem$scale_defaults[["clip"]]),
                 smoothness = !isTRUE(problem$scale_defaults[["smoothness"]]))
    if (any(ignored)) {
      dpglmnet_warn(sprintf(paste(
        "solver = \"intercept\" fits every coefficient at 0 and releases only the",
        "intercept, at one public lambda (see ?dpglmnet, Solvers): it ignores %s."),
        paste0("`", names(ignored)[ignored], "`", collapse = ", ")))
    }
  }
  problem$solver <- "intercept"
  problem$standardization <- NULL
  problem$bound_scaling <- FALSE
  problem$smoothness <- "none (intercept only)"
  problem$clip <- 1
  problem$scale_defaults <- NULL
  problem$lambda <- intercept_lambda(problem)
  problem$nlambda_given <- NULL
  problem$passes_given <- 1L
  problem$single_lambda <- FALSE
  problem$single_requested <- NULL
  if (!is.null(why)) problem$solver_choice <- why
  problem
}

# solver = "auto" in the plan (schedule_problem(), R/solvers.R): where the
# plan's moderate-n criterion (R/moderate-n.R: the planned standardization
# can resolve no column) is at or above its warning threshold, DP-CD on
# columns scaled by their public bounds for a family with classes, the
# intercept-only fit otherwise, for a spec that "auto" made eligible (R/highdim.R: finite
# epsilon, no lambda / nlambda / weights / offset, standardized, a y.bound
# for gaussian). Public inputs only: n, p, epsilon, delta, the shares.
moderate_n_fallback <- function(problem) {
  if (!isTRUE(problem$moderate_n_fallback) || is.null(problem$standardization) ||
      !isTRUE(problem$intercept) || !is.finite(problem$epsilon) ||
      !is.null(problem$lambda) ||
      isTRUE(problem$standardize_budget_given)) {
    return(problem)
  }
  crit <- moderate_n_criterion(problem$n, problem$p, problem$epsilon, problem$delta,
                               problem$standardization$scale_y,
                               problem$standardize.budget,
                               sum(problem$standardization$binary),
                               plan_mean_releases(problem$standardization, problem$p))
  family <- dpglmnet_family(problem$family)
  if (crit < moderate_n_constants$warn) return(problem)
  problem <- if (family$classes && crit < moderate_n_constants$bound_scaled_below) {
    # classes: DP-CD on columns scaled by their public bounds, nothing
    # released for the scales (R/moderate-n.R, bound_scaled_problem())
    bound_scaled_problem(problem, why = sprintf(paste(
      "auto: moderate-n criterion %.2g >= %g (the private standardization could",
      "resolve no column), so dpcd on columns mapped to [-1, 1] by their public",
      "bounds, at the whole budget"), crit, moderate_n_constants$warn))
  } else {
    intercept_problem(problem, why = sprintf(paste(
      "auto: moderate-n criterion %.2g >= %g (the private standardization could",
      "resolve no column), so the intercept alone, at the whole budget"), crit,
      moderate_n_constants$warn))
  }
  # (what the warning reads, R/moderate-n.R, and what cv.dpglmnet() reads
  # to decide at the full n, R/cv.R)
  problem$moderate_n_criterion <- crit
  problem$moderate_n_switched <- TRUE
  problem
}

