#!/usr/bin/env python3
"""Fails if a public symbol of the package's library modules has no doc comment.

Reads the symbol graphs written by `swift package dump-symbol-graph --minimum-access-level public`.
A symbol counts as documented when its own declaration has a doc comment; members that only satisfy a
protocol requirement of another module (e.g. `description`, `hash(into:)`) inherit that protocol's
documentation and are checked only when declared in one of our modules' own protocols.
Usage: .ci/doc-coverage.py <symbolgraph-dir> <Module> [<Module> ...]
"""
import json
import os
import sys

directory, modules = sys.argv[1], sys.argv[2:]
missing = []
checked = 0
for name in sorted(os.listdir(directory)):
    if not name.endswith(".symbols.json"):
        continue
    module = name.split(".symbols.json")[0].split("@")[0]
    if module not in modules:
        continue
    graph = json.load(open(os.path.join(directory, name)))
    # Symbols that implement a requirement of a protocol from outside our modules inherit its docs.
    inherited = set()
    for rel in graph.get("relationships", []):
        if rel.get("kind") in ("requirementOf", "optionalRequirementOf"):
            continue
        origin = rel.get("sourceOrigin")
        if origin and not any(origin.get("identifier", "").startswith(f"s:{len(m)}{m}") for m in modules):
            inherited.add(rel["source"])
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        identifier = symbol["identifier"]["precise"]
        if identifier in inherited:
            continue
        path = ".".join(symbol.get("pathComponents", []))
        location = symbol.get("location", {}).get("uri", "")
        if not location:
            continue  # synthesized by the compiler (memberwise, Equatable…): nothing to document
        checked += 1
        lines = (symbol.get("docComment") or {}).get("lines", [])
        if not any(line.get("text", "").strip() for line in lines):
            missing.append(f"{module}: {path}  ({location.split('/Sources/')[-1]})")

for entry in sorted(set(missing)):
    print("undocumented public symbol:", entry)
print(f"doc coverage: {checked - len(set(missing))}/{checked} public symbols documented in {', '.join(modules)}")
sys.exit(1 if missing else 0)
