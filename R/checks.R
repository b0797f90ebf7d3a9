# Input checks. Every argument of an exported function is checked here, in R,
# before any computation; nothing unchecked reaches the C++ core. A failed
# check signals an error of class "dpglmnet_error" that names the argument.

dpglmnet_abort <- function(arg, problem, call = NULL) {
  message <- if (is.null(arg)) problem else sprintf("`%s` %s", arg, problem)
  condition <- structure(
    class = c("dpglmnet_error", "error", "condition"),
    list(message = message, call = call, argument = arg)
  )
  stop(condition)
}

# A warning of class "dpglmnet_warning": something the user should know
# about a fit, computed from public or released quantities only.
dpglmnet_warn <- function(problem) {
  warning(structure(
    class = c("dpglmnet_warning", "warning", "condition"),
    list(message = paste("dpglmnet:", problem), call = NULL)))
}

check_flag <- function(value, arg) {
  if (!is.logical(value) || length(value) != 1L || is.na(value)) {
    dpglmnet_abort(arg, "must be TRUE or FALSE.")
  }
  value
}

check_choice <- function(value, choices, arg) {
  if (is.null(value)) dpglmnet_abort(arg, "must not be NULL.")
  if (identical(value, choices)) return(choices[1L])
  if (!is.character(value) || length(value) != 1L || is.na(value) ||
      !value %in% choices) {
    dpglmnet_abort(arg, sprintf(
      "must be one of %s.", paste0('"', choices, '"', collapse = ", ")
    ))
  }
  value
}

# A numeric vector with every entry in a range. `length` is the allowed
# length (NULL: any length >= 1); `open` says which ends are excluded.
check_numeric <- function(value, arg, lower = -Inf, upper = Inf,
                          lower_open = FALSE, upper_open = FALSE,
                          length = 1L, finite = TRUE, integer = FALSE) {
  what <- if (identical(length, 1L)) "a single number" else "a numeric vector"
  if (!is.numeric(value) || is.object(value)) {
    dpglmnet_abort(arg, sprintf("must be %s, not %s.", what, class(value)[1L]))
  }
  if (!is.null(length) && !length(value) %in% length) {
    dpglmnet_abort(arg, sprintf(
      "must have length %s, not %d.", paste(length, collapse = " or "),
      length(value)
    ))
  }
  if (length(value) == 0L) dpglmnet_abort(arg, "must not be empty.")
  if (anyNA(value)) dpglmnet_abort(arg, "must not contain NA or NaN.")
  if (finite && any(is.infinite(value))) {
    dpglmnet_abort(arg, "must be finite.")
  }
  if (integer && any(value != round(value))) {
    dpglmnet_abort(arg, "must be a whole number.")
  }
  below <- if (lower_open) value <= lower else value < lower
  above <- if (upper_open) value >= upper else value > upper
  if (any(below) || any(above)) {
    range <- sprintf("%s%s, %s%s", if (lower_open) "(" else "[", format(lower),
                     format(upper), if (upper_open) ")" else "]")
    dpglmnet_abort(arg, sprintf("must lie in %s.", range))
  }
  as.numeric(value)
}

# Design matrix: a numeric matrix or a sparse Matrix, no missing or infinite
# value. Returns the matrix in the storage the C++ core reads (double
# column-major, or dgCMatrix).
# `values = FALSE` leaves the scan of the values for non-finite ones to the
# caller's first pass over x (release_columns(), R/standardize.R).
check_x <- function(x, arg = "x", min_rows = 2L, values = TRUE) {
  # (cv.dpglmnet()'s parts: R/rows.R)
  if (inherits(x, "dpglmnet_rows")) return(check_record_subset(x, arg, min_rows))
  # (a database table's columns: checked by db_table() and its fit, R/database.R)
  if (inherits(x, "dpglmnet_db")) return(x)
  if (inherits(x, "sparseMatrix")) {
    x <- tryCatch(
      methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"),
                  "dMatrix"),
      error = function(e) dpglmnet_abort(arg, "could not be converted to a dgCMatrix.")
    )
    x_values <- x@x
  } else if (is.matrix(x) && (is.numeric(x) || is.logical(x))) {
    if (!is.double(x)) storage.mode(x) <- "double"  # no copy when it is
    x_values <- x
  } else {
    dpglmnet_abort(arg, sprintf(
      "must be a numeric matrix or a sparse Matrix (dgCMatrix), not %s.",
      if (is.matrix(x)) paste("a", typeof(x), "matrix")
      else if (is.atomic(x) && is.null(dim(x))) paste("a", typeof(x), "vector")
      else class(x)[1L]
    ))
  }
  if (nrow(x) < min_rows) {
    dpglmnet_abort(arg, sprintf("must have at least %d row%s.", min_rows,
                                if (min_rows == 1L) "" else "s"))
  }
  if (ncol(x) < 1L) dpglmnet_abort(arg, "must have at least 1 column.")
  if (values) abort_nonfinite_x(.nonfinite_kind_cpp(x_values), arg)
  x
}

# The values of a checked matrix or dgCMatrix x (check_x(values = FALSE)):
# an error naming `arg` for a non-finite one. (A row subset or a table was
# checked before.)
check_x_values <- function(x, arg = "x") {
  values <- if (inherits(x, "dgCMatrix")) x@x else if (is.matrix(x)) x
  if (!is.null(values)) abort_nonfinite_x(.nonfinite_kind_cpp(values), arg)
  invisible()
}

# The error of a non-finite value of x (kind 1: NA or NaN, 2: Inf; 0: none).
abort_nonfinite_x <- function(kind, arg = "x") {
  switch(kind + 1L,
         invisible(),
         dpglmnet_abort(arg, "must not contain NA or NaN."),
         dpglmnet_abort(arg, "must not contain Inf or -Inf."))
}

# Response: one value per record, checked and coded by the family object
# (R/family.R). Binomial labels come from a factor's levels, never from the
# data, so no class count is revealed (a character y is converted first, by
# labels_as_factor(), its labels disclosed on the ledger).
check_y <- function(y, n, family) {
  if (inherits(y, "dpglmnet_db_response")) return(check_database_response(y))
  if (is.matrix(y) && ncol(y) == 1L) y <- drop(y)
  if (is.matrix(y) || is.data.frame(y)) y <- response_matrix(y, n, family)
  if (length(y) != n) {
    dpglmnet_abort("y", sprintf("must have one value per row of x (%d), not %d.",
                                n, length(y)))
  }
  dpglmnet_family(family)$check_response(y)
}

# A character response of a family with classes, as glmnet's binomial
# family takes it (factor(y): the labels sorted, the second modelled). Its
# labels are read from the data, so the fit reveals them (as class names):
# private only when the pair of labels is public schema. The fit warns and
# its ledger says so; a factor with declared levels does not. cv.dpglmnet()
# converts before its split, so every part has the whole data's labels.
# Returns the response (a factor where converted) and the disclosure.
labels_as_factor <- function(y, family, name = "y") {
  if (is.matrix(y) && ncol(y) == 1L) y <- drop(y)
  if (!is.character(y) || is.matrix(y)) return(list(y = y))
  family <- tryCatch(dpglmnet_family(family), dpglmnet_error = function(e) NULL)
  if (is.null(family) || !isTRUE(family$classes)) return(list(y = y))
  if (anyNA(y)) dpglmnet_abort(name, "must not contain NA.")
  labels <- levels(factor(y))
  if (length(labels) != 2L) {
    dpglmnet_abort(name, sprintf(paste(
      "has %d distinct label%s; family = \"%s\" needs exactly two (give a",
      "factor with the two public levels)."), length(labels),
      if (length(labels) == 1L) "" else "s", family$name))
  }
  dpglmnet_warn(sprintf(paste(
    "`%s` is a character vector: its two labels are taken from the values in",
    "the data, sorted as glmnet sorts them (\"%s\" is modelled), and the fit",
    "reveals them (as class names). This is private only if the labels are",
    "public schema; declare them with factor(%s, levels = <the two public",
    "labels>) instead."), name, labels[2L], name))
  list(y = factor(y, levels = labels),
       disclosures = sprintf(paste(
         "the labels of `%s`, taken from the values in the data (the class",
         "names; private only if they are public schema)"), name))
}

# A response given as a matrix (or data frame) of more than one column.
# glmnet's binomial family accepts two columns of counts or proportions,
# the second column the modelled class. dpglmnet supports the form in which
# each record is one trial: a 0/1 indicator matrix with exactly one 1 per
# row (one-hot), read as a factor whose levels are the column names
# (default "1", "2"), the second modelled. Counts and proportions are
# several trials per record, which would need per-record weights (not
# supported): the error says so, and how to expand them.
response_matrix <- function(y, n, family) {
  if (!dpglmnet_family(family)$classes) {
    dpglmnet_abort("y", sprintf(paste(
      "must be a vector (or a one-column matrix) for family = \"%s\", not a",
      "%d-column %s."), family, ncol(y), if (is.data.frame(y)) "data frame" else "matrix"))
  }
  if (ncol(y) != 2L) {
    dpglmnet_abort("y", sprintf(paste(
      "for family = \"binomial\" must be a two-level factor, a logical or 0/1",
      "vector, or a two-column 0/1 indicator matrix (one 1 per row), not a",
      "%d-column %s."), ncol(y), if (is.data.frame(y)) "data frame" else "matrix"))
  }
  if (nrow(y) != n) {
    dpglmnet_abort("y", sprintf("must have one row per row of x (%d), not %d.",
                                n, nrow(y)))
  }
  values <- if (is.data.frame(y)) unlist(y, use.names = FALSE) else as.vector(y)
  if (!(is.numeric(values) || is.logical(values)) || is.object(values)) {
    dpglmnet_abort("y", "as a two-column matrix for family = \"binomial\" must be numeric.")
  }
  if (anyNA(values)) dpglmnet_abort("y", "must not contain NA.")
  indicator <- matrix(as.numeric(values), ncol = 2L)
  if (any(indicator != 0 & indicator != 1) || any(rowSums(indicator) != 1)) {
    dpglmnet_abort("y", paste(
      "as a two-column matrix for family = \"binomial\" must be a 0/1",
      "indicator matrix with exactly one 1 per row (one record, one trial; the",
      "second column is the modelled class). glmnet's counts or proportions",
      "describe several trials per record, which needs per-record weights",
      "(not supported): give one record per trial, or a two-level factor."))
  }
  levels <- colnames(y)
  if (is.null(levels) || anyNA(levels) || anyDuplicated(levels) || any(!nzchar(levels))) {
    levels <- c("1", "2")
  }
  factor(levels[indicator[, 2L] + 1], levels = levels)
}

# A per-column argument given as one value or one value per column.
recycle_columns <- function(value, p) {
  if (length(value) == 1L) rep(value, p) else value
}
