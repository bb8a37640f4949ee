#!/usr/bin/env bash
# Runs every benchmark that was built, then times the default full simulation.
# usage: bench/run_all.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
for b in "$build"/bench/bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b"
done
echo "== bench_ga organic milp (the exact optimiser on the 4x4 package)"
"$build/bench/bench_ga" organic milp
echo "== NoC synthetic traffic (flit-hops per second)"
bash "$here/bench_noc.sh" "$build/sim/mcmsim" "$here/../configs" || true
echo "== full system: packet against VC network model (wall time)"
bash "$here/bench_network_models.sh" "$build/sim/mcmsim" "$here/../configs" simba-6x6 1 || true
echo "== sweeps: -j, MPI ranks, per-point overhead, 1000 estimates"
bash "$here/bench_sweep.sh" "$build/sim/mcmsim" "$here/../configs" || true
echo "== mcmsim run: ResNet-50 on simba-6x6 (whole process)"
/usr/bin/time -f "wall %e s, max RSS %M KB" "$build/sim/mcmsim" run --arch "$here/../configs/arch/simba-6x6.json" \
  --workload resnet50 --out "$build/bench-out" --quiet
python3 -c "import json,sys; i=json.load(open(sys.argv[1])); print('simulated ns per wall s: %.3g' % i['simulated_ns_per_wall_s'])" "$build/bench-out/run-info.json"
