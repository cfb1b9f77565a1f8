#!/usr/bin/env bash
# The Python package (crates/tcgen05-py), as a user gets it: lint the bindings, build the abi3
# wheel with maturin, install it into a fresh virtualenv with pinned test tools, then run pytest,
# mypy --strict and the examples there. Called by scripts/test-all.sh; runs alone too.
#
# Everything is installed under .cache/ (git-ignored): .cache/py-build holds maturin,
# .cache/py-wheels the built wheel, .cache/py-test the test virtualenv (recreated every run).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
. conformance/pinned-venv.sh

step() { printf '\n==> %s\n' "$*"; }

# Pins, with every dependency (installed --no-deps, so that nothing unpinned comes in). triton
# 3.9.0 needs none on Python 3.11; examples/python/triton_descriptors.py compiles a kernel with it,
# crates/tcgen05-py/tests/test_triton.py compiles and runs kernels with it (tcgen05.triton).
# ml_dtypes 0.6.0 (needs only NumPy) gives the bfloat16 and float8 arrays of test_run.py.
BUILD_PINS=(maturin==1.16.0)
TEST_PINS=(
  numpy==2.4.6
  pytest==9.2.0 iniconfig==2.3.1 packaging==26.3 pluggy==1.7.0 Pygments==2.21.0
  hypothesis==6.170.15 sortedcontainers==2.4.0
  mypy==2.4.1 mypy_extensions==1.2.0 typing_extensions==4.16.0 pathspec==1.1.1 librt==0.16.0
  ast_serialize==0.13.1
  triton==3.9.0 ml_dtypes==0.6.0
)

step "python bindings: format and lints (their own cargo workspace)"
(cd crates/tcgen05-py && cargo fmt -- --check && cargo clippy --all-targets -- -D warnings)

step "python bindings: build the abi3 wheel with maturin ${BUILD_PINS[0]#*==}"
pinned_venv py-build "$root/.cache/py-build" "${BUILD_PINS[@]}"
rm -rf .cache/py-wheels
(cd crates/tcgen05-py && "$root/.cache/py-build/bin/maturin" build --release --quiet \
  --out "$root/.cache/py-wheels")
wheel=$(ls .cache/py-wheels/tcgen05-*-abi3-*.whl)
echo "built $wheel"

step "python bindings: install the wheel into a fresh virtualenv (.cache/py-test)"
rm -rf .cache/py-test
pinned_venv py-test "$root/.cache/py-test" "${TEST_PINS[@]}"
.cache/py-test/bin/python -m pip install --quiet --disable-pip-version-check --no-deps "$wheel"
py=.cache/py-test/bin/python
# The installed package, not the source tree, is what the tests import.
(cd /tmp && "$root/$py" -c 'import tcgen05, sys; print("tcgen05", tcgen05.__version__, "from", tcgen05.__file__)')

step "python bindings: pytest (every entry point, CUTLASS vectors, Hypothesis properties)"
"$py" -m pytest -q -p no:cacheprovider crates/tcgen05-py/tests

step "python bindings: mypy --strict on the examples, the tests and the package's own sources"
"$py" -m mypy --strict --no-incremental --cache-dir=/dev/null examples/python crates/tcgen05-py/tests
"$py" -m mypy --strict --no-incremental --cache-dir=/dev/null -p tcgen05

step "python bindings: examples"
for ex in examples/python/*.py; do
  echo "--- $ex"
  "$py" "$ex"
done
