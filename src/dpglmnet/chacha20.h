// ChaCha20 (Bernstein 2008, "ChaCha, a variant of Salsa20"; specified in
// RFC 8439, "ChaCha20 and Poly1305 for IETF Protocols", 2018), the stream
// cipher behind rng = "secure": a fresh 256-bit key from the operating system
// (os_entropy.h), then the keystream read as uniform 64-bit words. Knowing
// any amount of the stream does not help predict the rest without the key.
//
// Layout. The block function is RFC 8439's (section 2.3): state words 0-3
// constants, 4-11 key, 12 block counter, 13-15 nonce. The stream uses
// Bernstein's original layout of the last four words: a 64-bit block counter
// in words 12-13 (low word first) and a 64-bit nonce in words 14-15, so it
// cannot wrap (2^64 blocks of 64 bytes). While the counter is below 2^32 this
// is the RFC layout with a 96-bit nonce of four zero bytes followed by the
// eight nonce bytes. Word k of the stream is keystream bytes 8k..8k+7 read
// little-endian, whatever the byte order of the machine.
//
// Speed. Blocks are computed kBlocksPerRefill at a time into a buffer, so a
// draw is a buffer read. With GCC or Clang vector extensions blocks run side
// by side, one per vector lane: eight in 256-bit vectors on x86-64
// processors with AVX2 (chosen at run time), four in 128-bit vectors
// otherwise (SSE2, NEON); other compilers compute them one by one with the
// same code.
// Header-only, no R.
#ifndef DPGLMNET_CHACHA20_H
#define DPGLMNET_CHACHA20_H

#include <cstdint>
#include <cstring>

// Refills are rare (one per 64 draws) and long: kept out of the callers'
// loops.
#if defined(__GNUC__) || defined(__clang__)
#define DPGLMNET_CHACHA20_UNLIKELY(condition) __builtin_expect(!!(condition), 0)
#define DPGLMNET_CHACHA20_NOINLINE __attribute__((noinline))
#define DPGLMNET_CHACHA20_FLATTEN __attribute__((flatten))
#else
#define DPGLMNET_CHACHA20_UNLIKELY(condition) (condition)
#define DPGLMNET_CHACHA20_NOINLINE
#define DPGLMNET_CHACHA20_FLATTEN
#endif

#ifndef DPGLMNET_CHACHA20_VECTOR  // =0: one block at a time
#if defined(DPGLMNET_VECTOR_EXTENSIONS)  // the scalar fallback build (simd.h)
#define DPGLMNET_CHACHA20_VECTOR DPGLMNET_VECTOR_EXTENSIONS
#elif defined(__GNUC__) || defined(__clang__)
#define DPGLMNET_CHACHA20_VECTOR 1
#else
#define DPGLMNET_CHACHA20_VECTOR 0
#endif
#endif

namespace dpglmnet {
namespace chacha20 {

// "expand 32-byte k" as four little-endian words (RFC 8439, 2.3).
constexpr std::uint32_t kConstants[4] = {0x61707865u, 0x3320646eu, 0x79622d32u,
                                         0x6b206574u};

inline std::uint32_t load_le32(const unsigned char* bytes) {
  return static_cast<std::uint32_t>(bytes[0]) |
         (static_cast<std::uint32_t>(bytes[1]) << 8) |
         (static_cast<std::uint32_t>(bytes[2]) << 16) |
         (static_cast<std::uint32_t>(bytes[3]) << 24);
}

inline void store_le32(unsigned char* bytes, std::uint32_t word) {
  bytes[0] = static_cast<unsigned char>(word);
  bytes[1] = static_cast<unsigned char>(word >> 8);
  bytes[2] = static_cast<unsigned char>(word >> 16);
  bytes[3] = static_cast<unsigned char>(word >> 24);
}

// Word is std::uint32_t or a vector of them (one block per lane), taken by
// reference: no vector crosses a function boundary by value (-Wpsabi).
template <class Word>
inline void rotate_left(Word& value, int bits) {
  value = (value << bits) | (value >> (32 - bits));
}

// The quarter round (RFC 8439, 2.1).
template <class Word>
inline void quarter_round(Word& a, Word& b, Word& c, Word& d) {
  a += b; d ^= a; rotate_left(d, 16);
  c += d; b ^= c; rotate_left(b, 12);
  a += b; d ^= a; rotate_left(d, 8);
  c += d; b ^= c; rotate_left(b, 7);
}

// The 20 rounds of the block function: 10 times a column round and a
// diagonal round (RFC 8439, 2.3), in place.
template <class Word>
inline void twenty_rounds(Word x[16]) {
  for (int i = 0; i < 10; ++i) {
    quarter_round(x[0], x[4], x[8], x[12]);   // columns
    quarter_round(x[1], x[5], x[9], x[13]);
    quarter_round(x[2], x[6], x[10], x[14]);
    quarter_round(x[3], x[7], x[11], x[15]);
    quarter_round(x[0], x[5], x[10], x[15]);  // diagonals
    quarter_round(x[1], x[6], x[11], x[12]);
    quarter_round(x[2], x[7], x[8], x[13]);
    quarter_round(x[3], x[4], x[9], x[14]);
  }
}

// The block function on a state of 16 words: output = state + 20 rounds of
// state, word by word (RFC 8439, 2.3).
inline void block(const std::uint32_t state[16], std::uint32_t output[16]) {
  std::uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = state[i];
  twenty_rounds(x);
  for (int i = 0; i < 16; ++i) output[i] = x[i] + state[i];
}

// RFC 8439's interface (2.3): 64 keystream bytes for a 32-byte key, a 32-bit
// block counter and a 12-byte nonce, serialized little-endian (2.3.2).
inline void block_bytes(const unsigned char key[32], std::uint32_t counter,
                        const unsigned char nonce[12], unsigned char out[64]) {
  std::uint32_t state[16];
  for (int i = 0; i < 4; ++i) state[i] = kConstants[i];
  for (int i = 0; i < 8; ++i) state[4 + i] = load_le32(key + 4 * i);
  state[12] = counter;
  for (int i = 0; i < 3; ++i) state[13 + i] = load_le32(nonce + 4 * i);
  std::uint32_t output[16];
  block(state, output);
  for (int i = 0; i < 16; ++i) store_le32(out + 4 * i, output[i]);
}

// The 64-bit block counter of the stream, in state words 12 (low) and 13.
inline std::uint64_t get_counter(const std::uint32_t state[16]) {
  return static_cast<std::uint64_t>(state[12]) | (static_cast<std::uint64_t>(state[13]) << 32);
}
inline void set_counter(std::uint32_t state[16], std::uint64_t block_counter) {
  state[12] = static_cast<std::uint32_t>(block_counter);
  state[13] = static_cast<std::uint32_t>(block_counter >> 32);
}

// Keystream words 2j and 2j + 1 of a block as stream word j (little-endian).
inline std::uint64_t join(std::uint32_t low, std::uint32_t high) {
  return static_cast<std::uint64_t>(low) | (static_cast<std::uint64_t>(high) << 32);
}

// `blocks` consecutive blocks from the counter in `state`, one at a time,
// as stream words; advances the counter. The reference for the vector paths.
inline void fill_one_by_one(std::uint32_t state[16], std::uint64_t* out, int blocks) {
  std::uint32_t output[16];
  for (int b = 0; b < blocks; ++b) {
    block(state, output);
    for (int j = 0; j < 8; ++j) out[8 * b + j] = join(output[2 * j], output[2 * j + 1]);
    set_counter(state, get_counter(state) + 1);
  }
}

#if DPGLMNET_CHACHA20_VECTOR
typedef std::uint32_t Lanes4 __attribute__((vector_size(16)));  // SSE2, NEON
typedef std::uint32_t Lanes8 __attribute__((vector_size(32)));  // AVX2

// As many consecutive blocks as Lanes has lanes, side by side (lane l of
// word i is word i of block get_counter(state) + l), written to `out` as 8
// stream words per block; advances the counter past them.
template <class Lanes>
inline void blocks_side_by_side(std::uint32_t state[16], std::uint64_t* out) {
  constexpr int lanes = sizeof(Lanes) / sizeof(std::uint32_t);
  Lanes input[16];
  for (int i = 0; i < 16; ++i) input[i] = Lanes{} + state[i];  // broadcast
  const std::uint64_t first = get_counter(state);
  for (int lane = 0; lane < lanes; ++lane) {
    const std::uint64_t block_counter = first + static_cast<std::uint64_t>(lane);
    input[12][lane] = static_cast<std::uint32_t>(block_counter);
    input[13][lane] = static_cast<std::uint32_t>(block_counter >> 32);
  }
  Lanes x[16];
  for (int i = 0; i < 16; ++i) x[i] = input[i];
  twenty_rounds(x);
  std::uint32_t words[16][lanes];
  for (int i = 0; i < 16; ++i) {
    const Lanes sum = x[i] + input[i];  // RFC 8439, 2.3: add the input state
    std::memcpy(words[i], &sum, sizeof sum);
  }
  for (int lane = 0; lane < lanes; ++lane) {
    for (int j = 0; j < 8; ++j)
      out[8 * lane + j] = join(words[2 * j][lane], words[2 * j + 1][lane]);
  }
  set_counter(state, first + lanes);
}

// Four blocks at a time in 128-bit vectors; `blocks` is a multiple of 4.
DPGLMNET_CHACHA20_FLATTEN inline void fill_4_lanes(std::uint32_t state[16], std::uint64_t* out,
                                                   int blocks) {
  for (int b = 0; b < blocks; b += 4) blocks_side_by_side<Lanes4>(state, out + 8 * b);
}

// Eight at a time in 256-bit vectors on x86-64 processors with AVX2, chosen
// at run time (not on Windows, where MinGW's GCC may misalign 32-byte vector
// spills, GCC bug 54412; see kernels.h); `blocks` is a multiple of 8.
#if defined(__x86_64__) && !defined(_WIN32)
#define DPGLMNET_CHACHA20_AVX2 1
__attribute__((flatten, target("avx2"))) inline void fill_8_lanes_avx2(
    std::uint32_t state[16], std::uint64_t* out, int blocks) {
  for (int b = 0; b < blocks; b += 8) blocks_side_by_side<Lanes8>(state, out + 8 * b);
}
inline bool has_avx2() {
  static const bool supported = __builtin_cpu_supports("avx2");
  return supported;
}
#endif
#endif

#ifndef DPGLMNET_CHACHA20_AVX2
#define DPGLMNET_CHACHA20_AVX2 0
#endif

// `blocks` (a multiple of 8) consecutive blocks from the counter in `state`,
// as stream words, advancing the counter: the fastest path compiled and
// supported by this processor. Every path gives the same words (tests).
inline void fill(std::uint32_t state[16], std::uint64_t* out, int blocks) {
#if DPGLMNET_CHACHA20_AVX2
  if (has_avx2()) {
    fill_8_lanes_avx2(state, out, blocks);
    return;
  }
#endif
#if DPGLMNET_CHACHA20_VECTOR
  fill_4_lanes(state, out, blocks);
#else
  fill_one_by_one(state, out, blocks);
#endif
}

}  // namespace chacha20

// The keystream as uniform 64-bit words (layout at the top of the file).
class ChaCha20Stream {
 public:
  static constexpr int kBlocksPerRefill = 8;                   // 512 bytes, whole groups
  static constexpr int kWordsPerRefill = kBlocksPerRefill * 8;  // 64-bit words

  // key: 32 bytes; nonce: 8 bytes (words 14-15); first_block: the counter
  // of the first block of the stream.
  ChaCha20Stream(const unsigned char key[32], const unsigned char nonce[8],
                 std::uint64_t first_block = 0)
      : next_(kWordsPerRefill) {
    for (int i = 0; i < 4; ++i) state_[i] = chacha20::kConstants[i];
    for (int i = 0; i < 8; ++i) state_[4 + i] = chacha20::load_le32(key + 4 * i);
    chacha20::set_counter(state_, first_block);
    state_[14] = chacha20::load_le32(nonce);
    state_[15] = chacha20::load_le32(nonce + 4);
  }

  ~ChaCha20Stream() { wipe(); }
  ChaCha20Stream(const ChaCha20Stream&) = delete;  // a copy would repeat the stream
  ChaCha20Stream& operator=(const ChaCha20Stream&) = delete;

  std::uint64_t operator()() {
    if (DPGLMNET_CHACHA20_UNLIKELY(next_ == kWordsPerRefill)) refill();
    return buffer_[next_++];
  }

 private:
  DPGLMNET_CHACHA20_NOINLINE void refill() {
    chacha20::fill(state_, buffer_, kBlocksPerRefill);
    next_ = 0;
  }

  // Clears the key and the unread keystream (volatile: not optimized away).
  void wipe() {
    volatile std::uint32_t* state = state_;
    for (int i = 0; i < 16; ++i) state[i] = 0;
    volatile std::uint64_t* buffer = buffer_;
    for (int i = 0; i < kWordsPerRefill; ++i) buffer[i] = 0;
  }

  std::uint32_t state_[16];  // words 12-13: the counter of the next block
  std::uint64_t buffer_[kWordsPerRefill];
  int next_;  // index of the next unread word of buffer_
};

}  // namespace dpglmnet

#endif  // DPGLMNET_CHACHA20_H
