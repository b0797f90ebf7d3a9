# Time per step and per full path of the l1-ball solvers (dpfw, dpfw-vr,
# nmd) against n and p, dense and sparse x. Prints one table.
#
# Problem: x with N(0, 1) entries (sparse: 2% non-zeros), 10 active
# coefficients +-1, noise sd 0.25, no intercept, no standardization,
# epsilon = 1, delta = 1 / n^2 (timings do not depend on the budget).
# Per solver, the steps of one radius:
#   dpfw     passes = 20 full-batch Frank-Wolfe steps (each O(nnz(x)) for the
#            gradient + O(p) for the noisy max);
#   dpfw-vr  passes = 6 phases (fewer when n is small): 2^(T+1) - 2 leaves
#            (Frank-Wolfe steps), every record read at most once per radius
#            (O(nnz(x)) for all the gradients of a run + O(p) per leaf);
#   nmd      passes = 1 epoch of n / batch.size minibatch steps, batch.size
#            = round(sqrt(n)) (O(batch nnz per row + p) per step).
# "step" is the median over 3 fits of one radius divided by its steps (so
# it includes the setup: the row-major copy of dense x for dpfw-vr and nmd);
# "path" is one fit of the default 10-radius path. Dense x is skipped above
# 2e7 entries (160 MB).
#
#   taskset -c 0 Rscript inst/bench/l1_timing.R
suppressPackageStartupMessages(library(dpglmnet))
options(width = 200)

make_problem <- function(n, p, sparse) {
  set.seed(n + p)
  x <- if (sparse) {
    Matrix::rsparsematrix(n, p, density = 0.02, rand.x = stats::rnorm)
  } else {
    matrix(stats::rnorm(n * p), n, p)
  }
  beta <- numeric(p)
  beta[sample.int(p, 10)] <- sample(c(-1, 1), 10, replace = TRUE)
  list(x = x, y = as.numeric(x %*% beta) + stats::rnorm(n, 0, 0.25))
}

settings <- list(
  dpfw = function(n) list(passes = 20),
  `dpfw-vr` = function(n) list(passes = 6),
  nmd = function(n) list(passes = 1, batch.size = round(sqrt(n)))
)

fit_once <- function(problem, solver, radius, nlambda = NULL) {
  n <- nrow(problem$x)
  args <- c(list(problem$x, problem$y, solver = solver, epsilon = 1, delta = 1 / n^2,
                 intercept = FALSE, standardize = FALSE),
            settings[[solver]](n),
            if (is.null(nlambda)) list(l1.radius = radius) else list(nlambda = nlambda))
  seconds <- system.time(fit <- suppressWarnings(do.call(dpglmnet, args)))[["elapsed"]]
  list(seconds = seconds, steps = fit$settings$steps_per_radius)
}

shapes <- rbind(data.frame(n = c(1e3, 1e4, 1e5), p = 100),
                data.frame(n = 1e4, p = c(1e3, 1e4)))
rows <- list()
for (k in seq_len(nrow(shapes))) {
  n <- shapes$n[k]
  p <- shapes$p[k]
  for (sparse in c(FALSE, TRUE)) {
    if (!sparse && n * p > 2e7) next
    problem <- make_problem(n, p, sparse)
    for (solver in names(settings)) {
      one <- lapply(1:3, function(r) fit_once(problem, solver, radius = sqrt(10)))
      seconds <- stats::median(vapply(one, `[[`, 0, "seconds"))
      steps <- one[[1]]$steps
      path <- fit_once(problem, solver, nlambda = 10)$seconds
      rows[[length(rows) + 1L]] <- data.frame(
        n = n, p = p, x = if (sparse) "sparse 2%" else "dense", solver = solver,
        steps_per_radius = steps,
        ms_per_step = signif(1e3 * seconds / steps, 3),
        ms_per_radius = signif(1e3 * seconds, 3),
        s_path_10_radii = signif(path, 3))
    }
  }
}
cat("## Time per step and per full path (one core)\n\n")
print(do.call(rbind, rows), row.names = FALSE)
