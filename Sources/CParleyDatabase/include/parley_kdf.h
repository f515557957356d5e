#ifndef PARLEY_KDF_H
#define PARLEY_KDF_H

#include <stddef.h>

/// Stretches a passphrase into a 32-byte database key with Argon2id (libsodium crypto_pwhash,
/// "moderate" limits: 3 passes, 256 MiB), salted with 16 bytes. Returns 0 on success, -1 when out of memory.
int parley_kdf_argon2id(const char *passphrase, size_t passphrase_length, const unsigned char salt[16],
                        unsigned char key[32]);

/// Fills `buffer` with `length` bytes from libsodium's CSPRNG.
void parley_random_bytes(unsigned char *buffer, size_t length);

/// Overwrites `length` bytes at `buffer` with zeros in a way the compiler cannot remove.
void parley_wipe(void *buffer, size_t length);

#endif
