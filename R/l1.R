# The l1-ball solvers (private Frank-Wolfe, noisy mirror descent) as solvers
# of the private path skeleton (R/solvers.R). They solve the constrained
# LASSO
#   minimize (1/n) sum_i loss(b0 + x_i'b, y_i)  subject to ||b||_1 <= R
# over an increasing sequence of public radii R (the path parameter, kept
# where glmnet keeps lambda), with warm starts. The numerical work is in
# src/dpglmnet/frank_wolfe.h, src/dpglmnet/frank_wolfe_vr.h and
# src/dpglmnet/mirror_descent.h.

# The l1 solvers report the largest coefficient change over the last 10% of
# the steps of each radius (Frank-Wolfe: of the iterate; nmd: of the
# averaged output). With steps 2/(k+2) or averaged iterates the last 10%
# still moves a fixed fraction of the remaining error, so a change of 1e-3
# of the coefficient scale marks an unconverged run (dpfw: 0.004 after 1000
# steps, < 1e-4 after 10000 on the tests' problem, where 10000 steps reach
# 1e-6 relative objective error).
l1_unconverged <- function(note = "") {
  function(problem, settings, radius, relative) {
    sprintf(paste(
      "epsilon = Inf: the path has not converged (the last 10%% of the %s",
      "steps at radius %.4g still moved a coefficient by %.2g of its scale);",
      "increase `passes`%s."), format(settings$steps_per_radius), radius, relative, note)
  }
}

# What the l1-ball solvers declare in common (R/solvers.R): a path of radii,
# a clip per coordinate of 1 by default (dpfw; nmd clips a record's
# gradient), no smoothness constants, `step` unused or a multiple of a
# theory step (no divergence threshold).
l1_solver <- function(name, ..., default_clip = function(p, intercept) 1,
                      unconverged_message = l1_unconverged()) {
  new_solver(name, ..., by_radius = TRUE, default_clip = default_clip,
             step_limit = Inf, convergence_tolerance = 1e-3,
             unconverged_message = unconverged_message)
}

# The intercept of DP-FW is a Gaussian release per step with noise
# multiplier 3z: each costs 1/9 of a selection's zCDP (a selection at
# multiplier z is 1/(2z^2)-zCDP, as a Gaussian at z), so the intercept takes
# a tenth of the path's budget.
dpfw_intercept_factor <- 3

# The intercept's clip C0 (public): problem$intercept_clip when
# solver = "auto" set one (R/highdim.R), else the features' clip C.
dpfw_intercept_clip <- function(problem) {
  if (is.null(problem$intercept_clip)) problem$clip else problem$intercept_clip
}

dpfw_solver <- l1_solver("dpfw", sparse_shift = TRUE,
  setup = function(problem) {
    finite <- is.finite(problem$epsilon)
    list(clip = if (finite) problem$clip else Inf,
         # the intercept's own public clip C0 (solver = "auto" sets a larger
         # one, R/highdim.R); C otherwise
         intercept_clip = if (!finite) Inf else dpfw_intercept_clip(problem),
         steps = problem$passes, intercept_step = 1 / problem$curvature)
  },
  start_release = function(problem) NULL,
  releases = function(problem) {
    steps <- problem$nlambda * problem$passes
    Filter(Negate(is.null), list(
      mechanism("DP-FW vertex choices: report-noisy-max over the 2p vertices +-R e_j",
                "exponential", steps,
                "2 R C / n (utilities <+-R e_j, coordinate-clipped gradient>)",
                calibrated = TRUE, key = "path"),
      if (problem$intercept) {
        mechanism("DP-FW intercept: clipped gradient", "gaussian", steps,
                  sprintf("2 C0 / n (C0 = %s, the intercept's clip)",
                          format(dpfw_intercept_clip(problem))),
                  calibrated = TRUE, factor = dpfw_intercept_factor,
                  key = "path_intercept")
      }))
  },
  # The utilities <+-R e_j, g> of radius R have replace-one sensitivity
  # 2 R C / n (one per radius); the intercept's clipped gradient 2 C0 / n.
  sensitivity = function(problem, setup, radius) {
    c(list(path = 2 * radius * setup$clip / problem$n),
      if (problem$intercept) list(path_intercept = 2 * setup$intercept_clip / problem$n))
  },
  # Gumbel scale beta = z * Delta per radius (frank_wolfe.h); intercept noise
  # sd 3z 2 C0 / n (its row's multiplier).
  noise = function(problem, setup, ledger) {
    list(gumbel_scale = release_noise(ledger, "path"),
         intercept_noise_sd = if (problem$intercept) release_noise(ledger, "path_intercept")
                              else 0)
  },
  path = function(problem, setup, noise, radius) {
    .dpfw_path_cpp(problem$x, problem$y, core_settings(
      problem, radius = radius, clip = setup$clip, intercept_clip = setup$intercept_clip,
      # (sparse x centred by the solver: R/highdim.R, scale_by_bounds())
      shift = problem$fw_shift,
      gumbel_scale = noise$gumbel_scale,
      intercept_noise_sd = noise$intercept_noise_sd,
      intercept_step = setup$intercept_step, steps = setup$steps,
      keep_picks = TRUE))
  },
  settings = function(problem, setup, noise, lambda = NULL) {
    list(steps_per_radius = setup$steps, intercept_clip = setup$intercept_clip,
         gumbel_scale = noise$gumbel_scale,
         intercept_noise_sd = noise$intercept_noise_sd,
         intercept_step = setup$intercept_step)
  }
)

# The phases T and batch b of Algorithm 3 of Asi et al. (dpfw-vr) for n
# records, public: a run reads b (1 + t/2) records in phase t (the root's b
# and b / 2^j at each of the 2^(j-1) right children of depth j), so b (T +
# T (T + 1) / 4) in all, and the leaves need b / 2^T >= 1 (Lemma 4.1: 2^T <=
# b). T is `passes`, capped at the largest T these allow; b is the largest
# multiple of 2^T they allow (so every sample size b / 2^j is exact).
dpfw_vr_shape <- function(n, passes) {
  fits <- function(t) 2^t * (t + t * (t + 1) / 4) <= n
  if (!fits(1)) return(NULL)
  phases <- 1L
  while (phases < min(passes, 30L) && fits(phases + 1L)) phases <- phases + 1L
  per <- phases + phases * (phases + 1) / 4
  list(phases = phases, batch = as.integer(2^phases * floor(n / (2^phases * per))))
}

# The intercept of dpfw-vr is a second pure-DP release per run at noise
# multiplier 9z: a tenth of the path's epsilon (as dpfw's intercept).
dpfw_vr_intercept_factor <- 9

dpfw_vr_solver <- l1_solver("dpfw-vr",
  unconverged_message = l1_unconverged(paste(
    " (dpfw-vr: the phases, at most as many as n allows; its one pass",
    "over disjoint samples also leaves a sampling error)")),
  check = function(problem) {
    if (is.null(dpfw_vr_shape(problem$n, 1L))) {
      dpglmnet_abort("x", sprintf(paste(
        "has %d records: solver = \"dpfw-vr\" needs at least 3 (one phase reads",
        "a root sample of b >= 2 records and a correction sample of b / 2)."),
        problem$n))
    }
    problem
  },
  setup = function(problem) {
    shape <- dpfw_vr_shape(problem$n, problem$passes)
    c(shape, list(clip = if (is.finite(problem$epsilon)) problem$clip else Inf,
                  intercept_step = 1 / problem$curvature,
                  leaves = 2^(shape$phases + 1) - 2))
  },
  start_release = function(problem) NULL,
  # One row per radius run: Algorithm 3 with the Laplace scales of Theorem 6
  # at eps0 = 1 / (noise multiplier) is eps0-DP as a whole (each record in
  # one vertex's sample; frank_wolfe_vr.h), so a Laplace-kind row with
  # multiplier z and count nlambda spends nlambda / z by basic composition,
  # exactly the theorem's epsilon per run summed over the radii.
  releases = function(problem) {
    Filter(Negate(is.null), list(
      mechanism(paste("DP-FW-VR runs (Asi et al. 2021, Alg. 3): report-noisy-max",
                      "with Laplace noise at every leaf, one run per radius"),
                "laplace", problem$nlambda,
                paste("a whole run: (1/z)-DP by Theorem 6 (Laplace scale",
                      "lambda_t = z 2 L D 2^t / b, L = C, D = 2R; disjoint samples);",
                      "4 R C / b per radius at phase 0, times 2^t at phase t"),
                calibrated = TRUE, key = "path"),
      if (problem$intercept) {
        mechanism("DP-FW-VR intercept: Laplace on the variance-reduced intercept gradient",
                  "laplace", problem$nlambda,
                  paste("a whole run: (1/(9z))-DP (Laplace scale 9z 2C 2^t / b per leaf);",
                        "2 C / b at phase 0, times 2^t at phase t"),
                  calibrated = TRUE, factor = dpfw_vr_intercept_factor,
                  key = "path_intercept")
      }))
  },
  # lambda_t = 2 L D 2^t / (b eps0) with L = C, D = 2R, eps0 = 1/z (Theorem
  # 6): the sensitivity 2 L D / b = 4 R C / b of phase 0's leaves, per
  # radius (the core multiplies the scale by 2^t at phase t). Intercept:
  # 2C / b at phase 0.
  sensitivity = function(problem, setup, radius) {
    c(list(path = 4 * radius * setup$clip / setup$batch),
      if (problem$intercept) list(path_intercept = 2 * setup$clip / setup$batch))
  },
  noise = function(problem, setup, ledger) {
    list(laplace_scale = release_noise(ledger, "path"),
         intercept_multiplier = if (problem$intercept) release_noise(ledger, "path_intercept")
                                else 0)
  },
  path = function(problem, setup, noise, radius) {
    .dpfw_vr_path_cpp(problem$x, problem$y, core_settings(
      problem, radius = radius, clip = setup$clip,
      laplace_scale = noise$laplace_scale,
      intercept_multiplier = noise$intercept_multiplier,
      intercept_step = setup$intercept_step, phases = setup$phases,
      batch = setup$batch, keep_picks = TRUE))
  },
  settings = function(problem, setup, noise, lambda = NULL) {
    list(phases = setup$phases, batch = setup$batch,
         steps_per_radius = setup$leaves,
         # the Laplace scale of the last phase's leaves, per radius
         laplace_scale = noise$laplace_scale * 2^setup$phases,
         intercept_multiplier = noise$intercept_multiplier,
         intercept_step = setup$intercept_step)
  }
)

nmd_solver <- l1_solver("nmd",
  uses_batch = TRUE,  # reads `batch.size` (check_problem() checks it)
  default_clip = function(p, intercept) sqrt(p + intercept),
  setup = function(problem) {
    batch <- problem$batch.size
    steps <- ceiling(problem$passes * problem$n / batch)
    list(clip = if (is.finite(problem$epsilon)) problem$clip else Inf,
         batch = batch, rate = batch / problem$n, steps = steps,
         log_p = max(log(problem$p), 1))
  },
  start_release = function(problem) NULL,
  releases = function(problem) {
    rate <- problem$batch.size / problem$n
    steps <- ceiling(problem$passes * problem$n / problem$batch.size)
    list(mechanism("NMD clipped minibatch gradient sums", "gaussian",
                   problem$nlambda * steps, "2 C", calibrated = TRUE,
                   sampling = if (rate < 1) "without_replacement" else "none",
                   sampling_rate = rate, key = "path"))
  },
  sensitivity = function(problem, setup, radius) list(path = 2 * setup$clip),
  # Noise sd z 2C on the sum of m clipped gradients (replace-one sensitivity
  # 2C). Step (Asi et al. 2021, Theorem 3 / Lemma 3.1): with h = ||b||_q^2 / 2,
  # (q - 1)/e^2 = 1 / (e^2 log p)-strongly convex in l1, D_h(b*, 0) <= R^2 / 2
  # and E||g||_inf^2 <= G^2 = C^2 + 2 sigma^2 log(2p) (sigma = z 2C / m the
  # noise sd per coordinate of the averaged gradient, C >= ||g_i||_inf),
  # eta = step * R / (e G sqrt(T log p)). The intercept moves by
  # min(1, step / sqrt(T)) / curvature times its noisy gradient (at most
  # 1 / curvature, the step of exact minimization for least squares, so it
  # never diverges).
  noise = function(problem, setup, ledger) {
    sd <- release_noise(ledger, "path")
    scale <- if (is.finite(setup$clip)) setup$clip else problem$clip
    g <- sqrt(scale^2 + 2 * (sd / setup$batch)^2 * log(2 * problem$p))
    list(noise_sd = sd, gradient_bound = g,
         step_size = problem$step / (exp(1) * g * sqrt(setup$steps * setup$log_p)),
         intercept_step = min(1, problem$step / sqrt(setup$steps)) / problem$curvature)
  },
  path = function(problem, setup, noise, radius) {
    .nmd_path_cpp(problem$x, problem$y, core_settings(
      problem, radius = radius, clip = setup$clip, noise_sd = noise$noise_sd,
      batch_size = setup$batch, steps = setup$steps, step_size = noise$step_size,
      intercept_step = noise$intercept_step))
  },
  settings = function(problem, setup, noise, lambda = NULL) {
    list(batch.size = setup$batch, sampling_rate = setup$rate,
         steps_per_radius = setup$steps, mirror_map_q = 1 + 1 / setup$log_p,
         noise_sd = noise$noise_sd, gradient_bound = noise$gradient_bound,
         step_size = noise$step_size * problem$l1.radius,
         intercept_step = noise$intercept_step)
  }
)

# The default radii (l1.radius = NULL), from public inputs only, on the scale
# the solver works on (standardized when standardize = TRUE): nlambda values
# geometric from lambda.min.ratio * R_max to R_max = sqrt(p), the l1 norm of
# a vector of unit l2 norm spread over all p coordinates: a unit-variance
# response regressed on uncorrelated unit-variance features has sum b_j^2 <=
# 1 (the explained variance), so ||b||_1 <= sqrt(p).
l1_radius_grid <- function(problem) {
  sqrt(problem$p) * exp(seq(log(problem$lambda.min.ratio), 0, length.out = problem$nlambda))
}

# Checks of the arguments that the l1 solvers read or refuse; returns the
# radius sequence (NULL: the default grid) and nlambda.
check_l1_arguments <- function(solver, l1.radius, alpha, lambda, lower.limits,
                               upper.limits, penalty.factor, nlambda) {
  if (!solver_object(solver)$by_radius) {
    if (!is.null(l1.radius)) {
      dpglmnet_abort("l1.radius", sprintf(paste(
        "applies to the l1-ball solvers (%s) only; solver \"%s\" follows a",
        "lambda path."), paste0('"', solvers_with("by_radius"), '"', collapse = ", "),
        solver))
    }
    return(list(l1.radius = NULL, nlambda = nlambda))
  }
  what <- sprintf("solver = \"%s\"", solver)
  if (alpha != 1) {
    dpglmnet_abort("alpha", sprintf(paste(
      "must be 1 for %s: the l1-ball solvers fit the constrained LASSO",
      "||b||_1 <= l1.radius; use solver = \"dpcd\" for the elastic net."), what))
  }
  if (!is.null(lambda)) {
    dpglmnet_abort("lambda", sprintf(paste(
      "is not used by %s, which follows a path of l1 radii: give `l1.radius`",
      "instead."), what))
  }
  if (any(is.finite(lower.limits)) || any(is.finite(upper.limits))) {
    dpglmnet_abort(if (any(is.finite(lower.limits))) "lower.limits" else "upper.limits",
                   sprintf("must be infinite for %s (box constraints are not supported).",
                           what))
  }
  if (any(penalty.factor != penalty.factor[1L])) {
    dpglmnet_abort("penalty.factor", sprintf(
      "must be equal across columns for %s (the constraint is the plain l1 ball).",
      what))
  }
  if (!is.null(l1.radius)) {
    l1.radius <- check_numeric(l1.radius, "l1.radius", lower = 0, lower_open = TRUE,
                               length = NULL)
    if (is.unsorted(l1.radius, strictly = TRUE)) {
      dpglmnet_abort("l1.radius", paste(
        "must be strictly increasing: the path warm-starts each radius from the",
        "previous solution, which is feasible only for a larger ball."))
    }
    nlambda <- length(l1.radius)
  }
  list(l1.radius = l1.radius, nlambda = nlambda)
}
