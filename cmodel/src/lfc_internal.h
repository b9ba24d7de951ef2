/*
 * lfc_internal.h - the state of the switch of docs/SPEC.md and the interfaces between its blocks
 * (internal to the library).
 *
 * Layout. Everything is allocated once in lfc_switch_create: one lfc_port_t per port (all of the
 * port's registers, per class in small fixed arrays), one descriptor pool shared by every
 * pipeline and egress queue, and per-port scratch for the decisions of one cycle. Bitmasks say
 * which classes of a port are non-empty / eligible / pending so that the per-cycle path does not
 * scan classes.
 *
 * Timers. The SPEC's down-counting timers (fcp_timer, refresh_timer, pause_timer) and the
 * watchdog counters are stored as absolute cycles (an expiry, or the start of a run) and turned
 * back into the SPEC's register value by regs.c. Nothing then needs touching in a cycle in which
 * a timer merely counts down, which is what makes lfc_switch_advance cheap and exact.
 *
 * Cycle structure (SPEC §4.1), as lfc_switch_step runs it:
 *   0. one pass over the ports for streaming (lfc_tx_stream, lfc_rx_stream below): the next
 *      block of a packet in flight out, the next block of a packet being received in; it lists
 *      the ports that need more in sw->tx_slow / sw->rx_slow;
 *   1. A  port_tx: the transmit decisions of the listed ports, from S(t) -> lfc_tx_dec_t, out[]
 *   2. E  rx_framing: framing and admission decisions from S(t)        -> lfc_rx_dec_t (port
 *         order: the shared-pool chain of SPEC §6.4)
 *   3. G  pfc_gen: XOFF/XON evaluation from S(t)                       -> per-port flip masks
 *         (taken at the end of the step before, which completes S(t): next_event reads it)
 *   then the next state, each step applying its decision: B (port_tx), C (watchdog),
 *   D (credit/pfc receive), E (rx_framing), F (queue), G (pfc_gen), H (watchdog).
 * Decisions are taken before anything is applied, so every decision reads S(t) (SPEC §1.3); the
 * applies only add or subtract, so "frees and admissions of one cycle do not see each other".
 */
#ifndef LFC_INTERNAL_H
#define LFC_INTERNAL_H

#include "lfc/switch.h"

#include "event_log.h"
#include "line_time.h"

#include <assert.h>
#include <string.h>

/* No descriptor / end of a list. */
#define LFC_NIL UINT32_MAX
/* A cycle that never comes (no event, timer never expires). */
#define LFC_NEVER UINT64_MAX

#define LFC_CLASS_MASK 0xFu     /* cls is a 4-bit field (SPEC §2) */
#define LFC_KIND_MASK 0x3u      /* kind is a 2-bit field */
#define LFC_ECN_MASK 0x3u       /* ecn is a 2-bit field */
#define LFC_PAD_MASK 0x3Fu      /* pad is a 6-bit field (SPEC §2) */
#define LFC_MRG_MASK 0x1u       /* mrg is a 1-bit field */
#define LFC_FC_OP_MASK 0xFu     /* fc_op, fc_vl are 4-bit fields */
#define LFC_U16_MAX 0xFFFFu
#define LFC_HI_SENT_MAX 0xFFFFu /* hi_sent saturates at 16 bits (SPEC §5.6) */
#define LFC_VLARB_LIMIT_UNLIMITED 255u /* vlarb_high_limit that lets high starve low (§5.6) */
#define LFC_VLARB_LIMIT_UNIT 64u       /* blocks per unit of vlarb_high_limit (4 KB, §5.6) */

/* Which vlarb table a start came from (SPEC §5.6) / which PFC scheduler (SPEC §8.2). */
enum { LFC_SRC_NONE = 0, LFC_SRC_VL15, LFC_SRC_HIGH, LFC_SRC_LOW, LFC_SRC_STRICT, LFC_SRC_DRR };

/* Transmit actions of step A (SPEC §5.2). */
enum { LFC_TX_IDLE = 0, LFC_TX_CONT, LFC_TX_FCP, LFC_TX_PFC, LFC_TX_START };

/* Receive actions of step E for a data block that is not a continuation (SPEC §7.2). */
enum {
  LFC_RX_STRAY = 1, /* data block with no packet open: discarded (rx_malformed) */
  LFC_RX_ADMIT,    /* first block, admitted */
  LFC_RX_DROP      /* first block, dropped (cause in the decision) */
};

/* A packet descriptor (SPEC §7.4), in the pipeline or an egress queue. */
typedef struct {
  uint32_t tag;
  uint32_t next;  /* next descriptor of the same list, LFC_NIL at the tail */
  uint32_t ready; /* low 32 bits of the ready cycle (SPEC §7.3); exact: ready - now < 2^32 */
  uint16_t dst;
  uint8_t nblk;
  uint8_t cls;
  uint8_t ecn;
  uint8_t pad;    /* SPEC §2.4: bytes of the last block not in the packet */
  uint8_t in_port;
  uint8_t out_port;
} lfc_desc_t;

typedef struct {
  uint32_t head, tail;
} lfc_list_t;

/* One egress queue (SPEC §7.4). */
typedef struct {
  lfc_list_t list;
  uint32_t qlen;  /* blocks, 20 bits */
  uint32_t qpkts;
} lfc_queue_t;

/* IB credit state of one (port, data VL) (SPEC §5.1). */
typedef struct {
  uint16_t fctbs, fccl;            /* transmitter, 12 bits */
  uint16_t abr, occ;               /* receiver: 12 and 16 bits */
  uint16_t sent_fctbs, sent_fccl;  /* fcp_sent_fctbs, fcp_sent_fccl */
  uint64_t fcp_due;                /* fcp_timer = max(0, fcp_due - now) */
  uint64_t blocked_since;          /* credit_blocked_cycles: start of the open interval */
} lfc_vl_t;

/* PFC state of one class of a port: its ingress PG and its egress queue's pause/watchdog. */
typedef struct {
  /* ingress PG (SPEC §6.1) */
  uint32_t pg_min, pg_shared, pg_hdrm;
  uint64_t refresh_due;   /* refresh_timer = max(0, refresh_due - now) (SPEC §6.6) */
  /* egress queue pause (SPEC §6.7): paused in cycle x >= pause_from iff x < pause_until */
  uint64_t pause_until;   /* pause_timer = max(0, pause_until - now) */
  uint64_t pause_from;    /* paused_cycles: cycles before this are already counted */
  /* watchdog (SPEC §6.8) */
  uint64_t wd_run;        /* normal state: first cycle of the current paused run */
  uint64_t wd_rbase;      /* storm state: wd_rcnt = min(now - wd_rbase, wd_restore) */
  int16_t deficit;        /* DRR (SPEC §8.2) */
} lfc_pcls_t;

/* Bytes of a cache line: lfc_port_t and lfc_pcls_t are laid out in lines of this size. */
#define LFC_CACHE_LINE 64u

/* Bytes of a link word's data fields (kind .. tag, SPEC §2.1): the model writes every later
 * field of a data word as zero (lfc/types.h), so these bytes and zeros are the whole word. */
#define LFC_DATA_FIELDS 16u
_Static_assert(offsetof(lfc_word_t, fc_op) == LFC_DATA_FIELDS, "a data word's fields come first");

/* The size of lfc_port_t, and the padding that makes it so. A power of two: the index of a port
 * is then a shift (without padding it is 944 bytes; at 960, lfc-sim ran 2 % more instructions:
 * docs/perf-log.md, 2026-12-04 evening). */
#define LFC_PORT_BYTES 1024u
#define LFC_PORT_PAD 80u

/*
 * Everything one port holds, grouped by how often it is read (a large fabric has far more port
 * state than a core's cache holds, so each port-cycle should touch as few lines as it can):
 *   line 0  what streaming (lfc_tx_stream, lfc_rx_stream), step A's "nothing to do" test,
 *           the PFC scheduler's masks, lfc_tx_next_event and lfc_rx_next_event read for every
 *           live port;
 *   line 1  the rest of the per-port scalars (pipeline, line time, IB bookkeeping);
 *   then    the per-class arrays, PFC's first (one line per class), the egress queues, and
 *           IB's credit state.
 * The struct is aligned to a line (lfc_switch_create allocates the ports so), and the order of
 * fields changes nothing else: every field is a register of its own.
 */
typedef struct {
  /* ---- line 0: hot ---- */
  _Alignas(LFC_CACHE_LINE) uint64_t rx_last; /* cycle of the last data block received (§7.2),
                                                read only while rx_rem > 0 */
  uint64_t refresh_min_due; /* PFC: min refresh_due over PGs with xoff = 1 (§6.6) */
  uint8_t tx_data[LFC_DATA_FIELDS]; /* the packet in flight as a continuation block: its data
                             fields (lfc_tx_stream; ecn as sent, §5.2) */
  uint8_t k;              /* speed_div (1..16): the port's slots are the cycles t, t mod k = 0 */
  uint8_t rx_rem;         /* §7.2 */
  uint8_t xoff;           /* PFC: bit c: PG (p, c) pauses its peer (§6.5) */
  uint8_t pend;           /* PFC: pfc_pend (§6.6) */
  uint8_t storm;          /* PFC: wd_storm (§6.8) */
  uint16_t nonempty;      /* bit c: q[c] has packets (§7.4) */
  uint32_t rx_desc;       /* store-and-forward: admitted packet still being received (§7.3);
                             read with rx_rem by lfc_rx_next_event */
  uint8_t rx_out;         /* while rx_desc != LFC_NIL, its packet's out_port: the port whose
                             busy time lfc_switch_next_event asks, without the descriptor */

  /* ---- line 1: pipeline (SPEC §7.3), line time, the rest of the per-port PFC and IB
     registers (wider fields first: the line is full) ---- */
  _Alignas(LFC_CACHE_LINE) lfc_list_t pipe; /* admitted packets waiting for their ready cycle */
  uint64_t wd_next;       /* earliest trip/restore cycle of this port's queues (§6.8) */
  uint64_t fcp_min_due;   /* IB: min over VLs of fcp_due (§5.5) */
  lfc_line_t line;        /* the transmitter's line time (§2.4, with wire_time): slack and the
                             end of its last frame, read at every decision point */
  uint32_t lfsr;          /* ECN marking LFSR (§9.3) */
  uint16_t occ15;         /* IB: VL15 occupancy (§5.4) */
  uint16_t credit_ok;     /* IB: data VLs that are non-empty and whose head passes the send rule */
  uint16_t credit_blocked; /* IB: data VLs that are non-empty and whose head fails it (§10) */
  uint16_t fcp_dirty;     /* IB: VLs whose FCP may be pending by a change (superset, §5.5) */
  uint16_t hi_sent;       /* IB: vlarb (§5.6) */
  uint8_t hi_idx, lo_idx, hi_rem, lo_rem;
  uint8_t drr_ptr;        /* PFC: DRR pointer (§8.2) */
  uint8_t shared_nz;      /* PFC: PGs with pg_shared > 0 */
  uint8_t hdrm_nz;        /* PFC: PGs with pg_hdrm > 0 */
  uint8_t check;          /* PFC: PGs whose XOFF/XON inputs changed since their last evaluation */
  uint8_t flip;           /* PFC scratch: PGs that change xoff in this cycle (step G) */
  uint8_t wd_tripped;     /* PFC: queues that restored at least once: wd_rcnt reads wd_restore */

  /* ---- per class: PFC's (SPEC §6, §8; a line each) or IB's (§5), egress queues (§7.4) ---- */
  union { /* a switch is in one mode (SPEC §3): the registers of the other do not exist, and
             no block of that mode runs (each is called under sw->ib or !sw->ib) */
    _Alignas(LFC_CACHE_LINE) lfc_pcls_t pc[LFC_PFC_MAX_PRIOS]; /* PFC mode only */
    lfc_vl_t vl[LFC_IB_MAX_VLS];                                /* IB mode only */
  };
  lfc_queue_t q[LFC_MAX_CLASSES]; /* index 15 = VL15 */

  /* ---- to LFC_PORT_BYTES: a power of two makes &sw->port[p] a shift ---- */
  uint8_t pad[LFC_PORT_PAD];
} lfc_port_t;

_Static_assert(offsetof(lfc_port_t, pipe) == LFC_CACHE_LINE, "line 0 of lfc_port_t is full");
_Static_assert(offsetof(lfc_port_t, pc) == 2u * LFC_CACHE_LINE, "lines 0, 1 of lfc_port_t");
_Static_assert(sizeof(lfc_pcls_t) == LFC_CACHE_LINE, "one line per PFC class");
_Static_assert(sizeof(lfc_port_t) == LFC_PORT_BYTES, "lfc_port_t: set LFC_PORT_PAD");
_Static_assert(offsetof(lfc_port_t, vl) == offsetof(lfc_port_t, pc), "PFC's or IB's, by mode");

/*
 * The counters of one port (SPEC §10) as the switch keeps them. lfc_port_stats_t has room for
 * all 16 classes (3.5 KB a port); a switch counts only its configured classes (and VL15 in IB
 * mode) in `cstats` (lfc_cstats), and the drops of malformed packets, which carry any 4-bit
 * class (SPEC §7.2), here by that class. lfc_switch_stats builds the public view from both.
 */
typedef struct {
  uint64_t rx_malformed, rx_bad_fcp, rx_bad_ctrl;
  uint64_t fcp_tx, fcp_rx, pfc_tx, pfc_rx;
  uint64_t mal_pkts[LFC_MAX_CLASSES], mal_blocks[LFC_MAX_CLASSES]; /* LFC_DROP_MALFORMED */
} lfc_port_cnt_t;

/* Step A decision of one port (SPEC §5.2). */
typedef struct {
  uint8_t action;   /* LFC_TX_* */
  uint8_t cls;      /* START: queue; FCP: VL */
  uint8_t src;      /* START: LFC_SRC_* */
  bool new_turn;    /* START: a new vlarb/DRR turn begins */
  uint8_t entry;    /* START from a vlarb table: entry j */
  bool mark;        /* START: ECN mark (SPEC §9) */
  bool draw;        /* START: the LFSR was drawn */
  uint8_t mrg;      /* START: the packet takes one slot fewer than its blocks (SPEC §2.4) */
  uint8_t pfc_en;   /* PFC: priorities carried */
  uint16_t fccl;    /* FCP: the FCCL sent */
  uint16_t fcp_clean; /* VLs found not pending: their fcp_dirty bits may be cleared */
  uint32_t lfsr;    /* START with draw: the LFSR after the draw */
} lfc_tx_dec_t;

/* Step E decision of one port (SPEC §7.2, §5.4, §6.4). */
typedef struct {
  uint8_t action;    /* LFC_RX_* */
  uint8_t malformed; /* an rx_malformed event (stray block, sop inside a packet, eop mismatch) */
  uint8_t cause;     /* LFC_RX_DROP: lfc_drop_cause_t */
  uint8_t cls;
  uint8_t nblk;
  uint8_t mrg;       /* its words are nblk - mrg (SPEC §2.1) */
  uint8_t out_port;
  uint32_t r, s, h;  /* PFC admission: blocks to reserve, shared pool, headroom */
} lfc_rx_dec_t;

struct lfc_switch {
  lfc_switch_cfg_t cfg;
  uint64_t now;              /* the current cycle t */
  uint32_t ports, classes;
  bool ib;                   /* mode == IB */
  uint16_t class_bits;       /* (1 << classes) - 1 */
  uint16_t rx_class_bits;    /* classes accepted at receive (adds VL15 when it exists) */
  uint8_t lossless;          /* PFC lossless_mask */

  lfc_port_t *port;
  lfc_word_t *out_scratch;   /* outputs when the caller passes none */
  uint64_t tx_slow;          /* scratch: ports whose step A took a decision beyond streaming */
  uint64_t rx_slow;          /* scratch: ports whose input is more than a continuation block */
  /*
   * Ports with work, so that step A, lfc_switch_next_event and lfc_switch_advance visit only
   * those (a port of a large fabric is idle or only streams most of the time):
   *   tx_work   a superset of the ports with a queued packet (nonempty != 0), or, in PFC mode, a
   *             pending PFC frame (pend != 0) or a running refresh timer (refresh_min_due !=
   *             LFC_NEVER). Invariant: a port outside it and outside tx_parked decides IDLE in
   *             step A and has no transmit event (lfc_tx_next_event = LFC_NEVER). Kept by
   *             setting the bit wherever one of those three can become non-idle (queue_push,
   *             lfc_pfc_gen_apply; the refresh timer starts only with pend, or at a PFC frame
   *             sent, which is work) and clearing it in step A when the port is found idle. In
   *             IB mode every port is in it: its FCP timers always run (SPEC §5.5).
   *   tx_parked PFC mode: ports that step A found idle with a transmit event still to come (a
   *             pause that lapses, a refresh timer): they leave tx_work until tx_wake[p], their
   *             lfc_tx_next_event then, so that a paused or refresh-only port costs nothing in
   *             the cycles between. Exact because every input of that decision other than time
   *             sets tx_work again (queue_push, lfc_pfc_gen_apply, a PFC frame received, a
   *             watchdog trip or restore); a port may be in both sets. tx_wake_min is a lower
   *             bound of tx_wake over tx_parked (exact after the scan in lfc_switch_step).
   *   tx_busy   a superset of the ports with a packet in flight (tx_rem != 0): set when a
   *             packet starts (step B), cleared at the port's next decision point that a step
   *             visits (a slot with tx_rem = 0). A subset of tx_work: a port leaves tx_work
   *             only at a decision point that stays IDLE.
   *   tx_end_lb a lower bound of tx_end over tx_busy (exact after the scan in
   *             lfc_switch_step_ports): before it no port of tx_busy is at a decision point.
   *   rx_busy   exactly the ports receiving a packet (rx_rem != 0), after each step/advance.
   *   rx_held   the ports of rx_busy whose next block is overdue (it did not come in the slot
   *             after the last: the caller gave another word there): their rx_rem and rx_last
   *             are those of now. At every other port of rx_busy the rest of the packet comes
   *             one block a slot after rx_last, as predicted (SPEC §2.1), and rx_rem and rx_last
   *             are kept as of the last block given or completed: the blocks due before now
   *             have come, lfc_rx_sync counts them in when a word is given, lfc_rx_rem reads
   *             the register, and neither streaming nor skip-ahead writes a port per cycle.
   *   rx_end_lb a lower bound of lfc_rx_end over rx_busy & ~rx_held (exact after the scans
   *             in lfc_switch_step_ports and lfc_switch_advance): no such packet ends before
   *             it, so the steps and skip-aheads before it look at none of those ports.
   *   pipe_busy exactly the ports whose pipeline holds a packet (pipe.head != LFC_NIL).
   */
  uint64_t tx_work, tx_busy, rx_busy, rx_held, pipe_busy;
  uint64_t tx_end_lb, rx_end_lb;
  uint64_t tx_parked, tx_wake_min;

  /* descriptor pool (SPEC §7.4): capacity = buffer blocks (§3.4), every packet holds >= 1 */
  lfc_desc_t *desc;
  uint32_t desc_cap, desc_used_hw, desc_free;

  /* shared pool (SPEC §6.1, §6.2) */
  uint32_t shared_used;
  uint32_t th_last;          /* T used by the last XOFF/XON evaluation (§6.5) */
  uint64_t check_ports;      /* ports with a non-zero `check` mask */
  int32_t gband_base;        /* a part of the intersection of all bands */
  uint32_t gband_width;
  uint64_t flip_ports;       /* scratch: ports with a non-zero `flip` mask (step G) */
  /* pipeline timing wheel (SPEC §7.3): pipe_ring[r & pipe_ring_mask] = the ports whose
     pipeline holds a packet with ready cycle r; ready - now <= latency < ring size */
  uint64_t *pipe_ring;
  uint32_t pipe_ring_mask;
  uint64_t wd_next;          /* a lower bound of the ports' wd_next (exact after step H) */
  uint64_t storm_ports;      /* ports with a queue in the watchdog's storm state */

  /* statistics (SPEC §10): closed intervals in stats and cstats, open ones added by the view */
  lfc_port_cnt_t *stats;      /* per port */
  lfc_class_stats_t *cstats;  /* per port, 1 << stat_shift each (lfc_cstats) */
  uint32_t stat_shift;        /* 1 << stat_shift >= classes, and > classes in IB mode (VL15) */
  lfc_port_stats_t *view;     /* per port, allocated by the first lfc_switch_stats */

  /* events of the last step (event_log.c) */
  lfc_event_log_t events;

  /* The cycle after the last word of each port's packet in flight (its slot): tx_rem (§5.2)
     is the slots from now to it (lfc_tx_rem), so that streaming and skip-ahead write nothing.
     Here rather than in lfc_port_t: the scans of the step, the next event and the skip-ahead
     read it for every port they pass, most of which they do not look at further, and the ends
     of 8 ports share a cache line (docs/perf-log.md, 2026-12-05). */
  uint64_t tx_end[LFC_MAX_PORTS];

  /* ---- last, the per-port arrays that only some modes, settings or events read, so that the
     registers above, which every step reads, share as few cache lines as they can ---- */
  uint64_t tx_wake[LFC_MAX_PORTS]; /* see tx_parked */
  /* dynamic T with band_base[p] <= T < band_base[p] + band_width[p]: no unmarked PG of port
     p flips (pfc_gen.c) */
  int32_t band_base[LFC_MAX_PORTS];
  uint32_t band_width[LFC_MAX_PORTS];
  /* IB vlarb tables (SPEC §5.6): per VL, the entries with weight > 0 naming it */
  uint64_t hi_ent[LFC_IB_MAX_VLS], lo_ent[LFC_IB_MAX_VLS];
};

/* The counters of class c (< classes, or VL15 in IB mode) of port p (SPEC §10). A port has a
 * power of two of them, so that VL15 (all ones) masked lands on the last, above the data
 * classes: a shift, a mask and an or on the per-packet path. */
static inline lfc_class_stats_t *lfc_cstats(const lfc_switch_t *sw, uint32_t p, uint32_t c) {
  uint32_t mask = (1u << sw->stat_shift) - 1u;
  assert(c < sw->classes || (sw->ib && c == LFC_VL15));
  return &sw->cstats[((size_t)p << sw->stat_shift) | (c & mask)];
}
_Static_assert(LFC_VL15 == LFC_MAX_CLASSES - 1u, "VL15 is all ones: the last counters masked");

/* ---- small arithmetic on cycles and masks ---- */
static inline uint64_t lfc_min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t lfc_max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline uint32_t lfc_min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }
/* Is cycle t a slot of a port with speed divider k (SPEC §1.2)? */
static inline bool lfc_is_slot(uint64_t t, uint32_t k) { return k == 1u || t % k == 0u; }
/* First slot >= x of a port with speed divider k (SPEC §1.2). */
static inline uint64_t lfc_slot_at_or_after(uint64_t x, uint32_t k) {
  if (x == LFC_NEVER) return LFC_NEVER;
  return k == 1u ? x : (x + k - 1u) / k * k;
}
/* Number of slots of a port with divider k in cycles [a, b). */
static inline uint64_t lfc_slots_between(uint64_t a, uint64_t b, uint32_t k) {
  return b <= a ? 0u : (lfc_slot_at_or_after(b, k) - lfc_slot_at_or_after(a, k)) / k;
}
/* The mask of every port of the switch. */
static inline uint64_t lfc_all_ports(const lfc_switch_t *sw) {
  return sw->ports == LFC_MAX_PORTS ? ~0ull : (1ull << sw->ports) - 1u;
}
static inline unsigned lfc_ctz(uint64_t x) { return (unsigned)__builtin_ctzll(x); }
static inline unsigned lfc_msb(uint64_t x) { return 63u - (unsigned)__builtin_clzll(x); }

/* The first slot >= now at which port p has nothing in flight: a lower bound of its transmit
 * event (lfc_tx_next_event is never before it). The last word goes in slot tx_end - 1. Reads
 * the switch's arrays only (speed_div is the port's k), not the port's lines. */
static inline uint64_t lfc_tx_busy_until(const lfc_switch_t *sw, uint32_t p, uint64_t now) {
  uint32_t k = sw->cfg.speed_div[p];
  return sw->tx_end[p] > now ? sw->tx_end[p] - 1u + k : lfc_slot_at_or_after(now, k);
}

/* Register tx_rem (SPEC §5.2) of port p in S(now): the words of the packet in flight still to
 * send, one in each slot from now to tx_end - 1. */
static inline uint64_t lfc_tx_rem(const lfc_switch_t *sw, uint32_t p, uint64_t now) {
  uint32_t k = sw->cfg.speed_div[p];
  if (sw->tx_end[p] <= now) return 0;
  return (sw->tx_end[p] - 1u - lfc_slot_at_or_after(now, k)) / k + 1u;
}

/* ---- queue.c: descriptors, routing, pipeline, egress queues (SPEC §7) ---- */
bool lfc_route(const lfc_switch_t *sw, uint32_t dst, uint32_t *out_port);
uint32_t lfc_desc_alloc(lfc_switch_t *sw);
void lfc_desc_free(lfc_switch_t *sw, uint32_t d);
void lfc_pipe_append(lfc_switch_t *sw, uint32_t in_port, uint32_t d, uint64_t ready);
void lfc_pipe_exit(lfc_switch_t *sw);                   /* step F */
void lfc_pipe_exit_until(lfc_switch_t *sw, uint64_t to); /* step F of [now, to) (skip-ahead) */
uint64_t lfc_pipe_next_event(const lfc_switch_t *sw, uint32_t p);
uint64_t lfc_pipe_next_start(const lfc_switch_t *sw, uint32_t p);
uint32_t lfc_queue_pop(lfc_switch_t *sw, uint32_t p, uint32_t c); /* head; the caller frees */
void lfc_queue_reset(lfc_switch_t *sw);
uint32_t lfc_pipe_ring_size(uint32_t latency);

/*
 * ---- The streaming fast paths of port_tx.c and rx_framing.c ----
 * Most port-cycles at load only stream: a transmitter sends the next block of its packet, a
 * receiver takes the next block of one. lfc_switch_step_ports finds the ports that do more in
 * one pass with these functions; everything else is left to the blocks (lfc_tx_decide_all,
 * lfc_rx_decide_all), for the ports the pass lists in sw->tx_slow / sw->rx_slow. The registers
 * updated here (rx_rem, rx_last) are read by no other decision of the cycle, so writing their
 * next value in place equals writing it in step E; tx_rem is a function of the cycle
 * (lfc_tx_rem), which a transmitter's streaming does not write, and a streaming transmitter's
 * word is written only by lfc_switch_step (lfc_switch_step_ports leaves it to its caller).
 */

/* SPEC §5.2 steps 1, 2: is port p at a decision point in cycle t (a slot with nothing in
 * flight)? If not, its word is lfc_tx_stream's. Reads the switch's arrays only. */
static inline bool lfc_tx_at_decision(const lfc_switch_t *sw, uint32_t p, uint64_t t) {
  return lfc_is_slot(t, sw->cfg.speed_div[p]) && sw->tx_end[p] <= t;
}

/* SPEC §5.2 steps 1, 2 of a port not at a decision point in cycle t: the next block of the
 * packet in flight in its slot, else IDLE. */
static inline void lfc_tx_stream(const lfc_switch_t *sw, uint32_t p, uint64_t t,
                                 lfc_word_t *out) {
  static const lfc_word_t idle = {0};
  const lfc_port_t *pp = &sw->port[p];
  *out = idle;
  if (!lfc_is_slot(t, pp->k) || sw->tx_end[p] <= t) return;
  memcpy(out, pp->tx_data, sizeof pp->tx_data);
  out->eop = t + 1u == sw->tx_end[p];
}

enum { LFC_RX_STREAMED = 0, LFC_RX_SLOW, LFC_RX_LAST, LFC_RX_BAD };

_Static_assert(offsetof(lfc_word_t, eop) == offsetof(lfc_word_t, sop) + 1u,
               "lfc_rx_stream reads sop and eop together");

/* SPEC §7.2: a continuation block counts down. Returns LFC_RX_STREAMED, LFC_RX_LAST (it was the
 * last block), LFC_RX_BAD (a continuation with sop = 1 or a wrong eop: rx_malformed; it may be
 * the last block too), or LFC_RX_SLOW for anything else but IDLE. */
static inline int lfc_rx_stream(lfc_port_t *pp, uint64_t now, const lfc_word_t *w) {
  /* sop and eop are adjacent bytes: check both 1-bit fields with one 16-bit load; the
     patterns are built from bytes, so the test does not depend on the byte order. */
  static const uint8_t last_bytes[2] = {0u, 1u}; /* sop = 0, eop = 1 */
  const uint16_t bit0_of_both = 0x0101u;
  uint32_t kind = w->kind & LFC_KIND_MASK;
  if (kind == LFC_IDLE) return LFC_RX_STREAMED;
  uint32_t rem = pp->rx_rem;
  if (kind != LFC_DATA || rem == 0) return LFC_RX_SLOW;
  pp->rx_rem = (uint8_t)(rem - 1u);
  pp->rx_last = now;
  uint16_t sop_eop, last;
  memcpy(&sop_eop, &w->sop, sizeof sop_eop);
  memcpy(&last, last_bytes, sizeof last);
  if ((sop_eop & bit0_of_both) != (rem == 1u ? last : 0u)) return LFC_RX_BAD;
  return rem == 1u ? LFC_RX_LAST : LFC_RX_STREAMED;
}

/* The predicted blocks of port p (in rx_busy, not rx_held) due in [rx_last + k, t): blocks
 * come one a slot after the last (SPEC §2.1); at full speed (k = 1) without a divide. */
static inline uint64_t lfc_rx_due_before(const lfc_port_t *pp, uint64_t t) {
  uint64_t next = pp->rx_last + pp->k;
  if (next >= t) return 0;
  return pp->k == 1u ? t - next : (t - 1u - next) / pp->k + 1u;
}

/* Register rx_rem of port p now (SPEC §7.2): the predicted blocks due before now have come. */
static inline uint32_t lfc_rx_rem(const lfc_switch_t *sw, uint32_t p) {
  const lfc_port_t *pp = &sw->port[p];
  if (pp->rx_rem == 0 || ((sw->rx_held >> p) & 1u)) return pp->rx_rem;
  return pp->rx_rem - (uint32_t)lfc_rx_due_before(pp, sw->now); /* < rx_rem (rx_busy) */
}

/* Port p's word is given in this cycle: its rx_rem and rx_last as of now (see rx_held). */
static inline void lfc_rx_sync(lfc_switch_t *sw, uint32_t p) {
  lfc_port_t *pp = &sw->port[p];
  if (pp->rx_rem == 0 || ((sw->rx_held >> p) & 1u)) return;
  uint64_t m = lfc_rx_due_before(pp, sw->now);
  if (m == 0) return;
  pp->rx_rem = (uint8_t)(pp->rx_rem - m);
  pp->rx_last += m * pp->k;
}

/* The cycle of the last block of the packet port p (in rx_busy, not rx_held) is receiving. */
static inline uint64_t lfc_rx_end(const lfc_port_t *pp) {
  return pp->rx_last + (uint64_t)pp->rx_rem * pp->k;
}

/* Store-and-forward: step F of the packet being received, at its last block + latency - 1. */
static inline uint64_t lfc_rx_next_event(const lfc_switch_t *sw, uint32_t p) {
  const lfc_port_t *pp = &sw->port[p];
  if (pp->rx_rem == 0 || pp->rx_desc == LFC_NIL) return LFC_NEVER;
  if (((sw->rx_held >> p) & 1u) == 0) return lfc_rx_end(pp) + sw->cfg.latency - 1u;
  return sw->now + (uint64_t)(pp->rx_rem - 1u) * pp->k + sw->cfg.latency - 1u; /* overdue */
}

/* ---- rx_framing.c (SPEC §7.2) ---- */
void lfc_rx_stream_end(lfc_switch_t *sw, uint32_t p, int how);
void lfc_rx_decide_all(lfc_switch_t *sw, const lfc_word_t *in, lfc_rx_dec_t *rxd);
void lfc_rx_apply_all(lfc_switch_t *sw, const lfc_word_t *in, const lfc_rx_dec_t *rxd);
void lfc_rx_advance(lfc_switch_t *sw, uint32_t p, uint64_t to);

/* ---- credit_tx.c (SPEC §5.3) ---- */
void lfc_credit_tx_update(lfc_switch_t *sw, uint32_t p, uint32_t vl);
void lfc_credit_tx_on_fcp(lfc_switch_t *sw, uint32_t p, uint32_t vl, uint32_t fccl);
void lfc_credit_tx_on_start(lfc_switch_t *sw, uint32_t p, uint32_t vl, uint32_t n);
uint64_t lfc_credit_blocked_cycles(const lfc_switch_t *sw, uint32_t p, uint32_t vl);

/* ---- credit_rx.c (SPEC §5.4, §5.5) ---- */
uint32_t lfc_credit_rx_fccl(const lfc_switch_t *sw, uint32_t p, uint32_t vl);
void lfc_credit_rx_admit(const lfc_switch_t *sw, uint32_t p, lfc_rx_dec_t *d);
void lfc_credit_rx_charge(lfc_switch_t *sw, uint32_t p, const lfc_rx_dec_t *d);
void lfc_credit_rx_free(lfc_switch_t *sw, uint32_t in_port, uint32_t cls, uint32_t n);
void lfc_credit_rx_on_fcp(lfc_switch_t *sw, uint32_t p, uint32_t vl, uint32_t fctbs);
bool lfc_fcp_pick(const lfc_switch_t *sw, uint32_t p, lfc_tx_dec_t *d);
void lfc_fcp_word(const lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d, lfc_word_t *w);
void lfc_fcp_sent(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d);
uint64_t lfc_fcp_next_event(const lfc_switch_t *sw, uint32_t p);
void lfc_fcp_reset_port(lfc_switch_t *sw, uint32_t p);

/* ---- vlarb.c (SPEC §5.6) ---- */
void lfc_vlarb_init(lfc_switch_t *sw);
bool lfc_vlarb_pick(const lfc_switch_t *sw, uint32_t p, lfc_tx_dec_t *d);
void lfc_vlarb_commit(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d, uint32_t n);

/* ---- buffer.c (SPEC §6.1-§6.4) ---- */
uint32_t lfc_buffer_threshold(const lfc_switch_t *sw);
void lfc_buffer_admit(const lfc_switch_t *sw, uint32_t p, uint32_t *chain_used,
                      lfc_rx_dec_t *d);
void lfc_buffer_charge(lfc_switch_t *sw, uint32_t p, const lfc_rx_dec_t *d);
void lfc_buffer_free(lfc_switch_t *sw, uint32_t in_port, uint32_t cls, uint32_t n);

/* ---- pfc_gen.c (SPEC §6.5, §6.6) ---- */
void lfc_pfc_gen_decide(lfc_switch_t *sw);
void lfc_pfc_gen_apply(lfc_switch_t *sw);
bool lfc_pfc_gen_pick(const lfc_switch_t *sw, uint32_t p, lfc_tx_dec_t *d);
void lfc_pfc_gen_word(const lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d, lfc_word_t *w);
void lfc_pfc_gen_sent(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d);
uint64_t lfc_pfc_gen_next_event(const lfc_switch_t *sw, uint32_t p);
bool lfc_pfc_gen_settled(const lfc_switch_t *sw);
uint8_t lfc_pfc_gen_eval_mask(const lfc_switch_t *sw, uint32_t p, uint32_t th, bool th_changed);
void lfc_pfc_gen_reset(lfc_switch_t *sw);

/* ---- pfc_rx.c (SPEC §6.7) ---- */
void lfc_pfc_rx_frame(lfc_switch_t *sw, uint32_t p, const lfc_word_t *w);
uint8_t lfc_pfc_rx_paused(const lfc_switch_t *sw, uint32_t p, uint8_t candidates);
uint64_t lfc_pfc_rx_paused_cycles(const lfc_switch_t *sw, uint32_t p, uint32_t c);

/* ---- watchdog.c (SPEC §6.8) ---- */
/* Queues of port p that discard their packets: storm with wd_action = drop (SPEC §6.8). */
static inline uint8_t lfc_wd_drop_mask(const lfc_switch_t *sw, uint32_t p) {
  return sw->cfg.wd_action == LFC_WD_DROP ? sw->port[p].storm : 0;
}
void lfc_wd_on_frame(lfc_switch_t *sw, uint32_t p, uint32_t c, bool was_paused, bool pauses);
void lfc_wd_discard(lfc_switch_t *sw);                   /* step C */
void lfc_wd_update(lfc_switch_t *sw);                    /* step H */
void lfc_wd_reset(lfc_switch_t *sw);
uint64_t lfc_wd_next_event(const lfc_switch_t *sw);
uint32_t lfc_wd_cnt(const lfc_switch_t *sw, uint32_t p, uint32_t c);
uint32_t lfc_wd_rcnt(const lfc_switch_t *sw, uint32_t p, uint32_t c);

/* ---- sched.c (SPEC §8) ---- */
bool lfc_sched_pick(const lfc_switch_t *sw, uint32_t p, lfc_tx_dec_t *d);
void lfc_sched_commit(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d, uint32_t n);
uint64_t lfc_sched_next_event(const lfc_switch_t *sw, uint32_t p);

/* ---- ecn.c (SPEC §9) ---- */
void lfc_ecn_decide(const lfc_switch_t *sw, uint32_t p, const lfc_desc_t *pkt, lfc_tx_dec_t *d);
void lfc_ecn_commit(lfc_switch_t *sw, uint32_t p, const lfc_tx_dec_t *d);

/* ---- port_tx.c (SPEC §5.2, §7.4) ---- */
void lfc_tx_unpark(lfc_switch_t *sw);
void lfc_tx_decide_all(lfc_switch_t *sw, lfc_word_t *out, lfc_tx_dec_t *txd);
void lfc_fcp_sent_all(lfc_switch_t *sw, const lfc_tx_dec_t *txd);
void lfc_tx_apply_all(lfc_switch_t *sw, const lfc_word_t *out, const lfc_tx_dec_t *txd);
uint64_t lfc_tx_next_event(const lfc_switch_t *sw, uint32_t p);
uint64_t lfc_tx_flip_event(const lfc_switch_t *sw, uint32_t p);

#endif /* LFC_INTERNAL_H */
