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
"""
import os
import warnings

warnings.filterwarnings("ignore")

import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.experimental import gluon  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402
from triton.experimental.gluon._runtime import GluonASTSource  # noqa: E402
from triton.experimental.gluon.language.nvidia.blackwell import (  # noqa: E402
    TensorMemoryLayout, allocate_tensor_memory, tcgen05_mma)
from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, mbarrier  # noqa: E402


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


def pair_dot_ptx(m=256, n=128, k=64):
    """The PTX of `pair_dot` for an M x N x K tile, 4 warps per CTA, clusters of 2 CTAs."""
    os.environ.setdefault("TRITON_DISABLE_LINE_INFO", "1")
    layouts = {
        "A_SMEM": gl.NVMMASharedLayout.get_default_for([m, k], gl.float16, cga_layout=[(1, 0)]),
        "B_SMEM": gl.NVMMASharedLayout.get_default_for([k, n], gl.float16, cga_layout=[(0, 1)]),
        "C_SMEM": gl.NVMMASharedLayout.get_default_for([m, n], gl.float32, cga_layout=[(1, 0)]),
    }
    sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "constexpr", "N": "constexpr",
           "K": "constexpr", "A_SMEM": "constexpr", "B_SMEM": "constexpr", "C_SMEM": "constexpr"}
    src = GluonASTSource(pair_dot, sig, {"M": m, "N": n, "K": k, **layouts})
    kernel = triton.compile(src, target=GPUTarget("cuda", 100, 32), options={"num_warps": 4, "num_ctas": 2})
    return kernel.asm["ptx"]
