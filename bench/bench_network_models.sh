#!/usr/bin/env bash
# Wall time of the full system with each network model (not a test: nothing is asserted).
#
#   bench/bench_network_models.sh [path-to-mcmsim] [configs-dir] [arch, default simba-6x6] [rounds, default 3]
#
# Maps ResNet-50 uniformly once, then simulates that plan with package.router.model "packet"
# and "vc", alternating within each round (a shared machine drifts over minutes, so the ratio
# is taken within one round), and prints each run's wall time and the VC/packet ratio per
# round, then the median ratio.
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
for model in ("packet", "vc"):
    d["package"]["router"]["model"] = model
    json.dump(d, open(sys.argv[1].replace(".json", f"-{model}.json"), "w"))
PY
"$MCMSIM" map --arch "$WORK/arch.json" --workload resnet50 --out "$WORK/plan.json" --quiet > /dev/null
printf "%-6s %10s %10s %8s\n" round packet_s vc_s ratio
ratios=""
for round in $(seq "$ROUNDS"); do
  for model in packet vc; do
    start=$(date +%s.%N)
    "$MCMSIM" simulate --arch "$WORK/arch-$model.json" --plan "$WORK/plan.json" --out "$WORK/$model" --quiet > /dev/null
    end=$(date +%s.%N)
    eval "t_$model=$(echo "$end - $start" | bc)"
  done
  ratio=$(echo "scale=2; $t_vc / $t_packet" | bc)
  ratios="$ratios $ratio"
  printf "%-6s %10.2f %10.2f %8s\n" "$round" "$t_packet" "$t_vc" "$ratio"
done
echo "median vc/packet wall ratio: $(echo "$ratios" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
