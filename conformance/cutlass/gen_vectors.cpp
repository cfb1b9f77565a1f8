// gen_vectors.cpp: main of the CUTLASS vector generator: runs the parts (gen_smem.cpp,
// gen_idesc.cpp, gen_misc.cpp) in order and checks that oracles.md's reference values are among the
// records. See gen_common.hpp and conformance/cutlass/README.md.

#include "gen_common.hpp"

namespace gen {
namespace {

// ------------------------------------------------------------------------------------------------
// Reference values (oracles.md section 2): they must appear in the output
// ------------------------------------------------------------------------------------------------

struct Expect {
  const char* part;    // a substring of the record (its configuration)
  const char* hex;     // its "hex"
};

const Expect kExpected[] = {
    {"\"desc\":\"smem\",\"type\":\"bf16\",\"kind\":null,\"elem_bits\":16,\"major\":\"k\",\"swizzle\":\"128B\","
     "\"order\":\"mn_first\",\"tile\":[128,64],\"start\":\"0x400\",\"k_block\":0,",
     "0x4000404000010040"},
    {"\"major\":\"k\",\"swizzle\":\"128B\",\"order\":\"mn_first\",\"tile\":[128,64],\"start\":\"0x400\",\"k_block\":1,"
     "\"k_per_block\":16,",
     "0x4000404000010042"},
    {"\"major\":\"k\",\"swizzle\":\"128B\",\"order\":\"mn_first\",\"tile\":[128,64],\"start\":\"0x400\",\"k_block\":3,"
     "\"k_per_block\":16,",
     "0x4000404000010046"},
    {"\"elem_bits\":16,\"major\":\"k\",\"swizzle\":\"none\",\"order\":\"mn_first\",\"tile\":[128,16],\"start\":\"0x400\","
     "\"k_block\":0,",
     "0x0000400800800040"},
    {"\"elem_bits\":16,\"major\":\"mn\",\"swizzle\":\"128B\",\"order\":\"mn_first\",\"tile\":[128,64],\"start\":\"0x400\","
     "\"k_block\":0,",
     "0x4000408000400040"},
    {"\"elem_bits\":16,\"major\":\"mn\",\"swizzle\":\"128B\",\"order\":\"mn_first\",\"tile\":[128,64],\"start\":\"0x400\","
     "\"k_block\":1,",
     "0x4000408000400140"},
    {"\"elem_bits\":32,\"major\":\"mn\",\"swizzle\":\"128B_base32B\",\"order\":\"mn_first\",\"tile\":[256,8],"
     "\"start\":\"0x400\",\"k_block\":0,",
     "0x2000410000200040"},
    {"\"desc\":\"smem_advance\",\"base\":\"0x4000404000010040\",\"bytes\":32,", "0x4000404000010042"},
    {"\"desc\":\"smem_advance\",\"base\":\"0x4000404000010040\",\"bytes\":64,", "0x4000404000010044"},
    {"\"desc\":\"smem_advance\",\"base\":\"0x4000404000010040\",\"bytes\":96,", "0x4000404000010046"},
    {"\"desc\":\"smem_advance\",\"base\":\"0x4000408000400040\",\"bytes\":4096,", "0x4000408000400140"},
#define DENSE_FLAGS "\"transpose_a\":false,\"transpose_b\":false,\"negate_a\":false,\"negate_b\":false,"
    {"\"kind\":\"f16\",\"m\":128,\"n\":64,\"d_type\":\"f32\",\"a_type\":\"bf16\",\"b_type\":\"bf16\"," DENSE_FLAGS
     "\"saturate\":false,\"sparse\":false,\"sparsity_selector\":0,\"max_shift\":0,", "0x08100490"},
    {"\"kind\":\"f16\",\"m\":64,\"n\":8,\"d_type\":\"f16\",\"a_type\":\"f16\",\"b_type\":\"f16\"," DENSE_FLAGS
     "\"saturate\":false,\"sparse\":false,\"sparsity_selector\":0,\"max_shift\":0,", "0x04020000"},
    {"\"kind\":\"i8\",\"m\":128,\"n\":256,\"d_type\":\"s32\",\"a_type\":\"s8\",\"b_type\":\"s8\"," DENSE_FLAGS
     "\"saturate\":true,\"sparse\":false,\"sparsity_selector\":0,\"max_shift\":0,", "0x084004a8"},
    {"\"kind\":\"f16\",\"m\":64,\"n\":128,\"d_type\":\"f32\",\"a_type\":\"bf16\",\"b_type\":\"bf16\"," DENSE_FLAGS
     "\"saturate\":false,\"sparse\":false,\"sparsity_selector\":0,\"max_shift\":32,", "0xc4200490"},
    {"\"kind\":\"mxf4\",\"m\":128,\"n\":128,\"d_type\":\"f32\",\"a_type\":\"e2m1\",\"b_type\":\"e2m1\"," DENSE_FLAGS
     "\"saturate\":false,\"sparse\":false,\"sparsity_selector\":0,\"max_shift\":0,\"scale_type\":\"ue8m0\","
     "\"sfa_id\":0,\"sfb_id\":0,\"k96\":false,", "0x08a00480"},
    {"\"kind\":\"mxf4nvf4\",\"m\":128,\"n\":256,\"d_type\":\"f32\",\"a_type\":\"e2m1\",\"b_type\":\"e2m1\","
     DENSE_FLAGS "\"saturate\":false,\"sparse\":false,\"sparsity_selector\":0,\"max_shift\":0,"
     "\"scale_type\":\"ue4m3\",\"sfa_id\":0,\"sfb_id\":0,\"k96\":false,", "0x08400480"},
#undef DENSE_FLAGS
};

void check_expected() {
  for (const Expect& e : kExpected) {
    const std::string part(e.part);
    const std::string hex = std::string("\"hex\":\"") + e.hex + "\"";
    bool found = false, right = false;
    for (const auto& l : g_lines) {
      if (l.find(part) == std::string::npos) continue;
      found = true;
      right = right || l.find(hex) != std::string::npos;
    }
    if (!found) fail("reference example missing: %s", e.part);
    else if (!right) fail("reference example has a different value (want %s): %s", e.hex, e.part);
  }
}

}  // namespace
}  // namespace gen

int main() {
  using namespace gen;
  gen_smem();
  gen_smem_advance();
  gen_idesc();
  gen_misc();
  check_expected();
  std::string counts;
  for (const auto& kv : g_counts) counts += " " + kv.first + "=" + std::to_string(kv.second);
  std::fprintf(stderr, "gen_vectors: CUTLASS %d.%d.%d, %zu records:%s\n", CUTLASS_MAJOR, CUTLASS_MINOR,
               CUTLASS_PATCH, g_lines.size(), counts.c_str());
  if (g_failures) {
    std::fprintf(stderr, "gen_vectors: %d check(s) failed\n", g_failures);
    return 1;
  }
  return 0;
}
