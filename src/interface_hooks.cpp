// R entry points that are not fits: input scanning, and test hooks that let
// tests/testthat reach the core's parts (SIMD sweeps, the vector exp, DP-SGD's
// minibatch sampler). Conversion only.
#include <Rcpp.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpglmnet/dpsgd.h"
#include "dpglmnet/kernels.h"
#include "dpglmnet/loss.h"
#include "dpglmnet/random.h"
#include "dpglmnet/simd.h"
#include "interface_common.h"

using namespace Rcpp;
using namespace interface;

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
  dpglmnet::RandomSource rng = make_random_source(List::create(Named("seed") = seed, Named("secure") = false));
  dpglmnet::MinibatchSampler sampler(n, m);
  IntegerMatrix out(draws, m);
  std::vector<int> batch(m);
  for (int d = 0; d < draws; ++d) {
    sampler.draw(rng, batch.data());
    for (int k = 0; k < m; ++k) out(d, k) = batch[k] + 1;
  }
  return out;
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
    return sweep(static_cast<int>(out.size()), out.begin(), y.begin(), u, change,
                 gradient_column.begin(), clip);
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

