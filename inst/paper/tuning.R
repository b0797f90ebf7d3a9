# Hyperparameter tuning as the DP-CD paper did it: a non-private evaluation
# tool. Part of the script library in inst/paper/ (see its README.md), loaded
# with source(system.file("paper", "load.R", package = "dpglmnet")); uses
# dpglmnet_objective() from evaluation.R and with_seed() from datasets.R.

# Tune hyperparameters on a grid, as the DP-CD paper did (not private)
#
# Runs dpglmnet() for every combination of `step`, `clip` and `passes` in
# `grid`, `seeds` times each, and reports the objective at the last iterate
# (mean, sd, min, max over seeds) and, for each number of passes, the
# setting with the lowest mean objective. This is the protocol of Mangold et
# al. (2022, App. G.1). With `refine > 0` the grid is only a first, coarse
# stage, refined locally around its best point (see below).
#
# **This tuning is not private.** It looks at the objective on the data for
# every candidate and keeps the best, as the paper did ("we do not account
# for tuning in our privacy budget"). It is an evaluation tool for comparing
# methods at their best; a release based on hyperparameters chosen this way
# does not have the stated (epsilon, delta) guarantee.
#
# **Coarse-then-fine search.** The error of DP-CD is a sharp valley in the
# clipping threshold: too small a threshold biases every gradient, too
# large a one drowns it in noise, and the useful range is often less than a
# factor of 2 wide. The paper's grid (100 thresholds over 9 decades, about
# 11 per decade, times 10 steps) finds it by brute force. `refine = R`
# finds it for a fraction of the cost: after the coarse grid, for each
# number of passes separately, the best settings of the other numbers of
# passes are tried (a valley found at 2 passes may be missed by the coarse
# grid at 10, where doing nothing can beat every coarse point), then `R`
# rounds of a pattern search evaluate the
# 3 x 3 neighbourhood of the current best (step, clip) on a log scale, with
# half the spacing of the round before (starting from half the coarse
# grid's spacing, the median gap between its log10 values; a single step
# or clip value is not refined). The cross-trial costs at most one point
# per other number of passes, each round at most 8 new points per number of
# passes; points already evaluated are not run again. The search
# may leave the coarse grid's range when its best point is on the edge.
# After 3 rounds from one value per decade, the threshold is resolved to
# 1/8 of a decade (a factor 1.33).
#
# x,y: Data, as for dpglmnet().
# grid: A list with numeric vectors `step`, `clip` and `passes`.
# seeds: Runs per grid point.
# reference: Optional optimal objective value `F*`; when given, the
#   relative error `(F - F*) / F*` is reported too.
# seed: Base seed: run `r` of every grid point uses `seed + r`, so all
#   grid points see the same random streams.
# refine: Rounds of local refinement after the grid (0: the grid
#   only).
# ...: Further arguments of dpglmnet() (`family`, `lambda` (one
#   value), `alpha`, `epsilon`, `delta`, `solver`, `smoothness`, `x.bounds`,
#   `intercept`, `batch.size`, ...).
# Returns: A list: `results`, a data frame with one row per evaluated point
#   (`passes`, `step`, `clip`, `round` (0 for the grid, `r` for the `r`-th
#   refinement), `mean`, `sd`, `min`, `max`, and `relative_*` when
#   `reference` is given), and `best`, its rows with the lowest mean
#   objective for each number of passes.
# Example:
# set.seed(1)
# x <- matrix(rnorm(2000), 500, 4)
# y <- drop(x %*% c(1, -1, 0, 0)) + rnorm(500)
# tuned <- tune_nonprivate(x, y, grid = list(step = c(0.5, 1), clip = c(1, 4),
#                                            passes = c(2, 5)),
#                          seeds = 2, lambda = 0.1, epsilon = 1,
#                          smoothness = "uniform")
# tuned$best
# # the same grid refined twice around its best point
# refined <- tune_nonprivate(x, y, grid = list(step = c(0.5, 1), clip = c(1, 4),
#                                              passes = 2),
#                            seeds = 2, refine = 2, lambda = 0.1,
#                            epsilon = 1, smoothness = "uniform")
# table(refined$results$round)
tune_nonprivate <- function(x, y, grid, seeds = 5, reference = NULL, seed = 1,
                            refine = 0, ...) {
  if (!is.list(grid) || !all(c("step", "clip", "passes") %in% names(grid))) {
    dpglmnet_abort("grid", "must be a list with elements `step`, `clip` and `passes`.")
  }
  step <- check_numeric(grid$step, "grid$step", lower = 0, lower_open = TRUE, length = NULL)
  clip <- check_numeric(grid$clip, "grid$clip", lower = 0, lower_open = TRUE, length = NULL)
  passes <- check_numeric(grid$passes, "grid$passes", lower = 1, length = NULL,
                          integer = TRUE)
  seeds <- check_numeric(seeds, "seeds", lower = 1, integer = TRUE)
  seed <- check_numeric(seed, "seed", integer = TRUE)
  refine <- check_numeric(refine, "refine", lower = 0, integer = TRUE)
  if (!is.null(reference)) {
    reference <- check_numeric(reference, "reference", lower = 0, lower_open = TRUE)
  }
  evaluate <- function(points) {
    values <- matrix(NA_real_, nrow(points), seeds)
    for (k in seq_len(nrow(points))) {
      for (r in seq_len(seeds)) {
        fit <- with_seed(seed + r, suppressMessages(dpglmnet::dpglmnet(
          x, y, step = points$step[k], clip = points$clip[k],
          passes = points$passes[k], ...)))
        if (length(fit$lambda) != 1L) {
          dpglmnet_abort("lambda", "must be a single value for tuning.")
        }
        values[k, r] <- dpglmnet_objective(fit, x, y)
      }
    }
    summarise_runs(points, values, reference)
  }
  points <- expand.grid(step = step, clip = clip, passes = passes)
  points$round <- 0L
  results <- evaluate(points)
  # log10 spacing of the coarse grid; 0 (no refinement) for a single value
  spacing <- function(v) {
    v <- sort(unique(log10(v)))
    if (length(v) < 2L) 0 else stats::median(diff(v))
  }
  step_gap <- spacing(step)
  clip_gap <- spacing(clip)
  unseen <- function(new, here) {
    seen <- outer(log10(new$step), log10(here$step), function(a, b) abs(a - b) < 1e-9) &
      outer(log10(new$clip), log10(here$clip), function(a, b) abs(a - b) < 1e-9)
    new[rowSums(seen) == 0L, , drop = FALSE]
  }
  if (refine > 0L && length(passes) > 1L) {
    # the best (step, clip) of every number of passes is tried at the others
    winners <- unique(do.call(rbind, lapply(split(results, results$passes),
      function(r) r[which.min(r$mean), c("step", "clip")])))
    candidates <- do.call(rbind, lapply(passes, function(np) {
      unseen(data.frame(winners, passes = np), results[results$passes == np, ])
    }))
    if (nrow(candidates) > 0L) {
      candidates$round <- 0L
      results <- rbind(results, evaluate(candidates))
    }
  }
  for (round in seq_len(refine)) {
    offsets <- expand.grid(step = step_gap / 2^round * (-1:1),
                           clip = clip_gap / 2^round * (-1:1))
    candidates <- do.call(rbind, lapply(passes, function(np) {
      here <- results[results$passes == np, ]
      best <- here[which.min(here$mean), ]
      unseen(data.frame(step = best$step * 10^offsets$step,
                        clip = best$clip * 10^offsets$clip, passes = np), here)
    }))
    if (nrow(candidates) == 0L) next
    candidates$round <- round
    results <- rbind(results, evaluate(candidates))
  }
  best <- do.call(rbind, lapply(split(results, results$passes),
                                function(r) r[which.min(r$mean), ]))
  rownames(best) <- NULL
  rownames(results) <- NULL
  list(results = results, best = best)
}

# One row per point: its settings and the mean, sd, min and max over runs of
# the objective (and of the relative error when `reference` is given).
summarise_runs <- function(points, values, reference) {
  results <- data.frame(
    points[, c("passes", "step", "clip", "round")],
    mean = rowMeans(values), sd = apply(values, 1L, stats::sd),
    min = apply(values, 1L, min), max = apply(values, 1L, max)
  )
  if (!is.null(reference)) {
    relative <- (values - reference) / reference
    results$relative_mean <- rowMeans(relative)
    results$relative_sd <- apply(relative, 1L, stats::sd)
    results$relative_min <- apply(relative, 1L, min)
    results$relative_max <- apply(relative, 1L, max)
  }
  results
}
