// End-to-end hardware check of the layout model's TMA agreement (crates/tcgen05
// tensor_copy::agreement): the tensor memory accelerator writes both operand tiles into shared
// memory (cp.async.bulk.tensor.2d, swizzled boxes), then one wgmma.mma_async (m64n32k16 f16,
// f32 accumulators) reads them through the descriptors the case gives. D equals the CPU product
// of the intended K-block exactly when the model says the descriptors read what the copies
// wrote ("agree"); when the model says they differ, D must be wrong.
//
// Case file (written by hw/gen, one case per line):
//   case NAME EXPECT(agree|differ) A_SWIZZLE A_INNER A_DST A_DESC_WGMMA A_KSTART B_SWIZZLE B_INNER B_DST B_DESC_WGMMA
// A is a 64 x A_INNER f16 tile (inner = K), B a 32 x B_INNER f16 tile; each is copied as one box
// to its destination; wgmma reads A's K-block starting at A_KSTART and B's first K-block.
//
// Build: nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o harness harness.cu
//        (includes ../wgmma/wgmma_ops.cuh for the m64n32k16 f16 wrapper)
// Run:   ./harness CASES  (exit 2 on a case-file or CUDA error)

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../wgmma/wgmma_ops.cuh"

constexpr uint32_t kWindowBase = 0x400;
constexpr uint32_t kWindowSize = 0x8000;
constexpr int kM = 64, kN = 32, kK = 16;

struct Box {
    std::string swizzle;
    uint32_t inner = 0, outer = 0, dst = 0;
    uint64_t desc = 0;
    uint32_t k_start = 0;
};

struct Case {
    std::string name;
    bool expect_agree = true;
    Box a, b;
};

static uint64_t file_fnv1a(const char* path) {
    std::ifstream f(path, std::ios::binary);
    uint64_t h = 0xcbf29ce484222325ull;
    char ch;
    while (f.get(ch)) h = (h ^ (uint8_t)ch) * 0x100000001b3ull;
    return h;
}

static bool load(const char* path, std::vector<Case>* out) {
    std::ifstream f(path);
    if (!f) return false;
    std::string raw;
    int line = 0;
    bool have_format = false;
    while (std::getline(f, raw)) {
        line++;
        if (raw.empty() || raw[0] == '#') continue;
        std::istringstream in(raw);
        std::string kw;
        in >> kw;
        if (kw == "format") {
            std::string n, v;
            in >> n >> v;
            have_format = n == "tcgen05-e2e-cases" && v == "1";
            continue;
        }
        if (kw != "case" || !have_format) {
            fprintf(stderr, "case file line %d: expected 'case' after the format line\n", line);
            return false;
        }
        Case c;
        std::string expect, ai, ad, adesc, ak, bi, bd, bdesc;
        in >> c.name >> expect >> c.a.swizzle >> ai >> ad >> adesc >> ak >> c.b.swizzle >> bi >> bd >> bdesc;
        if (!in || (expect != "agree" && expect != "differ")) {
            fprintf(stderr, "case file line %d: malformed\n", line);
            return false;
        }
        c.expect_agree = expect == "agree";
        c.a.inner = strtoul(ai.c_str(), nullptr, 0);
        c.a.outer = kM;
        c.a.dst = strtoul(ad.c_str(), nullptr, 0);
        c.a.desc = strtoull(adesc.c_str(), nullptr, 0);
        c.a.k_start = strtoul(ak.c_str(), nullptr, 0);
        c.b.inner = strtoul(bi.c_str(), nullptr, 0);
        c.b.outer = kN;
        c.b.dst = strtoul(bd.c_str(), nullptr, 0);
        c.b.desc = strtoull(bdesc.c_str(), nullptr, 0);
        c.b.k_start = 0;
        out->push_back(c);
    }
    return have_format;
}

__global__ void __launch_bounds__(128, 1)
    e2e_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, uint32_t dst_a,
               uint32_t dst_b, uint32_t tx_bytes, uint64_t desc_a, uint64_t desc_b, float* out, uint32_t* info) {
    extern __shared__ __align__(1024) uint8_t smem[];
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
    const uint32_t pad = base <= kWindowBase ? kWindowBase - base : ((kWindowBase - base) & 1023u);
    const uint32_t win_addr = base + pad;
    uint8_t* win = smem + pad;
    const uint32_t mbar = win_addr + kWindowSize;
    for (uint32_t i = threadIdx.x; i < kWindowSize / 16; i += blockDim.x)
        reinterpret_cast<uint4*>(win)[i] = make_uint4(0, 0, 0, 0);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(mbar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    // Window placement as in hw/wgmma and hw/tma: exactly at kWindowBase here, else moved by a
    // multiple of 1024 (the descriptors' start fields move with it).
    const int64_t shift = ((int64_t)win_addr - (int64_t)kWindowBase) / 16;
    if (threadIdx.x == 0) {
        info[0] = win_addr;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(mbar), "r"(tx_bytes)
                     : "memory");
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
            "[%4];\n" ::"r"(dst_a - kWindowBase + win_addr),
            "l"(reinterpret_cast<uint64_t>(&map_a)), "r"(0), "r"(0), "r"(mbar)
            : "memory");
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
            "[%4];\n" ::"r"(dst_b - kWindowBase + win_addr),
            "l"(reinterpret_cast<uint64_t>(&map_b)), "r"(0), "r"(0), "r"(mbar)
            : "memory");
    }
    uint32_t done = 0;
    while (!done) {
        asm volatile(
            "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\nselp.u32 %0, 1, 0, p;\n}\n"
            : "=r"(done)
            : "r"(mbar)
            : "memory");
    }
    __syncthreads();
    const uint64_t da = (desc_a & ~0x3FFFull) | (uint64_t)(((int64_t)(desc_a & 0x3FFF) + shift) & 0x3FFF);
    const uint64_t db = (desc_b & ~0x3FFFull) | (uint64_t)(((int64_t)(desc_b & 0x3FFF) + shift) & 0x3FFF);
    float d[kN / 2];
#pragma unroll
    for (int r = 0; r < kN / 2; r++) d[r] = 0.f;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    Op_f16_n32_t00::mma(d, da, db);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
    for (int r = 0; r < kN / 2; r++) {
        const int row = 16 * warp + lane / 4 + 8 * ((r / 2) % 2);
        const int col = 8 * (r / 4) + 2 * (lane % 4) + (r % 2);
        out[row * kN + col] = d[r];
    }
}

typedef CUresult (*EncodeTiled)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static uint16_t f16_bits(int v) {  // exact small integers, |v| <= 2048
    if (v == 0) return 0;
    uint16_t sign = v < 0 ? 0x8000 : 0;
    unsigned a = (unsigned)(v < 0 ? -v : v);
    int e = 31 - __builtin_clz(a);
    unsigned mant = (e <= 10 ? (a << (10 - e)) : (a >> (e - 10))) & 0x3FF;
    return (uint16_t)(sign | ((e + 15) << 10) | mant);
}

static bool make_map(EncodeTiled enc, CUtensorMap* m, void* g, const Box& b) {
    CUtensorMapSwizzle sw = b.swizzle == "32B"    ? CU_TENSOR_MAP_SWIZZLE_32B
                            : b.swizzle == "64B"  ? CU_TENSOR_MAP_SWIZZLE_64B
                            : b.swizzle == "128B" ? CU_TENSOR_MAP_SWIZZLE_128B
                                                  : CU_TENSOR_MAP_SWIZZLE_NONE;
    cuuint64_t dim[2] = {b.inner, b.outer};
    cuuint64_t stride[1] = {(cuuint64_t)b.inner * 2};
    cuuint32_t box[2] = {b.inner, b.outer};
    cuuint32_t es[2] = {1, 1};
    return enc(m, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, g, dim, stride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s CASES\n", argv[0]);
        return 2;
    }
    std::vector<Case> cases;
    if (!load(argv[1], &cases)) return 2;
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess) {
        fprintf(stderr, "cuTensorMapEncodeTiled not found\n");
        return 2;
    }
    EncodeTiled enc = reinterpret_cast<EncodeTiled>(p);
    cudaDeviceProp prop{};
    int drv = 0, rt = 0;
    cudaGetDeviceProperties(&prop, 0);
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    std::string name = prop.name;
    for (char& ch : name)
        if (ch == ' ') ch = '_';
    printf("device %s cc %d.%d driver %d runtime %d\n", name.c_str(), prop.major, prop.minor, drv, rt);
    printf("window 0x%x 0x%x cases %zu cases_fnv1a64 0x%016llx\n", kWindowBase, kWindowSize, cases.size(),
           (unsigned long long)file_fnv1a(argv[1]));
    const size_t smem_bytes = kWindowSize + 1024 + kWindowBase + 64;
    if (cudaFuncSetAttribute(e2e_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_bytes) != cudaSuccess)
        return 2;
    for (size_t ci = 0; ci < cases.size(); ci++) {
        const Case& c = cases[ci];
        // Tiles: distinct values for A (|v| <= 512), small non-zero ones for B.
        uint64_t s = 0x9E3779B97F4A7C15ull * (ci + 1);
        auto rnd = [&]() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            return s;
        };
        std::vector<int> A((size_t)kM * c.a.inner), B((size_t)kN * c.b.inner);
        for (size_t i = 0; i < A.size(); i++) {
            int v = (int)(i % 512) + 1;
            A[i] = (rnd() & 1) ? -v : v;
        }
        for (size_t i = A.size(); i > 1; i--) std::swap(A[i - 1], A[rnd() % i]);
        for (int& v : B) v = (int)(rnd() % 4) + 1, v = (rnd() & 1) ? -v : v;
        std::vector<uint16_t> ha(A.size()), hb(B.size());
        for (size_t i = 0; i < A.size(); i++) ha[i] = f16_bits(A[i]);
        for (size_t i = 0; i < B.size(); i++) hb[i] = f16_bits(B[i]);
        void *ga = nullptr, *gb = nullptr;
        float* dout = nullptr;
        uint32_t* dinfo = nullptr;
        cudaMalloc(&ga, ha.size() * 2);
        cudaMalloc(&gb, hb.size() * 2);
        cudaMalloc(&dout, kM * kN * 4);
        cudaMalloc(&dinfo, 16);
        cudaMemcpy(ga, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice);
        cudaMemcpy(gb, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice);
        CUtensorMap ma, mb;
        if (!make_map(enc, &ma, ga, c.a) || !make_map(enc, &mb, gb, c.b)) {
            printf("result %s index=%zu expect=%s error=tensor_map verdict=FAIL\n", c.name.c_str(), ci,
                   c.expect_agree ? "agree" : "differ");
            continue;
        }
        const uint32_t tx = (uint32_t)(ha.size() + hb.size()) * 2;
        e2e_kernel<<<1, 128, smem_bytes>>>(ma, mb, c.a.dst, c.b.dst, tx, c.a.desc, c.b.desc, dout, dinfo);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("result %s index=%zu error=%s verdict=FAIL\n", c.name.c_str(), ci, cudaGetErrorName(e));
            return 2;
        }
        std::vector<float> d(kM * kN);
        uint32_t info[4] = {};
        cudaMemcpy(d.data(), dout, d.size() * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(info, dinfo, 16, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int m = 0; m < kM; m++)
            for (int n = 0; n < kN; n++) {
                long long want = 0;
                for (int k = 0; k < kK; k++)
                    want += (long long)A[(size_t)m * c.a.inner + c.a.k_start + k] * B[(size_t)n * c.b.inner + k];
                if ((double)d[m * kN + n] != (double)want) bad++;
            }
        const bool agree = bad == 0;
        printf("result %s index=%zu expect=%s product=%s product_bad=%d/%d window=0x%x verdict=%s\n", c.name.c_str(),
               ci, c.expect_agree ? "agree" : "differ", agree ? "match" : "mismatch", bad, kM * kN, info[0],
               agree == c.expect_agree ? "ok" : "FAIL");
        fflush(stdout);
        cudaFree(ga);
        cudaFree(gb);
        cudaFree(dout);
        cudaFree(dinfo);
    }
    printf("done\n");
    return 0;
}
