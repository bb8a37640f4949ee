#!/usr/bin/env bash
# Speed of the flit-level VC network (not a test: nothing here is asserted).
#
#   bench/bench_noc.sh [path-to-mcmsim] [configs-dir] [thread counts, default "1 2"] [rounds, default 3]
#
# For mesh8x8 at 0.1 and 0.3 flits/node/cycle and mesh16x16 at 0.1 (uniform, 1-flit
# packets, 1000 warm-up + 20000 measured cycles + drain) prints flit-hops and simulated
# cycles per second, both per wall second (as `mcmsim noc` reports it) and per CPU second
# of the process (all its threads; less sensitive to other jobs on a shared machine), with
# the routers stepped by one thread and by two (`--threads`; the simulated run is the same).
# Each case runs `rounds` times, the thread counts alternating within a round (a shared
# machine drifts by ±20 % over minutes, so compare within one window); the last lines give
# each case's median and range of flit-hops per wall second.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
MCMSIM=${1:-$HERE/../build/sim/mcmsim}
CONFIGS=${2:-$HERE/../configs}
THREADS=${3:-1 2}
ROUNDS=${4:-3}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
SUMMARY=$(mktemp)
trap 'rm -f "$SUMMARY"' EXIT
printf "%-10s %5s %7s %12s %12s %14s %14s %14s\n" config rate threads flit_hops cycles "fh/wall_s" "fh/cpu_s" "cycles/cpu_s"
for run in "mesh8x8 0.1" "mesh8x8 0.3" "mesh16x16 0.1"; do
  for round in $(seq "$ROUNDS"); do
    for threads in $THREADS; do
      set -- $run
      out=$( { /usr/bin/time -f "%U %S" "$MCMSIM" noc --config "$CONFIGS/noc/$1.json" --rate "$2" \
               --warmup 1000 --cycles 20000 --threads "$threads" --json; } 2>&1 )
      json=$(echo "$out" | head -1)
      cpu=$(echo "$out" | tail -1 | awk '{print $1 + $2}')
      python3 - "$1" "$2" "$cpu" "$json" "$SUMMARY" <<'PY'
import json, sys
name, rate, cpu, d, summary = sys.argv[1], sys.argv[2], float(sys.argv[3]), json.loads(sys.argv[4]), sys.argv[5]
cpu = max(cpu, 1e-3)
print(f"{name:<10} {rate:>5} {d['threads']:>7} {d['flit_hops']:>12} {d['cycles']:>12} {d['flit_hops_per_wall_s']:>14.3e} "
      f"{d['flit_hops'] / cpu:>14.3e} {d['cycles'] / cpu:>14.3e}")
with open(summary, "a") as f:
    f.write(f"{name} {rate} {d['threads']} {d['flit_hops_per_wall_s']}\n")
PY
    done
  done
done
python3 - "$SUMMARY" <<'PY'
import statistics, sys
cases = {}
for line in open(sys.argv[1]):
    name, rate, threads, v = line.split()
    cases.setdefault((name, rate, threads), []).append(float(v) / 1e6)
print("\nflit-hops per wall second (M): median [min, max] over rounds")
for (name, rate, threads), v in cases.items():
    print(f"{name:<10} {rate:>5} {threads:>7} threads  {statistics.median(v):5.2f} [{min(v):.2f}, {max(v):.2f}]")
PY
