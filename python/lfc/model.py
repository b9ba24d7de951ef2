"""lfc.model - the cycle model (lfc/switch.h, lfc/nic.h) through ctypes: Switch, Nic, Word.

The switch of docs/SPEC.md, bit- and cycle-accurate, the same C code that is co-simulated
against the RTL and that lfc-sim runs; and the end node of SPEC §12.2 that is its link partner.

    from lfc import Switch, Word, EventKind
    sw = Switch("pfc", ports=4, classes=2, xoff_th=64, **{"pfc.headroom_blocks": 141})
    out = sw.step({1: Word.data(cls=0, nblk=1, dst=0, tag=7, sop=True, eop=True)})
    for ev in sw.events: print(ev)              # Event(kind=EventKind.XOFF, port=1, ...)
    sw.stats(0).cls[0].tx_pkts, sw.reg("pause_timer", 0, 0)

Configuration is by the SPEC §3 parameter names of lfc_switch_cfg_set ("pfc.xoff_th", or
"xoff_th" where the name is in one section only), over the SPEC §3 defaults that
lfc_switch_cfg_default fills for the mode, ports and classes; the library checks every value
and the combination, and its one-line message is the LfcError's.

The enumerations (Kind, DropCause, EventKind, Reg, Field, Stat) are built from the names the
library gives (lfc_word_format, lfc_drop_cause_name, lfc_flat_event_kind_name, lfc_reg_info,
lfc_flat_field_name, lfc_flat_stat_name), so they cannot drift from the C side; Mode and Scope,
which the library does not name, are checked against lfc/types.h and lfc/switch.h by
python/tests/test_model.py.
"""

import ctypes
import enum
import numbers
from dataclasses import dataclass, fields as dc_fields

from . import LfcError, _Handle, bind
from .flat import name_signatures

__all__ = [
    "Mode", "Scope", "Kind", "DropCause", "EventKind", "Reg", "Field", "Stat", "Word", "Event",
    "ClassStats", "PortStats", "NicStats", "Held", "RegInfo", "Switch", "Nic", "cfg_keys",
    "reg_info", "enums",
]

# Sizes of lfc/types.h (SPEC §3): the arrays of the C structures below.
MAX_PORTS = 64         # LFC_MAX_PORTS
MAX_CLASSES = 16       # LFC_MAX_CLASSES: data classes 0..14 and VL15 at index 15
IB_MAX_VLS = 15        # LFC_IB_MAX_VLS
PFC_MAX_PRIOS = 8      # LFC_PFC_MAX_PRIOS
VL15 = 15              # LFC_VL15: the IB management VL
VLARB_MAX_ENTRIES = 64  # LFC_VLARB_MAX_ENTRIES
DROP_CAUSES = 6        # LFC_DROP_CAUSES (checked against the library when it is loaded)
NO_EVENT = 2**64 - 1   # UINT64_MAX: lfc_switch_next_event's "none"
CFG_SECTIONS = ("switch", "ib", "pfc")  # lfc_switch_cfg_set's sections (SPEC §3.1, §3.2)
_ERR_LEN = 512
_WORD_TEXT = 160
_KEYS_LEN = 1024


class Mode(enum.IntEnum):
    """lfc_mode_t (lfc/types.h)."""
    IB = 0
    PFC = 1


class Scope(enum.IntEnum):
    """lfc_reg_scope_t (lfc/switch.h): one value, one per port, one per (port, class)."""
    SWITCH = 0
    PORT = 1
    PORT_CLASS = 2


# ---- The C structures (lfc/types.h, lfc/switch.h, lfc/nic.h), field for field. ----

class _CWord(ctypes.Structure):  # lfc_word_t
    _fields_ = [
        ("kind", ctypes.c_uint8), ("sop", ctypes.c_uint8), ("eop", ctypes.c_uint8),
        ("cls", ctypes.c_uint8), ("nblk", ctypes.c_uint8), ("ecn", ctypes.c_uint8),
        ("pad", ctypes.c_uint8), ("mrg", ctypes.c_uint8),
        ("dst", ctypes.c_uint16), ("tag", ctypes.c_uint32),
        ("fc_op", ctypes.c_uint8), ("fc_vl", ctypes.c_uint8),
        ("fc_fctbs", ctypes.c_uint16), ("fc_fccl", ctypes.c_uint16),
        ("pfc_en", ctypes.c_uint8), ("pfc_time", ctypes.c_uint16 * PFC_MAX_PRIOS),
    ]


class _CPkt(ctypes.Structure):  # lfc_pkt_t
    _fields_ = [("cls", ctypes.c_uint8), ("nblk", ctypes.c_uint8), ("ecn", ctypes.c_uint8),
                ("pad", ctypes.c_uint8), ("dst", ctypes.c_uint16), ("tag", ctypes.c_uint32)]


class _CVlarb(ctypes.Structure):  # lfc_vlarb_entry_t
    _fields_ = [("vl", ctypes.c_uint8), ("weight", ctypes.c_uint8)]


class _CSwitchCfg(ctypes.Structure):  # lfc_switch_cfg_t
    _fields_ = [
        ("mode", ctypes.c_int), ("ports", ctypes.c_uint32), ("classes", ctypes.c_uint32),
        ("speed_div", ctypes.c_uint8 * MAX_PORTS), ("latency", ctypes.c_uint32),
        ("cut_through", ctypes.c_bool), ("mtu_blocks", ctypes.c_uint32),
        ("wire_time", ctypes.c_bool), ("seed", ctypes.c_uint32),
        ("route", ctypes.POINTER(ctypes.c_uint8)),
        ("route_len", ctypes.c_uint32),
        ("vl_blocks", ctypes.c_uint32 * IB_MAX_VLS), ("vl15_blocks", ctypes.c_uint32),
        ("fcp_period", ctypes.c_uint32), ("fcp_holdoff", ctypes.c_uint32),
        ("vlarb_high", _CVlarb * VLARB_MAX_ENTRIES), ("vlarb_high_len", ctypes.c_uint32),
        ("vlarb_low", _CVlarb * VLARB_MAX_ENTRIES), ("vlarb_low_len", ctypes.c_uint32),
        ("vlarb_high_limit", ctypes.c_uint32),
        ("lossless_mask", ctypes.c_uint8), ("reserve_blocks", ctypes.c_uint32),
        ("shared_blocks", ctypes.c_uint32), ("headroom_blocks", ctypes.c_uint32),
        ("dynamic_th", ctypes.c_bool), ("xoff_th", ctypes.c_uint32),
        ("alpha_log2", ctypes.c_int32), ("xon_offset", ctypes.c_uint32),
        ("pause_quanta", ctypes.c_uint32), ("refresh_cycles", ctypes.c_uint32),
        ("strict_mask", ctypes.c_uint8), ("drr_quantum", ctypes.c_uint32 * PFC_MAX_PRIOS),
        ("wd_enable", ctypes.c_bool), ("wd_detect", ctypes.c_uint32),
        ("wd_restore", ctypes.c_uint32), ("wd_action", ctypes.c_int),
        ("ecn_mask", ctypes.c_uint8), ("kmin", ctypes.c_uint32), ("kmax", ctypes.c_uint32),
        ("pmax", ctypes.c_uint32),
    ]


_CLASS_COUNTERS = ("tx_pkts", "tx_blocks", "rx_pkts", "rx_blocks")
_CLASS_COUNTERS_2 = ("ecn_mark", "xoff_tx", "xon_tx", "pause_rx", "resume_rx", "paused_cycles",
                     "credit_blocked_cycles", "wd_trip", "wd_restore", "peak_qlen", "peak_pg")


class _CClassStats(ctypes.Structure):  # lfc_class_stats_t
    _fields_ = ([(n, ctypes.c_uint64) for n in _CLASS_COUNTERS]
                + [("drop_pkts", ctypes.c_uint64 * DROP_CAUSES),
                   ("drop_blocks", ctypes.c_uint64 * DROP_CAUSES)]
                + [(n, ctypes.c_uint64) for n in _CLASS_COUNTERS_2])


_PORT_COUNTERS = ("rx_malformed", "rx_bad_fcp", "rx_bad_ctrl", "fcp_tx", "fcp_rx", "pfc_tx",
                  "pfc_rx")


class _CPortStats(ctypes.Structure):  # lfc_port_stats_t
    _fields_ = ([("cls", _CClassStats * MAX_CLASSES)]
                + [(n, ctypes.c_uint64) for n in _PORT_COUNTERS])


class _CHeld(ctypes.Structure):  # lfc_held_t
    _fields_ = [("receiving", ctypes.c_uint64), ("pipeline", ctypes.c_uint64),
                ("queued", ctypes.c_uint64)]


class _CEvent(ctypes.Structure):  # lfc_event_t
    _fields_ = [("kind", ctypes.c_uint8), ("port", ctypes.c_uint8), ("cls", ctypes.c_uint8),
                ("cause", ctypes.c_uint8), ("tag", ctypes.c_uint32)]


class _CRegInfo(ctypes.Structure):  # lfc_reg_info_t
    _fields_ = [("name", ctypes.c_char_p), ("width", ctypes.c_uint8), ("scope", ctypes.c_uint8),
                ("mode", ctypes.c_uint8)]


_NIC_CFG_FIELDS = ("classes", "speed_div", "mtu_blocks", "tx_fifo_pkts", "rx_blocks",
                   "drain_div", "fcp_period", "fcp_holdoff", "rx_xoff", "rx_xon", "pause_quanta",
                   "refresh_cycles", "response_cycles", "wire_time", "response_jitter", "seed")


class _CNicCfg(ctypes.Structure):  # lfc_nic_cfg_t
    _fields_ = [("mode", ctypes.c_int)] + [(n, ctypes.c_uint32) for n in _NIC_CFG_FIELDS]


_NIC_COUNTERS_1 = ("tx_pkts", "tx_blocks", "rx_pkts", "rx_blocks")
_NIC_COUNTERS_2 = ("fcp_tx", "fcp_rx", "pfc_tx", "pfc_rx", "xoff_tx", "xon_tx", "pause_rx",
                   "resume_rx", "paused_cycles", "credit_blocked_cycles", "peak_rx_blocks")


class _CNicStats(ctypes.Structure):  # lfc_nic_stats_t
    _fields_ = ([(n, ctypes.c_uint64) for n in _NIC_COUNTERS_1]
                + [("drop_pkts", ctypes.c_uint64 * DROP_CAUSES)]
                + [(n, ctypes.c_uint64) for n in _NIC_COUNTERS_2])


_RX_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(_CWord), ctypes.c_uint64)


def _signatures():
    h, s, u32, u64, i, sz, buf = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint32,
                                  ctypes.c_uint64, ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p)
    cfg, word, P = ctypes.POINTER(_CSwitchCfg), ctypes.POINTER(_CWord), ctypes.POINTER
    return {
        "lfc_switch_cfg_default": (None, [cfg, i, u32, u32]),
        "lfc_switch_cfg_check": (i, [cfg, buf, sz]),
        "lfc_switch_cfg_set": (i, [cfg, s, s, s, buf, sz]),
        "lfc_switch_cfg_keys": (sz, [s, buf, sz]),
        "lfc_switch_cfg_buffer_blocks": (u64, [cfg]),
        "lfc_switch_create": (h, [cfg, buf, sz]),
        "lfc_switch_destroy": (None, [h]),
        "lfc_switch_reset": (None, [h]),
        "lfc_switch_cycle": (u64, [h]),
        "lfc_switch_step": (None, [h, word, word]),
        "lfc_switch_next_event": (u64, [h]),
        "lfc_switch_advance": (None, [h, u64]),
        "lfc_reg_count": (sz, []),
        "lfc_reg_info": (P(_CRegInfo), [sz]),
        "lfc_reg_find": (i, [s]),
        "lfc_switch_reg": (u64, [h, sz, u32, u32]),
        "lfc_switch_held": (u64, [h, P(_CHeld)]),
        "lfc_switch_stats": (P(_CPortStats), [h, u32]),
        "lfc_switch_events": (sz, [h, P(P(_CEvent))]),
        "lfc_word_format": (ctypes.c_char_p, [word, buf, sz]),
        "lfc_nic_cfg_default": (None, [P(_CNicCfg), i, u32]),
        "lfc_nic_cfg_check": (i, [P(_CNicCfg), buf, sz]),
        "lfc_nic_create": (h, [P(_CNicCfg), buf, sz]),
        "lfc_nic_destroy": (None, [h]),
        "lfc_nic_reset": (None, [h]),
        "lfc_nic_set_rx_callback": (None, [h, _RX_FN, ctypes.c_void_p]),
        "lfc_nic_send": (i, [h, P(_CPkt)]),
        "lfc_nic_backlog": (u32, [h, u32]),
        "lfc_nic_step": (None, [h, word, word]),
        "lfc_nic_next_event": (u64, [h]),
        "lfc_nic_advance": (None, [h, u64]),
        "lfc_nic_cycle": (u64, [h]),
        "lfc_nic_stats": (P(_CNicStats), [h]),
        **name_signatures(),
    }


_LIB = None


def _lib():
    """liblfc (lfc.library()) with the model's functions' signatures set, once."""
    global _LIB
    if _LIB is None:
        _LIB = bind(_signatures())
    return _LIB


def _text(b):
    return b.decode("utf-8", "replace") if b is not None else ""


# ---- Enumerations built from the library's names. ----

_ENUMS = None
_ENUM_NAMES = ("Kind", "DropCause", "EventKind", "Reg", "Field", "Stat")


def _names(fn, stop):
    """fn(0), fn(1), ... until stop(text) says a name is not one."""
    out = []
    while True:
        t = _text(fn(len(out)))
        if stop(t):
            return out
        out.append(t)


def _kind_names(lib):
    # lfc_word_format names each kind as its text's first word ("IDLE", "DATA sop ..."); an
    # unknown kind is "kind=N?".
    out, buf = [], ctypes.create_string_buffer(_WORD_TEXT)
    while True:
        w = _CWord(kind=len(out))
        name = _text(lib.lfc_word_format(ctypes.byref(w), buf, _WORD_TEXT)).split(" ")[0]
        if not name.isalpha():
            return out
        out.append(name)
        if len(out) > 255:  # the kind is 8 bits
            return out


def enums():
    """{"Kind": Kind, "DropCause": ..., "EventKind", "Reg", "Field", "Stat"}: IntEnums whose
    members are the library's names upper-cased (DropCause.SHARED, Reg.PAUSE_TIMER,
    Field.PFC_TIME3, Stat.DROP for stat_drop_o) with the library's numbers. Also lfc.Kind, ..."""
    global _ENUMS
    if _ENUMS is None:
        lib = _lib()
        causes = _names(lib.lfc_flat_cause_name, lambda t: t == "")
        if len(causes) != DROP_CAUSES:
            raise LfcError(f"liblfc has {len(causes)} drop causes, this binding {DROP_CAUSES}")
        regs = [_text(lib.lfc_reg_info(r).contents.name) for r in range(lib.lfc_reg_count())]
        stats = [_text(lib.lfc_flat_stat_name(i)) for i in range(lib.lfc_flat_stat_count())]
        _ENUMS = {
            "Kind": enum.IntEnum("Kind", {n: i for i, n in enumerate(_kind_names(lib))},
                                 module=__name__),
            "DropCause": enum.IntEnum("DropCause", {n.upper(): i for i, n in enumerate(causes)},
                                      module=__name__),
            "EventKind": enum.IntEnum(
                "EventKind", {n.upper(): i for i, n in enumerate(
                    _names(lib.lfc_flat_event_kind_name, lambda t: t == ""))}, module=__name__),
            "Reg": enum.IntEnum("Reg", {n.upper(): i for i, n in enumerate(regs)},
                                module=__name__),
            "Field": enum.IntEnum("Field", {_text(lib.lfc_flat_field_name(i)).upper(): i
                                            for i in range(lib.lfc_flat_field_count())},
                                  module=__name__),
            # "stat_drop_cause_o" is Stat.DROP_CAUSE: the RTL's name without stat_ and _o.
            "Stat": enum.IntEnum("Stat", {n[len("stat_"):-len("_o")].upper(): i
                                          for i, n in enumerate(stats)}, module=__name__),
        }
    return _ENUMS


def __getattr__(name):  # lfc.model.Kind etc., built on first use (PEP 562)
    if name in _ENUM_NAMES:
        return enums()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class RegInfo:
    """lfc_reg_info_t: a register of SPEC §13.1 (the RTL's dbg_reg_i number is its index)."""
    index: int
    name: str
    width: int  # bits
    scope: Scope
    mode: int  # Mode.IB, Mode.PFC, or 2 for both


def reg_info(reg):
    """The RegInfo of a register, by index, name or Reg member."""
    lib = _lib()
    r = _reg_index(reg)
    p = lib.lfc_reg_info(r)
    return RegInfo(r, _text(p.contents.name), p.contents.width, Scope(p.contents.scope),
                   p.contents.mode)


def _reg_index(reg):
    lib = _lib()
    if isinstance(reg, str):
        r = lib.lfc_reg_find(reg.encode())
        if r < 0:
            names = ", ".join(m.name.lower() for m in enums()["Reg"])
            raise LfcError(f"register '{reg}': one of {names}")
        return r
    if not 0 <= int(reg) < lib.lfc_reg_count():
        raise LfcError(f"register {int(reg)}: 0..{lib.lfc_reg_count() - 1}")
    return int(reg)


def cfg_keys(section=None):
    """The parameter names lfc_switch_cfg_set takes in a section ("switch", "ib", "pfc"), or
    {section: [names]} for all."""
    lib = _lib()
    if section is None:
        return {s: cfg_keys(s) for s in CFG_SECTIONS}
    buf = ctypes.create_string_buffer(_KEYS_LEN)
    lib.lfc_switch_cfg_keys(section.encode(), buf, _KEYS_LEN)
    return [k.strip() for k in _text(buf.value).split(",") if k.strip()]


# ---- The link word and what the model reports. ----

@dataclass(frozen=True)
class Word:
    """A link word (lfc_word_t, SPEC §2): only the fields of its kind mean anything; the others
    are 0. Build one with Word.data(...), Word.fcp(...), Word.pfc(...) or Word() for IDLE;
    str(word) is lfc_word_format's text."""

    kind: int = 0
    sop: int = 0
    eop: int = 0
    cls: int = 0
    nblk: int = 0
    ecn: int = 0
    dst: int = 0
    tag: int = 0
    fc_op: int = 0
    fc_vl: int = 0
    fc_fctbs: int = 0
    fc_fccl: int = 0
    pfc_en: int = 0
    pfc_time: tuple = (0,) * PFC_MAX_PRIOS
    pad: int = 0  # SPEC §2.4: bytes of the last block not in the packet
    mrg: int = 0  # SPEC §2.4: the packet takes nblk - 1 slots

    @staticmethod
    def data(cls, nblk, dst, tag=0, sop=False, eop=False, ecn=0):
        """One block of a DATA packet of nblk blocks (every block carries nblk, dst, tag)."""
        return Word(kind=enums()["Kind"].DATA, sop=int(sop), eop=int(eop), cls=cls, nblk=nblk,
                    ecn=ecn, dst=dst, tag=tag)

    @staticmethod
    def fcp(vl, fctbs, fccl, op=0):
        """An IB flow-control packet (SPEC §5.5): op 0 normal, 1 init."""
        return Word(kind=enums()["Kind"].FCP, fc_op=op, fc_vl=vl, fc_fctbs=fctbs, fc_fccl=fccl)

    @staticmethod
    def pfc(times, en=None):
        """An 802.1Qbb PFC frame (SPEC §6.6): times is {priority: quanta} (0 = XON); it enables
        the priorities in times, or those of the class-enable vector en if given."""
        t = [0] * PFC_MAX_PRIOS
        mask = 0
        for prio, q in times.items():
            t[prio] = q
            mask |= 1 << prio
        return Word(kind=enums()["Kind"].PFC, pfc_en=mask if en is None else en,
                    pfc_time=tuple(t))

    @property
    def kind_name(self):
        return enums()["Kind"](self.kind).name

    def _to_c(self, w):
        for name, _ in _CWord._fields_:
            if name == "pfc_time":
                w.pfc_time[:] = list(self.pfc_time)
            else:
                setattr(w, name, int(getattr(self, name)))
        return w

    @staticmethod
    def _from_c(w):
        if w.kind == 0:
            return _IDLE
        return Word(w.kind, w.sop, w.eop, w.cls, w.nblk, w.ecn, w.dst, w.tag, w.fc_op, w.fc_vl,
                    w.fc_fctbs, w.fc_fccl, w.pfc_en, tuple(w.pfc_time), w.pad, w.mrg)

    def __str__(self):
        buf = ctypes.create_string_buffer(_WORD_TEXT)
        return _text(_lib().lfc_word_format(ctypes.byref(self._to_c(_CWord())), buf, _WORD_TEXT))


_IDLE = Word()


@dataclass(frozen=True)
class Event:
    """An event of the last step (lfc_event_t): kind, port, class; a drop's cause and the
    packet's tag (drops and ECN marks)."""

    kind: "EventKind"
    port: int
    cls: int
    cause: "DropCause" = None  # drops only
    tag: int = 0

    def __str__(self):
        # The golden traces' form (docs/golden-traces.md), with the port in front.
        s = f"{self.port} {self.kind.name} cls={self.cls}"
        if self.cause is not None:
            s += f" cause={self.cause.name.lower()} tag=0x{self.tag:08x}"
        return s


@dataclass(frozen=True)
class ClassStats:
    """lfc_class_stats_t: one class of one port (SPEC §10). drop_pkts and drop_blocks are
    {DropCause: count}."""

    tx_pkts: int
    tx_blocks: int
    rx_pkts: int
    rx_blocks: int
    drop_pkts: dict
    drop_blocks: dict
    ecn_mark: int
    xoff_tx: int
    xon_tx: int
    pause_rx: int
    resume_rx: int
    paused_cycles: int
    credit_blocked_cycles: int
    wd_trip: int
    wd_restore: int
    peak_qlen: int
    peak_pg: int

    @property
    def drops(self):
        return sum(self.drop_pkts.values())


@dataclass(frozen=True)
class PortStats:
    """lfc_port_stats_t: cls[c] for the configured classes c (and vl15 in IB mode), and the
    port's own counters."""

    port: int
    cls: list
    vl15: ClassStats
    rx_malformed: int
    rx_bad_fcp: int
    rx_bad_ctrl: int
    fcp_tx: int
    fcp_rx: int
    pfc_tx: int
    pfc_rx: int

    def rows(self):
        """One dict per class (port, class and every counter; drops by cause as drop_<cause>),
        for a table: pandas.DataFrame(sum((sw.stats(p).rows() for p in ...), []))."""
        out = []
        for c, cs in enumerate(self.cls):
            out.append(_class_row(self.port, c, cs))
        if self.vl15 is not None:
            out.append(_class_row(self.port, VL15, self.vl15))
        return out


def _class_row(port, c, cs):
    row = {"port": port, "class": c}
    for f in dc_fields(ClassStats):
        v = getattr(cs, f.name)
        if isinstance(v, dict):  # drop_pkts_shared, drop_blocks_headroom, ...
            row.update({f"{f.name}_{cause.name.lower()}": n for cause, n in v.items()})
        else:
            row[f.name] = v
    return row


def _by_cause(arr):
    causes = enums()["DropCause"]
    return {causes(i): arr[i] for i in range(DROP_CAUSES)}


def _class_stats(c):
    kw = {n: getattr(c, n) for n in _CLASS_COUNTERS + _CLASS_COUNTERS_2}
    return ClassStats(drop_pkts=_by_cause(c.drop_pkts), drop_blocks=_by_cause(c.drop_blocks),
                      **kw)


@dataclass(frozen=True)
class NicStats:
    """lfc_nic_stats_t: an end node's counters; drop_pkts is {DropCause: count}."""

    tx_pkts: int
    tx_blocks: int
    rx_pkts: int
    rx_blocks: int
    drop_pkts: dict
    fcp_tx: int
    fcp_rx: int
    pfc_tx: int
    pfc_rx: int
    xoff_tx: int
    xon_tx: int
    pause_rx: int
    resume_rx: int
    paused_cycles: int
    credit_blocked_cycles: int
    peak_rx_blocks: int


@dataclass(frozen=True)
class Held:
    """lfc_held_t: the packets the switch holds (SPEC §7.2-§7.4)."""

    receiving: int
    pipeline: int
    queued: int

    @property
    def total(self):
        return self.receiving + self.pipeline + self.queued


def _mode(mode):
    if isinstance(mode, str):
        try:
            return Mode[mode.upper()]
        except KeyError:
            raise LfcError(f"mode '{mode}': ib or pfc") from None
    return Mode(mode)


def _value_text(v):
    """A Python value as lfc_switch_cfg_set's text: bools 1/0, lists comma-separated, a VL
    arbitration table [(vl, weight), ...] as "vl:weight, ...", an empty table "none"."""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, enum.Enum):
        return v.name.lower()
    if isinstance(v, (list, tuple)):
        if not v:
            return "none"
        return ",".join(f"{e[0]}:{e[1]}" if isinstance(e, (list, tuple)) else _value_text(e)
                        for e in v)
    return str(v)


def _split_key(key, keys):
    """"pfc.xoff_th" -> ("pfc", "xoff_th"); "xoff_th" -> the one section that has it."""
    if "." in key:
        sec, name = key.split(".", 1)
        return sec, name
    secs = [s for s in CFG_SECTIONS if key in keys[s]]
    if len(secs) == 1:
        return secs[0], key
    if not secs:
        every = ", ".join(f"{s}.{k}" for s in CFG_SECTIONS for k in keys[s])
        raise LfcError(f"switch: unknown parameter '{key}'; allowed: {every}")
    raise LfcError(f"switch: '{key}' is in sections {', '.join(secs)}: say which (section.key)")


class Switch(_Handle):
    """The N-port switch of docs/SPEC.md (lfc/switch.h).

    Switch(mode, ports=4, classes=2, config=None, route=None, **params): mode "ib" or "pfc"
    (or Mode); config a dict of SPEC §3 parameters by name ("pfc.xoff_th": 64, "ib.vlarb_low":
    [(0, 4), (1, 4)]), params the same as keywords (xoff_th=64; a name in one section only);
    route[dst] = egress port, 0..63 (None: dst is the port). LfcError with the library's line
    for an unknown name, a bad value or an illegal combination (SPEC §3.3).
    """

    _destroy = "lfc_switch_destroy"

    def __init__(self, mode, ports=4, classes=2, config=None, route=None, **params):
        self._lib = lib = _lib()
        cfg = _CSwitchCfg()
        lib.lfc_switch_cfg_default(ctypes.byref(cfg), _mode(mode), ports, classes)
        keys = cfg_keys()
        err = ctypes.create_string_buffer(_ERR_LEN)
        items = list((config or {}).items()) + list(params.items())
        for key, value in items:
            sec, name = _split_key(key, keys)
            if (sec, name) in (("switch", "mode"), ("switch", "ports"), ("switch", "classes")):
                raise LfcError(f"switch: {sec}.{name} is an argument of Switch(), not a parameter")
            text = _value_text(value)
            rc = lib.lfc_switch_cfg_set(ctypes.byref(cfg), sec.encode(), name.encode(),
                                        text.encode(), err, _ERR_LEN)
            if rc != 0:
                raise LfcError(f"switch: [{sec}] {name} = {text}: {_text(err.value)}")
        if route is not None:
            # lfc_switch_cfg_t keeps a pointer to the table: it lives as long as this object.
            # A byte an entry: check the range here, as ctypes would wrap 300 to 44.
            for i, e in enumerate(route):
                if not isinstance(e, numbers.Integral) or not 0 <= e < MAX_PORTS:
                    raise LfcError(f"switch: route[{i}] = {e!r} is not a port; "
                                   f"allowed: 0..{MAX_PORTS - 1}")
            self._route = (ctypes.c_uint8 * len(route))(*route)
            cfg.route = ctypes.cast(self._route, ctypes.POINTER(ctypes.c_uint8))
            cfg.route_len = len(route)
        self._cfg = cfg
        self._h = lib.lfc_switch_create(ctypes.byref(cfg), err, _ERR_LEN)
        if not self._h:
            raise LfcError(f"switch: {_text(err.value)}")
        self.mode = Mode(cfg.mode)
        self.ports = cfg.ports
        self.classes = cfg.classes
        self._in = (_CWord * self.ports)()
        self._out = (_CWord * self.ports)()
        self._idle = (_CWord * self.ports)()

    # ---- life cycle ----

    def reset(self):
        """Back to cycle 0, every counter 0."""
        self._lib.lfc_switch_reset(self._h)

    # ---- configuration ----

    def param(self, name):
        """A configuration value by its SPEC §3 name ("xoff_th", "pfc.xoff_th"): an int, a bool,
        a list (speed_div per port, vl_blocks and drr_quantum per class), or [(vl, weight)]."""
        name = name.split(".", 1)[-1]
        c = self._cfg
        if name in ("vlarb_high", "vlarb_low"):
            return [(e.vl, e.weight) for e in getattr(c, name)[:getattr(c, name + "_len")]]
        if name == "speed_div":
            return list(c.speed_div[:self.ports])
        if name in ("vl_blocks", "drr_quantum"):
            return list(getattr(c, name)[:self.classes])
        if name == "mode":
            return self.mode
        if name not in {n for n, _ in _CSwitchCfg._fields_} or name.startswith("route"):
            raise LfcError(f"switch: unknown parameter '{name}'")
        return getattr(c, name)

    @property
    def config(self):
        """{section.name: value} of every parameter (param())."""
        return {f"{s}.{k}": self.param(k) for s, ks in cfg_keys().items() for k in ks}

    @property
    def buffer_blocks(self):
        """Total buffer in blocks (SPEC §3.4)."""
        return self._lib.lfc_switch_cfg_buffer_blocks(ctypes.byref(self._cfg))

    # ---- time ----

    @property
    def cycle(self):
        """Cycles stepped or advanced since reset."""
        return self._lib.lfc_switch_cycle(self._h)

    def step(self, inputs=None):
        """One cycle (SPEC §4.1). inputs: None (all IDLE), a list of a Word (or None) per port,
        or {port: Word}. Returns the Word each port transmitted in this cycle."""
        if inputs is None:
            src = self._idle
        else:
            src = self._in
            ctypes.memset(src, 0, ctypes.sizeof(src))
            pairs = inputs.items() if isinstance(inputs, dict) else enumerate(inputs)
            for p, w in pairs:
                if not 0 <= p < self.ports:
                    raise LfcError(f"switch: port {p}: 0..{self.ports - 1}")
                if w is not None:
                    w._to_c(src[p])
        self._lib.lfc_switch_step(self._h, src, self._out)
        return [Word._from_c(w) for w in self._out]

    def next_event(self):
        """A cycle >= now not after the earliest at which, with no new input, the switch would
        do more than stream, count and (PFC) move packets through its pipeline and apply the
        XOFF/XON decided in the step before (lfc_switch_next_event); None if there is none."""
        t = self._lib.lfc_switch_next_event(self._h)
        return None if t == NO_EVENT else t

    def advance(self, to):
        """Skip to cycle `to` (now <= to <= next_event()), bit-identical to stepping with the
        inputs a legal peer would give (lfc_switch_advance). LfcError outside that range."""
        now, nxt = self.cycle, self.next_event()
        if to < now or (nxt is not None and to > nxt):
            last = nxt if nxt is not None else "any"
            raise LfcError(f"switch: advance to {to}: allowed {now}..{last} (now..next_event())")
        self._lib.lfc_switch_advance(self._h, to)

    # ---- what it did and holds ----

    @property
    def events(self):
        """The events of the last step or advance (by kind, then port, then class); an
        advance has at most the XOFF/XON of the first cycle it passed."""
        p = ctypes.POINTER(_CEvent)()
        n = self._lib.lfc_switch_events(self._h, ctypes.byref(p))
        e = enums()
        kinds, causes = e["EventKind"], e["DropCause"]
        return [Event(kinds(p[i].kind), p[i].port, p[i].cls,
                      causes(p[i].cause) if p[i].kind == kinds.DROP else None, p[i].tag)
                for i in range(n)]

    def stats(self, port=None):
        """PortStats of a port since reset, or a list of every port's."""
        if port is None:
            return [self.stats(p) for p in range(self.ports)]
        if not 0 <= port < self.ports:
            raise LfcError(f"switch: port {port}: 0..{self.ports - 1}")
        s = self._lib.lfc_switch_stats(self._h, port).contents
        vl15 = _class_stats(s.cls[VL15]) if self.mode == Mode.IB else None
        return PortStats(port, [_class_stats(s.cls[c]) for c in range(self.classes)], vl15,
                         **{n: getattr(s, n) for n in _PORT_COUNTERS})

    def reg(self, reg, port=0, cls=0):
        """Register reg (index, name or Reg; SPEC §13.1) of (port, cls) in the current state,
        as the RTL holds it."""
        r = _reg_index(reg)
        if not 0 <= port < self.ports:
            raise LfcError(f"switch: port {port}: 0..{self.ports - 1}")
        if not (0 <= cls < self.classes or cls == VL15):
            raise LfcError(f"switch: class {cls}: 0..{self.classes - 1} or {VL15}")
        return self._lib.lfc_switch_reg(self._h, r, port, cls)

    def held(self):
        """Held: the packets the switch holds now (SPEC §7.2-§7.4)."""
        h = _CHeld()
        self._lib.lfc_switch_held(self._h, ctypes.byref(h))
        return Held(h.receiving, h.pipeline, h.queued)


class Nic(_Handle):
    """An end node (lfc/nic.h, SPEC §12.2), the switch's link partner.

    Nic(mode, classes=1, on_receive=None, **cfg): cfg the fields of lfc_nic_cfg_t (speed_div,
    mtu_blocks, tx_fifo_pkts, rx_blocks, drain_div, fcp_period, rx_xoff, rx_xon, pause_quanta,
    refresh_cycles, response_cycles) over lfc_nic_cfg_default's. on_receive(word, cycle) is
    called for every packet it admits, at its first block. LfcError with the library's line
    for a value out of range.
    """

    _destroy = "lfc_nic_destroy"

    def __init__(self, mode, classes=1, on_receive=None, **cfg):
        self._lib = lib = _lib()
        c = _CNicCfg()
        lib.lfc_nic_cfg_default(ctypes.byref(c), _mode(mode), classes)
        for k, v in cfg.items():
            if k not in _NIC_CFG_FIELDS or k == "classes":
                raise LfcError(f"nic: unknown parameter '{k}'; allowed: "
                               + ", ".join(n for n in _NIC_CFG_FIELDS if n != "classes"))
            setattr(c, k, int(v))
        err = ctypes.create_string_buffer(_ERR_LEN)
        if lib.lfc_nic_cfg_check(ctypes.byref(c), err, _ERR_LEN) != 0:
            raise LfcError(f"nic: {_text(err.value)}")
        self._cfg = c
        self._h = lib.lfc_nic_create(ctypes.byref(c), err, _ERR_LEN)
        if not self._h:
            raise LfcError(f"nic: {_text(err.value)}")
        self.mode = Mode(c.mode)
        self.classes = c.classes
        self._out = _CWord()
        self._in = _CWord()
        self._cb = None
        if on_receive is not None:
            # The C callback object must live as long as the node may call it.
            self._cb = _RX_FN(lambda ctx, w, cycle: on_receive(Word._from_c(w.contents), cycle))
            lib.lfc_nic_set_rx_callback(self._h, self._cb, None)

    def reset(self):
        self._lib.lfc_nic_reset(self._h)

    def param(self, name):
        """A configuration value (a field of lfc_nic_cfg_t)."""
        if name == "mode":
            return self.mode
        if name not in _NIC_CFG_FIELDS:
            raise LfcError(f"nic: unknown parameter '{name}'")
        return getattr(self._cfg, name)

    def send(self, cls, nblk, dst, tag=0, ecn=0):
        """Queue a packet; False (nothing queued) if its class FIFO is full or it is illegal
        (class, nblk outside 1..mtu_blocks)."""
        p = _CPkt(cls=cls, nblk=nblk, ecn=ecn, dst=dst, tag=tag)
        return self._lib.lfc_nic_send(self._h, ctypes.byref(p)) == 0

    def backlog(self, cls):
        """Packets waiting to start in class cls."""
        return self._lib.lfc_nic_backlog(self._h, cls)

    @property
    def cycle(self):
        return self._lib.lfc_nic_cycle(self._h)

    def step(self, word=None):
        """One cycle with the word received (None = IDLE); returns the word it sends."""
        if word is None:
            self._lib.lfc_nic_step(self._h, None, ctypes.byref(self._out))
        else:
            self._lib.lfc_nic_step(self._h, ctypes.byref(word._to_c(self._in)),
                                   ctypes.byref(self._out))
        return Word._from_c(self._out)

    def next_event(self):
        t = self._lib.lfc_nic_next_event(self._h)
        return None if t == NO_EVENT else t

    def advance(self, to):
        now, nxt = self.cycle, self.next_event()
        if to < now or (nxt is not None and to > nxt):
            last = nxt if nxt is not None else "any"
            raise LfcError(f"nic: advance to {to}: allowed {now}..{last} (now..next_event())")
        self._lib.lfc_nic_advance(self._h, to)

    def stats(self):
        s = self._lib.lfc_nic_stats(self._h).contents
        return NicStats(drop_pkts=_by_cause(s.drop_pkts),
                        **{n: getattr(s, n) for n in _NIC_COUNTERS_1 + _NIC_COUNTERS_2})
