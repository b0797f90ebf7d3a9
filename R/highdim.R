# solver = "auto" (the default) and what the defaults do when p is large
# against n (issue 16, item 6). Every choice here reads public inputs only
# (n, p, epsilon, delta, the family, the bounds and the arguments the user
# gave), never the data, so it costs nothing and needs no ledger row.
#
# Why: with p >= n / 2 the private standardization splits its budget over p
# columns and cannot resolve them (every column of the n = 2000, p = 4000
# benchmark read "constant"), and DP-CD releases p coordinates per pass, so
# its noise grows like sqrt(p). Private Frank-Wolfe over an l1 ball pays
# log(2p) per selection instead (Talwar, Thakurta & Zhang 2015; Asi et al.
# 2021, Section 5), and one radius fitted on all records, with the columns
# scaled by their public bounds, finds the support where DP-CD does not
# (inst/bench/trust.R, section D; inst/bench/results/2026-11-25-highdim.md).

# The constants of the rule (measured on generated data, see NEWS.md and
# inst/bench/trust.R section D).
highdim_rule_constants <- list(
  # p / n at and above which "auto" picks the l1 solver
  ratio = 0.5,
  # gaussian: radius = radius_y times the half-width of y's public interval
  # (on the bound-scaled columns, |x~_ij| <= 1, so predictions stay within
  # that half-width of the intercept); binomial: radius on the logit scale
  radius_y = 1, radius_logit = 20,
  # clip: a fraction of the largest per-record gradient term (the half-width
  # of y, or 1 for binomial): well below the typical term, so the clipped
  # gradient is nearly a sign statistic (at most 2 / pi of the signal lost,
  # against noise that grows with the clip)
  clip_fraction = 0.005,
  # the intercept's own clip C0: gaussian, 0.1 times the half-width of y;
  # binomial 1 (|d_i| <= 1: unclipped). The intercept moves up to C0 /
  # curvature per step: with the features' clip (0.005 of the half-width)
  # a level 0.6 half-widths from y's midpoint was never reached (n = 2000,
  # p = 1500: test MSE 10 x var(y)); C0 = 0.05 / 0.1 / 0.2 half-widths gave
  # 0.50 / 0.33 / 0.29, while where the level is the midpoint (trust.R
  # section D) C0 adds noise: r_zero 0.215 / 0.217 / 0.221. Binomial
  # (prevalence 0.35): deviance 0.81 -> 0.63 of the null model's.
  # inst/bench/results/2026-11-25-highdim.md, "centring and intercept".
  intercept_clip_y = 0.1, intercept_clip_logit = 1,
  # Frank-Wolfe steps: T = kappa mu n / log(2p) (mu: the GDP parameter of
  # the budget), within [steps_min, steps_max]
  kappa = 0.3, steps_min = 5, steps_max = 100
)

# NULL when solver = "auto" picks the l1 solver, else why it picks DP-CD
# (the first condition that fails): public inputs only.
# `standardize`: NULL (not given), or the user's TRUE / FALSE; `nlambda`
# and `lambda`: the user's (NULL when not given).
highdim_rule <- function(n, p, epsilon, family, alpha, lambda, nlambda, x.bounds,
                         y.bound, standardize, lower.limits, upper.limits,
                         penalty.factor) {
  ratio <- highdim_rule_constants$ratio
  if (p < ratio * n) return(sprintf("p = %d < %g n", p, ratio))
  why <- function(text) sprintf("p = %d >= %g n, but %s", p, ratio, text)
  # epsilon = Inf: nothing to protect, so glmnet's path (standardized
  # DP-CD reproduces it), not a one-radius private approximation
  if (!is.finite(epsilon)) return(why("epsilon = Inf (glmnet's path)"))
  if (is.null(x.bounds)) return(why("no x.bounds"))
  if (isTRUE(standardize)) return(why("standardize = TRUE"))
  if (alpha != 1) return(why("alpha < 1"))
  # a `lambda` or `nlambda` the user gave asks for a lambda path, which the
  # one-radius fit does not have
  if (!is.null(lambda)) return(why("lambda given"))
  if (!is.null(nlambda)) return(why("nlambda given (a lambda path)"))
  if (family$bounded_response && is.null(y.bound)) return(why("no y.bound"))
  if (!all(is.infinite(lower.limits)) || !all(is.infinite(upper.limits))) {
    return(why("finite lower.limits / upper.limits"))
  }
  if (length(unique(penalty.factor)) != 1L) return(why("unequal penalty.factor"))
  NULL
}

# The number of Frank-Wolfe steps at (n, p, epsilon, delta). A selection
# is Gumbel noisy max with scale z 2 R C / n (z grows like sqrt(T) / mu for
# T selections) over 2p vertices, whose noise maximum grows like log(2p):
# too many steps and the late ones pick noise coordinates while each step
# shrinks the earlier ones by 1 - gamma_t (n = 1000, p = 4000, epsilon 1:
# 10 steps found 5.5 of 8, 20 steps 1 of 8 and 16 false positives). The
# best T measured (n = 1000 / 2000 / 5000, p = 4000, epsilon 1, 8 active,
# one radius): 10 / 20 / 40, about proportional to n, so T = kappa mu n /
# log(2p); kappa = 0.4 fits those, but at n = 1000 (p = 4000 and 10000)
# kappa = 0.25 measured better (test MSE 0.54-0.57 of predicting the mean
# against 0.67-0.75), and too many steps fail much worse than too few:
# kappa = 0.3 (8 / 15 / 34 steps).
highdim_steps <- function(n, p, epsilon, delta) {
  k <- highdim_rule_constants
  steps <- highdim_affordable_steps(n, p, epsilon, delta)
  as.integer(max(k$steps_min, min(k$steps_max, round(steps))))
}

highdim_affordable_steps <- function(n, p, epsilon, delta) {
  highdim_rule_constants$kappa * plan_gdp_mu(epsilon, delta) * n / log(2 * p)
}

# solver = "auto" in the plan (schedule_problem(), R/solvers.R), when the
# rule above picked dpfw with its own steps and radius: where the budget
# affords fewer Frank-Wolfe selections than the floor steps_min, the
# intercept alone, as at moderate n (R/intercept.R). Below the floor the
# floor's 5 selections each carry more noise than the rule measured best,
# and the first of them weigh the most in the last iterate (a vertex
# picked at step t keeps weight about 2 / T of the radius): generated
# data with p = 2n, 8 effects of +-1, 4 seeds, cv.dpglmnet() at its
# defaults, held-out error over the mean's / the majority's (worst):
# gaussian n = 400 at epsilon 1 1.55 (1.72), n = 1000 at 0.5 1.38 (1.53);
# binomial n = 400 at 1 1.06 in misclassification and 1.63 times the
# null deviance, n = 1000 at 0.5 1.05 and 1.68. Above the floor dpfw is
# kept: n = 700 at 1 (6.5 selections) 0.86. Public: n, p, epsilon, delta.
highdim_fallback <- function(problem) {
  if (!isTRUE(problem$highdim_fallback) || !isTRUE(problem$intercept) ||
      !is.finite(problem$epsilon)) {
    return(problem)
  }
  steps <- highdim_affordable_steps(problem$n, problem$p, problem$epsilon, problem$delta)
  if (steps >= highdim_rule_constants$steps_min) return(problem)
  problem$l1.radius <- NULL
  problem <- intercept_problem(problem, why = sprintf(paste(
    "auto: p = %d >= %g n, but the budget affords %.2g Frank-Wolfe selections,",
    "fewer than %d, so the intercept alone, at the whole budget"), problem$p,
    highdim_rule_constants$ratio, steps, highdim_rule_constants$steps_min))
  # (what the warning reads, and what cv.dpglmnet() reads to decide at the
  # full n, R/cv.R)
  problem$highdim_fallback_steps <- steps
  problem$moderate_n_switched <- TRUE
  problem
}

# Its warning (fit_private_path(), R/solvers.R).
warn_highdim_fallback <- function(plan) {
  problem <- plan$problem
  if (is.null(problem$highdim_fallback_steps)) return(invisible())
  classes <- dpglmnet_family(problem$family)$classes
  dpglmnet_warn(sprintf(paste(
    "with %d records, %d columns at epsilon = %s, the budget affords %.2g",
    "Frank-Wolfe selections (fewer than %d): the l1 solver that solver = \"auto\"",
    "uses for p >= %g n was worse than the %s on such data, so the fit is the",
    "intercept alone (every coefficient 0), released with the whole budget.",
    "More records or a larger epsilon help; give `solver` to fit a model of x",
    "anyway."), problem$n, problem$p, format(problem$epsilon),
    problem$highdim_fallback_steps, highdim_rule_constants$steps_min,
    highdim_rule_constants$ratio,
    if (classes) "majority class" else "mean"))
}

# What "auto" resolves to: list(solver, standardize, bound_scaling, l1.radius,
# clip, passes, reason); NULL when `solver` names a solver. `given`: the
# user's values (NULL when not given) of standardize, l1.radius, clip and
# passes, and `weighted` (weights or an offset given); `family` the family
# object; `y_interval` from check_y_bound().
resolve_auto_solver <- function(solver, n, p, epsilon, delta, family, alpha, lambda,
                                nlambda, x.bounds, y_interval, given, lower.limits,
                                upper.limits, penalty.factor) {
  if (!identical(solver, "auto")) return(NULL)
  if (is.character(family)) family <- dpglmnet_family(family)
  if (isTRUE(given$weighted)) {
    # with weights or an offset, DP-CD, the solver that takes them
    # (R/weights.R)
    if (!is.null(given$l1.radius)) {
      dpglmnet_abort("l1.radius", paste(
        "applies to the l1-ball solvers, which do not take `weights` or `offset`:",
        "with them, solver = \"auto\" is \"dpcd\"."))
    }
    return(list(solver = "dpcd", bound_scaling = FALSE,
                reason = "auto: weights or an offset, so dpcd (the solver that takes them)"))
  }
  why_not <- highdim_rule(n, p, epsilon, family, alpha, lambda, nlambda, x.bounds,
                          y_interval$envelope, given$standardize, lower.limits,
                          upper.limits, penalty.factor)
  # (a database table: the l1 solvers do not run there, R/database.R)
  if (is.null(why_not) && isTRUE(given$in_database)) {
    why_not <- sprintf("p = %d >= %g n, but a database table (dpfw runs in memory only)",
                       p, highdim_rule_constants$ratio)
  }
  if (!is.null(why_not)) {
    if (!is.null(given$l1.radius)) {
      dpglmnet_abort("l1.radius", paste(
        "applies to the l1-ball solvers: with solver = \"auto\" the rule picked",
        "\"dpcd\" for these inputs; give solver = \"dpfw\" (or \"dpfw-vr\", \"nmd\")."))
    }
    # the plan may still pick the intercept alone at moderate n
    # (moderate_n_fallback(), R/intercept.R): not at epsilon = Inf, nor for a
    # lambda path the user asked for, nor without standardization or (a
    # bounded response) its public interval
    fallback <- is.finite(epsilon) && is.null(lambda) && is.null(nlambda) &&
      !isFALSE(given$standardize) && (family$bounded_response || family$classes) &&
      (!family$bounded_response || !is.null(y_interval))
    return(list(solver = "dpcd", standardize = given$standardize, bound_scaling = FALSE,
                moderate_n_fallback = fallback,
                reason = paste0("auto: ", why_not, ", so dpcd")))
  }
  if (identical(given$clip, "quantile")) {
    dpglmnet_abort("clip", sprintf(paste(
      "= \"quantile\" is DP-CD's and DP-SGD's released clip, but solver = \"auto\"",
      "picked \"dpfw\" here (p = %d >= %g n: the private scales would be noise),",
      "which takes a numeric clip. Give a numeric `clip`, or solver = \"dpcd\" to",
      "keep \"quantile\"."), p, highdim_rule_constants$ratio))
  }
  k <- highdim_rule_constants
  # (a response without a bound: the link scale, |l'| <= derivative_bound)
  bounded <- family$bounded_response
  half_width <- if (bounded) (y_interval$upper - y_interval$lower) / 2
                else family$derivative_bound
  radius <- if (bounded) k$radius_y * half_width else k$radius_logit
  list(solver = "dpfw", standardize = FALSE, bound_scaling = TRUE,
       l1.radius = if (is.null(given$l1.radius)) radius else given$l1.radius,
       clip = if (is.null(given$clip)) k$clip_fraction * half_width else given$clip,
       intercept_clip = if (bounded) k$intercept_clip_y * half_width
                        else k$intercept_clip_logit,
       passes = if (is.null(given$passes)) highdim_steps(n, p, epsilon, delta)
                else given$passes,
       # (the rule's own steps and radius: the plan may fall back to the
       # intercept alone, highdim_fallback())
       highdim_fallback = is.null(given$passes) && is.null(given$l1.radius),
       reason = sprintf(paste("auto: p = %d >= %g n, so dpfw on columns mapped to",
                              "[-1, 1] by their public bounds, one l1 radius"),
                        p, highdim_rule_constants$ratio))
}

# When "auto" picked dpfw: DP-CD's own arguments the user set (values
# other than dpglmnet()'s defaults: average = TRUE, one `selection`, a
# `smoothness`, a `step` other than 1) do nothing there; say so once.
warn_ignored_by_dpfw <- function(average, selection, smoothness, step) {
  set <- c(average = isTRUE(average),
           selection = length(selection) == 1L,
           smoothness = !is.null(smoothness),
           step = !identical(as.numeric(step), 1))
  if (!any(set)) return(invisible())
  dpglmnet_warn(sprintf(paste(
    "solver = \"auto\" picked \"dpfw\" (p large against n), which ignores %s",
    "(DP-CD's); give solver = \"dpcd\" to use %s."),
    paste0("`", names(set)[set], "`", collapse = ", "),
    if (sum(set) > 1L) "them" else "it"))
  invisible()
}

# Columns mapped by their public intervals [l_j, u_j]: x~_ij = (x_ij - m_j) /
# h_j with the midpoint m_j = (l_j + u_j) / 2 and the half-width h_j = (u_j -
# l_j) / 2, so |x~_ij| <= 1 and a column sits about 0 whatever its public
# interval ([0, 1] dummies, 0/1/2 codes, [0, 8]); a gaussian y is centred
# at its interval's midpoint m_y. Per-record maps of public constants: free
# for privacy, nothing released. Without the centring, Frank-Wolfe's
# gradients of uncentred columns were dominated by the mean residual (every
# column of [0, 8] looked alike: 0 of 8 found) and the intercept, moving at
# most its clip per step, never reached a y far from 0
# (inst/bench/results/2026-11-25-highdim.md, "centring").
# Sparse x: the transform only scales it (centring would fill in its
# zeros), and Frank-Wolfe subtracts m_j / h_j itself (`fw_shift`,
# src/dpglmnet/frank_wolfe.h; a solver declaring `sparse_shift`), so a
# sparse fit is the dense fit; for other solvers (DP-CD at moderate n,
# R/moderate-n.R) a sparse x is not centred, as without an intercept. Without an
# intercept nothing is centred (the model has no level to absorb the
# shifts): the columns are divided by the envelope b_j = max(|l_j|, |u_j|).
# The path is mapped back by unstandardize_path(): b_j = c_j / h_j (or c_j
# / b_j), a0 = m_y + c0 - sum_j b_j m_j; the l1 ball sum_j |c_j| <= R is
# sum_j h_j |b_j| <= R on the original scale (R on the scale of y, or the
# logit).
scale_by_bounds <- function(problem) {
  if (!isTRUE(problem$bound_scaling)) return(problem)
  p <- problem$p
  sparse <- is_sparse_x(problem$x)
  # (a sparse x is centred only by a solver that subtracts the shift itself)
  centre <- problem$intercept && (!sparse || isTRUE(solver_object(problem$solver)$sparse_shift))
  lower <- rep_len(problem$x.lower, p)
  upper <- rep_len(problem$x.upper, p)
  mid <- if (centre) (lower + upper) / 2 else rep(0, p)
  half <- if (centre) (upper - lower) / 2 else rep_len(problem$x.bounds, p)
  y_mid <- 0
  if (problem$intercept && dpglmnet_family(problem$family)$bounded_response &&
      !is.null(problem$y.lower)) {
    y_mid <- (problem$y.lower + problem$y.upper) / 2
  }
  scaled <- problem
  scaled$transform$scale <- 1 / half
  scaled$transform["center"] <- list(if (centre && !sparse) mid)
  if (centre && sparse) scaled$fw_shift <- mid / half
  if (y_mid != 0) scaled$y <- problem$y - y_mid
  scaled$value_bounds <- rep(1, p)
  scaled$standardization_result <- list(
    x_center = mid, x_scale = 1 / half, y_mean = y_mid, y_sd = 1,
    lambda_factor = 1, x_constant = rep(FALSE, p))
  scaled
}

# The public rule for releasing DP-CD's private scales at all (its default
# smoothness = "quantile" and clip = "quantile" with standardize = FALSE):
# their noisy-count bisections resolve a quantile only when the count noise
# sd is well below n. When it is above n / 20 (the rule of the
# standardization's range histograms, afford_standardization_ranges()), the
# counts are noise, the released quantiles arbitrary, and a quantile that
# lands near 0 gives M_j near 0 and a step 1 / M_j of 1e7 or more: at
# n = 2000, p = 4000, epsilon = 1 (count noise sd 3600) DP-CD's coefficients
# reached 1e13-1e24. Then the public constants are used instead, at no
# cost: smoothness "bounds" (M_j = curvature b_j^2 >= the true M_j, so the
# step 1 / M_j never overshoots) and the numeric default clip sqrt(p + 1)
# (1 per coordinate); the path gets their budget shares. Only defaults are
# replaced (a `smoothness` or `clip` the user gave is kept); the plan says
# so in problem$scales_fallback. Public: from n, p and the calibrated noise.
afford_private_scales <- function(problem, z, path_releases) {
  defaults <- problem$scale_defaults
  if (!is.finite(problem$epsilon) || !(z > 0) || is.null(defaults)) return(problem)
  groups <- scale_groups(problem, path_releases)
  smoothness_swamped <- defaults[["smoothness"]] && !is.null(groups$x_quantiles) &&
    groups$x_quantiles[["factor"]] * z > problem$n / 20
  clip_swamped <- defaults[["clip"]] && !is.null(groups$clip) &&
    groups$clip[["factor"]] * z > problem$n / 20
  if (!smoothness_swamped && !clip_swamped) return(problem)
  if (smoothness_swamped) problem$smoothness <- "bounds"
  if (clip_swamped) problem$clip <- sqrt(problem$p + problem$intercept)
  problem$scales_fallback <- c(smoothness = smoothness_swamped, clip = clip_swamped)
  problem
}

# Says which private scales afford_private_scales() replaced (public).
warn_scales_fallback <- function(problem) {
  f <- problem$scales_fallback
  if (is.null(f)) return(invisible())
  dpglmnet_warn(sprintf(paste(
    "with %d records, %d columns at epsilon = %s the private %s would be noise",
    "(their count noise is above n / 20), so the public %s %s used instead:",
    "safe steps, but slow progress. standardize = TRUE or solver = \"auto\"",
    "(for p large against n) may fit better."), problem$n, problem$p,
    format(problem$epsilon),
    paste(c("smoothness constants", "clipping thresholds")[f], collapse = " and "),
    paste(c("bounds (smoothness = \"bounds\")", "clip sqrt(p + 1)")[f],
          collapse = " and "), if (sum(f) > 1) "are" else "is"))
  invisible()
}

# cv.dpglmnet(), when "auto" picked the l1 solver for the training part:
# the rule is decided again at the full n, where the fit on all records
# would decide it (p >= n / 2 may hold for the part and not for all
# records). When it picks DP-CD there, the arguments say so explicitly
# (so the training path and the refit both fit DP-CD, and the refit gets a
# lambda, not an l1.radius); otherwise "auto" stays (one public radius:
# cv.dpglmnet() then fits all records, with the rule's radius, clip and
# steps for that n). Returns list(arguments, reason, switched): `reason` is
# the rule's solver_choice at the full n (public), NULL when "auto" stays;
# `switched`, whether the fit at the full n is a moderate-n one.
resolve_cv_auto_solver <- function(x, y, arguments, epsilon, delta, rng) {
  solver <- arguments[["solver", exact = TRUE]]
  if (!is.null(solver) && !identical(solver, "auto")) {
    return(list(arguments = arguments, reason = NULL))
  }
  full <- planned_problem(x, y, c(arguments, list(epsilon = epsilon, delta = delta,
                                                  rng = rng)))
  # (and where the plan may still fall back after its standardization,
  # R/moderate-n.R: a single lambda, fitted on all records)
  switched <- isTRUE(full$bound_scaling) || isTRUE(full$moderate_n_switched)
  if (switched || plans_constant_fallback(full)) {
    return(list(arguments = arguments, reason = NULL, switched = switched))
  }
  arguments[["solver"]] <- full$solver
  list(arguments = arguments, reason = full$solver_choice, switched = FALSE)
}
