#include "parley_kdf.h"

#include <sodium.h>

int parley_kdf_argon2id(const char *passphrase, size_t passphrase_length, const unsigned char salt[16],
                        unsigned char key[32]) {
    if (sodium_init() < 0) return -1;
    return crypto_pwhash(key, 32, passphrase, passphrase_length, salt, crypto_pwhash_OPSLIMIT_MODERATE,
                         crypto_pwhash_MEMLIMIT_MODERATE, crypto_pwhash_ALG_ARGON2ID13);
}

void parley_random_bytes(unsigned char *buffer, size_t length) {
    if (sodium_init() < 0) return;
    randombytes_buf(buffer, length);
}

void parley_wipe(void *buffer, size_t length) { sodium_memzero(buffer, length); }
