#!/usr/bin/env python3
"""The import graph of the core crate (crates/tcgen05/src) between its rooms: each top-level
folder or file is one node, except that Table 39 (`mma/shapes.rs`) is a node apart from the MMA
parameter enums of `mma/mod.rs` (the descriptors use the enums, Table 39 uses the descriptors).
Edges are `crate::X` paths outside test code and comments; a flat public path re-exported from a
concept folder (`pub use tmem::{data_path, ...}` in lib.rs) counts for its folder.

Prints every node with its edges and non-test line count, the import circles (strongly connected
components of more than one node) and the files over LIMIT non-test lines. Exits 1 when there is
a circle. Usage: scripts/core-imports.py [SRC_DIR] [--limit N]
"""
import os
import re
import sys

args = [a for a in sys.argv[1:]]
limit = 1200
if "--limit" in args:
    i = args.index("--limit")
    limit = int(args[i + 1])
    del args[i : i + 2]
root = args[0] if args else os.path.join(os.path.dirname(__file__), "../crates/tcgen05/src")

lib = open(os.path.join(root, "lib.rs")).read()
alias = {}
for folder, names in re.findall(r"^pub use (\w+)::\{?([\w, ]+)\}?;", lib, re.M):
    if os.path.isdir(os.path.join(root, folder)):
        for n in re.split(r"[,\s]+", names):
            if n and n[0].islower():
                alias[n] = folder
alias["shapes"] = "mma::shapes"

nodes = set()
for n in os.listdir(root):
    if n == "lib.rs":
        continue
    if n.endswith(".rs"):
        nodes.add(n[:-3])
    elif os.path.isdir(os.path.join(root, n)):
        nodes.add(n)
if os.path.isfile(os.path.join(root, "mma", "shapes.rs")):
    nodes.add("mma::shapes")


def files(node):
    if node == "mma::shapes":
        yield os.path.join(root, "mma", "shapes.rs")
        return
    p = os.path.join(root, node)
    if os.path.isdir(p):
        for d, _, fs in os.walk(p):
            for f in sorted(fs):
                if node == "mma" and d == p and f == "shapes.rs":
                    continue
                if f.endswith(".rs"):
                    yield os.path.join(d, f)
    if os.path.isfile(p + ".rs"):
        yield p + ".rs"


def non_test(path):
    """The file's code without its test module and comments."""
    if os.path.basename(path) == "tests.rs" or "/tests/" in path:
        return []
    src = open(path).read()
    # The test module, possibly with attributes between `#[cfg(test)]` and `mod tests`.
    m = re.search(r"^#\[cfg\(test\)\]\n(?:#\[[^\n]*\]\n)*mod tests", src, re.M)
    if m:
        src = src[: m.start()]
    return [l for l in src.split("\n") if not l.lstrip().startswith("//")]


def node_of(name, rest):
    if name == "mma" and rest == "shapes":
        return "mma::shapes"
    return alias.get(name, name)


edges = {n: set() for n in nodes}
sizes = {}
for n in sorted(nodes):
    for f in files(n):
        code = non_test(f)
        sizes[os.path.relpath(f, root)] = len(code)
        text = "\n".join(code)
        for m in re.finditer(r"crate::(\w+)(?:::(\w+))?", text):
            t = node_of(m.group(1), m.group(2))
            if t in edges and t != n:
                edges[n].add(t)
        for m in re.finditer(r"crate::\{([^}]*)\}", text, re.S):
            for item in re.split(r",", m.group(1)):
                parts = item.strip().split("::")
                if parts and parts[0]:
                    t = node_of(parts[0], parts[1] if len(parts) > 1 else None)
                    if t in edges and t != n:
                        edges[n].add(t)

# Tarjan's strongly connected components.
index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        comps.append(sorted(comp))


for v in sorted(nodes):
    if v not in index:
        visit(v)

for n in sorted(nodes):
    lines = sum(sizes.get(os.path.relpath(f, root), 0) for f in files(n))
    print(f"{n:26} {lines:6}  -> {', '.join(sorted(edges[n]))}")
circles = [c for c in comps if len(c) > 1]
big = sorted((s, f) for f, s in sizes.items() if s > limit)
print(f"rooms: {len(nodes)}; files: {len(sizes)}; import circles: {len(circles)}")
for c in circles:
    print("  circle:", " <-> ".join(c))
print(f"files over {limit} non-test lines: {len(big)}")
for s, f in reversed(big):
    print(f"  {f}: {s}")
sys.exit(1 if circles else 0)
