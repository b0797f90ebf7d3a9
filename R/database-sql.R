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
  text <- sprintf("%.17g", as.double(value))
  # SQLite reads a literal with an exponent as a double (REAL) already: no
  # CAST to evaluate for every record (measured: a third of a step's time).
  if (isTRUE(source$bare_numbers)) {
    return(if (grepl("[eE]", text)) text else paste0(text, "e0"))
  }
  sprintf("CAST(%s AS %s)", text, source$double_type)
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

# The derivative of the loss l'(eta, y) (src/dpglmnet/losses/), as the
# family writes it in SQL (R/family.R).
sql_derivative <- function(source, family, eta, y, parameter = NULL) {
  dpglmnet_family(family, parameter = parameter)$sql_derivative(source, eta, y)
}

# term clipped to [-clip, clip] (clip = Inf: unclipped), as kernels.h:
# v < c ? v : c, then v > -c ? v : -c.
sql_clip <- function(source, term, clip) {
  if (is.na(clip)) stop("internal error: a clip that is NaN", call. = FALSE)
  if (!is.finite(clip)) return(term)
  sql_clamp(source, term, -clip, clip)
}

# SELECT <aggregates> FROM (SELECT <per-record expressions> FROM table) AS t:
# named lists of SQL expressions; the inner query names its columns so that
# a per-record quantity (eta) is computed once per record.
sql_aggregate <- function(source, aggregates, inner = NULL) {
  quote <- function(names) vapply(names, sql_name, "", source = source, USE.NAMES = FALSE)
  outer <- paste(sprintf("%s AS %s", unlist(aggregates), quote(names(aggregates))),
                 collapse = ", ")
  from <- source$from
  if (!is.null(inner)) {
    from <- sprintf("(SELECT %s FROM %s) AS %s",
                    paste(sprintf("%s AS %s", unlist(inner), quote(names(inner))),
                          collapse = ", "),
                    source$from, sql_name(source, "dpglmnet_records"))
  }
  sprintf("SELECT %s FROM %s", outer, from)
}

# The inner column named `name` as the outer query refers to it.
# Quoted once per fit and kept (`source$quoted`, an environment shared by
# the copies of the source): DBI's quoting builds S4 objects, and quoting
# anew in every query made tens of MB of garbage per fit.
sql_name <- function(source, name) {
  cache <- source$quoted
  if (is.environment(cache) && !is.null(cache[[name]])) return(cache[[name]])
  quoted <- as.character(DBI::dbQuoteIdentifier(source$con, name))
  if (is.environment(cache)) assign(name, quoted, envir = cache)
  quoted
}

# The exact counts of histogram.h's bins of column j (read through the
# public interval [lower, upper]): the 2K + 1 log-spaced coarse bins about
# the frame's anchor, then the L equal fine bins, as one row of counts. The
# bin tests are those of CoarseBins and fine_bin() with the same constants
# (the frame from the core, 1 / width and L / (upper - lower) as the core
# computes them), so every record falls in the same bins. Each record's pair
# of bins is computed once, grouped and counted inside the database (at most
# (2K + 1) L groups, which never leave it), and the counts pivoted into one
# row: 73 sums over the records instead recomputed each record's bin 73
# times (subqueries are inlined), 10x slower on SQLite.
sql_histogram <- function(source, expr, lower, upper, levels, fine_bins) {
  frame <- .histogram_frame_cpp(lower, upper)
  anchor <- frame[[1L]]
  inverse_width <- if (frame[[2L]] > 0) 1 / frame[[2L]] else 0
  inverse_step <- fine_bins / (upper - lower)
  con <- source$con
  q <- function(name) sql_name(source, name)
  v <- sql_clamp(source, expr, lower, upper)
  values <- sprintf("SELECT (%s - %s) AS %s, (ABS(%s - %s) * %s) AS %s, ((%s - %s) * %s) AS %s FROM %s",
                    v, sql_number(source, anchor), q("d"),
                    v, sql_number(source, anchor), sql_number(source, inverse_width), q("r"),
                    v, sql_number(source, lower), sql_number(source, inverse_step), q("f"),
                    source$from)
  # level k holds r in [2^-k, 2^-(k-1)) (level 1 also r >= 1); below 2^-K
  # the centre bin K. Level k is bin k - 1 on the negative side (d <= 0),
  # bin 2K + 1 - k on the positive side (d > 0).
  # The level as a binary search (r >= 2^-m exactly when the level is at
  # most m): 5 comparisons for 20 levels instead of up to 20 in a chain
  # (measured: a standardization 2x faster on PostgreSQL at n = 1e4).
  search <- function(first, last) {
    if (first == last) return(as.character(first))
    middle <- (first + last) %/% 2L
    sprintf("CASE WHEN %s >= %s THEN %s ELSE %s END", q("r"), sql_number(source, 2^-middle),
            search(first, middle), search(middle + 1L, last))
  }
  level <- search(1L, levels)
  coarse <- sprintf(paste("CASE WHEN %s < %s THEN %d WHEN %s > 0 THEN %d - (%s)",
                          "ELSE (%s) - 1 END"),
                    q("r"), sql_number(source, 2^-levels), levels, q("d"),
                    2L * levels + 1L, level, level)
  fine <- sprintf("CASE WHEN %s >= %d THEN %d WHEN %s < 1 THEN 0 ELSE FLOOR(%s) END",
                  q("f"), fine_bins - 1L, fine_bins - 1L, q("f"), q("f"))
  bins <- sprintf("SELECT %s AS %s, %s AS %s FROM (%s) AS %s", coarse, q("cb"), fine,
                  q("fb"), values, q("dpglmnet_values"))
  groups <- sprintf("SELECT %s, %s, COUNT(*) AS %s FROM (%s) AS %s GROUP BY %s, %s",
                    q("cb"), q("fb"), q("cnt"), bins, q("dpglmnet_bins"), q("cb"), q("fb"))
  count_where <- function(column, i) {
    sprintf("SUM(CASE WHEN %s = %d THEN %s ELSE 0 END)", q(column), i, q("cnt"))
  }
  sums <- c(vapply(seq_len(2L * levels + 1L) - 1L, function(b) count_where("cb", b), ""),
            vapply(seq_len(fine_bins) - 1L, function(i) count_where("fb", i), ""))
  sprintf("SELECT %s FROM (%s) AS %s",
          paste(sprintf("%s AS %s", sums, vapply(paste0("b", seq_along(sums)), q, "")),
                collapse = ", "),
          groups, q("dpglmnet_groups"))
}
