// Declared capabilities: which losses and penalties a solver fits. By
// default every solver fits every registered loss and penalty; a solver that
// fits fewer says so by specializing SupportsLoss / SupportsPenalty for its
// tag in its own header (DP-SCD: the losses with a closed-form dual update,
// dpscd.h). Every solver entry asks before it builds the solver
// (supports_loss, through random_solver_entry in src/interface_common.h), so
// an unsupported pair is a run-time error naming the solver and the family
// (std::invalid_argument, an R error through Rcpp), never a compile error
// and never a template instance that cannot work.
#ifndef DPGLMNET_CAPABILITIES_H
#define DPGLMNET_CAPABILITIES_H

#include <stdexcept>
#include <string>
#include <type_traits>

#include "losses/protocol.h"

namespace dpglmnet {

// Tag: a type with `static constexpr const char* name` (R's solver name).
template <class Tag, class Loss>
struct SupportsLoss : std::true_type {};
template <class Tag, class Penalty>
struct SupportsPenalty : std::true_type {};

// Capabilities are declared for the loss under its weighting.
template <class Tag, class Loss>
constexpr bool supports_loss = SupportsLoss<Tag, typename UnweightedLoss<Loss>::type>::value;
template <class Tag, class Penalty>
constexpr bool supports_penalty = SupportsPenalty<Tag, Penalty>::value;

template <class Tag, class Loss>
[[noreturn]] void unsupported_loss() {
  throw std::invalid_argument(std::string("solver \"") + Tag::name +
                              "\" does not support family \"" +
                              UnweightedLoss<Loss>::type::name + "\"");
}
template <class Tag, class Penalty>
[[noreturn]] void unsupported_penalty() {
  throw std::invalid_argument(std::string("solver \"") + Tag::name +
                              "\" does not support penalty \"" + Penalty::name + "\"");
}

}  // namespace dpglmnet

#endif  // DPGLMNET_CAPABILITIES_H
