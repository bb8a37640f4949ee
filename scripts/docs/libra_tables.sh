#!/usr/bin/env bash
# Prints the table of link bandwidth allocation in docs/optimizers.md as markdown.
#
#   scripts/docs/libra_tables.sh <mcmsim> <configs-dir>
#   e.g. scripts/docs/libra_tables.sh build/sim/mcmsim configs
#
# For ResNet-50 and ViT-B/16 on the bridged-rows package (two link classes of different
# cost) and on the organic package with diagonals (three classes of one cost):
# `mcmsim allocate --cost-model configs/costs/ucie-shoreline.json --optimizer ga --simulate
# --remap`, the budget being what the package's own links take. Each allocation (the
# optimised split and the uniform one, every class at the same bandwidth) is mapped anew by
# the GA and simulated. Nothing is computed here that the program does not print (its
# allocation.json). Some minutes.
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

echo "Command: \`scripts/docs/libra_tables.sh $MCMSIM $CONFIGS\`"
echo
echo "| arch | workload | budget (mm) | allocated, GB/s per link | uniform, GB/s per link | model: latency / EdP gain | simulated: latency / EdP gain |"
echo "|---|---|---|---|---|---|---|"
for a in mcm-4x4-bridged-rows-hbm-edge mcm-4x4-organic-hbm-edge-diagonal; do
  for w in resnet50 vit_b16; do
    d="$WORK/$a-$w"
    "$MCMSIM" allocate --arch "$CONFIGS/arch/$a.json" --workload "$w" --cost-model "$CONFIGS/costs/ucie-shoreline.json" \
      --optimizer ga --simulate --remap --out "$d" -q > /dev/null
    python3 - "$d/allocation.json" "$a" "$w" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
al, un = j["allocated"], j["uniform"]
gb = lambda x: ", ".join(f"{c} {v:.4g}" for c, v in x["gbps"].items())
gain = lambda k, what: f"{un[k]['latency_ns'] / al[k]['latency_ns']:.3f}x / {un[k]['edp_j_s'] / al[k]['edp_j_s']:.3f}x"
print(f"| {sys.argv[2]} | {sys.argv[3]} | {j['budget']:.4g} | {gb(al)} | {gb(un)} | {gain('model', 0)} | {gain('simulated', 0)} |")
PY
  done
done
