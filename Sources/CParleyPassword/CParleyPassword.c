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
