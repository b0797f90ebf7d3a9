// Per-record losses of generalized linear models, as functions of the linear
// predictor eta = b0 + x'b and the response y, with glmnet's conventions:
// gaussian (1/2)(y - eta)^2, binomial -(y eta - log(1 + e^eta)) with y in {0, 1}.
//
// curvature: an upper bound on the second derivative in eta, so that the
// per-record smoothness of coordinate j is curvature * x_ij^2 (Mangold et al.
// 2022, Sec. 5.3): 1 for least squares, 1/4 for the logistic loss.
// pack_derivative(eta, y) overwrites a simd::Pack of eta with the
// derivatives, for the dense hot loops (kernels.h).
#ifndef DPGLMNET_LOSS_H
#define DPGLMNET_LOSS_H

#include <cmath>

#include "simd.h"

namespace dpglmnet {

// buffered_derivative: whether sparse sweeps (kernels.h) should gather
// records to take the derivative on packs (worth it for an exp, not for a
// subtraction).
struct SquaredLoss {
  static constexpr double curvature = 1.0;
  static constexpr bool weighted = false;
  static constexpr bool buffered_derivative = false;
  static double derivative(double eta, double y) { return eta - y; }
  template <int W>
  static inline void pack_derivative(simd::Pack<W>& eta, const simd::Pack<W>& y) {
    eta -= y;
  }
};

struct LogisticLoss {
  static constexpr double curvature = 0.25;
  static constexpr bool weighted = false;
  static constexpr bool buffered_derivative = true;
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

// A loss whose per-record terms carry a weight omega_i (glmnet's `weights`,
// normalised to sum to n): the DP-CD sweeps (kernels.h) multiply each
// record's derivative by omega_i before clipping, so a clipped term keeps
// its bound C_j whatever the weights. A separate type, so that unweighted
// fits compile the sweeps without the multiply (no cost when absent).
template <class Base>
struct Weighted : Base {
  static constexpr bool weighted = true;
};

}  // namespace dpglmnet

#endif  // DPGLMNET_LOSS_H
