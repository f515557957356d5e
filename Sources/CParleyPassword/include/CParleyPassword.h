#ifndef CPARLEYPASSWORD_H
#define CPARLEYPASSWORD_H

#include <stddef.h>
#include <stdint.h>

/* libsodium for secrets derived from what people type:
 *   - salted slow hashing of device credentials (Argon2id, crypto_pwhash_str), whose output string carries the
 *     salt and the parameters;
 *   - the PIN backup: Argon2id with an explicit salt and limits (crypto_pwhash), and the ristretto255 group and
 *     scalar operations of its oblivious PRF (crypto_core_ristretto255_*, crypto_scalarmult_ristretto255).
 * Nothing here does arithmetic of its own. Every function initialises libsodium first. */

/// Length of the buffer `parley_password_hash` writes (libsodium's crypto_pwhash_STRBYTES).
size_t parley_password_hash_length(void);

/// Hashes `password` into `out` (NUL-terminated). `strength` 0 = libsodium's interactive limits,
/// 1 = minimal limits (tests only). Returns 0 on success.
int parley_password_hash(char *out, const uint8_t *password, size_t password_length, int strength);

/// 0 when `password` matches `hash`.
int parley_password_verify(const char *hash, const uint8_t *password, size_t password_length);

/// Argon2id (version 1.3) of `password` with a 16-byte `salt`, `out_length` (16 or more) bytes into `out`.
/// Returns 0 on success, -1 for limits libsodium refuses or when memory runs out.
int parley_argon2id(uint8_t *out, size_t out_length, const uint8_t *password, size_t password_length,
                    const uint8_t salt[16], unsigned long long opslimit, size_t memlimit);

/// The ristretto255 element (32 bytes) that 64 uniformly random bytes map to (Elligator, twice). Returns 0.
int parley_ristretto255_from_hash(uint8_t element[32], const uint8_t hash[64]);

/// 1 when `element` is the canonical encoding of a ristretto255 element, else 0.
int parley_ristretto255_is_valid_point(const uint8_t element[32]);

/// `out` = `scalar` · `element`. Returns -1 when `element` does not decode or the result is the identity.
int parley_ristretto255_scalarmult(uint8_t out[32], const uint8_t scalar[32], const uint8_t element[32]);

/// A uniformly random non-zero scalar modulo the group order. Returns 0.
int parley_ristretto255_scalar_random(uint8_t scalar[32]);

/// `out` = 1 / `scalar` modulo the group order. Returns -1 for the zero scalar.
int parley_ristretto255_scalar_invert(uint8_t out[32], const uint8_t scalar[32]);

/// `out` = the 64-byte little-endian number `wide` modulo the group order. Returns 0.
int parley_ristretto255_scalar_reduce(uint8_t out[32], const uint8_t wide[64]);

#endif
