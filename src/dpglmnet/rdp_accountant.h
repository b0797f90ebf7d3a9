// Renyi differential privacy (RDP) accounting for subsampled Gaussian
// mechanisms (Mironov 2017, "Renyi Differential Privacy").
//
//  * Poisson subsampling (add/remove neighbours): the exact RDP of the sampled
//    Gaussian mechanism, Mironov, Talwar & Zhang 2019, "Renyi Differential
//    Privacy of the Sampled Gaussian Mechanism" (arXiv:1908.10530), Sec. 3.3,
//    computed as TensorFlow Privacy / Opacus `_compute_rdp` do, but with a
//    safe stopping rule for the fractional-order series.
//  * Fixed-size sampling without replacement (replace-one neighbours): the
//    general upper bound of Wang, Balle & Kasiviswanathan 2019, "Subsampled
//    Renyi Differential Privacy and Analytical Moments Accountant"
//    (arXiv:1808.00087), instantiated for the Gaussian (eps(inf) = inf).
//  * Conversion RDP -> (epsilon, delta): Balle et al. 2020, "Hypothesis
//    testing interpretations and Renyi differential privacy", Prop. 12
//    (as in Opacus `get_privacy_spent`).
//
// Noise multiplier z = sigma / (L2 sensitivity). Everything that can overflow
// is computed in log space. Whenever a computation cannot be completed
// reliably the functions err on the side of privacy (return +Inf RDP /
// epsilon, or more noise).
#ifndef DPGLMNET_RDP_ACCOUNTANT_H
#define DPGLMNET_RDP_ACCOUNTANT_H

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

namespace dpglmnet {
namespace rdp {

namespace detail {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kLogTwo = 0.69314718055994530942;
constexpr double kLogSqrtPi = 0.57236494292470008707;  // 0.5 * log(pi)
constexpr double kPi = 3.14159265358979323846;
constexpr double kLogSqrtTwoPi = 0.91893853320467274178;  // 0.5 * log(2 pi)
// Maximal number of terms of the fractional-order series before giving up
// (and returning +Inf, which is safe).
constexpr long kMaxSeriesTerms = 100000;
// A term is negligible once it is below log(running total) - kSeriesTol.
constexpr double kSeriesTol = 30.0;

inline bool is_integer(double x) {
  return std::isfinite(x) && std::floor(x) == x;
}

// log |C(n, k)| for real n and integer k >= 0 (generalised binomial
// coefficient n (n-1) ... (n-k+1) / k!), via lgamma, which returns
// log|Gamma| also at negative non-integer arguments. For integer n the caller
// must ensure 0 <= k <= n.
inline double log_abs_binom(double n, double k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

}  // namespace detail

// log(exp(a) + exp(b)).
inline double log_add(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return detail::kNaN;
  if (a == -detail::kInf) return b;
  if (b == -detail::kInf) return a;
  if (a == detail::kInf || b == detail::kInf) return detail::kInf;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::fabs(a - b)));
}

// log(exp(a) - exp(b)) for a >= b; -Inf if a == b, NaN if a < b.
inline double log_sub(double a, double b) {
  if (std::isnan(a) || std::isnan(b) || a < b) return detail::kNaN;
  if (b == -detail::kInf) return a;
  if (a == b) return -detail::kInf;
  if (a == detail::kInf) return detail::kInf;
  const double d = b - a;  // < 0
  // log(1 - e^d): expm1 is accurate for d near 0, log1p for d very negative.
  return a + (d > -detail::kLogTwo ? std::log(-std::expm1(d))
                                   : std::log1p(-std::exp(d)));
}

// log(erfc(x)), accurate for large x where std::erfc underflows. For x > 25
// uses the asymptotic expansion (Abramowitz & Stegun 7.1.23)
//   erfc(x) ~ exp(-x^2) / (x sqrt(pi)) * sum_n (-1)^n (2n-1)!! / (2x^2)^n,
// whose truncation error after the 1/(2x^2)^5 term is < 1e-12 relative.
inline double log_erfc(double x) {
  if (std::isnan(x)) return x;
  if (x > 25.0) {
    const double x2 = x * x;
    const double r = 1.0 / (2.0 * x2);
    const double series =
        1.0 - r * (1.0 - 3.0 * r * (1.0 - 5.0 * r * (1.0 - 7.0 * r * (1.0 - 9.0 * r))));
    return -x2 - std::log(x) - detail::kLogSqrtPi + std::log(series);
  }
  return std::log(std::erfc(x));
}

namespace detail {

// log A_alpha for integer alpha (Mironov, Talwar & Zhang 2019, Sec. 3.3,
// the binomial expansion of A_alpha; TF Privacy `_compute_log_a_int`):
//   A_alpha = sum_{i=0}^{alpha} C(alpha,i) q^i (1-q)^(alpha-i)
//                                 exp((i^2 - i) / (2 z^2)).
inline double log_a_int(double q, double z, double alpha) {
  const double log_q = std::log(q), log_1mq = std::log1p(-q);
  const double two_z2 = 2.0 * z * z;
  double log_a = -kInf;
  const long n = static_cast<long>(alpha);
  for (long k = 0; k <= n; ++k) {
    const double i = static_cast<double>(k);
    const double s = log_abs_binom(alpha, i) + i * log_q + (alpha - i) * log_1mq +
                     (i * i - i) / two_z2;
    log_a = log_add(log_a, s);
  }
  return log_a;
}

// log A_alpha for fractional alpha (Mironov, Talwar & Zhang 2019, Sec. 3.3;
// TF Privacy `_compute_log_a_frac`). With z0 = z^2 log(1/q - 1) + 1/2 the
// integral defining A_alpha is split at z0 and each half expanded with the
// generalised binomial series:
//   A = sum_{i>=0} C(alpha,i) [ q^i (1-q)^(alpha-i) e^{(i^2-i)/(2z^2)}
//                                 * erfc((i - z0)/(sqrt2 z)) / 2
//                             + q^(alpha-i) (1-q)^i e^{(j^2-j)/(2z^2)}
//                                 * erfc((z0 - j)/(sqrt2 z)) / 2 ],  j = alpha-i.
// Each bracket equals |C(alpha,i)| (1-q)^alpha E[u^i 1{u<=1}] (resp. the
// analogous term with q^alpha on the other half), with 0 <= u <= 1, so for
// i >= ceil(alpha) the magnitudes are nonincreasing and the signs of
// C(alpha,i) alternate: truncating there errs by at most the first omitted
// term (Leibniz). Stopping rule: only once i > alpha, the terms decrease and
// the current term is below log(running total) - 30. (Breaking as soon as
// both terms are below -30, as TF/Opacus do, can stop at i = 0 and badly
// underestimate, e.g. q = 0.4, z = 12, alpha = 58.75.) If the rule is not met
// within kMaxSeriesTerms terms, returns +Inf.
inline double log_a_frac(double q, double z, double alpha) {
  const double log_q = std::log(q), log_1mq = std::log1p(-q);
  const double z2 = z * z, two_z2 = 2.0 * z * z;
  const double z0 = z2 * (log_1mq - log_q) + 0.5;  // z^2 log(1/q - 1) + 1/2
  const double sqrt2_z = std::sqrt(2.0) * z;
  const double first_alternating = std::ceil(alpha);
  const double log_half = -kLogTwo;
  double log_pos = -kInf, log_neg = -kInf;  // sums of positive / negative terms
  double prev = -kInf;
  for (long k = 0; k < kMaxSeriesTerms; ++k) {
    const double i = static_cast<double>(k);
    const double j = alpha - i;
    const double log_coef = log_abs_binom(alpha, i);
    // sign of C(alpha,i): (-1)^(i - ceil(alpha)) for i >= ceil(alpha), else +.
    const bool negative =
        i > first_alternating && (static_cast<long>(i - first_alternating) % 2 == 1);
    const double log_t0 = log_coef + i * log_q + j * log_1mq;
    const double log_t1 = log_coef + j * log_q + i * log_1mq;
    const double log_e0 = log_half + log_erfc((i - z0) / sqrt2_z);
    const double log_e1 = log_half + log_erfc((z0 - j) / sqrt2_z);
    const double log_s0 = log_t0 + (i * i - i) / two_z2 + log_e0;
    const double log_s1 = log_t1 + (j * j - j) / two_z2 + log_e1;
    const double term = log_add(log_s0, log_s1);
    if (std::isnan(term)) return kInf;
    if (negative) log_neg = log_add(log_neg, term);
    else log_pos = log_add(log_pos, term);
    if (i > alpha && term < prev && log_pos > log_neg) {
      const double total = log_sub(log_pos, log_neg);
      if (term < total - kSeriesTol) return total;
    }
    prev = term;
  }
  return kInf;
}

// Orders up to which Theorem 27's refinement is evaluated (as dp_accounting);
// above it the Theorem 9 terms alone are used (valid, looser).
constexpr int kMaxRefinedOrder = 256;
// Half-width of the quadrature window around each mode of the integrand
// below: with curvature >= 1 the integrand is below e^-32 of its peak there.
constexpr double kQuadratureWindow = 8.0;
// Relative size, in log, allowed for the trapezoid rule's discretisation
// error bound (e^-30 ~ 1e-13).
constexpr double kQuadratureLogTolerance = 30.0;

// log of the l-th forward difference at 0, for even l >= 2, of
//   phi(x) = exp((x - 1) eps(x)) = exp(x (x - 1) / (2 z^2)),
// eps(x) = x / (2 z^2) the Gaussian's RDP: the quantity in Theorem 27 of
// Wang, Balle & Kasiviswanathan (2019, arXiv:1808.00087), as dp_accounting
// `_get_forward_diffs` evaluates it (at l = 2 it is e^{eps(2)} - 1, so that
// 4 D_2 is the 4 (e^{eps(2)} - 1) of their Theorem 9). With L = p/q the
// privacy-loss ratio of N(1, z^2) against N(0, z^2), E_q[L^x] = phi(x), so
// the difference is E_q[(L - 1)^l] (not the difference at 1, E_p[(L - 1)^l],
// which is larger). Under q, L = exp(s (t - t0)),
// t ~ N(0,1), s = 1/z, t0 = s/2, and
//   E_q[(L - 1)^l] = (2 pi)^{-1/2} int exp(g(t)) dt,
//   g(t) = -t^2/2 + l log|expm1(s (t - t0))|,
// a non-negative integrand (the alternating binomial sum that defines the
// difference loses every digit in double precision at large z). g is concave
// on each side of t0 with -g'' >= 1, so it has one mode on each side. The
// integral is the trapezoid sum on the lattice t0 + k h over +-8 around each
// mode, plus upper bounds for everything left out:
//  * outside the windows g is monotone, so the tails are at most
//    e^{g(edge)} / |g'(edge)| and the stretches between the windows and t0
//    their number of lattice points times h e^{g(edge)};
//  * the lattice sum over the whole line differs from the integral by at most
//    2 sum_{k>=1} |F(2 pi k / h)| (Poisson summation), where the Fourier
//    transform of the integrand obeys |F(w)| <= e^{-w^2/2} E_q[(L + 1)^l]
//    <= e^{-w^2/2} 2^{l-1} (1 + phi(l)); h is chosen to make this < e^-30 of
//    the result.
// The log is then raised by a bound on the rounding error. So the result is
// never below the true value; for l <= 256 it is within 1e-9 of it
// (relative) for z >= 0.3 and within 1e-7 for z >= 0.05 (the rounding bound
// grows like (l / z)^2).
// Returns NaN where that cannot be ensured (z below about 3e-4 at l = 256,
// where Theorem 9's term is the smaller anyway): the caller then keeps it.
inline double log_gaussian_even_forward_difference(double z, int l) {
  if (!(z > 0.0) || !std::isfinite(z) || l < 2 || l % 2 != 0) return kNaN;
  const double s = 1.0 / z, t0 = 0.5 * s, ll = static_cast<double>(l);
  // Positions are offsets d = t - t0 from the zero of the integrand, so that
  // s d is exact up to rounding (no cancellation in s t - s^2/2).
  auto log_abs_expm1 = [](double u) {  // log|e^u - 1| without overflow
    return u > 0.0 ? u + std::log(-std::expm1(-u)) : std::log(-std::expm1(u));
  };
  auto g = [&](double d) {
    const double t = t0 + d;
    return -0.5 * t * t + ll * log_abs_expm1(s * d);
  };
  // g'(d) = -t + l s e^u / (e^u - 1), u = s d; decreasing on each side.
  auto slope = [&](double d) { return -(t0 + d) - ll * s / std::expm1(-s * d); };
  // Bound on the rounding error of g(d), in units of the machine epsilon.
  auto rounding_scale = [&](double d) {
    const double t = t0 + d, u = s * d;
    return 0.5 * t * t + ll * (std::fabs(log_abs_expm1(u)) + 1.0 + std::fabs(u));
  };
  // Mode on the side of sign `side`: bisection on the slope, to 1e-6.
  auto mode = [&](double side) {
    double near = 0.0, far = side;
    for (int it = 0; it < 2000 && side * slope(far) > 0.0; ++it) {
      near = far;
      far *= 2.0;
    }
    for (int it = 0; it < 200 && std::fabs(far - near) > 1e-6 * (1.0 + std::fabs(far)); ++it) {
      const double mid = 0.5 * (near + far);
      if (side * slope(mid) > 0.0) near = mid; else far = mid;
    }
    return 0.5 * (near + far);
  };
  const double modes[2] = {mode(-1.0), mode(1.0)};
  // Laplace estimate of log int e^g, to choose the step.
  double log_estimate = -kInf;
  for (double m : modes) {
    const double u = std::fabs(s * m);
    const double e = std::exp(-u), em1 = std::expm1(-u);
    const double curvature = 1.0 + ll * s * s * e / (em1 * em1);
    log_estimate = std::max(log_estimate,
                            g(m) + kLogSqrtTwoPi - 0.5 * std::log(curvature));
  }
  // log of 2 sqrt(2 pi) 2^{l-1} (1 + phi(l)): the Poisson-summation error is
  // at most that times e^{-(2 pi / h)^2 / 2} (times 1 + 1e-30 for h <= 1/2).
  const double log_poisson_factor =
      kLogTwo + kLogSqrtTwoPi + (ll - 1.0) * kLogTwo +
      log_add(0.0, ll * (ll - 1.0) / (2.0 * z * z)) + 1e-12;
  if (!std::isfinite(log_estimate) || !std::isfinite(log_poisson_factor)) return kNaN;
  auto step_for = [&](double log_integral) {
    const double exponent = log_poisson_factor - log_integral + kQuadratureLogTolerance;
    return std::min(0.5, 2.0 * kPi / std::sqrt(2.0 * std::max(exponent, 1.0)));
  };
  double h = step_for(log_estimate);
  for (int attempt = 0; attempt < 8; ++attempt) {
    double top = -kInf, total = 0.0;  // running log-sum-exp: total * e^top
    auto add = [&](double log_value) {
      if (!(log_value > -kInf)) return;
      if (log_value > top) { total = total * std::exp(top - log_value) + 1.0; top = log_value; }
      else total += std::exp(log_value - top);
    };
    double scale = 0.0;
    long points = 0;
    bool monotone_outside = true;
    const double log_h = std::log(h);
    for (int side = 0; side < 2; ++side) {
      const double m = modes[side];
      // lattice indices of the window: inner (towards t0) and outer edges
      long inner, outer;
      if (side == 0) {
        outer = static_cast<long>(std::floor((m - kQuadratureWindow) / h));
        inner = std::min(-1L, static_cast<long>(std::ceil((m + kQuadratureWindow) / h)));
      } else {
        inner = std::max(1L, static_cast<long>(std::floor((m - kQuadratureWindow) / h)));
        outer = static_cast<long>(std::ceil((m + kQuadratureWindow) / h));
      }
      const long lo = std::min(inner, outer), hi = std::max(inner, outer);
      for (long k = lo; k <= hi; ++k) {
        const double d = static_cast<double>(k) * h;
        add(log_h + g(d));
        scale = std::max(scale, rounding_scale(d));
        ++points;
      }
      const double sign = side == 0 ? -1.0 : 1.0;  // direction away from t0
      // Outer tail: g decreases away from the window, with slope <= g'(edge).
      const double d_out = static_cast<double>(outer) * h;
      const double outward_slope = sign * slope(d_out);
      if (!(outward_slope < 0.0)) monotone_outside = false;
      add(g(d_out) - std::log(-outward_slope));
      // Lattice points between t0 and the window: g increases towards the
      // window, so each is below its inner edge.
      const long gap = std::labs(inner) - 1;
      if (gap > 0) {
        const double d_in = static_cast<double>(inner) * h;
        if (!(sign * slope(d_in) >= 0.0)) monotone_outside = false;
        add(std::log(static_cast<double>(gap)) + log_h + g(d_in));
      }
    }
    if (!monotone_outside || !(total > 0.0) || !std::isfinite(top)) return kNaN;
    const double log_sum = top + std::log(total);
    const double log_discretisation = log_poisson_factor - 2.0 * kPi * kPi / (h * h);
    if (log_discretisation > log_sum - kQuadratureLogTolerance) {
      h = std::min(0.7 * h, step_for(log_sum));  // the estimate was off: refine
      continue;
    }
    // Rounding: each g(d) is within a few ulps of `scale`, and the sum of
    // `points` positive terms within `points` ulps.
    const double rounding =
        8.0 * std::numeric_limits<double>::epsilon() * (scale + static_cast<double>(points)) +
        1e-13;
    if (!(rounding < 1e-3)) return kNaN;
    return log_add(log_sum, log_discretisation) - kLogSqrtTwoPi + rounding;
  }
  return kNaN;
}

// Table of log forward differences for Theorem 27, indexed by even l up to
// max_l (entries at odd l unused).
inline std::vector<double> forward_difference_table(double z, int max_l) {
  std::vector<double> table(static_cast<size_t>(std::max(max_l, 2) + 1), kNaN);
  for (int l = 2; l <= max_l; l += 2)
    table[static_cast<size_t>(l)] = log_gaussian_even_forward_difference(z, l);
  return table;
}

// Relative amount by which the log moments are raised to cover rounding
// (lgamma, log-sum-exp), so that they are never below the exact bound.
constexpr double kLogMomentRoundingPad = 1e-11;

// Log moment K(m) = (m-1) eps'(m) of one step of the Gaussian with fixed-size
// sampling without replacement, integer m >= 2, replace-one: Theorem 27 of
// Wang, Balle & Kasiviswanathan 2019 (arXiv:1808.00087) for the Gaussian,
// base RDP eps(a) = a / (2 z^2), eps(inf) = inf (as dp_accounting
// `_compute_rdp_sample_wor_gaussian_int`):
//   K(m) <= log( 1 + q^2 C(m,2) min{4 (e^eps(2) - 1), 2 e^eps(2)}
//                + sum_{j=3}^m q^j C(m,j) min{2 e^{(j-1) eps(j)},
//                                             4 sqrt(D_{2 floor(j/2)} D_{2 ceil(j/2)})} ),
// D_l = E_q[(L - 1)^l] the forward differences above (`table`, log scale).
// Without a table, or for m > kMaxRefinedOrder, only the first branch of each
// min is used (their Theorem 9: valid, looser). Also capped by the unsampled
// value (m-1) m / (2 z^2): sampling without replacement under replace-one is
// a mixture of replace-one pairs, and exp((m-1) R_m(P || Q)), R_m the Renyi
// divergence, is jointly convex in (P, Q). The result is raised by a relative
// kLogMomentRoundingPad.
inline double wor_log_moment_int(double q, double z, double m,
                                 const std::vector<double>* table = nullptr) {
  const double two_z2 = 2.0 * z * z;
  const double log_q = std::log(q);
  const double eps2 = 2.0 / two_z2;  // eps(2)
  const double log_expm1_eps2 =
      eps2 < 1.0 ? std::log(std::expm1(eps2)) : eps2 + std::log1p(-std::exp(-eps2));
  double log_a = 0.0;  // the leading 1
  const double t2 = 2.0 * log_q + log_abs_binom(m, 2.0) +
                    std::min(2.0 * kLogTwo + log_expm1_eps2, kLogTwo + eps2);
  log_a = log_add(log_a, t2);
  const long n = static_cast<long>(m);
  const bool refined = table != nullptr && n <= kMaxRefinedOrder &&
                       static_cast<long>(table->size()) > 2 * ((n + 1) / 2);
  for (long k = 3; k <= n; ++k) {
    const double jj = static_cast<double>(k);
    double term = kLogTwo + (jj - 1.0) * jj / two_z2;
    if (refined) {
      const double d_lo = (*table)[static_cast<size_t>(2 * (k / 2))];
      const double d_hi = (*table)[static_cast<size_t>(2 * ((k + 1) / 2))];
      const double alternative = 2.0 * kLogTwo + 0.5 * (d_lo + d_hi);
      if (alternative < term) term = alternative;  // NaN keeps the safe term
    }
    log_a = log_add(log_a, term + jj * log_q + log_abs_binom(m, jj));
  }
  return std::min(log_a, (m - 1.0) * m / two_z2) * (1.0 + kLogMomentRoundingPad);
}

// The largest integer order whose log moment is needed for `alpha`.
inline int needed_order(double alpha) {
  return alpha <= 2.0 ? 2 : static_cast<int>(std::ceil(alpha));
}

}  // namespace detail

// RDP of order alpha > 1 of one step of the Poisson-subsampled Gaussian
// mechanism (rate q, noise multiplier z): log(A_alpha) / (alpha - 1)
// (Mironov, Talwar & Zhang 2019, Sec. 3.3). Returns NaN on invalid input
// (q outside [0,1], z < 0, alpha <= 1 or NaN).
inline double poisson_subsampled_gaussian(double q, double z, double alpha) {
  if (std::isnan(q) || std::isnan(z) || std::isnan(alpha) || q < 0.0 || q > 1.0 ||
      z < 0.0 || !(alpha > 1.0))
    return detail::kNaN;
  if (q == 0.0) return 0.0;
  if (z == 0.0 || alpha == detail::kInf) return detail::kInf;
  if (z == detail::kInf) return 0.0;
  if (q == 1.0) return alpha / (2.0 * z * z);  // plain Gaussian (Mironov 2017, Prop. 7)
  const double log_a = detail::is_integer(alpha) ? detail::log_a_int(q, z, alpha)
                                                 : detail::log_a_frac(q, z, alpha);
  if (!(log_a < detail::kInf)) return detail::kInf;  // also catches NaN (safe)
  // A_alpha >= 1 exactly; clamp rounding below 0.
  return std::max(0.0, log_a) / (alpha - 1.0);
}

// RDP of order alpha > 1 of one step of the Gaussian mechanism on a batch of
// fixed size m = q n drawn uniformly without replacement, replace-one
// neighbours; z is measured against the replace-one L2 sensitivity, so the
// base RDP is alpha / (2 z^2). Wang, Balle & Kasiviswanathan 2019 bound
// (see detail::wor_log_moment_int) at integer orders; at fractional orders
// the log moment K(alpha) = (alpha-1) eps'(alpha), convex in alpha, is bounded
// by linear interpolation between floor(alpha) and ceil(alpha) (their
// Corollary 10); for 1 < alpha < 2 the value at alpha = 2 is used (RDP is
// nondecreasing in alpha). Capped by the unsampled alpha / (2 z^2).
inline double without_replacement_subsampled_gaussian(
    double q, double z, double alpha, const std::vector<double>* table = nullptr) {
  if (std::isnan(q) || std::isnan(z) || std::isnan(alpha) || q < 0.0 || q > 1.0 ||
      z < 0.0 || !(alpha > 1.0))
    return detail::kNaN;
  if (q == 0.0) return 0.0;
  if (z == 0.0 || alpha == detail::kInf) return detail::kInf;
  if (z == detail::kInf) return 0.0;
  const double base = alpha / (2.0 * z * z);
  if (q == 1.0) return base;
  std::vector<double> own_table;
  if (table == nullptr && detail::needed_order(alpha) <= detail::kMaxRefinedOrder) {
    own_table = detail::forward_difference_table(z, 2 * ((detail::needed_order(alpha) + 1) / 2));
    table = &own_table;
  }
  double eps;
  if (alpha <= 2.0) {
    eps = detail::wor_log_moment_int(q, z, 2.0, table);  // K(2) / (2 - 1)
  } else if (detail::is_integer(alpha)) {
    eps = detail::wor_log_moment_int(q, z, alpha, table) / (alpha - 1.0);
  } else {
    const double lo = std::floor(alpha), hi = lo + 1.0, t = alpha - lo;
    const double k_lo = detail::wor_log_moment_int(q, z, lo, table);
    const double k_hi = detail::wor_log_moment_int(q, z, hi, table);
    eps = ((1.0 - t) * k_lo + t * k_hi) / (alpha - 1.0);
  }
  if (std::isnan(eps)) return detail::kInf;
  // the cap, too, raised to cover its rounding
  return std::max(0.0, std::min(eps, base * (1.0 + detail::kLogMomentRoundingPad)));
}

// The same at several orders, computing Theorem 27's forward differences
// once (they depend on z only).
inline void without_replacement_curve(double q, double z, const double* orders, int k,
                                      double* out) {
  int max_order = 2;
  for (int i = 0; i < k; ++i)
    if (orders[i] > 1.0 && std::isfinite(orders[i]))
      max_order = std::max(max_order, std::min(detail::needed_order(orders[i]),
                                               detail::kMaxRefinedOrder));
  std::vector<double> table;
  if (q > 0.0 && q < 1.0 && z > 0.0 && std::isfinite(z))
    table = detail::forward_difference_table(z, 2 * ((max_order + 1) / 2));
  for (int i = 0; i < k; ++i)
    out[i] = without_replacement_subsampled_gaussian(q, z, orders[i],
                                                     table.empty() ? nullptr : &table);
}

// RDP composes additively over adaptive steps (Mironov 2017, Prop. 1).
inline double compose(double rdp_one_step, double steps) {
  return rdp_one_step * steps;
}

// (epsilon, delta)-DP from RDP curve (Balle et al. 2020, Prop. 12; Opacus
// `get_privacy_spent`):
//   eps = min_alpha rdp(alpha) + log1p(-1/alpha) - (log delta + log alpha)/(alpha - 1),
// clamped at >= 0. Orders <= 1 or with non-finite rdp are skipped; at
// alpha = inf the bound is rdp itself. If no order is usable returns +Inf
// and *best_index = -1. best_index may be null.
inline double epsilon_from_rdp(const double* orders, const double* rdp, int k,
                               double delta, int* best_index) {
  double best = detail::kInf;
  int best_i = -1;
  if (orders != nullptr && rdp != nullptr && delta > 0.0) {
    const double log_delta = std::log(delta);
    for (int i = 0; i < k; ++i) {
      const double a = orders[i], r = rdp[i];
      if (!(a > 1.0) || !std::isfinite(r)) continue;
      const double eps = (a == detail::kInf)
                             ? r
                             : r + std::log1p(-1.0 / a) - (log_delta + std::log(a)) / (a - 1.0);
      if (!std::isnan(eps) && eps < best) {
        best = eps;
        best_i = i;
      }
    }
  }
  if (best_index != nullptr) *best_index = best_i;
  if (best_i < 0) return detail::kInf;
  return std::max(0.0, best);
}

// The same bound solved for delta:
//   log delta = (alpha - 1) (rdp - eps + log1p(-1/alpha)) - log(alpha),
// minimised over orders and clamped to <= 1. At alpha = inf, delta is 0 if
// rdp <= eps and 1 otherwise. If no order is usable returns 1 and
// *best_index = -1.
inline double delta_from_rdp(const double* orders, const double* rdp, int k,
                             double epsilon, int* best_index) {
  double best = detail::kInf;  // best log delta
  int best_i = -1;
  if (orders != nullptr && rdp != nullptr && !std::isnan(epsilon)) {
    for (int i = 0; i < k; ++i) {
      const double a = orders[i], r = rdp[i];
      if (!(a > 1.0) || !std::isfinite(r)) continue;
      double log_delta;
      if (a == detail::kInf) {
        log_delta = (r <= epsilon) ? -detail::kInf : 0.0;
      } else {
        log_delta = (a - 1.0) * (r - epsilon + std::log1p(-1.0 / a)) - std::log(a);
      }
      if (!std::isnan(log_delta) && (best_i < 0 || log_delta < best)) {
        best = log_delta;
        best_i = i;
      }
    }
  }
  if (best_index != nullptr) *best_index = best_i;
  if (best_i < 0) return 1.0;
  return std::min(1.0, std::exp(best));
}

}  // namespace rdp
}  // namespace dpglmnet

#endif  // DPGLMNET_RDP_ACCOUNTANT_H
