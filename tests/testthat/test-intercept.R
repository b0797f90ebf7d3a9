# The intercept-only fit (R/intercept.R; issue 16): the released mean of the
# clamped response / the proportion with the whole budget, and solver =
# "auto"'s choice of it where the private standardization can resolve no
# column.

intercept_data <- function(n, p = 10, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p)
  y <- 1 + x[, 1] - x[, 2] + rnorm(n)
  list(x = x, y = y, yb = as.numeric(y > 1))
}

quietly <- function(expr) suppressWarnings(expr)

test_that("the ledger: one Laplace row, epsilon spent = epsilon, by hand", {
  # (n = 200 at epsilon 0.5: y's range histogram is not afforded, below)
  d <- intercept_data(200)
  fit <- quietly(dpglmnet(d$x, d$y, epsilon = 0.5, x.bounds = 4, y.bound = 8))
  expect_identical(fit$settings$solver, "intercept")
  m <- fit$privacy$mechanisms
  expect_equal(nrow(m), 1L)
  expect_identical(m$type, "laplace")
  expect_equal(m$count, 1)
  # noise multiplier 1 / epsilon, rounded up (never below it)
  expect_gte(m$noise_multiplier, 1 / 0.5)
  expect_equal(m$noise_multiplier, 1 / 0.5, tolerance = 1e-12)
  # basic composition of one epsilon-DP release: epsilon, never above it
  expect_lte(fit$privacy$epsilon, 0.5)
  expect_equal(fit$privacy$epsilon, 1 / m$noise_multiplier, tolerance = 1e-15)
  expect_equal(fit$privacy$epsilon, 0.5, tolerance = 1e-12)
  # the Laplace scale: sensitivity (u - l) / n = 16 / 200 times the multiplier
  expect_equal(fit$settings$intercept_noise_scale, 16 / 200 * m$noise_multiplier)
  expect_identical(fit$settings$intercept_noise, "laplace")
  # summary(): the released mean (the intercept) and the clamp y was read
  # through, in the response table
  response <- summary(fit)$response
  expect_equal(response$mean, unname(fit$a0[1]))
  expect_equal(c(response$clamp_lower, response$clamp_upper), fit$settings$intercept_interval)
  expect_equal(response$bound, 8)
  expect_output(print(summary(fit)), "its released mean, the intercept", fixed = TRUE)
  # binomial: sensitivity 1 / n (at n = 100: with crit in [1.5, 12) a
  # binomial fit is bound-scaled DP-CD instead, R/moderate-n.R)
  db <- intercept_data(100)
  fb <- quietly(dpglmnet(db$x, db$yb, family = "binomial", epsilon = 0.5, x.bounds = 4))
  expect_identical(fb$settings$solver, "intercept")
  expect_equal(fb$settings$intercept_noise_scale, 1 / 100 * 2, tolerance = 1e-12)
  expect_equal(fb$privacy$epsilon, 0.5, tolerance = 1e-12)
  expect_lte(fb$privacy$epsilon, 0.5)
  expect_null(summary(fb)$response)  # (no y.bound: nothing to show)
  # (a proportion: no range first, whatever n)
  fb <- quietly(dpglmnet(intercept_data(5000)$x, intercept_data(5000)$yb, family = "binomial",
                         epsilon = 0.5, solver = "intercept"))
  expect_identical(fb$privacy$mechanisms$type, "laplace")
})

test_that("y's range first where its count noise is affordable: the ledger by hand", {
  # the public rule: the histogram's count noise sd 2 / mu (mu at epsilon
  # (1 - mean_share), delta) at most n / 10, as the standardization's y
  share <- dpglmnet:::intercept_constants$mean_share
  expect_equal(share, 0.5)
  planned <- function(n, epsilon) {
    d <- intercept_data(n)
    ns <- asNamespace("dpglmnet")
    ns$plans_intercept_range(ns$checked_spec(d$x, d$y, list(epsilon = epsilon, x.bounds = 4,
                                                            y.bound = 8)))
  }
  expect_false(planned(200, 0.5))
  expect_true(planned(200, 1))
  expect_true(planned(400, 0.5))
  expect_true(planned(800, 0.5))
  d <- intercept_data(800)
  fit <- quietly(dpglmnet(d$x, d$y, epsilon = 0.5, x.bounds = 4, y.bound = 8,
                          solver = "intercept"))
  m <- fit$privacy$mechanisms
  expect_identical(m$type, c("gaussian", "laplace"))
  expect_equal(m$count, c(1, 1))
  expect_identical(m$key, c("intercept_ranges", "path"))
  expect_lte(2 * m$noise_multiplier[1], 800 / 10)
  # the mean: multiplier 1 / (epsilon / 2), rounded up (never below it)
  expect_gte(m$noise_multiplier[2], 1 / (0.5 * share))
  expect_equal(m$noise_multiplier[2], 1 / (0.5 * share), tolerance = 1e-12)
  # the histogram: sensitivity 2, calibrated to what the mean leaves; by
  # hand, the Gaussian's epsilon at delta plus the Laplace's, never above
  expect_equal(m$sensitivity_value, c(2, diff(fit$settings$intercept_interval) / 800))
  expect_lte(fit$privacy$epsilon, 0.5)
  expect_equal(fit$privacy$epsilon,
               dpglmnet:::gdp_epsilon(1 / m$noise_multiplier[1], fit$privacy$delta) +
                 1 / m$noise_multiplier[2], tolerance = 1e-12)
  expect_equal(fit$privacy$epsilon, 0.5, tolerance = 1e-8)
  range <- fit$settings$intercept_interval
  expect_identical(fit$settings$intercept_public_interval, c(-8, 8))
  expect_true(range[1] >= -8 && range[1] < range[2] && range[2] <= 8)
  expect_equal(fit$settings$intercept_noise_scale, diff(range) / 800 * m$noise_multiplier[2])
  expect_output(print(summary(fit)), sprintf(
    "the mean of y clamped to its released range [%g, %g] (within [-8, 8])", range[1],
    range[2]), fixed = TRUE)
  # (y centred near 0 with a spread near its bound: the clamp reaches across 0)
  expect_lt(range[1], 0)
})

test_that("a crude y.bound: the mean is of y clamped to its released range", {
  # y near 10 with y.bound = 2 max |y| (car_prices, modeldata: a log price):
  # over [-22, 22] the mean's Laplace scale at epsilon 0.5, n = 800 is
  # 0.11 (sd 0.16, against sd(y) = 0.4); over the released range a few
  # times less at half of epsilon
  set.seed(5)
  n <- 800
  x <- matrix(rnorm(n * 10), n, 10)
  y <- 10 + 0.4 * rnorm(n)
  errors <- vapply(1:8, function(seed) {
    set.seed(seed)
    fit <- quietly(dpglmnet(x, y, epsilon = 0.5, x.bounds = 4, y.bound = 22))
    expect_identical(fit$settings$solver, "intercept")
    range <- fit$settings$intercept_interval
    expect_lt(diff(range), 8)
    expect_true(range[1] <= 9.6 && range[2] >= 10.4)
    fit$a0 - mean(y)
  }, numeric(1))
  expect_lt(sqrt(mean(errors^2)), 0.06)
})

test_that("y's released range is read as the standardization's y: no hidden-mass fallback", {
  # x's rule for a clamp cut to a sliver without a clear coarse mass (a
  # hidden rare dummy: back to its whole public interval) sent y's clamp
  # back to the whole crude interval in 4 fits of 40 here (a skewed y, 350
  # records, epsilon 0.5, bound 2 max |y|), the intercept's error then 3
  # times the others' at half the budget
  set.seed(1)
  n <- 350
  x <- matrix(rnorm(n * 2), n)
  y <- rgamma(n, 3, scale = 4)
  bound <- 2 * max(y)
  fits <- lapply(1:40, function(k) {
    set.seed(k)
    quietly(dpglmnet(x, y, solver = "intercept", epsilon = 0.5, y.bound = bound))
  })
  keys <- vapply(fits, function(f) paste(f$privacy$mechanisms$key, collapse = ","), "")
  expect_true(all(keys == "intercept_ranges,path"))
  whole <- vapply(fits, function(f) f$settings$intercept_interval[1] == -bound, logical(1))
  expect_lte(sum(whole), 1)
  errors <- vapply(fits, function(f) unname(f$a0[1]) - mean(y), numeric(1))
  expect_lt(sqrt(mean(errors^2)) / sd(y), 0.09)
})

test_that("a zero-inflated y is not read on a sliver at 0", {
  # 75% zeros, the rest counts 1-12 spread thinly (wooldridge's affairs):
  # the histograms see the zeros alone and read y as one value at 0; its
  # mean over that sliver is 0. The half of the interval on the side of the
  # hidden records is read instead where the counts say so, else all of it:
  # never the wrong half (y >= 0 or y <= 0, and 0 inside a fine bin)
  set.seed(3)
  n <- 800
  y <- ifelse(runif(n) < 0.75, 0, sample(c(1, 2, 3, 7, 12), n, replace = TRUE))
  x <- matrix(rnorm(n * 2), n)
  for (case in list(list(y = y, bound = 24), list(y = -y, bound = 24),
                    list(y = y, bound = c(-5, 24)))) {
    fits <- lapply(1:20, function(k) {
      set.seed(k)
      quietly(dpglmnet(x, case$y, solver = "intercept", epsilon = 0.5, y.bound = case$bound))
    })
    intervals <- vapply(fits, function(f) f$settings$intercept_interval, numeric(2))
    # (0 inside, and reaching at least 1 toward the records: not the sliver
    # [0, 2.3e-5] nor the wrong half; a thin tail may still be cut)
    expect_true(all(intervals[1, ] <= 0 & intervals[2, ] >= 0))
    toward <- if (max(case$y) > 0) intervals[2, ] else -intervals[1, ]
    expect_true(all(toward >= 1))
    errors <- vapply(fits, function(f) unname(f$a0[1]) - mean(case$y), numeric(1))
    expect_lt(sqrt(mean(errors^2)) / sd(case$y), 0.2)
  }
})

test_that("the released range's post-processing: bins put back, the other side, half the records", {
  ns <- asNamespace("dpglmnet")
  levels <- 20L
  fine_bins <- 32L
  counts <- function(coarse = numeric(0), fine = numeric(0)) {
    k <- numeric(2L * levels + 1L + fine_bins)
    k[as.integer(names(coarse))] <- coarse
    k[2L * levels + 1L + as.integer(names(fine))] <- fine
    k
  }
  # coarse bins about 0 on [-100, 100]: bin 40 is [25, 50], bin 41 [50, 100]
  put_back <- function(clamp, k) ns$put_back_next_bins(clamp, k, 10, -100, 100, levels)
  expect_equal(put_back(c(12.5, 25), counts(c("40" = 21))), c(12.5, 50))
  expect_equal(put_back(c(12.5, 25), counts(c("40" = 19))), c(12.5, 25))
  # (an end inside a coarse bin: nothing put back)
  expect_equal(put_back(c(12.5, 24), counts(c("40" = 500))), c(12.5, 24))
  # and below: bin 38 is [6.25, 12.5]
  expect_equal(put_back(c(12.5, 25), counts(c("38" = 21))), c(6.25, 25))
  # the other side of 0: fine bins of width 6.25 from -100; [-25, 12.5]
  # holds bins 13-18 (6 bins). Reaching -25 would make the clamp 4 times
  # wider: 3 noise sds of their sum (73.5), not 2 (49)
  other <- function(k, clamp = c(12.5, 25)) {
    ns$cover_other_side(clamp, k, 10, -100, 100, levels, fine_bins)
  }
  expect_equal(other(counts(fine = c("15" = 40, "16" = 40))), c(-25, 25))
  expect_equal(other(counts(fine = c("15" = 30, "16" = 30))), c(12.5, 25))
  # [2, 25] reaching -25 is about twice as wide: 2 sds of the sum of bins
  # 13-16 ([-25, 0]), 40
  expect_equal(other(counts(fine = c("15" = 25, "16" = 25)), c(2, 25)), c(-25, 25))
  expect_equal(other(counts(fine = c("15" = 15, "16" = 15)), c(2, 25)), c(2, 25))
  # and the mirror side: [-25, -12.5] reaching 25
  expect_equal(other(counts(fine = c("19" = 40, "20" = 40)), c(-25, -12.5)), c(-25, 25))
  expect_equal(other(counts(fine = c("19" = 30, "20" = 30)), c(-25, -12.5)), c(-25, -12.5))
  # a response whose visible records all sit at the anchor: the half of the
  # interval whose coarse bins, the centre bin (21) left out, outweigh the
  # other's by 2 sds of the difference (40 bins: 2 x 10 x 6.32 = 126),
  # else all of it; the centre bin's own count decides nothing
  hidden <- function(k, lower = -100, upper = 100) {
    ns$hidden_response_clamp(c(0, 1e-4), k, 10, lower, upper, levels, fine_bins)
  }
  expect_equal(hidden(counts(c("21" = 500, "39" = 100, "40" = 40))), c(0, 100))
  expect_equal(hidden(counts(c("21" = 500, "2" = 100, "3" = 40))), c(-100, 1e-4))
  expect_equal(hidden(counts(c("21" = 500, "39" = 60, "40" = 40))), c(-100, 100))
  expect_equal(hidden(counts(c("21" = 500), fine = c("17" = 500))), c(-100, 100))
  # (an end of the interval at the anchor: no half to choose)
  expect_equal(hidden(counts(c("39" = 500)), 0, 100), c(0, 100))
  # half the records in the clamp's fine bins, or the public interval
  half <- function(k) ns$holds_half(c(12.5, 25), k, 100, -100, 100, levels, fine_bins)
  expect_true(half(counts(fine = c("19" = 30, "20" = 21))))
  expect_false(half(counts(fine = c("19" = 30, "21" = 80))))
})

test_that("the released mean: clamped values, Laplace and Gaussian noise of the stated scale", {
  ns <- asNamespace("dpglmnet")
  release <- function(y, scale, noise = "laplace", seed = c(1, 2)) {
    ns$.private_mean_cpp(y, list(lower = -1, upper = 2, noise = noise, scale = scale,
                                 seed = seed, secure = FALSE))
  }
  # scale 0: exactly the mean of y clamped to [-1, 2]
  y <- c(-5, 0, 1, 3, 10)
  expect_equal(release(y, 0)$released, mean(c(-1, 0, 1, 2, 2)))
  expect_equal(release(y, 0)$noise, 0)
  # Laplace of scale b: E|noise| = b, sd sqrt(2) b (4000 draws: 3% and 5%)
  draws <- vapply(seq_len(4000), function(k) release(y, 0.3, seed = c(k, 7))$noise,
                  numeric(1))
  expect_equal(mean(abs(draws)), 0.3, tolerance = 0.03)
  expect_equal(sd(draws), sqrt(2) * 0.3, tolerance = 0.05)
  expect_lt(abs(mean(draws)), 4 * sqrt(2) * 0.3 / sqrt(4000))
  gauss <- vapply(seq_len(4000), function(k) release(y, 0.3, "gaussian", c(k, 7))$noise,
                  numeric(1))
  expect_equal(sd(gauss), 0.3, tolerance = 0.05)
  # the same seed, the same draw
  expect_identical(release(y, 0.3), release(y, 0.3))
  expect_error(release(y, -1), "scale")
})

test_that("at epsilon = Inf the fit is the clamped mean, and the logit of the proportion", {
  d <- intercept_data(300)
  fit <- dpglmnet(d$x, d$y, epsilon = Inf, solver = "intercept", y.bound = 2)
  expect_equal(unname(fit$a0), mean(pmin(pmax(d$y, -2), 2)))
  expect_equal(sum(abs(fit$beta)), 0)
  fb <- dpglmnet(d$x, d$yb, family = "binomial", epsilon = Inf, solver = "intercept")
  expect_equal(unname(fb$a0), qlogis(mean(d$yb)))
  # glmnet's first lambda, where every coefficient is 0 too, is below the
  # public bound the fit reports: the same model there
  skip_if_not_installed("glmnet")
  g <- glmnet::glmnet(d$x, d$yb, family = "binomial")
  expect_lte(g$lambda[1], fb$lambda)
  expect_equal(unname(coef(g, s = fb$lambda)[1, 1]), unname(fb$a0), tolerance = 1e-6)
  g <- glmnet::glmnet(d$x, pmin(pmax(d$y, -2), 2))
  expect_lte(g$lambda[1], fit$lambda)
  expect_equal(unname(coef(g, s = fit$lambda)[1, 1]), unname(fit$a0), tolerance = 1e-6)
})

test_that("the choice rule: public inputs only, at the moderate-n threshold", {
  ns <- asNamespace("dpglmnet")
  plan_solver <- function(n, p, args, seed = 1) {
    d <- intercept_data(n, p, seed)
    ns$plan_private_path(ns$checked_spec(d$x, d$y, c(list(x.bounds = 4, y.bound = 8),
                                                     args)))$problem$solver
  }
  crit <- function(n, p, epsilon) {
    ns$moderate_n_criterion(n, p, epsilon, 1 / n^2, TRUE, 0.3)
  }
  # the same shape, other data: the same choice; and it follows the
  # criterion on either side of 1.5 (p = 10, epsilon = 1: crit(700) 2.2,
  # crit(2000) 0.77 (the band's share then))
  expect_gte(crit(700, 10, 1), 1.5)
  expect_lt(crit(2000, 10, 1), 1.5)
  expect_identical(plan_solver(700, 10, list(epsilon = 1)), "intercept")
  expect_identical(plan_solver(700, 10, list(epsilon = 1), seed = 9), "intercept")
  expect_identical(plan_solver(2000, 10, list(epsilon = 1)), "dpcd")
  # the boundary: the smallest n whose criterion is below 1.5 fits DP-CD,
  # one fewer the intercept alone
  n_below <- 400L
  while (crit(n_below, 3, 1) >= 1.5) n_below <- n_below + 1L
  expect_identical(plan_solver(n_below, 3, list(epsilon = 1)), "dpcd")
  expect_identical(plan_solver(n_below - 1L, 3, list(epsilon = 1)), "intercept")
  # planning the choice reads no value of x and releases nothing
  d <- intercept_data(700)
  spec <- ns$checked_spec(d$x, d$y, list(epsilon = 1, x.bounds = 4, y.bound = 8))
  ns_calls <- new.env()
  trace_names <- grep("^\\.[a-z0-9_]*_cpp$", ls(ns, all.names = TRUE), value = TRUE)
  trace_names <- setdiff(trace_names, c(".gdp_mu_cpp", ".calibrate_cpp"))
  originals <- mget(trace_names, envir = ns)
  for (name in trace_names) local({
    entry <- name
    unlockBinding(entry, ns)
    assign(entry, function(...) stop("core call while planning: ", entry), envir = ns)
  })
  plan <- tryCatch(ns$plan_private_path(spec), finally = for (name in trace_names) {
    assign(name, originals[[name]], envir = ns)
    lockBinding(name, ns)
  })
  expect_identical(plan$problem$solver, "intercept")
  # never at epsilon = Inf; not when the user asks for a lambda path, a
  # solver, a standardization share, no standardization, weights or an
  # offset; not for gaussian without y.bound
  expect_identical(plan_solver(400, 10, list(epsilon = Inf)), "dpcd")
  expect_identical(plan_solver(400, 10, list(epsilon = 0.5, lambda = c(0.1, 0.01))), "dpcd")
  expect_identical(plan_solver(400, 10, list(epsilon = 0.5, nlambda = 3)), "dpcd")
  expect_identical(plan_solver(400, 10, list(epsilon = 0.5, solver = "dpcd")), "dpcd")
  expect_identical(plan_solver(400, 10, list(epsilon = 0.5, standardize.budget = 0.3)),
                   "dpcd")
  expect_identical(plan_solver(400, 10, list(epsilon = 0.5, standardize = FALSE)), "dpcd")
  expect_identical(plan_solver(400, 10, list(epsilon = 0.5, weights = rep(1, 400),
                                             weights.bound = 2)), "dpcd")
  expect_identical(plan_solver(400, 10, list(epsilon = 0.5, offset = rep(0, 400),
                                             offset.bound = 1)), "dpcd")
  expect_identical(plan_solver(400, 10, list(epsilon = 0.5, intercept = FALSE)), "dpcd")
  d <- intercept_data(400)
  # (without y.bound a private standardized gaussian fit is an error that
  # says so, before any choice)
  expect_dpglmnet_error(ns$checked_spec(d$x, d$y, list(epsilon = 0.5, x.bounds = 4)),
                        "`y.bound`")
  # the reason is reported
  fit <- quietly(dpglmnet(d$x, d$y, epsilon = 0.5, x.bounds = 4, y.bound = 8))
  expect_match(fit$settings$solver_choice, "moderate-n criterion", fixed = TRUE)
})

test_that("the warning says the fit is the private mean / proportion, with the criterion", {
  d <- intercept_data(400)
  crit <- asNamespace("dpglmnet")$moderate_n_criterion(400, 10, 0.5, 1 / 400^2, TRUE, 0.3)
  expect_warning(dpglmnet(d$x, d$y, epsilon = 0.5, x.bounds = 4, y.bound = 8),
                 sprintf("would be %.2g times", crit), fixed = TRUE)
  expect_warning(dpglmnet(d$x, d$y, epsilon = 0.5, x.bounds = 4, y.bound = 8),
                 "the fit is the private mean of the clamped response")
  db <- intercept_data(100)
  expect_warning(dpglmnet(db$x, db$yb, family = "binomial", epsilon = 0.5, x.bounds = 4),
                 "the fit is the private proportion")
})

test_that("every method works on the intercept-only fit", {
  d <- intercept_data(400)
  fit <- quietly(dpglmnet(d$x, d$y, epsilon = 0.5, x.bounds = 4, y.bound = 8))
  a0 <- unname(fit$a0)
  expect_length(fit$lambda, 1L)
  # the public bound on glmnet's lambda_max: (u - l) / 2 / alpha
  expect_equal(fit$lambda, 8)
  expect_output(print(fit), "Solver: intercept")
  expect_equal(as.numeric(coef(fit)), c(a0, rep(0, 10)))
  expect_equal(as.numeric(coef(fit, s = 0.01)), c(a0, rep(0, 10)))
  expect_equal(as.numeric(predict(fit, d$x[1:5, ])), rep(a0, 5))
  expect_equal(as.numeric(predict(fit, d$x[1:5, ], type = "response")), rep(a0, 5))
  expect_length(predict(fit, type = "nonzero")[[1]], 0L)
  # (n = 400 at epsilon 0.5: y's range is released first, then the mean of y
  # clamped to it)
  range <- fit$settings$intercept_interval
  expect_output(print(summary(fit)), sprintf(paste(
    "the intercept alone (every coefficient 0), the mean of y clamped to its released",
    "range [%g, %g] (within [-8, 8]) with laplace noise of scale %.4g"), range[1], range[2],
    fit$settings$intercept_noise_scale), fixed = TRUE)
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_no_error(plot(fit))
  expect_equal(unname(deviance(fit, newx = d$x, newy = d$y)), sum((d$y - a0)^2))
  expect_true(family(fit) == "gaussian")
  # (n = 100: the binomial intercept-only fit, R/moderate-n.R)
  d <- intercept_data(100)
  fb <- quietly(dpglmnet(d$x, d$yb, family = "binomial", epsilon = 0.5, x.bounds = 4))
  p1 <- plogis(unname(fb$a0))
  expect_equal(as.numeric(predict(fb, d$x[1:3, ], type = "response")), rep(p1, 3))
  expect_equal(as.vector(predict(fb, d$x[1:3, ], type = "class")),
               rep(if (p1 > 0.5) "1" else "0", 3))
  expect_equal(fb$lambda, 0.5)
  expect_no_error(plot(fb))
  skip_if_not_installed("glmnet")
  assessed <- glmnet::assess.glmnet(fb, newx = d$x, newy = d$yb)
  expect_true(length(assessed) > 0 && all(is.finite(unlist(assessed))))
  expect_equal(as.numeric(assessed$mse), mean((d$yb - p1)^2), tolerance = 1e-6)
  expect_no_error(glmnet::confusion.glmnet(fb, newx = d$x, newy = d$yb))
})

test_that("cv.dpglmnet fits the intercept alone on all records, no split", {
  d <- intercept_data(400)
  set.seed(2)
  cvfit <- quietly(cv.dpglmnet(d$x, d$y, epsilon = 0.5, x.bounds = 4, y.bound = 8))
  expect_identical(cvfit$dpglmnet.fit$settings$solver, "intercept")
  expect_length(cvfit$validation, 0L)
  expect_equal(cvfit$dpglmnet.fit$nobs, 400)
  expect_length(cvfit$lambda, 1L)
  expect_identical(cvfit$privacy$mechanisms$key, c("intercept_ranges", "path"))
  # (the range's Gaussian is calibrated to what the mean leaves)
  expect_equal(cvfit$privacy$epsilon, 0.5, tolerance = 1e-8)
  expect_lte(cvfit$privacy$epsilon, 0.5)
  expect_equal(as.numeric(predict(cvfit, d$x[1:2, ])), rep(unname(cvfit$dpglmnet.fit$a0), 2))
  expect_output(print(cvfit), "on all 400 records")
  pdf(NULL)
  on.exit(grDevices::dev.off())
  # (no validation curve to plot: it says so)
  expect_warning(plot(cvfit), "no validation curve")
  # binomial: the intercept alone above the bound-scaled band (n = 100;
  # at n = 400 the fit is bound-scaled DP-CD, R/moderate-n.R), on all
  # records as well
  db <- intercept_data(100)
  set.seed(2)
  cvb <- quietly(cv.dpglmnet(db$x, db$yb, family = "binomial", epsilon = 0.5, x.bounds = 4))
  expect_identical(cvb$dpglmnet.fit$settings$solver, "intercept")
  expect_true(all(predict(cvb, db$x[1:2, ], type = "class") %in% c("0", "1")))
  set.seed(2)
  cvb <- quietly(cv.dpglmnet(d$x, d$yb, family = "binomial", epsilon = 0.5, x.bounds = 4))
  expect_identical(cvb$dpglmnet.fit$settings$solver, "dpcd")
  expect_true(cvb$dpglmnet.fit$settings$bound_scaling)
  expect_length(cvb$validation, 0L)
  expect_equal(cvb$dpglmnet.fit$nobs, 400)
  # where the training part would pick it but all records do not, cv
  # decides at the full n: DP-CD on all records (as before the rule)
  ns <- asNamespace("dpglmnet")
  crit <- function(n) ns$moderate_n_criterion(n, 3, 1, 1 / n^2, TRUE, 0.3)
  n <- 400L
  while (crit(n) >= 1.5) n <- n + 1L
  expect_gte(crit(n - round(0.2 * n)), 1.5)
  d <- intercept_data(n, 3)
  set.seed(3)
  cv_auto <- quietly(cv.dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 8))
  set.seed(3)
  cv_dpcd <- quietly(cv.dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 8,
                                 solver = "dpcd"))
  expect_identical(cv_auto$dpglmnet.fit$settings$solver, "dpcd")
  expect_equal(coef(cv_auto), coef(cv_dpcd))
})

test_that("solver = \"intercept\" given: works, says what it ignores, refuses what it cannot", {
  d <- intercept_data(400, 3)
  expect_warning(fit <- dpglmnet(d$x, d$y, solver = "intercept", y.bound = 8,
                                 lambda = c(1, 0.1), passes = 3, alpha = 0.5),
                 "it ignores `lambda`, `passes`")
  expect_length(fit$lambda, 1L)
  # alpha sets the reported lambda, (u - l) / 2 / alpha
  expect_equal(fit$lambda, 16)
  expect_equal(sum(abs(fit$beta)), 0)
  expect_error(dpglmnet(d$x, d$y, solver = "intercept", y.bound = 8, intercept = FALSE),
               "intercept", class = "dpglmnet_error")
  expect_error(dpglmnet(d$x, d$y, solver = "intercept"), "y.bound",
               class = "dpglmnet_error")
  expect_error(dpglmnet(d$x, d$y, solver = "intercept", y.bound = 8,
                        weights = rep(1, 400)), "weights", class = "dpglmnet_error")
  # x's values are still checked, before anything is released
  xb <- d$x
  xb[3, 2] <- NA
  expect_error(dpglmnet(xb, d$y, solver = "intercept", y.bound = 8), "NA",
               class = "dpglmnet_error")
  expect_error(quietly(dpglmnet(xb, d$y, epsilon = 0.5, x.bounds = 4, y.bound = 8)), "NA",
               class = "dpglmnet_error")
  # no x.bounds needed (x is not read), the budget spent is epsilon
  expect_equal(fit$privacy$epsilon, 1, tolerance = 1e-12)
})
