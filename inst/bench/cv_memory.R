# Peak memory of cv.dpglmnet() against the size of x (issue 19: the split
# reads row subsets of x in place instead of copying x[train, ] and
# x[valid, ]). The method of inst/bench/memory.R: each configuration runs in
# a fresh child Rscript under /usr/bin/time -v, x is built, the kernel's peak
# RSS is reset (/proc/self/clear_refs), and the peak the fit adds above the
# resident size just before it is read from /proc/self/status (VmHWM).
#
#   Rscript inst/bench/cv_memory.R                       # n = 1e5, 1e6 (p = 100), dense
#   Rscript inst/bench/cv_memory.R --sizes=1e6x100 --storage=dense,sparse --refit
#
# The package is the one R finds first: run it with R_LIBS pointing at a
# library with another build to compare (the header says which was loaded).
#
# Columns: x_MB, the size of x (dense: 8 np bytes; sparse: 12 bytes per
# stored entry); process_MB, the child's maximum resident set size (R, x and
# the fit); cv_extra_MB, what cv.dpglmnet() added above the resident size
# before it (the target: at most 1.2 x_MB at n = 1e6, p = 100; before issue
# 19 it was about 2 x_MB); R_heap_extra_MB, the same seen by R's own
# allocator (gc()'s "max used" after gc(reset = TRUE), minus what R held
# before: R objects only, not the core's C++ buffers); ratio, cv_extra_MB /
# x_MB; seconds, the elapsed time of the call.
#
# Every call: epsilon = 1, x.bounds = 3, y.bound = 10 and otherwise the
# defaults (DP-CD, private standardization, the automatic schedule), with
# --refit also refit = TRUE.
args <- commandArgs(trailingOnly = TRUE)

# proc_kb() and make_data(), shared with the other memory benchmark
source(file.path(dirname(normalizePath(sub("^--file=", "",
  grep("^--file=", commandArgs(FALSE), value = TRUE)[1L]))), "memory_common.R"))

child <- function(storage, refit, n, p) {
  suppressPackageStartupMessages(library(dpglmnet))
  set.seed(1)
  d <- make_data(storage, n, p)
  # What loads once per session (Matrix, the package's code) is not the
  # call's: a small cv first.
  small <- make_data(storage, 2000, p)
  invisible(suppressWarnings(suppressMessages(cv.dpglmnet(
    small$x, small$y, epsilon = 1, x.bounds = 3, y.bound = 10))))
  invisible(gc())
  reset <- tryCatch({ cat("5", file = "/proc/self/clear_refs"); TRUE },
                    error = function(e) FALSE, warning = function(e) FALSE)
  before <- proc_kb("VmRSS")
  heap_before <- sum(gc(reset = TRUE)[, 2L])  # Mb in use now
  seconds <- system.time(fit <- suppressWarnings(suppressMessages(cv.dpglmnet(
    d$x, d$y, epsilon = 1, x.bounds = 3, y.bound = 10, refit = refit)))
  )[["elapsed"]]
  heap_peak <- sum(gc()[, 6L])  # "max used" (Mb) since the reset
  peak <- if (reset) proc_kb("VmHWM") else NA_real_
  x_mb <- if (storage == "dense") 8 * n * p / 2^20 else 12 * length(d$x@x) / 2^20
  cat(sprintf("RESULT %.6g %.6g %.6g %.6g %d\n", x_mb, (peak - before) / 1024,
              heap_peak - heap_before, seconds, length(fit$lambda)))
}

if (length(args) >= 1L && args[1] == "--child") {
  child(args[2], args[3] == "TRUE", as.numeric(args[4]), as.numeric(args[5]))
  quit(save = "no")
}

option <- function(name, default) {
  hit <- grep(paste0("^--", name, "="), args, value = TRUE)
  if (length(hit)) sub(paste0("^--", name, "="), "", hit[1]) else default
}
sizes <- lapply(strsplit(strsplit(option("sizes", "1e5x100,1e6x100"), ",")[[1]], "x"),
                as.numeric)
storages <- strsplit(option("storage", "dense"), ",")[[1]]
refits <- if ("--refit" %in% args) c(FALSE, TRUE) else FALSE
script <- normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
                                                 value = TRUE)[1]))

run_child <- function(storage, refit, n, p) {
  child <- run_measured_child(script, c(storage, refit, format(n, scientific = FALSE),
                                        format(p, scientific = FALSE)))
  r <- child$result
  data.frame(n = n, p = p, storage = storage, refit = refit, lambdas = r[5],
             x_MB = round(r[1], 1),
             process_MB = child$process_MB,
             cv_extra_MB = round(r[2], 1), R_heap_extra_MB = round(r[3], 1),
             ratio = round(r[2] / r[1], 2), seconds = signif(r[4], 3))
}

options(width = 150)
cat("dpglmnet from", find.package("dpglmnet"), "\n")
cat("R", paste(R.version$major, R.version$minor, sep = "."), "|",
    parallel::detectCores(), "cores\n\n")
rows <- list()
for (size in sizes) for (storage in storages) for (refit in refits) {
  rows[[length(rows) + 1L]] <- run_child(storage, refit, size[1], size[2])
}
print(do.call(rbind, rows), row.names = FALSE)
