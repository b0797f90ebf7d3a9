// Column access to the design matrix x, dense (column-major) or sparse
// (compressed sparse column, as Matrix::dgCMatrix). Solvers are written once
// against this interface: for_each_in_column(j, f) calls f(i, x_ij) for the
// stored entries of column j (every entry when dense, the non-zeros when
// sparse), so a coordinate step costs O(n) dense and O(nnz of column j) sparse.
#ifndef DPGLMNET_DESIGN_H
#define DPGLMNET_DESIGN_H

#include <cstddef>
#include <vector>

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
};

class DenseDesign {
 public:
  DenseDesign(const double* values, int n, int p, ColumnTransform transform = {})
      : values_(values), n_(n), p_(p), transform_(transform) {}
  int rows() const { return n_; }
  int cols() const { return p_; }
  const ColumnTransform& transform() const { return transform_; }
  static constexpr bool is_sparse = false;
  const double* column(int j) const {
    return values_ + static_cast<std::size_t>(j) * n_;
  }

  template <class F>
  void for_each_in_column(int j, F&& f) const {
    const double* values = column(j);
    for (int i = 0; i < n_; ++i) f(i, values[i]);
  }

 private:
  const double* values_;
  int n_, p_;
  ColumnTransform transform_;
};

class SparseDesign {
 public:
  // row_index / column_start / values are dgCMatrix's slots i, p and x.
  SparseDesign(const int* row_index, const int* column_start,
               const double* values, int n, int p, ColumnTransform transform = {})
      : row_index_(row_index), column_start_(column_start), values_(values),
        n_(n), p_(p), transform_(transform) {}
  int rows() const { return n_; }
  int cols() const { return p_; }
  const ColumnTransform& transform() const { return transform_; }
  static constexpr bool is_sparse = true;

  template <class F>
  void for_each_in_column(int j, F&& f) const {
    for (int k = column_start_[j]; k < column_start_[j + 1]; ++k)
      f(row_index_[k], values_[k]);
  }

 private:
  const int* row_index_;
  const int* column_start_;
  const double* values_;
  int n_, p_;
  ColumnTransform transform_;
};

// Record-by-record access to sparse x, for solvers that sample rows
// (DP-SGD): for_each_in_row(i, f) calls f(j, x_ij) for the stored entries of
// row i. The columns are copied once to compressed rows, so a sampled record
// is one contiguous read (dense x gets its own aligned row-major copy in
// dpsgd.h).
template <class Design>
class RowAccess;

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

 private:
  std::vector<int> row_start_, column_;
  std::vector<double> values_;
};

}  // namespace dpglmnet

#endif  // DPGLMNET_DESIGN_H
