#include "CParleyPassword.h"

#include <sodium.h>

size_t parley_password_hash_length(void) { return crypto_pwhash_STRBYTES; }

int parley_password_hash(char *out, const uint8_t *password, size_t password_length, int strength) {
    if (sodium_init() < 0) return -1;
    unsigned long long ops = strength == 0 ? crypto_pwhash_OPSLIMIT_INTERACTIVE : crypto_pwhash_OPSLIMIT_MIN;
    size_t mem = strength == 0 ? crypto_pwhash_MEMLIMIT_INTERACTIVE : crypto_pwhash_MEMLIMIT_MIN;
    return crypto_pwhash_str_alg(out, (const char *)password, password_length, ops, mem, crypto_pwhash_ALG_ARGON2ID13);
}

int parley_password_verify(const char *hash, const uint8_t *password, size_t password_length) {
    if (sodium_init() < 0) return -1;
    return crypto_pwhash_str_verify(hash, (const char *)password, password_length);
}

int parley_argon2id(uint8_t *out, size_t out_length, const uint8_t *password, size_t password_length,
                    const uint8_t salt[16], unsigned long long opslimit, size_t memlimit) {
    if (sodium_init() < 0) return -1;
    return crypto_pwhash(out, out_length, (const char *)password, password_length, salt, opslimit, memlimit,
                         crypto_pwhash_ALG_ARGON2ID13);
}

int parley_ristretto255_from_hash(uint8_t element[32], const uint8_t hash[64]) {
    if (sodium_init() < 0) return -1;
    return crypto_core_ristretto255_from_hash(element, hash);
}

int parley_ristretto255_is_valid_point(const uint8_t element[32]) {
    if (sodium_init() < 0) return 0;
    return crypto_core_ristretto255_is_valid_point(element);
}

int parley_ristretto255_scalarmult(uint8_t out[32], const uint8_t scalar[32], const uint8_t element[32]) {
    if (sodium_init() < 0) return -1;
    return crypto_scalarmult_ristretto255(out, scalar, element);
}

int parley_ristretto255_scalar_random(uint8_t scalar[32]) {
    if (sodium_init() < 0) return -1;
    crypto_core_ristretto255_scalar_random(scalar);
    return 0;
}

int parley_ristretto255_scalar_invert(uint8_t out[32], const uint8_t scalar[32]) {
    if (sodium_init() < 0) return -1;
    return crypto_core_ristretto255_scalar_invert(out, scalar);
}

int parley_ristretto255_scalar_reduce(uint8_t out[32], const uint8_t wide[64]) {
    if (sodium_init() < 0) return -1;
    crypto_core_ristretto255_scalar_reduce(out, wide);
    return 0;
}
