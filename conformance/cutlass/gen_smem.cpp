// gen_smem.cpp: smem records of the CUTLASS vector generator (see gen_common.hpp).

#include "gen_common.hpp"

#include <cstring>

namespace gen {
namespace {

// ------------------------------------------------------------------------------------------------
// Shared-memory descriptors: UMMA::make_umma_desc<Major> on every K-block of a CuTe smem tile
// ------------------------------------------------------------------------------------------------

// An operand element type as a record names it (L) and the type CUTLASS keeps it in smem (S): for
// kind::f8f6f4 CUTLASS's collectives allocate 4- and 6-bit operands as uint8_t
// (SmemAllocTypeA/B in sm100_mma_warpspecialized.hpp), one element per byte.
template <class L, class S = L> struct Elem { using label = L; using storage = S; };

enum class Swz { None, B32, B64, B128, B128_32 };

constexpr const char* swz_name(Swz s) {
  return s == Swz::None ? "none" : s == Swz::B32 ? "32B" : s == Swz::B64 ? "64B" : s == Swz::B128 ? "128B"
       : "128B_base32B";
}

// Bytes of one row of the swizzle pattern (16 for no swizzle).
constexpr int swz_width(Swz s) {
  return s == Swz::None ? 16 : s == Swz::B32 ? 32 : s == Swz::B64 ? 64 : 128;
}

// The repeat of the swizzle pattern in bytes (rules.md R4); tile addresses are aligned to it, so
// base offset 0 (what CUTLASS always writes) is the right value.
constexpr uint32_t swz_repeat(Swz s) {
  return s == Swz::None ? 16 : s == Swz::B32 ? 256 : s == Swz::B64 ? 512 : 1024;
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

// Atom extents in elements, from the atom itself.
template <class T, Major MAJ, Swz S> constexpr int atom_mn() { return int(decltype(size<0>(atom<T, MAJ, S>()))::value); }
template <class T, Major MAJ, Swz S> constexpr int atom_k()  { return int(decltype(size<1>(atom<T, MAJ, S>()))::value); }

// K of one MMA instruction: 256 bits of K (16 for 16-bit, 8 for tf32, 32 for 8-bit, 64 for packed 4-bit).
template <class T> constexpr int k_per_block() { return 256 / int(sizeof_bits_v<T>); }

constexpr int gcd_(int a, int b) { return b == 0 ? a : gcd_(b, a % b); }
constexpr int lcm_(int a, int b) { return a / gcd_(a, b) * b; }

// Byte offsets between neighbouring atoms of a tile of the given extents, per the canonical layouts
// (PTX 9.7.16.4.1 / CuTe's make_umma_desc comment). Used to cross-check CUTLASS and to mark the
// records where CUTLASS writes 0 into an offset the layout never uses.
struct Canon {
  uint32_t lbo, sbo;
  bool lbo_unused, sbo_unused;   // the tile has a single atom (row group) along that offset
};

template <class T, Major MAJ, Swz S, bool KFIRST, int MNs, int Ks>
constexpr Canon canonical() {
  constexpr int bits = int(sizeof_bits_v<T>);
  constexpr int am = atom_mn<T, MAJ, S>(), ak = atom_k<T, MAJ, S>();
  constexpr uint32_t atom_bytes = uint32_t(am * ak * bits / 8);
  constexpr uint32_t n_mn = uint32_t(MNs / am), n_k = uint32_t(Ks / ak);
  // Byte distance between neighbouring atoms along MN and along K for the tiling order.
  constexpr uint32_t step_mn = KFIRST ? n_k * atom_bytes : atom_bytes;
  constexpr uint32_t step_k = KFIRST ? atom_bytes : n_mn * atom_bytes;
  Canon c{};
  if constexpr (MAJ == Major::K) {
    if constexpr (S == Swz::None) {
      // Atom = one 8x16-byte core matrix; a K-block spans 2 of them along K.
      c.lbo = step_k;
      c.sbo = step_mn;
    } else {
      c.lbo = 16;   // unused for swizzled K-major; CUTLASS writes 1 (16 bytes), R6
      c.sbo = step_mn;
    }
    c.lbo_unused = false;
    c.sbo_unused = n_mn == 1;
  } else {
    if constexpr (S == Swz::None) {
      c.lbo = step_k;
      c.sbo = step_mn;
      c.lbo_unused = false;
      c.sbo_unused = n_mn == 1;
    } else {
      c.lbo = step_mn;
      c.sbo = step_k;
      c.lbo_unused = n_mn == 1;
      c.sbo_unused = false;
    }
  }
  return c;
}

// Byte offset of K-block kb from the tile's first byte (the unswizzled layout offset of element
// (0, kb * k_per_block)).
template <class T, Major MAJ, Swz S, bool KFIRST, int MNs, int Ks>
constexpr uint32_t k_block_offset(int kb) {
  constexpr int bits = int(sizeof_bits_v<T>);
  constexpr int am = atom_mn<T, MAJ, S>(), ak = atom_k<T, MAJ, S>();
  constexpr uint32_t atom_bytes = uint32_t(am * ak * bits / 8);
  constexpr uint32_t n_mn = uint32_t(MNs / am);
  const int k = kb * k_per_block<T>();
  const uint32_t atom_index = uint32_t(k / ak);
  const uint32_t step_k = KFIRST ? atom_bytes : n_mn * atom_bytes;
  // Inside a K-major atom, K is contiguous; inside an MN-major atom a K-block starts on an atom.
  const uint32_t inner = MAJ == Major::K ? uint32_t((k % ak) * bits / 8) : 0;
  return atom_index * step_k + inner;
}

template <class T, Major MAJ, Swz S, bool KFIRST, int MNs, int Ks>
auto smem_tile(uint32_t addr) {
  using Order = conditional_t<KFIRST, Step<_2, _1>, Step<_1, _2>>;
  auto layout = tile_to_shape(atom<T, MAJ, S>(), make_shape(Int<MNs>{}, Int<Ks>{}), Order{});
  // make_smem_ptr<T>(void*) gives CuTe's sub-byte iterator for the 4-bit type, as the collectives'
  // ArrayEngine does (a plain T* would step one byte per 4-bit element).
  return make_tensor(make_smem_ptr<T>(reinterpret_cast<void*>(uintptr_t(addr))), layout);
}

uint32_t field(uint64_t raw, int lo, int width) { return uint32_t((raw >> lo) & ((1ull << width) - 1)); }

// Elements whose address a "smem_addr" record gives: every one of a tile of at most this many, a
// seeded sample of this many (and the last element) otherwise.
constexpr int kAddrSample = 256;

// A 1024-byte aligned buffer for the sub-byte tiles of smem_addr_record (as large as any tile).
alignas(1024) uint8_t g_tile_bytes[256 * 1024];

// CuTe's own element -> shared memory map of one tile: for a sample of elements (mn, k), where
// CuTe's tensor over the tile (the swizzled atom tiled to the tile's shape) puts the element, as
// [mn, k, byte address, first bit]. For 8-bit and wider storage that is the address of the
// element CuTe's `t(mn, k)` references (the swizzle applied by CuTe); for packed 4-bit storage,
// where CuTe's reference is a sub-byte proxy, the element is written through CuTe into a zeroed
// copy of the tile and the changed byte and nibble are read back. This is the layout itself, not a
// descriptor: the address-level oracle of the project's canonical_layout model. Tiles sit at
// addresses aligned to the swizzle repeat, so CuTe's swizzle of absolute address bits and of tile
// offsets agree.
template <class E, Major MAJ, Swz S, bool KFIRST, int MNs, int Ks>
void smem_addr_record(uint32_t addr) {
  using T = typename E::storage;
  using N = Ty<typename E::label>;
  constexpr int bits = int(sizeof_bits_v<T>);
  constexpr int bytes = MNs * Ks * bits / 8;
  static_assert(bytes <= int(sizeof g_tile_bytes), "the tile fits the buffer");
  auto t = smem_tile<T, MAJ, S, KFIRST, MNs, Ks>(addr);
  using Order = conditional_t<KFIRST, Step<_2, _1>, Step<_1, _2>>;
  auto layout = tile_to_shape(atom<T, MAJ, S>(), make_shape(Int<MNs>{}, Int<Ks>{}), Order{});
  auto local = make_tensor(make_smem_ptr<T>(reinterpret_cast<void*>(g_tile_bytes)), layout);
  std::string elems = "[";
  auto one = [&](int i, int j) {
    long long byte = -1, bit = -1;
    if constexpr (bits >= 8) {
      byte = (long long)reinterpret_cast<uintptr_t>(&t(i, j));
      bit = 0;
    } else {
      std::memset(g_tile_bytes, 0, size_t(bytes));
      local(i, j) = T::bitcast(0xF);
      for (int b = 0; b < bytes; ++b) {
        if (g_tile_bytes[b] == 0) continue;
        if (byte >= 0 || (g_tile_bytes[b] != 0x0F && g_tile_bytes[b] != 0xF0))
          fail("smem_addr: element (%d, %d) of a 4-bit tile wrote more than one nibble", i, j);
        byte = (long long)addr + b;
        bit = g_tile_bytes[b] == 0x0F ? 0 : 4;
      }
      if (byte < 0) fail("smem_addr: element (%d, %d) of a 4-bit tile wrote nothing", i, j);
    }
    if (elems.size() > 1) elems += ',';
    elems += "[" + std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(byte) + "," +
             std::to_string(bit) + "]";
  };
  if (MNs * Ks <= kAddrSample) {
    for (int i = 0; i < MNs; ++i)
      for (int j = 0; j < Ks; ++j) one(i, j);
  } else {
    Rng rng(0xADD0000ull ^ (uint64_t(MNs) << 20) ^ (uint64_t(Ks) << 8) ^ uint64_t(bits) ^
            (uint64_t(S) << 40) ^ (uint64_t(MAJ) << 44) ^ (uint64_t(KFIRST) << 46) ^ (uint64_t(addr) << 24));
    for (int n = 0; n + 1 < kAddrSample; ++n) one(int(rng.below(uint32_t(MNs))), int(rng.below(uint32_t(Ks))));
    one(MNs - 1, Ks - 1);
  }
  elems += "]";
  Rec r("smem_addr");
  r.str("type", N::name).str("kind", N::kind).num("elem_bits", bits)
      .str("major", MAJ == KM ? "k" : "mn").str("swizzle", swz_name(S))
      .str("order", KFIRST ? "k_first" : "mn_first").list("tile", {MNs, Ks}).hex("start", addr, 0)
      .raw("elems", elems);
  r.emit("smem_addr");
}

// Every K-block of one tile at one address.
template <class E, Major MAJ, Swz S, bool KFIRST, int MNs, int Ks>
void smem_records(uint32_t addr) {
  using T = typename E::storage;
  using N = Ty<typename E::label>;
  constexpr int kpb = k_per_block<T>();
  static_assert(Ks % kpb == 0, "the tile holds whole MMA K-blocks");
  constexpr Canon canon = canonical<T, MAJ, S, KFIRST, MNs, Ks>();
  auto t = smem_tile<T, MAJ, S, KFIRST, MNs, Ks>(addr);
  for (int kb = 0; kb < Ks / kpb; ++kb) {
    auto blk = local_tile(t, make_shape(Int<MNs>{}, Int<kpb>{}), make_coord(0, kb));
    const UMMA::SmemDescriptor d = UMMA::make_umma_desc<MAJ>(blk);
    const uint64_t raw = d.desc_;
    const uint32_t start = field(raw, 0, 14) << 4, lbo = field(raw, 16, 14) << 4, sbo = field(raw, 32, 14) << 4;
    // Self checks: CUTLASS's fields against the canonical layout; start against the K-block offset.
    const uint32_t want_start = addr + k_block_offset<T, MAJ, S, KFIRST, MNs, Ks>(kb);
    if (start != want_start)
      fail("smem %s %s-major %s %dx%d at 0x%x k-block %d: start 0x%x, expected 0x%x", N::name,
           MAJ == KM ? "K" : "MN", swz_name(S), MNs, Ks, addr, kb, start, want_start);
    const char* difference = nullptr;
    if (lbo != canon.lbo) {
      if (canon.lbo_unused && lbo == 0) difference = "unused_lbo_zero";
      else fail("smem %s %dx%d %s: LBO %u, canonical %u", N::name, MNs, Ks, swz_name(S), lbo, canon.lbo);
    }
    if (sbo != canon.sbo) {
      if (canon.sbo_unused && sbo == 0) difference = difference ? "unused_lbo_sbo_zero" : "unused_sbo_zero";
      else fail("smem %s %dx%d %s: SBO %u, canonical %u", N::name, MNs, Ks, swz_name(S), sbo, canon.sbo);
    }
    if (field(raw, 46, 3) != 1 || field(raw, 49, 3) != 0 || field(raw, 52, 1) != 0)
      fail("smem 0x%016llx: fixed bits, base offset or LBO mode not as expected", (unsigned long long)raw);
    Rec r("smem");
    r.str("type", N::name).str("kind", N::kind).num("elem_bits", int(sizeof_bits_v<T>))
        .str("major", MAJ == KM ? "k" : "mn").str("swizzle", swz_name(S))
        .str("order", KFIRST ? "k_first" : "mn_first").list("tile", {MNs, Ks}).hex("start", addr, 0)
        .num("k_block", kb).num("k_per_block", kpb).hex("hex", raw, 16);
    if (difference) r.str("difference", difference);
    r.emit("smem");
  }
}

// Tiles of a (storage width, major, swizzle, order) class, chosen at compile time from a seeded
// generator: MN a whole number of atoms (up to 256 elements or 4 atoms), K a whole number of atoms
// and of MMA K-blocks (up to 16 K-blocks or 4 atoms), at most 96 KiB.
struct TileMK { int mn, k; };
constexpr int kTilesPerClass = 4;

template <class T, Major MAJ, Swz S, bool KFIRST>
constexpr std::array<TileMK, kTilesPerClass> random_tiles() {
  constexpr int bits = int(sizeof_bits_v<T>);
  constexpr int am = atom_mn<T, MAJ, S>(), ak = atom_k<T, MAJ, S>();
  constexpr int kpb = k_per_block<T>();
  constexpr int kstep = lcm_(ak, kpb);
  constexpr int max_mn_atoms = (256 / am) > 4 ? 256 / am : 4;
  constexpr int max_k_steps = (16 * kpb / kstep) > 4 ? 16 * kpb / kstep : 4;
  Rng rng(0x5EED0000ull ^ (uint64_t(bits) << 8) ^ (uint64_t(MAJ) << 16) ^ (uint64_t(S) << 20) ^
          (uint64_t(KFIRST) << 24));
  std::array<TileMK, kTilesPerClass> out{};
  for (int i = 0; i < kTilesPerClass; ++i) {
    for (;;) {
      const int mn = am * (1 + int(rng.below(uint32_t(max_mn_atoms))));
      const int k = kstep * (1 + int(rng.below(uint32_t(max_k_steps))));
      if (mn * k * bits / 8 <= 96 * 1024) {
        out[size_t(i)] = TileMK{mn, k};
        break;
      }
    }
  }
  return out;
}

// Largest smem byte address a tile may reach (227 KiB, the sm_100 per-block maximum).
constexpr uint32_t kSmemBytes = 227 * 1024;
constexpr int kAddrsPerTile = 6;

template <class E, Major MAJ, Swz S, bool KFIRST, int MNs, int Ks>
void smem_random_addrs(Rng& rng) {
  using T = typename E::storage;
  constexpr uint32_t bytes = uint32_t(MNs * Ks * int(sizeof_bits_v<T>) / 8);
  constexpr uint32_t align = swz_repeat(S);
  const uint32_t slots = (kSmemBytes - bytes) / align + 1;
  for (int i = 0; i < kAddrsPerTile; ++i) {
    const uint32_t a = rng.below(slots) * align;
    smem_records<E, MAJ, S, KFIRST, MNs, Ks>(a);
    if (i == 0) smem_addr_record<E, MAJ, S, KFIRST, MNs, Ks>(a);
  }
}

template <class TL, Major MAJ, Swz S, bool KFIRST, size_t... I>
void smem_class(Rng& rng, std::index_sequence<I...>) {
  // Tile i uses element type i of the class's list (cycling), so every type gets tiles.
  using T0 = typename TypeAt<0, TL>::type::storage;
  constexpr auto tiles = random_tiles<T0, MAJ, S, KFIRST>();
  (smem_random_addrs<typename TypeAt<I % Len<TL>::value, TL>::type, MAJ, S, KFIRST, tiles[I].mn, tiles[I].k>(rng),
   ...);
}

template <class TL, Major MAJ, Swz S>
void smem_class_both_orders(Rng& rng) {
  smem_class<TL, MAJ, S, false>(rng, std::make_index_sequence<kTilesPerClass>{});
  smem_class<TL, MAJ, S, true>(rng, std::make_index_sequence<kTilesPerClass>{});
}

template <class TL, Major MAJ>
void smem_class_swizzles(Rng& rng) {
  smem_class_both_orders<TL, MAJ, Swz::None>(rng);
  smem_class_both_orders<TL, MAJ, Swz::B32>(rng);
  smem_class_both_orders<TL, MAJ, Swz::B64>(rng);
  smem_class_both_orders<TL, MAJ, Swz::B128>(rng);
}

// Fixed tiles (the ones the text-format vectors had, oracles.md's reference values among them) at
// fixed addresses, in CuTe's default order.
template <class T, Major MAJ, Swz S, int MNs, int Ks>
constexpr bool tile_fits() {
  return MNs % atom_mn<T, MAJ, S>() == 0 && Ks % lcm_(atom_k<T, MAJ, S>(), k_per_block<T>()) == 0;
}

template <class T, Major MAJ, Swz S, int MNs, int Ks>
void smem_fixed_tile(std::initializer_list<uint32_t> addrs) {
  if constexpr (tile_fits<T, MAJ, S, MNs, Ks>()) {
    for (uint32_t a : addrs) {
      if (a % swz_repeat(S) != 0) continue;
      smem_records<Elem<T>, MAJ, S, false, MNs, Ks>(a);
    }
  }
}

// The first tile of the list that fits the atom goes to every address, the others to 0x400.
template <class T, Major MAJ, Swz S, int MNs, int Ks>
void smem_fixed_tile_first(bool& first) {
  if constexpr (tile_fits<T, MAJ, S, MNs, Ks>()) {
    if (first) smem_fixed_tile<T, MAJ, S, MNs, Ks>({0x0, 0x400, 0x1000, 0x9000, 0x20000});
    else smem_fixed_tile<T, MAJ, S, MNs, Ks>({0x400});
    first = false;
  }
}

template <class T, Major MAJ, Swz S>
void smem_fixed_tiles() {
  bool first = true;
  smem_fixed_tile_first<T, MAJ, S, 128, 64>(first);
  smem_fixed_tile_first<T, MAJ, S, 64, 64>(first);
  smem_fixed_tile_first<T, MAJ, S, 256, 32>(first);
  smem_fixed_tile_first<T, MAJ, S, 128, 16>(first);
  smem_fixed_tile_first<T, MAJ, S, 256, 8>(first);
  smem_fixed_tile_first<T, MAJ, S, 128, 128>(first);
  smem_fixed_tile_first<T, MAJ, S, 64, 256>(first);
}

template <class T, Major MAJ>
void smem_fixed_swizzles() {
  smem_fixed_tiles<T, MAJ, Swz::None>();
  smem_fixed_tiles<T, MAJ, Swz::B32>();
  smem_fixed_tiles<T, MAJ, Swz::B64>();
  smem_fixed_tiles<T, MAJ, Swz::B128>();
}

// 8-bit types that may be MN-major (R11: not the 4/6-bit ones), and all 8-bit storage types.
using Bits8MN = TypeList<Elem<float_e4m3_t>, Elem<uint8_t>, Elem<float_e5m2_t>, Elem<int8_t>>;
using Bits8K = TypeList<Elem<float_e4m3_t>, Elem<uint8_t>, Elem<detail::float_e2m3_unpacksmem_t, uint8_t>,
                        Elem<float_e5m2_t>, Elem<int8_t>, Elem<detail::float_e3m2_unpacksmem_t, uint8_t>,
                        Elem<detail::float_e2m1_unpacksmem_t, uint8_t>>;
using Bits16 = TypeList<Elem<bfloat16_t>, Elem<half_t>>;
using Bits32 = TypeList<Elem<tfloat32_t>>;
// kind::mxf4 / mxf4nvf4 keep E2M1 packed, two per byte (float_e2m1_t, sizeof_bits 4).
using Bits4 = TypeList<Elem<float_e2m1_t>>;

// ------------------------------------------------------------------------------------------------
// Advancing a descriptor along K: CuTe's DescriptorIterator, reached through a TiledMMA fragment
// ------------------------------------------------------------------------------------------------

// Partition an MNxK smem tile for operand A (or B) of `Op`, make the descriptor fragment, and print
// the descriptor of every K-block after the first relative to the first: what a CUTLASS mainloop
// hands to tcgen05.mma for K-block k.
template <class Op, bool IsA, class T, Major MAJ, Swz S, int MNs, int Ks>
void smem_advance(uint32_t addr) {
  auto s = smem_tile<T, MAJ, S, false, MNs, Ks>(addr);
  auto mma = make_tiled_mma(Op{});
  auto thr = mma.get_slice(0);
  auto run = [&](auto const& frag) {
    const UMMA::SmemDescriptor base = frag(0, 0, 0);
    constexpr int kpb = k_per_block<T>();
    // The base must be what make_umma_desc gives for the tile's first K-block.
    const UMMA::SmemDescriptor first =
        UMMA::make_umma_desc<MAJ>(local_tile(s, make_shape(Int<MNs>{}, Int<kpb>{}), make_coord(0, 0)));
    if (base.desc_ != first.desc_)
      fail("fragment base 0x%016llx != make_umma_desc 0x%016llx", (unsigned long long)base.desc_,
           (unsigned long long)first.desc_);
    for (int k = 1; k < int(size<2>(frag)); ++k) {
      const UMMA::SmemDescriptor dk = frag(0, 0, k);
      const int units = int(frag.layout()(0, 0, k));   // tensor offset, in 16-byte units
      const UMMA::SmemDescriptor again = *(UMMA::DescriptorIterator{base} + units);
      if (again.desc_ != dk.desc_) fail("DescriptorIterator + %d disagrees with the fragment", units);
      Rec r("smem_advance");
      r.hex("base", base.desc_, 16).num("bytes", units * 16).hex("hex", dk.desc_, 16);
      r.emit("smem_advance");
    }
  };
  if constexpr (IsA) run(mma.make_fragment_A(thr.partition_A(s)));
  else run(mma.make_fragment_B(thr.partition_B(s)));
}

}  // namespace

void gen_smem_advance() {
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


void gen_smem() {
  // Fixed tiles first (uint8_t / bfloat16_t / tfloat32_t as the text-format vectors had them).
  smem_fixed_swizzles<uint8_t, KM>();
  smem_fixed_swizzles<bfloat16_t, KM>();
  smem_fixed_swizzles<tfloat32_t, KM>();
  smem_fixed_swizzles<uint8_t, MN>();
  smem_fixed_swizzles<bfloat16_t, MN>();
  smem_fixed_tiles<tfloat32_t, MN, Swz::B128_32>();
  // Random tiles at random repeat-aligned addresses.
  Rng rng(0xC0FFEE5EEDull);
  smem_class_swizzles<Bits4, KM>(rng);
  smem_class_swizzles<Bits8K, KM>(rng);
  smem_class_swizzles<Bits8MN, MN>(rng);
  smem_class_swizzles<Bits16, KM>(rng);
  smem_class_swizzles<Bits16, MN>(rng);
  smem_class_swizzles<Bits32, KM>(rng);
  // MN-major tf32: only 128B with 32-byte atomicity (R18).
  smem_class_both_orders<Bits32, MN, Swz::B128_32>(rng);
  // The f8f6f4 sub-byte types the random classes above give no tile (they take the first four
  // types of Bits8K): address maps of e3m2 and e2m1 in their byte storage.
  using E3m2 = Elem<detail::float_e3m2_unpacksmem_t, uint8_t>;
  using E2m1 = Elem<detail::float_e2m1_unpacksmem_t, uint8_t>;
  smem_addr_record<E3m2, KM, Swz::B128, false, 128, 128>(0x400);
  smem_addr_record<E3m2, KM, Swz::B32, true, 64, 64>(0x9000);
  smem_addr_record<E2m1, KM, Swz::None, false, 128, 64>(0x1000);
  smem_addr_record<E2m1, KM, Swz::B64, false, 64, 128>(0x20000);
}

}  // namespace gen
