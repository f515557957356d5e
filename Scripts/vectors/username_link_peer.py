#!/usr/bin/env python3
"""Reference username-link peer for live Swift tests, written from the format alone with pyca/cryptography
(pip install cryptography): HKDF-SHA256 of 32 bytes of entropy (no salt) gives an AES-256 key ("Signal Username Link
Encryption Key") and an HMAC key ("Signal Username Link Authentication Key"); the plaintext is the protobuf
UsernameData {1: username, 2: zero padding to 48 bytes}, AES-256-CBC with PKCS#7 under a random IV; the link's server
half is IV || ciphertext || HMAC-SHA256(IV || ciphertext).

  username_link_peer.py encrypt USERNAME ENTROPY_HEX   -> encrypted username hex
  username_link_peer.py decrypt ENTROPY_HEX DATA_HEX   -> the username, or "invalid" (exit 0)
"""
import hmac
import os
import sys

from cryptography.hazmat.primitives import hashes, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.hmac import HMAC
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def key(entropy: bytes, label: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=label).derive(entropy)


def mac(entropy: bytes, data: bytes) -> bytes:
    h = HMAC(key(entropy, b"Signal Username Link Authentication Key"), hashes.SHA256())
    h.update(data)
    return h.finalize()


def field(number: int, value: bytes) -> bytes:
    assert len(value) < 128
    return bytes([number << 3 | 2, len(value)]) + value


def encrypt(username: str, entropy: bytes) -> bytes:
    name = username.encode()
    pad = b"\0" * max(0, 48 - len(name))
    plaintext = field(1, name) + (field(2, pad) if pad else b"")
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plaintext) + padder.finalize()
    iv = os.urandom(16)
    enc = Cipher(algorithms.AES(key(entropy, b"Signal Username Link Encryption Key")), modes.CBC(iv)).encryptor()
    sealed = iv + enc.update(padded) + enc.finalize()
    return sealed + mac(entropy, sealed)


def decrypt(entropy: bytes, data: bytes) -> str:
    sealed, tag = data[:-32], data[-32:]
    if len(data) <= 48 or not hmac.compare_digest(mac(entropy, sealed), tag):
        return "invalid"
    dec = Cipher(algorithms.AES(key(entropy, b"Signal Username Link Encryption Key")), modes.CBC(sealed[:16])).decryptor()
    padded = dec.update(sealed[16:]) + dec.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    plaintext = unpadder.update(padded) + unpadder.finalize()
    if plaintext[0] != 0x0A:
        return "invalid"
    return plaintext[2 : 2 + plaintext[1]].decode()


if __name__ == "__main__":
    if sys.argv[1] == "encrypt":
        print(encrypt(sys.argv[2], bytes.fromhex(sys.argv[3])).hex())
    elif sys.argv[1] == "decrypt":
        print(decrypt(bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3])))
    else:
        sys.exit(f"unknown command {sys.argv[1]}")
