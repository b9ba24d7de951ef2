#!/usr/bin/env python3
"""netlist_vvp.py - rewrite Yosys's flat netlist of the switch into the form vvp runs fastest.

    netlist_vvp.py IN.v OUT.v

IN.v is what `write_verilog -noattr` wrote in tb/scripts/netlist.sh; OUT.v the same design,
compiled by `iverilog -S` (tb/tb.mk) for `make cosim SIM=icarus-netlist`. The logic is the same
line for line; only the processes and the drivers of the output ports change (docs/perf-log.md
has the measurements):

- The plain flip-flops. write_verilog gives each register its own

      always @(posedge clk_i)
        q <= d;

  and vvp 11 costs about 1,400 instructions per such process per clock edge (a thread wake-up,
  and a load whose C++ dynamic_cast alone is 500), changed or not. Here the registers of one
  RTL instance (the same name up to its last '.') become one wide register fed by the
  concatenation of their next values, each old name a wire on its part:

      wire [W-1:0] lfc_nl_d3 = { d_a, d_b };
      reg  [W-1:0] lfc_nl_q3;
      always @(posedge clk_i) lfc_nl_q3 <= lfc_nl_d3;
      assign q_a = lfc_nl_q3[W-1:w_b];  ...

  which `iverilog -S` turns into one flip-flop functor (`.dff`) per instance: one event per
  clock edge for the instance instead of one thread per register. Grouping by instance beat
  the alternatives measured (one register each, one for the whole switch, groups by coarser
  names or capped in width): its registers tend to change together, and a part select of a wide
  vector is re-evaluated whenever any part of it changes.
- The memories' write processes (a queue's FIFO: one `if (wr_valid[k]) mem[addr] <= data;` per
  writer) stay threads, which `iverilog -S` cannot synthesise (ivl_synthesis_off), but all of
  them become one process: it tests one wire, the OR of every memory's conditions, then each
  memory's own OR, then each condition, so that a cycle without a write wakes one thread and
  loads one signal instead of one thread and one signal per memory (each write is the same
  nonblocking assignment at the same edge as before, so the order of the memories does not
  matter; 8 memories on pfc_basic: 2.6 % of a cycle).
- An output port driven in parts (a port vector's per-port slices, each by an assign of its
  own) becomes one driver, the concatenation of a wire per part, which each of those assigns
  drives instead (whole_ports below: on 16 ports this alone is 80 % of vvp's instructions).
- Any other process is kept as it is, with synthesis off; a combinational one (`always @*`),
  which iverilog -S would synthesise all the same, is an error.

Otherwise an input of another form than the one these rules were written for is not an error:
what does not match stays a process as write_verilog wrote it (correct, only slower), and the
counts of what was rewritten are printed. Exit status 0; 1 if IN.v cannot be read, is not one
module, has a combinational process, or has a name this script adds; 2 for bad arguments.
"""

import re
import sys

SYNTH_OFF = "(* ivl_synthesis_off *) "
CLOCK = "  always @(posedge clk_i)"
PREFIX = "lfc_nl_"
# An identifier as write_verilog writes it: escaped (ends at a space) or simple.
IDENT = r"(?:\\\S+ |[A-Za-z_][A-Za-z0-9_$]*)"
REG_DECL = re.compile(r"^  reg (?:\[(\d+):0\] )?(" + IDENT + r") ?;$")
FF_STMT = re.compile(r"^    (" + IDENT + r") ?<= ([^;]+);$")
IF_LINE = re.compile(r"^    if \((.+)\)$")
OUTPUT_DECL = re.compile(r"^  output (?:\[(\d+):0\] )?([A-Za-z_][A-Za-z0-9_$]*);$")
# An item of the left side of an assign that is (part of) a port: `name`, `name[i]`, `name[h:l]`.
PORT_ITEM = re.compile(r"^([A-Za-z_][A-Za-z0-9_$]*)(?:\[(\d+)(?::(\d+))?\])?$")


def bare(name):
    """The name without its escape and trailing space, as a key."""
    return name[1:].rstrip() if name.startswith("\\") else name


def ref(name):
    """The name as it must be written before a following token."""
    return name if not name.startswith("\\") or name.endswith(" ") else name + " "


def instance(name):
    """The RTL instance a register belongs to: its name up to the last '.'."""
    b = bare(name)
    return b.rsplit(".", 1)[0] if "." in b else ""


def whole_ports(lines):
    """Each output port driven in parts gets one driver: the concatenation of a wire per part.

    A net driven by several continuous assignments is resolved by strength in vvp: a
    strength-aware concatenation of its parts, which every reader of a part of it reduces to
    plain values bit by bit, all of its width, at every change (on 16 ports, 2,048 bits of
    tx_pfc_time_o: 80 % of vvp's instructions). Each assignment now drives a wire of its own
    and the port is their plain concatenation; a reader of the port reads the same bits.
    A port whose parts do not cover it exactly once is left as it is. Returns the lines and
    the number of ports rewritten.
    """
    ports = {}
    for line in lines:
        m = OUTPUT_DECL.match(line)
        if m:
            ports[m.group(2)] = int(m.group(1)) + 1 if m.group(1) else 1
    parts = {}  # port -> [(lo, hi, line index, item index)]
    lhs_items = {}  # line index -> the items of its left side
    for i, line in enumerate(lines):
        if not line.startswith("  assign ") or " = " not in line:
            continue
        lhs = line[len("  assign "):].split(" = ", 1)[0]
        items = lhs[1:-1].strip().split(", ") if lhs.startswith("{") else [lhs]
        for j, item in enumerate(items):
            m = PORT_ITEM.match(item.strip())
            if m and m.group(1) in ports:
                hi = int(m.group(2)) if m.group(2) else ports[m.group(1)] - 1
                lo = int(m.group(3)) if m.group(3) else (hi if m.group(2) else 0)
                parts.setdefault(m.group(1), []).append((lo, hi, i, j))
                lhs_items[i] = items
    new_items = {}  # (line index, item index) -> the wire that replaces it
    decls, tails, n = {}, [], 0
    for port, ps in parts.items():
        ps.sort()
        if len(ps) == 1 and ps[0][:2] == (0, ports[port] - 1):
            continue  # one driver of the whole port already
        if [lo for lo, _, _, _ in ps] != [0] + [hi + 1 for _, hi, _, _ in ps[:-1]] or \
                ps[-1][1] != ports[port] - 1:
            continue  # gaps or overlaps: leave it to vvp's resolution
        wires = []
        for lo, hi, i, j in ps:
            w = f"{PREFIX}p{len(new_items)}"
            new_items[(i, j)] = w
            decls.setdefault(i, []).append(f"  wire [{hi - lo}:0] {w};")
            wires.append(w)
        tails.append(f"  assign {port} = {{ " + ", ".join(reversed(wires)) + " };")
        n += 1
    out = []
    for i, line in enumerate(lines):
        if i in decls:
            out.extend(decls[i])
            items = [new_items.get((i, j), item) for j, item in enumerate(lhs_items[i])]
            lhs = "{ " + ", ".join(items) + " }" if len(items) > 1 else items[0]
            line = "  assign " + lhs + " = " + line.split(" = ", 1)[1]
        if line == "endmodule":
            out.extend(tails)
        out.append(line)
    return out, n


def rewrite(lines):
    widths = {}  # register name (bare) -> width
    for line in lines:
        m = REG_DECL.match(line)
        if m:
            widths[bare(m.group(2))] = int(m.group(1)) + 1 if m.group(1) else 1
    if any(PREFIX in line for line in lines):
        raise ValueError(f"the netlist already has names beginning with {PREFIX}")
    # One module: the registers of each group are declared, and the group written, in it.
    modules = sum(1 for line in lines if line.startswith("module "))
    ends = sum(1 for line in lines if line == "endmodule")
    if modules != 1 or ends != 1:
        raise ValueError(f"{modules} module and {ends} endmodule lines, expected one of each "
                         "(a flat netlist)")

    body, ffs, i = [], [], 0
    groups = {}  # instance -> [(name, d)]
    mems = []  # each memory's write statements (pairs of `if (c)` and one statement)
    nmem = kept = 0
    while i < len(lines):
        line = lines[i]
        # 1. A plain flip-flop: two lines, a whole declared register on the left.
        if line == CLOCK and i + 1 < len(lines):
            m = FF_STMT.match(lines[i + 1])
            if m and bare(m.group(1)) in widths:
                name, d = m.group(1), m.group(2)
                groups.setdefault(instance(name), []).append((name, d))
                ffs.append(bare(name))
                i += 2
                continue
        # 2. A process with a body: `begin`, pairs of `if (c)` and one statement, `end`.
        if line == CLOCK + " begin":
            j, conds = i + 1, []
            while j + 1 < len(lines) and IF_LINE.match(lines[j]) and \
                    lines[j + 1].startswith("      ") and lines[j + 1].endswith(";"):
                conds.append(IF_LINE.match(lines[j]).group(1))
                j += 2
            if conds and j < len(lines) and lines[j] == "  end":
                k, nmem = nmem, nmem + 1
                any_wr = " | ".join(f"({c})" for c in conds)
                body.append(f"  wire {PREFIX}wr{k} = {any_wr};")
                mems.append(lines[i + 1:j])
                i = j + 1
                continue
        # 3. A combinational process: iverilog -S synthesises it even with ivl_synthesis_off
        #    (and Icarus 11 then fails an assertion, draw_lpm_ff, if it reads a register).
        #    write_verilog writes none for this design (pmuxtree; the RTL has no latches).
        if re.match(r"^  always @(\*|\(\*\))", line):
            raise ValueError(f"line {i + 1}: a combinational process ({line.strip()}), which "
                             "iverilog -S cannot be kept from synthesising: the netlist is not "
                             "of the form this script was written for")
        # 4. Any other process: as it is, not synthesised.
        if line.startswith("  always ") or line.startswith("  initial "):
            body.append("  " + SYNTH_OFF + line[2:])
            kept += 1
            i += 1
            continue
        body.append(line)
        i += 1

    # The registers of the flip-flops become wires; each instance's group one register.
    ff_set = set(ffs)
    out = []
    for line in body:
        m = REG_DECL.match(line)
        if m and bare(m.group(2)) in ff_set:
            line = "  wire " + line[len("  reg "):]
        if line == "endmodule" and mems:
            out.append(f"  wire {PREFIX}wr = " +
                       " | ".join(f"{PREFIX}wr{k}" for k in range(len(mems))) + ";")
            out.append("  " + SYNTH_OFF + CLOCK.strip() + " begin")
            out.append(f"    if ({PREFIX}wr) begin")
            for k, stmts in enumerate(mems):
                out.append(f"      if ({PREFIX}wr{k}) begin")
                out.extend("    " + x for x in stmts)
                out.append("      end")
            out.append("    end")
            out.append("  end")
        if line == "endmodule":
            for k, members in enumerate(groups.values()):
                width = sum(widths[bare(n)] for n, _ in members)
                d, q = f"{PREFIX}d{k}", f"{PREFIX}q{k}"
                out.append(f"  wire [{width - 1}:0] {d} = {{ " +
                           ", ".join(ref(x) for _, x in members) + " };")
                out.append(f"  reg [{width - 1}:0] {q};")
                out.append(f"  always @(posedge clk_i) {q} <= {d};")
                hi = width - 1
                for name, _ in members:
                    w = widths[bare(name)]
                    out.append(f"  assign {ref(name)} = {q}[{hi}:{hi - w + 1}];")
                    hi -= w
        out.append(line)
    out, nports = whole_ports(out)
    return out, len(ffs), len(groups), nmem, kept, nports


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            lines = f.read().split("\n")
        out, nff, ngroups, nmem, kept, nports = rewrite(lines)
    except (OSError, ValueError) as e:
        print(f"netlist_vvp: {argv[1]}: {e}", file=sys.stderr)
        return 1
    with open(argv[2], "w") as f:
        f.write("\n".join(out))
    print(f"netlist_vvp: {nff} flip-flops in {ngroups} registers, {nmem} memory write processes "
          f"in one process, {kept} other processes kept, {nports} output ports driven in parts "
          "given one driver")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
