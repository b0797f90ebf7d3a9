# model.matrix()'s column of ones in a matrix `x`.
#
# A glmnet script often passes `model.matrix(y ~ ., d)` with its first
# column, "(Intercept)", all ones. glmnet gives that column the coefficient
# 0: its standardization finds a standard deviation of 0. A private fit
# cannot see that a column is constant without a release (the bound-scaled
# and unscaled fits make none), so it fitted the column beside the
# intercept and printed the split of one effect between two collinear
# coordinates (1.01 and -0.96 for an intercept of 0.05). The column's name
# is public schema, as every column name is: with an intercept, a column
# named "(Intercept)" is left out of the fit (no budget is spent on it) and
# comes back with the coefficient exactly 0. Without an intercept it is the
# user's way to have one, and is fitted as any column.

# The columns of `x` taken as model.matrix()'s column of ones (none
# without an intercept, or when x has no other column).
ones_columns <- function(x, intercept) {
  if (!isTRUE(intercept)) return(integer(0))
  names <- tryCatch(colnames(x), error = function(e) NULL)
  if (!is.character(names) || length(names) < 2L) return(integer(0))
  ones <- which(names == "(Intercept)")
  if (length(ones) == length(names)) integer(0) else ones
}

# `fun` (dpglmnet() or cv.dpglmnet(), matrix x) called with `call` from
# the frame `env`, run without the columns `ones`: the per-column arguments
# (checked against all p columns first, so that a wrong length or value is
# named as without the rule) lose their entries, and the fit(s) get the
# columns back at 0.
fit_without_ones <- function(fun, name, call, env, ones) {
  values <- given_arguments(call, env, names(formals(fun)))
  x <- values[["x", exact = TRUE]]
  p <- ncol(x)
  arguments <- values[setdiff(names(values), c("x", "y"))]
  given <- function(argument) arguments[[argument, exact = TRUE]]
  if (!is.null(given("penalty.factor"))) {
    check_numeric(given("penalty.factor"), "penalty.factor", lower = 0, length = p)
  }
  if (!is.null(given("lower.limits"))) {
    check_numeric(given("lower.limits"), "lower.limits", upper = 0, length = c(1L, p),
                  finite = FALSE)
  }
  if (!is.null(given("upper.limits"))) {
    check_numeric(given("upper.limits"), "upper.limits", lower = 0, length = c(1L, p),
                  finite = FALSE)
  }
  if (!is.null(given("x.bounds"))) {
    # (bounds named by column need none for the column of ones: a list
    # naming the other columns is checked against them)
    bounds <- given("x.bounds")
    if (bounds_by_name(bounds, colnames(x)) && !is.null(colnames(x)) &&
        !any(colnames(x)[ones] %in% names(bounds))) {
      check_x_bounds(bounds, p - length(ones), colnames(x)[-ones], is_sparse_x(x))
    } else {
      check_x_bounds(bounds, p, colnames(x), is_sparse_x(x))
    }
  }
  factors <- given("penalty.factor")
  for (column_argument in intersect(c("penalty.factor", "lower.limits", "upper.limits",
                                      "smoothness"), names(arguments))) {
    value <- arguments[[column_argument]]
    if (is.numeric(value) && is.null(dim(value)) && length(value) == p) {
      arguments[[column_argument]] <- value[-ones]
    }
  }
  if (!is.null(given("x.bounds"))) {
    arguments["x.bounds"] <- list(bounds_without(given("x.bounds"), ones, p))
  }
  # glmnet scales penalty.factor to sum to p over every column, the
  # constant one too, so that its effective penalties are lambda pf_j p /
  # sum(pf); the fit without the columns scales over the p - k others. Its
  # lambdas are taken `ratio` times glmnet's, which gives each column
  # glmnet's penalty, and reported on glmnet's scale.
  ratio <- 1
  if (!is.null(factors) && sum(factors[-ones]) > 0) {
    ratio <- p * sum(factors[-ones]) / ((p - length(ones)) * sum(factors))
  }
  if (ratio != 1 && !is.null(given("lambda"))) arguments$lambda <- given("lambda") * ratio
  # (glmnet's default lambda.min.ratio reads n < p with the columns kept)
  if (!is_cv_function(name) && !"lambda.min.ratio" %in% names(arguments)) {
    arguments$lambda.min.ratio <- if (nrow(x) < p) 0.01 else 1e-4
  }
  fitted <- fit_matrix(fun, x[, -ones, drop = FALSE], values[["y", exact = TRUE]],
                       arguments)
  names <- colnames(x)
  full_factors <- if (!is.null(factors)) factors * p / sum(factors)
  if (inherits(fitted, "cv.dpglmnet")) {
    fitted$dpglmnet.fit <- with_ones_columns(fitted$dpglmnet.fit, ones, names, ratio,
                                             full_factors)
    fitted$refit <- with_ones_columns(fitted$refit, ones, names, ratio, full_factors)
    if (ratio != 1 && !is_radius_path(fitted$dpglmnet.fit)) {
      for (field in c("lambda", "lambda.min", "lambda.1se")) {
        fitted[[field]] <- fitted[[field]] / ratio
      }
    }
  } else {
    fitted <- with_ones_columns(fitted, ones, names, ratio, full_factors)
  }
  fitted$call <- public_call(call, name)
  fitted
}

is_cv_function <- function(name) identical(name, "cv.dpglmnet")

# x.bounds without the entries of the columns `ones`, in each of its forms
# (?dpglmnet): one value or one interval for all columns stay as they are;
# a named list or a matrix with row names lose the name "(Intercept)"; one
# value or one row per column lose the positions. Any other shape is left
# to the checks, which name the argument.
bounds_without <- function(bounds, ones, p) {
  if (is.list(bounds) && !is.data.frame(bounds)) {
    return(bounds[names(bounds) != "(Intercept)"])
  }
  if (is.data.frame(bounds)) bounds <- as.matrix(bounds)
  if (is.matrix(bounds) && nrow(bounds) > 1L) {
    if (!is.null(rownames(bounds))) {
      return(bounds[rownames(bounds) != "(Intercept)", , drop = FALSE])
    }
    if (nrow(bounds) == p) return(bounds[-ones, , drop = FALSE])
    return(bounds)
  }
  if (is.atomic(bounds) && is.null(dim(bounds)) && length(bounds) == p) {
    return(bounds[-ones])
  }
  bounds
}

# A fit on the other columns with the columns `ones` back at their places:
# coefficient 0 at every lambda, taken as the constant 1 (their clamp is
# [1, 1], so predict() ignores the values given for them), no noise on them;
# its lambdas on glmnet's scale (`ratio`, above) and the penalty factors
# as glmnet scales them (`full_factors`, NULL when not given).
with_ones_columns <- function(fit, ones, names, ratio = 1, full_factors = NULL) {
  if (is.null(fit)) return(fit)
  if (ratio != 1 && !is_radius_path(fit)) {
    fit$lambda <- fit$lambda / ratio
    if (!is.null(fit$settings$lambda_max)) {
      fit$settings$lambda_max <- fit$settings$lambda_max / ratio
    }
  }
  p <- length(names)
  keep <- setdiff(seq_len(p), ones)
  order <- order(c(keep, ones))
  expand <- function(values, fill) {
    if (!(is.atomic(values) && length(values) == length(keep))) return(values)
    c(values, rep(fill, length(ones)))[order]
  }
  beta <- as.matrix(fit$beta)
  full <- matrix(0, p, ncol(beta))
  full[keep, ] <- beta
  fit$beta <- sparse_path_matrix(full, names, colnames(beta))
  fit$dim <- dim(fit$beta)
  if (!is.null(fit$vertices)) {
    # (vertex 2j - 1 is +R e_j, 2j is -R e_j, over the fitted columns)
    column <- keep[(fit$vertices + 1L) %/% 2L]
    fit$vertices[] <- as.integer(2L * column - fit$vertices %% 2L)
  }
  s <- fit$settings
  fills <- c(penalty.factor = 1, lower.limits = 0, upper.limits = 0, x.bounds = 1,
             x.lower = 1, x.upper = 1, coefficient_noise = 0, bound_scale = 0)
  for (setting in intersect(coding_column_settings, names(s))) {
    if (setting == "coefficient_noise" && identical(s$coefficient_noise_per, "lambda")) next
    s[[setting]] <- expand(s[[setting]], fills[[setting]])
  }
  for (setting in intersect(coding_coordinate_settings, names(s))) {
    values <- s[[setting]]
    # one value per column, then the intercept's
    if (is.atomic(values) && length(values) == length(keep) + 1L) {
      s[[setting]] <- c(expand(values[seq_along(keep)], 0), values[length(values)])
    }
  }
  # (the check's one per-column field; its others are scalars, which a fit
  # of one kept column would otherwise take for columns: a review)
  if (is.list(s$signal_check) && !is.null(s$signal_check$first_pass_z)) {
    s$signal_check$first_pass_z <- expand(s$signal_check$first_pass_z, 0)
  }
  r <- s$standardization
  if (is.list(r)) {
    standardization_fills <- list(x_center = 1, x_scale = 0, x_mean = 1, x_sd = 0,
                                  x_lower = 1, x_upper = 1, x_constant = TRUE)
    for (field in grep("^x_", names(r), value = TRUE)) {
      fill <- standardization_fills[[field]]
      if (is.null(fill)) fill <- if (is.logical(r[[field]])) FALSE else 0
      r[[field]] <- expand(r[[field]], fill)
    }
    s$standardization <- r
  }
  if (!is.null(full_factors)) s$penalty.factor <- full_factors
  s$ones_columns <- names[ones]
  fit$settings <- s
  fit
}

# What print() and summary() say of those columns.
ones_column_text <- function(settings) {
  if (!length(settings$ones_columns)) return(invisible())
  cat(wrap_text(paste(
    "Column \"(Intercept)\": taken as model.matrix()'s column of ones, left out of",
    "the fit and given the coefficient 0, as glmnet gives a constant column",
    "(the intercept is fitted on its own)")), sep = "\n")
}
