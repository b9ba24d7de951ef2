/*
 * tb_main.c - the lockstep co-simulation of the RTL (through dut.h) against the C model.
 *
 * Each cycle t (SPEC §1.3, §4.1):
 *   1. the link partners' words arriving now (lfc_link_head), with misbehaviour injected, are
 *      I(t) for both the RTL and the model;
 *   2. the RTL settles: its tx words O(t), its stat_* pulses of cycle t, and a rotating subset of
 *      its registers through the debug port (S(t));
 *   3. the model reads the same registers of S(t), then lfc_switch_step gives O(t) and the
 *      events of cycle t;
 *   4. everything is compared field by field; the first difference is printed as one
 *      `MISMATCH cycle=... port=... signal=... expected=... actual=... seed=... config=...` line,
 *      followed by the context, the command that reproduces it and where its waves go; exit 1;
 *   5. the scoreboard and coverage look at the agreed words; the RTL is clocked; the partners
 *      step and the words go onto the links.
 * After the last cycle every register of every port and class is compared once more.
 *
 * The C side (stimulus, partners, model, scoreboard, coverage) never reads the RTL: the partners
 * are fed by the model's outputs. So by default it runs ahead on a thread of its own (the
 * producer), one `expect_t` per cycle into a bounded ring, while this thread drives the RTL and
 * compares (the consumer): the two halves of a cycle run on two cores at once. The records do
 * not depend on the timing. At the first difference the consumer stops the producer, which has
 * run ahead, and runs the C side again from cycle 0 on this thread up to the failing cycle (it is
 * deterministic): the report and the totals printed after it then come from exactly the state
 * the one-thread loop has there, so the output is the same either way. `+threads=1` runs it all
 * on one thread, as does a failure to create the thread.
 *
 * +compare=0 runs none of this: the RTL's own words feed the partners and nothing compares it
 * with the model (tb_free.c), for RTL that is not meant to be cycle-equal to it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tb.h"

/* ---- arguments ---- */

/* The most registers a cycle reads through the debug port ([run] dbg_per_cycle, SPEC §13.1). */
#define DBG_MAX 40u

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

static const char *arg_value(const char *a, const char *key) {
  size_t n = strlen(key);
  if (a[0] == '+')
    a += 1;
  else if (a[0] == '-' && a[1] == '-')
    a += 2;
  else
    return NULL;
  if (strncmp(a, key, n) != 0 || a[n] != '=') return NULL;
  return a + n + 1;
}

/* A decimal number: digits only. strtoull alone would take "-5" as 2^64 - 5 (a run of
 * +cycles=-5 went on for hours), skip leading blanks, read "010" as octal and saturate on
 * overflow. */
static int parse_u64(const char *s, uint64_t *v) {
  char *end;
  if (!s || *s < '0' || *s > '9') return -1;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (*end || errno == ERANGE) return -1;
  *v = x;
  return 0;
}

/* The test's arguments (and +coverage_dat=, which tb/verilator/dut_verilator.cpp reads), for the
   one line that refuses any other. */
#define TB_ARG_NAMES                                                                          \
  "+config=, +seed=, +cycles=, +waves=, +waves_from=, +waves_path=, +cov=, +result=, +sim=, " \
  "+make=, +dump=, +model_only=, +dbg_per_cycle=, +threads=, +pcap=, +compare=, "          \
  "+coverage_dat="

/* An argument in the test's own namespace: '+' or '--', then a name of lower-case letters,
   digits and '_' ending at '=' or at the end. The simulators' own arguments are not: Verilator's
   are +verilator+name+value, vvp's (after the design file) -name. */
static int is_tb_arg(const char *a) {
  if (a[0] == '+')
    a += 1;
  else if (a[0] == '-' && a[1] == '-')
    a += 2;
  else
    return 0;
  const char *n = a;
  while ((*a >= 'a' && *a <= 'z') || (*a >= '0' && *a <= '9') || *a == '_') a++;
  return a > n && (*a == '=' || *a == '\0');
}

static int parse_args(int argc, char **argv, args_t *a) {
  memset(a, 0, sizeof *a);
  a->seed = 1;
  a->threads = 2;
  a->compare = 1;
  for (int i = 1; i < argc; i++) {
    const char *v;
    uint64_t x;
    if ((v = arg_value(argv[i], "config"))) a->config = v;
    else if ((v = arg_value(argv[i], "seed"))) {
      if (parse_u64(v, &x) || x > UINT32_MAX) goto bad;
      a->seed = (uint32_t)x;
    } else if ((v = arg_value(argv[i], "cycles"))) {
      if (parse_u64(v, &x) || x == 0) goto bad;
      a->cycles = x;
    } else if ((v = arg_value(argv[i], "waves"))) {
      a->waves = *v ? v : NULL;
    } else if ((v = arg_value(argv[i], "waves_from"))) {
      if (parse_u64(v, &a->waves_from)) goto bad;
    } else if ((v = arg_value(argv[i], "waves_path"))) a->waves_path = v;
    else if ((v = arg_value(argv[i], "cov"))) a->cov = v;
    else if ((v = arg_value(argv[i], "result"))) a->result = v;
    else if ((v = arg_value(argv[i], "sim"))) a->sim = v;
    else if ((v = arg_value(argv[i], "make"))) a->make_extra = v;
    else if ((v = arg_value(argv[i], "pcap"))) {
      if (!*v) goto bad;
      a->pcap = v;
    }
    else if ((v = arg_value(argv[i], "dump"))) {
      if (parse_u64(v, &x) || x > 1) goto bad;
      a->dump = (int)x;
    } else if ((v = arg_value(argv[i], "model_only"))) {
      if (parse_u64(v, &x) || x > 1) goto bad;
      a->model_only = (int)x;
    } else if ((v = arg_value(argv[i], "compare"))) {
      if (parse_u64(v, &x) || x > 1) goto bad;
      a->compare = (int)x;
    }
    else if ((v = arg_value(argv[i], "dbg_per_cycle"))) {
      if (parse_u64(v, &x) || x == 0 || x > DBG_MAX) goto bad;
      a->dbg_per_cycle = (uint32_t)x;
    } else if ((v = arg_value(argv[i], "threads"))) {
      if (parse_u64(v, &x) || x < 1 || x > 2) goto bad;
      a->threads = (uint32_t)x;
    } else if (arg_value(argv[i], "coverage_dat")) {
      /* the Verilator adapter's: where its coverage build writes its counts */
    }
    /* Anything else belongs to the simulator (+verilator+seed+N, vvp's -none, ...), unless it
       is spelt like one of ours (+name or +name=value, --name=value) and is not one of them: a
       misspelt +sed=3 would otherwise run with the default seed and pass. */
    else if (is_tb_arg(argv[i])) {
      fprintf(stderr, "cosim: unknown argument '%s' (allowed: %s)\n", argv[i], TB_ARG_NAMES);
      return -1;
    }
    continue;
  bad:
    fprintf(stderr, "cosim: bad argument '%s' (decimal numbers: +seed: 0..%" PRIu32 ", +cycles: "
                    "1.., +waves_from: 0.., +dbg_per_cycle: 1..%u, +threads: 1 or 2, +dump, "
                    "+model_only and +compare: 0 or 1, +pcap: a directory)\n",
            argv[i], UINT32_MAX, DBG_MAX);
    return -1;
  }
  if (a->model_only && !a->compare) {
    fprintf(stderr, "cosim: +model_only=1 runs no RTL and +compare=0 no model: one of them\n");
    return -1;
  }
  if (!a->config) {
    fprintf(stderr, "cosim: usage: +config=tb/configs/NAME.ini [+seed=N] [+cycles=N] "
                    "[+waves=FILE [+waves_from=CYCLE]] [+cov=FILE.json] [+result=FILE]\n");
    return -1;
  }
  return 0;
}

/* ---- the link word, field by field ---- */

/* Every field of a and b equal (the fields of dut_word_field; padding ignored). The fast path
   of the comparison: the field-by-field walk runs only for a word that differs. */
static int words_equal(const lfc_word_t *a, const lfc_word_t *b) {
  unsigned d = (unsigned)(a->kind ^ b->kind) | (unsigned)(a->sop ^ b->sop) |
               (unsigned)(a->eop ^ b->eop) | (unsigned)(a->cls ^ b->cls) |
               (unsigned)(a->nblk ^ b->nblk) | (unsigned)(a->dst ^ b->dst) | (a->tag ^ b->tag) |
               (unsigned)(a->ecn ^ b->ecn) | (unsigned)(a->fc_op ^ b->fc_op) |
               (unsigned)(a->fc_vl ^ b->fc_vl) | (unsigned)(a->fc_fctbs ^ b->fc_fctbs) |
               (unsigned)(a->fc_fccl ^ b->fc_fccl) | (unsigned)(a->pfc_en ^ b->pfc_en);
  for (unsigned c = 0; c < LFC_PFC_MAX_PRIOS; c++)
    d |= (unsigned)(a->pfc_time[c] ^ b->pfc_time[c]);
  return d == 0;
}

/* ---- registers through the debug port ---- */

typedef struct {
  uint16_t reg;
  uint8_t port, cls;
  uint32_t mask; /* the register's width (dbg_val_o is 32 bits wide) */
} dbg_sel_t;

static uint32_t reg_mask(size_t reg) {
  unsigned w = lfc_reg_info(reg)->width;
  return w >= 32 ? UINT32_MAX : (uint32_t)((1ull << w) - 1u);
}

static dbg_sel_t dbg_sel(size_t reg, unsigned port, unsigned cls) {
  return (dbg_sel_t){(uint16_t)reg, (uint8_t)port, (uint8_t)cls, reg_mask(reg)};
}

/* The registers to compare: all = every register including the other mode's (they read 0).
   The order of each register's selections: by port, then class (rotation = 0; the final sweep
   and +dump), or by class, then port (rotation = 1, the per-cycle rotation): consecutive reads
   then differ only in dbg_port_i, the last stage of the debug multiplexer (lfc_switch.v), and
   not in dbg_reg_i and dbg_cls_i, which every port's stages decode. On Icarus that saves 4 % of
   a cycle at one read per cycle (tb/README.md "Speed"); which registers are compared, and how
   often, is the same. */
static dbg_sel_t *dbg_list(const tb_t *tb, int all, int rotation, size_t *n) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  size_t cap = lfc_reg_count() * c->ports * 17 + 1, k = 0;
  dbg_sel_t *l = calloc(cap, sizeof *l);
  if (!l) return NULL;
  for (size_t r = 0; r < lfc_reg_count(); r++) {
    const lfc_reg_info_t *ri = lfc_reg_info(r);
    if (!all && ri->mode != 2 && ri->mode != (uint8_t)c->mode) continue;
    if (ri->scope == LFC_SCOPE_SWITCH) {
      l[k++] = dbg_sel(r, 0, 0);
      continue;
    }
    /* The classes of the register: one for a port register, the VL15 queue as class 15 of
       qlen and qpkts (SPEC §13.1). */
    unsigned cls[LFC_MAX_CLASSES + 1], ncls = 0;
    if (ri->scope == LFC_SCOPE_PORT) {
      cls[ncls++] = 0;
    } else {
      for (unsigned cl = 0; cl < c->classes; cl++) cls[ncls++] = cl;
      if (c->mode == LFC_MODE_IB && (!strcmp(ri->name, "qlen") || !strcmp(ri->name, "qpkts")))
        cls[ncls++] = 15;
    }
    const unsigned outer = rotation ? ncls : c->ports, inner = rotation ? c->ports : ncls;
    for (unsigned i = 0; i < outer; i++)
      for (unsigned j = 0; j < inner; j++)
        l[k++] = rotation ? dbg_sel(r, j, cls[i]) : dbg_sel(r, i, cls[j]);
  }
  *n = k;
  return l;
}

static void dbg_signal(const dbg_sel_t *s, char *buf, size_t len) {
  const lfc_reg_info_t *ri = lfc_reg_info(s->reg);
  if (ri->scope == LFC_SCOPE_PORT_CLASS)
    snprintf(buf, len, "dbg:%s[cls=%u](reg=%u)", ri->name, s->cls, s->reg);
  else
    snprintf(buf, len, "dbg:%s(reg=%u)", ri->name, s->reg);
}

/* ---- the report ---- */

typedef struct {
  const args_t *a;
  tb_t *tb;
} ctx_t;

/* The MISMATCH line keeps one token per value (spaces become '_'); a value that had spaces is
   also printed whole on the next lines. */
static void report(ctx_t *x, uint64_t cycle, unsigned port, const char *signal, const char *exp,
                   const char *act) {
  const tb_t *tb = x->tb;
  char e1[256], a1[256];
  snprintf(e1, sizeof e1, "%s", exp);
  snprintf(a1, sizeof a1, "%s", act);
  for (char *c = e1; *c; c++)
    if (*c == ' ') *c = '_';
  for (char *c = a1; *c; c++)
    if (*c == ' ') *c = '_';
  printf("MISMATCH cycle=%" PRIu64 " port=%u signal=%s expected=%s actual=%s seed=%u config=%s\n",
         cycle, port, signal, e1, a1, tb->seed, tb->cfg.name);
  if (strchr(exp, ' ') || strchr(act, ' ')) {
    printf("  expected: %s\n", exp);
    printf("  actual:   %s\n", act);
  }
}

static void report_tail(ctx_t *x, uint64_t cycle) {
  tb_t *tb = x->tb;
  const args_t *a = x->a;
  printf("  sim: %s, config file %s, RTL cycle %" PRIu64 " (cycles count from 0 after reset)\n",
         tb->sim, tb->cfg.path, cycle);
  /* The same CYCLES: the traffic stops at a fixed share of the run (stop_pct), so another run
     length would be another stimulus; the run ends at the mismatch anyway. */
  printf("  reproduce: make cosim SIM=%s CONFIG=%s SEED=%u CYCLES=%" PRIu64 " WAVES=1%s%s\n",
         tb->sim, tb->cfg.name, tb->seed, tb->cycles, a->make_extra ? " " : "",
         a->make_extra ? a->make_extra : "");
  if (a->waves)
    printf("  waves: %s (from cycle %" PRIu64 ")\n", a->waves, a->waves_from);
  else if (a->waves_path)
    printf("  waves: %s (cycles %" PRIu64 "..%" PRIu64 ", written by the automatic rerun)\n",
           a->waves_path, cycle > 2000 ? cycle - 2000 : 0, cycle);
  else
    printf("  waves: none (rerun with the command above)\n");
}

static void print_words(const char *what, const lfc_word_t *w) {
  char b[256], t[64];
  printf("  %s: %s", what, lfc_word_format(w, b, sizeof b));
  if (w->kind == LFC_DATA) printf(" (tag: %s)", tb_tag_name(w->tag, t, sizeof t));
  printf("\n");
}

static void print_events(const lfc_event_t *ev, size_t nev) {
  static const char *const K[LFC_EV_KINDS] = {"drop", "ecn_mark", "xoff", "xon",
                                              "wd_trip", "wd_restore", "rx_malformed"};
  char t[64];
  printf("  model events this cycle:%s", nev ? "" : " none");
  for (size_t i = 0; i < nev; i++) {
    printf(" %s(port=%u cls=%u", ev[i].kind < LFC_EV_KINDS ? K[ev[i].kind] : "?", ev[i].port,
           ev[i].cls);
    if (ev[i].kind == LFC_EV_DROP)
      printf(" cause=%s tag=0x%08x (%s)", lfc_drop_cause_name((lfc_drop_cause_t)ev[i].cause),
             ev[i].tag, tb_tag_name(ev[i].tag, t, sizeof t));
    printf(")");
  }
  printf("\n");
}

/* ---- stat_* expected from the model's events ---- */

static void expected_stats(const tb_t *tb, const lfc_word_t *in, const lfc_event_t *ev,
                           size_t nev, dut_stat_t *s) {
  memset(s, 0, sizeof *s);
  for (size_t i = 0; i < nev; i++) {
    unsigned p = ev[i].port, c = ev[i].cls & 15u;
    if (p >= DUT_MAX_PORTS) continue;
    switch (ev[i].kind) {
      case LFC_EV_DROP:
        if (ev[i].cause == LFC_DROP_WATCHDOG && !tb_is_admission_drop(tb, &ev[i], in)) {
          s->wd_drop[p] |= (uint16_t)(1u << c);
        } else {
          s->drop[p] = 1;
          s->drop_cause[p] = ev[i].cause;
        }
        break;
      case LFC_EV_ECN_MARK: s->ecn_mark[p] = 1; break;
      case LFC_EV_XOFF: s->xoff[p] |= (uint16_t)(1u << c); break;
      case LFC_EV_XON: s->xon[p] |= (uint16_t)(1u << c); break;
      case LFC_EV_WD_TRIP: s->wd_trip[p] |= (uint16_t)(1u << c); break;
      case LFC_EV_WD_RESTORE: s->wd_restore[p] |= (uint16_t)(1u << c); break;
      case LFC_EV_RX_MALFORMED: s->rx_malformed[p] = 1; break;
      default: break;
    }
  }
}

/* First difference between expected and actual stat_* of port p; 0 if none. */
static int stat_diff(const dut_stat_t *e, const dut_stat_t *a, unsigned p, char *sig, size_t sl,
                     char *ev, char *av, size_t vl) {
#define BIT1(field, name)                                     \
  if (e->field[p] != a->field[p]) {                           \
    snprintf(sig, sl, "%s", name);                            \
    snprintf(ev, vl, "%u", (unsigned)e->field[p]);            \
    snprintf(av, vl, "%u", (unsigned)a->field[p]);            \
    return 1;                                                 \
  }
#define MASK16(field, name)                                                 \
  if (e->field[p] != a->field[p]) {                                         \
    unsigned d = (unsigned)(e->field[p] ^ a->field[p]);                     \
    unsigned c = (unsigned)__builtin_ctz(d);                                \
    snprintf(sig, sl, "%s[cls=%u]", name, c);                               \
    snprintf(ev, vl, "%u", (e->field[p] >> c) & 1u);                        \
    snprintf(av, vl, "%u", (a->field[p] >> c) & 1u);                        \
    return 1;                                                               \
  }
  BIT1(drop, "stat_drop_o");
  if (e->drop[p] && e->drop_cause[p] != a->drop_cause[p]) {
    snprintf(sig, sl, "stat_drop_cause_o");
    snprintf(ev, vl, "%u(%s)", e->drop_cause[p],
             lfc_drop_cause_name((lfc_drop_cause_t)e->drop_cause[p]));
    snprintf(av, vl, "%u(%s)", a->drop_cause[p],
             a->drop_cause[p] < LFC_DROP_CAUSES
                 ? lfc_drop_cause_name((lfc_drop_cause_t)a->drop_cause[p])
                 : "?");
    return 1;
  }
  MASK16(wd_drop, "stat_wd_drop_o");
  BIT1(ecn_mark, "stat_ecn_mark_o");
  MASK16(xoff, "stat_xoff_o");
  MASK16(xon, "stat_xon_o");
  MASK16(wd_trip, "stat_wd_trip_o");
  MASK16(wd_restore, "stat_wd_restore_o");
  BIT1(rx_malformed, "stat_rx_malformed_o");
  return 0;
#undef BIT1
#undef MASK16
}

static void fmt_val(char *buf, size_t len, uint64_t v, int hex) {
  if (hex)
    snprintf(buf, len, "0x%08" PRIx64, v);
  else
    snprintf(buf, len, "%" PRIu64, v);
}

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int result_fill(FILE *f, const void *arg) {
  return fprintf(f, "%d\n", *(const int *)arg) < 0 ? -1 : 0;
}

/* The end of every run: the log (standard output) and +result= must be written whole, or the
   run fails as a resource refusal (status 2) even if it passed: a log cut short by a full disk
   would hide its mismatch lines, and a missing result is read as a crash. */
static int finish(const args_t *a, int rc) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "cosim: cannot write the log (standard output): %s\n", strerror(errno));
    if (rc == 0) rc = 2;
  }
  if (a && a->result && tb_write_file(a->result, result_fill, &rc)) {
    fprintf(stderr, "cosim: cannot write %s: %s\n", a->result, strerror(errno));
    if (rc == 0) rc = 2;
  }
  return rc;
}

/* ---- one cycle of the C side, and of the RTL ---- */

/* What the C side expects of the RTL in cycle t: the inputs, the model's words and stat_*
   pulses, and the registers of S(t) read through the debug port. With an adapter that has the
   packed interface (dut.h) also the inputs and the outputs packed, done here on the C side's
   thread so that the simulator's thread only moves and compares words. */
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
  int same; /* its words and stat_* equal the expected ones (packed, bytewise); tx and stat are
               then not filled */
  lfc_word_t tx[TB_MAX_PORTS];
  dut_stat_t stat;
  uint32_t val[DBG_MAX];
  int xz;
  unsigned xz_port;
  char xz_name[128];
} actual_t;

/* A word and its packed form (dut_pack_word): most ports repeat their word (IDLE) from cycle to
   cycle, and a repeated word is copied instead of packed again. */
typedef struct {
  int valid, fits;
  lfc_word_t w;
  uint32_t o[DUT_RX_WORDS];
} pack_cache_t;

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
  pack_cache_t in_cache[TB_MAX_PORTS], out_cache[TB_MAX_PORTS];
} cside_t;

/* Create the model, the partners, the links, the scoreboard and the stimulus of tb (zeroed but
   for cfg, seed, cycles and sim). Returns 0, or the exit status after printing why. */
static int cside_open(tb_t *tb) {
  const lfc_switch_cfg_t *sc = &tb->cfg.sw;
  char err[512];
  tb->sw = lfc_switch_create(sc, err, sizeof err);
  if (!tb->sw) {
    fprintf(stderr, "%s: lfc_switch_create: %s\n", tb->cfg.path, err);
    return 2;
  }
  for (unsigned p = 0; p < sc->ports; p++) {
    tb->nic[p] = lfc_nic_create(&tb->cfg.nic[p], err, sizeof err);
    tb->up[p] = lfc_link_create(tb->cfg.link_delay[p]);
    tb->down[p] = lfc_link_create(tb->cfg.link_delay[p]);
    if (!tb->nic[p] || !tb->up[p] || !tb->down[p]) {
      fprintf(stderr, "%s: cannot create the partner of port %u: %s\n", tb->cfg.path, p,
              tb->nic[p] ? "link" : err);
      return 2;
    }
  }
  if (tb_score_init(tb)) return 3;
  if (tb_stim_init(tb)) return 2;
  return 0;
}

static void cside_close(tb_t *tb) {
  for (unsigned p = 0; p < tb->cfg.sw.ports; p++) {
    lfc_nic_destroy(tb->nic[p]);
    lfc_link_destroy(tb->up[p]);
    lfc_link_destroy(tb->down[p]);
  }
  lfc_switch_destroy(tb->sw);
  tb_score_free(tb);
}

/* Cycle t up to the model's step: the inputs, the registers of S(t), O(t) and the events. */
static void cside_pre(cside_t *cs, uint64_t t, expect_t *e) {
  tb_t *tb = cs->tb;
  tb->cycle = t;
  tb_stim_traffic(tb, t);
  for (unsigned p = 0; p < cs->ports; p++) {
    e->in[p] = *lfc_link_head(tb->up[p]);
    tb_stim_inject(tb, t, p, &e->in[p]);
    cs->nic_in[p] = *lfc_link_head(tb->down[p]);
  }
  for (uint32_t k = 0; k < cs->K; k++) {
    const dbg_sel_t *d = &cs->sel[(cs->rot + k) % cs->nsel];
    e->sel[k] = *d;
    e->val[k] = (uint32_t)lfc_switch_reg(tb->sw, d->reg, d->port, d->cls) & d->mask;
  }
  cs->rot = (cs->rot + cs->K) % cs->nsel;
  tb_cov_pre(tb, t, e->in);
  memset(e->out, 0, cs->ports * sizeof *e->out); /* the padding too: see rtl_check */
  lfc_switch_step(tb->sw, e->in, e->out);
  cs->nev = lfc_switch_events(tb->sw, &cs->ev);
  expected_stats(tb, e->in, cs->ev, cs->nev, &e->stat);
  if (cs->pk) {
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
  e->t = t;
  e->score_failed = 0;
}

/* The rest of cycle t: the scoreboard (returns -1 with *err filled at an error; nothing else of
   the cycle is done then), coverage, the partners and the links. */
static int cside_post(cside_t *cs, uint64_t t, const expect_t *e, tb_err_t *err) {
  tb_t *tb = cs->tb;
  if (tb_score_cycle(tb, t, e->in, e->out, cs->ev, cs->nev, err)) return -1;
  tb_cov_post(tb, t, e->in, e->out, cs->ev, cs->nev);
  for (unsigned p = 0; p < cs->ports; p++) {
    lfc_word_t no;
    lfc_nic_step(tb->nic[p], &cs->nic_in[p], &no);
    lfc_link_push(tb->up[p], &no);
    lfc_link_push(tb->down[p], &e->out[p]);
  }
  return 0;
}

/* Drive the inputs of e into the RTL and read what it shows in this cycle (not clocked). With
   the packed interface pk, the inputs go in as words and the outputs are compared bytewise with
   the packed expected ones (equal bytes are equal fields: the layout has every field at its
   port's width and unused bits 0), and unpacked only when they differ, for rtl_check. */
static void rtl_cycle(const dut_packed_t *pk, unsigned ports, uint32_t K, const expect_t *e,
                      actual_t *a) {
  if (pk)
    pk->set_rx(e->inp);
  else
    for (unsigned p = 0; p < ports; p++) dut_set_rx(p, &e->in[p]);
  dut_set_dbg(e->sel[0].reg, e->sel[0].port, e->sel[0].cls);
  dut_settle();
  if (pk) {
    const uint32_t *o = pk->get_out();
    a->same = e->out_fits && memcmp(o, e->outp, ports * DUT_OUT_WORDS * sizeof *o) == 0;
    if (!a->same) {
      memset(&a->stat, 0, sizeof a->stat);
      for (unsigned p = 0; p < ports; p++) {
        dut_unpack_word(o + p * DUT_OUT_WORDS, &a->tx[p]);
        dut_unpack_stat(o + p * DUT_OUT_WORDS + DUT_TX_WORDS, p, &a->stat);
      }
    }
  } else {
    a->same = 0;
    for (unsigned p = 0; p < ports; p++) dut_get_tx(p, &a->tx[p]);
    dut_get_stat(&a->stat);
  }
  a->val[0] = dut_get_dbg() & e->sel[0].mask;
  for (uint32_t k = 1; k < K; k++) {
    dut_set_dbg(e->sel[k].reg, e->sel[k].port, e->sel[k].cls);
    dut_settle();
    a->val[k] = dut_get_dbg() & e->sel[k].mask;
  }
  a->xz = dut_get_xz(a->xz_name, sizeof a->xz_name, &a->xz_port);
}

/* Compare: unknown bits, words, then stat_* pulses, then registers. Returns 1 at the first
   difference, after printing it when x is not NULL (without the tail: the caller adds the
   events and report_tail). The same test decides with and without printing. */
static int rtl_check(ctx_t *x, unsigned ports, uint32_t K, const expect_t *e, const actual_t *a) {
  char sig[128], es[192], as[192];
  if (a->xz) {
    if (!x) return 1;
    report(x, e->t, a->xz_port, a->xz_name, "0/1", "x");
    printf("  an output of the RTL has an x or z bit (Icarus is 4-state; Verilator would read "
           "it as 0 or 1)\n");
    return 1;
  }
  for (unsigned p = 0; p < ports && !a->same; p++) {
    /* Bytewise first: both words have zero padding (see cside_pre) and the adapters only write
       fields, so equal words are almost always equal bytes; the field test decides otherwise. */
    if (memcmp(&e->out[p], &a->tx[p], sizeof a->tx[p]) == 0 || words_equal(&e->out[p], &a->tx[p]))
      continue;
    if (!x) return 1;
    for (unsigned f = 0; f < DUT_WORD_FIELDS; f++) {
      uint64_t ev = dut_word_field(&e->out[p], f), v = dut_word_field(&a->tx[p], f);
      if (ev == v) continue;
      fmt_val(es, sizeof es, ev, f == 6);
      fmt_val(as, sizeof as, v, f == 6);
      report(x, e->t, p, dut_word_field_name[f], es, as);
      print_words("expected word (model)", &e->out[p]);
      print_words("actual word   (RTL)  ", &a->tx[p]);
      print_words("input word this cycle", &e->in[p]);
      return 1;
    }
  }
  /* Both structures are zeroed before they are filled, so equal bytes are equal pulses: the
     port-by-port walk runs only for a cycle that differs. */
  if (!a->same && memcmp(&e->stat, &a->stat, sizeof e->stat) != 0) {
    for (unsigned p = 0; p < ports; p++) {
      if (!stat_diff(&e->stat, &a->stat, p, sig, sizeof sig, es, as, sizeof es)) continue;
      if (!x) return 1;
      report(x, e->t, p, sig, es, as);
      print_words("input word this cycle", &e->in[p]);
      return 1;
    }
  }
  for (uint32_t k = 0; k < K; k++) {
    if (e->val[k] == a->val[k]) continue;
    if (!x) return 1;
    const dbg_sel_t *d = &e->sel[k];
    dbg_signal(d, sig, sizeof sig);
    fmt_val(es, sizeof es, e->val[k], lfc_reg_info(d->reg)->width > 16);
    fmt_val(as, sizeof as, a->val[k], lfc_reg_info(d->reg)->width > 16);
    report(x, e->t, d->port, sig, es, as);
    printf("  register value in S(%" PRIu64 "), the state at the start of the cycle\n", e->t);
    return 1;
  }
  return 0;
}

/* The end of cycle t with the RTL's values a (NULL: no RTL): compare, then the scoreboard; at
   the first error print the report and return 1. */
static int cycle_finish(ctx_t *x, cside_t *cs, const expect_t *e, const actual_t *a) {
  int rc = a ? rtl_check(x, cs->ports, cs->K, e, a) : 0;
  if (rc == 0) {
    tb_err_t err;
    if (cside_post(cs, e->t, e, &err)) {
      report(x, e->t, err.port, err.signal, err.expected, err.actual);
      printf("  (the RTL and the model agree here; the scoreboard checks both against "
             "docs/SPEC.md)\n");
      rc = 1;
    }
  }
  if (rc) {
    print_events(cs->ev, cs->nev);
    report_tail(x, e->t);
  }
  return rc;
}

/* ---- the pipelined lockstep: the C side on a thread of its own ---- */

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
  const double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
  while (filled < cs->tb->cycles && !atomic_load(&r->stop)) {
    if (filled - atomic_load(&r->tail) >= RING_RECORDS) {
      atomic_store(&r->head, filled);
      ring_wake(r, &r->cons_want, filled);
      ring_wait(r, ring_room, filled, &r->prod_want, filled - RING_RECORDS / 2);
      continue;
    }
    expect_t *e = &r->rec[filled % RING_RECORDS];
    tb_err_t err;
    cside_pre(cs, filled, e);
    /* A scoreboard error ends the run at this cycle: the consumer checks the RTL's cycle first,
       then reports whichever failed by a replay. */
    e->score_failed = cside_post(cs, filled, e, &err) != 0;
    filled++;
    if (e->score_failed) break;
    if (filled % RING_BATCH == 0) {
      atomic_store(&r->head, filled);
      ring_wake(r, &r->cons_want, filled);
    }
  }
  r->cpu_s = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
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
    rtl_cycle(cs->pk, cs->ports, cs->K, e, a);
    if (e->score_failed || rtl_check(NULL, cs->ports, cs->K, e, a)) {
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
  cside_close(tb);
  memset(tb, 0, sizeof *tb);
  tb->cfg = cfg;
  tb->seed = seed;
  tb->cycles = cycles;
  tb->sim = sim;
  int rc = cside_open(tb);
  if (rc) return rc;
  cs->rot = 0;
  static expect_t e; /* large */
  tb_err_t err;
  int clean = 1;
  for (uint64_t t = 0; t < m && clean; t++) {
    cside_pre(cs, t, &e);
    clean = cside_post(cs, t, &e, &err) == 0;
  }
  if (clean) {
    cside_pre(cs, m, &e);
    if (cycle_finish(x, cs, &e, a)) return 1;
  }
  fprintf(stderr, "cosim: internal error: the replay of the C side up to cycle %" PRIu64
          " does not fail as the pipelined run did (run with +threads=1)\n", m);
  return 4;
}

/* +compare=0 (tb_free.c): the RTL, bound and reset, runs with the stimulus and the partners
   and is not compared with the model; then the files, the coverage of the stimulus and the
   result line. Returns the exit status; closes the RTL and the C side. */
static int free_main(const args_t *a, tb_t *tb, tb_pcap_t *pcap, dbg_sel_t *sel,
                     dbg_sel_t *all) {
  char err[512];
  const double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
  uint64_t t = 0;
  int rc = tb_free_run(tb, pcap, &t);
  const double dt = clock_s(CLOCK_MONOTONIC) - t0, dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
  if (pcap && tb_pcap_close(pcap, tb, 0, err, sizeof err)) {
    fprintf(stderr, "cosim: +pcap: %s\n", err);
    if (rc == 0) rc = 2;
  }
  if (a->cov) {
    /* Only the stimulus's points: the others are counted from the model's state. */
    if (tb_cov_write(tb, a->cov)) {
      fprintf(stderr, "cosim: cannot write %s: %s\n", a->cov, strerror(errno));
      if (rc == 0) rc = 2;
    }
  }
  if (rc == 0)
    printf("PASS sim=%s config=%s seed=%u cycles=%" PRIu64 " packets=%" PRIu64
           " cycles_per_second=%.0f cpu_cycles_per_second=%.0f compare=0 (the RTL drove the "
           "partners and was not compared with the model)\n",
           tb->sim, tb->cfg.name, tb->seed, t, tb->score.delivered, dt > 0 ? (double)t / dt : 0.0,
           dc > 0 ? (double)t / dc : 0.0);
  if (dut_close_checked(err, sizeof err)) {
    fprintf(stderr, "cosim: %s\n", err);
    if (rc == 0) rc = 2;
  }
  cside_close(tb);
  free(sel);
  free(all);
  return rc;
}

int tb_main(int argc, char **argv) {
  args_t a;
  if (parse_args(argc, argv, &a)) return finish(NULL, 2);
  static tb_t tbs; /* large; one per process */
  tb_t *tb = &tbs;
  memset(tb, 0, sizeof *tb);
  if (tb_config_load(a.config, &tb->cfg)) return finish(&a, 2);
  tb->seed = a.seed;
  tb->cycles = a.cycles ? a.cycles : tb->cfg.cycles;
  tb->sim = a.sim ? a.sim : dut_sim_name();
  uint32_t K = a.dbg_per_cycle ? a.dbg_per_cycle : tb->cfg.dbg_per_cycle;
  unsigned ports = tb->cfg.sw.ports;
  char err[512];
  ctx_t x = {&a, tb};

  if (!a.compare && tb_free_check_cfg(&tb->cfg)) return finish(&a, 2);
  int orc = cside_open(tb);
  if (orc) return finish(&a, orc);

  size_t nsel = 0, nall = 0;
  dbg_sel_t *sel = dbg_list(tb, 0, 1, &nsel);
  dbg_sel_t *all = dbg_list(tb, 1, 0, &nall);
  if (!sel || !all || nsel == 0) return finish(&a, 3);
  static cside_t cs; /* large */
  cs = (cside_t){.tb = tb, .ports = ports, .K = K, .sel = sel, .nsel = nsel};

  /* +model_only=1: the same stimulus, model, scoreboard and coverage without the RTL (the
     C side's share of the lockstep's time, for make bench); nothing is compared. */
  const int rtl_on = !a.model_only;
  dut_open_t oa = {ports, a.waves, a.waves_from, tb_config_params_id(&tb->cfg)};
  int bound = rtl_on ? dut_open(&oa, err, sizeof err) : 0;
  if (bound != 0) {
    fprintf(stderr, "cosim: %s: %s\n", tb->sim, err);
    /* -2: built for another configuration; -3: the waves file cannot be written */
    return finish(&a, bound == -2 || bound == -3 ? 2 : 3);
  }
  if (rtl_on) dut_reset();
  cs.pk = dut_packed(); /* the C side packs for it; +model_only=1 too, as its share */
  if (cs.pk && dut_pack_check()) {
    fprintf(stderr, "cosim: internal error: tb/common/dut_pack.c loses or mixes fields of the "
                    "packed layout (dut.h)\n");
    return finish(&a, 4);
  }
  tb_pcap_t *pcap = NULL;
  if (a.pcap) {
    pcap = tb_pcap_open(tb, a.pcap, err, sizeof err);
    if (!pcap) {
      fprintf(stderr, "cosim: +pcap: %s\n", err);
      char cerr[512];
      if (rtl_on) (void)dut_close_checked(cerr, sizeof cerr);
      return finish(&a, 2);
    }
  }

  if (!a.compare) return finish(&a, free_main(&a, tb, pcap, sel, all));

  int rc = 0;
  double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
  uint64_t t = 0;
  static actual_t act; /* the RTL's values of the cycle being checked */
  char sig[128], es[192], as[192];

  /* The pipelined lockstep (see the top of this file); one thread if asked to or if the
     producer's thread cannot be created. */
  static ring_t ring;
  int threaded = rtl_on && a.threads == 2;
  double sim_cpu_s = 0, cside_cpu_s = 0; /* each thread's CPU time */
  if (threaded) {
    ring.rec = calloc(RING_RECORDS, sizeof *ring.rec);
    ring.cs = &cs;
    ring.pcap = pcap;
    atomic_store(&ring.prod_want, RING_AWAKE);
    atomic_store(&ring.cons_want, RING_AWAKE);
    pthread_t th;
    threaded = ring.rec && pthread_mutex_init(&ring.mu, NULL) == 0 &&
               pthread_cond_init(&ring.cv, NULL) == 0 &&
               pthread_create(&th, NULL, producer, &ring) == 0;
    if (threaded) {
      int fail;
      double s0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
      t = consume(&ring, &act, &fail);
      sim_cpu_s = clock_s(CLOCK_THREAD_CPUTIME_ID) - s0;
      pthread_join(th, NULL);
      cside_cpu_s = ring.cpu_s;
      if (fail) rc = replay(&x, &cs, t, &act);
    } else {
      fprintf(stderr, "cosim: cannot start the C side's thread; running on one thread\n");
    }
    free(ring.rec);
  }
  if (!threaded) {
    static expect_t e; /* large */
    for (t = 0; t < tb->cycles; t++) {
      cside_pre(&cs, t, &e);
      if (rtl_on) rtl_cycle(cs.pk, ports, K, &e, &act);
      rc = cycle_finish(&x, &cs, &e, rtl_on ? &act : NULL);
      if (rc) break;
      if (pcap) tb_pcap_cycle(pcap, t, e.in, e.out);
      if (rtl_on) dut_clock();
    }
  }
  double dt = clock_s(CLOCK_MONOTONIC) - t0, dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
  tb->cycle = t;

  /* Every register of every port and class, in the final state. */
  for (size_t i = 0; i < nall && rc == 0 && rtl_on; i++) {
    const dbg_sel_t *s = &all[i];
    uint64_t e = lfc_switch_reg(tb->sw, s->reg, s->port, s->cls) & s->mask;
    dut_set_dbg(s->reg, s->port, s->cls);
    dut_settle();
    uint64_t v = dut_get_dbg() & s->mask;
    if (e == v) continue;
    dbg_signal(s, sig, sizeof sig);
    fmt_val(es, sizeof es, e, lfc_reg_info(s->reg)->width > 16);
    fmt_val(as, sizeof as, v, lfc_reg_info(s->reg)->width > 16);
    report(&x, t, s->port, sig, es, as);
    printf("  final register sweep: value in S(%" PRIu64 "), after the last cycle\n", t);
    report_tail(&x, t);
    rc = 1;
  }
  if (a.dump) {
    printf("final state (model), non-zero registers:");
    for (size_t i = 0; i < nall; i++) {
      const dbg_sel_t *sl = &all[i];
      uint64_t v = lfc_switch_reg(tb->sw, sl->reg, sl->port, sl->cls);
      if (v) printf(" %s[p%u,c%u]=%" PRIu64, lfc_reg_info(sl->reg)->name, sl->port, sl->cls, v);
    }
    printf("\n");
  }
  if (rc == 0) {
    tb_err_t e;
    if (tb_score_end(tb, &e)) {
      report(&x, t, e.port, e.signal, e.expected, e.actual);
      report_tail(&x, t);
      rc = 1;
    }
  }

  tb_cov_end(tb);
  if (rc == 0) {
    tb_err_t e;
    if (tb_stim_end(tb, &e)) {
      report(&x, t, e.port, e.signal, e.expected, e.actual);
      report_tail(&x, t);
      rc = 1;
    }
  }
  const tb_score_t *s = &tb->score;
  uint64_t drops = 0;
  for (unsigned i = 0; i < LFC_DROP_CAUSES; i++) drops += s->dropped[i];
  uint64_t inside = s->accepted - s->delivered - s->discarded;
  printf("scoreboard: created=%" PRIu64 " offered=%" PRIu64 " accepted=%" PRIu64
         " delivered=%" PRIu64 " (%" PRIu64 " blocks) dropped=%" PRIu64,
         s->created, s->offered, s->accepted, s->delivered, s->delivered_blocks, drops);
  for (unsigned i = 0; i < LFC_DROP_CAUSES; i++)
    if (s->dropped[i])
      printf(" %s=%" PRIu64, lfc_drop_cause_name((lfc_drop_cause_t)i), s->dropped[i]);
  if (s->discarded) printf(" (of them discarded from queues=%" PRIu64 ")", s->discarded);
  printf(" still-in-switch=%" PRIu64 " model-holds=%" PRIu64 "\n", inside,
         lfc_switch_held(tb->sw, NULL));
  printf("switch sent: %" PRIu64 " data blocks, %" PRIu64 " FCPs, %" PRIu64 " PFC frames\n",
         tb->tx_words[LFC_DATA], tb->tx_words[LFC_FCP], tb->tx_words[LFC_PFC]);
  if (rtl_on)
    printf("registers: %zu (register, port, class) selections, %u read per cycle through the debug "
           "port: each compared every %zu cycles, and all %zu once more after the last cycle\n",
           nsel, K, (nsel + K - 1) / K, nall);
  if (pcap) {
    tb_pcap_t *p = pcap;
    pcap = NULL;
    if (tb_pcap_close(p, tb, 1, err, sizeof err)) {
      fprintf(stderr, "cosim: +pcap: %s\n", err);
      if (rc == 0) rc = 2;
    }
  }
  unsigned hit = 0;
  for (unsigned i = 0; i < COV_COUNT; i++) hit += tb->cov[i] > 0;
  if (a.cov) {
    if (tb_cov_write(tb, a.cov)) {
      /* The regression sums the files: a run without one would pass with its points unseen. */
      fprintf(stderr, "cosim: cannot write %s: %s\n", a.cov, strerror(errno));
      if (rc == 0) rc = 2;
    } else {
      printf("coverage: %u of %u points hit, %s\n", hit, (unsigned)COV_COUNT, a.cov);
    }
  }
  /* Two threads: the busier one sets the pace when each has a core of its own, which a loaded
     machine does not give them (cycles_per_second then shows less). */
  if (rc == 0 && threaded) {
    double busy = sim_cpu_s > cside_cpu_s ? sim_cpu_s : cside_cpu_s;
    printf("threads: 2, CPU seconds: simulator %.3f, C side %.3f; on two free cores %.0f "
           "cycles/s\n", sim_cpu_s, cside_cpu_s, busy > 0 ? (double)t / busy : 0.0);
  }
  /* cycles_per_second: wall clock; cpu_cycles_per_second: this process's CPU time (the
     steadier figure on a shared machine). */
  if (rc == 0)
    printf("PASS sim=%s config=%s seed=%u cycles=%" PRIu64 " packets=%" PRIu64
           " cycles_per_second=%.0f cpu_cycles_per_second=%.0f%s\n",
           tb->sim, tb->cfg.name, tb->seed, t, s->delivered, dt > 0 ? (double)t / dt : 0.0,
           dc > 0 ? (double)t / dc : 0.0, rtl_on ? "" : " model_only=1 (no RTL, nothing compared)");

  if (rtl_on && dut_close_checked(err, sizeof err)) {
    fprintf(stderr, "cosim: %s\n", err);
    if (rc == 0) rc = 2;
  }
  cside_close(tb);
  free(sel);
  free(all);
  return finish(&a, rc);
}
