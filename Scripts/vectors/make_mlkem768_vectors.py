#!/usr/bin/env python3
"""Known answers for SPQR's incremental ML-KEM-768 encapsulation, from PyPI kyber-py's deterministic internals.

  make_mlkem768_vectors.py   (needs `pip install kyber-py==1.2.0`; `make test` has it in .build/python)

Writes Tests/ParleyProtocolTests/Vectors/mlkem768_kat.json: for deterministic key seeds and messages m, the
encapsulation key ek = ByteEncode12(t̂) ‖ ρ, the shared secret K and the ciphertext c = ct1 ‖ ct2 that FIPS 203's
ML-KEM.Encaps_internal(ek, m) gives. Parley computes ct1 from ρ and SHA3-256(ek) alone (encaps1) and ct2 once t̂
arrives (encaps2); together they must equal c byte for byte.
"""
import hashlib
import json
import os

from kyber_py.ml_kem import ML_KEM_768

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out = os.path.join(root, "Tests", "ParleyProtocolTests", "Vectors", "mlkem768_kat.json")

cases = []
for i in range(8):
    seed = hashlib.sha512(b"parley mlkem768 seed %d" % i).digest()
    m = hashlib.sha256(b"parley mlkem768 message %d" % i).digest()
    ek, dk = ML_KEM_768.key_derive(seed)
    assert (ek, dk) == ML_KEM_768._keygen_internal(seed[:32], seed[32:])
    key, c = ML_KEM_768._encaps_internal(ek, m)
    assert ML_KEM_768.decaps(dk, c) == key
    assert len(ek) == 1184 and len(c) == 1088
    cases.append({"seed": seed.hex(), "ek": ek.hex(), "m": m.hex(), "shared_secret": key.hex(), "ciphertext": c.hex()})

json.dump({"comment": "ML-KEM-768 (FIPS 203) Encaps_internal(ek, m) from kyber-py 1.2.0 by Scripts/vectors/make_mlkem768_vectors.py; "
                      "seed = d ‖ z for key_derive", "cases": cases}, open(out, "w"), indent=1)
print("wrote", out)
