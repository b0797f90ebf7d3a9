# Moderate n (issue 16): a few hundred to a few thousand records. There the
# private standardization's noise on each column's second moment can exceed
# the column's variance, every column reads as constant, and the fit is the
# mean (majority) model. Everything here reads public inputs only (n, p,
# epsilon, delta, the family, whether y is scaled, the budget shares), never
# the data: no ledger row.
#
# The criterion: the planned noise sd of a column's released variance,
# times the constant threshold (constant_threshold(p), R/standardize.R),
# against the variance of a column whose sd is a quarter of its public
# half-width (reach^2 / 16):
#   crit = 16 thr(p) f_m z / n,
# f_m z the noise multiplier of the second-moment releases (sensitivity
# reach^2 / n). crit >= 1: a column spread over its public interval like
# that is read as constant. All releases of a default DP-CD fit are
# Gaussian and calibrated exactly in GDP, so a group of k releases with
# share s of mu^2 has (f z)^2 = k / (s mu^2) (share_factor(), R/scales.R):
# the closed form below is the plan's value (tests/testthat/test-moderate-n.R).
#
# Measured (inst/bench/moderate_n.R; inst/bench/results/2026-11-25-moderate-n.md):
# generated designs (n = 400-3000, p = 3-30, epsilon 0.5-2, bounds 3x and
# 1.2x max|x|, gaussian and binomial) and subsamples of California and
# Electricity (bounds 2 max|x|), cv.dpglmnet() at its defaults:
# - crit <= 0.75: DP-CD resolves the columns (0.32-0.36 of the mean's MSE
#   on the generated gaussian designs);
# - 0.8 <= crit <= 1.5: DP-CD at standardize.budget 0.3 collapses to the
#   mean model in many fits, while 0.6 resolves the columns. Where
#   cv.dpglmnet()'s training part affords one lambda it fits all n records,
#   whose crit is 0.8 of the part's: a band from 1 (of the fit's own n)
#   missed most of them, from 0.8 it caught them (generated gaussian,
#   crit of the part in [1, 1.5): 0.70 -> 0.50 of the mean's MSE; California
#   epsilon 0.5, n = 3000: 1.05 -> 0.48, epsilon 2, n = 700: 1.04 -> 0.66;
#   Electricity epsilon 1, n = 1000: 1.21 -> 0.63, epsilon 0.5, n = 2000:
#   1.00 -> 0.63, misclassification over the majority's), at a cost of at
#   most 0.02 elsewhere. From 0.7 it made California epsilon 0.5, n = 5000
#   worse (0.46 -> 0.55). Above the band (crit >= 1.5) nothing is resolved
#   at either share, and 0.6-0.8 made the worst fits worse (p = 30,
#   n = 400: 1.3 -> 3.7 of the mean's); a smaller share (0.15-0.2) helped
#   binomial designs and hurt gaussian ones.
#   There solver = "auto" now fits the intercept alone (R/intercept.R:
#   the private mean / proportion with the whole budget, 1.001 of the
#   trivial model's error on average, 1.020 at worst, where DP-CD was 1.13
#   and 5.2; inst/bench/moderate_n.R --intercept).
# - The l1 rule of R/highdim.R (dpfw on columns scaled by their public
#   bounds) was 0.4-0.6 of the mean's MSE on every generated design, but
#   1.0-1.4 on California and 1.1-1.3 (misclassification) on Electricity
#   subsamples at every n (heavy-tailed columns with crude bounds: the
#   bound-scaled columns carry little signal and noisy selections move
#   predictions), so "auto" does not switch to it here; the warning below
#   names it.
moderate_n_constants <- list(
  # the band of crit (at the default share) where the moments get more
  band = c(0.8, 1.5),
  # the default standardize.budget, and the one in the band
  budget = 0.3, band_budget = 0.6,
  # at and above this crit (at the share used) the fit warns
  warn = 1.5,
  # classes, warn <= crit < bound_scaled_below: DP-CD on bound-scaled
  # columns (bound_scaled_problem()), with this clip per coordinate
  bound_scaled_below = 12, bound_clip = 0.15,
  # its single lambda, times 1 / sqrt(n)
  bound_lambda = 0.25,
  # its most passes: 10 times 1 + bound_pass_gain times the share of its
  # columns that are not two-point (bound_scaled_passes())
  bound_pass_gain = 1,
  # classes, below warn: when the released standardization reads at least
  # this share of the columns as constant, the path runs on bound-scaled
  # columns instead (constant_fallback_problem())
  constant_fallback = 0.75
)

# The criterion above for a fit with `n` records, `p` columns, at
# (epsilon, delta), when the standardization takes `budget` of mu^2 and a
# gaussian y is scaled with it (`scale_y`). The range histograms are
# planned as afford_standardization_ranges() would (R/standardize.R): they
# halve the columns' share when their count noise sd, 2 f z, is at most
# n / 20. `binary` of the p columns are 0/1 dummies (standardization_plan(),
# R/standardize.R), which release a mean alone: no histogram, no second
# moment (before session 20 every column was counted with both, which
# overstated the noise of a design with dummies: Wage at epsilon 0.5 went
# to the intercept alone once its factors were coded in full, R/coding.R,
# 1.21 -> 1.53 times cv.glmnet's error), and `means` the mean releases
# (a factor's dummies release theirs as one vector: mean_release_count(),
# R/standardize.R). Public; Inf-free for finite epsilon, 0 for epsilon =
# Inf.
moderate_n_criterion <- function(n, p, epsilon, delta, scale_y, budget, binary = 0,
                                 means = p) {
  if (!is.finite(epsilon)) return(0)
  mu <- plan_gdp_mu(epsilon, delta)
  y_share <- if (scale_y) y_standardization_share * budget else 0
  x_share <- budget - y_share
  spread <- p - binary
  # noise multipliers f z of one group: sqrt(releases / (share mu^2))
  multiplier <- function(releases, share) sqrt(releases / share) / mu
  ranges_noise <- max(if (spread > 0) multiplier(spread, x_share / 2) else 0,
                      if (scale_y) multiplier(3, y_share) else 0)
  ranges <- spread > 0 && 2 * ranges_noise <= n / 20
  moments <- multiplier(means + spread, if (ranges) x_share / 2 else x_share)
  16 * constant_threshold(p) * moments / n
}

# The share of mu^2 the standardization takes when `standardize.budget` is
# not given: 0.3, or 0.6 when the criterion at 0.3 lies in the band
# [0.8, 1.5] (public). `standardize`: whether the fit standardizes.
default_standardize_budget <- function(n, p, epsilon, delta, scale_y, standardize,
                                       binary = 0, means = p) {
  k <- moderate_n_constants
  if (!standardize || !is.finite(epsilon)) return(k$budget)
  crit <- moderate_n_criterion(n, p, epsilon, delta, scale_y, k$budget, binary, means)
  if (crit >= k$band[1] && crit <= k$band[2]) k$band_budget else k$budget
}

# The plan's share of the standardization (schedule_problem(), R/solvers.R):
# the user's `standardize.budget`, or default_standardize_budget(), when the
# other shares leave the path at least 0.2 of mu^2 (else the default 0.3).
# Planning a planned problem again gives the same share.
plan_standardize_budget <- function(problem) {
  plan <- problem$standardization
  if (isTRUE(problem$standardize_budget_given) || is.null(plan)) return(problem)
  budget <- default_standardize_budget(problem$n, problem$p, problem$epsilon,
                                       problem$delta, plan$scale_y, TRUE, sum(plan$binary),
                                       plan_mean_releases(plan, problem$p))
  others <- sum(budget_shares(problem)) - problem$standardize.budget
  if (others + budget <= 0.8) problem$standardize.budget <- budget
  problem
}

# The criterion of a plan (plan_private_path(), R/solvers.R): from its
# calibrated noise and the moments' factor, exactly as released. NULL when
# the fit does not standardize privately.
planned_moderate_n_criterion <- function(plan) {
  problem <- plan$problem
  if (is.null(problem$standardization) || !is.finite(problem$epsilon) || !(plan$z > 0)) {
    return(NULL)
  }
  f <- standardization_factors(problem, plan$path_releases)
  16 * constant_threshold(problem$p) * f[["moments"]] * plan$z / problem$n
}

# The plan's mean releases (standardization_plan(); p for a plan without them).
plan_mean_releases <- function(plan, p) {
  if (is.null(plan$mean_releases)) p else plan$mean_releases
}

# Says, from public quantities only, when the planned standardization
# cannot resolve columns spread over a quarter of their public half-width:
# the fit is then most likely the mean (majority) model.
warn_moderate_n <- function(plan) {
  problem <- plan$problem
  if (!is.null(problem$moderate_n_criterion) && isTRUE(problem$bound_scaling)) {
    # solver = "auto" fitted DP-CD on bound-scaled columns instead
    # (bound_scaled_problem())
    dpglmnet_warn(sprintf(paste(
      "with %d records, %d columns at epsilon = %s, the noise of the private",
      "standardization would be %.2g times what a column spread over a quarter",
      "of its x.bounds can carry (>= %g), so solver = \"auto\" did not",
      "standardize: DP-CD ran on the columns mapped to [-1, 1] by their",
      "x.bounds (nothing released for the scales), with the whole budget.",
      "Where the signal is weak its predicted probabilities lean toward the",
      "majority class (its clip, 0.15 per coordinate, holds the intercept",
      "short of the base rate): read them as a ranking, not as calibrated",
      "probabilities.",
      "Tighter x.bounds give the columns more weight; more records or a larger",
      "epsilon allow the private standardization."),
      problem$n, problem$p, format(problem$epsilon), problem$moderate_n_criterion,
      moderate_n_constants$warn))
    return(invisible())
  }
  if (!is.null(problem$moderate_n_criterion)) {
    # solver = "auto" fitted the intercept alone instead (R/intercept.R)
    classes <- dpglmnet_family(problem$family)$classes
    dpglmnet_warn(sprintf(paste(
      "with %d records, %d columns at epsilon = %s, the noise of the private",
      "standardization would be %.2g times what a column spread over a quarter",
      "of its x.bounds can carry (>= %g): no column could be resolved, so",
      "solver = \"auto\" fitted the intercept alone: the fit is the private %s",
      "of the training records (every coefficient 0), released with the whole",
      "budget, which did better than DP-CD there on generated and real data.",
      "More records, a larger epsilon or tighter x.bounds help; give `solver`",
      "to fit a model of x anyway."),
      problem$n, problem$p, format(problem$epsilon), problem$moderate_n_criterion,
      moderate_n_constants$warn,
      if (classes) "proportion of the second class" else "mean of the clamped response"))
    return(invisible())
  }
  crit <- planned_moderate_n_criterion(plan)
  if (is.null(crit) || crit < moderate_n_constants$warn) return(invisible())
  dpglmnet_warn(sprintf(paste(
    "with %d records, %d columns at epsilon = %s, the noise of the private",
    "standardization is %.2g times what a column spread over a quarter of its",
    "x.bounds can carry (>= %g): most columns will read as constant and the fit",
    "is likely no better than predicting the %s. More records, a larger epsilon",
    "or tighter x.bounds help; solver = \"dpfw\" (an l1 ball on columns scaled",
    "by their bounds) did better on generated data with tight bounds but worse",
    "on real data with crude ones."),
    problem$n, problem$p, format(problem$epsilon), crit, moderate_n_constants$warn,
    if (dpglmnet_family(problem$family)$classes) "majority class" else "mean"))
  invisible()
}

# The moderate-n fit of a family with classes (binomial) where the private
# standardization could resolve no column and crit < bound_scaled_below
# (moderate_n_fallback(), R/intercept.R): DP-CD on the columns mapped to
# [-1, 1] by their public intervals (scale_by_bounds(), R/highdim.R:
# per-record maps of public constants, nothing released), with the public
# constants that follow from |x~_ij| <= 1: smoothness "bounds" (the
# curvature, 1 / 4), a clip of bound_clip per coordinate (|l'(eta) x~_ij|
# <= 1 for the logistic loss, so a clip of 1 clips nothing), and one
# lambda, bound_lambda / sqrt(n) (fit_private_path(), R/solvers.R), with
# the whole budget. Measured (cv.dpglmnet() at epsilon 0.5 and 1, 3-4
# splits; held-out misclassification over the majority class's):
# - the single lambda: 0.25 / sqrt(n): DNA epsilon 1 (crit 2.8) 0.29,
#   BreastCancer epsilon 1 (1.8) 0.69 and epsilon 0.5 (3.4) 0.63 (1 /
#   sqrt(n): 0.27, 1.00, 1.00); every generated design of
#   inst/bench/moderate_n.R with crit >= 1.5 and every Electricity
#   subsample, as before, the trivial model (at most 1.000);
# - a path of lambdas chosen on the validation curve (the schedule's 10 x
#   10 without a standardization): BreastCancer 0.15, but generated
#   designs up to 1.4 on average (2.1 at worst) and Electricity n = 700,
#   epsilon 0.5 up to 1.36: 100 noisy passes at z ~ 200 left intercepts of
#   +-10 on the logit scale and a curve too noisy to choose on; so one
#   lambda, with the automatic schedule's passes;
# - clip per coordinate 0.15 against 0.25, 0.5, 1 (with the path):
#   BreastCancer 0.14-0.16 / 0.15-0.24 / 0.21-0.58 / 0.26-0.42, DNA
#   similar at each; smaller clips lost on generated designs;
# - the band's upper end, bound_scaled_below = 12 (the single lambda;
#   mlbench sets, 4 splits, and the generated designs above): below it
#   HouseVotes84 (crit 6.2 and 11.6) went 1.00 -> 0.22 and 0.18,
#   Ionosphere (6.7) 1.00 -> 0.97, DNA epsilon 0.5 (5.3) 1.00 -> 0.49,
#   generated designs with crit 3.5-11 at most 1.006 (Vehicle, Glass
#   1.000); above it Sonar (n = 208, p = 60; crit 15.8 and 29.6) was 1.03
#   and 1.07 (worst split 1.21), so the intercept alone stays there. (With
#   the path instead of one lambda, generated designs at crit 5.9 were
#   1.37.)
# Passes: the automatic schedule's, within what the budget affords (k
# releases per coordinate, choose_schedule()), up to 10 (1 + gain s), s the
# share of the columns whose public interval is not [0, 1]. DP-CD's step on
# a bound-scaled column is 1 / M_j with M_j = 1/4 the curvature of |x~| <=
# 1; a factor's dummy, mapped to -1 and 1, has exactly that second moment,
# but a numeric column with a crude bound has a mean x~^2 of a few hundredths
# (2 max|x| for scores 1-10: x~ = x / 20), so each pass moves its
# coefficient by a few hundredths of a Newton step, and 10 passes left the
# Wisconsin data's coefficients at a tenth of glmnet's. Measured
# (cv.dpglmnet(), 9 fits a row, misclassification; the ratio to the
# majority class's, its worst fit in brackets, where the target is at
# stake):
# - 30 passes for every bound-scaled fit: MASS's biopsy (9 scores) at
#   epsilon 0.5 / 1 0.178 / 0.201 -> 0.066 / 0.061, Ionosphere at 1 0.317
#   -> 0.238; but DNA (180 dummies) 0.210 / 0.129 -> 0.252 / 0.171 and
#   HouseVotes84 (48 dummies) 0.082 / 0.066 -> 0.132 / 0.092, whose columns
#   are all two-point: hence the share;
# - the share with gain 2 / 1: biopsy at 1 0.201 -> 0.061 / 0.102 (at 0.5
#   k = 14 caps both: 0.130); attrition (23 of 59 columns numeric) at 1
#   0.995 (1.024) -> 1.042 (1.159) / 1.000 (1.023); Smarket at 0.5 1.029
#   (1.109) -> 0.999 (1.016) / 1.000 (1.000); colon (survival) at 1 0.972
#   -> 0.929 / 0.948; OJ at 1 0.970 -> 0.933 / 0.937; DNA, HouseVotes84,
#   Vehicle, Vowel, Pima, credit, hpc unchanged. Hence 1.
# (The released smoothness constants instead, smoothness = "quantile":
# biopsy 0.103 / 0.070, but DNA 0.283 / 0.145 and trivial-model misses on
# Vehicle, Pima and OJ: 1.16, 1.10, 1.26 at worst.) Public: the columns'
# public intervals, n, p, epsilon.
bound_scaled_passes <- function(problem, passes, affordable) {
  p <- problem$p
  two_point <- rep_len(problem$x.lower, p) == 0 & rep_len(problem$x.upper, p) == 1
  cap <- round(10 * (1 + moderate_n_constants$bound_pass_gain * mean(!two_point)))
  as.integer(max(passes, min(affordable, cap)))
}

# A gaussian response keeps the intercept alone: bound-scaled DP-CD was
# 1.08-1.3 x the mean's test MSE on BostonHousing and Wage (residuals on
# the scale of a crude y.bound), where the intercept alone is 1.00.
# Only with the default smoothness and clip: a smoothness or clip the user
# gave was meant for standardized columns, so the intercept-only rule
# applies then, as before.
bound_scaled_problem <- function(problem, why) {
  defaults <- problem$scale_defaults
  if (!isTRUE(defaults[["smoothness"]]) || !isTRUE(defaults[["clip"]])) {
    return(intercept_problem(problem, why = why))
  }
  problem$standardization <- NULL
  problem$bound_scaling <- TRUE
  problem$smoothness <- "bounds"
  problem$clip <- moderate_n_constants$bound_clip * sqrt(problem$p + problem$intercept)
  problem$scale_defaults <- NULL
  # one lambda, whatever the schedule would afford: a path chosen on the
  # validation curve was noise here (above)
  problem$single_requested <- TRUE
  problem$solver_choice <- why
  problem
}

# The fallback after the standardization (classes, below warn). The
# criterion supposes a column spread over a quarter of its x.bounds; with
# crude bounds (twice the largest |x|) real columns are spread over less,
# and just below warn the released moments can read every column as
# constant: the fit was the intercept alone where a smaller epsilon,
# bound-scaled, used the columns (more budget, a worse model). Measured
# (cv.dpglmnet(), 3 splits x 2 draws; misclassification over the majority
# class's): ISLR2's Boston, crim above its median, at epsilon 2 (11-12 of
# 12 columns constant) 0.943 -> 0.544 with the path on bound-scaled
# columns at the budget left (at epsilon 1, bound-scaled: 0.61); an
# independent sweep found the same on Pima's diabetes data with NAs
# removed (n = 392, epsilon 2: 8 of 8 columns constant; 6-8 columns used
# at epsilon 0.5 and 1). Where the standardization resolves most columns,
# bound scaling is much worse (BreastCancer at epsilon 2 0.096 against
# 0.258, Vehicle 0.80 against 1.00, OJ 0.57 against 0.94), so only where it
# resolved at most a quarter of them: on 26 real binomial sets at epsilon
# 1, 2 and 4 that happened on Boston at 2, Vowel at 1 and iris at 4 (those
# two: no change, the majority class either way).
# Public conditions (the plan's own: solver = "auto" with its moderate-n
# rule, one lambda, the default scales, no weights); the share read as
# constant is the released standardization's (post-processing).
plans_constant_fallback <- function(problem) {
  isTRUE(problem$moderate_n_fallback) && !is.null(problem$standardization) &&
    dpglmnet_family(problem$family)$classes && isTRUE(problem$intercept) &&
    is.finite(problem$epsilon) && is.null(problem$lambda) &&
    isTRUE(problem$single_lambda) && !isTRUE(problem$standardize_budget_given) &&
    is.null(problem$weights) && is.null(problem$passes_given) &&
    isTRUE(problem$scale_defaults[["smoothness"]]) &&
    isTRUE(problem$scale_defaults[["clip"]]) && problem$p > 0
}

reads_mostly_constant <- function(constant) {
  length(constant) > 0 && mean(constant) >= moderate_n_constants$constant_fallback
}

# The problem of the fallback: the bound-scaled problem of the moderate-n
# band (bound_scaled_problem()) with the ledger of the standardization's
# releases (made, and charged). The other planned rows not yet released
# (the signal check's, the split intercept's) are not made and their GDP
# mu^2 goes to the path's row (absorb_releases(), R/privacy.R), which is
# then spread over the bound-scaled schedule's runs at that mu
# (respread_release()): its passes are those the band's rule gives
# (choose_schedule() at the path's mu, bound_scaled_passes()). The total is
# the planned one.
constant_fallback_problem <- function(problem, standardized) {
  constant <- standardized$standardization_result$x_constant
  fallback <- bound_scaled_problem(problem, why = sprintf(paste(
    "auto: the private standardization read %d of %d columns as constant, so dpcd",
    "on columns mapped to [-1, 1] by their public bounds, with the budget left"),
    sum(constant), length(constant)))
  fallback$constant_fallback <- c(constant = sum(constant), p = length(constant))
  fallback$nlambda <- 1L
  fallback$single_lambda <- TRUE
  ledger <- standardized$ledger
  rows <- ledger$mechanisms
  path <- match("path", rows$key)
  unreleased <- !rows$key %in% c("path", names(ledger$sensitivities)) & rows$count > 0
  mu_path <- sqrt(sum(rows$count[c(path, which(unreleased))] /
                        rows$noise_multiplier[c(path, which(unreleased))]^2))
  # (choose_schedule()'s rule, R/dpglmnet.R, at the path's mu and the
  # band's clip per coordinate)
  coordinates <- problem$p + 1
  affordable <- max(1, floor((0.05 * mu_path * problem$n /
                                (2 * moderate_n_constants$bound_clip))^2 / coordinates))
  fallback$passes <- bound_scaled_passes(fallback, max(1L, min(10L, affordable)), affordable)
  solver <- solver_object(fallback$solver)
  # (the rows not yet released, the signal check's and the split
  # intercept's, are not made: their mu^2 goes to the path, so the path has
  # the whole budget the standardization left)
  unreleased <- setdiff(rows$key, c("path", names(ledger$sensitivities)))
  ledger <- absorb_releases(ledger, "path", unreleased,
                            " (not made: the standardization's fallback; its budget to the path)")
  planned <- solver$releases(fallback)[[1L]]
  ledger <- respread_release(ledger, "path", planned$count, "", more = TRUE)
  # (the row's words: the releases made, on the bound-scaled columns)
  ledger$mechanisms$mechanism[path] <- paste(
    planned$mechanism, "(on bound-scaled columns: the standardization's fallback)")
  ledger$mechanisms$sensitivity[path] <- planned$sensitivity
  fallback$ledger <- ledger
  fallback
}

# Says that the fallback was taken (public: released values).
warn_constant_fallback <- function(problem) {
  f <- problem$constant_fallback
  if (is.null(f)) return(invisible())
  dpglmnet_warn(sprintf(paste(
    "the private standardization read %d of %d columns as constant (their released",
    "spread within its noise: with crude x.bounds a column is spread over a small",
    "part of its interval), so solver = \"auto\" fitted DP-CD on the columns mapped",
    "to [-1, 1] by their x.bounds instead, with the budget the standardization",
    "left (its releases are spent, and on the ledger). Its",
    "coefficients are noisy and shrunk, and where the signal is weak its",
    "predicted probabilities lean toward the majority class (its clip, 0.15 per",
    "coordinate, holds the intercept short of the base rate): read them as a",
    "ranking. Intervals near the columns' ranges in `x.bounds` let the",
    "standardization resolve them."), f[["constant"]], f[["p"]]))
  invisible()
}
