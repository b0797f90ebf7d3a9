// The registry of losses: a family name (and its parameter) from the
// settings to its loss type. Adding a family is its header in losses/ and
// one line below (its #include and its entry in RegisteredLosses). An
// unknown name is an error, never a silent squared loss. The C++ half of a
// family; its R half is the family object (R/family*.R).
#ifndef DPGLMNET_LOSSES_REGISTRY_H
#define DPGLMNET_LOSSES_REGISTRY_H

#include <stdexcept>
#include <string>

#include "huber.h"
#include "logistic.h"
#include "protocol.h"
#include "squared.h"

namespace dpglmnet {

template <class... Losses>
struct LossList {};

// The registry line: every family a solver entry can be asked for.
typedef LossList<SquaredLoss, LogisticLoss, HuberLoss> RegisteredLosses;

namespace detail {
template <class F, class First, class... Rest>
decltype(auto) dispatch_loss(const LossSpec& spec, F& f, LossList<First, Rest...>) {
  if (spec.family == First::name) return f(First::from_spec(spec));
  if constexpr (sizeof...(Rest) > 0) {
    return dispatch_loss(spec, f, LossList<Rest...>());
  } else {
    throw std::invalid_argument("unknown family \"" + spec.family + "\"");
  }
}
}  // namespace detail

// Calls f(loss) with the loss of the family `spec` names, built from its
// parameter: every solver is one template instance per registered loss.
template <class F>
decltype(auto) with_loss(const LossSpec& spec, F&& f) {
  return detail::dispatch_loss(spec, f, RegisteredLosses());
}

}  // namespace dpglmnet

#endif  // DPGLMNET_LOSSES_REGISTRY_H
