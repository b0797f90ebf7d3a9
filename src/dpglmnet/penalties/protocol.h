// The penalty protocol: what a penalty psi(b) = sum_j psi_j(b_j) (or, for a
// future non-separable one, its prox) provides to the proximal solvers
// (DP-CD, DP-SGD; DP-SCD reads lambda only and declares which penalties it
// fits, capabilities.h). A penalty is a small copyable type in its own
// header in penalties/, registered by one line in penalties/registry.h. It has
//   name               the name of the settings (settings$penalty);
//   from_spec(spec)    the penalty from the settings' public inputs
//                      (PenaltySpec below), lambda left at 0;
//   lambda             a public double, the path's regularization level,
//                      set by path.h before each fit;
//   prox(j, v, step)   prox_{step psi_j}(v) = argmin_b (b - v)^2 / 2 + step psi_j(b);
//   Planned, plan(planned, p, step)  prox for one step size planned once
//                      per lambda (storage reused, no allocation once
//                      sized): planned.apply(j, v) returns exactly the
//                      doubles of prox(j, v, step) (DP-SGD applies it at
//                      every step; tests pin the equality).
// The l1-ball solvers (Frank-Wolfe, mirror descent) constrain ||b||_1 <= R
// instead and use no penalty.
#ifndef DPGLMNET_PENALTIES_PROTOCOL_H
#define DPGLMNET_PENALTIES_PROTOCOL_H

#include <string>

namespace dpglmnet {

// The public inputs a penalty is built from (read by the interface from the
// settings list: no R here). A new penalty with inputs of its own (groups,
// SCAD's a) adds its fields here.
struct PenaltySpec {
  std::string name = "elastic_net";
  int p = 0;
  double alpha = 1.0;
  const double* penalty_factor = nullptr;  // length p
  const double* lower = nullptr;           // length p, <= 0
  const double* upper = nullptr;           // length p, >= 0
};

}  // namespace dpglmnet

#endif  // DPGLMNET_PENALTIES_PROTOCOL_H
