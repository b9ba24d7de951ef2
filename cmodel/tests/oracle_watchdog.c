/*
 * oracle_watchdog.c - the pause timer and PFC watchdog reference model of the tests
 * (oracle_watchdog.h): SPEC §6.7, §6.8 and §8.1 from S(t) read through the register API.
 */
#include "oracle_watchdog.h"

#include <string.h>

void oracle_wd_init(oracle_wd_t *o, const lfc_switch_cfg_t *cfg) {
  memset(o, 0, sizeof *o);
  o->cfg = *cfg;
  o->r_pt = tu_reg_idx("pause_timer");
  o->r_st = tu_reg_idx("wd_storm");
  o->r_cnt = tu_reg_idx("wd_cnt");
  o->r_rc = tu_reg_idx("wd_rcnt");
  o->r_qp = tu_reg_idx("qpkts");
}

void oracle_wd_begin(oracle_wd_t *o, const tu_t *t) {
  for (uint32_t p = 0; p < ORACLE_WD_PORTS; p++) {
    for (uint32_t k = 0; k < ORACLE_WD_CLASSES; k++) {
      o->pt[p][k] = lfc_switch_reg(t->sw, o->r_pt, p, k);
      o->st[p][k] = lfc_switch_reg(t->sw, o->r_st, p, k);
      o->cnt[p][k] = lfc_switch_reg(t->sw, o->r_cnt, p, k);
      o->rc[p][k] = lfc_switch_reg(t->sw, o->r_rc, p, k);
      o->qp[p][k] = lfc_switch_reg(t->sw, o->r_qp, p, k);
    }
  }
}

void oracle_wd_check_step(oracle_wd_t *o, const tu_t *t, uint64_t cyc,
                          const lfc_word_t in[ORACLE_WD_PORTS]) {
  const lfc_switch_cfg_t c = o->cfg;
  const lfc_wd_action_t action = c.wd_action;
  for (uint32_t p = 0; p < ORACLE_WD_PORTS; p++) {
    const lfc_word_t *w = &t->last_out[p];
    if (w->kind == LFC_DATA && w->sop) {
      uint32_t k = w->cls;
      bool ok = action == LFC_WD_DROP ? (o->st[p][k] == 0 && o->pt[p][k] == 0)
                                      : (o->st[p][k] != 0 || o->pt[p][k] == 0);
      if (!ok) {
        fail_msg("cycle %llu: port %u class %u started a packet with pause_timer %llu, "
                 "wd_storm %llu",
                 (unsigned long long)cyc, p, k, (unsigned long long)o->pt[p][k],
                 (unsigned long long)o->st[p][k]);
      }
    }
    for (uint32_t k = 0; k < ORACLE_WD_CLASSES; k++) {
      const uint64_t pt = o->pt[p][k], st = o->st[p][k], cnt = o->cnt[p][k],
                     rc = o->rc[p][k], qp = o->qp[p][k];
      bool frame = in[p].kind == LFC_PFC && ((in[p].pfc_en >> k) & 1u);
      bool frame_pause = frame && in[p].pfc_time[k] > 0;
      uint64_t ept = frame ? in[p].pfc_time[k] : (pt > 0 ? pt - 1 : 0);
      bool paused = pt > 0;
      uint64_t est = st, ecnt = cnt, erc = rc;
      int ev = 0; /* 1 trip, 2 restore */
      if (!st) {
        ecnt = paused ? (cnt + 1 < c.wd_detect ? cnt + 1 : c.wd_detect) : 0;
        if (paused && cnt + 1 >= c.wd_detect) {
          est = 1;
          erc = 0;
          ev = 1;
        }
      } else if (frame_pause) {
        erc = 0;
      } else {
        erc = rc + 1 < c.wd_restore ? rc + 1 : c.wd_restore;
        if (rc + 1 >= c.wd_restore) {
          est = 0;
          ecnt = 0;
          ev = 2;
        }
      }
      uint64_t apt = lfc_switch_reg(t->sw, o->r_pt, p, k),
               ast = lfc_switch_reg(t->sw, o->r_st, p, k),
               acnt = lfc_switch_reg(t->sw, o->r_cnt, p, k),
               arc = lfc_switch_reg(t->sw, o->r_rc, p, k);
      if (apt != ept || ast != est || acnt != ecnt || arc != erc) {
        fail_msg("cycle %llu queue (%u,%u): pause_timer/wd_storm/wd_cnt/wd_rcnt = "
                 "%llu/%llu/%llu/%llu, SPEC gives %llu/%llu/%llu/%llu (from %llu/%llu/%llu/%llu, "
                 "frame %d time %u)",
                 (unsigned long long)cyc, p, k, (unsigned long long)apt,
                 (unsigned long long)ast, (unsigned long long)acnt, (unsigned long long)arc,
                 (unsigned long long)ept, (unsigned long long)est, (unsigned long long)ecnt,
                 (unsigned long long)erc, (unsigned long long)pt, (unsigned long long)st,
                 (unsigned long long)cnt, (unsigned long long)rc, frame,
                 frame ? in[p].pfc_time[k] : 0);
      }
      size_t n_trip = 0, n_rest = 0, n_disc = 0;
      for (size_t i = t->nev; i-- > 0 && t->ev[i].cycle == cyc;) {
        const lfc_event_t *e = &t->ev[i].ev;
        if (e->port != p || e->cls != k) continue;
        n_trip += e->kind == LFC_EV_WD_TRIP;
        n_rest += e->kind == LFC_EV_WD_RESTORE;
        n_disc += e->kind == LFC_EV_DROP && e->cause == LFC_DROP_WATCHDOG &&
                  !(in[p].kind == LFC_DATA && in[p].sop && in[p].tag == e->tag);
      }
      assert_int_equal(n_trip, ev == 1);
      assert_int_equal(n_rest, ev == 2);
      size_t edisc = action == LFC_WD_DROP && st && qp > 0;
      if (n_disc != edisc) {
        fail_msg("cycle %llu queue (%u,%u): %zu watchdog discards, SPEC gives %zu (storm %llu, "
                 "qpkts %llu)",
                 (unsigned long long)cyc, p, k, n_disc, edisc, (unsigned long long)st,
                 (unsigned long long)qp);
      }
      o->trips += ev == 1;
      o->restores += ev == 2;
      o->discards += n_disc;
    }
  }
}
