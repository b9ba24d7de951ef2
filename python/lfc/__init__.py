"""lfc - liblfc from Python through ctypes: the protocol checkers, end-to-end scoreboard and pcap
reader; the cycle model (lfc.Switch, lfc.Nic: lfc/model.py; lfc.flat.FlatSwitch, the RTL's view
for cocotb); and the fabric simulator lfc-sim (lfc.sim.run, lfc.sweep: lfc/sim.py, with pandas).

A thin binding of lfc/check.h, lfc/scoreboard.h and lfc/pcap.h (docs/verify-your-rtl.md): the
rules, their texts and the violation lines all come from the C library; nothing is re-implemented
here.

    from lfc import Checker, AB, BA, ETH
    chk = Checker("pfc", "speed_mbps=10000 time_unit_ps=1 eth_fcs=0")
    chk.frame(0, AB, t_ps, ETH, frame_bytes)   # every frame seen on link 0, in time order
    chk.finish(t_end_ps)
    for line in chk.lines(): print(line)

The library is loaded from $LFC_LIB if set, else from liblfc.so next to this file, else from the
system (an installed liblfc.so.N, `make install`).
"""

import ctypes
import ctypes.util
import os
from dataclasses import dataclass

__all__ = [
    "AB", "BA", "ETH", "IB_DATA", "IB_LINK", "drop_causes", "LfcError", "Violation",
    "Checker", "Scoreboard", "Record", "Reader", "library", "crc32_fcs", "eth_frame",
    "pfc_frame", "Switch", "Nic", "Word", "Event", "Mode", "Scope", "Kind", "DropCause",
    "EventKind", "Reg", "Field", "Stat", "ClassStats", "PortStats", "NicStats", "Held",
    "RegInfo", "cfg_keys", "reg_info", "FlatSwitch", "sim", "sweep", "SimError",
]

# Directions of a link (lfc/check.h): side A sends to side B, or B to A.
AB = 0
BA = 1
# Kinds of frame (lfc/pcap.h lfc_pcap_rec_t).
ETH = 0
IB_DATA = 1
IB_LINK = 2
_MODES = {"ib": 0, "pfc": 1}  # lfc_mode_t

# Sizes of lfc/check.h's texts and of the buffers this binding formats into.
_CHECK_TEXT = 112  # LFC_CHECK_TEXT
_ERR_LEN = 512
_LINE_LEN = 1024
_ETH_FCS_BYTES = 4


class LfcError(Exception):
    """A call into liblfc refused its input; the message is the library's one line."""


class _Violation(ctypes.Structure):  # lfc_check_violation_t
    _fields_ = [
        ("time", ctypes.c_uint64),
        ("frame", ctypes.c_uint64),
        ("link", ctypes.c_uint32),
        ("dir", ctypes.c_uint32),
        ("rule", ctypes.c_int),
        ("cls", ctypes.c_uint32),
        ("expected", ctypes.c_char * _CHECK_TEXT),
        ("observed", ctypes.c_char * _CHECK_TEXT),
    ]


class _SbCfg(ctypes.Structure):  # lfc_sb_cfg_t
    _fields_ = [
        ("allowed_drops", ctypes.c_uint32),
        ("max_outstanding", ctypes.c_uint64),
        ("time_unit_ps", ctypes.c_uint32),
        ("time_label", ctypes.c_char_p),
        ("max_kept", ctypes.c_size_t),
    ]


_DROP_CAUSES = 6  # LFC_DROP_CAUSES (lfc/types.h), checked when the library is loaded


class _SbStats(ctypes.Structure):  # lfc_sb_stats_t
    _fields_ = [
        ("accepted", ctypes.c_uint64),
        ("delivered", ctypes.c_uint64),
        ("lost", ctypes.c_uint64),
        ("dropped", ctypes.c_uint64 * _DROP_CAUSES),
        ("dropped_other", ctypes.c_uint64),
        ("outstanding", ctypes.c_uint64),
        ("flows", ctypes.c_uint64),
        ("latency_count", ctypes.c_uint64),
        ("latency_min", ctypes.c_uint64),
        ("latency_max", ctypes.c_uint64),
        ("latency_mean", ctypes.c_double),
    ]


class _PcapRecord(ctypes.Structure):  # lfc_pcap_record_t
    _fields_ = [
        ("index", ctypes.c_uint64),
        ("offset", ctypes.c_uint64),
        ("ts_ns", ctypes.c_uint64),
        ("kind", ctypes.c_int),
        ("iface", ctypes.c_uint32),
        ("dir", ctypes.c_int),
        ("data", ctypes.POINTER(ctypes.c_uint8)),
        ("len", ctypes.c_size_t),
    ]


class _PfcFrame(ctypes.Structure):  # lfc_pfc_frame_t
    _fields_ = [
        ("src", ctypes.c_uint8 * 6),
        ("opcode", ctypes.c_uint16),
        ("class_enable", ctypes.c_uint8),
        ("time", ctypes.c_uint16 * 8),
    ]


def _signatures():
    h, s, u32, u64, i = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int
    sz, buf = ctypes.c_size_t, ctypes.c_char_p
    return {
        "lfc_version": (s, []),
        "lfc_check_create_text": (h, [i, s, buf, sz]),
        "lfc_check_destroy": (None, [h]),
        "lfc_check_frame": (i, [h, u32, u32, u64, i, ctypes.c_char_p, sz]),
        "lfc_check_drop": (i, [h, u32, u32, u64, u32]),
        "lfc_check_xoff": (i, [h, u32, u32, u64, u32, ctypes.c_bool]),
        "lfc_check_finish": (i, [h, u64]),
        "lfc_check_error": (s, [h]),
        "lfc_check_violations": (u64, [h]),
        "lfc_check_count": (u64, [h, i]),
        "lfc_check_frames": (u64, [h]),
        "lfc_check_violation": (ctypes.POINTER(_Violation), [h, sz]),
        "lfc_check_format": (s, [h, sz, buf, sz]),
        "lfc_check_rule_name": (s, [i]),
        "lfc_check_cov_points": (sz, []),
        "lfc_check_cov_name": (s, [sz]),
        "lfc_check_cov_in_mode": (ctypes.c_bool, [sz, i]),
        "lfc_check_cov": (u64, [h, sz]),
        "lfc_drop_cause_name": (s, [i]),
        "lfc_sb_cfg_default": (None, [ctypes.POINTER(_SbCfg)]),
        "lfc_sb_create": (h, [ctypes.POINTER(_SbCfg), buf, sz]),
        "lfc_sb_destroy": (None, [h]),
        "lfc_sb_accept": (i, [h, u64, u64, u64, u32, u32]),
        "lfc_sb_deliver": (i, [h, u64, u64, u64, u32, u32]),
        "lfc_sb_drop": (i, [h, u64, u64, u64, u32, u32, i]),
        "lfc_sb_finish": (u64, [h, u64]),
        "lfc_sb_stats": (None, [h, ctypes.POINTER(_SbStats)]),
        "lfc_sb_error": (s, [h]),
        "lfc_sb_violations": (u64, [h]),
        "lfc_sb_violation": (ctypes.POINTER(_Violation), [h, sz]),
        "lfc_sb_format": (s, [h, sz, buf, sz]),
        "lfc_pcap_reader_open": (h, [s, buf, sz]),
        "lfc_pcap_reader_linktype": (u32, [h]),
        "lfc_pcap_reader_next": (i, [h, ctypes.POINTER(_PcapRecord), buf, sz]),
        "lfc_pcap_reader_close": (None, [h]),
        "lfc_crc32": (u32, [ctypes.c_char_p, sz]),
        "lfc_pfc_encode": (sz, [ctypes.POINTER(_PfcFrame), buf, sz, h]),
    }


def _candidates():
    """Where liblfc is looked for, in order: $LFC_LIB, next to this file, the system."""
    env = os.environ.get("LFC_LIB")
    if env:
        return [env]  # asked for explicitly: no other library in its place
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "liblfc.so")
    found = ctypes.util.find_library("lfc")
    return [here] + ([found] if found else []) + ["liblfc.so"]


_LIB = None


def library():
    """liblfc, loaded once with every function's signature set. LfcError if none loads."""
    global _LIB
    if _LIB is not None:
        return _LIB
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(f"{path} (no such file)")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        _set_signatures(lib, _signatures())
        # lfc_sb_stats_t holds a count per drop cause: the library must have as many.
        if (lib.lfc_drop_cause_name(_DROP_CAUSES - 1) == b"unknown"
                or lib.lfc_drop_cause_name(_DROP_CAUSES) != b"unknown"):
            raise LfcError(f"{path}: liblfc {lib.lfc_version().decode()} has other drop causes "
                           f"than this binding's {_DROP_CAUSES}")
        _LIB = lib
        return lib
    raise LfcError("liblfc not found: set LFC_LIB to build/liblfc.so, or `make install`; tried "
                   + "; ".join(tried))


def _set_signatures(lib, signatures):
    for name, (res, args) in signatures.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args


def bind(signatures):
    """library() with these functions' result and argument types set: {name: (restype,
    [argtypes])}. The submodules (lfc.model, lfc.flat) declare their part of the API this way."""
    lib = library()
    _set_signatures(lib, signatures)
    return lib


class _Handle:
    """A C object a Python object owns: freed once, by close(), at the end of a `with` block or
    when the object is collected. A subclass names the library function that frees it
    (_destroy) and sets _lib and _h; _h stays None until the C object exists, so a constructor
    that raises leaves nothing to free."""

    _destroy = None
    _lib = None
    _h = None

    def close(self):
        """Free the C object (also done when this object is collected)."""
        if self._h:
            getattr(self._lib, self._destroy)(self._h)
            self._h = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _text(b):
    return b.decode("utf-8", "replace")


def _rules():
    lib = library()
    names = []
    while True:
        name = _text(lib.lfc_check_rule_name(len(names)))
        if name == "?":
            return names
        names.append(name)


def drop_causes():
    """The names of lfc_drop_cause_t, in order: ["headroom", "shared", ...]."""
    lib = library()
    return [_text(lib.lfc_drop_cause_name(c)) for c in range(_DROP_CAUSES)]


def crc32_fcs(data):
    """The 4 FCS bytes of an Ethernet frame body (CRC-32, least significant byte first)."""
    return library().lfc_crc32(bytes(data), len(data)).to_bytes(_ETH_FCS_BYTES, "little")


# Ethernet framing (IEEE 802.3 clause 3; 802.1Q tag) for frames a test sends or expects.
_ETH_MIN_NO_FCS = 60  # the 64-byte minimum frame without its FCS
_ETH_TYPE_VLAN = 0x8100
_PCP_SHIFT = 13
_MAC_CTRL_OP_PFC = 0x0101  # IEEE 802.1Qbb
_PFC_FRAME_BYTES = 64
_PFC_PRIOS = 8


def eth_frame(dst, src, ethertype, payload, pcp=None, fcs=True):
    """An Ethernet frame: addresses (6 bytes each), an 802.1Q tag of priority pcp (VLAN 0) unless
    pcp is None, the EtherType, the payload zero-padded to the 64-byte minimum, the FCS."""
    head = bytes(dst) + bytes(src)
    if pcp is not None:
        head += _ETH_TYPE_VLAN.to_bytes(2, "big") + (pcp << _PCP_SHIFT).to_bytes(2, "big")
    body = head + ethertype.to_bytes(2, "big") + bytes(payload)
    body += bytes(max(0, _ETH_MIN_NO_FCS - len(body)))
    return body + crc32_fcs(body) if fcs else body


def pfc_frame(src, times, fcs=True):
    """An IEEE 802.1Qbb PFC frame from src (6 bytes), encoded by liblfc's lfc_pfc_encode: times
    is {priority: quanta} (0 = XON) for the priorities it enables."""
    f = _PfcFrame()
    f.src[:] = bytes(src)
    f.opcode = _MAC_CTRL_OP_PFC
    for prio, quanta in times.items():
        if not 0 <= prio < _PFC_PRIOS:
            raise LfcError(f"pfc_frame: priority {prio}: 0..{_PFC_PRIOS - 1}")
        f.class_enable |= 1 << prio
        f.time[prio] = quanta
    out = ctypes.create_string_buffer(_PFC_FRAME_BYTES)
    if library().lfc_pfc_encode(ctypes.byref(f), out, _PFC_FRAME_BYTES, None) != _PFC_FRAME_BYTES:
        raise LfcError("pfc_frame: lfc_pfc_encode refused the frame")
    return out.raw if fcs else out.raw[:-_ETH_FCS_BYTES]


@dataclass(frozen=True)
class Violation:
    """One violation, as lfc_check_violation_t, with its one-line text (lfc_check_format)."""

    time: int
    frame: int  # the frame that showed it, counted from 1 on its link; 0 = none
    link: int
    dir: int
    rule: str  # its class: "ib-send", "pfc-reaction", "sb-lost", ...
    cls: int  # VL or priority; 255 = none
    expected: str
    observed: str
    line: str

    def __str__(self):
        return self.line


def _violation(v, line):
    rules = _rules()
    return Violation(v.time, v.frame, v.link, v.dir,
                     rules[v.rule] if v.rule < len(rules) else "?", v.cls,
                     _text(v.expected), _text(v.observed), line)


def _settings_text(settings):
    if settings is None:
        return ""
    if isinstance(settings, dict):
        return " ".join(f"{k}={int(v)}" for k, v in settings.items())
    return str(settings)


class Checker(_Handle):
    """A link checker of lfc/check.h: mode "ib" or "pfc", settings as lfc_check_create_text's
    "key=value ..." text or a dict. Times are in the settings' time_unit_ps (default 1000: ns).
    """

    _destroy = "lfc_check_destroy"

    def __init__(self, mode, settings=""):
        if mode not in _MODES:
            raise LfcError(f"check: mode '{mode}': ib or pfc")
        self.mode = mode
        self._lib = library()
        err = ctypes.create_string_buffer(_ERR_LEN)
        self._h = self._lib.lfc_check_create_text(_MODES[mode], _settings_text(settings).encode(),
                                                  err, _ERR_LEN)
        if not self._h:
            raise LfcError(_text(err.value))

    def _call(self, rc):
        if rc < 0:
            raise LfcError(_text(self._lib.lfc_check_error(self._h)))
        return rc

    def frame(self, link, dir, time, kind, data):
        """Feed one frame (bytes) seen on link in direction dir, first bit at time. Returns the
        violations it showed; LfcError for input the checker refuses (its state unchanged)."""
        data = bytes(data)
        return self._call(self._lib.lfc_check_frame(self._h, link, dir, time, kind, data,
                                                    len(data)))

    def drop(self, link, dir, time, cls):
        """A drop your monitor saw: the receiver of dir on link dropped a packet of class cls.
        Returns 1 if flagged, else 0."""
        return self._call(self._lib.lfc_check_drop(self._h, link, dir, time, cls))

    def xoff(self, link, dir, time, prio, xoff):
        """PFC: the receiver of dir on link is in XOFF for prio (True) or not, from time on."""
        return self._call(self._lib.lfc_check_xoff(self._h, link, dir, time, prio, bool(xoff)))

    def finish(self, time):
        """The end of the observation: returns the violations only the end could show."""
        return self._call(self._lib.lfc_check_finish(self._h, time))

    @property
    def frames(self):
        """Frames fed and accepted."""
        return self._lib.lfc_check_frames(self._h)

    def count(self, rule=None):
        """Violations found in all, or of one rule ("pfc-reaction"); all are counted, the first
        max_kept are kept."""
        if rule is None:
            return self._lib.lfc_check_violations(self._h)
        return self._lib.lfc_check_count(self._h, _rules().index(rule))

    def violation(self, i):
        """The i-th violation kept, or None."""
        p = self._lib.lfc_check_violation(self._h, i)
        if not p:
            return None
        line = ctypes.create_string_buffer(_LINE_LEN)
        self._lib.lfc_check_format(self._h, i, line, _LINE_LEN)
        return _violation(p.contents, _text(line.value))

    @property
    def violations(self):
        """Every violation kept, in the order found."""
        out = []
        while (v := self.violation(len(out))) is not None:
            out.append(v)
        return out

    def lines(self):
        """The violations kept as lines, as lfc-check prints them."""
        return [v.line for v in self.violations]

    def coverage(self):
        """{point name: count} for the points of this checker's mode (lfc_check_cov_*)."""
        lib, mode = self._lib, _MODES[self.mode]
        return {_text(lib.lfc_check_cov_name(i)): lib.lfc_check_cov(self._h, i)
                for i in range(lib.lfc_check_cov_points()) if lib.lfc_check_cov_in_mode(i, mode)}


class Scoreboard(_Handle):
    """The end-to-end scoreboard of lfc/scoreboard.h: every packet (flow, id) accepted leaves
    once, in order within its flow, or is dropped with an allowed cause ("shared", ...)."""

    _destroy = "lfc_sb_destroy"

    def __init__(self, allowed_drops=(), max_outstanding=0, time_unit_ps=1000, max_kept=1000):
        self._lib = library()
        causes = drop_causes()
        cfg = _SbCfg()
        self._lib.lfc_sb_cfg_default(ctypes.byref(cfg))
        for c in allowed_drops:
            cfg.allowed_drops |= 1 << self._cause(c, causes)
        cfg.max_outstanding = max_outstanding
        cfg.time_unit_ps = time_unit_ps
        cfg.max_kept = max_kept
        err = ctypes.create_string_buffer(_ERR_LEN)
        self._h = self._lib.lfc_sb_create(ctypes.byref(cfg), err, _ERR_LEN)
        if not self._h:
            raise LfcError(_text(err.value))

    @staticmethod
    def _cause(c, causes):
        if isinstance(c, int):
            return c
        if c not in causes:
            raise LfcError(f"scoreboard: drop cause '{c}': one of {', '.join(causes)}")
        return causes.index(c)

    def accept(self, flow, id, time, link=0, dir=0):
        """Packet (flow, id) entered the device. LfcError when max_outstanding is reached."""
        if self._lib.lfc_sb_accept(self._h, flow, id, time, link, dir) < 0:
            raise LfcError(_text(self._lib.lfc_sb_error(self._h)))

    def deliver(self, flow, id, time, link=0, dir=0):
        """Packet (flow, id) left the device. Returns 1 if that broke a rule, else 0."""
        return self._lib.lfc_sb_deliver(self._h, flow, id, time, link, dir)

    def drop(self, flow, id, time, cause, link=0, dir=0):
        """The device dropped packet (flow, id) for cause (a name or number). 1 if not allowed."""
        c = self._cause(cause, drop_causes())
        return self._lib.lfc_sb_drop(self._h, flow, id, time, link, dir, c)

    def finish(self, time):
        """The end: every packet still outstanding is lost. Returns how many."""
        return self._lib.lfc_sb_finish(self._h, time)

    def stats(self):
        """Counts and latency: accepted, delivered, lost, dropped {cause: n}, outstanding, ..."""
        st = _SbStats()
        self._lib.lfc_sb_stats(self._h, ctypes.byref(st))
        out = {name: getattr(st, name) for name, _ in _SbStats._fields_}
        out["dropped"] = dict(zip(drop_causes(), st.dropped))
        return out

    def count(self):
        return self._lib.lfc_sb_violations(self._h)

    @property
    def violations(self):
        out = []
        line = ctypes.create_string_buffer(_LINE_LEN)
        while p := self._lib.lfc_sb_violation(self._h, len(out)):
            self._lib.lfc_sb_format(self._h, len(out), line, _LINE_LEN)
            out.append(_violation(p.contents, _text(line.value)))
        return out

    def lines(self):
        return [v.line for v in self.violations]


@dataclass(frozen=True)
class Record:
    """One pcap record (lfc_pcap_record_t): time in ns, kind ETH/IB_DATA/IB_LINK, direction
    AB/BA or -1 when the file does not say, the frame's bytes."""

    index: int
    offset: int
    time_ns: int
    kind: int
    iface: int
    dir: int
    data: bytes


class Reader(_Handle):
    """A classic pcap file of link type 1, 197 or 247, record by record (lfc/pcap.h):

        with Reader("link0.pcap") as r:
            for rec in r: chk.frame(0, rec.dir, rec.time_ns, rec.kind, rec.data)

    LfcError with the library's one line for a file or record it refuses."""

    _destroy = "lfc_pcap_reader_close"

    def __init__(self, path):
        self._lib = library()
        self.path = str(path)
        err = ctypes.create_string_buffer(_ERR_LEN)
        self._h = self._lib.lfc_pcap_reader_open(os.fsencode(self.path), err, _ERR_LEN)
        if not self._h:
            raise LfcError(_text(err.value))
        self.linktype = self._lib.lfc_pcap_reader_linktype(self._h)

    def __iter__(self):
        rec = _PcapRecord()
        err = ctypes.create_string_buffer(_ERR_LEN)
        while True:
            rc = self._lib.lfc_pcap_reader_next(self._h, ctypes.byref(rec), err, _ERR_LEN)
            if rc == 0:
                return
            if rc < 0:
                raise LfcError(_text(err.value))
            yield Record(rec.index, rec.offset, rec.ts_ns, rec.kind, rec.iface, rec.dir,
                         ctypes.string_at(rec.data, rec.len))


# The cycle model, the RTL's flat view of it, and lfc-sim. They import this module's library()
# and LfcError, so they come after them.
from . import model  # noqa: E402
from .model import (Switch, Nic, Word, Event, Mode, Scope, ClassStats, PortStats,  # noqa: E402
                    NicStats, Held, RegInfo, cfg_keys, reg_info)
from .flat import FlatSwitch  # noqa: E402
from . import sim  # noqa: E402
from .sim import sweep, SimError  # noqa: E402


def __getattr__(name):
    """lfc.Kind, lfc.DropCause, lfc.EventKind, lfc.Reg, lfc.Field, lfc.Stat: built from the
    library's names when first used (lfc.model.enums)."""
    if name in model._ENUM_NAMES:
        return model.enums()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
