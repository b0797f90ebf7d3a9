# Coordinates held at 0 (columns the released standardization reads as
# constant, or limits [0, 0]) take no DP-CD step: the path's row is spread
# over the others at the same privacy cost (R/privacy.R respread_release()).

held_design <- function(n = 2000, seed = 21) {
  set.seed(seed)
  x <- cbind(matrix(rnorm(n * 3), n, 3), matrix(1, n, 3))
  y <- drop(x[, 1:3] %*% c(1, -0.5, 0.25)) + rnorm(n)
  list(x = x, y = y)
}

test_that("columns read as constant release nothing; the path's GDP mu is the planned one", {
  d <- held_design()
  arguments <- list(epsilon = 1, delta = 1e-6, x.bounds = 4, y.bound = 10)
  set.seed(22)
  fit <- muffle_dpglmnet_warnings(do.call(dpglmnet, c(list(d$x, d$y), arguments)))
  held <- fit$settings$standardization$x_constant
  expect_true(all(held[4:6]))
  expect_false(any(held[1:3]))
  expect_true(all(coef(fit)[5:7, ] == 0))
  rows <- as.data.frame(fit$privacy)
  path <- rows[grepl("^DP-CD clipped coordinate gradients", rows$mechanism), ]
  expect_match(path$mechanism, "held at 0 release nothing")
  # one release per moving coordinate (3 features and the intercept) and pass
  expect_equal(path$count, length(fit$lambda) * fit$settings$passes * 4)
  # the planned row: every coordinate, a larger multiplier, the same mu
  planned <- as.data.frame(dpglmnet:::planned_ledger(dpglmnet:::planned_problem(
    d$x, d$y, arguments)))
  planned_path <- planned[grepl("^DP-CD clipped coordinate gradients", planned$mechanism), ]
  expect_equal(planned_path$count, length(fit$lambda) * fit$settings$passes * 7)
  expect_lt(path$noise_multiplier, planned_path$noise_multiplier)
  expect_equal(sqrt(path$count) / path$noise_multiplier,
               sqrt(planned_path$count) / planned_path$noise_multiplier, tolerance = 1e-12)
  # (rounded to the safe side)
  expect_lte(sqrt(path$count) / path$noise_multiplier,
             sqrt(planned_path$count) / planned_path$noise_multiplier)
  # the total by hand: every row Gaussian, composed in GDP
  mu <- sqrt(sum(rows$count / rows$noise_multiplier^2))
  expect_equal(fit$privacy$epsilon, gdp_epsilon(mu, 1e-6), tolerance = 1e-10)
  expect_lte(fit$privacy$epsilon, 1)
  # the noise of each moving coordinate is the spread row's multiplier
  # times its sensitivity 2 C_j / n
  moving <- c(1:3, 7)
  expect_equal(fit$settings$noise_sd[moving],
               path$noise_multiplier * 2 * fit$settings$coordinate_clip[moving] / 2000)
  expect_true(all(fit$settings$coordinate_step[4:6] == 0))
})

test_that("limits [0, 0] hold a column without a release, and cv.dpglmnet() spends the target", {
  d <- held_design()
  set.seed(23)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x[, 1:3], d$y, epsilon = 1, x.bounds = 4,
                                           y.bound = 10, lower.limits = c(-Inf, 0, -Inf),
                                           upper.limits = c(Inf, 0, Inf)))
  expect_true(all(coef(fit)[3, ] == 0))
  rows <- as.data.frame(fit$privacy)
  path <- rows[grepl("^DP-CD clipped coordinate gradients", rows$mechanism), ]
  expect_equal(path$count, length(fit$lambda) * fit$settings$passes * 3)
  set.seed(24)
  cv <- muffle_dpglmnet_warnings(cv.dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4,
                                             y.bound = 10))
  expect_lte(cv$privacy$epsilon, 1)
  expect_true(all(coef(cv)[5:7, ] == 0))
})

test_that("with random selection the planned row stays (an upper bound on the releases)", {
  d <- held_design()
  set.seed(27)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 10,
                                           selection = "random"))
  rows <- as.data.frame(fit$privacy)
  path <- rows[grepl("^DP-CD clipped coordinate gradients", rows$mechanism), ]
  # every draw of every pass counted, as planned: held units drawn release
  # nothing, so the row counts at least the releases made
  expect_equal(path$count, length(fit$lambda) * fit$settings$passes * 7)
  expect_false(grepl("held at 0", path$mechanism))
  expect_lte(fit$privacy$epsilon, 1)
})

test_that("without an intercept and every column held, the path releases nothing", {
  set.seed(26)
  x <- matrix(1, 500, 2)
  y <- rnorm(500)
  fit <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 5,
                                           intercept = FALSE))
  expect_true(all(coef(fit) == 0))
  rows <- as.data.frame(fit$privacy)
  path <- rows[grepl("^DP-CD clipped coordinate gradients", rows$mechanism), ]
  expect_equal(path$count, 0)
  expect_match(path$mechanism, "nothing released")
  expect_lte(fit$privacy$epsilon, 1)
  cv <- muffle_dpglmnet_warnings(cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 5,
                                             intercept = FALSE))
  expect_lte(cv$privacy$epsilon, 1)
})

test_that("a release is never spread over more runs, nor a non-Gaussian row", {
  d <- held_design()
  set.seed(25)
  fit <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 4, y.bound = 10))
  ledger <- fit$privacy
  count <- as.data.frame(ledger)$count[match("path", ledger$mechanisms$key)]
  expect_error(dpglmnet:::respread_release(ledger, "path", count + 1, ""), "fewer")
  expect_identical(dpglmnet:::respread_release(ledger, "path", count, ""), ledger)
})
