// The least-squares loss of glmnet's gaussian family, l(eta, y) = (y - eta)^2 / 2:
// l' = eta - y, curvature 1. No parameter. (Protocol: losses/protocol.h.)
#ifndef DPGLMNET_LOSSES_SQUARED_H
#define DPGLMNET_LOSSES_SQUARED_H

#include "../simd.h"
#include "protocol.h"

namespace dpglmnet {

struct SquaredLoss {
  static constexpr const char* name = "gaussian";
  static constexpr double curvature = 1.0;
  static constexpr bool weighted = false;
  static constexpr bool buffered_derivative = false;  // a subtraction: not worth a gather
  static SquaredLoss from_spec(const LossSpec& spec) {
    require_no_parameter(spec);
    return SquaredLoss();
  }
  static double derivative(double eta, double y) { return eta - y; }
  template <int W>
  static inline void pack_derivative(simd::Pack<W>& eta, const simd::Pack<W>& y) {
    eta -= y;
  }
};

}  // namespace dpglmnet

#endif  // DPGLMNET_LOSSES_SQUARED_H
