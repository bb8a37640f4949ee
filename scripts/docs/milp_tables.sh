#!/usr/bin/env bash
# Prints the table of the exact optimiser against the GA in docs/optimizers.md as markdown.
#
#   scripts/docs/milp_tables.sh <mcmsim> <configs-dir>
#   e.g. scripts/docs/milp_tables.sh build/sim/mcmsim configs
#
# For ResNet-50 and ViT-B/16 on mcm-4x4-organic-hbm-edge and simba-6x6: `mcmsim map
# --optimizer ga` and `--optimizer milp` (seed 1, the default space and budget), each plan's
# EdP as the analytical model gives it (message granularity, what the optimisers search with)
# and as the simulation gives it, milp's change against ga, the wall time of each map (this
# machine, one run each), and milp's own report (formulation gap, rounds, plans priced).
# Nothing is computed here that the program does not print. Some tens of minutes: milp prices
# hundreds of thousands of layer plans on the 6x6 package.
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

echo "Command: \`scripts/docs/milp_tables.sh $MCMSIM $CONFIGS\`"
echo
echo "| arch | workload | EdP ga, model / simulation (J·s) | EdP milp | milp vs ga, model / simulation | map wall ga / milp (s) | milp |"
echo "|---|---|---|---|---|---|---|"
for a in mcm-4x4-organic-hbm-edge simba-6x6; do
  arch="$CONFIGS/arch/$a.json"
  for w in resnet50 vit_b16; do
    for opt in ga milp; do
      d="$WORK/$opt"
      rm -rf "$d"
      mkdir -p "$d"
      start=$(date +%s.%N)
      "$MCMSIM" map --arch "$arch" --workload "$w" --optimizer "$opt" --out "$d/plan.json" > "$d/map.out"
      end=$(date +%s.%N)
      echo "$start $end" > "$d/wall"
      "$MCMSIM" estimate --arch "$arch" --plan "$d/plan.json" --out "$d/est" --quiet > /dev/null
      "$MCMSIM" simulate --arch "$arch" --plan "$d/plan.json" --out "$d/sim" --quiet > /dev/null
    done
    python3 - "$WORK" "$a" "$w" <<'PY'
import json, sys, re
work, arch, workload = sys.argv[1:]
def get(opt):
    est = json.load(open(f"{work}/{opt}/est/report.json"))["edp_j_s"]
    sim = json.load(open(f"{work}/{opt}/sim/report.json"))["edp_j_s"]
    s, e = map(float, open(f"{work}/{opt}/wall").read().split())
    return est, sim, e - s
ga, mi = get("ga"), get("milp")
line = next(l for l in open(f"{work}/milp/map.out") if l.startswith("milp: "))
what = re.sub(r";.*", "", line.strip()[len("milp: "):])
ch = lambda i: f"{100 * (mi[i] / ga[i] - 1):+.1f} %"
print(f"| {arch} | {workload} | {ga[0]:.4g} / {ga[1]:.4g} | {mi[0]:.4g} / {mi[1]:.4g} | {ch(0)} / {ch(1)} | {ga[2]:.0f} / {mi[2]:.0f} | {what} |")
PY
  done
done
