// The registry of penalties: a penalty name from the settings
// (settings$penalty, "elastic_net" when absent) to its type. Adding a penalty
// is its header in penalties/ and one line below (its #include and its entry
// in RegisteredPenalties). An unknown name is an error.
#ifndef DPGLMNET_PENALTIES_REGISTRY_H
#define DPGLMNET_PENALTIES_REGISTRY_H

#include <stdexcept>
#include <string>

#include "elastic_net.h"
#include "protocol.h"

namespace dpglmnet {

template <class... Penalties>
struct PenaltyList {};

// The registry line: every penalty a proximal solver can be asked for.
typedef PenaltyList<ElasticNetPenalty> RegisteredPenalties;

namespace detail {
template <class F, class First, class... Rest>
decltype(auto) dispatch_penalty(const PenaltySpec& spec, F& f, PenaltyList<First, Rest...>) {
  if (spec.name == First::name) return f(First::from_spec(spec));
  if constexpr (sizeof...(Rest) > 0) {
    return dispatch_penalty(spec, f, PenaltyList<Rest...>());
  } else {
    throw std::invalid_argument("unknown penalty \"" + spec.name + "\"");
  }
}
}  // namespace detail

// Calls f(penalty) with the penalty `spec` names, built from its inputs.
template <class F>
decltype(auto) with_penalty(const PenaltySpec& spec, F&& f) {
  return detail::dispatch_penalty(spec, f, RegisteredPenalties());
}

}  // namespace dpglmnet

#endif  // DPGLMNET_PENALTIES_REGISTRY_H
