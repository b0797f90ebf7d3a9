# Factors of 3 or more levels fitted with all their dummies by a private
# fit on a data frame, reported in treatment contrasts (R/coding.R)

coding_frame <- function(n = 3000, levels = 5, seed = 1) {
  set.seed(seed)
  g <- factor(sample(letters[seq_len(levels)], n, TRUE))
  effects <- seq(-2, 2, length.out = levels)
  d <- data.frame(a = rnorm(n), g = g, s = factor(sample(c("u", "v"), n, TRUE)))
  y <- 1 + d$a + effects[as.integer(g)] + 0.5 * (d$s == "v") + rnorm(n)
  list(x = d, y = y, effects = effects)
}

test_that("a private fit codes a factor of 3+ levels in full and reports treatment contrasts", {
  d <- coding_frame()
  set.seed(2)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1,
                                           x.bounds = list(a = 4), y.bound = 12))
  expect_identical(fit$settings$full_coding, "g")
  treatment <- model.matrix(~ ., d$x)[, -1]
  # the columns model.matrix() gives, one per column in every per-column setting
  expect_identical(rownames(fit$beta), colnames(treatment))
  expect_identical(fit$dim, c(ncol(treatment), length(fit$lambda)))
  for (name in c("x.bounds", "x.lower", "x.upper", "penalty.factor", "coefficient_noise")) {
    expect_length(fit$settings[[name]], ncol(treatment))
  }
  expect_length(fit$settings$coordinate_step, ncol(treatment) + 1L)
  expect_length(fit$settings$standardization$x_scale, ncol(treatment))
  expect_identical(fit$df, as.integer(colSums(as.matrix(fit$beta) != 0)))
  # predict() is the linear predictor of coef() (records inside the ranges)
  inside <- abs(d$x$a) < 1
  link <- cbind(1, treatment[inside, ]) %*% as.matrix(coef(fit))
  expect_lt(max(abs(predict(fit, d$x[inside, ]) - link)), 1e-8)
  # the ledger counts what it released: the means of a and sv, and g's
  # five levels' as one vector (R/standardize.R)
  rows <- as.data.frame(fit$privacy)
  expect_equal(rows$count[grepl("mean of each column of x", rows$mechanism)], 2)
  expect_equal(rows$count[grepl("means of each factor's dummies", rows$mechanism)], 1)
  expect_output(print(fit), "fitted with a dummy for every level")
})

test_that("the map to treatment contrasts is exact: the fit on the full coding, by hand", {
  d <- coding_frame(n = 2000, levels = 4)
  design <- dpglmnet:::frame_design(list(x = d$x, y = d$y, x.bounds = list(a = 4)))
  expect_identical(colnames(design$x), c("a", "ga", "gb", "gc", "gd", "sv"))
  set.seed(3)
  by_frame <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 2, nlambda = 4,
                                                x.bounds = list(a = 4), y.bound = 12))
  set.seed(3)
  by_matrix <- muffle_dpglmnet_warnings(dpglmnet(design$x, d$y, epsilon = 2, nlambda = 4,
                                                 x.bounds = design$x.bounds, y.bound = 12))
  internal <- as.matrix(coef(by_matrix))
  expected <- internal[-3, , drop = FALSE]
  expected[1, ] <- internal[1, ] + internal["ga", ]
  expected[c("gb", "gc", "gd"), ] <- internal[c("gb", "gc", "gd"), ] -
    rep(internal["ga", ], each = 3)
  expect_equal(as.matrix(coef(by_frame)), expected, tolerance = 1e-12)
  # the same linear predictor on every record
  expect_equal(predict(by_frame, d$x), predict(by_matrix, design$x), tolerance = 1e-10)
})

test_that("treatment contrasts where the full coding would not mean the same", {
  d <- coding_frame(n = 600, levels = 4)
  coded <- function(...) {
    set.seed(1)
    fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, x.bounds = list(a = 4),
                                             y.bound = 12, nlambda = 3, ...))
    fit$settings$full_coding
  }
  expect_identical(coded(epsilon = 1), "g")
  # epsilon = Inf is glmnet's fit on treatment contrasts
  expect_null(coded(epsilon = Inf))
  expect_null(coded(epsilon = 1, intercept = FALSE))
  # a per-column argument or a bound on the coefficients reads the
  # treatment columns
  expect_null(coded(epsilon = 1, penalty.factor = rep(1, 5)))
  expect_null(coded(epsilon = 1, lower.limits = 0))
  expect_identical(coded(epsilon = 1, lower.limits = -Inf), "g")
  # other solvers
  expect_null(coded(epsilon = 1, solver = "dpsgd"))
  # a factor in an interaction
  set.seed(1)
  inter <- muffle_dpglmnet_warnings(dpglmnet(y ~ a * g + s, data = cbind(d$x, y = d$y),
                                             x.bounds = list(a = 4), y.bound = 12,
                                             epsilon = 1, nlambda = 3))
  expect_null(inter$settings$full_coding)
  # two levels: one dummy, nothing to gain
  two <- dpglmnet:::full_coding_factors(list(), d$x, terms(~ ., data = d$x), c("g", "s"))
  expect_identical(two, "g")
})

test_that("cv.dpglmnet() on a frame reports treatment contrasts, and predict agrees", {
  d <- coding_frame(n = 4000, levels = 6)
  set.seed(4)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(d$x, d$y, epsilon = 1,
                                                x.bounds = list(a = 4), y.bound = 12))
  treatment <- model.matrix(~ ., d$x)[, -1]
  expect_identical(rownames(coef(cvfit)), c("(Intercept)", colnames(treatment)))
  expect_identical(unname(cvfit$nzero), cvfit$dpglmnet.fit$df)
  inside <- abs(d$x$a) < 1
  link <- cbind(1, treatment[inside, ]) %*% as.matrix(coef(cvfit, s = "lambda.min"))
  expect_lt(max(abs(predict(cvfit, d$x[inside, ], s = "lambda.min") - link)), 1e-8)
})

test_that("the full coding fits a many-level factor better than treatment contrasts", {
  # a 12-level factor with strong level effects: with treatment contrasts
  # DP-CD's noise piles up along the dummies' common shift (R/coding.R)
  set.seed(5)
  n <- 8000
  make <- function(n) {
    g <- factor(sample(sprintf("h%02d", 1:12), n, TRUE))
    x <- data.frame(a = rnorm(n), g = g)
    list(x = x, y = x$a + sin(as.integer(g)) * 2 + rnorm(n))
  }
  train <- make(n)
  test <- make(4000)
  treatment_design <- dpglmnet:::frame_design(list(x = train$x, y = train$y,
                                                   x.bounds = list(a = 4), epsilon = Inf))
  errors <- vapply(1:3, function(seed) {
    set.seed(seed)
    full <- muffle_dpglmnet_warnings(cv.dpglmnet(train$x, train$y, epsilon = 1,
                                                 x.bounds = list(a = 4), y.bound = 12))
    set.seed(seed)
    treated <- muffle_dpglmnet_warnings(cv.dpglmnet(treatment_design$x, train$y, epsilon = 1,
                                                    x.bounds = treatment_design$x.bounds,
                                                    y.bound = 12))
    newx <- model.matrix(~ ., test$x)[, -1]
    c(full = mean((predict(full, test$x, s = "lambda.min") - test$y)^2),
      treatment = mean((predict(treated, newx, s = "lambda.min") - test$y)^2))
  }, numeric(2))
  expect_lt(mean(errors["full", ]), mean(errors["treatment", ]))
})

test_that("per-column arguments of the treatment columns keep treatment contrasts", {
  d <- coding_frame(n = 600, levels = 4)
  coded <- function(...) {
    set.seed(1)
    fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, x.bounds = list(a = 4),
                                             y.bound = 12, nlambda = 3, epsilon = 1, ...))
    expect_identical(rownames(fit$beta), c("a", "gb", "gc", "gd", "sv"))
    fit$settings$full_coding
  }
  # (an independent review: these failed on the internal length)
  expect_null(coded(lower.limits = rep(-Inf, 5)))
  expect_null(coded(upper.limits = rep(Inf, 5)))
  expect_identical(coded(upper.limits = Inf), "g")
  # near high dimension ("auto" may pick an l1 solver, whose radius bounds
  # the coefficients of the coding it fits): p + extra dummies >= n / 4
  small <- coding_frame(n = 24, levels = 4)
  expect_identical(dpglmnet:::full_coding_factors(
    list(), small$x, terms(~ ., data = small$x), c("g", "s")), character())
  expect_identical(dpglmnet:::full_coding_factors(
    list(l1.radius = 2), d$x, terms(~ ., data = d$x), c("g", "s")), character())
})

test_that("a level's update noise counts the baseline's too", {
  d <- coding_frame(n = 3000, levels = 3)
  set.seed(6)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1, nlambda = 3,
                                           x.bounds = list(a = 4), y.bound = 12))
  set.seed(6)
  design <- dpglmnet:::frame_design(list(x = d$x, y = d$y, x.bounds = list(a = 4)))
  internal <- muffle_dpglmnet_warnings(dpglmnet(design$x, d$y, epsilon = 1, nlambda = 3,
                                                x.bounds = design$x.bounds, y.bound = 12))
  inner <- dpglmnet:::coefficient_noise_by_column(internal)
  outer <- dpglmnet:::coefficient_noise_by_column(fit)
  expect_equal(unname(outer[c("gb", "gc")]),
               unname(sqrt(inner[c("gb", "gc")]^2 + inner["ga"]^2)))
  expect_equal(outer[c("a", "sv")], inner[c("a", "sv")])
})

test_that("character and logical columns beside a coded factor (the count of columns)", {
  set.seed(8)
  n <- 2000
  d <- data.frame(a = rnorm(n), ch = sample(c("x", "y", "z", "w"), n, TRUE),
                  lg = sample(c(TRUE, FALSE), n, TRUE),
                  f = factor(sample(letters[1:5], n, TRUE)), stringsAsFactors = FALSE)
  y <- d$a + (d$f == "b") + rnorm(n)
  tm <- terms(~ ., data = d)
  expect_identical(dpglmnet:::treatment_columns(d, tm), ncol(model.matrix(tm, d)) - 1L)
  expect_identical(dpglmnet:::full_coding_factors(list(), d, tm, c("ch", "lg", "f")),
                   c("ch", "f"))
  set.seed(1)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d, y, epsilon = 1, nlambda = 3,
                                           x.bounds = list(a = 4), y.bound = 10))
  expect_identical(fit$settings$full_coding, c("ch", "f"))
  treatment <- model.matrix(~ ., d)[, -1]
  expect_identical(rownames(fit$beta), colnames(treatment))
  inside <- abs(d$a) < 1
  expect_lt(max(abs(predict(fit, d[inside, ]) -
                      cbind(1, treatment[inside, ]) %*% as.matrix(coef(fit)))), 1e-8)
})

test_that("predict() on a frame of numeric columns only gives no warning", {
  # (the recipe of a frame without factors had contrasts character(0),
  # and model.matrix() warned "non-list contrasts argument ignored" at
  # every predict())
  set.seed(4)
  d <- data.frame(a = rnorm(500), b = runif(500))
  y <- 1 + d$a - d$b + rnorm(500)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d, y, epsilon = 1,
                                           x.bounds = list(a = 4, b = c(0, 1)), y.bound = 10))
  expect_null(fit$recipe$contrasts)
  expect_no_warning(link <- predict(fit, d[1:7, ], s = fit$lambda[1]))
  expect_equal(drop(link), drop(cbind(1, as.matrix(d[1:7, ])) %*% as.numeric(coef(fit, s = fit$lambda[1]))),
               tolerance = 1e-8)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(d, y, epsilon = 1,
                                                x.bounds = list(a = 4, b = c(0, 1)), y.bound = 10))
  expect_no_warning(predict(cvfit, d[1:3, ]))
})

test_that("an ordered factor is reported in polynomial contrasts, as model.matrix() codes it", {
  set.seed(21)
  n <- 6000
  grade <- factor(sample(c("low", "mid", "high", "top"), n, TRUE),
                  levels = c("low", "mid", "high", "top"), ordered = TRUE)
  size <- runif(n, 0, 10)
  y <- 0.3 * size + c(0, 0.5, 1.5, 1.6)[as.integer(grade)] + rnorm(n)
  ordered_frame <- data.frame(size = size, grade = grade)
  plain_frame <- data.frame(size = size, grade = factor(grade, ordered = FALSE))
  set.seed(4)
  ordered_fit <- muffle_dpglmnet_warnings(dpglmnet(ordered_frame, y, epsilon = 1,
                                                   x.bounds = c(size = 20), y.bound = 20))
  set.seed(4)
  plain_fit <- muffle_dpglmnet_warnings(dpglmnet(plain_frame, y, epsilon = 1,
                                                 x.bounds = c(size = 20), y.bound = 20))
  design <- stats::model.matrix(~ ., ordered_frame)
  expect_equal(rownames(coef(ordered_fit)), colnames(design))
  expect_identical(ordered_fit$settings$full_coding, "grade")
  # the same fit, reported another way: the same predictions
  new <- ordered_frame[1:50, ]
  expect_equal(predict(ordered_fit, new), predict(plain_fit, plain_frame[1:50, ]),
               tolerance = 1e-10)
  # (size read clamped to its released range, as predict() reads it)
  clamp <- ordered_fit$settings$standardization
  inside <- design[1:50, ]
  inside[, "size"] <- pmin(pmax(inside[, "size"], clamp$x_lower[1]), clamp$x_upper[1])
  expect_lt(max(abs(predict(ordered_fit, new) -
                      as.matrix(inside %*% coef(ordered_fit)))), 1e-10)
  # the polynomial columns' public range is their interval and clamp
  poly <- grep("^grade", rownames(ordered_fit$beta))
  expect_equal(ordered_fit$settings$x.upper[poly], apply(stats::contr.poly(4), 2, max),
               ignore_attr = TRUE)
  expect_equal(clamp$x_lower[poly], apply(stats::contr.poly(4), 2, min), ignore_attr = TRUE)
  expect_output(print(ordered_fit), "polynomial")
  # epsilon = Inf is glmnet's fit on model.matrix()'s columns
  skip_if_not_installed("glmnet")
  ref <- glmnet::glmnet(design[, -1], y, thresh = 1e-14)
  lambda <- ref$lambda[c(8, 25)]
  exact <- dpglmnet(ordered_frame, y, epsilon = Inf, lambda = lambda)
  ref <- glmnet::glmnet(design[, -1], y, lambda = lambda, thresh = 1e-14)
  expect_equal(as.matrix(coef(exact)), as.matrix(coef(ref)), tolerance = 1e-5,
               ignore_attr = TRUE)
  # two levels: fitted on its 0/1 dummy (a rare level kept), reported in
  # its polynomial column
  rare <- factor(ifelse(runif(n) < 0.03, "yes", "no"), levels = c("no", "yes"))
  y_rare <- y + 3 * (rare == "yes")
  two <- data.frame(size = size, hi = factor(rare, ordered = TRUE))
  set.seed(5)
  fit_two <- muffle_dpglmnet_warnings(dpglmnet(two, y_rare, epsilon = 0.5,
                                               x.bounds = c(size = 20), y.bound = 20))
  set.seed(5)
  fit_dummy <- muffle_dpglmnet_warnings(dpglmnet(data.frame(size = size, hi = rare), y_rare,
                                                 epsilon = 0.5, x.bounds = c(size = 20),
                                                 y.bound = 20))
  expect_equal(rownames(coef(fit_two)), colnames(stats::model.matrix(~ ., two)))
  expect_equal(predict(fit_two, two[1:40, ]),
               predict(fit_dummy, data.frame(size = size, hi = rare)[1:40, ]), tolerance = 1e-10)
  expect_equal(coef(fit_two)[3, ], coef(fit_dummy)[3, ] * sqrt(0.5), tolerance = 1e-10)
  expect_equal(fit_two$settings$x.upper[2], sqrt(0.5))
  inside <- stats::model.matrix(~ ., two[1:20, ])
  clamp <- fit_two$settings$standardization
  inside[, "size"] <- pmin(pmax(inside[, "size"], clamp$x_lower[1]), clamp$x_upper[1])
  expect_lt(max(abs(predict(fit_two, two[1:20, ]) - as.matrix(inside %*% coef(fit_two)))),
            1e-10)
  # a term without its margin codes the factor by 0/1 indicators: x:grade's
  # columns lie in x's interval, and epsilon = Inf with bounds is glmnet's
  skip_if_not_installed("glmnet")
  frame <- data.frame(size = size, grade = grade, y = y)
  design <- stats::model.matrix(y ~ size:grade, frame)
  exact <- dpglmnet(y ~ size:grade, data = frame, epsilon = Inf, lambda = 0.001,
                    x.bounds = c(size = 10))
  expect_equal(exact$settings$x.upper, rep(10, 4))
  ref <- glmnet::glmnet(design[, -1], y, lambda = 0.001, thresh = 1e-14)
  expect_equal(as.matrix(coef(exact)), as.matrix(coef(ref)), tolerance = 1e-6,
               ignore_attr = TRUE)
})
