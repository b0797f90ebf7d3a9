// R entry points of the solvers and of the private smoothness constants:
// conversion only. Each takes x, y and one named settings list built by the
// solver's R file (R/dpcd.R, R/dpsgd.R, R/smoothness.R). The family
// (settings$family, settings$family_parameter) and the penalty
// (settings$penalty) are read through their registries
// (dpglmnet/losses/registry.h, dpglmnet/penalties/registry.h), and a solver
// entry runs only the pairs its solver declares (dpglmnet/capabilities.h).
#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dpglmnet/blocks.h"
#include "dpglmnet/dpcd.h"
#include "dpglmnet/dpscd.h"
#include "dpglmnet/dpsgd.h"
#include "dpglmnet/histogram.h"
#include "dpglmnet/linear_predictor.h"
#include "dpglmnet/magnitude_quantiles.h"
#include "dpglmnet/noisy_max.h"
#include "dpglmnet/path.h"
#include "dpglmnet/signal_check.h"
#include "dpglmnet/smoothness.h"
#include "dpglmnet/standardize.h"
#include "interface_common.h"

using namespace Rcpp;
using namespace interface;

namespace {

// The clamped sums a ranges' call made (standardize.h), with the design they
// were made from (the R object and its record count: compared, never read),
// held by an external pointer tagged kMadeSumsTag that R passes on to the
// moments' call unread.
constexpr const char* kMadeSumsTag = "dpglmnet_made_sums";
struct MadeSums {
  SEXP source;
  int rows;
  std::vector<dpglmnet::ClampedColumnSums> sums;
};

// The sums an external pointer holds, or null when it is not ours.
const MadeSums* made_sums_of(SEXP held) {
  if (TYPEOF(held) != EXTPTRSXP || R_ExternalPtrTag(held) != Rf_install(kMadeSumsTag))
    return nullptr;
  return static_cast<const MadeSums*>(R_ExternalPtrAddr(held));
}

}  // namespace

namespace {

dpglmnet::Selection parse_selection(const std::string& selection) {
  if (selection == "random") return dpglmnet::Selection::random;
  if (selection == "cyclic") return dpglmnet::Selection::cyclic;
  if (selection == "permutation") return dpglmnet::Selection::permutation;
  Rcpp::stop("internal error: unknown selection \"" + selection + "\"");
}

// Calls f(penalty) with the penalty of the settings (settings$penalty,
// elastic net when absent: penalties/registry.h), or an R error when the
// solver `Tag` does not declare it (capabilities.h). Called before the
// solver is built, so the error comes before any computation.
template <class Tag, class F>
SEXP with_settings_penalty(const List& s, int p, F&& f) {
  return dpglmnet::with_penalty(penalty_spec(s, p), [&](auto penalty) -> SEXP {
    using Penalty = decltype(penalty);
    if constexpr (!dpglmnet::supports_penalty<Tag, Penalty>) {
      dpglmnet::unsupported_penalty<Tag, Penalty>();
    } else {
      return f(penalty);
    }
  });
}

// Runs a solver down the lambda path with `penalty` and returns
// list(beta = p x nlambda, a0).
template <class Solver, class Penalty>
List fit_path_to_list(Solver& solver, int p, const List& s, const Penalty& penalty) {
  const std::vector<double> lambdas = numbers(s, "lambda");
  return path_to_list(dpglmnet::fit_path(solver, p, lambdas, penalty,
                                         progress(integer(s, "trace"), lambdas.size())),
                      p);
}

dpglmnet::DualSettings dual_settings(const List& s) {
  return {number(s, "clip"), number(s, "noise_sd"), number(s, "row_bound"),
          integer(s, "batch_size"), static_cast<long long>(number(s, "steps"))};
}

// Calls f(loss) without weights, f(Weighted<Loss>(loss)) with them
// (losses/protocol.h): the unweighted sweeps are compiled without the multiply.
template <class Loss, class F>
SEXP with_weighting(const Loss& loss, const double* weights, F&& f) {
  if (weights) return f(dpglmnet::Weighted<Loss>(loss));
  return f(loss);
}

// `steps` false: the steps are not read (the start gradient takes none).
dpglmnet::CoordinateSettings coordinate_settings(const List& s, bool steps = true) {
  dpglmnet::CoordinateSettings c{steps ? numbers(s, "coordinate_step") : std::vector<double>(),
                                 numbers(s, "coordinate_clip"), numbers(s, "noise_sd")};
  // optional (the benchmarks' hand-built settings omit it): 1 thread
  if (s.containsElementNamed("threads")) c.threads = integer(s, "threads");
  // optional: epsilon = Inf fits stop at convergence (dpcd.h)
  if (s.containsElementNamed("stop_tolerance")) c.stop_tolerance = number(s, "stop_tolerance");
  // optional: tail averaging (dpcd.h; R/dpcd.R), a share of the passes
  if (s.containsElementNamed("tail_average")) {
    c.tail_average = number(s, "tail_average");
    if (!(c.tail_average >= 0.0 && c.tail_average <= 1.0))
      stop("internal error: the tail average's share");
  }
  // optional: features updated as one unit (dpcd.h; R/dpcd.R checks them)
  if (s.containsElementNamed("coordinate_block") && !Rf_isNull(s["coordinate_block"])) {
    const std::vector<double> block = numbers(s, "coordinate_block");
    c.block.assign(block.begin(), block.end());
  }
  // optional: the signal gate (dpcd.h; R/signal.R)
  if (s.containsElementNamed("gate_energy") && !Rf_isNull(s["gate_energy"])) {
    c.gate_energy = number(s, "gate_energy");
    c.gate_lambda = number(s, "gate_lambda");
    if (s.containsElementNamed("gate_z")) c.gate_z = number(s, "gate_z");
    if (s.containsElementNamed("gate_ramp_energy") && !Rf_isNull(s["gate_ramp_energy"])) {
      c.gate_noise_energy = number(s, "gate_noise_energy");
      c.gate_ramp_energy = number(s, "gate_ramp_energy");
    }
    c.gate_feature = numbers(s, "gate_feature");
  }
  // optional: the adaptive clip (dpcd.h; R/dpcd.R)
  if (s.containsElementNamed("scale_reference") && !Rf_isNull(s["scale_reference"])) {
    c.scale_reference = number(s, "scale_reference");
    c.scale_noise_sd = number(s, "scale_noise_sd");
    c.scale_kappa = number(s, "scale_kappa");
    c.scale_beta = number(s, "scale_beta");
    c.scale_floor = number(s, "scale_floor");
    if (!(c.scale_reference > 0.0) || !(c.scale_noise_sd > 0.0) ||
        !std::isfinite(c.scale_noise_sd) || !(c.scale_kappa > 0.0) ||
        !(c.scale_beta > 0.0) || !(c.scale_floor > 0.0))
      stop("internal error: the adaptive clip's settings");
  }
  // optional: the split intercept (dpcd.h; R/dpcd.R)
  if (s.containsElementNamed("intercept_split") && !Rf_isNull(s["intercept_split"])) {
    c.intercept_split = flag(s, "intercept_split");
    c.intercept_start = number(s, "intercept_start");
    c.intercept_response_mean = number(s, "intercept_response_mean");
    c.intercept_multiplier = number(s, "intercept_multiplier");
    if (c.intercept_split &&
        (!std::isfinite(c.intercept_start) || !std::isfinite(c.intercept_response_mean) ||
         !(c.intercept_multiplier > 0.0) || !std::isfinite(c.intercept_multiplier)))
      stop("internal error: the split intercept's settings");
  }
  return c;
}

}  // namespace

// [[Rcpp::export(.exact_smoothness_cpp)]]
NumericVector exact_smoothness_cpp(SEXP x, List settings) {
  const AvxGuard guard;
  return with_design(x, setting(settings, "transform"), [&](const auto& design) -> SEXP {
    return wrap(dpglmnet::exact_smoothness(design, number(settings, "curvature"),
                                           optional_records(settings, "weights",
                                                            design.rows())));
  });
}

// [[Rcpp::export(.private_smoothness_cpp)]]
List private_smoothness_cpp(SEXP x, List settings) {
  NumericVector bound = setting(settings, "value_bound");
  NumericVector laplace = setting(settings, "scale");  // per column (the ledger's)
  return random_design_entry(
      x, settings, [&](const auto& design, dpglmnet::RandomSource& rng) -> SEXP {
    if (bound.size() != design.cols() || laplace.size() != design.cols())
      stop("private smoothness: one value_bound and one scale per column");
    std::vector<double> scale;
    std::vector<double> m = dpglmnet::private_smoothness(
        design, number(settings, "curvature"), bound.begin(), laplace.begin(), rng, &scale);
    return List::create(Named("smoothness") = m, Named("laplace_scale") = scale);
  });
}

// DP-CD's private gradient of every feature at b = 0, b0 = 0 (the release
// behind a private lambda_max): p Gaussian mechanisms.
// [[Rcpp::export(.dpcd_start_gradient_cpp)]]
NumericVector dpcd_start_gradient_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  return random_solver_entry<dpglmnet::DPCDTag>(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        using Design = std::decay_t<decltype(design)>;
        // (no step is taken: only the gradients at 0 are released)
        dpglmnet::CoordinateSettings coordinates = coordinate_settings(settings, false);
        coordinates.step.assign(design.cols(), 0.0);
        const double* weights = optional_records(settings, "weights", design.rows());
        const double* offset = optional_records(settings, "offset", design.rows());
        return with_weighting(loss, weights, [&](auto weighted) -> SEXP {
          using L = decltype(weighted);
          dpglmnet::DPCoordinateDescent<Design, L> solver(
              design, y.begin(), false, coordinates, 0, dpglmnet::Selection::cyclic, false,
              rng, weights, offset, weighted);
          NumericVector g(design.cols());
          for (int j = 0; j < design.cols(); ++j) g[j] = solver.private_gradient(j);
          return g;
        });
      });
}

// The signal check of solver = "auto" (R/signal.R; signal_check.h):
// settings: coordinate_clip (the features'), release_mean, mean_lower,
// mean_upper, mean_sd, norm_sd, seed, secure, transform,
// response_transform. Returns list(norm, mean), both released.
// [[Rcpp::export(.signal_check_cpp)]]
List signal_check_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  return as<List>(random_design_entry(
      x, settings, [&](const auto& design, dpglmnet::RandomSource& rng) -> SEXP {
        const std::vector<double> clip = numbers(settings, "coordinate_clip");
        if (static_cast<int>(clip.size()) != design.cols() || y.size() != design.rows())
          stop("internal error: the signal check needs one clip per column, one y per row");
        const dpglmnet::SignalCheckSettings check{
            clip.data(), flag(settings, "release_mean"), number(settings, "mean_lower"),
            number(settings, "mean_upper"), number(settings, "mean_sd"),
            number(settings, "norm_sd")};
        if (!(check.mean_sd >= 0.0) || !(check.norm_sd >= 0.0) ||
            !(check.mean_lower <= check.mean_upper))
          stop("internal error: invalid signal check settings");
        const dpglmnet::SignalCheck released =
            dpglmnet::release_signal_check(design, y.begin(), check, rng);
        return List::create(Named("norm") = released.norm, Named("mean") = released.mean);
      }));
}

// A factor block (dpcd.h) is released as one unit only if no record has two
// of its columns non-zero as the core reads them: an internal error
// otherwise (R makes them so record by record, R/bounds.R's
// disjoint_blocks(); this never fires when it did).
template <class Design>
void check_disjoint_blocks(const Design& design, const std::vector<int>& block) {
  if (block.empty()) return;
  if (static_cast<int>(block.size()) != design.cols())
    stop("internal error: one factor block per column of x");
  if (!dpglmnet::blocks_disjoint(design, block))
    stop("internal error: a factor block's columns are not disjoint");
}

// Whether the block columns of a dense x need no change to be read
// disjoint (R/bounds.R's disjoint_blocks(): a copy only when they do).
// [[Rcpp::export(.raw_blocks_disjoint_cpp)]]
bool raw_blocks_disjoint_cpp(NumericMatrix x, IntegerVector block) {
  if (block.size() != x.ncol()) stop("internal error: one factor block per column of x");
  return dpglmnet::raw_blocks_disjoint(x.begin(), x.nrow(),
                                       std::vector<int>(block.begin(), block.end()));
}

// [[Rcpp::export(.dpcd_path_cpp)]]
List dpcd_path_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  return random_solver_entry<dpglmnet::DPCDTag>(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        using Design = std::decay_t<decltype(design)>;
        const double* weights = optional_records(settings, "weights", design.rows());
        const double* offset = optional_records(settings, "offset", design.rows());
        return with_settings_penalty<dpglmnet::DPCDTag>(
            settings, design.cols(), [&](const auto& penalty) -> SEXP {
          return with_weighting(loss, weights, [&](auto weighted) -> SEXP {
            using L = decltype(weighted);
            dpglmnet::CoordinateSettings coordinates = coordinate_settings(settings);
            check_disjoint_blocks(design, coordinates.block);
            dpglmnet::DPCoordinateDescent<Design, L> solver(
                design, y.begin(), flag(settings, "intercept"), std::move(coordinates),
                integer(settings, "passes"), parse_selection(text(settings, "selection")),
                flag(settings, "average"), rng, weights, offset, weighted);
            List fitted = fit_path_to_list(solver, design.cols(), settings, penalty);
            // (the releases of a pass, which R checks against its ledger)
            fitted.push_back(solver.units(), "units");
            // (the signal gate's sum and decision, when it was set)
            fitted.push_back(List::create(Named("energy") = solver.gate_energy(),
                                          Named("closed") = solver.gate_closed(),
                                          Named("lambda") = solver.gate_lambda_used(),
                                          Named("gradients") = solver.gate_gradients()),
                             "gate");
            // (the adaptive clip's released scales, when it was set)
            fitted.push_back(List::create(Named("released") = solver.released_scales(),
                                          Named("factor") = solver.clip_scale()),
                             "scale");
            return fitted;
          });
        });
      });
}

// DP-SGD's private full-batch gradient at 0 (lambda_max): one Gaussian
// mechanism.
// [[Rcpp::export(.dpsgd_start_gradient_cpp)]]
NumericVector dpsgd_start_gradient_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  return random_solver_entry<dpglmnet::DPSGDTag>(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        using Design = std::decay_t<decltype(design)>;
        using Loss = decltype(loss);
        dpglmnet::DPStochasticGradient<Design, Loss> solver(
            design, y.begin(), flag(settings, "intercept"),
            {0.0, number(settings, "clip"), number(settings, "noise_sd"), 1, 0}, rng, loss);
        return wrap(solver.private_full_gradient());
      });
}

// [[Rcpp::export(.dpsgd_path_cpp)]]
List dpsgd_path_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  return random_solver_entry<dpglmnet::DPSGDTag>(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        using Design = std::decay_t<decltype(design)>;
        using Loss = decltype(loss);
        dpglmnet::StochasticSettings stochastic{
            number(settings, "step_size"), number(settings, "clip"),
            number(settings, "noise_sd"), integer(settings, "batch_size"),
            static_cast<long long>(number(settings, "steps"))};
        return with_settings_penalty<dpglmnet::DPSGDTag>(
            settings, design.cols(), [&](const auto& penalty) -> SEXP {
          using Penalty = std::decay_t<decltype(penalty)>;
          dpglmnet::DPStochasticGradient<Design, Loss, Penalty> solver(
              design, y.begin(), flag(settings, "intercept"), stochastic, rng, loss);
          return fit_path_to_list(solver, design.cols(), settings, penalty);
        });
      });
}

// [[Rcpp::export(.dpscd_path_cpp)]]
List dpscd_path_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  return random_solver_entry<dpglmnet::DPSCDTag>(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        using Design = std::decay_t<decltype(design)>;
        using Loss = decltype(loss);
        return with_settings_penalty<dpglmnet::DPSCDTag>(
            settings, design.cols(), [&](const auto& penalty) -> SEXP {
          dpglmnet::DPDualCoordinateDescent<Design, Loss> solver(
              design, y.begin(), dual_settings(settings), rng, loss);
          return fit_path_to_list(solver, design.cols(), settings, penalty);
        });
      });
}

// Test hook: one DP-SCD step from the state (dual, shared) at `lambda` on the
// given minibatch (1-based); returns the state after it.
// [[Rcpp::export(.dpscd_step_cpp)]]
List dpscd_step_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  NumericVector dual = setting(settings, "dual");
  NumericVector shared = setting(settings, "shared");
  IntegerVector batch = setting(settings, "batch");
  return random_solver_entry<dpglmnet::DPSCDTag>(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        using Design = std::decay_t<decltype(design)>;
        using Loss = decltype(loss);
        const dpglmnet::DualSettings d = dual_settings(settings);
        if (dual.size() != design.rows() || shared.size() != design.cols() ||
            batch.size() != d.batch_size || y.size() != design.rows())
          Rcpp::stop("internal error: state, batch or y of the wrong size");
        std::vector<int> b(batch.size());
        for (R_xlen_t k = 0; k < batch.size(); ++k) {
          if (batch[k] < 1 || batch[k] > design.rows())
            Rcpp::stop("internal error: batch index out of range");
          b[k] = batch[k] - 1;
        }
        dpglmnet::DPDualCoordinateDescent<Design, Loss> solver(design, y.begin(), d, rng, loss);
        solver.set_state(dual.begin(), shared.begin());
        solver.set_lambda(number(settings, "lambda"));
        solver.step(b.data());
        return List::create(Named("dual") = solver.dual(), Named("shared") = solver.shared());
      });
}

// Noisy column means and second moments of x as the transform reads it
// (clamped to the bounds): the releases of private standardization.
// [[Rcpp::export(.column_moments_cpp)]]
List column_moments_cpp(SEXP x, List settings) {
  // mean_sd NULL: second moments only (the means are not released).
  SEXP mean_sd_setting = setting(settings, "mean_sd");
  NumericVector second_sd = setting(settings, "second_sd");
  return random_design_entry(
      x, settings, [&](const auto& design, dpglmnet::RandomSource& rng) -> SEXP {
    const double* mean_sd = optional_column(mean_sd_setting, design.cols());
    if (second_sd.size() != design.cols())
      Rcpp::stop("internal error: one noise sd per column is needed");
    SEXP lower = setting(settings, "lower"), upper = setting(settings, "upper"),
         shift = setting(settings, "shift");
    // the sums the ranges' call made (an external pointer; used only for
    // the design they were made from, and there only where they were made
    // for this column's clamp and shift, standardize.h)
    const std::vector<dpglmnet::ClampedColumnSums>* made = nullptr;
    if (settings.containsElementNamed("made_sums")) {
      const MadeSums* held = made_sums_of(settings["made_sums"]);
      if (held && held->source == x && held->rows == design.rows() &&
          static_cast<int>(held->sums.size()) == design.cols())
        made = &held->sums;
    }
    const dpglmnet::ColumnMoments m = dpglmnet::private_column_moments(
        design, mean_sd, second_sd.begin(), rng,
        optional_column(lower, design.cols()), optional_column(upper, design.cols()),
        optional_column(shift, design.cols()),
        optional_records(settings, "weights", design.rows()), made);
    return List::create(Named("mean") = m.mean, Named("second") = m.second);
  });
}

// Report-noisy-max over `utility` with Gumbel noise of scale `scale`, `draws`
// independent times (1-based indices; cv.dpglmnet() draws once, the tests
// many times).
// [[Rcpp::export(.report_noisy_max_cpp)]]
IntegerVector report_noisy_max_cpp(NumericVector utility, List settings) {
  const AvxGuard guard;
  dpglmnet::RandomSource rng = make_random_source(settings);
  const double scale = number(settings, "scale");
  const int draws = integer(settings, "draws");
  if (utility.size() < 1 || draws < 0 || !(scale >= 0.0))
    Rcpp::stop("internal error: need utilities, draws >= 0 and scale >= 0");
  IntegerVector out(draws);
  for (int d = 0; d < draws; ++d)
    out[d] = 1 + dpglmnet::report_noisy_max(utility.begin(), static_cast<int>(utility.size()),
                                            scale, rng);
  return out;
}

// Private column ranges for standardization (histogram.h): noisy coarse
// and fine histograms per column (replace-one L2 sensitivity 2), then the
// clamp chosen from them (post-processing).
List column_ranges_checked(SEXP x, const List& settings, bool check_finite);

// [[Rcpp::export(.column_ranges_cpp)]]
List column_ranges_cpp(SEXP x, List settings) {
  return column_ranges_checked(x, settings, false);
}

// The same, with check_finite (x a numeric matrix: read raw, histogram.h)
// the values checked finite in the same pass: list(nonfinite = TRUE), and
// no released value returned, when one is not (with make_sums the columns
// before it have had their noise drawn, from the core's own generator,
// and it is dropped).
List column_ranges_checked(SEXP x, const List& settings, bool check_finite) {
  return random_design_entry(
      x, settings, [&](const auto& design, dpglmnet::RandomSource& rng) -> SEXP {
    const int p = design.cols();
    check_histogram_intervals(settings, p);
    NumericVector lower = setting(settings, "lower"), upper = setting(settings, "upper");
    const dpglmnet::HistogramShape shape{integer(settings, "levels"),
                                         integer(settings, "fine_bins")};
    if (shape.levels < 1 || shape.levels > 60 || shape.fine_bins < 1 || shape.fine_bins > 4096)
      Rcpp::stop("internal error: invalid histogram settings");
    if (settings.containsElementNamed("make_sums") && flag(settings, "make_sums")) {
      // each column's exact clamped sums made while it is in cache, for the
      // moments' call (standardize.h); held by the core, never read by R
      double count_sd = 0.0;
      histogram_settings(settings, p, &count_sd);
      dpglmnet::ReleasedRanges released;
      auto* made = new MadeSums{x, design.rows(), {}};
      Rcpp::XPtr<MadeSums> held(made, true, Rf_install(kMadeSumsTag), R_NilValue);
      // (the columns the caller reads on their public interval: one flag each)
      const LogicalVector on_public = setting(settings, "sums_on_public");
      if (on_public.size() != p) Rcpp::stop("internal error: one sums_on_public flag per column");
      const bool all_finite = dpglmnet::release_ranges_with_sums(
          design, lower.begin(), upper.begin(), shape, count_sd, flag(settings, "keep_zero"),
          flag(settings, "centre_sums"), on_public.begin(), rng, released, made->sums);
      if (check_finite && !all_finite) return List::create(Named("nonfinite") = true);
      List out = released_ranges_list(released, settings, p);
      out["made_sums"] = held;
      return out;
    }
    bool all_finite = true;
    std::vector<double> counts =
        dpglmnet::column_histograms(design, lower.begin(), upper.begin(), shape,
                                    dpglmnet::kernels::best_isa(), &all_finite);
    if (check_finite && !all_finite) return List::create(Named("nonfinite") = true);
    return release_ranges_list(std::move(counts), settings, p, rng);
  });
}

// Private quantiles of per-record magnitudes (magnitude_quantiles.h):
// `what` = "columns" (|w_i x_ij| per column, and |w_i| for the intercept when
// `constant_column`) or "rows" (|w_i| ||(x_i, 1)||), with w_i = l'(0, y_i)
// when `weighted` (the derivative of the loss at the start of the fit), else 1.
// [[Rcpp::export(.magnitude_quantiles_cpp)]]
NumericVector magnitude_quantiles_cpp(SEXP x, NumericVector y, List settings) {
  y = read_response(y, settings);
  const dpglmnet::QuantileSearch search{number(settings, "level"), number(settings, "range"),
                                        integer(settings, "steps"),
                                        number(settings, "count_sd")};
  const bool constant_column = flag(settings, "constant_column");
  const bool weighted = flag(settings, "weighted");
  const std::string what = text(settings, "what");
  NumericVector upper = setting(settings, "upper");
  if (!(search.level > 0.0 && search.level < 1.0 && search.range > 1.0 && search.steps >= 1 &&
        search.count_sd >= 0.0))
    Rcpp::stop("internal error: invalid quantile search");
  return random_fit_entry(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        const int n = design.rows(), p = design.cols();
        if (y.size() != n) Rcpp::stop("internal error: y must have one value per record");
        std::vector<double> weight;
        if (weighted) {
          weight.resize(n);
          for (int i = 0; i < n; ++i) weight[i] = loss.derivative(0.0, y[i]);
        }
        const double* w = weighted ? weight.data() : nullptr;
        for (double u : upper)
          if (!(u > 0.0 && std::isfinite(u)))
            Rcpp::stop("internal error: search bounds must be positive and finite");
        if (what == "rows") {
          if (upper.size() != 1) Rcpp::stop("internal error: one upper bound is needed");
          return NumericVector::create(dpglmnet::private_row_norm_quantile(
              design, w, constant_column, upper[0], search, rng));
        }
        if (what != "columns") Rcpp::stop("internal error: unknown quantile search");
        if (upper.size() != p + (constant_column ? 1 : 0))
          Rcpp::stop("internal error: one upper bound per searched column is needed");
        return wrap(dpglmnet::private_column_magnitude_quantiles(
            design, w, constant_column, upper.begin(), search, rng));
      });
}

// The linear predictor of a path (settings: beta, p x K; a0, K) at the
// records of x read through the transform (x.bounds' clamp): cv.dpglmnet()'s
// validation records, a row subset of x, read in place.
// [[Rcpp::export(.linear_predictor_cpp)]]
NumericMatrix linear_predictor_cpp(SEXP x, List settings) {
  const AvxGuard guard;
  NumericMatrix beta = setting(settings, "beta");
  NumericVector a0 = setting(settings, "a0");
  return as<NumericMatrix>(with_design(x, setting(settings, "transform"),
                                       [&](const auto& design) -> SEXP {
    const int K = static_cast<int>(a0.size());
    if (beta.nrow() != design.cols() || beta.ncol() != K)
      Rcpp::stop("internal error: beta must be p x K and a0 of length K");
    NumericMatrix out(design.rows(), K);
    dpglmnet::linear_predictor(design, beta.begin(), a0.begin(), K, out.begin());
    return out;
  }));
}
