# Issue 17, "one source for noise and accounting": every ledger row carries
# its numeric replace-one sensitivity, and every noise scale a fit reports is
# the row's noise multiplier times that sensitivity, which in turn is the
# formula recomputed here by hand from released or public settings.

sensitivity_data <- function(n = 400, p = 4, seed = 3) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x %*% c(1, -1, 0.5, 0)) + rnorm(n)
  list(x = x, y = y, yb = as.numeric(y > 0), n = n, p = p)
}

# The ledger row of `key` and the full sensitivity vector recorded on it.
ledger_row <- function(ledger, key) {
  rows <- as.data.frame(ledger)
  expect_equal(sum(rows$key == key), 1L, info = key)
  rows[rows$key == key, ]
}
row_noise <- function(ledger, key) {
  ledger_row(ledger, key)$noise_multiplier * ledger$sensitivities[[key]]
}

# Every row of a private fit has its key and a numeric sensitivity whose
# summary is the largest of the recorded vector.
expect_rows_numeric <- function(ledger) {
  rows <- as.data.frame(ledger)
  expect_false(anyNA(rows$key))
  expect_false(anyDuplicated(rows$key) > 0)
  expect_true(is.numeric(rows$sensitivity_value))
  expect_false(anyNA(rows$sensitivity_value), info = paste(rows$key, collapse = ", "))
  for (k in seq_len(nrow(rows))) {
    full <- ledger$sensitivities[[rows$key[k]]]
    expect_equal(rows$sensitivity_value[k], max(full), info = rows$key[k])
    expect_equal(rows$sensitivity_length[k], length(full), info = rows$key[k])
    expect_true(all(is.finite(full) & full > 0), info = rows$key[k])
  }
}

fit_quietly <- function(...) muffle_dpglmnet_warnings(dpglmnet(...))

test_that("DP-CD (standardized): noise_sd = row multiplier x 2 C_j / n, and the standardization's rows hold their clamps' sensitivities", {
  # (n large enough for the range histograms, afford_standardization_ranges())
  d <- sensitivity_data(n = 5000)
  set.seed(1)
  fit <- fit_quietly(d$x, d$y, solver = "dpcd", epsilon = 1, x.bounds = 4, y.bound = 8,
                     nlambda = 3, passes = 2)
  led <- fit$privacy
  expect_rows_numeric(led)
  s <- fit$settings
  # C_j = sqrt(M_j / tr M) C from the released (standardized) smoothness
  m <- s$smoothness_values  # (features, then the intercept's: curvature 1)
  expect_length(m, d$p + 1)
  expect_equal(m[d$p + 1], 1)
  # (times the factor that raises the default clip of a gaussian fit where
  # its noise is small: 0.02 n / (2 z) per coordinate of clip 1, R/dpcd.R)
  z <- ledger_row(led, "path")$noise_multiplier
  expect_equal(s$clip_factor, max(1, 0.02 * d$n / (2 * z)))
  clip <- sqrt(m / sum(m)) * s$clip * s$clip_factor
  expect_equal(s$coordinate_clip, clip)
  expect_equal(led$sensitivities$path, 2 * clip / d$n)
  expect_equal(s$noise_sd, row_noise(led, "path"))
  expect_equal(s$noise_sd, ledger_row(led, "path")$noise_multiplier * 2 * clip / d$n)
  expect_equal(ledger_row(led, "path")$noise_multiplier, led$noise_level)
  # the moments of x clamped to the released ranges: width / n, reach^2 / n
  r <- s$standardization
  width <- r$x_upper - r$x_lower
  expect_equal(led$sensitivities$x_mean, width / d$n)
  expect_equal(led$sensitivities$x_second_moment, (width / 2)^2 / d$n)
  expect_equal(led$sensitivities$x_ranges, 2)
  expect_equal(led$sensitivities$y_ranges, 2)
  expect_lte(led$sensitivities$y_mean, 16 / d$n)  # inside y's interval [-8, 8]
})

test_that("DP-CD (unstandardized, quantile scales): the clip and smoothness searches are counts, the clamped moments m_j^2 / n", {
  d <- sensitivity_data()
  set.seed(2)
  fit <- fit_quietly(d$x, d$y, solver = "dpcd", epsilon = 1, x.bounds = 4, y.bound = 8,
                     standardize = FALSE, smoothness = "quantile", clip = "quantile",
                     nlambda = 3, passes = 2)
  led <- fit$privacy
  expect_rows_numeric(led)
  expect_equal(led$sensitivities$clip_quantiles, 1)
  expect_equal(led$sensitivities$smoothness_quantiles, 1)
  # m_j^2 / n with m_j at most the bound 4
  expect_length(led$sensitivities$smoothness_moments, d$p)
  expect_true(all(led$sensitivities$smoothness_moments <= 16 / d$n))
  # the released clip thresholds set the path's sensitivity, and lambda_max's
  # (released: no public bound without standardization)
  expect_equal(led$sensitivities$path, 2 * fit$settings$coordinate_clip / d$n)
  expect_equal(fit$settings$lambda_max_source, "private")
  expect_equal(led$sensitivities$lambda_max, 2 * fit$settings$coordinate_clip[1:d$p] / d$n)
  expect_equal(fit$settings$noise_sd, row_noise(led, "path"))
})

test_that("DP-SGD with Laplace smoothness: noise_sd = multiplier x 2C, the Laplace scale = p / eps_s x b_j / n", {
  d <- sensitivity_data()
  set.seed(3)
  fit <- fit_quietly(d$x, d$y, solver = "dpsgd", epsilon = 1, x.bounds = 4, y.bound = 8,
                     standardize = FALSE, smoothness = "private", clip = 2, nlambda = 3,
                     passes = 2, batch.size = 50)
  led <- fit$privacy
  expect_rows_numeric(led)
  expect_equal(led$sensitivities$path, 2 * 2)
  expect_equal(fit$settings$noise_sd, row_noise(led, "path"))
  expect_equal(fit$settings$noise_sd, ledger_row(led, "path")$noise_multiplier * 4)
  expect_equal(led$sensitivities$smoothness, rep(16 / d$n, d$p))
  expect_equal(ledger_row(led, "smoothness")$noise_multiplier, d$p / (0.1 * 1))
  expect_equal(fit$settings$laplace_scale, row_noise(led, "smoothness"))
  expect_equal(fit$settings$laplace_scale, rep(d$p * 16 / (d$n * 0.1), d$p))
})

test_that("DP-SCD: noise_sd = multiplier x 2 C sqrt(1 + R^2), lambda_max's row 2 C", {
  d <- sensitivity_data()
  set.seed(4)
  fit <- fit_quietly(d$x, d$yb, family = "binomial", solver = "dpscd", alpha = 0,
                     intercept = FALSE, epsilon = 1, x.bounds = 3, standardize = FALSE,
                     nlambda = 3, passes = 2, batch.size = 50, clip = 1)
  led <- fit$privacy
  expect_rows_numeric(led)
  row_bound <- sqrt(d$p * 3^2)
  expect_equal(fit$settings$row_bound, row_bound)
  expect_equal(led$sensitivities$path, 2 * 1 * sqrt(1 + row_bound^2))
  expect_equal(fit$settings$sensitivity, led$sensitivities$path)
  expect_equal(fit$settings$noise_sd, row_noise(led, "path"))
  expect_equal(led$sensitivities$lambda_max, 2)
})

test_that("the l1 solvers: Gumbel and Laplace scales per radius from their rows", {
  d <- sensitivity_data(n = 300)
  radius <- c(0.5, 1, 2)
  set.seed(5)
  fw <- fit_quietly(d$x, d$y, solver = "dpfw", epsilon = 1, x.bounds = 4, y.bound = 8,
                    standardize = FALSE, l1.radius = radius, passes = 20, clip = 1)
  led <- fw$privacy
  expect_rows_numeric(led)
  expect_equal(led$sensitivities$path, 2 * radius * 1 / d$n)
  expect_equal(fw$settings$gumbel_scale, row_noise(led, "path"))
  expect_equal(fw$settings$gumbel_scale, led$noise_level * 2 * radius / d$n)
  expect_equal(led$sensitivities$path_intercept, 2 * fw$settings$intercept_clip / d$n)
  expect_equal(fw$settings$intercept_noise_sd, row_noise(led, "path_intercept"))
  expect_equal(fw$settings$intercept_noise_sd, 3 * led$noise_level * 2 / d$n)

  set.seed(6)
  vr <- fit_quietly(d$x, d$y, solver = "dpfw-vr", epsilon = 1, x.bounds = 4, y.bound = 8,
                    standardize = FALSE, l1.radius = radius, passes = 3, clip = 1)
  led <- vr$privacy
  expect_rows_numeric(led)
  b <- vr$settings$batch
  expect_equal(led$sensitivities$path, 4 * radius * 1 / b)
  expect_equal(vr$settings$laplace_scale,
               row_noise(led, "path") * 2^vr$settings$phases)
  expect_equal(led$sensitivities$path_intercept, 2 / b)
  expect_equal(vr$settings$intercept_multiplier, row_noise(led, "path_intercept"))
  expect_equal(vr$settings$intercept_multiplier, 9 * led$noise_level * 2 / b)

  set.seed(7)
  nmd <- fit_quietly(d$x, d$y, solver = "nmd", epsilon = 1, x.bounds = 4, y.bound = 8,
                     standardize = FALSE, l1.radius = radius, passes = 2, clip = 1.5,
                     batch.size = 50)
  led <- nmd$privacy
  expect_rows_numeric(led)
  expect_equal(led$sensitivities$path, 2 * 1.5)
  expect_equal(nmd$settings$noise_sd, row_noise(led, "path"))
  expect_equal(nmd$settings$noise_sd, led$noise_level * 3)
})

test_that("the intercept-only fit: the Laplace scale = 1 / epsilon x (u - l) / n", {
  # (n = 200: y's range histogram is not afforded at epsilon 0.5, R/intercept.R)
  d <- sensitivity_data(200)
  set.seed(8)
  fit <- fit_quietly(d$x, d$y, solver = "intercept", epsilon = 0.5, y.bound = c(-6, 10))
  led <- fit$privacy
  expect_rows_numeric(led)
  expect_equal(led$sensitivities$path, 16 / d$n)
  expect_equal(fit$settings$intercept_noise_scale, row_noise(led, "path"))
  expect_equal(fit$settings$intercept_noise_scale,
               dpglmnet:::intercept_multiplier(0.5) * 16 / d$n)
  # at n = 800 (and 400) y's range is released first (its count noise is
  # affordable, R/intercept.R): a histogram's count, sensitivity 2; then the mean of y
  # clamped to the released range [l, u] inside [-6, 10], (u - l) / n, at
  # half of epsilon
  d <- sensitivity_data(800)
  fit <- fit_quietly(d$x, d$y, solver = "intercept", epsilon = 0.5, y.bound = c(-6, 10))
  led <- fit$privacy
  expect_rows_numeric(led)
  expect_equal(led$sensitivities$intercept_ranges, 2)
  range <- fit$settings$intercept_interval
  expect_true(range[1] >= -6 && range[1] < range[2] && range[2] <= 10)
  expect_equal(led$sensitivities$path, diff(range) / d$n)
  expect_equal(fit$settings$intercept_noise_scale, row_noise(led, "path"))
  expect_equal(fit$settings$intercept_noise_scale,
               dpglmnet:::intercept_multiplier(0.5 / 2) * diff(range) / d$n)
})

test_that("weights: the weight sum's sensitivity is W, the moments' carry W n / S", {
  d <- sensitivity_data()
  set.seed(9)
  w <- runif(d$n, 0.5, 2)
  fit <- fit_quietly(d$x, d$y, weights = w, weights.bound = 2, solver = "dpcd",
                     epsilon = 1, x.bounds = 4, y.bound = 8, nlambda = 3, passes = 2)
  led <- fit$privacy
  expect_rows_numeric(led)
  expect_equal(led$sensitivities$weight_sum, 2)
  s <- fit$settings
  expect_equal(s$weight_factor, 2 * d$n / s$weight_sum)
  r <- s$standardization
  expect_equal(led$sensitivities$x_mean, (r$x_upper - r$x_lower) / d$n * s$weight_factor)
  expect_equal(s$noise_sd, row_noise(led, "path"))
})

test_that("cv.dpglmnet(): the curve's noise = multiplier x sqrt(K) B / n_val, and the path's rows keep theirs", {
  d <- sensitivity_data(n = 600)
  set.seed(10)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4,
                                                y.bound = 8, nlambda = 4, passes = 2))
  led <- cvfit$privacy
  expect_rows_numeric(led)
  K <- length(cvfit$lambda)
  n_val <- length(cvfit$validation)
  B <- cvfit$loss.bound
  expect_equal(led$sensitivities$curve, sqrt(K) * B / n_val)
  expect_equal(led$sensitivities$curve_second, sqrt(K) * B^2 / n_val)
  expect_equal(cvfit$cvsd.noise, row_noise(led, "curve"))
  expect_equal(ledger_row(led, "curve_second")$noise_multiplier,
               3 * ledger_row(led, "curve")$noise_multiplier)
  # the path's rows in the procedure's ledger: as in the path's own ledger
  fit <- cvfit$dpglmnet.fit
  expect_equal(led$sensitivities$path, fit$privacy$sensitivities$path)
  expect_equal(fit$settings$noise_sd, row_noise(fit$privacy, "path"))
  expect_equal(ledger_row(led, "path")$noise_multiplier,
               ledger_row(fit$privacy, "path")$noise_multiplier)
  # with a refit: its rows under keys of their own
  set.seed(11)
  refit <- muffle_dpglmnet_warnings(cv.dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4,
                                                y.bound = 8, nlambda = 4, passes = 2,
                                                refit = TRUE))
  expect_rows_numeric(refit$privacy)
  expect_equal(refit$refit$settings$noise_sd, row_noise(refit$privacy, "refit/path"))
})

test_that("epsilon = Inf: no noise from any row, the rows still state their sensitivity", {
  d <- sensitivity_data()
  fit <- fit_quietly(d$x, d$y, solver = "dpcd", epsilon = Inf, nlambda = 3, passes = 2)
  expect_equal(fit$settings$noise_sd, rep(0, d$p + 1))
  # (no clipping: unbounded)
  expect_equal(fit$privacy$sensitivities$path, rep(Inf, d$p + 1))
  expect_true(all(as.data.frame(fit$privacy)$noise_multiplier == 0))
})

test_that("release_noise() is the one noise source: a row's multiplier and recorded sensitivity, refusing unknown releases", {
  rows <- dpglmnet:::mechanism_table(list(
    dpglmnet:::mechanism("a", "gaussian", 3, "2 C / n", noise_multiplier = 1.5, key = "a")))
  ledger <- list(target_epsilon = 1, mechanisms = rows, sensitivities = list())
  expect_error(dpglmnet:::release_noise(ledger, "a"), "no sensitivity recorded")
  ledger <- dpglmnet:::record_sensitivity(ledger, "a", c(0.1, 0.4))
  expect_equal(dpglmnet:::release_noise(ledger, "a"), 1.5 * c(0.1, 0.4))
  expect_equal(ledger$mechanisms$sensitivity_value, 0.4)
  expect_equal(ledger$mechanisms$sensitivity_length, 2L)
  expect_error(dpglmnet:::record_sensitivity(ledger, "b", 1), "no release")
})

test_that("print() shows the numeric sensitivity beside the words", {
  d <- sensitivity_data(n = 5000)
  set.seed(12)
  fit <- fit_quietly(d$x, d$y, solver = "dpcd", epsilon = 1, x.bounds = 4, y.bound = 8,
                     nlambda = 3, passes = 2)
  out <- capture.output(print(fit$privacy))
  expect_true(any(grepl("2 C_j / n per coordinate [at most", out, fixed = TRUE)))
  expect_true(grepl("histogram) [= 2]", paste(out, collapse = " "), fixed = TRUE))
  details <- capture.output(print(fit$privacy, details = TRUE))
  expect_true(any(grepl("sensitivity_value", details, fixed = TRUE)))
})
