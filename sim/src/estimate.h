/*
 * estimate.h - how much memory (and, roughly, time) a scenario's run will take, computed from
 * the fabric's size before anything large is built, so that a fabric too large for the machine
 * is refused at once instead of failing after minutes (docs/sim.md "Memory").
 *
 * The estimate sums what the simulator allocates per switch port, per host, per route entry,
 * per queue (sampler and deadlock detector) and per flow (docs/sim.md "Memory" has the table);
 * the model's switch and end node are taken at what a run touches with the SPEC §3 default
 * buffers, measured (at most 30 % above the peak RSS of the runs measured). The time is a rough
 * guess from a typical speed of the simulator.
 */
#ifndef LFC_SIM_ESTIMATE_H
#define LFC_SIM_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

#include "scenario.h"

/* Bytes per switch port and per end node that a run touches: the model's state (SPEC §3
 * default buffers) with its wire and calendar, and a node's transmit FIFO and packet records.
 * Fitted to the peak RSS of runs on x86-64 (fat trees k = 16, 24 and 32 under permutation for
 * 20 us: 39, 142 and 327 MiB; k = 16 for 1 ms, its FIFOs full: 67 MiB; docs/perf-log.md
 * 2026-12-04 evening), above each by 24-35 % (a k = 8 fat tree, 8.7 MiB: 3 %). A port's state
 * is about 2.2 KB (lfc_port_t 1 KB, its counters, wire and event log); its descriptor pool is
 * a mapping of its own, touched only as far as the packets it holds. */
#define EST_MODEL_PORT_BYTES 3072u
/* The program itself: its code, libraries, stacks (a run refused at its first line peaks at
 * 2 MB) */
#define EST_PROCESS_BYTES (3u << 20)
#define EST_MODEL_NIC_BYTES 24576u
/* The simulator's own per port (wire_t, the device's port arrays) and per device (device_t,
 * its place in each lane's wake-up calendar and heap: 40 bytes a lane) */
#define EST_SIM_PORT_BYTES 256u
#define EST_SIM_DEVICE_BYTES 128u
#define EST_LANE_DEVICE_BYTES 40u
/* Sampler and deadlock detector per queue slot (sampler.h, deadlock.h): nsw * the most ports of
 * a switch * the classes (observer.h SIM_NQ) slots of 62 bytes (the wait-for graph's table of
 * what each input holds: 12) */
#define EST_QUEUE_BYTES 62u
/* Latency series per flow assumed: end to end and three switches (latsum.h); of each, its
 * samples (2 bytes, to LATSUM_RAW) or, past that, EST_COUNTED_BYTES of buckets (one a cycle
 * to 4 096 cycles, 2 bytes a count: up to 65 535 samples in one) */
#define EST_SERIES_PER_FLOW 4u
#define EST_COUNTED_BYTES 8192u
/* Device-port cycles simulated per second of wall time, for the rough time: make bench-sim
 * measures 1.4e7 on a lightly loaded fat tree; a loaded star runs at 2.5e6. */
#define EST_PORT_CYCLES_PER_S 1e7
/* Seconds of set-up (topology, routes, devices) per switch port and per route entry (switch x
 * endpoint), fitted to fat trees k = 16 to 40 (0.55 s to 12.4 s) on the machine of docs/sim.md
 * "Speed"; a k = 62 fat tree (60,000 hosts) took over two minutes. */
#define EST_SETUP_S_PER_PORT 1e-4
#define EST_SETUP_S_PER_ROUTE 1.4e-7

/* The largest --max-memory-mb: 1 PiB. */
#define EST_MAX_MEMORY_MB (1ull << 30)

typedef struct {
  uint64_t switches, hosts, endpoints, switch_ports, flows;
  uint64_t bytes;  /* the memory estimate */
  double setup_seconds, seconds; /* rough wall time of the set-up and of the run */
} sim_estimate_t;

/*
 * Build the scenario's topology (cheap: its size is what is estimated), count the flows of its
 * traffic groups without making them, and fill e. 0, or -1 with err (a topology that does not
 * build, or out of memory).
 */
int sim_estimate(const lfc_scenario_t *sc, sim_estimate_t *e, char *err, size_t errlen);

/* The default --max-memory-mb: three quarters of the physical memory (0 if unknown). */
uint64_t sim_default_memory_limit_mb(void);

#endif /* LFC_SIM_ESTIMATE_H */
