/*
 * lfc/switch.h - the N-port switch of docs/SPEC.md, bit- and cycle-accurate.
 *
 * Life cycle: fill an lfc_switch_cfg_t (start from lfc_switch_cfg_default), check it with
 * lfc_switch_cfg_check, create the switch, then either
 *   - step it one cycle at a time with the input word of every port (co-simulation, tests), or
 *   - jump over cycles in which nothing but streaming and counting happens with
 *     lfc_switch_next_event / lfc_switch_advance (the fabric simulator).
 * Both give bit-identical state. The switch owns all its memory; nothing is allocated after
 * lfc_switch_create. There is no global state: switches are independent and reentrant.
 */
#ifndef LFC_SWITCH_H
#define LFC_SWITCH_H

#include "lfc/export.h"

#include "lfc/types.h"

/* lfc_parse_int, declared here before it had a header of its own. */
#include "lfc/parse.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { LFC_WD_DROP = 0, LFC_WD_FORWARD = 1 } lfc_wd_action_t;

/* One VL arbitration table entry (SPEC §5.6): weight in 64-byte units, 0 = skip. */
typedef struct {
  uint8_t vl;
  uint8_t weight;
} lfc_vlarb_entry_t;

/*
 * Switch configuration (SPEC §3). Names, units and ranges are those of the SPEC tables.
 * Fields of the other mode are ignored.
 */
typedef struct {
  /* Common (SPEC §3.1). */
  lfc_mode_t mode;
  uint32_t ports;
  uint32_t classes;
  uint8_t speed_div[LFC_MAX_PORTS];
  uint32_t latency;     /* cycles, 1..4095 */
  bool cut_through;
  uint32_t mtu_blocks;  /* 1..255 */
  bool wire_time;       /* frames take their line time in bytes (SPEC §2.4); false: one slot a word */
  uint32_t seed;        /* LFSR seed (SPEC §9.3) */
  /* route[dst] = egress port (< LFC_MAX_PORTS, so a byte), route_len entries; NULL: dst is the
     port. Not copied: the caller keeps it alive for the switch's lifetime. */
  const uint8_t *route;
  uint32_t route_len;

  /* IB mode (SPEC §3.2, §5). */
  uint32_t vl_blocks[LFC_IB_MAX_VLS];
  uint32_t vl15_blocks;
  uint32_t fcp_period;
  uint32_t fcp_holdoff; /* cycles after an FCP before a change makes the next one pending (§5.5) */
  lfc_vlarb_entry_t vlarb_high[LFC_VLARB_MAX_ENTRIES];
  uint32_t vlarb_high_len;
  lfc_vlarb_entry_t vlarb_low[LFC_VLARB_MAX_ENTRIES];
  uint32_t vlarb_low_len;
  uint32_t vlarb_high_limit;

  /* PFC mode (SPEC §3.2, §6, §8, §9). */
  uint8_t lossless_mask;
  uint32_t reserve_blocks;
  uint32_t shared_blocks;
  uint32_t headroom_blocks;
  bool dynamic_th;
  uint32_t xoff_th;
  int32_t alpha_log2;
  uint32_t xon_offset;
  uint32_t pause_quanta;
  uint32_t refresh_cycles;
  uint8_t strict_mask;
  uint32_t drr_quantum[LFC_PFC_MAX_PRIOS];
  bool wd_enable;
  uint32_t wd_detect;
  uint32_t wd_restore;
  lfc_wd_action_t wd_action;
  uint8_t ecn_mask;
  uint32_t kmin;
  uint32_t kmax;
  uint32_t pmax; /* units of 2^-16 */
} lfc_switch_cfg_t;

/* Fill cfg with the SPEC §3 defaults for the given mode, port count and class count. */
LFC_API void lfc_switch_cfg_default(lfc_switch_cfg_t *cfg, lfc_mode_t mode, uint32_t ports,
                                    uint32_t classes);

/*
 * Check cfg against SPEC §3. Returns 0 if legal. Otherwise returns -1 and writes one line to err
 * (if err is not NULL) naming the parameter, its value and what is allowed, e.g.
 * "vl_blocks[2] = 10 is below mtu_blocks = 65: a full-size packet could never get credit".
 */
LFC_API int lfc_switch_cfg_check(const lfc_switch_cfg_t *cfg, char *err, size_t errlen);

/*
 * Set one parameter of SPEC §3 from text, by its SPEC name: section "switch" (mode, ports,
 * classes, speed_div, latency, cut_through, mtu_blocks, seed), "ib" (vl_blocks, vl15_blocks,
 * fcp_period, fcp_holdoff, vlarb_high, vlarb_low, vlarb_high_limit) or "pfc" (lossless_mask ...
 * pmax).
 * Integers are read by lfc_parse_int (decimal, 0x hex, 0b binary); booleans 0/1, true/false,
 * yes/no, on/off.
 * Per-port and per-class lists (speed_div, vl_blocks, drr_quantum) take one value for all or a
 * comma-separated value per port/class, so set ports and classes first; vlarb tables take
 * "vl:weight, vl:weight, ..." or "none".
 *
 * Since lfc_switch_cfg_default fills every other field from mode, ports and classes, the usual
 * order is: read those three, call lfc_switch_cfg_default, then set the rest, then
 * lfc_switch_cfg_check (which judges combinations; this function checks one value's range).
 *
 * Returns 0 when set; 1 when section/key is not a switch parameter (err lists the keys of the
 * section, so a caller with keys of its own can try them first); -1 when the value is bad (err
 * says what is allowed, without file or line: the caller adds those). cfg is unchanged unless 0
 * is returned.
 */
LFC_API int lfc_switch_cfg_set(lfc_switch_cfg_t *cfg, const char *section, const char *key,
                               const char *value, char *err, size_t errlen);

/*
 * The key names of a section ("switch", "ib", "pfc"; NULL = all), comma-separated into buf (may
 * be NULL). Returns how many there are; 0 for a section that has none.
 */
LFC_API size_t lfc_switch_cfg_keys(const char *section, char *buf, size_t len);

/* Total buffer in blocks implied by cfg (SPEC §3.4). cfg must be legal. */
LFC_API uint64_t lfc_switch_cfg_buffer_blocks(const lfc_switch_cfg_t *cfg);

typedef struct lfc_switch lfc_switch_t;

/*
 * Create a switch in its reset state (cycle 0). Returns NULL, with the message in err, if cfg
 * is illegal or memory is short. The configuration is copied (except the route table).
 */
LFC_API lfc_switch_t *lfc_switch_create(const lfc_switch_cfg_t *cfg, char *err, size_t errlen);

/* Free everything the switch owns. NULL is allowed. */
LFC_API void lfc_switch_destroy(lfc_switch_t *sw);

/* Return to the reset state, cycle 0 and all counters 0. */
LFC_API void lfc_switch_reset(lfc_switch_t *sw);

/* The configuration the switch was built with. */
LFC_API const lfc_switch_cfg_t *lfc_switch_cfg(const lfc_switch_t *sw);

/* The current cycle: the number of cycles stepped or advanced since reset. */
LFC_API uint64_t lfc_switch_cycle(const lfc_switch_t *sw);

/*
 * Simulate one cycle (SPEC §4.1): out[p] receives the word port p transmits in this cycle
 * (a function of the state only); in[p] is the word port p receives. Both arrays have
 * cfg.ports entries; in may be NULL for all-idle inputs.
 */
LFC_API void lfc_switch_step(lfc_switch_t *sw, const lfc_word_t *in, lfc_word_t *out);

/*
 * lfc_switch_step for a caller that gives only the words the switch cannot predict, at a cost
 * that grows with the ports that receive or send something rather than with all ports: bit p
 * of in_ports set means in[p] is port p's word. Every other port receives what the switch
 * predicts, as lfc_switch_advance does over the cycles it skips: the next block of the packet
 * it is receiving (lfc_switch_receiving) if that block is due in this cycle (one slot after the
 * last: a packet's blocks come in consecutive slots, SPEC §2.1), else IDLE; its in[p] is not
 * read. Returns the ports whose out[p] it wrote (possibly IDLE): those at a decision point
 * (a slot with no packet in flight, SPEC §5.2). Every other port's out[p] is left as it was:
 * a port within a packet sends the packet's next block in its slot and IDLE between slots
 * (SPEC §2.1), as its receiver can predict; any other port sends IDLE. The same cycle as
 * lfc_switch_step, which is this with every port in in_ports and the other ports' words
 * written. Both arrays have cfg.ports entries.
 */
LFC_API uint64_t lfc_switch_step_ports(lfc_switch_t *sw, const lfc_word_t *in,
                                       uint64_t in_ports, lfc_word_t *out);

/* The ports receiving a packet: its first block taken, blocks of it still to come (§7.2). */
LFC_API uint64_t lfc_switch_receiving(const lfc_switch_t *sw);

/*
 * Skip-ahead. lfc_switch_next_event returns a cycle >= the current one, and not after the
 * earliest at which the switch, with no new input, would do anything but (a) put out the next
 * block of a packet already started, (b) count down timers that do not expire, (c) take in the
 * next block of a packet whose first block it already received, or, in PFC mode while no queue
 * is in the watchdog's storm state, (d) move a packet from its pipeline into its egress queue
 * (SPEC §7.3), or (e) in PFC mode apply in the current cycle the XOFF/XON that step G decided
 * at the end of the step before (SPEC §6.5; the PFC frame it makes pending is an event of the
 * first cycle its port can send it, §6.6); UINT64_MAX if there is none. It may name a cycle in
 * which none of that happens either (a packet (d) moved whose port then cannot start it yet):
 * stepping is exact in any cycle.
 *
 * lfc_switch_advance(sw, to) moves the switch to cycle `to` (current <= to <= next_event) as if
 * stepped with these inputs: on a port with a packet being received, its remaining blocks one per
 * speed_div cycles after the previous one (how a legal peer sends, SPEC §2.1); otherwise IDLE.
 * The caller must not have other input for the switch in [current, to). The outputs of the
 * skipped cycles are the continuation blocks of the packets in flight and IDLE, which the caller
 * can rebuild from the first block. The state afterwards is bit-identical to stepping, and its
 * events (lfc_switch_events) are those of the skipped cycles: the XOFF/XON of (e), all in the
 * first of them, or none.
 */
LFC_API uint64_t lfc_switch_next_event(const lfc_switch_t *sw);
LFC_API void lfc_switch_advance(lfc_switch_t *sw, uint64_t to);

/* ---- Registers by name (SPEC §5.1, §6.1, §6.8, §7, §8, §9), for mismatch reports. ---- */

typedef enum {
  LFC_SCOPE_SWITCH = 0, /* one value */
  LFC_SCOPE_PORT,       /* one per port */
  LFC_SCOPE_PORT_CLASS  /* one per (port, class); class 15 = VL15 where it exists */
} lfc_reg_scope_t;

typedef struct {
  const char *name; /* as in the SPEC and the RTL, e.g. "fctbs", "pg_shared", "pause_timer" */
  uint8_t width;    /* bits */
  uint8_t scope;    /* lfc_reg_scope_t */
  uint8_t mode;     /* LFC_MODE_IB, LFC_MODE_PFC, or 2 for both */
} lfc_reg_info_t;

/* Number of registers, and lfc_reg_info: the description of register reg (index 0..count-1;
 * NULL out of range). */
LFC_API size_t lfc_reg_count(void);
LFC_API const lfc_reg_info_t *lfc_reg_info(size_t reg);
/* Index of the register with this name, or -1. */
LFC_API int lfc_reg_find(const char *name);
/*
 * Value of register `reg` of (port, cls) in the current state, as the RTL holds it (timers as
 * remaining cycles, signed values as two's complement in `width` bits). port/cls are ignored
 * where the scope has none.
 */
LFC_API uint64_t lfc_switch_reg(const lfc_switch_t *sw, size_t reg, uint32_t port, uint32_t cls);

/* ---- Packets held (SPEC §7.2-§7.4), for conservation checks. ---- */

/*
 * Where the switch's packets are. A packet is held from its admission (its first block received
 * and not dropped, SPEC §7.2) until its first block leaves (the dequeue of §4.1 step B) or the
 * watchdog discards it (§6.8): the descriptor of §7.4 exists exactly that long. A packet whose
 * later blocks are still being sent is no longer held.
 */
typedef struct {
  uint64_t receiving; /* store-and-forward: admitted, its last block not yet received (§7.3) */
  uint64_t pipeline;  /* waiting for their ready cycle (§7.3) */
  uint64_t queued;    /* in the egress queues, VL15's included (§7.4) */
} lfc_held_t;

/*
 * The packets the switch holds in the current state. Counted by walking the descriptor lists
 * themselves, not from the qpkts registers, so that a caller can check them against its own
 * count or against the registers. Fills *held (may be NULL) and returns the total. The switch is
 * unchanged; the time taken grows with the number of packets held.
 */
LFC_API uint64_t lfc_switch_held(const lfc_switch_t *sw, lfc_held_t *held);

/* ---- Counters (SPEC §10). ---- */

typedef struct {
  uint64_t tx_pkts, tx_blocks; /* by egress port */
  uint64_t rx_pkts, rx_blocks; /* admitted, by ingress port */
  uint64_t drop_pkts[LFC_DROP_CAUSES], drop_blocks[LFC_DROP_CAUSES]; /* by ingress port, except
                                                       WATCHDOG discards: by egress port */
  uint64_t ecn_mark;       /* egress */
  uint64_t xoff_tx, xon_tx; /* PFC frames' priorities we sent with time > 0 / = 0 (ingress PG) */
  uint64_t pause_rx, resume_rx; /* priorities received with time > 0 / = 0 (egress queue) */
  uint64_t paused_cycles;  /* cycles the egress queue was paused (pause_timer > 0) */
  uint64_t credit_blocked_cycles; /* IB: cycles a non-empty VL's head failed the send rule */
  uint64_t wd_trip, wd_restore;
  uint64_t peak_qlen;      /* egress queue, blocks */
  uint64_t peak_pg;        /* ingress PG (pg_min + pg_shared + pg_hdrm) or IB occ, blocks */
} lfc_class_stats_t;

typedef struct {
  lfc_class_stats_t cls[LFC_MAX_CLASSES];
  uint64_t rx_malformed, rx_bad_fcp, rx_bad_ctrl;
  uint64_t fcp_tx, fcp_rx, pfc_tx, pfc_rx;
} lfc_port_stats_t;

/*
 * Counters of one port since reset, as of the current cycle; NULL for a port >= cfg.ports (or
 * if the first call cannot allocate the buffers, out of memory).
 * The result is a snapshot in a buffer the switch owns (one per port, allocated by the first
 * call): the time-based counters (paused_cycles, credit_blocked_cycles) are computed at the
 * call, not kept per cycle, so that skip-ahead stays exact. The next call for the same port, a
 * step, an advance or a reset overwrites it: copy it to keep it.
 */
LFC_API const lfc_port_stats_t *lfc_switch_stats(const lfc_switch_t *sw, uint32_t port);

/*
 * The same counters written to *out, a buffer of the caller's: 0, or -1 (out untouched) for a
 * port >= cfg.ports. A caller that reads every port of many switches (a fabric simulator) saves
 * the switch's buffers: 3.5 KB a port.
 */
LFC_API int lfc_switch_stats_copy(const lfc_switch_t *sw, uint32_t port, lfc_port_stats_t *out);

/* ---- Events of the last cycle (for golden traces and co-simulation). ---- */

typedef enum {
  LFC_EV_DROP = 0,   /* cause in `cause`, the packet's tag in `tag` */
  LFC_EV_ECN_MARK,
  LFC_EV_XOFF,       /* a PG turned xoff (SPEC §6.5) */
  LFC_EV_XON,
  LFC_EV_WD_TRIP,
  LFC_EV_WD_RESTORE,
  LFC_EV_RX_MALFORMED,
  LFC_EV_KINDS
} lfc_event_kind_t;

typedef struct {
  uint8_t kind;  /* lfc_event_kind_t */
  uint8_t port;
  uint8_t cls;
  uint8_t cause; /* lfc_drop_cause_t for LFC_EV_DROP, else 0 */
  uint32_t tag;  /* the packet's tag for LFC_EV_DROP and LFC_EV_ECN_MARK, else 0 */
} lfc_event_t;

/*
 * The events of the most recent lfc_switch_step or lfc_switch_advance, in a fixed order (by
 * kind, then port, then class). Valid until the next step/advance/reset. Returns the count; *ev
 * points at them. An advance's events can only be XOFF and XON, of the first cycle it passed
 * (lfc_switch_next_event (e)); an advance to the current cycle leaves the last ones.
 */
LFC_API size_t lfc_switch_events(const lfc_switch_t *sw, const lfc_event_t **ev);

#ifdef __cplusplus
}
#endif

#endif /* LFC_SWITCH_H */
