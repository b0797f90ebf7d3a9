// R entry points of the l1-ball solvers (R/l1.R): private Frank-Wolfe and
// noisy mirror descent, and Algorithm 3 of Asi et al. (variance-reduced
// Frank-Wolfe). Conversion only; the paths run over increasing
// radii with warm starts.
#include <Rcpp.h>

#include <vector>

#include "dpglmnet/frank_wolfe.h"
#include "dpglmnet/frank_wolfe_vr.h"
#include "dpglmnet/mirror_descent.h"
#include "interface_common.h"

using namespace Rcpp;
using namespace interface;

namespace {

// Runs fit_one(l, radius) over the radii (path.h's driver, warm-started)
// and returns list(beta = p x nradius, a0, last_pass_change).
template <class Solver, class Fit>
List radius_path(Solver& solver, int p, const std::vector<double>& radii, int trace,
                 Fit&& fit_one) {
  return path_to_list(
      dpglmnet::run_path(solver, p, static_cast<int>(radii.size()),
                         [&](int l) { fit_one(l, radii[l]); },
                         progress(trace, radii.size())),
      p);
}

}  // namespace

// [[Rcpp::export(.dpfw_path_cpp)]]
List dpfw_path_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  const std::vector<double> radii = numbers(settings, "radius");
  // the Gumbel scale of each radius (R/l1.R: from the ledger's row)
  const std::vector<double> scales = numbers(settings, "gumbel_scale");
  if (scales.size() != radii.size()) stop("dpfw: one gumbel_scale per radius");
  const dpglmnet::FrankWolfeSettings fw{
      number(settings, "clip"), number(settings, "intercept_noise_sd"), number(settings, "intercept_step"),
      static_cast<long long>(number(settings, "steps")),
      number(settings, "intercept_clip")};
  const bool keep_picks = flag(settings, "keep_picks");
  return random_solver_entry<dpglmnet::DPFWTag>(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        using Design = std::decay_t<decltype(design)>;
        using Loss = decltype(loss);
        // (the centring of a sparse x, R/highdim.R: per column, or NULL)
        dpglmnet::FrankWolfeSettings centred = fw;
        centred.shift = optional_records(settings, "shift", design.cols());
        dpglmnet::DPFrankWolfe<Design, Loss> solver(design, y.begin(),
                                                    flag(settings, "intercept"), centred, rng,
                                                    loss);
        IntegerMatrix picks(keep_picks ? static_cast<int>(fw.steps) : 0,
                            keep_picks ? static_cast<int>(radii.size()) : 0);
        List out = radius_path(solver, design.cols(), radii, integer(settings, "trace"),
                               [&](int l, double radius) {
          solver.fit(radius, scales[l],
                     keep_picks ? picks.begin() + static_cast<R_xlen_t>(l) * fw.steps
                                        : nullptr);
        });
        if (keep_picks) {
          for (int& k : picks) k += 1;  // 1-based for R
          out["picks"] = picks;
        }
        return out;
      });
}

// [[Rcpp::export(.nmd_path_cpp)]]
List nmd_path_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  const std::vector<double> radii = numbers(settings, "radius");
  const dpglmnet::MirrorDescentSettings md{
      number(settings, "clip"), number(settings, "noise_sd"),
      integer(settings, "batch_size"), static_cast<long long>(number(settings, "steps")),
      number(settings, "step_size"), number(settings, "intercept_step")};
  return random_solver_entry<dpglmnet::NMDTag>(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        using Design = std::decay_t<decltype(design)>;
        using Loss = decltype(loss);
        dpglmnet::NoisyMirrorDescent<Design, Loss> solver(
            design, y.begin(), flag(settings, "intercept"), md, rng, loss);
        return radius_path(solver, design.cols(), radii, integer(settings, "trace"),
                           [&](int, double radius) { solver.fit(radius); });
      });
}

// [[Rcpp::export(.dpfw_vr_path_cpp)]]
List dpfw_vr_path_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  const std::vector<double> radii = numbers(settings, "radius");
  // the Laplace scale of phase 0's leaves at each radius (R/l1.R: the ledger's)
  const std::vector<double> scales = numbers(settings, "laplace_scale");
  if (scales.size() != radii.size()) stop("dpfw-vr: one laplace_scale per radius");
  const dpglmnet::VarianceReducedFWSettings vr{
      number(settings, "clip"), number(settings, "intercept_multiplier"), number(settings, "intercept_step"),
      integer(settings, "phases"), integer(settings, "batch")};
  return random_solver_entry<dpglmnet::DPFWVRTag>(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        using Design = std::decay_t<decltype(design)>;
        using Loss = decltype(loss);
        // The samples of a run (R/l1.R): b (T + T (T + 1) / 4) records.
        const double T = vr.phases;
        if (vr.phases < 1 || vr.phases > 30 || vr.batch < (1 << vr.phases) || vr.batch % (1 << vr.phases) != 0 ||
            vr.batch * (T + T * (T + 1) / 4) > design.rows())
          stop("dpfw-vr: invalid phases / batch for n = %d", design.rows());
        dpglmnet::VarianceReducedFrankWolfe<Design, Loss> solver(
            design, y.begin(), flag(settings, "intercept"), vr, rng, loss);
        const int leaves = static_cast<int>(solver.leaves());
        const bool keep_picks = flag(settings, "keep_picks");
        IntegerMatrix picks(keep_picks ? leaves : 0,
                            keep_picks ? static_cast<int>(radii.size()) : 0);
        List out = radius_path(solver, design.cols(), radii, integer(settings, "trace"),
                               [&](int l, double radius) {
          solver.fit(radius, scales[l],
                     keep_picks ? picks.begin() + static_cast<R_xlen_t>(l) * leaves
                                        : nullptr);
        });
        if (keep_picks) {
          for (int& k : picks) k += 1;  // 1-based for R
          out["picks"] = picks;
        }
        return out;
      });
}
