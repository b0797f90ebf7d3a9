# A public subset of the records of x, read in place (issue 19):
# cv.dpglmnet() fits its path on the training part and computes the
# validation losses on the validation part by passing the full x with the
# part's row indices, instead of copies x[train, ] and x[valid, ] (which
# took 1.5 GB beside 0.8 GB of x for n = 10^6, p = 100).
#
# A row subset is list(x = <checked matrix or dgCMatrix>, rows = <0-based
# increasing integer rows>) of class "dpglmnet_rows". It has the dimensions
# and column names of x[rows + 1, ] (dim() and dimnames() methods), so
# dpglmnet()'s checks and plans read it as they read a matrix, and every C++
# entry accepts it in place of x (src/interface_common.h): the core's
# designs read only its rows, numbered in their order, so a fit on it is the
# fit on the copy, number for number (src/dpglmnet/design.h, RowSubset).
# Everything that is not x (y, weights) is subset in R as before. The rows
# are public (cv.dpglmnet()'s split is drawn independently of the data), so
# reading x through them releases nothing.

# The records `index` (1-based, increasing, unique, in 1..nrow(x)) of a
# checked x (check_x()), as a row subset. Internal: never seen by users.
record_subset <- function(x, index) {
  if (inherits(x, "dpglmnet_rows")) {
    stop("internal error: a row subset of a row subset", call. = FALSE)
  }
  check_subset_rows(index, nrow(x))
  structure(list(x = x, rows = as.integer(index - 1L)), class = "dpglmnet_rows")
}

# An internal error unless `index` is integer-valued, strictly increasing
# (so unique) and in 1..n.
check_subset_rows <- function(index, n) {
  if (!is.numeric(index) || anyNA(index) ||
      (!is.integer(index) && any(index != round(index))) ||
      is.unsorted(index, strictly = TRUE) ||
      (length(index) && (index[1L] < 1 || index[length(index)] > n))) {
    stop("internal error: the rows of a subset must be increasing integers in 1..n",
         call. = FALSE)
  }
  invisible(index)
}

# check_x() of a row subset: its rows again, and at least `min_rows` of
# them. Its matrix was checked (values and storage) before the subset was
# made (record_subset() takes a checked x), so it is not scanned again:
# cv.dpglmnet() plans several fits of its parts and of all records, and each
# scan read every value of x (issue 17: 9 scans for one cv with a refit).
check_record_subset <- function(x, arg, min_rows) {
  if (!(is.matrix(x$x) && is.double(x$x)) && !inherits(x$x, "dgCMatrix")) {
    stop("internal error: a row subset of an unchecked x", call. = FALSE)
  }
  check_subset_rows(x$rows + 1L, nrow(x$x))
  if (length(x$rows) < min_rows) {
    dpglmnet_abort(arg, sprintf("must have at least %d row%s.", min_rows,
                                if (min_rows == 1L) "" else "s"))
  }
  x
}

#' @export
dim.dpglmnet_rows <- function(x) c(length(x$rows), ncol(x$x))

#' @export
dimnames.dpglmnet_rows <- function(x) {
  names <- colnames(x$x)
  if (is.null(names)) NULL else list(NULL, names)
}

# TRUE when x (a matrix, dgCMatrix, or a row subset of one) is stored sparse.
is_sparse_x <- function(x) {
  inherits(if (inherits(x, "dpglmnet_rows")) x$x else x, "dgCMatrix")
}

# The linear predictor (records x lambdas) of a fitted path at the records
# of x (a checked matrix or a row subset of one), x clamped as the fit read
# it (prediction_clamp(), R/methods.R): predict(fit, x, type = "link")
# without copying x, the same values number for number
# (src/dpglmnet/linear_predictor.h).
path_link <- function(fit, x) {
  clamp <- prediction_clamp(fit)
  beta <- as.matrix(fit$beta)
  storage.mode(beta) <- "double"
  .linear_predictor_cpp(x, list(
    transform = list(lower = clamp$lower, upper = clamp$upper, center = NULL, scale = NULL),
    beta = beta, a0 = as.double(fit$a0)))
}
