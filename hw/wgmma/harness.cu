// Hardware proof of the shared-memory layout model on Hopper tensor cores (issue 6, part 5).
//
// For every case of a case file written by `hw/gen` (the Rust generator, which asks the
// layout model of crates/tcgen05 where each element lives), this program
//   1. places the logical A (64 x K) and B (N x K) at the byte addresses the case gives,
//   2. runs one `wgmma.mma_async` (m64nNk16 f16/bf16, m64nNk8 tf32, m64nNk32 e4m3/s8) with the
//      descriptors the case gives (the tcgen05 descriptor translated to Hopper's form),
//   3. compares D with the CPU product of the logical A and B ("product"), and
//   4. reads back, for the operand under test, which shared-memory element the tensor core
//      actually fetched for every (mn, k) ("probe"): the window is filled with each element
//      slot's own index (a few digits per pass, exact in the element type) and the other operand
//      is a 0/1 selector, so D holds the fetched slot's digit. The fetched address is compared
//      with the address the model predicts for the descriptor given to wgmma.
// A case that expects a match must match in both; a case with a deliberately wrong descriptor
// (data placed for the right one) must give a wrong product, and its probe must equal what the
// model predicts for the wrong descriptor.
//
// Facts used (PTX ISA 9.1): wgmma syntax and operand forms, section 9.7.15.5; shared-memory
// matrix descriptor, 9.7.15.5.1.2.2 (layout type at bits 62-63, base offset 49-51); accumulator
// fragment of m64nN: warp w of the warpgroup holds rows 16w..16w+15; register r of lane l is
// row 16w + l/4 + 8*((r/2)%2), column 8*(r/4) + 2*(l%4) + r%2 (same fact as CuTe's CLayout_64xN);
// async-proxy fence before the tensor core reads shared memory written by ordinary stores.
//
// Build (device machine):  nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a
//                              -o harness harness.cu  (run.sh does this)
// Build (no GPU, host logic only; the "tensor core" reads through the model's read map):
//                          g++ -O2 -std=c++17 -DHW_CPU_EMULATION -x c++ -o harness harness.cu
// Run:                     ./harness CASES [--from INDEX] [--probe-out FILE]
//                          (--probe-out appends, for every case whose probe differs from the
//                          model, the fetched address of each element: "probe_map NAME COUNT hex...")
// Exit status: 0 all cases ran (verdicts are in the output), 2 usage or case-file error,
// 3 CUDA error at a case (its index is printed; run.sh resumes after it).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#ifndef HW_CPU_EMULATION
#include <cuda_runtime.h>
#endif

// ------------------------------------------------------------------------------------------------
// Element types
// ------------------------------------------------------------------------------------------------

enum class Elem { F16, BF16, TF32, E4M3, S8 };

struct ElemInfo {
    Elem elem;
    const char* name;
    int bytes;        // storage bytes per element
    int k;            // the instruction's K
    int probe_bits;   // bits of a slot index carried exactly per probe pass
    int exp_bits;     // float formats: exponent bits (0 for s8)
    int man_bits;     // float formats: explicit mantissa bits
    int bias;
};

static const ElemInfo kElems[] = {
    {Elem::F16, "f16", 2, 16, 11, 5, 10, 15},
    {Elem::BF16, "bf16", 2, 16, 8, 8, 7, 127},
    {Elem::TF32, "tf32", 4, 8, 11, 8, 23, 127},  // stored as f32 bits; values have <= 11 significant bits
    {Elem::E4M3, "e4m3", 1, 32, 4, 4, 3, 7},
    {Elem::S8, "s8", 1, 32, 7, 0, 0, 0},
};

static const ElemInfo* elem_by_name(const std::string& s) {
    for (const ElemInfo& e : kElems)
        if (s == e.name) return &e;
    return nullptr;
}

// Bits of the exactly representable integer v in the element's format; false if not exact.
static bool encode_int(const ElemInfo& t, int64_t v, uint32_t* out) {
    if (t.elem == Elem::S8) {
        if (v < -128 || v > 127) return false;
        *out = (uint32_t)(uint8_t)(int8_t)v;
        return true;
    }
    if (v == 0) {
        *out = 0;
        return true;
    }
    uint32_t sign = v < 0 ? 1u : 0u;
    uint64_t a = (uint64_t)(v < 0 ? -v : v);
    int e = 63 - __builtin_clzll(a);
    if (e > t.man_bits && (a & ((1ull << (e - t.man_bits)) - 1)) != 0) return false;
    int exp_field = e + t.bias;
    // f16, bf16 and f32 keep the all-ones exponent for infinities and NaNs; e4m3 uses it for
    // normal numbers except mantissa 7 (its only NaN code).
    const int max_exp = t.elem == Elem::E4M3 ? (1 << t.exp_bits) - 1 : (1 << t.exp_bits) - 2;
    if (exp_field <= 0 || exp_field > max_exp) return false;
    uint64_t mant = e <= t.man_bits ? (a << (t.man_bits - e)) : (a >> (e - t.man_bits));
    mant &= (1ull << t.man_bits) - 1;
    if (t.elem == Elem::E4M3 && exp_field == 15 && mant == 7) return false;  // the NaN code
    *out = (sign << (t.exp_bits + t.man_bits)) | ((uint32_t)exp_field << t.man_bits) | (uint32_t)mant;
    return true;
}

// The value of element bits (normal numbers and zero only, as encode_int writes).
static bool decode_int(const ElemInfo& t, uint32_t bits, int64_t* out) {
    if (t.elem == Elem::S8) {
        *out = (int8_t)(uint8_t)bits;
        return true;
    }
    uint32_t man = bits & ((1u << t.man_bits) - 1);
    uint32_t exp_field = (bits >> t.man_bits) & ((1u << t.exp_bits) - 1);
    uint32_t sign = (bits >> (t.man_bits + t.exp_bits)) & 1u;
    if (exp_field == 0) {
        if (man != 0) return false;
        *out = 0;
        return true;
    }
    int e = (int)exp_field - t.bias;
    if (e < 0) return false;
    uint64_t sig = (1ull << t.man_bits) | man;
    if (e < t.man_bits && (sig & ((1ull << (t.man_bits - e)) - 1)) != 0) return false;
    int64_t mag = e >= t.man_bits ? (int64_t)(sig << (e - t.man_bits)) : (int64_t)(sig >> (t.man_bits - e));
    *out = sign ? -mag : mag;
    return true;
}

// ------------------------------------------------------------------------------------------------
// Case file
// ------------------------------------------------------------------------------------------------

struct Operand {
    bool mn_major = false;
    uint64_t desc_tcgen05 = 0;
    uint64_t desc_wgmma = 0;
    std::vector<uint32_t> place;  // logical index mn*K + k -> byte address the data is written at
    std::vector<uint32_t> read;   // logical index -> byte address the model says wgmma reads
};

struct Case {
    std::string name;
    const ElemInfo* elem = nullptr;
    int n = 0;
    char under = 'a';
    bool expect_match = true;
    Operand a, b;
};

struct CaseFile {
    uint32_t window_base = 0;
    uint32_t window_size = 0;
    std::vector<Case> cases;
};

static bool fail_parse(int line, const std::string& why) {
    fprintf(stderr, "case file line %d: %s\n", line, why.c_str());
    return false;
}

static bool parse_u64(const std::string& s, uint64_t* v) {
    if (s.empty()) return false;
    char* end = nullptr;
    *v = strtoull(s.c_str(), &end, 0);
    return end && *end == '\0';
}

// Reads "<count> addr:len ..." (hex address, decimal length) and expands it into per-element
// addresses in the operand's file order: K-major rows (mn outer, k inner), MN-major columns
// (k outer, mn inner). Stores them by logical index mn*K + k.
static bool read_runs(std::istringstream& in, int line, int mn_extent, int k_extent, bool mn_major,
                      int esize, std::vector<uint32_t>* out) {
    std::string tok;
    uint64_t count = 0;
    if (!(in >> tok) || !parse_u64(tok, &count)) return fail_parse(line, "expected a run count");
    std::vector<uint32_t> seq;
    seq.reserve((size_t)mn_extent * k_extent);
    for (uint64_t i = 0; i < count; i++) {
        if (!(in >> tok)) return fail_parse(line, "missing run");
        size_t colon = tok.find(':');
        uint64_t addr = 0, len = 0;
        if (colon == std::string::npos || !parse_u64("0x" + tok.substr(0, colon), &addr) ||
            !parse_u64(tok.substr(colon + 1), &len) || len == 0)
            return fail_parse(line, "bad run '" + tok + "'");
        for (uint64_t j = 0; j < len; j++) seq.push_back((uint32_t)(addr + j * esize));
    }
    if (seq.size() != (size_t)mn_extent * k_extent)
        return fail_parse(line, "runs cover " + std::to_string(seq.size()) + " elements, expected " +
                                    std::to_string(mn_extent * k_extent));
    out->assign(seq.size(), 0);
    for (int i = 0; i < (int)seq.size(); i++) {
        int mn = mn_major ? i % mn_extent : i / k_extent;
        int k = mn_major ? i / mn_extent : i % k_extent;
        (*out)[mn * k_extent + k] = seq[i];
    }
    return true;
}

// FNV-1a (64-bit) of the case file's bytes: ties a results file to the case file it ran.
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
    Case* cur = nullptr;
    while (std::getline(f, raw)) {
        line++;
        if (raw.empty() || raw[0] == '#') continue;
        std::istringstream in(raw);
        std::string kw;
        in >> kw;
        if (kw == "format") {
            std::string name, version;
            in >> name >> version;
            if (name != "tcgen05-wgmma-cases" || version != "1") return fail_parse(line, "unknown format");
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
            if (cur) return fail_parse(line, "case inside a case");
            cf->cases.emplace_back();
            cur = &cf->cases.back();
            std::string type, n, under, expect;
            in >> cur->name >> type >> n >> under >> expect;
            cur->elem = elem_by_name(type);
            uint64_t nv = 0;
            if (!cur->elem) return fail_parse(line, "unknown type '" + type + "'");
            if (!parse_u64(n, &nv) || nv < 8 || nv > 256 || nv % 8) return fail_parse(line, "bad n");
            cur->n = (int)nv;
            if (under != "a" && under != "b") return fail_parse(line, "under must be a or b");
            cur->under = under[0];
            if (expect != "match" && expect != "mismatch") return fail_parse(line, "bad expect");
            cur->expect_match = expect == "match";
        } else if (kw == "op") {
            if (!cur) return fail_parse(line, "op outside a case");
            std::string which, major, dt, dw, place;
            in >> which >> major >> dt >> dw >> place;
            if (which != "a" && which != "b") return fail_parse(line, "op must be a or b");
            Operand& op = which == "a" ? cur->a : cur->b;
            if (major != "k" && major != "mn") return fail_parse(line, "major must be k or mn");
            op.mn_major = major == "mn";
            if (!parse_u64(dt, &op.desc_tcgen05) || !parse_u64(dw, &op.desc_wgmma))
                return fail_parse(line, "bad descriptor");
            if (place != "place") return fail_parse(line, "expected 'place'");
            int mn_extent = which == "a" ? 64 : cur->n;
            int k = cur->elem->k, es = cur->elem->bytes;
            if (!read_runs(in, line, mn_extent, k, op.mn_major, es, &op.place)) return false;
            std::string rd, mode;
            in >> rd;
            if (rd != "read") return fail_parse(line, "expected 'read'");
            std::streampos pos = in.tellg();
            in >> mode;
            if (mode == "same") {
                op.read = op.place;
            } else {
                in.clear();
                in.seekg(pos);
                if (!read_runs(in, line, mn_extent, k, op.mn_major, es, &op.read)) return false;
            }
        } else if (kw == "end") {
            if (!cur || cur->a.place.empty() || cur->b.place.empty()) return fail_parse(line, "incomplete case");
            cur = nullptr;
        } else {
            return fail_parse(line, "unknown keyword '" + kw + "'");
        }
    }
    if (cur) return fail_parse(line, "last case has no 'end'");
    return true;
}

// Hopper's descriptor for a tcgen05 one (oracles.md section 3): bits 46-48 (tcgen05's fixed
// 0b001) cleared; tcgen05's 3-bit swizzle code at 61-63 is twice Hopper's 2-bit code at 62-63, so
// bits 62-63 carry over unchanged once bit 61 (128B with 32B atomicity) is known to be 0; relative
// leading-dimension mode only (bit 52 = 0).
static bool translate(uint64_t t, uint64_t* w) {
    if (((t >> 46) & 7) != 1 || ((t >> 52) & 1) || ((t >> 53) & 0xff) || ((t >> 61) & 1)) return false;
    *w = t & ~(7ull << 46);
    return true;
}

// ------------------------------------------------------------------------------------------------
// Values
// ------------------------------------------------------------------------------------------------

struct Rng {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int range(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }
};

static uint64_t hash_name(const std::string& s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

// Distinct non-zero integers exact in the type, used for the operand under test. Sums of K
// products with the other operand (|v| <= 4) stay far below 2^24, so f32 accumulation is exact.
static std::vector<int> palette(const ElemInfo& t) {
    std::vector<int> p;
    int lim = 0;
    switch (t.elem) {
        case Elem::F16: lim = 512; break;
        case Elem::BF16: lim = 256; break;
        case Elem::TF32: lim = 1024; break;
        case Elem::S8: lim = 127; break;
        case Elem::E4M3: {
            for (int v = 1; v <= 32; v++) {
                uint32_t b;
                if (encode_int(t, v, &b)) {
                    p.push_back(v);
                    p.push_back(-v);
                }
            }
            return p;
        }
    }
    for (int v = 1; v <= lim; v++) {
        p.push_back(v);
        p.push_back(-v);
    }
    if (t.elem == Elem::S8) p.push_back(-128);
    return p;
}

// ------------------------------------------------------------------------------------------------
// The tensor-core run: device or CPU emulation
// ------------------------------------------------------------------------------------------------

struct RunOut {
    std::vector<int64_t> d;  // 64 x N, row-major, exact integers
    uint32_t smem_base = 0;  // shared address of the dynamic shared memory
    uint32_t window_addr = 0;  // shared address the window was placed at
    std::string error;
};

#ifdef HW_CPU_EMULATION

// Emulation: the "tensor core" reads each element at the model's read address (so this checks
// the harness, never the model).
static RunOut run_case(const CaseFile& cf, const Case& c, const std::vector<uint8_t>& img) {
    RunOut r;
    r.smem_base = cf.window_base;
    r.window_addr = cf.window_base;
    const ElemInfo& t = *c.elem;
    int K = t.k;
    auto load = [&](uint32_t addr, int64_t* v) {
        uint32_t off = addr - cf.window_base, bits = 0;
        if (addr < cf.window_base || off + t.bytes > cf.window_size) return false;
        for (int i = 0; i < t.bytes; i++) bits |= (uint32_t)img[off + i] << (8 * i);
        if (t.elem == Elem::TF32) bits &= ~0x1FFFu;  // tf32 reads the upper 19 bits
        return decode_int(t, bits, v);
    };
    r.d.assign((size_t)64 * c.n, 0);
    for (int m = 0; m < 64; m++)
        for (int n = 0; n < c.n; n++) {
            int64_t acc = 0;
            for (int k = 0; k < K; k++) {
                int64_t x = 0, y = 0;
                if (!load(c.a.read[m * K + k], &x) || !load(c.b.read[n * K + k], &y)) {
                    r.error = "emulated read outside the window or of a non-integer";
                    return r;
                }
                acc += x * y;
            }
            r.d[(size_t)m * c.n + n] = acc;
        }
    return r;
}

static std::string device_line() { return "device cpu-emulation"; }

#else

struct KParams {
    const uint8_t* img;
    uint32_t img_bytes;
    uint32_t window_base;
    uint64_t desc_a;
    uint64_t desc_b;
    void* out;
    uint32_t* info;  // [0] shared base, [1] window address, [2] relocation error
};

template <class Op>
__global__ void __launch_bounds__(128, 1) case_kernel(KParams p) {
    extern __shared__ __align__(1024) uint8_t smem[];
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
    // Put the window at exactly the address the case file assumes when the dynamic shared memory
    // starts at or below it; otherwise at the next address congruent to it modulo 1024 (every
    // swizzle pattern and the base offset repeat within 1024 bytes), and move the descriptors'
    // start addresses by the same amount.
    const uint32_t pad = base <= p.window_base ? p.window_base - base : ((p.window_base - base) & 1023u);
    uint8_t* win = smem + pad;
    const uint32_t win_addr = base + pad;
    const uint4* src = reinterpret_cast<const uint4*>(p.img);
    uint4* dst = reinterpret_cast<uint4*>(win);
    for (uint32_t i = threadIdx.x; i < p.img_bytes / 16; i += blockDim.x) dst[i] = src[i];
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();

    const int64_t shift = ((int64_t)win_addr - (int64_t)p.window_base) / 16;
    uint64_t da = p.desc_a, db = p.desc_b;
    bool reloc_ok = true;
    if (shift != 0) {
        int64_t sa = (int64_t)(da & 0x3FFF) + shift, sb = (int64_t)(db & 0x3FFF) + shift;
        reloc_ok = sa >= 0 && sa < 0x4000 && sb >= 0 && sb < 0x4000;
        da = (da & ~0x3FFFull) | (uint64_t)(sa & 0x3FFF);
        db = (db & ~0x3FFFull) | (uint64_t)(sb & 0x3FFF);
    }
    if (threadIdx.x == 0) {
        p.info[0] = base;
        p.info[1] = win_addr;
        p.info[2] = reloc_ok ? 0u : 1u;
    }
    if (!reloc_ok) return;

    typename Op::Acc d[Op::N / 2];
#pragma unroll
    for (int r = 0; r < Op::N / 2; r++) d[r] = 0;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    Op::mma(d, da, db);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");

    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    typename Op::Acc* out = reinterpret_cast<typename Op::Acc*>(p.out);
#pragma unroll
    for (int r = 0; r < Op::N / 2; r++) {
        const int row = 16 * warp + lane / 4 + 8 * ((r / 2) % 2);
        const int col = 8 * (r / 4) + 2 * (lane % 4) + (r % 2);
        out[row * Op::N + col] = d[r];
    }
}

#include "wgmma_ops.cuh"  // generated: one struct per (type, N, transpose A, transpose B) in use

struct OpEntry {
    const char* type;
    int n;
    int trans_a;
    int trans_b;
    bool integer;
    void (*kernel)(KParams);
};

#define HW_OP_ENTRY(NAME) {NAME::type, NAME::N, NAME::trans_a, NAME::trans_b, NAME::integer, case_kernel<NAME>},
static const OpEntry kOps[] = {HW_OPS(HW_OP_ENTRY)};

static const OpEntry* find_op(const Case& c) {
    for (const OpEntry& e : kOps)
        if (c.elem->name == std::string(e.type) && e.n == c.n && e.trans_a == (int)c.a.mn_major &&
            e.trans_b == (int)c.b.mn_major)
            return &e;
    return nullptr;
}

static bool cuda_ok(cudaError_t e, std::string* err, const char* what) {
    if (e == cudaSuccess) return true;
    *err = std::string(what) + ": " + cudaGetErrorString(e);
    return false;
}

static RunOut run_case(const CaseFile& cf, const Case& c, const std::vector<uint8_t>& img) {
    RunOut r;
    const OpEntry* op = find_op(c);
    if (!op) {
        r.error = "no wgmma op compiled for this type, N and majors";
        return r;
    }
    const size_t smem_bytes = (size_t)cf.window_size + 1024 + cf.window_base;
    static void (*configured[64])(KParams) = {};
    static int nconfigured = 0;
    bool seen = false;
    for (int i = 0; i < nconfigured; i++) seen |= configured[i] == op->kernel;
    if (!seen) {
        if (!cuda_ok(cudaFuncSetAttribute(op->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_bytes),
                     &r.error, "cudaFuncSetAttribute"))
            return r;
        if (nconfigured < 64) configured[nconfigured++] = op->kernel;
    }
    uint8_t* dimg = nullptr;
    void* dout = nullptr;
    uint32_t* dinfo = nullptr;
    const size_t out_bytes = (size_t)64 * c.n * 4;
    if (!cuda_ok(cudaMalloc(&dimg, img.size()), &r.error, "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&dout, out_bytes), &r.error, "cudaMalloc") ||
        !cuda_ok(cudaMalloc(&dinfo, 16), &r.error, "cudaMalloc") ||
        !cuda_ok(cudaMemcpy(dimg, img.data(), img.size(), cudaMemcpyHostToDevice), &r.error, "cudaMemcpy") ||
        !cuda_ok(cudaMemset(dout, 0xFF, out_bytes), &r.error, "cudaMemset") ||
        !cuda_ok(cudaMemset(dinfo, 0, 16), &r.error, "cudaMemset"))
        return r;
    KParams p{dimg, (uint32_t)img.size(), cf.window_base, c.a.desc_wgmma, c.b.desc_wgmma, dout, dinfo};
    op->kernel<<<1, 128, smem_bytes>>>(p);
    if (!cuda_ok(cudaGetLastError(), &r.error, "launch") || !cuda_ok(cudaDeviceSynchronize(), &r.error, "kernel"))
        return r;
    std::vector<uint32_t> raw((size_t)64 * c.n);
    uint32_t info[4] = {};
    if (!cuda_ok(cudaMemcpy(raw.data(), dout, out_bytes, cudaMemcpyDeviceToHost), &r.error, "cudaMemcpy") ||
        !cuda_ok(cudaMemcpy(info, dinfo, 16, cudaMemcpyDeviceToHost), &r.error, "cudaMemcpy"))
        return r;
    cudaFree(dimg);
    cudaFree(dout);
    cudaFree(dinfo);
    r.smem_base = info[0];
    r.window_addr = info[1];
    if (info[2]) {
        r.error = "descriptor relocation out of range";
        return r;
    }
    r.d.resize(raw.size());
    for (size_t i = 0; i < raw.size(); i++) {
        if (op->integer) {
            r.d[i] = (int32_t)raw[i];
        } else {
            float f;
            memcpy(&f, &raw[i], 4);
            double v = (double)f;
            // Not an integer (or not finite) cannot equal any expected value; mark it.
            r.d[i] = (v > -9e15 && v < 9e15 && v == (double)(int64_t)v) ? (int64_t)v : INT64_MIN;
        }
    }
    return r;
}

static std::string device_line() {
    cudaDeviceProp prop{};
    int dev = 0, drv = 0, rt = 0;
    cudaGetDevice(&dev);
    cudaGetDeviceProperties(&prop, dev);
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    std::string name = prop.name;
    for (char& ch : name)
        if (ch == ' ') ch = '_';
    char buf[256];
    snprintf(buf, sizeof buf, "device %s cc %d.%d driver %d runtime %d", name.c_str(), prop.major, prop.minor, drv, rt);
    return buf;
}

#endif

// ------------------------------------------------------------------------------------------------
// One case
// ------------------------------------------------------------------------------------------------

// Writes value bits at a byte address of the window image.
static bool put(const CaseFile& cf, const ElemInfo& t, std::vector<uint8_t>& img, uint32_t addr, uint32_t bits) {
    if (addr < cf.window_base || addr % t.bytes) return false;
    uint32_t off = addr - cf.window_base;
    if ((uint64_t)off + t.bytes > cf.window_size) return false;
    for (int i = 0; i < t.bytes; i++) img[off + i] = (uint8_t)(bits >> (8 * i));
    return true;
}

struct Outcome {
    bool ran = false;
    std::string error;
    int product_bad = 0, product_total = 0;
    std::string product_first;
    int probe_bad = 0, probe_total = 0;
    std::vector<std::string> probe_first;
    std::vector<uint32_t> probe_hw;  // logical index -> address the tensor core fetched (0 = unreadable)
    uint32_t smem_base = 0, window_addr = 0;
};

static Outcome run_one(const CaseFile& cf, const Case& c) {
    Outcome o;
    const ElemInfo& t = *c.elem;
    const int K = t.k, N = c.n;
    uint64_t wa = 0, wb = 0;
    if (!translate(c.a.desc_tcgen05, &wa) || wa != c.a.desc_wgmma || !translate(c.b.desc_tcgen05, &wb) ||
        wb != c.b.desc_wgmma) {
        o.error = "wgmma descriptor is not the translation of the tcgen05 descriptor";
        return o;
    }
    // Each byte written once: the model must not place two elements on one byte.
    std::vector<uint8_t> owner(cf.window_size, 0);
    auto claim = [&](const std::vector<uint32_t>& addrs, uint8_t who) {
        for (uint32_t a : addrs) {
            if (a < cf.window_base || a % t.bytes || (uint64_t)(a - cf.window_base) + t.bytes > cf.window_size)
                return false;
            for (int i = 0; i < t.bytes; i++) {
                if (owner[a - cf.window_base + i]) return false;
                owner[a - cf.window_base + i] = who;
            }
        }
        return true;
    };
    if (!claim(c.a.place, 1) || !claim(c.b.place, 2)) {
        o.error = "placed elements overlap or leave the window";
        return o;
    }

    // Logical values: the operand under test gets distinct values, the other small ones.
    Rng rng{hash_name(c.name)};
    std::vector<int> pal = palette(t);
    for (size_t i = pal.size(); i > 1; i--) std::swap(pal[i - 1], pal[rng.next() % i]);
    std::vector<int64_t> A((size_t)64 * K), B((size_t)N * K);
    std::vector<int64_t>& under = c.under == 'a' ? A : B;
    std::vector<int64_t>& other = c.under == 'a' ? B : A;
    for (size_t i = 0; i < under.size(); i++) under[i] = pal[i % pal.size()];
    for (size_t i = 0; i < other.size(); i++) {
        int v = rng.range(1, 4);
        other[i] = (rng.next() & 1) ? -v : v;
    }

    // Product.
    std::vector<uint8_t> img(cf.window_size, 0);
    for (int i = 0; i < 64 * K; i++) {
        uint32_t bits;
        if (!encode_int(t, A[i], &bits) || !put(cf, t, img, c.a.place[i], bits)) {
            o.error = "cannot place A";
            return o;
        }
    }
    for (int i = 0; i < N * K; i++) {
        uint32_t bits;
        if (!encode_int(t, B[i], &bits) || !put(cf, t, img, c.b.place[i], bits)) {
            o.error = "cannot place B";
            return o;
        }
    }
    RunOut r = run_case(cf, c, img);
    if (!r.error.empty()) {
        o.error = r.error;
        return o;
    }
    o.smem_base = r.smem_base;
    o.window_addr = r.window_addr;
    o.product_total = 64 * N;
    for (int m = 0; m < 64; m++)
        for (int n = 0; n < N; n++) {
            int64_t want = 0;
            for (int k = 0; k < K; k++) want += A[m * K + k] * B[n * K + k];
            int64_t got = r.d[(size_t)m * N + n];
            if (got != want) {
                if (o.product_bad++ == 0) {
                    char buf[160];
                    if (got == INT64_MIN)
                        snprintf(buf, sizeof buf, "D[%d][%d]=%lld,got_non_integer", m, n, (long long)want);
                    else
                        snprintf(buf, sizeof buf, "D[%d][%d]=%lld,got=%lld", m, n, (long long)want, (long long)got);
                    o.product_first = buf;
                }
            }
        }

    // Probe: which slot of the window feeds each (mn, k) of the operand under test.
    const Operand& ut = c.under == 'a' ? c.a : c.b;
    const Operand& sel = c.under == 'a' ? c.b : c.a;
    const int ut_mn = c.under == 'a' ? 64 : N;
    const int sel_mn = c.under == 'a' ? N : 64;
    if (sel_mn < K) {
        o.error = "probe needs the other operand's MN extent >= K";
        return o;
    }
    const uint32_t slots = cf.window_size / t.bytes;
    int slot_bits = 0;
    while ((1u << slot_bits) < slots) slot_bits++;
    const int passes = (slot_bits + t.probe_bits - 1) / t.probe_bits;
    std::vector<uint32_t> got_slot((size_t)ut_mn * K, 0);
    std::vector<bool> got_bad((size_t)ut_mn * K, false);
    for (int pass = 0; pass < passes; pass++) {
        std::vector<uint8_t> pimg(cf.window_size, 0);
        const uint32_t mask = (1u << t.probe_bits) - 1;
        for (uint32_t s = 0; s < slots; s++) {
            uint32_t bits;
            encode_int(t, (s >> (pass * t.probe_bits)) & mask, &bits);
            put(cf, t, pimg, cf.window_base + s * t.bytes, bits);
        }
        for (int mn = 0; mn < sel_mn; mn++)
            for (int k = 0; k < K; k++) {
                uint32_t bits;
                encode_int(t, mn == k ? 1 : 0, &bits);
                put(cf, t, pimg, sel.place[mn * K + k], bits);
            }
        Case pc = c;  // emulation reads the selector through its place map
        pc.a.read = c.under == 'a' ? c.a.read : c.a.place;
        pc.b.read = c.under == 'b' ? c.b.read : c.b.place;
        RunOut pr = run_case(cf, pc, pimg);
        if (!pr.error.empty()) {
            o.error = "probe: " + pr.error;
            return o;
        }
        for (int mn = 0; mn < ut_mn; mn++)
            for (int k = 0; k < K; k++) {
                // A under test: D[m][k] = A[m][k]; B under test: D[k][n] = B[n][k].
                int64_t v = c.under == 'a' ? pr.d[(size_t)mn * N + k] : pr.d[(size_t)k * N + mn];
                size_t i = (size_t)mn * K + k;
                if (v < 0 || v > (int64_t)mask)
                    got_bad[i] = true;
                else
                    got_slot[i] |= (uint32_t)v << (pass * t.probe_bits);
            }
    }
    o.probe_total = ut_mn * K;
    o.probe_hw.assign((size_t)ut_mn * K, 0);
    for (int mn = 0; mn < ut_mn; mn++)
        for (int k = 0; k < K; k++) {
            size_t i = (size_t)mn * K + k;
            uint32_t want = ut.read[i];
            uint32_t got = cf.window_base + got_slot[i] * t.bytes;
            o.probe_hw[i] = got_bad[i] ? 0 : got;
            if (got_bad[i] || got != want) {
                if (o.probe_bad++ < 4) {
                    char buf[160];
                    if (got_bad[i])
                        snprintf(buf, sizeof buf, "(%d,%d):model=0x%x,hw=unreadable", mn, k, want);
                    else
                        snprintf(buf, sizeof buf, "(%d,%d):model=0x%x,hw=0x%x", mn, k, want, got);
                    o.probe_first.push_back(buf);
                }
            }
        }
    o.ran = true;
    return o;
}

static bool self_check() {
    for (const ElemInfo& t : kElems) {
        std::vector<int> p = palette(t);
        for (int v : p) {
            uint32_t b;
            int64_t back;
            if (!encode_int(t, v, &b) || !decode_int(t, b, &back) || back != v) {
                fprintf(stderr, "self-check: %s value %d does not round-trip\n", t.name, v);
                return false;
            }
        }
        for (int v = 0; v < (1 << t.probe_bits); v++) {
            uint32_t b;
            int64_t back;
            if (!encode_int(t, v, &b) || !decode_int(t, b, &back) || back != v) {
                fprintf(stderr, "self-check: %s probe digit %d does not round-trip\n", t.name, v);
                return false;
            }
        }
    }
    // Known encodings: f16 1.0 = 0x3c00, bf16 -2.0 = 0xc000, f32 3.0 = 0x40400000, e4m3 1.0 = 0x38,
    // e4m3 -16 = 0xd8.
    uint32_t b;
    return encode_int(kElems[0], 1, &b) && b == 0x3c00 && encode_int(kElems[1], -2, &b) && b == 0xc000 &&
           encode_int(kElems[2], 3, &b) && b == 0x40400000 && encode_int(kElems[3], 1, &b) && b == 0x38 &&
           encode_int(kElems[3], -16, &b) && b == 0xd8;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s CASES [--from INDEX]\n", argv[0]);
        return 2;
    }
    size_t from = 0;
    FILE* probe_out = nullptr;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--from") && i + 1 < argc)
            from = strtoul(argv[++i], nullptr, 10);
        else if (!strcmp(argv[i], "--probe-out") && i + 1 < argc) {
            probe_out = fopen(argv[++i], "a");
            if (!probe_out) {
                fprintf(stderr, "cannot open %s\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (!self_check()) return 2;
    CaseFile cf;
    if (!load_cases(argv[1], &cf)) return 2;
    if (from == 0) {
        printf("%s\n", device_line().c_str());
        printf("window 0x%x 0x%x cases %zu cases_fnv1a64 0x%016llx\n", cf.window_base, cf.window_size,
               cf.cases.size(), (unsigned long long)file_fnv1a(argv[1]));
    }
    fflush(stdout);
    int maps_written = 0;  // at most 150 probe maps, so the file stays small
    for (size_t i = from; i < cf.cases.size(); i++) {
        const Case& c = cf.cases[i];
        Outcome o = run_one(cf, c);
        if (!o.ran) {
            printf("result %s index=%zu expect=%s error=\"%s\" verdict=FAIL\n", c.name.c_str(), i,
                   c.expect_match ? "match" : "mismatch", o.error.c_str());
            fflush(stdout);
#ifndef HW_CPU_EMULATION
            if (cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) return 3;
#endif
            continue;
        }
        const bool product_match = o.product_bad == 0;
        const bool probe_match = o.probe_bad == 0;
        const bool ok = (c.expect_match ? product_match : !product_match) && probe_match;
        printf("result %s index=%zu expect=%s product=%s product_bad=%d/%d probe=%s probe_bad=%d/%d "
               "window=0x%x verdict=%s",
               c.name.c_str(), i, c.expect_match ? "match" : "mismatch", product_match ? "match" : "mismatch",
               o.product_bad, o.product_total, probe_match ? "match" : "mismatch", o.probe_bad, o.probe_total,
               o.window_addr, ok ? "ok" : "FAIL");
        if (!o.product_first.empty()) printf(" first=%s", o.product_first.c_str());
        for (const std::string& s : o.probe_first) printf(" probe_diff=%s", s.c_str());
        printf("\n");
        fflush(stdout);
        if (probe_out && !probe_match && maps_written++ < 150) {
            // Every fetched address of the operand under test, by logical index mn*K + k.
            fprintf(probe_out, "probe_map %s %zu", c.name.c_str(), o.probe_hw.size());
            for (uint32_t a : o.probe_hw) fprintf(probe_out, " %x", a);
            fprintf(probe_out, "\n");
            fflush(probe_out);
        }
    }
    printf("done\n");
    return 0;
}
