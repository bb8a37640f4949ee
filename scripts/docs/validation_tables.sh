#!/usr/bin/env bash
# Prints the measured tables of docs/validation.md as markdown.
#
#   scripts/docs/validation_tables.sh <mcmsim> <configs-dir>
#   e.g. scripts/docs/validation_tables.sh build/sim/mcmsim configs
#
# 1. Analytical model vs SystemC simulation (`mcmsim validate`) on the same plan: ResNet-50,
#    uniform K split, on every architecture in <configs-dir>/arch/, then simba-6x6 with each
#    relayed collective and with a PxK split and multicast weights, the organic 4x4 package
#    with the nonuniform optimiser, and ViT-B/16 on the organic 4x4 package. Each case is
#    mapped once (`mcmsim map`) and validated on that plan with --sensitivity, so the same
#    run gives the packet-granularity model (what validate checks), the message granularity
#    (what the optimisers search with) and the simulation's own spread under ±0.5 % nudges
#    of four timing parameters.
# 2. The VC network alone (`mcmsim noc`) on <configs-dir>/noc/: zero-load latency against
#    the textbook formula, saturation throughput against the bisection bound, and latency
#    below saturation against a per-channel M/D/1 model.
# 3. The DRAM model alone (`mcmsim dram`) on every preset in <configs-dir>/dram/: isolated
#    read latencies against the timing formulas, streaming and random-read bandwidth against
#    the peak and the activate-rate bound, streaming energy against the per-command formula.
#
# Every figure printed is computed from the runs made here; nothing is copied from elsewhere.
# It takes about two minutes on an idle 2-core machine, three when the machine is busy (the
# simulations are deterministic: the tables do not depend on the machine, only the time does).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 <mcmsim> <configs-dir>" >&2
  exit 2
fi
MCMSIM=$1
CONFIGS=$2
CMD="scripts/docs/validation_tables.sh $1 $2"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=DISABLE
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# ---- 1. model vs simulation -------------------------------------------------------------
# label | arch file | workload | mapping options
CASES="$WORK/cases.txt"
: > "$CASES"
for f in "$CONFIGS"/arch/*.json; do
  name=$(basename "$f" .json)
  echo "$name, ResNet-50|$f|resnet50|" >> "$CASES"
done
SIMBA="$CONFIGS/arch/simba-6x6.json"
ORGANIC="$CONFIGS/arch/mcm-4x4-organic-hbm-edge.json"
cat >> "$CASES" <<CASES_END
simba-6x6, ResNet-50, --collective ring|$SIMBA|resnet50|--collective ring
simba-6x6, ResNet-50, --collective 2d|$SIMBA|resnet50|--collective 2d
simba-6x6, ResNet-50, --collective tree|$SIMBA|resnet50|--collective tree
simba-6x6, ResNet-50, --split pxk --weights multicast|$SIMBA|resnet50|--split pxk --weights multicast
mcm-4x4-organic-hbm-edge, ResNet-50, --optimizer nonuniform|$ORGANIC|resnet50|--optimizer nonuniform
mcm-4x4-organic-hbm-edge, ViT-B/16|$ORGANIC|vit_b16|
CASES_END

i=0
while IFS='|' read -r label arch workload opts; do
  i=$((i + 1))
  dir="$WORK/case-$i"
  mkdir -p "$dir"
  echo "$label" > "$dir/label"
  # shellcheck disable=SC2086
  "$MCMSIM" map --arch "$arch" --workload "$workload" $opts --quiet --out "$dir/plan.json" > "$dir/map.log"
  rc=0
  "$MCMSIM" validate --arch "$arch" --plan "$dir/plan.json" --sensitivity --quiet --out "$dir" > "$dir/validate.log" || rc=$?
  echo "$rc" > "$dir/rc"
done < "$CASES"

# ---- 2. the VC network alone ------------------------------------------------------------
NOC="$WORK/noc"
mkdir -p "$NOC"
noc() {  # noc <out-name> <config> <options...>
  local out=$1 cfg=$2
  shift 2
  "$MCMSIM" noc --config "$CONFIGS/noc/$cfg.json" --json "$@" > "$NOC/$out.json"
}
noc zl_mesh_1 mesh8x8 --rate 0.01 --packet-flits 1 --warmup 500 --cycles 15000
noc zl_mesh_5 mesh8x8 --rate 0.01 --packet-flits 5 --warmup 500 --cycles 15000
noc zl_torus_1 torus8x8 --rate 0.01 --packet-flits 1 --warmup 500 --cycles 15000
noc zl_torus_5 torus8x8 --rate 0.01 --packet-flits 5 --warmup 500 --cycles 15000
# Load sweeps in steps of 0.025 flits/node/cycle; a sweep stops after its first saturated point.
sweep() {  # sweep <out-name> <config> <options...>
  local out=$1 cfg=$2
  shift 2
  "$MCMSIM" noc --config "$CONFIGS/noc/$cfg.json" --rates 0.025:1:0.025 --warmup 1000 --cycles 2500 "$@" > "$NOC/$out.csv"
}
sweep sat_mesh_uniform mesh8x8
sweep sat_mesh_bitcomp mesh8x8 --traffic bitcomp
sweep sat_torus_uniform torus8x8
for r in 0.05 0.10 0.15 0.20 0.25 0.30 0.35; do
  noc "md1_$r" mesh8x8 --rate "$r" --warmup 1000 --cycles 4000
done

# ---- 3. the DRAM model alone ------------------------------------------------------------
DRAM="$WORK/dram"
mkdir -p "$DRAM"
for f in "$CONFIGS"/dram/*.json; do
  name=$(basename "$f" .json)
  "$MCMSIM" dram --preset "$f" --pattern stream --json > "$DRAM/$name.stream.json"
  "$MCMSIM" dram --preset "$f" --pattern random --json > "$DRAM/$name.random.json"
done

# ---- tables -----------------------------------------------------------------------------
python3 - "$WORK" "$CONFIGS" "$CMD" <<'PY'
import glob, json, os, re, statistics, sys

work, configs, cmd = sys.argv[1], sys.argv[2], sys.argv[3]

def load_commented_json(path):
    """JSON with // and /* */ comments outside strings, as mcmsim reads it."""
    text = open(path).read()
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == '\\':
                out.append(text[i + 1]); i += 2; continue
            if c == '"':
                in_str = False
            i += 1
        elif c == '"':
            in_str = True; out.append(c); i += 1
        elif text.startswith('//', i):
            while i < n and text[i] != '\n':
                i += 1
        elif text.startswith('/*', i):
            i = text.index('*/', i) + 2
        else:
            out.append(c); i += 1
    return json.loads(''.join(out))

def pct(x, signed=True):
    return ('%+.1f %%' if signed else '%.1f %%') % (100 * x)

def header(title):
    print('\n`%s`\n' % cmd)
    if title:
        print(title + '\n')

# ---- 1 ----
cases = []
for d in sorted(glob.glob(os.path.join(work, "case-*")), key=lambda p: int(p.rsplit("-", 1)[1])):
    label = open(os.path.join(d, 'label')).read().strip()
    rc = int(open(os.path.join(d, 'rc')).read())
    v = json.load(open(os.path.join(d, 'validation.json'))) if os.path.exists(os.path.join(d, 'validation.json')) else None
    cases.append((label, rc, v))

def status(rc, v):
    if v is None:
        return 'no result (exit %d)' % rc
    return '' if rc == 0 else ' (exit %d: self-check failed)' % rc

header('Packet granularity (`mcmsim validate`\'s default), model against simulation:')
print('| case | total latency error | energy error | per-layer latency error, median | max | completion-time error, median | max |')
print('|---|---|---|---|---|---|---|')
for label, rc, v in cases:
    if v is None:
        print('| %s | %s | | | | | |' % (label, status(rc, v))); continue
    print('| %s%s | %s | %s | %s | %s | %s | %s |' % (
        label, status(rc, v), pct(v['total_error']), pct(v['energy_error']),
        pct(v['median_abs_error'], False), pct(v['max_abs_error'], False),
        pct(v['median_abs_end_error'], False), pct(v['max_abs_end_error'], False)))

header('Message granularity (what the optimisers search with), same plans and simulations:')
print('| case | total latency error | energy error | per-layer latency error, median | max | completion-time error, median | max |')
print('|---|---|---|---|---|---|---|')
for label, rc, v in cases:
    if v is None or 'search_model' not in v:
        continue
    s = v['search_model']
    print('| %s | %s | %s | %s | %s | %s | %s |' % (
        label, pct(s['total_error']), pct(s['energy_error']),
        pct(s['median_abs_error'], False), pct(s['max_abs_error'], False),
        pct(s['median_abs_end_error'], False), pct(s['max_abs_end_error'], False)))

header('The simulation\'s own spread (`--sensitivity`: router clock, link bandwidth, link latency and chiplet clock each nudged by ±0.5 %, 8 more simulations) and the per-layer error measured from that band:')
print('| case | simulated total moves by | largest change of one layer | packet model beyond the band, median | max | message model beyond the band, median | max |')
print('|---|---|---|---|---|---|---|')
for label, rc, v in cases:
    if v is None or 'sensitivity' not in v:
        continue
    s = v['sensitivity']
    changes = [r['total_change'] for r in s['runs']]
    sm = v.get('search_model', {})
    failed = ' (%d nudged runs failed)' % len(s['failed_runs']) if s['failed_runs'] else ''
    print('| %s%s | %s to %s | %s | %s | %s | %s | %s |' % (
        label, failed, pct(min(changes)), pct(max(changes)), pct(s['simulation_max_abs_layer_change'], False),
        pct(s['median_abs_error_beyond_spread'], False), pct(s['max_abs_error_beyond_spread'], False),
        pct(sm.get('median_abs_error_beyond_spread', 0), False), pct(sm.get('max_abs_error_beyond_spread', 0), False)))

header('Totals behind the tables above (simulated; µs and mJ):')
print('| case | layers | simulated latency | model latency (packet) | simulated energy | model energy |')
print('|---|---|---|---|---|---|')
for label, rc, v in cases:
    if v is None:
        continue
    t, e = v['total_latency_ns'], v['total_energy_pj']
    print('| %s | %d | %.1f | %.1f | %.2f | %.2f |' % (label, len(v['layers']), t['simulated'] / 1e3, t['analytical'] / 1e3,
                                                      e['simulated'] / 1e9, e['analytical'] / 1e9))

# ---- 2 ----
noc = lambda name: json.load(open(os.path.join(work, 'noc', name + '.json')))
def noc_cfg(name):
    c = load_commented_json(os.path.join(configs, 'noc', name + '.json'))
    r = c.get('router', {})
    st = r.get('stages', {})
    stages = [st.get(k, 1) for k in ('route', 'vc_alloc', 'switch_alloc', 'switch_traversal')]
    p = sum(stages) - (stages[0] if r.get('lookahead', False) else 0)
    link = c.get('link', {}).get('latency_cycles', 1)
    ni = c.get('ni_latency_cycles', 1)
    t = c['topology']
    return c, p, link, ni, t['rows'], t['cols'], t['type']

def mean_hops(kind, k):
    if kind == 'mesh':
        return 2.0 * (k * k - 1) / (3.0 * k)
    ring = sum(min(d, k - d) for d in range(k)) / k
    return 2.0 * ring

header('Zero-load latency (rate 0.01 flits/node/cycle, uniform traffic; cycles from packet creation to tail ejection). Formula: T0 = 2 t_ni + (H + 1) P + H t_link + (L - 1), H the mean hop count of uniform traffic (self-traffic included):')
print('| config | packet flits L | H (formula) | H (measured) | T0 formula | measured mean | difference |')
print('|---|---|---|---|---|---|---|')
for name, cfg, flits in (('zl_mesh_1', 'mesh8x8', 1), ('zl_mesh_5', 'mesh8x8', 5), ('zl_torus_1', 'torus8x8', 1), ('zl_torus_5', 'torus8x8', 5)):
    d = noc(name)
    c, p, link, ni, rows, cols, kind = noc_cfg(cfg)
    h = mean_hops(kind, rows)
    t0 = 2 * ni + (h + 1) * p + h * link + (flits - 1)
    print('| %s | %d | %.3f | %.3f | %.2f | %.2f | %+.2f cycles |' % (cfg, flits, h, d['avg_hops'], t0,
                                                                     d['avg_packet_latency_cycles'], d['avg_packet_latency_cycles'] - t0))

header('Saturation: a load sweep in steps of 0.025 flits/node/cycle (1-flit packets, 1000 warm-up and 2500 measured cycles per point, stopping after the first saturated point) against the channel bound of the pattern:')
print('| config | traffic | bound | peak accepted (at offered) | peak / bound | accepted at the first saturated point (offered) |')
print('|---|---|---|---|---|---|')
import csv
for name, cfg, traffic, bound_txt, bound in (('sat_mesh_uniform', 'mesh8x8', 'uniform', '4/k (bisection)', 4 / 8),
                                             ('sat_mesh_bitcomp', 'mesh8x8', 'bitcomp', '2/k (bisection)', 2 / 8),
                                             ('sat_torus_uniform', 'torus8x8', 'uniform', '8/k (bisection)', 8 / 8)):
    rows = list(csv.DictReader(open(os.path.join(work, 'noc', name + '.csv'))))
    peak = max(rows, key=lambda r: float(r['accepted']))
    last = rows[-1]
    sat = ('%.3f (%.3f)' % (float(last['accepted']), float(last['offered']))) if last['saturated'] == 'true' else 'not reached'
    print('| %s | %s | %s = %.3f | %.3f (%.3f) | %.1f %% | %s |' % (cfg, traffic, bound_txt, bound, float(peak['accepted']),
                                                               float(peak['offered']), 100 * float(peak['accepted']) / bound, sat))

# Per-channel M/D/1 on the 8x8 mesh with XY routing, 1-flit packets (service time 1 cycle).
c, p, link, ni, k, _, _ = noc_cfg('mesh8x8')
n = k * k
def xy_path(s, d):
    (sr, sc), (dr, dc) = divmod(s, k), divmod(d, k)
    chans, r, col = [], sr, sc
    while col != dc:
        step = 1 if dc > col else -1
        chans.append(((r, col), (r, col + step))); col += step
    while r != dr:
        step = 1 if dr > r else -1
        chans.append(((r, col), (r + step, col))); r += step
    return chans
paths = {(s, d): xy_path(s, d) for s in range(n) for d in range(n)}
W = lambda rho: rho / (2 * (1 - rho))
header('Latency below saturation, 8x8 mesh (mesh8x8), uniform traffic, 1-flit packets: measured mean against T0 plus an M/D/1 wait W = rho / (2 (1 - rho)) on the injection channel, every link of the XY route (rho from the routes of uniform traffic) and the ejection channel; the uniform-traffic bound 4/k is 0.5:')
print('| offered rate | fraction of bound | M/D/1 model | measured mean | model error |')
print('|---|---|---|---|---|')
for r in ('0.05', '0.10', '0.15', '0.20', '0.25', '0.30', '0.35'):
    lam = float(r)
    load = {}
    for (s, d), chans in paths.items():
        for ch in chans:
            load[ch] = load.get(ch, 0.0) + lam / n
    total = 0.0
    for (s, d), chans in paths.items():
        h = len(chans)
        total += 2 * ni + (h + 1) * p + h * link + 2 * W(lam) + sum(W(load[ch]) for ch in chans)
    model = total / (n * n)
    meas = noc('md1_' + r)['avg_packet_latency_cycles']
    print('| %s | %.0f %% | %.2f | %.2f | %+.1f %% |' % (r, 100 * lam / 0.5, model, meas, 100 * (model - meas) / meas))

# ---- 3 ----
header('DRAM presets alone (`mcmsim dram --preset FILE`, 100,000 requests of one burst, 32 in flight per unit (channel or pseudo-channel); ns, GB/s, pJ/bit). Isolated reads: hit = CL + tBURST, closed = tRCD + CL + tBURST, conflict = tRP + tRCD + CL + tBURST (cycles of tCK):')
print('| preset | hit: formula / measured | closed | conflict | peak | stream read | random read | activate bound for random | stream energy: core + I/O formula / measured | measured incl. background, refresh |')
print('|---|---|---|---|---|---|---|---|---|---|')
for f in sorted(glob.glob(os.path.join(configs, 'dram', '*.json'))):
    name = os.path.basename(f)[:-5]
    cfg = load_commented_json(f)
    t, o, e = cfg['timing'], cfg['organization'], cfg['energy']['commands']
    io = cfg['energy'].get('io_pj_per_bit', 0.6)
    tck = t['tCK_ns']
    units = cfg['channels'] * o.get('pseudo_channels', 1)
    burst = o['bus_width_bits'] // 8 * o['burst_length']
    row = o['bus_width_bits'] // 8 * o['columns']
    f_hit = (t['CL'] + t['tBURST']) * tck
    f_closed = (t['tRCD'] + t['CL'] + t['tBURST']) * tck
    f_conf = (t['tRP'] + t['tRCD'] + t['CL'] + t['tBURST']) * tck
    # Random reads open a row each: at most 4 activates per tFAW and one per tRRD_S per unit.
    act_rate = min(4.0 / (t['tFAW'] * tck) if t['tFAW'] else 1e9, 1.0 / (t['tRRD_S'] * tck))
    act_bound = min(act_rate * burst, burst / (t['tBURST'] * tck)) * units
    stream_formula = (e['rd_pj'] + e['act_pj'] / (row / burst)) / (burst * 8) + io
    s = json.load(open(os.path.join(work, 'dram', name + '.stream.json')))
    rnd = json.load(open(os.path.join(work, 'dram', name + '.random.json')))
    bits = s['requests'] * s['request_bytes'] * 8
    core_io = sum(ch['energy_pj']['act_pre'] + ch['energy_pj']['read'] + ch['energy_pj']['write'] + ch['energy_pj']['io'] for ch in s['channels'])
    il = s['idle_latency_ns']
    print('| %s | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.1f | %.1f (%.0f %%) | %.1f (%.0f %%) | %.1f | %.2f / %.2f | %.2f |' % (
        name, f_hit, il['hit'], f_closed, il['closed'], f_conf, il['conflict'], s['peak_gbps'],
        s['bandwidth_gbps'], 100 * s['efficiency'], rnd['bandwidth_gbps'], 100 * rnd['efficiency'], act_bound,
        stream_formula, core_io / bits, s['energy_pj_per_bit']))
PY
