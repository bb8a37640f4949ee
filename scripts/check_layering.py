#!/usr/bin/env python3
"""The data path as include rules, checked on every source file.

Each stage is a set of folders and the stages it may include; a file may include its own
stage and the stages listed for it, never a later one. Folders marked pure include no SystemC
or TLM header. Usage: scripts/check_layering.py [repository root]; exits 1 on a violation.
"""
import pathlib
import re
import sys

# stage: (folders, stages it may include, pure C++)
STAGES = {
    "kit":          (["hw"], [], False),
    "workload":     (["mapper/workload"], ["kit"], True),
    "mapping":      (["mapper/mapping"], ["kit", "workload"], True),
    "plan":         (["traces/plan", "traces/chakra"], ["kit"], True),
    "plan_builder": (["mapper/plan_builder"], ["kit", "workload", "mapping", "plan"], True),
    "model":        (["mapper/model"], ["kit", "plan"], True),
    "network":      (["noc"], ["kit"], False),
    "chiplets":     (["chiplets"], ["kit", "network", "plan"], False),
    "system":       (["sim/system"], ["kit", "network", "chiplets", "plan"], False),
    "optimize":     (["mapper/optimize"], ["kit", "workload", "mapping", "plan", "plan_builder", "model"], True),
    "report":       (["traces/report"], ["kit", "workload", "mapping", "plan", "plan_builder", "model", "optimize"], True),
    "sweep":        (["sim/sweep"], ["kit", "workload", "mapping", "plan", "plan_builder", "model", "optimize", "report"],
                     True),
    "cli":          (["sim/cli"], ["kit", "workload", "mapping", "plan", "plan_builder", "model", "network", "chiplets",
                                   "system", "optimize", "report", "sweep"], False),
}
# Inside the kit, these folders are pure C++ too (the rest of hw/ is the SystemC kit:
# simulated time, the DRAM controllers).
PURE_KIT = ["hw/common", "hw/config", "hw/topology", "hw/energy", "hw/compute"]

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SYSTEMC = re.compile(r"^(systemc|tlm)(\.h)?$|^(sysc|tlm_core|tlm_utils)/")


def stage_of(path):
    best = None
    for stage, (folders, _, _) in STAGES.items():
        for f in folders:
            if path == f or path.startswith(f + "/"):
                if best is None or len(f) > len(best[1]):
                    best = (stage, f)
    return best[0] if best else None


def includes_of(root, rel, cache={}):
    if rel not in cache:
        out = []
        path = root / rel
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                m = INCLUDE.match(line)
                if m:
                    out.append(m.groups())
        cache[rel] = out
    return cache[rel]


def reaches_systemc(root, rel, seen=None):
    """Whether a project header includes SystemC, directly or through other headers."""
    seen = set() if seen is None else seen
    if rel in seen:
        return False
    seen.add(rel)
    for kind, target in includes_of(root, rel):
        if kind == "<" and SYSTEMC.search(target):
            return True
        if kind == '"' and reaches_systemc(root, target, seen):
            return True
    return False


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems = []
    files = 0
    for src in sorted(root.rglob("*")):
        if src.suffix not in (".h", ".cpp") or "build" in src.relative_to(root).parts[:1]:
            continue
        rel = src.relative_to(root).as_posix()
        stage = stage_of(rel)
        if stage is None:
            continue
        files += 1
        _, allowed, pure = STAGES[stage]
        pure = pure or any(rel.startswith(p + "/") for p in PURE_KIT)
        for n, line in enumerate(src.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            kind, target = m.groups()
            if kind == "<":
                if pure and SYSTEMC.search(target):
                    problems.append(f"{rel}:{n}: {stage} is pure C++ but includes <{target}>")
                continue
            dep = stage_of(target)
            if dep is None:
                if (root / target).exists():
                    problems.append(f"{rel}:{n}: includes {target}, which belongs to no stage")
                continue
            if dep != stage and dep not in allowed:
                problems.append(f"{rel}:{n}: {stage} includes {target} of stage {dep}, which is not before it")
            if pure and reaches_systemc(root, target):
                problems.append(f"{rel}:{n}: {stage} is pure C++ but {target} brings in SystemC")
    for p in problems:
        print(p)
    print(f"layering: {files} files, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
