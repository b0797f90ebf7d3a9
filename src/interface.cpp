// The only file that knows R: it converts R objects to the types of the
// header-only core in dpglmnet/ and back. Every argument has been checked in
// R (R/checks.R) before it gets here.
#include <Rcpp.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dpglmnet/chacha20.h"
#include "dpglmnet/design.h"
#include "dpglmnet/dpcd.h"
#include "dpglmnet/dpsgd.h"
#include "dpglmnet/gdp_accountant.h"
#include "dpglmnet/kernels.h"
#include "dpglmnet/loss.h"
#include "dpglmnet/os_entropy.h"
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

// Calls f(design) with a dense or sparse (dgCMatrix) view of x, no copy.
template <class F>
SEXP with_design(SEXP x, F&& f) {
  if (Rf_isMatrix(x)) {
    NumericMatrix m(x);
    dpglmnet::DenseDesign design(m.begin(), m.nrow(), m.ncol());
    return f(design);
  }
  S4 sparse(x);
  IntegerVector dim = sparse.slot("Dim");
  IntegerVector row_index = sparse.slot("i");
  IntegerVector column_start = sparse.slot("p");
  NumericVector values = sparse.slot("x");
  dpglmnet::SparseDesign design(row_index.begin(), column_start.begin(),
                                values.begin(), dim[0], dim[1]);
  return f(design);
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
SEXP with_design_and_loss(SEXP x, const std::string& family, F&& f) {
  return with_design(x, [&](const auto& design) -> SEXP {
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
NumericVector exact_smoothness_cpp(SEXP x, double curvature) {
  clear_avx_upper_state();
  return with_design(x, [&](const auto& design) -> SEXP {
    return wrap(dpglmnet::exact_smoothness(design, curvature));
  });
}

// [[Rcpp::export(.private_smoothness_cpp)]]
List private_smoothness_cpp(SEXP x, double curvature, NumericVector bound,
                            double epsilon, NumericVector seed, bool secure) {
  clear_avx_upper_state();
  dpglmnet::RandomSource rng = make_random_source(seed, secure);
  return with_design(x, [&](const auto& design) -> SEXP {
    std::vector<double> scale;
    std::vector<double> m = dpglmnet::private_smoothness(
        design, curvature, bound.begin(), epsilon, rng, &scale);
    return List::create(Named("smoothness") = m, Named("laplace_scale") = scale);
  });
}

// The private gradient of every feature at b = 0, b0 = 0 (the release behind
// a private lambda_max): p Gaussian mechanisms.
// [[Rcpp::export(.dpcd_start_gradient_cpp)]]
NumericVector dpcd_start_gradient_cpp(SEXP x, NumericVector y, std::string family,
                                      NumericVector clip, NumericVector noise_sd,
                                      NumericVector seed, bool secure) {
  clear_avx_upper_state();
  dpglmnet::RandomSource rng = make_random_source(seed, secure);
  return with_design_and_loss(x, family, [&](const auto& design, auto loss) -> SEXP {
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
List dpcd_path_cpp(SEXP x, NumericVector y, std::string family, bool intercept,
                   NumericVector lambda, double alpha, NumericVector penalty_factor,
                   NumericVector lower, NumericVector upper, NumericVector step,
                   NumericVector clip, NumericVector noise_sd, int passes,
                   std::string selection, bool average, NumericVector seed,
                   bool secure, int trace) {
  clear_avx_upper_state();
  dpglmnet::RandomSource rng = make_random_source(seed, secure);
  const std::vector<double> lambdas = to_std(lambda);
  return with_design_and_loss(x, family, [&](const auto& design, auto loss) -> SEXP {
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

// [[Rcpp::export(.dpsgd_start_gradient_cpp)]]
NumericVector dpsgd_start_gradient_cpp(SEXP x, NumericVector y, std::string family,
                                       bool intercept, double clip, double noise_sd,
                                       NumericVector seed, bool secure) {
  clear_avx_upper_state();
  dpglmnet::RandomSource rng = make_random_source(seed, secure);
  return with_design_and_loss(x, family, [&](const auto& design, auto loss) -> SEXP {
    using Design = std::decay_t<decltype(design)>;
    using Loss = decltype(loss);
    dpglmnet::DPStochasticGradient<Design, Loss> solver(
        design, y.begin(), intercept, {0.0, clip, noise_sd, 1, 0}, rng);
    return wrap(solver.private_full_gradient());
  });
}

// [[Rcpp::export(.dpsgd_path_cpp)]]
List dpsgd_path_cpp(SEXP x, NumericVector y, std::string family, bool intercept,
                    NumericVector lambda, double alpha, NumericVector penalty_factor,
                    NumericVector lower, NumericVector upper, double step,
                    double clip, double noise_sd, int batch_size, double steps,
                    NumericVector seed, bool secure, int trace) {
  clear_avx_upper_state();
  dpglmnet::RandomSource rng = make_random_source(seed, secure);
  const std::vector<double> lambdas = to_std(lambda);
  return with_design_and_loss(x, family, [&](const auto& design, auto loss) -> SEXP {
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
