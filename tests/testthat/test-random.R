# The normal sampler behind every Gaussian mechanism (the ziggurat of
# src/dpglmnet/random.h). Every check has a fixed seed and a tolerance of
# about 5 standard errors (or a binomial interval of probability 1 - 1e-6),
# so an exact sampler passes and a wrong scale, a truncated or misweighted
# tail, or a biased sign fails.

# Many draws, cheaply: DP-SGD's private full gradient (the lambda_max
# release) of one record with all-zero x and y is exactly noise_sd * Z_j.
raw_draws <- function(count, seed, secure = FALSE) {
  x <- Matrix::sparseMatrix(i = integer(0), j = integer(0), x = numeric(0),
                            dims = c(1L, count))
  dpglmnet:::.dpsgd_start_gradient_cpp(x, 0, list(
    family = "gaussian", intercept = FALSE,
    transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL), clip = 1,
    noise_sd = 1, seed = c(seed, 1), secure = secure))
}

# Through dpglmnet(): with lambda = 0, one full-batch step from 0 and
# all-zero columns, DP-SGD's coefficient j is exactly
# -(step / m) * noise_sd * Z_j.
noise_draws <- function(p, seed, rng = "seeded", clip = 1) {
  n <- 4
  x <- Matrix::sparseMatrix(i = 1:n, j = rep(1, n), x = c(1, -1, 0.5, 2),
                            dims = c(n, p + 1))
  set.seed(seed)
  y <- stats::rnorm(n)
  fit <- dpglmnet(x, y, solver = "dpsgd", lambda = 0, epsilon = 1,
                  delta = 1e-5, intercept = FALSE, batch.size = n, passes = 1,
                  smoothness = rep(1, p + 1), clip = clip, x.bounds = 3,
                  y.bound = 3, rng = rng, standardize = FALSE)
  s <- fit$settings
  list(z = -as.numeric(fit$beta[-1, 1]) * n / (s$step_size * s$noise_sd),
       fit = fit)
}

# The observed count of an event of probability prob in n draws lies in the
# central 1 - 1e-6 interval of Binomial(n, prob).
expect_binomial_count <- function(count, n, prob) {
  bounds <- stats::qbinom(c(5e-7, 1 - 5e-7), n, prob)
  expect_gte(count, bounds[1])
  expect_lte(count, bounds[2])
}

expect_standard_normal_moments <- function(z) {
  n <- length(z)
  expect_lt(abs(mean(z)), 5 / sqrt(n))
  expect_lt(abs(mean(z^2) - 1), 5 * sqrt(2 / n))
  expect_lt(abs(mean(z^3)), 5 * sqrt(15 / n))
  expect_lt(abs(mean(z^4) - 3), 5 * sqrt(96 / n))  # Var Z^4 = 105 - 9
}

test_that("normal draws have the moments and distribution of N(0, 1)", {
  z <- raw_draws(2e6, seed = 42)
  expect_length(z, 2e6)
  expect_true(all(is.finite(z)))
  expect_standard_normal_moments(z)
  expect_gt(suppressWarnings(stats::ks.test(z, "pnorm")$p.value), 1e-4)
  # symmetric: the sign is an independent bit
  expect_binomial_count(sum(z > 0), length(z), 0.5)
})

test_that("the tails are sampled, not truncated, with the right weight", {
  z <- raw_draws(2e6, seed = 7)
  n <- length(z)
  r <- 3.6541528853610088  # where the ziggurat's base strip hands over to the tail
  for (a in c(3, 3.5, r, 4)) {
    expect_binomial_count(sum(abs(z) > a), n, 2 * stats::pnorm(-a))
    expect_binomial_count(sum(z > a), n, stats::pnorm(-a))
    expect_binomial_count(sum(z < -a), n, stats::pnorm(-a))
  }
  expect_gt(max(abs(z)), 4.5)  # P(max |Z| of 2e6 below 4.5) = 1e-6
  # The shape beyond 3 (the last layers, the wedges and the exact tail):
  # |Z| given |Z| > 3 is a truncated normal.
  tail <- abs(z[abs(z) > 3])
  truncated <- function(q) (stats::pnorm(q) - stats::pnorm(3)) / stats::pnorm(-3)
  expect_gt(stats::ks.test(tail, truncated)$p.value, 1e-4)
  beyond <- abs(z[abs(z) > r])
  truncated_r <- function(q) (stats::pnorm(q) - stats::pnorm(r)) / stats::pnorm(-r)
  expect_gt(stats::ks.test(beyond, truncated_r)$p.value, 1e-4)
})

test_that("the same seed gives the same draws, another seed others", {
  expect_identical(raw_draws(1000, 3), raw_draws(1000, 3))
  expect_false(any(raw_draws(1000, 3) == raw_draws(1000, 4)))
  a <- noise_draws(1000, seed = 3)$z
  b <- noise_draws(1000, seed = 3)$z
  c <- noise_draws(1000, seed = 4)$z
  expect_identical(a, b)
  expect_false(any(a == c))
})

test_that("the secure source draws N(0, 1) through the same sampler", {
  # ChaCha20 keyed from the operating system (its test vectors are in
  # test-chacha20.R): the same checks as the seeded source, tails included.
  z <- raw_draws(2e6, seed = 1, secure = TRUE)
  n <- length(z)
  expect_true(all(is.finite(z)))
  expect_standard_normal_moments(z)
  expect_gt(suppressWarnings(stats::ks.test(z, "pnorm")$p.value), 1e-4)
  expect_binomial_count(sum(z > 0), n, 0.5)
  r <- 3.6541528853610088
  for (a in c(3, r, 4)) {
    expect_binomial_count(sum(z > a), n, stats::pnorm(-a))
    expect_binomial_count(sum(z < -a), n, stats::pnorm(-a))
  }
  tail <- abs(z[abs(z) > 3])
  truncated <- function(q) (stats::pnorm(q) - stats::pnorm(3)) / stats::pnorm(-3)
  expect_gt(stats::ks.test(tail, truncated)$p.value, 1e-4)
  # the seed is ignored
  expect_false(any(raw_draws(1000, 1, secure = TRUE) == raw_draws(1000, 1, secure = TRUE)))
  d <- noise_draws(1000, seed = 1, rng = "secure")
  expect_identical(d$fit$privacy$rng, "secure")
  expect_false(any(d$z == noise_draws(1000, seed = 1, rng = "secure")$z))
})

test_that("DP-SGD's noise drawn with the secure source is N(0, 1) per coordinate", {
  d <- noise_draws(1e5, seed = 2, rng = "secure")
  expect_standard_normal_moments(d$z)
  expect_gt(stats::ks.test(d$z, "pnorm")$p.value, 1e-4)
})

test_that("Laplace draws have the Laplace law, from either source", {
  # Private smoothness of one record with x_ij^2 = 1/2 and bound 1: M_j is
  # 1/2 + L_j, L_j ~ Laplace(scale), clamped to [scale, 1]; inside
  # (-0.35, 0.35) no clamp binds, so L_j there is a truncated Laplace.
  p <- 1e5
  scale <- 0.1
  x <- matrix(sqrt(0.5), 1, p)
  laplace_cdf <- function(q) ifelse(q < 0, 0.5 * exp(q / scale), 1 - 0.5 * exp(-q / scale))
  inner <- function(q) (laplace_cdf(q) - laplace_cdf(-0.35)) / (1 - 2 * laplace_cdf(-0.35))
  for (secure in c(FALSE, TRUE)) {
    out <- dpglmnet:::.private_smoothness_cpp(x, list(
      transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL), curvature = 1,
      value_bound = rep(1, p), scale = rep(scale, p), seed = c(11, 3), secure = secure))
    expect_equal(out$laplace_scale, rep(scale, p))
    l <- out$smoothness - 0.5
    l <- l[abs(l) < 0.35]
    expect_binomial_count(length(l), p, 1 - 2 * laplace_cdf(-0.35))
    expect_binomial_count(sum(l > 0), length(l), 0.5)
    expect_gt(stats::ks.test(l, inner)$p.value, 1e-4)
  }
})

test_that("DP-SGD adds noise of sd z * 2C to the minibatch sum", {
  for (clip in c(0.7, 3)) {
    d <- noise_draws(1e5, seed = 5, clip = clip)
    s <- d$fit$settings
    expect_equal(s$noise_sd, s$noise_multiplier * 2 * clip)
    # the coefficients, rescaled by the calibrated sd, are N(0, 1) draws
    expect_standard_normal_moments(d$z)
    expect_gt(stats::ks.test(d$z, "pnorm")$p.value, 1e-4)
  }
})
