#!/usr/bin/env python3
"""Reference XEdDSA verifier for live Swift tests (python-xeddsa 1.2.0 = libxeddsa 2.0.1: pip install xeddsa).

  xeddsa_peer.py verify PUBLIC_HEX MESSAGE_HEX SIGNATURE_HEX   -> prints true / false

PUBLIC_HEX is a 32-byte X25519 public key (Montgomery u). As Signal does, the signature's top bit
(bit 7 of byte 63) is taken as the sign bit of the Edwards key and cleared before Ed25519 verification.
"""
import sys

import xeddsa

P = 2**255 - 19


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    if len(public) != 32 or len(signature) != 64:
        return False
    # XEdDSA spec: reject u >= p. (libxeddsa's conversion would silently drop bit 255 and reduce mod p.)
    if int.from_bytes(public, "little") >= P:
        return False
    sign_bit = bool(signature[63] & 0x80)
    ed_public = xeddsa.curve25519_pub_to_ed25519_pub(public, sign_bit)
    # libsodium crypto_sign_verify_detached: rejects s >= L, small-order R/A, non-canonical A.
    return xeddsa.ed25519_verify(signature[:63] + bytes([signature[63] & 0x7F]), ed_public, message)


def main(argv: list[str]) -> None:
    if len(argv) != 4 or argv[0] != "verify":
        sys.exit(__doc__)
    print("true" if verify(*(bytes.fromhex(a) for a in argv[1:])) else "false")


if __name__ == "__main__":
    main(sys.argv[1:])
