// The signal check of solver = "auto" (R/signal.R): how far the features'
// clipped gradients at the mean model are from 0, released as one Gaussian
// norm. For a canonical GLM (gaussian, binomial) the derivative of the loss
// at the mean model (b = 0, intercept at the link of the mean m) is m - y_i
// whatever the family, so coordinate j's clipped gradient there is
//   g_j = (1/n) sum_i clamp((m - y_i) x~_ij, -C_j, C_j),
// the terms DP-CD clips. m is 0 for a response centred by its released mean
// (the standardized gaussian y), or the released mean of y clamped to its
// public interval [lower, upper] (binomial: the proportion of ones,
// replace-one sensitivity (upper - lower) / n). Replacing one record moves
// each g_j by at most 2 C_j / n, so the vector g by at most
// 2 sqrt(sum_j C_j^2) / n in L2, and its norm (1-Lipschitz) by no more: the
// released norm's sensitivity. One pass over x (O(n p) dense, O(nnz)
// sparse), no allocation.
#ifndef DPGLMNET_SIGNAL_CHECK_H
#define DPGLMNET_SIGNAL_CHECK_H

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "private_mean.h"
#include "random.h"

namespace dpglmnet {

struct SignalCheckSettings {
  const double* clip;    // C_j, one per feature
  bool release_mean;     // m released (true) or 0 (a centred response)
  double mean_lower, mean_upper;  // y's public interval, for the mean
  double mean_sd;        // the Gaussian noise sd of the released mean
  double norm_sd;        // the Gaussian noise sd of the released norm
};

struct SignalCheck {
  double norm;  // the released norm
  double mean;  // the released mean (0 when not released)
};

// The mean (when released) is drawn first, then the norm.
template <class Design>
SignalCheck release_signal_check(const Design& x, const double* y,
                                 const SignalCheckSettings& s, RandomSource& rng) {
  const int n = x.rows();
  double m = 0.0;
  if (s.release_mean) {
    m = private_clamped_mean(y, static_cast<std::size_t>(n), s.mean_lower, s.mean_upper,
                             MeanNoise::gaussian, s.mean_sd, rng)
            .released;
    // (post-processing: the mean model's mean lies in y's interval)
    m = std::min(std::max(m, s.mean_lower), s.mean_upper);
  }
  double squares = 0.0;
  for (int j = 0; j < x.cols(); ++j) {
    const double c = s.clip[j];
    double sum = 0.0;
    x.for_each_in_column(j, [&](int i, double v) {
      sum += std::min(std::max((m - y[i]) * v, -c), c);
    });
    const double g = sum / n;
    squares += g * g;
  }
  double norm = std::sqrt(squares);
  if (s.norm_sd > 0.0) norm += s.norm_sd * rng.gaussian();
  return {norm, m};
}

}  // namespace dpglmnet

#endif  // DPGLMNET_SIGNAL_CHECK_H
