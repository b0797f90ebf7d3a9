// The bisections of the package: the one every calibration uses (privacy
// calibrations must round toward more privacy, so these return the end of
// the final bracket that satisfies the condition, never the midpoint), and
// the noisy-count bisection of the private quantiles.
#ifndef DPGLMNET_BISECTION_H
#define DPGLMNET_BISECTION_H

#include <cmath>
#include <limits>

namespace dpglmnet {

// Smallest t > 0 with admissible(t), for a condition that holds for every t
// above some threshold (admissible is monotone increasing in t). Brackets by
// doubling or halving from `guess`, then bisects in log t until the bracket's
// relative width is below `tolerance`, and returns its admissible (upper) end.
// Returns `floor` when admissible(floor) holds (nothing smaller is needed)
// and +Inf when even `ceiling` is not admissible.
template <class Condition>
double smallest_admissible(Condition admissible, double guess, double tolerance = 1e-10,
                           double floor = 1e-300, double ceiling = 1e300) {
  const double inf = std::numeric_limits<double>::infinity();
  if (!(guess > 0.0) || !std::isfinite(guess)) guess = 1.0;
  double lo, hi;
  if (admissible(guess)) {
    hi = guess;
    lo = guess * 0.5;
    while (admissible(lo)) {
      hi = lo;
      lo *= 0.5;
      if (lo < floor) return admissible(floor) ? floor : hi;
    }
  } else {
    lo = guess;
    hi = guess * 2.0;
    while (!admissible(hi)) {
      lo = hi;
      hi *= 2.0;
      if (hi > ceiling) return inf;
    }
  }
  // Invariant: admissible(hi), not admissible(lo).
  for (int it = 0; it < 400 && hi - lo > tolerance * hi; ++it) {
    const double mid = std::sqrt(lo * hi);
    if (admissible(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

// Largest t > 0 with admissible(t), for a condition that holds for every t
// below some threshold; returns the admissible (lower) end of the bracket,
// 0 when not even `floor` is admissible and +Inf when `ceiling` still is.
template <class Condition>
double largest_admissible(Condition admissible, double guess, double tolerance = 1e-10,
                          double floor = 1e-300, double ceiling = 1e300) {
  // t admissible <=> 1/t satisfies the increasing condition below.
  const double inverse = smallest_admissible(
      [&](double u) { return admissible(1.0 / u); }, 1.0 / guess, tolerance,
      1.0 / ceiling, 1.0 / floor);
  if (inverse == std::numeric_limits<double>::infinity()) return 0.0;
  if (inverse <= 1.0 / ceiling) return std::numeric_limits<double>::infinity();
  return 1.0 / inverse;
}

// A private quantile search (one noisy count per step).
struct QuantileSearch {
  double level;       // in (0, 1): the target is level * n records at or below
  double range;       // > 1: the search starts on [upper / range, upper]
  int steps;          // bisection steps (releases) per searched quantity
  double count_sd;    // noise sd of each count (0: exact, epsilon = Inf only)
};

// The noisy-count bisection over t in [upper / range, upper] on a log scale
// (the private quantiles of magnitude_quantiles.h); count_below(t) returns
// the exact #{i : v_i <= t}, and each step releases it plus N(0, count_sd^2)
// drawn from rng (a RandomSource). Unlike the calibrations above it returns
// the midpoint of the final bracket: a released value, not a safe end.
template <class CountBelow, class Rng>
double noisy_log_bisection(CountBelow&& count_below, double n, double upper,
                           const QuantileSearch& search, Rng& rng) {
  double a = std::log(upper / search.range), b = std::log(upper);
  const double target = search.level * n;
  for (int s = 0; s < search.steps; ++s) {
    const double t = 0.5 * (a + b);
    double noisy = count_below(std::exp(t));
    if (search.count_sd > 0.0) noisy += search.count_sd * rng.gaussian();
    if (noisy < target) a = t;
    else b = t;
  }
  return std::exp(0.5 * (a + b));
}

}  // namespace dpglmnet

#endif  // DPGLMNET_BISECTION_H
