# Public bounds on the columns of x (`x.bounds`). Users give them
# symmetric, |x_ij| <= b_j (one value, or one per column), or as intervals
# lower_j <= x_ij <= upper_j (a p x 2 matrix, or a list named by column
# whose entries are b or c(lower, upper)). Internally there is one
# representation, list(lower, upper, envelope): b becomes [-b, b], and
# envelope_j = max(|lower_j|, |upper_j|).
#
# How each is used (the privacy argument):
# - x is read clamped to [lower_j, upper_j] wherever it is read (the column
#   transform of the solvers, the standardization's histograms and moments,
#   predict()'s clamp of new records, cv's validation link). Clamping is a
#   per-record map and costs nothing.
# - A clamped value lies in [lower_j, upper_j], so |value| <= envelope_j: every
#   sensitivity, clip default and smoothness bound written for a magnitude
#   bound b_j stays valid with b_j = envelope_j (problem$x.bounds and
#   problem$value_bounds hold the envelope).
# - Where a sensitivity depends on the spread of the values rather than on
#   their magnitude (a mean's replace-one sensitivity is the width of the
#   clamp over n), the standardization uses the width upper_j - lower_j of
#   the interval it reads through (R/standardize.R), which is at most
#   2 envelope_j.
# A symmetric b gives lower = -b, upper = b, envelope = b exactly, so fits
# with symmetric bounds are the same, bit for bit, as before intervals.

# The largest |bound| and the smallest width accepted: squares and the
# searches' ranges stay finite and normal.
max_x_bound <- 1e100
min_x_width <- 1e-100

# Checks `x.bounds` against a checked x (p columns named `column_names`,
# NULL when unnamed; `sparse`: stored sparse). Returns NULL (no bounds) or
# list(lower, upper, envelope), each of length p.
check_x_bounds <- function(x.bounds, p, column_names = NULL, sparse = FALSE) {
  if (is.null(x.bounds)) return(NULL)
  arg <- "x.bounds"
  if (is.data.frame(x.bounds)) x.bounds <- as.matrix(x.bounds)
  if (is.list(x.bounds) && !is.object(x.bounds)) {
    bounds <- named_bounds(x.bounds, p, column_names)
  } else if (is.matrix(x.bounds)) {
    bounds <- matrix_bounds(x.bounds, p, column_names)
  } else {
    if (!is.numeric(x.bounds) || is.object(x.bounds)) {
      dpglmnet_abort(arg, sprintf(paste(
        "must be a positive number, one per column of x, a p x 2 matrix of",
        "intervals (lower, upper) or a named list of them, not %s."),
        class(x.bounds)[1L]))
    }
    # (a named vector is matched by name, as a named list: by position its
    # names would be silently ignored, and a bound put on the wrong column)
    # (one value named otherwise, e.g. quantile()'s "100%", is one bound for
    # every column, as before; a vector named in part, c(1, apply(...)), is
    # read in order, its names checked against the columns at their places)
    bound_names <- names(x.bounds)
    named <- !is.null(bound_names) && any(nzchar(bound_names))
    if (bounds_by_name(x.bounds, column_names)) {
      if (is.null(column_names)) {
        dpglmnet_abort(arg, paste(
          "is a named vector but x has no column names, so its names cannot be",
          "matched: name the columns of x, or give unname(x.bounds) (one bound",
          "per column, in order)."))
      }
      return(check_x_bounds(as.list(x.bounds), p, column_names, sparse))
    }
    if (named && length(x.bounds) == p && !is.null(column_names)) {
      given <- nzchar(bound_names)
      misplaced <- given & bound_names != column_names
      if (any(misplaced)) {
        dpglmnet_abort(arg, sprintf(paste(
          "is named in part and read in column order, but its names %s do not",
          "name the columns at their places (%s): name every entry (matched by",
          "name) or none."),
          paste0("`", utils::head(bound_names[misplaced], 5L), "`", collapse = ", "),
          paste0("`", utils::head(column_names[misplaced], 5L), "`", collapse = ", ")))
      }
    }
    if (!length(x.bounds) %in% c(1L, p)) {
      dpglmnet_abort(arg, sprintf(paste(
        "must have length 1 or %d (one symmetric bound |x_ij| <= b_j per",
        "column), not %d; give intervals as a %d x 2 matrix cbind(lower, upper)."),
        p, length(x.bounds), p))
    }
    b <- as.double(recycle_columns(check_numeric(
      unname(x.bounds), arg, lower = 1e-100, upper = max_x_bound, length = c(1L, p)), p))
    bounds <- list(lower = -b, upper = b)
  }
  if (sparse && any(bounds$lower > 0 | bounds$upper < 0)) {
    bad <- which(bounds$lower > 0 | bounds$upper < 0)
    dpglmnet_abort(arg, sprintf(paste(
      "must hold 0 in every column's interval for a sparse x (its implicit",
      "zeros are read as 0, unclamped); column%s %s %s not."),
      if (length(bad) > 1L) "s" else "", bound_column_label(bad, column_names),
      if (length(bad) > 1L) "do" else "does"))
  }
  bounds$envelope <- pmax(abs(bounds$lower), abs(bounds$upper))
  bounds$binary <- binary_columns(x.bounds, bounds, p)
  bounds$blocks <- factor_blocks(x.bounds, bounds$binary, p)
  bounds
}

# The blocks of 0/1 columns with disjoint supports that a data frame's
# expansion marks (design_bounds(), R/formula.R): per column, its block
# (0: none), over marked 0/1 columns only, blocks of at least two columns.
# Privacy rests on the supports being disjoint (a block is released as one
# unit), which does not rest on the mark: the values are read clamped to
# [0, 1] and made disjoint record by record (disjoint_blocks()), and the
# core checks it on the values it reads (src/interface_fit.cpp); a wrong
# mark costs accuracy only.
factor_blocks <- function(x.bounds, binary, p) {
  marked <- attr(x.bounds, "factor_block", exact = TRUE)
  if (!is.numeric(marked) || length(marked) != p || any(!is.finite(marked)) ||
      any(marked != round(marked)) || any(abs(marked) > .Machine$integer.max)) {
    return(rep(0L, p))
  }
  blocks <- as.integer(ifelse(binary, marked, 0L))
  sizes <- table(blocks[blocks != 0L])
  blocks[blocks %in% as.integer(names(sizes)[sizes < 2L])] <- 0L
  blocks
}

# Each record's values on a block's columns, clamped to [0, 1] as the core
# reads them, keep only their first non-zero: a per-record map (free for
# privacy) that makes the supports disjoint whatever x holds, which the
# block's single release rests on (R/dpcd.R). The expansion of a factor
# has at most one 1 per record, so there it changes nothing.
disjoint_blocks <- function(x, blocks) {
  # (a row subset, R/rows.R: the map on the matrix it reads)
  if (inherits(x, "dpglmnet_rows")) {
    x$x <- disjoint_blocks(x$x, blocks)
    return(x)
  }
  # (the expansion's dummies: one pass over the block columns, no copy)
  if (is.matrix(x) && is.double(x) && .raw_blocks_disjoint_cpp(x, as.integer(blocks))) {
    return(x)
  }
  for (block in unique(blocks[blocks != 0L])) {
    columns <- which(blocks == block)
    values <- x[, columns, drop = FALSE]
    # (non-finite values: the error x's check gives, before any release)
    if (any(!is.finite(values))) check_x_values(x)
    clamped <- pmin(pmax(values, 0), 1)
    nonzero <- clamped != 0
    # (the expansion's dummies: nothing to change, and x is not copied)
    if (identical(values, clamped) && all(rowSums(nonzero) <= 1)) next
    earlier <- nonzero
    earlier[] <- 0
    if (length(columns) > 1L) {
      earlier[, -1L] <- t(apply(nonzero, 1L, cumsum))[, -length(columns), drop = FALSE]
    }
    clamped[earlier > 0] <- 0
    x[, columns] <- clamped
  }
  x
}

# The columns known to be 0/1 by the schema: the dummies a data frame's
# factors expand to (design_bounds(), R/formula.R, marks them on the
# bounds it builds), on the interval [0, 1]. Only their public interval is
# relied on for privacy: whatever their values, they are read clamped to
# [0, 1], so marking a column that is not 0/1 costs accuracy, never privacy.
binary_columns <- function(x.bounds, bounds, p) {
  marked <- attr(x.bounds, "binary", exact = TRUE)
  if (!is.logical(marked) || length(marked) != p || anyNA(marked)) return(rep(FALSE, p))
  marked & bounds$lower == 0 & bounds$upper == 1
}

# "`name`" or "3" for the columns `j`.
bound_column_label <- function(j, column_names) {
  shown <- if (is.null(column_names)) as.character(j) else paste0("`", column_names[j], "`")
  paste0(paste(utils::head(shown, 5L), collapse = ", "),
         if (length(shown) > 5L) sprintf(" and %d more", length(shown) - 5L) else "")
}

# Checks p intervals: finite, within [-1e100, 1e100], lower < upper (by at
# least 1e-100).
check_intervals <- function(lower, upper, column_names = NULL) {
  arg <- "x.bounds"
  if (anyNA(lower) || anyNA(upper)) dpglmnet_abort(arg, "must not contain NA or NaN.")
  if (any(!is.finite(lower)) || any(!is.finite(upper))) {
    dpglmnet_abort(arg, "must be finite.")
  }
  if (any(abs(lower) > max_x_bound) || any(abs(upper) > max_x_bound)) {
    dpglmnet_abort(arg, sprintf("must lie in [-%s, %s].", format(max_x_bound),
                                format(max_x_bound)))
  }
  bad <- which(!(upper - lower >= min_x_width))
  if (length(bad)) {
    dpglmnet_abort(arg, sprintf(paste(
      "must have lower < upper in every interval (lower, upper); column%s %s",
      "%s not."), if (length(bad) > 1L) "s" else "", bound_column_label(bad, column_names),
      if (length(bad) > 1L) "do" else "does"))
  }
  list(lower = as.double(lower), upper = as.double(upper))
}

# A p x 2 matrix (columns lower, upper), or 1 x 2 for all columns; rows named
# by the columns of x (any order) when it has row names.
matrix_bounds <- function(m, p, column_names) {
  arg <- "x.bounds"
  if (!(is.numeric(m) || is.logical(m)) || ncol(m) != 2L || !nrow(m) %in% c(1L, p) ||
      (is.logical(m) && !all(is.na(m)))) {
    dpglmnet_abort(arg, sprintf(paste(
      "as a matrix must be numeric with 2 columns (lower, upper) and %d row%s (one",
      "per column of x)%s, not a %d x %d %s matrix."), p, if (p > 1L) "s" else "",
      if (p > 1L) " or 1 row for all" else "", nrow(m), ncol(m), typeof(m)))
  }
  rows <- rownames(m)
  if (!is.null(rows) && nrow(m) == p && !(p == 1L && is.null(column_names))) {
    if (is.null(column_names)) {
      dpglmnet_abort(arg, paste(
        "has row names but x has no column names: name the columns of x, or",
        "drop the row names (rows then follow the columns of x)."))
    }
    check_bound_names(rows, column_names, complete = TRUE)
    m <- m[match(column_names, rows), , drop = FALSE]
  }
  lower <- recycle_columns(as.double(m[, 1L]), p)
  upper <- recycle_columns(as.double(m[, 2L]), p)
  check_intervals(lower, upper, column_names)
}

# Whether `x.bounds` is read by column name (check_x_bounds()): a list, or
# a numeric vector named in full with more than one value or one named as a
# column.
bounds_by_name <- function(x.bounds, column_names) {
  if (is.list(x.bounds) && !is.object(x.bounds) && !is.data.frame(x.bounds)) return(TRUE)
  bound_names <- names(x.bounds)
  is.numeric(x.bounds) && !is.object(x.bounds) && is.null(dim(x.bounds)) &&
    !is.null(bound_names) && all(nzchar(bound_names)) &&
    (length(x.bounds) > 1L || any(bound_names %in% column_names))
}

# A list named by the columns of x, every column once: each entry b
# ([-b, b]) or c(lower, upper).
named_bounds <- function(bounds, p, column_names) {
  arg <- "x.bounds"
  if (is.null(column_names)) {
    dpglmnet_abort(arg, paste(
      "as a list must be named by the columns of x, but x has no column names;",
      "give a p x 2 matrix cbind(lower, upper) instead."))
  }
  check_bound_names(names(bounds), column_names, complete = TRUE)
  intervals <- interval_entries(bounds)
  lower <- intervals[1L, match(column_names, names(bounds))]
  upper <- intervals[2L, match(column_names, names(bounds))]
  check_intervals(unname(lower), unname(upper), column_names)
}

# Each entry of a named list of bounds as c(lower, upper): a 2 x k matrix.
interval_entries <- function(bounds) {
  arg <- "x.bounds"
  vapply(names(bounds), function(name) {
    v <- bounds[[name]]
    if (!is.numeric(v) || is.object(v) || !length(v) %in% c(1L, 2L)) {
      dpglmnet_abort(arg, sprintf(paste(
        "entry `%s` must be one number b (the interval [-b, b]) or c(lower, upper),",
        "not %s of length %d."), name, class(v)[1L], length(v)))
    }
    if (anyNA(v)) dpglmnet_abort(arg, sprintf("entry `%s` must not contain NA or NaN.", name))
    if (length(v) == 1L) {
      if (!(v > 0) || !is.finite(v) || v < 1e-100 || v > max_x_bound) {
        dpglmnet_abort(arg, sprintf(paste(
          "entry `%s` is a single bound b (the interval [-b, b]) and must lie in",
          "[1e-100, 1e100], not %s."), name, format(v)))
      }
      return(c(-v, v))
    }
    as.double(v)
  }, numeric(2))
}

# The names of a list or of the rows of a matrix of bounds: unique, non-empty,
# each a column of x; `complete`: every column named.
check_bound_names <- function(names, column_names, complete = TRUE,
                              what = "column of x") {
  arg <- "x.bounds"
  if (is.null(names) || anyNA(names) || any(!nzchar(names)) || anyDuplicated(names)) {
    dpglmnet_abort(arg, "must have unique, non-empty names.")
  }
  unknown <- setdiff(names, column_names)
  if (length(unknown)) {
    dpglmnet_abort(arg, sprintf("names %s, which %s no %s.",
                                paste0("`", utils::head(unknown, 5L), "`", collapse = ", "),
                                if (length(unknown) > 1L) "are" else "is", what))
  }
  absent <- setdiff(column_names, names)
  if (complete && length(absent)) {
    dpglmnet_abort(arg, sprintf("has no bound for %s %s.",
                                if (length(absent) > 1L) "columns" else "column",
                                paste0("`", utils::head(absent, 5L), "`", collapse = ", ")))
  }
  invisible()
}

# The clamp [lower, upper] of the columns of x a fit read (its public
# x.bounds): list(lower, upper), or NULL without bounds. Fits made before
# intervals hold only the symmetric `x.bounds`.
fit_x_interval <- function(settings, p) {
  if (!is.null(settings$x.lower)) {
    return(list(lower = rep_len(as.double(settings$x.lower), p),
                upper = rep_len(as.double(settings$x.upper), p)))
  }
  bound <- settings$x.bounds
  if (is.null(bound)) return(NULL)
  bound <- rep_len(as.double(bound), p)
  list(lower = -bound, upper = bound)
}

# The public bound on a gaussian response (`y.bound`): one number b, the
# interval [-b, b] (as before intervals), or c(lower, upper). The same
# representation and the same argument as for x: y is clamped to
# [lower, upper] (a per-record map, free for privacy); whatever needs a
# magnitude bound on |y| (the clip's derivative bound, the cv loss bound,
# the diagnostics' response scale) reads the envelope max(|lower|, |upper|),
# valid for the clamped y; the standardization's moments of y follow the
# interval's width (R/standardize.R). A symmetric b gives lower = -b,
# upper = b, envelope = b exactly: the same fits, bit for bit.
# Returns NULL or list(lower, upper, envelope), each a single double.
check_y_bound <- function(y.bound, arg = "y.bound") {
  if (is.null(y.bound)) return(NULL)
  if (!is.numeric(y.bound) || is.object(y.bound)) {
    dpglmnet_abort(arg, sprintf(paste(
      "must be a positive number b (the interval [-b, b]) or an interval",
      "c(lower, upper), not %s."), class(y.bound)[1L]))
  }
  if (!length(y.bound) %in% c(1L, 2L)) {
    dpglmnet_abort(arg, sprintf(paste(
      "must have length 1 (a bound b: |y_i| <= b) or 2 (an interval",
      "c(lower, upper)), not %d."), length(y.bound)))
  }
  if (length(y.bound) == 1L) {
    b <- check_numeric(unname(y.bound), arg, lower = 1e-100, upper = max_x_bound)
    return(list(lower = -b, upper = b, envelope = b))
  }
  y.bound <- as.double(unname(y.bound))
  if (anyNA(y.bound)) dpglmnet_abort(arg, "must not contain NA or NaN.")
  if (any(!is.finite(y.bound))) dpglmnet_abort(arg, "must be finite.")
  if (any(abs(y.bound) > max_x_bound)) {
    dpglmnet_abort(arg, sprintf("must lie in [-%s, %s].", format(max_x_bound),
                                format(max_x_bound)))
  }
  if (!(y.bound[2L] - y.bound[1L] >= min_x_width)) {
    dpglmnet_abort(arg, sprintf(paste(
      "as an interval c(lower, upper) must have lower < upper, not c(%s, %s)."),
      format(y.bound[1L]), format(y.bound[2L])))
  }
  list(lower = y.bound[1L], upper = y.bound[2L],
       envelope = max(abs(y.bound[1L]), abs(y.bound[2L])))
}

# A private, standardized fit of a response the standardization scales
# (gaussian) requires `y.bound`, as cv.dpglmnet() does: without it y is read as it is,
# unscaled, and DP-CD's intercept moves by clipped steps, so a response
# far from 0 was never reached, silently (an independent first-use review:
# y near 650 at n = 20000, epsilon 1: intercept 300, a slope of the wrong
# sign, test MSE 650 times var(y)). standardize = FALSE keeps y as given
# (the DP-CD paper's setting, the data scaled beforehand).
check_y_bound_given <- function(y_interval, family, epsilon, standardize) {
  if (!is.null(y_interval) || !isTRUE(family$standardize_response) || !is.finite(epsilon) ||
      !isTRUE(standardize)) {
    return(invisible())
  }
  dpglmnet_abort("y.bound", sprintf(paste(
    "must be given for a private fit of family = \"%s\": a public bound on",
    "|y| (one number b) or an interval c(lower, upper), known without",
    "looking at the data (crude will do: a test score is in c(0, 1000)).",
    "y is clamped to it and its mean and scale are released from it;",
    "without it y would be read unscaled and an intercept far from 0 never",
    "reached. standardize = FALSE fits y as it is."), family$name))
}

# The clamp [lower, upper] of a fit's gaussian response: list(lower, upper),
# or NULL without y.bound. Fits made before intervals hold only the
# symmetric `y.bound`.
fit_y_interval <- function(settings) {
  if (!is.null(settings$y.lower)) {
    return(list(lower = settings$y.lower, upper = settings$y.upper))
  }
  if (is.null(settings$y.bound)) return(NULL)
  list(lower = -settings$y.bound, upper = settings$y.bound)
}
