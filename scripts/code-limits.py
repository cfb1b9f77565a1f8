#!/usr/bin/env python3
"""Size limits of the Rust sources: no function longer than 150 lines and no source file longer
than 1,200 lines, tests aside (a `tests.rs` file, a `tests/` folder, a `#[cfg(test)]` module at the
end of a file, benches, fuzz targets and build output are not counted). Comments and blank lines
count: the limits are on what a reader scrolls through.

A function is measured from its `fn` line to the line of its closing brace, found by matching
braces outside strings, characters and comments. Files and functions over a limit fail, unless
the allowlist below names them with at least their current length; an allowlisted entry that is
back under its limit, or shorter than listed, must be removed or lowered (the list only shrinks).

Usage: scripts/code-limits.py [ROOT]   (ROOT: the repository, default the parent of scripts/)
"""
import os
import re
import sys

FN_LIMIT = 150
FILE_LIMIT = 1200

# Offenders allowed for now, each with the length found when it was listed: an entry may only go
# down, and goes away once its code is within the limit (keys: "path" for a file,
# "path::function" for a function). Every one has been split: the list is empty and stays so.
ALLOWED = {}

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
root = os.path.abspath(root)
SOURCES = ["crates"]
SKIP_DIRS = {"target", "tests", "benches", ".cache", "fuzz", "python"}


def strip_code(src):
    """The source with strings, characters and comments blanked out (newlines kept)."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', src[i:]) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            hashes = re.match(r"r(#*)\"", src[i:]).group(1)
            end = src.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", src[i:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", src[i : j + 1]))
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'|'\\x[0-9a-fA-F]{2}'", src[i:]):
            m = re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'|'\\x[0-9a-fA-F]{2}'", src[i:])
            out.append(" " * len(m.group(0)))
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def non_test_lines(src):
    """The lines before the file's test module (`#[cfg(test)]` then `mod tests`)."""
    m = re.search(r"^#\[cfg\(test\)\]\n(?:#\[[^\n]*\]\n)*mod \w+", src, re.M)
    return src[: m.start()] if m else src


def functions(code):
    """(name, first line, last line) of each function with a body, at any depth."""
    found = []
    for m in re.finditer(r"\bfn\s+(\w+)", code):
        j = m.end()
        depth = 0
        # The body opens at the first `{` outside the signature's brackets, unless a `;` comes
        # first (a declaration without a body).
        while j < len(code):
            ch = code[j]
            if ch in "(<[":
                depth += 1
            elif ch in ")>]":
                depth -= 1
            elif ch == ";" and depth <= 0:
                j = -1
                break
            elif ch == "{" and depth <= 0:
                break
            j += 1
        if j < 0 or j >= len(code):
            continue
        level, k = 0, j
        while k < len(code):
            if code[k] == "{":
                level += 1
            elif code[k] == "}":
                level -= 1
                if level == 0:
                    break
            k += 1
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, k) + 1
        found.append((m.group(1), first, last))
    return found


problems, seen = [], {}
for top in SOURCES:
    for d, dirs, files in os.walk(os.path.join(root, top)):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
        for f in sorted(files):
            if not f.endswith(".rs") or f == "tests.rs":
                continue
            path = os.path.join(d, f)
            rel = os.path.relpath(path, root)
            src = non_test_lines(open(path, encoding="utf-8").read())
            lines = src.count("\n") + (0 if src.endswith("\n") else 1)
            if lines > FILE_LIMIT:
                seen[rel] = lines
            for name, first, last in functions(strip_code(src)):
                length = last - first + 1
                if length > FN_LIMIT:
                    key = f"{rel}::{name}"
                    seen[key] = max(length, seen.get(key, 0))

for key, length in sorted(seen.items()):
    allowed = ALLOWED.get(key)
    limit = FN_LIMIT if "::" in key else FILE_LIMIT
    if allowed is None:
        problems.append(f"{key}: {length} lines, over the limit of {limit}")
    elif length > allowed:
        problems.append(f"{key}: {length} lines, more than the {allowed} allowed (the list only shrinks)")
    else:
        print(f"allowed for now: {key}: {length} lines (limit {limit})")
for key, allowed in sorted(ALLOWED.items()):
    if key not in seen:
        problems.append(f"{key}: within the limit now; remove it from ALLOWED")
    elif seen[key] < allowed:
        problems.append(f"{key}: {seen[key]} lines now; lower its ALLOWED entry from {allowed}")
for p in problems:
    print("error:", p)
print(f"functions over {FN_LIMIT} lines and files over {FILE_LIMIT} lines: {len(seen)} "
      f"({len(seen) - len(problems)} allowed); problems: {len(problems)}")
sys.exit(1 if problems else 0)
