# Fits on a database table (R/database.R, issue 19): seconds per private
# standardization and per DP-CD pass in SQLite (a file database) and
# PostgreSQL (a private server in a temporary directory, as the tests start
# it), R's peak heap, against the in-memory fit of the same data; and the
# two ways of keeping DP-CD's linear predictor ("query": recomputed inside
# each step's query; "column": a temporary column updated after each step).
#
#   R_LIBS=<lib> Rscript inst/bench/database.R [--n=1e5,1e6] [--p=10]
#       [--backends=sqlite,postgres] [--modes-n=1e5] [--modes=query,column]
#
# Every fit: epsilon = 1, x.bounds = 5, y.bound = 20, standardize = TRUE
# (range histograms and moments released), nlambda = 2, passes = 2, DP-CD
# (so 2 x 2 passes of p + 1 steps). Columns:
#   backend, n, p, mode
#   load_s       writing the records to the database (not part of a fit)
#   fit_s        the whole fit
#   standardize_s  the standardization queries (histograms of p columns and
#                y, then the moments), or in memory the fit's time less its
#                passes (standardization plus set-up)
#   pass_s       seconds per DP-CD pass (p + 1 coordinate steps)
#   queries      aggregate queries of the fit (each returns one row)
#   R_heap_MB    R's peak heap during the fit above the heap before it
#                (gc()'s "max used"; in memory x is in the heap before)
#   x_MB         the size of x as a double matrix
# The database's own memory (SQLite runs in this process, PostgreSQL in its
# server) is not in R_heap_MB.
suppressMessages({
  library(dpglmnet)
  library(DBI)
})
args <- commandArgs(TRUE)
option <- function(name, default) {
  hit <- grep(paste0("^--", name, "="), args, value = TRUE)
  if (length(hit)) sub(paste0("^--", name, "="), "", hit[1L]) else default
}
sizes <- as.numeric(strsplit(option("n", "1e5,1e6"), ",")[[1L]])
p <- as.integer(option("p", "10"))
backends <- strsplit(option("backends", "sqlite,postgres"), ",")[[1L]]
modes_n <- as.numeric(strsplit(option("modes-n", "1e5"), ",")[[1L]])
# --modes=column (or query,column): these modes at every size instead
only_modes <- strsplit(option("modes", ""), ",")[[1L]]

helper <- system.file("bench", "database_server.R", package = "dpglmnet")
if (!nzchar(helper)) helper <- file.path(dirname(sub("^--file=", "", grep(
  "^--file=", commandArgs(FALSE), value = TRUE)[1L])), "database_server.R")
source(helper)

heap_mb <- function(g) sum(g[, if (ncol(g) >= 6) 6L else 4L])  # "max used" (Mb)

fit_args <- list(epsilon = 1, x.bounds = 5, y.bound = 20, nlambda = 2, passes = 2)

# One fit on a table, its queries timed by kind (the trace hook sees each
# query as it returns: the time since the previous one is that query's).
time_database_fit <- function(con, n, mode) {
  options(dpglmnet.database.residual = mode)
  kinds <- character()
  times <- numeric()
  last <- NULL
  options(dpglmnet.database.trace = function(sql, result) {
    now <- proc.time()[["elapsed"]]
    kinds <<- c(kinds, if ("b1" %in% names(result)) "standardize"
                       else if ("s1" %in% names(result) || "q1" %in% names(result)) "standardize"
                       else if (any(startsWith(names(result), "g"))) "step" else "other")
    times <<- c(times, now - last)
    last <<- now
  })
  on.exit(options(dpglmnet.database.trace = NULL, dpglmnet.database.residual = NULL))
  invisible(gc(reset = TRUE))
  before <- heap_mb(gc())
  set.seed(2)
  start <- proc.time()[["elapsed"]]
  last <- start
  fit <- suppressWarnings(do.call(dpglmnet, c(list(
    db_table(con, "records", x = paste0("v", seq_len(p)), y = "y")), fit_args)))
  seconds <- proc.time()[["elapsed"]] - start
  peak <- heap_mb(gc()) - before
  passes <- fit_args$nlambda * fit_args$passes
  list(fit = fit, fit_s = seconds, standardize_s = sum(times[kinds == "standardize"]),
       pass_s = sum(times[kinds == "step"]) / passes, queries = length(times),
       R_heap_MB = peak)
}

time_memory_fit <- function(data) {
  invisible(gc(reset = TRUE))
  before <- heap_mb(gc())
  set.seed(2)
  t_full <- system.time(fit <- suppressWarnings(do.call(dpglmnet, c(list(data$x, data$y),
                                                                    fit_args))))[["elapsed"]]
  peak <- heap_mb(gc()) - before
  # passes: the same fit with twice the passes, less this one
  set.seed(2)
  more <- fit_args
  more$passes <- 2 * fit_args$passes
  t_more <- system.time(suppressWarnings(do.call(dpglmnet, c(list(data$x, data$y),
                                                             more))))[["elapsed"]]
  pass_s <- max(t_more - t_full, 0) / (fit_args$nlambda * fit_args$passes)
  list(fit = fit, fit_s = t_full, standardize_s = t_full - pass_s * fit_args$nlambda *
         fit_args$passes, pass_s = pass_s, queries = NA, R_heap_MB = peak)
}

load_records <- function(con, data, chunk = 1e6) {
  frame <- function(rows) data.frame(data$x[rows, , drop = FALSE], y = data$y[rows])
  if (dbExistsTable(con, "records")) dbRemoveTable(con, "records")
  n <- nrow(data$x)
  starts <- seq(1, n, by = chunk)
  system.time(for (s in starts) {
    rows <- s:min(n, s + chunk - 1)
    dbWriteTable(con, "records", frame(rows), append = s > 1, row.names = FALSE)
  })[["elapsed"]]
}

options(width = 200)
# warm-up (the first fit loads Matrix's classes and the accountant's tables)
invisible(suppressWarnings(do.call(dpglmnet, c(list(make_records(1000, p)$x,
                                                    make_records(1000, p)$y), fit_args))))
rows <- list()
row <- function(backend, n, mode, load_s, r, x_mb) {
  data.frame(backend = backend, n = n, p = p, mode = mode,
             load_s = round(load_s, 1), fit_s = round(r$fit_s, 2),
             standardize_s = round(r$standardize_s, 2), pass_s = round(r$pass_s, 3),
             queries = r$queries, R_heap_MB = round(r$R_heap_MB, 1), x_MB = round(x_mb, 1))
}
for (n in sizes) {
  data <- make_records(n, p)
  x_mb <- 8 * n * p / 2^20
  memory <- time_memory_fit(data)
  rows[[length(rows) + 1L]] <- row("memory", n, "-", 0, memory, x_mb)
  for (backend in backends) {
    server <- open_backend(backend)
    if (is.null(server)) next
    load_s <- load_records(server$con, data)
    if (backend == "postgres") dbExecute(server$con, "ANALYZE records")
    for (mode in if (length(only_modes)) only_modes
                 else if (n %in% modes_n) c("query", "column") else "query") {
      r <- time_database_fit(server$con, n, mode)
      stopifnot(max(abs(as.matrix(r$fit$beta) - as.matrix(memory$fit$beta))) < 1e-8)
      rows[[length(rows) + 1L]] <- row(backend, n, mode, load_s, r, x_mb)
      load_s <- NA
    }
    server$close()
  }
  rm(data)
  print(do.call(rbind, rows), row.names = FALSE)
}
cat("\n")
print(do.call(rbind, rows), row.names = FALSE)
