# Private standardization (standardize = TRUE): glmnet's solution with
# epsilon = Inf, the releases in the ledger, coefficients on the original
# scale.

scaled_data <- function(n = 500, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * 6), n) %*% diag(c(1, 10, 0.1, 5, 1, 100)) + 3
  list(x = x, y = drop(x %*% c(1, 0.1, 5, 0, 0, 0.01)) + rnorm(n))
}

test_that("epsilon = Inf reproduces glmnet's standardize = TRUE solution", {
  skip_if_not_installed("glmnet")
  d <- scaled_data()
  lambda <- c(0.5, 0.1)
  g <- glmnet::glmnet(d$x, d$y, lambda = lambda, thresh = 1e-16)
  f <- dpglmnet(d$x, d$y, epsilon = Inf, lambda = lambda, standardize = TRUE,
                passes = 2000)
  expect_equal(as.matrix(coef(f)), as.matrix(coef(g)), tolerance = 1e-5,
               ignore_attr = TRUE)
  # binomial, elastic net
  yb <- rbinom(500, 1, plogis(drop(scale(d$x) %*% c(1, -1, 0.5, 0, 0, 0))))
  g <- glmnet::glmnet(d$x, yb, family = "binomial", alpha = 0.5,
                      lambda = c(0.05, 0.01), thresh = 1e-16)
  f <- dpglmnet(d$x, yb, family = "binomial", alpha = 0.5, epsilon = Inf,
                lambda = c(0.05, 0.01), standardize = TRUE, passes = 3000)
  expect_equal(as.matrix(coef(f)), as.matrix(coef(g)), tolerance = 1e-5,
               ignore_attr = TRUE)
  # sparse x is scaled, not centred: the same solution with an intercept
  xs <- Matrix::Matrix(d$x * (abs(d$x) > 3), sparse = TRUE)
  g <- glmnet::glmnet(xs, d$y, lambda = lambda, thresh = 1e-16)
  f <- dpglmnet(xs, d$y, epsilon = Inf, lambda = lambda, standardize = TRUE,
                passes = 3000)
  expect_equal(as.matrix(coef(f)), as.matrix(coef(g)), tolerance = 1e-5,
               ignore_attr = TRUE)
  # no intercept: scaled by the standard deviation, not centred (as glmnet)
  g <- glmnet::glmnet(d$x, d$y, lambda = lambda, intercept = FALSE, thresh = 1e-16)
  f <- dpglmnet(d$x, d$y, epsilon = Inf, lambda = lambda, standardize = TRUE,
                intercept = FALSE, passes = 3000)
  expect_equal(as.matrix(coef(f)), as.matrix(coef(g)), tolerance = 1e-5,
               ignore_attr = TRUE)
})

test_that("the standardization releases are in the ledger and add up by hand", {
  d <- scaled_data(n = 2000, seed = 2)
  x.bounds <- 2 * apply(abs(d$x), 2, max)
  fit <- suppressWarnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = x.bounds,
                                   y.bound = 2 * max(abs(d$y)), nlambda = 4, passes = 3),
                          classes = "dpglmnet_warning")
  led <- fit$privacy
  m <- led$mechanisms
  expect_true(all(m$type == "gaussian"))  # no Laplace: smoothness is free
  expect_identical(fit$settings$smoothness, "standardized")
  quantiles <- grepl("quantiles", m$mechanism)
  moments <- grepl("means|second moments", m$mechanism)
  path <- grepl("DP-CD", m$mechanism)
  expect_equal(m$count[quantiles], 2 * 12 * 7)  # 2 levels x 12 steps x (x and y)
  expect_equal(sum(m$count[moments]), 2 * 7)
  expect_equal(m$count[path], 4 * 3 * 7)
  expect_false(any(grepl("lambda_max", m$mechanism)))  # public after standardizing
  # exact GDP composition, by hand
  mu <- sqrt(sum(m$count / m$noise_multiplier^2))
  expect_equal(led$epsilon, gdp_epsilon(mu, 1 / 2000^2), tolerance = 1e-12)
  expect_equal(led$epsilon, 1, tolerance = 1e-8)
  # the standardization takes 30% of mu^2, split evenly
  share <- function(rows) sum(m$count[rows] / m$noise_multiplier[rows]^2) / mu^2
  expect_equal(share(quantiles), 0.15, tolerance = 1e-10)
  expect_equal(share(moments), 0.15, tolerance = 1e-10)
})

test_that("released quantiles and scales are close to the data's with a large budget", {
  d <- scaled_data(n = 20000, seed = 3)
  x.bounds <- 2 * apply(abs(d$x), 2, max)
  fit <- suppressWarnings(dpglmnet(d$x, d$y, epsilon = 50, x.bounds = x.bounds,
                                   y.bound = 2 * max(abs(d$y)), lambda = 0.01),
                          classes = "dpglmnet_warning")
  r <- fit$settings$standardization
  q <- apply(d$x, 2, quantile, c(0.05, 0.95))
  spread <- q[2, ] - q[1, ]
  expect_true(all(abs(r$x_lower - q[1, ]) < 0.01 * spread))
  expect_true(all(abs(r$x_upper - q[2, ]) < 0.01 * spread))
  clamped <- pmin(pmax(d$x, rep(r$x_lower, each = 20000)), rep(r$x_upper, each = 20000))
  expect_equal(r$x_sd, apply(clamped, 2, function(v) sqrt(mean((v - mean(v))^2))),
               tolerance = 0.01)
  # coefficients come back on the original scale: predictions track y
  truth <- drop(d$x %*% c(1, 0.1, 5, 0, 0, 0.01))
  expect_gt(cor(drop(predict(fit, d$x)), d$y), 0.95 * cor(truth, d$y))
  # predict() clamps new records to the released ranges
  far <- d$x[1:2, ] * 100
  expect_equal(predict(fit, far), predict(fit, pmin(pmax(far, rep(r$x_lower, each = 2)),
                                                     rep(r$x_upper, each = 2))))
})
