# DP-CD's adaptive clip (R/dpcd.R, src/dpglmnet/dpcd.h): the released root
# mean square of the loss derivatives scales the clips and noise down as the
# fit explains the response.

# A gaussian design with R^2 about 0.96 (residual sd 0.5, signal sd 2.5).
high_r2_data <- function(n, seed) {
  set.seed(seed)
  x <- matrix(rnorm(n * 5), n)
  y <- drop(x %*% c(2, -1, 1, 0, 0)) + 0.5 * rnorm(n)
  list(x = x, y = y)
}

test_that("the adaptive clip's releases are a ledger row of their own, priced as planned", {
  d <- high_r2_data(5000, seed = 1)
  set.seed(2)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 5,
                                           y.bound = 20, nlambda = 4, passes = 10))
  rows <- fit$privacy$mechanisms
  scale <- rows$key == "scale"
  path <- rows$key == "path"
  expect_equal(sum(scale), 1L)
  # before passes 1, 2, 4 and 8 of each of the 4 lambdas
  expect_equal(rows$count[scale], 4 * 4)
  # terms in [0, 1]: replace-one sensitivity 1 / n
  expect_equal(rows$sensitivity_value[scale], 1 / 5000)
  # its multiplier: the factor that makes it cost 4% of the path's releases
  factor <- sqrt(16 / (0.04 * rows$count[path]))
  expect_equal(rows$noise_multiplier[scale], factor * rows$noise_multiplier[path],
               tolerance = 1e-10)
  expect_equal((rows$count[scale] / rows$noise_multiplier[scale]^2) /
                 (rows$count[path] / rows$noise_multiplier[path]^2), 0.04, tolerance = 1e-10)
  # the total by hand: every row Gaussian, composed in GDP
  expect_true(all(rows$type == "gaussian"))
  mu <- sqrt(sum(rows$count / rows$noise_multiplier^2))
  expect_equal(fit$privacy$epsilon, gdp_epsilon(mu, fit$privacy$delta), tolerance = 1e-10)
  expect_lte(fit$privacy$epsilon, 1)
  # what the fit reports: the released scales, one per release, and the
  # clips' last factor, min(1, kappa s / 1) of the last one
  reported <- fit$settings$adaptive_clip_scale
  expect_true(fit$settings$adaptive_clip)
  expect_length(reported$released, 16L)
  expect_equal(reported$factor, min(1, 2 * reported$released[16]))
  # the residual sd is 0.5 / sd(y) = 0.2 on the standardized scale: the
  # clips end at about 0.4 of the planned ones
  expect_lt(reported$factor, 0.7)
  expect_gt(reported$factor, 0.2)
  # summary() says so, with the released scale
  expect_output(print(summary(fit)),
                sprintf("adaptive: the clips and noise end at %.3g", reported$factor),
                fixed = TRUE)
})

test_that("the adaptive clip lowers the error of a high-R^2 fit at the same budget", {
  # off: the same default clip given (a clip given is kept as it is)
  errors <- sapply(1:4, function(seed) {
    d <- high_r2_data(6000, seed = seed)
    test <- high_r2_data(4000, seed = 100 + seed)
    fit_with <- function(...) {
      set.seed(seed)
      muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 5,
                                        y.bound = 20, nlambda = 6, passes = 10, ...))
    }
    mse <- function(fit) {
      mean((test$y - predict(fit, test$x, s = min(fit$lambda)))^2)
    }
    adaptive <- fit_with()
    fixed <- fit_with(clip = sqrt(6))
    expect_false(isTRUE(fixed$settings$adaptive_clip))
    c(adaptive = mse(adaptive), fixed = mse(fixed))
  })
  # (the noise's part of the error: the residual variance is 0.25)
  excess <- rowMeans(errors) - 0.25
  expect_lt(excess[["adaptive"]], 0.6 * excess[["fixed"]])
})

test_that("the adaptive clip is off where it has no public start scale or is not wanted", {
  d <- high_r2_data(2000, seed = 3)
  planned <- function(...) {
    set.seed(4)
    fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, x.bounds = 5, y.bound = 20,
                                             nlambda = 3, ...))
    c(setting = isTRUE(fit$settings$adaptive_clip),
      row = any(fit$privacy$mechanisms$key %in% "scale"))
  }
  expect_equal(planned(epsilon = 1, passes = 3), c(setting = TRUE, row = TRUE))
  # a clip given is kept
  expect_equal(planned(epsilon = 1, passes = 3, clip = 2), c(setting = FALSE, row = FALSE))
  # one pass per lambda: nothing to adapt
  expect_equal(planned(epsilon = 1, passes = 1), c(setting = FALSE, row = FALSE))
  # epsilon = Inf: nothing is clipped
  expect_equal(planned(epsilon = Inf, passes = 3), c(setting = FALSE, row = FALSE))
  # weights: their terms are w_i l'_i
  expect_equal(planned(epsilon = 1, passes = 3, weights = rep(1, 2000), weights.bound = 1),
               c(setting = FALSE, row = FALSE))
  # a response not standardized has no public start scale
  expect_equal(planned(epsilon = 1, passes = 3, standardize = FALSE, clip = NULL,
                       smoothness = "bounds"),
               c(setting = FALSE, row = FALSE))
  # nor has Huber's loss
  set.seed(4)
  huber <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = huber_family(1),
                                             epsilon = 1, x.bounds = 5, y.bound = 20,
                                             nlambda = 3, passes = 3))
  expect_false(isTRUE(huber$settings$adaptive_clip))
})

test_that("the binomial loss has no adaptive clip (measured, left out)", {
  set.seed(5)
  n <- 3000
  x <- matrix(rnorm(n * 4), n)
  y <- as.numeric(x[, 1] + 0.1 * rnorm(n) > 0.8)
  set.seed(6)
  fit <- muffle_dpglmnet_warnings(dpglmnet(x, y, family = "binomial", epsilon = 1,
                                           x.bounds = 5, nlambda = 4, passes = 8))
  expect_false(isTRUE(fit$settings$adaptive_clip))
  expect_false(any(fit$privacy$mechanisms$key %in% "scale"))
  expect_null(fit$settings$adaptive_clip_scale)
})

test_that("a response the fit explains exactly keeps a finite scale, at its floor at most", {
  # (a review found s halving release after release to an underflow here)
  set.seed(7)
  n <- 2000
  x <- matrix(rnorm(n * 3), n)
  y <- drop(x %*% c(1, -1, 0.5))
  set.seed(8)
  fit <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1e6, x.bounds = 5, y.bound = 20,
                                           nlambda = 40, passes = 17))
  released <- fit$settings$adaptive_clip_scale$released
  expect_length(released, 40 * 5)
  expect_true(all(is.finite(released)))
  expect_gte(min(released), 0.005 * (1 - 1e-12))
  expect_gte(fit$settings$adaptive_clip_scale$factor, 0.01 * (1 - 1e-12))
  expect_true(all(is.finite(as.matrix(fit$beta))))
})
