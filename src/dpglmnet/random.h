// Random numbers for the noise of the private mechanisms.
//
// Two sources behind one class: a fast seeded generator (xoshiro256++,
// Blackman & Vigna 2021, seeded through splitmix64) so that a fit is
// reproducible from R's set.seed(), and a cryptographically secure one
// (ChaCha20, chacha20.h, keyed with 256 bits from the operating system's
// generator, os_entropy.h, each time a source is made) for releases where an
// adversary might otherwise predict the noise from the seed. Both feed the
// same samplers with uniform 64-bit words.
//
// Normal deviates come from the ziggurat of Marsaglia & Tsang (2000, "The
// ziggurat method for generating random variables", J. Stat. Softw. 5(8)),
// with 256 layers and one 64-bit word per attempt split into disjoint bits
// (8 layer, 1 sign, 52 magnitude; sharing bits between layer and magnitude
// is the flaw Doornik 2005 found in the original 32-bit code), as NumPy
// does. The method is exact: every layer, the base strip with the tail
// included, has the same area v, a point uniform in a uniformly chosen layer
// is accepted iff it lies under exp(-x^2/2) (the wedge test computes that
// exactly), and the tail beyond r is drawn exactly by Marsaglia's (1964)
// method, so |Z| > r is neither truncated nor approximated. With the r below,
// the layers close at the top to 3e-15 (floating-point level).
#ifndef DPGLMNET_RANDOM_H
#define DPGLMNET_RANDOM_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "dpglmnet/chacha20.h"
#include "dpglmnet/os_entropy.h"

namespace dpglmnet {

namespace detail {

// xoshiro256++ (Blackman & Vigna 2021).
struct Xoshiro256pp {
  std::uint64_t s[4];
  std::uint64_t operator()() {
    const std::uint64_t result = rotl(s[0] + s[3], 23) + s[0];
    const std::uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
  static std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
  }
};

// Tables of the 256-layer ziggurat for exp(-x^2/2) on x >= 0. Layer 0 is
// the base strip (the rectangle [0, r] x [0, f(r)] plus the tail, area v,
// drawn as a rectangle of width v / f(r)); layer i >= 1 is the rectangle of
// width x_i between heights f(x_i) and f(x_{i-1}), with x_255 = r, x_0 = 0 and
// x_i (1-based upwards) fixed by equal areas v.
struct ZigguratTables {
  static constexpr int layers = 256;
  static constexpr double r = 3.6541528853610087963519472518;
  double width[2 * layers];         // x_i / 2^52; entries 256.. are negated (sign bit)
  std::uint64_t inner[layers];      // magnitude below which the point is under f
  double height[layers];            // f(x_i), height[0] = f(x_0) = 1

  ZigguratTables() {
    const double two52 = 4503599627370496.0;  // 2^52
    const double fr = std::exp(-0.5 * r * r);
    // v = r f(r) + int_r^inf f = area of every layer.
    const double v = r * fr + 1.2533141373155002512 * std::erfc(r / 1.4142135623730950488);
    double x[layers];
    x[layers - 1] = r;
    for (int i = layers - 2; i >= 1; --i)
      x[i] = std::sqrt(-2.0 * std::log(v / x[i + 1] + std::exp(-0.5 * x[i + 1] * x[i + 1])));
    x[0] = 0.0;
    const double base_width = v / fr;
    width[0] = base_width / two52;
    inner[0] = static_cast<std::uint64_t>(r / base_width * two52);
    height[0] = 1.0;
    for (int i = 1; i < layers; ++i) {
      width[i] = x[i] / two52;
      inner[i] = static_cast<std::uint64_t>(x[i - 1] / x[i] * two52);
      height[i] = std::exp(-0.5 * x[i] * x[i]);
    }
    for (int i = 0; i < layers; ++i) width[i + layers] = -width[i];
  }
};

inline const ZigguratTables& ziggurat_tables() {
  static const ZigguratTables tables;  // initialized once, thread-safe (C++11)
  return tables;
}

// Uniform on (0, 1]: 53 random bits, never 0 so that log() is finite.
inline double open0(std::uint64_t bits) {
  return (static_cast<double>(bits >> 11) + 1.0) * 0x1.0p-53;
}

#if defined(__GNUC__) || defined(__clang__)
#define DPGLMNET_LIKELY(condition) __builtin_expect(!!(condition), 1)
#define DPGLMNET_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define DPGLMNET_LIKELY(condition) (condition)
#define DPGLMNET_ALWAYS_INLINE inline
#endif

// The rare part of a ziggurat attempt (about 1.2% of attempts): the tail
// (layer 0) or the wedge test. Returns true and sets *out if accepted.
// Inlined (on a cold path) so that a generator kept in registers by the
// caller need not live in memory.
template <class Bits>
DPGLMNET_ALWAYS_INLINE bool ziggurat_slow(const ZigguratTables& t, std::uint64_t word, double x,
                   Bits& bits, double* out) {
  const unsigned layer = static_cast<unsigned>(word & 0xff);
  const bool negative = (word >> 8) & 1;
  if (layer == 0) {
    // Tail beyond r (Marsaglia 1964): with a = -log(U1) / r, b = -log(U2),
    // accept r + a iff 2b > a^2.
    for (;;) {
      const double a = -std::log(open0(bits())) / ZigguratTables::r;
      const double b = -std::log(open0(bits()));
      if (b + b > a * a) {
        *out = negative ? -(ZigguratTables::r + a) : ZigguratTables::r + a;
        return true;
      }
    }
  }
  const double u = static_cast<double>(bits() >> 11) * 0x1.0p-53;  // [0, 1)
  if (t.height[layer] + u * (t.height[layer - 1] - t.height[layer]) <
      std::exp(-0.5 * x * x)) {
    *out = x;
    return true;
  }
  return false;
}

// One standard normal deviate from a source of 64-bit words.
template <class Bits>
DPGLMNET_ALWAYS_INLINE double ziggurat_normal(const ZigguratTables& t, Bits& bits) {
  for (;;) {
    const std::uint64_t word = bits();
    const std::uint64_t magnitude = word >> 12;  // 52 bits
    const double x = static_cast<double>(static_cast<std::int64_t>(magnitude)) *
                     t.width[word & 0x1ff];  // layer and sign
    if (DPGLMNET_LIKELY(magnitude < t.inner[word & 0xff])) return x;
    double out;
    if (ziggurat_slow(t, word, x, bits, &out)) return out;
  }
}

}  // namespace detail

class RandomSource {
 public:
  // secure = false: xoshiro256++ seeded from `seed`; secure = true:
  // ChaCha20 with a fresh key from the operating system (the seed is
  // ignored). Throws std::runtime_error if the operating system's generator
  // fails.
  RandomSource(std::uint64_t seed, bool secure)
      : zig_(&detail::ziggurat_tables()) {
    if (secure) {
      unsigned char key[32];
      os_random_bytes(key, sizeof key);
      const unsigned char nonce[8] = {0};  // a fresh key per stream: a fixed nonce is safe
      secure_.reset(new ChaCha20Stream(key, nonce));
      volatile unsigned char* wipe = key;
      for (std::size_t i = 0; i < sizeof key; ++i) wipe[i] = 0;
    }
    std::uint64_t s = seed;
    for (auto& word : fast_.s) word = splitmix64(s);
  }

  std::uint64_t next_u64() { return secure_ ? (*secure_)() : fast_(); }

  // Uniform on (0, 1]: 53 random bits, never 0 so that log() is finite.
  double uniform_open0() { return detail::open0(next_u64()); }

  // Standard normal (ziggurat, exact; see the top of the file).
  double gaussian() {
    if (secure_) {
      SecureBits bits{secure_.get()};
      return detail::ziggurat_normal(*zig_, bits);
    }
    return detail::ziggurat_normal(*zig_, fast_);
  }

  // values[k] = sd * Z_k (add = false) or values[k] += sd * Z_k (add = true)
  // for k < count: independent standard normals, drawn in order k = 0, 1, ...
  // (the same stream as count calls of gaussian()), as one block.
  void gaussian_block(double* values, std::size_t count, double sd, bool add) {
    if (secure_)
      normals(SecureBits{secure_.get()}, *zig_, values, count, sd, add);
    else
      fast_ = normals(fast_, *zig_, values, count, sd, add);
  }

  // Laplace with mean 0 and the given scale (inverse CDF).
  double laplace(double scale) {
    const double magnitude = -scale * std::log(uniform_open0());
    return (next_u64() >> 63) ? magnitude : -magnitude;
  }

  // Uniform integer in [0, bound), unbiased (Lemire 2019).
  std::uint32_t index(std::uint32_t bound) {
    if (secure_) {
      SecureBits bits{secure_.get()};
      return bounded(bits, bound);
    }
    return bounded(fast_, bound);
  }

  // Moves a uniformly random subset of `count` of the `size` values, in
  // uniformly random order, to the front: partial Fisher-Yates (whatever the
  // current order of values).
  template <class T>
  void partial_shuffle(T* values, std::uint32_t size, std::uint32_t count) {
    if (secure_)
      partial_shuffle(SecureBits{secure_.get()}, values, size, count);
    else
      fast_ = partial_shuffle(fast_, values, size, count);
  }

  // Fisher-Yates shuffle of an index array in place.
  template <class Vector>
  void shuffle(Vector& values) {
    for (std::uint32_t i = static_cast<std::uint32_t>(values.size()); i > 1; --i) {
      const std::uint32_t j = index(i);
      std::swap(values[i - 1], values[j]);
    }
  }

 private:
  struct SecureBits {
    ChaCha20Stream* stream;
    std::uint64_t operator()() { return (*stream)(); }
  };

  // The block loops take the generator by value and return it, so that
  // its state stays in registers (a reference would put it in memory,
  // where it may alias the output).
  template <class Bits>
  static Bits normals(Bits bits, const detail::ZigguratTables& t, double* values,
                      std::size_t count, double sd, bool add) {
    if (add) {
      for (std::size_t k = 0; k < count; ++k)
        values[k] += sd * detail::ziggurat_normal(t, bits);
    } else {
      for (std::size_t k = 0; k < count; ++k)
        values[k] = sd * detail::ziggurat_normal(t, bits);
    }
    return bits;
  }

  template <class Bits, class T>
  static Bits partial_shuffle(Bits bits, T* values, std::uint32_t size,
                              std::uint32_t count) {
    for (std::uint32_t k = 0; k < count; ++k) {
      const std::uint32_t j = k + bounded(bits, size - k);
      std::swap(values[k], values[j]);
    }
    return bits;
  }

  template <class Bits>
  static std::uint32_t bounded(Bits& bits, std::uint32_t bound) {
    std::uint64_t product = (bits() >> 32) * bound;
    std::uint32_t low = static_cast<std::uint32_t>(product);
    if (low < bound) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
      while (low < threshold) {
        product = (bits() >> 32) * bound;
        low = static_cast<std::uint32_t>(product);
      }
    }
    return static_cast<std::uint32_t>(product >> 32);
  }

  static std::uint64_t splitmix64(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  detail::Xoshiro256pp fast_;
  std::unique_ptr<ChaCha20Stream> secure_;  // null: the seeded generator
  const detail::ZigguratTables* zig_;
};

}  // namespace dpglmnet

#endif  // DPGLMNET_RANDOM_H
