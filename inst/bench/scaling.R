# Time per pass of DP-CD and per epoch of DP-SGD against n and p, for dense
# and sparse x (1% non-zeros): the cost should grow as O(n p) dense and
# O(nnz) sparse, so the last column (nanoseconds per stored entry) stays flat.
#
#   Rscript inst/bench/scaling.R
suppressPackageStartupMessages(library(dpglmnet))
options(width = 200)
set.seed(1)
passes <- 5L
time_fit <- function(x, y, solver) {
  stats::median(vapply(1:3, function(i) system.time(dpglmnet(
    x, y, lambda = 0.01, epsilon = 1, passes = passes, solver = solver,
    smoothness = "uniform", batch.size = 10, intercept = FALSE, standardize = FALSE))[["elapsed"]],
    numeric(1)))
}
shapes <- rbind(expand.grid(n = c(5000, 20000, 80000), p = 20),
                expand.grid(n = 20000, p = c(5, 80)))
rows <- list()
for (k in seq_len(nrow(shapes))) {
  n <- shapes$n[k]
  p <- shapes$p[k]
  dense <- matrix(rnorm(n * p), n, p)
  sparse <- Matrix::rsparsematrix(n, p * 20, density = 0.01)
  y <- rnorm(n)
  for (solver in c("dpcd", "dpsgd")) {
    for (kind in c("dense", "sparse")) {
      x <- if (kind == "dense") dense else sparse
      stored <- if (kind == "dense") length(x) else length(x@x)
      seconds <- suppressMessages(time_fit(x, y, solver))
      rows[[length(rows) + 1L]] <- data.frame(
        solver = solver, x = kind, n = n, p = ncol(x), stored = stored,
        seconds_per_pass = signif(seconds / passes, 3),
        ns_per_stored_entry = signif(1e9 * seconds / passes / stored, 3))
    }
  }
}
print(do.call(rbind, rows), row.names = FALSE)
