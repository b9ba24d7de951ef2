/*
 * lfc_traffic.h - the seeded traffic source of the star testbed (internal to the library; the
 * configuration is lfc_traffic_cfg_t of lfc/star.h).
 *
 * One source per node. Everything it decides comes from integer arithmetic and its own PRNG
 * (splitmix64), seeded from traffic.seed and the node index: the same configuration gives the
 * same packets on every machine.
 */
#ifndef LFC_TRAFFIC_H
#define LFC_TRAFFIC_H

#include "lfc/star.h"

typedef struct {
  uint64_t rng;       /* splitmix64 state */
  uint64_t next_time; /* cycle at which the next packet (or burst) is created; UINT64_MAX never */
  uint64_t acc;       /* remainder of the token arithmetic, in 1/load_permille cycles */
  uint32_t node;
  uint32_t ports;
  uint32_t speed_div; /* of the node's port: its line rate is one block per speed_div cycles */
  uint32_t nclasses;  /* set bits of class_mask */
  uint8_t classes[LFC_MAX_CLASSES]; /* the set bits of class_mask, ascending */
  bool active;                      /* false: this node sends nothing (the incast destination) */
} lfc_source_t;

/* Most packets one call of lfc_source_create makes (a burst). */
#define LFC_SOURCE_MAX_BURST 1024u

/* cfg must have passed lfc_star_cfg_check. */
void lfc_source_init(lfc_source_t *s, const lfc_traffic_cfg_t *cfg, uint32_t node, uint32_t ports,
                     uint32_t speed_div);

/*
 * The packets the source creates in cycle `now` (call it only when the node has handed all
 * earlier packets to its NIC): 0, 1, or burst_pkts of them, written to pkts (tag 0; the
 * testbed tags them). A source that was held back does not catch up: its next creation is
 * timed from `now`.
 */
uint32_t lfc_source_create(lfc_source_t *s, const lfc_traffic_cfg_t *cfg, uint64_t now,
                           lfc_pkt_t *pkts);

#endif /* LFC_TRAFFIC_H */
