// The families of generalized linear models the solvers fit, named as in
// glmnet. This is the C++ half of the single source of truth for a family
// (the R half, R/family.R, checks the response and predicts): a family name
// maps to its loss type (loss.h) here and nowhere else, and an unknown name is
// an error, never a silent squared loss.
#ifndef DPGLMNET_FAMILY_H
#define DPGLMNET_FAMILY_H

#include <stdexcept>
#include <string>

#include "loss.h"

namespace dpglmnet {

enum class Family { gaussian, binomial };

inline Family family_from_name(const std::string& name) {
  if (name == "gaussian") return Family::gaussian;
  if (name == "binomial") return Family::binomial;
  throw std::invalid_argument("unknown family \"" + name + "\"");
}

// Calls f(loss) with the loss object of the family: every solver is one
// template instance per family.
template <class F>
decltype(auto) with_loss(Family family, F&& f) {
  switch (family) {
    case Family::binomial: return f(LogisticLoss());
    case Family::gaussian: break;
  }
  return f(SquaredLoss());
}

}  // namespace dpglmnet

#endif  // DPGLMNET_FAMILY_H
