#!/usr/bin/env python3
"""Known answers for SPQR V1's building blocks, computed from ../shared/SPQR-NOTES.md §1.4–1.5 with hashlib/hmac.

  make_spqr_vectors.py   (no packages needed)

Writes Tests/ParleyProtocolTests/Vectors/spqr_kat.json:
  - chain: the per-direction message keys of the SPQR chain (start, keys, an added epoch);
  - authenticator: root/MAC key updates, the header and ciphertext MACs;
  - epoch_secret: the SCKA key from an ML-KEM shared secret;
  - codec: `pq_ratchet` messages (not protobuf) and their bytes;
  - erasure: the systematic Reed-Solomon code over GF(2^16) (x^16+x^12+x^3+x+1): chunks of messages of 3, 5,
    30 and 36 chunks, parity chunks included.

There are no published vectors for SPQR: these pin Parley's reading of the notes (an independent Python
implementation of the same text), not libsignal's behaviour.
"""
import hashlib
import hmac
import json
import os

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out = os.path.join(root, "Tests", "ParleyProtocolTests", "Vectors", "spqr_kat.json")


def hkdf(ikm, info, length, salt=b"\0" * 32):
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    okm, block, counter = b"", b"", 1
    while len(okm) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        okm += block
        counter += 1
    return okm[:length]


def be64(n):
    return n.to_bytes(8, "big")


def be32(n):
    return n.to_bytes(4, "big")


def det(label, n):
    """Deterministic test bytes."""
    data = b""
    counter = 0
    while len(data) < n:
        data += hashlib.sha256(label.encode() + counter.to_bytes(4, "big")).digest()
        counter += 1
    return data[:n]


# --- chain ---------------------------------------------------------------------------------------------
def chain_start(auth_key):
    okm = hkdf(auth_key, b"Signal PQ Ratchet V1 Chain  Start", 96)
    return okm[:32], okm[32:64], okm[64:96]


def chain_add_epoch(next_root, secret):
    okm = hkdf(secret, b"Signal PQ Ratchet V1 Chain Add Epoch", 96, salt=next_root)
    return okm[:32], okm[32:64], okm[64:96]


def chain_keys(seed, count):
    keys, nxt = [], seed
    for ctr in range(1, count + 1):
        okm = hkdf(nxt, be32(ctr) + b"Signal PQ Ratchet V1 Chain Next", 64)
        nxt, key = okm[:32], okm[32:]
        keys.append(key.hex())
    return keys


auth_key = det("spqr auth key", 32)
next_root, a2b, b2a = chain_start(auth_key)
secret1 = det("spqr epoch 1 secret", 32)
next_root1, a2b1, b2a1 = chain_add_epoch(next_root, secret1)
chain = {
    "auth_key": auth_key.hex(),
    "start": {"next_root": next_root.hex(), "a2b_seed": a2b.hex(), "b2a_seed": b2a.hex(),
              "a2b_keys": chain_keys(a2b, 5), "b2a_keys": chain_keys(b2a, 5)},
    "add_epoch": {"secret": secret1.hex(), "next_root": next_root1.hex(), "a2b_keys": chain_keys(a2b1, 3),
                  "b2a_keys": chain_keys(b2a1, 3)},
    "key_30000_a2b": chain_keys(a2b, 30000)[-1],
}

# --- authenticator -------------------------------------------------------------------------------------
def auth_update(state, epoch, key):
    okm = hkdf(state[0] + key, b"Signal_PQCKA_V1_MLKEM768:Authenticator Update" + be64(epoch), 64)
    return (okm[:32], okm[32:])


state = auth_update((b"\0" * 32, b"\0" * 32), 1, auth_key)
hdr = det("spqr hdr", 64)
ct1, ct2 = det("spqr ct1", 960), det("spqr ct2", 128)
hdr_mac = hmac.new(state[1], b"Signal_PQCKA_V1_MLKEM768:ekheader" + be64(1) + hdr, hashlib.sha256).digest()
ct_mac = hmac.new(state[1], b"Signal_PQCKA_V1_MLKEM768:ciphertext" + be64(1) + ct1 + ct2, hashlib.sha256).digest()
kem_secret = det("spqr ml-kem shared secret", 32)
epoch_secret = hkdf(kem_secret, b"Signal_PQCKA_V1_MLKEM768:SCKA Key" + be64(1), 32)
state2 = auth_update(state, 2, epoch_secret)
authenticator = {
    "auth_key": auth_key.hex(),
    "after_update_1": {"root": state[0].hex(), "mac_key": state[1].hex()},
    "hdr": hdr.hex(), "hdr_mac_epoch_1": hdr_mac.hex(),
    "ct1": ct1.hex(), "ct2": ct2.hex(), "ct_mac_epoch_1": ct_mac.hex(),
    "after_update_2": {"secret": epoch_secret.hex(), "root": state2[0].hex(), "mac_key": state2[1].hex()},
}
epoch = {"kem_shared_secret": kem_secret.hex(), "epoch": 1, "secret": epoch_secret.hex()}

# --- codec ---------------------------------------------------------------------------------------------
def varint(n):
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


TYPES = {"none": 0, "hdr": 1, "ek": 2, "ekCt1Ack": 3, "ct1Ack": 4, "ct1": 5, "ct2": 6}
codec = []
for kind, ep, index, chunk_index in [("none", 1, 0, None), ("hdr", 1, 1, 0), ("ek", 1, 300, 35), ("ekCt1Ack", 2, 7, 200),
                                     ("ct1Ack", 3, 2**32 - 1, None), ("ct1", 2**63, 127, 65535), ("ct2", 129, 128, 4)]:
    data = bytes([1]) + varint(ep) + varint(index) + bytes([TYPES[kind]])
    chunk = None
    if chunk_index is not None:
        chunk = det(f"chunk {kind}", 32)
        data += varint(chunk_index) + chunk
    codec.append({"type": kind, "epoch": ep, "index": index, "chunk_index": chunk_index,
                  "chunk": chunk.hex() if chunk else None, "bytes": data.hex()})

# --- erasure code over GF(2^16) ------------------------------------------------------------------------
POLY = 0x1100B


def gf_mul(a, b):
    result = 0
    while b:
        if b & 1:
            result ^= a
        b >>= 1
        a <<= 1
        if a & 0x10000:
            a ^= POLY
    return result


def gf_pow(a, n):
    result = 1
    while n:
        if n & 1:
            result = gf_mul(result, a)
        a = gf_mul(a, a)
        n >>= 1
    return result


def gf_inv(a):
    return gf_pow(a, 2**16 - 2)


def lagrange(points, x):
    """The value at x of the polynomial through points [(xi, yi)]."""
    total = 0
    for i, (xi, yi) in enumerate(points):
        term = yi
        for j, (xj, _) in enumerate(points):
            if i != j:
                term = gf_mul(term, gf_mul(x ^ xj, gf_inv(xi ^ xj)))
        total ^= term
    return total


def encode_chunk(message, k):
    n = len(message) // 32
    values = [int.from_bytes(message[2 * j:2 * j + 2], "big") for j in range(len(message) // 2)]
    if k < n:
        return message[32 * k:32 * k + 32]
    chunk = b""
    for poly in range(16):
        points = [(x, values[x * 16 + poly]) for x in range(n)]
        chunk += lagrange(points, k).to_bytes(2, "big")
    return chunk


erasure = []
for label, length, extra in [("hdr", 96, 4), ("ct2", 160, 3), ("ct1", 960, 2), ("ek", 1152, 2)]:
    message = det(f"erasure {label}", length)
    n = length // 32
    erasure.append({"message": message.hex(), "chunks": [encode_chunk(message, k).hex() for k in range(n + extra)],
                    "parity_at_1000": encode_chunk(message, 1000).hex()})

json.dump({
    "comment": "SPQR V1 building blocks computed from SPQR-NOTES.md by Scripts/vectors/make_spqr_vectors.py (hashlib/hmac); "
               "no published vectors exist, so these pin Parley's reading of the notes, not libsignal's behaviour",
    "chain": chain, "authenticator": authenticator, "epoch_secret": epoch, "codec": codec, "erasure": erasure,
}, open(out, "w"), indent=1)
print("wrote", out)
