# Table 3 of Mangold et al. (ICML 2022) on this machine: seconds for DP-CD
# and DP-SGD with 2, 5, 10, 20 and 50 passes on each dataset, beside the
# paper's (C++ with Eigen, i7-10610U laptop) and beside glmnet fitting the
# same objective on the same data in the same R process. Median of repeats.
# DP-SCD (not in the paper) beside them where it applies (alpha = 0): on
# Electricity (the paper's L2 logistic problem) and on California's x with
# the ridge penalty instead of the LASSO (its glmnet column is the LASSO's),
# with minibatches of 10 records as DP-SGD.
#
#   Rscript inst/bench/timing.R [repeats]
#
# Two times are reported for dpglmnet: the whole dpglmnet() call (input
# checks, calibration, object construction) and the C++ solver alone.
suppressPackageStartupMessages(library(dpglmnet))
# the paper-reproduction tools (not private; inst/paper/README.md)
source(system.file("paper", "load.R", package = "dpglmnet"))
options(width = 200)
repeats <- as.integer(commandArgs(trailingOnly = TRUE)[1])
if (is.na(repeats)) repeats <- 7L
# Median over repeats; each repeat calls expr_fn until 0.05 s have passed
# and divides, so millisecond runs are timed below the clock's resolution.
# The settings list the C++ solver entries read (as R/solvers.R builds it),
# for timing the solver alone: no intercept, no bounds, a fixed seed.
core_settings <- function(family, lambda, alpha, p, ...) {
  c(list(family = family, intercept = FALSE,
         transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
         lambda = lambda, alpha = alpha, penalty_factor = rep(1, p),
         lower_limits = rep(-Inf, p), upper_limits = rep(Inf, p),
         seed = c(1, 2), secure = FALSE, trace = 0L), list(...))
}

median_time <- function(expr_fn) {
  stats::median(vapply(seq_len(repeats), function(i) {
    gc(FALSE)
    calls <- 0
    started <- proc.time()[["elapsed"]]
    repeat {
      expr_fn()
      calls <- calls + 1
      elapsed <- proc.time()[["elapsed"]] - started
      if (elapsed >= 0.05) break
    }
    elapsed / calls
  }, numeric(1)))
}
cat("Dense DP-CD sweeps run with:", dpglmnet:::.simd_isa_cpp()[1],
    "(instruction sets this processor supports, best first:",
    paste(dpglmnet:::.simd_isa_cpp(), collapse = ", "), ")\n\n")
published <- paper_tables()$table3
datasets <- c(electricity = "electricity_imbalanced",
              california = "california_imbalanced", sparse = "sparse_lasso")
rows <- list()
for (dataset in names(datasets)) {
  problem <- paper_problem(datasets[[dataset]])
  x <- problem$x
  y <- problem$y
  n <- nrow(x)
  p <- ncol(x)
  glmnet_time <- if (requireNamespace("glmnet", quietly = TRUE)) {
    median_time(function() glmnet::glmnet(
      x, y, family = problem$family, alpha = problem$alpha,
      lambda = problem$lambda, intercept = FALSE, standardize = FALSE))
  } else NA_real_
  m <- problem$smoothness
  y01 <- if (problem$family == "binomial") as.numeric(y == levels(y)[2]) else y
  for (solver in c("dpcd", "dpsgd", if (dataset != "sparse") "dpscd")) {
    for (passes in c(2, 5, 10, 20, 50)) {
      call_time <- median_time(function() if (solver == "dpscd") {
        dpglmnet(x, y, family = problem$family, alpha = 0,
                 lambda = problem$lambda, intercept = FALSE, standardize = FALSE,
                 epsilon = problem$epsilon, delta = problem$delta, solver = solver,
                 passes = passes, x.bounds = problem$x.bounds, batch.size = 10)
      } else {
        dpglmnet(x, y, family = problem$family, alpha = problem$alpha,
                 lambda = problem$lambda, intercept = FALSE, epsilon = problem$epsilon,
                 delta = problem$delta, solver = solver, passes = passes,
                 smoothness = m, batch.size = 10, standardize = FALSE)
      })
      # The solver alone, with the settings dpglmnet() would pass it.
      core_time <- if (solver == "dpcd") {
        clip <- sqrt(m / sum(m))
        median_time(function() dpglmnet:::.dpcd_path_cpp(x, y01, core_settings(
          problem$family, problem$lambda, problem$alpha, p,
          coordinate_step = 1 / m, coordinate_clip = clip, noise_sd = 0.01 * clip,
          passes = as.integer(passes), selection = "permutation", average = FALSE)))
      } else if (solver == "dpscd") {
        median_time(function() dpglmnet:::.dpscd_path_cpp(x, y01, core_settings(
          problem$family, problem$lambda, 0, p, clip = 1, noise_sd = 0.01,
          row_bound = sqrt(sum(problem$x.bounds^2)), batch_size = 10L,
          steps = ceiling(passes * n / 10))))
      } else {
        median_time(function() dpglmnet:::.dpsgd_path_cpp(x, y01, core_settings(
          problem$family, problem$lambda, problem$alpha, p,
          step_size = 1 / sum(m), clip = 1, noise_sd = 0.01, batch_size = 10L,
          steps = ceiling(passes * n / 10))))
      }
      paper <- published$seconds[published$dataset == dataset &
                                   published$solver == solver &
                                   published$passes == passes]
      if (!length(paper)) paper <- NA_real_  # DP-SCD: not in the paper
      rows[[length(rows) + 1L]] <- data.frame(
        dataset = dataset, solver = solver, passes = passes,
        call_s = signif(call_time, 3), solver_s = signif(core_time, 3),
        paper_s = paper, paper_over_solver = signif(paper / core_time, 3),
        glmnet_s = signif(glmnet_time, 3),
        solver_over_glmnet = signif(core_time / glmnet_time, 3))
    }
  }
}
table3 <- do.call(rbind, rows)
print(table3, row.names = FALSE)
per_pass <- aggregate(solver_s / passes ~ dataset + solver, data = table3,
                      FUN = stats::median)
names(per_pass)[3] <- "seconds_per_pass"
cat("\nSeconds per pass (DP-CD) or epoch (DP-SGD, DP-SCD), median over passes:\n")
print(per_pass, row.names = FALSE)

# Where the time of a dense DP-CD pass goes: the same sweeps over the same x
# (Electricity's) with the logistic loss and with the squared loss, whose
# derivative costs one subtraction. The squared loss shows the floor set by
# moving the data (per record and step: two columns and the labels read, the
# linear predictor read and written); the logistic loss adds its exp and
# division. "cached": the first 4000 rows, which stay in the L2 cache.
problem <- paper_problem("electricity_imbalanced")
y01 <- as.numeric(problem$y == levels(problem$y)[2])
p <- ncol(problem$x)
sweep_rows <- list(all = seq_len(nrow(problem$x)), cached = seq_len(4000))
floor_rows <- list()
for (rows in names(sweep_rows)) {
  x <- problem$x[sweep_rows[[rows]], , drop = FALSE]
  y <- y01[sweep_rows[[rows]]]
  for (family in c("binomial", "gaussian")) {
    m <- colMeans(x^2) * (if (family == "binomial") 0.25 else 1)
    clip <- sqrt(m / sum(m))
    seconds <- median_time(function() dpglmnet:::.dpcd_path_cpp(x, y, core_settings(
      family, problem$lambda, problem$alpha, p, coordinate_step = 1 / m,
      coordinate_clip = clip, noise_sd = 0.01 * clip, passes = 50L,
      selection = "permutation", average = FALSE)))
    floor_rows[[length(floor_rows) + 1L]] <- data.frame(
      rows = rows, n = nrow(x), loss = if (family == "binomial") "logistic" else "squared",
      seconds_50_passes = signif(seconds, 3),
      ns_per_record_step = signif(seconds / (50 * p * nrow(x)) * 1e9, 3))
  }
}
cat("\nDP-CD on Electricity's x, 50 passes: logistic against squared loss",
    "(the cost of moving the data):\n")
print(do.call(rbind, floor_rows), row.names = FALSE)
