// R entry points for fits on a database table (R/database.R): conversion
// only. The database computes the exact aggregates (sums of clamped
// per-record terms); the noise is drawn here, from the same generator and in
// the same order as the in-memory entries (interface_fit.cpp), so that at
// the same seed an in-database fit draws the same noise as an in-memory one.
#include <Rcpp.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "dpglmnet/histogram.h"
#include "dpglmnet/random.h"
#include "interface_common.h"

using namespace Rcpp;
using namespace interface;

namespace {

using Stream = Rcpp::XPtr<dpglmnet::RandomSource>;

Stream checked_stream(SEXP stream) {
  if (TYPEOF(stream) != EXTPTRSXP || R_ExternalPtrAddr(stream) == nullptr)
    Rcpp::stop("internal error: not a live noise stream");
  return Stream(stream);
}

}  // namespace

// A noise stream: the generator of one in-memory entry (make_random_source:
// seeded from two numbers R drew, or the secure source), kept between calls.
// [[Rcpp::export(.noise_stream_cpp)]]
SEXP noise_stream_cpp(List settings) {
  const AvxGuard guard;
  return Stream(new dpglmnet::RandomSource(make_random_source(settings)), true);
}

// `count` standard normals, in the order RandomSource::gaussian() draws them.
// [[Rcpp::export(.noise_gaussian_cpp)]]
NumericVector noise_gaussian_cpp(SEXP stream, int count) {
  const AvxGuard guard;
  Stream s = checked_stream(stream);
  if (count < 0) Rcpp::stop("internal error: a negative count of draws");
  NumericVector out(count);
  for (int k = 0; k < count; ++k) out[k] = s->gaussian();
  return out;
}

// RandomSource::shuffle() of a copy of `order` (DP-CD's permutation of the
// coordinates: it shuffles the previous pass's order in place).
// [[Rcpp::export(.noise_shuffle_cpp)]]
IntegerVector noise_shuffle_cpp(SEXP stream, IntegerVector order) {
  Stream s = checked_stream(stream);
  std::vector<int> values(order.begin(), order.end());
  s->shuffle(values);
  return IntegerVector(values.begin(), values.end());
}

// RandomSource::index(bound): uniform in [0, bound).
// [[Rcpp::export(.noise_index_cpp)]]
int noise_index_cpp(SEXP stream, int bound) {
  Stream s = checked_stream(stream);
  if (bound < 1) Rcpp::stop("internal error: index bound must be >= 1");
  return static_cast<int>(s->index(static_cast<std::uint32_t>(bound)));
}

// The private column ranges of .column_ranges_cpp from exact counts computed
// by the database (`counts`: size x p, coarse bins then fine bins, the bins
// of histogram.h): the same noise, drawn in the same order (column by
// column, count by count), then the same clamp choice (post-processing).
// [[Rcpp::export(.column_ranges_from_counts_cpp)]]
List column_ranges_from_counts_cpp(NumericMatrix counts, List settings) {
  const AvxGuard guard;
  dpglmnet::RandomSource rng = make_random_source(settings);
  const int p = counts.ncol();
  check_histogram_intervals(settings, p);
  return release_ranges_list(std::vector<double>(counts.begin(), counts.end()), settings, p,
                             rng);
}

// The coarse-bin edges of histogram.h for one public interval (the SQL of
// R/database-sql.R bins values with the same constants).
// [[Rcpp::export(.histogram_frame_cpp)]]
NumericVector histogram_frame_cpp(double lower, double upper) {
  const dpglmnet::HistogramFrame f = dpglmnet::histogram_frame(lower, upper);
  return NumericVector::create(f.anchor, f.width);
}
