#!/usr/bin/env python3
"""Plants races in the Triton kernels of hw/run/ptx, by rules written from the PTX text:

- row_sum, dot_f16: the first `bar.sync` that publishes shared-memory stores (a `st.shared` or a
  `fence.proxy.async` within the 3 lines before it) is deleted (the line is left empty);
- dot_tma: every `mbarrier.try_wait.parity` waits on the other parity (the parity register is
  flipped by an `xor` before the wait and back after it, on the same line).

Line numbers are kept, so a finding's line is a line of the original file. Writes
hw/run/race/ptx/NAME.ptx.   usage: hw/run/race/plant.py
"""
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent
SRC = HERE.parent / "ptx"


def instr(line):
    t = line.strip()
    return re.sub(r"^@!?%\w+\s+", "", t)


def delete_publishing_barrier(lines):
    for i, l in enumerate(lines):
        before = [instr(p) for p in lines[max(0, i - 3):i]]
        if instr(l).startswith("bar.sync") and any(
            p.startswith("st.shared") or p.startswith("fence.proxy.async") for p in before
        ):
            lines[i] = ""
            return i + 1
    raise SystemExit("no publishing bar.sync")


def flip_parity(lines):
    sites = []
    for i, l in enumerate(lines):
        if instr(l).startswith("mbarrier.try_wait.parity"):
            m = re.match(r"^(\s*)(.*),\s*(%\w+)\s*;\s*$", l)
            ind, head, reg = m.group(1), m.group(2), m.group(3)
            lines[i] = f"{ind}xor.b32 {reg}, {reg}, 1; {head}, {reg}; xor.b32 {reg}, {reg}, 1;"
            sites.append(i + 1)
    return sites


def main():
    out = HERE / "ptx"
    out.mkdir(exist_ok=True)
    for name, plant in [
        ("row_sum", delete_publishing_barrier),
        ("dot_f16", delete_publishing_barrier),
        ("dot_tma", flip_parity),
    ]:
        lines = (SRC / f"{name}.ptx").read_text().split("\n")
        where = plant(lines)
        (out / f"{name}.ptx").write_text("\n".join(lines))
        print(f"{name}: {plant.__name__} at line {where}")


if __name__ == "__main__":
    main()
