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
                 character_warning, fixed = TRUE)
  expect_identical(fit$classnames, c("no", "yes"))
  expect_match(fit$privacy$disclosures, "the labels of `y`", fixed = TRUE)
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
