# The private validation curve of cv.dpglmnet(): the measures (per-record
# losses and their public bounds), the release of the curve (one Gaussian
# mechanism on the validation part), and what is computed from it by
# post-processing (cvm, cvsd, lambda.min, lambda.1se), printed and plotted
# as glmnet prints and plots a cv.glmnet fit.

# The measures each family accepts (the first is "default": the family's
# `cv_measures`, R/family.R), and their names as glmnet prints them.
cv_measure_choices <- c("default", "mse", "deviance", "class", "mae", "auc")

cv_measure_name <- function(type.measure, family) {
  switch(type.measure,
    mse = "Mean-Squared Error",
    mae = "Mean Absolute Error",
    deviance = dpglmnet_family(family)$deviance_name,
    class = "Misclassification Error")
}

# The checked measure for a family: "default" resolved, "auc" refused (its
# sensitivity has no useful bound), others checked against the family.
check_measure <- function(type.measure, family) {
  type.measure <- check_choice(type.measure, cv_measure_choices, "type.measure")
  allowed <- dpglmnet_family(family)$cv_measures
  if (type.measure == "auc") {
    dpglmnet_abort("type.measure", paste(
      "= \"auc\" is not offered: the AUC is not a mean of per-record losses.",
      "Replacing one validation record can change it by up to 1 when a class",
      "has few validation records (the class counts are private), so its",
      "sensitivity has no useful public bound. Use \"deviance\" or \"class\"",
      "(binomial), whose per-record losses are bounded."))
  }
  if (type.measure == "default") return(allowed[1L])
  if (!type.measure %in% allowed) {
    dpglmnet_abort("type.measure", sprintf("must be %s for family = \"%s\".",
                                           paste0('"', c("default", allowed), '"',
                                                  collapse = ", "), family))
  }
  type.measure
}

# Per-record validation losses (records x lambdas), before clipping. As
# glmnet's cv.glmnet: binomial "mse" and "mae" sum over the two classes,
# 2 (y - p)^2 and 2 |y - p|; gaussian "deviance" is the squared residual.
validation_loss <- function(type.measure, family, link, y) {
  mean_response <- family$linkinv(link)
  two <- if (family$classes) 2 else 1
  switch(type.measure,
    mse = two * (y - mean_response)^2,
    mae = two * abs(y - mean_response),
    deviance = 2 * family$loss(link, y),
    class = ((link > 0) != (y > 0.5)) * 1
  )
}

# The largest value a measure's per-record loss can take whatever the data
# (Inf: unbounded, clipped to `loss.bound`): a bound above it would only add
# noise, so loss.bound is lowered to it.
natural_loss_bound <- function(type.measure, family) {
  if (type.measure == "class") return(1)
  if (family$classes && type.measure %in% c("mse", "mae")) return(2)
  Inf
}

# The default bound B of a record's loss (public, or post-processing of the
# path's releases). `noise_ratio`: the sd of the curve's noise on each cvm
# per unit of B (curve_noise_ratio(); public). At epsilon = Inf (ratio 0)
# nothing is noised, so nothing is clipped: the curve is the exact one,
# cv.glmnet's on this split (DESIGN.md: epsilon = Inf runs with no noise
# and no clipping).
default_loss_bound <- function(type.measure, fit, y.bound, noise_ratio) {
  if (noise_ratio == 0) return(max_loss_bound)
  family <- dpglmnet_family(fit$family)
  # B of a residual bound (mse and deviance its square, mae itself)
  bound_at <- function(residual) family$default_loss_bound(type.measure, residual)
  # (the residual's bound only for a response clamped to y.bound)
  if (!family$bounded_response) return(min(bound_at(NULL), max_loss_bound))
  y_sd <- fit$settings$standardization$y_sd
  # 2 s_y with s_y the released (private) scale of y when the path
  # standardized it, or `curve_residual_reach` times the residuals' scale
  # the path released last where that is less (curve_residual_scale()),
  # raised where the budget leaves the curve's noise small
  # (curve_budget_bound()); else the public y.bound (for an interval its
  # envelope max(|lower|, |upper|), which bounds |y| of the clamped
  # response)
  if (is.null(y_sd) || identical(y_sd, 1)) return(min(bound_at(y.bound), max_loss_bound))
  s <- curve_residual_scale(fit)
  bound <- bound_at(min(2, curve_residual_reach * s) * y_sd)
  min(max(bound, curve_budget_bound(fit, s, noise_ratio, bound_at)), max_loss_bound)
}

# The sd of the curve's noise on each cvm per unit of the loss bound B,
# z sqrt(K) / n_val (curve_mechanisms()): z, the validation part's noise
# level, is calibrated from the mechanisms' counts and factors, not their
# sensitivities, so it does not depend on B (public: K, n_val, the measure,
# the refit's rows, epsilon, delta). 0 at epsilon = Inf.
curve_noise_ratio <- function(K, n_val, type.measure, refit_rows, epsilon, delta) {
  rows <- curve_mechanisms(K, n_val, 1, second = type.measure != "class")
  calibrate_noise(mechanism_table(c(refit_rows, rows)), epsilon, delta) * sqrt(K) / n_val
}

# The bound a large budget affords: the curve's noise sd, noise_ratio B,
# at most `curve_noise_share` of the best lambdas' mean loss, about the
# bound at the residuals' scale s s_y ((s s_y)^2 for mse, s s_y for mae;
# s: the path's last released residual scale, so only for a path that
# released one); at most the bound at `dpcd_clip_residual_reach` times the
# reach of the response's released clamp (R/dpcd.R: a residual beyond it
# is no fit), never less than at 2 s_y.
# Clipping the loss at 6 s s_y cuts nothing of a light-tailed residual, but
# with heavy tails (a few records far out, as wooldridge's countymurders'
# largest counties) the clipped curve prefers lambdas that fit the bulk and
# leave the tail: a bias the noise does not explain and that stayed as
# epsilon grew (countymurders at epsilon 1e4 chose 1.44 times cv.glmnet's
# test MSE where the path held 0.98; at epsilon = Inf 1.36). So the surplus
# of a large budget or a large n goes to a wider bound, as the path's clip
# does (dpcd_clip_factor(), R/dpcd.R), and at epsilon = Inf nothing is
# clipped. Measured by simulating the curve's noise (300 draws) on the
# noiseless clipped validation curves of real paths (inst/bench/
# cv_loss_bound.R; 3 splits x 2 draws, mse; fits whose expected held-out
# error moved by more than 1%, better / worse; mean log ratio):
# - inst/bench/real_sets.R's gaussian sets (84 / 120 / 216 / 228 / 228
#   fits with a curve at epsilon 4 / 10 / 100 / 1000 / 1e4): share 0.01
#   changed none at 4 / 10 / 100, 7 / 1 at 1000 (+0.07%) and 10 / 10 at
#   1e4 (-0.04%); share 0.03 9 / 4 at 100, 15 / 8 at 1000 and 11 / 23 at
#   1e4.
# - 13 unseen wooldridge sets (78 fits per epsilon): share 0.01 -2.5% at
#   1000 and at 1e4 (countymurders 2.34 -> 1.59 and 1.65 -> 1.07 times
#   cv.glmnet's test MSE; charity_gift, whose gifts have outliers the
#   predictors do not explain, 0.14 -> 0.16 and 0.18 -> 0.20: the clip was
#   robustness there), 9 / 1 at 100, none at 4 / 10.
# For mse with s < 1/3 the raise starts where noise_ratio < 0.01 / 36: with
# 10 lambdas and delta = 1e-6, at epsilon 1 for n_val above about 50000, at
# 10 above about 6500.
curve_noise_share <- 0.01

curve_budget_bound <- function(fit, s, noise_ratio, bound_at) {
  if (!is.finite(s) || !isTRUE(noise_ratio > 0)) return(0)
  st <- fit$settings$standardization
  ends <- c(st$y_lower, st$y_upper)
  if (length(ends) != 2L || !isTRUE(st$y_sd > 0)) return(0)
  cap <- max(2, dpcd_clip_residual_reach * max(abs(ends - st$y_mean)) / st$y_sd)
  if (!is.finite(cap)) return(0)
  min(bound_at(cap * st$y_sd), curve_noise_share * bound_at(s * st$y_sd) / noise_ratio)
}

# A squared-loss path with the adaptive clip (R/dpcd.R, dpcd_scale_rows())
# releases the root mean square s of its residuals on the standardized
# scale; the last release, at the path's smallest lambda, is what the best
# fits leave. The curve's noise is proportional to B, and B = (2 s_y)^2 is
# 4 / s^2 times the best lambdas' mean loss (40 times at R^2 = 0.9), so the
# noise grows against the differences the curve must resolve as the fit
# explains more.
# So the residual reach is the lesser of 2 s_y and `curve_residual_reach`
# s s_y (post-processing of the path's releases; s at least the adaptive
# clip's floor). A wider path's larger lambdas leave larger residuals, which
# the lower B clips; their clipped means stay above the best lambdas'
# (a residual of sd s_y clipped at 6 s s_y, s = 0.2, still has a mean
# square of 0.64 s_y^2, sixteen times s^2 s_y^2). Measured by simulating
# the curve's noise on the noiseless validation curves of the bench's
# paths (inst/bench/real_sets.R's sets with more than one lambda, 3 splits
# x 2 draws, epsilon 0.5 / 1 / 2; expected held-out error over the former
# rule's): reach 3 / 4 / 6 / 8 -1.3% / -1.7% / -1.5% / -1.3% on the
# gaussian paths, the oracle choice of lambda -2.9%. But s is the root mean
# square of residuals clamped near it, so with heavy tails it reads low:
# wooldridge's countymurders (murders; a few counties hold most) was worse
# by 4% / 8% at epsilon 1 / 2 with reach 4, 1.5% / 2.3% with 6, and 1% at
# 2 with 8. Run (the bench's protocol): reach 6 kept storms 1.18 -> 1.03
# times cv.glmnet's test MSE at epsilon 1 (8 kept 1.18) and diamonds 0.98
# -> 0.91 at 0.5 (inst/bench/results/2026-11-28-session32.md).
curve_residual_reach <- 6

curve_residual_scale <- function(fit) {
  released <- fit$settings$adaptive_clip_scale$released
  released <- released[is.finite(released)]
  if (!length(released)) return(Inf)
  max(released[length(released)], dpcd_scale_constants$floor)
}

# The Gaussian mechanisms of the curve on the validation part (part 2), K
# lambdas, n_val records, bound B:
#  * the K means of the clipped losses, L2 sensitivity sqrt(K) B / n_val
#    (one record moves each mean by at most B / n_val);
#  * with `second`, the K means of the squared clipped losses, sensitivity
#    sqrt(K) B^2 / n_val, noised `second.factor` times more (relative to
#    its sensitivity): it only feeds cvsd.
# Both are `calibrated` (one noise level for the validation part).
curve_mechanisms <- function(K, n_val, loss.bound, second, second.factor = curve_second_factor) {
  B <- format(signif(loss.bound, 4))
  rows <- list(mechanism(
    "validation curve: mean clipped loss per lambda", "gaussian", 1,
    sprintf("sqrt(%d) B / n_val = %s (B = %s, n_val = %d)", K,
            format(signif(sqrt(K) * loss.bound / n_val, 4)), B, n_val),
    calibrated = TRUE, part = 2L, key = "curve"))
  if (second) {
    rows[[2L]] <- mechanism(
      "validation curve: mean squared clipped loss per lambda (for cvsd)", "gaussian", 1,
      sprintf("sqrt(%d) B^2 / n_val = %s (B = %s, n_val = %d)", K,
              format(signif(sqrt(K) * loss.bound^2 / n_val, 4)), B, n_val),
      calibrated = TRUE, factor = second.factor, part = 2L, key = "curve_second")
  }
  rows
}

# The squared losses carry this many times the noise of the losses
# (relative to their sensitivities): they cost 1 / 3^2 = 11% of the curve's
# mu^2, so the curve itself is noised only sqrt(1 + 1/9) = 1.054 times more
# than it would be alone; the sampling error they estimate is mostly below
# the curve's own noise (see cvsd).
curve_second_factor <- 3

# Releases the curve: the K columns of `loss` (validation records x
# lambdas) clipped to [0, B], their means and (with `second`) the means of
# their squares, with the Gaussian noise of the curve's rows (`curve`, see
# private_curve(): z sqrt(K) B / n_val and second.factor z sqrt(K) B^2 /
# n_val; z = 0: exact, for epsilon = Inf). The sums run in C++ (the
# package's one column-moments release, as for standardization), on the
# losses divided by B so that they stay finite for any public B.
release_curve <- function(loss, loss.bound, curve, second, rng) {
  loss[!is.finite(loss)] <- loss.bound  # a diverged path: the bound
  unit <- pmin(pmax(loss / loss.bound, 0), 1)
  storage.mode(unit) <- "double"
  noise <- curve_noise(curve, ncol(unit), loss.bound, second, rng)
  moments <- .column_moments_cpp(unit, c(list(
    transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
    lower = NULL, upper = NULL, shift = NULL), noise))
  curve_released(moments, noise, loss.bound, second)
}

# The noise settings of the curve's K releases on the units min(l, B) / B:
# its rows' noise (on the losses, release_noise()) over B (the means) and
# B^2 (the means of the squares), and a fresh seed (in memory and in a
# database, R/database-cv.R, alike).
curve_noise <- function(curve, K, loss.bound, second, rng) {
  mean_sd <- release_noise(curve, "curve") / loss.bound
  second_sd <- if (second) release_noise(curve, "curve_second") / loss.bound^2 else 0
  list(mean_sd = rep(mean_sd, K), second_sd = rep(second_sd, K),
       seed = draw_seed(), secure = rng == "secure")
}

# The released means of the units back on the scale of the losses.
curve_released <- function(moments, noise, loss.bound, second) {
  list(mean = moments$mean * loss.bound,
       # (without `second` the exact squares are never used: not released)
       second = if (second) moments$second * loss.bound^2,
       mean_sd = noise$mean_sd[1L] * loss.bound,
       second_sd = if (second) noise$second_sd[1L] * loss.bound^2 else NA_real_)
}

# The private validation curve (see the Privacy section of ?cv.dpglmnet)
# on n_val validation records, in memory or in a database: its mechanisms
# (curve_mechanisms(), their names marked with `note`), the noise
# calibrated so that the validation part (with the refit's rows of part 0,
# if any) spends at most epsilon at delta, `release(curve, second)` the
# released curve with the noise of `curve` (its rows at the calibrated
# level with their sensitivities, release_noise()), its summary (cvm, cvsd,
# lambda.min, lambda.1se), the ledger rows and their sensitivities.
private_curve <- function(fit, n_val, type.measure, loss.bound, refit_rows, epsilon, delta,
                          release, note = NULL) {
  K <- length(fit$lambda)
  second <- type.measure != "class"
  rows <- curve_mechanisms(K, n_val, loss.bound, second)
  if (!is.null(note)) {
    rows <- lapply(rows, function(row) {
      row$mechanism <- paste(row$mechanism, note)
      row
    })
  }
  # the same calibration as every fit's: the smallest noise level for which
  # this part spends at most the target (public: K, n_val, B, the budget)
  z <- calibrate_noise(mechanism_table(c(refit_rows, rows)), epsilon, delta)
  curve <- curve_ledger(rows, z, epsilon, K, n_val, loss.bound, second)
  released <- release(curve, second)
  curve$mechanisms$calibrated <- FALSE
  rows <- lapply(seq_len(nrow(curve$mechanisms)), function(k) as.list(curve$mechanisms[k, ]))
  c(curve_summary(released, loss.bound, n_val, type.measure, fit$lambda,
                  is_radius_path(fit)),
    list(rows = rows, z = z, sensitivities = curve$sensitivities))
}

# The curve's rows (curve_mechanisms()) at noise level z with their
# sensitivities recorded (B: public, or post-processing of the path's
# releases), from which the release takes its noise (release_noise()).
curve_ledger <- function(rows, z, epsilon, K, n_val, loss.bound, second) {
  curve <- list(target_epsilon = epsilon, sensitivities = list(),
                mechanisms = calibrated_multipliers(mechanism_table(rows), z,
                                                    is.finite(epsilon)))
  curve <- record_sensitivity(curve, "curve", sqrt(K) * loss.bound / n_val)
  if (second) curve <- record_sensitivity(curve, "curve_second", sqrt(K) * loss.bound^2 / n_val)
  curve
}

# Post-processing of the released curve: cvm (clamped to [0, B], where the
# exact curve lies), the per-record variance (from the released squares,
# between 0 and the largest variance of a variable in [0, B] with that mean,
# cvm (B - cvm); for "class" exactly cvm (B - cvm), the variance of a
# two-valued loss), cvsd = sqrt(sampling variance of cvm + the variance of
# its DP noise), lambda.min and lambda.1se. `radius`: the path's values are
# l1 radii (larger = less regularized).
curve_summary <- function(released, loss.bound, n_val, type.measure, lambda, radius) {
  B <- loss.bound
  cvm <- pmin(pmax(released$mean, 0), B)
  variance <- if (type.measure == "class") {
    cvm * (B - cvm)
  } else {
    second <- pmin(pmax(released$second, 0), B^2)
    pmin(pmax(second - cvm^2, 0), cvm * (B - cvm))
  }
  sampling <- sqrt(variance / n_val)
  cvsd <- sqrt(sampling^2 + released$mean_sd^2)
  chosen <- one_se_rule(cvm, cvsd, lambda, radius)
  c(list(cvm = cvm, cvsd = cvsd, cvup = cvm + cvsd, cvlo = cvm - cvsd,
         cvsd.sampling = sampling, cvsd.noise = released$mean_sd), chosen)
}

# glmnet's rule: lambda.min the most regularized value attaining min(cvm);
# lambda.1se the most regularized value whose cvm is at most cvm + cvsd at
# lambda.min. Returns the two indices.
one_se_rule <- function(cvm, cvsd, lambda, radius = FALSE) {
  regularization <- if (radius) -lambda else lambda
  most_regularized <- function(candidates) candidates[which.max(regularization[candidates])]
  index_min <- most_regularized(which(cvm <= min(cvm)))
  index_1se <- most_regularized(which(cvm <= cvm[index_min] + cvsd[index_min]))
  list(index.min = index_min, index.1se = index_1se)
}

#' @export
print.cv.dpglmnet <- function(x, digits = max(3, getOption("digits") - 3), ...) {
  cat("\nCall: ", deparse(x$call), "\n\n")
  cat("Privacy:", format_privacy_line(x$privacy), "\n")
  radius <- is_radius_path(x$dpglmnet.fit)
  if (!length(x$validation)) {
    cat("The budget afforded a single lambda on this data: nothing was chosen and no\n")
    cat(sprintf(paste("validation curve released. Fitted on all %d records, without a",
                      "validation split.\n\n"), x$dpglmnet.fit$nobs))
  } else if (anyNA(x$cvm)) {
    cat("The path has a single lambda on this data: nothing was chosen; the validation\n")
    cat("part was unused.\n\n")
  } else if (!is.finite(x$privacy$target_epsilon)) {
    # (a bound at a measure's largest value clips nothing either)
    largest <- min(max_loss_bound,
                   natural_loss_bound(x$type.measure, dpglmnet_family(x$dpglmnet.fit$family)))
    clip <- if (x$loss.bound >= largest) "per-record loss not clipped" else
      sprintf("per-record loss clipped at %s", format(signif(x$loss.bound, digits)))
    cat(sprintf(paste0("Measure: %s (%s) on %d validation records,\n",
                       "exact (epsilon = Inf: not private); SE is the sampling SE.\n\n"),
                x$name, clip, length(x$validation)))
  } else {
    cat(sprintf("Measure: %s (per-record loss clipped at %s), released privately on %d\n",
                x$name, format(signif(x$loss.bound, digits)), length(x$validation)))
    cat(sprintf(paste0(
      "validation records with Gaussian noise of sd %s on each cvm; SE includes it\n",
      "(sampling SE and noise sd in quadrature).\n\n"),
      format(signif(x$cvsd.noise, digits))))
  }
  index <- x$index[, 1L]
  table <- data.frame(Lambda = signif(x$lambda[index], digits), Index = index,
                      Measure = signif(x$cvm[index], digits),
                      SE = signif(x$cvsd[index], digits),
                      Nonzero = x$nzero[index], row.names = rownames(x$index))
  if (radius) names(table)[1L] <- "Radius"
  print(table)
  if (!is.null(x$refit)) {
    cat(sprintf(paste0(
      "\nRefit on all %d records at the chosen %s (lambda.min; %s of mu^2 of the budget,\n",
      "composed sequentially with the path and the curve): %d nonzero; coef() and\n",
      "predict() at s = \"lambda.min\" use it (the default s = \"lambda.1se\" reads the path).\n"),
      x$refit$nobs, if (is_radius_path(x$refit)) "radius" else "lambda",
      format(x$refit.budget), x$refit$df[1L]))
  }
  invisible(x)
}

# The fit and the value of lambda that `s` designates: "lambda.1se" and
# "lambda.min" are read from the released curve ("lambda.min" on the refit
# when there is one); numeric values of lambda interpolate the path.
cv_target <- function(object, s) {
  if (is.character(s)) {
    s <- check_choice(s, c("lambda.1se", "lambda.min"), "s")
    if (s == "lambda.min" && !is.null(object$refit)) {
      return(list(fit = object$refit, s = object$lambda.min))
    }
    return(list(fit = object$dpglmnet.fit, s = object[[s]]))
  }
  list(fit = object$dpglmnet.fit, s = check_s(s))
}

#' Coefficients, predictions and plot of a cv.dpglmnet fit
#'
#' As glmnet's methods for `cv.glmnet`: `s = "lambda.1se"` (the default, as
#' in glmnet) is the most regularized lambda whose released validation loss
#' is within one standard error of the minimum, `s = "lambda.min"` the
#' lambda that minimises it; numeric `s` interpolates the path. With a
#' refit (`cv.dpglmnet(refit = TRUE)`), `s = "lambda.min"` uses the refit
#' on all records; `"lambda.1se"` and numeric `s` (even equal to
#' `lambda.min`) use the path fitted on the training part. All of it is
#' post-processing of the released path, curve and refit.
#'
#' `plot()` draws glmnet's cross-validation plot: the released validation
#' curve `cvm` (red points) with error bars `cvlo` to `cvup` (one `cvsd`,
#' which includes the curve's DP noise) against log(lambda), dotted
#' vertical lines at `lambda.min` and `lambda.1se`, and the number of
#' nonzero coefficients along the top. The coefficient path is
#' `plot(cvfit$dpglmnet.fit)`.
#' @param object,x A `"cv.dpglmnet"` fit.
#' @param s `"lambda.1se"`, `"lambda.min"` or values of lambda.
#' @param newx,... As in [predict.dpglmnet()] (`type` among `...`); `...` of
#'   `plot` go to [graphics::plot()].
#' @param sign.lambda As in glmnet: `-1` plots against -log(lambda).
#' @return As the methods of `"dpglmnet"` fits; `plot` returns `x`
#'   invisibly.
#' @examples
#' set.seed(1)
#' n <- 3000; p <- 5
#' x <- matrix(rnorm(n * p), n, p)
#' y <- drop(x %*% c(1, -1, 0, 0, 0.5)) + rnorm(n)
#' cvfit <- cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8)
#' coef(cvfit)                  # at lambda.1se, as glmnet
#' coef(cvfit, s = "lambda.min")
#' predict(cvfit, x[1:3, ])
#' plot(cvfit)                  # the private validation curve
#' plot(cvfit$dpglmnet.fit)     # the coefficient path
#' @export
coef.cv.dpglmnet <- function(object, s = "lambda.1se", ...) {
  target <- cv_target(object, s)
  coef(target$fit, s = target$s)
}

#' @rdname coef.cv.dpglmnet
#' @export
predict.cv.dpglmnet <- function(object, newx, s = "lambda.1se", ...) {
  target <- cv_target(object, s)
  predict(target$fit, newx, s = target$s, ...)
}

#' @rdname coef.cv.dpglmnet
#' @export
plot.cv.dpglmnet <- function(x, sign.lambda = 1, ...) {
  sign.lambda <- check_numeric(sign.lambda, "sign.lambda", lower = -1, upper = 1)
  if (abs(sign.lambda) != 1) dpglmnet_abort("sign.lambda", "must be 1 or -1.")
  if (anyNA(x$cvm)) {
    dpglmnet_warn(paste(
      "no validation curve was released (the path has a single lambda): nothing",
      "to plot; plot(x$dpglmnet.fit) draws the path."))
    return(invisible(x))
  }
  radius <- is_radius_path(x$dpglmnet.fit)
  at <- sign.lambda * log(x$lambda)
  label <- if (radius) "log(radius)" else "Log(lambda)"
  arguments <- utils::modifyList(list(
    x = at, y = x$cvm, ylim = range(x$cvup, x$cvlo), type = "n", ylab = x$name,
    xlab = if (sign.lambda < 0) paste0("-", label) else label), list(...))
  do.call(graphics::plot, arguments)
  width <- 0.01 * diff(range(at))
  graphics::segments(at, x$cvup, at, x$cvlo, col = "darkgrey")
  graphics::segments(at - width, x$cvup, at + width, x$cvup, col = "darkgrey")
  graphics::segments(at - width, x$cvlo, at + width, x$cvlo, col = "darkgrey")
  graphics::points(at, x$cvm, pch = 20, col = "red")
  graphics::axis(side = 3, at = at, labels = paste(x$nzero), tick = FALSE, line = 0)
  graphics::abline(v = sign.lambda * log(c(x$lambda.min, x$lambda.1se)), lty = 3)
  invisible(x)
}
