// Private Frank-Wolfe over the l1 ball (Talwar, Thakurta & Zhang 2015; the
// non-variance-reduced baseline of Asi, Feldman, Koren & Talwar 2021):
//
//   minimize F(b, b0) = (1/n) sum_i loss(b0 + x_i'b, y_i)  s.t. ||b||_1 <= R.
//
// Step t (one full pass over the records):
//  1. d_i = loss'(b0 + x_i'b, y_i); g_j = (1/n) sum_i clamp(d_i x_ij, -C, C)
//     (per-record gradient terms clipped coordinate-wise to C);
//  2. the 2p vertices v = s R e_j (s = +-1) get utilities u(v) = -<v, g> =
//     -s R g_j, and one is picked by report-noisy-max with Gumbel noise of
//     scale beta (noisy_max.h: the exponential mechanism);
//  3. b <- (1 - gamma_t) b + gamma_t v, gamma_t = 2 / (t + 2 + t0).
//
// Sensitivity of the utilities under replace-one (one record replaced): record
// i enters g_j only through the term c_ij = clamp(d_i x_ij, -C, C) / n,
// |c_ij| <= C / n. Replacing record i by i' changes g_j by (c_i'j - c_ij),
// at most 2C / n in absolute value, for every j at once (the other records'
// terms do not depend on record i: d_k depends on (x_k, y_k) and on b, and b
// is the output of earlier private steps, fixed in an adaptive composition).
// So every utility |u(s R e_j)| = R |g_j| moves by at most
//   Delta = 2 R C / n,
// and the Gumbel scale beta = z Delta with noise multiplier z makes a
// selection (2 / z)-DP and (2 / z)^2 / 8-zCDP (accountant.h, Kind::exponential).
//
// Step size: the classic 2 / (t + 2) (t0 = 0) from b = 0 on the first
// radius. Along the path the radii increase, so the previous solution is
// feasible and is the warm start; the schedule then starts at t0 = 1
// (gamma_0 = 2/3), which keeps a third of the warm start instead of jumping
// to a vertex (t0 = 0 would discard it entirely: gamma_0 = 1).
//
// Intercept: an unconstrained coordinate (the constant feature 1), moved
// after every selection by a gradient step b0 <- b0 - (g0 + N(0, s0^2)) /
// curvature, g0 = (1/n) sum_i clamp(d_i, -C0, C0), replace-one sensitivity
// 2 C0 / n, s0 = z0 2 C0 / n: one more Gaussian release per step (R/l1.R gives
// it noise multiplier 3z, a tenth of the path's zCDP). C0 is its own public
// clip (R/l1.R: C unless solver = "auto" gives a larger one, R/highdim.R):
// the intercept moves at most C0 / curvature per step.
//
// Centring a sparse x (settings.shift, from solver = "auto"'s public
// midpoints, R/highdim.R): the transform cannot centre a sparse design
// without filling in its zeros, so the solver reads x''_ij = x'_ij - m_j
// itself: x''_i'b = x'_i'b - sum_j b_j m_j (one scalar kept with the
// iterate), and g_j = (1/n) sum_i clamp(d_i x''_ij, C) is summed as every
// record's zero term clamp(-m_j d_i, C) (O(log n) from the derivatives
// sorted once per step) plus, over the stored entries, their term less the
// zero's. The same per-record terms, so the same sensitivity; O(n log n +
// p log n + nnz(x)) per step.
//
// Cost per step: O(nnz(x)) for the gradient (one sweep of the columns), O(p)
// for the noisy max over 2p vertices (2p Gumbel draws), O(n + p) for the
// update (the scaling by 1 - gamma), no allocation. With epsilon = Inf the
// same steps run with C = Inf and no noise (exact Frank-Wolfe).
#ifndef DPGLMNET_FRANK_WOLFE_H
#define DPGLMNET_FRANK_WOLFE_H

#include <algorithm>
#include <cmath>
#include <vector>

#include "capabilities.h"
#include "clip.h"
#include "convergence.h"
#include "design.h"
#include "noisy_max.h"
#include "random.h"

namespace dpglmnet {

struct FrankWolfeSettings {
  double clip;               // C, coordinate-wise bound on d_i x_ij; +Inf: none
  double intercept_noise_sd; // z0 2C / n on the intercept gradient; 0: none
  double intercept_step;     // 1 / curvature
  long long steps;           // Frank-Wolfe steps per radius
  double intercept_clip;     // C0, bound on the intercept's d_i; +Inf: none
  // Optional centring of a design the transform cannot centre (sparse x):
  // the solver reads x''_ij = x'_ij - shift_j (x'_ij: the transformed value,
  // 0 for an implicit zero); null: no shift. See compute_gradient().
  const double* shift = nullptr;
};

// The capabilities tag of Frank-Wolfe (capabilities.h): every loss (it reads
// l' only); no penalty (the l1 ball is a constraint).
struct DPFWTag {
  static constexpr const char* name = "dpfw";
};

template <class Design, class Loss>
class DPFrankWolfe {
 public:
  DPFrankWolfe(const Design& x, const double* y, bool intercept, FrankWolfeSettings settings,
               RandomSource& rng, const Loss& loss = Loss())
      : loss_(loss), x_(x), y_(y), n_(x.rows()), p_(x.cols()), intercept_(intercept),
        settings_(settings), rng_(rng), coef_(p_ + (intercept ? 1 : 0), 0.0),
        snapshot_(coef_.size(), 0.0), xb_(n_, 0.0), derivative_(n_, 0.0), gradient_(p_, 0.0), utility_(2 * p_, 0.0),
        sorted_(settings.shift ? n_ : 0, 0.0), prefix_(settings.shift ? n_ + 1 : 0, 0.0) {}

  int coordinates() const { return static_cast<int>(coef_.size()); }
  const std::vector<double>& coef() const { return coef_; }

  // Runs `steps` steps on the ball of radius R from the current point, the
  // noisy max at Gumbel scale `scale` (the ledger's: z 2 R C / n; 0: exact
  // argmax); the picked vertices (0-based: 2j for +R e_j, 2j + 1 for -R e_j)
  // go to picks[0..steps) when picks is not null.
  void fit(double radius, double scale, int* picks) {
    const double t0 = fitted_ ? 1.0 : 0.0;
    fitted_ = true;
    const long long snapshot_at = last_tenth_start(settings_.steps);
    for (long long t = 0; t < settings_.steps; ++t) {
      if (t == snapshot_at) snapshot_ = coef_;
      const double g0 = compute_gradient();
      for (int j = 0; j < p_; ++j) {
        utility_[2 * j] = -radius * gradient_[j];
        utility_[2 * j + 1] = radius * gradient_[j];
      }
      const int k = report_noisy_max(utility_.data(), 2 * p_, scale, rng_);
      if (picks != nullptr) picks[t] = k;
      const int j = k / 2;
      const double vertex = (k % 2 == 0) ? radius : -radius;
      const double gamma = 2.0 / (static_cast<double>(t) + 2.0 + t0);
      const double keep = 1.0 - gamma;
      for (int l = 0; l < p_; ++l) coef_[l] *= keep;
      for (int i = 0; i < n_; ++i) xb_[i] *= keep;
      shift_part_ *= keep;
      if (settings_.shift != nullptr) shift_part_ -= gamma * vertex * settings_.shift[j];
      coef_[j] += gamma * vertex;
      x_.for_each_in_column(j, [&](int i, double v) { xb_[i] += gamma * vertex * v; });
      if (intercept_) {
        double noisy = g0;
        if (settings_.intercept_noise_sd > 0.0)
          noisy += settings_.intercept_noise_sd * rng_.gaussian();
        coef_[p_] -= settings_.intercept_step * noisy;
      }
    }
    last_change_ = settings_.steps > 0
                       ? largest_change(coef_.data(), snapshot_.data(), coef_.size())
                       : 0.0;
  }

  // The largest |change| of a coefficient over the last 10% of the steps of
  // the last fit() (at least one step): the epsilon = Inf convergence
  // diagnostic (R/solvers.R, diagnose_path).
  double last_pass_change() const { return last_change_; }

 private:
  // gradient_[j] = (1/n) sum_i clamp(d_i x_ij, -C, C); returns the
  // intercept's (1/n) sum_i clamp(d_i, -C0, C0).
  double compute_gradient() {
    const double b0 = intercept_ ? coef_[p_] : 0.0;
    const double c = settings_.clip;
    const double c0 = settings_.intercept_clip;
    const double level = b0 + shift_part_;
    double g0 = 0.0;
    for (int i = 0; i < n_; ++i) {
      const double d = loss_.derivative(level + xb_[i], y_[i]);
      derivative_[i] = d;
      g0 += clip(d, c0);
    }
    const double inv_n = 1.0 / n_;
    const double* d = derivative_.data();
    const double* shift = settings_.shift;
    if (shift != nullptr) {
      // the derivatives sorted, with prefix sums, for clipped_sum()
      std::copy(derivative_.begin(), derivative_.end(), sorted_.begin());
      std::sort(sorted_.begin(), sorted_.end());
      prefix_[0] = 0.0;
      for (int i = 0; i < n_; ++i) prefix_[i + 1] = prefix_[i] + sorted_[i];
    }
    for (int j = 0; j < p_; ++j) {
      double s = 0.0;
      if (shift != nullptr && shift[j] != 0.0) {
        // sum_i clamp(d_i (x'_ij - m), C) = sum_i clamp(-m d_i, C) (every
        // record as if x'_ij = 0: O(log n) from the sorted d) + over the
        // stored entries, their term less the zero's: O(nnz of column j)
        const double m = shift[j];
        s = clipped_sum(-m, c);
        x_.for_each_in_column(j, [&](int i, double v) {
          s += clip(d[i] * (v - m), c) - clip(-m * d[i], c);
        });
      } else {
        x_.for_each_in_column(j, [&](int i, double v) {
          s += clip(d[i] * v, c);
        });
      }
      gradient_[j] = s * inv_n;
    }
    return g0 * inv_n;
  }

  // sum_i clamp(a d_i, -C, C) over all records, from the sorted
  // derivatives and their prefix sums: a d_i unclipped where |d_i| <= C /
  // |a|, +-C beyond. O(log n), no allocation.
  double clipped_sum(double a, double c) const {
    if (a == 0.0) return 0.0;
    if (!std::isfinite(c)) return a * prefix_[n_];
    const double t = c / std::fabs(a);
    const auto first = sorted_.begin();
    const long lo = std::lower_bound(first, sorted_.end(), -t) - first;
    const long hi = std::upper_bound(first, sorted_.end(), t) - first;
    const double sign = a > 0.0 ? 1.0 : -1.0;
    return a * (prefix_[hi] - prefix_[lo]) +
           sign * c * (static_cast<double>(n_ - hi) - static_cast<double>(lo));
  }

  const Loss loss_;
  const Design& x_;
  const double* y_;
  const int n_, p_;
  const bool intercept_;
  const FrankWolfeSettings settings_;
  RandomSource& rng_;
  bool fitted_ = false;
  double last_change_ = 0.0;
  std::vector<double> coef_;        // b then b0
  std::vector<double> snapshot_;    // coef_ 10% of the steps before the end
  std::vector<double> xb_;          // x_i'b
  std::vector<double> derivative_;  // d_i at the current point
  std::vector<double> gradient_;    // clipped gradient of the features
  std::vector<double> utility_;     // 2p vertex utilities
  std::vector<double> sorted_;      // the derivatives, sorted (with a shift)
  std::vector<double> prefix_;      // their prefix sums (n + 1)
  double shift_part_ = 0.0;         // -sum_j b_j shift_j: in every x''_i'b
};

}  // namespace dpglmnet

#endif  // DPGLMNET_FRANK_WOLFE_H
