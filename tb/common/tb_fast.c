/*
 * tb_fast.c - the speed seam of the lockstep co-simulation: the same cycles as tb_main.c's loop
 * and tb_check.c's checker, faster. Two paths, each with a switch that turns it off and leaves
 * the plain one (tb/README.md "The speed seam"):
 *
 *   - the producer thread (tb_fast_run; off: +threads=1). The C side (stimulus, partners, model,
 *     scoreboard, coverage) never reads the RTL: the partners are fed by the model's outputs. So
 *     it runs ahead on a thread of its own (the producer), one expect_t per cycle into a bounded
 *     ring, while the simulator's thread drives the RTL and compares (the consumer): the two
 *     halves of a cycle run on two cores at once. The records do not depend on the timing. At
 *     the first difference the consumer stops the producer, which has run ahead, and runs the C
 *     side again from cycle 0 on this thread up to the failing cycle (it is deterministic): the
 *     report and the totals printed after it then come from exactly the state the one-thread
 *     loop has there, so the output is the same either way. A failure to create the thread
 *     runs the one-thread loop.
 *   - the packed ports (tb_fast_pack, tb_fast_rtl_cycle; off: an adapter whose dut_packed() is
 *     NULL, as the VPI adapter and Verilator builds without -DTB_RX_LATCH). The C side packs
 *     each cycle's inputs and expected outputs in the layout of dut.h; the simulator's thread
 *     moves the inputs with one copy and compares the outputs with one memcmp, unpacking them
 *     for the field-by-field check only when they differ.
 *
 * Neither decides anything: every verdict is tb_rtl_check's and tb_cside_post's, on the same
 * values. The simulator-side speed paths (the Verilator top lfc_cosim_top, the rewritten Icarus
 * netlist) are listed with these in tb/README.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_lockstep.h"

/* ---- the packed ports ---- */

/* Pack w into o through the cache c; returns dut_pack_word's result. Compared bytewise: a word
   whose padding differs is only packed again. */
static int pack_cached(pack_cache_t *c, const lfc_word_t *w, uint32_t *o) {
  if (!c->valid || memcmp(&c->w, w, sizeof *w) != 0) {
    c->w = *w;
    c->fits = dut_pack_word(w, c->o);
    c->valid = 1;
  }
  memcpy(o, c->o, sizeof c->o);
  return c->fits;
}

/* e's inputs into e->inp, its expected words and stat_* pulses into e->outp (the layout of
   dut.h); e->out_fits is 0 if a model value does not fit its field there. */
void tb_fast_pack(cside_t *cs, expect_t *e) {
  int fits = 1;
  for (unsigned p = 0; p < cs->ports; p++) {
    (void)pack_cached(&cs->in_cache[p], &e->in[p], &e->inp[p * DUT_RX_WORDS]);
    uint32_t *o = &e->outp[p * DUT_OUT_WORDS];
    fits &= pack_cached(&cs->out_cache[p], &e->out[p], o);
    /* No event: no stat_* pulse (expected_stats), all three words 0. */
    if (cs->nev == 0)
      memset(o + DUT_TX_WORDS, 0, (DUT_OUT_WORDS - DUT_TX_WORDS) * sizeof *o);
    else
      fits &= dut_pack_stat(&e->stat, p, o + DUT_TX_WORDS);
  }
  e->out_fits = fits;
}

/* tb_rtl_cycle through the packed interface: the inputs go in as words and the outputs are
   compared bytewise with the packed expected ones (equal bytes are equal fields: the layout has
   every field at its port's width and unused bits 0), and unpacked only when they differ, for
   tb_rtl_check. The debug port is read as tb_rtl_cycle reads it. */
void tb_fast_rtl_cycle(const cside_t *cs, const expect_t *e, actual_t *a) {
  const dut_packed_t *pk = cs->pk;
  const unsigned ports = cs->ports;
  pk->set_rx(e->inp);
  dut_set_dbg(e->sel[0].reg, e->sel[0].port, e->sel[0].cls);
  dut_settle();
  const uint32_t *o = pk->get_out();
  a->same = e->out_fits && memcmp(o, e->outp, ports * DUT_OUT_WORDS * sizeof *o) == 0;
  if (!a->same) {
    memset(&a->stat, 0, sizeof a->stat);
    for (unsigned p = 0; p < ports; p++) {
      dut_unpack_word(o + p * DUT_OUT_WORDS, &a->tx[p]);
      dut_unpack_stat(o + p * DUT_OUT_WORDS + DUT_TX_WORDS, p, &a->stat);
    }
  }
  tb_rtl_regs(cs, e, a);
}

/* ---- the producer thread ---- */

/* Records in the ring, and how many each side hands over at a time: one hand-over per batch, not
   per cycle. The producer is the faster side: when the ring is full it sleeps until half of it is
   free, and each side is woken only when what it waits for is there, so the threads wake each
   other once per half ring. */
#define RING_RECORDS 256u
#define RING_BATCH 32u
/* Polls of the other side's counter before sleeping on the condition variable. */
#define RING_SPINS 200
/* Cache line size: the counters each side writes are kept apart. */
#define CACHE_LINE 64
/* A side's `want` while it is awake. */
#define RING_AWAKE UINT64_MAX

typedef struct {
  expect_t *rec;
  _Alignas(CACHE_LINE) _Atomic uint64_t head; /* records the producer has filled */
  _Atomic uint64_t cons_want;                 /* the consumer sleeps until head >= this */
  _Alignas(CACHE_LINE) _Atomic uint64_t tail; /* records the consumer is done with */
  _Atomic uint64_t prod_want;                 /* the producer sleeps until tail >= this */
  _Alignas(CACHE_LINE) _Atomic int done;      /* the producer wrote its last record */
  _Atomic int stop;                           /* the consumer wants no more records */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  cside_t *cs;
  tb_pcap_t *pcap; /* +pcap: the cycles the RTL passed go into the files; NULL: none */
  double cpu_s; /* the producer's CPU time */
} ring_t;

/* After a side stored its counter (now) or a flag (now = RING_AWAKE): wake the other side if it
   sleeps waiting for it. Both the store and the load of want are seq_cst, so a side going to
   sleep either sees the store when it checks again, or is seen here. */
static void ring_wake(ring_t *r, _Atomic uint64_t *want, uint64_t now) {
  uint64_t w = atomic_load(want);
  if (w == RING_AWAKE || now < w) return;
  pthread_mutex_lock(&r->mu);
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->mu);
}

typedef int (*ring_ready_fn)(ring_t *r, uint64_t arg);

/* Wait until ready(r, arg); while asleep, *want = the other side's counter that wakes us. */
static void ring_wait(ring_t *r, ring_ready_fn ready, uint64_t arg, _Atomic uint64_t *want,
                      uint64_t value) {
  for (int i = 0; i < RING_SPINS; i++)
    if (ready(r, arg)) return;
  pthread_mutex_lock(&r->mu);
  atomic_store(want, value);
  while (!ready(r, arg)) pthread_cond_wait(&r->cv, &r->mu);
  atomic_store(want, RING_AWAKE);
  pthread_mutex_unlock(&r->mu);
}

/* Producer: half the ring free (arg: the next record to fill), or told to stop. */
static int ring_room(ring_t *r, uint64_t next) {
  return next - atomic_load(&r->tail) <= RING_RECORDS / 2 || atomic_load(&r->stop);
}

/* Consumer: record arg filled, or the producer finished. */
static int ring_filled(ring_t *r, uint64_t next) {
  return atomic_load(&r->head) > next || atomic_load(&r->done);
}

static void *producer(void *arg) {
  ring_t *r = arg;
  cside_t *cs = r->cs;
  uint64_t filled = 0;
  const double c0 = tb_clock_s(CLOCK_THREAD_CPUTIME_ID);
  while (filled < cs->tb->cycles && !atomic_load(&r->stop)) {
    if (filled - atomic_load(&r->tail) >= RING_RECORDS) {
      atomic_store(&r->head, filled);
      ring_wake(r, &r->cons_want, filled);
      ring_wait(r, ring_room, filled, &r->prod_want, filled - RING_RECORDS / 2);
      continue;
    }
    expect_t *e = &r->rec[filled % RING_RECORDS];
    tb_err_t err;
    tb_cside_pre(cs, filled, e);
    /* A scoreboard error ends the run at this cycle: the consumer checks the RTL's cycle first,
       then reports whichever failed by a replay. */
    e->score_failed = tb_cside_post(cs, filled, e, &err) != 0;
    filled++;
    if (e->score_failed) break;
    if (filled % RING_BATCH == 0) {
      atomic_store(&r->head, filled);
      ring_wake(r, &r->cons_want, filled);
    }
  }
  r->cpu_s = tb_clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
  atomic_store(&r->head, filled);
  atomic_store(&r->done, 1);
  ring_wake(r, &r->cons_want, RING_AWAKE);
  return NULL;
}

/* Drive the RTL with the producer's records. Returns the number of cycles that passed, and
   sets *fail (and *a) at the first cycle the RTL or the scoreboard failed. */
static uint64_t consume(ring_t *r, actual_t *a, int *fail) {
  cside_t *cs = r->cs;
  uint64_t n = 0, avail = 0;
  *fail = 0;
  for (;;) {
    if (n == avail) {
      atomic_store(&r->tail, n);
      ring_wake(r, &r->prod_want, n);
      ring_wait(r, ring_filled, n, &r->cons_want, n + 1);
      avail = atomic_load(&r->head);
      if (avail <= n) break; /* the producer is done and nothing is left */
    }
    const expect_t *e = &r->rec[n % RING_RECORDS];
    tb_rtl_cycle(cs, e, a);
    if (e->score_failed || tb_rtl_check(NULL, cs->ports, cs->K, e, a)) {
      *fail = 1;
      break;
    }
    if (r->pcap) tb_pcap_cycle(r->pcap, e->t, e->in, e->out);
    dut_clock();
    n++;
    if (n % RING_BATCH == 0) {
      atomic_store(&r->tail, n);
      ring_wake(r, &r->prod_want, n);
    }
  }
  atomic_store(&r->stop, 1);
  ring_wake(r, &r->prod_want, RING_AWAKE);
  return n;
}

/* After the consumer failed at cycle m with the RTL's values a: run the C side again from the
   start up to cycle m on this thread (it is deterministic), and finish cycle m as the one-thread
   loop does, printing the report. Returns the exit status. */
static int replay(ctx_t *x, cside_t *cs, uint64_t m, const actual_t *a) {
  tb_t *tb = cs->tb;
  static tb_cfg_t cfg; /* what cside_open needs kept; tb_t is large */
  cfg = tb->cfg;
  const uint32_t seed = tb->seed;
  const uint64_t cycles = tb->cycles;
  const char *sim = tb->sim;
  tb_cside_close(tb);
  memset(tb, 0, sizeof *tb);
  tb->cfg = cfg;
  tb->seed = seed;
  tb->cycles = cycles;
  tb->sim = sim;
  int rc = tb_cside_open(tb);
  if (rc) return rc;
  cs->rot = 0;
  static expect_t e; /* large */
  tb_err_t err;
  int clean = 1;
  for (uint64_t t = 0; t < m && clean; t++) {
    tb_cside_pre(cs, t, &e);
    clean = tb_cside_post(cs, t, &e, &err) == 0;
  }
  if (clean) {
    tb_cside_pre(cs, m, &e);
    if (tb_cycle_finish(x, cs, &e, a)) return 1;
  }
  fprintf(stderr, "cosim: internal error: the replay of the C side up to cycle %" PRIu64
          " does not fail as the pipelined run did (run with +threads=1)\n", m);
  return 4;
}

/* The run's cycles: the producer on a thread of its own, the RTL driven and checked on this
   one; at a failure the C side replayed on this thread for the report (see the top of this
   file). */
int tb_fast_run(ctx_t *x, cside_t *cs, tb_pcap_t *pcap, actual_t *act, uint64_t *t, int *rc,
                double *sim_cpu_s, double *cside_cpu_s) {
  static ring_t ring;
  ring.rec = calloc(RING_RECORDS, sizeof *ring.rec);
  ring.cs = cs;
  ring.pcap = pcap;
  atomic_store(&ring.prod_want, RING_AWAKE);
  atomic_store(&ring.cons_want, RING_AWAKE);
  pthread_t th;
  const int threaded = ring.rec && pthread_mutex_init(&ring.mu, NULL) == 0 &&
                       pthread_cond_init(&ring.cv, NULL) == 0 &&
                       pthread_create(&th, NULL, producer, &ring) == 0;
  if (threaded) {
    int fail;
    double s0 = tb_clock_s(CLOCK_THREAD_CPUTIME_ID);
    *t = consume(&ring, act, &fail);
    *sim_cpu_s = tb_clock_s(CLOCK_THREAD_CPUTIME_ID) - s0;
    pthread_join(th, NULL);
    *cside_cpu_s = ring.cpu_s;
    if (fail) *rc = replay(x, cs, *t, act);
  } else {
    fprintf(stderr, "cosim: cannot start the C side's thread; running on one thread\n");
  }
  free(ring.rec);
  return threaded;
}
