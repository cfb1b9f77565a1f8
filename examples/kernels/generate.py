"""Compile the sample kernels of the README with the pinned compilers (no GPU needed).

Usage: python generate.py OUT_DIR INCLUDE_DIR... (the CUTLASS, CCCL and CUDA include directories)

Writes six PTX files for sm_100a, small enough to commit and read:
  triton_gemm_bf16.ptx          Triton 3.9.0 `tl.dot`, bf16 x bf16 -> f32, 128 x 128 x 64 tiles
  triton_dot_scaled_mxfp8.ptx   Triton 3.9.0 `tl.dot_scaled`, e4m3 with ue8m0 scales (mxf8f6f4)
  cutlass_bf16_128x128.ptx      CUTLASS 4.2.0 (CuTe) SM100_MMA_F16BF16_SS with nvcc 13.5.37
  gluon_pair_dot_f16.ptx        Triton 3.9.0 Gluon, a two-CTA `tcgen05_mma` (.cta_group::2),
                                f16 x f16 -> f32, 256 x 128 x 64 on a cluster of 2 CTAs
  gluon_multicast_dot_f16.ptx   Gluon, TMA multicast on a 2 x 2 cluster, 256 x 128 x 128
  gluon_pair_tma_dot_f16.ptx    Gluon, two-CTA MMA fed by `cp.async.bulk.tensor.cta_group::2`,
                                256 x 128 x 128 on a cluster of 2 CTAs
The kernels are the check corpus's (conformance/kernels/gen_triton.py, gen_cutlass.py); this
script picks three of them, adds the Gluon cluster kernels of gen_gluon.py, and names them for
the README. examples/kernels/generate.sh runs it and compares the result with the committed files.
"""
import os
import sys
import tempfile

# No line information: it would record this checkout's absolute path in a `.file` directive.
os.environ["TRITON_DISABLE_LINE_INFO"] = "1"
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "conformance", "kernels"))

import gen_cutlass  # noqa: E402
import gen_gluon  # noqa: E402
import gen_triton  # noqa: E402


def triton_gemm_bf16():
    sig = {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32", "K": "i32", "BM": "constexpr",
           "BN": "constexpr", "BK": "constexpr", "PRECISION": "constexpr"}
    return gen_triton.compile_ptx(gen_triton.dot_kernel, sig,
                                  {"BM": 128, "BN": 128, "BK": 64, "PRECISION": "ieee"}, 4)


def triton_dot_scaled_mxfp8():
    sig = {"a_ptr": "*u8", "b_ptr": "*u8", "sa_ptr": "*u8", "sb_ptr": "*u8", "c_ptr": "*fp32",
           "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr",
           "FMT": "constexpr", "PACK": "constexpr"}
    return gen_triton.compile_ptx(gen_triton.dot_scaled_kernel, sig,
                                  {"BM": 128, "BN": 128, "BK": 128, "FMT": "e4m3", "PACK": 1}, 4)


def cutlass_bf16_128x128(includes):
    # nvcc names internal symbols after a hash of the source path: compile a relative path
    # from a scratch directory so that the PTX does not depend on where it was built.
    includes = [os.path.abspath(i) for i in includes]
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            name = "cutlass_bf16_bf16_f32_128x128"
            gen_cutlass.build(".", includes, name, gen_cutlass.KERNELS[name])
            with open(name + ".ptx") as f:
                return f.read()
        finally:
            os.chdir(cwd)


def main():
    out = sys.argv[1]
    includes = sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    for name, ptx in [("triton_gemm_bf16", triton_gemm_bf16()),
                      ("triton_dot_scaled_mxfp8", triton_dot_scaled_mxfp8()),
                      ("cutlass_bf16_128x128", cutlass_bf16_128x128(includes)),
                      ("gluon_pair_dot_f16", gen_gluon.pair_dot_ptx()),
                      ("gluon_multicast_dot_f16", gen_gluon.multicast_dot_ptx()),
                      ("gluon_pair_tma_dot_f16", gen_gluon.pair_tma_dot_ptx())]:
        with open(os.path.join(out, name + ".ptx"), "w") as f:
            f.write(ptx)
        print(name, file=sys.stderr)


if __name__ == "__main__":
    main()
