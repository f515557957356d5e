#!/usr/bin/env python3
"""QR code vectors for ParleyWeb's QRCode, made by PyPI's qrcode 8.2 (an independent implementation of ISO/IEC 18004).

Writes Tests/ParleyLocalServiceTests/Vectors/qr.json: for each case the payload (hex), the error-correction level, the
version and mask qrcode used, and the symbol's modules row by row (hex, each row's bits packed most significant first,
padded to whole bytes). Every version 1–40 at level M and ten versions at L, Q and H, each filled to or near its
capacity (every block layout, the terminator and the pad codewords are exercised) with a forced mask, and a few
ordinary payloads (a link code, digits, a word) with qrcode's own choice of version and mask.

(segno 1.6.6 was tried first: it writes a zero byte where the standard puts the first pad codeword 0xEC when the bit
stream ends on a codeword boundary after the terminator — both read the same, but its modules are not the standard's.)

    .build/python/bin/pip install qrcode==8.2 && .build/python/bin/python3 Scripts/vectors/make_qr_vectors.py
"""
import json
import os

import qrcode
import qrcode.util

LEVELS = {"L": qrcode.constants.ERROR_CORRECT_L, "M": qrcode.constants.ERROR_CORRECT_M,
          "Q": qrcode.constants.ERROR_CORRECT_Q, "H": qrcode.constants.ERROR_CORRECT_H}


def symbol(payload, level, version=None, mask=None):
    code = qrcode.QRCode(version=version, error_correction=LEVELS[level], border=0, mask_pattern=mask)
    code.add_data(qrcode.util.QRData(payload, mode=qrcode.util.MODE_8BIT_BYTE))
    code.make(fit=version is None)
    return code


def capacity(version, level):
    """The most bytes qrcode puts in a byte-mode symbol of `version` at `level`."""
    low, high = 0, 2953
    while low < high:
        middle = (low + high + 1) // 2
        try:
            fits = symbol(b"A" * middle, level, None, 0).version <= version
        except ValueError:  # past version 40
            fits = False
        if fits:
            low = middle
        else:
            high = middle - 1
    return low


def case(payload, level, version=None, mask=None):
    code = symbol(payload, level, version, mask)
    rows = []
    for row in code.get_matrix():
        bits = "".join("1" if module else "0" for module in row)
        bits += "0" * (-len(bits) % 8)
        rows.append(bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)).hex())
    chosen = code.mask_pattern if code.mask_pattern is not None else code.best_mask_pattern()
    return {"payload": payload.hex(), "level": level, "version": code.version, "mask": chosen,
            "forcedVersion": version is not None, "rows": rows}


def main():
    cases = []
    for version in range(1, 41):
        size = capacity(version, "M") - (version % 3)
        payload = bytes((i * 37 + version * 11) & 0xFF for i in range(size))
        cases.append(case(payload, "M", version, version % 8))
    for level in ("L", "Q", "H"):
        for version in (1, 2, 5, 7, 10, 15, 21, 27, 32, 40):
            size = capacity(version, level) - (version % 2)
            payload = bytes((i * 53 + version) & 0xFF for i in range(size))
            cases.append(case(payload, level, version, (version + len(level) + ord(level)) % 8))
    link = b"parley://link?address=q1Xc0JmYpD7wE0uUyC2gD1tHqk6fN3sVZ8aR5bL4oMs&key=BQ3kq0f8V2c4sdT2y9Wm5x0aZcPq7LrN8uH1jK6gYt3e"
    cases.append(case(link, "M"))
    cases.append(case(b"123456789012345678901234567890123456789012345678901234567890", "Q"))
    cases.append(case(b"Parley", "H"))
    path = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "ParleyLocalServiceTests", "Vectors", "qr.json")
    with open(path, "w") as file:
        json.dump({"source": "qrcode 8.2", "cases": cases}, file, separators=(",", ":"))
    print(f"{len(cases)} cases written to {os.path.normpath(path)}")


if __name__ == "__main__":
    main()
