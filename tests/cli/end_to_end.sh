#!/usr/bin/env bash
# End-to-end through the CLI, as a user runs it:
#  - `run` writes report.json with the required fields and passing checks;
#  - `map` then `simulate` on the written plan gives a byte-identical report.json;
#  - running twice gives byte-identical report.json (determinism);
#  - `estimate` on the same plan reports the same energy;
#  - the plan exported as Chakra ETs and simulated or priced from them gives the same report;
#  - every subcommand answers --help.
# usage: end_to_end.sh <mcmsim> <configs dir>
set -u
mcmsim=$1
configs=$2
arch=$configs/arch/mcm-2x2.json
# shellcheck source=check_lib.sh
. "$(dirname "$0")/check_lib.sh"

"$mcmsim" run --arch "$arch" --workload resnet50 --out "$work/run1" --quiet
check "run exits 0" "[ $? -eq 0 ]"
"$mcmsim" run --arch "$arch" --workload resnet50 --out "$work/run2" --quiet
check "same inputs give a byte-identical report.json" "cmp -s '$work/run1/report.json' '$work/run2/report.json'"

"$mcmsim" map --arch "$arch" --workload resnet50 --out "$work/plan.json" > "$work/map.out"
check "map exits 0" "[ $? -eq 0 ]"
# The mapping table: a header, one row per ResNet-50 MAC layer (54) naming its partition,
# and the predicted totals.
check "map prints one row per layer with its partition" \
  "[ \$(grep -cE '^(conv1|layer[1-4]\\.[0-9]+\\.(conv[1-3]|downsample)|fc) +K ' '$work/map.out') -eq 54 ]"
check "map prints the predicted totals" "grep -q '^predicted .* us, .* uJ, EDP' '$work/map.out'"
check "map prints where the bytes went" "grep -q '^bytes .* MiB between chiplets, .* MiB served on-chip' '$work/map.out'"
check "map with the uniform mapper prints no improvement over itself" "! grep -q '^improvement' '$work/map.out'"
"$mcmsim" simulate --arch "$arch" --plan "$work/plan.json" --out "$work/sim" --quiet
check "simulate exits 0" "[ $? -eq 0 ]"
check "map + simulate gives the report of run" "cmp -s '$work/run1/report.json' '$work/sim/report.json'"
check "run writes the plan it simulated" "cmp -s '$work/run1/plan.json' '$work/plan.json'"
"$mcmsim" estimate --arch "$arch" --plan "$work/plan.json" --out "$work/est" --quiet
check "estimate exits 0" "[ $? -eq 0 ]"
check "both evaluators pass the causality check" \
  "grep -q '\"causality_ok\": true' '$work/sim/report.json' && grep -q '\"causality_ok\": true' '$work/est/report.json'"

# Chakra execution traces: the plan written as ETs and simulated (and priced) from them gives
# the same report.json; a truncated ET is one line and exit 2.
"$mcmsim" export --plan "$work/plan.json" --chakra "$work/et" --arch "$arch" > /dev/null
check "export --chakra exits 0" "[ $? -eq 0 ]"
check "export writes one ET per chiplet" "[ \$(ls '$work/et' | grep -c '^mcmsim\\.[0-3]\\.et$') -eq 4 ]"
"$mcmsim" simulate --arch "$arch" --chakra "$work/et" --out "$work/sim-et" --quiet
check "plan -> Chakra ETs -> simulate gives the plan's report.json" "cmp -s '$work/sim/report.json' '$work/sim-et/report.json'"
"$mcmsim" estimate --arch "$arch" --chakra "$work/et" --out "$work/est-et" --quiet
check "plan -> Chakra ETs -> estimate gives the plan's report.json" "cmp -s '$work/est/report.json' '$work/est-et/report.json'"
cp -r "$work/et" "$work/et-cut"
size=$(stat -c %s "$work/et-cut/mcmsim.1.et")
truncate -s $((size - 7)) "$work/et-cut/mcmsim.1.et"
"$mcmsim" simulate --arch "$arch" --chakra "$work/et-cut" --out "$work/sim-cut" --quiet 2> "$work/cut.err"
rc=$?
check "a truncated ET exits 2" "[ $rc -eq 2 ]"
check "a truncated ET is one line naming the file and the node" \
  "[ \$(wc -l < '$work/cut.err') -eq 1 ] && grep -q 'mcmsim.1.et: node [0-9]*: expected a length-delimited Node' '$work/cut.err'"

# A collective alone: more chunks than bytes is one line and exit 2.
"$mcmsim" export --chakra "$work/et-bad" --arch "$arch" --broadcast 3 --collective synth --chunks 4 2> "$work/chunks.err" > /dev/null
rc=$?
check "--chunks beyond the bytes exits 2" "[ $rc -eq 2 ]"
check "--chunks beyond the bytes is one line naming the option" \
  "[ \$(wc -l < '$work/chunks.err') -eq 1 ] && grep -q -- '--chunks' '$work/chunks.err'"
# Reductions alone: a slice that is not whole 32-bit partial sums is one line and exit 2; an
# all-reduce exported, simulated and priced runs every op in both evaluators.
"$mcmsim" export --chakra "$work/et-bad" --arch "$arch" --reduce-scatter 10 2> "$work/rs.err" > /dev/null
rc=$?
check "a reduce-scatter of partial sums cut mid-sum exits 2" \
  "[ $rc -eq 2 ] && [ \$(wc -l < '$work/rs.err') -eq 1 ] && grep -q -- '--reduce-scatter: expected whole 4-byte partial sums' '$work/rs.err'"
"$mcmsim" export --chakra "$work/et-ar" --arch "$arch" --all-reduce 65536 --collective synth > /dev/null
"$mcmsim" simulate --arch "$arch" --chakra "$work/et-ar" --out "$work/sim-ar" --quiet
check "a synthesised all-reduce simulates with every check passed" \
  "grep -q '\"causality_ok\": true' '$work/sim-ar/report.json' && grep -q '\"conservation_ok\": true' '$work/sim-ar/report.json'"
"$mcmsim" estimate --arch "$arch" --chakra "$work/et-ar" --out "$work/est-ar" --quiet
check "a synthesised all-reduce is priced" "grep -q '\"causality_ok\": true' '$work/est-ar/report.json'"

# A plan that lost a dependency: every compute op of the first layer that reads another
# layer waits for nothing. Both evaluators must refuse it (exit 3, naming the layer).
python3 - "$work/plan.json" "$work/broken.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
layer = next(l for l in plan["layers"] if l.get("inputs"))
for op in layer["ops"]:
    if op["kind"] == "compute":
        op["deps"] = []
open(sys.argv[2], "w").write(json.dumps(plan))
open(sys.argv[2] + ".layer", "w").write(layer["name"])
PY
broken_layer=$(cat "$work/broken.json.layer")
for evaluator in simulate estimate; do
  "$mcmsim" $evaluator --arch "$arch" --plan "$work/broken.json" --out "$work/broken-$evaluator" --quiet 2> "$work/broken.err"
  rc=$?
  check "$evaluator fails a plan that lost a dependency with exit 3" "[ $rc -eq 3 ]"
  check "$evaluator names the layer whose dependency is lost" \
    "[ \$(wc -l < '$work/broken.err') -eq 1 ] && grep -q \"causality check failed in layer.*'$broken_layer'\" '$work/broken.err'"
  check "$evaluator records the failure in report.json" \
    "grep -q '\"causality_ok\": false' '$work/broken-$evaluator/report.json'"
done

python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
r = json.load(open(f"{w}/run1/report.json"))
e = json.load(open(f"{w}/est/report.json"))
info = json.load(open(f"{w}/run1/run-info.json"))
trace = json.load(open(f"{w}/run1/trace.json"))
fails = []
def need(cond, what):
    print(("ok " if cond else "FAIL ") + what)
    if not cond: fails.append(what)
need(r["latency_ns"] > 0, "latency_ns > 0")
need(r["energy_pj"] > 0, "energy_pj > 0")
need(abs(r["edp_j_s"] - r["energy_pj"] * 1e-12 * r["latency_ns"] * 1e-9) <= 1e-12 * r["edp_j_s"], "edp_j_s = energy (J) x latency (s)")
need(set(r["energy_breakdown_pj"]) >= {"compute", "sram", "noc", "d2d", "dram"}, "energy breakdown has compute, sram, noc, d2d, dram")
need(abs(sum(r["energy_breakdown_pj"].values()) - r["energy_pj"]) <= 1e-9 * r["energy_pj"], "breakdown adds up to energy_pj")
need(len(r["layers"]) == 54, "one layer entry per ResNet-50 MAC layer (54)")
need(all({"name", "latency_ns", "energy_pj", "compute_ns", "comm_ns", "dram_ns"} <= set(l) for l in r["layers"]), "layer entries carry the required fields")
need(r["checks"]["conservation_ok"] is True, "checks.conservation_ok")
need(r["sim"]["events"] > 0 and r["sim"]["simulated_ns"] > 0, "sim.events and sim.simulated_ns")
need("config" in r and r["config"]["package"]["rows"] == 2, "resolved config embedded")
need("wall_s" not in json.dumps(r), "no wall-clock figure in report.json")
need(info["wall_s"] > 0, "run-info.json has wall_s")
for k in ("compute", "sram", "noc", "d2d"):
    need(abs(e["energy_breakdown_pj"][k] - r["energy_breakdown_pj"][k]) <= 1e-6 * r["energy_pj"], f"estimate books the same {k} energy as the simulation")
need(abs(e["energy_pj"] - r["energy_pj"]) <= 0.05 * r["energy_pj"], "estimate's total energy within 5 % of the simulation")
names = {ev["args"]["name"] for ev in trace["traceEvents"] if ev.get("ph") == "M" and ev.get("name") == "process_name"}
need(any(n.startswith("chiplet") for n in names) and any(n.startswith("dram") for n in names), "trace has chiplet and DRAM tracks")
sys.exit(1 if fails else 0)
PY
check "report.json content" "[ $? -eq 0 ]"

"$mcmsim" validate --arch "$arch" --plan "$work/plan.json" --out "$work/val" --quiet > /dev/null
check "validate exits 0" "[ $? -eq 0 ]"
python3 - "$work/val/validation.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
ok = (len(v["layers"]) == 54 and all({"name", "analytical_ns", "simulated_ns", "error"} <= set(l) for l in v["layers"])
      and 0 <= v["median_abs_error"] <= v["max_abs_error"] and abs(v["energy_error"]) < 0.05)
# By default the packet granularity is validated, and the optimisers' message granularity summarised.
s = v.get("search_model", {})
ok = ok and v["granularity"] == "packet" and s.get("granularity") == "message" and 0 <= s["median_abs_error"] <= s["max_abs_error"]
sys.exit(0 if ok else 1)
PY
check "validation.json has layers, median and max error, energy within 5 %, the search model's summary" "[ $? -eq 0 ]"
"$mcmsim" validate --arch "$arch" --plan "$work/plan.json" --granularity message --out "$work/val-message" --quiet > /dev/null
python3 - "$work/val/validation.json" "$work/val-message/validation.json" <<'PY'
import json, sys
v, m = (json.load(open(f)) for f in sys.argv[1:])
# Validating the message granularity itself gives what the packet run summarised, and no summary of its own.
ok = m["granularity"] == "message" and "search_model" not in m and all(
    m[k] == v["search_model"][k] for k in ("total_error", "median_abs_error", "max_abs_error"))
sys.exit(0 if ok else 1)
PY
check "validate --granularity message equals the packet run's search-model summary" "[ $? -eq 0 ]"
"$mcmsim" validate --arch "$arch" --plan "$work/plan.json" --reference vc --out "$work/val-vc" --quiet > /dev/null
check "validate --reference vc exits 0" "[ $? -eq 0 ]"
python3 - "$work/val/validation.json" "$work/val-vc/validation.json" <<'PY'
import json, sys
p, v = (json.load(open(f)) for f in sys.argv[1:])
# The same analytical figures, held against the other network model's simulation.
ok = p["reference"] == "packet" and v["reference"] == "vc" and [l["analytical_ns"] for l in p["layers"]] == [
    l["analytical_ns"] for l in v["layers"]] and [l["simulated_ns"] for l in p["layers"]] != [l["simulated_ns"] for l in v["layers"]]
sys.exit(0 if ok else 1)
PY
check "validate --reference vc keeps the model's figures and simulates the VC network" "[ $? -eq 0 ]"
"$mcmsim" crosscheck --arch "$arch" --plan "$work/plan.json" --out "$work/cross" > /dev/null
check "crosscheck exits 0" "[ $? -eq 0 ]"
python3 - "$work/cross/crosscheck.json" "$work/cross/arch-vc.json" <<'PY'
import json, sys
c, a = (json.load(open(f)) for f in sys.argv[1:])
gbps = a["package"]["derived"]["d2d_hop_gbps"]
# Both networks route the plan the same way, so every package link carries the same bytes, and
# a link is busy for its bytes at the hop's bandwidth (bytes / GB/s = ns) in both.
busy_ok = all(abs(l[k] - l["vc_bytes"] / gbps) <= 1e-6 * l[k] + 1 for l in c["links"] for k in ("packet_busy_ns", "vc_busy_ns"))
ok = (len(c["layers"]) == 54 and c["reference"] == "vc" and c["max_link_bytes_difference"] == 0 and len(c["links"]) > 0
      and busy_ok and 0 <= c["median_abs_end_error"] <= c["max_abs_end_error"])
sys.exit(0 if ok else 1)
PY
check "crosscheck: same bytes on every link in both networks, each busy for its bytes at the hop's bandwidth" "[ $? -eq 0 ]"

# The non-uniform heuristic, chosen with the analytical model, must also win in simulation on
# the package with HBM on one edge.
edge=$configs/arch/mcm-4x4-organic-hbm-edge.json
for o in uniform nonuniform; do
  "$mcmsim" run --arch "$edge" --workload resnet50 --optimizer $o --out "$work/edge-$o" --quiet
done
python3 - "$work" <<'PY'
import json, sys
u = json.load(open(f"{sys.argv[1]}/edge-uniform/report.json"))
n = json.load(open(f"{sys.argv[1]}/edge-nonuniform/report.json"))
print(f"simulated EDP uniform {u['edp_j_s']:.4g}, nonuniform {n['edp_j_s']:.4g}")
sys.exit(0 if n["edp_j_s"] < u["edp_j_s"] and n["checks"]["conservation_ok"] else 1)
PY
check "nonuniform beats uniform in simulation (HBM on one edge)" "[ $? -eq 0 ]"

# Weight multicast on a P x K split (filters replicated down each grid column): the
# simulation delivers every forwarded copy, and reading each slice once must cut the DRAM
# bytes the plan moves.
for wts in unicast multicast; do
  "$mcmsim" run --arch "$edge" --workload resnet50 --split pxk --collective ring --weights $wts --out "$work/w-$wts" --quiet
done
python3 - "$work" <<'PY'
import json, sys
def dram(d): return sum(l.get("mapping", {}).get("dram_bytes", 0) for l in json.load(open(f"{d}/plan.json"))["layers"])
u, m = (f"{sys.argv[1]}/w-{x}" for x in ("unicast", "multicast"))
r = json.load(open(f"{m}/report.json"))
print(f"plan DRAM bytes unicast {dram(u)}, multicast {dram(m)}")
sys.exit(0 if dram(m) < dram(u) and r["checks"]["conservation_ok"] else 1)
PY
check "weight multicast moves fewer DRAM bytes and conserves every flow" "[ $? -eq 0 ]"

# The synthetic network stepped by several threads (bands of router rows each): the same run
# as with one, on a mesh with 1-flit packets near saturation and on a torus with 5-flit
# worms and dateline VCs (the bands' boundary links carry flits and credits both ways).
for case in "mesh8x8 1 0.4" "torus8x8 5 0.3"; do
  set -- $case
  for t in 1 2 3; do
    "$mcmsim" noc --config "$configs/noc/$1.json" --packet-flits $2 --rate $3 --warmup 300 --cycles 2000 --seed 5 \
      --json --threads $t > "$work/noc-$1-$t.json"
  done
  python3 - "$work/noc-$1" <<'PY'
import json, sys
def run(t):
    d = json.load(open(f"{sys.argv[1]}-{t}.json"))
    assert d["threads"] == t, d["threads"]
    return {k: v for k, v in d.items() if "wall" not in k and k != "threads"}
one = run(1)
assert one["flit_hops"] > 0 and one["flits_injected"] == one["flits_ejected"]
sys.exit(0 if run(2) == one and run(3) == one else 1)
PY
  check "noc $1: 2 and 3 threads give the 1-thread run" "[ $? -eq 0 ]"
done
set --

# An overloaded point whose drain limit ends before its measured packets are out is a result,
# not an error: exit 0, latency null (n/a in text and CSV), its undelivered packets counted.
"$mcmsim" noc --config "$configs/noc/mesh8x8.json" --rate 1 --warmup 200 --cycles 1000 --drain-limit 5 --json \
  > "$work/noc-undelivered.json"
check "noc: an undelivered point exits 0" "[ $? -eq 0 ]"
python3 - "$work/noc-undelivered.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["avg_packet_latency_cycles"] is None and d["p99_packet_latency_cycles"] is None and d["saturated"]
         and d["undelivered_packets"] > 0 and d["delivered_fraction"] < 1
         and "undelivered" in d["saturation"]["reasons"] and "hops" in d["conventions"] else 1)
PY
check "noc --json: undelivered point has null latency, undelivered_packets, conventions" "[ $? -eq 0 ]"
out=$("$mcmsim" noc --config "$configs/noc/mesh8x8.json" --rate 1 --warmup 200 --cycles 1000 --drain-limit 5)
check "noc text: undelivered latency is n/a" "echo \"\$out\" | grep -q 'avg n/a, p99 n/a'"
out=$("$mcmsim" noc --config "$configs/noc/mesh8x8.json" --rates 0.9:1:0.1 --warmup 200 --cycles 1000 --drain-limit 5)
check "noc --rates: one undelivered row, latency n/a" \
  "[ \$(echo \"\$out\" | wc -l) -eq 2 ] && echo \"\$out\" | tail -1 | grep -q ',n/a,n/a,n/a,.*,undelivered'"

for cmd in run map simulate estimate config validate workload noc dram; do
  out=$("$mcmsim" $cmd --help 2>&1)
  check "$cmd --help" "[ $? -eq 0 ] && echo \"\$out\" | grep -q 'usage: mcmsim $cmd'"
done

finish
