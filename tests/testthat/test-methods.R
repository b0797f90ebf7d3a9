test_that("the fit has glmnet's shape", {
  d <- simulate_gaussian(n = 200, p = 4)
  colnames(d$x) <- c("a", "b", "c", "d")
  fit <- dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 10, y.bound = 20, nlambda = 6,
                  solver = "dpcd")
  expect_s3_class(fit, "dpglmnet")
  expect_s4_class(fit$beta, "dgCMatrix")
  expect_equal(dimnames(fit$beta), list(c("a", "b", "c", "d"), paste0("s", 0:5)))
  expect_equal(names(fit$a0), paste0("s", 0:5))
  expect_equal(fit$dim, c(4L, 6L))
  expect_equal(fit$nobs, 200)
  expect_equal(fit$df, as.integer(colSums(as.matrix(fit$beta) != 0)))
  expect_true(all(diff(fit$lambda) < 0))
  expect_equal(fit$lambda[6] / fit$lambda[1], 1e-4)  # glmnet's default for n > p
  expect_equal(fit$settings$lambda_max, fit$lambda[1])
  expect_output(print(fit), "Df")
  expect_output(print(summary(fit)), "Privacy ledger")
})

test_that("coef and predict interpolate like glmnet", {
  skip_if_not_installed("glmnet")
  d <- simulate_gaussian()
  lambda <- c(0.4, 0.2, 0.1, 0.05)
  fit <- dpglmnet(d$x, d$y, lambda = lambda, epsilon = Inf, passes = 300, standardize = FALSE)
  ref <- glmnet::glmnet(d$x, d$y, lambda = lambda, standardize = FALSE,
                        thresh = 1e-16)
  s <- c(0.5, 0.3, 0.12, 0.05, 0.01)
  expect_equal(as.matrix(coef(fit, s = s)),
               as.matrix(coef(ref, s = s, exact = FALSE)), tolerance = 1e-5,
               ignore_attr = TRUE)
  newx <- d$x[1:7, ]
  expect_equal(predict(fit, newx, s = s),
               predict(ref, newx, s = s, exact = FALSE), tolerance = 1e-5,
               ignore_attr = TRUE)
  expect_equal(predict(fit, Matrix::Matrix(newx, sparse = TRUE), s = 0.2),
               predict(fit, newx, s = 0.2))
  nz <- predict(fit, type = "nonzero")
  expect_length(nz, 4)
  expect_equal(lengths(nz), fit$df, ignore_attr = TRUE)
  expect_identical(predict(fit, type = "coefficients", s = 0.1), coef(fit, s = 0.1))
})

test_that("binomial predictions: response and class", {
  d <- simulate_binomial()
  y <- factor(ifelse(d$y == 1, "up", "down"), levels = c("down", "up"))
  fit <- suppressWarnings(dpglmnet(d$x, y, family = "binomial", epsilon = 2,
                                   x.bounds = 4, nlambda = 5))
  expect_equal(fit$classnames, c("down", "up"))
  link <- predict(fit, d$x[1:5, ], s = fit$lambda[3])
  prob <- predict(fit, d$x[1:5, ], s = fit$lambda[3], type = "response")
  cls <- predict(fit, d$x[1:5, ], s = fit$lambda[3], type = "class")
  expect_equal(prob, plogis(link))
  expect_equal(as.vector(cls), as.vector(ifelse(link > 0, "up", "down")))
})

test_that("plot draws the paths", {
  d <- simulate_gaussian(n = 200, p = 4)
  fit <- dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 10, y.bound = 20, solver = "dpcd")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_invisible(plot(fit))
  expect_invisible(plot(fit, xvar = "norm", label = TRUE))
})

test_that("print() says when coef() is the model of clamped columns", {
  set.seed(1)
  x <- matrix(rnorm(6000), 2000)
  y <- x[, 1] - x[, 2] + rnorm(2000)
  fit <- dpglmnet(x, y, epsilon = 1, x.bounds = 8, y.bound = 20)
  expect_output(print(fit), "Clamps: [0-9] of the [0-9] columns with a coefficient")
  # columns read on their public bounds: nothing narrowed, nothing said
  plain <- muffle_dpglmnet_warnings(dpglmnet(x / 8, y, epsilon = 1, x.bounds = 1,
                                             y.bound = 20, standardize = FALSE))
  expect_false(any(grepl("Clamps:", capture.output(print(plain)))))
})
