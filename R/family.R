# The families dpglmnet fits, as in glmnet. A family object is the single
# source of truth for everything that depends on the family in R: how the
# response is checked and coded, the curvature bound of the loss (its
# coordinate smoothness constant per unit x_ij^2), the inverse link used by
# predict(), the per-record loss used by objectives, and whether predictions
# have classes. Its C++ half is src/dpglmnet/family.h (the loss the solvers
# run). An unknown family is an error, never a silent squared loss.

dpglmnet_families <- list(
  gaussian = list(
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
    offset_in_response = TRUE
  ),
  binomial = list(
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
    offset_in_response = FALSE
  )
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
dpglmnet_family <- function(family, arg = "family") {
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
  dpglmnet_families[[check_choice(family, names(dpglmnet_families), arg)]]
}
