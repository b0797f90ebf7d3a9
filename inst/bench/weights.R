# Cost of glmnet's weights in DP-CD's sweeps (issue 18): a 2-pass fit (5
# lambdas x 2 passes x 41 coordinates, n = 5e5, p = 40) dense and sparse,
# gaussian and binomial, best of 9 runs. Run it against two installations
# to compare (LIB: the library holding dpglmnet; default: the usual path);
# WEIGHTED=1 also times the same fits with weights.
#   LIB=/path/to/lib Rscript inst/bench/weights.R
lib <- Sys.getenv("LIB")
suppressMessages(library(dpglmnet, lib.loc = if (nzchar(lib)) lib))
library(Matrix)
set.seed(1)
n <- 5e5; p <- 40
x <- matrix(rnorm(n * p), n, p)
xs <- Matrix(x * (abs(x) > 1.5), sparse = TRUE)
y <- drop(x[, 1:5] %*% rep(1, 5)) + rnorm(n); yb <- as.numeric(y > 0)
args <- list(epsilon = 1, x.bounds = 4, lambda = c(0.1, 0.05, 0.02, 0.01, 0.005), passes = 2, standardize = FALSE, smoothness = "bounds", clip = 1)
res <- c()
for (case in c("dense gaussian", "dense binomial", "sparse binomial")) {
  xx <- if (grepl("sparse", case)) xs else x
  yy <- if (grepl("binomial", case)) yb else y
  fam <- if (grepl("binomial", case)) "binomial" else "gaussian"
  a <- c(list(x = xx, y = yy, family = fam), args, if (fam == "gaussian") list(y.bound = 10))
  t <- replicate(9, system.time(do.call(dpglmnet, a))[["elapsed"]])
  res[case] <- min(t)
}
print(res)
if (Sys.getenv("WEIGHTED") == "1") {
  w <- runif(n, 0.5, 2)
  res2 <- c()
  for (case in c("dense gaussian", "dense binomial", "sparse binomial")) {
    xx <- if (grepl("sparse", case)) xs else x
    yy <- if (grepl("binomial", case)) yb else y
    fam <- if (grepl("binomial", case)) "binomial" else "gaussian"
    a <- c(list(x = xx, y = yy, family = fam, weights = w, weights.bound = 2), args,
           if (fam == "gaussian") list(y.bound = 10))
    res2[case] <- min(replicate(9, system.time(do.call(dpglmnet, a))[["elapsed"]]))
  }
  cat("weighted:\n"); print(res2)
}
