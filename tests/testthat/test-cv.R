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
                       y.bound = 20)
  v <- cvfit$validation
  expect_length(v, 120)
  link <- predict(cvfit$dpglmnet.fit, x[v, ])
  mse <- colMeans(pmin((y[v] - link)^2, cvfit$loss.bound))
  expect_equal(cvfit$lambda.min, lambda[which.min(mse)])
  # the strong signal makes the smallest lambda clearly best
  expect_equal(cvfit$lambda.min, 0.05)
  expect_equal(coef(cvfit), coef(cvfit$dpglmnet.fit, s = 0.05))
  expect_equal(predict(cvfit, x[1:3, ], s = "lambda.min"),
               predict(cvfit$dpglmnet.fit, x[1:3, ], s = 0.05))
  expect_output(print(cvfit), "no validation curve")
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
  # report-noisy-max with Gumbel scale 2B / epsilon is epsilon-DP
  expect_equal(cvfit$selection.scale, 2 * 2 * log(20) / 1)
  choice_eps <- 2 * cvfit$loss.bound / cvfit$selection.scale
  expect_equal(choice_eps, 1)
  expect_equal(led$epsilon, max(path_eps, choice_eps), tolerance = 1e-12)
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
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, validation.fraction = 1),
                        "`validation.fraction`")
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, type.measure = "class"),
                        "`type.measure`")
  expect_dpglmnet_error(cv.dpglmnet(x, y, y.bound = 5, lambda = 0.1), "`lambda`")
  fit <- dpglmnet(x, y, epsilon = Inf, lambda = c(0.2, 0.1), passes = 50)
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
