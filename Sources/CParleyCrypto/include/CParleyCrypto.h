#ifndef CPARLEYCRYPTO_H
#define CPARLEYCRYPTO_H

#include <stddef.h>
#include <stdint.h>

/*
 * The native operations ParleyProtocol needs that swift-crypto does not expose.
 * Everything here is a thin composition of vetted library calls:
 *   - libsodium 1.0.18's low-level Ed25519 group and scalar operations (XEdDSA),
 *   - OpenSSL libcrypto's big numbers (the public Montgomery-to-Edwards conversion)
 *     and its SHAKE256 extendable-output function.
 * No field or lattice arithmetic is written here. All functions return 0 on success.
 */

/// Initialises libsodium. Safe to call more than once and from several threads.
int parley_crypto_init(void);

/// XEdDSA signature (signal.org/docs/specifications/xeddsa) with an X25519 private key.
/// `private_key` is clamped internally; `random` is the 64-byte nonce Z.
int parley_xeddsa_sign(uint8_t signature[64], const uint8_t private_key[32],
                       const uint8_t *message, size_t message_length,
                       const uint8_t random[64]);

/// Verifies an XEdDSA signature under a 32-byte X25519 public key (Montgomery u).
/// Returns 0 when the signature is valid, non-zero otherwise.
int parley_xeddsa_verify(const uint8_t signature[64], const uint8_t public_key[32],
                         const uint8_t *message, size_t message_length);

/// SHAKE256 (FIPS 202) of `input`, `output_length` bytes.
int parley_shake256(uint8_t *output, size_t output_length,
                    const uint8_t *input, size_t input_length);

#endif
