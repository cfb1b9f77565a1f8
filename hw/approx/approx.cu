// Sweep PTX's approximate f32 instructions over every one of the 2^32 f32 inputs on a GPU and
// compare each result with the correctly rounded value of the function (computed on the GPU in
// f64, then rounded once to f32; the f64 value's distance to the nearest f32 rounding boundary is
// checked, and an input whose f64 value lies within 2^-50 (relative) of one is counted as
// "ambiguous" instead of trusted).
//
// Ops (the forms of PTX ISA 9.7.4 "Floating Point Instructions"): ex2.approx.ftz.f32,
// ex2.approx.f32, lg2.approx.ftz.f32, rcp.approx.ftz.f32, and div.full.f32 on 2^32 seeded
// pairs (binary, so not exhaustive). For .ftz forms the reference applies PTX's .ftz rule
// (subnormal inputs and results are sign-preserving zero) before/after the exact function.
//
// For each op it prints: exact matches, a histogram of (hw - ref) in ulps (the distance in the
// ordered integer encoding of f32; NaN results are counted apart), the largest |ulp| difference,
// and two digests: sum over inputs i of splitmix64((i << 32) | bits) mod 2^64, for the GPU's
// output bits and for the reference's. It also writes ex2_ftz_unit.bin: for x = k * 2^-23,
// k = 0 .. 2^23-1 (every f32 in [0, 1) on that grid), the int8 value hw - ref in ulps of
// ex2.approx.ftz.f32, for whoever models the hardware's interpolator.
//
// Build and run: hw/approx/run.sh (nvcc -arch=sm_90a).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1);} } while (0)

enum Op { EX2_FTZ = 0, EX2 = 1, LG2_FTZ = 2, RCP_FTZ = 3, DIV_FULL = 4, NOPS = 5 };
static const char* NAMES[NOPS] = {"ex2.approx.ftz.f32", "ex2.approx.f32", "lg2.approx.ftz.f32",
                                  "rcp.approx.ftz.f32", "div.full.f32"};

#define HB 16  // histogram bins -HB..HB, plus below and above
struct Stats {
  unsigned long long hist[2 * HB + 3];  // [0] < -HB, [1..2HB+1] -HB..HB, [2HB+2] > HB
  unsigned long long exact, both_nan, nan_mismatch, ambiguous, maxabs;
  unsigned long long digest_hw, digest_ref;
};

__device__ __forceinline__ uint64_t splitmix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
__device__ __forceinline__ bool is_sub(float x) { return x != 0.0f && fabsf(x) < 1.17549435e-38f; }
__device__ __forceinline__ float ftz(float x) { return is_sub(x) ? copysignf(0.0f, x) : x; }
__device__ __forceinline__ long long ordered(uint32_t b) {
  return (b & 0x80000000u) ? -(long long)(b & 0x7fffffffu) : (long long)b;
}
// The f32 rounding of r, and whether r lies within 2^-50 (relative) of an f32 rounding boundary.
__device__ __forceinline__ float round_checked(double r, bool* amb) {
  float f = (float)r;
  if (isfinite(r) && r != 0.0) {
    double lo = r * (1.0 - 0x1p-50), hi = r * (1.0 + 0x1p-50);
    if ((float)lo != f || (float)hi != f) *amb = true;
  }
  return f;
}

__device__ __forceinline__ void eval(int op, uint32_t i, uint64_t seed, float* hw, float* ref, bool* amb) {
  float x = __uint_as_float(i);
  float y;
  switch (op) {
    case EX2_FTZ:
      asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
      *hw = y; *ref = ftz(round_checked(exp2((double)ftz(x)), amb)); break;
    case EX2:
      asm("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
      *hw = y; *ref = round_checked(exp2((double)x), amb); break;
    case LG2_FTZ:
      asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
      *hw = y; *ref = ftz(round_checked(log2((double)ftz(x)), amb)); break;
    case RCP_FTZ:
      asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
      *hw = y; *ref = ftz(round_checked(1.0 / (double)ftz(x), amb)); break;
    default: {  // DIV_FULL: x = input i, divisor from the seeded generator
      float d = __uint_as_float((uint32_t)splitmix64(seed ^ (uint64_t)i));
      asm("div.full.f32 %0, %1, %2;" : "=f"(y) : "f"(x), "f"(d));
      *hw = y; *ref = round_checked((double)x / (double)d, amb); break;
    }
  }
}

__global__ void sweep(int op, uint64_t base, uint64_t count, uint64_t seed, Stats* s) {
  __shared__ unsigned long long sh[2 * HB + 3 + 7];
  for (int t = threadIdx.x; t < 2 * HB + 3 + 7; t += blockDim.x) sh[t] = 0;
  __syncthreads();
  unsigned long long exact = 0, bn = 0, nm = 0, amb_n = 0, mx = 0, dh = 0, dr = 0;
  for (uint64_t k = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; k < count;
       k += (uint64_t)gridDim.x * blockDim.x) {
    uint32_t i = (uint32_t)(base + k);
    float hw, ref; bool amb = false;
    eval(op, i, seed, &hw, &ref, &amb);
    uint32_t hb = __float_as_uint(hw), rb = __float_as_uint(ref);
    dh += splitmix64(((uint64_t)i << 32) | hb);
    dr += splitmix64(((uint64_t)i << 32) | rb);
    amb_n += amb;
    if (hb == rb) exact++;
    bool hn = isnan(hw), rn = isnan(ref);
    if (hn && rn) { bn++; continue; }
    if (hn || rn) { nm++; continue; }
    long long d = ordered(hb) - ordered(rb);
    unsigned long long a = d < 0 ? -d : d;
    if (a > mx) mx = a;
    int bin = d < -HB ? 0 : d > HB ? 2 * HB + 2 : (int)(d + HB + 1);
    atomicAdd(&sh[bin], 1ULL);
  }
  atomicAdd(&sh[2 * HB + 3 + 0], exact);
  atomicAdd(&sh[2 * HB + 3 + 1], bn);
  atomicAdd(&sh[2 * HB + 3 + 2], nm);
  atomicAdd(&sh[2 * HB + 3 + 3], amb_n);
  atomicMax(&sh[2 * HB + 3 + 4], mx);
  atomicAdd(&sh[2 * HB + 3 + 5], dh);
  atomicAdd(&sh[2 * HB + 3 + 6], dr);
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int b = 0; b < 2 * HB + 3; b++) atomicAdd(&s->hist[b], sh[b]);
    atomicAdd(&s->exact, sh[2 * HB + 3]);
    atomicAdd(&s->both_nan, sh[2 * HB + 4]);
    atomicAdd(&s->nan_mismatch, sh[2 * HB + 5]);
    atomicAdd(&s->ambiguous, sh[2 * HB + 6]);
    atomicMax(&s->maxabs, sh[2 * HB + 7]);
    atomicAdd(&s->digest_hw, sh[2 * HB + 8]);
    atomicAdd(&s->digest_ref, sh[2 * HB + 9]);
  }
}

// The 12 inputs where an f64 exp2 cannot decide the f32 rounding (hw/approx/hard_cases.py): the
// GPU's ex2.approx.ftz.f32 and ex2.approx.f32 bits for each.
__constant__ uint32_t HARD[12] = {0x33b8aa3b, 0x36879cf7, 0x3a07857c, 0x3b429d37, 0x3c02a9ad,
  0xb466d4cb, 0xb52d1f9a, 0xb8d3d026, 0xbaec2b40, 0xbcf3a937, 0xbe1f29de, 0xc3160000};
__global__ void hard(uint32_t* out) {
  int t = threadIdx.x;
  if (t >= 12) return;
  float x = __uint_as_float(HARD[t]), y, z;
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  asm volatile("ex2.approx.f32 %0, %1;" : "=f"(z) : "f"(x));
  out[2 * t] = __float_as_uint(y);
  out[2 * t + 1] = __float_as_uint(z);
}

// hw - ref (ulps, clamped to int8) of ex2.approx.ftz.f32 at x = k * 2^-23.
__global__ void unit_grid(int8_t* out) {
  uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= (1u << 23)) return;
  float x = (float)k * 0x1p-23f, y; bool amb = false;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  float ref = round_checked(exp2((double)x), &amb);
  long long d = ordered(__float_as_uint(y)) - ordered(__float_as_uint(ref));
  out[k] = (int8_t)(d < -127 ? -127 : d > 127 ? 127 : d);
}

int main(int argc, char** argv) {
  const uint64_t SEED = 0x7463677035617070ULL;  // "tcgp5app": the div.full.f32 divisors
  const char* unit_path = argc > 1 ? argv[1] : "ex2_ftz_unit.bin";
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  printf("device: %s (sm_%d%d, %d SMs)\n", p.name, p.major, p.minor, p.multiProcessorCount);
  printf("div.full.f32 divisors: bits = low 32 of splitmix64(0x%016llx ^ i), dividend bits = i\n",
         (unsigned long long)SEED);
  Stats* s; CK(cudaMalloc(&s, sizeof(Stats)));
  for (int op = 0; op < NOPS; op++) {
    CK(cudaMemset(s, 0, sizeof(Stats)));
    const uint64_t total = 1ULL << 32, chunk = 1ULL << 30;
    for (uint64_t b = 0; b < total; b += chunk)
      sweep<<<p.multiProcessorCount * 16, 256>>>(op, b, chunk, SEED, s);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    Stats h; CK(cudaMemcpy(&h, s, sizeof(Stats), cudaMemcpyDeviceToHost));
    printf("op %s: inputs 4294967296 exact %llu both_nan %llu nan_mismatch %llu ambiguous_ref %llu max_abs_ulp %llu digest_hw 0x%016llx digest_ref 0x%016llx\n",
           NAMES[op], h.exact, h.both_nan, h.nan_mismatch, h.ambiguous, h.maxabs, h.digest_hw, h.digest_ref);
    printf("  hist (ulp:count, non-NaN results):");
    if (h.hist[0]) printf(" <-%d:%llu", HB, h.hist[0]);
    for (int b = 1; b <= 2 * HB + 1; b++) if (h.hist[b]) printf(" %d:%llu", b - HB - 1, h.hist[b]);
    if (h.hist[2 * HB + 2]) printf(" >%d:%llu", HB, h.hist[2 * HB + 2]);
    printf("\n");
    fflush(stdout);
  }
  uint32_t* hd; CK(cudaMalloc(&hd, 24 * 4));
  hard<<<1, 32>>>(hd);
  uint32_t hh[24]; CK(cudaMemcpy(hh, hd, sizeof hh, cudaMemcpyDeviceToHost));
  static const uint32_t HX[12] = {0x33b8aa3b, 0x36879cf7, 0x3a07857c, 0x3b429d37, 0x3c02a9ad,
    0xb466d4cb, 0xb52d1f9a, 0xb8d3d026, 0xbaec2b40, 0xbcf3a937, 0xbe1f29de, 0xc3160000};
  for (int t = 0; t < 12; t++)
    printf("hard input 0x%08x: ex2.approx.ftz.f32 0x%08x ex2.approx.f32 0x%08x\n", HX[t], hh[2 * t], hh[2 * t + 1]);
  int8_t* u; CK(cudaMalloc(&u, 1 << 23));
  unit_grid<<<(1 << 23) / 256, 256>>>(u);
  CK(cudaDeviceSynchronize());
  int8_t* hu = (int8_t*)malloc(1 << 23);
  CK(cudaMemcpy(hu, u, 1 << 23, cudaMemcpyDeviceToHost));
  FILE* f = fopen(unit_path, "wb"); fwrite(hu, 1, 1 << 23, f); fclose(f);
  printf("wrote %s (2^23 int8: ex2.approx.ftz.f32 hw - ref in ulps at x = k * 2^-23)\n", unit_path);
  return 0;
}
