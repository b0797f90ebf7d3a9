# Loaders of the paper's real datasets, their checksum check, and the
# synthetic data generators: the paper-reproduction scripts of inst/paper/,
# loaded from the installed package.
source(system.file("paper", "load.R", package = "dpglmnet"), local = TRUE)

md5_file <- function(file) unname(tools::md5sum(file))

test_that("a NULL or wrong path errors with advice", {
  err <- expect_dpglmnet_error(load_california(path = NULL), "path")
  expect_match(conditionMessage(err), "DPGLMNET_DATA", fixed = TRUE)
  expect_dpglmnet_error(load_electricity(path = NULL), "path")
  expect_dpglmnet_error(load_california(path = 3), "path")
  expect_dpglmnet_error(load_california(path = file.path(tempdir(), "nowhere")),
                        "path")
  empty <- tempfile("empty-data-")
  dir.create(empty)
  on.exit(unlink(empty, recursive = TRUE))
  err <- expect_dpglmnet_error(load_electricity(path = empty), "path")
  expect_match(conditionMessage(err), "electricity.csv", fixed = TRUE)
  expect_dpglmnet_error(load_california(path = empty, standardize = NA),
                        "standardize")
})

test_that("dpglmnet_data_dir follows DPGLMNET_DATA when it names a folder", {
  folder <- tempfile("data-dir-")
  dir.create(folder)
  on.exit(unlink(folder, recursive = TRUE))
  old <- Sys.getenv("DPGLMNET_DATA", unset = NA)
  on.exit(if (is.na(old)) Sys.unsetenv("DPGLMNET_DATA") else
    Sys.setenv(DPGLMNET_DATA = old), add = TRUE)
  Sys.setenv(DPGLMNET_DATA = folder)
  expect_identical(dpglmnet_data_dir(), normalizePath(folder, winslash = "/"))
  Sys.setenv(DPGLMNET_DATA = file.path(folder, "absent"))
  expect_false(identical(dpglmnet_data_dir(),
                         normalizePath(file.path(folder, "absent"),
                                       winslash = "/", mustWork = FALSE)))
})

test_that("California loads with the paper's shape and smoothness range", {
  skip_if(is.null(dpglmnet_data_dir()), "the paper's data were not found")
  data <- load_california()
  expect_identical(data$name, "california")
  expect_identical(data$md5, "a4b4350b15221e77e7e4100cbdade88b")
  expect_true(is.matrix(data$x) && is.double(data$x))
  expect_identical(dim(data$x), c(20640L, 8L))
  expect_identical(colnames(data$x),
                   c("MedInc", "HouseAge", "AveRooms", "AveBedrms", "Population",
                     "AveOccup", "Latitude", "Longitude"))
  expect_type(data$y, "double")
  expect_length(data$y, 20640L)
  expect_false(anyNA(data$x) || anyNA(data$y))
  expect_equal(unname(data$x[1, "MedInc"]), 8.3252)
  expect_equal(data$y[1], 4.526)
  smoothness <- colMeans(data$x^2)  # least squares: (1/n) sum x^2
  expect_equal(min(smoothness), 1.4, tolerance = 0.05)
  expect_equal(max(smoothness), 3.3e6, tolerance = 0.05)
  expect_identical(names(which.max(smoothness)), "Population")
})

test_that("Electricity loads with the paper's shape, classes and smoothness", {
  skip_if(is.null(dpglmnet_data_dir()), "the paper's data were not found")
  data <- load_electricity()
  expect_identical(data$name, "electricity")
  expect_identical(data$md5, "3134f82204857135380d661e8f95eb58")
  expect_identical(dim(data$x), c(45312L, 8L))
  expect_identical(colnames(data$x),
                   c("date", "day", "period", "nswprice", "nswdemand",
                     "vicprice", "vicdemand", "transfer"))
  expect_identical(sort(unique(data$x[, "day"])), as.numeric(1:7))
  expect_s3_class(data$y, "factor")
  expect_identical(levels(data$y), c("DOWN", "UP"))
  expect_identical(c(table(data$y)), c(DOWN = 26075L, UP = 19237L))
  smoothness <- colMeans(data$x^2) / 4  # logistic: (1/4n) sum x^2
  expect_equal(min(smoothness), 2.9e-5, tolerance = 0.05)
  expect_equal(max(smoothness), 5.0, tolerance = 0.05)
  expect_identical(names(which.max(smoothness)), "day")
})

test_that("standardize = TRUE gives mean 0 and population sd 1, y unchanged", {
  skip_if(is.null(dpglmnet_data_dir()), "the paper's data were not found")
  for (loader in list(load_california, load_electricity)) {
    raw <- loader()
    data <- loader(standardize = TRUE)
    expect_identical(colnames(data$x), colnames(raw$x))
    expect_equal(unname(colMeans(data$x)), rep(0, 8), tolerance = 1e-10)
    expect_equal(unname(sqrt(colMeans(data$x^2))), rep(1, 8), tolerance = 1e-10)
    expect_identical(data$y, raw$y)
    # an affine map of each raw column
    expect_equal(cor(data$x[, 3], raw$x[, 3]), 1, tolerance = 1e-12)
  }
})

test_that("a file that is not the published one is refused, naming both MD5s", {
  # needs no data: any other bytes under the expected name
  folder <- tempfile("fake-data-")
  dir.create(folder)
  on.exit(unlink(folder, recursive = TRUE))
  fake <- file.path(folder, "electricity.csv")
  writeLines(c("date,day,period,nswprice,nswdemand,vicprice,vicdemand,transfer,class",
               "0,2,0,0.056443,0.439155,0.003467,0.422915,0.414912,UP"), fake)
  err <- expect_dpglmnet_error(load_electricity(path = folder), "path")
  expect_match(conditionMessage(err), "electricity.csv that is not the published one",
               fixed = TRUE)
  expect_match(conditionMessage(err), md5_file(fake), fixed = TRUE)
  expect_match(conditionMessage(err), "3134f82204857135380d661e8f95eb58", fixed = TRUE)
})

test_that("a modified copy of the data fails the checksum", {
  skip_if(is.null(dpglmnet_data_dir()), "the paper's data were not found")
  folder <- tempfile("corrupt-data-")
  dir.create(folder)
  on.exit(unlink(folder, recursive = TRUE))
  lines <- readLines(file.path(dpglmnet_data_dir(), "california.csv"))
  lines[2] <- sub("8.3252", "8.3253", lines[2], fixed = TRUE)
  writeLines(lines, file.path(folder, "california.csv"))
  err <- expect_dpglmnet_error(load_california(path = folder), "path")
  expect_match(conditionMessage(err), "not the published one", fixed = TRUE)
  expect_match(conditionMessage(err), "a4b4350b15221e77e7e4100cbdade88b",
               fixed = TRUE)
  expect_match(conditionMessage(err),
               md5_file(file.path(folder, "california.csv")), fixed = TRUE)
  # the electricity file stored under the California name
  file.copy(file.path(dpglmnet_data_dir(), "electricity.csv"),
            file.path(folder, "california.csv"), overwrite = TRUE)
  expect_dpglmnet_error(load_california(path = folder), "path")
})

test_that("simulate_sparse_lasso has the asked shape and sparsity", {
  data <- simulate_sparse_lasso(n = 300, p = 200, active = 7, noise = 0.1,
                                seed = 11)
  expect_identical(dim(data$x), c(300L, 200L))
  expect_length(data$y, 300L)
  expect_length(data$beta, 200L)
  expect_identical(sum(data$beta != 0), 7L)
  expect_true(all(abs(data$beta[data$beta != 0]) == 1))
  expect_equal(data$lambda, 0.1 * sqrt(2 * log(200) / 300))
  residual <- data$y - drop(data$x %*% data$beta)
  expect_equal(sd(residual), 0.1, tolerance = 0.2)
  expect_identical(sum(simulate_sparse_lasso(50, 20, active = 0, seed = 1)$beta != 0),
                   0L)
  expect_identical(sum(simulate_sparse_lasso(50, 20, active = 20, seed = 1)$beta != 0),
                   20L)
  defaults <- simulate_sparse_lasso(seed = 2)
  expect_identical(dim(defaults$x), c(1000L, 1000L))
  expect_identical(sum(defaults$beta != 0), 10L)
  expect_equal(defaults$lambda, 1.96 * sqrt(2 * log(1000) / 1000))
})

test_that("the Sparse LASSO default noise is calibrated to the paper's start error", {
  # the first-order formula above simulate_sparse_lasso() (inst/paper/datasets.R)
  # gives the default noise
  expect_equal(sparse_lasso_noise(), 1.96, tolerance = 0.01)
  # and, on simulated data, a start error F(0)/F* - 1 near the paper's 0.7551
  # with about 10 non-zeros (one seed; over seeds 1..10 the mean is 0.742,
  # the range 0.66 to 0.83)
  d <- simulate_sparse_lasso(seed = 2)
  fit <- dpglmnet(d$x, d$y, lambda = d$lambda, intercept = FALSE,
                  epsilon = Inf, passes = 100, selection = "cyclic")
  start <- sum(d$y^2) / (2 * 1000) / dpglmnet_objective(fit, d$x, d$y) - 1
  expect_equal(start, 0.7551, tolerance = 0.1)
  expect_gte(fit$df, 9)
  expect_lte(fit$df, 12)
})

test_that("simulate_imbalanced hits the smoothness targets exactly", {
  target <- c(1e-4, 0.5, 1, 30, 2e5)
  data <- simulate_imbalanced(n = 500, smoothness = target, seed = 3)
  expect_identical(dim(data$x), c(500L, 5L))
  expect_identical(data$smoothness, target)
  expect_equal(colMeans(data$x^2), target, tolerance = 1e-12)
  expect_length(data$beta, 5L)
  expect_type(data$y, "double")
  # lognormal targets, and sdlog = 0 gives the balanced dataset
  data <- simulate_imbalanced(n = 400, p = 50, sdlog = 2, seed = 4)
  expect_identical(dim(data$x), c(400L, 50L))
  expect_equal(colMeans(data$x^2), data$smoothness, tolerance = 1e-12)
  expect_gt(max(data$smoothness) / min(data$smoothness), 100)
  balanced <- simulate_imbalanced(n = 400, p = 50, sdlog = 0, seed = 4)
  expect_equal(colMeans(balanced$x^2), rep(1, 50), tolerance = 1e-12)
  # gaussian noise around the linear predictor
  residual <- data$y - drop(data$x %*% data$beta)
  expect_equal(sd(residual), 0.1, tolerance = 0.2)
})

test_that("simulate_imbalanced binomial labels are flipped at rate `flip`", {
  data <- simulate_imbalanced(n = 10000, p = 20, family = "binomial",
                              flip = 0.2, seed = 5)
  expect_s3_class(data$y, "factor")
  expect_identical(levels(data$y), c("-1", "1"))
  eta <- drop(data$x %*% data$beta)
  clean <- ifelse(eta > median(eta), "1", "-1")
  # binomial sd of the rate is 0.004 at n = 10000: 0.02 is 5 sd
  expect_equal(mean(as.character(data$y) != clean), 0.2, tolerance = 0.02 / 0.2)
  expect_equal(mean(data$y == "1"), 0.5, tolerance = 0.02 / 0.5)
  noiseless <- simulate_imbalanced(n = 1000, p = 5, family = "binomial",
                                   flip = 0, seed = 6)
  eta <- drop(noiseless$x %*% noiseless$beta)
  expect_identical(as.character(noiseless$y), ifelse(eta > median(eta), "1", "-1"))
})

test_that("a seed reproduces the data and leaves the caller's stream alone", {
  expect_identical(simulate_sparse_lasso(100, 30, seed = 7),
                   simulate_sparse_lasso(100, 30, seed = 7))
  expect_identical(simulate_imbalanced(100, 10, family = "binomial", seed = 7),
                   simulate_imbalanced(100, 10, family = "binomial", seed = 7))
  expect_false(identical(simulate_sparse_lasso(100, 30, seed = 7)$x,
                         simulate_sparse_lasso(100, 30, seed = 8)$x))
  set.seed(42)
  expected <- runif(3)
  set.seed(42)
  simulate_sparse_lasso(100, 30, seed = 1)
  simulate_imbalanced(100, 10, seed = 1)
  expect_identical(runif(3), expected)
  # no seed: draws from (and advances) the caller's stream
  set.seed(9)
  a <- simulate_sparse_lasso(50, 10)
  set.seed(9)
  expect_identical(simulate_sparse_lasso(50, 10), a)
  # a session without a seed yet keeps none
  if (exists(".Random.seed", envir = globalenv())) {
    saved <- get(".Random.seed", envir = globalenv())
    on.exit(assign(".Random.seed", saved, envir = globalenv()))
    rm(".Random.seed", envir = globalenv())
  }
  simulate_sparse_lasso(20, 5, active = 2, seed = 1)
  expect_false(exists(".Random.seed", envir = globalenv()))
})

test_that("bad arguments error with class dpglmnet_error naming them", {
  expect_dpglmnet_error(simulate_sparse_lasso(n = 0), "n")
  expect_dpglmnet_error(simulate_sparse_lasso(n = 10.5), "n")
  expect_dpglmnet_error(simulate_sparse_lasso(p = "a"), "p")
  expect_dpglmnet_error(simulate_sparse_lasso(n = 10, p = 5, active = 6), "active")
  expect_dpglmnet_error(simulate_sparse_lasso(active = -1), "active")
  expect_dpglmnet_error(simulate_sparse_lasso(noise = -0.1), "noise")
  expect_dpglmnet_error(simulate_sparse_lasso(noise = NA_real_), "noise")
  expect_dpglmnet_error(simulate_sparse_lasso(seed = 1.5), "seed")
  expect_dpglmnet_error(simulate_sparse_lasso(seed = c(1, 2)), "seed")
  expect_dpglmnet_error(simulate_imbalanced(family = "poisson"), "family")
  expect_dpglmnet_error(simulate_imbalanced(n = -1), "n")
  expect_dpglmnet_error(simulate_imbalanced(p = 0), "p")
  expect_dpglmnet_error(simulate_imbalanced(smoothness = c(1, 0)), "smoothness")
  expect_dpglmnet_error(simulate_imbalanced(smoothness = c(1, Inf)), "smoothness")
  expect_dpglmnet_error(simulate_imbalanced(p = 3, smoothness = c(1, 2)),
                        "smoothness")
  expect_dpglmnet_error(simulate_imbalanced(sdlog = -1), "sdlog")
  expect_dpglmnet_error(simulate_imbalanced(flip = 1.5), "flip")
  expect_dpglmnet_error(simulate_imbalanced(noise = "a"), "noise")
  expect_dpglmnet_error(simulate_imbalanced(seed = "x"), "seed")
  expect_dpglmnet_error(load_electricity(standardize = "yes"), "standardize")
})
