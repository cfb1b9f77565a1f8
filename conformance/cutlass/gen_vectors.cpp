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
