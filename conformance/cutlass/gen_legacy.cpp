// gen_vectors.cpp: print tcgen05 descriptor test vectors computed by NVIDIA's CUTLASS/CuTe headers.
//
// Host-only program (C++17, g++, no CUDA compiler, no GPU). Every value printed here is produced by
// CUTLASS's own code paths:
//   idesc        UMMA::make_instr_desc / UMMA::make_runtime_instr_desc (kinds tf32 f16 f8f6f4 i8)
//                UMMA::make_instr_desc_block_scaled / make_runtime_instr_desc_block_scaled
//                (kinds mxf8f6f4 mxf4 mxf4nvf4; SF ids ride in bits 31:30 of the TMEM SF addresses)
//   smem         UMMA::make_umma_desc<Major> over CuTe smem tensors built from CUTLASS's layout atoms
//   smem_advance UMMA::DescriptorIterator reached through a TiledMMA's A/B fragment (tCrA(0,0,k))
//   zmask        the raw bits of a UMMA::MaskAndShiftB whose fields were set here, plus some masks
//                from UMMA::make_column_zero_mask
// Output goes to stdout in the line format described in conformance/cutlass/README.md. Diagnostics go
// to stderr; the exit status is non-zero if a consistency check or a reference example fails.
//
// Build: see conformance/cutlass/run.sh.

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

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

using namespace cute;
using UMMA::Major;

namespace {

// ------------------------------------------------------------------------------------------------
// Output collection and self checks
// ------------------------------------------------------------------------------------------------

std::vector<std::string> g_lines;   // every vector line, in output order
int g_failures = 0;

void out(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  std::fputs(buf, stdout);
  std::fputc('\n', stdout);
  if (buf[0] != '#' && buf[0] != '\0') g_lines.emplace_back(buf);
}

void fail(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fputs("gen_vectors: FAIL: ", stderr);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
  ++g_failures;
}

int count_prefix(const char* prefix) {
  const std::string p(prefix);
  int n = 0;
  for (const auto& l : g_lines) n += l.compare(0, p.size(), p) == 0;
  return n;
}

// ------------------------------------------------------------------------------------------------
// Names used in the vector lines
// ------------------------------------------------------------------------------------------------

template <class T> constexpr const char* type_name();
template <> constexpr const char* type_name<half_t>()                          { return "f16"; }
template <> constexpr const char* type_name<bfloat16_t>()                      { return "bf16"; }
template <> constexpr const char* type_name<tfloat32_t>()                      { return "tf32"; }
template <> constexpr const char* type_name<float>()                           { return "f32"; }
template <> constexpr const char* type_name<int32_t>()                         { return "s32"; }
template <> constexpr const char* type_name<int8_t>()                          { return "s8"; }
template <> constexpr const char* type_name<uint8_t>()                         { return "u8"; }
template <> constexpr const char* type_name<float_e4m3_t>()                    { return "e4m3"; }
template <> constexpr const char* type_name<float_e5m2_t>()                    { return "e5m2"; }
// kind::f8f6f4 / kind::mxf8f6f4 take 6- and 4-bit operands in CUTLASS's "unpacksmem" types (one
// element per byte in smem); CUTLASS maps them to MXF8F6F4Format (E2M3=3, E3M2=4, E2M1=5).
template <> constexpr const char* type_name<detail::float_e2m3_unpacksmem_t>() { return "e2m3"; }
template <> constexpr const char* type_name<detail::float_e3m2_unpacksmem_t>() { return "e3m2"; }
template <> constexpr const char* type_name<detail::float_e2m1_unpacksmem_t>() { return "e2m1"; }
// kind::mxf4 / kind::mxf4nvf4 take packed float_e2m1_t, which CUTLASS maps to MXF4Format::E2M1 = 1.
template <> constexpr const char* type_name<float_e2m1_t>()                    { return "e2m1"; }
template <> constexpr const char* type_name<float_ue8m0_t>()                   { return "ue8m0"; }
template <> constexpr const char* type_name<float_ue4m3_t>()                   { return "ue4m3"; }

constexpr int max_shift_rows(UMMA::MaxShift s) {
  return s == UMMA::MaxShift::NoShift ? 0 : s == UMMA::MaxShift::MaxShift8 ? 8
       : s == UMMA::MaxShift::MaxShift16 ? 16 : 32;
}

template <class... Ts> struct TypeList {};
template <int... Is> using Ints = std::integer_sequence<int, Is...>;

constexpr Major KM = Major::K;
constexpr Major MN = Major::MN;
constexpr UMMA::ScaleIn POS = UMMA::ScaleIn::One;
constexpr UMMA::ScaleIn NEG = UMMA::ScaleIn::Neg;

// ------------------------------------------------------------------------------------------------
// Instruction descriptors, dense kinds (tf32, f16, f8f6f4, i8): Table 42
// ------------------------------------------------------------------------------------------------

template <class A, class B, class D, int M, int N,
          Major AM = KM, Major BM = KM,
          UMMA::ScaleIn AN = POS, UMMA::ScaleIn BN = POS,
          UMMA::Saturate SAT = UMMA::Saturate::False,
          bool SPARSE = false,
          UMMA::MaxShift SHIFT = UMMA::MaxShift::NoShift>
void idesc(const char* kind) {
  constexpr UMMA::InstrDescriptor d =
      UMMA::make_instr_desc<A, B, D, M, N, AM, BM, AN, BN, SAT, SPARSE, SHIFT>();
  const uint32_t v = static_cast<uint32_t>(d);
  // The runtime form is what CUTLASS hands to the MMA: idesc in the upper 32 bits.
  const uint64_t rt = UMMA::make_runtime_instr_desc<A, B, D, M, N, AM, BM, AN, BN, SAT, SPARSE, SHIFT>();
  if (uint32_t(rt >> 32) != v || uint32_t(rt) != 0)
    fail("idesc runtime form 0x%016llx does not carry 0x%08x in its upper half", (unsigned long long)rt, v);
  out("idesc kind=%s m=%d n=%d d_type=%s a_type=%s b_type=%s transpose_a=%d transpose_b=%d "
      "negate_a=%d negate_b=%d saturate=%d sparse=%d max_shift=%d -> 0x%08x",
      kind, M, N, type_name<D>(), type_name<A>(), type_name<B>(), int(AM), int(BM), int(AN), int(BN),
      int(SAT), int(SPARSE), max_shift_rows(SHIFT), v);
}

// Sweep N for one configuration.
template <class A, class B, class D, int M, int... Ns>
void idesc_n(const char* kind, Ints<Ns...>) { (idesc<A, B, D, M, Ns>(kind), ...); }

// All four transpose combinations at one shape.
template <class A, class B, class D, int M, int N>
void idesc_transposes(const char* kind) {
  idesc<A, B, D, M, N, MN, KM>(kind);
  idesc<A, B, D, M, N, KM, MN>(kind);
  idesc<A, B, D, M, N, MN, MN>(kind);
}

// All negate combinations at one shape (and one with A transposed, where A may be MN-major:
// not for 6- and 4-bit types, R11).
template <class A, class B, class D, int M, int N>
void idesc_negates(const char* kind) {
  idesc<A, B, D, M, N, KM, KM, NEG, POS>(kind);
  idesc<A, B, D, M, N, KM, KM, POS, NEG>(kind);
  idesc<A, B, D, M, N, KM, KM, NEG, NEG>(kind);
  if constexpr (sizeof_bits_v<A> >= 8) idesc<A, B, D, M, N, MN, KM, NEG, NEG>(kind);
}

// The four max-shift values (".ws" B-matrix reuse) at one shape.
template <class A, class B, class D, int M, int N>
void idesc_shifts(const char* kind) {
  using S = UMMA::Saturate;
  idesc<A, B, D, M, N, KM, KM, POS, POS, S::False, false, UMMA::MaxShift::MaxShift8>(kind);
  idesc<A, B, D, M, N, KM, KM, POS, POS, S::False, false, UMMA::MaxShift::MaxShift16>(kind);
  idesc<A, B, D, M, N, KM, KM, POS, POS, S::False, false, UMMA::MaxShift::MaxShift32>(kind);
}

template <class A, class B, class D, int M, int N, Major AM = KM, Major BM = KM>
void idesc_sparse(const char* kind) {
  idesc<A, B, D, M, N, AM, BM, POS, POS, UMMA::Saturate::False, true>(kind);
}

// Every (A, B) pair of two type lists, one shape.
template <class D, int M, int N, class A, class... Bs>
void idesc_row(const char* kind, TypeList<Bs...>) { (idesc<A, Bs, D, M, N>(kind), ...); }
template <class D, int M, int N, class... As, class BL>
void idesc_pairs(const char* kind, TypeList<As...>, BL bl) { (idesc_row<D, M, N, As>(kind, bl), ...); }

using F8F6F4Types = TypeList<float_e4m3_t, float_e5m2_t, detail::float_e2m3_unpacksmem_t,
                             detail::float_e3m2_unpacksmem_t, detail::float_e2m1_unpacksmem_t>;
using I8Types = TypeList<int8_t, uint8_t>;

void gen_idesc_dense() {
  out("# ---------------------------------------------------------------------------------------");
  out("# idesc, kind::tf32 (Table 42) -- UMMA::make_instr_desc");
  out("# ---------------------------------------------------------------------------------------");
  {
    const char* k = "tf32";
    using T = tfloat32_t;
    idesc_n<T, T, float, 128>(k, Ints<8, 16, 24, 32, 48, 64, 96, 128, 192, 248, 256>{});
    idesc_n<T, T, float, 64>(k, Ints<8, 16, 64, 128, 256>{});
    idesc_n<T, T, float, 256>(k, Ints<16, 32, 64, 128, 256>{});
    idesc_transposes<T, T, float, 128, 128>(k);
    idesc_transposes<T, T, float, 256, 64>(k);
    idesc_negates<T, T, float, 128, 64>(k);
    idesc_sparse<T, T, float, 128, 128>(k);
    idesc_sparse<T, T, float, 64, 256, MN, MN>(k);
    idesc_sparse<T, T, float, 256, 256>(k);
    idesc_shifts<T, T, float, 64, 128>(k);
    idesc_n<T, T, float, 32>(k, Ints<64, 128, 256>{});
  }

  out("# ---------------------------------------------------------------------------------------");
  out("# idesc, kind::f16 (Table 42) -- UMMA::make_instr_desc");
  out("# ---------------------------------------------------------------------------------------");
  {
    const char* k = "f16";
    using H = half_t;
    using BF = bfloat16_t;
    // N sweep, every multiple of 8, bf16 -> f32, M = 128.
    idesc_n<BF, BF, float, 128>(k, Ints<8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128,
                                        136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232,
                                        240, 248, 256>{});
    idesc_n<BF, BF, float, 64>(k, Ints<8, 16, 24, 64, 128, 256>{});
    idesc_n<BF, BF, float, 256>(k, Ints<16, 32, 128, 240, 256>{});
    idesc_n<H, H, H, 64>(k, Ints<8, 16, 32, 128, 256>{});
    idesc_n<H, H, H, 128>(k, Ints<8, 64, 256>{});
    idesc_n<H, H, H, 256>(k, Ints<16, 128, 256>{});
    idesc_n<H, H, float, 64>(k, Ints<8, 96, 256>{});
    idesc_n<H, H, float, 128>(k, Ints<8, 64, 128, 256>{});
    idesc_n<H, H, float, 256>(k, Ints<32, 256>{});
    idesc_transposes<BF, BF, float, 128, 64>(k);
    idesc_transposes<H, H, H, 64, 128>(k);
    idesc_transposes<H, H, float, 256, 256>(k);
    idesc_negates<BF, BF, float, 128, 256>(k);
    idesc_negates<H, H, H, 128, 128>(k);
    idesc_sparse<BF, BF, float, 128, 64>(k);
    idesc_sparse<H, H, H, 64, 128, MN, KM>(k);
    idesc_sparse<H, H, float, 256, 256, KM, MN>(k);
    // .ws-style shapes: M = 32 / 64 / 128, N = 64 / 128 / 256, with and without a max shift.
    idesc_n<BF, BF, float, 32>(k, Ints<64, 128, 256>{});
    idesc_n<H, H, H, 32>(k, Ints<64, 128, 256>{});
    idesc_shifts<BF, BF, float, 32, 64>(k);
    idesc_shifts<BF, BF, float, 64, 128>(k);
    idesc_shifts<H, H, H, 128, 256>(k);
    idesc_shifts<H, H, float, 32, 256>(k);
  }

  out("# ---------------------------------------------------------------------------------------");
  out("# idesc, kind::f8f6f4 (Table 42) -- UMMA::make_instr_desc; E2M1 is MXF8F6F4Format code 5 here");
  out("# ---------------------------------------------------------------------------------------");
  {
    const char* k = "f8f6f4";
    using E4 = float_e4m3_t;
    using E5 = float_e5m2_t;
    using E2M3 = detail::float_e2m3_unpacksmem_t;
    using E3M2 = detail::float_e3m2_unpacksmem_t;
    using E2M1 = detail::float_e2m1_unpacksmem_t;
    idesc_pairs<float, 128, 128>(k, F8F6F4Types{}, F8F6F4Types{});
    idesc_pairs<half_t, 128, 64>(k, F8F6F4Types{}, F8F6F4Types{});
    idesc_n<E4, E4, float, 64>(k, Ints<8, 16, 40, 128, 256>{});
    idesc_n<E4, E4, float, 128>(k, Ints<8, 24, 32, 256>{});
    idesc_n<E5, E4, half_t, 256>(k, Ints<16, 64, 256>{});
    idesc_n<E2M1, E2M1, float, 128>(k, Ints<8, 256>{});
    idesc_transposes<E4, E4, float, 128, 128>(k);
    idesc_transposes<E5, E5, half_t, 64, 64>(k);
    idesc_transposes<E4, E5, float, 256, 256>(k);
    idesc_negates<E4, E4, float, 128, 128>(k);
    idesc_negates<E2M3, E3M2, half_t, 128, 64>(k);
    idesc_sparse<E4, E4, float, 128, 128>(k);
    idesc_sparse<E5, E4, half_t, 64, 256, MN, MN>(k);
    idesc_sparse<E2M1, E2M3, float, 256, 128>(k);
    idesc_shifts<E4, E5, float, 128, 128>(k);
    idesc_n<E4, E4, float, 32>(k, Ints<64, 256>{});
  }

  out("# ---------------------------------------------------------------------------------------");
  out("# idesc, kind::i8 (Table 42) -- UMMA::make_instr_desc");
  out("# (N = 24 is legal PTX; CUTLASS's SM100_MMA_S8_SS rejects it but make_instr_desc encodes it.)");
  out("# ---------------------------------------------------------------------------------------");
  {
    const char* k = "i8";
    using S8 = int8_t;
    using U8 = uint8_t;
    using SAT = UMMA::Saturate;
    idesc_pairs<int32_t, 128, 256>(k, I8Types{}, I8Types{});
    idesc_pairs<int32_t, 64, 64>(k, I8Types{}, I8Types{});
    idesc_n<S8, S8, int32_t, 128>(k, Ints<8, 16, 24, 32, 48, 64, 80, 128, 144, 240, 256>{});
    idesc_n<U8, S8, int32_t, 64>(k, Ints<8, 16, 24, 32, 256>{});
    idesc_n<S8, U8, int32_t, 256>(k, Ints<32, 64, 96, 256>{});
    // Saturate.
    idesc<S8, S8, int32_t, 128, 256, KM, KM, POS, POS, SAT::True>(k);
    idesc<U8, U8, int32_t, 128, 128, KM, KM, POS, POS, SAT::True>(k);
    idesc<S8, U8, int32_t, 64, 64, KM, KM, POS, POS, SAT::True>(k);
    idesc<U8, S8, int32_t, 256, 256, MN, MN, POS, POS, SAT::True>(k);
    idesc<S8, S8, int32_t, 128, 16, KM, MN, POS, POS, SAT::True, true>(k);
    idesc_transposes<S8, S8, int32_t, 128, 128>(k);
    idesc_transposes<U8, S8, int32_t, 64, 32>(k);
    idesc_sparse<S8, S8, int32_t, 128, 128>(k);
    idesc_sparse<U8, U8, int32_t, 256, 256, MN, KM>(k);
    idesc<S8, S8, int32_t, 128, 128, KM, KM, POS, POS, SAT::False, false, UMMA::MaxShift::MaxShift8>(k);
    idesc<S8, S8, int32_t, 64, 256, KM, KM, POS, POS, SAT::True, false, UMMA::MaxShift::MaxShift32>(k);
    idesc<U8, U8, int32_t, 32, 64, KM, KM, POS, POS, SAT::False, false, UMMA::MaxShift::MaxShift16>(k);
  }
}

// ------------------------------------------------------------------------------------------------
// Instruction descriptors, block-scaled kinds (mxf8f6f4, mxf4, mxf4nvf4): Tables 43 and 44
// ------------------------------------------------------------------------------------------------

// CUTLASS writes M >> 4 at bit 24; PTX writes M >> 7 at bit 27. Equal bits for M = 128 / 256 only,
// so only those are emitted.
template <class A, class B, class SF, int M, int N,
          Major AM = KM, Major BM = KM,
          UMMA::ScaleIn AN = POS, UMMA::ScaleIn BN = POS, bool SPARSE = false>
void idesc_bs(const char* kind, int sfa_id, int sfb_id) {
  static_assert(M == 128 || M == 256, "block-scaled M other than 128/256 differs between CUTLASS and PTX");
  constexpr UMMA::InstrDescriptorBlockScaled d =
      UMMA::make_instr_desc_block_scaled<A, B, float, SF, M, N, AM, BM, AN, BN, SPARSE>();
  // CUTLASS takes the SF ids from bits 31:30 of the TMEM addresses of the scale factors.
  const uint64_t rt = UMMA::make_runtime_instr_desc_block_scaled<SPARSE>(
      d, uint32_t(sfa_id) << 30, uint32_t(sfb_id) << 30);
  const uint32_t v = uint32_t(rt >> 32);
  if (uint32_t(rt) != 0) fail("block-scaled runtime idesc has a non-zero lower half");
  if (sfa_id == 0 && sfb_id == 0 && v != uint32_t(d))
    fail("block-scaled runtime idesc 0x%08x != make_instr_desc_block_scaled 0x%08x", v, uint32_t(d));
  out("idesc kind=%s m=%d n=%d d_type=f32 a_type=%s b_type=%s transpose_a=%d transpose_b=%d "
      "negate_a=%d negate_b=%d saturate=0 sparse=%d max_shift=0 scale_type=%s sfa_id=%d sfb_id=%d -> 0x%08x",
      kind, M, N, type_name<A>(), type_name<B>(), int(AM), int(BM), int(AN), int(BN), int(SPARSE),
      type_name<SF>(), sfa_id, sfb_id, v);
}

template <class A, class B, class SF, int M, int... Ns>
void idesc_bs_n(const char* kind, Ints<Ns...>) { (idesc_bs<A, B, SF, M, Ns>(kind, 0, 0), ...); }

template <class SF, int M, int N, class A, class... Bs>
void idesc_bs_row(const char* kind, TypeList<Bs...>) { (idesc_bs<A, Bs, SF, M, N>(kind, 0, 0), ...); }
template <class SF, int M, int N, class... As, class BL>
void idesc_bs_pairs(const char* kind, TypeList<As...>, BL bl) { (idesc_bs_row<SF, M, N, As>(kind, bl), ...); }

template <class A, class B, class SF, int M, int N>
void idesc_bs_negates(const char* kind) {
  idesc_bs<A, B, SF, M, N, KM, KM, NEG, POS>(kind, 0, 0);
  idesc_bs<A, B, SF, M, N, KM, KM, POS, NEG>(kind, 0, 0);
  idesc_bs<A, B, SF, M, N, KM, KM, NEG, NEG>(kind, 0, 0);
}

template <class A, class B, class SF, int M, int N>
void idesc_bs_sf_ids(const char* kind, std::initializer_list<int> ids) {
  for (int a : ids)
    for (int b : ids)
      if (a != 0 || b != 0) idesc_bs<A, B, SF, M, N>(kind, a, b);
}

void gen_idesc_block_scaled() {
  out("# ---------------------------------------------------------------------------------------");
  out("# idesc, kind::mxf8f6f4 (Table 43) -- UMMA::make_instr_desc_block_scaled + runtime SF ids");
  out("# ---------------------------------------------------------------------------------------");
  {
    const char* k = "mxf8f6f4";
    using E8 = float_ue8m0_t;
    using E4 = float_e4m3_t;
    using E5 = float_e5m2_t;
    using E2M3 = detail::float_e2m3_unpacksmem_t;
    using E3M2 = detail::float_e3m2_unpacksmem_t;
    using E2M1 = detail::float_e2m1_unpacksmem_t;
    idesc_bs_pairs<E8, 128, 128>(k, F8F6F4Types{}, F8F6F4Types{});
    idesc_bs_pairs<E8, 256, 256>(k, TypeList<E4, E2M1>{}, F8F6F4Types{});
    idesc_bs_n<E4, E4, E8, 128>(k, Ints<8, 16, 24, 64, 200, 256>{});
    idesc_bs_n<E5, E2M3, E8, 256>(k, Ints<16, 64, 128>{});
    idesc_bs_sf_ids<E4, E4, E8, 128, 128>(k, {0, 1, 2, 3});
    idesc_bs_sf_ids<E2M1, E3M2, E8, 256, 64>(k, {0, 3});
    idesc_bs<E4, E4, E8, 128, 128, MN, KM>(k, 0, 0);
    idesc_bs<E4, E5, E8, 128, 128, KM, MN>(k, 1, 2);
    idesc_bs<E5, E5, E8, 256, 256, MN, MN>(k, 3, 3);
    idesc_bs<E4, E2M1, E8, 128, 64, MN, KM>(k, 0, 1);
    idesc_bs_negates<E4, E4, E8, 128, 128>(k);
    idesc_bs_negates<E2M3, E2M1, E8, 256, 32>(k);
    idesc_bs<E4, E4, E8, 128, 128, KM, KM, POS, POS, true>(k, 0, 0);
    idesc_bs<E5, E4, E8, 256, 256, MN, KM, NEG, POS, true>(k, 2, 1);
    idesc_bs<E2M1, E2M1, E8, 128, 64, KM, KM, POS, POS, true>(k, 3, 0);
  }

  out("# ---------------------------------------------------------------------------------------");
  out("# idesc, kind::mxf4 (Table 44) -- E2M1 is MXF4Format code 1 here; scale UE8M0");
  out("# ---------------------------------------------------------------------------------------");
  {
    const char* k = "mxf4";
    using F4 = float_e2m1_t;
    using E8 = float_ue8m0_t;
    idesc_bs_n<F4, F4, E8, 128>(k, Ints<8, 16, 32, 64, 128, 136, 256>{});
    idesc_bs_n<F4, F4, E8, 256>(k, Ints<16, 64, 128, 256>{});
    idesc_bs_sf_ids<F4, F4, E8, 128, 128>(k, {0, 2});
    idesc_bs_sf_ids<F4, F4, E8, 256, 256>(k, {0, 2});
    idesc_bs_negates<F4, F4, E8, 128, 256>(k);
    idesc_bs<F4, F4, E8, 128, 128, KM, KM, POS, POS, true>(k, 0, 0);
    idesc_bs<F4, F4, E8, 256, 64, KM, KM, NEG, POS, true>(k, 2, 0);
  }

  out("# ---------------------------------------------------------------------------------------");
  out("# idesc, kind::mxf4nvf4 (Table 44) -- scale UE8M0 (SF id 0/2) or UE4M3 (SF id 0 only)");
  out("# ---------------------------------------------------------------------------------------");
  {
    const char* k = "mxf4nvf4";
    using F4 = float_e2m1_t;
    using E8 = float_ue8m0_t;
    using U4 = float_ue4m3_t;
    idesc_bs_n<F4, F4, U4, 128>(k, Ints<8, 16, 64, 128, 192, 256>{});
    idesc_bs_n<F4, F4, U4, 256>(k, Ints<16, 32, 128, 256>{});
    idesc_bs_n<F4, F4, E8, 128>(k, Ints<8, 128, 256>{});
    idesc_bs_n<F4, F4, E8, 256>(k, Ints<64, 256>{});
    idesc_bs_sf_ids<F4, F4, E8, 128, 64>(k, {0, 2});
    idesc_bs_negates<F4, F4, U4, 128, 128>(k);
    idesc_bs_negates<F4, F4, E8, 256, 256>(k);
    idesc_bs<F4, F4, U4, 128, 128, KM, KM, POS, POS, true>(k, 0, 0);
    idesc_bs<F4, F4, U4, 256, 256, KM, KM, POS, NEG, true>(k, 0, 0);
    idesc_bs<F4, F4, E8, 128, 256, KM, KM, POS, POS, true>(k, 2, 2);
  }
}

// ------------------------------------------------------------------------------------------------
// Shared-memory descriptors: UMMA::make_umma_desc<Major> over CuTe smem tensors
// ------------------------------------------------------------------------------------------------

enum class Swz { None, B128_32, B128, B64, B32 };

constexpr const char* swz_name(Swz s) {
  return s == Swz::None ? "none" : s == Swz::B128_32 ? "128B_base32B" : s == Swz::B128 ? "128B"
       : s == Swz::B64 ? "64B" : "32B";
}

// Swizzle width in bytes (the row length of the atom); 16 for no swizzle.
constexpr int swz_bytes(Swz s) {
  return s == Swz::None ? 16 : s == Swz::B32 ? 32 : s == Swz::B64 ? 64 : 128;
}

// CUTLASS's smem layout atom for (element type, major-ness, swizzle).
template <class T, Major MAJ, Swz S>
auto atom() {
  if constexpr (MAJ == Major::K) {
    static_assert(S != Swz::B128_32, "128B_base32B is MN-major only");
    if constexpr (S == Swz::None) return UMMA::Layout_K_INTER_Atom<T>{};
    else if constexpr (S == Swz::B32) return UMMA::Layout_K_SW32_Atom<T>{};
    else if constexpr (S == Swz::B64) return UMMA::Layout_K_SW64_Atom<T>{};
    else return UMMA::Layout_K_SW128_Atom<T>{};
  } else {
    if constexpr (S == Swz::None) return UMMA::Layout_MN_INTER_Atom<T>{};
    else if constexpr (S == Swz::B32) return UMMA::Layout_MN_SW32_Atom<T>{};
    else if constexpr (S == Swz::B64) return UMMA::Layout_MN_SW64_Atom<T>{};
    else if constexpr (S == Swz::B128) return UMMA::Layout_MN_SW128_Atom<T>{};
    else return UMMA::Layout_MN_SW128_32B_Atom<T>{};
  }
}

// Does an MNxK tile of T tile the atom and hold a whole number of MMA K-blocks (256 bits of K)?
template <class T, Major MAJ, Swz S, int MNs, int Ks>
constexpr bool tile_fits() {
  constexpr int bits = int(sizeof_bits_v<T>);
  constexpr int w = swz_bytes(S) * 8 / bits;      // atom extent along the contiguous mode, elements
  if constexpr (MAJ == Major::K) {
    return MNs % 8 == 0 && Ks % w == 0 && (Ks * bits) % 256 == 0;
  } else {
    constexpr int k_atom = S == Swz::B128_32 ? 4 : 8;
    return MNs % w == 0 && Ks % k_atom == 0 && (Ks * bits) % 256 == 0;
  }
}

// The smem tile as CUTLASS kernels build it: tile_to_shape(<atom>, MNxK) on a smem pointer whose
// value is the byte address.
template <class T, Major MAJ, Swz S, int MNs, int Ks>
auto smem_tile(uint32_t addr) {
  auto layout = tile_to_shape(atom<T, MAJ, S>(), make_shape(Int<MNs>{}, Int<Ks>{}));
  return make_tensor(make_smem_ptr(reinterpret_cast<T*>(uintptr_t(addr))), layout);
}

// The first MMA K-block (256 bits of K) of a tile: the operand one tcgen05.mma reads, and the tensor
// CUTLASS's descriptor fragments pass to make_umma_desc.
template <class Tensor_>
auto first_k_block(Tensor_ const& t) {
  using T = typename Tensor_::value_type;
  constexpr int kblk = 256 / int(sizeof_bits_v<T>);
  return local_tile(t, make_shape(size<0>(t), Int<kblk>{}), make_coord(0, 0));
}

void check_field(const char* what, uint64_t raw, unsigned got, unsigned want) {
  if (got != want) fail("smem 0x%016llx: %s decodes to %u but CUTLASS set %u", (unsigned long long)raw, what, got, want);
}

template <class T, Major MAJ, Swz S, int MNs, int Ks>
void smem(uint32_t addr) {
  Tensor t = first_k_block(smem_tile<T, MAJ, S, MNs, Ks>(addr));
  const UMMA::SmemDescriptor d = UMMA::make_umma_desc<MAJ>(t);
  const uint64_t raw = d.desc_;
  const unsigned start = unsigned(raw & 0x3fff) << 4;
  const unsigned lbo = unsigned((raw >> 16) & 0x3fff) << 4;
  const unsigned sbo = unsigned((raw >> 32) & 0x3fff) << 4;
  const unsigned base = unsigned((raw >> 49) & 7);
  const unsigned lbo_mode = unsigned((raw >> 52) & 1);
  check_field("start_address", raw, start, unsigned(d.start_address_) << 4);
  check_field("leading_byte_offset", raw, lbo, unsigned(d.leading_byte_offset_) << 4);
  check_field("stride_byte_offset", raw, sbo, unsigned(d.stride_byte_offset_) << 4);
  check_field("base_offset", raw, base, d.base_offset_);
  check_field("lbo_mode", raw, lbo_mode, d.lbo_mode_);
  check_field("version", raw, unsigned((raw >> 46) & 7), 1u);
  if (MAJ == Major::MN && S != Swz::None && lbo == 0)
    out("# next: the tile's MN extent is one swizzle atom, so LBO is never used; CUTLASS writes 0");
  if (start != addr) fail("smem: start address 0x%x != fake pointer 0x%x (is the cvta shim active?)", start, addr);
  out("smem major=%s swizzle=%s elem_bits=%d tile=%dx%d addr=0x%x start_address=0x%x leading_byte_offset=%u "
      "stride_byte_offset=%u base_offset=%u lbo_mode=%u -> 0x%016llx",
      MAJ == Major::K ? "k" : "mn", swz_name(S), int(sizeof_bits_v<T>), MNs, Ks, addr, start, lbo, sbo, base,
      lbo_mode, (unsigned long long)raw);
}

constexpr uint32_t kAddrs[] = {0x0, 0x400, 0x1000, 0x9000, 0x20000};

template <int MNs, int Ks> struct TileMK { static constexpr int mn = MNs; static constexpr int k = Ks; };

// Emit every fitting tile of the candidate list: the first fitting one at every address, the others
// at 0x400.
template <class T, Major MAJ, Swz S, class... Tiles>
void smem_combo() {
  bool first = true;
  auto emit = [&](auto tile) {
    constexpr int MNs = decltype(tile)::mn;
    constexpr int Ks = decltype(tile)::k;
    if constexpr (tile_fits<T, MAJ, S, MNs, Ks>()) {
      if (first) {
        for (uint32_t a : kAddrs) smem<T, MAJ, S, MNs, Ks>(a);
        first = false;
      } else {
        smem<T, MAJ, S, MNs, Ks>(0x400);
      }
    }
  };
  (emit(Tiles{}), ...);
}

template <class T, Major MAJ, Swz S>
void smem_all_tiles() {
  smem_combo<T, MAJ, S, TileMK<128, 64>, TileMK<64, 64>, TileMK<256, 32>, TileMK<128, 16>, TileMK<256, 8>,
             TileMK<128, 128>, TileMK<64, 256>>();
}

template <class T, Major MAJ>
void smem_swizzles() {
  smem_all_tiles<T, MAJ, Swz::None>();
  smem_all_tiles<T, MAJ, Swz::B32>();
  smem_all_tiles<T, MAJ, Swz::B64>();
  smem_all_tiles<T, MAJ, Swz::B128>();
}

void gen_smem() {
  out("# ---------------------------------------------------------------------------------------");
  out("# smem descriptors -- UMMA::make_umma_desc<Major> on tile_to_shape(<CUTLASS atom>, MNxK)");
  out("# (byte fields decoded from the raw value; CUTLASS always writes base_offset 0, lbo_mode 0)");
  out("# ---------------------------------------------------------------------------------------");
  out("# K-major, 8-bit (uint8_t)");
  smem_swizzles<uint8_t, Major::K>();
  out("# K-major, 16-bit (bfloat16_t)");
  smem_swizzles<bfloat16_t, Major::K>();
  out("# K-major, 32-bit (tfloat32_t)");
  smem_swizzles<tfloat32_t, Major::K>();
  out("# MN-major, 8-bit (uint8_t)");
  smem_swizzles<uint8_t, Major::MN>();
  out("# MN-major, 16-bit (bfloat16_t)");
  smem_swizzles<bfloat16_t, Major::MN>();
  out("# MN-major, 32-bit (tfloat32_t): only 128B with 32B atomicity is legal (R18)");
  smem_all_tiles<tfloat32_t, Major::MN, Swz::B128_32>();
}

// ------------------------------------------------------------------------------------------------
// Advancing a descriptor along K: CuTe's DescriptorIterator, reached through a TiledMMA fragment
// ------------------------------------------------------------------------------------------------

// Partition an MNxK smem tile for operand A (or B) of `Op`, make the descriptor fragment, and print
// the descriptor of every K-block after the first relative to the first.
template <class Op, bool IsA, class T, Major MAJ, Swz S, int MNs, int Ks>
void smem_advance(uint32_t addr) {
  Tensor s = smem_tile<T, MAJ, S, MNs, Ks>(addr);
  auto mma = make_tiled_mma(Op{});
  auto thr = mma.get_slice(0);
  auto run = [&](auto const& frag) {
    const UMMA::SmemDescriptor base = frag(0, 0, 0);
    out("# %s operand %s, %s-major, swizzle %s, %d-bit, %dx%d tile at 0x%x: %d K-blocks",
        IsA ? "A" : "B", IsA ? "MxK" : "NxK", MAJ == Major::K ? "K" : "MN", swz_name(S),
        int(sizeof_bits_v<T>), MNs, Ks, addr, int(size<2>(frag)));
    // The base must be what make_umma_desc gives for the tile.
    const UMMA::SmemDescriptor whole = UMMA::make_umma_desc<MAJ>(first_k_block(s));
    if (base.desc_ != whole.desc_)
      fail("fragment base 0x%016llx != make_umma_desc 0x%016llx", (unsigned long long)base.desc_,
           (unsigned long long)whole.desc_);
    for (int k = 1; k < int(size<2>(frag)); ++k) {
      const UMMA::SmemDescriptor dk = frag(0, 0, k);
      const int units = int(frag.layout()(0, 0, k));   // tensor offset, in 16-byte units
      const UMMA::SmemDescriptor again = *(UMMA::DescriptorIterator{base} + units);
      if (again.desc_ != dk.desc_) fail("DescriptorIterator + %d disagrees with the fragment", units);
      out("smem_advance base=0x%016llx bytes=%d -> 0x%016llx", (unsigned long long)base.desc_, units * 16,
          (unsigned long long)dk.desc_);
    }
  };
  if constexpr (IsA) run(mma.make_fragment_A(thr.partition_A(s)));
  else run(mma.make_fragment_B(thr.partition_B(s)));
}

void gen_smem_advance() {
  out("# ---------------------------------------------------------------------------------------");
  out("# smem_advance -- K-block k of a TiledMMA descriptor fragment (tCrA(0,0,k)); bytes = CuTe's");
  out("# tensor offset x 16, which DescriptorIterator adds to the low 32 bits of the descriptor");
  out("# ---------------------------------------------------------------------------------------");
  using BF = bfloat16_t;
  using TF = tfloat32_t;
  using F16Op_KK = SM100_MMA_F16BF16_SS<BF, BF, float, 128, 64, KM, KM>;
  using F16Op_MK = SM100_MMA_F16BF16_SS<BF, BF, float, 128, 64, MN, KM>;
  using F16Op_KM = SM100_MMA_F16BF16_SS<BF, BF, float, 128, 64, KM, MN>;
  using TF32Op_MK = SM100_MMA_TF32_SS<TF, TF, float, 128, 128, MN, KM>;
  using S8Op_KK = SM100_MMA_S8_SS<int8_t, int8_t, int32_t, 128, 128, KM, KM>;
  smem_advance<F16Op_KK, true, BF, KM, Swz::B128, 128, 64>(0x400);
  smem_advance<F16Op_MK, true, BF, MN, Swz::B128, 128, 64>(0x400);
  smem_advance<F16Op_KK, true, BF, KM, Swz::None, 128, 64>(0x400);
  smem_advance<F16Op_KK, true, BF, KM, Swz::B32, 128, 32>(0x9000);
  smem_advance<F16Op_KM, false, BF, MN, Swz::B64, 64, 32>(0x1000);
  smem_advance<F16Op_KK, false, BF, KM, Swz::B64, 64, 64>(0x9000);
  smem_advance<TF32Op_MK, true, TF, MN, Swz::B128_32, 128, 32>(0x400);
  smem_advance<S8Op_KK, true, int8_t, KM, Swz::B128, 128, 128>(0x1000);
  smem_advance<S8Op_KK, false, int8_t, KM, Swz::None, 128, 64>(0x20000);
}

// ------------------------------------------------------------------------------------------------
// Zero-column mask descriptors: UMMA::MaskAndShiftB
// ------------------------------------------------------------------------------------------------

uint64_t zmask_raw(const UMMA::MaskAndShiftB& m) { return (uint64_t(m.uri[1]) << 32) | m.uri[0]; }

void zmask_line(const UMMA::MaskAndShiftB& m) {
  const uint64_t raw = zmask_raw(m);
  // Decode the raw value by the PTX Table 45 bit positions and compare with CUTLASS's fields.
  for (int i = 0; i < 4; ++i)
    if (((raw >> (8 * i)) & 0xff) != m.start_count_[i]) fail("zmask start_count[%d] bit position", i);
  if (((raw >> 32) & 0xf) != m.first_span_) fail("zmask first_span bit position");
  if (((raw >> 39) & 1) != m.nzm_) fail("zmask non_zero_mask bit position");
  if (((raw >> 40) & 0xff) != m.skip_span_) fail("zmask skip_span bit position");
  if (((raw >> 48) & 0xff) != m.use_span_) fail("zmask use_span bit position");
  if (((raw >> 56) & 0x3f) != m.shift_) fail("zmask column_shift bit position");
  const unsigned fs = m.first_span_;
  // R20: a start count that skips past the first run of its sub-mask is not covered by any PTX
  // example (decoders warn). Hand-written vectors avoid it; mark any CUTLASS-generated one.
  bool beyond_first_run = false;
  for (int i = 0; i < 4; ++i) {
    const unsigned first_run = ((fs >> i) & 1) ? unsigned(m.skip_span_) + 1 : unsigned(m.use_span_) + 1;
    beyond_first_run = beyond_first_run || m.start_count_[i] >= first_run;
  }
  if (beyond_first_run) out("# next: a start count reaches past its sub-mask's first run (R20 warning case)");
  out("zmask start_count=%u,%u,%u,%u first_span=%u,%u,%u,%u non_zero_mask=%u skip_span=%u use_span=%u "
      "column_shift=%u -> 0x%016llx",
      m.start_count_[0], m.start_count_[1], m.start_count_[2], m.start_count_[3], fs & 1, (fs >> 1) & 1,
      (fs >> 2) & 1, (fs >> 3) & 1, unsigned(m.nzm_), unsigned(m.skip_span_), unsigned(m.use_span_),
      unsigned(m.shift_), (unsigned long long)raw);
}

// Fields as stored: first_span[i] is bit i, skip/use spans are count - 1.
void zmask(std::initializer_list<int> sc, std::initializer_list<int> fs, int nzm, int skip, int use, int shift) {
  UMMA::MaskAndShiftB m = {};
  int i = 0;
  for (int v : sc) m.start_count_[i++] = uint8_t(v);
  unsigned bits = 0;
  i = 0;
  for (int v : fs) bits |= unsigned(v & 1) << i++;
  m.first_span_ = bits;
  m.nzm_ = unsigned(nzm);
  m.skip_span_ = unsigned(skip);
  m.use_span_ = unsigned(use);
  m.shift_ = unsigned(shift);
  zmask_line(m);
}

template <int CTA_M, int CTA_N>
void zmask_conv(int conv_q, int cta_coord_q, int skip_left) {
  auto masks = UMMA::make_column_zero_mask<int, 3, CTA_M, CTA_N>(conv_q, cta_coord_q, skip_left);
  out("# make_column_zero_mask<int, FLT_S=3, CTA_M=%d, CTA_N=%d>(conv_q=%d, cta_coord_q=%d, "
      "num_pixels_skip_left=%d), taps 0..2", CTA_M, CTA_N, conv_q, cta_coord_q, skip_left);
  for (int s = 0; s < 3; ++s) zmask_line(masks[s]);
}

void gen_zmask() {
  out("# ---------------------------------------------------------------------------------------");
  out("# zmask -- raw bits of UMMA::MaskAndShiftB (Table 45). Lists are indexed by sub-mask:");
  out("# start_count=sc0,sc1,sc2,sc3 first_span=fs0,fs1,fs2,fs3. Spans are stored values (count-1).");
  out("# ---------------------------------------------------------------------------------------");
  out("# PTX 9.7.16.4.3 examples 1-4 (\"-\" entries as 0)");
  zmask({0, 0, 0, 0}, {0, 0, 0, 0}, 0, 4, 3, 0);
  zmask({0, 0, 0, 0}, {0, 0, 0, 0}, 1, 2, 3, 0);
  zmask({0, 0, 0, 0}, {1, 0, 0, 0}, 1, 2, 3, 0);
  zmask({0, 1, 2, 1}, {1, 1, 0, 0}, 1, 2, 3, 2);
  out("# varied fields (start_count_i stays inside sub-mask i's first run, column_shift <= 32)");
  zmask({0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, 0, 0);
  zmask({0, 0, 0, 0}, {0, 0, 0, 0}, 1, 0, 0, 0);
  zmask({255, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, 255, 0);
  zmask({0, 0, 0, 0}, {1, 1, 1, 1}, 0, 0, 0, 0);
  zmask({0, 0, 0, 0}, {0, 0, 0, 0}, 0, 255, 0, 0);
  zmask({0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, 255, 0);
  zmask({0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, 0, 32);
  zmask({0x12, 0x34, 0x56, 0x78}, {1, 0, 1, 0}, 1, 100, 130, 8);
  zmask({1, 2, 3, 4}, {0, 1, 0, 1}, 1, 4, 5, 16);
  zmask({255, 255, 255, 255}, {1, 1, 1, 1}, 1, 255, 255, 32);
  zmask({3, 0, 0, 0}, {1, 0, 0, 0}, 1, 3, 4, 0);
  zmask({5, 5, 0, 0}, {0, 1, 0, 0}, 1, 5, 10, 1);
  zmask({0, 9, 18, 27}, {0, 0, 1, 1}, 1, 30, 27, 3);
  zmask({127, 0, 64, 0}, {0, 0, 1, 0}, 1, 127, 128, 31);
  zmask({0, 0, 0, 0}, {1, 0, 0, 0}, 1, 0, 254, 0);
  zmask({2, 0, 0, 0}, {1, 0, 0, 0}, 1, 254, 0, 12);
  zmask({16, 32, 48, 64}, {1, 1, 0, 0}, 1, 40, 70, 5);
  zmask({0, 0, 0, 0}, {0, 0, 0, 1}, 1, 2, 2, 24);
  zmask({8, 0, 0, 0}, {0, 0, 0, 0}, 0, 6, 9, 7);
  zmask({200, 100, 50, 25}, {1, 0, 0, 1}, 1, 210, 191, 30);
  zmask({7, 7, 7, 7}, {1, 1, 1, 0}, 1, 9, 7, 16);
  zmask({0, 0, 0, 0}, {0, 0, 0, 0}, 1, 31, 223, 2);
  out("# generated by CUTLASS's conv helper UMMA::make_column_zero_mask");
  zmask_conv<128, 128>(56, 0, 1);
  zmask_conv<128, 128>(56, 1, 1);
  zmask_conv<64, 128>(28, 1, 1);
  zmask_conv<32, 64>(14, 2, 1);
}

// ------------------------------------------------------------------------------------------------
// Reference examples (oracles.md section 2): they must appear in the output
// ------------------------------------------------------------------------------------------------

struct Expect {
  const char* prefix;   // start of the line (inputs)
  const char* value;    // " -> 0x..." ending
};

const Expect kExpected[] = {
    {"smem major=k swizzle=128B elem_bits=16 tile=128x64 addr=0x400 ", " -> 0x4000404000010040"},
    {"smem major=k swizzle=none elem_bits=16 tile=128x16 addr=0x400 ", " -> 0x0000400800800040"},
    {"smem major=mn swizzle=128B elem_bits=16 tile=128x64 addr=0x400 ", " -> 0x4000408000400040"},
    {"smem major=mn swizzle=128B_base32B elem_bits=32 tile=256x8 addr=0x400 ", " -> 0x2000410000200040"},
    {"smem_advance base=0x4000404000010040 bytes=32", " -> 0x4000404000010042"},
    {"smem_advance base=0x4000404000010040 bytes=64", " -> 0x4000404000010044"},
    {"smem_advance base=0x4000404000010040 bytes=96", " -> 0x4000404000010046"},
    {"smem_advance base=0x4000408000400040 bytes=4096", " -> 0x4000408000400140"},
    {"idesc kind=f16 m=128 n=64 d_type=f32 a_type=bf16 b_type=bf16 transpose_a=0 transpose_b=0 negate_a=0 "
     "negate_b=0 saturate=0 sparse=0 max_shift=0", " -> 0x08100490"},
    {"idesc kind=f16 m=64 n=8 d_type=f16 a_type=f16 b_type=f16 transpose_a=0 transpose_b=0 negate_a=0 "
     "negate_b=0 saturate=0 sparse=0 max_shift=0", " -> 0x04020000"},
    {"idesc kind=i8 m=128 n=256 d_type=s32 a_type=s8 b_type=s8 transpose_a=0 transpose_b=0 negate_a=0 "
     "negate_b=0 saturate=1 sparse=0 max_shift=0", " -> 0x084004a8"},
    {"idesc kind=f16 m=64 n=128 d_type=f32 a_type=bf16 b_type=bf16 transpose_a=0 transpose_b=0 negate_a=0 "
     "negate_b=0 saturate=0 sparse=0 max_shift=32", " -> 0xc4200490"},
    {"idesc kind=mxf4 m=128 n=128 d_type=f32 a_type=e2m1 b_type=e2m1 transpose_a=0 transpose_b=0 negate_a=0 "
     "negate_b=0 saturate=0 sparse=0 max_shift=0 scale_type=ue8m0 sfa_id=0 sfb_id=0", " -> 0x08a00480"},
    {"idesc kind=mxf4nvf4 m=128 n=256 d_type=f32 a_type=e2m1 b_type=e2m1 transpose_a=0 transpose_b=0 "
     "negate_a=0 negate_b=0 saturate=0 sparse=0 max_shift=0 scale_type=ue4m3 sfa_id=0 sfb_id=0", " -> 0x08400480"},
};

void check_expected() {
  for (const Expect& e : kExpected) {
    const std::string p(e.prefix), v(e.value);
    bool found = false, right = false;
    for (const auto& l : g_lines) {
      if (l.compare(0, p.size(), p) != 0) continue;
      // "smem_advance ... bytes=32" must not match "bytes=320": the next char ends the prefix.
      if (l.size() > p.size() && p.back() != ' ' && l[p.size()] != ' ') continue;
      found = true;
      right = right || (l.size() >= v.size() && l.compare(l.size() - v.size(), v.size(), v) == 0);
    }
    if (!found) fail("reference example missing: %s", e.prefix);
    else if (!right) fail("reference example has a different value (want%s): %s", e.value, e.prefix);
  }
}

}  // namespace

int main() {
  out("# tcgen05 descriptor test vectors computed by NVIDIA CUTLASS %d.%d.%d headers (host-only build).",
      CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH);
  out("# GENERATED by conformance/cutlass/run.sh from conformance/cutlass/gen_vectors.cpp; do not edit.");
  out("# Format: <desc> key=value ... -> 0x<hex>; see conformance/cutlass/README.md.");
  out("# Numbers are decimal unless written with 0x.");
  out("");
  gen_idesc_dense();
  out("");
  gen_idesc_block_scaled();
  out("");
  gen_smem();
  out("");
  gen_smem_advance();
  out("");
  gen_zmask();

  check_expected();
  std::fprintf(stderr, "gen_vectors: %d idesc, %d smem, %d smem_advance, %d zmask vectors; %zu reference examples %s\n",
               count_prefix("idesc "), count_prefix("smem "), count_prefix("smem_advance "),
               count_prefix("zmask "), sizeof(kExpected) / sizeof(kExpected[0]),
               g_failures ? "checked, with failures" : "found");
  if (g_failures) {
    std::fprintf(stderr, "gen_vectors: %d check(s) failed\n", g_failures);
    return 1;
  }
  return 0;
}
