// DP-SCD: differentially private stochastic dual coordinate descent
// (Damaskinos, Mendler-Dunner, Guerraoui, Papandreou & Rouault, AAAI 2021,
// Algorithm 1) for the L2-regularized GLMs of glmnet with alpha = 0 and no
// intercept:
//   min_b (1/n) sum_i l(x_i'b, y_i) + (lambda / 2) ||b||^2,
// through its dual  min_a (1/n) sum_i l*_i(-a_i) + ||X'a||^2 / (2 lambda n^2),
// with the shared vector v = X'a (p values) and the primal model
// b = v / (lambda n).
//
// A step draws a minibatch B of m records uniformly without replacement,
// independently of earlier steps (MinibatchSampler). Every j in B
// computes, from the same (a_j, v), the update zeta_j of its local
// subproblem (paper, eq. 8)
//   G_j(zeta) = (1/n) l*_j(-a_j - zeta)
//               + (2 x_j'v zeta + m ||x_j||^2 zeta^2) / (2 lambda n^2),
// scales it to |zeta_j| <= C, and then a_j += zeta_j + N(0, s^2) for j in B
// and v += sum_B zeta_j x_j + N(0, s^2 I_p), s = z S.
//
// The local update. Stationarity of G_j is, with eta = x_j'v / (lambda n) =
// x_j'b and kappa_j = m ||x_j||^2 / (lambda n),
//   g(zeta) = zeta + a_j + l'(eta + kappa_j zeta) = 0,
// an increasing function of zeta with g' = 1 + kappa_j l''. Written through
// l' it is defined for every a_j, including noisy values outside the domain
// of l*. Squared loss: l' is affine, so one Newton step is the closed form
//   zeta = (y_j - eta - a_j) / (1 + kappa_j)
// (the SDCA ridge update). Logistic loss: one Newton step from 0,
// zeta = -g(0) / (1 + kappa_j l''(eta)); if it overshoots the root (g
// changes sign), the step with the curvature bound 1/4 instead,
// -g(0) / (1 + kappa_j / 4), which never does (g' <= 1 + kappa_j / 4). Either
// way zeta lies between 0 and the exact minimizer of the convex G_j, so it
// decreases G_j, as does scaling it towards 0; with m in kappa_j (CoCoA's
// safe aggregation sigma' = m) the m independent updates then decrease the
// dual objective together.
//
// Rows. The sensitivity needs a public bound R on ||x_j||: R comes from
// x.bounds (sqrt(sum_j b_j^2), on the scale the solver reads), and every
// record is scaled to norm at most R here (x_j min(1, R / ||x_j||)), a
// per-record map that costs no privacy and is a no-op when the columns are
// already clamped to the bounds. R = +Inf (epsilon = Inf): no scaling.
//
// Sensitivity under replace-one (this package's relation; Lemma 1 of the
// paper is for remove-one). One step's released vector, before noise, is
// f(D) = ((zeta_j)_{j in B}, sum_{j in B} zeta_j x_j) on a given batch B and
// state (a, v), which is public (earlier releases). The updates of a batch
// are computed independently from (a_j, v, x_j, y_j). Replace record k by
// (x'_k, y'_k): if k is not in B nothing changes; if it is, only zeta_k
// changes, to zeta'_k, so
//   ||f(D) - f(D')||^2 = (zeta_k - zeta'_k)^2 + ||zeta_k x_k - zeta'_k x'_k||^2
//                     <= (2C)^2 + (|zeta_k| ||x_k|| + |zeta'_k| ||x'_k||)^2
//                     <= 4 C^2 + 4 C^2 R^2,
//   S = 2 C sqrt(1 + R^2),
// attained by x'_k = x_k with labels that make zeta_k = C, zeta'_k = -C
// (remove-one gives C sqrt(1 + R^2), the paper's sqrt(2) C at R = 1). The
// noise sd on every released coordinate is z S.
//
// Privacy accounting. The release changes the dual coordinates of the batch
// only, so the batch itself is public: the step is a Gaussian mechanism that
// touches a given record with probability q = m / n, and the amplification
// by subsampling of a hidden batch (Wang, Balle & Kasiviswanathan 2019,
// which the paper's Theorem 1 applies through the moments accountant) does
// not hold. It is accounted exactly as such (Sampling::revealed,
// accountant.h). Adding noise to all n dual coordinates would hide the
// batch, but that noise accumulates over the T steps (sd sqrt(T) z S on every
// a_j) and swamps the updates.
//
// Cost: a step is O(m p) dense (O(nnz of the batch) sparse) plus O(m + p)
// noise; no O(n) work and no allocation after construction. The dual
// variables are warm-started along the path (b = v / (lambda n) for the new
// lambda).
#ifndef DPGLMNET_DPSCD_H
#define DPGLMNET_DPSCD_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "capabilities.h"
#include "clip.h"
#include "convergence.h"
#include "design.h"
#include "dpsgd.h"
#include "losses/logistic.h"
#include "losses/squared.h"
#include "penalties/elastic_net.h"
#include "random.h"

namespace dpglmnet {

struct DualSettings {
  double clip;       // C, bound on |zeta_j|; +Inf: none
  double noise_sd;   // z S on every released coordinate; 0: none
  double row_bound;  // R, records scaled to L2 norm <= R; +Inf: none
  int batch_size;    // m
  long long steps;   // minibatch steps per lambda
};

// The local update zeta of one dual coordinate (see the file comment):
// a = a_j, eta = x_j'b, kappa = m ||x_j||^2 / (lambda n). A loss has one
// when it has a closed form (closed_form = true); the others are declared
// unsupported below, so no solver is built for them.
template <class Loss>
struct DualUpdate {
  static constexpr bool closed_form = false;
};

template <>
struct DualUpdate<SquaredLoss> {
  static constexpr bool closed_form = true;
  static double zeta(const SquaredLoss&, double a, double eta, double y, double kappa) {
    return (y - eta - a) / (1.0 + kappa);
  }
};

template <>
struct DualUpdate<LogisticLoss> {
  static constexpr bool closed_form = true;
  static double zeta(const LogisticLoss&, double a, double eta, double y, double kappa) {
    const double g0 = a + LogisticLoss::derivative(eta, y);
    if (g0 == 0.0) return 0.0;
    const double mu = 1.0 / (1.0 + std::exp(-eta));
    const double newton = -g0 / (1.0 + kappa * mu * (1.0 - mu));
    const double g1 = newton + a + LogisticLoss::derivative(eta + kappa * newton, y);
    if ((g0 > 0.0 && g1 >= 0.0) || (g0 < 0.0 && g1 <= 0.0)) return newton;
    return -g0 / (1.0 + 0.25 * kappa);
  }
};

// The capabilities of DP-SCD (capabilities.h): the losses with a
// closed-form dual update (squared, logistic), and the ridge penalty only
// (the elastic net with alpha = 0 and no limits, which R checks: fit()
// reads lambda alone).
struct DPSCDTag {
  static constexpr const char* name = "dpscd";
};
template <class Loss>
struct SupportsLoss<DPSCDTag, Loss>
    : std::integral_constant<bool, DualUpdate<Loss>::closed_form> {};
template <class Penalty>
struct SupportsPenalty<DPSCDTag, Penalty> : std::is_same<Penalty, ElasticNetPenalty> {};

template <class Design, class Loss>
class DPDualCoordinateDescent {
  static_assert(supports_loss<DPSCDTag, Loss>,
                "DP-SCD needs a closed-form dual update: entries check supports_loss first");

 public:
  DPDualCoordinateDescent(const Design& x, const double* y, DualSettings settings,
                          RandomSource& rng, const Loss& loss = Loss())
      : loss_(loss), records_(x), n_(x.rows()), p_(x.cols()), y_(y), settings_(settings),
        rng_(rng),
        sampler_(n_, settings.batch_size), dual_(n_, 0.0), v_(p_, 0.0), coef_(p_, 0.0),
        snapshot_(p_, 0.0),
        row_scale_(n_, 1.0), kappa_unit_(n_, 0.0), batch_(settings.batch_size),
        dots_(settings.batch_size), zeta_(settings.batch_size),
        weight_(settings.batch_size), noise_(settings.batch_size) {
    const std::vector<double> squared_norm = record_squared_norms(x, false);
    const double R = settings_.row_bound;
    for (int i = 0; i < n_; ++i) {
      const double norm = std::sqrt(squared_norm[i]);
      row_scale_[i] = (std::isfinite(R) && norm > R) ? R / norm : 1.0;
      // m ||x~_i||^2, so that kappa_i = kappa_unit_[i] / (lambda n).
      kappa_unit_[i] = settings_.batch_size * row_scale_[i] * row_scale_[i] * squared_norm[i];
    }
  }

  int coordinates() const { return p_; }
  const std::vector<double>& coef() const { return coef_; }
  const std::vector<double>& dual() const { return dual_; }
  const std::vector<double>& shared() const { return v_; }

  template <class Penalty>
  void fit(const Penalty& penalty) {
    set_lambda(penalty.lambda);
    // The last epoch (n / m steps) starts here: its change of the primal
    // model is the convergence diagnostic (reported for epsilon = Inf only).
    const long long last_epoch = last_epoch_start(settings_.steps, n_, settings_.batch_size);
    for (long long t = 0; t < settings_.steps; ++t) {
      if (t == last_epoch) std::copy(v_.begin(), v_.end(), snapshot_.begin());
      sampler_.draw(rng_, batch_.data());
      step(batch_.data());
    }
    for (int j = 0; j < p_; ++j) coef_[j] = v_[j] * inverse_lambda_n_;
    last_pass_change_ = settings_.steps > 0 ? largest_change(v_.data(), snapshot_.data(), p_,
                                                             1.0, inverse_lambda_n_)
                                            : 0.0;
  }

  // The largest |change| of a coefficient over the last epoch of fit().
  double last_pass_change() const { return last_pass_change_; }

  // Test hooks: the state (a, v), lambda, and one step on a given batch.
  void set_state(const double* dual, const double* shared) {
    std::copy(dual, dual + n_, dual_.begin());
    std::copy(shared, shared + p_, v_.begin());
  }
  void set_lambda(double lambda) {
    if (!(lambda > 0.0)) throw std::invalid_argument("DP-SCD needs lambda > 0");
    inverse_lambda_n_ = 1.0 / (lambda * n_);
  }

  // One step of Algorithm 1 on the minibatch batch[0..m): the scaled local
  // updates from the current (a, v), then the noise.
  void step(const int* batch) {
    const int m = settings_.batch_size;
    records_.batch_dot(batch, m, v_.data(), dots_.data());
    const double C = settings_.clip;
    for (int k = 0; k < m; ++k) {
      const int i = batch[k];
      const double s = row_scale_[i];
      const double eta = s * dots_[k] * inverse_lambda_n_;
      double z = DualUpdate<Loss>::zeta(loss_, dual_[i], eta, y_[i],
                                        kappa_unit_[i] * inverse_lambda_n_);
      if (std::fabs(z) > C) z = std::copysign(C, z);
      zeta_[k] = z;
      weight_[k] = s * z;
    }
    records_.batch_add_scaled(batch, m, weight_.data(), v_.data());
    if (settings_.noise_sd > 0.0) {
      rng_.gaussian_block(noise_.data(), static_cast<std::size_t>(m), settings_.noise_sd, false);
      for (int k = 0; k < m; ++k) dual_[batch[k]] += zeta_[k] + noise_[k];
      rng_.gaussian_block(v_.data(), static_cast<std::size_t>(p_), settings_.noise_sd, true);
    } else {
      for (int k = 0; k < m; ++k) dual_[batch[k]] += zeta_[k];
    }
  }

 private:
  const Loss loss_;
  // Row access through two products (row'vector, vector += w row), with the
  // column transform (clamp, centre, scale) applied: the records as the
  // solver reads them (design.h).
  const RowAccess<Design> records_;
  const int n_, p_;
  const double* y_;
  const DualSettings settings_;
  RandomSource& rng_;
  MinibatchSampler sampler_;
  std::vector<double> dual_, v_, coef_, snapshot_;
  double last_pass_change_ = 0.0;
  std::vector<double> row_scale_, kappa_unit_;
  std::vector<int> batch_;
  std::vector<double> dots_, zeta_, weight_, noise_;
  double inverse_lambda_n_ = 0.0;
};

}  // namespace dpglmnet

#endif  // DPGLMNET_DPSCD_H
