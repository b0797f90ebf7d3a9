# Coordinate-wise smoothness constants M_j of the data-fitting term, which
# set DP-CD's step sizes gamma_j = step / M_j and clipping thresholds
# C_j = sqrt(M_j / tr M) clip (Mangold et al. 2022, Sec. 5). They depend on
# the data, so they are either public (bounds, uniform, user-given), private
# (Laplace mechanism, charged), or exact (epsilon = Inf only).

# Returns list(source, values (length p), laplace_epsilon, laplace_scale).
# `value_bounds` bound |x_ij| as the core reads x (x.bounds, or the
# standardized bounds; with interval bounds [lower_j, upper_j] the envelope
# max(|lower_j|, |upper_j|), a valid bound on |x_ij| once x is clamped to the
# interval, so the Laplace sensitivity curvature value_bounds^2 / n and the
# public "bounds" constants stay valid: x_ij^2 of a clamped value is at most
# envelope^2); `standardized` holds the constants that follow from
# the released standardization moments.
resolve_smoothness <- function(smoothness, x, curvature, epsilon, budget,
                               value_bounds, rng, transform, standardized = NULL,
                               released = NULL, weights = NULL, weight_factor = 1,
                               ledger = NULL) {
  p <- ncol(x)
  public <- function(source, values) {
    list(source = source, values = values, laplace_epsilon = 0, laplace_scale = NULL)
  }
  exact <- function() {
    exact_smoothness(x, list(transform = transform, curvature = curvature,
                             weights = weights))
  }
  if (is.numeric(smoothness)) return(public("user", smoothness))
  switch(smoothness,
    uniform = public("uniform", rep(curvature, p)),
    # (with weights omega_i <= W n / S_released = weight_factor: R/weights.R)
    bounds = public("bounds", curvature * value_bounds^2 * weight_factor),
    exact = public("exact", exact()),
    standardized = public("standardized", standardized),
    # released by release_scales() (R/scales.R), charged there
    quantile = {
      if (is.null(released)) stop("internal error: the quantile smoothness was not released")
      list(source = if (is.finite(epsilon)) "private (quantile)" else "exact (quantile)",
           values = released, laplace_epsilon = 0, laplace_scale = NULL)
    },
    private = {
      if (!is.finite(epsilon)) {
        public("exact", exact())
      } else {
        eps_s <- budget * epsilon
        # Laplace scale: the row's noise multiplier p / eps_s x b_j / n
        # (record_smoothness_sensitivity())
        released <- .private_smoothness_cpp(x, list(
          transform = transform, curvature = curvature, value_bound = value_bounds,
          scale = release_noise(ledger, "smoothness"), seed = draw_seed(),
          secure = rng == "secure"))
        list(source = "private", values = released$smoothness,
             laplace_epsilon = eps_s, laplace_scale = released$laplace_scale)
      }
    }
  )
}

# The ledger row of private smoothness constants (public: it depends on the
# budget and p only), or NULL: p Laplace releases of means of values in
# [0, b_j], replace-one sensitivity b_j / n, scale p b_j / (n eps_s), so
# noise multiplier p / eps_s each (src/dpglmnet/smoothness.h).
smoothness_mechanism <- function(problem) {
  if (!identical(problem$smoothness, "private") || !is.finite(problem$epsilon)) {
    return(NULL)
  }
  eps_s <- problem$smoothness.budget * problem$epsilon
  mechanism("smoothness constants M_j (clamped per-record x_ij^2)", "laplace",
            problem$p, "b_j / n, b_j = curvature (bound of the values read)^2",
            noise_multiplier = problem$p / eps_s, key = "smoothness")
}

# Records the sensitivities of the private smoothness constants on their
# row, before the release (R/solvers.R): b_j / n per column, b_j =
# curvature value_bounds_j^2 (the bounds of x as the solver reads it;
# private constants are not offered with weights).
record_smoothness_sensitivity <- function(problem) {
  if (!identical(problem$smoothness, "private") || !is.finite(problem$epsilon)) {
    return(problem)
  }
  problem$ledger <- record_sensitivity(problem$ledger, "smoothness",
                                       problem$curvature * problem$value_bounds^2 / problem$n)
  problem
}

# The default source and the checks that tie smoothness to other arguments.
choose_smoothness <- function(smoothness, p, epsilon, x.bounds, standardize,
                              private_default = "quantile", weighted = FALSE,
                              warn_unit_scale = TRUE) {
  if (is.null(smoothness)) {
    # Standardized columns: the constants follow from the released moments.
    if (standardize) return("standardized")
    if (!is.finite(epsilon)) return("exact")
    # with weights: the public constants from bounds (R/weights.R)
    if (weighted && !is.null(x.bounds)) return("bounds")
    # The solver's private default (R/solvers.R): DP-CD's quantile
    # constants (R/scales.R), DP-SGD's Laplace ones.
    if (!is.null(x.bounds)) return(private_default)
    # A warning, not a message: on columns far from unit scale these steps
    # make the coefficients noise or diverge, silently otherwise (infert,
    # binomial, epsilon 1: links of -190 to -330).
    if (warn_unit_scale) dpglmnet_warn(paste(
      "no `x.bounds` given, so the columns are used as they are, neither",
      "standardized nor scaled, with smoothness = \"uniform\": every coordinate",
      "gets the step and clipping threshold of a column of unit scale (|x_ij|",
      "about 1). On columns of other scales the coefficients can be noise or",
      "diverge (summary() prints the noise one update adds to each). Give",
      "`x.bounds` (public bounds on the columns) to standardize privately."))
    return("uniform")
  }
  if (is.numeric(smoothness) && !is.object(smoothness)) {
    return(check_numeric(smoothness, "smoothness", lower = 0, lower_open = TRUE,
                         length = p))
  }
  smoothness <- check_choice(smoothness, c("quantile", "private", "bounds", "uniform",
                                          "exact", "standardized"), "smoothness")
  if (smoothness == "standardized" && !standardize) {
    dpglmnet_abort("smoothness", "= \"standardized\" needs standardize = TRUE.")
  }
  if (smoothness %in% c("quantile", "private", "bounds") && is.null(x.bounds)) {
    dpglmnet_abort("x.bounds", sprintf(
      "must be given for smoothness = \"%s\" (public bounds on |x_ij|).",
      smoothness))
  }
  if (smoothness == "exact" && is.finite(epsilon)) {
    dpglmnet_abort("smoothness", paste(
      "= \"exact\" reads the data without privacy and is only allowed with",
      "epsilon = Inf; use \"quantile\" or \"private\" (with x.bounds), \"bounds\" or",
      "\"uniform\"."))
  }
  smoothness
}

# The smoothness constants of a checked problem (see check_problem()), with
# `coordinates`: the features' constants followed by the intercept's (its
# feature is the constant 1, so its constant is the public curvature).
problem_smoothness <- function(problem) {
  smooth <- resolve_smoothness(problem$smoothness, problem$x, problem$curvature,
                               problem$epsilon, problem$smoothness.budget,
                               problem$value_bounds, problem$rng, problem$transform,
                               problem$standardized_smoothness,
                               problem$released_smoothness, problem$weights,
                               if (is.null(problem$weight_factor)) 1
                               else problem$weight_factor, problem$ledger)
  smooth$coordinates <- c(smooth$values,
                          if (problem$intercept) problem$curvature)
  smooth
}
