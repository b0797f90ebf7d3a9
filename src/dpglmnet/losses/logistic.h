// The logistic loss of glmnet's binomial family, y in {0, 1}:
// l(eta, y) = -(y eta - log(1 + e^eta)), l' = 1 / (1 + e^-eta) - y, curvature
// 1/4 (the largest of mu (1 - mu)). No parameter. (Protocol: losses/protocol.h.)
#ifndef DPGLMNET_LOSSES_LOGISTIC_H
#define DPGLMNET_LOSSES_LOGISTIC_H

#include <cmath>

#include "../simd.h"
#include "protocol.h"

namespace dpglmnet {

struct LogisticLoss {
  static constexpr const char* name = "binomial";
  static constexpr double curvature = 0.25;
  static constexpr bool weighted = false;
  static constexpr bool buffered_derivative = true;  // an exp: take it on packs
  static LogisticLoss from_spec(const LossSpec& spec) {
    require_no_parameter(spec);
    return LogisticLoss();
  }
  static double derivative(double eta, double y) {
    return 1.0 / (1.0 + std::exp(-eta)) - y;
  }
  // The same on a pack, with simd::exp_in_place (clamped: no inf, no subnormal).
  template <int W>
  static inline void pack_derivative(simd::Pack<W>& eta, const simd::Pack<W>& y) {
    // Clamped before negating, so that it compiles to minpd / maxpd.
    simd::clamp_abs<W>(eta, simd::Pack<W>{} + simd::kExpLimit);
    eta = -eta;
    simd::exp_in_place<W>(eta);
    eta = 1.0 / (1.0 + eta) - y;
  }
};

}  // namespace dpglmnet

#endif  // DPGLMNET_LOSSES_LOGISTIC_H
