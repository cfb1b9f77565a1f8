// gen_common.hpp: what the parts of the CUTLASS vector generator share (gen_vectors.cpp has main;
// gen_smem.cpp, gen_idesc.cpp and gen_misc.cpp print the records). Together they print tcgen05
// descriptor vectors computed by NVIDIA's CUTLASS/CuTe headers, one JSON object per line
// (conformance/vectors/cutlass-4.2.0.jsonl).
//
// Host-only program (C++17, g++, no CUDA compiler, no GPU). Every "hex" printed here is produced by
// CUTLASS's own code:
//   smem         UMMA::make_umma_desc<Major> on every MMA K-block of a CuTe smem tile built with
//                tile_to_shape(<CUTLASS smem layout atom>, MNxK, order) at a fake smem address
//   smem_advance UMMA::DescriptorIterator reached through a TiledMMA's A/B fragment (tCrA(0,0,k))
//   idesc        UMMA::make_instr_desc (tf32 f16 f8f6f4 i8) and UMMA::make_instr_desc_block_scaled +
//                make_runtime_instr_desc_block_scaled (mxf8f6f4 mxf4 mxf4nvf4)
//   zmask        the raw bits of a UMMA::MaskAndShiftB whose fields were set here, plus masks from
//                UMMA::make_column_zero_mask
// The configurations are systematic sweeps plus a seeded random sample (fixed seeds: the output is
// the same on every run). The record format is described in conformance/cutlass/README.md.
// Diagnostics go to stderr; the exit status is non-zero if a self-check or a reference value fails.
//
// Build: see conformance/cutlass/run.sh.

#pragma once

#include <cstddef>
#include <cstdint>

// On the host CuTe turns a smem pointer into address 0. With this shim (and the macro) the value of a
// fake pointer is taken as the shared-memory byte address, which is what the descriptors encode.
static inline size_t __cvta_generic_to_shared(const void* p) { return reinterpret_cast<size_t>(p); }
#define CUTE_CVTA_GENERIC_TO_SHARED_ACTIVATED 1

#include <cutlass/version.h>
#include <cute/tensor.hpp>
#include <cute/arch/mma_sm100_desc.hpp>
#include <cute/arch/mma_sm100_umma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>

#include <array>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace cute;
using UMMA::Major;

namespace gen {

// ------------------------------------------------------------------------------------------------
// Output: JSON records, counters, self checks
// ------------------------------------------------------------------------------------------------

inline std::vector<std::string> g_lines;   // every record, in output order
inline std::map<std::string, int> g_counts;
inline int g_failures = 0;

inline void fail(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fputs("gen_vectors: FAIL: ", stderr);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
  ++g_failures;
}

// One JSON object, keys in insertion order.
class Rec {
 public:
  explicit Rec(const char* desc) { str("desc", desc); }
  Rec& str(const char* k, const char* v) {
    key(k);
    if (v == nullptr) {
      s_ += "null";
    } else {
      s_ += '"';
      s_ += v;
      s_ += '"';
    }
    return *this;
  }
  Rec& num(const char* k, long long v) {
    key(k);
    s_ += std::to_string(v);
    return *this;
  }
  Rec& boolean(const char* k, bool v) {
    key(k);
    s_ += v ? "true" : "false";
    return *this;
  }
  Rec& list(const char* k, std::initializer_list<long long> vs) {
    key(k);
    s_ += '[';
    bool first = true;
    for (long long v : vs) {
      if (!first) s_ += ',';
      s_ += std::to_string(v);
      first = false;
    }
    s_ += ']';
    return *this;
  }
  // A value already written as JSON (a nested list).
  Rec& raw(const char* k, const std::string& json) {
    key(k);
    s_ += json;
    return *this;
  }
  Rec& hex(const char* k, unsigned long long v, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%0*llx", digits, v);
    return str(k, buf);
  }
  const std::string& text() const { return s_; }
  void emit(const char* counter) {
    s_ += '}';
    std::fputs(s_.c_str(), stdout);
    std::fputc('\n', stdout);
    g_lines.push_back(s_);
    ++g_counts[counter];
  }

 private:
  void key(const char* k) {
    s_ += s_.empty() ? "{" : ",";
    s_ += '"';
    s_ += k;
    s_ += "\":";
  }
  std::string s_;
};

// splitmix64: a fixed-seed generator, so the records are the same on every run and platform.
struct Rng {
  uint64_t s;
  constexpr explicit Rng(uint64_t seed) : s(seed) {}
  constexpr uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (n > 0; the modulo bias is irrelevant here).
  constexpr uint32_t below(uint32_t n) { return uint32_t(next() % n); }
};

constexpr Major KM = Major::K;
constexpr Major MN = Major::MN;

template <class... Ts> struct TypeList {};
template <size_t I, class TL> struct TypeAt;
template <size_t I, class T, class... Ts> struct TypeAt<I, TypeList<T, Ts...>> : TypeAt<I - 1, TypeList<Ts...>> {};
template <class T, class... Ts> struct TypeAt<0, TypeList<T, Ts...>> { using type = T; };
template <class TL> struct Len;
template <class... Ts> struct Len<TypeList<Ts...>> { static constexpr size_t value = sizeof...(Ts); };

// ------------------------------------------------------------------------------------------------
// Element types: the name our CLI uses, and the MMA kind whose smem storage rule applies (for the
// 4- and 6-bit types, which CUTLASS stores either one per byte or packed).
// ------------------------------------------------------------------------------------------------

template <class T> struct Ty;
template <> struct Ty<half_t>        { static constexpr const char* name = "f16";  static constexpr const char* kind = nullptr; };
template <> struct Ty<bfloat16_t>    { static constexpr const char* name = "bf16"; static constexpr const char* kind = nullptr; };
template <> struct Ty<tfloat32_t>    { static constexpr const char* name = "tf32"; static constexpr const char* kind = nullptr; };
template <> struct Ty<float>         { static constexpr const char* name = "f32";  static constexpr const char* kind = nullptr; };
template <> struct Ty<int32_t>       { static constexpr const char* name = "s32";  static constexpr const char* kind = nullptr; };
template <> struct Ty<int8_t>        { static constexpr const char* name = "s8";   static constexpr const char* kind = nullptr; };
template <> struct Ty<uint8_t>       { static constexpr const char* name = "u8";   static constexpr const char* kind = nullptr; };
template <> struct Ty<float_e4m3_t>  { static constexpr const char* name = "e4m3"; static constexpr const char* kind = nullptr; };
template <> struct Ty<float_e5m2_t>  { static constexpr const char* name = "e5m2"; static constexpr const char* kind = nullptr; };
// kind::f8f6f4 / kind::mxf8f6f4 keep 6- and 4-bit operands one per byte in smem: CUTLASS's
// "unpacksmem" types (sizeof_bits 8), MXF8F6F4Format codes E2M3 = 3, E3M2 = 4, E2M1 = 5.
template <> struct Ty<detail::float_e2m3_unpacksmem_t> { static constexpr const char* name = "e2m3"; static constexpr const char* kind = "f8f6f4"; };
template <> struct Ty<detail::float_e3m2_unpacksmem_t> { static constexpr const char* name = "e3m2"; static constexpr const char* kind = "f8f6f4"; };
template <> struct Ty<detail::float_e2m1_unpacksmem_t> { static constexpr const char* name = "e2m1"; static constexpr const char* kind = "f8f6f4"; };
// kind::mxf4 / kind::mxf4nvf4 keep E2M1 packed two per byte: float_e2m1_t (sizeof_bits 4),
// MXF4Format::E2M1 = 1.
template <> struct Ty<float_e2m1_t>  { static constexpr const char* name = "e2m1"; static constexpr const char* kind = "mxf4"; };
template <> struct Ty<float_ue8m0_t> { static constexpr const char* name = "ue8m0"; static constexpr const char* kind = nullptr; };
template <> struct Ty<float_ue4m3_t> { static constexpr const char* name = "ue4m3"; static constexpr const char* kind = nullptr; };

// The parts, in output order.
void gen_smem();
void gen_smem_advance();
void gen_idesc();
void gen_misc();

}  // namespace gen
