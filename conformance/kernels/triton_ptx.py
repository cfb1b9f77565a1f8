"""The one step every Triton generator of this repository shares: compile a `@triton.jit` kernel
to PTX on a CPU (no GPU) with the pinned Triton 3.9.0 (conformance/kernels/setup.sh).

Used by conformance/kernels/gen_triton.py (the check corpus, sm_100a and sm_103a),
hw/run/gen_triton.py and hw/run/breadth/gen_triton.py (the interpreter's Hopper proofs, sm_90a).
Importing this module silences Triton's warnings and sets TRITON_DEFAULT_FP_FUSION=1 (unless the
environment sets it) before Triton loads; import it before `triton`. It also gives Triton a
fresh cache directory (unless TRITON_CACHE_DIR is set), removed at exit: Triton's cache key does
not cover the source file's path, so a kernel compiled in another checkout would come back from
the shared cache with that checkout's paths in its debug lines.
"""
import atexit
import os
import shutil
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
if "TRITON_CACHE_DIR" not in os.environ:
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-cache-")
    atexit.register(shutil.rmtree, os.environ["TRITON_CACHE_DIR"], True)

import triton  # noqa: E402
from ptx_dwarf import relative_to, rewrite_comp_dir  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

# The repository root, with a trailing separator.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def compile_kernel(fn, signature, constexprs, warps, arch, stages=None):
    """`fn` compiled for GPUTarget("cuda", arch, 32) with `warps` warps (and `stages` pipeline
    stages, Triton's num_stages, where given), its parameters typed by `signature` (name: Triton
    type) and the constexpr ones set by `constexprs`; the compiled kernel (`.asm["ptx"]`,
    `.metadata`)."""
    src = ASTSource(fn=fn, signature=signature, constexprs=constexprs)
    options = {"num_warps": warps}
    if stages is not None:
        options["num_stages"] = stages
    return triton.compile(src, target=GPUTarget("cuda", arch, 32), options=options)


def relative_paths(ptx):
    """The debug `.file` lines and the DWARF compile directory (DW_AT_comp_dir, `.b8` bytes of
    `.debug_info`: ptx_dwarf.py) name this checkout's absolute paths: keep them relative to the
    repository root, so that committed PTX names no machine's folders (debug lines only; the
    code is unchanged)."""
    return rewrite_comp_dir(ptx.replace(ROOT, ""), relative_to(ROOT))


def write_kernels(out, kernels, arch, only=(), describe=lambda k: ()):
    """Compiles every kernel of `kernels` (name: (fn, signature, constexprs, warps)), or those
    named in `only`, for `arch`, and writes OUT/<name>.ptx with relative paths; prints each name
    with its shared memory bytes and `describe(kernel)` on stderr."""
    os.makedirs(out, exist_ok=True)
    for name, (fn, sig, constexprs, warps) in kernels.items():
        if only and name not in only:
            continue
        k = compile_kernel(fn, sig, constexprs, warps, arch)
        with open(os.path.join(out, name + ".ptx"), "w") as f:
            f.write(relative_paths(k.asm["ptx"]))
        print(name, k.metadata.shared, *describe(k), file=sys.stderr)


def compile_ptx(fn, signature, constexprs, warps, arch=100, stages=None):
    """The PTX text of `compile_kernel`'s kernel, as Triton writes it (by default for sm_100a,
    the check corpus's target)."""
    return compile_kernel(fn, signature, constexprs, warps, arch, stages).asm["ptx"]
