# A private PostgreSQL server for the database tests
# (tests/testthat/helper-database.R) and the benchmarks inst/bench/database.R
# and inst/bench/database_cv.R, open_backend() and make_records() for the
# benchmarks.

# A PostgreSQL server of our own: initdb in a fresh directory, listening on a
# Unix socket only (no TCP), as the `postgres` user when we run as root
# (the server refuses to run as root). list(ok, why, con, stop).
start_postgres <- function() {
  fail <- function(why) list(ok = FALSE, why = why, stop = function() invisible())
  driver <- if (requireNamespace("RPostgreSQL", quietly = TRUE)) "RPostgreSQL" else
    if (requireNamespace("RPostgres", quietly = TRUE)) "RPostgres" else NULL
  if (is.null(driver)) return(fail("no PostgreSQL driver for R (RPostgreSQL or RPostgres)"))
  bin <- Sys.glob("/usr/lib/postgresql/*/bin")
  bin <- if (length(bin)) bin[length(bin)] else dirname(Sys.which("initdb"))
  initdb <- file.path(bin, "initdb")
  pg_ctl <- file.path(bin, "pg_ctl")
  if (!nzchar(bin) || !file.exists(initdb) || !file.exists(pg_ctl)) {
    return(fail("the PostgreSQL server binaries (initdb, pg_ctl) are not installed"))
  }
  root <- identical(unname(Sys.info()[["effective_user"]]), "root")
  as_user <- function(command) {
    if (root) sprintf("su postgres -s /bin/sh -c %s", shQuote(command)) else command
  }
  # (R's tempdir() is private to this user: the server's directory sits beside it)
  dir <- tempfile("dpglmnet-pg-", tmpdir = dirname(tempdir()))
  dir.create(dir, mode = "0700")
  if (root) system2("chown", c("postgres", shQuote(dir)))
  port <- sample(20000:59999, 1L)
  data <- file.path(dir, "data")
  log <- file.path(dir, "log")
  status <- system(as_user(sprintf("%s -D %s -U postgres --auth=trust >%s 2>&1",
                                   shQuote(initdb), shQuote(data), shQuote(log))))
  if (status != 0) {
    unlink(dir, recursive = TRUE)
    return(fail("initdb failed"))
  }
  options <- sprintf("-c listen_addresses='' -k %s -p %d", dir, port)
  status <- system(as_user(sprintf("%s -D %s -o %s -l %s -w -t 60 start >/dev/null 2>&1",
                                   shQuote(pg_ctl), shQuote(data), shQuote(options),
                                   shQuote(log))))
  stop_server <- function() {
    system(as_user(sprintf("%s -D %s -m fast -w stop >/dev/null 2>&1", shQuote(pg_ctl),
                           shQuote(data))))
    unlink(dir, recursive = TRUE)
    invisible()
  }
  if (status != 0) {
    stop_server()
    return(fail("the PostgreSQL server did not start"))
  }
  con <- if (driver == "RPostgreSQL") {
    DBI::dbConnect(RPostgreSQL::PostgreSQL(), host = dir, port = port, user = "postgres",
                   dbname = "postgres")
  } else {
    DBI::dbConnect(RPostgres::Postgres(), host = dir, port = port, user = "postgres",
                   dbname = "postgres")
  }
  list(ok = TRUE, why = "", con = con, driver = driver,
       stop = function() {
         try(DBI::dbDisconnect(con), silent = TRUE)
         stop_server()
       })
}

# The benchmark's backends: list(con, close) or NULL (with a message) when
# one cannot be had. SQLite: a file in R's temporary directory.
open_backend <- function(backend) {
  if (backend == "sqlite") {
    if (!requireNamespace("RSQLite", quietly = TRUE)) {
      message("RSQLite is not installed: no SQLite rows")
      return(NULL)
    }
    file <- tempfile(fileext = ".sqlite")
    con <- DBI::dbConnect(RSQLite::SQLite(), file)
    return(list(con = con, close = function() {
      DBI::dbDisconnect(con)
      unlink(file)
    }))
  }
  if (backend == "postgres") {
    pg <- start_postgres()
    if (!pg$ok) {
      message("no PostgreSQL rows: ", pg$why)
      return(NULL)
    }
    return(list(con = pg$con, close = pg$stop))
  }
  if (backend == "duckdb") {
    if (!requireNamespace("duckdb", quietly = TRUE)) {
      message("duckdb is not installed: no DuckDB rows")
      return(NULL)
    }
    con <- DBI::dbConnect(duckdb::duckdb(), ":memory:")
    return(list(con = con, close = function() DBI::dbDisconnect(con, shutdown = TRUE)))
  }
  stop("unknown backend ", backend)
}

# The benchmarks' records: p N(0, 4) columns v1..vp and y = 0.5 v1 - 0.25 v2
# + N(0, 1), n rows, at a fixed seed.
make_records <- function(n, p, seed = 1) {
  set.seed(seed)
  x <- matrix(2 * stats::rnorm(n * p), n, p)
  colnames(x) <- paste0("v", seq_len(p))
  y <- 0.5 * x[, 1] - 0.25 * x[, 2] + stats::rnorm(n)
  list(x = x, y = y)
}
