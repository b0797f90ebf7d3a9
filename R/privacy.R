# Privacy accounting: exported accountant functions and the ledger every fit
# carries. The arithmetic is in the C++ core (src/dpglmnet/gdp_accountant.h).

#' Gaussian differential privacy accountant
#'
#' Exact conversions between mu-Gaussian differential privacy (mu-GDP) and
#' (epsilon, delta)-differential privacy. A Gaussian mechanism with noise
#' multiplier `z` (noise standard deviation over the L2 sensitivity under
#' replace-one) is exactly `1/z`-GDP, and `R` such mechanisms composed
#' adaptively are exactly `sqrt(R)/z`-GDP. mu-GDP is equivalent to
#' (epsilon, delta(epsilon))-DP for all epsilon with
#' \deqn{\delta(\epsilon) = \Phi(-\epsilon/\mu + \mu/2) - e^\epsilon \Phi(-\epsilon/\mu - \mu/2)}
#' (Balle and Wang 2018; Dong, Roth and Su 2022). The curve is evaluated in
#' log space and inverted by bisection to a relative tolerance of 1e-10,
#' returning the end that is safe for privacy: `gdp_epsilon()` never
#' understates epsilon and `gdp_mu()` never overstates mu.
#'
#' @param mu GDP parameter(s), `>= 0` (vectorised).
#' @param delta Target delta in (0, 1).
#' @param epsilon For `gdp_delta()`, the epsilon at which delta is evaluated;
#'   for `gdp_mu()`, the target epsilon(s) (vectorised), `> 0`.
#' @return A numeric vector: epsilon spent (`gdp_epsilon`), delta
#'   (`gdp_delta`), or the largest admissible mu (`gdp_mu`).
#' @references
#' Balle, B. and Wang, Y.-X. (2018). Improving the Gaussian mechanism for
#' differential privacy: analytical calibration and optimal denoising. ICML.
#'
#' Dong, J., Roth, A. and Su, W. J. (2022). Gaussian differential privacy.
#' Journal of the Royal Statistical Society B, 84(1), 3-37.
#' @examples
#' gdp_epsilon(c(0.5, 1, 2), delta = 1e-5)
#' gdp_delta(1, epsilon = 1)
#' # the analytic Gaussian mechanism: sigma for (1, 1e-5)-DP, sensitivity 1
#' 1 / gdp_mu(1, 1e-5)
#' @name gdp
NULL

#' @rdname gdp
#' @export
gdp_epsilon <- function(mu, delta) {
  mu <- check_numeric(mu, "mu", lower = 0, length = NULL, finite = FALSE)
  delta <- check_numeric(delta, "delta", 0, 1, lower_open = TRUE, upper_open = TRUE)
  .gdp_epsilon_cpp(mu, delta)
}

#' @rdname gdp
#' @export
gdp_delta <- function(mu, epsilon) {
  mu <- check_numeric(mu, "mu", lower = 0, length = NULL, finite = FALSE)
  epsilon <- check_numeric(epsilon, "epsilon", lower = 0, finite = FALSE)
  .gdp_delta_cpp(mu, epsilon)
}

#' @rdname gdp
#' @export
gdp_mu <- function(epsilon, delta) {
  epsilon <- check_numeric(epsilon, "epsilon", lower = 0, lower_open = TRUE,
                           length = NULL, finite = FALSE)
  delta <- check_numeric(delta, "delta", 0, 1, lower_open = TRUE, upper_open = TRUE)
  .gdp_mu_cpp(epsilon, delta)
}

# One mechanism of a fit, a row of its ledger: what it releases, its type
# ("gaussian", "laplace" or "exponential"), how many times it runs, its
# replace-one sensitivity (stated in words), and its noise multiplier (noise
# scale over that sensitivity): fixed, or `calibrated` as `factor` times the
# noise level the accountant calibrates for the whole fit. `sampling` and
# `sampling_rate` describe subsampled runs; `part` > 0 marks a mechanism that
# reads only part `part` of a data-independent split of the records
# (parallel composition, src/dpglmnet/accountant.h). `relation` is the
# neighbouring relation the row's sensitivity and accounting hold under:
# every row of the package is "replace-one" (n public); the accountant
# refuses to compose rows under different relations, and a Poisson-sampled
# row, whose RDP bound is add/remove-one's, must state "add/remove-one".
# `key` names the release, so that the code making it finds its row
# (release_noise()). The numeric sensitivity (in the release's own units)
# is recorded on the row when the release is made (record_sensitivity()):
# it may rest on earlier releases (a released clamp, released smoothness
# constants: adaptive composition), so the plan, which reads no data,
# leaves it NA. `sensitivity_value` is its largest value (one per
# coordinate, radius or column: `sensitivity_length` of them).
mechanism <- function(name, type, count, sensitivity, noise_multiplier = NA_real_,
                      calibrated = FALSE, factor = 1, sampling = "none",
                      sampling_rate = 1, part = 0L, relation = "replace-one",
                      key = NA_character_) {
  list(mechanism = name, type = type, count = as.numeric(count),
       sensitivity = sensitivity, noise_multiplier = as.numeric(noise_multiplier),
       calibrated = calibrated, factor = as.numeric(factor), sampling = sampling,
       sampling_rate = as.numeric(sampling_rate), part = as.integer(part),
       relation = relation, key = as.character(key), sensitivity_value = NA_real_,
       sensitivity_length = NA_integer_)
}

# The mechanisms (NULLs dropped) as one data frame, built column by column
# (no per-row data.frame binding).
mechanism_table <- function(rows) {
  rows <- rows[!vapply(rows, is.null, logical(1))]
  columns <- names(mechanism("", "gaussian", 0, ""))
  table <- lapply(stats::setNames(columns, columns), function(column) {
    unlist(lapply(rows, `[[`, column), use.names = FALSE)
  })
  structure(table, class = "data.frame", row.names = seq_along(rows))
}

# The one place a noise scale is made: the noise multiplier of the ledger
# row `key` times the replace-one sensitivity recorded on it
# (record_sensitivity()), one value per coordinate (or radius, or column)
# of the release. A multiplier 0 (epsilon = Inf) adds no noise, whatever
# the sensitivity (Inf without clipping). `ledger`: a fit's ledger, or any
# list(mechanisms, sensitivities, target_epsilon) (cv's curve).
release_noise <- function(ledger, key) {
  sensitivity <- ledger$sensitivities[[key]]
  if (is.null(sensitivity)) {
    stop(sprintf("internal error: no sensitivity recorded for the release \"%s\"", key),
         call. = FALSE)
  }
  row <- match(key, ledger$mechanisms$key)
  multiplier <- if (!is.na(row)) ledger$mechanisms$noise_multiplier[row]
                else if (!is.finite(ledger$target_epsilon)) 0
                else stop(sprintf("internal error: the ledger has no release \"%s\"", key),
                          call. = FALSE)
  if (multiplier == 0) return(rep(0, length(sensitivity)))
  multiplier * sensitivity
}

# Records the replace-one sensitivity of the release `key` (a vector: one
# value per coordinate, radius or column) when the release is made: the
# full vector in `ledger$sensitivities`, its largest value and length on
# the row. A private fit's release must have its row; at epsilon = Inf
# (nothing noised) rows of releases made exactly may be absent.
record_sensitivity <- function(ledger, key, sensitivity) {
  sensitivity <- as.numeric(sensitivity)
  row <- match(key, ledger$mechanisms$key)
  if (is.na(row) && is.finite(ledger$target_epsilon)) {
    stop(sprintf("internal error: the ledger has no release \"%s\"", key), call. = FALSE)
  }
  ledger$sensitivities[[key]] <- sensitivity
  if (!is.na(row)) {
    ledger$mechanisms$sensitivity_value[row] <-
      if (length(sensitivity)) max(sensitivity) else NA_real_
    ledger$mechanisms$sensitivity_length[row] <- length(sensitivity)
  }
  ledger
}

# The rows of `mechanisms` at noise level z: calibrated rows get `factor`
# times z (0 when not private: nothing is noised).
calibrated_multipliers <- function(mechanisms, z, private) {
  mechanisms$noise_multiplier[mechanisms$calibrated] <-
    if (private) mechanisms$factor[mechanisms$calibrated] * z else 0
  mechanisms
}

# The releases of the Gaussian row `key` spread over `count` runs instead of
# the planned ones (fewer), each with the smaller noise multiplier that
# keeps the row's GDP mu, sqrt(count) / multiplier, at its planned value
# (rounded up by a few ulps, to the safe side): the same privacy cost.
# For a choice of `count` made from earlier releases (DP-CD skips the
# coordinates the released standardization holds at 0, R/dpcd.R), the row
# is one mechanism that is mu-GDP whatever the choice, so the adaptive
# composition of the fit is unchanged (Dong, Roth & Su 2022, Thm 3.2).
# `note` is appended to the row's name. The account is made again.
# With `more` (the standardization's constant fallback, R/moderate-n.R)
# the runs may also be more, each with a larger multiplier: the row's mu
# is the same either way; without it a larger count is an error, so that
# no caller spreads a row over more runs by mistake.
respread_release <- function(ledger, key, count, note, more = FALSE) {
  m <- ledger$mechanisms
  row <- match(key, m$key)
  planned <- m$count[row]
  if (is.na(row) || !is.finite(ledger$target_epsilon) || count == planned) return(ledger)
  if (!(m$type[row] == "gaussian" && m$sampling[row] == "none" && m$calibrated[row] &&
        count >= 0 && (count < planned || (more && planned > 0)) && count == round(count))) {
    stop("internal error: a release can only be spread over fewer Gaussian runs",
         call. = FALSE)
  }
  # (none: nothing is released, nothing spent; the multiplier is kept)
  if (count > 0) {
    m$factor[row] <- m$factor[row] * sqrt(count / planned) * (1 + 4 * .Machine$double.eps)
  }
  m$count[row] <- count
  m$mechanism[row] <- paste0(m$mechanism[row], note)
  spread <- reaccount_ledger(ledger, m)
  if (!(spread$epsilon <= ledger$target_epsilon) ||
      !(count == 0 || sqrt(count) / spread$mechanisms$noise_multiplier[row] <=
        sqrt(planned) / ledger$mechanisms$noise_multiplier[row])) {
    stop("internal error: spreading a release would spend more than planned", call. = FALSE)
  }
  spread
}

# The ledger with its rows replaced by `mechanisms` (their counts or factors
# changed) and the account made again at its noise level.
reaccount_ledger <- function(ledger, mechanisms) {
  mechanisms$epsilon <- NULL
  mechanisms$gdp_mu <- NULL
  new_privacy_ledger(mechanisms, ledger$noise_level, ledger$target_epsilon,
                     ledger$target_delta, ledger$rng, sensitivities = ledger$sensitivities)
}

# The Gaussian rows `from` (calibrated, full-batch, none of them released)
# given up, their runs set to 0, and their GDP mu^2 added to the row
# `into`'s at its count (a smaller multiplier): in GDP the fit's mu^2 is
# the sum of its rows', so the total, and the account, are those planned
# (rounded by a few ulps to the safe side). For a choice made from earlier
# releases (the standardization's constant fallback, R/moderate-n.R), as
# respread_release(): each row's mu is fixed before its runs. `note` is
# appended to the rows' names.
absorb_releases <- function(ledger, into, from, note) {
  m <- ledger$mechanisms
  row <- match(into, m$key)
  gone <- unique(match(from, m$key))
  gone <- gone[!is.na(gone) & m$count[gone] > 0]
  if (is.na(row) || !length(gone) || !is.finite(ledger$target_epsilon)) return(ledger)
  rows <- c(row, gone)
  # (Gaussian full-batch rows of one part, none run yet, into one that runs)
  if (!all(m$type[rows] == "gaussian" & m$sampling[rows] == "none" & m$calibrated[rows]) ||
      any(m$part[rows] != m$part[row]) || row %in% gone ||
      any(m$key[rows] %in% names(ledger$sensitivities)) || !(m$count[row] > 0)) {
    stop("internal error: only unreleased full-batch Gaussian rows can be absorbed",
         call. = FALSE)
  }
  mu2 <- function(mechanisms, r) sum(mechanisms$count[r] / mechanisms$noise_multiplier[r]^2)
  before <- mu2(m, row)
  added <- mu2(m, gone)
  m$factor[row] <- m$factor[row] * sqrt(before / (before + added)) * (1 + 4 * .Machine$double.eps)
  m$count[gone] <- 0
  m$mechanism[gone] <- paste0(m$mechanism[gone], note)
  absorbed <- reaccount_ledger(ledger, m)
  if (!(absorbed$epsilon <= ledger$target_epsilon) ||
      !(mu2(absorbed$mechanisms, rows) <= mu2(ledger$mechanisms, rows))) {
    stop("internal error: absorbing releases would spend more than planned", call. = FALSE)
  }
  absorbed
}

# The noise level of the calibrated rows: the smallest for which the whole
# fit spends at most the target (src/dpglmnet/accountant.h). It depends only
# on public quantities, so repeated fits of the same shape (tuning,
# benchmarks) reuse it.
calibrate_noise <- function(mechanisms, epsilon, delta, orders = default_orders()) {
  if (!is.finite(epsilon)) return(0)
  calibration(mechanisms, epsilon, delta, orders)$z
}

# The calibration and the account at its noise level, list(z, account) (one
# core call gives both; new_privacy_ledger() reads the account), cached by
# everything they depend on. With epsilon = Inf, z = 0 (nothing noised).
calibration <- function(mechanisms, epsilon, delta, orders = default_orders()) {
  # %a: the exact binary value of every number (format(digits = 17) did the
  # same at several times the cost).
  key <- paste(c(sprintf("%a", c(epsilon, delta, mechanisms$count, mechanisms$noise_multiplier,
                                 mechanisms$factor, mechanisms$sampling_rate, orders)),
                 mechanisms$type, mechanisms$calibrated, mechanisms$sampling,
                 mechanisms$part, mechanisms$relation), collapse = "|")
  cached <- calibration_cache[[key]]
  if (is.null(cached)) {
    cached <- .calibrate_cpp(mechanisms, epsilon, delta, orders)
    if (!is.finite(cached$z)) {
      dpglmnet_abort("epsilon", sprintf(paste(
        "= %s cannot cover this fit: the mechanisms with a fixed budget spend it",
        "all, or no noise level is enough. Raise `epsilon` or lower the fixed",
        "shares (e.g. `smoothness.budget`)."), format(epsilon)))
    }
    if (length(ls(calibration_cache)) > 1000) {
      rm(list = ls(calibration_cache), envir = calibration_cache)
    }
    assign(key, cached, envir = calibration_cache)
  }
  cached
}

calibration_cache <- new.env(parent = emptyenv())

# The GDP parameter mu of (epsilon, delta)-DP (the accountant's gdp_mu()),
# for the plan's public rules (the schedule, the moderate-n criterion, the
# Frank-Wolfe steps, cv's refit budget): one core call per (epsilon, delta),
# remembered, so that a fit's rules share it.
plan_gdp_mu <- function(epsilon, delta) {
  key <- sprintf("mu|%a|%a", epsilon, delta)
  mu <- calibration_cache[[key]]
  if (is.null(mu)) {
    mu <- .gdp_mu_cpp(epsilon, delta)
    assign(key, mu, envir = calibration_cache)
  }
  mu
}

# The ledger of one fit: the mechanisms with calibrated rows at noise level
# z, and what they spend together (src/dpglmnet/accountant.h decides how
# they compose). With epsilon = Inf nothing is noised and nothing is spent
# privately.
# `accounted`: the account at z when the caller has it (calibration()),
# else the accountant is asked.
# `sensitivities`: the full sensitivity vectors already recorded (cv's
# procedure, from its fits' ledgers).
new_privacy_ledger <- function(mechanisms, z, target_epsilon, target_delta,
                               rng = "seeded", orders = default_orders(),
                               accounted = NULL, sensitivities = list()) {
  private <- is.finite(target_epsilon)
  mechanisms <- calibrated_multipliers(mechanisms, z, private)
  # (epsilon = Inf: every noise multiplier is 0; the accountant's totals
  # are replaced below, its per-row values are Inf, as spent)
  if (is.null(accounted)) accounted <- .account_cpp(mechanisms, z, target_delta, orders)
  total <- if (private) accounted else {
    list(epsilon = Inf, method = "none", mu = NA_real_, rdp_order = NA_real_,
         epsilon_pure = 0, part = 0L)
  }
  gaussian <- mechanisms$type == "gaussian"
  # Per row, from the accountant (src/dpglmnet/accountant.h): the pure
  # epsilon of Laplace and exponential rows (basic composition of their
  # runs), the GDP mu of full-batch Gaussian rows; NA elsewhere.
  mechanisms$epsilon <- accounted$row_epsilon
  mechanisms$gdp_mu <- accounted$row_gdp_mu
  mechanisms$epsilon[is.nan(mechanisms$epsilon)] <- NA_real_
  mechanisms$gdp_mu[is.nan(mechanisms$gdp_mu)] <- NA_real_
  laplace <- mechanisms$type == "laplace"
  subsampled <- gaussian & mechanisms$sampling != "none"
  parts <- sort(unique(mechanisms$part[mechanisms$part > 0]))
  structure(list(
    epsilon = total$epsilon,
    delta = if (private) target_delta else 1,
    target_epsilon = target_epsilon,
    target_delta = target_delta,
    # (one relation: the accountant refuses rows under different ones)
    relation = if (nrow(mechanisms)) mechanisms$relation[1L] else "replace-one",
    method = total$method,
    accountant = if (private) {
      accountant_description(total$method, parts,
                             revealed = any(mechanisms$sampling == "revealed"),
                             pure = any(mechanisms$type == "laplace") ||
                               (total$method != "rdp" && any(mechanisms$type == "exponential")))
    }
                 else "none: epsilon = Inf, no noise and no clipping (not private)",
    mu = if (private && total$method == "gdp") total$mu else NA_real_,
    rdp_order = total$rdp_order,
    epsilon_laplace = sum(mechanisms$epsilon[laplace]),
    epsilon_pure = total$epsilon_pure,
    noise_level = z,
    sampling = if (any(subsampled)) {
      paste0(sprintf(paste("fixed-size minibatches drawn uniformly without replacement,",
                           "independently at each step (rate %s)"),
                     paste(format(signif(unique(mechanisms$sampling_rate[subsampled]), 4)),
                           collapse = ", ")),
             if (any(mechanisms$sampling == "revealed")) {
               paste("; DP-SCD's output reveals its batch, so its rows get no",
                     "amplification by subsampling (see rdp_subsampled_gaussian)")
             })
    } else "none: every release uses all the records it reads",
    parts = if (length(parts)) paste0(sprintf(paste(
      "parallel composition over %d disjoint parts of a data-independent split:",
      "the total is the largest part's (part %d)"), length(parts), total$part),
      if (any(mechanisms$part == 0L)) {
        paste("; the rows of part 0 read every record and compose sequentially",
              "with each part")
      }),
    rng = rng,
    mechanisms = mechanisms,
    sensitivities = sensitivities
  ), class = "dpglmnet_privacy")
}

accountant_description <- function(method, parts, revealed = FALSE, pure = TRUE) {
  text <- switch(method,
    gdp = "exact Gaussian DP composition (Dong, Roth & Su 2022)",
    rdp = if (revealed) {
      paste("Renyi DP (Gaussian on a fixed-size batch without replacement whose",
            "membership is revealed: exact mixture bound, no amplification),",
            "converted as Balle et al. (2020)")
    } else {
      paste("Renyi DP of the releases (subsampled Gaussians without",
            "replacement under replace-one: Wang, Balle & Kasiviswanathan 2019;",
            "exponential mechanisms as zCDP), converted as Balle et al. (2020)")
    },
    basic = "basic composition of pure-DP mechanisms",
    none = "nothing released")
  # (said only where pure-DP rows are composed so: Laplace rows, and
  # exponential ones outside Renyi DP, where they are composed as zCDP)
  text <- paste0(text, if (method != "basic" && pure) " + basic composition with pure-DP mechanisms")
  if (length(parts)) text <- paste(text, "within each part; parallel composition across parts")
  text
}

# The budget spent, in words: "(epsilon = 1, delta = 1e-06)-differential
# privacy, one record replaced" (epsilon rounded for reading; the exact
# value is in the ledger and print(details = TRUE)).
privacy_budget_text <- function(ledger) {
  if (!is.finite(ledger$target_epsilon)) {
    return("not private (epsilon = Inf): no noise, no clipping")
  }
  sprintf("(epsilon = %s, delta = %s)-differential privacy, %s",
          format(signif(ledger$epsilon, 4)), format(signif(ledger$delta, 3)),
          if (identical(ledger$relation, "replace-one")) "one record replaced"
          else paste("neighbours:", ledger$relation))
}

# How the releases compose, briefly.
composition_text <- function(ledger) {
  paste0(
    switch(ledger$method,
           gdp = sprintf("composed exactly in Gaussian DP (mu = %.3g)", ledger$mu),
           rdp = sprintf("composed in Renyi DP (RDP, best order %g)", ledger$rdp_order),
           "basic composition"),
    if (ledger$epsilon_pure > 0)
      sprintf(" plus %.3g of pure epsilon", ledger$epsilon_pure))
}

# One line for print(fit) and print(cvfit).
format_privacy_line <- function(ledger) {
  if (!is.finite(ledger$target_epsilon)) return(privacy_budget_text(ledger))
  releases <- sum(ledger$mechanisms$count)
  sprintf("%s; %s noisy release%s, %s.", privacy_budget_text(ledger),
          format(releases, big.mark = ","), if (releases == 1) "" else "s",
          composition_text(ledger))
}

# One line per mechanism: how many times it ran, what it released, and its
# noise as a multiple of its replace-one sensitivity.
mechanism_lines <- function(mechanisms, method = NULL) {
  vapply(seq_len(nrow(mechanisms)), function(k) {
    row <- mechanisms[k, ]
    noise <- switch(row$type,
      gaussian = "Gaussian noise, sd",
      laplace = "Laplace noise, scale",
      exponential = "Gumbel noise (exponential mechanism), scale",
      paste(row$type, "noise, scale"))
    multiplier <- if (is.na(row$noise_multiplier)) "(uncalibrated)"
                  else if (row$noise_multiplier == 0) "0"
                  else format(signif(row$noise_multiplier, 3))
    extra <- c(
      if (!identical(row$sampling, "none"))
        sprintf("batches at rate %s", format(signif(row$sampling_rate, 3))),
      if (row$part > 0) sprintf("part %d of the split only", row$part),
      if (!is.null(row$epsilon) && !is.na(row$epsilon)) {
        # (an exponential row in Renyi DP is composed as zCDP, rho =
        # epsilon^2 / 8 per release: its basic-composition epsilon, which
        # can exceed the fit's total, is not what it is charged)
        if (identical(row$type, "exponential") && identical(method, "rdp")) {
          sprintf("pure epsilon %s per release, composed as zCDP",
                  format(signif(row$epsilon / row$count, 3)))
        } else sprintf("epsilon %s", format(signif(row$epsilon, 3)))
      })
    # the numeric sensitivity recorded at the release (the largest, when
    # there is one per coordinate)
    value <- if (is.null(row$sensitivity_value) || is.na(row$sensitivity_value)) ""
             else if (isTRUE(row$sensitivity_length > 1)) {
               sprintf(" [at most %s over %d]", format(signif(row$sensitivity_value, 3)),
                       row$sensitivity_length)
             } else sprintf(" [= %s]", format(signif(row$sensitivity_value, 3)))
    sprintf("%s x %s: %s %s x sensitivity %s%s%s", format(row$count, big.mark = ","),
            row$mechanism, noise, multiplier, row$sensitivity, value,
            if (length(extra)) paste0(" (", paste(extra, collapse = "; "), ")") else "")
  }, character(1))
}

#' The privacy ledger of a fit
#'
#' Every fit carries `fit$privacy`, a ledger of class `"dpglmnet_privacy"`:
#' the spent totals `epsilon` and `delta` (never above the targets
#' `target_epsilon` and `target_delta`), the neighbouring `relation`
#' (`"replace-one"`), the `accountant`, the composed GDP parameter `mu`, the
#' Gaussian and Laplace shares of epsilon, the `sampling` scheme, the noise
#' source `rng`, and `mechanisms`, a data frame with one row per mechanism:
#' what it released, its `type` (`"gaussian"`, `"laplace"` or
#' `"exponential"`), how many times it ran (`count`), its replace-one
#' `sensitivity` in words, its `noise_multiplier` (noise scale over that
#' sensitivity; `calibrated` rows share the fit's calibrated noise level
#' times `factor`), its `sampling`, the `part` of a data-independent split
#' it reads (0: all records), its `key` (a stable name of the release:
#' `"path"`, `"lambda_max"`, `"x_mean"`, `"weight_sum"`, `"curve"`, ...),
#' its numeric replace-one sensitivity in the release's own units,
#' `sensitivity_value` (the largest of its `sensitivity_length` values when
#' there is one per coordinate, radius or column; recorded when the
#' release is made, since it may rest on earlier releases such as a
#' released clamp or smoothness constants), its pure `epsilon` (Laplace and
#' exponential rows) and its `gdp_mu` (full-batch Gaussian rows:
#' `sqrt(count) / noise_multiplier`). Every noise scale of the fit is
#' `noise_multiplier` times the row's sensitivity: the full vectors are in
#' `sensitivities`, a list by `key` (so `noise_multiplier *
#' sensitivity_value` is the largest noise scale of the row).
#' The accountant (`method`) is the tightest valid one: full-batch Gaussian
#' rows compose exactly as GDP, `mu = sqrt(sum(gdp_mu^2))`; subsampled ones
#' in Renyi DP; pure-DP rows add their epsilon (basic composition). Rows
#' that read disjoint parts of the records compose in parallel: the total
#' is the largest part's.
#'
#' `print()` states it in words, one line per mechanism (how many times it
#' ran and its noise as a multiple of its sensitivity); `details = TRUE`
#' adds the full table and the exact spent epsilon, and `as.data.frame()`
#' returns the table.
#'
#' @param x A `"dpglmnet_privacy"` ledger.
#' @param details `TRUE` to print the full table of mechanisms and the
#'   exact totals too.
#' @param row.names,optional Unused (as [as.data.frame()]).
#' @param ... Unused.
#' @return `print`: `x`, invisibly. `as.data.frame`: the mechanisms table.
#' @examples
#' set.seed(1)
#' x <- matrix(rnorm(300 * 3), 300, 3)
#' y <- drop(x %*% c(1, -1, 0)) + rnorm(300)
#' fit <- dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 6)
#' fit$privacy
#' print(fit$privacy, details = TRUE)
#' as.data.frame(fit$privacy)[, c("mechanism", "count", "noise_multiplier")]
#' # DP-CD's noise on each coordinate update: its path row's multiplier
#' # times the sensitivity 2 C_j / n recorded on the row
#' fit <- dpglmnet(x, y, epsilon = 1, x.bounds = 4, y.bound = 6, solver = "dpcd")
#' rows <- as.data.frame(fit$privacy)
#' path <- rows[rows$key == "path", ]
#' path$noise_multiplier * path$sensitivity_value  # = max(fit$settings$noise_sd)
#' @export
print.dpglmnet_privacy <- function(x, details = FALSE, ...) {
  check_flag(details, "details")
  cat(wrap_text(paste("Privacy ledger:", privacy_budget_text(x))), sep = "\n")
  if (!is.finite(x$target_epsilon)) {
    if (details) print(x$mechanisms, row.names = FALSE)
    return(invisible(x))
  }
  lines <- c(
    sprintf("Neighbouring data sets: %s (one record replaced by another; n is public).",
            x$relation),
    sprintf("Target: epsilon = %s, delta = %s; the spent epsilon is never above it.",
            format(signif(x$target_epsilon, 4)), format(signif(x$target_delta, 3))),
    paste0("Accountant: ", x$accountant, "."),
    paste0("Sampling: ", x$sampling, "."),
    if (!is.null(x$parts)) paste0("Parts: ", x$parts, "."),
    sprintf("Noise source: %s.", rng_text(x$rng)),
    if (length(x$disclosures)) {
      paste0("Outside the guarantee: ", paste(x$disclosures, collapse = "; "), ".")
    })
  for (line in lines) cat(wrap_text(line, indent = 2, exdent = 4), sep = "\n")
  cat(sprintf("  Mechanisms (%s releases):\n", format(sum(x$mechanisms$count), big.mark = ",")))
  for (line in mechanism_lines(x$mechanisms, x$method)) {
    cat(wrap_text(line, indent = 4, exdent = 6), sep = "\n")
  }
  if (details) {
    cat(sprintf("  Spent exactly: epsilon = %s, delta = %s%s\n",
                format(x$epsilon, digits = 15), format(x$delta, digits = 15),
                if (identical(x$method, "gdp")) sprintf(", mu = %s", format(x$mu, digits = 15))
                else ""))
    print(x$mechanisms, row.names = FALSE)
  } else {
    cat("  (the full table: print(<ledger>, details = TRUE) or as.data.frame(<ledger>))\n")
  }
  invisible(x)
}

#' @rdname print.dpglmnet_privacy
#' @export
as.data.frame.dpglmnet_privacy <- function(x, row.names = NULL, optional = FALSE, ...) {
  x$mechanisms
}

# Draws the seed of the C++ generator from R's RNG, so set.seed() reproduces
# a fit. With rng = "secure" the C++ side ignores it.
draw_seed <- function() as.numeric(sample.int(2147483647L, 2L))

# The ledger's noise source, with what its guarantee assumes.
rng_text <- function(rng) {
  if (identical(rng, "seeded")) {
    return(paste("seeded (from R's random number generator: set.seed() reproduces",
                 "the noise, so the guarantee assumes the seed stays secret; rng =",
                 "\"secure\" draws from the operating system)"))
  }
  rng
}

# What a fit reveals outside its mechanisms, said on its ledger: the levels
# of a data frame's character columns, read from the data (private only
# when they are public schema; the fit warns as well).
note_disclosures <- function(privacy, disclosures) {
  if (is.null(privacy) || !length(disclosures)) return(privacy)
  privacy$disclosures <- unique(c(privacy$disclosures, disclosures))
  privacy
}
