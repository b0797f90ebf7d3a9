// R entry points of the accountants (gdp_accountant.h, rdp_accountant.h,
// accountant.h): conversion only.
#include <Rcpp.h>

#include <string>
#include <vector>

#include "dpglmnet/accountant.h"
#include "dpglmnet/gdp_accountant.h"
#include "dpglmnet/rdp_accountant.h"
#include "interface_common.h"

using namespace Rcpp;
using namespace interface;
namespace accounting = dpglmnet::accounting;

namespace {

accounting::Sampling parse_sampling(const std::string& sampling) {
  if (sampling == "none") return accounting::Sampling::none;
  if (sampling == "poisson") return accounting::Sampling::poisson;
  if (sampling == "without_replacement") return accounting::Sampling::without_replacement;
  if (sampling == "revealed") return accounting::Sampling::revealed;
  Rcpp::stop("internal error: unknown sampling \"" + sampling + "\"");
}

// The neighbouring relation a row's accounting holds under (R's mechanism()).
accounting::Relation parse_relation(const std::string& relation) {
  if (relation == "replace-one") return accounting::Relation::replace_one;
  if (relation == "add/remove-one") return accounting::Relation::add_remove_one;
  Rcpp::stop("internal error: unknown neighbouring relation \"" + relation + "\"");
}

accounting::Kind parse_kind(const std::string& type) {
  if (type == "gaussian") return accounting::Kind::gaussian;
  if (type == "laplace") return accounting::Kind::laplace;
  if (type == "exponential") return accounting::Kind::exponential;
  Rcpp::stop("internal error: unknown mechanism type \"" + type + "\"");
}

// The ledger's mechanism table (R/privacy.R) as the core's rows.
std::vector<accounting::Mechanism> mechanisms_from(const List& table) {
  CharacterVector type = table["type"];
  NumericVector count = table["count"];
  NumericVector noise = table["noise_multiplier"];
  LogicalVector calibrated = table["calibrated"];
  NumericVector factor = table["factor"];
  CharacterVector sampling = table["sampling"];
  NumericVector rate = table["sampling_rate"];
  IntegerVector part = table["part"];
  CharacterVector relation = table["relation"];
  std::vector<accounting::Mechanism> rows(type.size());
  for (R_xlen_t k = 0; k < type.size(); ++k) {
    accounting::Mechanism& m = rows[k];
    m.kind = parse_kind(as<std::string>(type[k]));
    m.count = count[k];
    m.noise_multiplier = noise[k];
    m.calibrated = calibrated[k] == TRUE;
    m.factor = factor[k];
    m.sampling = parse_sampling(as<std::string>(sampling[k]));
    m.sampling_rate = rate[k];
    m.part = part[k];
    m.relation = parse_relation(as<std::string>(relation[k]));
  }
  return rows;
}

std::vector<double> orders_from(NumericVector orders) {
  return std::vector<double>(orders.begin(), orders.end());
}

}  // namespace

// [[Rcpp::export(.gdp_epsilon_cpp)]]
NumericVector gdp_epsilon_cpp(NumericVector mu, double delta) {
  const AvxGuard guard;
  NumericVector out(mu.size());
  for (R_xlen_t k = 0; k < mu.size(); ++k) out[k] = dpglmnet::gdp::epsilon(mu[k], delta);
  return out;
}

// [[Rcpp::export(.gdp_delta_cpp)]]
NumericVector gdp_delta_cpp(NumericVector mu, double epsilon) {
  const AvxGuard guard;
  NumericVector out(mu.size());
  for (R_xlen_t k = 0; k < mu.size(); ++k) out[k] = dpglmnet::gdp::delta(mu[k], epsilon);
  return out;
}

// [[Rcpp::export(.gdp_mu_cpp)]]
NumericVector gdp_mu_cpp(NumericVector epsilon, double delta) {
  const AvxGuard guard;
  NumericVector out(epsilon.size());
  for (R_xlen_t k = 0; k < epsilon.size(); ++k) out[k] = dpglmnet::gdp::mu(epsilon[k], delta);
  return out;
}

// RDP of one step of the subsampled Gaussian at each order.
// [[Rcpp::export(.rdp_subsampled_gaussian_cpp)]]
NumericVector rdp_subsampled_gaussian_cpp(double q, double z, NumericVector orders,
                                          std::string sampling) {
  const AvxGuard guard;
  NumericVector out(orders.size());
  const accounting::Sampling scheme = parse_sampling(sampling);
  if (scheme == accounting::Sampling::without_replacement) {
    dpglmnet::rdp::without_replacement_curve(q, z, orders.begin(),
                                             static_cast<int>(orders.size()), out.begin());
  } else if (scheme == accounting::Sampling::revealed) {
    for (R_xlen_t k = 0; k < orders.size(); ++k)
      out[k] = accounting::detail::revealed_sampled_gaussian_rdp(q, z, orders[k]);
  } else {
    for (R_xlen_t k = 0; k < orders.size(); ++k)
      out[k] = dpglmnet::rdp::poisson_subsampled_gaussian(q, z, orders[k]);
  }
  return out;
}

// [[Rcpp::export(.rdp_epsilon_cpp)]]
List rdp_epsilon_cpp(NumericVector orders, NumericVector rdp, double delta) {
  const AvxGuard guard;
  int best = -1;
  const double eps = dpglmnet::rdp::epsilon_from_rdp(
      orders.begin(), rdp.begin(), static_cast<int>(orders.size()), delta, &best);
  return List::create(Named("epsilon") = eps,
                      Named("order") = best < 0 ? NA_REAL : orders[best]);
}

// [[Rcpp::export(.rdp_delta_cpp)]]
List rdp_delta_cpp(NumericVector orders, NumericVector rdp, double epsilon) {
  const AvxGuard guard;
  int best = -1;
  const double delta = dpglmnet::rdp::delta_from_rdp(
      orders.begin(), rdp.begin(), static_cast<int>(orders.size()), epsilon, &best);
  return List::create(Named("delta") = delta,
                      Named("order") = best < 0 ? NA_REAL : orders[best]);
}

// Epsilon at delta of the ledger's mechanisms, calibrated rows at noise
// level z (accountant.h).
// The account of `rows` at noise level z, with each row's own share (pure
// epsilon, GDP mu), computed here once.
List account_list(const std::vector<accounting::Mechanism>& rows, double z, double delta,
                  const std::vector<double>& orders) {
  const accounting::Account a = accounting::account(rows, z, delta, orders);
  NumericVector row_epsilon(rows.size()), row_mu(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    row_epsilon[k] = accounting::row_pure_epsilon(rows[k], z);
    row_mu[k] = accounting::row_gdp_mu(rows[k], z);
  }
  return List::create(Named("epsilon") = a.epsilon, Named("method") = a.method,
                      Named("mu") = a.mu, Named("rdp_order") = a.rdp_order,
                      Named("epsilon_pure") = a.epsilon_pure, Named("part") = a.part,
                      Named("row_epsilon") = row_epsilon, Named("row_gdp_mu") = row_mu);
}

// [[Rcpp::export(.account_cpp)]]
List account_cpp(List mechanisms, double z, double delta, NumericVector orders) {
  const AvxGuard guard;
  return account_list(mechanisms_from(mechanisms), z, delta, orders_from(orders));
}

// The smallest noise level z whose account is within the target, and that
// account (the ledger's, so a fit needs one call for both): list(z,
// account). z = 0 without calibrated rows or with an infinite target; +Inf
// when no noise level suffices (no account then).
// [[Rcpp::export(.calibrate_cpp)]]
List calibrate_cpp(List mechanisms, double epsilon, double delta, NumericVector orders) {
  const AvxGuard guard;
  const std::vector<accounting::Mechanism> rows = mechanisms_from(mechanisms);
  const std::vector<double> at = orders_from(orders);
  const double z = accounting::calibrate(rows, epsilon, delta, at);
  if (!std::isfinite(z)) return List::create(Named("z") = z, Named("account") = R_NilValue);
  return List::create(Named("z") = z, Named("account") = account_list(rows, z, delta, at));
}
