# solver = "auto" after the independent review (R/highdim.R): cv.dpglmnet's
# refit when the rule's decision differs between a split part and all
# records (B1), nlambda (B2), the dpfw branch's centring and intercept (Q1),
# and the messages of arguments that auto's choice ignores or refuses.

gaussian_data <- function(n, p, truth, seed, xgen = NULL, level = 0) {
  set.seed(seed)
  x <- if (is.null(xgen)) matrix(stats::rnorm(n * p), n, p) else xgen(n, p)
  eta <- drop(scale(x[, seq_along(truth)]) %*% truth)
  list(x = x, y = level + eta + stats::rnorm(n))
}

test_that("cv.dpglmnet(refit = TRUE) works when a split part picks dpfw and all records dpcd (B1)", {
  # n_train = 320: p = 180 >= n_train / 2, but p < n / 2 = 200
  d <- gaussian_data(400, 180, c(2, -2), 1)
  set.seed(2)
  fit <- muffle_dpglmnet_warnings(cv.dpglmnet(
    d$x, d$y, x.bounds = 4, y.bound = 10, standardize = FALSE, refit = TRUE))
  expect_identical(fit$dpglmnet.fit$settings$solver, "dpcd")
  expect_identical(fit$refit$settings$solver, "dpcd")
  expect_gte(length(fit$lambda), 2L)
  # the full-n decision is kept as the fits' reason (it was empty)
  expect_match(fit$dpglmnet.fit$settings$solver_choice, "p = 180 < 0.5 n", fixed = TRUE)
  expect_identical(fit$refit$settings$solver_choice, fit$dpglmnet.fit$settings$solver_choice)
  # the refit is at the chosen lambda, and the whole procedure within budget
  expect_identical(fit$refit$lambda, fit$lambda.min)
  expect_lte(fit$privacy$epsilon, 1)
})

test_that("a given nlambda makes auto pick dpcd, with the reason (B2)", {
  rule <- function(nlambda) dpglmnet:::resolve_auto_solver(
    "auto", 1000, 600, 1, 1e-6, "gaussian", 1, NULL, nlambda, 4,
    list(lower = -20, upper = 20, envelope = 20), list(), -Inf, Inf, rep(1, 600))
  expect_identical(rule(NULL)$solver, "dpfw")
  expect_identical(rule(5L)$solver, "dpcd")
  expect_match(rule(5L)$reason, "nlambda given", fixed = TRUE)
  d <- gaussian_data(400, 250, c(2, -2), 3)
  set.seed(4)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, x.bounds = 4, y.bound = 10,
                                           nlambda = 5))
  expect_identical(fit$settings$solver, "dpcd")
  expect_length(fit$lambda, 5L)
  expect_match(fit$settings$solver_choice, "nlambda given", fixed = TRUE)
  # the reasons name the condition that failed (public inputs)
  expect_match(dpglmnet:::highdim_rule(1000, 600, Inf, dpglmnet:::dpglmnet_family("gaussian"), 1, NULL, NULL, 4, 20,
                                       NULL, -Inf, Inf, rep(1, 600)), "epsilon = Inf")
  expect_null(dpglmnet:::highdim_rule(1000, 600, 1, dpglmnet:::dpglmnet_family("gaussian"), 1, NULL, NULL, 4, 20,
                                      NULL, -Inf, Inf, rep(1, 600)))
})

test_that("dpfw under auto is invariant to shifting x and y with their public intervals (Q1)", {
  # x on [0, 8] is x - 4 on [-4, 4] moved by public midpoints, y on [25, 75]
  # is y - 50 on [-25, 25]: the working problem, the noise draws and so the
  # coefficients are the same; the intercepts differ by 50 - sum_j 4 b_j
  n <- 600; p <- 400
  d <- gaussian_data(n, p, c(2, -2, 1.5, -1.5), 5,
                     xgen = function(n, p) pmin(pmax(matrix(stats::rnorm(n * p), n, p), -4), 4))
  set.seed(6)
  centred <- dpglmnet(d$x, d$y, x.bounds = 4, y.bound = c(-25, 25))
  set.seed(6)
  shifted <- dpglmnet(d$x + 4, d$y + 50, x.bounds = cbind(rep(0, p), rep(8, p)),
                      y.bound = c(25, 75))
  expect_identical(shifted$settings$solver, "dpfw")
  expect_equal(as.matrix(shifted$beta), as.matrix(centred$beta), tolerance = 1e-10)
  expect_equal(unname(shifted$a0),
               unname(centred$a0 + 50 - 4 * colSums(as.matrix(centred$beta))),
               tolerance = 1e-10)
  # and the shifted fit finds the support (before: 0 of 4, test MSE about
  # var(y): the columns' means swamped the gradients)
  b <- as.numeric(shifted$beta[, 1])
  expect_gte(sum(b[1:4] != 0), 3)
  test <- gaussian_data(n, p, c(2, -2, 1.5, -1.5), 5,
                        xgen = function(n, p) pmin(pmax(matrix(stats::rnorm(n * p), n, p), -4), 4))
  set.seed(7)
  new <- gaussian_data(n, p, c(2, -2, 1.5, -1.5), 8,
                       xgen = function(n, p) pmin(pmax(matrix(stats::rnorm(n * p), n, p), -4), 4))
  prediction <- predict(shifted, new$x + 4)
  expect_lt(mean((new$y + 50 - prediction)^2) / stats::var(new$y), 0.7)
})

test_that("0/1/2 codes on [0, 2]: centred at 1, the support is found (Q1)", {
  n <- 800; p <- 500
  d <- gaussian_data(n, p, c(2, -2, 1.5, -1.5), 9,
                     xgen = function(n, p) matrix(stats::rbinom(n * p, 2, 0.3), n, p))
  set.seed(10)
  fit <- dpglmnet(d$x, d$y, x.bounds = cbind(rep(0, p), rep(2, p)), y.bound = c(-25, 25))
  expect_identical(fit$settings$solver, "dpfw")
  b <- as.numeric(fit$beta[, 1])
  expect_gte(sum(b[1:4] != 0), 2)
  expect_true(all(sign(b[1:4][b[1:4] != 0]) == c(1, -1, 1, -1)[b[1:4] != 0]))
  # the l1 ball is sum_j h_j |b_j| <= R with h_j = 1, R = 25
  expect_lte(sum(abs(b)), 25 + 1e-8)
  # the intercept is mapped back: a0 = m_y + c0 - sum_j b_j m_j with m_y =
  # 0 and m_j = 1, so predictions at x = 1 are c0 (near the mean of y)
  expect_equal(unname(predict(fit, matrix(1, 1, p))[1, 1]),
               unname(fit$a0[1] + sum(b)), tolerance = 1e-10)
})

test_that("the dpfw intercept has its own public clip, in the ledger and the noise (Q1)", {
  d <- gaussian_data(400, 300, c(2, -2), 11)
  set.seed(12)
  # (epsilon 2: at 1 the budget affords fewer than 5 selections at this n,
  # and "auto" fits the intercept alone, R/highdim.R)
  fit <- dpglmnet(d$x, d$y + 30, x.bounds = 4, y.bound = c(0, 50), epsilon = 2)
  s <- fit$settings
  expect_identical(s$solver, "dpfw")
  expect_equal(s$clip, 0.005 * 25)
  expect_equal(s$intercept_clip, 0.1 * 25)
  rows <- fit$privacy$mechanisms
  intercept_row <- grepl("intercept", rows$mechanism)
  expect_match(rows$sensitivity[intercept_row], "C0 = 2.5", fixed = TRUE)
  # noise sd 3 z 2 C0 / n: z the noise multiplier of the selections
  z <- rows$noise_multiplier[!intercept_row]
  expect_equal(rows$noise_multiplier[intercept_row], 3 * z)
  expect_equal(s$intercept_noise_sd, 3 * z * 2 * 2.5 / 400)
  # the level 30 + 25 of y's interval [0, 50] is reached: the intercept,
  # mapped back, is near the mean of y
  expect_lt(abs(fit$a0[[1]] - mean(d$y + 30)), 1)
  # binomial: C0 = 1 (the derivative is in [-1, 1], nothing clipped)
  set.seed(13)
  xb <- matrix(stats::rnorm(400 * 300), 400, 300)
  yb <- stats::rbinom(400, 1, stats::plogis(-1 + xb[, 1] - xb[, 2]))
  fb <- dpglmnet(xb, yb, family = "binomial", x.bounds = 4, epsilon = 2)
  expect_equal(fb$settings$intercept_clip, 1)
})

test_that("binomial at prevalence 0.27: the intercept reaches its level (Q1)", {
  n <- 2000; p <- 1200
  set.seed(14)
  x <- pmin(pmax(matrix(stats::rnorm(2 * n * p), 2 * n, p), -4), 4)
  eta <- -1.6 + drop(x[, 1:4] %*% c(1.5, -1.5, 1, -1))
  y <- stats::rbinom(2 * n, 1, stats::plogis(eta))
  train <- seq_len(n)
  expect_lt(abs(mean(y) - 0.3), 0.05)
  set.seed(15)
  fit <- dpglmnet(x[train, ], y[train], family = "binomial", x.bounds = 4)
  expect_identical(fit$settings$solver, "dpfw")
  # before: the intercept moved 0.02 per step and stayed near 0 (-0.1), the
  # held-out deviance near the null model's
  expect_lt(fit$a0[[1]], -0.8)
  prob <- pmin(pmax(drop(predict(fit, x[-train, ], type = "response")), 1e-6), 1 - 1e-6)
  yt <- y[-train]
  deviance <- -2 * sum(yt * log(prob) + (1 - yt) * log(1 - prob))
  m <- mean(yt)
  null <- -2 * sum(yt * log(m) + (1 - yt) * log(1 - m))
  expect_lt(deviance / null, 0.85)
})

test_that("without an intercept nothing is centred", {
  d <- gaussian_data(400, 300, c(2, -2), 16)
  set.seed(17)
  fit <- dpglmnet(d$x, d$y, x.bounds = cbind(rep(-2, 300), rep(6, 300)), y.bound = c(-5, 15),
                  intercept = FALSE)
  expect_identical(fit$settings$solver, "dpfw")
  expect_true(all(fit$a0 == 0))
})

test_that("sparse x is centred by Frank-Wolfe itself: the sparse fit is the dense fit", {
  set.seed(18)
  n <- 600; p <- 400
  x <- matrix(stats::rbinom(n * p, 2, 0.2), n, p)
  y <- 3 + 2 * x[, 1] - 2 * x[, 2] + stats::rnorm(n)
  xs <- Matrix::Matrix(x, sparse = TRUE)
  b <- cbind(rep(0, p), rep(2, p))
  set.seed(19)
  dense <- dpglmnet(x, y, x.bounds = b, y.bound = c(-5, 15))
  set.seed(19)
  sparse <- dpglmnet(xs, y, x.bounds = b, y.bound = c(-5, 15))
  expect_identical(sparse$settings$solver, "dpfw")
  expect_identical(sparse$vertices, dense$vertices)
  expect_equal(as.matrix(sparse$beta), as.matrix(dense$beta), tolerance = 1e-10)
  expect_equal(sparse$a0, dense$a0, tolerance = 1e-10)
  # binomial, and a cv.dpglmnet() that reads row subsets of the sparse x
  yb <- stats::rbinom(n, 1, stats::plogis(-1 + x[, 1] - x[, 2]))
  set.seed(20)
  dense_b <- dpglmnet(x, yb, family = "binomial", x.bounds = b)
  set.seed(20)
  sparse_b <- dpglmnet(xs, yb, family = "binomial", x.bounds = b)
  expect_equal(as.matrix(sparse_b$beta), as.matrix(dense_b$beta), tolerance = 1e-10)
  expect_equal(sparse_b$a0, dense_b$a0, tolerance = 1e-10)
  set.seed(21)
  cv_dense <- cv.dpglmnet(x[1:500, ], y[1:500], x.bounds = b, y.bound = c(-5, 15))
  set.seed(21)
  cv_sparse <- cv.dpglmnet(xs[1:500, ], y[1:500], x.bounds = b, y.bound = c(-5, 15))
  expect_equal(as.matrix(cv_sparse$dpglmnet.fit$beta), as.matrix(cv_dense$dpglmnet.fit$beta),
               tolerance = 1e-10)
})

test_that("arguments auto's choice ignores or refuses say so (nits)", {
  d <- gaussian_data(400, 250, c(2, -2), 19)
  expect_error(dpglmnet(d$x, d$y, x.bounds = 4, y.bound = 10, clip = "quantile"),
               class = "dpglmnet_error", regexp = "auto.*picked.*dpfw")
  expect_warning(dpglmnet(d$x, d$y, x.bounds = 4, y.bound = 10, average = TRUE,
                          step = 0.5),
                 class = "dpglmnet_warning", regexp = "ignores `average`, `step`")
  # nothing said at the defaults, nor when the user chose dpcd
  expect_no_warning(dpglmnet(d$x, d$y, x.bounds = 4, y.bound = 10))
  expect_no_warning(dpglmnet(d$x, d$y, x.bounds = 4, y.bound = 10, solver = "dpcd",
                             standardize = FALSE, average = TRUE,
                             smoothness = "bounds", clip = 1),
                    message = "ignores")
})
