#!/usr/bin/env bash
# Runs the fuzz harnesses of a fuzz build (MCMSIM_FUZZ=ON, target `fuzzers`) for a bounded time
# each, two at a time, and fails if any of them finds a crash, UB, a leak, a timeout or an
# out-of-memory. `make fuzz-smoke` and CI call this; so can a human, for longer runs.
#
#   tests/fuzz/run_fuzzers.sh BUILD_DIR SECONDS [HARNESS...]
#
# HARNESS is arch_config, plan, workload_json, scalesim_csv, onnx or chakra (default: all). Seeds and
# dictionaries are regenerated first (tests/fuzz/make_seeds.py). Under BUILD_DIR/fuzz/:
#   corpus/<harness>/     inputs the fuzzer found interesting, kept between runs
#   artifacts/<harness>/  crash-*, leak-*, timeout-*, oom-* reproducers
#   logs/<harness>.log    libFuzzer's output
# Replay a reproducer with BUILD_DIR/tests/fuzz/fuzz_<harness> FILE. FUZZ_JOBS sets how many
# harnesses run at once (default 2), FUZZ_ARGS adds libFuzzer flags.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 BUILD_DIR SECONDS [HARNESS...]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
seconds=$2
shift 2
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then harnesses=(arch_config plan workload_json scalesim_csv onnx chakra); fi
jobs=${FUZZ_JOBS:-2}
here=$(cd "$(dirname "$0")" && pwd)
out=$build/fuzz

python3 "$here/make_seeds.py" "$build"
mkdir -p "$out/logs"

# A stack trace for UB as for ASan findings; UB already aborts (compiled without recovery).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

run_one() {
  local h=$1 bin=$build/tests/fuzz/fuzz_$1
  mkdir -p "$out/corpus/$h" "$out/artifacts/$h"
  # New inputs go to the first directory (corpus); the seeds are only read. -timeout: an
  # input that takes seconds is a finding (the readers are meant to be fast on any input).
  # shellcheck disable=SC2086
  "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -dict="$out/dict/$h.dict" -artifact_prefix="$out/artifacts/$h/" ${FUZZ_ARGS:-} \
    "$out/corpus/$h" "$out/seeds/$h" >"$out/logs/$h.log" 2>&1
}

status=0
pids=()
names=()
wait_one() {
  local pid=${pids[0]} h=${names[0]}
  pids=("${pids[@]:1}")
  names=("${names[@]:1}")
  if wait "$pid"; then
    echo "fuzz: $h: ok ($(grep -E '^stat::number_of_executed_units' "$out/logs/$h.log" | awk '{print $2}') executions)"
  else
    status=1
    echo "fuzz: $h: FAILED, log $out/logs/$h.log; reproducers:"
    ls "$out/artifacts/$h" || true
    grep -E 'ERROR: |runtime error|fuzz: |Test unit written' "$out/logs/$h.log" | head -20 || true
  fi
}

for h in "${harnesses[@]}"; do
  if [ ! -x "$build/tests/fuzz/fuzz_$h" ]; then
    echo "fuzz: no harness $build/tests/fuzz/fuzz_$h (build the fuzzers target)" >&2
    exit 2
  fi
  if [ ${#pids[@]} -ge "$jobs" ]; then wait_one; fi
  run_one "$h" &
  pids+=($!)
  names+=("$h")
done
while [ ${#pids[@]} -gt 0 ]; do wait_one; done
exit $status
