// Coordinate-wise smoothness constants M_j = curvature * (1/n) sum_i x_ij^2
// of the data-fitting term (Mangold et al. 2022, Sec. 5.3), of x as the
// solvers see it: through the design's column transform (design.h).
#ifndef DPGLMNET_SMOOTHNESS_H
#define DPGLMNET_SMOOTHNESS_H

#include <algorithm>
#include <vector>

#include "random.h"

namespace dpglmnet {

// Exact constants: depends on the data, so only for epsilon = Inf fits.
// With per-record weights omega_i (summing to n): curvature (1/n) sum_i
// omega_i x_ij^2, the smoothness of the weighted objective.
template <class Design>
std::vector<double> exact_smoothness(const Design& x, double curvature,
                                     const double* weights = nullptr) {
  std::vector<double> m(x.cols(), 0.0);
  for (int j = 0; j < x.cols(); ++j) {
    double sum = 0.0;
    if (weights) {
      x.for_each_in_column(j, [&](int i, double v) { sum += weights[i] * v * v; });
    } else {
      x.for_each_in_column(j, [&](int, double v) { sum += v * v; });
    }
    m[j] = curvature * sum / x.rows();
  }
  return m;
}

// Private constants (Mangold et al. 2022, App. F, eq. 126), pure
// epsilon-DP by the Laplace mechanism. Per-record values curvature * x_ij^2
// are clamped to their public bound b_j = curvature * bound_j^2 (a no-op when
// the design clamps x to the same bounds; the bound of a centred or scaled
// column must be given for the transformed values), so each lies
// in [0, b_j] and replacing one record moves the mean by at most b_j / n
// (the paper's 2 b_j / n is for values in [-b_j, b_j]); the p releases share
// epsilon equally (basic composition), hence the Laplace scale p b_j / (n
// epsilon), given per column as `scale` (R/smoothness.R: the ledger row's
// noise multiplier p / epsilon times b_j / n). The estimate is then clamped to [min(scale, b_j), b_j] (post-processing,
// free): a value above the public bound is noise, and one below one noise
// scale cannot be told from noise; every M_j stays > 0.
template <class Design>
std::vector<double> private_smoothness(const Design& x, double curvature,
                                       const double* bound, const double* scale,
                                       RandomSource& rng,
                                       std::vector<double>* laplace_scale) {
  const int n = x.rows(), p = x.cols();
  std::vector<double> m(p, 0.0);
  if (laplace_scale) laplace_scale->assign(p, 0.0);
  for (int j = 0; j < p; ++j) {
    const double cap = curvature * bound[j] * bound[j];
    double sum = 0.0;
    x.for_each_in_column(j, [&](int, double v) {
      sum += std::min(curvature * v * v, cap);
    });
    m[j] = std::min(std::max(sum / n + rng.laplace(scale[j]), std::min(scale[j], cap)), cap);
    if (laplace_scale) (*laplace_scale)[j] = scale[j];
  }
  return m;
}

}  // namespace dpglmnet

#endif  // DPGLMNET_SMOOTHNESS_H
