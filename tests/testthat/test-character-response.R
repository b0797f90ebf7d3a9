# A binomial response given as a character vector, as glmnet takes it
# (factor(y): labels sorted, the second modelled). The labels come from the
# data, so the fit warns and its ledger names them as outside the guarantee.

character_warning <- "`y` is a character vector"

set.seed(31)
n <- 2000
x <- matrix(rnorm(2 * n), n, 2)
labels <- ifelse(x[, 1] - x[, 2] + rnorm(n) > 0, "yes", "no")

test_that("a two-label character y fits as factor(y) would, with a warning and a disclosure", {
  set.seed(2)
  expect_warning(fit <- dpglmnet(x, labels, family = "binomial", epsilon = 1, x.bounds = 4),
                 character_warning, fixed = TRUE)
  set.seed(2)
  as_factor <- dpglmnet(x, factor(labels), family = "binomial", epsilon = 1, x.bounds = 4)
  expect_identical(fit$classnames, c("no", "yes"))
  expect_identical(fit$beta, as_factor$beta)
  expect_identical(fit$a0, as_factor$a0)
  expect_match(fit$privacy$disclosures, "the labels of `y`", fixed = TRUE)
  expect_null(as_factor$privacy$disclosures)
  expect_output(print(fit$privacy), "Outside the guarantee: the labels of `y`", fixed = TRUE)
  # the classes predict() returns are the labels
  expect_true(all(predict(fit, x[1:20, ], type = "class") %in% c("no", "yes")))
  # new labels are read against the fit's classes
  expect_equal(deviance(fit, newx = x[1:50, ], newy = labels[1:50]),
               deviance(fit, newx = x[1:50, ], newy = factor(labels[1:50])))
  expect_dpglmnet_error(deviance(fit, newx = x[1:50, ], newy = c("maybe", labels[2:50])),
                        "`newy` has label \"maybe\"")
})

test_that("cv.dpglmnet() reads the labels before its split and notes them on every ledger", {
  set.seed(3)
  expect_warning(cvfit <- cv.dpglmnet(x, labels, family = "binomial", epsilon = 4,
                                      x.bounds = 4),
                 character_warning, fixed = TRUE)
  expect_identical(cvfit$dpglmnet.fit$classnames, c("no", "yes"))
  expect_match(cvfit$privacy$disclosures, "the labels of `y`", fixed = TRUE)
  expect_match(cvfit$dpglmnet.fit$privacy$disclosures, "the labels of `y`", fixed = TRUE)
  # one warning, not one per inner fit
  count <- 0L
  withCallingHandlers({
    set.seed(3)
    cv.dpglmnet(x, labels, family = "binomial", epsilon = 4, x.bounds = 4)
  }, warning = function(w) {
    if (grepl(character_warning, conditionMessage(w), fixed = TRUE)) count <<- count + 1L
    invokeRestart("muffleWarning")
  })
  expect_identical(count, 1L)
})

test_that("a character response in a formula is read the same way", {
  frame <- data.frame(a = x[, 1], b = x[, 2], label = labels)
  set.seed(4)
  expect_warning(fit <- dpglmnet(label ~ a + b, data = frame, family = "binomial",
                                 epsilon = 1, x.bounds = 4),
                 "`label` is a character vector", fixed = TRUE)
  expect_identical(fit$classnames, c("no", "yes"))
  # named as the formula names it, once
  expect_match(fit$privacy$disclosures, "the labels of `label`", fixed = TRUE)
  seen <- dpglmnet_warnings(dpglmnet(label ~ a + b, data = frame, family = "binomial",
                                     epsilon = 1, x.bounds = 4))
  expect_identical(sum(grepl("is a character vector", seen, fixed = TRUE)), 1L)
  expect_true(any(grepl("`label` is a character vector", seen, fixed = TRUE)))
  expect_dpglmnet_error(dpglmnet(label ~ a + b, data = transform(frame, label = "no"),
                                 family = "binomial", epsilon = 1, x.bounds = 4),
                        "`label` has 1 distinct label")
  set.seed(4)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(label ~ a + b, data = frame,
                                                family = "binomial", epsilon = 4, x.bounds = 4))
  expect_match(cvfit$privacy$disclosures, "the labels of `label`", fixed = TRUE)
})

test_that("a character y of the wrong number of labels, or with NA, is refused before any fit", {
  expect_dpglmnet_error(dpglmnet(x, rep(c("a", "b", "c"), length.out = n), family = "binomial",
                                 x.bounds = 4),
                        "`y` has 3 distinct labels")
  expect_dpglmnet_error(dpglmnet(x, replace(labels, 3, NA), family = "binomial", x.bounds = 4),
                        "`y` must not contain NA")
  # a gaussian family still refuses characters
  expect_dpglmnet_error(dpglmnet(x, labels, x.bounds = 4, y.bound = 1), "`y`")
})

test_that("factor(label) of a character column as a formula's response is disclosed too", {
  frame <- data.frame(a = x[, 1], b = x[, 2], label = labels)
  set.seed(5)
  seen <- dpglmnet_warnings(fit <- dpglmnet(factor(label) ~ a + b, data = frame,
                                            family = "binomial", epsilon = 1, x.bounds = 4))
  expect_true(any(grepl("the response `factor(label)` is a factor of a character column",
                        seen, fixed = TRUE)))
  expect_match(fit$privacy$disclosures, "the levels of the response `factor(label)`",
               fixed = TRUE)
  # declared levels are schema: nothing disclosed
  set.seed(5)
  declared <- muffle_dpglmnet_warnings(dpglmnet(factor(label, levels = c("no", "yes")) ~ a + b,
                                                data = frame, family = "binomial",
                                                epsilon = 1, x.bounds = 4))
  expect_null(declared$privacy$disclosures)
  expect_identical(declared$beta, fit$beta)
})

test_that("the refit's ledger and a one-column newy carry the labels as well", {
  set.seed(6)
  cvfit <- muffle_dpglmnet_warnings(cv.dpglmnet(x, labels, family = "binomial", epsilon = 8,
                                                x.bounds = 4, refit = TRUE))
  expect_false(is.null(cvfit$refit))
  expect_match(cvfit$refit$privacy$disclosures, "the labels of `y`", fixed = TRUE)
  fit <- cvfit$dpglmnet.fit
  expect_equal(deviance(fit, newx = x[1:30, ], newy = matrix(labels[1:30], ncol = 1)),
               deviance(fit, newx = x[1:30, ], newy = factor(labels[1:30])))
  expect_dpglmnet_error(deviance(fit, newx = x[1:5, ], newy = c("a", "b", "c", "d", "no")),
                        "4 labels not among them: \"a\", \"b\", \"c\", ...")
})

test_that("a fit with model.matrix()'s column of ones keeps the signal check's scalars", {
  set.seed(7)
  ones <- cbind("(Intercept)" = 1, a = rnorm(1000))
  y01 <- rbinom(1000, 1, 0.5)
  fit <- muffle_dpglmnet_warnings(dpglmnet(ones, y01, family = "binomial", epsilon = 1,
                                           x.bounds = 4))
  check <- fit$settings$signal_check
  expect_false(is.null(check))
  expect_length(check$lambda, 1)
  expect_length(check$passed, 1)
  expect_equal(check$lambda, fit$lambda)
  expect_length(check$first_pass_z, 2)
})
