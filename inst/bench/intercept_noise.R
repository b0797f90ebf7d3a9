# The intercept-only fit (R/intercept.R): which mechanism for its one
# scalar, the mean of y clamped to [l, u] (replace-one sensitivity
# W / n, W = u - l), with the whole budget: Laplace (pure epsilon, scale
# W / (n epsilon), sd sqrt(2) W / (n epsilon)) or Gaussian at the budget's
# GDP mu (sd W / (n mu), mu = gdp_mu(epsilon, delta), delta = 1 / n^2).
#
#   Rscript inst/bench/intercept_noise.R
#
# Part 1: the noise sds over W / n, analytic, and their ratio. Part 2:
# California subsamples (y.bound 2 max|y| of the subsample, as
# inst/bench/moderate_n.R), 200 draws per (epsilon, n) of each mechanism
# through the package's generator (.private_mean_cpp): the test MSE of the
# released mean over that of the training mean (3000 test records).
suppressPackageStartupMessages(library(dpglmnet))
ns <- asNamespace("dpglmnet")
grid <- expand.grid(n = c(400, 700, 1000, 2000, 3000), epsilon = c(0.5, 1, 2))
grid$laplace_sd <- sqrt(2) / grid$epsilon
grid$gaussian_sd <- 1 / mapply(gdp_mu, grid$epsilon, 1 / grid$n^2)
grid$ratio <- grid$laplace_sd / grid$gaussian_sd
cat("Noise sd over the sensitivity W / n\n")
print(format(grid, digits = 3), row.names = FALSE)

data_dir <- Sys.getenv("DPGLMNET_DATA", "../shared/data")
paper <- new.env()
source(system.file("paper", "load.R", package = "dpglmnet"), local = paper)
ca <- paper$load_california(data_dir)
rows <- list()
for (epsilon in c(0.5, 1, 2)) for (n in c(400, 700, 1000)) {
  set.seed(n)
  i <- sample.int(length(ca$y), n + 3000)
  y <- ca$y[i[seq_len(n)]]
  yt <- ca$y[i[-seq_len(n)]]
  bound <- 2 * max(abs(y))
  trivial <- mean((yt - mean(y))^2)
  ratio <- function(kind, scale) mean(vapply(seq_len(200), function(k) {
    released <- ns$.private_mean_cpp(y, list(lower = -bound, upper = bound, noise = kind,
                                             scale = scale, seed = c(k, n), secure = FALSE))
    mean((yt - min(max(released$released, -bound), bound))^2)
  }, numeric(1))) / trivial
  w <- 2 * bound / n
  rows[[length(rows) + 1L]] <- data.frame(
    epsilon = epsilon, n = n, laplace = ratio("laplace", w / epsilon),
    gaussian = ratio("gaussian", w / gdp_mu(epsilon, 1 / n^2)))
}
cat("\nCalifornia: test MSE of the released mean over the training mean's (200 draws)\n")
print(format(do.call(rbind, rows), digits = 4), row.names = FALSE)
