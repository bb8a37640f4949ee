#!/usr/bin/env bash
# Prints the table of collectives alone in docs/mapper.md as markdown.
#
#   scripts/docs/collective_tables.sh <mcmsim> <configs-dir> [bytes, default 1048576]
#   e.g. scripts/docs/collective_tables.sh build/sim/mcmsim configs
#
# For every 4 x 4 architecture in <configs-dir>/arch/ and each collective algorithm: an
# all-gather of <bytes> per chiplet, a broadcast of <bytes> from the chiplet on the first
# memory's router (where a weight broadcast from that memory starts), and a reduce-scatter
# and an all-reduce of <bytes> slices of 32-bit partial sums, made by
# `mcmsim export --chakra` and timed by `mcmsim estimate --chakra --granularity packet` (as
# `validate` prices by default; message granularity reserves whole paths in issue order,
# which a broadcast's long chains make pessimistic or optimistic by tens of percent) and
# `mcmsim simulate --chakra`. Each cell is the model's latency / the simulation's, in us; the best algorithm
# of each row in the simulation is in bold. Nothing is computed here that the program does
# not print.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 <mcmsim> <configs-dir> [bytes]" >&2
  exit 2
fi
MCMSIM=$1
CONFIGS=$2
BYTES=${3:-1048576}
ALGORITHMS=(direct ring 2d tree themis synth)
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "Command: \`scripts/docs/collective_tables.sh $MCMSIM $CONFIGS $BYTES\`"
echo
echo "| arch | collective | direct | ring | 2d | tree | themis | synth |"
echo "|---|---|---|---|---|---|---|---|"
for arch in "$CONFIGS"/arch/mcm-4x4-*.json; do
  a=$(basename "$arch" .json)
  "$MCMSIM" config --arch "$arch" --dump > "$WORK/arch.json"
  root=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=d['memories'][0]['attach']; print(m['row'] * d['package']['cols'] + m['col'])" "$WORK/arch.json")
  for pattern in all-gather broadcast reduce-scatter all-reduce; do
    : > "$WORK/row"
    for c in "${ALGORITHMS[@]}"; do
      rm -rf "$WORK/et"
      extra=()
      [ "$pattern" = broadcast ] && extra=(--root "$root")
      "$MCMSIM" export --chakra "$WORK/et" --arch "$arch" --"$pattern" "$BYTES" "${extra[@]}" --collective "$c" > /dev/null
      "$MCMSIM" estimate --arch "$arch" --chakra "$WORK/et" --granularity packet --out "$WORK/est" --quiet > /dev/null
      "$MCMSIM" simulate --arch "$arch" --chakra "$WORK/et" --out "$WORK/sim" --quiet > /dev/null
      python3 - "$WORK/est/report.json" "$WORK/sim/report.json" "$c" >> "$WORK/row" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["latency_ns"] / 1000
s = json.load(open(sys.argv[2]))["latency_ns"] / 1000
print(sys.argv[3], e, s)
PY
    done
    label=$pattern
    [ "$pattern" = broadcast ] && label="broadcast from $root"
    python3 - "$WORK/row" "$a" "$label" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
best = min(float(r[2]) for r in rows)
cells = []
for name, e, s in rows:
    cell = f"{float(e):.1f} / {float(s):.1f}"
    cells.append(f"**{cell}**" if float(s) == best else cell)
print(f"| {sys.argv[2]} | {sys.argv[3]} | " + " | ".join(cells) + " |")
PY
  done
done
