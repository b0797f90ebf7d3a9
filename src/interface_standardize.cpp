// The standardized response of a private standardization (R/standardize.R):
// y clamped to its released clamp, centred and scaled, in one pass. R's
// (pmin(pmax(y, lower), upper) - mean) / sd made four copies of y (4e5
// records: 3.7 ms of a 70 ms fit); this is the same arithmetic in the same
// order (R's pmax and pmin keep y when it ties the bound), so the same
// numbers. Conversion only.
#include <Rcpp.h>

#include <cmath>

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
