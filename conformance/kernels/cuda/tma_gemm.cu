// A small Blackwell GEMM written with inline PTX, compiled by conformance/kernels/cuda/gen_cuda.py
// (nvcc 13.5.37, -arch=sm_100a) into one kernel per configuration:
//
//   C (M x N, f32, row-major) = A (M x K, row-major) x B^T, B given as N x K (row-major),
//   A and B both bf16 or both f16 (ELEM_F16), K-major operands in 128-byte swizzled stages.
//
// Roles (128 threads, 4 warps): thread 0 fills the STAGES stages of shared memory with the tensor
// memory accelerator (`cp.async.bulk.tensor.2d`, one 64 x 128 box of A and one of B per stage,
// completing on the stage's `full` mbarrier with `expect_tx`); thread 32 issues the tcgen05.mma
// chain (4 MMAs of K = 16 per 64-wide K tile) and commits each stage to its `empty` mbarrier and
// each tile to `acc_full`; every warp reads its 32 rows of the accumulator with tcgen05.ld.
// The CTA loops over 128 x 128 output tiles (tile = blockIdx.x, blockIdx.x + gridDim.x, ...),
// reusing one 128-column Tensor Memory accumulator: the epilogue hands it back to the MMA thread
// through `acc_empty`.
//
// The accumulator's two hand-offs use the PTX ISA's canonical pattern for tcgen05 operations of
// different threads (9.7.16.6.4.4): relaxed mbarrier synchronisation with
// tcgen05.fence::before_thread_sync before the arrival and tcgen05.fence::after_thread_sync after
// the wait. The Tensor Memory address is handed from the allocating warp to the others around a
// __syncthreads with the same two fences, as CUTLASS's hand-written examples do.

// Two published bugs are reproduced by switches (gen_cuda.py's `cuda_bug_*` and `cuda_fixed_*`
// kernels; without the switches the code is the GEMM above):
//   ARRIVE_PER_WARP: the epilogue arrives on acc_empty once per warp (lane 0, after __syncwarp)
//     instead of once per thread; ACC_EMPTY_COUNT is acc_empty's init count (128 by default).
//     Per-warp arrivals with the per-thread count 128 are the wrong arrival count of
//     triton-lang/triton#10196: the phase gets 4 of 128 arrivals and never completes.
//   ACC_REUSE_BUG: the MMA thread starts the next tile's MMAs into the accumulator without
//     waiting on acc_empty, i.e. before the previous tile's epilogue tcgen05.ld's completed (the
//     accumulator-reuse pattern of triton-lang/triton#10821, fixed in Triton by #10858/#10988).

#include <cstdint>

#ifndef STAGES
#define STAGES 2
#endif
#ifndef ACC_EMPTY_COUNT
#define ACC_EMPTY_COUNT 128
#endif

// A CUtensorMap's 128 opaque bytes (cuda.h's type has the same size and alignment).
struct alignas(64) TensorMapBytes {
  unsigned char bytes[128];
};

namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 64;  // 64 16-bit elements: one 128-byte swizzle row
constexpr int kTileBytes = kBlockM * kBlockK * 2;
constexpr int kStageBytes = 2 * kTileBytes;
constexpr uint32_t kTmemColumns = 128;

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Counts and byte counts are immediates in the PTX (as compilers write them).
template <uint32_t Count>
__device__ __forceinline__ void mbar_init(uint32_t bar) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "n"(Count) : "memory");
}

template <uint32_t Bytes>
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar) {
  asm volatile(
      "{\n\t.reg .b64 state;\n\t"
      "mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n\t}" ::"r"(bar),
      "n"(Bytes)
      : "memory");
}

// An arrival with relaxed semantics (the tcgen05 fences give the ordering).
__device__ __forceinline__ void mbar_arrive_relaxed(uint32_t bar) {
  asm volatile(
      "{\n\t.reg .b64 state;\n\t"
      "mbarrier.arrive.relaxed.cta.shared::cta.b64 state, [%0];\n\t}" ::"r"(bar)
      : "memory");
}

__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

__device__ __forceinline__ void mbar_wait_relaxed(uint32_t bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

__device__ __forceinline__ void tma_load_2d(uint32_t dst, const TensorMapBytes* map, int x, int y,
                                            uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(bar)
      : "memory");
}

__device__ __forceinline__ void fence_before() {
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}

__device__ __forceinline__ void fence_after() {
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

// A K-major shared memory descriptor for a 128-byte swizzled tile (PTX ISA 9.7.16.4.1): start
// address >> 4, leading byte offset 1 (unused for this layout), stride byte offset 1024 >> 4
// (8 rows of 128 bytes), version 1, swizzle mode 2 (128B).
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr) {
  uint64_t d = (addr >> 4) & 0x3FFF;
  d |= uint64_t(1) << 16;
  d |= uint64_t(1024 >> 4) << 32;
  d |= uint64_t(1) << 46;
  d |= uint64_t(2) << 61;
  return d;
}

// The instruction descriptor of .kind::f16 (PTX ISA 9.7.16.4.2): f32 D, A and B f16 (0) or
// bf16 (1), both K-major, N >> 3 at bit 17, M >> 4 at bit 24.
__device__ __forceinline__ uint32_t instr_desc() {
#ifdef ELEM_F16
  constexpr uint32_t ab = 0;
#else
  constexpr uint32_t ab = 1;
#endif
  return (1u << 4) | (ab << 7) | (ab << 10) | (uint32_t(kBlockN >> 3) << 17) |
         (uint32_t(kBlockM >> 4) << 24);
}

__device__ __forceinline__ void mma(uint32_t tmem, uint64_t a, uint64_t b, uint32_t idesc,
                                    uint32_t accumulate) {
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.ne.b32 p, %4, 0;\n\t"
      "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}" ::"r"(tmem),
      "l"(a), "l"(b), "r"(idesc), "r"(accumulate)
      : "memory");
}

__device__ __forceinline__ void commit(uint32_t bar) {
  asm volatile(
      "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar)
      : "memory");
}

// 32 consecutive columns of the warp's 32 lanes, one lane per thread, then wait::ld.
__device__ __forceinline__ void tmem_load32(uint32_t taddr, float* v) {
  uint32_t r[32];
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, "
      "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "
      "%30, %31}, [%32];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]),
        "=r"(r[7]), "=r"(r[8]), "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]),
        "=r"(r[14]), "=r"(r[15]), "=r"(r[16]), "=r"(r[17]), "=r"(r[18]), "=r"(r[19]),
        "=r"(r[20]), "=r"(r[21]), "=r"(r[22]), "=r"(r[23]), "=r"(r[24]), "=r"(r[25]),
        "=r"(r[26]), "=r"(r[27]), "=r"(r[28]), "=r"(r[29]), "=r"(r[30]), "=r"(r[31])
      : "r"(taddr)
      : "memory");
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
#pragma unroll
  for (int i = 0; i < 32; ++i) v[i] = __uint_as_float(r[i]);
}

}  // namespace

extern "C" __global__ void __launch_bounds__(128)
    KERNEL_NAME(const __grid_constant__ TensorMapBytes map_a,
                const __grid_constant__ TensorMapBytes map_b, float* c, int m, int n, int k) {
  __shared__ alignas(8) uint64_t full[STAGES];
  __shared__ alignas(8) uint64_t empty[STAGES];
  __shared__ alignas(8) uint64_t acc_full;
  __shared__ alignas(8) uint64_t acc_empty;
  __shared__ uint32_t tmem_slot;
  extern __shared__ __align__(1024) unsigned char dyn[];

  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int lane = tid % 32;
  const uint32_t stages = (smem_addr(dyn) + 1023) & ~1023u;

  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
                     smem_addr(&tmem_slot)),
                 "n"(kTmemColumns)
                 : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
  }
  if (tid == 32) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init<1>(smem_addr(&full[s]));
      mbar_init<1>(smem_addr(&empty[s]));
    }
    mbar_init<1>(smem_addr(&acc_full));
    mbar_init<ACC_EMPTY_COUNT>(smem_addr(&acc_empty));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  fence_before();
  __syncthreads();
  fence_after();
  const uint32_t tmem = tmem_slot;

  const int k_tiles = k / kBlockK;
  const int tiles_n = n / kBlockN;
  const int tiles = (m / kBlockM) * tiles_n;
  int load = 0;   // K tiles loaded so far (thread 0)
  int eaten = 0;  // K tiles multiplied so far (thread 32)
  int round = 0;  // output tiles of this CTA so far
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x, ++round) {
    const int m0 = (tile / tiles_n) * kBlockM;
    const int n0 = (tile % tiles_n) * kBlockN;
    if (tid == 0) {
      for (int kt = 0; kt < k_tiles; ++kt, ++load) {
        const int s = load % STAGES;
        if (load >= STAGES) mbar_wait(smem_addr(&empty[s]), (load / STAGES - 1) & 1);
        const uint32_t a = stages + s * kStageBytes;
        mbar_expect_tx<kStageBytes>(smem_addr(&full[s]));
        tma_load_2d(a, &map_a, kt * kBlockK, m0, smem_addr(&full[s]));
        tma_load_2d(a + kTileBytes, &map_b, kt * kBlockK, n0, smem_addr(&full[s]));
      }
    }
    if (tid == 32) {
#ifndef ACC_REUSE_BUG
      if (round > 0) {
        mbar_wait_relaxed(smem_addr(&acc_empty), (round - 1) & 1);
        fence_after();
      }
#endif
      for (int kt = 0; kt < k_tiles; ++kt, ++eaten) {
        const int s = eaten % STAGES;
        mbar_wait(smem_addr(&full[s]), (eaten / STAGES) & 1);
        const uint32_t a = stages + s * kStageBytes;
#pragma unroll
        for (int j = 0; j < kBlockK / 16; ++j) {
          mma(tmem, smem_desc(a + 32 * j), smem_desc(a + kTileBytes + 32 * j), instr_desc(),
              (kt | j) != 0);
        }
        commit(smem_addr(&empty[s]));
      }
      commit(smem_addr(&acc_full));
    }
    __syncwarp();
    // Epilogue: every warp its 32 rows, 32 columns at a time.
    mbar_wait_relaxed(smem_addr(&acc_full), round & 1);
    fence_after();
    const int row = m0 + warp * 32 + lane;
    for (int col = 0; col < kBlockN; col += 32) {
      float v[32];
      tmem_load32(tmem + (uint32_t(warp * 32) << 16) + col, v);
#pragma unroll
      for (int i = 0; i < 32; ++i) c[size_t(row) * n + n0 + col + i] = v[i];
    }
    fence_before();
#ifdef ARRIVE_PER_WARP
    __syncwarp();
    if (lane == 0) mbar_arrive_relaxed(smem_addr(&acc_empty));
#else
    mbar_arrive_relaxed(smem_addr(&acc_empty));
#endif
  }
  fence_before();
  __syncthreads();
  fence_after();
  if (warp == 0) {
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem),
                 "n"(kTmemColumns)
                 : "memory");
  }
}
