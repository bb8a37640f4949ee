#!/usr/bin/env bash
# The CLI on bad input, as a user meets it.
#
#   bad_inputs.sh <path-to-mcmsim> <dir-of-bad-files>
#
# For every case mcmsim must exit with code 2 and print exactly one line on stderr that
#  - starts with "mcmsim: error: ",
#  - names the offending file (its basename) or option,
#  - says what was "expected" and what was "found",
#  - carries the JSON pointer (or "line N") of the offending value where there is one.
# A few control runs first check that the good inputs the bad cases are built from are
# accepted, so that each bad case fails for the intended reason only.
# Prints "ok <name>" or "FAIL <name>: why" per case, then "N passed, M failed".
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 <path-to-mcmsim> <dir-of-bad-files>" >&2
    exit 2
fi
MCMSIM=$1
BAD=$2
HERE=$(cd "$(dirname "$0")" && pwd)
GOOD_ARCH=$HERE/../../configs/arch/mcm-2x2.json
TINY=$HERE/tiny_workload.json

if [ ! -x "$MCMSIM" ]; then echo "FAIL setup: $MCMSIM is not executable"; echo "0 passed, 1 failed"; exit 1; fi
if [ ! -d "$BAD" ]; then echo "FAIL setup: $BAD is not a directory"; echo "0 passed, 1 failed"; exit 1; fi
if [ ! -f "$GOOD_ARCH" ]; then echo "FAIL setup: no $GOOD_ARCH"; echo "0 passed, 1 failed"; exit 1; fi
if [ ! -f "$TINY" ]; then echo "FAIL setup: no $TINY"; echo "0 passed, 1 failed"; exit 1; fi

export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mcmsim-bad-inputs.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# A hung simulator must not hang the test suite.
TIMEOUT=()
if command -v timeout >/dev/null 2>&1; then TIMEOUT=(timeout 120); fi

passed=0
failed=0

pass() { echo "ok $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

# run_mcmsim ARGS...: runs mcmsim, sets RC, OUT_FILE, ERR_FILE.
run_mcmsim() {
    OUT_FILE=$TMP/stdout
    ERR_FILE=$TMP/stderr
    "${TIMEOUT[@]}" "$MCMSIM" "$@" >"$OUT_FILE" 2>"$ERR_FILE" </dev/null
    RC=$?
}

# expect_ok NAME -- ARGS...: a control run that must succeed.
expect_ok() {
    local name=$1
    shift 2
    run_mcmsim "$@"
    if [ "$RC" -ne 0 ]; then
        fail "$name" "exit code $RC, expected 0; stderr: $(head -c 400 "$ERR_FILE" | tr '\n' ' ')"
        return
    fi
    pass "$name"
}

# expect_error NAME NEEDLE... -- ARGS...: mcmsim ARGS must fail as described above and its
# error line must contain every NEEDLE (file basename, JSON pointer, ...).
expect_error() {
    local name=$1
    shift
    local needles=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
        needles+=("$1")
        shift
    done
    if [ $# -eq 0 ]; then fail "$name" "test script error: no -- before the command"; return; fi
    shift
    run_mcmsim "$@"

    if [ "$RC" -ne 2 ]; then
        fail "$name" "exit code $RC, expected 2; stderr: $(head -c 400 "$ERR_FILE" | tr '\n' ' ')"
        return
    fi
    # Exactly one line: one newline character, and it is the last byte.
    local newlines
    newlines=$(tr -cd '\n' <"$ERR_FILE" | wc -c)
    if [ "$newlines" -ne 1 ] || [ "$(tail -c 1 "$ERR_FILE" | od -An -c | tr -d ' ')" != '\n' ]; then
        fail "$name" "stderr is not exactly one line ($newlines newlines): $(head -c 400 "$ERR_FILE" | tr '\n' '|')"
        return
    fi
    local line
    line=$(head -n 1 "$ERR_FILE")
    case $line in
        "mcmsim: error: "*) ;;
        *) fail "$name" "line does not start with 'mcmsim: error: ': $line"; return ;;
    esac
    local word
    for word in expected found; do
        case $line in
            *"$word"*) ;;
            *) fail "$name" "line lacks '$word': $line"; return ;;
        esac
    done
    local n
    for n in "${needles[@]}"; do
        case $line in
            *"$n"*) ;;
            *) fail "$name" "line lacks '$n': $line"; return ;;
        esac
    done
    pass "$name"
}

# ---- controls: the good inputs the bad cases are variations of --------------------------

cat >"$TMP/good_plan.json" <<'EOF'
// The valid plan the bad plans in the bad-file directory are hand-edited from.
{
  "format": "mcmsim-plan", "version": 1,
  "arch": "mcm-2x2", "workload": "hand", "optimizer": "hand", "seed": 1,
  "chiplets": 4, "memories": 1,
  "layers": [
    { "name": "l0", "macs": 4096, "ops": [
      { "id": 0, "chiplet": 0, "kind": "dram_read", "bytes": 256, "memory": 0, "address": 0 },
      { "id": 1, "chiplet": 0, "kind": "compute", "deps": [0], "macs": 4096, "sram_bytes": 512, "tile": "all" },
      { "id": 2, "chiplet": 0, "kind": "send", "deps": [1], "bytes": 128, "flow": 0, "to": 1 },
      { "id": 3, "chiplet": 1, "kind": "recv", "bytes": 128, "flow": 0, "from": 0 },
      { "id": 4, "chiplet": 1, "kind": "dram_write", "deps": [3], "bytes": 128, "memory": 0, "address": 4096 }
    ] }
  ]
}
EOF

expect_ok control-config -- config --arch "$GOOD_ARCH"
expect_ok control-map-tiny-workload -- map --arch "$GOOD_ARCH" --workload "$TINY" --out "$TMP/tiny_plan.json"
expect_ok control-estimate-good-plan -- estimate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --out "$TMP/out" -q
expect_ok control-simulate-good-plan -- simulate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --out "$TMP/out" -q
expect_ok control-estimate-packet-granularity -- \
    estimate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --granularity packet --out "$TMP/out" -q
expect_error estimate-unknown-granularity "--granularity" "message or packet" '"flit"' -- \
    estimate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --granularity flit --out "$TMP/out" -q
expect_error validate-unknown-granularity "--granularity" '"Packet"' -- \
    validate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --granularity Packet --out "$TMP/out" -q
expect_error dram-too-many-requests "--requests" "[1, 1000000000]" "9223372036854775807" -- \
    dram --preset hbm2 --requests 9223372036854775807
expect_error workload-batch-too-large "--batch" "[1, 65536]" "4294967296" -- \
    workload --model resnet50 --batch 4294967296
touch "$TMP/a_file"
expect_error run-out-is-a-file "--out" "a directory" "a_file" -- \
    run --arch "$GOOD_ARCH" --workload "$TINY" --out "$TMP/a_file" -q
expect_error crosscheck-plan-and-workload "command line" "either --plan or --workload" "both" -- \
    crosscheck --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --workload resnet50 --out "$TMP/out"
expect_error validate-unknown-reference "--reference" '"booksim"' "vc" -- \
    validate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --reference booksim --out "$TMP/out" -q
expect_error estimate-zero-packets-per-event "--packets-per-event" "an integer >= 1" "0" -- \
    estimate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --granularity packet --packets-per-event 0 --out "$TMP/out" -q
expect_error estimate-packets-per-event-without-packets "--packets-per-event" "--granularity packet" "--granularity message" -- \
    estimate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --packets-per-event 2 --out "$TMP/out" -q
expect_error validate-packets-per-event-for-messages "--packets-per-event" "--granularity packet" "--granularity message" -- \
    validate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --granularity message --packets-per-event 2 --out "$TMP/out" -q
expect_error validate-zero-sensitivity "--sensitivity" "a fraction in (0, 0.1]" "0.000000" -- \
    validate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --sensitivity 0 --out "$TMP/out" -q
expect_error validate-huge-sensitivity "--sensitivity" "a fraction in (0, 0.1]" "0.500000" -- \
    validate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --sensitivity 0.5 --out "$TMP/out" -q
expect_ok control-estimate-packets-per-event -- \
    estimate --arch "$GOOD_ARCH" --plan "$TMP/good_plan.json" --granularity packet --packets-per-event 2 --out "$TMP/out" -q

# ---- arch configs ------------------------------------------------------------------------

arch_case() {  # arch_case NAME FILE NEEDLE...
    local name=$1 file=$2
    shift 2
    expect_error "$name" "$file" "$@" -- config --arch "$BAD/$file"
}
arch_case arch-misspelt-key arch_misspelt_key.json "/package/link/bandwith_gbps" 'unknown key "bandwith_gbps"'
arch_case arch-negative-bandwidth arch_negative_bandwidth.json "/package/link/bandwidth_gbps" "[0.001, 100000]" "-64"
arch_case arch-wrong-type arch_wrong_type.json "/package/rows" "integer" 'string "six"'
arch_case arch-unknown-preset arch_unknown_preset.json "/memories/0/dram" '"hbm9"' "hbm2"
arch_case arch-truncated arch_truncated.json "line 8" "valid JSON"
arch_case arch-attach-out-of-range arch_attach_out_of_range.json "/memories/0/attach/row" "[0, 1]" "number 2"
arch_case arch-duplicate-memory arch_duplicate_memory.json "/memories/1/name" '"hbm0"'
arch_case arch-unknown-topology arch_unknown_topology.json "/package/topology" '"mesh"' '"hypercube"'
arch_case arch-graph-disconnected arch_graph_disconnected.json "/package/edges" "connect every chiplet" "chiplet 3"
arch_case arch-graph-self-loop arch_graph_self_loop.json "/package/edges/1/1" "other than 1" "the same chiplet"
arch_case arch-graph-repeated-edge arch_graph_repeated_edge.json "/package/edges/2" "linked once" "between 3 and 1"
arch_case arch-graph-edge-out-of-range arch_graph_edge_out_of_range.json "/package/edges/1/1" "[0, 3]" "number 4"
arch_case arch-graph-no-edges arch_graph_no_edges.json "/package" 'a key "edges"'
arch_case arch-graph-with-routing arch_graph_with_routing.json "/package/routing" "no routing on a graph" '"yx"'
arch_case arch-edges-on-mesh arch_edges_on_mesh.json "/package/edges" "no edges" '"mesh"'
arch_case arch-graph-bad-class arch_graph_bad_class.json "/package/edges/1/class" '"diagonal"' '"express"'
arch_case arch-torus-one-vc arch_torus_one_vc.json "/package/router/vcs" "at least 2 VCs on a torus" "1"
arch_case arch-missing-memories arch_missing_memories.json "/memories" "memory"
arch_case arch-port-flits-too-wide arch_port_flits_too_wide.json "/package/router/port_flits" "[0, 64]" "number 65"
arch_case arch-pes-too-many arch_pes_too_many.json "/chiplet/pes" "[1, 65536]" "4611686018427387904"
arch_case arch-number-overflow arch_number_overflow.json "line 8" "range of a double" "1e400"
arch_case arch-tiny-bandwidth arch_tiny_bandwidth.json "/package/link/bandwidth_gbps" "[0.001, 100000]" "1e-300"
expect_error arch-missing-file no_such_arch.json -- config --arch "$BAD/no_such_arch.json"

# ---- workloads ---------------------------------------------------------------------------

workload_case() {  # workload_case NAME FILE NEEDLE...
    local name=$1 file=$2
    shift 2
    expect_error "$name" "$file" "$@" -- map --arch "$GOOD_ARCH" --workload "$BAD/$file" --out "$TMP/x.json"
}
workload_case workload-unknown-key workload_unknown_key.json "/layers/1/strides" 'unknown key "strides"'
workload_case workload-channel-mismatch workload_channel_mismatch.json "/layers/1/c" "c = 16" "found 8"
workload_case workload-zero-stride workload_zero_stride.json "/layers/1/stride" "number 0"
expect_error workload-unknown-zoo-model resnet9000 "resnet50" -- \
    map --arch "$GOOD_ARCH" --workload resnet9000 --out "$TMP/x.json"
expect_error workload-missing-file no_such_workload.json -- \
    map --arch "$GOOD_ARCH" --workload "$BAD/no_such_workload.json" --out "$TMP/x.json"
expect_error map-unknown-optimizer "--optimizer" '"genetic"' "uniform" -- \
    map --arch "$GOOD_ARCH" --workload "$TINY" --optimizer genetic --out "$TMP/x.json"

# ---- plans: each through simulate and estimate -------------------------------------------

plan_case() {  # plan_case NAME FILE NEEDLE...
    local name=$1 file=$2 cmd
    shift 2
    for cmd in simulate estimate; do
        expect_error "$name-$cmd" "$file" "$@" -- \
            "$cmd" --arch "$GOOD_ARCH" --plan "$BAD/$file" --out "$TMP/out" -q
    done
}
plan_case plan-wrong-version plan_wrong_version.json "/version" "version 1 to 3" "number 4"
plan_case plan-dep-on-later-op plan_dep_on_later_op.json "/layers/0/ops/1/deps/1" "op 2"
plan_case plan-send-without-recv plan_send_without_recv.json "/layers/0/ops/2" "recv" "flow 0"
plan_case plan-chiplet-count plan_chiplet_count.json "/chiplets" "4 chiplets" "found 2"
plan_case plan-missing-file no_such_plan.json "cannot open"

# ---- standalone models: DRAM configs, NoC configs, imported workloads ---------------------

expect_error dram-trc-below-tras-plus-trp dram_trc_too_small.json "/timing/tRC" "tRAS + tRP" -- \
    dram --preset hbm2 --config "$BAD/dram_trc_too_small.json" --requests 10
expect_error dram-tck-absurd dram_tck_absurd.json "/timing/tCK_ns" "[0.01, 100]" -- \
    dram --preset hbm2 --config "$BAD/dram_tck_absurd.json" --requests 10
expect_error dram-tck-tiny dram_tck_tiny.json "/timing/tCK_ns" "[0.01, 100]" -- \
    dram --preset hbm2 --config "$BAD/dram_tck_tiny.json" --requests 10
expect_error dram-trefi-absurd dram_trefi_absurd.json "/timing/tREFI_ns" -- \
    dram --preset hbm2 --config "$BAD/dram_trefi_absurd.json" --requests 10
expect_error dram-zero-banks dram_zero_banks.json "/organization/banks_per_group" "number 0" -- \
    dram --preset hbm2 --config "$BAD/dram_zero_banks.json" --requests 10
expect_error noc-zero-vcs noc_zero_vcs.json "/router/vcs" "number 0" -- \
    noc --config "$BAD/noc_zero_vcs.json" --cycles 100
expect_error noc-disconnected-graph noc_disconnected_graph.json "/topology/links" "connect every router" '"c"' -- \
    noc --config "$BAD/noc_disconnected_graph.json" --cycles 100
expect_error noc-unknown-topology noc_unknown_topology.json "/topology/type" '"hypercube"' -- \
    noc --config "$BAD/noc_unknown_topology.json" --cycles 100
expect_error noc-routing-invalid-for-topology noc_routing_invalid.json "/routing" '"west_first"' "torus" -- \
    noc --config "$BAD/noc_routing_invalid.json" --cycles 100
expect_error workload-not-onnx workload_not_onnx.onnx "ONNX" -- workload --onnx "$BAD/workload_not_onnx.onnx"
expect_error workload-bad-scalesim-row workload_bad_row.csv "line 3" "IFMAP Width" '"x56"' -- \
    workload --scalesim-csv "$BAD/workload_bad_row.csv"
expect_error workload-scalesim-filter-count workload_huge_filter_count.csv "line 2" "Num Filter" \
    "[1, 1073741824]" '"99999999999"' -- workload --scalesim-csv "$BAD/workload_huge_filter_count.csv"

# Link cost models and budgets for `allocate`: a price that is not positive, a package link
# the model does not price, a budget that is not positive, one too small to give every link
# 1 GB/s, one that would take a link beyond any config's bandwidth.
ALLOC=(allocate --arch "$GOOD_ARCH" --workload "$TINY" --optimizer uniform --out "$TMP/alloc" -q)
expect_ok control-allocate -- "${ALLOC[@]}" --cost-model "$HERE/../../configs/costs/ucie-shoreline.json"
expect_error costs-negative costs_negative.json "/links/ucie-standard/per_gbps" "number -0.004" -- \
    "${ALLOC[@]}" --cost-model "$BAD/costs_negative.json"
expect_error costs-zero costs_zero.json "/links/ucie-standard/per_gbps" "number 0" -- \
    "${ALLOC[@]}" --cost-model "$BAD/costs_zero.json"
expect_error costs-other-preset costs_other_preset.json "/links" "ucie-standard" -- \
    "${ALLOC[@]}" --cost-model "$BAD/costs_other_preset.json"
for b in 0 -1; do
    expect_error "allocate-budget-$b" "--budget" "a positive budget in mm" "$b" -- \
        "${ALLOC[@]}" --cost-model "$HERE/../../configs/costs/ucie-shoreline.json" --budget="$b"
done
expect_error allocate-budget-too-small "--budget" "at least 1 GB/s" "0.01 mm" -- \
    "${ALLOC[@]}" --cost-model "$HERE/../../configs/costs/ucie-shoreline.json" --budget 0.01
expect_error allocate-budget-too-large "--budget" "within 100000 GB/s" "1e+09 mm" -- \
    "${ALLOC[@]}" --cost-model "$HERE/../../configs/costs/ucie-shoreline.json" --budget 1e9

# A stride-2 row whose output size no single symmetric pad gives (H - R even, W - S odd): it
# must import, and map and simulate, well within a short limit rather than search for a pad.
printf 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\nL1,8,9,2,2,1,1,2,\n' \
    >"$TMP/no_symmetric_pad.csv"
LONG_TIMEOUT=("${TIMEOUT[@]}")
if command -v timeout >/dev/null 2>&1; then TIMEOUT=(timeout 20); fi
expect_ok control-scalesim-no-symmetric-pad-workload -- workload --scalesim-csv "$TMP/no_symmetric_pad.csv"
expect_ok control-scalesim-no-symmetric-pad-run -- \
    run --arch "$GOOD_ARCH" --workload "$TMP/no_symmetric_pad.csv" --out "$TMP/out" -q
TIMEOUT=("${LONG_TIMEOUT[@]}")

# ---- the command line --------------------------------------------------------------------

expect_error cli-unknown-option "mcmsim: error: --frobnicate: expected an option of mcmsim config" -- config --arch "$GOOD_ARCH" --frobnicate
expect_error cli-option-error-names-the-option "mcmsim: error: --sensitivity: expected a fraction" -- validate --arch "$GOOD_ARCH" --workload resnet50 --sensitivity 0.5
expect_error cli-negative-seed "mcmsim: error: --seed: expected a seed" -- map --arch "$GOOD_ARCH" --workload resnet50 --seed -1 --out "$TMP/seed.json"
expect_error cli-negative-drain-limit "mcmsim: error: --drain-limit: expected a number of cycles" -- noc --config "$HERE/../../configs/noc/mesh8x8.json" --cycles 100 --drain-limit -5
# Warm-up and window end are sums of cycle counts: at 2^63 - 808 warm-up cycles they overflowed.
expect_error cli-huge-warmup "mcmsim: error: --warmup: expected cycles in [0, 10^9]" -- noc --config "$HERE/../../configs/noc/mesh8x8.json" --cycles 100 --warmup 9223372036854775000
expect_error cli-huge-cycles "mcmsim: error: --cycles: expected cycles in [1, 10^9]" -- noc --config "$HERE/../../configs/noc/mesh8x8.json" --cycles 9223372036854775000
expect_error cli-micro-batch-beyond-batch "mcmsim: error: --micro-batch: expected a micro-batch of at most the batch (2 samples)" -- \
    map --arch "$HERE/../../configs/arch/mcm-4x4-organic-hbm-edge.json" --workload resnet50 --batch 2 --micro-batch 4 --segments 2 --placement pipelined --out "$TMP/mb.json"
# A DRAM access outside its memory and a transfer larger than every memory of the package.
python3 - "$TMP/good_plan.json" "$TMP" <<'PY'
import json, sys
plan = json.loads("".join(l for l in open(sys.argv[1]) if not l.lstrip().startswith("//")))
def first(kind):
    for li, l in enumerate(plan["layers"]):
        for oi, o in enumerate(l["ops"]):
            if o["kind"] == kind:
                return li, oi
huge_shape = {"n": 2**40, "k": 2**40, "c": 2**40, "p": 1, "q": 1, "r": 1, "s": 1, "stride": 1}
for name, kind, key, value in (("addr", "dram_read", "address", 2**64 - 1), ("read", "dram_read", "bytes", 2**62),
                               ("macs", "compute", "macs", 2**62), ("shape", "compute", "shape", huge_shape)):
    p = json.loads(json.dumps(plan))
    li, oi = first(kind)
    p["layers"][li]["ops"][oi][key] = value
    if key == "macs":
        p["layers"][li]["macs"] = value
    json.dump(p, open(f"{sys.argv[2]}/plan_{name}.json", "w"))
PY
expect_error plan-dram-address-outside-memory "/ops/" "/address: expected an address inside memory" -- \
    estimate --arch "$GOOD_ARCH" --plan "$TMP/plan_addr.json" --out "$TMP/out" -q
expect_error plan-dram-read-beyond-memory "/bytes: expected an access that ends inside memory" -- \
    simulate --arch "$GOOD_ARCH" --plan "$TMP/plan_read.json" --out "$TMP/out" -q
expect_error plan-compute-op-beyond-1000-s "/macs: expected at most" -- \
    simulate --arch "$GOOD_ARCH" --plan "$TMP/plan_macs.json" --out "$TMP/out" -q
# A shape's product is compared with the op's MACs: at 2^120 it overflowed.
expect_error plan-shape-product-beyond-64-bits "/ops/1/shape: expected a shape whose product (its MACs) fits in 64 bits" -- \
    estimate --arch "$GOOD_ARCH" --plan "$TMP/plan_shape.json" --out "$TMP/out" -q
expect_error cli-stray-argument "mcmsim: error: mcmsim run: command line" "stray" -- run --arch "$GOOD_ARCH" --workload resnet50 --out "$TMP/stray" stray
expect_error cli-missing-arch-option "--arch" -- simulate --plan "$TMP/good_plan.json" --out "$TMP/out" -q
expect_error cli-unknown-command '"frobnicate"' -- frobnicate
expect_error noc-zero-threads "--threads" "1..64" -- \
    noc --config "$HERE/../../configs/noc/mesh8x8.json" --cycles 100 --threads 0
expect_error cli-unknown-collective "--collective" '"butterfly"' -- \
    map --arch "$GOOD_ARCH" --workload "$TINY" --collective butterfly --out "$TMP/p.json"
expect_error cli-unknown-weight-delivery "--weights" '"broadcast"' -- \
    map --arch "$GOOD_ARCH" --workload "$TINY" --weights broadcast --out "$TMP/p.json"
expect_error cli-unknown-input-delivery "--inputs" '"broadcast"' -- \
    map --arch "$GOOD_ARCH" --workload "$TINY" --inputs broadcast --out "$TMP/p.json"
expect_error cli-unknown-placement "--placement" '"diagonal"' -- \
    map --arch "$GOOD_ARCH" --workload "$TINY" --placement diagonal --out "$TMP/p.json"
expect_error cli-more-segments-than-columns "--segments" "found 3" -- \
    map --arch "$GOOD_ARCH" --workload "$TINY" --placement pipelined --segments 3 --out "$TMP/p.json"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
