// Private column ranges for standardization, from one noisy histogram per
// column read in one pass (replacing the noisy-count bisection, which read
// every column 2 x 12 times and collapsed on columns with a mode: both
// quantiles in one bisection cell gave a clamp of width ~0).
//
// Bins are log-spaced about a public anchor a_j (0 when the public interval
// [lower_j, upper_j] holds 0, else its midpoint), with w_j = max(upper_j -
// a_j, a_j - lower_j): for v = x_ij - a_j (x read clamped to the public
// interval), the centre bin |v| < w_j 2^-K, and on each side K bins
// [w_j 2^-k, w_j 2^-(k-1)), k = 1..K (the outermost closed at w_j). Bins are
// numbered from the most negative (0) to the most positive (2K); bin i spans
// [e_i, e_(i+1)] of the 2K + 2 edges returned by `histogram_edges()`. Each
// record falls in exactly one bin of its column, so replacing one record
// changes at most two counts by 1: the whole histogram of a column has
// replace-one L2 sensitivity sqrt(2), whatever the bounds, and is released
// as one Gaussian mechanism with noise sd count_sd = z sqrt(2) per count.
// The implicit zeros of sparse x are counted in the bin of 0.
//
// `choose_clamp()` is post-processing of one released histogram: it
// narrows the public interval one bin at a time, from the outside in, only
// while (a) the noisy count beyond the new edge is indistinguishable from an
// empty tail (at most 2 noise sds of the summed counts) and (b) the noise of
// the second moment released on the current clamp is more than a fifth of the
// column's variance as the histogram sees it. So a column whose public bounds
// are tight (a 0/1 dummy with bound 1) keeps its values, and a column with
// crude bounds is clamped to the range that holds its records.
#ifndef DPGLMNET_HISTOGRAM_H
#define DPGLMNET_HISTOGRAM_H

#include <algorithm>
#include <cmath>
#include <vector>

#include "random.h"

namespace dpglmnet {

// The public anchor and half-width of a column's histogram.
struct HistogramFrame {
  double anchor, width;
};

inline HistogramFrame histogram_frame(double lower, double upper) {
  const double anchor = (lower <= 0.0 && 0.0 <= upper) ? 0.0 : 0.5 * (lower + upper);
  return {anchor, std::max(upper - anchor, anchor - lower)};
}

// The 2K + 2 bin edges of a frame, increasing, as absolute values.
inline std::vector<double> histogram_edges(const HistogramFrame& f, int levels) {
  std::vector<double> e(2 * levels + 2);
  for (int k = 0; k <= levels; ++k) {
    const double r = f.width * std::ldexp(1.0, -k);
    e[k] = f.anchor - r;                  // e_0 = a - w, ..., e_K = a - w 2^-K
    e[2 * levels + 1 - k] = f.anchor + r;  // e_(2K+1) = a + w, ..., e_(K+1) = a + w 2^-K
  }
  return e;
}

// The bin of value v (already clamped to the public interval).
inline int histogram_bin(double v, const HistogramFrame& f, double inverse_width, int levels) {
  const double d = v - f.anchor;
  const double r = std::fabs(d) * inverse_width;
  if (!(r >= std::ldexp(1.0, -levels))) return levels;  // centre (also NaN-safe)
  // r in [2^-k, 2^-(k-1)): ilogb(r) = -k; r = 1 (at the bound) is level 1.
  int level = -std::ilogb(r);
  level = std::min(std::max(level, 1), levels);
  const int offset = levels + 1 - level;  // 1 (innermost) .. K (outermost)
  return d > 0.0 ? levels + offset : levels - offset;
}

// Noisy histograms of every column: counts[j * (2K + 1) + i], noise sd
// count_sd per count (0: exact). lower/upper: the public interval of each
// column (the design's transform clamps to it as it reads).
template <class Design>
std::vector<double> private_column_histograms(const Design& x, const double* lower,
                                              const double* upper, int levels,
                                              double count_sd, RandomSource& rng) {
  const int n = x.rows(), p = x.cols(), bins = 2 * levels + 1;
  std::vector<double> counts(static_cast<std::size_t>(p) * bins, 0.0);
  for (int j = 0; j < p; ++j) {
    const HistogramFrame f = histogram_frame(lower[j], upper[j]);
    const double inverse_width = f.width > 0.0 ? 1.0 / f.width : 0.0;
    double* c = &counts[static_cast<std::size_t>(j) * bins];
    int stored = 0;
    x.for_each_in_column(j, [&](int, double v) {
      ++stored;
      c[histogram_bin(v, f, inverse_width, levels)] += 1.0;
    });
    if (stored < n) {
      const double zero = std::min(std::max(0.0, lower[j]), upper[j]);
      c[histogram_bin(zero, f, inverse_width, levels)] += n - stored;
    }
    if (count_sd > 0.0)
      for (int i = 0; i < bins; ++i) c[i] += count_sd * rng.gaussian();
  }
  return counts;
}

// The clamp [edges[s], edges[t]] chosen from one column's released counts
// (post-processing). moment_noise: the noise sd of the second moment
// released on a clamp of half-width 1 (z_m / n: it scales as w^2);
// keep_zero: the clamp must hold the anchor's centre bin (sparse x, whose
// implicit zeros are never clamped).
struct ClampChoice {
  int lower_edge, upper_edge;
  // No bin but the centre holds a count clearly above the noise: the
  // column's spread cannot be told from noise at this budget (see below).
  bool constant;
};

inline ClampChoice choose_clamp(const double* counts, const std::vector<double>& edges,
                                int levels, double count_sd, double moment_noise,
                                bool keep_zero) {
  const int bins = 2 * levels + 1;
  int s = 0, t = bins;  // the clamp is [edges[s], edges[t]], bins s..t-1
  // A tail's released count is "empty" when it is within 2 noise sds of 0.
  auto empty = [&](double sum, int summed) {
    return sum <= 2.0 * count_sd * std::sqrt(static_cast<double>(summed));
  };
  while (t - s > 1) {
    // The spread the histogram sees on the current clamp (bin mid-points,
    // mass clamped into the end bins). Counts within one noise sd of 0 count
    // as 0: otherwise the noise of empty far bins (a crude bound) would look
    // like a large spread and stop the narrowing.
    double mass = 0.0, first = 0.0, second = 0.0;
    for (int i = 0; i < bins; ++i) {
      const double c = counts[i] > count_sd ? counts[i] : 0.0;
      const double mid = std::min(std::max(0.5 * (edges[i] + edges[i + 1]), edges[s]), edges[t]);
      mass += c;
      first += c * mid;
      second += c * mid * mid;
    }
    const double variance = mass > 0.0 ? std::max(second / mass - (first / mass) * (first / mass), 0.0)
                                       : 0.0;
    const double half = 0.5 * (edges[t] - edges[s]);
    if (moment_noise * half * half <= 0.2 * variance) break;  // the clamp is good enough
    double upper_tail = 0.0, lower_tail = 0.0;
    for (int i = t - 1; i < bins; ++i) upper_tail += counts[i];
    for (int i = 0; i <= s; ++i) lower_tail += counts[i];
    bool can_upper = empty(upper_tail, bins - (t - 1));
    bool can_lower = empty(lower_tail, s + 1);
    if (keep_zero) {
      can_upper = can_upper && t - 1 > levels;  // bin `levels` (the centre) stays
      can_lower = can_lower && s + 1 <= levels;
    }
    if (!can_upper && !can_lower) break;
    // Narrow the wider side first (both sides of a symmetric column in turn).
    const double anchor = 0.5 * (edges[levels] + edges[levels + 1]);
    const double above = edges[t] - anchor, below = anchor - edges[s];
    if (can_upper && (!can_lower || above >= below)) --t;
    else ++s;
  }
  // Bins holding a clear mass on the clamped column; the bins beyond the
  // clamp are merged into its end bins (their noise adds up). The column is
  // constant when none does, or only the centre bin (|v| < w 2^-K) does:
  // every visible record is then at the anchor, and the moments of a clamp
  // cut inside a hidden mass (a rare dummy) would show a tiny but
  // "resolved" spread, and the map back would divide noise by it. Any other
  // single clear bin spans a factor 2 and is left to the moments (a column
  // with a location and a small spread, 3 + 0.1 z).
  bool other_clear = false;
  for (int i = s; i < t; ++i) {
    double mass = counts[i];
    int merged = 1;
    if (i == s)
      for (int k = 0; k < s; ++k, ++merged) mass += counts[k];
    if (i == t - 1)
      for (int k = t; k < bins; ++k, ++merged) mass += counts[k];
    // 3 noise sds at the ends (where a real extreme mass sits), 4 inside (a
    // narrowed clamp has some 20 empty inner bins: one false mass among them
    // would make a cut column look spread)
    const bool end = i == s || i == t - 1;
    if (mass > (end ? 3.0 : 4.0) * count_sd * std::sqrt(static_cast<double>(merged))) {
      if (i != levels) other_clear = true;
    }
  }
  return {s, t, !other_clear};
}

}  // namespace dpglmnet

#endif  // DPGLMNET_HISTOGRAM_H
