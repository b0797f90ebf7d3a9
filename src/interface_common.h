// Conversions shared by the interface files (interface_*.cpp), the only
// code that knows R. Each converts R objects to the types of the header-only
// core in dpglmnet/ and back; every argument has been checked in R
// (R/checks.R) before it gets here. Settings arrive as named lists, read by
// name with setting().
#ifndef DPGLMNET_INTERFACE_COMMON_H
#define DPGLMNET_INTERFACE_COMMON_H

#include <Rcpp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dpglmnet/capabilities.h"
#include "dpglmnet/design.h"
#include "dpglmnet/histogram.h"
#include "dpglmnet/losses/registry.h"
#include "dpglmnet/path.h"
#include "dpglmnet/penalties/registry.h"
#include "dpglmnet/random.h"

namespace interface {

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

// The element `name` of a settings list; an error naming it if absent (a
// bug in the R caller, never a user error).
inline SEXP setting(const Rcpp::List& settings, const char* name) {
  if (!settings.containsElementNamed(name))
    Rcpp::stop(std::string("internal error: setting '") + name + "' is missing");
  return settings[name];
}
inline double number(const Rcpp::List& s, const char* name) {
  return Rcpp::as<double>(setting(s, name));
}
inline int integer(const Rcpp::List& s, const char* name) {
  return Rcpp::as<int>(setting(s, name));
}
inline bool flag(const Rcpp::List& s, const char* name) {
  return Rcpp::as<bool>(setting(s, name));
}
inline std::string text(const Rcpp::List& s, const char* name) {
  return Rcpp::as<std::string>(setting(s, name));
}
inline std::vector<double> numbers(const Rcpp::List& s, const char* name) {
  return Rcpp::as<std::vector<double>>(setting(s, name));
}

// A per-column vector of a transform: null pointer when NULL in R.
inline const double* optional_column(SEXP v, int p) {
  if (Rf_isNull(v)) return nullptr;
  if (!Rf_isReal(v) || Rf_xlength(v) != p)
    Rcpp::stop("internal error: a column transform must be a double vector of length p");
  return REAL(v);
}

// The standardized response of a private standardization (R/standardize.R):
// with settings$response_transform = list(lower, upper, mean, sd), y clamped
// to [lower, upper] (-Inf / Inf: no clamp), centred and scaled, in one pass,
// R's (pmin(pmax(y, lower), upper) - mean) / sd in the same order (R's pmax
// and pmin keep y when it ties the bound), so the same numbers; y itself
// without one. Every entry that reads y reads it through this, so a fit
// standardizes y where the solver reads it, in the same call.
inline Rcpp::NumericVector standardize_response(const Rcpp::NumericVector& y, double lower,
                                                double upper, double mean, double sd) {
  if (!(lower <= upper) || std::isnan(mean) || std::isnan(sd))
    Rcpp::stop("internal error: a clamp lower <= upper and a mean and sd are needed");
  const R_xlen_t n = y.size();
  Rcpp::NumericVector out(n);
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

inline Rcpp::NumericVector read_response(const Rcpp::NumericVector& y,
                                         const Rcpp::List& settings) {
  if (!settings.containsElementNamed("response_transform")) return y;
  SEXP t = setting(settings, "response_transform");
  if (Rf_isNull(t)) return y;
  const Rcpp::List transform(t);
  return standardize_response(y, Rcpp::as<double>(transform["lower"]),
                              Rcpp::as<double>(transform["upper"]),
                              Rcpp::as<double>(transform["mean"]),
                              Rcpp::as<double>(transform["sd"]));
}

// An optional per-record vector of a settings list (weights, offset): null
// pointer when absent or NULL; otherwise a double vector of n finite values
// (checked in R, R/weights.R; the length and type again here).
inline const double* optional_records(const Rcpp::List& s, const char* name, int n) {
  if (!s.containsElementNamed(name)) return nullptr;
  SEXP v = s[name];
  if (Rf_isNull(v)) return nullptr;
  if (!Rf_isReal(v) || Rf_xlength(v) != n)
    Rcpp::stop(std::string("internal error: '") + name + "' must be a double vector of length n");
  return REAL(v);
}

// x as R passes it to the core: a double matrix, a dgCMatrix, or a row
// subset of either (R/rows.R: list(x = <the matrix>, rows = <0-based rows,
// increasing>) of class "dpglmnet_rows", which cv.dpglmnet() passes instead
// of a copy x[rows, ]).
// 0 when the n values are all finite, else 1 at the first NA or NaN, 2 at
// the first Inf or -Inf. Scanned in blocks, each a vectorized sum of v * 0
// (0 for finite values, NaN otherwise), and only a block that fails is
// looked at value by value: 9.6 ms against 11.9 ms value by value for 2e7
// values (4e5 x 50), about the time of reading them.
inline int first_nonfinite_kind(const double* v, R_xlen_t n) {
  constexpr R_xlen_t block = 4096;
  for (R_xlen_t start = 0; start < n; start += block) {
    const R_xlen_t end = std::min(n, start + block);
    double check = 0.0;
#ifdef _OPENMP
#pragma omp simd reduction(+ : check)
#endif
    for (R_xlen_t i = start; i < end; ++i) check += v[i] * 0.0;
    if (check == 0.0) continue;
    for (R_xlen_t i = start; i < end; ++i)
      if (!std::isfinite(v[i])) return std::isnan(v[i]) ? 1 : 2;
  }
  return 0;
}

inline bool is_row_subset(SEXP x) { return Rf_inherits(x, "dpglmnet_rows"); }

// The stored matrix of x (of a row subset: the full matrix).
inline SEXP stored_matrix(SEXP x) {
  if (!is_row_subset(x)) return x;
  Rcpp::List subset(x);
  if (!subset.containsElementNamed("x"))
    Rcpp::stop("internal error: a row subset needs its matrix `x`");
  return subset["x"];
}

// The checked 0-based rows of a row subset of an n-row matrix: an integer
// vector, increasing (so unique), in [0, n). Checked in R before (R/rows.R);
// again here, in one pass over the rows, so that no index reaches the core
// unchecked.
inline Rcpp::IntegerVector subset_rows(SEXP x, int n) {
  Rcpp::List subset(x);
  if (!subset.containsElementNamed("rows"))
    Rcpp::stop("internal error: a row subset needs its `rows`");
  SEXP rows = subset["rows"];
  if (TYPEOF(rows) != INTSXP || Rf_xlength(rows) > n)
    Rcpp::stop("internal error: the rows of a subset must be an integer vector of length <= n");
  const int* r = INTEGER(rows);
  const R_xlen_t m = Rf_xlength(rows);
  for (R_xlen_t k = 0; k < m; ++k)
    if (r[k] < 0 || r[k] >= n || (k > 0 && r[k] <= r[k - 1]))
      Rcpp::stop("internal error: the rows of a subset must be increasing and in [0, n)");
  return Rcpp::IntegerVector(rows);
}

// Calls f(design) with a dense or sparse (dgCMatrix) view of x, no copy,
// read through `transform` (and restricted to a row subset when x is one:
// design.h, RowSubset).
template <class F>
SEXP with_transformed_design(SEXP x, dpglmnet::ColumnTransform transform, F&& f) {
  const SEXP stored = stored_matrix(x);
  dpglmnet::RowSubset subset;
  Rcpp::IntegerVector rows;
  if (Rf_isMatrix(stored)) {
    Rcpp::NumericMatrix m(stored);
    if (is_row_subset(x)) {
      rows = subset_rows(x, m.nrow());
      subset.rows = rows.begin();
      subset.count = static_cast<int>(rows.size());
    }
    dpglmnet::DenseDesign design(m.begin(), m.nrow(), m.ncol(), transform, subset);
    return f(design);
  }
  Rcpp::S4 sparse(stored);
  Rcpp::IntegerVector dim = sparse.slot("Dim");
  Rcpp::IntegerVector row_index = sparse.slot("i");
  Rcpp::IntegerVector column_start = sparse.slot("p");
  Rcpp::NumericVector values = sparse.slot("x");
  if (transform.center != nullptr) Rcpp::stop("internal error: sparse x cannot be centred");
  // With a subset, the position of each row of x in it (-1: not in it).
  std::vector<int> position;
  if (is_row_subset(x)) {
    rows = subset_rows(x, dim[0]);
    position.assign(dim[0], -1);
    for (R_xlen_t k = 0; k < rows.size(); ++k) position[rows[k]] = static_cast<int>(k);
    subset.rows = rows.begin();
    subset.count = static_cast<int>(rows.size());
    subset.position = position.data();
  }
  dpglmnet::SparseDesign design(row_index.begin(), column_start.begin(), values.begin(),
                                dim[0], dim[1], transform, subset);
  return f(design);
}

// The same with the per-column transform list(lower, upper, center, scale)
// (each NULL or length p) that the core applies as it reads x.
template <class F>
SEXP with_design(SEXP x, const Rcpp::List& transform, F&& f) {
  const SEXP stored = stored_matrix(x);
  const int p = Rf_isMatrix(stored) ? Rf_ncols(stored)
                                    : Rcpp::IntegerVector(Rcpp::S4(stored).slot("Dim"))[1];
  dpglmnet::ColumnTransform t;
  t.lower = optional_column(setting(transform, "lower"), p);
  t.upper = optional_column(setting(transform, "upper"), p);
  if ((t.lower == nullptr) != (t.upper == nullptr))
    Rcpp::stop("internal error: a clamp needs both ends");
  t.center = optional_column(setting(transform, "center"), p);
  t.scale = optional_column(setting(transform, "scale"), p);
  return with_transformed_design(x, t, std::forward<F>(f));
}

// The family of a settings list: settings$family and its optional numeric
// parameter settings$family_parameter (absent or NULL: none; e.g. Huber's
// delta), checked by the loss itself (losses/registry.h).
inline dpglmnet::LossSpec loss_spec(const Rcpp::List& s) {
  dpglmnet::LossSpec spec;
  spec.family = text(s, "family");
  if (s.containsElementNamed("family_parameter")) {
    SEXP v = s["family_parameter"];
    if (!Rf_isNull(v)) {
      if (!Rf_isReal(v) || Rf_xlength(v) != 1)
        Rcpp::stop("internal error: family_parameter must be one double or NULL");
      spec.has_parameter = true;
      spec.parameter = REAL(v)[0];
    }
  }
  return spec;
}

// The penalty of a settings list (penalties/protocol.h): settings$penalty
// ("elastic_net" when absent), alpha, penalty_factor, lower_limits and
// upper_limits (each of length p).
inline dpglmnet::PenaltySpec penalty_spec(const Rcpp::List& s, int p) {
  dpglmnet::PenaltySpec spec;
  if (s.containsElementNamed("penalty")) spec.name = text(s, "penalty");
  spec.p = p;
  spec.alpha = number(s, "alpha");
  auto column = [&](const char* name) {
    SEXP v = setting(s, name);
    if (!Rf_isReal(v) || Rf_xlength(v) != p)
      Rcpp::stop(std::string("internal error: '") + name + "' must be a double vector of length p");
    return static_cast<const double*>(REAL(v));
  };
  spec.penalty_factor = column("penalty_factor");
  spec.lower = column("lower_limits");
  spec.upper = column("upper_limits");
  return spec;
}

// Calls f(design, loss): every solver entry is one template instance per
// storage of x and per registered loss. An unknown family, or a parameter
// the loss rejects, is an R error before x is read.
template <class F>
SEXP with_design_and_loss(SEXP x, const Rcpp::List& transform, const dpglmnet::LossSpec& spec,
                          F&& f) {
  // (the loss is built once, first, so that its errors come before any work)
  return dpglmnet::with_loss(spec, [&](auto loss) -> SEXP {
    return with_design(x, transform, [&](const auto& design) -> SEXP { return f(design, loss); });
  });
}

// The generator of a fit: seeded from two numbers R drew (so set.seed()
// reproduces a fit), or the secure source.
inline dpglmnet::RandomSource make_random_source(const Rcpp::List& s) {
  Rcpp::NumericVector seed = setting(s, "seed");
  if (seed.size() != 2) Rcpp::stop("internal error: the seed must be two numbers");
  const std::uint64_t hi = static_cast<std::uint64_t>(seed[0]);
  const std::uint64_t lo = static_cast<std::uint64_t>(seed[1]);
  return dpglmnet::RandomSource((hi << 32) ^ lo, flag(s, "secure"));
}

// Clears the AVX upper state for the scope of an entry point: when it
// starts (R or its BLAS may have left it dirty) and when it returns to R.
// Every entry point that computes declares one first (or goes through one
// of the entries below).
class AvxGuard {
 public:
  AvxGuard() { clear_avx_upper_state(); }
  ~AvxGuard() { clear_avx_upper_state(); }
  AvxGuard(const AvxGuard&) = delete;
  AvxGuard& operator=(const AvxGuard&) = delete;
};

// The body the entry points that draw noise from x share: under an
// AvxGuard, the generator of `settings` (seed, secure) and x read through
// settings$transform; returns f(design, rng).
template <class F>
SEXP random_design_entry(SEXP x, const Rcpp::List& settings, F&& f) {
  const AvxGuard guard;
  dpglmnet::RandomSource rng = make_random_source(settings);
  return with_design(x, setting(settings, "transform"),
                     [&](const auto& design) -> SEXP { return f(design, rng); });
}

// The same with the loss of settings$family: returns f(design, loss, rng),
// one template instance per storage of x and per family.
template <class F>
SEXP random_fit_entry(SEXP x, const Rcpp::List& settings, F&& f) {
  const AvxGuard guard;
  dpglmnet::RandomSource rng = make_random_source(settings);
  return with_design_and_loss(
      x, setting(settings, "transform"), loss_spec(settings),
      [&](const auto& design, auto loss) -> SEXP { return f(design, loss, rng); });
}

// The same for the entry of the solver `Tag`: an R error naming the solver
// and the family when the solver does not declare the loss
// (capabilities.h), before any computation; f is then not instantiated for
// that loss at all.
template <class Tag, class F>
SEXP random_solver_entry(SEXP x, const Rcpp::List& settings, F&& f) {
  return random_fit_entry(
      x, settings, [&](const auto& design, auto loss, dpglmnet::RandomSource& rng) -> SEXP {
        using Loss = decltype(loss);
        if constexpr (!dpglmnet::supports_loss<Tag, Loss>) {
          dpglmnet::unsupported_loss<Tag, Loss>();
        } else {
          return f(design, loss, rng);
        }
      });
}

// A path as R sees it: list(beta = p x points, a0, last_pass_change).
// The release of range histograms (histogram.h) from exact counts, for
// .column_ranges_cpp (counts from x) and .column_ranges_from_counts_cpp
// (counts from a database): settings checked, the same noise in the same
// order, the same clamp choice; list(counts, lower, upper, constant).
// The histogram settings, checked: the shape and the counts' noise sd.
inline dpglmnet::HistogramShape histogram_settings(const Rcpp::List& settings, int p,
                                                   double* count_sd) {
  Rcpp::NumericVector lower = setting(settings, "lower"), upper = setting(settings, "upper");
  const dpglmnet::HistogramShape shape{integer(settings, "levels"),
                                       integer(settings, "fine_bins")};
  *count_sd = number(settings, "count_sd");
  if (lower.size() != p || upper.size() != p || shape.levels < 1 || shape.levels > 60 ||
      shape.fine_bins < 1 || shape.fine_bins > 4096 || !(*count_sd >= 0.0))
    Rcpp::stop("internal error: invalid histogram settings");
  return shape;
}

inline Rcpp::List released_ranges_list(const dpglmnet::ReleasedRanges& r,
                                       const Rcpp::List& settings, int p);

inline Rcpp::List release_ranges_list(std::vector<double> counts, const Rcpp::List& settings,
                                      int p, dpglmnet::RandomSource& rng) {
  Rcpp::NumericVector lower = setting(settings, "lower"), upper = setting(settings, "upper");
  double count_sd = 0.0;
  const dpglmnet::HistogramShape shape = histogram_settings(settings, p, &count_sd);
  if (counts.size() != static_cast<std::size_t>(p) * shape.size())
    Rcpp::stop("internal error: invalid histogram settings");
  const dpglmnet::ReleasedRanges r = dpglmnet::release_column_ranges(
      std::move(counts), lower.begin(), upper.begin(), p, shape, count_sd,
      flag(settings, "keep_zero"), rng);
  return released_ranges_list(r, settings, p);
}

// The released ranges as R reads them: list(counts, lower, upper,
// constant, anchor, half).
inline Rcpp::List released_ranges_list(const dpglmnet::ReleasedRanges& r,
                                       const Rcpp::List& settings, int p) {
  Rcpp::NumericVector lower = setting(settings, "lower"), upper = setting(settings, "upper");
  const int size = static_cast<int>(r.counts.size() / std::max(p, 1));
  Rcpp::NumericMatrix released(size, p);
  std::copy(r.counts.begin(), r.counts.end(), released.begin());
  Rcpp::NumericVector clamp_lower(p), clamp_upper(p), anchor(p), half(p);
  Rcpp::LogicalVector constant(p);
  for (int j = 0; j < p; ++j) {
    clamp_lower[j] = r.clamps[j].lower;
    clamp_upper[j] = r.clamps[j].upper;
    constant[j] = r.clamps[j].constant;
    // the coarse frame the counts were binned in (public: from the bounds),
    // for R's reading of the counts (R/intercept.R)
    const dpglmnet::HistogramFrame frame = dpglmnet::histogram_frame(lower[j], upper[j]);
    anchor[j] = frame.anchor;
    half[j] = frame.width;
  }
  return Rcpp::List::create(Rcpp::Named("counts") = released, Rcpp::Named("lower") = clamp_lower,
                            Rcpp::Named("upper") = clamp_upper,
                            Rcpp::Named("constant") = constant, Rcpp::Named("anchor") = anchor,
                            Rcpp::Named("half") = half);
}

// The public intervals of range histograms: finite and lower < upper.
inline void check_histogram_intervals(const Rcpp::List& settings, int p) {
  Rcpp::NumericVector lower = setting(settings, "lower"), upper = setting(settings, "upper");
  if (lower.size() != p || upper.size() != p)
    Rcpp::stop("internal error: invalid histogram settings");
  for (int j = 0; j < p; ++j)
    if (!(lower[j] < upper[j]) || !std::isfinite(lower[j]) || !std::isfinite(upper[j]))
      Rcpp::stop("internal error: a histogram needs a finite interval per column");
}

inline Rcpp::List path_to_list(const dpglmnet::PathResult& path, int p) {
  Rcpp::NumericMatrix beta(p, static_cast<int>(path.intercept.size()));
  std::copy(path.beta.begin(), path.beta.end(), beta.begin());
  return Rcpp::List::create(Rcpp::Named("beta") = beta, Rcpp::Named("a0") = path.intercept,
                            Rcpp::Named("last_pass_change") = path.last_pass_change);
}

// Progress and interrupts after each lambda of a path.
inline std::function<void(int)> progress(int trace, std::size_t nlambda) {
  return [trace, nlambda](int l) {
    if (trace > 0) Rcpp::Rcout << "lambda " << (l + 1) << "/" << nlambda << " done\n";
    Rcpp::checkUserInterrupt();  // throws a C++ exception: unwinds cleanly
  };
}

}  // namespace interface

#endif  // DPGLMNET_INTERFACE_COMMON_H
