/*
 * lfc/scoreboard.h - an end-to-end scoreboard for a device under test: every packet it accepts
 * is delivered exactly once, in order within its flow, or its drop is reported with a cause the
 * test allows (docs/verify-your-rtl.md).
 *
 * The scoreboard knows nothing of the device: the test tells it, with plain integers, that a
 * packet (flow, id) was accepted (entered the device), delivered (left it) or dropped (the
 * device said so, with an lfc_drop_cause_t). A flow is any 64-bit key the test chooses (for
 * RoCEv2, say, source and destination address and queue pair; for the SPEC §2 link word, the
 * source port, destination and class); id is the packet's identity within the flow (a sequence
 * number, a PSN, the word's tag). Packets of one flow must leave in the order they entered.
 *
 * Violations have the form of lfc/check.h (the LFC_RULE_SB_* rules) and print the same way:
 *   sb-lost     accepted, and neither delivered nor dropped when lfc_sb_finish is called
 *   sb-duplicate  delivered (or dropped) again, after it had been delivered or dropped
 *   sb-order    delivered while a packet of its flow accepted before it is still outstanding
 *   sb-unknown  delivered or dropped, never accepted
 *   sb-drop     dropped with a cause not in cfg.allowed_drops
 * The link and direction of a violation are the ones given with the delivery or drop (the
 * device's port, say); lfc_sb_finish's lost packets carry those of their acceptance.
 *
 * Memory: one record per outstanding packet (24 bytes) and per flow, plus, per flow, the last
 * LFC_SB_RECENT ids retired, to tell a duplicate from an unknown packet. Latency statistics are
 * kept in constant memory (count, minimum, maximum, sum). cfg.max_outstanding bounds the
 * records: an acceptance beyond it is refused.
 */
#ifndef LFC_SCOREBOARD_H
#define LFC_SCOREBOARD_H

#include "lfc/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lfc/check.h"
#include "lfc/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LFC_SB_RECENT 16u /* ids remembered per flow after they leave, to name duplicates */

typedef struct {
  uint32_t allowed_drops; /* bit (1u << cause) for each lfc_drop_cause_t allowed */
  uint64_t max_outstanding; /* packets accepted and not yet retired; 0 = no limit */
  uint32_t time_unit_ps;  /* as lfc_check_cfg_t: picoseconds per unit of the times given */
  const char *time_label; /* as lfc_check_cfg_t */
  size_t max_kept;        /* violations kept for lfc_sb_violation (all are counted) */
} lfc_sb_cfg_t;

/* Defaults: no drop allowed, no limit, times in ns, 1000 violations kept. */
LFC_API void lfc_sb_cfg_default(lfc_sb_cfg_t *cfg);

typedef struct lfc_sb lfc_sb_t;

/* A scoreboard, or NULL with a one-line reason in err (a bad time unit, no memory). */
LFC_API lfc_sb_t *lfc_sb_create(const lfc_sb_cfg_t *cfg, char *err, size_t errlen);
/* Free a scoreboard; NULL is allowed. */
LFC_API void lfc_sb_destroy(lfc_sb_t *sb);

/*
 * Packet (flow, id) entered the device at time, on link/dir. Returns 0, or -1 (lfc_sb_error
 * says why) when max_outstanding packets are already outstanding or memory ran out; the packet
 * is then not recorded.
 */
LFC_API int lfc_sb_accept(lfc_sb_t *sb, uint64_t flow, uint64_t id, uint64_t time,
                          uint32_t link, uint32_t dir);

/* Packet (flow, id) left the device at time on link/dir. Returns 1 if it broke a rule (the
 * violation is recorded), else 0. Latency is counted for every packet delivered that was
 * outstanding (in order or not). */
LFC_API int lfc_sb_deliver(lfc_sb_t *sb, uint64_t flow, uint64_t id, uint64_t time,
                           uint32_t link, uint32_t dir);

/* The device dropped packet (flow, id) at time for cause. Returns 1 if it broke a rule (a cause
 * not allowed, a packet not outstanding), else 0. A drop of an outstanding packet retires it
 * whatever the cause. A cause >= LFC_DROP_CAUSES counts as not allowed. */
LFC_API int lfc_sb_drop(lfc_sb_t *sb, uint64_t flow, uint64_t id, uint64_t time, uint32_t link,
                        uint32_t dir, lfc_drop_cause_t cause);

/* The end: every packet still outstanding is lost (one sb-lost each, at time). Returns how
 * many. Later calls of accept, deliver and drop still work (a test may drain and finish
 * again). */
LFC_API uint64_t lfc_sb_finish(lfc_sb_t *sb, uint64_t time);

typedef struct {
  uint64_t accepted, delivered, lost;
  uint64_t dropped[LFC_DROP_CAUSES]; /* by cause, allowed or not */
  uint64_t dropped_other;            /* with a cause >= LFC_DROP_CAUSES */
  uint64_t outstanding;
  uint64_t flows;
  uint64_t latency_count; /* deliveries of outstanding packets */
  uint64_t latency_min, latency_max; /* in time units; 0 when latency_count is 0 */
  double latency_mean;
} lfc_sb_stats_t;

/* The scoreboard's totals so far into *st. */
LFC_API void lfc_sb_stats(const lfc_sb_t *sb, lfc_sb_stats_t *st);

/* Why the last call returned -1, or "". */
LFC_API const char *lfc_sb_error(const lfc_sb_t *sb);

/* Violations: counted in all and per rule; the first cfg.max_kept kept, in order; formatted as
 * lfc_check_format does. */
LFC_API uint64_t lfc_sb_violations(const lfc_sb_t *sb);
LFC_API uint64_t lfc_sb_count(const lfc_sb_t *sb, lfc_check_rule_t rule);
LFC_API const lfc_check_violation_t *lfc_sb_violation(const lfc_sb_t *sb, size_t i);
LFC_API char *lfc_sb_format(const lfc_sb_t *sb, size_t i, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* LFC_SCOREBOARD_H */
