// The scalar fallback of the C++ core, which compilers without GCC/Clang
// vector extensions get: built by .ci/run with -DDPGLMNET_VECTOR_EXTENSIONS=0
// (pack width 1, no run-time dispatch, ChaCha20 one block at a time) and
// checked against plain loops and the block function.
// Exit status 0 when every result agrees to 1e-12 (relative for exp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "dpglmnet/chacha20.h"
#include "dpglmnet/dpsgd.h"
#include "dpglmnet/histogram.h"
#include "dpglmnet/kernels.h"
#include "dpglmnet/losses/huber.h"
#include "dpglmnet/losses/logistic.h"
#include "dpglmnet/losses/squared.h"
#include "dpglmnet/simd.h"

#if DPGLMNET_VECTOR_EXTENSIONS || DPGLMNET_X86_DISPATCH || DPGLMNET_CHACHA20_VECTOR
#error "build with -DDPGLMNET_VECTOR_EXTENSIONS=0"
#endif

namespace {

double worst = 0.0;
void compare(double got, double want, const char* what) {
  const double error = std::fabs(got - want) / std::max(1.0, std::fabs(want));
  if (error > worst) worst = error;
  if (!(error <= 1e-12)) std::printf("%s: got %.17g, want %.17g\n", what, got, want);
}

// transformed: the columns read through a clamp / centre / scale.
template <class Loss>
void check_sweep(const Loss& loss, std::mt19937& rng, int n, bool update, bool transformed) {
  std::normal_distribution<double> normal;
  std::vector<double> eta(n), y(n), u(n), g(n);
  for (int i = 0; i < n; ++i) {
    eta[i] = 4 * normal(rng);
    y[i] = normal(rng) > 0;
    u[i] = normal(rng);
    g[i] = normal(rng);
  }
  const double change = 0.3, clip = 0.8;
  dpglmnet::ColumnTransform::Column um, gm;
  if (transformed) {
    um.lower = -0.5, um.upper = 0.5, um.center = 0.1, um.scale = 2.0;
    gm.lower = -1.0, gm.upper = 1.0, gm.center = -0.3, gm.scale = 0.7;
  }
  std::vector<double> expected_eta = eta;
  double expected = 0.0;
  for (int i = 0; i < n; ++i) {
    if (update) expected_eta[i] += change * um(u[i]);
    const double v = loss.derivative(expected_eta[i], y[i]) * gm(g[i]);
    expected += std::min(std::max(v, -clip), clip);
  }
  using dpglmnet::kernels::dense_sweep;
  const auto isa = dpglmnet::kernels::best_isa();
  using dpglmnet::kernels::Read;
  const auto sweep = transformed ? (update ? dense_sweep<Loss, true, Read::transformed>(isa)
                                           : dense_sweep<Loss, false, Read::transformed>(isa))
                                 : (update ? dense_sweep<Loss, true>(isa)
                                           : dense_sweep<Loss, false>(isa));
  const double got = sweep(loss, n, eta.data(), y.data(), /* weights */ nullptr,
                           update ? u.data() : nullptr, change,
                           g.data(), clip, um, gm);
  compare(got, expected, "dense sweep");
  for (int i = 0; i < n; ++i) compare(eta[i], expected_eta[i], "dense sweep eta");
}

// The buffered ChaCha20 stream (one block at a time here) against the block
// function, whose RFC 8439 test vectors the R tests check.
bool check_chacha20_stream() {
  unsigned char key[32], nonce[8] = {1, 2, 3, 4, 250, 251, 252, 253}, rfc_nonce[12] = {0};
  for (int i = 0; i < 32; ++i) key[i] = static_cast<unsigned char>(7 * i + 3);
  for (int i = 0; i < 8; ++i) rfc_nonce[4 + i] = nonce[i];
  dpglmnet::ChaCha20Stream stream(key, nonce);
  for (std::uint32_t block = 0; block < 37; ++block) {
    unsigned char expected[64];
    dpglmnet::chacha20::block_bytes(key, block, rfc_nonce, expected);
    for (int j = 0; j < 8; ++j) {
      const std::uint64_t word = stream();
      for (int b = 0; b < 8; ++b) {
        if (static_cast<unsigned char>(word >> (8 * b)) != expected[8 * j + b]) {
          std::printf("ChaCha20 stream: block %u differs from the block function\n", block);
          return false;
        }
      }
    }
  }
  return true;
}

}  // namespace

int main() {
  const bool chacha20_ok = check_chacha20_stream();
  std::mt19937 rng(2022);
  std::normal_distribution<double> normal;
  for (double v : {-708.0, -30.5, -1.0, -1e-9, 0.0, 0.25, 1.0, 17.3, 708.0}) {
    double x = v;
    dpglmnet::simd::exp_in_place<1>(x);
    const double error = std::fabs(x - std::exp(v)) / std::exp(v);
    if (error > worst) worst = error;
    if (!(error <= 1e-15)) std::printf("exp(%g): relative error %g\n", v, error);
  }
  for (int n : {1, 2, 7, 64, 1001}) {
    for (bool transformed : {false, true}) {
      check_sweep(dpglmnet::LogisticLoss(), rng, n, true, transformed);
      check_sweep(dpglmnet::LogisticLoss(), rng, n, false, transformed);
      check_sweep(dpglmnet::SquaredLoss(), rng, n, true, transformed);
      check_sweep(dpglmnet::HuberLoss(0.7), rng, n, true, transformed);
      check_sweep(dpglmnet::HuberLoss(0.7), rng, n, false, transformed);
    }
  }
  for (int p = 1; p <= 37; ++p) {
    const int rows = 50, m = 7;
    std::vector<double> x(static_cast<std::size_t>(rows) * p), b(p), w(m), out(m), sum(p, 0.0);
    for (double& v : x) v = normal(rng);
    for (double& v : b) v = normal(rng);
    for (double& v : w) v = normal(rng);
    const int batch[m] = {3, 9, 0, 49, 17, 17, 25};
    dpglmnet::record_kernels::batch_dot(x.data(), p, batch, m, b.data(), out.data());
    dpglmnet::record_kernels::batch_add_scaled(x.data(), p, batch, m, w.data(), sum.data());
    for (int k = 0; k < m; ++k) {
      const double* row = x.data() + static_cast<std::size_t>(batch[k]) * p;
      double want = 0.0;
      for (int j = 0; j < p; ++j) want += row[j] * b[j];
      compare(out[k], want, "batch_dot");
      compare(dpglmnet::record_kernels::dot(row, b.data(), p), want, "dot");
    }
    for (int j = 0; j < p; ++j) {
      double want = 0.0;
      for (int k = 0; k < m; ++k) want += w[k] * x[static_cast<std::size_t>(batch[k]) * p + j];
      compare(sum[j], want, "batch_add_scaled");
    }
  }
  // Range histograms (histogram.h) of dense x read from its stored column
  // against CoarseBins / fine_bin() value by value.
  bool histograms_ok = true;
  {
    const int n = 1001, p = 3, levels = 20, fine_bins = 32;
    const double lower[p] = {-5.0, -1.3, 0.5}, upper[p] = {5.0, 3.7, 3.7};
    std::vector<double> x(static_cast<std::size_t>(n) * p);
    for (double& v : x) v = 3.0 * normal(rng);
    x[0] = 0.0, x[1] = 5.0, x[2] = -5.0, x[3] = 2.5, x[4] = 1e-7;
    dpglmnet::ColumnTransform transform;
    transform.lower = lower;
    transform.upper = upper;
    const dpglmnet::DenseDesign design(x.data(), n, p, transform);
    const dpglmnet::HistogramShape shape{levels, fine_bins};
    const std::vector<double> got = dpglmnet::column_histograms(design, lower, upper, shape);
    for (int j = 0; j < p; ++j) {
      std::vector<double> want(shape.size(), 0.0);
      const dpglmnet::CoarseBins coarse(dpglmnet::histogram_frame(lower[j], upper[j]), levels);
      for (int i = 0; i < n; ++i) {
        const double v = std::min(std::max(x[static_cast<std::size_t>(j) * n + i], lower[j]),
                                  upper[j]);
        want[coarse(v)] += 1.0;
        want[shape.coarse_bins() +
             dpglmnet::fine_bin(v, lower[j], fine_bins / (upper[j] - lower[j]), fine_bins)] +=
            1.0;
      }
      for (int k = 0; k < shape.size(); ++k)
        if (got[static_cast<std::size_t>(j) * shape.size() + k] != want[k]) {
          std::printf("histogram column %d bin %d: got %g, want %g\n", j, k,
                      got[static_cast<std::size_t>(j) * shape.size() + k], want[k]);
          histograms_ok = false;
        }
    }
  }
  std::printf("scalar fallback (width %d): largest error %.3g\n",
              dpglmnet::simd::kBaselineWidth, worst);
  return worst <= 1e-12 && chacha20_ok && histograms_ok ? 0 : 1;
}
