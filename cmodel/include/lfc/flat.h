/*
 * lfc/flat.h - the switch model behind one handle and plain integers, for foreign-function
 * interfaces: Python ctypes (tb/cocotb), SystemVerilog DPI-C (tb/dpi), or any language that can
 * call C.
 *
 * No structure crosses this boundary: a model is an opaque pointer (a ctypes c_void_p, a DPI
 * chandle), a link-word field is an (port, field) pair of integers, text goes in as a C string
 * and comes out as a C string the handle owns. Every function that reads a value returns it as
 * an int64_t, which is -1 when the call was wrong (bad handle, port, field, name); the reason is
 * then in lfc_flat_error. All values the switch has fit in 32 bits, so -1 is never a value.
 *
 * A cycle, in the order the RTL's testbench sees it (SPEC §1.3, §13):
 *   1. lfc_flat_set_in for the fields that changed (inputs hold their values, like wires);
 *   2. optionally lfc_flat_reg: registers of S(t), the state before this cycle (what the RTL's
 *      debug port dbg_val_o shows in cycle t);
 *   3. lfc_flat_step: the model does cycle t;
 *   4. lfc_flat_out (the word each port transmits, O(t), tx_*_o), lfc_flat_stat (the RTL's
 *      stat_*_o of cycle t), lfc_flat_event (the model's events of cycle t, see lfc/switch.h).
 *
 *   h = lfc_flat_create("switch.mode=pfc; switch.ports=4; pfc.ecn_mask=1");
 *   if (!lfc_flat_ok(h)) { puts(lfc_flat_error(h)); ... }
 *   lfc_flat_set_in(h, 0, LFC_FLAT_KIND, LFC_DATA); ...
 *   lfc_flat_step(h);
 *   kind = lfc_flat_out(h, 2, LFC_FLAT_KIND);
 *   lfc_flat_destroy(h);
 *
 * The handle owns everything it allocates; nothing is allocated per cycle. Handles are
 * independent; one handle must not be used by two threads at once. The names and numbers below
 * are also readable at run time (lfc_flat_field_name, lfc_flat_stat_name, lfc_flat_reg_name), so
 * a binding can build its tables from the library instead of copying them.
 */
#ifndef LFC_FLAT_H
#define LFC_FLAT_H

#include "lfc/export.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fields of the link word (SPEC §2), in the order of the RTL's rx_*_i / tx_*_o ports (SPEC §13),
   but for pad and mrg (SPEC 0.3, §2.4), which come last so that the fields of 0.2 keep their
   numbers. pfc_time has one field per priority: port p's time of priority i is bits
   [p*128 + i*16 +: 16] of rx_pfc_time_i / tx_pfc_time_o. */
enum {
  LFC_FLAT_KIND = 0, /* 2 bits: 0 IDLE, 1 DATA, 2 FCP, 3 PFC (lfc_kind_t) */
  LFC_FLAT_SOP,      /* 1 */
  LFC_FLAT_EOP,      /* 1 */
  LFC_FLAT_CLS,      /* 4 */
  LFC_FLAT_NBLK,     /* 8 */
  LFC_FLAT_DST,      /* 16 */
  LFC_FLAT_TAG,      /* 32 */
  LFC_FLAT_ECN,      /* 2 */
  LFC_FLAT_FC_OP,    /* 4 */
  LFC_FLAT_FC_VL,    /* 4 */
  LFC_FLAT_FC_FCTBS, /* 12 */
  LFC_FLAT_FC_FCCL,  /* 12 */
  LFC_FLAT_PFC_EN,   /* 8 */
  LFC_FLAT_PFC_TIME0, /* 16 each: LFC_FLAT_PFC_TIME0 + i is priority i, i = 0..7 */
  LFC_FLAT_PAD = LFC_FLAT_PFC_TIME0 + 8, /* 6: bytes of the last block not in the packet */
  LFC_FLAT_MRG,       /* 1: the packet's last word carries two blocks */
  LFC_FLAT_FIELDS
};

/* The stat_*_o outputs of the RTL (SPEC §13), per port; a 16-bit one has bit c for class c. */
enum {
  LFC_FLAT_STAT_DROP = 0,     /* stat_drop_o, 1 bit: an admission drop on this ingress port */
  LFC_FLAT_STAT_DROP_CAUSE,   /* stat_drop_cause_o, 3 bits: its lfc_drop_cause_t (0 if none) */
  LFC_FLAT_STAT_WD_DROP,      /* stat_wd_drop_o, 16: watchdog discard from egress queue (p, c) */
  LFC_FLAT_STAT_ECN_MARK,     /* stat_ecn_mark_o, 1 */
  LFC_FLAT_STAT_XOFF,         /* stat_xoff_o, 16 */
  LFC_FLAT_STAT_XON,          /* stat_xon_o, 16 */
  LFC_FLAT_STAT_WD_TRIP,      /* stat_wd_trip_o, 16 */
  LFC_FLAT_STAT_WD_RESTORE,   /* stat_wd_restore_o, 16 */
  LFC_FLAT_STAT_RX_MALFORMED, /* stat_rx_malformed_o, 1 */
  LFC_FLAT_STATS
};

/* What lfc_flat_event returns about an event (the members of lfc_event_t). */
enum {
  LFC_FLAT_EV_KIND = 0, /* lfc_event_kind_t: 0 drop, 1 ecn_mark, 2 xoff, 3 xon, 4 wd_trip,
                           5 wd_restore, 6 rx_malformed */
  LFC_FLAT_EV_PORT,
  LFC_FLAT_EV_CLS,
  LFC_FLAT_EV_CAUSE, /* lfc_drop_cause_t, for a drop */
  LFC_FLAT_EV_TAG,   /* the dropped packet's tag, for a drop */
  LFC_FLAT_EV_ITEMS
};

typedef struct lfc_flat lfc_flat_t;

/* ---- Names and widths (no handle needed) ---- */

/* LFC_FLAT_FIELDS. */
LFC_API int lfc_flat_field_count(void);
/* The SPEC §2 name of a field ("kind", "tag", "pfc_time3", ...), or "" for a bad index. The RTL
   ports are rx_<name>_i and tx_<name>_o, except that pfc_time<i> is a slice of *_pfc_time_*. */
LFC_API const char *lfc_flat_field_name(int field);
/* Width in bits, or -1 for a bad index. */
LFC_API int lfc_flat_field_width(int field);
/* Index of the field with this name, or -1. */
LFC_API int lfc_flat_field_find(const char *name);

/* LFC_FLAT_STATS, the RTL name of a stat output ("stat_drop_o", ...; "" for a bad index), and its
   width per port (-1 for a bad index). */
LFC_API int lfc_flat_stat_count(void);
LFC_API const char *lfc_flat_stat_name(int stat);
LFC_API int lfc_flat_stat_width(int stat);

/* The registers of SPEC §13.1 (lfc_reg_info in lfc/switch.h): how many, and for index reg (the
   RTL's dbg_reg_i number) its name ("" if bad), width in bits, scope (0 switch, 1 port,
   2 port and class) and mode (0 IB, 1 PFC, 2 both); -1 for a bad index. */
LFC_API int lfc_flat_reg_count(void);
LFC_API const char *lfc_flat_reg_name(int reg);
LFC_API int lfc_flat_reg_width(int reg);
LFC_API int lfc_flat_reg_scope(int reg);
LFC_API int lfc_flat_reg_mode(int reg);
/* Index of the register with this name, or -1. */
LFC_API int lfc_flat_reg_find(const char *name);

/* Name of a drop cause ("headroom", "shared", "watchdog", "credit", "vl15", "malformed"), of an
   event kind ("drop", "ecn_mark", ...), or "" for a bad number. */
LFC_API const char *lfc_flat_cause_name(int cause);
LFC_API const char *lfc_flat_event_kind_name(int kind);

/* ---- A model ---- */

/*
 * Create a switch from a configuration text: items "section.key=value", separated by newlines
 * or ';', with the section and key names of lfc_switch_cfg_set (lfc/switch.h; the same as the
 * [switch], [ib] and [pfc] sections of the tb/configs .ini files). Spaces around names and values are
 * ignored, so are empty items and items starting with '#'. switch.mode is required;
 * switch.ports and switch.classes default to 4 and 2 (SPEC §3.1); every other parameter to its
 * SPEC §3 default for that mode, ports and classes; a key may appear once.
 *
 *   "switch.mode=ib; switch.ports=4; switch.classes=2; ib.vlarb_low=0:4,1:4"
 *
 * Returns a handle, or NULL only when memory is short. When the text is wrong (an item without
 * '=' or '.', an unknown key, a bad value, an illegal combination of SPEC §3.3), the handle
 * holds no model: lfc_flat_ok returns 0, lfc_flat_error says which item, key and value and what
 * is allowed, and every other call fails. Destroy the handle either way.
 */
LFC_API lfc_flat_t *lfc_flat_create(const char *config);

/* Free the handle and its model. NULL is allowed. */
LFC_API void lfc_flat_destroy(lfc_flat_t *h);

/* 1 if h holds a model, 0 if creation failed or h is NULL. */
LFC_API int lfc_flat_ok(const lfc_flat_t *h);

/*
 * The message of the most recent call on h that failed, or "" if none has. Owned by h, valid
 * until the next call on h. For h == NULL: "no model (NULL handle; out of memory?)".
 */
LFC_API const char *lfc_flat_error(const lfc_flat_t *h);

/* Back to the reset state: cycle 0, all inputs IDLE (0), outputs and events of "no step yet".
   Returns 0, -1 without a model. */
LFC_API int lfc_flat_reset(lfc_flat_t *h);

/*
 * A configuration parameter of the model, by its lfc_switch_cfg_set key name without section
 * (every key lfc_switch_cfg_keys lists but the tables vlarb_high and vlarb_low: "mode" 0 IB / 1
 * PFC, booleans 0/1, "wd_action" its enum value, "alpha_log2" as two's complement in 32 bits).
 * The per-port "speed_div" and the per-class "vl_blocks" and "drr_quantum" take index; index is
 * ignored for the others. Returns the value, or -1 (lfc_flat_error says which) for an unknown
 * name, an index out of range or a table.
 */
LFC_API int64_t lfc_flat_param(const lfc_flat_t *h, const char *name, int index);

/* ---- One cycle ---- */

/*
 * Set a field of the word port `port` receives. Inputs keep their value until set again or
 * cleared. value must fit the field's width (lfc_flat_field_width): a wider value is an error,
 * not truncated, because the RTL's port could not carry it. Returns 0, or -1.
 */
LFC_API int lfc_flat_set_in(lfc_flat_t *h, int port, int field, uint32_t value);

/* All inputs of all ports IDLE (every field 0). Returns 0, or -1 without a model. */
LFC_API int lfc_flat_clear_in(lfc_flat_t *h);

/* The value a field of port's input has now, or -1. */
LFC_API int64_t lfc_flat_in(const lfc_flat_t *h, int port, int field);

/*
 * Simulate one cycle with the inputs as set (lfc_switch_step). Returns the number of model events
 * of the cycle (0 or more), or -1 without a model.
 */
LFC_API int64_t lfc_flat_step(lfc_flat_t *h);

/* Cycles stepped since reset: after stepping cycle t it is t + 1 (SPEC §1.2 counts from 0). */
LFC_API int64_t lfc_flat_cycle(const lfc_flat_t *h);

/* A field of the word port transmitted in the last step (tx_<field>_o; 0 before the first
   step), or -1. */
LFC_API int64_t lfc_flat_out(const lfc_flat_t *h, int port, int field);

/*
 * The value the RTL's stat output `stat` shows for port in the last step (0 before the first
 * step), derived from the model's events as SPEC §13 maps them: a drop event is stat_drop_o with
 * its cause on the ingress port, except a WATCHDOG drop of a packet already in an egress queue
 * (not the packet arriving on that port in this cycle), which is stat_wd_drop_o of (port, class).
 * Returns -1 for a bad stat or port.
 */
LFC_API int64_t lfc_flat_stat(const lfc_flat_t *h, int stat, int port);

/* The number of model events of the last step, and member `item` (LFC_FLAT_EV_*) of event i
   (order of lfc_switch_events: by kind, then port, then class). -1 for bad arguments. */
LFC_API int64_t lfc_flat_event_count(const lfc_flat_t *h);
LFC_API int64_t lfc_flat_event(const lfc_flat_t *h, int i, int item);

/*
 * Register reg (lfc_flat_reg_find; SPEC §13.1) of (port, cls) in the current state, as the RTL's
 * debug port reads it: masked to its width, and to 32 bits. Between steps this is S(t) of the
 * cycle t = lfc_flat_cycle(h) about to be stepped. port/cls are checked only where the register
 * has them (cls 15 is the VL15 queue of qlen/qpkts). -1 for bad arguments.
 */
LFC_API int64_t lfc_flat_reg(const lfc_flat_t *h, int reg, int port, int cls);
/* The same, by register name. */
LFC_API int64_t lfc_flat_reg_by_name(const lfc_flat_t *h, const char *name, int port, int cls);

/*
 * Text for reports, in lfc_word_format's form ("DATA sop cls=1 nblk=3 dst=2 tag=0x00000007
 * ecn=2", "FCP vl=0 fctbs=12 fccl=2060", "IDLE"): the input word of port, the word it transmitted
 * in the last step, and the events of the last step ("none", or "drop(port=1 cls=0 cause=shared
 * tag=0x00000005) xoff(port=1 cls=0)"). The text is owned by h and overwritten by the next of
 * these calls on h: copy it before calling again. NULL handle or bad port: "".
 */
LFC_API const char *lfc_flat_format_in(lfc_flat_t *h, int port);
LFC_API const char *lfc_flat_format_out(lfc_flat_t *h, int port);
LFC_API const char *lfc_flat_format_events(lfc_flat_t *h);

#ifdef __cplusplus
}
#endif

#endif /* LFC_FLAT_H */
