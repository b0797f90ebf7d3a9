# The dummies of one factor released as one block by DP-CD (R/dpcd.R,
# src/dpglmnet/dpcd.h)

block_frame <- function(n = 4000, seed = 1) {
  set.seed(seed)
  region <- factor(sample(c("a", "b", "c", "d", "e"), n, TRUE, prob = c(0.4, 0.3, 0.2, 0.08, 0.02)))
  sex <- factor(sample(c("F", "M"), n, TRUE))
  age <- runif(n, 20, 80)
  y <- 2 + c(a = 0, b = 1, c = -1, d = 2, e = -3)[as.character(region)] + 0.5 * (sex == "M") +
    0.02 * age + rnorm(n)
  list(x = data.frame(age, sex, region), y = unname(y))
}

test_that("the expansion marks the dummies of each factor of two or more columns", {
  d <- block_frame(50)
  # (epsilon = Inf: treatment contrasts; a private fit codes region in full,
  # R/coding.R, tested in test-coding.R)
  bounds <- dpglmnet:::frame_design(list(x = d$x, x.bounds = list(age = c(18, 90)),
                                         y = d$y, epsilon = Inf))$x.bounds
  # age, sexM (one dummy: no block), regionb..regione (the third term)
  expect_identical(attr(bounds, "factor_block"), c(0L, 0L, 3L, 3L, 3L, 3L))
  expect_identical(attr(bounds, "binary"), c(FALSE, TRUE, TRUE, TRUE, TRUE, TRUE))
  checked <- dpglmnet:::check_x_bounds(bounds, 6, NULL, FALSE)
  expect_identical(checked$blocks, c(0L, 0L, 3L, 3L, 3L, 3L))
  # a block mark on columns that are not 0/1 intervals is ignored
  numeric_bounds <- cbind(c(-1, -1), c(1, 1))
  attr(numeric_bounds, "binary") <- c(TRUE, TRUE)
  attr(numeric_bounds, "factor_block") <- c(1L, 1L)
  expect_identical(dpglmnet:::check_x_bounds(numeric_bounds, 2, NULL, FALSE)$blocks,
                   c(0L, 0L))
})

test_that("blocks are made disjoint record by record (a per-record map)", {
  x <- cbind(a = c(1, 0, 1, 0.5, -1, 0), b = c(0, 1, 1, 1, 2, 0), c = c(1, 0, 0, 0, 0, 0),
             d = 1:6)
  out <- dpglmnet:::disjoint_blocks(x, c(1L, 1L, 1L, 0L))
  # each record keeps the first non-zero of its block, clamped to [0, 1]
  expect_equal(unname(out[, 1:3]), rbind(c(1, 0, 0), c(0, 1, 0), c(1, 0, 0), c(0.5, 0, 0),
                                         c(0, 1, 0), c(0, 0, 0)))
  expect_identical(out[, 4], x[, 4])
  expect_true(all(rowSums(out[, 1:3] != 0) <= 1))
  # a record's output depends on that record alone
  expect_identical(dpglmnet:::disjoint_blocks(x[3:4, ], c(1L, 1L, 1L, 0L)), out[3:4, ])
  # the expansion's dummies are left as they are
  legit <- cbind(a = c(1, 0, 0), b = c(0, 1, 0))
  expect_identical(dpglmnet:::disjoint_blocks(legit, c(2L, 2L)), legit)
  # (the core's test of that: values in [0, 1], one non-zero per record)
  raw <- dpglmnet:::.raw_blocks_disjoint_cpp
  expect_true(raw(cbind(legit, u = c(5, -3, 2)), c(2L, 2L, 0L)))
  expect_false(raw(cbind(a = c(1, 0), b = c(1, 0)), c(2L, 2L)))
  expect_false(raw(cbind(a = c(2, 0), b = c(0, 1)), c(2L, 2L)))
  expect_false(raw(cbind(a = c(NaN, 0), b = c(0, 1)), c(2L, 2L)))
  expect_true(raw(cbind(a = c(1, 1), b = c(1, 1)), c(0L, 0L)))
  expect_error(raw(legit, 1L), "one factor block per column")
})

test_that("a block's clipped gradients move by at most 2 / n in the 1 / C norm", {
  set.seed(3)
  n <- 60
  for (trial in 1:200) {
    x <- dpglmnet:::disjoint_blocks(matrix(rbinom(n * 4, 1, 0.3), n, 4), rep(1L, 4))
    scale <- runif(4, 1, 8)
    clip <- runif(4, 0.2, 3)
    residual <- rnorm(n, sd = 3)
    gradient <- function(x, r) {
      colMeans(pmax(pmin(sweep(x, 2, scale, "*") * r, rep(clip, each = n)), -rep(clip, each = n)))
    }
    replaced <- x
    replaced[1, ] <- dpglmnet:::disjoint_blocks(matrix(rbinom(4, 1, 0.5), 1), rep(1L, 4))
    r2 <- residual
    r2[1] <- rnorm(1, sd = 3)
    moved <- (gradient(replaced, r2) - gradient(x, residual)) / clip
    expect_lte(sqrt(sum(moved^2)), 2 / n + 1e-12)
  }
})

test_that("DP-CD charges one release per block and pass, at unchanged noise per coordinate", {
  d <- block_frame()
  set.seed(5)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1, delta = 1e-6,
                                           x.bounds = list(age = c(18, 90)), y.bound = 15,
                                           solver = "dpcd", nlambda = 3, passes = 4))
  rows <- as.data.frame(fit$privacy)
  path <- rows[grepl("^DP-CD clipped coordinate gradients", rows$mechanism), ]
  expect_match(path$mechanism, "one release per block")
  # 6 columns and the intercept, the 4 region dummies one unit: 4 units
  expect_equal(path$count, 3 * 4 * 4)
  # the block's columns are not centred; the others are
  centre <- fit$settings$standardization$x_center
  expect_true(all(centre[3:6] == 0))
  expect_true(all(centre[1:2] != 0))
  # each coordinate's noise: the row's multiplier times 2 C_j / n
  clip <- fit$settings$coordinate_clip
  expect_equal(fit$settings$noise_sd, path$noise_multiplier * 2 * clip / 4000)
  # the dummies' clip is raised by sqrt(max(1, (1 / sd) / 3)), sd from the
  # released mean (the uncentred dummy's largest value is 1 / sd)
  # (over the paper's sqrt(M_j / tr M) C of every coordinate; sexM, one
  # dummy, is not in a block)
  scale <- fit$settings$standardization$x_scale
  smoothness <- fit$settings$smoothness_values
  raised <- (clip[3:6] / sqrt(smoothness[3:6])) / (clip[2] / sqrt(smoothness[2]))
  expect_equal(dpglmnet:::block_clip_reach, 3)
  expect_equal(raised, sqrt(pmax(1, scale[3:6] / 3)), tolerance = 1e-8)
  expect_gt(max(raised), 1.2)
  # the total by hand: every row Gaussian, composed in GDP
  expect_true(all(rows$type == "gaussian"))
  mu <- sqrt(sum(rows$count / rows$noise_multiplier^2))
  expect_equal(fit$privacy$epsilon, gdp_epsilon(mu, 1e-6), tolerance = 1e-10)
  expect_lte(fit$privacy$epsilon, 1)
  # the same data as a matrix without the marks: one release per coordinate
  x <- model.matrix(~ age + sex + region, d$x)[, -1]
  set.seed(5)
  plain <- muffle_dpglmnet_warnings(dpglmnet(x, d$y, epsilon = 1, delta = 1e-6,
                                             x.bounds = cbind(c(18, rep(0, 5)), c(90, rep(1, 5))),
                                             y.bound = 15, solver = "dpcd", nlambda = 3,
                                             passes = 4))
  plain_rows <- as.data.frame(plain$privacy)
  expect_equal(plain_rows$count[grepl("^DP-CD clipped", plain_rows$mechanism)], 3 * 4 * 7)
})

test_that("epsilon = Inf with blocks reaches glmnet's solution", {
  skip_if_not_installed("glmnet")
  d <- block_frame(1500, seed = 2)
  x <- model.matrix(~ age + sex + region, d$x)[, -1]
  lambda <- c(0.05, 0.01)
  fit <- dpglmnet(d$x, d$y, epsilon = Inf, x.bounds = list(age = c(18, 90)),
                  lambda = lambda, standardize = FALSE)
  ref <- glmnet::glmnet(x, d$y, lambda = lambda, standardize = FALSE, thresh = 1e-14,
                        maxit = 1e7)
  expect_equal(as.matrix(coef(fit)), as.matrix(coef(ref)), tolerance = 1e-4,
               ignore_attr = TRUE)
})

test_that("a rare level keeps its effect at epsilon 1 (n = 4000)", {
  d <- block_frame()
  set.seed(6)
  fit <- muffle_dpglmnet_warnings(cv.dpglmnet(d$x, d$y, epsilon = 1,
                                              x.bounds = list(age = c(18, 90)), y.bound = 15))
  b <- coef(fit)[, 1]
  # regiond (8%, effect 2) and regionb (30%, effect 1) with their signs
  expect_gt(b[["regiond"]], 0.5)
  expect_gt(b[["regionb"]], 0.3)
  expect_lt(b[["regionc"]], -0.3)
})

test_that("marks on columns that overlap are made safe on every path, and the core checks", {
  set.seed(7)
  n <- 600
  x <- cbind(u = rnorm(n), matrix(rbinom(n * 6, 1, 0.5), n, 6))
  y <- drop(x[, 1] + x[, 2] + rnorm(n))
  bounds <- cbind(c(-4, rep(0, 6)), c(4, rep(1, 6)))
  attr(bounds, "binary") <- c(FALSE, rep(TRUE, 6))
  attr(bounds, "factor_block") <- c(0L, rep(7L, 6))
  # the core refuses a block whose columns it reads overlapping ...
  settings <- list(family = "gaussian", intercept = TRUE,
                   transform = list(lower = c(-4, rep(0, 6)), upper = c(4, rep(1, 6)),
                                    center = NULL, scale = NULL),
                   alpha = 1, penalty_factor = rep(1, 7), lower_limits = rep(-Inf, 7),
                   upper_limits = rep(Inf, 7), seed = c(1, 2), secure = FALSE, trace = 0,
                   threads = 1L, lambda = 0.1, coordinate_step = rep(1, 8),
                   coordinate_clip = rep(1, 8), noise_sd = rep(0.01, 8), passes = 1L,
                   selection = "cyclic", average = FALSE, coordinate_block = c(0, rep(7, 6)))
  expect_error(dpglmnet:::.dpcd_path_cpp(x, y, settings), "not disjoint")
  settings$coordinate_block <- c(0, 7)
  expect_error(dpglmnet:::.dpcd_path_cpp(x, y, settings), "one factor block per column")
  # ... so the fits below pass only because their x was made disjoint
  # record by record first: dpglmnet(), and cv.dpglmnet() at one lambda
  # (its fit on all records) and with a path
  set.seed(8)
  fit <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 0.5, x.bounds = bounds,
                                           y.bound = 8, solver = "dpcd"))
  expect_match(as.data.frame(fit$privacy)$mechanism, "one release per block", all = FALSE)
  set.seed(8)
  single <- muffle_dpglmnet_warnings(cv.dpglmnet(x, y, epsilon = 0.5, x.bounds = bounds,
                                                 y.bound = 8, solver = "dpcd"))
  expect_length(single$lambda, 1)
  set.seed(8)
  path <- muffle_dpglmnet_warnings(cv.dpglmnet(x, y, epsilon = 50, x.bounds = bounds,
                                               y.bound = 8, solver = "dpcd"))
  expect_gt(length(path$lambda), 1)
})

test_that("only a solver that releases blocks leaves the dummies uncentred", {
  d <- block_frame(2000)
  set.seed(9)
  sgd <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1,
                                           x.bounds = list(age = c(18, 90)), y.bound = 15,
                                           solver = "dpsgd", nlambda = 2, passes = 2))
  centre <- sgd$settings$standardization$x_center
  expect_true(any(centre[3:6] != 0))
  expect_false(any(grepl("block", as.data.frame(sgd$privacy)$mechanism)))
})

test_that("where the noise does not bind, the dummies are centred and released one by one", {
  d <- block_frame()
  # epsilon 10 at n = 4000: the schedule affords far more releases per
  # coordinate than its 10 x 10 (k >= 625): the passes, not the noise,
  # limit the fit, and uncentred dummies would slow it
  k <- dpglmnet:::choose_schedule(NULL, NULL, NULL, "dpcd", 10, 1 / 4000^2, 4000, 6, TRUE,
                                  sqrt(7), TRUE, 0.3)$affordable
  expect_gte(k, dpglmnet:::block_noise_floor)
  set.seed(10)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 10,
                                           x.bounds = list(age = c(18, 90)), y.bound = 15))
  rows <- as.data.frame(fit$privacy)
  path <- rows[grepl("^DP-CD clipped coordinate gradients", rows$mechanism), ]
  expect_false(grepl("block", path$mechanism))
  # (age, sexM, region's five levels in full coding, R/coding.R, the intercept)
  expect_equal(path$count, length(fit$lambda) * fit$settings$passes * 8)
  expect_true(all(fit$settings$standardization$x_center[3:6] != 0))
  # epsilon 1: blocks
  k1 <- dpglmnet:::choose_schedule(NULL, NULL, NULL, "dpcd", 1, 1 / 4000^2, 4000, 6, TRUE,
                                   sqrt(7), TRUE, 0.3)$affordable
  expect_lt(k1, dpglmnet:::block_noise_floor)
  # epsilon = Inf: no blocks
  exact <- dpglmnet(d$x, d$y, epsilon = Inf, x.bounds = list(age = c(18, 90)), y.bound = 15,
                    lambda = 0.1)
  expect_true(all(exact$settings$standardization$x_center[3:6] != 0))
})
