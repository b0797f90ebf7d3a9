# S3 methods for "dpglmnet" fits. Everything here is post-processing of the
# released path (free for privacy); nothing refits on data.

#' Print a dpglmnet fit
#'
#' Prints the call, the privacy ledger in one line and the path (number of
#' non-zero coefficients and lambda). glmnet's `%Dev` column is not shown:
#' deviance is computed from the data and is not private. For the l1-ball
#' solvers (`"dpfw"`, `"nmd"`) the path parameter is the l1 radius, printed
#' as `Radius` (it is stored in `lambda`).
#' @param x A `"dpglmnet"` fit.
#' @param digits Significant digits.
#' @param ... Unused.
#' @return `x`, invisibly.
#' @export
print.dpglmnet <- function(x, digits = max(3, getOption("digits") - 3), ...) {
  cat("\nCall: ", deparse(x$call), "\n\n")
  cat("Privacy:", format_privacy_line(x$privacy), "\n\n")
  if (is_radius_path(x)) {
    cat("Path over l1 radii (stored in `lambda`; `s` in coef/predict is a radius)\n")
    print(data.frame(Df = x$df, Radius = signif(x$lambda, digits)))
  } else {
    print(data.frame(Df = x$df, Lambda = signif(x$lambda, digits)))
  }
  invisible(x)
}

#' Summarize a dpglmnet fit
#'
#' @param object A `"dpglmnet"` fit.
#' @param ... Unused.
#' @return An object of class `"summary.dpglmnet"`: the call, family,
#'   dimensions, solver settings, the full privacy ledger and the path.
#' @export
summary.dpglmnet <- function(object, ...) {
  structure(list(
    call = object$call, family = object$family, nobs = object$nobs,
    nvars = object$dim[1L], intercept = object$intercept,
    settings = object$settings, privacy = object$privacy,
    path = if (is_radius_path(object)) data.frame(Df = object$df, Radius = object$lambda)
           else data.frame(Df = object$df, Lambda = object$lambda)
  ), class = "summary.dpglmnet")
}

#' @export
print.summary.dpglmnet <- function(x, ...) {
  cat("\nCall: ", deparse(x$call), "\n\n")
  s <- x$settings
  cat(sprintf("Family: %s; %d records, %d variables; intercept: %s\n",
              x$family, x$nobs, x$nvars, x$intercept))
  if (identical(s$path_parameter, "radius")) {
    cat(sprintf("Solver: %s over the l1 ball, %g steps per radius, step %g, clip %g\n",
                s$solver, s$steps_per_radius, s$step, s$clip))
  } else {
    cat(sprintf(
      "Solver: %s, %d passes per lambda, step %g, clip %s%s%s\n",
      s$solver, s$passes, s$step, clip_text(s),
      if (is.null(s$selection)) "" else paste0(", ", s$selection, " order"),
      if (isTRUE(s$average)) ", periodic averaging" else ""))
  }
  cat(sprintf("Smoothness constants: %s; noise multiplier z = %.6g\n\n",
              s$smoothness, s$noise_multiplier))
  print(x$privacy)
  cat("\nPath:\n")
  print(x$path)
  invisible(x)
}

# glmnet's linear interpolation between the fitted lambdas; values of s
# outside the path are clamped to its ends. Positions are measured from the
# first value towards the last, so the same code serves a decreasing lambda
# path and an increasing path of l1 radii.
lambda_interpolation <- function(lambda, s) {
  if (length(lambda) == 1L) {
    ones <- rep(1L, length(s))
    return(list(left = ones, right = ones, fraction = rep(1, length(s))))
  }
  k <- length(lambda)
  position <- (lambda[1L] - lambda) / (lambda[1L] - lambda[k])
  target <- (lambda[1L] - s) / (lambda[1L] - lambda[k])
  target <- pmin(pmax(target, min(position)), max(position))
  coordinate <- stats::approx(position, seq_len(k), target)$y
  left <- floor(coordinate)
  right <- ceiling(coordinate)
  fraction <- (target - position[right]) / (position[left] - position[right])
  fraction[left == right] <- 1
  fraction[abs(position[left] - position[right]) < .Machine$double.eps] <- 1
  list(left = left, right = right, fraction = fraction)
}

check_s <- function(s) {
  if (is.null(s)) return(NULL)
  if (is.character(s)) {
    dpglmnet_abort("s", paste(
      "must be numeric for a path fit: choosing lambda (\"lambda.min\") reads",
      "data, so it is done privately by cv.dpglmnet(); use",
      "coef(cv.dpglmnet(...), s = \"lambda.min\")."))
  }
  check_numeric(s, "s", lower = 0, length = NULL)
}

# Coefficients (intercept first) at the fitted lambdas, or interpolated at s.
path_coefficients <- function(object, s) {
  coefs <- methods::rbind2(Matrix::Matrix(object$a0, nrow = 1L, sparse = TRUE),
                           object$beta)
  rownames(coefs) <- c("(Intercept)", rownames(object$beta))
  if (is.null(s)) return(methods::as(coefs, "CsparseMatrix"))
  w <- lambda_interpolation(object$lambda, s)
  coefs <- coefs[, w$left, drop = FALSE] %*% Matrix::Diagonal(x = w$fraction) +
    coefs[, w$right, drop = FALSE] %*% Matrix::Diagonal(x = 1 - w$fraction)
  coefs <- methods::as(methods::as(coefs, "generalMatrix"), "CsparseMatrix")
  dimnames(coefs) <- list(c("(Intercept)", rownames(object$beta)),
                          paste0("s", seq_along(s)))
  coefs
}

#' Coefficients and predictions of a dpglmnet fit
#'
#' As glmnet's methods: coefficients at the fitted lambdas, or linearly
#' interpolated at new values `s` (post-processing, free for privacy).
#' `predict()` is the linear predictor of `coef()`: `newx` is clamped to the
#' public `x.bounds` of the fit (the records it learnt from were clamped to
#' them too) and to nothing else, so for new records inside the bounds
#' `predict(fit, newx, s)` equals `cbind(1, newx) %*% coef(fit, s)`.
#' @param object A `"dpglmnet"` fit.
#' @param newx Matrix of new values for `x` (dense or sparse) at which
#'   predictions are made, one row per record (a single record may also be
#'   given as a vector of its `p` values); not needed for
#'   `type = "coefficients"` or `"nonzero"`.
#' @param s Values of lambda (of the l1 radius for the l1-ball solvers
#'   `"dpfw"` and `"nmd"`); default the fitted sequence.
#' @param type `"link"` (linear predictor), `"response"` (fitted values or
#'   probabilities), `"class"` (binomial: the class label), `"coefficients"`
#'   or `"nonzero"` (indices of non-zero coefficients, one vector per lambda).
#' @param ... Unused.
#' @return `coef`: a sparse matrix with the intercept in the first row.
#'   `predict`: a matrix with one column per lambda, or a list for
#'   `"nonzero"`.
#' @export
coef.dpglmnet <- function(object, s = NULL, ...) {
  path_coefficients(object, check_s(s))
}

#' @rdname coef.dpglmnet
#' @export
predict.dpglmnet <- function(object, newx, s = NULL,
                             type = c("link", "response", "class",
                                      "coefficients", "nonzero"), ...) {
  type <- check_choice(type, c("link", "response", "class", "coefficients",
                               "nonzero"), "type")
  s <- check_s(s)
  coefs <- path_coefficients(object, s)
  if (type == "coefficients") return(coefs)
  if (type == "nonzero") {
    beta <- coefs[-1L, , drop = FALSE]
    return(lapply(stats::setNames(seq_len(ncol(beta)), colnames(beta)),
                  function(l) which(beta[, l] != 0)))
  }
  if (missing(newx)) dpglmnet_abort("newx", sprintf("is needed for type = \"%s\".", type))
  # One record may come as a plain vector of its p values (one row), as in
  # glmnet; any number of rows from 1 on.
  if (is.atomic(newx) && is.null(dim(newx)) && (is.numeric(newx) || is.logical(newx)) &&
      !is.object(newx) && length(newx) == object$dim[1L]) {
    newx <- matrix(newx, nrow = 1L, dimnames = list(NULL, names(newx)))
  }
  newx <- check_x(newx, "newx", min_rows = 1L)
  if (ncol(newx) != object$dim[1L]) {
    dpglmnet_abort("newx", sprintf("must have %d columns, not %d.",
                                   object$dim[1L], ncol(newx)))
  }
  newx <- clamp_like_fit(newx, object)
  link <- as.matrix(newx %*% coefs[-1L, , drop = FALSE])
  link <- sweep(link, 2L, as.numeric(coefs[1L, ]), "+")
  colnames(link) <- colnames(coefs)
  if (type == "link") return(link)
  family <- dpglmnet_family(object$family)
  if (type == "response") return(family$linkinv(link))
  if (!family$classes) {
    dpglmnet_abort("type", sprintf("= \"class\" needs a family with classes, not \"%s\".",
                                   family$name))
  }
  classes <- matrix(object$classnames[(link > 0) + 1L], nrow(link), ncol(link),
                    dimnames = dimnames(link))
  classes
}

# The fit read x clamped to the public `x.bounds` (a per-record map, part of
# the privacy model): new records are clamped to the same public bounds, and
# to nothing else, so that predict() is the linear predictor of coef() for
# every record inside the bounds.
clamp_like_fit <- function(newx, object) {
  bound <- object$settings$x.bounds
  if (is.null(bound)) return(newx)
  newx <- as.matrix(newx)
  n <- nrow(newx)
  pmin(pmax(newx, rep(-bound, each = n)), rep(bound, each = n))
}

#' Plot the coefficient paths of a dpglmnet fit
#'
#' @param x A `"dpglmnet"` fit.
#' @param xvar `"lambda"` (log lambda; log radius for the l1-ball solvers)
#'   or `"norm"` (L1 norm of the coefficients).
#' @param label Label each curve with its variable name.
#' @param ... Passed to [graphics::matplot()].
#' @return `x`, invisibly.
#' @export
plot.dpglmnet <- function(x, xvar = c("lambda", "norm"), label = FALSE, ...) {
  xvar <- check_choice(xvar, c("lambda", "norm"), "xvar")
  check_flag(label, "label")
  beta <- as.matrix(x$beta)
  index <- if (xvar == "lambda") log(x$lambda) else colSums(abs(beta))
  xlab <- if (xvar == "norm") "L1 Norm" else if (is_radius_path(x)) "Log Radius" else "Log Lambda"
  graphics::matplot(index, t(beta), type = "l", lty = 1, xlab = xlab,
                    ylab = "Coefficients", ...)
  graphics::axis(3, at = index, labels = x$df, tick = FALSE, line = 0)
  if (label) {
    end <- if (xvar == "lambda" && !is_radius_path(x)) which.min(index) else which.max(index)
    graphics::text(index[end], beta[, end], labels = rownames(beta), pos = 4,
                   cex = 0.7, xpd = TRUE)
  }
  invisible(x)
}

# TRUE for fits whose path parameter is an l1 radius (R/l1.R).
is_radius_path <- function(object) identical(object$settings$path_parameter, "radius")

# The clipping threshold as summary() prints it: a number, or the released
# quantiles (clip = "quantile", R/scales.R).
clip_text <- function(settings) {
  if (!identical(settings$clip, "quantile")) return(format(settings$clip))
  if (is.null(settings$scale_levels) || !"clip" %in% names(settings$scale_levels)) {
    return("none (epsilon = Inf: nothing is clipped)")
  }
  released <- if (is.null(settings$coordinate_clip)) settings$clip_threshold
              else settings$coordinate_clip
  sprintf("released %.3g%% quantiles (%s)", 100 * settings$scale_levels[["clip"]],
          paste(format(signif(released, 3)), collapse = ", "))
}
