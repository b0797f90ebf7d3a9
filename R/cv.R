#' Private choice of lambda: the counterpart of cv.glmnet
#'
#' Splits the records once, at random and independently of the data, into a
#' training part and a validation part; fits the private path of
#' [dpglmnet()] on the training part; and chooses lambda on the validation
#' part with the exponential mechanism (report-noisy-max with Gumbel noise)
#' on a bounded per-record validation loss.
#'
#' @section Privacy:
#' A record is in one part only and the split does not depend on the data,
#' so the two releases compose in parallel: replacing one record changes
#' either the path (which spends at most `epsilon`, `delta`) or the choice
#' (which is `epsilon`-DP), never both. The total is the larger of the two,
#' not their sum: the ledger (`$privacy`) lists both with their `part` and
#' computes the maximum. (Parallel composition also holds when, as here, the
#' choice uses the released path.)
#'
#' The choice maximises \eqn{-\sum_{i \in V} \min(\ell_i(\lambda), B)} plus
#' Gumbel noise of scale \eqn{2B/\epsilon}: replacing one validation record
#' changes each summed loss by at most \eqn{B}, its replace-one sensitivity,
#' so the choice is \eqn{\epsilon}-DP (McSherry & Talwar 2007). No
#' validation curve is returned: releasing one would cost more budget, and
#' `lambda.1se` (which needs the curve's standard errors) is not offered.
#'
#' The split is drawn from R's random number generator, as the seeds of the
#' noise are with `rng = "seeded"`; the returned `validation` indices are
#' its output. Use `rng = "secure"` when no one who sees them, or could
#' guess the seed, may be able to reconstruct the noise.
#'
#' One split rather than K folds: each record would be in K - 1 training
#' parts, so K-fold paths compose sequentially over those parts and need
#' about \eqn{\sqrt{K-1}} times more noise (in GDP, \eqn{\mu} adds in
#' squares over the K - 1 paths that read a record) for the same budget.
#'
#' @param x,y As in [dpglmnet()].
#' @param ... Further arguments of [dpglmnet()] (`family`, `alpha`,
#'   `x.bounds`, `y.bound`, `nlambda`, ...), used for the path.
#' @param epsilon,delta The budget of the whole procedure; `delta` defaults
#'   to \eqn{1/n^2} for the n records of `x`.
#' @param type.measure The validation loss: `"mse"` (gaussian: squared
#'   residual), `"deviance"` (binomial: \eqn{-2} log-likelihood of the record,
#'   the default) or `"class"` (binomial: misclassification).
#' @param validation.fraction Fraction of the records held out for the choice.
#' @param loss.bound The bound \eqn{B} each record's loss is clipped to, so
#'   the sensitivity of the summed loss. Default: gaussian, \eqn{(2 s_y)^2}
#'   with \eqn{s_y} the privately released standard deviation of y (when the
#'   path standardized y, i.e. `y.bound` was given), else `y.bound^2`;
#'   binomial deviance \eqn{2\log 20} (a predicted probability of 0.05 for the
#'   observed class); class 1.
#' @param rng As in [dpglmnet()]: the source of the selection's noise.
#' @return An object of class `"cv.dpglmnet"`: `lambda`, `lambda.min` (the
#'   privately chosen lambda), `index` (its position), `dpglmnet.fit` (the
#'   path, fitted on the training part), `nzero`, `name` (the loss),
#'   `validation` (indices of the validation records: drawn independently
#'   of the data), `loss.bound`, `selection.scale` (the Gumbel scale),
#'   `privacy` (the ledger of the whole procedure) and `call`.
#' @examples
#' set.seed(1)
#' n <- 2000; p <- 5
#' x <- matrix(rnorm(n * p), n, p)
#' y <- drop(x %*% c(1, -1, 0, 0, 0.5)) + rnorm(n)
#' cvfit <- cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8)
#' cvfit
#' coef(cvfit, s = "lambda.min")
#' @export
cv.dpglmnet <- function(x, y, ..., epsilon = 1, delta = 1 / nrow(x)^2,
                        type.measure = c("default", "mse", "deviance", "class"),
                        validation.fraction = 0.2, loss.bound = NULL,
                        rng = c("seeded", "secure")) {
  call <- match.call()
  arguments <- list(...)
  if (!is.null(arguments$lambda) && length(arguments$lambda) < 2L) {
    dpglmnet_abort("lambda", "must have at least two values to choose from.")
  }
  x <- check_x(x)
  n <- nrow(x)
  family <- dpglmnet_family(if (is.null(arguments$family)) "gaussian" else arguments$family)
  response <- check_y(y, n, family$name)
  epsilon <- check_numeric(epsilon, "epsilon", lower = 0, lower_open = TRUE, finite = FALSE)
  delta <- check_numeric(delta, "delta", 0, 1, lower_open = TRUE, upper_open = TRUE)
  type.measure <- check_choice(type.measure, c("default", "mse", "deviance", "class"),
                               "type.measure")
  if (type.measure == "default") {
    type.measure <- if (family$name == "gaussian") "mse" else "deviance"
  }
  allowed <- if (family$name == "gaussian") "mse" else c("deviance", "class")
  if (!type.measure %in% allowed) {
    dpglmnet_abort("type.measure", sprintf("must be %s for family = \"%s\".",
                                           paste0('"', allowed, '"', collapse = " or "),
                                           family$name))
  }
  validation.fraction <- check_numeric(validation.fraction, "validation.fraction", 0, 1,
                                       lower_open = TRUE, upper_open = TRUE)
  held_out <- round(validation.fraction * n)
  if (held_out < 1L || n - held_out < 2L) {
    dpglmnet_abort("validation.fraction", sprintf(
      "leaves %d validation and %d training records; both parts need records.",
      held_out, n - held_out))
  }
  if (!is.null(loss.bound)) {
    loss.bound <- check_numeric(loss.bound, "loss.bound", lower = 0, lower_open = TRUE)
  }
  rng <- check_choice(rng, c("seeded", "secure"), "rng")
  if (family$name == "gaussian" && is.null(loss.bound) && is.null(arguments$y.bound)) {
    dpglmnet_abort("loss.bound", paste(
      "or `y.bound` must be given for family = \"gaussian\": the validation",
      "loss is clipped to a public bound, its sensitivity."))
  }

  # The split: drawn from R's RNG, independently of the data.
  validation <- sort(sample.int(n, held_out))
  fit <- do.call(dpglmnet, c(list(x = x[-validation, , drop = FALSE],
                                  y = subset_response(y, -validation),
                                  epsilon = epsilon, delta = delta, rng = rng),
                             arguments))
  if (is.null(loss.bound)) {
    loss.bound <- default_loss_bound(type.measure, fit, arguments$y.bound)
  }
  if (length(fit$lambda) < 2L) {
    dpglmnet_warn(paste(
      "the budget affords a single lambda on this data (see `nlambda` in",
      "?dpglmnet): nothing to choose; the validation part is unused."))
    return(structure(list(
      lambda = fit$lambda, lambda.min = fit$lambda,
      index = matrix(1L, dimnames = list("min", "Lambda")), dpglmnet.fit = fit,
      nzero = stats::setNames(fit$df, names(fit$a0)), name = type.measure,
      type.measure = type.measure, validation = validation, loss.bound = NA_real_,
      selection.scale = NA_real_, privacy = fit$privacy, call = call),
      class = "cv.dpglmnet"))
  }
  link <- predict(fit, x[validation, , drop = FALSE], type = "link")
  loss <- pmin(validation_loss(type.measure, family, link, response$y[validation]),
               loss.bound)
  # A non-finite loss (a diverged path) counts as the bound: every record's
  # contribution stays in [0, B], the sensitivity the noise is calibrated to.
  loss[!is.finite(loss)] <- loss.bound
  utility <- -colSums(loss)
  # Gumbel scale 2B / epsilon: the exponential mechanism for utilities of
  # replace-one sensitivity B.
  scale <- if (is.finite(epsilon)) 2 * loss.bound / epsilon else 0
  index <- .report_noisy_max_cpp(utility, list(scale = scale, draws = 1L,
                                               seed = draw_seed(),
                                               secure = rng == "secure"))
  privacy <- split_ledger(fit$privacy, scale, loss.bound, epsilon, delta, rng)
  structure(list(
    lambda = fit$lambda, lambda.min = fit$lambda[index],
    index = matrix(index, dimnames = list("min", "Lambda")),
    dpglmnet.fit = fit, nzero = stats::setNames(fit$df, names(fit$a0)),
    name = c(mse = "Mean-Squared Error", deviance = "Binomial Deviance",
             class = "Misclassification Error")[[type.measure]],
    type.measure = type.measure, validation = validation, loss.bound = loss.bound,
    selection.scale = scale, privacy = privacy, call = call
  ), class = "cv.dpglmnet")
}

subset_response <- function(y, index) {
  if (is.matrix(y)) y[index, , drop = FALSE] else y[index]
}

# Per-record validation losses (records x lambdas), before clipping.
validation_loss <- function(type.measure, family, link, y) {
  switch(type.measure,
    mse = (y - link)^2,
    deviance = 2 * family$loss(link, y),
    class = ((link > 0) != (y > 0.5)) * 1
  )
}

default_loss_bound <- function(type.measure, fit, y.bound) {
  switch(type.measure,
    mse = {
      y_sd <- fit$settings$standardization$y_sd
      # Released (private) scale of y when the path standardized it.
      if (!is.null(y_sd) && !identical(y_sd, 1)) (2 * y_sd)^2 else y.bound^2
    },
    deviance = 2 * log(20),
    class = 1
  )
}

# The ledger of the whole procedure: the path's mechanisms read the training
# part (part 1), the choice reads the validation part (part 2); they compose
# in parallel.
split_ledger <- function(path_ledger, scale, loss.bound, epsilon, delta, rng) {
  path_rows <- path_ledger$mechanisms
  columns <- names(mechanism("", "gaussian", 0, ""))
  path_rows <- path_rows[, columns]
  path_rows$calibrated <- FALSE
  path_rows$part <- 1L
  choice <- mechanism("choice of lambda: report-noisy-max of clipped validation losses",
                      "exponential", 1, sprintf("B = %s (summed clipped loss)",
                                                format(signif(loss.bound, 4))),
                      noise_multiplier = scale / loss.bound, part = 2L)
  rows <- c(lapply(seq_len(nrow(path_rows)), function(k) as.list(path_rows[k, ])),
            list(choice))
  new_privacy_ledger(mechanism_table(rows), 0, epsilon, delta, rng)
}

#' @export
print.cv.dpglmnet <- function(x, digits = max(3, getOption("digits") - 3), ...) {
  cat("\nCall: ", deparse(x$call), "\n\n")
  cat("Privacy:", format_privacy_line(x$privacy), "\n")
  if (is.na(x$selection.scale)) {
    cat("The budget afforded a single lambda on this data: nothing was chosen.\n\n")
  } else {
    cat(sprintf("Measure: %s (per-record loss clipped at %s), chosen privately on %d\n",
                x$name, format(signif(x$loss.bound, digits)), length(x$validation)))
    cat("validation records; no validation curve is released.\n\n")
  }
  chosen <- data.frame(Lambda = signif(x$lambda.min, digits), Index = x$index[1L],
                       Nonzero = x$nzero[x$index[1L]], row.names = "min")
  # l1-ball solvers: the chosen value is a radius (stored in lambda.min).
  if (is_radius_path(x$dpglmnet.fit)) names(chosen)[1L] <- "Radius"
  print(chosen)
  invisible(x)
}

# "lambda.min" (the private choice) or numeric values of lambda.
cv_s <- function(object, s) {
  if (is.character(s)) {
    s <- check_choice(s, "lambda.min", "s")
    return(object$lambda.min)
  }
  check_s(s)
}

#' Coefficients, predictions and plot of a cv.dpglmnet fit
#'
#' As glmnet's methods for `cv.glmnet`: `s = "lambda.min"` (the default) is
#' the privately chosen lambda; numeric `s` interpolates the path. All of it
#' is post-processing of the released path and choice.
#' @param object,x A `"cv.dpglmnet"` fit.
#' @param s `"lambda.min"` or values of lambda.
#' @param newx,... As in [predict.dpglmnet()] (`type` among `...`); `...` of
#'   `plot` go to [plot.dpglmnet()].
#' @return As the methods of `"dpglmnet"` fits; `plot` returns `x`
#'   invisibly.
#' @export
coef.cv.dpglmnet <- function(object, s = "lambda.min", ...) {
  coef(object$dpglmnet.fit, s = cv_s(object, s))
}

#' @rdname coef.cv.dpglmnet
#' @export
predict.cv.dpglmnet <- function(object, newx, s = "lambda.min", ...) {
  predict(object$dpglmnet.fit, newx, s = cv_s(object, s), ...)
}

#' @rdname coef.cv.dpglmnet
#' @export
plot.cv.dpglmnet <- function(x, ...) {
  plot(x$dpglmnet.fit, ...)
  graphics::abline(v = log(x$lambda.min), lty = 3)
  invisible(x)
}
