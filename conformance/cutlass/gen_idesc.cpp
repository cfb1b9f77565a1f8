// gen_idesc.cpp: instruction-descriptor records of the CUTLASS vector generator (see gen_common.hpp).
//
// Dense kinds (tf32, f16, f8f6f4, i8; Table 42): UMMA::make_instr_desc, and
// UMMA::make_runtime_instr_desc<sparse>(desc, sparse_id2) for the sparsity selector.
// Block-scaled kinds (mxf8f6f4 Table 43; mxf4, mxf4nvf4 Table 44):
// UMMA::make_instr_desc_block_scaled, then make_runtime_instr_desc_block_scaled(desc, sfa << 30,
// sfb << 30): CUTLASS takes the scale-factor IDs from bits 31:30 of the scale factors' TMEM
// addresses. The record holds the 32-bit descriptor (the runtime form's upper half).
//
// Every configuration is one that PTX allows (rules.md R11-R13) except those marked with a
// "difference" (conformance/DIFFERENCES.md).

#include "gen_common.hpp"

namespace gen {
namespace {

constexpr const char* kKindNames[] = {"tf32", "f16", "f8f6f4", "i8", "mxf8f6f4", "mxf4", "mxf4nvf4"};
enum KindId { TF32, F16, F8F6F4, I8, MXF8F6F4, MXF4, MXF4NVF4 };

// (kind, A, B, D or scale-factor type)
template <int K, class A_, class B_, class X_> struct Tri {
  static constexpr int kind = K;
  using A = A_;
  using B = B_;
  using X = X_;
};

template <class... Ls> struct Concat;
template <class... As> struct Concat<TypeList<As...>> { using type = TypeList<As...>; };
template <class... As, class... Bs, class... Rest>
struct Concat<TypeList<As...>, TypeList<Bs...>, Rest...> : Concat<TypeList<As..., Bs...>, Rest...> {};

// Every (A, B, X) of three type lists, for one kind.
template <int K, class A, class BL, class XL> struct RowX;
template <int K, class A, class... Bs, class X> struct RowX<K, A, TypeList<Bs...>, X> {
  using type = TypeList<Tri<K, A, Bs, X>...>;
};
template <int K, class AL, class BL, class XL> struct Cross;
template <int K, class... As, class BL, class X> struct Cross<K, TypeList<As...>, BL, TypeList<X>> {
  using type = typename Concat<TypeList<>, typename RowX<K, As, BL, X>::type...>::type;
};
// Cross over X as well: one Cross per X.
template <int K, class AL, class BL, class... Xs> struct CrossX {
  using type = typename Concat<TypeList<>, typename Cross<K, AL, BL, TypeList<Xs>>::type...>::type;
};

using E2M3U = detail::float_e2m3_unpacksmem_t;
using E3M2U = detail::float_e3m2_unpacksmem_t;
using E2M1U = detail::float_e2m1_unpacksmem_t;
// kind::f8f6f4 / mxf8f6f4 operand types as CUTLASS names them (6/4-bit: the unpacksmem types that
// CUTLASS maps to MXF8F6F4Format E2M3 = 3, E3M2 = 4, E2M1 = 5).
using F8F6F4Types = TypeList<float_e4m3_t, float_e5m2_t, E2M3U, E3M2U, E2M1U>;

// Type triples PTX allows (rules.md R12).
using DenseTris = typename Concat<
    TypeList<Tri<TF32, tfloat32_t, tfloat32_t, float>, Tri<F16, half_t, half_t, half_t>,
             Tri<F16, half_t, half_t, float>, Tri<F16, bfloat16_t, bfloat16_t, float>>,
    typename CrossX<F8F6F4, F8F6F4Types, F8F6F4Types, float, half_t>::type,
    typename Cross<I8, TypeList<int8_t, uint8_t>, TypeList<int8_t, uint8_t>, TypeList<int32_t>>::type>::type;
using ScaledTris = typename Concat<
    typename Cross<MXF8F6F4, F8F6F4Types, F8F6F4Types, TypeList<float_ue8m0_t>>::type,
    TypeList<Tri<MXF4, float_e2m1_t, float_e2m1_t, float_ue8m0_t>,
             Tri<MXF4NVF4, float_e2m1_t, float_e2m1_t, float_ue8m0_t>,
             Tri<MXF4NVF4, float_e2m1_t, float_e2m1_t, float_ue4m3_t>>>::type;

template <class T> constexpr bool sub_byte() { return Ty<T>::kind != nullptr; }

// Flags of one configuration, packed so they can be a template argument:
// bit 0 A MN-major, 1 B MN-major, 2 negate A, 3 negate B, 4 saturate, 5 sparse, 6-7 max-shift code.
constexpr int kFlagCombos = 256;
constexpr bool fl(int f, int bit) { return (f >> bit) & 1; }
constexpr int shift_code(int f) { return (f >> 6) & 3; }
constexpr int shift_rows(int code) { return code == 0 ? 0 : 4 << code; }

// i8 N = 24 with cta_group::1 (M = 64, 128): Table 39 allows it (R14), CUTLASS's SM100_MMA_S8_SS
// atom static_asserts it away, while make_instr_desc (no checks) encodes it.
constexpr const char* dense_mark(int kind, int m, int n) {
  return kind == I8 && n == 24 && (m == 64 || m == 128) ? "i8_n24_atom_rejects" : nullptr;
}

// Does PTX allow these flags for this triple (rules.md R11)?
template <class Tr>
constexpr bool flags_legal(int f) {
  constexpr int k = Tr::kind;
  constexpr bool scaled = k >= MXF8F6F4;
  if ((fl(f, 0) && (sub_byte<typename Tr::A>() || k == MXF4 || k == MXF4NVF4)) ||
      (fl(f, 1) && (sub_byte<typename Tr::B>() || k == MXF4 || k == MXF4NVF4)))
    return false;
  if ((fl(f, 2) || fl(f, 3)) && k == I8) return false;
  if (fl(f, 4) && k != I8) return false;
  if (scaled && (fl(f, 4) || shift_code(f) != 0)) return false;
  return true;
}

struct IdescCfg {
  int kind;
  const char *a, *b, *x;
  int m, n, flags;
  int selector, sfa, sfb;
  bool k96;
};

void emit_idesc(const IdescCfg& c, uint32_t value, const char* difference) {
  const bool scaled = c.kind >= MXF8F6F4;
  Rec r("idesc");
  r.str("kind", kKindNames[c.kind]).num("m", c.m).num("n", c.n).str("d_type", scaled ? "f32" : c.x)
      .str("a_type", c.a).str("b_type", c.b).boolean("transpose_a", fl(c.flags, 0))
      .boolean("transpose_b", fl(c.flags, 1)).boolean("negate_a", fl(c.flags, 2))
      .boolean("negate_b", fl(c.flags, 3)).boolean("saturate", fl(c.flags, 4)).boolean("sparse", fl(c.flags, 5))
      .num("sparsity_selector", c.selector).num("max_shift", shift_rows(shift_code(c.flags)))
      .str("scale_type", scaled ? c.x : nullptr).num("sfa_id", c.sfa).num("sfb_id", c.sfb).boolean("k96", c.k96)
      .hex("hex", value, 8);
  if (difference) r.str("difference", difference);
  r.emit(scaled ? "idesc_block_scaled" : "idesc_dense");
}

constexpr Major major(int f, int bit) { return fl(f, bit) ? MN : KM; }
constexpr UMMA::ScaleIn neg(int f, int bit) { return fl(f, bit) ? UMMA::ScaleIn::Neg : UMMA::ScaleIn::One; }

// One dense configuration: every sparsity selector PTX allows (f16 / tf32 sparse: 0-3; otherwise 0).
template <class Tr, int M, int N, int F>
void dense(const char* difference = nullptr) {
  using A = typename Tr::A;
  using B = typename Tr::B;
  using D = typename Tr::X;
  constexpr UMMA::InstrDescriptor d =
      UMMA::make_instr_desc<A, B, D, M, N, major(F, 0), major(F, 1), neg(F, 2), neg(F, 3),
                            fl(F, 4) ? UMMA::Saturate::True : UMMA::Saturate::False, fl(F, 5),
                            UMMA::MaxShift(shift_code(F))>();
  const uint64_t rt0 = UMMA::make_runtime_instr_desc<A, B, D, M, N, major(F, 0), major(F, 1), neg(F, 2), neg(F, 3),
                                                     fl(F, 4) ? UMMA::Saturate::True : UMMA::Saturate::False,
                                                     fl(F, 5), UMMA::MaxShift(shift_code(F))>();
  if (rt0 != uint64_t(uint32_t(d)) << 32) fail("idesc runtime form 0x%016llx", (unsigned long long)rt0);
  constexpr bool selectors = fl(F, 5) && (Tr::kind == TF32 || Tr::kind == F16);
  for (int sel = 0; sel < (selectors ? 4 : 1); ++sel) {
    const uint64_t rt = UMMA::make_runtime_instr_desc<fl(F, 5)>(d, uint16_t(sel));
    if (uint32_t(rt) != 0) fail("idesc runtime form has a non-zero lower half");
    emit_idesc(IdescCfg{Tr::kind, Ty<A>::name, Ty<B>::name, Ty<D>::name, M, N, F, sel, 0, 0, false},
               uint32_t(rt >> 32), difference);
  }
}

// The scale-factor ID pairs PTX allows (R13): mxf8f6f4 0-3; mxf4/mxf4nvf4 0 or 2; with UE4M3 scales
// (mxf4nvf4 block16) 0 only. With K = 96 (rules.md D10, T3): 0-3 (the 3X vector's byte offsets;
// CUTLASS's sm103 mainloop uses 0, 3, 2, 1), and 0 or 2 with UE4M3 scales (6X).
template <class Tr>
constexpr int sf_id_count(bool k96 = false) {
  constexpr bool ue4m3 = std::is_same_v<typename Tr::X, float_ue4m3_t>;
  if (Tr::kind == MXF8F6F4) return 4;
  if (k96) return ue4m3 ? 2 : 4;
  return ue4m3 ? 1 : 2;
}
template <class Tr>
constexpr int sf_id(int i, bool k96 = false) {
  return sf_id_count<Tr>(k96) == 4 ? i : 2 * i;
}

// One block-scaled configuration with the given scale-factor ID pairs (index pairs into the legal
// IDs; -1 = all pairs). K96 sets CUTLASS's k_size_ field (Table 44 bit 31), which no CUTLASS
// function sets.
template <class Tr, int M, int N, int F>
void scaled(int pairs, uint64_t pick, bool k96 = false, const char* difference = nullptr) {
  using A = typename Tr::A;
  using B = typename Tr::B;
  using SF = typename Tr::X;
  UMMA::InstrDescriptorBlockScaled d =
      UMMA::make_instr_desc_block_scaled<A, B, float, SF, M, N, major(F, 0), major(F, 1), neg(F, 2), neg(F, 3),
                                         fl(F, 5)>();
  if (k96) d.k_size_ = 1;
  const int n_ids = sf_id_count<Tr>(k96);
  for (int i = 0; i < n_ids * n_ids; ++i) {
    if (pairs >= 0 && i != 0 && !((pick >> i) & 1)) continue;
    const int sfa = sf_id<Tr>(i / n_ids, k96), sfb = sf_id<Tr>(i % n_ids, k96);
    const uint64_t rt =
        UMMA::make_runtime_instr_desc_block_scaled<fl(F, 5)>(d, uint32_t(sfa) << 30, uint32_t(sfb) << 30);
    if (uint32_t(rt) != 0) fail("block-scaled runtime idesc has a non-zero lower half");
    if (sfa == 0 && sfb == 0 && uint32_t(rt >> 32) != uint32_t(d)) fail("block-scaled runtime idesc differs");
    emit_idesc(IdescCfg{Tr::kind, Ty<A>::name, Ty<B>::name, Ty<SF>::name, M, N, F, 0, sfa, sfb, k96},
               uint32_t(rt >> 32), difference);
  }
}

// ---- the configurations of the earlier text-format vectors, call for call -------------------------

template <int K> using KindC = std::integral_constant<int, K>;
constexpr UMMA::ScaleIn POS = UMMA::ScaleIn::One;
constexpr UMMA::ScaleIn NEG = UMMA::ScaleIn::Neg;
template <int... Is> using Ints = std::integer_sequence<int, Is...>;

constexpr int pack_flags(Major am, Major bm, UMMA::ScaleIn an, UMMA::ScaleIn bn, UMMA::Saturate sat, bool sparse,
                         UMMA::MaxShift shift) {
  return int(am == MN) | int(bm == MN) << 1 | int(an == NEG) << 2 | int(bn == NEG) << 3 |
         int(sat == UMMA::Saturate::True) << 4 | int(sparse) << 5 | int(shift) << 6;
}

template <class A, class B, class D, int M, int N, Major AM = KM, Major BM = KM, UMMA::ScaleIn AN = POS,
          UMMA::ScaleIn BN = POS, UMMA::Saturate SAT = UMMA::Saturate::False, bool SPARSE = false,
          UMMA::MaxShift SHIFT = UMMA::MaxShift::NoShift, class KC>
void idesc(KC) {
  dense<Tri<KC::value, A, B, D>, M, N, pack_flags(AM, BM, AN, BN, SAT, SPARSE, SHIFT)>(dense_mark(KC::value, M, N));
}
template <class A, class B, class D, int M, int... Ns, class KC>
void idesc_n(KC k, Ints<Ns...>) { (idesc<A, B, D, M, Ns>(k), ...); }
template <class A, class B, class D, int M, int N, class KC>
void idesc_transposes(KC k) {
  idesc<A, B, D, M, N, MN, KM>(k);
  idesc<A, B, D, M, N, KM, MN>(k);
  idesc<A, B, D, M, N, MN, MN>(k);
}
template <class A, class B, class D, int M, int N, class KC>
void idesc_negates(KC k) {
  idesc<A, B, D, M, N, KM, KM, NEG, POS>(k);
  idesc<A, B, D, M, N, KM, KM, POS, NEG>(k);
  idesc<A, B, D, M, N, KM, KM, NEG, NEG>(k);
  if constexpr (!sub_byte<A>()) idesc<A, B, D, M, N, MN, KM, NEG, NEG>(k);
}
template <class A, class B, class D, int M, int N, class KC>
void idesc_shifts(KC k) {
  using S = UMMA::Saturate;
  idesc<A, B, D, M, N, KM, KM, POS, POS, S::False, false, UMMA::MaxShift::MaxShift8>(k);
  idesc<A, B, D, M, N, KM, KM, POS, POS, S::False, false, UMMA::MaxShift::MaxShift16>(k);
  idesc<A, B, D, M, N, KM, KM, POS, POS, S::False, false, UMMA::MaxShift::MaxShift32>(k);
}
template <class A, class B, class D, int M, int N, Major AM = KM, Major BM = KM, class KC>
void idesc_sparse(KC k) {
  idesc<A, B, D, M, N, AM, BM, POS, POS, UMMA::Saturate::False, true>(k);
}
template <class D, int M, int N, class A, class... Bs, class KC>
void idesc_row(KC k, TypeList<Bs...>) { (idesc<A, Bs, D, M, N>(k), ...); }
template <class D, int M, int N, class... As, class BL, class KC>
void idesc_pairs(KC k, TypeList<As...>, BL bl) { (idesc_row<D, M, N, As>(k, bl), ...); }
using I8Types = TypeList<int8_t, uint8_t>;

template <class A, class B, class SF, int M, int N, Major AM = KM, Major BM = KM, UMMA::ScaleIn AN = POS,
          UMMA::ScaleIn BN = POS, bool SPARSE = false, class KC>
void idesc_bs(KC, int sfa, int sfb) {
  using Tr = Tri<KC::value, A, B, SF>;
  constexpr int n_ids = sf_id_count<Tr>();
  int i = 0;
  while (i < n_ids * n_ids && !(sf_id<Tr>(i / n_ids) == sfa && sf_id<Tr>(i % n_ids) == sfb)) ++i;
  if (i == n_ids * n_ids) fail("scale-factor IDs %d, %d not legal here", sfa, sfb);
  scaled<Tr, M, N, pack_flags(AM, BM, AN, BN, UMMA::Saturate::False, SPARSE, UMMA::MaxShift::NoShift)>(
      1, i == 0 ? 0 : 1ull << i);
}
template <class A, class B, class SF, int M, int... Ns, class KC>
void idesc_bs_n(KC k, Ints<Ns...>) { (idesc_bs<A, B, SF, M, Ns>(k, 0, 0), ...); }
template <class SF, int M, int N, class A, class... Bs, class KC>
void idesc_bs_row(KC k, TypeList<Bs...>) { (idesc_bs<A, Bs, SF, M, N>(k, 0, 0), ...); }
template <class SF, int M, int N, class... As, class BL, class KC>
void idesc_bs_pairs(KC k, TypeList<As...>, BL bl) { (idesc_bs_row<SF, M, N, As>(k, bl), ...); }
template <class A, class B, class SF, int M, int N, class KC>
void idesc_bs_negates(KC k) {
  idesc_bs<A, B, SF, M, N, KM, KM, NEG, POS>(k, 0, 0);
  idesc_bs<A, B, SF, M, N, KM, KM, POS, NEG>(k, 0, 0);
  idesc_bs<A, B, SF, M, N, KM, KM, NEG, NEG>(k, 0, 0);
}
template <class A, class B, class SF, int M, int N, class KC>
void idesc_bs_sf_ids(KC k, std::initializer_list<int> ids) {
  for (int a : ids)
    for (int b : ids)
      if (a != 0 || b != 0) idesc_bs<A, B, SF, M, N>(k, a, b);
}


// ---- systematic sweeps ----------------------------------------------------------------------------


// N over its whole range (8..256 in steps of 8) at M = 64, 128, 256 for every dense triple, and the
// .ws shapes at M = 32 (N = 64, 128, 256; R16). CUTLASS's SM100_MMA_S8_* atoms static_assert i8 N = 24,
// which Table 39 allows (R14): those records are marked.
template <class Tr, int M, int... Ns>
void dense_n(std::integer_sequence<int, Ns...>) {
  (dense<Tr, M, (Ns + 1) * 8, 0>(dense_mark(Tr::kind, M, (Ns + 1) * 8)), ...);
}
template <class... Trs>
void dense_sweeps(TypeList<Trs...>) {
  using Ns = std::make_integer_sequence<int, 32>;
  ((dense_n<Trs, 64>(Ns{}), dense_n<Trs, 128>(Ns{}), dense_n<Trs, 256>(Ns{}),
    dense<Trs, 32, 64, 0>(), dense<Trs, 32, 128, 0>(), dense<Trs, 32, 256, 0>()), ...);
}

// Every legal flag combination of a triple at one shape (M 64/128, N 64/128/256: shapes where every
// flag, max shift included, is allowed).
template <class Tr, int M, int N, int F>
void dense_if_legal() {
  if constexpr (flags_legal<Tr>(F)) dense<Tr, M, N, F>();
}
template <class Tr, int M, int N, int... Fs>
void dense_flags_legal(std::integer_sequence<int, Fs...>) {
  (dense_if_legal<Tr, M, N, Fs>(), ...);
}
template <class... Trs, size_t... Is>
void dense_flag_products_impl(std::index_sequence<Is...>) {
  using TL = TypeList<Trs...>;
  // Shape for triple i: M = 64 or 128, N = 64, 128 or 256, cycling.
  (dense_flags_legal<typename TypeAt<Is, TL>::type, (Is % 2 ? 128 : 64), (64 << (Is % 3)), 0>(
       std::make_integer_sequence<int, kFlagCombos>{}),
   ...);
}

template <class Tr, int M, int N, int F>
void scaled_if_legal(int pairs, uint64_t pick) {
  if constexpr (flags_legal<Tr>(F)) scaled<Tr, M, N, F>(pairs, pick);
}

// Block-scaled: N over its whole range at M = 128 and 256 (scale-factor IDs 0 and one seeded pair);
// every legal flag combination (A/B major, negates, sparse) with every legal ID pair at one shape.
template <class Tr, int M, int... Ns>
void scaled_n(Rng& rng, std::integer_sequence<int, Ns...>) {
  constexpr uint32_t pairs = uint32_t(sf_id_count<Tr>() * sf_id_count<Tr>());
  (scaled<Tr, M, (Ns + 1) * 8, 0>(1, pairs > 1 ? 1ull << (1 + rng.below(pairs - 1)) : 0), ...);
}
template <class Tr, int M, int N, int... Fs>
void scaled_flags(std::integer_sequence<int, Fs...>) {
  (scaled_if_legal<Tr, M, N, (Fs & 0x0f) | ((Fs & 0x10) << 1)>(-1, 0), ...);
}

// ---- seeded random configurations -----------------------------------------------------------------

struct RandCfg { int tri, m, n, flags; };
constexpr int kRandomDense = 1500;

template <class TL, size_t I = 0>
constexpr bool legal_at(size_t tri, int f) {
  if constexpr (I >= Len<TL>::value) {
    return false;
  } else {
    return tri == I ? flags_legal<typename TypeAt<I, TL>::type>(f) : legal_at<TL, I + 1>(tri, f);
  }
}

constexpr std::array<RandCfg, kRandomDense> random_dense() {
  std::array<RandCfg, kRandomDense> out{};
  Rng rng(0x1DE5C0000ull);
  constexpr int ms[] = {32, 64, 128, 256};
  for (int i = 0; i < kRandomDense; ++i) {
    for (;;) {
      const int tri = int(rng.below(uint32_t(Len<DenseTris>::value)));
      const int f = int(rng.below(kFlagCombos));
      if (!legal_at<DenseTris>(size_t(tri), f)) continue;
      out[size_t(i)] = RandCfg{tri, ms[rng.below(4)], 8 * (1 + int(rng.below(32))), f};
      break;
    }
  }
  return out;
}

constexpr auto kRandom = random_dense();

template <size_t... Is>
void dense_random(std::index_sequence<Is...>) {
  (dense<typename TypeAt<size_t(kRandom[Is].tri), DenseTris>::type, kRandom[Is].m, kRandom[Is].n,
         kRandom[Is].flags>(dense_mark(TypeAt<size_t(kRandom[Is].tri), DenseTris>::type::kind, kRandom[Is].m, kRandom[Is].n)),
   ...);
}

template <class... Trs, size_t... Is>
void scaled_all(Rng& rng, std::index_sequence<Is...>) {
  using TL = TypeList<Trs...>;
  using Ns = std::make_integer_sequence<int, 32>;
  ((scaled_n<typename TypeAt<Is, TL>::type, 128>(rng, Ns{}), scaled_n<typename TypeAt<Is, TL>::type, 256>(rng, Ns{}),
    scaled_flags<typename TypeAt<Is, TL>::type, (Is % 2 ? 256 : 128), (64 << (Is % 3)), 0>(
        std::make_integer_sequence<int, 32>{})),
   ...);
}
template <class... Trs>
void scaled_all_of(Rng& rng, TypeList<Trs...>) {
  scaled_all<Trs...>(rng, std::index_sequence_for<Trs...>{});
}
template <class... Trs>
void dense_flag_products_of(TypeList<Trs...>) {
  dense_flag_products_impl<Trs...>(std::index_sequence_for<Trs...>{});
}


// The earlier text-format vectors' dense configurations (each appears again here).
void carried_dense() {
  {
    constexpr KindC<TF32> k{};
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

  {
    constexpr KindC<F16> k{};
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

  {
    constexpr KindC<F8F6F4> k{};
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

  {
    constexpr KindC<I8> k{};
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

// ... and block-scaled ones.
void carried_block_scaled() {
  {
    constexpr KindC<MXF8F6F4> k{};
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

  {
    constexpr KindC<MXF4> k{};
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

  {
    constexpr KindC<MXF4NVF4> k{};
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

}  // namespace

void gen_idesc() {
  // oracles.md's reference configurations that the sweeps below do not reach.
  dense<Tri<I8, int8_t, int8_t, int32_t>, 128, 256, 0x10>();                // saturate
  dense<Tri<F16, bfloat16_t, bfloat16_t, float>, 64, 128, 0xc0>();           // max shift 32
  carried_dense();
  carried_block_scaled();
  dense_sweeps(DenseTris{});
  dense_flag_products_of(DenseTris{});
  dense_random(std::make_index_sequence<kRandomDense>{});
  Rng rng(0xB10C5CA1EDull);
  scaled_all_of(rng, ScaledTris{});
  // K = 96 (Table 44 bit 31): dense mxf4 / mxf4nvf4 with M = 256 (R15), set on CUTLASS's struct.
  using Mxf4 = Tri<MXF4, float_e2m1_t, float_e2m1_t, float_ue8m0_t>;
  using Nvf4E8 = Tri<MXF4NVF4, float_e2m1_t, float_e2m1_t, float_ue8m0_t>;
  using Nvf4E4 = Tri<MXF4NVF4, float_e2m1_t, float_e2m1_t, float_ue4m3_t>;
  scaled<Mxf4, 256, 128, 0>(-1, 0, true);
  scaled<Mxf4, 256, 256, 12>(-1, 0, true);
  scaled<Nvf4E8, 256, 64, 0>(-1, 0, true);
  scaled<Nvf4E4, 256, 256, 4>(-1, 0, true);
  // Block-scaled M = 64: CUTLASS writes M >> 4 at bit 24, so M = 64 sets bit 26, which Tables 43/44
  // reserve; PTX has no block-scaled M = 64 (R9).
  using Mx8 = Tri<MXF8F6F4, float_e4m3_t, float_e4m3_t, float_ue8m0_t>;
  scaled<Mx8, 64, 128, 0>(1, 0, false, "block_scaled_m_field");
  scaled<Mx8, 64, 64, 5>(1, 0, false, "block_scaled_m_field");
  scaled<Mxf4, 64, 128, 0>(1, 0, false, "block_scaled_m_field");
  scaled<Nvf4E4, 64, 256, 0>(1, 0, false, "block_scaled_m_field");
}

}  // namespace gen
