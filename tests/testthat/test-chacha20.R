# ChaCha20 (src/dpglmnet/chacha20.h), the stream behind rng = "secure",
# against the published test vectors of RFC 8439, and the buffered stream
# the samplers read against the block function.

hex_raw <- function(text) {
  text <- gsub("[^0-9a-f]", "", tolower(text))
  as.raw(strtoi(substring(text, seq(1, nchar(text), 2), seq(2, nchar(text), 2)), 16L))
}
block <- function(key, nonce, counter) dpglmnet:::.chacha20_block_cpp(key, nonce, counter)
# path "": the buffered stream rng = "secure" reads; otherwise one of the
# ways of computing blocks (one by one, or several side by side in vectors).
stream <- function(key, nonce, first_block, words, path = "") {
  dpglmnet:::.chacha20_stream_cpp(key, nonce, first_block, words, path)
}
paths <- c("", dpglmnet:::.chacha20_paths_cpp())
zero_key <- as.raw(rep(0, 32))

test_that("the block function gives RFC 8439's test vector (2.3.2)", {
  expect_identical(
    block(as.raw(0:31), hex_raw("000000090000004a00000000"), 1),
    hex_raw("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e
             d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"))
})

test_that("the keystream encrypts RFC 8439's example (2.4.2)", {
  plaintext <- charToRaw(paste0(
    "Ladies and Gentlemen of the class of '99: If I could offer you only ",
    "one tip for the future, sunscreen would be it."))
  nonce <- hex_raw("000000000000004a00000000")
  keystream <- c(block(as.raw(0:31), nonce, 1), block(as.raw(0:31), nonce, 2))
  expect_identical(
    xor(plaintext, keystream[seq_along(plaintext)]),
    hex_raw("6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b
             f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8
             07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736
             5af90bbf74a35be6b40b8eedf2785e42874d"))
})

# RFC 8439, appendix A.1: key, nonce, block counter, keystream.
rfc8439_a1 <- list(
  list(key = zero_key, nonce = "000000000000000000000000", counter = 0,
       keystream = "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7
                    da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"),
  list(key = zero_key, nonce = "000000000000000000000000", counter = 1,
       keystream = "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed
                    29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"),
  list(key = c(as.raw(rep(0, 31)), as.raw(1)), nonce = "000000000000000000000000",
       counter = 1,
       keystream = "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a
                    8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0"),
  list(key = c(as.raw(0), as.raw(255), as.raw(rep(0, 30))),
       nonce = "000000000000000000000000", counter = 2,
       keystream = "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca
                    13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096"),
  list(key = zero_key, nonce = "000000000000000000000002", counter = 0,
       keystream = "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7
                    8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d"))

test_that("the block function gives RFC 8439's keystream vectors (A.1)", {
  for (v in rfc8439_a1) {
    expect_identical(block(v$key, hex_raw(v$nonce), v$counter), hex_raw(v$keystream))
  }
})

test_that("the stream gives RFC 8439's vectors (A.1 #1, #2, #5)", {
  # 64-bit counter in words 12-13, 64-bit nonce in words 14-15: with the
  # counter below 2^32 the RFC's 96-bit nonce is 4 zero bytes and ours.
  expect_true("one_by_one" %in% paths)
  for (path in paths) {
    expect_identical(stream(zero_key, as.raw(rep(0, 8)), 0, 16, path),
                     hex_raw(paste(rfc8439_a1[[1]]$keystream, rfc8439_a1[[2]]$keystream)))
    expect_identical(stream(zero_key, hex_raw("0000000000000002"), 0, 8, path),
                     hex_raw(rfc8439_a1[[5]]$keystream))
  }
})

test_that("the stream is the keystream, block after block, on every path", {
  key <- as.raw((7L * (0:31) + 3L) %% 256L)
  nonce <- as.raw(c(1, 2, 3, 4, 250, 251, 252, 253))
  blocks <- 37  # several refills of the buffer and a partial one
  expected <- unlist(lapply(0:(blocks - 1), function(k) block(key, c(as.raw(rep(0, 4)), nonce), k)))
  for (path in paths) {
    expect_identical(stream(key, nonce, 0, 8 * blocks, path), expected)
    # a stream that starts mid-way is the same keystream from there
    expect_identical(stream(key, nonce, 5, 8 * 3, path), expected[5 * 64 + seq_len(3 * 64)])
  }
})

test_that("the 64-bit block counter carries into its high word", {
  key <- as.raw(255 - 0:31)
  nonce <- as.raw(c(9, 8, 7, 6, 5, 4, 3, 2))
  low <- function(k) block(key, c(as.raw(c(0, 0, 0, 0)), nonce), k)   # high word 0
  high <- function(k) block(key, c(as.raw(c(1, 0, 0, 0)), nonce), k)  # high word 1
  expected <- c(low(2^32 - 3), low(2^32 - 2), low(2^32 - 1), high(0), high(1), high(2))
  # the carry falls inside a group of blocks computed side by side
  for (path in paths) expect_identical(stream(key, nonce, 2^32 - 3, 8 * 6, path), expected)
})

test_that("the test hooks refuse bad sizes", {
  expect_error(block(as.raw(1:31), as.raw(rep(0, 12)), 0), "32 bytes")
  expect_error(block(zero_key, as.raw(rep(0, 8)), 0), "12 bytes")
  expect_error(block(zero_key, as.raw(rep(0, 12)), 2^32), "counter")
  expect_error(stream(zero_key, as.raw(rep(0, 12)), 0, 1), "8 bytes")
  expect_error(stream(zero_key, as.raw(rep(0, 8)), -1, 1), "counter")
  expect_error(stream(zero_key, as.raw(rep(0, 8)), 0, 1, "no_such_path"), "no ChaCha20 path")
})

test_that("the key comes from the operating system, and its failure is an R error", {
  a <- dpglmnet:::.os_random_bytes_cpp(32L, "")
  b <- dpglmnet:::.os_random_bytes_cpp(32L, "")
  expect_length(a, 32)
  expect_false(identical(a, b))  # equal with probability 2^-256
  # byte frequencies of 2^18 bytes: chi-square with 255 degrees of freedom
  counts <- tabulate(as.integer(dpglmnet:::.os_random_bytes_cpp(2^18, "")) + 1L, 256L)
  chi2 <- sum((counts - 2^10)^2 / 2^10)
  expect_lt(chi2, stats::qchisq(1 - 1e-6, 255))
  skip_on_os("windows")  # no random device to read there
  expect_error(dpglmnet:::.os_random_bytes_cpp(8L, "/nonexistent/urandom"),
               "secure random generator failed.*never falls back")
  expect_error(dpglmnet:::.os_random_bytes_cpp(8L, "/dev/null"), "end of file")
})
