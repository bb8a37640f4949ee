#!/usr/bin/env bash
# Prints the consistency table of the shipped packages in docs/configuration.md as markdown.
#
#   scripts/docs/arch_review.sh <mcmsim> <configs-dir>
#   e.g. scripts/docs/arch_review.sh build/sim/mcmsim configs
#
# For every architecture in <configs-dir>/arch/, from `mcmsim config --dump` (the resolved
# config and the figures it implies): the router clock and flit, the router port toward a
# package link and what it carries, the link, what one hop carries, the link in router cycles
# (serialisation per flit, PHY latency), the VC receive buffer behind a link against the
# credit round trip it must cover, the chiplet NI and the fastest memory PHY; then the
# warnings `mcmsim config` prints when the routers are the VC model's (a node faster than one
# router port toward the mesh, a port narrower than its link). Nothing is computed here that
# the program does not print.
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

echo "Command: \`scripts/docs/arch_review.sh $MCMSIM $CONFIGS\`"
echo
echo "| arch | router | port toward a link | link | one hop | link in cycles | VC buffer / credit round trip | NI | fastest PHY | warnings under \`vc\` |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for arch in "$CONFIGS"/arch/*.json; do
  a=$(basename "$arch" .json)
  "$MCMSIM" config --arch "$arch" --dump > "$WORK/$a.json"
  python3 - "$WORK/$a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["package"]["router"]["model"] = "vc"
json.dump(d, open(sys.argv[1].replace(".json", "-vc.json"), "w"))
PY
  "$MCMSIM" config --arch "$WORK/$a-vc.json" > /dev/null 2> "$WORK/$a.warnings" || true
  python3 - "$WORK/$a.json" "$WORK/$a.warnings" "$a" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
import re
# "mcmsim: warning: FILE: POINTER: MESSAGE": the pointer, and the rates the message compares.
warnings = []
for line in open(sys.argv[2]):
    if "warning" not in line:
        continue
    pointer, message = line.split(": ", 4)[3:5]
    rates = re.findall(r"[0-9.]+ GB/s", message)
    warnings.append(f"`{pointer}` {' > '.join(rates)}" if rates else f"`{pointer}` {message.strip()}")
a = sys.argv[3]
p = d["package"]
r, der = p["router"], p["derived"]
# One link for every direction, or (package.links) one per link class: a line each.
if "links" in p:
    classes = [c for c in ("row", "column", "diagonal") if c in der["vc_link"]]
    links = {c: p["links"].get(c, p["link"]) for c in classes}
    vls = {c: der["vc_link"][c] for c in classes}
    hops = {c: der["d2d_hop_gbps_by_class"][c] for c in classes}
else:
    classes = [""]
    links, vls, hops = {"": p["link"]}, {"": der["vc_link"]}, {"": der["d2d_hop_gbps"]}
def per_class(f):
    return "<br>".join((f"{c}: " if c else "") + f(c) for c in classes)
phy = max((m["phy_bandwidth_gbps"] for m in d["memories"]), default=0)
flit_gbps = r["clock_ghz"] * r["flit_bytes"]
cells = [
    a,
    f"{r['clock_ghz']:g} GHz x {r['flit_bytes']} B",
    per_class(lambda c: f"{vls[c]['port_flits']} flit/cycle = {vls[c]['port_flits'] * flit_gbps:g} GB/s"),
    per_class(lambda c: f"{links[c].get('preset', 'custom')}: {links[c]['bandwidth_gbps']:g} GB/s, {links[c]['latency_ns']:g} ns"),
    per_class(lambda c: f"{hops[c]:g} GB/s"),
    per_class(lambda c: f"{vls[c]['cycles_per_flit']:.4g} cycles/flit, {vls[c]['latency_cycles']} cycles"),
    per_class(lambda c: f"{vls[c]['buffer_flits']} flits / {vls[c]['credit_round_trip_cycles']} cycles"),
    f"{d['chiplet']['ni_bandwidth_gbps']:g} GB/s",
    f"{phy:g} GB/s",
    "<br>".join(warnings) if warnings else "none",
]
print("| " + " | ".join(cells) + " |")
PY
done
