# The fast paths of private standardization (src/dpglmnet/histogram.h,
# standardize.h, src/interface_standardize.cpp) give the same numbers as
# the plain computation: the range histograms at every instruction set and
# against the bins computed here from their definition, the moments of
# dense x read from its stored column against the buffered read, and the
# standardized response against R's arithmetic. The released values of a
# fit must not depend on which path ran.

ns <- asNamespace("dpglmnet")

# floor(log2(r)) for r > 0, exactly (log2 may round up near a power of 2).
exponent2 <- function(r) {
  e <- floor(log2(r))
  e <- ifelse(2^e > r, e - 1, e)
  ifelse(2^(e + 1) <= r, e + 1, e)
}

# The coarse and fine counts of histogram.h's definition, one column.
reference_histogram <- function(v, lower, upper, levels, fine_bins) {
  v <- pmax(pmin(v, upper), lower)
  anchor <- if (lower <= 0 && 0 <= upper) 0 else (lower + upper) / 2
  width <- max(upper - anchor, anchor - lower)
  d <- v - anchor
  r <- abs(d) * (1 / width)
  level <- pmin(pmax(-exponent2(pmax(r, 2^-1000)), 1), levels)
  offset <- levels + 1 - level
  coarse <- ifelse(r >= 2^-levels, levels + ifelse(d > 0, offset, -offset), levels)
  fine <- pmin(pmax(trunc((v - lower) * (fine_bins / (upper - lower))), 0), fine_bins - 1)
  c(tabulate(coarse + 1, 2 * levels + 1), tabulate(fine + 1, fine_bins))
}

# Columns with values at every coarse and fine edge, at and beyond the
# bounds, at 0, and random values; odd n so that the last block is partial.
edge_design <- function(lower, upper, levels, fine_bins, n = 3001) {
  set.seed(7)
  x <- sapply(seq_along(lower), function(j) {
    anchor <- if (lower[j] <= 0 && 0 <= upper[j]) 0 else (lower[j] + upper[j]) / 2
    width <- max(upper[j] - anchor, anchor - lower[j])
    edges <- c(anchor + width * 2^-(0:(levels + 1)), anchor - width * 2^-(0:(levels + 1)),
               lower[j] + (0:fine_bins) * (upper[j] - lower[j]) / fine_bins,
               lower[j], upper[j], lower[j] - 1, upper[j] + 1, 0, 1e300, -1e300)
    edges <- c(edges, nextafter_up(edges), nextafter_down(edges))
    c(edges, stats::runif(n - length(edges), lower[j] - 0.5, upper[j] + 0.5))
  })
  x
}
nextafter_up <- function(v) v + abs(v) * .Machine$double.eps / 2 + (v == 0) * 1e-300
nextafter_down <- function(v) v - abs(v) * .Machine$double.eps / 2 - (v == 0) * 1e-300

test_that("range histograms are the same at every instruction set and as defined", {
  lower <- c(-5, -1.3, 0.5, 0, -249)
  upper <- c(5, 3.7, 3.7, 1, 249)
  levels <- 20L
  fine_bins <- 32L
  x <- edge_design(lower, upper, levels, fine_bins)
  want <- sapply(seq_along(lower), function(j) {
    reference_histogram(x[, j], lower[j], upper[j], levels, fine_bins)
  })
  isas <- ns$.simd_isa_cpp()
  expect_true("baseline" %in% isas)
  for (isa in isas) {
    got <- ns$.column_histograms_cpp(x, lower, upper, levels, fine_bins, isa)
    expect_identical(dim(got), dim(want), label = isa)
    expect_equal(unname(got), unname(want * 1.0), tolerance = 0, label = isa)
  }
  # the buffered read (a row subset of every row) and the stored one agree
  all_rows <- structure(list(x = x, rows = 0:(nrow(x) - 1L)), class = "dpglmnet_rows")
  expect_identical(ns$.column_histograms_cpp(all_rows, lower, upper, levels, fine_bins,
                                              "baseline"),
                   ns$.column_histograms_cpp(x, lower, upper, levels, fine_bins, isas[1]))
  # every record counted once in each histogram
  expect_true(all(colSums(want[seq_len(2 * levels + 1), ]) == nrow(x)))
  expect_error(ns$.column_histograms_cpp(x, lower, upper, levels, fine_bins, "sse9"),
               "unknown instruction set")
})

test_that("column moments read from the stored column equal the buffered read", {
  set.seed(3)
  n <- 1001L
  x <- cbind(stats::rnorm(n, 0, 3), stats::runif(n, -2, 9), stats::rexp(n), rep(0.25, n))
  public <- list(lower = c(-5, -1, 0, -1), upper = c(5, 8, 4, 1), center = NULL, scale = NULL)
  settings <- list(transform = public, mean_sd = rep(0, 4), second_sd = rep(0, 4),
                   lower = c(-2.5, 0, 0.1, -1), upper = c(3, 8, 2.2, 1),
                   shift = c(0.25, 4, 1.15, 0), seed = c(1, 2), secure = FALSE)
  stored <- ns$.column_moments_cpp(x, settings)
  all_rows <- structure(list(x = x, rows = 0:(n - 1L)), class = "dpglmnet_rows")
  buffered <- ns$.column_moments_cpp(all_rows, settings)
  expect_identical(stored, buffered)
  # and the plain computation, up to the order of the sums
  clamped <- sapply(1:4, function(j) {
    pmin(pmax(pmin(pmax(x[, j], public$lower[j]), public$upper[j]), settings$lower[j]),
         settings$upper[j]) - settings$shift[j]
  })
  expect_equal(stored$mean, colMeans(clamped), tolerance = 1e-13)
  expect_equal(stored$second, colMeans(clamped^2), tolerance = 1e-13)
  # a map that centres and scales (the general loop) gives the numbers of
  # the same values transformed here and read as stored (the fast loop)
  general <- settings
  general$transform <- list(lower = public$lower, upper = public$upper,
                            center = c(0.5, -1, 0, 0.25), scale = c(2, 0.5, 1, 4))
  general[c("lower", "upper", "shift")] <- list(NULL)
  transformed <- sapply(1:4, function(j) {
    (pmax(pmin(x[, j], public$upper[j]), public$lower[j]) - general$transform$center[j]) *
      general$transform$scale[j]
  })
  plain <- settings
  plain$transform <- list(lower = NULL, upper = NULL, center = NULL, scale = NULL)
  plain[c("lower", "upper", "shift")] <- list(NULL)
  expect_identical(ns$.column_moments_cpp(x, general),
                   ns$.column_moments_cpp(transformed, plain))
})

test_that("the standardized response is R's clamp, centre and scale", {
  set.seed(5)
  y <- c(stats::rnorm(999, 2, 4), -0, 0, 10, -10)
  for (clamp in list(c(-3, 7), c(-Inf, Inf), c(0, 0.5))) {
    want <- (pmin(pmax(y, clamp[1]), clamp[2]) - 1.7) / 2.3
    expect_identical(ns$.response_standardize_cpp(y, clamp[1], clamp[2], 1.7, 2.3), want)
  }
  expect_identical(ns$.response_standardize_cpp(y, -3, 7, 0, 2.3),
                   (pmin(pmax(y, -3), 7) - 0) / 2.3)
  expect_error(ns$.response_standardize_cpp(y, 2, 1, 0, 1), "lower <= upper")
})

test_that("clamped sums are the same at every instruction set, and the ranges' sums are the moments' own", {
  set.seed(4)
  n <- 4003L  # a partial last block and a tail of lanes
  x <- cbind(stats::rnorm(n, 0, 3), stats::runif(n, -2, 9), stats::rexp(n), rep(0.25, n))
  lower <- c(-2.5, 0, 0.1, -1)
  upper <- c(3, 8, 2.2, 1)
  shift <- (lower + upper) / 2
  baseline <- ns$.clamped_sums_cpp(x, lower, upper, shift, "baseline")
  clamped <- sapply(1:4, function(j) pmin(pmax(x[, j], lower[j]), upper[j]) - shift[j])
  expect_equal(baseline[1, ], colSums(clamped), tolerance = 1e-13)
  expect_equal(baseline[2, ], colSums(clamped^2), tolerance = 1e-13)
  if ("avx2" %in% ns$.simd_isa_cpp()) {
    expect_identical(ns$.clamped_sums_cpp(x, lower, upper, shift, "avx2"), baseline)
  }
  # the ranges' call makes each column's sums for its released clamp; the
  # moments' call uses them where its clamp and shift are theirs, and reads
  # the column otherwise: the same numbers either way
  public <- list(lower = c(-10, -10, 0, -1), upper = c(10, 10, 8, 1), center = NULL, scale = NULL)
  ranges <- list(transform = public, lower = public$lower, upper = public$upper, levels = 20L,
                 fine_bins = 32L, count_sd = 2, keep_zero = FALSE, seed = c(3, 4),
                 secure = FALSE, make_sums = TRUE, centre_sums = TRUE,
                 sums_on_public = rep(FALSE, ncol(x)))
  released <- ns$.release_columns_cpp("ranges", list(x), list(ranges))[[1]]
  expect_s3_class(released$made_sums, NA)
  expect_identical(typeof(released$made_sums), "externalptr")
  without <- ranges
  without$make_sums <- FALSE
  expect_identical(ns$.release_columns_cpp("ranges", list(x), list(without))[[1]]$lower,
                   released$lower)
  moments <- list(transform = public, mean_sd = rep(0, 4), second_sd = rep(0, 4),
                  lower = released$lower, upper = released$upper,
                  shift = (released$lower + released$upper) / 2, seed = c(1, 2), secure = FALSE)
  read <- ns$.release_columns_cpp("moments", list(x), list(moments))[[1]]
  made <- moments
  made$made_sums <- released$made_sums
  expect_identical(ns$.release_columns_cpp("moments", list(x), list(made))[[1]], read)
  # a clamp other than the one the sums were made for: read, not reused
  other <- made
  other$lower[2] <- other$lower[2] - 1
  other$shift[2] <- (other$lower[2] + other$upper[2]) / 2
  moments$lower <- other$lower
  moments$shift <- other$shift
  expect_identical(ns$.release_columns_cpp("moments", list(x), list(other))[[1]],
                   ns$.release_columns_cpp("moments", list(x), list(moments))[[1]])
})

test_that("sums made for one design are not read for another", {
  set.seed(8)
  x <- matrix(stats::rnorm(3000), 1000, 3)
  public <- list(lower = rep(-5, 3), upper = rep(5, 3), center = NULL, scale = NULL)
  ranges <- list(transform = public, lower = public$lower, upper = public$upper, levels = 20L,
                 fine_bins = 32L, count_sd = 2, keep_zero = FALSE, seed = c(3, 4),
                 secure = FALSE, make_sums = TRUE, centre_sums = TRUE,
                 sums_on_public = rep(FALSE, ncol(x)))
  released <- ns$.release_columns_cpp("ranges", list(x), list(ranges))[[1]]
  moments <- list(transform = public, mean_sd = rep(0, 3), second_sd = rep(0, 3),
                  lower = released$lower, upper = released$upper,
                  shift = (released$lower + released$upper) / 2, seed = c(1, 2), secure = FALSE)
  other <- x[1:500, ] * 2
  with_sums <- moments
  with_sums$made_sums <- released$made_sums
  expect_identical(ns$.release_columns_cpp("moments", list(other), list(with_sums))[[1]],
                   ns$.release_columns_cpp("moments", list(other), list(moments))[[1]])
  # and a pointer that is not the core's is ignored
  with_sums$made_sums <- new.env()
  expect_identical(ns$.release_columns_cpp("moments", list(x), list(with_sums))[[1]],
                   ns$.release_columns_cpp("moments", list(x), list(moments))[[1]])
})

test_that("sums made on the public interval for columns read there are the moments' own", {
  set.seed(9)
  n <- 2001L
  x <- cbind(rnorm(n), rbinom(n, 1, 0.3), rep(0, n))
  public <- list(lower = c(-5, 0, -2), upper = c(5, 1, 2), center = NULL, scale = NULL)
  ranges <- list(transform = public, lower = public$lower, upper = public$upper, levels = 20L,
                 fine_bins = 32L, count_sd = 2, keep_zero = FALSE, seed = c(5, 6),
                 secure = FALSE, make_sums = TRUE, centre_sums = TRUE,
                 sums_on_public = c(FALSE, TRUE, FALSE))
  released <- ns$.release_columns_cpp("ranges", list(x), list(ranges))[[1]]
  # as after_ranges() reads them: the 0/1 column and a constant clamp on
  # their public interval
  on_public <- c(FALSE, TRUE, FALSE) | released$constant
  lower <- ifelse(on_public, public$lower, released$lower)
  upper <- ifelse(on_public, public$upper, released$upper)
  moments <- list(transform = public, mean_sd = rep(0, 3), second_sd = rep(0, 3),
                  lower = lower, upper = upper, shift = (lower + upper) / 2, seed = c(1, 2),
                  secure = FALSE)
  made <- moments
  made$made_sums <- released$made_sums
  expect_identical(ns$.release_columns_cpp("moments", list(x), list(made))[[1]],
                   ns$.release_columns_cpp("moments", list(x), list(moments))[[1]])
  expect_equal(ns$.release_columns_cpp("moments", list(x), list(made))[[1]]$mean[2],
               mean(x[, 2]) - 0.5)
})
