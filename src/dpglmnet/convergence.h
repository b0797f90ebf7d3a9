// The epsilon = Inf convergence diagnostic of the stochastic solvers
// (R/solvers.R, diagnose_path): the largest |change| of a coefficient over
// the tail of a run's steps, from a snapshot taken where the tail starts.
#ifndef DPGLMNET_CONVERGENCE_H
#define DPGLMNET_CONVERGENCE_H

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace dpglmnet {

// The step at which the last 10% of `steps` (at least one step) starts.
inline long long last_tenth_start(long long steps) {
  return steps - std::max(1LL, (steps + 9) / 10);
}

// The step at which the last epoch (ceil(n / m) steps of m records) starts.
inline long long last_epoch_start(long long steps, long long n, long long batch) {
  const long long epoch = (n + batch - 1) / batch;
  return std::max(0LL, steps - epoch);
}

// max_j |now_j - before_j * before_scale| * scale over `count` coefficients
// (the scales: the snapshot as a sum of iterates, or a dual-to-primal map).
inline double largest_change(const double* now, const double* before, std::size_t count,
                             double before_scale = 1.0, double scale = 1.0) {
  double out = 0.0;
  for (std::size_t j = 0; j < count; ++j)
    out = std::max(out, std::fabs(now[j] - before[j] * before_scale) * scale);
  return out;
}

}  // namespace dpglmnet

#endif  // DPGLMNET_CONVERGENCE_H
