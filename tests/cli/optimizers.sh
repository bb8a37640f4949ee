#!/usr/bin/env bash
# The optimisers and co-design through the CLI:
#  - `map --optimizer ga|milp|exhaustive` print the improvement over uniform;
#  - the same seed gives the same plan, byte for byte;
#  - bad search spaces and options end with exit 2 and one line on stderr;
#  - `codesign` writes its Pareto front and confirms its best points in SystemC.
# usage: optimizers.sh <mcmsim> <configs dir>
set -u
mcmsim=$1
configs=$2
here=$(cd "$(dirname "$0")" && pwd)
arch=$configs/arch/mcm-2x2.json
wl=$here/tiny_workload.json
# shellcheck source=check_lib.sh
. "$(dirname "$0")/check_lib.sh"

for opt in ga milp; do
  "$mcmsim" map --arch "$arch" --workload "$wl" --optimizer $opt --seed 3 --generations 4 --population 8 --out "$work/$opt.json" > "$work/$opt.out"
  check "map --optimizer $opt exits 0" "[ $? -eq 0 ]"
  check "map --optimizer $opt prints the improvement over uniform" "grep -q '^improvement over uniform (analytical model): ' '$work/$opt.out'"
done
"$mcmsim" map --arch "$arch" --workload "$wl" --optimizer ga --seed 3 --generations 4 --population 8 --out "$work/ga2.json" > /dev/null
check "same seed, same ga plan, byte for byte" "cmp -s '$work/ga.json' '$work/ga2.json'"

# Bad input: exit 2 and exactly one line.
bad() {  # name, then the command
  local name=$1
  shift
  "$@" > /dev/null 2> "$work/err"
  local rc=$?
  check "$name: exit 2" "[ $rc -eq 2 ]"
  check "$name: one line" "[ \$(wc -l < '$work/err') -eq 1 ] && grep -q '^mcmsim: error: ' '$work/err'"
}
echo '{"hardware": {"dram_count": []}}' > "$work/empty.json"
echo '{"hardware": {"teleporters": [1]}}' > "$work/unknown.json"
echo '{"mapping": {"partitions": ["kx"]}}' > "$work/badpart.json"
echo '{"mapping": {"collectives": ["direct", "butterfly"]}}' > "$work/badcoll.json"
bad "space with an empty range" "$mcmsim" codesign --arch "$arch" --workload "$wl" --space "$work/empty.json" --out "$work/cd"
bad "space with an unknown knob" "$mcmsim" codesign --arch "$arch" --workload "$wl" --space "$work/unknown.json" --out "$work/cd"
bad "map with a bad partition in the space" "$mcmsim" map --arch "$arch" --workload "$wl" --optimizer ga --space "$work/badpart.json" --out "$work/x.json"
bad "map with an unknown collective in the space" "$mcmsim" map --arch "$arch" --workload "$wl" --optimizer ga --space "$work/badcoll.json" --out "$work/x.json"
bad "unknown objective" "$mcmsim" map --arch "$arch" --workload "$wl" --optimizer ga --objective speed --out "$work/x.json"
bad "unknown optimizer" "$mcmsim" map --arch "$arch" --workload "$wl" --optimizer annealing --out "$work/x.json"
bad "exhaustive beyond a tiny instance" "$mcmsim" map --arch "$configs/arch/mcm-4x4-organic-hbm-edge.json" --workload "$wl" --optimizer exhaustive --out "$work/x.json"

cat > "$work/space.json" <<'JSON'
{ "mapping": { "partitions": ["k", "p"], "units_per_part": 2, "routes": ["xy"] },
  "hardware": { "link_bandwidth_gbps": [32, 64] } }
JSON
"$mcmsim" codesign --arch "$arch" --workload "$wl" --space "$work/space.json" --generations 2 --population 4 --confirm 2 --out "$work/cd" > "$work/cd.out"
check "codesign exits 0" "[ $? -eq 0 ]"
check "codesign writes its CSV and JSON" "[ -s '$work/cd/codesign.csv' ] && [ -s '$work/cd/codesign.json' ]"
check "codesign prints the best EdP point" "grep -q '^best EdP ' '$work/cd.out'"
check "codesign --confirm compares rankings" "grep -q 'best points simulated: ranking' '$work/cd.out'"

# Link bandwidth allocation: both allocations simulated, the allocation's arch read back by
# the strict reader, and its links cost what the budget allows (the 2x2 package's 8 directed
# links, each a UCIe standard link at 0.004464 mm per GB/s).
"$mcmsim" allocate --arch "$arch" --workload "$wl" --cost-model "$configs/costs/ucie-shoreline.json" --budget 2 \
  --optimizer uniform --objective latency --simulate --out "$work/alloc" > "$work/alloc.out"
check "allocate exits 0" "[ $? -eq 0 ]"
check "allocate prints the allocation and both simulations" "grep -q '^allocation ' '$work/alloc.out' && grep -q '^simulated .*uniform' '$work/alloc.out'"
check "allocate writes an arch the reader takes" "'$mcmsim' config --arch '$work/alloc/arch.json' > /dev/null"
check "the allocation spends the budget" "python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))[\"package\"]
links = p.get(\"links\", {})
# 2x2 mesh: 4 directed row links, 4 directed column links.
cost = sum(4 * 0.004464 * links[c][\"bandwidth_gbps\"] for c in (\"row\", \"column\"))
sys.exit(0 if abs(cost - 2) < 1e-6 else 1)
' '$work/alloc/arch.json'"

finish
