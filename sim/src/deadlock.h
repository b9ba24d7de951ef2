/*
 * deadlock.h - deadlock detection on the wait-for graph of blocked egress queues (docs/sim.md
 * "Deadlock detection").
 *
 * At every sample cycle the sampler (sampler.h) marks a queue (switch, port, class) "blocked"
 * when it holds data, started no packet since the last sample, and was paused (PFC) or short
 * of credits (IB) meanwhile. A blocked queue Q whose cable leads to switch n (in on port pp, in
 * class c2 after the cable's class map) is stopped by n's buffer for (pp, c2): the PFC priority
 * group or the VL's receive buffer. It frees only when a packet held there leaves n, by the port
 * its route gives (routes.table[n][dst]). So Q waits for exactly n's egress queues (port
 * route[dst], class c2) of the packets n holds that came in on pp in class c2 — from the
 * simulator's own record of each packet's last hop (observer.h each_held) — when they are
 * blocked too. Every wait is two consecutive hops of one packet, an edge of the channel
 * dependency graph, so routes without a cycle there (up*-down*, fat trees) never show one; and a
 * queue stopped for good is stopped by occupants stopped for good, so every deadlock has a cycle.
 * A cycle of waits present at every sample for deadlock_us (its queues blocked, each waiting for
 * the next) is a deadlock: reported with its queues and the cycle at which it was first seen.
 *
 * The detector reads the fabric only through the observer interface (observer.h: where each
 * cable leads and its class map, the route tables, the packets held), never its wires and
 * devices.
 */
#ifndef LFC_SIM_DEADLOCK_H
#define LFC_SIM_DEADLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "observer.h"
#include "scenario.h"

/* deadlock_t.first_seen when no cycle is watched. */
#define DL_NONE UINT64_MAX

typedef struct {
  uint32_t sw, port, cls;
} dl_queue_t;

typedef struct {
  sim_view_t view;      /* the fabric watched */
  int stop_on_deadlock; /* [sim] stop_on_deadlock: view.stop once found */
  size_t nq; /* queues: SIM_NQ(&view) (observer.h SIM_QIDX) */
  /* the cycle being watched */
  dl_queue_t *cyc;
  uint32_t ncyc;
  uint64_t first_seen; /* DL_NONE when none */
  int found;
  uint64_t found_cycle; /* cycle the deadlocked cycle formed */
  uint64_t persist;     /* cycles */
  /* the search's scratch, allocated once */
  uint8_t *color;
  size_t *stack;
  /* per switch input (switch, port, class), at the sample being checked: a bit per egress port
     that one of the packets it holds takes (view.each_held); touched lists the non-zero ones */
  uint64_t *need;
  uint32_t *touched, ntouched;
} deadlock_t;

/* Allocate for the fabric of `view` (kept), with the scenario's [sim] deadlock_us and
 * stop_on_deadlock. 0, or -1 with err (deadlock_free it then). */
int deadlock_init(deadlock_t *dl, const lfc_scenario_t *sc, const sim_view_t *view, char *err,
                  size_t errlen);
/* Look for a cycle among the queues blocked at this sample (blocked: per queue, nq); after
 * deadlock_us of it, found (and view.stop with [sim] stop_on_deadlock). */
void deadlock_check(deadlock_t *dl, uint64_t cycle, const uint8_t *blocked);
void deadlock_free(deadlock_t *dl);
/* Write the cycle as Graphviz dot to path (outfile.h: whole or not at all). 0, or -1 with
 * err naming the path. */
int deadlock_dot(const deadlock_t *dl, const char *path, char *err, size_t errlen);

#endif /* LFC_SIM_DEADLOCK_H */
