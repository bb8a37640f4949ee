#!/usr/bin/env bash
# Speed of `mcmsim sweep` (not a test: nothing is asserted).
#
#   bench/bench_sweep.sh [path-to-mcmsim] [configs-dir]
#
# 1. A 16-point simulate sweep (ResNet-50 on simba-6x6: 4 link presets x 2 flit
#    widths x 2 router pipelines) with -j 1, with -j 2 and with `mpirun -np 2` (one child per
#    rank), in one round so that the ratios compare like with like on a noisy machine; and
#    the same mpirun once more with every point already recorded: what launching and
#    finishing MPI costs whatever the points.
# 2. Overhead per point: the -j 1 sweep's wall time per point against a bare `mcmsim run` of
#    its first point (map + simulate + reports in one process).
# 3. The 1000-point random estimate sweep of configs/sweeps/random-1000-model.json with the
#    default -j.
# Each sweep starts from an empty directory.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
MCMSIM=${1:-$HERE/../build/sim/mcmsim}
CONFIGS=${2:-$HERE/../configs}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
now() { date +%s.%N; }
cat > "$WORK/sim16.json" <<JSON
{ "base": "$CONFIGS/arch/simba-6x6.json",
  "axes": [ { "pointer": "/package/link", "presets": "links" },
            { "pointer": "/package/router/flit_bytes", "values": [32, 64] },
            { "pointer": "/package/router/pipeline_cycles", "values": [3, 4] } ],
  "workloads": [ { "model": "resnet50" } ],
  "evaluators": ["simulate"] }
JSON
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
t0=$(now); "$MCMSIM" sweep "$WORK/sim16.json" --out "$WORK/j1" -j 1 -q > /dev/null; t1=$(now)
"$MCMSIM" sweep "$WORK/sim16.json" --out "$WORK/j2" -j 2 -q > /dev/null; t2=$(now)
mpirun "${root[@]}" --oversubscribe -np 2 "$MCMSIM" sweep "$WORK/sim16.json" --out "$WORK/mpi" -j 1 -q > /dev/null; t3=$(now)
mpirun "${root[@]}" --oversubscribe -np 2 "$MCMSIM" sweep "$WORK/sim16.json" --out "$WORK/mpi" -j 1 -q > /dev/null; t3b=$(now)
# The first point as a bare run: its arch as the sweep resolved it.
first=$WORK/j1/points/$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['points'][0]['hash'])" "$WORK/j1/sweep.json")
t4=$(now); "$MCMSIM" run --arch "$first/arch.json" --workload resnet50 --out "$WORK/bare" -q > /dev/null; t5=$(now)
t6=$(now); "$MCMSIM" sweep "$CONFIGS/sweeps/random-1000-model.json" --out "$WORK/r1000" -q > /dev/null; t7=$(now)
python3 - "$t0" "$t1" "$t2" "$t3" "$t4" "$t5" "$t6" "$t7" "$t3b" <<'PY'
import sys
t = [float(x) for x in sys.argv[1:]]
j1, j2, mpi, bare, r1000, launch = t[1] - t[0], t[2] - t[1], t[3] - t[2], t[5] - t[4], t[7] - t[6], t[8] - t[3]
print("| measure | wall |")
print("|---|---|")
print(f"| 16 simulate points, -j 1 | {j1:.2f} s |")
print(f"| 16 simulate points, -j 2 | {j2:.2f} s ({j2 / j1:.2f}x of -j 1) |")
print(f"| 16 simulate points, mpirun -np 2 | {mpi:.2f} s ({mpi / j2:.2f}x of -j 2) |")
print(f"| mpirun -np 2 with nothing left to run (MPI launch and finish) | {launch:.2f} s |")
print(f"| per point at -j 1 against a bare mcmsim run | {j1 / 16 * 1e3:.0f} ms against {bare * 1e3:.0f} ms: overhead {(j1 / 16 - bare) * 1e3:.0f} ms |")
print(f"| 1000-point random estimate sweep, default -j | {r1000:.1f} s |")
PY
