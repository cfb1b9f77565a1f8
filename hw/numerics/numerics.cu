// H100 wgmma numerics harness: seeded random operand bit patterns through one
// wgmma.mma_async m64n8k* per block (A and B from shared memory, no-swizzle K-major
// canonical layout), D written out bit for bit. Inputs are regenerated on the host side of
// the check (crates/tcgen05/tests/numerics_h100.rs) from the same splitmix64 seeds.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

__host__ __device__ inline uint64_t splitmix(uint64_t &s) {
  s += 0x9E3779B97F4A7C15ull;
  uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Configurations: id, A/B element bytes, K, D kind (0 f32, 1 f16, 2 s32).
// Variants: 0 scale-d = 1 (C random), 1 scale-d = 0, 2 imm-scale-a = -1 (floats),
// 3 imm-scale-b = -1 (floats), 4 corner codes (floats; see corner()).
enum { D_F32 = 0, D_F16 = 1, D_S32 = 2 };
struct Cfg { int esize, k, d; };
__host__ __device__ inline Cfg cfg_of(int c) {
  if (c <= 1) return {2, 16, c == 0 ? D_F32 : D_F16};      // f16 -> f32 | f16
  if (c == 2) return {2, 16, D_F32};                       // bf16 -> f32
  if (c == 3) return {4, 8, D_F32};                        // tf32 -> f32
  if (c <= 7) return {1, 32, D_F32};                       // fp8 x fp8 -> f32 (4 mixes)
  if (c <= 11) return {1, 32, D_F16};                      // fp8 x fp8 -> f16
  return {1, 32, D_S32};                                   // 12-15 int, 16-19 int satfinite
}
#define NCFG 20

// Corner variant (4, floating types only): every A, B and C code has its exponent field in
// 0..=2 (zeros, subnormals, the smallest normals) with random sign and fraction, so that sums
// fall near or below the exponent-for-zero floor. Exponent field shifts: f16 10, bf16 7,
// tf32/f32 23, e4m3 3, e5m2 2.
__host__ __device__ inline int shift_of(int c, int operand) {  // operand 0 A, 1 B, 2 C/D
  if (operand == 2) return cfg_of(c).d == D_F16 ? 10 : 23;
  if (c <= 1) return 10;
  if (c == 2) return 7;
  if (c == 3) return 23;
  const int mix = (c - 4) % 4;  // e4m3.e4m3, e4m3.e5m2, e5m2.e4m3, e5m2.e5m2
  const bool e5 = operand == 0 ? mix >= 2 : (mix & 1);
  return e5 ? 2 : 3;
}
__host__ __device__ inline uint32_t corner(uint64_t r, int bits, int shift) {
  const uint32_t sign = 1u << (bits - 1), frac = (1u << shift) - 1;
  return ((uint32_t)r & (sign | frac)) | ((uint32_t)((r >> 40) % 3) << shift);
}

__device__ inline uint64_t desc(uint32_t addr) {
  return (uint64_t)((addr >> 4) & 0x3FFF) | ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(256 >> 4) << 32);
}

#define PRE "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\nwgmma.mma_async.sync.aligned."
#define F32OUT "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3])
#define F32IN "l"(da), "l"(db), "r"(sd)
#define WGF32(OP, S) asm volatile(PRE OP " {%0,%1,%2,%3}, %4, %5, p, " S ";\n}\n" : F32OUT : F32IN)
#define PRE16 "{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\nwgmma.mma_async.sync.aligned."
#define WGF16(OP, S) asm volatile(PRE16 OP " {%0,%1}, %2, %3, p, " S ";\n}\n" : "+r"(h[0]), "+r"(h[1]) : "l"(da), "l"(db), "r"(sd))
#define WGI(OP) asm volatile(PRE OP " {%0,%1,%2,%3}, %4, %5, p;\n}\n" : "+r"(u[0]), "+r"(u[1]), "+r"(u[2]), "+r"(u[3]) : F32IN)

#define SCALES(EXTRA)                                   \
  if (v == 2) { X("-1, 1" EXTRA); }                     \
  else if (v == 3) { X("1, -1" EXTRA); }                \
  else { X("1, 1" EXTRA); }

__global__ void kernel(int c, int v, uint32_t *out, int blocks_per_cfg) {
  __shared__ __align__(1024) uint8_t sa[64 * 32];
  __shared__ __align__(1024) uint8_t sb[8 * 32];
  __shared__ uint32_t sc[64 * 8];
  const Cfg g = cfg_of(c);
  const int t = threadIdx.x;
  if (t == 0) {
    uint64_t s = ((uint64_t)(c * 8 + v) << 32) ^ (uint64_t)blockIdx.x ^ 0x7C6E5D4C3B2A1908ull;
    // A: row-major (m, k); B: (n, k); C: (m, n). Each code from its own 64-bit draw.
    for (int m = 0; m < 64; m++)
      for (int k = 0; k < g.k; k++) {
        uint64_t r = splitmix(s);
        if (v == 4) r = corner(r, 8 * g.esize, shift_of(c, 0));
        uint32_t kb = k * g.esize, off = (m / 8) * 256 + (kb / 16) * 128 + (m % 8) * 16 + kb % 16;
        for (int i = 0; i < g.esize; i++) sa[off + i] = (uint8_t)(r >> (8 * i));
      }
    for (int n = 0; n < 8; n++)
      for (int k = 0; k < g.k; k++) {
        uint64_t r = splitmix(s);
        if (v == 4) r = corner(r, 8 * g.esize, shift_of(c, 1));
        uint32_t kb = k * g.esize, off = (n / 8) * 256 + (kb / 16) * 128 + (n % 8) * 16 + kb % 16;
        for (int i = 0; i < g.esize; i++) sb[off + i] = (uint8_t)(r >> (8 * i));
      }
    for (int i = 0; i < 64 * 8; i++) {
      uint64_t r = splitmix(s);
      if (v == 4) r = corner(r, g.d == D_F16 ? 16 : 32, shift_of(c, 2));
      sc[i] = g.d == D_F16 ? (uint32_t)(r & 0xFFFF) : (uint32_t)r;
    }
  }
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  const int w = t / 32, l = t % 32, r0 = 16 * w + l / 4, c0 = 2 * (l % 4);
  const uint64_t da = desc((uint32_t)__cvta_generic_to_shared(sa));
  const uint64_t db = desc((uint32_t)__cvta_generic_to_shared(sb));
  const uint32_t sd = v == 1 ? 0 : 1;
  float f[4];
  uint32_t u[4], h[2];
  for (int i = 0; i < 4; i++) {
    u[i] = sc[(r0 + 8 * (i / 2)) * 8 + c0 + (i % 2)];
    f[i] = __uint_as_float(u[i]);
  }
  for (int j = 0; j < 2; j++)
    h[j] = sc[(r0 + 8 * j) * 8 + c0] | (sc[(r0 + 8 * j) * 8 + c0 + 1] << 16);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  switch (c) {
#define X(S) WGF32("m64n8k16.f32.f16.f16", S ", 0, 0")
    case 0: SCALES("") break;
#undef X
#define X(S) WGF16("m64n8k16.f16.f16.f16", S ", 0, 0")
    case 1: SCALES("") break;
#undef X
#define X(S) WGF32("m64n8k16.f32.bf16.bf16", S ", 0, 0")
    case 2: SCALES("") break;
#undef X
#define X(S) WGF32("m64n8k8.f32.tf32.tf32", S)
    case 3: SCALES("") break;
#undef X
#define X(S) WGF32("m64n8k32.f32.e4m3.e4m3", S)
    case 4: SCALES("") break;
#undef X
#define X(S) WGF32("m64n8k32.f32.e4m3.e5m2", S)
    case 5: SCALES("") break;
#undef X
#define X(S) WGF32("m64n8k32.f32.e5m2.e4m3", S)
    case 6: SCALES("") break;
#undef X
#define X(S) WGF32("m64n8k32.f32.e5m2.e5m2", S)
    case 7: SCALES("") break;
#undef X
#define X(S) WGF16("m64n8k32.f16.e4m3.e4m3", S)
    case 8: SCALES("") break;
#undef X
#define X(S) WGF16("m64n8k32.f16.e4m3.e5m2", S)
    case 9: SCALES("") break;
#undef X
#define X(S) WGF16("m64n8k32.f16.e5m2.e4m3", S)
    case 10: SCALES("") break;
#undef X
#define X(S) WGF16("m64n8k32.f16.e5m2.e5m2", S)
    case 11: SCALES("") break;
#undef X
    case 12: WGI("m64n8k32.s32.s8.s8"); break;
    case 13: WGI("m64n8k32.s32.s8.u8"); break;
    case 14: WGI("m64n8k32.s32.u8.s8"); break;
    case 15: WGI("m64n8k32.s32.u8.u8"); break;
    case 16: WGI("m64n8k32.satfinite.s32.s8.s8"); break;
    case 17: WGI("m64n8k32.satfinite.s32.s8.u8"); break;
    case 18: WGI("m64n8k32.satfinite.s32.u8.s8"); break;
    case 19: WGI("m64n8k32.satfinite.s32.u8.u8"); break;
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  uint32_t *o = out + (size_t)blockIdx.x * 512;
  if (g.d == D_F16) {
    for (int j = 0; j < 2; j++) {
      o[(r0 + 8 * j) * 8 + c0] = h[j] & 0xFFFF;
      o[(r0 + 8 * j) * 8 + c0 + 1] = h[j] >> 16;
    }
  } else {
    for (int i = 0; i < 4; i++)
      o[(r0 + 8 * (i / 2)) * 8 + c0 + (i % 2)] = g.d == D_S32 ? u[i] : __float_as_uint(f[i]);
  }
}

int main(int argc, char **argv) {
  const int blocks = argc > 1 ? atoi(argv[1]) : 4;
  const char *dir = argc > 2 ? argv[2] : ".";
  uint32_t *dout;
  cudaMalloc(&dout, (size_t)blocks * 512 * 4);
  std::vector<uint32_t> host((size_t)blocks * 512);
  char path[512];
  snprintf(path, sizeof path, "%s/wgmma-d.bin", dir);
  FILE *fo = fopen(path, "wb");
  long total = 0;
  for (int c = 0; c < NCFG; c++) {
    const int nv = c >= 12 ? 2 : 5;
    for (int v = 0; v < nv; v++) {
      kernel<<<blocks, 128>>>(c, v, dout, blocks);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { fprintf(stderr, "config %d variant %d: %s\n", c, v, cudaGetErrorString(e)); return 1; }
      cudaMemcpy(host.data(), dout, host.size() * 4, cudaMemcpyDeviceToHost);
      fwrite(host.data(), 4, host.size(), fo);
      total += (long)host.size();
    }
  }
  fclose(fo);
  printf("%ld D values written to %s (%d blocks of 512 per configuration and variant)\n", total, path, blocks);
  return 0;
}
