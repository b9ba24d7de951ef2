"""lfc.flat - the switch model as the RTL's ports see it (lfc/flat.h), for cocotb scoreboards.

A thin binding of cmodel/include/lfc/flat.h: one handle, plain integers, C strings; the words are
per-field inputs and outputs (rx_*_i / tx_*_o) and the stats are the RTL's stat_*_o outputs of
the cycle (SPEC §13), as tb/cocotb/test_lfc_switch.py compares them with the RTL. The field,
stat and register tables are read from the library (lfc_flat_field_name, ...), not copied, so
they cannot drift from the C side. For the model itself (words, events, counters, skip-ahead),
use lfc.Switch.

    model = FlatSwitch.from_ini("tb/configs/pfc_basic.ini")
    model.set_in(port, "kind", 1)
    model.step()
    model.out(port, "tag"), model.stat("stat_drop_o", port), model.events()
"""

import configparser
import ctypes

from . import LfcError, _Handle, bind

# The sections of a tb/configs .ini that configure the switch (lfc_switch_cfg_set, SPEC §3); the
# other sections ([traffic], [nic], [run], ...) are the C co-simulation's own.
SWITCH_SECTIONS = ("switch", "ib", "pfc")


def name_signatures():
    """The flat API's name tables (fields, stats, registers, event kinds, drop causes), which
    lfc.model reads too to build its enumerations."""
    i, s = ctypes.c_int, ctypes.c_char_p
    return {
        "lfc_flat_field_count": (i, []),
        "lfc_flat_field_name": (s, [i]),
        "lfc_flat_field_width": (i, [i]),
        "lfc_flat_stat_count": (i, []),
        "lfc_flat_stat_name": (s, [i]),
        "lfc_flat_stat_width": (i, [i]),
        "lfc_flat_reg_count": (i, []),
        "lfc_flat_reg_name": (s, [i]),
        "lfc_flat_reg_width": (i, [i]),
        "lfc_flat_reg_scope": (i, [i]),
        "lfc_flat_reg_mode": (i, [i]),
        "lfc_flat_event_kind_name": (s, [i]),
        "lfc_flat_cause_name": (s, [i]),
    }


def _signatures():
    h, i, i64, s = ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_char_p
    return {
        **name_signatures(),
        "lfc_flat_create": (h, [s]),
        "lfc_flat_destroy": (None, [h]),
        "lfc_flat_ok": (i, [h]),
        "lfc_flat_error": (s, [h]),
        "lfc_flat_reset": (i, [h]),
        "lfc_flat_param": (i64, [h, s, i]),
        "lfc_flat_set_in": (i, [h, i, i, ctypes.c_uint32]),
        "lfc_flat_clear_in": (i, [h]),
        "lfc_flat_in": (i64, [h, i, i]),
        "lfc_flat_step": (i64, [h]),
        "lfc_flat_cycle": (i64, [h]),
        "lfc_flat_out": (i64, [h, i, i]),
        "lfc_flat_stat": (i64, [h, i, i]),
        "lfc_flat_event_count": (i64, [h]),
        "lfc_flat_event": (i64, [h, i, i]),
        "lfc_flat_reg": (i64, [h, i, i, i]),
        "lfc_flat_format_in": (s, [h, i]),
        "lfc_flat_format_out": (s, [h, i]),
        "lfc_flat_format_events": (s, [h]),
    }


_LIB = None


def lib():
    """liblfc (lfc.library(): $LFC_LIB, next to the package, or the system) with the flat API's
    signatures set, once."""
    global _LIB
    if _LIB is None:
        _LIB = bind(_signatures())
    return _LIB


def ini_to_config(path):
    """The [switch], [ib] and [pfc] sections of a tb/configs .ini as flat.h configuration text."""
    ini = configparser.ConfigParser(inline_comment_prefixes=(";", "#"))
    with open(path, encoding="utf-8") as f:
        ini.read_file(f)
    items = []
    for sec in SWITCH_SECTIONS:
        if ini.has_section(sec):
            items += [f"{sec}.{k}={v}" for k, v in ini.items(sec)]
    return "\n".join(items), ini


class FlatSwitch(_Handle):
    """One switch model. Fields, stats and registers are addressed by name or index."""

    _destroy = "lfc_flat_destroy"

    def __init__(self, config_text):
        self._lib = L = lib()
        self._h = L.lfc_flat_create(config_text.encode())
        if not self._h:
            raise LfcError("lfc_flat_create: out of memory")
        if not L.lfc_flat_ok(self._h):
            msg = L.lfc_flat_error(self._h).decode()
            self.close()
            raise LfcError(msg)
        self.fields = [L.lfc_flat_field_name(i).decode() for i in range(L.lfc_flat_field_count())]
        self.field_width = [L.lfc_flat_field_width(i) for i in range(len(self.fields))]
        self.field_index = {n: i for i, n in enumerate(self.fields)}
        self.stats = [L.lfc_flat_stat_name(i).decode() for i in range(L.lfc_flat_stat_count())]
        self.stat_width = [L.lfc_flat_stat_width(i) for i in range(len(self.stats))]
        self.stat_index = {n: i for i, n in enumerate(self.stats)}
        self.regs = [L.lfc_flat_reg_name(i).decode() for i in range(L.lfc_flat_reg_count())]
        self.ports = self.param("ports")
        self.classes = self.param("classes")
        self.mode = self.param("mode")  # 0 IB, 1 PFC

    @classmethod
    def from_ini(cls, path):
        text, _ = ini_to_config(path)
        return cls(text)

    def _check(self, v):
        if v < 0:
            raise LfcError(self._lib.lfc_flat_error(self._h).decode())
        return v

    def param(self, name, index=0):
        return self._check(self._lib.lfc_flat_param(self._h, name.encode(), index))

    def set_in(self, port, field, value):
        f = self.field_index[field] if isinstance(field, str) else field
        self._check(self._lib.lfc_flat_set_in(self._h, port, f, value))

    def step(self):
        """One cycle with the inputs as set; returns the number of model events."""
        return self._check(self._lib.lfc_flat_step(self._h))

    def cycle(self):
        return self._check(self._lib.lfc_flat_cycle(self._h))

    def out(self, port, field):
        f = self.field_index[field] if isinstance(field, str) else field
        return self._check(self._lib.lfc_flat_out(self._h, port, f))

    def stat(self, stat, port):
        s = self.stat_index[stat] if isinstance(stat, str) else stat
        return self._check(self._lib.lfc_flat_stat(self._h, s, port))

    def reg(self, reg, port, cls):
        """Register reg (index, SPEC §13.1) of (port, cls) in the current state S(t)."""
        return self._check(self._lib.lfc_flat_reg(self._h, reg, port, cls))

    def reg_info(self, reg):
        L = self._lib
        return (self.regs[reg], L.lfc_flat_reg_width(reg), L.lfc_flat_reg_scope(reg),
                L.lfc_flat_reg_mode(reg))

    def events(self):
        """The events of the last step as (kind, port, cls, cause, tag) tuples."""
        n = self._check(self._lib.lfc_flat_event_count(self._h))
        return [tuple(self._check(self._lib.lfc_flat_event(self._h, i, k)) for k in range(5))
                for i in range(n)]

    def format_in(self, port):
        return self._lib.lfc_flat_format_in(self._h, port).decode()

    def format_out(self, port):
        return self._lib.lfc_flat_format_out(self._h, port).decode()

    def format_events(self):
        return self._lib.lfc_flat_format_events(self._h).decode()

    def cause_name(self, cause):
        return self._lib.lfc_flat_cause_name(cause).decode()
