# Private standardization (standardize = TRUE): glmnet's solution with
# epsilon = Inf, the releases in the ledger, coefficients on the original
# scale.

scaled_data <- function(n = 500, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * 6), n) %*% diag(c(1, 10, 0.1, 5, 1, 100)) + 3
  list(x = x, y = drop(x %*% c(1, 0.1, 5, 0, 0, 0.01)) + rnorm(n))
}

test_that("epsilon = Inf reproduces glmnet's standardize = TRUE solution", {
  skip_if_not_installed("glmnet")
  d <- scaled_data()
  lambda <- c(0.5, 0.1)
  g <- glmnet::glmnet(d$x, d$y, lambda = lambda, thresh = 1e-16)
  f <- dpglmnet(d$x, d$y, epsilon = Inf, lambda = lambda, standardize = TRUE,
                passes = 2000)
  expect_equal(as.matrix(coef(f)), as.matrix(coef(g)), tolerance = 1e-5,
               ignore_attr = TRUE)
  # binomial, elastic net
  yb <- rbinom(500, 1, plogis(drop(scale(d$x) %*% c(1, -1, 0.5, 0, 0, 0))))
  g <- glmnet::glmnet(d$x, yb, family = "binomial", alpha = 0.5,
                      lambda = c(0.05, 0.01), thresh = 1e-16)
  f <- dpglmnet(d$x, yb, family = "binomial", alpha = 0.5, epsilon = Inf,
                lambda = c(0.05, 0.01), standardize = TRUE, passes = 3000)
  expect_equal(as.matrix(coef(f)), as.matrix(coef(g)), tolerance = 1e-5,
               ignore_attr = TRUE)
  # sparse x is scaled, not centred: the same solution with an intercept
  xs <- Matrix::Matrix(d$x * (abs(d$x) > 3), sparse = TRUE)
  g <- glmnet::glmnet(xs, d$y, lambda = lambda, thresh = 1e-16)
  f <- dpglmnet(xs, d$y, epsilon = Inf, lambda = lambda, standardize = TRUE,
                passes = 3000)
  expect_equal(as.matrix(coef(f)), as.matrix(coef(g)), tolerance = 1e-5,
               ignore_attr = TRUE)
  # no intercept: scaled by the standard deviation, not centred (as glmnet)
  g <- glmnet::glmnet(d$x, d$y, lambda = lambda, intercept = FALSE, thresh = 1e-16)
  f <- dpglmnet(d$x, d$y, epsilon = Inf, lambda = lambda, standardize = TRUE,
                intercept = FALSE, passes = 3000)
  expect_equal(as.matrix(coef(f)), as.matrix(coef(g)), tolerance = 1e-5,
               ignore_attr = TRUE)
})

test_that("the standardization releases are in the ledger and add up by hand", {
  d <- scaled_data(n = 2000, seed = 2)
  x.bounds <- 2 * apply(abs(d$x), 2, max)
  fit <- suppressWarnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = x.bounds,
                                   y.bound = 2 * max(abs(d$y)), nlambda = 4, passes = 3),
                          classes = "dpglmnet_warning")
  led <- fit$privacy
  m <- led$mechanisms
  expect_true(all(m$type == "gaussian"))  # no Laplace: smoothness is free
  expect_identical(fit$settings$smoothness, "standardized")
  ranges <- grepl("ranges", m$mechanism)
  moments <- grepl("mean of|second moment of", m$mechanism)
  of_y <- grepl("of y", m$mechanism)
  path <- grepl("DP-CD clipped", m$mechanism)
  # one pair of histograms per column of x (6) and for y
  expect_equal(m$count[ranges], c(6, 1))
  expect_equal(unique(m$sensitivity[ranges]),
               "2 (one record moves between two bins of each histogram)")
  expect_equal(sum(m$count[moments]), 2 * 7)
  expect_equal(m$count[path], 4 * 3 * 7)
  expect_false(any(grepl("lambda_max", m$mechanism)))  # public after standardizing
  # exact GDP composition, by hand
  mu <- sqrt(sum(m$count / m$noise_multiplier^2))
  expect_equal(led$epsilon, gdp_epsilon(mu, 1 / 2000^2), tolerance = 1e-12)
  expect_equal(led$epsilon, 1, tolerance = 1e-8)
  # the standardization takes 30% of mu^2: a quarter of it to y, the rest
  # split evenly between the ranges and the moments of the columns of x
  share <- function(rows) sum(m$count[rows] / m$noise_multiplier[rows]^2) / mu^2
  expect_equal(share(of_y), 0.3 / 4, tolerance = 1e-10)
  expect_equal(share(ranges & !of_y), 0.3 * 3 / 8, tolerance = 1e-10)
  expect_equal(share(moments & !of_y), 0.3 * 3 / 8, tolerance = 1e-10)
  # y's three releases share one noise level
  expect_equal(length(unique(m$noise_multiplier[of_y])), 1L)
})

test_that("released clamps hold the data and scales are close with a large budget", {
  d <- scaled_data(n = 20000, seed = 3)
  x.bounds <- 2 * apply(abs(d$x), 2, max)
  fit <- suppressWarnings(dpglmnet(d$x, d$y, epsilon = 50, x.bounds = x.bounds,
                                   y.bound = 2 * max(abs(d$y)), lambda = 0.01),
                          classes = "dpglmnet_warning")
  r <- fit$settings$standardization
  # the clamp is a pair of histogram edges holding (nearly) all records, at
  # most a factor 2 beyond them on each side (log-spaced bins)
  inside <- colMeans(d$x >= rep(r$x_lower, each = 20000) & d$x <= rep(r$x_upper, each = 20000))
  expect_true(all(inside > 0.995))
  clamped <- pmin(pmax(d$x, rep(r$x_lower, each = 20000)), rep(r$x_upper, each = 20000))
  expect_equal(r$x_sd, apply(clamped, 2, function(v) sqrt(mean((v - mean(v))^2))),
               tolerance = 0.02)
  expect_false(any(r$x_constant))
  # coefficients come back on the original scale: predictions track y
  truth <- drop(d$x %*% c(1, 0.1, 5, 0, 0, 0.01))
  expect_gt(cor(drop(predict(fit, d$x)), d$y), 0.95 * cor(truth, d$y))
  # predict() is the linear predictor of coef() inside the released ranges,
  # and clamps new records to them (and to nothing else)
  lower <- rep(r$x_lower, each = 5)
  upper <- rep(r$x_upper, each = 5)
  inner <- lower + (upper - lower) * matrix(runif(5 * 6), 5, 6)
  expect_lt(max(abs(predict(fit, inner) - cbind(1, inner) %*% coef(fit))), 1e-8)
  far <- d$x[1:5, ] * 100
  expect_equal(as.numeric(predict(fit, far)),
               as.numeric(as.matrix(cbind(1, pmin(pmax(far, lower), upper)) %*% coef(fit))),
               tolerance = 1e-10, ignore_attr = TRUE)
  expect_false(isTRUE(all.equal(as.numeric(predict(fit, far)),
                                as.numeric(cbind(1, far) %*% coef(fit)))))
})

test_that("constant and hidden columns get coefficient 0 and a warning, never a blow-up", {
  set.seed(11)
  n <- 10000
  z <- matrix(rnorm(n * 3), n, 3)
  off <- 3 + 0.1 * rnorm(n)          # outside its public bound of 1
  x <- cbind("(Intercept)" = 1, z, off = off)
  y <- drop(z %*% c(1, -1, 0.5)) + rnorm(n)
  seen <- dpglmnet_warnings(
    fit <- dpglmnet(x, y, epsilon = 1, x.bounds = c(1, 5, 5, 5, 1), y.bound = 10,
                    lambda = 0.01))
  expect_true(any(grepl("treated as constant.*x.bounds. may be too small", seen)))
  b <- coef(fit)
  expect_equal(as.numeric(b[c(2, 6), 1]), c(0, 0))  # the ones column and off
  expect_true(all(fit$settings$standardization$x_constant[c(1, 5)]))
  expect_lt(max(abs(as.numeric(b[3:5, 1]) - c(1, -1, 0.5))), 0.3)
  # over many seeds, no coefficient of a rare dummy or mostly-zero count is
  # absurd (|b_j| sd(x_j) > 10 sd(y))
  worst <- 0
  for (seed in 1:15) {
    set.seed(seed)
    n <- 8000
    z <- matrix(rnorm(n * 2), n, 2)
    d1 <- rbinom(n, 1, 0.01)
    d3 <- rbinom(n, 1, 0.03)
    counts <- ifelse(runif(n) < 0.97, 0, rpois(n, 3))
    x <- cbind(z, d1, d3, counts)
    y <- drop(z %*% c(1, -1)) + 5 * d1 + 2 * d3 + 0.5 * counts + rnorm(n)
    fit <- suppressWarnings(dpglmnet(x, y, epsilon = 1, x.bounds = c(5, 5, 1, 1, 20),
                                     y.bound = 2 * max(abs(y))),
                            classes = "dpglmnet_warning")
    beta <- as.matrix(fit$beta)
    worst <- max(worst, abs(beta) * apply(x, 2, sd) / sd(y))
  }
  expect_lt(worst, 10)
})

test_that("a rare dummy whose mass the counts cannot see keeps its effect; an all-zero column is kept, a column of ones is constant", {
  # n = 1e4, epsilon = 1: the 1% of ones (100 records) is within the count
  # noise of the range histograms. Cutting them away made the dummy
  # "constant" in 9 fits of 10 (effect 0 for a true 5); it is now read on its
  # public interval at a scale its noise can resolve.
  set.seed(42)
  n <- 1e4
  z <- matrix(rnorm(n * 4), n, 4, dimnames = list(NULL, paste0("z", 1:4)))
  d <- rbinom(n, 1, 0.01)
  x <- cbind(dummy = d, z)
  y <- 1 + 5 * d + drop(z %*% c(1, -1, 0.5, 0)) + rnorm(n)
  effect <- vapply(1:8, function(seed) {
    set.seed(seed)
    fit <- suppressWarnings(dpglmnet(x, y, epsilon = 1, x.bounds = c(1, 12, 12, 12, 12),
                                     y.bound = 30), classes = "dpglmnet_warning")
    expect_false(fit$settings$standardization$x_constant[1])
    coef(fit)[2, ncol(coef(fit))]
  }, numeric(1))
  expect_gt(mean(effect), 3.5)
  expect_lt(mean(effect), 6.5)

  # An all-zero column looks the same to the histograms (all clear mass at
  # 0): kept, with a warning saying its coefficient is noisy, never absurd;
  # a column of ones (clear mass at 1) is constant: coefficient exactly 0.
  x <- cbind(zero = 0, ones = 1, z)
  y <- 1 + drop(z %*% c(1, -1, 0.5, 0)) + rnorm(n)
  set.seed(1)
  seen <- dpglmnet_warnings(
    fit <- dpglmnet(x, y, epsilon = 1, x.bounds = c(1, 1, rep(5, 4)), y.bound = 10))
  expect_true(any(grepl("(zero).*cannot be resolved.*kept on their public interval", seen)))
  expect_true(any(grepl("(ones).*treated as constant", seen)))
  r <- fit$settings$standardization
  expect_equal(c(r$x_constant[1:2]), c(FALSE, TRUE))
  expect_equal(c(r$x_lower[1], r$x_upper[1]), c(-1, 1))  # the public interval
  # centred at the public anchor 0, not at its noisy mean: it reads as 0
  expect_identical(r$x_center[1], 0)
  expect_true(r$x_unresolved[1])
  b <- as.matrix(coef(fit))
  expect_true(all(b["ones", ] == 0))
  expect_true(all(is.finite(b)))
  # the all-zero column's coefficient is noise, at most a few sd(y)
  expect_lt(max(abs(b["zero", ])), 10 * sd(y))
})

test_that("the 0/1 dummies of a data frame's factors release their mean alone", {
  set.seed(7)
  n <- 4000
  df <- data.frame(g = factor(sample(c("a", "b", "c", "d"), n, TRUE,
                                     prob = c(0.55, 0.3, 0.12, 0.03))),
                   u = runif(n, -1, 1), v = rnorm(n))
  y <- 1 + 2 * (df$g == "b") - 3 * (df$g == "d") + df$u + 0.5 * df$v + rnorm(n)
  fit <- muffle_dpglmnet_warnings(dpglmnet(df, y, epsilon = 1, delta = 1e-6, nlambda = 1,
                                           lambda = 0.01, passes = 4,
                                           x.bounds = list(u = 2, v = 6), y.bound = 20))
  rows <- as.data.frame(fit$privacy)
  count <- function(pattern) rows$count[grepl(pattern, rows$mechanism)]
  # four dummies (ga..gd: a private fit codes a factor of 4 levels in full,
  # R/coding.R) and two numeric columns: histograms and second moments of
  # the numeric columns only, the means of the numeric columns, and the
  # four dummies' means as one vector (R/standardize.R)
  expect_equal(count("ranges of each column of x but its 0/1 dummies"), 2)
  expect_equal(count("mean of each column of x but its factors' dummies"), 2)
  expect_equal(count("means of each factor's dummies, one vector per factor"), 1)
  expect_equal(count("second moment of each column of x but its 0/1 dummies"), 2)
  # the total by hand: every Gaussian row composes in GDP at its multiplier
  gaussian <- rows$type == "gaussian"
  mu <- sqrt(sum(rows$count[gaussian] / rows$noise_multiplier[gaussian]^2))
  expect_equal(fit$privacy$epsilon, gdp_epsilon(mu, 1e-6), tolerance = 1e-10)
  expect_lte(fit$privacy$epsilon, 1)
  # a dummy's sd follows from its released mean, sqrt(m (1 - m)); it keeps [0, 1]
  r <- fit$settings$standardization
  dummies <- 1:3
  expect_equal(r$x_sd[dummies], sqrt(r$x_mean[dummies] * (1 - r$x_mean[dummies])))
  expect_equal(c(r$x_lower[dummies], r$x_upper[dummies]), rep(c(0, 1), each = 3))
  expect_equal(unname(r$x_mean[dummies]), c(0.3, 0.12, 0.03), tolerance = 0.1)
  # its second moment's sensitivity is never recorded: only the numeric columns'
  expect_length(fit$privacy$sensitivities$x_second_moment, 2)
  # the sensitivities: a numeric column's mean its clamp's width / n, the
  # factor's vector of means sqrt(2) / n (one record changes level), at a
  # multiplier 1 / sqrt(2) of the other means': each dummy's mean has the
  # noise sd of a separate mean over [0, 1], 1 / n times their multiplier;
  # the numeric columns' second moments reach^2 / n about the clamp's midpoint
  expect_equal(fit$privacy$sensitivities$x_group_mean, sqrt(2) / n)
  expect_equal(fit$privacy$sensitivities$x_mean,
               unname(r$x_upper[4:5] - r$x_lower[4:5]) / n)
  m <- fit$privacy$mechanisms
  multiplier <- function(key) m$noise_multiplier[m$key == key]
  expect_equal(multiplier("x_group_mean"), multiplier("x_mean") / sqrt(2))
  expect_equal(dpglmnet:::release_noise(fit$privacy, "x_group_mean"),
               multiplier("x_mean") / n)
  reach <- (r$x_upper[4:5] - r$x_lower[4:5]) / 2
  expect_equal(fit$privacy$sensitivities$x_second_moment, unname(reach^2 / n))

  # Exact (epsilon = Inf): the same standardization as the matrix interface,
  # which knows no dummies (sd sqrt(m (1 - m)) is the dummy's 1/n sd)
  exact_frame <- dpglmnet(df, y, epsilon = Inf, x.bounds = list(u = 2, v = 6),
                          y.bound = 20, nlambda = 5, passes = 50)
  x <- model.matrix(~ ., df)[, -1]
  exact_matrix <- dpglmnet(x, y, epsilon = Inf,
                           x.bounds = cbind(c(0, 0, 0, -2, -6), c(1, 1, 1, 2, 6)),
                           y.bound = 20, nlambda = 5, passes = 50)
  expect_equal(exact_frame$settings$standardization$x_sd,
               exact_matrix$settings$standardization$x_sd, tolerance = 1e-12)
  expect_equal(as.matrix(coef(exact_frame)), as.matrix(coef(exact_matrix)),
               tolerance = 1e-10, ignore_attr = TRUE)

  # A matrix with the same 0/1 columns and no schema releases them as any
  # column (histograms and second moments)
  matrix_fit <- muffle_dpglmnet_warnings(dpglmnet(
    x, y, epsilon = 1, delta = 1e-6, nlambda = 1, lambda = 0.01, passes = 4,
    x.bounds = cbind(c(0, 0, 0, -2, -6), c(1, 1, 1, 2, 6)), y.bound = 20))
  rows <- as.data.frame(matrix_fit$privacy)
  expect_equal(rows$count[grepl("second moment of each column of x, clamped",
                                rows$mechanism)], 5)
})

test_that("a dummy of a level in nearly every record is centred at 1, not read as an intercept", {
  set.seed(3)
  n <- 3000
  df <- data.frame(g = factor(c(rep("a", 3), rep("b", n - 3))), u = runif(n, -1, 1))
  y <- 1 + df$u + rnorm(n)
  fit <- muffle_dpglmnet_warnings(dpglmnet(df, y, epsilon = 1, nlambda = 1, lambda = 0.01,
                                           x.bounds = list(u = 1), y.bound = 10))
  r <- fit$settings$standardization
  expect_true(r$x_unresolved[1])
  expect_identical(unname(r$x_center[1]), 1)
  b <- as.matrix(coef(fit))
  expect_true(all(is.finite(b)))
  expect_lt(abs(b["(Intercept)", 1] - 1), 1)
  # predict() is the linear predictor of coef()
  newx <- df[1:10, ]
  expect_equal(drop(predict(fit, newx)),
               drop(cbind(1, model.matrix(~ ., newx)[, -1]) %*% b[, 1]), tolerance = 1e-8,
               ignore_attr = TRUE)
})

test_that("a column marked 0/1 is read clamped to [0, 1], exact or private; an all-zero dummy is constant when exact", {
  set.seed(13)
  n <- 500
  x <- cbind(u = runif(n, 0, 5), v = rnorm(n))
  y <- x[, 2] + rnorm(n)
  bounds <- cbind(c(0, -5), c(1, 5))
  attr(bounds, "binary") <- c(TRUE, FALSE)
  exact <- dpglmnet(x, y, epsilon = Inf, x.bounds = bounds, y.bound = 10, nlambda = 3)
  r <- exact$settings$standardization
  m <- mean(pmin(x[, 1], 1))
  expect_equal(r$x_mean[1], m)
  expect_equal(r$x_sd[1], sqrt(m * (1 - m)))
  # a mark on a column whose interval is not [0, 1] is not honoured
  wide <- bounds
  wide[1, ] <- c(0, 5)
  rows <- as.data.frame(muffle_dpglmnet_warnings(dpglmnet(
    x, y, epsilon = 1, x.bounds = wide, y.bound = 10, nlambda = 1, lambda = 0.1))$privacy)
  expect_equal(rows$count[grepl("second moment of each column of x, clamped",
                                rows$mechanism)], 2)
  # epsilon = Inf: an all-zero dummy is constant (nothing hides in exact moments)
  df <- data.frame(g = factor(rep("a", n), levels = c("a", "b")), v = x[, 2])
  exact <- dpglmnet(df, y, epsilon = Inf, x.bounds = list(v = 5), y.bound = 10, nlambda = 3)
  expect_true(exact$settings$standardization$x_constant[1])
  expect_false(exact$settings$standardization$x_unresolved[1])
})

test_that("a column coded 1..4 with a crude bound is clamped where its values are, and keeps its spread", {
  # bound 8 (twice its maximum): the top value 4 is alone in the log bin
  # [4, 8], a quarter of the records. The fine bins used to be barred from
  # that bin, the clamp stayed [1, 8], and with 30 more columns sharing the
  # budget the spread fell within the second moment's noise (the column
  # was held at 0). A 0/1 column with bound 2 is the same case. (The fine
  # cut may stop early at a noisy bin: most fits end at the value's fine
  # bin, every one below the public bound.)
  n <- 8000
  set.seed(5)
  z <- matrix(rnorm(n * 30), n, 30)
  coded <- sample(1:4, n, TRUE)
  flag <- rbinom(n, 1, 0.3)
  x <- cbind(coded = coded, flag = flag, z)
  y <- coded + 2 * flag + drop(z[, 1:3] %*% c(1, -1, 0.5)) + rnorm(n)
  bounds <- c(8, 2, 2 * apply(abs(z), 2, max))
  upper <- vapply(1:6, function(seed) {
    set.seed(seed)
    fit <- suppressWarnings(dpglmnet(x, y, epsilon = 1, x.bounds = bounds, y.bound = 40,
                                     lambda = 0.01), classes = "dpglmnet_warning")
    r <- fit$settings$standardization
    expect_false(any(r$x_constant[1:2]))
    expect_equal(as.numeric(coef(fit)[2:3, 1]), c(1, 2), tolerance = 0.25)
    r$x_upper[1:2]
  }, numeric(2))
  expect_true(all(upper[1, ] >= 4 & upper[1, ] < 8))
  expect_true(all(upper[2, ] >= 1 & upper[2, ] < 2))
  # (a fine bin of [-8, 8] is 0.5 wide, of [-2, 2] 0.125)
  expect_lte(median(upper[1, ]), 4.5)
  expect_lte(median(upper[2, ]), 1.125)
})

test_that("a coded column below 0 keeps its values on a log edge; a short log bin is not read for a value", {
  # a column coded -4..-1 with bound 8: the log bins below the anchor are
  # closed at their inner edge, and a value on an edge (-2) is filed in
  # different log and fine bins; the clamp must hold the -1s (an
  # independent review: it ended at -1.5 in every fit)
  # (a fit with 30 N(0, 1) columns of bound 10 beside the coded column)
  coded_fit <- function(x, y, seed) {
    set.seed(seed)
    suppressWarnings(dpglmnet(x, y, epsilon = 1, x.bounds = c(8, rep(10, 30)),
                              y.bound = 40, lambda = 0.01),
                     classes = "dpglmnet_warning")
  }
  n <- 8000
  set.seed(6)
  z <- matrix(rnorm(n * 30), n, 30)
  coded <- -sample(1:4, n, TRUE)
  x <- cbind(coded = coded, z)
  y <- coded + drop(z[, 1:3] %*% c(1, -1, 0.5)) + rnorm(n)
  for (seed in 1:4) {
    r <- coded_fit(x, y, seed)$settings$standardization
    expect_gte(r$x_upper[1], -1)
    expect_lte(r$x_lower[1], -4)
  }
  # N(0, 1) columns with bound 10: the log bin [1.25, 2.5) is two fine bins
  # (0.625 wide), the inner holding 3/4 of its records, and is not read for
  # a value's: no clamp ends inside it (a cut there left up to 6% of a
  # column's records outside)
  set.seed(3)
  z <- matrix(rnorm(n * 30), n, 30)
  y <- drop(z[, 1:3] %*% c(2, -1, 1)) + 0.5 * rnorm(n)
  for (seed in 1:3) {
    set.seed(seed)
    fit <- suppressWarnings(dpglmnet(z, y, epsilon = 1, x.bounds = 10, y.bound = 20,
                                     lambda = 0.01), classes = "dpglmnet_warning")
    r <- fit$settings$standardization
    expect_false(any(r$x_upper > 1.25 & r$x_upper < 2.5))
    expect_false(any(r$x_lower < -1.25 & r$x_lower > -2.5))
  }
  # 3% of the records at the bound 8 beside the values 1..4 of the log bin
  # [4, 8], with 30 more columns sharing the budget (the mass is within the
  # fine counts' noise): the clamp may end at 4.5, never below (the price
  # src/dpglmnet/histogram.h states), and the column keeps its effect
  set.seed(9)
  top <- rbinom(n, 1, 0.03)
  coded <- ifelse(top == 1, 8, sample(1:4, n, TRUE))
  z <- matrix(rnorm(n * 30), n, 30)
  x <- cbind(coded = coded, z)
  y <- 0.5 * coded + drop(z[, 1:3] %*% c(1, -1, 0.5)) + rnorm(n)
  for (seed in 1:4) {
    fit <- coded_fit(x, y, seed)
    r <- fit$settings$standardization
    expect_gte(r$x_upper[1], 4.5)
    expect_false(r$x_constant[1])
    expect_gt(coef(fit)[2, 1], 0.3)
  }
})

test_that("a column whose released counts show spread is floored, never constant", {
  # years 0-20, a tenth top-coded at 20, bound 40 (as crude bounds are), and
  # a constant column: with exact-ish counts and moments too noisy to
  # resolve either spread, the first keeps the scale floor (the counts show
  # it in many fine bins), the second is constant (one bin)
  set.seed(11)
  n <- 2000
  years <- c(sample(0:19, 0.9 * n, replace = TRUE), rep(20, 0.1 * n))
  x <- cbind(years = years, three = 3)
  plan <- dpglmnet:::standardization_plan(TRUE, TRUE, "gaussian", NULL, FALSE, 2, 1)
  released <- replicate(20, simplify = FALSE, dpglmnet:::release_column_scales(
    x, c(-40, -40), c(40, 40), plan, noise_ranges = 0.5, noise_moments = 2000, "seeded"))
  for (xs in released) {
    expect_identical(xs$floored, c(TRUE, FALSE))
    expect_identical(xs$constant, c(FALSE, TRUE))
    expect_false(any(xs$unresolved))
    # at the floor: a finite scale, at least what the noise can resolve
    expect_true(is.finite(xs$sd[1]) && xs$sd[1] > 0)
  }
  # a clamp ending at or below the anchor holds the records at its end
  # (histogram.h): two values below 0 read as spread as their mirror does
  two <- cbind(below = sample(c(-2, -1), n, TRUE), above = sample(c(1, 2), n, TRUE))
  for (k in 1:5) {
    xs <- dpglmnet:::release_column_scales(two, c(-8, -8), c(8, 8), plan, noise_ranges = 0.5,
                                           noise_moments = 2000, "seeded")
    expect_identical(xs$floored, c(TRUE, TRUE))
  }
  # the bins of a clamp, as choose_clamp() reads them
  inside <- dpglmnet:::clamp_fine_bins(c(-8, -8, 1), c(8, 8, 9), c(-2, 1, 3), c(-1, 2.5, 9), 32)
  expect_equal(which(inside[, 1]) - 1L, 12:14)  # [-2, -1] and the bin at -1
  expect_equal(which(inside[, 2]) - 1L, 18:20)  # [1, 2.5): its top is open
  expect_equal(which(inside[, 3]) - 1L, 8:31)   # [3, 9] of [1, 9]
  # with moments that resolve it, the spread is released as usual
  exact <- dpglmnet:::release_column_scales(x, c(-40, -40), c(40, 40), plan,
                                            noise_ranges = 0.5, noise_moments = 0, "seeded")
  expect_identical(exact$floored, c(FALSE, FALSE))
  expect_equal(exact$sd[1], sqrt(mean((years - mean(years))^2)), tolerance = 1e-6)
  # without the counts' evidence (no ranges released) the old rule stands
  no_ranges <- plan
  no_ranges$ranges <- FALSE
  xs <- dpglmnet:::release_column_scales(x, c(-40, -40), c(40, 40), no_ranges, 0, 2000,
                                         "seeded")
  expect_false(any(xs$floored))
})

test_that("a floored column is named in a warning built from released values", {
  # the years column beside 30 normal ones at epsilon 1: in some fits the
  # moments cannot resolve its spread (a clamp twice its range); it is then
  # floored and named, never constant
  set.seed(12)
  n <- 3000
  years <- c(sample(0:19, 0.9 * n, replace = TRUE), rep(20, 0.1 * n))
  x <- cbind(years = years, matrix(rnorm(n * 30), n, 30))
  y <- 0.3 * years + rnorm(n)
  warnings <- character()
  fits <- lapply(1:8, function(seed) {
    set.seed(seed)
    withCallingHandlers(
      dpglmnet(x, y, epsilon = 1, x.bounds = c(40, rep(5, 30)), y.bound = 30,
               lambda = 0.01),
      warning = function(w) {
        warnings <<- c(warnings, conditionMessage(w))
        invokeRestart("muffleWarning")
      })
  })
  r <- lapply(fits, function(f) f$settings$standardization)
  floored <- vapply(r, function(s) s$x_floored[1], logical(1))
  expect_false(any(vapply(r, function(s) s$x_constant[1], logical(1))))
  expect_gte(sum(floored), 1)
  expect_true(any(grepl("years.*show values in more than one", warnings)))
  # a floored column's coefficient is at most its noise over the floor, not
  # a blow-up: the fit still finds the slope 0.3 (sd(years) ~ 6)
  slope <- vapply(fits[floored], function(f) as.numeric(coef(f)["years", 1]), numeric(1))
  expect_true(all(abs(slope - 0.3) < 0.3))
  # summary() shows the floored columns
  shown <- summary(fits[[which(floored)[1]]])$columns
  expect_true(shown$floored[1])
})

test_that("records next to the clamp are not cut with a long empty tail", {
  # values 0, 1 and 2 (15% of the records, each value in its own narrow log
  # bin near the anchor, each within 3 noise sds) below 5-20, bound 40: the
  # summed noise of the 21 empty log bins below them used to swallow them
  # (the clamp's lower end at 0.625 to 5 in 15 draws of 20); their fine bin
  # [0, 2.5) holds 7.5 noise sds, so a clamp beyond it is widened to hold it
  set.seed(1)
  n <- 3000
  x <- cbind(v = c(rep(0:2, each = 150), sample(5:20, n - 450, TRUE)))
  plan <- dpglmnet:::standardization_plan(TRUE, TRUE, "gaussian", NULL, FALSE, 1, 1)
  lower <- replicate(20, dpglmnet:::release_column_scales(
    x, -40, 40, plan, noise_ranges = 30, noise_moments = 0, "seeded")$lower)
  expect_true(all(lower <= 1.25))
  expect_gte(mean(lower <= 0.01), 0.4)
  expect_true(all(lower >= -2.5))
})

test_that("a released clamp always lies inside its public interval, lower below upper", {
  # 0 at an end of the interval: half the coarse bins lie beyond it, and
  # counts that are mostly noise (n = 100, count noise sd 400) once gave
  # [0.162, 0] for [-5.2, 0] (an independent review); such a cut now falls
  # back to the public interval
  set.seed(1)
  n <- 100
  x <- cbind(a = -runif(n, 0, 5.2), b = runif(n, 0, 3))
  plan <- dpglmnet:::standardization_plan(TRUE, TRUE, "gaussian", NULL, FALSE, 2, 1)
  ok <- replicate(4000, {
    s <- dpglmnet:::release_column_scales(x, c(-5.2, 0), c(0, 3), plan, noise_ranges = 200,
                                          noise_moments = 0, "seeded")
    all(s$lower < s$upper & s$lower >= c(-5.2, 0) & s$upper <= c(0, 3))
  })
  expect_true(all(ok))
})

test_that("y's range histogram is afforded on its own noise, kept where x's are swamped", {
  # car_prices-like (modeldata: 643 records, 17 columns, log price near 10
  # with y.bound 22, epsilon 2): x's histograms are swamped (count noise
  # above n / 20), y's are not. Decided jointly, both were off and y's mean
  # was released over [-22, 22] with noise sd 0.54 (1.6 off in one draw).
  set.seed(11)
  n <- 643
  x <- matrix(rbinom(n * 17, 1, 0.5), n, 17)
  y <- 10 + 0.3 * rnorm(n)
  errors <- vapply(1:6, function(seed) {
    set.seed(seed)
    fit <- suppressWarnings(dpglmnet(x, y, epsilon = 2, x.bounds = 2, y.bound = 22))
    rows <- as.data.frame(fit$privacy)$mechanism
    expect_true(any(grepl("ranges of y", rows)))
    expect_false(any(grepl("ranges of each column of x", rows)))
    fit$settings$standardization$y_mean - mean(y)
  }, numeric(1))
  # (over the public interval: 0.03-1.6 in the same six draws)
  expect_lt(max(abs(errors)), 0.15)
  # where y's count noise is above n / 20, x's are not released (the rule
  # x's had), and above n / 10 y's are not either
  x5 <- x[, 1:5] * 1.0
  plan <- function(budget) {
    dpglmnet:::plan_private_path(dpglmnet:::checked_spec(x5, y, list(
      epsilon = 4, x.bounds = 2, y.bound = 22, solver = "dpcd",
      standardize.budget = budget)))$mechanisms$mechanism
  }
  expect_true(all(c("x", "y") %in% sub(".*ranges of (each column of )?(x|y).*", "\\2",
                                        grep("ranges", plan(0.3), value = TRUE))))
  expect_identical(grep("ranges", plan(0.03), value = TRUE),
                   grep("ranges of y", plan(0.03), value = TRUE))
  expect_length(grep("ranges of y", plan(0.03)), 1L)
  expect_false(any(grepl("ranges", plan(0.005))))
})

test_that("a column at one location far from the anchor keeps its clamp", {
  # values -50 + N(0, 1) with bound 120, 400 records, count noise sd 21:
  # the clamp lies inside one coarse bin, whose clear count (about 400) was
  # merged with the noise of every bin beyond both ends of the clamp and
  # read as no clear mass; the column was then read on [-120, 120] in half
  # the draws. Read alone, the bin is clear.
  set.seed(2)
  n <- 400
  x <- cbind(a = -50 + rnorm(n))
  plan <- dpglmnet:::standardization_plan(TRUE, TRUE, "gaussian", NULL, FALSE, 1, 1)
  clamps <- t(replicate(40, {
    s <- dpglmnet:::release_column_scales(x, -120, 120, plan, noise_ranges = 21,
                                          noise_moments = 0, "seeded")
    c(s$lower, s$upper, s$unresolved)
  }))
  expect_true(all(clamps[, 3] == 0))
  expect_gte(mean(clamps[, 1] >= -60 & clamps[, 2] <= -30), 0.9)
  # a rare dummy's hidden mass at the anchor is still read on its interval
  rare <- cbind(d = c(rep(1, 4), rep(0, 396)))
  hidden <- dpglmnet:::release_column_scales(rare, -2, 2, plan, noise_ranges = 21,
                                             noise_moments = 0, "seeded")
  expect_identical(c(hidden$lower, hidden$upper), c(-2, 2))
})

test_that("columns read as constant on a symmetric bound: the warning names intervals and factors", {
  # car_prices-like (13 of 17 columns 0/1 given as numbers with bound 2,
  # 643 records at epsilon 2): the private standardization reads them as
  # constant; given as factors or with c(0, 1) they keep their values
  set.seed(11)
  n <- 643
  x <- matrix(rbinom(n * 17, 1, 0.5), n, 17, dimnames = list(NULL, paste0("d", 1:17))) * 1.0
  y <- 10 + x[, 1] + 0.3 * rnorm(n)
  seen <- character(0)
  withCallingHandlers(dpglmnet(x, y, epsilon = 2, x.bounds = 2, y.bound = 22),
                      warning = function(w) {
                        seen <<- c(seen, conditionMessage(w))
                        invokeRestart("muffleWarning")
                      })
  expect_true(any(grepl(paste0("treated as constant.*has a known range.*give it as a factor or ",
                               "with an interval in `x.bounds` \\(c\\(0, 1\\)"), seen)))
  # with the intervals, no column reads as constant
  fit <- suppressWarnings(dpglmnet(x, y, epsilon = 2, y.bound = 22,
                                   x.bounds = rep(list(c(0, 1)), 17) |> setNames(colnames(x))))
  expect_false(any(fit$settings$standardization$x_constant))
})

test_that("the response's clamp gets the intercept's guards against a cut tail", {
  # a quarter of the records spread thinly below the rest, at the count
  # noise the standardization still affords (sd 80 = n / 20): the
  # histograms alone cut that quarter in most draws; the guards
  # (put_back_next_bins(), cover_other_side(), holds_half()) put it back in
  # some, and never cut more. (Reaching across 0 here makes the clamp some
  # 7 times wider, so cover_other_side() asks for 3 noise sds of the
  # quarter's sum, not 2: 0.14 of the records cut on average with 2, 0.20
  # with 3, 0.22 without the guards)
  set.seed(5)
  n <- 1600
  y <- cbind(y = c(4 + 0.3 * rnorm(0.75 * n), runif(0.25 * n, -3, 2)))
  plan <- dpglmnet:::standardization_plan(TRUE, TRUE, "gaussian", 11, FALSE, 1, 1)
  cut <- function(response, seed) {
    plan$response <- response
    set.seed(seed)
    s <- dpglmnet:::release_column_scales(y, -11, 11, plan, noise_ranges = 40,
                                          noise_moments = 0, "seeded")
    expect_true(s$lower >= -11 && s$upper <= 11 && s$lower < s$upper)
    mean(y < s$lower | y > s$upper)
  }
  alone <- vapply(1:20, function(k) cut(FALSE, k), numeric(1))
  guarded <- vapply(1:20, function(k) cut(TRUE, k), numeric(1))
  expect_true(all(guarded <= alone))
  expect_gt(mean(alone), 0.2)
  expect_lt(mean(guarded), 0.95 * mean(alone))
  # nearer the anchor (the bulk at 1 + 0.5 z, a quarter over [-2.5, 0]),
  # reaching the mirror less than triples the clamp: 2 sds, and the guards
  # put the quarter back in most draws (0.30 of the records cut alone, 0.10
  # guarded)
  y <- cbind(y = c(1 + 0.5 * rnorm(0.75 * n), runif(0.25 * n, -2.5, 0)))
  alone <- vapply(1:20, function(k) cut(FALSE, k), numeric(1))
  guarded <- vapply(1:20, function(k) cut(TRUE, k), numeric(1))
  expect_true(all(guarded <= alone))
  expect_gt(mean(alone), 0.2)
  expect_lt(mean(guarded), 0.5 * mean(alone))
  # y's plan in a fit has them, x's has none
  plan <- dpglmnet:::standardization_plan(TRUE, TRUE, "gaussian", 100, FALSE, 1, 1)
  expect_null(plan$response)
})

test_that("y's range histograms are afforded up to a count noise of n / 10, x's up to n / 20", {
  # y far from 0 against its crude bound (1000 + 20 z, bound 2100): without
  # its histograms y's mean and sd are released over [-2100, 2100]
  set.seed(1)
  n <- 900
  x <- matrix(rnorm(n * 3), n, 3)
  y <- 1000 + 20 * rnorm(n) + 10 * x[, 1]
  fit <- suppressWarnings(dpglmnet(x, y, epsilon = 0.5, x.bounds = 5, y.bound = 2100))
  rows <- fit$privacy$mechanisms
  count_sd <- 2 * rows$noise_multiplier[rows$key == "y_ranges"]
  # (the case this test is for: y's count noise between the two limits)
  expect_length(count_sd, 1L)
  expect_gt(count_sd, n / 20)
  expect_lte(count_sd, n / 10)
  # x's histograms are off at y's count noise above n / 20 (the rule the
  # moderate-n criterion was measured with)
  expect_false("x_ranges" %in% rows$key)
  r <- fit$settings$standardization
  expect_true(r$y_lower > 0 && r$y_upper < 2100)
  expect_lt(abs(r$y_mean - mean(y)), 10)
  expect_lt(r$y_sd, 3 * sd(y))
  # y's limit is n / 10, x's n / 20: the plan's rule, from public values
  problem <- list(standardization = dpglmnet:::standardization_plan(
    TRUE, TRUE, "gaussian", 2100, FALSE, 3, 0.5), n = n, standardize.budget = 0.3)
  f_y <- dpglmnet:::standardization_factors(problem, 10)[["y"]]
  at <- function(count_sd) {
    dpglmnet:::afford_standardization_ranges(problem, count_sd / (2 * f_y), 10)$standardization
  }
  expect_true(at(0.9 * n / 10)$y_ranges)
  expect_false(at(0.9 * n / 10)$ranges)
  expect_false(at(1.1 * n / 10)$y_ranges)
  expect_true(at(0.9 * n / 20)$y_ranges)
  # (x's are off for y's count noise alone: there x's own is below n / 20)
  expect_false(at(1.1 * n / 20)$ranges)
  expect_true(at(0.9 * n / 20)$ranges)
})

test_that("a response clamp that does not hold half the records is widened by coarse bins", {
  # exact counts (no noise) of y: 60% in [2, 3], 40% in [5, 6], on [-8, 8]
  set.seed(3)
  n <- 1000
  y <- matrix(c(stats::runif(0.6 * n, 2, 3), stats::runif(0.4 * n, 5, 6)))
  public <- list(lower = -8, upper = 8, center = NULL, scale = NULL)
  request <- list(transform = public, lower = -8, upper = 8, levels = 20L, fine_bins = 32L,
                  count_sd = 0, keep_zero = FALSE, seed = c(1, 2), secure = FALSE,
                  make_sums = FALSE, centre_sums = TRUE, sums_on_public = FALSE)
  counts <- dpglmnet:::.release_columns_cpp("ranges", list(y), list(request))[[1]]$counts[, 1]
  widen <- function(clamp) {
    dpglmnet:::widen_to_half(clamp, counts, n, -8, 8, 20L, 32L)
  }
  # a clamp holding 60% is kept
  expect_identical(widen(c(2, 3)), c(2, 3))
  # one holding 40% reaches the next coarse edges (4 and 8: still 40%),
  # then the ones beyond (2 and 8: all of them)
  expect_identical(widen(c(5, 6)), c(2, 8))
  # no clamp short of the public interval holds half: the public interval
  expect_identical(dpglmnet:::widen_to_half(c(5, 6), counts, 3 * n, -8, 8, 20L, 32L), c(-8, 8))
  # the response's clamp goes through it: 40% in [2, 2.5], 60% in [6, 7],
  # a released clamp [2, 2.5] (as if the noise had cut the rest) is widened
  # to [0.5, 8], not read on [-8, 8]
  y <- matrix(c(stats::runif(0.4 * n, 2, 2.5), stats::runif(0.6 * n, 6, 7)))
  released <- dpglmnet:::.release_columns_cpp("ranges", list(y), list(request))[[1]]
  released$lower <- 2
  released$upper <- 2.5
  released$constant <- FALSE
  plan <- dpglmnet:::standardization_plan(TRUE, TRUE, "gaussian", 8, FALSE, 1, 1)
  plan$response <- TRUE
  s <- dpglmnet:::column_scales(y, -8, 8, plan, "y", "seeded")
  s <- dpglmnet:::after_ranges(s, released, 1e-9)
  expect_identical(c(s$lower, s$upper), c(0.5, 8))
})

test_that("the response's clamp is not read on its whole public interval when its counts look hidden", {
  # y near 1000 with the crude bound 2 max |y|: one clear coarse bin merged
  # with the noise of the bins below it can read as no mass (the core's
  # hidden-mass flag, meant for a rare dummy of x); y keeps its clamp
  set.seed(7)
  n <- 1500
  y <- cbind(y = 1000 + 20 * stats::rnorm(n))
  bound <- 2 * max(abs(y))
  plan <- dpglmnet:::standardization_plan(TRUE, TRUE, "gaussian", bound, FALSE, 1, 1)
  lower_ends <- function(response) {
    plan$response <- response
    vapply(1:30, function(seed) {
      set.seed(seed)
      dpglmnet:::release_column_scales(y, -bound, bound, plan, noise_ranges = 37,
                                       noise_moments = 0, "seeded")$lower
    }, numeric(1))
  }
  # (the same draws read as x: the flag sends a column to its interval)
  expect_true(any(lower_ends(NULL) == -bound))
  expect_true(all(lower_ends(TRUE) > 0))
})
