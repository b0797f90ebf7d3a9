# The cost of the loss and penalty protocols (issue 17): DP-CD and DP-SGD
# solver entries alone on a 4e5 x 50 problem, dense and sparse, CPU seconds
# (user + system: less sensitive than elapsed time to a shared machine),
# median of 7 runs after one warm-up. Run it with each build and compare:
#
#   R_LIBS=<library> Rscript inst/bench/protocols.R
#
# The Huber rows run where the build has the family (otherwise NA).
suppressPackageStartupMessages({library(dpglmnet); library(Matrix)})
set.seed(1)
n <- 4e5
p <- 50
x <- matrix(rnorm(n * p), n, p)
xs <- rsparsematrix(n, p, density = 0.1)
b <- c(rnorm(5), rep(0, p - 5))
eta <- drop(x %*% b)
yg <- eta + rnorm(n)
yb <- as.double(runif(n) < plogis(eta))
w <- runif(n)
w <- w / mean(w)
# The settings R/dpcd.R and R/dpsgd.R build, with a public clip and step.
settings <- function(family, ...) {
  modifyList(list(family = family, intercept = TRUE,
    transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL),
    lambda = c(0.1, 0.05), alpha = 1, penalty_factor = rep(1, p),
    lower_limits = rep(-Inf, p), upper_limits = rep(Inf, p), seed = c(1, 2), secure = FALSE,
    trace = 0L, coordinate_step = rep(1, p + 1), coordinate_clip = rep(1, p + 1),
    noise_sd = rep(1e-3, p + 1), passes = 10L, selection = "permutation", average = FALSE),
    list(...))
}
cpu <- function(f) {
  ok <- tryCatch({ f(); TRUE }, error = function(e) FALSE)
  if (!ok) return(NA_real_)
  median(replicate(7, { t <- system.time(f()); t[["user.self"]] + t[["sys.self"]] }))
}
dpcd <- function(x, y, ...) function() dpglmnet:::.dpcd_path_cpp(x, y, settings(...))
sgd <- settings("binomial", step_size = 0.1, clip = 1, noise_sd = 0.01, batch_size = 10L,
                steps = 2e5)
rows <- list(
  "DP-CD dense gaussian" = dpcd(x, yg, "gaussian"),
  "DP-CD dense binomial" = dpcd(x, yb, "binomial"),
  "DP-CD dense binomial, weights" = dpcd(x, yb, "binomial", weights = w),
  "DP-CD sparse gaussian" = dpcd(xs, yg, "gaussian"),
  "DP-CD sparse binomial" = dpcd(xs, yb, "binomial"),
  "DP-SGD dense binomial" = function() dpglmnet:::.dpsgd_path_cpp(x, yb, sgd),
  "DP-CD dense huber" = dpcd(x, yg, "huber", family_parameter = 1),
  "DP-CD sparse huber" = dpcd(xs, yg, "huber", family_parameter = 1))
for (name in names(rows)) cat(sprintf("%-32s %.3f\n", name, cpu(rows[[name]])))
