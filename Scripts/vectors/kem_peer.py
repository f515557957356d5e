#!/usr/bin/env python3
"""Reference KEM peer for live Swift tests (kyber-py 1.2.0: pip install kyber-py).

  kem_peer.py keygen TYPE                      -> {"public_key_hex", "secret_key_hex"} (fresh, os.urandom)
  kem_peer.py encaps TYPE PUBLIC_KEY_HEX       -> {"ciphertext_hex", "shared_secret_hex"}
  kem_peer.py decaps TYPE SECRET_KEY_HEX CIPHERTEXT_HEX -> shared secret hex
  kem_peer.py selftest                         -> round-trips every TYPE against itself

TYPE is "kyber1024" (CRYSTALS-Kyber round 3, kyber_py.kyber.Kyber1024) or "mlkem1024" (FIPS 203,
kyber_py.ml_kem.ML_KEM_1024).
"""
import json
import sys

from kyber_py.kyber import Kyber1024
from kyber_py.ml_kem import ML_KEM_1024

KEMS = {"kyber1024": Kyber1024, "mlkem1024": ML_KEM_1024}


def keygen(kind: str) -> dict:
    pk, sk = KEMS[kind].keygen()
    return {"public_key_hex": pk.hex(), "secret_key_hex": sk.hex()}


def encaps(kind: str, pk_hex: str) -> dict:
    ss, ct = KEMS[kind].encaps(bytes.fromhex(pk_hex))  # both return (K, c)
    return {"ciphertext_hex": ct.hex(), "shared_secret_hex": ss.hex()}


def decaps(kind: str, sk_hex: str, ct_hex: str) -> str:
    return KEMS[kind].decaps(bytes.fromhex(sk_hex), bytes.fromhex(ct_hex)).hex()


def selftest() -> None:
    for kind in KEMS:
        keys = keygen(kind)
        enc = encaps(kind, keys["public_key_hex"])
        assert decaps(kind, keys["secret_key_hex"], enc["ciphertext_hex"]) == enc["shared_secret_hex"]
        assert len(keys["public_key_hex"]) == len(enc["ciphertext_hex"]) == 2 * 1568
        print(f"{kind}: ok")


def main(argv: list[str]) -> None:
    if argv[:1] == ["keygen"] and len(argv) == 2 and argv[1] in KEMS:
        print(json.dumps(keygen(argv[1])))
    elif argv[:1] == ["encaps"] and len(argv) == 3 and argv[1] in KEMS:
        print(json.dumps(encaps(argv[1], argv[2])))
    elif argv[:1] == ["decaps"] and len(argv) == 4 and argv[1] in KEMS:
        print(decaps(argv[1], argv[2], argv[3]))
    elif argv == ["selftest"]:
        selftest()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
