# The dense sweeps (src/dpglmnet/kernels.h) are compiled once per instruction
# set; each one this processor runs must agree with a plain R computation.

test_that("simd exp is within a few ulps of exp() and clamps to normal numbers", {
  x <- c(seq(-720, 720, by = 0.0173), -708, 708, -1e-300, 0, 1e-300, -745, 800)
  got <- dpglmnet:::.simd_exp_cpp(x)
  want <- exp(pmin(pmax(x, -708), 708))
  expect_lt(max(abs(got / want - 1)), 1e-15)
  expect_true(all(is.finite(got) & got > 0))
  expect_equal(dpglmnet:::.simd_exp_cpp(c(0, 1, -1)), c(1, exp(1), exp(-1)),
               tolerance = 1e-16)
})

sweep_reference <- function(family, eta, y, update, change, gradient, clip) {
  if (!is.null(update)) eta <- eta + change * update
  d <- if (family == "binomial") plogis(eta) - y else eta - y
  list(sum = sum(pmin(pmax(d * gradient, -clip), clip)), eta = eta)
}

test_that("every supported instruction set computes the same fused sweep", {
  isas <- dpglmnet:::.simd_isa_cpp()
  expect_true("baseline" %in% isas)
  set.seed(11)
  for (n in c(1, 7, 16, 37, 1003)) {
    eta <- rnorm(n, sd = 4)
    eta[1] <- 800  # beyond the clamp of exp: the derivative is still exact
    y <- rbinom(n, 1, 0.5)
    update <- rnorm(n)
    gradient <- rnorm(n, sd = 2)
    for (family in c("gaussian", "binomial")) {
      for (clip in c(0.3, Inf)) {
        for (with_update in c(TRUE, FALSE)) {
          u <- if (with_update) update else NULL
          want <- sweep_reference(family, eta, y, u, 0.7, gradient, clip)
          for (isa in isas) {
            got <- dpglmnet:::.dense_sweep_cpp(isa, family, eta, y, u, 0.7,
                                              gradient, clip)
            label <- paste(isa, family, clip, with_update, n)
            expect_equal(got$sum, want$sum, tolerance = 1e-13, label = label)
            expect_equal(got$eta, want$eta, tolerance = 1e-15, label = label)
          }
        }
      }
    }
  }
})

test_that("dense and sparse storage give the same DP-CD iterates", {
  set.seed(12)
  x <- matrix(rnorm(300 * 6), 300, 6)
  x[sample(length(x), 900)] <- 0
  sparse <- Matrix::Matrix(x, sparse = TRUE)
  for (family in c("gaussian", "binomial")) {
    y <- if (family == "binomial") rbinom(300, 1, 0.5) else rnorm(300)
    fits <- lapply(list(x, sparse), function(design) {
      set.seed(3)
      suppressMessages(dpglmnet(design, y, family = family, epsilon = 1,
                                delta = 1e-5, lambda = 0.05, passes = 5, standardize = FALSE))
    })
    expect_true(any(as.matrix(coef(fits[[1]]))[-1, ] != 0))
    expect_equal(as.matrix(coef(fits[[1]])), as.matrix(coef(fits[[2]])),
                 tolerance = 1e-10, label = family)
  }
})

test_that("the sweep's test hook refuses vectors of different lengths", {
  expect_error(dpglmnet:::.dense_sweep_cpp("baseline", "gaussian", rnorm(10), rnorm(9),
                                           NULL, 0, rnorm(10), 1), "one length")
  expect_error(dpglmnet:::.dense_sweep_cpp("baseline", "gaussian", rnorm(10), rnorm(10),
                                           rnorm(3), 1, rnorm(10), 1), "one length")
})
