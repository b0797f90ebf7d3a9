# The intercept-only fit (issue 16): every coefficient 0 and one released
# intercept, the private mean of the clamped response (gaussian, after a
# release of its range: plans_intercept_range()) or the private proportion
# of 1s (binomial, on the logit scale), with the whole budget. A solver of
# the private path skeleton (R/solvers.R); the release is
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
  # gaussian: the share of epsilon its mean takes where y's range is
  # released first (plans_intercept_range())
  mean_share = 0.5,
  # and a cut coarse bin next to y's released range is put back when its
  # released count is above this many count noise sds
  next_bin_sds = 2,
  # binomial: the released proportion is clamped into [margin, 1 - margin]
  # (post-processing) with a public margin of 1 / n, so that its logit is
  # finite (the noise of the proportion is of order 1 / (n epsilon) too)
  margin = function(n) 1 / n
)

intercept_solver <- new_solver("intercept",
  # the mean of the clamped response is one aggregate query (R/database.R)
  in_database = TRUE,
  # The fit reads no x: no smoothness constants, no clip, no schedule.
  reads_x = FALSE,
  default_clip = function(p, intercept) 1,
  check = function(problem) intercept_problem(problem, given = TRUE),
  start_release = function(problem) {
    stop("internal error: the intercept-only fit releases no lambda_max", call. = FALSE)
  },
  releases = function(problem) {
    interval <- intercept_interval(problem)
    # (the noise multiplier, scale over sensitivity, rounded up so that the
    # accountant's epsilon = 1 / multiplier never exceeds the target)
    if (!plans_intercept_range(problem)) {
      return(list(mechanism(
        "intercept-only: mean of the clamped response (Laplace)", "laplace", 1L,
        interval$sensitivity_text, noise_multiplier = intercept_multiplier(problem$epsilon),
        key = "path")))
    }
    # y's range (Gaussian, calibrated to what the mean leaves), then its mean
    # over it at mean_share of epsilon
    list(mechanism(sprintf(paste("intercept-only: range of the clamped response (noisy",
                                 "histograms: %d log-spaced and %d equal bins)"),
                           2L * histogram_levels + 1L, histogram_fine_bins),
                   "gaussian", 1L, "2 (one record moves between two bins of each histogram)",
                   calibrated = TRUE, key = "intercept_ranges"),
         mechanism("intercept-only: mean of the response clamped to its released range (Laplace)",
                   "laplace", 1L, "(u - l) / n, y clamped to its released range [l, u]",
                   noise_multiplier = intercept_multiplier(
                     problem$epsilon * intercept_constants$mean_share),
                   key = "path"))
  },
  setup = function(problem) {
    interval <- intercept_interval(problem)
    if (!plans_intercept_range(problem)) return(list(lower = interval$lower, upper = interval$upper))
    release_intercept_range(problem, interval)
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
    a0 <- intercept_link(released, problem, setup)
    nlambda <- length(lambda)
    list(beta = matrix(0, problem$p, nlambda), a0 = rep(a0, nlambda),
         last_pass_change = rep(0, nlambda))
  },
  settings = function(problem, setup, noise, lambda = NULL) {
    list(intercept_only = TRUE, intercept_noise = intercept_constants$noise,
         intercept_noise_scale = noise, intercept_interval = c(setup$lower, setup$upper),
         # (y's public interval, where its range was released first)
         intercept_public_interval = setup$public,
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

# The intercept of the released mean, post-processing: clamped into the
# interval y was read on (gaussian: the setup's, its released range or its
# public interval), or the logit of the proportion clamped into [m, 1 - m]
# with the public margin m = 1 / n (binomial).
intercept_link <- function(released, problem, setup) {
  family <- dpglmnet_family(problem$family)
  if (family$bounded_response) {
    return(min(max(released, setup$lower), setup$upper))
  }
  m <- intercept_constants$margin(problem$n)
  stats::qlogis(min(max(released, m), 1 - m))
}

# Whether a gaussian intercept-only fit releases y's range before its mean
# (public): at finite epsilon, on y's public interval. A crude y.bound (2
# max |y| for a log price near 10: [-22, 22]) makes the mean's noise scale
# (u - l) / (n epsilon) rival sd(y) at a few hundred records, and that
# noise is the fit's whole excess over the training mean (car_prices,
# modeldata: 1.10 times its test MSE at epsilon 0.5, n = 643). So y's range
# is released first as the standardization releases a column's
# (histogram.h's noisy histograms, replace-one L2 sensitivity 2 whatever
# the interval; R/standardize.R), a Gaussian calibrated to what the mean
# leaves of the budget, and the mean is of y clamped to the released range
# (its sensitivity that range's width over n: adaptive composition) at
# mean_share of epsilon. Where the public interval is already tight the
# range narrows it little and the mean's noise doubles, from a scale of
# (u - l) / (n epsilon), small against sd(y) there (an independent
# review's simulations: 50 + 10 z on [0, 100], 1000 records, the mean's
# error 0.2-0.5 against 0.1-0.3, under 0.3% of var(y)). Measured
# (cv.dpglmnet(), test MSE over the training mean's, mean (worst) of 3
# splits, before (3 fits) -> after (9 fits)), epsilon 0.5: car_prices
# 1.097 (1.184) -> 1.006 (1.029); Sacramento (log price) 1.070 (1.141) ->
# 1.004 (1.026); epsilon 1: car_prices 1.031 (1.058) -> 1.002 (1.010);
# Carseats, BostonHousing, concrete, College (n = 400-800) unchanged.
# Only where the histogram's count noise is affordable, as the
# standardization's y (afford_standardization_ranges(), R/standardize.R):
# its sd 2 / mu, mu the Gaussian's at (epsilon (1 - mean_share), delta), at
# most n / y_histogram_noise_limit = n / 10 records (public). Below that
# the released counts are mostly noise. The limit was n / 20 until
# release_intercept_range() read y's clamp as the standardization reads
# y's (x's hidden-mass rule had sent it back to the whole crude interval
# at half the budget: in 5 fits of 40 on midwest's poverty rate, 350
# records at epsilon 0.5). With that fixed, n / 10
# against n / 20, cv.dpglmnet() at epsilon 0.5 with y.bound = 2 max |y|
# (test MSE over the training mean's, 3 splits x 3 draws, mean (worst)):
# AER's CASchools (a test score near 654, sd 19.5, 336 training records)
# 1.374 (2.154) -> 1.001 (1.042); ggplot2's midwest 1.056 (1.153) -> 0.991
# (1.024); nlme's Quinidine 1.049 (1.171) -> 1.005 (1.039); AER's
# TeachingRatings 1.024 -> 1.006; ChickWeight, Auto, Boston's nox,
# Carseats, economics 0.002-0.012 better; worse: channing (boot; a time
# with a long lower tail) 1.007 (1.038) -> 1.033 (1.293), ISLR2's Credit
# (a balance, 40% zeros) 1.023 (1.065) -> 1.032 (1.167), biomass 1.007 ->
# 1.024, BostonHousing 1.000 -> 1.001; 14 other sets unchanged. Root mean
# square error of the intercept over sd(y), 200 draws, epsilon 0.5 (n
# / 20 -> n / 10): 654 + 19.5 z, n = 336, 1.28 -> 0.15; 1000 + 25 z, n =
# 400, 1.05 -> 0.18; exp(z), n = 400, 0.20 -> 0.17; 40% zeros and the rest
# exp(1 + z), n = 400, 0.28 -> 0.42 (the histograms see its zeros alone:
# hidden_response_clamp(), R/standardize.R); but where the public interval is
# tight the range narrows little and halves the mean's budget: 50 + 10 z
# on [0, 100], n = 400, 0.06 -> 0.15 (1.004 -> 1.023 of the mean's test
# MSE); 1 + 1.4 z with bound 8 0.07 -> 0.17.
plans_intercept_range <- function(problem) {
  if (!dpglmnet_family(problem$family)$bounded_response || !is.finite(problem$epsilon) ||
      is.null(problem$y.lower)) {
    return(FALSE)
  }
  mu <- plan_gdp_mu(problem$epsilon * (1 - intercept_constants$mean_share), problem$delta)
  2 / mu <= problem$n / y_histogram_noise_limit
}

# y's range (plans_intercept_range()): the released clamp within y's public
# interval, and the ledger with the histogram's sensitivity.
release_intercept_range <- function(problem, interval) {
  # (`response`: y's clamp, as the standardization's y. after_ranges() then
  # gives it the guards against a cut tail below, and not x's rule that
  # reads a clamp cut to a sliver without a clear mass as a hidden one and
  # puts the column back on its whole public interval: that rule threw y's
  # clamp away, and the mean then had the whole crude interval's noise at
  # half the budget. ggplot2's midwest, percbelowpoverty in [2.2, 48.7]
  # with bound 97.4, 350 records at epsilon 0.5: clamps such as [6.1, 12.2]
  # went to [-97.4, 97.4] in 2 fits of 9, the intercept 1.1 sd of y off)
  plan <- list(ranges = TRUE, levels = histogram_levels, fine_bins = histogram_fine_bins,
               sparse = FALSE, binary = FALSE, private = TRUE, response = TRUE)
  s <- column_scales(response_column(problem$y), interval$lower, interval$upper, plan,
                     "intercept", problem$rng)
  s$ranges_seed <- draw_seed()
  ledger <- record_ranges_sensitivity(problem$ledger, s)
  request <- ranges_request(s, ledger)
  request$make_sums <- FALSE  # (no moments follow: the clamp alone is read)
  released <- release_columns("ranges", list(s$x), list(request))[[1L]]
  # (the clamp winsorizes: it cuts tails whose counts are not clear, which
  # for a mean is bias, the whole fit's: after_ranges()'s guards, post-
  # processing, put back a whole coarse bin cut next to it whose released
  # count is above intercept_constants$next_bin_sds noise sds, reach across
  # the anchor where the fine bins show records (cover_other_side()), and
  # widen a clamp whose fine bins' released counts do not hold half the
  # records (widen_to_half()). BostonHousing's medv, 405 records at epsilon
  # 0.5: the clamp [12.5, 25] in 7 draws of 20 cut [25, 50] and its quarter
  # of the records, 2.3 below the mean)
  s <- after_ranges(s, released, request$count_sd)
  list(lower = s$lower, upper = s$upper, ledger = ledger,
       public = c(interval$lower, interval$upper))
}

# A clamp on one side of the histograms' anchor (0, or the interval's
# midpoint) reaches across it to the mirror of its far end when the fine
# bins between that mirror and the clamp show records (their released sum
# above 2 noise sds of the sum; post-processing). Near the anchor the log
# bins are narrow and their counts noise, so a y centred near 0 had the
# side nearest 0 cut (1 + 1.4 z with bound 8, 400 records at epsilon 1:
# the clamp [1, 4], the mean's error 0.20 against 0.05 without the range).
cover_other_side <- function(clamp, counts, count_sd, lower, upper, levels, fine_bins,
                             frame = NULL) {
  frame <- released_histograms(counts, lower, upper, levels, fine_bins, frame)
  starts <- frame$fine_starts
  step <- frame$step
  width <- clamp[2L] - clamp[1L]
  shows <- function(from, to, reached) {
    inside <- starts >= from - 1e-9 * step & starts + step <= to + 1e-9 * step
    sds <- if (reached - width > cover_constants$widening * width) {
      cover_constants$far_sds
    } else cover_constants$near_sds
    any(inside) && sum(frame$fine[inside]) > sds * count_sd * sqrt(sum(inside))
  }
  anchor <- frame$anchor
  if (clamp[1L] > anchor) {
    mirror <- max(lower, 2 * anchor - clamp[2L])
    if (shows(mirror, clamp[1L], clamp[2L] - mirror)) clamp[1L] <- mirror
  } else if (clamp[2L] < anchor) {
    mirror <- min(upper, 2 * anchor - clamp[1L])
    if (shows(clamp[2L], mirror, mirror - clamp[1L])) clamp[2L] <- mirror
  }
  clamp
}

# How much evidence cover_other_side() asks for: the released sum of the
# fine bins between the mirror and the clamp above near_sds noise sds of
# that sum, or far_sds where reaching the mirror would more than triple the
# clamp's width (`widening`: the width added over the width). The test runs
# over many bins that are mostly empty, so a 2-sd test passes on noise
# alone in about 3% of draws; where the clamp sits far from the anchor
# against its width, that false reach multiplies the mean's noise (and a
# standardized y's second moment's sensitivity, its square) by the
# widening: y = 654 + 19.5 z (a test score, AER's CASchools) with y.bound
# 2 max |y|, 336 records at epsilon 0.5, reached [-707, 707] from the clamp
# [618, 707] (16 times wider) in 4% of draws, an intercept 1 sd of y off;
# stackoverflow's log salary (modeldata; [7.6, 12.2] to [-12.2, 12.2])
# tripped the signal check in about 1 fit in 30 (inst/bench/results/
# 2026-11-28-session28.md). A centred y (1 + 1.4 z, bound 8: [1, 4] to
# [-4, 4]) keeps the 2-sd test.
cover_constants <- list(near_sds = 2, far_sds = 3, widening = 2)

# Whether the released counts of the fine bins (equal, over [lower, upper])
# that overlap the clamp sum to at least n / 2.
holds_half <- function(clamp, counts, n, lower, upper, levels, fine_bins, frame = NULL) {
  frame <- released_histograms(counts, lower, upper, levels, fine_bins, frame)
  overlap <- frame$fine_starts < clamp[2L] & frame$fine_starts + frame$step > clamp[1L]
  sum(frame$fine[overlap]) >= n / 2
}

# The clamp, or where its released counts do not hold half the records
# (holds_half()), the first that does of the clamp widened by 1, 2, ...
# coarse bins (histogram.h's log-spaced bins about the anchor) on each
# side, the public interval at the last (post-processing of the released
# counts). The public interval at once made y's moments those of the whole
# crude interval (2 max |y|) whose noise they were released to avoid: y =
# 1000 + 20 z + signal, 1500 records at epsilon 0.5, y's released sd 24 to
# 27 times its sd in the draws whose clamp fell back (1 in 20), test MSE up
# to 1.76 times the mean's.
widen_to_half <- function(clamp, counts, n, lower, upper, levels, fine_bins, frame = NULL) {
  frame <- released_histograms(counts, lower, upper, levels, fine_bins, frame)
  holds <- function(candidate) {
    holds_half(candidate, counts, n, lower, upper, levels, fine_bins, frame)
  }
  if (holds(clamp)) return(clamp)
  edges <- frame$edges
  for (k in seq_along(edges)) {
    below <- edges[edges < clamp[1L]]
    above <- edges[edges > clamp[2L]]
    candidate <- c(if (length(below) >= k) max(lower, rev(below)[k]) else lower,
                   if (length(above) >= k) min(upper, above[k]) else upper)
    if (candidate[1L] <= lower && candidate[2L] >= upper) break
    if (holds(candidate)) return(candidate)
  }
  c(lower, upper)
}

# The clamp c(lo, hi) of one column, widened by the coarse bin (histogram.h:
# log-spaced about the public anchor) just below lo when lo is its upper
# edge and its released count (the first 2 levels + 1 of `counts`) is
# above next_bin_sds count noise sds, and likewise above hi.
put_back_next_bins <- function(clamp, counts, count_sd, lower, upper, levels, frame = NULL) {
  frame <- released_histograms(counts, lower, upper, levels, frame = frame)
  edges <- frame$edges
  clear <- frame$coarse > intercept_constants$next_bin_sds * count_sd
  # (an edge equal to the clamp's end, to rounding)
  at <- function(v) which(abs(edges - v) <= 1e-9 * frame$half)
  below <- at(clamp[1L]) - 1L
  if (length(below) == 1L && below >= 1L && clear[below]) clamp[1L] <- max(lower, edges[below])
  above <- at(clamp[2L])
  if (length(above) == 1L && above <= 2L * levels + 1L && clear[above]) {
    clamp[2L] <- min(upper, edges[above + 1L])
  }
  clamp
}

# One column's released histograms (src/dpglmnet/histogram.h) as R reads
# them: the anchor and half-width of the core's coarse frame, its 2 levels
# + 2 edges (coarse bin k spans [edges[k], edges[k + 1]]) and counts, then
# the fine bins' starts, width and counts.
released_histograms <- function(counts, lower, upper, levels, fine_bins = 0L, frame = NULL) {
  # (the frame as the release returned it, when given: no core call)
  if (is.null(frame)) frame <- .histogram_frame_cpp(lower, upper)
  anchor <- frame[[1L]]
  half <- frame[[2L]]
  k <- 0:levels
  edges <- numeric(2L * levels + 2L)
  edges[k + 1L] <- anchor - half * 2^-k
  edges[2L * levels + 2L - k] <- anchor + half * 2^-k
  step <- (upper - lower) / max(fine_bins, 1L)
  list(anchor = anchor, half = half, edges = edges,
       coarse = counts[seq_len(2L * levels + 1L)],
       step = step, fine_starts = lower + (seq_len(fine_bins) - 1) * step,
       fine = counts[2L * levels + 1L + seq_len(fine_bins)])
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

