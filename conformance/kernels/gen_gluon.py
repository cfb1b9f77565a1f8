"""Gluon kernels (Triton 3.9.0's tile-level language) compiled for sm_100a without a GPU.

`pair_dot` is a two-CTA GEMM tile: C (M x N, f32) = A (M x K, f16) x B (K x N, f16) on a cluster
of two CTAs whose tensor cores work as a CTA pair (`tcgen05.mma.cta_group::2`, PTX ISA
9.7.16.5.1). CTA r of the cluster loads rows r M/2 .. of A and columns r N/2 .. of B into its
own shared memory (NVMMA-swizzled layouts split over the cluster by `cga_layout`); after a
cluster barrier the even CTA issues the MMAs on a two-CTA Tensor Memory accumulator
(`TensorMemoryLayout(..., two_ctas=True)`), whose completion Gluon commits with
`.multicast::cluster` to both CTAs' mbarriers; each CTA moves its rows of D from Tensor Memory
to shared memory, reads them back row by row and stores them with plain global stores (the
run models tensor-map loads, not tensor-map stores).

`multicast_dot` and `pair_tma_dot` load their operands with TMA from host tensor descriptors:
`multicast_dot` on a 2 x 2 cluster of one-CTA MMAs, each tile of A and of B loaded once and
multicast (`cp.async.bulk.tensor ... .multicast::cluster` with a CTA mask) to the two CTAs that
use it; `pair_tma_dot` on a CTA pair (`cp.async.bulk.tensor.2d.cta_group::2`, both CTAs' copies
completing on the even CTA's mbarrier, whose address Triton forms by clearing bit 24, the peer
bit, of its own shared address).
"""
import os
import sys
import warnings

warnings.filterwarnings("ignore")

import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.experimental import gluon  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402
from triton.experimental.gluon._runtime import GluonASTSource  # noqa: E402
from triton.experimental.gluon.language.nvidia.blackwell import (  # noqa: E402
    TensorMemoryLayout, allocate_tensor_memory, tcgen05_mma)
from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, mbarrier, tma  # noqa: E402


@gluon.jit
def pair_dot(a_ptr, b_ptr, c_ptr, M: gl.constexpr, N: gl.constexpr, K: gl.constexpr,
             A_SMEM: gl.constexpr, B_SMEM: gl.constexpr, C_SMEM: gl.constexpr):
    # Rows of A split over the two CTAs, columns of B likewise.
    rows_a: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0], cga_layout=[[1, 0]])
    cols_b: gl.constexpr = gl.BlockedLayout([1, 8], [8, 4], [4, 1], [1, 0], cga_layout=[[0, 1]])
    i = gl.arange(0, M, layout=gl.SliceLayout(1, rows_a))
    ka = gl.arange(0, K, layout=gl.SliceLayout(0, rows_a))
    a = gl.load(a_ptr + i[:, None] * K + ka[None, :])
    kb = gl.arange(0, K, layout=gl.SliceLayout(1, cols_b))
    j = gl.arange(0, N, layout=gl.SliceLayout(0, cols_b))
    b = gl.load(b_ptr + kb[:, None] * N + j[None, :])
    smem_a = gl.allocate_shared_memory(gl.float16, [M, K], A_SMEM, a)
    smem_b = gl.allocate_shared_memory(gl.float16, [K, N], B_SMEM, b)
    done = mbarrier.allocate_mbarrier()
    mbarrier.init(done, count=1)
    # Both CTAs' operands are in shared memory before the even CTA's MMA reads them.
    fence_async_shared(cluster=True)
    gl.barrier(cluster=True)
    acc_layout: gl.constexpr = TensorMemoryLayout(block=(M // 2, N), col_stride=1, cga_layout=[[1, 0]],
                                                  two_ctas=True)
    acc = allocate_tensor_memory(gl.float32, [M, N], acc_layout)
    tcgen05_mma(smem_a, smem_b, acc, use_acc=False, mbarriers=[done])
    mbarrier.wait(done, phase=0, deps=[smem_a, smem_b])
    smem_c = gl.allocate_shared_memory(gl.float32, [M, N], C_SMEM, acc.load())
    gl.barrier()
    rows_c: gl.constexpr = gl.BlockedLayout([1, N], [32, 1], [4, 1], [0, 1], cga_layout=[[1, 0]])
    d = smem_c.load(rows_c)
    ic = gl.arange(0, M, layout=gl.SliceLayout(1, rows_c))
    jc = gl.arange(0, N, layout=gl.SliceLayout(0, rows_c))
    gl.store(c_ptr + ic[:, None] * N + jc[None, :], d)


@gluon.jit
def pair_dot_direct(a_ptr, b_ptr, c_ptr, M: gl.constexpr, N: gl.constexpr, K: gl.constexpr,
                    A_SMEM: gl.constexpr, B_SMEM: gl.constexpr, C_SMEM: gl.constexpr):
    # `pair_dot` with the epilogue stored straight from the registers `acc.load()` fills, in the
    # layout of the load (no trip through shared memory). A reproducer: Triton 3.9.0 emits the
    # 128 `st.global` of the loaded registers between the `tcgen05.ld` and its
    # `tcgen05.wait::ld` (see pair_dot_direct_ptx). C_SMEM is unused (same signature).
    rows_a: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0], cga_layout=[[1, 0]])
    cols_b: gl.constexpr = gl.BlockedLayout([1, 8], [8, 4], [4, 1], [1, 0], cga_layout=[[0, 1]])
    i = gl.arange(0, M, layout=gl.SliceLayout(1, rows_a))
    ka = gl.arange(0, K, layout=gl.SliceLayout(0, rows_a))
    a = gl.load(a_ptr + i[:, None] * K + ka[None, :])
    kb = gl.arange(0, K, layout=gl.SliceLayout(1, cols_b))
    j = gl.arange(0, N, layout=gl.SliceLayout(0, cols_b))
    b = gl.load(b_ptr + kb[:, None] * N + j[None, :])
    smem_a = gl.allocate_shared_memory(gl.float16, [M, K], A_SMEM, a)
    smem_b = gl.allocate_shared_memory(gl.float16, [K, N], B_SMEM, b)
    done = mbarrier.allocate_mbarrier()
    mbarrier.init(done, count=1)
    fence_async_shared(cluster=True)
    gl.barrier(cluster=True)
    acc_layout: gl.constexpr = TensorMemoryLayout(block=(M // 2, N), col_stride=1, cga_layout=[[1, 0]],
                                                  two_ctas=True)
    acc = allocate_tensor_memory(gl.float32, [M, N], acc_layout)
    tcgen05_mma(smem_a, smem_b, acc, use_acc=False, mbarriers=[done])
    mbarrier.wait(done, phase=0, deps=[smem_a, smem_b])
    d = acc.load()
    ic = gl.arange(0, M, layout=gl.SliceLayout(1, d.type.layout))
    jc = gl.arange(0, N, layout=gl.SliceLayout(0, d.type.layout))
    gl.store(c_ptr + ic[:, None] * N + jc[None, :], d)


@gluon.jit
def multicast_dot(a_desc, b_desc, c_ptr, M: gl.constexpr, N: gl.constexpr, K: gl.constexpr,
                  BK: gl.constexpr, C_SMEM: gl.constexpr):
    # A cluster of 2 x 2 CTAs computes C (M x N) = A (M x K) x B (K x N): CTA r holds the
    # (r & 1, r >> 1) block of 128 rows and N/2 columns of C. Each K step loads A's rows once
    # for the two CTAs that share them (TMA multicast to ranks r, r + 2) and B's columns once
    # for the two that share them (ranks r, r + 1); each CTA's MMA is a one-CTA tcgen05.mma.
    a_s = gl.allocate_shared_memory(a_desc.dtype, [M, BK], a_desc.layout)
    b_s = gl.allocate_shared_memory(b_desc.dtype, [BK, N], b_desc.layout)
    bar = mbarrier.allocate_mbarrier()
    mbarrier.init(bar, count=1)
    done = mbarrier.allocate_mbarrier()
    mbarrier.init(done, count=1)
    gl.barrier(cluster=True)
    acc_layout: gl.constexpr = TensorMemoryLayout(block=(M // 2, N // 2), col_stride=1,
                                                  cga_layout=[[1, 0], [0, 1]])
    acc = allocate_tensor_memory(gl.float32, [M, N], acc_layout)
    phase = 0
    for k0 in gl.static_range(0, K, BK):
        mbarrier.expect(bar, a_desc.nbytes_per_cta + b_desc.nbytes_per_cta)
        tma.async_load(a_desc, [0, k0], bar, a_s, multicast=True)
        tma.async_load(b_desc, [k0, 0], bar, b_s, multicast=True)
        mbarrier.wait(bar, phase)
        tcgen05_mma(a_s, b_s, acc, use_acc=k0 > 0, mbarriers=[done])
        mbarrier.wait(done, phase)
        # Every CTA that received a tile has read it before the next step overwrites it.
        gl.barrier(cluster=True)
        phase = phase ^ 1
    # D through shared memory, with a cluster barrier between the load and the first use of
    # its registers: without it Triton 3.9.0 emits the uses before the load's
    # tcgen05.wait::ld here (as in pair_dot_direct, and a CTA barrier does not help); it puts
    # the wait before a cluster barrier.
    acc_regs = acc.load()
    gl.barrier(cluster=True)
    smem_c = gl.allocate_shared_memory(gl.float32, [M, N], C_SMEM, acc_regs)
    gl.barrier()
    rows_c: gl.constexpr = gl.BlockedLayout([1, N // 2], [32, 1], [4, 1], [0, 1],
                                            cga_layout=[[1, 0], [0, 1]])
    d = smem_c.load(rows_c)
    ic = gl.arange(0, M, layout=gl.SliceLayout(1, rows_c))
    jc = gl.arange(0, N, layout=gl.SliceLayout(0, rows_c))
    gl.store(c_ptr + ic[:, None] * N + jc[None, :], d)


@gluon.jit
def pair_tma_dot(a_desc, b_desc, c_ptr, M: gl.constexpr, N: gl.constexpr, K: gl.constexpr,
                 BK: gl.constexpr, C_SMEM: gl.constexpr):
    # A two-CTA GEMM tile fed by TMA: CTA r of the pair loads rows r M/2 .. of A and columns
    # r N/2 .. of B (`cp.async.bulk.tensor.2d.cta_group::2`), both copies completing on the
    # even CTA's mbarrier (`bar`, a two-CTA barrier: its shared::cluster address with bit 24
    # cleared); the even CTA waits and issues the `.cta_group::2` MMAs.
    a_s = gl.allocate_shared_memory(a_desc.dtype, [M, BK], a_desc.layout)
    b_s = gl.allocate_shared_memory(b_desc.dtype, [BK, N], b_desc.layout)
    bar = mbarrier.allocate_mbarrier(two_ctas=True)
    mbarrier.init(bar, count=1)
    done = mbarrier.allocate_mbarrier()
    mbarrier.init(done, count=1)
    gl.barrier(cluster=True)
    acc_layout: gl.constexpr = TensorMemoryLayout(block=(M // 2, N), col_stride=1, cga_layout=[[1, 0]],
                                                  two_ctas=True)
    acc = allocate_tensor_memory(gl.float32, [M, N], acc_layout)
    phase = 0
    for k0 in gl.static_range(0, K, BK):
        mbarrier.expect(bar, a_desc.nbytes_per_cta + b_desc.nbytes_per_cta)
        tma.async_load(a_desc, [0, k0], bar, a_s)
        tma.async_load(b_desc, [k0, 0], bar, b_s)
        mbarrier.wait(bar, phase)
        tcgen05_mma(a_s, b_s, acc, use_acc=k0 > 0, mbarriers=[done])
        mbarrier.wait(done, phase)
        phase = phase ^ 1
    smem_c = gl.allocate_shared_memory(gl.float32, [M, N], C_SMEM, acc.load())
    gl.barrier()
    rows_c: gl.constexpr = gl.BlockedLayout([1, N], [32, 1], [4, 1], [0, 1], cga_layout=[[1, 0]])
    d = smem_c.load(rows_c)
    ic = gl.arange(0, M, layout=gl.SliceLayout(1, rows_c))
    jc = gl.arange(0, N, layout=gl.SliceLayout(0, rows_c))
    gl.store(c_ptr + ic[:, None] * N + jc[None, :], d)


def pair_dot_ptx(m=256, n=128, k=64, fn=None):
    """The PTX of `pair_dot` for an M x N x K tile, 4 warps per CTA, clusters of 2 CTAs."""
    os.environ.setdefault("TRITON_DISABLE_LINE_INFO", "1")
    layouts = {
        "A_SMEM": gl.NVMMASharedLayout.get_default_for([m, k], gl.float16, cga_layout=[(1, 0)]),
        "B_SMEM": gl.NVMMASharedLayout.get_default_for([k, n], gl.float16, cga_layout=[(0, 1)]),
        "C_SMEM": gl.NVMMASharedLayout.get_default_for([m, n], gl.float32, cga_layout=[(1, 0)]),
    }
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "constexpr", "N": "constexpr",
           "K": "constexpr", "A_SMEM": "constexpr", "B_SMEM": "constexpr", "C_SMEM": "constexpr"}
    src = GluonASTSource(fn or pair_dot, sig, {"M": m, "N": n, "K": k, **layouts})
    kernel = triton.compile(src, target=GPUTarget("cuda", 100, 32), options={"num_warps": 4, "num_ctas": 2})
    return kernel.asm["ptx"]


def pair_dot_direct_ptx(m=256, n=128, k=64):
    """The PTX of `pair_dot_direct` (the wait::ld reproducer): with Triton 3.9.0 the
    `tcgen05.ld.sync.aligned.32x32b.x128.b32` of D is followed by 128 `st.global.b32` of its
    destination registers, and only then by `tcgen05.wait::ld.sync.aligned`.

    python conformance/kernels/gen_gluon.py wait-ld OUT.ptx   writes it and prints the lines."""
    return pair_dot_ptx(m, n, k, fn=pair_dot_direct)


def _tma_dot_ptx(fn, a_cga, b_cga, c_cga, num_ctas, m, n, k, bk):
    """The PTX of a Gluon TMA GEMM (`multicast_dot`, `pair_tma_dot`) with f16 tensor
    descriptors over A (M x BK boxes) and B (BK x N boxes), 128B-swizzled NVMMA layouts split
    over the cluster by the CGA layouts (C's for the epilogue's shared tile), 4 warps per CTA, `num_ctas` CTAs per cluster. The
    boxes the host encodes are Triton's `tensordesc_meta` block sizes (one CTA's share)."""
    os.environ.setdefault("TRITON_DISABLE_LINE_INFO", "1")
    al = gl.NVMMASharedLayout.get_default_for([m, bk], gl.float16, cga_layout=a_cga)
    bl = gl.NVMMASharedLayout.get_default_for([bk, n], gl.float16, cga_layout=b_cga)
    sig = {"a_desc": f"tensordesc<fp16[{m}, {bk}],{al!r}>",
           "b_desc": f"tensordesc<fp16[{bk}, {n}],{bl!r}>", "c_ptr": "*fp32",
           "M": "constexpr", "N": "constexpr", "K": "constexpr", "BK": "constexpr",
           "C_SMEM": "constexpr"}
    cl = gl.NVMMASharedLayout.get_default_for([m, n], gl.float32, cga_layout=c_cga)
    src = GluonASTSource(fn, sig, {"M": m, "N": n, "K": k, "BK": bk, "C_SMEM": cl})
    kernel = triton.compile(src, target=GPUTarget("cuda", 100, 32),
                            options={"num_warps": 4, "num_ctas": num_ctas})
    return kernel.asm["ptx"]


def multicast_dot_ptx(m=256, n=128, k=128, bk=64):
    """`multicast_dot` on a cluster of 4 CTAs (2 x 2): A's box 128 x 64 multicast with ctaMask
    0b0101 << (rank & 1), B's box 64 x 64 with 0b0011 << (rank & 2)."""
    return _tma_dot_ptx(multicast_dot, [[1, 0], [0, 0]], [[0, 0], [0, 1]], [[1, 0], [0, 1]], 4,
                        m, n, k, bk)


def pair_tma_dot_ptx(m=256, n=128, k=128, bk=64):
    """`pair_tma_dot` on a cluster of 2 CTAs: boxes 128 x 64 of A and 64 x 64 of B per CTA."""
    return _tma_dot_ptx(pair_tma_dot, [[1, 0]], [[0, 1]], [[1, 0]], 2, m, n, k, bk)


def main():
    if sys.argv[1:2] != ["wait-ld"] or len(sys.argv) != 3:
        sys.exit("usage: gen_gluon.py wait-ld OUT.ptx")
    ptx = pair_dot_direct_ptx()
    with open(sys.argv[2], "w") as f:
        f.write(ptx)
    lines = ptx.splitlines()
    ld = next(i for i, t in enumerate(lines) if "tcgen05.ld." in t)
    wait = next(i for i, t in enumerate(lines) if "tcgen05.wait::ld" in t)
    regs = set(lines[ld].split("{", 1)[1].split("}", 1)[0].replace(" ", "").split(","))
    early = [i for i in range(ld + 1, wait) if "st.global" in lines[i]
             and lines[i].split("{", 1)[-1].split("}", 1)[0].strip() in regs]
    print(f"tcgen05.ld at line {ld + 1}, tcgen05.wait::ld at line {wait + 1}: "
          f"{len(early)} st.global of its destination registers in between")


if __name__ == "__main__":
    main()
