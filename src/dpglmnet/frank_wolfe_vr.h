// Private variance-reduced Frank-Wolfe over the l1 ball: Algorithm 3 of
// Asi, Feldman, Koren & Talwar (ICML 2021), pure-DP calibration of their
// Theorem 6, for
//
//   minimize F(b, b0) = (1/n) sum_i loss(b0 + x_i'b, y_i)  s.t. ||b||_1 <= R.
//
// One run (one radius) has T phases t = 1..T. Phase t walks a binary tree of
// depth t in DFS order (root first, then left subtree, then right subtree).
// A vertex at depth j owns a sample S of b / 2^j records (the root: b),
// disjoint from every other vertex's sample in the run (a prefix of a fresh
// random permutation of the records, drawn from the public generator, is cut
// into the samples in visiting order). Per vertex (Algorithm 3, lines 4-11):
//  * root:        v = (1/|S|) sum_{i in S} clamp(d_i(x) x_i, +-C);
//  * left child:  v = v(parent) (no sample);
//  * right child: v = v(parent) + (1/|S|) sum_{i in S}
//                     clamp((d_i(x) - d_i(x_parent)) x_i, +-C),
// with x the current iterate when the vertex is visited, x_parent the
// iterate when its parent was, d_i = loss'(b0 + x_i'b, y_i), clamp
// coordinate-wise (the intercept, constant feature 1, likewise). At a leaf
// (depth t) the vertex +-R e_k minimizing <c, v> + Laplace(lambda_t)
// (line 15; equivalently report-noisy-max of the utilities -<c, v>) is the
// Frank-Wolfe direction, and x <- (1 - eta) x + eta c with eta = 2 / (k + 2
// + t0), k the leaf's index in the run (line 16; t0 = 1 on a warm start as
// in frank_wolfe.h). The intercept moves at each leaf by b0 <- b0 - step
// (v0 + Laplace(lambda0_t)).
//
// Constants (replace-one: one record replaced):
//  * L: every per-record term (gradient at the root, correction at a right
//    child) is clamped coordinate-wise to C, so ||term||_inf <= C: the
//    Lipschitz constant w.r.t. ||.||_1 of Theorem 6 is L = C. Replacing a
//    record of a sample of size b / 2^j moves that vertex's v, and so the v
//    of every vertex below it, by at most 2 L 2^j / b in l_inf.
//  * D = diam_1(R-ball) = 2R; a vertex c = +-R e_k has ||c||_1 = R = D / 2,
//    so the scores <c, v> move by at most (D / 2) 2 L 2^j / b = L D 2^j / b.
//  * report-noisy-max with Laplace(lambda) on scores of sensitivity Delta is
//    (2 Delta / lambda)-DP (Dwork & Roth 2014, Claim 3.9 without
//    monotonicity). With lambda_t = 2 L D 2^t / (b eps0) (Theorem 6 /
//    Lemma 4.1) each leaf below the record's vertex is (eps0 2^(j - t))-DP
//    for it, and there are 2^(t - j) such leaves: eps0 for the record.
//  * disjoint samples: a record lies in at most one vertex of the run; every
//    other release is a function of earlier outputs and public randomness
//    (the permutation) only, so it costs the record nothing (parallel
//    composition over the disjoint samples, as in the proof of Theorem 6).
//    So one run is eps0-DP; R/l1.R charges it as one Laplace-kind row per
//    radius with noise multiplier z = 1 / eps0.
//  * intercept: v0 moves by at most 2 C 2^j / b; Laplace(lambda0_t) with
//    lambda0_t = 2 C 2^t / (b eps0') is (eps0' 2^(j - t))-DP per leaf, eps0'
//    per run (a second Laplace row, R/l1.R).
// The samples need b / 2^T >= 1 records at the leaves (Lemma 4.1: 2^T <= b)
// and b (1 + t / 2) records in phase t; R/l1.R picks b, a multiple of 2^T,
// with b (T + T (T + 1) / 4) <= n.
//
// Cost: reading a vertex's sample is O(nnz of its rows) (RowAccess), O(nnz(x))
// per run in all (the correction reads each row twice); each leaf is O(p)
// (2p Laplace draws, the scaling of b by 1 - eta) and each vertex copies its
// v and x (O(p)). No allocation after construction. With epsilon = Inf the
// same run has C = Inf and no noise (a non-private stochastic
// variance-reduced Frank-Wolfe).
#ifndef DPGLMNET_FRANK_WOLFE_VR_H
#define DPGLMNET_FRANK_WOLFE_VR_H

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "capabilities.h"
#include "clip.h"
#include "convergence.h"
#include "design.h"
#include "noisy_max.h"
#include "random.h"

namespace dpglmnet {

struct VarianceReducedFWSettings {
  double clip;                  // C (= L), coordinate-wise; +Inf: none
  double intercept_multiplier;  // lambda0_t / 2^t = z0 2 C / b; 0: no noise
  double intercept_step;        // 1 / curvature
  int phases;                   // T
  int batch;                    // b, a multiple of 2^T
};

// The capabilities tag of variance-reduced Frank-Wolfe (capabilities.h): every loss (it reads
// l' only); no penalty (the l1 ball is a constraint).
struct DPFWVRTag {
  static constexpr const char* name = "dpfw-vr";
};

template <class Design, class Loss>
class VarianceReducedFrankWolfe {
 public:
  VarianceReducedFrankWolfe(const Design& x, const double* y, bool intercept,
                            VarianceReducedFWSettings settings, RandomSource& rng,
                            const Loss& loss = Loss())
      : loss_(loss), records_(x), y_(y), n_(x.rows()), p_(x.cols()), intercept_(intercept),
        settings_(settings), rng_(rng), order_(n_),
        coef_(p_ + 1, 0.0), snapshot_(p_ + 1, 0.0),
        v_(static_cast<std::size_t>(settings.phases + 1) * (p_ + 1), 0.0),
        x_(static_cast<std::size_t>(settings.phases + 1) * (p_ + 1), 0.0),
        utility_(2 * p_, 0.0) {
    for (int i = 0; i < n_; ++i) order_[i] = i;
  }

  int coordinates() const { return p_ + (intercept_ ? 1 : 0); }
  const std::vector<double>& coef() const { return coef_; }
  // The largest |change| of a coefficient over the last 10% of the leaves
  // (Frank-Wolfe steps) of the last fit().
  double last_pass_change() const { return last_change_; }
  long long leaves() const { return (2LL << settings_.phases) - 2; }

  // One run on the ball of radius R from the current point, with Laplace
  // scale `scale` 2^t at the leaves of phase t (the ledger's: z 4 R C / b;
  // 0: exact argmax); the vertex picked at each leaf (0-based: 2j for +R
  // e_j, 2j + 1 for -R e_j) goes to picks[0..leaves()) when picks is not
  // null.
  void fit(double radius, double scale, int* picks) {
    picks_ = picks;
    scale_ = scale;
    t0_ = fitted_ ? 1.0 : 0.0;
    fitted_ = true;
    radius_ = radius;
    rng_.shuffle(order_);
    cursor_ = 0;
    leaf_ = 0;
    const long long total = leaves();
    snapshot_at_ = last_tenth_start(total);
    std::copy(coef_.begin(), coef_.end(), snapshot_.begin());
    for (int t = 1; t <= settings_.phases; ++t) {
      phase_ = t;
      // Root: the plain clipped gradient on b records.
      double* v = level(v_, 0);
      std::fill(v, v + p_ + 1, 0.0);
      std::copy(coef_.begin(), coef_.end(), level(x_, 0));
      add_terms(settings_.batch, nullptr, v);
      visit(0);
    }
    last_change_ = largest_change(coef_.data(), snapshot_.data(), coordinates());
  }

 private:
  double* level(std::vector<double>& stack, int j) {
    return stack.data() + static_cast<std::size_t>(j) * (p_ + 1);
  }

  // The vertex at depth j has its v in level(v_, j) and its iterate in
  // level(x_, j); visits its subtree.
  void visit(int j) {
    if (j == phase_) {
      leaf(level(v_, j));
      return;
    }
    // Left child: the parent's estimate at the parent's (= current) iterate.
    std::copy(level(v_, j), level(v_, j) + p_ + 1, level(v_, j + 1));
    std::copy(coef_.begin(), coef_.end(), level(x_, j + 1));
    visit(j + 1);
    // Right child: correction on b / 2^(j+1) fresh records between the
    // current iterate and the parent's.
    double* v = level(v_, j + 1);
    std::copy(level(v_, j), level(v_, j) + p_ + 1, v);
    std::copy(coef_.begin(), coef_.end(), level(x_, j + 1));
    add_terms(settings_.batch >> (j + 1), level(x_, j), v);
    visit(j + 1);
  }

  // v += (1/m) sum over the next m records of the clamped terms at the
  // current iterate (parent == nullptr) or of the clamped differences
  // between the current iterate and `parent`.
  void add_terms(int m, const double* parent, double* v) {
    const double c = settings_.clip;
    const double inv_m = 1.0 / m;
    const double b0 = intercept_ ? coef_[p_] : 0.0;
    const double b0_parent = (intercept_ && parent != nullptr) ? parent[p_] : 0.0;
    for (int k = 0; k < m; ++k) {
      const int i = order_[cursor_++];
      double d = loss_.derivative(b0 + records_.dot(i, coef_.data()), y_[i]);
      if (parent != nullptr)
        d -= loss_.derivative(b0_parent + records_.dot(i, parent), y_[i]);
      if (std::isnan(d)) d = c;  // clamped to C below, term by term
      records_.for_each_in_row(i, [&](int j, double value) {
        v[j] += clip(d * value, c) * inv_m;
      });
      if (intercept_) v[p_] += clip(d, c) * inv_m;
    }
  }

  // Frank-Wolfe step at a leaf with the estimate v.
  void leaf(const double* v) {
    if (leaf_ == snapshot_at_) std::copy(coef_.begin(), coef_.end(), snapshot_.begin());
    const double two_t = std::ldexp(1.0, phase_);
    for (int j = 0; j < p_; ++j) {
      utility_[2 * j] = -radius_ * v[j];
      utility_[2 * j + 1] = radius_ * v[j];
    }
    const int k = report_noisy_max_laplace(
        utility_.data(), 2 * p_, scale_ * two_t, rng_);
    if (picks_ != nullptr) picks_[leaf_] = k;
    const int j = k / 2;
    const double vertex = (k % 2 == 0) ? radius_ : -radius_;
    const double gamma = 2.0 / (static_cast<double>(leaf_) + 2.0 + t0_);
    const double keep = 1.0 - gamma;
    for (int l = 0; l < p_; ++l) coef_[l] *= keep;
    coef_[j] += gamma * vertex;
    if (intercept_) {
      double noisy = v[p_];
      if (settings_.intercept_multiplier > 0.0)
        noisy += rng_.laplace(settings_.intercept_multiplier * two_t);
      coef_[p_] -= settings_.intercept_step * noisy;
    }
    ++leaf_;
  }

  const Loss loss_;
  const RowAccess<Design> records_;
  const double* y_;
  const int n_, p_;
  const bool intercept_;
  const VarianceReducedFWSettings settings_;
  RandomSource& rng_;
  bool fitted_ = false;
  double t0_ = 0.0, radius_ = 0.0, scale_ = 0.0, last_change_ = 0.0;
  int phase_ = 0;
  long long leaf_ = 0, snapshot_at_ = 0;
  int cursor_ = 0;
  int* picks_ = nullptr;
  std::vector<int> order_;          // the run's permutation of the records
  std::vector<double> coef_;        // b then b0 (b0 stays 0 without intercept)
  std::vector<double> snapshot_;    // coef_ 10% of the leaves before the end
  std::vector<double> v_;           // (T + 1) x (p + 1): estimate per depth
  std::vector<double> x_;           // (T + 1) x (p + 1): iterate per depth
  std::vector<double> utility_;     // 2p vertex utilities
};

}  // namespace dpglmnet

#endif  // DPGLMNET_FRANK_WOLFE_VR_H
