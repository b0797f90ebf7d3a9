# The data path: x is never copied to be clamped (the C++ core reads it
# through a column transform: clamp to x.bounds, centre, scale), DP-SGD's one
# row-major copy is transformed as it is made, and DP-SGD applies the
# penalty's prox (planned once per lambda).

clamp_reference <- function(x, bounds) {
  bounds <- rep_len(bounds, ncol(x))
  if (inherits(x, "dgCMatrix")) {
    column_bound <- rep(bounds, diff(x@p))
    x@x <- pmax(pmin(x@x, column_bound), -column_bound)
    return(x)
  }
  x[] <- pmax(pmin(x, rep(bounds, each = nrow(x))), -rep(bounds, each = nrow(x)))
  x
}

test_that("a fit with x.bounds equals the fit on the clamped data", {
  set.seed(21)
  n <- 250
  p <- 7
  x <- matrix(rnorm(n * p, sd = 3), n, p)
  x[abs(x) < 1] <- 0  # sparse storage has something to skip
  bounds <- c(1, 2, 0.5, 3, 10, 1.5, 2)  # column 5: never binds
  stopifnot(any(abs(x) > rep(bounds, each = n)))
  clamped <- clamp_reference(x, bounds)
  storages <- list(dense = identity,
                   sparse = function(m) Matrix::Matrix(m, sparse = TRUE))
  for (family in c("gaussian", "binomial")) {
    y <- if (family == "binomial") rbinom(n, 1, plogis(x[, 1] - x[, 2])) else
      drop(x %*% seq_len(p)) / 10 + rnorm(n)
    for (solver in c("dpcd", "dpsgd")) {
      for (storage in names(storages)) {
        # smoothness "private" and a private lambda_max: every consumer of x.
        fit <- function(design, bounds_given) {
          set.seed(5)
          dpglmnet(storages[[storage]](design), y, family = family,
                   solver = solver, epsilon = 2, x.bounds = bounds_given,
                   y.bound = if (family == "gaussian") 20,
                   nlambda = 3, passes = 3, batch.size = 25)
        }
        a <- fit(x, bounds)
        b <- fit(clamped, bounds)
        label <- paste(family, solver, storage)
        expect_true(any(a$beta != 0), label = label)
        expect_equal(a$beta, b$beta, tolerance = 1e-12, label = label)
        expect_equal(a$a0, b$a0, tolerance = 1e-12, label = label)
        expect_equal(a$lambda, b$lambda, tolerance = 1e-12, label = label)
        expect_equal(a$settings$smoothness_values, b$settings$smoothness_values,
                     tolerance = 1e-12, label = label)
      }
    }
  }
  # Public smoothness from the bounds and exact smoothness (epsilon = Inf).
  for (smoothness in c("bounds", "exact")) {
    eps <- if (smoothness == "exact") Inf else 1
    set.seed(6)
    a <- dpglmnet(x, y, epsilon = eps, x.bounds = bounds, y.bound = 20,
                  smoothness = smoothness, lambda = c(0.5, 0.1), passes = 4)
    set.seed(6)
    b <- dpglmnet(clamped, y, epsilon = eps, x.bounds = bounds, y.bound = 20,
                  smoothness = smoothness, lambda = c(0.5, 0.1), passes = 4)
    expect_equal(a$beta, b$beta, tolerance = 1e-12, label = smoothness)
  }
})

test_that("dpglmnet() leaves x to the C++ core: no clamped copy in the problem", {
  x <- matrix(c(-5, 5, 1, 2), 2, 2)
  problem <- dpglmnet:::check_problem(
    x = x, y = c(1, 2), family = "gaussian", alpha = 1, nlambda = 2,
    lambda.min.ratio = 0.1, lambda = NULL, intercept = TRUE,
    standardize = FALSE, penalty.factor = c(1, 1), lower.limits = -Inf,
    upper.limits = Inf, epsilon = 1, delta = 0.1, solver = "dpcd", passes = 1,
    clip = 1, step = 1, average = FALSE, batch.size = 1,
    selection = "cyclic", smoothness = NULL, smoothness.budget = 0.1,
    standardize.budget = 0.3, x.bounds = 1L, y.bound = NULL, rng = "seeded",
    trace.it = 0)
  expect_identical(problem$x, x)
  expect_identical(problem$x.bounds, c(1, 1))  # double, as the core reads it
  expect_identical(problem$transform$upper, c(1, 1))
  settings <- function(upper) list(curvature = 1, transform = list(
    lower = -upper, upper = upper, center = NULL, scale = NULL))
  expect_error(dpglmnet:::.exact_smoothness_cpp(x, settings(1)), "length p")
  expect_error(dpglmnet:::.exact_smoothness_cpp(x, settings(c(1L, 1L))), "double")
})

# Clamp, centre, scale in R, as ColumnTransform::Column does.
transform_reference <- function(x, bound, center, scale) {
  for (j in seq_len(ncol(x))) {
    v <- x[, j]
    if (!is.null(bound)) v <- pmax(pmin(v, bound[j]), -bound[j])
    if (!is.null(center)) v <- v - center[j]
    if (!is.null(scale)) v <- v * scale[j]
    x[, j] <- v
  }
  x
}

test_that("the column transform gives the sweeps, rows and norms of the transformed x", {
  set.seed(22)
  isas <- dpglmnet:::.simd_isa_cpp()
  for (n in c(1, 13, 203)) {
    p <- 5
    x <- matrix(rnorm(n * p, sd = 2), n, p)
    x[sample(length(x), length(x) %/% 3)] <- 0
    bound <- c(1, 0.5, Inf, 2, 3)  # Inf: that column is not clamped
    center <- c(0.3, -1, 0, 2, 0.1)
    scale <- c(2, 0.5, 1, 3, 1)
    b <- rnorm(p)
    # Every pair of columns, the intercept (column p) included; -1: no update.
    update <- c(-1L, 0L, 1L, 2L, 3L, 4L, 5L, 0L, 3L)
    gradient <- c(0L, 1L, 2L, 5L, 4L, 0L, 3L, 4L, 2L)
    change <- c(0, 0.7, -0.3, 1.1, 0.25, -2, 0.5, 0.1, 0.9)
    cases <- list(
      list(bound = bound, center = center, scale = scale, sparse = FALSE),
      list(bound = bound, center = NULL, scale = NULL, sparse = FALSE),
      list(bound = NULL, center = center, scale = NULL, sparse = FALSE),
      list(bound = bound, center = NULL, scale = scale, sparse = TRUE),
      list(bound = NULL, center = NULL, scale = scale, sparse = TRUE))
    for (case in cases) {
      explicit <- transform_reference(x, case$bound, case$center, case$scale)
      design <- function(m) if (case$sparse) Matrix::Matrix(m, sparse = TRUE) else m
      for (family in c("gaussian", "binomial")) {
        y <- if (family == "binomial") rbinom(n, 1, 0.5) else rnorm(n)
        for (isa in isas) {
          run <- function(m, bound, center, scale) {
            dpglmnet:::.transformed_design_cpp(
              design(m), bound, center, scale, isa, family, y, update, change,
              gradient, 0.8, b)
          }
          got <- run(x, case$bound, case$center, case$scale)
          want <- run(explicit, NULL, NULL, NULL)
          label <- paste(n, family, isa, case$sparse,
                         paste(!vapply(case[1:3], is.null, TRUE), collapse = ""))
          expect_identical(got, want, label = label)
          # ... and the explicit x itself, through plain R.
          expect_equal(got$rows, unname(as.matrix(explicit)), tolerance = 0,
                       label = label)
          expect_equal(got$smoothness, colMeans(as.matrix(explicit)^2),
                       tolerance = 1e-14, label = label)
          expect_equal(got$dots, drop(as.matrix(explicit) %*% b), tolerance = 1e-13,
                       label = label)
        }
      }
    }
  }
  expect_error(dpglmnet:::.transformed_design_cpp(
    Matrix::Matrix(diag(2), sparse = TRUE), NULL, c(1, 1), NULL, "baseline",
    "gaussian", c(1, 2), 0L, 0, 0L, 1, c(1, 1)), "centred")
  expect_error(dpglmnet:::.transformed_design_cpp(
    diag(2), c(1, 1, 1), NULL, NULL, "baseline", "gaussian", c(1, 2), 0L, 0, 0L,
    1, c(1, 1)), "length ncol")
})

test_that("DP-SGD's planned prox gives exactly the doubles of the penalty's prox", {
  set.seed(23)
  p <- 40
  for (alpha in c(0, 0.3, 1)) {
    for (step in c(1e-3, 0.7, 25)) {
      pf <- c(0, runif(p - 2, 0, 3), 1)
      lower <- ifelse(runif(p) < 0.3, -runif(p), -Inf)
      upper <- ifelse(runif(p) < 0.3, runif(p), Inf)
      lower[2] <- -0  # a signed zero limit
      lambda <- 0.4
      j <- sample.int(p, 5000, replace = TRUE) - 1L
      threshold <- step * lambda * pf[j + 1] * alpha
      v <- c(rnorm(2000, sd = 0.5), rnorm(1000, sd = 50), threshold[3001:3500],
             -threshold[3501:4000], runif(500, -1e-300, 1e-300),
             rep(c(0, -0, 1e308, -1e308), 125))
      got <- dpglmnet:::.planned_prox_cpp(v, j, step, lambda, alpha, pf, lower,
                                          upper)
      expect_identical(got$planned, got$prox)
      # Signed zeros too (identical() does not tell +0 from -0).
      expect_identical(1 / got$planned, 1 / got$prox)
      # and prox itself is soft-threshold, shrink, clamp:
      l1 <- step * lambda * pf[j + 1] * alpha
      l2 <- step * lambda * pf[j + 1] * (1 - alpha)
      want <- pmin(pmax(sign(v) * pmax(abs(v) - l1, 0) / (1 + l2),
                        lower[j + 1]), upper[j + 1])
      expect_equal(got$prox, want, tolerance = 1e-15)
    }
  }
  expect_error(dpglmnet:::.planned_prox_cpp(1, 3L, 1, 1, 1, c(1, 1), c(0, 0),
                                            c(1, 1)), "j must be")
})
