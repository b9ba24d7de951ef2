/*
 * engine.h - the fabric: liblfc switches and end nodes joined by links, run cycle-exactly.
 *
 * Two ways to run, bit-identical by construction and by test (sim/tests/test_skip.sh):
 *  - step_all: every device is stepped in every cycle, words travel through lfc_link;
 *  - skip-ahead (default): each device sleeps until the next cycle where it can change anything
 *    (lfc_switch_next_event / lfc_nic_next_event, a flow's next packet, or a word arriving that a
 *    streaming packet does not explain), and jumps there with lfc_switch_advance /
 *    lfc_nic_advance. Devices are woken in (cycle, device) order from a calendar of the next
 *    SIM_CAL_SLOTS cycles and a heap for later wakes: conservative discrete-event simulation
 *    with the link delay (>= 1, SPEC §12.1) as lookahead.
 *
 * Skip-ahead runs on one or more threads (sc->threads, docs/sim.md "Threads"): with more than
 * one, the devices are split into lanes that the threads step, each lane at most `lookahead`
 * cycles ahead of the others; what crosses to another lane's device, or touches a flow or a
 * packet record, goes through channels between the lanes, records applied in (cycle, device)
 * order. Results are bit-identical for any number of threads.
 *
 * The simulation is an opaque object (engine.c): its observers and reports read it through
 * the functions below and the observer interface (observer.h), never its wires and devices.
 */
#ifndef LFC_SIM_ENGINE_H
#define LFC_SIM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "lfc/nic.h"
#include "lfc/switch.h"
#include "observer.h"
#include "scenario.h"
#include "topology.h"
#include "traffic.h"

typedef struct sim sim_t;

/*
 * The capture of one direction of a link (--pcap, pcapout.h): every word its sender put out that
 * was not IDLE or a packet's later block (those the receiver's tracker predicts), with the cycle
 * it left, in the order sent. Only the sender's lane appends; pcapout empties it at the samples
 * (with every lane stopped there) and at the end.
 */
typedef struct {
  uint64_t t;
  lfc_word_t w;
} sim_tapword_t;

typedef struct {
  sim_tapword_t *v;
  uint32_t n, cap;
} sim_tap_t;

/* Called at every sample cycle (time series, deadlock checks), after all devices reached it. */
typedef void (*sim_sample_fn)(sim_t *sim, uint64_t cycle, void *ctx);

/* Build the fabric of a loaded scenario (its devices split into sc->threads lanes, or one
 * with step_all): a new simulation, or NULL with err. sc must outlive it. */
sim_t *sim_create(const lfc_scenario_t *sc, char *err, size_t errlen);
/* Free sim and everything it made (NULL: nothing). */
void sim_destroy(sim_t *sim);

/* ---- Before the run ---- */

/* Call fn(sim, cycle, ctx) at every sample cycle ([sim] sample_us), with every lane stopped there
 * and every device brought to it: the observers of the run (time series, deadlock detection,
 * captures). */
void sim_observe(sim_t *sim, sim_sample_fn fn, void *ctx);
/* Hash the unpredicted link words for sim_digest (costs time: only when it is wanted). */
void sim_want_digest(sim_t *sim);
/* Capture the words sent towards port `port` of node `node` into tap (--pcap, pcapout.h), or
 * NULL: no longer. 0, or -1 out of memory. */
int sim_tap(sim_t *sim, uint32_t node, uint32_t port, sim_tap_t *tap);
/* Forget every capture (the taps themselves are the caller's). */
void sim_untap(sim_t *sim);

/* ---- The run ---- */

/* Run to sc->duration_us (all devices end at that cycle), or until an observer stops it. */
void sim_run(sim_t *sim);
/* From an observer: end the run at this sample (its results then end here). */
void sim_stop(sim_t *sim);
/*
 * The observer interface of sim (observer.h), for the observers of its samples (the deadlock
 * detector). Its each_held calls fn for every packet a switch holds at cycle `at` (its first
 * block reached the switch in a cycle before `at`, and has not left it), at a sample, when
 * every record of the steps before `at` is applied: it reads the packet records
 * only, in the order of source endpoint and tag index. Its stop is sim_stop.
 */
void sim_view(sim_t *sim, sim_view_t *view);
/* Word w, sent towards port `port` of node `node`, as that node takes it: in its own classes,
 * through the class map of the cable ([classmap]); a cable without one leaves w as it is. */
void sim_word_received(const sim_t *sim, uint32_t node, uint32_t port, lfc_word_t *w);
/* The first address (SPEC §7.1, routing.h) of the endpoint that sent the packet of `tag`. */
uint16_t sim_tag_source(const sim_t *sim, uint32_t tag);

/* ---- What the run leaves for its reports (results.h) ---- */

const lfc_scenario_t *sim_scenario(const sim_t *sim);
const topo_t *sim_topo(const sim_t *sim);
/* The flows, with their counters and latencies. */
const flows_t *sim_flows(const sim_t *sim);
/* The model of node `node`: its switch (NULL for an end node), its NIC (NULL for a switch). */
const lfc_switch_t *sim_switch(const sim_t *sim, uint32_t node);
const lfc_nic_t *sim_nic(const sim_t *sim, uint32_t node);
/* The counters of port `port` of switch `node` (lfc_switch_stats_copy) in *buf, which it
 * returns: the caller's buffer, the switch keeps none (lfc/switch.h); all zero if the switch
 * has no such port. */
const lfc_port_stats_t *sim_port_stats(const sim_t *sim, uint32_t node, uint32_t port,
                                       lfc_port_stats_t *buf);
/* 1 if port `port` of node `node` has a working cable. */
int sim_port_wired(const sim_t *sim, uint32_t node, uint32_t port);
/* The cycle the run ended at: the scenario's end, or earlier when an observer stopped it. */
uint64_t sim_end(const sim_t *sim);
double sim_cycle_ns(const sim_t *sim);
/* Directions of working cables (two per cable). */
uint32_t sim_wires(const sim_t *sim);
/* Bytes delivered to the hosts; device steps taken (docs/sim.md "Speed"). */
uint64_t sim_delivered_bytes(const sim_t *sim);
uint64_t sim_steps(const sim_t *sim);
/* The threads the run had (--threads, at most one a lane); with more than one, the cycles the
 * lanes stepped on together in *cycles, and in *alone those the leading thread stepped by
 * itself because sharing did not pay (crew.h). */
uint32_t sim_threads(const sim_t *sim, uint64_t *cycles, uint64_t *alone);
/* Scoreboard errors, and the first one's message ("" without); step_all's rebuilt words that
 * differ from lfc_link (0 unless the engine is wrong). */
uint64_t sim_errors(const sim_t *sim);
const char *sim_error(const sim_t *sim);
uint64_t sim_link_mismatch(const sim_t *sim);
/* 1 if the run stopped out of memory (sim_error says where): its results are void. */
int sim_oom(const sim_t *sim);
/* Bytes a word in flight takes in a wire's ring (estimate.c): with its cycle. */
size_t sim_ring_word_bytes(void);
/* A digest of everything observable: counters of every switch and node, flows, link words
 * (sim_want_digest before the run). */
uint64_t sim_digest(const sim_t *sim);

#endif /* LFC_SIM_ENGINE_H */
