# Data frames and formulas: the entry of dpglmnet() (and, through a hook,
# cv.dpglmnet()) for `x` given as a data frame or as a formula with `data`,
# in the manner of glmnetUtils. The frame is expanded as
# model.matrix(~ ., x) without its intercept column would (treatment
# contrasts for every factor), then the matrix interface fits it with all
# its own checks. Factor levels and column names are public schema, so the
# dummy columns get the interval [0, 1] without the user giving it; numeric
# columns take their bounds (symmetric or intervals) by name from `x.bounds`. The fit keeps the
# expansion recipe (terms, levels, contrasts; no data), so predict() expands
# a data frame `newx` the same way.

# TRUE for the inputs this file handles.
is_frame_input <- function(x) is.data.frame(x) || inherits(x, "formula")

# The values of the arguments a call gave (matched by match.call()), read
# from the frame `env` of the function that was called, so that each is
# evaluated once (promises already forced are not evaluated again); the
# elements of `...` come from the same frame.
given_arguments <- function(call, env, formal_names) {
  given <- setdiff(names(as.list(call))[-1L], "")
  in_frame <- intersect(given, formal_names)
  values <- mget(in_frame, envir = env)
  # the elements of `...` of `env`, each forced once (a call built so that
  # no `...` appears outside a function that has it)
  if ("..." %in% formal_names) values <- c(values, eval(call("list", as.name("...")), env))
  values[intersect(given, names(values))]
}

# The design of a data frame `x` (with response `y`), or of a formula `x`
# with its `data`: the expanded matrix, the response, the expanded x.bounds
# and the recipe predict() needs. Every check names the argument it is
# about and runs before any computation.
frame_design <- function(values) {
  # (glmnet's dfmax and pmax count the columns of a matrix; a frame fit's
  # coefficients are mapped to treatment contrasts after its path, R/coding.R)
  for (name in c("dfmax", "pmax")) {
    if (!is.null(values[[name, exact = TRUE]])) {
      dpglmnet_abort(name, paste(
        "is offered with a matrix `x` (as glmnet's), not with a data frame or a",
        "formula."))
    }
  }
  x <- values[["x", exact = TRUE]]
  data <- values[["data", exact = TRUE]]
  if (inherits(x, "formula")) {
    # dpglmnet(y ~ ., df): the data frame given positionally lands in `y`
    if (is.null(data) && is.data.frame(values[["y", exact = TRUE]])) {
      data <- values[["y", exact = TRUE]]
      values["y"] <- NULL
    }
    if (!is.null(values[["y", exact = TRUE]])) {
      dpglmnet_abort("y", paste(
        "must not be given with a formula: the response is the left-hand side",
        "of the formula `x`, read from `data`."))
    }
    if (!is.data.frame(data)) {
      dpglmnet_abort("data", sprintf(paste(
        "must be a data frame holding the variables of the formula, not %s."),
        if (is.null(data)) "missing" else class(data)[1L]))
    }
    formula <- x
    frame_arg <- "data"
    if (length(formula) != 3L) {
      dpglmnet_abort("x", "must be a formula with a response on its left-hand side (y ~ ...).")
    }
  } else {
    if (!is.null(data)) {
      dpglmnet_abort("data", paste(
        "is for the formula interface (x a formula such as y ~ .); with a data",
        "frame `x`, give the response as `y`."))
    }
    if (!"y" %in% names(values)) {
      dpglmnet_abort("y", "is missing: with a data frame `x`, give the response as `y`.")
    }
    data <- x
    formula <- ~ .
    frame_arg <- "x"
  }
  if (!ncol(data)) dpglmnet_abort(frame_arg, "has no columns.")
  names_in_data <- names(data)
  if (is.null(names_in_data) || anyNA(names_in_data) || any(!nzchar(names_in_data)) ||
      anyDuplicated(names_in_data)) {
    dpglmnet_abort(frame_arg, "must have unique, non-empty column names.")
  }
  terms <- tryCatch(stats::terms(formula, data = data),
                    error = function(e) dpglmnet_abort("x", sprintf(
                      "could not be read as a model formula: %s", conditionMessage(e))))
  if (!is.null(attr(terms, "offset"))) {
    dpglmnet_abort("x", paste(
      "holds an offset() term: give the offset as the `offset` argument (with",
      "its public `offset.bound`), as glmnet takes it."))
  }
  if (attr(terms, "intercept") == 0L) {
    dpglmnet_abort("x", paste(
      "removes the intercept (- 1 or + 0): the intercept is set by the",
      "argument `intercept` (use intercept = FALSE); the formula keeps it so",
      "that factors get treatment contrasts."))
  }
  if (!length(attr(terms, "term.labels"))) {
    dpglmnet_abort(if (frame_arg == "x") "x" else "x",
                   "has no predictors: the model needs at least one column.")
  }
  check_per_record_terms(stats::delete.response(terms), environment(formula))
  missing_columns <- setdiff(all.vars(stats::delete.response(terms)), names_in_data)
  if (length(missing_columns)) {
    dpglmnet_abort(frame_arg, sprintf("has no column %s, which the formula uses.",
                                      paste0("`", missing_columns, "`", collapse = ", ")))
  }
  frame <- tryCatch(
    stats::model.frame(terms, data, na.action = stats::na.pass, drop.unused.levels = FALSE),
    error = function(e) dpglmnet_abort(frame_arg, sprintf(
      "could not be read through the formula: %s", conditionMessage(e))))
  # A term whose prediction variables differ from its variables (scale(),
  # and any makepredictcall() method) stores constants computed from all the
  # records (scale(age) keeps the exact mean and sd of age): they would leave
  # the fit outside the ledger, and the term is no per-record map. Refused.
  frame_terms <- attr(frame, "terms")
  if (!is.null(attr(frame_terms, "predvars")) &&
      !identical(attr(frame_terms, "predvars"), attr(frame_terms, "variables"))) {
    variables <- vapply(as.list(attr(frame_terms, "variables"))[-1L], deparse1, "")
    predvars <- vapply(as.list(attr(frame_terms, "predvars"))[-1L], deparse1, "")
    changed <- variables[variables != predvars]
    dpglmnet_abort("x", sprintf(paste(
      "has term%s %s computed from all the records (as scale() is): the",
      "constants it keeps are statistics of the data, which a private fit must",
      "not hold. Give per-record transformations only (log(x), x^2, I(x / 100))."),
      if (length(changed) > 1L) "s" else "", paste0("`", changed, "`", collapse = ", ")))
  }
  response <- if (frame_arg == "data") attr(terms, "response") else 0L
  predictors <- setdiff(seq_along(frame), response)
  check_frame_columns(frame[predictors], frame_arg)
  y <- if (response) check_frame_response(frame[[response]], names(frame)[response])
       else values[["y", exact = TRUE]]
  # (a character response of a formula, label ~ .: read as the matrix
  # interface reads a character y, R/checks.R, under its own name)
  response_read <- if (response) {
    family <- values[["family", exact = TRUE]]
    labels_as_factor(y, if (is.null(family)) "gaussian" else family, names(frame)[response])
  }
  if (!is.null(response_read)) y <- response_read$y
  classes <- vapply(frame[predictors], categorical_class, character(1))
  # (only the variables a term uses: y ~ . - v keeps v in the frame)
  factors <- attr(terms, "factors")
  used <- if (length(factors)) rownames(factors)[rowSums(factors != 0) > 0] else character(0)
  character_columns <- intersect(names(frame)[predictors][classes == "character"], used)
  # (and a character column of the data that a term makes a factor of,
  # factor(job): its levels are the data's values too, unless the call
  # declares them, factor(job, levels = ...))
  character_data <- names(data)[vapply(data, is.character, logical(1))]
  for (column in intersect(names(frame)[predictors][classes != "numeric"], used)) {
    expression <- tryCatch(str2lang(column), error = function(e) NULL)
    if (is.call(expression) && "levels" %in% names(expression)) next
    inner <- if (is.null(expression)) character(0) else all.vars(expression)
    character_columns <- union(character_columns, intersect(inner, character_data))
  }
  warn_character_levels(character_columns, frame_arg)
  # (a response made a factor of a character column, factor(label) ~ .:
  # its levels, the class names, are the data's values too)
  response_labels <- if (response && is.factor(frame[[response]])) {
    expression <- tryCatch(str2lang(names(frame)[response]), error = function(e) NULL)
    if (is.call(expression) && !"levels" %in% names(expression) &&
        length(intersect(all.vars(expression), character_data))) names(frame)[response]
  }
  if (!is.null(response_labels)) {
    dpglmnet_warn(sprintf(paste(
      "the response `%s` is a factor of a character column: its levels are taken",
      "from the values in the data, and the fit reveals them (as class names).",
      "This is private only if they are public schema; declare them with",
      "factor(..., levels = <the public list>) instead."), response_labels))
  }
  categorical <- names(frame)[predictors][classes != "numeric"]
  # model.matrix()'s default contrasts: treatment, polynomial for an
  # ordered factor
  ordered <- categorical[vapply(categorical, function(v) is.ordered(frame[[v]]), logical(1))]
  contrasts <- stats::setNames(rep(list("contr.treatment"), length(categorical)),
                               categorical)
  for (v in ordered) contrasts[[v]] <- "contr.poly"
  # (factors of 3 or more levels coded in full for a private fit, reported
  # in treatment contrasts: R/coding.R)
  full <- full_coding_factors(values, frame, terms, categorical)
  # An ordered factor of two levels where a factor of three would be coded
  # in full: fitted on its treatment dummy (a 0/1 column, whose
  # standardization releases its mean alone and keeps a rare level: its
  # polynomial column read through a released range lost a 3% level) and
  # reported in polynomial contrasts (R/coding.R; exact, with an intercept).
  mapped <- full_coding_factors(values, frame, terms,
                                setdiff(ordered, full)[vapply(setdiff(ordered, full), function(v)
                                  nlevels(frame[[v]]) == 2L, logical(1))], min_levels = 2L)
  fitted_contrasts <- contrasts
  for (v in full) fitted_contrasts[[v]] <- full_contrasts(frame[[v]])
  for (v in mapped) fitted_contrasts[[v]] <- "contr.treatment"
  design <- tryCatch(
    stats::model.matrix(terms, frame,
                        contrasts.arg = if (length(fitted_contrasts)) fitted_contrasts),
    error = function(e) dpglmnet_abort(frame_arg, sprintf(
      "could not be expanded as model.matrix() does: %s", conditionMessage(e))))
  assign <- attr(design, "assign")
  keep <- colnames(design) != "(Intercept)"
  matrix <- design[, keep, drop = FALSE]
  attr(matrix, "assign") <- NULL
  attr(matrix, "contrasts") <- NULL
  numeric_variables <- names(frame)[predictors][classes == "numeric"]
  variable_bounds <- frame_variable_bounds(values[["x.bounds", exact = TRUE]], numeric_variables,
                                           categorical, frame_arg)
  model_terms <- attr(frame, "terms")
  # The recipe holds no data: the formula's environment (which may hold the
  # records) is replaced by the global one.
  environment(model_terms) <- globalenv()
  recipe_contrasts <- attr(design, "contrasts")
  # (NULL without factors: indexing NULL by no names would make it
  # character(0), which model.matrix() warns about at every predict())
  for (v in c(full, mapped)) recipe_contrasts[[v]] <- contrasts[[v]]
  # (the values of an ordered factor's polynomial columns, public: from its
  # number of levels)
  poly_ranges <- lapply(stats::setNames(nm = setdiff(ordered, c(full, mapped))), function(v) {
    range(stats::contr.poly(nlevels(frame[[v]])))
  })
  list(
    x = matrix, y = y,
    x.bounds = design_bounds(variable_bounds, model_terms, assign[keep], numeric_variables,
                             poly_ranges),
    recipe = list(terms = model_terms, xlevels = stats::.getXlevels(model_terms, frame),
                  contrasts = recipe_contrasts, formula_interface = frame_arg == "data"),
    disclosures = c(if (length(character_columns)) sprintf(paste(
      "the levels of character column%s %s, taken from the values in the data",
      "(the coefficient names; private only if they are public schema)"),
      if (length(character_columns) > 1L) "s" else "",
      paste0("`", character_columns, "`", collapse = ", ")),
      if (!is.null(response_labels)) sprintf(paste(
        "the levels of the response `%s`, taken from the values in the data (the",
        "class names; private only if they are public schema)"), response_labels),
      response_read$disclosures),
    coding = coding_map(full, terms, assign[keep],
                        lapply(stats::setNames(nm = intersect(c(full, mapped), ordered)),
                               function(v) nlevels(frame[[v]])), mapped)
  )
}

# A formula's terms must be per-record maps: a term computed from all the
# records (cut(age, 3) takes its breaks from the range of age, x / max(x)
# its maximum) would put statistics of the data in the fit, its factor
# levels and coefficient names without noise and outside the ledger.
# Terms that keep such constants for prediction (scale(), poly(), ns())
# are refused after the model frame (their predvars); these, which keep
# none, are refused here from the formula alone (no data read): calls to
# functions that summarise a vector, and cut() without explicit breaks
# (a vector of two or more, as literals or a variable of the formula's
# environment, public).
record_summaries <- c("mean", "median", "max", "min", "range", "sd", "var", "mad", "IQR",
                      "quantile", "fivenum", "rank", "order", "sort", "rev", "sum", "prod",
                      "cumsum", "cumprod", "cummax", "cummin", "diff", "table", "tabulate",
                      "ecdf", "scale", "length", "nrow", "NROW", "unique", "duplicated",
                      "ave", "cor", "cov", "weighted.mean", "colMeans", "rowsum", "rowSums",
                      "colSums", "which.max", "which.min", "outer", "lag")

check_per_record_terms <- function(terms, env) {
  offending <- character()
  visit <- function(e) {
    if (!is.call(e)) return(invisible())
    head <- e[[1L]]
    name <- if (is.name(head)) as.character(head)
            else if (is.call(head) && identical(head[[1L]], as.name("::"))) as.character(head[[3L]])
            else ""
    if (name %in% record_summaries) {
      offending <<- c(offending, deparse1(e))
    } else if (name == "cut" && !explicit_breaks(e, env)) {
      offending <<- c(offending, deparse1(e))
    }
    for (argument in as.list(e)[-1L]) if (!missing(argument)) visit(argument)
    invisible()
  }
  for (variable in as.list(attr(terms, "variables"))[-1L]) visit(variable)
  if (length(offending)) {
    dpglmnet_abort("x", sprintf(paste(
      "has term%s %s computed from all the records (a summary of a column, or",
      "cut() with a number of breaks, taken from its range): the constants",
      "it takes are statistics of the data, which a private fit must not hold.",
      "Give per-record transformations only (log(x), x^2, I(x / 100)), and",
      "cut() with explicit breaks (cut(age, c(18, 30, 50, 90)))."),
      if (length(offending) > 1L) "s" else "",
      paste0("`", unique(offending), "`", collapse = ", ")))
  }
  invisible()
}

# Whether a cut() call gives its breaks as a vector of two or more (a
# literal, c(...), seq(...), or a variable of the formula's environment).
explicit_breaks <- function(call, env) {
  matched <- tryCatch(match.call(base::cut.default, call), error = function(e) NULL)
  breaks <- if (!is.null(matched)) matched$breaks
  if (is.null(breaks)) return(FALSE)
  if (is.numeric(breaks)) return(length(breaks) >= 2L)
  if (is.name(breaks) || (is.call(breaks) &&
                          as.character(breaks[[1L]])[1L] %in% c("c", "seq", "seq_len", ":"))) {
    value <- tryCatch(eval(breaks, env), error = function(e) NULL)
    return(is.numeric(value) && length(value) >= 2L)
  }
  FALSE
}

# "numeric", "factor", "logical" or "character": how a column enters the
# design. Anything else (dates, lists, complex numbers) is refused by
# check_frame_columns().
categorical_class <- function(column) {
  if (is.factor(column)) "factor"
  else if (is.logical(column)) "logical"
  else if (is.character(column)) "character"
  else "numeric"
}

# Every predictor column: numeric (or a numeric matrix, e.g. poly()),
# logical, factor or character; no missing value (no row is dropped
# silently), no infinite one, factors with at least two levels.
check_frame_columns <- function(frame, arg) {
  supported <- vapply(frame, function(column) {
    is.factor(column) || is.logical(column) || is.character(column) ||
      (is.numeric(column) && (!is.object(column) || inherits(column, "AsIs")))
  }, logical(1))
  if (!all(supported)) {
    bad <- names(frame)[!supported]
    dpglmnet_abort(arg, sprintf(paste(
      "has column%s %s of class %s: columns must be numeric, logical, factor or",
      "character (convert dates and other classes to numbers first)."),
      if (length(bad) > 1L) "s" else "", paste0("`", bad, "`", collapse = ", "),
      paste(unique(vapply(frame[bad], function(v) class(v)[1L], "")), collapse = ", ")))
  }
  with_na <- names(frame)[vapply(frame, anyNA, logical(1))]
  if (length(with_na)) {
    dpglmnet_abort(arg, sprintf(paste(
      "has missing values in column%s %s: rows are never dropped silently;",
      "remove or impute them first."), if (length(with_na) > 1L) "s" else "",
      paste0("`", with_na, "`", collapse = ", ")))
  }
  infinite <- names(frame)[vapply(frame, function(v) is.numeric(v) && any(is.infinite(v)),
                                  logical(1))]
  if (length(infinite)) {
    dpglmnet_abort(arg, sprintf("has infinite values in column%s %s.",
                                if (length(infinite) > 1L) "s" else "",
                                paste0("`", infinite, "`", collapse = ", ")))
  }
  one_level <- names(frame)[vapply(frame, function(v) is.factor(v) && nlevels(v) < 2L,
                                   logical(1))]
  if (length(one_level)) {
    dpglmnet_abort(arg, sprintf(paste(
      "has factor column%s %s with fewer than two levels: a treatment contrast",
      "needs two; drop the column."), if (length(one_level) > 1L) "s" else "",
      paste0("`", one_level, "`", collapse = ", ")))
  }
  invisible()
}

# The response of a formula: no missing value.
check_frame_response <- function(y, name) {
  if (anyNA(y)) {
    dpglmnet_abort("data", sprintf(paste(
      "has missing values in the response `%s`: rows are never dropped",
      "silently; remove them first."), name))
  }
  y
}

# A character column's levels are its sorted distinct values in the data:
# the fit keeps them (coefficient names, predict()), so they are released
# as they are. That is private only when the set of values is public.
warn_character_levels <- function(columns, arg) {
  if (!length(columns)) return(invisible())
  dpglmnet_warn(sprintf(paste(
    "character column%s %s of `%s`: %s levels are taken from the values in the",
    "data, and the fit reveals them (as coefficient names). This is private only",
    "if that set of values is public schema; declare it with factor(..., levels",
    "= <the public list>) instead."), if (length(columns) > 1L) "s" else "",
    paste0("`", columns, "`", collapse = ", "), arg,
    if (length(columns) > 1L) "their" else "its"))
}

# The interval of every numeric variable, from `x.bounds`: one value b for
# all ([-b, b]), a numeric vector named by variable (symmetric bounds), a
# list named by variable whose entries are b or c(lower, upper), or a
# k x 2 matrix (lower, upper) whose rows are named by variable. Returns a
# 2 x k matrix (rows lower, upper; columns the numeric variables), or NULL
# when `x.bounds` is NULL and some variable is numeric (no bounds, as the
# matrix interface without them).
frame_variable_bounds <- function(x.bounds, numeric_variables, categorical, arg) {
  # (an empty list or vector, as lapply() over no numeric column makes it,
  # is no bound at all)
  if (!is.null(x.bounds) && !length(x.bounds) && (is.list(x.bounds) || is.numeric(x.bounds)) &&
      !is.object(x.bounds)) {
    x.bounds <- NULL
  }
  if (is.null(x.bounds)) {
    if (length(numeric_variables)) return(NULL)
    return(matrix(numeric(0), 2L, 0L))
  }
  form <- paste(
    "must be named by the numeric columns of `%s`: a numeric vector of symmetric",
    "bounds (e.g. c(age = 90)), a list of them or of intervals (e.g. list(age =",
    "c(18, 90))), a 2-column matrix (lower, upper) with rows named by column, or",
    "one value for all of them")
  if (is.matrix(x.bounds) && !is.list(x.bounds)) {
    if (!is.numeric(x.bounds) || ncol(x.bounds) != 2L || is.null(rownames(x.bounds))) {
      dpglmnet_abort("x.bounds", sprintf(paste0(form, "; not a %d x %d %s matrix%s."),
                                         arg, nrow(x.bounds), ncol(x.bounds),
                                         typeof(x.bounds),
                                         if (is.null(rownames(x.bounds))) " without row names"
                                         else ""))
    }
    x.bounds <- stats::setNames(lapply(seq_len(nrow(x.bounds)), function(i)
      unname(x.bounds[i, ])), rownames(x.bounds))
  }
  is_list <- is.list(x.bounds) && !is.object(x.bounds)
  if (!is_list && (!is.numeric(x.bounds) || is.object(x.bounds))) {
    dpglmnet_abort("x.bounds", sprintf(paste0(form, ", not %s."), arg,
                                       class(x.bounds)[1L]))
  }
  bound_names <- names(x.bounds)
  if (is.null(bound_names)) {
    if (is_list || length(x.bounds) != 1L) {
      dpglmnet_abort("x.bounds", sprintf(paste(
        "must be named by the numeric columns of `%s` (e.g. c(age = 90) or",
        "list(age = c(18, 90))), or be one value for all of them: the expanded",
        "columns do not follow the columns of a data frame one to one."), arg))
    }
    bounds <- check_numeric(x.bounds, "x.bounds", lower = 1e-100, upper = 1e100)
    return(matrix(c(-bounds, bounds), 2L, length(numeric_variables),
                  dimnames = list(NULL, numeric_variables)))
  }
  if (anyNA(bound_names) || any(!nzchar(bound_names)) || anyDuplicated(bound_names)) {
    dpglmnet_abort("x.bounds", "must have unique, non-empty names.")
  }
  on_categorical <- intersect(bound_names, categorical)
  if (length(on_categorical)) {
    dpglmnet_abort("x.bounds", sprintf(paste(
      "names the factor, logical or character column%s %s: %s dummy columns are",
      "0/1 and get the interval [0, 1] automatically; drop %s from `x.bounds`."),
      if (length(on_categorical) > 1L) "s" else "",
      paste0("`", on_categorical, "`", collapse = ", "),
      if (length(on_categorical) > 1L) "their" else "its",
      if (length(on_categorical) > 1L) "them" else "it"))
  }
  unknown <- setdiff(bound_names, numeric_variables)
  if (length(unknown)) {
    dpglmnet_abort("x.bounds", sprintf(paste(
      "names %s, which %s no numeric variable of the model (its numeric",
      "variables, as the formula computes them from `%s`: %s; a transformed",
      "column is bounded as the formula uses it, e.g. c(\"log(age)\" = 5))."),
      paste0("`", unknown, "`", collapse = ", "), if (length(unknown) > 1L) "are" else "is",
      arg, if (length(numeric_variables)) paste0("`", numeric_variables, "`", collapse = ", ")
           else "none"))
  }
  absent <- setdiff(numeric_variables, bound_names)
  if (length(absent)) {
    dpglmnet_abort("x.bounds", sprintf(paste(
      "has no bound for the numeric column%s %s of `%s`: give one per numeric",
      "column by name (dummy columns of factors need none)."),
      if (length(absent) > 1L) "s" else "", paste0("`", absent, "`", collapse = ", "), arg))
  }
  if (is_list) {
    intervals <- interval_entries(x.bounds)  # R/bounds.R: b -> c(-b, b)
    checked <- check_intervals(intervals[1L, ], intervals[2L, ], bound_names)
    intervals <- rbind(checked$lower, checked$upper)
  } else {
    bounds <- check_numeric(unname(x.bounds), "x.bounds", lower = 1e-100, upper = 1e100,
                            length = NULL)
    intervals <- rbind(-bounds, bounds)
  }
  colnames(intervals) <- bound_names
  intervals[, numeric_variables, drop = FALSE]
}

# The interval of each expanded column (a p x 2 matrix, columns lower and
# upper): the product of the intervals of the variables of its term (a
# dummy is 0/1, the interval [0, 1]; a numeric variable its interval, on
# each of its columns), so interactions are bounded too: the product of
# values in [a, b] and [c, d] lies in [min, max] of the four corner
# products. A symmetric design (no dummies, symmetric bounds) gives
# [-b, b], as the symmetric bounds did. NULL when the numeric variables have
# no bounds.
design_bounds <- function(variable_bounds, terms, assign, numeric_variables,
                          poly_ranges = list()) {
  if (is.null(variable_bounds)) return(NULL)
  factors <- attr(terms, "factors")
  variables <- rownames(factors)
  product <- function(interval, factor) {
    if (is.null(interval)) return(factor)
    corners <- c(interval[1L] * factor, interval[2L] * factor)
    c(min(corners), max(corners))
  }
  term_interval <- vapply(seq_len(ncol(factors)), function(k) {
    used <- variables[factors[, k] > 0]
    numeric_used <- intersect(used, numeric_variables)
    interval <- if (length(setdiff(used, numeric_variables))) c(0, 1) else NULL
    # an ordered factor's polynomial columns take values in the range of
    # its contrasts
    # (where model.matrix() codes it by contrasts, factors[v, k] == 1; where
    # the term lacks its margin, 2, it codes it by 0/1 indicators)
    contrast_coded <- variables[factors[, k] == 1L]
    for (v in intersect(contrast_coded, names(poly_ranges))) {
      interval <- product(interval, poly_ranges[[v]])
    }
    for (v in numeric_used) {
      factor <- variable_bounds[, v]
      interval <- if (is.null(interval)) factor else {
        corners <- c(interval[1L] * factor, interval[2L] * factor)
        c(min(corners), max(corners))
      }
    }
    if (is.null(interval)) c(0, 1) else interval
  }, numeric(2))
  bounds <- t(term_interval[, assign, drop = FALSE])
  colnames(bounds) <- c("lower", "upper")
  # A column of a term of factors only (a dummy, or a product of dummies)
  # is 0/1 by construction: public schema that the standardization reads
  # (R/standardize.R: its mean is released, its spread follows from it).
  categorical_only <- vapply(seq_len(ncol(factors)), function(k) {
    !length(intersect(variables[factors[, k] > 0], numeric_variables)) &&
      !length(intersect(variables[factors[, k] == 1L], names(poly_ranges)))
  }, logical(1))
  attr(bounds, "binary") <- unname(categorical_only[assign])
  # The columns of one such term have disjoint supports: with treatment
  # contrasts (or the full coding a term gets without a lower-order one)
  # each record has at most one of them non-zero. A term of two or more
  # columns is a block (its term number; 0: none), which DP-CD releases as
  # one unit (src/dpglmnet/dpcd.h, R/dpcd.R).
  columns_of_term <- tabulate(assign, nbins = ncol(factors))
  attr(bounds, "factor_block") <- unname(ifelse(
    categorical_only[assign] & columns_of_term[assign] >= 2L, assign, 0L))
  if (any(abs(bounds) > 1e100)) {
    dpglmnet_abort("x.bounds", paste(
      "multiply to more than 1e100 on an interaction column: give smaller bounds."))
  }
  bounds
}

# dpglmnet() on a data frame or a formula: the design, then the matrix
# interface with the other arguments as given, then the recipe and the
# public call.
fit_from_frame <- function(call, env) {
  values <- given_arguments(call, env, names(formals(dpglmnet)))
  design <- frame_design(values)
  arguments <- values[setdiff(names(values), c("x", "y", "data", "x.bounds"))]
  arguments["x.bounds"] <- list(design$x.bounds)
  fit <- treatment_fit(fit_matrix(dpglmnet, design$x, design$y, arguments), design$coding)
  fit <- attach_recipe(fit, design$recipe)
  if (!is.null(fit)) fit$privacy <- note_disclosures(fit$privacy, design$disclosures)
  fit$call <- frame_call(call, "dpglmnet")
  fit
}

# `fun`(x = x, y = y, <arguments>) with x and y passed by name, so that the
# call the matrix interface records names them instead of holding records.
fit_matrix <- function(fun, x, y, arguments) {
  eval(as.call(c(list(fun, x = quote(x), y = quote(y)), arguments)))
}

attach_recipe <- function(fit, recipe) {
  if (!is.null(fit)) fit$recipe <- recipe
  fit
}

# The call a frame fit keeps: no data (a fit holds no record). A formula
# is public schema and is kept; the data frame and the response only as
# symbols.
frame_call <- function(call, name) {
  data <- c("y", "data", if (!inherits(eval_formula_or_null(call$x), "formula")) "x")
  public_call(call, name, data = data)
}

eval_formula_or_null <- function(value) {
  if (inherits(value, "formula")) return(value)
  if (is.call(value) && identical(value[[1L]], as.name("~"))) return(stats::as.formula(value))
  NULL
}

#' Cross-validation entry for data frames and formulas
#'
#' `cv.dpglmnet()` reaches this when `x` is a data frame or a formula (one
#' line at its top): the frame is expanded as [dpglmnet()] expands it, the
#' matrix interface of [cv.dpglmnet()] runs on the expansion, and the fits
#' it returns keep the recipe, so `predict(cvfit, newx = <data frame>)`
#' works.
#' @param call,env The call of `cv.dpglmnet()` and its evaluation frame.
#' @return A `"cv.dpglmnet"` object.
#' @keywords internal
#' @noRd
cv_dpglmnet_frame <- function(call, env) {
  values <- given_arguments(call, env, names(formals(cv.dpglmnet)))
  design <- frame_design(values)
  arguments <- values[setdiff(names(values), c("x", "y", "data", "x.bounds"))]
  arguments["x.bounds"] <- list(design$x.bounds)
  cvfit <- treatment_cv(fit_matrix(cv.dpglmnet, design$x, design$y, arguments), design$coding)
  cvfit$dpglmnet.fit <- attach_recipe(cvfit$dpglmnet.fit, design$recipe)
  cvfit$refit <- attach_recipe(cvfit$refit, design$recipe)
  cvfit <- note_cv_disclosures(cvfit, design$disclosures)
  cvfit$call <- frame_call(call, "cv.dpglmnet")
  cvfit
}

# predict()'s `newx` as a data frame, for a fit made from one: the same
# expansion (terms, levels, treatment contrasts) as the fit's records.
expand_newx <- function(newx, recipe) {
  terms <- stats::delete.response(recipe$terms)
  absent <- setdiff(all.vars(terms), names(newx))
  if (length(absent)) {
    dpglmnet_abort("newx", sprintf("has no column %s, which the fit uses.",
                                   paste0("`", absent, "`", collapse = ", ")))
  }
  used <- intersect(names(newx), all.vars(terms))
  with_na <- used[vapply(newx[used], anyNA, logical(1))]
  if (length(with_na)) {
    dpglmnet_abort("newx", sprintf(paste(
      "has missing values in column%s %s: predictions need every value."),
      if (length(with_na) > 1L) "s" else "", paste0("`", with_na, "`", collapse = ", ")))
  }
  for (name in intersect(names(recipe$xlevels), names(newx))) {
    values <- newx[[name]]
    if (is.factor(values) || is.character(values)) {
      unseen <- setdiff(unique(as.character(values)), recipe$xlevels[[name]])
      if (length(unseen)) {
        dpglmnet_abort("newx", sprintf(paste(
          "column `%s` has level%s %s that the fit does not know (its levels: %s)."),
          name, if (length(unseen) > 1L) "s" else "",
          paste0("\"", unseen, "\"", collapse = ", "),
          paste0("\"", recipe$xlevels[[name]], "\"", collapse = ", ")))
      }
    }
  }
  frame <- tryCatch(
    stats::model.frame(terms, newx, xlev = recipe$xlevels, na.action = stats::na.pass),
    error = function(e) dpglmnet_abort("newx", sprintf(
      "could not be read as the fit's data were: %s", conditionMessage(e))))
  design <- tryCatch(
    stats::model.matrix(terms, frame,
                        contrasts.arg = if (length(recipe$contrasts)) recipe$contrasts),
    error = function(e) dpglmnet_abort("newx", sprintf(
      "could not be expanded as the fit's data were: %s", conditionMessage(e))))
  design <- design[, colnames(design) != "(Intercept)", drop = FALSE]
  attr(design, "assign") <- NULL
  attr(design, "contrasts") <- NULL
  design
}
