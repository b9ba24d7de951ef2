/*
 * oracle_nic.c - the end node's reference model for the tests (oracle_nic.h): what the
 * documents say the node sends and counts, from the words it is given and sends.
 */
#include "oracle_nic.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "../src/lfc_rules.h"

void oracle_nic_init(oracle_nic_t *o, const lfc_nic_cfg_t *cfg, uint64_t seed) {
  memset(o, 0, sizeof *o);
  o->cfg = *cfg;
  o->ib = cfg->mode == LFC_MODE_IB;
  o->seed = seed;
}

void oracle_nic_queue(oracle_nic_t *o, const lfc_pkt_t *p) {
  oracle_fifo_t *f = &o->fifo[p->cls];
  f->v[(f->head + f->n) % ORACLE_NIC_FIFO_CAP] = *p;
  f->n++;
}

uint32_t oracle_nic_backlog(const oracle_nic_t *o, uint32_t cls) { return o->fifo[cls].n; }

static lfc_pkt_t fifo_pop(oracle_fifo_t *f) {
  lfc_pkt_t p = f->v[f->head];
  f->head = (f->head + 1u) % ORACLE_NIC_FIFO_CAP;
  f->n--;
  return p;
}

void oracle_nic_begin_cycle(oracle_nic_t *o, uint64_t t) {
  const uint32_t C = o->cfg.classes;
  memset(o->paused, 0, sizeof o->paused);
  uint32_t blocked = 0;
  if (o->ib) {
    for (uint32_t c = 0; c < C; c++)
      if (o->fifo[c].n > 0u &&
          !lfc_rule_send_ok(o->fctbs[c], o->fccl[c], o->fifo[c].v[o->fifo[c].head].nblk))
        blocked++;
    o->want.credit_blocked_cycles += blocked;
  } else {
    for (uint32_t c = 0; c < C; c++) {
      o->paused[c] = o->ps[c] <= t && t < o->pe[c];
      o->want.paused_cycles += o->paused[c];
    }
  }
}

void oracle_nic_check_out(oracle_nic_t *o, uint64_t t, const lfc_word_t *w) {
  const lfc_nic_cfg_t *cfg = &o->cfg;
  const bool ib = o->ib;
  const uint32_t C = cfg->classes, k = cfg->speed_div;
  const lfc_word_t out = *w;
  if (out.kind != LFC_IDLE && t % k != 0u)
    fail_msg("seed %llu cycle %llu: a word outside a slot (k = %u)", (unsigned long long)o->seed,
             (unsigned long long)t, k);
  if (out.kind == LFC_DATA && out.sop) {
    uint32_t c = out.cls;
    if (o->tx_rem != 0u) fail_msg("cycle %llu: a packet started inside another", (unsigned long long)t);
    if (o->fifo[c].n == 0u) fail_msg("cycle %llu: class %u started with nothing queued", (unsigned long long)t, c);
    if (ib && c != LFC_VL15 &&
        !lfc_rule_send_ok(o->fctbs[c], o->fccl[c], o->fifo[c].v[o->fifo[c].head].nblk))
      fail_msg("seed %llu cycle %llu: VL %u started a packet the send rule forbids",
               (unsigned long long)o->seed, (unsigned long long)t, c);
    if (ib && c != LFC_VL15 && o->fifo[LFC_VL15].n > 0u)
      fail_msg("cycle %llu: a data VL went ahead of VL15", (unsigned long long)t);
    if (!ib && o->paused[c])
      fail_msg("seed %llu cycle %llu: paused class %u started a packet",
               (unsigned long long)o->seed, (unsigned long long)t, c);
    lfc_pkt_t p = fifo_pop(&o->fifo[c]);
    assert_int_equal(out.tag, p.tag);
    assert_int_equal(out.nblk, p.nblk);
    assert_int_equal(out.dst, p.dst);
    assert_int_equal(out.ecn, p.ecn);
    assert_int_equal(out.eop, p.nblk == 1u);
    o->want.tx_pkts++;
    o->want.tx_blocks += p.nblk;
    if (ib && c != LFC_VL15) o->fctbs[c] = lfc_rule_credit_add(o->fctbs[c], p.nblk);
    o->tx_rem = p.nblk - 1u;
  } else if (out.kind == LFC_DATA) {
    if (o->tx_rem == 0u) fail_msg("cycle %llu: a continuation block outside a packet", (unsigned long long)t);
    o->tx_rem--;
    assert_int_equal(out.eop, o->tx_rem == 0u);
  } else if (out.kind == LFC_FCP) {
    assert_true(ib);
    if (o->tx_rem != 0u) fail_msg("cycle %llu: an FCP inside a packet", (unsigned long long)t);
    uint32_t vl = out.fc_vl;
    assert_true(vl < C);
    assert_int_equal(out.fc_op, LFC_FCP_OP_NORMAL);
    uint32_t fr = cfg->rx_blocks == 0u ? LFC_CREDIT_WINDOW : cfg->rx_blocks - o->occ[vl];
    if (out.fc_fctbs != o->fctbs[vl] || out.fc_fccl != lfc_rule_fccl(o->abr[vl], fr))
      fail_msg("seed %llu cycle %llu: FCP vl %u fctbs %u fccl %u, the oracle gives %u %u",
               (unsigned long long)o->seed, (unsigned long long)t, vl, out.fc_fctbs,
               out.fc_fccl, o->fctbs[vl], lfc_rule_fccl(o->abr[vl], fr));
    o->want.fcp_tx++;
  } else if (out.kind == LFC_PFC) {
    assert_false(ib);
    if (o->tx_rem != 0u) fail_msg("cycle %llu: a PFC frame inside a packet", (unsigned long long)t);
    assert_int_equal(out.pfc_en >> C, 0);
    assert_int_not_equal(out.pfc_en, 0);
    for (uint32_t c = 0; c < C; c++) {
      if (!(out.pfc_en >> c & 1u)) continue;
      if (out.pfc_time[c] != (o->xoff[c] ? cfg->pause_quanta : 0u))
        fail_msg("seed %llu cycle %llu: PFC frame time[%u] = %u with XOFF %d",
                 (unsigned long long)o->seed, (unsigned long long)t, c, out.pfc_time[c],
                 o->xoff[c]);
      if (o->xoff[c])
        o->want.xoff_tx++;
      else
        o->want.xon_tx++;
    }
    o->want.pfc_tx++;
  }
}

bool oracle_nic_receive(oracle_nic_t *o, uint64_t t, const lfc_word_t *w, bool sop_in,
                        bool well_formed) {
  const lfc_nic_cfg_t *cfg = &o->cfg;
  const bool ib = o->ib;
  const uint32_t C = cfg->classes, k = cfg->speed_div;
  const lfc_word_t in = *w;
  /* ---- Control words (step D) ---- */
  if (in.kind == LFC_FCP && ib) {
    o->want.fcp_rx++;
    if (in.fc_op <= LFC_FCP_OP_INIT && in.fc_vl < C) {
      o->fccl[in.fc_vl] = in.fc_fccl & LFC_CREDIT_MASK;
      o->abr[in.fc_vl] = in.fc_fctbs & LFC_CREDIT_MASK;
    }
  }
  if (in.kind == LFC_PFC && !ib) {
    o->want.pfc_rx++;
    uint64_t start = t + 1u + cfg->response_cycles;
    for (uint32_t c = 0; c < C; c++) {
      if (!(in.pfc_en >> c & 1u)) continue;
      if (in.pfc_time[c] == 0u) {
        o->want.resume_rx++;
        o->ps[c] = o->pe[c] = 0;
        continue;
      }
      o->want.pause_rx++;
      if (o->pe[c] < start) o->ps[c] = start;
      o->pe[c] = start + (uint64_t)in.pfc_time[c] * k;
    }
  }

  /* ---- Step G from occ of S(t) (PFC with a finite buffer) ---- */
  if (!ib && cfg->rx_blocks != 0u)
    for (uint32_t c = 0; c < C; c++)
      o->xoff[c] = o->xoff[c] ? !(o->occ[c] <= cfg->rx_xon) : o->occ[c] >= cfg->rx_xoff;

  /* ---- Data received (step E) ---- */
  uint32_t adm_c = 0, adm_n = 0;
  bool admitted = false;
  if (in.kind == LFC_DATA) {
    if (o->rx_rem > 0u) {
      o->rx_rem--;
    } else if (in.sop) {
      assert_true(sop_in); /* the script's first blocks only */
      if (!well_formed) {
        o->want.drop_pkts[LFC_DROP_MALFORMED]++;
      } else {
        uint32_t c = in.cls, n = in.nblk;
        o->rx_rem = n - 1u;
        bool fits = true;
        if (c != LFC_VL15) {
          if (ib) o->abr[c] = lfc_rule_credit_add(o->abr[c], n);
          fits = cfg->rx_blocks == 0u || n <= cfg->rx_blocks - o->occ[c];
        }
        if (!fits) {
          o->want.drop_pkts[ib ? LFC_DROP_CREDIT : LFC_DROP_HEADROOM]++;
        } else {
          admitted = true;
          o->want.rx_pkts++;
          o->want.rx_blocks += n;
          if (c != LFC_VL15 && cfg->drain_div != 0u) {
            adm_c = c;
            adm_n = n;
          }
        }
      }
    }
  }
  /* The drain reads S(t); the admission is charged after it. */
  if (cfg->drain_div != 0u && t % cfg->drain_div == 0u)
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++)
      if (o->occ[c] > 0u) o->occ[c]--;
  if (adm_n > 0u) {
    o->occ[adm_c] += adm_n;
    if (o->occ[adm_c] > o->want.peak_rx_blocks) o->want.peak_rx_blocks = o->occ[adm_c];
  }
  return admitted;
}

void oracle_nic_check_stats(const oracle_nic_t *o, const lfc_nic_t *nic) {
  const lfc_nic_stats_t *got = lfc_nic_stats(nic);
#define SAME(f)                                                                                  \
  do {                                                                                           \
    if (got->f != o->want.f)                                                                     \
      fail_msg("seed %llu: counter " #f " = %llu, the oracle counted %llu",                      \
               (unsigned long long)o->seed, (unsigned long long)got->f,                          \
               (unsigned long long)o->want.f);                                                   \
  } while (0)
  SAME(tx_pkts);
  SAME(tx_blocks);
  SAME(rx_pkts);
  SAME(rx_blocks);
  for (int c = 0; c < LFC_DROP_CAUSES; c++) SAME(drop_pkts[c]);
  SAME(fcp_tx);
  SAME(fcp_rx);
  SAME(pfc_tx);
  SAME(pfc_rx);
  SAME(xoff_tx);
  SAME(xon_tx);
  SAME(pause_rx);
  SAME(resume_rx);
  SAME(paused_cycles);
  SAME(credit_blocked_cycles);
  SAME(peak_rx_blocks);
#undef SAME
  for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++)
    assert_int_equal(lfc_nic_backlog(nic, c), o->fifo[c].n);
}
