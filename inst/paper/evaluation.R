# Evaluation tools for benchmarks and for reproducing the DP-CD paper. They
# read the data without privacy: use them to study the methods, not to
# release anything about private data. Part of the script library in
# inst/paper/ (see its README.md); load with
# source(system.file("paper", "load.R", package = "dpglmnet")).

# Objective value of a fit (evaluation tool, not private)
#
# glmnet's objective at each lambda of a fit: gaussian
# (1/2n) sum_i (y_i - b0 - x_i'b)^2 + lambda P(b), binomial
# -(1/n) log-likelihood + lambda P(b), with the fit's `alpha` and penalty
# factors. The paper's relative error is
# `(dpglmnet_objective(fit, x, y) - F_star) / F_star`.
#
# This reads `x` and `y` directly and is **not differentially private**: it
# is for evaluating methods (benchmarks, the paper's experiments), not for
# releasing results about private data.
#
# object: A `"dpglmnet"` fit.
# x, y: The data the objective is evaluated on (as given to dpglmnet(); a
#   binomial `y` may be a two-level factor, logical, 0/1 or -1/+1).
# Returns: A numeric vector, one value per lambda of the fit.
# Example:
# set.seed(1)
# x <- matrix(rnorm(200), 100, 2)
# y <- x[, 1] + rnorm(100)
# fit <- dpglmnet(x, y, lambda = 0.1, epsilon = Inf, passes = 50)
# dpglmnet_objective(fit, x, y)
dpglmnet_objective <- function(object, x, y) {
  if (!inherits(object, "dpglmnet")) {
    dpglmnet_abort("object", "must be a \"dpglmnet\" fit.")
  }
  x <- check_x(x)
  if (ncol(x) != object$dim[1L]) {
    dpglmnet_abort("x", sprintf("must have %d columns, not %d.", object$dim[1L], ncol(x)))
  }
  if (object$family == "binomial" && is.numeric(y) && all(y %in% c(-1, 1))) {
    y <- as.numeric(y > 0)
  }
  response <- check_y(y, nrow(x), object$family)$y
  link <- as.matrix(x %*% object$beta)
  link <- sweep(link, 2L, object$a0, "+")
  # the package's family object (R/family.R) is the one source of the loss
  data_fit <- colMeans(dpglmnet:::dpglmnet_family(object$family)$loss(link, response))
  # l1-ball solvers ("dpfw", "nmd"): the path is over radii of the
  # constraint, and the constrained problem has no penalty term.
  if (identical(object$settings$path_parameter, "radius")) return(as.numeric(data_fit))
  alpha <- object$settings$alpha
  pf <- object$settings$penalty.factor
  if (is.null(pf)) pf <- rep(1, object$dim[1L])
  beta <- as.matrix(object$beta)
  penalty <- colSums(pf * ((1 - alpha) / 2 * beta^2 + alpha * abs(beta)))
  as.numeric(data_fit + object$lambda * penalty)
}
