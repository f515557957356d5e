/* The low-level SHA-256/SHA-512 functions are deprecated in OpenSSL 3 in favour of EVP, whose
 * per-call dispatch dominates short inputs; they remain exported and vetted. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "CParleyCrypto.h"

#include <string.h>
#include <sodium.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

int parley_crypto_init(void) {
    return sodium_init() < 0 ? -1 : 0;
}

static void clamp(uint8_t k[32]) {
    k[0] &= 248;
    k[31] &= 127;
    k[31] |= 64;
}

int parley_xeddsa_sign(uint8_t signature[64], const uint8_t private_key[32],
                       const uint8_t *message, size_t message_length,
                       const uint8_t random[64]) {
    static const uint8_t prefix[32] = {
        0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    uint8_t wide[64] = {0};
    uint8_t a[32], A[32], r[32], R[32], h[32], s[32], digest[64];
    crypto_hash_sha512_state state;
    int rc = -1;

    memcpy(wide, private_key, 32);
    clamp(wide);
    crypto_core_ed25519_scalar_reduce(a, wide);
    if (crypto_scalarmult_ed25519_base_noclamp(A, a) != 0) goto done;
    /* The nonce hashes the clamped key bytes as given, or the negated reduced scalar when
     * A's sign bit had to be cleared: what libxeddsa and libsignal-protocol-c do, so our
     * signatures match theirs byte for byte for the same Z. */
    const uint8_t *nonce_key = wide;
    if (A[31] & 0x80) {
        crypto_core_ed25519_scalar_negate(a, a);
        A[31] &= 0x7F;
        nonce_key = a;
    }

    crypto_hash_sha512_init(&state);
    crypto_hash_sha512_update(&state, prefix, sizeof prefix);
    crypto_hash_sha512_update(&state, nonce_key, 32);
    crypto_hash_sha512_update(&state, message, message_length);
    crypto_hash_sha512_update(&state, random, 64);
    crypto_hash_sha512_final(&state, digest);
    crypto_core_ed25519_scalar_reduce(r, digest);
    if (crypto_scalarmult_ed25519_base_noclamp(R, r) != 0) goto done;

    crypto_hash_sha512_init(&state);
    crypto_hash_sha512_update(&state, R, sizeof R);
    crypto_hash_sha512_update(&state, A, sizeof A);
    crypto_hash_sha512_update(&state, message, message_length);
    crypto_hash_sha512_final(&state, digest);
    crypto_core_ed25519_scalar_reduce(h, digest);

    crypto_core_ed25519_scalar_mul(s, h, a);
    crypto_core_ed25519_scalar_add(s, s, r);
    memcpy(signature, R, 32);
    memcpy(signature + 32, s, 32);
    rc = 0;
done:
    sodium_memzero(wide, sizeof wide);
    sodium_memzero(a, sizeof a);
    sodium_memzero(r, sizeof r);
    sodium_memzero(digest, sizeof digest);
    sodium_memzero(&state, sizeof state);
    return rc;
}

/* y = (u - 1) / (u + 1) mod p, for public data only. Fails for u >= p and u = p - 1. */
int parley_montgomery_to_edwards(uint8_t y_out[32], const uint8_t u_in[32]) {
    static const uint8_t p_be[32] = {
        0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xED};
    int rc = -1;
    BN_CTX *ctx = BN_CTX_new();
    if (ctx == NULL) return -1;
    BN_CTX_start(ctx);
    BIGNUM *p = BN_CTX_get(ctx), *u = BN_CTX_get(ctx), *num = BN_CTX_get(ctx);
    BIGNUM *den = BN_CTX_get(ctx), *inv = BN_CTX_get(ctx), *y = BN_CTX_get(ctx);
    if (y == NULL) goto done;
    if (BN_bin2bn(p_be, 32, p) == NULL || BN_lebin2bn(u_in, 32, u) == NULL) goto done;
    if (BN_cmp(u, p) >= 0) goto done;
    if (!BN_mod_sub(num, u, BN_value_one(), p, ctx)) goto done;
    if (!BN_mod_add(den, u, BN_value_one(), p, ctx)) goto done;
    if (BN_is_zero(den)) goto done;
    if (BN_mod_inverse(inv, den, p, ctx) == NULL) goto done;
    if (!BN_mod_mul(y, num, inv, p, ctx)) goto done;
    if (BN_bn2lebinpad(y, y_out, 32) != 32) goto done;
    rc = 0;
done:
    BN_CTX_end(ctx);
    BN_CTX_free(ctx);
    return rc;
}

int parley_xeddsa_verify(const uint8_t signature[64], const uint8_t edwards_y[32],
                         const uint8_t *message, size_t message_length) {
    uint8_t A[32], sig[64];
    memcpy(A, edwards_y, 32);
    memcpy(sig, signature, 64);
    A[31] = (uint8_t)((A[31] & 0x7F) | (sig[63] & 0x80));
    sig[63] &= 0x7F;
    if (sig[63] & 0x60) return -1; /* s >= 2^253 */
    return crypto_sign_ed25519_verify_detached(sig, message, message_length, A) == 0 ? 0 : -1;
}

static int shake(const EVP_MD *md, uint8_t *output, size_t output_length,
                 const uint8_t *input, size_t input_length) {
    int rc = -1;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return -1;
    if (EVP_DigestInit_ex(ctx, md, NULL) == 1 &&
        EVP_DigestUpdate(ctx, input, input_length) == 1 &&
        EVP_DigestFinalXOF(ctx, output, output_length) == 1) {
        rc = 0;
    }
    EVP_MD_CTX_free(ctx);
    return rc;
}

int parley_shake128(uint8_t *output, size_t output_length,
                    const uint8_t *input, size_t input_length) {
    return shake(EVP_shake128(), output, output_length, input, input_length);
}

int parley_shake256(uint8_t *output, size_t output_length,
                    const uint8_t *input, size_t input_length) {
    return shake(EVP_shake256(), output, output_length, input, input_length);
}

/* HMAC (RFC 2104) over OpenSSL's SHA-256 and SHA-512 block functions. OpenSSL 3's HMAC and
 * EVP_MAC interfaces spend ~1.8 us per call in provider dispatch on these short inputs, six
 * times the hashing itself (SHA-NI); the low-level digest API has none of that overhead. */
typedef struct {
    SHA256_CTX inner;
    SHA256_CTX outer;
} hmac_sha256_key;

static void hmac_sha256_key_init(hmac_sha256_key *hk, const uint8_t *key, size_t key_length) {
    uint8_t block[64] = {0}, pad[64];
    if (key_length > sizeof block) {
        SHA256(key, key_length, block);
    } else {
        memcpy(block, key, key_length);
    }
    for (size_t i = 0; i < sizeof pad; i++) pad[i] = block[i] ^ 0x36;
    SHA256_Init(&hk->inner);
    SHA256_Update(&hk->inner, pad, sizeof pad);
    for (size_t i = 0; i < sizeof pad; i++) pad[i] = block[i] ^ 0x5c;
    SHA256_Init(&hk->outer);
    SHA256_Update(&hk->outer, pad, sizeof pad);
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(pad, sizeof pad);
}

/* Finishes HMAC(key, parts[0] || parts[1] || ...) from a prepared key. */
static void hmac_sha256_finish(const hmac_sha256_key *hk, const uint8_t *const *parts, const size_t *lengths,
                               size_t count, uint8_t output[32]) {
    SHA256_CTX ctx = hk->inner;
    uint8_t inner[32];
    for (size_t i = 0; i < count; i++) SHA256_Update(&ctx, parts[i], lengths[i]);
    SHA256_Final(inner, &ctx);
    ctx = hk->outer;
    SHA256_Update(&ctx, inner, sizeof inner);
    SHA256_Final(output, &ctx);
    OPENSSL_cleanse(inner, sizeof inner);
    OPENSSL_cleanse(&ctx, sizeof ctx);
}

int parley_hmac_sha256(uint8_t output[32], const uint8_t *key, size_t key_length,
                       const uint8_t *message, size_t message_length) {
    hmac_sha256_key hk;
    const uint8_t *parts[1] = {message};
    size_t lengths[1] = {message_length};
    hmac_sha256_key_init(&hk, key, key_length);
    hmac_sha256_finish(&hk, parts, lengths, 1, output);
    OPENSSL_cleanse(&hk, sizeof hk);
    return 0;
}

int parley_hkdf_sha256(uint8_t *output, size_t output_length,
                       const uint8_t *salt, size_t salt_length,
                       const uint8_t *input_key_material, size_t input_length,
                       const uint8_t *info, size_t info_length) {
    static const uint8_t zero_salt[32] = {0};
    uint8_t prk[32], block[32];
    hmac_sha256_key hk;
    if (output_length > 255 * 32) return -1;
    if (salt_length == 0) {
        salt = zero_salt;
        salt_length = sizeof zero_salt;
    }
    parley_hmac_sha256(prk, salt, salt_length, input_key_material, input_length);
    hmac_sha256_key_init(&hk, prk, sizeof prk);
    for (size_t offset = 0, counter = 1; offset < output_length; offset += 32, counter++) {
        uint8_t counter_byte = (uint8_t)counter;
        const uint8_t *parts[3] = {block, info, &counter_byte};
        size_t lengths[3] = {offset > 0 ? sizeof block : 0, info_length, 1};
        hmac_sha256_finish(&hk, parts, lengths, 3, block);
        size_t take = output_length - offset < 32 ? output_length - offset : 32;
        memcpy(output + offset, block, take);
    }
    OPENSSL_cleanse(prk, sizeof prk);
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(&hk, sizeof hk);
    return 0;
}

int parley_sha512_iterate(uint8_t output[64], const uint8_t *initial, size_t initial_length,
                          const uint8_t *suffix, size_t suffix_length, uint32_t iterations) {
    SHA512_CTX ctx;
    if (iterations == 0) return -1;
    SHA512_Init(&ctx);
    SHA512_Update(&ctx, initial, initial_length);
    SHA512_Update(&ctx, suffix, suffix_length);
    SHA512_Final(output, &ctx);
    for (uint32_t i = 1; i < iterations; i++) {
        SHA512_Init(&ctx);
        SHA512_Update(&ctx, output, 64);
        SHA512_Update(&ctx, suffix, suffix_length);
        SHA512_Final(output, &ctx);
    }
    return 0;
}
