#!/usr/bin/env bash
# The analytical model against the SystemC simulation on the flagship case: ResNet-50 on the
# Simba-like 6x6 package, uniform mapping (K split, direct collectives), `mcmsim validate`
# with its defaults (the packet granularity). The bounds are the project's accuracy targets,
# not fitted: per-layer latency error median <= 10 %, total <= 10 %; energy within 5 % (as
# end_to_end.sh). The search model's (message granularity) total must also be within 10 %.
# The per-layer max target (30 %) is checked against what the simulation itself can resolve
# (--sensitivity): a layer's latency is how far it moves the completion frontier, and for a
# short layer deep in a long run a packet that does or does not slip ahead of another layer's
# burst moves it by tens of percent, while nudging the router clock, link bandwidth, link
# latency or chiplet clock by 0.5 % moves the total by far less. So the max is taken over each
# layer's distance outside the band of its
# nudged simulations, and the nudges must leave the total within 1 % (else the total itself
# would be ill-conditioned and the bounds above meaningless).
# usage: validate_accuracy.sh <mcmsim> <configs dir>
set -u
mcmsim=$1
configs=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$mcmsim" validate --arch "$configs/arch/simba-6x6.json" --workload resnet50 --sensitivity 0.005 --out "$work" --quiet > "$work/out.txt"
rc=$?
if [ $rc -ne 0 ]; then
  echo "FAIL validate exited $rc"
  cat "$work/out.txt"
  exit 1
fi
python3 - "$work/validation.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
s = v["search_model"]
n = v["sensitivity"]
inside = all(l["simulated_spread_ns"][0] <= l["simulated_ns"] <= l["simulated_spread_ns"][1] for l in v["layers"])
# The band holds the nominal simulation, so no layer can be further from it than from that.
closer = all(abs(l["error_beyond_spread"]) <= abs(l["error"]) + 1e-12 for l in v["layers"])
checks = [
    ("packet granularity validated", v["granularity"] == "packet"),
    ("54 layers compared", len(v["layers"]) == 54),
    ("per-layer median |error| <= 10 %", v["median_abs_error"] <= 0.10),
    ("total latency |error| <= 10 %", abs(v["total_error"]) <= 0.10),
    ("total energy |error| <= 5 %", abs(v["energy_error"]) <= 0.05),
    ("search model's total latency |error| <= 10 %", abs(s["total_error"]) <= 0.10),
    ("8 nudged simulations ran", len(n["runs"]) == 8 and not n["failed_runs"]),
    ("each layer's band holds its nominal simulation", inside),
    ("no layer's error beyond its band exceeds its error", closer),
    ("a 0.5 % nudge moves the simulated total by <= 1 %", all(abs(r["total_change"]) <= 0.01 for r in n["runs"])),
    ("per-layer max |error| beyond the simulation's own spread <= 30 %", n["max_abs_error_beyond_spread"] <= 0.30),
    ("simulation conserves everything and runs every op", v["simulation_checks"]["conservation_ok"]
        and not v["simulation_checks"]["deadlock"]
        and v["simulation_checks"]["ops_executed"] == v["simulation_checks"]["ops_total"]),
]
print("median %.3f max %.3f (beyond the spread %.3f, the simulation's own %.3f) total %+.4f energy %+.4f search total %+.4f" %
      (v["median_abs_error"], v["max_abs_error"], n["max_abs_error_beyond_spread"], n["simulation_max_abs_layer_change"],
       v["total_error"], v["energy_error"], s["total_error"]))
bad = [n for n, ok in checks if not ok]
for n, ok in checks:
    print(("ok " if ok else "FAIL ") + n)
worst = max(v["layers"], key=lambda l: abs(l["error"]))
if bad:
    print("worst layer: %s %.0f ns model vs %.0f ns simulated" % (worst["name"], worst["analytical_ns"], worst["simulated_ns"]))
sys.exit(1 if bad else 0)
PY
