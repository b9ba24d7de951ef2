#!/usr/bin/env python3
"""vvp_strip.py - take the nodes that only pass a value on out of the compiled netlist.

    vvp_strip.py IN.vvp OUT.vvp

IN.vvp is what `iverilog -S` compiled from tb/vpi/tb_top.v and the rewritten Yosys netlist
(tb/tb.mk, SIM=icarus-netlist); OUT.vvp the same simulation with fewer nodes for vvp to pass
values through. Used for no other build.

Why: vvp gives every net a node of its own (a `.net` statement) that stores the net's value,
compares each new value with it and passes it on only if it changed, about 100 instructions
each time a value passes. Besides the design's named wires, a flat Yosys netlist has thousands
of nets no one looks at: iverilog's temporaries, one per sub-expression (local, `*"_ivl_123"`),
and Yosys's anonymous wires between its cells (`_0123_`). On pfc_basic removing their nodes
saves 8 % of vvp's instructions per simulated cycle (docs/perf-log.md); removing the nodes
of the named wires as well costs 25 % more instead (their comparisons stop changes that would
otherwise run on through the logic), so those stay. Also removed: a concatenation of one
input (`.concat [ w 0 0 0], x`), which iverilog writes for the last node of a concatenation of
more than four parts (it splits them by fours) and for `{ x }`; it copies x bit by bit at every
change (1 % of the cycle on pfc_basic).

What is removed: a net of an instance of module lfc_switch whose name is `_ivl_<n>` or
`_<n>_`, declared as a plain 4-state `.net` with one driver; every reader of it reads its driver
instead. The values the logic computes are the same (a net with one driver passes its driver's
value on unchanged); only repeated equal values now reach the readers, which compute the same
result again. A net read by a process (thread code), by an event (`.event`, the `@(...)` of a
process) or by anything else than a functor's input list is kept, as is every net of the other
scopes (tb_top's ports, which tb/vpi/cosim_vpi.c reads by name). Such nets do not appear in the
waves of an icarus-netlist run (`WAVES=1`) any more: they have no names of the RTL anyway. A
one-input concatenation is bypassed the same way wherever it is, unless something other than a
functor reads it.

Tied to the compiled form of Icarus 11 (IVL_MAJORS): a file from another Icarus is refused.

Exit status 0; 1 if IN.vvp cannot be read, is not a vvp file, is from another Icarus, or has no
instance of lfc_switch, or if a removed node would still be referenced; 2 for bad arguments.
"""

import re
import sys

MODULE = "lfc_switch"
# A scope declaration: `S_0x... .scope module, "<instance>" "<module>" ...`.
SCOPE = re.compile(r'^S_0x[0-9a-f]+ \.scope (\w+), "[^"]*" "([^"]*)"')
# A net: `<label> .net[/...] [*]"<name>", <msb> <lsb>, <driver>; <n> drivers` (aliases say
# `alias, 1 drivers` and are never taken).
NET = re.compile(r'^(v0x[0-9a-f]+_\d+) \.net(\S*) (\*?)"([^"]*)", -?\d+ -?\d+, '
                 r'([A-Za-z][A-Za-z0-9_]*);\s+1 drivers$')
ANONYMOUS = re.compile(r"_ivl_\d+|_\d+_")
# A functor of one input that only passes it on: `<label> .concat [ <w> 0 0 0], <input>;`.
ONE_INPUT_CONCAT = re.compile(r"^((?:L|LS)_0x[0-9a-f_]+) \.concat \[ \d+ 0 0 0\], "
                              r"((?:L|LS)_0x[0-9a-f_]+|v0x[0-9a-f]+_\d+);$")
LABEL = re.compile(r"\b(?:v0x[0-9a-f]+_\d+|(?:L|LS)_0x[0-9a-f_]+)\b")
# A statement that defines a functor: a label, then the functor's kind.
FUNCTOR = re.compile(r"^[A-Za-z][A-Za-z0-9_]* \.(?!event\b|scope\b|var\b|net)")


# The Icarus whose compiled form this rewriting was written for and checked on (Debian 12's;
# tb/scripts/test_netlist.sh). vvp's statements are an internal format of each Icarus release:
# another release needs test_netlist.sh run on it before its version is added here.
IVL_MAJORS = ("11",)
IVL_VERSION = re.compile(r'^:ivl_version "(\d+)\.[^"]*"')


def strip(lines):
    versions = [m.group(1) for m in map(IVL_VERSION.match, lines) if m]
    if not versions:
        raise ValueError("not a vvp file (no :ivl_version line)")
    if versions[0] not in IVL_MAJORS:
        raise ValueError(f"compiled by Icarus {versions[0]}; this rewriting of vvp's compiled "
                         f"form is written for Icarus {', '.join(IVL_MAJORS)} (tb/README.md "
                         '"The speed seam"): check it with tb/scripts/test_netlist.sh first')
    in_switch = False
    seen_switch = False
    drivers = {}  # label of a net or functor to remove -> the label it passes on
    temporaries = yosys = concats = 0
    for line in lines:
        m = SCOPE.match(line)
        if m:
            in_switch = m.group(1) == "module" and m.group(2) == MODULE
            seen_switch = seen_switch or in_switch
            continue
        m = NET.match(line)
        if m and in_switch and m.group(2) == "" and ANONYMOUS.fullmatch(m.group(4)):
            drivers[m.group(1)] = m.group(5)
        m = ONE_INPUT_CONCAT.match(line)
        if m:
            drivers[m.group(1)] = m.group(2)
    if not seen_switch:
        raise ValueError(f"no instance of module {MODULE}")
    # Keep a net or concatenation that anything but a functor's input list (or a net) reads.
    for line in lines:
        if NET.match(line) or FUNCTOR.match(line):
            continue
        for label in LABEL.findall(line):
            drivers.pop(label, None)

    def source(label):
        while label in drivers:
            label = drivers[label]
        return label

    out = []
    for line in lines:
        m = NET.match(line)
        if m and m.group(1) in drivers:
            if m.group(3):
                temporaries += 1
            else:
                yosys += 1
            continue
        m = ONE_INPUT_CONCAT.match(line)
        if m and m.group(1) in drivers:
            concats += 1
            continue
        out.append(LABEL.sub(lambda t: source(t.group(0)), line))
    for line in out:
        for label in LABEL.findall(line):
            if label in drivers:
                raise ValueError(f"{label}, a removed node, is still read: {line.strip()}")
    return out, temporaries, yosys, concats


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            lines = f.read().split("\n")
        out, temporaries, yosys, concats = strip(lines)
    except (OSError, ValueError) as e:
        print(f"vvp_strip: {argv[1]}: {e}", file=sys.stderr)
        return 1
    with open(argv[2], "w") as f:
        f.write("\n".join(out))
    print(f"vvp_strip: {temporaries + yosys} anonymous nets of {MODULE} removed "
          f"({temporaries} iverilog temporaries, {yosys} Yosys wires), {concats} "
          "concatenations of one input")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
