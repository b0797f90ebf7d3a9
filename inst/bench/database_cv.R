# cv.dpglmnet() on a database table (R/database-cv.R, issue 19): seconds of
# the whole procedure and of its stages in SQLite (a file database) and
# PostgreSQL (a private server, as the tests start it), against cv.dpglmnet()
# in memory on the same records at the same seed (checked equal).
#
#   R_LIBS=<lib> Rscript inst/bench/database_cv.R [--n=1e5] [--p=10]
#       [--backends=sqlite,postgres] [--split-n=1e6]
#
# --split-n: also time the split alone (numbering, the drawn numbers, the
# two parts) at these sizes, in scan order and ordered by a key column,
# beside one aggregate over the training part (a DP-CD step reads as much).
#
# Every cv: epsilon = 1, x.bounds = 5, y.bound = 20, nlambda = 5, passes = 2,
# validation.fraction = 0.2, DP-CD. Columns:
#   backend, n, p
#   cv_s        the whole cv.dpglmnet()
#   checks_s    the table's COUNT(*) and value checks
#   split_s     numbering the rows, writing the drawn numbers and the two
#               parts as temporary tables (up to the parts' COUNT(*))
#   path_s      the path on the training part (standardization and DP-CD)
#   pass_s      seconds per DP-CD pass on the training part (p + 1 steps)
#   curve_s     the validation curve (one query of 2 x nlambda sums)
#   queries     aggregate queries (each returns one row)
#   max_rows    the most rows a query returned
# In memory: cv_s only (the whole cv.dpglmnet() on the matrix).
suppressMessages({
  library(dpglmnet)
  library(DBI)
})
args <- commandArgs(TRUE)
option <- function(name, default) {
  hit <- grep(paste0("^--", name, "="), args, value = TRUE)
  if (length(hit)) sub(paste0("^--", name, "="), "", hit[1L]) else default
}
sizes <- as.numeric(strsplit(option("n", "1e5"), ",")[[1L]])
p <- as.integer(option("p", "10"))
backends <- strsplit(option("backends", "sqlite,postgres"), ",")[[1L]]

helper <- system.file("bench", "database_server.R", package = "dpglmnet")
if (!nzchar(helper)) helper <- file.path(dirname(sub("^--file=", "", grep(
  "^--file=", commandArgs(FALSE), value = TRUE)[1L])), "database_server.R")
source(helper)

cv_args <- list(epsilon = 1, x.bounds = 5, y.bound = 20, nlambda = 5, passes = 2)

time_database_cv <- function(con) {
  sql <- character()
  at <- numeric()
  rows <- integer()
  options(dpglmnet.database.trace = function(s, result) {
    sql <<- c(sql, s)
    at <<- c(at, proc.time()[["elapsed"]])
    rows <<- c(rows, nrow(result))
  })
  on.exit(options(dpglmnet.database.trace = NULL))
  set.seed(2)
  start <- proc.time()[["elapsed"]]
  fit <- suppressWarnings(do.call(cv.dpglmnet, c(list(
    db_table(con, "records", x = paste0("v", seq_len(p)), y = "y")), cv_args)))
  end <- proc.time()[["elapsed"]]
  train_count <- grep("_train", sql)[1L]
  curve <- grep("dpglmnet_units", sql)
  steps <- grep("AS [`\"]g[0-9]+[`\"]", sql)
  step_times <- diff(at)[steps - 1L]
  list(fit = fit, cv_s = end - start, checks_s = at[2L] - start,
       split_s = at[train_count] - at[2L],
       path_s = at[curve[1L] - 1L] - at[train_count + 1L],
       pass_s = sum(step_times) / (cv_args$nlambda * cv_args$passes),
       curve_s = sum(at[curve] - at[curve - 1L]), queries = length(sql),
       max_rows = max(rows))
}

load_records <- function(con, data, chunk = 1e6) {
  frame <- function(rows) data.frame(data$x[rows, , drop = FALSE], y = data$y[rows])
  if (dbExistsTable(con, "records")) dbRemoveTable(con, "records")
  n <- nrow(data$x)
  for (s in seq(1, n, by = chunk)) {
    rows <- s:min(n, s + chunk - 1)
    dbWriteTable(con, "records", frame(rows), append = s > 1, row.names = FALSE)
  }
}

options(width = 200)
out <- list()
for (n in sizes) {
  data <- make_records(n, p)
  set.seed(2)
  memory_s <- system.time(memory <- suppressWarnings(do.call(cv.dpglmnet, c(list(
    data$x, data$y), cv_args))))[["elapsed"]]
  out[[length(out) + 1L]] <- data.frame(backend = "memory", n = n, p = p,
    cv_s = round(memory_s, 2), checks_s = NA, split_s = NA, path_s = NA, pass_s = NA,
    curve_s = NA, queries = NA, max_rows = NA)
  for (backend in backends) {
    server <- open_backend(backend)
    if (is.null(server)) next
    load_records(server$con, data)
    if (backend == "postgres") dbExecute(server$con, "ANALYZE records")
    r <- time_database_cv(server$con)
    stopifnot(identical(r$fit$privacy, memory$privacy),
              max(abs(r$fit$cvm - memory$cvm)) < 1e-8)
    out[[length(out) + 1L]] <- data.frame(backend = backend, n = n, p = p,
      cv_s = round(r$cv_s, 2), checks_s = round(r$checks_s, 2),
      split_s = round(r$split_s, 2), path_s = round(r$path_s, 2),
      pass_s = round(r$pass_s, 3), curve_s = round(r$curve_s, 2), queries = r$queries,
      max_rows = r$max_rows)
    server$close()
  }
  print(do.call(rbind, out), row.names = FALSE)
}

split_sizes <- as.numeric(strsplit(option("split-n", ""), ",")[[1L]])
split_rows <- list()
for (n in split_sizes) {
  data <- make_records(n, p)
  for (backend in backends) {
    server <- open_backend(backend)
    if (is.null(server)) next
    set.seed(3)
    frame <- data.frame(data$x, y = data$y, id = sample.int(n))
    dbWriteTable(server$con, "records", frame, overwrite = TRUE)
    for (key in list(NULL, "id")) {
      table <- db_table(server$con, "records", x = colnames(data$x), y = "y", key = key)
      source <- dpglmnet:::database_source(table)
      validation <- sort(sample.int(n, round(0.2 * n)))
      split_s <- system.time(parts <- dpglmnet:::database_split(table, source,
                                                                validation))[["elapsed"]]
      step_s <- system.time(dbGetQuery(server$con, sprintf(
        "SELECT SUM(x1 * y) AS s FROM %s", parts$train$from)))[["elapsed"]]
      parts$drop()
      split_rows[[length(split_rows) + 1L]] <- data.frame(
        backend = backend, n = n, order = if (is.null(key)) "scan" else "key",
        split_s = round(split_s, 2), one_aggregate_s = round(step_s, 3))
    }
    server$close()
  }
  print(do.call(rbind, split_rows), row.names = FALSE)
}
