# epsilon = Inf runs the same solver without noise or clipping and must reach
# glmnet's optimum of the same objective.
compare_with_glmnet <- function(x, y, family, intercept, lambda, passes, ...) {
  fit <- dpglmnet(x, y, family = family, intercept = intercept, lambda = lambda,
                  epsilon = Inf, passes = passes, ..., standardize = FALSE)
  ref <- glmnet::glmnet(x, y, family = family, intercept = intercept,
                        lambda = lambda, standardize = FALSE, thresh = 1e-16,
                        maxit = 1e7, ...)
  expect_equal(as.matrix(coef(fit)), as.matrix(coef(ref)), tolerance = 1e-5,
               ignore_attr = TRUE)
  expect_equal(fit$df, ref$df)
}

test_that("epsilon = Inf matches glmnet: gaussian", {
  skip_if_not_installed("glmnet")
  d <- simulate_gaussian()
  lambda <- c(0.5, 0.2, 0.05)
  for (intercept in c(TRUE, FALSE)) {
    compare_with_glmnet(d$x, d$y, "gaussian", intercept, lambda, 300)
    compare_with_glmnet(Matrix::Matrix(d$x, sparse = TRUE), d$y, "gaussian",
                        intercept, lambda, 300)
  }
})

test_that("epsilon = Inf matches glmnet: binomial", {
  skip_if_not_installed("glmnet")
  d <- simulate_binomial()
  lambda <- c(0.05, 0.02, 0.005)
  for (intercept in c(TRUE, FALSE)) {
    compare_with_glmnet(d$x, d$y, "binomial", intercept, lambda, 1500)
    compare_with_glmnet(Matrix::Matrix(d$x, sparse = TRUE), d$y, "binomial",
                        intercept, lambda, 1500)
  }
})

test_that("epsilon = Inf matches glmnet: elastic net, penalty factors, limits", {
  skip_if_not_installed("glmnet")
  d <- simulate_gaussian(p = 7)
  # glmnet scales a gaussian y to unit (1/n) standard deviation before
  # fitting, which changes the ridge part of its objective unless y already
  # has unit scale (see ?glmnet); compare on such a y.
  y <- d$y / sqrt(mean((d$y - mean(d$y))^2))
  compare_with_glmnet(d$x, y, "gaussian", TRUE, c(0.3, 0.1), 500, alpha = 0.4,
                      penalty.factor = c(0, 1, 2, 1, 1, 0.5, 1),
                      lower.limits = -0.1, upper.limits = c(rep(0.6, 6), Inf))
  compare_with_glmnet(d$x, y, "gaussian", TRUE, c(1, 0.1), 500, alpha = 0)
  b <- simulate_binomial()
  compare_with_glmnet(b$x, factor(b$y, labels = c("no", "yes")), "binomial",
                      TRUE, c(0.02, 0.01), 1500, alpha = 0.5)
})

test_that("every coordinate order reaches the optimum", {
  skip_if_not_installed("glmnet")
  d <- simulate_gaussian()
  for (selection in c("permutation", "random", "cyclic")) {
    compare_with_glmnet(d$x, d$y, "gaussian", TRUE, 0.1, 400,
                        selection = selection)
  }
  # periodic averaging converges too, more slowly
  fit <- dpglmnet(d$x, d$y, lambda = 0.1, epsilon = Inf, passes = 1000,
                  average = TRUE, standardize = FALSE)
  ref <- glmnet::glmnet(d$x, d$y, lambda = 0.1, standardize = FALSE,
                        thresh = 1e-16)
  expect_equal(as.matrix(coef(fit)), as.matrix(coef(ref)), tolerance = 1e-3,
               ignore_attr = TRUE)
})

test_that("epsilon = Inf without passes runs each lambda to glmnet's solution", {
  skip_if_not_installed("glmnet")
  # a rare event on a skewed column: 10 passes from the public step 1 / M_j
  # stop far from the optimum here
  set.seed(41)
  n <- 3000
  x <- cbind(balance = rexp(n) * 2, other = rnorm(n))
  y <- rbinom(n, 1, plogis(-7 + 1.5 * x[, 1]))
  lambda <- c(0.01, 0.002, 0.0005)
  fit <- dpglmnet(x, y, family = "binomial", lambda = lambda, epsilon = Inf,
                  standardize = FALSE)
  expect_identical(fit$settings$passes, 1000L)
  ref <- glmnet::glmnet(x, y, family = "binomial", lambda = lambda, standardize = FALSE,
                        thresh = 1e-14, maxit = 1e7)
  expect_equal(as.matrix(coef(fit)), as.matrix(coef(ref)), tolerance = 1e-4,
               ignore_attr = TRUE)
  # passes given: every one of them is made (not converged here, and said)
  expect_warning(short <- dpglmnet(x, y, family = "binomial", lambda = lambda,
                                   epsilon = Inf, standardize = FALSE, passes = 10),
                 "has not converged in 10 passes")
  expect_gt(max(abs(as.matrix(coef(short)) - as.matrix(coef(ref)))), 0.1)
})

test_that("the core stops at convergence only without noise", {
  set.seed(42)
  n <- 400
  p <- 3
  x <- matrix(rnorm(n * p), n, p)
  y <- as.numeric(rbinom(n, 1, plogis(x[, 1])))
  settings <- dpcd_test_settings("binomial", p, coordinate_step = rep(4, p + 1),
                                 coordinate_clip = rep(Inf, p + 1), noise_sd = rep(0, p + 1),
                                 passes = 50L)
  run <- function(noise, tolerance) {
    settings$noise_sd <- rep(noise, p + 1)
    settings$stop_tolerance <- tolerance
    dpglmnet:::.dpcd_path_cpp(x, y, settings)
  }
  # without noise, a huge tolerance stops after the first pass
  expect_false(isTRUE(all.equal(run(0, 1e9)$beta, run(0, 0)$beta)))
  # with noise the tolerance is ignored: every pass is made
  expect_identical(run(0.01, 1e9)$beta, run(0.01, 0)$beta)
  expect_identical(run(0.01, 1e9)$a0, run(0.01, 0)$a0)
})

test_that("epsilon = Inf at the defaults standardizes, as glmnet's defaults", {
  skip_if_not_installed("glmnet")
  set.seed(12)
  n <- 300
  # columns of very different scales and means: the unstandardized fit is a
  # different solution, and coordinate descent on it converges slowly
  x <- cbind(rnorm(n, 3000, 800), rnorm(n, 15, 3), rbinom(n, 1, 0.3), rnorm(n))
  y <- drop(x %*% c(-0.005, 0.7, 2, 0)) + rnorm(n, sd = 3)
  ref <- glmnet::glmnet(x, y, thresh = 1e-14)
  lambda <- ref$lambda[c(5, 20, 40)]
  fit <- dpglmnet(x, y, epsilon = Inf, lambda = lambda)
  ref <- glmnet::glmnet(x, y, lambda = lambda, thresh = 1e-14)
  expect_equal(as.matrix(coef(fit)), as.matrix(coef(ref)), tolerance = 1e-5,
               ignore_attr = TRUE)
  expect_true(fit$settings$standardize)
  yb <- as.numeric(y > median(y))
  ref <- glmnet::glmnet(x, yb, family = "binomial", thresh = 1e-14)
  lambda <- ref$lambda[c(5, 20)]
  fit <- dpglmnet(x, yb, family = "binomial", epsilon = Inf, lambda = lambda)
  ref <- glmnet::glmnet(x, yb, family = "binomial", lambda = lambda, thresh = 1e-14)
  expect_equal(as.matrix(coef(fit)), as.matrix(coef(ref)), tolerance = 1e-4,
               ignore_attr = TRUE)
})
