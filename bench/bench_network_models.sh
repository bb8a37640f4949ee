#!/usr/bin/env bash
# Wall time of the full system with each network model (not a test: nothing is asserted).
#
#   bench/bench_network_models.sh [path-to-mcmsim] [configs-dir] [arch, default simba-6x6] [rounds, default 3]
#
# Maps ResNet-50 uniformly once, then simulates that plan with package.router.model "packet"
# (ideal routers, then packet_buffers "vc"), and "vc" on one and on two threads (--threads),
# one after the other within each round (a
# shared machine drifts over minutes, so ratios are taken within one round), and prints each
# run's wall time and the VC/packet ratios per round, then the median ratios.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
MCMSIM=${1:-$HERE/../build/sim/mcmsim}
CONFIGS=${2:-$HERE/../configs}
ARCH=${3:-simba-6x6}
ROUNDS=${4:-3}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$MCMSIM" config --arch "$CONFIGS/arch/$ARCH.json" --dump > "$WORK/arch.json"
python3 - "$WORK/arch.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for name, model, buffers in (("packet", "packet", "unbounded"), ("pvc", "packet", "vc"), ("vc", "vc", "unbounded")):
    d["package"]["router"]["model"] = model
    d["package"]["router"]["packet_buffers"] = buffers
    json.dump(d, open(sys.argv[1].replace(".json", f"-{name}.json"), "w"))
PY
"$MCMSIM" map --arch "$WORK/arch.json" --workload resnet50 --out "$WORK/plan.json" --quiet > /dev/null
printf "%-6s %10s %10s %10s %10s %8s %8s %8s\n" round packet_s pvc_s vc1_s vc2_s pvc/pkt vc1/pkt vc2/pkt
r0=""
r1=""
r2=""
median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() {
  local start end
  start=$(date +%s.%N)
  "$MCMSIM" simulate "$@" --quiet > /dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
for round in $(seq "$ROUNDS"); do
  t_packet=$(timed --arch "$WORK/arch-packet.json" --plan "$WORK/plan.json" --out "$WORK/packet")
  t_pvc=$(timed --arch "$WORK/arch-pvc.json" --plan "$WORK/plan.json" --out "$WORK/pvc")
  t_vc1=$(timed --arch "$WORK/arch-vc.json" --plan "$WORK/plan.json" --out "$WORK/vc1" --threads 1)
  t_vc2=$(timed --arch "$WORK/arch-vc.json" --plan "$WORK/plan.json" --out "$WORK/vc2" --threads 2)
  cmp -s "$WORK/vc1/report.json" "$WORK/vc2/report.json" || echo "warning: one and two threads wrote different reports" >&2
  z=$(echo "scale=2; $t_pvc / $t_packet" | bc)
  a=$(echo "scale=2; $t_vc1 / $t_packet" | bc)
  b=$(echo "scale=2; $t_vc2 / $t_packet" | bc)
  r0="$r0 $z"
  r1="$r1 $a"
  r2="$r2 $b"
  printf "%-6s %10.2f %10.2f %10.2f %10.2f %8s %8s %8s\n" "$round" "$t_packet" "$t_pvc" "$t_vc1" "$t_vc2" "$z" "$a" "$b"
done
echo "median wall ratios to packet: packet with vc buffers $(echo "$r0" | median), vc on 1 thread $(echo "$r1" | median), on 2 threads $(echo "$r2" | median)"
