# solver = "auto" and the defaults when p is large against n (R/highdim.R),
# and DP-CD's public fallback for private scales that would be noise.

sparse_truth <- function(n, p, truth, seed, family = "gaussian") {
  set.seed(seed)
  x <- matrix(stats::rnorm(n * p), n, p)
  eta <- drop(x[, seq_along(truth)] %*% truth)
  y <- if (family == "gaussian") eta + stats::rnorm(n) else stats::rbinom(n, 1, stats::plogis(eta))
  list(x = x, y = y)
}

rule <- function(n = 1000, p = 600, epsilon = 1, family = "gaussian", alpha = 1,
                 lambda = NULL, x.bounds = 4, y_interval = list(lower = -20, upper = 20,
                                                                envelope = 20),
                 given = list(), lower.limits = -Inf, upper.limits = Inf,
                 penalty.factor = rep(1, p)) {
  dpglmnet:::resolve_auto_solver("auto", n, p, epsilon, 1 / n^2, family, alpha, lambda, NULL,
                                 x.bounds, y_interval, given, lower.limits,
                                 upper.limits, penalty.factor)
}

test_that("the auto rule picks dpfw for p >= n / 2 from public inputs only, else dpcd", {
  expect_identical(rule(p = 499)$solver, "dpcd")
  expect_identical(rule(p = 500)$solver, "dpfw")
  expect_identical(rule(p = 4000, n = 2000)$solver, "dpfw")
  # each condition the rule needs
  expect_identical(rule(epsilon = Inf)$solver, "dpcd")
  expect_identical(rule(x.bounds = NULL)$solver, "dpcd")
  expect_identical(rule(y_interval = NULL)$solver, "dpcd")        # gaussian, no y.bound
  expect_identical(rule(y_interval = NULL, family = "binomial")$solver, "dpfw")
  expect_identical(rule(alpha = 0.5)$solver, "dpcd")
  expect_identical(rule(lambda = c(0.1, 0.01))$solver, "dpcd")
  expect_identical(rule(lower.limits = 0)$solver, "dpcd")
  expect_identical(rule(penalty.factor = c(0, rep(1, 599)))$solver, "dpcd")
  expect_identical(rule(given = list(standardize = TRUE))$solver, "dpcd")
  expect_identical(rule(given = list(standardize = FALSE))$solver, "dpfw")
  # the radius is the half-width of y's interval (logit: 20); the clip 0.005
  # of it; the steps 0.3 mu n / log(2p) within [5, 100]
  r <- rule(y_interval = list(lower = 0, upper = 50, envelope = 50))
  expect_equal(r$l1.radius, 25)
  expect_equal(r$clip, 0.005 * 25)
  expect_true(r$bound_scaling)
  expect_identical(r$standardize, FALSE)
  mu <- gdp_mu(1, 1 / 1000^2)
  expect_identical(r$passes, as.integer(round(0.3 * mu * 1000 / log(2 * 600))))
  expect_equal(rule(family = "binomial")$l1.radius, 20)
  expect_equal(rule(family = "binomial")$clip, 0.005)
  expect_identical(rule(n = 200, p = 5000)$passes, 5L)                # the floor
  expect_identical(rule(n = 1e6, p = 6e5, epsilon = 10)$passes, 100L)  # the cap
  # what the user gives replaces the rule's
  g <- rule(given = list(clip = 2, passes = 7L, l1.radius = 3))
  expect_identical(c(g$clip, g$passes, g$l1.radius), c(2, 7, 3))
})

test_that("auto at low dimension is dpcd with private standardization, as before", {
  d <- sparse_truth(2000, 5, c(1, -1, 0.5), 1)
  # (a path: at its default single lambda auto also makes the signal
  # check, R/signal.R, test-signal.R)
  set.seed(2)
  auto <- dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 10, nlambda = 3)
  set.seed(2)
  dpcd <- dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 10, solver = "dpcd",
                   nlambda = 3)
  expect_identical(auto$settings$solver, "dpcd")
  expect_true(auto$settings$standardize)
  expect_equal(as.matrix(auto$beta), as.matrix(dpcd$beta))
  expect_equal(auto$a0, dpcd$a0)
  expect_match(auto$settings$solver_choice, "auto")
  expect_null(dpcd$settings$solver_choice)
  # l1.radius with a rule that picked dpcd: a classed error naming it
  expect_error(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 10, l1.radius = 1),
               class = "dpglmnet_error", regexp = "l1.radius")
  expect_error(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 10, solver = "fw"),
               class = "dpglmnet_error", regexp = "solver")
})

test_that("a high-dimensional fit at the defaults finds most of the support", {
  truth <- c(2, -2, 1.5, -1.5, 1.25, -1.25)
  d <- sparse_truth(1500, 3000, truth, 11)
  set.seed(3)
  fit <- cv.dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 2 * max(abs(d$y)))
  path <- fit$dpglmnet.fit
  expect_identical(path$settings$solver, "dpfw")
  expect_true(path$settings$bound_scaling)
  expect_length(fit$validation, 0L)       # one radius: all records, no split
  b <- as.numeric(coef(fit, s = "lambda.min"))[-1]
  # (measured at this seed: 6 of 6, no false positive; at least 4 of 6 and
  # at most 3 false positives leave room for noise without passing a fit
  # that found nothing)
  expect_gte(sum(b[seq_along(truth)] != 0), 4)
  expect_lte(sum(b[-seq_along(truth)] != 0), 3)
  # the held-out error is well below predicting 0
  t <- sparse_truth(2000, 3000, truth, 12)
  mse <- mean((t$y - predict(fit, t$x, s = "lambda.min"))^2)
  expect_lt(mse, 0.5 * mean(t$y^2))
  # the ball is sum_j b_j |beta_j| <= R on the original scale (bound-scaled
  # columns), R the half-width of y's interval
  expect_equal(path$lambda, 2 * max(abs(d$y)))
  expect_lte(sum(4 * abs(b)), path$lambda * (1 + 1e-12))
  out <- utils::capture.output(print(path))
  expect_true(any(grepl("Solver: dpfw (auto", out, fixed = TRUE)))
})

test_that("the auto fit's ledger: the selections and intercept compose as by hand", {
  d <- sparse_truth(400, 300, c(2, -2), 5)
  fit <- dpglmnet(d$x, d$y, epsilon = 1, delta = 1e-5, x.bounds = 4, y.bound = 30)
  expect_identical(fit$settings$solver, "dpfw")
  ledger <- fit$privacy
  z <- ledger$noise_level
  steps <- fit$settings$steps_per_radius
  expect_identical(as.integer(steps), dpglmnet:::highdim_steps(400, 300, 1, 1e-5))
  rows <- ledger$mechanisms
  expect_identical(rows$type, c("exponential", "gaussian"))
  expect_equal(rows$count, c(steps, steps))
  # nothing else is released: no standardization, no smoothness, no clip
  orders <- default_orders()
  eps0 <- 2 / z
  rdp <- steps * pmin(eps0, orders * eps0^2 / 8) + steps * orders / (2 * (3 * z)^2)
  by_hand <- min(rdp + log1p(-1 / orders) - (log(1e-5) + log(orders)) / (orders - 1))
  expect_equal(ledger$epsilon, by_hand, tolerance = 1e-9)
  expect_lte(ledger$epsilon, 1)
  # the Gumbel scale: z times the replace-one sensitivity 2 R C / n, with the
  # rule's clip 0.005 R (R = 30) on the bound-scaled columns
  expect_equal(fit$settings$gumbel_scale, z * 2 * 30 * (0.005 * 30) / 400)
})

test_that("DP-CD with standardize = FALSE at p >> n gives no absurd coefficients", {
  truth <- c(2, -2, 1.5, -1.5)
  d <- sparse_truth(600, 1500, truth, 21)
  set.seed(4)
  expect_warning(
    fit <- dpglmnet(d$x, d$y, solver = "dpcd", standardize = FALSE, epsilon = 1,
                    x.bounds = 4, y.bound = 2 * max(abs(d$y))),
    class = "dpglmnet_warning", regexp = "public bounds")
  # the public fallback: no quantile release, safe steps 1 / (b_j^2)
  expect_identical(fit$settings$smoothness, "bounds")
  expect_false(any(grepl("quantile", fit$privacy$mechanisms$mechanism)))
  expect_equal(fit$settings$clip, sqrt(1500 + 1))
  # (before: coefficients of 1e13-1e24; the target of issue 16: |b_j| sd(x_j)
  # at most 10 sd(y) on every lambda)
  worst <- max(abs(as.matrix(fit$beta)) * apply(d$x, 2, stats::sd))
  expect_lte(worst, 10 * stats::sd(d$y))
  # a clip or smoothness the user gives is kept
  fit_q <- suppressWarnings(dpglmnet(d$x[1:300, 1:200], d$y[1:300], solver = "dpcd",
                                     standardize = FALSE, smoothness = "quantile",
                                     clip = 5, epsilon = 1, x.bounds = 4, y.bound = 30,
                                     nlambda = 2, passes = 1))
  expect_identical(fit_q$settings$clip, 5)
  expect_match(fit_q$settings$smoothness, "quantile")
})

test_that("at low dimension DP-CD still releases its private scales", {
  d <- sparse_truth(20000, 5, c(1, -1), 6)
  fit <- dpglmnet(d$x, d$y, solver = "dpcd", standardize = FALSE, epsilon = 1,
                  x.bounds = 4, y.bound = 10, nlambda = 3, passes = 2)
  expect_match(fit$settings$smoothness, "quantile")
  expect_true(any(grepl("quantile", fit$privacy$mechanisms$mechanism)))
})

test_that("binomial: auto at p >> n finds the strong features", {
  truth <- c(3, -3, 2.5, -2.5)
  d <- sparse_truth(1500, 2000, truth, 31, family = "binomial")
  set.seed(5)
  fit <- dpglmnet(d$x, d$y, family = "binomial", epsilon = 1, x.bounds = 4)
  expect_identical(fit$settings$solver, "dpfw")
  b <- as.numeric(fit$beta[, 1])
  expect_gte(sum(b[seq_along(truth)] != 0), 3)
  expect_true(all(sign(b[seq_along(truth)][b[seq_along(truth)] != 0]) ==
                    sign(truth)[b[seq_along(truth)] != 0]))
})

test_that("cv.dpglmnet decides auto at the full n: a split part alone would pick dpfw", {
  # p = 450: p >= n_train / 2 (n_train = 800) but p < n / 2 (n = 1000)
  d <- sparse_truth(1000, 450, c(2, -2), 41)
  set.seed(6)
  fit <- muffle_dpglmnet_warnings(cv.dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4,
                                              y.bound = 30))
  # not dpfw: at the full n "auto" keeps DP-CD's standardized problem,
  # whose 450 columns no private standardization resolves at n = 1000, so
  # the plan fits the intercept alone (R/intercept.R)
  expect_identical(fit$dpglmnet.fit$settings$solver, "intercept")
  expect_identical(dpglmnet:::resolve_auto_solver("auto", 800, 450, 1, 1e-6, "gaussian", 1, NULL,
    NULL, 4, list(lower = -30, upper = 30, envelope = 30), list(), -Inf, Inf,
    rep(1, 450))$solver, "dpfw")
})

test_that("auto fits the intercept alone where p >= n / 2 affords too few Frank-Wolfe steps", {
  set.seed(1)
  n <- 400
  p <- 800
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x[, 1:8] %*% rep(c(1, -1), 4)) + rnorm(n)
  # 0.3 mu n / log(2p) selections: about 4 at epsilon 1, 9 at 3
  steps <- dpglmnet:::highdim_affordable_steps(n, p, 1, 1 / n^2)
  expect_lt(steps, 5)
  expect_warning(fit <- dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 30),
                 "Frank-Wolfe selections", class = "dpglmnet_warning")
  expect_identical(fit$settings$solver, "intercept")
  expect_true(all(fit$beta == 0))
  expect_equal(fit$privacy$epsilon, 1)
  # a larger budget keeps dpfw; so does a solver, passes or a radius given
  wide <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 3, x.bounds = 4, y.bound = 30))
  expect_identical(wide$settings$solver, "dpfw")
  given <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 30,
                                             passes = 5))
  expect_identical(given$settings$solver, "dpfw")
  # cv.dpglmnet(): one fit on all records, as at moderate n
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(x, y > 0, family = "binomial", epsilon = 1,
                                                x.bounds = 4))
  expect_identical(cvfit$dpglmnet.fit$settings$solver, "intercept")
  expect_equal(cvfit$privacy$epsilon, 1)
})
