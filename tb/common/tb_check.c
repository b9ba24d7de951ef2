/*
 * tb_check.c - the lockstep checker: one cycle of the C side and of the RTL, compared.
 *
 * Each cycle t (SPEC §1.3, §4.1), as tb_main.c's loop runs it:
 *   1. tb_cside_pre: the link partners' words arriving now (lfc_link_head), with misbehaviour
 *      injected, are I(t); the registers of S(t) to compare are read from the model, then
 *      lfc_switch_step gives O(t) and the events of cycle t, and from them the stat_* pulses the
 *      RTL must show;
 *   2. tb_rtl_cycle: the RTL gets I(t) and settles: its tx words O(t), its stat_* pulses and the
 *      same registers through its debug port;
 *   3. tb_rtl_check: everything compared field by field; the first difference is printed as one
 *      `MISMATCH cycle=... port=... signal=... expected=... actual=... seed=... config=...` line
 *      with its context (tb_report, tb_report_tail: the command that reproduces it and where its
 *      waves go);
 *   4. tb_cside_post: the scoreboard and coverage look at the agreed words; the partners step
 *      and the words go onto the links (the caller then clocks the RTL).
 * The partners are fed by the model's words, never the RTL's: the C side does not depend on the
 * RTL, which is what lets tb_fast.c run it ahead on a thread of its own.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime (tb_lockstep.h) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tb_lockstep.h"

/* ---- the link word, field by field ---- */

/* Every field of a and b equal (the fields of dut_word_field; padding ignored). The fast path
   of the comparison: the field-by-field walk runs only for a word that differs. */
static int words_equal(const lfc_word_t *a, const lfc_word_t *b) {
  unsigned d = (unsigned)(a->kind ^ b->kind) | (unsigned)(a->sop ^ b->sop) |
               (unsigned)(a->eop ^ b->eop) | (unsigned)(a->cls ^ b->cls) |
               (unsigned)(a->nblk ^ b->nblk) | (unsigned)(a->dst ^ b->dst) | (a->tag ^ b->tag) |
               (unsigned)(a->ecn ^ b->ecn) | (unsigned)(a->pad ^ b->pad) |
               (unsigned)(a->mrg ^ b->mrg) | (unsigned)(a->fc_op ^ b->fc_op) |
               (unsigned)(a->fc_vl ^ b->fc_vl) | (unsigned)(a->fc_fctbs ^ b->fc_fctbs) |
               (unsigned)(a->fc_fccl ^ b->fc_fccl) | (unsigned)(a->pfc_en ^ b->pfc_en);
  for (unsigned c = 0; c < LFC_PFC_MAX_PRIOS; c++)
    d |= (unsigned)(a->pfc_time[c] ^ b->pfc_time[c]);
  return d == 0;
}

/* ---- registers through the debug port ---- */

void tb_dbg_signal(const dbg_sel_t *s, char *buf, size_t len) {
  const lfc_reg_info_t *ri = lfc_reg_info(s->reg);
  if (ri->scope == LFC_SCOPE_PORT_CLASS)
    snprintf(buf, len, "dbg:%s[cls=%u](reg=%u)", ri->name, s->cls, s->reg);
  else
    snprintf(buf, len, "dbg:%s(reg=%u)", ri->name, s->reg);
}

/* ---- the report ---- */

/* The MISMATCH line keeps one token per value (spaces become '_'); a value that had spaces is
   also printed whole on the next lines. */
void tb_report(ctx_t *x, uint64_t cycle, unsigned port, const char *signal, const char *exp,
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

void tb_report_tail(ctx_t *x, uint64_t cycle) {
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

void tb_fmt_val(char *buf, size_t len, uint64_t v, int hex) {
  if (hex)
    snprintf(buf, len, "0x%08" PRIx64, v);
  else
    snprintf(buf, len, "%" PRIu64, v);
}

/* ---- one cycle of the C side, and of the RTL ---- */

int tb_cside_open(tb_t *tb) {
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

void tb_cside_close(tb_t *tb) {
  for (unsigned p = 0; p < tb->cfg.sw.ports; p++) {
    lfc_nic_destroy(tb->nic[p]);
    lfc_link_destroy(tb->up[p]);
    lfc_link_destroy(tb->down[p]);
  }
  lfc_switch_destroy(tb->sw);
  tb_score_free(tb);
}

/* Cycle t up to the model's step: the inputs, the registers of S(t), O(t) and the events. */
void tb_cside_pre(cside_t *cs, uint64_t t, expect_t *e) {
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
  memset(e->out, 0, cs->ports * sizeof *e->out); /* the padding too: see tb_rtl_check */
  lfc_switch_step(tb->sw, e->in, e->out);
  cs->nev = lfc_switch_events(tb->sw, &cs->ev);
  dut_expected_stats(e->in, tb->score.rx_rem, cs->ev, cs->nev, &e->stat);
  /* The speed seam: the record packed for an adapter with the packed interface (tb_fast.c). */
  if (cs->pk) tb_fast_pack(cs, e);
  e->t = t;
  e->score_failed = 0;
}

/* The rest of cycle t: the scoreboard (returns -1 with *err filled at an error; nothing else of
   the cycle is done then), coverage, the partners and the links. */
int tb_cside_post(cside_t *cs, uint64_t t, const expect_t *e, tb_err_t *err) {
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

/* Drive the inputs of e into the RTL and read what it shows in this cycle (not clocked): each
   port's word and the stat_* pulses field by field (dut.h), then the registers of e->sel through
   the debug port, one selection after another. An adapter with the packed interface moves the
   same values in bulk instead (tb_fast_rtl_cycle, the speed seam). */
void tb_rtl_cycle(const cside_t *cs, const expect_t *e, actual_t *a) {
  if (cs->pk) {
    tb_fast_rtl_cycle(cs, e, a);
    return;
  }
  for (unsigned p = 0; p < cs->ports; p++) dut_set_rx(p, &e->in[p]);
  dut_set_dbg(e->sel[0].reg, e->sel[0].port, e->sel[0].cls);
  dut_settle();
  a->same = 0;
  for (unsigned p = 0; p < cs->ports; p++) dut_get_tx(p, &a->tx[p]);
  dut_get_stat(&a->stat);
  tb_rtl_regs(cs, e, a);
}

void tb_rtl_regs(const cside_t *cs, const expect_t *e, actual_t *a) {
  a->val[0] = dut_get_dbg() & e->sel[0].mask;
  for (uint32_t k = 1; k < cs->K; k++) {
    dut_set_dbg(e->sel[k].reg, e->sel[k].port, e->sel[k].cls);
    dut_settle();
    a->val[k] = dut_get_dbg() & e->sel[k].mask;
  }
  a->xz = dut_get_xz(a->xz_name, sizeof a->xz_name, &a->xz_port);
}

/* Compare: unknown bits, words, then stat_* pulses, then registers. Returns 1 at the first
   difference, after printing it when x is not NULL (without the tail: the caller adds the
   events and tb_report_tail). The same test decides with and without printing. */
int tb_rtl_check(ctx_t *x, unsigned ports, uint32_t K, const expect_t *e, const actual_t *a) {
  char sig[128], es[192], as[192];
  if (a->xz) {
    if (!x) return 1;
    tb_report(x, e->t, a->xz_port, a->xz_name, "0/1", "x");
    printf("  an output of the RTL has an x or z bit (Icarus is 4-state; Verilator would read "
           "it as 0 or 1)\n");
    return 1;
  }
  for (unsigned p = 0; p < ports && !a->same; p++) {
    /* Bytewise first: both words have zero padding (see tb_cside_pre) and the adapters only
       write fields, so equal words are almost always equal bytes; the field test decides
       otherwise. */
    if (memcmp(&e->out[p], &a->tx[p], sizeof a->tx[p]) == 0 || words_equal(&e->out[p], &a->tx[p]))
      continue;
    if (!x) return 1;
    for (unsigned f = 0; f < DUT_WORD_FIELDS; f++) {
      uint64_t ev = dut_word_field(&e->out[p], f), v = dut_word_field(&a->tx[p], f);
      if (ev == v) continue;
      tb_fmt_val(es, sizeof es, ev, f == 6);
      tb_fmt_val(as, sizeof as, v, f == 6);
      tb_report(x, e->t, p, dut_word_field_name[f], es, as);
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
      if (!dut_stat_diff(&e->stat, &a->stat, p, sig, sizeof sig, es, as, sizeof es)) continue;
      if (!x) return 1;
      tb_report(x, e->t, p, sig, es, as);
      print_words("input word this cycle", &e->in[p]);
      return 1;
    }
  }
  for (uint32_t k = 0; k < K; k++) {
    if (e->val[k] == a->val[k]) continue;
    if (!x) return 1;
    const dbg_sel_t *d = &e->sel[k];
    tb_dbg_signal(d, sig, sizeof sig);
    tb_fmt_val(es, sizeof es, e->val[k], lfc_reg_info(d->reg)->width > 16);
    tb_fmt_val(as, sizeof as, a->val[k], lfc_reg_info(d->reg)->width > 16);
    tb_report(x, e->t, d->port, sig, es, as);
    printf("  register value in S(%" PRIu64 "), the state at the start of the cycle\n", e->t);
    return 1;
  }
  return 0;
}

/* The end of cycle t with the RTL's values a (NULL: no RTL): compare, then the scoreboard; at
   the first error print the report and return 1. */
int tb_cycle_finish(ctx_t *x, cside_t *cs, const expect_t *e, const actual_t *a) {
  int rc = a ? tb_rtl_check(x, cs->ports, cs->K, e, a) : 0;
  if (rc == 0) {
    tb_err_t err;
    if (tb_cside_post(cs, e->t, e, &err)) {
      tb_report(x, e->t, err.port, err.signal, err.expected, err.actual);
      printf("  (the RTL and the model agree here; the scoreboard checks both against "
             "docs/SPEC.md)\n");
      rc = 1;
    }
  }
  if (rc) {
    print_events(cs->ev, cs->nev);
    tb_report_tail(x, e->t);
  }
  return rc;
}

/* After the last cycle t: every register of every port and class (all, n selections) read
   through the debug port and compared with the model's final state. Returns 1 at the first
   difference, reported. */
int tb_final_sweep(ctx_t *x, const dbg_sel_t *all, size_t n, uint64_t t) {
  const tb_t *tb = x->tb;
  char sig[128], es[192], as[192];
  for (size_t i = 0; i < n; i++) {
    const dbg_sel_t *s = &all[i];
    uint64_t e = lfc_switch_reg(tb->sw, s->reg, s->port, s->cls) & s->mask;
    dut_set_dbg(s->reg, s->port, s->cls);
    dut_settle();
    uint64_t v = dut_get_dbg() & s->mask;
    if (e == v) continue;
    tb_dbg_signal(s, sig, sizeof sig);
    tb_fmt_val(es, sizeof es, e, lfc_reg_info(s->reg)->width > 16);
    tb_fmt_val(as, sizeof as, v, lfc_reg_info(s->reg)->width > 16);
    tb_report(x, t, s->port, sig, es, as);
    printf("  final register sweep: value in S(%" PRIu64 "), after the last cycle\n", t);
    tb_report_tail(x, t);
    return 1;
  }
  return 0;
}
