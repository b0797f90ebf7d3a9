# Fits on a PostgreSQL table: a private server is started in a temporary
# directory (helper-database.R) and stopped at the end of this file.

skip_if_not_installed("DBI")
pg <- start_postgres()
reg.finalizer(environment(), function(e) pg$stop(), onexit = TRUE)

test_that("PostgreSQL: the fit on a table is the in-memory fit (epsilon = Inf and 1)", {
  skip_if_not(pg$ok, paste("PostgreSQL is not available:", pg$why))
  check_database_backend(pg$con)
})

pg$stop()
pg$stop <- function() invisible()
