#!/usr/bin/env python3
"""A generated corpus of bad inputs, run through the CLI as a user would.

    bad_corpus.py <path-to-mcmsim> <source-dir>

Every case is written by this script (into a temporary folder) from the repository's own
mcm-2x2 architecture, a tiny workload and a plan that `mcmsim map` makes here. Each one must
end with the documented exit code (2 for bad input, 3 where a self-check is the only judge)
and exactly one stderr line that starts with "mcmsim: error: ", says what was expected and
what was found, and names where: the file's basename and the JSON pointer (or "line N") for a
file, the option for a command-line value. The good inputs are run first as controls, so each
bad case fails for its own reason only.

The cases cover: every numeric field of the arch, chiplet, package, router, link, memory and
DRAM readers below and above its documented range and with the wrong JSON type; unknown and
missing keys; malformed files; NoC configs; workload JSON, SCALE-Sim CSV and ONNX files; plans
(field ranges, references, routes, dependency cycles); search spaces; sweep files; and command
line options of every command. Prints "ok NAME" or "FAIL NAME: why" per case, then a summary.
"""
import concurrent.futures
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

if len(sys.argv) != 3:
    print("usage: bad_corpus.py <path-to-mcmsim> <source-dir>", file=sys.stderr)
    sys.exit(2)
MCMSIM = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
ENV = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="DISABLE")
TMP = tempfile.mkdtemp(prefix="mcmsim-bad-corpus.")

# ---- helpers ------------------------------------------------------------------------------


def strip_comments(text):
    out, i, n, in_str = [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            out.append(c)
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def load(path):
    with open(path) as f:
        return json.loads(strip_comments(f.read()))


def copy(doc):
    return json.loads(json.dumps(doc))


def set_at(doc, path, value):
    """Sets doc[path...] = value, creating objects on the way."""
    d = doc
    for k in path[:-1]:
        if isinstance(d, list):
            d = d[k]
        else:
            d = d.setdefault(k, {})
    d[path[-1]] = value
    return doc


def delete_at(doc, path):
    d = doc
    for k in path[:-1]:
        d = d[k]
    del d[path[-1]]
    return doc


def pointer(path):
    return "".join("/" + str(k).replace("~", "~0").replace("/", "~1") for k in path)


counter = [0]


def write(name, content, binary=False):
    counter[0] += 1
    path = os.path.join(TMP, name)
    mode = "wb" if binary else "w"
    with open(path, mode) as f:
        if binary:
            f.write(content)
        elif isinstance(content, str):
            f.write(content)
        else:
            json.dump(content, f)
    return path


def run(args, timeout=120):
    try:
        p = subprocess.run([MCMSIM] + args, stdin=subprocess.DEVNULL, capture_output=True, env=ENV, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b"", b"timed out"
    return p.returncode, p.stdout, p.stderr


cases = []  # (name, args, needles, allowed exit codes)


def case(name, args, needles, codes=(2,)):
    cases.append((name, args, list(needles), tuple(codes)))


def judge(name, args, needles, codes):
    rc, _, err = run(args)
    if rc is None:
        return f"FAIL {name}: timed out"
    text = err.decode("utf-8", "replace")
    if rc not in codes:
        return f"FAIL {name}: exit code {rc}, expected {' or '.join(map(str, codes))}; stderr: {text[:300]!r}"
    if text.count("\n") != 1 or not text.endswith("\n"):
        return f"FAIL {name}: stderr is not exactly one line: {text[:300]!r}"
    line = text.rstrip("\n")
    if not line.startswith("mcmsim: error: "):
        return f"FAIL {name}: line does not start with 'mcmsim: error: ': {line}"
    for word in ["expected", "found"] + needles:
        if word not in line:
            return f"FAIL {name}: line lacks {word!r}: {line}"
    return f"ok {name}"


# ---- the good inputs ---------------------------------------------------------------------

ARCH = load(os.path.join(SRC, "configs/arch/mcm-2x2.json"))
TINY = os.path.join(SRC, "tests/cli/tiny_workload.json")
good_arch = write("good_arch.json", ARCH)
good_plan_path = os.path.join(TMP, "good_plan.json")
controls = [
    ("control-arch", ["config", "--arch", good_arch]),
    ("control-map", ["map", "--arch", good_arch, "--workload", TINY, "--out", good_plan_path, "-q"]),
]
control_failed = False
for name, args in controls:
    rc, _, err = run(args)
    if rc != 0:
        print(f"FAIL {name}: exit code {rc}: {err.decode()[:300]}")
        control_failed = True
    else:
        print(f"ok {name}")
if control_failed:
    print("0 passed, 1 failed")
    shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(1)
PLAN = load(good_plan_path)

INT64_MAX = 2**63 - 1


def bad_numbers(kind, lo, hi):
    """Values outside [lo, hi] and of the wrong type, each with a label."""
    vals = []
    if lo is not None:
        vals.append(("below", lo - 1 if kind == "i" else (-1.0 if lo == 0 else lo / 10)))
    if hi is not None:
        vals.append(("above", hi + 1 if kind == "i" else hi * 10))
    vals.append(("string", "12"))
    vals.append(("null", None))
    if kind == "i":
        vals.append(("fraction", 1.5))
    else:
        vals.append(("array", [1]))
    return vals


# ---- arch, chiplet, package, router, link, memory -----------------------------------------

E, B, P = 1e6, 1e3, 1e6  # event energy, energy per bit, power bounds
CHIPLET = [  # (field path inside the chiplet object, kind, lo, hi)
    (["clock_ghz"], "n", 0.01, 100),
    (["pes"], "i", 1, 65536),
    (["technology_nm"], "n", 1, 1000),
    (["mac_energy_pj"], "n", 0, E),
    (["vector_op_energy_pj"], "n", 0, E),
    (["vector_lanes"], "i", 1, 2**20),
    (["sram_energy_pj_per_byte"], "n", 0, E),
    (["global_buffer_bytes"], "i", 1, 2**40),
    (["leakage_mw"], "n", 0, P),
    (["ni_bandwidth_gbps"], "n", 0.001, 1e5),
    (["accumulator_bits"], "i", None, 64),
    (["array", "pipeline_cycles"], "i", 0, 2**20),
    (["buffers", "weight", "bytes"], "i", 1, 2**40),
    (["buffers", "input", "banks"], "i", 1, 65536),
    (["buffers", "accumulation", "width_bits"], "i", 0, 65536),
    (["buffers", "global", "access_energy_pj"], "n", 0, E),
]
for path, kind, lo, hi in CHIPLET:
    for label, v in bad_numbers(kind, lo, hi):
        doc = copy(ARCH)
        doc["chiplet"] = {"preset": doc["chiplet"]} if isinstance(doc["chiplet"], str) else doc["chiplet"]
        set_at(doc, ["chiplet"] + path, v)
        name = "arch-chiplet-" + "-".join(path) + "-" + label
        f = write(name + ".json", doc)
        case(name, ["config", "--arch", f], [os.path.basename(f), pointer(["chiplet"] + path)])

PACKAGE = [
    (["rows"], "i", 1, 64),
    (["cols"], "i", 1, 64),
    (["max_packet_bytes"], "i", 1, 2**20),
    (["router", "clock_ghz"], "n", 0.01, 100),
    (["router", "pipeline_cycles"], "i", 1, 64),
    (["router", "flit_bytes"], "i", 1, 4096),
    (["router", "energy_pj_per_flit"], "n", 0, E),
    (["router", "vcs"], "i", 1, 64),
    (["router", "buffer_depth"], "i", 1, 1024),
    (["router", "port_flits"], "i", 0, 64),
    (["router", "d2d_buffer_flits"], "i", 0, 16384),
]
for path, kind, lo, hi in PACKAGE:
    for label, v in bad_numbers(kind, lo, hi):
        doc = copy(ARCH)
        set_at(doc, ["package"] + path, v)
        name = "arch-package-" + "-".join(path) + "-" + label
        f = write(name + ".json", doc)
        case(name, ["config", "--arch", f], [os.path.basename(f), pointer(["package"] + path)])

LINK = [(["bandwidth_gbps"], "n", 0.001, 1e5), (["latency_ns"], "n", 0, 1e6), (["energy_pj_per_bit"], "n", 0, B)]
for path, kind, lo, hi in LINK:
    for label, v in bad_numbers(kind, lo, hi):
        doc = copy(ARCH)
        link = doc["package"].get("link", "grs-organic")
        doc["package"]["link"] = {"preset": link} if isinstance(link, str) else link
        set_at(doc, ["package", "link"] + path, v)
        name = "arch-link-" + "-".join(path) + "-" + label
        f = write(name + ".json", doc)
        case(name, ["config", "--arch", f], [os.path.basename(f), pointer(["package", "link"] + path)])

MEMORY = [
    (["phy_bandwidth_gbps"], "n", 0.001, 1e5),
    (["phy_latency_ns"], "n", 0, 1e6),
    (["phy_energy_pj_per_bit"], "n", 0, B),
    (["attach", "row"], "i", 0, ARCH["package"]["rows"] - 1),
    (["attach", "col"], "i", 0, ARCH["package"]["cols"] - 1),
]
for path, kind, lo, hi in MEMORY:
    for label, v in bad_numbers(kind, lo, hi):
        doc = copy(ARCH)
        set_at(doc, ["memories", 0] + path, v)
        name = "arch-memory-" + "-".join(path) + "-" + label
        f = write(name + ".json", doc)
        case(name, ["config", "--arch", f], [os.path.basename(f), pointer(["memories", 0] + path)])

# ---- DRAM ---------------------------------------------------------------------------------

DRAM = [
    (["channels"], "i", 1, 1024),
    (["interleave_bytes"], "i", 1, 2**30),
    (["energy_pj_per_bit"], "n", 0, B),
    (["organization", "pseudo_channels"], "i", 1, 64),
    (["organization", "ranks"], "i", 1, 16),
    (["organization", "bank_groups"], "i", 1, 64),
    (["organization", "rows"], "i", 1, 2**24),
    (["organization", "columns"], "i", 1, 2**16),
    (["organization", "bus_width_bits"], "i", 8, 1024),
    (["organization", "burst_length"], "i", 1, 64),
    (["timing", "tCK_ns"], "n", 0.01, 100),
    (["timing", "CL"], "i", 1, 2**20),
    (["timing", "CWL"], "i", 0, 2**20),
    (["timing", "tRCD"], "i", 1, 2**20),
    (["timing", "tRP"], "i", 1, 2**20),
    (["timing", "tBURST"], "i", 1, 2**20),
    (["timing", "tFAW"], "i", 0, 2**20),
    (["timing", "tWR"], "i", 0, 2**20),
    (["timing", "tRTRS"], "i", 0, 2**20),
    (["timing", "tRFC_ns"], "n", 1, 1e6),
    (["timing", "tREFI_ns"], "n", 1, 1e6),
    (["energy", "commands", "act_pj"], "n", 0, E),
    (["energy", "commands", "rd_pj"], "n", 0, E),
    (["energy", "commands", "background_active_mw"], "n", 0, P),
    (["energy", "io_pj_per_bit"], "n", 0, B),
    (["controller", "queue_depth"], "i", 1, 4096),
    (["controller", "write_high_watermark"], "i", 1, 4096),
]
for path, kind, lo, hi in DRAM:
    for label, v in bad_numbers(kind, lo, hi):
        doc = copy(ARCH)
        dram = doc["memories"][0]["dram"]
        doc["memories"][0]["dram"] = {"preset": dram} if isinstance(dram, str) else dram
        set_at(doc, ["memories", 0, "dram"] + path, v)
        name = "dram-" + "-".join(path) + "-" + label
        f = write(name + ".json", doc)
        case(name, ["config", "--arch", f], [os.path.basename(f), pointer(["memories", 0, "dram"] + path)])

IDD = {"vdd": 1.2, "idd0": 60, "idd2n": 30, "idd3n": 40, "idd4r": 150, "idd4w": 150, "idd5b": 200}
for key, lo, hi in [("vdd", 0.1, 10), ("idd0", 0, 1e5), ("idd4r", 0, 1e5)]:
    for label, v in bad_numbers("n", lo, hi):
        doc = copy(ARCH)
        dram = doc["memories"][0]["dram"]
        doc["memories"][0]["dram"] = {"preset": dram, "energy": {"idd": dict(IDD, **{key: v})}}
        name = f"dram-idd-{key}-{label}"
        f = write(name + ".json", doc)
        case(name, ["config", "--arch", f], [os.path.basename(f), pointer(["memories", 0, "dram", "energy", "idd", key])])

# ---- arch structure -----------------------------------------------------------------------

for path in [["name"], ["chiplet"], ["package"], ["memories"], ["package", "rows"], ["memories", 0, "attach"]]:
    doc = delete_at(copy(ARCH), path)
    name = "arch-missing-" + "-".join(map(str, path))
    f = write(name + ".json", doc)
    case(name, ["config", "--arch", f], [os.path.basename(f)])
for path in [["colour"], ["package", "speed"], ["package", "router", "turbo"], ["memories", 0, "size"]]:
    doc = set_at(copy(ARCH), path, 1)
    name = "arch-unknown-" + "-".join(map(str, path))
    f = write(name + ".json", doc)
    case(name, ["config", "--arch", f], [os.path.basename(f), pointer(path)])
for path, v in [(["package"], "big"), (["memories"], {}), (["chiplet"], 7), (["package", "topology"], "ring"),
                (["package", "routing"], "west_first"), (["package", "router", "model"], "wormhole"),
                (["chiplet", "dataflow"], "row_stationary"), (["memories", 0, "dram"], "ddr9"),
                (["package", "link"], "fibre-optic"), (["chiplet"], "no-such-chiplet"), (["memories"], [])]:
    doc = copy(ARCH)
    if path[0] == "chiplet" and len(path) > 1:
        doc["chiplet"] = {"preset": doc["chiplet"]}
    set_at(doc, path, v)
    name = "arch-bad-" + "-".join(map(str, path)) + "-" + re.sub(r"[^a-z0-9]+", "", str(v).lower() or "empty")
    f = write(name + ".json", doc)
    case(name, ["config", "--arch", f], [os.path.basename(f), pointer(path)])
dup = copy(ARCH)
dup["memories"].append(copy(dup["memories"][0]))
case("arch-duplicate-memory-name", ["config", "--arch", write("arch-duplicate-memory-name.json", dup)],
     ["arch-duplicate-memory-name.json", "/memories/1"])
same = copy(ARCH)
same["memories"].append(dict(copy(same["memories"][0]), name="second"))
case("arch-two-memories-on-one-router", ["config", "--arch", write("arch-two-memories-on-one-router.json", same)],
     ["arch-two-memories-on-one-router.json", "/memories/1/attach"])
text = json.dumps(ARCH)
for name, content in [("arch-empty", ""), ("arch-truncated", text[: len(text) // 2]), ("arch-not-json", "rows = 2\n"),
                      ("arch-trailing-comma", text[:-1] + ",}"), ("arch-number-overflow", text.replace('"rows": 2', '"rows": 1e400', 1)),
                      ("arch-duplicate-key", text[:-1] + ', "name": "again"}'), ("arch-top-level-array", "[" + text + "]"),
                      ("arch-unterminated-comment", "/* " + text), ("arch-nul-bytes", "\0\0\0")]:
    f = write(name + ".json", content)
    case(name, ["config", "--arch", f], [os.path.basename(f)])
case("arch-missing-file", ["config", "--arch", os.path.join(TMP, "nowhere.json")], ["nowhere.json"])
os.makedirs(os.path.join(TMP, "a_dir.json"), exist_ok=True)
case("arch-is-a-directory", ["config", "--arch", os.path.join(TMP, "a_dir.json")], ["a_dir.json"])

# ---- NoC configs --------------------------------------------------------------------------

NOC = load(os.path.join(SRC, "configs/noc/mesh4x4.json")) if os.path.exists(os.path.join(SRC, "configs/noc/mesh4x4.json")) \
    else load(os.path.join(SRC, "configs/noc/mesh8x8.json"))
NOC_FIELDS = [
    (["router", "clock_ghz"], "n", 0.01, 100),
    (["router", "vcs"], "i", 1, 64),
    (["router", "buffer_depth"], "i", 1, 1024),
    (["router", "flit_bits"], "i", 8, 8192),
    (["router", "stages", "route"], "i", 0, 16),
    (["router", "energy", "crossbar_pj"], "n", 0, E),
    (["link", "latency_cycles"], "i", 1, 1000),
    (["link", "width_bits"], "i", 1, 8192),
    (["link", "energy_pj_per_bit"], "n", 0, B),
    (["topology", "rows"], "i", 1, 256),
    (["ni_latency_cycles"], "i", 1, 1000),
    (["packet_flits"], "i", 1, 1024),
]
for path, kind, lo, hi in NOC_FIELDS:
    for label, v in bad_numbers(kind, lo, hi)[:3]:
        doc = set_at(copy(NOC), path, v)
        name = "noc-" + "-".join(path) + "-" + label
        f = write(name + ".json", doc)
        case(name, ["noc", "--config", f, "--cycles", "100", "--warmup", "10"], [os.path.basename(f), pointer(path)])
for name, router, where in [
    ("noc-zero-pipeline", {"stages": {"route": 0, "vc_alloc": 0, "switch_alloc": 0, "switch_traversal": 0}}, "/router/stages"),
    ("noc-lookahead-only-route", {"stages": {"route": 1, "vc_alloc": 0, "switch_alloc": 0, "switch_traversal": 0}, "lookahead": True},
     "/router/stages"),
]:
    doc = copy(NOC)
    doc.setdefault("router", {}).update(router)
    f = write(name + ".json", doc)
    case(name, ["noc", "--config", f, "--cycles", "100", "--warmup", "10"], [os.path.basename(f), where])
# A D2D link whose credit round trip the VC router's 16-bit counters cannot hold.
HIER = load(os.path.join(SRC, "configs/noc/hierarchical_2x2_of_4x4.json"))
d2d = HIER["d2d_link"] if isinstance(HIER["d2d_link"], dict) else {"preset": HIER["d2d_link"]}
doc = dict(copy(HIER), d2d_link=dict(d2d, latency_ns=1e6))
f = write("noc-d2d-latency-beyond-vc-counters.json", doc)
case("noc-d2d-latency-beyond-vc-counters", ["noc", "--config", f, "--cycles", "100", "--warmup", "10"],
     [os.path.basename(f), "/d2d_link/latency_ns"])
arch_vc = copy(ARCH)
link = arch_vc["package"].get("link", "grs-organic")
arch_vc["package"]["link"] = dict({"preset": link} if isinstance(link, str) else link, latency_ns=1e6)
arch_vc["package"].setdefault("router", {})["model"] = "vc"
f = write("arch-vc-latency-beyond-vc-counters.json", arch_vc)
case("arch-vc-latency-beyond-vc-counters", ["run", "--arch", f, "--workload", TINY, "--out", os.path.join(TMP, "vc-lat"), "-q"],
     [os.path.basename(f), "/package/link/latency_ns"])
graph = {"topology": {"type": "graph", "nodes": ["a", "b", "c"], "links": [{"from": "a", "to": "b"}]}}
for name, topo, where in [
    ("noc-graph-disconnected", graph["topology"], "/topology"),
    ("noc-graph-unknown-node", {"type": "graph", "nodes": ["a", "b"], "links": [{"from": "a", "to": "z"}]}, "/topology/links/0/to"),
    ("noc-graph-self-link", {"type": "graph", "nodes": ["a", "b"], "links": [{"from": "a", "to": "a"}, {"from": "a", "to": "b"}]},
     "/topology/links/0"),
    ("noc-graph-duplicate-node", {"type": "graph", "nodes": ["a", "a"], "links": []}, "/topology/nodes/1"),
    ("noc-graph-no-nodes", {"type": "graph", "nodes": [], "links": []}, "/topology/nodes"),
    ("noc-unknown-topology", {"type": "hypercube", "rows": 4, "cols": 4}, "/topology/type"),
    ("noc-hierarchical-too-big", {"type": "hierarchical", "chiplets": {"rows": 16, "cols": 16}, "chiplet_mesh": {"rows": 32, "cols": 32}},
     "/topology"),
]:
    doc = copy(NOC)
    doc["topology"] = topo
    f = write(name + ".json", doc)
    case(name, ["noc", "--config", f, "--cycles", "100", "--warmup", "10"], [os.path.basename(f), where])

# ---- workload JSON ------------------------------------------------------------------------

WL = load(TINY)
for field, kind, lo, hi in [("c", "i", 1, None), ("k", "i", 1, None), ("h", "i", 1, None), ("r", "i", 1, None),
                            ("stride", "i", 1, None), ("pad", "i", 0, None)]:
    for label, v in bad_numbers(kind, lo, hi) + [("huge", 2**40)]:
        doc = copy(WL)
        doc["layers"][1][field] = v
        name = f"workload-{field}-{label}"
        f = write(name + ".json", doc)
        case(name, ["map", "--arch", good_arch, "--workload", f, "--out", os.path.join(TMP, "w.json")],
             [os.path.basename(f), f"/layers/1/{field}"])
for name, mutate, where in [
    ("workload-batch-zero", lambda d: d.update(batch=0), "/batch"),
    ("workload-batch-huge", lambda d: d.update(batch=2**40), "/batch"),
    ("workload-no-layers", lambda d: d.update(layers=[]), "/layers"),
    ("workload-unknown-kind", lambda d: d["layers"][0].update(kind="capsule"), "/layers/0/kind"),
    ("workload-unknown-key", lambda d: d["layers"][0].update(dilation=2), "/layers/0/dilation"),
    ("workload-channel-mismatch", lambda d: d["layers"][1].update(c=7), "/layers/1"),
    ("workload-kernel-larger-than-input", lambda d: d["layers"][2].update(r=99, s=99), "/layers/2"),
    ("workload-layers-not-array", lambda d: d.update(layers={}), "/layers"),
    ("workload-name-number", lambda d: d.update(name=5), "/name"),
]:
    doc = copy(WL)
    mutate(doc)
    f = write(name + ".json", doc)
    case(name, ["map", "--arch", good_arch, "--workload", f, "--out", os.path.join(TMP, "w.json")], [os.path.basename(f), where])

# ---- SCALE-Sim CSV ------------------------------------------------------------------------

CONV_HEADER = "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n"
good_csv = write("good_topology.csv", CONV_HEADER + "conv1, 16, 16, 3, 3, 3, 8, 1,\nconv2, 16, 16, 3, 3, 8, 8, 1,\n")
rc, _, err = run(["workload", "--scalesim-csv", good_csv])
print("ok control-csv" if rc == 0 else f"FAIL control-csv: {err.decode()[:300]}")
for name, row in [("csv-zero-height", "conv2, 0, 16, 3, 3, 8, 8, 1,"), ("csv-negative-width", "conv2, 16, -4, 3, 3, 8, 8, 1,"),
                  ("csv-text-channels", "conv2, 16, 16, 3, 3, eight, 8, 1,"), ("csv-zero-stride", "conv2, 16, 16, 3, 3, 8, 8, 0,"),
                  ("csv-huge-filters", "conv2, 16, 16, 3, 3, 8, 99999999999, 1,"), ("csv-filter-larger", "conv2, 16, 16, 17, 3, 8, 8, 1,"),
                  ("csv-short-row", "conv2, 16, 16, 3,"), ("csv-fraction", "conv2, 16.5, 16, 3, 3, 8, 8, 1,"),
                  ("csv-overflow", "conv2, 1e400, 16, 3, 3, 8, 8, 1,")]:
    f = write(name + ".csv", CONV_HEADER + "conv1, 16, 16, 3, 3, 3, 8, 1,\n" + row + "\n")
    case(name, ["workload", "--scalesim-csv", f], [os.path.basename(f), "line 3"])
for name, content in [("csv-empty", ""), ("csv-header-only", CONV_HEADER), ("csv-bad-header", "a,b,c\n1,2,3\n"),
                      ("csv-binary", "\x00\x01\x02\n")]:
    f = write(name + ".csv", content)
    case(name, ["workload", "--scalesim-csv", f], [os.path.basename(f)])

# ---- ONNX ---------------------------------------------------------------------------------


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, wire, payload):
    key = varint((num << 3) | wire)
    if wire == 0:
        return key + varint(payload)
    return key + varint(len(payload)) + payload


def s(num, text):
    return field(num, 2, text.encode())


def attr_ints(name, values):  # AttributeProto: name=1, ints=8, type=20 (INTS=7)
    return s(1, name) + b"".join(field(8, 0, v & (2**64 - 1)) for v in values) + field(20, 0, 7)


def tensor_type(dims):  # TypeProto.tensor_type(1){elem_type=1, shape=2{dim=1{dim_value=1}}}
    shape = b"".join(field(1, 2, field(1, 0, d)) for d in dims)
    return field(1, 2, field(1, 0, 1) + field(2, 2, shape))


def value_info(name, dims):  # ValueInfoProto: name=1, type=2
    return s(1, name) + field(2, 2, tensor_type(dims))


def initializer(name, dims):  # TensorProto: dims=1, data_type=2, name=8, raw_data=9
    count = 1
    for d in dims:
        count *= d
    return b"".join(field(1, 0, d) for d in dims) + field(2, 0, 1) + s(8, name) + field(9, 2, b"\0" * 4 * count)


def conv_model(strides=(1, 1), kernel=(3, 3), pads=(1, 1, 1, 1), w_dims=(8, 3, 3, 3), x_dims=(1, 3, 16, 16), inputs=("x", "w")):
    node = b"".join(s(1, i) for i in inputs) + s(2, "y") + s(3, "conv") + s(4, "Conv")
    node += field(5, 2, attr_ints("strides", strides)) + field(5, 2, attr_ints("kernel_shape", kernel))
    node += field(5, 2, attr_ints("pads", pads))
    graph = field(1, 2, node) + s(2, "g") + field(5, 2, initializer("w", w_dims))
    graph += field(11, 2, value_info("x", x_dims)) + field(12, 2, value_info("y", (1, w_dims[0], 16, 16)))
    opset = field(8, 2, s(1, "") + field(2, 0, 13))
    return field(1, 0, 8) + opset + field(7, 2, graph)  # ir_version=1, opset_import=8, graph=7


good_onnx = write("good_model.onnx", conv_model(), binary=True)
rc, _, err = run(["workload", "--onnx", good_onnx])
print("ok control-onnx" if rc == 0 else f"FAIL control-onnx: {err.decode()[:300]}")
onnx_cases = [
    ("onnx-empty", b""),
    ("onnx-garbage", bytes(range(256)) * 4),
    ("onnx-text", b"this is not a model\n"),
    ("onnx-truncated", conv_model()[:-7]),
    ("onnx-conv-stride-zero", conv_model(strides=(0, 1))),
    ("onnx-conv-negative-stride", conv_model(strides=(-1, 1))),
    ("onnx-conv-kernel-mismatch", conv_model(kernel=(5, 5))),
    ("onnx-conv-negative-pad", conv_model(pads=(-3, 0, 0, 0))),
    ("onnx-conv-missing-weight", conv_model(inputs=("x", "nothing"))),
    ("onnx-conv-channel-mismatch", conv_model(w_dims=(8, 5, 3, 3))),
    ("onnx-conv-zero-input", conv_model(x_dims=(1, 3, 0, 16))),
    ("onnx-no-graph", field(1, 0, 8) + field(8, 2, s(1, "") + field(2, 0, 13))),
]
for name, content in onnx_cases:
    f = write(name + ".onnx", content, binary=True)
    case(name, ["workload", "--onnx", f], [os.path.basename(f)])

# ---- plans --------------------------------------------------------------------------------


def find_op(plan, kind):
    for li, layer in enumerate(plan["layers"]):
        for oi, op in enumerate(layer["ops"]):
            if op["kind"] == kind:
                return li, oi
    raise KeyError(kind)


def plan_case(name, mutate, needles, codes=(2,), evaluators=("estimate",)):
    doc = copy(PLAN)
    mutate(doc)
    f = write(name + ".json", doc)
    for ev in evaluators:
        out = os.path.join(TMP, name + "-" + ev)
        case(f"{name}-{ev}", [ev, "--arch", good_arch, "--plan", f, "--out", out, "-q"], [os.path.basename(f)] + needles, codes)


FIELDS = {
    "compute": [("macs", -1), ("macs", 2**62), ("sram_bytes", -5), ("chiplet", 4), ("chiplet", -1), ("id", "x"),
                ("tile", 5), ("deps", [999999]), ("deps", "0"), ("vector_ops", -1)],
    "dram_read": [("bytes", -1), ("bytes", 2**62), ("memory", 1), ("address", -1), ("address", 2**64 - 1), ("address", 2**40)],
    "dram_write": [("bytes", 2**50), ("memory", -1)],
}
for kind, muts in FIELDS.items():
    li, oi = find_op(PLAN, kind)
    for key, v in muts:
        where = f"/layers/{li}/ops/{oi}" + (f"/{key}" if key not in ("deps",) or not isinstance(v, list) else "")
        label = re.sub(r"[^a-z0-9]+", "", str(v).lower())[:12] or "neg"
        plan_case(f"plan-{kind}-{key}-{label}", lambda d, li=li, oi=oi, key=key, v=v: d["layers"][li]["ops"][oi].update({key: v}),
                  [f"/layers/{li}/ops/{oi}"])
li, oi = find_op(PLAN, "compute")
for key, v in [("k", 0), ("c", -3), ("p", 2**40), ("stride", 0), ("n", "1")]:
    plan_case(f"plan-shape-{key}-{v}", lambda d, key=key, v=v: d["layers"][li]["ops"][oi]["shape"].update({key: v}),
              [f"/layers/{li}/ops/{oi}"])
plan_case("plan-shape-macs-mismatch", lambda d: d["layers"][li]["ops"][oi].update(macs=d["layers"][li]["ops"][oi]["macs"] + 1),
          [f"/layers/{li}/ops/{oi}"])
sl, so = find_op(PLAN, "send")
rl, ro = find_op(PLAN, "recv")
for key, v in [("to", 4), ("to", -2), ("bytes", 0), ("bytes", -1), ("bytes", 2**62), ("flow", -7)]:
    # Bytes that differ from the matching recv's may be reported at either end of the flow.
    where = [] if key == "bytes" and v > 0 else [f"/layers/{sl}/ops/{so}"]
    plan_case(f"plan-send-transfer-{key}-{re.sub(r'[^0-9a-z]', 'm', str(v))}",
              lambda d, key=key, v=v: d["layers"][sl]["ops"][so]["transfers"][0].update({key: v}), where)
plan_case("plan-send-to-itself", lambda d: d["layers"][sl]["ops"][so]["transfers"][0].update(to=d["layers"][sl]["ops"][so]["chiplet"]),
          [f"/layers/{sl}/ops/{so}"])
plan_case("plan-recv-without-send", lambda d: d["layers"][sl]["ops"][so]["transfers"].pop(0), [])
plan_case("plan-flow-bytes-differ", lambda d: d["layers"][sl]["ops"][so]["transfers"][0].update(
    bytes=d["layers"][sl]["ops"][so]["transfers"][0]["bytes"] + 1), [])
# Routes: router ids of mcm-2x2, row-major; a loop back and forth, a jump over a missing link,
# a route that does not start at the sender or leaves the package.
src = PLAN["layers"][sl]["ops"][so]["chiplet"]
dst = PLAN["layers"][sl]["ops"][so]["transfers"][0]["to"]
other = [r for r in range(4) if r not in (src, dst)][0]
for name, route in [("plan-route-loops", [src, dst] * 5000 + [src, dst]), ("plan-route-leaves-package", [src, 7, dst]),
                    ("plan-route-wrong-start", [other, dst]), ("plan-route-not-neighbours", [src, 3 - src] + ([dst] if dst != 3 - src else [])),
                    ("plan-route-empty", []), ("plan-route-strings", ["a", "b"])]:
    plan_case(name, lambda d, route=route: d["layers"][sl]["ops"][so]["transfers"][0].update(route=route), [f"/layers/{sl}/ops/{so}"])
for name, mutate, where in [
    ("plan-version-99", lambda d: d.update(version=99), "/version"),
    ("plan-version-string", lambda d: d.update(version="3"), "/version"),
    ("plan-format-wrong", lambda d: d.update(format="other"), "/format"),
    ("plan-chiplets-mismatch", lambda d: d.update(chiplets=9), "/chiplets"),
    ("plan-chiplets-zero", lambda d: d.update(chiplets=0), "/chiplets"),
    ("plan-memories-mismatch", lambda d: d.update(memories=3), "/memories"),
    ("plan-no-layers", lambda d: d.update(layers=[]), "/layers"),
    ("plan-layer-input-later", lambda d: d["layers"][0].update(inputs=[2]), "/layers/0/inputs/0"),
    ("plan-layer-macs-negative", lambda d: d["layers"][0].update(macs=-1), "/layers/0/macs"),
    ("plan-unknown-key", lambda d: d.update(extra=1), "/extra"),
    ("plan-op-unknown-kind", lambda d: d["layers"][0]["ops"][0].update(kind="teleport"), "/layers/0/ops/0/kind"),
    ("plan-duplicate-op-id", lambda d: d["layers"][0]["ops"][1].update(id=d["layers"][0]["ops"][0]["id"]), "/layers/0/ops/1"),
    ("plan-mapping-share-negative", lambda d: d["layers"][0]["mapping"].update(shares=[-1, 1, 1, 1]), "/layers/0/mapping/shares/0"),
    ("plan-mapping-share-huge", lambda d: d["layers"][0]["mapping"].update(shares=[1e300, 1, 1, 1]), "/layers/0/mapping/shares/0"),
    ("plan-seed-negative", lambda d: d.update(seed=-1), "/seed"),
]:
    plan_case(name, mutate, [where])


def hand_plan(ops):
    return {"format": "mcmsim-plan", "version": 1, "arch": "mcm-2x2", "workload": "hand", "optimizer": "hand", "seed": 1,
            "chiplets": 4, "memories": 1, "layers": [{"name": "l0", "macs": 0, "ops": ops}]}


cycle = hand_plan([
    {"id": 0, "chiplet": 0, "kind": "recv", "bytes": 64, "flow": 1, "from": 1},
    {"id": 1, "chiplet": 0, "kind": "send", "deps": [0], "bytes": 64, "flow": 0, "to": 1},
    {"id": 2, "chiplet": 1, "kind": "recv", "bytes": 64, "flow": 0, "from": 0},
    {"id": 3, "chiplet": 1, "kind": "send", "deps": [2], "bytes": 64, "flow": 1, "to": 0},
])
f = write("plan-dependency-cycle.json", cycle)
for ev in ("estimate", "simulate", "validate"):
    case(f"plan-dependency-cycle-{ev}", [ev, "--arch", good_arch, "--plan", f, "--out", os.path.join(TMP, "cyc-" + ev), "-q"],
         ["plan-dependency-cycle.json"])
self_dep = hand_plan([{"id": 0, "chiplet": 0, "kind": "compute", "deps": [0], "macs": 64, "sram_bytes": 0, "tile": "t"}])
f = write("plan-self-dependency.json", self_dep)
case("plan-self-dependency", ["estimate", "--arch", good_arch, "--plan", f, "--out", os.path.join(TMP, "sd"), "-q"],
     ["plan-self-dependency.json", "/layers/0/ops/0"])
for name, content in [("plan-empty", ""), ("plan-truncated", json.dumps(PLAN)[:500]), ("plan-deep-nesting", "[" * 100000 + "]" * 100000)]:
    f = write(name + ".json", content)
    case(name, ["estimate", "--arch", good_arch, "--plan", f, "--out", os.path.join(TMP, name), "-q"], [os.path.basename(f)])

# ---- search spaces ------------------------------------------------------------------------

for name, space, where in [
    ("space-partitions-empty", {"mapping": {"partitions": []}}, "/mapping/partitions"),
    ("space-partition-unknown", {"mapping": {"partitions": ["z"]}}, "/mapping/partitions/0"),
    ("space-units-zero", {"mapping": {"units_per_part": 0}}, "/mapping/units_per_part"),
    ("space-units-huge", {"mapping": {"units_per_part": 65}}, "/mapping/units_per_part"),
    ("space-route-unknown", {"mapping": {"routes": ["zigzag"]}}, "/mapping/routes/0"),
    ("space-collective-unknown", {"mapping": {"collectives": ["gossip"]}}, "/mapping/collectives/0"),
    ("space-segments-zero", {"mapping": {"pipeline_segments": [0]}}, "/mapping/pipeline_segments/0"),
    ("space-segments-too-many", {"mapping": {"pipeline_segments": [64]}}, "/mapping/pipeline_segments"),
    ("space-bandwidth-zero", {"hardware": {"link_bandwidth_gbps": [0]}}, "/hardware/link_bandwidth_gbps/0"),
    ("space-bandwidth-huge", {"hardware": {"link_bandwidth_gbps": [1e9]}}, "/hardware/link_bandwidth_gbps/0"),
    ("space-dram-count-zero", {"hardware": {"dram_count": [0]}}, "/hardware/dram_count/0"),
    ("space-placement-unknown", {"hardware": {"dram_placement": ["moon"]}}, "/hardware/dram_placement/0"),
    ("space-link-preset-unknown", {"hardware": {"link_preset": ["warp"]}}, "/hardware/link_preset/0"),
    ("space-unknown-key", {"mapping": {"colour": ["red"]}}, "/mapping/colour"),
    ("space-not-object", [], ""),
]:
    f = write(name + ".json", space)
    case(name, ["map", "--arch", good_arch, "--workload", TINY, "--optimizer", "exhaustive", "--space", f,
                "--out", os.path.join(TMP, "s.json"), "-q"], [os.path.basename(f)] + ([where] if where else []))

# ---- command-line options -----------------------------------------------------------------

out = os.path.join(TMP, "cli_out")
a_file = write("a_file.txt", "x")
MAP = ["map", "--arch", good_arch, "--workload", TINY, "--out", os.path.join(TMP, "cli.json"), "-q"]
for opt, values in [("--batch", ["0", "-1", "abc", "1099511627776", "1.5"]), ("--seed", ["-1", "x", "99999999999999999999999"]),
                    ("--population", ["0", "-3", "many"]), ("--generations", ["-1", "x"]), ("--budget-s", ["-1", "nan", "1e400"]),
                    ("--segments", ["0", "99"]), ("--optimizer", ["annealing"]), ("--objective", ["beauty"]),
                    ("--collective", ["gossip"]), ("--split", ["z", "0x2"]), ("--placement", ["random"]),
                    ("--weights", ["broadcast"]), ("--inputs", ["teleport"]), ("--micro-batch", ["0", "-2"])]:
    for v in values:
        name = f"cli-map{opt}-{re.sub(r'[^a-z0-9]', 'm', v.lower())}"
        extra = ["--placement", "pipelined"] if opt == "--micro-batch" else ["--optimizer", "ga"] if opt in ("--population", "--generations") else []
        case(name, MAP + extra + [opt, v], [opt])
NOC_RUN = ["noc", "--config", os.path.join(SRC, "configs/noc/mesh8x8.json")]
for opt, values in [("--rate", ["-0.1", "2", "x"]), ("--cycles", ["0", "-5", "99999999999999999999"]), ("--warmup", ["-1", "x"]),
                    ("--threads", ["0", "1000"]), ("--packet-flits", ["0", "-1"]), ("--seed", ["-1"]), ("--drain-limit", ["-1"]),
                    ("--traffic", ["chaos"]), ("--rates", ["0.5:0.1:0.1", "a:b:c", "0.1:0.2:0"])]:
    for v in values:
        case(f"cli-noc{opt}-{re.sub(r'[^a-z0-9]', 'm', v.lower())}", NOC_RUN + [opt, v], [opt])
for opt, values in [("--requests", ["0", "-1", "9223372036854775807", "x"]), ("--read-ratio", ["-0.5", "1.5"]),
                    ("--stride", ["-64"]), ("--request-bytes", ["-1", "1099511627776"]), ("--in-flight", ["-1", "1000000000"]),
                    ("--pattern", ["spiral"]), ("--preset", ["ddr9"])]:
    for v in values:
        case(f"cli-dram{opt}-{re.sub(r'[^a-z0-9]', 'm', v.lower())}", ["dram", "--preset", "hbm2", "--requests", "1000", opt, v], [opt])
for name, args, needles in [
    ("cli-unknown-command", ["teleport"], ["teleport"]),
    ("cli-unknown-option", ["map", "--arch", good_arch, "--colour", "red"], ["--colour"]),
    ("cli-missing-value", ["map", "--arch"], ["--arch"]),
    ("cli-missing-arch", ["map", "--workload", TINY, "--out", os.path.join(TMP, "m.json")], ["--arch"]),
    ("cli-missing-workload", ["map", "--arch", good_arch, "--out", os.path.join(TMP, "m.json")], ["--workload"]),
    ("cli-unknown-zoo-model", ["workload", "--model", "resnet9000"], ["resnet9000"]),
    ("cli-zoo-option-unknown", ["workload", "--model", "gpt2_decode:colour=red"], ["colour"]),
    ("cli-zoo-layers-huge", ["workload", "--model", "gpt2_decode:layers=1073741824"], ["layers"]),
    ("cli-zoo-batch-huge", ["workload", "--model", "resnet50", "--batch", "4294967296"], ["--batch"]),
    ("cli-run-out-is-file", ["run", "--arch", good_arch, "--workload", TINY, "--out", a_file, "-q"], ["--out"]),
    ("cli-stray-argument", ["config", "--arch", good_arch, "stray"], ["stray"]),
    ("cli-simulate-missing-plan", ["simulate", "--arch", good_arch, "--out", out, "-q"], ["--plan"]),
    ("cli-simulate-plan-missing-file", ["simulate", "--arch", good_arch, "--plan", os.path.join(TMP, "none.json"), "--out", out, "-q"],
     ["none.json"]),
    ("cli-arch-unknown-name", ["config", "--arch", "no-such-arch"], ["no-such-arch"]),
    ("cli-sweep-missing-file", ["sweep", os.path.join(TMP, "nosweep.json"), "--out", out], ["nosweep.json"]),
]:
    case(name, args, needles)

# ---- sweep files --------------------------------------------------------------------------

SWEEPS = sorted(os.listdir(os.path.join(SRC, "configs/sweeps")))
if SWEEPS:
    SWEEP = load(os.path.join(SRC, "configs/sweeps", SWEEPS[0]))
    for name, mutate in [("sweep-unknown-key", lambda d: d.update(colour=1)), ("sweep-not-object", None)]:
        doc = [] if mutate is None else copy(SWEEP)
        if mutate:
            mutate(doc)
        f = write(name + ".json", doc)
        case(name, ["sweep", f, "--out", os.path.join(TMP, name)], [os.path.basename(f)])

# ---- run ----------------------------------------------------------------------------------

passed = failed = 0
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    for line in pool.map(lambda c: judge(*c), cases):
        print(line)
        if line.startswith("ok "):
            passed += 1
        else:
            failed += 1
print(f"{passed} passed, {failed} failed ({len(cases)} generated cases)")
shutil.rmtree(TMP, ignore_errors=True)
sys.exit(0 if failed == 0 and len(cases) >= 300 else 1)
