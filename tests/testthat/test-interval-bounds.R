# x.bounds as intervals [lower_j, upper_j] (issue 18): one representation
# (lower, upper) inside; clamps follow the interval, magnitude sensitivities
# its envelope max(|lower|, |upper|), the standardization's moments its width.

quiet_fit <- function(expr) {
  suppressMessages(withCallingHandlers(expr, dpglmnet_warning = function(w) {
    invokeRestart("muffleWarning")
  }))
}

interval_data <- function(n = 400, p = 3, seed = 7, shift = 0) {
  set.seed(seed)
  x <- matrix(runif(n * p, -3, 3), n, p)
  y <- drop(x %*% c(1, -0.5, 0.25)[seq_len(p)]) + rnorm(n)
  list(x = x + shift, y = y)
}

test_that("symmetric bounds and the intervals [-b, b] give the same fit, bit for bit", {
  d <- interval_data()
  forms <- list(3, c(3, 3, 3), cbind(-3, 3), cbind(rep(-3, 3), 3),
                list(V1 = c(-3, 3), V2 = 3, V3 = c(-3, 3)))
  colnames(d$x) <- c("V1", "V2", "V3")
  fits <- lapply(forms, function(b) {
    set.seed(5)
    dpglmnet(d$x, d$y, epsilon = Inf, x.bounds = b, lambda = c(0.1, 0.01))
  })
  for (f in fits[-1]) {
    expect_identical(f$beta, fits[[1]]$beta)
    expect_identical(f$a0, fits[[1]]$a0)
    expect_identical(f$settings$x.bounds, fits[[1]]$settings$x.bounds)
  }
  # private fits too: the same releases, the same noise
  private <- lapply(list(3, cbind(-3, 3)), function(b) {
    set.seed(6)
    quiet_fit(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = b, y.bound = 10, nlambda = 3))
  })
  expect_identical(private[[1]]$beta, private[[2]]$beta)
  expect_identical(private[[1]]$settings$standardization,
                   private[[2]]$settings$standardization)
  # unstandardized DP-CD (clamped transform, quantile clip and smoothness)
  unstd <- lapply(list(3, cbind(-3, 3)), function(b) {
    set.seed(8)
    quiet_fit(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = b, y.bound = 10,
                       standardize = FALSE, nlambda = 3))
  })
  expect_identical(unstd[[1]]$beta, unstd[[2]]$beta)
})

test_that("data shifted into [18, 90]: the interval fit is glmnet's on the clamped data", {
  skip_if_not_installed("glmnet")
  d <- interval_data(shift = 54)  # values in [51, 57]
  d$x[1:5, 1] <- 100              # outside the interval: clamped to 90
  d$x[6:10, 2] <- 0               # clamped to 18
  clamped <- pmin(pmax(d$x, 18), 90)
  lambda <- c(0.1, 0.02)
  set.seed(3)
  fit <- dpglmnet(d$x, d$y, epsilon = Inf, x.bounds = cbind(18, 90), lambda = lambda,
                  passes = 200)
  ref <- glmnet::glmnet(clamped, d$y, lambda = lambda, thresh = 1e-14)
  expect_equal(as.matrix(coef(fit)), as.matrix(coef(ref)), tolerance = 1e-5,
               ignore_attr = TRUE)
  # unstandardized: the solvers read x through the interval's clamp (data
  # near 0, where coordinate descent with an intercept converges quickly)
  d <- interval_data()
  bounds <- cbind(c(-2.5, -1, -3), c(2, 3, 1))
  clamped <- pmin(pmax(d$x, rep(bounds[, 1], each = nrow(d$x))),
                  rep(bounds[, 2], each = nrow(d$x)))
  set.seed(3)
  fit <- dpglmnet(d$x, d$y, epsilon = Inf, x.bounds = bounds, lambda = lambda,
                  standardize = FALSE, passes = 200)
  ref <- glmnet::glmnet(clamped, d$y, lambda = lambda, standardize = FALSE, thresh = 1e-14)
  expect_equal(as.matrix(coef(fit)), as.matrix(coef(ref)), tolerance = 1e-5,
               ignore_attr = TRUE)
})

test_that("predict() and the validation link clamp new records to the interval", {
  d <- interval_data(shift = 54)
  set.seed(2)
  fit <- dpglmnet(d$x, d$y, epsilon = Inf, x.bounds = rbind(c(18, 90), c(50, 60), c(-100, 100)),
                  lambda = 0.05)
  newx <- rbind(c(10, 45, -200), c(95, 65, 200), c(20, 55, 3))
  clamped <- rbind(c(18, 50, -100), c(90, 60, 100), c(20, 55, 3))
  b <- as.matrix(coef(fit))
  expect_equal(unname(predict(fit, newx)), unname(cbind(1, clamped) %*% b))
  expect_equal(unname(predict(fit, newx)), unname(predict(fit, clamped)))
  # cv's validation link (R/rows.R) reads x through the same clamp
  expect_equal(unname(dpglmnet:::path_link(fit, newx)), unname(cbind(1, clamped) %*% b))
  expect_equal(fit$settings$x.lower, c(18, 50, -100))
  expect_equal(fit$settings$x.upper, c(90, 60, 100))
  expect_equal(fit$settings$x.bounds, c(90, 60, 100))  # the envelope
})

test_that("bad interval bounds are errors naming x.bounds, before any computation", {
  d <- interval_data(n = 50)
  colnames(d$x) <- c("a", "b", "c")
  bad <- list(
    cbind(c(1, 1, 1), c(1, 2, 3)),          # lower == upper
    cbind(c(2, 0, 0), c(1, 1, 1)),          # lower > upper
    cbind(c(NA, 0, 0), 1),                  # NA
    cbind(c(-Inf, 0, 0), 1),                # infinite
    cbind(-1, 1, 2),                        # 3 columns
    cbind(c(-1, -1), c(1, 1)),              # 2 rows for 3 columns
    matrix(c("a", "b"), 1),                 # not numeric
    c(18, 90),                              # a vector of the wrong length
    list(a = c(18, 90), b = 1),             # column c missing
    list(a = c(18, 90), b = 1, c = 1, d = 2), # unknown name
    list(a = c(18, 90, 100), b = 1, c = 1), # three numbers
    list(a = "x", b = 1, c = 1),            # not numeric
    list(a = -1, b = 1, c = 1),             # a negative symmetric bound
    list(c(18, 90), 1, 1),                  # no names
    structure(cbind(c(-1, -1, -1), 1), dimnames = list(c("a", "b", "zz"), NULL)),
    1e101                                   # beyond the largest bound
  )
  for (b in bad) {
    expect_dpglmnet_error(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = b, y.bound = 5),
                          "`x.bounds`")
  }
  # a list on a matrix without column names
  expect_dpglmnet_error(dpglmnet(unname(d$x), d$y, epsilon = 1,
                                 x.bounds = list(a = 1, b = 1, c = 1), y.bound = 5),
                        "`x.bounds`")
  # sparse x: its implicit zeros are never clamped, so every interval holds 0
  sx <- Matrix::Matrix(d$x * (abs(d$x) > 1), sparse = TRUE)
  expect_dpglmnet_error(dpglmnet(sx, d$y, epsilon = 1, x.bounds = cbind(c(1, -3, -3), 3),
                                 y.bound = 5), "`x.bounds`")
  # row names name the columns, in any order
  named <- structure(cbind(c(-3, 50, -3), c(3, 60, 3)), dimnames = list(c("c", "b", "a"), NULL))
  set.seed(1)
  fit <- quiet_fit(dpglmnet(d$x, d$y, epsilon = Inf, x.bounds = named, lambda = 0.1))
  expect_equal(fit$settings$x.lower, c(-3, 50, -3))
})

test_that("a data frame's dummies get [0, 1]; numeric columns take intervals by name", {
  set.seed(4)
  n <- 300
  df <- data.frame(age = runif(n, 18, 90), income = runif(n, 0, 1e5),
                   group = factor(sample(c("a", "b", "c"), n, TRUE)))
  y <- 0.02 * df$age + (df$group == "b") + rnorm(n)
  set.seed(1)
  fit <- quiet_fit(dpglmnet(df, y, epsilon = 1, y.bound = 10, nlambda = 3,
                            x.bounds = list(age = c(18, 90), income = c(0, 1e5))))
  expect_equal(rownames(fit$beta), c("age", "income", "groupb", "groupc"))
  expect_equal(fit$settings$x.lower, c(18, 0, 0, 0))
  expect_equal(fit$settings$x.upper, c(90, 1e5, 1, 1))
  expect_equal(fit$settings$x.bounds, c(90, 1e5, 1, 1))
  # a 2-column matrix with rows named by column is the same
  set.seed(1)
  same <- quiet_fit(dpglmnet(df, y, epsilon = 1, y.bound = 10, nlambda = 3,
                             x.bounds = rbind(income = c(0, 1e5), age = c(18, 90))))
  expect_identical(same$beta, fit$beta)
  # interactions: the product of the intervals ([18, 90] x [0, 1] = [0, 90])
  set.seed(1)
  inter <- quiet_fit(dpglmnet(y ~ age * group, data = cbind(df, y = y), epsilon = 1,
                              y.bound = 10, nlambda = 3,
                              x.bounds = list(age = c(18, 90))))
  expect_equal(rownames(inter$beta), c("age", "groupb", "groupc", "age:groupb", "age:groupc"))
  expect_equal(inter$settings$x.lower, c(18, 0, 0, 0, 0))
  expect_equal(inter$settings$x.upper, c(90, 1, 1, 90, 90))
  # symmetric numeric bounds keep [-b, b]
  numeric_design <- dpglmnet:::design_bounds(
    matrix(c(-2, 2, -3, 3), 2, dimnames = list(NULL, c("u", "v"))),
    stats::terms(~ u * v), c(1L, 2L, 3L), c("u", "v"))
  # (no column of a numeric term is 0/1 by the schema)
  expect_identical(attr(numeric_design, "binary"), c(FALSE, FALSE, FALSE))
  expect_identical(attr(numeric_design, "factor_block"), c(0L, 0L, 0L))
  attr(numeric_design, "binary") <- NULL
  attr(numeric_design, "factor_block") <- NULL
  expect_equal(numeric_design, cbind(lower = c(-2, -3, -6), upper = c(2, 3, 6)))
  # an unknown name, an interval on a factor
  expect_dpglmnet_error(dpglmnet(df, y, epsilon = 1, y.bound = 10,
                                 x.bounds = list(age = c(18, 90), income = 1, wage = 2)),
                        "`x.bounds`")
  expect_dpglmnet_error(dpglmnet(df, y, epsilon = 1, y.bound = 10,
                                 x.bounds = list(age = c(18, 90), income = 1, group = c(0, 1))),
                        "`x.bounds`")
})

# The released means of a column read over [18, 90] (standardization
# without histograms: n = 300 at epsilon = 1 cannot afford them, so the
# clamp is the public interval) over many seeds: their sd is the noise the
# ledger states, z * (upper - lower) / n with z the noise multiplier of the
# ledger's "mean of each column" row, 72 / n for the interval and 180 / n
# for the symmetric 90. Measured (these seeds, 60 fits each): sd 3.56 for
# the interval against 8.90 for the symmetric bound (ledger: 3.75 and
# 9.38); the released sd of the column 1.99 against 3.17. At n = 2000 and 20000 the histograms narrow the
# symmetric clamp to about [10, 90] and the gain is about 10% (sd of the
# released mean 0.72 against 0.79, n = 2000; 0.086 against 0.098, n = 20000).
test_that("an interval standardizes a column with less released noise than its envelope", {
  n <- 300
  set.seed(11)
  x <- cbind(age = runif(n, 18, 90), z = rnorm(n))
  y <- 0.05 * x[, "age"] + x[, "z"] + rnorm(n)
  released <- function(bounds, k) {
    set.seed(100 + k)
    fit <- quiet_fit(dpglmnet(x, y, epsilon = 1, x.bounds = bounds, y.bound = 20,
                              lambda = 0.01, passes = 1))
    rows <- fit$privacy$mechanisms
    list(mean = fit$settings$standardization$x_mean[1L],
         z = rows$noise_multiplier[grepl("mean of each column", rows$mechanism)],
         ranges = any(grepl("ranges", rows$mechanism)),
         lower = fit$settings$standardization$x_lower[1L],
         upper = fit$settings$standardization$x_upper[1L])
  }
  interval <- lapply(1:60, function(k) released(list(age = c(18, 90), z = 5), k))
  symmetric <- lapply(1:60, function(k) released(c(age = 90, z = 5), k))
  # no histograms at this n: the clamp is the public interval
  expect_false(interval[[1]]$ranges)
  expect_equal(c(interval[[1]]$lower, interval[[1]]$upper), c(18, 90))
  expect_equal(c(symmetric[[1]]$lower, symmetric[[1]]$upper), c(-90, 90))
  z <- interval[[1]]$z
  expect_equal(symmetric[[1]]$z, z)  # the same noise multiplier, budget and releases
  sd_interval <- sd(vapply(interval, `[[`, 0, "mean"))
  sd_symmetric <- sd(vapply(symmetric, `[[`, 0, "mean"))
  # the ledger's noise sd, by hand: z * width / n
  expect_equal(sd_interval, z * (90 - 18) / n, tolerance = 0.25)
  expect_equal(sd_symmetric, z * (90 + 90) / n, tolerance = 0.25)
  expect_lt(sd_interval, 0.6 * sd_symmetric)
})

# Years (and a normal column) with slope 0.1 on the year, fitted at epsilon 1
# with the symmetric bound 4030 for the year: the data, the fit and its
# warnings.
year_data <- function(years, n = 5000) {
  set.seed(1)
  x <- cbind(year = sample(years, n, TRUE), z = rnorm(n))
  y <- 0.1 * (x[, "year"] - 2007) + x[, "z"] + rnorm(n)
  set.seed(2)
  seen <- dpglmnet_warnings(fit <- dpglmnet(x, y, epsilon = 1, x.bounds = c(4030, 5),
                                            y.bound = 10))
  list(x = x, y = y, fit = fit, seen = seen)
}

test_that("a year inside symmetric bounds is dropped with a hint to give an interval", {
  # years 2000-2014 with bound 4030: the histograms resolve the column to
  # 1/32 of [-4030, 4030] (one fine bin, [1763, 2015)), too coarse for its
  # spread, so it reads as constant; the warning (from released values: the
  # clamp excludes 0) points to an interval, which resolves it (a column
  # near 0 is resolved by the log-spaced bins about 0: sd 1e-3 with bound
  # 100 reads as 0.001)
  d <- year_data(2000:2014)
  x <- d$x
  y <- d$y
  fit <- d$fit
  seen <- d$seen
  expect_true(fit$settings$standardization$x_constant[1L])
  expect_equal(unname(coef(fit)["year", ncol(coef(fit))]), 0)
  expect_true(any(grepl("released range of year lies on one side of 0", seen, fixed = TRUE)))
  set.seed(2)
  seen <- dpglmnet_warnings(fit <- dpglmnet(x, y, epsilon = 1, y.bound = 10,
                                            x.bounds = list(year = c(1995, 2020), z = 5)))
  expect_false(any(grepl("one side of 0", seen, fixed = TRUE)))
  expect_equal(unname(coef(fit)["year", ncol(coef(fit))]), 0.1, tolerance = 0.5)
})

test_that("a year whose counts straddle a fine bin's edge is floored, not dropped", {
  # years 2000-2015 with bound 4030: 2015 is the edge of two fine bins, so
  # the released counts show values in two places; its moments still cannot
  # resolve the spread, so it keeps the scale floor (a coefficient shrunk
  # towards 0, not 0) and the warning points to tighter bounds
  d <- year_data(2000:2015)
  fit <- d$fit
  seen <- d$seen
  r <- fit$settings$standardization
  expect_false(r$x_constant[1L])
  expect_true(r$x_floored[1L])
  slope <- unname(coef(fit)["year", ncol(coef(fit))])
  expect_gt(slope, 0)
  expect_lt(slope, 0.2)
  expect_true(any(grepl("(year).*show values in more than one place.*x.bounds", seen)))
})

test_that("magnitude sensitivities use the envelope max(|lower|, |upper|)", {
  d <- interval_data(shift = 54)
  # public smoothness constants from the bounds: curvature * envelope^2
  set.seed(1)
  fit <- quiet_fit(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = cbind(c(18, -100, 40), c(90, 60, 70)),
                            y.bound = 10, standardize = FALSE, smoothness = "bounds",
                            clip = 1, nlambda = 2, passes = 1))
  expect_equal(fit$settings$smoothness_values[1:3], c(90, 100, 70)^2)
  # DP-SCD: the record norm bound sqrt(sum(envelope^2))
  set.seed(1)
  scd <- quiet_fit(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = cbind(c(18, -100, 40), c(90, 60, 70)),
                            solver = "dpscd", alpha = 0, intercept = FALSE, standardize = FALSE,
                            nlambda = 2, passes = 1, y.bound = 10))
  expect_equal(scd$settings$row_bound, sqrt(90^2 + 100^2 + 70^2))
})

test_that("summary() shows the public intervals", {
  d <- interval_data(shift = 54)
  set.seed(1)
  fit <- quiet_fit(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = cbind(18, 90), y.bound = 10,
                            nlambda = 2))
  cols <- summary(fit)$columns
  expect_equal(cols$bound_lower, rep(18, 3))
  expect_equal(cols$bound_upper, rep(90, 3))
  expect_equal(cols$bound, rep(90, 3))
  expect_output(print(summary(fit)), "bound_lower")
})

# y.bound as an interval c(lower, upper) (issue 18, "likewise for y"): y is
# clamped to [lower, upper], its standardization moments follow the width,
# magnitude bounds read the envelope max(|lower|, |upper|).

y_interval_data <- function(n = 300, seed = 21) {
  set.seed(seed)
  x <- matrix(runif(n * 3, -3, 3), n, 3)
  y <- 150 + drop(x %*% c(5, -3, 2)) + rnorm(n, sd = 5)
  list(x = x, y = y)
}

test_that("y.bound = b and c(-b, b) give the same fit, bit for bit", {
  d <- interval_data()
  forms <- list(5, c(-5, 5), c(-5L, 5L))
  fits <- lapply(forms, function(b) {
    set.seed(5)
    dpglmnet(d$x, d$y, epsilon = Inf, x.bounds = 3, y.bound = b, lambda = c(0.1, 0.01))
  })
  for (f in fits[-1]) {
    expect_identical(f$beta, fits[[1]]$beta)
    expect_identical(f$a0, fits[[1]]$a0)
    expect_identical(f$settings$y.bound, 5)
  }
  # private fits, standardized and not: the same releases, the same noise
  for (standardize in c(TRUE, FALSE)) {
    private <- lapply(list(5, c(-5, 5)), function(b) {
      set.seed(6)
      quiet_fit(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 3, y.bound = b, nlambda = 3,
                         standardize = standardize))
    })
    expect_identical(private[[1]]$beta, private[[2]]$beta)
    expect_identical(private[[1]]$a0, private[[2]]$a0)
    expect_identical(private[[1]]$settings$standardization,
                     private[[2]]$settings$standardization)
    expect_identical(private[[1]]$privacy, private[[2]]$privacy)
  }
  expect_equal(c(fits[[2]]$settings$y.lower, fits[[2]]$settings$y.upper), c(-5, 5))
})

test_that("a response in [100, 200]: the interval fit is glmnet's on the clamped response", {
  skip_if_not_installed("glmnet")
  d <- y_interval_data()
  d$y[1:5] <- 250   # beyond the interval: clamped to 200
  d$y[6:10] <- 20   # clamped to 100
  clamped <- pmin(pmax(d$y, 100), 200)
  lambda <- c(1, 0.1)
  for (standardize in c(TRUE, FALSE)) {
    set.seed(3)
    fit <- dpglmnet(d$x, d$y, epsilon = Inf, x.bounds = 3, y.bound = c(100, 200),
                    lambda = lambda, standardize = standardize, passes = 200)
    ref <- glmnet::glmnet(d$x, clamped, lambda = lambda, standardize = standardize,
                          thresh = 1e-14)
    expect_equal(as.matrix(coef(fit)), as.matrix(coef(ref)), tolerance = 1e-5,
                 ignore_attr = TRUE)
  }
  expect_equal(fit$settings$y.bound, 200)  # the envelope
  expect_equal(c(fit$settings$y.lower, fit$settings$y.upper), c(100, 200))
})

test_that("y's standardization moments have noise from the interval's width", {
  d <- y_interval_data()
  n <- nrow(d$x)
  # the noise sds the standardization passes to the core, per call
  seen <- new.env()
  # (x's and y's moments are released in one call, .release_columns_cpp)
  trace(".release_columns_cpp", where = asNamespace("dpglmnet"), print = FALSE,
        tracer = bquote(if (kind == "moments") for (k in seq_along(designs)) {
          assign("calls", c(get("calls", .(seen)), list(list(
            p = ncol(designs[[k]]), mean_sd = settings[[k]]$mean_sd,
            second_sd = settings[[k]]$second_sd))), envir = .(seen))
        }))
  on.exit(untrace(".release_columns_cpp", where = asNamespace("dpglmnet")), add = TRUE)
  released <- function(bound) {
    seen$calls <- list()
    set.seed(4)
    fit <- quiet_fit(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 3, y.bound = bound,
                              lambda = 0.01, passes = 1))
    rows <- fit$privacy$mechanisms
    y_rows <- grepl("of y, clamped", rows$mechanism, fixed = TRUE)
    expect_equal(sum(y_rows), 2L)
    # no histograms at this n: y is read over the public interval
    expect_false(any(grepl("ranges of y", rows$mechanism, fixed = TRUE)))
    y_call <- Filter(function(k) k$p == 1L, seen$calls)
    expect_length(y_call, 1L)
    list(z = unique(rows$noise_multiplier[y_rows]), call = y_call[[1L]])
  }
  interval <- released(c(100, 200))
  # by hand: noise multiplier x sensitivity, width / n for the mean and
  # (width / 2)^2 / n for the second moment about the midpoint
  expect_length(interval$z, 1L)
  expect_equal(interval$call$mean_sd, interval$z * (200 - 100) / n)
  expect_equal(interval$call$second_sd, interval$z * 50^2 / n)
  # the symmetric envelope [-200, 200] has 4 and 16 times the noise
  symmetric <- released(200)
  expect_equal(symmetric$z, interval$z)
  expect_equal(symmetric$call$mean_sd, symmetric$z * 400 / n)
  expect_equal(symmetric$call$second_sd, symmetric$z * 200^2 / n)
})

test_that("bad y.bound values are errors naming y.bound, before any computation", {
  d <- y_interval_data(n = 50)
  bad <- list(c(200, 100), c(100, 100), c(NA, 1), c(-Inf, 1), c(0, Inf), c(1, 2, 3),
              numeric(0), "5", c("1", "2"), list(1, 2), -1, 0, NA, Inf, c(0, 1e101),
              matrix(c(1, 2, 3, 4), 2), factor(1))
  for (b in bad) {
    expect_dpglmnet_error(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 3, y.bound = b),
                          "`y.bound`")
  }
  yb <- as.numeric(d$y > 150)
  expect_dpglmnet_error(dpglmnet(d$x, yb, family = "binomial", epsilon = 1, x.bounds = 3,
                                 y.bound = c(0, 1)), "`y.bound`")
})

test_that("y is clamped to its interval, and a response beyond it is reported", {
  # a response far above the interval: the existing warnings say so
  # (unstandardized at epsilon = 1, the intercepts' noise follows the
  # envelope 200: they agree at n = 20000, in 6 of 10 fits at n = 2000)
  for (settings in list(list(epsilon = 1, n = 2000),
                        list(epsilon = Inf, standardize = FALSE, n = 2000),
                        list(epsilon = 1, standardize = FALSE, n = 20000))) {
    d <- y_interval_data(n = settings$n)
    settings$n <- NULL
    set.seed(1)
    seen <- dpglmnet_warnings(do.call(dpglmnet, c(list(x = d$x, y = d$y + 1000, x.bounds = 3,
                                                       y.bound = c(100, 200)), settings)))
    expect_true(any(grepl("`y.bound` may be too small", seen, fixed = TRUE)),
                label = paste(names(settings), settings, collapse = ", "))
  }
  # and far below it, at the lower end
  d <- y_interval_data(n = 2000)
  set.seed(1)
  seen <- dpglmnet_warnings(dpglmnet(d$x, d$y - 1000, epsilon = Inf, x.bounds = 3,
                                     y.bound = c(100, 200), standardize = FALSE,
                                     lambda = 0.1))
  expect_true(any(grepl("near the lower end 100", seen, fixed = TRUE)))
  # a response inside the interval: nothing of the kind (its level, 150, is
  # far from 0.9 of the envelope and from the ends)
  for (settings in list(list(epsilon = 1), list(epsilon = 1, standardize = FALSE))) {
    set.seed(1)
    seen <- dpglmnet_warnings(do.call(dpglmnet, c(list(x = d$x, y = d$y, x.bounds = 3,
                                                       y.bound = c(100, 200)), settings)))
    expect_false(any(grepl("y.bound` may", seen, fixed = TRUE)))
  }
  # the fit at epsilon = Inf is the fit of the clamped response
  set.seed(2)
  y <- d$y
  y[1:100] <- 500
  a <- quiet_fit(dpglmnet(d$x, y, epsilon = Inf, x.bounds = 3, y.bound = c(100, 200),
                          lambda = 0.1))
  set.seed(2)
  b <- quiet_fit(dpglmnet(d$x, pmin(y, 200), epsilon = Inf, x.bounds = 3,
                          y.bound = c(100, 200), lambda = 0.1))
  expect_identical(a$beta, b$beta)
  expect_identical(a$a0, b$a0)
})

test_that("print() and summary() show an asymmetric y.bound; cv's loss bound uses the envelope", {
  d <- y_interval_data()
  set.seed(1)
  fit <- quiet_fit(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 3, y.bound = c(100, 200),
                            nlambda = 2))
  expect_output(print(fit), "y clamped to its public interval [100, 200]", fixed = TRUE)
  response <- summary(fit)$response
  expect_equal(c(response$bound, response$bound_lower, response$bound_upper), c(200, 100, 200))
  expect_output(print(summary(fit)), "bound_lower")
  set.seed(1)
  symmetric <- quiet_fit(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 3, y.bound = 200,
                                  nlambda = 2))
  expect_false(any(grepl("public interval", capture.output(print(symmetric)))))
  expect_null(summary(symmetric)$response$bound_lower)
  # unstandardized: the default validation loss bound is the envelope squared
  set.seed(1)
  cvfit <- quiet_fit(cv.dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 3, y.bound = c(100, 200),
                                 standardize = FALSE, nlambda = 3))
  expect_equal(cvfit$loss.bound, 200^2)
})

test_that("sparse x: the moments read the released clamp, so one record moves them by the noise only", {
  set.seed(7)
  n <- 20000
  x <- Matrix::rsparsematrix(n, 2, density = 0.3, rand.x = function(k) runif(k, 0, 1))
  x <- methods::as(x, "CsparseMatrix")
  y <- as.numeric(x %*% c(1, -1)) + rnorm(n)
  neighbour <- x
  neighbour[which(x[, 1] != 0)[1], 1] <- 1000  # one record replaced, at the public bound
  fit_on <- function(x) {
    set.seed(1)
    muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, x.bounds = 1000, y.bound = 10,
                                      lambda = 0.01, passes = 1))
  }
  a <- fit_on(x)$settings$standardization
  b <- fit_on(neighbour)$settings$standardization
  # same seed, same released clamp: the column's released sd barely moves
  # (it moved from 0.44 to 7 when the moments read x clamped to the public
  # bound only, with noise set for the released clamp)
  expect_equal(a$x_upper, b$x_upper)
  expect_lt(abs(b$x_sd[1] - a$x_sd[1]), 0.05)
})

test_that("formula terms computed from all the records (scale()) are refused", {
  set.seed(2)
  df <- data.frame(age = runif(300, 18, 90), g = factor(sample(c("a", "b"), 300, TRUE)))
  df$y <- df$age / 50 + rnorm(300)
  expect_dpglmnet_error(dpglmnet(y ~ scale(age) + g, data = df, epsilon = 1,
                                 x.bounds = list(age = c(18, 90)), y.bound = 10),
                        "`x`")
  # per-record maps are fine
  fit <- muffle_dpglmnet_warnings(dpglmnet(y ~ log(age) + g, data = df, epsilon = Inf))
  expect_s3_class(fit, "dpglmnet")
  # cut() with a number of breaks takes them from the range of age (its
  # levels would name the data's minimum and maximum), and a summary of a
  # column inside a term: refused before the data are read
  for (formula in list(y ~ cut(age, 3) + g, y ~ I(age / max(age)) + g,
                       y ~ I(age - mean(age)), y ~ base::rank(age))) {
    expect_dpglmnet_error(dpglmnet(formula, data = df, epsilon = 1, y.bound = 10,
                                   x.bounds = list(age = c(18, 90))),
                          "computed from all the records")
  }
  # explicit breaks are public: the term is a per-record map
  for (formula in list(y ~ cut(age, c(18, 40, 60, 90)) + g,
                       y ~ cut(age, breaks = seq(18, 90, by = 18)))) {
    fit <- muffle_dpglmnet_warnings(dpglmnet(formula, data = df, epsilon = Inf))
    expect_s3_class(fit, "dpglmnet")
  }
})

test_that("factor dummies on [0, 1] do not warn that x.bounds may be too small", {
  set.seed(5)
  n <- 5000
  df <- data.frame(age = runif(n, 18, 90), g = factor(sample(c("a", "b", "c"), n, TRUE)))
  df$y <- df$age / 30 + (df$g == "b") - (df$g == "c") + rnorm(n)
  seen <- dpglmnet_warnings(dpglmnet(y ~ age + g, data = df, epsilon = 1,
                                     x.bounds = list(age = c(18, 90)), y.bound = c(-5, 10)))
  expect_false(any(grepl("`x.bounds` may be too small", seen, fixed = TRUE)))
  # an age crammed at the top of its interval does warn
  df$age <- pmin(df$age + 200, 90)
  seen <- dpglmnet_warnings(dpglmnet(y ~ age + g, data = df, epsilon = 1,
                                     x.bounds = list(age = c(18, 90)), y.bound = c(-5, 10)))
  expect_true(any(grepl("`x.bounds` may be too small for column age", seen, fixed = TRUE)))
})

test_that("a rare dummy on [0, 1] without histograms is not said to sit at its bound", {
  set.seed(11)
  n <- 400
  df <- data.frame(age = runif(n, 18, 90), rare = rbinom(n, 1, 0.02))
  df$y <- 0.05 * df$age + 2 * df$rare + rnorm(n)
  seen <- dpglmnet_warnings(dpglmnet(y ~ age + rare, data = df, epsilon = 1,
                                     x.bounds = list(age = c(18, 90), rare = c(0, 1)),
                                     y.bound = c(-5, 15)))
  expect_false(any(grepl("may be too small", seen, fixed = TRUE)))
})
