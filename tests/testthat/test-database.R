# Fits on a database table (R/database.R) against the same fit in memory, on
# SQLite (an in-memory database); PostgreSQL and DuckDB in their own files.

skip_if_not_installed("DBI")
skip_if_not_installed("RSQLite")

sqlite <- function() DBI::dbConnect(RSQLite::SQLite(), ":memory:")

test_that("SQLite: the fit on a table is the in-memory fit (epsilon = Inf and 1)", {
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  check_database_backend(con)
})

test_that("the lambda_max and DP-CD queries return one row of aggregates", {
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 300)
  DBI::dbWriteTable(con, "r", d$frame)
  seen <- list()
  old <- options(dpglmnet.database.trace = function(sql, result) {
    seen[[length(seen) + 1L]] <<- list(sql = sql, rows = nrow(result), cols = ncol(result))
  })
  on.exit(options(old), add = TRUE)
  set.seed(1)
  fit <- dpglmnet(db_table(con, "r", x = colnames(d$x), y = "y"), epsilon = 1,
                  x.bounds = 10, y.bound = 30, standardize = FALSE, clip = 2,
                  smoothness = "bounds", nlambda = 3, passes = 2)
  sql <- vapply(seen, `[[`, "", "sql")
  expect_true(all(vapply(seen, `[[`, 0L, "rows") == 1L))
  expect_true(all(grepl("^SELECT (COUNT|SUM)", sql)))
  # one query per DP-CD step (3 lambdas x 2 passes x (3 + 1) coordinates),
  # after the count, the checks and the p gradients at 0 (one query)
  expect_equal(length(sql), 3L + 3L * 2L * 4L)
  expect_equal(fit$dim, c(3L, 3L))
})

test_that("column names are quoted, not pasted", {
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 300)
  frame <- d$frame
  names(frame)[1:2] <- c("we\"ird col", "select")
  DBI::dbWriteTable(con, "odd table", frame)
  x <- d$x
  colnames(x)[1:2] <- names(frame)[1:2]
  set.seed(2)
  memory <- dpglmnet(x, d$y, epsilon = Inf, nlambda = 3, passes = 20)
  set.seed(2)
  database <- dpglmnet(db_table(con, "odd table", x = names(frame)[1:3], y = "y"),
                       epsilon = Inf, nlambda = 3, passes = 20)
  expect_lt(max(abs(as.matrix(database$beta) - as.matrix(memory$beta))), 1e-8)
  expect_equal(rownames(database$beta), names(frame)[1:3])
})

test_that("the same seed gives the same noise; another seed other noise", {
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 2000)
  DBI::dbWriteTable(con, "r", d$frame)
  args <- list(epsilon = 1, x.bounds = 10, y.bound = 30, nlambda = 3, passes = 2)
  a <- paired_fits(con, "r", d, "gaussian", args, seed = 7)
  expect_same_fit(a)
  set.seed(8)
  b <- do.call(dpglmnet, c(list(x = db_table(con, "r", x = colnames(d$x), y = "y")), args))
  expect_gt(max(abs(b$a0 - a$database$a0)), 1e-6)
})

test_that("bad input to db_table() and to a fit on a table: errors naming the argument", {
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 100)
  frame <- d$frame
  frame$label <- "a"
  DBI::dbWriteTable(con, "r", frame)
  bad <- frame
  bad$v1[3] <- NA
  DBI::dbWriteTable(con, "with_null", bad)
  table <- db_table(con, "r", x = c("v1", "v2"), y = "y")
  err <- function(expr, arg) {
    e <- expect_error(expr, class = "dpglmnet_error")
    expect_identical(e$argument, arg)
  }
  err(db_table("not a connection", "r", x = "v1", y = "y"), "con")
  err(db_table(con, c("r", "s"), x = "v1", y = "y"), "table")
  err(db_table(con, "r", x = c("v1", "nope"), y = "y"), "x")
  err(db_table(con, "r", x = "v1", y = "nope"), "y")
  err(db_table(con, "r", x = c("v1", "label"), y = "y"), "x")
  err(db_table(con, "r", x = "v1", y = "label"), "y")
  err(db_table(con, "r", x = c("v1", "y"), y = "y"), "y")
  err(db_table(con, "r", x = 1, y = "y"), "x")
  err(dpglmnet(table, epsilon = 1, x.bounds = 4, solver = "dpsgd"), "solver")
  err(dpglmnet(table, epsilon = 1, x.bounds = 4, solver = "dpfw"), "solver")
  err(dpglmnet(table, epsilon = 1, x.bounds = 4, standardize = FALSE, clip = "quantile"),
      "clip")
  err(dpglmnet(table, epsilon = 1, x.bounds = 4, standardize = FALSE,
               smoothness = "private"), "smoothness")
  err(dpglmnet(table, d$y, epsilon = 1), "y")
  err(dpglmnet(db_table(con, "with_null", x = c("v1", "v2"), y = "y"), epsilon = Inf), "x")
  err(dpglmnet(db_table(con, "r", x = c("v1", "v2"), y = "y"), family = "binomial",
               epsilon = Inf), "y")
  err(cv.dpglmnet(table, epsilon = 1, x.bounds = 4), "loss.bound")  # (y.bound missing)
  err(dpglmnet(table, epsilon = 1, x.bounds = 4, weights = rep(1, 100)), "weights")
  err(dpglmnet(table, epsilon = 1, x.bounds = 4, offset = rep(0, 100)), "offset")
  err(dpglmnet(table, epsilon = -1), "epsilon")
  err(dpglmnet(table, epsilon = 1, x.bounds = c(1, 2, 3)), "x.bounds")
})

test_that("an unstandardized private fit on a table defaults to public scales", {
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 2000)
  DBI::dbWriteTable(con, "r", d$frame)
  set.seed(3)
  fit <- suppressWarnings(dpglmnet(db_table(con, "r", x = colnames(d$x), y = "y"),
                                   epsilon = 1, x.bounds = 10, y.bound = 30,
                                   standardize = FALSE, nlambda = 2, passes = 1))
  expect_equal(fit$settings$clip, sqrt(4))
  expect_identical(fit$settings$smoothness, "bounds")
  expect_false(any(grepl("quantile", fit$privacy$mechanisms$mechanism)))
})

test_that("a fit on a table predicts like a fit in memory", {
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 300)
  DBI::dbWriteTable(con, "r", d$frame)
  fits <- paired_fits(con, "r", d, "binomial", list(epsilon = Inf, nlambda = 3, lambda.min.ratio = 0.05, passes = 30))
  expect_equal(predict(fits$database, d$x[1:5, ], type = "response"),
               predict(fits$memory, d$x[1:5, ], type = "response"), tolerance = 1e-8)
  expect_identical(fits$database$classnames, c("0", "1"))
  expect_false(any(grepl("records|frame", deparse(fits$database$call))))
})

test_that("a dbplyr lazy table (filtered) is fitted as its SQL subquery", {
  skip_if_not_installed("dbplyr")
  skip_if_not_installed("dplyr")
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 600)
  DBI::dbWriteTable(con, "r", d$frame)
  lazy <- dplyr::filter(dplyr::tbl(con, "r"), v1 > -1)
  keep <- d$x[, "v1"] > -1
  set.seed(4)
  memory <- dpglmnet(d$x[keep, ], d$y[keep], epsilon = Inf, nlambda = 3,
                     lambda.min.ratio = 0.05, passes = 30)
  set.seed(4)
  database <- dpglmnet(db_table(lazy, x = colnames(d$x), y = "y"), epsilon = Inf,
                       nlambda = 3, lambda.min.ratio = 0.05, passes = 30)
  expect_equal(database$nobs, sum(keep))
  expect_lt(max(abs(as.matrix(database$beta) - as.matrix(memory$beta))), 1e-8)
})

test_that("SQLite: the linear predictor recomputed in each query gives the same fit", {
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  d <- database_records(n = 1500)
  DBI::dbWriteTable(con, "r", d$frame)
  old <- options(dpglmnet.database.residual = "query")
  on.exit(options(old), add = TRUE)
  for (family in c("gaussian", "binomial")) {
    fits <- paired_fits(con, "r", d, family, list(
      epsilon = 1, x.bounds = 10, y.bound = if (family == "gaussian") 30, nlambda = 3,
      passes = 2, average = TRUE))
    expect_identical(fits$database$privacy, fits$memory$privacy)
    expect_same_fit(fits)
  }
  options(dpglmnet.database.residual = "row")
  e <- expect_error(dpglmnet(db_table(con, "r", x = "v1", y = "y"), epsilon = Inf),
                    class = "dpglmnet_error")
  expect_match(conditionMessage(e), "dpglmnet.database.residual")
})

test_that("the standardization's fallback to bound-scaled columns is the same on a table as in memory", {
  skip_if_not_installed("RSQLite")
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  data <- database_records(n = 400, p = 8)
  DBI::dbWriteTable(con, "records", data$frame)
  # (crude bounds at epsilon 2: the released standardization reads the
  # columns as constant, R/moderate-n.R, constant_fallback_problem())
  fits <- paired_fits(con, "records", data, "binomial", list(epsilon = 2, x.bounds = 100))
  expect_true(fits$memory$settings$bound_scaling)
  expect_match(fits$memory$settings$solver_choice, "columns as constant", fixed = TRUE)
  expect_identical(fits$database$settings$bound_scaling, TRUE)
  expect_same_fit(fits, tolerance = 1e-12)
  expect_identical(fits$database$privacy$mechanisms, fits$memory$privacy$mechanisms)
})

test_that("at moderate n solver = \"auto\" picks the same fit on a table as in memory (the intercept alone; bound-scaled DP-CD for binomial)", {
  skip_if_not_installed("RSQLite")
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  data <- database_records(n = 400)
  DBI::dbWriteTable(con, "records", data$frame)
  for (family in c("gaussian", "binomial")) {
    # (moderate_n_criterion(): 3.0 gaussian, 2.6 binomial at epsilon 0.5)
    args <- list(epsilon = 0.5, x.bounds = 20, y.bound = if (family == "gaussian") 40)
    fits <- paired_fits(con, "records", data, family, args)
    # (binomial, crit in [1.5, 3.5): DP-CD on bound-scaled columns,
    # R/moderate-n.R)
    solver <- if (family == "gaussian") "intercept" else "dpcd"
    expect_identical(fits$memory$settings$solver, solver)
    expect_identical(fits$database$settings$solver, solver)
    expect_identical(fits$database$settings$bound_scaling, family == "binomial")
    expect_same_fit(fits, tolerance = 1e-12)
    expect_identical(fits$database$privacy$mechanisms, fits$memory$privacy$mechanisms)
  }
  # cv.dpglmnet() on the table decides it too, at the full n, as in memory
  set.seed(3)
  memory <- suppressWarnings(cv.dpglmnet(data$x, data$y, x.bounds = 20, y.bound = 40,
                                         epsilon = 0.5))
  set.seed(3)
  table <- suppressWarnings(cv.dpglmnet(db_table(con, "records", x = colnames(data$x),
                                                 y = "y"), x.bounds = 20, y.bound = 40,
                                        epsilon = 0.5))
  expect_identical(table$dpglmnet.fit$settings$solver, "intercept")
  expect_equal(as.numeric(coef(table)), as.numeric(coef(memory)), tolerance = 1e-12)
  expect_identical(table$privacy$mechanisms, memory$privacy$mechanisms)
  # p >= n / 2 on a table: dpfw does not run there, so "auto" does not pick it
  wide <- database_records(n = 40, p = 30)
  DBI::dbWriteTable(con, "wide", wide$frame)
  fit <- suppressWarnings(dpglmnet(db_table(con, "wide", x = colnames(wide$x), y = "y"),
                                   epsilon = 1, x.bounds = 20, y.bound = 40))
  expect_true(fit$settings$solver %in% dpglmnet:::solvers_with("in_database"))
})

test_that("the signal gate on a table: open, closed part of the way (its ramp), in both residual modes", {
  skip_if_not_installed("RSQLite")
  con <- sqlite()
  on.exit(DBI::dbDisconnect(con))
  # 20 columns: the gate's ramp starts at half its threshold (R/signal.R)
  set.seed(101)
  n <- 3000
  x <- matrix(rnorm(n * 20), n, 20, dimnames = list(NULL, paste0("v", 1:20)))
  for (case in list(list(effect = 0.25, partly = TRUE), list(effect = 0.3, partly = FALSE))) {
    y <- drop(case$effect * (x[, 1] + x[, 2])) + rnorm(n)
    data <- list(x = x, y = y, frame = data.frame(x, y = y))
    DBI::dbWriteTable(con, "gated", data$frame, overwrite = TRUE)
    for (mode in c("column", "query")) {
      old <- options(dpglmnet.database.residual = mode)
      fits <- paired_fits(con, "gated", data, "gaussian",
                          list(epsilon = 1, x.bounds = 10, y.bound = 20))
      options(old)
      check <- fits$memory$settings$signal_check
      expect_true(isTRUE(check$gate))
      label <- paste(case$effect, mode)
      if (case$partly) {
        # closed, its lambda raised part of the way to the noise level
        expect_false(check$passed, label = label)
        expect_true(dpglmnet:::signal_partly_raised(check), label = label)
      } else {
        expect_true(check$passed, label = label)  # open: the fit's own lambda
      }
      expect_equal(fits$database$settings$signal_check, check, tolerance = 1e-10)
      expect_same_fit(fits)
    }
  }
})
