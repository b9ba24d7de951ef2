"""Tests of lfc.Switch, lfc.Nic and the enumerations (python/lfc/model.py).

- The C structures and enumerations of the binding equal the headers': a C program compiled here
  prints sizeof, offsetof and the enumerators of lfc/types.h, lfc/switch.h, lfc/nic.h and
  lfc/flat.h, and every one is compared with the Python side.
- lfc.Switch fed the rx words of the golden traces (cmodel/tests/golden, recorded by lfc_trace
  from the C model in the star testbed) sends every tx word and reports every event of the trace,
  cycle by cycle; its counters equal what the trace shows (tx packets, FCP and PFC frames, drops
  by cause, ECN marks).
- Skip-ahead (advance) gives the same state as stepping; configuration errors are the library's.
"""

import ctypes
import gzip
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from collections import Counter

import lfc
from lfc import model

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GOLDEN = os.path.join(ROOT, "cmodel", "tests", "golden")
INCLUDE = os.path.join(ROOT, "cmodel", "include")

# The switch part of lfc_trace's configurations (cmodel/tools/lfc_trace.c), over the defaults
# lfc_star_cfg_default takes from lfc_switch_cfg_default.
TRACES = {
    "ib_4p_incast": ("ib", 4, 1, {"vl_blocks": 100}),
    "pfc_4p_incast": ("pfc", 4, 2, {
        "reserve_blocks": 16, "shared_blocks": 512, "headroom_blocks": 2 * 65 - 1 + 2 * 5 + 2,
        "xoff_th": 64, "xon_offset": 16, "refresh_cycles": 4000, "pause_quanta": 8000}),
    "pfc_4p_dynamic_ecn": ("pfc", 4, 2, {
        "lossless_mask": 0x2, "dynamic_th": True, "alpha_log2": -1, "reserve_blocks": 8,
        "shared_blocks": 600, "headroom_blocks": 2 * 65 - 1 + 2 * 4 + 2, "ecn_mask": 0x3,
        "kmin": 16, "kmax": 160, "pmax": 6554}),
    "pfc_4p_watchdog": ("pfc", 4, 1, {
        "wd_enable": True, "wd_detect": 1500, "wd_restore": 1000, "wd_action": "drop"}),
}
# The first cycles of each trace are replayed: enough for thousands of packets, XOFF/XON, drops
# of every cause the configuration has, ECN marks and watchdog trips, in about a second.
REPLAY_CYCLES = 6000


def parse_word(text):
    """lfc_word_format's text (docs/golden-traces.md) back to a Word."""
    parts = text.split()
    kv = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
    flags = set(p for p in parts[1:] if "=" not in p)
    if parts[0] == "DATA":
        return lfc.Word.data(cls=int(kv["cls"]), nblk=int(kv["nblk"]), dst=int(kv["dst"]),
                             tag=int(kv["tag"], 16), sop="sop" in flags, eop="eop" in flags,
                             ecn=int(kv["ecn"]))
    if parts[0] == "FCP":
        return lfc.Word.fcp(int(kv["vl"]), int(kv["fctbs"]), int(kv["fccl"]),
                            op=1 if "init" in flags else 0)
    if parts[0] == "PFC":
        times = {int(k[1:]): int(v) for k, v in kv.items() if re.fullmatch(r"t\d", k)}
        return lfc.Word.pfc(times, en=int(kv["en"], 16))
    raise ValueError(f"unknown word: {text}")


def event_text(e):
    """An lfc.Event as lfc_trace writes it (without cycle and port)."""
    s = f"{e.kind.name} cls={e.cls}"
    if e.kind == lfc.EventKind.DROP:
        s += f" cause={e.cause.name.lower()} tag=0x{e.tag:08x}"
    return s


def read_trace(name, cycles):
    """{cycle: {"rx": {port: text}, "tx": [(port, text)], "ev": [(port, text)]}}."""
    out = {}
    with gzip.open(os.path.join(GOLDEN, name + ".trace.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            t, port, what, text = line.rstrip("\n").split(" ", 3)
            t = int(t)
            if t >= cycles:
                break
            c = out.setdefault(t, {"rx": {}, "tx": [], "ev": []})
            if what == "rx":
                c["rx"][int(port)] = text
            else:
                c[what].append((int(port), text))
    return out


class TestGoldenReplay(unittest.TestCase):
    """The Python Switch against the C model's recorded behaviour."""

    def replay(self, name):
        mode, ports, classes, params = TRACES[name]
        trace = read_trace(name, REPLAY_CYCLES)
        sw = lfc.Switch(mode, ports=ports, classes=classes, **params)
        want = Counter()
        events = Counter()
        for t in range(REPLAY_CYCLES):
            c = trace.get(t, {"rx": {}, "tx": [], "ev": []})
            out = sw.step({p: parse_word(text) for p, text in c["rx"].items()})
            got_tx = [(p, str(w)) for p, w in enumerate(out) if w.kind != lfc.Kind.IDLE]
            self.assertEqual(got_tx, c["tx"], f"{name}: cycle {t}: tx words")
            got_ev = [(e.port, event_text(e)) for e in sw.events]
            self.assertEqual(got_ev, c["ev"], f"{name}: cycle {t}: events")
            for p, text in c["tx"]:
                w = parse_word(text)
                if w.kind == lfc.Kind.DATA and w.sop:
                    want["tx_pkts", p, w.cls] += 1
                elif w.kind == lfc.Kind.FCP:
                    want["fcp_tx", p] += 1
                elif w.kind == lfc.Kind.PFC:
                    want["pfc_tx", p] += 1
            for e in sw.events:
                events[e.kind] += 1
                if e.kind == lfc.EventKind.DROP:
                    want["drop", e.port, e.cls, e.cause] += 1
                elif e.kind == lfc.EventKind.ECN_MARK:
                    want["ecn", e.port, e.cls] += 1
        self.assertEqual(sw.cycle, REPLAY_CYCLES)
        # The counters (SPEC §10) against what the trace shows.
        for p in range(ports):
            st = sw.stats(p)
            self.assertEqual(st.fcp_tx, want["fcp_tx", p], f"{name}: port {p} fcp_tx")
            self.assertEqual(st.pfc_tx, want["pfc_tx", p], f"{name}: port {p} pfc_tx")
            for c in range(classes):
                cs = st.cls[c]
                self.assertEqual(cs.tx_pkts, want["tx_pkts", p, c], f"{name}: ({p},{c}) tx_pkts")
                self.assertEqual(cs.ecn_mark, want["ecn", p, c], f"{name}: ({p},{c}) ecn_mark")
                for cause in lfc.DropCause:
                    self.assertEqual(cs.drop_pkts[cause], want["drop", p, c, cause],
                                     f"{name}: ({p},{c}) drops {cause.name}")
        return sw, events

    def test_ib_incast(self):
        sw, _ = self.replay("ib_4p_incast")
        self.assertGreater(sw.stats(0).cls[0].tx_pkts, 100)  # the incast's receiver port
        self.assertGreater(sw.stats(1).cls[0].peak_pg, 0)

    def test_pfc_incast(self):
        sw, events = self.replay("pfc_4p_incast")
        self.assertGreater(events[lfc.EventKind.XOFF], 0)
        self.assertGreater(sum(sw.stats(p).pfc_tx for p in range(4)), 0)

    def test_pfc_dynamic_ecn(self):
        _, events = self.replay("pfc_4p_dynamic_ecn")
        self.assertGreater(events[lfc.EventKind.ECN_MARK], 0)
        self.assertGreater(events[lfc.EventKind.DROP], 0)

    def test_pfc_watchdog(self):
        _, events = self.replay("pfc_4p_watchdog")
        self.assertGreater(events[lfc.EventKind.WD_TRIP], 0)


class TestSwitch(unittest.TestCase):
    def test_config_by_spec_names(self):
        sw = lfc.Switch("pfc", ports=4, classes=2, xoff_th=64,
                        config={"pfc.headroom_blocks": 141, "switch.speed_div": [1, 2, 1, 4],
                                "pfc.drr_quantum": [65, 130]})
        self.assertEqual(sw.param("xoff_th"), 64)
        self.assertEqual(sw.param("pfc.headroom_blocks"), 141)
        self.assertEqual(sw.param("speed_div"), [1, 2, 1, 4])
        self.assertEqual(sw.param("drr_quantum"), [65, 130])
        self.assertEqual(sw.mode, lfc.Mode.PFC)
        self.assertEqual(sw.config["pfc.xoff_th"], 64)
        ib = lfc.Switch("ib", ports=2, classes=2, vlarb_low=[(0, 4), (1, 8)], vl_blocks=[70, 90])
        self.assertEqual(ib.param("vlarb_low"), [(0, 4), (1, 8)])
        self.assertEqual(ib.param("vl_blocks"), [70, 90])

    def test_every_key_lands_in_its_field(self):
        """The ctypes lfc_switch_cfg_t is the C one: each scalar key set by the library reads
        back through the Python structure (a wrong offset would read another field)."""
        lib = model._lib()
        err = ctypes.create_string_buffer(256)
        for mode in ("ib", "pfc"):
            for sec, keys in lfc.cfg_keys().items():
                for i, key in enumerate(keys):
                    cfg = model._CSwitchCfg()
                    lib.lfc_switch_cfg_default(ctypes.byref(cfg), lfc.Mode[mode.upper()], 4, 2)
                    kind = type(getattr(cfg, key))
                    if key in ("mode", "wd_action", "vlarb_high", "vlarb_low") or \
                            kind not in (int, bool):
                        continue
                    value = 1 if kind is bool else 3 + i  # distinct and in every key's range
                    if key == "alpha_log2":
                        value = -3
                    before = bytes(cfg)
                    rc = lib.lfc_switch_cfg_set(ctypes.byref(cfg), sec.encode(), key.encode(),
                                                str(value).encode(), err, 256)
                    self.assertEqual(rc, 0, f"{sec}.{key}={value}: {err.value}")
                    self.assertEqual(int(getattr(cfg, key)), value, f"{sec}.{key}")
                    changed = [i for i, (a, b) in enumerate(zip(before, bytes(cfg))) if a != b]
                    off = getattr(model._CSwitchCfg, key).offset
                    size = getattr(model._CSwitchCfg, key).size
                    if changed:
                        self.assertTrue(all(off <= c < off + size for c in changed),
                                        f"{sec}.{key}: bytes {changed} changed, field at {off}")

    def test_bad_config_raises_the_library_line(self):
        with self.assertRaisesRegex(lfc.LfcError, r"\[pfc\] xoff_th = abc: expected an integer"):
            lfc.Switch("pfc", xoff_th="abc")
        with self.assertRaisesRegex(lfc.LfcError, r"unknown parameter 'bogus'.*pfc\.xoff_th"):
            lfc.Switch("pfc", bogus=1)
        with self.assertRaisesRegex(lfc.LfcError, r"vl_blocks\[0\] = 10 is below mtu_blocks"):
            lfc.Switch("ib", vl_blocks=10)
        with self.assertRaisesRegex(lfc.LfcError, "mode 'eth': ib or pfc"):
            lfc.Switch("eth")
        with self.assertRaisesRegex(lfc.LfcError, "argument of Switch"):
            lfc.Switch("pfc", **{"switch.ports": 8})

    def test_one_packet_through(self):
        sw = lfc.Switch("pfc", ports=4, classes=2)
        nblk = 3
        seen = []
        for t in range(40):
            w = None
            if t < nblk:
                w = lfc.Word.data(cls=1, nblk=nblk, dst=2, tag=0xabc, sop=t == 0,
                                  eop=t == nblk - 1)
            out = sw.step({0: w})
            seen += [(t, str(o)) for o in out if o.kind != lfc.Kind.IDLE]
            self.assertTrue(all(o.kind == lfc.Kind.IDLE for p, o in enumerate(out) if p != 2))
        self.assertEqual([s for _, s in seen], [
            "DATA sop cls=1 nblk=3 dst=2 tag=0x00000abc ecn=0",
            "DATA cls=1 nblk=3 dst=2 tag=0x00000abc ecn=0",
            "DATA eop cls=1 nblk=3 dst=2 tag=0x00000abc ecn=0"])
        st = sw.stats(2).cls[1]
        self.assertEqual((st.tx_pkts, st.tx_blocks), (1, nblk))
        self.assertEqual((sw.stats(0).cls[1].rx_pkts, sw.stats(0).cls[1].rx_blocks), (1, nblk))
        self.assertEqual(sw.held().total, 0)
        rows = sw.stats(2).rows()
        self.assertEqual([(r["port"], r["class"], r["tx_pkts"]) for r in rows],
                         [(2, 0, 0), (2, 1, 1)])
        self.assertIn("drop_pkts_shared", rows[0])

    def test_route_table(self):
        """route[dst] = egress port (SPEC §7.1), one byte an entry: a packet for dst 1 leaves on
        port 3; an entry that is no port is refused here (ctypes would wrap 300 to 44), one of
        no port of this switch by the library."""
        sw = lfc.Switch("pfc", ports=4, classes=1, route=[0, 3, 1, 2])
        out_ports = set()
        for t in range(40):
            w = lfc.Word.data(cls=0, nblk=2, dst=1, tag=7, sop=t == 0, eop=t == 1) \
                if t < 2 else None
            out = sw.step({0: w})
            out_ports |= {p for p, o in enumerate(out) if o.kind == lfc.Kind.DATA}
        self.assertEqual(out_ports, {3})
        for bad in (300, -1, 64, "2", 1.0):
            with self.assertRaisesRegex(lfc.LfcError, r"route\[1\] = .* is not a port; "
                                                      r"allowed: 0\.\.63"):
                lfc.Switch("pfc", ports=4, classes=1, route=[0, bad])
        with self.assertRaisesRegex(lfc.LfcError, r"route\[1\] = 4 names a port >= ports = 4"):
            lfc.Switch("pfc", ports=4, classes=1, route=[0, 4])

    def test_advance_equals_stepping(self):
        """lfc_switch_advance through Python: the same registers and counters as stepping."""
        nblk = 40
        a = lfc.Switch("ib", ports=4, classes=2)
        b = lfc.Switch("ib", ports=4, classes=2)
        first = lfc.Word.data(cls=0, nblk=nblk, dst=3, tag=5, sop=True)
        credit = lfc.Word.fcp(vl=0, fctbs=0, fccl=nblk)  # port 3's peer has room for it
        a.step({1: first, 3: credit})
        b.step({1: first, 3: credit})
        self.assertEqual(b.held().receiving, 1)  # store and forward: its last block not in yet
        def block(t):  # what port 1's peer sends in cycle t
            if t < nblk:
                return {1: lfc.Word.data(cls=0, nblk=nblk, dst=3, tag=5, eop=t == nblk - 1)}
            return None

        end = 300
        steps = 0
        while b.cycle < end:
            nxt = b.next_event()
            to = end if nxt is None else min(nxt, end)
            if to > b.cycle:
                b.advance(to)  # the peer's blocks of these cycles are the model's to supply
            else:
                b.step(block(b.cycle))
                steps += 1
        for t in range(1, end):
            a.step(block(t))
        self.assertLess(steps, end // 2)  # it did skip
        self.assertEqual(a.cycle, b.cycle)
        self.assertEqual(a.stats(3).cls[0].tx_blocks, nblk)
        self.assertEqual(a.stats(3), b.stats(3))
        self.assertEqual(a.stats(1), b.stats(1))
        for r in lfc.Reg:
            info = lfc.reg_info(r)
            if info.mode in (lfc.Mode.IB, 2):
                for p in range(4):
                    self.assertEqual(a.reg(r, p, 0), b.reg(r, p, 0), f"{info.name} port {p}")
        with self.assertRaisesRegex(lfc.LfcError, "advance to 10"):
            b.advance(10)  # the past

    def test_registers_by_name(self):
        sw = lfc.Switch("ib", ports=4, classes=1, vl_blocks=100)
        sw.step()
        self.assertEqual(sw.reg("fccl", 0, 0), sw.reg(lfc.Reg.FCCL, 0, 0))
        self.assertEqual(lfc.reg_info("pause_timer").scope, lfc.Scope.PORT_CLASS)
        self.assertEqual(lfc.reg_info("pause_timer").width, 21)
        with self.assertRaisesRegex(lfc.LfcError, "register 'nope': one of"):
            sw.reg("nope")


class TestNic(unittest.TestCase):
    def test_send_and_receive(self):
        got = []
        nic = lfc.Nic("pfc", classes=2, on_receive=lambda w, t: got.append((t, w.tag)))
        self.assertTrue(nic.send(cls=1, nblk=2, dst=5, tag=77))
        self.assertEqual(nic.backlog(1), 1)
        out = [nic.step() for _ in range(3)]
        self.assertEqual([str(w) for w in out[:2]], [
            "DATA sop cls=1 nblk=2 dst=5 tag=0x0000004d ecn=0",
            "DATA eop cls=1 nblk=2 dst=5 tag=0x0000004d ecn=0"])
        nic.step(lfc.Word.data(cls=0, nblk=1, dst=0, tag=9, sop=True, eop=True))
        self.assertEqual(got, [(3, 9)])
        st = nic.stats()
        self.assertEqual((st.tx_pkts, st.tx_blocks, st.rx_pkts), (1, 2, 1))
        self.assertFalse(nic.send(cls=5, nblk=1, dst=0))  # no class 5

    def test_pause_stops_it(self):
        quanta = 100
        nic = lfc.Nic("pfc", classes=1)
        nic.step(lfc.Word.pfc({0: quanta}))
        nic.send(cls=0, nblk=1, dst=1)
        sent = [nic.step().kind for _ in range(quanta - 10)]
        self.assertNotIn(lfc.Kind.DATA, sent)
        self.assertEqual(nic.stats().pause_rx, 1)
        sent = [nic.step().kind for _ in range(20)]
        self.assertIn(lfc.Kind.DATA, sent)

    def test_bad_config(self):
        with self.assertRaisesRegex(lfc.LfcError, "^nic: .*speed_div"):
            lfc.Nic("ib", speed_div=99)
        with self.assertRaisesRegex(lfc.LfcError, "unknown parameter 'xoff'"):
            lfc.Nic("pfc", xoff=3)


# ---- The binding against the headers, by a C program compiled here. ----

STRUCTS = {
    "lfc_word_t": model._CWord, "lfc_pkt_t": model._CPkt, "lfc_vlarb_entry_t": model._CVlarb,
    "lfc_switch_cfg_t": model._CSwitchCfg, "lfc_class_stats_t": model._CClassStats,
    "lfc_port_stats_t": model._CPortStats, "lfc_held_t": model._CHeld,
    "lfc_event_t": model._CEvent, "lfc_reg_info_t": model._CRegInfo,
    "lfc_nic_cfg_t": model._CNicCfg, "lfc_nic_stats_t": model._CNicStats,
}
# Python enumeration member -> the C enumerator it must equal.
CONSTANTS = {
    "MAX_PORTS": "LFC_MAX_PORTS", "MAX_CLASSES": "LFC_MAX_CLASSES",
    "IB_MAX_VLS": "LFC_IB_MAX_VLS", "PFC_MAX_PRIOS": "LFC_PFC_MAX_PRIOS", "VL15": "LFC_VL15",
    "VLARB_MAX_ENTRIES": "LFC_VLARB_MAX_ENTRIES", "DROP_CAUSES": "LFC_DROP_CAUSES",
}

# Enumerations whose size the header gives: their member count must equal it.
COUNTS = {"DropCause": "LFC_DROP_CAUSES", "EventKind": "LFC_EV_KINDS", "Field": "LFC_FLAT_FIELDS",
          "Stat": "LFC_FLAT_STATS"}


def header_enums():
    """(Python enum, member) -> C name, for every enumeration the binding has."""
    out = {}
    for m in lfc.Kind:
        out[lfc.Kind, m] = f"LFC_{m.name}"
    for m in lfc.Mode:
        out[lfc.Mode, m] = f"LFC_MODE_{m.name}"
    for m in lfc.Scope:
        out[lfc.Scope, m] = f"LFC_SCOPE_{m.name}"
    for m in lfc.DropCause:
        out[lfc.DropCause, m] = f"LFC_DROP_{m.name}"
    for m in lfc.EventKind:
        out[lfc.EventKind, m] = f"LFC_EV_{m.name}"
    for m in lfc.Field:
        name = m.name
        out[lfc.Field, m] = (f"(LFC_FLAT_PFC_TIME0 + {name[len('PFC_TIME'):]})"
                             if name.startswith("PFC_TIME") else f"LFC_FLAT_{name}")
    for m in lfc.Stat:
        out[lfc.Stat, m] = f"LFC_FLAT_STAT_{m.name}"
    return out


@unittest.skipUnless(shutil.which(os.environ.get("CC", "cc")), "no C compiler (CC, cc)")
class TestHandles(unittest.TestCase):
    """Every object that owns a C object frees it once: at the end of a `with` block, by close()
    (again harmless), and a constructor that refuses its arguments leaves nothing to free."""

    def test_with_and_close(self):
        makers = [lambda: lfc.Checker("pfc"), lambda: lfc.Scoreboard(),
                  lambda: lfc.Switch("pfc"), lambda: lfc.Nic("ib"),
                  lambda: lfc.FlatSwitch("switch.mode=pfc")]
        for make in makers:
            with make() as obj:
                self.assertTrue(obj._h, type(obj).__name__)
            self.assertIsNone(obj._h, type(obj).__name__)
            obj.close()
            self.assertIsNone(obj._h, type(obj).__name__)

    def test_refused_arguments_leave_no_handle(self):
        for make in (lambda: lfc.Switch("pfc", xoff_th=-1), lambda: lfc.Nic("ib", speed_div=0),
                     lambda: lfc.FlatSwitch("switch.ports=1")):
            with self.assertRaises(lfc.LfcError):
                make()


class TestHeaders(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        enums = header_enums()
        lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "lfc/lfc.h"',
                 '#include "lfc/flat.h"', "int main(void) {"]
        for cname, py in STRUCTS.items():
            lines.append(f'  printf("sizeof {cname} %zu\\n", sizeof({cname}));')
            for f, _ in py._fields_:
                lines.append(f'  printf("offsetof {cname}.{f} %zu\\n", offsetof({cname}, {f}));')
        for (e, m), cname in enums.items():
            lines.append(f'  printf("enum {e.__name__}.{m.name} %d\\n", (int){cname});')
        for py, cname in CONSTANTS.items():
            lines.append(f'  printf("const {py} %d\\n", (int){cname});')
        for py, cname in COUNTS.items():
            lines.append(f'  printf("count {py} %d\\n", (int){cname});')
        lines += ["  return 0;", "}"]
        with tempfile.TemporaryDirectory() as tmp:
            src, exe = os.path.join(tmp, "layout.c"), os.path.join(tmp, "layout")
            with open(src, "w") as f:
                f.write("\n".join(lines) + "\n")
            subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-I", INCLUDE, "-o", exe,
                            src], check=True, capture_output=True)
            text = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
        cls.c = dict(line.rsplit(" ", 1) for line in text.splitlines())

    def test_struct_layouts(self):
        for cname, py in STRUCTS.items():
            self.assertEqual(ctypes.sizeof(py), int(self.c[f"sizeof {cname}"]), cname)
            for f, _ in py._fields_:
                self.assertEqual(getattr(py, f).offset, int(self.c[f"offsetof {cname}.{f}"]),
                                 f"{cname}.{f}")

    def test_enums_equal_the_headers(self):
        for (e, m) in header_enums():
            self.assertEqual(int(m), int(self.c[f"enum {e.__name__}.{m.name}"]),
                             f"{e.__name__}.{m.name}")
        # and nothing of the header is missing
        for py in COUNTS:
            self.assertEqual(len(getattr(lfc, py)), int(self.c[f"count {py}"]), py)
        self.assertEqual(len(lfc.Reg), model._lib().lfc_reg_count())
        for py in CONSTANTS:
            self.assertEqual(getattr(model, py), int(self.c[f"const {py}"]), py)


if __name__ == "__main__":
    unittest.main()
