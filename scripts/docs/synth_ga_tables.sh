#!/usr/bin/env bash
# Prints the table of GA plans with and without synthesised collectives in docs/mapper.md as
# markdown.
#
#   scripts/docs/synth_ga_tables.sh <mcmsim> <configs-dir>
#   e.g. scripts/docs/synth_ga_tables.sh build/sim/mcmsim configs
#
# For every 4 x 4 architecture and simba-6x6 in <configs-dir>/arch/, and ResNet-50 and
# ViT-B/16: `mcmsim map --optimizer ga` (seed 1, the default population and generations) in
# the fixed-collective space (configs/spaces/mapping-fixed-collectives.json) and in the
# default space with synth (configs/spaces/mapping-default.json). Both are space files, so
# both search the same routes. Each plan's EdP is given as the optimisers' message-granularity
# model computes it, as the packet-granularity model does (`estimate --granularity packet`),
# and as the simulation gives it (`simulate`), with synth's change against the fixed space.
# Nothing is computed here that the program does not print. Some two minutes.
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

echo "Command: \`scripts/docs/synth_ga_tables.sh $MCMSIM $CONFIGS\`"
echo
echo "| arch | workload | EdP fixed, model / packet model / simulation (J·s) | EdP with synth | change, model / packet model / simulation | layers on synth |"
echo "|---|---|---|---|---|---|"
for arch in "$CONFIGS"/arch/mcm-4x4-*.json "$CONFIGS"/arch/simba-6x6.json; do
  a=$(basename "$arch" .json)
  for w in resnet50 vit_b16; do
    for space in fixed-collectives default; do
      d="$WORK/$space"
      rm -rf "$d"
      mkdir -p "$d"
      "$MCMSIM" map --arch "$arch" --workload "$w" --optimizer ga --space "$CONFIGS/spaces/mapping-$space.json" \
        --out "$d/plan.json" > /dev/null
      "$MCMSIM" estimate --arch "$arch" --plan "$d/plan.json" --out "$d/msg" --quiet > /dev/null
      "$MCMSIM" estimate --arch "$arch" --plan "$d/plan.json" --granularity packet --out "$d/pkt" --quiet > /dev/null
      "$MCMSIM" simulate --arch "$arch" --plan "$d/plan.json" --out "$d/sim" --quiet > /dev/null
    done
    python3 - "$WORK" "$a" "$w" <<'PY'
import json, sys
work, arch, workload = sys.argv[1:]
def edps(space):
    return [json.load(open(f"{work}/{space}/{k}/report.json"))["edp_j_s"] for k in ("msg", "pkt", "sim")]
fixed, synth = edps("fixed-collectives"), edps("default")
layers = json.load(open(f"{work}/default/plan.json"))["layers"]
on_synth = sum(1 for l in layers if l.get("mapping", {}).get("collective") == "synth")
cell = lambda v: " / ".join(f"{x:.3e}" for x in v)
change = " / ".join(f"{100 * (s / f - 1):+.1f} %" for s, f in zip(synth, fixed))
print(f"| {arch} | {workload} | {cell(fixed)} | {cell(synth)} | {change} | {on_synth} of {len(layers)} |")
PY
  done
done
