/*
 * tb_lockstep.h - the lockstep co-simulation's parts (internal to tb/common):
 *
 *   tb_main.c   the arguments, the run: open, the cycle loop on one thread, the final register
 *               sweep, the totals and the PASS line
 *   tb_check.c  the checker: one cycle of the C side (stimulus, partners, model, scoreboard,
 *               coverage), the RTL driven and read field by field, everything compared, the
 *               MISMATCH report
 *   tb_fast.c   the speed seam: the same cycles, faster - the producer thread and the packed
 *               ports (tb/README.md "The speed seam"). Nothing in it decides a verdict: it runs
 *               the checker's functions in another order and moves the same values in bulk.
 */
#ifndef TB_LOCKSTEP_H
#define TB_LOCKSTEP_H

#include <stdint.h>
#include <time.h>

#include "dut_expect.h"
#include "tb.h"

/* The most registers a cycle reads through the debug port ([run] dbg_per_cycle, SPEC §13.1). */
#define DBG_MAX 40u

/* The test's arguments (tb_main.c parse_args). */
typedef struct {
  const char *config;
  uint32_t seed;
  uint64_t cycles; /* 0: the configuration's */
  const char *waves;
  uint64_t waves_from;
  const char *waves_path; /* where a rerun with waves would write them (for the report) */
  const char *cov;
  const char *result;
  const char *sim;
  const char *make_extra;
  uint32_t dbg_per_cycle; /* 0: the configuration's */
  int dump;               /* print every non-zero register of the final state */
  int model_only;         /* run the test bench and the model without the RTL (make bench) */
  uint32_t threads;       /* 1: the C side on the simulator's thread; 2: on a thread of its own */
  const char *pcap;       /* the directory of the ports' pcap files (tb_pcap.c); NULL: none */
  int compare;            /* 0: the RTL drives the partners, not compared with the model
                             (tb_free.c) */
} args_t;

/* ---- one cycle: what the C side expects, what the RTL shows ---- */

typedef struct {
  const args_t *a;
  tb_t *tb;
} ctx_t;

/* What the C side expects of the RTL in cycle t: the inputs, the model's words and stat_*
   pulses, and the registers of S(t) read through the debug port. With an adapter that has the
   packed interface (dut.h) also the inputs and the outputs packed (the speed seam, tb_fast.c),
   done on the C side's thread so that the simulator's thread only moves and compares words. */
typedef struct {
  uint64_t t;
  int score_failed; /* the scoreboard failed in this cycle (threaded run: the last record) */
  int out_fits;     /* outp holds every field of out and stat unmasked (dut_pack_word) */
  dut_stat_t stat;
  dbg_sel_t sel[DBG_MAX];
  uint32_t val[DBG_MAX];
  lfc_word_t in[TB_MAX_PORTS], out[TB_MAX_PORTS];
  uint32_t inp[TB_MAX_PORTS * DUT_RX_WORDS];   /* in, packed */
  uint32_t outp[TB_MAX_PORTS * DUT_OUT_WORDS]; /* out and stat, packed */
} expect_t;

/* What the RTL showed in one cycle. */
typedef struct {
  int same; /* its words and stat_* equal the expected ones (packed, bytewise: set only by the
               speed seam, tb_fast_rtl_cycle); tx and stat are then not filled */
  lfc_word_t tx[TB_MAX_PORTS];
  dut_stat_t stat;
  uint32_t val[DBG_MAX];
  int xz;
  unsigned xz_port;
  char xz_name[128];
} actual_t;

/* ---- the C side ---- */

/* The speed seam's (tb_fast.c): a word and its packed form (dut_pack_word). Most ports repeat
   their word (IDLE) from cycle to cycle, and a repeated word is copied instead of packed again. */
typedef struct {
  int valid, fits;
  lfc_word_t w;
  uint32_t o[DUT_RX_WORDS];
} pack_cache_t;

/* The C side: the test bench state and what runs from one cycle to the next. */
typedef struct {
  tb_t *tb;
  unsigned ports;
  uint32_t K; /* registers read per cycle */
  const dbg_sel_t *sel;
  size_t nsel, rot;
  lfc_word_t nic_in[TB_MAX_PORTS]; /* the words arriving at the partners this cycle */
  const lfc_event_t *ev;           /* the model's events of this cycle */
  size_t nev;
  const dut_packed_t *pk; /* the adapter's packed interface, or NULL: then nothing is packed */
  pack_cache_t in_cache[TB_MAX_PORTS], out_cache[TB_MAX_PORTS]; /* the speed seam's */
} cside_t;

/* ---- the checker (tb_check.c) ---- */

/* A register selection as the signal name of a MISMATCH line. */
void tb_dbg_signal(const dbg_sel_t *s, char *buf, size_t len);
/* The MISMATCH line of a difference in cycle, port and signal, expected exp, actual act. */
void tb_report(ctx_t *x, uint64_t cycle, unsigned port, const char *signal, const char *exp,
               const char *act);
/* The lines after it: the simulator, how to reproduce the run, where its waves are. */
void tb_report_tail(ctx_t *x, uint64_t cycle);
/* v in decimal, or as 0x%08 hex. */
void tb_fmt_val(char *buf, size_t len, uint64_t v, int hex);

/* Create the model, the partners, the links, the scoreboard and the stimulus of tb (zeroed but
   for cfg, seed, cycles and sim). Returns 0, or the exit status after printing why. */
int tb_cside_open(tb_t *tb);
void tb_cside_close(tb_t *tb);
/* Cycle t up to the model's step: the inputs, the registers of S(t), O(t) and the events. */
void tb_cside_pre(cside_t *cs, uint64_t t, expect_t *e);
/* The rest of cycle t: the scoreboard (returns -1 with *err filled at an error; nothing else of
   the cycle is done then), coverage, the partners and the links. */
int tb_cside_post(cside_t *cs, uint64_t t, const expect_t *e, tb_err_t *err);
/* Drive the inputs of e into the RTL and read what it shows in this cycle (not clocked). */
void tb_rtl_cycle(const cside_t *cs, const expect_t *e, actual_t *a);
/* The end of tb_rtl_cycle, once the inputs are in and the first register is selected: the
   registers of e->sel read through the debug port, and the unknown-bit check. */
void tb_rtl_regs(const cside_t *cs, const expect_t *e, actual_t *a);
/* Compare: unknown bits, words, then stat_* pulses, then registers. Returns 1 at the first
   difference, after printing it when x is not NULL. */
int tb_rtl_check(ctx_t *x, unsigned ports, uint32_t K, const expect_t *e, const actual_t *a);
/* The end of cycle t with the RTL's values a (NULL: no RTL): compare, then the scoreboard; at
   the first error print the report and return 1. */
int tb_cycle_finish(ctx_t *x, cside_t *cs, const expect_t *e, const actual_t *a);

/* After the last cycle t: every register of every port and class (all, n selections) compared
   through the debug port with the model's final state. Returns 1 at the first difference,
   reported. */
int tb_final_sweep(ctx_t *x, const dbg_sel_t *all, size_t n, uint64_t t);

/* ---- the speed seam (tb_fast.c) ---- */

/* Pack e's inputs and expected outputs for the adapter's packed interface cs->pk (tb_cside_pre
   calls it when there is one). */
void tb_fast_pack(cside_t *cs, expect_t *e);
/* tb_rtl_cycle through the packed interface cs->pk: the inputs as words, the outputs compared
   bytewise with the packed expected ones (a->same), unpacked only when they differ. */
void tb_fast_rtl_cycle(const cside_t *cs, const expect_t *e, actual_t *a);
/* The run's cycles with the C side on a thread of its own, the RTL on this one. Returns 0 if
   the thread could not be started (nothing was run: run them on one thread); else 1, with *t
   the cycles that passed, *rc the exit status so far (the report printed at a failure, exactly
   as the one-thread loop prints it) and each thread's CPU seconds. */
int tb_fast_run(ctx_t *x, cside_t *cs, tb_pcap_t *pcap, actual_t *act, uint64_t *t, int *rc,
                double *sim_cpu_s, double *cside_cpu_s);

/* Seconds of the clock id (CLOCK_MONOTONIC, or a CPU time). Its users define _POSIX_C_SOURCE. */
static inline double tb_clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif /* TB_LOCKSTEP_H */
