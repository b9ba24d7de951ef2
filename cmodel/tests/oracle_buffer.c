/*
 * oracle_buffer.c - the PFC buffer accounting and XOFF reference model of the tests
 * (oracle_buffer.h): SPEC §6.2-§6.5 and §10 from S(t) read through the register API.
 */
#include "oracle_buffer.h"

#include <string.h>

enum { TH_MAX = (1u << 20) - 1u }; /* T saturates at 2^20 - 1 (SPEC §6.2) */

void oracle_buf_init(oracle_buf_t *o, const lfc_switch_cfg_t *cfg) {
  memset(o, 0, sizeof *o);
  o->cfg = *cfg;
  o->i_shared_used = tu_reg_idx("shared_used");
  o->i_min = tu_reg_idx("pg_min");
  o->i_sh = tu_reg_idx("pg_shared");
  o->i_hd = tu_reg_idx("pg_hdrm");
  o->i_xoff = tu_reg_idx("xoff");
}

void oracle_buf_begin(oracle_buf_t *o, const tu_t *t) {
  const lfc_switch_cfg_t *c = &o->cfg;
  /* S(t) */
  o->used = lfc_switch_reg(t->sw, o->i_shared_used, 0, 0);
  for (uint32_t p = 0; p < ORACLE_BUF_PORTS; p++) {
    for (uint32_t k = 0; k < ORACLE_BUF_CLASSES; k++) {
      o->pg[p][k].min = lfc_switch_reg(t->sw, o->i_min, p, k);
      o->pg[p][k].shared = lfc_switch_reg(t->sw, o->i_sh, p, k);
      o->pg[p][k].hdrm = lfc_switch_reg(t->sw, o->i_hd, p, k);
      o->xoff[p][k] = lfc_switch_reg(t->sw, o->i_xoff, p, k);
    }
  }
  /* §6.2 T from S(t) */
  if (!c->dynamic_th) {
    o->th = c->xoff_th;
  } else {
    uint64_t fr = c->shared_blocks - o->used;
    o->th = c->alpha_log2 >= 0 ? fr << c->alpha_log2 : fr >> -c->alpha_log2;
    if (o->th > TH_MAX) o->th = TH_MAX;
  }
}

void oracle_buf_check_step(oracle_buf_t *o, const tu_t *t, uint64_t cyc,
                           const lfc_word_t in[ORACLE_BUF_PORTS]) {
  const lfc_switch_cfg_t c = o->cfg;
  const uint64_t th = o->th, used = o->used;
  const oracle_buf_pkt_t *pk = o->pk;
  oracle_buf_pg_t(*pg)[ORACLE_BUF_CLASSES] = o->pg;
  /* expected S(t+1): frees of the packets that started (ascending egress port) */
  oracle_buf_pg_t nx[ORACLE_BUF_PORTS][ORACLE_BUF_CLASSES];
  memcpy(nx, pg, sizeof nx);
  uint64_t nused = used;
  for (uint32_t e = 0; e < ORACLE_BUF_PORTS; e++) {
    const lfc_word_t *w = &t->last_out[e];
    if (w->kind != LFC_DATA || !w->sop) continue;
    const oracle_buf_pkt_t *k = &pk[w->tag];
    oracle_buf_pg_t *g = &nx[k->in_port][k->cls];
    uint64_t n = k->nblk, h = g->hdrm < n ? g->hdrm : n;
    uint64_t sh = g->shared < n - h ? g->shared : n - h;
    g->hdrm -= h;
    g->shared -= sh;
    g->min -= n - h - sh;
    nused -= sh;
  }
  /* admissions (ascending ingress port, chain from S(t)) */
  uint64_t chain = used;
  for (uint32_t p = 0; p < ORACLE_BUF_PORTS; p++) {
    if (in[p].kind != LFC_DATA || !in[p].sop) continue;
    const oracle_buf_pkt_t *k = &pk[in[p].tag];
    const oracle_buf_pg_t *g = &pg[p][k->cls];
    bool lossless = (c.lossless_mask >> k->cls) & 1u;
    uint64_t n = k->nblk, r = c.reserve_blocks - g->min;
    if (r > n) r = n;
    uint64_t rest = n - r;
    int where = 0; /* 0 reserve only, 1 shared, 2 headroom, -1 drop */
    if (rest == 0) where = 0;
    else if (g->shared + rest <= th && chain + rest <= c.shared_blocks) where = 1;
    else if (lossless && g->hdrm + rest <= c.headroom_blocks) where = 2;
    else where = -1;
    size_t got = 0;
    for (size_t i = t->nev; i-- > 0 && t->ev[i].cycle == cyc;) {
      const lfc_event_t *ev = &t->ev[i].ev;
      if (ev->kind == LFC_EV_DROP && ev->tag == in[p].tag) {
        got++;
        if (where != -1 || ev->port != p || ev->cls != k->cls ||
            ev->cause != (lossless ? LFC_DROP_HEADROOM : LFC_DROP_SHARED)) {
          fail_msg("cycle %llu: tag %u (port %u cls %u n %llu) dropped with cause %u, SPEC "
                   "§6.4 says %s",
                   (unsigned long long)cyc, in[p].tag, p, k->cls, (unsigned long long)n,
                   ev->cause, where == -1 ? "that cause differs" : "admit");
        }
      }
    }
    if (where == -1 && got != 1) {
      fail_msg("cycle %llu: tag %u (port %u cls %u n %llu) not dropped, SPEC §6.4 drops it",
               (unsigned long long)cyc, in[p].tag, p, k->cls, (unsigned long long)n);
    }
    if (where == -1) {
      o->drops++;
      continue;
    }
    oracle_buf_pg_t *ng = &nx[p][k->cls];
    ng->min += r;
    if (where == 1) {
      ng->shared += rest;
      nused += rest;
      chain += rest;
    } else if (where == 2) {
      ng->hdrm += rest;
      o->hdrm_seen++;
    }
  }
  /* compare S(t+1) */
  uint64_t sum = 0;
  for (uint32_t p = 0; p < ORACLE_BUF_PORTS; p++) {
    for (uint32_t k = 0; k < ORACLE_BUF_CLASSES; k++) {
      uint64_t a = lfc_switch_reg(t->sw, o->i_min, p, k),
               b = lfc_switch_reg(t->sw, o->i_sh, p, k),
               h = lfc_switch_reg(t->sw, o->i_hd, p, k);
      if (a != nx[p][k].min || b != nx[p][k].shared || h != nx[p][k].hdrm) {
        fail_msg("cycle %llu PG (%u,%u): pg_min/shared/hdrm %llu/%llu/%llu, SPEC §6.3-§6.4 "
                 "gives %llu/%llu/%llu (from %llu/%llu/%llu)",
                 (unsigned long long)cyc, p, k, (unsigned long long)a, (unsigned long long)b,
                 (unsigned long long)h, (unsigned long long)nx[p][k].min,
                 (unsigned long long)nx[p][k].shared, (unsigned long long)nx[p][k].hdrm,
                 (unsigned long long)pg[p][k].min, (unsigned long long)pg[p][k].shared,
                 (unsigned long long)pg[p][k].hdrm);
      }
      assert_true(a <= c.reserve_blocks);
      assert_true(h <= c.headroom_blocks);
      sum += b;
      /* §6.5 from S(t) */
      bool lossless = (c.lossless_mask >> k) & 1u;
      bool on = o->xoff[p][k] != 0, next = on;
      if (lossless) {
        const oracle_buf_pg_t *g = &pg[p][k];
        bool xoff_cond = g->hdrm > 0 || (g->shared > 0 && g->shared >= th);
        bool xon_cond = g->hdrm == 0 && (g->shared == 0 || g->shared + c.xon_offset <= th);
        next = on ? !xon_cond : xoff_cond;
      }
      uint64_t x = lfc_switch_reg(t->sw, o->i_xoff, p, k);
      if (x != (uint64_t)next) {
        fail_msg("cycle %llu PG (%u,%u): xoff %llu, SPEC §6.5 gives %d (pg_shared %llu, "
                 "pg_hdrm %llu, T %llu, xoff %d)",
                 (unsigned long long)cyc, p, k, (unsigned long long)x, next,
                 (unsigned long long)pg[p][k].shared, (unsigned long long)pg[p][k].hdrm,
                 (unsigned long long)th, on);
      }
      size_t evx = 0;
      for (size_t i = t->nev; i-- > 0 && t->ev[i].cycle == cyc;) {
        const lfc_event_t *ev = &t->ev[i].ev;
        if ((ev->kind == LFC_EV_XOFF || ev->kind == LFC_EV_XON) && ev->port == p &&
            ev->cls == k) {
          evx++;
          assert_int_equal(ev->kind, next ? LFC_EV_XOFF : LFC_EV_XON);
        }
      }
      assert_int_equal(evx, next != on);
      o->xoffs += (next && !on);
    }
  }
  uint64_t su = lfc_switch_reg(t->sw, o->i_shared_used, 0, 0);
  assert_int_equal(su, nused);
  assert_int_equal(su, sum);
  assert_true(su <= c.shared_blocks);
}
