# cv.dpglmnet() on a database table (issue 19): the in-memory procedure of
# R/cv.R (plan from public inputs, one split drawn independently of the
# data, the private path on the training part, the private validation curve
# on the validation part, an optional refit on every record, one ledger),
# with every read of the records an aggregate query in the database.
#
# The split. In memory it is sort(sample.int(n, n_val)) over the row
# indices of x: a uniformly random subset of n_val positions, n_val =
# round(validation.fraction * n) public (n is public, so both part sizes
# are). On a table the same draw is made, from R's RNG at the same point of
# the procedure (so a seed gives the same split as in memory for the same
# records in the same order), and the database evaluates it: the rows are
# numbered once, ROW_NUMBER() OVER (ORDER BY key) with db_table(key = ), else
# in the engine's scan order, into a temporary table; the drawn numbers are
# sent as a temporary table of integers (public: drawn without the data)
# and the two parts are written as two temporary tables that every later
# query reads. Numbering once matters: a scan order is not guaranteed to be
# the same in two queries (PostgreSQL's synchronized scans start mid-table),
# so a rule recomputed in each query could move records between parts.
# Rules the database could evaluate per query without a written split (a
# hash of a row key modulo the number of parts, a column of random draws
# compared to a threshold) give parts whose sizes depend on the records'
# keys or draws: n_val would then be private, and the curve's sensitivity
# B / n_val with it. Exact part sizes need ranks, so a written numbering.
# Its cost: one copy of the x and y columns into temporary tables
# (inst/bench/database.R --cv measures it beside a DP-CD pass).

#' @rdname cv.dpglmnet
#' @section On a database table:
#' `x` may be a table named by [db_table()] (then `y` is not given): the
#' same procedure runs with every read of the records an aggregate query
#' that returns one row, and the same plan, mechanisms, noise and ledger as
#' in memory. At the same seed, on the same records in the same order, the
#' split, the path, the curve, the choice and the refit are the in-memory
#' ones (to rounding: 1e-14 in the tests, at `epsilon = Inf` and 1) and the
#' ledger is identical, except where [db_table()] says the fits differ
#' (DP-CD's extra passes above 10 at a large budget, and `solver =
#' "auto"`'s choice for p >= n / 2).
#' * The split is drawn in R as in memory (`validation` holds the drawn row
#'   numbers); the database numbers its rows once, `ROW_NUMBER() OVER
#'   (ORDER BY key)` with `db_table(key = )`, else in the engine's scan
#'   order, and writes the two parts as temporary tables (a copy of the x
#'   and y columns, dropped when the procedure ends, also on an error),
#'   which every later query reads. Why this rule: the part sizes must be
#'   public (n is, and n_val = `round(validation.fraction * n)`), since the
#'   curve's sensitivity is \eqn{B / n_v}; a rule evaluated in each query
#'   without ranks (a hash of a key modulo the number of parts, random
#'   draws compared to a threshold) gives parts whose sizes depend on the
#'   records' keys or draws. Numbering once, not in each query, because a
#'   scan order need not be the same twice (PostgreSQL's synchronized
#'   scans). Its cost is below one DP-CD pass: at n = 1e5, p = 10 (with
#'   `epsilon = 1`, 5 lambdas, 2 passes; `inst/bench/database_cv.R`,
#'   results in `inst/bench/results/2026-11-25-database-cv.md`) the split
#'   took 0.23 s on SQLite and 0.19 s on PostgreSQL, a pass 0.42 s and
#'   1.4 s, the curve 0.10 s and 0.04 s, the whole cv 10 s and 24 s (0.65 s
#'   in memory; over half of it the private standardization's queries). At n = 1e6 the split took 2.3 s on SQLite and 5.7 s on
#'   PostgreSQL (3.1 s and 7.3 s ordered by a key), against 5.4 s and
#'   10.7 s per DP-CD pass (`inst/bench/results/2026-11-25-database.md`).
#' * Privacy needs what memory needs: the numbering must not depend on the
#'   records' values, as the row order of an in-memory x must not (the
#'   split is then independent of the data and the returned row numbers
#'   release nothing). A public key (an insertion number) gives that on
#'   every engine; without one, a table's scan order is its insertion order
#'   in SQLite and, until rows are updated, in PostgreSQL. A view or lazy
#'   table sorted by a value, or a table reorganised by one (PostgreSQL's
#'   `CLUSTER`, an index-organised table), needs `key`.
#' * The path is DP-CD on the training part ([db_table()] says what runs in
#'   a database and what is refused); the curve is one query per block of
#'   100 lambdas, the sums over the validation records of the clipped
#'   losses and their squares, with each record's linear predictors
#'   computed once in a subquery; the refit reads the whole table.
#' * It needs `CREATE TEMPORARY TABLE ... AS SELECT` and window functions:
#'   SQLite (>= 3.25), PostgreSQL and DuckDB. Spark SQL has no temporary
#'   tables of that kind, so cv on a Spark table is not offered (untested:
#'   no Spark could be installed where this package is developed).
#' @name cv.dpglmnet
NULL

# cv.dpglmnet(db_table(...), ...): see ?cv.dpglmnet (Section On a database
# table). `call` and `env` are those of cv.dpglmnet().
cv_from_database <- function(call, env) {
  values <- given_arguments(call, env, names(formals(cv.dpglmnet)))
  table <- values[["x"]]
  if (!is.null(values[["y", exact = TRUE]])) {
    dpglmnet_abort("y", "must not be given with a database table: name it in db_table(y = ).")
  }
  if (inherits(table$con, c("spark_connection", "spark_shell_connection"))) {
    dpglmnet_abort("x", paste(
      "is a Spark table: cv.dpglmnet() writes its split as temporary tables",
      "(CREATE TEMPORARY TABLE ... AS SELECT), which Spark SQL does not offer.",
      "Fit with dpglmnet() on the table, or cross-validate in memory."))
  }
  own <- setdiff(names(formals(cv.dpglmnet)), "...")
  arguments <- values[setdiff(names(values), own)]
  arguments <- check_path_arguments(arguments)
  if (!is.null(arguments[["data", exact = TRUE]])) {
    dpglmnet_abort("data", "is for the formula interface, not for a database table.")
  }
  given <- function(name) arguments[[name, exact = TRUE]]
  value <- function(name) {
    v <- values[[name, exact = TRUE]]
    if (is.null(v)) eval(formals(cv.dpglmnet)[[name]]) else v
  }
  if (!is.null(given("lambda")) && length(given("lambda")) < 2L) {
    dpglmnet_abort("lambda", "must have at least two values to choose from.")
  }
  family <- dpglmnet_family(if (is.null(given("family"))) "gaussian" else given("family"))
  epsilon <- check_numeric(value("epsilon"), "epsilon", lower = 0, lower_open = TRUE,
                           finite = FALSE)
  delta <- values[["delta", exact = TRUE]]
  if (!is.null(delta)) {
    delta <- check_numeric(delta, "delta", 0, 1, lower_open = TRUE, upper_open = TRUE)
  }
  type.measure <- check_measure(value("type.measure"), family$name)
  validation.fraction <- check_numeric(value("validation.fraction"), "validation.fraction",
                                       0, 1, lower_open = TRUE, upper_open = TRUE)
  validation.fraction <- folds_validation_fraction(
    values[["nfolds", exact = TRUE]], validation.fraction,
    !is.null(values[["validation.fraction", exact = TRUE]]))
  folds <- attr(validation.fraction, "nfolds")
  validation.fraction <- as.numeric(validation.fraction)
  loss.bound <- values[["loss.bound", exact = TRUE]]
  if (!is.null(loss.bound)) {
    loss.bound <- check_numeric(loss.bound, "loss.bound", lower = 0, lower_open = TRUE,
                                upper = max_loss_bound)
  }
  refit <- value("refit")
  check_flag(refit, "refit")
  refit.budget <- check_numeric(value("refit.budget"), "refit.budget", 0, 1,
                                lower_open = TRUE, upper_open = TRUE)
  rng <- check_choice(value("rng"), c("seeded", "secure"), "rng")
  check_x_bounds_given(given("x.bounds"), given("standardize"), epsilon, given("solver"))
  check_loss_bound_given(family, epsilon, loss.bound, given("y.bound"))
  if (is.null(family$sql_linkinv) ||
      (type.measure == "deviance" && is.null(family$sql_loss))) {
    dpglmnet_abort("type.measure", sprintf(paste(
      "= \"%s\" is not computed in a database for family = \"%s\": cross-validate",
      "in memory."), type.measure, family$name))
  }
  # The table: its source (n from COUNT(*)), the values checked as in
  # memory, the arguments of the path as dpglmnet() on a table takes them.
  inputs <- database_inputs(table, c(arguments, list(epsilon = epsilon)))
  source <- inputs$source
  response <- inputs$response
  arguments <- inputs$arguments
  arguments$epsilon <- NULL
  n <- source$n
  if (is.null(delta)) delta <- 1 / n^2
  held_out <- round(validation.fraction * n)
  if (held_out < 1L || n - held_out < 2L) {
    dpglmnet_abort(if (is.null(folds)) "validation.fraction" else "nfolds", sprintf(
      "leaves %d validation and %d training records; both parts need records.",
      held_out, n - held_out))
  }

  # The plan (public inputs only, as in memory): the source with the
  # training part's size stands in for the part, which is not drawn yet.
  # Planning sends no query (tests/testthat/test-database-cv.R checks it).
  # The split is evaluated by the database (database_split()); its
  # temporary tables are dropped when the procedure ends, also on an error.
  drops <- list()
  on.exit(for (drop in drops) drop(), add = TRUE)
  records <- list(
    n = n, x = source, y = response, arguments = arguments,
    plan_part = function(n_train, arguments) {
      x_plan <- source
      x_plan$n <- n_train
      list(x = x_plan, y = response, arguments = arguments)
    },
    split = function(validation, arguments) {
      parts <- database_split(table, source, validation)
      drops[[length(drops) + 1L]] <<- parts$drop
      if (parts$train$n != n - held_out || parts$valid$n != held_out) {
        stop(sprintf(paste("internal error: the split of the table has %s and %s records,",
                           "not %d and %d (were rows added during the fit?)"),
                     format(parts$train$n), format(parts$valid$n), n - held_out, held_out),
             call. = FALSE)
      }
      list(x = parts$train, y = part_response(response, parts$train, table$y),
           arguments = arguments,
           curve = function(fit, loss.bound, refit_rows) {
             database_validation_curve(fit, parts$valid,
                                       part_response(response, parts$valid, table$y),
                                       family, type.measure, loss.bound, refit_rows,
                                       epsilon, delta, rng)
           })
    })
  cv_procedure(records, public_call(call, "cv.dpglmnet"), family, type.measure, held_out,
               loss.bound, refit, refit.budget, epsilon, delta, rng, folds)
}

# The response of a part: the part's column y.
part_response <- function(response, part, y) {
  response$source <- part
  response$expr <- database_response_expr(part, "y")
  response
}

# The split evaluated by the database: the rows numbered once (ORDER BY the
# table's key, else the scan order), the drawn validation numbers
# `validation` (1-based, increasing) written to a temporary table, and the
# two parts written to temporary tables of the columns x1..xp and y.
# Returns list(train, valid) as sources of x (their n from COUNT(*); the
# names of the table's columns) and drop(), which drops what is left.
database_split <- function(table, source, validation) {
  con <- source$con
  # (names from the process and a counter: drawing one would move R's RNG)
  database_state$work <- database_state$work + 1L
  stem <- sprintf("dpglmnet_cv_%d_%d", Sys.getpid(), database_state$work)
  q <- function(name) as.character(DBI::dbQuoteIdentifier(con, name))
  names <- c(held = "held", rows = "rows", train = "train", valid = "valid")
  names[] <- vapply(names, function(part) q(paste0(stem, "_", part)), "")
  created <- character()
  drop <- function() {
    for (name in rev(created)) {
      try(DBI::dbExecute(con, sprintf("DROP TABLE %s", name)), silent = TRUE)
    }
    created <<- character()
    invisible()
  }
  execute <- function(sql, name = NULL) {
    DBI::dbExecute(con, sql)
    if (!is.null(name)) created <<- c(created, name)
  }
  ok <- FALSE
  on.exit(if (!ok) drop(), add = TRUE)
  row <- q("dpglmnet_row")
  p <- length(source$columns)
  columns <- c(paste0("x", seq_len(p)), "y")
  quoted <- vapply(columns, q, "")
  # The drawn numbers: integers made here, never values of the records.
  execute(sprintf("CREATE TEMPORARY TABLE %s (%s INTEGER PRIMARY KEY)", names[["held"]], row),
          names[["held"]])
  chunk <- 10000L
  DBI::dbWithTransaction(con, {
    for (start in seq(1L, length(validation), by = chunk)) {
      block <- validation[start:min(length(validation), start + chunk - 1L)]
      execute(sprintf("INSERT INTO %s (%s) VALUES (%s)", names[["held"]], row,
                      paste(sprintf("%d", as.integer(block)), collapse = "), (")))
    }
  })
  order <- if (is.null(table$key)) "" else sprintf("ORDER BY %s", q(table$key))
  execute(sprintf("CREATE TEMPORARY TABLE %s AS SELECT %s, ROW_NUMBER() OVER (%s) AS %s FROM %s",
                  names[["rows"]],
                  paste(sprintf("%s AS %s", c(source$columns,
                                              database_response_expr(source, table$y)),
                                quoted), collapse = ", "),
                  order, row, source$from), names[["rows"]])
  r <- q("r")
  h <- q("h")
  part <- function(name, exists) {
    execute(sprintf(paste(
      "CREATE TEMPORARY TABLE %s AS SELECT %s FROM %s AS %s WHERE %sEXISTS",
      "(SELECT 1 FROM %s AS %s WHERE %s.%s = %s.%s)"),
      names[[name]], paste(sprintf("%s.%s", r, quoted), collapse = ", "), names[["rows"]], r,
      if (exists) "" else "NOT ", names[["held"]], h, h, row, r, row), names[[name]])
  }
  part("train", FALSE)
  part("valid", TRUE)
  # (only the parts are read from here on)
  DBI::dbExecute(con, sprintf("DROP TABLE %s", names[["rows"]]))
  DBI::dbExecute(con, sprintf("DROP TABLE %s", names[["held"]]))
  created <- setdiff(created, names[c("rows", "held")])
  as_source <- function(name) {
    part <- database_source(list(con = con, from = names[[name]], x = columns[seq_len(p)]))
    part$names <- source$names
    part
  }
  ok <- TRUE
  list(train = as_source("train"), valid = as_source("valid"), drop = drop)
}

# The private validation curve on the validation part `valid` (a source;
# `y` its response): validation_curve() and release_curve() of R/cv.R and
# R/cv-curve.R with the per-record losses summed by the database. The same
# mechanisms (curve_mechanisms()), calibration, noise settings and seed
# draw, so that at the same seed the same noise is drawn as in memory.
database_validation_curve <- function(fit, valid, y, family, type.measure, loss.bound,
                                      refit_rows, epsilon, delta, rng) {
  n_val <- valid$n
  private_curve(fit, n_val, type.measure, loss.bound, refit_rows, epsilon, delta,
                release = function(curve, second) {
    sums <- database_curve_sums(fit, valid, y, family, type.measure, loss.bound)
    # release_curve()'s noise on the units, added to the database's sums
    noise <- curve_noise(curve, length(fit$lambda), loss.bound, second, rng)
    curve_released(moments_from_sums(sums$s, sums$q, n_val, noise), noise, loss.bound,
                   second)
  })
}

# The exact sums over the validation records of u_ik = min(l_ik, B) / B
# and of u_ik^2, l_ik the per-record loss at lambda k (validation_loss()):
# the records read clamped as predict() reads them (prediction_clamp()),
# the linear predictors of the K lambdas, the losses, the units; one query
# (one row of sums) per block of at most `block` lambdas, so that no query
# has more columns than engines allow (PostgreSQL: 1664).
database_curve_sums <- function(fit, valid, y, family, type.measure, loss.bound,
                                block = 100L) {
  K <- length(fit$lambda)
  p <- ncol(valid)
  clamp <- prediction_clamp(fit)
  beta <- as.matrix(fit$beta)
  a0 <- as.double(fit$a0)
  n <- function(v) sql_number(valid, v)
  q <- function(name) sql_name(valid, name)
  fence <- sql_fence(valid)
  nested <- function(columns, from, alias) {
    sprintf("(SELECT %s FROM %s%s) AS %s",
            paste(sprintf("%s AS %s", unlist(columns), vapply(names(columns), q, "")),
                  collapse = ", "), from, fence, q(alias))
  }
  # the records clamped as the fit read them (c1..cp) and y, as it is
  clamped <- lapply(seq_len(p), function(j) {
    sql_clamp(valid, valid$columns[[j]], if (is.null(clamp)) -Inf else clamp$lower[[j]],
              if (is.null(clamp)) Inf else clamp$upper[[j]])
  })
  names(clamped) <- paste0("c", seq_len(p))
  records <- nested(c(clamped, list(y = y$expr)), valid$from, "dpglmnet_clamped")
  # the engine's natural logarithm, found when a loss first needs it
  ln_name <- NULL
  ln <- function(expr) {
    if (is.null(ln_name)) ln_name <<- sql_natural_log(valid)
    sprintf("%s(%s)", ln_name, expr)
  }
  s <- numeric(K)
  s2 <- numeric(K)
  for (first in seq(1L, K, by = block)) {
    ks <- first:min(K, first + block - 1L)
    # linear predictors (a path whose coefficients are not finite: NULL,
    # whose loss counts as B, as release_curve() counts a non-finite loss)
    etas <- lapply(ks, function(k) {
      if (!all(is.finite(c(a0[k], beta[, k])))) {
        return(sprintf("CAST(NULL AS %s)", valid$double_type))
      }
      terms <- n(a0[k])
      for (j in which(beta[, k] != 0)) {
        terms <- c(terms, sprintf("%s * %s", n(beta[j, k]), q(paste0("c", j))))
      }
      paste0("(", paste(terms, collapse = " + "), ")")
    })
    names(etas) <- paste0("e", ks)
    linear <- nested(c(etas, list(y = q("y"))), records, "dpglmnet_link")
    # (the mean responses first, in their own subquery: the losses refer
    # to them twice)
    means <- lapply(ks, function(k) family$sql_linkinv(valid, q(paste0("e", k))))
    names(means) <- paste0("m", ks)
    linear <- nested(c(stats::setNames(lapply(ks, function(k) q(paste0("e", k))),
                                       paste0("e", ks)), means, list(y = q("y"))),
                     linear, "dpglmnet_means")
    losses <- lapply(ks, function(k) sql_validation_loss(
      valid, type.measure, family, q(paste0("e", k)), q(paste0("m", k)), q("y"), ln))
    names(losses) <- paste0("l", ks)
    lossy <- nested(losses, linear, "dpglmnet_losses")
    # u = min(l, B) / B in [0, 1] (min(l / B, 1) number for number, every
    # loss being >= 0; a NULL loss, from a non-finite path, counts as B)
    units <- lapply(ks, function(k) {
      l <- q(paste0("l", k))
      sprintf("(CASE WHEN %s < %s THEN %s / %s ELSE %s END)", l, n(loss.bound), l,
              n(loss.bound), n(1))
    })
    names(units) <- paste0("u", ks)
    unit_source <- valid
    unit_source$from <- nested(units, lossy, "dpglmnet_units")
    sums <- list()
    for (k in ks) {
      u <- q(paste0("u", k))
      sums[[paste0("s", k)]] <- sprintf("SUM(%s)", u)
      sums[[paste0("q", k)]] <- sprintf("SUM(%s * %s)", u, u)
    }
    row <- unlist(database_query(unit_source, sql_aggregate(unit_source, sums)))
    s[ks] <- as.numeric(row[paste0("s", ks)])
    s2[ks] <- as.numeric(row[paste0("q", ks)])
  }
  list(s = s, q = s2)
}

# Appended to each subquery of the curve's query so that the engine
# computes its columns once per record instead of inlining them into the
# query above, where every reference would compute them again (the
# losses, their clamps and squares refer to the linear predictors several
# times: inlined, the curve took 77 s on PostgreSQL for 2e4 validation
# records, 5 lambdas and p = 10). An OFFSET keeps a subquery from being
# flattened in PostgreSQL and SQLite (which needs a LIMIT before it; -1:
# none).
sql_fence <- function(source) {
  if (inherits(source$con, "SQLiteConnection")) " LIMIT -1 OFFSET 0" else " OFFSET 0"
}

# A record's loss of validation_loss() in SQL (before the clip), from the
# linear predictor `eta`, the mean response `mean` (the family's
# sql_linkinv()) and y; `ln`: the engine's natural logarithm.
sql_validation_loss <- function(source, type.measure, family, eta, mean, y, ln) {
  n <- function(v) sql_number(source, v)
  # (glmnet's binomial mse and mae sum over the two classes: twice the error)
  two <- function(expr) if (family$classes) sprintf("(%s * %s)", n(2), expr) else expr
  switch(type.measure,
    mse = two(sprintf("((%s - %s) * (%s - %s))", y, mean, y, mean)),
    mae = two(sprintf("ABS(%s - %s)", y, mean)),
    deviance = sprintf("(%s * %s)", n(2), family$sql_loss(source, eta, y, ln)),
    class = sprintf(paste("(CASE WHEN %s > %s THEN (CASE WHEN %s > %s THEN %s ELSE %s END)",
                          "ELSE (CASE WHEN %s > %s THEN %s ELSE %s END) END)"),
                    eta, n(0), y, n(0.5), n(0), n(1), y, n(0.5), n(1), n(0)))
}

# The engine's natural logarithm: LN (PostgreSQL, DuckDB, Spark SQL, SQLite
# built with its math functions); RSQLite's own LOG where SQLite has no LN
# (RSQLite's LOG is natural; SQLite's built-in LOG is base 10). Found by
# asking the engine (a constant query, no record read).
sql_natural_log <- function(source) {
  con <- source$con
  probe <- function(name) tryCatch({
    value <- DBI::dbGetQuery(con, sprintf("SELECT %s(%s) AS %s", name, sql_number(source, 2),
                                          DBI::dbQuoteIdentifier(con, "v")))[[1L]]
    isTRUE(abs(as.numeric(value) - log(2)) < 1e-12)
  }, error = function(e) FALSE)
  for (name in c("LN", "LOG")) if (probe(name)) return(name)
  dpglmnet_abort("x", paste(
    "is in a database without a natural logarithm (LN): the binomial deviance",
    "cannot be computed there; use type.measure = \"mse\" or \"class\"."))
}
