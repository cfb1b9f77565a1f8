// Hardware check of the tensor-copy placement model (crates/tcgen05/src/layout/tensor_copy.rs) on Hopper's
// tensor memory accelerator (TMA, cp.async.bulk.tensor): where a tiled 2-D box with a swizzle
// mode lands in shared memory.
//
// For every case of a case file written by the Rust generator (hw/gen), which asks the model
// (TensorCopyBox::address) where each box element goes, this program
//   1. fills a global inner x outer tensor with each element's own index (split over passes of
//      the element width when the index does not fit),
//   2. copies it as one box with cp.async.bulk.tensor.2d (tensor map built with
//      cuTensorMapEncodeTiled: the case's swizzle mode, element size and box) to the case's
//      shared-memory destination, in a window first filled with a pattern, twice with two
//      different patterns, so a byte equal in both runs is a byte the copy wrote,
//   3. reads the window back and compares, element by element, the address the copy put it at
//      with the model's address; it also counts written element slots that hold no element.
//
// Facts used: PTX ISA 9.1 cp.async.bulk.tensor (9.7.9.25.5), mbarrier expect-tx / try_wait
// (9.7.13.15), async-proxy fence; CUDA driver API cuTensorMapEncodeTiled (cuda.h: box inner
// dimension in bytes a multiple of 16 and, with swizzling, at most the swizzle span).
//
// Build (device machine):  nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a
//                              -o harness harness.cu        (run.sh does this)
// Run:                     ./harness CASES [--from INDEX] [--map-out FILE]
// Exit status: 0 all cases ran (verdicts in the output), 2 usage or case-file error, 3 CUDA
// error at a case (run.sh resumes after it).

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

struct Case {
    std::string name;
    uint32_t esize = 0, inner = 0, outer = 0, dst = 0;
    std::string swizzle;
    bool expect_fault = false;  // the model rejects the destination: the copy must fault
    std::vector<uint32_t> place;  // model address of element (inner i, outer o) at index o*inner + i
};

struct CaseFile {
    uint32_t window_base = 0, window_size = 0;
    std::vector<Case> cases;
};

static bool parse_u64(const std::string& s, uint64_t* v) {
    if (s.empty()) return false;
    char* end = nullptr;
    *v = strtoull(s.c_str(), &end, 0);
    return end && *end == '\0';
}

static bool fail_parse(int line, const std::string& why) {
    fprintf(stderr, "case file line %d: %s\n", line, why.c_str());
    return false;
}

static uint64_t file_fnv1a(const char* path) {
    std::ifstream f(path, std::ios::binary);
    uint64_t h = 0xcbf29ce484222325ull;
    char ch;
    while (f.get(ch)) h = (h ^ (uint8_t)ch) * 0x100000001b3ull;
    return h;
}

static bool load_cases(const char* path, CaseFile* cf) {
    std::ifstream f(path);
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    std::string raw;
    int line = 0;
    bool have_format = false, have_window = false;
    while (std::getline(f, raw)) {
        line++;
        if (raw.empty() || raw[0] == '#') continue;
        std::istringstream in(raw);
        std::string kw;
        in >> kw;
        if (kw == "format") {
            std::string name, version;
            in >> name >> version;
            if (name != "tcgen05-tma-cases" || version != "1") return fail_parse(line, "unknown format");
            have_format = true;
        } else if (kw == "window") {
            std::string b, s;
            uint64_t base = 0, size = 0;
            in >> b >> s;
            if (!parse_u64(b, &base) || !parse_u64(s, &size) || base % 1024 || size % 1024 || size == 0 ||
                base + size > (1u << 18))
                return fail_parse(line, "bad window");
            cf->window_base = (uint32_t)base;
            cf->window_size = (uint32_t)size;
            have_window = true;
        } else if (kw == "case") {
            if (!have_format || !have_window) return fail_parse(line, "case before format/window");
            Case c;
            std::string es, inner, outer, dst, expect, place, count;
            in >> c.name >> es >> c.swizzle >> inner >> outer >> dst >> expect >> place >> count;
            if (expect != "match" && expect != "fault") return fail_parse(line, "expect must be match or fault");
            c.expect_fault = expect == "fault";
            uint64_t v[4], n = 0;
            if (!parse_u64(es, &v[0]) || !parse_u64(inner, &v[1]) || !parse_u64(outer, &v[2]) ||
                !parse_u64(dst, &v[3]) || place != "place" || !parse_u64(count, &n))
                return fail_parse(line, "bad case line");
            if (v[0] != 1 && v[0] != 2 && v[0] != 4) return fail_parse(line, "element size must be 1, 2 or 4");
            if (c.swizzle != "none" && c.swizzle != "32B" && c.swizzle != "64B" && c.swizzle != "128B")
                return fail_parse(line, "bad swizzle");
            c.esize = (uint32_t)v[0];
            c.inner = (uint32_t)v[1];
            c.outer = (uint32_t)v[2];
            c.dst = (uint32_t)v[3];
            if (c.inner == 0 || c.inner > 256 || c.outer == 0 || c.outer > 256) return fail_parse(line, "bad box");
            for (uint64_t r = 0; r < n; r++) {
                std::string tok;
                if (!(in >> tok)) return fail_parse(line, "missing run");
                size_t colon = tok.find(':');
                uint64_t addr = 0, len = 0;
                if (colon == std::string::npos || !parse_u64("0x" + tok.substr(0, colon), &addr) ||
                    !parse_u64(tok.substr(colon + 1), &len) || len == 0)
                    return fail_parse(line, "bad run '" + tok + "'");
                for (uint64_t j = 0; j < len; j++) c.place.push_back((uint32_t)(addr + j * c.esize));
            }
            if (c.place.size() != (c.expect_fault ? 0 : (size_t)c.inner * c.outer))
                return fail_parse(line, "runs do not cover the box");
            for (uint32_t a : c.place)  // empty for fault cases
                if (a < cf->window_base || a + c.esize > cf->window_base + cf->window_size)
                    return fail_parse(line, "model address outside the window");
            cf->cases.push_back(c);
        } else {
            return fail_parse(line, "unknown keyword '" + kw + "'");
        }
    }
    return true;
}

__global__ void __launch_bounds__(128, 1)
    tma_kernel(const __grid_constant__ CUtensorMap tmap, uint32_t window_base, uint32_t window_size, uint32_t dst,
               uint32_t fill, uint32_t tx_bytes, uint8_t* out, uint32_t* info) {
    extern __shared__ __align__(1024) uint8_t smem[];
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
    // The window at exactly window_base when the dynamic shared memory starts at or below it,
    // else at the next address congruent to it modulo 1024 (the swizzle patterns repeat within
    // 1024 bytes), with the destination moved by the same amount.
    const uint32_t pad = base <= window_base ? window_base - base : ((window_base - base) & 1023u);
    uint8_t* win = smem + pad;
    const uint32_t win_addr = base + pad;
    const uint32_t mbar = win_addr + window_size;  // 8-byte aligned: window_size % 1024 == 0
    const uint4 f4 = make_uint4(fill, fill, fill, fill);
    for (uint32_t i = threadIdx.x; i < window_size / 16; i += blockDim.x) reinterpret_cast<uint4*>(win)[i] = f4;
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(mbar) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    const uint32_t dst_smem = dst - window_base + win_addr;
    if (threadIdx.x == 0) {
        info[0] = base;
        info[1] = win_addr;
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(mbar), "r"(tx_bytes)
                     : "memory");
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
            "[%4];\n" ::"r"(dst_smem),
            "l"(reinterpret_cast<uint64_t>(&tmap)), "r"(0), "r"(0), "r"(mbar)
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
    for (uint32_t i = threadIdx.x; i < window_size / 16; i += blockDim.x)
        reinterpret_cast<uint4*>(out)[i] = reinterpret_cast<const uint4*>(win)[i];
}

typedef CUresult (*EncodeTiled)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static EncodeTiled encode_fn() {
    static EncodeTiled fn = nullptr;
    if (!fn) {
        void* p = nullptr;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) ==
                cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = reinterpret_cast<EncodeTiled>(p);
    }
    return fn;
}

struct Outcome {
    bool ran = false;
    std::string error;
    int bad = 0, missing = 0, extra = 0, total = 0;
    std::vector<std::string> first;
    std::vector<uint32_t> hw;  // address each element landed at (0: not found)
    uint32_t window_addr = 0;
};

static bool cuda_ok(cudaError_t e, std::string* err, const char* what) {
    if (e == cudaSuccess) return true;
    *err = std::string(what) + ": " + cudaGetErrorString(e);
    return false;
}

static Outcome run_one(const CaseFile& cf, const Case& c) {
    Outcome o;
    EncodeTiled enc = encode_fn();
    if (!enc) {
        o.error = "cuTensorMapEncodeTiled not found";
        return o;
    }
    const uint32_t count = c.inner * c.outer;
    int id_bits = 0;
    while ((1u << id_bits) < count) id_bits++;
    const int bits_per_pass = 8 * (int)c.esize;
    const int passes = id_bits <= bits_per_pass ? 1 : (id_bits + bits_per_pass - 1) / bits_per_pass;
    const size_t gbytes = (size_t)count * c.esize;
    uint8_t *g = nullptr, *dout = nullptr;
    uint32_t* dinfo = nullptr;
    if (!cuda_ok(cudaMalloc(&g, gbytes), &o.error, "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&dout, cf.window_size), &o.error, "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&dinfo, 16), &o.error, "cudaMalloc"))
        return o;
    CUtensorMap map;
    const CUtensorMapDataType dt = c.esize == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                   : c.esize == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                                  : CU_TENSOR_MAP_DATA_TYPE_UINT32;
    const CUtensorMapSwizzle sw = c.swizzle == "32B"    ? CU_TENSOR_MAP_SWIZZLE_32B
                                  : c.swizzle == "64B"  ? CU_TENSOR_MAP_SWIZZLE_64B
                                  : c.swizzle == "128B" ? CU_TENSOR_MAP_SWIZZLE_128B
                                                        : CU_TENSOR_MAP_SWIZZLE_NONE;
    cuuint64_t gdim[2] = {c.inner, c.outer};
    cuuint64_t gstride[1] = {(cuuint64_t)c.inner * c.esize};
    cuuint32_t box[2] = {c.inner, c.outer};
    cuuint32_t estride[2] = {1, 1};
    CUresult r = enc(&map, dt, 2, g, gdim, gstride, box, estride, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                     CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        o.error = "cuTensorMapEncodeTiled returned " + std::to_string((int)r);
        return o;
    }
    const size_t smem_bytes = (size_t)cf.window_size + 1024 + cf.window_base + 64;
    static bool configured = false;
    if (!configured) {
        if (!cuda_ok(cudaFuncSetAttribute(tma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_bytes),
                     &o.error, "cudaFuncSetAttribute"))
            return o;
        configured = true;
    }
    // value[slot] assembled over passes; written[byte] when both fills agree.
    const uint32_t slots = cf.window_size / c.esize;
    std::vector<uint32_t> value(slots, 0);
    std::vector<bool> written(cf.window_size, true);
    std::vector<uint8_t> host(gbytes), win_a(cf.window_size), win_b(cf.window_size);
    for (int p = 0; p < passes; p++) {
        for (uint32_t id = 0; id < count; id++) {
            uint64_t v = passes == 1 ? id : ((uint64_t)id >> (p * bits_per_pass));
            for (uint32_t b = 0; b < c.esize; b++) host[(size_t)id * c.esize + b] = (uint8_t)(v >> (8 * b));
        }
        if (!cuda_ok(cudaMemcpy(g, host.data(), gbytes, cudaMemcpyHostToDevice), &o.error, "cudaMemcpy")) return o;
        for (int run = 0; run < 2; run++) {
            const uint32_t fill = run == 0 ? 0xEEEEEEEEu : 0x11111111u;
            tma_kernel<<<1, 128, smem_bytes>>>(map, cf.window_base, cf.window_size, c.dst, fill,
                                               count * c.esize, dout, dinfo);
            if (!cuda_ok(cudaGetLastError(), &o.error, "launch") ||
                !cuda_ok(cudaDeviceSynchronize(), &o.error, "kernel"))
                return o;
            std::vector<uint8_t>& w = run == 0 ? win_a : win_b;
            uint32_t info[4] = {};
            if (!cuda_ok(cudaMemcpy(w.data(), dout, cf.window_size, cudaMemcpyDeviceToHost), &o.error, "cudaMemcpy") ||
                !cuda_ok(cudaMemcpy(info, dinfo, 16, cudaMemcpyDeviceToHost), &o.error, "cudaMemcpy"))
                return o;
            o.window_addr = info[1];
        }
        for (uint32_t b = 0; b < cf.window_size; b++)
            if (win_a[b] != win_b[b]) written[b] = false;
        for (uint32_t s = 0; s < slots; s++) {
            uint64_t v = 0;
            for (uint32_t b = 0; b < c.esize; b++) v |= (uint64_t)win_a[s * c.esize + b] << (8 * b);
            value[s] |= (uint32_t)(passes == 1 ? v : (v << (p * bits_per_pass)));
        }
    }
    cudaFree(g);
    cudaFree(dout);
    cudaFree(dinfo);
    // Where each element landed.
    o.hw.assign(count, 0);
    std::vector<int> seen(count, 0);
    for (uint32_t s = 0; s < slots; s++) {
        bool all = true;
        for (uint32_t b = 0; b < c.esize; b++) all = all && written[s * c.esize + b];
        if (!all) continue;
        uint32_t id = value[s];
        if (id >= count || seen[id]++) {
            o.extra++;
            continue;
        }
        o.hw[id] = cf.window_base + s * c.esize;
    }
    o.total = (int)count;
    for (uint32_t id = 0; id < count; id++) {
        const uint32_t i = id % c.inner, ob = id / c.inner;
        if (o.hw[id] == 0) o.missing++;
        if (c.place.empty() || o.hw[id] != c.place[id]) {
            if (o.bad++ < 4) {
                char buf[128];
                snprintf(buf, sizeof buf, "(%u,%u):model=0x%x,hw=0x%x", i, ob, c.place.empty() ? 0u : c.place[id],
                         o.hw[id]);
                o.first.push_back(buf);
            }
        }
    }
    o.ran = true;
    return o;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s CASES [--from INDEX] [--map-out FILE]\n", argv[0]);
        return 2;
    }
    size_t from = 0;
    FILE* map_out = nullptr;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--from") && i + 1 < argc)
            from = strtoul(argv[++i], nullptr, 10);
        else if (!strcmp(argv[i], "--map-out") && i + 1 < argc) {
            map_out = fopen(argv[++i], "a");
            if (!map_out) return 2;
        } else {
            fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    CaseFile cf;
    if (!load_cases(argv[1], &cf)) return 2;
    if (from == 0) {
        cudaDeviceProp prop{};
        int drv = 0, rt = 0;
        cudaGetDeviceProperties(&prop, 0);
        cudaDriverGetVersion(&drv);
        cudaRuntimeGetVersion(&rt);
        std::string name = prop.name;
        for (char& ch : name)
            if (ch == ' ') ch = '_';
        printf("device %s cc %d.%d driver %d runtime %d\n", name.c_str(), prop.major, prop.minor, drv, rt);
        printf("window 0x%x 0x%x cases %zu cases_fnv1a64 0x%016llx\n", cf.window_base, cf.window_size,
               cf.cases.size(), (unsigned long long)file_fnv1a(argv[1]));
    }
    fflush(stdout);
    int maps = 0;
    for (size_t i = from; i < cf.cases.size(); i++) {
        const Case& c = cf.cases[i];
        Outcome o = run_one(cf, c);
        if (c.expect_fault) {
            // The copy must be refused: a "misaligned address" error of the kernel.
            const bool faulted = !o.ran && o.error.find("misaligned address") != std::string::npos;
            std::string err = o.error;
            for (char& ch : err)
                if (ch == ' ') ch = '_';
            printf("result %s index=%zu expect=fault outcome=%s error=%s verdict=%s\n", c.name.c_str(), i,
                   faulted ? "fault" : (o.ran ? "copied" : "other_error"), err.empty() ? "none" : err.c_str(),
                   faulted ? "ok" : "FAIL");
            fflush(stdout);
            if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) return 3;
            continue;
        }
        if (!o.ran) {
            printf("result %s index=%zu expect=match error=\"%s\" verdict=FAIL\n", c.name.c_str(), i, o.error.c_str());
            fflush(stdout);
            if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) return 3;
            continue;
        }
        const bool ok = o.bad == 0 && o.extra == 0;
        printf("result %s index=%zu expect=match placement=%s bad=%d/%d missing=%d extra=%d window=0x%x verdict=%s",
               c.name.c_str(), i, o.bad == 0 ? "match" : "mismatch", o.bad, o.total, o.missing, o.extra,
               o.window_addr, ok ? "ok" : "FAIL");
        for (const std::string& s : o.first) printf(" diff=%s", s.c_str());
        printf("\n");
        fflush(stdout);
        if (map_out && !ok && maps++ < 100) {
            fprintf(map_out, "tma_map %s %zu", c.name.c_str(), o.hw.size());
            for (uint32_t a : o.hw) fprintf(map_out, " %x", a);
            fprintf(map_out, "\n");
            fflush(map_out);
        }
    }
    printf("done\n");
    return 0;
}
