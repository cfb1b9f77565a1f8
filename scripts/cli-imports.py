#!/usr/bin/env python3
"""The module import graph of the tcgen05 command (crates/tcgen05-cli/src): which module names
which other module through `crate::` paths (test modules left out), its cycles, and each file's
non-test line count. Usage: scripts/cli-imports.py [SRC_DIR]"""
import os, re, sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../crates/tcgen05-cli/src")
mods = {}
for root, _, files in os.walk(src):
    for f in files:
        if not f.endswith(".rs"):
            continue
        rel = os.path.relpath(os.path.join(root, f), src)[:-3].split(os.sep)
        if rel[-1] == "mod":
            rel = rel[:-1]
        if rel in (["lib"], ["main"]):
            rel = [rel[0]]
        name = "::".join(rel)
        text = open(os.path.join(root, f)).read()
        text = text.split("#[cfg(test)]\nmod tests")[0]
        mods[name] = text

names = set(mods)
def target(path):
    parts = path.split("::")
    for n in range(len(parts), 0, -1):
        cand = "::".join(parts[:n])
        if cand in names:
            return cand
    return None

edges = {}
for name, text in mods.items():
    deps = set()
    # `use crate::{a, b::c}` groups and plain `crate::x::y` paths.
    for m in re.finditer(r"crate::\{([^}]*)\}", text, re.S):
        for item in re.split(r"[,\s]+", m.group(1)):
            item = item.strip().split("::{")[0]
            if item:
                deps.add(target(item.split(" as ")[0]) )
    for m in re.finditer(r"crate::((?:[a-z_0-9]+::)*[a-z_0-9]+)", text):
        deps.add(target(m.group(1)))
    # `super::x` from a module names a sibling (or the parent); `use x::` in a `mod.rs` names
    # a child.
    parent = "::".join(name.split("::")[:-1])
    for m in re.finditer(r"(?<![a-z_:])super::\{([^}]*)\}", text, re.S):
        for item in re.split(r"[,\s]+", m.group(1)):
            item = item.strip().split("::{")[0]
            if item:
                path = (parent + "::" if parent else "") + item
                deps.add(target(path) or (parent or None))
    for m in re.finditer(r"(?<![a-z_:])super::((?:[a-z_0-9]+::)*[a-z_0-9A-Z]+)", text):
        path = (parent + "::" if parent else "") + m.group(1)
        deps.add(target(path) or (parent or None))
    if name not in ("main",):
        prefix = "" if name == "lib" else name + "::"
        for m in re.finditer(r"(?<![a-z_0-9:])([a-z_0-9]+)::", text):
            child = prefix + m.group(1)
            if child in names and child != name:
                deps.add(child)
    if name == "main":
        for m in re.finditer(r"tcgen05_cli::((?:[a-z_0-9]+::)*[a-z_0-9]+)", text):
            deps.add(target(m.group(1)))
        for m in re.finditer(r"tcgen05_cli::\{([^;]*)\};", text, re.S):
            for item in re.split(r"[,\s]+", m.group(1)):
                item = item.strip().split("::{")[0]
                if item:
                    deps.add(target(item))
    deps.discard(None)
    deps.discard(name)
    # A module naming its own child or parent through crate:: is not a dependency between files
    # of interest when it is its own submodule declaration; keep all edges as written.
    edges[name] = sorted(deps)

for name in sorted(edges):
    lines = len(mods[name].rstrip("\n").split("\n"))
    print(f"{name:24} {lines:5}  -> {', '.join(edges[name])}")

# Cycles: strongly connected components with more than one module.
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
def strong(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in edges.get(v, []):
        if w not in index:
            strong(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(edges):
    if v not in index:
        strong(v)
print(f"modules: {len(edges)}; import cycles: {len(sccs)}")
for c in sccs:
    print("  cycle:", " <-> ".join(c))

# Layers: main uses commands, which use args and render; args and render use only the core.
LAYER = {"main": 3, "lib": 3, "commands": 2, "args": 1, "render": 1}
def layer(m):
    return LAYER.get(m.split("::")[0])
bad = []
for v, ws in sorted(edges.items()):
    for w in ws:
        lv, lw = layer(v), layer(w)
        top_v, top_w = v.split("::")[0], w.split("::")[0]
        if lv is None or lw is None or top_v == top_w or v in ("lib",):
            continue
        if lw >= lv:
            bad.append(f"{v} -> {w}")
print(f"imports against the layers (args/render -> commands/main, args <-> render): {len(bad)}")
for b in bad:
    print("  " + b)
sys.exit(1 if sccs or bad else 0)
