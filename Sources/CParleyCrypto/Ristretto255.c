/*
 * ristretto255 for zkgroup: libsodium's group and scalar operations, and the one thing libsodium
 * does not offer, the Elligator map's inverse (zkgroup decrypts a ciphertext's point back to the
 * bytes it encodes). The inverse composes OpenSSL big-number calls modulo p = 2^255 - 19 following
 * RFC 9496's decoding and the Jacobi-quartic construction (lizard); exponentiation uses OpenSSL's
 * constant-time Montgomery ladder.
 */
#include "CParleyCrypto.h"

#include <openssl/bn.h>
#include <sodium.h>
#include <string.h>

int parley_zk_ristretto255_from_hash(uint8_t point[32], const uint8_t hash[64]) {
    return crypto_core_ristretto255_from_hash(point, hash) == 0 ? 0 : -1;
}

int parley_zk_ristretto255_is_valid(const uint8_t point[32]) {
    static const uint8_t identity[32] = {0};
    return (crypto_core_ristretto255_is_valid_point(point) == 1 || sodium_memcmp(point, identity, 32) == 0) ? 1 : 0;
}

int parley_zk_ristretto255_add(uint8_t r[32], const uint8_t p[32], const uint8_t q[32]) {
    return crypto_core_ristretto255_add(r, p, q) == 0 ? 0 : -1;
}

int parley_zk_ristretto255_sub(uint8_t r[32], const uint8_t p[32], const uint8_t q[32]) {
    return crypto_core_ristretto255_sub(r, p, q) == 0 ? 0 : -1;
}

int parley_zk_ristretto255_scalarmult(uint8_t q[32], const uint8_t n[32], const uint8_t p[32]) {
    if (!parley_zk_ristretto255_is_valid(p)) return -1;
    if (crypto_scalarmult_ristretto255(q, n, p) != 0) {
        /* A valid point: libsodium's -1 means the product is the identity. */
        memset(q, 0, 32);
    }
    return 0;
}

int parley_zk_ristretto255_scalarmult_base(uint8_t q[32], const uint8_t n[32]) {
    if (crypto_scalarmult_ristretto255_base(q, n) != 0) memset(q, 0, 32);
    return 0;
}

void parley_zk_ristretto255_scalar_reduce(uint8_t r[32], const uint8_t wide[64]) {
    crypto_core_ristretto255_scalar_reduce(r, wide);
}

int parley_zk_ristretto255_scalar_invert(uint8_t r[32], const uint8_t s[32]) {
    return crypto_core_ristretto255_scalar_invert(r, s) == 0 ? 0 : -1;
}

void parley_zk_ristretto255_scalar_negate(uint8_t r[32], const uint8_t s[32]) {
    crypto_core_ristretto255_scalar_negate(r, s);
}

void parley_zk_ristretto255_scalar_add(uint8_t r[32], const uint8_t a[32], const uint8_t b[32]) {
    crypto_core_ristretto255_scalar_add(r, a, b);
}

void parley_zk_ristretto255_scalar_sub(uint8_t r[32], const uint8_t a[32], const uint8_t b[32]) {
    crypto_core_ristretto255_scalar_sub(r, a, b);
}

void parley_zk_ristretto255_scalar_mul(uint8_t r[32], const uint8_t a[32], const uint8_t b[32]) {
    crypto_core_ristretto255_scalar_mul(r, a, b);
}

/* ---- The Elligator inverse, modulo p with OpenSSL's big numbers ---- */

/* Little-endian constants (RFC 9496 and the lizard construction). */
static const uint8_t P_LE[32] = {
    0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
static const uint8_t D_LE[32] = {
    0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75, 0xab, 0xd8, 0x41, 0x41, 0x4d, 0x0a, 0x70, 0x00,
    0x98, 0xe8, 0x79, 0x77, 0x79, 0x40, 0xc7, 0x8c, 0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52};
static const uint8_t SQRT_M1_LE[32] = {
    0xb0, 0xa0, 0x0e, 0x4a, 0x27, 0x1b, 0xee, 0xc4, 0x78, 0xe4, 0x2f, 0xad, 0x06, 0x18, 0x43, 0x2f,
    0xa7, 0xd7, 0xfb, 0x3d, 0x99, 0x00, 0x4d, 0x2b, 0x0b, 0xdf, 0xc1, 0x4f, 0x80, 0x24, 0x83, 0x2b};
static const uint8_t SQRT_ID_LE[32] = {
    0xa8, 0x1b, 0x5c, 0x4a, 0xcb, 0x2a, 0x30, 0x75, 0xaa, 0x6d, 0xea, 0x0e, 0x2d, 0xa9, 0xbc, 0xcd,
    0x15, 0x6e, 0xeb, 0x73, 0x99, 0x54, 0x34, 0x75, 0x97, 0xeb, 0x7b, 0xf4, 0x58, 0x55, 0xb3, 0x05};
static const uint8_t DP1_OVER_DM1_LE[32] = {
    0x2c, 0xbb, 0x81, 0x9b, 0x5f, 0xac, 0x7f, 0x27, 0xc8, 0x1d, 0x24, 0xcd, 0xf1, 0xe7, 0x9a, 0x48,
    0x24, 0x18, 0x9f, 0x99, 0x5f, 0xd9, 0xf8, 0xae, 0x9d, 0xd8, 0xe8, 0xa7, 0x30, 0xc8, 0x67, 0x0e};
static const uint8_t MDOUBLE_LE[32] = {
    0x06, 0x7e, 0x45, 0xff, 0xaa, 0x04, 0x6e, 0xcc, 0x82, 0x1a, 0x7d, 0x4b, 0xd1, 0xd3, 0xa1, 0xc5,
    0x7e, 0x4f, 0xfc, 0x03, 0xdc, 0x08, 0x7b, 0xd2, 0xbb, 0x06, 0xa0, 0x60, 0xf4, 0xed, 0x26, 0x0f};
static const uint8_t MIDOUBLE_LE[32] = {
    0xd8, 0xbb, 0x77, 0x63, 0x10, 0xb7, 0x5d, 0x16, 0x9c, 0x6c, 0xb5, 0xd7, 0x38, 0xee, 0xa5, 0x9c,
    0x10, 0x59, 0x0b, 0x28, 0x85, 0x58, 0xe0, 0x3d, 0x50, 0x3d, 0x56, 0x06, 0x68, 0x0b, 0x1b, 0x14};
static const uint8_t MINVSQRT_ONE_PLUS_D_LE[32] = {
    0x01, 0x22, 0x44, 0xce, 0x77, 0x24, 0xd1, 0xf4, 0xb1, 0x49, 0x25, 0x94, 0xe3, 0x08, 0xad, 0xb1,
    0x77, 0x53, 0xfa, 0x6b, 0xbd, 0xd3, 0x0f, 0xe1, 0x57, 0xe1, 0xd4, 0xfc, 0x4b, 0x7a, 0xf2, 0x75};

/* A field: p, its constants and a context. Temporaries come from the context's frame. */
typedef struct {
    BN_CTX *ctx;
    BIGNUM *p, *zero, *one, *d, *i, *sqrt_id, *dp1_over_dm1, *mdouble, *midouble, *minvsqrt_one_plus_d;
    BIGNUM *exp_p58; /* (p - 5) / 8 */
} Field;

#define CHECK(x) do { if (!(x)) return 0; } while (0)

static BIGNUM *fe_new(Field *f) { return BN_CTX_get(f->ctx); }
static int fe_mul(Field *f, BIGNUM *r, const BIGNUM *a, const BIGNUM *b) { return BN_mod_mul(r, a, b, f->p, f->ctx); }
static int fe_add(Field *f, BIGNUM *r, const BIGNUM *a, const BIGNUM *b) { return BN_mod_add(r, a, b, f->p, f->ctx); }
static int fe_sub(Field *f, BIGNUM *r, const BIGNUM *a, const BIGNUM *b) { return BN_mod_sub(r, a, b, f->p, f->ctx); }
static int fe_neg(Field *f, BIGNUM *r, const BIGNUM *a) { return BN_mod_sub(r, f->zero, a, f->p, f->ctx); }
static int fe_is_negative(const BIGNUM *a) { return BN_is_odd(a); }
static int fe_abs(Field *f, BIGNUM *r, const BIGNUM *a) { return fe_is_negative(a) ? fe_neg(f, r, a) : (BN_copy(r, a) != NULL); }
static int fe_equal(const BIGNUM *a, const BIGNUM *b) { return BN_cmp(a, b) == 0; }

/* RFC 9496 SQRT_RATIO_M1: *was_square, and r = abs(sqrt(u / v)) or abs(sqrt(i * u / v)). */
static int fe_sqrt_ratio_m1(Field *f, int *was_square, BIGNUM *r, const BIGNUM *u, const BIGNUM *v) {
    BIGNUM *v3 = fe_new(f), *v7 = fe_new(f), *t = fe_new(f), *check = fe_new(f), *neg_u = fe_new(f), *neg_u_i = fe_new(f);
    CHECK(neg_u_i != NULL);
    CHECK(fe_mul(f, v3, v, v) && fe_mul(f, v3, v3, v));          /* v^3 */
    CHECK(fe_mul(f, v7, v3, v3) && fe_mul(f, v7, v7, v));        /* v^7 */
    CHECK(fe_mul(f, t, u, v7));
    CHECK(BN_mod_exp_mont_consttime(t, t, f->exp_p58, f->p, f->ctx, NULL));
    CHECK(fe_mul(f, r, u, v3) && fe_mul(f, r, r, t));            /* u v^3 (u v^7)^((p-5)/8) */
    CHECK(fe_mul(f, check, r, r) && fe_mul(f, check, check, v)); /* v r^2 */
    CHECK(fe_neg(f, neg_u, u) && fe_mul(f, neg_u_i, neg_u, f->i));
    int correct = fe_equal(check, u), flipped = fe_equal(check, neg_u), flipped_i = fe_equal(check, neg_u_i);
    if (flipped || flipped_i) CHECK(fe_mul(f, r, r, f->i));
    CHECK(fe_abs(f, r, r));
    *was_square = correct || flipped;
    return 1;
}

/* RFC 9496 DECODE of a canonical encoding to affine (X, Y) with Z = 1. */
static int fe_decode(Field *f, BIGNUM *x, BIGNUM *y, const uint8_t encoding[32]) {
    BIGNUM *s = fe_new(f), *ss = fe_new(f), *u1 = fe_new(f), *u2 = fe_new(f), *u2s = fe_new(f), *v = fe_new(f);
    BIGNUM *isq = fe_new(f), *dx = fe_new(f), *dy = fe_new(f), *t = fe_new(f);
    CHECK(t != NULL && BN_lebin2bn(encoding, 32, s) != NULL);
    CHECK(BN_cmp(s, f->p) < 0 && !fe_is_negative(s));
    CHECK(fe_mul(f, ss, s, s) && fe_sub(f, u1, f->one, ss) && fe_add(f, u2, f->one, ss) && fe_mul(f, u2s, u2, u2));
    CHECK(fe_mul(f, v, f->d, u1) && fe_mul(f, v, v, u1) && fe_neg(f, v, v) && fe_sub(f, v, v, u2s)); /* -(d u1^2) - u2^2 */
    int was_square = 0;
    CHECK(fe_mul(f, t, v, u2s) && fe_sqrt_ratio_m1(f, &was_square, isq, f->one, t));
    CHECK(fe_mul(f, dx, isq, u2) && fe_mul(f, dy, isq, dx) && fe_mul(f, dy, dy, v));
    CHECK(fe_add(f, x, s, s) && fe_mul(f, x, x, dx) && fe_abs(f, x, x));
    CHECK(fe_mul(f, y, u1, dy) && fe_mul(f, t, x, y));
    return was_square && !fe_is_negative(t) && !BN_is_zero(y);
}

/* The positive preimage of the Jacobi-quartic point (s, t); 0 when it has none. */
static int fe_elligator_inverse_positive(Field *f, int *defined, BIGNUM *out, const BIGNUM *s, const BIGNUM *t) {
    if (BN_is_zero(s)) {
        *defined = 1;
        return fe_equal(t, f->one) ? BN_copy(out, f->sqrt_id) != NULL : (BN_zero(out), 1);
    }
    BIGNUM *a = fe_new(f), *s2 = fe_new(f), *s4 = fe_new(f), *a2 = fe_new(f), *w = fe_new(f), *y = fe_new(f);
    CHECK(y != NULL);
    CHECK(fe_add(f, a, t, f->one) && fe_mul(f, a, a, f->dp1_over_dm1));
    CHECK(fe_mul(f, s2, s, s) && fe_mul(f, s4, s2, s2) && fe_mul(f, a2, a, a));
    CHECK(fe_sub(f, w, s4, a2) && fe_mul(f, w, w, f->i));
    int was_square = 0;
    CHECK(fe_sqrt_ratio_m1(f, &was_square, y, f->one, w));
    *defined = was_square;
    if (!was_square) return 1;
    if (fe_is_negative(s)) CHECK(fe_neg(f, s2, s2));
    CHECK(fe_add(f, out, a, s2) && fe_mul(f, out, out, y) && fe_abs(f, out, out));
    return 1;
}

static int elligator_inverse(Field *f, uint8_t candidates[8 * 32], uint8_t defined[8], const uint8_t point[32]) {
    BIGNUM *X = fe_new(f), *Y = fe_new(f), *x2 = fe_new(f), *y2 = fe_new(f), *y4 = fe_new(f), *gamma = fe_new(f);
    BIGNUM *zmy = fe_new(f), *zpy = fe_new(f), *z2my2 = fe_new(f), *k = fe_new(f), *sx = fe_new(f), *sxp = fe_new(f);
    BIGNUM *k2 = fe_new(f), *iz = fe_new(f), *sy = fe_new(f), *syp = fe_new(f), *tmp = fe_new(f);
    BIGNUM *s[4], *t[4];
    for (int n = 0; n < 4; n++) { s[n] = fe_new(f); t[n] = fe_new(f); }
    BIGNUM *neg_s = fe_new(f), *neg_t = fe_new(f), *value = fe_new(f);
    CHECK(value != NULL);
    CHECK(fe_decode(f, X, Y, point)); /* Z = 1 */
    CHECK(fe_mul(f, x2, X, X) && fe_mul(f, y2, Y, Y) && fe_mul(f, y4, y2, y2));
    CHECK(fe_sub(f, zmy, f->one, Y) && fe_add(f, zpy, f->one, Y) && fe_sub(f, z2my2, f->one, y2));
    int ignored = 0;
    CHECK(fe_mul(f, tmp, y4, x2) && fe_mul(f, tmp, tmp, z2my2) && fe_sqrt_ratio_m1(f, &ignored, gamma, f->one, tmp));
    CHECK(fe_mul(f, k, gamma, y2) && fe_mul(f, sx, k, zmy) && fe_mul(f, sxp, k, zpy));
    CHECK(fe_mul(f, s[0], sx, X) && fe_mul(f, s[1], sxp, X) && fe_neg(f, s[1], s[1]));
    CHECK(fe_mul(f, t[0], f->mdouble, sx) && fe_mul(f, t[1], f->mdouble, sxp));
    CHECK(fe_neg(f, k2, z2my2) && fe_mul(f, k2, k2, f->minvsqrt_one_plus_d) && fe_mul(f, k2, k2, gamma));
    BN_copy(iz, f->i);
    CHECK(fe_sub(f, tmp, iz, X) && fe_mul(f, sy, k2, tmp) && fe_add(f, tmp, iz, X) && fe_mul(f, syp, k2, tmp));
    CHECK(fe_mul(f, s[2], sy, Y) && fe_mul(f, s[3], syp, Y) && fe_neg(f, s[3], s[3]));
    CHECK(fe_mul(f, tmp, f->mdouble, iz) && fe_mul(f, t[2], tmp, sy) && fe_mul(f, t[3], tmp, syp));
    if (BN_is_zero(X) || BN_is_zero(Y)) {
        BN_copy(t[0], f->one); BN_copy(t[1], f->one); BN_copy(t[2], f->midouble); BN_copy(t[3], f->midouble);
        BN_copy(s[2], f->one); CHECK(fe_neg(f, s[3], f->one));
    }
    for (int n = 0; n < 4; n++) {
        int is_defined = 0;
        CHECK(fe_elligator_inverse_positive(f, &is_defined, value, s[n], t[n]));
        defined[2 * n] = (uint8_t)is_defined;
        if (is_defined) CHECK(BN_bn2lebinpad(value, candidates + 64 * n, 32) == 32);
        CHECK(fe_neg(f, neg_s, s[n]) && fe_neg(f, neg_t, t[n]));
        CHECK(fe_elligator_inverse_positive(f, &is_defined, value, neg_s, neg_t));
        defined[2 * n + 1] = (uint8_t)is_defined;
        if (is_defined) CHECK(BN_bn2lebinpad(value, candidates + 64 * n + 32, 32) == 32);
    }
    return 1;
}

int parley_zk_ristretto255_elligator_inverse(uint8_t candidates[8 * 32], uint8_t defined[8], const uint8_t point[32]) {
    memset(candidates, 0, 8 * 32);
    memset(defined, 0, 8);
    Field f = {0};
    f.ctx = BN_CTX_new();
    if (f.ctx == NULL) return -1;
    BN_CTX_start(f.ctx);
    int ok = 0;
    BIGNUM **constants[] = {&f.p, &f.zero, &f.one, &f.d, &f.i, &f.sqrt_id, &f.dp1_over_dm1, &f.mdouble, &f.midouble,
                            &f.minvsqrt_one_plus_d, &f.exp_p58};
    for (size_t n = 0; n < sizeof constants / sizeof constants[0]; n++) {
        *constants[n] = BN_CTX_get(f.ctx);
    }
    if (f.exp_p58 == NULL) goto done;
    if (BN_lebin2bn(P_LE, 32, f.p) == NULL || BN_lebin2bn(D_LE, 32, f.d) == NULL ||
        BN_lebin2bn(SQRT_M1_LE, 32, f.i) == NULL || BN_lebin2bn(SQRT_ID_LE, 32, f.sqrt_id) == NULL ||
        BN_lebin2bn(DP1_OVER_DM1_LE, 32, f.dp1_over_dm1) == NULL || BN_lebin2bn(MDOUBLE_LE, 32, f.mdouble) == NULL ||
        BN_lebin2bn(MIDOUBLE_LE, 32, f.midouble) == NULL ||
        BN_lebin2bn(MINVSQRT_ONE_PLUS_D_LE, 32, f.minvsqrt_one_plus_d) == NULL)
        goto done;
    BN_zero(f.zero);
    if (!BN_one(f.one) || !BN_sub_word(BN_copy(f.exp_p58, f.p), 5) || !BN_rshift(f.exp_p58, f.exp_p58, 3)) goto done;
    ok = elligator_inverse(&f, candidates, defined, point);
done:
    BN_CTX_end(f.ctx);
    BN_CTX_free(f.ctx);
    if (!ok) {
        memset(candidates, 0, 8 * 32);
        memset(defined, 0, 8);
        return -1;
    }
    return 0;
}
