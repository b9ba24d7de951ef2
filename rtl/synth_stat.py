#!/usr/bin/env python3
"""Summarise a Yosys `stat` report as JSON (rtl/rtl.mk, target synth).

usage: synth_stat.py CONFIG STAT_TXT OUT_JSON

STAT_TXT is the text of `tee -o STAT_TXT stat` (Yosys 0.23) on the unflattened design. The
JSON has: per module as Yosys names it (one per parameter set, `$paramod$<hash>\\name`), its
cells (gates; instances of submodules are counted in those) and flip-flops (cells of a
$_*DFF*_ or $_*DLATCH*_ type, one per bit after techmap); per module type (the name without the
parameter hash) its instances and the cells and flip-flops of all of them; and the totals of
the whole design.
"""
import json
import re
import sys


def base_name(module):
    """`$paramod$<hash>\\lfc_queue` -> `lfc_queue`."""
    return module.rsplit("\\", 1)[-1] if module.startswith("$paramod") else module


def parse(text):
    modules = {}
    instances = {}
    top = None
    cur = None
    section = None  # "module", "hierarchy", "hier-cells"
    in_cells = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped == "=== design hierarchy ===":
            top = {"cells": 0, "flops": 0}
            cur = top
            section = "hierarchy"
            in_cells = False
            continue
        m = re.match(r"^=== (.+) ===$", stripped)
        if m:
            cur = {"cells": 0, "flops": 0}
            modules[m.group(1)] = cur
            section = "module"
            in_cells = False
            continue
        if cur is None:
            continue
        m = re.match(r"^Number of cells:\s+(\d+)$", stripped)
        if m:
            if section == "hier-stats":
                cur["cells"] = int(m.group(1))
            in_cells = True
            continue
        if stripped.startswith("Number of"):
            in_cells = False
            if section == "hierarchy":
                section = "hier-stats"
            continue
        m = re.match(r"^(\S+)\s+(\d+)$", stripped)
        if m and in_cells:
            # Gates are $_..._; an instance of a submodule is counted in that module.
            kind, count = m.group(1), int(m.group(2))
            if kind.startswith("$") and not kind.startswith("$paramod"):
                if section != "hier-stats":
                    cur["cells"] += count
                if "DFF" in kind or "DLATCH" in kind:
                    cur["flops"] += count
        elif m and section == "hierarchy":
            instances[m.group(1)] = int(m.group(2))
        elif stripped:
            in_cells = False
    return modules, instances, top


def main():
    config, stat_txt, out_json = sys.argv[1:4]
    with open(stat_txt, encoding="utf-8") as f:
        modules, instances, top = parse(f.read())
    by_type = {}
    for name, m in modules.items():
        n = instances.get(name, 1)
        t = by_type.setdefault(base_name(name), {"instances": 0, "cells": 0, "flops": 0})
        t["instances"] += n
        t["cells"] += n * m["cells"]
        t["flops"] += n * m["flops"]
    result = {
        "config": config,
        "total": top,
        "by_module_type": dict(sorted(by_type.items())),
        "modules": {
            name: dict(m, instances=instances.get(name, 1)) for name, m in sorted(modules.items())
        },
    }
    with open(out_json, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print("synth %s: total %s cells, %s flip-flops -> %s" % (
        config, top["cells"] if top else "?", top["flops"] if top else "?", out_json))
    for name, t in sorted(by_type.items(), key=lambda kv: -kv[1]["cells"]):
        print("  %-16s %4d x  %9d cells  %7d flip-flops" % (
            name, t["instances"], t["cells"], t["flops"]))


if __name__ == "__main__":
    main()
