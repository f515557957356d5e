#!/usr/bin/env python3
"""Checks the folder layering of ParleyKit, ParleyCompat and ParleyServer: each folder may use only the folders below
it in its module's LAYERS.

A folder "uses" another when one of its files names a type declared at the top level of a file in the other folder
(structs, classes, enums, actors, protocols, typealiases). The order is written in docs/ARCHITECTURE.md; this script
is what keeps it true (`make check` runs it). Exit 0 when every use goes down the layers, 1 with each upward use listed.
"""
import os
import re
import sys
from collections import defaultdict

SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")

# Lowest first, per module: a listed folder may use the listed folders before it, never those after it, nor any folder
# the list leaves out. Files at a module's top level count as the folder TOP_LEVEL names. ParleyServer's list is
# partial: its feature folders (Accounts, Messages, Realtime, …) call each other through the services its top-level
# composition wires, but its foundations — Support, then Storage — use nothing above them.
MODULES = {
    "ParleyKit": ["Generated", "Support", "Content", "Attachments", "Model", "Transport", "ContentDetection", "Storage",
                  "Account", "Backup", "Groups", "Messaging", "Client"],
    "ParleyCompat": ["Support", "JSONRPC", "Client", "SignalCLI", "Daemon", "RestAPI"],
    "ParleyServer": ["Support", "Storage"],
    "ParleyWeb": ["QR", "Server", "API", "Composition"],
}
TOP_LEVEL = {"ParleyKit": "Support", "ParleyCompat": "Support", "ParleyServer": "Composition", "ParleyWeb": "Composition"}
PARTIAL = {"ParleyServer"}

DECLARATION = re.compile(r"^(?:@[\w()\", ]+\s+)*(?:(?:public|internal|fileprivate|private|package|final|indirect|nonisolated)\s+)*"
                         r"(?:struct|class|enum|actor|protocol|typealias)\s+([A-Z]\w*)", re.M)
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")
COMMENT = re.compile(r"//.*$", re.M)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def folder_of(root, path, top_level="Support"):
    relative = os.path.relpath(path, root)
    return relative.split(os.sep)[0] if os.sep in relative else top_level


def swift_files(root):
    for directory, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def main():
    failed = 0
    for module, layers in MODULES.items():
        failed |= check(module, layers)
    return failed


def check(module, layers):
    """Checks one module's folders against `layers`; 0 when every use goes down them, 1 otherwise."""
    root = os.path.join(SOURCES, module)
    folder_of_path = lambda path: folder_of(root, path, TOP_LEVEL[module])
    declared_in = {}
    sources = {}
    for path in swift_files(root):
        text = open(path, encoding="utf-8").read()
        sources[path] = STRING.sub('""', COMMENT.sub("", text))
        for name in DECLARATION.findall(sources[path]):
            declared_in.setdefault(name, folder_of_path(path))
    unknown = sorted({folder_of_path(path) for path in sources} - set(layers))
    if unknown and module not in PARTIAL:
        print(f"check-architecture: {module}'s folders not in its layer list: {', '.join(unknown)} "
              "(add them to MODULES and docs/ARCHITECTURE.md)")
        return 1
    rank = {folder: index for index, folder in enumerate(layers)}
    upward = defaultdict(set)
    for path, text in sources.items():
        folder = folder_of_path(path)
        if folder not in rank:
            continue  # a folder a partial list leaves out: unchecked
        for name in set(IDENTIFIER.findall(text)):
            used = declared_in.get(name)
            if used and used != folder and rank.get(used, len(layers)) > rank[folder]:
                upward[(folder, used)].add(f"{os.path.relpath(path, root)} uses {name}")
    if not upward:
        scope = "foundations" if module in PARTIAL else "folders"
        print(f"check-architecture: {module}'s {scope} use only the layers below them: " + " < ".join(layers))
        return 0
    for (folder, used), uses in sorted(upward.items()):
        print(f"{module}: {folder} uses {used}, which is above it:")
        for use in sorted(uses):
            print(f"    {use}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
