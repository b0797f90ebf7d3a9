#' A database table as the data of a fit
#'
#' Names the columns of a table in a database (any DBI connection: SQLite,
#' PostgreSQL, DuckDB, Spark through sparklyr) for [dpglmnet()] to fit
#' where the data live: `dpglmnet(db_table(con, "patients", x = c("age",
#' "bmi"), y = "sbp"), epsilon = 1, x.bounds = list(age = c(18, 90), bmi =
#' c(10, 60)), y.bound = c(80, 220))`. No record is read into R: every
#' quantity the fit releases is a sum over records of a clamped per-record
#' term, computed by the database as one aggregate query that returns one
#' row; R adds the noise with the same mechanisms, sensitivities, noise
#' generator and ledger as the in-memory fit, so that at the same seed
#' (`set.seed()`) the fit on the table is the fit on the same data in memory
#' (up to the rounding of sums in another order), with two exceptions.
#' Where the budget affords DP-CD more than 10 passes per lambda at half the
#' schedule's noise (a large epsilon or n), the in-memory fit takes up to
#' 30 and the fit on a table stays at 10, since a pass there is one query
#' per coordinate (`passes` in [dpglmnet()]). And for p >= n / 2,
#' `solver = "auto"` may choose `"dpfw"` in memory, never on a table
#' (Section What runs in the database). The check of `solver = "auto"`'s
#' single lambda (`nlambda` in [dpglmnet()]) is made on a table as in
#' memory: its release is one more aggregate (two for binomial: the clamped
#' mean of y, then the clipped gradients at the mean model), and its gate
#' reads only the first pass's released gradients.
#'
#' @section What runs in the database:
#' The solver `"dpcd"` (DP coordinate descent, the default): each coordinate
#' step is one aggregate, the clipped coordinate gradient
#' \eqn{\sum_i clip(l'(\eta_i, y_i) x_{ij}, C_j)} with the linear predictor
#' \eqn{\eta_i} recomputed inside the query from the current coefficients
#' (no table is written), or kept in a column of a temporary copy of the
#' table, updated after each step (`CREATE TEMPORARY TABLE`, `UPDATE`): the
#' default on SQLite, where it is 7 times faster per pass at n = 1e6
#' (`inst/bench/results/2026-11-25-database.md`); elsewhere the query is
#' the default (faster on PostgreSQL, where an update writes a new version
#' of every row; and Spark SQL cannot update a table).
#' `options(dpglmnet.database.residual = "query")` or `"column"` chooses.
#' DP-CD's adaptive clip (see [dpcd]) is one aggregate per release too. The
#' private standardization (the range histograms
#' of every column as one row of bin counts, then the clamped means and
#' second moments), a private `lambda_max` (the clipped gradients at zero)
#' and, at `epsilon = Inf`, the exact smoothness constants. The other
#' solvers (`"dpsgd"`, `"dpscd"`, `"dpfw"`, `"dpfw-vr"`, `"nmd"`) draw
#' minibatches or read whole rows and are refused with an error naming
#' `solver`. `"auto"`, the default, chooses as in memory among the
#' solvers that run on a table: `"dpcd"`, or at moderate n the intercept
#' alone (`"intercept"`: the mean of the clamped response is one aggregate;
#' see Section Moderate n of [dpglmnet()]); never `"dpfw"`, which runs in
#' memory only. `weights` and
#' `offset` are not yet supported on a table (refused, naming them). The released quantiles `clip = "quantile"` and `smoothness =
#' "quantile"` or `"private"` are not yet computed in a database: they are
#' refused when asked for, and an unstandardized private fit on a table
#' defaults to `clip = sqrt(p + 1)` and `smoothness = "bounds"` instead
#' (standardized fits, the default with `x.bounds`, need neither).
#'
#' [cv.dpglmnet()] takes a table too: its split is drawn in R as in memory
#' and written by the database as two temporary tables (the rows numbered
#' in the order of `key`, else in the engine's scan order), the path is
#' DP-CD on the training part, and the validation curve is one aggregate
#' per 100 lambdas over the validation part. See the section On a database
#' table of [cv.dpglmnet()], which also says when `key` is needed.
#'
#' @section Privacy:
#' As in memory (see [dpglmnet()]): `n` (the table's row count, read with
#' `COUNT(*)`) and `p` are public, every release is clamped to the public
#' bounds inside the query, and the ledger is the in-memory ledger. A query
#' returns at most one row (tests check that none returns more than
#' `max(p + 1, nlambda)`). Missing values (SQL `NULL`), infinite values and,
#' for `family = "binomial"`, a `y` other than 0/1 are errors naming the
#' column, as they are in memory: give a table or view without them.
#'
#' Who is trusted: the exact sums leave the database and the noise is added
#' in the R session, as the in-memory fit adds it to sums it computes
#' itself. So the records stay in the database, but the R session that runs
#' the fit sees exact aggregates (one per release) and must be trusted as
#' the in-memory fit's session is; what is differentially private is the
#' returned fit (and anything computed from it), not the session's traffic.
#' The database sees the queries, which hold the coefficients of every
#' iterate. An analyst who must not see exact aggregates needs the noise
#' added inside the database (not offered).
#'
#' @section Backends:
#' The SQL is portable: `CASE WHEN` for every clamp (SQLite has no `LEAST`
#' / `GREATEST`), `ABS`, `EXP`, `SUM`, `COUNT`, `CAST` and aliased
#' subqueries, with identifiers quoted by [DBI::dbQuoteIdentifier()] and
#' numbers written exactly (17 significant digits, cast to the engine's
#' double type; [DBI::dbQuoteLiteral()] keeps 15 and would move the
#' constants). Tested on SQLite (RSQLite) and PostgreSQL (RPostgreSQL or
#' RPostgres); DuckDB when installed. Spark SQL accepts the same SQL:
#' connect with sparklyr (`sc <- sparklyr::spark_connect(...)`, whose
#' connection is a DBI connection) and give `db_table(sc, "table", ...)`;
#' the engine's double type is then `DOUBLE`. No Spark could be installed
#' where this package is developed, so the Spark path is untested.
#'
#' @param con A DBI connection ([DBI::DBIConnection-class]), or a dbplyr lazy
#'   table (`dplyr::tbl(con, ...)` with filters and new columns; its SQL is
#'   used as a subquery, and `table` must then be missing).
#' @param table The table or view: a name, or a [DBI::Id()] with a schema.
#' @param x Names of the numeric columns of the design matrix (at least 1).
#' @param y Name of the response column: numeric for `family = "gaussian"`,
#'   0/1 for `"binomial"` (the class names are then `"0"` and `"1"`).
#' @param key `NULL`, or the name of a column of public row keys (unique,
#'   assigned without looking at the records' values, such as an insertion
#'   number): [cv.dpglmnet()] numbers the rows by it (`ORDER BY key`) before
#'   drawing its split, so that the split is the same on every engine and
#'   whatever order the rows are stored in. Without it the rows are numbered
#'   in the engine's scan order. [dpglmnet()] does not read it.
#' @return An object of class `"dpglmnet_table"` for [dpglmnet()]'s `x`
#'   (then `y` is not given to [dpglmnet()]).
#' @examples
#' if (requireNamespace("RSQLite", quietly = TRUE)) {
#'   con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
#'   set.seed(1)
#'   d <- data.frame(a = rnorm(2000), b = rnorm(2000))
#'   d$y <- d$a - d$b + rnorm(2000)
#'   DBI::dbWriteTable(con, "records", d)
#'   fit <- dpglmnet(db_table(con, "records", x = c("a", "b"), y = "y"),
#'                   epsilon = 1, x.bounds = 4, y.bound = 10, nlambda = 3, passes = 2)
#'   print(fit)
#'   # cross-validation on the table: the split is drawn as in memory
#'   cvfit <- cv.dpglmnet(db_table(con, "records", x = c("a", "b"), y = "y"),
#'                        epsilon = 1, x.bounds = 4, y.bound = 10, nlambda = 3,
#'                        passes = 2)
#'   print(cvfit)
#'   DBI::dbDisconnect(con)
#' }
#' @export
db_table <- function(con, table, x, y, key = NULL) {
  if (!requireNamespace("DBI", quietly = TRUE)) {
    dpglmnet_abort("con", "needs the package DBI: install it to fit on a database table.")
  }
  lazy <- inherits(con, "tbl_lazy")
  if (lazy) {
    if (!missing(table)) {
      dpglmnet_abort("table", "must be missing when `con` is a dbplyr lazy table.")
    }
    from_sql <- as.character(dbplyr::sql_render(con))
    con <- dbplyr::remote_con(con)
  }
  if (!methods::is(con, "DBIConnection")) {
    dpglmnet_abort("con", sprintf(
      "must be a DBI connection or a dbplyr lazy table, not %s.", class(con)[1L]))
  }
  # (RPostgreSQL implements no dbIsValid(): taken as valid)
  valid <- tryCatch(DBI::dbIsValid(con), error = function(e) TRUE)
  if (!isTRUE(valid)) dpglmnet_abort("con", "is not a valid (open) connection.")
  if (lazy) {
    from <- sprintf("(%s) AS %s", from_sql, DBI::dbQuoteIdentifier(con, "dpglmnet_source"))
  } else {
    if (missing(table)) dpglmnet_abort("table", "must name a table or view.")
    if (!(methods::is(table, "Id") || (is.character(table) && length(table) == 1L &&
                                       !is.na(table) && nzchar(table)))) {
      dpglmnet_abort("table", "must be one table name (a string) or a DBI::Id().")
    }
    from <- as.character(DBI::dbQuoteIdentifier(con, table))
  }
  if (missing(x) || !is.character(x) || !length(x) || anyNA(x) || any(!nzchar(x))) {
    dpglmnet_abort("x", "must name the columns of the design (a character vector).")
  }
  if (anyDuplicated(x)) dpglmnet_abort("x", "names a column twice.")
  if (missing(y) || !is.character(y) || length(y) != 1L || is.na(y) || !nzchar(y)) {
    dpglmnet_abort("y", "must name one response column.")
  }
  if (y %in% x) dpglmnet_abort("y", sprintf("(\"%s\") is also a column of `x`.", y))
  if (!is.null(key) && (!is.character(key) || length(key) != 1L || is.na(key) ||
                        !nzchar(key))) {
    dpglmnet_abort("key", "must be NULL or name one column (a string).")
  }
  # The schema (public): a query for no rows.
  schema <- DBI::dbGetQuery(con, sprintf("SELECT * FROM %s WHERE 1 = 0", from))
  missing_columns <- setdiff(c(x, y), names(schema))
  if (length(missing_columns)) {
    dpglmnet_abort(if (all(missing_columns == y)) "y" else "x", sprintf(
      "names column(s) not in the table: %s.", paste(missing_columns, collapse = ", ")))
  }
  if (!is.null(key) && !key %in% names(schema)) {
    dpglmnet_abort("key", sprintf("names a column not in the table: %s.", key))
  }
  # (numeric only: a boolean column has no CAST to a double in PostgreSQL;
  # store 0/1 or use a view)
  numeric_type <- vapply(schema[c(x, y)], is.numeric, logical(1))
  if (!all(numeric_type[x])) {
    dpglmnet_abort("x", sprintf(paste(
      "names non-numeric column(s): %s. Expand factors into 0/1 columns in a",
      "view first (their levels are public schema)."),
      paste(x[!numeric_type[x]], collapse = ", ")))
  }
  if (!numeric_type[[y]]) {
    dpglmnet_abort("y", sprintf(paste(
      "(\"%s\") is not numeric: store a binomial response as 0/1 (a boolean",
      "column in a view, CASE WHEN b THEN 1 ELSE 0 END)."), y))
  }
  structure(list(con = con, from = from, x = x, y = y, key = key), class = "dpglmnet_table")
}

#' @export
print.dpglmnet_table <- function(x, ...) {
  cat(sprintf("<dpglmnet_table> %s: y = %s, x = %s\n", x$from, x$y,
              paste(x$x, collapse = ", ")))
  invisible(x)
}

is_database_input <- function(x) inherits(x, "dpglmnet_table")

# The engine's name for a double column: DOUBLE for Spark SQL (sparklyr),
# DOUBLE PRECISION elsewhere (SQLite gives it REAL affinity; PostgreSQL and
# DuckDB know it).
database_double_type <- function(con) {
  if (inherits(con, c("spark_connection", "spark_shell_connection"))) "DOUBLE"
  else "DOUBLE PRECISION"
}

# dpglmnet(db_table(...), ...): the source of x and the response from the
# table (after the checks below, which read only the schema, the row count
# and, as in memory, whether any value is missing), then the matrix path of
# dpglmnet() with them. The fit's data stages read them through the hooks
# of this file (column_moments(), column_ranges(), exact_smoothness(), the
# DP-CD solver's start_gradient and path).
fit_from_database <- function(call, env) {
  values <- given_arguments(call, env, names(formals(dpglmnet)))
  if (!is.null(values[["y", exact = TRUE]])) {
    dpglmnet_abort("y", "must not be given with a database table: name it in db_table(y = ).")
  }
  if (!is.null(values[["data", exact = TRUE]])) {
    dpglmnet_abort("data", "is for the formula interface, not for a database table.")
  }
  inputs <- database_inputs(values[["x"]], values)
  x <- inputs$source
  y <- inputs$response
  fit <- eval(as.call(c(list(dpglmnet, x = quote(x), y = quote(y)), inputs$arguments)))
  fit$call <- public_call(call, "dpglmnet")
  fit
}

# The data of a fit on `table` (a "dpglmnet_table") with the arguments
# `values` of dpglmnet() (those given): the checks of the arguments that a
# table does not support (before any query), the source of x (n from
# COUNT(*)), the values checked as in memory, the response, and the
# arguments for the matrix path of dpglmnet() (solver "dpcd"; the defaults
# that would release quantiles replaced by public ones). Shared by
# dpglmnet() and cv.dpglmnet() on a table (R/database-cv.R).
database_inputs <- function(table, values) {
  # ("auto", the default, chooses among the solvers that run on a table,
  # R/highdim.R)
  in_database <- solvers_with("in_database")
  solver <- values$solver
  if (is.null(solver)) solver <- "auto"
  if (!(is.character(solver) && length(solver) == 1L &&
        (identical(solver, "auto") || solver %in% in_database))) {
    dpglmnet_abort("solver", sprintf(paste(
      "= \"%s\" does not run in a database: only %s does (each of its",
      "coordinate steps is one aggregate query). Read the data into memory for",
      "the other solvers."), paste(solver, collapse = "\", \""),
      paste0('"', in_database, '"', collapse = ", ")))
  }
  for (name in c("weights", "offset")) {
    if (!is.null(values[[name, exact = TRUE]])) {
      dpglmnet_abort(name, sprintf(paste(
        "is not yet supported on a database table (it would be a column of the",
        "table): fit without `%s`, or in memory."), name))
    }
  }
  if (identical(values$clip, "quantile")) {
    dpglmnet_abort("clip", paste(
      "= \"quantile\" is not yet computed in a database: give a number."))
  }
  if (is.character(values$smoothness) && any(values$smoothness %in% c("quantile", "private"))) {
    dpglmnet_abort("smoothness", sprintf(paste(
      "= \"%s\" is not yet computed in a database: use \"standardized\" (with",
      "standardize = TRUE), \"bounds\", \"uniform\" or public constants."),
      values$smoothness[1L]))
  }
  family <- dpglmnet_family(if (is.null(values$family)) "gaussian" else values$family)
  source <- database_source(table)
  check_database_values(source, table, family$name)
  response <- structure(list(source = source, family = family$name,
                             expr = database_response_expr(source, table$y)),
                        class = "dpglmnet_db_response")
  arguments <- values[setdiff(names(values), c("x", "y", "data"))]
  arguments$solver <- solver
  # The defaults that would release quantiles (unstandardized private fits
  # with x.bounds) become their public counterparts (documented in db_table()).
  epsilon <- if (is.null(values$epsilon)) 1 else values$epsilon
  standardize <- if (is.null(values$standardize)) !is.null(values$x.bounds) else values$standardize
  if (isFALSE(standardize) && !is.null(values$x.bounds) && is.numeric(epsilon) &&
      all(is.finite(epsilon))) {
    intercept <- if (is.null(values$intercept)) TRUE else isTRUE(values$intercept)
    if (is.null(values$clip)) arguments$clip <- sqrt(length(table$x) + intercept)
    if (is.null(values$smoothness)) arguments$smoothness <- "bounds"
  }
  list(source = source, response = response, family = family, arguments = arguments)
}

# The x of a database fit (class "dpglmnet_db"): the connection, the FROM
# clause, the quoted column expressions and their names, n (COUNT(*):
# public, as n is), and the engine's double type. dim() and dimnames()
# make nrow(), ncol() and colnames() work on it as on a matrix.
database_source <- function(table) {
  con <- table$con
  source <- structure(list(
    con = con, from = table$from,
    columns = vapply(table$x, function(name) sprintf(
      "CAST(%s AS %s)", DBI::dbQuoteIdentifier(con, name), database_double_type(con)),
      character(1)),
    names = table$x, n = NA_real_, double_type = database_double_type(con),
    bare_numbers = inherits(con, "SQLiteConnection"), quoted = new.env(parent = emptyenv())),
    class = "dpglmnet_db")
  count <- database_query(source, sprintf("SELECT COUNT(*) AS %s FROM %s",
                                          DBI::dbQuoteIdentifier(con, "n"), table$from))
  source$n <- as.numeric(count[[1L]])
  source
}

database_response_expr <- function(source, y) {
  sprintf("CAST(%s AS %s)", DBI::dbQuoteIdentifier(source$con, y), source$double_type)
}

#' @export
dim.dpglmnet_db <- function(x) c(x$n, length(x$columns))

#' @export
dimnames.dpglmnet_db <- function(x) list(NULL, x$names)

#' @export
print.dpglmnet_db <- function(x, ...) {
  cat(sprintf("<dpglmnet_db> %d records x %d columns in %s\n", as.integer(x$n),
              length(x$columns), x$from))
  invisible(x)
}

# As in memory (check_x(), check_y()): missing or infinite values, and a
# binomial response other than 0/1, are errors naming the columns. One
# aggregate: per column, the count of bad values.
check_database_values <- function(source, table, family) {
  if (source$n < 2) dpglmnet_abort("x", "must have at least 2 rows.")
  con <- source$con
  big <- sql_number(source, .Machine$double.xmax)
  bad <- function(expr) sprintf(
    "SUM(CASE WHEN %s IS NULL OR NOT (ABS(%s) <= %s) THEN 1 ELSE 0 END)", expr, expr, big)
  y_expr <- database_response_expr(source, table$y)
  checks <- c(stats::setNames(lapply(source$columns, bad), paste0("x", seq_along(source$columns))),
              list(y = bad(y_expr)))
  # the family's own check of the response's values (binomial: 0 or 1)
  invalid <- dpglmnet_family(family)$sql_invalid_response(y_expr)
  if (!is.null(invalid)) checks$y_values <- invalid$sql
  counts <- unlist(database_query(source, sql_aggregate(source, checks)))
  counts[is.na(counts)] <- 0
  x_bad <- table$x[counts[seq_along(table$x)] > 0]
  if (length(x_bad)) {
    dpglmnet_abort("x", sprintf(paste(
      "column(s) %s hold missing (NULL), NaN or infinite values: give a table",
      "or view without them."), paste(x_bad, collapse = ", ")))
  }
  if (counts[["y"]] > 0) {
    dpglmnet_abort("y", sprintf(paste(
      "column %s holds missing (NULL), NaN or infinite values: give a table or",
      "view without them."), table$y))
  }
  if (!is.null(invalid) && counts[["y_values"]] > 0) {
    dpglmnet_abort("y", sprintf("column %s %s", table$y, invalid$message))
  }
  invisible()
}

# Every query of a database fit: one aggregate returning one row. The
# option dpglmnet.database.trace (a function of the SQL and the result) sees
# each, for tests and benchmarks.
database_query <- function(source, sql) {
  result <- DBI::dbGetQuery(source$con, sql)
  trace <- getOption("dpglmnet.database.trace")
  if (is.function(trace)) trace(sql, result)
  if (nrow(result) != 1L) stop("internal error: a database aggregate returned ", nrow(result),
                               " rows")
  result
}

is_database_source <- function(x) inherits(x, "dpglmnet_db")

# ---- The hooks the shared code calls -------------------------------------

# check_y() of a database response: it was checked by check_database_values().
check_database_response <- function(y) {
  list(y = y, classnames = if (dpglmnet_family(y$family)$classes) c("0", "1"))
}

# The signal check of solver = "auto" on a table (R/signal.R,
# src/dpglmnet/signal_check.h): the mean model's released mean of the
# clamped response (when it releases one; one aggregate), then the
# features' clipped gradients at the mean model, (1/n) sum_i clamp((m -
# y~_i) x~_ij, C_j), as one aggregate, and their norm with the check's
# noise: the core's draws, in its order, from the same stream.
signal_check_db <- function(x, y, settings) {
  stream <- .noise_stream_cpp(settings)
  m <- 0
  if (isTRUE(settings$release_mean)) {
    m <- database_clamped_mean(y, settings$mean_lower, settings$mean_upper)
    if (settings$mean_sd > 0) m <- m + settings$mean_sd * .noise_gaussian_cpp(stream, 1L)
    # (post-processing: the mean model's mean lies in y's interval)
    m <- min(max(m, settings$mean_lower), settings$mean_upper)
  }
  p <- ncol(x)
  inner <- list(y = y$expr)
  for (j in seq_len(p)) inner[[paste0("x", j)]] <- sql_column(x, j, settings$transform)
  sums <- lapply(seq_len(p), function(j) {
    term <- sprintf("(%s - %s) * %s", sql_number(x, m), sql_name(x, "y"),
                    sql_name(x, paste0("x", j)))
    sprintf("SUM(%s)", sql_clip(x, term, settings$coordinate_clip[[j]]))
  })
  names(sums) <- paste0("g", seq_len(p))
  g <- as.numeric(unlist(database_query(x, sql_aggregate(x, sums, inner)))) / x$n
  norm <- sqrt(sum(g^2))
  if (settings$norm_sd > 0) norm <- norm + settings$norm_sd * .noise_gaussian_cpp(stream, 1L)
  list(norm = norm, mean = m)
}

# The exact mean of a table's response clamped to [lower, upper]: one
# aggregate (the intercept-only fit, R/intercept.R).
database_clamped_mean <- function(y, lower, upper) {
  source <- y$source
  clamped <- sql_clamp(source, y$expr, lower, upper)
  row <- database_query(source, sql_aggregate(source, list(s = sprintf("SUM(%s)", clamped))))
  as.numeric(row[["s"]]) / source$n
}

# y clamped to [lower, upper] (clamp_response(), standardize_problem()):
# pmin(pmax(y, lower), upper) and pmax(pmin(y, upper), lower) agree for
# lower <= upper.
response_clamp <- function(y, lower, upper) {
  if (is.null(lower)) return(y)
  if (!inherits(y, "dpglmnet_db_response")) return(pmin(pmax(y, lower), upper))
  y$expr <- sql_clamp(y$source, y$expr, lower, upper)
  y
}

# (clamp(y, lower, upper) - mean) / sd, the standardized response (lower /
# upper NULL: no clamp); in memory in one pass (src/interface_standardize.cpp).
response_standardize <- function(y, lower, upper, mean, sd) {
  if (inherits(y, "dpglmnet_db_response")) {
    return(response_scale(response_clamp(y, lower, upper), mean, sd))
  }
  .response_standardize_cpp(y, if (is.null(lower)) -Inf else lower,
                            if (is.null(upper)) Inf else upper, mean, sd)
}

# (y - mean) / sd, the standardized response.
response_scale <- function(y, mean, sd) {
  if (!inherits(y, "dpglmnet_db_response")) return((y - mean) / sd)
  y$expr <- sprintf("((%s - %s) / %s)", y$expr, sql_number(y$source, mean),
                    sql_number(y$source, sd))
  y
}

# y as a one-column x (the standardization of y reads it as a column).
response_column <- function(y) {
  if (!inherits(y, "dpglmnet_db_response")) return(matrix(y, ncol = 1L))
  source <- y$source
  source$columns <- y$expr
  source$names <- "y"
  source
}

# .column_moments_cpp() on a table: the sums in one query, the noise drawn as
# private_column_moments() draws it (src/dpglmnet/standardize.h: column by
# column, the mean's then the second moment's, each only when its sd > 0).
column_moments <- function(x, settings) {
  if (!is_database_source(x)) return(.column_moments_cpp(x, settings))
  if (!is.null(settings$weights)) stop("internal error: weights on a database table")
  p <- ncol(x)
  n <- x$n
  at <- function(v, j, default) if (is.null(v)) default else v[[j]]
  sums <- list()
  for (j in seq_len(p)) {
    v <- sql_clamp(x, sql_column(x, j, settings$transform), at(settings$lower, j, -Inf),
                   at(settings$upper, j, Inf))
    shift <- at(settings$shift, j, 0)
    v <- sprintf("(%s - %s)", v, sql_number(x, shift))
    sums[[paste0("s", j)]] <- sprintf("SUM(%s)", v)
    sums[[paste0("q", j)]] <- sprintf("SUM(%s * %s)", v, v)
  }
  row <- unlist(database_query(x, sql_aggregate(x, sums)))
  moments_from_sums(row[paste0("s", seq_len(p))], row[paste0("q", seq_len(p))], n, settings)
}

# The released moments from the exact column sums `s` and sums of squares
# `q` of n records: the noise drawn as private_column_moments() draws it.
moments_from_sums <- function(s, q, n, settings) {
  p <- length(q)
  stream <- .noise_stream_cpp(settings)
  mean <- if (!is.null(settings$mean_sd)) numeric(p) else numeric()
  second <- numeric(p)
  for (j in seq_len(p)) {
    second[j] <- q[[j]] / n
    if (!is.null(settings$mean_sd)) {
      mean[j] <- s[[j]] / n
      if (settings$mean_sd[[j]] > 0) {
        mean[j] <- mean[j] + settings$mean_sd[[j]] * .noise_gaussian_cpp(stream, 1L)
      }
    }
    if (settings$second_sd[[j]] > 0) {
      second[j] <- second[j] + settings$second_sd[[j]] * .noise_gaussian_cpp(stream, 1L)
    }
  }
  list(mean = mean, second = second)
}

# .column_ranges_cpp() on a table: the exact bin counts of each column (one
# query per column, one row of 2K + 1 + L counts), then the noise and the
# clamp choice of the core (src/interface_database.cpp).
column_ranges <- function(x, settings) {
  if (!is_database_source(x)) return(.column_ranges_cpp(x, settings))
  p <- ncol(x)
  size <- 2L * settings$levels + 1L + settings$fine_bins
  counts <- matrix(0, size, p)
  for (j in seq_len(p)) {
    # (the transform clamps to the same public interval as the histogram)
    sql <- sql_histogram(x, sql_column(x, j, settings$transform), settings$lower[[j]],
                         settings$upper[[j]], settings$levels, settings$fine_bins)
    counts[, j] <- as.numeric(unlist(database_query(x, sql)))
  }
  counts[is.na(counts)] <- 0
  .column_ranges_from_counts_cpp(counts, settings)
}

# .exact_smoothness_cpp() on a table (epsilon = Inf only): curvature (1/n)
# sum x~_ij^2.
exact_smoothness <- function(x, settings) {
  if (!is_database_source(x)) return(.exact_smoothness_cpp(x, settings))
  sums <- lapply(seq_len(ncol(x)), function(j) {
    v <- sql_column(x, j, settings$transform)
    sprintf("SUM(%s * %s)", v, v)
  })
  names(sums) <- paste0("q", seq_along(sums))
  row <- unlist(database_query(x, sql_aggregate(x, sums)))
  settings$curvature * as.numeric(row) / x$n
}

# The clipped coordinate gradient sums sum_i clip(l'(eta_i, y_i) x~_ij, C_j)
# of the coordinates `js` (1-based; p + 1 is the intercept) at the
# coefficients `coef`, in one query: the linear predictor recomputed from
# `coef` inside the query, or read from the work table's column `eta`
# (`work`, see database_work_table()).
database_gradient_sums <- function(x, y, settings, coef, js, work = NULL,
                                   clip = settings$coordinate_clip) {
  p <- ncol(x)
  query <- database_derivative_query(x, y, settings, coef, work)
  source <- query$source
  inner <- query$inner
  derivative <- query$derivative
  transform <- if (is.null(work)) settings$transform
  for (j in js[js <= p]) inner[[paste0("x", j)]] <- sql_column(source, j, transform)
  sums <- lapply(js, function(j) {
    term <- if (j > p) derivative else sprintf("%s * %s", derivative,
                                              sql_name(x, paste0("x", j)))
    sprintf("SUM(%s)", sql_clip(x, term, clip[[j]]))
  })
  names(sums) <- paste0("g", js)
  as.numeric(unlist(database_query(source, sql_aggregate(source, sums, inner))))
}

# The sum over records of min(l'(eta_i, y_i)^2, bound^2) at the current
# coefficients: the adaptive clip's release of DP-CD (R/dpcd.R), one
# aggregate.
database_scale_sum <- function(x, y, settings, coef, bound, work = NULL) {
  query <- database_derivative_query(x, y, settings, coef, work)
  derivative <- query$derivative
  # (a square is >= 0: the clamp to [-B^2, B^2] is min(., B^2))
  sums <- list(s = sprintf("SUM(%s)", sql_clip(x, sprintf("(%s) * (%s)", derivative, derivative),
                                                 bound^2)))
  as.numeric(unlist(database_query(query$source,
                                   sql_aggregate(query$source, sums, query$inner))))
}

# The split intercept's released gradient on a table, as the core's
# private_intercept_gradient() (src/dpglmnet/dpcd.h): the mean of l'(eta_i,
# 0) (the family's linkinv: a canonical link) from one aggregate, minus the
# released mean of y, plus the path's noise on the range w of l'(., 0) over
# the public box, each term clamped to its ends (exact, one draw discarded,
# while every feature is at 0), or the clipped step where 2 C_0 <= w.
database_split_intercept_gradient <- function(x, y, settings, coef, box, work, stream,
                                              clip, noise) {
  p <- ncol(x)
  linkinv <- dpglmnet_family(settings$family, parameter = settings$family_parameter)$linkinv
  b0 <- coef[[p + 1L]]
  b <- coef[seq_len(p)]
  moved <- b != 0
  if (!any(moved)) {
    # (one draw discarded, as the core)
    .noise_gaussian_cpp(stream, 1L)
    return(linkinv(b0) - settings$intercept_response_mean)
  }
  ends <- cbind(b[moved] * box$lower[moved], b[moved] * box$upper[moved])
  low <- sum(pmin(ends[, 1], ends[, 2]))
  high <- sum(pmax(ends[, 1], ends[, 2]))
  margin <- 1e-9 * (1 + abs(b0) + abs(low) + abs(high))
  lower <- linkinv(b0 + low - margin)
  upper <- linkinv(b0 + high + margin)
  if (is.na(lower) || !(lower >= 0)) lower <- 0
  if (is.na(upper) || !(upper <= 1)) upper <- 1
  if (!(upper >= lower)) {
    lower <- 0
    upper <- 1
  }
  width <- upper - lower
  # (the clipped step where its sensitivity 2 C_0 / n is the smaller)
  if (!(width < 2 * clip[[p + 1L]])) {
    g <- database_gradient_sums(x, y, settings, coef, p + 1L, work, clip) / x$n
    return(g + noise[[p + 1L]] * .noise_gaussian_cpp(stream, 1L))
  }
  query <- database_derivative_query(x, y, settings, coef, work)
  # (each term clamped to [lower, upper]: the sensitivity w / n by construction)
  term <- sql_clamp(x, sql_derivative(x, settings$family, sql_name(x, "eta"), sql_number(x, 0),
                                      settings$family_parameter), lower, upper)
  sum0 <- as.numeric(unlist(database_query(query$source, sql_aggregate(
    query$source, list(s = sprintf("SUM(%s)", term)), query$inner))))
  sum0 / x$n - settings$intercept_response_mean +
    settings$intercept_multiplier * width / x$n * .noise_gaussian_cpp(stream, 1L)
}

# Each column's public box as the core reads it (src/dpglmnet/dpcd.h's
# start_split_intercept()): the clamp, centred and scaled, widened to 0.
split_intercept_box <- function(transform, p) {
  pick <- function(v, default) if (is.null(v)) rep(default, p) else as.numeric(v)
  lower <- pick(transform$lower, -Inf)
  upper <- pick(transform$upper, Inf)
  center <- pick(transform$center, 0)
  scale <- pick(transform$scale, 1)
  a <- (lower - center) * scale
  b <- (upper - center) * scale
  list(lower = pmin(pmin(a, b), 0), upper = pmax(pmax(a, b), 0))
}

# What a per-record derivative query reads: its source (the table, or the
# work table of the "column" mode), the inner query's eta and y (eta from
# `coef`, or the work table's column), and l'(eta, y) in SQL over them.
database_derivative_query <- function(x, y, settings, coef, work = NULL) {
  inner <- if (is.null(work)) {
    list(eta = sql_linear_predictor(x, coef, ncol(x), isTRUE(settings$intercept),
                                    settings$transform), y = y$expr)
  } else {
    list(eta = sql_name(work, "eta"), y = sql_name(work, "y"))
  }
  list(source = if (is.null(work)) x else work, inner = inner,
       derivative = sql_derivative(x, settings$family, sql_name(x, "eta"),
                                   sql_name(x, "y"), settings$family_parameter))
}

# How DP-CD keeps the linear predictor: "query" recomputes it from the
# current coefficients inside each step's query (nothing is written; Spark
# SQL and read-only accounts work); "column" keeps it in a column of a
# temporary copy of the table, updated after each step (eta += change x~_j,
# as the core does), which costs a write of every record per step.
# Measured (inst/bench/results/2026-11-25-database.md, p = 10, n = 1e6):
# SQLite 39 s per pass by "query", 5.4 s by "column"; PostgreSQL 10.7 s by
# "query", 13.4 s by "column" (an UPDATE writes a new version of every
# row). So the default is "column" on SQLite and "query" elsewhere;
# options(dpglmnet.database.residual) overrides it.
database_residual_mode <- function(source) {
  mode <- getOption("dpglmnet.database.residual",
                    if (inherits(source$con, "SQLiteConnection")) "column" else "query")
  if (!identical(mode, "query") && !identical(mode, "column")) {
    dpglmnet_abort("options(dpglmnet.database.residual)", "must be \"query\" or \"column\".")
  }
  mode
}

database_state <- new.env(parent = emptyenv())
database_state$work <- 0L

# The temporary work table of the "column" mode: the transformed columns
# x1..xp, the response y and eta = 0 (the start of the path), as a source.
database_work_table <- function(x, y, settings) {
  con <- x$con
  # (a name from the process and a counter: drawing one would move R's RNG,
  # and with it the seeds of later releases)
  database_state$work <- database_state$work + 1L
  name <- sprintf("dpglmnet_work_%d_%d", Sys.getpid(), database_state$work)
  quoted <- as.character(DBI::dbQuoteIdentifier(con, name))
  p <- ncol(x)
  columns <- c(vapply(seq_len(p), function(j) sprintf(
    "%s AS %s", sql_column(x, j, settings$transform), sql_name(x, paste0("x", j))), ""),
    sprintf("%s AS %s", y$expr, sql_name(x, "y")),
    sprintf("%s AS %s", sql_number(x, 0), sql_name(x, "eta")))
  DBI::dbExecute(con, sprintf("CREATE TEMPORARY TABLE %s AS SELECT %s FROM %s", quoted,
                              paste(columns, collapse = ", "), x$from))
  work <- x
  work$from <- quoted
  work$columns <- vapply(seq_len(p), function(j) sql_name(x, paste0("x", j)), "")
  work
}

# eta += change x~_j (j = p + 1: the intercept, eta += change) in the work
# table; coef: recompute eta = b0 + sum_j b_j x~_j (after an averaged pass).
database_update_eta <- function(work, p, j = NULL, change = NULL, coef = NULL) {
  eta <- sql_name(work, "eta")
  value <- if (!is.null(coef)) {
    sql_linear_predictor(work, coef, p, length(coef) > p, NULL)
  } else if (j > p) {
    sprintf("%s + %s", eta, sql_number(work, change))
  } else {
    sprintf("%s + %s * %s", eta, sql_number(work, change), work$columns[[j]])
  }
  DBI::dbExecute(work$con, sprintf("UPDATE %s SET %s = %s", work$from, eta, value))
  invisible()
}

# .dpcd_start_gradient_cpp() on a table: the p clipped gradients at zero in
# one query, then the noise in the order of the core (coordinate by
# coordinate, when its sd > 0).
dpcd_start_gradient_db <- function(x, y, settings) {
  p <- ncol(x)
  settings$intercept <- FALSE
  g <- database_gradient_sums(x, y, settings, numeric(p), seq_len(p)) / x$n
  stream <- .noise_stream_cpp(settings)
  for (j in seq_len(p)) {
    if (settings$noise_sd[[j]] > 0) g[j] <- g[j] + settings$noise_sd[[j]] *
        .noise_gaussian_cpp(stream, 1L)
  }
  g
}

# .dpcd_path_cpp() on a table: DP-CD's path (src/dpglmnet/dpcd.h and
# path.h) step by step in R, each step's clipped gradient one aggregate
# query, and every random draw (permutations, random coordinates, noise)
# from the core's generator in the core's order, so that the same seed gives
# the same fit as in memory.
dpcd_path_db <- function(x, y, settings) {
  if (!is.null(settings$weights) || !is.null(settings$offset)) {
    stop("internal error: weights or offset on a database table")
  }
  p <- ncol(x)
  n <- x$n
  intercept <- isTRUE(settings$intercept)
  coordinates <- p + intercept
  if (coordinates >= 65536L) {
    dpglmnet_abort("x", "has too many columns for a database fit (at most 65534).")
  }
  work <- if (database_residual_mode(x) == "column") database_work_table(x, y, settings)
  if (!is.null(work)) {
    on.exit(DBI::dbExecute(x$con, sprintf("DROP TABLE %s", work$from)), add = TRUE)
  }
  stream <- .noise_stream_cpp(settings)
  lambdas <- settings$lambda
  coef <- numeric(coordinates)
  # the split intercept (src/dpglmnet/dpcd.h, R/dpcd.R): b0 starts at the
  # link of the released mean
  split <- intercept && isTRUE(settings$intercept_split)
  if (split) {
    coef[p + 1L] <- settings$intercept_start
    if (!is.null(work)) database_update_eta(work, p, p + 1L, settings$intercept_start)
    box <- split_intercept_box(settings$transform, p)
  }
  order <- seq_len(coordinates) - 1L
  beta <- matrix(0, p, length(lambdas))
  a0 <- numeric(length(lambdas))
  last_change <- numeric(length(lambdas))
  # prox_{gamma psi_j} (src/dpglmnet/penalties/elastic_net.h): soft-threshold, shrink, clamp
  prox <- function(j, v, gamma, lambda) {
    scale <- gamma * lambda * settings$penalty_factor[[j]]
    l1 <- scale * settings$alpha
    l2 <- scale * (1 - settings$alpha)
    b <- if (v > l1) (v - l1) / (1 + l2) else if (v < -l1) (v + l1) / (1 + l2) else 0
    min(max(b, settings$lower_limits[[j]]), settings$upper_limits[[j]])
  }
  # the adaptive clip (src/dpglmnet/dpcd.h, R/dpcd.R): the clips and noise
  # sds now, and the last released scale
  clip_now <- settings$coordinate_clip
  noise_now <- settings$noise_sd
  scales <- !is.null(settings$scale_reference)
  scale <- settings$scale_reference
  released_scales <- numeric(0)
  factor <- 1
  # tail averaging (src/dpglmnet/dpcd.h): each lambda ends at the mean of
  # the iterates ending its last ceiling(tail_average x passes) passes
  tail_average <- if (is.null(settings$tail_average)) 0 else settings$tail_average
  tail_passes <- if (tail_average > 0) ceiling(tail_average * settings$passes) else 0
  tail_from <- if (tail_passes > 1) settings$passes - tail_passes else settings$passes
  # the signal gate (src/dpglmnet/dpcd.h, R/signal.R): the first pass of the
  # first lambda records the features' released gradients; below the
  # gate's energy (and with no feature clearly out of its noise) the rest of
  # that lambda is at the gate's (ramped) lambda, and the first pass's
  # features are put at its prox of their released steps
  gate <- database_gate(settings, p)
  for (l in seq_along(lambdas)) {
    lambda <- lambdas[[l]]
    tail_sum <- numeric(coordinates)
    tail_count <- 0L
    for (pass in seq_len(settings$passes)) {
      gate$recording <- gate$on && !gate$done && pass == 1L
      change <- 0
      if (settings$selection == "permutation") order <- .noise_shuffle_cpp(stream, order)
      local <- pass - 1L
      if (scales && local > 0L && bitwAnd(local, local - 1L) == 0L) {
        # (as the core: before passes 1, 2, 4, ... of each lambda)
        bound <- settings$scale_beta * scale
        # (each term min(l'^2, B^2) / B^2 in [0, 1], as the core's)
        released <- min(1, database_scale_sum(x, y, settings, coef, bound, work) /
                              (bound^2 * n)) +
          settings$scale_noise_sd * .noise_gaussian_cpp(stream, 1L)
        scale <- max(bound * sqrt(max(released, settings$scale_noise_sd)),
                     settings$scale_floor * settings$scale_reference)
        released_scales <- c(released_scales, scale)
        factor <- min(1, settings$scale_kappa * scale / settings$scale_reference)
        clip_now <- settings$coordinate_clip * factor
        noise_now <- settings$noise_sd * factor
      }
      if (settings$average) {
        average_sum <- numeric(coordinates)
        last_counted <- integer(coordinates)
      }
      for (k in seq_len(coordinates) - 1L) {
        j <- 1L + if (settings$selection == "random") .noise_index_cpp(stream, coordinates)
                  else order[[k + 1L]]
        if (settings$average) {
          average_sum[j] <- average_sum[j] + coef[j] * (k - last_counted[j])
          last_counted[j] <- k
        }
        gamma <- settings$coordinate_step[[j]]
        if (!(gamma > 0)) next
        old <- coef[j]
        if (split && j == p + 1L) {
          g <- database_split_intercept_gradient(x, y, settings, coef, box, work, stream,
                                                 clip_now, noise_now)
        } else {
          g <- database_gradient_sums(x, y, settings, coef, j, work, clip_now) / n
          if (noise_now[[j]] > 0) {
            g <- g + noise_now[[j]] * .noise_gaussian_cpp(stream, 1L)
          }
        }
        moved <- old - gamma * g
        if (gate$recording && j <= p) gate <- gate$record(gate, j, moved, g)
        updated <- if (j <= p) prox(j, moved, gamma, lambda) else moved
        if (updated == old) next
        change <- max(change, abs(updated - old))
        coef[j] <- updated
        if (!is.null(work)) database_update_eta(work, p, j, updated - old)
      }
      if (gate$recording) {
        gate$recording <- FALSE
        gate$done <- TRUE
        if (gate$energy < settings$gate_energy && !(gate$largest_z >= gate$z)) {
          gate$closed <- TRUE
          lambda <- gate$ramped_lambda(gate, lambda)
          gate$lambda <- lambda
          for (j in seq_len(p)) {
            gamma <- settings$coordinate_step[[j]]
            if (gamma > 0) coef[j] <- prox(j, gate$moved[j], gamma, lambda)
          }
          if (!is.null(work)) database_update_eta(work, p, coef = coef)
        }
      }
      if (settings$average) {
        coef <- (average_sum + coef * (coordinates - last_counted)) / coordinates
        if (!is.null(work)) database_update_eta(work, p, coef = coef)
      }
      if (pass - 1L >= tail_from) {
        tail_sum <- tail_sum + coef
        tail_count <- tail_count + 1L
      }
    }
    if (tail_count > 1L) {
      # (a feature the last pass left at 0 stays there, as in the core)
      zero <- c(coef[seq_len(p)] == 0, rep(FALSE, coordinates - p))
      coef <- ifelse(zero, 0, tail_sum / tail_count)
      if (!is.null(work)) database_update_eta(work, p, coef = coef)
    }
    beta[, l] <- coef[seq_len(p)]
    if (intercept) a0[l] <- coef[[p + 1L]]
    last_change[l] <- change
    if (settings$trace > 0) cat(sprintf("lambda %d/%d done\n", l, length(lambdas)))
  }
  steps <- settings$coordinate_step[seq_len(p)]
  list(beta = beta, a0 = a0, last_pass_change = last_change,
       gate = list(energy = gate$energy, closed = gate$closed, lambda = gate$lambda,
                   gradients = ifelse(steps > 0, -gate$moved / steps, 0)),
       scale = list(released = released_scales, factor = factor))
}

# The signal gate's state on a table, as the core's (src/dpglmnet/dpcd.h):
# on where the settings set it (and neither averaging nor random selection
# is used), the first pass's moved values, the sum of the gate features'
# squared released gradients and their largest |g_j| / sigma_j.
database_gate <- function(settings, p) {
  on <- isTRUE(settings$gate_energy > 0) && !isTRUE(settings$average) &&
    !identical(settings$selection, "random") && length(settings$gate_feature) == p
  list(on = on, done = FALSE, recording = FALSE, closed = FALSE, lambda = 0,
       energy = 0, largest_z = 0, moved = numeric(p),
       z = if (is.null(settings$gate_z)) Inf else settings$gate_z,
       record = function(gate, j, moved, g) {
         gate$moved[j] <- moved
         if (settings$gate_feature[[j]] != 0) {
           gate$energy <- gate$energy + g * g
           if (settings$noise_sd[[j]] > 0) {
             gate$largest_z <- max(gate$largest_z, abs(g) / settings$noise_sd[[j]])
           }
         }
         gate
       },
       # ramped_gate_lambda() of the core: from the gate's lambda at the
       # ramp's start to the fit's own at the gate's threshold, geometrically
       ramped_lambda = function(gate, own) {
         noise <- settings$gate_noise_energy
         ramp <- settings$gate_ramp_energy
         open <- settings$gate_energy
         gate_lambda <- settings$gate_lambda
         if (is.null(noise) || is.null(ramp) || !(ramp > noise) || !(open > ramp) ||
             !(own > 0) || !(gate_lambda > own)) {
           return(gate_lambda)
         }
         r <- sqrt(max(gate$energy - noise, 0))
         r_low <- sqrt(ramp - noise)
         r_open <- sqrt(open - noise)
         u <- min(max((r - r_low) / (r_open - r_low), 0), 1)
         exp((1 - u) * log(gate_lambda) + u * log(own))
       })
}
