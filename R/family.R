# The families dpglmnet fits, as in glmnet; what a family object holds is
# in R/aaa-protocols.R (new_family()).

dpglmnet_families <- list(
  gaussian = new_family(
    name = "gaussian",
    # (1/2)(y - eta)^2: second derivative 1.
    curvature = 1,
    check_response = function(y) {
      if (!is.numeric(y) || is.object(y)) {
        dpglmnet_abort("y", "must be numeric for family = \"gaussian\".")
      }
      if (anyNA(y)) dpglmnet_abort("y", "must not contain NA or NaN.")
      if (any(is.infinite(y))) dpglmnet_abort("y", "must not contain Inf or -Inf.")
      list(y = as.numeric(y), classnames = NULL)
    },
    linkinv = function(link) link,
    loss = function(link, y) (y - link)^2 / 2,
    classes = FALSE,
    # an offset moves into the response, y - offset (R/weights.R)
    offset_in_response = TRUE,
    closed_form_dual = TRUE,
    # y clamped to y.bound: |l'(0, y)| <= y.bound; y standardized with x
    bounded_response = TRUE,
    # |(1/n) sum_i x~_ij y~_i| <= 1 for standardized x and y
    # (Cauchy-Schwarz)
    public_lambda_max = function(scale_y, has_offset) if (scale_y) 1,
    # (the standardized y is centred by its released mean: the mean model is 0)
    signal_mean = function(scale_y) if (scale_y) list(release = FALSE),
    # (at b = 0 the derivative is -y~_i, whose root mean square is about 1
    # for y standardized by its released mean and sd)
    derivative_scale = function(scale_y) if (scale_y) 1,
    # DP-CD's steps 1 / M_j are the squared loss's exact coordinate
    # curvature, so a fit is near its minimum after a few passes and the
    # later passes mostly redraw its noise: their end iterates are averaged
    # (R/dpcd.R, dpcd_tail_average()). The binomial loss's steps rest on the
    # curvature bound 1/4, its fits still move in the tail, and averaging
    # was worse there on as many sets as it helped (0).
    tail_average = 0.5,
    cv_measures = c("mse", "deviance", "mae"),
    deviance_name = "Mean-Squared Error",
    # (residual: the bound of a residual, r s_y or y.bound, R/cv-curve.R)
    default_loss_bound = function(type.measure, residual) {
      switch(type.measure, mse = residual^2, mae = residual, deviance = residual^2,
             class = 1)
    },
    sql_derivative = function(source, eta, y) sprintf("(%s - %s)", eta, y),
    # (cv.dpglmnet() on a table, R/database-cv.R)
    sql_linkinv = function(source, eta) eta,
    sql_loss = function(source, eta, y, ln) {
      sprintf("((%s - %s) * (%s - %s) / %s)", y, eta, y, eta, sql_number(source, 2))
    }
  ),
  binomial = new_family(
    name = "binomial",
    # log(1 + e^eta) - y eta: second derivative p (1 - p) <= 1/4.
    curvature = 0.25,
    check_response = function(y) {
      if (anyNA(y)) dpglmnet_abort("y", "must not contain NA.")
      if (is.factor(y)) {
        if (nlevels(y) != 2L) {
          dpglmnet_abort("y", sprintf(paste(
            "must be a factor with exactly two levels for family = \"binomial\",",
            "not %d."), nlevels(y)))
        }
        return(list(y = as.numeric(as.integer(y) == 2L), classnames = levels(y)))
      }
      if (is.logical(y)) {
        return(list(y = as.numeric(y), classnames = c("FALSE", "TRUE")))
      }
      if (is.numeric(y) && !is.object(y)) {
        if (any(y != 0 & y != 1)) {
          dpglmnet_abort("y", paste(
            "must contain only 0 and 1 for family = \"binomial\"",
            "(or be a factor with two levels)."))
        }
        return(list(y = as.numeric(y), classnames = c("0", "1")))
      }
      dpglmnet_abort("y", paste(
        "must be a factor with two levels, a logical vector or a 0/1 numeric",
        "vector for family = \"binomial\"; convert labels to a factor with",
        "explicit levels."))
    },
    linkinv = function(link) stats::plogis(link),
    # Without overflow: max(eta, 0) + log1p(exp(-|eta|)) - y eta.
    loss = function(link, y) pmax(link, 0) + log1p(exp(-abs(link))) - y * link,
    classes = TRUE,
    # an offset sits inside the link: the core's linear predictor
    offset_in_response = FALSE,
    closed_form_dual = TRUE,
    # |sigmoid(eta) - y| <= 1 whatever y
    derivative_bound = 1,
    # The default clip grows with the budget (R/dpcd.R) only for rare
    # classes (binomial_raised_clip_share).
    raised_clip = function(mean) {
      !is.null(mean) && min(mean, 1 - mean) < binomial_raised_clip_share
    },
    # |(1/n) sum_i x~_ij (1/2 - y_i)| <= 1/2 at b = 0; with an offset o_i the
    # derivative at b = 0 is sigmoid(o_i) - y_i, up to 1
    public_lambda_max = function(scale_y, has_offset) if (has_offset) 1 else 0.5,
    # (the mean model: the released proportion of ones)
    signal_mean = function(scale_y) list(release = TRUE, lower = 0, upper = 1),
    # l'(eta, y) = sigmoid(eta) - y: DP-CD's intercept splits (R/dpcd.R);
    # its start under the signal gate is the logit of the released proportion
    split_intercept = list(lower = 0, upper = 1, link = stats::qlogis),
    # No adaptive clip (R/dpcd.R; derivative_scale NULL). Measured with B
    # = 1 (|l'| <= 1) and s_0 = 1/2, cv.dpglmnet() over cv.glmnet at the
    # bench's splits, epsilon 1 / 2: Shuttle 1.08 / 1.10 -> 1.06 / 0.95,
    # Satellite 1.41 / 1.24 -> 1.36 / 1.22, but Default (3% ones, whose
    # few misclassified records the smaller clips cut) 1.18 / 1.16 -> 1.21
    # / 1.20 over 9 fits, and Letter's worst of 9 fits 1.07 -> 1.09-1.10:
    # no clear gain (inst/bench/results/2026-11-27-session17.md).
    # At one lambda on standardized columns, passes beyond the third add
    # more noise than they remove error: DP-CD steps 1 / (1/4) on every
    # coordinate, so each update moves its coefficient by 4 times its
    # gradient noise, and with correlated columns that noise random-walks
    # along the flat directions pass after pass. cv.dpglmnet() at the
    # defaults, 4 splits, misclassification over the majority class's, the
    # schedule's passes (10 in most rows) -> at most 3 (-> at most 2):
    # Satellite epsilon 1 0.106 -> 0.094 (0.084), epsilon 2 0.089 -> 0.073
    # (0.082); generated n = 5000-8000, p = 20-40: independent columns
    # 0.757 -> 0.708 (0.691) at epsilon 1, 0.626 -> 0.589 (0.583) at 2;
    # AR(0.5) 0.929 -> 0.856 (0.813) at 0.5, 0.848 -> 0.797 (0.796) at 1;
    # AR(0.8) 1.071 -> 0.990 (0.983) at 1, 0.960 -> 0.976 (0.988) at 2;
    # Letter epsilon 0.5 1.056 -> 1.058 (1.039). 3 rather than 2: it lost
    # less where more passes helped (epsilon 2).
    single_lambda_passes = 3,
    # The same holds along a path where the schedule's passes stay within
    # its noise target (at most 10 per lambda; not where the budget affords
    # extra passes, large n: there more passes helped a near-separable
    # or rare-event fit, Shuttle 1.09 -> 1.64 over cv.glmnet at epsilon 1
    # with 3). cv.dpglmnet() at the defaults, 10 -> 3 passes per lambda:
    # generated n = 6000, p = 20 / 40, independent, AR(0.5) and AR(0.8)
    # columns, over cv.glmnet (3 fits each): epsilon 2 (p = 20) 1.10 /
    # 1.16 / 1.08 -> 1.03 / 1.05 / 1.03, epsilon 4 1.03-1.12 -> 1.01-1.09
    # in each of the 6 rows; Letter epsilon 1 (6 fits) 1.05 -> 1.03 over
    # cv.glmnet, its worst over the majority class 1.14 -> 1.10; Default
    # at epsilon 1 1.18 -> 1.21 (both about the majority class).
    path_passes = 3,
    cv_measures = c("deviance", "class", "mse", "mae"),
    deviance_name = "Binomial Deviance",
    # mse and mae sum over the two classes (at most 2); the deviance clipped
    # at 2 log(20): a predicted probability of 1/20 for the observed class
    default_loss_bound = function(type.measure, residual) {
      switch(type.measure, mse = 2, mae = 2, deviance = 2 * log(20), class = 1)
    },
    # 1 / (1 + exp(-eta)) - y with eta clamped to +-708 first, as the core's
    # vectorized kernels do (and so that no engine's EXP overflows)
    sql_derivative = function(source, eta, y) {
      limited <- sql_clamp(source, eta, -708, 708)
      sprintf("(%s / (%s + EXP(-%s)) - %s)", sql_number(source, 1), sql_number(source, 1),
              limited, y)
    },
    # (cv.dpglmnet() on a table, R/database-cv.R) plogis(eta), eta clamped
    # as above (plogis() is then 0 or 1 to within 1e-307); the loss as
    # `loss`, max(eta, 0) + log(1 + exp(-|eta|)) - y eta (`ln`: the
    # engine's natural logarithm of an SQL expression)
    sql_linkinv = function(source, eta) {
      sprintf("(%s / (%s + EXP(-%s)))", sql_number(source, 1), sql_number(source, 1),
              sql_clamp(source, eta, -708, 708))
    },
    sql_loss = function(source, eta, y, ln) {
      zero <- sql_number(source, 0)
      sprintf("((CASE WHEN %s > %s THEN %s ELSE %s END) + %s - %s * %s)", eta, zero, eta, zero,
              ln(sprintf("%s + EXP(-ABS(%s))", sql_number(source, 1), eta)), y, eta)
    },
    sql_invalid_response = function(y) {
      list(sql = sprintf("SUM(CASE WHEN %s IS NULL OR NOT (%s = 0 OR %s = 1) THEN 1 ELSE 0 END)",
                         y, y, y),
           message = "must hold only 0 and 1 for family = \"binomial\".")
    }
  ),
  # (R/family-huber.R; its object here needs a delta: huber_family(delta))
  huber = huber_family_object()
)

# glmnet's families that dpglmnet does not fit, with the reason.
unsupported_families <- c(
  poisson = paste(
    "is not offered: the Poisson loss exp(eta) - y eta has curvature exp(eta),",
    "unbounded, so the coordinate smoothness constants that set DP-CD's steps",
    "(and DP-SGD's and DP-SCD's) have no public bound unless the linear",
    "predictor is bounded; the clipped gradients would still be private, but",
    "the steps, and with them the solvers' guarantees, would not hold. A count",
    "response can be fit as \"gaussian\" on log1p(y) with a `y.bound`."),
  multinomial = "is not offered (the solvers fit one linear predictor).",
  mgaussian = "is not offered (the solvers fit one linear predictor).",
  cox = "is not offered (no private partial likelihood is implemented).")

# The family object for `family`: a name, matched partially as glmnet does
# ("gauss"), or a stats family object with its canonical link
# (binomial(), gaussian()); an error naming the argument otherwise.
dpglmnet_family <- function(family, arg = "family", parameter = NULL) {
  # a family object of the package (huber_family(delta)), as given
  if (inherits(family, "dpglmnet_family")) return(family)
  # dpglmnet()'s default, the vector of its formals: the first, as
  # match.arg() does
  if (identical(family, eval(formals(dpglmnet)$family))) family <- family[1L]
  if (inherits(family, "family")) {
    canonical <- c(gaussian = "identity", binomial = "logit")
    name <- family$family
    if (name %in% names(canonical) && !identical(family$link, canonical[[name]])) {
      dpglmnet_abort(arg, sprintf(paste(
        "= %s(link = \"%s\") is not offered: only the canonical link (\"%s\")",
        "is fit."), name, family$link, canonical[[name]]))
    }
    family <- name
  }
  if (is.character(family) && length(family) == 1L && !is.na(family)) {
    known <- c(names(dpglmnet_families), names(unsupported_families))
    hit <- known[startsWith(known, family)]
    if (nzchar(family) && length(hit) == 1L) {
      if (hit %in% names(unsupported_families)) {
        dpglmnet_abort(arg, sprintf("= \"%s\" %s", hit, unsupported_families[[hit]]))
      }
      family <- hit
    }
  }
  object <- dpglmnet_families[[check_choice(family, names(dpglmnet_families), arg)]]
  if (!is.null(parameter)) object <- object$with_parameter(parameter)
  object
}

# The family object of a checked problem or a fit's settings (with its
# public parameter, e.g. Huber's delta).
problem_family <- function(problem) {
  dpglmnet_family(problem$family, parameter = problem$family_parameter)
}

# Where the released proportion of the rarer class is below this share,
# DP-CD's default clip grows with the budget as the squared loss's does
# (R/dpcd.R, dpcd_clip_factor()). Clipping the per-record terms
# (sigmoid(eta_i) - y_i) x~_ij at 1 cuts those of the rare class, whose
# |sigmoid - y| is near 1 where its x~ lies in a tail: the clipped fit's
# fixed point is not the likelihood's, and the bias does not shrink with
# epsilon. With classes of similar size the cut falls on both, as a robust
# loss: there the raised clip was worse (Shuttle and Satellite at epsilon
# 100, R/dpcd.R). The share is the split intercept's released proportion
# (R/dpcd.R, dpcd_intercept_release(): a ledger row, released before the
# clips). Measured, cv.dpglmnet() at the defaults, test deviance over
# cv.glmnet's (generated: n = 20000, 5 N(0, 1) columns, 12 draws):
# - logit -6 + 1.5 x1 + x2 (0.9% ones), epsilon 1 / 2 / 4 / 16: 1.258 /
#   1.226 / 1.182 / 1.116 -> 1.234 / 1.179 / 1.131 / 1.024; the slopes at
#   16 0.61 / 0.42 -> 1.21 / 0.79 (glm's about 1.5 / 1.0);
# - logit -12 + 4.5 x1 + 3 x2 (1.8%, 8 draws), epsilon 2 / 4 / 16: 1.535 /
#   1.448 / 1.421 -> 1.490 / 1.280 / 1.239;
# - ISLR2's Default (3.3%), misclassification over cv.glmnet's, 6 fits:
#   epsilon 4 / 16 1.078 / 1.105 -> 1.040 / 1.009, 1 and 2 unchanged.
# At 0.1 the raise also reached diamonds' price > 10000 (9.6%, a strong,
# nearly separable signal), where it cost: 1.52 -> 1.61 at epsilon 1 (1.80
# -> 1.88 at 0.5); logit -4 + 1.5 x1 + x2 (5.9%) moved by at most 1%.
binomial_raised_clip_share <- 0.05
