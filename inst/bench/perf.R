# Performance of the pieces issue 12 names (R overhead on tiny data, sparse
# logistic DP-CD sweeps, wide sparse data and the coordinate order), as
# printed tables. Median of repeats; each repeat calls the function until
# 0.05 s have passed. The machine is shared: read differences under ~10% as
# noise.
#
#   Rscript inst/bench/perf.R [repeats] [sections]
#
# sections: any of tiny,sparse,wide (default: all).
suppressPackageStartupMessages(library(dpglmnet))
args <- commandArgs(trailingOnly = TRUE)
repeats <- as.integer(args[1])
if (is.na(repeats)) repeats <- 7L
sections <- if (length(args) >= 2) strsplit(args[2], ",")[[1]] else c("tiny", "sparse", "wide")
options(width = 200)

median_time <- function(f, min_time = 0.05) {
  stats::median(vapply(seq_len(repeats), function(i) {
    calls <- 0
    started <- proc.time()[["elapsed"]]
    repeat {
      f()
      calls <- calls + 1
      elapsed <- proc.time()[["elapsed"]] - started
      if (elapsed >= min_time) break
    }
    elapsed / calls
  }, numeric(1)))
}

core_settings <- function(family, lambda, p, intercept, ...) {
  c(list(family = family, intercept = intercept,
         transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
         lambda = lambda, alpha = 1, penalty_factor = rep(1, p),
         lower_limits = rep(-Inf, p), upper_limits = rep(Inf, p),
         seed = c(1, 2), secure = FALSE, trace = 0L), list(...))
}

if ("tiny" %in% sections) {
  set.seed(1)
  n <- 100; p <- 5
  x <- matrix(rnorm(n * p), n, p)
  y <- drop(x %*% c(1, -1, 0.5, 0, 0) + rnorm(n))
  g <- median_time(function() glmnet::glmnet(x, y))
  a <- median_time(function() dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 10))
  b <- median_time(function() dpglmnet(x, y, epsilon = Inf, lambda = 0.1))
  cat("Tiny data (n = 100, p = 5), ms per call:\n")
  print(data.frame(
    call = c("glmnet::glmnet(x, y)", "dpglmnet(epsilon = 1, x.bounds = 4, y.bound = 10)",
             "dpglmnet(epsilon = Inf, lambda = 0.1)"),
    ms = signif(1e3 * c(g, a, b), 3), over_glmnet = signif(c(g, a, b) / g, 3)),
    row.names = FALSE)
  cat("\n")
}

if ("sparse" %in% sections) {
  rows <- list()
  for (shape in list(c(1e5, 1000, 0.01), c(1e4, 1000, 0.05), c(1e5, 100, 0.1))) {
    n <- shape[1]; p <- shape[2]; density <- shape[3]
    set.seed(2)
    x <- Matrix::rsparsematrix(n, p, density, rand.x = function(k) runif(k, -1, 1))
    y01 <- as.numeric(runif(n) < 0.5)
    nnz <- length(x@x)
    for (intercept in c(FALSE, TRUE)) {
      passes <- 5L
      m <- pmax(Matrix::colSums(x^2) / (4 * n), 1e-8)
      if (intercept) m <- c(m, 0.25)
      clip <- sqrt(m / sum(m))
      s <- median_time(function() dpglmnet:::.dpcd_path_cpp(x, y01, core_settings(
        "binomial", 0.001, p, intercept, coordinate_step = 1 / m, coordinate_clip = clip,
        noise_sd = 0.001 * clip, passes = passes, selection = "permutation",
        average = FALSE)))
      rows[[length(rows) + 1L]] <- data.frame(
        n = n, p = p, density = density, intercept = intercept,
        ms_per_pass = signif(1e3 * s / passes, 3),
        ns_per_stored_entry = signif(1e9 * s / (passes * nnz), 3),
        ns_per_entry_incl_intercept_records = signif(
          1e9 * s / (passes * (nnz + if (intercept) n else 0)), 3))
    }
  }
  cat("Sparse logistic DP-CD (one lambda, 5 passes, permutation order):\n")
  print(do.call(rbind, rows), row.names = FALSE)
  cat("\n")
}

if ("wide" %in% sections) {
  rows <- list()
  for (shape in list(c(1e4, 1e6, 5e-4), c(1e4, 1e5, 5e-3))) {
    n <- shape[1]; p <- shape[2]; density <- shape[3]
    set.seed(3)
    x <- Matrix::rsparsematrix(n, p, density, rand.x = function(k) runif(k, -1, 1))
    y <- rnorm(n)
    m <- pmax(Matrix::colSums(x^2) / n, 1e-8)
    clip <- sqrt(m / sum(m))
    for (selection in c("cyclic", "permutation", "random")) {
      s <- median_time(function() dpglmnet:::.dpcd_path_cpp(x, y, core_settings(
        "gaussian", 0.001, p, FALSE, coordinate_step = 1 / m, coordinate_clip = clip,
        noise_sd = 0.001 * clip, passes = 2L, selection = selection,
        average = FALSE)), min_time = 0)
      rows[[length(rows) + 1L]] <- data.frame(
        n = n, p = p, nnz = length(x@x), selection = selection,
        s_per_pass = signif(s / 2, 3))
    }
  }
  cat("Wide sparse least squares DP-CD (one lambda, 2 passes):\n")
  tab <- do.call(rbind, rows)
  tab$over_cyclic <- signif(tab$s_per_pass / rep(tab$s_per_pass[tab$selection == "cyclic"],
                                                 each = 3), 3)
  print(tab, row.names = FALSE)
  cat("\n")
}

if ("threads" %in% sections) {
  rows <- list()
  for (n in c(1e4, 7e4, 2e5, 1e6)) {
    p <- 20
    set.seed(4)
    x <- matrix(rnorm(n * p), n, p)
    y <- drop(x %*% rnorm(p)) + rnorm(n)
    y01 <- as.numeric(y > 0)
    for (family in c("gaussian", "binomial")) {
      m <- colMeans(x^2) * (if (family == "binomial") 0.25 else 1)
      clip <- sqrt(m / sum(m))
      seconds <- vapply(1:2, function(threads) median_time(function()
        dpglmnet:::.dpcd_path_cpp(x, if (family == "binomial") y01 else y, core_settings(
          family, 0.001, p, FALSE, coordinate_step = 1 / m, coordinate_clip = clip,
          noise_sd = 0.001 * clip, passes = 5L, selection = "permutation",
          average = FALSE, threads = threads))), numeric(1))
      rows[[length(rows) + 1L]] <- data.frame(
        n = n, p = p, family = family,
        ns_per_entry_1_thread = signif(1e9 * seconds[1] / (5 * n * p), 3),
        ns_per_entry_2_threads = signif(1e9 * seconds[2] / (5 * n * p), 3),
        speedup = signif(seconds[1] / seconds[2], 3))
    }
  }
  cat("Dense DP-CD, 1 against 2 threads (one lambda, 5 passes; threads from",
      "65536 records):\n")
  print(do.call(rbind, rows), row.names = FALSE)
  cat("\n")
}
