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
#include "dpglmnet/standardize.h"
#include "dpglmnet/kernels.h"
#include "interface_common.h"

using namespace Rcpp;

// lower / upper: -Inf / Inf for no clamp.
// [[Rcpp::export(.response_standardize_cpp)]]
NumericVector response_standardize_cpp(NumericVector y, double lower, double upper,
                                       double mean, double sd) {
  return interface::standardize_response(y, lower, upper, mean, sd);
}

List column_ranges_checked(SEXP x, const List& settings, bool check_finite);
List column_moments_cpp(SEXP x, List settings);

namespace {

// 0, or 1 (NA, NaN) / 2 (Inf) for the first non-finite value of a matrix or
// a dgCMatrix's stored values (R/checks.R's check of x); 0 for a row subset,
// whose x was checked when it was made (R/rows.R).
int nonfinite_kind(SEXP x) {
  SEXP values = R_NilValue;
  if (Rf_isMatrix(x) && TYPEOF(x) == REALSXP) values = x;
  else if (Rf_isS4(x) && R_has_slot(x, Rf_install("x"))) values = R_do_slot(x, Rf_install("x"));
  if (TYPEOF(values) != REALSXP) return 0;
  return interface::first_nonfinite_kind(REAL(values), XLENGTH(values));
}

}  // namespace

// One stage of private standardization in one call: for each design (x,
// then y as a one-column matrix) its range histograms (`kind` "ranges":
// .column_ranges_cpp) or its clamped moments ("moments": .column_moments_cpp),
// each with its own settings (seed, noise), in order. With
// settings[[1]]$validate TRUE the values of the first design (x) are
// checked finite, the fit's own check of x (R/checks.R) made here instead of
// in a call of its own: a non-finite value returns list(nonfinite = 1 (NA,
// NaN) or 2 (Inf)) before anything is released. The ranges of a numeric
// matrix check it in their own pass over x (histogram.h's binning, which
// reads every value raw: a separate scan was 14 ms of a 107 ms fit, 4e5 x
// 50); other designs and the moments are checked first, in a scan.
// [[Rcpp::export(.release_columns_cpp)]]
List release_columns_cpp(std::string kind, List designs, List settings) {
  if (designs.size() != settings.size() || (kind != "ranges" && kind != "moments"))
    Rcpp::stop("internal error: one settings list per design, kind ranges or moments");
  bool check_in_pass = false;
  if (designs.size() > 0) {
    const List first = settings[0];
    if (first.containsElementNamed("validate") && as<bool>(first["validate"])) {
      const SEXP x = designs[0];
      check_in_pass = kind == "ranges" && Rf_isMatrix(x) && TYPEOF(x) == REALSXP;
      if (!check_in_pass) {
        const int found = nonfinite_kind(x);
        if (found) return List::create(Named("nonfinite") = found);
      }
    }
  }
  List out(designs.size());
  for (R_xlen_t k = 0; k < designs.size(); ++k) {
    if (kind == "ranges") {
      const List released = column_ranges_checked(designs[k], settings[k], k == 0 && check_in_pass);
      if (released.containsElementNamed("nonfinite"))
        return List::create(Named("nonfinite") = nonfinite_kind(designs[k]));
      out[k] = released;
    } else {
      out[k] = column_moments_cpp(designs[k], settings[k]);
    }
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

// Test hook: each column's clamped sums of standardize.h (sum and sum of
// squares of x_ij clamped to [lower_j, upper_j] less shift_j; a 2 x p
// matrix), x read as stored, with the instruction set `isa` ("baseline",
// "avx2"; refused when the processor lacks it), so the tests can check that
// every variant gives the same numbers.
// [[Rcpp::export(.clamped_sums_cpp)]]
NumericMatrix clamped_sums_cpp(NumericMatrix x, NumericVector lower, NumericVector upper,
                               NumericVector shift, std::string isa) {
  using dpglmnet::kernels::Isa;
  const Isa chosen = isa == "avx2" ? Isa::avx2 : isa == "baseline" ? Isa::baseline
                                                                    : static_cast<Isa>(-1);
  if (chosen != Isa::baseline && chosen != Isa::avx2)
    Rcpp::stop("unknown instruction set");
  if (!dpglmnet::kernels::isa_supported(chosen))
    Rcpp::stop("this processor does not run that instruction set");
  const int p = x.ncol();
  if (lower.size() != p || upper.size() != p || shift.size() != p)
    Rcpp::stop("one lower, upper and shift per column are needed");
  const interface::AvxGuard guard;
  const dpglmnet::DenseDesign design(x.begin(), x.nrow(), p);
  std::vector<double> block(dpglmnet::kColumnBlock);
  NumericMatrix out(2, p);
  for (int j = 0; j < p; ++j) {
    const dpglmnet::ClampedColumnSums s = dpglmnet::clamped_column_sums(
        design, j, lower[j], upper[j], shift[j], block.data(), chosen);
    out(0, j) = s.sum;
    out(1, j) = s.squares;
  }
  return out;
}
