// Regularization path driver shared by the solvers: decreasing lambda, warm
// starts. A Solver provides coordinates(), coef() (features then intercept),
// fit(penalty) and last_pass_change(); the driver knows nothing of how it is
// private.
#ifndef DPGLMNET_PATH_H
#define DPGLMNET_PATH_H

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

#include "penalty.h"

namespace dpglmnet {

struct PathResult {
  std::vector<double> beta;       // p x nlambda, column-major
  std::vector<double> intercept;  // nlambda (zeros without an intercept)
  // Per lambda, the largest coefficient change in the solver's last pass: a
  // convergence diagnostic computed without noise (epsilon = Inf fits only).
  std::vector<double> last_pass_change;
};

// after_lambda(l) is called once each lambda is done (progress, interrupts).
template <class Solver>
PathResult fit_path(Solver& solver, int p, const std::vector<double>& lambdas,
                    ElasticNetPenalty penalty,
                    const std::function<void(int)>& after_lambda) {
  const int nlambda = static_cast<int>(lambdas.size());
  PathResult result;
  result.beta.assign(static_cast<std::size_t>(p) * nlambda, 0.0);
  result.intercept.assign(nlambda, 0.0);
  result.last_pass_change.assign(nlambda, 0.0);
  for (int l = 0; l < nlambda; ++l) {
    penalty.lambda = lambdas[l];
    solver.fit(penalty);
    const auto& coef = solver.coef();
    std::copy(coef.begin(), coef.begin() + p,
              result.beta.begin() + static_cast<std::size_t>(l) * p);
    if (solver.coordinates() > p) result.intercept[l] = coef[p];
    result.last_pass_change[l] = solver.last_pass_change();
    if (after_lambda) after_lambda(l);
  }
  return result;
}

}  // namespace dpglmnet

#endif  // DPGLMNET_PATH_H
