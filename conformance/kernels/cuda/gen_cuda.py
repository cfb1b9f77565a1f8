"""Compile the hand-written Blackwell TMA GEMM (tma_gemm.cu) to PTX with the pinned nvcc.

Besides the four GEMMs, two published bugs and their fixes (tma_gemm.cu's switches, tested by
crates/tcgen05-run/tests/published_bugs.rs): `cuda_bug_*` is found by `--hazards`,
`cuda_fixed_*` is clean.

Usage: python gen_cuda.py OUT_DIR CUDA_INCLUDE_DIR
  (conformance/kernels/setup.sh installs nvcc 13.5.37; CUDA_INCLUDE_DIR is the last directory of
  its CUTLASS_INCLUDES, whose ../bin holds nvcc; conformance/kernels/cuda/generate.sh runs this.)

One PTX file per configuration (sm_100a, -O3 by default, no -G or -lineinfo, so the PTX names no
path), each with one kernel of the same name. A configuration is the number of shared-memory
stages and the element type (bf16 or f16); `cuda_tma_gemm_<type>_s<stages>` is both the file's
stem and the kernel's name. The kernel's parameters: two tensor maps (A: M x K, B: N x K, 16-bit
elements, boxes of 128 rows x 64 columns, 128B swizzle), C (f32, M x N), M, N, K.
"""
import os
import subprocess
import sys

# name: (stages, f16?, extra -D switches of tma_gemm.cu)
KERNELS = {
    "cuda_tma_gemm_bf16_s1": (1, False, []),
    "cuda_tma_gemm_bf16_s2": (2, False, []),
    "cuda_tma_gemm_bf16_s3": (3, False, []),
    "cuda_tma_gemm_f16_s2": (2, True, []),
    # triton-lang/triton#10196 (wrong mbarrier arrival count): one arrival per warp on an
    # mbarrier initialised for one per thread; fixed: the count is the number of warps.
    "cuda_bug_arrive_count": (2, False, ["-DARRIVE_PER_WARP", "-DACC_EMPTY_COUNT=128"]),
    "cuda_fixed_arrive_count": (2, False, ["-DARRIVE_PER_WARP", "-DACC_EMPTY_COUNT=4"]),
    # triton-lang/triton#10821's pattern: the next tile's MMAs overwrite the accumulator before
    # the epilogue's tcgen05.ld's are known complete; fixed: the MMA thread waits on acc_empty
    # (the same code as cuda_tma_gemm_bf16_s2, under its own name).
    "cuda_bug_acc_reuse": (2, False, ["-DACC_REUSE_BUG"]),
    "cuda_fixed_acc_reuse": (2, False, []),
}


def main():
    out, include = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    here = os.path.dirname(os.path.abspath(__file__))
    nvcc = os.path.join(include, "..", "bin", "nvcc")
    os.makedirs(out, exist_ok=True)
    for name, (stages, f16, switches) in KERNELS.items():
        cmd = [nvcc, "-arch=sm_100a", "-ptx", "-std=c++17", f"-DSTAGES={stages}",
               f"-DKERNEL_NAME={name}", *switches, "-o", os.path.join(out, name + ".ptx"),
               os.path.join(here, "tma_gemm.cu")]
        if f16:
            cmd.insert(4, "-DELEM_F16")
        subprocess.run(cmd, check=True, cwd=here)
        print(name, file=sys.stderr)


if __name__ == "__main__":
    main()
