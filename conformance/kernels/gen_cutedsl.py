"""Compile CuTe DSL (nvidia-cutlass-dsl 4.8.1) tcgen05 MMA kernels to PTX for sm_100a, no GPU.

Usage: python gen_cutedsl.py OUT_DIR

Each kernel makes a tiled MMA with cutlass.utils.blackwell_helpers.make_trivial_tiled_mma, the
shared-memory layouts of A and B with make_smem_layout_a/b (K-major), allocates Tensor Memory and
issues cute.gemm over the K blocks of one tile. The DSL keeps the PTX it compiles
(CUTE_DSL_KEEP=ptx); OUT_DIR/<name>.ptx and OUT_DIR/<name>.json (the kernel's parameters: kind,
M, N, the tile's K, element types) are written.

Every kernel reads and writes global memory, for the interpreter
(crates/tcgen05-run/tests/cute_gemm.rs). The KERNELS (cutedsl_<type>_MxN, K = two 128-byte
swizzle atoms) and GEMMS (cutedsl_gemm_*, K = one atom) take three pointer parameters, A (M x K,
K-major), B (N x K, K-major) and C (M x N f32, row-major); every thread copies elements of A and
B into the swizzled shared-memory layouts, warp 0 issues the MMAs and tcgen05.commit to an
mbarrier, and each warp reads its lanes of D with tcgen05.ld (32x32b) and stores them to C.
The TMA_GEMMS kernels (cutedsl_tma_gemm_*_MxNxK) load A (M x K) and B (N x K) with TMA instead:
two CUtensorMap parameters (`.param .align 64 .b8 [128]`, encoded by CuTe's host code from the
K-major 128B-swizzled shared layouts: box BK x M and BK x N, 128B swizzle) and C's pointer;
warp 0 loads one K block at a time (mbarrier expect_tx), issues its MMAs and commits them.
"""
import glob
import json
import os
import shutil
import sys
import tempfile

DUMP = tempfile.mkdtemp(prefix="cutedsl-")
os.environ["CUTE_DSL_ARCH"] = "sm_100a"
os.environ["CUTE_DSL_KEEP"] = "ptx"
os.environ["CUTE_DSL_DUMP_DIR"] = DUMP

import cutlass  # noqa: E402
import cutlass.cute as cute  # noqa: E402
from cutlass.memory import SmemAllocator  # noqa: E402
import cutlass.utils.blackwell_helpers as sm100  # noqa: E402
from cutlass.cute.nvgpu import cpasync, tcgen05  # noqa: E402
from cutlass.cute.runtime import make_ptr  # noqa: E402

TYPES = {"f16": cutlass.Float16, "bf16": cutlass.BFloat16, "tf32": cutlass.TFloat32,
         "e4m3": cutlass.Float8E4M3FN, "e5m2": cutlass.Float8E5M2}
KIND = {"f16": "f16", "bf16": "f16", "tf32": "tf32", "e4m3": "f8f6f4", "e5m2": "f8f6f4"}

# name: (A/B type, M, N); two K blocks of 128 bytes per row.
KERNELS = {
    "cutedsl_f16_128x128": ("f16", 128, 128),
    "cutedsl_bf16_128x256": ("bf16", 128, 256),
    "cutedsl_tf32_128x64": ("tf32", 128, 64),
    "cutedsl_e4m3_128x128": ("e4m3", 128, 128),
    "cutedsl_bf16_64x128": ("bf16", 64, 128),
}

# name: (A/B type, M, N); one K block of 128 bytes per row.
GEMMS = {
    "cutedsl_gemm_f16_128x128": ("f16", 128, 128),
    "cutedsl_gemm_bf16_128x256": ("bf16", 128, 256),
    "cutedsl_gemm_tf32_128x64": ("tf32", 128, 64),
    "cutedsl_gemm_e4m3_128x128": ("e4m3", 128, 128),
}

# name: (A/B type, M, N, K); K blocks of 128 bytes per row.
TMA_GEMMS = {
    "cutedsl_tma_gemm_f16_128x128x128": ("f16", 128, 128, 128),
    "cutedsl_tma_gemm_bf16_128x256x192": ("bf16", 128, 256, 192),
}


def pointers(ab):
    """The host function's three pointer arguments (A, B, C) as `cute.compile` takes them: their
    types and alignment matter, not the addresses."""
    g = cute.AddressSpace.gmem
    return (make_ptr(ab, 0x10000, g, 16), make_ptr(ab, 0x20000, g, 16),
            make_ptr(cutlass.Float32, 0x30000, g, 16))


def launch_one_cta(kernel):
    """The host function of a pointer kernel: one CTA of 128 threads."""

    @cute.jit
    def host(pa: cute.Pointer, pb: cute.Pointer, pc: cute.Pointer):
        kernel(pa, pb, pc).launch(grid=(1, 1, 1), block=(128, 1, 1))

    return host


def make_gemm(ab_name, m, n, kblocks=1):
    """C (M x N f32) = A (M x K) B (N x K)^T with K = `kblocks` swizzle atoms of 128 bytes, all
    in shared memory at once."""
    ab = TYPES[ab_name]
    bk = 128 * 8 // ab.width * kblocks
    tiler = (m, n, bk)
    cols = max(32, n)

    @cute.kernel
    def kernel(pa: cute.Pointer, pb: cute.Pointer, pc: cute.Pointer):
        tiled_mma = sm100.make_trivial_tiled_mma(
            ab, ab, cute.nvgpu.OperandMajorMode.K, cute.nvgpu.OperandMajorMode.K, cutlass.Float32,
            tcgen05.CtaGroup.ONE, (m, n))
        a_layout = sm100.make_smem_layout_a(tiled_mma, tiler, ab, 1)
        b_layout = sm100.make_smem_layout_b(tiled_mma, tiler, ab, 1)
        smem = SmemAllocator()
        sA = smem.allocate_tensor(ab, a_layout.outer, 1024, a_layout.inner)
        sB = smem.allocate_tensor(ab, b_layout.outer, 1024, b_layout.inner)
        mbar = smem.allocate_array(cutlass.Int64, 1)
        holder = smem.allocate_array(cutlass.Int32, 1)
        tidx, _, _ = cute.arch.thread_idx()
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())
        gA = cute.make_tensor(pa, cute.make_layout((m, bk), stride=(bk, 1)))
        gB = cute.make_tensor(pb, cute.make_layout((n, bk), stride=(bk, 1)))
        gC = cute.make_tensor(pc, cute.make_layout((m, n), stride=(n, 1)))
        thr_mma = tiled_mma.get_slice(0)
        tCgA = thr_mma.partition_A(gA)
        tCgB = thr_mma.partition_B(gB)
        # The global partitions have the shared layouts' shape: element i is the same (row, k).
        sA0 = sA[None, None, None, 0]
        sB0 = sB[None, None, None, 0]
        for i in cutlass.range(tidx, cute.size(sA0), 128):
            sA0[i] = tCgA[i]
        for i in cutlass.range(tidx, cute.size(sB0), 128):
            sB0[i] = tCgB[i]
        cute.arch.fence_proxy("async.shared", space="cta")
        if warp == 0:
            cute.arch.alloc_tmem(cols, holder)
            with cute.arch.elect_one():
                cute.arch.mbarrier_init(mbar, 1)
            cute.arch.mbarrier_init_fence()
        cute.arch.barrier()
        tmem = cute.arch.retrieve_tmem_ptr(cutlass.Float32, 16, holder)
        tCrA = tiled_mma.make_fragment_A(sA)
        tCrB = tiled_mma.make_fragment_B(sB)
        acc = tiled_mma.make_fragment_C(tiled_mma.partition_shape_C((m, n)))
        tCtAcc = cute.make_tensor(tmem, acc.layout)
        tiled_mma.set(tcgen05.Field.ACCUMULATE, False)
        if warp == 0:
            for kb in cutlass.range_constexpr(cute.size(tCrA, mode=[2])):
                cute.gemm(tiled_mma, tCtAcc, tCrA[None, None, kb, 0], tCrB[None, None, kb, 0], tCtAcc)
                tiled_mma.set(tcgen05.Field.ACCUMULATE, True)
            with cute.arch.elect_one():
                tcgen05.commit(mbar)
        cute.arch.mbarrier_wait(mbar, 0)
        tmem_to_global(tiled_mma, tCtAcc, gC, tidx, m)
        cute.arch.barrier()
        if warp == 0:
            cute.arch.relinquish_tmem_alloc_permit()
            cute.arch.dealloc_tmem(tmem, cols)

    return launch_one_cta(kernel), pointers(ab)


def tmem_to_global(tiled_mma, tCtAcc, gC, tidx, m=128):
    """Each thread's lane of D (tcgen05.ld 32x32b, 32 columns at a time) stored to C; with M = 64
    (D in lanes 0-15 of each warp's 32, PTX ISA 9.7.16.10.5.6) tcgen05.ld 16x128b, as CuTe
    DSL's get_tmem_load_op picks for 16 data-path lanes."""
    tCgC = tiled_mma.get_slice(0).partition_C(gC)
    op = (tcgen05.Ld16x128bOp(tcgen05.Repetition.x16) if m == 64
          else tcgen05.Ld32x32bOp(tcgen05.Repetition.x32))
    atom = cute.make_copy_atom(op, cutlass.Float32)
    tiled_ld = tcgen05.make_tmem_copy(atom, tCtAcc[(None, None), 0, 0])
    thr_ld = tiled_ld.get_slice(tidx)
    tTR_t = thr_ld.partition_S(tCtAcc[(None, None), 0, 0])
    tTR_g = thr_ld.partition_D(tCgC[(None, None), 0, 0])
    tTR_r = cute.make_rmem_tensor(tTR_g.shape, cutlass.Float32)
    cute.copy(tiled_ld, tTR_t, tTR_r)
    cute.arch.fence_view_async_tmem_load()
    cute.autovec_copy(tTR_r, tTR_g)


def make_tma_gemm(ab_name, m, n, k):
    ab = TYPES[ab_name]
    bk = 128 * 8 // ab.width
    tiler = (m, n, bk)
    cols = max(32, n)

    def mma():
        return sm100.make_trivial_tiled_mma(
            ab, ab, cute.nvgpu.OperandMajorMode.K, cute.nvgpu.OperandMajorMode.K, cutlass.Float32,
            tcgen05.CtaGroup.ONE, (m, n))

    @cute.kernel
    def kernel(atom_a: cute.CopyAtom, tA: cute.Tensor, atom_b: cute.CopyAtom, tB: cute.Tensor,
               pc: cute.Pointer):
        tiled_mma = mma()
        a_layout = sm100.make_smem_layout_a(tiled_mma, tiler, ab, 1)
        b_layout = sm100.make_smem_layout_b(tiled_mma, tiler, ab, 1)
        smem = SmemAllocator()
        sA = smem.allocate_tensor(ab, a_layout.outer, 1024, a_layout.inner)
        sB = smem.allocate_tensor(ab, b_layout.outer, 1024, b_layout.inner)
        mbar = smem.allocate_array(cutlass.Int64, 2)
        holder = smem.allocate_array(cutlass.Int32, 1)
        tidx, _, _ = cute.arch.thread_idx()
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())
        thr_mma = tiled_mma.get_slice(0)
        tCgA = thr_mma.partition_A(cute.local_tile(tA, (m, bk), (0, None)))
        tCgB = thr_mma.partition_B(cute.local_tile(tB, (n, bk), (0, None)))
        one = cute.make_layout(1)
        tAsA, tAgA = cpasync.tma_partition(atom_a, 0, one, cute.group_modes(sA, 0, 3),
                                           cute.group_modes(tCgA, 0, 3))
        tBsB, tBgB = cpasync.tma_partition(atom_b, 0, one, cute.group_modes(sB, 0, 3),
                                           cute.group_modes(tCgB, 0, 3))
        if warp == 0:
            cute.arch.alloc_tmem(cols, holder)
            with cute.arch.elect_one():
                cute.arch.mbarrier_init(mbar, 1)
                cute.arch.mbarrier_init(mbar + 1, 1)
            cute.arch.mbarrier_init_fence()
        cute.arch.barrier()
        tmem = cute.arch.retrieve_tmem_ptr(cutlass.Float32, 16, holder)
        tCrA = tiled_mma.make_fragment_A(sA)
        tCrB = tiled_mma.make_fragment_B(sB)
        acc = tiled_mma.make_fragment_C(tiled_mma.partition_shape_C((m, n)))
        tCtAcc = cute.make_tensor(tmem, acc.layout)
        tiled_mma.set(tcgen05.Field.ACCUMULATE, False)
        if warp == 0:
            for kt in cutlass.range_constexpr(k // bk):
                with cute.arch.elect_one():
                    cute.arch.mbarrier_arrive_and_expect_tx(mbar, (m + n) * bk * ab.width // 8)
                cute.copy(atom_a, tAgA[(None, kt)], tAsA[(None, 0)], tma_bar_ptr=mbar)
                cute.copy(atom_b, tBgB[(None, kt)], tBsB[(None, 0)], tma_bar_ptr=mbar)
                cute.arch.mbarrier_wait(mbar, kt % 2)
                for kb in cutlass.range_constexpr(cute.size(tCrA, mode=[2])):
                    cute.gemm(tiled_mma, tCtAcc, tCrA[None, None, kb, 0],
                              tCrB[None, None, kb, 0], tCtAcc)
                    tiled_mma.set(tcgen05.Field.ACCUMULATE, True)
                with cute.arch.elect_one():
                    tcgen05.commit(mbar + 1)
                cute.arch.mbarrier_wait(mbar + 1, kt % 2)
        cute.arch.barrier()
        gC = cute.make_tensor(pc, cute.make_layout((m, n), stride=(n, 1)))
        tmem_to_global(tiled_mma, tCtAcc, gC, tidx)
        cute.arch.barrier()
        if warp == 0:
            cute.arch.relinquish_tmem_alloc_permit()
            cute.arch.dealloc_tmem(tmem, cols)

    @cute.jit
    def host(pa: cute.Pointer, pb: cute.Pointer, pc: cute.Pointer):
        tiled_mma = mma()
        mA = cute.make_tensor(pa, cute.make_layout((m, k), stride=(k, 1)))
        mB = cute.make_tensor(pb, cute.make_layout((n, k), stride=(k, 1)))
        a_layout = sm100.make_smem_layout_a(tiled_mma, tiler, ab, 1)
        b_layout = sm100.make_smem_layout_b(tiled_mma, tiler, ab, 1)
        op = cpasync.CopyBulkTensorTileG2SOp(tcgen05.CtaGroup.ONE)
        atom_a, tA = cute.nvgpu.make_tiled_tma_atom_A(
            op, mA, cute.slice_(a_layout, (None, None, None, 0)), tiler, tiled_mma)
        atom_b, tB = cute.nvgpu.make_tiled_tma_atom_B(
            op, mB, cute.slice_(b_layout, (None, None, None, 0)), tiler, tiled_mma)
        kernel(atom_a, tA, atom_b, tB, pc).launch(grid=(1, 1, 1), block=(128, 1, 1))

    return host, pointers(ab)


def keep(out, name, fn, args, ab_name, m, n, k):
    for old in glob.glob(os.path.join(DUMP, "**", "*.ptx"), recursive=True):
        os.remove(old)
    cute.compile(fn, *args)
    new = sorted(glob.glob(os.path.join(DUMP, "**", "*.ptx"), recursive=True))
    if len(new) != 1:
        raise SystemExit(f"gen_cutedsl.py: {name}: expected one kept PTX file, found {new}")
    shutil.copy(new[0], os.path.join(out, name + ".ptx"))
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump({"compiler": "nvidia-cutlass-dsl 4.8.1", "kind": KIND[ab_name], "m": m, "n": n,
                   "k": k, "a_type": ab_name, "b_type": ab_name, "d_type": "f32", "cta_group": 1},
                  f, indent=1, sort_keys=True)
        f.write("\n")
    print(name, file=sys.stderr)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (ab_name, m, n) in KERNELS.items():
        fn, args = make_gemm(ab_name, m, n, 2)
        keep(out, name, fn, args, ab_name, m, n, 2 * 128 * 8 // TYPES[ab_name].width)
    for name, (ab_name, m, n) in GEMMS.items():
        fn, args = make_gemm(ab_name, m, n)
        keep(out, name, fn, args, ab_name, m, n, 128 * 8 // TYPES[ab_name].width)
    for name, (ab_name, m, n, k) in TMA_GEMMS.items():
        fn, args = make_tma_gemm(ab_name, m, n, k)
        keep(out, name, fn, args, ab_name, m, n, k)
    shutil.rmtree(DUMP)


if __name__ == "__main__":
    main()
