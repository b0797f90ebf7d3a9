# The signal check of solver = "auto" (issue 16: never worse than the
# trivial model). A single-lambda DP-CD fit adds to each coordinate update
# a Gaussian noise of sd sigma_j = z 2 C_j / n on its clipped gradient
# (the path's noise; sigma_j, z, C_j and n are public). With step 1 / M_j,
# the last update leaves coefficient j off by sigma_j / M_j, which raises
# the loss by about sigma_j^2 / (2 M_j); moving coefficient j from 0 to its
# best value lowers it by about g_j^2 / (2 M_j), g_j its gradient at 0
# (to second order, for columns that are not strongly correlated). So the
# fit can only beat the intercept alone when sum_j g_j^2 > sum_j sigma_j^2:
# where the signal in the gradient at the start is below the noise of one
# pass, every coefficient is mostly noise, and on a rare class the noise
# alone moves records across the decision boundary (Caravan, 6% buyers, 85
# columns, epsilon 1: 1.20 times the majority class's misclassification
# on average, 1.55 on one split, with sqrt(mean g_j^2) = 0.2-0.3 sigma).
# With strongly correlated columns the norm counts one signal many times
# (an AR(0.8) design, p = 30, passed the check and stayed at 1.13 of the
# majority's error at epsilon 0.5: inst/bench/results/2026-11-26-session12.md).
#
# The check releases ||g||_2, the L2 norm of the clipped coordinate
# gradients of the features at b = 0 (the terms DP-CD clips, on the
# standardized scale) at the mean model (src/dpglmnet/signal_check.h: for
# a canonical link the loss's derivative there is m - y_i): m = 0 for a
# gaussian y centred by its released mean; for binomial, m a released
# proportion of ones (one more Gaussian release, sensitivity 1 / n, at the
# path's multiplier), since at b0 = 0 each term (1/2 - y_i) x~_ij carries
# (1/2 - mean y) times the centring error of x~_j (the noise of its
# released mean), which on Caravan made a norm of 0.19 of the threshold
# read as 0.7. Replacing one record moves each clipped
# mean by at most 2 C_j / n, so the vector by at most 2 sqrt(sum_j C_j^2)
# / n in L2, and the norm (1-Lipschitz) by no more: a Gaussian release at
# `relative_noise` times the path's noise multiplier, i.e. with noise sd
# relative_noise * sqrt(sum_j sigma_j^2). When the released norm is below
# `margin` times sqrt(sum_j sigma_j^2), the single lambda is raised from the
# schedule's (single_lambda_scale / sqrt(n), R/dpglmnet.R) to
# the noise level, alpha lambda = k sigma (sigma^2 the mean of sigma_j^2,
# k = constant_threshold(p) = max(2, qnorm(1 - 0.5 / p)), the package's
# rule for p values released together, R/standardize.R): a coordinate at 0
# then moves off it only where its noisy gradient clears k noise sds, on
# average for at most half a column of p without effect per pass, so noise
# no longer enters every coefficient, and a column with a strong effect
# still enters. Only where solver = "auto" chose DP-CD on standardized
# columns at one lambda of its own (few releases per record), without
# weights or an offset (in memory or on a database table, R/database.R); a
# solver or a lambda you give is never overruled.
#
# Measured (held-out misclassification over the majority class's, epsilon
# 1, 3-4 splits or seeds; lambda 1 / sqrt(n) -> sigma -> 2 sigma):
# Caravan (norm 0.2-0.3 of the threshold) 1.20 -> 1.01 -> 1.00 (worst split
# 1.55 -> 1.03 -> 1.00); generated n = 5000, p = 40, 8-27% ones: two
# effects of 1 (norm 0.73) 0.87 -> 0.83 -> 0.90, two of 0.5 (0.43) 1.12 ->
# 1.02 -> 1.00, 20 of 0.15 1.16 -> 1.04 -> 1.00, none 1.17 -> 1.00 ->
# 1.00; Letter and Default (norm 1.0-1.1) unchanged either way; but
# Satellite (norm 2.2-2.5, a dense strong signal) 0.10 -> 0.24 -> 0.64:
# hence the check, rather than a larger lambda everywhere. In
# cv.dpglmnet() on Caravan, sigma still left one split of three at 1.25
# (about 27 of 85 coefficients of noise); hence k sigma (k = 2.5 there).
#
# The norm's noise multiplier is `relative_noise` times the path's, with
# relative_noise = max(lowest, 1 / sqrt(cost R)), at most `highest` (R:
# the path's releases, public): the norm costs at most `cost` (4%) of the
# path's releases (as 1 / relative_noise^2 of them; binomial's mean one
# more), and its noise sd is 0.3-0.5 of the threshold. The check is made
# only where 1 / sqrt(cost R) is at most `highest` (R >= 100; R at the
# schedule's passes, before a family's
# cap on them, which then leaves the check at `highest`, at most 4 of the
# path's releases): on a shorter path (few columns, few passes) the noise
# enters few coefficients, and a check precise enough would cost a large
# share. At
# 0.3-0.4 (R = 150-280: Caravan, Satellite) a norm of 0.19 of the threshold
# (Caravan) is released above it under 1% of the time, one of 2.2
# (Satellite, epsilon 0.5) below it 0.01-0.1%. The mean, whose noise barely
# moves the gradients (its error times a centring error), is released at
# the path's multiplier.
#
# The lambda the check raises carries the ridge part (1 - alpha) lambda too:
# the check is made for alpha >= min_alpha, where that part is at most the
# l1 part (at alpha = 0.05 it held every coefficient near 0).
#
# margin: the released norm must clear the noise of one pass by 1.5 (2.25
# times its energy), since the balance above is optimistic (correlated
# columns, a fit short of its optimum, a misclassification rate rather than
# the loss). cv.dpglmnet(), 3-4 splits, error over the trivial model's
# (worst split), margin 1 -> 1.5, epsilon 1: generated gaussian factor
# designs (n = 5000, 20-40 factors) 1.030 (1.13) -> 1.000 (1.01) and 1.05
# (1.18) -> 1.00 (1.01); generated binomial, independent columns 0.735 ->
# 0.699, weak effects 1.02 (1.05) -> 1.00 (1.00); Satellite, Caravan,
# Bikeshare and AR(0.5) / AR(0.8) designs unchanged at epsilon 0.5-2.
signal_constants <- list(cost = 0.04, lowest = 0.3, highest = 0.5, min_alpha = 0.5,
                         margin = 1.5, gate_margin = 1, gate_level = 0.001,
                         gate_ramp_low = 0.5)

signal_relative_noise <- function(path_count) {
  min(signal_constants$highest,
      max(signal_constants$lowest, 1 / sqrt(signal_constants$cost * path_count)))
}

# Whether the plan makes the check beside a path of `path_count` releases
# (public: from the plan's own choices, the solver's and the family's
# declarations).
plans_signal_check <- function(problem, path_count) {
  # (eligible by the schedule's own passes: a family's cap on them, R/family.R,
  # leaves the check on, its noise then at `highest`)
  scheduled <- if (is.null(problem$schedule_passes) || !(problem$passes > 0)) path_count
               else path_count * problem$schedule_passes / problem$passes
  signal_eligible(problem) &&
    1 / sqrt(signal_constants$cost * scheduled) <= signal_constants$highest
}

# Whether the plan gates its path instead (below): eligible, and no check.
plans_signal_gate <- function(problem, path_count) {
  solver_object(problem$solver)$signal_gate && signal_eligible(problem) &&
    !plans_signal_check(problem, path_count) &&
    # (a pass must visit each coordinate once, from b = 0: src/dpglmnet/dpcd.h)
    !identical(problem$selection, "random") && !isTRUE(problem$average)
}

# (not on the bound-scaled columns of moderate n, R/moderate-n.R: gated
# there, inst/bench/moderate_n.R --quick and the real sets' bound-scaled
# rows did not move)
signal_eligible <- function(problem) {
  plan <- problem$standardization
  solver_object(problem$solver)$signal_check && !is.null(problem$solver_choice) &&
    !is.null(plan) && !is.null(signal_mean(problem)) && is.finite(problem$epsilon) &&
    is.null(problem$weights) &&
    !isTRUE(problem$bound_scaling) && isTRUE(problem$single_lambda) &&
    is.null(problem$lambda) && problem$alpha >= signal_constants$min_alpha &&
    isTRUE(problem$intercept) &&
    !isTRUE(problem$has_offset) && problem$p > 0
}

# The signal gate: the check without a release of its own, for the paths too
# short for one (R < 100 above: Weekly, 6 columns, one pass of 7 releases,
# was 1.25 times the majority class's misclassification at epsilon 1, 1.45
# on one split). DP-CD's first pass from b = 0 releases g~_j = g_j +
# N(0, sigma_j^2) for each feature, in the pass's random order (a feature
# before the intercept's step carries, for binomial, (1/2 - mean y) times
# its centring error: E then reads high, and the gate stays open, as
# without it; since DP-CD's split intercept (R/dpcd.R) a gated binomial fit
# starts at the released proportion's logit instead, where that term is
# the proportion's noise times the centring error; taking the intercept's
# step first was measured and not kept:
# BreastCancer at epsilon 2, 21 fits, 0.043 -> 0.050 misclassification;
# Weekly at epsilon 1 1.067 -> 1.117 of the majority's); E = sum_j g~_j^2
# over the active ones has mean sum_j g_j^2 + T^2 (T the check's threshold,
# the noise of one pass), so E - T^2 estimates the check's squared norm
# with no release of its own (post-processing of the pass's releases), its
# sd sqrt(2 p) sigma^2 where there is no signal. The gate stays open where
# E >= (1 + gate_margin^2) T^2 or where some feature's |g~_j| clears
# gate_z(p) sigma_j, the two-sided Bonferroni bound at level `gate_level`
# (4.2 sds for 36 columns, 3.8 for 6). Its margin is 1, the break-even of
# the balance above (the fit beats the intercept alone where sum_j g_j^2 >
# sum_j sigma_j^2), not the check's 1.5: in a pass the gradients are taken
# one after the other, and on strongly correlated columns the first steps
# absorb what the later gradients would have shown, so E undercounts where
# the check's norm at the mean model overcounts (Satellite at epsilon 0.5:
# E - T^2 = (1.0-1.7)^2 T^2 where the check reads about 2.5^2, while its
# first columns stand 4-5 sds out; at margin 1.5 the gate closed on 6 of 9
# fits, 7.7 times cv.glmnet's misclassification; at 1, 2.3). Without
# signal E / T^2 is 1 +- sqrt(2 / p): at p = 6, a chi-square with 6
# degrees of freedom above 12 one time in 16. Closed, the rest of the fit
# is at the check's noise-level lambda and the first pass's features are
# put at the prox of the same released steps at that lambda
# (src/dpglmnet/dpcd.h).
#
# Closed, the lambda ramps: the estimate r = sqrt(E - T^2) between
# gate_ramp_start(p) T (gate_ramp_low, 0.5, or more for few columns) and
# the gate's threshold gate_margin T moves lambda geometrically from the
# noise level (at or below the start) to the
# schedule's (at the threshold), so that a signal just short of the
# threshold is not fitted at a lambda 30 times larger than one just above
# it. Satellite at epsilon 0.5 (36 columns, a dense strong signal) reads
# r = 0.97 T on some splits: the whole jump (0.0035 -> 0.111) took one
# split's misclassification from 0.030 to 0.131 (the majority's 0.239);
# Caravan, the case the gate is for, reads r <= 0.3 T and is gated as
# before (inst/bench/results/2026-11-28-session31.md).
#
# Measured: inst/bench/results/2026-11-26-session15.md.
signal_gate <- function(scaled, setup, noise, default_lambda) {
  features <- seq_len(scaled$p)
  active <- signal_active(scaled)
  if (!any(active)) return(NULL)
  threshold <- sqrt(sum(noise[features][active]^2))
  ramp_low <- gate_ramp_start(sum(active))
  ramps <- ramp_low < signal_constants$gate_margin
  list(gate_energy = (1 + signal_constants$gate_margin^2) * threshold^2,
       gate_noise_energy = if (ramps) threshold^2,
       gate_ramp_energy = if (ramps) (1 + ramp_low^2) * threshold^2,
       gate_lambda = noise_level_lambda(threshold, active, scaled$alpha, default_lambda),
       gate_z = gate_z_threshold(sum(active)),
       gate_feature = as.numeric(active), threshold = threshold,
       sigma = noise[features],
       default_lambda = default_lambda)
}

gate_z_threshold <- function(p) stats::qnorm(1 - signal_constants$gate_level / (2 * p))

# Where the gate's ramp starts, in units of T, for p counted features: at
# gate_ramp_low, or where the estimate of a signal of 0 stays below 2 of its
# sds ((E - T^2) / T^2 has sd sqrt(2 / p) without signal, so r / T reaches
# (8 / p)^(1/4) about once in 40), if that is higher. At or above the
# gate's margin there is no ramp (p <= 8): there noise alone puts r between
# T / 2 and T often, and a ramp let it in (Weekly, 6 columns without
# signal, epsilon 2: 1.005 -> 1.048 of the majority's misclassification,
# one split 1.15).
gate_ramp_start <- function(p) {
  max(signal_constants$gate_ramp_low, (8 / p)^0.25)
}

# The gate's outcome, as the check reports it (fit$settings$signal_check).
signal_gate_outcome <- function(gate, fitted) {
  released <- sqrt(max(0, fitted$gate$energy - gate$threshold^2))
  closed <- isTRUE(fitted$gate$closed)
  list(released = released, release_sd = NA_real_, threshold = gate$threshold,
       passed = !closed, mean = NULL, gate = TRUE, default_lambda = gate$default_lambda,
       first_pass_z = fitted$gate$gradients / gate$sigma,
       lambda = if (closed) fitted$gate$lambda else gate$default_lambda,
       noise_lambda = gate$gate_lambda, ramp_start = gate_ramp_start(sum(gate$gate_feature != 0)))
}

# The family's mean model for the check, or NULL (R/aaa-protocols.R).
signal_mean <- function(problem) {
  dpglmnet_family(problem$family)$signal_mean(isTRUE(problem$standardization$scale_y))
}

# The check's rows, beside a path of `path_count` releases.
signal_mechanisms <- function(problem, path_count) {
  mean_model <- signal_mean(problem)
  Filter(Negate(is.null), list(
    if (mean_model$release) {
      mechanism("signal check: mean of the clamped response (the mean model)", "gaussian",
                1L, "(upper - lower) / n (y's public interval)", calibrated = TRUE,
                factor = 1, key = "signal_mean")
    },
    mechanism(paste("signal check: L2 norm of the features' clipped coordinate gradients",
                    "at the mean model"),
              "gaussian", 1L, "2 sqrt(sum_j C_j^2) / n (C_j: the features' clips)",
              calibrated = TRUE, factor = signal_relative_noise(path_count), key = "signal")))
}

# The release and the decision, on the standardized problem `scaled` whose
# ledger has the check's rows, with the solver's setup (its clips) and the
# path's noise sds `noise` (features first). Returns the problem (its
# ledger with the rows' sensitivities) and the check: what it released, its
# threshold, and the single lambda on the standardized scale.
release_signal_check <- function(scaled, setup, noise) {
  features <- seq_len(scaled$p)
  # (the others get clip 0 here, so they add nothing to the norm nor to its
  # sensitivity, and their noise is not in the threshold)
  active <- signal_active(scaled)
  clip <- ifelse(active, setup$clip[features], 0)
  mean_model <- signal_mean(scaled)
  if (mean_model$release) {
    scaled$ledger <- record_sensitivity(scaled$ledger, "signal_mean",
                                        (mean_model$upper - mean_model$lower) / scaled$n)
  }
  scaled$ledger <- record_sensitivity(scaled$ledger, "signal",
                                      2 * sqrt(sum(clip^2)) / scaled$n)
  release_sd <- release_noise(scaled$ledger, "signal")
  default_lambda <- single_lambda_scale / sqrt(scaled$n)
  if (!any(active)) {
    # nothing for a lambda to act on: nothing released (charged as planned)
    return(list(problem = scaled, check = list(
      released = NA_real_, release_sd = release_sd, threshold = 0, passed = TRUE,
      mean = NULL, lambda = default_lambda)))
  }
  settings <- core_settings(
    scaled, coordinate_clip = clip, release_mean = mean_model$release,
    mean_lower = if (mean_model$release) mean_model$lower else 0,
    mean_upper = if (mean_model$release) mean_model$upper else 0,
    mean_sd = if (mean_model$release) release_noise(scaled$ledger, "signal_mean") else 0,
    norm_sd = release_sd)
  # (a database table: the same release from one aggregate, R/database.R)
  released <- if (is_database_source(scaled$x)) signal_check_db(scaled$x, scaled$y, settings)
              else .signal_check_cpp(scaled$x, scaled$y, settings)
  # (a norm is not negative: post-processing of a noisy one that may be)
  released$norm <- max(0, released$norm)
  threshold <- sqrt(sum(noise[features][active]^2))
  passed <- released$norm >= signal_constants$margin * threshold
  list(problem = scaled,
       check = list(released = released$norm, release_sd = release_sd,
                    threshold = threshold, passed = passed,
                    mean = if (mean_model$release) released$mean,
                    default_lambda = default_lambda,
                    lambda = if (passed) default_lambda
                             else noise_level_lambda(threshold, active, scaled$alpha,
                                                     default_lambda)))
}

# The coordinates a lambda acts on: penalized, and not held at 0 (a column
# the standardization found constant has limits [0, 0]).
signal_active <- function(scaled) {
  scaled$penalty.factor > 0 & !(scaled$lower.limits == 0 & scaled$upper.limits == 0)
}

# The single lambda at the noise level where the check (or the gate)
# fails: alpha lambda = k sigma, k = constant_threshold(p) over the active
# coordinates, sigma^2 the mean of their sigma_j^2 (threshold^2 / p); never
# below the schedule's.
noise_level_lambda <- function(threshold, active, alpha, default_lambda) {
  max(default_lambda,
      constant_threshold(sum(active)) * threshold / sqrt(sum(active)) / alpha)
}

# Whether the gate's ramp raised the lambda only part of the way.
signal_partly_raised <- function(check) {
  isTRUE(check$gate) && !isTRUE(check$passed) &&
    isTRUE(check$lambda < check$noise_lambda * (1 - 1e-12))
}

warn_signal_check <- function(check, problem) {
  if (is.null(check) || check$passed) return(invisible())
  # (the gate's ramp, above: part of the way)
  partly <- signal_partly_raised(check)
  # (the gate's estimate has the noise's expected size taken away and is
  # truncated at 0; the check's own release is a noisy norm: neither is a
  # 0 that was measured)
  size <- if (isTRUE(check$released > 0)) sprintf("%.3g", check$released) else
    if (isTRUE(check$gate)) "0 once its expected noise is taken away" else
      "at most 0 as released"
  source <- if (isTRUE(check$gate)) {
    sprintf(paste("the size of the signal at the start (the norm of the clipped",
                  "gradients at the mean model, %s, estimated from the first pass's",
                  "released gradients, without a release of its own)"), size)
  } else {
    sprintf(paste("the released size of the signal at the start (the norm of the clipped",
                  "gradients at the mean model, %s, released with noise sd %.2g)"),
            size, check$release_sd)
  }
  outcome <- if (partly) {
    sprintf(paste(
      "raised its single lambda part of the way toward the noise level, to %.3g",
      "on the standardized scale instead of the default %g / sqrt(n) = %.3g (the",
      "whole way, %.3g, is for a signal at most %.2g times the noise; this one",
      "is %.2g times it): fewer columns enter, and they are shrunk more."),
      check$lambda, check$default_lambda * sqrt(problem$n), check$default_lambda,
      check$noise_lambda, check$ramp_start, check$released / check$threshold)
  } else {
    sprintf(paste(
      "raised its single lambda to the noise level (%.3g on the standardized",
      "scale, a few noise sds of one update, against %g / sqrt(n) = %.3g): a",
      "column enters only where its effect clears the noise, and most",
      "coefficients are 0."),
      check$lambda, check$default_lambda * sqrt(problem$n), check$default_lambda)
  }
  dpglmnet_warn(sprintf(paste(
    "%s does not",
    "clear %g times the noise of one pass of DP-CD (%.3g): with %d records, %d",
    "columns at epsilon = %s the noise would outweigh what the columns can",
    "add, so solver = \"auto\" %s More records, a larger epsilon or fewer",
    "columns help; give `lambda` to fit at another."),
    source, if (isTRUE(check$gate)) signal_constants$gate_margin else signal_constants$margin,
    check$threshold, problem$n, problem$p, format(problem$epsilon), outcome))
}
