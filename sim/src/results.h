/*
 * results.h - what a run produced, summed and sorted for the outputs (stdout, JSON, plots).
 */
#ifndef LFC_SIM_RESULTS_H
#define LFC_SIM_RESULTS_H

#include <stdio.h>

#include "deadlock.h"
#include "engine.h"
#include "sampler.h"

/*
 * Bytes are counted three ways (docs/sim-json.md): offered (handed to the source NIC's transmit
 * FIFO), on the wire (the packet's first block left the source NIC) and delivered (admitted by
 * the destination). Paused and credit-starved cycles are summed over every transmit queue that
 * can stop: switch egress queues (port, class) and end nodes' classes (hosts and aggregation
 * engines), the latter also apart.
 */
typedef struct {
  uint64_t sim_cycles, delivered_bytes, drops, drops_by_cause[LFC_DROP_CAUSES], nic_drops;
  uint64_t offered_bytes, wire_bytes;
  uint64_t pause_frames, ecn_marks, wd_trips, credit_blocked_cycles, paused_cycles;
  uint64_t host_credit_blocked_cycles, host_paused_cycles; /* the end nodes' part of the above */
  uint64_t flows_done, flows;
  uint64_t out_of_order, out_of_order_flows; /* packets delivered after a later one of their
                                                flow, and the flows that had any */
  double wall_seconds, sim_us;
  int deadlock;
  uint64_t deadlock_cycle;
  uint64_t max_fct_cycle; /* last completion among finished flows (collective time) */
} summary_t;

/* A traffic group: its flows complete, and the time from its start to its last completion. */
typedef struct {
  uint32_t flows;
  int complete;
  double time_us;
  double mfu; /* compute / (compute + time): the step's compute and communication in series;
                 ddp: steps x compute / time */
} group_result_t;

void results_group(const sim_t *sim, uint32_t group, group_result_t *r);

/*
 * The training steps of a ddp group (docs/sim.md "Training steps with overlap"). Step s ends at
 * the last completion of its flows (end); its time is from the end of step s - 1 (the group's
 * start for step 0); comm is the time in which one or more of its flows had started and not
 * completed (the union of their [start, completion] intervals); exposed = time - compute, the
 * communication the compute did not hide; MFU = compute / time.
 */
typedef struct {
  int complete; /* every flow of the step (and of the steps before) completed */
  double end_us, time_us, comm_us, exposed_us, mfu;
} step_result_t;

typedef struct {
  uint32_t nsteps, ncomplete; /* steps, and how many of them completed */
  step_result_t *step;        /* nsteps, malloc'd: results_ddp_free */
  double compute_us;          /* per step */
  double time_p50_us, time_p99_us, time_max_us; /* over the complete steps (nearest rank) */
} ddp_result_t;

/* 0, or -1 out of memory (r is then empty). */
int results_ddp(const sim_t *sim, uint32_t group, ddp_result_t *r);
void results_ddp_free(ddp_result_t *r);
void results_summary(const sim_t *sim, const deadlock_t *dl, double wall, summary_t *sum);
/* p in [0, 100]: the nearest-rank percentile of the flow's latency samples, in cycles (exact up
 * to LATSUM_RAW samples or below LATSUM_EXACT cycles, else within 0.2 %: latsum.h). */
uint64_t results_flow_latency(const flow_t *f, double p);
/* The same of the time its packets spent in the switch of hop `hop` (0 = first). */
uint64_t results_hop_latency(const flow_t *f, uint32_t hop, double p);
/* A flow's delivered rate, Gb/s: its bytes over the time from its first packet sent to its
 * completion (or the end of the run); 0 before it sends. */
double results_flow_gbps(const sim_t *sim, const flow_t *f);
/* Jain's fairness index of the flows' rates (Jain, Chiu and Hawe 1984): (sum x)^2 / (n sum x^2),
 * 1 for equal shares, 1/n when one flow has everything; over the n flows that sent; 0 if none. */
double results_jain(const sim_t *sim, uint32_t *n);

/* How the flow table on stdout is shown: rows (0 = all) and order (cli.h cli_sort_t). */
typedef struct {
  uint32_t rows;
  int sort;
} results_view_t;

void results_print(FILE *out, const sim_t *sim, const deadlock_t *dl, const summary_t *sum,
                   const results_view_t *view);
/* Write the --json file (docs/sim-json.md) whole or not at all (outfile.h). 0, or -1 with a
 * one-line err naming the path. */
int results_json(const char *path, const sim_t *sim, const deadlock_t *dl, const sampler_t *sp,
                 const summary_t *sum, char *err, size_t errlen);

#endif /* LFC_SIM_RESULTS_H */
