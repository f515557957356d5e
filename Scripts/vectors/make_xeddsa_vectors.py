#!/usr/bin/env python3
"""Write Tests/ParleyProtocolTests/Vectors/xeddsa_kat.json (XEdDSA over Curve25519 KATs).

Requires: pip install xeddsa   (made with python-xeddsa 1.2.0, bundling libxeddsa 2.0.1).
Signatures come from libxeddsa; every one is re-derived below with hashlib + Python ints.
Output is fully deterministic.
"""
import hashlib
import json
import pathlib

import xeddsa

from xeddsa_peer import verify

OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests/ParleyProtocolTests/Vectors/xeddsa_kat.json"
MESSAGE_LENGTHS = [0, 1, 32, 33, 64, 100, 1000, 1569]

# --- minimal Ed25519 arithmetic (affine twisted Edwards), for the independent recipe check ---
P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, -1, P) % P


def add(p1, p2):
    (x1, y1), (x2, y2) = p1, p2
    t = D * x1 * x2 * y1 * y2 % P
    return ((x1 * y2 + x2 * y1) * pow(1 + t, -1, P) % P, (y1 * y2 + x1 * x2) * pow(1 - t, -1, P) % P)


def mul(k, point):
    acc = (0, 1)
    while k:
        if k & 1:
            acc = add(acc, point)
        point, k = add(point, point), k >> 1
    return acc


def base_point():
    y = 4 * pow(5, -1, P) % P
    x2 = (y * y - 1) * pow(D * y * y + 1, -1, P) % P
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * pow(2, (P - 1) // 4, P) % P
    return (P - x if x & 1 else x, y)  # B has even x


B = base_point()


def encode(point) -> bytes:
    x, y = point
    return (y | (x & 1) << 255).to_bytes(32, "little")


def hash_mod_l(*parts: bytes) -> int:
    return int.from_bytes(hashlib.sha512(b"".join(parts)).digest(), "little") % L


def recipe_sign(k: bytes, message: bytes, nonce: bytes, reduce_a_in_nonce_hash: bool):
    """XEdDSA sign. Returns (signature, Edwards sign bit of kB, A, Montgomery u of kB)."""
    k_int = int.from_bytes(k, "little")
    x, y = mul(k_int, B)
    sign = x & 1
    a = (-k_int) % L if sign else k_int % L  # A = aB always has sign bit 0
    a_bytes = a.to_bytes(32, "little") if (sign or reduce_a_in_nonce_hash) else k  # libxeddsa: raw k
    big_a = y.to_bytes(32, "little")
    r = hash_mod_l(b"\xfe" + b"\xff" * 31, a_bytes, message, nonce)
    big_r = encode(mul(r, B))
    h = hash_mod_l(big_r, big_a, message)
    s = (r + h * a) % L
    u = (1 + y) * pow(1 - y, -1, P) % P
    return big_r + s.to_bytes(32, "little"), sign, big_a, u.to_bytes(32, "little")


def clamp(b: bytes) -> bytes:
    b = bytearray(b)
    b[0] &= 248
    b[31] = (b[31] & 127) | 64
    return bytes(b)


def make_case(i: int, n: int) -> dict:
    private = clamp(hashlib.sha256(f"parley-xeddsa-priv-{i}".encode()).digest())
    message = hashlib.shake_256(f"parley-xeddsa-msg-{i}".encode()).digest(n)
    nonce = hashlib.sha512(f"parley-xeddsa-nonce-{i}".encode()).digest()

    public = xeddsa.x25519(private, (9).to_bytes(32, "little"))
    assert public == xeddsa.priv_to_curve25519_pub(private)
    signature = xeddsa.ed25519_priv_sign(xeddsa.priv_force_sign(private, False), message, nonce)

    expected, sign, big_a, u = recipe_sign(private, message, nonce, reduce_a_in_nonce_hash=False)
    assert signature == expected, f"libxeddsa differs from the recipe in case {i}"
    assert u == public and big_a == xeddsa.curve25519_pub_to_ed25519_pub(public, False)
    spec_sig = recipe_sign(private, message, nonce, reduce_a_in_nonce_hash=True)[0]
    assert (spec_sig == signature) == (sign == 1)
    assert verify(public, message, signature) and verify(public, message, spec_sig)
    return {
        "private_hex": private.hex(),
        "public_hex": public.hex(),
        "ed25519_public_hex": big_a.hex(),
        "ed_sign_bit_of_kB": sign,
        "message_hex": message.hex(),
        "nonce_hex": nonce.hex(),
        "signature_hex": signature.hex(),
        "signature_a_reduced_hex": spec_sig.hex(),
    }


def flip(b: bytes, byte: int, mask: int) -> bytes:
    out = bytearray(b)
    out[byte] ^= mask
    return bytes(out)


def make_invalid(cases: list[dict]) -> list[dict]:
    c, other = cases[3], cases[4]
    pub, msg, sig = (bytes.fromhex(c[k]) for k in ("public_hex", "message_hex", "signature_hex"))
    s_plus_l = (int.from_bytes(sig[32:], "little") + L).to_bytes(32, "little")
    high_bit_pub = flip(pub, 31, 0x80)
    # libxeddsa on its own masks bit 255 of u, so without the u < p check this one would verify:
    assert xeddsa.ed25519_verify(sig, xeddsa.curve25519_pub_to_ed25519_pub(high_bit_pub, False), msg)
    bad = [
        (pub, msg, flip(sig, 0, 0x01), "signature bit flipped (in R)"),
        (pub, msg, flip(sig, 40, 0x10), "signature bit flipped (in s)"),
        (pub, msg, flip(sig, 63, 0x80), "signature top bit (Edwards sign bit) flipped"),
        (pub, flip(msg, 0, 0x01), sig, "message bit flipped"),
        (pub, msg + b"\x00", sig, "message extended by one byte"),
        (bytes.fromhex(other["public_hex"]), msg, sig, "wrong public key"),
        (pub, msg, sig[:32] + s_plus_l, "s >= L (s + L, non-canonical)"),
        (b"\xff" * 31 + b"\x7f", msg, sig, "u >= p (u = 2^255 - 1)"),
        ((P).to_bytes(32, "little"), msg, sig, "u >= p (u = p)"),
        (high_bit_pub, msg, sig, "u >= p (valid key with bit 255 set; libxeddsa alone would mask it and accept)"),
    ]
    for p, m, s, reason in bad:
        assert not verify(p, m, s), reason
    return [{"public_hex": p.hex(), "message_hex": m.hex(), "signature_hex": s.hex(), "reason": r}
            for p, m, s, r in bad]


def main() -> None:
    cases = [make_case(i, n) for i, n in enumerate(MESSAGE_LENGTHS)]
    assert {c["ed_sign_bit_of_kB"] for c in cases} == {0, 1}, "want both sign-bit branches covered"
    doc = {
        "comment": (
            "Generated by Scripts/vectors/make_xeddsa_vectors.py with python-xeddsa 1.2.0 (libxeddsa 2.0.1; "
            "pip install xeddsa). private_hex = clamp(SHA-256('parley-xeddsa-priv-<i>')) (clamped scalar k as "
            "Signal stores it); public_hex = xeddsa.x25519(k, 9); message_hex = SHAKE256('parley-xeddsa-msg-<i>'); "
            "nonce_hex = Z = SHA-512('parley-xeddsa-nonce-<i>'). signature_hex = "
            "xeddsa.ed25519_priv_sign(xeddsa.priv_force_sign(k, False), M, Z). Recipe observed and re-derived "
            "in pure Python for every case: E = kB; if E's sign bit (ed_sign_bit_of_kB) is 1, a = -k mod L, else "
            "a = k; A = aB (sign bit 0, = ed25519_public_hex); r = SHA-512(0xFE || 0xFF*31 || a32 || M || Z) mod L "
            "where a32 is the 32 bytes libxeddsa holds: (-k mod L) when negated, but the UNREDUCED clamped k "
            "bytes when not negated (the XEdDSA spec says a = k mod L there); R = rB; h = SHA-512(R || A || M) "
            "mod L; s = r + h*a mod L; signature = R || s (top bit 0). signature_a_reduced_hex is the same with "
            "a32 = (k mod L) always, i.e. the literal spec; it equals signature_hex exactly when "
            "ed_sign_bit_of_kB = 1. Both verify. Verification (xeddsa_peer.verify): reject u >= p; Edwards key = "
            "curve25519_pub_to_ed25519_pub(u, signature top bit); clear that bit; xeddsa.ed25519_verify "
            "(libsodium). Every 'invalid' entry must fail."
        ),
        "cases": cases,
        "invalid": make_invalid(cases),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {len(cases)} cases and {len(doc['invalid'])} invalid entries to {OUT}")


if __name__ == "__main__":
    main()
