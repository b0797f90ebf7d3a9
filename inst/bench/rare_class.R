# Rare classes: binomial fits whose rarer class holds a few percent of the
# records (R/family.R, binomial_raised_clip_share; R/dpcd.R,
# dpcd_clip_factor()). For each design and epsilon, over `--seeds` draws
# of n = 20000 records (5 N(0, 1) columns, x.bounds 5), cv.dpglmnet() at
# its defaults: the mean slopes of the two active columns (and their sd
# over draws) at lambda.min, against glm()'s on the same draws, and the
# test deviance on 20000 fresh records over cv.glmnet()'s. The clip
# factor is the fit's (1: not raised).
#
#   Rscript inst/bench/rare_class.R                 # 6 draws, epsilon 1, 2, 4, 16
#   Rscript inst/bench/rare_class.R --seeds 12 --eps 2,16
suppressPackageStartupMessages({library(dpglmnet); library(glmnet)})
options(width = 160)
args <- commandArgs(TRUE)
value_of <- function(flag, default) {
  at <- match(flag, args)
  if (is.na(at) || at == length(args)) default else args[at + 1L]
}
seeds <- as.integer(value_of("--seeds", "6"))
epsilons <- as.numeric(strsplit(value_of("--eps", "1,2,4,16"), ",")[[1]])
n <- 20000
# logit a0 + scale (1.5 x1 + x2)
designs <- list(
  list(name = "0.9% ones", a0 = -6, scale = 1),
  list(name = "1.8% ones, strong", a0 = -12, scale = 3),
  list(name = "5.9% ones", a0 = -4, scale = 1),
  list(name = "27% ones", a0 = -1.5, scale = 1))
draw <- function(design, seed) {
  set.seed(seed)
  x <- matrix(rnorm(n * 5), n)
  y <- rbinom(n, 1, plogis(design$a0 + design$scale * (1.5 * x[, 1] + x[, 2])))
  list(x = x, y = y)
}
deviance_of <- function(link, y) {
  p <- pmin(pmax(plogis(link), 1e-12), 1 - 1e-12)
  -mean(y * log(p) + (1 - y) * log(1 - p))
}
rows <- list()
for (design in designs) {
  for (epsilon in epsilons) {
    out <- NULL
    for (seed in seq_len(seeds)) {
      train <- draw(design, seed)
      test <- draw(design, 10000 + seed)
      set.seed(seed)
      fit <- suppressWarnings(cv.dpglmnet(train$x, train$y, family = "binomial",
                                          epsilon = epsilon, x.bounds = 5))
      reference <- cv.glmnet(train$x, train$y, family = "binomial")
      slopes <- as.numeric(coef(fit, s = "lambda.min"))[2:3]
      glm_slopes <- stats::coef(stats::glm(train$y ~ train$x, family = stats::binomial()))[2:3]
      ratio <- deviance_of(drop(predict(fit, test$x, s = "lambda.min", type = "link")), test$y) /
        deviance_of(drop(predict(reference, test$x, s = "lambda.min")), test$y)
      out <- rbind(out, c(slopes, glm_slopes, ratio, if (is.null(fit$dpglmnet.fit$settings$clip_factor)) NA else fit$dpglmnet.fit$settings$clip_factor,
                          mean(train$y)))
    }
    rows[[length(rows) + 1L]] <- data.frame(
      design = design$name, epsilon = epsilon, ones = mean(out[, 7]),
      slope1 = mean(out[, 1]), slope2 = mean(out[, 2]), sd1 = stats::sd(out[, 1]),
      glm1 = mean(out[, 3]), glm2 = mean(out[, 4]),
      deviance_ratio = mean(out[, 5]), clip_factor = mean(out[, 6]))
  }
}
cat(sprintf("Rare classes, %d draws of n = %d, cv.dpglmnet() at its defaults (dpglmnet %s)\n",
            seeds, n, utils::packageVersion("dpglmnet")))
print(do.call(rbind, rows), digits = 3, row.names = FALSE)
