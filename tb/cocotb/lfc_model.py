"""lfc_model - the C golden model (liblfc.so) through ctypes, as a cocotb scoreboard uses it.

A thin binding of cmodel/include/lfc/flat.h: one handle, plain integers, C strings. The field,
stat and register tables are read from the library (lfc_flat_field_name, ...), not copied, so
they cannot drift from the C side.

    model = LfcModel.from_ini("tb/configs/pfc_basic.ini")
    model.set_in(port, "kind", 1)
    model.step()
    model.out(port, "tag"), model.stat("stat_drop_o", port), model.events()
"""

import configparser
import ctypes
import os

# The sections of a tb/configs .ini that configure the switch (lfc_switch_cfg_set, SPEC §3); the
# other sections ([traffic], [nic], [run], ...) are the C co-simulation's own.
SWITCH_SECTIONS = ("switch", "ib", "pfc")


class LfcError(Exception):
    """A call into the model failed; the message is lfc_flat_error's."""


def _load(path):
    lib = ctypes.CDLL(path)
    h = ctypes.c_void_p
    sigs = {
        "lfc_flat_create": (h, [ctypes.c_char_p]),
        "lfc_flat_destroy": (None, [h]),
        "lfc_flat_ok": (ctypes.c_int, [h]),
        "lfc_flat_error": (ctypes.c_char_p, [h]),
        "lfc_flat_reset": (ctypes.c_int, [h]),
        "lfc_flat_param": (ctypes.c_int64, [h, ctypes.c_char_p, ctypes.c_int]),
        "lfc_flat_set_in": (ctypes.c_int, [h, ctypes.c_int, ctypes.c_int, ctypes.c_uint32]),
        "lfc_flat_clear_in": (ctypes.c_int, [h]),
        "lfc_flat_in": (ctypes.c_int64, [h, ctypes.c_int, ctypes.c_int]),
        "lfc_flat_step": (ctypes.c_int64, [h]),
        "lfc_flat_cycle": (ctypes.c_int64, [h]),
        "lfc_flat_out": (ctypes.c_int64, [h, ctypes.c_int, ctypes.c_int]),
        "lfc_flat_stat": (ctypes.c_int64, [h, ctypes.c_int, ctypes.c_int]),
        "lfc_flat_event_count": (ctypes.c_int64, [h]),
        "lfc_flat_event": (ctypes.c_int64, [h, ctypes.c_int, ctypes.c_int]),
        "lfc_flat_reg": (ctypes.c_int64, [h, ctypes.c_int, ctypes.c_int, ctypes.c_int]),
        "lfc_flat_format_in": (ctypes.c_char_p, [h, ctypes.c_int]),
        "lfc_flat_format_out": (ctypes.c_char_p, [h, ctypes.c_int]),
        "lfc_flat_format_events": (ctypes.c_char_p, [h]),
        "lfc_flat_field_count": (ctypes.c_int, []),
        "lfc_flat_field_name": (ctypes.c_char_p, [ctypes.c_int]),
        "lfc_flat_field_width": (ctypes.c_int, [ctypes.c_int]),
        "lfc_flat_stat_count": (ctypes.c_int, []),
        "lfc_flat_stat_name": (ctypes.c_char_p, [ctypes.c_int]),
        "lfc_flat_stat_width": (ctypes.c_int, [ctypes.c_int]),
        "lfc_flat_reg_count": (ctypes.c_int, []),
        "lfc_flat_reg_name": (ctypes.c_char_p, [ctypes.c_int]),
        "lfc_flat_reg_width": (ctypes.c_int, [ctypes.c_int]),
        "lfc_flat_reg_scope": (ctypes.c_int, [ctypes.c_int]),
        "lfc_flat_reg_mode": (ctypes.c_int, [ctypes.c_int]),
        "lfc_flat_cause_name": (ctypes.c_char_p, [ctypes.c_int]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    return lib


_LIB = None


def lib():
    """liblfc.so, from $LFC_LIB (set by tb/cocotb/cocotb.mk) or build/liblfc.so."""
    global _LIB
    if _LIB is None:
        _LIB = _load(os.environ.get("LFC_LIB", "build/liblfc.so"))
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


class LfcModel:
    """One switch model. Fields, stats and registers are addressed by name or index."""

    def __init__(self, config_text):
        self.lib = lib()
        L = self.lib
        self.h = L.lfc_flat_create(config_text.encode())
        if not self.h:
            raise LfcError("lfc_flat_create: out of memory")
        if not L.lfc_flat_ok(self.h):
            msg = L.lfc_flat_error(self.h).decode()
            L.lfc_flat_destroy(self.h)
            self.h = None
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

    def close(self):
        if self.h:
            self.lib.lfc_flat_destroy(self.h)
            self.h = None

    def _check(self, v):
        if v < 0:
            raise LfcError(self.lib.lfc_flat_error(self.h).decode())
        return v

    def param(self, name, index=0):
        return self._check(self.lib.lfc_flat_param(self.h, name.encode(), index))

    def set_in(self, port, field, value):
        f = self.field_index[field] if isinstance(field, str) else field
        self._check(self.lib.lfc_flat_set_in(self.h, port, f, value))

    def step(self):
        """One cycle with the inputs as set; returns the number of model events."""
        return self._check(self.lib.lfc_flat_step(self.h))

    def cycle(self):
        return self._check(self.lib.lfc_flat_cycle(self.h))

    def out(self, port, field):
        f = self.field_index[field] if isinstance(field, str) else field
        return self._check(self.lib.lfc_flat_out(self.h, port, f))

    def stat(self, stat, port):
        s = self.stat_index[stat] if isinstance(stat, str) else stat
        return self._check(self.lib.lfc_flat_stat(self.h, s, port))

    def reg(self, reg, port, cls):
        """Register reg (index, SPEC §13.1) of (port, cls) in the current state S(t)."""
        return self._check(self.lib.lfc_flat_reg(self.h, reg, port, cls))

    def reg_info(self, reg):
        L = self.lib
        return (self.regs[reg], L.lfc_flat_reg_width(reg), L.lfc_flat_reg_scope(reg),
                L.lfc_flat_reg_mode(reg))

    def events(self):
        """The events of the last step as (kind, port, cls, cause, tag) tuples."""
        n = self._check(self.lib.lfc_flat_event_count(self.h))
        return [tuple(self._check(self.lib.lfc_flat_event(self.h, i, k)) for k in range(5))
                for i in range(n)]

    def format_in(self, port):
        return self.lib.lfc_flat_format_in(self.h, port).decode()

    def format_out(self, port):
        return self.lib.lfc_flat_format_out(self.h, port).decode()

    def format_events(self):
        return self.lib.lfc_flat_format_events(self.h).decode()

    def cause_name(self, cause):
        return self.lib.lfc_flat_cause_name(cause).decode()
