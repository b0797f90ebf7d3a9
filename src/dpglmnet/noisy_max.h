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

#include <algorithm>
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

// The index k < count of the largest value(k), value(k) drawn in index
// order (so the noise is drawn in the same order whatever the values); the
// first of tied values wins. The loop of both noisy maxes below.
template <class Value>
int noisy_argmax(int count, Value&& value) {
  int best = -1;
  double best_value = -std::numeric_limits<double>::infinity();
  for (int k = 0; k < count; ++k) {
    const double v = value(k);
    if (best < 0 || v > best_value) {
      best = k;
      best_value = v;
    }
  }
  return best;
}

// The index of the largest utility[k] + Gumbel(0, scale), k < count
// (scale 0: the exact argmax, for epsilon = Inf).
//
// Computed as the argmax of (utility[k] - top) / scale + Gumbel(0, 1), top
// the largest utility: the same choice (a positive affine map of every
// value), but no sum can overflow, whatever the magnitude of the utilities
// and of the scale. With u + scale G, a scale near the largest double made
// every value infinite, and a tie of infinities always went to the first
// index, so some utilities could never be chosen. An infinite scale is the
// mechanism's limit, the uniform choice (every centred utility / scale is
// 0). One Gumbel draw per index whenever scale > 0, as before.
inline int report_noisy_max(const double* utility, int count, double scale,
                            RandomSource& rng) {
  constexpr double minus_infinity = -std::numeric_limits<double>::infinity();
  // A NaN utility is never picked (callers clip utilities so that none
  // arises; this keeps a NaN from deciding the choice deterministically).
  auto clean = [&](int k) { return std::isnan(utility[k]) ? minus_infinity : utility[k]; };
  double top = minus_infinity;
  for (int k = 0; k < count; ++k) top = std::max(top, clean(k));
  return noisy_argmax(count, [&](int k) {
    const double u = clean(k);
    // <= 0, or -Inf for a NaN or -Inf utility (or any finite one below +Inf)
    const double centred = (u == top) ? 0.0 : u - top;
    if (!(scale > 0.0)) return centred;
    const double scaled = (centred == minus_infinity) ? minus_infinity
                          : (std::isinf(scale) ? 0.0 : centred / scale);
    return scaled + standard_gumbel(rng);
  });
}

// Report-noisy-max with Laplace noise of the given scale (0: the exact
// argmax): the vertex choice of the variance-reduced Frank-Wolfe
// (frank_wolfe_vr.h; Asi et al. 2021, Algorithm 3). A NaN utility is never
// picked.
inline int report_noisy_max_laplace(const double* utility, int count, double scale,
                                    RandomSource& rng) {
  return noisy_argmax(count, [&](int k) {
    const double u = std::isnan(utility[k]) ? -std::numeric_limits<double>::infinity()
                                            : utility[k];
    return u + (scale > 0.0 ? rng.laplace(scale) : 0.0);
  });
}

}  // namespace dpglmnet

#endif  // DPGLMNET_NOISY_MAX_H
