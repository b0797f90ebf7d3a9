// The clip every sensitivity rests on, and the record norms the L2 clips of
// DP-SGD, DP-SCD and noisy mirror descent are computed from: written once.
#ifndef DPGLMNET_CLIP_H
#define DPGLMNET_CLIP_H

#include <cmath>
#include <limits>
#include <vector>

namespace dpglmnet {

// clamp(v, -c, c), written so that a NaN (diverged iterates) becomes c: the
// clipped value stays in [-c, c] whatever happens, or the sensitivity the
// noise is calibrated to (2 c under replace-one) no longer holds. Branch-free
// (minsd / maxsd): std::min / max compiled to branches that mispredicted when
// clipping binds for about half the records (5x slower). c = +Inf: no clip.
inline double clip(double v, double c) {
  v = v < c ? v : c;
  return v > -c ? v : -c;
}

// Squared L2 norms of the records as the solver reads them, ||x_i||^2, plus
// 1 when `with_one` (the intercept's constant feature): one sweep of the
// columns, O(nnz) for sparse x.
template <class Design>
std::vector<double> record_squared_norms(const Design& x, bool with_one) {
  std::vector<double> out(x.rows(), with_one ? 1.0 : 0.0);
  for (int j = 0; j < x.cols(); ++j)
    x.for_each_in_column(j, [&](int i, double v) { out[i] += v * v; });
  return out;
}

// The bound on |d_i| that clips the gradient d_i (x_i, 1) of record i to L2
// norm C: C / ||(x_i, 1)|| (+Inf for a zero record, whose gradient is 0).
inline double record_derivative_cap(double clip_norm, double squared_norm) {
  return squared_norm > 0.0 ? clip_norm / std::sqrt(squared_norm)
                            : std::numeric_limits<double>::infinity();
}

}  // namespace dpglmnet

#endif  // DPGLMNET_CLIP_H
