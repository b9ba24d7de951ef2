/*
 * lfc/star.h - a testbed: one switch, one end node (lfc/nic.h) on every port, a link of fixed
 * delay in each direction, a seeded traffic source and a scoreboard.
 *
 * It is what the demonstration (`make run`), the property tests, the golden vectors and the
 * benchmark drive. Everything is deterministic from the configuration and seed.
 */
#ifndef LFC_STAR_H
#define LFC_STAR_H

#include "lfc/export.h"

#include "lfc/link.h"
#include "lfc/nic.h"
#include "lfc/switch.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  LFC_TRAFFIC_UNIFORM = 0, /* every node sends to uniformly random other nodes */
  LFC_TRAFFIC_INCAST,      /* nodes other than incast_dst send to incast_dst (N:1) */
  LFC_TRAFFIC_PERMUTATION, /* node i sends to (i + 1) mod N */
  LFC_TRAFFIC_HOTSPOT,     /* like UNIFORM, but hotspot_pct % of packets go to incast_dst */
  LFC_TRAFFIC_PATTERNS
} lfc_traffic_pattern_t;

typedef struct {
  lfc_traffic_pattern_t pattern;
  uint32_t load_permille;  /* offered load per sender, 1..1000 of its line rate */
  uint32_t min_nblk;       /* packet sizes uniform in [min_nblk, max_nblk] */
  uint32_t max_nblk;
  uint32_t class_mask;     /* classes used, uniformly among the set bits */
  uint32_t incast_dst;
  uint32_t hotspot_pct;
  uint32_t ecn_capable_pct; /* share of packets sent ECT(0) */
  uint32_t burst_pkts;     /* > 0: on/off, bursts of this many back-to-back packets */
  uint64_t stop_cycle;     /* no new packets from this cycle on; 0 = never */
  uint64_t seed;
} lfc_traffic_cfg_t;

/* The traffic defaults: uniform, 50 % load, 1..65 blocks, class 0 only, no ECN-capable packets,
 * no bursts, never stopping, seed 1. */
LFC_API void lfc_traffic_cfg_default(lfc_traffic_cfg_t *cfg);

typedef struct {
  lfc_switch_cfg_t sw;
  lfc_nic_cfg_t nic;      /* the same for every node, but node p runs at sw.speed_div[p] */
  uint32_t link_delay;    /* cycles, each direction */
  lfc_traffic_cfg_t traffic;
} lfc_star_cfg_t;

/* A consistent testbed for mode/ports/classes: SPEC defaults, link delay 1, uniform traffic. */
LFC_API void lfc_star_cfg_default(lfc_star_cfg_t *cfg, lfc_mode_t mode, uint32_t ports,
                                  uint32_t classes);
/* 0 if cfg is legal, else -1 with a one-line reason in err (the switch's, a node's, the
 * traffic's or the link's field out of range). */
LFC_API int lfc_star_cfg_check(const lfc_star_cfg_t *cfg, char *err, size_t errlen);

typedef struct lfc_star lfc_star_t;

/* A testbed for cfg: the switch, a node and two links per port, the traffic and the scoreboard;
 * NULL with a one-line reason in err (an illegal cfg, no memory). */
LFC_API lfc_star_t *lfc_star_create(const lfc_star_cfg_t *cfg, char *err, size_t errlen);
/* Free the testbed and everything in it; NULL is allowed. */
LFC_API void lfc_star_destroy(lfc_star_t *star);

/* Run one cycle / n cycles. */
LFC_API void lfc_star_step(lfc_star_t *star);
LFC_API void lfc_star_run(lfc_star_t *star, uint64_t cycles);

/* The cycles run; the testbed's switch; the node on port (NULL out of range): borrowed, owned
 * by the testbed. */
LFC_API uint64_t lfc_star_cycle(const lfc_star_t *star);
LFC_API lfc_switch_t *lfc_star_switch(lfc_star_t *star);
LFC_API lfc_nic_t *lfc_star_nic(lfc_star_t *star, uint32_t port);

/*
 * The scoreboard. Every packet the sources created is, at any time, exactly one of: waiting in
 * a node, in flight, delivered, or dropped (with a counted cause). Delivered packets must arrive
 * once, unmodified but for ECN marking, and in order per (source, destination, class).
 */
typedef struct {
  uint64_t created, delivered, dropped;
  uint64_t delivered_blocks;
  uint64_t errors; /* duplicates, reordering, unknown tags, corrupted fields */
  uint64_t latency_max; /* sop sent by source node to sop received, cycles */
  uint64_t latency_sum;
  uint64_t max_buffered_blocks; /* largest total held by the switch in any cycle */
} lfc_score_t;

/* The scoreboard's counts so far (borrowed: owned by the testbed). */
LFC_API const lfc_score_t *lfc_star_score(const lfc_star_t *star);

/* First scoreboard error as text ("" if none). */
LFC_API const char *lfc_star_error(const lfc_star_t *star);

/*
 * The switch's input and output words of the last cycle stepped (cfg.sw.ports entries each;
 * all IDLE before the first step). Valid until the next step. For traces (cmodel/tools).
 */
LFC_API void lfc_star_last_words(const lfc_star_t *star, const lfc_word_t **sw_in,
                                 const lfc_word_t **sw_out);

#ifdef __cplusplus
}
#endif

#endif /* LFC_STAR_H */
