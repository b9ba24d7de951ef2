#!/usr/bin/env python3
"""pick.py - choose the mutants of one build configuration from Yosys's `mutate -list` output.

    pick.py PLAN CONFIG LIST DESIGN_IL SEED OUT_TSV OUT_YS CTRL_WIDTH

PLAN is tb/mutants/plan.txt (config, module, count per line); LIST is the file written by
`mutate -list N -seed S -o LIST` on the elaborated (not flattened) lfc_switch of CONFIG. Each
line of LIST names one mutation of one bit of one cell port in one module; the module
($paramod$<hash>\\lfc_<name>, or lfc_switch itself: "switch") is the one whose source the
mutant changes, in every instance of that module (with those parameters), as a source mutant
would.

Writes OUT_TSV (id, config, module, mode, yosys module, cell, port, bit, src: one chosen
mutant a line, ids 1..n) and OUT_YS (the Yosys commands that put all of them into one netlist, mutant k active
when the input `mutsel` equals k: Yosys `mutate -ctrl mutsel CTRL_WIDTH k`, as in the mcy flow;
mutate gives each mutated module a `mutsel` input, which OUT_YS then connects, in every instance
of that module in lfc_switch (DESIGN_IL, the elaborated design: all modules are instances of
lfc_switch itself), to lfc_switch's own new `mutsel` input).
Exit 2 with a message if the plan asks for more mutants of a module than LIST offers.
"""
import random
import re
import sys


def fail(msg):
    sys.stderr.write("pick.py: " + msg + "\n")
    sys.exit(2)


def load_plan(path, config):
    want = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            if len(line) != 3 or not line[2].isdigit():
                fail("%s:%d: want 'config module count', got '%s'" % (path, lineno, " ".join(line)))
            if line[0] == config:
                want.append((line[1], int(line[2])))
    if not want:
        fail("%s: no line for configuration '%s'" % (path, config))
    return want


def module_of(ymod):
    """lfc module name (without lfc_) of a Yosys module name."""
    name = ymod.rsplit("\\", 1)[-1]
    return name[4:] if name.startswith("lfc_") else name


def top_instances(design_il):
    """[(module type, instance name)] of the cells of lfc_switch in an RTLIL file."""
    out, in_top = [], False
    with open(design_il) as f:
        for line in f:
            if line.startswith("module "):
                in_top = line.split()[1] == "\\lfc_switch"
            elif in_top and line.startswith("  cell "):
                typ, name = line.split()[1:3]
                # Yosys's own cells ($add, ...) are not instances; parameterised modules are.
                if not typ.startswith("$") or typ.startswith("$paramod"):
                    out.append((typ, name))
    if not out:
        fail("%s: lfc_switch has no instances" % design_il)
    return out


def parse(line):
    """(fields dict, src list) of one `mutate -mode ...` line."""
    toks = line.split()
    if len(toks) < 3 or toks[0] != "mutate" or (len(toks) - 1) % 2:
        return None, None
    fields, srcs = {}, []
    for key, val in zip(toks[1::2], toks[2::2]):
        if key == "-src":
            srcs.append(val)
        else:
            fields[key] = val
    return fields, srcs


def main():
    if len(sys.argv) != 9:
        fail("usage: pick.py PLAN CONFIG LIST DESIGN_IL SEED OUT_TSV OUT_YS CTRL_WIDTH")
    plan, config, lst, design_il, seed, out_tsv, out_ys, width = sys.argv[1:]
    instances = top_instances(design_il)
    want = load_plan(plan, config)
    by_module = {}
    with open(lst) as f:
        for line in f:
            fields, srcs = parse(line)
            if not fields or "-cell" not in fields or fields.get("-mode") == "none":
                continue
            mod = module_of(fields.get("-module", "?"))
            # The source location in the module's own file (the last one: the innermost
            # expression); the instance's location in lfc_switch.v if it is lfc_switch's own.
            own = [s for s in srcs if ("lfc_%s.v" % mod) in s]
            src = (own or srcs or ["?"])[-1]
            by_module.setdefault(mod, []).append((fields, src))
    rng = random.Random(int(seed))
    chosen = []
    for mod, count in want:
        have = by_module.get(mod, [])
        if len(have) < count:
            fail("%s: %d mutants of %s wanted, the list has %d (modules: %s)" %
                 (config, count, mod, len(have), ", ".join(sorted(by_module))))
        for fields, src in rng.sample(have, count):
            chosen.append((mod, fields, src))
    if len(chosen) >= (1 << int(width)):
        fail("%d mutants do not fit a %s-bit mutsel" % (len(chosen), width))
    with open(out_tsv, "w") as tsv, open(out_ys, "w") as ys:
        tsv.write("# id\tconfig\tmodule\tmode\tymodule\tcell\tport\tbit\tsrc\n")
        for k, (mod, f, src) in enumerate(chosen, 1):
            tsv.write("%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" %
                      (k, config, mod, f["-mode"], f["-module"], f["-cell"], f.get("-port", "-"),
                       f.get("-portbit", "-"), src))
            args = " ".join("%s %s" % (key, f[key]) for key in
                            ("-mode", "-module", "-cell", "-port", "-portbit", "-ctrlbit")
                            if key in f)
            ys.write("mutate %s -ctrl mutsel %s %d\n" % (args, width, k))
        mutated = {f["-module"] for _, f, _ in chosen}
        if "lfc_switch" not in mutated:
            ys.write("add -input mutsel %s lfc_switch\n" % width)
        ys.write("cd lfc_switch\n")
        for typ, inst in instances:
            if typ in mutated:
                ys.write("connect -port %s \\mutsel \\mutsel\n" % inst)
        ys.write("cd ..\n")


if __name__ == "__main__":
    main()
