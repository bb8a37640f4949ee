#!/usr/bin/env bash
# `mcmsim sweep` as users run it:
#  - the same table (sweep.csv, sweep.json) with -j 1, -j 2 and over 3 MPI ranks;
#  - a sweep killed with SIGKILL mid-run and started again ends with the uninterrupted table,
#    and no point is recorded twice (the runs log counts them);
#  - a combination the strict reader refuses is an invalid point and a point whose child fails
#    is a failed point with its reason, and the others go on;
#  - escalation simulates the best points and the front; --export prints the table;
#  - bad sweep files exit 2 with one line naming the file and the JSON pointer.
# usage: sweep.sh <mcmsim> <configs dir> <tests/cli dir>
set -u
mcmsim=$1
configs=$2
here=$3
# shellcheck source=check_lib.sh
. "$(dirname "$0")/check_lib.sh"
rows() { python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$1" "$2"; }
tiny=$here/tiny_workload.json

# 2 link presets x 2 flit widths x 2 array shapes (a zip of three fields), each estimated and
# simulated: 16 points.
cat > "$work/grid.json" <<JSON
{ "base": "$configs/arch/mcm-2x2.json",
  "axes": [ { "pointer": "/package/link", "values": ["ucie-standard", "ucie-advanced"] },
            { "pointer": "/package/router/flit_bytes", "values": [16, 32] },
            { "name": "array", "zip": [ { "pointer": "/chiplet/array/rows", "values": [4, 8] },
                                        { "pointer": "/chiplet/array/cols", "values": [4, 8] },
                                        { "pointer": "/chiplet/macs_per_pe", "values": [16, 64] } ] } ],
  "workloads": [ { "model": "$tiny" } ],
  "evaluators": ["estimate", "simulate"] }
JSON
"$mcmsim" sweep "$work/grid.json" --out "$work/j1" -j 1 > "$work/j1.out" 2> "$work/j1.err"
check "sweep exits 0" "[ $? -eq 0 ]"
check "16 points, all ok" "[ \$(grep -c ',ok,' '$work/j1/sweep.csv') -eq 16 ]"
check "no progress line in a pipe" "[ ! -s '$work/j1.err' ]"
check "pictures written" "[ -s '$work/j1/pareto.svg' ] && [ -s '$work/j1/axis_0.svg' ] && [ -s '$work/j1/axis_2.svg' ] && [ -s '$work/j1/sweep.html' ]"
"$mcmsim" sweep "$work/grid.json" --out "$work/j2" -j 2 > /dev/null
check "-j 2 gives the same table" "cmp -s '$work/j1/sweep.csv' '$work/j2/sweep.csv' && cmp -s '$work/j1/sweep.json' '$work/j2/sweep.json'"
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
mpirun "${root[@]}" --oversubscribe -np 3 "$mcmsim" sweep "$work/grid.json" --out "$work/mpi" -j 1 > "$work/mpi.out" 2>&1
check "mpirun -np 3 exits 0" "[ $? -eq 0 ]"
check "3 MPI ranks give the same table" "cmp -s '$work/j1/sweep.csv' '$work/mpi/sweep.csv' && cmp -s '$work/j1/sweep.json' '$work/mpi/sweep.json'"
check "each point evaluated once over the ranks" "[ \$(rows '$work/mpi/sweep.sqlite' 'select count(*) from runs') -eq 16 ]"
"$mcmsim" sweep "$work/grid.json" --out "$work/j1" --export csv > "$work/export.csv"
check "--export csv prints sweep.csv" "cmp -s '$work/export.csv' '$work/j1/sweep.csv'"
"$mcmsim" sweep "$work/grid.json" --out "$work/j1" --export json > "$work/export.json"
check "--export json prints sweep.json" "cmp -s '$work/export.json' '$work/j1/sweep.json'"
"$mcmsim" sweep "$work/grid.json" --out "$work/j1" > "$work/again.out"
check "a finished sweep run again runs nothing" "grep -q '16 points: 0 run, 16 already' '$work/again.out' && [ \$(rows '$work/j1/sweep.sqlite' 'select count(*) from runs') -eq 16 ]"

# Resumption: 48 ResNet-50 estimates, killed (the whole process group) once two are recorded.
# The cut run takes one point at a time, so that a poll delayed by a loaded machine still
# finds it unfinished.
cat > "$work/long.json" <<JSON
{ "base": "$configs/arch/mcm-4x4-organic-hbm-edge.json",
  "axes": [ { "pointer": "/package/link", "presets": "links" },
            { "pointer": "/package/router/flit_bytes", "values": [16, 32, 64] },
            { "pointer": "/chiplet/global_buffer_bytes", "range": { "from": 65536, "to": 262144, "step": 65536 } } ],
  "workloads": [ { "model": "resnet50" } ] }
JSON
"$mcmsim" sweep "$work/long.json" --out "$work/whole" -j 2 > /dev/null
setsid "$mcmsim" sweep "$work/long.json" --out "$work/cut" -j 1 > /dev/null 2>&1 &
pid=$!
for _ in $(seq 1 400); do
  n=$( [ -f "$work/cut/sweep.sqlite" ] && rows "$work/cut/sweep.sqlite" 'select count(*) from points' 2> /dev/null || echo 0)
  [ "${n:-0}" -ge 2 ] && break
  sleep 0.01
done
kill -9 -- -"$pid" 2> /dev/null
wait "$pid" 2> /dev/null
cut=$(rows "$work/cut/sweep.sqlite" 'select count(*) from points')
check "the sweep was killed mid-run ($cut of 48 recorded)" "[ $cut -ge 2 ] && [ $cut -lt 48 ]"
"$mcmsim" sweep "$work/long.json" --out "$work/cut" -j 2 > "$work/resume.out"
check "the restarted sweep runs only the missing points" "grep -q \"48 points: \$((48 - cut)) run, $cut already\" '$work/resume.out'"
check "and ends with the uninterrupted table" "cmp -s '$work/whole/sweep.csv' '$work/cut/sweep.csv'"
check "no point recorded twice" \
  "[ \$(rows '$work/cut/sweep.sqlite' 'select count(*) from runs') -eq 48 ] && [ \$(rows '$work/cut/sweep.sqlite' 'select count(distinct hash) from runs') -eq 48 ]"

# Invalid and failed points: 3 rows with the second memory on row 3 is refused by the reader;
# the exhaustive mapper refuses the 4x4 package (its child exits 2).
cat > "$work/mixed.json" <<JSON
{ "base": "$configs/arch/mcm-4x4-organic-hbm-edge.json",
  "axes": [ { "pointer": "/package/rows", "values": [4, 3] },
            { "pointer": "/memories/1/attach/row", "values": [2, 3] } ],
  "workloads": [ { "model": "$tiny" } ],
  "mapping": [ { "optimizer": "uniform" }, { "optimizer": "exhaustive" } ] }
JSON
"$mcmsim" sweep "$work/mixed.json" --out "$work/mixed" > "$work/mixed.out"
check "a sweep with bad points still exits 0" "[ $? -eq 0 ]"
check "the refused combination is an invalid point naming the pointer" \
  "grep -qF ',invalid,\"/memories/1/attach/row: expected an integer in [0, 2]' '$work/mixed/sweep.csv'"
check "a child that fails is a failed point with its reason" "grep -q ',failed,\"\\?mcmsim: error:' '$work/mixed/sweep.csv'"
check "the other points ran" "[ \$(grep -c ',ok,' '$work/mixed/sweep.csv') -ge 3 ]"

# Escalation: the best point and the front simulated, the model's error and the ranking.
cat > "$work/esc.json" <<JSON
{ "base": "$configs/arch/mcm-2x2.json",
  "axes": [ { "pointer": "/package/link", "presets": "links" } ],
  "workloads": [ { "model": "$tiny" } ] }
JSON
"$mcmsim" sweep "$work/esc.json" --out "$work/esc" --escalate 2 > "$work/esc.out"
check "escalation simulates and compares" \
  "grep -q 'points simulated, ranking agreement' '$work/esc.out' && head -1 '$work/esc/sweep.csv' | grep -q 'sim_latency_ns' && [ \$(grep -c ',ok,' '$work/esc/sweep.csv') -eq 4 ]"

bad() {  # bad <name> <pointer> <sweep json>
  printf '%s\n' "$3" > "$work/bad.json"
  "$mcmsim" sweep "$work/bad.json" --out "$work/bad" > /dev/null 2> "$work/bad.err"
  local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l < "$work/bad.err")" -eq 1 ] && grep -q "^mcmsim: error: $work/bad.json: $2" "$work/bad.err"; then
    ok "$1"
  else
    fail "$1 (exit $rc: $(cat "$work/bad.err"))"
  fi
}
base="\"base\": \"$configs/arch/mcm-2x2.json\", \"workloads\": [ { \"model\": \"resnet50\" } ]"
bad "unknown pointer" "/axes/0" "{ $base, \"axes\": [ { \"pointer\": \"/package/teleporter\", \"values\": [1] } ] }"
bad "empty axis" "/axes/0" "{ $base, \"axes\": [ { \"pointer\": \"/package/rows\", \"values\": [] } ] }"
bad "a value the reader refuses" "/axes/0" "{ $base, \"axes\": [ { \"pointer\": \"/package/rows\", \"values\": [2, -1] } ] }"
bad "contradictory constraints" "/constraints" "{ $base, \"axes\": [ { \"pointer\": \"/package/cols\", \"values\": [2, 3] } ],
  \"constraints\": [ { \"left\": \"/package/cols\", \"op\": \"le\", \"right\": 2 }, { \"left\": \"/package/cols\", \"op\": \"ge\", \"right\": 3 } ] }"
bad "zip of unequal lengths" "/axes/0/zip/1" "{ $base, \"axes\": [ { \"zip\": [ { \"pointer\": \"/package/rows\", \"values\": [2, 3] },
  { \"pointer\": \"/package/cols\", \"values\": [2] } ] } ] }"
bad "unknown evaluator" "/evaluators/0" "{ $base, \"evaluators\": [\"guess\"] }"
bad "unknown mapping option" "/mapping" "{ $base, \"mapping\": { \"teleport\": 1 } }"
bad "unknown key" "" "{ $base, \"axis\": [] }"

finish "sweep"
