test_that("the blocked permutation of wide problems reaches the optimum cyclic order reaches", {
  # 70000 coordinates: past the threshold (65536) where the permutation is
  # drawn as shuffled blocks of 64 coordinates (src/dpglmnet/dpcd.h).
  set.seed(11)
  n <- 300; p <- 70000
  x <- Matrix::rsparsematrix(n, p, 2e-4, rand.x = function(k) runif(k, -1, 1))
  x[cbind(1:5, 1:5)] <- 1
  y <- as.numeric(x[, 1:5] %*% c(2, -1, 1, 0.5, -2)) + rnorm(n, sd = 0.1)
  fit <- function(selection) dpglmnet(x, y, epsilon = Inf, lambda = 0.01, passes = 60,
                                      selection = selection, smoothness = "exact",
                                          standardize = FALSE)
  blocked <- fit("permutation")
  cyclic <- fit("cyclic")
  expect_equal(as.numeric(blocked$beta), as.numeric(cyclic$beta), tolerance = 1e-6)
  expect_equal(blocked$a0, cyclic$a0, tolerance = 1e-6)
})

test_that("the blocked permutation visits every coordinate once per pass", {
  # Disjoint columns: one pass of exact coordinate minimization solves the
  # problem whatever the order, if and only if every coordinate is visited.
  set.seed(12)
  p <- 70000
  x <- methods::as(Matrix::Diagonal(p, x = runif(p, 0.5, 1)), "CsparseMatrix")
  y <- rnorm(p)
  # (one pass: the convergence warning is expected)
  fit <- function(selection) suppressWarnings(dpglmnet(
    x, y, epsilon = Inf, lambda = 1e-12, passes = 1, intercept = FALSE,
    selection = selection, smoothness = "exact", standardize = FALSE))
  blocked <- fit("permutation")
  expect_equal(as.numeric(blocked$beta), as.numeric(fit("cyclic")$beta), tolerance = 1e-12)
  expect_true(all(blocked$beta != 0))
})

test_that("a dense fit is the same with 1 and 2 threads, noise included", {
  set.seed(13)
  n <- 70000; p <- 3  # from 65536 records the sweeps may run on threads
  x <- matrix(rnorm(n * p), n, p)
  y <- as.numeric(x %*% c(1, -1, 0.5) + rnorm(n) > 0)
  fit <- function(threads) {
    old <- options(dpglmnet.threads = threads)
    on.exit(options(old))
    set.seed(14)
    dpglmnet(x, y, family = "binomial", epsilon = 1, x.bounds = 4, passes = 2,
             nlambda = 3)
  }
  one <- fit(1)
  two <- fit(2)
  expect_identical(as.numeric(one$beta), as.numeric(two$beta))
  expect_identical(one$a0, two$a0)
  expect_identical(one$privacy$epsilon, two$privacy$epsilon)
})

test_that("options(dpglmnet.threads) is checked before any computation", {
  old <- options(dpglmnet.threads = 0)
  on.exit(options(old))
  x <- matrix(rnorm(20), 10, 2)
  expect_error(dpglmnet(x, rnorm(10), epsilon = Inf, lambda = 0.1, standardize = FALSE),
               class = "dpglmnet_error", regexp = "dpglmnet.threads")
  options(dpglmnet.threads = "2")
  expect_error(dpglmnet(x, rnorm(10), epsilon = Inf, lambda = 0.1, standardize = FALSE),
               class = "dpglmnet_error")
})
