// Entries for private standardization's parts that R calls directly, and a
// test hook. Conversion only.
//
// The standardized response of a private standardization (R/standardize.R):
// y clamped to its released clamp, centred and scaled, in one pass. R's
// (pmin(pmax(y, lower), upper) - mean) / sd made four copies of y (4e5
// records: 3.7 ms of a 70 ms fit); this is the same arithmetic in the same
// order (R's pmax and pmin keep y when it ties the bound), so the same
// numbers.
#include <Rcpp.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpglmnet/histogram.h"
#include "dpglmnet/kernels.h"
#include "interface_common.h"

using namespace Rcpp;

// lower / upper: -Inf / Inf for no clamp.
// [[Rcpp::export(.response_standardize_cpp)]]
NumericVector response_standardize_cpp(NumericVector y, double lower, double upper,
                                       double mean, double sd) {
  if (!(lower <= upper) || std::isnan(mean) || std::isnan(sd))
    Rcpp::stop("internal error: a clamp lower <= upper and a mean and sd are needed");
  const R_xlen_t n = y.size();
  NumericVector out(n);
  const double* v = y.begin();
  double* o = out.begin();
  for (R_xlen_t i = 0; i < n; ++i) {
    double r = v[i];
    if (lower > r) r = lower;  // pmax(y, lower)
    if (upper < r) r = upper;  // pmin(., upper)
    o[i] = (r - mean) / sd;
  }
  return out;
}

// Test hook: the exact range histograms of column_histograms() (histogram.h;
// p columns of 2 levels + 1 coarse then fine_bins fine counts, no noise), x
// read through the clamp to [lower, upper] as in a fit, binned with the
// instruction set `isa` ("baseline", "avx2", "avx512"; refused when the
// processor lacks it: .simd_isa_cpp()), so the tests can check that every
// variant gives the same counts.
// [[Rcpp::export(.column_histograms_cpp)]]
NumericMatrix column_histograms_cpp(SEXP x, NumericVector lower, NumericVector upper,
                                    int levels, int fine_bins, std::string isa) {
  using dpglmnet::kernels::Isa;
  const Isa chosen = isa == "avx512" ? Isa::avx512 : isa == "avx2" ? Isa::avx2
                     : isa == "baseline" ? Isa::baseline : static_cast<Isa>(-1);
  if (chosen != Isa::baseline && chosen != Isa::avx2 && chosen != Isa::avx512)
    Rcpp::stop("unknown instruction set");
  if (!dpglmnet::kernels::isa_supported(chosen))
    Rcpp::stop("this processor does not run that instruction set");
  if (levels < 1 || levels > 60 || fine_bins < 1 || fine_bins > 4096)
    Rcpp::stop("invalid histogram shape");
  const interface::AvxGuard guard;
  const dpglmnet::HistogramShape shape{levels, fine_bins};
  const SEXP stored = interface::stored_matrix(x);
  const int p = Rf_isMatrix(stored) ? Rf_ncols(stored)
                                    : IntegerVector(S4(stored).slot("Dim"))[1];
  if (lower.size() != p || upper.size() != p)
    Rcpp::stop("one lower and one upper bound per column are needed");
  for (int j = 0; j < p; ++j)
    if (!(std::isfinite(lower[j]) && std::isfinite(upper[j]) && lower[j] < upper[j]))
      Rcpp::stop("finite bounds lower < upper are needed");
  dpglmnet::ColumnTransform transform;
  transform.lower = lower.begin();
  transform.upper = upper.begin();
  return interface::with_transformed_design(x, transform, [&](const auto& design) -> SEXP {
    const std::vector<double> counts =
        dpglmnet::column_histograms(design, lower.begin(), upper.begin(), shape, chosen);
    NumericMatrix out(shape.size(), p);
    std::copy(counts.begin(), counts.end(), out.begin());
    return out;
  });
}
