test_that("the ledger total equals a hand computation", {
  d <- simulate_gaussian(n = 400, p = 4)
  # the Laplace smoothness constants and a public clip (the unstandardized
  # defaults are quantile scales: test-scales.R)
  fit <- dpglmnet(d$x, d$y, epsilon = 2, delta = 1e-6, nlambda = 3,
                  passes = 5, x.bounds = 10, y.bound = 20, standardize = FALSE,
                  smoothness = "private", clip = sqrt(5))
  led <- fit$privacy
  p <- 4
  releases_path <- 3 * 5 * (p + 1)  # lambdas x passes x (features + intercept)
  releases_start <- p               # private lambda_max
  z <- fit$settings$noise_multiplier
  eps_laplace <- 0.1 * 2
  eps_gauss <- gdp_epsilon(sqrt(releases_path + releases_start) / z, 1e-6)
  expect_equal(led$epsilon, eps_laplace + eps_gauss, tolerance = 1e-12)
  expect_lte(led$epsilon, 2)
  expect_equal(led$epsilon, 2, tolerance = 1e-8)  # not wastefully loose
  expect_equal(led$delta, 1e-6)
  expect_identical(led$relation, "replace-one")
  expect_equal(sum(led$mechanisms$count), releases_path + releases_start + p)
  expect_setequal(led$mechanisms$type, c("laplace", "gaussian"))
  expect_equal(led$mechanisms$epsilon[led$mechanisms$type == "laplace"], eps_laplace)
  expect_output(print(fit), "epsilon = 2, delta = 1e-06")
  expect_output(print(led), "replace-one")
})

test_that("public inputs are not charged", {
  d <- simulate_gaussian(n = 300, p = 3)
  # (no x.bounds: a warning that the columns are used unscaled)
  expect_warning(
    fit <- dpglmnet(d$x, d$y, lambda = c(0.5, 0.1), epsilon = 1, passes = 4, standardize = FALSE),
    "uniform")
  mech <- fit$privacy$mechanisms
  expect_equal(nrow(mech), 1L)  # no lambda_max, no smoothness release
  expect_equal(mech$count, 2 * 4 * (3 + 1))
  expect_equal(fit$privacy$epsilon_laplace, 0)
  expect_lte(fit$privacy$epsilon, 1)
  fit2 <- dpglmnet(d$x, d$y, lambda = 0.1, epsilon = 1, smoothness = "bounds",
                   x.bounds = c(4, 20, 4), intercept = FALSE,
                   standardize = FALSE, clip = 1)
  expect_equal(fit2$settings$smoothness_values, c(16, 400, 16))
  expect_equal(fit2$privacy$mechanisms$count, 10 * 3)
})

test_that("noise and clipping follow the calibration", {
  d <- simulate_binomial(n = 500, p = 4)
  fit <- dpglmnet(d$x, d$y, family = "binomial", epsilon = 1, x.bounds = 3,
                  standardize = FALSE, smoothness = "private",
                  clip = 2, step = 0.5)
  s <- fit$settings
  m <- s$smoothness_values
  expect_length(m, 5)
  expect_equal(m[5], 0.25)  # intercept: logistic curvature
  expect_equal(s$coordinate_clip, sqrt(m / sum(m)) * 2)
  expect_equal(s$coordinate_step, 0.5 / m)
  expect_equal(s$noise_sd, s$noise_multiplier * 2 * s$coordinate_clip / 500)
  # private smoothness: Laplace scale p b_j / (n eps_s), b_j = x.bounds^2 / 4
  expect_equal(s$laplace_scale, rep(4 * (9 / 4) / (500 * 0.1), 4))
})

test_that("epsilon = Inf is reported as not private", {
  d <- simulate_gaussian(n = 100, p = 3)
  fit <- dpglmnet(d$x, d$y, epsilon = Inf, lambda = 0.1, passes = 2, standardize = FALSE)
  expect_equal(fit$privacy$epsilon, Inf)
  expect_true(all(fit$settings$noise_sd == 0))
  expect_output(print(fit), "not private")
})

test_that("the accountant composes parts of a split in parallel", {
  mechanism <- dpglmnet:::mechanism
  table <- dpglmnet:::mechanism_table
  account <- function(rows, z = 0, delta = 1e-6) {
    dpglmnet:::.account_cpp(table(rows), z, delta, default_orders())
  }
  path <- mechanism("path", "gaussian", 500, "", noise_multiplier = 20, part = 1L)
  choice <- mechanism("choice", "exponential", 1, "", noise_multiplier = 2 / 0.7,
                      part = 2L)
  shared <- mechanism("smoothness", "laplace", 4, "", noise_multiplier = 4 / 0.1)
  # One part alone: GDP of the Gaussian runs plus the Laplace share.
  eps_path <- gdp_epsilon(sqrt(500) / 20, 1e-6) + 0.1
  expect_equal(account(list(path, shared))$epsilon, eps_path, tolerance = 1e-10)
  # The exponential mechanism (Gumbel scale 2/0.7 per unit sensitivity) is
  # 0.7-DP; with the Laplace rows, 0.8.
  expect_equal(account(list(choice, shared))$epsilon, 0.8, tolerance = 1e-12)
  # Disjoint parts: the larger of the two, not the sum.
  both <- account(list(path, choice, shared))
  expect_equal(both$epsilon, max(eps_path, 0.8), tolerance = 1e-10)
  expect_equal(both$part, if (eps_path > 0.8) 1L else 2L)
  # The same rows on every record compose (here by basic composition).
  path$part <- 0L
  choice$part <- 0L
  expect_equal(account(list(path, choice, shared))$epsilon, eps_path + 0.7,
               tolerance = 1e-10)
})

test_that("calibration is the smallest noise within the target", {
  mechanism <- dpglmnet:::mechanism
  rows <- dpglmnet:::mechanism_table(list(
    mechanism("a", "gaussian", 100, "", calibrated = TRUE),
    mechanism("b", "gaussian", 10, "", calibrated = TRUE, factor = 0.5),
    mechanism("c", "laplace", 2, "", noise_multiplier = 20)))
  calibrated <- dpglmnet:::.calibrate_cpp(rows, 1, 1e-5, default_orders())
  z <- calibrated$z
  # the account returned with z is the accountant's at z
  expect_identical(calibrated$account, dpglmnet:::.account_cpp(rows, z, 1e-5,
                                                               default_orders()))
  spent <- function(z) dpglmnet:::.account_cpp(rows, z, 1e-5, default_orders())$epsilon
  expect_lte(spent(z), 1)
  expect_gt(spent(z * (1 - 1e-8)), spent(z))
  # by hand: mu^2 = 100 / z^2 + 10 / (z / 2)^2, plus the Laplace 2 / 20
  expect_equal(spent(z), gdp_epsilon(sqrt(140) / z, 1e-5) + 0.1, tolerance = 1e-12)
  expect_equal(spent(z), 1, tolerance = 1e-8)
})
