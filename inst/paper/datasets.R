# Datasets of the DP-CD experiments: loaders for the two real datasets of the
# paper (checked against known checksums) and generators for its synthetic
# ones. The real data are never copied into the package; they are found
# through DPGLMNET_DATA or a shared folder next to the project. Part of the
# script library in inst/paper/ (see its README.md): non-private evaluation
# tools, loaded with source(system.file("paper", "load.R", package = "dpglmnet")).

# The files are checked with R's own tools::md5sum() (R 4.2 has no SHA-256).
# The MD5 values were computed with coreutils md5sum from the files whose
# SHA-256 the data's README publishes, kept here for reference:
#   california.csv   sha256 4ba2e6eefdd7b1e1062d53b125dcec17d159446c4174a249f85c90881c02101e
#   electricity.csv  sha256 c10a416790ef8ab96089e5adfd2febb7c9cec72bd80dfecb2342f2283b86b88a
california_md5 <- "a4b4350b15221e77e7e4100cbdade88b"
electricity_md5 <- "3134f82204857135380d661e8f95eb58"

# Where the paper's real datasets live
#
# Finds the folder holding `california.csv` and `electricity.csv`, the two
# real datasets of the DP-CD experiments (Mangold et al. 2022). The data are
# not shipped with the package.
#
# The folder is the value of the environment variable `DPGLMNET_DATA` if it
# is set and names an existing folder; otherwise the first existing one of
# `../shared/data`, `../../shared/data` and `../../../shared/data`, relative
# to the working directory.
#
# Returns: The folder as an absolute path, or `NULL` if none was found.
# See also: load_california(), load_electricity().
# Example:
# dpglmnet_data_dir()
dpglmnet_data_dir <- function() {
  from_env <- Sys.getenv("DPGLMNET_DATA")
  candidates <- c(
    if (nzchar(from_env)) from_env,
    file.path(c("..", "../..", "../../.."), "shared", "data")
  )
  for (candidate in candidates) {
    if (dir.exists(candidate)) return(normalizePath(candidate, winslash = "/"))
  }
  NULL
}

# The paper's real datasets: California housing and Electricity
#
# Read the two real datasets of the DP-CD experiments (Mangold, Bellet,
# Salmon & Tommasi, ICML 2022, Section 6) from a folder, after checking that
# each file's MD5 is that of the published file.
#
# * California (Pace & Barry 1997, as prepared by scikit-learn's
#   `fetch_california_housing`): 20640 records; `x` holds the 8 columns
#   `MedInc`, `HouseAge`, `AveRooms`, `AveBedrms`, `Population`, `AveOccup`,
#   `Latitude`, `Longitude`; `y` is `MedHouseVal` (median house value in
#   units of 100,000 dollars), numeric. The paper fits a LASSO to it.
# * Electricity (Harries 1999, OpenML data set 151): 45312 records; `x`
#   holds `date`, `day` (day of the week as a number 1 to 7), `period`,
#   `nswprice`, `nswdemand`, `vicprice`, `vicdemand`, `transfer`; `y` is a
#   factor with levels `c("DOWN", "UP")` from the column `class`. The paper
#   fits an L2-regularized logistic regression to it.
#
# The raw columns have very different scales (the paper's "imbalanced"
# setting); `standardize = TRUE` gives its "balanced" setting: each column
# of `x` is centred to mean 0 and scaled to population standard deviation 1
# (dividing by n, not n - 1). `y` is never changed.
#
# **`standardize = TRUE` is not private.** It uses the data's own means and
# standard deviations, which a differentially private analysis may not look
# at without paying for them (and dpglmnet() refuses `standardize = TRUE`
# for that reason). These loaders exist to reproduce the paper's
# experiments, where the data are treated as public.
#
# path: The folder holding `california.csv` or `electricity.csv`;
#   by default the one found by dpglmnet_data_dir().
# standardize: Centre and scale each column of `x` with its own mean
#   and population standard deviation? Not private; see above.
# Returns: A list with `x`, a numeric matrix with column names; `y`; `name`,
#   `"california"` or `"electricity"`; and `md5`, the checksum of the file
#   read.
# References: Mangold, P., Bellet, A., Salmon, J. and Tommasi, M. (2022).
#   Differentially private coordinate descent for composite empirical risk
#   minimization. *ICML 2022*. <arXiv:2110.11688>
#
#   Pace, R. K. and Barry, R. (1997). Sparse spatial autoregressions.
#   *Statistics & Probability Letters* 33(3), 291-297.
#
#   Harries, M. (1999). Splice-2 comparative evaluation: electricity
#   pricing. Technical report, University of New South Wales.
# See also: dpglmnet_data_dir() to say where the files are.
# Example:
# if (!is.null(dpglmnet_data_dir())) {
#   california <- load_california()
#   dim(california$x)
#   colMeans(california$x^2)  # coordinate smoothness constants of the LASSO
#   electricity <- load_electricity(standardize = TRUE)
#   table(electricity$y)
# }
load_california <- function(path = dpglmnet_data_dir(), standardize = FALSE) {
  standardize <- check_flag(standardize, "standardize")
  file <- checked_data_file(path, "california.csv", california_md5)
  columns <- scan(file, what = rep(list(0), 9L), sep = ",", skip = 1L,
                  quiet = TRUE)
  names(columns) <- c("MedInc", "HouseAge", "AveRooms", "AveBedrms",
                      "Population", "AveOccup", "Latitude", "Longitude",
                      "MedHouseVal")
  x <- do.call(cbind, columns[1:8])
  if (standardize) x <- standardize_columns(x)
  list(x = x, y = columns$MedHouseVal, name = "california",
       md5 = california_md5)
}

# Electricity: see the comment above load_california().
load_electricity <- function(path = dpglmnet_data_dir(), standardize = FALSE) {
  standardize <- check_flag(standardize, "standardize")
  file <- checked_data_file(path, "electricity.csv", electricity_md5)
  columns <- scan(file, what = c(rep(list(0), 8L), list("")), sep = ",",
                  skip = 1L, quiet = TRUE)
  names(columns) <- c("date", "day", "period", "nswprice", "nswdemand",
                      "vicprice", "vicdemand", "transfer", "class")
  x <- do.call(cbind, columns[1:8])
  if (standardize) x <- standardize_columns(x)
  list(x = x, y = factor(columns$class, levels = c("DOWN", "UP")),
       name = "electricity", md5 = electricity_md5)
}

# The path of `file` in the folder `path`, after checking the folder, the file
# and the file's MD5 against the expected value.
checked_data_file <- function(path, file, expected) {
  if (is.null(path)) {
    dpglmnet_abort("path", paste0(
      "is NULL: the folder of the paper's datasets was not found. Set the ",
      "environment variable DPGLMNET_DATA to the folder holding ", file,
      " (for example Sys.setenv(DPGLMNET_DATA = \"/path/to/shared/data\")), ",
      "or pass that folder as `path`."
    ))
  }
  if (!is.character(path) || length(path) != 1L || is.na(path) ||
      !nzchar(path)) {
    dpglmnet_abort("path", "must be a single folder name (a character string).")
  }
  if (!dir.exists(path)) {
    dpglmnet_abort("path", sprintf("must be an existing folder; \"%s\" is not.",
                                   path))
  }
  full <- file.path(path, file)
  if (!file.exists(full) || dir.exists(full)) {
    dpglmnet_abort("path", sprintf("does not contain %s (looked for \"%s\").",
                                   file, full))
  }
  actual <- unname(tools::md5sum(normalizePath(full)))
  if (!identical(actual, expected)) {
    dpglmnet_abort("path", sprintf(paste0(
      "holds a %s that is not the published one: its MD5 is %s, ",
      "expected %s."), file, if (is.na(actual)) "(unreadable)" else actual,
      expected))
  }
  full
}

# Centre each column to mean 0 and scale it to population sd 1 (1/n). A
# constant column is only centred.
standardize_columns <- function(x) {
  centre <- colMeans(x)
  x <- sweep(x, 2L, centre, "-")
  scale <- sqrt(colMeans(x^2))
  scale[scale == 0] <- 1
  sweep(x, 2L, scale, "/")
}

# Evaluates `expr` after set.seed(seed), then puts the caller's random number
# stream back as it was (NULL seed: evaluate in the caller's stream).
with_seed <- function(seed, expr) {
  if (is.null(seed)) return(expr)
  env <- globalenv()
  had_seed <- exists(".Random.seed", envir = env, inherits = FALSE)
  if (had_seed) old_seed <- get(".Random.seed", envir = env, inherits = FALSE)
  on.exit({
    if (had_seed) {
      assign(".Random.seed", old_seed, envir = env)
    } else if (exists(".Random.seed", envir = env, inherits = FALSE)) {
      rm(".Random.seed", envir = env)
    }
  }, add = TRUE)
  set.seed(seed)
  expr
}

check_seed <- function(seed) {
  if (is.null(seed)) return(NULL)
  check_numeric(seed, "seed", lower = -.Machine$integer.max,
                upper = .Machine$integer.max, integer = TRUE)
}

# Simulate the paper's "Sparse LASSO" data
#
# The synthetic dataset of the DP-CD experiments (Mangold et al., ICML 2022,
# Section 6): `n` records of `p` independent standard Gaussian features and
# a noisy linear response that depends on `active` of them, with the LASSO
# penalty at which it is studied.
#
# `beta` has `active` non-zero entries, at positions drawn uniformly without
# replacement, each +1 or -1 with equal probability. `y = x %*% beta + e`
# with `e` independent N(0, `noise`^2). The returned `lambda` is the
# "universal" LASSO penalty `noise * sqrt(2 log(p) / n)` (Bickel, Ritov and
# Tsybakov 2009): it sits just above the largest correlation of the `p -
# active` null features with the noise, so the LASSO keeps the active
# features (each of size 1, far above `lambda`) and about no others.
#
# The paper publishes neither `beta`, the noise level nor lambda, only the
# relative error of the starting point w = 0, `F(0) / F* - 1 = 0.7551`
# (DP-SGD never leaves it). The default `noise` is derived to match it.
# With k = `active` unit coefficients, lambda = s t, t = sqrt(2 log(p) / n),
# and a LASSO solution that keeps exactly the active features, to first
# order
#
# * `E F(0) = (k + s^2) / 2`;
# * `E F* = s^2 (1 - k/n) / 2 + k lambda^2 / 2 + lambda (k - k lambda)`:
#   least squares on the k active columns absorbs k/n of the noise, the
#   shrinkage by lambda adds `k lambda^2 / 2` of squared residual, and the
#   penalty is lambda times the shrunk l1 norm `k (1 - lambda)`.
#
# Setting `E F(0) = rho E F*` with `rho = 1.7551` gives the quadratic
# `(rho (1 - k/n - k t^2) - 1) s^2 + 2 rho k t s - k = 0`, whose positive
# root for n = p = 1000, k = 10 is s = 1.962; the default is `noise = 1.96`.
# Over seeds 1 to 10 the start error is then 0.742 on average (0.66 to
# 0.83: the realised noise and signal vary by a few percent from draw to
# draw) and the LASSO solution has 10 or 11 non-zeros.
#
# n: Number of records.
# p: Number of features.
# active: Number of non-zero entries of `beta`, between 0 and `p`.
# noise: Standard deviation of the Gaussian noise added to `y`; the
#   default is calibrated to the paper's start error (see above).
# seed: `NULL` to draw from the current random number stream, or a
#   whole number: the data are then drawn after `set.seed(seed)` (with the
#   current RNGkind()) and the caller's random number stream is left as it
#   was.
# Returns: A list with `x` (an `n` by `p` matrix), `y` (a numeric vector),
#   `beta` (the true coefficients) and `lambda` (the LASSO penalty
#   `noise * sqrt(2 log(p) / n)`, a function of the simulation's parameters
#   only).
# References: Mangold, P., Bellet, A., Salmon, J. and Tommasi, M. (2022).
#   Differentially private coordinate descent for composite empirical risk
#   minimization. *ICML 2022*. <arXiv:2110.11688>
#
#   Bickel, P. J., Ritov, Y. and Tsybakov, A. B. (2009). Simultaneous
#   analysis of Lasso and Dantzig selector. *Annals of Statistics* 37(4),
#   1705-1732.
# See also: simulate_imbalanced() for features with imbalanced smoothness;
#   paper_problem() for the problem built on it.
# Example:
# data <- simulate_sparse_lasso(n = 200, p = 50, active = 5, seed = 1)
# which(data$beta != 0)
# data$lambda
simulate_sparse_lasso <- function(n = 1000, p = 1000, active = 10, noise = 1.96,
                                  seed = NULL) {
  n <- check_numeric(n, "n", lower = 1, integer = TRUE)
  p <- check_numeric(p, "p", lower = 1, integer = TRUE)
  active <- check_numeric(active, "active", lower = 0, upper = p, integer = TRUE)
  noise <- check_numeric(noise, "noise", lower = 0)
  seed <- check_seed(seed)
  with_seed(seed, {
    x <- matrix(stats::rnorm(n * p), n, p)
    beta <- numeric(p)
    positions <- sort(sample.int(p, active))
    beta[positions] <- sample(c(-1, 1), active, replace = TRUE)
    y <- drop(x %*% beta) + stats::rnorm(n, 0, noise)
    list(x = x, y = y, beta = beta, lambda = sparse_lasso_lambda(noise, n, p))
  })
}

# The universal LASSO penalty noise * sqrt(2 log(p) / n) of the Sparse LASSO
# simulation (see simulate_sparse_lasso()).
sparse_lasso_lambda <- function(noise, n, p) {
  noise * sqrt(2 * log(p) / n)
}

# The noise level at which the Sparse LASSO's start error F(0)/F* - 1 is
# `start_error` to first order, for `active` unit coefficients and lambda =
# noise * sqrt(2 log(p) / n): the positive root of
# (rho (1 - k/n - k t^2) - 1) s^2 + 2 rho k t s - k = 0, rho = 1 + start_error
# (derivation in the comment above simulate_sparse_lasso()). 1.962 for the paper's n = p = 1000,
# k = 10 and start error 0.7551 (the default noise of simulate_sparse_lasso()
# is this, rounded to 1.96).
sparse_lasso_noise <- function(n = 1000, p = 1000, active = 10,
                               start_error = 0.7551) {
  rho <- 1 + start_error
  t <- sqrt(2 * log(p) / n)
  a <- rho * (1 - active / n - active * t^2) - 1
  b <- 2 * rho * active * t
  (-b + sqrt(b^2 + 4 * a * active)) / (2 * a)
}

# Simulate data with imbalanced coordinate smoothness
#
# The synthetic datasets of the DP-CD preprint's LASSO and logistic
# regression experiments (Mangold et al., Section 5): Gaussian features
# rescaled so that the coordinate-wise smoothness constants follow a
# lognormal distribution, the setting where DP-CD's coordinate-wise steps
# and clipping pay off.
#
# Features are drawn independently from N(0, 1), then each column j is
# divided by the square root of its own mean square and multiplied by
# `sqrt(M_j)`, so that the empirical constants `M_j = (1/n) sum_i x_ij^2`
# equal the targets exactly (up to rounding). The targets are
# `exp(rnorm(p, 0, sdlog))` or the given `smoothness`; `sdlog = 0` gives
# the balanced dataset (every `M_j = 1`). `M_j` are the smoothness constants
# of the least-squares loss (1/2n) ||y - x w||^2; those of the logistic loss
# are `M_j / 4`.
#
# The true coefficients `beta` are independent N(0, 1). With family
# `"gaussian"`, `y = x %*% beta + e`, `e` independent N(0, `noise`^2). With
# `"binomial"`, the label is 1 if `x %*% beta` is above its median (a fixed
# threshold that balances the classes) and -1 otherwise, and each label is
# then flipped independently with probability `flip`; `y` is a factor with
# levels `c("-1", "1")`. The preprint uses n = 10000, p = 100 and flips
# labels with probability 0.2; it does not publish its lognormal parameters,
# its `beta` or its noise level.
#
# n: Number of records.
# p: Number of features; ignored (and may be left out) when
#   `smoothness` is given.
# family: `"gaussian"` (LASSO experiments) or `"binomial"` (logistic
#   regression experiments).
# smoothness: `NULL`, or the positive target constants `M_j`, one per
#   feature.
# sdlog: Standard deviation of `log(M_j)` when `smoothness` is `NULL`.
# flip: Probability of flipping each label (`"binomial"` only).
# noise: Standard deviation of the noise added to `y` (`"gaussian"`
#   only).
# seed: as for simulate_sparse_lasso().
# Returns: A list with `x` (an `n` by `p` matrix), `y`, `beta` (the true
#   coefficients) and `smoothness` (the constants `M_j`).
# References: Mangold, P., Bellet, A., Salmon, J. and Tommasi, M.
#   Differentially private coordinate descent for composite empirical risk
#   minimization. Preprint, <arXiv:2110.11688v1>.
# See also: simulate_sparse_lasso().
# Example:
# data <- simulate_imbalanced(n = 1000, p = 10, seed = 1)
# range(colMeans(data$x^2))
# logistic <- simulate_imbalanced(n = 1000, p = 10, family = "binomial",
#                                 smoothness = 10^(0:9 - 5), seed = 1)
# table(logistic$y)
simulate_imbalanced <- function(n = 10000, p = 100,
                                family = c("gaussian", "binomial"),
                                smoothness = NULL, sdlog = 2, flip = 0.2,
                                noise = 0.1, seed = NULL) {
  n <- check_numeric(n, "n", lower = 1, integer = TRUE)
  family <- check_choice(family, c("gaussian", "binomial"), "family")
  if (is.null(smoothness)) {
    p <- check_numeric(p, "p", lower = 1, integer = TRUE)
  } else {
    smoothness <- check_numeric(smoothness, "smoothness", lower = 0,
                                lower_open = TRUE, length = NULL)
    if (!missing(p) && !identical(check_numeric(p, "p"),
                                  as.numeric(length(smoothness)))) {
      dpglmnet_abort("smoothness", sprintf(
        "must have one value per feature (p = %s), not %d.", format(p),
        length(smoothness)))
    }
    p <- length(smoothness)
  }
  sdlog <- check_numeric(sdlog, "sdlog", lower = 0)
  flip <- check_numeric(flip, "flip", lower = 0, upper = 1)
  noise <- check_numeric(noise, "noise", lower = 0)
  seed <- check_seed(seed)
  with_seed(seed, {
    x <- matrix(stats::rnorm(n * p), n, p)
    if (is.null(smoothness)) smoothness <- exp(stats::rnorm(p, 0, sdlog))
    x <- sweep(x, 2L, sqrt(smoothness / colMeans(x^2)), "*")
    beta <- stats::rnorm(p)
    eta <- drop(x %*% beta)
    if (family == "gaussian") {
      y <- eta + stats::rnorm(n, 0, noise)
    } else {
      label <- ifelse(eta > stats::median(eta), 1, -1)
      flipped <- stats::runif(n) < flip
      label[flipped] <- -label[flipped]
      y <- factor(label, levels = c(-1, 1), labels = c("-1", "1"))
    }
    list(x = x, y = y, beta = beta, smoothness = smoothness)
  })
}
