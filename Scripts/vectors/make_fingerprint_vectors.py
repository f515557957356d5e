#!/usr/bin/env python3
"""Safety-number known answers from Signal's C library (the interop kit's reference peer).

  make_fingerprint_vectors.py [PEER]   (default ../shared/interop/peer; build it with `make -C ../shared/interop peer`)

Writes Tests/ParleyProtocolTests/Vectors/fingerprint_kat.json: for deterministic keys and names,
the displayable and scannable fingerprints that libsignal-protocol-c computes.
"""
import base64
import hashlib
import json
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
peer = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "shared", "interop", "peer")
process = subprocess.Popen([peer], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def call(**request):
    process.stdin.write(json.dumps(request) + "\n")
    process.stdin.flush()
    reply = json.loads(process.stdout.readline())
    assert reply.get("ok"), reply
    return reply


cases = []
names = ["+14155550101", "alice", "", "9d0652a3-dcc3-4d11-975f-74d61598733f", "ünïcödé"]
for i in range(8):
    # Public keys: 0x05 || 32 bytes derived from a counter (any 32 bytes are a valid u-coordinate here).
    local_key = b"\x05" + hashlib.sha256(b"parley-fp-local-%d" % i).digest()
    remote_key = b"\x05" + hashlib.sha256(b"parley-fp-remote-%d" % i).digest()
    local_name, remote_name = names[i % len(names)], names[(i + 2) % len(names)]
    iterations = [5200, 1024, 1][i % 3]
    for version in (0, 1):
        reply = call(cmd="fingerprint", local_name=local_name, local_identity_key_b64=base64.b64encode(local_key).decode(),
                     remote_name=remote_name, remote_identity_key_b64=base64.b64encode(remote_key).decode(),
                     iterations=iterations, scannable_version=version)
        cases.append({"local_name": local_name, "local_key_hex": local_key.hex(), "remote_name": remote_name,
                      "remote_key_hex": remote_key.hex(), "iterations": iterations, "scannable_version": version,
                      "displayable": reply["displayable"], "scannable_b64": reply["scannable_b64"]})
call(cmd="quit")
out = os.path.join(root, "Tests", "ParleyProtocolTests", "Vectors", "fingerprint_kat.json")
with open(out, "w") as f:
    json.dump({"comment": "Made by Scripts/vectors/make_fingerprint_vectors.py with libsignal-protocol-c (../shared/interop/peer).",
               "cases": cases}, f, indent=2, ensure_ascii=False)
    f.write("\n")
print("wrote %d cases to %s" % (len(cases), out))
