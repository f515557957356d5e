#!/usr/bin/env python3
"""Known answers for Signal's attachment format, made with PyCA `cryptography` (an independent AES/HMAC/SHA-256).

Blob = IV (16) || AES-256-CBC-PKCS7(plaintext || zero padding to paddedSize(n)) || HMAC-SHA256(macKey, IV || ct),
digest = SHA-256(blob), paddedSize(n) = max(541, floor(1.05 ** ceil(log(n) / log(1.05)))).

    python3 Scripts/vectors/make_attachment_vectors.py > Tests/ParleyKitTests/Vectors/attachment_kat.json
"""
import hashlib
import hmac
import json
import math

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def padded_size(n: int) -> int:
    if n <= 0:
        return 541
    return max(541, math.floor(1.05 ** math.ceil(math.log(n) / math.log(1.05))))


def encrypt(plaintext: bytes, aes_key: bytes, mac_key: bytes, iv: bytes) -> bytes:
    body = plaintext + b"\0" * (padded_size(len(plaintext)) - len(plaintext))
    padder = padding.PKCS7(128).padder()
    padded = padder.update(body) + padder.finalize()
    encryptor = Cipher(algorithms.AES(aes_key), modes.CBC(iv)).encryptor()
    ciphertext = encryptor.update(padded) + encryptor.finalize()
    tag = hmac.new(mac_key, iv + ciphertext, hashlib.sha256).digest()
    return iv + ciphertext + tag


def main() -> None:
    cases = []
    for index, length in enumerate([0, 1, 15, 16, 541, 542, 1000, 5000, 70000]):
        seed = hashlib.sha256(b"parley-attachment-%d" % index).digest()
        keys = hashlib.sha512(seed).digest()
        iv = hashlib.sha256(seed + b"iv").digest()[:16]
        plaintext = bytes((i * 7 + index) % 256 for i in range(length))
        blob = encrypt(plaintext, keys[:32], keys[32:], iv)
        cases.append({
            "plaintext_length": length,
            "plaintext_sha256": hashlib.sha256(plaintext).hexdigest(),
            "keys": keys.hex(),
            "iv": iv.hex(),
            "blob_length": len(blob),
            "blob_sha256": hashlib.sha256(blob).hexdigest(),
            "blob_prefix": blob[:64].hex(),
            "mac": blob[-32:].hex(),
        })
    sizes = {str(n): padded_size(n) for n in [1, 100, 541, 542, 600, 1024, 10_000, 1_000_000, 50 * 1024 * 1024]}
    print(json.dumps({"source": "PyCA cryptography " + __import__("cryptography").__version__,
                      "padded_sizes": sizes, "cases": cases}, indent=1))


if __name__ == "__main__":
    main()
