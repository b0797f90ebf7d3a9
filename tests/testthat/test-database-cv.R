# cv.dpglmnet() on a database table (R/database-cv.R) against the same
# procedure in memory at the same seed, on SQLite and PostgreSQL (a private
# server started here, as in test-database-postgres.R).

skip_if_not_installed("DBI")

# cv.dpglmnet() in memory and on `table` at the same seed: the same split is
# drawn, so every number must agree. `args`: the arguments beside x and y.
paired_cv <- function(con, table, data, family, args, seed = 5, key = NULL) {
  y <- if (family == "binomial") data$yb else data$y
  set.seed(seed)
  if (is.null(args$family)) args$family <- family
  memory <- do.call(cv.dpglmnet, c(list(x = data$x, y = y), args))
  set.seed(seed)
  database <- do.call(cv.dpglmnet, c(list(
    x = db_table(con, table, x = colnames(data$x),
                 y = if (family == "binomial") "yb" else "y", key = key)), args))
  list(memory = memory, database = database)
}

expect_same_cv <- function(fits, tolerance = 1e-8) {
  m <- fits$memory
  d <- fits$database
  expect_identical(d$validation, m$validation)
  expect_equal(d$lambda, m$lambda, tolerance = tolerance)
  expect_lt(max(abs(as.matrix(d$dpglmnet.fit$beta) - as.matrix(m$dpglmnet.fit$beta))),
            tolerance)
  expect_lt(max(abs(d$dpglmnet.fit$a0 - m$dpglmnet.fit$a0)), tolerance)
  for (field in c("cvm", "cvsd", "cvsd.sampling", "cvsd.noise", "loss.bound")) {
    expect_equal(d[[field]], m[[field]], tolerance = tolerance, label = field)
  }
  expect_identical(d$index, m$index)
  expect_equal(d$lambda.min, m$lambda.min, tolerance = tolerance)
  expect_identical(d$name, m$name)
  expect_identical(is.null(d$refit), is.null(m$refit))
  if (!is.null(m$refit)) {
    expect_lt(max(abs(as.matrix(d$refit$beta) - as.matrix(m$refit$beta))), tolerance)
    expect_lt(max(abs(d$refit$a0 - m$refit$a0)), tolerance)
  }
}

# The targets on one backend: epsilon = Inf equal to memory (gaussian and
# binomial, every measure, with and without standardization); epsilon = 1
# the identical ledger and the same draws (with and without a refit); no
# query returns more than max(p + 1, nlambda) rows.
check_database_cv_backend <- function(con) {
  small <- database_records(n = 1000)
  DBI::dbWriteTable(con, "cv_small", small$frame, overwrite = TRUE)
  large <- database_records(n = 20000, seed = 12)
  DBI::dbWriteTable(con, "cv_large", large$frame, overwrite = TRUE)
  queries <- trace_query_rows()
  on.exit(queries$restore(), add = TRUE)
  cases <- list(list("gaussian", "mse", FALSE), list("gaussian", "mae", TRUE),
                list("binomial", "deviance", TRUE), list("binomial", "class", FALSE),
                list("binomial", "mse", FALSE), list("binomial", "mae", TRUE))
  nlambda <- 5L
  # the Huber family (through the family protocol's sql_linkinv)
  fits <- suppressWarnings(paired_cv(con, "cv_small", small, "gaussian", list(
    family = huber_family(1), epsilon = Inf, standardize = FALSE, type.measure = "mae",
    nlambda = nlambda, lambda.min.ratio = 0.05, passes = 30, loss.bound = 25)))
  expect_same_cv(fits)
  expect_gt(max(abs(fits$memory$dpglmnet.fit$beta)), 0.1)
  for (case in cases) {
    fits <- suppressWarnings(paired_cv(con, "cv_small", small, case[[1]], list(
      epsilon = Inf, standardize = case[[3]], type.measure = case[[2]], nlambda = nlambda,
      lambda.min.ratio = 0.05, passes = 30,
      # (gaussian mae: the default bound, which at epsilon = Inf clips
      # nothing and needs no y.bound)
      loss.bound = if (case[[1]] == "gaussian" && case[[2]] == "mse") 25)))
    expect_same_cv(fits)
    if (case[[1]] == "gaussian" && case[[2]] == "mae") {
      expect_equal(fits$database$loss.bound, 1e100)
    }
    expect_gt(max(abs(fits$memory$dpglmnet.fit$beta)), 0.1)  # a real path
    expect_true(length(unique(fits$memory$cvm)) > 1L)       # a real curve
  }
  for (args in list(
    list(family = "gaussian", epsilon = 1, x.bounds = 10, y.bound = 30, nlambda = 4,
         passes = 2),
    list(family = "gaussian", epsilon = 1, x.bounds = 10, y.bound = 30, nlambda = 4,
         passes = 2, refit = TRUE, refit.budget = 0.3),
    list(family = "binomial", epsilon = 1, x.bounds = 10, standardize = FALSE, clip = 2,
         smoothness = "bounds", nlambda = 4, passes = 2, selection = "random",
         type.measure = "class"))) {
    family <- args$family
    args$family <- NULL
    fits <- paired_cv(con, "cv_large", large, family, args)
    expect_same_ledger(fits$database$privacy, fits$memory$privacy)
    expect_true(all(fits$memory$privacy$mechanisms$part %in% c(0L, 1L, 2L)))
    expect_true(any(fits$memory$privacy$mechanisms$part == 2L))
    # the same draws: any other draw would move cvm by its noise sd
    expect_gt(fits$memory$cvsd.noise, 1e-4)
    expect_same_cv(fits)
  }
  expect_gt(length(queries$rows()), 100)
  expect_lte(max(queries$rows()), max(ncol(large$x) + 1L, nlambda))
}

sqlite <- function() DBI::dbConnect(RSQLite::SQLite(), ":memory:")

test_that("SQLite: cv on a table is cv in memory (epsilon = Inf and 1, refit)", {
  skip_if_not_installed("RSQLite")
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  check_database_cv_backend(con)
})

test_that("the split is numbered by the key: stored order does not matter", {
  skip_if_not_installed("RSQLite")
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 800)
  frame <- d$frame
  frame$id <- seq_len(nrow(frame)) * 10L
  set.seed(99)
  DBI::dbWriteTable(con, "shuffled", frame[sample.int(nrow(frame)), ])
  args <- list(epsilon = Inf, nlambda = 4, lambda.min.ratio = 0.05, passes = 30,
               loss.bound = 25)
  fits <- paired_cv(con, "shuffled", d, "gaussian", args, key = "id")
  expect_same_cv(fits)
  # without the key the rows are numbered in the stored (shuffled) order:
  # another split of the same records
  set.seed(5)
  unkeyed <- do.call(cv.dpglmnet, c(list(x = db_table(con, "shuffled", x = colnames(d$x),
                                                      y = "y")), args))
  expect_identical(unkeyed$validation, fits$memory$validation)
  expect_gt(max(abs(unkeyed$cvm - fits$memory$cvm)), 1e-6)
})

test_that("cv on a table: queries are one-row aggregates; planning sends none; temporary tables are dropped", {
  skip_if_not_installed("RSQLite")
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 1000)
  DBI::dbWriteTable(con, "r", d$frame)
  seen <- list()
  old <- options(dpglmnet.database.trace = function(sql, result) {
    seen[[length(seen) + 1L]] <<- list(sql = sql, rows = nrow(result))
  })
  on.exit(options(old), add = TRUE)
  temporary <- function() DBI::dbGetQuery(con, "SELECT name FROM sqlite_temp_master")$name
  set.seed(1)
  fit <- cv.dpglmnet(db_table(con, "r", x = colnames(d$x), y = "y"), epsilon = 1,
                     x.bounds = 10, y.bound = 30, standardize = FALSE, clip = 2,
                     smoothness = "bounds", nlambda = 3, passes = 2)
  sql <- vapply(seen, `[[`, "", "sql")
  expect_true(all(vapply(seen, `[[`, 0L, "rows") == 1L))
  expect_true(all(grepl("^SELECT (COUNT|SUM)", sql)))
  # the table's count and checks; the parts' counts; the p gradients at 0
  # (lambda_max) and 3 lambdas x 2 passes x (3 + 1) steps on the training
  # part; one query of the curve
  expect_equal(length(sql), 2L + 2L + 1L + 3L * 2L * 4L + 1L)
  expect_equal(sum(grepl("dpglmnet_units", sql)), 1L)
  expect_length(temporary(), 0L)
  expect_equal(length(fit$validation), 200L)
  expect_equal(fit$dpglmnet.fit$nobs, 800L)
  # an error in the middle of the path: the temporary tables are dropped too
  count <- 0L
  options(dpglmnet.database.trace = function(sql, result) {
    count <<- count + 1L
    if (count == 10L) stop("interrupted")
  })
  expect_error(cv.dpglmnet(db_table(con, "r", x = colnames(d$x), y = "y"), epsilon = Inf,
                           nlambda = 3, passes = 2, loss.bound = 10), "interrupted")
  expect_length(temporary(), 0L)
})

test_that("cv on a table: curves of many lambdas are summed in blocks", {
  skip_if_not_installed("RSQLite")
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 500)
  DBI::dbWriteTable(con, "r", d$frame)
  # (2 passes: the path need not converge to compare the curves)
  set.seed(1)
  memory <- suppressWarnings(cv.dpglmnet(d$x, d$y, epsilon = Inf, nlambda = 150,
                                         lambda.min.ratio = 0.01, passes = 2,
                                         loss.bound = 25))
  queries <- character()
  old <- options(dpglmnet.database.trace = function(sql, result) {
    queries <<- c(queries, sql)
  })
  on.exit(options(old), add = TRUE)
  set.seed(1)
  database <- suppressWarnings(cv.dpglmnet(db_table(con, "r", x = colnames(d$x), y = "y"),
                                           epsilon = Inf, nlambda = 150,
                                           lambda.min.ratio = 0.01, passes = 2,
                                           loss.bound = 25))
  expect_equal(sum(grepl("dpglmnet_units", queries)), 2L)
  expect_equal(database$cvm, memory$cvm, tolerance = 1e-8)
  expect_identical(database$index, memory$index)
})

test_that("cv on a table with a single affordable lambda fits all records, as in memory", {
  skip_if_not_installed("RSQLite")
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 400)
  DBI::dbWriteTable(con, "r", d$frame)
  # (solver = "dpcd": in memory "auto" would fit the intercept alone here,
  # R/intercept.R, which does not run on a table)
  args <- list(epsilon = 0.2, x.bounds = 10, y.bound = 30, passes = 2, solver = "dpcd")
  warned <- function(expr) {
    messages <- character()
    value <- withCallingHandlers(expr, warning = function(w) {
      messages <<- c(messages, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
    list(value = value, warnings = messages)
  }
  set.seed(4)
  memory <- warned(do.call(cv.dpglmnet, c(list(x = d$x, y = d$y), args)))
  set.seed(4)
  database <- warned(do.call(cv.dpglmnet, c(list(
    x = db_table(con, "r", x = colnames(d$x), y = "y")), args)))
  expect_match(memory$warnings[1L], "single lambda")
  expect_identical(database$warnings, memory$warnings)
  memory <- memory$value
  database <- database$value
  expect_length(database$validation, 0L)
  expect_identical(database$privacy, memory$privacy)
  expect_equal(database$dpglmnet.fit$nobs, 400L)
  expect_lt(max(abs(as.matrix(database$dpglmnet.fit$beta) -
                    as.matrix(memory$dpglmnet.fit$beta))), 1e-8)
})

test_that("bad input to cv on a table: errors naming the argument, before any query", {
  skip_if_not_installed("RSQLite")
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 100)
  frame <- d$frame
  frame$id <- seq_len(100)
  DBI::dbWriteTable(con, "r", frame)
  table <- db_table(con, "r", x = c("v1", "v2"), y = "y")
  queries <- 0L
  old <- options(dpglmnet.database.trace = function(sql, result) queries <<- queries + 1L)
  on.exit(options(old), add = TRUE)
  err <- function(expr, arg) {
    e <- expect_error(expr, class = "dpglmnet_error")
    expect_identical(e$argument, arg)
  }
  err(cv.dpglmnet(table, d$y, epsilon = 1, y.bound = 3), "y")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, data = frame), "data")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, nope = 1), "nope")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, lambda = 0.1), "lambda")
  err(cv.dpglmnet(table, epsilon = 0, y.bound = 3), "epsilon")
  err(cv.dpglmnet(table, epsilon = 1, delta = 2, y.bound = 3), "delta")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, type.measure = "auc"), "type.measure")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, type.measure = "class"), "type.measure")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, validation.fraction = 1), "validation.fraction")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, loss.bound = -1), "loss.bound")
  err(cv.dpglmnet(table, epsilon = 1, x.bounds = 3), "loss.bound")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, refit = NA), "refit")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, refit.budget = 1), "refit.budget")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, rng = "other"), "rng")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, x.bounds = 3, solver = "dpsgd"), "solver")
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, x.bounds = 3, weights = rep(1, 100)),
      "weights")
  expect_identical(queries, 0L)
  err(cv.dpglmnet(table, epsilon = 1, y.bound = 3, x.bounds = 3, validation.fraction = 0.001),
      "validation.fraction")
  err(db_table(con, "r", x = "v1", y = "y", key = c("id", "v2")), "key")
  err(db_table(con, "r", x = "v1", y = "y", key = "nope"), "key")
})

pg <- start_postgres()
reg.finalizer(environment(), function(e) pg$stop(), onexit = TRUE)

test_that("PostgreSQL: cv on a table is cv in memory (epsilon = Inf and 1, refit)", {
  skip_if_not(pg$ok, paste("PostgreSQL is not available:", pg$why))
  check_database_cv_backend(pg$con)
  # the parts are temporary tables of this session: none is left
  left <- DBI::dbGetQuery(pg$con, paste(
    "SELECT COUNT(*) AS n FROM pg_class WHERE relpersistence = 't'",
    "AND relname LIKE 'dpglmnet_cv%'"))$n
  expect_equal(as.numeric(left), 0)
})

pg$stop()
pg$stop <- function() invisible()
