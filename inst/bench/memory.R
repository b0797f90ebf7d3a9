# Peak memory and time of a fit against the size of x: DP-CD and DP-SGD,
# dense and sparse (10% non-zeros) x, with and without x.bounds. Each fit runs
# in a child Rscript under /usr/bin/time -v, so that its peak is not mixed
# with the others'.
#
#   Rscript inst/bench/memory.R                 # n = 1e4, 1e5, 1e6 (p = 100)
#   Rscript inst/bench/memory.R --large         # adds n = 3e6 (2.4 GB dense)
#   Rscript inst/bench/memory.R --sizes=1e6x100,1e5x1000 --reps=1
#
# Columns: x_MB, the size of x (dense: 8 np bytes; sparse: 12 bytes per
# stored entry); process_MB, the child's "Maximum resident set size" as
# /usr/bin/time -v reports it (R itself, x, and the fit); fit_extra_MB, what
# the fit added above the resident size just before it (the kernel's peak
# RSS is reset after x is built, /proc/self/clear_refs); seconds, the median
# elapsed time of dpglmnet() over --reps calls. Targets (issue 12): DP-CD
# adds O(n + p) to x, DP-SGD at most one copy of x.
#
# Every fit: epsilon = 1, lambda = 0.05, passes = 2, smoothness = "uniform",
# standardize = FALSE (the same work with and without bounds), x.bounds = 3 where given (about
# 13% of the entries exceed it); DP-SGD's batch is the default sqrt(n).
args <- commandArgs(trailingOnly = TRUE)

# proc_kb() and make_data(), shared with the other memory benchmark
source(file.path(dirname(normalizePath(sub("^--file=", "",
  grep("^--file=", commandArgs(FALSE), value = TRUE)[1L]))), "memory_common.R"))

child <- function(storage, solver, bounds, n, p, reps) {
  suppressPackageStartupMessages(library(dpglmnet))
  set.seed(1)
  d <- make_data(storage, n, p)
  # A fit on a few records first: what loads once per session (Matrix's
  # namespace: 150 MB and seconds here) is not counted as the fit's.
  if (solver != "none") {
    small <- make_data(storage, 100, p)
    invisible(suppressMessages(dpglmnet(small$x, small$y, lambda = 0.05,
                                        solver = solver, smoothness = "uniform",
                                        standardize = FALSE)))
  } else {
    loadNamespace("Matrix")
  }
  invisible(gc())
  # Forget the peak of building the data: the fit's own peak is measured.
  reset <- tryCatch({ cat("5", file = "/proc/self/clear_refs"); TRUE },
                    error = function(e) FALSE, warning = function(e) FALSE)
  before <- proc_kb("VmRSS")
  seconds <- numeric(0)
  if (solver != "none") {
    for (r in seq_len(reps)) {
      seconds[r] <- system.time(suppressMessages(dpglmnet(
        d$x, d$y, epsilon = 1, lambda = 0.05, passes = 2, solver = solver,
        smoothness = "uniform", standardize = FALSE,
        x.bounds = if (bounds) 3 else NULL)))[["elapsed"]]
    }
  }
  peak <- if (reset) proc_kb("VmHWM") else NA_real_
  x_mb <- if (storage == "dense") 8 * n * p / 2^20 else 12 * length(d$x@x) / 2^20
  cat(sprintf("RESULT %.6g %.6g %.6g %.6g\n", x_mb, peak - before,
              if (length(seconds)) stats::median(seconds) else NaN, before))
}

if (length(args) >= 1L && args[1] == "--child") {
  child(args[2], args[3], args[4] == "TRUE", as.numeric(args[5]),
        as.numeric(args[6]), as.integer(args[7]))
  quit(save = "no")
}

option <- function(name, default) {
  hit <- grep(paste0("^--", name, "="), args, value = TRUE)
  if (length(hit)) sub(paste0("^--", name, "="), "", hit[1]) else default
}
sizes <- option("sizes", if ("--large" %in% args) "1e4x100,1e5x100,1e6x100,3e6x100"
                         else "1e4x100,1e5x100,1e6x100")
sizes <- lapply(strsplit(strsplit(sizes, ",")[[1]], "x"), as.numeric)
reps <- as.integer(option("reps", "3"))
script <- normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(FALSE),
                                                 value = TRUE)[1]))

run_child <- function(storage, solver, bounds, n, p) {
  child <- run_measured_child(script, c(storage, solver, bounds, format(n, scientific = FALSE),
                                        format(p, scientific = FALSE), reps))
  r <- child$result
  data.frame(n = n, p = p, storage = storage, solver = solver,
             x.bounds = if (solver == "none") "-" else if (bounds) "3" else "NULL",
             x_MB = round(r[1], 1),
             process_MB = child$process_MB,
             fit_extra_MB = round(r[2] / 1024, 1),
             seconds = signif(r[3], 3))
}

options(width = 150)
cat("dpglmnet from", find.package("dpglmnet"), "\n")
cat("R", paste(R.version$major, R.version$minor, sep = "."), "|",
    parallel::detectCores(), "cores | reps =", reps, "\n\n")
rows <- list()
for (size in sizes) {
  for (storage in c("dense", "sparse")) {
    # The data alone: the floor the fits add to.
    rows[[length(rows) + 1L]] <- run_child(storage, "none", FALSE, size[1], size[2])
    for (solver in c("dpcd", "dpsgd")) {
      for (bounds in c(FALSE, TRUE)) {
        rows[[length(rows) + 1L]] <- run_child(storage, solver, bounds, size[1], size[2])
      }
    }
  }
}
table <- do.call(rbind, rows)
table$extra_over_x <- ifelse(table$solver == "none", NA,
                             round(table$fit_extra_MB / table$x_MB, 2))
print(table, row.names = FALSE)
