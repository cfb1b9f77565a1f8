"""Keeps the compile directory that LLVM's NVPTX back end writes into a PTX file's DWARF
`.debug_info` section (DW_AT_comp_dir, spelled as `.b8` byte lines) relative to the repository
root, so that committed PTX names no machine's folders. Standard library only.

The section is DWARF version 2 (DWARF 2 section 7.5): a unit header (`Length of Unit`, 4 bytes,
counting the bytes after itself; version, 2; abbreviation offset, 4; address size, 1), then the
debugging information entries, each an abbreviation code (ULEB128) followed by the attribute
values in the forms that `.debug_abbrev` gives for that code. Changing the string's length
changes the unit length and the unit-relative offset of every entry after it, so the rewrite also
moves every DW_FORM_ref4 value that points past the string and the `Abbrev [n] 0xOFFSET:0xSIZE`
comments. Any structure not recognised (a form not listed in FIXED, a label where a number is
needed, a walk that does not end at the unit's length) is an error: the file is left unchanged.

    python3 conformance/kernels/ptx_dwarf.py FILE.ptx...

rewrites committed files in place: the new directory is the folder of the `.file 1` source path
(already relative), which must end the old absolute directory.
"""
import os
import re
import sys

DW_AT_COMP_DIR = 0x1B
DW_FORM_STRING = 0x08
DW_FORM_REF4 = 0x13
# Fixed-size forms (DWARF 2 section 7.5.4): addr (8 bytes here), data2, data4, data8, data1,
# flag, strp, ref4; sec_offset and flag_present (DWARF 4).
FIXED = {0x01: 8, 0x05: 2, 0x06: 4, 0x07: 8, 0x0B: 1, 0x0C: 1, 0x0E: 4, 0x13: 4, 0x17: 4, 0x19: 0}
CELL = re.compile(r"^\.b(8|16|32|64)\s+(\S+)")
ABBREV_COMMENT = re.compile(r"(// Abbrev \[\d+\] )0x([0-9a-f]+):0x([0-9a-f]+)")


class DwarfError(Exception):
    """A PTX file whose debug sections this module does not recognise."""


def _section(lines, name):
    """The line indices between `.section <name>` and its closing brace."""
    for i, line in enumerate(lines):
        if line.split() == [".section", name]:
            if lines[i + 1].strip() != "{":
                raise DwarfError(f"{name}: no opening brace after line {i + 1}")
            for j in range(i + 2, len(lines)):
                if lines[j].strip() == "}":
                    return range(i + 2, j)
            raise DwarfError(f"{name}: no closing brace")
    return None


def _cells(lines, rows, name):
    """The section's data cells: (line index, size in bytes, integer value or None for a label)."""
    out = []
    for i in rows:
        m = CELL.match(lines[i])
        if not m:
            if lines[i].strip().startswith("$L__") and lines[i].strip().endswith(":"):
                continue
            raise DwarfError(f"{name}: line {i + 1} is not a data line: {lines[i].strip()!r}")
        v = m.group(2)
        out.append((i, int(m.group(1)) // 8, int(v) if v.isdigit() else None))
    return out


class _Reader:
    """Reads the section's cells as a byte stream, one cell at a time."""

    def __init__(self, cells, name):
        self.cells, self.k, self.off, self.name = cells, 0, 0, name

    def cell(self, size):
        if self.k >= len(self.cells):
            raise DwarfError(f"{self.name}: ends inside an entry")
        c = self.cells[self.k]
        if c[1] != size:
            raise DwarfError(
                f"{self.name}: line {c[0] + 1}: a {c[1]}-byte cell where {size} expected"
            )
        self.k += 1
        self.off += size
        return c

    def byte(self):
        c = self.cell(1)
        if c[2] is None or c[2] > 255:
            raise DwarfError(f"{self.name}: line {c[0] + 1}: not a byte")
        return c[2]

    def uleb(self):
        value, shift = 0, 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return value

    def skip(self, n):
        """Skips n bytes made of whole cells (one n-byte cell or n 1-byte cells)."""
        if self.k < len(self.cells) and self.cells[self.k][1] == n:
            return self.cell(n)
        for _ in range(n):
            self.cell(1)
        return None


def _abbrevs(lines):
    rows = _section(lines, ".debug_abbrev")
    if rows is None:
        raise DwarfError(".debug_abbrev: missing")
    r = _Reader(_cells(lines, rows, ".debug_abbrev"), ".debug_abbrev")
    table = {}
    while True:
        code = r.uleb()
        if code == 0:
            return table
        r.uleb()  # tag
        r.byte()  # children
        attrs = []
        while True:
            at, form = r.uleb(), r.uleb()
            if at == 0 and form == 0:
                break
            attrs.append((at, form))
        table[code] = attrs


def _walk(lines, abbrevs):
    """Every unit of `.debug_info`: its length cell, its comp_dir string's offset and cells,
    its ref4 cells and its entries' (offset, first line)."""
    rows = _section(lines, ".debug_info")
    r = _Reader(_cells(lines, rows, ".debug_info"), ".debug_info")
    units = []
    while r.k < len(r.cells):
        units.append(_unit(r, abbrevs))
    return units


def _unit(r, abbrevs):
    """Walks one unit from `r`'s position (DWARF 2 section 7.5.1 header, then its entries)."""
    base = r.off
    length = r.cell(4)
    if length[2] is None:
        raise DwarfError(f".debug_info: line {length[0] + 1}: unit length is not a number")
    r.skip(2), r.cell(4), r.byte()
    comp, refs, entries = None, [], []
    while r.off - base < length[2] + 4:
        start_off, start_line = r.off - base, r.cells[r.k][0] if r.k < len(r.cells) else None
        code = r.uleb()
        if code == 0:
            continue
        if code not in abbrevs:
            raise DwarfError(f".debug_info: line {start_line + 1}: abbreviation {code} undefined")
        entries.append((start_off, start_line))
        for at, form in abbrevs[code]:
            if form == DW_FORM_STRING:
                at_off, string = r.off - base, []
                while True:
                    c = r.cell(1)
                    if c[2] is None or c[2] > 255:
                        raise DwarfError(f".debug_info: line {c[0] + 1}: not a string byte")
                    string.append(c)
                    if c[2] == 0:
                        break
                if at == DW_AT_COMP_DIR:
                    comp = (at_off, string)
            elif form in FIXED:
                c = r.skip(FIXED[form])
                if form == DW_FORM_REF4:
                    if c is None or c[2] is None:
                        raise DwarfError(
                            f".debug_info: a ref4 near line {start_line + 1} is not one number"
                        )
                    refs.append(c)
            elif form in (0x0D, 0x0F):
                r.uleb()
            else:
                raise DwarfError(
                    f".debug_info: line {start_line + 1}: form 0x{form:x} not recognised"
                )
    if r.off - base != length[2] + 4:
        raise DwarfError(
            f".debug_info: unit walk ends at byte {r.off - base}, its length says {length[2] + 4}"
        )
    if comp is None:
        raise DwarfError(
            f".debug_info: the unit at line {length[0] + 1} has no DW_AT_comp_dir string"
        )
    return length, comp, refs, entries


def _set_value(line, value):
    """A data line with its number replaced by `value`, its comment kept in its column."""
    m = CELL.match(line)
    head = f".b{m.group(1)} {value}"
    rest = line[m.end() :]
    pad = len(m.group(0)) + len(rest) - len(rest.lstrip()) - len(head)
    return head + " " * max(pad, 1) + rest.lstrip() if rest.strip() else head


def comp_dirs(ptx):
    """The DW_AT_comp_dir strings of `ptx`'s units (none without a `.debug_info` section)."""
    lines = ptx.split("\n")
    if _section(lines, ".debug_info") is None:
        return []
    return [bytes(c[2] for c in u[1][1][:-1]).decode() for u in _walk(lines, _abbrevs(lines))]


def rewrite_comp_dir(ptx, new_dir):
    """`ptx` with its DW_AT_comp_dir replaced by `new_dir(old)` (str to str), the unit length,
    the ref4 offsets past the string and the entries' offset comments moved by the change in
    length. PTX without a `.debug_info` section comes back unchanged."""
    lines = ptx.split("\n")
    if _section(lines, ".debug_info") is None:
        if "DW_AT_comp_dir" in ptx:
            raise DwarfError("DW_AT_comp_dir outside a .debug_info section")
        return ptx
    for unit in reversed(_walk(lines, _abbrevs(lines))):
        _rewrite_unit(lines, unit, new_dir)
    out = "\n".join(lines)
    _walk(out.split("\n"), _abbrevs(out.split("\n")))  # the result must parse again
    return out


def _rewrite_unit(lines, unit, new_dir):
    """Rewrites one unit's comp_dir in `lines` (the string's lines last, as they change count)."""
    length, (at_off, string), refs, entries = unit
    old = bytes(c[2] for c in string[:-1]).decode()
    new = new_dir(old).encode()
    if b"\0" in new or any(b > 127 for b in new) or not new:
        raise DwarfError(f"new comp_dir {new!r} is not a non-empty ASCII string")
    delta = len(new) - len(old.encode())
    end = at_off + len(string)
    for c in refs:
        if c[2] >= end:
            lines[c[0]] = _set_value(lines[c[0]], c[2] + delta)
    lines[length[0]] = _set_value(lines[length[0]], length[2] + delta)
    for _, line in entries:
        m = ABBREV_COMMENT.search(lines[line])
        if m:
            o, s = int(m.group(2), 16), int(m.group(3), 16)
            o, s = (o + delta, s) if o >= end else (o, s + delta if o < at_off < o + s else s)
            moved = f"{m.group(1)}0x{o:x}:0x{s:x}"
            lines[line] = lines[line][: m.start()] + moved + lines[line][m.end() :]
    first = string[0][0]
    comment = lines[first][lines[first].index("//") :] if "//" in lines[first] else ""
    text = [f".b8 {b}" for b in new + b"\0"]
    text[0] = (text[0].ljust(40) + comment) if comment else text[0]
    lines[first : string[-1][0] + 1] = text


def relative_to(root):
    """A `new_dir` for rewrite_comp_dir: the directory relative to `root` (which ends with a
    separator); an absolute directory outside it is an error."""

    def new_dir(old):
        if old + os.sep == root:
            return "."
        if old.startswith(root):
            return old[len(root) :]
        if os.path.isabs(old):
            raise DwarfError(f"DW_AT_comp_dir {old!r} is outside the repository root {root!r}")
        return old

    return new_dir


def _from_file_line(ptx):
    """A `new_dir` for committed files: the folder of `.file 1`, which must end the old one."""
    m = re.search(r'^\s*\.file\s+1\s+"([^"]+)"', ptx, re.M)
    if not m or os.path.isabs(m.group(1)):
        raise DwarfError("no relative `.file 1` line")
    folder = os.path.dirname(m.group(1))

    def new_dir(old):
        if old != folder and not old.endswith("/" + folder):
            raise DwarfError(f"DW_AT_comp_dir {old!r} does not end with {folder!r}")
        return folder

    return new_dir


def main(paths):
    bad = 0
    for path in paths:
        with open(path) as f:
            ptx = f.read()
        try:
            out = rewrite_comp_dir(ptx, lambda old: _from_file_line(ptx)(old))
        except DwarfError as e:
            print(f"{path}: {e}", file=sys.stderr)
            bad += 1
            continue
        if out != ptx:
            with open(path, "w") as f:
                f.write(out)
            print(f"{path}: DW_AT_comp_dir {comp_dirs(ptx)} -> {comp_dirs(out)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
