# Coordinate-wise smoothness constants M_j of the data-fitting term, which
# set DP-CD's step sizes gamma_j = step / M_j and clipping thresholds
# C_j = sqrt(M_j / tr M) clip (Mangold et al. 2022, Sec. 5). They depend on
# the data, so they are either public (bounds, uniform, user-given), private
# (Laplace mechanism, charged), or exact (epsilon = Inf only).

# Returns list(source, values (length p), laplace_epsilon, laplace_scale).
# `x` is unclamped: the C++ core clamps it to `x.bounds` (or NULL) as it reads.
resolve_smoothness <- function(smoothness, x, curvature, epsilon, budget,
                               x.bounds, rng) {
  p <- ncol(x)
  public <- function(source, values) {
    list(source = source, values = values, laplace_epsilon = 0,
         laplace_scale = NULL)
  }
  if (is.numeric(smoothness)) return(public("user", smoothness))
  switch(smoothness,
    uniform = public("uniform", rep(curvature, p)),
    bounds = public("bounds", curvature * x.bounds^2),
    exact = public("exact", .exact_smoothness_cpp(x, x.bounds, curvature)),
    private = {
      if (!is.finite(epsilon)) {
        public("exact", .exact_smoothness_cpp(x, x.bounds, curvature))
      } else {
        eps_s <- budget * epsilon
        released <- .private_smoothness_cpp(x, x.bounds, curvature, x.bounds, eps_s,
                                            draw_seed(), rng == "secure")
        list(source = "private", values = released$smoothness,
             laplace_epsilon = eps_s, laplace_scale = released$laplace_scale)
      }
    }
  )
}

# The default source and the checks that tie smoothness to other arguments.
choose_smoothness <- function(smoothness, p, epsilon, x.bounds) {
  if (is.null(smoothness)) {
    if (!is.finite(epsilon)) return("exact")
    if (!is.null(x.bounds)) return("private")
    message("dpglmnet: no `x.bounds` given, so smoothness = \"uniform\": ",
            "every coordinate gets the same step and clipping threshold and ",
            "imbalance across features is not exploited. Give `x.bounds` ",
            "(public bounds on |x_ij|) for private smoothness constants.")
    return("uniform")
  }
  if (is.numeric(smoothness) && !is.object(smoothness)) {
    return(check_numeric(smoothness, "smoothness", lower = 0, lower_open = TRUE,
                         length = p))
  }
  smoothness <- check_choice(smoothness, c("private", "bounds", "uniform", "exact"),
                             "smoothness")
  if (smoothness %in% c("private", "bounds") && is.null(x.bounds)) {
    dpglmnet_abort("x.bounds", sprintf(
      "must be given for smoothness = \"%s\" (public bounds on |x_ij|).",
      smoothness))
  }
  if (smoothness == "exact" && is.finite(epsilon)) {
    dpglmnet_abort("smoothness", paste(
      "= \"exact\" reads the data without privacy and is only allowed with",
      "epsilon = Inf; use \"private\" (with x.bounds), \"bounds\" or \"uniform\"."))
  }
  smoothness
}

# The smoothness constants of a checked problem (see check_problem()), with
# `coordinates`: the features' constants followed by the intercept's (its
# feature is the constant 1, so its constant is the public curvature).
problem_smoothness <- function(problem) {
  smooth <- resolve_smoothness(problem$smoothness, problem$x, problem$curvature,
                               problem$epsilon, problem$smoothness.budget,
                               problem$x.bounds, problem$rng)
  smooth$coordinates <- c(smooth$values,
                          if (problem$intercept) problem$curvature)
  smooth
}
