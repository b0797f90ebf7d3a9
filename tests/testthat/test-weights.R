# glmnet's `weights`, `offset` and `newoffset` (R/weights.R): glmnet as the
# oracle at epsilon = Inf, the weight-sum release and the weighted
# sensitivities at a finite epsilon, bad inputs, the solvers that refuse them.

weighted_data <- function(n = 300, p = 5, seed = 1) {
  set.seed(seed)
  x <- matrix(rnorm(n * p), n, p)
  x[, 2] <- 3 * x[, 2] + 1  # imbalanced, off-centre
  w <- runif(n, 0.2, 3)
  o <- rnorm(n, sd = 0.5)
  beta <- c(1, -0.3, 0, 0, 0.5, rep(0, max(p - 5, 0)))[seq_len(p)]
  eta <- drop(x %*% beta) + o
  list(x = x, w = w, o = o, y_gaussian = eta + 0.5 + rnorm(n),
       y_binomial = as.numeric(runif(n) < plogis(eta - 0.3)))
}

test_that("epsilon = Inf: weights and offsets reproduce glmnet to 1e-5", {
  skip_if_not_installed("glmnet")
  d <- weighted_data()
  for (family in c("gaussian", "binomial")) {
    y <- d[[paste0("y_", family)]]
    for (standardize in c(TRUE, FALSE)) for (intercept in c(TRUE, FALSE)) {
      for (given in list(c("w", "o"), "w", "o")) {
        w <- if ("w" %in% given) d$w
        o <- if ("o" %in% given) d$o
        reference <- glmnet::glmnet(d$x, y, family = family, weights = w, offset = o,
                                    standardize = standardize, intercept = intercept,
                                    nlambda = 8, thresh = 1e-14)
        fit <- dpglmnet(d$x, y, family = family, weights = w, offset = o,
                        standardize = standardize, intercept = intercept,
                        epsilon = Inf, lambda = reference$lambda, passes = 2000)
        label <- paste(family, standardize, intercept, paste(given, collapse = "+"))
        expect_equal(as.matrix(coef(fit)), as.matrix(coef(reference)), tolerance = 1e-5,
                     ignore_attr = TRUE, label = label)
        if (!is.null(o)) {
          expect_equal(predict(fit, d$x[1:4, ], newoffset = o[1:4]),
                       predict(reference, d$x[1:4, ], newoffset = o[1:4]),
                       tolerance = 1e-5, ignore_attr = TRUE, label = label)
        }
      }
    }
  }
})

test_that("epsilon = Inf: sparse x with weights and offset is glmnet's", {
  skip_if_not_installed("glmnet")
  d <- weighted_data(n = 400)
  xs <- Matrix::Matrix(d$x * (abs(d$x) > 0.8), sparse = TRUE)
  for (family in c("gaussian", "binomial")) for (standardize in c(FALSE, TRUE)) {
    y <- d[[paste0("y_", family)]]
    reference <- glmnet::glmnet(xs, y, family = family, weights = d$w, offset = d$o,
                                standardize = standardize, nlambda = 6, thresh = 1e-14)
    # (sparse x is scaled, not centred: with an intercept the same solution)
    fit <- dpglmnet(xs, y, family = family, weights = d$w, offset = d$o,
                    standardize = standardize, epsilon = Inf, lambda = reference$lambda,
                    passes = 2000)
    label <- paste(family, standardize)
    expect_equal(as.matrix(coef(fit)), as.matrix(coef(reference)), tolerance = 1e-5,
                 ignore_attr = TRUE, label = label)
    if (!standardize) {
      # the dense fit is the same number for number (one template)
      dense <- dpglmnet(as.matrix(xs), y, family = family, weights = d$w, offset = d$o,
                        standardize = FALSE, epsilon = Inf, lambda = reference$lambda,
                        passes = 2000)
      expect_equal(as.matrix(coef(fit)), as.matrix(coef(dense)), tolerance = 1e-10)
    }
  }
})

test_that("weights rescale as glmnet's: a constant multiple changes nothing (epsilon = Inf)", {
  d <- weighted_data()
  fit <- function(w) dpglmnet(d$x, d$y_binomial, family = "binomial", weights = w,
                              epsilon = Inf, lambda = c(0.05, 0.01), passes = 500)
  expect_equal(as.matrix(coef(fit(d$w))), as.matrix(coef(fit(7 * d$w))), tolerance = 1e-10)
  # zero weights drop their records
  w <- d$w
  w[1:50] <- 0
  kept <- dpglmnet(d$x[-(1:50), ], d$y_binomial[-(1:50)], family = "binomial",
                   weights = w[-(1:50)], epsilon = Inf, lambda = c(0.05, 0.01), passes = 500)
  expect_equal(as.matrix(coef(fit(w))), as.matrix(coef(kept)), tolerance = 1e-8)
})

test_that("the ledger has the weight-sum row, and its total is recomputed by hand", {
  d <- weighted_data(n = 2000, p = 4)
  set.seed(3)
  fit <- muffle_dpglmnet_warnings(dpglmnet(
    d$x, d$y_gaussian, weights = d$w, weights.bound = 3, offset = d$o, offset.bound = 2,
    epsilon = 1, delta = 1e-6, x.bounds = 6, y.bound = 10, nlambda = 3, passes = 2))
  rows <- fit$privacy$mechanisms
  weight_row <- grep("^weights: sum of the weights", rows$mechanism)
  expect_length(weight_row, 1L)
  expect_equal(rows$count[weight_row], 1)
  expect_match(rows$sensitivity[weight_row], "W")
  # the moments are weighted, their sensitivities carry W n / S
  moments <- grep("standardization: weighted (mean|second moment)", rows$mechanism)
  expect_length(moments, 4L)  # x and y, mean and second moment
  expect_true(all(grepl("W n / S", rows$sensitivity[moments], fixed = TRUE)))
  expect_match(rows$mechanism[grep("ranges", rows$mechanism)], "unweighted")
  # every row is Gaussian at factor x z: mu^2 = sum count / (factor z)^2
  z <- fit$settings$noise_multiplier
  mu <- sqrt(sum(rows$count / (rows$factor * z)^2))
  expect_equal(fit$privacy$mu, mu, tolerance = 1e-10)
  expect_equal(fit$privacy$epsilon, gdp_epsilon(mu, 1e-6), tolerance = 1e-10)
  expect_lte(fit$privacy$epsilon, 1)
  # the weight sum takes its public 2% of mu^2
  expect_equal((1 / (rows$factor[weight_row] * z))^2 / mu^2, 0.02, tolerance = 1e-8)
  # the released sum, and the factor of the bound-based sensitivities
  s <- fit$settings
  expect_equal(s$weight_factor, 3 * 2000 / s$weight_sum)
  noise_sd <- rows$noise_multiplier[weight_row] * 3
  expect_lt(abs(s$weight_sum - sum(d$w)), 6 * noise_sd)
  expect_equal(s$weights.bound, 3)
  expect_true(s$has_offset)
  # the residual interval widens by the offset's: [-10 - 2, 10 + 2]
  expect_equal(c(s$y.lower, s$y.upper), c(-12, 12))
})

test_that("bound-based noise grows with weights.bound as stated (W n / S)", {
  # the standardization moments: noise sd z f sensitivity x W n / S
  set.seed(5)
  n <- 500
  x <- matrix(runif(n, -1, 1), n, 1)
  plan <- list(ranges = FALSE, sparse = FALSE)
  released_means <- function(factor) {
    replicate(300, dpglmnet:::release_column_scales(
      x, -1, 1, plan, 0, 1, "seeded", weights = rep(1, n), weight_factor = factor)$mean)
  }
  sd1 <- sd(released_means(1))
  sd4 <- sd(released_means(4))
  # sensitivity of a mean of values in [-1, 1]: 2 / n, times the factor
  expect_equal(sd1, 2 / n, tolerance = 0.15)
  expect_equal(sd4 / sd1, 4, tolerance = 0.15)
  # through a fit: W scales the factor (the same weights, S released near n)
  d <- weighted_data(n = 4000, p = 3)
  fit_with <- function(W) {
    set.seed(6)
    muffle_dpglmnet_warnings(dpglmnet(d$x, d$y_gaussian, weights = rep(1, 4000),
                                      weights.bound = W, epsilon = 1, x.bounds = 8,
                                      y.bound = 10, standardize = FALSE,
                                      lambda = c(0.1, 0.01), passes = 2, clip = 2))
  }
  f1 <- fit_with(1)
  f4 <- fit_with(4)
  expect_equal(f1$settings$weight_factor, 4000 / f1$settings$weight_sum)
  expect_equal(f4$settings$weight_factor, 4 * 4000 / f4$settings$weight_sum)
  # the public smoothness constants from bounds: curvature b^2 W n / S
  expect_identical(f4$settings$smoothness, "bounds")
  expect_equal(f4$settings$smoothness_values[1:3], 64 * f4$settings$weight_factor * c(1, 1, 1))
  expect_equal(f1$settings$smoothness_values[1:3], 64 * f1$settings$weight_factor * c(1, 1, 1))
})

test_that("weights all 1 with weights.bound = 1 give a fit close to the unweighted one", {
  d <- weighted_data(n = 20000, p = 4)
  lambda <- c(0.1, 0.03, 0.01)
  set.seed(7)
  weighted <- muffle_dpglmnet_warnings(dpglmnet(
    d$x, d$y_gaussian, weights = rep(1, 20000), weights.bound = 1, epsilon = 2,
    x.bounds = 8, y.bound = 10, lambda = lambda, passes = 3))
  set.seed(7)
  plain <- muffle_dpglmnet_warnings(dpglmnet(
    d$x, d$y_gaussian, epsilon = 2, x.bounds = 8, y.bound = 10, lambda = lambda,
    passes = 3))
  # (the weight sum's row; DP-CD's adaptive clip only without weights,
  # R/dpcd.R)
  weight_rows <- weighted$privacy$mechanisms$mechanism
  plain_rows <- plain$privacy$mechanisms$mechanism
  expect_equal(setdiff(weight_rows, plain_rows), weight_rows[grepl("weight", weight_rows)])
  expect_true(any(grepl("adaptive clip", plain_rows)))
  expect_false(any(grepl("adaptive clip", weight_rows)))
  expect_equal(weighted$settings$weight_sum, 20000, tolerance = 0.01)
  b_w <- as.matrix(coef(weighted))
  b_p <- as.matrix(coef(plain))
  expect_false(isTRUE(all.equal(b_w, b_p)))  # one more release: not identical
  expect_lt(max(abs(b_w - b_p)), 0.1)
  expect_gt(abs(b_w["V1", 3]), 0.8)  # and both are the model
})

test_that("binomial with weights and offset at a finite epsilon finds the model", {
  d <- weighted_data(n = 20000, p = 4)
  for (x in list(d$x, Matrix::Matrix(d$x, sparse = TRUE))) {
    set.seed(8)
    fit <- muffle_dpglmnet_warnings(dpglmnet(
      x, d$y_binomial, family = "binomial", weights = d$w, weights.bound = 3,
      offset = d$o, offset.bound = 2, epsilon = 2, x.bounds = 8,
      lambda = c(0.05, 0.01, 0.002), passes = 3))
    b <- coef(fit, s = 0.002)
    expect_equal(as.numeric(b[c("V1", "V2"), 1]), c(1, -0.3), tolerance = 0.3)
    expect_lt(max(abs(b[c("V3", "V4"), 1])), 0.15)
    link <- predict(fit, d$x[1:5, ], s = 0.002, newoffset = d$o[1:5])
    expect_equal(as.numeric(link),
                 as.numeric(cbind(1, pmin(pmax(d$x[1:5, ], -8), 8)) %*% b[, 1]) + d$o[1:5])
  }
})

test_that("newoffset: required with an offset, checked, clamped to offset.bound", {
  d <- weighted_data()
  fit <- dpglmnet(d$x, d$y_binomial, family = "binomial", offset = d$o, epsilon = Inf,
                  lambda = c(0.05, 0.01), passes = 100)
  expect_dpglmnet_error(predict(fit, d$x[1:3, ]), "`newoffset`")
  expect_dpglmnet_error(predict(fit, d$x[1:3, ], newoffset = 1:2 / 10), "`newoffset`")
  expect_dpglmnet_error(predict(fit, d$x[1:3, ], newoffset = c(0, NA, 0)), "`newoffset`")
  expect_dpglmnet_error(predict(fit, d$x[1:3, ], newoffset = c("a", "b", "c")),
                        "`newoffset`")
  expect_dpglmnet_error(predict(fit, d$x[1:3, ], newoffset = c(0, Inf, 0)), "`newoffset`")
  # coefficients need no offset
  expect_equal(predict(fit, type = "coefficients"), coef(fit))
  link0 <- predict(fit, d$x[1:3, ], newoffset = rep(0, 3))
  expect_equal(predict(fit, d$x[1:3, ], newoffset = c(1, 2, 3)), link0 + 1:3)
  expect_equal(predict(fit, d$x[1:3, ], newoffset = rep(0, 3), type = "response"),
               plogis(link0))
  # clamped to the public offset.bound, as the training offsets were
  bounded <- muffle_dpglmnet_warnings(dpglmnet(
    d$x, d$y_binomial, family = "binomial", offset = d$o, offset.bound = c(-1, 0.5),
    epsilon = 1, x.bounds = 5, lambda = c(0.05, 0.01), passes = 2))
  base <- predict(bounded, d$x[1:2, ], newoffset = c(0, 0))
  expect_equal(predict(bounded, d$x[1:2, ], newoffset = c(-5, 5)),
               base + matrix(c(-1, 0.5), 2, 2))
  # deviance on supplied data takes newoffset too
  dev <- deviance(fit, d$x[1:50, ], d$y_binomial[1:50], newoffset = d$o[1:50])
  link <- predict(fit, d$x[1:50, ], newoffset = d$o[1:50])
  expect_equal(unname(dev), unname(2 * colSums(log1p(exp(link)) - d$y_binomial[1:50] * link)))
})

test_that("bad weights and offsets are errors naming the argument, before any computation", {
  d <- weighted_data(n = 100)
  fit <- function(...) dpglmnet(d$x, d$y_gaussian, x.bounds = 8, y.bound = 10, ...)
  expect_dpglmnet_error(fit(weights = d$w[-1], weights.bound = 3), "`weights`")
  expect_dpglmnet_error(fit(weights = -d$w, weights.bound = 3), "`weights`")
  expect_dpglmnet_error(fit(weights = replace(d$w, 2, NA), weights.bound = 3), "`weights`")
  expect_dpglmnet_error(fit(weights = replace(d$w, 2, Inf), weights.bound = 3), "`weights`")
  expect_dpglmnet_error(fit(weights = as.character(d$w), weights.bound = 3), "`weights`")
  expect_dpglmnet_error(fit(weights = factor(d$w), weights.bound = 3), "`weights`")
  expect_dpglmnet_error(fit(weights = d$w), "`weights.bound`")
  expect_dpglmnet_error(fit(weights = d$w, weights.bound = 0), "`weights.bound`")
  expect_dpglmnet_error(fit(weights = d$w, weights.bound = c(1, 2)), "`weights.bound`")
  expect_dpglmnet_error(fit(weights.bound = 2), "`weights.bound`")
  expect_dpglmnet_error(fit(offset = d$o[-1], offset.bound = 2), "`offset`")
  expect_dpglmnet_error(fit(offset = replace(d$o, 2, NA), offset.bound = 2), "`offset`")
  expect_dpglmnet_error(fit(offset = as.character(d$o), offset.bound = 2), "`offset`")
  expect_dpglmnet_error(fit(offset = d$o), "`offset.bound`")
  expect_dpglmnet_error(fit(offset = d$o, offset.bound = c(2, -2)), "`offset.bound`")
  expect_dpglmnet_error(fit(offset.bound = 2), "`offset.bound`")
  # no bound needed at epsilon = Inf; all-zero weights are still an error there
  expect_dpglmnet_error(dpglmnet(d$x, d$y_gaussian, weights = rep(0, 100), epsilon = Inf),
                        "`weights`")
  # options whose private scales do not weigh the records
  expect_dpglmnet_error(fit(weights = d$w, weights.bound = 3, standardize = FALSE,
                            clip = "quantile"), "`clip`")
  expect_dpglmnet_error(fit(weights = d$w, weights.bound = 3, standardize = FALSE,
                            smoothness = "quantile"), "`smoothness`")
  expect_dpglmnet_error(fit(weights = d$w, weights.bound = 3, standardize = FALSE,
                            smoothness = "private"), "`smoothness`")
  # cv.dpglmnet checks them against all n records before splitting
  expect_dpglmnet_error(cv.dpglmnet(d$x, d$y_gaussian, x.bounds = 8, y.bound = 10,
                                    weights = d$w[-1], weights.bound = 3), "`weights`")
  expect_dpglmnet_error(cv.dpglmnet(d$x, d$y_gaussian, x.bounds = 8, y.bound = 10,
                                    offset = d$o), "`offset.bound`")
})

test_that("the other solvers refuse weights and offset, naming argument and solver", {
  d <- weighted_data(n = 200)
  for (solver in c("dpsgd", "dpscd", "dpfw", "dpfw-vr", "nmd")) {
    err <- expect_dpglmnet_error(dpglmnet(d$x, d$y_gaussian, solver = solver, alpha = 0,
                                          weights = d$w, weights.bound = 3, x.bounds = 8,
                                          y.bound = 10), "`weights`")
    expect_match(conditionMessage(err), solver, fixed = TRUE)
    err <- expect_dpglmnet_error(dpglmnet(d$x, d$y_gaussian, solver = solver, alpha = 0,
                                          offset = d$o, offset.bound = 2, x.bounds = 8,
                                          y.bound = 10), "`offset`")
    expect_match(conditionMessage(err), solver, fixed = TRUE)
  }
})

test_that("cv.dpglmnet splits weights and offsets with the records", {
  d <- weighted_data(n = 600)
  # epsilon = Inf: the curve is the weighted mean of the validation losses
  set.seed(10)
  cvfit <- cv.dpglmnet(d$x, d$y_gaussian, weights = d$w, offset = d$o, epsilon = Inf,
                       lambda = c(0.3, 0.1, 0.03, 0.01), passes = 300, type.measure = "mae",
                       loss.bound = 1e6)
  v <- cvfit$validation
  train <- setdiff(seq_len(600), v)
  path <- dpglmnet(d$x[train, ], d$y_gaussian[train], weights = d$w[train],
                   offset = d$o[train], epsilon = Inf, lambda = c(0.3, 0.1, 0.03, 0.01),
                   passes = 300)
  expect_equal(as.matrix(coef(cvfit$dpglmnet.fit)), as.matrix(coef(path)), tolerance = 1e-10)
  link <- predict(path, d$x[v, ], newoffset = d$o[v])
  manual <- colSums(d$w[v] * abs(d$y_gaussian[v] - link)) / sum(d$w[v])
  expect_equal(as.numeric(cvfit$cvm), as.numeric(manual), tolerance = 1e-10)
  expect_equal(predict(cvfit, d$x[1:2, ], newoffset = d$o[1:2]),
               predict(path, d$x[1:2, ], s = cvfit$lambda.1se, newoffset = d$o[1:2]))
})

test_that("print() states the weights' and the offset's bounds and the released sum", {
  d <- weighted_data(n = 2000, p = 3)
  set.seed(12)
  fit <- muffle_dpglmnet_warnings(dpglmnet(
    d$x, d$y_gaussian, weights = d$w, weights.bound = 3, offset = d$o, offset.bound = 2,
    epsilon = 1, x.bounds = 6, y.bound = 10, nlambda = 2, passes = 2))
  text <- gsub("\\s+", " ", paste(capture.output(print(fit)), collapse = " "))
  expect_match(text, "Weights: clamped to [0, 3] (`weights.bound`)", fixed = TRUE)
  expect_match(text, sprintf("released sum %s", format(fit$settings$weight_sum, digits = 4)),
               fixed = TRUE)
  expect_match(text, "Offset: clamped to [-2, 2] (`offset.bound`)", fixed = TRUE)
  expect_match(text, "y - offset within [-12, 12]", fixed = TRUE)
})

test_that("the core weighs each record's term before clipping it (dense and sparse)", {
  # DP-CD's released gradient at b = 0 (the private lambda_max), without
  # noise: (1/n) sum_i clamp(omega_i l'(o_i, y_i) x_ij, C_j). 20000 records:
  # several of the dense sweep's chunks of 8192.
  set.seed(13)
  n <- 20000
  x <- matrix(rnorm(n * 3), n, 3)
  x[x[, 3] > 0.5, 3] <- 0
  w <- runif(n, 0, 4)
  o <- rnorm(n)
  y <- as.numeric(runif(n) < 0.4)
  clip <- c(0.5, 1, 2)
  for (family in c("gaussian", "binomial")) {
    derivative <- if (family == "gaussian") o - y else plogis(o) - y
    expected <- colSums(pmin(pmax(w * derivative * x, rep(-clip, each = n)),
                             rep(clip, each = n))) / n
    for (xx in list(x, Matrix::Matrix(x, sparse = TRUE))) {
      released <- dpglmnet:::.dpcd_start_gradient_cpp(xx, y, list(
        transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
        family = family, coordinate_clip = clip,
        noise_sd = rep(0, 3), seed = c(1, 2), secure = FALSE, threads = 1L,
        weights = w, offset = o))
      expect_equal(released, expected, tolerance = 1e-12, label = family)
    }
  }
  # the clip binds on the weighted terms: clipping before weighting differs
  unweighted_clip <- colSums(w * pmin(pmax((o - y) * x, rep(-clip, each = n)),
                                      rep(clip, each = n))) / n
  expect_false(isTRUE(all.equal(unweighted_clip,
                                colSums(pmin(pmax(w * (o - y) * x, rep(-clip, each = n)),
                                             rep(clip, each = n))) / n)))
})

test_that("epsilon = Inf over several sweep chunks and two threads is glmnet's", {
  skip_if_not_installed("glmnet")
  d <- weighted_data(n = 20000, p = 3)
  reference <- glmnet::glmnet(d$x, d$y_binomial, family = "binomial", weights = d$w,
                              offset = d$o, nlambda = 4, thresh = 1e-14)
  for (threads in 1:2) {
    old <- options(dpglmnet.threads = threads)
    fit <- dpglmnet(d$x, d$y_binomial, family = "binomial", weights = d$w, offset = d$o,
                    standardize = TRUE, epsilon = Inf, lambda = reference$lambda,
                    passes = 300)
    options(old)
    expect_equal(as.matrix(coef(fit)), as.matrix(coef(reference)), tolerance = 1e-5,
                 ignore_attr = TRUE)
  }
})
