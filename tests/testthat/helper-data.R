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

# The settings of a DP-CD core fit built by hand (.dpcd_path_cpp()): p
# columns clamped to [-10, 10], an intercept, one lambda, cyclic order, a
# fixed seed; `...` sets or overrides the rest (steps, clips, noise, passes).
dpcd_test_settings <- function(family, p, ...) {
  settings <- list(family = family, intercept = TRUE,
                   transform = list(lower = rep(-10, p), upper = rep(10, p), center = NULL,
                                    scale = NULL),
                   alpha = 1, penalty_factor = rep(1, p), lower_limits = rep(-Inf, p),
                   upper_limits = rep(Inf, p), seed = c(3, 4), secure = FALSE, trace = 0,
                   threads = 1L, lambda = 0.01, selection = "cyclic", average = FALSE)
  utils::modifyList(settings, list(...))
}
