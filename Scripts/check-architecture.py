#!/usr/bin/env python3
"""Checks ParleyKit's folder layering: each folder may use only the folders below it in LAYERS.

A folder "uses" another when one of its files names a type declared at the top level of a file in the other folder
(structs, classes, enums, actors, protocols, typealiases). The order is written in docs/ARCHITECTURE.md; this script
is what keeps it true (`make check` runs it). Exit 0 when every use goes down the layers, 1 with each upward use listed.
"""
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "ParleyKit")

# Lowest first: a folder may use those before it in this list, never those after it.
LAYERS = ["Generated", "Support", "Content", "Attachments", "Model", "Transport", "ContentDetection", "Storage", "Account",
          "Backup", "Messaging", "Client"]

DECLARATION = re.compile(r"^(?:@[\w()\", ]+\s+)*(?:(?:public|internal|fileprivate|private|package|final|indirect|nonisolated)\s+)*"
                         r"(?:struct|class|enum|actor|protocol|typealias)\s+([A-Z]\w*)", re.M)
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")
COMMENT = re.compile(r"//.*$", re.M)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def folder_of(path):
    relative = os.path.relpath(path, ROOT)
    return relative.split(os.sep)[0] if os.sep in relative else "Support"


def swift_files():
    for directory, _, files in os.walk(ROOT):
        for name in sorted(files):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def main():
    declared_in = {}
    sources = {}
    for path in swift_files():
        text = open(path, encoding="utf-8").read()
        sources[path] = STRING.sub('""', COMMENT.sub("", text))
        for name in DECLARATION.findall(sources[path]):
            declared_in.setdefault(name, folder_of(path))
    unknown = sorted({folder_of(path) for path in sources} - set(LAYERS))
    if unknown:
        print(f"check-architecture: folders not in the layer list: {', '.join(unknown)} (add them to LAYERS and docs/ARCHITECTURE.md)")
        return 1
    rank = {folder: index for index, folder in enumerate(LAYERS)}
    upward = defaultdict(set)
    for path, text in sources.items():
        folder = folder_of(path)
        for name in set(IDENTIFIER.findall(text)):
            used = declared_in.get(name)
            if used and rank[used] > rank[folder]:
                upward[(folder, used)].add(f"{os.path.relpath(path, ROOT)} uses {name}")
    if not upward:
        print("check-architecture: ParleyKit's folders use only the layers below them: " + " < ".join(LAYERS))
        return 0
    for (folder, used), uses in sorted(upward.items()):
        print(f"{folder} uses {used}, which is above it:")
        for use in sorted(uses):
            print(f"    {use}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
