#!/usr/bin/env bash
# Prints the table of synthesised collectives by chunk count in docs/mapper.md as markdown.
#
#   scripts/docs/chunk_tables.sh <mcmsim> <configs-dir> [arch, default mcm-4x4-bridged-rows-hbm-edge]
#   e.g. scripts/docs/chunk_tables.sh build/sim/mcmsim configs
#
# On the arch (by default the package with two link classes): an all-gather of 1 MiB per
# chiplet and a broadcast of 1 MiB from chiplet 0 under `--collective synth --chunks C` for
# C = 1, 2, 4, 8, 16, made by `mcmsim export --chakra` and timed by `mcmsim estimate --chakra
# --granularity packet` and `mcmsim simulate --chakra`. Each cell is the model's latency / the
# simulation's, in us; the best chunk count of each row in the simulation is in bold, and the
# last column names the model's best. Nothing is computed here that the program does not print.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 <mcmsim> <configs-dir> [arch]" >&2
  exit 2
fi
MCMSIM=$1
CONFIGS=$2
ARCH=${3:-mcm-4x4-bridged-rows-hbm-edge}
CHUNKS=(1 2 4 8 16)
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "Command: \`scripts/docs/chunk_tables.sh $MCMSIM $CONFIGS $ARCH\`"
echo
echo "| collective (1 MiB) | $(printf 'C = %s | ' "${CHUNKS[@]}")model's best |"
echo "|---|$(printf -- '---|%.0s' "${CHUNKS[@]}")---|"
for pattern in all-gather broadcast; do
  : > "$WORK/row"
  for c in "${CHUNKS[@]}"; do
    rm -rf "$WORK/et"
    "$MCMSIM" export --chakra "$WORK/et" --arch "$CONFIGS/arch/$ARCH.json" --"$pattern" 1048576 --collective synth \
      --chunks "$c" > /dev/null
    "$MCMSIM" estimate --arch "$CONFIGS/arch/$ARCH.json" --chakra "$WORK/et" --granularity packet --out "$WORK/est" \
      --quiet > /dev/null
    "$MCMSIM" simulate --arch "$CONFIGS/arch/$ARCH.json" --chakra "$WORK/et" --out "$WORK/sim" --quiet > /dev/null
    python3 - "$WORK/est/report.json" "$WORK/sim/report.json" "$c" >> "$WORK/row" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["latency_ns"] / 1000
s = json.load(open(sys.argv[2]))["latency_ns"] / 1000
print(sys.argv[3], e, s)
PY
  done
  python3 - "$WORK/row" "$pattern" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
best_sim = min(float(r[2]) for r in rows)
best_model = min(rows, key=lambda r: float(r[1]))[0]
cells = []
for c, e, s in rows:
    cell = f"{float(e):.1f} / {float(s):.1f}"
    cells.append(f"**{cell}**" if float(s) == best_sim else cell)
print(f"| {sys.argv[2]} | " + " | ".join(cells) + f" | C = {best_model} |")
PY
done
