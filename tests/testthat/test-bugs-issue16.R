# Regression tests for the user reports collected in issue 16, one block
# per report (each failed before its fix).

# Every constant a call holds, however deeply nested.
call_leaves <- function(e) {
  if (is.call(e)) unlist(lapply(as.list(e), call_leaves), recursive = FALSE) else list(e)
}
holds_any <- function(call, values) {
  any(vapply(call_leaves(call), function(v) {
    (is.numeric(v) || is.matrix(v) || is.data.frame(v)) && any(unlist(v) %in% values)
  }, logical(1)))
}

test_that("16.1: a fit made with do.call() keeps no record in its call", {
  d <- simulate_gaussian(n = 200, p = 3)
  records <- c(d$x, d$y)
  fit <- muffle_dpglmnet_warnings(do.call(dpglmnet, list(
    x = d$x, y = d$y, epsilon = 1, x.bounds = c(4, 20, 4), y.bound = 10,
    lambda = c(0.5, 0.1), passes = 2)))
  expect_false(holds_any(fit$call, records))
  expect_identical(fit$call[[1L]], quote(dpglmnet))  # not the closure do.call() put there
  expect_identical(fit$call$x, quote(x))
  expect_identical(fit$call$y, quote(y))
  # public hyperparameters given as short vectors stay
  expect_equal(fit$call$x.bounds, c(4, 20, 4))
  expect_equal(fit$call$lambda, c(0.5, 0.1))
  expect_lt(as.numeric(utils::object.size(fit$call)), 5000)
  printed <- c(capture.output(print(fit)), capture.output(print(summary(fit))))
  expect_true(any(grepl("dpglmnet(x = x, y = y", printed, fixed = TRUE)))
  expect_false(any(grepl(format(d$y[1], digits = 7), printed, fixed = TRUE)))

  # a handful of records typed into the call is still data: x and y keep
  # only symbols
  small <- do.call(dpglmnet, list(x = d$x[1:5, ], y = d$y[1:5], epsilon = Inf,
                                  lambda = 0.1, passes = 2000))
  expect_false(holds_any(small$call, records))
  typed <- eval(bquote(dpglmnet(x = .(d$x[1:5, ]), y = c(.(d$y[1]), .(d$y[2]), .(d$y[3]),
                                                        .(d$y[4]), .(d$y[5])),
                                epsilon = Inf, lambda = 0.1, passes = 2000, standardize = FALSE)))
  expect_identical(typed$call$y, quote(y))
  # long or shaped values of other arguments, and data inside expressions,
  # become a placeholder
  long <- muffle_dpglmnet_warnings(do.call(dpglmnet, list(
    x = d$x, y = d$y, epsilon = Inf, lambda = exp(seq(0, -3, length.out = 20)),
    passes = 2)))
  expect_identical(long$call$lambda, as.name("<data>"))
  nested <- dpglmnet:::public_call(as.call(list(
    quote(dpglmnet), x = quote(X), y = as.call(list(quote(log1p), abs(d$y))),
    penalty.factor = as.call(list(quote(rev), d$y)))), "dpglmnet")
  expect_false(holds_any(nested, c(records, abs(d$y))))
  expect_identical(nested$x, quote(X))
  expect_identical(nested$y, quote(y))
  expect_identical(nested$penalty.factor, quote(rev(`<data>`)))

  cvfit <- muffle_dpglmnet_warnings(do.call(cv.dpglmnet, list(
    x = d$x, y = d$y, epsilon = 1, x.bounds = 4, y.bound = 10, nlambda = 3, passes = 2)))
  expect_false(holds_any(cvfit$call, records))
  expect_false(holds_any(cvfit$dpglmnet.fit$call, records))
  expect_identical(cvfit$call[[1L]], quote(cv.dpglmnet))
  expect_identical(cvfit$call$x, quote(x))
  printed <- capture.output(print(cvfit))
  expect_true(any(grepl("cv.dpglmnet(x = x, y = y", printed, fixed = TRUE)))
})

test_that("16.2: loss.bound and clip are capped; report-noisy-max stays stable", {
  d <- simulate_gaussian(n = 100, p = 2)
  expect_dpglmnet_error(cv.dpglmnet(d$x, d$y, y.bound = 5, loss.bound = 1e101, standardize = FALSE),
                        "`loss.bound`")
  expect_dpglmnet_error(cv.dpglmnet(d$x, d$y, y.bound = 5, loss.bound = Inf, standardize = FALSE),
                        "`loss.bound`")
  expect_dpglmnet_error(dpglmnet(d$x, d$y, clip = 1e101, standardize = FALSE), "`clip`")
  expect_dpglmnet_error(dpglmnet(d$x, d$y, clip = Inf, standardize = FALSE), "`clip`")
  # the largest public loss.bound is accepted, and the curve it releases is
  # a finite computation (summed on the losses divided by B): with
  # B = 1e100 the noise swamps the losses
  set.seed(4)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(
    d$x, d$y, y.bound = 5, loss.bound = 1e100, epsilon = 1, lambda = c(0.5, 0.1),
    passes = 2, standardize = FALSE))
  expect_equal(cvfit$loss.bound, 1e100)
  expect_true(all(is.finite(cvfit$cvm)) && all(is.finite(cvfit$cvsd)))
  expect_gt(cvfit$cvsd.noise, 1e95)
  expect_true(cvfit$lambda.min %in% c(0.5, 0.1))
  # huge scales: u + scale G overflowed to Inf, and the first of tied
  # infinities always won; computed as (u - max u) / scale + G, every index
  # keeps its chance (uniform in the limit)
  for (scale in c(1e308, .Machine$double.xmax, Inf)) {
    picks <- dpglmnet:::.report_noisy_max_cpp(c(0, -1, -2, -3), list(
      scale = scale, draws = 20000L, seed = c(7, 8), secure = FALSE))
    expect_gt(stats::chisq.test(tabulate(picks, 4), p = rep(0.25, 4))$p.value, 1e-4)
  }
  # tiny scales and huge utilities: still the exponential mechanism's law
  utility <- c(0, 1, 2) * 1e300
  picks <- dpglmnet:::.report_noisy_max_cpp(utility, list(
    scale = 1e300, draws = 20000L, seed = c(9, 10), secure = FALSE))
  expected <- exp(0:2) / sum(exp(0:2))
  expect_gt(stats::chisq.test(tabulate(picks, 3), p = expected)$p.value, 1e-4)
})

test_that("16.3: a single-lambda fit is charged only the releases it makes", {
  set.seed(3)
  n <- 200; p <- 2
  x <- matrix(rnorm(n * p), n, p)
  y <- x[, 1] + rnorm(n)
  # the schedule affords one lambda (0.25 / sqrt(n)), which needs no
  # lambda_max (DP-CD given: the automatic choice at this n is the
  # intercept alone)
  fit <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 10,
                                           solver = "dpcd"))
  expect_length(fit$lambda, 1L)
  m <- fit$privacy$mechanisms
  expect_false(any(grepl("lambda_max", m$mechanism)))
  # (one release per coordinate with a step: a column read as constant,
  # held at 0, makes none, R/dpcd.R)
  path <- m$count[startsWith(m$mechanism, "DP-CD clipped coordinate gradients")]
  expect_equal(path, fit$settings$passes * sum(fit$settings$coordinate_step > 0))
  # the ledger counts the path and the standardization, nothing else
  standardization <- startsWith(m$mechanism, "standardization")
  expect_equal(sum(m$count), path + sum(m$count[standardization]))
  expect_match(fit$settings$lambda_max_source, "single lambda")
  # the plan agrees
  planned <- dpglmnet:::planned_ledger(dpglmnet:::planned_problem(
    x, y, list(epsilon = 1, x.bounds = 4, y.bound = 10, solver = "dpcd")))
  standardization_rows <- function(m) planned_columns(m)[startsWith(m$mechanism, "standardization"), ]
  expect_equal(standardization_rows(planned$mechanisms),
               standardization_rows(fit$privacy$mechanisms))
  planned_path <- planned$mechanisms[planned$mechanisms$key == "path", ]
  fitted_path <- fit$privacy$mechanisms[fit$privacy$mechanisms$key == "path", ]
  expect_equal(planned_path$count, fit$settings$passes * (p + 1))
  expect_equal(sqrt(fitted_path$count) / fitted_path$noise_multiplier,
               sqrt(planned_path$count) / planned_path$noise_multiplier, tolerance = 1e-12)
  # several lambdas still release lambda_max privately where no public
  # bound gives it (y as it is)
  several <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, x.bounds = 4,
                                               nlambda = 3, passes = 1, standardize = FALSE))
  expect_true(any(grepl("lambda_max", several$privacy$mechanisms$mechanism)))
})

test_that("16.4: cv.dpglmnet passes lambda.min.ratio on (no partial matching)", {
  d <- simulate_gaussian(n = 300, p = 3)
  set.seed(1)
  cvfit <- cv.dpglmnet(d$x, d$y, epsilon = Inf, y.bound = 20, lambda.min.ratio = 0.1,
                       nlambda = 3, passes = 20, standardize = FALSE)
  expect_length(cvfit$lambda, 3L)
  expect_equal(cvfit$lambda[3] / cvfit$lambda[1], 0.1)
  # a single-value lambda is still refused by name
  expect_dpglmnet_error(cv.dpglmnet(d$x, d$y, y.bound = 5, lambda = 0.1,
      standardize = FALSE), "`lambda`")
})

test_that("16.5: predict() takes one record as a vector or a one-row matrix", {
  d <- simulate_gaussian(n = 200, p = 3)
  fit <- dpglmnet(d$x, d$y, epsilon = Inf, lambda = c(0.5, 0.1), passes = 50, standardize = FALSE)
  both <- predict(fit, d$x[1:2, ])
  expect_equal(predict(fit, d$x[1, ]), both[1, , drop = FALSE])
  expect_equal(predict(fit, d$x[2, , drop = FALSE]), both[2, , drop = FALSE])
  expect_equal(predict(fit, Matrix::Matrix(d$x[1, , drop = FALSE], sparse = TRUE)),
               both[1, , drop = FALSE])
  expect_equal(predict(fit, d$x[1, ], s = 0.3), predict(fit, d$x[1:2, ], s = 0.3)[1, ,
                                                                                  drop = FALSE])
  expect_dpglmnet_error(predict(fit, d$x[1, 1:2]), "`newx`")
  expect_dpglmnet_error(predict(fit, d$x[1, , drop = FALSE][, 1:2, drop = FALSE]), "`newx`")
  expect_dpglmnet_error(predict(fit, d$x[0, , drop = FALSE]), "`newx`")
  # a standardized private fit clamps the record as it clamps a matrix
  private <- muffle_dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 20,
                                               y.bound = 20, nlambda = 3, passes = 2))
  expect_equal(predict(private, d$x[1, ]), predict(private, d$x[1:3, ])[1, , drop = FALSE])
  # binomial classes, and cv fits
  b <- simulate_binomial(n = 300, p = 3)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(b$x, b$y, family = "binomial",
                                                epsilon = Inf, lambda = c(0.1, 0.01),
                                                passes = 30, standardize = FALSE))
  expect_equal(predict(cvfit, b$x[1, ], type = "class"),
               predict(cvfit, b$x[1:2, ], type = "class")[1, , drop = FALSE])
  expect_equal(predict(cvfit, b$x[4, , drop = FALSE], type = "response"),
               predict(cvfit, b$x[3:4, ], type = "response")[2, , drop = FALSE])
  # fitting still needs two records
  expect_dpglmnet_error(dpglmnet(d$x[1, , drop = FALSE], d$y[1], standardize = FALSE), "`x`")
})

test_that("16.6: a few records fit with the default solver; batch.size only matters to minibatch solvers", {
  set.seed(6)
  n <- 5; p <- 2
  x <- matrix(rnorm(n * p), n, p)
  y <- x[, 1] + rnorm(n)
  exact <- dpglmnet(x, y, epsilon = Inf, lambda = 0.1, passes = 2000, standardize = FALSE)
  expect_s3_class(exact, "dpglmnet")
  private <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, standardize = FALSE))
  expect_s3_class(private, "dpglmnet")
  bounded <- muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 5))
  expect_s3_class(bounded, "dpglmnet")
  for (n_small in 2:9) {
    expect_s3_class(muffle_dpglmnet_warnings(dpglmnet(
      x[rep_len(1:5, n_small), , drop = FALSE], y[rep_len(1:5, n_small)], epsilon = 1,
      nlambda = 2, passes = 1, standardize = FALSE)), "dpglmnet")
  }
  # DP-CD ignores batch.size, whatever its value
  expect_s3_class(muffle_dpglmnet_warnings(dpglmnet(x, y, epsilon = 1, batch.size = 100,
                                                    nlambda = 2, passes = 1,
                                                        standardize = FALSE)), "dpglmnet")
  # minibatch solvers: the default is at most n; a given value is checked
  sgd <- muffle_dpglmnet_warnings(dpglmnet(x, y, solver = "dpsgd", epsilon = 1,
                                           nlambda = 2, passes = 1, standardize = FALSE))
  expect_equal(sgd$settings$batch.size, n)
  expect_dpglmnet_error(dpglmnet(x, y, solver = "dpsgd", batch.size = 6,
      standardize = FALSE), "`batch.size`")
  expect_dpglmnet_error(dpglmnet(x, y, solver = "dpsgd", batch.size = 0,
      standardize = FALSE), "`batch.size`")
})

test_that("16.7: a y.bound far below the response is reported from released values", {
  d <- simulate_gaussian(n = 2000, p = 3)
  far <- d$y + 1000
  for (settings in list(list(epsilon = 1, x.bounds = 4),
                        list(epsilon = Inf, x.bounds = 4),
                        list(epsilon = Inf, standardize = FALSE),
                        list(epsilon = 1, x.bounds = 4, standardize = FALSE))) {
    set.seed(1)
    seen <- dpglmnet_warnings(do.call(dpglmnet, c(list(x = d$x, y = far, y.bound = 8),
                                                  settings)))
    expect_true(any(grepl("`y.bound` may be too small", seen, fixed = TRUE)),
                label = paste(names(settings), settings, collapse = ", "))
  }
  # a y.bound that covers the response says nothing of the kind
  set.seed(1)
  seen <- dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 20, y.bound = 15))
  expect_false(any(grepl("y.bound` may", seen, fixed = TRUE)))
  set.seed(1)
  seen <- dpglmnet_warnings(dpglmnet(d$x, far, epsilon = Inf, y.bound = 1500,
                                     standardize = FALSE, lambda = 0.1, passes = 200))
  expect_false(any(grepl("y.bound` may", seen, fixed = TRUE)))
})

test_that("16.8: x.bounds far below the data is reported, not silent", {
  d <- simulate_gaussian(n = 2000, p = 3)
  for (standardize in c(TRUE, FALSE)) {
    set.seed(2)
    expect_warning(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = 1e-50, y.bound = 10,
                            standardize = standardize),
                   "`x.bounds` may be too small for columns V1, V2, V3",
                   class = "dpglmnet_warning")
  }
  # one column too tight, the others fine
  set.seed(2)
  seen <- dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = c(4, 20, 1e-3),
                                     y.bound = 10))
  expect_true(any(grepl("too small for column V3:", seen, fixed = TRUE)))
  # bounds that cover the data: no such warning
  set.seed(2)
  seen <- dpglmnet_warnings(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = c(4, 20, 4),
                                     y.bound = 10))
  expect_false(any(grepl("x.bounds` may", seen, fixed = TRUE)))
  # below the public floor: an error naming the argument
  expect_dpglmnet_error(dpglmnet(d$x, d$y, x.bounds = 1e-101), "`x.bounds`")
})

test_that("16.9: a two-column binomial y is a one-hot indicator matrix, or a clear error", {
  b <- simulate_binomial(n = 300, p = 3)
  onehot <- cbind(no = 1 - b$y, yes = b$y)
  set.seed(1)
  from_matrix <- dpglmnet(b$x, onehot, family = "binomial", epsilon = Inf,
                          lambda = c(0.1, 0.01), passes = 30, standardize = FALSE)
  set.seed(1)
  from_factor <- dpglmnet(b$x, factor(ifelse(b$y == 1, "yes", "no"), levels = c("no", "yes")),
                          family = "binomial", epsilon = Inf, lambda = c(0.1, 0.01),
                          passes = 30, standardize = FALSE)
  expect_equal(from_matrix$beta, from_factor$beta)
  expect_equal(from_matrix$a0, from_factor$a0)
  expect_identical(from_matrix$classnames, c("no", "yes"))
  expect_true(all(predict(from_matrix, b$x[1:5, ], type = "class") %in% c("no", "yes")))
  unnamed <- dpglmnet(b$x, unname(onehot), family = "binomial", epsilon = Inf,
                      lambda = 0.1, passes = 50, standardize = FALSE)
  expect_identical(unnamed$classnames, c("1", "2"))
  expect_s3_class(dpglmnet(b$x, as.data.frame(onehot), family = "binomial", epsilon = Inf,
                           lambda = 0.1, passes = 50, standardize = FALSE), "dpglmnet")
  # counts and proportions need weights: refused, naming y and what is accepted
  counts <- onehot * 3
  err <- expect_dpglmnet_error(dpglmnet(b$x, counts, family = "binomial",
      standardize = FALSE), "`y`")
  expect_match(conditionMessage(err), "one 1 per row")
  expect_dpglmnet_error(dpglmnet(b$x, onehot / 2, family = "binomial",
      standardize = FALSE), "one 1 per row")
  expect_dpglmnet_error(dpglmnet(b$x, cbind(onehot, 0), family = "binomial", standardize = FALSE),
                        "two-column 0/1 indicator matrix")
  expect_dpglmnet_error(dpglmnet(b$x, onehot[-1, ], family = "binomial",
      standardize = FALSE), "one row per row")
  expect_dpglmnet_error(dpglmnet(b$x, onehot, family = "gaussian", standardize = FALSE), "`y`")
  with_na <- onehot
  with_na[2, 1] <- NA
  expect_dpglmnet_error(dpglmnet(b$x, with_na, family = "binomial", standardize = FALSE), "`y`")
  # cv.dpglmnet takes it too
  set.seed(3)
  cvfit <- cv.dpglmnet(b$x, onehot, family = "binomial", epsilon = Inf,
                       lambda = c(0.1, 0.01), passes = 30, standardize = FALSE)
  expect_true(cvfit$lambda.min %in% c(0.1, 0.01))
})

test_that("16.10: cv.dpglmnet fits on all records when the budget affords one lambda", {
  set.seed(3)
  n <- 200; p <- 2
  x <- matrix(rnorm(n * p), n, p)
  y <- x[, 1] + rnorm(n)
  set.seed(2)
  seen <- character(0)
  cvfit <- withCallingHandlers(
    # (solver = "dpcd": "auto" fits the intercept alone at this n,
    # tests/testthat/test-intercept.R)
    cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8, solver = "dpcd"),
    dpglmnet_warning = function(w) {
      seen <<- c(seen, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  expect_true(any(grepl("on all 200 records", seen, fixed = TRUE)))
  expect_length(cvfit$validation, 0L)
  expect_equal(cvfit$dpglmnet.fit$nobs, n)
  expect_length(cvfit$lambda, 1L)
  expect_equal(cvfit$lambda.min, cvfit$dpglmnet.fit$lambda)
  m <- cvfit$privacy$mechanisms
  expect_false(any(grepl("validation curve", m$mechanism)))
  expect_false(any(m$type == "exponential"))
  expect_setequal(m$part, 0L)
  expect_equal(cvfit$privacy$epsilon, cvfit$dpglmnet.fit$privacy$epsilon)
  expect_lte(cvfit$privacy$epsilon, 1)
  expect_equal(coef(cvfit), coef(cvfit$dpglmnet.fit, s = cvfit$lambda.min))
  expect_equal(unname(predict(cvfit, x[1:3, ])), unname(predict(cvfit$dpglmnet.fit, x[1:3, ])))
  expect_output(print(cvfit), "Fitted on all 200 records")

  # between the two: the training part of a split affords one lambda (fewer
  # than 6, R/dpglmnet.R min_path_lambdas), all records six; with no
  # validation part to choose among them, one lambda on all records
  n <- 3600
  x <- matrix(rnorm(n * p), n, p)
  y <- x[, 1] + rnorm(n)
  expect_length(muffle_dpglmnet_warnings(
    dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8))$lambda, 6L)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4,
                                                y.bound = 8))
  expect_length(cvfit$lambda, 1L)
  expect_length(cvfit$validation, 0L)
  expect_equal(cvfit$dpglmnet.fit$nobs, n)
  expect_equal(cvfit$dpglmnet.fit$settings$passes, 10L)
  expect_false(any(grepl("lambda_max", cvfit$privacy$mechanisms$mechanism)))
  expect_lte(cvfit$privacy$epsilon, 1)
  expect_equal(cvfit$privacy$epsilon, 1, tolerance = 1e-6)  # the whole budget is used
  # the user's nlambda = 1: all records too
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(x, y, epsilon = Inf, y.bound = 8,
                                                nlambda = 1, passes = 5, standardize = FALSE))
  expect_length(cvfit$validation, 0L)
  expect_equal(cvfit$dpglmnet.fit$nobs, n)
})
