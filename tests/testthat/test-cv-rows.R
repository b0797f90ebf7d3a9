# cv.dpglmnet() reads its training and validation parts of x in place, as
# row subsets (R/rows.R, src/dpglmnet/design.h RowSubset), instead of
# copying them (issue 19). Everything must be the same number for number as
# on explicit copies.

rows_data <- function(n, p, seed, sparse = FALSE) {
  set.seed(seed)
  x <- if (sparse) {
    m <- Matrix::rsparsematrix(n, p, 0.3) * 3
    methods::as(methods::as(m, "generalMatrix"), "CsparseMatrix")
  } else {
    matrix(2 * rnorm(n * p), n, p, dimnames = list(NULL, paste0("v", seq_len(p))))
  }
  eta <- as.numeric(x %*% c(1, -1, 0.5, rep(0, p - 3)))
  list(x = x, y = eta + rnorm(n), yb = as.numeric(eta + rnorm(n) > 0))
}

# The fit's numbers (not its call, which names its arguments).
fit_numbers <- function(fit) fit[c("a0", "beta", "lambda", "df", "dim", "nobs", "privacy",
                                  "settings")]

# cv.dpglmnet() as it was before issue 19, on explicit copies: the split,
# the path on x[-validation, ], and the curve on x[validation, ] with
# predict()'s linear predictor, drawing from R's RNG in the same order.
cv_on_copies <- function(x, y, family, type.measure, epsilon, ...) {
  n <- nrow(x)
  held_out <- round(0.2 * n)
  validation <- sort(sample.int(n, held_out))
  fit <- dpglmnet(x[-validation, , drop = FALSE], y[-validation], family = family,
                  epsilon = epsilon, delta = 1 / n^2, ...)
  fam <- dpglmnet:::dpglmnet_family(family)
  K <- length(fit$lambda)
  second <- type.measure != "class"
  ratio <- dpglmnet:::curve_noise_ratio(K, held_out, type.measure, list(), epsilon, 1 / n^2)
  loss.bound <- min(dpglmnet:::default_loss_bound(type.measure, fit, list(...)$y.bound, ratio),
                    dpglmnet:::natural_loss_bound(type.measure, fam))
  rows <- dpglmnet:::curve_mechanisms(K, held_out, loss.bound, second)
  z <- dpglmnet:::calibrate_noise(dpglmnet:::mechanism_table(rows), epsilon, 1 / n^2)
  link <- predict(fit, x[validation, , drop = FALSE], type = "link")
  curve <- dpglmnet:::curve_ledger(rows, z, epsilon, K, held_out, loss.bound, second)
  released <- dpglmnet:::release_curve(
    dpglmnet:::validation_loss(type.measure, fam, link, y[validation]), loss.bound, curve,
    second, "seeded")
  list(fit = fit, validation = validation, cvm = pmin(pmax(released$mean, 0), loss.bound))
}

for (sparse in c(FALSE, TRUE)) {
  test_that(sprintf("cv.dpglmnet() on row subsets equals the fit on copies (%s x)",
                    if (sparse) "sparse" else "dense"), {
    d <- rows_data(3000, 6, 21, sparse)
    for (family in c("gaussian", "binomial")) {
      y <- if (family == "gaussian") d$y else d$yb
      args <- list(x.bounds = 3, nlambda = 4)
      if (family == "gaussian") args$y.bound <- 8
      set.seed(7)
      cvfit <- muffle_dpglmnet_warnings(do.call(cv.dpglmnet, c(
        list(d$x, y, family = family, epsilon = 1), args)))
      set.seed(7)
      reference <- muffle_dpglmnet_warnings(do.call(cv_on_copies, c(
        list(d$x, y, family, if (family == "gaussian") "mse" else "deviance", 1), args)))
      expect_identical(cvfit$validation, reference$validation)
      expect_identical(fit_numbers(cvfit$dpglmnet.fit), fit_numbers(reference$fit))
      expect_identical(cvfit$cvm, reference$cvm)
      expect_true(length(cvfit$lambda) > 1L)
      expect_true(any(cvfit$dpglmnet.fit$beta != 0))
    }
  })
}

test_that("every solver fits a row subset as it fits the copy of its rows", {
  solvers <- c("dpcd", "dpsgd", "dpscd", "dpfw", "nmd", "dpfw-vr")
  for (sparse in c(FALSE, TRUE)) {
    d <- rows_data(2500, 5, 22, sparse)
    rows <- sort(sample.int(nrow(d$x), 1900))
    for (solver in solvers) for (family in c("gaussian", "binomial")) {
      y <- if (family == "gaussian") d$y else d$yb
      args <- list(family = family, epsilon = 1, x.bounds = 3, solver = solver,
                   nlambda = 3)
      if (family == "gaussian") args$y.bound <- 8
      if (solver == "dpscd") args[c("alpha", "intercept")] <- list(0, FALSE)
      fit_on <- function(x) {
        set.seed(3)
        muffle_dpglmnet_warnings(do.call(dpglmnet, c(list(x, y[rows]), args)))
      }
      expect_identical(fit_numbers(fit_on(dpglmnet:::record_subset(d$x, rows))),
                       fit_numbers(fit_on(d$x[rows, , drop = FALSE])),
                       label = paste(solver, family, if (sparse) "sparse" else "dense"))
    }
  }
})

test_that("dense row subsets sweep in chunks and threads as the copy does", {
  # more records than a chunk (8192) and than the threaded minimum (65536)
  d <- rows_data(90000, 4, 23)
  rows <- sort(sample.int(nrow(d$x), 70000))
  old <- options(dpglmnet.threads = 2L)
  on.exit(options(old))
  copy <- d$x[rows, , drop = FALSE]
  subset <- dpglmnet:::record_subset(d$x, rows)
  # (random selection repeats coordinates: a step whose update and gradient
  # columns are the same; averaging; the cyclic order)
  for (selection in c("permutation", "random", "cyclic")) {
    fit_on <- function(x) {
      set.seed(4)
      muffle_dpglmnet_warnings(dpglmnet(x, d$yb[rows], family = "binomial", epsilon = 1,
                                        x.bounds = 3, nlambda = 2, passes = 3,
                                        selection = selection,
                                        average = selection == "random"))
    }
    expect_identical(fit_numbers(fit_on(subset)), fit_numbers(fit_on(copy)),
                     label = selection)
  }
})

test_that("the validation link read in place is predict()'s", {
  for (sparse in c(FALSE, TRUE)) {
    d <- rows_data(1500, 5, 24, sparse)
    for (bounds in list(NULL, 2)) {
      set.seed(5)
      fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = Inf, nlambda = 5,
                                               x.bounds = bounds, standardize = FALSE))
      rows <- sort(sample.int(nrow(d$x), 300))
      expect_identical(
        dpglmnet:::path_link(fit, dpglmnet:::record_subset(d$x, rows)),
        unname(predict(fit, d$x[rows, , drop = FALSE], type = "link")))
    }
  }
})

test_that("a row subset has the dimensions and names of the copy", {
  d <- rows_data(50, 4, 25)
  s <- dpglmnet:::record_subset(d$x, c(2L, 5L, 9L))
  expect_identical(dim(s), c(3L, 4L))
  expect_identical(colnames(s), colnames(d$x))
  expect_identical(dpglmnet:::variable_names(s), dpglmnet:::variable_names(d$x))
  expect_false(dpglmnet:::is_sparse_x(s))
  expect_true(dpglmnet:::is_sparse_x(dpglmnet:::record_subset(
    methods::as(Matrix::Matrix(d$x, sparse = TRUE), "generalMatrix"), 1:3)))
  # fewer rows than a fit needs: dpglmnet()'s own error
  expect_dpglmnet_error(dpglmnet(dpglmnet:::record_subset(d$x, 3L), d$y[3],
                                 epsilon = Inf), "x")
})

test_that("bad rows never reach the core", {
  d <- rows_data(40, 3, 26)
  for (rows in list(c(3, 2), c(1, 1), c(0, 2), c(2, 41), c(1.5, 2), c(1, NA))) {
    expect_error(dpglmnet:::record_subset(d$x, rows), "internal error")
  }
  transform <- list(lower = NULL, upper = NULL, center = NULL, scale = NULL)
  settings <- list(transform = transform, curvature = 1)
  good <- dpglmnet:::record_subset(d$x, c(1L, 4L))
  expect_equal(dpglmnet:::.exact_smoothness_cpp(good, settings),
               dpglmnet:::.exact_smoothness_cpp(d$x[c(1, 4), ], settings))
  # built by hand, past the R checks: the interface refuses it
  for (rows in list(c(2L, 1L), c(0L, 0L), c(-1L, 2L), c(0L, 40L), c(0, 1))) {
    for (x in list(d$x, methods::as(Matrix::Matrix(d$x, sparse = TRUE), "generalMatrix"))) {
      bad <- structure(list(x = x, rows = rows), class = "dpglmnet_rows")
      expect_error(dpglmnet:::.exact_smoothness_cpp(bad, settings), "internal error")
    }
  }
})
