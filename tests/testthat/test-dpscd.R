# DP-SCD (src/dpglmnet/dpscd.h, R/dpscd.R).

# One step of DP-SCD through the test hook: the state (dual, shared) after
# the step on `batch` (1-based) at `lambda`.
dpscd_step <- function(x, y, family, dual, shared, batch, lambda, clip, row_bound,
                       noise_sd = 0, seed = c(1, 2)) {
  dpglmnet:::.dpscd_step_cpp(x, y, list(
    family = family, transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
    seed = seed, secure = FALSE, clip = clip, noise_sd = noise_sd,
    row_bound = row_bound, batch_size = length(batch), steps = 1,
    dual = dual, shared = shared, batch = as.integer(batch), lambda = lambda))
}

# The released vector of a step before noise: the batch's dual coordinates
# and v.
released <- function(state, batch) c(state$dual[batch], state$shared)

test_that("one step changes by at most 2 C sqrt(1 + R^2) when one record is replaced", {
  set.seed(11)
  n <- 30
  p <- 4
  clip <- 0.7
  R <- 2
  bound <- 2 * clip * sqrt(1 + R^2)
  worst <- 0
  for (family in c("gaussian", "binomial")) {
    for (trial in 1:300) {
      # Records of any norm: the core scales them to R (the guard is tested
      # too); labels anywhere; a noisy state, as after earlier releases.
      x <- matrix(rnorm(n * p, sd = sample(c(0.3, 1, 3), 1)), n, p)
      y <- if (family == "gaussian") rnorm(n, sd = 5) else rbinom(n, 1, 0.5)
      dual <- rnorm(n, sd = 2)
      shared <- rnorm(p, sd = 3)
      lambda <- exp(runif(1, log(1e-3), log(1)))
      m <- sample(1:n, 1)
      batch <- sample(n, m)
      k <- batch[sample.int(m, 1)]
      x2 <- x
      y2 <- y
      if (trial %% 3 == 0) {
        # the extreme pair: same features at norm R, labels pushing the update
        # to +C and -C
        x[k, ] <- x2[k, ] <- R * x[k, ] / sqrt(sum(x[k, ]^2))
        y[k] <- if (family == "gaussian") 1e6 else 1
        y2[k] <- if (family == "gaussian") -1e6 else 0
        dual[k] <- 0
        shared <- shared / 1e3
      } else {
        x2[k, ] <- rnorm(p, sd = 3)
        y2[k] <- if (family == "gaussian") rnorm(1, sd = 5) else 1 - y[k]
      }
      a <- released(dpscd_step(x, y, family, dual, shared, batch, lambda, clip, R), batch)
      b <- released(dpscd_step(x2, y2, family, dual, shared, batch, lambda, clip, R), batch)
      change <- sqrt(sum((a - b)^2))
      expect_lte(change, bound * (1 + 1e-12))
      worst <- max(worst, change)
      # a record outside the batch changes nothing
      out <- setdiff(seq_len(n), batch)
      if (length(out)) {
        j <- out[1]
        x3 <- x
        x3[j, ] <- rnorm(p, sd = 3)
        c3 <- released(dpscd_step(x3, y, family, dual, shared, batch, lambda, clip, R), batch)
        expect_equal(c3, a)
      }
    }
  }
  # the bound is attained (not loose)
  expect_gt(worst, 0.99 * bound)
})

test_that("the noise added has the calibrated variance", {
  set.seed(5)
  n <- 50
  p <- 6
  x <- matrix(rnorm(n * p), n, p)
  y <- rnorm(n)
  batch <- sample(n, 8)
  dual <- rnorm(n)
  shared <- rnorm(p)
  clean <- released(dpscd_step(x, y, "gaussian", dual, shared, batch, 0.1, 0.5, 3), batch)
  sd <- 0.37
  draws <- vapply(1:2000, function(r) {
    released(dpscd_step(x, y, "gaussian", dual, shared, batch, 0.1, 0.5, 3,
                        noise_sd = sd, seed = c(r, 7)), batch) - clean
  }, numeric(8 + p))
  # every released coordinate: mean 0, sd = noise_sd (4000 draws: se of the
  # sd estimate about 1.1%)
  expect_lt(max(abs(rowMeans(draws))), 4 * sd / sqrt(2000))
  expect_equal(apply(draws, 1, stats::sd), rep(sd, 8 + p), tolerance = 0.06)
  expect_equal(stats::sd(as.numeric(draws)), sd, tolerance = 0.01)
  # the fit uses noise sd = z * 2 C sqrt(1 + R^2), R = sqrt(sum(x.bounds^2))
  d <- simulate_gaussian(n = 200, p = 4)
  fit <- dpglmnet(d$x, d$y, alpha = 0, intercept = FALSE, standardize = FALSE,
                  solver = "dpscd", epsilon = 1, x.bounds = c(1, 2, 2, 4),
                  clip = 0.5, batch.size = 20, passes = 2, nlambda = 3)
  s <- fit$settings
  expect_equal(s$row_bound, 5)
  expect_equal(s$noise_sd, s$noise_multiplier * 2 * 0.5 * sqrt(26))
})

test_that("the DP-SCD ledger is reproduced by hand", {
  d <- simulate_gaussian(n = 400, p = 4)
  fit <- dpglmnet(d$x, d$y, alpha = 0, intercept = FALSE, standardize = FALSE,
                  solver = "dpscd", epsilon = 1, delta = 1e-5, nlambda = 3,
                  passes = 2, batch.size = 20, x.bounds = 15, clip = 2)
  led <- fit$privacy
  z <- fit$settings$noise_multiplier
  steps <- 3 * ceiling(2 * 400 / 20)
  expect_equal(fit$settings$steps_per_lambda * 3, steps)
  # no smoothness constants are released
  expect_false(any(led$mechanisms$type == "laplace"))
  scd <- led$mechanisms[led$mechanisms$sampling == "revealed", ]
  expect_equal(scd$count, steps)
  expect_equal(scd$sampling_rate, 20 / 400)
  o <- default_orders()
  q <- 20 / 400
  # log(1 - q + q e^x) = x + log(q + (1 - q) e^-x), x = (a - 1) a / (2 z^2)
  x <- (o - 1) * o / (2 * z^2)
  by_hand <- steps * (x + log(q + (1 - q) * exp(-x))) / (o - 1)
  expect_equal(rdp_subsampled_gaussian(q, z, steps, o, "revealed"), by_hand)
  rdp <- by_hand + o / (2 * z^2)  # the one full-batch lambda_max release
  eps <- rdp_epsilon(o, rdp, 1e-5)
  expect_equal(led$epsilon, as.numeric(eps), tolerance = 1e-12)
  expect_lte(led$epsilon, 1)
  expect_equal(led$epsilon, 1, tolerance = 1e-6)
  # the revealed batch costs more than a hidden one would
  expect_gt(sum(rdp_subsampled_gaussian(q, z, 1, 2, "revealed")),
            sum(rdp_subsampled_gaussian(q, z, 1, 2, "without_replacement")))
  # full batch: the plain Gaussian
  expect_equal(rdp_subsampled_gaussian(1, 3, 5, o, "revealed"), 5 * o / 18)
  expect_output(print(fit), "RDP")
  # (print() wraps its lines to the console width)
  expect_output(print(led), "reveals its\\s+batch")
})

test_that("epsilon = Inf DP-SCD reaches the ridge and L2-logistic optima", {
  d <- simulate_gaussian(n = 300, p = 5)
  n <- 300
  # glmnet rescales a gaussian y to unit variance before applying a ridge
  # penalty, so the reference is the exact ridge solution of
  # (1/2n)||y - Xb||^2 + (lambda/2)||b||^2.
  lambdas <- c(1, 0.3, 0.1)
  exact <- sapply(lambdas, function(l) {
    solve(crossprod(d$x) / n + l * diag(5), crossprod(d$x, d$y) / n)
  })
  for (batch in c(1, 10)) {
    set.seed(1)
    fit <- dpglmnet(d$x, d$y, alpha = 0, intercept = FALSE, standardize = FALSE,
                    solver = "dpscd", epsilon = Inf, lambda = lambdas,
                    batch.size = batch, passes = 2000)
    expect_equal(as.matrix(fit$beta), exact, tolerance = 1e-6, ignore_attr = TRUE)
  }
  sparse <- d$x
  sparse[abs(sparse) < 0.5] <- 0
  exact_sparse <- solve(crossprod(sparse) / n + 0.1 * diag(5), crossprod(sparse, d$y) / n)
  fit <- dpglmnet(Matrix::Matrix(sparse, sparse = TRUE), d$y, alpha = 0,
                  intercept = FALSE, standardize = FALSE, solver = "dpscd",
                  epsilon = Inf, lambda = 0.1, batch.size = 5, passes = 2000)
  expect_equal(as.numeric(fit$beta), as.numeric(exact_sparse), tolerance = 1e-6)
  skip_if_not_installed("glmnet")
  b <- simulate_binomial()
  for (lambda in c(0.1, 0.01)) {
    ref <- glmnet::glmnet(b$x, b$y, family = "binomial", alpha = 0, lambda = lambda,
                          intercept = FALSE, standardize = FALSE, thresh = 1e-16)
    fit <- dpglmnet(b$x, b$y, family = "binomial", alpha = 0, intercept = FALSE,
                    standardize = FALSE, solver = "dpscd", epsilon = Inf,
                    lambda = lambda, batch.size = 10, passes = 400)
    expect_equal(as.numeric(fit$beta), as.numeric(ref$beta), tolerance = 1e-4)
  }
})

test_that("a private DP-SCD path runs, dense and sparse agree, lambda_max is the unfloored one", {
  d <- simulate_gaussian(n = 200, p = 5)
  d$x[abs(d$x) < 0.5] <- 0
  args <- list(alpha = 0, intercept = FALSE, standardize = FALSE, solver = "dpscd",
               epsilon = 1, x.bounds = 20, passes = 2, batch.size = 10, nlambda = 4)
  set.seed(9)
  a <- do.call(dpglmnet, c(list(d$x, d$y), args))
  set.seed(9)
  b <- do.call(dpglmnet, c(list(Matrix::Matrix(d$x, sparse = TRUE), d$y), args))
  expect_equal(as.matrix(a$beta), as.matrix(b$beta), tolerance = 1e-10)
  expect_true(all(is.finite(as.matrix(a$beta))))
  expect_equal(length(a$lambda), 4)
  expect_identical(a$settings$solver, "dpscd")
  # epsilon = Inf, no lambda: lambda_max = max_j |x_j'y| / n (alpha floored at 1)
  fit <- dpglmnet(d$x, d$y, alpha = 0, intercept = FALSE, standardize = FALSE,
                  solver = "dpscd", epsilon = Inf, nlambda = 3, passes = 1000)
  expect_equal(fit$lambda[1], max(abs(crossprod(d$x, d$y))) / 200)
})

test_that("DP-SCD refuses what it cannot fit, naming the argument", {
  d <- simulate_gaussian(n = 50, p = 3)
  fit_scd <- function(...) {
    args <- modifyList(list(x = d$x, y = d$y, alpha = 0, intercept = FALSE,
                            standardize = FALSE, solver = "dpscd", epsilon = 1,
                            x.bounds = 10, batch.size = 5), list(...))
    do.call(dpglmnet, args)
  }
  expect_dpglmnet_error(fit_scd(alpha = 0.5), "alpha")
  err <- expect_dpglmnet_error(fit_scd(alpha = 1), "alpha")
  expect_match(conditionMessage(err), "strongly")
  expect_dpglmnet_error(fit_scd(x.bounds = NULL), "x.bounds")
  expect_dpglmnet_error(fit_scd(batch.size = 0), "batch.size")
  expect_dpglmnet_error(fit_scd(batch.size = 51), "batch.size")
  expect_dpglmnet_error(fit_scd(intercept = TRUE), "intercept")
  expect_dpglmnet_error(fit_scd(lambda = c(1, 0)), "lambda")
  expect_dpglmnet_error(fit_scd(penalty.factor = c(1, 2, 1)), "penalty.factor")
  expect_dpglmnet_error(fit_scd(lower.limits = -1), "lower.limits")
  # batch.size = n is full batch: plain Gaussian, accounted in GDP
  full <- fit_scd(batch.size = 50, nlambda = 2, passes = 1)
  expect_equal(full$privacy$method, "gdp")
})

test_that("DP-SCD reports the noise its steps leave in a coefficient, and warns when it swamps", {
  # the noise on v accumulates over the T steps of a lambda and reaches the
  # model b = v / (lambda n): sd sqrt(T) noise_sd / (lambda n)
  d <- simulate_gaussian(n = 200, p = 5)
  fit <- suppressWarnings(dpglmnet(d$x, d$y, alpha = 0, intercept = FALSE,
                                   standardize = FALSE, solver = "dpscd", epsilon = 1,
                                   x.bounds = 20, passes = 2, batch.size = 10,
                                   lambda = c(1, 0.1)))
  expect_equal(fit$settings$coefficient_noise,
               sqrt(fit$settings$steps_per_lambda) * fit$settings$noise_sd /
                 (c(1, 0.1) * 200))
  # 30 records at epsilon 1 (standardized scale): the noise swamps the signal
  set.seed(3)
  x <- matrix(rnorm(90), 30, 3)
  y <- drop(x %*% c(1, -1, 0.5)) + rnorm(30)
  caught <- list()
  withCallingHandlers(
    dpglmnet(x, y, alpha = 0, intercept = FALSE, standardize = TRUE, solver = "dpscd",
             epsilon = 1, x.bounds = 3, y.bound = 5, lambda = 0.1, batch.size = 10),
    warning = function(w) {
      caught[[length(caught) + 1L]] <<- w
      invokeRestart("muffleWarning")
    })
  swamp <- Filter(function(w) grepl("noise may swamp", conditionMessage(w)), caught)
  expect_length(swamp, 1L)
  expect_s3_class(swamp[[1]], "dpglmnet_warning")
  # many records, a large budget and a lambda whose 1 / (lambda n) keeps the
  # accumulated noise small: no such warning (at lambda = 0.1 the sd is 0.3,
  # and the coefficients do come out 0.3-0.4 from the optimum: it warns)
  set.seed(4)
  x <- matrix(rnorm(60000), 20000, 3)
  y <- drop(x %*% c(1, -1, 0.5)) + rnorm(20000)
  messages <- character()
  withCallingHandlers(
    dpglmnet(x, y, alpha = 0, intercept = FALSE, standardize = TRUE, solver = "dpscd",
             epsilon = 10, x.bounds = 3, y.bound = 5, lambda = 1, batch.size = 1000),
    warning = function(w) {
      messages <<- c(messages, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  expect_false(any(grepl("noise may swamp", messages)))
})
