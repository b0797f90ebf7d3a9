// The record sweep of a coordinate step (DP-CD, Algorithm 1 of Mangold et
// al. 2022, with the linear predictor kept up to date): after coordinate j
// moved by `change`,
//   eta_i += change * x_ij                           for every record i,
// and the clipped gradient sum of the next coordinate k is
//   sum_i clamp(l'(eta_i, y_i) x_ik, [-C_k, C_k]).
// ColumnSweeper does both in one pass over the records, so a step reads eta
// once instead of twice. Coordinate p (= cols()) is the intercept, whose
// feature is the constant 1.
//
// Dense x runs SIMD loops (simd.h) compiled three times, for baseline x86-64
// (or any other processor), AVX2+FMA and AVX-512, and chosen once at run time
// from what the processor supports; the logistic loss then costs one vector
// exp per 8 records instead of a scalar libm call per record. Sparse x visits
// the stored entries of the two columns (O(nnz)), in scalar code. Both read
// x through its column transform (design.h) without copying it: dense loops
// clamp, centre and scale each pack in registers.
#ifndef DPGLMNET_KERNELS_H
#define DPGLMNET_KERNELS_H

#include <algorithm>
#include <cstddef>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "clip.h"
#include "design.h"
#include "simd.h"

namespace dpglmnet {
namespace kernels {

// How a sweep reads its two columns: as stored; clamped (x.bounds alone:
// two instructions a pack); or clamped, centred and scaled (four). Separate
// variants because the full map's four constants per column made the
// logistic sweep spill registers (1.3x slower in cache, AVX-512), and the
// stored read pays nothing for a transform it does not have.
enum class Read { raw, clamped, transformed };

// A column's transform (design.h) as packs, for the sweeps that read the raw
// column and transform it in registers.
template <int Width, Read How>
struct PackedColumnMap {
  simd::Pack<Width> lower, upper, center, scale;
  explicit PackedColumnMap(const ColumnTransform::Column& m) {
    const simd::Pack<Width> zero = {};
    lower = zero + m.lower;
    upper = zero + m.upper;
    center = zero + m.center;
    scale = zero + m.scale;
  }
  // The same operations, in the same order, as ColumnTransform::Column
  // (whose centre and scale are 0 and 1 when How is clamped: exact no-ops).
  void apply(simd::Pack<Width>& x) const {
    if (How == Read::raw) return;
    x = x < upper ? x : upper;
    x = x > lower ? x : lower;
    if (How == Read::transformed) x = (x - center) * scale;
  }
};

// One pack of the sweep: eta updated (and stored) when Update, then the
// clipped gradient terms added to total, the columns read as How says.
template <class Loss, bool Update, Read How, int Width>
inline void dense_sweep_pack(const Loss& loss, double* eta, const double* y, const double* w,
                             const double* update_column,
                             double change, const double* gradient_column,
                             const PackedColumnMap<Width, How>& update_map,
                             const PackedColumnMap<Width, How>& gradient_map,
                             const simd::Pack<Width>& c, simd::Pack<Width>& total) {
  simd::Pack<Width> e, target, x;
  simd::load<Width>(e, eta);
  if (Update) {
    simd::load<Width>(x, update_column);
    update_map.apply(x);
    e += change * x;
    simd::store<Width>(eta, e);
  }
  simd::load<Width>(target, y);
  loss.template pack_derivative<Width>(e, target);
  if (Loss::weighted) {  // omega_i l'(eta_i, y_i), before the clip
    simd::load<Width>(target, w);
    e *= target;
  }
  simd::load<Width>(x, gradient_column);
  gradient_map.apply(x);
  e *= x;
  simd::clamp_abs<Width>(e, c);
  total += e;
}

// Dense sweep over n records, Width doubles per pack and two packs per
// iteration (two accumulators: independent chains overlap in the core).
// The loss comes by value: its parameters (Huber's delta) then stay in
// registers, where a reference could alias eta's stores.
template <class Loss, bool Update, Read How, int Width>
inline double dense_sweep_body(Loss loss, int n, double* eta, const double* y, const double* w,
                               const double* update_column, double change,
                               const double* gradient_column, double clip,
                               const ColumnTransform::Column& update_map,
                               const ColumnTransform::Column& gradient_map) {
  typedef simd::Pack<Width> P;
  const P zero = {};
  const P c = zero + clip;
  const PackedColumnMap<Width, How> um(update_map), gm(gradient_map);
  P total0 = zero, total1 = zero;
  int i = 0;
  for (; i + 2 * Width <= n; i += 2 * Width) {
    dense_sweep_pack<Loss, Update, How, Width>(
        loss, eta + i, y + i, Loss::weighted ? w + i : w, update_column + i, change,
        gradient_column + i, um, gm, c, total0);
    dense_sweep_pack<Loss, Update, How, Width>(
        loss, eta + i + Width, y + i + Width, Loss::weighted ? w + i + Width : w,
        update_column + i + Width, change,
        gradient_column + i + Width, um, gm, c, total1);
  }
  total0 += total1;
  double sum = simd::horizontal_sum<Width>(total0);
  for (; i < n; ++i) {
    const bool raw = How == Read::raw;
    if (Update) eta[i] += change * (raw ? update_column[i] : update_map(update_column[i]));
    const double x = raw ? gradient_column[i] : gradient_map(gradient_column[i]);
    double v = loss.derivative(eta[i], y[i]) * x;
    if (Loss::weighted) v *= w[i];
    sum += dpglmnet::clip(v, clip);
  }
  return sum;
}

// Every helper of a sweep is inlined into it, so it runs in the variant's
// instruction set (GCC/Clang's flatten).
#if defined(__GNUC__) || defined(__clang__)
#define DPGLMNET_FLATTEN __attribute__((flatten))
#else
#define DPGLMNET_FLATTEN
#endif

enum class Isa { baseline, avx2, avx512 };

inline const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::avx512: return "avx512";
    case Isa::avx2: return "avx2";
    default: return "baseline";
  }
}

// Not on Windows: MinGW's GCC spills 32- and 64-byte vectors with aligned
// moves to a stack it aligns to 16 bytes only (GCC bug 54412), which can
// crash; there the baseline (SSE2) loops run.
// Nor without vector extensions (-DDPGLMNET_VECTOR_EXTENSIONS=0 builds the
// scalar fallback of other compilers, tools/check-fallback.cpp).
#if DPGLMNET_VECTOR_EXTENSIONS && defined(__x86_64__) && \
    (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define DPGLMNET_X86_DISPATCH 1
inline bool isa_supported(Isa isa) {
  switch (isa) {
    case Isa::avx512: return __builtin_cpu_supports("avx512f");
    case Isa::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    default: return true;
  }
}
#else
#define DPGLMNET_X86_DISPATCH 0
inline bool isa_supported(Isa isa) { return isa == Isa::baseline; }
#endif

// The fastest instruction set this processor runs. AVX-512 first: measured
// faster than AVX2 on the logistic sweep (Xeon, Cascade Lake).
inline Isa best_isa() {
  static const Isa best = isa_supported(Isa::avx512) ? Isa::avx512
                          : isa_supported(Isa::avx2) ? Isa::avx2
                                                     : Isa::baseline;
  return best;
}

// (loss, n, eta, y, weights (read only by Weighted losses), update column,
// change, gradient column, clip, update map, gradient map); the maps are read
// only by the variants that transform.
template <class Loss>
using DenseSweep = double (*)(Loss, int, double*, const double*, const double*,
                              const double*, double, const double*, double,
                              const ColumnTransform::Column&, const ColumnTransform::Column&);

template <class Loss, bool Update, Read How>
DPGLMNET_FLATTEN double dense_sweep_baseline(
    Loss loss, int n, double* eta, const double* y, const double* w, const double* u,
    double change, const double* g,
    double clip, const ColumnTransform::Column& um, const ColumnTransform::Column& gm) {
  return dense_sweep_body<Loss, Update, How, simd::kBaselineWidth>(
      loss, n, eta, y, w, u, change, g, clip, um, gm);
}

#if DPGLMNET_X86_DISPATCH
template <class Loss, bool Update, Read How>
__attribute__((flatten, target("avx2,fma"))) double dense_sweep_avx2(
    Loss loss, int n, double* eta, const double* y, const double* w, const double* u,
    double change, const double* g,
    double clip, const ColumnTransform::Column& um, const ColumnTransform::Column& gm) {
  return dense_sweep_body<Loss, Update, How, 4>(loss, n, eta, y, w, u, change, g, clip, um, gm);
}

template <class Loss, bool Update, Read How>
__attribute__((flatten, target("avx512f,avx512dq,fma"))) double dense_sweep_avx512(
    Loss loss, int n, double* eta, const double* y, const double* w, const double* u,
    double change, const double* g,
    double clip, const ColumnTransform::Column& um, const ColumnTransform::Column& gm) {
  return dense_sweep_body<Loss, Update, How, 8>(loss, n, eta, y, w, u, change, g, clip, um, gm);
}
#endif

// The sweep compiled for `isa`, which the caller has checked is supported.
template <class Loss, bool Update, Read How = Read::raw>
DenseSweep<Loss> dense_sweep(Isa isa) {
#if DPGLMNET_X86_DISPATCH
  if (isa == Isa::avx512) return dense_sweep_avx512<Loss, Update, How>;
  if (isa == Isa::avx2) return dense_sweep_avx2<Loss, Update, How>;
#endif
  (void)isa;
  return dense_sweep_baseline<Loss, Update, How>;
}

// Loss derivatives of buffered records, in place: e[k] <- l'(e[k], y[k]) for
// k < m, m a multiple of kMaxWidth (callers pad). The sparse sweeps gather
// the stored rows' eta and y into small buffers and run this on packs: one
// vector exp per pack instead of a scalar libm call per stored entry.
constexpr int kMaxWidth = 8;
template <class Loss>
using Derivatives = void (*)(Loss, int, double*, const double*);

template <class Loss, int Width>
inline void derivatives_body(Loss loss, int m, double* e, const double* y) {
  for (int k = 0; k < m; k += Width) {
    simd::Pack<Width> a, t;
    simd::load<Width>(a, e + k);
    simd::load<Width>(t, y + k);
    loss.template pack_derivative<Width>(a, t);
    simd::store<Width>(e + k, a);
  }
}

template <class Loss>
DPGLMNET_FLATTEN void derivatives_baseline(Loss loss, int m, double* e, const double* y) {
  derivatives_body<Loss, simd::kBaselineWidth>(loss, m, e, y);
}

#if DPGLMNET_X86_DISPATCH
template <class Loss>
__attribute__((flatten, target("avx2,fma"))) void derivatives_avx2(Loss loss, int m,
                                                                   double* e,
                                                                   const double* y) {
  derivatives_body<Loss, 4>(loss, m, e, y);
}

template <class Loss>
__attribute__((flatten, target("avx512f,avx512dq,fma"))) void derivatives_avx512(
    Loss loss, int m, double* e, const double* y) {
  derivatives_body<Loss, 8>(loss, m, e, y);
}
#endif

template <class Loss>
Derivatives<Loss> derivatives(Isa isa) {
#if DPGLMNET_X86_DISPATCH
  if (isa == Isa::avx512) return derivatives_avx512<Loss>;
  if (isa == Isa::avx2) return derivatives_avx2<Loss>;
#endif
  (void)isa;
  return derivatives_baseline<Loss>;
}

}  // namespace kernels

// Generic (sparse) sweeps through Design::for_each_in_column. Losses with a
// costly derivative (Loss::buffered_derivative: the logistic loss's exp) take
// it on packs of gathered records (kernels::derivatives); the clipped terms
// are still added one by one in storage order. The intercept's sweeps read
// every record and run the dense SIMD loops on a vector of ones.
template <class Design, class Loss>
class ColumnSweeper {
  // Records gathered per call of the derivative kernel (a multiple of
  // kernels::kMaxWidth; 3 x 2 KiB of buffers on the stack).
  static constexpr int kChunk = 256;

 public:
  // (threads: used by the dense sweeps only)
  // w: the per-record weights, read when Loss is Weighted (losses/protocol.h).
  ColumnSweeper(const Design& x, const double* y, kernels::Isa isa = kernels::best_isa(),
                int /*threads*/ = 1, const double* w = nullptr, const Loss& loss = Loss())
      : loss_(loss), x_(x), y_(y), w_(w), n_(x.rows()), p_(x.cols()), ones_(x.rows(), 1.0),
        derivatives_(kernels::derivatives<Loss>(isa)),
        intercept_sweeps_{kernels::dense_sweep<Loss, false>(isa),
                          kernels::dense_sweep<Loss, true>(isa)} {}

  // eta += change * column(update) when update >= 0; then the clipped
  // gradient sum of column `gradient`.
  double update_then_gradient(double* eta, int update, double change,
                              int gradient, double clip) const {
    const ColumnTransform::Column identity;
    if (gradient >= p_) {
      // The intercept: every record, fused with an intercept update.
      const bool fused = update >= p_ && change != 0.0;
      if (!fused) apply(eta, update, change);
      return intercept_sweeps_[fused](loss_, n_, eta, y_, w_, ones_.data(), fused ? change : 0.0,
                                      ones_.data(), clip, identity, identity);
    }
    apply(eta, update, change);
    double sum = 0.0;
    if (Loss::buffered_derivative) {
      double e[kChunk], t[kChunk], v[kChunk];
      int m = 0;
      auto flush = [&]() {
        int padded = m;
        for (; padded % kernels::kMaxWidth != 0; ++padded) e[padded] = t[padded] = 0.0;
        derivatives_(loss_, padded, e, t);
        for (int k = 0; k < m; ++k) sum += dpglmnet::clip(e[k] * v[k], clip);
        m = 0;
      };
      x_.for_each_in_column(gradient, [&](int i, double value) {
        e[m] = eta[i];
        t[m] = y_[i];
        // (weighted: omega_i x_ij, so the product is omega_i l' x_ij, clipped)
        v[m] = Loss::weighted ? value * w_[i] : value;
        if (++m == kChunk) flush();
      });
      if (m > 0) flush();
    } else {
      x_.for_each_in_column(gradient, [&](int i, double v) {
        if (Loss::weighted) v *= w_[i];
        sum += dpglmnet::clip(loss_.derivative(eta[i], y_[i]) * v, clip);
      });
    }
    return sum;
  }

  // eta += change * column(update) alone (update < 0: nothing).
  void apply(double* eta, int update, double change) const {
    if (update < 0 || change == 0.0) return;
    if (update < p_) {
      x_.for_each_in_column(update, [&](int i, double v) { eta[i] += change * v; });
    } else {
      for (int i = 0; i < n_; ++i) eta[i] += change;
    }
  }

 private:
  const Loss loss_;
  const Design& x_;
  const double* y_;
  const double* w_;
  const int n_, p_;
  const std::vector<double> ones_;
  const kernels::Derivatives<Loss> derivatives_;
  // [update the intercept first?]
  const kernels::DenseSweep<Loss> intercept_sweeps_[2];
};

// Dense: one fused SIMD pass over the raw columns; the intercept's column is
// a stored vector of ones, never transformed. A step runs the cheapest
// variant that reads both of its columns right (kernels::Read).
template <class Loss>
class ColumnSweeper<DenseDesign, Loss> {
  typedef kernels::Read Read;

 public:
  // threads > 1: sweeps of at least kThreadedFrom records run their chunks
  // on that many OpenMP threads (one without OpenMP).
  ColumnSweeper(const DenseDesign& x, const double* y,
                kernels::Isa isa = kernels::best_isa(), int threads = 1,
                const double* w = nullptr, const Loss& loss = Loss())
      : loss_(loss), x_(x), y_(y), w_(w), n_(x.rows()), p_(x.cols()), ones_(x.rows(), 1.0),
        maps_(column_maps(x)), threads_(std::max(1, threads)),
        chunk_sums_((x.rows() + kChunk - 1) / kChunk),
        slots_{std::vector<double>(x.subset_rows() ? x.rows() : 0),
               std::vector<double>(x.subset_rows() ? x.rows() : 0)},
        sweeps_{{kernels::dense_sweep<Loss, false, Read::raw>(isa),
                 kernels::dense_sweep<Loss, false, Read::clamped>(isa),
                 kernels::dense_sweep<Loss, false, Read::transformed>(isa)},
                {kernels::dense_sweep<Loss, true, Read::raw>(isa),
                 kernels::dense_sweep<Loss, true, Read::clamped>(isa),
                 kernels::dense_sweep<Loss, true, Read::transformed>(isa)}} {}

  double update_then_gradient(double* eta, int update, double change,
                              int gradient, double clip) const {
    const Map& gm = maps_[gradient];
    if (update >= 0 && change != 0.0) {
      const Map& um = maps_[update];
      const int how = std::max(static_cast<int>(um.read), static_cast<int>(gm.read));
      return chunked(sweeps_[1][how], eta, update, change, gradient, clip, um.map, gm.map);
    }
    return chunked(sweeps_[0][static_cast<int>(gm.read)], eta, -1, 0.0, gradient, clip,
                   gm.map, gm.map);
  }

  // Records per chunk: a sweep over more records adds its chunks' sums in
  // chunk order, whatever the number of threads, so a fit is the same
  // number for number with 1 or 2 threads (and the noise, drawn by the
  // caller on its own thread after the sweep, is the same stream).
  static constexpr int kChunk = 8192;
  // The fewest records for which threads run (below it a step takes a few
  // microseconds, the cost of waking the threads: inst/bench/perf.R).
  static constexpr int kThreadedFrom = 65536;

  void apply(double* eta, int update, double change) const {
    if (update < 0 || change == 0.0) return;
    const double* u = update < p_ ? x_.raw_column(update) : ones_.data();
    const Map& um = maps_[update];
    // record i is row rows[i] of x (a row subset), or row i
    const int* rows = update < p_ ? x_.subset_rows() : nullptr;
    if (rows) {
      if (um.read == Read::raw) {
        for (int i = 0; i < n_; ++i) eta[i] += change * u[rows[i]];
      } else {
        for (int i = 0; i < n_; ++i) eta[i] += change * um.map(u[rows[i]]);
      }
    } else if (um.read == Read::raw) {
      for (int i = 0; i < n_; ++i) eta[i] += change * u[i];
    } else {
      for (int i = 0; i < n_; ++i) eta[i] += change * um.map(u[i]);
    }
  }

 private:
  struct Map {
    ColumnTransform::Column map;
    Read read;  // the least a sweep must do to read this column
  };
  // One per column, then the intercept's (identity).
  static std::vector<Map> column_maps(const DenseDesign& x) {
    std::vector<Map> maps(x.cols() + 1);
    for (int j = 0; j < x.cols(); ++j) {
      const ColumnTransform::Column m = x.transform().column(j);
      maps[j].map = m;
      maps[j].read = m.identity() ? Read::raw
                     : m.center == 0.0 && m.scale == 1.0 ? Read::clamped
                                                         : Read::transformed;
    }
    maps[x.cols()].read = Read::raw;
    return maps;
  }

  // A row subset's columns are gathered (design.h, gather_raw) into two
  // slots of n_ records, which keep them: a DP-CD step's update column is
  // the previous step's gradient column, so a step gathers one column, not
  // two. The gather runs chunk by chunk inside the sweep (a chunk's part is
  // still in cache when the sweep reads it), and the sweep reads the same
  // values in the same order as on a copy of the subset.
  struct Slots {
    int update = -1, gradient = -1;  // the slot each column is read from (-1: none)
    bool gather_update = false, gather_gradient = false;
  };
  Slots choose_slots(int update, int gradient) const {
    Slots s;
    auto find = [&](int j) { return slot_column_[0] == j ? 0 : slot_column_[1] == j ? 1 : -1; };
    const bool gathered_update = update >= 0 && update < p_;
    const bool gathered_gradient = gradient < p_;
    if (gathered_update) s.update = find(update);
    if (gathered_gradient) s.gradient = find(gradient);
    if (gathered_update && s.update < 0) {
      s.gather_update = true;
      s.update = s.gradient == 0 ? 1 : 0;
    }
    if (gathered_gradient && s.gradient < 0) {
      if (gradient == update) {
        s.gradient = s.update;
      } else {
        s.gather_gradient = true;
        s.gradient = s.update == 0 ? 1 : 0;
      }
    }
    return s;
  }

  // Records [start, start + length) of column j (p_: the intercept's ones)
  // as a contiguous array: the stored column itself, or a slot (gathered
  // first when `gather`).
  const double* records(int j, int start, int length, int slot, bool gather) const {
    if (j >= p_) return ones_.data() + start;
    if (!x_.subset_rows()) return x_.raw_column(j) + start;
    double* records = slots_[slot].data() + start;
    if (gather) x_.gather_raw(j, start, length, records);
    return records;
  }

  // The sweep over all records, by chunks of kChunk records (update < 0: no
  // update).
  double chunked(kernels::DenseSweep<Loss> sweep, double* eta, int update, double change,
                 int gradient, double clip, const ColumnTransform::Column& um,
                 const ColumnTransform::Column& gm) const {
    const int chunks = static_cast<int>(chunk_sums_.size());
    const Slots slots = x_.subset_rows() ? choose_slots(update, gradient) : Slots();
    auto run_chunk = [&](int c) {
      const int start = c * kChunk;
      const int length = std::min(kChunk, n_ - start);
      const double* u = update >= 0 ? records(update, start, length, slots.update,
                                              slots.gather_update)
                                    : nullptr;
      const double* g =
          records(gradient, start, length, slots.gradient, slots.gather_gradient);
      return sweep(loss_, length, eta + start, y_ + start, w_ ? w_ + start : nullptr, u, change, g,
                   clip, um, gm);
    };
    if (slots.update >= 0) slot_column_[slots.update] = update;
    if (slots.gradient >= 0) slot_column_[slots.gradient] = gradient;
    if (chunks <= 1) return run_chunk(0);
    double* sums = chunk_sums_.data();
#ifdef _OPENMP
    // (one thread never enters a parallel region: that costs a microsecond)
    if (threads_ > 1 && n_ >= kThreadedFrom) {
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (int c = 0; c < chunks; ++c) sums[c] = run_chunk(c);
    } else {
      for (int c = 0; c < chunks; ++c) sums[c] = run_chunk(c);
    }
#else
    for (int c = 0; c < chunks; ++c) sums[c] = run_chunk(c);
#endif
    double sum = 0.0;
    for (int c = 0; c < chunks; ++c) sum += sums[c];
    return sum;
  }

  const Loss loss_;
  const DenseDesign& x_;
  const double* y_;
  const double* w_;  // per-record weights (Weighted losses), or null
  const int n_, p_;
  const std::vector<double> ones_;
  const std::vector<Map> maps_;
  const int threads_;
  mutable std::vector<double> chunk_sums_;
  // With a row subset: two gathered columns (choose_slots) and which
  // column each holds (-1: none).
  mutable std::vector<double> slots_[2];
  mutable int slot_column_[2] = {-1, -1};
  // [update?][Read]: the sweep variants.
  const kernels::DenseSweep<Loss> sweeps_[2][3];
};

}  // namespace dpglmnet

#endif  // DPGLMNET_KERNELS_H
