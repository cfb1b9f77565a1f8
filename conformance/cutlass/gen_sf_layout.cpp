// gen_sf_layout.cpp: print the global-memory scale-factor layouts that NVIDIA's CUTLASS headers build
// for block-scaled GEMMs, as JSON lines (conformance/vectors/cutlass-4.2.0-sf-layout.jsonl).
//
// Host-only program (C++17, g++, no CUDA compiler, no GPU). Every offset printed here is computed by
// evaluating CUTLASS's own CuTe layouts:
//   Sm1xxBlockScaledConfig<V>::tile_atom_to_shape_SFA / _SFB   (cutlass/detail/sm100_blockscaled_layout.hpp)
//   Sm103BlockScaledConfig<V>::tile_atom_to_shape_SFA / _SFB   (cutlass/detail/sm103_blockscaled_layout.hpp)
//   Sm1xxBlockScaledTensorConfig::tile_atom_to_shape           (the same file; no vector size)
// for V = 16 and 32 and a sweep of problem shapes (M, N, K, L), including shapes that are not
// multiples of the 128-row tile or the 4-block K group (CuTe's tile_to_shape rounds the tiling up).
//
// One record per (configuration, operand, problem shape):
//   {"kind":"sf_layout","config":..,"vec":V,"operand":"SFA"|"SFB"|"SF","rows":R,"k_blocks":B,"batches":L,
//    "cosize":C,"offsets":[...]}
// offsets[(l * R + r) * B + b] is the layout's value at (row r, K element b * V, batch l), i.e. the
// byte offset of the scale factor of row r, K block b. The program checks that every K element of a
// block maps to the block's offset (stride 0 inside a block) and fails otherwise.
// The exit status is non-zero when a self check fails.

#include <cutlass/version.h>
#include <cute/tensor.hpp>
#include <cutlass/detail/sm100_blockscaled_layout.hpp>
#include <cutlass/detail/sm103_blockscaled_layout.hpp>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>

using namespace cute;

namespace {

int g_failures = 0;
int g_records = 0;

void fail(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fputs("gen_sf_layout: FAIL: ", stderr);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  va_end(ap);
  ++g_failures;
}

// Prints one record for a layout over (rows, K elements, batches) with `vec` elements per K block.
template <class Layout>
void emit(const char* config, int vec, const char* operand, Layout layout, int rows, int k, int batches) {
  int blocks = k / vec;
  std::printf("{\"kind\":\"sf_layout\",\"config\":\"%s\",\"vec\":%d,\"operand\":\"%s\",\"rows\":%d,"
              "\"k_blocks\":%d,\"batches\":%d,\"cosize\":%d,\"offsets\":[",
              config, vec, operand, rows, blocks, batches, int(cosize(layout)));
  bool first = true;
  for (int l = 0; l < batches; ++l) {
    for (int r = 0; r < rows; ++r) {
      for (int b = 0; b < blocks; ++b) {
        int off = int(layout(r, b * vec, l));
        for (int e = 1; e < vec; ++e) {
          if (int(layout(r, b * vec + e, l)) != off) {
            fail("%s %s rows %d K %d: element %d of block %d of row %d has another offset", config,
                 operand, rows, k, e, b, r);
          }
        }
        std::printf("%s%d", first ? "" : ",", off);
        first = false;
      }
    }
  }
  std::printf("]}\n");
  ++g_records;
}

// The problem shapes: (M, N, K in K blocks, L). M and N include values off the 128-row tile; the
// K-block counts include 3 and 6 (K = 96 of sm_103a with vector 32 and 16) and counts off the
// 4-block group.
struct Shape4 {
  int m, n, kb, l;
};
const Shape4 kShapes[] = {
    {128, 128, 4, 1}, {64, 128, 4, 1},  {256, 256, 8, 1}, {128, 64, 2, 1},  {1, 1, 1, 1},
    {100, 200, 3, 1}, {129, 257, 5, 1}, {256, 64, 6, 1},  {300, 130, 12, 1}, {128, 256, 4, 2},
    {192, 192, 7, 2}, {64, 32, 1, 3},
};

template <int V>
void sweep_config() {
  using Cfg = cutlass::detail::Sm1xxBlockScaledConfig<V>;
  using Cfg103 = cutlass::detail::Sm103BlockScaledConfig<V>;
  for (const Shape4& s : kShapes) {
    auto shape = make_shape(s.m, s.n, s.kb * V, s.l);
    emit("Sm1xxBlockScaledConfig", V, "SFA", Cfg::tile_atom_to_shape_SFA(shape), s.m, s.kb * V, s.l);
    emit("Sm1xxBlockScaledConfig", V, "SFB", Cfg::tile_atom_to_shape_SFB(shape), s.n, s.kb * V, s.l);
    emit("Sm103BlockScaledConfig", V, "SFA", Cfg103::tile_atom_to_shape_SFA(shape), s.m, s.kb * V, s.l);
    emit("Sm103BlockScaledConfig", V, "SFB", Cfg103::tile_atom_to_shape_SFB(shape), s.n, s.kb * V, s.l);
  }
}

void sweep_tensor_config() {
  using Cfg = cutlass::detail::Sm1xxBlockScaledTensorConfig;
  for (const Shape4& s : kShapes) {
    // Rows M, columns = scale factors (one per K block), batches L.
    emit("Sm1xxBlockScaledTensorConfig", 1, "SF", Cfg::tile_atom_to_shape(make_shape(s.m, s.kb, s.l)), s.m,
         s.kb, s.l);
  }
}

}  // namespace

int main() {
  std::printf("{\"kind\":\"header\",\"cutlass\":\"%d.%d.%d\",\"generator\":\"conformance/cutlass/gen_sf_layout.cpp\"}\n",
              CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH);
  sweep_config<16>();
  sweep_config<32>();
  sweep_tensor_config();
  std::fprintf(stderr, "gen_sf_layout: %d sf_layout records\n", g_records);
  if (g_failures) {
    std::fprintf(stderr, "gen_sf_layout: %d check(s) failed\n", g_failures);
    return 1;
  }
  return 0;
}
