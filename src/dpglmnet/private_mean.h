// The released mean of a response clamped to a public interval [lower,
// upper]: the intercept-only fit (R/intercept.R). Replacing one record moves
// the mean of values in [lower, upper] by at most (upper - lower) / n, the
// replace-one sensitivity; the caller passes the noise scale (Laplace: that
// sensitivity over epsilon, pure epsilon-DP by the Laplace mechanism,
// Dwork et al. 2006; Gaussian: its sd). One pass, O(n), no allocation.
#ifndef DPGLMNET_PRIVATE_MEAN_H
#define DPGLMNET_PRIVATE_MEAN_H

#include <algorithm>
#include <cstddef>

#include "random.h"

namespace dpglmnet {

enum class MeanNoise { laplace, gaussian };

struct PrivateMean {
  double released;  // the clamped mean plus the noise
  double noise;     // the noise drawn (for tests; never reported to users)
};

// `scale`: the Laplace scale b (density exp(-|t| / b) / 2b) or the Gaussian
// sd; 0 draws nothing (epsilon = Inf). The values are clamped here (a
// per-record map, free), so the sensitivity holds whatever the caller passed.
inline PrivateMean private_clamped_mean(const double* y, std::size_t n, double lower,
                                        double upper, MeanNoise kind, double scale,
                                        RandomSource& rng) {
  double sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) sum += std::min(std::max(y[i], lower), upper);
  const double mean = n > 0 ? sum / static_cast<double>(n) : 0.0;
  double noise = 0.0;
  if (scale > 0.0) {
    noise = kind == MeanNoise::laplace ? rng.laplace(scale) : scale * rng.gaussian();
  }
  return {mean + noise, noise};
}

}  // namespace dpglmnet

#endif  // DPGLMNET_PRIVATE_MEAN_H
