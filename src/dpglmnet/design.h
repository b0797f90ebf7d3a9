// Access to the design matrix x, dense (column-major) or sparse (compressed
// sparse column, as Matrix::dgCMatrix), through its column transform
// (clamping to public bounds, centring, scaling), so that no solver copies x
// to transform it. Solvers are written once against this interface:
// for_each_in_column(j, f) calls f(i, x'_ij) for the stored entries of column
// j (every entry when dense, the non-zeros when sparse), so a coordinate step
// costs O(n) dense and O(nnz of column j) sparse. RowAccess<Design> gives the
// records one by one, for solvers that sample rows (DP-SGD).
//
// Either design may be restricted to a public subset of its rows (RowSubset:
// cv.dpglmnet()'s training or validation part), so that a fit on part of the
// records reads the full x in place instead of a copy of the part. The design
// then has rows() = the subset's size and numbers its records 0..rows()-1 in
// the subset's (increasing) order, exactly as a copy x[rows, ] would: every
// consumer of the design sees the same values in the same order as it would
// on the copy, so its results are the same number for number.
#ifndef DPGLMNET_DESIGN_H
#define DPGLMNET_DESIGN_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <type_traits>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "simd.h"

namespace dpglmnet {

// The per-column map applied to every value read from x, so that neither
// clamping nor standardization needs a copy of x:
//   x'_ij = (min(max(x_ij, lower_j), upper_j) - center_j) * scale_j.
// Clamping each record to public bounds (or to privately released
// quantiles) is a per-record map (free for privacy); center and scale are
// public or privately released constants. A null pointer means no clamp,
// centre 0, scale 1. Sparse x is never centred (it would fill in the zeros)
// and its clamp must keep 0 (lower_j <= 0 <= upper_j).
struct ColumnTransform {
  const double* lower = nullptr;   // length p (-Inf: no clamp)
  const double* upper = nullptr;   // length p, >= lower (+Inf: no clamp)
  const double* center = nullptr;  // length p
  const double* scale = nullptr;   // length p, > 0

  // The map of column j as four constants; identity when all are neutral.
  struct Column {
    double lower = -std::numeric_limits<double>::infinity();
    double upper = std::numeric_limits<double>::infinity();
    double center = 0.0;
    double scale = 1.0;
    bool identity() const {
      return lower == -std::numeric_limits<double>::infinity() &&
             upper == std::numeric_limits<double>::infinity() && center == 0.0 &&
             scale == 1.0;
    }
    // Clamp (as R's pmax(pmin(v, upper), lower)), centre, scale. The identity gives
    // v back exactly, so callers may skip it for speed only.
    double operator()(double v) const {
      v = v < upper ? v : upper;  // branch-free minsd / maxsd
      v = v > lower ? v : lower;
      return (v - center) * scale;
    }
  };

  Column column(int j) const {
    Column c;
    if (lower) c.lower = lower[j];
    if (upper) c.upper = upper[j];
    if (center) c.center = center[j];
    if (scale) c.scale = scale[j];
    return c;
  }
};

// A public subset of the rows of an n-row x: `rows` holds `count` distinct
// 0-based row indices in increasing order (checked by the caller; null: every
// row). The design's record k is row rows[k] of x.
//   Dense x reads x[rows[k], j] for k < count: O(count) per column.
//   Sparse x visits the stored entries of column j and keeps those whose row
// is in the subset, numbered through `position` (length n: position[i] = k
// when rows[k] = i, -1 when row i is not in the subset), built once per fit:
// O(nnz of column j) per column, one integer load per entry, the same order
// of work as the full sparse column (a merge of the column's rows with the
// subset would cost O(count) per column, more than nnz for sparse x).
struct RowSubset {
  const int* rows = nullptr;
  int count = 0;
  const int* position = nullptr;  // sparse designs only
  bool all() const { return rows == nullptr; }
};

class DenseDesign {
 public:
  DenseDesign(const double* values, int n, int p, ColumnTransform transform = {},
              RowSubset subset = {})
      : values_(values), n_(n), p_(p), transform_(transform), subset_(subset) {}
  // The records the design reads: the subset's, or all n of x.
  int rows() const { return subset_.all() ? n_ : subset_.count; }
  int cols() const { return p_; }
  const ColumnTransform& transform() const { return transform_; }
  // The raw (untransformed) column of all n rows of x: for kernels that
  // transform in registers. With a subset, record k is raw_column(j)[subset_rows()[k]].
  const double* raw_column(int j) const {
    return values_ + static_cast<std::size_t>(j) * n_;
  }
  // The subset's rows of x (null: every row, record i is row i).
  const int* subset_rows() const { return subset_.rows; }

  template <class F>
  void for_each_in_column(int j, F&& f) const {
    const double* values = raw_column(j);
    const ColumnTransform::Column map = transform_.column(j);
    if (!subset_.all()) {
      const int* rows = subset_.rows;
      const int m = subset_.count;
      if (map.identity()) {
        for (int k = 0; k < m; ++k) f(k, values[rows[k]]);
      } else {
        for (int k = 0; k < m; ++k) f(k, map(values[rows[k]]));
      }
    } else if (map.identity()) {
      for (int i = 0; i < n_; ++i) f(i, values[i]);
    } else {
      for (int i = 0; i < n_; ++i) f(i, map(values[i]));
    }
  }

  // out[k] = raw x[rows[start + k], j] (untransformed) for k < length: a
  // piece of the subset's column gathered for the kernels that read
  // contiguous columns.
  void gather_raw(int j, int start, int length, double* out) const {
    const double* values = raw_column(j);
    const int* rows = subset_.rows + start;
    for (int k = 0; k < length; ++k) out[k] = values[rows[k]];
  }

 private:
  const double* values_;
  int n_, p_;
  ColumnTransform transform_;
  RowSubset subset_;
};

class SparseDesign {
 public:
  // row_index / column_start / values are dgCMatrix's slots i, p and x. The
  // transform must not centre (the zeros would fill in).
  // With a subset, subset.position is required (see RowSubset).
  SparseDesign(const int* row_index, const int* column_start,
               const double* values, int n, int p, ColumnTransform transform = {},
               RowSubset subset = {})
      : row_index_(row_index), column_start_(column_start), values_(values),
        n_(n), p_(p), transform_(transform), subset_(subset) {}
  int rows() const { return subset_.all() ? n_ : subset_.count; }
  int cols() const { return p_; }
  const ColumnTransform& transform() const { return transform_; }
  // The stored entries of x (all rows): an upper bound for a subset's.
  std::size_t stored_entries() const { return static_cast<std::size_t>(column_start_[p_]); }

  template <class F>
  void for_each_in_column(int j, F&& f) const {
    const ColumnTransform::Column map = transform_.column(j);
    if (!subset_.all()) {
      const int* position = subset_.position;
      if (map.identity()) {
        for (int k = column_start_[j]; k < column_start_[j + 1]; ++k) {
          const int i = position[row_index_[k]];
          if (i >= 0) f(i, values_[k]);
        }
      } else {
        for (int k = column_start_[j]; k < column_start_[j + 1]; ++k) {
          const int i = position[row_index_[k]];
          if (i >= 0) f(i, map(values_[k]));
        }
      }
    } else if (map.identity()) {
      for (int k = column_start_[j]; k < column_start_[j + 1]; ++k)
        f(row_index_[k], values_[k]);
    } else {
      for (int k = column_start_[j]; k < column_start_[j + 1]; ++k)
        f(row_index_[k], map(values_[k]));
    }
  }

 private:
  const int* row_index_;
  const int* column_start_;
  const double* values_;
  int n_, p_;
  ColumnTransform transform_;
  RowSubset subset_;
};

// The stored values of column j as the design reads them (transformed), in
// record order, handed to f(const double* values, int m) in blocks of at
// most kColumnBlock values, for consumers that need the values and not
// their records (histograms, moments): a loop over a block has no call per
// value and no dependence on the record index, so the compiler can vectorize
// it. Dense x without a subset transforms a block of its column at a time;
// other designs collect for_each_in_column()'s values. `buffer` holds
// kColumnBlock doubles.
constexpr int kColumnBlock = 256;

template <class Design, class F>
void for_each_block_in_column(const Design& x, int j, double* buffer, F&& f) {
  if constexpr (std::is_same<Design, DenseDesign>::value) {
    if (x.subset_rows() == nullptr) {
      const double* values = x.raw_column(j);
      const ColumnTransform::Column map = x.transform().column(j);
      const int n = x.rows();
      for (int start = 0; start < n; start += kColumnBlock) {
        const int m = std::min(kColumnBlock, n - start);
#ifdef _OPENMP
#pragma omp simd
#endif
        for (int k = 0; k < m; ++k) buffer[k] = map(values[start + k]);
        f(static_cast<const double*>(buffer), m);
      }
      return;
    }
  }
  int filled = 0;
  x.for_each_in_column(j, [&](int, double v) {
    buffer[filled++] = v;
    if (filled == kColumnBlock) {
      f(static_cast<const double*>(buffer), filled);
      filled = 0;
    }
  });
  if (filled) f(static_cast<const double*>(buffer), filled);
}

// As for_each_block_in_column(), for consumers that apply the column's map
// themselves, in registers: f(const double* values, int m, const
// ColumnTransform::Column& map) gets dense x without a subset straight from
// its stored column with the column's map (no copy of every value through
// the buffer and back: the copy cost as much as the histograms' counting,
// 4e5 x 50), other designs the transformed values in the buffer with the
// identity map (which gives every value back exactly). The consumer's values
// are map(values[k]), the same numbers in the same order either way.
template <class Design, class F>
void for_each_raw_block_in_column(const Design& x, int j, double* buffer, F&& f) {
  if constexpr (std::is_same<Design, DenseDesign>::value) {
    if (x.subset_rows() == nullptr) {
      const double* values = x.raw_column(j);
      const ColumnTransform::Column map = x.transform().column(j);
      const int n = x.rows();
      for (int start = 0; start < n; start += kColumnBlock)
        f(values + start, std::min(kColumnBlock, n - start), map);
      return;
    }
  }
  const ColumnTransform::Column identity;
  for_each_block_in_column(x, j, buffer, [&](const double* values, int m) {
    f(values, m, identity);
  });
}

// Products of a record with the coefficients, in packs of the baseline
// vector width (simd.h: two lanes, SSE2 on x86-64 and NEON on arm64, no flags
// needed; one lane with compilers without vector extensions): rows are short
// (p = 8 in the paper's data), so a DP-SGD step is mostly these, and scalar
// code spends as much on loop overhead as on arithmetic.
namespace record_kernels {

constexpr int W = simd::kBaselineWidth;
typedef simd::Pack<W> Pack;

inline Pack load(const double* a) {
  Pack v;
  simd::load<W>(v, a);
  return v;
}

// a'b; four accumulators so that long rows are not bound by add latency.
inline double dot(const double* a, const double* b, int p) {
  Pack s0 = {}, s1 = {}, s2 = {}, s3 = {};
  int j = 0;
  for (; j + 4 * W <= p; j += 4 * W) {
    s0 += load(a + j) * load(b + j);
    s1 += load(a + j + W) * load(b + j + W);
    s2 += load(a + j + 2 * W) * load(b + j + 2 * W);
    s3 += load(a + j + 3 * W) * load(b + j + 3 * W);
  }
  for (; j + W <= p; j += W) s0 += load(a + j) * load(b + j);
  s0 += s1;
  s2 += s3;
  s0 += s2;
  double s = simd::horizontal_sum<W>(s0);
  for (; j < p; ++j) s += a[j] * b[j];
  return s;
}

// Short rows (p <= kShortRow): a batch at once, column block outer and
// records inner, so that a block of b (of g) stays in registers across the
// batch instead of being reloaded (restored) for every record.
// out[k] = row_k'b with row_k = base + batch[k] p.
inline void batch_dot(const double* base, int p, const int* batch, int m,
                      const double* b, double* out) {
  for (int k = 0; k < m; ++k) out[k] = 0.0;
  int j = 0;
  for (; j + 4 * W <= p; j += 4 * W) {
    const Pack b0 = load(b + j), b1 = load(b + j + W), b2 = load(b + j + 2 * W),
               b3 = load(b + j + 3 * W);
    for (int k = 0; k < m; ++k) {
      const double* r = base + static_cast<std::size_t>(batch[k]) * p + j;
      Pack s = load(r) * b0 + load(r + W) * b1;
      s += load(r + 2 * W) * b2 + load(r + 3 * W) * b3;
      out[k] += simd::horizontal_sum<W>(s);
    }
  }
  for (; j + W <= p; j += W) {
    const Pack b0 = load(b + j);
    for (int k = 0; k < m; ++k) {
      const Pack s = load(base + static_cast<std::size_t>(batch[k]) * p + j) * b0;
      out[k] += simd::horizontal_sum<W>(s);
    }
  }
  for (; j < p; ++j)
    for (int k = 0; k < m; ++k) out[k] += base[static_cast<std::size_t>(batch[k]) * p + j] * b[j];
}

// g += sum_k w[k] row_k
inline void batch_add_scaled(const double* base, int p, const int* batch, int m,
                             const double* w, double* g) {
  int j = 0;
  for (; j + 4 * W <= p; j += 4 * W) {
    Pack g0 = load(g + j), g1 = load(g + j + W), g2 = load(g + j + 2 * W),
         g3 = load(g + j + 3 * W);
    for (int k = 0; k < m; ++k) {
      const Pack wk = Pack{} + w[k];
      const double* r = base + static_cast<std::size_t>(batch[k]) * p + j;
      g0 += wk * load(r);
      g1 += wk * load(r + W);
      g2 += wk * load(r + 2 * W);
      g3 += wk * load(r + 3 * W);
    }
    simd::store<W>(g + j, g0);
    simd::store<W>(g + j + W, g1);
    simd::store<W>(g + j + 2 * W, g2);
    simd::store<W>(g + j + 3 * W, g3);
  }
  for (; j + W <= p; j += W) {
    Pack g0 = load(g + j);
    for (int k = 0; k < m; ++k)
      g0 += (Pack{} + w[k]) * load(base + static_cast<std::size_t>(batch[k]) * p + j);
    simd::store<W>(g + j, g0);
  }
  for (; j < p; ++j) {
    double gj = g[j];
    for (int k = 0; k < m; ++k) gj += w[k] * base[static_cast<std::size_t>(batch[k]) * p + j];
    g[j] = gj;
  }
}

// y += w x
inline void add_scaled(double w, const double* x, double* y, int p) {
  const Pack w2 = Pack{} + w;
  int j = 0;
  for (; j + 2 * W <= p; j += 2 * W) {
    simd::store<W>(y + j, load(y + j) + w2 * load(x + j));
    simd::store<W>(y + j + W, load(y + j + W) + w2 * load(x + j + W));
  }
  for (; j + W <= p; j += W) simd::store<W>(y + j, load(y + j) + w2 * load(x + j));
  for (; j < p; ++j) y[j] += w * x[j];
}

}  // namespace record_kernels

// A hint to fetch the line of `address` into the cache. Inline assembly on
// x86: GCC 12 at -O2 deletes __builtin_prefetch calls whose address depends
// on a variable offset (seen in the objdump of the DP-SGD step: the record
// prefetches were gone, only the label's remained).
inline void prefetch_address(const void* address) {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
  __asm__ __volatile__("prefetcht0 %0" : : "m"(*static_cast<const char*>(address)));
#elif defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address);
#else
  (void)address;
#endif
}

// out[i * p + j] = x'_ij (transformed), copied a tile of kTileRows records
// by kTileColumns columns at a time: the tile's source columns and its
// destination rows stay in L1 while it is copied, so every line of x and of
// out moves between memory and the core once. (Column by column, each
// destination line is written one double at a time, p times, after it has
// left the cache: 4.6-11 ns per entry measured, against about 1 tiled.)
inline void copy_transposed(const DenseDesign& x, double* out) {
  constexpr int kTileRows = 64, kTileColumns = 64;  // see inst/bench/memory.R
  const int n = x.rows(), p = x.cols();
  const int* rows = x.subset_rows();  // record i is row rows[i] of x (null: row i)
  const std::size_t stride = static_cast<std::size_t>(p);
  for (int j0 = 0; j0 < p; j0 += kTileColumns) {
    const int j1 = std::min(j0 + kTileColumns, p);
    for (int i0 = 0; i0 < n; i0 += kTileRows) {
      const int i1 = std::min(i0 + kTileRows, n);
      for (int j = j0; j < j1; ++j) {
        const ColumnTransform::Column map = x.transform().column(j);
        const double* source = x.raw_column(j);
        double* target = out + j;
        if (rows) {
          for (int i = i0; i < i1; ++i) target[i * stride] = map(source[rows[i]]);
        } else {
          for (int i = i0; i < i1; ++i) target[i * stride] = map(source[i]);
        }
      }
    }
  }
}

// Uninitialized doubles, 64-byte aligned, for a copy of x. On Linux a large
// block is 2 MB aligned and advised to be backed by transparent huge pages:
// writing 800 MB of fresh 4 KB pages took 5-7 s of page faults on the
// virtual machine measured, 2 MB pages 0.2 s (3.5 s when the kernel had to
// compact memory first). Elsewhere, or if refused, ordinary pages.
class LargeArray {
 public:
  explicit LargeArray(std::size_t count) {
    const std::size_t bytes = std::max<std::size_t>(count, 1) * sizeof(double);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::size_t kHugePage = std::size_t(1) << 21;
    if (bytes >= kHugePage) {
      const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
      void* block = nullptr;
      if (posix_memalign(&block, kHugePage, rounded) != 0) throw std::bad_alloc();
      madvise(block, rounded, MADV_HUGEPAGE);  // a hint: failure is harmless
      block_ = block;
      data_ = static_cast<double*>(block);
      return;
    }
#endif
    block_ = std::malloc(bytes + 64);
    if (!block_) throw std::bad_alloc();
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(block_);
    data_ = reinterpret_cast<double*>(address + (64 - address % 64));
  }
  ~LargeArray() { std::free(block_); }
  LargeArray(const LargeArray&) = delete;
  LargeArray& operator=(const LargeArray&) = delete;
  double* data() const { return data_; }

 private:
  void* block_ = nullptr;
  double* data_ = nullptr;
};

// Record-by-record access to x, for solvers that sample rows (DP-SGD):
// dot(i, b) = x'_i b, add_scaled(i, w, g): g += w x'_i, their batched forms,
// prefetch(i): start fetching x'_i, and for_each_in_row(i, f): f(j, x'_ij)
// for the stored entries of row i. x is copied once, transformed, to rows, so
// that a sampled record is one contiguous read: this copy is the only one of
// x that any solver makes.
template <class Design>
class RowAccess;

// Dense: one row-major copy aligned to 64 bytes, so a record is a contiguous
// array (one cache line when p = 8) and the products are plain loops.
template <>
class RowAccess<DenseDesign> {
 public:
  explicit RowAccess(const DenseDesign& x)
      : p_(x.cols()), storage_(static_cast<std::size_t>(x.rows()) * x.cols()),
        values_(storage_.data()) {
    copy_transposed(x, values_);  // writes every value once
  }

  const double* row(int i) const { return values_ + static_cast<std::size_t>(i) * p_; }

  template <class F>
  void for_each_in_row(int i, F&& f) const {
    const double* r = row(i);
    for (int j = 0; j < p_; ++j) f(j, r[j]);
  }

  double dot(int i, const double* b) const { return record_kernels::dot(row(i), b, p_); }

  void add_scaled(int i, double w, double* g) const {
    record_kernels::add_scaled(w, row(i), g, p_);
  }

  // out[k] = x'_{batch[k]} b, and g += sum_k w[k] x'_{batch[k]}, for k < m.
  void batch_dot(const int* batch, int m, const double* b, double* out) const {
    if (p_ <= kShortRow) {
      record_kernels::batch_dot(values_, p_, batch, m, b, out);
    } else {
      for (int k = 0; k < m; ++k) out[k] = dot(batch[k], b);
    }
  }
  void batch_add_scaled(const int* batch, int m, const double* w, double* g) const {
    if (p_ <= kShortRow) {
      record_kernels::batch_add_scaled(values_, p_, batch, m, w, g);
    } else {
      for (int k = 0; k < m; ++k)
        if (w[k] != 0.0) add_scaled(batch[k], w[k], g);
    }
  }

  // The first lines of the row and its last (a row of p <= 8 spans at most
  // two lines); the hardware prefetcher follows long rows.
  void prefetch(int i) const {
    const double* r = row(i);
    const int last = std::max(p_ - 1, 0);
    prefetch_address(r);
    prefetch_address(r + std::min(8, last));
    prefetch_address(r + std::min(16, last));
    prefetch_address(r + last);
  }

 private:
  static constexpr int kShortRow = 32;  // measured: p = 1000 is faster record by record
  int p_;
  LargeArray storage_;
  double* values_;
};

// Sparse: the columns copied once to compressed rows (the records of the
// design: a row subset's only).
template <>
class RowAccess<SparseDesign> {
 public:
  explicit RowAccess(const SparseDesign& x) : row_start_(x.rows() + 1, 0) {
    for (int j = 0; j < x.cols(); ++j)
      x.for_each_in_column(j, [&](int i, double) { ++row_start_[i + 1]; });
    for (int i = 0; i < x.rows(); ++i) row_start_[i + 1] += row_start_[i];
    column_.resize(row_start_[x.rows()]);
    values_.resize(row_start_[x.rows()]);
    std::vector<int> next(row_start_.begin(), row_start_.end() - 1);
    for (int j = 0; j < x.cols(); ++j)
      x.for_each_in_column(j, [&](int i, double v) {
        column_[next[i]] = j;
        values_[next[i]++] = v;
      });
  }

  template <class F>
  void for_each_in_row(int i, F&& f) const {
    for (int k = row_start_[i]; k < row_start_[i + 1]; ++k) f(column_[k], values_[k]);
  }

  double dot(int i, const double* b) const {
    double s = 0.0;
    for_each_in_row(i, [&](int j, double v) { s += v * b[j]; });
    return s;
  }
  void add_scaled(int i, double w, double* g) const {
    for_each_in_row(i, [&](int j, double v) { g[j] += w * v; });
  }
  void batch_dot(const int* batch, int m, const double* b, double* out) const {
    for (int k = 0; k < m; ++k) out[k] = dot(batch[k], b);
  }
  void batch_add_scaled(const int* batch, int m, const double* w, double* g) const {
    for (int k = 0; k < m; ++k)
      if (w[k] != 0.0) add_scaled(batch[k], w[k], g);
  }
  void prefetch(int) const {}

 private:
  std::vector<int> row_start_;  // as dgCMatrix's p: nnz fits an int
  std::vector<int> column_;
  std::vector<double> values_;
};

}  // namespace dpglmnet

#endif  // DPGLMNET_DESIGN_H
