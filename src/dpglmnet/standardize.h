// Column moments for private standardization (the private counterpart of
// glmnet's standardize = TRUE). Values are read through the design's
// transform, whose bound clamps each x_ij to [-b_j, b_j] (a per-record map,
// free for privacy). Replacing one record moves
//   the mean (1/n) sum_i x_ij            by at most 2 b_j / n,
//   the second moment (1/n) sum_i x_ij^2 by at most b_j^2 / n (values in [0, b_j^2]),
// so each is released with Gaussian noise of sd z * (that sensitivity), the
// caller's noise level z (R/standardize.R accounts for them). The same code
// releases the mean and second moment of a clamped gaussian response.
#ifndef DPGLMNET_STANDARDIZE_H
#define DPGLMNET_STANDARDIZE_H

#include <algorithm>
#include <limits>
#include <vector>

#include "design.h"
#include "histogram.h"
#include "kernels.h"
#include "random.h"
#include "simd.h"

namespace dpglmnet {

struct ColumnMoments {
  std::vector<double> mean, second;  // length p each
};

// The sums of a column's values clamped to [lo, hi] and shifted by -c, and
// of their squares, in 8 running sums ("lanes"): lane l sums the values
// whose index in the column is l modulo 8, in order (blocks hold a multiple
// of 8 values but the last, design.h), and the lanes are added in order at
// the end. Each vector width computes exactly these sums (no fused
// multiply-add: the AVX2 variant is compiled without FMA, and there is no
// AVX-512 variant, whose target would allow it), so a column's sums are the
// same numbers whichever variant runs (with the package's flags: a build
// that lets the compiler fuse, -mfma with GCC's default -ffp-contract=fast,
// could differ between variants in the last bits; a fit's two calls run
// the same variant, so its reused sums are still its own). Written with
// explicit packs: the loop OpenMP's simd vectorized read 4e5 x 50 at 9.9
// ms from cache, 12.5 from memory; these packs at AVX2 4.7 and 10.3 ms.
namespace moment_kernels {

constexpr int kLanes = 8;

template <int Width, bool MapHolds>
inline void clamped_sums(const double* v, int m, const ColumnTransform::Column& map,
                         double lo, double hi, double c, double* lane_sums,
                         double* lane_squares) {
  typedef simd::Pack<Width> P;
  constexpr int packs = kLanes / Width;
  P sums[packs], squares[packs];
  for (int k = 0; k < packs; ++k) {
    simd::load<Width>(sums[k], lane_sums + k * Width);
    simd::load<Width>(squares[k], lane_squares + k * Width);
  }
  const P zero = {};
  const P lower = zero + lo, upper = zero + hi, shift = zero + c;
  const P map_lower = zero + map.lower, map_upper = zero + map.upper,
          map_center = zero + map.center, map_scale = zero + map.scale;
  int i = 0;
  for (; i + kLanes <= m; i += kLanes) {
    for (int k = 0; k < packs; ++k) {
      P x;
      simd::load<Width>(x, v + i + k * Width);
      if (!MapHolds) {  // ColumnTransform::Column's map, in its order
        x = x < map_upper ? x : map_upper;
        x = x > map_lower ? x : map_lower;
        x = (x - map_center) * map_scale;
      }
      x = x > lower ? x : lower;
      x = (x < upper ? x : upper) - shift;
      const P x2 = x * x;
      sums[k] += x;
      squares[k] += x2;
    }
  }
  for (int k = 0; k < packs; ++k) {
    simd::store<Width>(lane_sums + k * Width, sums[k]);
    simd::store<Width>(lane_squares + k * Width, squares[k]);
  }
  for (; i < m; ++i) {
    double x = v[i];
    if (!MapHolds) x = map(x);
    x = x > lo ? x : lo;
    x = (x < hi ? x : hi) - c;
    const double x2 = x * x;
    lane_sums[i % kLanes] += x;
    lane_squares[i % kLanes] += x2;
  }
}

typedef void (*ClampedSums)(const double*, int, const ColumnTransform::Column&, double, double,
                            double, double*, double*);

template <bool MapHolds>
DPGLMNET_FLATTEN inline void clamped_sums_baseline(const double* v, int m,
                                                   const ColumnTransform::Column& map,
                                                   double lo, double hi, double c, double* s,
                                                   double* q) {
  clamped_sums<simd::kBaselineWidth, MapHolds>(v, m, map, lo, hi, c, s, q);
}

#if DPGLMNET_X86_DISPATCH
template <bool MapHolds>
__attribute__((flatten, target("avx2"))) inline void clamped_sums_avx2(
    const double* v, int m, const ColumnTransform::Column& map, double lo, double hi, double c,
    double* s, double* q) {
  clamped_sums<4, MapHolds>(v, m, map, lo, hi, c, s, q);
}
#endif

// The variant for `isa` (AVX-512 runs AVX2's).
inline ClampedSums clamped_sums_for(kernels::Isa isa, bool map_holds) {
#if DPGLMNET_X86_DISPATCH
  if (isa == kernels::Isa::avx512 || isa == kernels::Isa::avx2)
    return map_holds ? clamped_sums_avx2<true> : clamped_sums_avx2<false>;
#endif
  (void)isa;
  return map_holds ? clamped_sums_baseline<true> : clamped_sums_baseline<false>;
}

}  // namespace moment_kernels

// A column's exact sums (unweighted) about a shift, for the clamp they were
// made with.
struct ClampedColumnSums {
  double lower, upper, shift, sum, squares;
  bool made = false;
};

// The sums of column j of x (as the design reads it) clamped to [lo, hi]
// and shifted by -c, and of their squares (moment_kernels).
template <class Design>
ClampedColumnSums clamped_column_sums(const Design& x, int j, double lo, double hi, double c,
                                      double* block, kernels::Isa isa = kernels::best_isa()) {
  double lane_sums[moment_kernels::kLanes] = {0.0}, lane_squares[moment_kernels::kLanes] = {0.0};
  for_each_raw_block_in_column(
      x, j, block, [&](const double* values, int m, const ColumnTransform::Column& map) {
        // (a map that clamps to an interval holding [lo, hi] gives, after
        // the clamp to [lo, hi], the same number for every value: skipped)
        const bool map_holds = map.center == 0.0 && map.scale == 1.0 && map.lower <= lo &&
                               lo <= hi && hi <= map.upper;
        moment_kernels::clamped_sums_for(isa, map_holds)(values, m, map, lo, hi, c, lane_sums,
                                                         lane_squares);
      });
  ClampedColumnSums out{lo, hi, c, 0.0, 0.0, true};
  for (int l = 0; l < moment_kernels::kLanes; ++l) {
    out.sum += lane_sums[l];
    out.squares += lane_squares[l];
  }
  return out;
}

// Private column ranges (histogram.h's release) made column by column, each
// column's exact clamped sums taken right after its clamp is chosen, while
// the column is still in cache (a second pass over x from memory cost 12.5
// ms, 4e5 x 50; from cache 4.7): `sums[j]` about the clamp's midpoint
// (centre) or 0 (sparse x). The same counts, noise (drawn column by column,
// count by count) and clamps as column_histograms() then
// release_column_ranges(). The sums are made on the public interval
// instead where the caller will read the column there: a column flagged in
// `on_public` (a 0/1 column, R/standardize.R) or one whose clamp is
// `constant` (after_ranges() reads it on its public interval); where the
// caller reads another clamp, its moments' call reads the column again.
// Returns false, before anything is returned to the caller, when a value
// read raw was not finite.
template <class Design>
bool release_ranges_with_sums(const Design& x, const double* lower, const double* upper,
                              HistogramShape shape, double count_sd, bool keep_zero,
                              bool centre, const int* on_public, RandomSource& rng,
                              ReleasedRanges& out, std::vector<ClampedColumnSums>& sums) {
  const int p = x.cols(), size = shape.size();
  const kernels::Isa isa = kernels::best_isa();
  out.counts.assign(static_cast<std::size_t>(p) * size, 0.0);
  out.clamps.assign(p, ClampChoice{});
  sums.assign(p, ClampedColumnSums{});
  ColumnHistogrammer<Design> histogrammer(x, lower, upper, shape, isa);
  std::vector<double> block(kColumnBlock);
  bool all_finite = true;
  for (int j = 0; j < p; ++j) {
    double* c = &out.counts[static_cast<std::size_t>(j) * size];
    if (!histogrammer.count(j, c)) all_finite = false;
    out.clamps[j] = release_column_range(c, lower[j], upper[j], shape, count_sd, keep_zero, rng);
    const bool public_interval = (on_public && on_public[j]) || out.clamps[j].constant;
    const double lo = public_interval ? lower[j] : out.clamps[j].lower;
    const double hi = public_interval ? upper[j] : out.clamps[j].upper;
    sums[j] = clamped_column_sums(x, j, lo, hi, centre ? (lo + hi) / 2 : 0.0, block.data(), isa);
  }
  return all_finite;
}

// Noisy column means and second moments of x_ij clamped to [lower_j,
// upper_j] and shifted by -shift_j (null pointers: no clamp, no shift; the
// implicit zeros of sparse x are never clamped or shifted, so sparse callers
// pass null): sd of the noise mean_sd[j] and second_sd[j] (0: exact, for
// epsilon = Inf fits only). Values in [lower_j, upper_j] shifted by the
// midpoint lie in [-w_j, w_j], w_j = (upper_j - lower_j) / 2, so the
// sensitivities above hold with b_j = w_j. mean_sd null: the means are not
// released (`mean` is left empty), only the second moments.
// weights (optional, per record): glmnet's weighted moments (1/n) sum_i
// omega_i v_ij with omega_i = w_i n / S (R/weights.R); with weights in
// [0, W] the sensitivities above grow by W n / S, which the caller's noise
// sds carry.
template <class Design>
ColumnMoments private_column_moments(const Design& x, const double* mean_sd,
                                     const double* second_sd, RandomSource& rng,
                                     const double* lower = nullptr,
                                     const double* upper = nullptr,
                                     const double* shift = nullptr,
                                     const double* weights = nullptr,
                                     const std::vector<ClampedColumnSums>* made = nullptr) {
  const int n = x.rows(), p = x.cols();
  ColumnMoments out{std::vector<double>(mean_sd ? p : 0, 0.0), std::vector<double>(p, 0.0)};
  std::vector<double> block(kColumnBlock);
  const kernels::Isa isa = kernels::best_isa();
  for (int j = 0; j < p; ++j) {
    double sum = 0.0, sum_squares = 0.0;
    const double lo = lower ? lower[j] : -std::numeric_limits<double>::infinity();
    const double hi = upper ? upper[j] : std::numeric_limits<double>::infinity();
    const double c = shift ? shift[j] : 0.0;
    if (weights) {
      // glmnet's weighted moments: record i's term times omega_i (record
      // numbers from for_each_in_column, as the weights are stored)
      x.for_each_in_column(j, [&](int i, double v) {
        v = std::min(std::max(v, lo), hi) - c;
        sum += weights[i] * v;
        sum_squares += weights[i] * v * v;
      });
    } else {
      // The sums made with the ranges (release_ranges_with_sums()) when
      // they were made for this clamp and shift, else a pass over the
      // column: the same kernel, so the same numbers either way.
      const ClampedColumnSums* m =
          made && static_cast<int>(made->size()) == p ? &(*made)[j] : nullptr;
      const ClampedColumnSums sums =
          m && m->made && m->lower == lo && m->upper == hi && m->shift == c
              ? *m
              : clamped_column_sums(x, j, lo, hi, c, block.data(), isa);
      sum = sums.sum;
      sum_squares = sums.squares;
    }
    out.second[j] = sum_squares / n;
    if (mean_sd) {
      out.mean[j] = sum / n;
      if (mean_sd[j] > 0.0) out.mean[j] += mean_sd[j] * rng.gaussian();
    }
    if (second_sd[j] > 0.0) out.second[j] += second_sd[j] * rng.gaussian();
  }
  return out;
}

}  // namespace dpglmnet

#endif  // DPGLMNET_STANDARDIZE_H
