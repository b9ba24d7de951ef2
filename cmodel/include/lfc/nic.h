/*
 * lfc/nic.h - an end node (host NIC), the switch's link partner (docs/SPEC.md §12.2).
 *
 * It sends the packets it is given, obeying IB credits (SPEC §5.3) or PFC pauses (SPEC §6.7),
 * and receives packets into a draining buffer, returning credits (SPEC §5.4, §5.5) or sending
 * pause frames (SPEC §6.5, §6.6). Tests, co-simulation and the fabric simulator all use it, so the
 * switch always meets the same peer.
 */
#ifndef LFC_NIC_H
#define LFC_NIC_H

#include "lfc/export.h"

#include "lfc/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  lfc_mode_t mode;
  uint32_t classes;      /* IB 1..15 data VLs, PFC 1..8 priorities */
  uint32_t speed_div;    /* 1..16 */
  uint32_t mtu_blocks;   /* 1..255: largest packet it may be given */
  uint32_t tx_fifo_pkts; /* per class, 1..65536 */
  uint32_t rx_blocks;    /* receive buffer per class, 0 = unlimited */
  uint32_t drain_div;    /* one block drains every drain_div cycles, 0 = at once */
  /* IB */
  uint32_t fcp_period;   /* 1..65535 */
  uint32_t fcp_holdoff;  /* 0..65535: FCPs coalesced as the switch's (SPEC §5.5) */
  /* PFC (receive side); require rx_blocks > 0 to pause, and rx_xon < rx_xoff <= rx_blocks */
  uint32_t rx_xoff;
  uint32_t rx_xon;
  uint32_t pause_quanta;   /* 1..65535 */
  uint32_t refresh_cycles; /* 1..pause_quanta-1 */
  uint32_t response_cycles; /* R of SPEC §12.2, 0..65535 */
  uint32_t wire_time;       /* 0/1: line time in bytes, SPEC §2.4 and §12.2 */
  uint32_t response_jitter; /* J of SPEC §12.2, 0..65535: a pause applies R + 0..J cycles late */
  uint32_t seed;            /* of the jitter's draws (SPEC §12.2) */
} lfc_nic_cfg_t;

/* Defaults: unlimited, instantly draining receive buffer, 1024-packet FIFOs, R = 0. */
LFC_API void lfc_nic_cfg_default(lfc_nic_cfg_t *cfg, lfc_mode_t mode, uint32_t classes);

/* 0 if legal, else -1 and one line in err naming the parameter, its value and what is allowed. */
LFC_API int lfc_nic_cfg_check(const lfc_nic_cfg_t *cfg, char *err, size_t errlen);

typedef struct lfc_nic lfc_nic_t;

/*
 * Called for every packet the NIC receives whole-heartedly (admitted), at its first block:
 * word is that first block (tag, cls, ecn as received), cycle the cycle it arrived.
 */
typedef void (*lfc_nic_rx_fn)(void *ctx, const lfc_word_t *word, uint64_t cycle);

/* An end node for cfg (SPEC §12.2), or NULL with a one-line reason in err (a configuration out
 * of range, no memory). */
LFC_API lfc_nic_t *lfc_nic_create(const lfc_nic_cfg_t *cfg, char *err, size_t errlen);
/* Free an end node; NULL is allowed. */
LFC_API void lfc_nic_destroy(lfc_nic_t *nic);
/* Back to the state after create: cycle 0, queues empty, counters and statistics zero. */
LFC_API void lfc_nic_reset(lfc_nic_t *nic);
/* Call fn(ctx, word, cycle) for each packet the node receives (its first block); NULL: none. */
LFC_API void lfc_nic_set_rx_callback(lfc_nic_t *nic, lfc_nic_rx_fn fn, void *ctx);

/*
 * Queue a packet to send. Returns 0, or -1 if its class FIFO is full or the packet is illegal
 * (class, nblk outside 1..mtu_blocks, pad >= 64); nothing is queued then.
 */
LFC_API int lfc_nic_send(lfc_nic_t *nic, const lfc_pkt_t *pkt);

/* Packets waiting to start in class cls. */
LFC_API uint32_t lfc_nic_backlog(const lfc_nic_t *nic, uint32_t cls);

/* One cycle, like lfc_switch_step for a one-port device. in may be NULL (IDLE). */
LFC_API void lfc_nic_step(lfc_nic_t *nic, const lfc_word_t *in, lfc_word_t *out);

/* Skip-ahead, with the same contract as lfc_switch_next_event / lfc_switch_advance. */
LFC_API uint64_t lfc_nic_next_event(const lfc_nic_t *nic);
LFC_API void lfc_nic_advance(lfc_nic_t *nic, uint64_t to);

/* The cycles stepped (or advanced over) since create or reset. */
LFC_API uint64_t lfc_nic_cycle(const lfc_nic_t *nic);

typedef struct {
  uint64_t tx_pkts, tx_blocks, rx_pkts, rx_blocks;
  uint64_t drop_pkts[LFC_DROP_CAUSES];
  uint64_t fcp_tx, fcp_rx, pfc_tx, pfc_rx;
  uint64_t xoff_tx, xon_tx, pause_rx, resume_rx;
  uint64_t paused_cycles;         /* summed over classes */
  uint64_t credit_blocked_cycles; /* summed over classes */
  uint64_t peak_rx_blocks;        /* receive buffer, any class */
} lfc_nic_stats_t;

/* The node's statistics since create or reset (borrowed: valid until the next step or reset). */
LFC_API const lfc_nic_stats_t *lfc_nic_stats(const lfc_nic_t *nic);

#ifdef __cplusplus
}
#endif

#endif /* LFC_NIC_H */
