# Tail averaging of DP-CD's passes (src/dpglmnet/dpcd.h, R/dpcd.R):
# post-processing of the released steps.

test_that("the core ends each lambda at the mean of its last passes' end iterates", {
  set.seed(42)
  n <- 300
  p <- 3
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x %*% c(1, -0.5, 0)) + rnorm(n)
  settings <- dpcd_test_settings("gaussian", p, coordinate_step = rep(1, p + 1),
                                 coordinate_clip = rep(5, p + 1), noise_sd = rep(0.05, p + 1))
  # cyclic order: the first k passes of a longer fit draw the same noise
  end_of_pass <- sapply(1:8, function(k) {
    settings$passes <- k
    settings$tail_average <- 0
    fit <- dpglmnet:::.dpcd_path_cpp(x, y, settings)
    c(fit$beta[, 1], fit$a0[1])
  })
  settings$passes <- 8L
  settings$tail_average <- 0.5
  averaged <- dpglmnet:::.dpcd_path_cpp(x, y, settings)
  # ceiling(0.5 x 8) = 4: passes 5 to 8; a feature the last pass left at 0
  # stays at 0
  expected <- rowMeans(end_of_pass[, 5:8])
  expected[c(end_of_pass[1:p, 8] == 0, FALSE)] <- 0
  expect_equal(c(averaged$beta[, 1], averaged$a0[1]), expected, tolerance = 1e-12)
  # the same draws: the support is the last iterate's, as without averaging
  settings$tail_average <- 0
  last <- dpglmnet:::.dpcd_path_cpp(x, y, settings)
  expect_identical(averaged$beta[, 1] != 0, last$beta[, 1] != 0)
  settings$lambda <- 0.2
  settings$tail_average <- 0.5
  sparse <- dpglmnet:::.dpcd_path_cpp(x, y, settings)$beta[, 1]
  settings$tail_average <- 0
  expect_identical(sparse != 0, dpglmnet:::.dpcd_path_cpp(x, y, settings)$beta[, 1] != 0)
  expect_true(any(sparse == 0))
  settings$lambda <- 0.01
  # the mean is nearer the noiseless fit than the last iterate is, on average
  settings$tail_average <- 0
  settings$noise_sd <- rep(0, p + 1)
  settings$passes <- 50L
  exact <- dpglmnet:::.dpcd_path_cpp(x, y, settings)$beta[, 1]
  errors <- sapply(1:40, function(s) {
    settings$seed <- c(s, 7)
    settings$noise_sd <- rep(0.05, p + 1)
    settings$passes <- 8L
    last <- dpglmnet:::.dpcd_path_cpp(x, y, settings)$beta[, 1]
    settings$tail_average <- 0.5
    mean_tail <- dpglmnet:::.dpcd_path_cpp(x, y, settings)$beta[, 1]
    c(sum((last - exact)^2), sum((mean_tail - exact)^2))
  })
  expect_lt(mean(errors[2, ]), 0.6 * mean(errors[1, ]))
  # a share outside [0, 1] never reaches the loop
  settings$tail_average <- 2
  expect_error(dpglmnet:::.dpcd_path_cpp(x, y, settings), "tail average")
})

test_that("private gaussian DP-CD fits average their tail; others do not", {
  d <- simulate_gaussian(n = 2000, p = 4)
  b <- simulate_binomial(n = 2000, p = 4)
  share <- function(...) {
    set.seed(1)
    muffle_dpglmnet_warnings(dpglmnet(..., solver = "dpcd"))$settings$tail_average
  }
  expect_identical(share(d$x, d$y, epsilon = 1, x.bounds = 20, y.bound = 20, passes = 6,
                         lambda = 0.01), 0.5)
  # too few passes, averaging within passes, no noise, or the binomial loss
  expect_identical(share(d$x, d$y, epsilon = 1, x.bounds = 20, y.bound = 20, passes = 5,
                         lambda = 0.01), 0)
  expect_identical(share(d$x, d$y, epsilon = 1, x.bounds = 20, y.bound = 20, passes = 6,
                         lambda = 0.01, average = TRUE), 0)
  expect_identical(share(d$x, d$y, epsilon = Inf, lambda = 0.01), 0)
  expect_identical(share(b$x, b$y, family = "binomial", epsilon = 1, x.bounds = 5,
                         passes = 6, lambda = 0.01), 0)
  # steps from a public bound rather than the released curvature
  expect_identical(share(d$x, d$y, epsilon = 1, x.bounds = 20, y.bound = 20, passes = 6,
                         lambda = 0.01, smoothness = "bounds"), 0)
})

test_that("a table's fit averages its tail as the fit in memory does", {
  skip_if_not_installed("DBI")
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  data <- database_records(n = 600)
  DBI::dbWriteTable(con, "records", data$frame)
  fits <- paired_fits(con, "records", data, "gaussian",
                      list(epsilon = 1, x.bounds = 10, y.bound = 30, lambda = c(0.1, 0.01),
                           passes = 6, solver = "dpcd"))
  expect_identical(fits$memory$settings$tail_average, 0.5)
  expect_same_fit(fits)
})
