"""test_lfc_switch - cocotb tests of the lfc_switch RTL with the C model as the scoreboard.

Every cycle t (SPEC §1.3, §13), as tb/common/tb_main.c does it in C:
  1. after the rising edge that made S(t): the partners' words I(t) go onto rx_*_i, one register
     of SPEC §13.1 is selected on the debug port, and the same words go to the model (ctypes);
  2. at the falling edge: the RTL's tx_*_o (O(t)), stat_*_o (events of cycle t) and dbg_val_o
     (the register in S(t)) are read; the model reads the same register, then steps cycle t;
  3. every field of every port, every stat output and the register are compared; the first
     difference fails the test with a MISMATCH line like the C co-simulation's.

Environment (set by tb/cocotb/cocotb.mk): LFC_LIB (liblfc.so), LFC_CONFIG (a tb/configs .ini:
its [switch], [ib], [pfc] sections configure the model; the RTL was elaborated with the same
parameters), LFC_SEED, LFC_CYCLES, LFC_SIM and LFC_RTL_DIR (for the reproduce line).
"""

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from lfc.flat import FlatSwitch, ini_to_config
from partner import Partner

CLOCK_NS = 10  # any period: the RTL is cycle-based
RESET_CYCLES = 2  # rst_ni low for this many rising edges (SPEC §13: synchronous reset)
PFC_TIME_BITS = 16  # SPEC §2: one pause time per priority
PFC_TIMES_PER_PORT = 8


class Mismatch(AssertionError):
    """The RTL and the model differ; the message is the MISMATCH report."""


class Bench:
    """The DUT's ports as packed buses, the model, the partners, and the comparison."""

    def __init__(self, dut):
        self.dut = dut
        self.config = os.environ["LFC_CONFIG"]
        self.name = os.path.splitext(os.path.basename(self.config))[0]
        self.seed = int(os.environ.get("LFC_SEED", "1"))
        self.cycles = int(os.environ.get("LFC_CYCLES", "2000"))
        self.sim = os.environ.get("LFC_SIM", "icarus")
        rtl = os.environ.get("LFC_RTL_DIR", "rtl")
        self.rtl_arg = "" if rtl == "rtl" else f" COCOTB_RTL_DIR={rtl}"
        text, ini = ini_to_config(self.config)
        self.model = FlatSwitch(text)
        m = self.model
        self.ports = m.ports
        rtl_ports = len(dut.rx_sop_i)
        if rtl_ports != self.ports:
            raise AssertionError(f"{self.config}: ports = {self.ports}, but the RTL was built with "
                                 f"Ports = {rtl_ports}: build it with this configuration's "
                                 "parameters (tb-params)")
        # The bus of each flat.h field: (RTL field name, bits per port, bit offset in the port).
        self.bus = []
        for f, name in enumerate(m.fields):
            if name.startswith("pfc_time"):
                i = int(name[len("pfc_time"):])
                self.bus.append(("pfc_time", PFC_TIME_BITS * PFC_TIMES_PER_PORT,
                                 PFC_TIME_BITS * i, m.field_width[f]))
            else:
                self.bus.append((name, m.field_width[f], 0, m.field_width[f]))
        self.rx = {b[0]: getattr(dut, f"rx_{b[0]}_i") for b in self.bus}
        self.tx = {b[0]: getattr(dut, f"tx_{b[0]}_o") for b in self.bus}
        self.stat = [getattr(dut, s) for s in m.stats]
        # The registers to compare through the debug port, one per cycle, in rotation: those
        # of this mode (a register of the other mode reads 0 on both sides), every port and
        # class (and the VL15 queue of qlen/qpkts in IB mode, SPEC §13.1).
        self.dbg = []
        for r in range(len(m.regs)):
            name, _, scope, mode = m.reg_info(r)
            if mode not in (2, m.mode):
                continue
            for p in range(self.ports if scope else 1):
                classes = list(range(m.classes)) if scope == 2 else [0]
                if scope == 2 and m.mode == 0 and name in ("qlen", "qpkts"):
                    classes.append(15)
                self.dbg += [(r, p, c) for c in classes]
        rng = random.Random(self.seed)
        tr = ini["traffic"] if ini.has_section("traffic") else {}
        self.partners = [
            Partner(p, self.ports, m.mode, m.classes, m.param("speed_div", p),
                    m.param("mtu_blocks"), random.Random(rng.getrandbits(32)),
                    load=int(tr.get("load", 500)), min_nblk=int(tr.get("min_nblk", 1)),
                    max_nblk=int(tr.get("max_nblk", 16)))
            for p in range(self.ports)]
        self.words = [{"kind": 0} for _ in range(self.ports)]

    # ---- driving ----

    def idle_inputs(self):
        for sig in self.rx.values():
            sig.value = 0
        self.dut.dbg_reg_i.value = 0
        self.dut.dbg_port_i.value = 0
        self.dut.dbg_cls_i.value = 0

    def drive(self, t):
        """The partners' words of cycle t to the RTL and the model; the register to read."""
        m = self.model
        prev = [{name: m.out(p, f) for f, name in enumerate(m.fields)} if t else {"kind": 0}
                for p in range(self.ports)]
        self.words = [self.partners[p].step(t, prev[p]) for p in range(self.ports)]
        packed = {}
        for f, (bus, pw, off, _) in enumerate(self.bus):
            name = m.fields[f]
            v_all = packed.get(bus, 0)
            for p, w in enumerate(self.words):
                v = w.get(name, 0)
                m.set_in(p, f, v)
                v_all |= v << (p * pw + off)
            packed[bus] = v_all
        for bus, v in packed.items():
            self.rx[bus].value = v
        sel = self.dbg[t % len(self.dbg)]
        self.dut.dbg_reg_i.value = sel[0]
        self.dut.dbg_port_i.value = sel[1]
        self.dut.dbg_cls_i.value = sel[2]
        return sel, m.reg(*sel)

    # ---- checking ----

    def report(self, t, port, signal, expected, actual, context):
        line = (f"MISMATCH cycle={t} port={port} signal={signal} expected={expected} "
                f"actual={actual} seed={self.seed} config={self.name}")
        lines = [line] + ["  " + c for c in context] + [
            f"  model events this cycle: {self.model.format_events()}",
            f"  sim: {self.sim} (cocotb), config file {self.config}, RTL cycle {t} (cycles "
            "count from 0 after reset)",
            f"  reproduce: make cocotb COCOTB_SIM={self.sim} COCOTB_CONFIGS={self.name} "
            f"COCOTB_SEED={self.seed} COCOTB_CYCLES={self.cycles}" + self.rtl_arg]
        self.dut._log.error("\n".join(lines))
        raise Mismatch(line)

    @staticmethod
    def read(sig):
        """A bus as an int, or None if it has x or z bits (Icarus is 4-state)."""
        v = sig.value
        return v.integer if v.is_resolvable else None

    def compare(self, t, sel, exp_reg):
        m = self.model
        tx = {bus: self.read(sig) for bus, sig in self.tx.items()}
        stat = [self.read(sig) for sig in self.stat]
        dbg = self.read(self.dut.dbg_val_o)
        m.step()
        for bus, v in list(tx.items()) + list(zip(m.stats, stat)) + [("dbg_val_o", dbg)]:
            if v is None:
                name = bus if bus.startswith(("stat", "dbg")) else f"tx_{bus}_o"
                self.report(t, 0, name, "0/1", "x", [
                    "an output of the RTL has an x or z bit (Icarus is 4-state)"])
        for p in range(self.ports):
            for f, (bus, pw, off, w) in enumerate(self.bus):
                e = m.out(p, f)
                a = (tx[bus] >> (p * pw + off)) & ((1 << w) - 1)
                if e == a:
                    continue
                sig = f"tx_{bus}_o" + (f"[{off // PFC_TIME_BITS}]" if bus == "pfc_time" else "")
                fmt = (lambda x: f"0x{x:08x}") if bus == "tag" else str
                self.report(t, p, sig, fmt(e), fmt(a), [
                    f"expected word (model): {m.format_out(p)}",
                    f"actual {bus} (RTL): {fmt(a)}",
                    f"input word this cycle: {m.format_in(p)}"])
        for p in range(self.ports):
            for s, name in enumerate(m.stats):
                w = m.stat_width[s]
                e = m.stat(s, p)
                a = (stat[s] >> (p * w)) & ((1 << w) - 1)
                if e == a:
                    continue
                # The cause means something only with a drop (the C harness compares it so).
                if name == "stat_drop_cause_o" and not m.stat("stat_drop_o", p):
                    continue
                if w == 16:  # one bit per class: name the first class that differs
                    c = ((e ^ a) & -(e ^ a)).bit_length() - 1
                    name, e, a = f"{name}[cls={c}]", (e >> c) & 1, (a >> c) & 1
                elif name == "stat_drop_cause_o":
                    e, a = f"{e}({m.cause_name(e)})", f"{a}({m.cause_name(a) or '?'})"
                self.report(t, p, name, e, a, [f"input word this cycle: {m.format_in(p)}"])
        reg, port, cls = sel
        if exp_reg != dbg:
            rname = m.regs[reg]
            sig = f"dbg:{rname}[cls={cls}](reg={reg})" if m.reg_info(reg)[2] == 2 \
                else f"dbg:{rname}(reg={reg})"
            self.report(t, port, sig, exp_reg, dbg, [
                f"register value in S({t}), the state at the start of the cycle"])


async def run_lockstep(dut):
    b = Bench(dut)
    cocotb.start_soon(Clock(dut.clk_i, CLOCK_NS, units="ns").start())
    b.idle_inputs()
    dut.rst_ni.value = 0
    for _ in range(RESET_CYCLES):
        await RisingEdge(dut.clk_i)
    # This edge was the last with rst_ni low: the cycle that starts now is cycle 0.
    dut.rst_ni.value = 1
    sent = 0
    for t in range(b.cycles):
        sel, exp_reg = b.drive(t)
        sent += sum(1 for w in b.words if w["kind"] == 1 and w.get("sop"))
        await FallingEdge(dut.clk_i)
        b.compare(t, sel, exp_reg)
        await RisingEdge(dut.clk_i)
    delivered = sum(p.delivered for p in b.partners)
    dut._log.info(f"PASS sim={b.sim} config={b.name} seed={b.seed} cycles={b.cycles} "
                  f"packets_sent={sent} packets_delivered={delivered}")
    # A run in which nothing moved would prove nothing.
    assert sent > 0 and delivered > 0, f"no traffic: sent={sent} delivered={delivered}"
    b.model.close()


@cocotb.test()
async def lockstep_random_traffic(dut):
    """Random legal traffic and flow control on every port; RTL == model every cycle."""
    await run_lockstep(dut)
