# What glmnet's helpers (assess.glmnet(), confusion.glmnet(),
# roc.glmnet()) call on a fit: family(), predict() with `newx`, `type` and
# `s`, and deviance(). All of it is post-processing of the released path on
# data the user supplies; the training deviance would be a new release
# (computed from the records, not in the ledger), so it is refused.
# glmnet is only suggested: nothing here calls it.

#' The family of a dpglmnet fit
#'
#' The [stats::family()] object of the fit's family (`gaussian()` or
#' `binomial()`), as glmnet returns for fits made with a family object. It
#' compares equal to its name (`family(fit) == "binomial"` is `TRUE`, and
#' [match()] matches it by name), which is what glmnet's
#' `confusion.glmnet()` and `roc.glmnet()` check; `assess.glmnet()` then
#' computes the deviance, mean squared and mean absolute error of the
#' family object (glmnet's measures for fits made with a family object).
#' @param object A `"dpglmnet"` or `"cv.dpglmnet"` fit.
#' @param ... Unused.
#' @return A `"family"` object.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(300 * 3), 300, 3)
#' y <- rbinom(300, 1, plogis(x[, 1]))
#' fit <- dpglmnet(x, y, family = "binomial", epsilon = 1, x.bounds = 4)
#' family(fit)
#' family(fit) == "binomial"
#' @export
family.dpglmnet <- function(object, ...) {
  fit_family_object(object$family)
}

#' @rdname family.dpglmnet
#' @export
family.cv.dpglmnet <- function(object, ...) {
  fit_family_object(object$dpglmnet.fit$family)
}

fit_family_object <- function(name) {
  family <- switch(dpglmnet_family(name, "family")$name,
                   gaussian = stats::gaussian(), binomial = stats::binomial())
  class(family) <- c("dpglmnet_family", class(family))
  family
}

# A dpglmnet family object compares with a family name by its name: glmnet's
# helpers test family(object) != "binomial" and match(family(object), ...).
#' @export
Ops.dpglmnet_family <- function(e1, e2) {
  if (!.Generic %in% c("==", "!=")) {
    stop(sprintf("`%s` is not defined for a family object.", .Generic), call. = FALSE)
  }
  name <- function(e) if (inherits(e, "family")) e$family else e
  get(.Generic, envir = baseenv())(name(e1), name(e2))
}

# match() reads an object through mtfrm() (R >= 4.1): by its name.
family_match_form <- function(x) x$family

#' Deviance of a dpglmnet fit on supplied data
#'
#' The deviance of the fit along its path on data you supply (held-out
#' records, typically): gaussian, the residual sum of squares; binomial,
#' \eqn{-2} times the log-likelihood. As glmnet's `deviance()` returns one
#' value per lambda. Without `newx` and `newy` it refuses: glmnet returns
#' the training deviance, which is computed from the training records and
#' would be a release that the fit's privacy ledger does not cover.
#' @param object A `"dpglmnet"` fit.
#' @param newx New records: a matrix (dense or sparse) with the fit's
#'   columns, or a data frame for a fit made from one (see [dpglmnet()]).
#' @param newy Their responses, coded as `y` of [dpglmnet()].
#' @param s Values of lambda; default the fitted sequence.
#' @param newoffset For a fit with an offset: the offsets of the new records
#'   (see [predict.dpglmnet()]).
#' @param ... Unused.
#' @return A named vector: the deviance at each value of `s`.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(400 * 3), 400, 3)
#' y <- drop(x %*% c(1, -1, 0)) + rnorm(400)
#' train <- 1:300
#' fit <- dpglmnet(x[train, ], y[train], epsilon = 1, x.bounds = 4, y.bound = 6)
#' deviance(fit, newx = x[-train, ], newy = y[-train])
#' @export
deviance.dpglmnet <- function(object, newx, newy, s = NULL, newoffset, ...) {
  reject_unknown_arguments(list(...), "deviance")
  if (missing(newx) || missing(newy)) {
    dpglmnet_abort(if (missing(newx)) "newx" else "newy", paste(
      "is needed: the deviance is computed on records you supply (e.g. held",
      "out). The training deviance would be computed from the training records,",
      "a release that the fit's privacy ledger does not cover, so it is not",
      "available."))
  }
  link <- if (missing(newoffset)) predict.dpglmnet(object, newx, s = s, type = "link")
          else predict.dpglmnet(object, newx, s = s, type = "link", newoffset = newoffset)
  family <- dpglmnet_family(object$family, parameter = object$settings$family_parameter)
  y <- check_new_response(newy, nrow(link), object)
  # The per-record loss is half the unit deviance for both families.
  stats::setNames(2 * colSums(family$loss(link, y)), colnames(link))
}

# `newy` coded as the fit's training response was: numbers, or 0/1 for the
# second class of a binomial fit (a factor must have the fit's classes).
check_new_response <- function(newy, n, object) {
  # (a character newy: the fit's labels, as its training y was read)
  if (is.matrix(newy) && ncol(newy) == 1L) newy <- drop(newy)
  if (is.character(newy) && !is.matrix(newy) && dpglmnet_family(object$family)$classes &&
      length(object$classnames) == 2L) {
    unknown <- setdiff(stats::na.omit(unique(newy)), object$classnames)
    if (length(unknown)) {
      dpglmnet_abort("newy", sprintf(paste(
        "has %s %s, but the fit's classes are %s (the second is modelled)."),
        if (length(unknown) > 1L) sprintf("%d labels not among them:", length(unknown))
        else "label",
        paste0(paste0("\"", utils::head(unknown, 3L), "\"", collapse = ", "),
               if (length(unknown) > 3L) ", ..." else ""),
        paste0("\"", object$classnames, "\"", collapse = ", ")))
    }
    newy <- factor(newy, levels = object$classnames)
  }
  if (is.factor(newy) && dpglmnet_family(object$family)$classes &&
      !identical(levels(newy), object$classnames)) {
    dpglmnet_abort("newy", sprintf(paste(
      "has levels %s, but the fit's classes are %s (the second is modelled)."),
      paste0("\"", levels(newy), "\"", collapse = ", "),
      paste0("\"", object$classnames, "\"", collapse = ", ")))
  }
  response <- tryCatch(check_y(newy, n, object$family), dpglmnet_error = function(e) {
    dpglmnet_abort("newy", sub("^`y` ", "", conditionMessage(e)))
  })
  response$y
}

# Unknown arguments in `...` are errors, not silently ignored (a misspelt
# `s` or glmnet's `offset`).
reject_unknown_arguments <- function(dots, method) {
  if (!length(dots)) return(invisible())
  given <- names(dots)
  if (is.null(given)) given <- rep("", length(dots))
  shown <- ifelse(nzchar(given), given, "...")
  dpglmnet_abort(shown[1L], sprintf(
    "is not an argument of %s() for dpglmnet fits.", method))
}

# match() reads objects through mtfrm() from R 4.1 on; registered here only
# where it exists (the package supports R 4.0, where confusion.glmnet()
# then cannot match the family by name).
.onLoad <- function(libname, pkgname) {
  if (exists("mtfrm", envir = baseenv(), inherits = FALSE)) {
    registerS3method("mtfrm", "dpglmnet_family", family_match_form, envir = baseenv())
  }
  invisible()
}

# glmnet()'s arguments that dpglmnet() takes in its `...`, so that a
# glmnet script runs unchanged. `thresh`, `maxit`, `type.gaussian` and
# `type.logistic` tune glmnet's own exact solver and have no counterpart in
# a private fit (its passes follow the budget): checked, then unused.
# `dfmax` and `pmax` cut the path (post-processing of the released path:
# the budget was spent on every lambda planned). `exclude` is refused: held
# at 0 through limits [0, 0], its columns would still be standardized with
# the budget and would turn the l1 solvers and solver = "auto" away (an
# independent review); dropping them from x is what it means. `relax` is
# accepted when FALSE.
glmnet_only_names <- c("thresh", "maxit", "type.gaussian", "type.logistic", "exclude",
                       "dfmax", "pmax", "relax")

# The checked values of those arguments in `dots` (list(dfmax, pmax); NULL
# when not given). Every other name is an error naming it.
glmnet_only_arguments <- function(dots) {
  if (!length(dots)) return(list())
  given <- names(dots)
  if (is.null(given) || any(!nzchar(given))) {
    dpglmnet_abort("...", sprintf(
      "must hold named arguments: glmnet's %s.", paste0("`", glmnet_only_names, "`",
                                                         collapse = ", ")))
  }
  unknown <- setdiff(given, glmnet_only_names)
  if (length(unknown)) {
    dpglmnet_abort(unknown[1L], "is not an argument of dpglmnet().")
  }
  value <- function(name) dots[[name, exact = TRUE]]
  if (!is.null(value("relax")) && !identical(value("relax"), FALSE)) {
    dpglmnet_abort("relax", "is not offered: the relaxed fit (glmnet's `relax`) is not implemented.")
  }
  if (length(value("exclude"))) {
    dpglmnet_abort("exclude", paste(
      "is not offered: leave the columns out of x instead (x[, -exclude]).",
      "Held at 0, they would still be standardized with the privacy budget."))
  }
  if (!is.null(value("thresh"))) check_numeric(value("thresh"), "thresh", lower = 0, lower_open = TRUE)
  if (!is.null(value("maxit"))) check_numeric(value("maxit"), "maxit", lower = 1, integer = TRUE)
  if (!is.null(value("type.gaussian"))) {
    check_choice(value("type.gaussian"), c("covariance", "naive"), "type.gaussian")
  }
  if (!is.null(value("type.logistic"))) {
    check_choice(value("type.logistic"), c("Newton", "modified.Newton"), "type.logistic")
  }
  limit <- function(name) {
    v <- value(name)
    if (is.null(v)) NULL else as.integer(check_numeric(v, name, lower = 0, upper = 1e9,
                                                       integer = TRUE))
  }
  list(dfmax = limit("dfmax"), pmax = limit("pmax"))
}

# The path up to its last lambda with at most `dfmax` non-zero
# coefficients and at most `pmax` ever non-zero along the path
# (post-processing of the released coefficients). Stricter than glmnet,
# whose path may keep lambdas past `dfmax`. The first lambda is always
# kept, with a warning when it is beyond the limits (a private path may
# start with noise in its coefficients).
cut_path <- function(fit, dfmax, pmax) {
  if (is.null(dfmax) && is.null(pmax)) return(fit)
  beta <- fit$beta
  df <- diff(beta@p)
  ever <- vapply(seq_len(ncol(beta)), function(k) {
    sum(Matrix::rowSums(abs(beta[, seq_len(k), drop = FALSE])) > 0)
  }, numeric(1))
  within <- rep(TRUE, length(df))
  if (!is.null(dfmax)) within <- within & df <= dfmax
  if (!is.null(pmax)) within <- within & ever <= pmax
  if (!within[1L]) {
    dpglmnet_warn(sprintf(paste(
      "the path's first %s already has %d non-zero coefficients, beyond `dfmax`",
      "or `pmax`: it is kept (a private path can start with noise in its",
      "coefficients); the later ones are dropped."),
      if (is_radius_path(fit)) "radius" else "lambda", df[1L]))
  }
  keep <- seq_len(max(1L, if (all(within)) length(within) else which(!within)[1L] - 1L))
  if (length(keep) == length(df)) return(fit)
  fit$a0 <- fit$a0[keep]
  fit$beta <- beta[, keep, drop = FALSE]
  fit$df <- df[keep]
  fit$dim <- dim(fit$beta)
  fit$lambda <- fit$lambda[keep]
  if (!is.null(fit$vertices)) fit$vertices <- fit$vertices[, keep, drop = FALSE]
  if (identical(fit$settings$coefficient_noise_per, "lambda")) {
    fit$settings$coefficient_noise <- fit$settings$coefficient_noise[keep]
  }
  fit
}

#' Fields of a cv.dpglmnet fit
#'
#' `$` and `[[` as for a list, and `cvfit$glmnet.fit` (or
#' `cvfit[["glmnet.fit"]]`), the name glmnet gives the path, is
#' `cvfit$dpglmnet.fit`, so that a glmnet script's
#' `plot(cvfit$glmnet.fit)` runs unchanged.
#' @param x A `"cv.dpglmnet"` fit.
#' @param name A field name.
#' @return The field.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(2000 * 3), 2000, 3)
#' y <- drop(x %*% c(1, -1, 0)) + rnorm(2000)
#' cvfit <- cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8)
#' identical(cvfit$glmnet.fit, cvfit$dpglmnet.fit)
#' @export
`$.cv.dpglmnet` <- function(x, name) {
  if (identical(name, "glmnet.fit")) name <- "dpglmnet.fit"
  .subset2(x, name, exact = FALSE)
}

#' @rdname cash-.cv.dpglmnet
#' @param i A field name or index.
#' @param exact As for a list's `[[`.
#' @param ... Unused.
#' @export
`[[.cv.dpglmnet` <- function(x, i, exact = TRUE, ...) {
  if (identical(i, "glmnet.fit")) i <- "dpglmnet.fit"
  .subset2(x, i, exact = exact)
}
