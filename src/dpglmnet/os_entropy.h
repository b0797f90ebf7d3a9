// Bytes from the operating system's cryptographically secure generator, to
// key the ChaCha20 stream of rng = "secure" (chacha20.h): getrandom() on
// Linux (falling back to /dev/urandom on kernels older than 3.17),
// /dev/urandom on other Unix systems, BCryptGenRandom on Windows. A failure
// throws std::runtime_error; there is no fallback to a seeded generator.
// Header-only, no R.
#ifndef DPGLMNET_OS_ENTROPY_H
#define DPGLMNET_OS_ENTROPY_H

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>

#if defined(_WIN32)
// Declared here rather than through <windows.h>, whose macros clash with R's
// headers (ERROR, ...). Link with -lbcrypt (src/Makevars.win).
extern "C" __declspec(dllimport) long __stdcall BCryptGenRandom(
    void* algorithm, unsigned char* buffer, unsigned long size, unsigned long flags);
#else
#include <fcntl.h>
#include <unistd.h>
#if defined(__linux__) && defined(__has_include)
#if __has_include(<sys/random.h>)
#include <sys/random.h>
#define DPGLMNET_HAVE_GETRANDOM 1
#endif
#endif
#endif

namespace dpglmnet {

namespace detail {

[[noreturn]] inline void entropy_failure(const std::string& what) {
  throw std::runtime_error(
      "the operating system's secure random generator failed (" + what +
      "); no noise was drawn. rng = \"secure\" never falls back to a seeded "
      "generator.");
}

#if !defined(_WIN32)
// Fills `out` with `size` bytes read from a random device such as
// /dev/urandom, or throws.
inline void read_random_device(const char* path, unsigned char* out, std::size_t size) {
  int fd;
  do {
    fd = ::open(path, O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) entropy_failure(std::string("open ") + path + ": " + std::strerror(errno));
  while (size > 0) {
    const ssize_t got = ::read(fd, out, size);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      const int error = got < 0 ? errno : 0;
      ::close(fd);
      entropy_failure(std::string("read ") + path + ": " +
                      (error ? std::strerror(error) : "end of file"));
    }
    out += got;
    size -= static_cast<std::size_t>(got);
  }
  ::close(fd);
}
#endif

}  // namespace detail

// Fills `out` with `size` bytes from the operating system's secure
// generator, or throws std::runtime_error.
inline void os_random_bytes(unsigned char* out, std::size_t size) {
#if defined(_WIN32)
  const unsigned long kUseSystemPreferredRng = 0x00000002;  // BCRYPT_USE_SYSTEM_PREFERRED_RNG
  const long status = BCryptGenRandom(nullptr, out, static_cast<unsigned long>(size),
                                      kUseSystemPreferredRng);
  if (status < 0)  // NT_SUCCESS(status) is status >= 0
    detail::entropy_failure("BCryptGenRandom returned status " + std::to_string(status));
#elif defined(DPGLMNET_HAVE_GETRANDOM)
  while (size > 0) {
    // Flags 0: the urandom pool, blocking only until it is first seeded.
    const ssize_t got = ::getrandom(out, size, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && errno == ENOSYS) {  // kernel before 3.17
      detail::read_random_device("/dev/urandom", out, size);
      return;
    }
    if (got <= 0)
      detail::entropy_failure(std::string("getrandom: ") +
                              (got < 0 ? std::strerror(errno) : "no bytes"));
    out += got;
    size -= static_cast<std::size_t>(got);
  }
#else
  detail::read_random_device("/dev/urandom", out, size);
#endif
}

}  // namespace dpglmnet

#endif  // DPGLMNET_OS_ENTROPY_H
