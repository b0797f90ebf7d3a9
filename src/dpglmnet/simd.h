// Portable SIMD for the dense hot loops, written with the GCC/Clang vector
// extensions: Pack<2> is one SSE2 register, Pack<4> one AVX register, Pack<8>
// one AVX-512 register. kernels.h compiles its loops once per instruction set
// with the matching width (flattening these helpers into them) and picks one
// at run time. Helpers take packs by reference and write in place, so no
// vector crosses a function boundary by value (which would tie the code to
// one calling convention, -Wpsabi).
//
// exp is ours rather than libm's because the logistic loss needs one exp per
// entry and coordinate step and libm has no portable vector entry point:
// Cody-Waite reduction x = k ln2 + r, |r| <= ln2 / 2, then the degree-12
// Taylor polynomial of e^r (Estrin's scheme; truncation error below 0.35^13 / 13! < 2e-16
// relative) and the scaling 2^k built in the exponent bits. Callers clamp
// arguments to [-708, 708], where e^x and 1 / (1 + e^x) are normal numbers:
// no branch, no inf, no subnormal slow path. Within 5e-16 relative of
// std::exp (tests).
#ifndef DPGLMNET_SIMD_H
#define DPGLMNET_SIMD_H

#include <cstdint>
#include <cstring>


#ifndef DPGLMNET_VECTOR_EXTENSIONS  // =0: the fallback, checked by tools/check-fallback.cpp
#if defined(__GNUC__) || defined(__clang__)
#define DPGLMNET_VECTOR_EXTENSIONS 1
#else
#define DPGLMNET_VECTOR_EXTENSIONS 0
#endif
#endif

namespace dpglmnet {
namespace simd {

#if DPGLMNET_VECTOR_EXTENSIONS
typedef double Pack2 __attribute__((vector_size(16)));
typedef double Pack4 __attribute__((vector_size(32)));
typedef double Pack8 __attribute__((vector_size(64)));
typedef std::int64_t IntPack2 __attribute__((vector_size(16)));
typedef std::int64_t IntPack4 __attribute__((vector_size(32)));
typedef std::int64_t IntPack8 __attribute__((vector_size(64)));
template <int Width> struct PackOf;
template <> struct PackOf<2> { typedef Pack2 type; typedef IntPack2 integer; };
template <> struct PackOf<4> { typedef Pack4 type; typedef IntPack4 integer; };
template <> struct PackOf<8> { typedef Pack8 type; typedef IntPack8 integer; };
#else
// Other compilers: width 1, plain doubles, same code.
template <int Width> struct PackOf { typedef double type; typedef std::int64_t integer; };
#endif

template <int Width>
using Pack = typename PackOf<Width>::type;

// The width of plain x86-64 (SSE2) and of other processors' 128-bit units.
constexpr int kBaselineWidth = DPGLMNET_VECTOR_EXTENSIONS ? 2 : 1;

template <int Width>
inline void load(Pack<Width>& v, const double* p) {
  std::memcpy(&v, p, sizeof v);  // unaligned load
}
template <int Width>
inline void store(double* p, const Pack<Width>& v) {
  std::memcpy(p, &v, sizeof v);
}
template <int Width>
inline double horizontal_sum(const Pack<Width>& v) {
  double lanes[sizeof v / sizeof(double)];
  std::memcpy(lanes, &v, sizeof v);
  double s = 0.0;
  for (double lane : lanes) s += lane;
  return s;
}

// v <- clamp(v, -c, c), branch-free (minpd / maxpd).
template <int Width>
inline void clamp_abs(Pack<Width>& v, const Pack<Width>& c) {
  v = v < c ? v : c;
  v = v > -c ? v : -c;
}

// The largest |x| for which e^x and 1 / (1 + e^x) are normal numbers.
constexpr double kExpLimit = 708.0;

// x <- e^x in every lane, for |x| <= kExpLimit (clamp first: see the header
// comment; outside, the result is garbage).
template <int Width>
inline void exp_in_place(Pack<Width>& x) {
  typedef Pack<Width> P;
  typedef typename PackOf<Width>::integer I;
  const double log2e = 1.4426950408889634;
  // ln 2 split so that k * ln2_hi is exact for |k| < 2^11 (Cody & Waite).
  const double ln2_hi = 6.93145751953125e-1;
  const double ln2_lo = 1.42860682030941723212e-6;
  // Adding 1.5 * 2^52 rounds to an integer held in the low mantissa bits.
  const double shifter = 6755399441055744.0;
  const P zero = {};
  const P shifted = x * log2e + shifter;
  const P k = shifted - shifter;
  const P r = (x - k * ln2_hi) - k * ln2_lo;
  // sum_{i <= 12} r^i / i! by Estrin's scheme: depth 4 instead of Horner's
  // 12 dependent multiply-adds, so consecutive packs overlap in the core.
  const P r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const P q0 = r + 1.0;
  const P q1 = r * 1.66666666666666666667e-1 + 0.5;
  const P q2 = r * 8.33333333333333333333e-3 + 4.16666666666666666667e-2;
  const P q3 = r * 1.98412698412698412698e-4 + 1.38888888888888888889e-3;
  const P q4 = r * 2.75573192239858906526e-6 + 2.48015873015873015873e-5;
  const P q5 = r * 2.50521083854417187751e-8 + 2.75573192239858906526e-7;
  const P s0 = q1 * r2 + q0;
  const P s1 = q3 * r2 + q2;
  const P s2 = q5 * r2 + q4;
  const P t0 = s1 * r4 + s0;
  const P t1 = r4 * 2.08767569878680989792e-9 + s2;
  const P poly = t1 * r8 + t0;
  // 2^k: k + 1023 in the exponent field (k is in [-1022, 1022]).
  I bits, shifter_bits;
  std::memcpy(&bits, &shifted, sizeof bits);
  const P shifter_pack = zero + shifter;
  std::memcpy(&shifter_bits, &shifter_pack, sizeof bits);
  bits = (bits - shifter_bits + 1023) << 52;
  P scale;
  std::memcpy(&scale, &bits, sizeof scale);
  x = poly * scale;
}

}  // namespace simd
}  // namespace dpglmnet

#endif  // DPGLMNET_SIMD_H
