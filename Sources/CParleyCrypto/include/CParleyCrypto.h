#ifndef CPARLEYCRYPTO_H
#define CPARLEYCRYPTO_H

#include <stddef.h>
#include <stdint.h>

/*
 * The native operations ParleyProtocol needs that swift-crypto does not expose.
 * Everything here is a thin composition of vetted library calls:
 *   - libsodium 1.0.18's low-level Ed25519 group and scalar operations (XEdDSA),
 *   - OpenSSL libcrypto's big numbers (the public Montgomery-to-Edwards conversion),
 *     its SHAKE256 extendable-output function, and its SHA-256/SHA-512 block functions
 *     under HMAC, HKDF and the iterated safety-number hash,
 *   - libsodium's ristretto255 group and scalar operations for zkgroup, and OpenSSL big numbers
 *     modulo 2^255 - 19 composed into the Elligator map's inverse, which libsodium lacks.
 * No lattice arithmetic is written here. All functions return 0 on success unless they say otherwise.
 */

/// Initialises libsodium. Safe to call more than once and from several threads.
int parley_crypto_init(void);

/// XEdDSA signature (signal.org/docs/specifications/xeddsa) with an X25519 private key.
/// `private_key` is clamped internally; `random` is the 64-byte nonce Z.
int parley_xeddsa_sign(uint8_t signature[64], const uint8_t private_key[32],
                       const uint8_t *message, size_t message_length,
                       const uint8_t random[64]);

/// The Edwards y-coordinate (little-endian, sign bit clear) of the Montgomery u-coordinate
/// of a public key: y = (u - 1) / (u + 1) mod 2^255 - 19. Fails for u >= p and u = p - 1.
int parley_montgomery_to_edwards(uint8_t y[32], const uint8_t u[32]);

/// Verifies an XEdDSA signature given the Edwards y of the signer's key (see
/// `parley_montgomery_to_edwards`): the signature's top bit is the key's sign bit, then
/// libsodium's Ed25519 verification. Returns 0 when valid.
int parley_xeddsa_verify(const uint8_t signature[64], const uint8_t edwards_y[32],
                         const uint8_t *message, size_t message_length);

/// SHAKE128 (FIPS 202) of `input`, `output_length` bytes (ML-KEM's matrix sampling).
int parley_shake128(uint8_t *output, size_t output_length,
                    const uint8_t *input, size_t input_length);

/// SHAKE256 (FIPS 202) of `input`, `output_length` bytes.
int parley_shake256(uint8_t *output, size_t output_length,
                    const uint8_t *input, size_t input_length);

/// HMAC-SHA256 (over OpenSSL's SHA-256) of `message` under a key of any length.
int parley_hmac_sha256(uint8_t output[32], const uint8_t *key, size_t key_length,
                       const uint8_t *message, size_t message_length);

/// HKDF-SHA256 (RFC 5869) over that HMAC-SHA256: extract with `salt` (empty means
/// 32 zero bytes), then expand `info` to `output_length` bytes (at most 255 * 32).
int parley_hkdf_sha256(uint8_t *output, size_t output_length,
                       const uint8_t *salt, size_t salt_length,
                       const uint8_t *input_key_material, size_t input_length,
                       const uint8_t *info, size_t info_length);

/// Iterated SHA-512 (OpenSSL): h = SHA-512(`initial` || `suffix`), then `iterations - 1`
/// more times h = SHA-512(h || `suffix`). The safety-number hash.
int parley_sha512_iterate(uint8_t output[64], const uint8_t *initial, size_t initial_length,
                          const uint8_t *suffix, size_t suffix_length, uint32_t iterations);

// MARK: ristretto255 (zkgroup). Points and scalars are 32-byte canonical encodings.

/// The point 64 uniformly random bytes map to (two Elligator images, added).
int parley_zk_ristretto255_from_hash(uint8_t point[32], const uint8_t hash[64]);

/// 1 when `point` is a canonical encoding (the identity, 32 zero bytes, included), else 0.
int parley_zk_ristretto255_is_valid(const uint8_t point[32]);

/// r = p + q (both valid encodings).
int parley_zk_ristretto255_add(uint8_t r[32], const uint8_t p[32], const uint8_t q[32]);

/// r = p - q (both valid encodings).
int parley_zk_ristretto255_sub(uint8_t r[32], const uint8_t p[32], const uint8_t q[32]);

/// q = n * p; -1 when `p` is not a valid encoding. A product that is the identity is written as 32 zero bytes.
int parley_zk_ristretto255_scalarmult(uint8_t q[32], const uint8_t n[32], const uint8_t p[32]);

/// q = n * B (the generator); n = 0 gives the identity.
int parley_zk_ristretto255_scalarmult_base(uint8_t q[32], const uint8_t n[32]);

/// r = wide mod l (64 little-endian bytes).
void parley_zk_ristretto255_scalar_reduce(uint8_t r[32], const uint8_t wide[64]);

/// r = 1 / s mod l; -1 for s = 0.
int parley_zk_ristretto255_scalar_invert(uint8_t r[32], const uint8_t s[32]);

/// r = -s mod l.
void parley_zk_ristretto255_scalar_negate(uint8_t r[32], const uint8_t s[32]);

/// r = a + b mod l.
void parley_zk_ristretto255_scalar_add(uint8_t r[32], const uint8_t a[32], const uint8_t b[32]);

/// r = a - b mod l.
void parley_zk_ristretto255_scalar_sub(uint8_t r[32], const uint8_t a[32], const uint8_t b[32]);

/// r = a * b mod l.
void parley_zk_ristretto255_scalar_mul(uint8_t r[32], const uint8_t a[32], const uint8_t b[32]);

/// The field elements whose single Elligator image (RFC 9496 MAP) is `point`, up to the eight "positive" ones
/// (`defined[n]` says which of the eight 32-byte `candidates` exist), in the order of the point's four Jacobi-quartic
/// representatives, each followed by its negation's. -1 when `point` is not a valid encoding.
int parley_zk_ristretto255_elligator_inverse(uint8_t candidates[8 * 32], uint8_t defined[8], const uint8_t point[32]);

#endif
