# Fits on a DuckDB table, when DuckDB is installed (never installed by the
# package's set-up: see tools/install-deps.sh).

test_that("DuckDB: the fit on a table is the in-memory fit (epsilon = Inf and 1)", {
  skip_if_not_installed("DBI")
  skip_if_not_installed("duckdb")
  con <- DBI::dbConnect(duckdb::duckdb(), ":memory:")
  on.exit(DBI::dbDisconnect(con, shutdown = TRUE))
  check_database_backend(con)
})
