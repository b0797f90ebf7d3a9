# Small simulated problems shared by the tests.
simulate_gaussian <- function(n = 200, p = 6, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p)
  x[, 2] <- 5 * x[, 2]  # imbalanced columns
  beta <- c(1, -0.3, 0, 0, 0.5, rep(0, max(p - 5, 0)))[seq_len(p)]
  y <- drop(x %*% beta) + 1 + rnorm(n)
  list(x = x, y = y)
}

simulate_binomial <- function(n = 300, p = 5, seed = 2) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p)
  eta <- drop(x %*% c(1.5, -1, 0, 0.5, rep(0, max(p - 4, 0)))[seq_len(p)]) - 0.5
  y <- as.numeric(runif(n) < plogis(eta))
  list(x = x, y = y)
}

expect_dpglmnet_error <- function(expr, argument) {
  err <- expect_error(expr, class = "dpglmnet_error")
  expect_match(conditionMessage(err), argument, fixed = TRUE)
  invisible(err)
}

# `expr` without its dpglmnet warnings and messages (noise, defaults).
muffle_dpglmnet_warnings <- function(expr) {
  suppressMessages(withCallingHandlers(expr, dpglmnet_warning = function(w) {
    invokeRestart("muffleWarning")
  }))
}
# The messages of the dpglmnet warnings `expr` signals (its value dropped).
dpglmnet_warnings <- function(expr) {
  seen <- character(0)
  withCallingHandlers(expr, dpglmnet_warning = function(w) {
    seen <<- c(seen, conditionMessage(w))
    invokeRestart("muffleWarning")
  })
  seen
}

# A ledger's mechanisms without the columns recorded at the releases (the
# numeric sensitivities: they may rest on released values, so the plan,
# which reads no data, leaves them NA; issue 17).
planned_columns <- function(mechanisms) {
  mechanisms[setdiff(names(mechanisms), c("sensitivity_value", "sensitivity_length"))]
}
