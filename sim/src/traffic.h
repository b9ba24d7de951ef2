/*
 * traffic.h - flows: what each host sends, when, at what rate, and after which other flows
 * (collectives are flows with dependencies: a step starts when the data it needs has arrived).
 */
#ifndef LFC_SIM_TRAFFIC_H
#define LFC_SIM_TRAFFIC_H

#include <stdint.h>

#include "latsum.h"
#include "scenario.h"
#include "topology.h"

#define FLOW_ANY_DST UINT32_MAX /* uniform: a random destination per packet */
#define SIM_NEVER UINT64_MAX
#define FLOW_MAX_HOPS 16u /* switches on a path (SC_MAX_PATH_NODES) */
#define FLOW_GATE 0x80000000u /* in flow_t.succ and gate_t.succ: gate (id & ~FLOW_GATE) */

typedef struct {
  uint32_t group;
  uint32_t src, dst;      /* hosts; dst FLOW_ANY_DST for uniform */
  uint8_t cls, nblk, ecn; /* nblk: full-size packet */
  uint8_t dcqcn;
  uint16_t pkt_bytes;     /* a full-size packet's bytes (packet_bytes; nblk = ceil(/64)) */
  uint8_t lead;           /* packets offered ahead of the pacing at the start (traffic.c) */
  uint64_t bytes;         /* 0 = until stop */
  uint64_t start, stop;   /* cycles; stop SIM_NEVER = end of run */
  uint64_t on, off;       /* cycles; off 0 = always on */
  uint64_t interval_x1024; /* cycles per full packet at the offered load, x1024 */
  uint32_t deps_left;     /* flows (and gates) that must complete before this one starts */
  uint32_t *succ, nsucc;  /* flows (and gates, FLOW_GATE) waiting for this one */
  uint8_t gated;          /* 1: starts at the latest of what its predecessors allow (ddp) */
  uint64_t gate_ready;    /* gated: the latest start a predecessor allowed so far, cycles */
  uint32_t step;          /* pattern ddp: its training step (0 otherwise) */
  /* sender state */
  uint64_t next_x1024;    /* when the next packet is due, x1024 cycles */
  uint64_t offered_bytes, offered_pkts; /* handed to the source NIC's transmit FIFO */
  uint64_t wire_bytes, wire_pkts;       /* put on the wire: first block out of the source NIC */
  uint64_t rng;
  uint32_t rate_ppm;      /* DCQCN current rate, ppm of line rate (1e6 = no limit) */
  /* DCQCN (dcqcn.h): reaction point at the source, notification point at the destination */
  double dc_rc, dc_rt, dc_alpha;  /* current and target rate (fractions of line), alpha */
  uint32_t dc_tstage, dc_bstage;
  uint64_t dc_bytes;              /* sent since the last byte-counter event */
  uint64_t dc_alpha_at, dc_inc_at; /* next alpha / rate-increase timer, SIM_NEVER before a CNP */
  uint64_t dc_dec_at;             /* next rate-decrease check with a CNP pending, or SIM_NEVER */
  uint64_t dc_dec_base;           /* the decrease checks' grid: this cycle + k x decrease period */
  uint8_t dc_alpha_cnp, dc_dec_cnp; /* a CNP since the last alpha update / decrease check */
  uint64_t *dc_cnp;               /* arrival cycles of CNPs on their way, a ring */
  uint32_t dc_head, dc_n;
  uint64_t dc_np_last;            /* NP: cycle of the last CNP made, SIM_NEVER if none */
  uint64_t dc_cnps;               /* CNPs received by the RP */
  /* receiver side */
  uint64_t rx_bytes, rx_pkts, drops, ce;
  uint64_t out_of_order;  /* packets delivered after a later one of the flow (fixed dst only) */
  uint32_t rx_seq_hi;     /* the highest packet number delivered (mod 2^32), once rx_pkts > 0 */
  uint64_t first_tx, done_cycle; /* SIM_NEVER until known */
  latsum_t lat;           /* latency samples, cycles (bounded: latsum.h) */
  /* per hop: time in the switch, first block in to first block out, cycles (docs/sim.md) */
  latsum_t hlat[FLOW_MAX_HOPS];
  uint32_t hop_sw[FLOW_MAX_HOPS]; /* the switch of the first sample at that hop */
  uint32_t nhops;
} flow_t;

/*
 * A gate: a point in time that flows (and other gates) wait for, not a transfer. It opens at
 * the latest of `ready` (as built) and the cycle after each predecessor flow completed, once
 * every predecessor did; each successor may start `delay[i]` cycles after that. Pattern ddp
 * (traffic.c) makes them: a rank's step begins when its last bucket of the previous step is
 * all-reduced, and a bucket is released a part of the compute later.
 */
typedef struct {
  uint32_t deps_left;
  uint64_t ready;      /* cycles */
  uint32_t *succ;      /* flow ids, or FLOW_GATE | gate id */
  uint64_t *delay;     /* per successor, cycles */
  uint32_t nsucc;
} gate_t;

typedef struct {
  flow_t *f;
  uint32_t n;
  gate_t *gate;
  uint32_t ngates;
  uint32_t **by_host;  /* flows each host sends, ascending id */
  uint32_t *nby_host;
} flows_t;

int flows_build(const lfc_scenario_t *sc, const topo_t *t, flows_t *fl, char *err, size_t errlen);
void flows_free(flows_t *fl, uint32_t nhosts);

/* xorshift64* (Vigna 2016): the simulator's only random source, seeded per flow. */
static inline uint64_t sim_rand(uint64_t *s) {
  uint64_t x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545F4914F6CDD1Dull;
}

#endif /* LFC_SIM_TRAFFIC_H */
