// gen_misc.cpp: zero-column mask records of the CUTLASS vector generator (see gen_common.hpp).
//
// zmask: the raw 64 bits of a UMMA::MaskAndShiftB (uri[1] << 32 | uri[0]) whose fields were set
// here (PTX 9.7.16.4.3 examples, hand-picked and seeded random values over every field's range,
// column shift <= 32 as Table 45 allows), plus masks CUTLASS's conv helper
// UMMA::make_column_zero_mask computes.

#include "gen_common.hpp"

namespace gen {
namespace {

uint64_t zmask_raw(const UMMA::MaskAndShiftB& m) { return (uint64_t(m.uri[1]) << 32) | m.uri[0]; }

// m, n: the CTA tile a conv-helper mask was made for (0 when the fields were set by hand).
// conv_q, cta_q, skip_left, tap: the conv helper's arguments and the tap the mask is for (-1 when
// the fields were set by hand).
void zmask_record(const UMMA::MaskAndShiftB& m, const char* source, int cta_m, int cta_n, const char* difference,
                  int conv_q = -1, int cta_q = -1, int skip_left = -1, int tap = -1) {
  const uint64_t raw = zmask_raw(m);
  const unsigned fs = m.first_span_;
  Rec r("zmask");
  r.list("start_count", {m.start_count_[0], m.start_count_[1], m.start_count_[2], m.start_count_[3]})
      .list("first_span", {fs & 1, (fs >> 1) & 1, (fs >> 2) & 1, (fs >> 3) & 1})
      .num("non_zero_mask", m.nzm_).num("skip_span", m.skip_span_).num("use_span", m.use_span_)
      .num("column_shift", m.shift_).str("source", source);
  if (cta_m) r.num("cta_m", cta_m).num("cta_n", cta_n);
  if (conv_q >= 0) r.num("conv_q", conv_q).num("cta_coord_q", cta_q).num("skip_left", skip_left).num("tap", tap);
  r.hex("hex", raw, 16);
  if (difference) r.str("difference", difference);
  r.emit("zmask");
}

// Fields as stored: first_span[i] is bit i, skip/use spans are count - 1.
void zmask(std::initializer_list<int> sc, std::initializer_list<int> fs, int nzm, int skip, int use, int shift,
           const char* source = "fields") {
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
  zmask_record(m, source, 0, 0, nullptr);
}

// Masks from CUTLASS's conv helper. Its field comment says non-zero-mask 0 = "Enable the mask"; its
// code (and PTX Table 45) use 1 = generate the mask: every mask it enables is marked.
template <int CTA_M, int CTA_N>
void zmask_conv(int conv_q, int cta_coord_q, int skip_left) {
  auto masks = UMMA::make_column_zero_mask<int, 3, CTA_M, CTA_N>(conv_q, cta_coord_q, skip_left);
  for (int s = 0; s < 3; ++s)
    zmask_record(masks[s], "make_column_zero_mask", CTA_M, CTA_N, masks[s].nzm_ ? "nzm_comment_inverted" : nullptr,
                 conv_q, cta_coord_q, skip_left, s);
}

constexpr int kRandomZmask = 2000;

// Seeded calls of the conv helper for one CTA tile: row lengths conv_q in 1..300 (the use span
// saturates at 256), CTA positions 0..7 along the row, left paddings 0..2.
constexpr int kConvPerShape = 64;

template <int CTA_M, int CTA_N>
void zmask_conv_sweep(Rng& rng) {
  for (int i = 0; i < kConvPerShape; ++i) {
    const int conv_q = 1 + int(rng.below(300));
    const int cta_coord_q = int(rng.below(8));
    const int skip_left = int(rng.below(3));
    zmask_conv<CTA_M, CTA_N>(conv_q, cta_coord_q, skip_left);
  }
}

}  // namespace

void gen_misc() {
  // PTX 9.7.16.4.3 examples 1-4 ("-" entries as 0; the PTX tables list sc3..sc0, these sc0..sc3).
  zmask({0, 0, 0, 0}, {0, 0, 0, 0}, 0, 4, 3, 0, "ptx_example");
  zmask({0, 0, 0, 0}, {0, 0, 0, 0}, 1, 2, 3, 0, "ptx_example");
  zmask({0, 0, 0, 0}, {1, 0, 0, 0}, 1, 2, 3, 0, "ptx_example");
  zmask({0, 1, 2, 1}, {1, 1, 0, 0}, 1, 2, 3, 2, "ptx_example");
  // Hand-picked values: each field at its extremes.
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
  // Seeded random fields over every field's range.
  Rng rng(0x2E40A5Cull);
  for (int i = 0; i < kRandomZmask; ++i) {
    const int sc0 = int(rng.below(256)), sc1 = int(rng.below(256)), sc2 = int(rng.below(256)),
              sc3 = int(rng.below(256));
    const uint32_t fs = rng.below(16);
    const int nzm = int(rng.below(2)), skip = int(rng.below(256)), use = int(rng.below(256)),
              shift = int(rng.below(33));
    zmask({sc0, sc1, sc2, sc3}, {int(fs & 1), int((fs >> 1) & 1), int((fs >> 2) & 1), int((fs >> 3) & 1)}, nzm,
          skip, use, shift, "random");
  }
  // CUTLASS's conv helper over every CTA tile it accepts (M = 32, 64, 128: any other M divides by
  // zero; N = 64, 128, 256, the .ws N of Table 39), each with seeded convolution row lengths,
  // CTA positions and left paddings (FLT_S = 3 taps, the only filter size it takes).
  zmask_conv_sweep<32, 64>(rng);
  zmask_conv_sweep<32, 128>(rng);
  zmask_conv_sweep<32, 256>(rng);
  zmask_conv_sweep<64, 64>(rng);
  zmask_conv_sweep<64, 128>(rng);
  zmask_conv_sweep<64, 256>(rng);
  zmask_conv_sweep<128, 64>(rng);
  zmask_conv_sweep<128, 128>(rng);
  zmask_conv_sweep<128, 256>(rng);
  // And the fixed cases of the first generator.
  zmask_conv<128, 128>(56, 0, 1);
  zmask_conv<128, 128>(56, 1, 1);
  zmask_conv<128, 128>(200, 1, 2);
  zmask_conv<128, 256>(300, 0, 1);
  zmask_conv<64, 128>(28, 1, 1);
  zmask_conv<64, 64>(30, 3, 1);
  zmask_conv<32, 64>(14, 2, 1);
  zmask_conv<32, 128>(60, 0, 1);
}

}  // namespace gen
