// The accountant of a fit: mechanisms in; epsilon at delta, and the
// calibration of the shared noise level, out. Every solver describes its
// releases as a list of Mechanism rows, and this file alone decides how they
// compose, so a new solver or mechanism needs no accounting code of its own.
//
// Every mechanism is parametrised by its noise multiplier: its noise scale
// divided by its sensitivity under replace-one (one record replaced; ?dpglmnet):
//  * gaussian: sd / L2 sensitivity z; one run is exactly (1/z)-GDP (Dong,
//    Roth & Su 2022) and (alpha / 2z^2)-RDP; subsampled runs (Poisson, or
//    fixed size without replacement) use the RDP bounds of rdp_accountant.h;
//  * laplace: scale / L1 sensitivity b; one run is (1/b)-DP;
//  * exponential: report-noisy-max with Gumbel noise of scale beta on scores
//    of sensitivity Delta, b = beta / Delta: the exponential mechanism, so
//    (2/b)-DP, and with bounded range eps0 = 2/b it is (eps0^2 / 8)-zCDP
//    (Cesar & Rogers 2021, Lemma 3.2), i.e. RDP alpha eps0^2 / 8.
// Rows marked `calibrated` use noise multiplier factor * z for the fit's one
// calibrated noise level z; the others have a fixed noise multiplier.
//
// Composition inside a group of records (all of them, or one part of a
// data-independent split): every valid bound below is computed and the
// smallest epsilon is reported, with its method:
//  * "gdp": Laplace and exponential runs by basic composition, Gaussian runs
//    exactly in GDP (only when none is subsampled);
//  * "rdp": Laplace runs by basic composition, Gaussian and exponential runs
//    in RDP (Mironov 2017, Prop. 1), converted as Balle et al. (2020);
//  * "basic": Laplace and exponential by basic composition, Gaussian in RDP.
// Pure parts add to the Gaussian part by basic composition, which holds for
// any two mechanisms (Dwork & Roth 2014, Theorem 3.16).
//
// Neighbouring relation: every row states the relation its accounting holds
// under. The package's relation is replace-one (n public); the RDP bound of
// a Poisson-subsampled Gaussian (rdp_accountant.h) holds under add/remove-one
// only, so such a row must say so, and rows under different relations are
// never composed: account() and calibrate() refuse them (as Google's
// dp_accounting refuses mixed neighbouring relations), instead of reporting
// a total that holds under neither.
//
// Parallel composition: a row with part k > 0 reads only the records of part
// k of a split drawn independently of the data. Replacing one record changes
// the input of the rows of part 0 (every record) and of the one part holding
// that record, so the fit is max_k epsilon(part 0 + part k) at delta: the
// privacy profile of the fit is the pointwise maximum of the parts' profiles.
#ifndef DPGLMNET_ACCOUNTANT_H
#define DPGLMNET_ACCOUNTANT_H

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bisection.h"
#include "gdp_accountant.h"
#include "rdp_accountant.h"

namespace dpglmnet {
namespace accounting {

enum class Kind { gaussian, laplace, exponential };
// revealed: a fixed-size minibatch drawn without replacement whose
// membership the output itself discloses (DP-SCD releases the updated dual
// coordinates of the batch, so which records were used is public). There is
// then no amplification by subsampling beyond the chance q that a record is
// used at all: see revealed_sampled_gaussian_rdp().
enum class Sampling { none, poisson, without_replacement, revealed };
enum class Relation { replace_one, add_remove_one };

struct Mechanism {
  Kind kind = Kind::gaussian;
  double count = 1.0;             // runs, composed adaptively
  double noise_multiplier = 0.0;  // fixed rows: scale / sensitivity
  bool calibrated = false;        // true: noise multiplier factor * z
  double factor = 1.0;
  Sampling sampling = Sampling::none;
  double sampling_rate = 1.0;
  int part = 0;  // 0: every record; k > 0: the records of part k only
  Relation relation = Relation::replace_one;

  double multiplier(double z) const { return calibrated ? factor * z : noise_multiplier; }
};

// The orders at which RDP is evaluated (as R's default_orders()).
inline const std::vector<double>& default_orders() {
  static const std::vector<double> orders = [] {
    std::vector<double> a;
    for (int k = 1; k <= 99; ++k) a.push_back(1.0 + k / 10.0);
    for (int k = 11; k <= 63; ++k) a.push_back(k);
    for (double k : {128.0, 256.0, 512.0, 1024.0}) a.push_back(k);
    return a;
  }();
  return orders;
}

struct Account {
  double epsilon = 0.0;            // spent at delta
  std::string method = "none";     // "gdp", "rdp", "basic" or "none"
  double mu = std::numeric_limits<double>::quiet_NaN();  // GDP of the Gaussian runs
  double rdp_order = std::numeric_limits<double>::quiet_NaN();
  double epsilon_pure = 0.0;       // basic-composition share (Laplace, + exponential unless in RDP)
  int part = 0;                    // the part whose group attains the maximum
};

namespace detail {

inline double pure_epsilon(const Mechanism& m, double z) {
  const double b = m.multiplier(z);
  if (m.count <= 0.0) return 0.0;
  if (!(b > 0.0)) return std::numeric_limits<double>::infinity();
  return m.count * (m.kind == Kind::exponential ? 2.0 / b : 1.0 / b);
}

// RDP at order a of one step of a Gaussian mechanism (noise multiplier z)
// run on a batch whose membership is part of the output, each record in the
// batch with probability q, independently of the data. For neighbours that
// differ in record k the output pair is P = (1 - q) R + q N(m, s^2) and
// Q = (1 - q) R + q N(m', s^2) on the same public batch, with R the common
// law when k is not in the batch; so (exactly, not a bound)
//   D_a(P || Q) <= log(1 - q + q exp((a - 1) a / (2 z^2))) / (a - 1),
// with equality at |m - m'| = sensitivity. Evaluated without overflow.
inline double revealed_sampled_gaussian_rdp(double q, double z, double a) {
  if (!(a > 1.0)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(a)) return std::numeric_limits<double>::infinity();
  const double x = (a - 1.0) * a / (2.0 * z * z);
  if (q >= 1.0) return x / (a - 1.0);
  if (q <= 0.0) return 0.0;
  const double log_mix = x > 30.0 ? std::log(q) + x + std::log1p((1.0 - q) / q * std::exp(-x))
                                  : std::log1p(q * std::expm1(x));
  return log_mix / (a - 1.0);
}

// RDP of all runs of one row at every order, added into rdp.
inline void add_rdp(const Mechanism& m, double z, const std::vector<double>& orders,
                    std::vector<double>& rdp, std::vector<double>& scratch) {
  const double b = m.multiplier(z);
  const int k = static_cast<int>(orders.size());
  if (m.count <= 0.0) return;
  if (!(b > 0.0)) {
    std::fill(rdp.begin(), rdp.end(), std::numeric_limits<double>::infinity());
    return;
  }
  if (m.kind == Kind::exponential) {
    const double eps0 = 2.0 / b;
    for (int i = 0; i < k; ++i)
      rdp[i] += m.count * std::min(eps0, orders[i] * eps0 * eps0 / 8.0);
    return;
  }
  // Gaussian.
  const bool subsampled = m.sampling != Sampling::none && m.sampling_rate < 1.0;
  if (subsampled && m.sampling == Sampling::without_replacement) {
    rdp::without_replacement_curve(m.sampling_rate, b, orders.data(), k, scratch.data());
  } else if (subsampled && m.sampling == Sampling::revealed) {
    for (int i = 0; i < k; ++i)
      scratch[i] = revealed_sampled_gaussian_rdp(m.sampling_rate, b, orders[i]);
  } else {
    for (int i = 0; i < k; ++i)
      scratch[i] = subsampled ? rdp::poisson_subsampled_gaussian(m.sampling_rate, b, orders[i])
                              : orders[i] / (2.0 * b * b);
  }
  for (int i = 0; i < k; ++i) rdp[i] += rdp::compose(scratch[i], m.count);
}

// The tightest valid bound for one group of rows.
inline Account account_group(const std::vector<const Mechanism*>& rows, double z,
                             double delta, const std::vector<double>& orders) {
  const double inf = std::numeric_limits<double>::infinity();
  double laplace = 0.0, exponential = 0.0, mu_squared = 0.0;
  bool any_gaussian = false, any_exponential = false, any_subsampled = false;
  for (const Mechanism* m : rows) {
    if (m->count <= 0.0) continue;
    switch (m->kind) {
      case Kind::laplace: laplace += pure_epsilon(*m, z); break;
      case Kind::exponential:
        exponential += pure_epsilon(*m, z);
        any_exponential = true;
        break;
      case Kind::gaussian: {
        any_gaussian = true;
        const double b = m->multiplier(z);
        if (m->sampling != Sampling::none && m->sampling_rate < 1.0) any_subsampled = true;
        mu_squared += b > 0.0 ? m->count / (b * b) : inf;
      }
    }
  }
  Account best;
  best.epsilon_pure = laplace + exponential;
  if (!any_gaussian && !any_exponential) {
    best.epsilon = laplace;
    best.method = laplace > 0.0 ? "basic" : "none";
    return best;
  }
  best.epsilon = inf;
  // RDP of the Gaussian rows alone, and of Gaussian plus exponential rows.
  const int k = static_cast<int>(orders.size());
  std::vector<double> gaussian_rdp(k, 0.0), all_rdp(k, 0.0), scratch(k, 0.0);
  for (const Mechanism* m : rows) {
    if (m->kind == Kind::gaussian) add_rdp(*m, z, orders, gaussian_rdp, scratch);
    if (m->kind != Kind::laplace) add_rdp(*m, z, orders, all_rdp, scratch);
  }
  auto consider = [&](double eps, const char* method, double pure, double order) {
    if (eps < best.epsilon) {
      best.epsilon = eps;
      best.method = method;
      best.epsilon_pure = pure;
      best.rdp_order = order;
    }
  };
  if (any_gaussian && !any_subsampled) {
    const double mu = std::sqrt(mu_squared);
    best.mu = mu;
    consider(laplace + exponential + gdp::epsilon(mu, delta), "gdp",
             laplace + exponential, std::numeric_limits<double>::quiet_NaN());
  }
  int order_index = -1;
  const double eps_all = rdp::epsilon_from_rdp(orders.data(), all_rdp.data(), k, delta,
                                               &order_index);
  consider(laplace + eps_all, "rdp", laplace,
           order_index >= 0 ? orders[order_index] : std::numeric_limits<double>::quiet_NaN());
  if (any_exponential && any_gaussian) {
    const double eps_gaussian = rdp::epsilon_from_rdp(orders.data(), gaussian_rdp.data(), k,
                                                      delta, &order_index);
    consider(laplace + exponential + eps_gaussian, "basic", laplace + exponential,
             order_index >= 0 ? orders[order_index] : std::numeric_limits<double>::quiet_NaN());
  } else if (any_exponential) {
    consider(laplace + exponential, "basic", laplace + exponential,
             std::numeric_limits<double>::quiet_NaN());
  }
  if (best.method == "none") best.method = "rdp";  // every bound infinite
  return best;
}

}  // namespace detail

// Throws unless every row states one neighbouring relation, and a
// Poisson-subsampled row (whose RDP bound is add/remove-one's) states
// add/remove-one (see the file comment).
inline void check_relations(const std::vector<Mechanism>& rows) {
  for (const Mechanism& m : rows) {
    if (m.sampling == Sampling::poisson && m.relation != Relation::add_remove_one) {
      throw std::invalid_argument(
          "a Poisson-subsampled row is accounted under add/remove-one neighbours, "
          "but states replace-one");
    }
    if (m.relation != rows.front().relation) {
      throw std::invalid_argument(
          "the rows state different neighbouring relations (replace-one and "
          "add/remove-one): their privacy losses do not compose");
    }
  }
}

// One row's own share, as the ledger prints it: the pure epsilon of a
// Laplace or exponential row (basic composition of its runs, count * c / b
// with c = 1 or 2), the GDP mu of a full-batch Gaussian row (sqrt(count) /
// b); NaN where the row has none.
inline double row_pure_epsilon(const Mechanism& m, double z) {
  if (m.kind == Kind::gaussian) return std::numeric_limits<double>::quiet_NaN();
  return m.count * (m.kind == Kind::exponential ? 2.0 : 1.0) / m.multiplier(z);
}
inline double row_gdp_mu(const Mechanism& m, double z) {
  if (m.kind != Kind::gaussian || m.sampling != Sampling::none)
    return std::numeric_limits<double>::quiet_NaN();
  return std::sqrt(m.count) / m.multiplier(z);
}

// Epsilon spent at delta by all the rows, with calibrated rows at noise
// level z: the maximum over the parts of a split (see the file comment).
inline Account account(const std::vector<Mechanism>& rows, double z, double delta,
                       const std::vector<double>& orders = default_orders()) {
  check_relations(rows);
  std::set<int> parts;
  for (const Mechanism& m : rows)
    if (m.part > 0) parts.insert(m.part);
  if (parts.empty()) parts.insert(0);
  Account worst;
  worst.epsilon = -1.0;
  for (int part : parts) {
    std::vector<const Mechanism*> group;
    for (const Mechanism& m : rows)
      if (m.part == 0 || m.part == part) group.push_back(&m);
    Account a = detail::account_group(group, z, delta, orders);
    a.part = part;
    if (a.epsilon > worst.epsilon) worst = a;
  }
  return worst;
}

// The smallest noise level z with account(rows, z).epsilon <= target, found
// by the package's one bisection and checked by the same function the ledger
// uses, so the ledger never reports more than the target. 0 when no row is
// calibrated or the target is infinite; +Inf when no noise level suffices
// (the fixed rows alone spend the budget).
inline double calibrate(const std::vector<Mechanism>& rows, double target_epsilon,
                        double delta, const std::vector<double>& orders = default_orders()) {
  const double inf = std::numeric_limits<double>::infinity();
  check_relations(rows);
  bool any_calibrated = false;
  for (const Mechanism& m : rows)
    if (m.calibrated && m.count > 0.0) any_calibrated = true;
  if (!any_calibrated || target_epsilon == inf) return 0.0;
  auto admissible = [&](double z) {
    return account(rows, z, delta, orders).epsilon <= target_epsilon;
  };
  // Start near the answer when every calibrated row is a full-batch Gaussian
  // (exact GDP): z = sqrt(sum count / factor^2) / mu(target - fixed part).
  double guess = 1.0;
  double count = 0.0, fixed = 0.0;
  for (const Mechanism& m : rows) {
    if (!m.calibrated && m.kind != Kind::gaussian) fixed += detail::pure_epsilon(m, 0.0);
    if (m.calibrated && m.kind == Kind::gaussian) count += m.count / (m.factor * m.factor);
  }
  if (count > 0.0 && fixed < target_epsilon) {
    const double mu = gdp::mu(target_epsilon - fixed, delta);
    if (mu > 0.0 && std::isfinite(mu)) guess = std::sqrt(count) / mu;
  }
  return smallest_admissible(admissible, guess, 1e-10, 1e-8, 1e12);
}

}  // namespace accounting
}  // namespace dpglmnet

#endif  // DPGLMNET_ACCOUNTANT_H
