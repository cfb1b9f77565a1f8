#!/usr/bin/env python3
"""What hazard tracking costs, kernel by kernel, over every kernel the tests run (issue 25).

    hazard_cost.py PTX_DIR TCGEN05_BIN [--batches N] [--only SUBSTRING] [--schedules N]

For each kernel, runs `tcgen05 run ... --hazards --cost N` (TCGEN05_BIN a release build): the
plain run and the checked default schedule in one process, alternating, N batches (default 3)
of at least 0.3 s of CPU time each; prints one table row per kernel with the best batch's CPU and wall
time per run of each and the ratios, then the totals and the largest ratio. The kernels and
their launches are those of the tests: the Blackwell check corpus in PTX_DIR
(`conformance/kernels/run.sh` generates it; launched as `plant.py` launches it, which also
brings the hand-written CUDA TMA GEMMs and the Gluon cluster kernels), the two committed
Triton examples and the CUDA kernels of the published bugs (their fixed versions), the eight
`hw/run/ptx` kernels of `tests/hazards.rs`, the 19 `hw/run/breadth` kernels
(`hw/run/breadth/kernels.txt`), the CTA-pair kernels of `tests/pair` and the exploration
kernel `tests/explore/phase_all.ptx`. Inputs are byte patterns of the tests' sizes (the
checker's work does not depend on the values but through control flow, which the sizes set).

--baseline BIN2 also measures each kernel with a second build, just before the first (to
compare two builds in the same run, alternating kernel by kernel).

--schedules N instead runs each kernel under `--hazards --schedules N` once and prints whether
it is clean and how long it took (the issue's "no false alarms ... with --schedules 50"); exit 1
when one is not (`conformance/kernels/run.sh` runs it with 50).

Not in CI (minutes on a 2-core machine); the crate README ("Cost of hazard tracking") names it.
"""

import json
import os
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import plant  # noqa: E402  (the corpus launches)


def splitmix(seed):
    while True:
        seed = (seed + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = seed
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        yield z ^ (z >> 31)


def pattern(n, step=7):
    """n bytes of small f16/bf16/f32-safe codes (0x30..)."""
    return bytes((i % step) + 0x30 for i in range(n))


def write(tmp, name, data):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def args_of(vals):
    return [x for i, v in enumerate(vals) for x in ("--arg", f"{i}={v}")]


def hopper(tmp):
    """The eight kernels of tests/hazards.rs (tests/common/hopper_cases.rs's launches)."""
    out = []
    w = lambda n, d: write(tmp, n, d)  # noqa: E731
    simple = {
        "axpy_bf16": (4, 0, [w("axx", pattern(4000)), w("axy", pattern(4000)), w("axo", bytes(2032)),
                             1000, 1.7, 0, 0]),
        "scale_fp8": (3, 0, [w("scx", pattern(6000)), w("sco", bytes(1516)), 1500, 3.3, 0, 0]),
        "row_sum": (8, 16, [w("rsx", pattern(32000)), w("rso", bytes(48)), 1000, 0, 0]),
        "fma_f32": (4, 0, [w("fmx", pattern(4000)), w("fmy", pattern(4000)), w("fmz", pattern(4000)),
                           w("fmo", bytes(4064)), 1000, 0, 0]),
    }
    for name, (grid, shared, vals) in simple.items():
        out.append((name, "hw/run/ptx", ["--kernel", name, "--grid", str(grid), "--block", "128",
                                         "--shared", str(shared)] + args_of(vals)))
    for name, (m, n, k), eb in (("dot_f16", (100, 72, 80), 2), ("dot_bf16", (128, 64, 96), 2),
                                ("dot_e4m3", (64, 128, 128), 1)):
        vals = [w(name + "a", pattern(m * k * eb)), w(name + "b", pattern(k * n * eb, 5)),
                w(name + "c", bytes(4 * (m * n + 16))), m, n, k, 0, 0]
        grid = f"{-(-m // 64)},{-(-n // 64)}"
        out.append((name, "hw/run/ptx", ["--kernel", name, "--grid", grid, "--block", "128",
                                         "--shared", "16384"] + args_of(vals)))
    m, n, k = 128, 128, 96
    a = os.path.join(tmp, "ta.npy")
    b = os.path.join(tmp, "tb.npy")
    plant.npy(a, (m, k), "<f2", pattern(m * k * 2))
    plant.npy(b, (k, n), "<f2", pattern(k * n * 2, 5))
    vals = [f"tensormap:{a},box=64x32,swizzle=64B", m, k, k, 1,
            f"tensormap:{b},box=32x64,swizzle=128B", k, n, n, 1,
            w("tc", bytes(4 * (m * n + 16))), m, n, k, 0, 0]
    out.append(("dot_tma", "hw/run/ptx", ["--kernel", "dot_tma", "--grid", "2,2", "--block",
                                          "128", "--shared", "24600"] + args_of(vals)))
    return out


def breadth(tmp):
    """hw/run/breadth/kernels.txt: one kernel a line (tests/breadth.rs, tests/cluster_hazards.rs)."""
    out = []
    for line in open(os.path.join(ROOT, "hw/run/breadth/kernels.txt")):
        if line.startswith("#") or not line.strip():
            continue
        f = line.split()
        name, grid, block, cluster, shared, inp, words, spec = f[:8]
        kind, seed, n = inp.split(":")
        n = int(n)
        rnd = splitmix(int(seed))
        if kind == "small":
            data = b"".join(struct.pack("<I", next(rnd) % 1000) for _ in range(n))
        elif kind == "f32":
            data = b"".join(struct.pack("<f", (next(rnd) % 2000) / 100.0 - 10) for _ in range(n))
        elif kind == "f16":
            data = pattern(4 * n)
        else:
            data = b"".join(struct.pack("<I", next(rnd) & 0xFFFFFFFF) for _ in range(n))
        vals = []
        for p in spec.split(","):
            if p == "in":
                vals.append(write(tmp, name + ".in", data))
            elif p == "out":
                vals.append(write(tmp, name + ".out", bytes(4 * (int(words) + 16))))
            elif p == "null":
                vals.append(0)
            elif p.startswith("i32:"):
                vals.append(int(p[4:]))
            elif p == "tmap":
                cols, rows, bc, br = (int(x) for x in f[8].split(","))
                path = os.path.join(tmp, name + ".npy")
                plant.npy(path, (rows, cols), "<f4", data[:rows * cols * 4])
                vals.append(f"tensormap:{path},box={br}x{bc},swizzle=none,type=f32")
        out.append((name, "hw/run/breadth/ptx",
                    ["--kernel", name, "--grid", grid, "--block", block, "--cluster", cluster,
                     "--shared", shared] + args_of(vals)))
    return out


def others(tmp):
    """The pair kernels, the exploration kernel, the published bugs' fixed kernels and the two
    committed Triton examples."""
    w = lambda n, d: write(tmp, n, d)  # noqa: E731
    out = [
        ("pair_alloc", "crates/tcgen05-run/tests/pair",
         ["--kernel", "pair_alloc", "--grid", "2", "--block", "128"]
         + args_of([w("pa", bytes(1024))])),
        ("mma_m256", "crates/tcgen05-run/tests/pair",
         ["--kernel", "pair_mma", "--grid", "2", "--block", "128"]
         + args_of([w("ma", pattern(20480)), w("mc", bytes(256 * 64 * 4)), 3])),
        ("phase_all", "crates/tcgen05-run/tests/explore",
         ["--kernel", "phase_all", "--grid", "1", "--block", "64"]
         + args_of([w("po", bytes(1024))])),
    ]
    for stem in ("cuda_fixed_acc_reuse", "cuda_fixed_arrive_count"):
        out.append((stem, "conformance/kernels/cuda",
                    ["--kernel", stem, "--grid", "1", "--block", "128", "--shared",
                     str(3 * 32768 + 1024)] + plant.cuda_args(stem, tmp)))
    for stem, like in (("triton_gemm_bf16", "triton_dot_bf16_128x128x64_w4"),
                       ("triton_dot_scaled_mxfp8", "triton_dot_scaled_mxfp8_128x128x128_w4")):
        name, warps, k, bufs = plant.config(like)
        vals = [w(f"{stem}{i}", b) for i, b in enumerate(bufs)] + [k, 0, 0]
        out.append((stem, "examples/kernels",
                    ["--kernel", name, "--grid", "1", "--block", str(32 * warps), "--shared",
                     str(227 * 1024)] + args_of(vals)))
    return out


def corpus(ptx_dir, tmp):
    """The corpus kernels as plant.py launches them: (stem, file, command line after the file)."""
    out = []
    stems = sorted(f[:-4] for f in os.listdir(ptx_dir)
                   if f.startswith("triton_dot_") and f.endswith(".ptx")
                   and f[:-4] not in plant.SKIP)
    stems += sorted(f[:-4] for f in os.listdir(plant.CUDA_DIR)
                    if f.startswith("cuda_tma_gemm_") and f.endswith(".ptx"))
    stems += sorted(plant.CLUSTER)
    where = {s: plant.CUDA_DIR if s.startswith("cuda_") else plant.EXAMPLES
             if s in plant.CLUSTER else ptx_dir for s in stems}
    captured = []
    saved = plant.launch
    plant.launch = lambda cmd, schedules: captured.append(cmd) or {}
    try:
        for stem in stems:
            sub = os.path.join(tmp, stem)
            os.makedirs(sub, exist_ok=True)
            text = open(os.path.join(where[stem], stem + ".ptx")).read()
            plant.run("BIN", text, stem, sub)
            cmd = captured.pop()
            # [BIN, --json, run, PATH, ...rest..., --hazards, ...args]
            rest = [x for x in cmd[4:] if x != "--hazards"]
            out.append((stem, cmd[3], rest))
    finally:
        plant.launch = saved
    return out


def main():
    argv = sys.argv[1:]
    opts = {}
    for flag in ("--batches", "--only", "--schedules", "--baseline"):
        if flag in argv:
            i = argv.index(flag)
            opts[flag] = argv[i + 1]
            del argv[i:i + 2]
    ptx_dir, binary = argv
    batches = opts.get("--batches", "3")
    with tempfile.TemporaryDirectory() as tmp:
        kernels = corpus(ptx_dir, tmp) + [
            (name, os.path.join(ROOT, d, name + ".ptx"), rest)
            for name, d, rest in hopper(tmp) + breadth(tmp) + others(tmp)]
        if "--only" in opts:
            kernels = [k for k in kernels if opts["--only"] in k[0]]
        if "--schedules" in opts:
            sys.exit(0 if schedules(binary, kernels, int(opts["--schedules"])) else 1)
        base = opts.get("--baseline")
        head = ["kernel", "plain CPU (s)", "--hazards CPU (s)", "CPU ratio", "plain wall (s)",
                "--hazards wall (s)", "wall ratio"]
        if base:
            head[1:1] = ["baseline: plain CPU (s)", "baseline: --hazards CPU (s)",
                         "baseline: CPU ratio"]
        print("| " + " | ".join(head) + " |")
        print("|" + " --- |" * len(head))
        rows, failures = [], 0
        for name, path, rest in kernels:
            got = []
            for b in ([base] if base else []) + [binary]:
                cmd = [b, "--json", "run", path] + rest + ["--hazards", "--cost", batches]
                p = subprocess.run(cmd, capture_output=True, text=True)
                try:
                    r = json.loads(p.stdout)
                    assert "ratio_cpu" in r
                except (json.JSONDecodeError, AssertionError):
                    r = {"error": (p.stdout + p.stderr).strip()[:200]}
                got.append(r)
            if any("error" in r for r in got):
                failures += 1
                print(f"| {name} | error: {[r.get('error') for r in got]} |")
                continue
            r = got[-1]
            rows.append((name, r))
            flag = "" if r["findings"] == 0 else f" ({r['findings']} findings)"
            cells = [f"`{name}`{flag}"]
            if base:
                cells += [f"{got[0]['plain_cpu']:.4f}", f"{got[0]['hazards_cpu']:.4f}",
                          f"{got[0]['ratio_cpu']:.2f}"]
            cells += [f"{r['plain_cpu']:.4f}", f"{r['hazards_cpu']:.4f}",
                      f"{r['ratio_cpu']:.2f}", f"{r['plain_wall']:.4f}",
                      f"{r['hazards_wall']:.4f}", f"{r['ratio_wall']:.2f}"]
            print("| " + " | ".join(cells) + " |", flush=True)
        pc = sum(r["plain_cpu"] for _, r in rows)
        hc = sum(r["hazards_cpu"] for _, r in rows)
        worst = max(rows, key=lambda x: x[1]["ratio_cpu"]) if rows else None
        print(f"hazard_cost: {len(rows)} kernels, {failures} not measured; CPU per run summed: "
              f"plain {pc:.3f} s, --hazards {hc:.3f} s (x{hc / max(pc, 1e-9):.2f}); "
              + (f"largest CPU ratio x{worst[1]['ratio_cpu']:.2f} ({worst[0]}); " if worst else "")
              + f"{sum(1 for _, r in rows if r['ratio_cpu'] > 3)} over 3x; load average "
              f"{os.getloadavg()[0]:.1f}")
        sys.exit(1 if failures else 0)


def schedules(binary, kernels, n):
    """Each kernel once under --hazards --schedules n: clean or not, and the time; whether
    every kernel was clean."""
    clean, t0 = 0, time.time()
    for name, path, rest in kernels:
        cmd = [binary, "--json", "run", path] + rest + ["--hazards", "--schedules", str(n)]
        t = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True)
        try:
            r = json.loads(p.stdout)
        except json.JSONDecodeError:
            r = {"error": (p.stdout + p.stderr).strip()[:200]}
        ok = r.get("hazards") == []
        clean += ok
        print(f"schedules: {name}: {'clean' if ok else 'NOT clean'} over {r.get('runs')} runs "
              f"in {time.time() - t:.1f} s" + ("" if ok else f": {json.dumps(r)[:300]}"),
              flush=True)
    print(f"schedules: {clean} of {len(kernels)} kernels clean with --schedules {n} "
          f"({time.time() - t0:.0f} s, load average {os.getloadavg()[0]:.1f})")
    return clean == len(kernels)


if __name__ == "__main__":
    main()
