#' Private cross-validation curve and choice of lambda: the counterpart of cv.glmnet
#'
#' Splits the records once, at random and independently of the data, into a
#' training part and a validation part; fits the private path of
#' [dpglmnet()] on the training part; and releases the validation curve, the
#' mean of a bounded per-record validation loss at every lambda of the path,
#' with Gaussian noise. `cvm`, `cvsd`, `lambda.min` and `lambda.1se` are
#' read from the released curve, as glmnet's `cv.glmnet()` reads them from
#' its folds, and `plot()` draws it. With `refit = TRUE` it then fits
#' [dpglmnet()] once more, on all the records at `lambda.min`, with its own
#' share of the budget.
#'
#' The path is planned first, from public inputs only (n, p, the budget and
#' the arguments). When the training part would get a single lambda (the
#' automatic schedule's choice for a small budget or few records, see
#' `nlambda` in [dpglmnet()], or `nlambda = 1`, or one l1 radius), there is
#' nothing to choose: no split is drawn, no curve is released, nothing is
#' refitted, and the path is fitted at that one lambda on all the records
#' with the whole budget, with a warning. `lambda.min` and `lambda.1se` are
#' then that lambda, `cvm` and `cvsd` are `NA`, `validation` is empty and
#' the ledger has no validation row.
#'
#' @section The curve and what is read from it:
#' For each of the K values of lambda, the curve is the mean over the
#' \eqn{n_v} validation records of the per-record loss clipped to
#' \eqn{[0, B]} (`loss.bound`). Replacing one validation record moves each
#' of the K means by at most \eqn{B/n_v}, so the vector of K means has
#' replace-one L2 sensitivity \eqn{\sqrt{K} B / n_v}; it is released with
#' Gaussian noise of sd \eqn{z \sqrt{K} B / n_v} (`cvsd.noise`), and, in
#' the same release, the K means of the squared clipped losses
#' (sensitivity \eqn{\sqrt{K} B^2 / n_v}, noise 3 times larger relative to
#' it: they only feed `cvsd`). For `type.measure = "class"` the loss takes
#' two values, its variance follows from its mean and no squares are
#' released. Everything after the release is post-processing:
#' * `cvm`: the released means, clamped to \eqn{[0, B]};
#' * `cvsd`: \eqn{\sqrt{v / n_v + \sigma^2}}, with \eqn{v} the per-record
#'   variance from the released squares (clamped between 0 and
#'   \eqn{cvm (B - cvm)}, the largest variance of a loss in \eqn{[0, B]}
#'   with that mean) and \eqn{\sigma} = `cvsd.noise`, the sd of the DP noise
#'   on `cvm`: the standard error of `cvm` as an estimate of the expected
#'   clipped loss counts both the sampling of the validation records and the
#'   noise. Its parts are returned as `cvsd.sampling` and `cvsd.noise`;
#' * `lambda.min`: the (most regularized) lambda minimising `cvm`;
#'   `lambda.1se`: the largest lambda whose `cvm` is at most `cvm + cvsd` at
#'   `lambda.min` (glmnet's rule; with the noise in `cvsd` the band is wider
#'   where the noise dominates, which is honest: there the curve cannot tell
#'   the lambdas apart). For the l1-ball solvers, whose path is over
#'   increasing radii, "most regularized" is the smallest radius.
#'
#' Before the curve was released (issue 18) the choice was report-noisy-max
#' (the exponential mechanism) on the summed clipped losses. At equal budget
#' the argmin of the released curve chose as well (held-out error, paired
#' over 80 splits of California and Electricity at epsilon 1 and 0.5: better
#' 37 times, worse 31; `inst/bench/cv_curve.R`), and the curve also gives
#' `cvsd` and `lambda.1se`, so it replaced the noisy max.
#'
#' @section Privacy:
#' A record is in one part only and the split does not depend on the data,
#' so the two releases compose in parallel: replacing one record changes
#' either the path (which, without a refit, spends at most `epsilon`,
#' `delta`) or the curve (calibrated, by the same accountant as every fit,
#' to spend at most `epsilon` at `delta`), never both. The total is the
#' larger of the two, not their sum: the ledger (`$privacy`) lists both
#' with their `part` and computes the maximum. (Parallel composition also
#' holds when, as here, the curve uses the released path.) The curve's noise
#' depends on public inputs only: K (the path's length, released), \eqn{n_v}
#' (from n and `validation.fraction`), \eqn{B} (public, or post-processing
#' of the path's releases) and the budget.
#'
#' The split is drawn from R's random number generator, as the seeds of the
#' noise are with `rng = "seeded"`; the returned `validation` indices are
#' its output. Use `rng = "secure"` when no one who sees them, or could
#' guess the seed, may be able to reconstruct the noise.
#'
#' One split rather than K folds: each record would be in K - 1 training
#' parts, so K-fold paths compose sequentially over those parts and need
#' about \eqn{\sqrt{K-1}} times more noise (in GDP, \eqn{\mu} adds in
#' squares over the K - 1 paths that read a record) for the same budget.
#'
#' @section The refit and its cost:
#' The refit reads every record, so nothing runs in parallel with it: a
#' training record is read by the path and then the refit, a validation
#' record by the curve and then the refit, and each pair composes
#' sequentially (adaptively: the refit's lambda is the released choice).
#' The ledger marks the refit's releases (its own ledger's rows, named
#' `"refit on all records: ..."`, including any private standardization
#' and smoothness constants it releases) as part 0, read by every record;
#' the total is the larger of refit + path (part 1) and refit + curve
#' (part 2), each composed by the accountant of [dpglmnet()]: exactly in
#' Gaussian DP for the full-batch Gaussian releases, in Renyi DP or by basic
#' composition with the subsampled and pure-DP ones. That total is at most
#' the `epsilon` you give, at `delta`; the refit is paid for by the path and
#' the curve:
#' * with \eqn{\mu} = `gdp_mu(epsilon, delta)`, the refit is fitted to the
#'   target `gdp_epsilon(sqrt(refit.budget) * mu, delta)`: the share
#'   `refit.budget` of \eqn{\mu^2}, within which [dpglmnet()] calibrates it
#'   as usual (standardization, smoothness, passes at its one lambda);
#' * the path gets the largest target for which refit + path spends at
#'   most `epsilon` (found numerically from the ledgers the two fits will
#'   keep, which depend on public inputs only). When all their releases are
#'   Gaussian, as for DP-CD with `standardize = TRUE` (the default with
#'   `x.bounds`), that is exactly the remaining share `1 - refit.budget` of
#'   \eqn{\mu^2}: the path's noise multiplier grows by a factor
#'   `1 / sqrt(1 - refit.budget)`, or the automatic schedule affords fewer
#'   lambdas and passes;
#' * the curve gets the smallest noise for which refit + curve spends at
#'   most `epsilon`: both Gaussian, so when the refit's releases are all
#'   Gaussian the curve too gets the remaining share `1 - refit.budget` of
#'   \eqn{\mu^2}.
#'
#' Whether this helps depends on the data. On California (the paper's
#' data, 80% of it for fitting, `epsilon = 1`, the defaults of
#' `inst/bench/defaults.R`), it did not: held-out MSE 0.504 with the refit
#' against 0.499 without (10 seeds; 0.514 with `refit.budget` 0.25 or
#' 0.75; measured when lambda.min was chosen by report-noisy-max). Run
#' `Rscript inst/bench/defaults.R --refit` for your shapes of data.
#'
#' @param x,y As in [dpglmnet()].
#' @param ... Further (named) arguments of [dpglmnet()] (`family`, `alpha`,
#'   `x.bounds`, `y.bound`, `nlambda`, ...), used for the path and the refit.
#'   `weights` and `offset` (with `weights.bound`, `offset.bound`) are split
#'   with their records: the training part's go to the path, the validation
#'   part's weigh each validation loss (times \eqn{\omega_i = w_i
#'   n_{train} / S}, S the training part's released weight sum, before the
#'   clip to `loss.bound`) and enter its linear predictor.
#' @param epsilon,delta The budget of the whole procedure (split, path,
#'   curve and refit); `delta` defaults to \eqn{1/n^2} for the n records of
#'   `x`.
#' @param type.measure The validation loss, as glmnet's: `"mse"` (squared
#'   error: \eqn{(y - \hat y)^2} for gaussian, \eqn{2(y - \hat p)^2} for
#'   binomial, summed over the two classes as glmnet does), `"mae"` (absolute
#'   error, likewise), `"deviance"` (gaussian: the squared error; binomial:
#'   \eqn{-2} log-likelihood of the record), `"class"` (binomial:
#'   misclassification) or `"default"` (`"mse"` for gaussian, `"deviance"`
#'   for binomial). `"auc"` is refused with an error: the AUC is not a mean
#'   of per-record losses, and replacing one record can move it by up to 1
#'   when a class has few validation records, so it has no useful public
#'   sensitivity.
#' @param validation.fraction Fraction of the records held out for the curve.
#' @param nfolds As cv.glmnet's, for a glmnet script run unchanged (at least
#'   3): the records held out are one fold of `nfolds`
#'   (`validation.fraction = 1 / nfolds`; give one of the two), with a
#'   warning. The folds are not crossed: that would train on each record
#'   `nfolds - 1` times, each time charged to the privacy budget.
#'   cv.glmnet's `parallel`, `grouped`, `alignment`, `gamma` and `keep =
#'   FALSE` are accepted in `...` and have no effect; `foldid`, `keep =
#'   TRUE` (predictions on the training records) and `relax = TRUE` are
#'   errors.
#' @param loss.bound The bound \eqn{B} each record's loss is clipped to,
#'   which sets the curve's sensitivity (\eqn{\sqrt{K} B / n_v}). Default:
#'   gaussian `"mse"` and `"deviance"`, \eqn{(r s_y)^2}, and gaussian
#'   `"mae"`, \eqn{r s_y}, when the path standardized y (`y.bound` given):
#'   \eqn{s_y} the privately released standard deviation of y, \eqn{r =
#'   \min(2, 6 s)} with \eqn{s} the root mean square of the residuals over
#'   \eqn{s_y} that the path released last (DP-CD's adaptive clip; at least
#'   0.005), or \eqn{r = 2} where the path released none; otherwise
#'   `y.bound^2` and `y.bound`. Where the path released \eqn{s} and the
#'   budget leaves the curve's noise small (a large epsilon or many
#'   validation records), that bound is raised until the noise sd on `cvm`
#'   reaches 1% of the bound at \eqn{r = s} (\eqn{(s s_y)^2} for `"mse"`),
#'   up to the bound at twice the reach of y's released clamp, so that
#'   heavy-tailed residuals are clipped less. Binomial deviance
#'   \eqn{2\log 20} (a
#'   predicted probability of 0.05 for the observed class); binomial
#'   `"mse"` and `"mae"` 2, `"class"` 1, their largest values (a larger
#'   `loss.bound` is lowered to them: it would only add noise). At
#'   `epsilon = Inf` nothing is noised and nothing is clipped: the default
#'   is 1e100 (the exact curve; `"class"` and the binomial `"mse"` and
#'   `"mae"` keep their largest values), and `y.bound` is not needed. At most
#'   1e100 (public, as the bounds); the curve is summed on the clipped
#'   losses divided by \eqn{B}, so its sums stay finite whatever the bound.
#'   A larger bound clips less but noises more: the noise sd on `cvm` is
#'   proportional to \eqn{B}. `cvm` is the mean of the clipped loss: with
#'   the default bound of a path that explains y well it sits below the
#'   mean squared error of the large lambdas (their residuals are clipped
#'   near the best fits' scale), which only matters for reading the curve,
#'   not for its minimum.
#' @param refit `TRUE` to fit [dpglmnet()] again, on all the records, at the
#'   chosen lambda (`lambda.min`, an l1 radius for the l1-ball solvers), with
#'   the same `...` (family, bounds, solver, `standardize`, passes) and its
#'   own private standardization; `coef()` and `predict()` at
#'   `s = "lambda.min"` then use it. Its releases are charged to the same
#'   budget (see Section The refit and its cost). Default `FALSE`.
#' @param refit.budget With `refit = TRUE`, the refit's share of the budget,
#'   in (0, 1): its fraction of \eqn{\mu^2} in Gaussian DP (see Section The
#'   refit and its cost). Default 0.5.
#' @param rng As in [dpglmnet()]: the source of the curve's noise.
#' @return An object of class `"cv.dpglmnet"` with the fields of glmnet's
#'   `"cv.glmnet"`: `lambda`, `cvm` (the released validation curve), `cvsd`,
#'   `cvup` and `cvlo` (`cvm` plus and minus `cvsd`), `nzero`, `call`
#'   (holding no data: see [dpglmnet()]), `name` (the measure, named by
#'   `type.measure`), `dpglmnet.fit` (the path, fitted on the training part;
#'   glmnet's `glmnet.fit`), `lambda.min`, `lambda.1se` and `index` (their
#'   positions, rows `"min"` and `"1se"`); and `cvsd.sampling` (the sampling
#'   part of `cvsd`), `cvsd.noise` (the sd of the DP noise on each `cvm`),
#'   `type.measure`, `validation` (indices of the validation records: drawn
#'   independently of the data), `loss.bound`, `refit` (with
#'   `refit = TRUE`: the `"dpglmnet"` fit on all records at `lambda.min`;
#'   else `NULL`), `refit.budget` (`NULL` without a refit) and `privacy` (the
#'   ledger of the whole procedure).
#' @examples
#' set.seed(1)
#' n <- 2000; p <- 5
#' x <- matrix(rnorm(n * p), n, p)
#' y <- drop(x %*% c(1, -1, 0, 0, 0.5)) + rnorm(n)
#' cvfit <- cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8)
#' cvfit
#' coef(cvfit)                  # at lambda.1se, as glmnet
#' coef(cvfit, s = "lambda.min")
#' plot(cvfit)                  # the released validation curve
#' cvfit$privacy$mechanisms[, c("mechanism", "sensitivity", "noise_multiplier", "part")]
#' # a refit on all records at the chosen lambda, with half of mu^2 (more
#' # records, so that the path's share still affords several lambdas)
#' n <- 20000
#' x <- matrix(rnorm(n * p), n, p)
#' y <- drop(x %*% c(1, -1, 0, 0, 0.5)) + rnorm(n)
#' cvrefit <- cv.dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8,
#'                        refit = TRUE)
#' cvrefit
#' cvrefit$privacy$mechanisms[, c("mechanism", "count", "part")]
#' coef(cvrefit, s = "lambda.min")  # the refit's coefficients
#' coef(cvrefit)                     # the path at lambda.1se
#' @export
cv.dpglmnet <- function(x, y, ..., epsilon = 1, delta = 1 / nrow(x)^2,
                        type.measure = c("default", "mse", "deviance", "class", "mae", "auc"),
                        validation.fraction = 0.2, nfolds = NULL, loss.bound = NULL,
                        refit = FALSE, refit.budget = 0.5,
                        rng = c("seeded", "secure")) {
  # a data frame or a formula: expanded as model.matrix() would (R/formula.R)
  if (is_frame_input(x)) return(cv_dpglmnet_frame(match.call(), environment()))
  # a database table: the same procedure with queries (R/database-cv.R)
  if (is_database_input(x)) return(cv_from_database(match.call(), environment()))
  # model.matrix()'s column of ones: left out, back at 0 (R/ones-column.R)
  intercept <- list(...)[["intercept", exact = TRUE]]
  ones <- ones_columns(x, if (is.null(intercept)) TRUE else intercept)
  if (length(ones)) {
    return(fit_without_ones(cv.dpglmnet, "cv.dpglmnet", match.call(), environment(), ones))
  }
  call <- public_call(match.call(), "cv.dpglmnet")
  arguments <- check_path_arguments(list(...))
  validation.fraction <- folds_validation_fraction(nfolds, validation.fraction,
                                                   !missing(validation.fraction))
  folds <- attr(validation.fraction, "nfolds")
  validation.fraction <- as.numeric(validation.fraction)
  # (`[[` with exact matching: `arguments$lambda` would partially match
  # `lambda.min.ratio`)
  given <- function(name) arguments[[name, exact = TRUE]]
  if (!is.null(given("lambda")) && length(given("lambda")) < 2L) {
    dpglmnet_abort("lambda", "must have at least two values to choose from.")
  }
  x <- check_x(x)
  n <- nrow(x)
  family <- dpglmnet_family(if (is.null(given("family"))) "gaussian" else given("family"))
  # a character binomial response: factor(y) before the split, so that
  # every part has the data's two labels (R/checks.R)
  labelled <- labels_as_factor(y, family$name)
  y <- labelled$y
  response <- check_y(y, n, family$name)
  epsilon <- check_numeric(epsilon, "epsilon", lower = 0, lower_open = TRUE, finite = FALSE)
  delta <- check_numeric(delta, "delta", 0, 1, lower_open = TRUE, upper_open = TRUE)
  type.measure <- check_measure(type.measure, family$name)
  validation.fraction <- check_numeric(validation.fraction, "validation.fraction", 0, 1,
                                       lower_open = TRUE, upper_open = TRUE)
  held_out <- round(validation.fraction * n)
  if (held_out < 1L || n - held_out < 2L) {
    dpglmnet_abort(if (is.null(folds)) "validation.fraction" else "nfolds", sprintf(
      "leaves %d validation and %d training records; both parts need records.",
      held_out, n - held_out))
  }
  if (!is.null(loss.bound)) {
    # a finite public maximum, as for the other public bounds
    loss.bound <- check_numeric(loss.bound, "loss.bound", lower = 0, lower_open = TRUE,
                                upper = max_loss_bound)
  }
  check_flag(refit, "refit")
  refit.budget <- check_numeric(refit.budget, "refit.budget", 0, 1,
                                lower_open = TRUE, upper_open = TRUE)
  rng <- check_choice(rng, c("seeded", "secure"), "rng")
  # weights and offset go with their records: checked here against n
  # (before any computation), split with the records below (R/weights.R)
  weighting <- check_weights(given("weights"), n, given("weights.bound"), epsilon)
  offsetting <- check_offset(given("offset"), n, given("offset.bound"), epsilon)
  check_x_bounds_given(given("x.bounds"), given("standardize"), epsilon, given("solver"))
  check_loss_bound_given(family, epsilon, loss.bound, given("y.bound"))

  # The plan, before the split (public: n, p, the budget and the
  # arguments): the path the training part would get. Planning reads only
  # the sizes, so the first n - held_out records stand in for the training
  # part, which is not drawn yet. The parts of x are row subsets read in
  # place (R/rows.R), never copies of the records.
  records <- list(
    n = n, x = x, y = y, arguments = arguments,
    plan_part = function(n_train, arguments) {
      planning <- seq_len(n_train)
      list(x = record_subset(x, planning), y = subset_response(y, planning),
           arguments = record_arguments(arguments, planning))
    },
    # The split's parts: the training part's records as a row subset, the
    # curve on the validation part's (R/cv-curve.R).
    split = function(validation, arguments) {
      train <- seq_len(n)[-validation]
      list(x = record_subset(x, train), y = subset_response(y, -validation),
           arguments = record_arguments(arguments, train),
           curve = function(fit, loss.bound, refit_rows) {
             validation_curve(fit, record_subset(x, validation), response$y[validation],
                              family, type.measure, loss.bound, refit_rows, epsilon,
                              delta, rng, weighting$values[validation],
                              offsetting$values[validation])
           })
    })
  cvfit <- cv_procedure(records, call, family, type.measure, held_out, loss.bound, refit,
                        refit.budget, epsilon, delta, rng, folds)
  note_cv_disclosures(cvfit, labelled$disclosures)
}

# A cv fit's disclosures, on its ledger and on those of the fits it holds.
note_cv_disclosures <- function(cvfit, disclosures) {
  if (!length(disclosures)) return(cvfit)
  cvfit$privacy <- note_disclosures(cvfit$privacy, disclosures)
  for (part in c("dpglmnet.fit", "refit")) {
    if (!is.null(cvfit[[part]])) {
      cvfit[[part]]$privacy <- note_disclosures(cvfit[[part]]$privacy, disclosures)
    }
  }
  cvfit
}

# The procedure of cv.dpglmnet() once its arguments are checked, on the
# records `records` gives (in memory, above; a database table,
# R/database-cv.R), so that both run the same plan, split, path, curve,
# choice, refit and ledger:
#   n, x, y, arguments       all the records and the path's arguments for
#                            them (the single-lambda fit, the refit);
#   plan_part(n_train, arguments)  list(x, y, arguments) standing in for a
#                            training part of that size (planning reads
#                            sizes only);
#   split(validation, arguments)   the parts of the drawn split: list(x, y,
#                            arguments) of the training part, and
#                            curve(fit, loss.bound, refit_rows), the private
#                            validation curve on the validation part.
cv_procedure <- function(records, call, family, type.measure, held_out, loss.bound,
                         refit, refit.budget, epsilon, delta, rng, nfolds = NULL) {
  n <- records$n
  arguments <- records$arguments
  # solver = "auto" picked the l1 solver, or the intercept alone
  # (R/intercept.R), for the training part: it decides at the full n
  # (R/highdim.R), so that the plan, the refit and a fit on all records
  # agree (p >= n / 2 can hold for the part and not for all records).
  # Decided before the refit's budget, whose plan reads the solver. (The
  # rule reads epsilon only through is.finite(), so the whole budget stands
  # in for the path's share.)
  auto_choice <- NULL
  # (whether the fit at the full n is a moderate-n one, which says why
  # there is one fit; NULL: the training part's plan says)
  switched_at_full <- NULL
  solver <- arguments[["solver", exact = TRUE]]
  if (is.null(solver) || identical(solver, "auto")) {
    part <- records$plan_part(n - held_out, arguments)
    first <- planned_problem(part$x, part$y, c(part$arguments, list(
      epsilon = epsilon, delta = delta, rng = rng)))
    if (isTRUE(first$bound_scaling) || isTRUE(first$moderate_n_switched)) {
      decided <- resolve_cv_auto_solver(records$x, records$y, arguments, epsilon, delta,
                                        rng)
      arguments <- decided$arguments
      auto_choice <- decided$reason
      switched_at_full <- decided$switched
    }
  }
  part <- records$plan_part(n - held_out, arguments)
  # The budget of each release (public: from n, p and the arguments only).
  budget <- if (refit) {
    refit_budget(records$x, records$y, part$x, part$y, arguments, epsilon, delta,
                 refit.budget, rng, path_arguments = part$arguments)
  } else {
    list(path = epsilon, refit_rows = NULL)
  }
  planned <- planned_problem(part$x, part$y, c(part$arguments, list(
    epsilon = budget$path, delta = delta, rng = rng)))
  # (what decides the split)
  planned <- planned[c("nlambda", "single_lambda", "solver", "bound_scaling",
                       "moderate_n_switched")]
  rm(part)
  if (planned$nlambda < 2L) {
    # One lambda (the automatic schedule's choice for this budget, or the
    # user's nlambda / l1.radius, or solver = "auto"'s one public l1 radius
    # for p large against n, which is the default and needs no warning):
    # nothing to choose, so no split, no choice and no refit; the path is
    # fitted on all records with the whole budget.
    # (the intercept alone at moderate n has its own warning, R/moderate-n.R)
    switched <- if (!is.null(switched_at_full)) switched_at_full
                else isTRUE(planned$bound_scaling) || isTRUE(planned$moderate_n_switched)
    if (!switched)
      dpglmnet_warn(sprintf(paste(
      "the budget affords a single %s on the %d training records of a split",
      "(see `nlambda` in ?dpglmnet): with nothing to choose, the path is fitted",
      "at one %s on all %d records with the whole budget, without a validation",
      "split%s."), planned_parameter(planned), n - held_out, planned_parameter(planned),
      n, if (refit) " or a refit" else ""))
    else if (refit)
      # (the moderate-n fits say why there is one fit, R/moderate-n.R; the
      # refit asked for is not made, and says so)
      dpglmnet_warn(sprintf(paste(
        "refit = TRUE: the fit is made once, on all %d records with the whole",
        "budget (solver = \"auto\" fits one public lambda here: nothing to",
        "choose), so there is no refit."), n))
    refit <- FALSE
    validation <- integer(0)
    whole <- c(arguments, list(epsilon = epsilon, delta = delta, rng = rng))
    fit <- if (isTRUE(planned$single_lambda)) {
      single_lambda_fit(records$x, records$y, whole, auto_choice)
    } else call_dpglmnet(records$x, records$y, whole)
    loss.bound <- NA_real_
    curve <- NULL
  } else {
    # The split: drawn from R's RNG, independently of the data.
    warn_one_fold(nfolds)
    validation <- sort(sample.int(n, held_out))
    parts <- records$split(validation, arguments)
    fit <- call_dpglmnet(parts$x, parts$y, c(
      parts$arguments, list(epsilon = budget$path, delta = delta, rng = rng)))
    if (is.null(loss.bound)) {
      # (the fit's y.bound: the envelope max(|lower|, |upper|) of an
      # interval, a magnitude bound on the clamped y, not the argument as
      # given, which may be c(lower, upper))
      loss.bound <- default_loss_bound(
        type.measure, fit, fit$settings$y.bound,
        curve_noise_ratio(length(fit$lambda), held_out, type.measure, budget$refit_rows,
                          epsilon, delta))
    }
    loss.bound <- min(loss.bound, natural_loss_bound(type.measure, family))
    curve <- if (length(fit$lambda) < 2L) {
      # (not expected: the plan above said the path has several lambdas)
      dpglmnet_warn(paste(
        "the path has a single lambda on this data: nothing to choose; the",
        "validation part is unused."))
      loss.bound <- NA_real_
      NULL
    } else {
      parts$curve(fit, loss.bound, budget$refit_rows)
    }
  }
  summary <- if (is.null(curve)) {
    single <- rep(NA_real_, length(fit$lambda))
    list(cvm = single, cvsd = single, cvup = single, cvlo = single,
         cvsd.sampling = single, cvsd.noise = NA_real_, index.min = 1L, index.1se = 1L,
         rows = NULL)
  } else {
    curve
  }
  lambda.min <- fit$lambda[summary$index.min]
  refit_fit <- if (refit) {
    call_dpglmnet(records$x, records$y, c(refit_arguments(arguments, lambda.min, fit),
                                          list(epsilon = budget$refit, delta = delta,
                                               rng = rng)))
  }
  # (the full-n decision of solver = "auto" that set the solver: the fits
  # say why, as dpglmnet()'s own choice would)
  # (a fit that says more, the signal check's note, keeps its own)
  if (!is.null(auto_choice)) {
    if (is.null(fit$settings$solver_choice)) fit$settings$solver_choice <- auto_choice
    if (refit && is.null(refit_fit$settings$solver_choice)) {
      refit_fit$settings$solver_choice <- auto_choice
    }
  }
  # The path reads the training part (part 1), the curve the validation
  # part (part 2), the refit every record (part 0). With nothing chosen the
  # validation part is unused and the path is marked as reading everything.
  privacy <- new_privacy_ledger(mechanism_table(c(
    ledger_rows(fit$privacy, if (is.null(summary$rows)) 0L else 1L),
    summary$rows,
    if (refit) ledger_rows(refit_fit$privacy, 0L, "refit on all records: ", "refit/"))),
    0, epsilon, delta, rng,
    # (the full sensitivity vectors of the fits' and the curve's rows)
    sensitivities = c(fit$privacy$sensitivities, summary$sensitivities,
                      if (refit) stats::setNames(refit_fit$privacy$sensitivities,
                                                 paste0("refit/", names(
                                                   refit_fit$privacy$sensitivities)))))
  if (privacy$epsilon > epsilon) {
    stop(sprintf(paste("internal error: the procedure's ledger spends epsilon = %s,",
                       "above the target %s; nothing is returned."),
                 format(privacy$epsilon, digits = 12), format(epsilon)), call. = FALSE)
  }
  index <- c(min = summary$index.min, "1se" = summary$index.1se)
  warn_noisy_curve(summary$cvm, summary$cvsd.noise)
  structure(list(
    lambda = fit$lambda, cvm = summary$cvm, cvsd = summary$cvsd, cvup = summary$cvup,
    cvlo = summary$cvlo, nzero = stats::setNames(fit$df, names(fit$a0)),
    call = call, name = stats::setNames(cv_measure_name(type.measure, family$name),
                                        type.measure),
    dpglmnet.fit = fit, lambda.min = lambda.min, lambda.1se = fit$lambda[index[["1se"]]],
    index = matrix(index, dimnames = list(names(index), "Lambda")),
    cvsd.sampling = summary$cvsd.sampling, cvsd.noise = summary$cvsd.noise,
    type.measure = type.measure, validation = validation, loss.bound = loss.bound,
    refit = refit_fit, refit.budget = if (refit) refit.budget, privacy = privacy
  ), class = "cv.dpglmnet")
}

# The private validation curve (see the Privacy section of ?cv.dpglmnet):
# the per-record losses of the validation records along the released path,
# the curve's noise calibrated so that the validation part (with the
# refit's rows of part 0, if any) spends at most epsilon at delta, its
# release, and its summary (cvm, cvsd, lambda.min, lambda.1se) with the
# ledger rows. x_val: the validation records (a row subset of x, R/rows.R).
validation_curve <- function(fit, x_val, y_val, family, type.measure, loss.bound,
                             refit_rows, epsilon, delta, rng, weights = NULL,
                             offset = NULL) {
  n_val <- nrow(x_val)
  private_curve(fit, n_val, type.measure, loss.bound, refit_rows, epsilon, delta,
                note = if (!is.null(weights)) "(losses weighted by omega_i before the clip)",
                release = function(curve, second) {
    # predict(fit, x_val, type = "link"), read in place
    link <- path_link(fit, x_val)
    if (!is.null(offset)) link <- link + offset
    loss <- validation_loss(type.measure, family, link, y_val)
    # glmnet's weighted mean of the losses: each record's loss times omega_i
    # = w_i n_train / S_train (the training part's released weight sum; at
    # epsilon = Inf the validation part's exact sum), before the clip to B,
    # so the sensitivity stays B / n_val (R/weights.R)
    if (!is.null(weights)) {
      scale <- if (is.finite(epsilon)) fit$nobs / fit$settings$weight_sum
               else n_val / sum(weights)
      loss <- loss * (weights * scale)
    }
    release_curve(loss, loss.bound, curve, second, rng)
  })
}

# The arguments in `...` go to dpglmnet(): named, and its own (not x, y or
# what cv.dpglmnet() sets itself). cv.glmnet()'s own arguments, so that a
# glmnet script runs unchanged: those without effect on the fit
# (`parallel`, `grouped`, `alignment`, `keep = FALSE`, `gamma`: computation,
# cvsd's grouping of glmnet's folds, the relaxed fit's) are checked and
# dropped (`trace.it` is dpglmnet()'s own and is passed on); those that
# cannot be honoured privately are an error saying why. Returns the
# arguments for dpglmnet().
cv_glmnet_ignored <- c("parallel", "grouped", "alignment", "keep", "gamma")
check_path_arguments <- function(arguments) {
  if (!length(arguments)) return(arguments)
  given <- names(arguments)
  if (is.null(given) || any(!nzchar(given))) {
    dpglmnet_abort("...", "must hold named arguments of dpglmnet().")
  }
  value <- function(name) arguments[[name, exact = TRUE]]
  if (!is.null(value("foldid"))) {
    dpglmnet_abort("foldid", paste(
      "is not used: cv.dpglmnet() validates on one part of the records drawn at",
      "random (`validation.fraction`, or `nfolds` for one fold of that many);",
      "cross-validating over K folds trains on each record K - 1 times, each",
      "time charged to the privacy budget."))
  }
  for (name in c("parallel", "grouped")) {
    if (!is.null(value(name))) check_flag(value(name), name)
  }
  if (!is.null(value("alignment"))) {
    check_choice(value("alignment"), c("lambda", "fraction"), "alignment")
  }
  if (!is.null(value("keep"))) {
    check_flag(value("keep"), "keep")
    if (value("keep")) {
      dpglmnet_abort("keep", paste(
        "= TRUE is not offered: glmnet's `fit.preval` are predictions on the",
        "training records, which are not private."))
    }
  }
  # (`gamma` belongs to the relaxed fit, refused with `relax = TRUE` by
  # glmnet_only_arguments())
  if (!is.null(value("gamma"))) {
    check_numeric(value("gamma"), "gamma", 0, 1, length = NULL)
  }
  arguments <- arguments[!given %in% cv_glmnet_ignored]
  allowed <- c(setdiff(names(formals(dpglmnet)), c("x", "y", "epsilon", "delta", "rng", "...")),
               glmnet_only_names)
  unknown <- setdiff(names(arguments), allowed)
  if (length(unknown)) {
    dpglmnet_abort(unknown[1L], "is not an argument of dpglmnet() that cv.dpglmnet() passes on.")
  }
  arguments
}

# cv.glmnet()'s `nfolds` (K): the validation part is one fold of K, i.e.
# validation.fraction = 1 / K (its attribute "nfolds": K), with a warning
# where the split is drawn that the folds are not crossed (each record
# trained on K - 1 times would spend the budget K - 1 times). With a
# `validation.fraction` given too: an error.
folds_validation_fraction <- function(nfolds, validation.fraction, fraction_given) {
  if (is.null(nfolds)) return(validation.fraction)
  nfolds <- as.integer(check_numeric(nfolds, "nfolds", lower = 3, upper = 1e6, integer = TRUE))
  if (fraction_given) {
    dpglmnet_abort("nfolds", "and `validation.fraction` cannot both be given: give one of them.")
  }
  structure(1 / nfolds, nfolds = nfolds)
}

# Said where the split is drawn (cv_procedure()): with one lambda there is
# no split, and that warning says so instead.
warn_one_fold <- function(nfolds) {
  if (is.null(nfolds)) return(invisible())
  dpglmnet_warn(sprintf(paste(
    "nfolds = %d: cv.dpglmnet() validates on one fold of %d (validation.fraction =",
    "1/%d) and trains on the others, instead of crossing the folds as cv.glmnet()",
    "does: crossing them trains on each record %d times, each time charged to the",
    "privacy budget."), nfolds, nfolds, nfolds, nfolds - 1L))
}

# The largest `loss.bound` accepted: a finite public maximum, as for
# `x.bounds` and `y.bound`.
max_loss_bound <- 1e100

# A response without a natural bound needs a public bound for the
# validation loss (its sensitivity): `loss.bound` or `y.bound`; at epsilon =
# Inf the default loss.bound clips nothing, so neither is needed. (In
# memory and on a table, before any computation.)
check_loss_bound_given <- function(family, epsilon, loss.bound, y.bound) {
  if (family$bounded_response && is.finite(epsilon) && is.null(loss.bound) &&
      is.null(y.bound)) {
    dpglmnet_abort("loss.bound", sprintf(paste(
      "or `y.bound` must be given for family = \"%s\": the validation",
      "loss is clipped to a public bound, its sensitivity."), family$name))
  }
}

# "lambda", or "radius" for the l1-ball solvers (a planned problem).
planned_parameter <- function(problem) {
  if (solver_object(problem$solver)$by_radius) "l1 radius" else "lambda"
}

# dpglmnet(x, y, <arguments>) on all records at the automatic schedule's
# single lambda (single_lambda_scale / sqrt(n) on the standardized scale,
# passes as the schedule affords them for n records): what cv.dpglmnet()
# fits when the training part of a split would afford one lambda only.
# dpglmnet()'s own stages (check, fit, assemble), with the schedule held at
# one lambda even
# where all n records would afford more: there is no validation part to
# choose among them.
single_lambda_fit <- function(x, y, arguments, auto_choice = NULL) {
  call <- public_call(as.call(c(list(quote(dpglmnet), x = quote(x), y = quote(y)),
                                arguments)), "dpglmnet")
  spec <- checked_spec(x, y, arguments, quiet = FALSE)
  # (checked on a row subset of all records, fitted on x itself: with its
  # factor blocks made disjoint record by record, as the check made them,
  # R/dpcd.R)
  spec$x <- if (any(spec$factor_blocks != 0)) disjoint_blocks(x, spec$factor_blocks) else x
  spec$single_requested <- TRUE
  # solver = "auto" decided at the full n (resolve_cv_auto_solver()) is
  # still "auto"'s choice: the fit makes what "auto" makes (the signal
  # check, R/signal.R)
  if (!is.null(auto_choice)) spec$solver_choice <- auto_choice
  plan <- plan_private_path(spec)
  new_dpglmnet(plan$problem, fit_private_path(plan), call)
}

# dpglmnet(x, y, <arguments>) with x and y passed by name, so the fit's
# `call` names them instead of holding the records themselves (a call built
# by do.call() would carry the data inside the returned object).
call_dpglmnet <- function(x, y, arguments) {
  eval(as.call(c(list(quote(dpglmnet), x = quote(x), y = quote(y)), arguments)))
}

# The refit's arguments: those of the path, with the chosen lambda (the
# chosen radius for the l1-ball solvers) and the path's standardize setting.
refit_arguments <- function(arguments, lambda.min, path) {
  arguments[["lambda"]] <- NULL
  arguments[["nlambda"]] <- NULL
  arguments[["l1.radius"]] <- NULL
  arguments[["standardize"]] <- path$settings$standardize
  arguments[[if (is_radius_path(path)) "l1.radius" else "lambda"]] <- lambda.min
  arguments
}

# The rows of a fit's ledger as rows of the procedure's ledger: at the noise
# they ran with (no longer calibrated), reading part `part` (0: every
# record, 1: the training part), their names and keys prefixed (the
# refit's, so that every key names one row).
ledger_rows <- function(ledger, part, prefix = "", key_prefix = "") {
  rows <- ledger$mechanisms[, names(mechanism("", "gaussian", 0, ""))]
  rows$calibrated <- FALSE
  rows$part <- as.integer(part)
  rows$mechanism <- paste0(prefix, rows$mechanism)
  rows$key <- paste0(key_prefix, rows$key)
  lapply(seq_len(nrow(rows)), function(k) as.list(rows[k, ]))
}

# The budget of each release with a refit (see the Privacy section of
# ?cv.dpglmnet): the targets the refit and the path are fitted to, such
# that refit + path spends at most epsilon at delta, and the refit's
# ledger rows (the curve is calibrated beside them so that refit + curve
# does too). Everything here depends on public inputs only:
# the ledgers a fit will have follow from n, p and the arguments.
refit_budget <- function(x, y, x_train, y_train, arguments, epsilon, delta,
                         refit.budget, rng, path_arguments = arguments) {
  if (!is.finite(epsilon)) {
    return(list(refit = Inf, path = Inf, refit_rows = NULL))
  }
  with_budget <- function(arguments, e) c(arguments, list(epsilon = e, delta = delta, rng = rng))
  path_plan <- planned_problem(x_train, y_train, with_budget(path_arguments, epsilon))
  plan_refit <- list(settings = list(
    standardize = !is.null(path_plan$standardization),
    path_parameter = if (solver_object(path_plan$solver)$by_radius) "radius" else "lambda"))
  mu <- plan_gdp_mu(epsilon, delta)
  refit_epsilon <- .gdp_epsilon_cpp(sqrt(refit.budget) * mu, delta)
  # The refit's ledger does not depend on the value of its lambda: 1 stands
  # in for the choice.
  refit_rows <- ledger_rows(planned_ledger(planned_problem(
    x, y, with_budget(refit_arguments(arguments, 1, plan_refit), refit_epsilon))), 0L,
    key_prefix = "refit/")
  total_with_path <- function(e) {
    path <- planned_ledger(planned_problem(x_train, y_train, with_budget(path_arguments, e)))
    new_privacy_ledger(mechanism_table(c(refit_rows, ledger_rows(path, 1L))), 0,
                       epsilon, delta, rng)$epsilon
  }
  # Start at the remaining share of mu^2 (a hair below, so that rounding in
  # the two calibrations cannot tip it over): exact when all is Gaussian.
  start <- .gdp_epsilon_cpp(sqrt(1 - refit.budget) * mu * (1 - 1e-7), delta)
  path_epsilon <- largest_admissible(total_with_path, start, epsilon)
  # (the curve's noise is calibrated with the refit's rows once the path is
  # released and its number of lambdas known: see validation_curve())
  list(refit = refit_epsilon, path = path_epsilon, refit_rows = refit_rows)
}

# The largest e in (0, upper] with total(e) <= upper, total increasing in
# e: regula falsi in log e (Illinois), from `start`, keeping an admissible
# lower end; it stops when total(e) is within `tolerance` (relative) of
# upper, or the bracket is that narrow, and returns the admissible end.
# (Each evaluation plans a fit and calibrates it, so few evaluations
# matter: bisection took about 20, this 3 to 6.)
largest_admissible <- function(total, start, upper, tolerance = 1e-6) {
  excess <- function(e) total(e) - upper
  hi <- upper
  excess_hi <- excess(hi)
  if (excess_hi <= 0) return(upper)
  lo <- min(start, upper)
  excess_lo <- excess(lo)
  halvings <- 0L
  while (excess_lo > 0) {
    halvings <- halvings + 1L
    if (halvings > 200L) {
      dpglmnet_abort("refit.budget", "leaves no budget for the path: lower it.")
    }
    hi <- lo
    excess_hi <- excess_lo
    lo <- lo / 2
    excess_lo <- excess(lo)
  }
  kept <- 0L
  for (iteration in seq_len(100L)) {
    if (excess_lo >= -tolerance * upper || hi / lo - 1 <= tolerance) break
    fraction <- excess_lo / (excess_lo - excess_hi)
    mid <- exp(log(lo) + fraction * (log(hi) - log(lo)))
    mid <- min(max(mid, lo * (1 + tolerance / 4)), hi / (1 + tolerance / 4))
    value <- excess(mid)
    if (value <= 0) {
      lo <- mid
      excess_lo <- value
      if (kept == 1L) excess_hi <- excess_hi / 2  # hi kept twice: Illinois
      kept <- 1L
    } else {
      hi <- mid
      excess_hi <- value
      if (kept == -1L) excess_lo <- excess_lo / 2
      kept <- -1L
    }
  }
  lo
}

# The planned problem dpglmnet(x, y, <arguments>) would fit, without
# fitting: its spec (checked_spec()) and its plan's schedule, from public
# inputs only (the plan itself: planned_ledger()).
planned_problem <- function(x, y, arguments, quiet = TRUE) {
  schedule_problem(checked_spec(x, y, arguments, quiet))
}

# The spec of dpglmnet(x, y, <arguments>) (check_problem()): dpglmnet()'s
# formals bound in one frame as a call binds them (the given values; the
# defaults as promises in that frame, so defaults that refer to other
# arguments see them), then check_problem() on them. x was checked by the
# caller, and is not scanned again; the messages and warnings of the checks
# are the fit's, which says them when it runs.
checked_spec <- function(x, y, arguments, quiet = TRUE) {
  # (x, checked by the caller, as a row subset of all its records: the plan
  # reads its size, not its values, which are not scanned again, R/rows.R)
  if (!inherits(x, "dpglmnet_rows") && !is_database_source(x)) {
    x <- record_subset(x, seq_len(nrow(x)))
  }
  defaults <- formals(dpglmnet)
  defaults[["..."]] <- NULL
  frame <- new.env(parent = environment(dpglmnet))
  given <- c(list(x = x, y = y), arguments[setdiff(names(arguments), glmnet_only_names)])
  # (glmnet's arguments, checked as dpglmnet() checks them)
  glmnet_only_arguments(arguments[intersect(names(arguments), glmnet_only_names)])
  for (name in names(defaults)) {
    if (name %in% names(given)) {
      assign(name, given[[name]], envir = frame)
    } else {
      eval(call("delayedAssign", name, defaults[[name]], frame, frame))
    }
  }
  checked <- intersect(names(formals(check_problem)), names(defaults))
  check <- as.call(c(list(quote(check_problem)),
                     stats::setNames(lapply(checked, as.name), checked)))
  if (!quiet) return(eval(check, frame))
  suppressMessages(withCallingHandlers(eval(check, frame), dpglmnet_warning = function(w) {
    invokeRestart("muffleWarning")
  }))
}

# The ledger fit_private_path() will build for a checked problem: the same
# mechanisms (standardization, smoothness, lambda_max, path) and the same
# calibration, from public inputs only (tests/testthat/test-cv.R checks
# that the two agree).
planned_ledger <- function(problem) {
  plan <- plan_private_path(problem)
  new_privacy_ledger(plan$mechanisms, plan$z, problem$epsilon, problem$delta, problem$rng,
                     accounted = plan$calibration$account)
}

# The arguments of dpglmnet() for the records `index`: the per-record
# `weights` and `offset` subset with them (R/weights.R); the rest as given.
record_arguments <- function(arguments, index) {
  for (name in c("weights", "offset")) {
    value <- arguments[[name, exact = TRUE]]
    if (!is.null(value)) arguments[[name]] <- as.numeric(value)[index]
  }
  arguments
}

subset_response <- function(y, index) {
  if (is.matrix(y)) y[index, , drop = FALSE] else y[index]
}

# A released curve whose spread is within what its noise alone would
# draw chooses lambda.min by noise (released values only): an independent
# first-use review gave cv.dpglmnet() three lambdas of its own on 60
# validation records, cvm 14.6 / 0.0 / 62.7 with noise sd 30.5 on each,
# and no word. The expected range of K independent normal draws of sd s
# is about 2 s qnorm((K - 0.375) / (K + 0.25)) (Blom's approximation:
# 1.74 s for 3, 3.09 s for 10); a spread under `noisy_curve_margin` times
# that is read as noise.
noisy_curve_margin <- 1.5

warn_noisy_curve <- function(cvm, noise_sd) {
  k <- length(cvm)
  if (k < 2L || !isTRUE(noise_sd > 0) || anyNA(cvm)) return(invisible())
  spread <- diff(range(cvm))
  noise_range <- 2 * noise_sd * stats::qnorm((k - 0.375) / (k + 0.25))
  if (spread > noisy_curve_margin * noise_range) return(invisible())
  dpglmnet_warn(sprintf(paste(
    "the validation curve's spread (%s) is within what its noise alone would",
    "draw (sd %s on each cvm): lambda.min and lambda.1se are chosen mostly by",
    "noise (a cvm at 0 is a noisy value clamped to where the loss can lie).",
    "More validation records (a larger n), a larger epsilon, or the default",
    "lambdas (fewer where the budget is tight) resolve it."),
    format(signif(spread, 3)), format(signif(noise_sd, 3))))
}
