# Private scales of a fit: the smoothness constants M_j (DP-CD's steps
# 1 / M_j, DP-SGD's step 1 / tr M) and the clipping thresholds, released from
# the data with noise and charged to the ledger, instead of being derived
# from crude public bounds. They matter most on unstandardized data, where
# the scales of the columns (and of the per-record gradient terms) span
# orders of magnitude that no public default can know.
#
# Both come from noisy-count bisection for a quantile of per-record
# magnitudes (src/dpglmnet/magnitude_quantiles.h): a count has replace-one
# sensitivity 1 whatever the bounds, so a column with crude bounds or heavy
# tails still gets a useful scale.
#   smoothness = "quantile": m_j = the 99% quantile of |x_ij|, then the second
#     moment of x_ij clamped to [-m_j, m_j] (replace-one sensitivity m_j^2 / n),
#     M_j = curvature * that moment. It is the curvature of the records that
#     are not clipped (the clipped ones barely move coordinate j).
#   clip = "quantile": DP-CD's C_j = the 99% quantile of the terms it clips at
#     its start, |l'(0, y_i) x_ij| (and |l'(0, y_i)| for the intercept);
#     DP-SGD's C = the 99% quantile of the gradient norms
#     |l'(0, y_i)| ||(x_i, 1)||.
# Measured on the four Table 2 problems of Mangold et al. (2022) (the raw and
# standardized California and Electricity data, inst/bench/defaults.R): with
# clips at the 99% (or 99.5%) quantile of the per-record terms and these
# constants, DP-CD's relative error was within a few tens of percent of the
# same run with the exact constants, and 10-100x below the error of the
# public default clip; the 95% quantile clipped too much (California
# standardized: 10x the error) and the largest term (the 100% quantile) let
# the noise swamp the signal.

# The quantile searched, the search range (a factor below the public bound
# of the magnitudes) and the bisection steps: 8 halvings of a 10^6 range
# leave a resolution factor of 1.055 (fewer steps, less noise per count:
# 8 steps and clip.budget = 0.2 measured as good as or better than 10 and
# 0.1 or 6 and 0.3 on the Table 2 problems). The level is lowered when the
# count noise is large (search_level()).
scale_search <- list(level = 0.99, range = 1e6, steps = 8L)

# The level of a search whose counts have noise sd `count_sd`: at most 0.99,
# and low enough that the (1 - level) n records above the quantile are
# `tail_noise` count noise sds: far above the quantile every record is
# counted, and a count of n must not be mistaken for one below the target
# (one such step sends the bisection to the top of its range, and the noise
# of DP-CD grows with the clip). Public: from n and the calibrated noise.
# Measured on the Table 2 problems: 1 or 2 noise sds let some searches
# overshoot by orders of magnitude (relative errors of 10^2 to 10^5); 3 did
# not in 20 fits.
search_level <- function(count_sd, n, tail_noise = 3) {
  max(0.5, min(scale_search$level, 1 - tail_noise * count_sd / n))
}

# The shares of the GDP budget (of mu^2) that the fit gives to releases
# other than the solver's path: private standardization, quantile smoothness
# constants, quantile clipping thresholds. Named vector; the path gets the
# rest (check_problem() keeps it positive).
budget_shares <- function(problem) {
  finite <- is.finite(problem$epsilon)
  c(standardize = if (!is.null(problem$standardization)) problem$standardize.budget,
    smoothness = if (finite && identical(problem$smoothness, "quantile"))
      problem$smoothness.budget,
    clip = if (finite && identical(problem$clip, "quantile")) problem$clip.budget,
    # the weight sum (R/weights.R)
    weights = if (finite && !is.null(problem$weights)) weight_sum_share)
}

# The noise multiplier factor f of a group of `releases` Gaussian releases
# that takes `share` of mu^2 beside a path of `path_releases` releases at
# noise multiplier z with `path_share`: in GDP each release at f z has
# mu = 1 / (f z), so releases / f^2 : path_releases = share : path_share.
share_factor <- function(releases, share, path_share, path_releases) {
  sqrt(releases * path_share / (share * path_releases))
}

path_share <- function(problem) 1 - sum(budget_shares(problem))

# The groups of private-scale releases (public: from p, the intercept, the
# solver and the shares): for each, its number of releases and noise
# multiplier factor. The ledger rows (scales_mechanisms()) and the releases
# (release_scales()) both read them, so they cannot drift apart.
scale_groups <- function(problem, path_releases) {
  shares <- budget_shares(problem)
  rest <- path_share(problem)
  steps <- scale_search$steps
  group <- function(releases, share) {
    c(releases = releases, factor = share_factor(releases, share, rest, path_releases))
  }
  groups <- list()
  if ("smoothness" %in% names(shares)) {
    groups$x_quantiles <- group(steps * problem$p, shares[["smoothness"]] / 2)
    groups$x_moments <- group(problem$p, shares[["smoothness"]] / 2)
  }
  if ("clip" %in% names(shares)) {
    per_coordinate <- identical(solver_object(problem$solver)$quantile_clip, "coordinate")
    groups$clip <- group(steps * if (per_coordinate) problem$p + problem$intercept else 1,
                         shares[["clip"]])
  }
  groups
}

# The releases of the private scales, each with its noise multiplier factor.
scales_mechanisms <- function(problem, path_releases) {
  groups <- scale_groups(problem, path_releases)
  steps <- scale_search$steps
  # the level is public but set after calibration (search_level())
  level <- sprintf("upper (<= %g%%)", 100 * scale_search$level)
  row <- function(name, g, sensitivity, key) {
    mechanism(name, "gaussian", g[["releases"]], sensitivity, calibrated = TRUE,
              factor = g[["factor"]], key = key)
  }
  list(
    if (!is.null(groups$x_quantiles)) {
      row(sprintf(paste("smoothness: %s quantiles of |x_ij| per column",
                        "(noisy-count bisection, %d steps)"), level, steps),
          groups$x_quantiles, "1 (a count)", "smoothness_quantiles")
    },
    if (!is.null(groups$x_moments)) {
      row("smoothness: second moments of x clamped to those quantiles", groups$x_moments,
          "m_j^2 / n (m_j: the released quantile)", "smoothness_moments")
    },
    if (!is.null(groups$clip)) {
      row(if (identical(solver_object(problem$solver)$quantile_clip, "coordinate")) {
        sprintf(paste("clipping thresholds: %s quantiles of |l'(0, y_i) x_ij| per",
                      "coordinate (noisy-count bisection, %d steps)"), level, steps)
      } else {
        sprintf(paste("clipping threshold: %s quantile of the gradient norms at 0",
                      "(noisy-count bisection, %d steps)"), level, steps)
      }, groups$clip, "1 (a count)", "clip_quantiles")
    })
}

# Releases the private scales with the noise of their ledger rows
# (problem$ledger; none at epsilon = Inf) on the problem as the solver will
# see it (after any standardization), and returns it with
# `released_smoothness` and `released_clip` set (and the sensitivities on
# the ledger). Everything after the releases is post-processing.
release_scales <- function(problem) {
  quantile_smoothness <- identical(problem$smoothness, "quantile")
  quantile_clip <- identical(problem$clip, "quantile") && is.finite(problem$epsilon)
  if (!quantile_smoothness && !quantile_clip) return(problem)
  steps <- scale_search$steps
  levels <- list()
  # (a count has replace-one sensitivity 1, whatever the bounds)
  search <- function(y, upper, weighted, constant_column, what, key,
                     range = scale_search$range, what_for = "clip") {
    problem$ledger <<- record_sensitivity(problem$ledger, key, 1)
    count_sd <- release_noise(problem$ledger, key)
    # The smoothness search keeps the top level: its overshoot is safe (a
    # larger m_j, a larger M_j, a smaller step), and a lower level would
    # put m_j at 0 on columns that are mostly zeros.
    level <- if (what_for == "smoothness") scale_search$level
             else search_level(count_sd, problem$n)
    levels[[what_for]] <<- level
    if (level < 0.9) {
      dpglmnet_warn(sprintf(paste(
        "with %d records at epsilon = %s the private scales are noisy: the",
        "quantile searches target the %.0f%% level (count noise sd %.0f), so",
        "clipping thresholds and steps may be far from useful. More records, a",
        "larger epsilon, or standardize = TRUE help."), problem$n,
        format(problem$epsilon), 100 * level, count_sd))
    }
    .magnitude_quantiles_cpp(problem$x, as.double(y), list(
      transform = problem$transform, family = problem$family,
      family_parameter = problem$family_parameter,
      response_transform = problem$response_transform, upper = as.double(upper),
      weighted = weighted, constant_column = constant_column, what = what,
      level = level, range = range, steps = steps,
      count_sd = count_sd, seed = draw_seed(), secure = problem$rng == "secure"))
  }
  # Magnitude bounds of the values as the solver reads them (x.bounds'
  # envelope max(|lower_j|, |upper_j|) for intervals: x is read clamped to
  # [lower_j, upper_j], so |x_ij| <= b_j and the searches' ranges and the
  # clip's gradient bounds below hold).
  b <- problem$value_bounds
  # The searches need a positive range: a column read as 0 (constant after
  # standardization, scale 0, its coefficient held at 0) gets the public 1,
  # whatever it finds there is never used (at p >> n every column could be
  # constant, and the search then stopped on an internal error).
  search_bound <- ifelse(b > 0, b, 1)
  if (quantile_smoothness) {
    # (epsilon = Inf: no rows, no noise)
    private <- is.finite(problem$epsilon)
    m <- search(problem$y, search_bound, FALSE, FALSE, "columns", "smoothness_quantiles",
                what_for = "smoothness")
    # the second moment of x clamped to the released [-m_j, m_j]: m_j^2 / n
    problem$ledger <- record_sensitivity(problem$ledger, "smoothness_moments",
                                         m^2 / problem$n)
    second_sd <- release_noise(problem$ledger, "smoothness_moments")
    if (private && !all(is.finite(second_sd) & second_sd > 0)) {
      stop("internal error: a private second moment needs positive, finite noise")
    }
    moments <- .column_moments_cpp(problem$x, list(
      transform = problem$transform, mean_sd = NULL, second_sd = second_sd,
      lower = -m, upper = m, shift = NULL, seed = draw_seed(),
      secure = problem$rng == "secure"))
    # Post-processing: at most m_j^2, at least twice the noise sd (a smaller
    # moment cannot be told from noise, and an underestimated M_j makes the
    # step 1 / M_j overshoot) and a tiny fraction of m_j^2 (M_j > 0).
    second <- pmax(pmin(moments$second, m^2), 2 * second_sd, 1e-12 * m^2,
                   .Machine$double.xmin)
    # A quantile at the bottom of its search range (a column that is at
    # least 99% zeros, or noise) says nothing of the column's scale: take
    # the public bound's b_j^2 (larger, so a safe step) instead of a moment
    # of values clamped to nearly 0 (whose step 1 / M_j would be huge).
    undetermined <- m < b / scale_search$range^0.99
    second[undetermined] <- b[undetermined]^2
    problem$released_smoothness <- problem$curvature * second
  }
  if (quantile_clip) {
    # A public bound on |l'(0, y_i)|: the family's (binomial: 1), or for a
    # response clamped to y.bound (gaussian) the bound of y as the solver
    # reads it (y clamped to y.bound, then standardized).
    # With an interval, y.bound is its envelope max(|lower|, |upper|): y is
    # clamped to [lower, upper], so |y| <= y.bound and |y - m| <= y.bound + |m|.
    # Without y.bound, y has no public bound: the search then spans 10^-6 to
    # 10^6 times the bound of x (resolution factor 1.11 in 8 steps).
    family <- dpglmnet_family(problem$family)
    unbounded <- family$bounded_response && is.null(problem$y.bound)
    range <- scale_search$range * if (unbounded) 1e6 else 1
    derivative_bound <- if (!family$bounded_response) family$derivative_bound
                        else if (unbounded) 1e6 else {
      r <- problem$standardization_result
      if (is.null(r)) problem$y.bound else (problem$y.bound + abs(r$y_mean)) / r$y_sd
    }
    problem$released_clip <- if (identical(solver_object(problem$solver)$quantile_clip,
                                           "coordinate")) {
      search(problem$y, derivative_bound * c(search_bound, if (problem$intercept) 1),
             TRUE, problem$intercept, "columns", "clip_quantiles", range)
    } else {
      search(problem$y, derivative_bound * sqrt(sum(search_bound^2) + problem$intercept),
             TRUE, problem$intercept, "rows", "clip_quantiles", range)
    }
  }
  # the levels searched (public: from n and the calibrated noise)
  problem$scale_levels <- unlist(levels)
  problem
}
