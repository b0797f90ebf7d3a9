# Proximal DP coordinate descent (Mangold et al. 2022, Algorithm 1) as a
# solver of the private path skeleton (R/solvers.R); the numerical work is in
# src/dpglmnet/dpcd.h.

dpcd_solver <- new_solver("dpcd",
  # glmnet's weights and offset (R/weights.R): each record's gradient term is
  # multiplied by its weight before the clip; the offset enters eta.
  weights = TRUE,
  # each coordinate step is one aggregate query (R/database.R)
  in_database = TRUE,
  # quantile smoothness constants and clipping thresholds, one per
  # coordinate (R/scales.R), by default when unstandardized with x.bounds
  smoothness = "quantile", quantile_clip = "coordinate", quantile_clip_default = TRUE,
  # nlambda and passes from the budget (choose_schedule())
  automatic_schedule = TRUE,
  # solver = "auto" checks its single lambda (R/signal.R)
  signal_check = TRUE,
  # and gates it from its first pass (R/signal.R, src/dpglmnet/dpcd.h)
  signal_gate = TRUE,
  # epsilon = Inf: each lambda runs to convergence (choose_schedule())
  exact_convergence = TRUE,
  # a factor's dummies: one release per pass (dpcd_units())
  factor_blocks = TRUE,
  setup = function(problem) {
    smooth <- problem_smoothness(problem)
    # Coordinates: the p features, then the intercept.
    m <- smooth$coordinates
    private <- is.finite(problem$epsilon)
    # (the split intercept's mean of y, released first: the clip may read it)
    intercept <- dpcd_intercept_release(problem)
    if (!is.null(intercept)) problem$ledger <- intercept$ledger
    # (the default clip's budget factor, when the clip is not released)
    clip_factor <- if (private && is.null(problem$released_clip)) {
      dpcd_clip_factor(problem, intercept$used)
    }
    list(
      ledger = if (!is.null(intercept)) problem$ledger,
      intercept_mean = if (!is.null(intercept)) intercept[c("released", "used")],
      smooth = smooth,
      coordinates = length(m),
      # (0 for a coordinate held at 0, limits [0, 0]: a column the released
      # standardization reads as constant; its step is never taken, so it
      # releases nothing and the path's budget goes to the others:
      # path_releases below)
      step = ifelse(m > 0 & !dpcd_held(problem), problem$step / m, 0),
      # Sec. 5.1: C_j = sqrt(M_j / tr M) C, so the clipped gradient has
      # sensitivity at most 2C in the norm weighted by M^-1 / tr M; or the
      # released quantiles of the clipped terms (clip = "quantile", R/scales.R).
      clip = if (!private) rep(Inf, length(m))
             else if (!is.null(problem$released_clip)) problem$released_clip
             else pmin(sqrt(m / sum(m)) * problem$clip * clip_factor * block_clip_factor(problem),
                       if (isTRUE(problem$clip_given)) Inf
                       else dpcd_term_bound(problem, length(m))),
      clip_factor = clip_factor
    )
  },
  start_release = function(problem) {
    mechanism("lambda_max: clipped coordinate gradients at 0", "gaussian",
              problem$p, "2 C_j / n per coordinate", calibrated = TRUE, key = "lambda_max")
  },
  releases = function(problem) {
    blocks <- dpcd_blocks(problem)
    list(mechanism(
      if (any(blocks != 0)) {
        "DP-CD clipped coordinate gradients (a factor's dummies: one release per block)"
      } else "DP-CD clipped coordinate gradients", "gaussian",
      problem$nlambda * problem$passes * dpcd_units(problem),
      paste0(if (any(blocks != 0)) {
        "2 C_j / n per coordinate; a block: 2 / n in the norm weighted by 1 / C_j"
      } else "2 C_j / n per coordinate",
      if (plans_dpcd_intercept(problem)) {
        paste("; the intercept: min(w, 2 C_0) / n, w the range of l'(., 0) over the",
              "public box at the released coefficients")
      }), calibrated = TRUE, key = "path"))
  },
  # Replace-one sensitivity of coordinate j's clipped mean gradient: 2 C_j /
  # n (C_j from released smoothness constants or quantiles: adaptive).
  sensitivity = function(problem, setup, lambda = NULL) {
    path <- 2 * setup$clip / problem$n
    # (the split intercept's steps: at most 2 C_0 / n too, R/dpcd.R)
    split <- dpcd_intercept_interval(problem)
    c(list(lambda_max = path[seq_len(problem$p)], path = path),
      if (!is.null(split)) list(intercept_mean = dpcd_intercept_sensitivity(split, problem$n)),
      # (the adaptive clip: a mean of terms in [0, 1])
      if (plans_dpcd_scale(problem)) list(scale = 1 / problem$n))
  },
  # The path's releases once the standardization is released: the units
  # with a step to take (R/privacy.R's respread_release() spreads the
  # planned row over them at the same privacy cost).
  # With selection = "random" a pass draws its units among all of them, so
  # how many moving ones it draws is random: the planned row stays (an
  # upper bound on the releases made), unspread.
  # the adaptive clip's releases (dpcd_scale_rows())
  priced_releases = function(problem, path_count) {
    c(dpcd_scale_rows(problem), dpcd_intercept_rows(problem, path_count))
  },
  path_releases = function(problem, setup) {
    if (identical(problem$selection, "random")) return(NULL)
    problem$nlambda * problem$passes * dpcd_moving_units(problem, setup$step)
  },
  # sigma_j = the path row's noise multiplier x 2 C_j / n.
  noise = function(problem, setup, ledger) release_noise(ledger, "path"),
  start_gradient = function(problem, setup, noise) {
    features <- seq_len(problem$p)
    settings <- core_settings(
      problem, coordinate_clip = setup$clip[features], noise_sd = noise)
    # a database table: the same release as one aggregate (R/database.R)
    if (is_database_source(problem$x)) {
      return(dpcd_start_gradient_db(problem$x, problem$y, settings))
    }
    .dpcd_start_gradient_cpp(problem$x, problem$y, settings)
  },
  path = function(problem, setup, noise, lambda) {
    settings <- core_settings(
      problem, lambda = lambda, coordinate_step = setup$step,
      coordinate_clip = setup$clip, noise_sd = noise, passes = problem$passes,
      selection = problem$selection, average = problem$average,
      # (the core ignores it unless every noise sd is 0)
      stop_tolerance = exact_stop_tolerance(problem),
      tail_average = dpcd_tail_average(problem),
      coordinate_block = checked_dpcd_blocks(problem),
      gate_energy = problem$signal_gate$gate_energy,
      gate_lambda = problem$signal_gate$gate_lambda,
      gate_z = problem$signal_gate$gate_z,
      gate_noise_energy = problem$signal_gate$gate_noise_energy,
      gate_ramp_energy = problem$signal_gate$gate_ramp_energy,
      gate_feature = problem$signal_gate$gate_feature)
    settings <- c(settings, dpcd_scale_settings(problem), dpcd_intercept_settings(problem, setup))
    fitted <- if (is_database_source(problem$x)) dpcd_path_db(problem$x, problem$y, settings)
              else .dpcd_path_cpp(problem$x, problem$y, settings)
    # (the adaptive clip's releases, at most as many as its ledger row counts)
    if (!is.null(settings$scale_reference)) {
      rows <- problem$ledger$mechanisms
      if (length(fitted$scale$released) > rows$count[match("scale", rows$key)] ||
          !(settings$scale_noise_sd > 0)) {
        stop("internal error: the adaptive clip's releases differ from the ledger's",
             call. = FALSE)
      }
    }
    # (the split intercept's released mean of y, reported)
    fitted$intercept_response_mean <- settings$intercept_released_mean
    fitted$intercept_start <- settings$intercept_start
    if (is_database_source(problem$x)) return(fitted)
    # one release per unit with a step and pass, as the ledger counts them
    if (!identical(as.numeric(fitted$units),
                   as.numeric(dpcd_moving_units(problem, setup$step)))) {
      stop("internal error: DP-CD's units differ from the ledger's", call. = FALSE)
    }
    fitted
  },
  settings = function(problem, setup, noise, lambda = NULL) {
    list(selection = problem$selection, average = problem$average,
         smoothness = setup$smooth$source, smoothness_values = setup$smooth$coordinates,
         laplace_scale = setup$smooth$laplace_scale,
         coordinate_step = setup$step, coordinate_clip = setup$clip,
         clip_factor = setup$clip_factor,
         noise_sd = noise,
         # (the adaptive clip's plan; its released scales:
         # fit$settings$adaptive_clip_scale)
         adaptive_clip = plans_dpcd_scale(problem),
         # (the split intercept's plan; its released mean:
         # fit$settings$intercept_response_mean)
         split_intercept = plans_dpcd_intercept(problem),
         # (the share of each lambda's passes whose end iterates it averages:
         # dpcd_tail_average(), 0 for none)
         tail_average = dpcd_tail_average(problem),
         # sd of the noise one update adds to coefficient j: gamma_j sigma_j
         # (features only).
         coefficient_noise = (setup$step * noise)[seq_len(problem$p)])
  }
)

# The default clip of a standardized squared-loss fit grows with the budget.
# Clipping the per-record terms x~_ij r_i biases the fit toward a robust
# (median-like) one: the terms of a rare dummy's records (x~ = 4.8 for 4%
# ones) or of a skewed response are cut, and the bias does not shrink with
# epsilon. The noise of a coordinate gradient, 2 z C_j / n, does: where it
# is below `dpcd_clip_noise` on the standardized scale at the default clip,
# the clip is raised until it reaches it (z: the path's planned noise
# multiplier, from the ledger; n, the clip and the rule are public), so the
# surplus of a large budget or a large n goes to less bias, and at epsilon =
# Inf nothing is clipped, continuously. Where the family declares it
# (family$raised_clip(), R/aaa-protocols.R): losses whose derivative has
# no public bound (the squared loss: its residual), and the binomial loss
# for a rare class only, read from the split intercept's released
# proportion (R/family.R, binomial_raised_clip_share). The Huber terms are
# at most |x~_ij| delta, the binomial ones |x~_ij|, and on Shuttle and
# Satellite (classes of 22-23%) the clip at 1 kept outlying records from
# slowing DP-CD: a raised clip was 1.16-1.25x worse at epsilon 100.
# Measured (inst/bench/real_sets.R-style splits, cv.dpglmnet() held out
# over cv.glmnet; 0.01 / 0.02 / none):
# California 0.765 / 0.763 / 0.792 at epsilon 100, 0.757 / 0.753 / 0.769 at
# 16; Bikeshare 1.068 / 1.062 / 1.264 at 100, 1.288 / 1.214 / 1.288 at 16;
# Wage (n = 3000) 1.040 at 100 with 0.02 against 1.080; no change at
# epsilon 1 on any of them (the factor stays 1 there).
dpcd_clip_noise <- 0.02

dpcd_clip_factor <- function(problem, released_mean = NULL) {
  # (with its public parameter: Huber's derivative is bounded by its delta)
  family <- problem_family(problem)
  if (isTRUE(problem$clip_given) || !is.numeric(problem$clip) ||
      is.null(problem$standardization_result) || !family$raised_clip(released_mean) ||
      !is.finite(problem$epsilon) || is.null(problem$ledger)) {
    return(1)
  }
  rows <- problem$ledger$mechanisms
  z <- rows$noise_multiplier[match("path", rows$key)]
  if (!isTRUE(z > 0)) return(1)
  # (the default clip is 1 per coordinate on the standardized scale)
  per_coordinate <- problem$clip / sqrt(problem$p + problem$intercept)
  max(1, dpcd_clip_noise * problem$n / (2 * z * per_coordinate))
}

# The largest term |l'(eta_i, y_i) x~_ij| coordinate j can hold, from
# released clamps, means and scales (post-processing) or public bounds:
# |x~_ij| <= value_bounds_j (1 for the intercept) times the family's bound
# on |l'|, or, for the squared loss on a standardized response,
# `dpcd_clip_residual_reach` times the largest |y~_i| its released clamp
# allows (a residual beyond twice the response's reach is no fit). A clip
# above it cuts nothing and only adds noise: the raised clip of a large
# budget (dpcd_clip_factor()) stops there, so the noise falls with epsilon
# again and a very large epsilon reaches glmnet's solution (an independent
# first-use review: at epsilon 10, 100 and 1e6 the fits were the same, the
# noise held at 0.02 by an ever larger clip, coefficients 0.93 against
# 1.00). Inf where nothing bounds it (a response not standardized; record
# weights, which multiply each term by up to W n / S: an independent
# review). A clip you give is kept as given.
dpcd_clip_residual_reach <- 2

dpcd_term_bound <- function(problem, coordinates) {
  if (!is.null(problem$weights)) return(rep(Inf, coordinates))
  family <- problem_family(problem)
  reach <- if (is.finite(family$derivative_bound)) family$derivative_bound else {
    response <- problem$response_transform
    if (is.null(response) || !all(is.finite(c(response$lower, response$upper))) ||
        !isTRUE(response$sd > 0)) {
      return(rep(Inf, coordinates))
    }
    dpcd_clip_residual_reach *
      max(abs(response$lower - response$mean), abs(response$upper - response$mean)) / response$sd
  }
  values <- problem$value_bounds
  if (length(values) != problem$p) values <- rep(Inf, problem$p)
  bound <- c(values, rep(1, coordinates - problem$p)) * reach
  ifelse(is.finite(bound) & bound > 0, bound, Inf)
}

# Tail averaging (src/dpglmnet/dpcd.h, tail_average; Polyak-Ruppert
# averaging of the iterates): each lambda of a private fit ends at the mean
# of the iterates that end its last ceiling(a x passes) passes, a =
# family$tail_average, and the next lambda starts there. A feature the last
# pass left at 0 stays at 0 (the lasso's support is the last iterate's; the
# mean's would be the union of the tail's: an independent review saw df 23-33
# grow to 45-49 of 50 on a path). Post-processing
# of released steps: no privacy cost. Where the steps reach the minimum in
# a few passes, each later pass mostly redraws a coefficient's noise (the
# last step's sd gamma_j sigma_j), and the mean of k such iterates has
# less. Only on privately standardized columns, whose steps are their
# released curvature (a public bound, smoothness "bounds", can be far
# above it, and such a fit still moves late). Not with fewer than
# `min_passes` passes (a fit of 3 to 5 still
# moves in its last half, and its mean lags: txhousing at epsilon 0.5, 3
# passes, 0.129 -> 0.144 of the mean's test MSE), nor with `average`
# (Algorithm 1's averaging within each pass), nor at epsilon = Inf (no
# noise to average; the exact fit is glmnet's). Measured on the bench's 81
# sets (inst/bench/real_sets.R, 3 splits x 2 draws, epsilon 0.5 / 1 / 2;
# 111 gaussian rows, a = 0.5, min_passes 6): held-out error over the
# training mean's, mean log ratio -0.8% / -1.0% at epsilon 1 / 2 and +0.1%
# at 0.5; over cv.glmnet at epsilon 1, Bikeshare 1.18 -> 1.12, deliveries
# 1.18 -> 1.14, hotel 1.20 -> 1.16, txhousing 2.03 -> 1.93, salary 1.07 ->
# 1.03; worse: diamonds at 0.5 0.98 -> 1.04 (a path). a = 0.3 gained a
# little less (-0.6% / -0.8%). On the binomial rows a = 0.5 was worse on
# average (+1.0% at epsilon 1: BreastCancer 0.36 -> 0.51 of the majority
# class's error on its worst split), so that family has none
# (inst/bench/results/2026-11-28-session30.md).
dpcd_tail_constants <- list(min_passes = 6L)

dpcd_tail_average <- function(problem) {
  share <- problem_family(problem)$tail_average
  if (!is.numeric(share) || !isTRUE(share > 0) || !is.finite(problem$epsilon) ||
      is.null(problem$standardization_result) || isTRUE(problem$bound_scaling) ||
      !identical(problem$smoothness, "standardized") ||
      isTRUE(problem$average) || !isTRUE(problem$passes >= dpcd_tail_constants$min_passes)) {
    return(0)
  }
  share
}

# Factor blocks (src/dpglmnet/dpcd.h): the dummies of one factor of a data
# frame have disjoint supports (each record has at most one of them
# non-zero: the expansion's treatment contrasts, and disjoint_blocks(),
# R/bounds.R, makes it so record by record), so when they are not centred
# a step on one moves the linear predictor only on its own records, and the
# block's steps in a row release its gradient vector at one point: one
# Gaussian mechanism at the path's multiplier (replacing a record moves at
# most two of its coordinates, by at most C_a / n and C_b / n, or one by
# 2 C_a / n: 2 / n in the norm weighted by 1 / C_j, as one coordinate).
# A pass then makes one release per block instead of one per dummy; the
# schedule (choose_schedule(), R/dpglmnet.R) still counts coordinates, so
# the saving lowers the noise of every release. Their columns are uncentred (R/standardize.R) and the
# intercept takes their mean. Not for columns centred elsewhere (bound-
# scaled fits, R/highdim.R, centre them at 1/2): there every record moves
# every dummy's gradient.
dpcd_blocks <- function(problem) {
  blocks <- problem$factor_blocks
  if (is.null(blocks) || isTRUE(problem$bound_scaling) || !any(blocks != 0)) {
    return(rep(0L, problem$p))
  }
  blocks
}

# The clip of a block's dummy, times its clip otherwise: sqrt(max(1, v /
# block_clip_reach)), v its largest |x~_ij| (1 / sd for an uncentred
# dummy, from the released mean: public). A rare dummy's records carry
# x~ = 1 / sd (7 for 2% ones), and at the nominal clip their terms
# l'_i x~_ij were cut to residuals of 0.14: the block's single release
# affords a larger clip (each coordinate's noise is its own clip's, the
# others' are unchanged). cv.dpglmnet() at epsilon 1 over cv.glmnet (3-6
# splits, with a schedule that counted blocks once; blocks alone / this /
# sqrt(v) / v): txhousing (45 city dummies) 8.26 / 4.12 / 3.96 / 14.0;
# Bikeshare 1.38 / 1.28 / 1.30 / 2.13; Wage 1.17 / 1.19 / 1.22 / 1.54
# (before blocks: 19.8, 1.56, 1.15). With the schedule counting
# coordinates (as now): txhousing 5.07, Bikeshare 1.28, Wage 1.18.
# Recalibrated once a factor's means were released as one vector (more
# rare levels resolved, so larger v): a trade-off between levels with
# weak effects, whose larger clips only add noise (hotel_rates' 99
# countries), and levels with large ones, which the clip slows (txhousing's
# 45 cities). cv.dpglmnet() over cv.glmnet, 9 fits per row, epsilon 0.5 /
# 1 / 2, block_clip_reach 2 / 3 / 4 / 6: hotel 1.40 / 1.26 / 1.31, 1.36 /
# 1.20 / 1.21, 1.34 / 1.17 / 1.16, 1.34 / 1.15 / 1.13; txhousing 2.78 /
# 1.90 / 1.62, 2.97 / 1.97 / 1.58, 3.14 / 2.10 / 1.59, 3.32 / 2.33 / 1.63;
# Bikeshare at 1 / 2 1.20 / 1.16, 1.17 / 1.13, 1.16 / 1.12, 1.17 / 1.11;
# diamonds' price > 10000 at 1 1.43, 1.38, 1.37, 1.38; deliveries at 1
# 1.18, 1.16, 1.16, 1.16 (inst/bench/results/2026-11-27-session21.md).
# 3: the smallest mean log ratio over those 15 rows.
block_clip_reach <- 3

block_clip_factor <- function(problem) {
  blocks <- dpcd_blocks(problem)
  factor <- rep(1, problem$p + problem$intercept)
  reach <- problem$value_bounds
  inside <- blocks != 0 & is.finite(reach)
  if (!any(inside) || length(reach) != problem$p) return(factor)
  factor[which(inside)] <- sqrt(pmax(1, reach[inside] / block_clip_reach))
  factor
}

# Blocks pay where the noise binds: uncentred, a common level's dummy is
# correlated with the intercept and coordinate descent converges more
# slowly, which costs where the passes, not the noise, limit the fit. So
# the blocks are used only where the automatic schedule's affordable
# releases per coordinate (`affordable`, choose_schedule(): k, against the
# 10 x 10 it can use) are below block_noise_floor, i.e. its noise per step
# at the capped schedule is at least 0.05 sqrt(100 / k) = 0.02; elsewhere
# (a schedule given or at epsilon = Inf, a large n) the dummies are centred
# and released one by one. Public (n, p, epsilon, delta, the shares).
# Measured (cv.dpglmnet(), over cv.glmnet, 3 splits): ggplot2's diamonds
# (n = 53940, k ~ 7000 at epsilon 1) 1.36 without blocks, 1.66 with;
# Bikeshare (k ~ 90 at epsilon 1, ~370 at 2), txhousing and Wage (k < 100)
# gain from them (inst/bench/results/2026-11-26-session13.md).
block_noise_floor <- 625

plan_factor_blocks <- function(problem, affordable) {
  if (is.null(problem$factor_blocks) || !any(problem$factor_blocks != 0)) return(problem)
  if (!is.null(affordable) && affordable < block_noise_floor) return(problem)
  problem$factor_blocks <- NULL
  if (!is.null(problem$standardization)) {
    problem$standardization$blocks <- rep(0L, problem$p)
  }
  problem
}

# The units of a pass: a coordinate each, a block one.
dpcd_units <- function(problem) {
  blocks <- dpcd_blocks(problem)
  problem$p + problem$intercept - sum(blocks != 0) + length(unique(blocks[blocks != 0]))
}

# The coordinates held at 0 (features with limits [0, 0]; never the
# intercept), whose steps are not taken.
dpcd_held <- function(problem) {
  p <- problem$p
  held <- rep_len(problem$lower.limits, p) == 0 & rep_len(problem$upper.limits, p) == 0
  c(held, rep(FALSE, as.integer(isTRUE(problem$intercept))))
}

# The units of a pass with a step to take (`step`: one per coordinate,
# features then the intercept): a coordinate each, a block one if any of
# its coordinates moves.
dpcd_moving_units <- function(problem, step) {
  blocks <- dpcd_blocks(problem)
  moving <- step[seq_len(problem$p)] > 0
  sum(moving & blocks == 0) + length(unique(blocks[blocks != 0 & moving])) +
    as.integer(isTRUE(problem$intercept) && step[problem$p + 1L] > 0)
}

# The blocks the core gets, after checking that the transform leaves their
# columns uncentred (a block counted as one release must be one): NULL
# without blocks.
checked_dpcd_blocks <- function(problem) {
  blocks <- dpcd_blocks(problem)
  if (!any(blocks != 0)) return(NULL)
  center <- problem$transform$center
  lower <- problem$transform$lower
  inside <- blocks != 0
  if ((!is.null(center) && any(center[inside] != 0)) ||
      (!is.null(lower) && any(lower[inside] != 0))) {
    stop("internal error: a factor block's columns are centred or not clamped at 0",
         call. = FALSE)
  }
  as.numeric(blocks)
}

# The adaptive clip (src/dpglmnet/dpcd.h, scale_reference), for the
# squared loss. DP-CD's clips are set at the start, where the residuals
# are at their largest: the standardized response y~_i itself (root mean
# square about 1). As the fit explains the response the residuals shrink
# (to sqrt(1 - R^2)), the clips stay, and so does the noise 2 z C_j / n of
# every release, now large against gradients of the residuals' size. So
# before passes 1, 2, 4, 8, ... (from 0) of each lambda, the fit releases
# the root mean square s of the clamped residuals (one Gaussian release of
# the mean of min(l'^2, B^2) / B^2, terms in [0, 1], replace-one
# sensitivity 1 / n, B = beta times the last released s), and multiplies
# every clip and noise sd by min(1, kappa s / s_0), s_0 = 1 the public
# scale at the start (family$derivative_scale). Each gradient release
# keeps the path's noise multiplier, so it is the same Gaussian mechanism
# as before (its clip chosen from released values: adaptive composition),
# and the scale's releases are a row of their own at `factor` times the
# path's multiplier, that factor set so that the row costs `cost` of the
# path (as count / factor^2 of its releases). Adaptive clipping: Andrew,
# Thakkar, McMahan & Ramaswamy, "Differentially private learning with
# adaptive clipping", NeurIPS 2021 (there a quantile of per-example
# norms; here the mean square of the per-record derivative, which the
# per-coordinate terms l'_i x~_ij share).
#
# kappa = 2: the clips shrink only once s is below half its start, so a
# fit short of its optimum keeps its clips (kappa 1 cut the rare large
# dummies' terms of txhousing, 45 city dummies, R^2 0.96: 3.1 -> 4.7 times
# cv.glmnet's test MSE with the exact s). cv.dpglmnet() at epsilon 1 over
# cv.glmnet, 2 splits, none -> this (private): dplyr's storms (wind) 1.18
# -> 1.06, ggplot2's diamonds (log price) 1.14 -> 0.98, txhousing 3.13 ->
# 2.88, Wage 1.13 -> 1.09, Bikeshare 1.24 -> 1.24
# (inst/bench/results/2026-11-27-session17.md). The binomial loss was
# measured and left out (R/family.R).
#
# floor: s is at least 0.005 of its start (the clips at least 1/100 of
# theirs), public; without it a response explained exactly halved s
# release after release until B^2 underflowed (an independent review).
dpcd_scale_constants <- list(kappa = 2, beta = 2, cost = 0.04, floor = 0.005)

# Whether the fit makes the adaptive clip's releases (public: the plan).
# Not with a clip given (yours is kept) or released (clip = "quantile"),
# nor weights (their terms are w_i l'_i), nor for a family without
# a public start scale (Huber; a gaussian response not standardized), nor
# on a path of one pass per lambda.
plans_dpcd_scale <- function(problem) {
  family <- problem_family(problem)
  reference <- family$derivative_scale(isTRUE(problem$standardization$scale_y))
  !is.null(reference) && is.finite(problem$epsilon) &&
    !isTRUE(problem$clip_given) && is.null(problem$released_clip) &&
    !identical(problem$clip, "quantile") &&
    is.null(problem$weights) && isTRUE(problem$passes >= 2)
}

# The releases of one lambda's fit: before passes 1, 2, 4, ... (from 0)
# below `passes` (src/dpglmnet/dpcd.h). The scale moves most in a fit's
# first passes; fewer releases make each more precise at the same cost.
dpcd_scale_releases <- function(passes) {
  if (passes < 2) 0 else floor(log2(passes - 1)) + 1
}

# Its ledger row: dpcd_scale_releases() per lambda, at the factor
# of the path's multiplier that makes them cost `cost` of the path's
# releases.
dpcd_scale_rows <- function(problem) {
  if (!plans_dpcd_scale(problem)) return(list())
  count <- problem$nlambda * dpcd_scale_releases(problem$passes)
  path <- problem$nlambda * problem$passes * dpcd_units(problem)
  factor <- sqrt(count / (dpcd_scale_constants$cost * path))
  list(mechanism(
    "DP-CD adaptive clip: root mean square of the clamped loss derivatives",
    "gaussian", count, "1 / n (terms min(l'^2, B^2) / B^2 in [0, 1])",
    calibrated = TRUE, factor = factor, key = "scale"))
}

# The core's settings of the adaptive clip (none: list()).
dpcd_scale_settings <- function(problem) {
  if (!plans_dpcd_scale(problem)) return(list())
  family <- problem_family(problem)
  list(scale_reference = family$derivative_scale(isTRUE(problem$standardization$scale_y)),
       scale_noise_sd = release_noise(problem$ledger, "scale"),
       scale_kappa = dpcd_scale_constants$kappa, scale_beta = dpcd_scale_constants$beta,
       scale_floor = dpcd_scale_constants$floor)
}

# The split intercept (src/dpglmnet/dpcd.h, intercept_split), for a family
# whose loss has l'(eta, y) = l'(eta, 0) - y with y and l'(., 0) in
# [lower, upper] (family$split_intercept: binomial). DP-CD's intercept
# step releases the clipped mean of l'(eta_i, y_i), replace-one
# sensitivity 2 C_0 / n (C_0 = 1: |sigmoid - y| <= 1), and its last step
# leaves b0 off by 4 times that noise (the step 1 / M_0 = 4): a logit
# noise of sd 0.19 on Weekly at epsilon 1 (1089 records, 6 columns), where
# the training logit is 0.2, so the sign of every prediction flipped on
# some fits (1.40 times the majority class's misclassification on one).
# Split, the step releases the mean of l'(eta_i, 0) minus the mean of y:
# the latter released once before the fit (a row of its own, sensitivity
# (upper - lower) / n, at `factor` of the path's multiplier), the former at
# each step with the path's multiplier on its own sensitivity, w / n, w the
# range of l'(., 0) over the linear predictors a record in the public box
# of the columns can have at the current coefficients (released: adaptive
# composition), where w < 2 C_0 (else the step is the clipped one: a
# choice from public values; w <= 1, so with C_0 = 1 every step's noise is
# at most half the clipped step's, but a bound-scaled fit's C_0 of 0.15
# would have had 3.4 times its noise: BreastCancer at epsilon 0.5), and w
# = 0 while every feature is at 0, where the step is exact given b0 and
# the released mean: a fit whose features stay at 0 ends at (or, from b0
# = 0, moves without noise towards) the intercept of the released mean,
# as the intercept-only fit (R/intercept.R).
#
# Under the signal gate (R/signal.R) the fit starts at the link of the
# released mean (family$split_intercept$link, post-processing) rather
# than at b0 = 0: the gate reads the first pass's feature gradients, which
# at b0 = 0 carry (1/2 - mean y) times each column's centring error and
# opened the gate on data without signal. cv.dpglmnet(), generated n =
# 1000, p = 10, epsilon 1, 12 seeds, misclassification over the majority
# class's (worst): no effect, 10% ones 1.041 (1.34) -> 1.000 (1.00) with
# that start, 1.047 (1.37) without it; 55% ones 1.057 (1.21) -> 1.032
# (1.12), 1.037 (1.13) without. Elsewhere the start is b0 = 0, as before:
# on Satellite (one lambda of 3 passes under the released signal check, a
# strong correlated signal, 24% ones) the start at the logit was 1.35
# times cv.glmnet's error at epsilon 1 over 45 fits against 1.23 from 0
# (27 fits), and the split's steps alone 1.25 (18 fits).
#
# factor: the mean's row costs `cost` of the path's releases (as 1 /
# factor^2 of them), its noise between `lowest` and `highest` times the
# path's per release: two releases (factor 0.7) on a short path, factor
# 1/2 (four) from 100. On data with little signal the proportion is the
# prediction: Smarket (51.8% up, 1000 records) at epsilon 1 and 2, 9 fits,
# misclassification over the majority class's, highest 1 -> 0.7: 1.008
# (worst 1.049) -> 1.000 (1.000) and 1.011 (1.065) -> 1.004 (1.042);
# Weekly, OJ, Caravan unchanged; Vehicle at 2 0.729 -> 0.739.
dpcd_intercept_constants <- list(cost = 0.04, lowest = 0.5, highest = 0.7)

# The family's split (list(lower, upper, start)) where the fit makes it,
# else NULL (public: the plan). Private fits with an intercept, without
# weights (their terms are w_i l'_i) or an offset (it moves eta beyond the
# box), nor on the bound-scaled columns of moderate n (R/moderate-n.R),
# whose public clip C_0 = 0.15 makes the clipped step's 2 C_0 / n the
# smaller once a feature moves, so the release would cost without use
# (cv.dpglmnet() at epsilon 2, 9 fits: Vowel 0.528 -> 0.553 and Vehicle
# 0.647 -> 0.685 of the majority class's misclassification with it).
dpcd_intercept_interval <- function(problem) {
  split <- problem_family(problem)$split_intercept
  if (is.null(split) || !is.finite(problem$epsilon) || !isTRUE(problem$intercept) ||
      !is.null(problem$weights) || isTRUE(problem$has_offset) || !is.null(problem$offset) ||
      isTRUE(problem$bound_scaling)) {
    return(NULL)
  }
  split
}

plans_dpcd_intercept <- function(problem) !is.null(dpcd_intercept_interval(problem))

# Whether the split intercept starts at the released mean's link: under
# the signal gate (problem$signal_gate, R/signal.R), else at 0 (above).
dpcd_intercept_start <- function(problem) !is.null(problem$signal_gate)

# Its ledger row: one release of the mean of y, priced beside a path of
# `path_count` releases.
dpcd_intercept_rows <- function(problem, path_count) {
  split <- dpcd_intercept_interval(problem)
  if (is.null(split)) return(list())
  constants <- dpcd_intercept_constants
  factor <- min(constants$highest,
                max(constants$lowest, 1 / sqrt(constants$cost * path_count)))
  list(mechanism(
    "DP-CD split intercept: mean of the response (its start, its gradient's y part)",
    "gaussian", 1L, sprintf("(upper - lower) / n (y in [%g, %g])", split$lower, split$upper),
    calibrated = TRUE, factor = factor, key = "intercept_mean"))
}

# The core's settings of the split intercept (none: list()), from its
# release in the setup (below).
dpcd_intercept_settings <- function(problem, setup) {
  split <- dpcd_intercept_interval(problem)
  if (is.null(split)) return(list())
  mean <- setup$intercept_mean
  rows <- problem$ledger$mechanisms
  # (the path's multiplier as it is now: respread over the moving units
  # after the setup, R/solvers.R)
  multiplier <- rows$noise_multiplier[match("path", rows$key)]
  if (is.null(mean) || !(multiplier > 0)) {
    stop("internal error: the split intercept's releases are not in the ledger", call. = FALSE)
  }
  # (the start: see dpcd_intercept_start())
  list(intercept_split = TRUE,
       intercept_start = if (dpcd_intercept_start(problem)) split$link(mean$used) else 0,
       intercept_response_mean = mean$used, intercept_released_mean = mean$released,
       intercept_multiplier = multiplier)
}

# The replace-one sensitivity of the split intercept's mean of y in [lower, upper].
dpcd_intercept_sensitivity <- function(split, n) (split$upper - split$lower) / n

# The split intercept's release, made by DP-CD's setup (before its clips,
# which may read it: dpcd_clip_factor()): the mean of y clamped to the
# family's interval (one Gaussian release, src/dpglmnet/private_mean.h; on
# a table its exact mean from one aggregate, the noise added in the core as
# in memory). The ledger with its sensitivity, the released mean and the
# mean the steps use; NULL where the fit makes no split.
dpcd_intercept_release <- function(problem) {
  split <- dpcd_intercept_interval(problem)
  if (is.null(split)) return(NULL)
  ledger <- record_sensitivity(problem$ledger, "intercept_mean",
                               dpcd_intercept_sensitivity(split, problem$n))
  y <- if (is_database_source(problem$x)) {
    database_clamped_mean(problem$y, split$lower, split$upper)
  } else problem$y
  scale <- release_noise(ledger, "intercept_mean")
  if (!(scale > 0)) {
    stop("internal error: the split intercept's releases are not in the ledger", call. = FALSE)
  }
  released <- .private_mean_cpp(y, list(
    lower = split$lower, upper = split$upper, noise = "gaussian", scale = scale,
    seed = draw_seed(), secure = problem$rng == "secure"))$released
  # The mean the steps use: the released one clamped into [lower + m, upper
  # - m], m = (upper - lower) / n (post-processing, as the intercept-only
  # fit's margin, R/intercept.R): a value at or beyond [0, 1] would leave
  # sigmoid(b0) - mean of one sign, and b0 climbing step after step while
  # the features are at 0 (an independent review: 97% ones at epsilon 0.3,
  # a released 1.3, b0 = 14 after 10 passes).
  margin <- (split$upper - split$lower) / problem$n
  used <- min(max(released, split$lower + margin), split$upper - margin)
  list(ledger = ledger, released = released, used = used)
}
