// The entry of the intercept-only solver (R/intercept.R): the released
// mean of the clamped response. Conversion only.
#include <Rcpp.h>

#include <string>

#include "dpglmnet/private_mean.h"
#include "interface_common.h"

using namespace Rcpp;
using namespace interface;

// settings: lower, upper (the public interval y is clamped to), noise
// ("laplace" or "gaussian"), scale (its scale or sd; 0 for none), seed,
// secure.
// [[Rcpp::export(.private_mean_cpp)]]
List private_mean_cpp(NumericVector y, List settings) {
  const AvxGuard guard;
  const std::string noise = as<std::string>(setting(settings, "noise"));
  if (noise != "laplace" && noise != "gaussian") {
    Rcpp::stop("internal error: unknown noise \"%s\"", noise);
  }
  const double scale = number(settings, "scale");
  if (!(scale >= 0.0)) Rcpp::stop("internal error: the noise scale must be >= 0");
  dpglmnet::RandomSource rng = make_random_source(settings);
  const dpglmnet::PrivateMean m = dpglmnet::private_clamped_mean(
      y.begin(), static_cast<std::size_t>(y.size()), number(settings, "lower"),
      number(settings, "upper"),
      noise == "laplace" ? dpglmnet::MeanNoise::laplace : dpglmnet::MeanNoise::gaussian,
      scale, rng);
  return List::create(Named("released") = m.released, Named("noise") = m.noise);
}
