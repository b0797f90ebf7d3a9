test_that("report-noisy-max follows the exponential mechanism's law", {
  utility <- c(0, 1, 2, 0.5)
  scale <- 1.5
  picks <- dpglmnet:::.report_noisy_max_cpp(utility, list(
    scale = scale, draws = 40000L, seed = c(3, 4), secure = FALSE))
  expected <- exp(utility / scale) / sum(exp(utility / scale))
  observed <- tabulate(picks, nbins = 4)
  expect_gt(stats::chisq.test(observed, p = expected)$p.value, 1e-3)
  # scale 0: the exact argmax
  expect_identical(dpglmnet:::.report_noisy_max_cpp(utility, list(
    scale = 0, draws = 3L, seed = c(1, 1), secure = FALSE)), rep(3L, 3))
})

test_that("cv.dpglmnet with epsilon = Inf chooses the best validation lambda", {
  set.seed(2)
  n <- 600; p <- 5
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x %*% c(2, -1, 0, 0, 1)) + rnorm(n)
  lambda <- c(3, 1, 0.05)
  set.seed(9)
  cvfit <- cv.dpglmnet(x, y, epsilon = Inf, lambda = lambda, passes = 50,
                       y.bound = 20, standardize = FALSE)
  v <- cvfit$validation
  expect_length(v, 120)
  link <- predict(cvfit$dpglmnet.fit, x[v, ])
  mse <- colMeans(pmin((y[v] - link)^2, cvfit$loss.bound))
  # epsilon = Inf: the curve is the exact clipped validation loss
  expect_equal(cvfit$cvm, unname(mse), tolerance = 1e-12)
  expect_equal(cvfit$cvsd.noise, 0)
  expect_equal(cvfit$lambda.min, lambda[which.min(mse)])
  # the strong signal makes the smallest lambda clearly best
  expect_equal(cvfit$lambda.min, 0.05)
  expect_equal(coef(cvfit, s = "lambda.min"), coef(cvfit$dpglmnet.fit, s = 0.05))
  expect_equal(predict(cvfit, x[1:3, ], s = "lambda.min"),
               predict(cvfit$dpglmnet.fit, x[1:3, ], s = 0.05))
  # the default s is lambda.1se, as glmnet's
  expect_equal(coef(cvfit), coef(cvfit$dpglmnet.fit, s = cvfit$lambda.1se))
  expect_equal(predict(cvfit, x[1:3, ]),
               predict(cvfit$dpglmnet.fit, x[1:3, ], s = cvfit$lambda.1se))
  expect_output(print(cvfit), "1se")
})

test_that("the cv ledger is the parallel-composition maximum", {
  set.seed(3)
  n <- 1000; p <- 4
  x <- matrix(rnorm(n * p), n, p)
  y <- factor(ifelse(x[, 1] - x[, 2] + rnorm(n) > 0, "b", "a"))
  cvfit <- suppressWarnings(
    cv.dpglmnet(x, y, family = "binomial", epsilon = 1, x.bounds = 4, nlambda = 5),
    classes = "dpglmnet_warning")
  led <- cvfit$privacy
  path_eps <- cvfit$dpglmnet.fit$privacy$epsilon
  # the curve: two Gaussian releases on the validation part, calibrated
  # together to (1, delta): exactly sqrt(1 + 1/3^2) / z -GDP
  curve <- led$mechanisms[led$mechanisms$part == 2L, ]
  expect_equal(nrow(curve), 2L)
  expect_true(all(curve$type == "gaussian"))
  z <- curve$noise_multiplier[1]
  expect_equal(curve$noise_multiplier[2], 3 * z)
  curve_eps <- gdp_epsilon(sqrt(1 + 1 / 9) / z, led$delta)
  expect_equal(curve_eps, 1, tolerance = 1e-8)
  expect_lte(curve_eps, 1)
  expect_equal(led$epsilon, max(path_eps, curve_eps), tolerance = 1e-12)
  expect_lte(led$epsilon, 1)
  expect_setequal(led$mechanisms$part, c(1L, 2L))
  expect_match(led$parts, "parallel composition")
  expect_output(print(led), "parallel")
  expect_length(cvfit$validation, 200)
  expect_true(cvfit$lambda.min %in% cvfit$lambda)
  expect_s4_class(coef(cvfit, s = "lambda.min"), "dgCMatrix")
  expect_true(all(predict(cvfit, x[1:5, ], type = "class") %in% c("a", "b")))
})

test_that("cv.dpglmnet and path methods check their arguments", {
  x <- matrix(rnorm(200), 100, 2)
  y <- rnorm(100)
  expect_dpglmnet_error(cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4), "`loss.bound`")
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, validation.fraction = 1,
      standardize = FALSE),
                        "`validation.fraction`")
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, type.measure = "class", standardize = FALSE),
                        "`type.measure`")
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, lambda = 0.1,
      standardize = FALSE), "`lambda`")
  fit <- dpglmnet(x, y, epsilon = Inf, lambda = c(0.2, 0.1), passes = 50, standardize = FALSE)
  expect_dpglmnet_error(coef(fit, s = "lambda.min"), "cv.dpglmnet")
})

test_that("a NaN utility never decides the choice, and NaN losses count as the bound", {
  picks <- dpglmnet:::.report_noisy_max_cpp(c(NaN, 0, 5), list(
    scale = 1, draws = 2000L, seed = c(5, 6), secure = FALSE))
  expect_false(any(picks == 1L))
  picks <- dpglmnet:::.report_noisy_max_cpp(c(NaN, 0), list(
    scale = 0, draws = 5L, seed = c(5, 6), secure = FALSE))
  expect_identical(picks, rep(2L, 5))
})

test_that("refit = TRUE at epsilon = Inf is the full-data fit at lambda.min", {
  set.seed(2)
  n <- 600; p <- 5
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x %*% c(2, -1, 0, 0, 1)) + rnorm(n)
  lambda <- c(3, 1, 0.05)
  set.seed(9)
  cvfit <- cv.dpglmnet(x, y, epsilon = Inf, lambda = lambda, passes = 50,
                       y.bound = 20, refit = TRUE, standardize = FALSE)
  # the same split, path and choice as without a refit
  set.seed(9)
  plain <- cv.dpglmnet(x, y, epsilon = Inf, lambda = lambda, passes = 50, y.bound = 20,
      standardize = FALSE)
  expect_identical(cvfit$validation, plain$validation)
  expect_equal(cvfit$lambda.min, plain$lambda.min)
  expect_equal(cvfit$lambda.min, 0.05)
  expect_null(plain$refit)
  refit <- cvfit$refit
  expect_s3_class(refit, "dpglmnet")
  expect_equal(refit$nobs, n)
  expect_equal(refit$lambda, cvfit$lambda.min)
  expect_equal(cvfit$refit.budget, 0.5)
  full <- dpglmnet(x, y, lambda = cvfit$lambda.min, epsilon = Inf, passes = 50,
                   y.bound = 20, standardize = FALSE)
  expect_equal(coef(cvfit, s = "lambda.min"), coef(full, s = cvfit$lambda.min),
               tolerance = 1e-8)
  expect_equal(coef(cvfit, s = "lambda.min"), coef(refit, s = 0.05))
  expect_equal(predict(cvfit, x[1:3, ], s = "lambda.min"),
               predict(full, x[1:3, ], s = 0.05), tolerance = 1e-8)
  # the default s = "lambda.1se" reads the path, as numeric s does
  expect_equal(coef(cvfit), coef(cvfit$dpglmnet.fit, s = cvfit$lambda.1se))
  # numeric s still reads the path on the training part
  expect_equal(coef(cvfit, s = 0.05), coef(cvfit$dpglmnet.fit, s = 0.05))
  expect_equal(predict(cvfit, x[1:3, ], s = c(1, 0.05)),
               predict(cvfit$dpglmnet.fit, x[1:3, ], s = c(1, 0.05)))
  expect_gt(max(abs(coef(cvfit, s = 0.05) - coef(cvfit, s = "lambda.min"))), 1e-4)
  if (requireNamespace("glmnet", quietly = TRUE)) {
    reference <- glmnet::glmnet(x, y, lambda = 0.05, standardize = FALSE, thresh = 1e-14)
    expect_equal(as.numeric(coef(cvfit, s = "lambda.min")), as.numeric(coef(reference)),
                 tolerance = 1e-6)
  }
  expect_output(print(cvfit), "Refit on all 600 records at the chosen lambda")
  expect_output(print(cvfit), "s = \"lambda.min\" use it")
  # the fits' calls name the data, they do not hold it
  expect_identical(refit$call$x, quote(x))
  expect_identical(cvfit$dpglmnet.fit$call$x, quote(x))
})

test_that("with a refit the ledger total is the composition by hand, at most the target", {
  set.seed(4)
  n <- 2000; p <- 4
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x %*% c(1, -1, 0.5, 0)) + rnorm(n)
  delta <- 1e-6
  set.seed(5)
  cvfit <- suppressWarnings(cv.dpglmnet(
    x, y, epsilon = 1, delta = delta, x.bounds = 4, y.bound = 10, standardize = FALSE,
    smoothness = "private", clip = sqrt(p + 1),  # Laplace rows beside Gaussian ones
    nlambda = 4, passes = 3, refit = TRUE, refit.budget = 0.4),
    classes = "dpglmnet_warning")
  led <- cvfit$privacy
  m <- led$mechanisms
  refit_rows <- m$part == 0L
  path_rows <- m$part == 1L
  curve_rows <- m$part == 2L
  # the refit's releases are in the ledger as part 0 (every record), as its
  # own ledger lists them
  expect_true(all(startsWith(m$mechanism[refit_rows], "refit on all records: ")))
  own <- cvfit$refit$privacy$mechanisms
  expect_equal(m$count[refit_rows], own$count)
  expect_equal(m$noise_multiplier[refit_rows], own$noise_multiplier)
  expect_setequal(m$type[refit_rows], c("laplace", "gaussian"))  # smoothness, path
  expect_equal(sum(m$count[refit_rows & m$type == "gaussian"]), 3 * (p + 1))  # 1 lambda
  expect_equal(sum(path_rows), nrow(cvfit$dpglmnet.fit$privacy$mechanisms))
  expect_equal(sum(curve_rows), 2L)  # the curve and its squares
  expect_match(led$parts, "part 0 read every record")
  # the refit's target: 40% of mu^2 of the budget
  mu <- gdp_mu(1, delta)
  expect_equal(cvfit$refit$privacy$target_epsilon, gdp_epsilon(sqrt(0.4) * mu, delta))
  # by hand: Gaussian rows exactly in GDP, Laplace rows by basic composition
  gauss <- m$type == "gaussian"
  gdp_mu_of <- function(rows) sqrt(sum(m$count[rows & gauss] / m$noise_multiplier[rows & gauss]^2))
  laplace_of <- function(rows) sum((m$count / m$noise_multiplier)[rows & m$type == "laplace"])
  mu_refit <- gdp_mu_of(refit_rows)
  training <- laplace_of(refit_rows | path_rows) +
    gdp_epsilon(sqrt(mu_refit^2 + gdp_mu_of(path_rows)^2), delta)
  validation <- laplace_of(refit_rows) +
    gdp_epsilon(sqrt(mu_refit^2 + gdp_mu_of(curve_rows)^2), delta)
  expect_equal(led$epsilon, max(training, validation), tolerance = 1e-10)
  expect_lte(led$epsilon, 1)
  expect_lte(training, 1)
  expect_lte(validation, 1)
  # both parts are calibrated to the target, not wastefully below it
  expect_equal(training, 1, tolerance = 1e-5)
  expect_equal(validation, 1, tolerance = 1e-8)
  # the refit is at lambda.min; coef and predict at "lambda.min" use it
  expect_equal(cvfit$refit$lambda, cvfit$lambda.min)
  expect_equal(coef(cvfit, s = "lambda.min"), coef(cvfit$refit, s = cvfit$lambda.min))
  expect_equal(predict(cvfit, x[1:4, ], s = "lambda.min"),
               predict(cvfit$refit, x[1:4, ], s = cvfit$lambda.min))
})

test_that("the planned ledger is the ledger the fit keeps", {
  set.seed(7)
  n <- 400; p <- 3
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x %*% c(1, 0, -1)) + rnorm(n)
  configurations <- list(
    list(x.bounds = 4, y.bound = 10),
    list(x.bounds = 4, y.bound = 10, standardize = FALSE, nlambda = 3, passes = 2),
    list(x.bounds = 4, standardize = FALSE, smoothness = "private", nlambda = 3,
         passes = 2),
    list(solver = "dpsgd", x.bounds = 4, standardize = FALSE, clip = "quantile",
         nlambda = 2, passes = 1),
    list(lambda = c(0.5, 0.1), passes = 2, smoothness = "uniform", standardize = FALSE),
    list(solver = "dpsgd", x.bounds = 4, y.bound = 10, nlambda = 2, passes = 1),
    list(solver = "dpscd", alpha = 0, intercept = FALSE, x.bounds = 4, y.bound = 10,
         lambda = c(0.5, 0.1), passes = 1),
    list(solver = "dpfw", l1.radius = c(0.5, 1), passes = 5, y.bound = 10,
         standardize = FALSE),
    list(solver = "dpfw-vr", l1.radius = c(0.5, 1), passes = 2, y.bound = 10,
         standardize = FALSE))
  for (configuration in configurations) {
    arguments <- c(configuration, list(epsilon = 0.7, delta = 1e-6, rng = "seeded"))
    state <- .Random.seed
    planned <- dpglmnet:::planned_ledger(dpglmnet:::planned_problem(x, y, arguments))
    expect_identical(.Random.seed, state)  # planning draws nothing
    fit <- suppressMessages(suppressWarnings(do.call(dpglmnet, c(list(x = x, y = y),
                                                                 arguments))))
    label <- paste(names(configuration), configuration, collapse = ", ")
    expect_equal(planned_columns(planned$mechanisms),
                 planned_columns(fit$privacy$mechanisms), label = label)
    expect_true(all(is.na(planned$mechanisms$sensitivity_value)))
    expect_equal(planned$epsilon, fit$privacy$epsilon, label = label)
  }
})

test_that("a refit of an l1-ball path refits at the chosen radius", {
  set.seed(8)
  n <- 1000; p <- 4
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x %*% c(1, -1, 0, 0)) + rnorm(n)
  set.seed(1)
  cvfit <- suppressWarnings(cv.dpglmnet(
    x, y, solver = "dpfw", l1.radius = c(0.5, 1, 2), passes = 20, y.bound = 10,
    x.bounds = 4, epsilon = 2, refit = TRUE), classes = "dpglmnet_warning")
  expect_equal(cvfit$refit$lambda, cvfit$lambda.min)
  expect_equal(cvfit$refit$settings$path_parameter, "radius")
  expect_lte(cvfit$privacy$epsilon, 2)
  expect_output(print(cvfit), "at the chosen radius")
})

test_that("refit and refit.budget are checked before any computation", {
  x <- matrix(rnorm(200), 100, 2)
  y <- rnorm(100)
  set.seed(1)
  state <- .Random.seed
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, refit = "yes",
      standardize = FALSE), "`refit`")
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, refit = NA, standardize = FALSE), "`refit`")
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, refit = c(TRUE, FALSE),
      standardize = FALSE), "`refit`")
  for (bad in list(0, 1, -0.5, 1.5, NA_real_, "half", c(0.2, 0.3), Inf)) {
    expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, refit = TRUE, refit.budget = bad,
        standardize = FALSE),
                          "`refit.budget`")
  }
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, lamda = c(1, 0.1),
      standardize = FALSE), "`lamda`")
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, 0.1, standardize = FALSE), "`...`")
  # nothing was drawn: the split comes after the checks
  expect_identical(.Random.seed, state)
})

test_that("refit = TRUE when the budget affords a single lambda: one fit on all records", {
  set.seed(3)
  n <- 200; p <- 2
  x <- matrix(rnorm(n * p), n, p)
  y <- x[, 1] + rnorm(n)
  set.seed(2)
  cvfit <- suppressWarnings(cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8,
                                        refit = TRUE), classes = "dpglmnet_warning")
  expect_length(cvfit$lambda, 1L)
  # nothing to choose: no split, no choice, and no refit (the path is
  # already a fit on all records at the one lambda, with the whole budget)
  expect_null(cvfit$refit)
  expect_null(cvfit$refit.budget)
  expect_length(cvfit$validation, 0L)
  expect_equal(cvfit$dpglmnet.fit$nobs, n)
  expect_equal(cvfit$dpglmnet.fit$privacy$target_epsilon, 1)
  expect_lte(cvfit$privacy$epsilon, 1)
  expect_setequal(cvfit$privacy$mechanisms$part, 0L)  # nothing chosen: no split parts
  expect_output(print(cvfit), "nothing was chosen")
  expect_output(print(cvfit), "Fitted on all 200 records")
})
