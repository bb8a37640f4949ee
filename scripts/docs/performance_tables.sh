#!/usr/bin/env bash
# Prints the measured tables of docs/performance.md as markdown.
#
#   scripts/docs/performance_tables.sh <build-dir> <configs-dir>
#   e.g. scripts/docs/performance_tables.sh build configs
#
# Runs, from <build-dir>: bench/bench_estimate (the analytical model, Google Benchmark, 5
# repetitions each), bench/bench_ga (the genetic optimiser with its default budget, and milp on
# the 4x4 package),
# bench/bench_dram (the DRAM model, streaming and random reads, one pattern per process),
# bench/bench_noc.sh (the flit-level VC network, one and two threads alternating, 5 rounds),
# bench/bench_network_models.sh (the full system with the packet network, with and without
# VC buffers, and the VC network on one and two threads, on one plan, 3 rounds) and `sim/mcmsim run` of ResNet-50 on simba-6x6 (3 times). The benchmark binaries read the
# presets compiled into them (the source tree's configs/); <configs-dir> is what bench_noc.sh
# and `mcmsim run` are given.
#
# Speed depends on the machine and on what else runs on it. Every table says what was
# measured; where two things are compared, the ratio comes from this one run, measured in
# the same minutes (compare ratios, not absolute times, between machines or days).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 <build-dir> <configs-dir>" >&2
  exit 2
fi
BUILD=$1
CONFIGS=$2
CMD="scripts/docs/performance_tables.sh $1 $2"
HERE=$(cd "$(dirname "$0")" && pwd)
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

nproc > "$WORK/nproc"
uptime > "$WORK/load_before"

# The analytical model.
"$BUILD/bench/bench_estimate" --benchmark_format=json > "$WORK/estimate.json" 2> "$WORK/estimate.err"

# The genetic optimiser, default budget (20 x 25), ResNet-50 on simba-6x6 and on the organic 4x4 package.
for a in simba organic; do
  /usr/bin/time -f "%e %U %S" -o "$WORK/ga_$a.time" "$BUILD/bench/bench_ga" "$a" > "$WORK/ga_$a.out"
done
# The exact optimiser (the GA as its warm start, then the layered formulation) on the 4x4 package.
/usr/bin/time -f "%e %U %S" -o "$WORK/milp_organic.time" "$BUILD/bench/bench_ga" organic milp > "$WORK/milp_organic.out"

# The DRAM model: the TLM run takes one pattern per process.
"$BUILD/bench/bench_dram" 1000000 stream > "$WORK/dram_stream.out"
"$BUILD/bench/bench_dram" 1000000 random > "$WORK/dram_random.out"

# The VC network: one and two threads alternating within each of 5 rounds.
bash "$HERE/../../bench/bench_noc.sh" "$BUILD/sim/mcmsim" "$CONFIGS" "1 2" 5 > "$WORK/noc.out"

# The full system with each network model on one plan, alternating within each of 3 rounds.
bash "$HERE/../../bench/bench_network_models.sh" "$BUILD/sim/mcmsim" "$CONFIGS" simba-6x6 3 > "$WORK/models.out"

# A whole `mcmsim run` (map, simulate, write reports) of the default case, 3 times.
for r in 1 2 3; do
  /usr/bin/time -f "%e %U %S %M" -o "$WORK/run_$r.time" "$BUILD/sim/mcmsim" run --arch "$CONFIGS/arch/simba-6x6.json" \
    --workload resnet50 --quiet --out "$WORK/run_$r" > /dev/null
done
uptime > "$WORK/load_after"

python3 - "$WORK" "$CMD" <<'PY'
import json, os, re, statistics, sys

work, cmd = sys.argv[1], sys.argv[2]
read = lambda name: open(os.path.join(work, name)).read()

def header(title):
    print('\n`%s`\n' % cmd)
    print(title + '\n')

load = lambda name: read(name).strip().split('load average:')[-1].strip()
print('Machine: %s cores; load average (1, 5, 15 min) %s before the runs, %s after.' % (
    read('nproc').strip(), load('load_before'), load('load_after')))

# ---- analytical model ----
est = json.load(open(os.path.join(work, 'estimate.json')))
agg = {}
for b in est['benchmarks']:
    base = b['run_name'] if 'run_name' in b else b['name']
    agg.setdefault(base, {})[b.get('aggregate_name', 'single')] = b
what = {
    'BM_EstimateResNet50Simba': 'estimate, message granularity, simba-6x6',
    'BM_EstimateResNet50Package/organic_hbm_edge': 'estimate, message granularity, mcm-4x4-organic-hbm-edge',
    'BM_EstimateResNet50Package/organic_diagonal': 'estimate, message granularity, mcm-4x4-organic-hbm-edge-diagonal',
    'BM_EstimateResNet50Package/interposer': 'estimate, message granularity, mcm-4x4-interposer-hbm-edge',
    'BM_EstimateResNet50Package/mcm_2x2': 'estimate, message granularity, mcm-2x2',
    'BM_EstimateResNet50SimbaPackets': 'estimate, packet granularity (4 packets per event), simba-6x6',
    'BM_ReadPlanResNet50Simba': 'read every op and transfer of the simba-6x6 plan once, no model',
    'BM_MapUniformResNet50Simba': 'build the uniform plan for simba-6x6 (mapper)',
}
def short(name):
    return re.sub(r'/repeats:\d+$', '', name)
header('Analytical model and plan builder on ResNet-50, uniform K split (`bench_estimate`; CPU time per call; median and spread of 5 repetitions):')
print('| benchmark | what | ops | flows | CPU time, median | stddev |')
print('|---|---|---|---|---|---|')
rows = {}
for name, a in agg.items():
    b = a.get('median', a.get('single'))
    sd = a.get('stddev')
    key = short(name)
    rows[key] = b['cpu_time'] if b['time_unit'] == 'ms' else b['cpu_time'] / 1e6
    ops = '%d' % b['ops'] if 'ops' in b else ''
    flows = '%d' % b['flows'] if 'flows' in b else ''
    print('| `%s` | %s | %s | %s | %.3f %s | %s |' % (key, what.get(key, ''), ops, flows, b['cpu_time'], b['time_unit'],
                                                    ('%.3f %s' % (sd['cpu_time'], sd['time_unit'])) if sd else 'single run'))
if 'BM_EstimateResNet50SimbaPackets' in rows and 'BM_EstimateResNet50Simba' in rows:
    print('\nRatios from this run: packet / message granularity on simba-6x6 %.0fx; simba-6x6 / mcm-4x4-organic-hbm-edge (message) %.1fx; reading the plan alone is %.0f %% of a message-granularity estimate on simba-6x6.' % (
        rows['BM_EstimateResNet50SimbaPackets'] / rows['BM_EstimateResNet50Simba'],
        rows['BM_EstimateResNet50Simba'] / rows['BM_EstimateResNet50Package/organic_hbm_edge'],
        100 * rows['BM_ReadPlanResNet50Simba'] / rows['BM_EstimateResNet50Simba']))

# ---- GA ----
header('Genetic optimiser, default budget (population 20, 25 generations), ResNet-50, seed 1 (`bench_ga`; one run each; the GA scores a generation on two threads):')
print('| package | wall | CPU (user + sys) | plans scored | analytical EdP gain over uniform |')
print('|---|---|---|---|---|')
for a in ('simba', 'organic'):
    out = read('ga_%s.out' % a)
    wall, user, sysc = (float(x) for x in read('ga_%s.time' % a).split()[:3])
    m = re.search(r'x (\S+)\s+wall\s+([\d.]+) s\s+EdP ([\d.]+)x over uniform\s+\(ga: (\d+) generations, (\d+) plans scored', out)
    print('| %s | %.1f s | %.1f s | %s | %sx |' % (m.group(1), float(m.group(2)), user + sysc, m.group(5), m.group(3)))

# ---- milp ----
header('Exact optimiser (`milp`: the GA above as its warm start, then the layered formulation), default budget, ResNet-50, seed 1 (`bench_ga organic milp`; one run; layer plans priced on two threads):')
print('| package | wall | CPU (user + sys) | layer plans priced | gap on the formulation | analytical EdP gain over uniform |')
print('|---|---|---|---|---|---|')
out = read('milp_organic.out')
wall, user, sysc = (float(x) for x in read('milp_organic.time').split()[:3])
m = re.search(r'x (\S+)\s+wall\s+([\d.]+) s\s+EdP ([\d.]+)x over uniform\s+\(milp: .*?(\d+) layer plans priced.*?\(gap ([^)]*)\)', out)
print('| %s | %.1f s | %.1f s | %s | %s | %sx |' % (m.group(1), float(m.group(2)), user + sysc, m.group(4), m.group(5), m.group(3)))

# ---- DRAM ----
header('DRAM model, HBM2, 1,000,000 requests of one burst (`bench_dram`; requests per wall second; one run each):')
print('| path | stream | random |')
print('|---|---|---|')
def grab(text, label):
    m = re.search(re.escape(label) + r': ([\d.]+) M requests/s', text)
    return float(m.group(1)) if m else float('nan')
s, r = read('dram_stream.out'), read('dram_random.out')
eng_s = [grab(s, 'engine only, hbm2 stream'), grab(r, 'engine only, hbm2 stream')]
eng_r = [grab(s, 'engine only, hbm2 random'), grab(r, 'engine only, hbm2 random')]
print('| controllers alone (no SystemC kernel), two runs | %.2f M, %.2f M | %.2f M, %.2f M |' % (eng_s[0], eng_s[1], eng_r[0], eng_r[1]))
print('| TLM-2.0 AT path through the SystemC kernel | %.2f M | %.2f M |' % (grab(s, 'TLM AT path, hbm2 stream'), grab(r, 'TLM AT path, hbm2 random')))

# ---- NoC ----
noc = read('noc.out')
cases = {}
for line in noc.splitlines():
    m = re.match(r'(\S+)\s+([\d.]+)\s+(\d+) threads\s+([\d.]+) \[([\d.]+), ([\d.]+)\]', line)
    if m:
        cases[(m.group(1), m.group(2), int(m.group(3)))] = tuple(float(m.group(i)) for i in (4, 5, 6))
cpu = {}
for line in noc.splitlines():
    f = line.split()
    if len(f) == 8 and f[0] in ('mesh8x8', 'mesh16x16') and f[2].isdigit():
        cpu.setdefault((f[0], f[1], int(f[2])), []).append(float(f[6]))
header('Flit-level VC network, uniform traffic, 1-flit packets, 1000 warm-up + 20000 measured cycles + drain (`bench/bench_noc.sh <mcmsim> <configs> "1 2" 5`: 5 rounds, one and two threads alternating); millions of flit-hops per wall second, median [min, max] over the rounds, and per CPU second (all threads), median:')
print('| config, rate | 1 thread, wall | 2 threads, wall | 2 / 1 threads (medians) | 1 thread, CPU | 2 threads, CPU |')
print('|---|---|---|---|---|---|')
for name, rate in (('mesh8x8', '0.1'), ('mesh8x8', '0.3'), ('mesh16x16', '0.1')):
    one, two = cases.get((name, rate, 1)), cases.get((name, rate, 2))
    if not one or not two:
        continue
    c1 = statistics.median(cpu.get((name, rate, 1), [0])) / 1e6
    c2 = statistics.median(cpu.get((name, rate, 2), [0])) / 1e6
    print('| %s, %s | %.2f [%.2f, %.2f] | %.2f [%.2f, %.2f] | %.2fx | %.2f | %.2f |' % (name, rate, *one, *two, two[0] / one[0], c1, c2))

# ---- network models ----
header('The full system with each network model: ResNet-50 uniform on simba-6x6, one plan simulated with the packet network (ideal routers, then `packet_buffers` `vc`) and the VC network on one and two threads (`bench/bench_network_models.sh <mcmsim> <configs> simba-6x6 3`: 3 rounds, the four one after the other in each); wall seconds of `mcmsim simulate`, and each against the ideal packet network of the same round:')
print('| round | packet | packet, vc buffers | vc, 1 thread | vc, 2 threads | vc buffers / packet | vc 1 thread / packet | vc 2 threads / packet |')
print('|---|---|---|---|---|---|---|---|')
for line in read('models.out').splitlines():
    f = line.split()
    if len(f) == 8 and f[0].isdigit():
        print('| %s | %s s | %s s | %s s | %s s | %sx | %sx | %sx |' % tuple(f))

# ---- mcmsim run ----
header('A whole `mcmsim run --arch simba-6x6 --workload resnet50` (map, simulate in SystemC, write the reports), 3 runs:')
print('| run | wall | CPU (user + sys) | max RSS | simulation wall (run-info.json) | simulated ns per wall s | events per wall s |')
print('|---|---|---|---|---|---|---|')
for r in (1, 2, 3):
    wall, user, sysc, rss = read('run_%d.time' % r).split()[:4]
    info = json.load(open(os.path.join(work, 'run_%d' % r, 'run-info.json')))
    print('| %d | %.2f s | %.2f s | %.0f MB | %.2f s | %.3g | %.3g |' % (r, float(wall), float(user) + float(sysc), float(rss) / 1024,
                                                                   info['wall_s'], info['simulated_ns_per_wall_s'], info['events_per_wall_s']))
PY
