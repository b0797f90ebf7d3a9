test_that("the DP-SGD ledger is reproduced by the exported accountant", {
  d <- simulate_gaussian(n = 400, p = 4)
  fit <- dpglmnet(d$x, d$y, solver = "dpsgd", epsilon = 1, delta = 1e-5,
                  nlambda = 3, passes = 2, batch.size = 20, x.bounds = 15,
                  standardize = FALSE,
                  clip = 2)
  led <- fit$privacy
  s <- fit$settings
  z <- s$noise_multiplier
  steps <- 3 * ceiling(2 * 400 / 20)
  expect_equal(s$steps_per_lambda * 3, steps)
  sgd <- led$mechanisms[led$mechanisms$sampling == "without_replacement", ]
  expect_equal(sgd$count, steps)
  expect_equal(sgd$sampling_rate, 20 / 400)
  rdp <- rdp_subsampled_gaussian(20 / 400, z, steps, default_orders(),
                                 "without_replacement") +
    default_orders() / (2 * z^2)  # the one full-batch lambda_max release
  eps <- rdp_epsilon(default_orders(), rdp, 1e-5) + 0.1
  expect_equal(led$epsilon, as.numeric(eps), tolerance = 1e-12)
  expect_lte(led$epsilon, 1)
  expect_equal(led$epsilon, 1, tolerance = 1e-6)
  expect_equal(s$noise_sd, z * 2 * 2)
  expect_equal(s$step_size, 1 / sum(s$smoothness_values))
  expect_output(print(fit), "RDP")
})

test_that("epsilon = Inf DP-SGD reaches glmnet's optimum", {
  skip_if_not_installed("glmnet")
  d <- simulate_gaussian(n = 300, p = 5)
  ref <- glmnet::glmnet(d$x, d$y, lambda = 0.1, standardize = FALSE, thresh = 1e-16)
  # full batch: proximal gradient descent, converges exactly
  full <- dpglmnet(d$x, d$y, solver = "dpsgd", epsilon = Inf, lambda = 0.1,
                   batch.size = 300, passes = 3000, step = 1, standardize = FALSE)
  expect_equal(as.numeric(coef(full)), as.numeric(coef(ref)), tolerance = 1e-5)
  # minibatches: a neighbourhood of the optimum
  set.seed(3)
  mini <- dpglmnet(d$x, d$y, solver = "dpsgd", epsilon = Inf, lambda = 0.1,
                   batch.size = 50, passes = 300, step = 0.3, standardize = FALSE)
  expect_equal(as.numeric(coef(mini)), as.numeric(coef(ref)), tolerance = 0.05)
  b <- simulate_binomial()
  refb <- glmnet::glmnet(b$x, b$y, family = "binomial", lambda = 0.01,
                         standardize = FALSE, thresh = 1e-16)
  fullb <- dpglmnet(b$x, b$y, family = "binomial", solver = "dpsgd",
                    epsilon = Inf, lambda = 0.01, batch.size = 300, passes = 5000,
                    step = 1, standardize = FALSE)
  expect_equal(as.numeric(coef(fullb)), as.numeric(coef(refb)), tolerance = 1e-4)
})

test_that("dense and sparse x give the same fit for the same seed", {
  d <- simulate_gaussian(n = 200, p = 5)
  d$x[abs(d$x) < 0.5] <- 0
  sparse <- Matrix::Matrix(d$x, sparse = TRUE)
  for (solver in c("dpcd", "dpsgd")) {
    set.seed(9)
    a <- dpglmnet(d$x, d$y, solver = solver, epsilon = 1, x.bounds = 20,
                  standardize = FALSE,
                  passes = 3, batch.size = 10)
    set.seed(9)
    b <- dpglmnet(sparse, d$y, solver = solver, epsilon = 1, x.bounds = 20,
                  standardize = FALSE,
                  passes = 3, batch.size = 10)
    expect_equal(a$beta, b$beta, tolerance = 1e-12)
    expect_equal(a$lambda, b$lambda, tolerance = 1e-12)
  }
})

test_that("DP-SGD checks batch.size", {
  d <- simulate_gaussian(n = 50, p = 3)
  expect_dpglmnet_error(dpglmnet(d$x, d$y, solver = "dpsgd", batch.size = 0,
      standardize = FALSE), "`batch.size`")
  expect_dpglmnet_error(dpglmnet(d$x, d$y, solver = "dpsgd", batch.size = 51,
      standardize = FALSE), "`batch.size`")
  expect_dpglmnet_error(dpglmnet(d$x, d$y, solver = "dpsgd", batch.size = 2.5,
      standardize = FALSE), "`batch.size`")
})

test_that("epsilon = Inf DP-SGD reaches glmnet's optimum with elastic net and limits", {
  skip_if_not_installed("glmnet")
  d <- simulate_gaussian(n = 300, p = 5)
  # glmnet scales a gaussian y to unit (1/n) standard deviation, which
  # changes its ridge part unless y has unit scale (as in test-glmnet.R)
  d$y <- d$y / sqrt(mean((d$y - mean(d$y))^2))
  pf <- c(1, 2, 0.5, 1, 1)
  lower <- c(-Inf, 0, -0.05, -Inf, -Inf)  # the 2nd and 3rd bind
  upper <- c(Inf, Inf, Inf, 0.3, 0.2)     # the 5th binds
  ref <- glmnet::glmnet(d$x, d$y, alpha = 0.4, lambda = 0.05, penalty.factor = pf,
                        lower.limits = lower, upper.limits = upper,
                        standardize = FALSE, thresh = 1e-16)
  # full batch: proximal gradient descent, converges exactly
  full <- dpglmnet(d$x, d$y, solver = "dpsgd", epsilon = Inf, alpha = 0.4,
                   lambda = 0.05, penalty.factor = pf, lower.limits = lower,
                   upper.limits = upper, batch.size = 300, passes = 3000, step = 1,
                       standardize = FALSE)
  expect_equal(as.numeric(coef(full)), as.numeric(coef(ref)), tolerance = 1e-5)
  b <- as.numeric(coef(full))[-1]
  expect_true(all(b >= lower & b <= upper))
  expect_equal(b[c(2, 3, 5)], c(0, -0.05, 0.2))
})

test_that("set.seed reproduces a DP-SGD fit, dense and sparse, and different seeds differ", {
  d <- simulate_gaussian(n = 200, p = 6)
  d$x[abs(d$x) < 0.3] <- 0
  sparse <- Matrix::Matrix(d$x, sparse = TRUE)
  fit_once <- function(x, seed, ...) {
    set.seed(seed)
    dpglmnet(x, d$y, solver = "dpsgd", epsilon = 1, x.bounds = 10,
             y.bound = 10, passes = 2, batch.size = 7, nlambda = 4, ...)
  }
  for (x in list(d$x, sparse)) {
    a <- fit_once(x, 21)
    expect_identical(a$beta, fit_once(x, 21)$beta)
    expect_identical(a$a0, fit_once(x, 21)$a0)
    expect_identical(a$lambda, fit_once(x, 21)$lambda)
    # (at n = 200 every column may be released as constant: compare the
    # whole fit)
    b <- fit_once(x, 22)
    expect_false(identical(list(a$beta, a$a0), list(b$beta, b$a0)))
  }
  s1 <- fit_once(d$x, 1, rng = "secure")
  s2 <- fit_once(d$x, 1, rng = "secure")
  expect_false(identical(list(s1$beta, s1$a0), list(s2$beta, s2$a0)))
  expect_identical(s1$privacy$rng, "secure")
})

test_that("minibatches are uniform m-subsets, in uniform order", {
  # The without-replacement accountant (Wang, Balle & Kasiviswanathan 2019)
  # assumes every step draws m distinct records uniformly, independently of
  # the previous steps.
  draws <- 31200
  small <- dpglmnet:::.minibatches_cpp(40L, 2L, draws, c(7, 11))
  expect_equal(dim(small), c(draws, 2L))
  expect_true(all(small >= 1L & small <= 40L))
  expect_true(all(small[, 1] != small[, 2]))
  # every ordered pair (i, j), i != j, equally likely: 1560 cells of 20
  pairs <- table(factor(small[, 1], levels = 1:40), factor(small[, 2], levels = 1:40))
  cells <- pairs[row(pairs) != col(pairs)]
  expect_equal(length(cells), 1560L)
  expect_gt(stats::chisq.test(cells)$p.value, 1e-3)
  expect_gt(stats::chisq.test(tabulate(small[, 1], 40))$p.value, 1e-3)
  expect_gt(stats::chisq.test(tabulate(small[, 2], 40))$p.value, 1e-3)

  large <- dpglmnet:::.minibatches_cpp(6L, 4L, 36000L, c(3, 5))
  expect_true(all(apply(large, 1L, function(b) length(unique(b)) == 4L)))
  # each of the 6 * 5 * 4 * 3 = 360 ordered 4-tuples equally likely
  tuples <- table(apply(large, 1L, paste, collapse = ""))
  expect_equal(length(tuples), 360L)
  expect_gt(stats::chisq.test(as.vector(tuples))$p.value, 1e-3)

  # consecutive batches are independent: the first index of a batch against
  # the first of the next, an 8 x 8 table, diagonal included
  repeats <- dpglmnet:::.minibatches_cpp(8L, 2L, 6401L, c(1, 2))
  expect_true(all(repeats[, 1] != repeats[, 2]))
  lag <- table(factor(repeats[-nrow(repeats), 1], levels = 1:8),
               factor(repeats[-1, 1], levels = 1:8))
  expect_gt(stats::chisq.test(as.vector(lag))$p.value, 1e-3)
})

test_that("the sampler refuses impossible sizes instead of crashing", {
  expect_error(dpglmnet:::.minibatches_cpp(3L, 5L, 1L, c(1, 2)), "in \\[1, n\\]")
  expect_error(dpglmnet:::.minibatches_cpp(3L, 0L, 1L, c(1, 2)), "in \\[1, n\\]")
  d <- simulate_gaussian(n = 20, p = 2)
  settings <- list(
    family = "gaussian", intercept = FALSE,
    transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL), lambda = 0.1,
    alpha = 1, penalty_factor = c(1, 1), lower_limits = c(-Inf, -Inf),
    upper_limits = c(Inf, Inf), step_size = 0.1, clip = 1, noise_sd = 0.1,
    batch_size = 21L, steps = 5, seed = c(1, 2), secure = FALSE, trace = 0L)
  expect_error(dpglmnet:::.dpsgd_path_cpp(d$x, d$y, settings), "in \\[1, n\\]")
  settings$family <- "poisson"
  settings$batch_size <- 2L
  expect_error(dpglmnet:::.dpsgd_path_cpp(d$x, d$y, settings), "unknown family")
})

test_that("a subsampled path is charged what it costs in the budget split, not its step count", {
  # DP-SGD's 1,000 minibatch steps are amplified by sampling: the path alone
  # at the whole budget needs a noise multiplier z_alone. The standardization
  # takes its share of mu^2 beside it, so the fit's path multiplier is about
  # z_alone / sqrt(path share), not the one of 1,000 full-batch releases
  # (when the steps were counted as such, the standardization got a small share of
  # the path's noise and the joint calibration put the path at many z_alone).
  d <- simulate_gaussian(n = 6000, p = 5)
  set.seed(1)
  fit <- muffle_dpglmnet_warnings(dpglmnet(
    d$x, d$y, solver = "dpsgd", epsilon = 1, delta = 1e-6, x.bounds = 8, y.bound = 20,
    nlambda = 2, passes = 5, batch.size = 60))
  led <- fit$privacy$mechanisms
  path <- led[led$key == "path", ]
  steps <- 2 * ceiling(5 * 6000 / 60)
  expect_equal(path$count, steps)
  z_alone <- noise_multiplier(epsilon = 1, delta = 1e-6, steps = steps, q = 60 / 6000,
                              sampling = "without_replacement")
  # (path share 0.7 or 0.4: at most 1 / sqrt(0.4) = 1.6 z_alone)
  expect_lt(path$noise_multiplier, 1.7 * z_alone)
  expect_gt(path$noise_multiplier, z_alone)
  # the split is a plan rule: the whole fit still spends exactly its budget
  expect_lte(fit$privacy$epsilon, 1)
  expect_equal(fit$privacy$epsilon, 1, tolerance = 1e-6)
  # and the fit is a model, not noise: near glmnet's at its lambda
  skip_if_not_installed("glmnet")
  ref <- glmnet::glmnet(d$x, d$y, lambda = min(fit$lambda))
  expect_lt(max(abs(as.numeric(coef(fit, s = min(fit$lambda))) - as.numeric(coef(ref)))), 0.5)
})

test_that("path_cost(): full-batch rows cost their count, subsampled ones (mu z_alone)^2", {
  path_cost <- getFromNamespace("path_cost", "dpglmnet")
  mechanism <- getFromNamespace("mechanism", "dpglmnet")
  full <- list(mechanism("full", "gaussian", 40, "2 C", calibrated = TRUE))
  expect_identical(path_cost(full, 1, 1e-5), 40)
  sub <- list(mechanism("lambda_max", "gaussian", 1, "2 C", calibrated = TRUE),
              mechanism("steps", "gaussian", 5000, "2 C", calibrated = TRUE,
                        sampling = "without_replacement", sampling_rate = 0.01))
  z <- getFromNamespace("calibration", "dpglmnet")(
    getFromNamespace("mechanism_table", "dpglmnet")(sub), 1, 1e-5)$z
  cost <- path_cost(sub, 1, 1e-5)
  expect_equal(cost, (gdp_mu(1, 1e-5) * z)^2)
  expect_lt(cost, 100)
  expect_identical(path_cost(sub, Inf, 1e-5), 5001)
})

test_that("DP-SGD's default batch is all n records (full-batch DP gradient descent, exact GDP)", {
  d <- simulate_gaussian(n = 2000, p = 4)
  set.seed(1)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, solver = "dpsgd", epsilon = 1,
                                           x.bounds = 8, y.bound = 20, nlambda = 3,
                                           passes = 4))
  expect_equal(fit$settings$batch.size, 2000L)
  expect_equal(fit$settings$steps_per_lambda, 4)
  path <- fit$privacy$mechanisms[fit$privacy$mechanisms$key == "path", ]
  expect_equal(path$sampling, "none")
  expect_equal(path$count, 3 * 4)
  expect_equal(fit$privacy$method, "gdp")
  expect_equal(fit$privacy$epsilon, 1, tolerance = 1e-6)
  # the minibatch solvers that keep sqrt(n)
  expect_equal(getFromNamespace("solver_object", "dpglmnet")("nmd")$default_batch_size(2000),
               45)
  expect_equal(getFromNamespace("solver_object", "dpglmnet")("dpscd")$default_batch_size(50),
               10)
  # a given batch.size is kept and sampled
  small <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, solver = "dpsgd", epsilon = 1,
                                             x.bounds = 8, y.bound = 20, nlambda = 3,
                                             passes = 4, batch.size = 100))
  expect_equal(small$settings$batch.size, 100L)
  expect_equal(small$privacy$mechanisms$sampling[small$privacy$mechanisms$key == "path"],
               "without_replacement")
})
