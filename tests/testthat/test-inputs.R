d <- simulate_gaussian(n = 50, p = 3)
x <- d$x
y <- d$y

test_that("bad x is refused before any computation", {
  bad <- x; bad[3, 2] <- NA
  expect_dpglmnet_error(dpglmnet(bad, y), "`x`")
  bad[3, 2] <- NaN
  expect_dpglmnet_error(dpglmnet(bad, y), "`x`")
  bad[3, 2] <- Inf
  expect_dpglmnet_error(dpglmnet(bad, y), "`x`")
  # (data frames are accepted since issue 18: test-glmnet-script.R)
  expect_dpglmnet_error(dpglmnet(as.list(as.data.frame(x)), y), "`x`")
  expect_dpglmnet_error(dpglmnet(matrix(letters[1:6], 3), 1:3), "`x`")
  expect_dpglmnet_error(dpglmnet(x[1, , drop = FALSE], y[1]), "`x`")
  sparse <- Matrix::Matrix(x, sparse = TRUE)
  sparse@x[1] <- NA
  expect_dpglmnet_error(dpglmnet(sparse, y), "`x`")
})

test_that("the error says which kind of non-finite value x holds", {
  for (value in c(NA, NaN)) {
    bad <- x; bad[length(bad)] <- value
    expect_dpglmnet_error(dpglmnet(bad, y), "must not contain NA or NaN")
  }
  for (value in c(Inf, -Inf)) {
    bad <- x; bad[1] <- value
    expect_dpglmnet_error(dpglmnet(bad, y), "must not contain Inf or -Inf")
  }
  # the first offending value decides
  bad <- x; bad[1] <- -Inf; bad[2] <- NA
  expect_dpglmnet_error(dpglmnet(bad, y), "must not contain Inf or -Inf")
  sparse <- Matrix::Matrix(x, sparse = TRUE)
  sparse@x[2] <- Inf
  expect_dpglmnet_error(dpglmnet(sparse, y), "must not contain Inf or -Inf")
  # integer and logical matrices are read as doubles
  counts <- matrix(rpois(150, 3), 50, 3)
  expect_equal(storage.mode(dpglmnet:::check_x(counts)), "double")
  expect_equal(dpglmnet:::check_x(counts), counts + 0)
  expect_equal(storage.mode(dpglmnet:::check_x(counts > 2)), "double")
})

test_that("bad y is refused", {
  expect_dpglmnet_error(dpglmnet(x, y[-1]), "`y`")
  expect_dpglmnet_error(dpglmnet(x, replace(y, 2, NA)), "`y`")
  expect_dpglmnet_error(dpglmnet(x, replace(y, 2, Inf)), "`y`")
  expect_dpglmnet_error(dpglmnet(x, as.character(y)), "`y`")
  expect_dpglmnet_error(dpglmnet(x, y, family = "binomial"), "`y`")
  three <- factor(rep(c("a", "b", "c"), length.out = 50))
  expect_dpglmnet_error(dpglmnet(x, three, family = "binomial"), "`y`")
  # (two character labels are read as glmnet reads them: test-character-response.R)
  expect_dpglmnet_error(dpglmnet(x, rep(c("a", "b", "c"), length.out = 50),
                                 family = "binomial"), "`y` has 3 distinct labels")
  expect_dpglmnet_error(dpglmnet(x, rep("a", 50), family = "binomial"),
                        "`y` has 1 distinct label")
})

test_that("bad arguments name themselves", {
  cases <- list(
    family = list(family = "poisson"),
    alpha = list(alpha = 1.5),
    alpha = list(alpha = NA),
    nlambda = list(nlambda = 0),
    nlambda = list(nlambda = 2.5),
    lambda.min.ratio = list(lambda.min.ratio = 1),
    lambda = list(lambda = c(0.1, -1)),
    lambda = list(lambda = c(0.1, 0.5)),
    lambda = list(lambda = NA_real_),
    intercept = list(intercept = NA),
    standardize = list(standardize = NA),
    x.bounds = list(standardize = TRUE),
    standardize.budget = list(x.bounds = 5, standardize.budget = 0),
    smoothness = list(smoothness = "standardized", standardize = FALSE),
    penalty.factor = list(penalty.factor = c(1, -1, 1)),
    penalty.factor = list(penalty.factor = c(1, 1)),
    penalty.factor = list(penalty.factor = c(0, 0, 0)),
    lower.limits = list(lower.limits = 0.5),
    lower.limits = list(lower.limits = c(-1, -1)),
    upper.limits = list(upper.limits = -1),
    epsilon = list(epsilon = 0),
    epsilon = list(epsilon = -1),
    epsilon = list(epsilon = NA_real_),
    epsilon = list(epsilon = "1"),
    delta = list(delta = 0),
    delta = list(delta = 1),
    delta = list(delta = NA_real_),
    solver = list(solver = "newton"),
    passes = list(passes = 0),
    passes = list(passes = 1.5),
    clip = list(clip = 0),
    clip = list(clip = Inf),
    step = list(step = -1),
    average = list(average = "yes"),
    selection = list(selection = "greedy"),
    smoothness = list(smoothness = "magic"),
    smoothness = list(smoothness = c(1, 1)),
    smoothness = list(smoothness = c(1, 0, 1)),
    smoothness = list(smoothness = "exact"),
    x.bounds = list(smoothness = "private"),
    x.bounds = list(smoothness = "bounds"),
    x.bounds = list(x.bounds = c(1, 2)),
    x.bounds = list(x.bounds = 0),
    x.bounds = list(x.bounds = -1),
    y.bound = list(y.bound = 0),
    smoothness.budget = list(smoothness.budget = 1),
    rng = list(rng = "dice"),
    trace.it = list(trace.it = -1)
  )
  for (i in seq_along(cases)) {
    args <- c(list(x = x, y = y), cases[[i]])
    expect_dpglmnet_error(do.call(dpglmnet, args), paste0("`", names(cases)[i], "`"))
  }
  yb <- rep(0:1, 25)
  expect_dpglmnet_error(dpglmnet(x, yb, family = "binomial", y.bound = 1), "`y.bound`")
})

test_that("methods check their arguments", {
  fit <- suppressWarnings(dpglmnet(x, y, epsilon = 1, x.bounds = 5, y.bound = 20,
                                   solver = "dpcd"), classes = "dpglmnet_warning")
  expect_dpglmnet_error(coef(fit, s = -1), "`s`")
  expect_dpglmnet_error(predict(fit, x[, 1:2]), "`newx`")
  expect_dpglmnet_error(predict(fit), "`newx`")
  expect_dpglmnet_error(predict(fit, x, type = "probability"), "`type`")
  expect_dpglmnet_error(predict(fit, x, type = "class"), "`type`")
  expect_dpglmnet_error(plot(fit, xvar = "dev"), "`xvar`")
})

test_that("fits say when the answer is noise, diverged or has not converged", {
  set.seed(5)
  x <- matrix(rnorm(3000), 1000, 3)
  y <- drop(x %*% c(1, -1, 0)) + rnorm(1000)
  expect_warning(dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 6, step = 3),
                 class = "dpglmnet_warning", regexp = "`step` = 3 is above 2")
  expect_warning(dpglmnet(x, y, epsilon = Inf, lambda = 0.01, passes = 1),
                 class = "dpglmnet_warning", regexp = "not converged in 1 passes")
  expect_silent(dpglmnet(x, y, epsilon = Inf, lambda = 0.01, passes = 200))
  # 100 records at epsilon 0.2: the calibrated noise swamps any coefficient
  # (solver = "dpcd": "auto" fits the intercept alone there, R/intercept.R),
  # or the columns cannot be told from constant
  expect_warning(dpglmnet(x[1:100, ], y[1:100], epsilon = 0.2, x.bounds = 4,
                          y.bound = 6, solver = "dpcd"),
                 class = "dpglmnet_warning",
                 regexp = "noise may swamp|cannot be told from the noise")
  # a divergent step is reported, never silent
  expect_warning(dpglmnet(x, y, epsilon = Inf, lambda = 0.01, step = 50, passes = 300,
                          standardize = TRUE),
                 class = "dpglmnet_warning", regexp = "diverged")
})

test_that("family: partial names and family objects as glmnet, poisson refused with its reason", {
  set.seed(3)
  x <- matrix(rnorm(300 * 3), 300, 3)
  y <- drop(x %*% c(1, -1, 0)) + rnorm(300)
  yb <- as.numeric(y > 0)
  set.seed(4)
  ref <- dpglmnet(x, y, epsilon = Inf, lambda = 0.05)
  set.seed(4)
  expect_equal(coef(dpglmnet(x, y, family = "gauss", epsilon = Inf, lambda = 0.05)), coef(ref))
  set.seed(4)
  expect_equal(coef(dpglmnet(x, y, family = gaussian(), epsilon = Inf, lambda = 0.05)),
               coef(ref))
  # (the coordinate order is drawn from the seed)
  set.seed(4)
  refb <- dpglmnet(x, yb, family = "binomial", epsilon = Inf, lambda = 0.05)
  set.seed(4)
  expect_equal(coef(dpglmnet(x, yb, family = binomial(), epsilon = Inf, lambda = 0.05)),
               coef(refb))
  expect_identical(dpglmnet(x, yb, family = "bin", epsilon = Inf, lambda = 0.05)$family,
                   refb$family)
  err <- expect_error(dpglmnet(x, rpois(300, 2), family = "poisson", epsilon = 1,
                               x.bounds = 4), class = "dpglmnet_error")
  expect_match(conditionMessage(err), "`family`.*not offered.*curvature", fixed = FALSE)
  err <- expect_error(dpglmnet(x, rpois(300, 2), family = poisson(), epsilon = 1,
                               x.bounds = 4), class = "dpglmnet_error")
  expect_match(conditionMessage(err), "not offered")
  err <- expect_error(dpglmnet(x, yb, family = binomial(link = "probit")),
                      class = "dpglmnet_error")
  expect_match(conditionMessage(err), "canonical link")
  expect_error(dpglmnet(x, y, family = "m"), "`family` must be one of", class = "dpglmnet_error")
})

test_that("a private fit without x.bounds is an error naming it, unless asked for", {
  # Without bounds the columns could only be read at unit scale: on raw
  # columns that gave test errors of 1e5 times the mean's behind a warning.
  set.seed(3)
  raw <- cbind(rnorm(200, 50, 10), rnorm(200, 3000, 500))
  yr <- drop(raw %*% c(0.1, 0.001)) + rnorm(200)
  expect_dpglmnet_error(dpglmnet(raw, yr, epsilon = 1, y.bound = 20), "`x.bounds`")
  expect_dpglmnet_error(dpglmnet(raw, yr > 8, family = "binomial"), "`x.bounds`")
  expect_dpglmnet_error(dpglmnet(raw, yr, solver = "dpfw", y.bound = 20), "`x.bounds`")
  # cv.dpglmnet() asks for it first, before the response's bound
  expect_dpglmnet_error(cv.dpglmnet(raw, yr, epsilon = 1), "`x.bounds`")
  # other bad arguments are still named first
  expect_dpglmnet_error(dpglmnet(raw, yr, alpha = 2), "`alpha`")
  # asked for: the columns as they are, with the warning
  expect_warning(dpglmnet(raw / 100, yr, y.bound = 20, standardize = FALSE),
                 "no `x.bounds` given", class = "dpglmnet_warning")
  # the intercept alone reads no x; epsilon = Inf needs no bounds
  expect_silent(fit <- dpglmnet(raw, yr, y.bound = 20, solver = "intercept"))
  expect_true(all(fit$beta == 0))
  expect_true(dpglmnet(raw, yr, epsilon = Inf, lambda = 0.1)$settings$standardize)
  # data frames: factors need none, a numeric column does
  frame <- data.frame(g = factor(sample(c("a", "b", "c"), 200, TRUE)), v = raw[, 1])
  expect_dpglmnet_error(dpglmnet(frame, yr, y.bound = 20), "`x.bounds`")
  expect_s3_class(suppressWarnings(dpglmnet(frame["g"], yr, y.bound = 20)), "dpglmnet")
})
