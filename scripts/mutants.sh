#!/usr/bin/env bash
# Mutation testing with the project's own list of planted mutants
# (conformance/mutants/mutants.txt): each mutant is applied to its line, its focused test
# commands run (`cargo test --no-fail-fast ...`, each under a timeout), and the file is restored,
# also on Ctrl-C or a crash. A mutant is caught when a test command fails or times out; one
# that does not compile is reported as such (not counted as caught).
#
#   scripts/mutants.sh              every mutant; writes conformance/mutants/RESULTS.md
#   scripts/mutants.sh M01 M09      only these (RESULTS.md is not rewritten)
#   MUTANT_TIMEOUT=600 scripts/mutants.sh     seconds per test command (default 900: the first
#                                   build after a change of the core is most of it)
#
# The score is caught / (total - equivalent); equivalent mutants carry the reason no input can
# tell them from the original. Each failing test is recorded, and the tests added by issue 29
# are named in NEW_TESTS below, so RESULTS.md also gives the score main's tests had (fa0a046).
#
# The mutants build in their own target directory (target/mutants) at opt-level 1 without debug
# information: the numeric oracles run about six times faster than in a debug build, and the
# ordinary builds keep theirs. Not part of scripts/test-all.sh: about a minute per mutant on a
# 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! git diff --quiet -- crates/; then
  echo "mutants: the crates have uncommitted changes; commit or stash them first" >&2
  exit 2
fi

exec python3 - "$@" <<'PY'
import os, re, signal, subprocess, sys, time

LIST = "conformance/mutants/mutants.txt"
RESULTS = "conformance/mutants/RESULTS.md"
TIMEOUT = int(os.environ.get("MUTANT_TIMEOUT", "900"))
# Tests added by issue 29 (after fa0a046): a mutant only they catch survived main's tests.
NEW_TESTS = {
    "numerics_corners",
    "emulator_canonical",
    "check::tests::a_partly_known_idesc_is_not_taken_as_known",
    "check::tests::findings_lines_count_block_comment_newlines_and_name_the_definition",
    "ptx_reader::tests::a_minus_sign_in_an_address_subtracts",
    "ptx_reader::tests::newlines_inside_block_comments_count",
    "emulator_h100::flipping_the_base_offset_of_swizzled_a_changes_237307_values",
    "emulator_mmasim::reading_the_scale_byte_next_to_the_sf_id_changes_2357_of_4096_values",
}


def parse():
    mutants, cur = [], None
    for raw in open(LIST, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("#") or not line.strip():
            continue
        if line.startswith("== "):
            ident, _, what = line[3:].partition(" ")
            cur = {"id": ident, "what": what, "test": [], "equivalent": None}
            mutants.append(cur)
            continue
        key, _, val = line.partition(":")
        val = val.strip() if key != "from" and key != "to" else val[1:].lstrip()
        if key == "test":
            cur["test"].append(val.split())
        elif key in ("file", "from", "to", "catch", "equivalent"):
            cur[key] = val
        else:
            sys.exit(f"mutants: {LIST}: unknown key in {line!r}")
    return mutants


def apply(m):
    """Returns the original text of the file after changing the mutant's line."""
    path, _, num = m["file"].rpartition(":")
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    i = int(num) - 1
    if lines[i].count(m["from"]) != 1:
        sys.exit(f"mutants: {m['id']}: {path}:{num} does not contain {m['from']!r} once "
                 f"(the list is stale): {lines[i]!r}")
    lines[i] = lines[i].replace(m["from"], m["to"])
    open(path, "w", encoding="utf-8").write("\n".join(lines))
    return path, text


def failing_tests(out):
    """(binary, test) names of the failed tests in cargo test output."""
    failed, binary = [], "?"
    for line in out.splitlines():
        r = re.match(r"\s*Running (?:unittests )?(\S+)", line)
        if r:
            src = r.group(1)
            binary = "lib" if src.startswith("src/") else os.path.splitext(os.path.basename(src))[0]
        t = re.match(r"test (\S+) \.\.\. FAILED", line)
        if t:
            failed.append(t.group(1) if binary == "lib" else f"{binary}::{t.group(1)}")
    return failed


os.environ.update({
    "CARGO_TARGET_DIR": os.path.join(os.getcwd(), "target", "mutants"),
    "CARGO_PROFILE_DEV_OPT_LEVEL": "1",
    "CARGO_PROFILE_TEST_OPT_LEVEL": "1",
    "CARGO_PROFILE_DEV_DEBUG": "0",
    "CARGO_PROFILE_TEST_DEBUG": "0",
    # a mutant's failures are not regressions to keep in the tree
    "PROPTEST_DISABLE_FAILURE_PERSISTENCE": "1",
})
RUNNING = []  # the cargo process in flight (its own process group), killed on Ctrl-C


def cargo(args, timeout):
    p = subprocess.Popen(["cargo", "test", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    RUNNING.append(p)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return None, out
    finally:
        RUNNING.remove(p)


def run(args):
    """(status, output): status 'fail', 'pass', 'timeout' or 'build'."""
    code, out = cargo(["--no-run", *args], TIMEOUT)
    if code != 0:
        return ("build" if code is not None else "timeout"), out[-2000:]
    code, out = cargo(["--no-fail-fast", *args], TIMEOUT)
    if code is None:
        return "timeout", out
    return ("fail" if code != 0 else "pass"), out


def is_new(test):
    return any(test == n or test.startswith(n + "::") for n in NEW_TESTS)


def main():
    mutants = parse()
    want = sys.argv[1:]
    chosen = [m for m in mutants if not want or m["id"] in want]
    results = []
    restore = None

    def put_back(*_):
        for p in list(RUNNING):
            os.killpg(p.pid, signal.SIGKILL)
        if restore:
            open(restore[0], "w", encoding="utf-8").write(restore[1])
        if _:
            sys.exit(130)

    signal.signal(signal.SIGINT, put_back)
    signal.signal(signal.SIGTERM, put_back)
    # The focused commands must pass on the unchanged code first.
    commands = []
    for m in chosen:
        for t in m["test"]:
            if t not in commands:
                commands.append(t)
    for t in commands:
        status, out = run(t)
        if status != "pass":
            sys.exit(f"mutants: the unchanged code fails `cargo test {' '.join(t)}` ({status}):\n{out[-3000:]}")
    try:
        for m in chosen:
            t0 = time.time()
            restore = apply(m)
            outcome, failed, note = "survived", [], ""
            try:
                for t in m["test"]:
                    status, out = run(t)
                    if status == "build":
                        outcome, note = "does not compile", out.strip().splitlines()[-1:]
                        break
                    if status in ("fail", "timeout"):
                        outcome = "caught" if outcome != "does not compile" else outcome
                        failed += failing_tests(out) or [f"`cargo test {' '.join(t)}` ({status})"]
            finally:
                put_back()
                restore = None
            if outcome == "survived" and m.get("equivalent"):
                outcome = "equivalent"
            before = outcome == "caught" and any(not is_new(f) for f in failed)
            results.append((m, outcome, failed, before, time.time() - t0))
            print(f"{m['id']} {outcome:>16} {time.time() - t0:6.0f} s  {m['what']}"
                  + (f"  [{', '.join(failed[:3])}{' ...' if len(failed) > 3 else ''}]" if failed else ""),
                  flush=True)
    finally:
        put_back()
    equivalent = sum(r[1] == "equivalent" for r in results)
    caught = sum(r[1] == "caught" for r in results)
    before = sum(r[3] for r in results)
    scored = len(results) - equivalent
    print(f"\nmutation score: {caught} of {scored} caught ({equivalent} equivalent, "
          f"{len(results)} mutants); main's tests (fa0a046) caught {before} of {scored}")
    if subprocess.run(["git", "diff", "--quiet", "--", "crates/"]).returncode != 0:
        sys.exit("mutants: ERROR: crates/ differs from HEAD after the run")
    if not want:
        write(results, caught, before, scored, equivalent)
    if caught < scored:
        sys.exit(1)


def write(results, caught, before, scored, equivalent):
    rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                         text=True).stdout.strip()
    total = sum(r[4] for r in results)
    with open(RESULTS, "w", encoding="utf-8") as fh:
        fh.write("# Mutation testing: results\n\n")
        fh.write(f"`scripts/mutants.sh` on {rev} (the mutants of `{LIST}`, each applied alone, its "
                 f"focused tests run, then reverted); {total / 60:.0f} minutes on this machine.\n\n")
        fh.write(f"**Score: {caught} of {scored} caught** ({equivalent} equivalent "
                 f"{'mutant' if equivalent == 1 else 'mutants'}, "
                 f"{len(results)} in all). With only the tests of main at fa0a046 (before issue "
                 f"29): {before} of {scored}.\n\n")
        fh.write("| mutant | what | file | result | main's tests | failing tests |\n")
        fh.write("|---|---|---|---|---|---|\n")
        for m, outcome, failed, bef, _ in results:
            shown = ", ".join(f"`{f}`" for f in failed[:4]) + (" ..." if len(failed) > 4 else "")
            if outcome == "equivalent":
                shown = "equivalent: " + m["equivalent"]
            fh.write(f"| {m['id']} | {m['what']} | `{m['file']}` | {outcome} | "
                     f"{'caught' if bef else '-'} | {shown} |\n")


main()
PY
