/*
 * observer.h - the observer interface of a simulation: what the observers of a run (the
 * deadlock detector, deadlock.h) read of the fabric at a sample, without its wires and devices.
 *
 * sim_view (engine.h) fills a sim_view_t for a simulation; a unit test may fill one by hand
 * (sim/tests/test_deadlock.c) and set up any situation without an engine. Every function is
 * called between windows (at a sample), when every device has reached the sample's cycle.
 */
#ifndef LFC_SIM_OBSERVER_H
#define LFC_SIM_OBSERVER_H

#include <stddef.h>
#include <stdint.h>

#include "lfc/switch.h"


/* A packet a switch holds (sim_view_t.each_held): the switch, the input port it came in on, its
 * class there (after the cable's class map) and its destination address. */
typedef void (*sim_held_fn)(void *ctx, uint32_t sw, uint32_t in_port, uint32_t cls, uint16_t dst);

typedef struct {
  void *ctx;         /* the simulation, or a test's stand-in: the first argument of each */
  uint32_t nsw;      /* switches: node ids 0..nsw-1 */
  double cycle_ns;   /* nanoseconds per cycle */
  /*
   * The cable out of port `port` of switch sw: 1 with the switch it leads to (*to), its input
   * port there (*to_port) and the class a packet of class cls arrives in (*to_cls, through the
   * cable's class map, [classmap]); 0 if it leads to no switch (a host, an aggregation engine,
   * or no working cable).
   */
  int (*next_hop)(void *ctx, uint32_t sw, uint32_t port, uint32_t cls, uint32_t *to,
                  uint32_t *to_port, uint32_t *to_cls);
  /* The port switch sw sends destination address dst out of (its route table, SPEC §7.1;
   * explicit paths and the ECMP choice included), or LFC_MAX_PORTS without an entry. */
  uint32_t (*route)(void *ctx, uint32_t sw, uint16_t dst);
  /* fn for every packet a switch holds at cycle `at` (engine.h sim_view). */
  void (*each_held)(void *ctx, uint64_t at, sim_held_fn fn, void *fn_ctx);
  /* End the run at this sample (an observer's verdict, e.g. [sim] stop_on_deadlock). */
  void (*stop)(void *ctx);
  /* The name of node `node` into buf ("leaf3", "h12"; topology.h topo_name). */
  const char *(*name)(void *ctx, uint32_t node, char *buf, size_t len);
  /* The shape of the per-queue arrays (SIM_QIDX): more ports than any switch has (at most
   * LFC_MAX_PORTS), more classes than any packet a switch holds can be in (at most
   * LFC_MAX_CLASSES). Sized by the fabric, not by the maxima: 64 ports x 16 classes would be
   * 1 024 queues a switch where a k = 16 fat tree with one class has 16. */
  uint32_t qports, qclasses;
} sim_view_t;

/* Index of egress queue (switch s, port p, class c) in the per-queue arrays of the observers
 * (v a sim_view_t *): in (switch, port, class) order, so that a walk in index order visits the
 * queues in that order whatever the shape. */
#define SIM_QIDX(v, s, p, c) \
  (((size_t)(s) * (v)->qports + (p)) * (v)->qclasses + (c))
/* Queues of the per-queue arrays. */
#define SIM_NQ(v) ((size_t)(v)->nsw * (v)->qports * (v)->qclasses)

#endif /* LFC_SIM_OBSERVER_H */
