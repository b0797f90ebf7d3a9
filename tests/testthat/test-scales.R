# Private scales of unstandardized fits (R/scales.R): clip = "quantile" and
# smoothness = "quantile", their searches, their ledger rows and their checks.

magnitude_quantiles <- function(x, y, family = "gaussian", what = "columns",
                                weighted = TRUE, constant_column = FALSE, upper,
                                count_sd = 0, level = 0.99,
                                steps = dpglmnet:::scale_search$steps, range = 1e6) {
  dpglmnet:::.magnitude_quantiles_cpp(x, as.double(y), list(
    transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
    family = family, upper = as.double(upper), weighted = weighted,
    constant_column = constant_column, what = what, level = level, range = range,
    steps = steps, count_sd = count_sd, seed = c(1, 2), secure = FALSE))
}

test_that("noise-free searches find known quantiles to the search's resolution", {
  n <- 10000
  # |x_i1| = i / n: its 99% quantile is 0.99; column 2 is 10 times larger
  x <- cbind(seq_len(n) / n * sample(c(-1, 1), n, TRUE), 10 * (seq_len(n) / n))
  y <- rep(2, n)
  resolution <- 1e6^(2^-dpglmnet:::scale_search$steps)  # 1.055 in 8 steps
  q <- magnitude_quantiles(x, y, weighted = FALSE, upper = c(2, 20))
  expect_equal(q, c(0.99, 9.9), tolerance = resolution - 1)
  # weighted by |l'(0, y_i)| = |y_i| = 2 (gaussian), and the intercept's |y_i|
  q <- magnitude_quantiles(x, y, constant_column = TRUE, upper = c(4, 40, 4))
  expect_equal(q, c(1.98, 19.8, 2), tolerance = resolution - 1)
  # binomial: |l'(0, y)| = 1/2 whatever y
  q <- magnitude_quantiles(x, rbinom(n, 1, 0.5), family = "binomial", upper = c(2, 20))
  expect_equal(q, c(0.495, 4.95), tolerance = resolution - 1)
  # rows (DP-SGD): |y_i| ||(x_i, 1)||
  norms <- 2 * sqrt(rowSums(x^2) + 1)
  q <- magnitude_quantiles(x, y, what = "rows", constant_column = TRUE, upper = 100)
  expect_equal(q, unname(quantile(norms, 0.99)), tolerance = resolution - 1)
  # sparse x: its implicit zeros count as magnitude 0
  xs <- Matrix::Matrix(x * (seq_len(n) > n / 2), sparse = TRUE)
  q <- magnitude_quantiles(xs, y, weighted = FALSE, upper = c(2, 20))
  expect_equal(q, c(0.99, 9.9), tolerance = resolution - 1)
  q <- magnitude_quantiles(xs, y, weighted = FALSE, upper = c(2, 20), level = 0.4)
  expect_lt(max(q), 1e-5 * 20)  # 50% of the records are zeros
})

test_that("private searches land near the target quantile", {
  set.seed(3)
  n <- 1e5
  x <- matrix(rexp(2 * n), n) %*% diag(c(1, 1000))
  truth <- unname(apply(abs(x), 2, quantile, c(0.98, 0.99, 0.995)))
  # count noise sd 50 = 0.05% of n: the found level is 0.99 +- a few 0.05%
  found <- replicate(20, magnitude_quantiles(x, rep(1, n), weighted = FALSE,
                                             upper = c(100, 1e5), count_sd = 50))
  for (j in 1:2) {
    expect_true(all(found[j, ] > truth[1, j] & found[j, ] < truth[3, j]))
    # within the bisection's resolution factor 1e6^(2^-steps)
    expect_equal(mean(found[j, ]), truth[2, j],
                 tolerance = 1e6^(2^-dpglmnet:::scale_search$steps) - 1)
  }
})

test_that("the search level stays 3 count-noise sds below the top", {
  expect_equal(dpglmnet:::search_level(10, 1e5), 0.99)
  expect_equal(dpglmnet:::search_level(100, 1e4), 1 - 3 * 100 / 1e4)
  expect_equal(dpglmnet:::search_level(1e4, 1e4), 0.5)
})

unstandardized <- function(n = 20000, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * 4), n) %*% diag(c(1, 100, 0.01, 10))
  list(x = x, y = drop(x %*% c(1, 0.01, 100, 0)) + rnorm(n), bounds = c(4, 400, 0.04, 40))
}

test_that("unstandardized DP-CD releases its clip and smoothness, charged", {
  d <- unstandardized()
  fit <- dpglmnet(d$x, d$y, lambda = 0.05, epsilon = 1, x.bounds = d$bounds,
                  y.bound = 20, standardize = FALSE, passes = 5)
  s <- fit$settings
  expect_identical(s$clip, "quantile")
  expect_identical(s$smoothness, "private (quantile)")
  mech <- fit$privacy$mechanisms
  steps <- dpglmnet:::scale_search$steps
  p <- 4
  clip_row <- grepl("^clipping thresholds", mech$mechanism)
  expect_equal(mech$count[clip_row], steps * (p + 1))  # features and intercept
  expect_equal(mech$count[grepl("quantiles of \\|x_ij\\|", mech$mechanism)], steps * p)
  expect_equal(mech$count[grepl("second moments", mech$mechanism)], p)
  expect_false(any(mech$type == "laplace"))
  # All Gaussian: the GDP mu's add in squares to the budget's mu (by hand:
  # count / (factor z)^2 per row), and the shares are as documented.
  z <- s$noise_multiplier
  mu2 <- mech$count / (mech$factor * z)^2
  expect_equal(sum(mu2), dpglmnet:::.gdp_mu_cpp(1, 1 / 20000^2)^2, tolerance = 1e-6)
  expect_equal(sum(mu2[clip_row]) / sum(mu2), 0.2, tolerance = 1e-8)
  expect_equal(sum(mu2[grepl("^smoothness", mech$mechanism)]) / sum(mu2), 0.1,
               tolerance = 1e-8)
  expect_lte(fit$privacy$epsilon, 1)
  # The released thresholds set the noise: sigma_j = z * 2 C_j / n.
  expect_length(s$coordinate_clip, p + 1)
  expect_equal(s$noise_sd, z * 2 * s$coordinate_clip / 20000)
  # ... and follow the scales of the per-record terms |y_i x_ij| (within the
  # spread of a private search at this n).
  truth <- apply(abs(d$y * d$x), 2, quantile, 0.99)
  expect_true(all(abs(log(s$coordinate_clip[1:p] / truth)) < log(2)))
  expect_true(all(abs(log(s$smoothness_values[1:p] / colMeans(d$x^2))) < log(2)))
  expect_output(print(summary(fit)), "released 9[0-9.]+% quantiles")
})

test_that("quantile scales beat the public default clip on unstandardized data", {
  d <- unstandardized()
  truth <- dpglmnet(d$x, d$y, lambda = 0.05, epsilon = Inf, standardize = FALSE,
                    passes = 300, selection = "cyclic")
  objective <- function(fit) {  # the LASSO objective at lambda = 0.05
    b <- as.numeric(coef(fit))
    0.5 * mean((d$y - b[1] - d$x %*% b[-1])^2) + 0.05 * sum(abs(b[-1]))
  }
  best <- objective(truth)
  relative <- function(...) {
    errors <- vapply(1:3, function(s) {
      set.seed(s)
      f <- dpglmnet(d$x, d$y, lambda = 0.05, epsilon = 1, x.bounds = d$bounds,
                    y.bound = 20, standardize = FALSE, passes = 10, ...)
      (objective(f) - best) / best
    }, numeric(1))
    mean(errors)
  }
  quantile_scales <- relative()
  public_clip <- relative(clip = sqrt(5), smoothness = "private")
  expect_lt(quantile_scales, 0.2)
  expect_lt(quantile_scales, public_clip / 3)
})

test_that("epsilon = Inf releases nothing and clips nothing", {
  d <- unstandardized(n = 500)
  fit <- dpglmnet(d$x, d$y, lambda = 0.05, epsilon = Inf, x.bounds = d$bounds,
                  standardize = FALSE, passes = 5)
  expect_true(all(is.infinite(fit$settings$coordinate_clip)))
  expect_identical(fit$settings$smoothness, "exact")
  # an explicit quantile smoothness is exact (no noise) at epsilon = Inf
  fit <- dpglmnet(d$x, d$y, lambda = 0.05, epsilon = Inf, x.bounds = d$bounds,
                  standardize = FALSE, passes = 5, smoothness = "quantile")
  expect_identical(fit$settings$smoothness, "exact (quantile)")
  expect_equal(fit$settings$smoothness_values[1:4], colMeans(d$x^2), tolerance = 0.1)
})

test_that("other defaults are unchanged: standardized fits and DP-SGD", {
  d <- unstandardized(n = 2000)
  fit <- dpglmnet(d$x, d$y, epsilon = 1, x.bounds = d$bounds, y.bound = 20, nlambda = 3)
  expect_equal(fit$settings$clip, sqrt(5))
  fit <- suppressWarnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = d$bounds,
                                   y.bound = 20, standardize = FALSE, solver = "dpsgd",
                                   lambda = 0.1, passes = 2))
  expect_equal(fit$settings$clip, sqrt(5))
  expect_identical(fit$settings$smoothness, "private")
  # DP-SGD's quantile clip on request: one search of the gradient norms
  fit <- suppressWarnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = d$bounds,
                                   y.bound = 20, standardize = FALSE, solver = "dpsgd",
                                   lambda = 0.1, passes = 2, clip = "quantile"))
  mech <- fit$privacy$mechanisms
  expect_equal(mech$count[grepl("^clipping threshold:", mech$mechanism)],
               dpglmnet:::scale_search$steps)
  expect_length(fit$settings$clip_threshold, 1)
})

test_that("bad clip and budget arguments are named before any computation", {
  d <- unstandardized(n = 200)
  expect_error(dpglmnet(d$x, d$y, clip = "adaptive", x.bounds = d$bounds),
               "`clip` must be a positive number or \"quantile\"")
  expect_error(dpglmnet(d$x, d$y, clip = -1, x.bounds = d$bounds), "`clip`")
  expect_error(dpglmnet(d$x, d$y, clip = "quantile", solver = "dpscd", alpha = 0,
                        x.bounds = d$bounds), "`clip` = \"quantile\" needs")
  expect_error(dpglmnet(d$x, d$y, clip = "quantile"), "`clip` = \"quantile\" needs")
  expect_error(dpglmnet(d$x, d$y, clip.budget = 1, x.bounds = d$bounds), "`clip.budget`")
  expect_error(dpglmnet(d$x, d$y, x.bounds = d$bounds, standardize = FALSE,
                        clip.budget = 0.6, smoothness.budget = 0.5), "add up to 1.1")
  expect_error(dpglmnet(d$x, d$y, smoothness = "quantile"), "`x.bounds`")
})

test_that("columns that are mostly zeros keep safe steps", {
  # 0/1 columns present in 30% down to 0.2% of the records: a low quantile
  # of |x_ij| is 0, and a step 1 / M_j from values clamped to ~0 blew up
  # (coefficients of 1e10 in review)
  set.seed(1)
  n <- 5000
  x <- sapply(c(0.3, 0.2, 0.1, 0.05, 0.005, 0.002), function(f) rbinom(n, 1, f))
  y <- drop(x %*% c(1, -1, 1, 2, 3, -2)) + rnorm(n)
  for (seed in 1:3) {
    set.seed(seed)
    fit <- dpglmnet(x, y, standardize = FALSE, epsilon = 1, x.bounds = 1, y.bound = 6)
    expect_lt(max(abs(as.matrix(coef(fit))[-1, ])), 20)
    expect_lt(max(colMeans((y - predict(fit, x))^2)), 2 * var(y))
  }
  # a column that is all zeros: without noise its quantile is at the bottom
  # of the search, so its constant is the public bound's (curvature
  # x.bounds^2), not a moment of values clamped to ~0
  x[, 6] <- 0
  fit <- suppressWarnings(dpglmnet(x, y, standardize = FALSE, epsilon = Inf,
                                   x.bounds = 1, lambda = 0.1, passes = 2,
                                   smoothness = "quantile"))
  expect_equal(fit$settings$smoothness_values[6], 1)
  # (the noise-free quantile is within the resolution factor 1.055 below 1)
  expect_equal(fit$settings$smoothness_values[1], mean(x[, 1]), tolerance = 0.12)
})

test_that("summaries and extreme bounds are handled", {
  d <- unstandardized(n = 300)
  fit <- dpglmnet(d$x, d$y, lambda = 0.05, epsilon = Inf, x.bounds = d$bounds,
                  standardize = FALSE, passes = 5, clip = "quantile",
                  smoothness = "quantile")
  expect_output(print(summary(fit)), "clip none \\(epsilon = Inf")
  expect_error(dpglmnet(d$x, d$y, x.bounds = 1e200), "`x.bounds`")
  expect_error(dpglmnet(d$x, d$y, x.bounds = 1e-200), "`x.bounds`")
  expect_error(dpglmnet(d$x, d$y, x.bounds = 1, y.bound = 1e200), "`y.bound`")
})

test_that("quantile scales with every column read as constant do not stop on an internal error", {
  # n = 400, p = 250: private standardization resolves no column, so every
  # column is read as 0; the clip and smoothness searches need a positive
  # range for them all the same.
  set.seed(1)
  n <- 400
  p <- 250
  x <- matrix(rnorm(n * p), n, p)
  y <- x[, 1] + rnorm(n)
  fit <- suppressWarnings(dpglmnet(x, y, x.bounds = 4, y.bound = 10, solver = "dpcd",
                                   clip = "quantile"), classes = "dpglmnet_warning")
  expect_s3_class(fit, "dpglmnet")
  expect_true(all(is.finite(as.matrix(coef(fit)))))
  expect_length(fit$settings$coordinate_clip, p + 1)
})
