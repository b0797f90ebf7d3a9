# SQL for fits on a database table (R/database.R). Every release of a fit
# is a sum over records of a clamped per-record term, so each is one
# aggregate query returning one row; only those sums leave the database, and
# the noise is added in R (src/interface_database.cpp) exactly as in memory.
#
# Portability: the SQL uses only CASE WHEN, ABS, EXP, FLOOR-free
# comparisons, SUM, COUNT, CAST and subqueries with an alias, which SQLite
# (>= 3.35 for EXP), PostgreSQL, DuckDB and Spark SQL all accept; clamping
# is CASE WHEN (LEAST / GREATEST are missing from SQLite). Identifiers go
# through DBI::dbQuoteIdentifier(). Numbers are written by sql_number():
# DBI::dbQuoteLiteral() prints doubles with 15 significant digits, which
# would change the constants (clamps, centres, coefficients) by up to 1e-15
# relative and so the fit; "%.17g" round-trips every finite double, and the
# value is cast to the engine's double type so that no engine computes with
# it as an exact decimal (PostgreSQL's numeric).

# A finite double as an exact SQL literal of the engine's double type.
sql_number <- function(source, value) {
  if (length(value) != 1L || !is.numeric(value) || !is.finite(value)) {
    stop("internal error: an SQL number must be one finite double")
  }
  sprintf("CAST(%s AS %s)", sprintf("%.17g", as.double(value)), source$double_type)
}

# `expr` clamped to [lower, upper] (either may be infinite: no clamp on that
# side), in the order of the core's ColumnTransform (src/dpglmnet/design.h:
# v < upper ? v : upper, then v > lower ? v : lower).
sql_clamp <- function(source, expr, lower, upper) {
  if (is.finite(upper)) {
    u <- sql_number(source, upper)
    expr <- sprintf("(CASE WHEN %s < %s THEN %s ELSE %s END)", expr, u, expr, u)
  }
  if (is.finite(lower)) {
    l <- sql_number(source, lower)
    expr <- sprintf("(CASE WHEN %s > %s THEN %s ELSE %s END)", expr, l, expr, l)
  }
  expr
}

# Column j of x as the core reads it through `transform` (list(lower, upper,
# center, scale), each NULL or length p): clamp, centre, scale.
sql_column <- function(source, j, transform = NULL) {
  expr <- source$columns[[j]]
  at <- function(v, default) if (is.null(v)) default else v[[j]]
  expr <- sql_clamp(source, expr, at(transform$lower, -Inf), at(transform$upper, Inf))
  center <- at(transform$center, 0)
  scale <- at(transform$scale, 1)
  if (center != 0 || scale != 1) {
    # (v - center) * scale, as the core computes it (also when center = 0)
    expr <- sprintf("((%s - %s) * %s)", expr, sql_number(source, center),
                    sql_number(source, scale))
  }
  expr
}

# The linear predictor b0 + sum_j b_j x~_ij of the current coefficients
# (`coef`: features then the intercept), recomputed inside the query: the
# nonzero coefficients only.
sql_linear_predictor <- function(source, coef, p, intercept, transform) {
  terms <- character()
  if (intercept && coef[[p + 1L]] != 0) terms <- sql_number(source, coef[[p + 1L]])
  for (j in which(coef[seq_len(p)] != 0)) {
    terms <- c(terms, sprintf("%s * %s", sql_number(source, coef[[j]]),
                              sql_column(source, j, transform)))
  }
  if (!length(terms)) return(sql_number(source, 0))
  paste0("(", paste(terms, collapse = " + "), ")")
}

# The derivative of the loss l'(eta, y) (src/dpglmnet/loss.h): eta - y, or
# 1 / (1 + exp(-eta)) - y with eta clamped to +-708 first, as the core's
# vectorized kernels do (and so that no engine's EXP overflows).
sql_derivative <- function(source, family, eta, y) {
  if (family == "gaussian") return(sprintf("(%s - %s)", eta, y))
  limited <- sql_clamp(source, eta, -708, 708)
  sprintf("(%s / (%s + EXP(-%s)) - %s)", sql_number(source, 1), sql_number(source, 1),
          limited, y)
}

# term clipped to [-clip, clip] (clip = Inf: unclipped), as kernels.h:
# v < c ? v : c, then v > -c ? v : -c.
sql_clip <- function(source, term, clip) {
  if (!is.finite(clip)) return(term)
  sql_clamp(source, term, -clip, clip)
}

# SELECT <aggregates> FROM (SELECT <per-record expressions> FROM table) AS t:
# named lists of SQL expressions; the inner query names its columns so that
# a per-record quantity (eta) is computed once per record.
sql_aggregate <- function(source, aggregates, inner = NULL) {
  outer <- paste(sprintf("%s AS %s", unlist(aggregates),
                         DBI::dbQuoteIdentifier(source$con, names(aggregates))),
                 collapse = ", ")
  from <- source$from
  if (!is.null(inner)) {
    from <- sprintf("(SELECT %s FROM %s) AS %s",
                    paste(sprintf("%s AS %s", unlist(inner),
                                  DBI::dbQuoteIdentifier(source$con, names(inner))),
                          collapse = ", "),
                    source$from, DBI::dbQuoteIdentifier(source$con, "dpglmnet_records"))
  }
  sprintf("SELECT %s FROM %s", outer, from)
}

# The inner column named `name` as the outer query refers to it.
sql_name <- function(source, name) as.character(DBI::dbQuoteIdentifier(source$con, name))

# The exact counts of histogram.h's bins of column j (read through the
# public interval [lower, upper]): the 2K + 1 log-spaced coarse bins about
# the frame's anchor, then the L equal fine bins, as one row of sums. The
# bin tests are those of CoarseBins and fine_bin() with the same constants
# (the frame from the core, 1 / width and L / (upper - lower) as the core
# computes them), so every record falls in the same bins.
sql_histogram <- function(source, expr, lower, upper, levels, fine_bins) {
  frame <- .histogram_frame_cpp(lower, upper)
  anchor <- frame[[1L]]
  inverse_width <- if (frame[[2L]] > 0) 1 / frame[[2L]] else 0
  inverse_step <- fine_bins / (upper - lower)
  v <- sql_clamp(source, expr, lower, upper)
  inner <- list(
    d = sprintf("(%s - %s)", v, sql_number(source, anchor)),
    r = sprintf("(ABS(%s - %s) * %s)", v, sql_number(source, anchor),
                sql_number(source, inverse_width)),
    f = sprintf("((%s - %s) * %s)", v, sql_number(source, lower),
                sql_number(source, inverse_step)))
  d <- sql_name(source, "d")
  r <- sql_name(source, "r")
  f <- sql_name(source, "f")
  one <- function(condition) sprintf("SUM(CASE WHEN %s THEN 1 ELSE 0 END)", condition)
  # level k holds r in [2^-k, 2^-(k-1)) (level 1 also r >= 1); below 2^-K
  # the centre bin. Bin b < K is level b + 1 on the negative side (d <= 0),
  # bin b > K level 2K + 1 - b on the positive side (d > 0).
  level_test <- function(k) {
    low <- sprintf("%s >= %s", r, sql_number(source, 2^-k))
    if (k == 1L) low else sprintf("%s AND %s < %s", low, r, sql_number(source, 2^-(k - 1L)))
  }
  coarse <- vapply(seq_len(2L * levels + 1L) - 1L, function(b) {
    if (b == levels) return(one(sprintf("%s < %s", r, sql_number(source, 2^-levels))))
    positive <- b > levels
    k <- if (positive) 2L * levels + 1L - b else b + 1L
    one(sprintf("(%s) AND %s", level_test(k),
                if (positive) sprintf("%s > 0", d) else sprintf("NOT (%s > 0)", d)))
  }, character(1))
  fine <- vapply(seq_len(fine_bins) - 1L, function(i) {
    if (i == fine_bins - 1L) return(one(sprintf("%s >= %d", f, i)))
    if (i == 0L) return(one(sprintf("%s < 1", f)))
    one(sprintf("%s >= %d AND %s < %d", f, i, f, i + 1L))
  }, character(1))
  sql_aggregate(source, stats::setNames(as.list(c(coarse, fine)),
                                        paste0("b", seq_along(c(coarse, fine)))),
                inner)
}
