test_that("gdp_epsilon matches published values", {
  # (epsilon, delta = 1e-5) of mu-GDP, Dong, Roth & Su (2022) Cor. 2.13.
  expect_equal(gdp_epsilon(c(0.5, 1, 2), 1e-5),
               c(1.993091, 4.377178, 9.997256), tolerance = 1e-6)
  expect_equal(gdp_delta(1, 1), 0.1269367, tolerance = 1e-6)
})

test_that("gdp_mu gives the analytic Gaussian mechanism", {
  # Balle & Wang (2018): sigma = 3.730631635 for (1, 1e-5)-DP, sensitivity 1.
  expect_equal(1 / gdp_mu(1, 1e-5), 3.730631635, tolerance = 1e-9)
})

test_that("calibration rounds toward privacy", {
  eps <- c(0.1, 0.5, 1, 3, 10)
  for (delta in c(1e-3, 1e-6, 1e-10)) {
    mu <- gdp_mu(eps, delta)
    spent <- gdp_epsilon(mu, delta)
    expect_true(all(spent <= eps * (1 + 1e-9)))
    expect_true(all(mapply(gdp_delta, mu, eps) <= delta))
    expect_equal(spent, eps, tolerance = 1e-8)
  }
})

test_that("the accountant is vectorised and handles the ends", {
  expect_length(gdp_epsilon(seq(0.1, 3, by = 0.1), 1e-6), 30)
  expect_equal(gdp_epsilon(0, 1e-5), 0)
  expect_equal(gdp_epsilon(Inf, 1e-5), Inf)
  expect_equal(gdp_mu(Inf, 1e-5), Inf)
  # delta(eps) decreases in epsilon and increases in mu
  expect_true(all(diff(sapply(c(0, 1, 2), gdp_delta, mu = 1)) < 0))
  expect_true(all(diff(gdp_delta(c(0.5, 1, 2), 1)) > 0))
  # very small delta stays finite and monotone (log-space evaluation)
  tiny <- gdp_epsilon(c(0.1, 1), 1e-300)
  expect_true(all(is.finite(tiny)) && tiny[1] < tiny[2])
})

test_that("accountant arguments are checked", {
  expect_dpglmnet_error(gdp_epsilon(-1, 1e-5), "`mu`")
  expect_dpglmnet_error(gdp_epsilon(1, 0), "`delta`")
  expect_dpglmnet_error(gdp_epsilon(1, 1), "`delta`")
  expect_dpglmnet_error(gdp_epsilon(NA_real_, 1e-5), "`mu`")
  expect_dpglmnet_error(gdp_mu(0, 1e-5), "`epsilon`")
  expect_dpglmnet_error(gdp_mu("1", 1e-5), "`epsilon`")
  expect_dpglmnet_error(gdp_delta(1, -1), "`epsilon`")
})

test_that("the accountant refuses rows under different neighbouring relations", {
  mechanism <- dpglmnet:::mechanism
  table <- function(...) dpglmnet:::mechanism_table(list(...))
  replace <- mechanism("a", "gaussian", 10, "1", calibrated = TRUE)
  add_remove <- mechanism("b", "gaussian", 10, "1", calibrated = TRUE,
                          relation = "add/remove-one")
  orders <- dpglmnet:::default_orders()
  expect_error(dpglmnet:::.account_cpp(table(replace, add_remove), 1, 1e-6, orders),
               "different neighbouring relations")
  expect_error(dpglmnet:::.calibrate_cpp(table(replace, add_remove), 1, 1e-6, orders),
               "different neighbouring relations")
  # a Poisson-sampled Gaussian's RDP bound is add/remove-one's
  poisson <- mechanism("c", "gaussian", 10, "1", calibrated = TRUE, sampling = "poisson",
                       sampling_rate = 0.01)
  expect_error(dpglmnet:::.account_cpp(table(poisson), 1, 1e-6, orders),
               "Poisson-subsampled row")
  poisson$relation <- "add/remove-one"
  expect_silent(dpglmnet:::.account_cpp(table(poisson, add_remove), 1, 1e-6, orders))
  # one relation: the per-row shares come from the accountant, as by hand
  exponential <- mechanism("d", "exponential", 4, "1", calibrated = TRUE, factor = 2)
  out <- dpglmnet:::.account_cpp(table(replace, exponential), 3, 1e-6, orders)
  expect_equal(out$row_gdp_mu, c(sqrt(10) / 3, NaN))
  expect_equal(out$row_epsilon, c(NaN, 4 * 2 / (2 * 3)))
})

test_that("every ledger row states its relation, replace-one", {
  set.seed(1)
  x <- matrix(rnorm(600), 200, 3)
  fit <- suppressWarnings(dpglmnet(x, x[, 1] + rnorm(200), x.bounds = 4, y.bound = 8,
                                   nlambda = 3, passes = 2))
  expect_true(all(fit$privacy$mechanisms$relation == "replace-one"))
  expect_identical(fit$privacy$relation, "replace-one")
})
