# What a statistician gets at the defaults, privately, on held-out data:
# cv.dpglmnet() with only public bounds and a budget, against cv.glmnet
# (non-private) and, when installed, DPpack's LinearRegressionDP /
# LogisticRegressionDP at their defaults with the same bounds (regularizer
# "l2", gamma = 1: DPpack has no default for them).
#
# Data: California (gaussian) and Electricity (binomial) from the DP-CD paper
# (read from $DPGLMNET_DATA or ../shared/data; skipped with a message when
# absent), and two generated sets of other shapes: "small" (n = 500, p = 10,
# 3 non-zeros, column scales 0.1 to 100, gaussian) and "wide" (n = 5000,
# p = 50, 5 non-zeros, binomial). 80/20 splits; x.bounds is twice each
# column's largest |x_ij| and y.bound twice max |y| (the paper's crude public
# bound; a stand-in for what a user knows). Test MSE (gaussian) or
# misclassification rate (binomial), mean over seeds, and the ratio to
# cv.glmnet.
#
#   Rscript inst/bench/defaults.R            # epsilon 1, 3 seeds
#   Rscript inst/bench/defaults.R --full     # epsilon 0.5, 1, 2, 5, 5 seeds
#   Rscript inst/bench/defaults.R --refit    # adds a column: cv.dpglmnet(refit = TRUE)
#
# --refit also runs cv.dpglmnet(refit = TRUE) (the same seed, so the same
# split; half of mu^2 to the refit on all training records) and reports its
# held-out error in the column `refit`, next to `dpglmnet` (refit = FALSE).
suppressPackageStartupMessages(library(dpglmnet))
options(width = 200)
args <- commandArgs(TRUE)
full <- "--full" %in% args
with_refit <- "--refit" %in% args
epsilons <- if (full) c(0.5, 1, 2, 5) else 1
seeds <- if (full) 1:5 else 1:3
have_glmnet <- requireNamespace("glmnet", quietly = TRUE)
have_dppack <- requireNamespace("DPpack", quietly = TRUE)
if (!have_dppack) cat("DPpack is not installed: its column is NA.\n")

paper <- new.env()
source(system.file("paper", "load.R", package = "dpglmnet"), local = paper)

generated <- function(name) {
  if (name == "small") {
    set.seed(101)
    n <- 500; p <- 10
    scale <- 10^seq(-1, 2, length.out = p)
    z <- matrix(stats::rnorm(n * p), n, p)
    x <- sweep(sweep(z, 2, scale, "*"), 2, scale * seq(-2, 2, length.out = p), "+")
    y <- 1 + drop(z[, 1:3] %*% c(2, -1.5, 1)) + stats::rnorm(n)
    return(list(x = x, y = y, family = "gaussian"))
  }
  set.seed(202)
  n <- 5000; p <- 50
  scale <- 10^stats::runif(p, -1, 2)
  z <- matrix(stats::rnorm(n * p), n, p)
  x <- sweep(sweep(z, 2, scale, "*"), 2, 3 * scale, "+")
  eta <- -0.5 + drop(z[, 1:5] %*% c(1.5, -1.2, 1, -0.8, 0.6))
  list(x = x, y = stats::rbinom(n, 1, stats::plogis(eta)), family = "binomial")
}

datasets <- list()
data_dir <- tryCatch(paper$dpglmnet_data_dir(), error = function(e) NULL)
if (!is.null(data_dir)) {
  ca <- paper$load_california(data_dir)
  datasets$california <- list(x = unname(as.matrix(ca$x)), y = ca$y, family = "gaussian")
  el <- paper$load_electricity(data_dir)
  y <- if (is.factor(el$y)) as.numeric(el$y == levels(el$y)[2]) else as.numeric(el$y > 0)
  datasets$electricity <- list(x = unname(as.matrix(el$x)), y = y, family = "binomial")
} else {
  cat("The DP-CD paper's datasets were not found ($DPGLMNET_DATA or ../shared/data):",
      "only generated data.\n")
}
datasets$small <- generated("small")
datasets$wide <- generated("wide")

test_error <- function(family, link, y) {
  if (family == "gaussian") mean((y - link)^2) else mean((link > 0) != (y > 0.5))
}

rows <- list()
for (name in names(datasets)) {
  d <- datasets[[name]]
  x.bounds <- 2 * apply(abs(d$x), 2, max)
  y.bound <- if (d$family == "gaussian") 2 * max(abs(d$y)) else NULL
  for (seed in seeds) {
    set.seed(1000 + seed)
    n <- nrow(d$x)
    train <- sort(sample.int(n, round(0.8 * n)))
    test <- setdiff(seq_len(n), train)
    xt <- d$x[train, , drop = FALSE]
    yt <- d$y[train]
    reference <- if (have_glmnet) {
      cv <- glmnet::cv.glmnet(xt, yt, family = d$family)
      test_error(d$family, predict(cv, d$x[test, ], s = "lambda.min"), d$y[test])
    } else NA_real_
    mean_model <- if (d$family == "gaussian") mean((d$y[test] - mean(yt))^2) else
      mean(d$y[test] != (mean(yt) > 0.5))
    for (epsilon in epsilons) {
      set.seed(seed)
      seconds <- system.time(cvfit <- suppressWarnings(cv.dpglmnet(
        xt, yt, family = d$family, epsilon = epsilon, x.bounds = x.bounds,
        y.bound = y.bound)))[["elapsed"]]
      ours <- test_error(d$family, predict(cvfit, d$x[test, ], type = "link"), d$y[test])
      refitted <- NA_real_
      if (with_refit) {
        set.seed(seed)
        cvrefit <- suppressWarnings(cv.dpglmnet(
          xt, yt, family = d$family, epsilon = epsilon, x.bounds = x.bounds,
          y.bound = y.bound, refit = TRUE))
        refitted <- test_error(d$family, predict(cvrefit, d$x[test, ], type = "link"),
                               d$y[test])
      }
      dppack <- NA_real_
      if (have_dppack) {
        m <- length(train)
        xc <- pmin(pmax(xt, rep(-x.bounds, each = m)), rep(x.bounds, each = m))
        dppack <- tryCatch({
          if (d$family == "gaussian") {
            model <- DPpack::LinearRegressionDP$new("l2", eps = epsilon, delta = 1 / m^2,
                                                    gamma = 1)
            model$fit(as.data.frame(xc), pmin(pmax(yt, -y.bound), y.bound),
                      upper.bounds = c(x.bounds, y.bound),
                      lower.bounds = c(-x.bounds, -y.bound), add.bias = TRUE)
            mean((model$predict(as.data.frame(d$x[test, ]), add.bias = TRUE) -
                    d$y[test])^2)
          } else {
            model <- DPpack::LogisticRegressionDP$new("l2", eps = epsilon, gamma = 1)
            model$fit(as.data.frame(xc), yt, upper.bounds = x.bounds,
                      lower.bounds = -x.bounds, add.bias = TRUE)
            mean((model$predict(as.data.frame(d$x[test, ]), add.bias = TRUE) > 0.5) !=
                   d$y[test])
          }
        }, error = function(e) NA_real_)
      }
      rows[[length(rows) + 1L]] <- data.frame(
        data = name, n = n, p = ncol(d$x), epsilon = epsilon, seed = seed,
        dpglmnet = ours, refit = refitted, cv.glmnet = reference, DPpack = dppack, mean_model = mean_model,
        nlambda = length(cvfit$lambda), passes = cvfit$dpglmnet.fit$settings$passes,
        spent = cvfit$privacy$epsilon, seconds = seconds)
    }
  }
}
results <- do.call(rbind, rows)
summary <- aggregate(cbind(dpglmnet, refit, cv.glmnet, DPpack, mean_model, spent, seconds) ~
                       data + n + p + epsilon + nlambda + passes,
                     data = results, FUN = mean, na.action = na.pass)
summary$ratio_to_glmnet <- summary$dpglmnet / summary$cv.glmnet
summary$DPpack_ratio <- summary$DPpack / summary$cv.glmnet
if (with_refit) {
  summary$refit_ratio <- summary$refit / summary$cv.glmnet
} else {
  summary$refit <- NULL
}
cat(sprintf("\nHeld-out error at the defaults (%d seeds; MSE for gaussian, misclassification for binomial):\n",
            length(seeds)))
print(format(summary[order(summary$data, summary$epsilon), ], digits = 4), row.names = FALSE)
