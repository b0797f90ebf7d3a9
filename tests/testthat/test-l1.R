# The l1-ball solvers: private Frank-Wolfe ("dpfw") and noisy mirror descent
# ("nmd"), R/l1.R, src/dpglmnet/frank_wolfe.h, src/dpglmnet/mirror_descent.h.

# The constrained optimum from glmnet: its solution at lambda has l1 norm R,
# so it solves min F(b) s.t. ||b||_1 <= R (LASSO / constrained duality).
glmnet_at <- function(x, y, lambda, family = "gaussian", standardize = FALSE) {
  fit <- glmnet::glmnet(x, y, family = family, lambda = lambda, standardize = standardize,
                        thresh = 1e-14, maxit = 1e6)
  list(a0 = unname(fit$a0), beta = as.numeric(fit$beta))
}

# simulate_gaussian() with its imbalanced column brought back to unit scale:
# with epsilon = Inf nothing is clipped, and the step of mirror descent uses
# `clip` as the nominal scale of the gradient.
unit_gaussian <- function(n, p) {
  d <- simulate_gaussian(n = n, p = p)
  d$x[, 2] <- d$x[, 2] / 5
  d
}

# TRUE once the core reads x through its column transform (centre, scale):
# the datapath branch. Exact smoothness of a column scaled by 2 is then 4x.
core_applies_transform <- function() {
  x <- matrix(c(1, -1, 2, 0), 4, 1)
  read <- function(scale) dpglmnet:::.exact_smoothness_cpp(x, list(
    transform = list(lower = NULL, upper = NULL, center = NULL, scale = scale),
    curvature = 1))
  isTRUE(all.equal(read(2), 4 * read(1)))
}

objective <- function(x, y, a0, beta, family = "gaussian") {
  eta <- a0 + drop(x %*% beta)
  if (family == "gaussian") mean((y - eta)^2) / 2 else mean(log1p(exp(eta)) - y * eta)
}

test_that("dpfw ledger: exponential selections and intercept compose in RDP as by hand", {
  d <- simulate_gaussian(n = 300, p = 8)
  radius <- c(0.5, 1, 2)
  for (intercept in c(FALSE, TRUE)) {
    fit <- dpglmnet(d$x, d$y, solver = "dpfw", l1.radius = radius, passes = 15,
                    epsilon = 1, delta = 1e-5, intercept = intercept, standardize = FALSE)
    ledger <- fit$privacy
    z <- ledger$noise_level
    steps <- 3 * 15
    rows <- ledger$mechanisms
    expect_identical(rows$type, c("exponential", if (intercept) "gaussian"))
    expect_equal(rows$count, rep(steps, nrow(rows)))
    expect_equal(rows$noise_multiplier, c(z, if (intercept) 3 * z))
    # Each selection is eps0 = 2/z pure and eps0^2/8-zCDP (RDP alpha eps0^2/8,
    # capped at eps0); the intercept is a Gaussian at 3z: RDP alpha / (2 (3z)^2).
    orders <- default_orders()
    eps0 <- 2 / z
    rdp <- steps * pmin(eps0, orders * eps0^2 / 8) +
      if (intercept) steps * orders / (2 * (3 * z)^2) else 0
    by_hand <- min(rdp + log1p(-1 / orders) - (log(1e-5) + log(orders)) / (orders - 1))
    expect_equal(ledger$epsilon, by_hand, tolerance = 1e-9)
    expect_equal(ledger$epsilon, rdp_epsilon(orders, rdp, 1e-5), tolerance = 1e-12,
                 ignore_attr = TRUE)
    expect_identical(ledger$method, "rdp")
    expect_lte(ledger$epsilon, 1)
    expect_gt(ledger$epsilon, 1 - 1e-6)  # calibrated, not loose
    # The Gumbel scale is z times the replace-one sensitivity 2 R C / n.
    expect_equal(fit$settings$gumbel_scale, z * 2 * radius / 300)
    expect_equal(fit$settings$intercept_noise_sd, if (intercept) 3 * z * 2 / 300 else 0)
    expect_equal(dim(fit$vertices), c(15L, 3L))
  }
})

test_that("nmd ledger: subsampled Gaussian without replacement, as DP-SGD's", {
  d <- simulate_gaussian(n = 400, p = 6)
  fit <- dpglmnet(d$x, d$y, solver = "nmd", l1.radius = c(1, 2), passes = 3,
                  batch.size = 40, epsilon = 2, delta = 1e-5, clip = 1, standardize = FALSE)
  ledger <- fit$privacy
  z <- ledger$noise_level
  steps <- 2 * ceiling(3 * 400 / 40)
  expect_equal(ledger$mechanisms$count, steps)
  expect_equal(fit$settings$noise_sd, z * 2 * 1)
  rdp <- rdp_subsampled_gaussian(0.1, z, steps, sampling = "without_replacement")
  expect_equal(ledger$epsilon, rdp_epsilon(default_orders(), rdp, 1e-5), tolerance = 1e-9,
               ignore_attr = TRUE)
  expect_lte(ledger$epsilon, 2)
  expect_gt(ledger$epsilon, 2 - 1e-6)
  expect_match(ledger$sampling, "without replacement")
  # Default clips: sqrt(p + 1) for nmd (L2, as DP-SGD), 1 for dpfw (per coordinate).
  expect_equal(dpglmnet(d$x, d$y, solver = "nmd", l1.radius = 1, passes = 1,
      standardize = FALSE)$settings$clip,
               sqrt(7))
  expect_equal(dpglmnet(d$x, d$y, solver = "dpfw", l1.radius = 1, passes = 1,
      standardize = FALSE)$settings$clip, 1)
})

test_that("dpfw vertex picks follow the exponential mechanism at the calibrated scale", {
  # Clipping saturates at every step (y = 1e6, |x'b| <= R), so the clipped
  # gradient is the same at every step: g_j = -C k_j / n with k_j the ones
  # in column j, and the 2p vertex utilities -<+-R e_j, g> = +-R C k_j / n.
  # With Gumbel scale beta = z 2 R C / n the picks are i.i.d. with
  # P(+-e_j) proportional to exp(+-k_j / (2z)).
  n <- 20
  k <- c(0, 3, 6)
  x <- sapply(k, function(kj) c(rep(1, kj), rep(0, n - kj)))
  y <- rep(1e6, n)
  set.seed(11)
  steps <- 4000
  fit <- dpglmnet(x, y, solver = "dpfw", l1.radius = 1, passes = steps, epsilon = 600,
                  delta = 1e-4, intercept = FALSE, standardize = FALSE, clip = 0.5)
  z <- fit$privacy$noise_level
  expect_gt(z, 1)
  expect_lt(z, 4)
  expect_equal(fit$settings$gumbel_scale, z * 2 * 1 * 0.5 / n)
  law <- function(z) {
    w <- as.vector(rbind(exp(k / (2 * z)), exp(-k / (2 * z))))  # +e_1, -e_1, +e_2, ...
    w / sum(w)
  }
  observed <- tabulate(fit$vertices[, 1], nbins = 2 * length(k))
  expect_gt(stats::chisq.test(observed, p = law(z))$p.value, 1e-3)
  # The test has power: a scale 30% off is rejected.
  expect_lt(stats::chisq.test(observed, p = law(1.3 * z))$p.value, 1e-3)
  expect_lt(stats::chisq.test(observed, p = law(z / 1.3))$p.value, 1e-3)
})

test_that("epsilon = Inf: dpfw reaches the constrained optimum (glmnet at the matching lambda)", {
  d <- unit_gaussian(n = 300, p = 8)
  ref <- glmnet_at(d$x, d$y, lambda = 0.1)
  radius <- sum(abs(ref$beta))
  f_star <- objective(d$x, d$y, ref$a0, ref$beta)
  # Frank-Wolfe's gap after T steps is O(R^2 L / T); 10000 full-batch steps
  # on this problem give a relative objective error of about 1e-8 (1e-5
  # with the imbalanced column of simulate_gaussian(): L is 25x larger).
  fit <- dpglmnet(d$x, d$y, solver = "dpfw", l1.radius = radius, passes = 10000,
                  epsilon = Inf, standardize = FALSE)
  f <- objective(d$x, d$y, fit$a0, as.numeric(fit$beta))
  expect_lt((f - f_star) / f_star, 1e-6)
  expect_gt((f - f_star) / f_star, -1e-10)
  expect_lte(sum(abs(fit$beta)), radius * (1 + 1e-12))
  expect_equal(as.numeric(fit$beta), ref$beta, tolerance = 5e-3)
  expect_equal(unname(fit$a0), ref$a0, tolerance = 5e-3)

  b <- simulate_binomial(n = 300, p = 5)
  ref <- glmnet_at(b$x, b$y, lambda = 0.02, family = "binomial")
  f_star <- objective(b$x, b$y, ref$a0, ref$beta, "binomial")
  fit <- dpglmnet(b$x, b$y, family = "binomial", solver = "dpfw",
                  l1.radius = sum(abs(ref$beta)), passes = 10000, epsilon = Inf,
                      standardize = FALSE)
  f <- objective(b$x, b$y, fit$a0, as.numeric(fit$beta), "binomial")
  expect_lt((f - f_star) / f_star, 1e-5)
  expect_equal(as.numeric(fit$beta), ref$beta, tolerance = 1e-2)
})

test_that("epsilon = Inf: nmd (full batch, averaged iterates) reaches the constrained optimum", {
  d <- unit_gaussian(n = 300, p = 8)
  ref <- glmnet_at(d$x, d$y, lambda = 0.1)
  f_star <- objective(d$x, d$y, ref$a0, ref$beta)
  # Averaged mirror descent converges as O(1 / sqrt(T)): with step 30 and
  # 10000 full-batch steps the relative error is below 1e-3.
  fit <- dpglmnet(d$x, d$y, solver = "nmd", l1.radius = sum(abs(ref$beta)),
                  passes = 10000, batch.size = 300, step = 30, epsilon = Inf, standardize = FALSE)
  f <- objective(d$x, d$y, fit$a0, as.numeric(fit$beta))
  expect_lt((f - f_star) / f_star, 2e-3)
  expect_gt((f - f_star) / f_star, -1e-10)
  expect_lte(sum(abs(fit$beta)), sum(abs(ref$beta)) * (1 + 1e-9))
  expect_equal(as.numeric(fit$beta), ref$beta, tolerance = 2e-2)
})

test_that("standardize: the radius bounds sum_j sd_j |b_j| as glmnet's standardized penalty", {
  skip_if_not(core_applies_transform(), "the core does not apply the column transform yet")
  d <- simulate_gaussian(n = 300, p = 6)
  ref <- glmnet_at(d$x, d$y, lambda = 0.1, standardize = TRUE)
  sd_x <- apply(d$x, 2, function(v) sqrt(mean((v - mean(v))^2)))
  radius <- sum(sd_x * abs(ref$beta))
  fit <- dpglmnet(d$x, d$y, solver = "dpfw", l1.radius = radius, passes = 10000,
                  epsilon = Inf, standardize = TRUE, x.bounds = 1e3, y.bound = 1e3)
  expect_equal(fit$lambda, radius)
  expect_equal(as.numeric(fit$beta), ref$beta, tolerance = 5e-3)
  expect_lte(sum(sd_x * abs(fit$beta)), radius * (1 + 1e-9))
})

test_that("dense and sparse x give the same path; warm starts along increasing radii", {
  set.seed(3)
  x <- Matrix::rsparsematrix(200, 30, density = 0.2)
  y <- as.numeric(x %*% c(1, -1, rep(0, 28))) + rnorm(200)
  radius <- c(0.5, 1, 2)
  for (solver in c("dpfw", "nmd")) {
    set.seed(4)
    sparse <- dpglmnet(x, y, solver = solver, l1.radius = radius, epsilon = 2, passes = 5,
        standardize = FALSE)
    set.seed(4)
    dense <- dpglmnet(as.matrix(x), y, solver = solver, l1.radius = radius, epsilon = 2,
                      passes = 5, standardize = FALSE)
    expect_equal(as.matrix(sparse$beta), as.matrix(dense$beta), tolerance = 1e-10)
    expect_equal(sparse$a0, dense$a0, tolerance = 1e-10)
    expect_true(all(colSums(abs(as.matrix(sparse$beta))) <= radius * (1 + 1e-9)))
  }
})

test_that("the path object: radius in lambda, print, coef/predict interpolate on the radius scale", {
  d <- simulate_gaussian(n = 200, p = 5)
  fit <- dpglmnet(d$x, d$y, solver = "dpfw", l1.radius = c(0.5, 1, 2), epsilon = 1,
                  passes = 5, standardize = FALSE)
  expect_s3_class(fit, "dpglmnet")
  expect_equal(fit$lambda, c(0.5, 1, 2))
  expect_equal(fit$dim, c(5L, 3L))
  expect_identical(fit$settings$path_parameter, "radius")
  expect_output(print(fit), "Radius")
  expect_output(print(summary(fit)), "l1 ball")
  cf <- as.matrix(coef(fit))
  mid <- as.matrix(coef(fit, s = 1.5))
  expect_equal(mid[, 1], (cf[, 2] + cf[, 3]) / 2, ignore_attr = TRUE)
  expect_equal(as.matrix(coef(fit, s = 10))[, 1], cf[, 3], ignore_attr = TRUE)
  expect_equal(as.matrix(coef(fit, s = 0.1))[, 1], cf[, 1], ignore_attr = TRUE)
  expect_equal(predict(fit, d$x[1:3, ], s = 1)[, 1],
               drop(cbind(1, d$x[1:3, ]) %*% cf[, 2]), ignore_attr = TRUE)
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_silent(plot(fit))
  # The default grid: nlambda radii, geometric from lambda.min.ratio (1e-4
  # when n > p, as glmnet) sqrt(p) up to sqrt(p) (unstandardized).
  default <- dpglmnet(d$x, d$y, solver = "nmd", epsilon = 1, passes = 1, nlambda = 4,
      standardize = FALSE)
  expect_equal(default$lambda, sqrt(5) * exp(seq(log(1e-4), 0, length.out = 4)))
})

test_that("bad inputs to the l1 solvers are classed errors naming the argument", {
  d <- simulate_gaussian(n = 50, p = 3)
  fit <- function(...) dpglmnet(d$x, d$y, epsilon = 1, ..., standardize = FALSE)
  for (solver in c("dpfw", "nmd")) {
    expect_dpglmnet_error(fit(solver = solver, l1.radius = 0), "l1.radius")
    expect_dpglmnet_error(fit(solver = solver, l1.radius = -1), "l1.radius")
    expect_dpglmnet_error(fit(solver = solver, l1.radius = numeric(0)), "l1.radius")
    expect_dpglmnet_error(fit(solver = solver, l1.radius = NA_real_), "l1.radius")
    expect_dpglmnet_error(fit(solver = solver, l1.radius = "1"), "l1.radius")
    expect_dpglmnet_error(fit(solver = solver, l1.radius = c(2, 1)), "l1.radius")
    expect_dpglmnet_error(fit(solver = solver, l1.radius = Inf), "l1.radius")
    expect_dpglmnet_error(fit(solver = solver, alpha = 0.5), "alpha")
    expect_dpglmnet_error(fit(solver = solver, lambda = 0.1), "lambda")
    expect_dpglmnet_error(fit(solver = solver, lower.limits = 0), "lower.limits")
    expect_dpglmnet_error(fit(solver = solver, penalty.factor = c(1, 2, 1)),
                          "penalty.factor")
    expect_dpglmnet_error(fit(solver = solver, family = "poisson"), "family")
  }
  expect_dpglmnet_error(fit(solver = "dpcd", l1.radius = 1), "l1.radius")
})

# dpfw-vr: Algorithm 3 of Asi et al. (2021), src/dpglmnet/frank_wolfe_vr.h.

test_that("dpfw-vr shape: phases capped by n, batch a multiple of 2^T within n", {
  # T phases read b (T + T (T + 1) / 4) records and need b / 2^T >= 1.
  expect_equal(dpglmnet:::dpfw_vr_shape(300, 3), list(phases = 3L, batch = 48L))
  # T = 4: 16 (4 + 5) = 144 <= 300; T = 5: 32 (5 + 7.5) = 400 > 300.
  expect_equal(dpglmnet:::dpfw_vr_shape(300, 10), list(phases = 4L, batch = 32L))
  expect_null(dpglmnet:::dpfw_vr_shape(2, 1))
  for (n in c(3, 50, 1000, 12345)) {
    s <- dpglmnet:::dpfw_vr_shape(n, 30)
    t <- s$phases
    expect_lte(s$batch * (t + t * (t + 1) / 4), n)
    expect_equal(s$batch %% 2^t, 0)
  }
})

test_that("dpfw-vr ledger: one pure-DP run per radius (Theorem 6), basic composition by hand", {
  d <- simulate_gaussian(n = 300, p = 8)
  radius <- c(0.5, 1, 2)
  for (intercept in c(FALSE, TRUE)) {
    fit <- dpglmnet(d$x, d$y, solver = "dpfw-vr", l1.radius = radius, passes = 3,
                    epsilon = 1, delta = 1e-5, intercept = intercept, standardize = FALSE)
    ledger <- fit$privacy
    z <- ledger$noise_level
    rows <- ledger$mechanisms
    expect_identical(rows$type, c("laplace", if (intercept) "laplace"))
    expect_equal(rows$count, rep(3, nrow(rows)))
    expect_equal(rows$noise_multiplier, c(z, if (intercept) 9 * z))
    # Each run is (1/z)-DP (selections) + (1/(9z))-DP (intercept); 3 radii.
    by_hand <- 3 / z + if (intercept) 3 / (9 * z) else 0
    expect_equal(ledger$epsilon, by_hand, tolerance = 1e-12)
    expect_equal(ledger$epsilon_laplace, by_hand, tolerance = 1e-12)
    expect_identical(ledger$method, "basic")
    expect_lte(ledger$epsilon, 1)
    expect_gt(ledger$epsilon, 1 - 1e-6)
    # Theorem 6: lambda_t = 2 L D 2^t / (b eps0), L = C = 1, D = 2R, eps0 = 1/z,
    # b = 48 for n = 300 and T = 3.
    expect_equal(fit$settings$phases, 3L)
    expect_equal(fit$settings$batch, 48L)
    expect_equal(fit$settings$laplace_scale, 2 * 1 * (2 * radius) * 2^3 / (48 * (1 / z)))
    expect_equal(fit$settings$intercept_multiplier, if (intercept) 9 * z * 2 / 48 else 0)
    expect_equal(dim(fit$vertices), c(2^4 - 2, 3))
    expect_true(all(colSums(abs(as.matrix(fit$beta))) <= radius * (1 + 1e-12)))
  }
  # With a private standardization the Gaussian rows join by basic composition
  # (the warning that 300 records make a noisy standardization is expected).
  st <- suppressWarnings(dpglmnet(d$x, d$y, solver = "dpfw-vr", l1.radius = 1, passes = 2, epsilon = 2,
                 delta = 1e-5, standardize = TRUE, x.bounds = 5, y.bound = 10))
  expect_lte(st$privacy$epsilon, 2)
  expect_gt(st$privacy$epsilon, 2 - 1e-6)
})

test_that("dpfw-vr picks follow report-noisy-max with Laplace noise at the calibrated scale", {
  # y = 1e6 and tiny radii: d_i = x_i'b - y_i = -1e6 up to 1e-12, so with
  # constant columns a_j the root gradient is v_j = -1e6 a_j exactly, every
  # correction is below 1e-12, and the leaves of phase 1 see utilities
  # -<+-R e_j, v> = +-R 1e6 a_j. Laplace scale lambda_1 = z 4 R C 2 / b.
  n <- 30
  a <- c(0, 2e-7, 5e-7)
  x <- matrix(rep(a, each = n), n)
  y <- rep(1e6, n)
  nradii <- 2500
  radius <- 1e-6 * (1 + 1e-9 * seq_len(nradii))
  set.seed(12)
  fit <- dpglmnet(x, y, solver = "dpfw-vr", l1.radius = radius, passes = 1,
                  epsilon = nradii, delta = 1e-4, intercept = FALSE, clip = 1, standardize = FALSE)
  z <- fit$privacy$noise_level
  expect_equal(z, 1, tolerance = 1e-8)
  b <- fit$settings$batch
  expect_equal(b, 20L)
  expect_equal(fit$settings$laplace_scale, z * 4 * radius * 1 * 2 / b)
  law <- function(z) {
    u <- as.vector(rbind(1e6 * a, -1e6 * a))  # in units of R: +e_1, -e_1, ...
    scale <- z * 4 * 2 / b
    plap <- function(q) ifelse(q < 0, exp(q / scale) / 2, 1 - exp(-q / scale) / 2)
    dlap <- function(q) exp(-abs(q) / scale) / (2 * scale)
    sapply(seq_along(u), function(k) stats::integrate(function(t) {
      dlap(t - u[k]) * Reduce(`*`, lapply(u[-k], function(v) plap(t - v)))
    }, -Inf, Inf, rel.tol = 1e-10)$value)
  }
  expect_equal(sum(law(z)), 1, tolerance = 1e-6)
  observed <- tabulate(fit$vertices, nbins = 6)
  expect_gt(stats::chisq.test(observed, p = law(z))$p.value, 1e-3)
  expect_lt(stats::chisq.test(observed, p = law(1.3 * z), rescale.p = TRUE)$p.value, 1e-3)
  expect_lt(stats::chisq.test(observed, p = law(z / 1.3), rescale.p = TRUE)$p.value, 1e-3)
})

test_that("dpfw-vr intercept noise is Laplace at the calibrated scale (all-zero problem)", {
  # x = 0, y = 0: the intercept's clipped derivative at every record is b0,
  # every correction is b0 - b0(parent), so each leaf sees v0 = b0 and moves
  # b0 <- b0 - (b0 + Laplace(lambda0_t)) (curvature 1): the released b0 of
  # a run with T = 1 is minus a Laplace draw of scale lambda0_1 = 9 z 2 C 2 / b.
  n <- 3000
  x <- matrix(0, n, 2)
  y <- rep(0, n)
  nradii <- 2000
  set.seed(13)
  fit <- dpglmnet(x, y, solver = "dpfw-vr", l1.radius = seq_len(nradii), passes = 1,
                  epsilon = 1000, delta = 1e-4, clip = 1, standardize = FALSE)
  z <- fit$privacy$noise_level
  b <- fit$settings$batch
  expect_equal(b, 2000L)
  scale <- 9 * z * 2 * 1 * 2 / b
  expect_equal(fit$settings$intercept_multiplier * 2, scale)
  expect_true(all(fit$beta == 0) || max(abs(fit$beta)) <= nradii)
  draws <- -fit$a0
  plap <- function(q, s) ifelse(q < 0, exp(q / s) / 2, 1 - exp(-q / s) / 2)
  expect_gt(suppressWarnings(stats::ks.test(draws, plap, s = scale))$p.value, 1e-3)
  expect_lt(suppressWarnings(stats::ks.test(draws, plap, s = 1.3 * scale))$p.value, 1e-3)
  expect_lt(suppressWarnings(stats::ks.test(draws, plap, s = scale / 1.3))$p.value, 1e-3)
})

test_that("epsilon = Inf: dpfw-vr reaches the constrained optimum up to its sampling error", {
  # One run reads every record once (disjoint samples), so even without noise
  # its error is statistical: O((L + beta D) sqrt(log p / b)) on the
  # gradients (Lemma 4.2). With n = 20000, p = 8 and T = 8 phases (b = 768,
  # 510 Frank-Wolfe steps), over seeds 1-5: relative objective error at most
  # 0.006, coefficients within 0.05, intercept within 0.07 (a gradient step
  # on b0 at each leaf carries the sampling error of the last estimates).
  # Tolerances: 1e-2, 0.08, 0.1.
  set.seed(1)
  n <- 20000
  p <- 8
  x <- matrix(rnorm(n * p), n)
  y <- drop(x %*% c(1, -0.5, rep(0, p - 2))) + rnorm(n)
  ref <- glmnet_at(x, y, lambda = 0.1)
  radius <- sum(abs(ref$beta))
  f_star <- objective(x, y, ref$a0, ref$beta)
  fit <- suppressWarnings(dpglmnet(x, y, solver = "dpfw-vr", l1.radius = radius,
                                   passes = 8, epsilon = Inf, standardize = FALSE))
  expect_equal(fit$settings$phases, 8L)
  f <- objective(x, y, fit$a0, as.numeric(fit$beta))
  expect_lt((f - f_star) / f_star, 1e-2)
  expect_gt((f - f_star) / f_star, -1e-10)
  expect_lte(sum(abs(fit$beta)), radius * (1 + 1e-12))
  expect_lt(max(abs(as.numeric(fit$beta) - ref$beta)), 0.08)
  expect_lt(abs(fit$a0 - ref$a0), 0.1)
  expect_identical(fit$privacy$method, "none")
})

test_that("dpfw-vr: dense and sparse x give the same path; bad inputs are classed errors", {
  set.seed(3)
  x <- Matrix::rsparsematrix(200, 30, density = 0.2)
  y <- as.numeric(x %*% c(1, -1, rep(0, 28))) + rnorm(200)
  radius <- c(0.5, 1, 2)
  set.seed(4)
  sparse <- dpglmnet(x, y, solver = "dpfw-vr", l1.radius = radius, epsilon = 2, passes = 3,
      standardize = FALSE)
  set.seed(4)
  dense <- dpglmnet(as.matrix(x), y, solver = "dpfw-vr", l1.radius = radius, epsilon = 2,
                    passes = 3, standardize = FALSE)
  expect_equal(as.matrix(sparse$beta), as.matrix(dense$beta), tolerance = 1e-10)
  expect_equal(sparse$a0, dense$a0, tolerance = 1e-10)
  b <- simulate_binomial(n = 300, p = 5)
  fit <- dpglmnet(b$x, b$y, family = "binomial", solver = "dpfw-vr", l1.radius = 1,
                  epsilon = 1, passes = 2, standardize = FALSE)
  expect_true(all(is.finite(fit$a0)))

  d <- simulate_gaussian(n = 50, p = 3)
  bad <- function(...) dpglmnet(d$x, d$y, epsilon = 1, solver = "dpfw-vr", ..., standardize = FALSE)
  expect_dpglmnet_error(bad(l1.radius = 0), "l1.radius")
  expect_dpglmnet_error(bad(l1.radius = c(2, 1)), "l1.radius")
  expect_dpglmnet_error(bad(alpha = 0.5), "alpha")
  expect_dpglmnet_error(bad(lambda = 0.1), "lambda")
  expect_dpglmnet_error(bad(upper.limits = 1), "upper.limits")
  expect_dpglmnet_error(bad(family = "poisson"), "family")
  expect_dpglmnet_error(bad(passes = 0), "passes")
  expect_dpglmnet_error(dpglmnet(d$x[1:2, ], d$y[1:2], solver = "dpfw-vr", epsilon = 1,
                                 l1.radius = 1, batch.size = 1, standardize = FALSE), "x")
})

test_that("epsilon = Inf: the l1 solvers warn when the last 10% of steps still move", {
  d <- unit_gaussian(n = 300, p = 8)
  radius <- sum(abs(glmnet_at(d$x, d$y, lambda = 0.1)$beta))
  # dpfw: 0.004 of the coefficient scale after 100 steps, < 1e-4 after 10000.
  expect_warning(dpglmnet(d$x, d$y, solver = "dpfw", l1.radius = radius, passes = 100,
                          epsilon = Inf,
                              standardize = FALSE), "not converged", class = "dpglmnet_warning")
  expect_no_warning(dpglmnet(d$x, d$y, solver = "dpfw", l1.radius = radius,
                             passes = 10000, epsilon = Inf, standardize = FALSE))
  expect_warning(dpglmnet(d$x, d$y, solver = "nmd", l1.radius = radius, passes = 5,
                          batch.size = 300, step = 30, epsilon = Inf,
                              standardize = FALSE), "not converged")
  expect_no_warning(dpglmnet(d$x, d$y, solver = "nmd", l1.radius = radius, passes = 10000,
                             batch.size = 300, step = 30, epsilon = Inf, standardize = FALSE))
  expect_warning(dpglmnet(d$x, d$y, solver = "dpfw-vr", l1.radius = radius, passes = 2,
                          epsilon = Inf, standardize = FALSE), "dpfw-vr")
  # Private fits never run the diagnostic on data.
  expect_no_warning(dpglmnet(d$x, d$y, solver = "dpfw", l1.radius = radius, passes = 100,
                             epsilon = 5, standardize = FALSE))
})
