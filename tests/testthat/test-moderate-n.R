# Moderate n (issue 16, R/moderate-n.R): a public criterion of the planned
# standardization noise sets the default standardize.budget and a warning.

crit <- function(n, p, epsilon, scale_y = TRUE, budget = 0.3, delta = 1 / n^2) {
  dpglmnet:::moderate_n_criterion(n, p, epsilon, delta, scale_y, budget)
}

second_moment_row <- function(fit) {
  m <- fit$privacy$mechanisms
  m[grepl("second moment of each column", m$mechanism, fixed = TRUE), ]
}

test_that("the criterion is 16 thr(p) f_m z / n of the plan's second-moment releases", {
  set.seed(1)
  cases <- list(c(400, 3, 1), c(1000, 10, 1), c(2000, 10, 0.5), c(20000, 8, 1),
                c(3000, 30, 2))
  for (case in cases) {
    n <- case[1]; p <- case[2]; epsilon <- case[3]
    x <- matrix(rnorm(n * p), n, p)
    for (family in c("gaussian", "binomial")) {
      y <- if (family == "gaussian") x[, 1] + rnorm(n) else as.numeric(x[, 1] > 0)
      for (budget in c(0.3, 0.6)) {
        spec <- dpglmnet:::checked_spec(x, y, list(
          family = family, epsilon = epsilon, x.bounds = 4, standardize.budget = budget,
          y.bound = if (family == "gaussian") 8))
        plan <- dpglmnet:::plan_private_path(spec)
        row <- plan$mechanisms[grepl("second moment of each column", plan$mechanisms$mechanism), ]
        by_hand <- 16 * max(2, qnorm(1 - 0.5 / p)) * row$factor * plan$z / n
        label <- sprintf("n %d p %d eps %g %s budget %g", n, p, epsilon, family, budget)
        expect_equal(dpglmnet:::planned_moderate_n_criterion(plan), by_hand, label = label)
        expect_equal(crit(n, p, epsilon, family == "gaussian", budget), by_hand,
                     tolerance = 1e-6, label = label)
      }
    }
  }
})

test_that("with 0/1 dummies the criterion counts the releases they make (a mean alone)", {
  set.seed(2)
  for (case in list(c(600, 1), c(1500, 0.5), c(3000, 0.5), c(3000, 2))) {
    n <- case[1]; epsilon <- case[2]
    d <- data.frame(a = rnorm(n), b = runif(n), g = factor(sample(letters[1:6], n, TRUE)),
                    s = factor(sample(c("u", "v"), n, TRUE)))
    for (family in c("gaussian", "binomial")) {
      y <- if (family == "gaussian") d$a + rnorm(n) else as.numeric(d$a > 0)
      design <- dpglmnet:::frame_design(list(x = d, y = y, epsilon = epsilon,
                                             x.bounds = list(a = 4, b = 1)))
      binary <- sum(attr(design$x.bounds, "binary"))
      expect_equal(binary, 7)  # g in full (6 dummies), sv
      spec <- dpglmnet:::checked_spec(design$x, y, list(
        family = family, epsilon = epsilon, x.bounds = design$x.bounds,
        standardize.budget = 0.3, y.bound = if (family == "gaussian") 8))
      plan <- dpglmnet:::plan_private_path(spec)
      label <- sprintf("n %d eps %g %s", n, epsilon, family)
      # (g's six means as one vector, priced as two: a, b, sv and g's)
      means <- dpglmnet:::plan_mean_releases(spec$standardization, ncol(design$x))
      expect_equal(means, 5)
      expect_equal(dpglmnet:::moderate_n_criterion(n, ncol(design$x), epsilon, 1 / n^2,
                                                   family == "gaussian", 0.3, binary, means),
                   dpglmnet:::planned_moderate_n_criterion(plan),
                   tolerance = 1e-6, label = label)
    }
  }
  # fewer releases than if every column were numeric
  expect_lt(crit_binary <- dpglmnet:::moderate_n_criterion(1500, 9, 0.5, 1 / 1500^2, TRUE,
                                                           0.3, 7),
            crit(1500, 9, 0.5))
})

test_that("the default share: 0.6 exactly where the criterion at 0.3 is in [0.8, 1.5]", {
  budget <- function(n, p, epsilon, scale_y = TRUE, standardize = TRUE) {
    dpglmnet:::default_standardize_budget(n, p, epsilon, 1 / n^2, scale_y, standardize)
  }
  # (criteria at 0.3: 2.89, 1.27, 0.96, 0.23, 0.70)
  expect_identical(dpglmnet:::moderate_n_constants$band, c(0.8, 1.5))
  expect_equal(budget(400, 10, 1), 0.3)      # nothing to resolve: no more budget
  expect_equal(budget(1000, 10, 1), 0.6)
  expect_equal(budget(2000, 10, 1), 0.6)      # 0.96
  expect_equal(budget(5000, 3, 1), 0.3)
  expect_equal(budget(1000, 3, 1), 0.3)       # 0.70
  expect_equal(budget(1000, 10, Inf), 0.3)
  expect_equal(budget(1000, 10, 1, standardize = FALSE), 0.3)
  # large n, as the paper's data: unchanged
  expect_equal(budget(16512, 8, 0.5), 0.3)
  expect_equal(budget(36250, 8, 0.5, scale_y = FALSE), 0.3)
  # the band's edges
  for (n in c(600, 800, 1000, 1200, 1500, 2000)) for (p in c(3, 10, 30)) {
    for (epsilon in c(0.5, 1, 2)) {
      c0 <- crit(n, p, epsilon)
      expect_equal(budget(n, p, epsilon), if (c0 >= 0.8 && c0 <= 1.5) 0.6 else 0.3)
    }
  }
})

test_that("the share is raised only when the path keeps at least 0.2 of mu^2", {
  set.seed(6)
  n <- 1000; p <- 10
  x <- matrix(rnorm(n * p), n, p)
  y <- rnorm(n)
  plan <- function(...) dpglmnet:::schedule_problem(dpglmnet:::checked_spec(
    x, y, list(epsilon = 1, x.bounds = 4, y.bound = 8, ...)))$standardize.budget
  expect_equal(plan(), 0.6)
  # clip = "quantile" with clip.budget 0.3: 0.6 + 0.3 > 0.8, so 0.3
  expect_equal(plan(clip = "quantile", clip.budget = 0.3), 0.3)
  expect_equal(plan(clip = "quantile", clip.budget = 0.2), 0.6)
})

test_that("the rule reads no data: same shapes, different values, same plan", {
  set.seed(2)
  n <- 1000; p <- 10
  x1 <- matrix(rnorm(n * p), n, p)
  x2 <- matrix(runif(n * p, -4, 4), n, p)
  y1 <- rnorm(n)
  y2 <- rep(c(-7, 7), n / 2)
  arguments <- list(epsilon = 1, x.bounds = 4, y.bound = 8)
  s1 <- dpglmnet:::checked_spec(x1, y1, arguments)
  s2 <- dpglmnet:::checked_spec(x2, y2, arguments)
  # the spec keeps the default; the plan (its schedule) sets the share
  expect_equal(s1$standardize.budget, 0.3)
  expect_equal(dpglmnet:::schedule_problem(s1)$standardize.budget, 0.6)
  expect_identical(dpglmnet:::schedule_problem(s1)$standardize.budget,
                   dpglmnet:::schedule_problem(s2)$standardize.budget)
  # planning a planned problem again gives the same share
  expect_equal(dpglmnet:::schedule_problem(dpglmnet:::schedule_problem(s1))$standardize.budget,
               0.6)
  p1 <- dpglmnet:::plan_private_path(s1)
  p2 <- dpglmnet:::plan_private_path(s2)
  expect_identical(p1$mechanisms, p2$mechanisms)
  expect_identical(p1$z, p2$z)
  # the functions take public inputs only
  expect_identical(names(formals(dpglmnet:::moderate_n_criterion)),
                   c("n", "p", "epsilon", "delta", "scale_y", "budget", "binary", "means"))
  expect_identical(names(formals(dpglmnet:::default_standardize_budget)),
                   c("n", "p", "epsilon", "delta", "scale_y", "standardize", "binary",
                     "means"))
})

test_that("the fit spends the chosen share, and a given standardize.budget is kept", {
  set.seed(3)
  n <- 1000; p <- 10
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x[, 1:3] %*% c(1, -1, 0.5)) + rnorm(n)
  set.seed(4)
  auto <- suppressWarnings(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8))
  set.seed(4)
  given <- suppressWarnings(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8,
                                     standardize.budget = 0.6))
  expect_identical(auto$privacy$mechanisms, given$privacy$mechanisms)
  expect_identical(as.matrix(coef(auto)), as.matrix(coef(given)))
  set.seed(4)
  kept <- suppressWarnings(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8,
                                    standardize.budget = 0.3))
  # at 0.3 the moments' noise is sqrt(2) times that at 0.6 (ranges off in both)
  expect_equal(second_moment_row(kept)$noise_multiplier,
               sqrt(2) * second_moment_row(auto)$noise_multiplier, tolerance = 1e-6)
  # the ledger still spends at most epsilon
  expect_lte(auto$privacy$epsilon, 1)
  # bad values are still refused, naming the argument
  expect_error(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8,
                        standardize.budget = 1.2), "standardize.budget",
               class = "dpglmnet_error")
})

test_that("the fit warns, from public quantities, where nothing can be resolved", {
  set.seed(5)
  n <- 400; p <- 10
  x <- matrix(rnorm(n * p), n, p)
  y <- x[, 1] + rnorm(n)
  warnings <- character()
  # (solver = "dpcd" given: "auto" fits the intercept alone here, and says
  # so in its own warning, tests/testthat/test-intercept.R)
  fit <- withCallingHandlers(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8,
                                      solver = "dpcd"),
                             warning = function(w) {
                               warnings <<- c(warnings, conditionMessage(w))
                               invokeRestart("muffleWarning")
                             })
  moderate <- grep("no better than predicting the mean", warnings, value = TRUE)
  expect_length(moderate, 1L)
  # the number it states is the ledger's, recomputed by hand
  by_hand <- 16 * 2 * second_moment_row(fit)$noise_multiplier / n
  expect_match(moderate, sprintf("standardization is %.2g times", by_hand), fixed = TRUE)
  expect_gte(by_hand, 1.5)
  # binomial: the majority class
  yb <- as.numeric(x[, 1] + rlogis(n) > 0)
  said <- character()
  withCallingHandlers(dpglmnet(x, yb, family = "binomial", epsilon = 1, x.bounds = 4,
                               solver = "dpcd"),
                      warning = function(w) {
                        said <<- c(said, conditionMessage(w))
                        invokeRestart("muffleWarning")
                      })
  expect_true(any(grepl("predicting the majority class", said)))
  # enough records: no such warning (other warnings may come)
  n <- 5000
  x <- matrix(rnorm(n * 3), n, 3)
  y <- x[, 1] + rnorm(n)
  messages <- character()
  withCallingHandlers(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8),
                      warning = function(w) {
                        messages <<- c(messages, conditionMessage(w))
                        invokeRestart("muffleWarning")
                      })
  expect_false(any(grepl("no better than predicting", messages)))
  # nor without privacy, nor without standardization
  expect_false(any(grepl("no better than predicting", tryCatch({
    dpglmnet(x[1:400, ], y[1:400], epsilon = Inf)
    ""
  }, warning = conditionMessage))))
})

test_that("binomial at moderate n: DP-CD on bound-scaled columns, one lambda, no scale released", {
  ns <- asNamespace("dpglmnet")
  n <- 500; p <- 10
  c_mid <- crit(n, p, 1, scale_y = FALSE)
  expect_gte(c_mid, 1.5)
  expect_lt(c_mid, ns$moderate_n_constants$bound_scaled_below)
  set.seed(1)
  x <- matrix(rnorm(n * p), n, p)
  x[, 3] <- rbinom(n, 1, 0.3)
  y <- rbinom(n, 1, plogis(2 * x[, 1] - 2 * x[, 2]))
  bounds <- c(rep(4, 2), 1, rep(4, p - 3))
  lower <- c(rep(-4, 2), 0, rep(-4, p - 3))
  warnings <- character(0)
  fit <- withCallingHandlers(
    dpglmnet(x, y, family = "binomial", epsilon = 1, x.bounds = cbind(lower, bounds)),
    warning = function(w) {
      warnings <<- c(warnings, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  expect_true(any(grepl("mapped to [-1, 1]", warnings, fixed = TRUE)))
  # and says that its probabilities are not calibrated (the clipped
  # intercept leans toward the majority class: 2026-11-27-session27.md)
  expect_true(any(grepl("probabilities lean toward the majority class", warnings,
                        fixed = TRUE)))
  expect_identical(fit$settings$solver, "dpcd")
  expect_true(fit$settings$bound_scaling)
  expect_null(fit$settings$standardization)
  expect_match(fit$settings$solver_choice, "moderate-n criterion", fixed = TRUE)
  # the clip per coordinate and the single lambda are public constants
  k <- ns$moderate_n_constants
  expect_equal(fit$settings$clip, k$bound_clip * sqrt(p + 1))
  expect_length(fit$lambda, 1L)
  # only the path's releases: the whole budget, nothing for the scales
  rows <- fit$privacy$mechanisms
  expect_identical(unique(rows$key), "path")
  expect_lte(fit$privacy$epsilon, 1)
  expect_gt(fit$privacy$epsilon, 1 - 1e-6)
  # the map back: predict() is the linear predictor of coef()
  newx <- cbind(matrix(runif(20 * 2, -4, 4), 20, 2), rbinom(20, 1, 0.5),
                matrix(runif(20 * (p - 3), -4, 4), 20, p - 3))
  link <- drop(predict(fit, newx, type = "link"))
  expect_lt(max(abs(link - drop(cbind(1, newx) %*% as.numeric(coef(fit))))), 1e-8)
  # a gaussian response at the same shape keeps the intercept alone
  yg <- x[, 1] + rnorm(n)
  gaussian <- suppressWarnings(dpglmnet(x, yg, epsilon = 1, x.bounds = 4, y.bound = 8))
  expect_identical(gaussian$settings$solver, "intercept")
  # above bound_scaled_below the binomial fit is the intercept alone too
  n_small <- 40
  expect_gte(crit(n_small, p, 1, scale_y = FALSE), k$bound_scaled_below)
  small <- suppressWarnings(dpglmnet(x[1:n_small, ], y[1:n_small], family = "binomial",
                                     epsilon = 1, x.bounds = 4))
  expect_identical(small$settings$solver, "intercept")
  # a sparse x is scaled, not centred: the same map back
  sparse <- suppressWarnings(dpglmnet(Matrix::Matrix(x, sparse = TRUE), y,
                                      family = "binomial", epsilon = 1, x.bounds = 4))
  expect_true(sparse$settings$bound_scaling)
  expect_lt(max(abs(drop(predict(sparse, newx, type = "link")) -
                      drop(cbind(1, newx) %*% as.numeric(coef(sparse))))), 1e-8)
})

test_that("bound-scaled DP-CD fits one lambda wherever the schedule would afford a path, and reports its noise on the original scale", {
  # (found by an independent review: at n = 708, p = 10, epsilon 1 the
  # schedule afforded 6 lambdas and a private lambda_max)
  set.seed(1)
  n <- 708
  p <- 10
  x <- matrix(runif(n * p, -1, 1), n, p)
  y <- rbinom(n, 1, plogis(2 * x[, 1] - 2 * x[, 2]))
  fit <- suppressWarnings(dpglmnet(x, y, family = "binomial", epsilon = 1, x.bounds = 1))
  expect_true(fit$settings$bound_scaling)
  expect_length(fit$lambda, 1L)
  expect_false(any(fit$privacy$mechanisms$key == "lambda_max"))
  expect_match(fit$settings$lambda_max_source, "bound-scaled", fixed = TRUE)
  # the noise one update adds to a coefficient, on the original scale:
  # the working scale's over the public half-width
  set.seed(1)
  x <- matrix(runif(5000, -4, 4), 500)
  y <- rbinom(500, 1, plogis(x[, 1]))
  noise <- vapply(c(4, 400), function(b) {
    f <- suppressWarnings(dpglmnet(x, y, family = "binomial", epsilon = 1, x.bounds = b))
    expect_true(f$settings$bound_scaling)
    dpglmnet:::coefficient_noise_by_column(f)[[1]]
  }, numeric(1))
  expect_equal(noise[1] / noise[2], 100, tolerance = 1e-8)
})

test_that("cv.dpglmnet(refit = TRUE) at moderate n says there is no refit", {
  set.seed(1)
  n <- 500
  p <- 10
  x <- matrix(rnorm(n * p), n, p)
  y <- rbinom(n, 1, plogis(2 * x[, 1]))
  seen <- character(0)
  set.seed(2)
  fit <- withCallingHandlers(
    cv.dpglmnet(x, y, family = "binomial", epsilon = 1, x.bounds = 4, refit = TRUE),
    warning = function(w) {
      seen <<- c(seen, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  expect_true(fit$dpglmnet.fit$settings$bound_scaling)
  expect_null(fit$refit)
  expect_true(any(grepl("refit = TRUE: the fit is made once", seen, fixed = TRUE)))
  expect_setequal(fit$privacy$mechanisms$part, 0L)
})


test_that("bound-scaled DP-CD takes more passes where its columns are spread, never beyond what the budget affords", {
  ns <- asNamespace("dpglmnet")
  k <- ns$moderate_n_constants
  # the rule: public (the columns' intervals, the schedule's affordable k)
  problem <- list(p = 4, x.lower = c(0, 0, -20, -20), x.upper = c(1, 1, 20, 20))
  cap <- round(10 * (1 + k$bound_pass_gain * 0.5))
  expect_identical(ns$bound_scaled_passes(problem, 10L, 1000), as.integer(cap))
  expect_identical(ns$bound_scaled_passes(problem, 10L, 12), 12L)
  expect_identical(ns$bound_scaled_passes(problem, 4L, 4), 4L)
  two_point <- list(p = 2, x.lower = 0, x.upper = 1)
  expect_identical(ns$bound_scaled_passes(two_point, 10L, 1000), 10L)
  # a fit: numeric scores 1-10 with a crude bound (the Wisconsin data's
  # shape) get more than the 10 passes of a design of dummies
  set.seed(2)
  n <- 500
  scores <- matrix(sample(1:10, n * 9, TRUE), n, 9)
  y <- rbinom(n, 1, plogis((rowSums(scores) - 50) / 4))
  fit <- suppressWarnings(dpglmnet(scores, y, family = "binomial", epsilon = 1, x.bounds = 20))
  expect_true(fit$settings$bound_scaling)
  expect_gt(fit$settings$passes, 10L)
  expect_lte(fit$settings$passes, round(10 * (1 + k$bound_pass_gain)))
  # the ledger counts the passes made
  rows <- fit$privacy$mechanisms
  expect_equal(rows$count[rows$key == "path"], fit$settings$passes * 10)
  expect_lte(fit$privacy$epsilon, 1)
  # a pass count you give is kept
  given <- suppressWarnings(dpglmnet(scores, y, family = "binomial", epsilon = 1,
                                     x.bounds = 20, passes = 3))
  expect_identical(given$settings$passes, 3L)
})

test_that("binomial: where the released standardization reads most columns as constant, the path runs on bound-scaled columns with the path's budget", {
  ns <- asNamespace("dpglmnet")
  set.seed(1)
  n <- 400
  p <- 8
  x <- matrix(rnorm(n * p), n, p)
  y <- rbinom(n, 1, plogis(1.5 * x[, 1] - 1.5 * x[, 2]))
  fit_with <- function(bounds, fitter = dpglmnet) {
    said <- character(0)
    set.seed(2)
    fit <- withCallingHandlers(fitter(x, y, family = "binomial", epsilon = 2, x.bounds = bounds),
                               warning = function(w) {
                                 said <<- c(said, conditionMessage(w))
                                 invokeRestart("muffleWarning")
                               })
    list(fit = fit, said = said)
  }
  # crude bounds (sd 1 against 100): every column's released spread is
  # within the noise of the standardization planned at epsilon 2
  crude <- fit_with(100)
  fit <- crude$fit
  expect_true(fit$settings$bound_scaling)
  expect_null(fit$settings$standardization)
  expect_match(fit$settings$solver_choice, "read 8 of 8 columns as constant", fixed = TRUE)
  expect_equal(fit$settings$constant_fallback, c(constant = 8, p = 8))
  # (its probabilities lean toward the majority class: the warning says so)
  expect_true(any(grepl("lean toward the majority class", crude$said, fixed = TRUE)))
  expect_true(any(grepl("read 8 of 8 columns as constant", crude$said, fixed = TRUE)))
  # (and the constant columns are not said to be held at 0)
  expect_false(any(grepl("treated as constant (coefficient 0", crude$said, fixed = TRUE)))
  # the columns are used (the standardized fit held all 8 at 0)
  expect_gt(sum(as.numeric(coef(fit))[-1] != 0), 0)
  # the ledger: the standardization's releases as planned, the path's row
  # spread over the bound-scaled passes at its planned mu, the rows not made
  # at count 0; the total recomputed by hand is within the budget
  rows <- fit$privacy$mechanisms
  path <- rows[rows$key == "path", ]
  expect_equal(path$count, fit$settings$passes * (p + 1))
  expect_match(path$mechanism, "standardization's fallback", fixed = TRUE)
  # (its words are the bound-scaled releases': no split intercept there)
  expect_false(grepl("the intercept: min(w", path$sensitivity, fixed = TRUE))
  expect_true(all(c("x_mean", "x_second_moment") %in% rows$key))
  unused <- rows[!rows$key %in% c("path", "x_mean", "x_second_moment", "x_ranges"), ]
  expect_true(all(unused$count == 0))
  expect_match(unused$mechanism, "its budget to the path", fixed = TRUE)
  mu <- sqrt(sum(rows$count / rows$noise_multiplier^2))
  expect_lte(ns$gdp_epsilon(mu, fit$privacy$delta), 2 + 1e-9)
  expect_lte(fit$privacy$epsilon, 2)
  # (the unmade rows' mu^2 went to the path: the whole budget is spent)
  expect_gt(fit$privacy$epsilon, 2 - 1e-6)
  # the map back: predict() is the linear predictor of coef()
  newx <- matrix(runif(20 * p, -3, 3), 20, p)
  expect_lt(max(abs(drop(predict(fit, newx, type = "link")) -
                      drop(cbind(1, newx) %*% as.numeric(coef(fit))))), 1e-8)
  # cv.dpglmnet() (one lambda: every record) takes the same fallback
  cv <- fit_with(100, cv.dpglmnet)
  expect_true(cv$fit$dpglmnet.fit$settings$bound_scaling)
  expect_equal(as.numeric(coef(cv$fit)), as.numeric(coef(fit)), tolerance = 1e-12)
  # tight bounds: the standardization resolves the columns, no fallback
  tight <- fit_with(4)
  expect_false(tight$fit$settings$bound_scaling)
  expect_false(any(grepl("columns as constant, so", tight$said, fixed = TRUE)))
  # nor for a gaussian response (the band's intercept alone would be no
  # better than the standardized fit's)
  set.seed(2)
  gaussian <- suppressWarnings(dpglmnet(x, x[, 1] + rnorm(n), epsilon = 2, x.bounds = 100,
                                        y.bound = 8))
  expect_false(isTRUE(gaussian$settings$bound_scaling))
})

test_that("unreleased rows absorbed into another keep the total mu, and released ones cannot be", {
  ns <- asNamespace("dpglmnet")
  rows <- ns$mechanism_table(list(
    ns$mechanism("path", "gaussian", 10, "s", calibrated = TRUE, factor = 1, key = "path"),
    ns$mechanism("check", "gaussian", 1, "s", calibrated = TRUE, factor = 0.5, key = "check"),
    ns$mechanism("mean", "gaussian", 1, "s", calibrated = TRUE, factor = 0.7, key = "mean")))
  ledger <- ns$new_privacy_ledger(rows, 20, 1, 1e-5)
  mu2 <- function(l) sum(l$mechanisms$count / l$mechanisms$noise_multiplier^2)
  absorbed <- ns$absorb_releases(ledger, "path", c("check", "mean"), " (given up)")
  expect_equal(absorbed$mechanisms$count, c(10, 0, 0))
  expect_equal(mu2(absorbed), mu2(ledger), tolerance = 1e-12)
  expect_lte(mu2(absorbed), mu2(ledger))
  expect_lte(absorbed$epsilon, ledger$epsilon)
  expect_lt(absorbed$mechanisms$noise_multiplier[1], ledger$mechanisms$noise_multiplier[1])
  expect_match(absorbed$mechanisms$mechanism[2], "given up", fixed = TRUE)
  # a row already released (its sensitivity recorded) cannot give its budget
  released <- ns$record_sensitivity(ledger, "check", 0.1)
  expect_error(ns$absorb_releases(released, "path", "check", ""), "unreleased")
  expect_error(ns$absorb_releases(ns$record_sensitivity(ledger, "path", 0.1), "path", "check",
                                  ""), "unreleased")
  # a row named twice gives its budget once
  twice <- ns$absorb_releases(ledger, "path", c("check", "check", "mean"), "")
  expect_equal(mu2(twice), mu2(ledger), tolerance = 1e-12)
  # rows of another part (parallel composition) cannot be moved
  parts <- rows
  parts$part[2] <- 1L
  expect_error(ns$absorb_releases(ns$new_privacy_ledger(parts, 20, 1, 1e-5), "path", "check",
                                  ""), "unreleased")
})

test_that("a release spread over more runs keeps its mu, and only when asked", {
  ns <- asNamespace("dpglmnet")
  rows <- ns$mechanism_table(list(
    ns$mechanism("path", "gaussian", 10, "s", calibrated = TRUE, factor = 1, key = "path"),
    ns$mechanism("other", "gaussian", 5, "s", calibrated = TRUE, factor = 2, key = "other")))
  ledger <- ns$new_privacy_ledger(rows, 20, 1, 1e-5)
  expect_error(ns$respread_release(ledger, "path", 40, ""), "fewer")
  more <- ns$respread_release(ledger, "path", 40, " (more)", more = TRUE)
  mu <- function(l, key) {
    m <- l$mechanisms[l$mechanisms$key == key, ]
    sqrt(m$count) / m$noise_multiplier
  }
  expect_equal(more$mechanisms$count[1], 40)
  expect_lte(mu(more, "path"), mu(ledger, "path"))
  expect_equal(mu(more, "path"), mu(ledger, "path"), tolerance = 1e-12)
  expect_lte(more$epsilon, ledger$epsilon)
})
