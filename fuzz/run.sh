#!/usr/bin/env bash
# Runs every fuzz target for a given time and prints seconds and executions per target.
#
#   fuzz/run.sh [SECONDS_PER_TARGET]   (default 60; needs `cargo +nightly` and cargo-fuzz)
#   TARGETS="smem ptx" fuzz/run.sh 300
#
# Each target starts from its committed corpus (fuzz/corpus/<target>) and the hand-written seeds
# (fuzz/seeds/<target>); new inputs go into the corpus (minimise with `cargo fuzz cmin` before
# committing). Crashes are written to fuzz/artifacts/<target>/ and make this script fail.
set -euo pipefail
cd "$(dirname "$0")"
# cargo-fuzz as README installs it (under the git-ignored .cache/), else from PATH.
export PATH="$PWD/../.cache/cargo-fuzz/bin:$PATH"
secs=${1:-60}
targets=${TARGETS:-"smem idesc zmask zmask_text numbers_names batch ptx"}
cargo +nightly fuzz build -O
bin=target/x86_64-unknown-linux-gnu/release
mkdir -p logs
failed=0
for t in $targets; do
  mkdir -p "corpus/$t" "artifacts/$t"
  start=$(date +%s)
  rc=0
  extra=()
  # batch::run leaves its worker threads to end with the process (batch.rs), so their
  # thread-local state is still allocated when LeakSanitizer looks: not a leak of the library.
  [ "$t" = batch ] && extra=(-detect_leaks=0)
  (cd logs && nice -n 19 "../$bin/$t" "../corpus/$t" "../seeds/$t" -max_total_time="$secs" \
    -jobs=1 -print_final_stats=1 -artifact_prefix="../artifacts/$t/" "${extra[@]}" \
    >/dev/null 2>&1) || rc=$?
  mv logs/fuzz-0.log "logs/$t.log" 2>/dev/null || true
  end=$(date +%s)
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' | tail -1 || true)
  printf '%-14s %5d s %12s executions  exit %d\n' "$t" $((end - start)) "${execs:-?}" "$rc"
  [ "$rc" = 0 ] || failed=1
done
exit $failed
