// Runs the Triton kernels of hw/run/ptx on the GPU with seeded inputs and writes every output
// byte, for the `tcgen05 run` proof (crates/tcgen05-run/tests/hopper.rs runs the same PTX and
// inputs in the interpreter and compares).
//
//   harness PTX_DIR OUT_DIR
//
// The driver's JIT (580.159.04) reads PTX up to 9.0; Triton 3.9.0 writes 9.4 and the kernels use
// nothing newer than 9.0 (cp.async.bulk.tensor into .shared::cta needs 8.6), so the `.version`
// line is lowered to 9.0 before loading (the only change to the text).
// Inputs: f32 values from SplitMix64 (seed per kernel, recipe in inputs() below and in the test).
#include <cuda.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorString(r_, &s_); \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); exit(1); } } while (0)

static uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// n f32 words: sign, a biased exponent in [lo, lo + span), a random fraction; with `specials`,
// the first eight are NaN, +Inf, -Inf, the smallest subnormal, -0, the largest finite, the
// largest subnormal and -1.
static std::vector<uint32_t> inputs(uint64_t seed, size_t n, uint32_t lo, uint32_t span, bool specials) {
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; i++) {
    uint64_t r = splitmix(seed);
    uint32_t sign = (uint32_t)(r & 1) << 31;
    uint32_t exp = lo + (uint32_t)((r >> 1) % span);
    uint32_t frac = (uint32_t)(r >> 8) & 0x7FFFFF;
    v[i] = sign | (exp << 23) | frac;
  }
  const uint32_t sp[8] = {0x7FC00000u, 0x7F800000u, 0xFF800000u, 0x00000001u,
                          0x80000000u, 0x7F7FFFFFu, 0x007FFFFFu, 0xBF800000u};
  if (specials) for (int i = 0; i < 8 && (size_t)i < n; i++) v[i] = sp[i];
  return v;
}

// n f16 codes: random sign, biased exponent in [10, 20) (magnitudes 2^-5 to 2^5), random fraction.
static std::vector<uint16_t> inputs16(uint64_t seed, size_t n) {
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; i++) {
    uint64_t r = splitmix(seed);
    v[i] = (uint16_t)(((r & 1) << 15) | ((10 + (r >> 1) % 10) << 10) | ((r >> 8) & 0x3FF));
  }
  return v;
}

// n 16-bit bf16 codes (sign, biased exponent in [122, 132), 7 random fraction bits) or, with
// `fp8`, e4m3 codes (a random byte; the two NaN codes 0x7F/0xFF become 0x7E/0xFE), one per byte.
static std::vector<uint8_t> inputs_lowp(uint64_t seed, size_t n, bool fp8) {
  std::vector<uint8_t> v(fp8 ? n : 2 * n);
  for (size_t i = 0; i < n; i++) {
    uint64_t r = splitmix(seed);
    if (fp8) {
      uint8_t c = (uint8_t)(r & 0xFF);
      if ((c & 0x7F) == 0x7F) c ^= 1;
      v[i] = c;
    } else {
      uint16_t c = (uint16_t)(((r & 1) << 15) | ((122 + (r >> 1) % 10) << 7) | ((r >> 8) & 0x7F));
      memcpy(&v[2 * i], &c, 2);
    }
  }
  return v;
}

static std::string slurp(const std::string& p) {
  FILE* f = fopen(p.c_str(), "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", p.c_str()); exit(1); }
  std::string s; char buf[65536]; size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, k);
  fclose(f);
  size_t at = s.find(".version ");
  if (at != std::string::npos) { size_t e = s.find('\n', at); s.replace(at, e - at, ".version 9.0"); }
  return s;
}

static void dump(const std::string& p, const void* d, size_t n) {
  FILE* f = fopen(p.c_str(), "wb"); fwrite(d, 1, n, f); fclose(f);
}

static CUdeviceptr upload(const void* h, size_t n) {
  CUdeviceptr d; CK(cuMemAlloc(&d, n ? n : 1)); if (n) CK(cuMemcpyHtoD(d, h, n)); return d;
}

struct Mod { CUmodule m; CUfunction f; };
static Mod load(const std::string& dir, const char* name) {
  Mod r; std::string ptx = slurp(dir + "/" + name + ".ptx");
  char log[8192] = {0};
  CUjit_option o[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* ov[2] = {log, (void*)(uintptr_t)sizeof log};
  CUresult e = cuModuleLoadDataEx(&r.m, ptx.c_str(), 2, o, ov);
  if (e != CUDA_SUCCESS) { fprintf(stderr, "load %s failed (%d): %s\n", name, (int)e, log); exit(1); }
  CK(cuModuleGetFunction(&r.f, r.m, name));
  return r;
}

// C[M, N] f32 = A[M, K] @ B[K, N] of kernel `name` (grid of 64 x 64 tiles, 16384 bytes of
// dynamic shared memory), inputs from seeds sa and sb.
static void run_dot(const std::string& dir, const std::string& out, const char* name, bool fp8,
                    int M, int N, int K, uint64_t sa, uint64_t sb) {
  CUdeviceptr null_ptr = 0;
  auto a = inputs_lowp(sa, (size_t)M * K, fp8), b = inputs_lowp(sb, (size_t)K * N, fp8);
  CUdeviceptr da = upload(a.data(), a.size()), db = upload(b.data(), b.size());
  std::vector<uint32_t> o((size_t)M * N + 16, 0xABABABABu);
  CUdeviceptr dout = upload(o.data(), 4 * o.size());
  Mod m = load(dir, name);
  CK(cuFuncSetAttribute(m.f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 16384));
  void* args[] = {&da, &db, &dout, &M, &N, &K, &null_ptr, &null_ptr};
  CK(cuLaunchKernel(m.f, M / 64, N / 64, 1, 128, 1, 1, 16384, 0, args, 0)); CK(cuCtxSynchronize());
  CK(cuMemcpyDtoH(o.data(), dout, 4 * o.size()));
  dump(out + "/" + name + ".out", o.data(), 4 * o.size());
  printf("%s ok\n", name);
}

// n bytes from SplitMix64 (int8 codes: every value -128..127).
static std::vector<uint8_t> inputs8(uint64_t seed, size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i++) v[i] = (uint8_t)(splitmix(seed) & 0xFF);
  return v;
}

// n e5m2 codes: random sign and 2 fraction bits, biased exponent in [8, 20) (2^-7 to 2^4).
static std::vector<uint8_t> inputs_e5m2(uint64_t seed, size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i++) {
    uint64_t r = splitmix(seed);
    v[i] = (uint8_t)(((r & 1) << 7) | ((8 + (r >> 1) % 12) << 2) | ((r >> 8) & 3));
  }
  return v;
}

// Launches `name` (one CTA of `threads` threads per grid cell, `shared` bytes of dynamic shared
// memory) with the given argument pointers, then copies `outs` back and writes each one to
// OUT_DIR/<name><suffix>.out.
struct Out { CUdeviceptr d; size_t bytes; const char* suffix; };
static void launch_dump(const std::string& dir, const std::string& out, const char* name,
                        unsigned gx, unsigned gy, unsigned threads, unsigned shared, void** args,
                        std::vector<Out> outs) {
  Mod m = load(dir, name);
  CK(cuFuncSetAttribute(m.f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared));
  CK(cuLaunchKernel(m.f, gx, gy, 1, threads, 1, 1, shared, 0, args, 0)); CK(cuCtxSynchronize());
  for (auto& o : outs) {
    std::vector<uint8_t> h(o.bytes);
    CK(cuMemcpyDtoH(h.data(), o.d, o.bytes));
    dump(out + "/" + name + o.suffix + ".out", h.data(), h.size());
  }
  printf("%s ok\n", name);
}

// A device buffer of `n` bytes, each 0xAB (the guard pattern).
static CUdeviceptr guarded(size_t n) {
  std::vector<uint8_t> h(n, 0xAB); return upload(h.data(), n);
}

// A pointer GEMM kernel's launch: A (a_bytes), B (b_bytes), C of M x N elements of c_elem bytes
// (plus 16 guard elements), M, N, K, the two scratch pointers.
static void run_gemm(const std::string& dir, const std::string& out, const char* name,
                     const void* a, size_t a_bytes, const void* b, size_t b_bytes, int M, int N,
                     int K, size_t c_elem, unsigned gx, unsigned gy, unsigned threads,
                     unsigned shared) {
  CUdeviceptr null_ptr = 0;
  CUdeviceptr da = upload(a, a_bytes), db = upload(b, b_bytes);
  size_t c_bytes = c_elem * ((size_t)M * N + 16);
  CUdeviceptr dc = guarded(c_bytes);
  void* args[] = {&da, &db, &dc, &M, &N, &K, &null_ptr, &null_ptr};
  launch_dump(dir, out, name, gx, gy, threads, shared, args, {{dc, c_bytes, ""}});
}

// A row-major f16 matrix of rows x cols at `d` as a tensor map with box_rows x box_cols boxes
// and 128-byte swizzling (what Triton's launcher encodes for 64 x 64 f16 blocks).
static CUtensorMap map_f16(CUdeviceptr d, int rows, int cols, int box_rows, int box_cols) {
  CUtensorMap t;
  cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, str[1] = {(cuuint64_t)cols * 2};
  cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows}, es[2] = {1, 1};
  CK(cuTensorMapEncodeTiled(&t, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void*)d, dim, str, box, es,
                            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  return t;
}

// A TMA GEMM kernel (dot_tma's parameters: each tensor map followed by its shape and strides):
// C[M, N] f32 = A[M, K] @ B[K, N] f16 from seeds sa, sb, 64 x 64 boxes.
static void run_gemm_tma(const std::string& dir, const std::string& out, const char* name, int M,
                         int N, int K, uint64_t sa, uint64_t sb, unsigned gx, unsigned gy,
                         unsigned threads, unsigned shared) {
  CUdeviceptr null_ptr = 0;
  auto a = inputs16(sa, (size_t)M * K), b = inputs16(sb, (size_t)K * N);
  CUdeviceptr da = upload(a.data(), 2 * a.size()), db = upload(b.data(), 2 * b.size());
  size_t c_bytes = 4 * ((size_t)M * N + 16);
  CUdeviceptr dc = guarded(c_bytes);
  CUtensorMap ta = map_f16(da, M, K, 64, 64), tb = map_f16(db, K, N, 64, 64);
  int64_t sk = K, sn = N, one = 1;
  void* args[] = {&ta, &M, &K, &sk, &one, &tb, &K, &N, &sn, &one, &dc, &M, &N, &K, &null_ptr, &null_ptr};
  launch_dump(dir, out, name, gx, gy, threads, shared, args, {{dc, c_bytes, ""}});
}

// The kernels added to the Hopper proof of tcgen05 run (tf32, int8, an fp8 epilogue, a masked tail, warp
// specialisation, a persistent schedule, the benchmark's 128 x 128 x 64 tiles).
static void more(const std::string& dir, const std::string& out) {
  CUdeviceptr null_ptr = 0;
  {  // dot_tf32: C[128, 64] f32 = A[128, 96] @ B[96, 64], f32 words with random low bits
    int M = 128, N = 64, K = 96;
    auto a = inputs(16, (size_t)M * K, 120, 10, false), b = inputs(17, (size_t)K * N, 120, 10, false);
    run_gemm(dir, out, "dot_tf32", a.data(), 4 * a.size(), b.data(), 4 * b.size(), M, N, K, 4,
             2, 1, 128, 49152);
  }
  {  // dot_i8: C[64, 128] s32 = A[64, 128] @ B[128, 128], every int8 value
    int M = 64, N = 128, K = 128;
    auto a = inputs8(18, (size_t)M * K), b = inputs8(19, (size_t)K * N);
    run_gemm(dir, out, "dot_i8", a.data(), a.size(), b.data(), b.size(), M, N, K, 4, 1, 2, 128,
             16384);
  }
  {  // dot_fp8_epilogue: relu(A @ B + bias) of e4m3 A[64, 128], B[128, 128], f32 bias[128],
     // written as bf16 (c) and e4m3 (c8)
    int M = 64, N = 128, K = 128;
    auto a = inputs_lowp(20, (size_t)M * K, true), b = inputs_lowp(21, (size_t)K * N, true);
    auto bias = inputs(22, N, 120, 12, false);
    CUdeviceptr da = upload(a.data(), a.size()), db = upload(b.data(), b.size());
    CUdeviceptr dbias = upload(bias.data(), 4 * bias.size());
    size_t c_bytes = 2 * ((size_t)M * N + 16), c8_bytes = (size_t)M * N + 16;
    CUdeviceptr dc = guarded(c_bytes), dc8 = guarded(c8_bytes);
    void* args[] = {&da, &db, &dbias, &dc, &dc8, &M, &N, &K, &null_ptr, &null_ptr};
    launch_dump(dir, out, "dot_fp8_epilogue", 1, 2, 128, 8192, args,
                {{dc, c_bytes, "_bf16"}, {dc8, c8_bytes, "_e4m3"}});
  }
  {  // dot_tail_bf16: C[200, 90] bf16 = A[200, 70] @ B[70, 90]; tiles 128 x 64 x 32, grid 2 x 2
    int M = 200, N = 90, K = 70;
    auto a = inputs_lowp(23, (size_t)M * K, false), b = inputs_lowp(24, (size_t)K * N, false);
    run_gemm(dir, out, "dot_tail_bf16", a.data(), a.size(), b.data(), b.size(), M, N, K, 2, 2, 2,
             256, 16384);
  }
  // gemm_ws: C[128, 128] = A[128, 256] @ B[256, 128], 3 warpgroups (Triton's .reqntid 384)
  run_gemm_tma(dir, out, "gemm_ws", 128, 128, 256, 25, 26, 2, 2, 384, 82080);
  // gemm_persistent: C[192, 128] = A[192, 128] @ B[128, 128], 6 tiles walked by 3 CTAs
  run_gemm_tma(dir, out, "gemm_persistent", 192, 128, 128, 27, 28, 3, 1, 128, 65560);
  {  // dot_e5m2_f16: C[64, 128] f16 = A[64, 128] @ B[128, 128] e5m2
    int M = 64, N = 128, K = 128;
    auto a = inputs_e5m2(31, (size_t)M * K), b = inputs_e5m2(32, (size_t)K * N);
    run_gemm(dir, out, "dot_e5m2_f16", a.data(), a.size(), b.data(), b.size(), M, N, K, 2, 1, 2,
             128, 8192);
  }
  {  // dot_i8_tail: C[100, 72] s32 = A[100, 80] @ B[80, 72] s8, 64 x 64 x 64 tiles, grid 2 x 2
    int M = 100, N = 72, K = 80;
    auto a = inputs8(33, (size_t)M * K), b = inputs8(34, (size_t)K * N);
    run_gemm(dir, out, "dot_i8_tail", a.data(), a.size(), b.data(), b.size(), M, N, K, 4, 2, 2,
             128, 16384);
  }
  {  // gemm_bf16_128: C[256, 256] f32 = A[256, 128] @ B[128, 256] bf16, 128 x 128 x 64 tiles
    int M = 256, N = 256, K = 128;
    auto a = inputs_lowp(29, (size_t)M * K, false), b = inputs_lowp(30, (size_t)K * N, false);
    run_gemm(dir, out, "gemm_bf16_128", a.data(), a.size(), b.data(), b.size(), M, N, K, 4, 2, 2,
             256, 65536);
  }
}

int main(int argc, char** argv) {
  if (argc != 3) { fprintf(stderr, "usage: harness PTX_DIR OUT_DIR\n"); return 2; }
  std::string dir = argv[1], out = argv[2];
  CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0));
  char name[256]; CK(cuDeviceGetName(name, sizeof name, dev));
  CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  printf("device %s\n", name);
  CUdeviceptr null_ptr = 0;
  {  // axpy_bf16: n = 1000 (grid 4 x 256, tail of 232), alpha = 1.7f
    int n = 1000; float alpha = 1.7f; uint32_t a_bits; memcpy(&a_bits, &alpha, 4);
    auto x = inputs(1, n, 100, 60, true), y = inputs(2, n, 100, 60, true);
    CUdeviceptr dx = upload(x.data(), 4 * n), dy = upload(y.data(), 4 * n);
    std::vector<uint16_t> o(n + 16, 0xABCD);  // 16 guard elements past the end
    CUdeviceptr dout = upload(o.data(), 2 * o.size());
    Mod m = load(dir, "axpy_bf16");
    void* args[] = {&dx, &dy, &dout, &n, &alpha, &null_ptr, &null_ptr};
    CK(cuLaunchKernel(m.f, 4, 1, 1, 128, 1, 1, 0, 0, args, 0)); CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(o.data(), dout, 2 * o.size()));
    dump(out + "/axpy_bf16.out", o.data(), 2 * o.size());
    printf("axpy_bf16 ok alpha=0x%08x\n", a_bits);
  }
  {  // scale_fp8: n = 1500 (grid 3 x 512, tail of 476), scale = 3.3f
    int n = 1500; float scale = 3.3f;
    auto x = inputs(3, n, 100, 60, true);
    CUdeviceptr dx = upload(x.data(), 4 * n);
    std::vector<uint8_t> o(n + 16, 0xAB);
    CUdeviceptr dout = upload(o.data(), o.size());
    Mod m = load(dir, "scale_fp8");
    void* args[] = {&dx, &dout, &n, &scale, &null_ptr, &null_ptr};
    CK(cuLaunchKernel(m.f, 3, 1, 1, 128, 1, 1, 0, 0, args, 0)); CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(o.data(), dout, o.size()));
    dump(out + "/scale_fp8.out", o.data(), o.size());
    printf("scale_fp8 ok\n");
  }
  {  // row_sum: 8 rows of 1000 (BLOCK 1024), one CTA per row, 16 bytes of shared memory
    int rows = 8, cols = 1000;
    auto x = inputs(4, rows * cols, 110, 30, false);
    CUdeviceptr dx = upload(x.data(), 4 * x.size());
    std::vector<uint32_t> o(rows + 4, 0xABABABABu);
    CUdeviceptr dout = upload(o.data(), 4 * o.size());
    Mod m = load(dir, "row_sum");
    void* args[] = {&dx, &dout, &cols, &null_ptr, &null_ptr};
    CK(cuLaunchKernel(m.f, rows, 1, 1, 128, 1, 1, 16, 0, args, 0)); CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(o.data(), dout, 4 * o.size()));
    dump(out + "/row_sum.out", o.data(), 4 * o.size());
    printf("row_sum ok\n");
  }
  {  // fma_f32: n = 1000 (grid 4 x 256), out = x * y + z with Triton's fused multiply-add
    int n = 1000;
    auto x = inputs(5, n, 100, 60, true), y = inputs(6, n, 100, 60, true), z = inputs(7, n, 100, 60, true);
    CUdeviceptr dx = upload(x.data(), 4 * n), dy = upload(y.data(), 4 * n), dz = upload(z.data(), 4 * n);
    std::vector<uint32_t> o(n + 16, 0xABABABABu);
    CUdeviceptr dout = upload(o.data(), 4 * o.size());
    Mod m = load(dir, "fma_f32");
    void* args[] = {&dx, &dy, &dz, &dout, &n, &null_ptr, &null_ptr};
    CK(cuLaunchKernel(m.f, 4, 1, 1, 128, 1, 1, 0, 0, args, 0)); CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(o.data(), dout, 4 * o.size()));
    dump(out + "/fma_f32.out", o.data(), 4 * o.size());
    printf("fma_f32 ok\n");
  }
  {  // dot_f16: C[100, 72] f32 = A[100, 80] f16 @ B[80, 72] f16; tiles 64 x 64 x 32, grid 2 x 2,
     // 16384 bytes of dynamic shared memory (Triton's metadata)
    int M = 100, N = 72, K = 80;
    auto a = inputs16(8, (size_t)M * K), b = inputs16(9, (size_t)K * N);
    CUdeviceptr da = upload(a.data(), 2 * a.size()), db = upload(b.data(), 2 * b.size());
    std::vector<uint32_t> o((size_t)M * N + 16, 0xABABABABu);
    CUdeviceptr dout = upload(o.data(), 4 * o.size());
    Mod m = load(dir, "dot_f16");
    CK(cuFuncSetAttribute(m.f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 16384));
    void* args[] = {&da, &db, &dout, &M, &N, &K, &null_ptr, &null_ptr};
    CK(cuLaunchKernel(m.f, 2, 2, 1, 128, 1, 1, 16384, 0, args, 0)); CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(o.data(), dout, 4 * o.size()));
    dump(out + "/dot_f16.out", o.data(), 4 * o.size());
    printf("dot_f16 ok\n");
  }
  run_dot(dir, out, "dot_bf16", false, 128, 64, 96, 10, 11);
  run_dot(dir, out, "dot_e4m3", true, 64, 128, 128, 12, 13);
  {  // dot_tma: C[128, 128] f32 = A[128, 96] f16 @ B[96, 128] f16, tiles moved by TMA. The tensor
     // maps are encoded as Triton's launcher does (k.metadata.tensordesc_meta): A boxes of
     // 64 x 32 with 64-byte swizzling, B boxes of 32 x 64 with 128-byte swizzling; each map is
     // followed by the tensor's shape (2 x i32) and strides in elements (2 x i64).
    int M = 128, N = 128, K = 96;
    auto a = inputs16(14, (size_t)M * K), b = inputs16(15, (size_t)K * N);
    CUdeviceptr da = upload(a.data(), 2 * a.size()), db = upload(b.data(), 2 * b.size());
    std::vector<uint32_t> o((size_t)M * N + 16, 0xABABABABu);
    CUdeviceptr dout = upload(o.data(), 4 * o.size());
    CUtensorMap ta, tb;
    cuuint64_t adim[2] = {(cuuint64_t)K, (cuuint64_t)M}, astr[1] = {(cuuint64_t)K * 2};
    cuuint64_t bdim[2] = {(cuuint64_t)N, (cuuint64_t)K}, bstr[1] = {(cuuint64_t)N * 2};
    cuuint32_t abox[2] = {32, 64}, bbox[2] = {64, 32}, es[2] = {1, 1};
    CK(cuTensorMapEncodeTiled(&ta, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void*)da, adim, astr, abox, es,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    CK(cuTensorMapEncodeTiled(&tb, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void*)db, bdim, bstr, bbox, es,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
    Mod m = load(dir, "dot_tma");
    CK(cuFuncSetAttribute(m.f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 24600));
    int64_t sk = K, sn = N, one = 1;
    void* args[] = {&ta, &M, &K, &sk, &one, &tb, &K, &N, &sn, &one, &dout, &M, &N, &K, &null_ptr, &null_ptr};
    CK(cuLaunchKernel(m.f, M / 64, N / 64, 1, 128, 1, 1, 24600, 0, args, 0)); CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(o.data(), dout, 4 * o.size()));
    dump(out + "/dot_tma.out", o.data(), 4 * o.size());
    printf("dot_tma ok\n");
  }
  more(dir, out);
  return 0;
}
