#!/usr/bin/env bash
# The suite under AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer included), and
# the threaded VC network under ThreadSanitizer (docs/hardening.md#sanitizers). `make
# test-sanitized` and CI run this; so can a human.
#
#   scripts/test_sanitized.sh [asan] [tsan]        (both when none is named)
#
# Environment:
#   SAN_SUITE       ci (default): the subset below, sized for CI; full: every test of the suite
#   SAN_BUILD_DIR   the ASan/UBSan build tree (default build-asan)
#   TSAN_BUILD_DIR  the TSan build tree (default build-tsan)
#   JOBS            parallel compile and test jobs (default: the cores)
# Any report of a sanitizer fails the test that hit it (UB aborts: the build does not recover).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

suite=${SAN_SUITE:-ci}
asan_dir=${SAN_BUILD_DIR:-build-asan}
tsan_dir=${TSAN_BUILD_DIR:-build-tsan}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
parts=("$@")
if [ ${#parts[@]} -eq 0 ]; then parts=(asan tsan); fi
case $suite in ci | full) ;; *) echo "SAN_SUITE must be ci or full, not '$suite'" >&2; exit 2 ;; esac

export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
# A stack trace for UB as for the other findings.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

# configure DIR SANITIZERS: optimised for the run time of the suite, line tables for the
# reports; no full debug info, which costs compile and link time and no report needs.
configure() {
    cmake -S "$root" -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
        -DMCMSIM_SANITIZE="$2" > /dev/null
}

# The CI subset covers every source folder at a fraction of the suite's time: the mcmsim
# command line on good and bad input (every reader, the mapper, both evaluators, reports,
# sweeps over child processes and MPI ranks) and the unit tests of the SystemC models (DRAM,
# chiplets, the package network, the system). Left out: tests whose time under ASan goes to
# CBC's allocations (the optimisers' exhaustive comparisons; the sanitizer does not see into
# CBC anyway), the browser test of the HTML reports, the accuracy tables (long runs of the
# paths that end_to_end and the golden outputs already take), and the tree checks, which do
# not run a binary.
ci_targets=(mcmsim test_hw_dram test_chiplets test_sim)
ci_tests='^(cli_bad_inputs|cli_bad_corpus|cli_end_to_end|cli_sweep|golden_outputs|Dram.*|Presets/.*|Chiplet.*|System.*|ImportedVit.*)$'
full_exclude='^tree_'

run_asan() {
    echo "== ASan + UBSan ($suite) in $asan_dir"
    configure "$asan_dir" address,undefined
    if [ "$suite" = full ]; then
        cmake --build "$asan_dir" -j "$jobs"
        (cd "$asan_dir" && ctest --output-on-failure -j "$jobs" -E "$full_exclude")
    else
        cmake --build "$asan_dir" -j "$jobs" --target "${ci_targets[@]}"
        (cd "$asan_dir" && ctest --output-on-failure -j "$jobs" -R "$ci_tests")
    fi
}

# The threads under TSan: the VC network's workers (noc/vc/lane_worker.cpp) in its unit tests,
# on 4x4 and 8x8 meshes and tori at two threads, and the genetic optimiser's evaluation
# threads. The command line adds no thread of its own, so it is not built here: that keeps a
# third build of the whole tree out of CI. The network is one SC_METHOD on the main thread,
# so SystemC's coroutine stacks, which TSan is not told about, never meet the workers.
run_tsan() {
    echo "== TSan ($suite) in $tsan_dir"
    configure "$tsan_dir" thread
    cmake --build "$tsan_dir" -j "$jobs" --target test_noc test_optimize
    (cd "$tsan_dir" && ctest --output-on-failure -j "$jobs" -R '(^|/)(Noc|PackageNetworks)|^Genetic\.')
    echo "tsan: clean"
}

for p in "${parts[@]}"; do
    case $p in
        asan) run_asan ;;
        tsan) run_tsan ;;
        *) echo "unknown part '$p' (asan, tsan)" >&2; exit 2 ;;
    esac
done
