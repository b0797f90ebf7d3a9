# A glmnet user's script with only glmnet -> dpglmnet renamed, `epsilon`
# and bounds added: data frames with factors (through model.matrix and
# through the data frame / formula interface), predict on one row, coef,
# glmnet's helpers, deviance and family on supplied data; and an error
# naming its argument for each habit that cannot be honoured privately.

quietly <- function(expr) {
  withCallingHandlers(expr, dpglmnet_warning = function(w) invokeRestart("muffleWarning"))
}

# Records with numeric, factor, logical and character columns.
script_data <- function(n = 500, seed = 11) {
  set.seed(seed)
  df <- data.frame(
    age = runif(n, 18, 90),
    income = runif(n, 0, 1e5),
    sex = factor(sample(c("f", "m"), n, TRUE)),
    region = factor(sample(c("north", "south", "east"), n, TRUE),
                    levels = c("east", "north", "south", "west")),
    smoker = sample(c(TRUE, FALSE), n, TRUE))
  df$cost <- 50 * df$age + 0.01 * df$income + 300 * (df$sex == "m") -
    400 * (df$region == "south") + 200 * df$smoker + rnorm(n, sd = 300)
  eta <- -3 + 0.05 * df$age + 0.8 * (df$sex == "m") - 1 * (df$region == "south")
  df$claim <- factor(ifelse(runif(n) < plogis(eta), "yes", "no"), levels = c("no", "yes"))
  df
}
predictors <- c("age", "income", "sex", "region", "smoker")
numeric_bounds <- c(age = 90, income = 1e5)

test_that("a glmnet script through model.matrix runs with dpglmnet", {
  skip_if_not_installed("glmnet")
  df <- script_data()
  train <- 1:400
  test <- 401:500
  x <- model.matrix(~ age + income + sex + region + smoker, df)[, -1]
  y <- df$cost
  # glmnet(x, y) -> dpglmnet(x, y, epsilon, bounds): the dummies' bounds are 1
  set.seed(1)
  fit <- quietly(dpglmnet(x[train, ], y[train], epsilon = 1,
                          x.bounds = c(90, 1e5, rep(1, ncol(x) - 2)), y.bound = 1e4))
  expect_output(print(fit), "differential privacy, one record\\s+replaced")
  s <- fit$lambda[1] / 2
  # predict on one row: a one-row matrix and a plain vector give the same
  one <- predict(fit, newx = x[test[1], , drop = FALSE], s = s)
  expect_equal(dim(one), c(1L, 1L))
  expect_equal(predict(fit, newx = x[test[1], ], s = s), one, ignore_attr = TRUE)
  b <- coef(fit, s = s)
  bounds <- c(90, 1e5, rep(1, ncol(x) - 2))
  expect_equal(as.numeric(one), sum(c(1, pmin(x[test[1], ], bounds)) * b[, 1]))
  # deviance on supplied data: the residual sum of squares along the path
  link <- predict(fit, newx = x[test, ])
  dev <- deviance(fit, newx = x[test, ], newy = y[test])
  expect_equal(unname(dev), unname(colSums((y[test] - link)^2)))
  expect_equal(names(dev), colnames(link))
  # glmnet's assess.glmnet: GLM measures of the family object
  assessed <- glmnet::assess.glmnet(fit, newx = x[test, ], newy = y[test])
  expect_setequal(names(assessed), c("deviance", "mse", "mae"))
  expect_equal(as.numeric(assessed$mse), as.numeric(colMeans((y[test] - link)^2)))
  expect_equal(as.numeric(assessed$mae), as.numeric(colMeans(abs(y[test] - link))))
  expect_equal(as.numeric(assessed$deviance), as.numeric(dev) / length(test))
  fam <- family(fit)
  expect_s3_class(fam, "family")
  expect_equal(fam$family, "gaussian")
  expect_true(fam == "gaussian")
  expect_false(fam != "gaussian")
  # confusion.glmnet needs classes: glmnet's own error for a gaussian fit
  expect_error(glmnet::confusion.glmnet(fit, newx = x[test, ], newy = y[test]),
               "binomial or multinomial")
})

test_that("a binomial glmnet script: predict types, assess, confusion, roc", {
  skip_if_not_installed("glmnet")
  df <- script_data()
  train <- 1:400
  test <- 401:500
  set.seed(2)
  fit <- quietly(dpglmnet(claim ~ age + income + sex + region + smoker, data = df[train, ],
                          family = "binomial", epsilon = 2, x.bounds = numeric_bounds,
                          nlambda = 4))
  expect_equal(fit$classnames, c("no", "yes"))
  newx <- df[test, predictors]
  newy <- df$claim[test]
  s <- fit$lambda[3]
  # every predict() type of glmnet
  link <- predict(fit, newx, s = s, type = "link")
  expect_equal(predict(fit, newx, s = s, type = "response"), plogis(link))
  expect_equal(as.vector(predict(fit, newx, s = s, type = "class")),
               ifelse(as.vector(link) > 0, "yes", "no"))
  expect_identical(predict(fit, newx, s = s, type = "coefficients"), coef(fit, s = s))
  nonzero <- predict(fit, type = "nonzero", s = s)[[1L]]
  expect_equal(unname(nonzero), unname(which(coef(fit, s = s)[-1L, 1L] != 0)))
  # one record as a one-row data frame (a character value for a factor)
  single <- predict(fit, data.frame(age = 50, income = 2e4, sex = "m", region = "west",
                                    smoker = FALSE), s = s, type = "response")
  expect_equal(dim(single), c(1L, 1L))
  b <- coef(fit, s = s)
  expect_equal(as.numeric(single),
               plogis(b["(Intercept)", 1] + 50 * b["age", 1] + 2e4 * b["income", 1] +
                        b["sexm", 1] + b["regionwest", 1]))
  # confusion.glmnet: the table of predicted against true classes
  confusion <- glmnet::confusion.glmnet(fit, newx = newx, newy = newy, s = s)
  expect_equal(as.vector(unclass(confusion)),
               as.vector(table(factor(as.vector(predict(fit, newx, s = s, type = "class")),
                                      levels = c("no", "yes")), newy)))
  # roc.glmnet: a curve from (0, 0) towards (1, 1), the AUC from it
  roc <- glmnet::roc.glmnet(fit, newx = newx, newy = newy, s = s)
  expect_true(all(diff(roc$FPR) >= 0) && all(diff(roc$TPR) >= 0))
  expect_equal(utils::tail(roc$FPR, 1), 1)
  expect_equal(utils::tail(roc$TPR, 1), 1)
  # assess.glmnet: binomial deviance per record, as deviance() gives it
  dev <- deviance(fit, newx = newx, newy = newy)
  y01 <- as.numeric(newy == "yes")
  all_links <- predict(fit, newx)
  manual <- -2 * colSums(y01 * plogis(all_links, log.p = TRUE) +
                           (1 - y01) * plogis(-all_links, log.p = TRUE))
  expect_equal(unname(dev), unname(manual))
  assessed <- glmnet::assess.glmnet(fit, newx = newx, newy = newy)
  # (glmnet clamps the probabilities to [1e-5, 1 - 1e-5] for its deviance)
  expect_equal(as.numeric(assessed$deviance), as.numeric(dev) / length(test),
               tolerance = 1e-6)
  expect_equal(as.numeric(assessed$mse),
               as.numeric(colMeans((y01 - plogis(all_links))^2)))
  # 0/1 and logical responses code the modelled class the same way
  expect_equal(deviance(fit, newx, y01), dev)
  expect_true(family(fit) == "binomial")
  expect_equal(family(fit)$linkinv(0.3), plogis(0.3))
  # cv.dpglmnet fits too (the path's family, predictions at lambda.min)
  x <- model.matrix(~ ., df[train, predictors])[, -1]
  set.seed(3)
  cvfit <- quietly(cv.dpglmnet(x, df$claim[train], family = "binomial", epsilon = 2,
                               x.bounds = c(90, 1e5, rep(1, ncol(x) - 2)), nlambda = 4))
  expect_true(family(cvfit) == "binomial")
  xt <- model.matrix(~ ., df[test, predictors])[, -1]
  expect_s3_class(glmnet::confusion.glmnet(cvfit, newx = xt, newy = newy), "table")
  expect_named(glmnet::assess.glmnet(cvfit, newx = xt, newy = newy),
               c("deviance", "mse", "mae"))
  expect_true(is.data.frame(glmnet::roc.glmnet(cvfit, newx = xt, newy = newy)))
})

test_that("data frame and formula fits equal the fit of model.matrix's expansion", {
  df <- script_data(n = 300)
  x <- model.matrix(~ ., df[predictors])[, -1]
  fit_matrix <- function() {
    set.seed(5)
    quietly(dpglmnet(x, df$cost, epsilon = Inf, lambda = c(100, 10), passes = 50))
  }
  reference <- fit_matrix()
  set.seed(5)
  by_frame <- quietly(dpglmnet(df[predictors], df$cost, epsilon = Inf,
                               lambda = c(100, 10), passes = 50))
  set.seed(5)
  by_formula <- quietly(dpglmnet(cost ~ age + income + sex + region + smoker, data = df,
                                 epsilon = Inf, lambda = c(100, 10), passes = 50))
  set.seed(5)
  by_dot <- quietly(dpglmnet(cost ~ . - claim, data = df, epsilon = Inf,
                             lambda = c(100, 10), passes = 50))
  for (fit in list(by_frame, by_formula, by_dot)) {
    expect_equal(rownames(fit$beta), colnames(x))
    expect_equal(as.matrix(coef(fit)), as.matrix(coef(reference)), tolerance = 1e-10)
  }
  # model.matrix's names: treatment contrasts, unused declared levels kept
  expect_equal(colnames(x), c("age", "income", "sexm", "regionnorth", "regionsouth",
                              "regionwest", "smokerTRUE"))
  # predict on a data frame equals predict on its expansion
  rows <- 1:7
  expect_equal(predict(by_frame, df[rows, predictors], s = c(50, 10)),
               predict(reference, x[rows, ], s = c(50, 10)), tolerance = 1e-10)
  expect_equal(predict(by_formula, df[rows, ], s = 20), predict(reference, x[rows, ], s = 20),
               tolerance = 1e-10)
  # a new frame with fewer levels present, and characters for factors
  newx <- df[1:2, predictors]
  newx$region <- as.character(newx$region)
  expect_equal(predict(by_frame, newx), predict(reference, x[1:2, ]), tolerance = 1e-10)
  # the recipe: no data, public schema only
  expect_identical(environment(by_formula$recipe$terms), globalenv())
  expect_equal(by_formula$recipe$xlevels$region, c("east", "north", "south", "west"))
  expect_identical(by_formula$call$data, quote(df))
  expect_true(inherits(eval(by_formula$call$x), "formula"))
  expect_identical(by_frame$call$x, quote(x))  # df[predictors] is not kept
})

test_that("bounds: dummies get [0, 1], numeric columns by name, interactions the product", {
  df <- script_data(n = 300)
  set.seed(1)
  fit <- quietly(dpglmnet(cost ~ age + sex + region + log(income + 1) + age:sex, data = df,
                          epsilon = 1, x.bounds = c(age = 90, "log(income + 1)" = 12),
                          y.bound = 1e4, nlambda = 3))
  expect_equal(rownames(fit$beta), c("age", "sexm", "regionnorth", "regionsouth",
                                     "regionwest", "log(income + 1)", "age:sexm"))
  expect_equal(fit$settings$x.bounds, c(90, 1, 1, 1, 1, 12, 90))
  expect_true(fit$settings$standardize)
  # one unnamed value bounds every numeric column
  set.seed(1)
  one <- quietly(dpglmnet(df[predictors], df$cost, epsilon = 1, x.bounds = 1e5,
                          y.bound = 1e4, nlambda = 3))
  expect_equal(one$settings$x.bounds, c(1e5, 1e5, 1, 1, 1, 1, 1))
  # all columns categorical: every bound is public (1), no x.bounds needed
  set.seed(1)
  dummies <- quietly(dpglmnet(df[c("sex", "region")], df$cost, epsilon = 1,
                              y.bound = 1e4, nlambda = 3))
  expect_equal(dummies$settings$x.bounds, rep(1, 4))
  expect_equal(dummies$settings$x.lower, rep(0, 4))
  expect_equal(dummies$settings$x.upper, rep(1, 4))
  # intervals by name (tests/testthat/test-interval-bounds.R has more)
  set.seed(1)
  listed <- quietly(dpglmnet(df[predictors], df$cost, epsilon = 1,
                             x.bounds = list(age = c(18, 90), income = 1e5),
                             y.bound = 1e4, nlambda = 3))
  expect_equal(listed$settings$x.lower, c(18, -1e5, 0, 0, 0, 0, 0))
  expect_equal(listed$settings$x.upper, c(90, 1e5, 1, 1, 1, 1, 1))
  expect_dpglmnet_error(dpglmnet(df[predictors], df$cost, epsilon = 1,
                                 x.bounds = list(age = c(90, 18), income = 1e5)),
                        "`x.bounds`")
})

test_that("cv.dpglmnet on a data frame or formula (the entry for its hook)", {
  df <- script_data(n = 400)
  # cv.dpglmnet() with the one-line hook at its top
  hooked <- cv.dpglmnet
  body(hooked) <- quote(dpglmnet:::cv_dpglmnet_frame(match.call(), environment()))
  set.seed(9)
  cvfit <- quietly(hooked(cost ~ age + income + sex + region, data = df, epsilon = 1,
                          x.bounds = numeric_bounds, y.bound = 1e4, nlambda = 4))
  expect_s3_class(cvfit, "cv.dpglmnet")
  expect_identical(cvfit$call[[1L]], quote(cv.dpglmnet))
  expect_identical(cvfit$call$data, quote(df))
  x <- model.matrix(~ age + income + sex + region, df)[, -1]
  expect_equal(predict(cvfit, df[1:3, ]), predict(cvfit, x[1:3, ]))
  # the same split, path and choice as the matrix interface on the full
  # coding of region's four levels (R/coding.R), reported in treatment
  # contrasts: region's baseline coefficient moves into the intercept
  full <- model.matrix(~ age + income + sex + region, df,
                       contrasts.arg = list(region = contrasts(df$region, contrasts = FALSE)))
  full <- full[, -1]
  # (its dummies as the expansion marks them: 0/1 by the schema, on [0, 1],
  # R/bounds.R, so that their mean alone is released)
  dummy_bounds <- cbind(c(-90, -1e5, 0, 0, 0, 0, 0), c(90, 1e5, 1, 1, 1, 1, 1))
  attr(dummy_bounds, "binary") <- c(FALSE, FALSE, TRUE, TRUE, TRUE, TRUE, TRUE)
  # (and region's four dummies as one block, the 4th term: R/dpcd.R)
  attr(dummy_bounds, "factor_block") <- c(0L, 0L, 0L, 4L, 4L, 4L, 4L)
  set.seed(9)
  by_matrix <- quietly(cv.dpglmnet(full, df$cost, epsilon = 1, x.bounds = dummy_bounds,
                                   y.bound = 1e4, nlambda = 4))
  internal <- as.matrix(coef(by_matrix))
  base <- match(paste0("region", levels(df$region)[1]), rownames(internal))
  others <- base + seq_len(nlevels(df$region) - 1L)
  treatment <- internal[-base, , drop = FALSE]
  treatment[1, ] <- internal[1, ] + internal[base, ]
  treatment[rownames(internal)[others], ] <- internal[others, ] - internal[base, ]
  expect_identical(rownames(as.matrix(coef(cvfit))), c("(Intercept)", colnames(x)))
  expect_equal(as.matrix(coef(cvfit)), treatment)
  expect_equal(cvfit$dpglmnet.fit$settings$full_coding, "region")
  if (any(grepl("cv_dpglmnet_frame", deparse(body(cv.dpglmnet)), fixed = TRUE))) {
    set.seed(9)
    direct <- quietly(cv.dpglmnet(cost ~ age + income + sex + region, data = df,
                                  epsilon = 1, x.bounds = numeric_bounds, y.bound = 1e4,
                                  nlambda = 4))
    expect_equal(as.matrix(coef(direct)), treatment)
  }
})

test_that("data frame and formula errors name their argument", {
  df <- script_data(n = 100)
  frame <- df[predictors]
  err <- expect_dpglmnet_error(dpglmnet(frame, df$cost, epsilon = 1, x.bounds = c(age = 90)),
                               "`x.bounds`")
  expect_match(conditionMessage(err), "`income`")
  expect_identical(err$argument, "x.bounds")
  expect_dpglmnet_error(dpglmnet(frame, df$cost, epsilon = 1,
                                 x.bounds = c(age = 90, income = 1e5, sex = 1)), "`sex`")
  expect_dpglmnet_error(dpglmnet(frame, df$cost, epsilon = 1,
                                 x.bounds = c(age = 90, income = 1e5, agee = 1)), "`agee`")
  expect_dpglmnet_error(dpglmnet(frame, df$cost, epsilon = 1, x.bounds = c(90, 1e5)),
                        "`x.bounds`")
  expect_dpglmnet_error(dpglmnet(frame, df$cost, epsilon = 1,
                                 x.bounds = c(age = -1, income = 1e5)), "`x.bounds`")
  with_na <- frame
  with_na$income[3] <- NA
  err <- expect_dpglmnet_error(dpglmnet(with_na, df$cost, epsilon = Inf), "`x`")
  expect_match(conditionMessage(err), "`income`")
  df_na <- df
  df_na$age[2] <- NA
  expect_dpglmnet_error(dpglmnet(cost ~ age + sex, data = df_na, epsilon = Inf), "`data`")
  df_na <- df
  df_na$cost[2] <- NA
  err <- expect_dpglmnet_error(dpglmnet(cost ~ age + sex, data = df_na, epsilon = Inf),
                               "`data`")
  expect_match(conditionMessage(err), "response `cost`")
  expect_dpglmnet_error(dpglmnet(frame, epsilon = Inf), "`y`")
  expect_dpglmnet_error(dpglmnet(~ age + sex, data = df, epsilon = Inf), "`x`")
  expect_dpglmnet_error(dpglmnet(cost ~ age + sex - 1, data = df, epsilon = Inf),
                        "intercept = FALSE")
  expect_dpglmnet_error(dpglmnet(cost ~ age + offset(income), data = df, epsilon = Inf),
                        "offset")
  expect_dpglmnet_error(dpglmnet(cost ~ age + sex, epsilon = Inf), "`data`")
  expect_dpglmnet_error(dpglmnet(cost ~ age + nothere, data = df, epsilon = Inf),
                        "`nothere`")
  expect_dpglmnet_error(dpglmnet(cost ~ age, data = df, y = df$cost, epsilon = Inf), "`y`")
  expect_dpglmnet_error(dpglmnet(as.matrix(frame[1:2]), df$cost, data = df, epsilon = Inf),
                        "`data`")
  dated <- frame
  dated$when <- Sys.Date() + seq_len(nrow(frame))
  expect_dpglmnet_error(dpglmnet(dated, df$cost, epsilon = Inf), "`when`")
  single <- frame
  single$sex <- factor(rep("f", nrow(frame)))
  expect_dpglmnet_error(dpglmnet(single, df$cost, epsilon = Inf), "`sex`")
  # character columns: levels from the data, which the fit reveals: a warning
  chars <- frame
  chars$sex <- as.character(chars$sex)
  expect_warning(dpglmnet(chars, df$cost, epsilon = Inf, lambda = 1e5, passes = 5),
                 "character column `sex`", class = "dpglmnet_warning")

  set.seed(1)
  fit <- quietly(dpglmnet(frame, df$cost, epsilon = Inf, lambda = c(100, 10), passes = 20))
  unseen <- frame[1, ]
  unseen$region <- "mars"
  err <- expect_dpglmnet_error(predict(fit, unseen), "`newx`")
  expect_match(conditionMessage(err), "\"mars\"")
  expect_dpglmnet_error(predict(fit, frame[1:2, c("age", "sex")]), "`income`")
  na_row <- frame[1, ]
  na_row$age <- NA
  expect_dpglmnet_error(predict(fit, na_row), "`newx`")
  matrix_fit <- quietly(dpglmnet(model.matrix(~ ., frame)[, -1], df$cost, epsilon = Inf,
                                 lambda = 10, passes = 20))
  expect_dpglmnet_error(predict(matrix_fit, frame[1:2, ]), "`newx`")
})

test_that("habits that would spend budget or be ignored are errors naming the argument", {
  d <- simulate_binomial()
  set.seed(1)
  fit <- quietly(dpglmnet(d$x, d$y, family = "binomial", epsilon = 1, x.bounds = 4,
                          lambda = c(0.1, 0.05, 0.01)))
  # exact = TRUE: honest at fitted lambdas, refused off them
  expect_equal(predict(fit, d$x[1:3, ], s = 0.05, exact = TRUE),
               predict(fit, d$x[1:3, ], s = 0.05))
  expect_equal(coef(fit, s = c(0.1, 0.01), exact = TRUE), coef(fit, s = c(0.1, 0.01)))
  err <- expect_dpglmnet_error(predict(fit, d$x[1:3, ], s = 0.07, exact = TRUE), "`exact`")
  expect_match(conditionMessage(err), "budget")
  expect_dpglmnet_error(coef(fit, s = 0.07, exact = TRUE), "`exact`")
  expect_dpglmnet_error(coef(fit, exact = NA), "`exact`")
  expect_dpglmnet_error(predict(fit, d$x[1:3, ], newoffset = rep(1, 3)), "`newoffset`")
  expect_dpglmnet_error(predict(fit, d$x[1:3, ], lamda = 0.1), "`lamda`")
  expect_dpglmnet_error(coef(fit, lambda = 0.1), "`lambda`")
  # deviance: supplied data only
  err <- expect_dpglmnet_error(deviance(fit), "`newx`")
  expect_match(conditionMessage(err), "privacy ledger")
  expect_dpglmnet_error(deviance(fit, newx = d$x), "`newy`")
  expect_dpglmnet_error(deviance(fit, d$x, factor(d$y, labels = c("a", "b"))), "`newy`")
  expect_dpglmnet_error(deviance(fit, d$x, d$y[-1]), "`newy`")
  # plot(xvar = "dev") needs the training deviance
  err <- expect_dpglmnet_error(plot(fit, xvar = "dev"), "`xvar`")
  expect_match(conditionMessage(err), "deviance")
})

test_that("print, summary and the ledger read as a statistician reads them", {
  d <- simulate_gaussian(n = 2000, p = 3)
  colnames(d$x) <- c("a", "b", "c")
  set.seed(4)
  fit <- quietly(dpglmnet(d$x, d$y, epsilon = 1, x.bounds = c(4, 20, 4), y.bound = 10,
                          nlambda = 3, passes = 2))
  printed <- capture.output(print(fit))
  text <- gsub("\\s+", " ", paste(printed, collapse = " "))
  expect_match(text, "(epsilon = 1, delta = 2.5e-07)-differential privacy, one record replaced",
               fixed = TRUE)
  expect_false(grepl("0.99999", text, fixed = TRUE))
  noise <- dpglmnet:::coefficient_noise_by_column(fit)
  r <- fit$settings$standardization
  # columns treated as constant have no noise (their coefficient is held at 0)
  expect_equal(unname(noise), ifelse(r$x_constant, NA,
                                     fit$settings$coefficient_noise * r$y_sd / r$x_sd))
  expect_match(text, sprintf("noise of sd about %s on the original scale",
                             format(signif(stats::median(noise, na.rm = TRUE), 2))),
               fixed = TRUE)
  expect_equal(summary(fit)$columns$noise_sd, unname(noise))
  # the ledger: one line per mechanism, the table one call away
  led <- fit$privacy
  ledger_text <- capture.output(print(led))
  mechanisms <- grep("^    [0-9,]+ x ", ledger_text, value = TRUE)
  expect_length(mechanisms, nrow(led$mechanisms))
  expect_identical(as.data.frame(led), led$mechanisms)
  detailed <- paste(capture.output(print(led, details = TRUE)), collapse = "\n")
  expect_match(detailed, "noise_multiplier")
  expect_match(detailed, format(led$epsilon, digits = 15), fixed = TRUE)
  expect_dpglmnet_error(print(led, details = "yes"), "`details`")
  # summary: the released clamps and scales, per column
  sm <- summary(fit)
  expect_equal(rownames(sm$columns), c("a", "b", "c"))
  expect_equal(sm$columns$bound, c(4, 20, 4))
  expect_equal(sm$columns$mean, r$x_mean)
  expect_equal(sm$columns$sd, r$x_sd)
  expect_equal(sm$columns$clamp_lower, if (is.null(r$x_lower)) -c(4, 20, 4) else r$x_lower)
  expect_equal(sm$response$sd, r$y_sd)
  # y's released clamp, inside its public interval
  expect_equal(c(sm$response$clamp_lower, sm$response$clamp_upper), c(r$y_lower, r$y_upper))
  expect_true(r$y_lower >= -fit$settings$y.bound && r$y_upper <= fit$settings$y.bound)
  expect_output(print(sm), "y read clamped to [clamp_lower, clamp_upper]", fixed = TRUE)
  expect_output(print(sm), "Standardization")
  # not private: said so, no noise line
  set.seed(4)
  exact <- quietly(dpglmnet(d$x, d$y, epsilon = Inf, lambda = 0.1, passes = 5))
  expect_output(print(exact), "not private")
  expect_false(any(grepl("^Noise:", capture.output(print(exact)))))
})

test_that("plot of a one-lambda fit draws the coefficients", {
  d <- simulate_gaussian(n = 300, p = 4)
  set.seed(2)
  fit <- quietly(dpglmnet(d$x, d$y, epsilon = Inf, lambda = 0.05, passes = 50))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_invisible(plot(fit))
  # the x axis spans the coefficients (a dot chart), not an empty path
  usr <- graphics::par("usr")
  beta <- as.numeric(fit$beta)
  expect_true(usr[1] <= min(beta) && usr[2] >= max(beta))
  expect_gt(diff(usr[1:2]), 0.5)
})

test_that("a glmnet script with survey weights runs with dpglmnet (rename, epsilon, bounds)", {
  skip_if_not_installed("glmnet")
  df <- script_data(n = 6000, seed = 21)
  set.seed(21)
  df$w <- runif(nrow(df), 0.5, 4)  # survey weights, at most 4 by design
  train <- 1:5000
  test <- 5001:6000
  x <- model.matrix(~ age + income + sex + region + smoker, df)[, -1]
  y <- df$cost
  bounds <- c(90, 1e5, rep(1, ncol(x) - 2))
  # cv.glmnet(x, y, weights = w, type.measure = "mae") -> cv.dpglmnet(...,
  # epsilon, bounds); the weights' bound is the public design maximum
  set.seed(22)
  cvfit <- quietly(cv.dpglmnet(x[train, ], y[train], weights = df$w[train],
                               type.measure = "mae", epsilon = 2, x.bounds = bounds,
                               y.bound = 1e4, weights.bound = 4))
  expect_false(anyNA(cvfit$cvm))
  expect_match(cvfit$dpglmnet.fit$privacy$mechanisms$mechanism[1], "sum of the weights")
  expect_match(cvfit$privacy$mechanisms$mechanism, "weighted by omega_i", all = FALSE)
  grDevices::pdf(NULL)
  plot(cvfit)
  grDevices::dev.off()
  b <- coef(cvfit, s = "lambda.1se")
  expect_equal(rownames(b)[-1], colnames(x))
  one <- predict(cvfit, newx = x[test[1], , drop = FALSE], s = "lambda.1se")
  expect_equal(as.numeric(one), sum(c(1, pmin(x[test[1], ], bounds)) * b[, 1]))
  # assess.glmnet with test weights: glmnet's weighted measures of our predictions
  assessed <- glmnet::assess.glmnet(cvfit, newx = x[test, ], newy = y[test],
                                    weights = df$w[test])
  link <- predict(cvfit, newx = x[test, ])
  expect_equal(as.numeric(assessed$mae),
               sum(df$w[test] * abs(y[test] - link)) / sum(df$w[test]))
  # the weighted fit is the model (age 50 per year, male +300, south -400)
  expect_equal(as.numeric(b[c("age", "sexm", "regionsouth"), 1]), c(50, 300, -400),
               tolerance = 0.5)
  # binomial with weights: confusion.glmnet
  set.seed(23)
  fit <- quietly(dpglmnet(x[train, ], df$claim[train], family = "binomial",
                          weights = df$w[train], epsilon = 2, x.bounds = bounds,
                          weights.bound = 4, nlambda = 4))
  confusion <- glmnet::confusion.glmnet(fit, newx = x[test, ], newy = df$claim[test],
                                        s = fit$lambda[4])
  expect_equal(sum(confusion), length(test))
})

test_that("a glmnet script with an offset runs with dpglmnet (rename, epsilon, bounds)", {
  skip_if_not_installed("glmnet")
  df <- script_data(n = 6000, seed = 31)
  set.seed(31)
  # a known log exposure per record, within [-1, 1] by design
  df$exposure <- runif(nrow(df), -1, 1)
  eta <- -1 + 0.03 * (df$age - 50) + 0.8 * (df$sex == "m") + df$exposure
  df$claim <- factor(ifelse(runif(nrow(df)) < plogis(eta), "yes", "no"),
                     levels = c("no", "yes"))
  train <- 1:5000
  test <- 5001:6000
  x <- model.matrix(~ age + income + sex + region + smoker, df)[, -1]
  bounds <- c(90, 1e5, rep(1, ncol(x) - 2))
  set.seed(32)
  cvfit <- quietly(cv.dpglmnet(x[train, ], df$claim[train], family = "binomial",
                               offset = df$exposure[train], type.measure = "mae",
                               epsilon = 2, x.bounds = bounds, offset.bound = 1))
  expect_false(anyNA(cvfit$cvm))
  grDevices::pdf(NULL)
  plot(cvfit)
  grDevices::dev.off()
  b <- coef(cvfit, s = "lambda.1se")
  # predict on one row needs its offset, as glmnet
  expect_dpglmnet_error(predict(cvfit, newx = x[test[1], , drop = FALSE]), "`newoffset`")
  one <- predict(cvfit, newx = x[test[1], , drop = FALSE], s = "lambda.1se",
                 newoffset = df$exposure[test[1]])
  expect_equal(as.numeric(one),
               sum(c(1, pmin(x[test[1], ], bounds)) * b[, 1]) + df$exposure[test[1]])
  assessed <- glmnet::assess.glmnet(cvfit, newx = x[test, ], newy = df$claim[test],
                                    newoffset = df$exposure[test])
  expect_named(assessed, c("deviance", "mse", "mae"))
  confusion <- glmnet::confusion.glmnet(cvfit, newx = x[test, ], newy = df$claim[test],
                                        newoffset = df$exposure[test])
  expect_equal(sum(confusion), length(test))
  # the offset is used, not estimated: the sex effect is found beside it
  expect_gt(as.numeric(b["sexm", 1]), 0.3)
})

test_that("cv.glmnet's own arguments: nfolds holds out one fold, the rest accepted or refused by name", {
  df <- script_data()
  x <- model.matrix(~ age + income + sex + region + smoker, df)[, -1]
  bounds <- c(90, 1e5, rep(1, ncol(x) - 2))
  y <- df$cost
  # nfolds = 10: one fold of 10 validates, with a warning saying so (at an
  # epsilon that affords a path to choose on)
  set.seed(3)
  expect_warning(cvfit <- withCallingHandlers(
    cv.dpglmnet(x, y, nfolds = 10, epsilon = 50, x.bounds = bounds, y.bound = 1e4),
    dpglmnet_warning = function(w) if (!grepl("nfolds", conditionMessage(w))) invokeRestart("muffleWarning")),
    "one fold of 10")
  expect_length(cvfit$validation, round(nrow(x) / 10))
  # the same on a data frame (through its expansion) and as validation.fraction
  set.seed(3)
  framed <- quietly(cv.dpglmnet(df[predictors], y, nfolds = 5, epsilon = 50,
                                x.bounds = as.list(numeric_bounds), y.bound = 1e4))
  expect_length(framed$validation, round(nrow(df) / 5))
  # where one fit on all records is all the budget affords (here the
  # intercept alone at moderate n) there is no split: no word about folds,
  # only why
  set.seed(3)
  words <- character(0)
  single <- withCallingHandlers(
    cv.dpglmnet(x, y, nfolds = 10, epsilon = 1, x.bounds = bounds, y.bound = 1e4),
    dpglmnet_warning = function(w) {
      words <<- c(words, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  expect_length(single$validation, 0L)
  expect_false(any(grepl("nfolds", words)))
  expect_true(any(grepl("intercept alone|single lambda", words)))
  # cv.glmnet's arguments without effect on the fit are accepted
  set.seed(3)
  same <- quietly(cv.dpglmnet(x, y, epsilon = 1, x.bounds = bounds, y.bound = 1e4,
                              validation.fraction = 0.1, parallel = TRUE, gamma = 0.5,
                              grouped = TRUE, keep = FALSE, alignment = "lambda"))
  set.seed(3)
  plain <- quietly(cv.dpglmnet(x, y, epsilon = 1, x.bounds = bounds, y.bound = 1e4,
                               validation.fraction = 0.1))
  expect_equal(coef(same), coef(plain))
  # and those that cannot be honoured privately are errors naming them
  expect_error(cv.dpglmnet(x, y, nfolds = 5, validation.fraction = 0.3, epsilon = 1,
                           x.bounds = bounds, y.bound = 1e4), "`nfolds`", class = "dpglmnet_error")
  expect_error(cv.dpglmnet(x, y, nfolds = 2, epsilon = 1, x.bounds = bounds, y.bound = 1e4),
               "`nfolds`", class = "dpglmnet_error")
  expect_error(cv.dpglmnet(x, y, nfolds = 4.5, epsilon = 1, x.bounds = bounds, y.bound = 1e4),
               "`nfolds`", class = "dpglmnet_error")
  expect_error(cv.dpglmnet(x, y, foldid = rep(1:5, 100), epsilon = 1, x.bounds = bounds,
                           y.bound = 1e4), "`foldid`.*charged", class = "dpglmnet_error")
  expect_error(cv.dpglmnet(x, y, keep = TRUE, epsilon = 1, x.bounds = bounds, y.bound = 1e4),
               "`keep`.*not private", class = "dpglmnet_error")
  expect_error(cv.dpglmnet(x, y, relax = TRUE, epsilon = 1, x.bounds = bounds, y.bound = 1e4),
               "`relax`", class = "dpglmnet_error")
  expect_error(cv.dpglmnet(x, y, keep = NA, epsilon = 1, x.bounds = bounds, y.bound = 1e4),
               "`keep`", class = "dpglmnet_error")
  expect_error(cv.dpglmnet(x, y, parallel = "yes", epsilon = 1, x.bounds = bounds,
                           y.bound = 1e4), "`parallel`", class = "dpglmnet_error")
  expect_error(cv.dpglmnet(x, y, alignment = "other", epsilon = 1, x.bounds = bounds,
                           y.bound = 1e4), "`alignment`", class = "dpglmnet_error")
  expect_error(quietly(cv.dpglmnet(x, y, nfolds = 1e5, epsilon = 1, x.bounds = bounds,
                                   y.bound = 1e4)), "`nfolds`", class = "dpglmnet_error")
  # trace.it is dpglmnet()'s own: passed on
  set.seed(3)
  expect_output(quietly(cv.dpglmnet(x, y, trace.it = 1, epsilon = 50, x.bounds = bounds,
                                    y.bound = 1e4)), "lambda")
})

test_that("glmnet()'s own arguments: dfmax, pmax honoured; solver tuning accepted; the rest refused by name", {
  set.seed(5)
  n <- 3000
  x <- matrix(rnorm(n * 5), n, 5)
  y <- drop(x %*% c(1, -1, 0.5, 0, 0)) + rnorm(n)
  fit_with <- function(...) {
    set.seed(9)
    quietly(dpglmnet(x, y, epsilon = 2, x.bounds = 4, y.bound = 10, ...))
  }
  plain <- fit_with()
  # glmnet's exact-solver settings: checked, no effect
  expect_equal(coef(fit_with(thresh = 1e-10, maxit = 1e6, type.gaussian = "naive",
                             relax = FALSE)), coef(plain))
  expect_equal(coef(fit_with(type.logistic = "modified.Newton")), coef(plain))
  # dfmax / pmax: the path up to its last lambda within the limits
  full <- fit_with(nlambda = 10)
  cut <- fit_with(nlambda = 10, dfmax = 1)
  k <- length(cut$lambda)
  expect_true(all(cut$df <= 1))
  expect_lt(k, length(full$lambda))
  expect_gt(full$df[k + 1L], 1)
  expect_equal(cut$lambda, full$lambda[seq_len(k)])
  expect_equal(as.matrix(cut$beta), as.matrix(full$beta[, seq_len(k), drop = FALSE]))
  expect_identical(cut$dim, c(5L, k))
  # (the ledger is the full path's: the cut is post-processing)
  expect_equal(cut$privacy$mechanisms, full$privacy$mechanisms)
  ever <- fit_with(nlambda = 10, pmax = 2)
  expect_lte(sum(Matrix::rowSums(abs(ever$beta)) > 0), 2)
  # a first lambda beyond the limit is kept, with a warning
  single <- function(...) {
    set.seed(9)
    dpglmnet(x, y, epsilon = 2, x.bounds = 4, y.bound = 10, lambda = 0.001, ...)
  }
  expect_warning(one <- single(dfmax = 1), "first lambda already has")
  expect_identical(one$df, single()$df)
  # refused, each naming its argument
  expect_error(fit_with(relax = TRUE), "`relax`", class = "dpglmnet_error")
  expect_error(fit_with(exclude = 2), "`exclude`.*x\\[, -exclude\\]", class = "dpglmnet_error")
  expect_error(fit_with(dfmax = -1), "`dfmax`", class = "dpglmnet_error")
  expect_error(fit_with(thresh = 0), "`thresh`", class = "dpglmnet_error")
  expect_error(fit_with(type.gaussian = "exact"), "`type.gaussian`", class = "dpglmnet_error")
  expect_error(fit_with(foo = 1), "`foo` is not an argument", class = "dpglmnet_error")
  df <- script_data()
  expect_error(dpglmnet(df[predictors], df$cost, epsilon = 1, x.bounds = as.list(numeric_bounds),
                        y.bound = 1e4, dfmax = 2), "`dfmax`.*matrix", class = "dpglmnet_error")
  expect_error(cv.dpglmnet(df[predictors], df$cost, epsilon = 1,
                           x.bounds = as.list(numeric_bounds), y.bound = 1e4, pmax = 2),
               "`pmax`.*matrix", class = "dpglmnet_error")
  # through cv.dpglmnet(), and glmnet's name for its path
  set.seed(9)
  cvfit <- quietly(cv.dpglmnet(x, y, epsilon = 20, x.bounds = 4, y.bound = 10,
                               dfmax = 4, thresh = 1e-7, relax = FALSE))
  expect_true(all(cvfit$dpglmnet.fit$df <= 4))
  expect_identical(cvfit$glmnet.fit, cvfit$dpglmnet.fit)
  expect_identical(cvfit[["glmnet.fit"]], cvfit$dpglmnet.fit)
  expect_identical(cvfit[["cvm"]], unclass(cvfit)[["cvm"]])
  # other names as `$` on a list, partial matching included
  plain_list <- unclass(cvfit)
  for (name in c("lambda.m", "lambda.1s", "lambda.", "cvm", "nothing")) {
    expect_identical(eval(call("$", cvfit, name)), eval(call("$", plain_list, name)))
  }
})

test_that("an all-factor frame takes an empty x.bounds, and its dummies never look clamped", {
  d <- as.data.frame(Titanic)
  d <- d[rep(seq_len(nrow(d)), d$Freq), 1:4]
  y <- as.numeric(d$Survived == "Yes")
  x <- d[1:3]
  set.seed(1)
  plain <- dpglmnet(x, y, family = "binomial")
  set.seed(1)
  empty <- dpglmnet(x, y, family = "binomial", x.bounds = list())
  expect_equal(coef(plain), coef(empty))
  # AgeAdult is 95% ones: at one end of its [0, 1], which is its schema
  warnings <- character()
  set.seed(1)
  withCallingHandlers(cv.dpglmnet(x, y, family = "binomial"), warning = function(w) {
    warnings <<- c(warnings, conditionMessage(w))
    invokeRestart("muffleWarning")
  })
  expect_false(any(grepl("may be too small", warnings)))
})
