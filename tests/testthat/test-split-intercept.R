# DP-CD's split intercept (R/dpcd.R, src/dpglmnet/dpcd.h): for binomial,
# the proportion of ones released once, the intercept's steps on the mean of
# sigmoid(eta_i) alone, with a sensitivity of at most 1 / n (0 while every
# feature is at 0), and the fit starting at the released proportion's logit.

split_data <- function(n, p, seed, effect = 0, rate = 0.6) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n)
  y <- as.numeric(runif(n) < stats::plogis(stats::qlogis(rate) + effect * x[, 1]))
  list(x = x, y = y)
}

test_that("the split intercept's release is a ledger row of its own, priced as planned", {
  d <- split_data(3000, 5, seed = 1, effect = 1)
  set.seed(2)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                           x.bounds = 5, nlambda = 3, passes = 4))
  rows <- fit$privacy$mechanisms
  split <- rows$key == "intercept_mean"
  path <- rows$key == "path"
  expect_equal(sum(split), 1L)
  expect_true(fit$settings$split_intercept)
  expect_equal(rows$count[split], 1)
  # a proportion: replace-one sensitivity 1 / n
  expect_equal(rows$sensitivity_value[split], 1 / 3000)
  # at 1/2 to 1 times the path's multiplier: 4% of a path of 3 x 4 passes
  # of 6 units (binomial's lambda_max is public), 1 / sqrt(0.04 * 72) = 0.59
  expect_equal(rows$noise_multiplier[split] / rows$noise_multiplier[path],
               1 / sqrt(0.04 * 72), tolerance = 1e-10)
  # on a short path (3 passes of 6 units: 1 / sqrt(0.04 * 18) = 1.18), at
  # most 0.7 of it (the proportion is the prediction where the signal is
  # weak: two releases' cost)
  short <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                             x.bounds = 5, nlambda = 1, passes = 3))
  short_rows <- short$privacy$mechanisms
  expect_equal(short_rows$noise_multiplier[short_rows$key == "intercept_mean"] /
                 short_rows$noise_multiplier[short_rows$key == "path"], 0.7,
               tolerance = 1e-10)
  # the path's intercept steps: min(w, 2 C_0) / n
  expect_match(rows$sensitivity[path], "the intercept: min(w, 2 C_0) / n", fixed = TRUE)
  # the total by hand: every row Gaussian, composed in GDP
  expect_true(all(rows$type == "gaussian"))
  mu <- sqrt(sum(rows$count / rows$noise_multiplier^2))
  expect_equal(fit$privacy$epsilon, gdp_epsilon(mu, fit$privacy$delta), tolerance = 1e-10)
  expect_lte(fit$privacy$epsilon, 1)
  # the released proportion is reported, near the true one
  released <- fit$settings$intercept_response_mean
  expect_length(released, 1L)
  expect_lt(abs(released - mean(d$y)), 5 * rows$noise_multiplier[split] / 3000)
  # summary() says so
  expect_output(print(summary(fit)),
                sprintf("Intercept: split; released proportion of ones %.4g", released),
                fixed = TRUE)
})

test_that("with features held at 0 every intercept step is exact given the released proportion", {
  d <- split_data(1000, 3, seed = 3)
  for (seed in 1:3) {
    set.seed(seed)
    # (a lambda far above every gradient: the prox keeps each feature at 0)
    fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                             x.bounds = 5, lambda = 50, passes = 3))
    expect_true(all(as.matrix(fit$beta) == 0))
    # from b0 = 0, three steps b0 - 4 (sigmoid(b0) - m) on the released m alone
    m <- fit$settings$intercept_response_mean
    b0 <- 0
    for (step in 1:3) b0 <- b0 - 4 * (stats::plogis(b0) - m)
    expect_equal(fit$a0[[1]], b0, tolerance = 1e-12, ignore_attr = TRUE)
  }
})

test_that("the intercept's steps take the path row's multiplier after it is spread over the moving units", {
  # (the split intercept's mean is released in DP-CD's setup, before the
  # path row is respread over the coordinates that move: a constant column
  # moves none, so the row's multiplier falls, and the intercept's steps
  # must use the respread one)
  d <- split_data(3000, 3, seed = 4)
  x <- cbind(d$x, 0.5)
  seen <- new.env()
  trace(".dpcd_path_cpp", where = asNamespace("dpglmnet"), print = FALSE,
        tracer = bquote(assign("settings", settings, envir = .(seen))))
  on.exit(untrace(".dpcd_path_cpp", where = asNamespace("dpglmnet")), add = TRUE)
  set.seed(5)
  fit <- muffle_dpglmnet_warnings(dpglmnet(x, d$y, family = "binomial", epsilon = 1,
                                           x.bounds = 5, nlambda = 3, passes = 2))
  rows <- fit$privacy$mechanisms
  path <- rows[rows$key == "path", ]
  expect_true(fit$settings$standardization$x_constant[4])
  expect_match(path$mechanism, "the row's budget spread over the others")
  expect_equal(seen$settings$intercept_multiplier, path$noise_multiplier)
  expect_equal(seen$settings$noise_sd[1], path$noise_multiplier * 2 *
                 fit$settings$coordinate_clip[1] / 3000)
})

test_that("a released proportion at or beyond 0 or 1 is clamped before the steps use it", {
  # (an independent review: 97% ones at epsilon 0.3 released 1.3, and b0
  # then climbed to 14 in 10 passes)
  n <- 200
  set.seed(10)
  x <- matrix(rnorm(n * 2), n)
  y <- c(rep(1, 194), rep(0, 6))
  outside <- 0
  for (seed in 1:8) {
    set.seed(seed)
    fit <- muffle_dpglmnet_warnings(dpglmnet(x, y, family = "binomial", epsilon = 0.3,
                                             x.bounds = 5, lambda = 50, passes = 10))
    released <- fit$settings$intercept_response_mean
    outside <- outside + (released >= 1 - 1 / n)
    m <- min(max(released, 1 / n), 1 - 1 / n)
    b0 <- 0
    for (step in 1:10) b0 <- b0 - 4 * (stats::plogis(b0) - m)
    expect_equal(fit$a0[[1]], b0, tolerance = 1e-12, ignore_attr = TRUE)
    expect_lte(fit$a0[[1]], stats::qlogis(1 - 1 / n) + 1e-9)
  }
  # (the case happened: its noise sd is about 0.1 against 0.03 to 1)
  expect_gte(outside, 1)
})

test_that("under the signal gate the fit starts at the released proportion's logit", {
  # no signal, one lambda of solver = "auto": the gate reads the first pass
  d <- split_data(1500, 4, seed = 8, rate = 0.3)
  for (seed in 9:12) {
    set.seed(seed)
    fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                             x.bounds = 5))
    expect_true(isTRUE(fit$settings$signal_check$gate))
    m <- fit$settings$intercept_response_mean
    expect_equal(fit$settings$intercept_start, stats::qlogis(m))
    # (the features' first steps, before the gate closes, move b0 a little)
    expect_lt(abs(fit$a0[[1]] - stats::qlogis(m)), 0.05)
  }
  # elsewhere from b0 = 0 (a lambda given: no gate)
  set.seed(9)
  given <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                             x.bounds = 5, lambda = 0.05))
  expect_null(given$settings$signal_check)
  expect_identical(given$settings$intercept_start, 0)
})

test_that("the released proportion's noise has the ledger's sd", {
  d <- split_data(400, 2, seed = 4)
  draws <- vapply(1:200, function(seed) {
    set.seed(seed)
    fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                             x.bounds = 5, lambda = 50, passes = 1))
    rows <- fit$privacy$mechanisms
    sd <- rows$noise_multiplier[rows$key == "intercept_mean"] / 400
    (fit$settings$intercept_response_mean - mean(d$y)) / sd
  }, numeric(1))
  # standard normal: mean 0 (sd 0.07 over 200), sd 1 (sd 0.05)
  expect_lt(abs(mean(draws)), 0.25)
  expect_gt(sd(draws), 0.85)
  expect_lt(sd(draws), 1.15)
})

test_that("a fit whose features stay at 0 predicts the majority class", {
  # 1000 records, 5 columns without effect, 56% ones (a logit of 0.24), epsilon 1:
  # the intercept's noise alone used to flip every prediction on some fits
  d <- split_data(1000, 5, seed = 5, rate = 0.56)
  majority <- vapply(1:20, function(seed) {
    set.seed(seed)
    fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                             x.bounds = 5, lambda = 50, passes = 2))
    fit$a0[[1]] > 0
  }, logical(1))
  # (the intercept moves to the side of the released proportion, whose
  # noise is about 0.025 against its distance 0.06 to 1/2: each fit predicts
  # the minority class with probability about 1%)
  expect_gte(sum(majority), 19)
})

test_that("the split intercept is off where it does not apply", {
  d <- split_data(1000, 3, seed = 6, effect = 1)
  planned <- function(y = d$y, ...) {
    set.seed(7)
    fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, y, x.bounds = 5, nlambda = 3, passes = 2,
                                             ...))
    c(setting = isTRUE(fit$settings$split_intercept),
      row = any(fit$privacy$mechanisms$key %in% "intercept_mean"))
  }
  expect_equal(planned(family = "binomial", epsilon = 1), c(setting = TRUE, row = TRUE))
  # epsilon = Inf: nothing is released
  expect_equal(planned(family = "binomial", epsilon = Inf), c(setting = FALSE, row = FALSE))
  # no intercept
  expect_equal(planned(family = "binomial", epsilon = 1, intercept = FALSE),
               c(setting = FALSE, row = FALSE))
  # weights: their terms are w_i l'_i
  expect_equal(planned(family = "binomial", epsilon = 1, weights = rep(1, 1000),
                       weights.bound = 1), c(setting = FALSE, row = FALSE))
  # an offset moves eta beyond the columns' box
  expect_equal(planned(family = "binomial", epsilon = 1, offset = rep(0.1, 1000),
                       offset.bound = 1), c(setting = FALSE, row = FALSE))
  # the squared loss: y's interval is not [0, 1] and its mean is released already
  expect_equal(planned(y = d$x[, 1] + rnorm(1000), epsilon = 1, y.bound = 10),
               c(setting = FALSE, row = FALSE))
})

test_that("each column's public box is its clamp, centred, scaled and widened to 0", {
  box <- dpglmnet:::split_intercept_box(list(lower = c(-1, 1), upper = c(1, 3),
                                             center = c(0, 2), scale = c(2, 0.5)), 2)
  expect_equal(box$lower, c(-2, -0.5))
  expect_equal(box$upper, c(2, 0.5))
  # (no clamp: unbounded; the range of sigmoid is then all of [0, 1])
  open <- dpglmnet:::split_intercept_box(list(), 2)
  expect_equal(open$lower, c(-Inf, -Inf))
  expect_equal(open$upper, c(Inf, Inf))
  shifted <- dpglmnet:::split_intercept_box(list(lower = 1, upper = 3), 1)
  expect_equal(c(shifted$lower, shifted$upper), c(0, 3))
})

test_that("on a table the split intercept makes the same releases and fit as in memory", {
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 1200)
  DBI::dbWriteTable(con, "r", d$frame)
  # both ways of keeping eta on a table
  for (mode in c("column", "query")) {
    old <- options(dpglmnet.database.residual = mode)
    fits <- paired_fits(con, "r", d, "binomial", list(
      epsilon = 2, x.bounds = 10, nlambda = 3, passes = 3))
    options(old)
    expect_true(fits$memory$settings$split_intercept)
    # (the clips from the table's released moments: equal to rounding)
    expect_equal(fits$database$privacy, fits$memory$privacy, tolerance = 1e-12)
    expect_equal(fits$database$settings$intercept_response_mean,
                 fits$memory$settings$intercept_response_mean, tolerance = 1e-12)
    expect_same_fit(fits)
  }
  # a clip of 0.5 (C_0 = 0.25 on 4 coordinates): the clipped step wherever
  # the features move the range w past 0.5
  fits <- paired_fits(con, "r", d, "binomial", list(
    epsilon = 2, x.bounds = 10, nlambda = 3, passes = 3, clip = 0.5))
  expect_equal(fits$memory$settings$coordinate_clip[4], 0.25)
  expect_equal(fits$database$privacy, fits$memory$privacy, tolerance = 1e-12)
  expect_same_fit(fits)
})
