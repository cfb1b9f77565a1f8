#!/usr/bin/env python3
"""Planted-bug matrix of `tcgen05 run --hazards` over the Blackwell check corpus (issue 25).

    plant.py PTX_DIR TCGEN05_BIN [--only CLASS] [--kernels N] [--schedules N] [--clean-only]
             [--expect FILE] [--write FILE]

Takes the Triton kernels of the corpus (`conformance/kernels/run.sh` generates them into
PTX_DIR; the warp-specialised one included, rules.md I11), the hand-written CUDA C++ TMA GEMMs
of conformance/kernels/cuda (committed PTX, nvcc 13.5.37; launched with tensor-map arguments
written as `.npy` files) and the Gluon cluster kernels of examples/kernels (a CTA pair, a
cluster of 4 with multicast TMA), applies each mutation class below to the PTX text (rules written from the PTX ISA, one
bug per copy; a deleted instruction leaves its line empty and an inserted one takes the place of
a comment or `.loc` line, so every other line keeps its number), runs each copy under
`tcgen05 run --hazards --json` (one CTA tile, K = 2 x BK, byte patterns as inputs), and prints
the matrix: per class and kernel, `found` when a finding of the expected kind is reported at
the line the mutation implies, else `missed` (with what was reported); `-` when the kernel has
no instruction the class mutates. Every unmodified kernel must be clean.

--schedules N runs the unmodified kernels with N seeded schedules too (`--schedules`), and
--clean-only stops after them. --kernels N applies each class to the first N kernels that have its instruction (CI: 4);
--expect FILE fails (exit 1) when a cell of this run that FILE records as found (wholly or in
part) differs now; --write FILE records the matrix (for the README and for --expect).
"""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile

# The hand-written CUDA kernels (conformance/kernels/cuda/gen_cuda.py): their committed PTX.
CUDA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cuda")
# M, N, K of their runs: two 128 x 128 tiles in one CTA (the accumulator reused), 3 K tiles.
CUDA_SHAPE = (128, 256, 192)

# Corpus kernels this script does not launch, each with the reason it prints: two the interpreter
# does not run (conformance/kernels/run.sh and tests/blackwell.rs say why), and the tf32 128x256
# tile, launchable since gen_triton.py gives it 2 pipeline stages, not yet in the matrix that
# planted.tsv records (adding it would move the 4 kernels a class takes).
SKIP = {
    "triton_dot_tf32_128x256x64_w8": "not in planted.tsv's matrix yet (launchable since its 2 stages)",
    "triton_dot_scaled_nvfp4_u8scales_128x128x128_w4": "refused for idesc bit 24 (rules.md D9)",
}

# The corpus's Gluon cluster kernels (conformance/kernels/gen_gluon.py, committed under
# examples/kernels/ and run end to end by crates/tcgen05-run/tests/pair.rs and cluster_tma.rs),
# launched as those tests launch them: (kernel, CTAs; the cluster comes from the file's
# .reqnctapercluster). C = A (256 x 128) x B (128 x 128) f16 through tensor maps (A boxes
# 128 x 64, B boxes 64 x 64, 128B swizzle), or from plain pointers (A 256 x 64, B 64 x 128).
EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                        "kernels")
CLUSTER = {
    "gluon_pair_dot_f16": ("pair_dot", 2),
    "gluon_multicast_dot_f16": ("multicast_dot", 4),
    "gluon_pair_tma_dot_f16": ("pair_tma_dot", 2),
}

ELEMENT_BYTES = {"f16": 2, "bf16": 2, "tf32": 4, "e4m3": 1, "e5m2": 1, "i8": 1, "mxfp8": 1,
                 "mxfp4": 0.5, "nvfp4": 0.5}


def op_of(line):
    """The opcode text of a PTX line (its guard removed), or ''."""
    t = line.strip()
    if t.startswith("@"):
        t = t.split(None, 1)[1] if " " in t or "\t" in t else ""
    return t


def is_op(line, opcode):
    return op_of(line).startswith(opcode)


def find(lines, opcode):
    return [i for i, l in enumerate(lines) if is_op(l, opcode)]


def free_lines(lines, lo, hi):
    """Lines between lo and hi (exclusive) that hold no instruction: comments and `.loc`."""
    out = []
    for i in range(lo + 1, hi):
        t = lines[i].strip()
        if t.startswith("//") or t.startswith(".loc") or t == "":
            out.append(i)
    return out


def mbar_operand(line):
    m = re.search(r"\[\s*(%\w+)\s*\]", line)
    return m.group(1) if m else None


# Each mutation returns a list of (label, new_lines, expected) where expected is
# (kinds, lines, other_lines): a finding of one of `kinds` at one of `lines` (1-based) and, when
# `other_lines` is not None, with its other line among them; kind "error" is a run error naming
# one of `lines`.


def m_wait_ld(lines):
    """Delete a tcgen05.wait::ld. The uses of the loaded registers are ordered by the register
    dependency (PTX ISA 9.7.16.6.4.5; rules.md I12), so they are no finding; the load's read of
    Tensor Memory stays outstanding, and the first later instruction that frees or overwrites
    its columns is: dealloc-in-use or pair-dealloc-early at a tcgen05.dealloc, or
    write-before-complete at a tcgen05.mma / st / cp / shift (the next tile's), each against
    the last ld before the deleted wait. A later wait::ld of the same warp that retires the
    load before any of them leaves nothing to find (missed, and right)."""
    out = []
    writers = sorted(i for op in ("tcgen05.dealloc", "tcgen05.mma", "tcgen05.st", "tcgen05.cp",
                                  "tcgen05.shift") for i in find(lines, op))
    for w in find(lines, "tcgen05.wait::ld"):
        lds = [i for i in find(lines, "tcgen05.ld") if i < w]
        if not lds:
            continue
        ld = lds[-1]
        new = list(lines)
        new[w] = ""
        out.append(("", new, (["dealloc-in-use", "pair-dealloc-early", "write-before-complete"],
                              [i + 1 for i in writers], [ld + 1])))
    return out


def aliases(lines, reg):
    """The registers that hold the same shared address as `reg`: copies (`mov R, reg`, either
    way) and registers computed by the same `add` of the same operands (Triton's persistent
    kernel recomputes the commit's mbarrier address into another register for the loop's wait,
    `add.s32 %r947, %r107, 106528` beside `add.s32 %r964, %r107, 106528`), to a fixed point."""
    defs = {}
    for l in lines:
        m = re.match(r"\s*(?:@\S+\s+)?(mov|add)\.\w+\s+(%\w+),\s*([^;]+);", l)
        if m:
            defs.setdefault(m.group(2), set()).add((m.group(1), m.group(3).replace(" ", "")))
    same = {reg}
    while True:
        grown = set(same)
        for r, ds in defs.items():
            for op, src in ds:
                if op == "mov" and (src in same or r in same):
                    grown |= {r, src} if src.startswith("%") else {r}
                if op == "add" and any(("add", src) in defs.get(q, ()) for q in same):
                    grown.add(r)
        if grown == same:
            return same
        same = grown


def m_commit(lines):
    """Delete the last tcgen05.commit: its MMAs never complete and the wait on its mbarrier
    can never pass (deadlock at that wait, through any register holding its address)."""
    commits = find(lines, "tcgen05.commit")
    if not commits:
        return []
    c = commits[-1]
    bar = aliases(lines, mbar_operand(lines[c]))
    waits = [i + 1 for i in find(lines, "mbarrier.try_wait") if mbar_operand(lines[i]) in bar]
    if not waits:
        # nvcc materialises each address in its own register: any wait.
        waits = [i + 1 for i in find(lines, "mbarrier.try_wait")]
    new = list(lines)
    new[c] = ""
    return [("", new, (["deadlock"], waits, None))]


def m_init(lines):
    out = []
    for i in find(lines, "mbarrier.init"):
        m = re.search(r"\],\s*(\d+)\s*;", lines[i])
        if not m:
            continue
        count = int(m.group(1))
        for delta in (1, -1):
            new = list(lines)
            new[i] = lines[i][:m.start(1)] + str(count + delta) + lines[i][m.end(1):]
            out.append((f"{delta:+d}", new, (["mbarrier-count"], [i + 1], None)))
    return out


def m_expect_tx(lines):
    out = []
    for i in find(lines, "mbarrier.arrive.expect_tx"):
        m = re.search(r",\s*(\d+)\s*;", lines[i])
        if not m:
            continue
        for delta in (16, -16):
            new = list(lines)
            new[i] = lines[i][:m.start(1)] + str(int(m.group(1)) + delta) + lines[i][m.end(1):]
            out.append((f"{delta:+d}", new, (["expect-tx"], [i + 1], None)))
    return out


def m_proxy_fence(lines):
    """Delete a fence.proxy.async: the next MMAs read through the async proxy what threads
    wrote through the generic proxy (missing-proxy-fence at one of those MMAs)."""
    out = []
    commits = find(lines, "tcgen05.commit")
    for f in find(lines, "fence.proxy.async"):
        nxt = [c for c in commits if c > f]
        if not nxt:
            continue
        mmas = [i + 1 for i in find(lines, "tcgen05.mma") if f < i < nxt[0]]
        if not mmas:
            continue
        new = list(lines)
        new[f] = ""
        out.append((f"line {f + 1}", new, (["missing-proxy-fence"], mmas, None)))
    return out


def relaxed_neighbour(lines, f, after):
    """Whether the fence at `f` guards a relaxed hand-off: the nearest synchronisation before an
    after_thread_sync (after a before_thread_sync) is a `.relaxed` mbarrier instruction. The
    fences around bar.sync are not needed (rules.md I9) and are not planted."""
    rng = range(f - 1, -1, -1) if after else range(f + 1, len(lines))
    for i in rng:
        if is_op(lines[i], "mbarrier.") or is_op(lines[i], "bar.sync"):
            return ".relaxed" in lines[i]
    return False


def m_tc_fence(lines):
    """Delete a tcgen05.fence::after_thread_sync that follows a relaxed wait: the tcgen05
    operation the waiting thread issues next (an MMA over the accumulator the epilogue read, or
    the epilogue's tcgen05.ld of what the MMAs wrote) is no longer ordered after the other
    thread's (missing-tcgen05-fence at an MMA or ld, rules.md I9)."""
    out = []
    targets = [i + 1 for i in find(lines, "tcgen05.mma") + find(lines, "tcgen05.ld")]
    for f in find(lines, "tcgen05.fence::after_thread_sync"):
        if not relaxed_neighbour(lines, f, True):
            continue
        new = list(lines)
        new[f] = ""
        out.append((f"line {f + 1}", new, (["missing-tcgen05-fence"], targets, targets)))
    return out


def m_tc_fence_before(lines):
    """Delete a tcgen05.fence::before_thread_sync before a relaxed arrival: the epilogue's
    tcgen05.ld no longer reaches the MMA thread, whose next MMA overwrites what it read
    (missing-tcgen05-fence at an MMA, against an ld)."""
    out = []
    mmas = [i + 1 for i in find(lines, "tcgen05.mma")]
    lds = [i + 1 for i in find(lines, "tcgen05.ld")]
    for f in find(lines, "tcgen05.fence::before_thread_sync"):
        if not relaxed_neighbour(lines, f, False):
            continue
        new = list(lines)
        new[f] = ""
        out.append((f"line {f + 1}", new, (["missing-tcgen05-fence"], mmas, lds)))
    return out


def wait_pred(line):
    """The predicate a try_wait writes, or None."""
    m = re.match(r"\s*(?:@\S+\s+)?mbarrier\.try_wait\S*\s+(%?\w+)\s*,", line)
    return m.group(1) if m else None


def m_dealloc_early(lines):
    """Move the tcgen05.dealloc to just before the last tcgen05.ld: the ld reads columns
    outside every allocation (a run error at the ld)."""
    deallocs, lds = find(lines, "tcgen05.dealloc"), find(lines, "tcgen05.ld")
    if not deallocs or not lds:
        return []
    d, ld = deallocs[-1], lds[-1]
    slots = free_lines(lines, ld - 6, ld)
    if not slots:
        return []
    new = list(lines)
    new[slots[-1]] = lines[d]
    new[d] = ""
    return [("", new, (["error"], [ld + 1], None))]


def m_relinquish(lines):
    out = []
    for r in find(lines, "tcgen05.relinquish_alloc_permit"):
        allocs = find(lines, "tcgen05.alloc")
        new = list(lines)
        new[r] = ""
        out.append(("", new, (["missing-relinquish"], [allocs[0] + 1], None)))
    return out


def flip_parity(lines, w):
    """The lines with the try_wait at `w` waiting on the other parity (a scoped register
    written in the comment or `.loc` lines just before it), or None."""
    m = re.search(r"\],\s*(%\w+)\s*;", lines[w])
    block = free_lines(lines, w - 8, w)
    if not m or not block:
        return None
    new = list(lines)
    if len(block) >= 2:
        new[block[-2]] = "\t.reg .b32 %plantpar;"
        new[block[-1]] = f"\txor.b32 %plantpar, {m.group(1)}, 1;"
    else:
        # One free line (nvcc's comment before an inline-asm block): both statements on it.
        new[block[-1]] = f"\t.reg .b32 %plantpar; xor.b32 %plantpar, {m.group(1)}, 1;"
    new[w] = lines[w][:m.start(1)] + "%plantpar" + lines[w][m.end(1):]
    return new


def m_parity(lines):
    """Make the wait before a stage refill (a try_wait followed by shared-memory stores
    before the next MMA) wait on the other parity. In Triton's kernels it waits instead for a
    phase whose only arrival comes after it, so it never passes (deadlock at the wait). In the
    CUDA and Gluon TMA kernels it passes at once (the phase before the current one, the
    producer's start state) on a stage the consumer has not released, and the refill's tensor
    copy is issued while the copy that filled the stage is still in flight
    (write-before-complete at the refill's copy, against a copy). Any of these, at its line;
    a deadlock also when its message names the wait's line as where a warp is blocked."""
    out = []
    for w in find(lines, "mbarrier.try_wait.parity"):
        later = [i for i in find(lines, "tcgen05.mma") if i > w]
        if not later or not any(is_op(lines[i], "st.shared")
                                or is_op(lines[i], "cp.async.bulk.tensor")
                                for i in range(w, later[0])):
            continue
        new = flip_parity(lines, w)
        if new:
            copies = [i + 1 for i in find(lines, "cp.async.bulk.tensor")]
            refill = [i for i in copies if w < i <= later[0]]
            out.append((f"line {w + 1}", new, [(["wait-parity", "deadlock"], [w + 1], None),
                                                (["write-before-complete"], refill, copies)]))
    return out


def m_epilogue_wait(lines):
    """Delete the wait before the epilogue's tcgen05.ld (the last try_wait before it in the
    text, and its retry branch): the ld reads D before the MMAs that write it are known
    complete (read-before-complete at the ld, against one of the MMAs)."""
    out = []
    lds, mmas = find(lines, "tcgen05.ld"), find(lines, "tcgen05.mma")
    waits = [w for w in find(lines, "mbarrier.try_wait.parity") if lds and w < lds[-1]]
    for w in waits[-1:]:
        nxt = [i for i in lds if i > w]
        new = list(lines)
        if "bra" in lines[w + 1]:
            new[w] = new[w + 1] = ""
            out.append((f"line {w + 1}", new,
                        (["read-before-complete"], [nxt[0] + 1], [i + 1 for i in mmas])))
        elif wait_pred(lines[w]):
            # A wait inside an inline-asm block (nvcc's CUDA kernels): its predicate set true
            # instead. Their first tile's tcgen05.ld then runs before any MMA wrote the
            # accumulator, and the run stops there (a Tensor Memory read before any write, an
            # error at the ld); a later tile's would be read-before-complete.
            new[w] = f"\tmov.pred {wait_pred(lines[w])}, -1;"
            out.append((f"line {w + 1}", new,
                        (["read-before-complete", "error"], [nxt[0] + 1],
                         [i + 1 for i in mmas])))
    return out


def m_accumulator(lines):
    """Reuse the accumulator for the next tile before the epilogue's tcgen05.ld is waited: the
    kernel's last MMA (and its commit) copied between the last tcgen05.ld and its wait::ld (the
    mbarrier.inval of the commit's barrier removed so the copy may arrive on it). Expected:
    write-before-complete at the copied MMA, against the ld."""
    lds, waits = find(lines, "tcgen05.ld"), find(lines, "tcgen05.wait::ld")
    mmas, commits = find(lines, "tcgen05.mma"), find(lines, "tcgen05.commit")
    if not lds or not mmas or not commits:
        return []
    relaxed = [w for w in find(lines, "mbarrier.try_wait") if ".relaxed" in lines[w]
               and any(mmas and w < i < mmas[0] for i in find(lines, "tcgen05.fence"))]
    if relaxed and wait_pred(lines[relaxed[0]]):
        # A kernel that reuses its accumulator across tiles (the CUDA GEMMs): the MMA thread's
        # wait for the epilogue's hand-back made to pass at once; the next tile's MMA
        # overwrites cells the epilogue's tcgen05.ld reads (write-before-complete at an MMA,
        # against an ld; triton-lang/triton#10821's pattern).
        w = relaxed[0]
        new = list(lines)
        new[w] = f"\tmov.pred {wait_pred(lines[w])}, -1;"
        return [("", new, (["write-before-complete"], [i + 1 for i in mmas],
                           [i + 1 for i in lds]))]
    ld = lds[-1]
    w = next((i for i in waits if i > ld), None)
    if w is None:
        return []
    slots = free_lines(lines, ld, w)
    if len(slots) < 2:
        return []
    new = list(lines)
    new[slots[0]] = lines[mmas[-1]]
    new[slots[1]] = lines[commits[-1]]
    for i in find(lines, "mbarrier.inval"):
        new[i] = ""
    return [("", new, (["write-before-complete"], [slots[0] + 1], [ld + 1]))]


CLASSES = [
    ("delete tcgen05.wait::ld", m_wait_ld),
    ("delete tcgen05.commit", m_commit),
    ("mbarrier.init count +1 / -1", m_init),
    ("expect_tx bytes +16 / -16", m_expect_tx),
    ("delete fence.proxy.async", m_proxy_fence),
    ("delete tcgen05.fence::after_thread_sync", m_tc_fence),
    ("delete tcgen05.fence::before_thread_sync", m_tc_fence_before),
    ("tcgen05.dealloc before the last tcgen05.ld", m_dealloc_early),
    ("drop relinquish_alloc_permit", m_relinquish),
    ("refill wait on the wrong parity", m_parity),
    ("delete the epilogue's mbarrier wait", m_epilogue_wait),
    ("accumulator reused before the epilogue's wait::ld", m_accumulator),
]


def npy(path, shape, descr, data):
    """Writes `data` as a C-order `.npy` of `shape` and dtype `descr` (format version 1.0)."""
    dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, dims)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)


def cuda_args(stem, tmp):
    """The arguments of a CUDA TMA GEMM: tensor maps over A (M x K) and B (N x K) as `.npy`
    files with 128 x 64 boxes and 128B swizzle, C, M, N, K; byte patterns as inputs."""
    m, n, k = CUDA_SHAPE
    ty = "f16" if "_f16_" in stem else "bf16"
    a, b, c = (os.path.join(tmp, x) for x in ("a.npy", "b.npy", "c.bin"))
    npy(a, (m, k), "<u2", bytes((i % 7) + 0x30 for i in range(m * k * 2)))
    npy(b, (n, k), "<u2", bytes((i % 5) + 0x30 for i in range(n * k * 2)))
    with open(c, "wb") as f:
        f.write(bytes(m * n * 4))
    spec = f"box=128x64,swizzle=128B,type={ty}"
    return ["--arg", f"0=tensormap:{a},{spec}", "--arg", f"1=tensormap:{b},{spec}",
            "--arg", f"2={c}", "--arg", f"3={m}", "--arg", f"4={n}", "--arg", f"5={k}"]


def persistent_args(tmp, shape=(256, 128, 128), b_box=None, scratch=2):
    """The arguments of Triton's persistent TMA kernel (gen_triton.py's dot_persistent_kernel,
    as tests/blackwell.rs launches it on 3 CTAs): A (256 x 128) and B (128 x 128) f16 as tensor
    maps, each followed by its shape and strides, C, M, N, K and the two scratch pointers. The
    warp-specialised kernel (dot_ws_kernel) takes the same list; it runs one 128 x 64 tile with
    K = 256 (`shape`): 4 K tiles over its 3 pipeline stages, so that every stage's mbarriers are
    used and reused (with K = 128 the third stage's two mbarriers are never arrived on or
    waited, and their `mbarrier.init` count changed by one is correctly clean)."""
    m, n, k = shape
    a, b, c = (os.path.join(tmp, x) for x in ("a.npy", "b.npy", "c.bin"))
    npy(a, (m, k), "<f2", bytes((i % 7) + 0x30 for i in range(m * k * 2)))
    npy(b, (k, n), "<f2", bytes((i % 5) + 0x30 for i in range(k * n * 2)))
    with open(c, "wb") as f:
        f.write(bytes(m * n * 4))
    if b_box:
        # The Gluon kernels: C and the scratch pointers only after the maps.
        vals = [f"tensormap:{a},box=128x64,swizzle=128B", m, k, k, 1,
                f"tensormap:{b},box={b_box},swizzle=128B", k, n, n, 1, c] + [0] * scratch
        return [x for i, v in enumerate(vals) for x in ("--arg", f"{i}={v}")]
    vals = [f"tensormap:{a},box=128x64,swizzle=128B", m, k, k, 1,
            f"tensormap:{b},box=64x64,swizzle=128B", k, n, n, 1, c, m, n, k, 0, 0]
    return [x for i, v in enumerate(vals) for x in ("--arg", f"{i}={v}")]


def cluster_args(stem, tmp):
    """The arguments of a Gluon cluster kernel (CLUSTER): byte patterns as f16 inputs."""
    if stem == "gluon_pair_dot_f16":
        paths = [os.path.join(tmp, x) for x in ("a.bin", "b.bin", "c.bin")]
        for path, n in zip(paths, (256 * 64 * 2, 64 * 128 * 2, 256 * 128 * 4)):
            with open(path, "wb") as f:
                f.write(bytes((i % 7) + 0x30 for i in range(n)) if n < 256 * 128 * 4
                        else bytes(n))
        vals = paths + [0, 0]
    else:
        vals = persistent_args(tmp, (256, 128, 128), b_box="64x64")
        return vals
    return [x for i, v in enumerate(vals) for x in ("--arg", f"{i}={v}")]


def config(stem):
    rest = stem[len("triton_dot_"):]
    scaled = rest.startswith("scaled_")
    if scaled:
        rest = rest[len("scaled_"):]
    parts = rest.split("_")
    ty, tile, warps = parts[0], parts[-2], int(parts[-1][1:])
    bm, bn, bk = (int(x) for x in tile.split("x"))
    m, n, k = bm, bn, 2 * bk
    name = "dot_scaled_nvfp4_kernel" if ty == "nvfp4" else (
        "dot_scaled_kernel" if scaled else "dot_i8_kernel" if ty == "i8" else "dot_kernel")
    eb = ELEMENT_BYTES[ty]
    bufs = [bytes((i % 7) + 0x30 for i in range(int(m * k * eb))),
            bytes((i % 5) + 0x30 for i in range(int(k * n * eb)))]
    if scaled:
        block, one = (16, 0x38) if ty == "nvfp4" else (32, 127)
        bufs += [bytes([one]) * (m * k // block), bytes([one]) * (n * k // block)]
    bufs.append(bytes(m * n * 4))
    return name, warps, k, bufs


def run(binary, ptx_text, stem, tmp, schedules=0):
    path = os.path.join(tmp, stem + ".ptx")
    with open(path, "w") as f:
        f.write(ptx_text)
    if "_persistent_" in stem:
        cmd = [binary, "--json", "run", path, "--kernel", "dot_persistent_kernel", "--grid", "3",
               "--block", "128", "--shared", str(227 * 1024), "--hazards"] + persistent_args(tmp)
        return launch(cmd, schedules)
    if stem in CLUSTER:
        kernel, ctas = CLUSTER[stem]
        cmd = [binary, "--json", "run", path, "--kernel", kernel, "--grid", str(ctas),
               "--block", "128", "--shared", str(227 * 1024), "--hazards"] + cluster_args(
                   stem, tmp)
        return launch(cmd, schedules)
    if "_attention_" in stem:
        # Q, K, V (128 x 64 f16), O (f32), n_ctx = 128, the scratch pointers; its ex2.approx
        # and div.full computed as correctly rounded (--approx, as tests/blackwell.rs runs it).
        paths = [os.path.join(tmp, x) for x in ("q.bin", "k.bin", "v.bin", "o.bin")]
        for buf, n in zip(paths, (128 * 64 * 2,) * 3 + (128 * 64 * 4,)):
            with open(buf, "wb") as f:
                f.write(bytes((i % 7) + 0x30 for i in range(n)) if n == 128 * 64 * 2
                        else bytes(n))
        vals = paths + [128, 0, 0]
        cmd = [binary, "--json", "run", path, "--kernel", "attention_kernel", "--grid", "1",
               "--block", "128", "--shared", str(227 * 1024), "--approx", "ex2=rn,div=rn",
               "--hazards"] + [x for i, v in enumerate(vals) for x in ("--arg", f"{i}={v}")]
        return launch(cmd, schedules)
    if "_ws_" in stem:
        # Every warp stores the same dispatch word to shared memory, unordered (rules.md I11).
        cmd = [binary, "--json", "run", path, "--kernel", "dot_ws_kernel", "--grid", "1",
               "--block", "256", "--shared", str(227 * 1024), "--hazards"] + persistent_args(
                   tmp, (128, 64, 256))
        return launch(cmd, schedules)
    if stem.startswith("cuda_"):
        cmd = [binary, "--json", "run", path, "--kernel", stem, "--grid", "1", "--block", "128",
               "--shared", str(3 * 32768 + 1024), "--hazards"] + cuda_args(stem, tmp)
        return launch(cmd, schedules)
    name, warps, k, bufs = config(stem)
    args = []
    for i, b in enumerate(bufs):
        p = os.path.join(tmp, f"arg{i}.bin")
        with open(p, "wb") as f:
            f.write(b)
        args += ["--arg", f"{i}={p}"]
    n = len(bufs)
    args += ["--arg", f"{n}={k}", "--arg", f"{n + 1}=0", "--arg", f"{n + 2}=0"]
    cmd = [binary, "--json", "run", path, "--kernel", name, "--grid", "1",
           "--block", str(32 * warps), "--shared", str(227 * 1024), "--hazards"] + args
    return launch(cmd, schedules)


def launch(cmd, schedules):
    """Runs a `tcgen05 run --json` command line; its JSON object."""
    if schedules:
        cmd += ["--schedules", str(schedules)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"error": (p.stdout + p.stderr).strip()[:300]}


def verdict(result, expected):
    """Whether `result` shows `expected` (or one of a list of alternatives), and what it
    showed."""
    if isinstance(expected, list):
        notes = []
        for alt in expected:
            ok, note = verdict(result, alt)
            if ok:
                return ok, note
            notes.append(note)
        return False, notes[0]
    kinds, lines, others = expected
    if "hazards" not in result:
        msg = result.get("error") or result.get("message") or json.dumps(result)[:200]
        if "error" in kinds and lines and any(f"line {l}" in str(msg) for l in lines):
            return True, "error"
        return False, "error: " + str(msg)[:120]
    # A run error after findings (they are kept): the error at the expected line counts.
    if "error" in kinds and lines and any(f"line {l}" in str(result.get("error"))
                                          for l in lines):
        return True, "error"
    for h in result["hazards"]:
        if h["kind"] in kinds and (lines is None or h["line"] in lines) and (
                others is None or h.get("other_line") in others):
            return True, h["kind"]
        # A deadlock's finding is at its first blocked warp's line; its message names each
        # blocked warp's (and each diverged lane group's) line.
        if h["kind"] == "deadlock" and "deadlock" in kinds and lines and any(
                f" at line {l}:" in h["message"] for l in lines):
            return True, "deadlock"
    got = ", ".join(f"{h['kind']}@{h['line']}" for h in result["hazards"][:3]) or "clean"
    return False, got


def main():
    argv = sys.argv[1:]
    opts = {}
    clean_only = "--clean-only" in argv
    if clean_only:
        argv.remove("--clean-only")
    for flag in ("--only", "--kernels", "--schedules", "--expect", "--write"):
        if flag in argv:
            i = argv.index(flag)
            opts[flag] = argv[i + 1]
            del argv[i:i + 2]
    ptx_dir, binary = argv
    stems = sorted(f[:-4] for f in os.listdir(ptx_dir)
                   if f.startswith("triton_dot_") and f.endswith(".ptx") and f[:-4] not in SKIP)
    # The GEMMs only: cuda_bug_*/cuda_fixed_* are the published bugs of tests/published_bugs.rs.
    stems += sorted(f[:-4] for f in os.listdir(CUDA_DIR)
                    if f.startswith("cuda_tma_gemm_") and f.endswith(".ptx"))
    stems += sorted(CLUSTER)
    where = {s: CUDA_DIR if s.startswith("cuda_") else EXAMPLES if s in CLUSTER else ptx_dir
             for s in stems}
    for stem in sorted(SKIP):
        if os.path.exists(os.path.join(ptx_dir, stem + ".ptx")):
            print(f"plant: {stem}: not run: {SKIP[stem]}", file=sys.stderr)
    for stem in sorted(CLUSTER):
        if not os.path.exists(os.path.join(EXAMPLES, stem + ".ptx")):
            sys.exit(f"plant: {stem}: the committed Gluon kernel is missing from examples/kernels")
    per_class = int(opts.get("--kernels", "0")) or len(stems)
    matrix, failures = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        clean = {}
        for stem in stems:
            text = open(os.path.join(where[stem], stem + ".ptx")).read()
            r = run(binary, text, stem, tmp, int(opts.get("--schedules", "0")))
            clean[stem] = r.get("hazards") == []
            print(f"plant: {stem}: {'clean' if clean[stem] else 'NOT clean'} over "
                  f"{r.get('runs')} run(s) in {r.get('seconds', 0):.2f} s", file=sys.stderr)
            if not clean[stem]:
                failures += 1
                print(f"plant: {stem}: unmodified kernel not clean: {json.dumps(r)[:300]}",
                      file=sys.stderr)
        print(f"plant: {sum(clean.values())} of {len(stems)} unmodified kernels clean",
              file=sys.stderr)
        if clean_only:
            sys.exit(1 if failures else 0)
        for cls, fn in CLASSES:
            if opts.get("--only") and opts["--only"] not in cls:
                continue
            used = 0
            for stem in stems:
                if used >= per_class:
                    break
                lines = open(os.path.join(where[stem], stem + ".ptx")).read().split("\n")
                variants = fn(lines)
                if not variants:
                    continue
                used += 1
                found, notes = 0, []
                for label, new, expected in variants:
                    ok, note = verdict(run(binary, "\n".join(new), stem, tmp), expected)
                    found += ok
                    if not ok:
                        notes.append(f"{label or 'it'}: {note}")
                cell = f"{found}/{len(variants)}"
                matrix.append((cls, stem, cell, "; ".join(notes)))
                print(f"plant: {cls} | {stem} | {cell}" + (f" | {notes}" if notes else ""),
                      file=sys.stderr)
            if used == 0:
                matrix.append((cls, "-", "-", "no corpus kernel has the instruction"))
    out = "\n".join(f"{c}\t{s}\t{v}" for c, s, v, _ in matrix)
    print(out)
    if "--write" in opts:
        with open(opts["--write"], "w") as f:
            f.write(out + "\n")
    if "--expect" in opts:
        now = {(c, s): v for c, s, v, _ in matrix}
        for row in open(opts["--expect"]).read().splitlines():
            c, s, v = row.split("\t")
            if (c, s) in now and v != "-" and v.split("/")[0] != "0" and now[(c, s)] != v:
                print(f"plant: REGRESSION: {c} on {s}: was {v}, now {now.get((c, s))}",
                      file=sys.stderr)
                failures += 1
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
