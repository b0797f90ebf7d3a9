# The cost of secure noise: DP-SGD fits with rng = "seeded" (xoshiro256++
# seeded from R's RNG) and rng = "secure" (ChaCha20 keyed from the operating
# system), on simulated data with n = 20000, p = 20, minibatches of 10 and 10
# passes (20000 steps, each drawing 21 normals and a minibatch of 10). Median
# of repeats, the two sources interleaved so that load on the machine hits
# both alike.
#
#   Rscript inst/bench/rng.R [repeats]
#
# "call": the whole dpglmnet() call (checks, private smoothness, calibration,
# the solver); "solver": the C++ DP-SGD path alone, with the call's settings.
# Elapsed and CPU seconds are both reported: on a shared machine CPU time is
# the steadier of the two.
suppressPackageStartupMessages(library(dpglmnet))
options(width = 200)
repeats <- as.integer(commandArgs(trailingOnly = TRUE)[1])
if (is.na(repeats)) repeats <- 15L

set.seed(1)
n <- 20000
p <- 20
x <- matrix(stats::rnorm(n * p), n, p)
y <- drop(x %*% stats::rnorm(p)) + stats::rnorm(n)
fit_call <- function(rng) {
  dpglmnet(x, y, solver = "dpsgd", epsilon = 1, x.bounds = 4, y.bound = 10,
           clip = 1, batch.size = 10, passes = 10, lambda = 0.01, rng = rng)
}
s <- fit_call("seeded")$settings
solver_call <- function(rng) {
  dpglmnet:::.dpsgd_path_cpp(x, y, list(
    family = "gaussian", intercept = TRUE,
    transform = list(lower = NULL, upper = NULL, center = NULL, scale = NULL), lambda = 0.01,
    alpha = 1, penalty_factor = rep(1, p), lower_limits = rep(-Inf, p),
    upper_limits = rep(Inf, p), step_size = s$step_size, clip = 1,
    noise_sd = s$noise_sd, batch_size = 10L, steps = s$steps_per_lambda,
    seed = c(1, 2), secure = rng == "secure", trace = 0L))
}
# Seconds per call: f is called until 0.2 s have passed, so that runs of a
# few milliseconds are timed well above the clock's resolution.
seconds <- function(f, rng) {
  gc(FALSE)
  calls <- 0
  started <- proc.time()
  repeat {
    f(rng)
    calls <- calls + 1
    used <- proc.time() - started
    if (used[["elapsed"]] >= 0.2) break
  }
  c(elapsed = used[["elapsed"]], cpu = used[["user.self"]] + used[["sys.self"]]) / calls
}

rows <- list()
for (what in c("call", "solver")) {
  f <- if (what == "call") fit_call else solver_call
  times <- list(seeded = NULL, secure = NULL)
  for (r in seq_len(repeats)) {
    for (rng in names(times)) times[[rng]] <- rbind(times[[rng]], seconds(f, rng))
  }
  med <- lapply(times, function(t) apply(t, 2, stats::median))
  for (rng in names(times)) {
    rows[[length(rows) + 1L]] <- data.frame(
      timed = what, rng = rng,
      elapsed_s = signif(med[[rng]][["elapsed"]], 3),
      cpu_s = signif(med[[rng]][["cpu"]], 3),
      elapsed_vs_seeded = signif(med[[rng]][["elapsed"]] / med$seeded[["elapsed"]], 3),
      cpu_vs_seeded = signif(med[[rng]][["cpu"]] / med$seeded[["cpu"]], 3))
  }
}
cat("DP-SGD, n =", n, ", p =", p, ", batch 10, 10 passes (", s$steps_per_lambda,
    "steps); median of", repeats, "repeats\n")
print(do.call(rbind, rows), row.names = FALSE)
