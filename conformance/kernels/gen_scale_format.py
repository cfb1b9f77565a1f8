"""Write the block-scaled instruction descriptors of NVIDIA's CuTe DSL 4.8.1 (the newer layout with
the two-bit scale format, bits 23-24: UE4M3 = 0, E8M0 = 1, UE5M3 = 2) as conformance vectors.

Usage: python gen_scale_format.py OUT_FILE   (with the CuTe DSL virtualenv of setup.sh)

Each record: the builder (`Tcgen05MxInstrDesc` for .kind::mxf8f6f4 and .kind::mxf4,
`Tcgen05MxOmmaInstrDesc` for .kind::mxf4nvf4), the kind, M, N, the scale format asked for and the
32-bit word the builder wrote. No GPU is needed: the builders pack plain integers.
crates/tcgen05/tests/scale_format_vectors.rs reads the file (rules.md D9).
"""
import json
import sys

import cutlass
from cutlass.experimental.primitives.descriptors import (
    MxScaleFormat,
    Tcgen05MxInstrDesc,
    Tcgen05MxOmmaInstrDesc,
)

E2M1 = cutlass.Float4E2M1FN
E4M3 = cutlass.Float8E4M3FN


def main():
    out = sys.argv[1]
    records = []
    shapes = [(128, 64), (128, 256), (256, 128), (256, 256)]
    for fmt in MxScaleFormat:
        for m, n in shapes:
            for kind, builder, dtype in [
                ("mxf8f6f4", Tcgen05MxInstrDesc, E4M3),
                ("mxf4", Tcgen05MxInstrDesc, E2M1),
                ("mxf4nvf4", Tcgen05MxOmmaInstrDesc, E2M1),
            ]:
                d = builder.build(a_dtype=dtype, b_dtype=dtype, scale_format=int(fmt), n_dim=n, m_dim=m)
                records.append({"builder": builder.__name__, "kind": kind, "m": m, "n": n,
                                "scale_format": fmt.name, "code": int(fmt),
                                "word": int(d.value) & 0xFFFFFFFF})
    with open(out, "w") as f:
        for r in records:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print(f"gen_scale_format.py: {len(records)} records", file=sys.stderr)


if __name__ == "__main__":
    main()
