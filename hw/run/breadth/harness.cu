// Runs the kernels of hw/run/breadth/kernels.txt on the GPU with seeded inputs and writes every
// output word, for the proof of the interpreter's breadth (crates/tcgen05-run/tests/breadth.rs
// runs the same PTX on the same inputs and compares every byte).
//
//   harness DIR OUT_DIR      (DIR holds kernels.txt and ptx/)
//
// One kernel per line of kernels.txt: name grid block cluster shared input out_words args
// [tmap]. The input is KIND:SEED:WORDS (recipes in input() below, and in the test); the output
// buffer is out_words + 16 guard words, all 0xABABABAB before the launch. args lists the
// kernel's parameters: in, out, tmap (a tensor map over the input), i32:N, null. A cluster other
// than 1,1,1 is launched with cuLaunchKernelEx's cluster-dimension attribute. The `.version`
// line is lowered to 8.0 for the driver's JIT (the only change to the text). A kernel that fails
// is reported and the others still run.
#include <cuda.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#define TRY(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; cuGetErrorString(r_, &s_); \
  printf("%s FAILED: %s: %s\n", name.c_str(), #x, s_); return false; } } while (0)

static uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// bits: the low 32 bits of each SplitMix64 output. small: the output mod 1000. f32: sign,
// biased exponent in [110, 140), 23 fraction bits. f16: two f16 codes per word (low first), each
// sign, biased exponent in [10, 20), 10 fraction bits. lanes: the output mod 4 (for match/vote).
static std::vector<uint32_t> input(const std::string& kind, uint64_t seed, size_t n) {
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; i++) {
    if (kind == "f16") {
      uint32_t w = 0;
      for (int h = 0; h < 2; h++) {
        uint64_t r = splitmix(seed);
        uint32_t c = (uint32_t)(((r & 1) << 15) | ((10 + (r >> 1) % 10) << 10) | ((r >> 8) & 0x3FF));
        w |= c << (16 * h);
      }
      v[i] = w;
      continue;
    }
    uint64_t r = splitmix(seed);
    if (kind == "bits") v[i] = (uint32_t)r;
    else if (kind == "small") v[i] = (uint32_t)(r % 1000);
    else if (kind == "lanes") v[i] = (uint32_t)(r % 4);
    else v[i] = ((uint32_t)(r & 1) << 31) | ((110 + (uint32_t)((r >> 1) % 30)) << 23) | ((uint32_t)(r >> 8) & 0x7FFFFF);
  }
  return v;
}

static std::string slurp(const std::string& p) {
  FILE* f = fopen(p.c_str(), "rb");
  if (!f) return "";
  std::string s; char buf[65536]; size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, k);
  fclose(f);
  size_t at = s.find(".version ");
  if (at != std::string::npos) { size_t e = s.find('\n', at); s.replace(at, e - at, ".version 8.0"); }
  return s;
}

static void dims(const std::string& s, unsigned d[3]) {
  d[0] = d[1] = d[2] = 1; sscanf(s.c_str(), "%u,%u,%u", &d[0], &d[1], &d[2]);
}

static bool run(const std::string& dir, const std::string& out, const std::string& line) {
  std::istringstream ss(line);
  std::string name, grid, block, cluster, input_spec, args, tmap;
  unsigned shared, out_words;
  ss >> name >> grid >> block >> cluster >> shared >> input_spec >> out_words >> args >> tmap;
  unsigned g[3], b[3], c[3]; dims(grid, g); dims(block, b); dims(cluster, c);
  std::string kind = input_spec.substr(0, input_spec.find(':'));
  uint64_t seed; size_t n;
  sscanf(input_spec.c_str() + kind.size() + 1, "%lu:%zu", &seed, &n);
  std::vector<uint32_t> in = input(kind, seed, n);
  std::vector<uint32_t> o(out_words + 16, 0xABABABABu);
  CUdeviceptr din, dout;
  TRY(cuMemAlloc(&din, 4 * in.size())); TRY(cuMemcpyHtoD(din, in.data(), 4 * in.size()));
  TRY(cuMemAlloc(&dout, 4 * o.size())); TRY(cuMemcpyHtoD(dout, o.data(), 4 * o.size()));
  std::string ptx = slurp(dir + "/ptx/" + name + ".ptx");
  char log[8192] = {0};
  CUjit_option jo[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* jv[2] = {log, (void*)(uintptr_t)sizeof log};
  CUmodule m; CUfunction f;
  CUresult e = cuModuleLoadDataEx(&m, ptx.c_str(), 2, jo, jv);
  if (e != CUDA_SUCCESS) { printf("%s FAILED: load (%d): %s\n", name.c_str(), (int)e, log); return false; }
  TRY(cuModuleGetFunction(&f, m, name.c_str()));
  if (shared > 48 * 1024) TRY(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared));
  if (c[0] * c[1] * c[2] > 8) TRY(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
  alignas(64) CUtensorMap map;
  if (!tmap.empty()) {  // COLS,ROWS,BOXC,BOXR over the input as f32, no swizzle
    unsigned t[4]; sscanf(tmap.c_str(), "%u,%u,%u,%u", &t[0], &t[1], &t[2], &t[3]);
    cuuint64_t gd[2] = {t[0], t[1]}, gs[1] = {(cuuint64_t)t[0] * 4};
    cuuint32_t bx[2] = {t[2], t[3]}, es[2] = {1, 1};
    TRY(cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void*)din, gd, gs, bx, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  }
  std::vector<void*> params; std::vector<int> ints(16); size_t ni = 0;
  CUdeviceptr null_ptr = 0;
  std::istringstream as(args); std::string a;
  while (std::getline(as, a, ',')) {
    if (a == "in") params.push_back(&din);
    else if (a == "out") params.push_back(&dout);
    else if (a == "tmap") params.push_back(&map);
    else if (a == "null") params.push_back(&null_ptr);
    else if (a.rfind("i32:", 0) == 0) { ints[ni] = atoi(a.c_str() + 4); params.push_back(&ints[ni++]); }
  }
  CUlaunchConfig lc = {};
  lc.gridDimX = g[0]; lc.gridDimY = g[1]; lc.gridDimZ = g[2];
  lc.blockDimX = b[0]; lc.blockDimY = b[1]; lc.blockDimZ = b[2];
  lc.sharedMemBytes = shared;
  CUlaunchAttribute at[1];
  at[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  at[0].value.clusterDim.x = c[0]; at[0].value.clusterDim.y = c[1]; at[0].value.clusterDim.z = c[2];
  lc.attrs = at; lc.numAttrs = (c[0] * c[1] * c[2] > 1) ? 1 : 0;
  TRY(cuLaunchKernelEx(&lc, f, params.data(), nullptr));
  TRY(cuCtxSynchronize());
  TRY(cuMemcpyDtoH(o.data(), dout, 4 * o.size()));
  FILE* fo = fopen((out + "/" + name + ".out").c_str(), "wb"); fwrite(o.data(), 4, o.size(), fo); fclose(fo);
  cuMemFree(din); cuMemFree(dout); cuModuleUnload(m);
  printf("%s ok\n", name.c_str());
  return true;
}

int main(int argc, char** argv) {
  if (argc != 3) { fprintf(stderr, "usage: harness DIR OUT_DIR\n"); return 2; }
  std::string dir = argv[1], out = argv[2];
  cuInit(0); CUdevice dev; cuDeviceGet(&dev, 0);
  char dn[256]; cuDeviceGetName(dn, sizeof dn, dev);
  CUcontext ctx; cuDevicePrimaryCtxRetain(&ctx, dev); cuCtxSetCurrent(ctx);
  printf("device %s\n", dn);
  FILE* f = fopen((dir + "/kernels.txt").c_str(), "r");
  if (!f) { fprintf(stderr, "no kernels.txt\n"); return 1; }
  char buf[1024]; int failed = 0;
  while (fgets(buf, sizeof buf, f)) {
    std::string line(buf);
    if (line.empty() || line[0] == '#' || line[0] == '\n') continue;
    if (!run(dir, out, line)) { failed++; cuCtxSynchronize(); }
  }
  return failed ? 1 : 0;
}
