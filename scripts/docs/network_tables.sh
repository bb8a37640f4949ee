#!/usr/bin/env bash
# Prints the packet-vs-VC network comparison of docs/validation.md as markdown.
#
#   scripts/docs/network_tables.sh <mcmsim> <configs-dir>
#   e.g. scripts/docs/network_tables.sh build/sim/mcmsim configs
#
# On {every architecture in <configs-dir>/arch/} x {ResNet-50 uniform K split with direct
# delivery, with the ring collective, a PxK split with multicast weights over the tree
# collective, a GA plan (seed 1, 10 generations)}, plus ViT-B/16 uniform on the organic 4x4
# package: each case is mapped once (`mcmsim map`), simulated on that plan with the packet
# network (ideal routers, the default), the packet network with the VC router's buffers and
# switch (package.router.packet_buffers "vc") and the VC network (`mcmsim simulate`, the arch
# with package.router.model set; the VC runs on two threads, which changes nothing but the
# wall time), and priced by the analytical model (`mcmsim estimate --granularity packet`).
# With the VC simulation as the reference the table gives each other evaluator's total
# latency error, the median and largest error of the layers' completion times (end_ns,
# relative to the reference's), and, for the analytical model, the energy error. Every figure
# is computed from the runs made here. Some ten minutes: the VC runs dominate.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 <mcmsim> <configs-dir>" >&2
  exit 2
fi
MCMSIM=$1
CONFIGS=$2
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

CASES="$WORK/cases.txt"
for arch in "$CONFIGS"/arch/*.json; do
  a=$(basename "$arch" .json)
  {
    echo "$a|$arch|resnet50|uniform direct|"
    echo "$a|$arch|resnet50|uniform ring|--collective ring"
    echo "$a|$arch|resnet50|pxk, multicast weights|--split pxk --weights multicast --collective tree"
    echo "$a|$arch|resnet50|ga|--optimizer ga --generations 10 --seed 1"
  } >> "$CASES"
done
echo "mcm-4x4-organic-hbm-edge|$CONFIGS/arch/mcm-4x4-organic-hbm-edge.json|vit_b16|uniform direct|" >> "$CASES"

# The same arch with each network model.
for arch in "$CONFIGS"/arch/*.json; do
  a=$(basename "$arch" .json)
  "$MCMSIM" config --arch "$arch" --dump > "$WORK/$a.json"
  python3 - "$WORK/$a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for name, model, buffers in (("packet", "packet", "unbounded"), ("pvc", "packet", "vc"), ("vc", "vc", "unbounded")):
    d["package"]["router"]["model"] = model
    d["package"]["router"]["packet_buffers"] = buffers
    json.dump(d, open(sys.argv[1].replace(".json", f"-{name}.json"), "w"), indent=1)
PY
done

echo "Command: \`scripts/docs/network_tables.sh $MCMSIM $CONFIGS\`"
echo
echo "| arch | workload | plan | vc µs | packet µs | packet vs vc | layer median | layer max | packet, vc buffers µs | vs vc | layer median | layer max | model µs | model vs vc | layer median | layer max | energy |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
n=0
while IFS='|' read -r a arch workload label opts; do
  n=$((n + 1))
  d="$WORK/$n"
  mkdir -p "$d"
  # shellcheck disable=SC2086
  "$MCMSIM" map --arch "$arch" --workload "$workload" $opts --out "$d/plan.json" --quiet > /dev/null
  for model in packet pvc; do
    "$MCMSIM" simulate --arch "$WORK/$a-$model.json" --plan "$d/plan.json" --out "$d/$model" --quiet > /dev/null 2>&1 || true
  done
  "$MCMSIM" simulate --arch "$WORK/$a-vc.json" --plan "$d/plan.json" --out "$d/vc" --threads 2 --quiet > /dev/null 2>&1 || true
  "$MCMSIM" estimate --arch "$arch" --plan "$d/plan.json" --granularity packet --out "$d/model" > /dev/null || true
  python3 - "$d" "$a" "$workload" "$label" <<'PY'
import json, statistics, sys
d, a, w, label = sys.argv[1:5]
r = {m: json.load(open(f"{d}/{m}/report.json")) for m in ("vc", "packet", "pvc", "model")}
ref = r["vc"]
def cmp(x):
    errs = [abs(lx["end_ns"] - lv["end_ns"]) / lv["end_ns"] for lx, lv in zip(x["layers"], ref["layers"]) if lv["end_ns"] > 0]
    return x["latency_ns"] / ref["latency_ns"] - 1, statistics.median(errs), max(errs)
pct = lambda x: f"{100 * x:+.1f} %"
tp, mp, xp = cmp(r["packet"])
tb, mb, xb = cmp(r["pvc"])
tm, mm, xm = cmp(r["model"])
energy = r["model"]["energy_pj"] / ref["energy_pj"] - 1
print(f"| {a} | {w} | {label} | {ref['latency_ns'] / 1000:.1f} | {r['packet']['latency_ns'] / 1000:.1f} | {pct(tp)} "
      f"| {100 * mp:.1f} % | {100 * xp:.1f} % | {r['pvc']['latency_ns'] / 1000:.1f} | {pct(tb)} | {100 * mb:.1f} % "
      f"| {100 * xb:.1f} % | {r['model']['latency_ns'] / 1000:.1f} | {pct(tm)} | {100 * mm:.1f} % "
      f"| {100 * xm:.1f} % | {pct(energy)} |")
PY
done < "$CASES"
