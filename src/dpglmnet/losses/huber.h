// The Huber loss for robust regression (Huber 1964, "Robust estimation of a
// location parameter", Ann. Math. Statist. 35, its rho with k = delta; ESL
// 2nd ed., Sec. 10.6, writes twice this), on the residual r = eta - y:
//   l(eta, y) = r^2 / 2                  for |r| <= delta,
//               delta (|r| - delta / 2)  beyond,
// with l'(eta, y) = clamp(eta - y, -delta, delta) and l'' <= 1 (curvature 1).
// Its derivative is bounded by delta whatever the record, so a clip at
// C_j >= delta max|x_ij| never binds: clipping costs it no bias where the
// squared loss's unbounded residuals are cut. Parameter delta > 0, finite
// (settings$family_parameter); family name "huber". DP-SCD has no closed-form
// dual update for it (capabilities.h). (Protocol: losses/protocol.h.)
#ifndef DPGLMNET_LOSSES_HUBER_H
#define DPGLMNET_LOSSES_HUBER_H

#include <cmath>
#include <stdexcept>

#include "../simd.h"
#include "protocol.h"

namespace dpglmnet {

class HuberLoss {
 public:
  static constexpr const char* name = "huber";
  static constexpr double curvature = 1.0;
  static constexpr bool weighted = false;
  static constexpr bool buffered_derivative = false;  // a clamp: not worth a gather

  // No default delta: a Huber loss is always built from its parameter.
  explicit HuberLoss(double delta) : delta_(delta) {
    if (!(delta > 0.0) || !std::isfinite(delta))
      throw std::invalid_argument("family \"huber\" needs family_parameter = delta, "
                                  "finite and > 0");
  }
  static HuberLoss from_spec(const LossSpec& spec) {
    if (!spec.has_parameter)
      throw std::invalid_argument("family \"huber\" needs family_parameter = delta");
    return HuberLoss(spec.parameter);
  }

  double delta() const { return delta_; }

  // clamp(eta - y, -delta, delta), written as simd::clamp_abs so that the
  // scalar and pack versions agree double for double (a NaN becomes delta:
  // the caller's clip bounds it either way).
  double derivative(double eta, double y) const {
    double r = eta - y;
    r = r < delta_ ? r : delta_;
    return r > -delta_ ? r : -delta_;
  }
  template <int W>
  inline void pack_derivative(simd::Pack<W>& eta, const simd::Pack<W>& y) const {
    eta -= y;
    simd::clamp_abs<W>(eta, simd::Pack<W>{} + delta_);
  }

 private:
  double delta_;
};

}  // namespace dpglmnet

#endif  // DPGLMNET_LOSSES_HUBER_H
