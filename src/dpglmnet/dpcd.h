// Proximal differentially private coordinate descent (DP-CD), Algorithm 1 of
// Mangold, Bellet, Salmon & Tommasi (ICML 2022).
//
// Coordinates 0..p-1 are the columns of x; with an intercept, coordinate p is
// an unpenalized coordinate whose feature is the constant 1. One step on
// coordinate j releases the clipped coordinate gradient
//   g_j = (1/n) sum_i clip(l'(eta_i, y_i) x_ij, C_j) + N(0, sigma_j^2)
// (Sec. 5.1: clipping each per-record term to [-C_j, C_j] bounds the
// replace-one sensitivity of g_j by 2 C_j / n) and sets
//   b_j <- prox_{gamma_j psi_j}(b_j - gamma_j g_j).
// The linear predictor eta is kept up to date, so a step costs O(n) dense and
// O(nnz of column j) sparse, and nothing is allocated after construction.
// A step's update of eta is deferred and fused with the next step's gradient
// into one sweep over the records (kernels.h).
// Privacy is accounted by the caller: every step is one Gaussian release.
// The loss and the penalty are protocols (losses/protocol.h,
// penalties/protocol.h): DP-CD fits every registered one.
// Optional per-record weights omega_i (Loss = Weighted<...>, losses/protocol.h) multiply
// each record's term before the clip, g_j = (1/n) sum_i clip(omega_i l'_i x_ij,
// C_j), so the sensitivity stays 2 C_j / n; an optional offset o_i enters the
// linear predictor, eta_i = o_i + b0 + x_i'b (glmnet's `offset`).
// Blocks: columns with disjoint supports (the uncentred dummies of one
// factor: no record has two of them non-zero) form one unit, whose
// coordinates are updated one after the other. A step on one of them moves
// eta only on its own records, so the gradients of the others are those at
// the unit's start: the unit's steps release the block's gradient vector
// at one point, one Gaussian mechanism (replacing a record moves at most
// two of its coordinates, by C_a / n and C_b / n, or one by 2 C_a / n: in
// the norm weighted by 1 / C_j, at most 2 / n, as one coordinate). The
// caller accounts one release per unit; a pass visits every unit once.
#ifndef DPGLMNET_DPCD_H
#define DPGLMNET_DPCD_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "kernels.h"
#include "random.h"

namespace dpglmnet {

enum class Selection { permutation, random, cyclic };

// The capabilities tag of DP-CD (capabilities.h): every loss, every penalty.
struct DPCDTag {
  static constexpr const char* name = "dpcd";
};

struct CoordinateSettings {
  // Each of length p + intercept (features first, then the intercept).
  std::vector<double> step;      // gamma_j = step / M_j
  std::vector<double> clip;      // C_j; +Inf disables clipping
  std::vector<double> noise_sd;  // sigma_j; 0 disables noise
  // Without noise only (epsilon = Inf): stop before `passes` once a pass
  // moves no coefficient by more than this times the largest |coefficient|
  // (0: always make every pass). Ignored when any sigma_j > 0, so the
  // number of passes of a private fit never depends on the data.
  double stop_tolerance = 0.0;
  // Tail averaging (0: off): each fit() ends at the mean of the iterates
  // that end its last ceil(tail_average x passes) passes, a feature at 0
  // after the last pass kept at 0. Post-processing of released steps: no
  // privacy cost.
  double tail_average = 0.0;
  // Per feature (length p, or empty: none), the block of coordinates with
  // disjoint supports it belongs to (0: its own unit). The caller
  // guarantees the supports are disjoint.
  std::vector<int> block;
  // OpenMP threads of the dense record sweeps (kernels.h); the result does
  // not depend on it, nor does the noise (drawn on the calling thread).
  int threads = 1;
  // The signal gate (R/signal.R), 0: none. The first pass of the first
  // fit() (from b = 0) sums the squares of the
  // released gradients of the features with gate_feature[j] != 0; below
  // gate_energy, the rest of the fit is at penalty lambda gate_lambda, and
  // each feature of the first pass is set to the prox at gate_lambda of the
  // same released step (as if the pass had been made at it). Post-processing
  // of the pass's releases: no privacy cost. Not with averaging, nor with
  // random selection (a pass must visit each coordinate once).
  double gate_energy = 0.0;
  // ... unless some counted feature's |released gradient| is at least
  // gate_z times its noise sd (+Inf: never)
  double gate_z = std::numeric_limits<double>::infinity();
  double gate_lambda = 0.0;
  std::vector<double> gate_feature;  // length p when gate_energy > 0
  // The gate's ramp (0: none, the step to gate_lambda above). With T^2 =
  // gate_noise_energy (the sum's expected noise) and r = sqrt(max(0, sum -
  // T^2)) its signal, the closed gate's lambda goes geometrically from
  // gate_lambda at r_low = sqrt(gate_ramp_energy - T^2) to the fit's own at
  // r_open = sqrt(gate_energy - T^2): a signal just short of the gate's
  // threshold no longer multiplies lambda by the whole jump (R/signal.R).
  double gate_noise_energy = 0.0;
  double gate_ramp_energy = 0.0;
  // The adaptive clip (R/dpcd.R, dpcd_scale_constants), off at
  // scale_reference 0. Before passes 1, 2, 4, 8, ... (counted from 0) of
  // every fit() (each lambda of a path), one Gaussian
  // release of the mean over records of min(l'(eta_i, y_i)^2, B^2) / B^2
  // (terms in [0, 1]: replace-one sensitivity 1 / n) with noise sd
  // scale_noise_sd, where B = scale_beta s, s the last released scale
  // (scale_reference before the first release); then
  // s^2 = B^2 max(released, scale_noise_sd), and every coordinate's clip
  // and noise sd are its planned ones times min(1, scale_kappa s /
  // scale_reference): the clipped gradients keep their noise multiplier
  // (each is still a Gaussian mechanism of the path's mu), so the clips
  // follow the released scale of the loss's derivative as the fit
  // shrinks it (adaptive clipping, Andrew et al., NeurIPS 2021). Without
  // weights only (their terms are w_i l'_i). (B follows s: for a loss whose
  // derivatives are mostly near 0 with a few near their bound, the
  // misclassified records of a separable binomial fit, it would cut those
  // and the next s with them down to the floor; such a family would clamp
  // at its public bound instead. R/dpcd.R enables it for the squared loss.)
  double scale_reference = 0.0;
  double scale_noise_sd = 0.0;
  double scale_kappa = 2.0;
  double scale_beta = 2.0;
  // s is at least scale_floor x scale_reference (public): without it, a
  // response the fit explains exactly would halve s release after release
  // until B^2 underflowed
  double scale_floor = 0.005;
  // The split intercept (R/dpcd.R, dpcd_intercept_constants), off unless
  // intercept_split. For a loss with l'(eta, y) = l'(eta, 0) - y, y in
  // [0, 1] and l'(., 0) increasing with values in [0, 1] (the binomial
  // loss: l'(eta, 0) = sigmoid(eta)), the intercept's gradient
  // (1/n) sum_i l'(eta_i, y_i) is released as
  //   (1/n) sum_i l'(eta_i, 0) - intercept_response_mean + N(0, s_t^2),
  // intercept_response_mean the mean of y released once before the fit (its
  // own Gaussian mechanism, sensitivity 1 / n, made by the caller), and
  // s_t = intercept_multiplier w_t / n: replacing record i by i' moves the
  // first mean by |l'(eta_i, 0) - l'(eta_i', 0)| / n <= w_t / n, w_t the
  // range of l'(., 0) over the linear predictors a record in the public box
  // of the transformed columns (ColumnTransform's clamp) can have at the
  // current, released coefficients (adaptive composition). So each step is
  // the path's Gaussian mechanism (multiplier intercept_multiplier) with a
  // sensitivity of w_t / n <= 1 / n where w_t < 2 C_0 (else the step is the
  // clipped one, sensitivity 2 C_0 / n), and 0 while every feature is at 0
  // (then eta_i = b0 for every record and the mean is l'(b0, 0), no data
  // read; one noise draw discarded): a fit whose features stay at 0 ends
  // at the released mean's intercept. Each term l'(eta_i, 0) is clamped to
  // the range's ends, so w_t bounds the sensitivity by construction. The fit
  // starts at b0 = intercept_start (the link of the released mean, by the
  // caller: post-processing). Without weights or an offset.
  bool intercept_split = false;
  double intercept_start = 0.0;
  double intercept_response_mean = 0.0;
  double intercept_multiplier = 0.0;
};

template <class Design, class Loss>
class DPCoordinateDescent {
 public:
  DPCoordinateDescent(const Design& x, const double* y, bool intercept,
                      CoordinateSettings settings, int passes,
                      Selection selection, bool average, RandomSource& rng,
                      const double* weights = nullptr, const double* offset = nullptr,
                      const Loss& loss = Loss())
      : x_(x), y_(y), offset_(offset), n_(x.rows()), p_(x.cols()),
        coordinates_(x.cols() + (intercept ? 1 : 0)),
        settings_(std::move(settings)), passes_(passes),
        selection_(selection), average_(average), rng_(rng),
        sweeper_(x, y, kernels::best_isa(), settings_.threads, weights, loss),
        loss_(loss), weights_(weights), coef_(coordinates_, 0.0), eta_(offset ? offset : nullptr, offset ? offset + n_ : nullptr),
        average_sum_(average ? coordinates_ : 0, 0.0),
        last_counted_(average ? coordinates_ : 0, 0) {
    if (!offset) eta_.assign(n_, 0.0);
    // (only for a loss whose l'(., 0) maps into [0, 1], checked at its
    // ends: the cap w <= 1 below rests on it; elsewhere the clipped steps,
    // which the ledger accounts as well)
    splits_intercept_ = settings_.intercept_split && coordinates_ > p_ && !offset && !weights &&
                        loss_.derivative(-std::numeric_limits<double>::infinity(), 0.0) >= 0.0 &&
                        loss_.derivative(std::numeric_limits<double>::infinity(), 0.0) <= 1.0;
    if (splits_intercept_) start_split_intercept();
    clip_ = settings_.clip;
    noise_sd_ = settings_.noise_sd;
    scales_ = settings_.scale_reference > 0.0 && !weights_;
    scale_ = settings_.scale_reference;
    build_units();
    order_.resize(units_);
    std::iota(order_.begin(), order_.end(), 0);
    gates_ = settings_.gate_energy > 0.0 && !average_ && selection_ != Selection::random &&
             static_cast<int>(settings_.gate_feature.size()) == p_;
    if (gates_) gate_moved_.assign(p_, 0.0);
    stops_at_convergence_ =
        settings_.stop_tolerance > 0.0 &&
        std::all_of(settings_.noise_sd.begin(), settings_.noise_sd.end(),
                    [](double sd) { return sd == 0.0; });
  }

  int coordinates() const { return coordinates_; }
  // coef()[j] for j < p is b_j; coef()[p] is the intercept when fitted.
  const std::vector<double>& coef() const { return coef_; }

  // The number of units a pass releases: those with a coordinate whose
  // step is taken (a unit of coordinates with step 0 releases nothing).
  int units() const {
    int moving = 0;
    for (int u = 0; u < units_; ++u) {
      for (int m = unit_start_[u]; m < unit_start_[u + 1]; ++m) {
        if (settings_.step[unit_coordinates_[m]] > 0.0) {
          ++moving;
          break;
        }
      }
    }
    return moving;
  }

  // `passes` passes of a step per unit each (a unit: a coordinate, or a
  // block's coordinates in a row) from the current point (warm start). With
  // averaging, each pass is one outer iteration of Algorithm 1 (K = units_
  // inner steps) ending at the average of its inner iterates.
  template <class Penalty>
  void fit(const Penalty& penalty) {
    const int steps = units_;
    Penalty gated = penalty;
    const Penalty* current = &penalty;
    const int tail_passes = settings_.tail_average > 0.0
        ? static_cast<int>(std::ceil(settings_.tail_average * passes_)) : 0;
    const int tail_from = tail_passes > 1 ? passes_ - tail_passes : passes_;
    int tail_count = 0;
    tail_sum_.assign(tail_passes > 1 ? coordinates_ : 0, 0.0);
    for (int pass = 0; pass < passes_; ++pass) {
      last_pass_change_ = 0.0;
      if (selection_ == Selection::permutation) shuffle_order();
      gate_recording_ = gates_ && !gate_done_ && pass == 0;
      // (before passes 1, 2, 4, 8, ... of each fit(): powers of two)
      if (scales_ && pass > 0 && (pass & (pass - 1)) == 0) release_scale();
      if (average_) {
        std::fill(average_sum_.begin(), average_sum_.end(), 0.0);
        std::fill(last_counted_.begin(), last_counted_.end(), 0);
      }
      for (int k = 0; k < steps; ++k) {
        const int u = selection_ == Selection::random
                          ? static_cast<int>(rng_.index(steps))
                          : order_[k];
        for (int m = unit_start_[u]; m < unit_start_[u + 1]; ++m) {
          const int j = unit_coordinates_[m];
          if (average_) {
            // Lazy running sum of the iterates theta^1..theta^K: coef_[j]
            // was the value of iterates last_counted_[j]+1 .. k.
            average_sum_[j] += coef_[j] * (k - last_counted_[j]);
            last_counted_[j] = k;
          }
          update(j, *current);
        }
      }
      if (gate_recording_) {
        gate_recording_ = false;
        gate_done_ = true;
        if (gate_energy_ < settings_.gate_energy && !(gate_largest_z_ >= settings_.gate_z)) {
          gate_closed_ = true;
          gated.lambda = ramped_gate_lambda(penalty.lambda);
          gate_lambda_used_ = gated.lambda;
          current = &gated;
          apply_pending_change();
          for (int j = 0; j < p_; ++j) {
            if (settings_.step[j] > 0.0) coef_[j] = gated.prox(j, gate_moved_[j], settings_.step[j]);
          }
          recompute_linear_predictor();
        }
      }
      if (average_) {
        apply_pending_change();
        for (int j = 0; j < coordinates_; ++j) {
          average_sum_[j] += coef_[j] * (steps - last_counted_[j]);
          coef_[j] = average_sum_[j] / steps;
        }
        recompute_linear_predictor();
      }
      if (stops_at_convergence_ && converged()) break;
      if (pass >= tail_from) {
        apply_pending_change();
        for (int j = 0; j < coordinates_; ++j) tail_sum_[j] += coef_[j];
        ++tail_count;
      }
    }
    apply_pending_change();
    if (tail_count > 1) {
      // (a feature the last pass left at 0 stays there: the support is the
      // last iterate's, as without averaging, not the union of the tail's)
      for (int j = 0; j < coordinates_; ++j) {
        if (j < p_ && coef_[j] == 0.0) continue;
        coef_[j] = tail_sum_[j] / tail_count;
      }
      recompute_linear_predictor();
    }
  }

  // The largest |change| of a coefficient in the last pass of fit(): a
  // convergence diagnostic. It depends on the data without noise of its
  // own, so the R side reports it for epsilon = Inf fits only.
  double last_pass_change() const { return last_pass_change_; }

  // The signal gate's sum of squared released feature gradients over the
  // first pass, and whether it fell below gate_energy (settings).
  double gate_energy() const { return gate_energy_; }
  bool gate_closed() const { return gate_closed_; }
  // the lambda the closed gate set (0 when it stayed open)
  double gate_lambda_used() const { return gate_lambda_used_; }
  // The first pass's released gradient of each feature (0 where none).
  std::vector<double> gate_gradients() const {
    std::vector<double> g(gate_moved_.size(), 0.0);
    for (std::size_t j = 0; j < g.size(); ++j)
      if (settings_.step[j] > 0.0) g[j] = -gate_moved_[j] / settings_.step[j];
    return g;
  }

  // The adaptive clip's released scales s, in the order released (empty
  // when off), and the factor of the clips now.
  const std::vector<double>& released_scales() const { return released_scales_; }
  double clip_scale() const { return clip_scale_; }

  // The released (clipped, noisy) gradient of coordinate j at the current
  // point: one Gaussian mechanism.
  double private_gradient(int j) {
    double g = clipped_gradient(j);
    if (noise_sd_[j] > 0.0) g += noise_sd_[j] * rng_.gaussian();
    return g;
  }

  // Permutation order from this many coordinates on: a random permutation of
  // blocks of kBlock consecutive coordinates, each block shuffled on its own
  // (kernels.h's per-coordinate data of a block stay in cache while it
  // runs). Below it, a uniformly random permutation. Both visit every
  // coordinate once per pass in an order drawn from the generator alone,
  // independent of the data, so the privacy accounting (an adaptive
  // composition of one Gaussian release per step) is unchanged.
  static constexpr int kBlockedFrom = 1 << 16;
  static constexpr int kBlock = 64;

 private:
  // Units: every coordinate alone, but the features of one block together
  // (in coordinate order); unit u holds unit_coordinates_[unit_start_[u] ..
  // unit_start_[u + 1]). Without blocks, unit u is coordinate u.
  void build_units() {
    const std::vector<int>& block = settings_.block;
    const bool blocked = static_cast<int>(block.size()) == p_ &&
                         std::any_of(block.begin(), block.end(), [](int b) { return b != 0; });
    unit_coordinates_.clear();
    unit_start_.assign(1, 0);
    std::vector<bool> placed(coordinates_, false);
    for (int j = 0; j < coordinates_; ++j) {
      if (placed[j]) continue;
      const int id = blocked && j < p_ ? block[j] : 0;
      for (int k = j; k < (id != 0 ? p_ : j + 1); ++k) {
        if (k == j || block[k] == id) {
          unit_coordinates_.push_back(k);
          placed[k] = true;
        }
      }
      unit_start_.push_back(static_cast<int>(unit_coordinates_.size()));
    }
    units_ = static_cast<int>(unit_start_.size()) - 1;
  }

  void shuffle_order() {
    if (units_ < kBlockedFrom) {
      rng_.shuffle(order_);
      return;
    }
    const int blocks = (units_ + kBlock - 1) / kBlock;
    block_order_.resize(blocks);
    std::iota(block_order_.begin(), block_order_.end(), 0);
    rng_.shuffle(block_order_);
    int k = 0;
    for (const int b : block_order_) {
      const int start = b * kBlock, end = std::min(start + kBlock, units_);
      int* block = order_.data() + k;
      for (int j = start; j < end; ++j) order_[k++] = j;
      const std::uint32_t size = static_cast<std::uint32_t>(end - start);
      rng_.partial_shuffle(block, size, size);
    }
  }

  // The split intercept (settings: intercept_split): b0 at its start, and
  // each column's box [lo_j, hi_j] as the design reads it (its clamp,
  // centred and scaled, with 0).
  void start_split_intercept() {
    coef_[p_] = settings_.intercept_start;
    std::fill(eta_.begin(), eta_.end(), coef_[p_]);
    box_lower_.assign(p_, 0.0);
    box_upper_.assign(p_, 0.0);
    const ColumnTransform& transform = x_.transform();
    for (int j = 0; j < p_; ++j) {
      const ColumnTransform::Column map = transform.column(j);
      const double a = (map.lower - map.center) * map.scale;
      const double b = (map.upper - map.center) * map.scale;
      // (widened to 0: a sparse column's zeros are not clamped)
      box_lower_[j] = std::min(std::min(a, b), 0.0);
      box_upper_[j] = std::max(std::max(a, b), 0.0);
    }
  }

  bool any_feature_moved() const {
    for (int j = 0; j < p_; ++j) {
      if (coef_[j] != 0.0) return true;
    }
    return false;
  }

  // [L, H]: l'(., 0) at the ends of b0 + x'b for x in the box, widened by
  // a relative 1e-9 (the rounding of eta); each record's term is clamped to
  // it, so w = H - L bounds the release's sensitivity times n by
  // construction (an independent review: eta's rounding drift).
  struct DerivativeRange {
    double lower, upper;
  };
  DerivativeRange intercept_derivative_range() const {
    double low = 0.0, high = 0.0;
    for (int j = 0; j < p_; ++j) {
      const double b = coef_[j];
      if (b == 0.0) continue;
      const double a = b * box_lower_[j], c = b * box_upper_[j];
      low += std::min(a, c);
      high += std::max(a, c);
    }
    const double b0 = coef_[p_];
    const double margin = 1e-9 * (1.0 + std::fabs(b0) + std::fabs(low) + std::fabs(high));
    DerivativeRange r{loss_.derivative(b0 + low - margin, 0.0),
                      loss_.derivative(b0 + high + margin, 0.0)};
    // (a NaN, from an infinite box at a saturated end: the whole [0, 1])
    if (!(r.lower >= 0.0)) r.lower = 0.0;
    if (!(r.upper <= 1.0)) r.upper = 1.0;
    if (!(r.upper >= r.lower)) r = {0.0, 1.0};
    return r;
  }

  // The intercept's released gradient with the split (settings).
  double private_intercept_gradient() {
    apply_pending_change();
    if (!any_feature_moved()) {
      // (every eta_i is b0: l'(b0, 0) is public given b0; one draw
      // discarded, so that the noise stream does not depend on which
      // branch ran: the database path keeps step with it)
      rng_.gaussian();
      return loss_.derivative(coef_[p_], 0.0) - settings_.intercept_response_mean;
    }
    const DerivativeRange range = intercept_derivative_range();
    const double width = range.upper - range.lower;
    // (the clipped step where its sensitivity 2 C_0 / n is the smaller: a
    // choice from public values, each a Gaussian mechanism at the path's
    // multiplier)
    if (!(width < 2.0 * clip_[p_])) return private_gradient(p_);
    double sum = 0.0;
    for (int i = 0; i < n_; ++i) {
      double d = loss_.derivative(eta_[i], 0.0);
      d = d < range.upper ? d : range.upper;
      d = d > range.lower ? d : range.lower;
      sum += d;
    }
    const double sd = settings_.intercept_multiplier * width / n_;
    return sum / n_ - settings_.intercept_response_mean + sd * rng_.gaussian();
  }

  // The adaptive clip's release (settings: scale_reference): the noisy
  // mean of the clamped squared derivatives, over B^2, then the clips.
  void release_scale() {
    apply_pending_change();
    const double bound = settings_.scale_beta * scale_;
    const double bound2 = bound * bound;
    double sum = 0.0;
    for (int i = 0; i < n_; ++i) {
      const double d = loss_.derivative(eta_[i], y_[i]);
      const double term = d * d / bound2;
      sum += term < 1.0 ? term : 1.0;  // (in [0, 1], a NaN as 1)
    }
    const double released = sum / n_ + settings_.scale_noise_sd * rng_.gaussian();
    // (post-processing: floored at the noise sd, so that the scale never
    // falls below what the release resolves, and at the public floor)
    scale_ = std::max(bound * std::sqrt(std::max(released, settings_.scale_noise_sd)),
                      settings_.scale_floor * settings_.scale_reference);
    released_scales_.push_back(scale_);
    clip_scale_ = std::min(1.0, settings_.scale_kappa * scale_ / settings_.scale_reference);
    for (int j = 0; j < coordinates_; ++j) {
      clip_[j] = settings_.clip[j] * clip_scale_;
      noise_sd_[j] = settings_.noise_sd[j] * clip_scale_;
    }
  }

  // The last pass moved no coefficient by more than stop_tolerance of the
  // largest |coefficient| (the relative change diagnose_path() reads).
  bool converged() const {
    double scale = 1e-8;
    for (const double b : coef_) scale = std::max(scale, std::fabs(b));
    return last_pass_change_ <= settings_.stop_tolerance * scale;
  }

  void apply_pending_change() {
    sweeper_.apply(eta_.data(), pending_coordinate_, pending_change_);
    pending_coordinate_ = -1;
  }

  template <class Penalty>
  void update(int j, const Penalty& penalty) {
    const double gamma = settings_.step[j];
    // (step 0: a coordinate held at 0, or a constant-zero column at epsilon
    // = Inf: no release, R/dpcd.R)
    if (!(gamma > 0.0)) return;
    const double old = coef_[j];
    const double gradient = j == p_ && splits_intercept_ ? private_intercept_gradient()
                                                          : private_gradient(j);
    const double moved = old - gamma * gradient;
    if (gate_recording_ && j < p_) {
      gate_moved_[j] = moved;
      if (settings_.gate_feature[j] != 0.0) {
        gate_energy_ += gradient * gradient;
        if (settings_.noise_sd[j] > 0.0)
          gate_largest_z_ = std::max(gate_largest_z_, std::fabs(gradient) / settings_.noise_sd[j]);
      }
    }
    const double updated = j < p_ ? penalty.prox(j, moved, gamma) : moved;
    if (updated == old) return;
    last_pass_change_ = std::max(last_pass_change_, std::fabs(updated - old));
    coef_[j] = updated;
    pending_coordinate_ = j;
    pending_change_ = updated - old;
  }

  // (1/n) sum_i clamp(l'(eta_i, y_i) x_ij, C_j), after the pending update.
  double clipped_gradient(int j) {
    const double sum = sweeper_.update_then_gradient(
        eta_.data(), pending_coordinate_, pending_change_, j, clip_[j]);
    pending_coordinate_ = -1;
    return sum / n_;
  }

  void recompute_linear_predictor() {
    pending_coordinate_ = -1;
    const double b0 = coordinates_ > p_ ? coef_[p_] : 0.0;
    if (offset_) {
      for (int i = 0; i < n_; ++i) eta_[i] = offset_[i] + b0;
    } else {
      std::fill(eta_.begin(), eta_.end(), b0);
    }
    for (int j = 0; j < p_; ++j) {
      const double b = coef_[j];
      if (b != 0.0)
        x_.for_each_in_column(j, [&](int i, double v) { eta_[i] += b * v; });
    }
  }

  const Design& x_;
  const double* y_;
  const double* offset_;  // o_i, or null
  const int n_, p_, coordinates_;
  const CoordinateSettings settings_;
  const int passes_;
  const Selection selection_;
  const bool average_;
  RandomSource& rng_;
  const ColumnSweeper<Design, Loss> sweeper_;
  const Loss loss_;
  const double* weights_;  // w_i, or null
  std::vector<double> coef_, eta_;
  // The clips and noise sds now (the planned ones times clip_scale_), and
  // the adaptive clip's state (settings: scale_reference).
  std::vector<double> clip_, noise_sd_;
  bool scales_ = false;
  double scale_ = 0.0, clip_scale_ = 1.0;
  // The split intercept (settings): on, and the columns' public boxes.
  bool splits_intercept_ = false;
  std::vector<double> box_lower_, box_upper_;
  std::vector<double> released_scales_;
  std::vector<int> order_, block_order_;
  std::vector<int> unit_coordinates_, unit_start_;
  int units_ = 0;
  std::vector<double> average_sum_;
  std::vector<double> tail_sum_;
  std::vector<int> last_counted_;
  // The update of the last step, not yet applied to eta (-1: none).
  int pending_coordinate_ = -1;
  double pending_change_ = 0.0;
  double last_pass_change_ = 0.0;
  bool stops_at_convergence_ = false;
  // The signal gate (settings): its first pass's pre-prox values and sum.
  bool gates_ = false, gate_recording_ = false, gate_done_ = false, gate_closed_ = false;
  double gate_energy_ = 0.0, gate_largest_z_ = 0.0, gate_lambda_used_ = 0.0;

  // The closed gate's lambda (settings: gate_ramp_energy).
  double ramped_gate_lambda(double own) const {
    const double noise = settings_.gate_noise_energy;
    if (!(settings_.gate_ramp_energy > noise) || !(settings_.gate_energy > settings_.gate_ramp_energy) ||
        !(own > 0.0) || !(settings_.gate_lambda > own)) {
      return settings_.gate_lambda;
    }
    const double r = std::sqrt(std::max(gate_energy_ - noise, 0.0));
    const double r_low = std::sqrt(settings_.gate_ramp_energy - noise);
    const double r_open = std::sqrt(settings_.gate_energy - noise);
    const double u = std::min(std::max((r - r_low) / (r_open - r_low), 0.0), 1.0);
    return std::exp((1.0 - u) * std::log(settings_.gate_lambda) + u * std::log(own));
  }
  std::vector<double> gate_moved_;
};

}  // namespace dpglmnet

#endif  // DPGLMNET_DPCD_H
