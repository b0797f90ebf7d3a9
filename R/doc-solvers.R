# Documentation-only topics: one help page per solver of dpglmnet(), linked
# from ?dpglmnet (Section Solvers). No code.

#' DP-CD: proximal differentially private coordinate descent (the default solver)
#'
#' `solver = "dpcd"`, the default of [dpglmnet()] and [cv.dpglmnet()]:
#' proximal DP coordinate descent (Mangold et al. 2022, Algorithm 1). This
#' page describes its mechanism, accounting and hyperparameters; the
#' arguments every solver shares are on [dpglmnet()].
#'
#' @section Mechanism and privacy:
#' Each step releases one coordinate gradient whose per-record terms are
#' clipped to \eqn{C_j = \sqrt{M_j / tr M}}`clip`, plus Gaussian noise of
#' standard deviation \eqn{z \cdot 2 C_j / n} (the replace-one sensitivity
#' is \eqn{2 C_j / n}), and coordinate `j` moves with step `step / M_j`
#' (\eqn{M_j} its smoothness constant, argument `smoothness`). All
#' releases share one noise multiplier `z`, calibrated so that the whole
#' path (every lambda, every pass, the private `lambda_max` when no
#' `lambda` is given) is exactly `sqrt(R)/z`-GDP and so (epsilon, delta)-DP,
#' spending at most `epsilon`. Private smoothness constants
#' (`smoothness = "private"`) spend `smoothness.budget * epsilon` through the
#' Laplace mechanism, composed with the rest by basic composition. The
#' ledger in `fit$privacy` lists every mechanism and the total spent.
#'
#' The dummies of one factor of a data frame (a factor of three levels or
#' more, expanded with treatment contrasts) are one block: no record has
#' two of them non-zero, so, left uncentred (the intercept takes their
#' mean), a step on one moves the linear predictor only on its own records
#' and the block's steps in a row release its gradient vector at one point.
#' That vector moves by at most \eqn{2/n} in the norm weighted by
#' \eqn{1/C_j} when one record is replaced, as one coordinate does, so a
#' pass charges one release per block instead of one per dummy (each dummy
#' keeps noise \eqn{z \cdot 2 C_j / n}) and the same budget gives every
#' release less noise (the schedule of `nlambda` and `passes` still counts
#' coordinates). Blocks are used only where the noise binds (the budget
#' affords fewer than 625 releases per coordinate, against the 100 of the
#' largest schedule): uncentred, a common level's dummy is correlated with
#' the intercept and slows the fit, which costs where the passes limit it
#' (ggplot2's `diamonds`, n = 53940: 1.36 times `cv.glmnet` without
#' blocks, 1.66 with). Each record's values on a block are read with
#' only their first non-zero kept (a per-record map, which changes nothing
#' for the expansion's dummies), so the argument holds whatever `x` holds.
#' Block dummies' clips are raised by \eqn{\sqrt{\max(1, v_j / 2)}}, with
#' \eqn{v_j = 1/sd_j} their largest standardized value from the released
#' mean: a rare level's few records are otherwise clipped to residuals of a
#' tenth. On ISLR2's Bikeshare (hour, month and weather factors) and
#' ggplot2's `txhousing` (45 city dummies), `cv.dpglmnet()` at epsilon 1
#' went from 1.56 and 19.8 times `cv.glmnet`'s held-out MSE to 1.28 and
#' 5.1 (Bikeshare at epsilon 0.5 and 2: 1.87 to 1.73, 1.36 to 1.22).
#'
#' The adaptive clip (default clip, no weights, at least two passes per
#' lambda; a standardized gaussian response): the clips are set for the
#' start, where the residuals are at their largest. Before passes 1, 2, 4,
#' 8, ... of each lambda the fit releases the mean over records of
#' \eqn{\min(r_i^2, B^2) / B^2} (\eqn{r_i} the residual on the
#' standardized scale; terms in \[0, 1\]: replace-one sensitivity
#' \eqn{1/n}; B twice the last released root mean square `s`, 2 at
#' first), with Gaussian noise at a multiple of `z` that makes those
#' releases cost 4% of the path (its own ledger row), and multiplies every
#' clip \eqn{C_j} and noise sd by \eqn{\min(1, 2 s)}, s floored at 0.005
#' (public). Each
#' gradient release keeps noise \eqn{z \cdot 2 C_j / n} at its clip of the
#' moment, so it is the same Gaussian mechanism, with a clip chosen from
#' released values (adaptive composition; adaptive clipping, Andrew et
#' al. 2021). On a table it is one more aggregate per release.
#'
#' The split intercept (binomial, with an intercept, no weights or
#' offset): the proportion of ones is released once before the fit
#' (Gaussian, replace-one sensitivity \eqn{1/n}, its own ledger row at
#' 1/2 to 1 times `z`, costing about 4% of the path on a long one); under
#' the signal gate (`solver = "auto"` at one lambda) the fit starts at its
#' logit. Each intercept step then releases the mean of
#' \eqn{\mathrm{sigmoid}(\eta_i)} minus that proportion, with noise
#' \eqn{z w / n}, w the range of the sigmoid over the linear predictors a
#' record in the columns' public box can have at the current (released)
#' coefficients, where \eqn{w < 2 C_0} (else the clipped step): at most
#' half the clipped step's noise with \eqn{C_0 = 1}, and none while every
#' feature is at 0, so a fit whose features stay at 0 moves without noise
#' to the released proportion's logit. `fit$settings$intercept_response_mean`
#' has the released proportion.
#'
#' Tail averaging (a private gaussian fit of at least 6 passes per lambda,
#' without `average`): each lambda ends at the mean of the iterates that
#' end the last half of its passes (Polyak-Ruppert averaging; the next
#' lambda starts there). The squared loss's steps \eqn{1/M_j} reach its
#' minimum in a few passes, after which each pass mostly redraws a
#' coefficient's noise; the mean of those draws has less. Post-processing
#' of released steps: no privacy cost. On the bench's real sets at epsilon
#' 1, `cv.dpglmnet()` over `cv.glmnet`: Bikeshare 1.18 to 1.12, hotel
#' prices 1.20 to 1.16, `txhousing` 2.03 to 1.93. `fit$settings$tail_average`
#' is the share averaged (0: none).
#'
#' The default clip of a standardized gaussian fit grows with the budget
#' (less clipping bias where the noise allows it: see `clip` below), up to
#' the largest term a coordinate can hold, \eqn{v_j \cdot 2 \max_i |y~_i|}
#' (\eqn{v_j} the largest standardized value of column j in its released
#' clamp, the intercept's 1; y's from its released clamp): beyond it a clip
#' cuts nothing and only adds noise, so the noise falls with epsilon again
#' and a very large epsilon reaches glmnet's solution.
#'
#' @section Hyperparameters:
#' * `passes`: a pass is one update of every coordinate. Default (`NULL`)
#'   for a private standardized fit: chosen with `nlambda` from public
#'   inputs so that the noise of one coordinate step,
#'   \eqn{2 C_j \sqrt{R} / (\mu n)} for R releases, stays at or below 0.05
#'   on the standardized scale: at most 10 lambdas and 10 passes, fewer when
#'   n or epsilon is small (measured on the paper's data and generated data
#'   of other shapes, `inst/bench/defaults.R`); otherwise 10. Where the
#'   budget affords more, a path makes up to 30 passes per lambda, as many
#'   as keep that noise at half of 0.05 (1/4 of the affordable
#'   releases): DP-CD's steps rest on the curvature bound, and near a
#'   rare-event or well-separated binomial optimum the passes, not the
#'   noise, limit the fit (mlbench's Shuttle, n = 46400: 1.22 -> 1.08 times
#'   `cv.glmnet`'s held-out misclassification at epsilon 1). Not on a
#'   database table, where each pass costs a query per coordinate.
#' * `clip`: coordinate `j` clips its per-record gradient terms to
#'   \eqn{\sqrt{M_j / tr M} C}. The numeric default \eqn{\sqrt{p + 1}}
#'   (with an intercept) is 1 per coordinate on the standardized scale,
#'   where per-record gradient terms are of order 1 (measured as good as
#'   private clipping schemes, and as 0.5 or 2, after private
#'   standardization). `"quantile"` is the default of a private fit with
#'   `x.bounds` and `standardize = FALSE`: on unstandardized data the
#'   per-record gradient terms of the columns differ by orders of magnitude
#'   that no public constant can know. Coordinate `j` then clips to
#'   \eqn{C_j}, a private upper quantile (99%, lower when the count noise is
#'   large; the level is in `$settings$scale_levels`) of the terms
#'   \eqn{|\ell'(0, y_i) x_{ij}|} it clips at its start (and of
#'   \eqn{|\ell'(0, y_i)|} for the intercept), found by noisy-count
#'   bisection on a log scale (replace-one sensitivity 1 per count;
#'   `clip.budget`).
#' * `step`: coordinate `j` moves with step `step / M_j`.
#' * `average`: periodic averaging (Algorithm 1's outer loop): each pass is
#'   an outer iteration that ends at the average of its inner iterates.
#'   `FALSE` (default) returns the last iterate.
#' * `selection`: a fresh random `"permutation"` every pass (default),
#'   uniformly `"random"` draws (the paper's Algorithm 1), or `"cyclic"`.
#'   From 65536 coordinates on, the permutation is a random order of blocks
#'   of 64 consecutive coordinates, each block shuffled on its own (every
#'   coordinate still once per pass; 2-3x faster on wide sparse data, whose
#'   per-coordinate data then stay in cache). The order never depends on the
#'   data, so the privacy accounting is the same for all of them.
#' * `smoothness = "quantile"` (the default when `x.bounds` is given and
#'   `standardize = FALSE`): curvature times the second moment of column `j`
#'   clamped to \eqn{[-m_j, m_j]}, \eqn{m_j} a private upper quantile of
#'   \eqn{|x_{ij}|} found by noisy-count bisection, the moment released with
#'   Gaussian noise of replace-one sensitivity \eqn{m_j^2 / n}; a column's
#'   outliers, which the clip cuts off anyway, do not inflate it. Its cost is
#'   `smoothness.budget`. The other sources are listed under `smoothness`
#'   in [dpglmnet()].
#'
#' @section Threads:
#' `options(dpglmnet.threads = k)` runs DP-CD's record sweeps on dense `x`
#' (and the private start gradient) on `k` OpenMP threads when `n` is at
#' least 65536; default 1. The fit does not depend on `k`: the records are
#' summed in fixed chunks in a fixed order, and the noise is drawn on the
#' calling thread. Measured on a 2-core machine (`inst/bench/perf.R`):
#' 1.8-2x faster per pass at `n >= 2e5` when both cores are free, but
#' 10-250x *slower* when another process holds a core, because every
#' coordinate step waits for all threads. Use more than one thread only on
#' cores you have to yourself. Builds without OpenMP run on one thread.
#'
#' @references
#' Mangold, P., Bellet, A., Salmon, J. and Tommasi, M. (2022). Differentially
#' private coordinate descent for composite empirical risk minimization.
#' ICML.
#' @seealso [dpglmnet()] for the common interface; the other solvers:
#'   [dpsgd], [dpscd], [dpfw].
#' @examples
#' set.seed(1)
#' n <- 2000; p <- 4
#' x <- matrix(rnorm(n * p), n, p) %*% diag(c(10, 1, 1, 0.1))
#' y <- drop(x %*% c(0.1, 1, -1, 0)) + rnorm(n)
#' # standardized (the default with x.bounds): one step and clip per
#' # coordinate on the standardized scale
#' fit <- dpglmnet(x, y, epsilon = 1, x.bounds = c(40, 4, 4, 0.4), y.bound = 10)
#' fit$settings$passes
#' # on the original scale: private quantile clipping thresholds and
#' # smoothness constants, charged to the ledger; cyclic order
#' raw <- dpglmnet(x, y, epsilon = 1, x.bounds = c(40, 4, 4, 0.4), y.bound = 10,
#'                 standardize = FALSE, selection = "cyclic", lambda = 0.05)
#' raw$privacy
#' @name dpcd
#' @aliases dpglmnet-dpcd
NULL

#' DP-SGD: proximal differentially private stochastic gradient descent
#'
#' `solver = "dpsgd"` in [dpglmnet()]: proximal DP-SGD. This page describes
#' its mechanism, accounting and hyperparameters; the arguments every
#' solver shares are on [dpglmnet()].
#'
#' @section Mechanism and privacy:
#' Each step draws `batch.size` records uniformly without replacement
#' (independently of earlier steps), clips each record's gradient (features
#' and intercept) to L2 norm `clip`, adds Gaussian noise of standard
#' deviation \eqn{z \cdot 2} `clip` to the sum (its replace-one
#' sensitivity), divides by `batch.size`, and takes a proximal step of size
#' `step / beta`, where `beta = tr M` bounds the smoothness of the loss. Its
#' privacy is accounted with Renyi DP for sampling without replacement under
#' replace-one (see [rdp_subsampled_gaussian()]) and converted to
#' (epsilon, delta); `z` is calibrated so that the whole path spends at most
#' `epsilon`. When no `lambda` is given, `lambda_max` comes from one
#' full-batch clipped gradient with the same noise multiplier.
#'
#' With `epsilon = Inf` the same solver runs with no noise and no clipping
#' and, with enough `passes`, reaches glmnet's solution of the same
#' objective.
#'
#' @section Hyperparameters:
#' * `passes`: epochs of `n / batch.size` minibatch steps (rounded up) per
#'   lambda; default 10.
#' * `batch.size`: records per minibatch, in \[1, n\]; default n, all the
#'   records: full-batch proximal DP gradient descent, accounted exactly in
#'   Gaussian DP. At epsilon = 1 it did better than minibatches of
#'   \eqn{\sqrt n} or n / 4 on California, Electricity, Bikeshare and
#'   Satellite (each of those steps sums few clipped gradients, whose noise
#'   the sampling's amplification does not make up for); give a smaller
#'   `batch.size` for stochastic steps (the paper's experiments use 10 to
#'   1000).
#' * `clip`: the L2 bound on each record's gradient; numeric default
#'   \eqn{\sqrt{p + 1}} (with an intercept). `"quantile"` is one private
#'   upper quantile of the gradient norms
#'   \eqn{|\ell'(0, y_i)| \|(x_i, 1)\|} (`clip.budget`); it is not the
#'   default (its noise, the same on every coordinate, then follows the
#'   largest column and swamped the signal on the paper's data).
#' * `step`: every coordinate moves with `step / beta`.
#' * `smoothness`: `"private"` (the paper's Laplace mechanism) is the
#'   default when `x.bounds` is given and `standardize = FALSE`; see
#'   [dpglmnet()].
#' @seealso [dpglmnet()] for the common interface; the other solvers:
#'   [dpcd], [dpscd], [dpfw]. The accountant: [rdp_subsampled_gaussian()].
#' @examples
#' set.seed(1)
#' n <- 20000; p <- 4
#' x <- matrix(rnorm(n * p), n, p)
#' y <- drop(x %*% c(1, -1, 0, 0.5)) + rnorm(n)
#' fit <- dpglmnet(x, y, solver = "dpsgd", epsilon = 1, x.bounds = 4,
#'                 y.bound = 8, batch.size = 2000, passes = 2, nlambda = 3)
#' fit$privacy
#' coef(fit)
#' @name dpsgd
#' @aliases dpglmnet-dpsgd
NULL

#' DP-SCD: private stochastic dual coordinate descent (ridge, L2 logistic)
#'
#' `solver = "dpscd"` in [dpglmnet()]: private stochastic dual coordinate
#' descent (Damaskinos et al. 2021, Algorithm 1) for `alpha = 0` only: ridge
#' (gaussian) and L2-regularized logistic regression (binomial). This page
#' describes its mechanism, accounting and requirements; the arguments every
#' solver shares are on [dpglmnet()].
#'
#' @section Mechanism:
#' It solves the dual problem: each step draws `batch.size` records
#' uniformly without replacement (independently of earlier steps); each
#' computes, from the shared vector \eqn{v = X'a}, the update of its own
#' dual coordinate (closed form for ridge, one Newton step for logistic, of
#' the local subproblem of the paper's eq. 8), scaled to
#' \eqn{|\zeta| \le} `clip` (default 1); Gaussian noise is added to the
#' batch's dual coordinates and to `v`, and the model is
#' \eqn{v / (\lambda n)}. Dual variables are warm-started along the path.
#' `passes` are epochs: `passes * n / batch.size` steps per lambda, over
#' the whole path. `step` is unused.
#'
#' @section Requirements:
#' `intercept = FALSE` (the dual has no unpenalized coordinate; centre `y`
#' and `x` with public constants first), equal `penalty.factor`, no finite
#' limits, `lambda > 0`, and `x.bounds`: the sensitivity needs a public
#' bound \eqn{R = \sqrt{\sum_j b_j^2}} on the L2 norm of a record (computed
#' from the bounds on the scale the solver reads, i.e. the standardized
#' bounds when `standardize = TRUE`); `x` is clamped to the bounds and every
#' record is also scaled to norm at most `R`. Smaller bounds mean less
#' noise. No smoothness constants are used or released.
#'
#' @section Privacy:
#' Replacing one record changes one step's release by at most
#' \eqn{2 C \sqrt{1 + R^2}} (its dual coordinate by \eqn{2C}, `v` by
#' \eqn{2CR}; the paper's Lemma 1, \eqn{\sqrt 2 C}, is for removing a
#' record with \eqn{R = 1}), and the noise standard deviation is `z` times
#' that. Because the release updates the dual coordinates of the batch, it
#' reveals which records were in the batch, so there is no amplification by
#' subsampling beyond the probability `batch.size / n` that a record is used
#' (`rdp_subsampled_gaussian(sampling = "revealed")`); the paper's Theorem 1
#' applies the amplification of a hidden batch, which does not hold for this
#' release. When no `lambda` is given, `lambda_max` is DP-SGD's private
#' clipped gradient at 0 (clipped to `clip`), as \eqn{\max_j |g_j|}: alpha
#' is floored at 1 rather than glmnet's 1e-3, which would start a ridge path
#' at 1000 times that, where every coefficient is 0 to printed precision.
#'
#' With `epsilon = Inf` nothing is clipped, scaled or noised, and the fit
#' reaches the exact ridge / L2-logistic optimum (glmnet's for binomial; for
#' gaussian, glmnet's ridge solves a problem rescaled by the standard
#' deviation of `y`, so compare with the exact solution or a unit-variance
#' `y`).
#'
#' @references
#' Damaskinos, G., Mendler-Dunner, C., Guerraoui, R., Papandreou, N. and
#' Rouault, T. (2021). Differentially private stochastic coordinate descent.
#' AAAI.
#' @seealso [dpglmnet()] for the common interface; the other solvers:
#'   [dpcd], [dpsgd], [dpfw].
#' @examples
#' set.seed(1)
#' n <- 20000; p <- 4
#' x <- matrix(rnorm(n * p), n, p)
#' y <- drop(x %*% c(1, -1, 0, 0.5)) + rnorm(n)
#' # ridge without intercept (x and y are centred here); the whole data as
#' # one batch
#' fit <- dpglmnet(x, y, solver = "dpscd", alpha = 0, intercept = FALSE,
#'                 lambda = 0.1, epsilon = 1, x.bounds = 4, y.bound = 8,
#'                 batch.size = n, passes = 1)
#' fit$privacy
#' coef(fit)  # noisier than DP-CD's at the same budget
#' coef(dpglmnet(x, y, alpha = 0, intercept = FALSE, lambda = 0.1, epsilon = 1,
#'               x.bounds = 4, y.bound = 8))
#' @name dpscd
#' @aliases dpglmnet-dpscd
NULL

#' Private Frank-Wolfe and noisy mirror descent over l1 balls
#'
#' `solver = "dpfw"`, `"dpfw-vr"` and `"nmd"` in [dpglmnet()] solve the
#' constrained LASSO over l1 balls. This page describes their mechanisms,
#' accounting and hyperparameters; the arguments every solver shares are
#' on [dpglmnet()].
#'
#' @section The constrained path:
#' They solve
#' \deqn{\min_{b_0, b} (1/n) \sum_i \ell(b_0 + x_i'b, y_i) \quad
#' \textrm{s.t.} \quad \|b\|_1 \le R}{min over (b_0, b) of (1/n) sum_i
#' l(b_0 + x_i'b, y_i) subject to ||b||_1 <= R}
#' (with glmnet's losses) for an increasing sequence of public radii `R`
#' (`l1.radius`), warm-starting each radius from the previous solution. The
#' Frank-Wolfe solvers' error grows like \eqn{\log p} rather than
#' polynomially in `p` (Talwar, Thakurta and Zhang 2015; Asi, Feldman, Koren
#' and Talwar 2021), which suits sparse problems with many features; `nmd`,
#' noisy mirror descent without the paper's localization (its Algorithm 2,
#' not implemented), adds noise to every coordinate, and its error bound
#' grows like \eqn{\sqrt{p \log p} / (n \epsilon)} (Theorem 3 of Asi et al.). The fit keeps glmnet's shape with the
#' **radius where glmnet has `lambda`**: `fit$lambda` holds the radii,
#' `print()` labels them `Radius`, `coef()`/`predict()` read `s` as a radius
#' (linear interpolation between fitted radii, clamped to the ends), and
#' `plot(xvar = "lambda")` plots against the log radius. Only `alpha = 1`,
#' equal `penalty.factor` and no box constraints are supported; `lambda`
#' is refused (give `l1.radius`).
#'
#' `l1.radius`: a strictly increasing sequence of public l1 radii (the path
#' parameter, stored in `fit$lambda`). When `NULL`, `nlambda` radii
#' geometric from `lambda.min.ratio * sqrt(p)` to `sqrt(p)` on the scale the
#' solver works on (standardized when `standardize = TRUE`): `sqrt(p)` is
#' the l1 norm of a unit-l2 vector spread over all features, the largest
#' useful norm for a unit-variance response on uncorrelated unit-variance
#' features. Public, no privacy cost.
#'
#' `solver = "auto"` (the default of [dpglmnet()]) picks `"dpfw"` when p is
#' large against n, with the columns scaled by their public bounds, one
#' public radius, clip and number of steps: the rule is in Section High
#' dimension of [dpglmnet()].
#'
#' Standardization: with `standardize = TRUE` the ball applies to the
#' standardized coefficients, as glmnet's penalty does: the fit satisfies
#' \eqn{\sum_j sd_j |b_j| \le R} with \eqn{sd_j} the (privately released)
#' standard deviation of column `j`, in the units of `y`.
#'
#' @section dpfw (private Frank-Wolfe):
#' Each step (`passes` steps per radius, each a full pass over the records:
#' a full-batch gradient and one vertex choice) computes the gradient with
#' each record's terms \eqn{\ell'(\eta_i, y_i) x_{ij}} clipped to
#' \[-`clip`, `clip`\] (default `clip` 1), scores the \eqn{2p} vertices
#' \eqn{\pm R e_j} by \eqn{-\langle \pm R e_j, g\rangle} and picks one by
#' report-noisy-max with Gumbel noise (the exponential mechanism), then
#' moves \eqn{b \leftarrow (1-\gamma_t) b + \gamma_t v} with
#' \eqn{\gamma_t = 2/(t+2)} (\eqn{2/(t+3)} on later radii, which keeps part
#' of the warm start); `step` is unused. Replacing one record moves each
#' clipped gradient coordinate by at most \eqn{2C/n}, so every score by at
#' most \eqn{\Delta = 2RC/n}; the Gumbel scale is \eqn{z \Delta}, each
#' selection is \eqn{(2/z)}-DP and \eqn{(2/z)^2/8}-zCDP, and the selections
#' compose in Renyi DP. The intercept is an unconstrained coordinate moved
#' by a gradient step on its clipped gradient (sensitivity \eqn{2C/n}) plus
#' Gaussian noise with noise multiplier \eqn{3z} (a tenth of the budget).
#' Cost per step: O(nnz(x)) for the gradient, O(p) for the noisy max.
#'
#' @section nmd (noisy mirror descent):
#' Algorithm 1 of Asi et al. 2021: each step draws `batch.size` records
#' without replacement (independently at each step), clips each record's
#' gradient (features and intercept) to L2 norm `clip`, adds Gaussian noise
#' of standard deviation \eqn{z \cdot 2}`clip` to the sum, and takes a
#' mirror step with the p-norm map \eqn{\|b\|_q^2/2},
#' \eqn{q = 1 + 1/\log p}, projected (in Bregman divergence) on the l1 ball;
#' step size `step` times \eqn{R / (e G \sqrt{T \log p})} (any positive
#' `step`; the step is Lipschitz-based, not smoothness-based; Theorem 3 of
#' the paper with public \eqn{G^2 = C^2 + 2\sigma^2 \log 2p}, \eqn{\sigma}
#' the noise standard deviation of the averaged gradient); the output is the
#' average of the iterates. Accounted like DP-SGD (Renyi DP for sampling
#' without replacement), `passes` epochs of `n / batch.size` steps (rounded
#' up) per radius.
#'
#' @section dpfw-vr (private variance-reduced Frank-Wolfe):
#' Algorithm 3 of Asi et al. 2021, pure DP as their Theorem 6: each radius
#' is one run of \eqn{T} = `passes` phases (capped at the largest \eqn{T}
#' with \eqn{2^T (T + T(T+1)/4) \le n}); phase \eqn{t} walks a binary tree
#' of depth \eqn{t} in depth-first order, each vertex at depth \eqn{j}
#' owning \eqn{b/2^j} records disjoint from every other vertex's (a fresh
#' random permutation per radius, \eqn{b} as large as \eqn{n} allows, so one
#' run reads each record at most once). The root estimates the clipped
#' gradient, each right child adds the clipped correction
#' \eqn{\ell'(\eta_i(x)) x_{ij} - \ell'(\eta_i(x_{parent})) x_{ij}} over its
#' records, and each leaf takes a Frank-Wolfe step (steps \eqn{2/(k+2)} over
#' the \eqn{2^{T+1} - 2} leaves; `step` is unused) to the vertex chosen by
#' report-noisy-max with Laplace noise of scale
#' \eqn{\lambda_t = 2 L D 2^t / (b \epsilon_0)}, \eqn{L} = `clip` (default
#' 1; every per-record term is clipped coordinate-wise to it),
#' \eqn{D = 2R}. A record reaches the \eqn{2^{t-j}} leaves below its vertex,
#' each \eqn{\epsilon_0 2^{j-t}}-DP for it, so a run is \eqn{\epsilon_0}-DP
#' (parallel composition over the disjoint samples); the ledger has one
#' Laplace row per radius with \eqn{\epsilon_0 = 1/z}, and the intercept (a
#' gradient step at each leaf with Laplace noise on its variance-reduced
#' gradient) a second row with a tenth of the budget. Cost: \eqn{O(nnz(x))}
#' for the gradients of a run, \eqn{O(p)} per leaf.
#'
#' @section Non-private runs and convergence:
#' `epsilon = Inf` runs the same algorithms with no noise and no clipping;
#' they converge to the constrained optimum (Frank-Wolfe at rate
#' \eqn{O(R^2 L / T)}, mirror descent at \eqn{O(1/\sqrt{T})}; `"dpfw-vr"`
#' up to the sampling error of its single pass over the records). A fit
#' that has not converged warns (a coefficient still moved by more than
#' 1e-3 of its scale over the last 10% of the steps).
#'
#' @section Value:
#' For `"dpfw"` and `"dpfw-vr"`, `fit$vertices` holds the vertex chosen at
#' each step (a steps by radii integer matrix; `2j - 1` is \eqn{+R e_j},
#' `2j` is \eqn{-R e_j}): these are the private selections themselves, so
#' releasing them is free.
#'
#' @references
#' Talwar, K., Thakurta, A. and Zhang, L. (2015). Nearly optimal private
#' LASSO. NeurIPS.
#'
#' Asi, H., Feldman, V., Koren, T. and Talwar, K. (2021). Private stochastic
#' convex optimization: optimal rates in l1 geometry. ICML.
#' @seealso [dpglmnet()] for the common interface; the other solvers:
#'   [dpcd], [dpsgd], [dpscd]. `vignette("high-dimensional", package =
#'   "dpglmnet")` compares them with DP-CD against passes and against p.
#' @examples
#' set.seed(1)
#' n <- 20000; p <- 5
#' x <- matrix(rnorm(n * p), n, p)
#' y <- drop(x %*% c(1, -1, 0, 0, 0.5)) + rnorm(n)
#' # Private Frank-Wolfe over l1 balls of radius 0.5, 1, 2
#' fw <- dpglmnet(x, y, solver = "dpfw", l1.radius = c(0.5, 1, 2), passes = 50,
#'                epsilon = 1, x.bounds = 4, y.bound = 8)
#' coef(fw, s = 1)
#' fw$vertices[1:5, ]
#' # noisy mirror descent on the same radii
#' md <- dpglmnet(x, y, solver = "nmd", l1.radius = c(0.5, 1, 2),
#'                epsilon = 1, x.bounds = 4, y.bound = 8)
#' coef(md, s = 2)
#' @name dpfw
#' @aliases dpfw-vr nmd dpglmnet-l1
NULL
