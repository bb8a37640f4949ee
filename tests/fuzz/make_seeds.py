#!/usr/bin/env python3
"""Writes the fuzz harnesses' seed corpora and dictionaries into a fuzz build directory.

Usage: tests/fuzz/make_seeds.py BUILD_DIR

Seeds go to BUILD_DIR/fuzz/seeds/<harness>/, dictionaries to BUILD_DIR/fuzz/dict/<harness>.dict.
Nothing is copied from outside the repository: the seeds are the repository's own configs and
test inputs, small inputs written here, and what BUILD_DIR/tests/fuzz/fuzz_seed_writer makes
with the library (arch dumps, plans from the plan builder, ONNX models). The dictionaries are
taken from the readers' sources, so they name every key the readers know without a list here
to keep up to date. Deterministic: the same tree gives the same files.
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
HARNESSES = ["arch_config", "plan", "workload_json", "scalesim_csv", "onnx", "chakra"]


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    path.write_bytes(data)


def copy_matching(dest, pattern):
    for src in sorted(ROOT.glob(pattern)):
        shutil.copyfile(src, dest / src.name)


def compact(doc):
    return json.dumps(doc, separators=(",", ":"))


# ---- arch configs -----------------------------------------------------------------------

def arch_seeds(dest):
    copy_matching(dest, "configs/arch/*.json")
    copy_matching(dest, "tests/golden/inputs/*.json")
    copy_matching(dest, "tests/cli/bad/arch_*.json")
    # Every way of giving a chiplet, link and DRAM: preset name, preset with overrides, inline.
    base = {
        "name": "seed",
        "chiplet": {"preset": "small-test", "pes": 64},
        "package": {
            "rows": 2, "cols": 3, "topology": "mesh_diagonal", "routing": "yx",
            "link": {"preset": "ucie-standard", "energy_pj_per_bit": 0.6},
            "router": {"model": "vc", "clock_ghz": 1.0, "pipeline_cycles": 3, "flit_bytes": 16},
            "max_packet_bytes": 256,
        },
        "memories": [
            {"name": "m0", "dram": "hbm2", "attach": {"row": 0, "col": 0}},
            {"name": "m1", "dram": {"preset": "lpddr5", "channels": 2}, "attach": {"row": 1, "col": 2},
             "phy_latency_ns": 3, "source": "seed"},
        ],
    }
    write(dest / "seed-overrides.json", compact(base))
    single = json.loads(json.dumps(base))
    single["package"].update(rows=1, cols=1, topology="mesh", routing="xy")
    single["memories"] = [{"name": "m0", "dram": "ddr4-3200", "attach": {"row": 0, "col": 0}}]
    write(dest / "seed-1x1.json", compact(single))
    write(dest / "seed-comments.json",
          "/* block */ {\"name\": \"c\", // line\n \"chiplet\": \"simba\", \"package\": {\"rows\": 1, \"cols\": 2},"
          " \"memories\": [{\"name\": \"m\", \"dram\": \"hbm3\", \"attach\": {\"row\": 0, \"col\": 1}}]}\n")


# ---- plans ------------------------------------------------------------------------------

def hand_plan(version):
    """A plan for mcm-2x2 written by hand: every op kind, a single and (version >= 2) a
    grouped transfer, a source route, and (version 3) layer inputs."""
    single = [
        {"id": 0, "chiplet": 0, "kind": "dram_read", "bytes": 256, "memory": 0, "address": 0},
        {"id": 1, "chiplet": 0, "kind": "compute", "deps": [0], "macs": 4096, "sram_bytes": 512, "tile": "all",
         "vector_ops": 16},
        {"id": 2, "chiplet": 0, "kind": "send", "deps": [1], "bytes": 128, "flow": 0, "to": 3, "route": [0, 1, 3]},
        {"id": 3, "chiplet": 3, "kind": "recv", "bytes": 128, "flow": 0, "from": 0},
        {"id": 4, "chiplet": 3, "kind": "dram_write", "deps": [3], "bytes": 128, "memory": 0, "address": 4096},
    ]
    layers = [{"name": "l0", "macs": 4096, "ops": single}]
    if version >= 2:
        grouped = [
            {"id": 5, "chiplet": 3, "kind": "send", "deps": [4], "transfers": [
                {"to": 1, "bytes": 64, "flow": 1}, {"to": 2, "bytes": 32, "flow": 2, "route": [3, 2]}]},
            {"id": 6, "chiplet": 1, "kind": "recv", "bytes": 64, "flow": 1, "from": 3},
            {"id": 7, "chiplet": 2, "kind": "recv", "transfers": [{"from": 3, "bytes": 32, "flow": 2}]},
        ]
        layer = {"name": "l1", "macs": 0, "ops": grouped}
        if version >= 3:
            layer["inputs"] = [0]
        layers.append(layer)
    return {"format": "mcmsim-plan", "version": version, "arch": "mcm-2x2", "workload": "hand",
            "optimizer": "hand", "seed": 1, "chiplets": 4, "memories": 1, "layers": layers}


def plan_seeds(dest):
    copy_matching(dest, "tests/cli/bad/plan_*.json")
    for version in (1, 2, 3):
        write(dest / f"hand-v{version}.json", compact(hand_plan(version)))


# ---- workloads --------------------------------------------------------------------------

def workload_seeds(dest):
    copy_matching(dest, "tests/cli/tiny_workload.json")
    copy_matching(dest, "tests/cli/bad/workload_*.json")
    layers = [
        {"name": "c1", "kind": "conv", "c": 4, "h": 8, "w": 8, "k": 8, "r": 3, "s": 3, "stride": 1, "pad": 1,
         "bytes_per_element": 2},
        {"name": "dw", "kind": "conv", "c": 8, "h": 8, "w": 8, "k": 8, "r": 3, "s": 3, "pad": 1, "groups": 8},
        {"name": "pool", "kind": "vector", "op": "maxpool", "c": 8, "h": 8, "w": 8, "r": 2, "s": 2, "stride": 2},
        {"name": "avg", "kind": "vector", "op": "avgpool", "c": 8, "h": 4, "w": 4, "r": 4, "s": 4},
        {"name": "fc", "kind": "fc", "c": 8, "k": 16, "m": 4},
        {"name": "qk", "kind": "matmul", "heads": 2, "m": 4, "c": 8, "k": 4, "inputs": ["fc", "fc"]},
        {"name": "sm", "kind": "vector", "op": "softmax", "c": 2, "h": 4, "w": 4},
        {"name": "ln", "kind": "vector", "op": "layernorm", "c": 16, "h": 4, "w": 1, "inputs": [4]},
        {"name": "res", "kind": "vector", "op": "add", "operands": 2, "c": 16, "h": 4, "w": 1, "inputs": ["ln", "fc"]},
    ]
    write(dest / "every-kind.json", json.dumps({"name": "every-kind", "batch": 2, "layers": layers}, indent=1))
    write(dest / "one-fc.json", compact({"name": "fc", "layers": [{"name": "fc", "kind": "fc", "c": 3, "k": 2}]}))


def scalesim_seeds(dest):
    copy_matching(dest, "tests/cli/bad/workload_*.csv")
    conv_header = "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,"
    write(dest / "conv.csv", conv_header + "\nConv1, 34, 34, 3, 3, 3, 16, 1,\nConv2, 32, 32, 3, 3, 16, 32, 2,\n"
          "Conv3_DP, 16, 16, 3, 3, 32, 1, 1,\nFC, 1, 1, 1, 1, 32, 10, 1,\n")
    write(dest / "conv-stride-width.csv",
          conv_header + " Stride Width, Notes\r\nC1, 9, 12, 3, 3, 4, 8, 2, 2, first\r\n\r\n# section\r\n"
          "blocks,,,,,,,,\r\nC2, 4, 4, 1, 1, 8, 8, 1, 1, #comment\r\n")
    write(dest / "gemm.csv", "Layer, M, N, K,\nproj, 64, 32, 16,\nout, 64, 16, 32,\n")


# ---- dictionaries -----------------------------------------------------------------------

KEY_CALL = re.compile(
    r'\.(?:required|optional|number|number_in|positive|non_negative|integer_in|boolean|string|choice<[\w:]+>|allow|has)'
    r'\("([^"\\]+)"')
CHOICE = re.compile(r'\{\s*\w+::\w+\s*,\s*"([^"\\]+)"\s*\}')
PAIR_FIRST = re.compile(r'\{\s*"([a-z_0-9]+)"\s*,\s*\w+::\w+\s*\}')
JSON_TOKENS = ["{", "}", "[", "]", ":", ",", "\"", "true", "false", "null", "0", "-1", "1e308", "4294967296",
               "9223372036854775807", "0.5", "//", "/*", "*/"]


def dict_entry(token):
    return '"' + "".join("\\" + c if c in '"\\' else c if 32 <= ord(c) < 127 else "\\x%02x" % ord(c) for c in token) + '"'


def write_dict(path, tokens):
    lines = [dict_entry(t) for t in sorted(set(tokens))]
    write(path, "\n".join(lines) + "\n")


def source_text(patterns):
    return "\n".join(p.read_text(encoding="utf-8") for pat in patterns for p in sorted(ROOT.glob(pat)))


def json_dict(path, sources, presets=()):
    text = source_text(sources)
    names = set(KEY_CALL.findall(text)) | set(CHOICE.findall(text)) | set(PAIR_FIRST.findall(text))
    for kind in presets:
        names |= {p.stem for p in (ROOT / "configs" / kind).glob("*.json")}
    write_dict(path, JSON_TOKENS + ['"%s"' % n for n in names])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = pathlib.Path(sys.argv[1])
    seeds, dicts = build / "fuzz" / "seeds", build / "fuzz" / "dict"
    shutil.rmtree(seeds, ignore_errors=True)
    for h in HARNESSES:
        (seeds / h).mkdir(parents=True)
    subprocess.run([str(build / "tests" / "fuzz" / "fuzz_seed_writer"), str(seeds)], check=True)
    arch_seeds(seeds / "arch_config")
    plan_seeds(seeds / "plan")
    workload_seeds(seeds / "workload_json")
    scalesim_seeds(seeds / "scalesim_csv")
    copy_matching(seeds / "onnx", "tests/cli/bad/workload_*.onnx")

    json_dict(dicts / "arch_config.dict", ["hw/config/*.cpp", "hw/config/*.h", "hw/dram/dram_config.*"],
              presets=("chiplets", "links", "dram"))
    json_dict(dicts / "plan.dict", ["traces/plan/plan_json.cpp", "traces/plan/plan.h", "mapper/mapping/mapping.h"])
    json_dict(dicts / "workload_json.dict", ["mapper/workload/workload_json.cpp", "mapper/workload/workload*"])
    csv_text = source_text(["mapper/workload/import/scalesim_importer.cpp"])
    fields = re.findall(r'"([A-Z][A-Za-z ]+)"', csv_text)
    write_dict(dicts / "scalesim_csv.dict", fields + [",", ", ", "\n", "\r\n", "#", "DP", "0", "1073741824"])
    onnx_text = source_text(["mapper/workload/import/onnx_*.cpp", "mapper/workload/import/layer_fusion.cpp"])
    ops = re.findall(r'"([A-Za-z][A-Za-z0-9_]{1,30})"', onnx_text)
    write_dict(dicts / "onnx.dict", ops)
    chakra_text = source_text(["traces/chakra/chakra_trace.cpp"])
    write_dict(dicts / "chakra.dict", re.findall(r'"((?:mcmsim\.)?[a-z_.]{3,30})"', chakra_text))
    for h in HARNESSES:
        count = sum(1 for _ in (seeds / h).iterdir())
        print(f"make_seeds: {h}: {count} seeds")


if __name__ == "__main__":
    main()
