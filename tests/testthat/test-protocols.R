# Issue 17: everything solver-specific lives in the solver's object and
# everything family-specific in the family's (R/aaa-protocols.R), so that a
# new solver or family is an addition. The grep half reads the source tree
# (skipped on an installed package without it, as R CMD check's tests).
r_dir <- testthat::test_path("..", "..", "R")

# The files allowed to name solvers and families: each solver's own file
# (R/l1.R holds the three l1-ball solvers; R/highdim.R is solver = "auto"'s
# rule, which chooses among them), the family file, and the protocols.
solver_files <- c("dpcd.R", "dpsgd.R", "dpscd.R", "l1.R", "highdim.R", "intercept.R",
                  "aaa-protocols.R")
family_files <- c("family.R", "aaa-protocols.R")

solver_names <- function() names(dpglmnet:::dpglmnet_solvers)
family_names <- function() names(dpglmnet:::dpglmnet_families)

# A branch on a solver's or a family's name: a comparison with ==, !=,
# %in% c(...), identical(), switch() on the variable, or a name list.
name_branches <- function(lines, variable, names) {
  quoted <- paste0("\"(", paste(gsub("([.-])", "\\\\\\1", names), collapse = "|"), ")\"")
  patterns <- c(
    sprintf("\\b%s(\\$name)?\\s*(==|!=)", variable),
    sprintf("(==|!=)\\s*[A-Za-z_.$]*\\b%s\\b", variable),
    sprintf("\\b%s(\\$name)?\\s*%%in%%\\s*c\\(", variable),
    sprintf("identical\\([^)]*\\b%s\\b[^)]*%s", variable, quoted),
    sprintf("switch\\(\\s*[A-Za-z_.$]*\\b%s\\b", variable),
    "l1_solver_names")
  code <- sub("#.*$", "", lines)  # comments may name anything
  hits <- Reduce(`|`, lapply(patterns, function(p) grepl(p, code, perl = TRUE)))
  which(hits)
}

branches_outside <- function(variable, names, allowed) {
  files <- setdiff(list.files(r_dir, pattern = "\\.R$"), c(allowed, "RcppExports.R"))
  unlist(lapply(files, function(file) {
    lines <- readLines(file.path(r_dir, file), warn = FALSE)
    at <- name_branches(lines, variable, names)
    if (length(at)) sprintf("%s:%d: %s", file, at, trimws(lines[at])) else character()
  }))
}

test_that("the name-branch finder finds the branches it is meant to (it can fail)", {
  solvers <- c("dpcd", "dpfw-vr")
  expect_length(name_branches(c(
    'if (problem$solver == "dpcd") 1',
    'x <- solver %in% c("dpcd", "dpsgd")',
    'if (identical(values$solver, "dpfw-vr")) 2',
    'switch(problem$solver, dpcd = 1)',
    'if ("dpcd" != solver) 3',
    'l1_solver_names'), "solver", solvers), 6L)
  expect_length(name_branches(c(
    'solver_object(solver)$by_radius  # solver == "dpcd" in a comment',
    'in_db <- solver %in% in_database',
    'dpglmnet_abort("solver", "= \\"dpcd\\" only")'), "solver", solvers), 0L)
  expect_length(name_branches('if (fit$family == "binomial") 2', "family",
                              c("gaussian", "binomial")), 1L)
})

test_that("no solver-name branch outside the solver files", {
  skip_if_not(dir.exists(r_dir), "the package source tree (R/) is not available")
  expect_true(all(file.exists(file.path(r_dir, solver_files))))
  expect_identical(branches_outside("solver", solver_names(), solver_files), character(0))
})

test_that("no family-name test outside the family files", {
  skip_if_not(dir.exists(r_dir), "the package source tree (R/) is not available")
  expect_true(all(file.exists(file.path(r_dir, family_files))))
  expect_identical(branches_outside("family", family_names(), family_files), character(0))
})

test_that("every solver and family declares every field of its protocol", {
  solver_fields <- names(formals(dpglmnet:::new_solver))
  solver_fields <- setdiff(solver_fields, "...")
  for (name in solver_names()) {
    solver <- dpglmnet:::solver_object(name)
    expect_identical(solver$name, name)
    expect_true(all(solver_fields %in% names(solver)), label = name)
    for (f in c("setup", "releases", "start_release", "noise", "path", "settings")) {
      expect_true(is.function(solver[[f]]), label = paste(name, f))
    }
  }
  family_fields <- setdiff(names(formals(dpglmnet:::new_family)), "...")
  for (name in family_names()) {
    family <- dpglmnet:::dpglmnet_family(name)
    expect_identical(family$name, name)
    expect_true(all(family_fields %in% names(family)), label = name)
    for (f in c("check_response", "linkinv", "loss", "default_loss_bound",
                "sql_derivative")) {
      expect_true(is.function(family[[f]]), label = paste(name, f))
    }
  }
})

test_that("a solver added to the registry alone is fitted, checked and reported", {
  # A copy of DP-CD under a new name, with its own declarations: the fit
  # reads them (no name test anywhere), and gives DP-CD's fit.
  registry <- dpglmnet:::dpglmnet_solvers
  copy <- dpglmnet:::solver_object("dpcd")
  copy$name <- "dpcd-copy"
  copy$step_limit <- 1.5  # its own divergence threshold
  on.exit(utils::assignInNamespace("dpglmnet_solvers", registry, "dpglmnet"))
  utils::assignInNamespace("dpglmnet_solvers", c(registry, list(`dpcd-copy` = function() copy)),
                           "dpglmnet")
  set.seed(3)
  x <- matrix(rnorm(5000 * 3), 5000, 3)
  y <- drop(x %*% c(1, -1, 0)) + rnorm(5000)
  set.seed(4)
  a <- dpglmnet(x, y, solver = "dpcd", x.bounds = 4, y.bound = 8, nlambda = 3, passes = 2)
  set.seed(4)
  b <- dpglmnet(x, y, solver = "dpcd-copy", x.bounds = 4, y.bound = 8, nlambda = 3,
                passes = 2)
  expect_identical(b$settings$solver, "dpcd-copy")
  expect_identical(as.matrix(coef(a)), as.matrix(coef(b)))
  expect_identical(a$privacy$mechanisms, b$privacy$mechanisms)
  expect_gt(sum(coef(b)[-1, 3] != 0), 0)
  expect_warning(dpglmnet(x, y, solver = "dpcd-copy", step = 1.8, x.bounds = 4,
                          y.bound = 8, nlambda = 3, passes = 2),
                 "`step` = 1.8 is above 1.5")
  expect_no_warning(dpglmnet(x, y, solver = "dpcd", step = 1.8, x.bounds = 4,
                             y.bound = 8, nlambda = 3, passes = 2))
})

# Counts the R-to-C++ calls (the .<name>_cpp entries) made while evaluating
# `expr`, by entry.
count_core_calls <- function(expr) {
  ns <- asNamespace("dpglmnet")
  counts <- new.env()
  entries <- grep("^\\.[a-z0-9_]*_cpp$", ls(ns, all.names = TRUE), value = TRUE)
  originals <- mget(entries, envir = ns)
  on.exit(for (name in entries) {
    unlockBinding(name, ns)
    assign(name, originals[[name]], envir = ns)
    lockBinding(name, ns)
  })
  for (name in entries) local({
    entry <- name
    original <- originals[[entry]]
    unlockBinding(entry, ns)
    assign(entry, function(...) {
      assign(entry, get0(entry, counts, inherits = FALSE, ifnotfound = 0) + 1, envir = counts)
      original(...)
    }, envir = ns)
    lockBinding(entry, ns)
  })
  force(expr)
  unlist(as.list(counts, all.names = TRUE))
}

test_that("the spec accounts nothing, and planning reads no value of x", {
  set.seed(5)
  x <- matrix(rnorm(3000 * 4), 3000, 4)
  y <- drop(x %*% c(1, -1, 0, 0.5)) + rnorm(3000)
  spec_calls <- count_core_calls(dpglmnet:::checked_spec(
    x, y, list(epsilon = 1, x.bounds = 4, y.bound = 8)))
  # (no accounting, and x, checked by the caller, is not scanned again)
  expect_length(spec_calls, 0L)
  expect_length(count_core_calls(dpglmnet:::checked_spec(
    matrix(rnorm(8), 4, 2), rnorm(4), list(epsilon = Inf))), 0L)
  plan_calls <- count_core_calls(dpglmnet:::plan_private_path(dpglmnet:::checked_spec(
    x, y, list(epsilon = 0.7, x.bounds = 4, y.bound = 8))))
  expect_true(all(names(plan_calls) %in% c(".gdp_mu_cpp", ".calibrate_cpp")))
  # cv with a refit plans the path, the refit and its budget search from
  # sizes: x is scanned by cv.dpglmnet()'s own check and the refit's
  calls <- count_core_calls(suppressWarnings(cv.dpglmnet(
    x, y, x.bounds = 4, y.bound = 8, nlambda = 4, passes = 2, refit = TRUE)))
  expect_lte(calls[[".nonfinite_kind_cpp"]], 2)
})

test_that("a default dpglmnet() call makes at most 5 R-to-C++ calls", {
  set.seed(6)
  x <- matrix(rnorm(2000 * 5), 2000, 5)
  y <- x[, 1] + rnorm(2000)
  # (and, for a single-lambda fit of solver = "auto", its signal check:
  # one call, R/signal.R)
  checks <- function(fit) as.integer(!is.null(fit$settings$signal_check))
  calls <- count_core_calls(suppressWarnings(fit <- dpglmnet(x, y, x.bounds = 4,
                                                             y.bound = 8)))
  # the schedule's GDP mu, the calibration with its account, x's and y's
  # ranges, their moments, the path (x's check is in the first release)
  expect_lte(sum(calls), 5 + checks(fit))
  calls <- count_core_calls(suppressWarnings(fit <- dpglmnet(x, y > 0, family = "binomial",
                                                             x.bounds = 4)))
  expect_lte(sum(calls), 5 + checks(fit))
  expect_lte(sum(calls[names(calls) == ".signal_check_cpp"]), 1)
  calls <- count_core_calls(suppressMessages(suppressWarnings(dpglmnet(x, y,
                                                                       standardize = FALSE))))
  expect_lte(sum(calls), 5)
  # at moderate n the default is the intercept alone (R/intercept.R): the
  # schedule's GDP mu, the calibration, x's check and the one release
  # (counted with the calibration cache warm, as for the calls above, which
  # earlier tests warm: run alone, this file counted one more GDP mu)
  suppressWarnings(dpglmnet(x[1:400, ], y[1:400], epsilon = 0.5, x.bounds = 4, y.bound = 8))
  small <- count_core_calls(suppressWarnings(f <- dpglmnet(x[1:400, ], y[1:400],
                                                           epsilon = 0.5, x.bounds = 4,
                                                           y.bound = 8)))
  expect_identical(f$settings$solver, "intercept")
  expect_lte(sum(small), 5)
})

test_that("x's values checked in the first release: the error names x, nothing is released", {
  set.seed(7)
  x <- matrix(rnorm(400 * 3), 400, 3)
  y <- x[, 1] + rnorm(400)
  # (the first value of x, one inside, the last: the ranges' pass over a
  # numeric matrix checks every value as it bins it, histogram.h)
  for (bad in c(NA, NaN, Inf, -Inf)) for (cell in list(c(1, 1), c(17, 2), c(400, 3))) {
    xb <- x
    xb[cell[1], cell[2]] <- bad
    calls <- count_core_calls(expect_error(
      dpglmnet(xb, y, x.bounds = 4, y.bound = 8),
      if (is.infinite(bad)) "must not contain Inf" else "must not contain NA or NaN",
      class = "dpglmnet_error"))
    expect_false(any(grepl("path|gradient", names(calls))))
    # (and without standardization, in the spec)
    expect_error(dpglmnet(xb, y, x.bounds = 4, y.bound = 8, standardize = FALSE),
                 class = "dpglmnet_error")
    expect_error(dpglmnet(as(xb, "CsparseMatrix"), y, x.bounds = 4, y.bound = 8),
                 class = "dpglmnet_error")
  }
})
