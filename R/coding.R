# Factor coding of a private fit on a data frame (issue 16). A factor with
# K >= 3 levels is fitted with all K dummies (one-hot, no baseline) and
# reported in treatment contrasts, as model.matrix() and glmnet users read
# it: the baseline level's coefficient g_1 moves into the intercept and the
# other levels' become g_k - g_1, the same linear predictor for every record.
#
# Why: with treatment contrasts a factor's dummies and the intercept are
# ill-conditioned for coordinate descent. For K equally common levels the
# correlation matrix of the K - 1 standardized dummies has smallest
# eigenvalue 1 / (K - 1) (the common shift of all of them, which only the
# baseline's records see), and DP-CD's noise piles up along that direction
# (a random walk the weak curvature hardly pulls back). With all K dummies
# that direction is exactly flat, the shift moves no prediction, and the
# other eigenvalues are K / (K - 1): the noise along the flat direction is
# mapped away and the rest is well conditioned. Measured (cv.dpglmnet() at
# its defaults, crude bounds, 3 splits, over cv.glmnet; epsilon 0.5 / 1 /
# 2): modeldata's deliveries (a 7-level day) 1.48 / 1.40 / 1.49 -> 1.24 /
# 1.16 / 1.11; hotel_rates 1.70 / 1.28 / 1.21 -> 1.64 / 1.21 / 1.17;
# Bikeshare (24 hours, 12 months) 1.63 / 1.28 / 1.22 -> 1.65 / 1.19 / 1.16;
# diamonds' price > 10000 1.92 / 1.90 / 1.51 -> 1.71 / 1.49 / 1.34. The
# cost: one more dummy per factor; OJ at epsilon 2 1.10 -> 1.20, and Wage
# at 0.5 crossed the moderate-n threshold (1.21 -> 1.53) until the
# factors' means were released as one vector each (R/standardize.R:
# 1.18) (inst/bench/results/2026-11-27-session20.md).
#
# The map is exact for the linear predictor; the penalty is the full
# coding's: every level is shrunk towards the others rather than towards
# an arbitrary baseline, as glmnetUtils' formula interface does by default
# (one column per level), so at a given lambda the coefficients differ from
# glmnet's on model.matrix() (they agree as lambda -> 0). Only where the
# user's arguments mean the same on both codings: a private fit (finite
# epsilon) with an intercept, the solver chosen by "auto" or DP-CD, no
# per-column argument (penalty.factor, vectors of smoothness, step, clip
# or limits, finite lower.limits or upper.limits: a bound on g_k is no
# bound on g_k - g_1), no l1.radius, a factor used in its own main-effect
# term only (no interaction), and p < n / 4 with the extra dummies. At
# epsilon = Inf the fit is glmnet's, on treatment contrasts. The choice
# reads the formula, the factors' levels (schema), n and the arguments:
# public, no ledger row.
coding_constants <- list(min_levels = 3L, solvers = c("auto", "dpcd"), max_p_ratio = 0.25)

# The factors (names of model-frame variables) to code in full.
full_coding_factors <- function(values, frame, terms, categorical,
                                min_levels = coding_constants$min_levels) {
  if (!length(categorical)) return(character())
  epsilon <- values[["epsilon", exact = TRUE]]
  if (!is.null(epsilon) && !(is.numeric(epsilon) && length(epsilon) == 1L &&
                             is.finite(epsilon))) {
    return(character())
  }
  intercept <- values[["intercept", exact = TRUE]]
  if (!is.null(intercept) && !isTRUE(intercept)) return(character())
  solver <- values[["solver", exact = TRUE]]
  if (!is.null(solver) && !(is.character(solver) && length(solver) == 1L &&
                            solver %in% coding_constants$solvers)) {
    return(character())
  }
  # (per-column arguments are given in the treatment columns; an l1 radius
  # bounds the coefficients themselves)
  per_column <- c("penalty.factor", "smoothness", "step", "clip", "l1.radius")
  if (any(vapply(per_column, function(a) !is.null(values[[a, exact = TRUE]]) &&
                   (a %in% c("penalty.factor", "l1.radius") || length(values[[a]]) > 1L),
                 logical(1)))) {
    return(character())
  }
  for (limit in c("lower.limits", "upper.limits")) {
    given <- values[[limit, exact = TRUE]]
    if (!is.null(given) && !(is.numeric(given) && length(given) == 1L && is.infinite(given))) {
      return(character())
    }
  }
  factors <- attr(terms, "factors")
  if (is.null(factors) || !length(factors)) return(character())
  eligible <- vapply(categorical, function(v) {
    if (!v %in% rownames(factors)) return(FALSE)
    used_in <- which(factors[v, ] > 0)
    values_of <- frame[[v]]
    levels <- if (is.factor(values_of)) nlevels(values_of)
              else if (is.logical(values_of)) 2L
              else length(unique(values_of))
    length(used_in) == 1L && sum(factors[, used_in] > 0) == 1L &&
      levels >= min_levels
  }, logical(1))
  full <- categorical[eligible]
  # Far from high dimension only: "auto" picks an l1 solver from p >= n / 2
  # (R/highdim.R), whose radius bounds the coefficients of the coding it
  # fits; a margin (p < n / 4 with the extra dummies) keeps every
  # cv.dpglmnet() training part on the same side of that rule.
  if (length(full)) {
    treatment_p <- treatment_columns(frame, terms)
    if (is.na(treatment_p) ||
        treatment_p + length(full) >= coding_constants$max_p_ratio * nrow(frame)) {
      return(character())
    }
  }
  full
}

# The columns of the treatment expansion, from one record with every
# categorical column's levels (model.matrix() takes a character or
# logical column's levels from its values); NA where the expansion fails
# (the expansion itself then reports it).
treatment_columns <- function(frame, terms) {
  one <- frame[1L, , drop = FALSE]
  for (v in names(one)) {
    values <- frame[[v]]
    if (is.character(values) || is.logical(values)) {
      one[[v]] <- factor(one[[v]], levels = sort(unique(values)))
    }
  }
  tryCatch(ncol(stats::model.matrix(terms, one)) - 1L, error = function(e) NA_integer_)
}

# model.matrix()'s contrasts.arg entry of a factor coded in full: the
# identity over its levels (one column per level).
full_contrasts <- function(values_of) {
  if (!is.factor(values_of)) values_of <- factor(values_of)
  stats::contrasts(values_of, contrasts = FALSE)
}

# Where the full coding's columns sit among the design's (assign: each
# column's term, without the intercept column): per factor, its baseline
# column and its other levels' columns; `keep`, the columns treatment
# contrasts report (all but the baselines). NULL without full coding.
coding_map <- function(full, terms, assign, ordered_levels = list(), mapped = character()) {
  if (!length(full) && !length(mapped)) return(NULL)
  labels <- attr(terms, "term.labels")
  factors <- lapply(c(full, mapped), function(v) {
    columns <- which(assign == match(v, labels))
    # an ordered factor is reported in polynomial contrasts, as model.matrix()
    # codes it: its K - 1 columns, named as model.matrix() names them; one
    # fitted on treatment dummies (`mapped`) has no baseline column (its
    # level 1 is at 0)
    contrast <- if (!is.null(ordered_levels[[v]])) stats::contr.poly(ordered_levels[[v]])
    in_full <- v %in% full
    list(name = v, base = if (in_full) columns[1L] else NA_integer_,
         levels = if (in_full) columns[-1L] else columns, contrast = contrast,
         names = if (!is.null(contrast)) paste0(v, colnames(contrast)))
  })
  bases <- vapply(factors, function(f) f$base, integer(1))
  bases <- bases[!is.na(bases)]
  list(factors = factors, p = length(assign), keep = setdiff(seq_along(assign), bases))
}

# The settings of a fit that hold one value per column (p) or per
# coordinate (the p columns, then the intercept).
coding_column_settings <- c("penalty.factor", "lower.limits", "upper.limits", "x.bounds",
                            "x.lower", "x.upper", "coefficient_noise", "bound_scale")
coding_coordinate_settings <- c("smoothness_values", "coordinate_step", "coordinate_clip",
                                "noise_sd")

# The per-column settings of an ordered factor's polynomial columns (before
# the baselines are dropped; post-processing of released values): their
# public values' range as their interval and clamp, their mean and sd from
# the released means m_k of the factor's dummies (a column takes the value
# C_kl on level k's records), unit scale.
polynomial_column_settings <- function(settings, map) {
  p <- map$p
  r <- settings$standardization
  for (f in map$factors) {
    if (is.null(f$contrast)) next
    lower <- apply(f$contrast, 2L, min)
    upper <- apply(f$contrast, 2L, max)
    set <- function(values, new) {
      if (is.atomic(values) && length(values) == p) values[f$levels] <- new
      values
    }
    settings$x.lower <- set(settings$x.lower, lower)
    settings$x.upper <- set(settings$x.upper, upper)
    settings$x.bounds <- set(settings$x.bounds, pmax(abs(lower), abs(upper)))
    settings$bound_scale <- set(settings$bound_scale, 1)
    if (is.list(r) && length(r$x_mean) == p) {
      shares <- if (is.na(f$base)) c(1 - sum(r$x_mean[f$levels]), r$x_mean[f$levels])
                else r$x_mean[c(f$base, f$levels)]
      mean <- drop(crossprod(f$contrast, shares))
      second <- drop(crossprod(f$contrast^2, shares))
      for (field in grep("^x_", names(r), value = TRUE)) {
        r[[field]] <- set(r[[field]], switch(field,
          x_lower = lower, x_upper = upper, x_mean = mean, x_center = mean,
          x_sd = sqrt(pmax(second - mean^2, 0)), x_scale = 1,
          if (is.logical(r[[field]])) FALSE else NA_real_))
      }
    }
  }
  if (is.list(r)) settings$standardization <- r
  settings
}

# A fit on the full coding, reported in treatment contrasts (exact: the
# same linear predictor for every record).
treatment_fit <- function(fit, map, warn = TRUE) {
  if (is.null(map) || is.null(fit)) return(fit)
  p <- map$p
  keep <- map$keep
  beta <- as.matrix(fit$beta)
  if (nrow(beta) != p) stop("internal error: the coding map does not fit the fit", call. = FALSE)
  if (warn) warn_unresolved_baselines(fit, map, rownames(beta))
  a0 <- fit$a0
  for (f in map$factors) {
    if (!is.null(f$contrast)) {
      # polynomial: the contrasts' columns are orthonormal and orthogonal to
      # the constant, so g - mean(g) = C C'g: the coefficients C'g, the
      # mean into the intercept (the same linear predictor)
      g <- if (is.na(f$base)) rbind(0, beta[f$levels, , drop = FALSE])
           else beta[c(f$base, f$levels), , drop = FALSE]
      a0 <- a0 + colMeans(g)
      beta[f$levels, ] <- crossprod(f$contrast, g)
      rownames(beta)[f$levels] <- f$names
      next
    }
    base <- beta[f$base, ]
    a0 <- a0 + base
    beta[f$levels, ] <- beta[f$levels, , drop = FALSE] - rep(base, each = length(f$levels))
  }
  beta <- beta[keep, , drop = FALSE]
  fit$a0 <- stats::setNames(as.numeric(a0), names(fit$a0))
  fit$beta <- sparse_path_matrix(beta, rownames(beta), colnames(beta))
  fit$df <- as.integer(colSums(beta != 0))
  fit$dim <- dim(beta)
  fit$settings <- treatment_settings(fit$settings, map)
  fit
}

# A factor reported in treatment contrasts whose baseline level the
# released counts cannot resolve (a rare level: its coefficient is noise,
# R/standardize.R): every contrast of the factor (level minus baseline)
# carries that noise, though predictions do not. An independent first-use
# review: credit_data's Home, baseline "ignore" (19 of 4039 records),
# Homeowner from -0.79 to +2.37 over six seeds against glmnet's 0.62;
# stable after relevel() to a common level. Released flags only.
warn_unresolved_baselines <- function(fit, map, column_names) {
  unresolved <- fit$settings$standardization$x_unresolved
  if (length(unresolved) != map$p) return(invisible())
  rare <- Filter(function(f) is.null(f$contrast) && !is.na(f$base) && unresolved[f$base],
                 map$factors)
  if (!length(rare)) return(invisible())
  described <- vapply(rare, function(f) {
    level <- substring(column_names[f$base], nchar(f$name) + 1L)
    sprintf("`%s` (baseline \"%s\")", f$name, level)
  }, character(1))
  dpglmnet_warn(sprintf(paste(
    "factor%s %s: the released counts cannot resolve the baseline level, so its",
    "coefficient is noise, and every contrast of the factor (each level minus",
    "the baseline, as coef() reports it) carries that noise; predictions do",
    "not. relevel() the factor to a common level for contrasts against it."),
    if (length(rare) > 1L) "s" else "", paste(described, collapse = ", ")))
}

treatment_settings <- function(settings, map) {
  p <- map$p
  keep <- map$keep
  subset_columns <- function(values) {
    if (is.atomic(values) && length(values) == p) values[keep] else values
  }
  # the noise of one update of a level's coefficient g_k - g_1: both
  # coordinates' (on the original scale, from their released scales)
  noise <- settings$coefficient_noise
  if (is.atomic(noise) && length(noise) == p) {
    scale <- settings$standardization$x_scale
    if (is.null(scale)) scale <- settings$bound_scale
    if (!(is.atomic(scale) && length(scale) == p)) scale <- rep(1, p)
    for (f in map$factors) {
      if (!is.null(f$contrast)) {
        # a polynomial column's noise on the scale of its own unit (its
        # scale is set to 1 below): the levels' noise through C'
        columns <- c(f$base, f$levels)
        on_original <- noise[columns] * ifelse(is.finite(scale[columns]), scale[columns], 0)
        # (a level fitted at 0, without a column: no noise)
        on_original[is.na(columns)] <- 0
        noise[f$levels] <- sqrt(colSums((f$contrast * on_original)^2))
        next
      }
      ratio <- scale[f$base] / scale[f$levels]
      ratio[!is.finite(ratio)] <- 0
      noise[f$levels] <- sqrt(noise[f$levels]^2 + (noise[f$base] * ratio)^2)
    }
    settings$coefficient_noise <- noise
  }
  settings <- polynomial_column_settings(settings, map)
  for (name in intersect(coding_column_settings, names(settings))) {
    settings[[name]] <- subset_columns(settings[[name]])
  }
  if (is.list(settings$signal_check)) {
    settings$signal_check <- lapply(settings$signal_check, subset_columns)
  }
  for (name in intersect(coding_coordinate_settings, names(settings))) {
    values <- settings[[name]]
    if (is.atomic(values) && length(values) == p + 1L) {
      settings[[name]] <- values[c(keep, p + 1L)]
    } else settings[[name]] <- subset_columns(values)
  }
  r <- settings$standardization
  if (is.list(r)) {
    for (name in grep("^x_", names(r), value = TRUE)) r[[name]] <- subset_columns(r[[name]])
    settings$standardization <- r
  }
  in_full <- vapply(map$factors, function(f) !is.na(f$base), logical(1))
  settings$full_coding <- vapply(map$factors[in_full], function(f) f$name, character(1))
  settings
}

# A cv.dpglmnet() object on the full coding, likewise.
treatment_cv <- function(cvfit, map) {
  if (is.null(map)) return(cvfit)
  cvfit$dpglmnet.fit <- treatment_fit(cvfit$dpglmnet.fit, map)
  cvfit$refit <- treatment_fit(cvfit$refit, map, warn = FALSE)
  fit <- cvfit$dpglmnet.fit
  if (!is.null(cvfit$nzero) && length(cvfit$nzero) == length(fit$df)) {
    cvfit$nzero <- stats::setNames(fit$df, names(cvfit$nzero))
  }
  cvfit
}
