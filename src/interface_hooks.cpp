// R entry points that are not fits: input scanning, and test hooks that let
// tests/testthat reach the core's parts (SIMD sweeps, the vector exp, DP-SGD's
// minibatch sampler). Conversion only.
#include <Rcpp.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "dpglmnet/chacha20.h"
#include "dpglmnet/dpsgd.h"
#include "dpglmnet/kernels.h"
#include "dpglmnet/losses/registry.h"
#include "dpglmnet/os_entropy.h"
#include "dpglmnet/penalties/elastic_net.h"
#include "dpglmnet/smoothness.h"
#include "dpglmnet/random.h"
#include "dpglmnet/simd.h"
#include "interface_common.h"

using namespace Rcpp;
using namespace interface;

namespace {

// The loss of a test hook's family and optional parameter (NULL: none).
dpglmnet::LossSpec hook_loss_spec(const std::string& family, SEXP parameter) {
  return loss_spec(List::create(Named("family") = family,
                                Named("family_parameter") = parameter));
}

}  // namespace

// Input checking without an n x p temporary: 0 when every value is finite,
// 1 at the first NA or NaN, 2 at the first Inf or -Inf (R's anyNA() plus
// any(is.infinite()) allocate and scan twice; for the tuning loops that call
// dpglmnet() thousands of times on the same x this was most of a call).
// [[Rcpp::export(.nonfinite_kind_cpp)]]
int nonfinite_kind_cpp(NumericVector values) {
  return interface::first_nonfinite_kind(values.begin(), values.size());
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
// checked is in .simd_isa_cpp(), for the loss of `family` (and its
// `family_parameter`). Returns the clipped gradient sum and eta.
// [[Rcpp::export(.dense_sweep_cpp)]]
List dense_sweep_cpp(std::string isa, std::string family, NumericVector eta,
                     NumericVector y, SEXP update_column, double change,
                     NumericVector gradient_column, double clip,
                     SEXP family_parameter = R_NilValue) {
  const AvxGuard guard;
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
    return sweep(loss, static_cast<int>(out.size()), out.begin(), y.begin(), nullptr, u,
                 change, gradient_column.begin(), clip, identity, identity);
  };
  const double sum = dpglmnet::with_loss(hook_loss_spec(family, family_parameter), run);
  return List::create(Named("sum") = sum, Named("eta") = out);
}

// Test hook: simd::exp_in_place on baseline packs, arguments clamped to
// [-kExpLimit, kExpLimit] (a short tail is padded).
// [[Rcpp::export(.simd_exp_cpp)]]
NumericVector simd_exp_cpp(NumericVector x) {
  const AvxGuard guard;
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

// Test hook: RFC 8439's ChaCha20 block function (section 2.3), the 64 bytes
// of keystream for a 32-byte key, a 32-bit block counter and a 12-byte
// nonce, to check against the RFC's test vectors.
// [[Rcpp::export(.chacha20_block_cpp)]]
RawVector chacha20_block_cpp(RawVector key, RawVector nonce, double counter) {
  if (key.size() != 32 || nonce.size() != 12)
    Rcpp::stop("need a key of 32 bytes and a nonce of 12 bytes");
  if (!(counter >= 0 && counter <= 4294967295.0 && counter == std::floor(counter)))
    Rcpp::stop("need a block counter that is an integer in [0, 2^32)");
  RawVector out(64);
  dpglmnet::chacha20::block_bytes(key.begin(), static_cast<std::uint32_t>(counter),
                                  nonce.begin(), out.begin());
  return out;
}

// Test hook: the names of the ways of computing ChaCha20 blocks that this
// build has and this processor runs; the buffered stream uses the last.
// [[Rcpp::export(.chacha20_paths_cpp)]]
CharacterVector chacha20_paths_cpp() {
  CharacterVector paths = CharacterVector::create("one_by_one");
#if DPGLMNET_CHACHA20_VECTOR
  paths.push_back("4_lanes");
#endif
#if DPGLMNET_CHACHA20_AVX2
  if (dpglmnet::chacha20::has_avx2()) paths.push_back("8_lanes_avx2");
#endif
  return paths;
}

// Test hook: the first `words` 64-bit words of the stream behind
// rng = "secure" (64-bit counter from `first_block`, 8-byte nonce), each
// written as 8 little-endian bytes, so they can be compared with the block
// function's bytes. path "": the buffered stream the samplers read;
// otherwise blocks computed by that path (chacha20_paths_cpp()).
// [[Rcpp::export(.chacha20_stream_cpp)]]
RawVector chacha20_stream_cpp(RawVector key, RawVector nonce, double first_block,
                              int words, std::string path) {
  if (key.size() != 32 || nonce.size() != 8)
    Rcpp::stop("need a key of 32 bytes and a nonce of 8 bytes");
  if (!(first_block >= 0 && first_block < 9007199254740992.0 &&
        first_block == std::floor(first_block)))
    Rcpp::stop("need a first block counter that is an integer in [0, 2^53)");
  if (words < 0) Rcpp::stop("need words >= 0");
  const std::uint64_t first = static_cast<std::uint64_t>(first_block);
  std::vector<std::uint64_t> stream_words;
  if (path.empty()) {
    dpglmnet::ChaCha20Stream stream(key.begin(), nonce.begin(), first);
    for (int k = 0; k < words; ++k) stream_words.push_back(stream());
  } else {
    std::uint32_t state[16];
    for (int i = 0; i < 4; ++i) state[i] = dpglmnet::chacha20::kConstants[i];
    for (int i = 0; i < 8; ++i) state[4 + i] = dpglmnet::chacha20::load_le32(key.begin() + 4 * i);
    dpglmnet::chacha20::set_counter(state, first);
    state[14] = dpglmnet::chacha20::load_le32(nonce.begin());
    state[15] = dpglmnet::chacha20::load_le32(nonce.begin() + 4);
    const int blocks = 8 * ((words + 63) / 64);  // whole groups of 8 blocks
    stream_words.resize(8 * static_cast<std::size_t>(blocks));
    if (path == "one_by_one") {
      dpglmnet::chacha20::fill_one_by_one(state, stream_words.data(), blocks);
#if DPGLMNET_CHACHA20_VECTOR
    } else if (path == "4_lanes") {
      dpglmnet::chacha20::fill_4_lanes(state, stream_words.data(), blocks);
#endif
#if DPGLMNET_CHACHA20_AVX2
    } else if (path == "8_lanes_avx2" && dpglmnet::chacha20::has_avx2()) {
      dpglmnet::chacha20::fill_8_lanes_avx2(state, stream_words.data(), blocks);
#endif
    } else {
      Rcpp::stop("no ChaCha20 path '" + path + "' in this build on this processor");
    }
  }
  RawVector out(8 * static_cast<R_xlen_t>(words));
  for (int k = 0; k < words; ++k) {
    for (int b = 0; b < 8; ++b) out[8 * k + b] = static_cast<Rbyte>(stream_words[k] >> (8 * b));
  }
  return out;
}

// Test hook: `size` bytes from the operating system's secure generator (the
// key source of rng = "secure"); with `device` set, read from that file the
// way systems without getrandom() read /dev/urandom, so the tests can see a
// failure become an R error.
// [[Rcpp::export(.os_random_bytes_cpp)]]
RawVector os_random_bytes_cpp(int size, std::string device) {
  if (size < 0) Rcpp::stop("need size >= 0");
  RawVector out(size);
#if defined(_WIN32)
  if (!device.empty()) Rcpp::stop("no random device on Windows");
#else
  if (!device.empty()) {
    dpglmnet::detail::read_random_device(device.c_str(), out.begin(),
                                         static_cast<std::size_t>(size));
    return out;
  }
#endif
  dpglmnet::os_random_bytes(out.begin(), static_cast<std::size_t>(size));
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

// Test hook: x read through ColumnTransform{-bound, bound, center, scale} (each NULL
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
                            IntegerVector gradient, double clip, NumericVector b,
                            SEXP family_parameter = R_NilValue) {
  const AvxGuard guard;
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
  // A symmetric clamp [-bound_j, bound_j], as x.bounds gives.
  const double* upper = transform_part(bound, p, "bound");
  std::vector<double> lower_values;
  if (upper) for (int k = 0; k < p; ++k) lower_values.push_back(-upper[k]);
  dpglmnet::ColumnTransform transform;
  transform.lower = upper ? lower_values.data() : nullptr;
  transform.upper = upper;
  transform.center = transform_part(center, p, "center");
  transform.scale = transform_part(scale, p, "scale");
  if (!dense && transform.center) Rcpp::stop("sparse x cannot be centred");
  using dpglmnet::kernels::Isa;
  const Isa chosen = isa == "avx512" ? Isa::avx512 : isa == "avx2" ? Isa::avx2
                                                                   : Isa::baseline;
  if (!dpglmnet::kernels::isa_supported(chosen)) Rcpp::stop("isa not supported here");

  auto run = [&](const auto& design, auto loss) -> SEXP {
    using Design = std::decay_t<decltype(design)>;
    using Loss = decltype(loss);
    const dpglmnet::ColumnSweeper<Design, Loss> sweeper(design, y.begin(), chosen, 1, nullptr,
                                                        loss);
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
                                                     {0.0, clip, 0.0, 1, 0}, rng, loss);
    return List::create(Named("sums") = sums, Named("eta") = eta,
                        Named("smoothness") = dpglmnet::exact_smoothness(design, 1.0),
                        Named("rows") = row_values, Named("dots") = dots,
                        Named("batch_dots") = batch_dots,
                        Named("full_gradient") = sgd.private_full_gradient());
  };
  const dpglmnet::LossSpec spec = hook_loss_spec(family, family_parameter);
  return dpglmnet::with_loss(spec, [&](auto loss) -> SEXP {
    return with_transformed_design(x, transform,
                                   [&](const auto& design) -> SEXP { return run(design, loss); });
  });
}

// Test hook: ElasticNetPenalty::prox(j[k], v[k], step) and its planned
// prox's apply(j[k], v[k]) for the same penalty (j 0-based).
// [[Rcpp::export(.planned_prox_cpp)]]
List planned_prox_cpp(NumericVector v, IntegerVector j, double step, double lambda,
                      double alpha, NumericVector penalty_factor, NumericVector lower,
                      NumericVector upper) {
  const AvxGuard guard;
  const int p = static_cast<int>(penalty_factor.size());
  if (lower.size() != p || upper.size() != p || v.size() != j.size())
    Rcpp::stop("need one lower and upper limit per penalty factor and one j per v");
  for (R_xlen_t k = 0; k < j.size(); ++k)
    if (j[k] < 0 || j[k] >= p) Rcpp::stop("j must be in [0, p)");
  const dpglmnet::ElasticNetPenalty penalty{lambda, alpha, penalty_factor.begin(),
                                            lower.begin(), upper.begin()};
  dpglmnet::ElasticNetPenalty::Planned planned;
  penalty.plan(planned, p, step);
  NumericVector direct(v.size()), from_plan(v.size());
  for (R_xlen_t k = 0; k < v.size(); ++k) {
    direct[k] = penalty.prox(j[k], v[k], step);
    from_plan[k] = planned.apply(j[k], v[k]);
  }
  return List::create(Named("prox") = direct, Named("planned") = from_plan);
}
