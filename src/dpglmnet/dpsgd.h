// Proximal DP-SGD (Abadi et al. 2016 with a proximal step, as the baseline
// of Mangold et al. 2022, Sec. 6).
//
// Each step draws a minibatch of m records uniformly without replacement,
// independently of earlier steps (the sampling that the without-replacement
// RDP bound of Wang, Balle & Kasiviswanathan 2019 analyses; shuffle-and-
// iterate has no such analysis). The gradient of each record, over the
// features and the intercept, is clipped to L2 norm C; their sum, whose
// replace-one sensitivity is 2C, gets N(0, (z 2C)^2 I) noise; divided by m,
// it makes a proximal step of size gamma = step / beta on every coordinate.
// A step costs O(m p) dense (O(nnz of the batch) sparse) plus O(p) noise,
// with no O(n) work and no allocation after construction.
//
// Speed (a batch of 10 records makes a step a few hundred nanoseconds, so
// constants matter): the noise of a step is drawn as one block (exact
// ziggurat, random.h); records are stored row by row, and each record's
// label and clipping cap as one 16-byte pair; the record gradient is a
// scalar d times (x_i, 1), so clipping it to C is clamping d to
// +-C / ||(x_i, 1)|| (norms precomputed); short rows are processed a batch
// at a time with vector kernels of the baseline width (RowAccess, design.h);
// the penalty's prox is planned once per lambda and applied branch-free
// (Penalty::Planned, penalties/protocol.h); and the minibatch of step
// t + 1 is drawn at step t, its records prefetched while step t computes.
// Batches are data-independent, so drawing one early changes nothing in the
// sampling or the privacy analysis.
#ifndef DPGLMNET_DPSGD_H
#define DPGLMNET_DPSGD_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "clip.h"
#include "convergence.h"
#include "design.h"
#include "penalties/elastic_net.h"
#include "random.h"

namespace dpglmnet {

struct StochasticSettings {
  double step;        // gamma = step / beta
  double clip;        // C, L2 bound on each record's gradient; +Inf: none
  double noise_sd;    // z * 2C, noise sd on the sum; 0: none
  int batch_size;     // m
  long long steps;    // minibatch steps per lambda
};

// Minibatches: m distinct records of n, uniformly (every ordered m-tuple
// equally likely), independently at every step: a partial Fisher-Yates on a
// persistent array of the n indices (whatever order the previous draws left
// it in). Rejection against a bitmap of taken indices measured slower for
// n up to 45312 (the array stays in L2) and faster only beyond L2 (n = 1e6).
class MinibatchSampler {
 public:
  MinibatchSampler(int n, int m) : m_(m), pool_(n > 0 ? n : 0) {
    // R checks batch.size; this guards the other callers (the swaps below
    // would leave the array otherwise).
    if (m < 1 || m > n) throw std::invalid_argument("minibatch size must be in [1, n]");
    std::iota(pool_.begin(), pool_.end(), 0);
  }

  // batch[0..m) <- the next minibatch.
  void draw(RandomSource& rng, int* batch) {
    rng.partial_shuffle(pool_.data(), static_cast<std::uint32_t>(pool_.size()),
                        static_cast<std::uint32_t>(m_));
    std::copy(pool_.begin(), pool_.begin() + m_, batch);
  }

 private:
  const int m_;
  std::vector<int> pool_;
};

// The capabilities tag of DP-SGD (capabilities.h): every loss, every penalty.
struct DPSGDTag {
  static constexpr const char* name = "dpsgd";
};

// Penalty: the type fit() takes (its planned prox is kept between lambdas).
template <class Design, class Loss, class Penalty = ElasticNetPenalty>
class DPStochasticGradient {
 public:
  DPStochasticGradient(const Design& x, const double* y, bool intercept,
                       StochasticSettings settings, RandomSource& rng,
                       const Loss& loss = Loss())
      : loss_(loss), records_(x), n_(x.rows()), p_(x.cols()),
        coordinates_(x.cols() + (intercept ? 1 : 0)), settings_(settings),
        rng_(rng), coef_(coordinates_, 0.0), gradient_(coordinates_, 0.0),
        snapshot_(coordinates_, 0.0),
        sampler_(n_, std::max(settings.batch_size, 1)), label_cap_(n_),
        batch_(kSlots * static_cast<std::size_t>(std::max(settings.batch_size, 1))),
        eta_(std::max(settings.batch_size, 1)), weight_(eta_.size()) {
    // Norms of the transformed records, as the steps see them.
    const std::vector<double> squared_norm = record_squared_norms(x, intercept);
    // The gradient of record i is d_i (x_i, 1), of norm |d_i| ||(x_i, 1)||:
    // clipping it to C is clamping d_i to +-C / ||(x_i, 1)||.
    for (int i = 0; i < n_; ++i) {
      label_cap_[i] = {y[i], record_derivative_cap(settings_.clip, squared_norm[i])};
    }
  }

  int coordinates() const { return coordinates_; }
  const std::vector<double>& coef() const { return coef_; }

  void fit(const Penalty& penalty) {
    penalty.plan(prox_, p_, settings_.step);
    // The last epoch (n / m steps) starts here: its coefficient change is the
    // convergence diagnostic (reported for epsilon = Inf fits only).
    const long long last_epoch = last_epoch_start(settings_.steps, n_, settings_.batch_size);
    for (long long t = 0; t < settings_.steps; ++t) {
      if (t == last_epoch) std::copy(coef_.begin(), coef_.end(), snapshot_.begin());
      step();
    }
    last_pass_change_ = settings_.steps > 0
                            ? largest_change(coef_.data(), snapshot_.data(), coordinates_)
                            : 0.0;
  }

  // The largest |change| of a coefficient over the last epoch of fit().
  double last_pass_change() const { return last_pass_change_; }

  // The private full-batch gradient at the current point (every record,
  // clipped, summed, noised, divided by n): one Gaussian release. Returns
  // the feature coordinates.
  std::vector<double> private_full_gradient() {
    std::fill(gradient_.begin(), gradient_.end(), 0.0);
    for (int i = 0; i < n_; ++i) add_clipped_gradient(i, clipped_derivative(i, eta(i)));
    add_noise();
    std::vector<double> g(p_);
    for (int j = 0; j < p_; ++j) g[j] = gradient_[j] / n_;
    return g;
  }

 private:
  struct LabelCap {
    double label;  // y_i
    double cap;    // C / ||(x_i, 1)||
  };

  // The next minibatch into `batch`, its records prefetched.
  void draw_batch(int* batch) {
    sampler_.draw(rng_, batch);
    for (int k = 0; k < settings_.batch_size; ++k) {
      prefetch_address(&label_cap_[batch[k]]);
      records_.prefetch(batch[k]);
    }
  }

  void step() {
    const int m = settings_.batch_size;
    // Batches are drawn kLookahead steps ahead, so that their records are
    // fetched from memory while the steps in between compute.
    while (drawn_ahead_ <= kLookahead) {
      draw_batch(batch_.data() + static_cast<std::size_t>((head_ + drawn_ahead_) % kSlots) * m);
      ++drawn_ahead_;
    }
    const int* current = batch_.data() + static_cast<std::size_t>(head_) * m;
    head_ = (head_ + 1) % kSlots;
    --drawn_ahead_;

    // The noise of the step, then the clipped gradients added to it.
    if (settings_.noise_sd > 0.0)
      rng_.gaussian_block(gradient_.data(), gradient_.size(), settings_.noise_sd, false);
    else
      std::fill(gradient_.begin(), gradient_.end(), 0.0);
    // Linear predictors, clipped derivatives, then their weighted sum of rows.
    records_.batch_dot(current, m, coef_.data(), eta_.data());
    const double offset = coordinates_ > p_ ? coef_[p_] : 0.0;
    double weight_sum = 0.0;
    for (int k = 0; k < m; ++k) {
      weight_[k] = clipped_derivative(current[k], offset + eta_[k]);
      weight_sum += weight_[k];
    }
    records_.batch_add_scaled(current, m, weight_.data(), gradient_.data());
    if (coordinates_ > p_) gradient_[p_] += weight_sum;

    // Proximal step (the penalty's prox, planned for this lambda).
    const double scale = settings_.step / m;
    double* coef = coef_.data();
    const double* g = gradient_.data();
    for (int j = 0; j < p_; ++j) coef[j] = prox_.apply(j, coef[j] - scale * g[j]);
    if (coordinates_ > p_) coef_[p_] -= scale * gradient_[p_];
  }

  void add_noise() {
    if (settings_.noise_sd > 0.0)
      rng_.gaussian_block(gradient_.data(), gradient_.size(), settings_.noise_sd, true);
  }

  double eta(int i) const {
    const double offset = coordinates_ > p_ ? coef_[p_] : 0.0;
    return offset + records_.dot(i, coef_.data());
  }

  double clipped_derivative(int i, double linear) const {
    const LabelCap& r = label_cap_[i];
    // (a NaN derivative, diverged iterates, becomes the cap: see clip())
    return clip(loss_.derivative(linear, r.label), r.cap);
  }

  void add_clipped_gradient(int i, double w) {
    if (w == 0.0) return;
    records_.add_scaled(i, w, gradient_.data());
    if (coordinates_ > p_) gradient_[p_] += w;
  }

  const Loss loss_;
  const RowAccess<Design> records_;  // the one copy of x, as rows
  const int n_, p_, coordinates_;
  const StochasticSettings settings_;
  RandomSource& rng_;
  std::vector<double> coef_, gradient_, snapshot_;
  double last_pass_change_ = 0.0;
  MinibatchSampler sampler_;
  std::vector<LabelCap> label_cap_;
  static constexpr int kLookahead = 1;
  static constexpr int kSlots = kLookahead + 1;
  std::vector<int> batch_;  // kSlots batches: this step's and the next ones'
  int head_ = 0;            // slot of this step's batch
  int drawn_ahead_ = 0;     // batches drawn, from head_ on
  std::vector<double> eta_, weight_;  // x_i'b and clipped derivatives of the batch
  typename Penalty::Planned prox_;    // the penalty's prox for this lambda
};

}  // namespace dpglmnet

#endif  // DPGLMNET_DPSGD_H
