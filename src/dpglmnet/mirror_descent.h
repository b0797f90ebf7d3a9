// Noisy stochastic mirror descent over the l1 ball (Asi, Feldman, Koren &
// Talwar 2021, Algorithm 1), with the p-norm mirror map
//
//   h(b) = (1/2) ||b||_q^2,   q = 1 + 1 / max(log p, 1),
//
// which is (q - 1)-strongly convex in ||.||_q and, as ||b||_q >=
// ||b||_1 / p^(1 - 1/q) >= ||b||_1 / e, (q - 1) / e^2-strongly convex in
// ||.||_1 (Ben-Tal, Margalit & Nemirovski 2001). Its conjugate is
// h*(theta) = (1/2) ||theta||_r^2 with r = q / (q - 1) = 1 + max(log p, 1),
// and grad h* = (grad h)^-1:
//   grad h*(theta)_j = sign(theta_j) |theta_j|^(r-1) ||theta||_r^(2-r).
//
// Step k: a minibatch of m records drawn uniformly without replacement,
// independently at each step (MinibatchSampler, dpsgd.h; the paper samples
// with replacement); each record's gradient over the features and the
// intercept is clipped to L2 norm C (as DP-SGD: its replace-one sensitivity
// as a sum is 2C), N(0, (z 2C)^2) noise is added to the sum, which is
// divided by m: g. The mirror step
//   b_{k+1} = argmin_{||b||_1 <= R} <g, b> + D_h(b, b_k) / eta
// is computed in the dual: with theta = grad h(b_k) - eta g, the minimizer
// is grad h*(S_mu(theta)) with S_mu the soft-threshold at mu >= 0, mu = 0
// when ||grad h*(theta)||_1 <= R, else the mu where the l1 norm equals R
// (KKT: grad h(b) = theta - mu sign(b) on the support, |theta_j| <= mu off
// it; the l1 norm of the penalized minimizer is non-increasing in mu, so mu
// is found by bisection, taking the feasible end). The dual variable is the
// state: grad h(b_{k+1}) = S_mu(theta), so no grad h is evaluated in the
// loop. The intercept is an unconstrained Euclidean coordinate with its own
// step. The output is the average of the iterates (Algorithm 1, line 6).
//
// Cost per step: O(nnz of the minibatch) for the gradient, O(p) for the
// noise, the dual update, grad h* and the average, and the bisection (when
// the point leaves the ball) O(number of |theta_j| above the current lower
// end) per halving; no allocation in the loop.
#ifndef DPGLMNET_MIRROR_DESCENT_H
#define DPGLMNET_MIRROR_DESCENT_H

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "capabilities.h"
#include "clip.h"
#include "convergence.h"
#include "dpsgd.h"
#include "random.h"

namespace dpglmnet {

struct MirrorDescentSettings {
  double clip;            // C, L2 bound on each record's gradient; +Inf: none
  double noise_sd;        // z 2C on the sum; 0: none
  int batch_size;         // m
  long long steps;        // steps per radius
  double step;            // eta / R (the step scales with the radius)
  double intercept_step;  // Euclidean step of the intercept
};

// The p-norm map of the file comment, on vectors of length p.
class PNormMap {
 public:
  explicit PNormMap(int p) {
    const double log_p = std::max(std::log(static_cast<double>(std::max(p, 1))), 1.0);
    q_ = 1.0 + 1.0 / log_p;
    r_ = 1.0 + log_p;
  }
  double q() const { return q_; }

  // out = grad h(b) (used once per radius, for the warm start).
  void gradient(const double* b, int p, double* out) const {
    apply(b, p, q_, out);
  }
  // out = grad h*(theta).
  void conjugate_gradient(const double* theta, int p, double* out) const {
    apply(theta, p, r_, out);
  }
  // ||grad h*(S_mu(theta))||_1 over the entries in `active` (the others
  // have |theta_j| <= mu): m sum v^(r-1) (sum v^r)^((2-r)/r) with
  // v = (|theta_j| - mu) / m, m the largest |theta_j| - mu.
  double thresholded_l1(const double* magnitude, const int* active, int count,
                        double mu) const {
    double m = 0.0;
    for (int k = 0; k < count; ++k) m = std::max(m, magnitude[active[k]] - mu);
    if (!(m > 0.0)) return 0.0;
    double s1 = 0.0, sr = 0.0;
    for (int k = 0; k < count; ++k) {
      const double v = (magnitude[active[k]] - mu) / m;
      if (v > 0.0) {
        const double w = std::pow(v, r_ - 1.0);
        s1 += w;
        sr += w * v;
      }
    }
    return m * s1 * std::pow(sr, (2.0 - r_) / r_);
  }

 private:
  // out_j = sign(v_j) |v_j|^(s-1) ||v||_s^(2-s), scaled by max |v_j| for
  // range safety (the map is 1-homogeneous).
  static void apply(const double* v, int p, double s, double* out) {
    double m = 0.0;
    for (int j = 0; j < p; ++j) m = std::max(m, std::fabs(v[j]));
    if (!(m > 0.0)) {
      std::fill(out, out + p, 0.0);
      return;
    }
    double norm = 0.0;
    for (int j = 0; j < p; ++j) {
      const double a = std::fabs(v[j]) / m;
      const double w = a > 0.0 ? std::pow(a, s - 1.0) : 0.0;
      out[j] = std::copysign(w, v[j]);
      norm += w * a;
    }
    const double factor = m * std::pow(norm, (2.0 - s) / s);
    for (int j = 0; j < p; ++j) out[j] *= factor;
  }

  double q_, r_;
};

// The capabilities tag of noisy mirror descent (capabilities.h): every loss (it reads
// l' only); no penalty (the l1 ball is a constraint).
struct NMDTag {
  static constexpr const char* name = "nmd";
};

template <class Design, class Loss>
class NoisyMirrorDescent {
 public:
  NoisyMirrorDescent(const Design& x, const double* y, bool intercept,
                     MirrorDescentSettings settings, RandomSource& rng,
                     const Loss& loss = Loss())
      : loss_(loss), records_(x), y_(y), n_(x.rows()), p_(x.cols()), intercept_(intercept),
        settings_(settings), rng_(rng), map_(p_), sampler_(n_, settings.batch_size),
        coef_(p_ + (intercept ? 1 : 0), 0.0), snapshot_(coef_.size(), 0.0), point_(p_, 0.0),
        dual_(p_, 0.0),
        gradient_(p_ + 1, 0.0), magnitude_(p_, 0.0), active_(p_, 0), cap_(n_, 0.0),
        batch_(settings.batch_size), eta_(settings.batch_size),
        weight_(settings.batch_size) {
    const std::vector<double> squared_norm = record_squared_norms(x, intercept);
    // Record i's gradient is d_i (x_i, 1): clipping it to L2 norm C is
    // clamping d_i to +-C / ||(x_i, 1)||.
    for (int i = 0; i < n_; ++i)
      cap_[i] = record_derivative_cap(settings_.clip, squared_norm[i]);
  }

  int coordinates() const { return static_cast<int>(coef_.size()); }
  const std::vector<double>& coef() const { return coef_; }
  // How much the output (the average of the iterates) moved over the last
  // 10% of the steps of the last fit(): the largest |change| of a
  // coefficient between the average of the first 90% and the output.
  double last_pass_change() const { return last_change_; }

  // `steps` steps on the ball of radius R from the current output (the
  // previous radius's average, feasible since the radii increase); coef()
  // is then the average of the iterates.
  void fit(double radius) {
    std::copy(coef_.begin(), coef_.begin() + p_, point_.begin());
    map_.gradient(point_.data(), p_, dual_.data());
    double b0 = intercept_ ? coef_[p_] : 0.0;
    std::fill(coef_.begin(), coef_.end(), 0.0);
    const double eta = settings_.step * radius;
    const int m = settings_.batch_size;
    const long long steps = settings_.steps;
    const long long snapshot_at = last_tenth_start(steps);
    for (long long k = 0; k < steps; ++k) {
      if (k == snapshot_at) std::copy(coef_.begin(), coef_.end(), snapshot_.begin());
      // The average includes the point the gradient is taken at.
      for (int j = 0; j < p_; ++j) coef_[j] += point_[j];
      if (intercept_) coef_[p_] += b0;

      sampler_.draw(rng_, batch_.data());
      records_.batch_dot(batch_.data(), m, point_.data(), eta_.data());
      double weight_sum = 0.0;
      for (int l = 0; l < m; ++l) {
        const int i = batch_[l];
        const double d = loss_.derivative(b0 + eta_[l], y_[i]);
        // (a NaN, diverged iterates, becomes the cap: see clip())
        weight_[l] = clip(d, cap_[i]);
        weight_sum += weight_[l];
      }
      if (settings_.noise_sd > 0.0)
        rng_.gaussian_block(gradient_.data(), p_ + 1, settings_.noise_sd, false);
      else
        std::fill(gradient_.begin(), gradient_.end(), 0.0);
      records_.batch_add_scaled(batch_.data(), m, weight_.data(), gradient_.data());
      // Mirror step on b: theta = grad h(b_k) - eta g, then the projection.
      const double scale = eta / m;
      for (int j = 0; j < p_; ++j) dual_[j] -= scale * gradient_[j];
      project(radius);
      map_.conjugate_gradient(dual_.data(), p_, point_.data());
      if (intercept_) b0 -= settings_.intercept_step / m * (gradient_[p_] + weight_sum);
    }
    const double inv = steps > 0 ? 1.0 / static_cast<double>(steps) : 0.0;
    last_change_ = 0.0;
    if (steps > 0) {
      for (double& c : coef_) c *= inv;
      // The average over the first snapshot_at steps against the output.
      if (snapshot_at > 0) {
        const double inv_snapshot = 1.0 / static_cast<double>(snapshot_at);
        last_change_ = largest_change(coef_.data(), snapshot_.data(), coef_.size(), inv_snapshot);
      } else {
        last_change_ = std::numeric_limits<double>::infinity();  // one step: unknown
      }
    } else {
      std::copy(point_.begin(), point_.end(), coef_.begin());
      if (intercept_) coef_[p_] = b0;
    }
  }

 private:
  // dual_ <- S_mu(dual_) with the mu of the file comment (0 when inside).
  void project(double radius) {
    int count = 0;
    double top = 0.0;
    for (int j = 0; j < p_; ++j) {
      magnitude_[j] = std::fabs(dual_[j]);
      if (magnitude_[j] > 0.0) active_[count++] = j;
      top = std::max(top, magnitude_[j]);
    }
    if (map_.thresholded_l1(magnitude_.data(), active_.data(), count, 0.0) <= radius) return;
    double low = 0.0, high = top;  // l1(low) > R >= l1(high) = 0
    for (int iteration = 0; iteration < 100 && high - low > 1e-12 * top; ++iteration) {
      const double mid = 0.5 * (low + high);
      if (map_.thresholded_l1(magnitude_.data(), active_.data(), count, mid) > radius) {
        low = mid;
        // Entries at or below the lower end stay thresholded to zero for
        // every mu >= low: drop them.
        int kept = 0;
        for (int k = 0; k < count; ++k)
          if (magnitude_[active_[k]] > low) active_[kept++] = active_[k];
        count = kept;
      } else {
        high = mid;
      }
    }
    // The feasible end: ||grad h*(S_high(theta))||_1 <= R.
    for (int j = 0; j < p_; ++j) {
      const double a = magnitude_[j] - high;
      dual_[j] = a > 0.0 ? std::copysign(a, dual_[j]) : 0.0;
    }
  }

  const Loss loss_;
  const RowAccess<Design> records_;
  const double* y_;
  const int n_, p_;
  const bool intercept_;
  const MirrorDescentSettings settings_;
  RandomSource& rng_;
  const PNormMap map_;
  MinibatchSampler sampler_;
  std::vector<double> coef_;       // output: average of the iterates (b, b0)
  std::vector<double> snapshot_;   // sum of the iterates 10% of the steps before the end
  double last_change_ = 0.0;
  std::vector<double> point_;      // b_k
  std::vector<double> dual_;       // grad h(b_k)
  std::vector<double> gradient_;   // noisy clipped minibatch sum (p features, intercept)
  std::vector<double> magnitude_;  // |theta_j|
  std::vector<int> active_;        // indices still in the bisection
  std::vector<double> cap_;        // C / ||(x_i, 1)||
  std::vector<int> batch_;
  std::vector<double> eta_, weight_;
};

}  // namespace dpglmnet

#endif  // DPGLMNET_MIRROR_DESCENT_H
