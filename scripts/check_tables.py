#!/usr/bin/env python3
"""check_tables.py - every copy of the tables of tables/ agrees with them.

    scripts/check_tables.py [--root DIR]

The tables (tables/params.toml, regs.toml, ports.toml; docs/tables.md) are the one source of
truth. Files generated from them (scripts/gen_tables.py) must be what the generator writes
today; the hand-written copies that generating does not fit (each adapter declares the switch in
its own language and style) are checked here, field by field:

  rtl/lfc_switch.v            its parameter list (name, type, default, order) and port list
                              (name, direction, width, order)
  tb/vpi/tb_top.v             a parameter and a connection for each parameter; a register
                              (input) or wire (output) of the same width and a connection for
                              each port
  tb/dpi/lfc_dpi_checker.sv   a parameter for each; an input of the same width for each port;
                              each key of the parameter's mode in the model's configuration text
  tb/dpi/lfc_dpi_bind.sv      each parameter passed on
  tb/formal/switch_props.v    each port of the switch connected
  tb/vpi/cosim_vpi.c          the per-port widths of its IN_PORTS and OUT_PORTS tables
  tb/verilator/cosim_top.sh   the per-port widths of its fields and stats lists
  cmodel/src/flat.c           the names and widths of its STAT_NAMES and STAT_WIDTHS
  lfc.core                    each integer parameter exposed, with a description
  docs/SPEC.md                §13.1's register table; §13 names every parameter

Prints one line per disagreement, "file:line: what differs; the table says what" and exits 1
if there is any, 0 if none; 2 if a file cannot be read or a table is malformed.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tables  # noqa: E402

findings = []


def bad(path, line, msg):
    findings.append("%s:%s: %s" % (path, line, msg))


def read(root, rel):
    try:
        with open(os.path.join(root, rel)) as f:
            return f.read()
    except OSError as e:
        sys.stderr.write("check_tables.py: %s: %s\n" % (rel, e.strerror))
        sys.exit(2)


def lineno(text, pos):
    return text.count("\n", 0, pos) + 1


def norm(s):
    return re.sub(r"\s+", "", s)


def port_width(p):
    """The declared range of a port of ports.toml, as lfc_switch.v writes it ("" for 1 bit)."""
    if "per_port" in p:
        return "[Ports-1:0]" if p["per_port"] == 1 else "[Ports*%d-1:0]" % p["per_port"]
    return "" if p["width"] == 1 else "[%d:0]" % (p["width"] - 1)


def rtl_params(params, tables):
    """[(name, type, default)] of lfc_switch in order: each table's length before the table,
    the RTL-only ones last."""
    by_rtl = {p["rtl"]: p for p in params}
    out = []
    for name in tables["rtl_order"]:
        p = by_rtl[name]
        if "rtl_len" in p:
            out.append((p["rtl_len"], "integer", p["rtl_len_default"]))
        out.append((name, p["rtl_type"], p["rtl_default"]))
    return out + [tuple(x) for x in tables.get("rtl_only", [])]


# ---- the generated files ----

def check_generated(root):
    for rel, text in gen_tables.outputs(root).items():
        try:
            with open(os.path.join(root, rel)) as f:
                old = f.read()
        except OSError:
            old = None
        if old != text:
            bad(rel, 1, "not what scripts/gen_tables.py writes from tables/ (%s); run "
                "`make gen-tables`" % ("missing" if old is None else "differs"))


# ---- rtl/lfc_switch.v ----

def check_switch(root, want_params, ports):
    rel = "rtl/lfc_switch.v"
    # Comments blanked out, lines kept: a comment may hold "(...);".
    t = re.sub(r"//[^\n]*", lambda c: " " * len(c.group(0)), read(root, rel))
    m = re.search(r"module\s+lfc_switch\s*#\((.*?)\)\s*\((.*?)\);", t, re.S)
    if not m:
        bad(rel, 1, "no 'module lfc_switch #(...) (...);' found")
        return
    got = [(g.group(2), norm(g.group(1) or "integer"), norm(g.group(3)), g.start())
           for g in re.finditer(r"parameter\s+(integer|\[[^\]]*\])?\s*(\w+)\s*=\s*([^,\n/]*?)\s*"
                                r"(?:,|\n)", m.group(1))]
    base = m.start(1)
    for i, (name, typ, dflt) in enumerate(want_params):
        if i >= len(got):
            bad(rel, lineno(t, m.end(1)), "parameter %s missing (tables/params.toml)" % name)
            continue
        gname, gtyp, gdflt, pos = got[i]
        where = lineno(t, base + pos)
        if gname != name:
            bad(rel, where, "parameter %d is %s; the table has %s there" % (i + 1, gname, name))
        elif gtyp != norm(typ) or gdflt != norm(dflt):
            bad(rel, where, "parameter %s is '%s' = '%s'; the table says '%s' = '%s'" %
                (name, gtyp, gdflt, typ, dflt))
    for gname, _, _, pos in got[len(want_params):]:
        bad(rel, lineno(t, base + pos), "parameter %s is not in tables/params.toml" % gname)
    got = [(g.group(3), g.group(1), norm(g.group(2) or ""), g.start()) for g in
           re.finditer(r"(input|output)\s+(?:wire|reg)\s*(\[[^\]]*\])?\s*(\w+)", m.group(2))]
    base = m.start(2)
    for i, p in enumerate(ports):
        if i >= len(got):
            bad(rel, lineno(t, m.end(2)), "port %s missing (tables/ports.toml)" % p["name"])
            continue
        name, d, w, pos = got[i]
        where = lineno(t, base + pos)
        if name != p["name"]:
            bad(rel, where, "port %d is %s; the table has %s there" % (i + 1, name, p["name"]))
        elif d != p["dir"] or w != port_width(p):
            bad(rel, where, "port %s is %s %s; the table says %s %s" %
                (name, d, w or "(1 bit)", p["dir"], port_width(p) or "(1 bit)"))
    for name, _, _, pos in got[len(ports):]:
        bad(rel, lineno(t, base + pos), "port %s is not in tables/ports.toml" % name)


# ---- the adapters ----

def find_line(t, pattern):
    m = re.search(pattern, t, re.M)
    return lineno(t, m.start()) if m else None


def check_connected(rel, t, names, what):
    for n in names:
        if not re.search(r"\.%s\s*\(" % re.escape(n), t):
            bad(rel, 1, "%s %s is not connected (.%s(...))" % (what, n, n))


def check_declared(rel, t, names, what, kw):
    for n in names:
        if not re.search(r"\b%s\b[^;,]*\b%s\s*(=|;|,|\)|$)" % (kw, re.escape(n)), t, re.M):
            bad(rel, 1, "%s %s is not declared (%s ... %s)" % (what, n, kw, n))


def check_widths(rel, t, ports, kind_of):
    """Each port declared with the width of the table: kind_of(port) is the keyword before it
    (reg, wire, input wire), or None to skip."""
    for p in ports:
        kw = kind_of(p)
        if kw is None:
            continue
        m = re.search(r"^\s*%s\s*(\[[^\]]*\])?\s*%s\b" % (kw, re.escape(p["name"])), t, re.M)
        if not m:
            bad(rel, 1, "%s: no '%s %s %s' (tables/ports.toml)" %
                (p["name"], kw, port_width(p), p["name"]))
        elif norm(m.group(1) or "") != port_width(p):
            bad(rel, lineno(t, m.start()), "%s is %s; the table says %s" %
                (p["name"], m.group(1) or "1 bit", port_width(p) or "1 bit"))


def check_list(rel, t, anchor, what, got, want):
    """got and want as [(name, width)]: one line for the first entry that differs."""
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else None
        w = want[i] if i < len(want) else None
        if g != w:
            bad(rel, find_line(t, anchor) or 1, "%s entry %d is %s; the table says %s" %
                (what, i + 1, "%s:%s" % g if g else "missing", "%s:%s" % w if w else "none"))
            return


def check_adapters(root, want_params, params, ports):
    names = [n for n, _, _ in want_params if n != "QueueDepth"]
    all_ports = [p["name"] for p in ports]
    # tb/vpi/tb_top.v
    rel = "tb/vpi/tb_top.v"
    t = read(root, rel)
    check_declared(rel, t, names, "parameter", "parameter")
    check_connected(rel, t, names + all_ports, "parameter or port")

    def tb_kind(p):
        if p["group"] in ("clock",) or (p["group"] == "dbg" and p["dir"] == "input"):
            return None  # clk_i, rst_ni: reg; the debug selects: slices of dbg_sel
        return "reg" if p["dir"] == "input" else "wire"
    check_widths(rel, t, ports, tb_kind)
    # tb/dpi/lfc_dpi_checker.sv
    rel = "tb/dpi/lfc_dpi_checker.sv"
    t = read(root, rel)
    check_declared(rel, t, names, "parameter", "parameter")
    check_widths(rel, t, ports, lambda p: "input wire")
    for p in params:
        key = "%s.%s=" % (p["section"], p["key"])
        if key not in t:
            bad(rel, 1, "cfg_text() does not give the model %s (tables/params.toml)" % key[:-1])
    # tb/dpi/lfc_dpi_bind.sv
    rel = "tb/dpi/lfc_dpi_bind.sv"
    check_connected(rel, read(root, rel), names, "parameter")
    # tb/formal/switch_props.v: every port of the switch connected (by name, .*-free)
    rel = "tb/formal/switch_props.v"
    check_connected(rel, read(root, rel), all_ports, "port")
    # tb/vpi/cosim_vpi.c and tb/verilator/cosim_top.sh: per-port widths
    word = [(p["name"], p["per_port"]) for p in ports if p["group"] in ("rx", "tx", "stat")]
    rel = "tb/vpi/cosim_vpi.c"
    t = read(root, rel)
    got = re.findall(r'\{"((?:rx|tx|stat)_\w+)",\s*(\d+)\}', t)
    check_list(rel, t, r"IN_PORTS\[", "IN_PORTS/OUT_PORTS", [(n, int(w)) for n, w in got], word)
    rel = "tb/verilator/cosim_top.sh"
    t = read(root, rel)
    lists = {}
    for var in ("fields", "stats"):
        m = re.search(r'^%s="([^"]*)"' % var, t, re.M)
        lists[var] = m.group(1).split() if m else []
    pairs = [f.split(":") + [""] for f in lists["fields"] + lists["stats"]]
    got = [("rx_%s_i" % n, w) for n, w, *_ in pairs[:len(lists["fields"])]] + \
          [("tx_%s_o" % n, w) for n, w, *_ in pairs[:len(lists["fields"])]] + \
          [("stat_%s_o" % n, w) for n, w, *_ in pairs[len(lists["fields"]):]]
    check_list(rel, t, r"^fields=", "fields/stats", [(n, int(w) if w.isdigit() else w)
                                                      for n, w in got], word)
    # cmodel/src/flat.c: the stat outputs
    rel = "cmodel/src/flat.c"
    t = read(root, rel)
    stats = [(p["name"], p["per_port"]) for p in ports if p["group"] == "stat"]
    m1 = re.search(r"STAT_NAMES\[LFC_FLAT_STATS\]\s*=\s*\{([^}]*)\}", t)
    m2 = re.search(r"STAT_WIDTHS\[LFC_FLAT_STATS\]\s*=\s*\{([^}]*)\}", t)
    got = list(zip(re.findall(r'"(\w+)"', m1.group(1)) if m1 else [],
                   [int(x) for x in re.findall(r"\d+", m2.group(1))] if m2 else []))
    check_list(rel, t, r"STAT_NAMES\[", "STAT_NAMES/STAT_WIDTHS", got, stats)
    # lfc.core: the integer parameters exposed and described
    rel = "lfc.core"
    t = read(root, rel)
    m = re.search(r"parameters:\s*\[([^\]]*)\]", t)
    exposed = set(re.findall(r"\w+", m.group(1))) if m else set()
    for n, typ, _ in want_params:
        if typ != "integer":
            continue
        if n not in exposed:
            bad(rel, find_line(t, r"^\s+parameters:\s*\[") or 1,
                "integer parameter %s is not in the default target's parameters" % n)
        if not re.search(r"^  %s:\s*$" % n, t, re.M):
            bad(rel, find_line(t, r"^parameters:") or 1, "parameter %s has no description" % n)


# ---- docs/SPEC.md ----

def check_spec(root, want_params, regs):
    rel = "docs/SPEC.md"
    t = read(root, rel)
    rows = [(m.start(), m.groups()) for m in re.finditer(
        r"^\| (\d+) \| `(\w+)` \| (\d+)[^|]*\| (S|P|PC) \| (IB|PFC|both) \|", t, re.M)]
    want = [(str(i), r["name"], str(r["width"]), r["scope"], r["mode"])
            for i, r in enumerate(regs)]
    for i, w in enumerate(want):
        if i >= len(rows):
            bad(rel, lineno(t, len(t)), "§13.1 has no row for register %s %s" % w[:2])
        elif rows[i][1] != w:
            bad(rel, lineno(t, rows[i][0]), "§13.1 row %s; tables/regs.toml says %s" %
                (" ".join(rows[i][1]), " ".join(w)))
    for pos, g in rows[len(want):]:
        bad(rel, lineno(t, pos), "§13.1 row %s is not in tables/regs.toml" % " ".join(g))
    m = re.search(r"^## 13\..*?^13\.1\.", t, re.M | re.S)
    sec = m.group(0) if m else ""
    for n, _, _ in want_params:
        if "`%s`" % n not in sec:
            bad(rel, lineno(t, m.start()) if m else 1, "§13 does not name parameter `%s`" % n)


def main():
    ap = argparse.ArgumentParser(description="check every copy of tables/ against it")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    a = ap.parse_args()
    _, params, _ = gen_tables.load_params(a.root)
    _, regs = gen_tables.load_regs(a.root)
    _, ptab = gen_tables.load(a.root, "ports.toml")
    ports = ptab.get("port", [])
    _, ttab = gen_tables.load(a.root, "params.toml")
    want_params = rtl_params(params, ttab)
    check_generated(a.root)
    check_switch(a.root, want_params, ports)
    check_adapters(a.root, want_params, params, ports)
    check_spec(a.root, want_params, regs)
    for f in findings:
        print(f)
    if findings:
        print("check_tables.py: %d copies disagree with tables/ (docs/tables.md)" % len(findings))
        return 1
    print("check_tables.py: every generated and checked copy agrees with tables/ "
          "(%d parameters, %d registers, %d ports)" % (len(params), len(regs), len(ports)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
