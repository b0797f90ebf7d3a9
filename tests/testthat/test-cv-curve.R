# The private validation curve of cv.dpglmnet() (issue 18).

quiet_cv <- function(...) {
  suppressMessages(withCallingHandlers(cv.dpglmnet(...), dpglmnet_warning = function(w) {
    invokeRestart("muffleWarning")
  }))
}

# (6000 records: a split's training part affords a path of at least 6
# lambdas at epsilon = 1, R/dpglmnet.R min_path_lambdas)
curve_data <- function(n = 6000, p = 5, seed = 11) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x %*% c(1, -1, 0, 0, 0.5)) + rnorm(n)
  yb <- factor(ifelse(x[, 1] - x[, 2] + rnorm(n) > 0, "up", "down"))
  list(x = x, y = y, yb = yb)
}

test_that("the curve's ledger rows state their sensitivity and noise, and the total is the target", {
  d <- curve_data()
  delta <- 1e-6
  set.seed(1)
  cvfit <- quiet_cv(d$x, d$y, epsilon = 1, delta = delta, x.bounds = 4, y.bound = 8)
  m <- cvfit$privacy$mechanisms
  curve <- m[m$part == 2L, ]
  K <- length(cvfit$lambda)
  n_val <- length(cvfit$validation)
  B <- cvfit$loss.bound
  expect_gt(K, 1L)
  expect_equal(n_val, 1200L)
  expect_equal(curve$mechanism, c(
    "validation curve: mean clipped loss per lambda",
    "validation curve: mean squared clipped loss per lambda (for cvsd)"))
  expect_equal(curve$count, c(1, 1))
  expect_match(curve$sensitivity[1], sprintf("sqrt(%d) B / n_val = %s", K,
                                             format(signif(sqrt(K) * B / n_val, 4))),
               fixed = TRUE)
  expect_match(curve$sensitivity[2], sprintf("sqrt(%d) B^2 / n_val = %s", K,
                                             format(signif(sqrt(K) * B^2 / n_val, 4))),
               fixed = TRUE)
  # the noise on cvm, by hand from the sensitivity and the noise multiplier
  z <- curve$noise_multiplier[1]
  expect_equal(cvfit$cvsd.noise, z * sqrt(K) * B / n_val, tolerance = 1e-12)
  expect_equal(curve$noise_multiplier[2], 3 * z)
  # z by hand: the two releases together are sqrt(1 + 1/9) / z -GDP, and z
  # is the smallest that spends (1, delta)
  expect_equal(gdp_epsilon(sqrt(1 + 1 / 9) / z, delta), 1, tolerance = 1e-8)
  expect_equal(z, sqrt(1 + 1 / 9) / gdp_mu(1, delta), tolerance = 1e-7)
  # the total by hand: the path (part 1, all Gaussian: exact GDP) and the
  # curve (part 2) in parallel, the larger of the two
  gauss <- m$type == "gaussian"
  expect_true(all(gauss))
  mu_of <- function(rows) sqrt(sum(m$count[rows] / m$noise_multiplier[rows]^2))
  path <- gdp_epsilon(mu_of(m$part == 1L), delta)
  validation <- gdp_epsilon(mu_of(m$part == 2L), delta)
  expect_equal(cvfit$privacy$epsilon, max(path, validation), tolerance = 1e-12)
  expect_equal(max(path, validation), 1, tolerance = 1e-6)
  expect_lte(cvfit$privacy$epsilon, 1)
  expect_setequal(m$part, c(1L, 2L))
  # no exponential mechanism any more: the curve's argmin is lambda.min
  expect_false(any(m$type == "exponential"))
  expect_equal(cvfit$lambda.min, cvfit$lambda[which.min(cvfit$cvm)])
})

test_that("at epsilon = Inf the curve is the exact validation loss, clipped only at a measure's range", {
  d <- curve_data(n = 1000)
  lambda <- c(0.5, 0.1, 0.02, 0.005)
  fam <- list(binomial = dpglmnet:::dpglmnet_family("binomial"))
  for (measure in c("deviance", "class", "mse", "mae")) {
    set.seed(3)
    cvfit <- cv.dpglmnet(d$x, d$yb, family = "binomial", epsilon = Inf, lambda = lambda,
                         passes = 60, type.measure = measure)
    v <- cvfit$validation
    link <- predict(cvfit$dpglmnet.fit, d$x[v, ])
    yv <- as.numeric(d$yb[v] == "up")
    p <- plogis(link)
    loss <- switch(measure,
      deviance = -2 * (yv * log(p) + (1 - yv) * log(1 - p)),
      class = 1 * ((p > 0.5) != (yv == 1)),
      mse = 2 * (yv - p)^2,
      mae = 2 * abs(yv - p))
    clipped <- pmin(loss, cvfit$loss.bound)
    expect_equal(cvfit$cvm, unname(colMeans(clipped)), tolerance = 1e-10, label = measure)
    sampling <- sqrt((colMeans(clipped^2) - colMeans(clipped)^2) / length(v))
    expect_equal(cvfit$cvsd, unname(sampling), tolerance = 1e-6, label = measure)
    expect_equal(cvfit$cvup, cvfit$cvm + cvfit$cvsd)
    expect_equal(cvfit$cvlo, cvfit$cvm - cvfit$cvsd)
    # (nothing is noised, so nothing is clipped: the deviance is unbounded,
    # the others at their largest values)
    expect_equal(cvfit$loss.bound, c(deviance = 1e100, class = 1, mse = 2,
                                     mae = 2)[[measure]])
    expect_output(print(cvfit), "per-record loss not clipped")
    # glmnet's rule on the exact curve
    i <- which.min(cvfit$cvm)
    expect_equal(cvfit$lambda.min, lambda[i])
    expect_equal(cvfit$lambda.1se,
                 max(lambda[cvfit$cvm <= cvfit$cvm[i] + cvfit$cvsd[i]]))
  }
  # gaussian mae: not clipped either
  set.seed(4)
  cvfit <- cv.dpglmnet(d$x, d$y, epsilon = Inf, lambda = lambda, passes = 60, y.bound = 10,
                       type.measure = "mae")
  v <- cvfit$validation
  residual <- abs(d$y[v] - predict(cvfit$dpglmnet.fit, d$x[v, ]))
  expect_equal(cvfit$loss.bound, 1e100)
  expect_equal(cvfit$cvm, unname(colMeans(residual)), tolerance = 1e-10)
  expect_equal(cvfit$name, c(mae = "Mean Absolute Error"))
})

test_that("lambda.1se is at least lambda.min, on private curves too", {
  # (delta = 1 / n^2: 7500 records for a path on the training part)
  d <- curve_data(n = 7500)
  for (seed in 1:3) {
    set.seed(seed)
    cvfit <- quiet_cv(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 8)
    expect_gt(length(cvfit$lambda), 1L)
    expect_gte(cvfit$lambda.1se, cvfit$lambda.min)
    expect_equal(cvfit$index[, 1], c(min = which(cvfit$lambda == cvfit$lambda.min),
                                     "1se" = which(cvfit$lambda == cvfit$lambda.1se)))
    expect_true(all(cvfit$cvsd >= cvfit$cvsd.noise))
    expect_equal(cvfit$cvsd, sqrt(cvfit$cvsd.sampling^2 + cvfit$cvsd.noise^2))
    expect_true(all(cvfit$cvm >= 0 & cvfit$cvm <= cvfit$loss.bound))
  }
  # the rule itself: the most regularized lambda within one SE of the minimum
  rule <- dpglmnet:::one_se_rule(c(3, 2, 1.1, 1, 1.5), c(0.1, 0.1, 0.1, 0.2, 0.1),
                                 c(5, 4, 3, 2, 1))
  expect_equal(rule, list(index.min = 4L, index.1se = 3L))
  # l1 radii: the most regularized is the smallest radius
  rule <- dpglmnet:::one_se_rule(c(3, 1.1, 1, 2), c(0.1, 0.1, 0.2, 0.1), c(1, 2, 3, 4),
                                 radius = TRUE)
  expect_equal(rule, list(index.min = 3L, index.1se = 2L))
})

test_that("type.measure: glmnet's choices, checked before any computation", {
  d <- curve_data(n = 400)
  set.seed(1)
  state <- .Random.seed
  expect_dpglmnet_error(cv.dpglmnet(d$x, d$y, y.bound = 5, type.measure = "mea"),
                        "`type.measure`")
  expect_dpglmnet_error(cv.dpglmnet(d$x, d$y, y.bound = 5, type.measure = c("mse", "mae")),
                        "`type.measure`")
  err <- expect_dpglmnet_error(cv.dpglmnet(d$x, d$yb, family = "binomial", x.bounds = 4,
                                           type.measure = "auc"), "`type.measure`")
  expect_match(conditionMessage(err), "sensitivity")
  expect_dpglmnet_error(cv.dpglmnet(d$x, d$y, y.bound = 5, type.measure = "class"),
                        "`type.measure`")
  expect_identical(.Random.seed, state)
  lambda <- c(0.3, 0.05)
  names <- c(gaussian.default = "Mean-Squared Error", gaussian.mse = "Mean-Squared Error",
             gaussian.deviance = "Mean-Squared Error", gaussian.mae = "Mean Absolute Error",
             binomial.default = "Binomial Deviance", binomial.class = "Misclassification Error",
             binomial.mse = "Mean-Squared Error", binomial.mae = "Mean Absolute Error",
             binomial.deviance = "Binomial Deviance")
  for (key in names(names)) {
    parts <- strsplit(key, ".", fixed = TRUE)[[1]]
    y <- if (parts[1] == "gaussian") d$y else d$yb
    cvfit <- if (parts[1] == "gaussian") {
      quiet_cv(d$x, y, epsilon = 1, x.bounds = 4, y.bound = 8, lambda = lambda,
               passes = 2, type.measure = parts[2])
    } else {
      quiet_cv(d$x, y, family = "binomial", epsilon = 1, x.bounds = 4, lambda = lambda,
               passes = 2, type.measure = parts[2])
    }
    expect_equal(unname(cvfit$name), names[[key]], label = key)
    expect_length(cvfit$cvm, 2L)
    expect_true(all(is.finite(cvfit$cvsd)))
    # the squared losses are released only when they carry information
    expect_equal(sum(cvfit$privacy$mechanisms$part == 2L),
                 if (parts[2] == "class") 1L else 2L, label = key)
  }
  # a loss.bound above a measure's largest value is lowered to it
  cvfit <- quiet_cv(d$x, d$yb, family = "binomial", epsilon = 1, x.bounds = 4,
                    lambda = lambda, passes = 2, type.measure = "class", loss.bound = 10)
  expect_equal(cvfit$loss.bound, 1)
})

test_that("plot(cvfit) draws glmnet's CV plot; coef/predict default to lambda.1se", {
  d <- curve_data(n = 1000)
  set.seed(2)
  cvfit <- quiet_cv(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 8,
                    lambda = c(1, 0.3, 0.1, 0.03), passes = 3)
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_invisible(plot(cvfit))
  expect_silent(plot(cvfit, sign.lambda = -1, main = "private CV"))
  expect_silent(plot(cvfit$dpglmnet.fit))
  expect_dpglmnet_error(plot(cvfit, sign.lambda = 0.5), "`sign.lambda`")
  expect_equal(coef(cvfit), coef(cvfit$dpglmnet.fit, s = cvfit$lambda.1se))
  expect_equal(coef(cvfit, s = "lambda.1se"), coef(cvfit))
  expect_equal(predict(cvfit, d$x[1:2, ]),
               predict(cvfit$dpglmnet.fit, d$x[1:2, ], s = cvfit$lambda.1se))
  expect_dpglmnet_error(coef(cvfit, s = "lambda.2se"), "`s`")
  out <- capture.output(print(cvfit))
  expect_true(any(grepl("^min ", out)) && any(grepl("^1se ", out)))
  expect_true(any(grepl("Measure", out)))
  # a single lambda: no curve, plot warns and draws nothing
  set.seed(3)
  small <- matrix(rnorm(400), 200, 2)
  single <- quiet_cv(small, small[, 1] + rnorm(200), epsilon = 1, x.bounds = 4, y.bound = 8)
  expect_length(single$lambda, 1L)
  expect_true(is.na(single$cvm))
  expect_equal(single$lambda.1se, single$lambda.min)
  expect_warning(plot(single), class = "dpglmnet_warning")
})

test_that("the curve's noise comes from the secure source when asked", {
  d <- curve_data(n = 1000)
  set.seed(5)
  a <- quiet_cv(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 8, lambda = c(0.5, 0.05),
                passes = 2, rng = "secure")
  set.seed(5)
  b <- quiet_cv(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 8, lambda = c(0.5, 0.05),
                passes = 2, rng = "secure")
  expect_identical(a$validation, b$validation)  # the split is R's
  expect_false(identical(a$cvm, b$cvm))
  set.seed(5)
  c1 <- quiet_cv(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 8, lambda = c(0.5, 0.05),
                 passes = 2)
  set.seed(5)
  c2 <- quiet_cv(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 8, lambda = c(0.5, 0.05),
                 passes = 2)
  expect_identical(c1$cvm, c2$cvm)  # seeded: set.seed() reproduces it
})

test_that("a gaussian curve's default loss.bound follows the residuals the path released", {
  # R^2 near 0.96: the residuals are a fifth of y's scale, and B = (2 s_y)^2
  # would be about 100 times the best lambdas' mean loss
  set.seed(21)
  n <- 6000
  x <- matrix(rnorm(n * 5), n, 5)
  y <- drop(x %*% c(1, -1, 0, 0, 0.5)) + 0.3 * rnorm(n)
  for (measure in c("mse", "mae")) {
    set.seed(5)
    cvfit <- quiet_cv(x, y, epsilon = 1, x.bounds = 4, y.bound = 8, type.measure = measure,
                      nlambda = 6)
    fit <- cvfit$dpglmnet.fit
    released <- fit$settings$adaptive_clip_scale$released
    expect_gt(length(released), 0L)
    s <- released[length(released)]
    y_sd <- fit$settings$standardization$y_sd
    reach <- min(2, dpglmnet:::curve_residual_reach * s)
    # the released scale reads the residuals: well below the 1/3 where the
    # reach starts to shrink
    expect_equal(dpglmnet:::curve_residual_reach, 6)
    expect_lt(s, 0.25)
    expect_equal(cvfit$loss.bound, if (measure == "mse") (reach * y_sd)^2 else reach * y_sd,
                 tolerance = 1e-12, label = measure)
    # the ledger states the sensitivity with that B
    curve <- cvfit$privacy$mechanisms[cvfit$privacy$mechanisms$part == 2L, ]
    expect_match(curve$sensitivity[1], format(signif(cvfit$loss.bound, 4)), fixed = TRUE)
  }
  # a path without the adaptive clip's releases (one pass per lambda) keeps 2 s_y
  set.seed(5)
  cvfit <- quiet_cv(x, y, epsilon = 1, x.bounds = 4, y.bound = 8, nlambda = 6, passes = 1)
  expect_length(cvfit$dpglmnet.fit$settings$adaptive_clip_scale$released, 0L)
  expect_equal(cvfit$loss.bound, (2 * cvfit$dpglmnet.fit$settings$standardization$y_sd)^2,
               tolerance = 1e-12)
})

test_that("a large budget widens the gaussian curve's loss.bound; epsilon = Inf clips nothing", {
  set.seed(21)
  n <- 6000
  x <- matrix(rnorm(n * 5), n, 5)
  y <- drop(x %*% c(1, -1, 0, 0, 0.5)) + 0.3 * rnorm(n)
  bound <- function(epsilon, ...) {
    set.seed(5)
    cvfit <- quiet_cv(x, y, epsilon = epsilon, x.bounds = 4, y.bound = 8, nlambda = 6, ...)
    fit <- cvfit$dpglmnet.fit
    released <- fit$settings$adaptive_clip_scale$released
    st <- fit$settings$standardization
    list(cvfit = cvfit, s = released[length(released)], y_sd = st$y_sd,
         cap = 2 * max(abs(c(st$y_upper, st$y_lower) - st$y_mean)) / st$y_sd)
  }
  # epsilon 1: the curve's noise would be large against the residuals'
  # scale, so the bound is the residual rule's, 6 s s_y
  small <- bound(1)
  expect_equal(small$cvfit$loss.bound, (min(2, 6 * small$s) * small$y_sd)^2, tolerance = 1e-12)
  # epsilon 100-1000: the bound grows until the noise sd on each cvm is 1% of
  # the bound at the residuals' scale, (s s_y)^2 for mse, s s_y for mae
  # (below the cap here), with or without a refit sharing the budget
  for (case in list(list(measure = "mse", refit = FALSE, power = 2, epsilon = 1000),
                    list(measure = "mae", refit = FALSE, power = 1, epsilon = 100),
                    list(measure = "mse", refit = TRUE, power = 2, epsilon = 1000))) {
    large <- bound(case$epsilon, type.measure = case$measure, refit = case$refit)
    B <- large$cvfit$loss.bound
    label <- paste(case$measure, case$refit)
    expect_gt(B, (min(2, 6 * large$s) * large$y_sd)^case$power)
    expect_lt(B, (large$cap * large$y_sd)^case$power)
    expect_equal(large$cvfit$cvsd.noise, 0.01 * (large$s * large$y_sd)^case$power,
                 tolerance = 1e-10, label = label)
    # the ledger's curve rows state that B
    curve <- large$cvfit$privacy$mechanisms[large$cvfit$privacy$mechanisms$part == 2L, ]
    expect_match(curve$sensitivity[1], format(signif(B, 4)), fixed = TRUE, label = label)
  }
  # a budget without bound stops at twice the reach of y's released clamp
  huge <- bound(1e12)
  expect_equal(huge$cvfit$loss.bound, (huge$cap * huge$y_sd)^2, tolerance = 1e-12)
  # epsilon = Inf: no clip, the exact validation MSE (cv.glmnet's on the
  # split), and no y.bound needed for it
  set.seed(5)
  exact <- quiet_cv(x, y, epsilon = Inf, nlambda = 6, passes = 60)
  expect_equal(exact$loss.bound, 1e100)
  v <- exact$validation
  link <- predict(exact$dpglmnet.fit, x[v, ], type = "link")
  expect_equal(exact$cvm, unname(colMeans((y[v] - link)^2)), tolerance = 1e-10)
  expect_output(print(exact), "per-record loss not clipped")
})
