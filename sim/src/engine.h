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
 * one, the devices are split into lanes that the threads share out, window after window of at
 * most `lookahead` cycles; what crosses to another lane's device, or touches a flow or a packet
 * record, waits in outboxes applied in (cycle, device) order at the window's end. Results are
 * bit-identical for any number of threads.
 */
#ifndef LFC_SIM_ENGINE_H
#define LFC_SIM_ENGINE_H

#include <stdint.h>

#include "lfc/link.h"
#include "lfc/nic.h"
#include "lfc/switch.h"
#include "crew.h"
#include "dcqcn.h"
#include "observer.h"
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
  sig_t *ring;    /* words the tracker does not predict, in flight: at most delay + 1 */
  uint32_t delay; /* cycles; the ring holds delay + 1 */
  uint32_t xlane; /* 0: the receiver is stepped by the sender's lane; else its lane + 1 */
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
  uint32_t lane;                /* the lane (thread) that steps it */
  uint64_t nic_drops_seen;
} device_t;

/* A packet in flight, found by its tag (engine.c "Packets"). */
typedef struct {
  uint32_t flow;
  uint32_t bytes;
  uint64_t send_cycle; /* node put out its first block; SIM_NEVER before */
  uint64_t arrive;     /* its first block reached the switch it is in now */
  uint32_t hop;        /* switches it has left */
  /* where its first block went last (the deadlock detector reads them, sim_view): */
  uint32_t wire;       /* the wire it left its last device on, UINT32_MAX before it left its node */
  uint16_t dst;        /* its destination address (the route tables' index, SPEC §7.1) */
  uint8_t cls;         /* its class on that wire, before the wire's class map */
  uint32_t seq;        /* its number in its flow (offered order, mod 2^32): out_of_order */
} slot_t;

/*
 * The packets one endpoint sends: tag = index << tag_bits | endpoint, so that each source
 * makes its tags alone, whatever lane steps it. Only the source allocates (in its step);
 * releases (delivery, drop) come in the merge, and a released index is used again, in the
 * order (release cycle, index), once `lookahead` cycles have passed since its release: by then
 * it has been merged with any number of lanes, and the order does not depend on the order of
 * the merge, so the tags do not depend on the threads.
 */
typedef struct {
  slot_t *slot;
  uint32_t n, cap;   /* indices made, allocated */
  uint32_t *fq;      /* released indices by (release cycle, index): a ring of cap */
  uint64_t *fq_t;    /* the cycle of each release */
  uint32_t fq_head, fq_n;
} pool_t;

typedef struct sim sim_t;

/*
 * The capture of one direction of a link (--pcap, pcapout.h): every word its sender put out that
 * was not IDLE or a packet's later block (those the receiver's tracker predicts), with the cycle
 * it left, in the order sent. Only the sender's lane appends; pcapout empties it between windows
 * (at the samples) and at the end.
 */
typedef struct {
  uint64_t t;
  lfc_word_t w;
} sim_tapword_t;

typedef struct {
  sim_tapword_t *v;
  uint32_t n, cap;
} sim_tap_t;

/* Cycles the wake-up calendar spans (a power of two, a multiple of 64): most wakes are a link
 * delay or a packet's blocks ahead; later ones go to the heap. */
#define SIM_CAL_SLOTS 256u

/* The wake-up queue of one lane's devices, by (wake, id) (engine.c). */
typedef struct {
  uint64_t *heap; /* packed keys of later wakes */
  uint32_t nheap;
  uint64_t *cal;  /* SIM_CAL_SLOTS x cal_words: devices waking in the slot's cycle */
  uint32_t cal_words;
  uint32_t *cal_n;  /* per slot: devices in it */
  uint32_t *cal_lo; /* per slot: no device below this bitmap word */
  uint64_t cal_busy[SIM_CAL_SLOTS / 64u]; /* slots with devices */
  uint64_t cal_now; /* the calendar holds wakes in [cal_now, cal_now + SIM_CAL_SLOTS) */
} wakeq_t;

/* A word for a device of another lane, applied to its link at the window's end. */
typedef struct {
  uint64_t t;    /* arrival cycle */
  uint32_t wire;
  lfc_word_t w;
} xword_t;

/* What a step did to a flow or a packet record: applied in (t, dev) order (engine.c). */
typedef struct {
  uint64_t t;     /* the cycle of the step */
  uint64_t cycle; /* DELIVER: admission; HOP: the first block's arrival at the next device */
  uint32_t dev;   /* the device stepped */
  uint32_t tag;
  uint32_t host;  /* DELIVER: the receiving host */
  uint16_t dst;   /* DELIVER, HOP: the packet's fields */
  uint8_t kind, ecn, nblk, k;
  uint8_t cls;    /* HOP: the packet's class on the wire */
  uint32_t wire;  /* HOP: the wire it went on */
} msg_t;

typedef struct {
  xword_t *v;
  uint32_t n, cap;
} xbox_t;

typedef struct {
  msg_t *v;
  uint32_t n, cap;
} mbox_t;

/* A flow completed in a lane's merge, for the flows waiting for it (applied between windows,
 * in (t, dev) order: engine.c "Lanes"). */
typedef struct {
  uint64_t t;     /* the cycle of the step that delivered its last packet */
  uint64_t cycle; /* its completion */
  uint32_t dev;
  uint32_t flow;
} done_t;

/* Lanes per thread with more than one thread: small lanes let a thread that is ahead (or
 * alone, while the machine's other work holds the other core) take over more of a window
 * (crew.h); more lanes mean more words between lanes. */
#define SIM_LANES_PER_THREAD 2u

/* One lane: a share of the devices, stepped by one thread at a time (engine.c "Lanes"). */
typedef struct {
  _Alignas(SIM_CACHE_LINE) lfc_word_t in[LFC_MAX_PORTS]; /* scratch of a step */
  lfc_word_t out[LFC_MAX_PORTS];
  sim_t *sim;
  uint32_t id;
  wakeq_t q;
  uint64_t now;  /* the cycle of the step in progress */
  xbox_t *xout;  /* per lane: words for its devices, this window */
  mbox_t *mout;  /* per lane: records for the packets and flows its hosts send, this window */
  done_t *done;  /* flows that completed in this lane's last merge */
  uint32_t ndone, capdone;
  uint64_t steps, drops_sw, drops_nic, errors, deliv_bytes;
  uint64_t err_t; /* the first error, by (cycle, device) */
  uint32_t err_d;
  char error[256];
  int stop;       /* out of memory: end the run */
  int oom;        /* ... and that was why (exit status 2, not a finding) */
} lane_t;

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
  /* lanes: one with one thread, SIM_LANES_PER_THREAD per thread with more; a window is at
   * most `lookahead` cycles, the shortest time in which one device's step can matter to
   * another (engine.c "Lanes") */
  lane_t *lane;
  uint32_t nlanes, nthreads;
  uint64_t lookahead;
  uint64_t win_end; /* the window in progress ends before this cycle */
  int applying;     /* the crew's phase: 1 apply the last window's words and records, 0 step */
  crew_t crew;
  /* packets in flight, by tag: per source endpoint */
  pool_t *pool;
  uint32_t tag_bits;
  /* scratch */
  lfc_word_t *outs_all; /* step_all, per device port */
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
  int oom;  /* a lane ran out of memory (or threads): error says where; the results are void */
  dcqcn_cfg_t dcqcn;
  int want_digest; /* hash the unpredicted link words (sim_digest); set before sim_run */
  int qlen_reg, tx_rem_reg; /* [routing] adaptive: the model's registers of an egress queue's
                               blocks and of the blocks still to send of the packet in flight */
  sim_tap_t **tap; /* --pcap: per wire, its capture or NULL; NULL when nothing is captured */
};

/* Build the fabric of a loaded scenario (its devices split into sc->threads lanes, or one
 * with step_all). 0 or -1 with err. */
int sim_create(sim_t *sim, const lfc_scenario_t *sc, char *err, size_t errlen);
void sim_destroy(sim_t *sim);
/* Word w as the receiver of wire wi takes it: in its own classes, through the class maps of the
 * cable ([classmap]); a cable without one leaves w as it is. */
void sim_word_received(const sim_t *sim, uint32_t wi, lfc_word_t *w);
/* Run to sc->duration_us (all devices end at that cycle), on sim->nlanes threads. */
void sim_run(sim_t *sim);
/* Bring every device to cycle `to` (no device may be behind a pending event before it). */
void sim_sync(sim_t *sim, uint64_t to);
/*
 * The observer interface of sim (observer.h), for the observers of its samples (the deadlock
 * detector). Its each_held calls fn for every packet a switch holds at cycle `at` (its first
 * block reached the switch in a cycle before `at`, and has not left it), between windows (at a
 * sample), when every record of the steps before `at` is applied: it reads the packet records
 * only, in the order of source endpoint and tag index. Its stop ends the run at this sample.
 */
void sim_view(sim_t *sim, sim_view_t *view);
/* A digest of everything observable: counters of every switch and node, flows, link words. */
uint64_t sim_digest(const sim_t *sim);

#endif /* LFC_SIM_ENGINE_H */
