# The signal check of solver = "auto" (R/signal.R)

signal_design <- function(effect, n = 5000, p = 40, seed = 1, intercept = -2.4) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p)
  y <- rbinom(n, 1, plogis(intercept + effect * drop(x[, 1:10] %*% rep(c(1, -1), 5))))
  list(x = x, y = y)
}

test_that("a single-lambda auto fit releases the signal check and charges it", {
  d <- signal_design(1, intercept = -1)
  set.seed(2)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                           delta = 1e-6, x.bounds = 4))
  expect_identical(fit$settings$solver, "dpcd")
  expect_length(fit$lambda, 1)
  rows <- as.data.frame(fit$privacy)
  signal <- rows[grepl("^signal check: L2 norm", rows$mechanism), ]
  expect_equal(nrow(signal), 1)
  expect_equal(signal$count, 1)
  # (binomial: and the mean model, the proportion of ones, at the path's
  # multiplier, sensitivity 1 / n)
  proportion <- rows[grepl("^signal check: mean of the clamped response", rows$mechanism), ]
  expect_equal(proportion$count, 1)
  expect_equal(fit$privacy$sensitivities$signal_mean, 1 / 5000)
  path <- rows[grepl("DP-CD clipped coordinate gradients", rows$mechanism), ]
  # (the planned path: every coordinate; the row is spread over those the
  # standardization did not hold at 0, at the same GDP mu)
  planned <- fit$settings$passes * 41
  planned_multiplier <- path$noise_multiplier * sqrt(planned / path$count)
  # half the path's noise multiplier, on the norm's replace-one sensitivity
  # 2 sqrt(sum_j C_j^2) / n over the features' clips
  expect_equal(signal$noise_multiplier,
               dpglmnet:::signal_relative_noise(planned) * planned_multiplier,
               tolerance = 1e-12)
  expect_equal(proportion$noise_multiplier, planned_multiplier, tolerance = 1e-12)
  # (over the columns the lambda acts on: not those read as constant)
  active <- !fit$settings$standardization$x_constant
  clip <- fit$settings$coordinate_clip[1:40][active]
  expect_equal(fit$privacy$sensitivities$signal, 2 * sqrt(sum(clip^2)) / 5000)
  check <- fit$settings$signal_check
  expect_equal(check$release_sd, signal$noise_multiplier * 2 * sqrt(sum(clip^2)) / 5000)
  # the threshold: the noise of one pass over those features
  expect_equal(check$threshold, sqrt(sum(fit$settings$noise_sd[1:40][active]^2)))
  expect_equal(check$release_sd,
               dpglmnet:::signal_relative_noise(path$count) * check$threshold)
  # the total by hand: every row Gaussian, composed in GDP
  mu <- sqrt(sum(rows$count / rows$noise_multiplier^2))
  expect_true(all(rows$type == "gaussian"))
  expect_equal(fit$privacy$epsilon, gdp_epsilon(mu, 1e-6), tolerance = 1e-10)
  expect_lte(fit$privacy$epsilon, 1)
  # a strong effect passes (the norm clears 1.5 times the noise of a
  # pass): the single lambda is 0.25 / sqrt(n)
  expect_true(check$passed)
  expect_gte(check$released, 1.5 * check$threshold)
  expect_equal(check$lambda, 0.25 / sqrt(5000))
  expect_true(all(abs(coef(fit)[2:11, 1]) > 0.3))
})

test_that("without a signal the single lambda rises to the noise level, with a warning", {
  d <- signal_design(0)
  set.seed(3)
  seen <- dpglmnet_warnings(fit <- dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                            x.bounds = 4))
  check <- fit$settings$signal_check
  expect_false(check$passed)
  expect_lt(check$released, 1.5 * check$threshold)
  expect_true(any(grepl("raised its single\\s+lambda to the noise level", seen)))
  expect_match(fit$settings$solver_choice, "lambda is at the noise level")
  expect_match(fit$settings$lambda_max_source, "noise level")
  # alpha lambda = k sigma, sigma the features' noise sd (standardized scale)
  k <- sum(!fit$settings$standardization$x_constant)
  expect_equal(check$lambda, dpglmnet:::constant_threshold(k) * check$threshold / sqrt(k))
  expect_equal(fit$lambda, check$lambda)  # (binomial: the same on the original scale)
  # the noise no longer enters every coefficient, nor moves the majority class
  expect_lt(mean(coef(fit)[-1, 1] != 0), 0.5)
  expect_lt(mean(predict(fit, d$x, type = "link") > 0), 0.01)
  # cv.dpglmnet() at one lambda makes the same fit on all records
  set.seed(3)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                                x.bounds = 4))
  expect_false(cvfit$dpglmnet.fit$settings$signal_check$passed)
})

test_that("a solver or lambda given, ridge and epsilon = Inf make no signal check", {
  d <- signal_design(0)
  has_check <- function(fit) {
    any(grepl("^signal check", as.data.frame(fit$privacy)$mechanism))
  }
  fit_of <- function(...) {
    set.seed(4)
    muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", x.bounds = 4, ...))
  }
  expect_true(has_check(fit_of(epsilon = 1)))
  expect_false(has_check(fit_of(epsilon = 1, solver = "dpcd")))
  expect_false(has_check(fit_of(epsilon = 1, lambda = 0.01)))
  expect_false(has_check(fit_of(epsilon = 1, alpha = 0)))
  expect_false(has_check(fit_of(epsilon = 1, intercept = FALSE)))
  exact <- fit_of(epsilon = Inf)
  expect_null(exact$settings$signal_check)
})

test_that("the core's signal check is the norm of the clipped scores at the mean model", {
  set.seed(8)
  n <- 300
  x <- matrix(rnorm(n * 5), n, 5)
  x[sample(length(x), 400)] <- 0
  y <- rbinom(n, 1, 0.3)
  clip <- c(0.2, 0.5, 1, 2, 0.05)
  center <- colMeans(x)
  scale <- 1 / apply(x, 2, sd)
  settings <- list(transform = list(lower = rep(-2, 5), upper = rep(2, 5), center = center,
                                    scale = scale),
                   coordinate_clip = clip, release_mean = TRUE, mean_lower = 0,
                   mean_upper = 1, mean_sd = 0, norm_sd = 0, seed = c(1, 2), secure = FALSE)
  by_hand <- function(x, center, scale, m, y) {
    xs <- sweep(sweep(pmin(pmax(x, -2), 2), 2, center), 2, scale, "*")
    terms <- (m - y) * xs
    g <- colMeans(pmax(pmin(terms, rep(clip, each = n)), -rep(clip, each = n)))
    sqrt(sum(g^2))
  }
  exact <- dpglmnet:::.signal_check_cpp(x, as.numeric(y), settings)
  expect_equal(exact$mean, mean(y))
  expect_equal(exact$norm, by_hand(x, center, scale, mean(y), y), tolerance = 1e-12)
  # sparse x (scaled, not centred): the same over its non-zeros
  sparse <- Matrix::Matrix(x, sparse = TRUE)
  settings$transform["center"] <- list(NULL)
  expect_equal(dpglmnet:::.signal_check_cpp(sparse, as.numeric(y), settings)$norm,
               by_hand(x, 0, scale, mean(y), y), tolerance = 1e-12)
  # a centred response: m = 0, nothing released for it
  settings$release_mean <- FALSE
  yc <- rnorm(n)
  centred <- dpglmnet:::.signal_check_cpp(x, yc, settings)
  expect_identical(centred$mean, 0)
  expect_equal(centred$norm, by_hand(x, 0, scale, 0, yc), tolerance = 1e-12)
  # the noise: sd norm_sd, drawn after the mean's
  settings$norm_sd <- 0.1
  draws <- vapply(1:400, function(k) {
    settings$seed <- c(k, 7)
    dpglmnet:::.signal_check_cpp(x, yc, settings)$norm
  }, numeric(1))
  expect_equal(mean(draws), centred$norm, tolerance = 0.02 / centred$norm)
  expect_equal(sd(draws), 0.1, tolerance = 0.15)
})

test_that("a short path makes no signal check, and the check leaves the other shares alone", {
  # p = 3: a path of a few tens of releases, where a check precise enough
  # would cost a large share of it (here a path of several lambdas: neither
  # the check nor the gate, which need a single one)
  d <- signal_design(0)
  set.seed(5)
  short <- muffle_dpglmnet_warnings(dpglmnet(d$x[, 1:3], d$y, family = "binomial",
                                             epsilon = 1, x.bounds = 4))
  expect_null(short$settings$signal_check)
  expect_false(any(grepl("^signal check", as.data.frame(short$privacy)$mechanism)))
  expect_lt(short$settings$passes * 4, 100)
  # the standardization keeps its share of mu^2 with the check beside the path
  d <- signal_design(1, intercept = -1)
  set.seed(6)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                           x.bounds = 4))
  rows <- as.data.frame(fit$privacy)
  mu2 <- rows$count / rows$noise_multiplier^2
  standardization <- grepl("^standardization", rows$mechanism)
  expect_false(is.null(fit$settings$signal_check))
  share <- dpglmnet:::default_standardize_budget(5000, 40, 1, 1 / 5000^2, FALSE, TRUE)
  expect_equal(sum(mu2[standardization]) / sum(mu2), share, tolerance = 1e-8)
})

test_that("the core's norm moves by at most 2 sqrt(sum C_j^2) / n when one record is replaced", {
  set.seed(10)
  n <- 200
  p <- 6
  x <- matrix(rnorm(n * p), n, p)
  y <- rbinom(n, 1, 0.2)
  clip <- c(0.5, 1, 2, 0.1, 1, 0.3)
  settings <- list(transform = list(lower = rep(-3, p), upper = rep(3, p),
                                    center = colMeans(x), scale = rep(1, p)),
                   coordinate_clip = clip, release_mean = FALSE, mean_lower = 0,
                   mean_upper = 0, mean_sd = 0, norm_sd = 0, seed = c(3, 4), secure = FALSE)
  bound <- 2 * sqrt(sum(clip^2)) / n
  norm <- function(x, y) dpglmnet:::.signal_check_cpp(x, as.numeric(y), settings)$norm
  base <- norm(x, y)
  worst <- 0
  for (k in 1:60) {
    i <- sample.int(n, 1)
    x2 <- x
    y2 <- y
    # adversarial neighbours: the record at the bounds with the other label,
    # or a random one
    x2[i, ] <- if (k %% 2) sample(c(-3, 3), p, TRUE) * 10 else rnorm(p)
    y2[i] <- 1 - y[i]
    worst <- max(worst, abs(norm(x2, y2) - base))
  }
  expect_lte(worst, bound)
  expect_gt(worst, 0.2 * bound)  # (the test can fail: it gets close)
})

test_that("the fit passes the ledger's noise to the core, and cv.dpglmnet() charges the check", {
  d <- signal_design(0)
  seen <- new.env()
  seen$settings <- NULL
  trace(".signal_check_cpp", where = asNamespace("dpglmnet"), print = FALSE,
        tracer = bquote(assign("settings", settings, envir = .(seen))))
  on.exit(untrace(".signal_check_cpp", where = asNamespace("dpglmnet")), add = TRUE)
  set.seed(11)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                           x.bounds = 4))
  rows <- as.data.frame(fit$privacy)
  mean_row <- rows[grepl("^signal check: mean", rows$mechanism), ]
  expect_equal(seen$settings$mean_sd, mean_row$noise_multiplier / 5000)
  expect_equal(seen$settings$norm_sd, fit$settings$signal_check$release_sd)
  expect_equal(c(seen$settings$mean_lower, seen$settings$mean_upper), c(0, 1))
  expect_true(seen$settings$release_mean)
  active <- !fit$settings$standardization$x_constant
  expect_equal(seen$settings$coordinate_clip,
               ifelse(active, fit$settings$coordinate_clip[1:40], 0))
  # cv.dpglmnet() at one lambda: both rows on its ledger, within epsilon
  set.seed(11)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(d$x, d$y, family = "binomial",
                                                epsilon = 1, x.bounds = 4))
  cv_rows <- as.data.frame(cvfit$privacy)
  expect_equal(sum(grepl("^signal check", cv_rows$mechanism)), 2)
  expect_lte(cvfit$privacy$epsilon, 1)
  # elastic net: the check from alpha = 0.5 on, not below
  has_check <- function(alpha) {
    set.seed(12)
    f <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                           x.bounds = 4, alpha = alpha))
    !is.null(f$settings$signal_check)
  }
  expect_true(has_check(0.5))
  expect_false(has_check(0.3))
})

test_that("cv.dpglmnet() makes the check where auto pinned dpcd at the full n", {
  # n = 4000, p = 80 at epsilon 1: the training part (3200) is at moderate
  # n (the intercept alone), all the records are not, so cv.dpglmnet()
  # pins solver = "dpcd" (resolve_cv_auto_solver()) and fits all records at
  # one lambda: that fit is still "auto"'s, and makes the check
  set.seed(14)
  n <- 4000
  x <- matrix(rnorm(n * 80), n, 80)
  y <- 0.05 * x[, 1] + rnorm(n)
  set.seed(15)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4,
                                                y.bound = 3))
  fit <- cvfit$dpglmnet.fit
  expect_identical(fit$call$solver, "dpcd")  # (pinned at the full n)
  expect_false(is.null(fit$settings$signal_check))
  expect_equal(sum(grepl("^signal check", cvfit$privacy$mechanisms$mechanism)), 1)
  # the fit's own account of its choice is kept (cv does not overwrite it)
  if (!fit$settings$signal_check$passed) {
    expect_match(fit$settings$solver_choice, "noise level")
  }
  expect_match(fit$settings$solver_choice, "^auto")
})

test_that("the binomial cap on passes leaves the check on (p = 20)", {
  d <- signal_design(0, p = 20)
  set.seed(16)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1,
                                           x.bounds = 4))
  expect_identical(fit$settings$passes, 3L)
  expect_false(is.null(fit$settings$signal_check))
  rows <- as.data.frame(fit$privacy)
  # its noise at `highest` (0.5) of the path's multiplier: 4 of 63 releases
  expect_equal(rows$noise_multiplier[grepl("^signal check: L2", rows$mechanism)],
               0.5 * rows$noise_multiplier[grepl("DP-CD clipped", rows$mechanism)])
})

test_that("a short path is gated by its first pass: no release, the noise-level lambda", {
  # Weekly-like: 6 columns without effect, n = 1000, one pass (R < 100)
  set.seed(11)
  x <- matrix(rnorm(1000 * 6), 1000, 6)
  y <- rbinom(1000, 1, 0.56)
  set.seed(12)
  seen <- dpglmnet_warnings(fit <- dpglmnet(x, y, family = "binomial", epsilon = 1,
                                            x.bounds = 4))
  check <- fit$settings$signal_check
  expect_true(check$gate)
  expect_false(check$passed)
  expect_true(any(grepl("estimated from the first pass's", seen, fixed = TRUE)))
  # (an estimate truncated at 0 is not printed as a measured 0)
  expect_false(any(grepl("at the mean model, 0,", seen, fixed = TRUE)))
  expect_equal(check$released, 0)
  expect_true(any(grepl("0 once its expected noise is taken away", seen, fixed = TRUE)))
  # the threshold is the noise of one pass over the features; the lambda
  # k sigma (k = max(2, qnorm(1 - 0.5 / p)) = 2 at p = 6)
  sigma <- fit$settings$noise_sd[1:6]
  expect_equal(check$threshold, sqrt(sum(sigma^2)))
  expect_equal(check$lambda, 2 * sqrt(mean(sigma^2)))
  expect_gt(check$lambda, 0.25 / sqrt(1000))
  expect_true(is.na(check$release_sd))
  # closed: the energy below the margin and no feature 3.8 sds out
  # (qnorm(1 - 0.001 / 12))
  expect_lt(check$released, 1.5 * check$threshold)
  expect_lt(max(abs(check$first_pass_z)), qnorm(1 - 0.001 / 12))
  # nothing released for it: the ledger holds the standardization and the
  # path only, and the total recomputed by hand is the target's
  rows <- as.data.frame(fit$privacy)
  expect_false(any(grepl("signal", rows$mechanism)))
  path <- rows[grepl("DP-CD clipped coordinate gradients", rows$mechanism), ]
  expect_equal(path$count, fit$settings$passes * 7)
  mu <- sqrt(sum(rows$count / rows$noise_multiplier^2))
  expect_equal(fit$privacy$epsilon, gdp_epsilon(mu, fit$privacy$delta), tolerance = 1e-10)
  expect_lte(fit$privacy$epsilon, 1)
  # the lambda reported is the one the path was made at
  expect_equal(fit$settings$lambda_max_source,
               "none (single lambda at the noise level: the signal check, standardized)")
  expect_lte(sum(coef(fit)[-1, 1] != 0), 2)
  # a strong effect keeps the schedule's lambda
  y <- rbinom(1000, 1, plogis(0.2 + 1.5 * x[, 1] - x[, 2]))
  set.seed(13)
  strong <- muffle_dpglmnet_warnings(dpglmnet(x, y, family = "binomial", epsilon = 1,
                                              x.bounds = 4))
  expect_true(strong$settings$signal_check$passed)
  expect_equal(strong$settings$signal_check$lambda, 0.25 / sqrt(1000))
  expect_gt(coef(strong)[2, 1], 0.5)
  expect_lt(coef(strong)[3, 1], -0.3)
  # random selection and averaging make no gate (a pass need not visit
  # each coordinate once)
  set.seed(13)
  random <- muffle_dpglmnet_warnings(dpglmnet(x, y, family = "binomial", epsilon = 1,
                                              x.bounds = 4, selection = "random"))
  expect_null(random$settings$signal_check)
})

# The gate tests' design: orthogonal centred columns and a centred y, no
# noise (each feature's first-pass gradient does not depend on the others'
# updates), and the core's settings of a one-pass DP-CD fit on it.
gate_design <- function() {
  set.seed(14)
  q <- qr.Q(qr(cbind(1, matrix(rnorm(200 * 4), 200, 4))))[, -1] * sqrt(200)
  y <- drop(q %*% c(0.8, -0.3, 0.1, 0)) + rnorm(200, sd = 0.1)
  list(q = q, y = y - mean(y))
}
gate_core_settings <- function(lambda, gate = NULL) {
  s <- list(family = "gaussian", intercept = TRUE,
            transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
            alpha = 1, penalty_factor = rep(1, 4),
            lower_limits = rep(-Inf, 4), upper_limits = rep(Inf, 4), seed = c(1, 2),
            secure = FALSE, trace = 0L, threads = 1L, lambda = lambda,
            coordinate_step = rep(1, 5), coordinate_clip = rep(Inf, 5),
            noise_sd = rep(0, 5), passes = 1L, selection = "permutation",
            average = FALSE)
  c(s, gate)
}

test_that("the core's gate puts the first pass at the prox of its own steps at the raised lambda", {
  # orthogonal centred columns and a centred y, no noise: each feature's
  # gradient in the first pass does not depend on the others' updates, so a
  # closed gate gives exactly the one-pass fit at the raised lambda
  design <- gate_design()
  q <- design$q
  y <- design$y
  settings <- gate_core_settings
  raised <- 0.2
  gated <- dpglmnet:::.dpcd_path_cpp(q, y, settings(0.01, list(
    gate_energy = 1e6, gate_lambda = raised, gate_feature = rep(1, 4))))
  direct <- dpglmnet:::.dpcd_path_cpp(q, y, settings(raised))
  expect_true(gated$gate$closed)
  expect_equal(gated$beta, direct$beta, tolerance = 1e-12)
  # the energy is the sum of the squared gradients of the first pass
  expect_equal(gated$gate$energy, sum((drop(crossprod(q, y)) / 200)^2), tolerance = 1e-12)
  # above the threshold the gate stays open: the fit at the schedule's lambda
  open <- dpglmnet:::.dpcd_path_cpp(q, y, settings(0.01, list(
    gate_energy = 1e-6, gate_lambda = raised, gate_feature = rep(1, 4))))
  expect_false(open$gate$closed)
  expect_equal(open$beta, dpglmnet:::.dpcd_path_cpp(q, y, settings(0.01))$beta,
               tolerance = 1e-12)
  # below the energy threshold, one gradient gate_z noise sds out keeps it
  # open; a larger gate_z does not
  noisy <- function(z) {
    s <- settings(0.01, list(gate_energy = 1e6, gate_lambda = raised, gate_z = z,
                             gate_feature = rep(1, 4)))
    s$noise_sd <- rep(1e-3, 5)
    dpglmnet:::.dpcd_path_cpp(q, y, s)
  }
  largest <- max(abs(noisy(Inf)$gate$gradients)) / 1e-3
  expect_gt(largest, 100)
  expect_false(noisy(largest * 0.99)$gate$closed)
  expect_true(noisy(largest * 1.01)$gate$closed)
})

test_that("the closed gate's lambda ramps from the noise level to the schedule's", {
  # the same orthogonal design: E, the first pass's energy, is exact; with
  # T^2 = E / (1 + rho^2) the gate reads a signal r = rho T, and its lambda
  # goes geometrically from gate_lambda (rho <= 0.5) to the fit's own
  # (rho = 1, where the gate opens)
  design <- gate_design()
  q <- design$q
  y <- design$y
  energy <- sum((drop(crossprod(q, y)) / 200)^2)
  own <- 0.01
  raised <- 0.2
  gated_at <- function(rho, ramp = TRUE) {
    noise <- energy / (1 + rho^2)
    s <- gate_core_settings(own, list(gate_energy = 2 * noise, gate_lambda = raised,
                                      gate_feature = rep(1, 4)))
    if (ramp) s <- c(s, list(gate_noise_energy = noise, gate_ramp_energy = 1.25 * noise))
    dpglmnet:::.dpcd_path_cpp(q, y, s)$gate
  }
  expect_equal(gated_at(0.3)$lambda, raised)
  expect_equal(gated_at(0.5 - 1e-9)$lambda, raised)
  # halfway in r: halfway in log lambda
  expect_equal(gated_at(0.75)$lambda, sqrt(raised * own), tolerance = 1e-9)
  expect_equal(gated_at(0.97)$lambda, raised^0.06 * own^0.94, tolerance = 1e-9)
  expect_true(gated_at(0.97)$closed)
  expect_false(gated_at(1.01)$closed)
  expect_identical(gated_at(1.01)$lambda, 0)
  # without the ramp's settings the closed gate steps to gate_lambda
  expect_equal(gated_at(0.97, ramp = FALSE)$lambda, raised)
})

test_that("the ramp starts at half the noise, later for few columns, none at p <= 8", {
  expect_equal(dpglmnet:::gate_ramp_start(200), 0.5)
  expect_equal(dpglmnet:::gate_ramp_start(36), (8 / 36)^0.25)
  expect_gte(dpglmnet:::gate_ramp_start(8), 1)
  # the gate's settings carry no ramp there
  gate_for <- function(p) {
    scaled <- list(p = p, alpha = 1, penalty.factor = rep(1, p), lower.limits = rep(-Inf, p),
                   upper.limits = rep(Inf, p))
    dpglmnet:::signal_gate(scaled, NULL, rep(0.1, p + 1), 0.01)
  }
  expect_null(gate_for(6)$gate_ramp_energy)
  wide <- gate_for(36)
  expect_equal(wide$gate_noise_energy, 36 * 0.01)
  expect_equal(wide$gate_ramp_energy, (1 + (8 / 36)^0.5) * 36 * 0.01)
  expect_equal(wide$gate_energy, 2 * 36 * 0.01)
})

test_that("the warning says when the gate raised lambda only part of the way", {
  problem <- list(n = 5148, p = 36, epsilon = 0.5)
  check <- list(released = 0.294, release_sd = NA_real_, threshold = 0.303, passed = FALSE,
                gate = TRUE, default_lambda = 0.25 / sqrt(5148), lambda = 0.00424,
                noise_lambda = 0.111, ramp_start = dpglmnet:::gate_ramp_start(36))
  expect_warning(dpglmnet:::warn_signal_check(check, problem),
                 "part of the way toward the noise level, to 0.00424.*at most 0.69 times the noise; this one is 0.97 times it")
  check$lambda <- check$noise_lambda
  expect_warning(dpglmnet:::warn_signal_check(check, problem),
                 "raised its single lambda to the noise level \\(0.111")
})

test_that("a fit whose gate reads a signal just short of the noise is fitted part of the way", {
  # 36 weak effects, binomial, epsilon 0.5: the first pass reads the signal
  # at 0.92 of the noise (this seed), inside the ramp (0.69 to 1 at p = 36)
  set.seed(2)
  n <- 5000
  p <- 36
  x <- matrix(rnorm(n * p), n, p)
  y <- rbinom(n, 1, plogis(drop(x %*% rep(0.11, p)) - 0.3))
  set.seed(2)
  seen <- dpglmnet_warnings(fit <- dpglmnet(x, y, family = "binomial", epsilon = 0.5,
                                            x.bounds = 4))
  check <- fit$settings$signal_check
  expect_true(check$gate)
  expect_false(check$passed)
  ratio <- check$released / check$threshold
  # (from the gate's counted columns: those the fit can move, at most p)
  expect_gte(check$ramp_start, dpglmnet:::gate_ramp_start(p))
  expect_gt(ratio, check$ramp_start)
  expect_lt(ratio, 1)
  # between the default and the noise level, where the ramp puts it, and the
  # path's lambda is the one the core used
  expect_gt(check$lambda, check$default_lambda)
  expect_lt(check$lambda, check$noise_lambda)
  u <- (ratio - check$ramp_start) / (1 - check$ramp_start)
  expect_equal(log(check$lambda), (1 - u) * log(check$noise_lambda) + u * log(check$default_lambda),
               tolerance = 1e-6)
  expect_equal(fit$lambda, check$lambda)
  expect_true(any(grepl("part of the way toward the noise level", seen, fixed = TRUE)))
  expect_match(fit$settings$solver_choice, "raised part of the way", fixed = TRUE)
})
