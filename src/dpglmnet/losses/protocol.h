// The loss protocol: what a per-record loss l(eta, y) of a generalized linear
// model (eta = b0 + x'b the linear predictor, y the response) provides to the
// solvers. A loss is a small copyable type in its own header in losses/ (one
// per family), registered by one line in losses/registry.h. It has
//   name                  the family name of the settings (R's `family`);
//   from_spec(spec)       the loss from its parameter (LossSpec below): an
//                         error (std::invalid_argument) for a missing or
//                         invalid one, before any computation;
//   derivative(eta, y)    l'(eta, y), called through the object (so that a
//                         loss may carry parameters, e.g. Huber's delta);
//   pack_derivative<W>(eta, y)  the same on a simd::Pack (simd.h) of eta, in
//                         place, for the dense SIMD sweeps (kernels.h), and
//                         equal double for double to derivative();
//   curvature             an upper bound on l'' in eta, so that the
//                         per-record smoothness of coordinate j is
//                         curvature * x_ij^2 (Mangold et al. 2022, Sec. 5.3);
//                         R passes the same number as settings$curvature;
//   weighted = false, buffered_derivative  compile-time traits of the sweeps
//                         (buffered: the sparse sweeps gather records to take
//                         the derivative on packs; worth it for an exp only).
// A loss a solver cannot fit is declared in capabilities.h, never a compile
// error.
#ifndef DPGLMNET_LOSSES_PROTOCOL_H
#define DPGLMNET_LOSSES_PROTOCOL_H

#include <stdexcept>
#include <string>

namespace dpglmnet {

// A family as the settings name it: its name and its one optional numeric
// parameter (settings$family_parameter; absent or NULL: none).
struct LossSpec {
  std::string family;
  bool has_parameter = false;
  double parameter = 0.0;
};

// For the losses without a parameter: an error if one was given (a bug of
// the caller, or a family mistaken for another).
inline void require_no_parameter(const LossSpec& spec) {
  if (spec.has_parameter)
    throw std::invalid_argument("family \"" + spec.family + "\" takes no family_parameter");
}

// A loss whose per-record terms carry a weight omega_i (glmnet's `weights`,
// normalised to sum to n): the DP-CD sweeps (kernels.h) multiply each
// record's derivative by omega_i before clipping, so a clipped term keeps
// its bound C_j whatever the weights. A separate type, so that unweighted
// fits compile the sweeps without the multiply (no cost when absent). It
// copies the base loss, parameters included.
template <class Base>
struct Weighted : Base {
  static constexpr bool weighted = true;
  explicit Weighted(const Base& base) : Base(base) {}
};

// The loss under its weighting (Weighted<L> -> L): what capabilities are
// declared for.
template <class Loss>
struct UnweightedLoss {
  typedef Loss type;
};
template <class Base>
struct UnweightedLoss<Weighted<Base>> {
  typedef Base type;
};

}  // namespace dpglmnet

#endif  // DPGLMNET_LOSSES_PROTOCOL_H
