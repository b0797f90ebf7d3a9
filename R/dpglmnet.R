#' Fit a differentially private elastic-net regularization path
#'
#' Fits a LASSO, elastic-net or ridge path for least squares
#' (`family = "gaussian"`) or logistic regression (`family = "binomial"`),
#' with the objective, arguments and returned object of [glmnet::glmnet()],
#' under (epsilon, delta)-differential privacy for the whole returned object.
#' This page covers what every solver shares; each solver's algorithm,
#' accounting and hyperparameters are on its own page (Section Solvers).
#'
#' @section Objective:
#' As glmnet: gaussian \eqn{(1/2n)\sum_i (y_i - b_0 - x_i'b)^2 + \lambda P(b)},
#' binomial \eqn{-(1/n)} log-likelihood \eqn{+ \lambda P(b)}, with
#' \eqn{P(b) = \sum_j pf_j ((1-\alpha)/2 b_j^2 + \alpha |b_j|)} and
#' `lower.limits <= b <= upper.limits`. `penalty.factor` is rescaled to sum to
#' the number of columns, as glmnet does.
#'
#' @section Privacy:
#' One record is one row of `x` with its `y` (and its weight and offset,
#' when given); neighbouring datasets differ by
#' replacing one record (`n` is public). Everything returned, printed or
#' plotted is (epsilon, delta)-DP, or is computed from public inputs: `n`,
#' `p`, `x.bounds`, `y.bound`, a user `lambda` and the hyperparameters.
#' Give public bounds on the data, `x.bounds` and, for a gaussian `y`,
#' `y.bound`: records are clamped to them (a per-record map, free for
#' privacy), and they bound how much one record can move what is released.
#' The defaults choose the rest (standardization, the lambda path, the
#' numbers of lambdas and passes) privately or from public inputs. The
#' noise is calibrated so that the whole fit spends at most `epsilon`; the
#' ledger in `fit$privacy` lists every mechanism and the total spent (see
#' [print.dpglmnet_privacy()]). How each solver adds its noise and is
#' accounted is on its page.
#'
#' @section Private standardization:
#' With `standardize = TRUE`, each column (and a gaussian `y`) is first
#' clamped to a range chosen from two noisy histograms of its values, read
#' in one pass: 41 bins log-spaced about 0 within `x.bounds` (they find a
#' column's order of magnitude however crude its bound) and 32 equal bins
#' (they refine the ends); replace-one L2 sensitivity 2 for the pair. The
#' public bounds are narrowed only through tails whose released counts are
#' indistinguishable from empty, so tight bounds, such as 1 for a 0/1
#' dummy, are kept and crude ones cost little; then the mean and second
#' moment of the clamped column are released. A gaussian `y` gets a quarter
#' of `standardize.budget` (its mean is the intercept and its scale
#' multiplies every coefficient); the columns of `x` share the rest. A
#' column whose released spread cannot be told from the noise is treated as
#' constant (coefficient exactly 0, with a warning), so no coefficient is
#' noise divided by a noisy scale, unless its released counts show records
#' in two places (on both sides of an edge between the 32 equal bins, each
#' side clearly above the counts' noise): such a column is not constant,
#' and it keeps the smallest scale its noise can resolve (a coefficient
#' shrunk towards 0, with a warning; `summary()`'s `floored`). DP-CD takes
#' no step on a constant column (nor on a
#' column with `lower.limits` and `upper.limits` both 0), and the path's
#' budget is spread over the coordinates that move: fewer releases, each
#' with less noise, at the same privacy cost (the ledger's path row says
#' so). When the histograms' count noise would
#' exceed `n / 20` records (`n / 10` for a gaussian y's) the public bounds
#' are used instead (no histogram is released). Dense and sparse `x` go
#' through the same mechanism; sparse `x` is scaled but not centred and its
#' clamp keeps 0 (with an intercept the solution is the same).
#'
#' @section Weights and offsets:
#' `weights` and `offset` are glmnet's, and they are part of a record:
#' replacing a record replaces its weight and offset too. Each is clamped
#' to a public bound (`weights.bound` W, `offset.bound`), a per-record map
#' that is free for privacy. glmnet rescales the weights to sum to n; their
#' sum S is data, so it is released once with the Gaussian mechanism
#' (replace-one sensitivity W; a ledger row "weights: sum of the weights"
#' with 2% of the Gaussian budget, calibrated at the fit's one noise level),
#' floored at the public \eqn{W n / 1000}, and the solver uses
#' \eqn{\omega_i = w_i n / S}. Every per-record term is then weighted:
#' DP-CD's clipped coordinate gradients (and the private `lambda_max`)
#' multiply each record's term by \eqn{\omega_i} before clipping it, so
#' their sensitivity stays the clip; the standardization means and second
#' moments (x and y) are glmnet's weighted ones, with sensitivities \eqn{W
#' n / S} times the unweighted ones; the `"bounds"` smoothness constants
#' are multiplied by \eqn{W n / S}. The standardization's range histograms
#' stay unweighted: they locate a column's values (a count per bin), they
#' do not weigh them. [cv.dpglmnet()] splits weights and offsets with their
#' records and weighs each validation loss by \eqn{\omega_i} (the training
#' part's released sum) before clipping it. The offset enters the linear
#' predictor (binomial: inside the link); for gaussian it is subtracted from
#' `y`, as glmnet does, so every residual bound widens by the offset's
#' range. With `epsilon = Inf` no bound is needed, the exact sum is used,
#' and the fit is glmnet's. The other solvers refuse `weights` and `offset`.
#'
#' @section Solvers:
#' * `"auto"` (default): a public rule (from `n`, `p`, `epsilon` and the
#'   arguments, never from the data, so it costs nothing) picks `"dpcd"`,
#'   or, when p is large against n, `"dpfw"` on columns scaled by their
#'   public bounds (see Section High dimension), or, where the private
#'   standardization could resolve no column, `"intercept"` (see Section
#'   Moderate n). `fit$settings$solver` holds
#'   the solver used and `fit$settings$solver_choice` why; `print()` shows
#'   both.
#' * `"dpcd"`: proximal DP coordinate descent (Mangold et al.
#'   2022), accounted exactly with Gaussian DP; also `average`,
#'   `selection` and `options(dpglmnet.threads)`. See [dpcd].
#' * `"dpsgd"`: proximal DP-SGD, minibatches drawn without replacement,
#'   accounted with Renyi DP. See [dpsgd].
#' * `"dpscd"`: private stochastic dual coordinate descent (Damaskinos et
#'   al. 2021) for `alpha = 0` (ridge, L2 logistic). See [dpscd].
#' * `"dpfw"`, `"dpfw-vr"` and `"nmd"`: private Frank-Wolfe, its
#'   variance-reduced pure-DP version and noisy mirror descent over an l1
#'   ball, whose error grows like \eqn{\log p}; the path runs over l1 radii
#'   (`l1.radius`) instead of lambdas. See [dpfw].
#' * `"intercept"`: the intercept alone, every coefficient 0. Binomial: the
#'   proportion of the second class (on the logit scale, the proportion
#'   clamped into \eqn{[1/n, 1 - 1/n]}), released once with the whole
#'   budget by the Laplace mechanism (pure `epsilon`-DP, replace-one
#'   sensitivity \eqn{1/n}; the ledger has that one row and spends
#'   `epsilon`). Gaussian (`y.bound` needed): the mean of `y` clamped to
#'   \eqn{[l, u]} by the Laplace mechanism (sensitivity \eqn{(u - l)/n}),
#'   where \eqn{[l, u]} is the public interval, with the whole budget, or,
#'   where the count noise of a histogram at half of `epsilon` is at most
#'   \eqn{n/10} records (as for the standardization's `y`), a range of `y`
#'   released first from noisy histograms as the standardization releases
#'   `y`'s (Gaussian, L2 sensitivity 2, calibrated to what the mean leaves),
#'   the mean then at half of `epsilon`: a crude `y.bound` costs little (a
#'   log price near 10 with `y.bound` 22; a test score near 654 with
#'   `y.bound` 1414 and 336 records at `epsilon = 0.5`: the intercept's
#'   error 0.15 sd of `y`, against 1.3 over the whole interval). x is
#'   not read (its values are checked). The path has one lambda, a public
#'   bound on glmnet's \eqn{\lambda_{max}}, where glmnet's own path starts
#'   with every coefficient 0: \eqn{(u - l)/2} (gaussian; \eqn{1/2}
#'   binomial) over `alpha` (floored at 1e-3) times the smallest positive
#'   `penalty.factor`. Given by the user it ignores `lambda`, `nlambda`,
#'   `passes`, `clip` and `smoothness` (a warning names those given) and
#'   refuses `intercept = FALSE`, `weights` and `offset`.
#'
#' @section High dimension:
#' With `solver = "auto"` the fit uses private Frank-Wolfe ([dpfw]) instead
#' of DP-CD when all of these hold (public inputs only): `p >= n / 2`,
#' `epsilon` finite, `x.bounds` given, `y.bound` given (gaussian),
#' `alpha = 1`, no `lambda` and no `nlambda` (either asks for a path over
#' lambda, which the one-radius fit does not have), no finite
#' `lower.limits` / `upper.limits`, equal `penalty.factor`, and
#' `standardize` not set to `TRUE`. There, private standardization splits
#' its budget over p columns and cannot resolve them, and DP-CD's noise
#' grows like \eqn{\sqrt p}, while a Frank-Wolfe selection pays
#' \eqn{\log 2p}. `fit$settings$solver_choice` says which condition failed
#' when the rule picks DP-CD.
#'
#' One exception is deliberate: with `epsilon = Inf` the rule picks DP-CD,
#' with standardization (the default with `x.bounds`), at any p: there is
#' nothing to protect, so the fit is glmnet's path over lambda, not the
#' private one-radius approximation below. The same data at a finite and
#' an infinite `epsilon` are therefore fitted by different solvers (and
#' objectives: a penalized path against one l1 ball); give `solver =
#' "dpcd"` to both to compare like with like.
#'
#' The private fit then:
#' * maps each column to \eqn{[-1, 1]} with its public interval
#'   \eqn{[l_j, u_j]}: \eqn{(x_{ij} - m_j) / h_j} with the midpoint
#'   \eqn{m_j = (l_j + u_j) / 2} and the half-width \eqn{h_j = (u_j - l_j)
#'   / 2}, and centres a gaussian `y` at its interval's midpoint \eqn{m_y}
#'   (free: public constants, nothing is released; no standardization). A
#'   0/1 dummy on \[0, 1\] becomes \eqn{\pm 1}, a 0/1/2 code on \[0, 2\]
#'   \eqn{-1, 0, 1}. A sparse `x` stays sparse: Frank-Wolfe subtracts the
#'   midpoints itself, and the fit is the dense one. Without an intercept
#'   nothing is centred: the columns are divided by \eqn{b_j = \max(|l_j|,
#'   |u_j|)} (then read \eqn{h_j = b_j}, \eqn{m_j = 0} below);
#' * fits one l1 ball on that scale, \eqn{\sum_j |c_j| \le R}, mapped back
#'   as \eqn{\beta_j = c_j / h_j} and \eqn{a_0 = m_y + c_0 - \sum_j \beta_j
#'   m_j}: on the original scale the ball is \eqn{\sum_j h_j |\beta_j| \le
#'   R}, with `R` the half-width of y's interval `(upper - lower) / 2`
#'   (gaussian, on the scale of y: predictions then move at most that far
#'   from the intercept) or 20 on the logit scale (binomial);
#' * clips each per-record gradient term of a column to 0.005 times that
#'   half-width (binomial: 0.005): well below a typical term, so the
#'   clipped gradient is nearly a sign statistic (it keeps at least
#'   \eqn{2/\pi} of the signal while its noise shrinks with the clip);
#' * clips the intercept's per-record terms to its own public clip, 0.1
#'   times the half-width (binomial: 1, i.e. unclipped), so it reaches its
#'   level in a few steps (the ledger's intercept row states it; its noise
#'   is \eqn{3z \cdot 2 C_0 / n});
#' * takes \eqn{T = 0.3 \mu n / \log(2p)} Frank-Wolfe steps (\eqn{\mu}: the
#'   Gaussian-DP parameter of `epsilon`, `delta`), between 5 and 100: more
#'   steps at a fixed budget add noise to every selection, and late
#'   selections pick noise features. Where that count is below 5 (n = 400
#'   at epsilon 1, n = 1000 at 0.5, for p = 2n), the fit is the intercept
#'   alone, with a warning, unless you give `passes` or `l1.radius`: there
#'   dpfw had 1.4-1.6 times the mean's test error on generated data (and
#'   more than the majority class's misclassification).
#'
#' A `clip`, `passes` or `l1.radius` you give replaces the rule's (the
#' radius on the mapped scale above). DP-CD's own arguments (`average`,
#' `selection`, `smoothness`, `step`), when you set them, are ignored by
#' dpfw, with a warning; `clip = "quantile"` is an error there (give a
#' numeric clip, or `solver = "dpcd"`). With one radius there is nothing
#' to choose, so [cv.dpglmnet()] fits it on all records, without a
#' validation split. Measured (n = 2000, p = 4000, 8 active, `x.bounds =
#' 4`, epsilon 1): 7.6 of 8 features found, test MSE 0.22 of predicting
#' 0, where DP-CD found none; a response or columns far from 0 (y on
#' \[25, 75\], x on \[0, 8\]) fit as well as centred ones; see NEWS.md for
#' the settings measured.
#'
#' @section Moderate n:
#' With a few hundred to a few thousand records the noise of the private
#' standardization can exceed a column's variance: every column then reads
#' as constant and the fit is the mean (or majority) model. A public
#' criterion (from `n`, `p`, `epsilon`, `delta` and the budget shares,
#' never the data) measures it: \eqn{c = 16\, t_p\, \sigma_m / n}, with
#' \eqn{\sigma_m} the planned noise multiplier of the columns' second
#' moments and \eqn{t_p} the constant-column threshold (2, more for many
#' columns), i.e. the noise on the variance of a column whose sd is a
#' quarter of its public half-width, in units of what it can carry. When
#' `standardize.budget` is not given and \eqn{0.8 \le c \le 1.5} (where
#' the default share 0.3 often collapses to the mean model and twice as
#' much resolves the columns), the standardization takes 0.6 of
#' \eqn{\mu^2} instead of 0.3. When \eqn{c \ge 1.5} at the share used,
#' nothing measured beat the trivial model reliably, and the fit warns.
#' There, with `solver = "auto"`, the fit is the intercept alone
#' (`solver = "intercept"`, Section Solvers: the private mean of `y`, or
#' proportion of the second class, with the whole budget), decided by the
#' plan from the criterion at the default share, and the warning says so.
#' For a binomial response with \eqn{1.5 \le c < 12} it is DP-CD instead,
#' on the columns mapped to \eqn{[-1, 1]} by their public intervals
#' (nothing released for the scales: a 0/1 dummy keeps its full spread), at
#' one public lambda \eqn{0.25 / \sqrt{n}} with a clip of 0.15 per
#' coordinate and the whole budget (`summary()` and the warning say so).
#' Measured with [cv.dpglmnet()] at epsilon 1 (`inst/bench/real_sets.R`,
#' held-out misclassification over the majority class's): DNA (n = 3186,
#' 180 dummies) 1.00 to 0.29, BreastCancer (n = 683) 1.00 to 0.69,
#' HouseVotes84 (n = 232, epsilon 1) 1.00 to 0.22; on the generated
#' designs and Electricity subsamples of `inst/bench/moderate_n.R` in that
#' band it stayed at the trivial model's error (at most 1.006); above 12
#' (Sonar, n = 208, p = 60) it was up to 1.07, so the intercept alone stays
#' there; a path of lambdas chosen on the validation curve
#' there was up to 1.4 times the trivial model's error (noise), so the
#' lambda is fixed. A gaussian response keeps the
#' intercept alone: bound-scaled DP-CD was 1.08 to 1.3 times the mean's
#' test MSE on BostonHousing and Wage. The clip of 0.15 can hold the
#' intercept short of the base rate, so on weak signals this fit's
#' predicted probabilities lean toward the majority class (mean 0.19
#' against a rate of 0.43 on survival's gbsg at epsilon 1; a measured
#' alternative is in `inst/bench/results/2026-11-27-session27.md`): read
#' them as a ranking rather than as calibrated probabilities.
#' Below \eqn{c = 1.5} a binomial fit standardizes, but the criterion
#' supposes a column spread over a quarter of its interval: with crude
#' bounds the released moments can read every column as constant. Where
#' they read at least three quarters of the columns so, the path runs on
#' the bound-scaled columns as above, with the budget the standardization
#' left (its releases are made and charged; a warning and
#' `fit$settings$constant_fallback` say so). Before,
#' such fits were the intercept alone where a smaller epsilon used the
#' columns: ISLR2's Boston (crime above its median) at epsilon 2, 0.94 ->
#' 0.60 of the majority class's misclassification (bound-scaled at epsilon
#' 1: 0.61).
#' It is not chosen at `epsilon = Inf`, nor when `lambda`, `nlambda`,
#' `solver`, `standardize.budget`, `standardize = FALSE`, `weights` or an
#' `offset` is given, nor without `y.bound` (gaussian) or an intercept.
#' [cv.dpglmnet()] fits it on all records, without a split, when the
#' criterion at all n records (not only at its training part's) is
#' \eqn{\ge 1.5}. Measured (`inst/bench/moderate_n.R --intercept`, n =
#' 400 to 1000, epsilon 0.5 to 2): where \eqn{c \ge 1.5} at all n, the test
#' error over the trivial model's went from 1.13 on average and 5.2 at
#' worst to 1.001 and 1.020 on generated designs, from 1.06 and 2.05
#' (California epsilon 0.5, n = 400: 1.29) to 1.001 and 1.014 on California
#' and Electricity subsamples; no fit with \eqn{c < 1.5} changed. The cost:
#' on generated designs with tight bounds (1.2 times the largest value)
#' DP-CD was below the trivial model in some of those shapes (0.82 to
#' 0.96), which the intercept alone gives up.
#' Measured with [cv.dpglmnet()] at its defaults
#' (`inst/bench/moderate_n.R`, results in
#' `inst/bench/results/2026-11-25-moderate-n.md`): on generated gaussian
#' designs whose training part has \eqn{1 \le c < 1.5} the test MSE went
#' from 0.70 to 0.50 of the mean's; on subsamples of California from 1.05
#' to 0.48 (epsilon 0.5, n = 3000) and 1.04 to 0.66 (epsilon 2, n = 700),
#' of Electricity from 1.21 to 0.63 (epsilon 1, n = 1000) and 1.00 to 0.63
#' (epsilon 0.5, n = 2000; misclassification, of the majority's), and by
#' at most 0.02 worse elsewhere. Private Frank-Wolfe on
#' columns scaled by their bounds (`solver = "dpfw"`, the rule of Section
#' High dimension) was better on every generated design (0.4 to 0.6 of the
#' mean's MSE) but worse than the trivial model on the real subsamples
#' with bounds of twice their largest value, so `"auto"` does not pick it
#' for moderate n.
#'
#' @section Data frames and formulas:
#' `x` may be a data frame (numeric, logical, factor and character columns),
#' with the response in `y`, or a formula with `data`, in the manner of
#' glmnetUtils: `dpglmnet(y ~ ., data = df, x.bounds = c(age = 90))`. The
#' frame is expanded as `model.matrix(~ ., x)` (or `model.matrix(formula,
#' data)`) would, without its intercept column: treatment contrasts for
#' a factor, polynomial ones for an ordered factor (R's default
#' `contrasts` option), logical columns as `<name>TRUE`, and model.matrix's
#' column names. The factor levels are public schema (a
#' factor's declared levels, used or not); a character column's levels are
#' the values found in the data, which the fit then reveals, so it warns:
#' declare such a column as a factor with its public levels.
#' Terms must be per-record maps (`log(age)`, `I(age^2)`,
#' `cut(age, c(18, 40, 90))`): a term computed from all the records is
#' refused, because its constants are statistics of the data (`scale()`,
#' `poly()`, `cut(age, 3)`, whose breaks come from the range of age, or a
#' column summary inside a term such as `I(x / max(x))`).
#'
#' Bounds: each dummy column is 0/1, so it gets the interval \[0, 1\]
#' without your giving it, and its private standardization releases its
#' mean alone (no histogram, no second moment: its sd is
#' \eqn{\sqrt{m(1 - m)}} of its released mean \eqn{m}), which leaves the
#' other releases more of the budget; the means of a factor's dummies are
#' released as one vector (replacing a record moves it by \eqn{\sqrt 2 / n}
#' in L2, one record changing level), priced as two releases whatever the
#' number of levels (not with `weights`); each numeric column takes its bound by name from
#' `x.bounds`, symmetric (`c(age = 90, income = 1e6)`) or as an interval
#' (`list(age = c(18, 90), income = c(0, 1e6))`; a list may mix both), or
#' one unnamed value for every numeric column, and an error names the
#' numeric columns left without one. An interaction column gets the product
#' of its variables' intervals. Without `x.bounds`, a private fit is an
#' error when a numeric column is left (as in the matrix interface; with
#' `standardize = FALSE` the columns are read as they are), unless every
#' column is categorical (then all intervals are \[0, 1\]).
#' `penalty.factor`, `lower.limits` and `upper.limits`, when given per
#' column, follow the expanded columns.
#'
#' Factor coding: a private fit (finite `epsilon`, with an intercept, solver
#' `"auto"` or `"dpcd"`) fits a factor of 3 or more levels with a dummy for
#' every level and reports it in treatment contrasts: the baseline level's
#' coefficient moves into the intercept and the others' are read against
#' it, the same linear predictor for every record, so `coef()` has the
#' columns `model.matrix()` gives (an ordered factor: its polynomial
#' contrasts, the coefficients \eqn{C^\top g} of the levels' \eqn{g},
#' their mean in the intercept; an ordered factor of two levels is fitted
#' on its 0/1 dummy where one of three would be fitted in full, and
#' reported in its polynomial column the same way). Otherwise an ordered
#' factor has its polynomial columns in the fit, with the range of its
#' contrasts as their interval (not 0/1 columns: their standardization
#' releases a range, which can cut a rare level). With treatment contrasts a factor's
#' dummies and the intercept are ill-conditioned for coordinate descent
#' (the smallest eigenvalue of K - 1 standardized dummies of K equally
#' common levels is 1 / (K - 1)), and the noise piles up along their common
#' shift; with every level that direction moves no prediction. Measured
#' over cv.glmnet at epsilon 1: a 7-level weekday 1.40 -> 1.16, 24 hours
#' and 12 months 1.28 -> 1.19. The penalty is the full coding's: every
#' level is shrunk towards the others rather than towards the baseline (as
#' glmnetUtils' formula interface does by default), so at a given lambda
#' the coefficients differ from glmnet's on `model.matrix()`. The ledger
#' counts the dummies released (one more per such factor) and `print()`
#' names the factors. Not where the codings would mean different models:
#' `penalty.factor` or `l1.radius` given, vectors of `lower.limits`,
#' `upper.limits`, `smoothness`, `step` or `clip`, finite limits, a factor
#' in an interaction, `intercept = FALSE`, other solvers, p >= n / 4 with
#' the extra dummies, `epsilon = Inf` (glmnet's fit on treatment
#' contrasts).
#'
#' Missing values are an error naming the argument and the columns (no row
#' is dropped silently); so are a formula without its intercept (use
#' `intercept = FALSE`) and `offset()` terms. The fit keeps the expansion
#' recipe (`fit$recipe`: terms, levels, contrasts; no data), and
#' `predict(fit, newx)` expands a data frame `newx` the same way (a level
#' the fit does not know is an error). The fit's `call` keeps the formula
#' and names the data frame; it holds no records.
#'
#' @param x Input matrix, `n` rows (records) by `p` columns: a numeric matrix
#'   or a sparse `Matrix` (converted to `dgCMatrix`); or a data frame, or a
#'   formula such as `y ~ .` with `data` (see Section Data frames and
#'   formulas); or a database table named by [db_table()] (then `y` is
#'   named there; DP-CD only). With an intercept, a column named
#'   `"(Intercept)"` (the column of ones `model.matrix()` puts first) is
#'   left out of the fit and gets the coefficient 0, as glmnet gives a
#'   constant column; no budget is spent on it, and its values in
#'   `predict()`'s `newx` are ignored. (The name is public; whether a
#'   column is constant is not, and a private fit could not see it.)
#' @param y Response. Gaussian: numeric. Binomial: a two-level factor (the
#'   second level is modelled), a logical, a 0/1 numeric vector, or a
#'   two-column 0/1 indicator matrix with one 1 per row (the second column
#'   is modelled; the column names are the class names). A character vector
#'   of two labels is read as glmnet reads it, as `factor(y)` (sorted, the
#'   second modelled), with a warning: its labels come from the data, and
#'   the ledger lists them as outside the guarantee (declare public labels
#'   with `factor(y, levels = )`). glmnet's counts or
#'   proportions (several trials per record, with the trials as `weights`)
#'   are not supported: give one record per trial.
#' @param family `"gaussian"` or `"binomial"` (matched partially, as glmnet
#'   does: `"gauss"`), or the family objects `gaussian()` and `binomial()`
#'   with their canonical links; or [huber_family()] for robust regression
#'   with the Huber loss (its threshold `delta` is public, on the scale of
#'   `y`). `"poisson"` is not offered: its loss
#'   \eqn{e^\eta - y\eta} has unbounded curvature \eqn{e^\eta}, so the
#'   smoothness constants that set the solvers' steps have no public bound
#'   unless the linear predictor is bounded (the clipped gradients would
#'   still be private, but the steps and the solvers' guarantees would not
#'   hold); fit a count as `"gaussian"` on `log1p(y)` instead.
#' @param alpha Elastic-net mixing in \[0, 1\]: 1 is the LASSO, 0 ridge.
#' @param nlambda Number of lambda values when `lambda` is not given. Default
#'   (`NULL`): 10, or, for a private standardized DP-CD fit (or one without
#'   `x.bounds`, whose columns are taken at unit scale), as many as the
#'   budget affords (see `passes`); when it affords fewer than 6, a single
#'   lambda of \eqn{0.25/\sqrt{n}} on the standardized scale. With
#'   `solver = "auto"` that single lambda is checked first: the L2 norm of
#'   the clipped gradients at the mean model is released (for 4% of the
#'   path's releases, where the path has at least 100; for binomial with a
#'   released proportion of ones, which sets that model's intercept), and
#'   when it does not clear 1.5 times the noise one pass
#'   of DP-CD adds to them, every coefficient would be mostly noise, so the
#'   lambda is raised to a few noise sds of one update (a column enters only
#'   where its effect clears the noise; a warning says so, and
#'   `fit$settings$signal_check` holds what was released). On Caravan (6%
#'   buyers, 85 columns) at epsilon 1 this took the held-out
#'   misclassification from 1.20 times the majority class's to 1.00. On a
#'   shorter path the same test is made without a release of its own, from
#'   the gradients DP-CD's first pass releases:
#'   the sum of their squares less the noise's estimates the squared norm,
#'   and below the noise of one pass (margin 1: taken one after the other,
#'   the gradients of correlated columns undercount the signal), unless one column's gradient stands clearly
#'   out of its noise (a Bonferroni bound at level 0.001: 3.8 noise sds
#'   for 6 columns), the rest of the fit is at the raised lambda,
#'   the first pass's coefficients put where that lambda would have put
#'   them (post-processing; `fit$settings$signal_check$gate` is `TRUE`).
#'   A signal estimated between \eqn{s} times the noise and the noise raises
#'   lambda part of the way (geometrically, from the whole raise at \eqn{s}
#'   to none at the noise), so that a signal just short of it is not fitted
#'   at a lambda 30 times larger than one just above; \eqn{s = \max(1/2,
#'   (8/p)^{1/4})} for \eqn{p} columns, where a signal of 0 reads about
#'   once in 40 (no ramp for \eqn{p \le 8}).
#'   Giving it (as
#'   giving `lambda`) asks for a lambda path, so `solver = "auto"` then
#'   picks `"dpcd"` even when p is large against n (Section High
#'   dimension).
#' @param lambda.min.ratio Smallest lambda as a fraction of `lambda_max`:
#'   glmnet's default, 1e-4 when `n > p` and 0.01 otherwise (0.01 stopped
#'   the private path before the lambda a non-private fit chooses on four
#'   large real sets).
#' @param lambda Optional decreasing sequence of lambda values (public). When
#'   `NULL` the grid is geometric from `lambda_max` down to
#'   `lambda.min.ratio * lambda_max`. After standardization `lambda_max` is
#'   public: a gradient coordinate of a standardized problem at zero is at
#'   most 1 (gaussian, y standardized) or 1/2 (binomial); otherwise it is
#'   released privately as the largest noisy clipped coordinate gradient at
#'   zero (charged to the budget).
#' @param intercept Fit an intercept, as one more unpenalized coordinate with
#'   a constant feature (no private mean is needed).
#' @param standardize Standardize the columns of `x` (and a gaussian `y`
#'   when `y.bound` is given) before fitting, and report coefficients on the
#'   original scale, as glmnet does (its default). Everything is released
#'   privately, with Gaussian noise charged to the ledger (see
#'   `standardize.budget` and Section Private standardization), so
#'   `x.bounds` is needed. The default (`NULL`) is `TRUE`, except where
#'   `solver = "auto"` picks `"dpfw"` (Section High dimension), which maps
#'   the columns to \[-1, 1\] by their public intervals instead; `TRUE`
#'   makes `"auto"` pick `"dpcd"`. A private fit without `x.bounds` is an
#'   error unless `standardize = FALSE` is given: the columns are then read
#'   as they are, at unit scale (every coordinate gets the step and clip
#'   of a column with \eqn{|x_{ij}|} about 1), which suits only columns
#'   already scaled to about \[-1, 1\]. Without an intercept, columns are
#'   scaled by their standard deviation and not centred, as glmnet does. With
#'   `epsilon = Inf` the exact moments are used and `x.bounds` is not needed
#'   (the default then standardizes, as glmnet).
#' @param penalty.factor Non-negative penalty factor per column.
#' @param lower.limits,upper.limits Box constraints on the coefficients: one
#'   value or one per column; `lower.limits <= 0 <= upper.limits`.
#' @param epsilon Privacy budget, `> 0`; `Inf` for a non-private fit: the
#'   same solver with no noise and no clipping (what it then converges to is
#'   on its page).
#' @param delta Privacy parameter in (0, 1); the default is `1/n^2`.
#' @param solver The private solver: `"auto"` (default: `"dpcd"`, or
#'   `"dpfw"` when p is large against n, or `"intercept"` where no column
#'   can be resolved; see Sections Solvers, High dimension and Moderate n),
#'   `"dpcd"`, `"dpsgd"`, `"dpscd"`, `"dpfw"`, `"dpfw-vr"`, `"nmd"` or
#'   `"intercept"`. `solver = "dpcd"` gives the fits of earlier versions'
#'   default.
#' @param l1.radius For `"dpfw"`, `"dpfw-vr"` and `"nmd"`: a strictly
#'   increasing sequence of public l1 radii (the path parameter, stored in
#'   `fit$lambda`; default in [dpfw]). Public, no privacy cost. Refused for
#'   the other solvers.
#' @param passes Passes over the data per lambda: for DP-CD, one update of
#'   every coordinate; for the other solvers, see their pages. Default
#'   (`NULL`): 10, or, for a private standardized DP-CD fit (or one without
#'   `x.bounds`, whose columns are taken at unit scale), chosen with
#'   `nlambda` from public inputs so that the noise of one coordinate step
#'   stays at or below 0.05 on the standardized scale: at most 10 lambdas
#'   and 10 passes, fewer when n or epsilon is small (see [dpcd]), and up
#'   to 30 on a path where the budget affords them at half that noise
#'   (large n: more passes help where the passes, not the noise, limit
#'   the fit; not on a database table, where a pass is a query per
#'   coordinate); a
#'   binomial fit makes at most 3 per lambda, at the schedule's single
#'   lambda and on a path without those extra passes (its updates move a
#'   coefficient by 4 times their noise, and more passes added noise
#'   faster than they removed error); with
#'   `solver = "auto"` at large p, the rule's Frank-Wolfe steps (Section
#'   High dimension). At `epsilon = Inf` DP-CD runs each lambda until a pass
#'   moves no coefficient by more than 1e-7 of the largest (at most 1000
#'   passes, `fit$settings$passes`), so that the exact fit is glmnet's
#'   solution; a private fit always makes the passes planned.
#' @param clip Overall clipping threshold `C` in (0, 1e100\], or
#'   `"quantile"` to release the thresholds privately from the data (DP-CD
#'   and DP-SGD, with `x.bounds`; see `clip.budget`). `"quantile"` is the
#'   default of a private DP-CD fit with `x.bounds` and
#'   `standardize = FALSE`. Numeric default \eqn{\sqrt{p + 1}} (with an
#'   intercept), so 1 per coordinate on the standardized scale, where
#'   per-record gradient terms are of order 1; 1 for DP-SCD and for `"dpfw"`
#'   and `"dpfw-vr"`. DP-CD: coordinate `j` clips its per-record gradient
#'   terms to \eqn{\sqrt{M_j / tr M} C}; DP-SGD: each record's gradient is
#'   clipped to L2 norm `C`; the other solvers: see their pages. For a
#'   standardized gaussian DP-CD fit the default is raised where the
#'   budget (or n) leaves the noise of a coordinate gradient below 0.02 on
#'   the standardized scale, until it reaches it, or until it reaches the
#'   largest term the coordinate can hold (from the released clamps of x
#'   and y: beyond it nothing is clipped, and the noise falls with epsilon
#'   again): clipping residuals biases
#'   the fit toward a robust, median-like one, a bias that a larger budget
#'   does not shrink, while the noise does (public: from n and the
#'   calibrated noise; `summary()` prints the factor; never with a `clip`
#'   you give, nor for the Huber loss, whose terms are bounded). A binomial
#'   DP-CD fit raises it the same way only where the released proportion
#'   of the rarer class (the split intercept's, a ledger row) is below 5%:
#'   the clip then cuts mostly that class's terms, and its coefficients
#'   shrink whatever the budget; with classes of similar size the cut falls
#'   on both, as a robust loss, and the clip stays. A binomial fit that
#'   releases no proportion (with `weights`, an `offset`, `intercept =
#'   FALSE`, or on the bound-scaled columns of moderate n) keeps it. With
#'   the default clip, a private DP-CD fit of a
#'   standardized gaussian response also adapts its clips as the fit
#'   proceeds (the adaptive clip): before passes 1, 2, 4, 8, ... of each
#'   lambda it releases the root mean square `s` of the residuals on the
#'   standardized scale, and multiplies every clip and noise sd by
#'   \eqn{\min(1, 2 s)}. Those releases cost 4% of the path's budget and
#'   have a row in the ledger; the clips follow the residuals down, and
#'   with them the noise of every later release (dplyr's storms, 1.18 ->
#'   1.06 times `cv.glmnet`'s test MSE at epsilon 1; ggplot2's diamonds,
#'   log price, 1.14 -> 0.98). Not with a `clip` you give, `weights`, one
#'   pass per lambda, a response left unstandardized, or the binomial and
#'   Huber losses; `fit$settings$adaptive_clip_scale` has the released
#'   scales.
#' @param step Step size parameter. DP-CD: coordinate `j` moves with step
#'   `step / M_j`. DP-SGD: every coordinate moves with `step / beta`, where
#'   `beta = tr M` bounds the smoothness of the loss. `"nmd"`: a multiplier
#'   of its mirror step ([dpfw]). Unused by `"dpfw"`, `"dpfw-vr"` and
#'   DP-SCD.
#' @param batch.size DP-SGD, DP-SCD and `"nmd"`: records per minibatch, in
#'   \[1, n\], drawn uniformly without replacement, independently at each
#'   step; default (`NULL`) \eqn{\min(n, \max(10, \sqrt n))}, and all n
#'   records for DP-SGD (full-batch proximal DP gradient descent, see
#'   [dpsgd]). Ignored (and not checked) by the other solvers.
#' @param average DP-CD: periodic averaging (Algorithm 1's outer loop): each
#'   pass is an outer iteration that ends at the average of its inner
#'   iterates. `FALSE` (default) returns the last iterate.
#' @param selection DP-CD's order of coordinates: a fresh random
#'   `"permutation"` every pass (default), uniformly `"random"` draws (the
#'   paper's Algorithm 1), or `"cyclic"`. The order never depends on the
#'   data, so the privacy accounting is the same for all of them (see
#'   [dpcd]).
#' @param smoothness Coordinate smoothness constants \eqn{M_j}:
#'   `"standardized"` (default with `standardize = TRUE`: they follow from
#'   the released standardization moments, at no extra cost), `"quantile"`
#'   (DP-CD's default when `x.bounds` is given and `standardize = FALSE`:
#'   from private quantiles and moments of the columns, see [dpcd]; when
#'   their count noise would exceed n / 20, as at p >> n, the default is
#'   `"bounds"` instead, and the default `"quantile"` clip the numeric
#'   \eqn{\sqrt{p + 1}}, with a warning: no release, safe steps),
#'   `"private"` (DP-SGD's default in that case; the paper's Laplace
#'   mechanism on the values clamped to `x.bounds`, whose noise grows with
#'   the square of the crude bounds), `"bounds"` (public, from `x.bounds`),
#'   `"uniform"` (public; default without bounds), `"exact"`
#'   (`epsilon = Inf` only), or a numeric vector of public constants.
#' @param smoothness.budget The budget of private smoothness constants: with
#'   `smoothness = "quantile"`, a share of the Gaussian part of the budget
#'   (of \eqn{\mu^2} in Gaussian DP), half for the quantiles, half for the
#'   moments; with `"private"`, the fraction of `epsilon` of its Laplace
#'   releases.
#' @param clip.budget With `clip = "quantile"`, the share of the Gaussian
#'   part of the budget (of \eqn{\mu^2}) spent on the clipping thresholds. The
#'   shares of `standardize.budget`, `smoothness.budget` (`"quantile"`) and
#'   `clip.budget` in use must add up to less than 1: the path gets the rest.
#' @param standardize.budget Share of the Gaussian part of the budget (of
#'   \eqn{\mu^2} in Gaussian DP) spent on the standardization releases.
#'   Default (`NULL`): 0.3, or 0.6 at moderate n where 0.3 would leave the
#'   columns unresolved (Section Moderate n; set by the plan from public
#'   inputs).
#' @param x.bounds Public bounds on the columns of `x`, in one of these forms:
#'   * symmetric, \eqn{|x_{ij}| \le b_j}: one value `b` for all columns or
#'     one per column, in \[1e-100, 1e100\]; a named vector is matched to
#'     the columns of `x` by name (every column named), as a list;
#'   * intervals \eqn{l_j \le x_{ij} \le u_j}: a p x 2 numeric matrix
#'     `cbind(lower, upper)` (or 1 x 2 for all columns; row names, if any,
#'     name the columns of `x`, in any order), or a list named by the columns
#'     of `x` whose entries are `c(lower, upper)` or one value `b` (meaning
#'     `c(-b, b)`), e.g. `list(age = c(18, 90), income = c(0, 1e6), z = 4)`.
#'     Finite, within \[-1e100, 1e100\], lower < upper; for a sparse `x`
#'     every interval must hold 0.
#'
#'   `x` is clamped to them (a per-record map, free for privacy), in the fit,
#'   in `predict()` and in `cv.dpglmnet()`'s validation. An interval such as
#'   age in \[18, 90\] wastes less range than the symmetric 90: the private
#'   standardization reads the column over \[18, 90\] (its means'
#'   sensitivity is the width 72 / n, not 180 / n), while sensitivities that
#'   need a bound on \eqn{|x_{ij}|} (clipping, smoothness, DP-SCD's record
#'   norm) use the envelope `max(abs(lower), abs(upper))`. Symmetric bounds
#'   give the same fit as the interval \[-b, b\]. A column far from 0
#'   against its spread needs an interval: the private standardization
#'   locates a column to about 1/32 of its interval, so a year in
#'   2000-2014 with the symmetric bound 4030 reads as constant (the fit
#'   warns, and suggests an interval; 2000-2015, which straddles the edge of
#'   two of those bins at 2015, is kept at the scale floor), with
#'   `c(1995, 2020)` it does not.
#'   A bound far below the data makes a column
#'   (nearly) two-valued at its bounds, and the fit a model of the clamped
#'   column: the fit warns when a column's released second moment about the
#'   interval's midpoint is at least 90% of its half-width squared (and the
#'   release is precise enough to tell). With a data frame or formula `x`:
#'   named by numeric column (a named vector of symmetric bounds, a named
#'   list as above, or a 2-column matrix with rows named by column), or one
#'   value for all numeric columns; dummy columns of factors get the interval
#'   \[0, 1\] (see Section Data frames and formulas) and are marked 0/1 by
#'   the schema, so that their private standardization releases their mean
#'   alone. The expansion marks them with `attr(x.bounds, "binary")`, a
#'   logical per column; a matrix `x` of your own dummies may carry the same
#'   mark on its intervals. It is honoured only on columns whose interval is
#'   exactly \[0, 1\], which they are read clamped to: a column marked
#'   wrongly costs accuracy (its sd is taken as \eqn{\sqrt{m(1-m)}}), never
#'   privacy. The dummies of one factor of three levels or more are also
#'   marked as a block (`attr(x.bounds, "factor_block")`), which DP-CD
#'   releases as one unit (see [dpcd]); a block's values are read with at
#'   most one non-zero per record (the first), so a wrong mark costs
#'   accuracy, never privacy.
#' @param y.bound Public bound on `y` (gaussian; required for a private fit
#'   with `standardize = TRUE`, as in [cv.dpglmnet()]): one number `b`
#'   (\eqn{|y_i| \le b}, the interval \[-b, b\]), in \[1e-100, 1e100\], or
#'   an interval `c(lower, upper)` (\eqn{l \le y_i \le u}; finite, within
#'   \[-1e100, 1e100\], lower < upper), e.g. `c(0, 5e5)` for a price. `y` is
#'   clamped to it, so the fit models the clamped response (an intercept
#'   cannot pass the bound). The private standardization reads y over the
#'   interval (its mean's sensitivity is the width \eqn{(u - l) / n}), while
#'   whatever needs a bound on \eqn{|y_i|} (the clip's default search, the
#'   default `loss.bound` of [cv.dpglmnet()], the diagnostics) uses the
#'   envelope `max(abs(lower), abs(upper))`, stored as `settings$y.bound`
#'   (the interval as `settings$y.lower`, `settings$y.upper`). `b` and
#'   `c(-b, b)` give the same fit. The fit warns when the released ranges of
#'   y lie at the bound (standardized y) or the path's intercepts agree on a
#'   level within 10% of the interval's half-width of one of its ends
#'   (otherwise).
#' @param rng Noise source: `"seeded"` (default) draws from a fast generator
#'   (xoshiro256++) seeded from R's RNG, so `set.seed()` reproduces a fit.
#'   The price: anyone who can learn or guess R's seed (a published script,
#'   a default seed, a session they can inspect) can regenerate the noise and
#'   subtract it, which voids the privacy guarantee. `"secure"` draws the
#'   noise from the ChaCha20 stream cipher (RFC 8439) keyed with 256 bits
#'   from the operating system's cryptographically secure generator
#'   (`getrandom()` or `/dev/urandom`; `BCryptGenRandom` on Windows), freshly
#'   for every fit: the noise cannot be reproduced, by anyone, including you.
#'   Use it for releases that must stay private when the seed is known. It
#'   costs little (see `inst/bench/rng.R`). If the operating system's
#'   generator fails, the fit stops with an error; it never falls back to
#'   the seeded generator.
#' @param trace.it If `> 0`, print progress after each lambda.
#' @param data With a formula `x`: the data frame holding its variables
#'   (the response too). Refused otherwise.
#' @param weights Optional observation weights, one per record, finite and
#'   \eqn{\ge 0}, as glmnet's: the objective becomes
#'   \eqn{\sum_i w_i \ell_i / \sum_i w_i + \lambda P(b)}. A weight is part
#'   of its record (see Section Weights and offsets): with a finite
#'   `epsilon` it needs `weights.bound`, and weights are clamped to
#'   \[0, `weights.bound`\]. Solver `"dpcd"` only; with weights, `clip =
#'   "quantile"` and `smoothness = "quantile"` or `"private"` are refused
#'   (the defaults become a numeric clip and `"bounds"`).
#' @param offset Optional offset, one finite number per record, added to the
#'   linear predictor as glmnet's (\eqn{\eta_i = o_i + b_0 + x_i'b}); with
#'   a finite `epsilon` it needs `offset.bound` and is clamped to it.
#'   `predict()` then needs `newoffset`. Solver `"dpcd"` only.
#' @param weights.bound Public bound \eqn{W > 0} on the weights (they are
#'   clamped to \[0, W\]); required with `weights` and a finite `epsilon`,
#'   optional at `epsilon = Inf`. The bound-based sensitivities (the
#'   standardization moments, the `"bounds"` smoothness constants) grow by
#'   \eqn{W n / S} (S: the released weight sum), so a tight `W` means less
#'   noise: e.g. survey weights scaled to a known maximum.
#' @param ... glmnet's arguments, so that a glmnet script runs unchanged:
#'   `dfmax` and `pmax` with a matrix `x` (the path is cut after its last
#'   lambda with at most `dfmax` non-zero coefficients and at most `pmax`
#'   ever non-zero: post-processing, the budget was spent on every lambda
#'   planned; stricter than glmnet, whose path can keep lambdas past
#'   `dfmax`; the first lambda is always kept, with a warning when it is
#'   beyond them). `thresh`, `maxit`, `type.gaussian` and `type.logistic`
#'   tune glmnet's exact solver and have no effect here (a private fit's
#'   passes follow the budget); `relax = FALSE` is accepted. `exclude` is an
#'   error: leave the columns out of `x` (held at 0 they would still be
#'   standardized with the budget), as is `relax = TRUE`.
#' @param offset.bound Public bound on the offset, as `y.bound`: one number
#'   `b` (\eqn{|o_i| \le b}) or an interval `c(lower, upper)`; offsets are
#'   clamped to it. Required with `offset` and a finite `epsilon`. For a
#'   gaussian fit the offset moves into the response, \eqn{y_i - o_i}, whose
#'   interval (the fit's `settings$y.lower`, `settings$y.upper`, and every
#'   bound on a residual) widens by the offset's range.
#' @return An object of class `"dpglmnet"`: glmnet's fields `a0`, `beta`
#'   (a `dgCMatrix`), `df`, `dim`, `lambda`, `nobs`, `call` (holding no
#'   data: `x` and `y` appear only as symbols, `x`/`y` when they were given
#'   as values, e.g. through [do.call()], and other values longer than 10
#'   as the symbol `<data>`), `family`,
#'   `classnames` (binomial), plus `privacy` (the ledger, see
#'   [print.dpglmnet_privacy]) and `settings` (solver settings and the
#'   per-coordinate smoothness, step, clip and noise). For `"dpfw"` and
#'   `"dpfw-vr"`, `vertices` holds the vertex chosen at each step (see
#'   [dpfw]).
#' @references
#' Mangold, P., Bellet, A., Salmon, J. and Tommasi, M. (2022). Differentially
#' private coordinate descent for composite empirical risk minimization.
#' ICML.
#' @seealso The solvers: [dpcd], [dpsgd], [dpscd], [dpfw]. A private choice
#'   of lambda: [cv.dpglmnet()]. Methods: [print.dpglmnet()], [coef.dpglmnet()]
#'   (and `predict()`), [plot.dpglmnet()], [summary.dpglmnet()],
#'   [deviance.dpglmnet()]. The accountant: [gdp_epsilon()],
#'   [rdp_epsilon()].
#' @examples
#' set.seed(1)
#' n <- 5000; p <- 5
#' x <- matrix(rnorm(n * p), n, p)
#' y <- drop(x %*% c(1, -1, 0, 0, 0.5)) + rnorm(n)
#' fit <- dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 8)
#' print(fit)
#' coef(fit, s = 0.1)
#' # A data frame with a factor, through a formula: the dummies of `group`
#' # need no bounds
#' df <- data.frame(age = runif(4000, 18, 90),
#'                  group = factor(sample(c("a", "b", "c"), 4000, TRUE)))
#' df$income <- 1000 * df$age + 5000 * (df$group == "b") + rnorm(4000, sd = 1e4)
#' fit_df <- dpglmnet(income ~ ., data = df, epsilon = 1, x.bounds = c(age = 90),
#'                    y.bound = 2e5)
#' predict(fit_df, newx = data.frame(age = 40, group = "b"), s = fit_df$lambda[1])
#' @export
dpglmnet <- function(x, y, family = c("gaussian", "binomial"), alpha = 1,
                     nlambda = NULL,
                     lambda.min.ratio = if (nrow(x) < ncol(x)) 0.01 else 1e-4, lambda = NULL,
                     intercept = TRUE, standardize = NULL,
                     penalty.factor = rep(1, ncol(x)), lower.limits = -Inf,
                     upper.limits = Inf, epsilon = 1, delta = 1 / nrow(x)^2,
                     solver = c("auto", "dpcd", "dpsgd", "dpscd", "dpfw", "dpfw-vr", "nmd",
                                "intercept"),
                     l1.radius = NULL,
                     passes = NULL, clip = NULL,
                     step = 1, average = FALSE,
                     batch.size = NULL,
                     selection = c("permutation", "random", "cyclic"),
                     smoothness = NULL, smoothness.budget = 0.1,
                     clip.budget = 0.2, standardize.budget = NULL,
                     x.bounds = NULL, y.bound = NULL,
                     rng = c("seeded", "secure"), trace.it = 0, data = NULL,
                     weights = NULL, offset = NULL, weights.bound = NULL,
                     offset.bound = NULL, ...) {
  # Data frames and formulas are expanded to a matrix and come back here
  # (R/formula.R).
  if (is_frame_input(x)) return(fit_from_frame(match.call(), environment()))
  # A database table (db_table(), R/database.R) comes back here with its
  # source and response.
  if (is_database_input(x)) return(fit_from_database(match.call(), environment()))
  if (!is.null(data)) {
    dpglmnet_abort("data", paste(
      "is for the formula interface (x a formula such as y ~ .); with a",
      "matrix `x`, give the response as `y`."))
  }
  # model.matrix()'s column of ones: left out, back at 0 (R/ones-column.R)
  ones <- ones_columns(x, intercept)
  if (length(ones)) {
    return(fit_without_ones(dpglmnet, "dpglmnet", match.call(), environment(), ones))
  }
  call <- public_call(match.call(), "dpglmnet")
  # a character binomial response, as glmnet takes it (R/checks.R)
  labelled <- labels_as_factor(y, family)
  y <- labelled$y
  # glmnet's own arguments (R/glmnet-compat.R)
  glmnet_options <- glmnet_only_arguments(list(...))
  # Three stages: the spec (every argument checked, the data validated; no
  # release, no accounting), the plan (public inputs only: the schedule, the
  # mechanisms, their budget shares and calibrated noise; R/solvers.R), and
  # the fit (the releases, the solver, the map back to the original scale).
  spec <- check_problem(
    x = x, y = y, family = family, alpha = alpha, nlambda = nlambda,
    lambda.min.ratio = lambda.min.ratio, lambda = lambda,
    intercept = intercept, standardize = standardize,
    penalty.factor = penalty.factor, lower.limits = lower.limits,
    upper.limits = upper.limits, epsilon = epsilon, delta = delta,
    solver = solver, l1.radius = l1.radius, passes = passes, clip = clip, step = step,
    average = average, batch.size = batch.size, selection = selection, smoothness = smoothness,
    smoothness.budget = smoothness.budget, clip.budget = clip.budget,
    standardize.budget = standardize.budget,
    x.bounds = x.bounds, y.bound = y.bound, rng = rng, trace.it = trace.it,
    weights = weights, offset = offset, weights.bound = weights.bound,
    offset.bound = offset.bound
  )
  plan <- plan_private_path(spec)
  fit <- cut_path(new_dpglmnet(plan$problem, fit_private_path(plan), call),
                  glmnet_options$dfmax, glmnet_options$pmax)
  fit$privacy <- note_disclosures(fit$privacy, labelled$disclosures)
  fit
}

# Checks every argument of dpglmnet() and returns its spec, the problem the
# plan and the solvers read: y clamped to its public bound, penalties
# expanded per column. x is passed as given (no copy): the C++ core clamps
# it to x.bounds as it reads it, so the solvers must pass problem$x.bounds
# with problem$x. Nothing is released or accounted here: the number of
# lambdas and passes (`nlambda`, `passes`), which may follow the budget,
# are the plan's (schedule_problem(), R/solvers.R); the spec keeps the
# user's (`nlambda_given`, `passes_given`: NULL when not given).
check_problem <- function(x, y, family, alpha, nlambda, lambda.min.ratio,
                          lambda, intercept, standardize, penalty.factor,
                          lower.limits, upper.limits, epsilon, delta, solver,
                          l1.radius = NULL, passes, clip, step, average, batch.size, selection,
                          smoothness, smoothness.budget, clip.budget = 0.2,
                          standardize.budget, x.bounds, y.bound, rng, trace.it,
                          weights = NULL, offset = NULL, weights.bound = NULL,
                          offset.bound = NULL) {
  family <- dpglmnet_family(family)
  if (!is.null(family$parameter_name) && is.null(family$parameter)) {
    dpglmnet_abort("family", sprintf(paste(
      "= \"%s\" needs its public `%s`, on the scale of y: give family =",
      "%s_family(%s = )."), family$name, family$parameter_name, family$name,
      family$parameter_name))
  }
  # (which private scales are defaults: afford_private_scales() may replace
  # those by public constants, R/highdim.R)
  scale_defaults <- c(smoothness = is.null(smoothness), clip = is.null(clip))
  # (its values: below)
  x <- check_x(x, values = FALSE)
  n <- nrow(x)
  p <- ncol(x)
  response <- check_y(y, n, family$name)
  alpha <- check_numeric(alpha, "alpha", 0, 1)
  epsilon <- check_numeric(epsilon, "epsilon", lower = 0, lower_open = TRUE,
                           finite = FALSE)
  # (R/weights.R: clamped to their public bounds, a per-record map)
  weighting <- check_weights(weights, n, weights.bound, epsilon)
  offsetting <- check_offset(offset, n, offset.bound, epsilon)
  delta <- check_numeric(delta, "delta", 0, 1, lower_open = TRUE, upper_open = TRUE)
  if (is.null(lambda)) {
    if (!is.null(nlambda)) nlambda <- check_numeric(nlambda, "nlambda", lower = 1,
                                                    integer = TRUE)
    lambda.min.ratio <- check_numeric(lambda.min.ratio, "lambda.min.ratio", 0, 1,
                                      lower_open = TRUE, upper_open = TRUE)
  } else {
    lambda <- check_numeric(lambda, "lambda", lower = 0, length = NULL)
    if (is.unsorted(rev(lambda))) {
      dpglmnet_abort("lambda", "must be sorted in decreasing order.")
    }
    nlambda <- length(lambda)
  }
  check_flag(intercept, "intercept")
  # NULL (the default): TRUE, as glmnet, unless solver = "auto" scales the
  # columns by their public bounds instead (R/highdim.R). A private fit
  # needs x.bounds for it. Without them the columns could only be read as
  # they are, at unit scale, where every coordinate gets the step and clip
  # of a column with |x_ij| about 1: that is an error unless asked for
  # (standardize = FALSE), since on raw columns it gave test errors of 1e5
  # times the mean's (quakes, Hitters) behind a warning.
  if (!is.null(standardize)) check_flag(standardize, "standardize")
  standardize_given <- standardize
  # (without x.bounds at a finite epsilon: an error once the other
  # arguments are checked, check_x_bounds_given() below)
  bounds_missing <- is.null(standardize) && is.null(x.bounds) && is.finite(epsilon)
  # (smoothness = "standardized" asks for the default standardization: what
  # it lacks is x.bounds)
  if (bounds_missing && identical(smoothness, "standardized")) {
    check_x_bounds_given(x.bounds, standardize, epsilon)
  }
  standardize <- if (is.null(standardize)) !bounds_missing else standardize
  if (standardize && is.null(x.bounds) && is.finite(epsilon)) {
    dpglmnet_abort("x.bounds", paste(
      "must be given for standardize = TRUE: the column means and standard",
      "deviations are released privately, which needs public bounds on",
      "|x_ij| (x is clamped to them). Give `x.bounds`, or standardize with",
      "public constants and use standardize = FALSE."))
  }
  penalty.factor <- check_numeric(penalty.factor, "penalty.factor", lower = 0,
                                  length = p)
  if (sum(penalty.factor) <= 0) {
    dpglmnet_abort("penalty.factor", "must have at least one positive entry.")
  }
  penalty.factor <- penalty.factor * p / sum(penalty.factor)  # as glmnet
  lower.limits <- recycle_columns(check_numeric(
    lower.limits, "lower.limits", upper = 0, length = c(1L, p), finite = FALSE), p)
  upper.limits <- recycle_columns(check_numeric(
    upper.limits, "upper.limits", lower = 0, length = c(1L, p), finite = FALSE), p)
  solver <- check_choice(solver, c("auto", names(dpglmnet_solvers)), "solver")
  # solver = "auto": a public rule of (n, p, epsilon, the bounds and the
  # arguments) picks DP-CD or, for p large against n, dpfw on columns
  # scaled by their public bounds (R/highdim.R); NULL for a named solver
  auto <- resolve_auto_solver(
    solver, n, p, epsilon, delta, family, alpha, lambda, nlambda, x.bounds,
    if (family$bounded_response) check_y_bound(y.bound),
    list(standardize = standardize_given, l1.radius = l1.radius, clip = clip,
         in_database = is_database_source(x),
         passes = passes, weighted = !is.null(weights) || !is.null(offset)),
    lower.limits, upper.limits, penalty.factor)
  if (!is.null(auto)) {
    solver <- auto$solver
    if (isTRUE(auto$bound_scaling)) {
      warn_ignored_by_dpfw(average, selection, smoothness, step)
      standardize <- FALSE
      l1.radius <- auto$l1.radius
      clip <- auto$clip
      passes <- auto$passes
    }
  }
  check_weights_solver(solver, weights, offset, clip, smoothness, epsilon)
  solver_declared <- solver_object(solver)
  if (!is.null(passes)) passes <- check_numeric(passes, "passes", lower = 1, integer = TRUE)
  # Default: 1 per coordinate (C_j = sqrt(M_j / tr M) clip = 1 when the M_j
  # are equal, as after standardization), the same scale for DP-SGD's L2
  # clip of a record's gradient over p + intercept coordinates.
  # dpfw clips coordinate-wise: 1 per coordinate directly. DP-SCD: 1, the
  # scale of a dual variable (|a_i| <= 1 for logistic, a residual for
  # standardized ridge).
  # Unstandardized DP-CD and DP-SGD with public bounds: released quantiles
  # of the clipped terms (R/scales.R).
  # (not with weights: the quantile search does not weigh the records)
  # (each solver's default_clip and quantile_clip, R/solvers.R)
  clip_given <- !is.null(clip)
  quantile_clip_possible <- !is.null(solver_declared$quantile_clip) && !is.null(x.bounds) &&
    is.null(weighting)
  clip <- if (is.null(clip)) {
    if (solver_declared$quantile_clip_default && quantile_clip_possible && !standardize &&
        is.finite(epsilon))
      "quantile"
    else solver_declared$default_clip(p, intercept)
  } else if (identical(clip, "quantile")) {
    if (!quantile_clip_possible) {
      dpglmnet_abort("clip", sprintf(paste(
        "= \"quantile\" needs solver %s and `x.bounds` (public",
        "bounds for the search)."), paste0('"', solvers_with("quantile_clip"), '"',
                                          collapse = " or ")))
    }
    clip
  } else {
    if (!is.numeric(clip) || is.object(clip)) {
      dpglmnet_abort("clip", "must be a positive number or \"quantile\".")
    }
    # a finite public maximum, as for the bounds: sensitivities 2 C / n and
    # their noise stay finite
    check_numeric(clip, "clip", lower = 0, lower_open = TRUE, upper = 1e100)
  }
  clip.budget <- check_numeric(clip.budget, "clip.budget", 0, 1, lower_open = TRUE,
                               upper_open = TRUE)
  step <- check_numeric(step, "step", lower = 0, lower_open = TRUE)
  # The l1-ball solvers' `step` multiplies a theory step (nmd) or is unused
  # (dpfw): no divergence threshold applies.
  # (the solver's limit: a coordinate step of step / M_j (DP-CD) or step /
  # tr M (DP-SGD) beyond 2 / curvature can diverge)
  if (step > solver_declared$step_limit) {
    dpglmnet_warn(sprintf(paste(
      "`step` = %g is above %g: solver \"%s\"'s steps beyond %g / curvature",
      "can diverge."), step, solver_declared$step_limit, solver,
      solver_declared$step_limit))
  }
  check_flag(average, "average")
  # Only the minibatch solvers read batch.size (DP-CD ignores it, so its
  # default, or any value, never stops a DP-CD fit on few records).
  uses_batch <- solver_declared$uses_batch
  if (uses_batch) {
    # (NULL: the solver's default for n records, R/aaa-protocols.R)
    if (is.null(batch.size)) batch.size <- solver_declared$default_batch_size(n)
    batch.size <- check_numeric(batch.size, "batch.size", lower = 1, upper = n,
                                integer = TRUE)
  }
  selection <- check_choice(selection, c("permutation", "random", "cyclic"),
                            "selection")
  smoothness.budget <- check_numeric(smoothness.budget, "smoothness.budget", 0, 1,
                                     lower_open = TRUE, upper_open = TRUE)
  # list(lower, upper, envelope) or NULL (R/bounds.R): x is clamped to
  # [lower, upper]; the magnitude bound max(|lower|, |upper|) of the clamped
  # values is what every sensitivity and public default below reads, as
  # `x.bounds` (a symmetric b gives [-b, b] and envelope b: the same problem
  # as before intervals).
  x_interval <- check_x_bounds(x.bounds, p, colnames(x), is_sparse_x(x))
  x.bounds <- if (!is.null(x_interval)) x_interval$envelope
  if (!is.null(y.bound) && !family$bounded_response) {
    dpglmnet_abort("y.bound", sprintf(
      "does not apply to family = \"%s\" (its response needs no bound).", family$name))
  }
  # list(lower, upper, envelope) or NULL (R/bounds.R): y is clamped to
  # [lower, upper]; `y.bound` below is the envelope max(|lower|, |upper|), a
  # magnitude bound on the clamped y, for everything that reads a bound on
  # |y| (a symmetric b: [-b, b], envelope b, the same problem as before).
  y_interval <- check_y_bound(y.bound)
  y_values <- clamp_response(response$y, y_interval$lower, y_interval$upper)
  if (!is.null(offsetting) && family$offset_in_response) {
    # gaussian: the offset moves into the response, y - o (glmnet's elnet),
    # whose interval widens by the offset's: [y.lower - o.upper, y.upper -
    # o.lower] (R/weights.R)
    y_values <- y_values - offsetting$values
    if (!is.null(y_interval) && !is.null(offsetting$lower)) {
      lower <- y_interval$lower - offsetting$upper
      upper <- y_interval$upper - offsetting$lower
      y_interval <- list(lower = lower, upper = upper,
                         envelope = max(abs(lower), abs(upper)))
    }
  }
  y.bound <- if (!is.null(y_interval)) y_interval$envelope
  l1 <- check_l1_arguments(solver, l1.radius, alpha, lambda, lower.limits,
                           upper.limits, penalty.factor, nlambda)
  nlambda <- l1$nlambda
  # Solvers that read no smoothness constants (the l1-ball solvers, DP-SCD):
  # nothing to release or announce.
  smoothness <- if (is.null(solver_declared$smoothness)) {
    if (standardize) "standardized" else "uniform"
  } else {
    choose_smoothness(smoothness, p, epsilon, x.bounds, standardize,
                      solver_declared$smoothness, weighted = !is.null(weighting),
                      warn_unit_scale = !bounds_missing)
  }
  # NULL: 0.3 here; the plan may raise it at moderate n, where the moments
  # would be noise (a public rule, R/moderate-n.R)
  standardize_budget_given <- !is.null(standardize.budget)
  standardize.budget <- if (!standardize_budget_given) moderate_n_constants$budget else
    check_numeric(standardize.budget, "standardize.budget", 0, 1, lower_open = TRUE,
                  upper_open = TRUE)
  shares <- budget_shares(list(
    epsilon = epsilon, standardization = if (standardize) TRUE, smoothness = smoothness,
    clip = clip, standardize.budget = standardize.budget,
    smoothness.budget = smoothness.budget, clip.budget = clip.budget,
    weights = weighting$values))
  if (sum(shares) >= 1) {
    dpglmnet_abort(NULL, sprintf(paste(
      "`%s` add up to %g: the path needs a share of the budget, so they must",
      "sum to less than 1."), paste0(names(shares), ".budget", collapse = "`, `"),
      sum(shares)))
  }
  rng <- check_choice(rng, c("seeded", "secure"), "rng")
  trace.it <- check_numeric(trace.it, "trace.it", lower = 0)
  # factor blocks (R/dpcd.R): for a solver that declares them, dense x in
  # memory only, made disjoint record by record
  factor_blocks <- if (!isTRUE(solver_declared$factor_blocks) || is.null(x_interval) ||
                       is_sparse_x(x) || is_database_source(x)) NULL
                   else x_interval$blocks
  if (any(factor_blocks != 0)) x <- disjoint_blocks(x, factor_blocks)
  problem <- structure(list(
    # x is read through the transform (clamped to the interval of x.bounds)
    # by the core, without a copy; the clamped values are bounded in
    # magnitude by the envelope `value_bounds` (= x.bounds below).
    x = x, y = y_values,
    # per-record weights clamped to [0, W] (normalised to omega_i = w_i n /
    # S_released by normalize_weights(), R/weights.R), W, and the offset the
    # core adds to the linear predictor (binomial; gaussian: in y above)
    weights = weighting$values, weights.bound = weighting$bound,
    offset = if (!is.null(offsetting) && !family$offset_in_response) offsetting$values,
    has_offset = !is.null(offsetting), offset.lower = offsetting$lower,
    offset.upper = offsetting$upper,
    transform = list(lower = x_interval$lower, upper = x_interval$upper,
                     center = NULL, scale = NULL),
    value_bounds = x.bounds,
    x.lower = x_interval$lower, x.upper = x_interval$upper,
    standardization = standardization_plan(standardize, intercept, family$name, y.bound,
                                           is_sparse_x(x), p, epsilon,
                                           binary = x_interval$binary,
                                           blocks = factor_blocks,
                                           weighted = !is.null(weighting)),
    # the dummies of a data frame's factors, by block (R/bounds.R)
    factor_blocks = factor_blocks,
    standardize.budget = standardize.budget,
    standardize_budget_given = standardize_budget_given,
    n = n, p = p, family = family$name, family_parameter = family$parameter,
    classnames = response$classnames, curvature = family$curvature,
    alpha = alpha, nlambda_given = nlambda, passes_given = passes,
    lambda.min.ratio = lambda.min.ratio, lambda = lambda,
    intercept = intercept, penalty.factor = penalty.factor,
    lower.limits = lower.limits, upper.limits = upper.limits,
    epsilon = epsilon, delta = delta, solver = solver, l1.radius = l1$l1.radius,
    clip = clip, clip_given = clip_given, step = step, average = average,
    batch.size = if (uses_batch) as.integer(batch.size),
    selection = selection, smoothness = smoothness,
    smoothness.budget = smoothness.budget, clip.budget = clip.budget, x.bounds = x.bounds,
    y.bound = y.bound, y.lower = y_interval$lower, y.upper = y_interval$upper, rng = rng, trace.it = as.integer(trace.it),
    threads = dpglmnet_threads(),
    variable_names = variable_names(x),
    bound_scaling = isTRUE(auto$bound_scaling), intercept_clip = auto$intercept_clip,
    # solver = "auto" may fit the intercept alone at moderate n (R/intercept.R)
    moderate_n_fallback = isTRUE(auto$moderate_n_fallback),
    highdim_fallback = isTRUE(auto$highdim_fallback),
    scale_defaults = scale_defaults,
    solver_choice = if (!is.null(auto)) auto$reason
  ), class = "dpglmnet_spec")
  # x's values are checked for non-finite ones in the fit's first pass over
  # x, its standardization's first release, when it has one (a pass over x
  # and a core call fewer; the error comes before anything is released:
  # release_columns(), R/standardize.R); here otherwise.
  if (!is.null(problem$standardization) && (is.matrix(x) || inherits(x, "dgCMatrix"))) {
    problem$validate_x_in_release <- TRUE
  } else {
    check_x_values(x)
  }
  problem <- solver_declared$check(problem)
  if (bounds_missing) check_x_bounds_given(x.bounds, standardize_given, epsilon, solver)
  check_y_bound_given(y_interval, family, epsilon, standardize)
  problem
}

# The number of lambdas and passes when not given. For a private, standardized
# DP-CD fit: as many releases R as keep the noise of one coordinate step,
# 2 C_j sqrt(R) / (mu_path n), at most 0.05 on the standardized scale
# (mu_path: the GDP of the path's share of the budget), spread as k = R /
# (p + 1) lambda x passes with nlambda = min(10, sqrt(k / 2)) and passes =
# min(10, k / nlambda); with fewer than `min_path_lambdas` lambdas, a
# single lambda of single_lambda_scale / sqrt(n) on the standardized scale
# (below). Measured on
# California, Electricity and generated data of other shapes
# (inst/bench/defaults.R): 10 x 10 on the real data, fewer where n is small.
# The same for columns used as they are without x.bounds (smoothness
# "uniform": the steps and clips of unit-scale columns, the scale the rule
# assumes; R/solvers.R): with 10 x 10 at n = 400-1500, epsilon 0.5-1, the
# noise alone moved a binomial intercept to -12 .. +7.5 (a 40% response) and
# held-out error was up to 1.7 x the trivial model's; with the rule,
# generated unit-scale designs went from 0.79-1.08 to 0.54-0.84 of the
# majority's misclassification (gaussian 1.09-1.66 -> 0.80 of the
# variance at n = 400), equal at n = 20000.
# Otherwise 10 and 10.
# `single = TRUE` takes the single-lambda branch whenever the schedule is
# automatic (cv.dpglmnet() when a split would leave one lambda).
# A path of fewer lambdas than this is not worth its cost: glmnet's grid
# spans 4 decades, so 3 to 5 lambdas are a decade or more apart, and with
# cv.dpglmnet() the path is fitted on 80% of the records at the same noise
# per release, then chosen on a noisy curve. The single lambda on all
# records did better wherever they differ: cv.dpglmnet() held out over
# cv.glmnet (inst/bench/real_sets.R-style splits, threshold 3 -> 6; every
# other row of 9 real sets at epsilon 0.5, 1, 2, 4 and 8 unchanged):
# Bikeshare epsilon 2 2.06 -> 1.41 (it was worse than at epsilon 1, 1.57),
# Caravan epsilon 4 1.12 -> 1.00 (worst split over the trivial model 1.38
# -> 1.00), Wage epsilon 4 1.18 -> 1.10, Letter epsilon 0.5 1.16 -> 1.08,
# Shuttle epsilon 0.5 1.61 -> 1.56. (11, never a short path, lost on
# California, Default and Letter.)
min_path_lambdas <- 6

# The single lambda, single_lambda_scale / sqrt(n) on the standardized scale:
# a quarter of the sampling sd of a null coordinate gradient (1 / sqrt(n)),
# so the l1 part barely thresholds. A single-lambda fit makes a few passes
# under noise from b = 0, and a lambda of 1 / sqrt(n) mostly added
# shrinkage, which the passes and the noise do not undo; the noise itself
# is bounded by the schedule, and where the gradient at the start is below
# it, the signal check (R/signal.R) raises lambda to the noise level.
# Measured (cv.dpglmnet() held out over cv.glmnet, or over the trivial
# model where the fit is the intercept alone; 3 splits as in
# inst/bench/real_sets.R, epsilon 0.5 / 1 / 2; 1 -> 0.25): Bikeshare 1.73 /
# 1.28 / 1.22 -> 1.66 / 1.24 / 1.22, Satellite 2.08 / 1.84 / 1.42 -> 2.06 /
# 1.44 / 1.18, ggplot2's txhousing 14.0 / 5.08 / 2.53 -> 13.3 / 3.90 /
# 2.51; over the trivial model at epsilon 2: Vowel 0.61 -> 0.47, Vehicle
# 0.73 -> 0.67, College 0.80 -> 0.75, OJ 0.54 -> 0.53, Wage 0.72 -> 0.71.
# It costs data without signal: Weekly (no linear signal; its fit at
# epsilon 1 is one pass) 1.21 / 1.08 -> 1.25 / 1.15 of the majority class's
# error at epsilon 1 / 2, Smarket 1.00 / 1.02 -> 1.01 / 1.01, and DNA at
# epsilon 2 0.31 -> 0.32. 0.1 measured as 0.25 within split noise.
single_lambda_scale <- 0.25

# epsilon = Inf (nothing to protect): a solver that declares
# `exact_convergence` makes each lambda's passes until the last moves no
# coefficient by more than `tolerance` of the largest |coefficient|, up to
# `max`, when `passes` is not given, so that the exact fit is glmnet's
# solution: 10 passes of DP-CD from the public step 1 / M_j (the logistic
# curvature bound 1/4) left ISLR2's Default (3% defaults) at a balance
# coefficient of 0.00441 against glmnet's 0.00572 at the same lambda, and
# cv.dpglmnet() at 1.12 of cv.glmnet's held-out error. The core stops
# early only when every noise sd is 0 (src/dpglmnet/dpcd.h): a private
# fit's passes never depend on the data.
exact_passes <- list(max = 1000L, tolerance = 1e-7)

exact_stop_tolerance <- function(problem) {
  if (is.finite(problem$epsilon) || !is.null(problem$passes_given)) return(0)
  exact_passes$tolerance
}

# Passes beyond 10 per lambda, where the budget affords them (large n):
# up to `max` passes, as many as keep the noise sd of a release at most
# `noise_share` of the schedule's target (the sd grows with the square
# root of the releases: 1/4 of the affordable releases). More passes help
# where the passes, not the noise, limit a path (a near-separable or
# rare-event binomial fit: DP-CD's steps rest on the curvature bound) and
# cost where the noise does. Measured (inst/bench/real_sets.R, 3 splits,
# and trust.R --quick; cv.dpglmnet() over cv.glmnet; 10 passes -> this
# rule): Shuttle 1.22 -> 1.08 at epsilon 1 and 1.18 -> 1.10 at 2,
# Default 1.14 -> 1.10 at 2, Letter at 2 1.02 -> 1.04 (its worst split
# over the majority class 1.059 -> 1.039), Electricity 0.998 -> 1.02 at
# 1; California unchanged (its passes stay 10). Up to 30 passes at the
# target itself (1/1) also cost Letter at 1 (1.05 -> 1.06, worst split
# 1.049 -> 1.090) and Electricity at 0.5; up to 30 at a quarter of it
# (1/16) left Shuttle at epsilon 1 at 12 passes. With 100 passes Shuttle
# was 1.15 / 1.06 at epsilon 1 / 2 (30: 1.07 / 1.09, another draw).
schedule_extra_passes <- list(max = 30L, noise_share = 1 / 2)

# The most passes per lambda within the noise target (schedule_passes());
# beyond it, only the extra passes above.
schedule_target_passes <- 10L

# The passes per lambda of an automatic path of `nlambda` lambdas, when the
# budget affords k releases per coordinate (choose_schedule()); `extra`
# FALSE: at most 10 (a database table, where a pass is one query per
# coordinate, 5-40 s at n = 1e6: inst/bench/results/2026-11-25-database.md).
schedule_passes <- function(k, nlambda, extra = TRUE) {
  within_target <- min(schedule_target_passes, floor(k / nlambda))
  quiet <- if (extra) min(schedule_extra_passes$max,
                          floor(k * schedule_extra_passes$noise_share^2 / nlambda)) else 1
  as.integer(max(1, within_target, quiet))
}

choose_schedule <- function(nlambda, passes, lambda, solver, epsilon, delta, n, p,
                            intercept, clip, standardize, standardize.budget,
                            single = FALSE, extra_passes = TRUE) {
  fixed <- list(nlambda = if (!is.null(lambda)) length(lambda) else
                  if (is.null(nlambda)) 10L else nlambda,
                passes = if (!is.null(passes)) passes
                         else if (!is.finite(epsilon) &&
                                  solver_object(solver)$exact_convergence) exact_passes$max
                         else 10L,
                single_lambda = FALSE)
  automatic <- (is.null(nlambda) && is.null(lambda)) || is.null(passes)
  if (!solver_object(solver)$automatic_schedule || !is.finite(epsilon) || !standardize) {
    return(fixed)
  }
  coordinates <- p + intercept
  mu_path <- plan_gdp_mu(epsilon, delta) * sqrt(1 - standardize.budget)
  # (a released clip, "quantile", is taken at the nominal 1 per coordinate)
  per_coordinate_clip <- if (is.numeric(clip)) clip / sqrt(coordinates) else 1
  releases <- (0.05 * mu_path * n / (2 * per_coordinate_clip))^2
  # (k, the releases per coordinate the rule affords, also where the
  # schedule is given: what decides DP-CD's factor blocks, R/dpcd.R)
  if (!automatic) return(c(fixed, affordable = max(1, floor(releases / coordinates))))
  # (per coordinate, also where DP-CD releases a factor's dummies as one
  # block, R/dpcd.R: the block's saving then lowers the noise of every
  # release rather than adding passes or lambdas. On Bikeshare, epsilon
  # 0.5 / 1 / 2, over cv.glmnet: 1.73 / 1.28 / 1.22 this way, 2.49 / 1.28 /
  # 1.49 with the schedule counting blocks once (passes 4 -> 10 at 0.5, a
  # path instead of one lambda at 2), 1.87 / 1.56 / 1.36 without blocks)
  k <- max(1, floor(releases / coordinates))
  if (!is.null(lambda) || !is.null(nlambda)) {
    return(list(nlambda = fixed$nlambda, single_lambda = FALSE,
                passes = if (is.null(passes)) schedule_passes(k, fixed$nlambda, extra_passes)
                         else passes, affordable = k))
  }
  chosen <- max(1, min(10, floor(sqrt(k / 2))))
  if (chosen < min_path_lambdas || single) {
    return(list(nlambda = 1L, single_lambda = TRUE,
                passes = if (is.null(passes)) max(1L, min(10L, k)) else passes,
                affordable = k))
  }
  list(nlambda = as.integer(chosen), single_lambda = FALSE,
       passes = if (is.null(passes)) schedule_passes(k, chosen, extra_passes)
                else passes, affordable = k)
}

# Clamping each record to public bounds is a per-record map: free for privacy.
# A gaussian y is clamped to its public interval [lower, upper] (y.bound).
clamp_response <- function(y, lower, upper) {
  if (inherits(y, "dpglmnet_db_response")) return(response_clamp(y, lower, upper))
  if (is.null(lower)) y else pmax(pmin(y, upper), lower)
}

# The p x nlambda dense path as a dgCMatrix, built directly from the stored
# entries (what Matrix(sparse = TRUE) keeps: the nonzero and NA entries),
# without Matrix()/as() dispatch chains.
sparse_path_matrix <- function(beta, row_names, column_names) {
  beta <- as.matrix(beta)
  storage.mode(beta) <- "double"
  rows <- nrow(beta)
  stored <- which(beta != 0 | is.na(beta))
  column_counts <- tabulate((stored - 1L) %/% rows + 1L, ncol(beta))
  # Slots assigned into an empty dgCMatrix: valid by construction, and 20x
  # cheaper than new("dgCMatrix", ...) with its initialize/validity dispatch.
  if (is.null(empty_matrix$dgC)) {
    empty_matrix$dgC <- methods::new(methods::getClass("dgCMatrix", where = asNamespace("Matrix")))
  }
  m <- empty_matrix$dgC
  m@i <- as.integer((stored - 1L) %% rows)
  m@p <- c(0L, cumsum(column_counts))
  m@x <- beta[stored]
  m@Dim <- dim(beta)
  m@Dimnames <- list(row_names, column_names)
  m
}

empty_matrix <- new.env(parent = emptyenv())

# The call a fit keeps and prints, holding no data (`call`
# never holds data). A call made with do.call(dpglmnet, list(x = X, ...))
# carries the values themselves, not their names: the data arguments
# (`data`: x and y) are kept only as symbols (anything else, even a short
# literal vector of a few records, becomes the symbol of the argument's
# name), and in the other arguments any value that is not a symbol or a
# small literal (an atomic vector of at most 10 values without dimensions,
# short strings) becomes the symbol `<data>`, recursively inside
# expressions. The function is named by `name` (do.call() puts the closure
# itself there).
public_call <- function(call, name, data = c("x", "y")) {
  elements <- as.list(call)
  arguments <- names(elements)
  if (is.null(arguments)) arguments <- rep("", length(elements))
  elements[-1L] <- lapply(seq_along(elements)[-1L], function(k) {
    if (arguments[k] %in% data && !is.name(elements[[k]])) as.name(arguments[k])
    else public_expression(elements[[k]])
  })
  elements[[1L]] <- as.name(name)
  as.call(elements)
}

public_expression <- function(value) {
  if (is.name(value) || is.null(value)) return(value)
  if (is.call(value)) return(as.call(lapply(as.list(value), public_expression)))
  small <- is.atomic(value) && !is.object(value) && is.null(dim(value)) &&
    length(value) <= 10L && all(names(attributes(value)) %in% "names") &&
    (!is.character(value) || all(nchar(value, type = "bytes", allowNA = TRUE) <= 100L,
                                 na.rm = TRUE))
  if (small) value else as.name("<data>")
}

# A private fit's x.bounds, unless the columns are read as they are
# (standardize = FALSE given): checked by dpglmnet() and first by
# cv.dpglmnet() (before its check of the response's bound).
check_x_bounds_given <- function(x.bounds, standardize, epsilon, solver = NULL) {
  if (!is.null(standardize) || !is.null(x.bounds) || !is.finite(epsilon)) return(invisible())
  # (a solver whose fit reads no x, named; "auto" and the others read it)
  if (is.character(solver) && length(solver) == 1L && solver %in% names(dpglmnet_solvers) &&
      !solver_object(solver)$reads_x) {
    return(invisible())
  }
  dpglmnet_abort("x.bounds", paste(
    "must be given for a private fit: public bounds on the columns, one value",
    "b (|x_ij| <= b) or one per column, or intervals cbind(lower, upper). The",
    "private standardization rests on them (x is clamped to them); crude",
    "bounds cost little, as its released ranges narrow them. A data frame's",
    "factors need none. (standardize = FALSE without `x.bounds` fits the",
    "columns as they are, at unit scale: only for columns already scaled to",
    "about [-1, 1].)"))
}

# Assembles the glmnet-shaped object from a solver's path.
new_dpglmnet <- function(problem, path, call) {
  nlambda <- length(path$lambda)
  step_names <- paste0("s", seq_len(nlambda) - 1L)
  beta <- sparse_path_matrix(path$beta, problem$variable_names, step_names)
  a0 <- stats::setNames(path$a0, step_names)
  structure(list(
    a0 = a0,
    beta = beta,
    df = diff(beta@p),
    dim = dim(beta),
    lambda = path$lambda,
    nobs = problem$n,
    call = call,
    family = problem$family,
    classnames = problem$classnames,
    intercept = problem$intercept,
    privacy = path$privacy,
    settings = path$settings,
    vertices = path$picks
  ), class = "dpglmnet")
}

# glmnet's names for the columns: the column names, "V<j>" where missing.
variable_names <- function(x) {
  names <- colnames(x)
  default <- paste0("V", seq_len(ncol(x)))
  if (is.null(names)) return(default)
  missing <- is.na(names) | !nzchar(names)
  names[missing] <- default[missing]
  names
}
