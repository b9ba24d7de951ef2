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
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tb.h"

/* ---- arguments ---- */

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

static int parse_u64(const char *s, uint64_t *v) {
  char *end;
  if (!s || !*s) return -1;
  unsigned long long x = strtoull(s, &end, 0);
  if (*end) return -1;
  *v = x;
  return 0;
}

static int parse_args(int argc, char **argv, args_t *a) {
  memset(a, 0, sizeof *a);
  a->seed = 1;
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
    else if ((v = arg_value(argv[i], "dump"))) a->dump = atoi(v);
    else if ((v = arg_value(argv[i], "model_only"))) a->model_only = atoi(v);
    else if ((v = arg_value(argv[i], "dbg_per_cycle"))) {
      if (parse_u64(v, &x) || x == 0 || x > 40) goto bad;
      a->dbg_per_cycle = (uint32_t)x;
    }
    /* Anything else belongs to the simulator. */
    continue;
  bad:
    fprintf(stderr, "cosim: bad argument '%s'\n", argv[i]);
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

#define NFIELDS 21
static const char *const FIELD_NAMES[NFIELDS] = {
    "tx_kind_o",     "tx_sop_o",      "tx_eop_o",      "tx_cls_o",      "tx_nblk_o",
    "tx_dst_o",      "tx_tag_o",      "tx_ecn_o",      "tx_fc_op_o",    "tx_fc_vl_o",
    "tx_fc_fctbs_o", "tx_fc_fccl_o",  "tx_pfc_en_o",   "tx_pfc_time_o[0]", "tx_pfc_time_o[1]",
    "tx_pfc_time_o[2]", "tx_pfc_time_o[3]", "tx_pfc_time_o[4]", "tx_pfc_time_o[5]",
    "tx_pfc_time_o[6]", "tx_pfc_time_o[7]"};

static uint64_t field(const lfc_word_t *w, int i) {
  switch (i) {
    case 0: return w->kind;
    case 1: return w->sop;
    case 2: return w->eop;
    case 3: return w->cls;
    case 4: return w->nblk;
    case 5: return w->dst;
    case 6: return w->tag;
    case 7: return w->ecn;
    case 8: return w->fc_op;
    case 9: return w->fc_vl;
    case 10: return w->fc_fctbs;
    case 11: return w->fc_fccl;
    case 12: return w->pfc_en;
    default: return w->pfc_time[i - 13];
  }
}

/* Every field of a and b equal (the same fields as field() lists; padding ignored). The fast path
   of the comparison: the field-by-field walk runs only for a word that differs. */
static int words_equal(const lfc_word_t *a, const lfc_word_t *b) {
  unsigned d = (unsigned)(a->kind ^ b->kind) | (unsigned)(a->sop ^ b->sop) |
               (unsigned)(a->eop ^ b->eop) | (unsigned)(a->cls ^ b->cls) |
               (unsigned)(a->nblk ^ b->nblk) | (unsigned)(a->dst ^ b->dst) | (a->tag ^ b->tag) |
               (unsigned)(a->ecn ^ b->ecn) | (unsigned)(a->fc_op ^ b->fc_op) |
               (unsigned)(a->fc_vl ^ b->fc_vl) | (unsigned)(a->fc_fctbs ^ b->fc_fctbs) |
               (unsigned)(a->fc_fccl ^ b->fc_fccl) | (unsigned)(a->pfc_en ^ b->pfc_en);
  for (int c = 0; c < NFIELDS - 13; c++) d |= (unsigned)(a->pfc_time[c] ^ b->pfc_time[c]);
  return d == 0;
}

/* ---- registers through the debug port ---- */

typedef struct {
  uint16_t reg;
  uint8_t port, cls;
} dbg_sel_t;

static uint64_t reg_mask(size_t reg) {
  unsigned w = lfc_reg_info(reg)->width;
  if (w > 32) w = 32;
  return w >= 64 ? ~0ull : ((1ull << w) - 1u);
}

/* The registers to compare: all = every register including the other mode's (they read 0). */
static dbg_sel_t *dbg_list(const tb_t *tb, int all, size_t *n) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  size_t cap = lfc_reg_count() * c->ports * 17 + 1, k = 0;
  dbg_sel_t *l = calloc(cap, sizeof *l);
  if (!l) return NULL;
  for (size_t r = 0; r < lfc_reg_count(); r++) {
    const lfc_reg_info_t *ri = lfc_reg_info(r);
    if (!all && ri->mode != 2 && ri->mode != (uint8_t)c->mode) continue;
    if (ri->scope == LFC_SCOPE_SWITCH) {
      l[k++] = (dbg_sel_t){(uint16_t)r, 0, 0};
      continue;
    }
    for (unsigned p = 0; p < c->ports; p++) {
      if (ri->scope == LFC_SCOPE_PORT) {
        l[k++] = (dbg_sel_t){(uint16_t)r, (uint8_t)p, 0};
        continue;
      }
      for (unsigned cl = 0; cl < c->classes; cl++) l[k++] = (dbg_sel_t){(uint16_t)r, (uint8_t)p, (uint8_t)cl};
      /* The VL15 queue (SPEC §13.1: class 15 of qlen/qpkts). */
      if (c->mode == LFC_MODE_IB && (!strcmp(ri->name, "qlen") || !strcmp(ri->name, "qpkts")))
        l[k++] = (dbg_sel_t){(uint16_t)r, (uint8_t)p, 15};
    }
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
  char b[256];
  printf("  %s: %s\n", what, lfc_word_format(w, b, sizeof b));
}

static void print_events(const lfc_event_t *ev, size_t nev) {
  static const char *const K[LFC_EV_KINDS] = {"drop", "ecn_mark", "xoff", "xon",
                                              "wd_trip", "wd_restore", "rx_malformed"};
  printf("  model events this cycle:%s", nev ? "" : " none");
  for (size_t i = 0; i < nev; i++) {
    printf(" %s(port=%u cls=%u", ev[i].kind < LFC_EV_KINDS ? K[ev[i].kind] : "?", ev[i].port,
           ev[i].cls);
    if (ev[i].kind == LFC_EV_DROP)
      printf(" cause=%s tag=0x%08x", lfc_drop_cause_name((lfc_drop_cause_t)ev[i].cause),
             ev[i].tag);
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

static int finish(const args_t *a, int rc) {
  fflush(stdout);
  if (a && a->result) {
    FILE *f = fopen(a->result, "w");
    if (f) {
      fprintf(f, "%d\n", rc);
      fclose(f);
    }
  }
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
  const lfc_switch_cfg_t *sc = &tb->cfg.sw;
  unsigned ports = sc->ports;
  char err[512];
  ctx_t x = {&a, tb};

  tb->sw = lfc_switch_create(sc, err, sizeof err);
  if (!tb->sw) {
    fprintf(stderr, "%s: lfc_switch_create: %s\n", a.config, err);
    return finish(&a, 2);
  }
  for (unsigned p = 0; p < ports; p++) {
    tb->nic[p] = lfc_nic_create(&tb->cfg.nic[p], err, sizeof err);
    tb->up[p] = lfc_link_create(tb->cfg.link_delay[p]);
    tb->down[p] = lfc_link_create(tb->cfg.link_delay[p]);
    if (!tb->nic[p] || !tb->up[p] || !tb->down[p]) {
      fprintf(stderr, "%s: cannot create the partner of port %u: %s\n", a.config, p,
              tb->nic[p] ? "link" : err);
      return finish(&a, 2);
    }
  }
  if (tb_score_init(tb)) return finish(&a, 3);
  if (tb_stim_init(tb)) return finish(&a, 2);

  size_t nsel = 0, nall = 0;
  dbg_sel_t *sel = dbg_list(tb, 0, &nsel);
  dbg_sel_t *all = dbg_list(tb, 1, &nall);
  if (!sel || !all || nsel == 0) return finish(&a, 3);

  /* +model_only=1: the same stimulus, model, scoreboard and coverage without the RTL (the
     C side's share of the lockstep's time, for make bench); nothing is compared. */
  const int rtl_on = !a.model_only;
  dut_open_t oa = {ports, a.waves, a.waves_from};
  if (rtl_on && dut_open(&oa, err, sizeof err)) {
    fprintf(stderr, "cosim: %s: %s\n", tb->sim, err);
    return finish(&a, 3);
  }
  if (rtl_on) dut_reset();

  lfc_word_t in[TB_MAX_PORTS], out[TB_MAX_PORTS], rtl[TB_MAX_PORTS], nic_in[TB_MAX_PORTS];
  dbg_sel_t cur[40];
  uint64_t expv[40], actv[40];
  size_t rot = 0;
  int rc = 0;
  double t0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
  uint64_t t;
  const lfc_event_t *ev = NULL;
  size_t nev = 0;
  char sig[128], es[192], as[192];

  for (t = 0; t < tb->cycles && rc == 0; t++) {
    tb->cycle = t;
    tb_stim_traffic(tb, t);
    for (unsigned p = 0; p < ports; p++) {
      in[p] = *lfc_link_head(tb->up[p]);
      tb_stim_inject(tb, t, p, &in[p]);
      nic_in[p] = *lfc_link_head(tb->down[p]);
    }
    /* The registers of S(t) this cycle compares. */
    for (uint32_t k = 0; k < K; k++) {
      cur[k] = sel[(rot + k) % nsel];
      expv[k] = lfc_switch_reg(tb->sw, cur[k].reg, cur[k].port, cur[k].cls) & reg_mask(cur[k].reg);
    }
    rot = (rot + K) % nsel;
    tb_cov_pre(tb, t, in);

    /* The RTL. */
    dut_stat_t rs, es_;
    if (rtl_on) {
      for (unsigned p = 0; p < ports; p++) dut_set_rx(p, &in[p]);
      dut_set_dbg(cur[0].reg, cur[0].port, cur[0].cls);
      dut_settle();
      for (unsigned p = 0; p < ports; p++) dut_get_tx(p, &rtl[p]);
      dut_get_stat(&rs);
      actv[0] = dut_get_dbg() & reg_mask(cur[0].reg);
      for (uint32_t k = 1; k < K; k++) {
        dut_set_dbg(cur[k].reg, cur[k].port, cur[k].cls);
        dut_settle();
        actv[k] = dut_get_dbg() & reg_mask(cur[k].reg);
      }
    }

    /* The model. */
    lfc_switch_step(tb->sw, in, out);
    nev = lfc_switch_events(tb->sw, &ev);

    /* Compare: unknown bits, words, then stat_* pulses, then registers. */
    unsigned xz_port = 0;
    if (!rtl_on) {
      memcpy(rtl, out, ports * sizeof *out);
      memset(&rs, 0, sizeof rs);
      expected_stats(tb, in, ev, nev, &rs);
      for (uint32_t k = 0; k < K; k++) actv[k] = expv[k];
    }
    if (rtl_on && dut_get_xz(sig, sizeof sig, &xz_port)) {
      report(&x, t, xz_port, sig, "0/1", "x");
      printf("  an output of the RTL has an x or z bit (Icarus is 4-state; Verilator would read "
             "it as 0 or 1)\n");
      rc = 1;
    }
    for (unsigned p = 0; p < ports && rc == 0; p++) {
      if (words_equal(&out[p], &rtl[p])) continue;
      for (int f = 0; f < NFIELDS; f++) {
        uint64_t e = field(&out[p], f), v = field(&rtl[p], f);
        if (e == v) continue;
        fmt_val(es, sizeof es, e, f == 6);
        fmt_val(as, sizeof as, v, f == 6);
        report(&x, t, p, FIELD_NAMES[f], es, as);
        print_words("expected word (model)", &out[p]);
        print_words("actual word   (RTL)  ", &rtl[p]);
        print_words("input word this cycle", &in[p]);
        rc = 1;
        break;
      }
    }
    if (rc == 0) {
      expected_stats(tb, in, ev, nev, &es_);
      for (unsigned p = 0; p < ports; p++) {
        if (!stat_diff(&es_, &rs, p, sig, sizeof sig, es, as, sizeof es)) continue;
        report(&x, t, p, sig, es, as);
        print_words("input word this cycle", &in[p]);
        rc = 1;
        break;
      }
    }
    for (uint32_t k = 0; k < K && rc == 0; k++) {
      if (expv[k] == actv[k]) continue;
      dbg_signal(&cur[k], sig, sizeof sig);
      fmt_val(es, sizeof es, expv[k], lfc_reg_info(cur[k].reg)->width > 16);
      fmt_val(as, sizeof as, actv[k], lfc_reg_info(cur[k].reg)->width > 16);
      report(&x, t, cur[k].port, sig, es, as);
      printf("  register value in S(%" PRIu64 "), the state at the start of the cycle\n", t);
      rc = 1;
    }
    if (rc == 0) {
      tb_err_t e;
      if (tb_score_cycle(tb, t, in, out, ev, nev, &e)) {
        report(&x, t, e.port, e.signal, e.expected, e.actual);
        printf("  (the RTL and the model agree here; the scoreboard checks both against "
               "docs/SPEC.md)\n");
        rc = 1;
      }
    }
    if (rc) {
      print_events(ev, nev);
      report_tail(&x, t);
      break;
    }
    tb_cov_post(tb, t, in, out, ev, nev);

    if (rtl_on) dut_clock();
    for (unsigned p = 0; p < ports; p++) {
      lfc_word_t no;
      lfc_nic_step(tb->nic[p], &nic_in[p], &no);
      lfc_link_push(tb->up[p], &no);
      lfc_link_push(tb->down[p], &out[p]);
    }
  }
  double dt = clock_s(CLOCK_MONOTONIC) - t0, dc = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
  tb->cycle = t;

  /* Every register of every port and class, in the final state. */
  for (size_t i = 0; i < nall && rc == 0 && rtl_on; i++) {
    const dbg_sel_t *s = &all[i];
    uint64_t e = lfc_switch_reg(tb->sw, s->reg, s->port, s->cls) & reg_mask(s->reg);
    dut_set_dbg(s->reg, s->port, s->cls);
    dut_settle();
    uint64_t v = dut_get_dbg() & reg_mask(s->reg);
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
  printf(" still-in-switch=%" PRIu64 "\n", inside);
  printf("switch sent: %" PRIu64 " data blocks, %" PRIu64 " FCPs, %" PRIu64 " PFC frames\n",
         tb->tx_words[LFC_DATA], tb->tx_words[LFC_FCP], tb->tx_words[LFC_PFC]);
  if (rtl_on)
    printf("registers: %zu (register, port, class) selections, %u read per cycle through the debug "
           "port: each compared every %zu cycles, and all %zu once more after the last cycle\n",
           nsel, K, (nsel + K - 1) / K, nall);
  unsigned hit = 0;
  for (unsigned i = 0; i < COV_COUNT; i++) hit += tb->cov[i] > 0;
  if (a.cov) {
    if (tb_cov_write(tb, a.cov))
      fprintf(stderr, "cosim: cannot write %s\n", a.cov);
    printf("coverage: %u of %u points hit, %s\n", hit, (unsigned)COV_COUNT, a.cov);
  }
  /* cycles_per_second: wall clock; cpu_cycles_per_second: this process's CPU time (the
     steadier figure on a shared machine). */
  if (rc == 0)
    printf("PASS sim=%s config=%s seed=%u cycles=%" PRIu64 " packets=%" PRIu64
           " cycles_per_second=%.0f cpu_cycles_per_second=%.0f%s\n",
           tb->sim, tb->cfg.name, tb->seed, t, s->delivered, dt > 0 ? (double)t / dt : 0.0,
           dc > 0 ? (double)t / dc : 0.0, rtl_on ? "" : " model_only=1 (no RTL, nothing compared)");

  if (rtl_on) dut_close();
  for (unsigned p = 0; p < ports; p++) {
    lfc_nic_destroy(tb->nic[p]);
    lfc_link_destroy(tb->up[p]);
    lfc_link_destroy(tb->down[p]);
  }
  lfc_switch_destroy(tb->sw);
  tb_score_free(tb);
  free(sel);
  free(all);
  return finish(&a, rc);
}
