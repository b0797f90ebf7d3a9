// Private column ranges for standardization, from noisy histograms of each
// column read in one pass (replacing the noisy-count bisection, which read
// every column 2 x 12 times and collapsed on columns with a mode: both
// quantiles in one bisection cell gave a clamp of width ~0).
//
// Two histograms per column, over its public interval [lower_j, upper_j]:
//  - a coarse one, log-spaced about a public anchor a_j (0 when the interval
//    holds 0, else its midpoint) with w_j = max(upper_j - a_j, a_j -
//    lower_j): for v = x_ij - a_j (x read clamped to the public interval),
//    the centre bin |v| < w_j 2^-K, and on each side K bins [w_j 2^-k,
//    w_j 2^-(k-1)), k = 1..K (the outermost closed at w_j). Bins are numbered
//    from the most negative (0) to the most positive (2K); bin i spans
//    [e_i, e_(i+1)] of the 2K + 2 edges of `histogram_edges()`. It finds
//    the order of magnitude of a column whatever the crudeness of its bound.
//  - a fine one, L equal bins over the public interval. Log bins resolve a
//    column only to a factor 2 of its distance from the anchor (a longitude
//    in [-124, -114] with bound 249 lands in one bin [-124, -62]); the fine
//    bins refine the ends of the coarse clamp.
// Each record falls in exactly one bin of each histogram, so replacing one
// record changes at most four counts by 1: the pair has replace-one L2
// sensitivity 2, whatever the bounds, and is released as one Gaussian
// mechanism with noise sd count_sd = 2 z per count. The implicit zeros of
// sparse x are counted in the bins of 0.
//
// `choose_clamp()` is post-processing of the released counts. It cuts from
// each end of the public interval the most coarse bins whose summed released
// count is indistinguishable from an empty tail (at most 2 noise sds of the
// sum); then it moves each end of that clamp inwards through the fine bins
// by the same test, only through coarse bins that do not clearly hold
// records, that hold most of them, or whose records one fine bin further
// in holds (a value of a coded column). Cuts only ever remove tails that are
// within noise of empty (measured: 1-3% of the records at n = 2e4, epsilon
// = 1), so a column whose public bounds are tight keeps its values and a
// column with crude bounds is clamped to where its records are.
#ifndef DPGLMNET_HISTOGRAM_H
#define DPGLMNET_HISTOGRAM_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "design.h"
#include "kernels.h"
#include "random.h"

namespace dpglmnet {

// The public anchor and half-width of a column's coarse histogram.
struct HistogramFrame {
  double anchor, width;
};

inline HistogramFrame histogram_frame(double lower, double upper) {
  const double anchor = (lower <= 0.0 && 0.0 <= upper) ? 0.0 : 0.5 * (lower + upper);
  return {anchor, std::max(upper - anchor, anchor - lower)};
}

// The 2K + 2 coarse bin edges of a frame, increasing, as absolute values.
inline std::vector<double> histogram_edges(const HistogramFrame& f, int levels) {
  std::vector<double> e(2 * levels + 2);
  for (int k = 0; k <= levels; ++k) {
    const double r = f.width * std::ldexp(1.0, -k);
    e[k] = f.anchor - r;                  // e_0 = a - w, ..., e_K = a - w 2^-K
    e[2 * levels + 1 - k] = f.anchor + r;  // e_(2K+1) = a + w, ..., e_(K+1) = a + w 2^-K
  }
  return e;
}

// The coarse bin of a value (already clamped to the public interval), with
// the frame's constants computed once per column (std::ldexp and std::ilogb
// are library calls, and this runs once per value of x).
struct CoarseBins {
  double anchor, inverse_width, centre_limit;
  int levels;
  CoarseBins(const HistogramFrame& f, int levels)
      : anchor(f.anchor), inverse_width(f.width > 0.0 ? 1.0 / f.width : 0.0),
        centre_limit(std::ldexp(1.0, -levels)), levels(levels) {}
  int operator()(double v) const {
    const double d = v - anchor;
    const double r = std::fabs(d) * inverse_width;
    if (!(r >= centre_limit)) return levels;  // centre (also NaN-safe)
    // r in [2^-k, 2^-(k-1)): floor(log2 r) = -k; r = 1 (at the bound) is
    // level 1. r >= 2^-K is a normal double, so floor(log2 r) is its biased
    // exponent less 1023, read from the bits.
    std::uint64_t bits;
    std::memcpy(&bits, &r, sizeof bits);
    int level = 1023 - static_cast<int>((bits >> 52) & 0x7ff);
    level = std::min(std::max(level, 1), levels);
    const int offset = levels + 1 - level;  // 1 (innermost) .. K (outermost)
    // branch-free: the sign of centred data is a coin flip
    return levels + offset * (2 * static_cast<int>(d > 0.0) - 1);
  }
};

// The fine bin of value v in [lower, upper] (L equal bins, the last closed).
inline int fine_bin(double v, double lower, double inverse_step, int fine_bins) {
  const double r = (v - lower) * inverse_step;
  if (!(r >= 0.0)) return 0;  // also NaN-safe
  return std::min(static_cast<int>(r), fine_bins - 1);
}

// The shape of a column's released histograms: coarse bins then fine bins.
struct HistogramShape {
  int levels, fine_bins;
  int coarse_bins() const { return 2 * levels + 1; }
  int size() const { return coarse_bins() + fine_bins; }
};

// The cells of a block of values in two joint (coarse, fine) count tables:
// cell[k] = (k odd) * cells + coarse(v[k]) * L + fine(v[k]), coarse in
// 0..2K, fine in 0..L-1, for the values v[k], k < m, read through `map`
// (the design's column transform, applied in registers: dense x is binned
// straight from its stored column, without a copy through a buffer) and
// clamped to the public interval [lower, upper] (the design's transform
// already clamps; repeated here so every value is in range). Odd values go
// to the second table, so runs of values in one cell do not wait on each
// other's increments. The same arithmetic as CoarseBins and fine_bin()
// written as one straight loop without branches, which the compiler
// vectorizes: binning value by value cost 1.75 ns a value, three times a
// plain read of x (4e5 x 50). Every operation is exact or correctly rounded
// (no sum of products for a compiler to fuse), so the cells are the same
// numbers at every vector width (histogram_kernels below).
// Returns the sum of v[k] * 0 over the raw values (before the map): 0 when
// every value is finite, NaN when one is NA, NaN or +-Inf. The fit's check
// of x made in this pass (column_histograms()), where the binning's
// arithmetic, not the read, sets the time: a separate scan of x cost 14 ms
// of a 107 ms private fit (4e5 x 50), this about nothing.
struct BlockBinner {
  double lower, upper, anchor, inverse_width, centre_limit, inverse_step;
  int levels, coarse_bins, fine_bins;
  BlockBinner(double lower, double upper, HistogramShape shape)
      : lower(lower), upper(upper), levels(shape.levels), coarse_bins(shape.coarse_bins()),
        fine_bins(shape.fine_bins) {
    const HistogramFrame f = histogram_frame(lower, upper);
    anchor = f.anchor;
    inverse_width = f.width > 0.0 ? 1.0 / f.width : 0.0;
    centre_limit = std::ldexp(1.0, -levels);
    inverse_step = shape.fine_bins / (upper - lower);
  }
  double operator()(const double* v, int m, std::int32_t* cell,
                    const ColumnTransform::Column& map = {}) const {
    // The usual case, a map that clamps to an interval holding [lower,
    // upper] (the fit's public interval, the histograms' own): the clamp to
    // [lower, upper] then gives the same number for every value (NaN
    // included: upper either way), so the map is skipped, 2 of some 20
    // operations a value (binning 4e5 x 50: 23.9 -> 20.4 ms, AVX2). Two
    // loops, not a test inside one: GCC does not vectorize that.
    if (map.center == 0.0 && map.scale == 1.0 && map.lower <= lower && upper <= map.upper)
      return bin<true>(v, m, cell, map);
    return bin<false>(v, m, cell, map);
  }

 private:
  template <bool SkipMap>
  double bin(const double* v, int m, std::int32_t* cell,
             const ColumnTransform::Column& map) const {
    // every constant in a local (GCC vectorized the loop with the members
    // alone, not with the map's constants beside them)
    const std::int32_t cells = coarse_bins * fine_bins, levels = this->levels,
                       fine_bins = this->fine_bins;
    const double lower = this->lower, upper = this->upper, anchor = this->anchor,
                 inverse_width = this->inverse_width, centre_limit = this->centre_limit,
                 inverse_step = this->inverse_step;
    // the map's operations in its order (ColumnTransform::Column)
    const double map_lower = map.lower, map_upper = map.upper, map_center = map.center,
                 map_scale = map.scale;
    double finite_check = 0.0;
    // (OpenMP's simd: GCC's -O2 cost model leaves this loop scalar)
#ifdef _OPENMP
#pragma omp simd reduction(+ : finite_check)
#endif
    for (int k = 0; k < m; ++k) {
      double x = v[k];
      finite_check += x * 0.0;
      if (!SkipMap) {
        x = x < map_upper ? x : map_upper;  // ColumnTransform::Column's map
        x = x > map_lower ? x : map_lower;
        x = (x - map_center) * map_scale;
      }
      x = x < upper ? x : upper;  // NaN -> upper
      x = x > lower ? x : lower;
      const double d = x - anchor;
      const double r = std::fabs(d) * inverse_width;
      std::uint64_t bits;
      std::memcpy(&bits, &r, sizeof bits);
      std::int32_t level = 1023 - static_cast<std::int32_t>(bits >> 52);  // r >= 0: no sign bit
      level = level < 1 ? 1 : level;
      level = level > levels ? levels : level;
      const std::int32_t offset = levels + 1 - level;
      const std::int32_t side = d > 0.0 ? offset : -offset;
      const std::int32_t coarse = r >= centre_limit ? levels + side : levels;
      // (x - lower) * inverse_step is in [0, fine_bins]: an int32 conversion
      std::int32_t b = static_cast<std::int32_t>((x - lower) * inverse_step);
      b = b < fine_bins - 1 ? b : fine_bins - 1;
      b = b > 0 ? b : 0;
      cell[k] = (k & 1) * cells + coarse * fine_bins + b;
    }
    return finite_check;
  }
};

// BlockBinner compiled for baseline x86-64 (SSE2: two values a vector, or
// any other processor), AVX2 and AVX-512, chosen at run time as the dense
// sweeps are (kernels.h): the binning is arithmetic on every value, and
// wider vectors made it 2.5 times as fast. Measured, n = 4e5, p = 50, the
// whole of column_histograms(): 68 ms through the buffered read at
// baseline, 46 ms reading the stored column, 25 ms at AVX2, 18 ms at
// AVX-512. No FMA in the targets: nothing here may be fused.
namespace histogram_kernels {

typedef double (*BinBlock)(const BlockBinner&, const double*, int, std::int32_t*,
                           const ColumnTransform::Column&);

DPGLMNET_FLATTEN inline double bin_block_baseline(const BlockBinner& bin, const double* v,
                                                  int m, std::int32_t* cell,
                                                  const ColumnTransform::Column& map) {
  return bin(v, m, cell, map);
}

#if DPGLMNET_X86_DISPATCH
__attribute__((flatten, target("avx2"))) inline double bin_block_avx2(
    const BlockBinner& bin, const double* v, int m, std::int32_t* cell,
    const ColumnTransform::Column& map) {
  return bin(v, m, cell, map);
}

__attribute__((flatten, target("avx512f,avx512dq"))) inline double bin_block_avx512(
    const BlockBinner& bin, const double* v, int m, std::int32_t* cell,
    const ColumnTransform::Column& map) {
  return bin(v, m, cell, map);
}
#endif

// The binner compiled for `isa`, which the caller has checked is supported.
inline BinBlock bin_block(kernels::Isa isa) {
#if DPGLMNET_X86_DISPATCH
  if (isa == kernels::Isa::avx512) return bin_block_avx512;
  if (isa == kernels::Isa::avx2) return bin_block_avx2;
#endif
  (void)isa;
  return bin_block_baseline;
}

}  // namespace histogram_kernels

// Exact histograms of one column at a time (column_histograms() below):
// its counts, the coarse bins first, written to `out` (shape.size()
// values). lower/upper: the public interval of each column (the design's
// transform clamps to it as it reads).
// isa: the instruction set of the binning (histogram_kernels; supported by
// the processor, kernels::isa_supported()); the counts are the same for all.
// count() returns false when a value read raw was not finite (BlockBinner's
// check). Only dense x without a row subset is read raw; other designs hand
// the binner values already through their clamp, which maps NA and Inf into
// the interval, so their callers check x themselves.
template <class Design>
class ColumnHistogrammer {
 public:
  ColumnHistogrammer(const Design& x, const double* lower, const double* upper,
                     HistogramShape shape, kernels::Isa isa = kernels::best_isa())
      : x_(x), lower_(lower), upper_(upper), shape_(shape),
        joint_(2 * static_cast<std::size_t>(shape.coarse_bins()) * shape.fine_bins),
        block_(kColumnBlock), cell_(kColumnBlock),
        bin_block_(histogram_kernels::bin_block(isa)) {}

  // Values are binned a block at a time (BlockBinner, vectorized), then
  // counted once each in a joint table of (coarse, fine) pairs (5 KB: one
  // increment a value instead of two; integer, since an increment chained
  // through memory is faster on integers), whose margins are the two
  // histograms. Two tables, alternate values in each, so that runs of
  // values in one cell do not wait on each other's increments. Measured,
  // 4e5 x 50: 72 ms value by value, 53 ms with one table, 49 with two (the
  // counting itself, from cells computed beforehand: 7 ms; the rest was the
  // binning and the buffered read, see histogram_kernels).
  bool count(int j, double* out) {
    const int n = x_.rows(), coarse = shape_.coarse_bins(), fine_bins = shape_.fine_bins;
    const int cells = coarse * fine_bins;
    const BlockBinner bin(lower_[j], upper_[j], shape_);
    std::fill(joint_.begin(), joint_.end(), 0);
    std::fill(out, out + shape_.size(), 0.0);
    std::int32_t* table = joint_.data();
    std::int32_t* cells_of_block = cell_.data();
    int stored = 0;
    double finite_check = 0.0;
    for_each_raw_block_in_column(
        x_, j, block_.data(),
        [&](const double* values, int m, const ColumnTransform::Column& map) {
          stored += m;
          finite_check += bin_block_(bin, values, m, cells_of_block, map);
          std::int32_t* __restrict counts_of_cells = table;
          const std::int32_t* __restrict cell_of = cells_of_block;
          for (int k = 0; k < m; ++k) ++counts_of_cells[cell_of[k]];
        });
    double* c = out;
    double* fine = c + coarse;
    for (int a = 0; a < coarse; ++a) {
      std::int64_t row = 0;
      for (int b = 0; b < fine_bins; ++b) {
        const std::int32_t count = table[a * fine_bins + b] + table[cells + a * fine_bins + b];
        row += count;
        fine[b] += count;
      }
      c[a] = static_cast<double>(row);
    }
    if (stored < n) {
      const double zero = std::min(std::max(0.0, lower_[j]), upper_[j]);
      const CoarseBins coarse_bin(histogram_frame(lower_[j], upper_[j]), shape_.levels);
      c[coarse_bin(zero)] += n - stored;
      fine[fine_bin(zero, lower_[j], fine_bins / (upper_[j] - lower_[j]), fine_bins)] +=
          n - stored;
    }
    return finite_check == 0.0;
  }

 private:
  const Design& x_;
  const double *lower_, *upper_;
  HistogramShape shape_;
  std::vector<std::int32_t> joint_;
  std::vector<double> block_;
  std::vector<std::int32_t> cell_;
  histogram_kernels::BinBlock bin_block_;
};

// Exact histograms of every column: counts[j * shape.size() + i], the
// coarse bins first (release_column_ranges() adds the noise).
// all_finite (optional): set false when a value read raw was not finite
// (ColumnHistogrammer::count()).
template <class Design>
std::vector<double> column_histograms(const Design& x, const double* lower,
                                      const double* upper, HistogramShape shape,
                                      kernels::Isa isa = kernels::best_isa(),
                                      bool* all_finite = nullptr) {
  const int p = x.cols(), size = shape.size();
  std::vector<double> counts(static_cast<std::size_t>(p) * size, 0.0);
  ColumnHistogrammer<Design> histogrammer(x, lower, upper, shape, isa);
  for (int j = 0; j < p; ++j) {
    const bool finite = histogrammer.count(j, &counts[static_cast<std::size_t>(j) * size]);
    if (all_finite && !finite) *all_finite = false;
  }
  return counts;
}

// The clamp chosen from one column's released counts (post-processing).
// keep_zero: the clamp must hold the anchor's centre bin (sparse x, whose
// implicit zeros are never clamped).
struct ClampChoice {
  double lower, upper;
  // No coarse bin but the centre holds a count clearly above the noise, on a
  // narrow clamp: the column's spread cannot be told from noise at this
  // budget (see below).
  bool constant;
};

// The number of bins to cut from one end of a run of released counts
// (count(k) gives the k-th count from that end, k = 0, 1, ...): the largest k
// <= limit whose k outermost counts sum to an "empty" tail (within 2 noise
// sds of 0), searched up to the first tail that is clearly not empty (above
// 3 noise sds) or the first bin that clearly holds records (above 3 noise
// sds). Not the first stop at 2 sds: a truly empty side of 20 bins is a
// random walk of noise that crosses 2 sds at some step one time in four,
// and stopping there left a crude bound uncut. Not beyond a clear mass
// either: the threshold grows as sqrt(k), and a few summed bins of noise
// would swallow a real 3% dummy at the bound (measured: 1 fit in 10 cut it
// to 1/16 and its coefficient came out 16 times too large on the records).
template <class Count>
int empty_tail_bins(Count count, int limit, double count_sd, double clear_bin = 3.0) {
  int cut = 0;
  double sum = 0.0;
  for (int k = 1; k <= limit; ++k) {
    const double c = count(k - 1);
    sum += c;
    const double sd = count_sd * std::sqrt(static_cast<double>(k));
    if (sum > 3.0 * sd || c > clear_bin * count_sd) break;
    if (sum <= 2.0 * sd) cut = k;
  }
  return cut;
}

// choose_clamp()'s second look at the coarse bins it cut next to the clamp:
// the innermost 2 to max_cut_recheck of them are kept when their sum is
// above clear_cut_sds noise sds of the sum (one alone never is: the cut
// stopped at any bin above 3 sds; truly empty bins pass about once in 2500
// columns per side, an independent review's simulation; a false pass only
// widens a clamp), and so is a
// fine bin wholly beyond the clamp whose count is above clear_fine_sds (an
// empty bin: about once in 300000).
constexpr double clear_cut_sds = 3.5;
constexpr int max_cut_recheck = 6;
constexpr double clear_fine_sds = 4.5;

inline ClampChoice choose_clamp(const double* counts, double lower, double upper,
                                HistogramShape shape, double count_sd, bool keep_zero) {
  const int levels = shape.levels, bins = shape.coarse_bins(), L = shape.fine_bins;
  const std::vector<double> edges = histogram_edges(histogram_frame(lower, upper), levels);
  // 1. Coarse: the clamp is [edges[s], edges[t]], bins s..t-1; sparse x keeps
  // the centre bin (its implicit zeros are never clamped).
  const int upper_limit = keep_zero ? levels : bins - 1;
  const int lower_limit = keep_zero ? levels : bins - 1;
  int t = bins - empty_tail_bins([&](int k) { return counts[bins - 1 - k]; }, upper_limit,
                                 count_sd);
  int s = empty_tail_bins([&](int k) { return counts[k]; }, lower_limit, count_sd);
  if (s >= t) {  // only when the counts are mostly noise: no narrowing
    s = 0;
    t = bins;
  }
  // The cut bins next to the clamp that clearly hold records (their sum above
  // clear_cut_sds noise sds of the sum, for the innermost 2 to
  // max_cut_recheck of them) are not cut: the clamp is widened by them, and
  // the fine step below does not cut into them. Near the anchor the log bins
  // are narrow and each holds few of a column's records, and the summed
  // noise of a long empty side swallowed them (an independent review: counts
  // 0-20 with bound 40, n = 3000, epsilon 1, clamped to [2.5, 22.5], 13% of
  // the records cut). A heavy tail is still cut where its innermost bins'
  // counts are within noise (California's rooms and population, bound 2
  // max|x|: a rule widening the clamp to every clear fine bin took
  // cv.dpglmnet() from 0.91 to 1.11 times cv.glmnet's test MSE at epsilon 1).
  const int coarse_s = s, coarse_t = t;
  {
    auto recheck = [&](auto count, int cut) {
      double sum = 0.0;
      int keep = 0;
      for (int m = 1; m <= std::min(cut, max_cut_recheck); ++m) {
        sum += count(m - 1);
        if (sum > clear_cut_sds * count_sd * std::sqrt(static_cast<double>(m))) keep = m;
      }
      return keep;
    };
    s -= recheck([&](int k) { return counts[coarse_s - 1 - k]; }, coarse_s);
    t += recheck([&](int k) { return counts[coarse_t + k]; }, bins - coarse_t);
    // likewise a fine bin wholly outside the clamp whose count is clear
    // (clear_fine_sds): near the anchor one fine bin spans many log bins
    const double* fine_counts = counts + bins;
    const double fine_step = (upper - lower) / shape.fine_bins;
    for (int k = 0; k < shape.fine_bins; ++k) {
      if (!(fine_counts[k] > clear_fine_sds * count_sd)) continue;
      const double bin_lower = lower + k * fine_step, bin_upper = lower + (k + 1) * fine_step;
      if (bin_upper <= edges[s])
        while (s > 0 && edges[s] > bin_lower) --s;
      if (bin_lower >= edges[t])
        while (t < bins && edges[t] < bin_upper) ++t;
    }
  }
  double lo = std::max(edges[s], lower), hi = std::min(edges[t], upper);
  // 2. Fine: move each end inwards through the fine bins it overlaps, by the
  // same rule (the bin straddling an end also counts records beyond it,
  // which the coarse step found empty).
  const double* fine = counts + bins;
  const double step = (upper - lower) / L;
  auto bin_of = [&](double v) {
    return std::min(std::max(static_cast<int>(std::floor((v - lower) / step)), 0), L - 1);
  };
  const int first = bin_of(lo);
  // (a log bin below the anchor is closed at its inner edge: a clamp ending
  // there at or below the anchor holds the records at hi, which lie in the
  // fine bin starting at hi; above it, hi is an outer bin's open end. An
  // independent review: a column coded -4..-1 with bound 8 lost its -1s)
  const double anchor = histogram_frame(lower, upper).anchor;
  const int last = std::max(hi <= anchor && hi < upper ? bin_of(hi) : bin_of(hi - 1e-9 * step),
                            first);
  // at least one fine bin stays: the anchor's for sparse x, else any
  const int zero = keep_zero ? std::min(std::max(bin_of(anchor), first), last)
                             : first;
  // The equal bins hold fewer records each than the log bins, so a real mass
  // near 3 noise sds (a 3% dummy at the bound, clear in its log bin) can look
  // empty among them: cut to 1/16, its coefficient came out 16 times too
  // large on the records it held. So they may cut only through log bins that
  // do not clearly hold records (at most 2.5 noise sds: the 2.3% of a
  // N(3, 1) column beyond 5 with bound 10, n = 8000, must be cut, or the
  // clamp [1.25, 10] leaves its spread within noise) or hold most of the
  // records (where the log bins cannot resolve a column far from 0 against
  // its spread: a longitude).
  // Nor through a log bin that clearly holds records, unless one fine bin
  // further in, wholly inside it, holds at least 3/4 of its released count,
  // clearly more than noise, and all of it but noise or 1% of the records:
  // the log bin's records are then at that
  // value, and what lies beyond it is the empty rest of the bin. Only in a
  // log bin spanning at least 4 fine bins (public), where one fine bin
  // holding most of it says the records sit at one value: a continuous
  // tail spreads over a wide log bin's fine bins (N(0, 1) with bound 5:
  // the largest of [1.25, 2.5)'s holds 46%), but with bound 10 that log bin
  // is two fine bins, the inner holding 75% (an independent review). A
  // column coded 1..4 with bound 8 (twice its maximum, as crude bounds
  // are) has its top value alone in the log bin [4, 8], a quarter of the
  // records: without this its clamp stayed [1, 8], the second moment's
  // sensitivity grew with the clamp's width squared, and with many
  // columns sharing the budget its spread fell within noise (the column
  // held at 0: Bikeshare's season at epsilon 1). The price: a mass at the
  // public bound within the fine counts'
  // noise, beside such a value in the same log bin, can be cut to that
  // value (never beyond its log bin).
  double total = 0.0;
  for (int i = 0; i < bins; ++i) total += counts[i];
  const CoarseBins coarse_bin(histogram_frame(lower, upper), levels);
  auto coarse_of = [&](int i) {
    return coarse_bin(std::min(std::max(lower + (i + 0.5) * step, lower), upper));
  };
  // (fine bin k wholly inside log bin c: both its edges there, so that a
  // value on c's edge, which the two histograms file on different sides,
  // is never taken for c's)
  auto inside = [&](int k, int c) {
    return coarse_bin(lower + k * step) == c &&
           coarse_bin(std::min(lower + (k + 1) * step, upper)) == c;
  };
  auto spike_inward = [&](int i, int c, bool from_top) {
    int width = 0;
    for (int k = 0; k < L; ++k) width += inside(k, c);
    if (width < 4) return false;
    const double spike = std::max(0.75 * counts[c], 3.0 * count_sd);
    // (what the log bin holds beside it: within the noise of the pair of
    // counts, or at most 1% of the records; a continuous column's log bin
    // holds a tail beside its largest fine bin: N(3, 1) with bound 13, the
    // log bin [3.25, 6.5) holds 73% of its records in [3.25, 4.06) and
    // 620 of 5000 beyond, which a cut at 4.06 clamped)
    const double beside = std::max(0.01 * total, 2.0 * std::sqrt(2.0) * count_sd);
    const int direction = from_top ? -1 : 1;
    for (int k = i + direction; k >= 0 && k < L && coarse_of(k) == c; k += direction)
      if (fine[k] >= spike && counts[c] - fine[k] <= beside && inside(k, c)) return true;
    return false;
  };
  auto may_cut = [&](int i, bool from_top) {
    const int c = coarse_of(i);
    if (c < s || c >= t) return true;  // beyond the coarse clamp: found empty
    if (c < coarse_s || c >= coarse_t) return false;  // kept by the second look above
    return counts[c] <= 2.5 * count_sd || counts[c] > 0.5 * total ||
           spike_inward(i, c, from_top);
  };
  int open_hi = 0, open_lo = 0;  // fine bins from each end that may be cut
  while (open_hi < last - zero && may_cut(last - open_hi, true)) ++open_hi;
  // (a fine bin above 2 noise sds ends the search: one real mass among them
  // must not be summed away with the empty bins beside it)
  const int cut_hi =
      empty_tail_bins([&](int k) { return fine[last - k]; }, open_hi, count_sd, 2.0);
  const int lo_room = (keep_zero ? zero : last - cut_hi) - first;
  while (open_lo < lo_room && may_cut(first + open_lo, false)) ++open_lo;
  const int cut_lo =
      empty_tail_bins([&](int k) { return fine[first + k]; }, open_lo, count_sd, 2.0);
  const double new_hi = cut_hi > 0 ? lower + (last - cut_hi + 1) * step : hi;
  const double new_lo = cut_lo > 0 ? lower + (first + cut_lo) * step : lo;
  if (new_lo < new_hi) {
    lo = std::max(lo, new_lo);
    hi = std::min(hi, new_hi);
  }
  // With 0 at an end of the public interval half the coarse bins lie beyond
  // it, and counts that are mostly noise could leave lo > hi there (an
  // independent review: [-5.2, 0] -> [0.162, 0]); as when the coarse cut
  // crosses itself, no narrowing then.
  if (!(lower <= lo && lo < hi && hi <= upper)) {
    lo = lower;
    hi = upper;
  }
  // Coarse bins holding a clear mass on the clamped column; the bins beyond
  // the coarse clamp are merged into its end bins (their noise adds up). The
  // column is constant when none does, or only the centre bin (|v| < w
  // 2^-K) does, and the clamp is narrow: every visible record is then at the
  // anchor, and the moments of a clamp cut inside a hidden mass (a rare
  // dummy) would show a tiny but "resolved" spread, and the map back would
  // divide noise by it. Any other
  // single clear bin is left to the moments (a column with a location and a
  // small spread, 3 + 0.1 z).
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
    // would make a cut column look spread). A clamp inside one coarse bin
    // merges every bin beyond both its ends into it, and their summed noise
    // hid the mass of a column at one location far from the anchor (values
    // -50 + N(0, 1) with bound 120, 400 records: its bin's count of 398
    // against a merged threshold of 405 in half the draws, and the column
    // read on its whole public interval), so there the bin is also read
    // alone. Only there: the ends of a wider clamp are where the cut first
    // met noise that looked like mass, and read alone they made a rare
    // dummy's clamp a sliver 4-5 times as often (an independent review).
    const bool end = i == s || i == t - 1;
    const double sds = end ? 3.0 : 4.0;
    if (mass > sds * count_sd * std::sqrt(static_cast<double>(merged)) ||
        (s == t - 1 && counts[i] > sds * count_sd)) {
      if (i != levels) other_clear = true;
    }
  }
  // Only a clamp cut to a small part of the public interval can hide a mass
  // that dwarfs its spread; a wider one (a 3% dummy kept on [0, 1] of
  // [-1, 1], a count kept on [0, 7.5] of [-30, 30]) is left to the moments:
  // what it may have cut lies within 16 clamp widths.
  const bool narrow = hi - lo < (upper - lower) / 16.0;
  return {lo, hi, !other_clear && narrow};
}

// The release of every column's histograms from their exact counts
// (column_histograms(), or counts a database computed): Gaussian noise of sd
// count_sd on each count, drawn column by column and count by count (one
// mechanism, replace-one L2 sensitivity 2), then each column's clamp
// (post-processing). `counts` is p columns of shape.size() counts, noised
// in place.
struct ReleasedRanges {
  std::vector<double> counts;
  std::vector<ClampChoice> clamps;
};

// One column's counts c (shape.size() of them) noised in place, count by
// count, and its clamp.
inline ClampChoice release_column_range(double* c, double lower, double upper,
                                        HistogramShape shape, double count_sd, bool keep_zero,
                                        RandomSource& rng) {
  if (count_sd > 0.0)
    for (int i = 0; i < shape.size(); ++i) c[i] += count_sd * rng.gaussian();
  return choose_clamp(c, lower, upper, shape, count_sd, keep_zero);
}

inline ReleasedRanges release_column_ranges(std::vector<double> counts, const double* lower,
                                            const double* upper, int p, HistogramShape shape,
                                            double count_sd, bool keep_zero,
                                            RandomSource& rng) {
  const int size = shape.size();
  ReleasedRanges out{std::move(counts), std::vector<ClampChoice>(p)};
  for (int j = 0; j < p; ++j) {
    out.clamps[j] = release_column_range(&out.counts[static_cast<std::size_t>(j) * size],
                                         lower[j], upper[j], shape, count_sd, keep_zero, rng);
  }
  return out;
}

}  // namespace dpglmnet

#endif  // DPGLMNET_HISTOGRAM_H
