// The linear predictor of a fitted path at the records of a design (x read
// through its transform, e.g. clamped to x.bounds; a row subset reads only
// its rows): what cv.dpglmnet() needs of the validation records, computed
// where x is, without a copy of them.
#ifndef DPGLMNET_LINEAR_PREDICTOR_H
#define DPGLMNET_LINEAR_PREDICTOR_H

#include <algorithm>
#include <cstddef>

namespace dpglmnet {

// out[k n + i] = sum_j x'_ij beta[k p + j] + a0[k] for the n = x.rows()
// records and the K points of the path (beta: p x K, column-major). Each
// column of out accumulates the terms of the non-zero beta_jk in increasing
// j, record by record, then adds the intercept: the order of R's
// x %*% beta + a0 with Matrix's sparse beta (predict()), so the values are
// the same number for number. O(K nnz(x) + K n) work, nothing allocated.
template <class Design>
void linear_predictor(const Design& x, const double* beta, const double* a0, int K,
                      double* out) {
  const int n = x.rows(), p = x.cols();
  for (int k = 0; k < K; ++k) {
    double* column = out + static_cast<std::size_t>(k) * n;
    std::fill(column, column + n, 0.0);
    for (int j = 0; j < p; ++j) {
      const double b = beta[static_cast<std::size_t>(k) * p + j];
      if (b == 0.0) continue;
      x.for_each_in_column(j, [&](int i, double v) { column[i] += v * b; });
    }
    for (int i = 0; i < n; ++i) column[i] += a0[k];
  }
}

}  // namespace dpglmnet

#endif  // DPGLMNET_LINEAR_PREDICTOR_H
