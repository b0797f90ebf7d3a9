// glmnet's elastic-net penalty with penalty factors and box constraints
// (Friedman, Hastie & Tibshirani 2010, J. Stat. Softw. 33, Sec. 2):
//   lambda * sum_j pf_j ((1 - alpha)/2 b_j^2 + alpha |b_j|),  lower_j <= b_j <= upper_j.
// It is separable, so its proximal operator acts coordinate by coordinate:
// soft-threshold, shrink, clamp. Settings name "elastic_net" (the default).
// (Protocol: penalties/protocol.h.)
#ifndef DPGLMNET_PENALTIES_ELASTIC_NET_H
#define DPGLMNET_PENALTIES_ELASTIC_NET_H

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "protocol.h"

namespace dpglmnet {

struct ElasticNetPenalty {
  static constexpr const char* name = "elastic_net";

  double lambda;
  double alpha;
  const double* penalty_factor;  // length p, already rescaled as glmnet does
  const double* lower;           // length p, <= 0
  const double* upper;           // length p, >= 0

  static ElasticNetPenalty from_spec(const PenaltySpec& spec) {
    if (!spec.penalty_factor || !spec.lower || !spec.upper)
      throw std::invalid_argument("the elastic-net penalty needs penalty factors and limits");
    return ElasticNetPenalty{0.0, spec.alpha, spec.penalty_factor, spec.lower, spec.upper};
  }

  // prox_{step * psi_j}(v) = argmin_b (b - v)^2 / 2 + step * psi_j(b):
  // soft-threshold, shrink, then clamp (the 1-d objective is strongly convex,
  // so the constrained minimizer is the clamped unconstrained one).
  double prox(int j, double v, double step) const {
    const double scale = step * lambda * penalty_factor[j];
    const double l1 = scale * alpha;
    const double l2 = scale * (1.0 - alpha);
    double b = 0.0;
    if (v > l1) b = (v - l1) / (1.0 + l2);
    else if (v < -l1) b = (v + l1) / (1.0 + l2);
    return std::min(std::max(b, lower[j]), upper[j]);
  }

  // prox_{step * psi_j} for one step size and every j, planned once per
  // lambda so that a solver taking many steps of the same size (DP-SGD)
  // applies it without a branch per coordinate: apply(j, v) returns exactly
  // the doubles of prox(j, v, step) (tests pin this).
  class Planned {
   public:
    // sign(v) max(|v| - l1, 0) / (1 + l2) is (v - l1) / (1 + l2) or
    // (v + l1) / (1 + l2) exactly, as prox's branches; + 0.0 turns the -0 of
    // small negative v into prox's +0; then the clamp.
    double apply(int j, double v) const {
      const double magnitude = std::max(std::fabs(v) - threshold_[j], 0.0) / denominator_[j];
      const double b = std::copysign(magnitude, v) + 0.0;
      return std::min(std::max(b, lower_[j]), upper_[j]);
    }

   private:
    friend struct ElasticNetPenalty;
    std::vector<double> threshold_, denominator_;  // l1 and 1 + l2 of prox
    const double* lower_ = nullptr;
    const double* upper_ = nullptr;
  };

  // The constants of prox(j, ., step), computed as prox computes them, into
  // `planned` (its storage reused: no allocation once sized).
  void plan(Planned& planned, int p, double step) const {
    planned.threshold_.resize(p);
    planned.denominator_.resize(p);
    for (int j = 0; j < p; ++j) {
      const double scale = step * lambda * penalty_factor[j];
      planned.threshold_[j] = scale * alpha;
      planned.denominator_[j] = 1.0 + scale * (1.0 - alpha);
    }
    planned.lower_ = lower;
    planned.upper_ = upper;
  }
};

}  // namespace dpglmnet

#endif  // DPGLMNET_PENALTIES_ELASTIC_NET_H
