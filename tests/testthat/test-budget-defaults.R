# Defaults that follow the budget (issue 16): DP-CD's default clip on the
# standardized gaussian scale, and the smallest path worth a lambda choice.

test_that("a gaussian DP-CD fit raises its default clip where the noise is below 0.02", {
  set.seed(1)
  n <- 20000
  x <- matrix(rnorm(n * 3), n)
  y <- drop(x %*% c(1, -1, 0.5)) + rexp(n) - 1   # skewed noise: clipping biases
  fit <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 50, x.bounds = 8, y.bound = 40))
  s <- fit$settings
  rows <- fit$privacy$mechanisms
  z <- rows$noise_multiplier[rows$key == "path"]
  coordinates <- 3 + 1
  expected <- 0.02 * n / (2 * z * (sqrt(coordinates) / sqrt(coordinates)))
  expect_gt(expected, 1)
  expect_equal(s$clip_factor, expected)
  # the raised clip is the one clipped, noised and recorded on the ledger
  m <- s$smoothness_values
  # ... up to the largest term each coordinate can hold (released clamps):
  # |x~_ij| times twice the largest |y~_i|, the intercept's x~ 1
  r <- s$standardization
  reach <- 2 * max(abs(c(r$y_lower, r$y_upper) - r$y_mean)) / r$y_sd
  values <- pmax(abs(r$x_lower - r$x_center), abs(r$x_upper - r$x_center)) * r$x_scale
  expect_equal(s$coordinate_clip, pmin(sqrt(m / sum(m)) * s$clip * expected,
                                       c(values, 1) * reach))
  expect_equal(fit$privacy$sensitivities$path, 2 * s$coordinate_clip / n)
  expect_equal(s$noise_sd, z * 2 * s$coordinate_clip / n)
  # the noise of a coordinate gradient is then 0.02 on the standardized scale
  expect_equal(max(s$noise_sd[1:3]) , 0.02, tolerance = 0.2)
  expect_lte(fit$privacy$epsilon, 50)
  expect_output(print(summary(fit)), "raised with the budget")
  # nearer least squares than the clip of 1 per coordinate
  ref <- stats::coef(stats::lm(y ~ x))
  unit <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 50, x.bounds = 8, y.bound = 40,
                                            clip = sqrt(coordinates)))
  expect_equal(unit$settings$clip_factor, 1)
  at <- min(fit$lambda)
  err <- function(f) max(abs(as.numeric(coef(f, s = at)) - ref))
  expect_lt(err(fit), err(unit))
})

test_that("the default clip is not raised at a small budget, for bounded losses, or when given", {
  set.seed(2)
  n <- 3000
  x <- matrix(rnorm(n * 4), n)
  y <- drop(x %*% c(1, -1, 0, 0)) + rnorm(n)
  small <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, x.bounds = 6, y.bound = 20,
                                             solver = "dpcd"))
  expect_equal(small$settings$clip_factor, 1)
  big <- 50
  binomial <- muffle_dpglmnet_warnings(dpglmnet(x, y > 0, family = "binomial",
                                                epsilon = big, x.bounds = 6))
  expect_equal(binomial$settings$clip_factor, 1)
  # Huber: its derivative is bounded by its delta (the family's parameter)
  huber <- muffle_dpglmnet_warnings(dpglmnet(x, y, family = huber_family(1), solver = "dpcd",
                                             epsilon = big, x.bounds = 6, y.bound = 20,
                                             nlambda = 3, passes = 2))
  expect_equal(huber$settings$clip_factor, 1)
  squared <- muffle_dpglmnet_warnings(dpglmnet(x, y, solver = "dpcd", epsilon = big,
                                               x.bounds = 6, y.bound = 20, nlambda = 3,
                                               passes = 2))
  expect_gt(squared$settings$clip_factor, 1)
  given <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = big, x.bounds = 6, y.bound = 20,
                                             clip = 3))
  expect_equal(given$settings$clip_factor, 1)
  unstandardized <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = big, x.bounds = 6,
                                                      y.bound = 20, standardize = FALSE))
  expect_null(unstandardized$settings$clip_factor)
  exact <- dpglmnet(x, y, epsilon = Inf, x.bounds = 6, y.bound = 20)
  expect_true(all(is.infinite(exact$settings$coordinate_clip)))
})

test_that("a binomial fit raises its default clip for a rare class only, from its released proportion", {
  set.seed(31)
  n <- 20000
  x <- matrix(rnorm(n * 4), n)
  eta <- -5.5 + drop(x %*% c(1.5, 1, 0, 0))
  y <- as.numeric(runif(n) < plogis(eta))   # about 1.5% ones
  fit_of <- function(y, ...) {
    set.seed(32)
    muffle_dpglmnet_warnings(dpglmnet(x, y, family = "binomial", epsilon = 50,
                                      x.bounds = 6, ...))
  }
  rare <- fit_of(y)
  s <- rare$settings
  # the split intercept's proportion is released first (its ledger row), and
  # the rarer class's released share decides
  expect_true(s$split_intercept)
  expect_lt(min(s$intercept_response_mean, 1 - s$intercept_response_mean), 0.05)
  rows <- rare$privacy$mechanisms
  expect_equal(rare$privacy$sensitivities$intercept_mean, 1 / n)
  z <- rows$noise_multiplier[rows$key == "path"]
  expected <- 0.02 * n / (2 * z)
  expect_gt(expected, 1)
  expect_equal(s$clip_factor, expected)
  # capped at the largest term a coordinate holds: |x~_ij| times |l'| <= 1
  r <- s$standardization
  values <- pmax(abs(r$x_lower - r$x_center), abs(r$x_upper - r$x_center)) * r$x_scale
  m <- s$smoothness_values
  expect_equal(s$coordinate_clip, pmin(sqrt(m / sum(m)) * s$clip * expected, c(values, 1)))
  expect_gt(min(s$coordinate_clip[1:2]), 1)
  expect_equal(rare$privacy$sensitivities$path, 2 * s$coordinate_clip / n)
  expect_equal(s$noise_sd, z * 2 * s$coordinate_clip / n)
  expect_lte(rare$privacy$epsilon, 50)
  # nearer the likelihood's slopes than the clip of 1 per coordinate, which
  # cuts the rare class's terms
  unit <- fit_of(y, clip = sqrt(5))
  expect_equal(unit$settings$clip_factor, 1)
  ref <- stats::coef(stats::glm(y ~ x, family = stats::binomial()))[2:3]
  at <- min(rare$lambda)
  err <- function(f) max(abs(as.numeric(coef(f, s = at))[2:3] - ref))
  expect_lt(err(rare), 0.6 * err(unit))
  # classes of similar size: not raised (the clip then acts as a robust loss)
  common <- fit_of(as.numeric(eta > -5.5))
  expect_equal(common$settings$clip_factor, 1)
  # the rule reads the released proportion, not the data's: with the
  # release traced to read a third of ones in place of the rare class (the
  # fit's own y unchanged), no raise
  trace(".private_mean_cpp", where = asNamespace("dpglmnet"), print = FALSE,
        tracer = quote(y <- as.numeric(seq_along(y) %% 3 == 0)))
  on.exit(untrace(".private_mean_cpp", where = asNamespace("dpglmnet")), add = TRUE)
  common_released <- fit_of(y)
  expect_equal(common_released$settings$intercept_response_mean, 1 / 3, tolerance = 0.05)
  expect_equal(common_released$settings$clip_factor, 1)
  # the rule reads the family's declaration, with the released mean
  family <- getFromNamespace("dpglmnet_families", "dpglmnet")$binomial
  expect_true(family$raised_clip(0.01))
  expect_true(family$raised_clip(0.99))
  expect_false(family$raised_clip(0.2))
  expect_false(family$raised_clip(NULL))
})

test_that("a budget that affords fewer than 6 lambdas fits a single lambda", {
  choose_schedule <- getFromNamespace("choose_schedule", "dpglmnet")
  p <- 10
  mu <- function(n) gdp_mu(1, 1 / n^2) * sqrt(1 - 0.3)
  # the lambdas the rule affords: k = (0.05 mu n / 2)^2 / (p + 1) releases
  # per coordinate, floor(sqrt(k / 2)) lambdas (at most 10)
  affordable <- function(n) floor(sqrt((0.05 * mu(n) * n / 2)^2 / (p + 1) / 2))
  seen <- integer()
  for (n in seq(2000, 30000, by = 250)) {
    s <- choose_schedule(NULL, NULL, NULL, "dpcd", 1, 1 / n^2, n, p, TRUE, sqrt(p + 1),
                         TRUE, 0.3)
    lambdas <- min(10, affordable(n))
    seen <- c(seen, lambdas)
    if (lambdas < 6) {
      expect_true(s$single_lambda)
      expect_equal(s$nlambda, 1L)
    } else {
      expect_false(s$single_lambda)
      expect_equal(s$nlambda, as.integer(lambdas))
    }
  }
  # the grid crosses the threshold: 3 to 5 affordable lambdas are fitted as one
  expect_true(all(3:6 %in% seen))
})

test_that("a path whose budget affords many more releases makes more passes, at half the noise target", {
  choose_schedule <- getFromNamespace("choose_schedule", "dpglmnet")
  p <- 9
  mu <- function(n) gdp_mu(1, 1 / n^2) * sqrt(1 - 0.3)
  for (n in c(20000, 50000, 200000)) {
    s <- choose_schedule(NULL, NULL, NULL, "dpcd", 1, 1 / n^2, n, p, TRUE, sqrt(p + 1),
                         TRUE, 0.3)
    # k releases per coordinate at the target sd 0.05 (per-coordinate clip 1)
    k <- floor((0.05 * mu(n) * n / 2)^2 / (p + 1))
    expect_equal(s$nlambda, 10L)
    expect_equal(s$passes, as.integer(max(10, min(30, floor(k / 4 / 10)))))
    # the sd of a release, 0.05 sqrt(releases / k), at most half the
    # target wherever passes go beyond 10
    if (s$passes > 10) expect_lte(0.05 * sqrt(s$nlambda * s$passes / k), 0.05 / 2)
  }
  # the largest n: 30 passes; 20000: between; 10000: 10 as before
  passes_at <- function(n) choose_schedule(NULL, NULL, NULL, "dpcd", 1, 1 / n^2, n, p, TRUE,
                                           sqrt(p + 1), TRUE, 0.3)$passes
  expect_equal(passes_at(200000), 30L)
  expect_gt(passes_at(20000), 10L)
  expect_lt(passes_at(20000), 30L)
  expect_equal(passes_at(10000), 10L)
  # nlambda given: the same rule for its passes
  given <- choose_schedule(3L, NULL, NULL, "dpcd", 1, 1 / 200000^2, 200000, p, TRUE,
                           sqrt(p + 1), TRUE, 0.3)
  expect_equal(given$passes, 30L)
  # on a database table, at most 10 (a pass costs a query per coordinate)
  expect_equal(choose_schedule(NULL, NULL, NULL, "dpcd", 1, 1 / 200000^2, 200000, p, TRUE,
                               sqrt(p + 1), TRUE, 0.3, extra_passes = FALSE)$passes, 10L)
})

test_that("the raised clip is the one the core applies: the same fit as that clip given", {
  set.seed(4)
  n <- 4000
  x <- matrix(rnorm(n * 4), n)
  y <- drop(x %*% c(1, -1, 0.5, 0)) + rnorm(n)
  fit_with <- function(...) {
    set.seed(9)
    # (one pass per lambda: no adaptive clip, R/dpcd.R, which a clip given
    # turns off; epsilon 5: the raised clip is below every coordinate's
    # largest term, where it would stop, dpcd_term_bound())
    muffle_dpglmnet_warnings(dpglmnet(x, y, solver = "dpcd", epsilon = 5, x.bounds = 4,
                                      y.bound = 8, nlambda = 3, passes = 1, ...))
  }
  raised <- fit_with()
  factor <- raised$settings$clip_factor
  expect_gt(factor, 1)
  expect_equal(min(raised$settings$coordinate_clip), max(raised$settings$coordinate_clip))
  given <- fit_with(clip = sqrt(5) * factor)
  expect_equal(given$settings$clip_factor, 1)
  expect_equal(given$settings$coordinate_clip, raised$settings$coordinate_clip)
  expect_equal(given$settings$noise_sd, raised$settings$noise_sd)
  expect_equal(as.matrix(given$beta), as.matrix(raised$beta))
  expect_equal(given$a0, raised$a0)
})

test_that("a binomial fit at the schedule's single lambda makes at most 3 passes", {
  set.seed(21)
  n <- 5000
  x <- matrix(rnorm(n * 10), n, 10)
  eta <- drop(x[, 1:3] %*% c(1, -1, 0.5))
  fit_of <- function(y, ...) {
    set.seed(22)
    muffle_dpglmnet_warnings(dpglmnet(x, y, x.bounds = 4, epsilon = 0.7, ...))
  }
  binomial <- fit_of(rbinom(n, 1, plogis(eta)), family = "binomial")
  gaussian <- fit_of(eta + rnorm(n), y.bound = 10)
  expect_length(binomial$lambda, 1)
  expect_length(gaussian$lambda, 1)
  expect_identical(binomial$settings$passes, 3L)
  # the gaussian family keeps the schedule's (more passes there)
  expect_gt(gaussian$settings$passes, 3L)
  expect_identical(dpglmnet:::dpglmnet_family("gaussian")$single_lambda_passes, Inf)
  # passes given are kept
  given <- fit_of(rbinom(n, 1, plogis(eta)), family = "binomial", passes = 7)
  expect_identical(given$settings$passes, 7L)
})

test_that("a binomial path makes at most 3 passes per lambda within the noise target, the schedule's beyond it", {
  set.seed(21)
  n <- 6000
  x <- matrix(rnorm(n * 20), n, 20)
  eta <- drop(x[, 1:3] %*% c(1, -1, 0.5))
  fit_of <- function(y, epsilon, ...) {
    set.seed(22)
    muffle_dpglmnet_warnings(dpglmnet(x, y, x.bounds = 4, epsilon = epsilon, ...))
  }
  y <- rbinom(n, 1, plogis(eta))
  binomial <- fit_of(y, 2, family = "binomial")
  gaussian <- fit_of(eta + rnorm(n), 2, y.bound = 10)
  # a path of 7 lambdas whose schedule is 10 passes each: binomial makes 3
  expect_length(binomial$lambda, 7)
  expect_identical(binomial$settings$passes, 3L)
  expect_length(gaussian$lambda, 7)
  expect_identical(gaussian$settings$passes, 10L)
  expect_identical(dpglmnet:::dpglmnet_family("gaussian")$path_passes, Inf)
  # the ledger plans the passes the fit makes: one release per coordinate
  # (the 20 features and the intercept) per pass and lambda
  rows <- as.data.frame(binomial$privacy)
  expect_equal(rows$count[rows$key == "path"], 7 * 3 * 21)
  # where the budget affords extra passes (30 here), they stay
  expect_identical(fit_of(y, 20, family = "binomial")$settings$passes, 30L)
  # passes given are kept
  expect_identical(fit_of(y, 2, family = "binomial", passes = 7)$settings$passes, 7L)
  # solvers whose 10 passes are a fixed default keep them
  expect_identical(fit_of(y, 2, family = "binomial", solver = "dpsgd")$settings$passes, 10L)
  # a database table (no extra passes: at most 10) is capped where the fit
  # in memory would be, not where memory makes its extra passes
  skip_if_not_installed("DBI")
  skip_if_not_installed("RSQLite")
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con), add = TRUE)
  colnames(x) <- paste0("v", 1:20)
  DBI::dbWriteTable(con, "records", data.frame(x, y = y))
  table_fit <- function(epsilon) {
    set.seed(22)
    muffle_dpglmnet_warnings(dpglmnet(db_table(con, "records", x = colnames(x), y = "y"),
                                      family = "binomial", x.bounds = 4, epsilon = epsilon))
  }
  expect_identical(table_fit(2)$settings$passes, 3L)
  expect_identical(table_fit(20)$settings$passes, 10L)
})

test_that("columns taken at unit scale without x.bounds get the budget's schedule", {
  # 10 x 10 at n = 600, epsilon 1 was 1,100 updates of noise sd 2.2 each:
  # the intercept of a 40% response reached -5 to -12 with every
  # coefficient 0
  set.seed(31)
  n <- 600
  x <- matrix(runif(n * 8), n)
  y <- as.numeric(-1 + 2 * x[, 1] - 2 * x[, 2] + rlogis(n) > 0)
  set.seed(9)
  fit <- muffle_dpglmnet_warnings(dpglmnet(x, y, family = "binomial", epsilon = 1,
      standardize = FALSE))
  expect_identical(fit$settings$smoothness, "uniform")
  # the budget affords one lambda (0.25 / sqrt(n)) and few passes here
  expect_equal(fit$lambda, 0.25 / sqrt(n))
  expect_lte(fit$settings$passes, 3L)
  expect_lt(abs(fit$a0 - qlogis(mean(y))), 1)
  # a given schedule is kept
  set.seed(9)
  given <- muffle_dpglmnet_warnings(dpglmnet(x, y, family = "binomial", epsilon = 1,
                                             nlambda = 10, passes = 10, standardize = FALSE))
  expect_equal(length(given$lambda), 10L)
  expect_equal(given$settings$passes, 10L)
})
