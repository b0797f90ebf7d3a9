# The Huber loss for robust regression, a family added through the family
# protocol (R/aaa-protocols.R) and one line of the registry (R/family.R);
# its C++ half is src/dpglmnet/losses/huber.h. Huber (1964): with the
# residual r = eta - y,
#   rho(r) = r^2 / 2 for |r| <= delta,  delta (|r| - delta / 2) beyond,
# whose derivative clamp(r, -delta, delta) is bounded by delta whatever the
# record, so clipping a record's gradient term loses little, and whose
# curvature is at most 1 (the coordinate smoothness of least squares).
# delta is on the scale of y, so y is not standardized (its scale would
# change delta's meaning); x is, as for every family.

#' The Huber loss family (robust regression)
#'
#' A family for [dpglmnet()] and [cv.dpglmnet()]: the elastic-net path of
#' \eqn{(1/n) \sum_i \rho_\delta(y_i - b_0 - x_i'b)} with Huber's
#' \eqn{\rho_\delta(r) = r^2 / 2} for \eqn{|r| \le \delta} and
#' \eqn{\delta (|r| - \delta/2)} beyond: least squares for small residuals,
#' absolute error for large ones, so a few outlying responses move the fit
#' little. Its derivative is bounded by `delta` whatever the record, which
#' suits private fitting: a record's gradient term is at most `delta` (times
#' its x), so clipping it changes little.
#'
#' `delta` is public and on the scale of `y` (the residual beyond which a
#' record counts as an outlier; 1.345 times the noise sd is Huber's classic
#' choice, 95% efficiency under normal errors): `y` is therefore not
#' standardized (the columns of `x` are, as for every family), `lambda_max`
#' is released privately when no `lambda` is given, and `y.bound`, when
#' given, clamps `y` as for `"gaussian"`. DP-CD (and DP-SGD, Frank-Wolfe,
#' mirror descent) fit it; DP-SCD does not (no closed-form dual update:
#' an error says so). [cv.dpglmnet()] offers `type.measure = "mse"` or
#' `"mae"`.
#'
#' @param delta The threshold, a positive number on the scale of `y`.
#' @return A family object for the `family` argument.
#' @references Huber, P. J. (1964). Robust estimation of a location
#'   parameter. Annals of Mathematical Statistics 35(1), 73-101.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(2000 * 3), 2000, 3)
#' y <- drop(x %*% c(1, -1, 0)) + rnorm(2000)
#' y[1:40] <- 30  # 2% gross outliers
#' fit <- dpglmnet(x, y, family = huber_family(delta = 1.5), epsilon = 1,
#'                 x.bounds = 4, y.bound = 40)
#' coef(fit, s = fit$lambda[length(fit$lambda)])
#' @export
huber_family <- function(delta = 1.345) {
  delta <- check_numeric(delta, "delta", lower = 0, lower_open = TRUE, upper = 1e100)
  huber_family_object(as.double(delta))
}

# The family object at threshold delta (NULL: the registry's entry, whose
# fit needs a delta: check_problem() asks for one).
huber_family_object <- function(delta = NULL) {
  huber_loss <- function(link, y) {
    r <- abs(link - y)
    ifelse(r <= delta, r^2 / 2, delta * (r - delta / 2))
  }
  new_family(
    name = "huber",
    curvature = 1,
    check_response = function(y) dpglmnet_families$gaussian$check_response(y),
    linkinv = function(link) link,
    loss = huber_loss,
    # as gaussian: y clamped to y.bound, an offset moved into the response
    bounded_response = TRUE, offset_in_response = TRUE,
    # delta is on y's scale
    standardize_response = FALSE,
    # no closed-form dual update: DP-SCD refuses it (R/dpscd.R)
    closed_form_dual = FALSE,
    # |rho'(r)| <= delta
    derivative_bound = if (is.null(delta)) Inf else delta,
    parameter = delta, parameter_name = "delta",
    with_parameter = function(value) huber_family_object(value),
    cv_measures = c("mse", "mae"),
    deviance_name = "Huber loss",
    default_loss_bound = function(type.measure, residual) {
      switch(type.measure, mse = residual^2, mae = residual, class = 1)
    },
    sql_derivative = function(source, eta, y) {
      sql_clamp(source, sprintf("(%s - %s)", eta, y), -delta, delta)
    },
    # (cv.dpglmnet() on a table, R/database-cv.R: its measures need only
    # the mean response)
    sql_linkinv = function(source, eta) eta
  )
}
