// gen_tmem.cpp: print the Tensor Memory maps that NVIDIA's CUTLASS/CuTe headers model, as JSON lines.
//
// Host-only program (C++17, g++, no CUDA compiler, no GPU). Every coordinate printed here is computed
// by evaluating CUTLASS's own CuTe layouts:
//   ldst  every SM100_TMEM_LOAD_* / SM100_TMEM_STORE_* Copy_Traits: (thread, value bit) -> logical bit
//         through DstLayout (load) or SrcLayout (store), then logical bit -> TMEM bit address through
//         ValID. A bit address is (lane << 16 | column) * 32 + bit, i.e. lane stride TMEM::DP_b.
//   cp    every SM100_UTCCP_* Copy_Traits: source (row, bit) -> TMEM bit address through ValID (and,
//         for 4dp256bit, through the "refresh" SrcLayout first, as the traits' comment describes).
//   frg   UMMA::tmem_frg (1sm/2sm, each TmemAllocMode), tmem_frg_ws and tmem_sf_frg tensors made by
//         their make() for MMA tile shapes: (row, column) -> tmem_ptr address (sub-word index in the
//         top bits, as tmem_ptr's own operator+ rotates it).
// Output: conformance/vectors/cutlass-4.2.0-tmem.jsonl (one JSON object per line; format in
// conformance/cutlass/README.md). The exit status is non-zero when a self check fails.

#include <cutlass/version.h>
#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm100.hpp>
#include <cute/atom/mma_traits_sm100.hpp>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace cute;

namespace {

int g_failures = 0;
int g_lines = 0;

void fail(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fputs("gen_tmem: FAIL: ", stderr);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
  ++g_failures;
}

void line(const std::string& s) {
  std::fputs(s.c_str(), stdout);
  std::fputc('\n', stdout);
  ++g_lines;
}

std::string num(long v) { return std::to_string(v); }

// A TMEM bit address split into its parts.
struct Bit {
  long lane, column, bit;
};
Bit split_bit(long addr) {
  return Bit{addr >> 21, (addr >> 5) & 0xFFFF, addr & 31};
}

// ------------------------------------------------------------------------------------------------
// tcgen05.ld / tcgen05.st atoms
// ------------------------------------------------------------------------------------------------

// For every thread and register, the pieces (runs of consecutive register bits that land on
// consecutive bits of one TMEM cell): [lane, column, cell_bit_lo, width] each, in register-bit order.
template <class Traits, bool Load>
std::vector<std::vector<std::vector<long>>> ldst_map() {
  using VL = typename Traits::ValID;
  using TL = std::conditional_t<Load, typename Traits::DstLayout, typename Traits::SrcLayout>;
  constexpr int kThreads = size<0>(TL{});
  constexpr int kBits = size<1>(TL{});
  static_assert(kThreads == 32, "expected a warp");
  static_assert(kBits % 32 == 0, "expected whole registers");
  std::vector<std::vector<std::vector<long>>> out(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    out[t].resize(kBits / 32);
    for (int r = 0; r < kBits / 32; ++r) {
      std::vector<long>& p = out[t][r];
      long prev = -2;
      for (int b = 0; b < 32; ++b) {
        long logical = TL{}(t, 32 * r + b);
        long addr = VL{}(logical);
        if (addr == prev + 1 && Bit(split_bit(addr)).bit != 0) {
          p.back() += 1;  // extend the run's width
        } else {
          Bit x = split_bit(addr);
          p.insert(p.end(), {x.lane, x.column, x.bit, 1});
        }
        prev = addr;
      }
    }
  }
  return out;
}

std::string map_json(const std::vector<std::vector<std::vector<long>>>& m) {
  std::string s = "[";
  for (size_t t = 0; t < m.size(); ++t) {
    s += t ? ",[" : "[";
    for (size_t r = 0; r < m[t].size(); ++r) {
      s += r ? ",[" : "[";
      for (size_t i = 0; i < m[t][r].size(); ++i) s += (i ? "," : "") + num(m[t][r][i]);
      s += "]";
    }
    s += "]";
  }
  return s + "]";
}

std::map<std::string, std::string> g_load_maps;  // load atom name -> map JSON

template <class Op, bool Load>
void ldst_atom(const char* name, const char* shape, int nrep, bool pack) {
  using Traits = Copy_Traits<Op>;
  const auto m = ldst_map<Traits, Load>();
  const std::string mj = map_json(m);
  // Register count from the op's own register arrays.
  constexpr int kRegs = Load ? extent<typename Op::DRegisters>::value : extent<typename Op::SRegisters>::value;
  if ((int)m[0].size() != kRegs) fail("%s: %zu registers in the layout, %d in the op", name, m[0].size(), kRegs);
  std::string head = std::string("{\"kind\":\"ldst\",\"atom\":\"") + name + "\",\"op\":\"" + (Load ? "ld" : "st") +
                     "\",\"shape\":\"" + shape + "\",\"num\":" + num(nrep) + ",\"pack\":" + (pack ? "true" : "false") +
                     ",\"registers\":" + num(kRegs);
  if (Load) {
    g_load_maps[name] = mj;
    line(head + ",\"map\":" + mj + "}");
  } else {
    // Stores reuse their load's ValID with Src and Dst swapped; say so only when the evaluated maps agree.
    std::string load = std::string(name);
    load.replace(load.find("STORE"), 5, "LOAD");
    auto it = g_load_maps.find(load);
    if (it != g_load_maps.end() && it->second == mj) {
      line(head + ",\"same_map_as\":\"" + load + "\"}");
    } else {
      line(head + ",\"map\":" + mj + "}");
    }
  }
}

#define LDST_PAIR(base, shape, n)                                                                         \
  ldst_atom<SM100_TMEM_LOAD_##base##n##x, true>("SM100_TMEM_LOAD_" #base #n "x", shape, n, false);          \
  ldst_atom<SM100_TMEM_LOAD_##base##n##x_16b, true>("SM100_TMEM_LOAD_" #base #n "x_16b", shape, n, true);   \
  ldst_atom<SM100_TMEM_STORE_##base##n##x, false>("SM100_TMEM_STORE_" #base #n "x", shape, n, false);       \
  ldst_atom<SM100_TMEM_STORE_##base##n##x_16b, false>("SM100_TMEM_STORE_" #base #n "x_16b", shape, n, true);

void gen_ldst() {
  LDST_PAIR(32dp32b, "32x32b", 1) LDST_PAIR(32dp32b, "32x32b", 2) LDST_PAIR(32dp32b, "32x32b", 4)
  LDST_PAIR(32dp32b, "32x32b", 8) LDST_PAIR(32dp32b, "32x32b", 16) LDST_PAIR(32dp32b, "32x32b", 32)
  LDST_PAIR(32dp32b, "32x32b", 64) LDST_PAIR(32dp32b, "32x32b", 128)
  LDST_PAIR(16dp64b, "16x64b", 1) LDST_PAIR(16dp64b, "16x64b", 2) LDST_PAIR(16dp64b, "16x64b", 4)
  LDST_PAIR(16dp64b, "16x64b", 8) LDST_PAIR(16dp64b, "16x64b", 16) LDST_PAIR(16dp64b, "16x64b", 32)
  LDST_PAIR(16dp64b, "16x64b", 64) LDST_PAIR(16dp64b, "16x64b", 128)
  LDST_PAIR(16dp128b, "16x128b", 1) LDST_PAIR(16dp128b, "16x128b", 2) LDST_PAIR(16dp128b, "16x128b", 4)
  LDST_PAIR(16dp128b, "16x128b", 8) LDST_PAIR(16dp128b, "16x128b", 16) LDST_PAIR(16dp128b, "16x128b", 32)
  LDST_PAIR(16dp128b, "16x128b", 64)
  LDST_PAIR(16dp256b, "16x256b", 1) LDST_PAIR(16dp256b, "16x256b", 2) LDST_PAIR(16dp256b, "16x256b", 4)
  LDST_PAIR(16dp256b, "16x256b", 8) LDST_PAIR(16dp256b, "16x256b", 16) LDST_PAIR(16dp256b, "16x256b", 32)
  LDST_PAIR(16dp32b, "16x32bx2", 1) LDST_PAIR(16dp32b, "16x32bx2", 2) LDST_PAIR(16dp32b, "16x32bx2", 4)
  LDST_PAIR(16dp32b, "16x32bx2", 8) LDST_PAIR(16dp32b, "16x32bx2", 16) LDST_PAIR(16dp32b, "16x32bx2", 32)
  LDST_PAIR(16dp32b, "16x32bx2", 64) LDST_PAIR(16dp32b, "16x32bx2", 128)
}

// ------------------------------------------------------------------------------------------------
// tcgen05.cp (UTCCP) atoms
// ------------------------------------------------------------------------------------------------

// Per source row: the set of lanes, and whether every lane receives the row's bits in order
// (source bit b -> column b / 32, bit b % 32).
struct RowLanes {
  std::set<long> lanes;
  bool linear = true;
};

void cp_emit(const char* name, const char* shape, const char* multicast, int cta_group,
             const std::map<long, RowLanes>& rows, int bits) {
  std::string s = std::string("{\"kind\":\"cp\",\"atom\":\"") + name + "\",\"shape\":\"" + shape +
                  "\",\"multicast\":\"" + multicast + "\",\"cta_group\":" + num(cta_group) +
                  ",\"columns\":" + num(bits / 32) + ",\"rows\":[";
  bool first = true;
  for (const auto& [row, rl] : rows) {
    if (!rl.linear) fail("%s: row %ld does not land bit by bit in column order", name, row);
    s += first ? "[" : ",[";
    first = false;
    s += num(row);
    for (long l : rl.lanes) s += "," + num(l);
    s += "]";
  }
  line(s + "]}");
}

// ValID's first mode = source rows within a block, second = bits; source index from SrcLayout (thread 0);
// source row = idx % R0 + R0 * (idx / (R0 * B0)).
template <class Op>
void cp_atom(const char* name, const char* shape, const char* multicast, int cta_group) {
  using Traits = Copy_Traits<Op>;
  using VL = typename Traits::ValID;
  using SL = typename Traits::SrcLayout;
  constexpr long R0 = size<0>(VL{});
  constexpr long B0 = size<1>(VL{});
  std::map<long, RowLanes> rows;
  for (long i = 0; i < (long)size(VL{}); ++i) {
    long src = SL{}(0, i);
    long row = src % R0 + R0 * (src / (R0 * B0));
    long bit = (src / R0) % B0;
    Bit x = split_bit(VL{}(i));
    RowLanes& rl = rows[row];
    rl.lanes.insert(x.lane);
    rl.linear = rl.linear && x.column == bit / 32 && x.bit == bit % 32;
  }
  cp_emit(name, shape, multicast, cta_group, rows, (int)B0);
}

// 4dp256bit: SrcLayout maps copy bits (row fastest over 4 rows, then 256 bits) to ValID's logical bits.
template <class Op>
void cp_atom_refresh(const char* name, int cta_group) {
  using Traits = Copy_Traits<Op>;
  using VL = typename Traits::ValID;
  using SL = typename Traits::SrcLayout;
  constexpr long kCopyBits = size<1>(SL{});
  std::map<long, RowLanes> rows;
  for (long c = 0; c < kCopyBits; ++c) {
    long row = c % 4, bit = c / 4;
    Bit x = split_bit(VL{}(SL{}(0, c)));
    RowLanes& rl = rows[row];
    rl.lanes.insert(x.lane);
    rl.linear = rl.linear && x.column == bit / 32 && x.bit == bit % 32;
  }
  cp_emit(name, "4x256b", "", cta_group, rows, 256);
}

void gen_cp() {
  using namespace SM100::TMEM::UTCCP;
  cp_atom<SM100_UTCCP_128dp256bit_1cta>("SM100_UTCCP_128dp256bit_1cta", "128x256b", "", 1);
  cp_atom<SM100_UTCCP_128dp256bit_2cta>("SM100_UTCCP_128dp256bit_2cta", "128x256b", "", 2);
  cp_atom<SM100_UTCCP_128dp128bit_1cta>("SM100_UTCCP_128dp128bit_1cta", "128x128b", "", 1);
  cp_atom<SM100_UTCCP_128dp128bit_2cta>("SM100_UTCCP_128dp128bit_2cta", "128x128b", "", 2);
  cp_atom_refresh<SM100_UTCCP_4dp256bit_1cta>("SM100_UTCCP_4dp256bit_1cta", 1);
  cp_atom_refresh<SM100_UTCCP_4dp256bit_2cta>("SM100_UTCCP_4dp256bit_2cta", 2);
  cp_atom<SM100_UTCCP_4x32dp128bit_1cta>("SM100_UTCCP_4x32dp128bit_1cta", "32x128b", "warpx4", 1);
  cp_atom<SM100_UTCCP_4x32dp128bit_2cta>("SM100_UTCCP_4x32dp128bit_2cta", "32x128b", "warpx4", 2);
  cp_atom<SM100_UTCCP_2x64dp128bitlw0213_1cta>("SM100_UTCCP_2x64dp128bitlw0213_1cta", "64x128b", "warpx2::02_13", 1);
  cp_atom<SM100_UTCCP_2x64dp128bitlw0213_2cta>("SM100_UTCCP_2x64dp128bitlw0213_2cta", "64x128b", "warpx2::02_13", 2);
  cp_atom<SM100_UTCCP_2x64dp128bitlw0123_1cta>("SM100_UTCCP_2x64dp128bitlw0123_1cta", "64x128b", "warpx2::01_23", 1);
  cp_atom<SM100_UTCCP_2x64dp128bitlw0123_2cta>("SM100_UTCCP_2x64dp128bitlw0123_2cta", "64x128b", "warpx2::01_23", 2);
}

// ------------------------------------------------------------------------------------------------
// tmem_frg layouts (D, A in TMEM, scale factors)
// ------------------------------------------------------------------------------------------------

// Decode a tmem_ptr<T> address: tmem_ptr::operator+ rotates the element offset right by
// log2(32 / bits(T)), which leaves the sub-word index in the top bits.
template <class T>
void decode(uint32_t addr, long& lane, long& column, long& sub_bit) {
  constexpr int shift = tmem_ptr<T>::OffsetShift;
  uint32_t word = shift ? (addr & ((1u << (32 - shift)) - 1)) : addr;
  uint32_t sub = shift ? (addr >> (32 - shift)) : 0;
  lane = word >> 16;
  column = word & 0xFFFF;
  sub_bit = (long)sub * (long)sizeof_bits_v<T>;
}

// Evaluate a (rows, cols) tensor made by a tmem_frg make(): entries [row, col, lane, column, bit_lo].
template <class Tensor>
std::string eval_2d(Tensor const& t, long rows, long cols) {
  using T = typename std::remove_cv_t<std::remove_reference_t<decltype(t.data())>>::value_type;
  auto L = get<0>(t.layout());
  std::string s = "[";
  bool first = true;
  for (long m = 0; m < rows; ++m) {
    for (long n = 0; n < cols; ++n) {
      long off = L(m, n);
      uint32_t addr = (t.data() + off).get();
      long lane, column, sub;
      decode<T>(addr, lane, column, sub);
      s += first ? "[" : ",[";
      first = false;
      s += num(m) + "," + num(n) + "," + num(lane) + "," + num(column) + "," + num(sub) + "]";
    }
  }
  return s + "]";
}

template <class Frg, int M, int N>
void frg(const char* name, const char* role, const char* params, int bits) {
  auto t = Frg::make(make_shape(make_shape(Int<M>{}, Int<N>{}), _1{}, _1{}));
  long rows = size<0, 0>(t.layout());
  long cols = size<0, 1>(t.layout());
  line(std::string("{\"kind\":\"frg\",\"frg\":\"") + name + "\",\"role\":\"" + role + "\"," + params +
       ",\"element_bits\":" + num(bits) + ",\"rows\":" + num(rows) + ",\"cols\":" + num(cols) +
       ",\"entries\":" + eval_2d(t, rows, cols) + "}");
}

// D of a 2-SM atom (M rows over both CTAs, N columns) through the atom's own FrgTypeC, made for
// one CTA's M / 2 x N tile: the record names the atom and its FrgTypeC, not a fragment type.
template <class Atom>
void sparse_d(const char* atom, int bits) {
  using Traits = MMA_Traits<Atom>;
  using Frg = typename Traits::FrgTypeC;
  constexpr int M = size<0>(typename Traits::Shape_MNK{});
  constexpr int N = size<1>(typename Traits::Shape_MNK{});
  std::string name = std::string(atom) + "::FrgTypeC";
  std::string params = "\"m_mma\":" + num(M / 2) + ",\"n\":" + num(N) + ",\"cta_group\":2,\"sparse\":true";
  frg<Frg, M / 2, N>(name.c_str(), "d", params.c_str(), bits);
}

void gen_frg() {
  using UMMA::TmemAllocMode;
  // D, 32-bit and 16-bit (StorageType uint32_t: one element per cell).
  // (N = 256 behaves as these do; smaller tiles keep the committed file small.)
#define D1(T, B, M, N)                                                                                       \
  frg<UMMA::tmem_frg_1sm<T>, M, N>("tmem_frg_1sm<" #T ">", "d", "\"m_mma\":" #M ",\"n\":" #N ",\"cta_group\":1", B);
  D1(float, 32, 64, 64) D1(float, 32, 64, 128) D1(float, 32, 128, 64) D1(half_t, 16, 64, 32) D1(half_t, 16, 128, 32)
#undef D1
#define D2(M, N)                                                                                           \
  frg<UMMA::tmem_frg_2sm<float>, M, N>("tmem_frg_2sm<float>", "d", "\"m_mma\":" #M ",\"n\":" #N ",\"cta_group\":2", 32);
  D2(64, 64) D2(64, 128) D2(128, 64)
#undef D2
  // The sparse 2-SM atoms: D through each atom's own FrgTypeC (whatever CUTLASS gives them), at
  // M = 128 (64 rows per CTA) and N = 64, so that a change of their fragment shows up.
  sparse_d<SM100_MMA_TF32_2x1SM_SS_SPARSE<tfloat32_t, tfloat32_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>>(
      "SM100_MMA_TF32_2x1SM_SS_SPARSE<tfloat32_t,tfloat32_t,float,128,64,K,K>", 32);
  sparse_d<SM100_MMA_F16BF16_2x1SM_SS_SPARSE<half_t, half_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>>(
      "SM100_MMA_F16BF16_2x1SM_SS_SPARSE<half_t,half_t,float,128,64,K,K>", 32);
  sparse_d<SM100_MMA_S8_2x1SM_SS_SPARSE<int8_t, int8_t, int32_t, 128, 64, UMMA::Major::K, UMMA::Major::K>>(
      "SM100_MMA_S8_2x1SM_SS_SPARSE<int8_t,int8_t,int32_t,128,64,K,K>", 32);
  sparse_d<SM100_MMA_F8F6F4_2x1SM_SS_SPARSE<float_e4m3_t, float_e4m3_t, float, 128, 64, UMMA::Major::K,
                                            UMMA::Major::K>>(
      "SM100_MMA_F8F6F4_2x1SM_SS_SPARSE<float_e4m3_t,float_e4m3_t,float,128,64,K,K>", 32);
  sparse_d<SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, 128, 64,
                                              UMMA::Major::K, UMMA::Major::K>>(
      "SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,64,K,K>", 32);
  sparse_d<SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 64, 32,
                                              UMMA::Major::K, UMMA::Major::K>>(
      "SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,32,K,K>", 32);
#define DW(M, N)                                                                                           \
  frg<UMMA::tmem_frg_ws_1sm<float>, M, N>("tmem_frg_ws_1sm<float>", "d", "\"m_mma\":" #M ",\"n\":" #N ",\"cta_group\":1,\"ws\":true", 32);
  DW(32, 64) DW(32, 128) DW(64, 64) DW(64, 128) DW(128, 64)
#undef DW
  // A in TMEM for the TS forms (K along columns, packed).
  frg<UMMA::tmem_frg_1sm<half_t, half_t, TmemAllocMode::NonInterleaved>, 128, 16>(
      "tmem_frg_1sm<half_t,half_t,NonInterleaved>", "a", "\"m_mma\":128,\"n\":16,\"cta_group\":1", 16);
  frg<UMMA::tmem_frg_1sm<half_t, half_t, TmemAllocMode::NonInterleaved>, 64, 16>(
      "tmem_frg_1sm<half_t,half_t,NonInterleaved>", "a", "\"m_mma\":64,\"n\":16,\"cta_group\":1", 16);
  frg<UMMA::tmem_frg_1sm<uint8_t, uint8_t, TmemAllocMode::NonInterleaved>, 128, 32>(
      "tmem_frg_1sm<uint8_t,uint8_t,NonInterleaved>", "a", "\"m_mma\":128,\"n\":32,\"cta_group\":1", 8);
  frg<UMMA::tmem_frg_1sm<tfloat32_t, tfloat32_t, TmemAllocMode::NonInterleaved>, 128, 8>(
      "tmem_frg_1sm<tfloat32_t,tfloat32_t,NonInterleaved>", "a", "\"m_mma\":128,\"n\":8,\"cta_group\":1", 32);
  frg<UMMA::tmem_frg_2sm<half_t, half_t, TmemAllocMode::Duplicated>, 64, 16>(
      "tmem_frg_2sm<half_t,half_t,Duplicated>", "a", "\"m_mma\":64,\"n\":16,\"cta_group\":2", 16);
  frg<UMMA::tmem_frg_2sm<half_t, half_t, TmemAllocMode::Interleaved>, 128, 16>(
      "tmem_frg_2sm<half_t,half_t,Interleaved>", "a", "\"m_mma\":128,\"n\":16,\"cta_group\":2", 16);
}

// Scale factors: tensor ((MN, (VS, NSF)), 1, 1); mode 0 of the atom also carries the copies, so it is
// evaluated over its full size. Entries [i, k, lane, column, bit_lo] with i over the atom's MN mode
// (copies included) and k over VS * NSF elements of K.
template <class Frg, int MN, int VS, int NSF>
void sf(const char* name, const char* params) {
  auto t = Frg::make(make_shape(make_shape(Int<MN>{}, make_shape(Int<VS>{}, Int<NSF>{})), _1{}, _1{}));
  using T = typename std::remove_cv_t<std::remove_reference_t<decltype(t.data())>>::value_type;
  auto L = get<0>(t.layout());
  long rows = size<0>(L), ks = size<1>(L);
  std::string s = "[";
  bool first = true;
  for (long i = 0; i < rows; ++i) {
    for (long k = 0; k < ks; k += VS) {
      uint32_t addr = (t.data() + L(i, k)).get();
      long lane, column, sub;
      decode<T>(addr, lane, column, sub);
      s += first ? "[" : ",[";
      first = false;
      s += num(i) + "," + num(k / VS) + "," + num(lane) + "," + num(column) + "," + num(sub) + "]";
    }
  }
  line(std::string("{\"kind\":\"sf\",\"frg\":\"") + name + "\"," + params + ",\"mn\":" + num(MN) +
       ",\"vec\":" + num(NSF) + ",\"atom_rows\":" + num(rows) + ",\"entries\":" + s + "]}");
}

void gen_sf() {
  using UMMA::TmemAllocMode;
  using SF = float_ue8m0_t;
  sf<UMMA::tmem_sf_frg<SF, 32, 1, true>, 128, 32, 1>("tmem_sf_frg<ue8m0,32,1,A>", "\"operand\":\"a\",\"cta_group\":1,\"alloc\":\"4x1\"");
  sf<UMMA::tmem_sf_frg<SF, 32, 1, false>, 256, 32, 1>("tmem_sf_frg<ue8m0,32,1,B>", "\"operand\":\"b\",\"cta_group\":1,\"alloc\":\"4x1\"");
  sf<UMMA::tmem_sf_frg<SF, 32, 1, false>, 64, 32, 2>("tmem_sf_frg<ue8m0,32,1,B>", "\"operand\":\"b\",\"cta_group\":1,\"alloc\":\"4x1\"");
  sf<UMMA::tmem_sf_frg<SF, 16, 1, true>, 128, 16, 4>("tmem_sf_frg<ue8m0,16,1,A>", "\"operand\":\"a\",\"cta_group\":1,\"alloc\":\"4x1\"");
  sf<UMMA::tmem_sf_frg<SF, 32, 2, true, TmemAllocMode::ScaleFactorDuplicated2by2>, 64, 32, 1>(
      "tmem_sf_frg<ue8m0,32,2,A,2by2>", "\"operand\":\"a\",\"cta_group\":2,\"alloc\":\"2x2\"");
  sf<UMMA::tmem_sf_frg<SF, 32, 2, false, TmemAllocMode::ScaleFactorDuplicated2by2>, 256, 32, 2>(
      "tmem_sf_frg<ue8m0,32,2,B,2by2>", "\"operand\":\"b\",\"cta_group\":2,\"alloc\":\"2x2\"");
  sf<UMMA::tmem_sf_frg<SF, 32, 2, false, TmemAllocMode::ScaleFactorDuplicated2by2>, 128, 32, 1>(
      "tmem_sf_frg<ue8m0,32,2,B,2by2>", "\"operand\":\"b\",\"cta_group\":2,\"alloc\":\"2x2\"");
  sf<UMMA::tmem_sf_frg<SF, 32, 2, false, TmemAllocMode::ScaleFactorDuplicated4by1>, 256, 32, 1>(
      "tmem_sf_frg<ue8m0,32,2,B,4by1>", "\"operand\":\"b\",\"cta_group\":2,\"alloc\":\"4x1\"");
}

}  // namespace

int main() {
  std::printf("{\"kind\":\"header\",\"cutlass\":\"%d.%d.%d\",\"generator\":\"conformance/cutlass/gen_tmem.cpp\"}\n",
              CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH);
  ++g_lines;
  gen_ldst();
  gen_cp();
  gen_frg();
  gen_sf();
  std::fprintf(stderr, "gen_tmem: %d lines (ld/st atoms, cp atoms, tmem_frg and tmem_sf_frg layouts)\n", g_lines);
  if (g_failures) {
    std::fprintf(stderr, "gen_tmem: %d check(s) failed\n", g_failures);
    return 1;
  }
  return 0;
}
