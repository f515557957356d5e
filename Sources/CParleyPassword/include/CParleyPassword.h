#ifndef CPARLEYPASSWORD_H
#define CPARLEYPASSWORD_H

#include <stddef.h>
#include <stdint.h>

/* Salted slow password hashing for device credentials: libsodium's Argon2id (crypto_pwhash_str),
 * whose output string carries the salt and the parameters. */

/// Length of the buffer `parley_password_hash` writes (libsodium's crypto_pwhash_STRBYTES).
size_t parley_password_hash_length(void);

/// Hashes `password` into `out` (NUL-terminated). `strength` 0 = libsodium's interactive limits,
/// 1 = minimal limits (tests only). Returns 0 on success.
int parley_password_hash(char *out, const uint8_t *password, size_t password_length, int strength);

/// 0 when `password` matches `hash`.
int parley_password_verify(const char *hash, const uint8_t *password, size_t password_length);

#endif
