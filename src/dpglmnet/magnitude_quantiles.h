// Private quantiles of per-record magnitudes, by noisy-count bisection on a
// log scale: the private scales of a fit on unstandardized data (R/scales.R).
//   - |x_ij| per column: the clamp of the smoothness constants' moments;
//   - |l'(0, y_i) x_ij| per column, and |l'(0, y_i)| for the intercept: the
//     clipping thresholds C_j of DP-CD (the terms it clips, at its start);
//   - |l'(0, y_i)| ||(x_i, 1)||_2 per record: the clipping threshold of
//     DP-SGD (the norm of the gradient it clips, at its start).
// Each bisection step releases the count #{i : v_i <= t} + N(0, count_sd^2).
// Replacing one record changes such a count by at most 1 (its replace-one
// sensitivity), whatever the values, so `steps` Gaussian releases of
// sensitivity 1 per searched quantity (R/scales.R charges them). The search
// runs over [upper / range, upper] with `upper` a public bound on the
// magnitudes; `steps` halvings of the log-interval leave a factor
// range^(2^-steps) of resolution.
#ifndef DPGLMNET_MAGNITUDE_QUANTILES_H
#define DPGLMNET_MAGNITUDE_QUANTILES_H

#include <cmath>
#include <vector>

#include "bisection.h"
#include "clip.h"
#include "random.h"

namespace dpglmnet {

// Quantile of |weight_i x_ij| (weight null: 1) for each column j, searched
// below upper[j]; with `constant_column`, one more of |weight_i| (the
// intercept's feature is 1), searched below upper[p]. The implicit zeros of
// sparse x count as magnitude 0.
template <class Design>
std::vector<double> private_column_magnitude_quantiles(
    const Design& x, const double* weight, bool constant_column, const double* upper,
    const QuantileSearch& search, RandomSource& rng) {
  const int n = x.rows(), p = x.cols();
  std::vector<double> out(p + (constant_column ? 1 : 0), 0.0);
  for (int j = 0; j < p; ++j) {
    out[j] = noisy_log_bisection(
        [&](double t) {
          double below = 0.0;
          int stored = 0;
          x.for_each_in_column(j, [&](int i, double v) {
            ++stored;
            below += std::fabs(weight ? weight[i] * v : v) <= t;
          });
          return below + (n - stored);  // implicit zeros (sparse)
        },
        n, upper[j], search, rng);
  }
  if (constant_column) {
    out[p] = noisy_log_bisection(
        [&](double t) {
          double below = 0.0;
          for (int i = 0; i < n; ++i) below += std::fabs(weight ? weight[i] : 1.0) <= t;
          return below;
        },
        n, upper[p], search, rng);
  }
  return out;
}

// Quantile over records of |weight_i| ||(x_i, 1)||_2 (without the 1 unless
// `constant_column`), searched below `upper`.
template <class Design>
double private_row_norm_quantile(const Design& x, const double* weight,
                                 bool constant_column, double upper,
                                 const QuantileSearch& search, RandomSource& rng) {
  const int n = x.rows();
  std::vector<double> norm = record_squared_norms(x, constant_column);
  for (int i = 0; i < n; ++i) norm[i] = std::sqrt(norm[i]) * std::fabs(weight ? weight[i] : 1.0);
  return noisy_log_bisection(
      [&](double t) {
        double below = 0.0;
        for (int i = 0; i < n; ++i) below += norm[i] <= t;
        return below;
      },
      n, upper, search, rng);
}

}  // namespace dpglmnet

#endif  // DPGLMNET_MAGNITUDE_QUANTILES_H
