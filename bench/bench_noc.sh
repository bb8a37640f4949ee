#!/usr/bin/env bash
# Speed of the flit-level VC network (not a test: nothing here is asserted).
#
#   bench/bench_noc.sh [path-to-mcmsim] [configs-dir] [thread counts, default "1 2"]
#
# For mesh8x8 at 0.1 and 0.3 flits/node/cycle and mesh16x16 at 0.1 (uniform, 1-flit
# packets, 1000 warm-up + 20000 measured cycles + drain) prints flit-hops and simulated
# cycles per second, both per wall second (as `mcmsim noc` reports it) and per CPU second
# of the process (all its threads; less sensitive to other jobs on a shared machine), with
# the routers stepped by one thread and by two (`--threads`; the simulated run is the same).
# Target (issue 3): >= 4 M flit-hops per wall second at 0.3 on 8x8, on a 2-core machine.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
MCMSIM=${1:-$HERE/../build/sim/mcmsim}
CONFIGS=${2:-$HERE/../configs}
THREADS=${3:-1 2}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
printf "%-10s %5s %7s %12s %12s %14s %14s %14s\n" config rate threads flit_hops cycles "fh/wall_s" "fh/cpu_s" "cycles/cpu_s"
for run in "mesh8x8 0.1" "mesh8x8 0.3" "mesh16x16 0.1"; do
  for threads in $THREADS; do
    set -- $run
    out=$( { /usr/bin/time -f "%U %S" "$MCMSIM" noc --config "$CONFIGS/noc/$1.json" --rate "$2" \
             --warmup 1000 --cycles 20000 --threads "$threads" --json; } 2>&1 )
    json=$(echo "$out" | head -1)
    cpu=$(echo "$out" | tail -1 | awk '{print $1 + $2}')
    python3 - "$1" "$2" "$cpu" "$json" <<'PY'
import json, sys
name, rate, cpu, d = sys.argv[1], sys.argv[2], float(sys.argv[3]), json.loads(sys.argv[4])
cpu = max(cpu, 1e-3)
print(f"{name:<10} {rate:>5} {d['threads']:>7} {d['flit_hops']:>12} {d['cycles']:>12} {d['flit_hops_per_wall_s']:>14.3e} "
      f"{d['flit_hops'] / cpu:>14.3e} {d['cycles'] / cpu:>14.3e}")
PY
  done
done
