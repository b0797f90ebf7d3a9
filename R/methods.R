# S3 methods for "dpglmnet" fits. Everything here is post-processing of the
# released path (free for privacy); nothing refits on data.

#' Print a dpglmnet fit
#'
#' Prints the call, the privacy spent in words (the budget, the neighbouring
#' relation, how the releases compose), how much noise the updates put on
#' the coefficients (on the original scale of `x` and `y`, when the solver
#' reports it), and the path (number of non-zero coefficients and lambda).
#' glmnet's `%Dev` column is not shown: the training deviance is computed
#' from the records and is not part of the private release. For the l1-ball
#' solvers (`"dpfw"`, `"nmd"`) the path parameter is the l1 radius, printed
#' as `Radius` (it is stored in `lambda`). The full ledger is
#' `print(fit$privacy, details = TRUE)`.
#' @param x A `"dpglmnet"` fit.
#' @param digits Significant digits.
#' @param ... Unused.
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(300 * 3), 300, 3)
#' y <- drop(x %*% c(1, -1, 0)) + rnorm(300)
#' fit <- dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 6)
#' print(fit)
#' print(fit$privacy)                  # the ledger, folded
#' print(fit$privacy, details = TRUE)  # the full table
#' @export
print.dpglmnet <- function(x, digits = max(3, getOption("digits") - 3), ...) {
  cat("\nCall: ", deparse(x$call), "\n\n")
  cat(wrap_text(paste("Privacy:", format_privacy_line(x$privacy))), sep = "\n")
  # the solver, and why when solver = "auto" chose it (R/highdim.R)
  if (!is.null(x$settings$solver)) {
    cat(wrap_text(paste0("Solver: ", x$settings$solver,
                         if (!is.null(x$settings$solver_choice))
                           paste0(" (", x$settings$solver_choice, ")"))), sep = "\n")
  }
  noise <- coefficient_noise_text(x)
  if (!is.null(noise)) cat(wrap_text(paste("Noise:", noise)), sep = "\n")
  # (factors fitted with all their dummies, R/coding.R)
  if (length(x$settings$full_coding)) {
    cat(wrap_text(paste0(
      "Factors: ", paste0("`", x$settings$full_coding, "`", collapse = ", "),
      " fitted with a dummy for every level (the privacy ledger counts them),",
      " reported in the contrasts model.matrix() gives them (treatment; polynomial",
      " for an ordered factor)")), sep = "\n")
  }
  ones_column_text(x$settings)
  narrowed_clamp_text(x)
  y_interval <- fit_y_interval(x$settings)
  if (!is.null(y_interval) && isTRUE(x$settings$has_offset) &&
      dpglmnet_family(x$family)$offset_in_response) {
    cat(sprintf("Response: y - offset within [%s, %s] (`y.bound` widened by `offset.bound`)\n",
                format(y_interval$lower, digits = digits),
                format(y_interval$upper, digits = digits)))
  } else if (!is.null(y_interval) && y_interval$lower != -y_interval$upper) {
    cat(sprintf("Response: y clamped to its public interval [%s, %s] (`y.bound`)\n",
                format(y_interval$lower, digits = digits),
                format(y_interval$upper, digits = digits)))
  }
  print_weights_offset(x$settings, digits)
  cat("\n")
  if (is_radius_path(x)) {
    cat("Path over l1 radii (stored in `lambda`; `s` in coef/predict is a radius)\n")
    print(data.frame(Df = x$df, Radius = signif(x$lambda, digits)))
  } else {
    print(data.frame(Df = x$df, Lambda = signif(x$lambda, digits)))
  }
  invisible(x)
}

# Text wrapped to the console width, continuation lines indented.
wrap_text <- function(text, indent = 0, exdent = 2) {
  strwrap(text, width = max(40L, getOption("width") - 2L), indent = indent,
          exdent = exdent)
}

# The sd of the noise one update adds to each coefficient, on the original
# scale (released standardization scales times the solver's public noise;
# post-processing), per column; NULL when the solver reports none or the
# fit is not private. A column treated as constant gets NA (its
# coefficient is held at 0).
coefficient_noise_by_column <- function(object) {
  settings <- object$settings
  noise <- settings$coefficient_noise
  p <- object$dim[1L]
  if (!length(noise) || !is.finite(object$privacy$target_epsilon) || !any(noise > 0)) {
    return(NULL)
  }
  # per column, one for all columns, or (DP-SCD) one per lambda, the same
  # on every column
  by_column <- if (identical(settings$coefficient_noise_per, "lambda")) {
    rep(stats::median(noise), p)
  } else rep_len(noise, p)
  r <- settings$standardization
  if (!is.null(r)) {
    by_column <- by_column * r$y_sd * r$x_scale
    by_column[r$x_constant] <- NA
  } else if (!is.null(settings$bound_scale)) {
    # columns divided by their public half-widths (R/highdim.R)
    by_column <- by_column * rep_len(settings$bound_scale, p)
  }
  stats::setNames(by_column, rownames(object$beta))
}

coefficient_noise_text <- function(object) {
  noise <- coefficient_noise_by_column(object)
  if (is.null(noise) || all(is.na(noise))) return(NULL)
  shown <- noise[!is.na(noise)]
  spread <- if (length(shown) > 1L && diff(range(shown)) > 0.05 * stats::median(shown)) {
    sprintf("; from %s to %s", format(signif(min(shown), 2)), format(signif(max(shown), 2)))
  } else ""
  sprintf("%s Gaussian noise of sd about %s on the original scale (median over %d column%s%s; per column in summary()).",
    noise_meaning(object), format(signif(stats::median(shown), 2)), length(shown),
    if (length(shown) > 1L) "s" else "", spread)
}

# What coefficient_noise measures: the noise of one update (DP-CD, DP-SGD),
# or what the steps of one lambda leave in a coefficient (DP-SCD, whose
# noise accumulates; the median over the lambdas, largest at the smallest).
noise_meaning <- function(object) {
  if (identical(object$settings$coefficient_noise_per, "lambda")) {
    "the steps at each lambda leave in every coefficient (median over the lambdas)"
  } else "each coefficient update adds"
}

#' Summarize a dpglmnet fit
#'
#' The call, family, dimensions and solver settings; the privacy ledger;
#' the released clamps and scales of the private standardization, one row
#' per column (the public bound, the released clamp, mean and standard
#' deviation, whether the column was treated as constant, and the noise an
#' update adds to its coefficient); and the path. Everything shown is public
#' or released (see the ledger).
#' @param object A `"dpglmnet"` fit.
#' @param x A `"summary.dpglmnet"` object.
#' @param digits Significant digits of the tables.
#' @param ... Unused.
#' @return An object of class `"summary.dpglmnet"`: the call, family,
#'   dimensions, solver settings, the full privacy ledger, `columns` (the
#'   per-column table, `NULL` without standardization or noise figures),
#'   `response` (the bound, mean and sd of a standardized `y`, and the
#'   released clamp `clamp_lower`, `clamp_upper` that `y` is read through;
#'   for the intercept alone, its bound, released mean (the intercept) and
#'   clamp; with an interval `y.bound`, also its ends `bound_lower`,
#'   `bound_upper`) and the path.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(300 * 3), 300, 3, dimnames = list(NULL, c("a", "b", "c")))
#' y <- drop(x %*% c(1, -1, 0)) + rnorm(300)
#' fit <- dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 6)
#' summary(fit)
#' summary(fit)$columns
#' @export
summary.dpglmnet <- function(object, ...) {
  tables <- standardization_tables(object)
  structure(list(
    call = object$call, family = object$family, nobs = object$nobs,
    nvars = object$dim[1L], intercept = object$intercept,
    settings = object$settings, privacy = object$privacy,
    columns = tables$columns, response = tables$response,
    path = if (is_radius_path(object)) data.frame(Df = object$df, Radius = object$lambda)
           else data.frame(Df = object$df, Lambda = object$lambda)
  ), class = "summary.dpglmnet")
}

# The released standardization, per column, and of y: post-processing of
# released values and public bounds.
standardization_tables <- function(object) {
  s <- object$settings
  r <- s$standardization
  noise <- coefficient_noise_by_column(object)
  names <- rownames(object$beta)
  p <- length(names)
  response <- NULL
  y_interval <- fit_y_interval(s)
  asymmetric_y <- !is.null(y_interval) && y_interval$lower != -y_interval$upper
  if (!is.null(r) && !identical(r$y_sd, 1)) {
    response <- data.frame(row.names = "y", bound = s$y.bound, mean = r$y_mean, sd = r$y_sd)
    # the released clamp y is read through (from its range histograms; its
    # public interval when none were released)
    if (!is.null(r$y_lower) && !is.null(r$y_upper)) {
      response$clamp_lower <- r$y_lower
      response$clamp_upper <- r$y_upper
    }
  } else if (isTRUE(s$intercept_only) && !is.null(s$y.bound) &&
             length(s$intercept_interval) == 2L) {
    # the intercept alone (R/intercept.R): its released mean (the intercept)
    # of y read clamped to the released range (or the public interval)
    response <- data.frame(row.names = "y", bound = s$y.bound,
                           mean = as.numeric(object$a0)[1L],
                           clamp_lower = s$intercept_interval[1L],
                           clamp_upper = s$intercept_interval[2L])
  } else if (asymmetric_y) {
    response <- data.frame(row.names = "y", bound = s$y.bound)
  }
  # a public interval other than [-y.bound, y.bound]: shown as it was given
  if (asymmetric_y) {
    response$bound_lower <- y_interval$lower
    response$bound_upper <- y_interval$upper
  }
  if (is.null(r) && is.null(noise)) return(list(columns = NULL, response = response))
  columns <- data.frame(row.names = names, check.names = FALSE,
                        bound = if (is.null(s$x.bounds)) rep(NA_real_, p) else s$x.bounds)
  interval <- fit_x_interval(s, p)
  # public intervals other than [-bound, bound]: shown as they were given
  if (!is.null(interval) && any(interval$lower != -interval$upper)) {
    columns$bound_lower <- interval$lower
    columns$bound_upper <- interval$upper
  }
  if (!is.null(r)) {
    clamp <- released_clamp(r$x_lower, r$x_upper, interval, p)
    columns$clamp_lower <- clamp$lower
    columns$clamp_upper <- clamp$upper
    columns$mean <- r$x_mean
    columns$sd <- r$x_sd
    columns$constant <- r$x_constant
    # kept at the scale floor: their spread could not be resolved (R/standardize.R)
    if (any(r$x_unresolved)) columns$unresolved <- r$x_unresolved
    # at the scale floor though their released counts show spread
    if (any(r$x_floored)) columns$floored <- r$x_floored
  }
  if (!is.null(noise)) columns$noise_sd <- unname(noise)
  list(columns = columns, response = response)
}

# The clamp the standardization read each column through: the released
# range when the histograms were released, else the public interval
# (fit_x_interval(), NULL without bounds).
released_clamp <- function(lower, upper, interval, p) {
  if (!is.null(lower)) return(list(lower = lower, upper = upper))
  if (!is.null(interval)) return(interval)
  list(lower = rep(-Inf, p), upper = rep(Inf, p))
}

#' @rdname summary.dpglmnet
#' @export
print.summary.dpglmnet <- function(x, digits = max(3, getOption("digits") - 3), ...) {
  cat("\nCall: ", deparse(x$call), "\n\n")
  s <- x$settings
  cat(sprintf("Family: %s; %d records, %d variables; intercept: %s\n",
              x$family, x$nobs, x$nvars, x$intercept))
  ones_column_text(s)
  if (isTRUE(s$intercept_only)) {
    # the intercept alone (R/intercept.R): one release, no passes or clip
    # (a gaussian y: clamped to the range released first within its public
    # interval)
    public <- s$intercept_public_interval
    cat(sprintf(paste0("Solver: %s: the intercept alone (every coefficient 0), the mean",
                       " of y clamped to %s[%g, %g]%s with %s noise of scale %.4g\n\n"),
                s$solver, if (length(public)) "its released range " else "",
                s$intercept_interval[1L], s$intercept_interval[2L],
                if (length(public)) sprintf(" (within [%g, %g])", public[1L], public[2L]) else "",
                s$intercept_noise, s$intercept_noise_scale))
  } else if (identical(s$path_parameter, "radius")) {
    cat(sprintf("Solver: %s over the l1 ball, %g steps per radius, step %g, clip %g\n",
                s$solver, s$steps_per_radius, s$step, s$clip))
  } else {
    cat(sprintf(
      "Solver: %s, %d passes per lambda, step %g, clip %s%s%s\n",
      s$solver, s$passes, s$step, clip_text(s),
      if (is.null(s$selection)) "" else paste0(", ", s$selection, " order"),
      if (isTRUE(s$average)) ", periodic averaging" else ""))
  }
  if (!isTRUE(s$intercept_only)) {
    # (z: the calibrated noise level; a row's multiplier is a factor of it,
    # the path's lower where held coordinates left it their budget)
    cat(sprintf(paste0("Smoothness constants: %s; noise level z = %.4g\n",
                       "  (each release's noise multiplier: the ledger below)\n"),
                s$smoothness, s$noise_multiplier))
    # (DP-CD's split intercept, R/dpcd.R: the released proportion)
    if (isTRUE(s$split_intercept) && !is.null(s$intercept_response_mean)) {
      cat(sprintf("Intercept: split; released proportion of ones %.4g%s\n",
                  s$intercept_response_mean,
                  if (isTRUE(s$intercept_start != 0)) " (the fit started at its logit)" else ""))
    }
    cat("\n")
  }
  print(x$privacy)
  if (!is.null(x$columns)) {
    noise_note <- if (!is.null(x$columns$noise_sd)) {
      sprintf("; noise_sd: the sd of the noise %s, original scale",
              sub("every coefficient", "the coefficient",
                  sub("each coefficient update adds", "one update adds to the coefficient",
                      noise_meaning(list(settings = s)), fixed = TRUE), fixed = TRUE))
    } else ""
    cat("\n")
    cat(wrap_text(if (isTRUE(s$standardize)) {
      paste0("Standardization (the released clamp, mean and sd of each column", noise_note, "):")
    } else paste0("Columns (bound", noise_note, "):"), exdent = 0), sep = "\n")
    print(signif_table(x$columns, digits))
  }
  if (!is.null(x$response)) {
    cat(if (is.null(x$response$sd) && !is.null(x$response$clamp_lower)) {
      "\nResponse (y read clamped to [clamp_lower, clamp_upper]; its released mean, the intercept):\n"
    } else if (is.null(x$response$sd)) {
      "\nResponse (y clamped to its interval [bound_lower, bound_upper]):\n"
    } else if (is.null(x$response$clamp_lower)) {
      "\nResponse (released mean and sd of y clamped to its bound):\n"
    } else "\nResponse (y read clamped to [clamp_lower, clamp_upper]; its released mean and sd):\n")
    print(signif_table(x$response, digits))
  }
  cat("\nPath:\n")
  print(signif_table(x$path, digits))
  invisible(x)
}

signif_table <- function(table, digits) {
  numeric <- vapply(table, is.double, logical(1))
  table[numeric] <- lapply(table[numeric], signif, digits = digits)
  table
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

# An `s` off a one-lambda fit's lambda returns that fit, as glmnet does;
# but a glmnet user never gets a one-lambda fit from the defaults, which
# make one where the budget affords no path (an independent first-use
# review: every s of a script silently gave the same coefficients).
warn_single_lambda <- function(object, s) {
  if (length(object$lambda) != 1L || !length(s)) return(invisible())
  # (nor an intercept-only fit, which said so when fitted: no lambda to pick)
  if (identical(object$settings$path_parameter, "radius") ||
      isTRUE(object$settings$intercept_only)) {
    return(invisible())
  }
  lambda <- object$lambda
  off <- abs(s - lambda) > 1e-8 * max(lambda, 1e-300)
  if (!any(off)) return(invisible())
  dpglmnet_warn(sprintf(paste(
    "the fit has a single lambda (%s): s = %s gives its coefficients, as glmnet",
    "does for a one-lambda fit. The defaults fit one lambda where the budget",
    "affords no path (fit$settings$lambda_max_source says so)."),
    format(signif(lambda, 4)), paste(format(signif(s[off], 4)), collapse = ", ")))
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
  warn_single_lambda(object, s)
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
#' `predict()` is the linear predictor of `coef()` on the records as the fit
#' read them: `newx` is clamped to the ranges the fit learnt from, the
#' ranges released by private standardization (printed by `summary()`, in
#' `fit$settings$standardization$x_lower` and `x_upper`, within the public
#' `x.bounds`), or the public `x.bounds` when there are none. For new records
#' inside those ranges `predict(fit, newx, s)` equals
#' `cbind(1, newx) %*% coef(fit, s)`; beyond them the prediction is that of
#' the nearest value the model was fit on, not a linear extrapolation
#' (records winsorized in training but extrapolated in prediction gave 3 to
#' 7 times the held-out error of `cv.glmnet` on California, clamped 0.93 to
#' 1.07 times).
#'
#' `exact = TRUE` at values of `s` off the fitted sequence would refit the
#' path on the training records (glmnet's meaning): a new release that the
#' fit's ledger does not cover, so it is an error; at fitted values it
#' returns them, as interpolation does. `newoffset` is required when the
#' fit has an offset and an error otherwise. Any other argument not listed here is an error rather
#' than silently ignored.
#' @param object A `"dpglmnet"` fit.
#' @param newx New values for `x` at which predictions are made, one row
#'   per record: a matrix (dense or sparse) with the fit's columns (a single
#'   record may also be given as a vector of its `p` values), or, for a fit
#'   made from a data frame or formula, a data frame with the original
#'   columns, expanded as the training data were (see [dpglmnet()]). Not
#'   needed for `type = "coefficients"` or `"nonzero"`.
#' @param s Values of lambda (of the l1 radius for the l1-ball solvers
#'   `"dpfw"` and `"nmd"`); default the fitted sequence.
#' @param type `"link"` (linear predictor), `"response"` (fitted values or
#'   probabilities), `"class"` (binomial: the class label), `"coefficients"`
#'   or `"nonzero"` (indices of non-zero coefficients, one vector per lambda).
#' @param exact `FALSE` (default): interpolate between the fitted lambdas.
#'   `TRUE` is accepted only when every `s` is a fitted lambda.
#' @param newoffset For a fit with an `offset` (see [dpglmnet()]): the
#'   offsets of the new records, one per row of `newx`, added to the linear
#'   predictor (clamped to the fit's `offset.bound`, as the training offsets
#'   were). Required for `type = "link"`, `"response"` and `"class"` when the
#'   fit has an offset (as glmnet); an error when it has none.
#' @param ... Nothing: any argument here is an error.
#' @return `coef`: a sparse matrix with the intercept in the first row.
#'   `predict`: a matrix with one column per lambda, or a list for
#'   `"nonzero"`.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(300 * 3), 300, 3)
#' y <- drop(x %*% c(1, -1, 0)) + rnorm(300)
#' fit <- dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 6,
#'                 lambda = c(0.5, 0.1, 0.02))
#' coef(fit, s = 0.05)                      # interpolated: free
#' predict(fit, newx = x[1, ], s = 0.05)    # one record
#' predict(fit, type = "nonzero")
#' @export
coef.dpglmnet <- function(object, s = NULL, exact = FALSE, ...) {
  reject_unknown_arguments(list(...), "coef")
  s <- check_s(s)
  check_exact(exact, s, object)
  path_coefficients(object, s)
}

# exact = TRUE is glmnet's refit at new lambdas: refused where it would
# read the records again (off the fitted values), honest where it is the
# interpolation anyway (at fitted values).
check_exact <- function(exact, s, object) {
  check_flag(exact, "exact")
  if (exact && !is.null(s) && !all(s %in% object$lambda)) {
    dpglmnet_abort("exact", paste(
      "= TRUE would refit the path at values of `s` that were not fitted,",
      "reading the training records again: a release that the fit's privacy",
      "ledger does not cover (it would spend more budget). Use exact = FALSE",
      "(linear interpolation between the fitted lambdas, free), or fit again",
      "with dpglmnet(lambda = ...) under a budget of its own."))
  }
  invisible()
}

#' @rdname coef.dpglmnet
#' @export
predict.dpglmnet <- function(object, newx, s = NULL,
                             type = c("link", "response", "class",
                                      "coefficients", "nonzero"),
                             exact = FALSE, newoffset, ...) {
  reject_unknown_arguments(list(...), "predict")
  has_offset <- isTRUE(object$settings$has_offset)
  if (!missing(newoffset) && !has_offset) {
    dpglmnet_abort("newoffset", paste(
      "is given, but the fit has no offset (fit with `offset` to use one), so",
      "there is none to replace. Add an offset to the linear predictor yourself."))
  }
  type <- check_choice(type, c("link", "response", "class", "coefficients",
                               "nonzero"), "type")
  s <- check_s(s)
  check_exact(exact, s, object)
  coefs <- path_coefficients(object, s)
  if (type == "coefficients") return(coefs)
  if (type == "nonzero") {
    beta <- coefs[-1L, , drop = FALSE]
    return(lapply(stats::setNames(seq_len(ncol(beta)), colnames(beta)),
                  function(l) which(beta[, l] != 0)))
  }
  if (missing(newx)) dpglmnet_abort("newx", sprintf("is needed for type = \"%s\".", type))
  if (is.data.frame(newx)) {
    if (is.null(object$recipe)) {
      dpglmnet_abort("newx", paste(
        "is a data frame, but the fit was made from a matrix: give a matrix with",
        "the fit's columns (or fit with a data frame or a formula)."))
    }
    newx <- expand_newx(newx, object$recipe)
  }
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
  offset <- if (has_offset) {
    if (missing(newoffset)) {
      dpglmnet_abort("newoffset", paste(
        "must be given: the fit has an offset, which is part of the linear",
        "predictor (as glmnet)."))
    }
    check_newoffset(newoffset, nrow(newx), object$settings)
  }
  newx <- clamp_like_fit(newx, object)
  link <- as.matrix(newx %*% coefs[-1L, , drop = FALSE])
  link <- sweep(link, 2L, as.numeric(coefs[1L, ]), "+")
  if (!is.null(offset)) link <- link + offset
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

# The clamp the fit read x through, per column: the ranges released by
# private standardization (fit$settings$standardization: x_lower, x_upper,
# within the public bounds) when there are any, else the public `x.bounds`;
# NULL when neither (epsilon = Inf without bounds). Both are public (the
# ranges are released), so predictions may use them. The public intervals
# are [-b_j, b_j] for a symmetric bound (R/bounds.R).
prediction_clamp <- function(object) {
  r <- object$settings$standardization
  p <- object$dim[1L]
  if (!is.null(r$x_lower) && !is.null(r$x_upper)) {
    return(list(lower = rep_len(as.double(r$x_lower), p),
                upper = rep_len(as.double(r$x_upper), p)))
  }
  fit_x_interval(object$settings, p)
}

# What print() says when columns with a coefficient were read clamped to
# released ranges inside their public interval: coef() is then the model of
# the clamped values, and a linear predictor made by hand from it must clamp
# too (check_times, modeldata: a column clamped to [0, 0.09] with values up
# to 47 gave 3 times predict()'s test MSE through cbind(1, x) %*% coef()).
narrowed_clamp_text <- function(object) {
  r <- object$settings$standardization
  p <- object$dim[1L]
  if (is.null(r$x_lower) || is.null(r$x_upper) || !p) return(invisible())
  public <- fit_x_interval(object$settings, p)
  if (is.null(public)) return(invisible())
  fitted <- Matrix::rowSums(abs(object$beta)) > 0
  narrowed <- fitted & (rep_len(r$x_lower, p) > public$lower |
                          rep_len(r$x_upper, p) < public$upper)
  if (!any(narrowed)) return(invisible())
  counted <- if (sum(fitted) == 1L) "the column with a coefficient is" else
    sprintf("%d of the %d columns with a coefficient are", sum(narrowed), sum(fitted))
  cat(wrap_text(sprintf(paste(
    "Clamps: %s read clamped to",
    "released ranges inside their `x.bounds` (summary() lists them): coef() is",
    "the model of the clamped values, and predict() clamps new records the same",
    "way (clamp them too before using coef() by hand)."), counted)),
    sep = "\n")
}

# The model was fit on x clamped to prediction_clamp(): new records are
# clamped the same way, so predict() is the linear predictor of coef() for
# every record inside the released ranges (summary() prints them). Measured
# on California (5 splits, epsilon 0.5 to 5): a model fit on records
# winsorized to their released ranges but applied to raw test records with
# outliers (an average occupancy of 1243 where the range ends at 9.7) had
# 2.7-7 times cv.glmnet's held-out error (up to 29 times on one split);
# applied to the clamped records, 0.93-1.07 times.
clamp_like_fit <- function(newx, object) {
  clamp <- prediction_clamp(object)
  if (is.null(clamp)) return(newx)
  newx <- as.matrix(newx)
  n <- nrow(newx)
  pmin(pmax(newx, rep(clamp$lower, each = n)), rep(clamp$upper, each = n))
}

#' Plot the coefficient paths of a dpglmnet fit
#'
#' As glmnet's plot: one curve per coefficient against log lambda (log
#' radius for the l1-ball solvers) or the L1 norm. A fit at a single lambda
#' has no path: its coefficients are drawn as a dot chart instead.
#' glmnet's `xvar = "dev"` (the fraction of deviance explained) is refused:
#' it needs the training deviance, computed from the records, a release that
#' the fit's privacy ledger does not cover.
#' @param x A `"dpglmnet"` fit.
#' @param xvar `"lambda"` (log lambda; log radius for the l1-ball solvers)
#'   or `"norm"` (L1 norm of the coefficients).
#' @param label Label each curve with its variable name.
#' @param ... Passed to [graphics::matplot()] (to [graphics::dotchart()] for
#'   a single lambda).
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(300 * 4), 300, 4)
#' y <- drop(x %*% c(1, -1, 0.5, 0)) + rnorm(300)
#' fit <- dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 6,
#'                 lambda = exp(seq(log(0.5), log(0.01), length.out = 5)))
#' plot(fit, label = TRUE)
#' plot(fit, xvar = "norm")
#' one <- dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 6, lambda = 0.05)
#' plot(one)  # a dot chart of the coefficients
#' @export
plot.dpglmnet <- function(x, xvar = c("lambda", "norm"), label = FALSE, ...) {
  if (identical(xvar, "dev")) {
    dpglmnet_abort("xvar", paste(
      "= \"dev\" is not available: the fraction of deviance explained needs",
      "the training deviance, computed from the records, a release that the",
      "fit's privacy ledger does not cover. Use xvar = \"lambda\" or \"norm\",",
      "or deviance(fit, newx, newy) on held-out records."))
  }
  xvar <- check_choice(xvar, c("lambda", "norm"), "xvar")
  check_flag(label, "label")
  beta <- as.matrix(x$beta)
  if (ncol(beta) == 1L) return(plot_single_lambda(x, beta, ...))
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

# One lambda, no path: the coefficients as a dot chart, zero marked.
plot_single_lambda <- function(x, beta, ...) {
  parameter <- if (is_radius_path(x)) "l1 radius" else "lambda"
  graphics::dotchart(rev(beta[, 1L]), labels = rev(rownames(beta)),
                     xlab = "Coefficient",
                     main = sprintf("Coefficients at %s = %s (%d nonzero)", parameter,
                                    format(signif(x$lambda, 4)), x$df), ...)
  graphics::abline(v = 0, lty = 3)
  invisible(x)
}

# TRUE for fits whose path parameter is an l1 radius (R/l1.R).
is_radius_path <- function(object) identical(object$settings$path_parameter, "radius")

# The clipping threshold as summary() prints it: a number, or the released
# quantiles (clip = "quantile", R/scales.R).
clip_text <- function(settings) {
  if (!identical(settings$clip, "quantile")) {
    # (DP-CD's default clip raised where the budget leaves its noise small, R/dpcd.R)
    factor <- settings$clip_factor
    text <- if (!is.null(factor) && factor > 1) {
      clips <- settings$coordinate_clip
      nominal <- settings$clip * factor
      capped <- length(clips) && is.numeric(settings$clip) &&
        any(clips < 0.999 * nominal * sqrt(settings$smoothness_values /
                                           sum(settings$smoothness_values)))
      sprintf("%s x %.3g (raised with the budget%s)", format(settings$clip), factor,
              if (isTRUE(capped)) {
                sprintf(paste0("; each coordinate's at most the largest term it can hold:",
                               " %.3g to %.3g"), min(clips), max(clips))
              } else "")
    } else format(settings$clip)
    # (DP-CD's adaptive clip, R/dpcd.R: the clips' factor at the end)
    adaptive <- settings$adaptive_clip_scale
    if (!is.null(adaptive)) {
      text <- sprintf(paste("%s; adaptive: the clips and noise end at %.3g of it",
                            "(released residual scale %.3g)"),
                      text, adaptive$factor,
                      if (length(adaptive$released)) adaptive$released[length(adaptive$released)]
                      else NA_real_)
    }
    return(text)
  }
  if (is.null(settings$scale_levels) || !"clip" %in% names(settings$scale_levels)) {
    return("none (epsilon = Inf: nothing is clipped)")
  }
  released <- if (is.null(settings$coordinate_clip)) settings$clip_threshold
              else settings$coordinate_clip
  sprintf("released %.3g%% quantiles (%s)", 100 * settings$scale_levels[["clip"]],
          paste(format(signif(released, 3)), collapse = ", "))
}
