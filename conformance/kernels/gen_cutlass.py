"""Compile CUTLASS 4.2.0 (CuTe) tcgen05.mma kernels to PTX for sm_100a (and sm_103a) with nvcc 13.5.37.

Usage: python gen_cutlass.py OUT_DIR INCLUDE_DIR... (CUTLASS, CCCL and CUDA include directories)

Every kernel is complete, for the interpreter (crates/tcgen05-run/tests/cute_gemm.rs): A and B
from global memory (K-major) into shared memory, the MMAs, tcgen05.commit to an mbarrier, the
wait, tcgen05.ld of D and its store to global memory. Writes OUT_DIR/<name>.ptx and
OUT_DIR/<name>.json (the kernel's parameters: kind, M, N, the tile's K, element types, CTA group).

The KERNELS (one per cute::SM100_MMA_* atom, element types and shape) build their shared memory
descriptors with CuTe's UMMA::make_umma_desc from K-major 128-byte-swizzled shared-memory tensors
(each K slice of one MMA), their instruction descriptor with UMMA::make_instr_desc, and issue the
atom over the 128 bytes of K; A (M x K), B (N x K) and D (M x N, f32, f16 or s32, row-major) by
pointer. With cta_group 2 (SM100_MMA_F16BF16_2x1SM_SS, M = 256) they run as a cluster of two
CTAs, each holding half of A's rows and half of B's, the even CTA issuing the MMAs and
committing them to both CTAs' mbarriers (umma_arrive_multicast_2x1SM), each CTA storing its 128
rows of D. With M = 64 D is read with 16x32bx2 (half the data path).

The sm_103a kernels issue CUTLASS's K = 96 block-scaled atom
cute::SM103::SM103_MXF4_ULTRA_2x1SM_SS_VS as its SM103::mma_unpack prepares it: absolute-LBO
descriptors whose LBO is the next K block's start, the K bit of the instruction descriptor set,
and the scale-factor IDs from the Tensor Memory addresses; A (M x 96 E2M1), B (N x 96) and the
scale factors (M x S, N x S bytes) by pointer, the scale factors stored into Tensor Memory with
tcgen05.st where ruling T3 of docs/rules.md places them.

The GEMMS kernels (cutlass_gemm_*): A (M x 128 bytes of K, K-major), B (N x 128 bytes of K,
K-major) and C (M x N f32, row-major) by pointer; every thread copies elements into the K-major
128B-swizzled CuTe tensors, thread 0 issues SM100_MMA_F16BF16_SS over the K blocks of 16 (from
UMMA::make_umma_desc of each K slice) and umma_arrive, every thread waits on the mbarrier and
reads its lane of D with SM100_TMEM_LOAD_32dp32b32x.
"""
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SOURCE = r"""
#include <cute/tensor.hpp>
#include <cute/arch/mma_sm100_umma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/arch/copy_sm100.hpp>
#include <cute/arch/tmem_allocator_sm100.hpp>
#include <cute/arch/cluster_sm90.hpp>
#include <cutlass/arch/barrier.h>
using namespace cute;

#define R4(i) r[i], r[i + 1], r[i + 2], r[i + 3]
#define R16(i) R4(i), R4(i + 4), R4(i + 8), R4(i + 12)
#define R32(i) R16(i), R16(i + 16)

using A = %(a)s;
using B = %(b)s;
using D = %(d)s;
// D's elements as stored: the bits of each 32-bit Tensor Memory cell (a 16-bit D in bits 15-0).
using Out = cute::conditional_t<sizeof(D) == 2, uint16_t, uint32_t>;

__global__ void kernel(const A* ga, const B* gb, Out* gd) {
  constexpr int M = %(m)d, N = %(n)d, CTAS = %(ctas)d, KM = %(km)d;
  constexpr int KA = 128 / sizeof(A), KB = 128 / sizeof(B);
  // Each CTA of a pair holds half of A's rows and half of B's (rows of B are columns of D).
  constexpr int MC = M / CTAS, NC = N / CTAS;
  __shared__ alignas(1024) A smem_a[MC * KA];
  __shared__ alignas(1024) B smem_b[NC * KB];
  __shared__ alignas(8) uint64_t mbar;
  __shared__ uint32_t tmem_base;
  auto sA = make_tensor(make_smem_ptr(smem_a),
                        tile_to_shape(UMMA::Layout_K_SW128_Atom<A>{}, make_shape(Int<MC>{}, Int<KA>{})));
  auto sB = make_tensor(make_smem_ptr(smem_b),
                        tile_to_shape(UMMA::Layout_K_SW128_Atom<B>{}, make_shape(Int<NC>{}, Int<KB>{})));
  const int rank = CTAS == 2 ? int(block_rank_in_cluster()) : 0;
  for (int e = threadIdx.x; e < MC * KA; e += blockDim.x) sA(e / KA, e %% KA) = ga[rank * MC * KA + e];
  for (int e = threadIdx.x; e < NC * KB; e += blockDim.x) sB(e / KB, e %% KB) = gb[rank * NC * KB + e];
  cutlass::arch::fence_view_async_shared();
  const int warp = threadIdx.x / 32;
  cute::conditional_t<CTAS == 2, TMEM::Allocator2Sm, TMEM::Allocator1Sm> tmem_alloc;
  if (warp == 0) tmem_alloc.allocate(N, &tmem_base);
  if (threadIdx.x == 0) {
    cutlass::arch::ClusterBarrier::init(&mbar, 1);
    cutlass::arch::fence_barrier_init();
  }
  if constexpr (CTAS == 2) cluster_sync(); else __syncthreads();
  const uint32_t tmem = tmem_base;
  // One thread (of the even CTA of a pair) issues the MMAs over the 128 bytes of K and commits
  // them to the mbarrier (with a pair: each CTA's, by multicast).
  if (threadIdx.x == 0 && rank == 0) {
    UMMA::InstrDescriptor idesc = UMMA::make_instr_desc<A, B, D, M, N, UMMA::Major::K, UMMA::Major::K>();
    const uint64_t idescE = UMMA::make_runtime_instr_desc<>(idesc);
    for (int k = 0; k < KA / KM; ++k) {
      auto ta = local_tile(sA, make_shape(Int<MC>{}, Int<KM>{}), make_coord(0, k));
      auto tb = local_tile(sB, make_shape(Int<NC>{}, Int<KM>{}), make_coord(0, k));
      UMMA::SmemDescriptor da = UMMA::make_umma_desc<UMMA::Major::K>(ta);
      UMMA::SmemDescriptor db = UMMA::make_umma_desc<UMMA::Major::K>(tb);
      %(op)s::fma(da.desc_, db.desc_, tmem, k > 0, idescE);
    }
    if constexpr (CTAS == 2) cutlass::arch::umma_arrive_multicast_2x1SM(&mbar, 0b11);
    else cutlass::arch::umma_arrive(&mbar);
  }
  cutlass::arch::ClusterBarrier::wait(&mbar, 0);
  // D's rows: lane m of the CTA's 128 (M = 128 per CTA), read 32 columns at a time; with
  // M = 64, lanes 0-15 of each warp's 32 (half the data path, PTX ISA 9.7.16.10.5.6), read with
  // 16x32bx2 (threads 0-15 columns c to c + 15 of lanes 0-15, threads 16-31 the next 16).
  const int lane = threadIdx.x %% 32;
  for (int c = 0; c < N; c += 32) {
    if constexpr (MC == 64) {
      uint32_t r[16];
      SM100_TMEM_LOAD_16dp32b16x::copy(tmem + ((warp * 32) << 16) + c, R16(0));
      cutlass::arch::fence_view_async_tmem_load();
      const int row = warp * 16 + lane %% 16;
      for (int j = 0; j < 16; ++j) gd[row * N + c + 16 * (lane / 16) + j] = Out(r[j]);
    } else {
      uint32_t r[32];
      SM100_TMEM_LOAD_32dp32b32x::copy(tmem + ((warp * 32) << 16) + c, R32(0));
      cutlass::arch::fence_view_async_tmem_load();
      const int row = rank * MC + warp * 32 + lane;
      for (int j = 0; j < 32; ++j) gd[row * N + c + j] = Out(r[j]);
    }
  }
  if constexpr (CTAS == 2) cluster_sync(); else __syncthreads();
  if (warp == 0) {
    tmem_alloc.release_allocation_lock();
    tmem_alloc.free(tmem, N);
  }
}
"""

SOURCE_SM103 = r"""
#include <cute/tensor.hpp>
#include <cute/arch/mma_sm100_umma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/arch/copy_sm100.hpp>
#include <cute/arch/tmem_allocator_sm100.hpp>
#include <cute/arch/cluster_sm90.hpp>
#include <cutlass/arch/barrier.h>
using namespace cute;

#define R4(i) r[i], r[i + 1], r[i + 2], r[i + 3]
#define R8(i) R4(i), R4(i + 4)
#define R32(i) R8(i), R8(i + 8), R8(i + 16), R8(i + 24)

// A cluster of two CTAs; CTA c holds rows 128c to 128c + 127 of A (M x 48 bytes: 96 E2M1
// elements, two per byte, the lower K in the low nibble) and rows N/2 c to N/2 (c + 1) - 1 of B
// (N x 48 bytes), every row's scale factors (SFA M x S, SFB N x S bytes, S = 96 / VS) and
// writes its 128 rows of D (M x N f32, row-major).
__global__ void kernel(const uint8_t* ga, const uint8_t* gb, const uint8_t* gsfa,
                       const uint8_t* gsfb, float* gd) {
  using A = cutlass::float_e2m1_t;
  using SF = %(sf)s;
  constexpr int M = %(m)d, N = %(n)d, VS = %(vs)d, S = 96 / VS;
  constexpr int MC = M / 2, NC = N / 2;
  // Two K buffers of 128-byte rows (256 FP4 elements; K-major, 128-byte swizzle, 8-row atoms
  // 1024 bytes apart), as CUTLASS's sm103 mainloop stages them; this MMA is its third of a
  // 384-wide K tile: 48 bytes from byte 96 of buffer 0, running into buffer 1.
  __shared__ alignas(1024) uint8_t smem_a[2][MC * 128];
  __shared__ alignas(1024) uint8_t smem_b[2][NC * 128];
  __shared__ alignas(8) uint64_t mbar;
  __shared__ uint32_t tmem_base;
  auto atoms = [](uint8_t* p, auto rows) {
    return make_tensor(make_smem_ptr(p),
                       tile_to_shape(UMMA::Layout_K_SW128_Atom<uint8_t>{}, make_shape(rows, Int<128>{})));
  };
  auto sA0 = atoms(smem_a[0], Int<MC>{});
  auto sA1 = atoms(smem_a[1], Int<MC>{});
  auto sB0 = atoms(smem_b[0], Int<NC>{});
  auto sB1 = atoms(smem_b[1], Int<NC>{});
  const int rank = int(block_rank_in_cluster());
  // Byte j of a row's 256 (both buffers) is byte j - 96 of its 48 in global memory; the rest 0.
  auto byte = [](const uint8_t* g, int j) -> uint8_t { return j >= 96 && j < 144 ? g[j - 96] : 0; };
  for (int e = threadIdx.x; e < MC * 128; e += blockDim.x) {
    const uint8_t* row = ga + (rank * MC + e / 128) * 48;
    sA0(e / 128, e %% 128) = byte(row, e %% 128);
    sA1(e / 128, e %% 128) = byte(row, 128 + e %% 128);
  }
  for (int e = threadIdx.x; e < NC * 128; e += blockDim.x) {
    const uint8_t* row = gb + (rank * NC + e / 128) * 48;
    sB0(e / 128, e %% 128) = byte(row, e %% 128);
    sB1(e / 128, e %% 128) = byte(row, 128 + e %% 128);
  }
  cutlass::arch::fence_view_async_shared();
  const int warp = threadIdx.x / 32, lane = threadIdx.x %% 32;
  TMEM::Allocator2Sm tmem_alloc;
  if (warp == 0) tmem_alloc.allocate(512, &tmem_base);
  if (threadIdx.x == 0) {
    cutlass::arch::ClusterBarrier::init(&mbar, 1);
    cutlass::arch::fence_barrier_init();
  }
  cluster_sync();
  const uint32_t tmem = tmem_base;
  // Scale factors at Tensor Memory columns 256 (A's) and 264 (B's), SF IDs 0: K block s of row
  // (or column of B) i is byte s %% 4 of column i / 32 + (s / 4) G, G = 4 for A's 128 rows in a
  // CTA and N / 32 for B's N columns (rounded up to 128), in lane i %% 32 of every 32-lane
  // partition (rules.md T3); each CTA of the pair holds its rows of A's and all of B's.
  // The allocation of all 512 columns starts at column 0: constant addresses, so that the
  // instruction descriptor (whose scale-factor IDs come from them) is known at compile time.
  constexpr uint32_t tsfa = 256, tsfb = 264;
  {
    constexpr int GA = 4, GB = (N + 127) / 128 * 4;
    uint32_t r[32] = {};
    for (int c = 0; c < 2 * GA; ++c)
      for (int s = 4 * (c / GA); s < S && s < 4 * (c / GA + 1); ++s)
        r[c] |= uint32_t(gsfa[(rank * MC + (c %% GA) * 32 + lane) * S + s]) << (8 * (s %% 4));
    SM100_TMEM_STORE_32dp32b8x::copy(R8(0), tsfa + ((warp * 32) << 16));
    for (int c = 0; c < 32; ++c) r[c] = 0;
    for (int c = 0; c < 2 * GB; ++c)
      for (int s = 4 * (c / GB); s < S && s < 4 * (c / GB + 1); ++s)
        r[c] |= uint32_t(gsfb[((c %% GB) * 32 + lane) * S + s]) << (8 * (s %% 4));
    SM100_TMEM_STORE_32dp32b32x::copy(R32(0), tsfb + ((warp * 32) << 16));
    cutlass::arch::fence_view_async_tmem_store();
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  cluster_sync();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  if (threadIdx.x == 0 && rank == 0) {
    UMMA::SmemDescriptor da, db, na, nb;
    da.desc_ = db.desc_ = na.desc_ = nb.desc_ = 0;
    for (auto* d : {&da, &db, &na, &nb}) {
      d->version_ = 1;
      d->stride_byte_offset_ = 1024 >> 4;
      d->layout_type_ = uint8_t(UMMA::LayoutType::SWIZZLE_128B);
    }
    da.start_address_ = uint16_t((cast_smem_ptr_to_uint(smem_a[0]) + 96) >> 4);
    na.start_address_ = uint16_t(cast_smem_ptr_to_uint(smem_a[1]) >> 4);
    db.start_address_ = uint16_t((cast_smem_ptr_to_uint(smem_b[0]) + 96) >> 4);
    nb.start_address_ = uint16_t(cast_smem_ptr_to_uint(smem_b[1]) >> 4);
    // SM103::mma_unpack: absolute LBO, the next K block's start address.
    da.lbo_mode_ = 1;
    da.leading_byte_offset_ = na.start_address_;
    db.lbo_mode_ = 1;
    db.leading_byte_offset_ = nb.start_address_;
    UMMA::InstrDescriptorBlockScaled idesc =
        UMMA::make_instr_desc_block_scaled<A, A, float, SF, M, N, UMMA::Major::K, UMMA::Major::K>();
    idesc.k_size_ = 1;
    const uint64_t idescE = UMMA::make_runtime_instr_desc_block_scaled<>(idesc, tsfa, tsfb);
    SM103::SM103_MXF4_ULTRA_2x1SM_SS_VS<A, A, float, SF, M, N, VS, UMMA::Major::K, UMMA::Major::K>::fma(
        da.desc_, db.desc_, tmem, 0, idescE, tsfa, tsfb);
    cutlass::arch::umma_arrive_multicast_2x1SM(&mbar, 0b11);
  }
  cutlass::arch::ClusterBarrier::wait(&mbar, 0);
  // D (layout A, M = 256 over the pair): row m of the CTA in lane m, column n.
  const int row = rank * MC + warp * 32 + lane;
  for (int c = 0; c < N; c += 32) {
    uint32_t r[32];
    SM100_TMEM_LOAD_32dp32b32x::copy(tmem + ((warp * 32) << 16) + c, R32(0));
    cutlass::arch::fence_view_async_tmem_load();
    for (int j = 0; j < 32; ++j) gd[row * N + c + j] = __uint_as_float(r[j]);
  }
  cluster_sync();
  if (warp == 0) {
    tmem_alloc.release_allocation_lock();
    tmem_alloc.free(tmem, 512);
  }
}
"""

SOURCE_GEMM = r"""
#include <cute/tensor.hpp>
#include <cute/arch/mma_sm100_umma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/arch/copy_sm100.hpp>
#include <cute/arch/tmem_allocator_sm100.hpp>
#include <cutlass/arch/barrier.h>
using namespace cute;

#define R4(i) r[i], r[i + 1], r[i + 2], r[i + 3]
#define R32(i) R4(i), R4(i + 4), R4(i + 8), R4(i + 12), R4(i + 16), R4(i + 20), R4(i + 24), R4(i + 28)

__global__ void gemm(const %(a)s* ga, const %(a)s* gb, float* gc) {
  using A = %(a)s;
  using D = float;
  constexpr int M = %(m)d, N = %(n)d, KA = 128 / sizeof(A), KM = 16;
  __shared__ alignas(1024) A smem_a[M * KA];
  __shared__ alignas(1024) A smem_b[N * KA];
  __shared__ alignas(8) uint64_t mbar;
  __shared__ uint32_t tmem_base;
  auto sA = make_tensor(make_smem_ptr(smem_a),
                        tile_to_shape(UMMA::Layout_K_SW128_Atom<A>{}, make_shape(Int<M>{}, Int<KA>{})));
  auto sB = make_tensor(make_smem_ptr(smem_b),
                        tile_to_shape(UMMA::Layout_K_SW128_Atom<A>{}, make_shape(Int<N>{}, Int<KA>{})));
  for (int e = threadIdx.x; e < M * KA; e += blockDim.x) sA(e / KA, e %% KA) = ga[e];
  for (int e = threadIdx.x; e < N * KA; e += blockDim.x) sB(e / KA, e %% KA) = gb[e];
  cutlass::arch::fence_view_async_shared();
  const int warp = threadIdx.x / 32;
  TMEM::Allocator1Sm tmem_alloc;
  if (warp == 0) tmem_alloc.allocate(N, &tmem_base);
  if (threadIdx.x == 0) {
    cutlass::arch::ClusterBarrier::init(&mbar, 1);
    cutlass::arch::fence_barrier_init();
  }
  __syncthreads();
  const uint32_t tmem = tmem_base;
  if (threadIdx.x == 0) {
    const auto idesc = UMMA::make_instr_desc<A, A, D, M, N, UMMA::Major::K, UMMA::Major::K>();
    const uint64_t idescE = UMMA::make_runtime_instr_desc<>(idesc);
    for (int k = 0; k < KA / KM; ++k) {
      auto ta = local_tile(sA, make_shape(Int<M>{}, Int<KM>{}), make_coord(0, k));
      auto tb = local_tile(sB, make_shape(Int<N>{}, Int<KM>{}), make_coord(0, k));
      UMMA::SmemDescriptor da = UMMA::make_umma_desc<UMMA::Major::K>(ta);
      UMMA::SmemDescriptor db = UMMA::make_umma_desc<UMMA::Major::K>(tb);
      SM100_MMA_F16BF16_SS<A, A, D, M, N, UMMA::Major::K, UMMA::Major::K>::fma(
          da.desc_, db.desc_, tmem, k > 0, idescE);
    }
    cutlass::arch::umma_arrive(&mbar);
  }
  cutlass::arch::ClusterBarrier::wait(&mbar, 0);
  const int row = warp * 32 + threadIdx.x %% 32;
  for (int c = 0; c < N; c += 32) {
    uint32_t r[32];
    SM100_TMEM_LOAD_32dp32b32x::copy(tmem + ((warp * 32) << 16) + c, R32(0));
    cutlass::arch::fence_view_async_tmem_load();
    for (int j = 0; j < 32; ++j) gc[row * N + c + j] = __uint_as_float(r[j]);
  }
  __syncthreads();
  if (warp == 0) {
    tmem_alloc.release_allocation_lock();
    tmem_alloc.free(tmem, N);
  }
}
"""

# name: (CUTLASS element type, M, N, type)
GEMMS = {
    "cutlass_gemm_f16_128x128": ("half_t", 128, 128, "f16"),
    "cutlass_gemm_bf16_128x256": ("bfloat16_t", 128, 256, "bf16"),
}

# sm_103a, K = 96: name: (scale factor type, VS, M, N, kind, scale type)
KERNELS_SM103 = {
    "cutlass_sm103_k96_nvf4_ue4m3_256x256": ("cutlass::float_ue4m3_t", 16, 256, 256, "mxf4nvf4", "ue4m3"),
    "cutlass_sm103_k96_mxf4_ue8m0_256x128": ("cutlass::float_ue8m0_t", 32, 256, 128, "mxf4nvf4", "ue8m0"),
}

# name: (atom, A, B, D, M, N, CTAs, kind, a type, b type, d type); the K of one MMA follows
# from the kind (KMMA).
KERNELS = {
    "cutlass_f16_f16_f32_128x256": ("SM100_MMA_F16BF16_SS<A, B, D, M, N, UMMA::Major::K, UMMA::Major::K>",
                                    "half_t", "half_t", "float", 128, 256, 1, "f16", "f16", "f16", "f32"),
    "cutlass_bf16_bf16_f32_128x128": ("SM100_MMA_F16BF16_SS<A, B, D, M, N, UMMA::Major::K, UMMA::Major::K>",
                                      "bfloat16_t", "bfloat16_t", "float", 128, 128, 1, "f16", "bf16", "bf16", "f32"),
    "cutlass_f16_f16_f16_64x64": ("SM100_MMA_F16BF16_SS<A, B, D, M, N, UMMA::Major::K, UMMA::Major::K>",
                                  "half_t", "half_t", "half_t", 64, 64, 1, "f16", "f16", "f16", "f16"),
    "cutlass_tf32_f32_128x64": ("SM100_MMA_TF32_SS<A, B, D, M, N, UMMA::Major::K, UMMA::Major::K>",
                                "tfloat32_t", "tfloat32_t", "float", 128, 64, 1, "tf32", "tf32", "tf32", "f32"),
    "cutlass_e4m3_e5m2_f32_128x128": ("SM100_MMA_F8F6F4_SS",
                                      "float_e4m3_t", "float_e5m2_t", "float", 128, 128, 1, "f8f6f4", "e4m3", "e5m2", "f32"),
    "cutlass_s8_s32_128x128": ("SM100_MMA_S8_SS<A, B, D, M, N, UMMA::Major::K, UMMA::Major::K>",
                               "int8_t", "int8_t", "int32_t", 128, 128, 1, "i8", "s8", "s8", "s32"),
    "cutlass_bf16_f32_2cta_256x256": ("SM100_MMA_F16BF16_2x1SM_SS<A, B, D, M, N, UMMA::Major::K, UMMA::Major::K>",
                                      "bfloat16_t", "bfloat16_t", "float", 256, 256, 2, "f16", "bf16", "bf16", "f32"),
}


# The K of one MMA by kind (elements; 32 bytes of K).
KMMA = {"f16": 16, "tf32": 8, "f8f6f4": 32, "i8": 32}
# The tile's K by kind: one 128-byte swizzle atom of K (elements).
K_TILE = {"f16": 64, "tf32": 32, "f8f6f4": 128, "i8": 128}


def build(out, includes, name, spec):
    op, a, b, d, m, n, ctas, kind, at, bt, dt = spec
    src = os.path.join(out, name + ".cu")
    with open(src, "w") as f:
        f.write(SOURCE % {"op": op, "a": a, "b": b, "d": d, "m": m, "n": n, "ctas": ctas,
                          "km": KMMA[kind]})
    nvcc = os.path.join(includes[-1], "..", "bin", "nvcc")
    cmd = [nvcc, "-arch=sm_100a", "-ptx", "-std=c++17", "-diag-suppress", "20054", "-o", os.path.join(out, name + ".ptx"), src]
    cmd += ["-I" + i for i in includes]
    subprocess.run(cmd, check=True)
    os.remove(src)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump({"compiler": "nvcc 13.5.37, CUTLASS 4.2.0", "op": op.split("<")[0], "kind": kind,
                   "m": m, "n": n, "k": K_TILE[kind], "a_type": at, "b_type": bt, "d_type": dt,
                   "cta_group": ctas},
                  f, indent=1, sort_keys=True)
        f.write("\n")
    print(name, file=sys.stderr)


def build_gemm(out, includes, name, spec):
    a, m, n, at = spec
    src = os.path.join(out, name + ".cu")
    with open(src, "w") as f:
        f.write(SOURCE_GEMM % {"a": a, "m": m, "n": n})
    nvcc = os.path.join(includes[-1], "..", "bin", "nvcc")
    cmd = [nvcc, "-arch=sm_100a", "-ptx", "-std=c++17", "-diag-suppress", "20054", "-o", os.path.join(out, name + ".ptx"), src]
    cmd += ["-I" + i for i in includes]
    subprocess.run(cmd, check=True)
    os.remove(src)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump({"compiler": "nvcc 13.5.37, CUTLASS 4.2.0", "op": "SM100_MMA_F16BF16_SS", "kind": "f16",
                   "m": m, "n": n, "k": K_TILE["f16"], "a_type": at, "b_type": at, "d_type": "f32",
                   "cta_group": 1},
                  f, indent=1, sort_keys=True)
        f.write("\n")
    print(name, file=sys.stderr)


def build_sm103(out, includes, name, spec):
    sf, vs, m, n, kind, st = spec
    src = os.path.join(out, name + ".cu")
    with open(src, "w") as f:
        f.write(SOURCE_SM103 % {"sf": sf, "vs": vs, "m": m, "n": n})
    nvcc = os.path.join(includes[-1], "..", "bin", "nvcc")
    cmd = [nvcc, "-arch=sm_103a", "-ptx", "-std=c++17", "-diag-suppress", "20054", "-o", os.path.join(out, name + ".ptx"), src]
    cmd += ["-I" + i for i in includes]
    subprocess.run(cmd, check=True)
    os.remove(src)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump({"compiler": "nvcc 13.5.37, CUTLASS 4.2.0", "op": "SM103_MXF4_ULTRA_2x1SM_SS_VS",
                   "kind": kind, "m": m, "n": n, "k": 96, "a_type": "e2m1", "b_type": "e2m1",
                   "d_type": "f32", "scale_type": st, "cta_group": 2, "target": "sm_103a"},
                  f, indent=1, sort_keys=True)
        f.write("\n")
    print(name, file=sys.stderr)


def main():
    out = sys.argv[1]
    includes = sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [pool.submit(build, out, includes, k, v) for k, v in KERNELS.items()]
        jobs += [pool.submit(build_sm103, out, includes, k, v) for k, v in KERNELS_SM103.items()]
        jobs += [pool.submit(build_gemm, out, includes, k, v) for k, v in GEMMS.items()]
        for r in jobs:
            r.result()


if __name__ == "__main__":
    main()
