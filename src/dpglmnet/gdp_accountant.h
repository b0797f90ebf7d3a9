// Exact accounting for compositions of Gaussian mechanisms via Gaussian
// differential privacy (GDP).
//
// A Gaussian mechanism whose noise multiplier is z (noise sd divided by the
// L2 sensitivity under replace-one) is exactly (1/z)-GDP, and R of them
// composed adaptively are exactly mu-GDP with mu = sqrt(R) / z (Dong, Roth &
// Su 2022, Cor. 3.3). mu-GDP is equivalent to (epsilon, delta(epsilon))-DP
// for every epsilon >= 0 with (Balle & Wang 2018, Thm. 8; Dong et al. Cor. 2.13)
//   delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).
// Everything below evaluates that curve in log space, and every inversion
// returns the end of its bisection bracket that is safe for privacy.
#ifndef DPGLMNET_GDP_ACCOUNTANT_H
#define DPGLMNET_GDP_ACCOUNTANT_H

#include <cmath>
#include <limits>

#include "bisection.h"

namespace dpglmnet {
namespace gdp {

constexpr double kRelativeTolerance = 1e-10;

// log Phi(x), accurate in both tails.
inline double log_normal_cdf(double x) {
  if (std::isnan(x)) return x;
  if (x == std::numeric_limits<double>::infinity()) return 0.0;
  if (x == -std::numeric_limits<double>::infinity())
    return -std::numeric_limits<double>::infinity();
  const double root_half = 0.70710678118654752440;
  if (x > 5.0) return std::log1p(-0.5 * std::erfc(x * root_half));
  if (x >= -20.0) return std::log(0.5 * std::erfc(-x * root_half));
  // Mills-ratio asymptotic series (Abramowitz & Stegun 26.2.12); at x <= -20
  // the first six terms are accurate to about 1e-12 relative.
  const double inv_x2 = 1.0 / (x * x);
  double term = 1.0, series = 1.0;
  for (int k = 1; k <= 6; ++k) {
    term *= -(2.0 * k - 1.0) * inv_x2;
    series += term;
  }
  return -0.5 * x * x - std::log(-x) - 0.91893853320467274178 +
         std::log(series);
}

// log delta(eps) for mu-GDP; -Inf when delta is 0.
inline double log_delta(double mu, double epsilon) {
  const double inf = std::numeric_limits<double>::infinity();
  if (!(mu > 0.0)) return -inf;        // mu = 0: perfectly private
  if (epsilon == inf) return -inf;
  if (mu == inf) return 0.0;           // delta = 1
  const double a = log_normal_cdf(-epsilon / mu + mu / 2.0);
  const double b = epsilon + log_normal_cdf(-epsilon / mu - mu / 2.0);
  if (!(b < a)) return -inf;           // rounding: the true value is ~0
  return a + std::log1p(-std::exp(b - a));
}

inline double delta(double mu, double epsilon) {
  return std::exp(log_delta(mu, epsilon));
}

// Smallest epsilon >= 0 with delta(epsilon) <= target delta, to relative
// kRelativeTolerance; the upper end of the bracket, so the reported epsilon
// is never below the true one.
inline double epsilon(double mu, double target_delta) {
  const double inf = std::numeric_limits<double>::infinity();
  if (!(mu > 0.0)) return 0.0;
  if (mu == inf || !(target_delta > 0.0)) return inf;
  if (target_delta >= 1.0) return 0.0;
  const double log_target = std::log(target_delta);
  if (log_delta(mu, 0.0) <= log_target) return 0.0;
  return smallest_admissible(
      [&](double eps) { return log_delta(mu, eps) <= log_target; }, 1.0,
      kRelativeTolerance);
}

// Largest mu with delta(epsilon) <= target delta; the lower end of the
// bracket, so the mechanism is never less private than asked.
inline double mu(double target_epsilon, double target_delta) {
  const double inf = std::numeric_limits<double>::infinity();
  if (target_epsilon == inf) return inf;
  if (!(target_delta > 0.0)) return 0.0;
  if (target_delta >= 1.0) return inf;
  const double log_target = std::log(target_delta);
  return largest_admissible(
      [&](double m) { return log_delta(m, target_epsilon) <= log_target; }, 1.0,
      kRelativeTolerance);
}

}  // namespace gdp
}  // namespace dpglmnet

#endif  // DPGLMNET_GDP_ACCOUNTANT_H
