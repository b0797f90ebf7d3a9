# The C++ half of the Huber loss (src/dpglmnet/losses/huber.h) and the loss
# and penalty protocols around it (losses/registry.h, penalties/registry.h,
# capabilities.h), through the solver entries directly: the R family object
# comes separately, so the settings lists are built here as R/dpcd.R builds
# them.

huber_value <- function(r, delta) ifelse(abs(r) <= delta, r^2 / 2, delta * (abs(r) - delta / 2))
huber_derivative <- function(r, delta) pmin(pmax(r, -delta), delta)

dpcd_settings <- function(p, family, lambda, alpha, step, ..., clip = rep(Inf, p + 1),
                          noise_sd = rep(0, p + 1), passes = 2000L) {
  s <- list(family = family, intercept = TRUE,
            transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
            lambda = lambda, alpha = alpha, penalty_factor = rep(1, p),
            lower_limits = rep(-Inf, p), upper_limits = rep(Inf, p),
            seed = c(5, 9), secure = FALSE, trace = 0L,
            coordinate_step = step, coordinate_clip = clip, noise_sd = noise_sd,
            passes = passes, selection = "cyclic", average = FALSE)
  modifyList(s, list(...))
}

# A small regression with gross outliers, so that the Huber loss is in its
# linear part for some records at the solution.
huber_problem <- function(n = 120, p = 4, seed = 3) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x %*% c(1.5, -1, 0.5, 0)) + 0.3 + rnorm(n, sd = 0.5)
  y[1:8] <- y[1:8] + c(15, -12, 20, 9, -25, 11, -9, 30)
  # gamma_j = 1 / M_j, M_j = curvature (1) * mean(x_j^2); the intercept's is 1
  list(x = x, y = y, n = n, p = p, step = c(1 / colMeans(x^2), 1))
}

# F(b0, b) = (1/n) sum_i rho(b0 + x_i'b - y_i) + lambda sum_j psi_j(b_j)
huber_objective <- function(theta, x, y, delta, lambda, alpha, w = rep(1, nrow(x))) {
  b0 <- theta[1]
  b <- theta[-1]
  mean(w * huber_value(b0 + drop(x %*% b) - y, delta)) +
    lambda * sum(alpha * abs(b) + (1 - alpha) / 2 * b^2)
}
huber_gradient <- function(theta, x, y, delta, lambda, alpha, w = rep(1, nrow(x))) {
  d <- w * huber_derivative(theta[1] + drop(x %*% theta[-1]) - y, delta)
  c(mean(d), drop(crossprod(x, d)) / nrow(x) + lambda * (1 - alpha) * theta[-1])
}

test_that("DP-CD with the Huber loss at epsilon = Inf minimises the ridge-penalised Huber objective (optim as oracle)", {
  pr <- huber_problem()
  delta <- 1
  lambda <- 0.05
  fit <- dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, dpcd_settings(
    pr$p, "huber", lambda, 0, pr$step, family_parameter = delta))
  theta <- c(fit$a0, fit$beta[, 1])
  # the loss is in its linear part for the outliers: Huber is not least squares here
  r <- theta[1] + drop(pr$x %*% theta[-1]) - pr$y
  expect_gt(sum(abs(r) > delta), 8)
  # smooth objective: BFGS with the analytic gradient, from 0, independently
  opt <- optim(rep(0, pr$p + 1), huber_objective, huber_gradient, x = pr$x, y = pr$y,
               delta = delta, lambda = lambda, alpha = 0, method = "BFGS",
               control = list(reltol = 1e-16, maxit = 10000))
  expect_equal(opt$convergence, 0)
  expect_equal(theta, opt$par, tolerance = 1e-6)
  expect_lte(huber_objective(theta, pr$x, pr$y, delta, lambda, 0),
             opt$value + 1e-12)
  # and the squared-loss fit differs (the outliers pull it)
  ls <- dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, dpcd_settings(pr$p, "gaussian", lambda, 0, pr$step))
  expect_gt(max(abs(c(ls$a0, ls$beta[, 1]) - theta)), 0.05)
})

test_that("DP-CD with the Huber loss at epsilon = Inf solves the lasso-penalised Huber problem (KKT and proximal gradient in R)", {
  pr <- huber_problem(seed = 8)
  delta <- 0.8
  lambda <- c(0.2, 0.08)
  fit <- dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, dpcd_settings(
    pr$p, "huber", lambda, 1, pr$step, family_parameter = delta))
  for (l in seq_along(lambda)) {
    theta <- c(fit$a0[l], fit$beta[, l])
    g <- huber_gradient(theta, pr$x, pr$y, delta, 0, 1)
    # KKT: the intercept's gradient is 0; g_j = -lambda sign(b_j) where b_j != 0,
    # |g_j| <= lambda where b_j = 0
    expect_lt(abs(g[1]), 1e-8)
    b <- theta[-1]
    active <- b != 0
    expect_true(any(!active) || l == 2)
    expect_equal(g[-1][active], -lambda[l] * sign(b[active]), tolerance = 1e-8)
    expect_true(all(abs(g[-1][!active]) <= lambda[l] + 1e-8))
    # an independent solver: proximal gradient (ISTA) on all coordinates, step 1/L
    L <- max(eigen(crossprod(cbind(1, pr$x)) / pr$n, only.values = TRUE)$values)
    ista <- rep(0, pr$p + 1)
    for (it in 1:20000) {
      v <- ista - huber_gradient(ista, pr$x, pr$y, delta, 0, 1) / L
      ista <- c(v[1], sign(v[-1]) * pmax(abs(v[-1]) - lambda[l] / L, 0))
    }
    expect_equal(theta, ista, tolerance = 1e-6)
  }
})

test_that("weighted Huber DP-CD at epsilon = Inf minimises the weighted objective", {
  pr <- huber_problem(seed = 21)
  delta <- 1.2
  w <- runif(pr$n, 0.2, 2)
  w <- w / mean(w)
  fit <- dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, dpcd_settings(
    pr$p, "huber", 0.03, 0, pr$step / 2, family_parameter = delta, weights = w))
  opt <- optim(rep(0, pr$p + 1), huber_objective, huber_gradient, x = pr$x, y = pr$y,
               delta = delta, lambda = 0.03, alpha = 0, w = w, method = "BFGS",
               control = list(reltol = 1e-16, maxit = 10000))
  expect_equal(c(fit$a0, fit$beta[, 1]), opt$par, tolerance = 1e-6)
})

test_that("the Huber loss with a huge delta is the squared loss, bit for bit, with and without noise", {
  pr <- huber_problem(seed = 5)
  for (private in c(FALSE, TRUE)) {
    clip <- if (private) rep(0.5, pr$p + 1) else rep(Inf, pr$p + 1)
    noise <- if (private) rep(0.01, pr$p + 1) else rep(0, pr$p + 1)
    s <- dpcd_settings(pr$p, "gaussian", c(0.3, 0.1, 0.03), 0.5, pr$step, clip = clip,
                       noise_sd = noise, passes = 5L, selection = "permutation")
    ls <- dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, s)
    hu <- dpglmnet:::.dpcd_path_cpp(pr$x, pr$y,
                                    modifyList(s, list(family = "huber", family_parameter = 1e8)))
    expect_identical(hu, ls)
    # sparse x runs the scalar sweeps: the same holds there
    xs <- Matrix::Matrix(pr$x, sparse = TRUE)
    expect_identical(dpglmnet:::.dpcd_path_cpp(xs, pr$y, modifyList(s, list(
      family = "huber", family_parameter = 1e8))), dpglmnet:::.dpcd_path_cpp(xs, pr$y, s))
  }
})

test_that("the Huber derivative of the dense SIMD sweeps and of the sparse sweeps is clamp(eta - y, -delta, delta)", {
  set.seed(4)
  n <- 101
  eta <- rnorm(n, sd = 3)
  y <- rnorm(n, sd = 3)
  u <- rnorm(n)
  g <- rnorm(n)
  delta <- 0.9
  for (isa in dpglmnet:::.simd_isa_cpp()) {
    for (clip in c(Inf, 0.4)) {
      got <- dpglmnet:::.dense_sweep_cpp(isa, "huber", eta, y, u, 0.7, g, clip, delta)
      e <- eta + 0.7 * u
      want <- sum(pmin(pmax(huber_derivative(e - y, delta) * g, -clip), clip))
      expect_equal(got$eta, e, tolerance = 1e-15)
      expect_equal(got$sum, want, tolerance = 1e-12)
    }
  }
  # dense and sparse DP-CD paths with a binding Huber clamp and clip agree
  pr <- huber_problem(seed = 13)
  s <- dpcd_settings(pr$p, "huber", c(0.2, 0.05), 1, pr$step, family_parameter = 0.5,
                     clip = rep(0.8, pr$p + 1), noise_sd = rep(0.02, pr$p + 1), passes = 4L)
  dense <- dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, s)
  sparse <- dpglmnet:::.dpcd_path_cpp(Matrix::Matrix(pr$x, sparse = TRUE), pr$y, s)
  expect_equal(sparse$beta, dense$beta, tolerance = 1e-10)
  expect_equal(sparse$a0, dense$a0, tolerance = 1e-10)
})

test_that("DP-SGD's full gradient with the Huber loss is (1/n) X' clamp(-y, -delta, delta)", {
  pr <- huber_problem(seed = 2)
  got <- dpglmnet:::.dpsgd_start_gradient_cpp(pr$x, pr$y, list(
    family = "huber", family_parameter = 0.7, intercept = TRUE,
    transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
    clip = Inf, noise_sd = 0, seed = c(1, 2), secure = FALSE))
  expect_equal(got, drop(crossprod(pr$x, huber_derivative(-pr$y, 0.7))) / pr$n,
               tolerance = 1e-12)
})

test_that("DP-SCD declares the Huber loss unsupported: a run-time error naming solver and family", {
  pr <- huber_problem(seed = 1)
  s <- list(family = "huber", family_parameter = 1,
            transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
            seed = c(1, 2), secure = FALSE, clip = 1, noise_sd = 0, row_bound = Inf,
            batch_size = 5L, steps = 10, lambda = 0.1, alpha = 0, penalty_factor = rep(1, pr$p),
            lower_limits = rep(-Inf, pr$p), upper_limits = rep(Inf, pr$p), trace = 0L)
  expect_error(dpglmnet:::.dpscd_path_cpp(pr$x, pr$y, s),
               'solver "dpscd" does not support family "huber"', fixed = TRUE)
  expect_error(dpglmnet:::.dpscd_step_cpp(pr$x, pr$y, c(s, list(
    dual = rep(0, pr$n), shared = rep(0, pr$p), batch = 1:5))),
    'solver "dpscd" does not support family "huber"', fixed = TRUE)
  # the supported families still run there
  expect_silent(dpglmnet:::.dpscd_path_cpp(pr$x, pr$y, modifyList(s, list(
    family = "gaussian", family_parameter = NULL))))
})

test_that("family parameters and penalty names are checked before any computation", {
  pr <- huber_problem(seed = 1)
  s <- dpcd_settings(pr$p, "huber", 0.1, 1, pr$step, passes = 1L)
  expect_error(dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, s),
               'family "huber" needs family_parameter = delta', fixed = TRUE)
  for (bad in c(0, -1, NaN, Inf, NA_real_)) {
    expect_error(dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, modifyList(s, list(family_parameter = bad))),
                 "finite and > 0", fixed = TRUE)
  }
  expect_error(dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, modifyList(s, list(family_parameter = c(1, 2)))),
               "family_parameter must be one double")
  expect_error(dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, modifyList(s, list(
    family = "gaussian", family_parameter = 1))), 'family "gaussian" takes no family_parameter',
    fixed = TRUE)
  expect_error(dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, modifyList(s, list(family = "poisson"))),
               'unknown family "poisson"', fixed = TRUE)
  # the penalty: absent and "elastic_net" are the same fit; any other name an error
  g <- dpcd_settings(pr$p, "gaussian", c(0.2, 0.1), 0.7, pr$step, passes = 3L)
  expect_identical(dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, c(g, list(penalty = "elastic_net"))),
                   dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, g))
  expect_error(dpglmnet:::.dpcd_path_cpp(pr$x, pr$y, c(g, list(penalty = "scad"))),
               'unknown penalty "scad"', fixed = TRUE)
  expect_error(dpglmnet:::.dpsgd_path_cpp(pr$x, pr$y, modifyList(g, list(
    penalty = "group_lasso", step_size = 0.1, clip = 1, noise_sd = 0, batch_size = 5L,
    steps = 10))),
    'unknown penalty "group_lasso"', fixed = TRUE)
})

test_that("the l1-ball solvers take the Huber loss: with a huge delta their noisy paths are the squared loss's, bit for bit", {
  pr <- huber_problem(seed = 17)
  core <- list(family = "gaussian", intercept = TRUE,
               transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
               seed = c(3, 1), secure = FALSE, trace = 0L, radius = c(0.5, 1, 2))
  fw <- c(core, list(clip = 2, intercept_clip = 2, shift = NULL, gumbel_scale = 0.05 * c(0.5, 1, 2),
                     intercept_noise_sd = 0.01, intercept_step = 1, steps = 50,
                     keep_picks = TRUE))
  nmd <- c(core, list(clip = 2, noise_sd = 0.01, batch_size = 10L, steps = 50,
                      step_size = 0.05, intercept_step = 0.05))
  as_huber <- function(s, delta) modifyList(s, list(family = "huber", family_parameter = delta))
  ls <- dpglmnet:::.dpfw_path_cpp(pr$x, pr$y, fw)
  expect_identical(dpglmnet:::.dpfw_path_cpp(pr$x, pr$y, as_huber(fw, 1e8)), ls)
  expect_identical(dpglmnet:::.nmd_path_cpp(pr$x, pr$y, as_huber(nmd, 1e8)),
                   dpglmnet:::.nmd_path_cpp(pr$x, pr$y, nmd))
  # and a small delta is a different loss there too (the outliers' pull is cut)
  expect_false(identical(dpglmnet:::.dpfw_path_cpp(pr$x, pr$y, as_huber(fw, 0.3))$beta,
                         ls$beta))
})

# ---- The R family (R/family-huber.R): huber_family() through dpglmnet() ----

test_that("huber_family() fits through dpglmnet(): epsilon = Inf solves the penalised Huber problem", {
  d <- huber_problem(n = 200)
  delta <- 1.2
  lambda <- 0.02
  fit <- dpglmnet(d$x, d$y, family = huber_family(delta), epsilon = Inf, lambda = lambda,
                  alpha = 0, standardize = FALSE, passes = 3000)
  theta <- unname(c(fit$a0, as.numeric(fit$beta)))
  best <- stats::optim(rep(0, d$p + 1), huber_objective, huber_gradient, x = d$x, y = d$y,
                       delta = delta, lambda = lambda, alpha = 0, method = "BFGS",
                       control = list(reltol = 1e-14, maxit = 5000))
  expect_equal(theta, best$par, tolerance = 1e-5)
  # the robust fit is not least squares on these outliers
  ls <- dpglmnet(d$x, d$y, epsilon = Inf, lambda = lambda, alpha = 0, standardize = FALSE,
                 passes = 3000)
  expect_gt(max(abs(theta - c(ls$a0, as.numeric(ls$beta)))), 0.05)
  expect_identical(fit$family, "huber")
  expect_identical(fit$settings$family_parameter, delta)
})

test_that("a huge delta is least squares through dpglmnet(), private ledger and noise included", {
  d <- huber_problem(n = 300)
  fit <- function(family) {
    set.seed(9)
    suppressWarnings(dpglmnet(d$x, d$y, family = family, epsilon = 1, x.bounds = 4,
                              y.bound = 40, standardize = FALSE, smoothness = "bounds",
                              clip = 2, lambda = c(0.3, 0.1)))
  }
  h <- fit(huber_family(1e8))
  g <- fit("gaussian")
  expect_identical(as.matrix(h$beta), as.matrix(g$beta))
  expect_identical(h$a0, g$a0)
  expect_identical(h$privacy$mechanisms, g$privacy$mechanisms)
})

test_that("the Huber family's arguments and unsupported pairs are errors naming the argument", {
  d <- huber_problem()
  expect_error(dpglmnet(d$x, d$y, family = "huber", x.bounds = 4),
               "needs its public `delta`", class = "dpglmnet_error")
  expect_error(huber_family(0), "delta", class = "dpglmnet_error")
  expect_error(huber_family(c(1, 2)), "delta", class = "dpglmnet_error")
  expect_error(dpglmnet(d$x, d$y, family = huber_family(1), solver = "dpscd", alpha = 0,
                        intercept = FALSE, x.bounds = 4),
               "not fitted by solver = \"dpscd\"", class = "dpglmnet_error")
  expect_error(cv.dpglmnet(d$x, d$y, family = huber_family(1), x.bounds = 4,
                           y.bound = 40, type.measure = "deviance"),
               "type.measure", class = "dpglmnet_error")
})

test_that("a private Huber fit and its cv run at the defaults, y unstandardized", {
  set.seed(2)
  n <- 5000
  x <- matrix(rnorm(n * 3), n, 3)
  y <- drop(x %*% c(1, -1, 0)) + rnorm(n)
  y[1:100] <- 30  # 2% gross outliers
  set.seed(3)
  # (mae: its clipped loss is bounded by y.bound, mse's by y.bound^2)
  cvfit <- suppressWarnings(cv.dpglmnet(x, y, family = huber_family(1.5), x.bounds = 4,
                                        y.bound = 40, type.measure = "mae"))
  b <- as.numeric(coef(cvfit, s = "lambda.min"))
  expect_equal(b[2:3], c(1, -1), tolerance = 0.25)
  # y is not standardized (delta is on its scale): the standardization
  # releases x's ranges and moments only, and lambda_max is released
  rows <- cvfit$dpglmnet.fit$privacy$mechanisms$mechanism
  expect_false(any(grepl("of y", rows)))
  expect_identical(cvfit$dpglmnet.fit$settings$lambda_max_source, "private")
  expect_equal(as.numeric(predict(cvfit, x[1:3, ], s = "lambda.min")),
               as.numeric(cbind(1, x[1:3, ]) %*% coef(cvfit, s = "lambda.min")),
               tolerance = 1e-12)
})
