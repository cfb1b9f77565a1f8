#!/usr/bin/env python3
"""The import graph of the core crate (crates/tcgen05/src) between its rooms: each top-level
folder or file is one node, except that Table 39 (`mma/shapes.rs`) is a node apart from the MMA
parameter enums of `mma/mod.rs` (the descriptors use the enums, Table 39 uses the descriptors).
Edges are `crate::X` paths outside test code and comments; a flat public path re-exported from a
concept folder (`pub use tmem::{data_path, ...}` in lib.rs) counts for its folder.

Inside each folder below the root, the same graph at file level: each file (other than `mod.rs`
and `tests.rs`) and each subfolder is a node, and a file imports another when it names an item
defined there, directly (`super::decode::f`) or through the folder's re-exports (`super::f`, found
by where `f` is defined). `mod.rs` re-exporting its children is not an edge.

A file other than `mod.rs` that imports its parent with `use super::*` outside its tests fails
too: files import what they use by name.

Prints every node with its edges and non-test line count, the import circles (strongly connected
components of more than one node, rooms and files) and the files over LIMIT non-test lines.
Exits 1 when there is a circle. Usage: scripts/core-imports.py [SRC_DIR] [--limit N]
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

def components(nodes, edges):
    """Tarjan's strongly connected components of a graph."""
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
    return comps


comps = components(nodes, edges)

for n in sorted(nodes):
    lines = sum(sizes.get(os.path.relpath(f, root), 0) for f in files(n))
    print(f"{n:26} {lines:6}  -> {', '.join(sorted(edges[n]))}")
circles = [c for c in comps if len(c) > 1]

# File level, inside each folder below the root.
DEF = re.compile(
    r"^(?:pub(?:\([^)]*\))?\s+)?(?:const fn|fn|struct|enum|const|static|type|trait|union|mod)\s+(\w+)",
    re.M,
)
MACRO_ITEMS = re.compile(r"^\s*(?:pub\s+)?(?:const|enum)\s+(\w+)", re.M)


def module_of(path):
    """The module path of a source file, as a tuple of names."""
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    return tuple(rel[:-1]) if rel[-1] == "mod" else tuple(rel)


all_files = [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".rs")]
modules = {module_of(f): f for f in all_files if os.path.basename(f) != "lib.rs"}
defined = {}
for m, f in modules.items():
    code = "\n".join(non_test(f))
    names = set(DEF.findall(code))
    if os.path.basename(f) == "mod.rs":
        # Items a `bit_layout!` or `problem_set!` table in mod.rs makes.
        names |= set(MACRO_ITEMS.findall(code))
    defined[m] = names
aliases = {k: tuple(v.split("::")) for k, v in alias.items()}


def resolve(mod, path):
    """The module (file) that defines the item `path` names, seen from module `mod`."""
    parts = path.split("::")
    if parts[0] == "crate":
        rest = parts[1:]
        if rest and rest[0] in aliases:
            rest = list(aliases[rest[0]]) + rest[1:]
        base = ()
    elif parts[0] == "super":
        base = mod[:-1]
        rest = parts[1:]
        while rest and rest[0] == "super":
            base = base[:-1]
            rest = rest[1:]
    elif parts[0] == "self":
        base, rest = mod, parts[1:]
    else:
        return None
    cur = base
    for i, name in enumerate(rest):
        if cur + (name,) in modules:
            cur = cur + (name,)
            continue
        # `name` is an item of module `cur`, or of a child it re-exports.
        if name in defined.get(cur, ()):
            return cur
        for child in sorted(m for m in modules if m[:-1] == cur):
            if name in defined.get(child, ()):
                return child
        return cur
    return cur


def imported_paths(code):
    """Every path a file's code names: `use` trees flattened, and paths written inline."""
    paths = []
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        tree = re.sub(r"\s+", "", m.group(1))
        stack = [("", tree)]
        while stack:
            prefix, t = stack.pop()
            b = t.find("{")
            if b < 0:
                for item in t.split(","):
                    if item:
                        paths.append(prefix + item.split(" as ")[0])
                continue
            head, body = t[:b], t[b + 1 : t.rfind("}")]
            depth, start = 0, 0
            for i, c in enumerate(body + ","):
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                elif c == "," and depth == 0:
                    if body[start:i]:
                        stack.append((prefix + head, body[start:i]))
                    start = i + 1
    for m in re.finditer(r"\b((?:crate|super)(?:::\w+)+)", code):
        paths.append(m.group(1))
    return paths


file_edges = {}
for m, f in modules.items():
    if os.path.basename(f) in ("tests.rs",) or len(m) == 0:
        continue
    code = "\n".join(non_test(f))
    for p in imported_paths(code):
        t = resolve(m, p)
        if t is None or t == m:
            continue
        common = 0
        while common < min(len(m), len(t)) and m[common] == t[common]:
            common += 1
        folder = m[:common]
        if len(folder) == 0 or len(m) <= common or len(t) <= common:
            continue  # the root's rooms, or an item of the folder's own mod.rs
        a, b = folder + (m[common],), folder + (t[common],)
        file_edges.setdefault(folder, {}).setdefault(a, set()).add(b)

# File-level circles allowed to remain: none (the last, Tensor Memory's, was broken by moving
# the checks that return its error type into `tensor_memory/checks.rs`). Any circle fails.
KNOWN_FILE_CIRCLES = set()

file_circles = []
for folder, fe in sorted(file_edges.items()):
    fnodes = set(fe) | {x for v in fe.values() for x in v}
    for n in fnodes:
        fe.setdefault(n, set())
    for c in components(fnodes, fe):
        if len(c) > 1:
            file_circles.append(" <-> ".join("/".join(x) for x in c))

big = sorted((s, f) for f, s in sizes.items() if s > limit)
print(f"rooms: {len(nodes)}; files: {len(sizes)}; import circles: {len(circles)}")
for c in circles:
    print("  circle:", " <-> ".join(c))
# A glob import of the parent hides which sibling a name comes from (and this check cannot see
# through it): files import by name.
globs = sorted(
    os.path.relpath(f, root)
    for f in all_files
    if os.path.basename(f) not in ("mod.rs", "lib.rs")
    and re.search(r"^use super::\*;", "\n".join(non_test(f)), re.M)
)

known = [c for c in file_circles if c in KNOWN_FILE_CIRCLES]
new_circles = [c for c in file_circles if c not in KNOWN_FILE_CIRCLES]
gone = sorted(KNOWN_FILE_CIRCLES - set(file_circles))
print(f"file-level import circles inside folders: {len(file_circles)} ({len(known)} listed as known)")
for c in known:
    print("  known circle:", c)
for c in new_circles:
    print("  circle:", c)
for c in gone:
    print("  known circle no longer found (remove it from KNOWN_FILE_CIRCLES):", c)
print(f"files importing their parent with `use super::*` outside tests: {len(globs)}")
for g in globs:
    print("  glob:", g)
print(f"files over {limit} non-test lines: {len(big)}")
for s, f in reversed(big):
    print(f"  {f}: {s}")
sys.exit(1 if circles or new_circles or gone or globs else 0)
