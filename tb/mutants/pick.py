#!/usr/bin/env python3
"""pick.py - number the mutants of one build configuration and write the Yosys commands for them.

    pick.py PLAN CONFIG DIR DESIGN_IL SEED OUT_TSV OUT_YS CTRL_WIDTH

PLAN is tb/mutants/plan.txt (config, module, count per line). For each module of CONFIG's plan,
DIR/list.<module>.txt holds every mutation Yosys offers of that module (`mutate -list <all>
*lfc_<module>` on the elaborated, not flattened, lfc_switch of CONFIG, written by mutants.sh).
Each line names one mutation of one bit of one cell port in one Yosys module
($paramod$<hash>\\lfc_<name>, or lfc_switch itself: "switch"), the module whose source the
mutant changes, in every instance of that module (with those parameters), as a source mutant
would.

pick.py samples the plan's count of each module itself (sample()): ranked by a hash of SEED,
CONFIG and the mutation's key (module, cell without Yosys's design-wide counter, port, bit,
mode, source locations), one per source line first. Yosys's own `mutate -list N` sampling is
not used: its order, and the control bit it draws for cnot0/cnot1, follow the order of every
cell of the design, so any change of any RTL file gave a new set of mutants everywhere. With
the keys, a module's mutants stay the same while its source, its parameters and the plan do.
(Nearly: the list itself follows that order a little, since where several cell ports carry the
same signal bit Yosys does not always list the same ones; a change of lfc_switch.v alone kept
253 of the other modules' 255 mutants, 16 of them under new ids, after a changed one in their
module.)

Writes OUT_TSV (id, config, module, mode, yosys module, cell, port, bit, src: one mutant a
line, ids 1..n in plan order) and OUT_YS (the Yosys commands that put all of them into one
netlist, mutant k active when the input `mutsel` equals k: Yosys `mutate -ctrl mutsel
CTRL_WIDTH k`, as in the mcy flow; mutate gives each mutated module a `mutsel` input, which
OUT_YS then connects, in every instance of that module in lfc_switch (DESIGN_IL, the elaborated
design: all modules are instances of lfc_switch itself), to lfc_switch's own new `mutsel`
input).
Exit 2 with a message if a list is missing, names another module, or has fewer mutations than
the plan asks for (the module has fewer candidates).
"""
import hashlib
import os
import re
import sys

from report import src_tag


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


# Yosys's own cell names end in a number from a counter over the whole design
# ($add$lfc_ecn.v:66$8504): it changes when any other source changes, so it is not part of a
# mutant's identity.
AUTOIDX = re.compile(r"\$\d+$")
# Modes taken as Yosys lists them, and the two that need a second bit of the same port (cnot0:
# XOR with its inverse, cnot1: with its value), whose ctrlbit Yosys draws from its random number
# stream, which depends on the order of all cells: pick.py draws it from the mutant's key.
PLAIN_MODES = ("inv", "const0", "const1")
CTRL_MODES = ("cnot0", "cnot1")


def candidates(lst, mod):
    """{key: (fields, src)}: every mutation of mod in lst (Yosys `mutate -list` of all of
    them), keyed by what identifies it whatever the rest of the design is: the Yosys module
    (its name is a hash of its parameters), the cell without its counter, port, bit, mode and
    the source locations without directories; cnot modes added for every bit of a port of two
    or more bits."""
    plain, width = {}, {}
    with open(lst) as f:
        for lineno, line in enumerate(f, 1):
            fields, srcs = parse(line)
            if not fields or "-cell" not in fields or fields.get("-mode") not in PLAIN_MODES:
                continue
            if module_of(fields.get("-module", "?")) != mod:
                fail("%s:%d: a mutation of %s, not of %s" %
                     (lst, lineno, fields.get("-module", "?"), mod))
            srcs = [os.path.basename(x) for x in srcs]
            cell = re.sub(r"[^$]*/(lfc_\w+\.v)", r"\1", AUTOIDX.sub("", fields["-cell"]))
            port = (fields["-module"], fields["-cell"], fields.get("-port", "-"))
            bit = int(fields.get("-portbit", "0"))
            width[port] = max(width.get(port, 0), bit + 1)
            key = "|".join((fields["-module"], cell, port[2], str(bit), fields["-mode"],
                            ",".join(srcs)))
            # The source location in the module's own file (the last one: the innermost
            # expression); the instance's location in lfc_switch.v if it is lfc_switch's own.
            own = [x for x in srcs if ("lfc_%s.v" % mod) in x]
            plain.setdefault(key, (fields, (own or srcs or ["?"])[-1], port))
    out = {}
    for key, (fields, src, port) in plain.items():
        out[key] = (fields, src)
        if fields["-mode"] != "inv" or width[port] < 2:
            continue
        for mode in CTRL_MODES:
            ctrl_key = key.replace("|inv|", "|%s|" % mode)
            h = int(hashlib.sha256(ctrl_key.encode()).hexdigest(), 16)
            bit = int(fields.get("-portbit", "0"))
            ctrl = (bit + 1 + h % (width[port] - 1)) % width[port]
            f = dict(fields, **{"-mode": mode, "-ctrlbit": str(ctrl)})
            out[ctrl_key] = (f, src)
    return out


def sample(cands, count, seed, config):
    """count keys of cands, the same for the same set of keys: ranked by a hash of the seed, the
    configuration (a module with the same parameters in two configurations, such as
    lfc_credit_tx, gets different mutants in each) and the key; first one per source line (like
    mutate's even sampling, the mutants spread over the module's code), then the rest by
    rank."""
    def rank(key):
        return hashlib.sha256(("%s|%s|%s" % (seed, config, key)).encode()).digest()
    ranked = sorted(cands, key=rank)
    taken, lines = [], set()
    for key in ranked:
        line = src_tag(cands[key][1])
        if line not in lines:
            lines.add(line)
            taken.append(key)
            if len(taken) == count:
                return taken
    first = set(taken)
    return taken + [k for k in ranked if k not in first][:count - len(taken)]


def main():
    if len(sys.argv) != 9:
        fail("usage: pick.py PLAN CONFIG DIR DESIGN_IL SEED OUT_TSV OUT_YS CTRL_WIDTH")
    plan, config, listdir, design_il, seed, out_tsv, out_ys, width = sys.argv[1:]
    instances = top_instances(design_il)
    chosen = []
    for mod, count in load_plan(plan, config):
        lst = os.path.join(listdir, "list.%s.txt" % mod)
        if not os.path.exists(lst):
            fail("%s: no list of %s's mutations (%s); did Yosys fail?" % (config, mod, lst))
        cands = candidates(lst, mod)
        if len(cands) < count:
            fail("%s: %d mutants of %s wanted, it has %d (%s)" %
                 (config, count, mod, len(cands), lst))
        for key in sample(cands, count, seed, config):
            chosen.append((mod,) + cands[key])
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
