# Findings of an independent first-use review (session 30): a glmnet
# user's scripts with the private functions.

quietly <- function(expr) muffle_dpglmnet_warnings(expr)
# every warning but the one about character columns muffled
quietly_except_character <- function(expr) {
  withCallingHandlers(expr, dpglmnet_warning = function(w) {
    if (!grepl("character column", conditionMessage(w), fixed = TRUE)) {
      invokeRestart("muffleWarning")
    }
  })
}

test_that("a named x.bounds vector is matched to a matrix's columns by name", {
  set.seed(15)
  n <- 3000
  x <- cbind(small = rnorm(n), big = rnorm(n, sd = 100))
  y <- drop(x %*% c(1, 0.01)) + rnorm(n)
  fit_with <- function(bounds) {
    set.seed(1)
    quietly(dpglmnet(x, y, epsilon = 1, x.bounds = bounds, y.bound = 30, solver = "dpcd"))
  }
  by_name <- fit_with(c(big = 500, small = 5))
  as_list <- fit_with(list(big = 500, small = 5))
  in_order <- fit_with(c(5, 500))
  expect_identical(by_name$beta, as_list$beta)
  expect_identical(by_name$beta, in_order$beta)
  expect_equal(by_name$settings$x.upper, c(5, 500))
  # one value with a name that is no column (quantile()'s "100%") is one
  # bound for every column, as before
  expect_identical(fit_with(c("100%" = 500))$beta, fit_with(500)$beta)
  # named in part, as c(1, apply(...)) makes it: read in column order, its
  # names checked against the columns at their places
  expect_identical(fit_with(c(5, big = 500))$beta, in_order$beta)
  expect_dpglmnet_error(dpglmnet(x, y, epsilon = 1, x.bounds = c(5, small = 500),
                                 y.bound = 30), "named in part")
  # names matching no column, a column without a bound, or no names on x:
  # errors naming the argument, before any release
  expect_dpglmnet_error(dpglmnet(x, y, epsilon = 1, x.bounds = c(small = 5, zz = 500),
                                 y.bound = 30), "`zz`")
  expect_dpglmnet_error(dpglmnet(x, y, epsilon = 1, x.bounds = c(small = 5), y.bound = 30),
                        "`big`")
  expect_dpglmnet_error(dpglmnet(unname(x), y, epsilon = 1, x.bounds = c(small = 5, big = 500),
                                 y.bound = 30), "no column names")
})

test_that("a private standardized gaussian fit needs y.bound, as cv.dpglmnet()", {
  d <- simulate_gaussian(n = 300, p = 3)
  y <- d$y + 650
  expect_dpglmnet_error(dpglmnet(d$x, y, epsilon = 1, x.bounds = 20), "`y.bound`")
  expect_dpglmnet_error(cv.dpglmnet(d$x, y, epsilon = 1, x.bounds = 20), "`y.bound`")
  # not where y is used as it is, without privacy, or for a bounded response
  expect_s3_class(quietly(dpglmnet(d$x, y, epsilon = 1, x.bounds = 20, standardize = FALSE)),
                  "dpglmnet")
  expect_s3_class(dpglmnet(d$x, y, epsilon = Inf, nlambda = 3), "dpglmnet")
  b <- simulate_binomial(n = 300, p = 3)
  expect_s3_class(quietly(dpglmnet(b$x, b$y, family = "binomial", epsilon = 1, x.bounds = 5)),
                  "dpglmnet")
  # the x.bounds error still comes first
  expect_dpglmnet_error(dpglmnet(d$x, y, epsilon = 1), "`x.bounds`")
})

test_that("the raised clip stops where no term can reach it: a huge epsilon reaches glmnet", {
  set.seed(15)
  n <- 5000
  x <- matrix(rnorm(n * 4), n, 4)
  y <- drop(x %*% c(1, -1, 0.5, 0)) + rnorm(n)
  set.seed(1)
  fit <- quietly(dpglmnet(x, y, epsilon = 1e8, x.bounds = 8, y.bound = 20, solver = "dpcd"))
  s <- fit$settings
  # each clip is at most the largest term |x~_ij| * 2 max|y~_i| (released
  # clamps; the intercept's x~ is 1), so the noise falls with epsilon
  response <- s$standardization
  y_reach <- 2 * max(abs(c(response$y_lower, response$y_upper) - response$y_mean)) /
    response$y_sd
  values <- pmax(abs(response$x_lower - response$x_center),
                 abs(response$x_upper - response$x_center)) * response$x_scale
  expect_true(all(s$coordinate_clip <= c(values, 1) * y_reach * (1 + 1e-12)))
  expect_true(all(s$noise_sd < 1e-4))
  expect_output(print(summary(fit)), "largest term it can hold")
  # not with record weights (each term times up to W n / S), nor a clip given
  set.seed(1)
  weighted <- quietly(dpglmnet(x, y, epsilon = 1e8, x.bounds = 8, y.bound = 20,
                               solver = "dpcd", weights = rep(1, n), weights.bound = 50))
  expect_gt(max(weighted$settings$coordinate_clip), max(c(values, 1) * y_reach))
  given <- quietly(dpglmnet(x, y, epsilon = 1e8, x.bounds = 8, y.bound = 20,
                            solver = "dpcd", clip = 1e4, lambda = 0.01))
  expect_equal(given$settings$coordinate_clip,
               sqrt(given$settings$smoothness_values / sum(given$settings$smoothness_values)) * 1e4)
  last <- length(fit$lambda)
  reference <- glmnet::glmnet(pmin(pmax(x, -8), 8), y, lambda = fit$lambda[last])
  expect_equal(as.numeric(coef(fit)[, last]), as.numeric(coef(reference)), tolerance = 0.02)
})

test_that("the ledger says what lies outside its guarantee", {
  set.seed(14)
  n <- 3000
  df <- data.frame(age = runif(n, 18, 80), job = sample(c("a", "b", "c"), n, TRUE),
                   out = sample(c("yes", "no"), n, TRUE), stringsAsFactors = FALSE)
  df$cost <- 10 * df$age + rnorm(n, sd = 50)
  expect_warning(fit <- quietly_except_character(dpglmnet(cost ~ age + job, data = df,
                                                          epsilon = 1,
                                                          x.bounds = c(age = 100),
                                                          y.bound = 2000)),
                 "character column `job`")
  expect_match(fit$privacy$disclosures, "character column `job`")
  printed <- paste(capture.output(print(fit$privacy)), collapse = " ")
  expect_match(printed, "Outside the guarantee", fixed = TRUE)
  expect_match(printed, "seed stays secret", fixed = TRUE)
  # a character column the formula leaves out is neither warned about nor
  # disclosed
  fit2 <- quietly(dpglmnet(cost ~ . - job - out, data = df, epsilon = 1,
                           x.bounds = c(age = 100), y.bound = 2000))
  expect_null(fit2$privacy$disclosures)
  # a factor made of it in the formula reveals its levels too, unless the
  # call declares them
  made <- quietly(dpglmnet(cost ~ factor(job) + age, data = df, epsilon = 1,
                           x.bounds = c(age = 100), y.bound = 2000))
  expect_match(made$privacy$disclosures, "`job`")
  declared <- quietly(dpglmnet(cost ~ factor(job, levels = c("a", "b", "c")) + age, data = df,
                               epsilon = 1, x.bounds = c(age = 100), y.bound = 2000))
  expect_null(declared$privacy$disclosures)
  # cv.dpglmnet(): on the cv object and its fits
  cvfit <- quietly(cv.dpglmnet(cost ~ age + job, data = df, epsilon = 1,
                               x.bounds = c(age = 100), y.bound = 2000))
  expect_match(cvfit$privacy$disclosures, "`job`")
  expect_match(cvfit$dpglmnet.fit$privacy$disclosures, "`job`")
})

test_that("an exponential mechanism accounted as zCDP is labelled so", {
  set.seed(3)
  n <- 400
  p <- 60
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x[, 1:3] %*% c(2, -2, 1)) + rnorm(n)
  fit <- quietly(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 20, solver = "dpfw",
                          standardize = FALSE))
  expect_identical(fit$privacy$method, "rdp")
  printed <- paste(capture.output(print(fit$privacy)), collapse = " ")
  expect_match(printed, "per release, composed as zCDP", fixed = TRUE)
  # no Laplace row: no claim of basic composition with pure-DP mechanisms
  expect_false(any(fit$privacy$mechanisms$type == "laplace"))
  expect_no_match(fit$privacy$accountant, "basic composition", fixed = TRUE)
})

test_that("a column piled at its bound is said so, from released counts", {
  set.seed(13)
  n <- 6000
  x <- cbind(a = rnorm(n), u = runif(n, -1, 1), inc = rlnorm(n, 3, 1))
  y <- 650 + 8 * x[, "a"] + 2 * x[, "u"] + 0.2 * x[, "inc"] + rnorm(n, sd = 10)
  messages <- function(bounds) {
    out <- character(0)
    set.seed(1)
    withCallingHandlers(dpglmnet(x, y, epsilon = 1, x.bounds = bounds, y.bound = 1400,
                                 solver = "dpcd"),
                        warning = function(w) {
                          out <<- c(out, conditionMessage(w))
                          invokeRestart("muffleWarning")
                        })
    paste(out, collapse = " ")
  }
  # half of inc above 20: a pile at the bound
  expect_match(messages(c(8, 1, 20)), "`x.bounds` may be too small for inc: its", fixed = TRUE)
  # bounds that cover the data, or a uniform column whose exact bound is
  # given (1/32 of it per end bin): no such word
  expect_no_match(messages(c(8, 1, 2000)), "may be too small", fixed = TRUE)
  # an interval is schema (values at its ends are the data): not read as a pile
  expect_no_match(messages(list(a = 8, u = 1, inc = c(0, 20))), "may be too small for inc",
                  fixed = TRUE)
  # nor values at 0 and the bound only: model.matrix()'s dummies of common
  # levels with bound 1, a coded +-1
  g <- sample(c("p", "q", "r"), n, TRUE, prob = c(0.5, 0.3, 0.2))
  x <- cbind(x, q = as.numeric(g == "q"), r = as.numeric(g == "r"),
             s = sample(c(-1, 1), n, TRUE))
  # (a coded +-1 still gets the older word about values at both ends)
  expect_no_match(messages(c(8, 1, 2000, 1, 1, 1)), "last 1/32 of the bound", fixed = TRUE)
})

test_that("a factor whose baseline level cannot be resolved is said so", {
  set.seed(8)
  n <- 4000
  levels <- c("rare", "a", "b", "c")
  g <- sample(levels, n, TRUE, prob = c(0.004, 0.4, 0.3, 0.296))
  df <- data.frame(v = rnorm(n), g = factor(g, levels = levels))
  df$y <- df$v + (df$g == "b") - (df$g == "c") + rnorm(n)
  warned <- function(data) {
    out <- character(0)
    set.seed(2)
    withCallingHandlers(dpglmnet(y ~ ., data = data, epsilon = 1, x.bounds = c(v = 8),
                                 y.bound = 20, solver = "dpcd"),
                        warning = function(w) {
                          out <<- c(out, conditionMessage(w))
                          invokeRestart("muffleWarning")
                        })
    paste(out, collapse = " ")
  }
  expect_match(warned(df), "factor `g` (baseline \"rare\")", fixed = TRUE)
  df$g <- stats::relevel(df$g, "a")
  expect_no_match(warned(df), "baseline", fixed = TRUE)
})

test_that("an s off a one-lambda fit's lambda is said so, not silently ignored", {
  d <- simulate_gaussian(n = 2000, p = 4)
  set.seed(1)
  fit <- quietly(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 20, y.bound = 20, solver = "dpcd"))
  expect_length(fit$lambda, 1L)
  expect_warning(b <- coef(fit, s = 0.1), "single lambda", class = "dpglmnet_warning")
  expect_equal(as.numeric(b), as.numeric(coef(fit)))
  expect_warning(predict(fit, d$x[1:3, ], s = c(0.1, 0.01)), "single lambda")
  expect_no_warning(coef(fit, s = fit$lambda))
  expect_no_warning(coef(fit))
})

test_that("a validation curve within its own noise is said so", {
  set.seed(13)
  n <- 300
  x <- cbind(a = rnorm(n), b = rnorm(n), c = rnorm(n))
  y <- 2 * x[, 1] + rnorm(n)
  messages <- character(0)
  set.seed(1)
  withCallingHandlers(cv.dpglmnet(x, y, epsilon = 1, x.bounds = 8, y.bound = 20,
                                  lambda = c(0.5, 0.1, 0.01)),
                      warning = function(w) {
                        messages <<- c(messages, conditionMessage(w))
                        invokeRestart("muffleWarning")
                      })
  expect_true(any(grepl("chosen mostly by", messages, fixed = TRUE)))
  # the rule, on released values: a spread well above the noise's range is not
  warn_noisy_curve <- dpglmnet:::warn_noisy_curve
  expect_no_warning(warn_noisy_curve(c(1, 0.8, 0.6, 0.5), 0.01))
  expect_warning(warn_noisy_curve(c(0.51, 0.5, 0.52, 0.5), 0.01), "mostly by")
  expect_no_warning(warn_noisy_curve(c(0.51, 0.5), 0))
})
