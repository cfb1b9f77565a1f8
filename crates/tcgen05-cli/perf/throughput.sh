#!/usr/bin/env bash
# Batch-decode throughput of the release binary, in values per second, written to /dev/null.
#
#   crates/tcgen05-cli/perf/throughput.sh [VALUES]     (default 4000000; needs python3)
#   TCGEN05_BIN=path/to/tcgen05 crates/tcgen05-cli/perf/throughput.sh   (a binary built elsewhere)
#
# Inputs (made with a fixed seed in $TMPDIR/tcgen05-perf): random 64-bit and 32-bit values
# (almost all invalid, several errors each), and realistic ones (CUTLASS descriptors from
# spec/oracles.md and the PTX zero-column mask examples, near-valid). Each case runs three
# times; the best wall time counts.
set -euo pipefail
cd "$(dirname "$0")/../../.."
N="${1:-4000000}"
DIR="${TMPDIR:-/tmp}/tcgen05-perf"
mkdir -p "$DIR"
if [ -n "${TCGEN05_BIN:-}" ]; then
  BIN="$(cd "$(dirname "$TCGEN05_BIN")" && pwd)/$(basename "$TCGEN05_BIN")"
else
  cargo build --release -q -p tcgen05-cli
  BIN="$PWD/target/release/tcgen05"
fi
python3 - "$N" "$DIR" <<'PY'
import os, random, sys
n, d = int(sys.argv[1]), sys.argv[2]
def write(name, values, digits):
    path = os.path.join(d, name)
    if os.path.exists(path) and sum(1 for _ in open(path)) == n:
        return
    with open(path, "w") as f:
        f.write("".join("0x%0*x\n" % (digits, v) for v in values))
r = random.Random(1)
write("random64.txt", (r.getrandbits(64) for _ in range(n)), 16)
write("random32.txt", (r.getrandbits(32) for _ in range(n)), 8)
smem = [0x4000404000010040, 0x0000400800800040, 0x4000408000400040, 0x2000410000200040]
write("smem.txt", (r.choice(smem) + r.getrandbits(10) for _ in range(n)), 16)
idesc = [0x08100490, 0x04020000, 0x084004a8, 0xc4200490, 0x08a00480, 0x08400480]
write("idesc.txt", (r.choice(idesc) for _ in range(n)), 8)
zmask = [0x0003028000000000, 0x0203028301020100, 0x0003028100000000]
write("zmask.txt", (r.choice(zmask) for _ in range(n)), 16)
PY
best() { # command... -> best wall seconds of three runs
  local b=999999999999999
  for _ in 1 2 3; do
    local s e
    s=$(date +%s%N)
    "$@" > /dev/null 2>&1 || true
    e=$(date +%s%N)
    b=$(( (e - s) < b ? (e - s) : b ))
  done
  echo "$b"
}
printf '%-56s %12s %12s\n' "command (stdin file)" "text v/s" "--json v/s"
for c in "smem random64.txt" "smem smem.txt" "idesc random32.txt" "idesc idesc.txt" \
         "idesc random32.txt --kind f16 --cta-group 1" "zmask random64.txt" "zmask zmask.txt" \
         "zmask zmask.txt --m 32 --n 128"; do
  set -- $c
  what=$1 file=$2; shift 2
  t=$(best sh -c "\"$BIN\" decode $what - $* < \"$DIR/$file\"")
  j=$(best sh -c "\"$BIN\" decode $what - --json $* < \"$DIR/$file\"")
  printf '%-56s %12d %12d\n' "decode $what - $* < $file" $(( N * 1000000000 / t )) $(( N * 1000000000 / j ))
done
