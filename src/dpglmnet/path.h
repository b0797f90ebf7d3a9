// Regularization path driver shared by the solvers: decreasing lambda, warm
// starts. A Solver provides coordinates(), coef() (features then intercept),
// fit(penalty) and last_pass_change(); the driver knows nothing of how it is
// private, nor which penalty it is (penalties/protocol.h: it sets lambda).
#ifndef DPGLMNET_PATH_H
#define DPGLMNET_PATH_H

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace dpglmnet {

struct PathResult {
  std::vector<double> beta;       // p x nlambda, column-major
  std::vector<double> intercept;  // nlambda (zeros without an intercept)
  // Per lambda, the largest coefficient change in the solver's last pass: a
  // convergence diagnostic computed without noise (epsilon = Inf fits only).
  std::vector<double> last_pass_change;
};

// Runs fit_one(l) for each of `count` points of a path (lambdas, or the
// l1 solvers' radii), warm-started, and records the solver's state after
// each. after_point(l) is called once each point is done (progress,
// interrupts).
template <class Solver, class Fit>
PathResult run_path(Solver& solver, int p, int count, Fit&& fit_one,
                    const std::function<void(int)>& after_point) {
  PathResult result;
  result.beta.assign(static_cast<std::size_t>(p) * count, 0.0);
  result.intercept.assign(count, 0.0);
  result.last_pass_change.assign(count, 0.0);
  for (int l = 0; l < count; ++l) {
    fit_one(l);
    const auto& coef = solver.coef();
    std::copy(coef.begin(), coef.begin() + p,
              result.beta.begin() + static_cast<std::size_t>(l) * p);
    if (solver.coordinates() > p) result.intercept[l] = coef[p];
    result.last_pass_change[l] = solver.last_pass_change();
    if (after_point) after_point(l);
  }
  return result;
}

// The penalized path: decreasing lambdas, solver.fit(penalty) at each.
template <class Solver, class Penalty>
PathResult fit_path(Solver& solver, int p, const std::vector<double>& lambdas,
                    Penalty penalty,
                    const std::function<void(int)>& after_lambda) {
  return run_path(solver, p, static_cast<int>(lambdas.size()),
                  [&](int l) {
                    penalty.lambda = lambdas[l];
                    solver.fit(penalty);
                  },
                  after_lambda);
}

}  // namespace dpglmnet

#endif  // DPGLMNET_PATH_H
