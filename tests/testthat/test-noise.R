# Coordinates whose column is all zeros have a zero gradient, so with
# lambda = 0 their coefficient is minus the step times the sum of the noise
# draws: the noise actually added can be read off the fit.
noise_only_fit <- function(x_sparse = FALSE, seed = 3) {
  set.seed(seed)
  n <- 100; p <- 301
  x <- matrix(0, n, p)
  x[, 1] <- rnorm(n)
  if (x_sparse) x <- Matrix::Matrix(x, sparse = TRUE)
  y <- rnorm(n)
  dpglmnet(x, y, lambda = 0, epsilon = 1, delta = 1e-5, passes = 4,
           intercept = FALSE, smoothness = rep(1, p), step = 0.5, clip = 3, standardize = FALSE)
}

test_that("the noise added has the calibrated variance", {
  for (sparse in c(FALSE, TRUE)) {
    fit <- noise_only_fit(sparse)
    s <- fit$settings
    sigma <- s$noise_sd[-1]
    # calibration: sigma_j = z * 2 C_j / n with C_j = sqrt(1/p) * clip
    expect_equal(sigma, rep(s$noise_multiplier * 2 * 3 / sqrt(301) / 100, 300))
    b <- as.numeric(fit$beta[-1, 1])
    # each zero column is updated once per pass (permutation order)
    standardized <- b / (0.5 * sqrt(4) * sigma)
    expect_equal(mean(standardized^2), 1, tolerance = 0.25)
    expect_lt(abs(mean(standardized)), 4 / sqrt(300))
    expect_gt(stats::ks.test(standardized, "pnorm")$p.value, 1e-3)
  }
})

test_that("the noise multiplier spends exactly the budget", {
  fit <- noise_only_fit()
  releases <- 4 * 301
  expect_equal(gdp_epsilon(sqrt(releases) / fit$settings$noise_multiplier, 1e-5),
               1, tolerance = 1e-8)
})

test_that("set.seed reproduces a fit and different seeds differ", {
  d <- simulate_gaussian(n = 150, p = 4)
  fit_once <- function(seed, ...) {
    set.seed(seed)
    dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 10, y.bound = 10, ...)
  }
  a <- fit_once(11); b <- fit_once(11); c <- fit_once(12)
  expect_identical(a$beta, b$beta)
  expect_identical(a$lambda, b$lambda)
  # (at n = 150 the columns may all be released as constant: compare the
  # whole fit)
  expect_false(identical(list(a$beta, a$a0), list(c$beta, c$a0)))
  for (sel in c("random", "cyclic")) {
    expect_identical(fit_once(5, selection = sel)$beta,
                     fit_once(5, selection = sel)$beta)
  }
  set.seed(1)
  s1 <- dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 10, y.bound = 20, rng = "secure")
  set.seed(1)
  s2 <- dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 10, y.bound = 20, rng = "secure")
  expect_false(identical(list(s1$beta, s1$a0), list(s2$beta, s2$a0)))
  expect_identical(s1$privacy$rng, "secure")
})
