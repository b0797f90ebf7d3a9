# Snapshot of every released quantity of a set of configurations at fixed
# seeds, for bit-for-bit comparison before and after a restructuring that
# must change no behaviour (issue 17): fits, ledgers, settings, warnings and
# the internal releases, for every solver, family, scale and interface.
# usage: R_LIBS=<library with the build> Rscript tools/snapshot.R OUT.rds
#        Rscript tools/snapshot-compare.R BEFORE.rds AFTER.rds
suppressPackageStartupMessages({library(dpglmnet); library(Matrix)})
args <- commandArgs(TRUE)
out <- args[[1]]

strip <- function(fit) {
  if (inherits(fit, "error")) return(list(error = conditionMessage(fit)))
  fit$call <- NULL
  if (!is.null(fit$glmnet.fit)) fit$glmnet.fit$call <- NULL
  list(fit = unclass(fit),
       ledger = tryCatch(as.data.frame(fit$privacy), error = function(e) conditionMessage(e)),
       noise_sd = fit$settings$noise_sd)
}
run <- function(seed, expr) {
  set.seed(seed)
  warnings <- character()
  value <- withCallingHandlers(tryCatch(expr, error = function(e) e),
    warning = function(w) {
      warnings <<- c(warnings, conditionMessage(w)); invokeRestart("muffleWarning")
    })
  c(strip(value), list(warnings = warnings))
}

set.seed(1)
n <- 300; p <- 6
x <- matrix(rnorm(n * p), n, p)
x[, 2] <- 1 + 2 * x[, 2]
x[sample(n * p, n * p / 2)] <- 0     # half zeros so the sparse matrix is sparse
colnames(x) <- paste0("v", 1:p)
beta <- c(1.5, -1, 0, 0, 0.5, 0)
yg <- drop(x %*% beta) + rnorm(n)
yb <- as.numeric(yg > 0.3)
xs <- as(x, "CsparseMatrix")

res <- list()
solvers <- c("dpcd", "dpsgd", "dpscd", "dpfw", "dpfw-vr", "nmd")
k <- 0
for (solver in solvers) for (family in c("gaussian", "binomial"))
  for (sparse in c(FALSE, TRUE)) for (standardize in c(TRUE, FALSE))
    for (epsilon in c(1, Inf)) {
      k <- k + 1
      name <- paste(solver, family, if (sparse) "sparse" else "dense",
                    if (standardize) "std" else "raw", epsilon, sep = "/")
      a <- list(x = if (sparse) xs else x, y = if (family == "gaussian") yg else yb,
                family = family, solver = solver, standardize = standardize,
                epsilon = epsilon, x.bounds = 4, nlambda = 4, passes = 3)
      if (family == "gaussian") a$y.bound <- 8
      if (solver == "dpscd") { a$alpha <- 0; a$intercept <- FALSE }
      res[[name]] <- run(100 + k, do.call(dpglmnet, a))
    }

# weights (dpcd), private and not; alpha 0.5 and limits
for (epsilon in c(1, Inf)) {
  w <- runif(n, 0.5, 2)
  res[[paste0("weights/", epsilon)]] <- run(7, dpglmnet(
    x, yg, weights = w, weights.bound = 2, epsilon = epsilon, x.bounds = 4,
    y.bound = 8, solver = "dpcd", nlambda = 4, passes = 3, alpha = 0.5,
    lower.limits = -1))
}
# default settings (auto solver, quantile clip, smoothness)
res[["default/gauss"]] <- run(8, dpglmnet(x, yg, x.bounds = 4, y.bound = 8))
res[["default/binom"]] <- run(9, dpglmnet(x, yb, family = "binomial", x.bounds = 4))
res[["default/raw-quantile"]] <- run(10, dpglmnet(x, yg, x.bounds = 4, y.bound = 8,
  standardize = FALSE, smoothness = "quantile", clip = "quantile", nlambda = 3))
res[["dpcd/random-average"]] <- run(11, dpglmnet(xs, yb, family = "binomial",
  x.bounds = 4, standardize = FALSE, clip = 2, smoothness = "bounds", nlambda = 3,
  passes = 2, selection = "random", average = TRUE))
# high dimension: auto picks Frank-Wolfe
xh <- matrix(rnorm(100 * 150), 100, 150)
yh <- xh[, 1] - xh[, 2] + rnorm(100)
res[["highdim/auto"]] <- run(12, dpglmnet(xh, yh, x.bounds = 4, y.bound = 8))

# more of the interface: offsets, no intercept, penalty factors, a given
# lambda, ridge and box limits, a formula, predictions
o <- runif(n, -0.5, 0.5)
res[["offset/gauss"]] <- run(21, dpglmnet(x, yg, offset = o, offset.bound = 0.5,
  x.bounds = 4, y.bound = 8, nlambda = 4, passes = 3))
res[["offset/binom"]] <- run(22, dpglmnet(x, yb, family = "binomial", offset = o,
  offset.bound = 0.5, x.bounds = 4, nlambda = 4, passes = 3))
res[["nointercept"]] <- run(23, dpglmnet(x, yg, intercept = FALSE, x.bounds = 4,
  y.bound = 8, nlambda = 4, passes = 3))
res[["penalty.factor"]] <- run(24, dpglmnet(x, yg, penalty.factor = c(0, 1, 1, 2, 1, 1),
  x.bounds = 4, y.bound = 8, nlambda = 4, passes = 3))
res[["lambda"]] <- run(25, dpglmnet(x, yb, family = "binomial", lambda = c(0.1, 0.03, 0.01),
  x.bounds = 4, passes = 3))
res[["ridge-limits"]] <- run(26, dpglmnet(x, yg, alpha = 0, upper.limits = 0.8,
  x.bounds = c(4, 10, 4, 4, 4, 4), y.bound = 8, nlambda = 4, passes = 3))
res[["interval"]] <- run(27, dpglmnet(x, yg, x.bounds = setNames(lapply(1:6, function(j) c(-4, 3 + j)), colnames(x)),
  y.bound = c(-8, 10), nlambda = 4, passes = 3))
df <- data.frame(a = x[, 1], g = factor(sample(c("u", "v", "w"), n, TRUE)), b = x[, 2], y = yg)
res[["formula"]] <- run(28, dpglmnet(y ~ ., data = df, x.bounds = c(a = 4, b = 8),
  y.bound = 8, nlambda = 4, passes = 3))
res[["single-lambda"]] <- run(29, dpglmnet(x[1:150, ], yg[1:150], x.bounds = 4,
  y.bound = 8, epsilon = 0.5))
res[["predict"]] <- suppressWarnings(local({
  set.seed(30)
  fit <- dpglmnet(x, yb, family = "binomial", x.bounds = 4, nlambda = 4, passes = 3)
  suppressWarnings(list(predict(fit, x[1:5, ], type = "response"), predict(fit, x[1:5, ], type = "class"),
       coef(fit, s = 0.01)))
}))

# cv.dpglmnet once (noisy validation curve / choice)
res[["cv"]] <- run(13, cv.dpglmnet(x, yg, x.bounds = 4, y.bound = 8, nlambda = 4,
                                   passes = 3, epsilon = 1))

res[["cv/binom-refit"]] <- run(15, cv.dpglmnet(x, yb, family = "binomial", x.bounds = 4,
  nlambda = 4, passes = 3, epsilon = 1, refit = TRUE, type.measure = "class"))
res[["cv/default"]] <- run(16, cv.dpglmnet(x, yg, x.bounds = 4, y.bound = 8))
res[["cv/weights"]] <- run(17, cv.dpglmnet(x, yg, weights = runif(n, 0, 2),
  weights.bound = 2, x.bounds = 4, y.bound = 8, nlambda = 4, passes = 3))

# report-noisy-max and moments, histograms, quantiles, smoothness directly
nm <- function() list(
  a = dpglmnet:::.report_noisy_max_cpp(c(0, 1, 2, 0.5), list(
    scale = 1.5, draws = 2000L, seed = c(3, 4), secure = FALSE)),
  b = dpglmnet:::.report_noisy_max_cpp(c(0, -1, -2, -3), list(
    scale = 1e308, draws = 500L, seed = c(7, 8), secure = FALSE)),
  c = dpglmnet:::.report_noisy_max_cpp(c(NaN, 0, 5), list(
    scale = 1, draws = 500L, seed = c(7, 8), secure = FALSE)))
res[["noisy_max"]] <- nm()
u <- pmin(abs(x) / 4, 1)
res[["moments"]] <- dpglmnet:::.column_moments_cpp(u, list(
  transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
  mean_sd = rep(0.01, p), second_sd = rep(0.02, p), lower = NULL, upper = NULL,
  shift = NULL, seed = c(5, 6), secure = FALSE))
res[["smoothness"]] <- dpglmnet:::.private_smoothness_cpp(x, list(
  transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL), curvature = 1,
  # (the Laplace scale p b_j / (n epsilon) at epsilon = 1, given per column
  # since issue 17's "one source for noise": the same numbers)
  value_bound = rep(4, p), scale = rep(p * 16 / (n * 1), p), seed = c(11, 3), secure = FALSE))
res[["quantiles"]] <- dpglmnet:::.magnitude_quantiles_cpp(x, as.double(yg), list(
  transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
  family = "gaussian", upper = rep(4, p), weighted = FALSE,
  constant_column = FALSE, what = "columns", level = 0.9, range = 1e4,
  steps = 20L, count_sd = 5, seed = c(1, 2), secure = FALSE))
res[["quantiles_rows"]] <- dpglmnet:::.magnitude_quantiles_cpp(xs, as.double(yb), list(
  transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
  family = "binomial", upper = 10, weighted = TRUE,
  constant_column = TRUE, what = "rows", level = 0.9, range = 1e4,
  steps = 20L, count_sd = 5, seed = c(1, 2), secure = FALSE))

# a database table (SQLite)
if (requireNamespace("RSQLite", quietly = TRUE)) {
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  DBI::dbWriteTable(con, "rec", data.frame(x, y = yg))
  res[["database"]] <- run(14, dpglmnet(db_table(con, "rec", x = colnames(x), y = "y"),
    epsilon = 1, x.bounds = 4, y.bound = 8, nlambda = 4, passes = 2))
  DBI::dbDisconnect(con)
}
saveRDS(res, out)
errs <- vapply(res, function(r) is.list(r) && !is.null(r$error), TRUE)
cat(length(res), "entries,", sum(errs), "errors:\n")
for (nm in names(res)[errs]) cat("  ", nm, ":", res[[nm]]$error, "\n")
