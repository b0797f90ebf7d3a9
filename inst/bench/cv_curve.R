# The private validation curve of cv.dpglmnet(), measured held out.
#
# 1. Choosing lambda.min at equal budget: the argmin of the released curve
#    (what cv.dpglmnet() does) against report-noisy-max (what it did before:
#    the exponential mechanism on the summed clipped validation losses,
#    Gumbel scale 2 B / epsilon, epsilon-DP on the validation part). Both
#    use the validation part's whole budget (epsilon at delta: parallel to
#    the path), the same split and the same released path (the same
#    cv.dpglmnet() fit), so the comparison is paired; the noisy max is run
#    here on the fit's validation records with the package's own
#    report-noisy-max.
# 2. lambda.1se from the released curve (cvsd including the curve's DP
#    noise, as cv.dpglmnet() does, and, for comparison, with the sampling
#    standard error only) against cv.glmnet's lambda.1se (non-private).
#
# Data: California (gaussian; test MSE) and Electricity (binomial; test
# misclassification) from the DP-CD paper ($DPGLMNET_DATA or
# ../shared/data), 80/20 train/test splits, bounds as inst/bench/defaults.R
# (x.bounds twice each column's largest |x_ij|, y.bound twice max |y|).
# Held-out error of each chosen lambda; mean over seeds.
#
# Two preparations of x: "raw" (the columns as they come) and "centred"
# (each column centred and scaled by its training mean and sd, a
# non-private stand-in for a schema whose ranges are known, so that the
# symmetric bounds fit the data). On raw California at this commit the
# private standardization releases most columns as constant (latitude and
# longitude sit far from 0 in bounds symmetric about 0), so the path is
# nearly intercept-only and the choice of lambda has little to choose
# from; the centred preparation measures the choice on a useful path.
#
#   Rscript inst/bench/cv_curve.R            # epsilon 1 and 0.5, 10 seeds
#   Rscript inst/bench/cv_curve.R --quick    # 3 seeds
suppressPackageStartupMessages(library(dpglmnet))
options(width = 200)
args <- commandArgs(TRUE)
seeds <- if ("--quick" %in% args) 1:3 else 1:10
epsilons <- c(1, 0.5)
if (!requireNamespace("glmnet", quietly = TRUE)) stop("this benchmark needs glmnet")

paper <- new.env()
source(system.file("paper", "load.R", package = "dpglmnet"), local = paper)
data_dir <- paper$dpglmnet_data_dir()
ca <- paper$load_california(data_dir)
el <- paper$load_electricity(data_dir)
datasets <- list(
  california = list(x = unname(as.matrix(ca$x)), y = ca$y, family = "gaussian"),
  electricity = list(x = unname(as.matrix(el$x)),
                     y = if (is.factor(el$y)) as.numeric(el$y == levels(el$y)[2])
                         else as.numeric(el$y > 0),
                     family = "binomial"))

test_error <- function(family, link, y) {
  if (family == "gaussian") mean((y - link)^2) else mean((link > 0) != (y > 0.5))
}
family_object <- dpglmnet:::dpglmnet_family

rows <- list()
for (prep in c("raw", "centred")) for (name in names(datasets)) {
  d <- datasets[[name]]
  family <- family_object(d$family)
  x.bounds <- 2 * apply(abs(d$x), 2, max)
  y.bound <- if (d$family == "gaussian") 2 * max(abs(d$y)) else NULL
  for (seed in seeds) {
    set.seed(1000 + seed)
    n <- nrow(d$x)
    train <- sort(sample.int(n, round(0.8 * n)))
    test <- setdiff(seq_len(n), train)
    if (prep == "centred") {
      d$x <- scale(datasets[[name]]$x, colMeans(datasets[[name]]$x[train, ]),
                   apply(datasets[[name]]$x[train, ], 2, stats::sd))
      x.bounds <- 2 * apply(abs(d$x), 2, max)
    }
    xt <- d$x[train, , drop = FALSE]
    yt <- d$y[train]
    set.seed(seed)
    reference <- glmnet::cv.glmnet(xt, yt, family = d$family)
    glmnet_min <- test_error(d$family, predict(reference, d$x[test, ], s = "lambda.min"),
                             d$y[test])
    glmnet_1se <- test_error(d$family, predict(reference, d$x[test, ], s = "lambda.1se"),
                             d$y[test])
    for (epsilon in epsilons) {
      set.seed(seed)
      cvfit <- suppressWarnings(cv.dpglmnet(
        xt, yt, family = d$family, epsilon = epsilon, x.bounds = x.bounds,
        y.bound = y.bound))
      path <- cvfit$dpglmnet.fit
      at <- function(s) test_error(d$family, predict(path, d$x[test, ], s = s), d$y[test])
      K <- length(cvfit$lambda)
      # report-noisy-max at the same budget on the same split and path
      v <- cvfit$validation
      loss <- dpglmnet:::validation_loss(cvfit$type.measure, family,
                                         predict(path, xt[v, , drop = FALSE]), yt[v])
      loss[!is.finite(loss)] <- cvfit$loss.bound
      utility <- -colSums(pmin(loss / cvfit$loss.bound, 1))
      set.seed(10000 + seed)
      noisy_max <- dpglmnet:::.report_noisy_max_cpp(utility, list(
        scale = 2 / epsilon, draws = 1L, seed = dpglmnet:::draw_seed(), secure = FALSE))
      # lambda.1se with the sampling standard error only (post-processing)
      sampling_1se <- dpglmnet:::one_se_rule(cvfit$cvm, cvfit$cvsd.sampling,
                                             cvfit$lambda)$index.1se
      errors <- vapply(seq_len(K), function(k) at(cvfit$lambda[k]), numeric(1))
      rows[[length(rows) + 1L]] <- data.frame(
        data = name, x = prep, epsilon = epsilon, seed = seed, nlambda = K,
        curve_min = errors[cvfit$index["min", 1]],
        noisy_max = errors[noisy_max],
        best_on_path = min(errors),
        curve_1se = errors[cvfit$index["1se", 1]],
        sampling_1se = errors[sampling_1se],
        glmnet_min = glmnet_min, glmnet_1se = glmnet_1se,
        same_min = cvfit$index["min", 1] == noisy_max,
        noise_sd = cvfit$cvsd.noise, spent = cvfit$privacy$epsilon)
    }
  }
}
results <- do.call(rbind, rows)
summary <- aggregate(cbind(curve_min, noisy_max, best_on_path, curve_1se, sampling_1se,
                           glmnet_min, glmnet_1se, same_min, noise_sd, spent) ~
                       data + x + epsilon, data = results, FUN = mean)
summary$curve_min_vs_noisy_max <- summary$curve_min / summary$noisy_max
summary$curve_1se_vs_glmnet_1se <- summary$curve_1se / summary$glmnet_1se
cat(sprintf(paste("\nHeld-out error of the chosen lambda (%d seeds; MSE for California,",
                  "misclassification for Electricity):\n"), length(seeds)))
print(format(summary[order(summary$x, summary$data, -summary$epsilon), ], digits = 4),
      row.names = FALSE)
# paired: how often each choice of lambda.min is better
wins <- aggregate(cbind(curve_better = curve_min < noisy_max - 1e-12,
                        noisy_max_better = noisy_max < curve_min - 1e-12) ~ data + x + epsilon,
                  data = results, FUN = sum)
cat("\nPaired over seeds: number of splits where each lambda.min choice has lower held-out error:\n")
print(wins[order(wins$x, wins$data, -wins$epsilon), ], row.names = FALSE)
if ("--rows" %in% args) print(format(results, digits = 4), row.names = FALSE)
