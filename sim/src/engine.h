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
 */
#ifndef LFC_SIM_ENGINE_H
#define LFC_SIM_ENGINE_H

#include <stdint.h>

#include "lfc/link.h"
#include "lfc/nic.h"
#include "lfc/switch.h"
#include "dcqcn.h"
#include "routing.h"
#include "scenario.h"
#include "topology.h"
#include "traffic.h"

/* Bytes of a cache line: wire_t keeps what each end reads in a line of its own. */
#define SIM_CACHE_LINE 64u

/* What a receiver expects on a link when nothing new happens: the rest of a packet (SPEC §2.1). */
typedef struct {
  lfc_word_t tmpl; /* continuation block of the packet in flight */
  uint16_t rem;    /* blocks still to come (< nblk <= 255) */
  uint8_t k;       /* the link's speed divider (1..16): blocks are k cycles apart */
  uint64_t next;   /* cycle of its next block */
} track_t;

typedef struct {
  uint64_t t;
  lfc_word_t w;
} sig_t;

/*
 * One direction of a cable. A fabric has thousands, and each is read at both ends in different
 * device steps, so the receiver's fields fill the first cache line, the sender's the second,
 * and the rest (read when a word is not predicted, or for reports) the third (docs/sim.md
 * "Speed"). The array is allocated aligned to a line (sim_create).
 */
typedef struct {
  /* ---- receiver (take_input) ---- */
  _Alignas(SIM_CACHE_LINE) track_t rx;
  uint32_t head, n; /* ring: the oldest unpredicted word in flight, how many */
  uint8_t has_map;  /* [classmap]: DATA arrives in class cmap[cls] (docs/sim.md) */
  /* ---- sender (give_output) ---- */
  _Alignas(SIM_CACHE_LINE) track_t tx;
  sig_t *ring; /* words the tracker does not predict, in flight: at most delay */
  uint32_t cap, delay;
  /* ---- the rest ---- */
  _Alignas(SIM_CACHE_LINE) uint32_t from, from_port, to, to_port;
  lfc_link_t *link; /* step_all only: the reference link */
  uint64_t digest;  /* of every word that differs from the prediction, with its cycle */
  uint8_t cmap[LFC_MAX_CLASSES];
} wire_t;

typedef struct {
  uint8_t is_host;
  uint32_t nports;
  lfc_switch_t *sw;
  lfc_nic_t *nic;
  uint32_t *in_wire, *out_wire; /* per port, UINT32_MAX = unconnected */
  uint64_t connected;           /* ports with a working link (LFC_MAX_PORTS = 64) */
  uint64_t rx_busy;             /* input ports whose link has a packet or words in flight */
  uint64_t rx_queued;           /* input ports whose link has unpredicted words queued */
  uint64_t tx_busy;             /* output ports with a packet in flight (tracker rem > 0) */
  uint64_t *tx_end;             /* per port in tx_busy: the cycle after its packet's last block */
  uint64_t wake;                /* next cycle to process, SIM_NEVER = none */
  uint32_t heap_pos;            /* index in the heap, UINT32_MAX = in the calendar (engine.c) */
  uint32_t rr;                  /* host: round robin over its flows */
  uint64_t nic_drops_seen;
} device_t;

typedef struct {
  uint32_t flow;
  uint32_t bytes;
  uint64_t send_cycle; /* node put out its first block; SIM_NEVER before */
  uint64_t arrive;     /* its first block reached the switch it is in now */
  uint32_t hop;        /* switches it has left */
} slot_t;

typedef struct sim sim_t;

/* Cycles the wake-up calendar spans (a power of two, a multiple of 64): most wakes are a link
 * delay or a packet's blocks ahead; later ones go to the heap. */
#define SIM_CAL_SLOTS 256u

/* Called at every sample cycle (time series, deadlock checks), after all devices reached it. */
typedef void (*sim_sample_fn)(sim_t *sim, uint64_t cycle, void *ctx);

struct sim {
  const lfc_scenario_t *sc;
  topo_t topo;
  routes_t routes;
  flows_t flows;
  device_t *dev;
  uint32_t ndev;
  /* Wires by receiver: the wire into port p of device d is wire[out_base[d] + p], so that the
   * wires a device reads in a step lie together (slots of unconnected ports stay unused). */
  wire_t *wire;
  uint32_t nwire;       /* wires (working cables x 2) */
  uint32_t *wire_order; /* their indices in the order of the topology's links (digest) */
  uint64_t now, end;
  int step_all;
  /* wake-up queue by (wake, id) (engine.c): a calendar of SIM_CAL_SLOTS cycles from cal_now,
   * one bitmap of devices per cycle, and a heap of packed keys for later wakes */
  uint64_t *heap;
  uint32_t nheap;
  uint64_t *cal;     /* SIM_CAL_SLOTS x cal_words: devices waking in the slot's cycle */
  uint32_t cal_words;
  uint32_t *cal_n;   /* per slot: devices in it */
  uint32_t *cal_lo;  /* per slot: no device below this bitmap word */
  uint64_t cal_busy[SIM_CAL_SLOTS / 64u]; /* slots with devices */
  uint64_t cal_now;  /* the calendar holds wakes in [cal_now, cal_now + SIM_CAL_SLOTS) */
  /* packets in flight, by tag */
  slot_t *slot;
  uint32_t nslot, capslot, *free_slot, nfree;
  /* scratch */
  lfc_word_t *in, *out, *outs_all; /* outs_all: step_all, per device port */
  uint32_t *out_base;
  /* results */
  uint64_t errors, link_mismatch, events_processed, steps;
  char error[256];
  uint64_t deliv_bytes, drops_sw, drops_nic;
  double cycle_ns;
  /* sampling */
  uint64_t sample_every, next_sample;
  sim_sample_fn sample_fn;
  void *sample_ctx;
  void *rx_ctx; /* per host: the node's delivery callback context */
  int stop; /* set by a sample callback to end the run early */
  dcqcn_cfg_t dcqcn;
  int want_digest; /* hash the unpredicted link words (sim_digest); set before sim_run */
};

/* Build the fabric of a loaded scenario. 0 or -1 with err. */
int sim_create(sim_t *sim, const lfc_scenario_t *sc, char *err, size_t errlen);
void sim_destroy(sim_t *sim);
/* Run to sc->duration_us (all devices end at that cycle). */
void sim_run(sim_t *sim);
/* Bring every device to cycle `to` (no device may be behind a pending event before it). */
void sim_sync(sim_t *sim, uint64_t to);
/* A digest of everything observable: counters of every switch and node, flows, link words. */
uint64_t sim_digest(const sim_t *sim);

#endif /* LFC_SIM_ENGINE_H */
