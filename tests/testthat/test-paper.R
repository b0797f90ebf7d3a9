# The paper-reproduction scripts of inst/paper/ (problems, published tables,
# objective, tuning), loaded from the installed package.
source(system.file("paper", "load.R", package = "dpglmnet"), local = TRUE)

test_that("the published tables are complete", {
  t <- paper_tables()
  expect_equal(nrow(t$table2), 5 * 2 * 5)
  expect_equal(nrow(t$table3), 3 * 2 * 5)
  expect_equal(t$table2$relative_error[t$table2$problem == "california_imbalanced" &
                                         t$table2$solver == "dpcd" &
                                         t$table2$passes == 50], 0.0124)
})

test_that("paper problems follow the protocol, with a generated stand-in", {
  expect_message(p <- paper_problem("california_imbalanced", path = NULL),
                 "not found")
  expect_equal(dim(p$x), c(20640L, 8L))
  expect_equal(range(p$smoothness), c(1.4, 3.3e6), tolerance = 1e-6)
  expect_equal(p$lambda, 1)
  expect_equal(p$delta, 1 / 20640^2)
  expect_identical(p$data, "generated")
  expect_equal(p$x.bounds, 2 * apply(abs(p$x), 2, max))
  e <- suppressMessages(paper_problem("electricity_balanced", path = NULL))
  expect_equal(e$smoothness, rep(0.25, 8), tolerance = 1e-8)
  expect_equal(e$lambda, 1 / 45312)
  expect_equal(e$alpha, 0)
  s <- paper_problem("sparse_lasso")
  expect_equal(s$epsilon, 10)
  expect_equal(s$lambda, 1.96 * sqrt(2 * log(1000) / 1000))
  fit <- dpglmnet(s$x, s$y, lambda = s$lambda, intercept = FALSE,
                  epsilon = Inf, passes = 100, standardize = FALSE)
  # about 10 non-zeros (10 active features, lambda just above the noise)
  expect_gte(fit$df, 9)
  expect_lte(fit$df, 12)
  expect_dpglmnet_error(paper_problem("boston"), "`name`")
})

test_that("the objective is glmnet's", {
  d <- simulate_binomial()
  fit <- dpglmnet(d$x, d$y, family = "binomial", alpha = 0.5, lambda = c(0.1, 0.01),
                  epsilon = Inf, passes = 50, standardize = FALSE)
  b <- as.matrix(coef(fit))
  for (l in 1:2) {
    eta <- drop(cbind(1, d$x) %*% b[, l])
    manual <- mean(log1p(exp(eta)) - d$y * eta) +
      fit$lambda[l] * sum(0.25 * b[-1, l]^2 + 0.5 * abs(b[-1, l]))
    expect_equal(dpglmnet_objective(fit, d$x, d$y)[l], manual, tolerance = 1e-12)
  }
  # -1/+1 labels give the same value
  expect_equal(dpglmnet_objective(fit, d$x, 2 * d$y - 1),
               dpglmnet_objective(fit, d$x, d$y))
  expect_dpglmnet_error(dpglmnet_objective(list(), d$x, d$y), "`object`")
})

test_that("tuning and the paper experiment return the best settings", {
  p <- paper_problem("california_balanced")
  reference <- paper_reference(p, passes = 100)
  r <- paper_experiment(p, "dpcd", grid = list(step = c(0.3, 1), clip = c(1, 10),
                                               passes = c(2, 5)),
                        tuning_seeds = 1, final_seeds = 3, reference = reference)
  expect_equal(r$passes, c(2, 5))
  expect_true(all(r$min <= r$mean & r$mean <= r$max))
  expect_true(all(r$mean > 0))
  expect_true(all(r$step %in% c(0.3, 1) & r$clip %in% c(1, 10)))
  expect_identical(r$selection, c("permutation", "permutation"))
  # the paper's statistic: the mean over the tuning runs at the chosen point
  expect_true(all(is.finite(r$tuning_mean) & r$tuning_mean > 0))
  # several coordinate orders: each is tuned, the best kept per passes
  both <- paper_experiment(p, "dpcd", grid = list(step = 1, clip = 10, passes = 2),
                           tuning_seeds = 1, final_seeds = 2, reference = reference,
                           selection = c("permutation", "cyclic"))
  expect_true(both$selection %in% c("permutation", "cyclic"))
  sgd <- paper_experiment(p, "dpsgd", grid = list(step = 0.1, clip = 1, passes = 2),
                          tuning_seeds = 1, final_seeds = 2, reference = reference)
  expect_true(is.na(sgd$selection))
  expect_dpglmnet_error(paper_experiment(p, "dpcd", selection = "sorted",
                                         reference = reference), "`selection`")
  expect_dpglmnet_error(tune_nonprivate(p$x, p$y, grid = list(step = 1)), "`grid`")
  expect_dpglmnet_error(paper_grid("newton"), "`solver`")
})

test_that("DP-SCD runs in the paper experiment on the ridge problems, batch size tuned", {
  p <- paper_problem("california_ridge")
  expect_identical(p$alpha, 0)
  expect_equal(p$lambda, 0.1)
  expect_equal(p$x, paper_problem("california_balanced")$x)
  reference <- paper_reference(p, passes = 100)
  r <- paper_experiment(p, "dpscd", grid = list(step = 1, clip = c(0.01, 1), passes = 2),
                        tuning_seeds = 1, final_seeds = 2, reference = reference,
                        batch.size = c(1000, Inf))
  expect_true(r$batch.size %in% c(1000, nrow(p$x)))
  expect_true(is.na(r$selection))
  expect_true(r$clip %in% c(0.01, 1) && r$mean > 0)
  # tuning covers both batch sizes: 2 points each, plus the final runs
  expect_equal(attr(r, "solver_passes"), 2 * 2 * 2 + 2 * 2)
  expect_dpglmnet_error(paper_experiment(paper_problem("california_balanced"), "dpscd",
                                         reference = 1), "`solver`")
  g <- paper_grid("dpscd", "full")
  expect_identical(g$step, 1)
  expect_equal(range(g$clip), c(1e-5, 1e2))
  expect_equal(diff(log10(g$clip)), rep(1 / 11, 77))
  expect_equal(paper_grid("dpscd", "small")$clip, 10^(-5:2))
})

test_that("paper_grid() is the paper's grid (App. G.1), or a coarse one spanning it", {
  for (solver in c("dpcd", "dpcd_private", "dpsgd")) {
    full <- paper_grid(solver, "full")
    expect_equal(full$passes, c(2, 5, 10, 20, 50))
    expect_length(full$step, 10L)
    expect_length(full$clip, 100L)
    expect_equal(range(full$clip), c(1e-3, 1e6))
    expect_equal(range(full$step), if (solver == "dpsgd") c(1e-6, 1) else c(1e-2, 10))
    expect_equal(diff(log10(full$clip)), rep(1 / 11, 99))
    small <- paper_grid(solver, "small")
    expect_equal(small$passes, full$passes)
    expect_true(all(small$step >= min(full$step) & small$step <= max(full$step)))
  }
  # DP-CD's coarse steps reach above 1 / M_j: coordinate descent needs it
  # on correlated standardized features
  expect_gt(max(paper_grid("dpcd", "small")$step), 1)
})

test_that("coarse-then-fine tuning refines around the best point", {
  p <- paper_problem("california_balanced")
  grid <- list(step = c(0.1, 1), clip = c(1, 10, 100), passes = c(2, 5))
  tune <- function(refine) {
    tune_nonprivate(p$x, p$y, grid = grid, seeds = 1, refine = refine,
                    lambda = p$lambda, intercept = FALSE, epsilon = 1,
                    smoothness = p$smoothness, standardize = FALSE)
  }
  coarse <- tune(0)
  fine <- tune(2)
  expect_identical(unique(coarse$results$round), 0L)
  expect_setequal(unique(fine$results$round), 0:2)
  n0 <- nrow(coarse$results)
  # the grid comes first and is the same; refinement only adds points
  expect_equal(fine$results[seq_len(n0), ], coarse$results)
  expect_gt(nrow(fine$results), n0)
  # at most 1 cross-trial and 2 x 8 neighbours per number of passes
  expect_lte(nrow(fine$results), n0 + 2 * (1 + 16))
  # no point is run twice
  key <- paste(fine$results$passes, signif(fine$results$step, 12),
               signif(fine$results$clip, 12))
  expect_false(anyDuplicated(key) > 0)
  # the best of a superset is at least as good
  expect_true(all(fine$best$mean <= coarse$best$mean))
  # round 1 moves by half the grid's spacing (1 decade) from a grid point,
  # round 2 by a quarter
  on_lattice <- function(v, k) all(abs(k * log10(v) - round(k * log10(v))) < 1e-9)
  r1 <- fine$results[fine$results$round == 1L, ]
  expect_true(on_lattice(r1$clip, 2) && on_lattice(r1$step, 2))
  r2 <- fine$results[fine$results$round == 2L, ]
  expect_true(on_lattice(r2$clip, 4) && on_lattice(r2$step, 4))
  expect_false(on_lattice(r2$clip, 2) && on_lattice(r2$step, 2))
  expect_dpglmnet_error(tune_nonprivate(p$x, p$y, grid = grid, refine = -1),
                        "`refine`")
})

test_that("the paper tools are scripts, not exports of the package", {
  exports <- getNamespaceExports("dpglmnet")
  for (name in c("paper_problem", "paper_tables", "paper_experiment", "paper_grid",
                 "paper_reference", "tune_nonprivate", "dpglmnet_objective",
                 "load_california", "load_electricity", "dpglmnet_data_dir",
                 "simulate_sparse_lasso", "simulate_imbalanced")) {
    expect_false(name %in% exports)
    expect_true(is.function(get(name)))
  }
})
