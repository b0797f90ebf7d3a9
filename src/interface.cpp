// The only file that knows R: it converts R objects to the types of the
// header-only core in dpglmnet/ and back. Every argument has been checked in
// R (R/checks.R) before it gets here.
#include <Rcpp.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dpglmnet/design.h"
#include "dpglmnet/dpcd.h"
#include "dpglmnet/dpsgd.h"
#include "dpglmnet/gdp_accountant.h"
#include "dpglmnet/kernels.h"
#include "dpglmnet/loss.h"
#include "dpglmnet/path.h"
#include "dpglmnet/random.h"
#include "dpglmnet/rdp_accountant.h"
#include "dpglmnet/sha256.h"
#include "dpglmnet/smoothness.h"

using namespace Rcpp;

namespace {

// R (or the BLAS it loaded) can leave the upper halves of the AVX registers
// dirty; code compiled for baseline x86-64 SSE, like ours and glibc's math
// functions, then pays a state-transition penalty on floating-point
// instructions (4-8x slower accounting measured here). vzeroupper clears that
// state; it is only issued on processors that have AVX.
inline void clear_avx_upper_state() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const bool has_avx = __builtin_cpu_supports("avx");
  if (has_avx) __asm__ __volatile__("vzeroupper" ::: "memory");
#endif
}

// Calls f(design) with a dense or sparse (dgCMatrix) view of x, no copy,
// read through `transform`.
template <class F>
SEXP with_transformed_design(SEXP x, dpglmnet::ColumnTransform transform, F&& f) {
  if (Rf_isMatrix(x)) {
    NumericMatrix m(x);
    dpglmnet::DenseDesign design(m.begin(), m.nrow(), m.ncol(), transform);
    return f(design);
  }
  S4 sparse(x);
  IntegerVector dim = sparse.slot("Dim");
  IntegerVector row_index = sparse.slot("i");
  IntegerVector column_start = sparse.slot("p");
  NumericVector values = sparse.slot("x");
  dpglmnet::SparseDesign design(row_index.begin(), column_start.begin(),
                                values.begin(), dim[0], dim[1], transform);
  return f(design);
}

// The same, clamped to `bounds` (R's x.bounds, length p, or NULL) as x is read.
template <class F>
SEXP with_design(SEXP x, SEXP bounds, F&& f) {
  dpglmnet::ColumnTransform transform;
  if (!Rf_isNull(bounds)) {
    const R_xlen_t p = Rf_isMatrix(x) ? Rf_ncols(x) : IntegerVector(S4(x).slot("Dim"))[1];
    if (!Rf_isReal(bounds) || Rf_xlength(bounds) != p)
      Rcpp::stop("bounds must be NULL or a double vector of length ncol(x)");
    transform.bound = REAL(bounds);
  }
  return with_transformed_design(x, transform, std::forward<F>(f));
}

// Calls f(loss) with the loss of the family.
template <class F>
SEXP with_loss(const std::string& family, F&& f) {
  if (family == "binomial") return f(dpglmnet::LogisticLoss());
  return f(dpglmnet::SquaredLoss());
}

// Calls f(design, loss): every solver entry is one template instance per
// storage of x and per family.
template <class F>
SEXP with_design_and_loss(SEXP x, SEXP bounds, const std::string& family, F&& f) {
  return with_design(x, bounds, [&](const auto& design) -> SEXP {
    return with_loss(family, [&](auto loss) -> SEXP { return f(design, loss); });
  });
}

dpglmnet::RandomSource make_random_source(NumericVector seed, bool secure) {
  const std::uint64_t hi = static_cast<std::uint64_t>(seed[0]);
  const std::uint64_t lo = static_cast<std::uint64_t>(seed[1]);
  return dpglmnet::RandomSource((hi << 32) ^ lo, secure);
}

dpglmnet::Selection parse_selection(const std::string& selection) {
  if (selection == "random") return dpglmnet::Selection::random;
  if (selection == "cyclic") return dpglmnet::Selection::cyclic;
  return dpglmnet::Selection::permutation;
}

std::vector<double> to_std(NumericVector v) {
  return std::vector<double>(v.begin(), v.end());
}

List path_to_list(const dpglmnet::PathResult& path, int p, int nlambda) {
  NumericMatrix beta(p, nlambda);
  std::copy(path.beta.begin(), path.beta.end(), beta.begin());
  return List::create(Named("beta") = beta, Named("a0") = path.intercept);
}

std::function<void(int)> progress(int trace, std::size_t nlambda) {
  return [trace, nlambda](int l) {
    if (trace > 0) Rcout << "lambda " << (l + 1) << "/" << nlambda << " done\n";
    checkUserInterrupt();  // throws a C++ exception: unwinds cleanly
  };
}

// Runs a solver down the lambda path with the elastic-net penalty and
// returns list(beta, a0).
template <class Solver>
List fit_path_to_list(Solver& solver, int p, const std::vector<double>& lambdas,
                      double alpha, NumericVector penalty_factor,
                      NumericVector lower, NumericVector upper, int trace) {
  dpglmnet::ElasticNetPenalty penalty{0.0, alpha, penalty_factor.begin(),
                                      lower.begin(), upper.begin()};
  return path_to_list(dpglmnet::fit_path(solver, p, lambdas, penalty,
                                         progress(trace, lambdas.size())),
                      p, static_cast<int>(lambdas.size()));
}

}  // namespace

// [[Rcpp::export(.gdp_epsilon_cpp)]]
NumericVector gdp_epsilon_cpp(NumericVector mu, double delta) {
  clear_avx_upper_state();
  NumericVector out(mu.size());
  for (R_xlen_t k = 0; k < mu.size(); ++k) out[k] = dpglmnet::gdp::epsilon(mu[k], delta);
  return out;
}

// [[Rcpp::export(.gdp_delta_cpp)]]
NumericVector gdp_delta_cpp(NumericVector mu, double epsilon) {
  clear_avx_upper_state();
  NumericVector out(mu.size());
  for (R_xlen_t k = 0; k < mu.size(); ++k) out[k] = dpglmnet::gdp::delta(mu[k], epsilon);
  return out;
}

// [[Rcpp::export(.gdp_mu_cpp)]]
NumericVector gdp_mu_cpp(NumericVector epsilon, double delta) {
  clear_avx_upper_state();
  NumericVector out(epsilon.size());
  for (R_xlen_t k = 0; k < epsilon.size(); ++k) out[k] = dpglmnet::gdp::mu(epsilon[k], delta);
  return out;
}

// [[Rcpp::export(.gdp_noise_multiplier_cpp)]]
double gdp_noise_multiplier_cpp(double releases, double epsilon, double delta) {
  clear_avx_upper_state();
  return dpglmnet::gdp::noise_multiplier(releases, epsilon, delta);
}

// [[Rcpp::export(.exact_smoothness_cpp)]]
NumericVector exact_smoothness_cpp(SEXP x, SEXP bounds, double curvature) {
  clear_avx_upper_state();
  return with_design(x, bounds, [&](const auto& design) -> SEXP {
    return wrap(dpglmnet::exact_smoothness(design, curvature));
  });
}

// [[Rcpp::export(.private_smoothness_cpp)]]
List private_smoothness_cpp(SEXP x, SEXP bounds, double curvature, NumericVector bound,
                            double epsilon, NumericVector seed, bool secure) {
  clear_avx_upper_state();
  dpglmnet::RandomSource rng = make_random_source(seed, secure);
  return with_design(x, bounds, [&](const auto& design) -> SEXP {
    std::vector<double> scale;
    std::vector<double> m = dpglmnet::private_smoothness(
        design, curvature, bound.begin(), epsilon, rng, &scale);
    return List::create(Named("smoothness") = m, Named("laplace_scale") = scale);
  });
}

// The private gradient of every feature at b = 0, b0 = 0 (the release behind
// a private lambda_max): p Gaussian mechanisms.
// [[Rcpp::export(.dpcd_start_gradient_cpp)]]
NumericVector dpcd_start_gradient_cpp(SEXP x, SEXP bounds, NumericVector y, std::string family,
                                      NumericVector clip, NumericVector noise_sd,
                                      NumericVector seed, bool secure) {
  clear_avx_upper_state();
  dpglmnet::RandomSource rng = make_random_source(seed, secure);
  return with_design_and_loss(x, bounds, family, [&](const auto& design, auto loss) -> SEXP {
    using Design = std::decay_t<decltype(design)>;
    using Loss = decltype(loss);
    dpglmnet::CoordinateSettings settings{
        std::vector<double>(design.cols(), 0.0), to_std(clip), to_std(noise_sd)};
    dpglmnet::DPCoordinateDescent<Design, Loss> solver(
        design, y.begin(), false, settings, 0, dpglmnet::Selection::cyclic,
        false, rng);
    NumericVector g(design.cols());
    for (int j = 0; j < design.cols(); ++j) g[j] = solver.private_gradient(j);
    return g;
  });
}

// [[Rcpp::export(.dpcd_path_cpp)]]
List dpcd_path_cpp(SEXP x, SEXP bounds, NumericVector y, std::string family, bool intercept,
                   NumericVector lambda, double alpha, NumericVector penalty_factor,
                   NumericVector lower, NumericVector upper, NumericVector step,
                   NumericVector clip, NumericVector noise_sd, int passes,
                   std::string selection, bool average, NumericVector seed,
                   bool secure, int trace) {
  clear_avx_upper_state();
  dpglmnet::RandomSource rng = make_random_source(seed, secure);
  const std::vector<double> lambdas = to_std(lambda);
  return with_design_and_loss(x, bounds, family, [&](const auto& design, auto loss) -> SEXP {
    using Design = std::decay_t<decltype(design)>;
    using Loss = decltype(loss);
    dpglmnet::CoordinateSettings settings{to_std(step), to_std(clip), to_std(noise_sd)};
    dpglmnet::DPCoordinateDescent<Design, Loss> solver(
        design, y.begin(), intercept, settings, passes,
        parse_selection(selection), average, rng);
    return fit_path_to_list(solver, design.cols(), lambdas, alpha, penalty_factor,
                            lower, upper, trace);
  });
}

// The instruction sets of the dense sweeps this processor runs, best first.
// [[Rcpp::export(.simd_isa_cpp)]]
CharacterVector simd_isa_cpp() {
  CharacterVector out;
  for (auto isa : {dpglmnet::kernels::Isa::avx512, dpglmnet::kernels::Isa::avx2,
                   dpglmnet::kernels::Isa::baseline})
    if (dpglmnet::kernels::isa_supported(isa))
      out.push_back(dpglmnet::kernels::isa_name(isa));
  return out;
}

// Test hook: one dense sweep (kernels.h) compiled for `isa`, which R has
// checked is in .simd_isa_cpp(). Returns the clipped gradient sum and eta.
// [[Rcpp::export(.dense_sweep_cpp)]]
List dense_sweep_cpp(std::string isa, std::string family, NumericVector eta,
                     NumericVector y, SEXP update_column, double change,
                     NumericVector gradient_column, double clip) {
  clear_avx_upper_state();
  const R_xlen_t n = eta.size();
  if (y.size() != n || gradient_column.size() != n ||
      (!Rf_isNull(update_column) && (!Rf_isReal(update_column) ||
                                     Rf_xlength(update_column) != n)))
    Rcpp::stop("eta, y and the columns must be double vectors of one length");
  using dpglmnet::kernels::Isa;
  const Isa chosen = isa == "avx512" ? Isa::avx512 : isa == "avx2" ? Isa::avx2
                                                                   : Isa::baseline;
  NumericVector out = clone(eta);
  const bool update = !Rf_isNull(update_column);
  const double* u = update ? REAL(update_column) : nullptr;
  auto run = [&](auto loss) {
    using Loss = decltype(loss);
    auto sweep = update ? dpglmnet::kernels::dense_sweep<Loss, true>(chosen)
                        : dpglmnet::kernels::dense_sweep<Loss, false>(chosen);
    const dpglmnet::ColumnTransform::Column identity;
    return sweep(static_cast<int>(out.size()), out.begin(), y.begin(), u, change,
                 gradient_column.begin(), clip, identity, identity);
  };
  const double sum = family == "binomial" ? run(dpglmnet::LogisticLoss())
                                          : run(dpglmnet::SquaredLoss());
  return List::create(Named("sum") = sum, Named("eta") = out);
}

// Test hook: simd::exp_in_place on baseline packs, arguments clamped to
// [-kExpLimit, kExpLimit] (a short tail is padded).
// [[Rcpp::export(.simd_exp_cpp)]]
NumericVector simd_exp_cpp(NumericVector x) {
  clear_avx_upper_state();
  constexpr int width = dpglmnet::simd::kBaselineWidth;
  NumericVector out(x.size());
  for (R_xlen_t i = 0; i < x.size(); i += width) {
    double lanes[width] = {};
    for (R_xlen_t k = 0; k < width && i + k < x.size(); ++k) lanes[k] = x[i + k];
    dpglmnet::simd::Pack<width> v;
    dpglmnet::simd::load<width>(v, lanes);
    dpglmnet::simd::clamp_abs<width>(v, dpglmnet::simd::Pack<width>{} +
                                            dpglmnet::simd::kExpLimit);
    dpglmnet::simd::exp_in_place<width>(v);
    dpglmnet::simd::store<width>(lanes, v);
    for (R_xlen_t k = 0; k < width && i + k < x.size(); ++k) out[i + k] = lanes[k];
  }
  return out;
}

// [[Rcpp::export(.dpsgd_start_gradient_cpp)]]
NumericVector dpsgd_start_gradient_cpp(SEXP x, SEXP bounds, NumericVector y, std::string family,
                                       bool intercept, double clip, double noise_sd,
                                       NumericVector seed, bool secure) {
  clear_avx_upper_state();
  dpglmnet::RandomSource rng = make_random_source(seed, secure);
  return with_design_and_loss(x, bounds, family, [&](const auto& design, auto loss) -> SEXP {
    using Design = std::decay_t<decltype(design)>;
    using Loss = decltype(loss);
    dpglmnet::DPStochasticGradient<Design, Loss> solver(
        design, y.begin(), intercept, {0.0, clip, noise_sd, 1, 0}, rng);
    return wrap(solver.private_full_gradient());
  });
}

// [[Rcpp::export(.dpsgd_path_cpp)]]
List dpsgd_path_cpp(SEXP x, SEXP bounds, NumericVector y, std::string family, bool intercept,
                    NumericVector lambda, double alpha, NumericVector penalty_factor,
                    NumericVector lower, NumericVector upper, double step,
                    double clip, double noise_sd, int batch_size, double steps,
                    NumericVector seed, bool secure, int trace) {
  clear_avx_upper_state();
  dpglmnet::RandomSource rng = make_random_source(seed, secure);
  const std::vector<double> lambdas = to_std(lambda);
  return with_design_and_loss(x, bounds, family, [&](const auto& design, auto loss) -> SEXP {
    using Design = std::decay_t<decltype(design)>;
    using Loss = decltype(loss);
    dpglmnet::StochasticSettings settings{step, clip, noise_sd, batch_size,
                                          static_cast<long long>(steps)};
    dpglmnet::DPStochasticGradient<Design, Loss> solver(design, y.begin(),
                                                        intercept, settings, rng);
    return fit_path_to_list(solver, design.cols(), lambdas, alpha, penalty_factor,
                            lower, upper, trace);
  });
}

// RDP of one step of the subsampled Gaussian at each order; sampling 1 =
// Poisson, 2 = without replacement.
// [[Rcpp::export(.rdp_subsampled_gaussian_cpp)]]
NumericVector rdp_subsampled_gaussian_cpp(double q, double z, NumericVector orders,
                                          int sampling) {
  clear_avx_upper_state();
  NumericVector out(orders.size());
  if (sampling == 2) {
    dpglmnet::rdp::without_replacement_curve(q, z, orders.begin(),
                                             static_cast<int>(orders.size()), out.begin());
  } else {
    for (R_xlen_t k = 0; k < orders.size(); ++k)
      out[k] = dpglmnet::rdp::poisson_subsampled_gaussian(q, z, orders[k]);
  }
  return out;
}

// [[Rcpp::export(.rdp_epsilon_cpp)]]
List rdp_epsilon_cpp(NumericVector orders, NumericVector rdp, double delta) {
  clear_avx_upper_state();
  int best = -1;
  const double eps = dpglmnet::rdp::epsilon_from_rdp(
      orders.begin(), rdp.begin(), static_cast<int>(orders.size()), delta, &best);
  return List::create(Named("epsilon") = eps,
                      Named("order") = best < 0 ? NA_REAL : orders[best]);
}

// [[Rcpp::export(.rdp_delta_cpp)]]
List rdp_delta_cpp(NumericVector orders, NumericVector rdp, double epsilon) {
  clear_avx_upper_state();
  int best = -1;
  const double delta = dpglmnet::rdp::delta_from_rdp(
      orders.begin(), rdp.begin(), static_cast<int>(orders.size()), epsilon, &best);
  return List::create(Named("delta") = delta,
                      Named("order") = best < 0 ? NA_REAL : orders[best]);
}

// The noise multiplier shared by kinds of releases (one per entry of q,
// steps, sampling: 0 none, 1 Poisson, 2 without replacement).
// [[Rcpp::export(.rdp_noise_multiplier_cpp)]]
double rdp_noise_multiplier_cpp(double epsilon, double delta, NumericVector q,
                                NumericVector steps, IntegerVector sampling,
                                NumericVector orders) {
  clear_avx_upper_state();
  std::vector<dpglmnet::rdp::GaussianReleases> parts;
  for (R_xlen_t k = 0; k < q.size(); ++k) parts.push_back({q[k], steps[k], sampling[k]});
  return dpglmnet::rdp::noise_multiplier_for(epsilon, delta, parts, orders.begin(),
                                             static_cast<int>(orders.size()));
}

// SHA-256 of a file's bytes as 64 hex digits; "" if it cannot be read.
// [[Rcpp::export(.sha256_file_cpp)]]
std::string sha256_file_cpp(std::string path) {
  clear_avx_upper_state();
  return dpglmnet::sha256_file_hex(path);
}

// Input checking without an n x p temporary: 0 when every value is finite,
// 1 at the first NA or NaN, 2 at the first Inf or -Inf (R's anyNA() plus
// any(is.infinite()) allocate and scan twice; for the tuning loops that call
// dpglmnet() thousands of times on the same x this was most of a call).
// [[Rcpp::export(.nonfinite_kind_cpp)]]
int nonfinite_kind_cpp(NumericVector values) {
  const double* v = values.begin();
  const R_xlen_t n = values.size();
  for (R_xlen_t i = 0; i < n; ++i) {
    if (!std::isfinite(v[i])) return std::isnan(v[i]) ? 1 : 2;
  }
  return 0;
}

// Test hook: `draws` minibatches of DP-SGD's sampler (m of n records, rows of
// the result, 1-based), so the tests can check the law the accountant
// assumes.
// [[Rcpp::export(.minibatches_cpp)]]
IntegerMatrix minibatches_cpp(int n, int m, int draws, NumericVector seed) {
  if (draws < 0 || seed.size() != 2) Rcpp::stop("need draws >= 0 and a seed of two numbers");
  dpglmnet::RandomSource rng = make_random_source(seed, false);
  dpglmnet::MinibatchSampler sampler(n, m);
  IntegerMatrix out(draws, m);
  std::vector<int> batch(m);
  for (int d = 0; d < draws; ++d) {
    sampler.draw(rng, batch.data());
    for (int k = 0; k < m; ++k) out(d, k) = batch[k] + 1;
  }
  return out;
}

// ---- Test hooks of the data path (column transform, row access, planned prox)

namespace {

// A length-p double vector or NULL, as a pointer of the ColumnTransform.
const double* transform_part(SEXP v, int p, const char* what) {
  if (Rf_isNull(v)) return nullptr;
  if (!Rf_isReal(v) || Rf_xlength(v) != p)
    Rcpp::stop("%s must be NULL or a double vector of length ncol(x)", what);
  return REAL(v);
}

}  // namespace

// Test hook: x read through ColumnTransform{bound, center, scale} (each NULL
// or of length p) by every consumer of the transform, so that R can compare
// with the same calls on the explicitly transformed x. Returns the clipped
// gradient sums of the sweeps (update[k], change[k], gradient[k]; column p is
// the intercept, -1 no update) from eta = 0 and the final eta after one more
// apply(update[0], change[0]); the exact smoothness (curvature 1); the rows
// of RowAccess (an n x p matrix) and their products with b, one by one and
// batched; and DP-SGD's clipped full gradient (noise 0, intercept).
// [[Rcpp::export(.transformed_design_cpp)]]
List transformed_design_cpp(SEXP x, SEXP bound, SEXP center, SEXP scale,
                            std::string isa, std::string family, NumericVector y,
                            IntegerVector update, NumericVector change,
                            IntegerVector gradient, double clip, NumericVector b) {
  clear_avx_upper_state();
  const bool dense = Rf_isMatrix(x);
  const int n = dense ? Rf_nrows(x) : IntegerVector(S4(x).slot("Dim"))[0];
  const int p = dense ? Rf_ncols(x) : IntegerVector(S4(x).slot("Dim"))[1];
  if (dense && !Rf_isReal(x)) Rcpp::stop("x must be a double matrix");
  if (y.size() != n || b.size() != p || update.size() != change.size() ||
      update.size() != gradient.size() || update.size() < 1)
    Rcpp::stop("need length(y) = n, length(b) = p and one update, change and gradient per sweep");
  for (R_xlen_t k = 0; k < update.size(); ++k)
    if (update[k] < -1 || update[k] > p || gradient[k] < 0 || gradient[k] > p)
      Rcpp::stop("sweep columns must be in [0, p] (updates: -1 for none)");
  dpglmnet::ColumnTransform transform{transform_part(bound, p, "bound"),
                                      transform_part(center, p, "center"),
                                      transform_part(scale, p, "scale")};
  if (!dense && transform.center) Rcpp::stop("sparse x cannot be centred");
  using dpglmnet::kernels::Isa;
  const Isa chosen = isa == "avx512" ? Isa::avx512 : isa == "avx2" ? Isa::avx2
                                                                   : Isa::baseline;
  if (!dpglmnet::kernels::isa_supported(chosen)) Rcpp::stop("isa not supported here");

  auto run = [&](const auto& design, auto loss) -> SEXP {
    using Design = std::decay_t<decltype(design)>;
    using Loss = decltype(loss);
    const dpglmnet::ColumnSweeper<Design, Loss> sweeper(design, y.begin(), chosen);
    NumericVector eta(n), sums(update.size());
    for (R_xlen_t k = 0; k < update.size(); ++k)
      sums[k] = sweeper.update_then_gradient(eta.begin(), update[k], change[k],
                                             gradient[k], clip);
    sweeper.apply(eta.begin(), update[0], change[0]);

    const dpglmnet::RowAccess<Design> rows(design);
    NumericMatrix row_values(n, p);
    NumericVector dots(n), batch_dots(n);
    std::vector<int> all(n);
    for (int i = 0; i < n; ++i) {
      all[i] = i;
      rows.for_each_in_row(i, [&](int j, double v) { row_values(i, j) = v; });
      dots[i] = rows.dot(i, b.begin());
    }
    rows.batch_dot(all.data(), n, b.begin(), batch_dots.begin());

    dpglmnet::RandomSource rng(1, false);
    dpglmnet::DPStochasticGradient<Design, Loss> sgd(design, y.begin(), true,
                                                     {0.0, clip, 0.0, 1, 0}, rng);
    return List::create(Named("sums") = sums, Named("eta") = eta,
                        Named("smoothness") = dpglmnet::exact_smoothness(design, 1.0),
                        Named("rows") = row_values, Named("dots") = dots,
                        Named("batch_dots") = batch_dots,
                        Named("full_gradient") = sgd.private_full_gradient());
  };
  return with_transformed_design(x, transform, [&](const auto& design) -> SEXP {
    return with_loss(family, [&](auto loss) -> SEXP { return run(design, loss); });
  });
}

// Test hook: ElasticNetPenalty::prox(j[k], v[k], step) and the planned
// prox's apply(j[k], v[k]) for the same penalty (j 0-based).
// [[Rcpp::export(.planned_prox_cpp)]]
List planned_prox_cpp(NumericVector v, IntegerVector j, double step, double lambda,
                      double alpha, NumericVector penalty_factor, NumericVector lower,
                      NumericVector upper) {
  clear_avx_upper_state();
  const int p = static_cast<int>(penalty_factor.size());
  if (lower.size() != p || upper.size() != p || v.size() != j.size())
    Rcpp::stop("need one lower and upper limit per penalty factor and one j per v");
  for (R_xlen_t k = 0; k < j.size(); ++k)
    if (j[k] < 0 || j[k] >= p) Rcpp::stop("j must be in [0, p)");
  const dpglmnet::ElasticNetPenalty penalty{lambda, alpha, penalty_factor.begin(),
                                            lower.begin(), upper.begin()};
  const dpglmnet::PlannedProx planned = penalty.plan(p, step);
  NumericVector direct(v.size()), from_plan(v.size());
  for (R_xlen_t k = 0; k < v.size(); ++k) {
    direct[k] = penalty.prox(j[k], v[k], step);
    from_plan[k] = planned.apply(j[k], v[k]);
  }
  return List::create(Named("prox") = direct, Named("planned") = from_plan);
}
