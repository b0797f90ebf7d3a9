test_that("private smoothness constants are close to the exact ones", {
  set.seed(4)
  n <- 20000
  x <- cbind(rnorm(n), 10 * rnorm(n), runif(n))
  y <- rnorm(n)
  fit <- dpglmnet(x, y, epsilon = 1, x.bounds = c(5, 50, 1), lambda = 0.1,
                  standardize = FALSE, smoothness = "private",
                  passes = 1)
  exact <- colMeans(pmin(x^2, matrix(c(25, 2500, 1), n, 3, byrow = TRUE)))
  m <- fit$settings$smoothness_values[1:3]
  scale <- fit$settings$laplace_scale
  expect_equal(scale, 3 * c(25, 2500, 1) / (n * 0.1))
  # Laplace noise: |error| < 10 scales has probability 1 - e^-10 per column
  expect_true(all(abs(m - exact) < 10 * scale))
  expect_identical(fit$settings$smoothness, "private")
})

test_that("smoothness sources: exact for epsilon = Inf, clamped private values", {
  d <- simulate_gaussian(n = 100, p = 3)
  fit <- dpglmnet(d$x, d$y, epsilon = Inf, lambda = 0.1, passes = 1, standardize = FALSE)
  expect_identical(fit$settings$smoothness, "exact")
  expect_equal(fit$settings$smoothness_values[1:3], colMeans(d$x^2))
  # tiny n: private estimates stay inside [min(scale, bound), bound]
  fit2 <- dpglmnet(d$x[1:10, ], d$y[1:10], epsilon = 0.1, x.bounds = 2,
                   standardize = FALSE, smoothness = "private",
                   lambda = 0.1, passes = 1)
  m <- fit2$settings$smoothness_values[1:3]
  expect_true(all(m > 0 & m <= 4))
})
