/*
 * deadlock.h - deadlock detection on the wait-for graph of blocked egress queues, and the time
 * series the sampler records (occupancy, pauses) for --csv and --plot.
 *
 * At every sample cycle a queue (switch, port, class) is "blocked" when it holds data, started
 * no packet since the last sample, and was paused (PFC) or short of credits (IB) meanwhile. A
 * blocked queue waits for the queues of the next switch in the same class that are blocked too.
 * A cycle in that graph that is present at every sample for deadlock_us is a deadlock: reported
 * with its queues and the cycle at which it was first seen.
 */
#ifndef LFC_SIM_DEADLOCK_H
#define LFC_SIM_DEADLOCK_H

#include <stdint.h>
#include <stdio.h>

#include "engine.h"

typedef struct {
  uint32_t sw, port, cls;
} dl_queue_t;

typedef struct {
  /* per (switch, port, class) at the last sample */
  uint64_t *last_tx, *last_blk;
  uint8_t *blocked;
  /* the cycle being watched */
  dl_queue_t *cyc;
  uint32_t ncyc;
  uint64_t first_seen; /* SIM_NEVER when none */
  int found;
  uint64_t found_cycle; /* cycle the deadlocked cycle formed */
  uint64_t persist;     /* cycles */
  int qlen_reg;
  /* occupancy samples for percentiles: per (switch, port, class) */
  uint32_t **occ;
  size_t nq;
  uint32_t nsamples, capsamples;
  /* time series */
  FILE *csv_q, *csv_f;
  uint64_t *last_rx; /* per flow, for the throughput series */
} deadlock_t;

int deadlock_init(deadlock_t *dl, sim_t *sim, const char *csv_dir, char *err, size_t errlen);
void deadlock_sample(sim_t *sim, uint64_t cycle, void *ctx);
void deadlock_free(deadlock_t *dl);
/* Write the cycle as Graphviz dot to path. 0 or -1. */
int deadlock_dot(const deadlock_t *dl, const sim_t *sim, const char *path);

#endif /* LFC_SIM_DEADLOCK_H */
