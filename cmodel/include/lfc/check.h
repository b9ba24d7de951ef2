/*
 * lfc/check.h - protocol checkers for real frames: InfiniBand credit flow control and 802.1Qbb
 * priority flow control, watched on the wire (docs/verify-your-rtl.md).
 *
 * A checker is a passive monitor. It is fed the frames seen on one or more links, each with its
 * time, the link it was seen on and its direction, and it keeps per link the state the protocol
 * defines: per VL the credits (IBA vol. 1 §7.9, SPEC §5), per priority the pauses (IEEE 802.1Qbb,
 * SPEC §6.7). It never needs the device's internal timing: it only asks whether what went over
 * the link was allowed by what had gone the other way before, so it works whatever the latency,
 * the arbitration or the rate of flow-control packets of the device under test.
 *
 * Feeding it:
 *   - frames are the bytes of the wire formats of lfc/wire_*.h (docs/wire-formats.md): IB data
 *     packets LRH..VCRC, IB flow-control packets (6 bytes, or 8 with two bytes after), Ethernet
 *     frames with their FCS (or without, cfg.eth_fcs = false);
 *   - a time, in a unit the configuration chooses (nanoseconds, model cycles, picoseconds): the
 *     time the frame's first bit passed the point where it was seen. A time in whole units may
 *     be up to one unit off the true one (a pcap rounds to the nanosecond), so every rule about
 *     time is broken only by more than one unit;
 *   - a link, 0..cfg.links-1, and a direction: LFC_CHECK_AB (side A sends, side B receives) or
 *     LFC_CHECK_BA. Frames of one link must come in order of time (both directions merged);
 *     links are independent.
 * That is all a cocotb (ctypes) or SystemVerilog (DPI-C) monitor has to provide: bytes, a
 * length, a 64-bit time, two small integers.
 *
 * Every rule broken gives one violation: the time, link, direction, the rule's class and its
 * source section, the traffic class (VL or priority) and what was expected and observed, as
 * plain data and as one line of text (lfc_check_format). The table of rules is in
 * docs/verify-your-rtl.md and in lfc_check_rule_name / _source / _what. Functional coverage of
 * the protocol's events is counted alongside (lfc_check_cov_*).
 *
 * What a monitor on the wire cannot see is not checked: the sender's queue (so not whether it
 * could have sent more), a receiver's buffer (so credits and headroom are judged from what the
 * peer advertised and what went over the wire). Where a value of a standard was not checked in
 * its text it is marked [reading] in the rule's source and is a configuration parameter.
 */
#ifndef LFC_CHECK_H
#define LFC_CHECK_H

#include "lfc/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lfc/pcap.h"
#include "lfc/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Directions of a link. */
#define LFC_CHECK_AB 0u /* side A sends, side B receives */
#define LFC_CHECK_BA 1u
#define LFC_CHECK_DIRS 2u

#define LFC_CHECK_MAX_LINKS 4096u
#define LFC_CHECK_NO_CLASS 0xFFu /* a violation that is about no VL or priority */

/* Picoseconds per time unit for a time given in model cycles: one cycle is one 64-byte block,
 * 512 bit times (SPEC §1.1), at speed_mbps megabits per second. 5120 at 100 Gb/s. */
#define LFC_CHECK_CYCLE_PS(speed_mbps) (512000000ull / (speed_mbps))
#define LFC_CHECK_NS_PS 1000u /* picoseconds per nanosecond: time given in ns */

/* The rules. Names and sources: lfc_check_rule_name, lfc_check_rule_source. */
typedef enum {
  /* InfiniBand link (SPEC §5; IBA vol. 1 §7.9) */
  LFC_RULE_IB_SEND = 0,  /* a data packet started without credit: the §5.3 send rule fails */
  LFC_RULE_IB_FCTBS,     /* an FCP's FCTBS is not the blocks seen sent on its VL, mod 4096 */
  LFC_RULE_IB_FCCL_STEP, /* FCCL went backwards or jumped more than 2048 */
  LFC_RULE_IB_FCCL_CAP,  /* FCCL more than 2048 blocks beyond the blocks sent */
  LFC_RULE_IB_FCP_PERIOD, /* no FCP for a VL for longer than the configured period */
  LFC_RULE_IB_VL15,      /* VL15 used beyond its rules (an FCP for it, not QP0, over 256 B) */
  LFC_RULE_IB_VL,        /* a data VL beyond the configured ones */
  LFC_RULE_IB_MTU,       /* a payload longer than the MTU */
  LFC_RULE_IB_MALFORMED, /* the decoder refused the packet (CRC, length, version, ...) */
  LFC_RULE_IB_DROP,      /* a receiver dropped a data-VL packet its peer had credit for */
  /* PFC link (SPEC §6; IEEE 802.1Qbb, IEEE 802.3 Annex 31B) */
  LFC_RULE_PFC_REACTION,  /* a paused priority started a frame later than the reaction budget */
  LFC_RULE_PFC_TX_PAUSED, /* ... and kept starting frames while paused */
  LFC_RULE_PFC_REFRESH,   /* a receiver in XOFF let its pause lapse before refreshing it */
  LFC_RULE_PFC_HEADROOM,  /* more bytes arrived after an XOFF than the configured headroom */
  LFC_RULE_PFC_DROP,      /* a lossless priority dropped although the peer honoured pauses */
  LFC_RULE_ETH_MTU,       /* an Ethernet frame longer than the configured maximum */
  LFC_RULE_ETH_MALFORMED, /* the decoder refused a MAC Control or RoCEv2 frame, or a bad FCS */
  /* End-to-end scoreboard (lfc/scoreboard.h) */
  LFC_RULE_SB_LOST,   /* accepted, never delivered, no drop reported */
  LFC_RULE_SB_DUP,    /* delivered again */
  LFC_RULE_SB_ORDER,  /* delivered before a packet of the same flow accepted earlier */
  LFC_RULE_SB_UNKNOWN, /* delivered, never accepted */
  LFC_RULE_SB_DROP,   /* dropped with a cause that is not allowed */
  LFC_RULES
} lfc_check_rule_t;

/* Short name, the "class" of a violation line ("ib-send", "pfc-reaction", ...); "?" if none. */
LFC_API const char *lfc_check_rule_name(lfc_check_rule_t rule);
/* The sections the rule comes from ("SPEC §5.3; IBA vol.1 §7.9 [reading]"). */
LFC_API const char *lfc_check_rule_source(lfc_check_rule_t rule);
/* One sentence on what is flagged. */
LFC_API const char *lfc_check_rule_what(lfc_check_rule_t rule);

/* Length of the expected and observed texts of a violation, terminator included. */
#define LFC_CHECK_TEXT 112u

/* One violation. Plain data, copied freely. */
typedef struct {
  uint64_t time;  /* in the checker's time unit: when it was seen */
  uint64_t frame; /* the frame that showed it, counted on its link from 1 (a capture's record
                     number); 0 = none (a drop report, an XOFF report, the end of the run) */
  uint32_t link;
  uint32_t dir;   /* LFC_CHECK_AB or LFC_CHECK_BA: the direction of the frame or data concerned */
  lfc_check_rule_t rule;
  uint32_t cls;   /* VL or priority, or LFC_CHECK_NO_CLASS */
  char expected[LFC_CHECK_TEXT];
  char observed[LFC_CHECK_TEXT];
} lfc_check_violation_t;

/* Configuration of a checker. Start from lfc_check_cfg_default and change what differs. */
typedef struct {
  lfc_mode_t mode;        /* LFC_MODE_IB or LFC_MODE_PFC */
  uint32_t links;         /* 1..LFC_CHECK_MAX_LINKS; all share this configuration */
  uint32_t speed_mbps;    /* line data rate, Mb/s (100000 = 100 Gb/s): quanta, frame times */
  uint32_t time_unit_ps;  /* picoseconds per unit of every time given: LFC_CHECK_NS_PS for ns,
                             LFC_CHECK_CYCLE_PS(speed) for model cycles; >= 1 */
  const char *time_label; /* printed after times ("ns", "cyc"); NULL: "ns" for 1000 ps, "ps"
                             for 1, else "t". Not copied: must outlive the checker */
  size_t max_kept;        /* violations kept for lfc_check_violation (all are counted) */
  /* IB */
  uint32_t data_vls;      /* 1..15: data VLs 0..data_vls-1 may be used (SPEC §3.1 classes) */
  uint32_t mtu_bytes;     /* IB: largest payload (256..4096, IBA MTUs); PFC: largest frame with
                             FCS, 64..65535 */
  uint64_t fcp_period_ns; /* IB: an FCP per VL at least this often, plus the time of one
                             MTU packet it may wait behind (SPEC §5.2, §5.5); 0 = not checked */
  bool from_reset;        /* IB: the observation starts at link initialisation: every FCTBS
                             and FCCL is 0 (SPEC §5.1). Otherwise each is learnt from the
                             first FCP that carries it */
  /* PFC */
  uint8_t lossless_mask;  /* priorities that must not drop (SPEC §3.2 lossless_mask) */
  uint64_t reaction_ns;   /* time a sender may still start a frame after a pause reached it;
                             0 = IEEE 802.3 Annex 31B.3.7's pause_quanta for speed_mbps
                             (lfc_check_reaction_quanta) */
  uint64_t skew_ns[LFC_CHECK_DIRS]; /* per direction of the paused data: time from a pause
                             frame passing the observation point to the data it stops passing
                             it, beyond the sender's reaction. 0 when the paused sender is at
                             the observation point; 2 x the one-way delay when the end that
                             sends the pause is */
  uint64_t watchdog_ns;   /* a sender's PFC watchdog may ignore a pause in force this long
                             (SPEC §6.8); 0 = no watchdog: every frame in a pause is flagged */
  uint64_t headroom_bytes[LFC_PFC_MAX_PRIOS]; /* per priority, bytes a receiver can take after
                             it sends XOFF; 0 = not checked */
  bool eth_fcs;           /* Ethernet frames carry their FCS (lfc's pcaps do; Linux captures
                             usually do not) */
  bool prio_dscp;         /* priority of data frames from the IP DSCP (dscp_to_prio) instead of
                             the 802.1Q PCP (untagged frames: priority 0) */
  uint8_t dscp_to_prio[64];
} lfc_check_cfg_t;

/* Defaults for mode: 1 link at 100 Gb/s, times in ns, 1000 violations kept; IB: 15 data VLs,
 * MTU 4096, no FCP period check, not from reset; PFC: every priority lossless, the Annex 31B
 * reaction budget, no skew, no watchdog, no headroom check, FCS present, PCP priorities,
 * DSCP >> 3 as the DSCP map. */
LFC_API void lfc_check_cfg_default(lfc_check_cfg_t *cfg, lfc_mode_t mode);

/* IEEE 802.3 Annex 31B.3.7's reaction budget in pause quanta for a speed in Mb/s (100 Mb/s to
 * 800 Gb/s, the values SONiC's headroom calculation uses: 1, 2, 67, 80, 118, 147, 394, 453, 905,
 * 905 for 0.1/1/10/25/40/50/100/200/400/800 Gb/s; the standard's text was not at hand
 * [reading]), or 0 for a speed not in that table. */
LFC_API uint32_t lfc_check_reaction_quanta(uint32_t speed_mbps);
/* The speed in Mb/s of that table's row (0 = 100 Mb/s, ascending), or 0 past its last row: to
 * list the speeds that have a budget. */
LFC_API uint32_t lfc_check_reaction_speed(size_t row);

typedef struct lfc_check lfc_check_t;

/* A checker for cfg. NULL with a one-line reason in err[0..errlen) for a configuration out of
 * range (the field, its value and what is allowed) or no memory. */
LFC_API lfc_check_t *lfc_check_create(const lfc_check_cfg_t *cfg, char *err, size_t errlen);
LFC_API void lfc_check_destroy(lfc_check_t *c);

/*
 * A checker from text, for bindings that would rather not mirror lfc_check_cfg_t (cocotb through
 * ctypes, SystemVerilog through DPI-C): the defaults of mode, then each "key=value" of settings
 * (separated by blanks or commas; NULL or "" for none) set in the field of that name. Keys:
 * links, speed_mbps, time_unit_ps, max_kept, data_vls, mtu_bytes, fcp_period_ns, from_reset,
 * lossless_mask, reaction_ns, skew_ns (both directions), skew_ns_ab, skew_ns_ba, watchdog_ns,
 * headroom_bytes (every priority), headroom_bytes_0 .. headroom_bytes_7, eth_fcs, prio_dscp;
 * numbers as lfc_parse_int reads them (0x hex too), flags 0 or 1, at most
 * LFC_CHECK_TEXT_VALUE_MAX characters each. NULL with one line in err for a setting that is not
 * key=value, an unknown key, a value that is not a number of its field (flags 0..1,
 * lossless_mask 0..255, links, speed_mbps, time_unit_ps, max_kept, data_vls and mtu_bytes
 * 0..2^32-1, the others 0..2^63-1) or is longer, or a configuration lfc_check_create refuses.
 */
#define LFC_CHECK_TEXT_VALUE_MAX 32u /* characters of a value: more than any number needs */
LFC_API lfc_check_t *lfc_check_create_text(lfc_mode_t mode, const char *settings, char *err,
                                           size_t errlen);

/*
 * Feed one frame: len bytes seen on link in direction dir at time. kind says what it is
 * (lfc/pcap.h): LFC_PCAP_ETH in PFC mode; LFC_PCAP_IB_DATA or LFC_PCAP_IB_LINK in IB mode.
 * Returns the violations the frame showed (0 or more), or -1 when the input itself is refused:
 * link or dir out of range, a kind of the other mode, a time before the previous frame of the
 * same link, or a time too large to count in picoseconds; lfc_check_error then says why and the
 * checker's state is unchanged.
 */
LFC_API int lfc_check_frame(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t time,
                            lfc_pcap_rec_t kind, const uint8_t *frame, size_t len);

/*
 * Report a drop seen by the user's own monitor: the receiver of direction dir on link dropped a
 * packet of class cls (VL or priority) at time. A drop of a lossless class is a violation unless
 * the peer broke the flow-control rules of that class and direction before it (an IB-SEND, or a
 * PFC-REACTION/TX-PAUSED): then the peer is to blame and the drop is only counted. VL15 and
 * lossy priorities may drop. Returns 1 if flagged, 0 if not, -1 for refused input (as above).
 */
LFC_API int lfc_check_drop(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t time,
                           uint32_t cls);

/*
 * PFC: report the XOFF state of the receiver of direction dir on link for priority prio, from
 * time on (xoff true: it wants the sender paused; e.g. from the device's XOFF/XON events). With
 * it, a pause that runs out while the receiver is in XOFF is a pfc-refresh-late exactly, found
 * at the next call at or after the lapse. Without it the monitor judges from the receiver's
 * frames alone (an XOFF after its previous one lapsed, no XON between, from a receiver that has
 * used XON before). Returns the violations found (a lapse before time under the old state), or
 * -1 for refused input, or in IB mode.
 */
LFC_API int lfc_check_xoff(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t time,
                           uint32_t prio, bool xoff);

/*
 * The end of the observation at time (not before the last frame): checks what can only be
 * judged at the end (a VL whose last FCP is older than the period; a pause that ran out while the
 * receiver reported XOFF). Call once; frames fed after
 * it are refused. Returns the violations found, or -1 for a time before the last frame.
 */
LFC_API int lfc_check_finish(lfc_check_t *c, uint64_t time);

/* Why the last call returned -1 (one line), or "". */
LFC_API const char *lfc_check_error(const lfc_check_t *c);

/* Violations found so far, in all (kept or not); lfc_check_count: of one rule. */
LFC_API uint64_t lfc_check_violations(const lfc_check_t *c);
LFC_API uint64_t lfc_check_count(const lfc_check_t *c, lfc_check_rule_t rule);
/* Frames fed and accepted. */
LFC_API uint64_t lfc_check_frames(const lfc_check_t *c);

/* The i-th violation kept (0-based, in the order found; the first cfg.max_kept are kept), or
 * NULL. Valid until the checker is destroyed. */
LFC_API const lfc_check_violation_t *lfc_check_violation(const lfc_check_t *c, size_t i);

/*
 * Format the i-th kept violation as one line (no newline) into buf[0..len), always terminated:
 *   time=1234ns link=0 dir=A>B class=ib-send rule="SPEC §5.3; IBA vol.1 §7.9" vl=1
 *   expected="..." observed="..."
 * Returns buf, or NULL (buf untouched) if there is no such violation.
 */
LFC_API char *lfc_check_format(const lfc_check_t *c, size_t i, char *buf, size_t len);

/* Largest headroom used (bytes received after an XOFF, SPEC §11) by priority prio of direction
 * dir on link so far; 0 for IB or out-of-range arguments. */
LFC_API uint64_t lfc_check_headroom_max(const lfc_check_t *c, uint32_t link, uint32_t dir,
                                        uint32_t prio);

/*
 * Functional coverage: the protocol events seen, counted. Points are numbered
 * 0..lfc_check_cov_points()-1; each has a name (the key in the JSON coverage file, the same form
 * as the co-simulation's, tb/common/tb_cov.c) and belongs to one mode, or to both (the "viol_*"
 * points of the end-to-end rules are not counted by a checker). The "viol_<rule>" points count
 * the violations of each rule, so that a regression can demand that each one was provoked.
 */
LFC_API size_t lfc_check_cov_points(void);
LFC_API const char *lfc_check_cov_name(size_t point); /* NULL out of range */
/* True if point is counted in mode (a point of the other mode always reads 0). */
LFC_API bool lfc_check_cov_in_mode(size_t point, lfc_mode_t mode);
/* How many times checker c has seen point's event (0 for a point out of range). */
LFC_API uint64_t lfc_check_cov(const lfc_check_t *c, size_t point);

#ifdef __cplusplus
}
#endif

#endif /* LFC_CHECK_H */
