/*
 * engine.c - the fabric simulator's core (see engine.h for the two ways to run).
 *
 * A link carries, besides what its tracker predicts (the continuation blocks of the packet in
 * flight, SPEC §2.1, else IDLE), only "surprising" words: first blocks, FCP and PFC words. Those
 * are queued with their arrival cycle and wake the receiver then; everything else the receiver
 * rebuilds, and lfc_switch_advance / lfc_nic_advance consume it without being stepped. In
 * step_all mode the real lfc_link carries every word and the rebuilt word is checked against it
 * in every cycle (link_mismatch must stay 0).
 *
 * Lanes (docs/sim.md "Threads"). With more than one thread the devices are split into lanes
 * (partition.c), each stepped by one thread at a time (crew.c). A device's step reads only its
 * own state and the words its links delivered, and a word sent at cycle T arrives at
 * T + delay >= T + lookahead, so a lane may step cycle T once every other lane has stepped the
 * cycles up to T - lookahead: the lanes step on by themselves, each at most a lookahead ahead of
 * the others (lane_run). What one step does to another lane's device (a word on a link into it,
 * its wake-up) goes through the channel (chan.h) to that lane; what it does to a packet record
 * or a flow (delivery, drop, per-hop latency) through the channel to the lane of the packet's
 * source host, which owns both. Each lane takes its words as they come, and its records before
 * it steps a later cycle, in (cycle, device) order, the order of one thread; before a sample,
 * the end, and where completed flows start their successors (in the same order), every lane
 * stops at the fence and takes all. With one lane all of this is applied in the step. Both give
 * the same results because nothing a record changes is read by a device within `lookahead`
 * cycles: a flow's counters and samples are read only by the results and the samples (at the
 * fences, all applied); a released tag is used again only `lookahead` cycles after its release
 * (pool_t); a CNP (dcqcn.c) reaches its source cnp_delay >= lookahead later; a flow whose
 * predecessors completed starts one cycle later at the earliest (lookahead 1 then).
 */
#include "engine.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/link.h"
#include "chan.h"
#include "crew.h"
#include "dcqcn.h"
#include "partition.h"
#include "routing.h"

/* ---- The simulation object (opaque to the rest of lfc-sim: engine.h) ---- */

/* Bytes of a cache line: wire_t keeps what each end reads in a line of its own. */
#define SIM_CACHE_LINE 64u

/* The fields a packet's continuation blocks repeat (SPEC §2.1): with kind DATA, sop 0, eop on
 * the last, and every other field zero (lfc/types.h), the whole of such a block. */
typedef struct {
  uint32_t tag;
  uint16_t dst;
  uint8_t cls, nblk, ecn, pad, mrg;
} tmpl_t;

/* What a receiver expects on a link when nothing new happens: the rest of a packet (SPEC §2.1),
 * one word a slot after its first, the last in cycle end - 1. Kept as that end alone, so that
 * the words passing cost no write (as the switch model keeps tx_end). */
typedef struct {
  tmpl_t tmpl;     /* the packet in flight's continuation block */
  uint8_t k;       /* the link's speed divider (1..16): blocks are k cycles apart */
  uint8_t maps;    /* the receiver's track only: MAP_DATA, MAP_BACK (wire_t) */
  uint64_t end;    /* the cycle after its last word's (0 before the link's first packet) */
} track_t;

/* track_t.maps of a receiver ([classmap]): DATA arrives in class cmap[cls]; the wire back on the
   cable has a map, through which control words are read (received). */
#define MAP_DATA 1u
#define MAP_BACK 2u

typedef struct {
  uint64_t t;
  lfc_word_t w;
} sig_t;

/*
 * One direction of a cable. A fabric has thousands, and each is read at both ends in different
 * device steps, so the receiver's fields fill the first cache line and the sender's the second
 * (docs/sim.md "Speed"): a step that takes a predicted block reads one line, one that takes an
 * unpredicted word (the ring) the first, and the sender of such a word both. The array is
 * allocated aligned to a line (sim_create).
 */
typedef struct {
  /* ---- receiver (take_input), and the ring that both ends use ---- */
  _Alignas(SIM_CACHE_LINE) track_t rx;
  uint32_t head, n; /* ring: the oldest unpredicted word in flight, how many */
  uint32_t delay;   /* cycles */
  uint32_t cap;     /* the ring's words: delay + 1, or 2 x delay from another lane (build_wires) */
  sig_t *ring;      /* words the tracker does not predict, in flight: at most cap */
  uint8_t cmap[LFC_MAX_CLASSES];
  /* ---- sender (give_output) ---- */
  _Alignas(SIM_CACHE_LINE) track_t tx;
  uint32_t xlane; /* 0: the receiver is stepped by the sender's lane; else its lane + 1 */
  uint32_t from, from_port, to, to_port;
  uint64_t digest;  /* of every word that differs from the prediction, with its cycle */
  lfc_link_t *link; /* step_all only: the reference link */
} wire_t;

/* The size of device_t, and the padding that makes it so: a power of two makes the index of a
 * device a shift (at 120 bytes, unpadded, lfc-sim ran 0.6 % more instructions: perf-log.md). */
#define SIM_DEVICE_BYTES 128u
#define SIM_DEVICE_PAD 24u

/*
 * A device. Its first cache line holds all that a switch's step reads and writes of it, and all
 * that a step of its link's sender writes (rx_busy, the wake-up); the end nodes' own fields are
 * in the second (docs/perf-log.md, 2026-12-05). Its ports' wires and packet ends are in sim_t,
 * from port_base.
 */
typedef struct {
  /* ---- every step ---- */
  _Alignas(SIM_CACHE_LINE) uint8_t is_host;
  uint32_t nports;
  lfc_switch_t *sw;
  uint64_t connected;  /* ports with a working link (LFC_MAX_PORTS = 64) */
  uint64_t rx_busy;    /* input ports whose link has a packet or words in flight */
  uint64_t rx_queued;  /* input ports whose link has unpredicted words queued */
  uint64_t tx_busy;    /* output ports with a packet in flight (words after now: track_t) */
  uint64_t wake;       /* next cycle to process, SIM_NEVER = none */
  uint32_t heap_pos;   /* index in the heap, UINT32_MAX = in the calendar (engine.c) */
  uint32_t port_base;  /* its ports' index in sim_t's wire, out_wires and outs_all */
  /* ---- end nodes, and the lanes ---- */
  lfc_nic_t *nic;
  uint32_t rr;         /* host: round robin over its flows */
  uint32_t lane;       /* the lane (thread) that steps it */
  uint64_t nic_drops_seen;
  uint64_t nic_next;   /* host: lfc_nic_next_event after its last step; 0 = not known */
  uint64_t src_wait;   /* host: no packet waits to be offered before this cycle (replay_offers) */
  uint8_t pad[SIM_DEVICE_PAD]; /* to SIM_DEVICE_BYTES */
} device_t;
_Static_assert(sizeof(device_t) == SIM_DEVICE_BYTES, "device_t: a power of two");
_Static_assert(offsetof(device_t, nic) == SIM_CACHE_LINE, "a step's fields fill the first line");

/*
 * A packet in flight, found by its tag (engine.c "Packets"). Every host has one per packet in
 * its transmit FIFO or in the fabric: a thousand and more under PFC back-pressure, most of them
 * in the FIFO. So the record is what a packet has from its offer (16 bytes), and what it gets
 * when its first block leaves its node is a fly_t of its own, kept only while it is out.
 */
typedef struct {
  union {
    struct {
      uint32_t seq; /* its number in its flow (offered order, mod 2^32): out_of_order */
      uint32_t fly; /* its fly_t in the pool, NONE until its first block left its node */
    };
    uint64_t released; /* a free slot's: the cycle of its release */
  };
  uint32_t flow;   /* SLOT_FREE: no packet */
  uint16_t bytes;  /* at most LFC_MAX_NBLK blocks (asserted below) */
} slot_t;
_Static_assert(LFC_MAX_NBLK * LFC_BLOCK_BYTES <= UINT16_MAX, "slot_t.bytes holds a packet");

/* A packet out of its node: when and where its first block went. */
typedef struct {
  uint64_t send_cycle; /* node put out its first block */
  uint64_t arrive;     /* its first block reached the device it is in now; SIM_NEVER before */
  /* where its first block went last (the deadlock detector reads them, sim_view): */
  uint32_t wire;       /* the wire it left its last device on, NONE before; free: the next */
  uint16_t dst;        /* its destination address (the route tables' index, SPEC §7.1) */
  uint8_t cls;         /* its class on that wire, before the wire's class map */
  uint8_t hop;         /* switches it has left, at most FLOW_MAX_HOPS */
} fly_t;
_Static_assert(FLOW_MAX_HOPS <= UINT8_MAX, "fly_t.hop counts a path's switches");

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
  uint32_t *fq;      /* released indices by (release cycle, index): a ring of cap; the cycle of
                        each release is in its slot (slot_t.released) */
  uint32_t fq_head, fq_n;
  fly_t *fly;        /* the records of its packets out of the node, in any order */
  uint32_t nfly, fly_cap, fly_free; /* made, allocated, a list of free ones through .wire */
} pool_t;

/* A pool's first allocation of slots, and its growth: by cap / SLOT_GROWTH_DIV. */
#define SLOT_FIRST_CAP 64u
#define SLOT_GROWTH_DIV 8u

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
  int draining;     /* cal_now's slot is being drained and is not empty (queue_pop) */
} wakeq_t;

/* A word for a device of another lane, put on its link by that lane (take_words). */
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
  uint8_t kind, ecn, nblk, k; /* DELIVER: nblk is the words, nblk - mrg (SPEC §2.1) */
  uint8_t cls;    /* HOP: the packet's class on the wire */
  uint32_t wire;  /* HOP: the wire it went on */
} msg_t;


/* A flow completed in a lane's merge, for the flows waiting for it (applied at the next fence,
 * in (t, dev) order: engine.c "Lanes"). */
typedef struct {
  uint64_t t;     /* the cycle of the step that delivered its last packet */
  uint64_t cycle; /* its completion */
  uint32_t dev;
  uint32_t flow;
} done_t;

/* Lanes per thread with more than one thread. More, smaller lanes cost more words and records
 * between lanes than they save: on the bench's fat tree on two free cores one lane a thread
 * took 7 % less wall and CPU time than two (docs/perf-log.md, 2026-12-05 afternoon, when the
 * lanes met at every window). A core taken by other work is met by the crew stepping every
 * lane alone (crew.h). */
#define SIM_LANES_PER_THREAD 1u

/* The phases of the crew (run_parallel): the lanes step to the fence, then apply what is left. */
enum { PHASE_RUN, PHASE_APPLY };

/* One lane: a share of the devices, stepped by one thread at a time (engine.c "Lanes"). */
typedef struct {
  _Alignas(SIM_CACHE_LINE) lfc_word_t in[LFC_MAX_PORTS]; /* scratch of a step */
  lfc_word_t out[LFC_MAX_PORTS];
  sim_t *sim;
  uint32_t id;
  wakeq_t q;
  uint64_t now;  /* the cycle of the step in progress */
  chan_t *xch;   /* [lane]: words for the lane's devices */
  chan_t *mch;   /* [lane]: records for the packets and flows its hosts send (itself too) */
  done_t *done;  /* flows that completed in this lane's last merge */
  uint32_t ndone, capdone;
  uint64_t steps, drops_sw, drops_nic, errors, deliv_bytes;
  uint64_t err_t; /* the first error, by (cycle, device) */
  uint32_t err_d;
  char error[256];
  int stop;       /* out of memory: end the run */
  int oom;        /* ... and that was why (exit status 2, not a finding) */
  /* Every cycle before it is stepped, and what the steps sent is in the channels: written by
     the thread stepping the lane, read by the others (run_parallel). */
  _Alignas(SIM_CACHE_LINE) _Atomic uint64_t upto;
  _Alignas(SIM_CACHE_LINE) uint64_t seen[SC_MAX_THREADS * SIM_LANES_PER_THREAD]; /* others' upto
                             when it last took their words (others_upto) */
  /* The lanes that have sent it words, and records (a bit a lane, set by the sender before
     its first entry is published): of a run's lanes, those that share a link or a flow with
     it, often a few; it looks only at their channels. */
  _Atomic uint64_t xfrom, mfrom;
  uint64_t xto, mto; /* the lanes it has sent words, and records (its bits in their xfrom, mfrom) */
} lane_t;
_Static_assert(SC_MAX_THREADS * SIM_LANES_PER_THREAD <= 64, "lane_t.xfrom: a bit a lane");

/* Lane ln is about to send lane `to` its first word (x) or record (m): set its bit there. */
static inline void sends_to(lane_t *ln, uint64_t *to_mask, _Atomic uint64_t *from_mask,
                            uint32_t to) {
  if ((*to_mask >> to & 1u) == 0) {
    *to_mask |= 1ull << to;
    atomic_fetch_or_explicit(from_mask, 1ull << ln->id, memory_order_release);
  }
}

struct sim {
  const lfc_scenario_t *sc;
  topo_t topo;
  routes_t routes;
  flows_t flows;
  device_t *dev;
  uint32_t ndev;
  /* Wires by receiver: the wire into port p of device d is wire[dev[d].port_base + p], so that
   * the wires a device reads in a step lie together (slots of unconnected ports stay unused). */
  wire_t *wire;
  uint32_t nwire;       /* wires (working cables x 2) */
  uint32_t *wire_order; /* their indices in the order of the topology's links (digest) */
  uint64_t now, end;
  int step_all;
  /* lanes: one with one thread, SIM_LANES_PER_THREAD per thread with more; a lane steps at
   * most `lookahead` cycles ahead of the others, the shortest time in which one device's step
   * can matter to another (engine.c "Lanes") */
  lane_t *lane;
  uint32_t nlanes, nthreads;
  uint64_t lookahead;
  uint64_t fence;   /* the lanes step no cycle from this one in the phase (run_parallel) */
  unsigned phase;   /* the crew's phase: PHASE_RUN or PHASE_APPLY */
  atomic_int halt;  /* a lane stopped (out of memory): the others end the phase */
  crew_t crew;
  /* packets in flight, by tag: per source endpoint */
  pool_t *pool;
  uint8_t *ep_lane; /* with lanes: per source endpoint, its lane, the owner of its records (post;
                       a small array that stays in cache, where its device_t would not) */
  uint32_t tag_bits;
  /* scratch */
  lfc_word_t *outs_all; /* step_all, per device port (device_t.port_base) */
  /* per device port, from device_t.port_base: aligned, so that a switch's lie in whole cache
     lines (docs/perf-log.md, 2026-12-05) */
  uint32_t *out_wires; /* the wire out of the port, NONE = unconnected */
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

/* The wire into port p of device dv (wires are stored by receiver), if connected. */
static inline wire_t *wire_into(const sim_t *s, const device_t *dv, uint32_t p) {
  return &s->wire[dv->port_base + p];
}

/* The wire out of port p of device dv, NONE if unconnected. */
static inline uint32_t out_wire(const sim_t *s, const device_t *dv, uint32_t p) {
  return s->out_wires[dv->port_base + p];
}

_Static_assert(offsetof(wire_t, tx) == SIM_CACHE_LINE, "the receiver's fields fit one line");
_Static_assert(sizeof(wire_t) == 2u * SIM_CACHE_LINE, "the sender's fields fit one line");

#define NONE UINT32_MAX
#define X1024 1024u
#define PPM 1000000u
#define SLOT_FREE UINT32_MAX

static const lfc_word_t IDLE;

/* ---- Link prediction ---- */

/* Is a word of the packet in flight due in cycle t, a cycle after its first word's? Its words
 * come in end - 1, end - 1 - k, ...; at full speed without a divide. */
static inline int track_due(const track_t *tr, uint64_t t) {
  return t < tr->end && (tr->k == 1u || (tr->end - 1u - t) % tr->k == 0);
}

/* Is the word due in cycle t the packet's last (eop)? */
static inline int track_last(const track_t *tr, uint64_t t) { return t + 1u == tr->end; }

/* Are words of the packet still to come after cycle t? */
static inline int track_after(const track_t *tr, uint64_t t) { return tr->end > t + 1u; }

/* *w = the block of the packet in flight due in cycle t (track_due): its continuation block,
 * eop on the last. */
static inline void track_word(const track_t *tr, uint64_t t, lfc_word_t *w) {
  const tmpl_t *tp = &tr->tmpl;
  *w = IDLE;
  w->kind = LFC_DATA;
  w->cls = tp->cls;
  w->nblk = tp->nblk;
  w->ecn = tp->ecn;
  w->pad = tp->pad;
  w->mrg = tp->mrg;
  w->dst = tp->dst;
  w->tag = tp->tag;
  w->eop = track_last(tr, t);
}

static void track_expect(const track_t *tr, uint64_t t, lfc_word_t *w) {
  if (track_due(tr, t))
    track_word(tr, t, w);
  else
    *w = IDLE;
}

/* Word w was on the link in cycle t: a first block starts a packet; any other word changes no
 * prediction (the words of a packet in flight pass with time, whatever came in their slots). */
static void track_update(track_t *tr, uint64_t t, const lfc_word_t *w) {
  if (w->kind != LFC_DATA || !w->sop) return;
  tr->tmpl = (tmpl_t){.tag = w->tag, .dst = w->dst, .cls = w->cls, .nblk = w->nblk,
                      .ecn = w->ecn, .pad = w->pad, .mrg = w->mrg};
  uint32_t mrg = w->mrg & 1u; /* the last word carries two blocks (SPEC §2.4) */
  uint32_t rem = w->nblk > mrg ? w->nblk - 1u - mrg : 0u; /* words after this one */
  tr->end = t + (uint64_t)rem * tr->k + 1u;
}

static uint64_t mix64(uint64_t h, uint64_t x) {
  h ^= x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

static uint64_t word_hash(uint64_t h, const lfc_word_t *w) {
  h = mix64(h, (uint64_t)w->kind | (uint64_t)w->sop << 8 | (uint64_t)w->eop << 9 |
                   (uint64_t)w->cls << 10 | (uint64_t)w->nblk << 16 | (uint64_t)w->ecn << 24 |
                   (uint64_t)w->dst << 32);
  h = mix64(h, (uint64_t)w->tag | (uint64_t)w->fc_op << 32 | (uint64_t)w->fc_vl << 36 |
                   (uint64_t)w->fc_fctbs << 40);
  h = mix64(h, (uint64_t)w->fc_fccl | (uint64_t)w->pfc_en << 16 | (uint64_t)w->pad << 24 |
                   (uint64_t)w->mrg << 32);
  for (uint32_t i = 0; i < LFC_PFC_MAX_PRIOS; i++) h = mix64(h, w->pfc_time[i]);
  return h;
}

/* ---- Wake-up queue of devices by (wake, id) ----
 * Devices are processed in (cycle, device) order. Most wakes are a few cycles ahead (a link
 * delay, a packet's next block), so a device waking in [cal_now, cal_now + SIM_CAL_SLOTS) sits
 * in a calendar: one bitmap of devices per cycle (slot = cycle mod SIM_CAL_SLOTS), whose lowest
 * bit is the lowest id, and a bitmap of non-empty slots. cal_now is the cycle being processed;
 * it only grows, and nothing in the calendar is before it. Later wakes (and SIM_NEVER) go to a
 * heap of packed keys wake << HEAP_ID_BITS | id, so that one integer comparison orders by
 * (cycle, device) and no device record is read while sifting. Wakes at or beyond HEAP_WAKE_MAX
 * (far past any run's end, sc duration <= 1e7 us) share that key and are never processed. The
 * next cycle is the smaller of the calendar's first and the heap's top; on reaching it, the
 * heap's devices of that cycle join its slot, which is then drained in id order (queue_pop):
 * a device leaves the queue when it is popped (POPPED) and its step puts it back (set_wake),
 * at a later cycle. No step adds a device to the cycle being drained (a word arrives a link
 * delay later, a step's own next wake is after its cycle, a successor flow starts in the next
 * cycle), so the slot only empties. Each lane has its own queue of its own devices (cal_now is
 * the lane's last cycle). */

#define HEAP_ID_BITS 18u /* > TOPO_MAX_NODES (topology.h) */
#define HEAP_ID_MASK ((1ull << HEAP_ID_BITS) - 1u)
#define HEAP_WAKE_MAX ((1ull << (64u - HEAP_ID_BITS)) - 1u)
#define IN_CAL UINT32_MAX /* heap_pos of a device in the calendar */
#define POPPED (UINT32_MAX - 1u) /* heap_pos of the device being stepped: in no queue */
#define CAL_MASK (SIM_CAL_SLOTS - 1u)
#define BITS 64u

static uint64_t heap_key(uint64_t wake, uint32_t d) {
  return (wake < HEAP_WAKE_MAX ? wake : HEAP_WAKE_MAX) << HEAP_ID_BITS | d;
}

static void heap_place(sim_t *s, wakeq_t *q, uint32_t i, uint64_t key) {
  q->heap[i] = key;
  s->dev[key & HEAP_ID_MASK].heap_pos = i;
}

static void heap_fix(sim_t *s, wakeq_t *q, uint32_t i, uint64_t key) {
  while (i > 0 && key < q->heap[(i - 1u) / 2u]) { /* up: move parents down into the hole */
    heap_place(s, q, i, q->heap[(i - 1u) / 2u]);
    i = (i - 1u) / 2u;
  }
  for (;;) { /* down */
    uint32_t l = 2u * i + 1u, m = l;
    if (l >= q->nheap) break;
    if (l + 1u < q->nheap && q->heap[l + 1u] < q->heap[l]) m = l + 1u;
    if (q->heap[m] >= key) break;
    heap_place(s, q, i, q->heap[m]);
    i = m;
  }
  heap_place(s, q, i, key);
}

static int in_window(const wakeq_t *q, uint64_t t) {
  return t >= q->cal_now && t - q->cal_now < SIM_CAL_SLOTS;
}

static inline void cal_insert(sim_t *s, wakeq_t *q, uint32_t d, uint64_t t) {
  uint32_t slot = (uint32_t)(t & CAL_MASK), word = d / BITS;
  assert(!q->draining || t > q->cal_now); /* the cycle being drained only empties */
  q->cal[(size_t)slot * q->cal_words + word] |= 1ull << (d % BITS);
  if (q->cal_n[slot]++ == 0) {
    q->cal_busy[slot / BITS] |= 1ull << (slot % BITS);
    q->cal_lo[slot] = word;
  } else if (word < q->cal_lo[slot]) {
    q->cal_lo[slot] = word;
  }
  s->dev[d].heap_pos = IN_CAL;
}

static inline void cal_remove(wakeq_t *q, uint32_t d, uint64_t t) {
  uint32_t slot = (uint32_t)(t & CAL_MASK);
  q->cal[(size_t)slot * q->cal_words + d / BITS] &= ~(1ull << (d % BITS));
  if (--q->cal_n[slot] == 0) q->cal_busy[slot / BITS] &= ~(1ull << (slot % BITS));
}

/* Device d (of the lane whose queue q is) next wakes at t. */
static void set_wake(sim_t *s, wakeq_t *q, uint32_t d, uint64_t t) {
  device_t *dv = &s->dev[d];
  int near = in_window(q, t);
  if (dv->heap_pos == POPPED) { /* the device just stepped: in no queue yet */
  } else if (t == dv->wake) {
    return;
  } else if (dv->heap_pos == IN_CAL) {
    cal_remove(q, d, dv->wake);
  } else if (!near) { /* heap to heap: in place */
    dv->wake = t;
    heap_fix(s, q, dv->heap_pos, heap_key(t, d));
    return;
  } else { /* out of the heap: its last key fills the hole */
    uint32_t i = dv->heap_pos;
    uint64_t last = q->heap[--q->nheap];
    if (i < q->nheap) heap_fix(s, q, i, last);
  }
  dv->wake = t;
  if (near) {
    cal_insert(s, q, d, t);
  } else {
    q->nheap++;
    heap_fix(s, q, q->nheap - 1u, heap_key(t, d));
  }
}

/* set_wake of the device just stepped (popped, after its cycle): inlined into its step. */
static inline void requeue(sim_t *s, wakeq_t *q, uint32_t d, uint64_t t) {
  assert(s->dev[d].heap_pos == POPPED && t > q->cal_now);
  if (t - q->cal_now < SIM_CAL_SLOTS) {
    s->dev[d].wake = t;
    cal_insert(s, q, d, t);
  } else {
    set_wake(s, q, d, t);
  }
}

static void wake_at(sim_t *s, wakeq_t *q, uint32_t d, uint64_t t) {
  if (t < s->dev[d].wake) set_wake(s, q, d, t);
}

/* The first cycle with a device in the calendar from cal_now on, or SIM_NEVER. */
static uint64_t cal_first(const wakeq_t *q) {
  uint32_t base = (uint32_t)(q->cal_now & CAL_MASK);
  uint64_t m = q->cal_busy[base / BITS] & (~0ull << (base % BITS));
  for (uint32_t i = base / BITS;;) { /* from base up */
    if (m != 0) return q->cal_now + (i * BITS + (uint32_t)__builtin_ctzll(m) - base);
    if (++i == SIM_CAL_SLOTS / BITS) break;
    m = q->cal_busy[i];
  }
  for (uint32_t i = 0; i <= base / BITS; i++) { /* wrapped: below base */
    uint64_t b = q->cal_busy[i];
    if (b != 0) return q->cal_now + ((i * BITS + (uint32_t)__builtin_ctzll(b) - base) & CAL_MASK);
  }
  return SIM_NEVER;
}

/* The lane's next cycle with a device to process, SIM_NEVER if none. */
static uint64_t queue_next(const wakeq_t *q) {
  if (q->draining) return q->cal_now; /* its slot is not empty (queue_pop) */
  uint64_t t = cal_first(q);
  if (q->nheap > 0 && (q->heap[0] >> HEAP_ID_BITS) < t) t = q->heap[0] >> HEAP_ID_BITS;
  return t >= HEAP_WAKE_MAX ? SIM_NEVER : t;
}

/* Take the lane's next device, *d, in (cycle, id) order if its cycle is before `limit`, and
 * return that cycle; else take none and return the next cycle (>= limit, or SIM_NEVER). */
static inline uint64_t queue_pop(sim_t *s, wakeq_t *q, uint64_t limit, uint32_t *d) {
  if (!q->draining) {
    uint64_t t = queue_next(q);
    if (t >= limit) return t;
    q->cal_now = t;
    while (q->nheap > 0 && (q->heap[0] >> HEAP_ID_BITS) == t) { /* the heap's of cycle t */
      uint32_t h = (uint32_t)(q->heap[0] & HEAP_ID_MASK);
      uint64_t last = q->heap[--q->nheap];
      if (q->nheap > 0) heap_fix(s, q, 0, last);
      cal_insert(s, q, h, t);
    }
    q->draining = 1;
  }
  uint64_t t = q->cal_now;
  if (t >= limit) return t;
  uint32_t slot = (uint32_t)(t & CAL_MASK);
  uint64_t *bm = &q->cal[(size_t)slot * q->cal_words];
  uint32_t w = q->cal_lo[slot];
  while (bm[w] == 0) w++; /* cal_n[slot] > 0 while draining */
  q->cal_lo[slot] = w;
  *d = w * BITS + (uint32_t)__builtin_ctzll(bm[w]);
  bm[w] &= bm[w] - 1u;
  s->dev[*d].heap_pos = POPPED;
  if (--q->cal_n[slot] == 0) {
    q->cal_busy[slot / BITS] &= ~(1ull << (slot % BITS));
    q->draining = 0;
  }
  return t;
}

/* ---- Packets ---- */

/* An error of the step of device d at cycle t (or of a record it made): counted; the lane keeps
 * the text of its first by (cycle, device), sim_run reports the first of all lanes. */
static void lane_error(lane_t *ln, uint64_t t, uint32_t d, const char *msg, uint32_t tag) {
  if (ln->errors++ == 0 || t < ln->err_t || (t == ln->err_t && d < ln->err_d)) {
    ln->err_t = t;
    ln->err_d = d;
    snprintf(ln->error, sizeof ln->error, "cycle %llu: %s (tag 0x%08x)", (unsigned long long)t,
             msg, tag);
  }
}

/* The record of a packet in flight, or NULL if no packet has the tag. */
static slot_t *slot_of(const sim_t *s, uint32_t tag) {
  uint32_t e = tag & ((1u << s->tag_bits) - 1u);
  uint64_t i = (uint64_t)tag >> s->tag_bits;
  if (e >= s->topo.nendpoints) return NULL;
  const pool_t *p = &s->pool[e];
  if (i >= p->n || p->slot[i].flow == SLOT_FREE) return NULL;
  return &p->slot[i];
}

/* The packet left the fabric at cycle t (the cycle of the step; tag valid). Its index goes
 * into the ring in (release cycle, index) order: releases come nearly in order, so the search
 * from the newest end is short. */
static void slot_release(sim_t *s, uint32_t tag, uint64_t t) {
  pool_t *p = &s->pool[tag & ((1u << s->tag_bits) - 1u)];
  uint32_t i = tag >> s->tag_bits, q = p->fq_head + p->fq_n;
  if (q >= p->cap) q -= p->cap;
  slot_t *sl = &p->slot[i];
  if (sl->fly != NONE) { /* its fly_t goes on the free list */
    p->fly[sl->fly].wire = p->fly_free;
    p->fly_free = sl->fly;
  }
  sl->flow = SLOT_FREE;
  sl->released = t;
  for (uint32_t k = p->fq_n; k > 0; k--) { /* fq_n < n <= cap: each index at most once */
    uint32_t r = q == 0 ? p->cap - 1u : q - 1u;
    uint64_t tr = p->slot[p->fq[r]].released;
    if (tr < t || (tr == t && p->fq[r] < i)) break;
    p->fq[q] = p->fq[r];
    q = r;
  }
  p->fq[q] = i;
  p->fq_n++;
}

/* A new tag of endpoint e at cycle T: the first index released `lookahead` or more cycles ago,
 * else a new one. -1 out of memory, -2 out of tags (the index does not fit beside e). */
static int64_t slot_alloc(sim_t *s, uint32_t e, uint64_t T) {
  pool_t *p = &s->pool[e];
  uint32_t i;
  if (p->fq_n > 0 && p->slot[p->fq[p->fq_head]].released + s->lookahead <= T) {
    i = p->fq[p->fq_head];
    p->fq_head = p->fq_head + 1u == p->cap ? 0u : p->fq_head + 1u;
    p->fq_n--;
  } else {
    if ((uint64_t)p->n >= (1ull << (32u - s->tag_bits))) return -2;
    if (p->n == p->cap) {
      /* An eighth more, not twice: a host under back-pressure holds a transmit FIFO's worth of
         packets (1 024 by default) and a few more, which doubling would round up to 2 048. */
      uint32_t cap = p->cap ? p->cap + p->cap / SLOT_GROWTH_DIV : SLOT_FIRST_CAP;
      slot_t *ns = realloc(p->slot, (size_t)cap * sizeof *ns);
      if (ns == NULL) return -1;
      p->slot = ns;
      uint32_t *nq = malloc((size_t)cap * sizeof *nq);
      if (nq == NULL) return -1;
      for (uint32_t k = 0; k < p->fq_n; k++) { /* the ring, oldest first, from 0 */
        uint32_t j = p->fq_head + k < p->cap ? p->fq_head + k : p->fq_head + k - p->cap;
        nq[k] = p->fq[j];
      }
      free(p->fq);
      p->fq = nq;
      p->fq_head = 0;
      p->cap = cap;
    }
    i = p->n++;
  }
  return (int64_t)((uint64_t)i << s->tag_bits | e);
}

/* A new fly_t for packet sl of pool p (fly_of). */
static fly_t *fly_make(pool_t *p, slot_t *sl) {
  uint32_t i = p->fly_free;
  if (i != NONE) {
    p->fly_free = p->fly[i].wire;
  } else {
    if (p->nfly == p->fly_cap) {
      uint32_t cap = p->fly_cap ? p->fly_cap + p->fly_cap / SLOT_GROWTH_DIV : SLOT_FIRST_CAP;
      fly_t *nf = realloc(p->fly, (size_t)cap * sizeof *nf);
      if (nf == NULL) return NULL;
      p->fly = nf;
      p->fly_cap = cap;
    }
    i = p->nfly++;
  }
  sl->fly = i;
  p->fly[i] = (fly_t){.send_cycle = SIM_NEVER, .arrive = SIM_NEVER, .wire = NONE};
  return &p->fly[i];
}

/* The fly_t of packet sl (tag), made (send_cycle and arrive SIM_NEVER) if it has none; NULL if
 * out of memory. Only the lane of the source's node calls it (its step, its merge). */
static inline fly_t *fly_of(sim_t *s, uint32_t tag, slot_t *sl) {
  pool_t *p = &s->pool[tag & ((1u << s->tag_bits) - 1u)];
  return sl->fly != NONE ? &p->fly[sl->fly] : fly_make(p, sl);
}

/* Memory ran short for what msg says: the run ends, exit status 2 (docs/sim.md "Memory"). */
static void lane_oom(lane_t *ln, uint64_t t, uint32_t d, const char *msg, uint32_t tag) {
  lane_error(ln, t, d, msg, tag);
  ln->stop = 1;
  ln->oom = 1;
}

/* The packet's records could not be kept. */
static void fly_lost(lane_t *ln, uint64_t t, uint32_t d, uint32_t tag) {
  lane_oom(ln, t, d, "out of memory for packets in flight", tag);
}

/* A latency sample could not be kept: the run ends, exit status 2 (docs/sim.md "Memory"). */
static void sample_lost(lane_t *ln, uint64_t t, uint32_t d, uint32_t tag) {
  lane_oom(ln, t, d, "out of memory for the latency samples", tag);
}

/* Successor `id` of a flow or gate (a flow, or FLOW_GATE | gate) may start from cycle t as far
 * as that predecessor goes, seen by a step at cycle T: a flow starts from T + 1 at the earliest,
 * once its last predecessor allowed it; at the latest time any allowed if it is gated (ddp:
 * traffic.h), else at the time its last one allowed. A gate opens at the latest time any
 * predecessor allowed, and lets each successor start its delay later. */
static void dep_done(sim_t *s, uint32_t id, uint64_t t, uint64_t T) {
  if (id & FLOW_GATE) {
    gate_t *x = &s->flows.gate[id & ~FLOW_GATE];
    if (x->ready < t) x->ready = t;
    if (x->deps_left > 0 && --x->deps_left == 0)
      for (uint32_t i = 0; i < x->nsucc; i++) dep_done(s, x->succ[i], x->ready + x->delay[i], T);
    return;
  }
  flow_t *g = &s->flows.f[id];
  if (g->gated && g->gate_ready < t) g->gate_ready = t;
  if (g->deps_left > 0 && --g->deps_left == 0) {
    if (t < T + 1u) t = T + 1u;
    if (t < g->gate_ready) t = g->gate_ready;
    if (g->start < t) g->start = t;
    if (g->next_x1024 < g->start * X1024) g->next_x1024 = g->start * X1024;
    uint32_t d = s->topo.nsw + g->src;
    wake_at(s, &s->lane[s->dev[d].lane].q, d, g->start);
  }
}

/* The flows and gates waiting for f, which completed at `cycle` (seen by a step at cycle T):
 * f allows them from the cycle after. */
static void start_succ(sim_t *s, const flow_t *f, uint64_t cycle, uint64_t T) {
  for (uint32_t i = 0; i < f->nsucc; i++) dep_done(s, f->succ[i], cycle + 1u, T);
}

/* Flow f completed (its owner's lane ln merges its records). Its successors belong to other
 * hosts: with several lanes they start at the next fence (run_parallel). */
static void flow_done(sim_t *s, lane_t *ln, flow_t *f, uint64_t cycle, uint64_t T, uint32_t dev) {
  f->done_cycle = cycle;
  if (f->nsucc == 0) return;
  if (s->nlanes == 1u) {
    start_succ(s, f, cycle, T);
    return;
  }
  if (ln->ndone == ln->capdone) {
    uint32_t cap = ln->capdone ? ln->capdone * 2u : 64u;
    done_t *nd = realloc(ln->done, (size_t)cap * sizeof *nd);
    if (nd == NULL) {
      lane_oom(ln, T, dev, "out of memory for completed flows", 0);
      return;
    }
    ln->done = nd;
    ln->capdone = cap;
  }
  ln->done[ln->ndone++] = (done_t){T, cycle, dev, (uint32_t)(f - s->flows.f)};
}

typedef struct {
  sim_t *sim;
  uint32_t host;
} rx_ctx_t;

enum { MSG_DELIVER, MSG_DROP, MSG_HOP, MSG_ROUTE };

/* A node admitted a packet at its first block (SPEC §12.2). */
static void do_deliver(sim_t *s, lane_t *ln, const msg_t *m) {
  slot_t *sl = slot_of(s, m->tag);
  if (sl == NULL) {
    lane_error(ln, m->t, m->dev, "a node received a packet that is not in flight", m->tag);
    return;
  }
  flow_t *f = &s->flows.f[sl->flow];
  if (m->dst / s->routes.ways != m->host || (f->dst != FLOW_ANY_DST && f->dst != m->host))
    lane_error(ln, m->t, m->dev, "a packet reached the wrong host", m->tag);
  /* Out of order: a packet whose number is below one delivered before (serial-number
     arithmetic, RFC 1982, so that the numbers may wrap). A flow without a fixed destination
     (uniform) sends each packet somewhere else: it has no order to keep. */
  if (f->dst != FLOW_ANY_DST) {
    if (f->rx_pkts > 0 && (int32_t)(sl->seq - f->rx_seq_hi) < 0)
      f->out_of_order++;
    else
      f->rx_seq_hi = sl->seq;
  }
  f->rx_bytes += sl->bytes;
  f->rx_pkts++;
  ln->deliv_bytes += sl->bytes;
  if (m->ecn == LFC_ECN_CE) {
    f->ce++;
    if (f->dcqcn) dcqcn_on_ce(&s->dcqcn, f, m->cycle);
  }
  const pool_t *src = &s->pool[m->tag & ((1u << s->tag_bits) - 1u)];
  uint64_t sent = sl->fly != NONE ? src->fly[sl->fly].send_cycle : SIM_NEVER;
  if (latsum_add(&f->lat, (uint32_t)(m->cycle - sent)) != 0)
    sample_lost(ln, m->t, m->dev, m->tag);
  slot_release(s, m->tag, m->t);
  if (f->bytes > 0 && f->rx_bytes >= f->bytes && f->done_cycle == SIM_NEVER)
    flow_done(s, ln, f, m->cycle + (uint64_t)(m->nblk - 1u) * m->k + 1u, m->t, m->dev); /* words */
}

static void do_drop(sim_t *s, lane_t *ln, const msg_t *m) {
  slot_t *sl = slot_of(s, m->tag);
  if (sl == NULL) {
    lane_error(ln, m->t, m->dev, "a drop of a packet that is not in flight", m->tag);
    return;
  }
  s->flows.f[sl->flow].drops++;
  slot_release(s, m->tag, m->t);
}

/* A first block left device dev at t, reaching the next device at cycle: the per-hop latency of
 * the switch it left. */
static void do_hop(sim_t *s, lane_t *ln, const msg_t *m) {
  slot_t *sl = slot_of(s, m->tag);
  if (sl == NULL) return;
  fly_t *y = fly_of(s, m->tag, sl);
  if (y == NULL) {
    fly_lost(ln, m->t, m->dev, m->tag);
    return;
  }
  if (m->dev < s->topo.nsw && y->arrive != SIM_NEVER && y->hop < FLOW_MAX_HOPS) {
    flow_t *f = &s->flows.f[sl->flow];
    uint32_t h = y->hop++;
    if (f->hlat[h].n == 0) { /* its first sample at hop h: nhops > h once it has one */
      f->hop_sw[h] = m->dev;
      if (h >= f->nhops) f->nhops = h + 1u;
    }
    if (latsum_add(&f->hlat[h], (uint32_t)(m->t - y->arrive)) != 0)
      sample_lost(ln, m->t, m->dev, m->tag);
  }
  y->arrive = m->cycle;
  y->wire = m->wire;
  y->dst = m->dst;
  y->cls = m->cls;
}

/* An adaptive switch gave the packet a new address at its input (ar_inputs): the deadlock
 * detector's view of its route there (sim_view). */
static void do_route(sim_t *s, lane_t *ln, const msg_t *m) {
  slot_t *sl = slot_of(s, m->tag);
  if (sl == NULL) return;
  fly_t *y = fly_of(s, m->tag, sl);
  if (y == NULL)
    fly_lost(ln, m->t, m->dev, m->tag);
  else
    y->dst = m->dst;
}

static void apply_msg(sim_t *s, lane_t *ln, const msg_t *m) {
  if (m->kind == MSG_DELIVER) do_deliver(s, ln, m);
  else if (m->kind == MSG_DROP) do_drop(s, ln, m);
  else if (m->kind == MSG_ROUTE) do_route(s, ln, m);
  else do_hop(s, ln, m);
}

/* A record of a step: applied now with one lane, else kept for the merge by the lane of the
 * packet's source, which owns its record and its flow. */
static void __attribute__((noinline)) post_lane(sim_t *s, lane_t *ln, const msg_t *m);

static void post(sim_t *s, lane_t *ln, const msg_t *m) {
  if (s->nlanes == 1)
    apply_msg(s, ln, m);
  else
    post_lane(s, ln, m);
}

/* post with lanes: out of the one-lane step's code (which it made 1 % longer, inlined). */
static void post_lane(sim_t *s, lane_t *ln, const msg_t *m) {
  uint32_t e = m->tag & ((1u << s->tag_bits) - 1u);
  uint32_t to = e < s->topo.nendpoints ? s->ep_lane[e] : 0u;
  sends_to(ln, &ln->mto, &s->lane[to].mfrom, to);
  msg_t *x = chan_put(&ln->mch[to]);
  if (x == NULL) {
    lane_oom(ln, m->t, m->dev, "out of memory for the records between lanes", m->tag);
    return;
  }
  *x = *m;
}

/* The node's delivery callback (lfc_nic_set_rx_callback), inside the host's step. */
static void on_deliver(void *ctx, const lfc_word_t *w, uint64_t cycle) {
  rx_ctx_t *rc = ctx;
  sim_t *s = rc->sim;
  uint32_t d = s->topo.nsw + rc->host;
  const device_t *dv = &s->dev[d];
  lane_t *ln = &s->lane[dv->lane];
  uint32_t k = dv->nports ? wire_into(s, dv, 0)->rx.k : 1u;
  msg_t m = {ln->now, cycle, d, w->tag, rc->host, w->dst, MSG_DELIVER, w->ecn,
             (uint8_t)(w->nblk - (w->mrg & 1u)), /* its words: the last arrives nblk - mrg - 1 slots on */
             (uint8_t)k, 0, 0};
  post(s, ln, &m);
}

static void drop_tag(sim_t *s, lane_t *ln, uint32_t d, uint32_t tag) {
  msg_t m = {ln->now, 0, d, tag, 0, 0, MSG_DROP, 0, 0, 0, 0, 0};
  post(s, ln, &m);
}

/* ---- Sources ---- */

static uint64_t flow_next(const flow_t *f) { return (f->next_x1024 + X1024 - 1u) / X1024; }

/* Earliest cycle >= t at which f may send (on/off bursts), SIM_NEVER if never again. */
static uint64_t flow_due(const flow_t *f, uint64_t t) {
  if (f->deps_left > 0 || (f->bytes > 0 && f->offered_bytes >= f->bytes)) return SIM_NEVER;
  uint64_t n = flow_next(f);
  if (n < t) n = t;
  if (f->off > 0 && n >= f->start) {
    uint64_t period = f->on + f->off, ph = (n - f->start) % period;
    if (ph >= f->on) n += period - ph;
  }
  return n >= f->stop ? SIM_NEVER : n;
}

static void run_source(sim_t *s, lane_t *ln, uint32_t d, uint64_t T) {
  uint32_t h = d - s->topo.nsw, n = s->flows.nby_host[h];
  device_t *dv = &s->dev[d];
  const uint32_t *list = s->flows.by_host[h];
  for (uint32_t i = 0; i < n; i++) {
    uint32_t pos = (dv->rr + i) % n;
    flow_t *f = &s->flows.f[list[pos]];
    if (flow_due(f, T) != T) continue;
    if (lfc_nic_backlog(dv->nic, f->cls) >= s->sc->nic.tx_fifo_pkts) continue;
    uint64_t left = f->bytes > 0 ? f->bytes - f->offered_bytes : UINT64_MAX;
    uint32_t full = f->pkt_bytes; /* its pad is then the block's unused end (SPEC §2.4) */
    uint32_t bytes = left < full ? (uint32_t)left : full;
    uint32_t dst = f->dst;
    if (dst == FLOW_ANY_DST) {
      uint32_t nh = s->topo.nhosts;
      dst = (uint32_t)(sim_rand(&f->rng) % (nh - 1u));
      if (dst >= h) dst++;
    }
    int64_t tag = slot_alloc(s, h, T);
    if (tag < 0) {
      lane_error(ln, T, d, tag == -1 ? "out of memory for packets in flight"
                                      : "more packets in flight from one host than tags hold", 0);
      ln->stop = 1;
      ln->oom = tag == -1;
      return;
    }
    uint32_t choice = sim_mix32(list[pos] * 0x9E3779B1u ^ dst * 0x7FEB352Du ^ h) % s->routes.ways;
    uint32_t nblk = (bytes + LFC_BLOCK_BYTES - 1u) / LFC_BLOCK_BYTES;
    lfc_pkt_t pk = {.cls = f->cls, .nblk = (uint8_t)nblk, .ecn = f->ecn,
                    .pad = (uint8_t)(nblk * LFC_BLOCK_BYTES - bytes), /* SPEC §2.4 */
                    .dst = (uint16_t)(dst * s->routes.ways + choice), .tag = (uint32_t)tag};
    if (lfc_nic_send(dv->nic, &pk) != 0) {
      lane_error(ln, T, d, "the node refused a packet", (uint32_t)tag);
      s->pool[h].slot[tag >> s->tag_bits] = (slot_t){.fly = NONE, .flow = 0};
      slot_release(s, (uint32_t)tag, T);
      continue;
    }
    s->pool[h].slot[tag >> s->tag_bits] = (slot_t){
        .seq = (uint32_t)f->offered_pkts, .fly = NONE, .flow = list[pos], .bytes = (uint16_t)bytes};
    f->offered_bytes += bytes;
    f->offered_pkts++;
    if (f->dcqcn) {
      dcqcn_catch_up(&s->dcqcn, f, T);
      dcqcn_on_send(&s->dcqcn, f, bytes);
    }
    /* On time (T is the due cycle, next_x1024 rounded up): the pacing keeps its fraction; late
       (held back by a full FIFO, an off period, a dependency): it starts again from T. */
    uint64_t base = T <= flow_next(f) ? f->next_x1024 : T * X1024;
    if (f->offered_pkts > f->lead) /* the first `lead` packets come with the first (traffic.c) */
      f->next_x1024 = base + f->interval_x1024 * PPM / f->rate_ppm;
    dv->rr = (pos + 1u) % n;
  }
}

/* May flow f's next packet wait for its host's next step (replay_offers)? When its class has a
 * packet queued at the node already, the offer changes neither the node's next event nor what
 * it sends before then (source_only); a DCQCN flow's offers read its rate, which a CNP merged
 * in between would change (dcqcn.h), so they do not wait. */
static int offer_waits(const device_t *dv, const flow_t *f) {
  return !f->dcqcn && lfc_nic_backlog(dv->nic, f->cls) > 0;
}

/* The host's next cycle of work from t on: its node's next event `w`, or a flow's next packet
 * with room; with `waits`, not the packets that may wait for its next step (offer_waits), and
 * *waits a cycle such that none of those is due before the smaller of it and the cycle returned
 * (replay_offers starts from it). */
static uint64_t host_wake(sim_t *s, uint32_t d, uint64_t t, uint64_t w, uint64_t *waits) {
  device_t *dv = &s->dev[d];
  uint32_t h = d - s->topo.nsw;
  uint64_t wt = SIM_NEVER;
  for (uint32_t i = 0; i < s->flows.nby_host[h]; i++) {
    const flow_t *f = &s->flows.f[s->flows.by_host[h][i]];
    uint64_t due = flow_due(f, t);
    if (due >= w || lfc_nic_backlog(dv->nic, f->cls) >= s->sc->nic.tx_fifo_pkts) continue;
    if (waits != NULL && offer_waits(dv, f)) {
      if (due < wt) wt = due;
    } else {
      w = due;
    }
  }
  if (waits != NULL) *waits = wt;
  return w;
}

/*
 * The packets host d's flows offered before cycle `to` that waited (offer_waits): made now, in
 * cycle order, each as the source-only wake-up of its cycle (source_only) would have made it.
 * Until `to` the node had no event and no word reached it, so each is queued behind a packet of
 * its class and the node's state is as then; a tag is the first index released `lookahead` or
 * more cycles before its cycle, and every such release was merged by that cycle (pool_t), the
 * later ones queue behind it, so the tags are those of the wake-ups too.
 */
static void replay_offers(sim_t *s, lane_t *ln, uint32_t d, uint64_t to) {
  device_t *dv = &s->dev[d];
  if (dv->src_wait >= to) return;
  for (uint64_t t = dv->src_wait; !ln->stop && t < to; t = host_wake(s, d, t + 1u, to, NULL))
    run_source(s, ln, d, t);
  dv->src_wait = to;
}

/* The first cycle at which a word the links do not predict reaches device dv (SIM_NEVER: none
 * in flight). */
static uint64_t first_arrival(const sim_t *s, const device_t *dv) {
  uint64_t t = SIM_NEVER;
  for (uint64_t m = dv->rx_queued; m != 0; m &= m - 1u) { /* ring n > 0 */
    const wire_t *w = wire_into(s, dv, (uint32_t)__builtin_ctzll(m));
    if (w->ring[w->head].t < t) t = w->ring[w->head].t;
  }
  return t;
}

/*
 * May host d's wake-up at T only hand packets to its node (run_source), without stepping it?
 * If so, *arrival is the first cycle a word the links do not predict reaches it (first_arrival;
 * run_source does not change it).
 * When the node has no event at T (nic_next, known from its last step), no word arrives at T
 * that the link does not predict, and every flow due at T queues behind a packet of its own
 * class: such a packet is not the head of its FIFO, so the node's next event and its state as
 * stepped up to T do not change (lfc_nic_send records no cycle), and the step at T would have
 * sent only the next block of a packet or IDLE, as the link's tracker predicts. The node then
 * catches up at its next step (lfc_nic_advance), as over any skipped cycle. Most packets that
 * could be handed over so do not wake the host at all: they wait for its next step
 * (replay_offers); what still comes here is a DCQCN flow's, or a flow's that a predecessor's
 * completion started.
 */
static int source_only(const sim_t *s, const device_t *dv, uint32_t d, uint64_t T,
                       uint64_t *arrival) {
  if (dv->nic_next <= T || (*arrival = first_arrival(s, dv)) == T) return 0;
  uint32_t h = d - s->topo.nsw;
  for (uint32_t i = 0; i < s->flows.nby_host[h]; i++) {
    const flow_t *f = &s->flows.f[s->flows.by_host[h][i]];
    if (flow_due(f, T) == T && lfc_nic_backlog(dv->nic, f->cls) == 0) return 0;
  }
  return 1;
}

/* ---- One device, one cycle ---- */

/* The fields a DATA block repeats on every block (SPEC §2); sop/eop are compared apart. The
 * other fields are zero in the model's words, and --step-all compares every field of every
 * rebuilt word against lfc_link, so a word that broke this would show as a link mismatch. */
static inline int data_eq(const lfc_word_t *a, const tmpl_t *b) {
  return a->cls == b->cls && a->nblk == b->nblk && a->ecn == b->ecn && a->dst == b->dst &&
         a->tag == b->tag && a->pad == b->pad && a->mrg == b->mrg;
}

/*
 * A PFC frame or FCP from the peer names the peer's classes; with a class map on the cable
 * towards the peer, our class c is the peer's cmap[c]: our priority c is paused as long as the
 * peer's cmap[c] is (several of ours may share one of the peer's), and an FCP for the peer's VL
 * v is for our VL with cmap = v (one-to-one in IB mode, checked at load).
 */
static void map_control(const wire_t *fwd, lfc_word_t *w) {
  if (w->kind == LFC_PFC) {
    lfc_word_t o = *w;
    w->pfc_en = 0;
    for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++) {
      uint32_t pc = fwd->cmap[c];
      w->pfc_en |= (uint8_t)(((o.pfc_en >> pc) & 1u) << c);
      w->pfc_time[c] = o.pfc_time[pc];
    }
  } else if (w->fc_vl < LFC_IB_MAX_VLS) {
    for (uint32_t c = 0; c < LFC_IB_MAX_VLS; c++)
      if (fwd->cmap[c] == w->fc_vl) {
        w->fc_vl = (uint8_t)c;
        break;
      }
  }
}

/* Word `in`, off wire w, in the receiver's classes: data through w's class map, control (about
 * the classes the receiver sends on this cable) through the map of the wire back. */
static void received(const sim_t *s, const wire_t *w, lfc_word_t *in) {
  if ((w->rx.maps & MAP_DATA) != 0 && in->kind == LFC_DATA) in->cls = w->cmap[in->cls];
  if ((w->rx.maps & MAP_BACK) != 0 && (in->kind == LFC_PFC || in->kind == LFC_FCP))
    map_control(&s->wire[out_wire(s, &s->dev[w->to], w->to_port)], in);
}

void sim_word_received(const sim_t *s, uint32_t node, uint32_t port, lfc_word_t *in) {
  const wire_t *w = wire_into(s, &s->dev[node], port);
  received(s, w, in);
}

/* Port p's input at T when the link has an unpredicted word or in --step-all (take_input). */
static void __attribute__((noinline)) take_input_slow(sim_t *s, device_t *dv, uint32_t p,
                                                      uint64_t T, wire_t *w, lfc_word_t *in) {
  if (w->n > 0 && w->ring[w->head].t == T) {
    *in = w->ring[w->head].w;
    w->head = w->head + 1u == w->cap ? 0u : w->head + 1u;
    if (--w->n == 0) dv->rx_queued &= ~(1ull << p);
  } else {
    track_expect(&w->rx, T, in);
  }
  if (s->step_all && !lfc_word_equal(in, lfc_link_head(w->link))) {
    s->link_mismatch++;
    *in = *lfc_link_head(w->link);
  }
  track_update(&w->rx, T, in);
  if (!track_after(&w->rx, T) && w->n == 0) dv->rx_busy &= ~(1ull << p);
  received(s, w, in);
}

/* Port p's input at T, rebuilt from the link's tracker and its queue of unpredicted words;
 * 1 if it wrote in[p] (else in[p] stays IDLE). Inlined into process: the predicted case (a
 * packet's next block or IDLE) is the common one. */
static inline int take_input(sim_t *s, device_t *dv, uint32_t p, uint64_t T, lfc_word_t *in) {
  wire_t *w = wire_into(s, dv, p);
  if (s->step_all || (w->n > 0 && w->ring[w->head].t == T)) {
    take_input_slow(s, dv, p, T, w, in);
    return 1;
  }
  int wrote = 0;
  if (track_due(&w->rx, T)) { /* the next block of the packet in flight */
    track_word(&w->rx, T, in);
    if ((w->rx.maps & MAP_DATA) != 0) in->cls = w->cmap[in->cls];
    wrote = 1;
  } /* else IDLE, which in[p] already is */
  if (!track_after(&w->rx, T) && w->n == 0) dv->rx_busy &= ~(1ull << p);
  return wrote;
}

/* Queue a word the receiver's tracker does not predict on wire w, arriving at t. */
static void ring_push(sim_t *s, lane_t *ln, wire_t *w, uint64_t t, const lfc_word_t *word) {
  uint32_t cap = w->cap;
  if (w->n == cap) {
    lane_error(ln, t - w->delay, w->from,
               "internal: more unpredicted words in flight than the link's ring holds", 0);
    return;
  }
  uint32_t tail = w->head + w->n < cap ? w->head + w->n : w->head + w->n - cap;
  w->ring[tail].t = t;
  w->ring[tail].w = *word;
  w->n++;
  s->dev[w->to].rx_busy |= 1ull << w->to_port;
  s->dev[w->to].rx_queued |= 1ull << w->to_port;
  if (!s->step_all) wake_at(s, &ln->q, w->to, t);
}

/* Keep word w, sent at T, in the capture tap (--pcap). 0, or -1 out of memory. */
static int tap_push(sim_tap_t *tap, uint64_t T, const lfc_word_t *w) {
  if (tap->n == tap->cap) {
    uint32_t cap = tap->cap ? tap->cap * 2u : 256u;
    sim_tapword_t *nv = cap > tap->cap ? realloc(tap->v, (size_t)cap * sizeof *nv) : NULL;
    if (nv == NULL) return -1;
    tap->v = nv;
    tap->cap = cap;
  }
  tap->v[tap->n++] = (sim_tapword_t){T, *w};
  return 0;
}

/* Word `out`, put out at T on wire wi, into the channel to its receiver's lane (take_words); out
 * of the one-lane step's code (which it made 1 % longer, inlined). 0, or -1 out of memory (the
 * lane stops). */
static int __attribute__((noinline)) send_lane(sim_t *s, lane_t *ln, uint32_t wi, uint64_t T,
                                               const lfc_word_t *out) {
  const wire_t *w = &s->wire[wi];
  sends_to(ln, &ln->xto, &s->lane[w->xlane - 1u].xfrom, w->xlane - 1u);
  xword_t *x = chan_put(&ln->xch[w->xlane - 1u]);
  if (x == NULL) {
    lane_oom(ln, T, w->from, "out of memory for the words between lanes", 0);
    return -1;
  }
  *x = (xword_t){T + w->delay, wi, *out};
  return 0;
}

/* Port p put out `out` at T: queue it on the link unless the receiver's tracker predicts it;
 * a word for another lane's device goes to the channel to that lane (take_words). */
static void give_output(sim_t *s, lane_t *ln, device_t *dv, uint32_t p, uint64_t T,
                        const lfc_word_t *out) {
  const uint32_t wi = out_wire(s, dv, p);
  wire_t *w = &s->wire[wi];
  int predicted;
  if (track_due(&w->tx, T)) /* the next block of the packet in flight */
    predicted = out->kind == LFC_DATA && data_eq(out, &w->tx.tmpl) &&
                out->eop == track_last(&w->tx, T) && out->sop == 0;
  else
    predicted = out->kind == LFC_IDLE;
  if (!predicted) {
    if (w->xlane == 0)
      ring_push(s, ln, w, T + w->delay, out);
    else if (send_lane(s, ln, wi, T, out) != 0)
      return;
    if (s->want_digest) w->digest = word_hash(mix64(w->digest, T), out);
    if (s->tap != NULL && s->tap[wi] != NULL && tap_push(s->tap[wi], T, out) != 0)
      lane_oom(ln, T, w->from, "out of memory for the --pcap capture", 0);
    if (out->kind == LFC_DATA && out->sop) {
      msg_t m = {T, T + w->delay, w->from, out->tag, 0, out->dst, MSG_HOP, 0, 0, 0, out->cls, wi};
      post(s, ln, &m);
    }
  }
  track_update(&w->tx, T, out);
  if (track_after(&w->tx, T)) /* the port is not looked at before the packet's end (process) */
    dv->tx_busy |= 1ull << p;
  else
    dv->tx_busy &= ~(1ull << p);
}

/*
 * Adaptive routing ([routing] adaptive, docs/sim.md "Adaptive routing"). The switch model
 * forwards by its route table (SPEC §7.1) and stays as it is; the choice is made for it at its
 * input, before its step: a packet's first block `in`, taken by switch d, gets the address of
 * its destination host (one of `ways`, routing.h) whose egress port in d's table has the least
 * load in d's state at the start of this cycle: the blocks queued in the packet's class (`qlen`,
 * SPEC §7.4) and those still to send of the packet on the wire (`tx_rem`). It keeps its own
 * address unless another port's load is strictly less; among equal ones the first after its own
 * address (in address order, modulo ways) wins: no random draw.
 * Only the first block is changed: the model does not read a continuation block's dst (§7.2).
 * The state read is d's own, as stepped or advanced to this cycle, so the choice is the same
 * with any number of threads and with --step-all.
 */
static uint16_t ar_choose(const sim_t *s, uint32_t d, const lfc_word_t *in) {
  const uint32_t ways = s->routes.ways;
  if (ways < 2u || in->dst >= s->routes.len || in->cls >= LFC_MAX_CLASSES) return in->dst;
  const uint32_t h = in->dst / ways, c0 = in->dst % ways, nports = s->dev[d].nports;
  const route_port_t *tab = &s->routes.table[d][h * ways];
  const lfc_switch_t *sw = s->dev[d].sw;
  uint64_t have = 0;         /* ports whose load was read */
  uint32_t load[LFC_MAX_PORTS]; /* their blocks to send */
  uint32_t best = c0, best_load = UINT32_MAX;
  for (uint32_t i = 0; i < ways; i++) {
    uint32_t c = c0 + i < ways ? c0 + i : c0 + i - ways, p = tab[c];
    if (p >= nports) continue;
    if (!(have >> p & 1u)) {
      load[p] = (uint32_t)(lfc_switch_reg(sw, (size_t)s->qlen_reg, p, in->cls) +
                           lfc_switch_reg(sw, (size_t)s->tx_rem_reg, p, 0));
      have |= 1ull << p;
    }
    if (load[p] < best_load) {
      best_load = load[p];
      best = c;
    }
  }
  return (uint16_t)(h * ways + best);
}

/* Switch d at T: the first blocks among its inputs (ports `written`) get their adaptive
 * address; a changed one is recorded for the packet (the deadlock detector reads it). */
static void ar_inputs(sim_t *s, lane_t *ln, uint32_t d, uint64_t T, uint64_t written) {
  for (uint64_t m = written; m != 0; m &= m - 1u) {
    lfc_word_t *w = &ln->in[__builtin_ctzll(m)];
    if (w->kind != LFC_DATA || !w->sop) continue;
    uint16_t dst = ar_choose(s, d, w);
    if (dst == w->dst) continue;
    w->dst = dst;
    msg_t r = {T, T, d, w->tag, 0, dst, MSG_ROUTE, 0, 0, 0, 0, 0};
    post(s, ln, &r);
  }
}

/*
 * Only ports whose link has something in flight (rx_busy: a packet streaming or unpredicted
 * words queued) are rebuilt, and of a switch only those where it would not predict the word
 * itself (lfc_switch_step_ports: it is told which ports' words it is given, predicts the next
 * block of a packet it is receiving elsewhere, as the trackers here do, and looks at neither
 * the other inputs nor the ports that have nothing to send, and says which outputs it wrote);
 * the lane's `in` and `out` keep the words of earlier steps elsewhere. Outputs are looked at
 * only where they can surprise: a port within a packet puts out that packet's next block in
 * its slot and IDLE between slots (SPEC §2.1), and an IDLE where IDLE is expected is
 * recognised by its kind (the model writes every other field of IDLE as zero, lfc/types.h).
 * --step-all steps every port (lfc_switch_step) and checks every rebuilt word against lfc_link
 * in full, so a word that broke either rule would show there as a link mismatch, and a port
 * left out wrongly as a different digest.
 */
static void process(sim_t *s, lane_t *ln, uint32_t d, uint64_t T) {
  device_t *dv = &s->dev[d];
  ln->now = T;
  ln->steps++;
  uint64_t arrival;
  if (dv->is_host && !s->step_all) {
    replay_offers(s, ln, d, T);
    if (source_only(s, dv, d, T, &arrival)) {
      run_source(s, ln, d, T);
      uint64_t nw = host_wake(s, d, T + 1u, dv->nic_next, &dv->src_wait);
      requeue(s, &ln->q, d, arrival < nw ? arrival : nw);
      return;
    }
  }
  if (dv->is_host) {
    if (lfc_nic_cycle(dv->nic) < T) lfc_nic_advance(dv->nic, T);
  } else if (lfc_switch_cycle(dv->sw) < T) {
    lfc_switch_advance(dv->sw, T);
  }
  lfc_word_t *in = ln->in, *out = s->step_all ? &s->outs_all[dv->port_base] : ln->out;
  /* A switch predicts the blocks of the packets it is receiving (lfc_switch_step_ports): the
     inputs of those ports are rebuilt only if an unpredicted word is queued on their link. */
  uint64_t taken = s->step_all    ? dv->connected
                   : dv->is_host ? dv->rx_busy
                                 : (dv->rx_busy & ~lfc_switch_receiving(dv->sw)) | dv->rx_queued;
  uint64_t written = 0;
  for (uint64_t m = taken; m != 0; m &= m - 1u) {
    uint32_t p = (uint32_t)__builtin_ctzll(m);
    written |= (uint64_t)take_input(s, dv, p, T, &in[p]) << p;
  }
  if (s->sc->adaptive && !dv->is_host) ar_inputs(s, ln, d, T, written);
  uint64_t wrote = dv->connected; /* the outputs written: the others are IDLE */
  if (dv->is_host) {
    run_source(s, ln, d, T);
    if ((written & 1u) == 0) in[0] = IDLE; /* in[] holds other devices' words elsewhere */
    lfc_nic_step(dv->nic, in, out);
    if (in[0].kind == LFC_DATA && in[0].sop) { /* the node's drop counter moved: it dropped it */
      const lfc_nic_stats_t *st = lfc_nic_stats(dv->nic);
      uint64_t drops = 0;
      for (uint32_t c = 0; c < LFC_DROP_CAUSES; c++) drops += st->drop_pkts[c];
      if (drops != dv->nic_drops_seen) {
        dv->nic_drops_seen = drops;
        ln->drops_nic++;
        drop_tag(s, ln, d, in[0].tag);
      }
    }
    if (out[0].kind == LFC_DATA && out[0].sop) {
      slot_t *sl = slot_of(s, out[0].tag); /* its own: only its lane touches it now */
      fly_t *y = sl != NULL ? fly_of(s, out[0].tag, sl) : NULL;
      if (sl != NULL && y == NULL) {
        fly_lost(ln, T, d, out[0].tag);
      } else if (sl != NULL) {
        y->send_cycle = T;
        flow_t *f = &s->flows.f[sl->flow];
        if (f->first_tx == SIM_NEVER) f->first_tx = T;
        f->wire_bytes += sl->bytes; /* the packet started: a node never stops one (SPEC §6.7) */
        f->wire_pkts++;
      } else {
        lane_error(ln, T, d, "a node sent a packet that is not in flight", out[0].tag);
      }
    }
  } else if (s->step_all) { /* every port: in[] is IDLE but where written (below) */
    lfc_switch_step(dv->sw, in, out);
    for (uint64_t m = written; m != 0; m &= m - 1u) in[__builtin_ctzll(m)] = IDLE;
  } else { /* the ports looked at are given, IDLE or not; writes out[p] of the ports `wrote` */
    for (uint64_t m = taken & ~written; m != 0; m &= m - 1u) in[__builtin_ctzll(m)] = IDLE;
    wrote = lfc_switch_step_ports(dv->sw, in, taken, out);
  }
  if (!dv->is_host) {
    const lfc_event_t *ev;
    size_t nev = lfc_switch_events(dv->sw, &ev);
    for (size_t i = 0; i < nev; i++)
      if (ev[i].kind == LFC_EV_DROP) {
        ln->drops_sw++;
        drop_tag(s, ln, d, ev[i].tag);
      }
  }
  /* The ports to look at, then in port order: give_output on one port changes no other's
   * tx_busy or tx_end, so deciding first gives the same calls in the same order. */
  uint64_t give = 0;
  if (dv->is_host || s->step_all) {
    for (uint64_t m = dv->tx_busy; m != 0; m &= m - 1u) {
      uint32_t p = (uint32_t)__builtin_ctzll(m);
      /* else within a packet: its next block or IDLE between slots (SPEC §2.1), as the
         tracker of its wire out predicts */
      if (T >= s->wire[out_wire(s, dv, p)].tx.end) give |= 1ull << p;
    }
  } else {
    /* A switch writes the outputs of its ports at a decision point only (a slot with no packet
       in flight, lfc_switch_step_ports); each other port sends its packet's next block in its
       slot or IDLE, as the tracker predicts. A port whose packet ended between slots keeps
       tx_busy until its next decision point: its give_output then moves the tracker. */
    give = wrote & dv->tx_busy;
  }
  for (uint64_t m = dv->connected & ~dv->tx_busy & wrote; m != 0; m &= m - 1u) {
    uint32_t p = (uint32_t)__builtin_ctzll(m);
    if (out[p].kind != LFC_IDLE) give |= 1ull << p; /* else IDLE where IDLE is expected */
  }
  for (uint64_t m = give; m != 0; m &= m - 1u) {
    uint32_t p = (uint32_t)__builtin_ctzll(m);
    give_output(s, ln, dv, p, T, (wrote >> p & 1u) != 0 ? &out[p] : &IDLE);
  }
  if (!s->step_all) {
    uint64_t nw = first_arrival(s, dv);
    /* The device's own next event is at T + 1 at the earliest (its cycle after the step): not
       asked for when a word arrives then anyway. */
    if (nw > T + 1u) {
      uint64_t own;
      if (dv->is_host) {
        dv->nic_next = lfc_nic_next_event(dv->nic);
        own = host_wake(s, d, T + 1u, dv->nic_next, &dv->src_wait);
      } else {
        own = lfc_switch_next_event(dv->sw);
      }
      if (own < nw) nw = own;
    } else if (dv->is_host) {
      dv->nic_next = 0; /* not asked: the word arriving at T + 1 steps it anyway */
      dv->src_wait = T + 1u;
    }
    requeue(s, &ln->q, d, nw);
  }
}

/* ---- Life cycle ---- */

#define CERR(...)                                           \
  do {                                                      \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__);  \
    return -1;                                              \
  } while (0)

/* The heap's keys hold a device id in HEAP_ID_BITS: every fabric topology.c builds fits. */
_Static_assert(TOPO_MAX_NODES <= HEAP_ID_MASK, "device ids must fit the wake-up heap's keys");
_Static_assert(SC_MAX_THREADS * SIM_LANES_PER_THREAD <= UINT8_MAX + 1u, "lanes must fit ep_lane");

/* calloc aligned to SIM_CACHE_LINE: n >= 1 elements of size bytes, zeroed, in whole cache
 * lines (aligned_alloc takes a multiple of the alignment); NULL if out of memory. */
static void *calloc_lines(size_t n, size_t size) {
  if (n == 0) n = 1;
  if (size > (SIZE_MAX - SIM_CACHE_LINE) / n) return NULL;
  size_t bytes = (n * size + SIM_CACHE_LINE - 1u) / SIM_CACHE_LINE * SIM_CACHE_LINE;
  void *p = aligned_alloc(SIM_CACHE_LINE, bytes);
  if (p != NULL) memset(p, 0, bytes);
  return p;
}

/*
 * The lanes' lookahead: the fewest cycles between a step and its first effect on another
 * device. A word arrives a link delay later (>= 1, SPEC §12.1); a CNP cnp_delay later
 * (dcqcn.h); a flow whose predecessors completed may start in the next cycle (flow_done).
 * Computed the same for any number of lanes: tag reuse depends on it (pool_t).
 */
static uint64_t lookahead(const sim_t *s) {
  uint64_t l = SIM_NEVER;
  for (uint32_t x = 0; x < s->nwire; x++)
    if (s->wire[s->wire_order[x]].delay < l) l = s->wire[s->wire_order[x]].delay;
  for (uint32_t i = 0; i < s->flows.n; i++) {
    const flow_t *f = &s->flows.f[i];
    if (f->dcqcn && s->dcqcn.cnp_delay < l) l = s->dcqcn.cnp_delay;
    if (f->nsucc > 0 || f->deps_left > 0) l = 1u;
  }
  return l == SIM_NEVER || l < 1u ? 1u : l;
}

/*
 * sim_create's stages, in order; each returns 0, or -1 with err (sim_create then destroys what
 * was made). The scenario was checked at load (lfc_scenario_finish): what is refused here needs
 * the fabric (failed links, explicit paths, class maps, reachability) or memory.
 */

/* The fabric's graph, its route tables, the flows and their DCQCN state. */
static int build_fabric(sim_t *s, char *err, size_t errlen) {
  const lfc_scenario_t *sc = s->sc;
  if (topo_build(sc, &s->topo, err, errlen) != 0) return -1;
  if (routes_build(sc, &s->topo, &s->routes, err, errlen) != 0) return -1;
  if (flows_build(sc, &s->topo, &s->flows, err, errlen) != 0) return -1;
  dcqcn_cfg(sc, &s->dcqcn);
  for (uint32_t i = 0; i < s->flows.n; i++)
    if (s->flows.f[i].dcqcn && dcqcn_init(&s->dcqcn, &s->flows.f[i]) != 0) CERR("out of memory");
  return 0;
}

/* A device per node, the packet pools of the endpoints, and the lanes the devices are split
   into (one with step_all, which steps every device in every cycle on one thread). */
static int build_lanes(sim_t *s, char *err, size_t errlen) {
  const topo_t *t = &s->topo;
  s->ndev = t->nnodes;
  s->dev = calloc_lines(s->ndev, sizeof *s->dev);
  s->rx_ctx = calloc(t->nendpoints, sizeof(rx_ctx_t));
  s->pool = calloc(t->nendpoints, sizeof *s->pool);
  if (!s->dev || !s->rx_ctx || !s->pool) CERR("out of memory");
  for (uint32_t e = 0; e < t->nendpoints; e++) s->pool[e].fly_free = NONE;
  while ((1u << s->tag_bits) < t->nendpoints) s->tag_bits++; /* <= HEAP_ID_BITS */
  s->nthreads = s->step_all || s->sc->threads < 1u ? 1u : s->sc->threads;
  s->nlanes = s->nthreads == 1u ? 1u : s->nthreads * SIM_LANES_PER_THREAD;
  if (s->nlanes > s->ndev) s->nlanes = s->ndev;
  if (s->nthreads > s->nlanes) s->nthreads = s->nlanes; /* a thread more would find no lane */
  s->lane = calloc_lines(s->nlanes, sizeof *s->lane);
  if (!s->lane) CERR("out of memory");
  for (uint32_t l = 0; l < s->nlanes; l++) {
    lane_t *ln = &s->lane[l];
    ln->sim = s;
    ln->id = l;
    ln->q.heap = calloc(s->ndev, sizeof *ln->q.heap);
    ln->q.cal_words = (s->ndev + BITS - 1u) / BITS;
    ln->q.cal = calloc((size_t)SIM_CAL_SLOTS * ln->q.cal_words, sizeof *ln->q.cal);
    ln->q.cal_n = calloc(SIM_CAL_SLOTS, sizeof *ln->q.cal_n);
    ln->q.cal_lo = calloc(SIM_CAL_SLOTS, sizeof *ln->q.cal_lo);
    atomic_init(&ln->upto, 0u);
    atomic_init(&ln->xfrom, 0u);
    atomic_init(&ln->mfrom, 0u);
    if (s->nlanes > 1u) { /* a lane's channels, each in lines of its own (chan_t) */
      ln->xch = calloc_lines(s->nlanes, sizeof *ln->xch);
      ln->mch = calloc_lines(s->nlanes, sizeof *ln->mch);
      if (!ln->xch || !ln->mch) CERR("out of memory");
      for (uint32_t m = 0; m < s->nlanes; m++) {
        chan_init(&ln->xch[m], sizeof(xword_t));
        chan_init(&ln->mch[m], sizeof(msg_t));
      }
    }
    if (!ln->q.heap || !ln->q.cal || !ln->q.cal_n || !ln->q.cal_lo) CERR("out of memory");
  }
  if (s->nlanes > 1u) {
    uint32_t *lane_of = calloc(s->ndev, sizeof *lane_of);
    if (!lane_of || partition_nodes(t, s->nlanes, lane_of) != 0) {
      free(lane_of);
      CERR("out of memory");
    }
    for (uint32_t d = 0; d < s->ndev; d++) s->dev[d].lane = lane_of[d];
    free(lane_of);
    s->ep_lane = malloc(t->nendpoints ? t->nendpoints : 1u);
    if (!s->ep_lane) CERR("out of memory");
    for (uint32_t e = 0; e < t->nendpoints; e++) s->ep_lane[e] = (uint8_t)s->dev[t->nsw + e].lane;
  }
  return 0;
}

/* Each device's ports, and a wire per direction of every working cable (by receiver: see
   sim_t.wire), with its ring of words in flight and, with step_all, its lfc_link. */
static int build_wires(sim_t *s, char *err, size_t errlen) {
  const topo_t *t = &s->topo;
  uint32_t total_ports = 0;
  for (uint32_t d = 0; d < s->ndev; d++) {
    device_t *dv = &s->dev[d];
    dv->nports = t->nports[d];
    dv->port_base = total_ports;
    total_ports += dv->nports;
  }
  s->out_wires = calloc_lines(total_ports, sizeof *s->out_wires);
  if (!s->out_wires) CERR("out of memory");
  for (uint32_t d = 0; d < s->ndev; d++) {
    device_t *dv = &s->dev[d];
    for (uint32_t p = 0; p < dv->nports; p++) s->out_wires[dv->port_base + p] = NONE;
  }
  if (s->step_all) {
    s->outs_all = calloc(total_ports, sizeof *s->outs_all);
    if (!s->outs_all) CERR("out of memory");
  }
  s->wire = calloc_lines(total_ports, sizeof *s->wire);
  s->wire_order = calloc(2u * t->nlinks + 1u, sizeof *s->wire_order);
  if (!s->wire || !s->wire_order) CERR("out of memory");
  for (uint32_t l = 0; l < t->nlinks; l++) {
    const topo_link_t *lk = &t->links[l];
    if (lk->failed) continue;
    for (int dir = 0; dir < 2; dir++) {
      uint32_t to = dir ? lk->a : lk->b, to_port = dir ? lk->pa : lk->pb;
      uint32_t wi = s->dev[to].port_base + to_port;
      wire_t *w = &s->wire[wi];
      s->wire_order[s->nwire++] = wi;
      w->from = dir ? lk->b : lk->a;
      w->from_port = dir ? lk->pb : lk->pa;
      w->to = to;
      w->to_port = to_port;
      /* >= 1, the lookahead of skip-ahead and of the lanes (SPEC §12.1), and with step_all
         at most LFC_LINK_MAX_DELAY: lfc_scenario_finish checked every cable's delay */
      w->delay = lk->delay;
      w->tx.k = w->rx.k = (uint8_t)lk->speed_div;
      w->xlane = s->dev[to].lane != s->dev[w->from].lane ? s->dev[to].lane + 1u : 0u;
      /* From another lane, words sent up to a lookahead (<= delay) after the receiver's
         cycle may be in flight (lane_run): delay + lookahead at most */
      w->cap = w->xlane ? 2u * w->delay : w->delay + 1u;
      w->ring = calloc(w->cap, sizeof *w->ring);
      if (!w->ring) CERR("out of memory");
      if (s->step_all) {
        w->link = lfc_link_create(lk->delay);
        if (!w->link) CERR("out of memory");
      }
      s->out_wires[s->dev[w->from].port_base + w->from_port] = wi;
      s->dev[w->from].connected |= 1ull << w->from_port;
    }
  }
  return 0;
}

/* [classmap]: the wires of each listed cable between two switches take their maps. */
static int apply_classmaps(sim_t *s, char *err, size_t errlen) {
  const lfc_scenario_t *sc = s->sc;
  const topo_t *t = &s->topo;
  for (uint32_t i = 0; i < sc->nclassmaps; i++) {
    const sc_classmap_t *m = &sc->classmaps[i];
    int64_t a = topo_find(t, m->from), b = topo_find(t, m->to);
    int found = 0;
    for (uint32_t x = 0; x < s->nwire && a >= 0 && b >= 0 && a < t->nsw && b < t->nsw; x++) {
      wire_t *w = &s->wire[s->wire_order[x]];
      /* IB: both ways (the map is its own inverse, checked at load); PFC: from -> to */
      int both_ways = sc->sw[0].mode == LFC_MODE_IB;
      if ((w->from == a && w->to == b) || (both_ways && w->from == b && w->to == a)) {
        found = 1;
        w->rx.maps |= MAP_DATA;
        wire_into(s, &s->dev[w->from], w->from_port)->rx.maps |= MAP_BACK; /* w is its back */
        for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++)
          w->cmap[c] = (uint8_t)(c < m->n ? m->map[c] : c);
      }
    }
    if (!found)
      CERR("%s:%u: [classmap] %s-%s: no working cable from switch %s to switch %s; allowed: "
           "two adjacent switches", sc->file, m->line, m->from, m->to, m->from, m->to);
  }
  return 0;
}

/* The model of every device (liblfc switches with their role's configuration, the ports' speed
   dividers and the route tables; NICs), each due at cycle 0. */
static int create_devices(sim_t *s, char *err, size_t errlen) {
  const lfc_scenario_t *sc = s->sc;
  const topo_t *t = &s->topo;
  rx_ctx_t *rx_ctxs = s->rx_ctx;
  for (uint32_t d = 0; d < s->ndev; d++) {
    device_t *dv = &s->dev[d];
    char msg[512], name[64];
    if (d < t->nsw) {
      lfc_switch_cfg_t cfg = sc->sw[t->role[d]];
      cfg.ports = dv->nports;
      for (uint32_t p = 0; p < dv->nports; p++) {
        int32_t l = t->port_link[(size_t)d * LFC_MAX_PORTS + p];
        cfg.speed_div[p] = (uint8_t)(l >= 0 ? t->links[l].speed_div : 1u);
      }
      cfg.seed = cfg.seed ^ sim_mix32(d + 1u);
      if (cfg.seed == 0) cfg.seed = 1;
      cfg.route = s->routes.table[d];
      cfg.route_len = s->routes.len;
      dv->sw = lfc_switch_create(&cfg, msg, sizeof msg);
      if (!dv->sw) CERR("%s: switch %s: %s", sc->file, topo_name(t, d, name, sizeof name), msg);
    } else {
      lfc_nic_cfg_t nc = sc->nic;
      int32_t l = t->port_link[(size_t)d * LFC_MAX_PORTS];
      nc.speed_div = l >= 0 ? t->links[l].speed_div : 1u;
      nc.seed = (uint32_t)sc->seed ^ sim_mix32(d + 1u); /* each host's own jitter draws (§12.2) */
      dv->is_host = 1;
      dv->nic = lfc_nic_create(&nc, msg, sizeof msg);
      if (!dv->nic) CERR("%s: host %s: %s", sc->file, topo_name(t, d, name, sizeof name), msg);
      rx_ctxs[d - t->nsw] = (rx_ctx_t){s, d - t->nsw};
      lfc_nic_set_rx_callback(dv->nic, on_deliver, &rx_ctxs[d - t->nsw]);
    }
    dv->wake = 0;
    cal_insert(s, &s->lane[dv->lane].q, d, 0); /* cal_now = 0 */
  }
  return 0;
}

static void teardown(sim_t *s);

sim_t *sim_create(const lfc_scenario_t *sc, char *err, size_t errlen) {
  sim_t *s = calloc(1, sizeof *s);
  if (s == NULL) {
    if (err && errlen) snprintf(err, errlen, "out of memory");
    return NULL;
  }
  s->sc = sc;
  s->step_all = sc->step_all;
  s->cycle_ns = sc->cycle_ns;
  s->end = sc->end_cycle;
  s->sample_every = sc->sample_cycles;
  s->qlen_reg = lfc_reg_find("qlen"); /* both found: lfc_scenario_finish checks [routing] adaptive */
  s->tx_rem_reg = lfc_reg_find("tx_rem");
  if (build_fabric(s, err, errlen) != 0 || build_lanes(s, err, errlen) != 0 ||
      build_wires(s, err, errlen) != 0 || apply_classmaps(s, err, errlen) != 0 ||
      create_devices(s, err, errlen) != 0) {
    sim_destroy(s);
    return NULL;
  }
  s->lookahead = lookahead(s);
  return s;
}

void sim_destroy(sim_t *s) {
  if (s == NULL) return;
  teardown(s);
  free(s);
}

/* Free what sim_create made of s (also when it failed part way: what is NULL was not made). */
static void teardown(sim_t *s) {
  if (s->dev)
    for (uint32_t d = 0; d < s->ndev; d++) {
      lfc_switch_destroy(s->dev[d].sw);
      lfc_nic_destroy(s->dev[d].nic);
    }
  free(s->out_wires);
  if (s->wire)
    for (uint32_t x = 0; x < s->nwire; x++) {
      free(s->wire[s->wire_order[x]].ring);
      lfc_link_destroy(s->wire[s->wire_order[x]].link);
    }
  free(s->dev);
  free(s->wire);
  free(s->wire_order);
  if (s->lane) {
    for (uint32_t l = 0; l < s->nlanes; l++) {
      lane_t *ln = &s->lane[l];
      free(ln->q.heap);
      free(ln->q.cal);
      free(ln->q.cal_n);
      free(ln->q.cal_lo);
      for (uint32_t k = 0; k < s->nlanes; k++) {
        if (ln->xch) chan_free(&ln->xch[k]);
        if (ln->mch) chan_free(&ln->mch[k]);
      }
      free(ln->xch);
      free(ln->mch);
      free(ln->done);
    }
  }
  if (s->pool)
    for (uint32_t e = 0; e < s->topo.nendpoints; e++) {
      free(s->pool[e].slot);
      free(s->pool[e].fq);
      free(s->pool[e].fly);
    }
  flows_free(&s->flows, s->topo.nendpoints);
  routes_free(&s->routes, s->topo.nsw);
  topo_free(&s->topo);
  free(s->lane);
  free(s->ep_lane);
  free(s->pool);
  free(s->outs_all);
  free(s->rx_ctx);
  free(s->tap);
  memset(s, 0, sizeof *s);
}

/* Bring every device to cycle `to` (no device may be behind a pending event before it). */
static void sync_all(sim_t *s, uint64_t to) {
  for (uint32_t d = 0; d < s->ndev; d++) {
    device_t *dv = &s->dev[d];
    if (dv->is_host) {
      if (!s->step_all) replay_offers(s, &s->lane[dv->lane], d, to);
      if (lfc_nic_cycle(dv->nic) < to) lfc_nic_advance(dv->nic, to);
    } else if (lfc_switch_cycle(dv->sw) < to) {
      lfc_switch_advance(dv->sw, to);
    }
  }
}

static void sample(sim_t *s, uint64_t t) {
  s->now = t;
  if (s->sample_fn) s->sample_fn(s, t, s->sample_ctx);
}

/* The lanes' counters and first error into the run's (at a fence, or at the end). */
static void fold_lanes(sim_t *s) {
  s->steps = s->drops_sw = s->drops_nic = s->errors = s->deliv_bytes = 0;
  const lane_t *first = NULL;
  for (uint32_t l = 0; l < s->nlanes; l++) {
    const lane_t *ln = &s->lane[l];
    s->steps += ln->steps;
    s->drops_sw += ln->drops_sw;
    s->drops_nic += ln->drops_nic;
    s->errors += ln->errors;
    s->deliv_bytes += ln->deliv_bytes;
    if (ln->errors > 0 && (first == NULL || ln->err_t < first->err_t ||
                           (ln->err_t == first->err_t && ln->err_d < first->err_d)))
      first = ln;
    if (ln->oom) s->oom = 1;
    if (ln->stop && !s->stop) {
      s->stop = 1;
      s->now = ln->now;
    }
  }
  if (first != NULL) snprintf(s->error, sizeof s->error, "%s", first->error);
}

/* ---- Lanes ---- */

/* The run ends early: a sample found a deadlock, or a lane ran out of memory. */
static int any_stop(const sim_t *s) {
  int stop = s->stop;
  for (uint32_t l = 0; l < s->nlanes; l++) stop |= s->lane[l].stop;
  return stop;
}

/* Take the samples due at or before g, the next event (each sees every lane folded in), and
   return the next fence: the next sample, or the end of the run. */
static uint64_t sample_until(sim_t *s, uint64_t g, uint64_t *next_sample) {
  while (!any_stop(s) && s->sample_fn && *next_sample < s->end && *next_sample <= g) {
    sync_all(s, *next_sample); /* before folding: its offers (replay_offers) may meet an error */
    fold_lanes(s);
    sample(s, *next_sample);
    *next_sample += s->sample_every;
  }
  return s->sample_fn && *next_sample < s->end ? *next_sample : s->end;
}

/* Skip-ahead on one lane: every effect is applied in the step; the samples are taken between
   the steps of their cycle and the cycle before. */
static void run_serial(sim_t *s) {
  lane_t *ln = &s->lane[0];
  uint64_t next_sample = s->sample_every;
  uint32_t d = NONE;
  for (;;) {
    uint64_t g = queue_next(&ln->q);
    uint64_t b = sample_until(s, g, &next_sample);
    if (any_stop(s) || g >= s->end) return;
    for (uint64_t T; !ln->stop && (T = queue_pop(s, &ln->q, b, &d)) < b;) process(s, ln, d, T);
  }
}

static int msg_before(const msg_t *a, const msg_t *b) {
  return a->t < b->t || (a->t == b->t && a->dev < b->dev);
}

/* The words lane l sent lane ln's devices, all those visible: onto their links, in the order
 * sent (a link's words come from one lane, in the order of its cycles). */
static void take_words(sim_t *s, lane_t *ln, uint32_t l) {
  chan_t *c = &s->lane[l].xch[ln->id];
  uint32_t n;
  for (const xword_t *x; (x = chan_peek(c, &n)) != NULL; chan_pop(c, n))
    for (uint32_t i = 0; i < n; i++) ring_push(s, ln, &s->wire[x[i].wire], x[i].t, &x[i].w);
}

/* The records of steps before cycle r for the packets and flows of lane ln's hosts, from every
 * lane (itself too), in (cycle, device) order: the order of one thread. Each channel is in
 * that order, no two hold a device's, and every lane has stepped every cycle before r. */
static void take_records(sim_t *s, lane_t *ln, uint64_t r) {
  const msg_t *next[SC_MAX_THREADS * SIM_LANES_PER_THREAD];
  uint32_t left[SC_MAX_THREADS * SIM_LANES_PER_THREAD];
  chan_t *from[SC_MAX_THREADS * SIM_LANES_PER_THREAD];
  uint32_t n = 0;
  for (uint64_t m = atomic_load_explicit(&ln->mfrom, memory_order_acquire); m != 0; m &= m - 1u) {
    from[n] = &s->lane[__builtin_ctzll(m)].mch[ln->id];
    if ((next[n] = chan_peek(from[n], &left[n])) != NULL) n++;
  }
  for (;;) {
    uint32_t b = NONE;
    for (uint32_t i = 0; i < n; i++)
      if (left[i] > 0 && next[i]->t < r && (b == NONE || msg_before(next[i], next[b]))) b = i;
    if (b == NONE) return;
    apply_msg(s, ln, next[b]);
    chan_pop(from[b], 1u);
    if (--left[b] > 0) next[b]++;
    else if ((next[b] = chan_peek(from[b], &left[b])) == NULL) left[b] = 0;
  }
}

/* How far every lane but `except` (NONE: none) has stepped (lane_t.upto): the least. */
static uint64_t min_upto(const sim_t *s, uint32_t except) {
  uint64_t lo = SIM_NEVER;
  for (uint32_t l = 0; l < s->nlanes; l++) {
    uint64_t u = atomic_load_explicit(&s->lane[l].upto, memory_order_acquire);
    if (l != except && u < lo) lo = u;
  }
  return lo;
}

/* How far the lanes other than ln have stepped (lane_t.upto): the least; and the words of
 * each that has sent ln words and moved since ln last looked (what it sent before that is in
 * its channel, and its bit in xfrom was set before). */
static uint64_t others_upto(sim_t *s, lane_t *ln) {
  uint64_t lo = min_upto(s, ln->id);
  for (uint64_t m = atomic_load_explicit(&ln->xfrom, memory_order_acquire); m != 0; m &= m - 1u) {
    uint32_t l = (uint32_t)__builtin_ctzll(m);
    uint64_t u = atomic_load_explicit(&s->lane[l].upto, memory_order_acquire);
    if (u != ln->seen[l]) {
      ln->seen[l] = u;
      take_words(s, ln, l);
    }
  }
  return lo;
}

/* Cycles a lane steps in one call of its job at most, so that the crew sees its pace. */
#define LANE_RUN_CYCLES 64u

/*
 * Step lane ln on, cycle by cycle, as far as the other lanes let it: a word sent at cycle t
 * arrives at t + delay >= t + lookahead, so with every other lane stepped up to lo, every word
 * for a cycle before lo + lookahead is in the channels. Before each cycle T the lane takes the
 * words that have come and the records of the cycles before min(lo, T) (those of the cycles up
 * to T - lookahead are all there, and a record changes nothing a step reads within lookahead
 * cycles: see the top of this file). After it, it publishes what it sent, then how far it has
 * stepped: the next cycle it has to step, or lo + lookahead if that is sooner (the others then
 * move on even when it has nothing to do). CREW_DONE at the fence; CREW_WAIT when it could not
 * step a cycle.
 */
static int lane_run(sim_t *s, lane_t *ln) {
  const uint64_t fence = s->fence;
  int moved = 0;
  for (uint32_t i = 0; i < LANE_RUN_CYCLES; i++) {
    uint64_t upto = atomic_load_explicit(&ln->upto, memory_order_relaxed);
    if (upto >= fence || ln->stop || atomic_load_explicit(&s->halt, memory_order_relaxed))
      return CREW_DONE;
    uint64_t lo = others_upto(s, ln);
    uint64_t T = queue_next(&ln->q);
    uint64_t lim = lo < fence && fence - lo > s->lookahead ? lo + s->lookahead : fence;
    if (T >= lim) {
      if (lim > upto) atomic_store_explicit(&ln->upto, lim, memory_order_release);
      return lim >= fence ? CREW_DONE : moved ? CREW_MOVED : CREW_WAIT;
    }
    take_records(s, ln, lo < T ? lo : T);
    uint32_t d = NONE;
    for (uint64_t t; (t = queue_pop(s, &ln->q, T + 1u, &d)) <= T;) process(s, ln, d, t);
    /* only the channels it has written (sends_to marks them before their first entry) */
    for (uint64_t m = ln->xto; m != 0; m &= m - 1u) chan_publish(&ln->xch[__builtin_ctzll(m)]);
    for (uint64_t m = ln->mto; m != 0; m &= m - 1u) chan_publish(&ln->mch[__builtin_ctzll(m)]);
    if (ln->stop) atomic_store_explicit(&s->halt, 1, memory_order_relaxed);
    uint64_t next = queue_next(&ln->q);
    atomic_store_explicit(&ln->upto, next < lim ? next : lim, memory_order_release);
    moved = 1;
  }
  return CREW_MOVED;
}

/* The crew's unit: one lane, in the phase run_parallel set. */
static int lane_job(void *ctx, uint32_t unit) {
  sim_t *s = ctx;
  lane_t *ln = &s->lane[unit];
  if (s->phase == PHASE_RUN) return lane_run(s, ln);
  /* PHASE_APPLY: every lane is at the fence */
  for (uint64_t m = atomic_load_explicit(&ln->xfrom, memory_order_acquire); m != 0; m &= m - 1u)
    take_words(s, ln, (uint32_t)__builtin_ctzll(m));
  take_records(s, ln, s->fence);
  return CREW_DONE;
}

/* The crew's measure of progress: the cycle every lane has stepped to. */
static uint64_t lanes_clock(void *ctx) { return min_upto(ctx, NONE); }

/* The flows that completed in the lanes' merges start their successors, in (cycle, device)
 * order as with one lane (the last predecessor sets the start). */
static void start_done(sim_t *s) {
  uint32_t pos[SC_MAX_THREADS * SIM_LANES_PER_THREAD] = {0};
  for (;;) {
    const done_t *best = NULL;
    uint32_t bl = 0;
    for (uint32_t l = 0; l < s->nlanes; l++) {
      const lane_t *o = &s->lane[l];
      if (pos[l] < o->ndone && (best == NULL || o->done[pos[l]].t < best->t ||
                                (o->done[pos[l]].t == best->t && o->done[pos[l]].dev < best->dev))) {
        best = &o->done[pos[l]];
        bl = l;
      }
    }
    if (best == NULL) break;
    pos[bl]++;
    start_succ(s, &s->flows.f[best->flow], best->cycle, best->t);
  }
  for (uint32_t l = 0; l < s->nlanes; l++) s->lane[l].ndone = 0;
}

/* The first cycle any device wakes (every word applied). */
static uint64_t lanes_next(const sim_t *s) {
  uint64_t g = SIM_NEVER;
  for (uint32_t l = 0; l < s->nlanes; l++) {
    uint64_t t = queue_next(&s->lane[l].q);
    if (t < g) g = t;
  }
  return g;
}

static void crew_phase(sim_t *s, unsigned phase) {
  s->phase = phase;
  crew_run(&s->crew);
}

/*
 * Skip-ahead on several threads, led by this one, fence by fence: the next sample or the end,
 * or, where flows wait for others, the next window of `lookahead` cycles. Up to a fence the
 * lanes step on by themselves (lane_run: each waits only for a lane that is a lookahead
 * behind), then each applies what is left for it, and the leader takes the samples and starts
 * the successors of completed flows (start_done: they start from the next cycle, so may wake
 * in the next window).
 */
static void run_parallel(sim_t *s) {
  int rc = crew_start(&s->crew, s->nthreads, s->nlanes, lane_job, lanes_clock, s);
  if (rc != 0) {
    char msg[128];
    snprintf(msg, sizeof msg, "cannot start %u threads: %s", s->nthreads, strerror(rc));
    lane_oom(&s->lane[0], 0, 0, msg, 0);
    return;
  }
  int succ = 0; /* a flow has successors: completions are started at fences a window apart */
  for (uint32_t i = 0; i < s->flows.n; i++) succ |= s->flows.f[i].nsucc > 0;
  uint64_t next_sample = s->sample_every;
  for (;;) {
    if (succ) start_done(s);
    uint64_t g = lanes_next(s);
    uint64_t b = sample_until(s, g, &next_sample);
    if (any_stop(s) || g >= s->end) break;
    s->fence = succ && s->lookahead < b - g ? g + s->lookahead : b;
    for (uint32_t l = 0; l < s->nlanes; l++) /* no lane has a step before g */
      atomic_store_explicit(&s->lane[l].upto, g, memory_order_relaxed);
    crew_phase(s, PHASE_RUN);
    crew_phase(s, PHASE_APPLY);
  }
  crew_stop(&s->crew);
}

void sim_run(sim_t *s) {
  s->next_sample = s->sample_every;
  if (s->step_all) {
    lane_t *ln = &s->lane[0];
    for (uint64_t T = 0; T < s->end && !s->stop && !ln->stop; T++) {
      if (s->sample_fn && T == s->next_sample) {
        fold_lanes(s);
        sample(s, T);
        s->next_sample += s->sample_every;
      }
      for (uint32_t d = 0; d < s->ndev; d++) process(s, ln, d, T);
      for (uint32_t d = 0; d < s->ndev; d++) { /* every link moves one cycle */
        const device_t *dv = &s->dev[d];
        for (uint32_t p = 0; p < dv->nports; p++)
          if (out_wire(s, dv, p) != NONE)
            lfc_link_push(s->wire[out_wire(s, dv, p)].link, &s->outs_all[dv->port_base + p]);
      }
    }
  } else if (s->nlanes == 1u) {
    run_serial(s);
  } else {
    run_parallel(s);
  }
  fold_lanes(s);
  if (!s->stop) {
    sync_all(s, s->end);
    s->now = s->end;
  } else {
    s->end = s->now; /* stopped early (deadlock found): report up to here */
    sync_all(s, s->end);
  }
  fold_lanes(s); /* the errors of the last offers (replay_offers), if any */
}

/* ---- The observer interface (observer.h) ---- */

/* view.each_held: the packet records of every source endpoint, by tag index; a packet's first
 * block went last over slot.wire, so the switch that holds it is that wire's receiver. */
static void view_each_held(void *ctx, uint64_t at, sim_held_fn fn, void *fn_ctx) {
  const sim_t *s = ctx;
  for (uint32_t e = 0; e < s->topo.nendpoints; e++) {
    const pool_t *p = &s->pool[e];
    for (uint32_t i = 0; i < p->n; i++) {
      const slot_t *sl = &p->slot[i];
      if (sl->flow == SLOT_FREE || sl->fly == NONE) continue;
      const fly_t *y = &p->fly[sl->fly];
      if (y->wire == NONE || y->arrive >= at) continue;
      const wire_t *w = &s->wire[y->wire];
      if (w->to >= s->topo.nsw) continue; /* on its way to, or at, an end node */
      uint8_t cls = (w->rx.maps & MAP_DATA) != 0 ? w->cmap[y->cls] : y->cls;
      fn(fn_ctx, w->to, w->to_port, cls, y->dst);
    }
  }
}

static int view_next_hop(void *ctx, uint32_t sw, uint32_t port, uint32_t cls, uint32_t *to,
                         uint32_t *to_port, uint32_t *to_cls) {
  const sim_t *s = ctx;
  int64_t n = topo_peer(&s->topo, sw, port, to_port);
  if (n < 0 || n >= s->topo.nsw) return 0;
  uint32_t wi = out_wire(s, &s->dev[sw], port);
  *to = (uint32_t)n;
  *to_cls = wi != NONE && (s->wire[wi].rx.maps & MAP_DATA) != 0 ? s->wire[wi].cmap[cls] : cls;
  return 1;
}

static uint32_t view_route(void *ctx, uint32_t sw, uint16_t dst) {
  const sim_t *s = ctx;
  return dst < s->routes.len ? s->routes.table[sw][dst] : LFC_MAX_PORTS;
}

static void view_stop(void *ctx) { ((sim_t *)ctx)->stop = 1; }

static const char *view_name(void *ctx, uint32_t node, char *buf, size_t len) {
  return topo_name(&((const sim_t *)ctx)->topo, node, buf, len);
}

void sim_view(sim_t *s, sim_view_t *v) {
  *v = (sim_view_t){s, s->topo.nsw, s->cycle_ns, view_next_hop, view_route, view_each_held,
                    view_stop, view_name, 1u, 1u};
  for (uint32_t sw = 0; sw < s->topo.nsw; sw++)
    if (s->topo.nports[sw] > v->qports) v->qports = s->topo.nports[sw];
  /* A held packet is in a class its switch admits (SPEC §7.2): one of the role's classes, or
     VL15 in IB mode; a class map may name any class of the next switch. */
  const lfc_scenario_t *sc = s->sc;
  for (uint32_t r = 0; r < sc->nroles; r++) {
    uint32_t c = sc->sw[r].mode == LFC_MODE_IB ? LFC_MAX_CLASSES : sc->sw[r].classes;
    if (c > v->qclasses) v->qclasses = c;
  }
  if (sc->nclassmaps > 0) v->qclasses = LFC_MAX_CLASSES;
}

/* A latency series: its samples in order while it keeps them (the same hash as when every
 * sample was kept), else its counts per bucket and its largest sample (latsum.h). */
static uint64_t digest_lat(uint64_t h, const latsum_t *l) {
  if (latsum_is_raw(l)) {
    for (uint64_t j = 0; j < l->n; j++) h = mix64(h, latsum_sample(l, j));
    return h;
  }
  for (uint32_t b = 0; b < l->nv; b++)
    if (latsum_count(l, b)) h = mix64(mix64(h, b), latsum_count(l, b));
  return mix64(mix64(h, l->n), l->max);
}

uint64_t sim_digest(const sim_t *s) {
  uint64_t h = 0;
  for (uint32_t d = 0; d < s->ndev; d++) {
    const device_t *dv = &s->dev[d];
    if (dv->is_host) {
      const lfc_nic_stats_t *st = lfc_nic_stats(dv->nic);
      const uint64_t *v = (const uint64_t *)st;
      for (size_t i = 0; i < sizeof *st / sizeof *v; i++) h = mix64(h, v[i]);
      h = mix64(h, lfc_nic_cycle(dv->nic));
    } else {
      for (uint32_t p = 0; p < dv->nports; p++) {
        lfc_port_stats_t st_buf;
        const lfc_port_stats_t *st = sim_port_stats(s, d, p, &st_buf);
        const uint64_t *v = (const uint64_t *)st;
        for (size_t i = 0; i < sizeof *st / sizeof *v; i++) h = mix64(h, v[i]);
      }
      h = mix64(h, lfc_switch_cycle(dv->sw));
    }
  }
  for (uint32_t x = 0; x < s->nwire; x++) h = mix64(h, s->wire[s->wire_order[x]].digest);
  for (uint32_t i = 0; i < s->flows.n; i++) {
    const flow_t *f = &s->flows.f[i];
    h = mix64(h, f->rx_bytes);
    h = mix64(h, f->rx_pkts);
    h = mix64(h, f->offered_bytes);
    h = mix64(h, f->wire_bytes);
    h = mix64(h, f->drops);
    h = mix64(h, f->ce);
    h = mix64(h, f->done_cycle);
    h = mix64(h, f->first_tx);
    h = digest_lat(h, &f->lat);
    h = mix64(h, f->dc_cnps);
    if (s->sc->adaptive) h = mix64(h, f->out_of_order); /* 0 without: digests as before */
    for (uint32_t k = 0; k < f->nhops; k++) { /* per-hop latency, in the order it was taken */
      h = mix64(h, f->hop_sw[k]);
      h = digest_lat(h, &f->hlat[k]);
    }
  }
  h = mix64(h, s->errors);
  return h;
}

/* ---- Before the run; what it leaves for the reports (engine.h) ---- */

void sim_observe(sim_t *s, sim_sample_fn fn, void *ctx) {
  s->sample_fn = fn;
  s->sample_ctx = ctx;
}

void sim_want_digest(sim_t *s) { s->want_digest = 1; }

int sim_tap(sim_t *s, uint32_t node, uint32_t port, sim_tap_t *tap) {
  if (s->tap == NULL) { /* one slot per wire index: port_base + port over every device */
    const size_t n = (size_t)s->dev[s->ndev - 1u].port_base + s->dev[s->ndev - 1u].nports + 1u;
    s->tap = calloc(n, sizeof *s->tap);
    if (s->tap == NULL) return -1;
  }
  s->tap[s->dev[node].port_base + port] = tap;
  return 0;
}

void sim_untap(sim_t *s) {
  free(s->tap);
  s->tap = NULL;
}

void sim_stop(sim_t *s) { s->stop = 1; }

uint16_t sim_tag_source(const sim_t *s, uint32_t tag) {
  /* the tag names the endpoint (pool_t), whose first address is endpoint x ways (SPEC §7.1) */
  return (uint16_t)((tag & ((1u << s->tag_bits) - 1u)) * s->routes.ways);
}

const lfc_scenario_t *sim_scenario(const sim_t *s) { return s->sc; }
const topo_t *sim_topo(const sim_t *s) { return &s->topo; }
const flows_t *sim_flows(const sim_t *s) { return &s->flows; }
const lfc_switch_t *sim_switch(const sim_t *s, uint32_t node) { return s->dev[node].sw; }
const lfc_nic_t *sim_nic(const sim_t *s, uint32_t node) { return s->dev[node].nic; }

const lfc_port_stats_t *sim_port_stats(const sim_t *s, uint32_t node, uint32_t port,
                                       lfc_port_stats_t *buf) {
  if (lfc_switch_stats_copy(s->dev[node].sw, port, buf) != 0) memset(buf, 0, sizeof *buf);
  return buf;
}

int sim_port_wired(const sim_t *s, uint32_t node, uint32_t port) {
  return out_wire(s, &s->dev[node], port) != NONE;
}

uint64_t sim_end(const sim_t *s) { return s->end; }
double sim_cycle_ns(const sim_t *s) { return s->cycle_ns; }
uint32_t sim_wires(const sim_t *s) { return s->nwire; }
uint64_t sim_delivered_bytes(const sim_t *s) { return s->deliv_bytes; }
uint64_t sim_steps(const sim_t *s) { return s->steps; }
uint32_t sim_threads(const sim_t *s, uint64_t *cycles, uint64_t *alone) {
  *cycles = s->nthreads > 1u ? s->crew.progress : 0u;
  *alone = s->nthreads > 1u ? s->crew.progress_alone : 0u;
  return s->nthreads;
}
uint64_t sim_errors(const sim_t *s) { return s->errors; }
const char *sim_error(const sim_t *s) { return s->error; }
uint64_t sim_link_mismatch(const sim_t *s) { return s->link_mismatch; }
int sim_oom(const sim_t *s) { return s->oom; }
size_t sim_ring_word_bytes(void) { return sizeof(sig_t); }
