// Report-noisy-max with Gumbel noise: the exponential mechanism.
//
// argmax_k (u_k + G_k) with G_k i.i.d. Gumbel(0, beta) selects k with
// probability proportional to exp(u_k / beta) (the Gumbel-max trick), which
// is the exponential mechanism with epsilon = 2 Delta / beta for utilities
// of replace-one sensitivity Delta (McSherry & Talwar 2007). Its range is
// bounded, so it is also (epsilon^2 / 8)-zCDP (Cesar & Rogers 2021), which
// the accountant uses when many selections compose (accountant.h).
#ifndef DPGLMNET_NOISY_MAX_H
#define DPGLMNET_NOISY_MAX_H

#include <cmath>
#include <limits>

#include "random.h"

namespace dpglmnet {

// A standard Gumbel draw -log(-log U), U uniform on (0, 1).
inline double standard_gumbel(RandomSource& rng) {
  double u;
  do {
    u = rng.uniform_open0();
  } while (u >= 1.0);
  return -std::log(-std::log(u));
}

// The index of the largest utility[k] + Gumbel(0, scale), k < count
// (scale 0: the exact argmax, for epsilon = Inf).
inline int report_noisy_max(const double* utility, int count, double scale,
                            RandomSource& rng) {
  int best = -1;
  double best_value = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < count; ++k) {
    // A NaN utility is never picked (callers clip utilities so that none
    // arises; this keeps a NaN from deciding the choice deterministically).
    const double u = std::isnan(utility[k]) ? -std::numeric_limits<double>::infinity()
                                            : utility[k];
    const double value = u + (scale > 0.0 ? scale * standard_gumbel(rng) : 0.0);
    if (best < 0 || value > best_value) {
      best = k;
      best_value = value;
    }
  }
  return best;
}

}  // namespace dpglmnet

#endif  // DPGLMNET_NOISY_MAX_H
