# model.matrix()'s column of ones ("(Intercept)") in a matrix x: with an
# intercept it is left out of the fit and gets the coefficient 0, as glmnet
# gives a constant column (R/ones-column.R). The fit is the fit without
# the column, and spends the same budget.

quietly <- function(expr) {
  withCallingHandlers(expr, dpglmnet_warning = function(w) invokeRestart("muffleWarning"))
}

ones_design <- function(n = 3000, seed = 4) {
  set.seed(seed)
  d <- data.frame(a = rnorm(n), g = factor(sample(c("u", "v", "w"), n, TRUE)))
  x <- stats::model.matrix(~ a + g, d)
  y <- drop(x %*% c(1, 2, 0.5, -0.5)) + rnorm(n)
  list(x = x, y = y, yb = as.numeric(y > 1.5))
}

test_that("the column of ones gets 0 and the fit is the fit without it", {
  data <- ones_design()
  x <- data$x
  set.seed(9)
  with_ones <- quietly(dpglmnet(x, data$y, epsilon = 1, x.bounds = 4, y.bound = 20))
  set.seed(9)
  without <- quietly(dpglmnet(x[, -1], data$y, epsilon = 1, x.bounds = 4, y.bound = 20))
  b <- coef(with_ones)
  expect_equal(rownames(b), c("(Intercept)", colnames(x)))
  expect_true(all(b[2, ] == 0))
  expect_equal(as.matrix(b[-2, ]), as.matrix(coef(without)), ignore_attr = TRUE)
  expect_equal(with_ones$privacy$epsilon, without$privacy$epsilon)
  expect_equal(dim(with_ones$beta), c(4L, length(with_ones$lambda)))
  expect_identical(with_ones$call[[1]], as.name("dpglmnet"))
  expect_identical(with_ones$call$x, as.name("x"))
  expect_true(with_ones$settings$standardization$x_constant[1])
  # predict() is the linear predictor of coef(), whatever the column holds
  newx <- x[1:7, ]
  newx[, 1] <- c(-3, 0, 1, 2, 7, 1e6, 1)
  s <- min(with_ones$lambda)
  expect_lt(max(abs(predict(with_ones, newx, s = s) -
                      as.matrix(cbind(1, newx[, -1]) %*% coef(with_ones, s = s)[-2, ]))), 1e-8)
  expect_output(print(with_ones), "model.matrix\\(\\)'s column of ones")
  expect_output(print(summary(with_ones)), "model.matrix\\(\\)'s column of ones")
})

test_that("per-column arguments lose the column's entry in every form", {
  data <- ones_design(n = 2000)
  x <- data$x
  bounds <- cbind(c(1, -4, 0, 0), c(1.5, 4, 1, 1))
  set.seed(3)
  a <- quietly(dpglmnet(x, data$y, epsilon = 1, x.bounds = bounds, y.bound = 20,
                        penalty.factor = c(9, 1, 2, 1), lower.limits = c(-1, -Inf, 0, -Inf)))
  set.seed(3)
  b <- quietly(dpglmnet(x[, -1], data$y, epsilon = 1, x.bounds = bounds[-1, ], y.bound = 20,
                        penalty.factor = c(1, 2, 1), lower.limits = c(-Inf, 0, -Inf)))
  expect_equal(as.matrix(coef(a)[-2, ]), as.matrix(coef(b)), ignore_attr = TRUE)
  # (glmnet's scaling, over the four columns; the lambdas are on its scale)
  expect_equal(a$settings$penalty.factor, c(9, 1, 2, 1) * 4 / 13)
  expect_equal(a$lambda, b$lambda / (4 * 4 / (3 * 13)))
  named <- list(a = 4, gv = c(0, 1), gw = c(0, 1), "(Intercept)" = c(0, 2))
  set.seed(3)
  c1 <- quietly(dpglmnet(x, data$y, epsilon = 1, x.bounds = named, y.bound = 20))
  set.seed(3)
  c2 <- quietly(dpglmnet(x[, -1], data$y, epsilon = 1, x.bounds = named[1:3], y.bound = 20))
  expect_equal(as.matrix(coef(c1)[-2, ]), as.matrix(coef(c2)), ignore_attr = TRUE)
})

test_that("cv.dpglmnet() and the l1 solvers leave the column out too", {
  data <- ones_design(n = 4000)
  x <- data$x
  set.seed(5)
  cv_ones <- quietly(cv.dpglmnet(x, data$yb, family = "binomial", epsilon = 1, x.bounds = 4))
  set.seed(5)
  cv_without <- quietly(cv.dpglmnet(x[, -1], data$yb, family = "binomial", epsilon = 1,
                                    x.bounds = 4))
  expect_equal(as.matrix(coef(cv_ones)[-2, ]), as.matrix(coef(cv_without)), ignore_attr = TRUE)
  expect_equal(coef(cv_ones)[2, 1], 0)
  expect_equal(cv_ones$privacy$epsilon, cv_without$privacy$epsilon)
  expect_identical(cv_ones$call[[1]], as.name("cv.dpglmnet"))
  expect_equal(predict(cv_ones, x[1:3, ], type = "response"),
               predict(cv_without, x[1:3, -1], type = "response"))
  set.seed(6)
  fw <- quietly(dpglmnet(x, data$y, epsilon = 1, x.bounds = 4, y.bound = 20, solver = "dpfw"))
  set.seed(6)
  fw_without <- quietly(dpglmnet(x[, -1], data$y, epsilon = 1, x.bounds = 4, y.bound = 20,
                                 solver = "dpfw"))
  # vertex 2j - 1 is +R e_j: the same picks, one column further on
  expect_equal(fw$vertices, fw_without$vertices + 2L)
})

test_that("without an intercept the column is fitted as any column", {
  data <- ones_design(n = 2000)
  fit <- quietly(dpglmnet(data$x, data$y, epsilon = 1, x.bounds = 4, y.bound = 20,
                          intercept = FALSE))
  expect_null(fit$settings$ones_columns)
  # (its spread, released with the others', reads as constant here)
  expect_length(fit$settings$standardization$x_sd, 4L)
  expect_length(fit$privacy$sensitivities$x_mean, 4L)
})

test_that("penalty factors keep glmnet's scale over every column, the constant one too", {
  skip_if_not_installed("glmnet")
  set.seed(8)
  d <- data.frame(a = rnorm(300), b = rnorm(300))
  d$y <- 1 + 2 * d$a - d$b + rnorm(300)
  x <- stats::model.matrix(y ~ ., d)
  factors <- c(0, 1, 3)
  ref <- glmnet::glmnet(x, d$y, penalty.factor = factors, thresh = 1e-14)
  fit <- dpglmnet(x, d$y, penalty.factor = factors, epsilon = Inf)
  expect_equal(fit$lambda[1], ref$lambda[1], tolerance = 1e-8)
  lambda <- c(0.5, 0.1)
  fit <- dpglmnet(x, d$y, penalty.factor = factors, epsilon = Inf, lambda = lambda)
  ref <- glmnet::glmnet(x, d$y, penalty.factor = factors, lambda = lambda, thresh = 1e-14)
  expect_equal(fit$lambda, lambda)
  expect_equal(as.matrix(coef(fit)), as.matrix(coef(ref)), tolerance = 1e-5,
               ignore_attr = TRUE)
  expect_equal(fit$settings$penalty.factor, factors * 3 / 4)
  # arguments for the wrong number of columns are named, as without the rule
  expect_dpglmnet_error(dpglmnet(x, d$y, penalty.factor = c(1, 2), epsilon = Inf),
                        "`penalty.factor`")
  expect_dpglmnet_error(dpglmnet(x, d$y, lower.limits = c(1, -1, -1), epsilon = Inf),
                        "`lower.limits`")
  expect_dpglmnet_error(dpglmnet(x, d$y, x.bounds = c(5, 20), epsilon = 1, y.bound = 20),
                        "`x.bounds`")
  # x.bounds as a data frame, a numeric smoothness per column
  bounds <- as.data.frame(cbind(c(0, -5, -5), c(1, 5, 5)))
  set.seed(2)
  a <- quietly(dpglmnet(x, d$y, x.bounds = bounds, y.bound = 20, lambda = 0.1))
  set.seed(2)
  b <- quietly(dpglmnet(x[, -1], d$y, x.bounds = as.matrix(bounds)[-1, ], y.bound = 20,
                        lambda = 0.1))
  expect_equal(as.matrix(coef(a)[-2, ]), as.matrix(coef(b)), ignore_attr = TRUE)
  expect_s3_class(quietly(dpglmnet(x, d$y, x.bounds = 5, y.bound = 20, standardize = FALSE,
                                   smoothness = c(1, 2, 3), lambda = 0.1)), "dpglmnet")
})

test_that("bounds named by column need none for model.matrix()'s column of ones", {
  # a glmnet user's model.matrix() design with bounds for the real columns
  set.seed(31)
  n <- 2000
  frame <- data.frame(region = factor(sample(c("a", "b", "c"), n, TRUE)), age = runif(n, 18, 80))
  x <- model.matrix(~ region + age, frame)
  y <- 1 + (frame$region == "b") + 0.05 * frame$age + rnorm(n)
  named <- list(regionb = c(0, 1), regionc = c(0, 1), age = c(18, 90))
  set.seed(2)
  fit <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, x.bounds = named, y.bound = 20))
  set.seed(2)
  with_ones <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, y.bound = 20,
                                                 x.bounds = c(list("(Intercept)" = 1), named)))
  expect_identical(fit$beta, with_ones$beta)
  expect_identical(rownames(fit$beta), colnames(x))
  expect_true(all(fit$beta["(Intercept)", ] == 0))
  # a named vector likewise; a missing real column is still an error naming it
  set.seed(2)
  as_vector <- muffle_dpglmnet_warnings(dpglmnet(x[, c(1, 4)], y, epsilon = 1, y.bound = 20,
                                                 x.bounds = c(age = 90)))
  expect_identical(rownames(as_vector$beta), c("(Intercept)", "age"))
  expect_dpglmnet_error(dpglmnet(x, y, epsilon = 1, y.bound = 20,
                                 x.bounds = list(regionb = c(0, 1), age = c(18, 90))),
                        "regionc")
})
