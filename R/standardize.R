# Private standardization: the private counterpart of glmnet's
# standardize = TRUE. With public bounds, the column means and second moments
# of x clamped to `x.bounds` (and of a gaussian y clamped to the interval of
# `y.bound`) are released with Gaussian noise at the fit's calibrated noise
# level, charged to the ledger like every other release. The solver then runs on
#   x~_ij = (clamp(x_ij) - c_j) s_j,   y~_i = (clamp(y_i) - m_y) / s_y
# (the core applies the transform as it reads x, no copy), and the path is
# mapped back to the original scale, as glmnet does. Everything below the
# releases is post-processing.

# The standardization releases take `standardize.budget` of the calibrated
# Gaussian privacy (in GDP: of mu^2). A gaussian y scaled with `y.bound` gets
# its own quarter of it (its range and moments: the intercept and the scale
# of every coefficient rest on them, and with many columns an even split
# left y's mean at the noise of one column among thousands); the columns
# of x split the rest evenly between their groups (ranges, moments). See
# share_factor() (R/scales.R).
y_standardization_share <- 0.25

standardization_factors <- function(problem, path_releases) {
  plan <- problem$standardization
  budget <- problem$standardize.budget
  y_share <- if (plan$scale_y) y_standardization_share * budget else 0
  groups <- c(ranges = plan$range_releases, moments = plan$moment_releases)
  groups <- groups[groups > 0]
  factors <- share_factor(groups, (budget - y_share) / length(groups), path_share(problem),
                          path_releases)
  if (plan$scale_y) {
    factors <- c(factors, y = share_factor(plan$y_releases, y_share, path_share(problem),
                                           path_releases))
  }
  factors
}

# Bins per side of the coarse range histograms (src/dpglmnet/histogram.h):
# the centre bin spans 2^-20 ~ 1e-6 of the public half-width; and the
# number of fine bins (equal, over the public interval) that refine the ends
# of the coarse clamp. Measured on the California columns and generated
# designs (n = 1e4 - 2e4, epsilon = 1): 32 fine bins found the range of a
# longitude with bound 249 (one coarse bin [-124, -62]) and clipped 1-3% of
# the records; 64 clipped up to 10% of N(0, 1) columns (more bins, more
# noise summed over a tail); none left the longitude unresolved.
histogram_levels <- 20L
histogram_fine_bins <- 32L

# What standardize = TRUE will do for this problem (public): NULL when off.
# In a private fit each column (and a gaussian y with y.bound) first gets a
# clamp chosen from noisy histograms of its values (histogram.h: counts per
# log-spaced and per equal bin, L2 sensitivity 2 whatever the bounds), so
# crude public bounds cost little and tight ones (0/1 dummies) are kept;
# then the mean and second moment of the clamped column are released. Dense
# and sparse x go through the same mechanism; sparse x is scaled, not
# centred, and its clamp keeps 0. `ranges` is switched off by
# afford_standardization_ranges() when the count noise would swamp the tails
# (public: from n and the noise).
# A column known to be 0/1 (`binary`: the dummies of a data frame's factors,
# binary_columns(), R/bounds.R) releases its mean alone: its interval [0, 1]
# is its range (no histogram), and its second moment follows from its mean
# (x^2 = x), so its spread is sqrt(m (1 - m)). Measured on Bikeshare
# (41 dummies of 46 columns, n = 6916, epsilon 1): 4% hour dummies the
# histograms could not resolve (released counts of ~290 ones against a
# count noise sd of 200) and a February dummy clamped to [0, 0.56].
#
# The means of a factor's dummies (`mean_groups`: its block of 0/1 columns
# with disjoint supports, R/bounds.R, whose values disjoint_blocks() makes
# so record by record) are released as one Gaussian vector per factor:
# replacing a record moves the vector of the clamped columns' means by
# (e_b - e_a) / n at most (one record leaves level a for level b; a shift
# of the columns cancels), L2 sensitivity sqrt(2) / n, where the K
# separate means cost K releases. The vector is priced as two releases
# (its multiplier 1 / sqrt(2) of the other means'), so each of its
# coordinates has the noise of a separate mean: a factor of K levels costs
# 2 releases instead of K (24 hours: 2 instead of 24). Not with weights (a
# record's weight multiplies its shifted values on every column, so the
# vector moves on all K of them).
standardization_plan <- function(standardize, intercept, family, y.bound, sparse, p,
                                 epsilon, binary = NULL, blocks = NULL, weighted = FALSE) {
  if (!standardize) return(NULL)
  if (is.null(binary)) binary <- rep(FALSE, p)
  if (is.null(blocks)) blocks <- rep(0L, p)
  # (a response the family standardizes with x: gaussian, with y.bound)
  scale_y <- dpglmnet_family(family)$standardize_response && !is.null(y.bound)
  spread <- p - sum(binary)
  # (x's histograms and y's are afforded separately:
  # afford_standardization_ranges())
  ranges <- is.finite(epsilon) && spread > 0
  y_ranges <- is.finite(epsilon) && scale_y
  mean_groups <- if (weighted) rep(0L, p) else as.integer(ifelse(binary, blocks, 0L))
  mean_releases <- mean_release_count(mean_groups)
  list(center_x = intercept && !sparse, scale_y = scale_y, ranges = ranges, y_ranges = y_ranges,
       sparse = sparse, levels = histogram_levels, fine_bins = histogram_fine_bins,
       binary = binary, blocks = blocks, mean_groups = mean_groups,
       mean_releases = mean_releases, private = is.finite(epsilon),
       range_releases = if (ranges) spread else 0, moment_releases = mean_releases + spread,
       y_releases = if (scale_y) 2 + y_ranges else 0)
}

# Whether a plan releases y's range histogram (a plan made before x's and
# y's were afforded separately: as x's).
plans_y_ranges <- function(plan) {
  isTRUE(plan$scale_y) && isTRUE(if (is.null(plan$y_ranges)) plan$ranges else plan$y_ranges)
}

# The mean releases of x, as the budget prices them: one per column
# outside the groups, two per group (standardization_plan()).
mean_release_count <- function(mean_groups) {
  sum(mean_groups == 0L) + 2 * length(unique(mean_groups[mean_groups != 0L]))
}

# The public rule for releasing ranges at all: a histogram's counts have
# noise sd 2 f z; when that is above n / 20 records the tails of a column
# cannot be told apart and the public bounds scale the columns instead, at
# no cost (the moments then get the whole share). x's histograms are off
# when either x's or y's count noise is above it (the rule the moderate-n
# criterion, R/moderate-n.R, was measured with). y's are off only when its
# own count noise is above n / 10 (y_histogram_noise_limit): y's share
# (y_standardization_share) carries three releases where x's carries one
# per column, so y's histogram is often affordable where x's are not, and
# without it y's mean and scale are released over the whole public
# interval, whose crude width (2 max |y| for a response near 3.4 or 1000:
# [-9.2, 9.2]) makes their noise rival y's spread at a few hundred or
# thousand records; y's released mean then sat 0.5 sd of y off, its sd 5-9
# times y's, and a factor's uncentred dummies took up the mean's error.
# y's limit is twice x's: at n / 10 a coarse bin holding a fifth of the
# records is 2 count noise sds clear, so after_ranges()'s guards put a tail
# that large back (a y whose upper fifth lies in one bin: solder's log
# skips), and y's clamp is one column's where x's error spreads over p.
# Measured (cv.dpglmnet() held out, MSE over the training mean's, 3 splits
# x 1-6 seeds, limit n / 20 -> n / 10): nlme's Milk (n = 1337, protein
# near 3.4 with bound 9.2) 1.264 -> 0.965 at epsilon 0.5, 0.964 -> 0.943
# at 1; Spruce (log size near 5) 1.235 -> 1.003 at 0.5, 1.010 -> 0.964 at
# 1; MASS's Sitka89 1.119 (worst fit 1.79) -> 0.964 (1.016) at 1;
# generated y = 1000 + 20 z + signal, n = 1500, epsilon 0.5: 1.496 (worst
# 2.43) -> 0.951 (1.002), and a lognormal y 1.125 (1.44) -> 1.043 (1.18);
# the other 19 gaussian sets of the unseen sweep unchanged, but solder
# (n = 900, epsilon 1) 0.430 -> 0.546: its y, clamped nowhere, now has its
# true sd, where the old floor (1.5 times it) acted as a larger clip and
# lambda for its 18 dummies. n / 5 changed nothing more on these sets.
# car_prices (modeldata; n = 643, 17 columns, log price in
# [8.9, 11.1] with y.bound = 2 max |y| = 22.3, epsilon 2): y's mean had
# noise sd 0.54 (1.6 off in one fit of three) where its histogram's count
# noise, 16 records, was affordable; decided jointly, x's 37 turned both
# off (held-out MSE over the training mean's, 3 splits: 1.107 -> 0.946).
# Returns the problem with the plan updated, or unchanged.
y_histogram_noise_limit <- 10

afford_standardization_ranges <- function(problem, z, path_releases) {
  plan <- problem$standardization
  if (is.null(plan) || !(z > 0)) return(problem)
  y_ranges <- plans_y_ranges(plan)
  if (!isTRUE(plan$ranges) && !y_ranges) return(problem)
  f <- standardization_factors(problem, path_releases)
  # (the count noise sd of a group's histograms above n / limit records)
  swamped <- function(group, limit = 20) {
    group %in% names(f) && 2 * f[[group]] * z > problem$n / limit
  }
  y_off <- y_ranges && swamped("y", y_histogram_noise_limit)
  x_off <- isTRUE(plan$ranges) && (swamped("ranges") || (y_ranges && swamped("y")))
  if (!x_off && !y_off) return(problem)
  if (x_off) {
    plan$ranges <- FALSE
    plan$range_releases <- 0
  }
  if (y_off) {
    plan$y_ranges <- FALSE
    plan$y_releases <- 2
  }
  problem$standardization <- plan
  problem
}

# The standardization releases, from public inputs only.
standardization_mechanisms <- function(problem, path_releases) {
  plan <- problem$standardization
  if (is.null(plan)) return(list())
  f <- standardization_factors(problem, path_releases)
  ranges <- function(what, count, factor, key) {
    # (unweighted with weights too: they locate values, R/weights.R)
    mechanism(sprintf(paste("standardization: ranges of %s (noisy histograms: %d",
                            "log-spaced and %d equal bins%s)"), what, 2L * plan$levels + 1L,
                      plan$fine_bins, if (!is.null(problem$weights) &&
                                          is.finite(problem$epsilon)) ", unweighted" else ""),
              "gaussian", count, "2 (one record moves between two bins of each histogram)",
              calibrated = TRUE, factor = factor, key = key)
  }
  # with weights the moments are weighted and their sensitivities carry W n /
  # S (S: the released weight sum, R/weights.R)
  weighted <- if (!is.null(problem$weights) && is.finite(problem$epsilon)) {
    " x W n / S (weighted; W = weights.bound, S = released weight sum)"
  } else ""
  moments <- function(what, count, factor, prefix, spread = count, spread_what = what,
                      groups = 0L) {
    list(
      if (count > 0) {
        mechanism(sprintf("standardization: %smean of %s, clamped",
                          if (nzchar(weighted)) "weighted " else "", what), "gaussian", count,
                  paste0("2 w_j / n (2 w_j: width of the clamp)", weighted),
                  calibrated = TRUE, factor = factor, key = paste0(prefix, "_mean"))
      },
      if (groups > 0) {
        mechanism(paste("standardization: means of each factor's dummies, one vector",
                        "per factor, clamped to [0, 1]"), "gaussian", groups,
                  "sqrt(2) / n in L2 (one record moves from one level to another)",
                  calibrated = TRUE, factor = factor / sqrt(2),
                  key = paste0(prefix, "_group_mean"))
      },
      if (spread > 0) {
        mechanism(sprintf("standardization: %ssecond moment of %s, clamped",
                          if (nzchar(weighted)) "weighted " else "", spread_what), "gaussian",
                  spread, paste0("r_j^2 / n (r_j: largest |value - shift| in the clamp)",
                                 weighted),
                  calibrated = TRUE, factor = factor, key = paste0(prefix, "_second_moment"))
      })
  }
  # 0/1 columns (plan$binary) have no histogram and no second moment; a
  # factor's dummies release their means as one vector (plan$mean_groups)
  spread <- problem$p - sum(plan$binary)
  spread_what <- if (spread < problem$p) "each column of x but its 0/1 dummies" else
    "each column of x"
  groups <- plan$mean_groups
  if (is.null(groups)) groups <- rep(0L, problem$p)
  grouped <- sum(groups != 0L)
  c(list(if (plan$ranges && spread > 0) {
           ranges(spread_what, spread, f[["ranges"]], "x_ranges")
         }),
    moments(if (grouped) "each column of x but its factors' dummies" else "each column of x",
            problem$p - grouped, f[["moments"]], "x", spread, spread_what,
            groups = length(unique(groups[groups != 0L]))),
    if (plan$scale_y) {
      c(list(if (plans_y_ranges(plan)) ranges("y", 1L, f[["y"]], "y_ranges")),
        moments("y", 1L, f[["y"]], "y"))
    })
}

# The ranges and moments of the columns of `x` (read clamped to their
# public intervals [public_lower, public_upper]; -Inf / Inf: no clamp,
# epsilon = Inf only) with the noise of the ledger rows `<key>_ranges`,
# `<key>_mean` and `<key>_second_moment` (multiplier 0: exact, epsilon =
# Inf), in two steps, so that x and y are released together, one core call
# per step (release_columns()):
#   column_scales(...)        what is read and how: the public intervals,
#                             the seeds, the rows' key;
#   record_ranges_sensitivity(ledger, s), ranges_request(s, ledger) /
#   after_ranges(s, released) the range histograms (when the plan has them)
#                             and the clamp chosen from them;
#   moments_sensitivity(s), record_moments_sensitivity(ledger, s),
#   moments_request(s, ledger) / after_moments(s, released) the clamped
#                             moments' sensitivities (from the released
#                             clamp: adaptive), the moments and
#                             list(lower, upper (the clamp the solver reads;
#                             NULL when none), mean, sd, constant (a spread
#                             that cannot be told from noise), unresolved,
#                             at_bound (most released counts in an outermost
#                             bin)).
# The seeds are drawn in the order the releases were once made one by one
# (x's ranges, x's moments, y's ranges, y's moments): the same draws.
column_scales <- function(x, public_lower, public_upper, plan, key, rng, weights = NULL,
                          weight_factor = 1) {
  bounded <- all(is.finite(public_lower)) && all(is.finite(public_upper))
  # the 0/1 columns (standardization_plan()): none for y
  binary <- if (is.null(plan$binary) || length(plan$binary) != ncol(x)) {
    rep(FALSE, ncol(x))
  } else bounded & plan$binary
  # The histograms are taken over the public interval itself (histogram.h
  # anchors them at 0 when it holds 0, else at its midpoint), and the
  # moments below over the clamp chosen inside it: an interval [18, 90]
  # is read as such, not as [-90, 90].
  # the factors' mean groups (standardization_plan()): none for y
  # (a plan's groups that do not fit x would release more means than the
  # ledger prices: an error, never a silent fallback)
  if (!is.null(plan$mean_groups) && length(plan$mean_groups) != ncol(x)) {
    stop("internal error: the factors' mean groups do not fit the columns", call. = FALSE)
  }
  groups <- if (is.null(plan$mean_groups)) rep(0L, ncol(x)) else as.integer(plan$mean_groups)
  list(x = x, n = nrow(x), p = ncol(x), public_lower = public_lower,
       public_upper = public_upper, plan = plan, key = key, groups = groups,
       group_ids = unique(groups[groups != 0L]),
       secure = rng == "secure", weights = weights,
       weight_factor = weight_factor, bounded = bounded,
       lower = if (bounded) public_lower, upper = if (bounded) public_upper,
       binary = binary, ranges = plan$ranges && !all(binary),
       # a 0/1 column may hide a rare level (see after_ranges()); exact
       # moments (epsilon = Inf) hide nothing
       at_bound = rep(FALSE, ncol(x)), hidden = binary & !isFALSE(plan$private),
       spread = rep(FALSE, ncol(x)))
}

# The seeds of a column_scales(): its ranges' (when the plan has them), then
# its moments'.
draw_scales_seeds <- function(s) {
  s$ranges_seed <- if (s$plan$ranges) draw_seed()
  s$moments_seed <- draw_seed()
  s
}

# A count of a histogram has replace-one sensitivity 2 (one record moves
# between two bins), whatever the bounds.
record_ranges_sensitivity <- function(ledger, s) {
  record_sensitivity(ledger, paste0(s$key, "_ranges"), 2)
}

ranges_request <- function(s, ledger) {
  list(transform = list(lower = s$public_lower, upper = s$public_upper, center = NULL,
                        scale = NULL),
       lower = s$public_lower, upper = s$public_upper, levels = s$plan$levels,
       fine_bins = s$plan$fine_bins,
       count_sd = release_noise(ledger, paste0(s$key, "_ranges")),
       keep_zero = s$plan$sparse, seed = s$ranges_seed, secure = s$secure,
       # each column's clamped sums made in the same pass, while it is in
       # cache, for the moments (unweighted: standardize.h); about the
       # clamp's midpoint, as moments_sensitivity() shifts dense x
       make_sums = is.null(s$weights), centre_sums = !s$plan$sparse,
       # (0/1 columns are read on their public interval, after_ranges())
       sums_on_public = s$binary)
}

after_ranges <- function(s, r, count_sd) {
  s$lower <- r$lower
  s$upper <- r$upper
  # (the core's handle on the sums it made for these clamps; a column whose
  # clamp changes below gets a pass of its own in the moments' call)
  s$made_sums <- r$made_sums
  # The response's clamp (plan$response) gets the intercept's guards against
  # a cut tail (R/intercept.R; post-processing of the released counts, and
  # the moments' sensitivities follow the clamp they give): a coarse bin
  # next to the clamp whose count is clear is put back, a clamp on one side
  # of the anchor reaches across it where the fine bins show records, and a
  # clamp that does not hold half the released count is widened by coarse
  # bins until it does (widen_to_half()). The
  # histograms cut each tail whose summed released count is within 2 noise
  # sds of empty, which at a count noise near n / 20 (the most
  # afford_standardization_ranges() allowed for y before session 26; n / 10
  # now) can hold a quarter of the records. For x a cut tail narrows a column; for y it moves every
  # prediction: Remifentanil (nlme; log concentration, n = 1594, epsilon
  # 0.5) had y clamped to [1.38, 4.82] of its [-2.3, 5.5], 30% of the
  # records cut, and y's released mean, the intercept's start, 0.26 sd
  # high. Measured, held-out MSE over the training mean's, 21 gaussian sets
  # at epsilon 0.5 / 1 / 2, 3 splits: Remifentanil 1.068 -> 1.047 (0.5),
  # 0.203 -> 0.172 (1); Wage 0.781 -> 0.756 (0.5); no case worse by more
  # than 0.002 (geometric mean of the 63 cases 0.757 -> 0.754). A margin of
  # half the clamp's width on each side instead gained more where a tail
  # was cut (0.750) but doubled the mean's noise where none was: y = 10 +
  # 0.3 z, 643 records, bound 22, epsilon 2, the released mean's error 0.062
  # -> 0.107 (root mean square over 30 draws).
  if (isTRUE(s$plan$response) && s$plan$ranges) {
    counts <- r$counts[, 1L]
    frame <- if (!is.null(r$anchor)) c(r$anchor[1L], r$half[1L])
    clamp <- put_back_next_bins(c(s$lower, s$upper), counts, count_sd, s$public_lower,
                                s$public_upper, s$plan$levels, frame)
    clamp <- cover_other_side(clamp, counts, count_sd, s$public_lower, s$public_upper,
                              s$plan$levels, s$plan$fine_bins, frame)
    clamp <- widen_to_half(clamp, counts, s$n, s$public_lower, s$public_upper,
                           s$plan$levels, s$plan$fine_bins, frame)
    # A clamp the histograms read as a sliver with no clear mass beside it
    # (r$constant) still within an eighth of a fine bin of the anchor after
    # the guards: every visible record is at the anchor, and the rest of y,
    # spread thinly, cannot be seen. That is a zero-inflated y, not a
    # constant one (the number of affairs, 75% zeros, and cigarettes a day,
    # 62%: wooldridge, 480-650 records at epsilon 0.5, clamped to [0, 2.3e-5]
    # or [0, 0.003], the mean of y then 0 and 1.2 times the training mean's
    # test MSE), so y is read on its public interval, as x's hidden mass is,
    # or on the half of it beyond the anchor where the released counts there
    # outweigh the other half's (hidden_response_clamp()). Likewise a clamp
    # so flagged whose fine bins do not clearly hold most of the records
    # (holds_most()): with y.bound = c(-5, 24) the fine bin holding 0 is
    # [-0.47, 0.44], and affairs' clamp [0, 0.44] cut every count above 0.
    # Any other clamp is kept: one clear bin whose merged neighbours' noise
    # hid it (y = 1000 + 20 z, below), or a bin next to the anchor the
    # guards put back (wooldridge's apple, 38% zeros: [0, 5.25] of [0, 84],
    # 1.003 of the mean's test MSE; read on the public interval at half the
    # budget, 1.40).
    frame_now <- if (!is.null(frame)) frame else .histogram_frame_cpp(s$public_lower,
                                                                     s$public_upper)
    sliver <- (s$public_upper - s$public_lower) / s$plan$fine_bins / 8
    if (isTRUE(r$constant[1L]) &&
        (max(abs(clamp - frame_now[[1L]])) < sliver ||
         !holds_most(clamp, counts, count_sd, s$n, s$public_lower, s$public_upper,
                     s$plan$levels, s$plan$fine_bins, frame))) {
      clamp <- hidden_response_clamp(clamp, counts, count_sd, s$public_lower,
                                     s$public_upper, s$plan$levels, s$plan$fine_bins, frame)
    }
    s$lower <- clamp[1L]
    s$upper <- clamp[2L]
  }
  # Records on both sides of some edge between fine bins, each side's summed
  # released count clearly (spread_count_sds noise sds of the sum) above 0:
  # the column is not constant, whatever its released moments say
  # (post-processing of the released counts; after_moments()).
  fine <- r$counts[-seq_len(2L * s$plan$levels + 1L), , drop = FALSE]
  # (only the fine bins of the released clamp, as choose_clamp() reads
  # them, histogram.h: the others were found empty, and their noise would
  # hide the records)
  s$spread <- counts_show_spread(fine, count_sd,
                                 clamp_fine_bins(s$public_lower, s$public_upper, r$lower,
                                                 r$upper, nrow(fine)))
  # released counts (post-processing): half of them in an outermost coarse bin
  outer <- pmax(r$counts[1L, ], r$counts[2L * s$plan$levels + 1L, ])
  s$at_bound <- outer > s$n / 2
  # A pile in the fine bin at an end of the public interval, the 1/32 of it
  # next to the bound: the signature of values clamped to it (an
  # independent first-use review: half of an income above its bound 20,
  # its coefficient 3 times glmnet's, and no word). pile_share of the
  # records and 3 noise sds of the bin, with records clearly (3 noise sds
  # of their sum) strictly between the bound and the bins at 0: a 0/1
  # dummy or a coded +-1 with bound 1 has its values at 0 and the bound
  # only (a model.matrix() design's dummies, common levels, warned). From
  # released counts only.
  if (nrow(fine)) {
    ends <- pmax(fine[1L, ], fine[nrow(fine), ])
    interior <- interior_fine_bins(s$public_lower, s$public_upper, nrow(fine))
    between <- colSums(fine * interior)
    s$piled <- !s$binary & ends > max(pile_share * s$n, 3 * count_sd) &
      between > 3 * count_sd * sqrt(colSums(interior))
  }
  # Every clear count at the anchor (0) and a clamp cut to a sliver: the
  # column is all zeros or it hides a rare mass the counts cannot see (a
  # 1% dummy: 80 records against a count noise sd of 68 at n = 8000,
  # epsilon = 1). Cutting it would erase that mass (the clamp [0, 0]: in
  # 9 fits of 10 the dummy was "constant" and its effect 5 came out 0),
  # so such a column is read on its whole public interval, and kept even
  # when its moments cannot resolve its spread (below). A column whose
  # clear mass sits at one value off the anchor (the column of ones) is
  # left to the moments' constant rule. Not the response's clamp, which has
  # the guards above: read on its whole crude interval, y's moments are
  # those its histograms were released to avoid (y = 1000 + 20 z, bound
  # 2185, 1500 records at epsilon 0.5: its one clear coarse bin, merged with
  # the noise of the 40 bins below it, read as no mass in 1 draw of 20, and
  # y's released sd was 27 times its sd).
  s$hidden <- r$constant & !isTRUE(s$plan$response)
  s$lower[s$hidden] <- s$public_lower[s$hidden]
  s$upper[s$hidden] <- s$public_upper[s$hidden]
  # 0/1 columns are not released here (no ledger row): their counts, made
  # with the others in one pass, are dropped unread, and they keep [0, 1]
  b <- s$binary
  s$lower[b] <- s$public_lower[b]
  s$upper[b] <- s$public_upper[b]
  s$hidden[b] <- !isFALSE(s$plan$private)
  s$spread[b] <- FALSE
  s$at_bound[b] <- FALSE
  s
}

# Whether the released counts of the fine bins overlapping the clamp reach
# holds_most_share of n, less 2 noise sds of their sum (post-processing).
holds_most_share <- 0.9

holds_most <- function(clamp, counts, count_sd, n, lower, upper, levels, fine_bins,
                       frame = NULL) {
  frame <- released_histograms(counts, lower, upper, levels, fine_bins, frame)
  overlap <- frame$fine_starts < clamp[2L] & frame$fine_starts + frame$step > clamp[1L]
  sum(frame$fine[overlap]) >= holds_most_share * n - 2 * count_sd * sqrt(sum(overlap))
}

# The clamp of a response whose visible records all sit at the anchor
# (after_ranges()): the half of the public interval on the side of the
# anchor whose coarse bins (log-spaced about it, the centre bin left out:
# the anchor's own mass says nothing of the side) outweigh the other
# side's by 2 noise sds of the difference, else the whole interval; the
# whole interval too where the anchor is an end of it (post-processing). An
# independent review: counting the fine bin that starts at the anchor, and
# so its zeros, on the upper side clamped a y <= 0 with 75% zeros to
# [0, 24] in 5 fits of 20, and a y >= 0 with y.bound = c(-5, 24) (0 inside
# a fine bin) to [-5, 0].
hidden_response_clamp <- function(clamp, counts, count_sd, lower, upper, levels, fine_bins,
                                  frame = NULL) {
  frame <- released_histograms(counts, lower, upper, levels, fine_bins, frame)
  anchor <- frame$anchor
  if (!(lower < anchor && anchor < upper)) return(c(lower, upper))
  below <- sum(frame$coarse[seq_len(levels)])
  above <- sum(frame$coarse[levels + 1L + seq_len(levels)])
  noise <- 2 * count_sd * sqrt(2 * levels)
  if (above - below > noise) return(c(min(clamp[1L], anchor), upper))
  if (below - above > noise) return(c(lower, max(clamp[2L], anchor)))
  c(lower, upper)
}

moments_sensitivity <- function(s) {
  n <- s$n
  p <- s$p
  bounded <- s$bounded
  # Dense: moments about the clamp's midpoint, so values lie in [-w, w];
  # sparse: about 0 (its implicit zeros are never shifted).
  s$shift <- if (bounded && !s$plan$sparse) (s$lower + s$upper) / 2 else rep(0, p)
  s$reach <- if (bounded) pmax(s$upper - s$shift, s$shift - s$lower) else rep(Inf, p)
  # Replace-one sensitivities, per column: (upper - lower) / n for a mean,
  # reach^2 / n for a second moment (Inf without a clamp: epsilon = Inf
  # only, never noised). Valid because every value is read clamped to
  # [lower, upper] (the released clamp, inside the public interval, or the
  # public interval): replacing one record moves the mean of the clamped
  # values by at most the clamp's width over n, and the second moment about
  # `shift` (values in [0, reach^2]) by at most reach^2 / n. With an interval
  # these follow its width, not twice its largest magnitude.
  # With weights (glmnet's weighted moments, (1/n) sum_i omega_i v_ij,
  # omega_i = w_i n / S_released <= W n / S_released = weight_factor): one
  # record's term moves by weight_factor times as much (R/weights.R).
  s$mean_sensitivity <- (if (bounded) (s$upper - s$lower) / n else rep(Inf, p)) *
    s$weight_factor
  s$second_sensitivity <- s$reach^2 / n * s$weight_factor
  # A factor's means as one vector (standardization_plan()): a record moves
  # from one level to another, sqrt(2) times the clamp's width over n in
  # L2 (its columns' clamps are [0, 1]; values outside the group are 0)
  s$group_sensitivity <- vapply(s$group_ids, function(g) {
    columns <- which(s$groups == g)
    if (bounded && (any(s$lower[columns] != 0) || s$weight_factor != 1)) {
      stop("internal error: a factor's means are released as one vector only on [0, 1], unweighted",
           call. = FALSE)
    }
    sqrt(2) * max(s$mean_sensitivity[columns])
  }, numeric(1))
  s
}

# (no second moment of a 0/1 column is released: it follows from its mean)
record_moments_sensitivity <- function(ledger, s) {
  grouped <- s$groups != 0L
  # (the releases made are the ones the ledger planned: a column's mean
  # each, a vector per group)
  planned <- function(key) {
    row <- match(paste0(s$key, key), ledger$mechanisms$key)
    if (is.na(row)) 0L else ledger$mechanisms$count[row]
  }
  if (is.finite(ledger$target_epsilon) &&
      (planned("_mean") != sum(!grouped) ||
       planned("_group_mean") != length(s$group_ids))) {
    stop("internal error: the standardization's means differ from the ledger's", call. = FALSE)
  }
  if (any(!grouped)) {
    ledger <- record_sensitivity(ledger, paste0(s$key, "_mean"), s$mean_sensitivity[!grouped])
  }
  if (any(grouped)) {
    ledger <- record_sensitivity(ledger, paste0(s$key, "_group_mean"), s$group_sensitivity)
  }
  if (all(s$binary)) return(ledger)
  record_sensitivity(ledger, paste0(s$key, "_second_moment"),
                     s$second_sensitivity[!s$binary])
}

# Noise sd = the rows' noise multiplier x the sensitivities recorded on them.
moments_request <- function(s, ledger) {
  bounded <- s$bounded
  # a 0/1 column's second moment is computed with the others in one pass
  # and replaced unread (after_moments()): no noise, no release
  s$second_noise <- rep(0, s$p)
  if (!all(s$binary)) {
    s$second_noise[!s$binary] <- release_noise(ledger, paste0(s$key, "_second_moment"))
  }
  # (a factor's means: each coordinate of its vector at the vector's noise)
  grouped <- s$groups != 0L
  s$mean_noise <- rep(0, s$p)
  if (any(!grouped)) s$mean_noise[!grouped] <- release_noise(ledger, paste0(s$key, "_mean"))
  if (any(grouped)) {
    per_group <- release_noise(ledger, paste0(s$key, "_group_mean"))
    s$mean_noise[grouped] <- per_group[match(s$groups[grouped], s$group_ids)]
  }
  s$request <- list(
    transform = list(lower = if (bounded) s$public_lower, upper = if (bounded) s$public_upper,
                     center = NULL, scale = NULL),
    mean_sd = s$mean_noise,
    second_sd = s$second_noise,
    # the released clamp for sparse x too (it holds 0, so the implicit zeros
    # are unchanged): the noise below is set for it
    lower = s$lower, upper = s$upper,
    shift = if (bounded && !s$plan$sparse) s$shift, seed = s$moments_seed,
    secure = s$secure, weights = s$weights, made_sums = s$made_sums)
  s
}

after_moments <- function(s, moments) {
  p <- s$p
  lower <- s$lower
  upper <- s$upper
  reach <- s$reach
  second_noise <- s$second_noise
  b <- s$binary
  if (any(b)) {
    # A 0/1 column: its second moment about the shift c is that of its
    # released mean m, E (x - c)^2 = m (1 - 2 c) + c^2 (x^2 = x), so its
    # noise is |1 - 2 c| times the mean's (post-processing; the computed
    # second moment is never read).
    shift <- s$shift[b]
    m <- pmin(pmax(moments$mean[b] + shift, 0), 1)
    moments$second[b] <- m * (1 - 2 * shift) + shift^2
    second_noise[b] <- abs(1 - 2 * shift) * s$mean_noise[b]
  }
  scale <- standardization_scale(moments$mean, moments$second, reach, second_noise,
                                 s$mean_noise, sds = constant_threshold(p))
  at_bound <- s$at_bound
  if (!s$plan$ranges && s$bounded) {
    # without histograms: nearly all of the released second moment at the
    # bound, when its noise is small enough to say so (post-processing). An
    # asymmetric interval is schema ([0, 1] for a dummy): values at both of
    # its ends are the data, so there only a mean nearly at one end counts
    # (not at a lower end 0, a natural floor), as in diagnose_bounds().
    resolved <- second_noise <= 0.1 * reach^2
    symmetric <- lower == -upper
    position <- (scale$mean + s$shift - lower) / (upper - lower)
    one_end <- position >= 0.95 | (position <= 0.05 & lower != 0)
    at_bound <- at_bound | (resolved & ifelse(symmetric, scale$second >= 0.9 * reach^2, one_end))
  }
  at_bound[b] <- FALSE
  # An unresolved column that may hide a rare mass keeps its values at the
  # scale floor, the smallest sd its noise can resolve (never below it, so
  # no coefficient is noise divided by a noisy scale). For a rare dummy the
  # floor is near its true sd (0.11 against 0.0995 for 1% at n = 8000,
  # epsilon = 1), so its penalty is about glmnet's; scaled by the public
  # half-width instead (a penalty 9 times heavier) the 1% dummy's mean
  # effect fell from 3.0 to 2.4 (truth 5) in 16 cv fits, with no gain on a
  # design of 10 all-zero and 10 null dummy columns (test MSE 0.369 against
  # 0.380, largest null coefficient 0.75 against 0.48). An all-zero column
  # reads as exactly 0 (centred at the public anchor, standardize_problem()),
  # so its coefficient is noise that moves no prediction.
  # A column whose released counts show values in two places (after_ranges())
  # is not constant, even when its released variance is within the noise
  # (an integer column top-coded at the edge of a log bin, years 0-20 with
  # bound 40, kept a clamp twice its range in some draws, and the noise of
  # its moments hid a spread of sd 6): it keeps the scale floor, like an
  # unresolved column, and the clamp and centre released for it.
  hidden <- s$hidden
  floored <- scale$constant & !hidden & s$spread
  list(lower = lower, upper = upper, mean = scale$mean + s$shift, sd = scale$sd,
       constant = scale$constant & !hidden & !floored, unresolved = scale$constant & hidden,
       floored = floored, at_bound = at_bound,
       piled = if (is.null(s$piled)) rep(FALSE, s$p) else s$piled)
}

# The share of the records in the fine bin at a bound that reads as a pile
# of clamped values (a uniform column over its exact public interval puts
# 1/32 there). Not for an interval given as such (an age in [18, 90], a
# score's ceiling: values at its ends are the data), nor 0/1 columns.
pile_share <- 0.1

# The ranges and moments of one design at noise multipliers noise_ranges and
# noise_moments (0: exact), one step after the other, with a ledger of its
# own (what standardize_problem() does for x and y together; tests).
release_column_scales <- function(x, public_lower, public_upper, plan, noise_ranges,
                                  noise_moments, rng, weights = NULL, weight_factor = 1) {
  row <- function(key, multiplier, count = 1) {
    mechanism(key, "gaussian", count, key, noise_multiplier = multiplier, key = key)
  }
  plan$mean_groups <- NULL
  ledger <- list(target_epsilon = 1, sensitivities = list(), mechanisms = mechanism_table(list(
    row("x_ranges", noise_ranges), row("x_mean", noise_moments, ncol(x)),
    row("x_second_moment", noise_moments))))
  s <- draw_scales_seeds(column_scales(x, public_lower, public_upper, plan, "x", rng,
                                       weights, weight_factor))
  if (s$ranges) {
    ledger <- record_ranges_sensitivity(ledger, s)
    request <- ranges_request(s, ledger)
    s <- after_ranges(s, release_columns("ranges", list(x), list(request))[[1L]],
                      request$count_sd)
  }
  s <- moments_sensitivity(s)
  s <- moments_request(s, record_moments_sensitivity(ledger, s))
  after_moments(s, release_columns("moments", list(x), list(s$request))[[1L]])
}

# The releases of one step for several designs (x, and y as a column) in
# one core call (database tables: one by one, R/database.R). `validate`:
# the values of the first (x) are checked finite first, in the same call
# (the check of x the spec left to the first pass over x, check_problem()).
release_columns <- function(kind, designs, settings, validate = FALSE) {
  if (any(vapply(designs, is_database_source, logical(1)))) {
    release <- if (kind == "ranges") column_ranges else column_moments
    return(lapply(seq_along(designs), function(k) release(designs[[k]], settings[[k]])))
  }
  if (validate) settings[[1L]]$validate <- TRUE
  out <- .release_columns_cpp(kind, designs, settings)
  if (!is.null(out$nonfinite)) abort_nonfinite_x(out$nonfinite)
  out
}

# Releases the standardization with the noise of its ledger rows
# (problem$ledger; multiplier 0: exact, epsilon = Inf) and returns the
# problem on the standardized scale, with what is needed to map its path
# back (and the ledger with the sensitivities recorded).
standardize_problem <- function(problem, path_releases) {
  plan <- problem$standardization
  if (is.null(plan)) return(problem)
  # Without bounds (epsilon = Inf only) nothing is clamped; with them, each
  # column is read through its public interval [x.lower, x.upper].
  public_lower <- if (is.null(problem$x.lower)) rep(-Inf, problem$p) else problem$x.lower
  public_upper <- if (is.null(problem$x.upper)) rep(Inf, problem$p) else problem$x.upper
  bounded <- all(is.finite(public_lower)) && all(is.finite(public_upper))
  private <- is.finite(problem$epsilon)
  if (private && !(problem$ledger$noise_level > 0)) {
    stop("internal error: a private standardization needs noise")
  }
  weight_factor <- if (is.null(problem$weight_factor)) 1 else problem$weight_factor
  # x's releases, and y's (clamped to its public interval [y.lower,
  # y.upper], R/bounds.R, read through that interval like a column of x:
  # its histograms and moments, and their sensitivities, follow the
  # interval's width), one core call per step
  parts <- list(x = draw_scales_seeds(column_scales(
    problem$x, public_lower, public_upper, plan, "x", problem$rng,
    problem$weights, weight_factor)))
  y <- problem$y
  if (plan$scale_y) {
    y_plan <- plan
    y_plan$ranges <- plans_y_ranges(plan)
    y_plan$sparse <- FALSE
    y_plan$binary <- FALSE
    y_plan$mean_groups <- NULL
    y_plan$response <- TRUE
    y_lower <- if (is.null(problem$y.lower)) -problem$y.bound else problem$y.lower
    y_upper <- if (is.null(problem$y.upper)) problem$y.bound else problem$y.upper
    parts$y <- draw_scales_seeds(column_scales(
      response_column(y), y_lower, y_upper, y_plan, "y", problem$rng, problem$weights,
      weight_factor))
  }
  designs <- lapply(parts, `[[`, "x")
  validate <- isTRUE(problem$validate_x_in_release)
  ledger <- problem$ledger
  # (the parts with a column that is not 0/1)
  with_ranges <- vapply(parts, `[[`, logical(1), "ranges")
  if (any(with_ranges)) {
    for (s in parts[with_ranges]) ledger <- record_ranges_sensitivity(ledger, s)
    requests <- lapply(parts[with_ranges], ranges_request, ledger = ledger)
    released <- release_columns("ranges", designs[with_ranges], requests,
                                validate && with_ranges[["x"]])
    parts[with_ranges] <- Map(after_ranges, parts[with_ranges], released,
                              lapply(requests, `[[`, "count_sd"))
    if (with_ranges[["x"]]) validate <- FALSE
  }
  # (the moments' sensitivities follow the released clamps)
  parts <- lapply(parts, moments_sensitivity)
  for (s in parts) ledger <- record_moments_sensitivity(ledger, s)
  problem$ledger <- ledger
  parts <- lapply(parts, moments_request, ledger = ledger)
  released <- release_columns("moments", designs, lapply(parts, `[[`, "request"), validate)
  scales <- Map(after_moments, parts, released)
  xs <- scales$x
  center <- if (plan$center_x) xs$mean else NULL
  # A column whose released spread cannot be told from noise is constant for
  # the fit (as glmnet treats a constant column): it is read as 0 (scale 0)
  # and its coefficient is held at 0, so no noise is ever divided by a noisy
  # scale on the way back.
  scale <- ifelse(xs$constant, 0, 1 / xs$sd)
  if (any(xs$unresolved)) {
    # A column kept unresolved (its clear counts all at the anchor) is
    # centred at the public anchor, not at its noisy mean: an all-zero
    # column then reads as exactly 0 (with a noisy centre it was a second
    # intercept), a rare dummy as its values.
    u <- xs$unresolved
    if (!is.null(center)) {
      anchor <- ifelse(public_lower <= 0 & public_upper >= 0, 0,
                       (public_lower + public_upper) / 2)
      # a 0/1 column whose released mean is above 1/2 is nearly all ones:
      # centred at 1, so it does not read as a second intercept
      anchor[plan$binary & xs$mean > 0.5] <- 1
      center[u] <- anchor[u]
    }
  }
  # The dummies of a factor's block are not centred (R/dpcd.R: their
  # supports stay disjoint, and DP-CD releases the block as one unit; the
  # intercept takes their mean); their scale is still 1 / sd.
  if (!is.null(center) && any(plan$blocks != 0)) center[plan$blocks != 0] <- 0
  # (where most columns read as constant the path may run on bound-scaled
  # columns instead: R/moderate-n.R, constant_fallback_problem(); then the
  # constant columns are not held at 0, and not said to be)
  constant_fallback <- plans_constant_fallback(problem) && reads_mostly_constant(xs$constant)
  if (!constant_fallback) warn_constant_columns(xs, problem)

  y_mean <- 0
  y_sd <- 1
  response_transform <- NULL
  if (plan$scale_y) {
    ys <- scales$y
    y_mean <- if (problem$intercept) ys$mean else 0
    y_sd <- ys$sd
    # y standardized where the core reads it (the solver's own call,
    # settings$response_transform); a table's y as SQL (R/database.R)
    if (inherits(y, "dpglmnet_db_response")) {
      y <- response_standardize(y, ys$lower, ys$upper, y_mean, y_sd)
    } else {
      response_transform <- list(lower = if (is.null(ys$lower)) -Inf else ys$lower,
                                 upper = if (is.null(ys$upper)) Inf else ys$upper,
                                 mean = y_mean, sd = y_sd)
    }
    # (a spread within noise is not a sign of a small bound: at small n the
    # released counts are mostly noise)
    if (ys$at_bound) {
      dpglmnet_warn(paste(
        "most released counts of y lie at its public bound: `y.bound` may be",
        "too small; y is clamped to it, so the fit (and its intercept) cannot go",
        "beyond it."))
    }
  }
  # On the standardized scale the data-fitting term is (1/s_y^2) times the
  # original one, so the original objective is kept with lambda' alpha' =
  # lambda alpha / s_y and lambda' (1 - alpha') = lambda (1 - alpha):
  # lambda' = k lambda with k = alpha / s_y + 1 - alpha (k = 1 unless y is
  # scaled). Limits on b_j bound c_j = b_j / (s_y s_j).
  k <- problem$alpha / y_sd + 1 - problem$alpha
  lower <- if (!is.null(xs$lower)) xs$lower else if (bounded) public_lower
  upper <- if (!is.null(xs$upper)) xs$upper else if (bounded) public_upper
  scaled <- problem
  scaled$y <- y
  scaled$response_transform <- response_transform
  scaled$transform <- list(lower = lower, upper = upper, center = center, scale = scale)
  scaled$alpha <- if (k > 0) problem$alpha / y_sd / k else problem$alpha
  if (!is.null(problem$lambda)) scaled$lambda <- problem$lambda * k
  # l1 radii (R/l1.R) bound sum_j sd_j |b_j| on the original scale of y, as
  # glmnet's standardized penalty: the standardized coefficients c_j =
  # b_j sd_j / s_y then lie in the ball of radius R / s_y.
  if (!is.null(problem$l1.radius)) scaled$l1.radius <- problem$l1.radius / y_sd
  scaled$lower.limits <- ifelse(xs$constant, 0, problem$lower.limits / (y_sd * scale))
  scaled$upper.limits <- ifelse(xs$constant, 0, problem$upper.limits / (y_sd * scale))
  # |x~_ij| <= max(|lower_j - c_j|, |upper_j - c_j|) s_j: the bound of the
  # transformed values (from released constants), for smoothness sources
  # that need one.
  c0 <- if (is.null(center)) 0 else center
  scaled$value_bounds <- if (is.null(lower)) rep(Inf, problem$p) else
    pmax(abs(lower - c0), abs(upper - c0)) * scale
  # Smoothness constants of the standardized columns follow from the released
  # moments (post-processing): curvature (1/n) sum x~^2 = curvature s^2 E(x - c)^2,
  # which is curvature when centred (the variance is s^-2).
  mean_shift <- xs$mean - c0
  # (a constant column, read as 0, keeps the nominal curvature: its step is
  # never taken, its coefficient is held at 0)
  scaled$standardized_smoothness <- ifelse(xs$constant, problem$curvature,
                                           problem$curvature * scale^2 *
                                             (xs$sd^2 + mean_shift^2))
  scaled$standardization_result <- list(
    x_center = if (is.null(center)) rep(0, problem$p) else center, x_scale = scale,
    x_mean = xs$mean, x_sd = xs$sd, x_lower = xs$lower, x_upper = xs$upper,
    x_constant = xs$constant, x_unresolved = xs$unresolved, x_floored = xs$floored,
    y_mean = y_mean, y_sd = y_sd, y_lower = if (plan$scale_y) scales$y$lower,
    y_upper = if (plan$scale_y) scales$y$upper, lambda_factor = k)
  scaled$constant_fallback <- constant_fallback
  scaled
}

# Post-processing of released moments (about a shift, values within
# `reach` of it) into a mean, a standard deviation and whether the column is
# constant: the mean clamped to [-reach, reach], the second moment to
# [0, reach^2]. A variance at or below `sds` (2; more with many columns:
# constant_threshold()) times its noise sd (from the noise of the second
# moment and of the mean) cannot be told from zero (exact
# moments: at or below 1e-12 of the second moment, a constant column): the
# column is constant, and the scale is never below that floor, so no
# coefficient is noise divided by a noisy scale. Twice, not three times:
# N(0, 1) columns with bound 4 at n = 1000, epsilon = 1 (variance 1, noise
# sd 0.35) were constant in most fits at 3; a truly constant column read as
# spread (one time in 40) has a scale at the floor and a coefficient of the
# size of the noise, not a blow-up. As glmnet, the scale is the standard deviation about the mean also
# without an intercept (then the columns are scaled but not centred).
standardization_scale <- function(mean, second, reach, second_noise, mean_noise,
                                  sds = 2) {
  mean <- pmin(pmax(mean, -reach), reach)
  second <- pmin(pmax(second, 0), reach^2)
  variance <- second - mean^2
  # the noise sd of second - mean^2 (to first order in the mean's noise)
  variance_noise <- sqrt(second_noise^2 + (2 * abs(mean) * mean_noise)^2)
  floor <- pmax(sds * variance_noise, 1e-12 * second, .Machine$double.xmin)
  list(mean = mean, second = second, sd = sqrt(pmax(variance, floor)),
       constant = variance <= floor)
}

# How many noise sds a released variance must clear for its column not to
# be constant, for p columns released together: 2, or more with many
# columns, so that on average at most half a truly constant (or
# unresolvable) column of the p reads as spread (a normal tail). Public
# (from p). Measured: n = 2000, p = 4000, epsilon = 1, where no column can
# be resolved: at 2 sds some 90 columns passed by chance and the fit was
# 1.28 times the error of predicting 0 (1.02 when all are constant); with
# p = 8, 2.5 sds (5% over all columns) dropped a N(3, 1) column with bound
# 10 at n = 8000 in the quickstart demo.
constant_threshold <- function(p) max(2, stats::qnorm(1 - 0.5 / p))

# Whether each column's released fine counts (bins x columns, noise sd
# count_sd each; `inside`: the bins that overlap the released clamp, the
# others found empty) clearly hold records on both sides of one of the
# edges between bins: both sums above spread_count_sds noise sds of the
# sum. A constant column's records are in one bin, and for each edge the
# sum of the empty side is noise alone, above 3.5 sds with probability
# 2e-4. Measured (n = 3000, 20 constant columns at values in [-4, 4.9],
# bound 5, 30 fits at epsilon 0.5, 1 and 4): none of 1800 read as spread
# by this rule (the moments' rule read 56 as spread); years 0-20 with a
# tenth top-coded at 20, bound 40, epsilon 1: constant in 3 fits of 20 at
# 4 sds, in none at 3.5 (in 12 resolved, in 8 floored).
spread_count_sds <- 3.5

# The fine bins (bins x columns, TRUE inside) of each column's clamp [lo,
# hi], as choose_clamp() finds them (histogram.h): L equal bins over the
# public interval, from the bin of lo to the bin of hi, where a clamp
# ending at or below the public anchor (0 when the interval holds it,
# else its midpoint) holds the records at hi, which lie in the bin that
# starts there; above it, hi is the open end of the bin below.
clamp_fine_bins <- function(public_lower, public_upper, lo, hi, bins) {
  step <- (public_upper - public_lower) / bins
  bin_of <- function(v) pmin(pmax(floor((v - public_lower) / step), 0), bins - 1)
  anchor <- ifelse(public_lower <= 0 & 0 <= public_upper, 0, 0.5 * (public_lower + public_upper))
  first <- bin_of(lo)
  last <- pmax(ifelse(hi <= anchor & hi < public_upper, bin_of(hi), bin_of(hi - 1e-9 * step)),
               first)
  k <- seq_len(bins) - 1
  outer(k, first, `>=`) & outer(k, last, `<=`)
}

# The fine bins (equal, over each column's public interval) that touch
# neither end of it nor 0 (the anchor; the midpoint for an interval
# without 0): a bins x columns 0/1 matrix.
interior_fine_bins <- function(public_lower, public_upper, bins) {
  step <- (public_upper - public_lower) / bins
  anchor <- ifelse(public_lower <= 0 & 0 <= public_upper, 0, 0.5 * (public_lower + public_upper))
  k <- seq_len(bins) - 1
  left <- outer(k, step) + rep(public_lower, each = bins)
  right <- left + rep(step, each = bins)
  touches_anchor <- left <= rep(anchor, each = bins) & rep(anchor, each = bins) <= right
  (k > 0 & k < bins - 1 & !touches_anchor) + 0
}

counts_show_spread <- function(fine, count_sd, inside = NULL) {
  if (!is.null(inside)) fine[!inside] <- 0
  bins <- nrow(fine)
  if (bins < 2L) return(rep(FALSE, ncol(fine)))
  within <- if (is.null(inside)) matrix(1, bins, ncol(fine)) else inside + 0
  below <- apply(fine, 2, cumsum)[-bins, , drop = FALSE]
  above <- rep(colSums(fine), each = bins - 1L) - below
  count_below <- apply(within, 2, cumsum)[-bins, , drop = FALSE]
  count_above <- rep(colSums(within), each = bins - 1L) - count_below
  colSums(below > spread_count_sds * count_sd * sqrt(count_below) &
            above > spread_count_sds * count_sd * sqrt(count_above)) > 0
}

# One warning for the columns treated as constant, built from released
# values only (their names are public schema).
warn_constant_columns <- function(xs, problem) {
  if (!is.finite(problem$epsilon)) return(invisible())
  shown <- function(v) paste0(paste(utils::head(v, 8), collapse = ", "),
                              if (length(v) > 8) sprintf(" and %d more", length(v) - 8) else "")
  if (any(xs$unresolved)) {
    dpglmnet_warn(sprintf(paste(
      "%d column(s) (%s): no released count of theirs clears the noise away from",
      "0 (or, for a dummy, their released mean is near 0 or 1), so their spread",
      "cannot be resolved at this budget (a rare or a nearly universal level, a",
      "level without records, a count that is mostly 0, or values spread",
      "thinly over a wide x.bounds look like this); they are kept on",
      "their public interval at the smallest scale the noise can resolve, so",
      "their coefficients are noisy and can be far from the data's, in either",
      "direction (summary()'s noise_sd: the noise of one update on the",
      "original scale)."),
      sum(xs$unresolved), shown(problem$variable_names[xs$unresolved])))
  }
  if (any(xs$floored)) {
    dpglmnet_warn(sprintf(paste(
      "%d column(s) (%s): their released counts show values in more than one",
      "place, but their released spread cannot be told from the noise of",
      "their moments; they are kept at the smallest scale the noise can",
      "resolve, so their coefficients are noisy and can be far from the",
      "data's, in either direction (summary()'s noise_sd). Tighter",
      "`x.bounds` (an interval near each column's range) make their moments",
      "less noisy."),
      sum(xs$floored), shown(problem$variable_names[xs$floored])))
  }
  piled <- if (length(xs$piled) == length(xs$constant) && !is.null(problem$x.lower)) {
    xs$piled & !xs$constant & problem$x.lower == -problem$x.upper
  } else rep(FALSE, length(xs$constant))
  if (any(piled)) {
    dpglmnet_warn(sprintf(paste(
      "`x.bounds` may be too small for %s: %s released counts put more than",
      "%d%% of the records in the last 1/32 of the bound, where values clamped",
      "to it pile up (unless the column takes the bound's value itself: a",
      "coded +-1, a score at its ceiling). The fit models the clamped column,",
      "whose coefficient can then be far from the data's; give bounds that",
      "cover the data."),
      shown(problem$variable_names[piled]),
      if (sum(piled) > 1L) "their" else "its", round(100 * pile_share)))
  }
  if (!any(xs$constant)) return(invisible())
  names <- problem$variable_names[xs$constant]
  at_bound <- problem$variable_names[xs$constant & xs$at_bound]
  # A column whose released clamp lies on one side of 0 inside a public
  # interval around 0 (a year, 2000-2015, with bound 4030): the histograms
  # resolve it only to 1/32 of that interval, and its spread is lost in a
  # clamp that wide; an interval near its range resolves it.
  public_lower <- problem$x.lower
  public_upper <- problem$x.upper
  off_centre <- if (!is.null(xs$lower) && !is.null(public_lower)) {
    xs$constant & !xs$at_bound & public_lower < 0 & public_upper > 0 &
      (xs$lower > 0 | xs$upper < 0)
  } else rep(FALSE, length(xs$constant))
  off_centre <- problem$variable_names[off_centre]
  # Columns read on a public interval symmetric about 0: a 0/1 column given
  # as a number with a bound b has the moments' noise of [-b, b]. Given as
  # a factor, or with the interval c(0, 1), it keeps its values
  # (car_prices, modeldata: 13 of 17 columns 0/1 with bound 2, 643 records
  # at epsilon 2: 16 read as constant, 0.99 of the training mean's test
  # MSE; with c(0, 1) 0.44, as factors 0.41).
  symmetric <- if (!is.null(public_lower)) {
    xs$constant & !xs$at_bound & public_lower == -public_upper
  } else rep(FALSE, length(xs$constant))
  symmetric <- problem$variable_names[symmetric]
  dpglmnet_warn(paste0(sprintf(paste(
    "%d column(s) (%s): the released spread cannot be told from the noise, so",
    "they are treated as constant (coefficient 0, as glmnet does for constant",
    "columns)."), length(names), shown(names)),
    if (length(at_bound)) sprintf(paste(
      " Most released values of %s lie within a factor 2 of the public bound",
      "(at least half of it): `x.bounds` may be too small for them, or they",
      "are coded values such as a 0/1 column with bound 2 (give it as a",
      "factor or with the interval c(0, 1))."), shown(at_bound)) else "",
    if (length(off_centre)) sprintf(paste(
      " The released range of %s lies on one side of 0, far inside its",
      "`x.bounds`: bounds given as an interval near the column's range (e.g.",
      "c(2000, 2020) for a year; see `x.bounds`) resolve such a column."),
      shown(off_centre)) else "",
    if (length(symmetric)) sprintf(paste(
      " If any of %s has a known range (a 0/1 dummy, a score, a time or an",
      "age), give it as a factor or with an interval in `x.bounds` (c(0, 1)",
      "for a dummy, c(0, 21) for days 0 to 21, near the range it can take):",
      "on a bound symmetric about 0 its moments carry the noise of the whole",
      "interval."), shown(symmetric)) else ""))
}

# The path of the standardized problem on the original scale: b_j = s_y s_j
# c_j, b_0 = m_y + s_y c_0 - sum_j b_j c_j, lambda = lambda' / k; an l1
# radius (parameter = "radius") R = s_y R', so that the reported radius
# bounds sum_j sd_j |b_j| (see standardize_problem()).
unstandardize_path <- function(path, lambda, scaled, parameter = c("lambda", "radius")) {
  parameter <- match.arg(parameter)
  r <- scaled$standardization_result
  if (is.null(r)) {
    return(list(beta = path$beta, a0 = path$a0, lambda = lambda, picks = path$picks))
  }
  beta <- path$beta * (r$y_sd * r$x_scale)
  a0 <- r$y_mean + r$y_sd * path$a0 - colSums(beta * r$x_center)
  list(beta = beta, a0 = a0, picks = path$picks,
       lambda = if (parameter == "radius") lambda * r$y_sd else lambda / r$lambda_factor)
}
