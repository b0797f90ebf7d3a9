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
// at a time with vector kernels of the baseline width (simd.h); the prox is
// applied branch-free with per-lambda constants; and the minibatch of step
// t + 1 is drawn at step t, its records prefetched while step t computes.
// Batches are data-independent, so drawing one early changes nothing in the
// sampling or the privacy analysis.
#ifndef DPGLMNET_DPSGD_H
#define DPGLMNET_DPSGD_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "design.h"
#include "penalty.h"
#include "random.h"
#include "simd.h"

namespace dpglmnet {

struct StochasticSettings {
  double step;        // gamma = step / beta
  double clip;        // C, L2 bound on each record's gradient; +Inf: none
  double noise_sd;    // z * 2C, noise sd on the sum; 0: none
  int batch_size;     // m
  long long steps;    // minibatch steps per lambda
};

// Products of a record with the coefficients, in packs of the baseline
// vector width (simd.h: two lanes, SSE2 on x86-64 and NEON on arm64, no flags
// needed; one lane with compilers without vector extensions): rows are short
// (p = 8 in the paper's data), so a step is mostly these, and scalar code
// spends as much on loop overhead as on arithmetic.
namespace record_kernels {

constexpr int W = simd::kBaselineWidth;
typedef simd::Pack<W> Pack;

inline Pack load(const double* a) {
  Pack v;
  simd::load<W>(v, a);
  return v;
}

// a'b; four accumulators so that long rows are not bound by add latency.
inline double dot(const double* a, const double* b, int p) {
  Pack s0 = {}, s1 = {}, s2 = {}, s3 = {};
  int j = 0;
  for (; j + 4 * W <= p; j += 4 * W) {
    s0 += load(a + j) * load(b + j);
    s1 += load(a + j + W) * load(b + j + W);
    s2 += load(a + j + 2 * W) * load(b + j + 2 * W);
    s3 += load(a + j + 3 * W) * load(b + j + 3 * W);
  }
  for (; j + W <= p; j += W) s0 += load(a + j) * load(b + j);
  s0 += s1;
  s2 += s3;
  s0 += s2;
  double s = simd::horizontal_sum<W>(s0);
  for (; j < p; ++j) s += a[j] * b[j];
  return s;
}

// Short rows (p <= kShortRow): a batch at once, column block outer and
// records inner, so that a block of b (of g) stays in registers across the
// batch instead of being reloaded (restored) for every record.
// out[k] = row_k'b with row_k = base + batch[k] p.
inline void batch_dot(const double* base, int p, const int* batch, int m,
                      const double* b, double* out) {
  for (int k = 0; k < m; ++k) out[k] = 0.0;
  int j = 0;
  for (; j + 4 * W <= p; j += 4 * W) {
    const Pack b0 = load(b + j), b1 = load(b + j + W), b2 = load(b + j + 2 * W),
               b3 = load(b + j + 3 * W);
    for (int k = 0; k < m; ++k) {
      const double* r = base + static_cast<std::size_t>(batch[k]) * p + j;
      Pack s = load(r) * b0 + load(r + W) * b1;
      s += load(r + 2 * W) * b2 + load(r + 3 * W) * b3;
      out[k] += simd::horizontal_sum<W>(s);
    }
  }
  for (; j + W <= p; j += W) {
    const Pack b0 = load(b + j);
    for (int k = 0; k < m; ++k) {
      const Pack s = load(base + static_cast<std::size_t>(batch[k]) * p + j) * b0;
      out[k] += simd::horizontal_sum<W>(s);
    }
  }
  for (; j < p; ++j)
    for (int k = 0; k < m; ++k) out[k] += base[static_cast<std::size_t>(batch[k]) * p + j] * b[j];
}

// g += sum_k w[k] row_k
inline void batch_add_scaled(const double* base, int p, const int* batch, int m,
                             const double* w, double* g) {
  int j = 0;
  for (; j + 4 * W <= p; j += 4 * W) {
    Pack g0 = load(g + j), g1 = load(g + j + W), g2 = load(g + j + 2 * W),
         g3 = load(g + j + 3 * W);
    for (int k = 0; k < m; ++k) {
      const Pack wk = Pack{} + w[k];
      const double* r = base + static_cast<std::size_t>(batch[k]) * p + j;
      g0 += wk * load(r);
      g1 += wk * load(r + W);
      g2 += wk * load(r + 2 * W);
      g3 += wk * load(r + 3 * W);
    }
    simd::store<W>(g + j, g0);
    simd::store<W>(g + j + W, g1);
    simd::store<W>(g + j + 2 * W, g2);
    simd::store<W>(g + j + 3 * W, g3);
  }
  for (; j + W <= p; j += W) {
    Pack g0 = load(g + j);
    for (int k = 0; k < m; ++k)
      g0 += (Pack{} + w[k]) * load(base + static_cast<std::size_t>(batch[k]) * p + j);
    simd::store<W>(g + j, g0);
  }
  for (; j < p; ++j) {
    double gj = g[j];
    for (int k = 0; k < m; ++k) gj += w[k] * base[static_cast<std::size_t>(batch[k]) * p + j];
    g[j] = gj;
  }
}

// y += w x
inline void add_scaled(double w, const double* x, double* y, int p) {
  const Pack w2 = Pack{} + w;
  int j = 0;
  for (; j + 2 * W <= p; j += 2 * W) {
    simd::store<W>(y + j, load(y + j) + w2 * load(x + j));
    simd::store<W>(y + j + W, load(y + j + W) + w2 * load(x + j + W));
  }
  for (; j + W <= p; j += W) simd::store<W>(y + j, load(y + j) + w2 * load(x + j));
  for (; j < p; ++j) y[j] += w * x[j];
}

}  // namespace record_kernels

// A hint to fetch the line of `address` into the cache. Inline assembly on
// x86: GCC 12 at -O2 deletes __builtin_prefetch calls whose address depends
// on a variable offset (seen in the objdump of the DP-SGD step: the record
// prefetches were gone, only the label's remained).
inline void prefetch_address(const void* address) {
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
  __asm__ __volatile__("prefetcht0 %0" : : "m"(*static_cast<const char*>(address)));
#elif defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(address);
#else
  (void)address;
#endif
}

// The records of x as DP-SGD samples them: dot(i, b) = x_i'b,
// add_scaled(i, w, g): g += w x_i, prefetch(i): start fetching x_i.
template <class Design>
class SampledRecords;

// Dense: one row-major copy aligned to 64 bytes, so a record is a contiguous
// array (one cache line when p = 8) and the products are plain loops.
template <>
class SampledRecords<DenseDesign> {
 public:
  explicit SampledRecords(const DenseDesign& x)
      : p_(x.cols()), storage_(static_cast<std::size_t>(x.rows()) * x.cols() + 8) {
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(storage_.data());
    values_ = storage_.data() + ((64 - address % 64) % 64) / sizeof(double);
    for (int j = 0; j < p_; ++j)
      x.for_each_in_column(j, [&](int i, double v) {
        values_[static_cast<std::size_t>(i) * p_ + j] = v;
      });
  }

  double dot(int i, const double* b) const {
    return record_kernels::dot(values_ + static_cast<std::size_t>(i) * p_, b, p_);
  }

  void add_scaled(int i, double w, double* g) const {
    record_kernels::add_scaled(w, values_ + static_cast<std::size_t>(i) * p_, g, p_);
  }

  // out[k] = x_{batch[k]}'b, and g += sum_k w[k] x_{batch[k]}, for k < m.
  void batch_dot(const int* batch, int m, const double* b, double* out) const {
    if (p_ <= kShortRow) {
      record_kernels::batch_dot(values_, p_, batch, m, b, out);
    } else {
      for (int k = 0; k < m; ++k) out[k] = dot(batch[k], b);
    }
  }
  void batch_add_scaled(const int* batch, int m, const double* w, double* g) const {
    if (p_ <= kShortRow) {
      record_kernels::batch_add_scaled(values_, p_, batch, m, w, g);
    } else {
      for (int k = 0; k < m; ++k)
        if (w[k] != 0.0) add_scaled(batch[k], w[k], g);
    }
  }

  // The first lines of the row and its last (a row of p <= 8 spans at most
  // two lines); the hardware prefetcher follows long rows.
  void prefetch(int i) const {
    const double* row = values_ + static_cast<std::size_t>(i) * p_;
    const int last = std::max(p_ - 1, 0);
    prefetch_address(row);
    prefetch_address(row + std::min(8, last));
    prefetch_address(row + std::min(16, last));
    prefetch_address(row + last);
  }

 private:
  static constexpr int kShortRow = 32;  // measured: p = 1000 is faster record by record
  int p_;
  std::vector<double> storage_;
  double* values_;
};

// Sparse: compressed rows (RowAccess).
template <>
class SampledRecords<SparseDesign> {
 public:
  explicit SampledRecords(const SparseDesign& x) : rows_(x) {}
  double dot(int i, const double* b) const {
    double s = 0.0;
    rows_.for_each_in_row(i, [&](int j, double v) { s += v * b[j]; });
    return s;
  }
  void add_scaled(int i, double w, double* g) const {
    rows_.for_each_in_row(i, [&](int j, double v) { g[j] += w * v; });
  }
  void batch_dot(const int* batch, int m, const double* b, double* out) const {
    for (int k = 0; k < m; ++k) out[k] = dot(batch[k], b);
  }
  void batch_add_scaled(const int* batch, int m, const double* w, double* g) const {
    for (int k = 0; k < m; ++k)
      if (w[k] != 0.0) add_scaled(batch[k], w[k], g);
  }
  void prefetch(int) const {}

 private:
  const RowAccess<SparseDesign> rows_;
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

template <class Design, class Loss>
class DPStochasticGradient {
 public:
  DPStochasticGradient(const Design& x, const double* y, bool intercept,
                       StochasticSettings settings, RandomSource& rng)
      : records_(x), n_(x.rows()), p_(x.cols()),
        coordinates_(x.cols() + (intercept ? 1 : 0)), settings_(settings),
        rng_(rng), coef_(coordinates_, 0.0), gradient_(coordinates_, 0.0),
        snapshot_(coordinates_, 0.0),
        sampler_(n_, std::max(settings.batch_size, 1)), label_cap_(n_),
        batch_(kSlots * static_cast<std::size_t>(std::max(settings.batch_size, 1))),
        eta_(std::max(settings.batch_size, 1)), weight_(eta_.size()),
        threshold_(p_), denominator_(p_) {
    std::vector<double> squared_norm(n_, intercept ? 1.0 : 0.0);
    for (int j = 0; j < p_; ++j)
      x.for_each_in_column(j, [&](int i, double v) { squared_norm[i] += v * v; });
    // The gradient of record i is d_i (x_i, 1), of norm |d_i| ||(x_i, 1)||:
    // clipping it to C is clamping d_i to +-C / ||(x_i, 1)||.
    for (int i = 0; i < n_; ++i) {
      const double cap = squared_norm[i] > 0.0
                             ? settings_.clip / std::sqrt(squared_norm[i])
                             : std::numeric_limits<double>::infinity();
      label_cap_[i] = {y[i], cap};
    }
  }

  int coordinates() const { return coordinates_; }
  const std::vector<double>& coef() const { return coef_; }

  void fit(const ElasticNetPenalty& penalty) {
    plan_prox(penalty);
    // The last epoch (n / m steps) starts here: its coefficient change is the
    // convergence diagnostic (reported for epsilon = Inf fits only).
    const long long epoch = (n_ + settings_.batch_size - 1) / settings_.batch_size;
    const long long last_epoch = std::max(0LL, settings_.steps - epoch);
    for (long long t = 0; t < settings_.steps; ++t) {
      if (t == last_epoch) std::copy(coef_.begin(), coef_.end(), snapshot_.begin());
      step();
    }
    last_pass_change_ = 0.0;
    if (settings_.steps > 0)
      for (int j = 0; j < coordinates_; ++j)
        last_pass_change_ = std::max(last_pass_change_, std::fabs(coef_[j] - snapshot_[j]));
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

  // The constants of penalty.prox(j, v, gamma) for this lambda, computed as
  // it computes them, so that the step's prox loop below gives the same
  // doubles without a call and a branch per coordinate.
  void plan_prox(const ElasticNetPenalty& penalty) {
    const double gamma = settings_.step;
    for (int j = 0; j < p_; ++j) {
      const double scale = gamma * penalty.lambda * penalty.penalty_factor[j];
      threshold_[j] = scale * penalty.alpha;
      denominator_[j] = 1.0 + scale * (1.0 - penalty.alpha);
    }
    lower_ = penalty.lower;
    upper_ = penalty.upper;
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

    // Proximal step: soft-threshold, shrink, clamp (ElasticNetPenalty::prox),
    // branch-free: sign(v) max(|v| - l1, 0) / (1 + l2) is (v - l1) / (1 + l2)
    // or (v + l1) / (1 + l2) exactly; + 0.0 turns the -0 of small negative v
    // into prox's +0.
    const double scale = settings_.step / m;
    double* coef = coef_.data();
    const double* g = gradient_.data();
    for (int j = 0; j < p_; ++j) {
      const double v = coef[j] - scale * g[j];
      const double magnitude = std::max(std::fabs(v) - threshold_[j], 0.0) / denominator_[j];
      const double b = std::copysign(magnitude, v) + 0.0;
      coef[j] = std::min(std::max(b, lower_[j]), upper_[j]);
    }
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
    const double d = Loss::derivative(linear, r.label);
    return std::min(std::max(d, -r.cap), r.cap);
  }

  void add_clipped_gradient(int i, double w) {
    if (w == 0.0) return;
    records_.add_scaled(i, w, gradient_.data());
    if (coordinates_ > p_) gradient_[p_] += w;
  }

  const SampledRecords<Design> records_;
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
  std::vector<double> threshold_, denominator_;  // prox constants (plan_prox)
  const double* lower_ = nullptr;
  const double* upper_ = nullptr;
};

}  // namespace dpglmnet

#endif  // DPGLMNET_DPSGD_H
