#!/usr/bin/env python3
"""Lists the async frame ("context") size of every async function in a Swift binary, largest first.

An async function's frame comes from its task's allocator, and a task keeps the slabs its deepest chain of calls ever
needed until it ends. For a task that lives as long as a connection (a WebSocket's reader and delivery loop), the sum
of the frames on its deepest chain is memory held per connection. Swift records each async function's frame size in
its "async function pointer" (symbols ending in `Tu`): a 32-bit relative offset to the function, then the 32-bit
size. This reads them with `nm` and `readelf` and demangles with `swift demangle`.

Usage: Scripts/async-frame-sizes.py BINARY [SUBSTRING] [COUNT]
  e.g. Scripts/async-frame-sizes.py .build/release/parley-server SocketSession
"""
import struct
import subprocess
import sys


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    wanted = sys.argv[2] if len(sys.argv) > 2 else ""
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 40

    symbols = []
    for line in subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2].endswith("Tu"):
            symbols.append((int(fields[0], 16), fields[2]))

    segments = []  # (virtual address, file offset, size) of each loaded segment
    for line in subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if fields and fields[0] == "LOAD":
            segments.append((int(fields[2], 16), int(fields[1], 16), int(fields[4], 16)))

    with open(binary, "rb") as file:
        image = file.read()
    sizes = []
    for address, name in symbols:
        for start, offset, length in segments:
            if start <= address < start + length:
                position = offset + address - start
                _, size = struct.unpack("<iI", image[position:position + 8])
                sizes.append((size, name))
                break

    names = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(name for _, name in sizes),
                           capture_output=True, text=True, check=True).stdout.splitlines()
    rows = [(size, name.removeprefix("async function pointer to ")) for (size, _), name in zip(sizes, names)]
    rows = [row for row in rows if wanted in row[1]]
    for size, name in sorted(rows, key=lambda row: -row[0])[:count]:
        print(f"{size:6d}  {name}")


if __name__ == "__main__":
    main()
