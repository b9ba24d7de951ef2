/*
 * tb_cov.c - functional coverage of the SPEC's events, counted per run and written as JSON.
 *
 * Counted from the switch's link words and the model's events (what both sides agree on), with
 * a few register reads of S(t) where the words do not tell (ABR at an FCP, hi_sent). The
 * regression (tb/scripts/regress.sh) adds up the JSON files of all runs and fails if a point
 * was never hit.
 */
#include <inttypes.h>
#include <string.h>

#include "tb.h"

static const char *const NAMES[COV_COUNT] = {
    [COV_CREDIT_WRAP] = "credit_wrap",
    [COV_SEND_RULE_EXACT] = "send_rule_exact",
    [COV_CREDIT_BLOCKED] = "credit_blocked",
    [COV_FCP_REPAIR] = "fcp_repair",
    [COV_FCP_RX_BAD] = "fcp_rx_bad",
    [COV_XOFF] = "xoff",
    [COV_XON] = "xon",
    [COV_PFC_REFRESH] = "pfc_refresh",
    [COV_QUANTA_EXPIRY] = "quanta_expiry",
    [COV_RESUME_QUANTA0] = "resume_quanta0",
    [COV_WD_TRIP] = "wd_trip",
    [COV_WD_RESTORE] = "wd_restore",
    [COV_ECN_MARK] = "ecn_mark",
    [COV_DROP_HEADROOM] = "drop_headroom",
    [COV_DROP_SHARED] = "drop_shared",
    [COV_DROP_WATCHDOG] = "drop_watchdog",
    [COV_DROP_CREDIT] = "drop_credit",
    [COV_DROP_VL15] = "drop_vl15",
    [COV_DROP_MALFORMED] = "drop_malformed",
    [COV_RX_MALFORMED] = "rx_malformed",
    [COV_VLARB_HIGH_LIMIT] = "vlarb_high_limit",
    [COV_VL15_TX] = "vl15_tx",
    [COV_HAIRPIN] = "hairpin",
    [COV_MIS_NO_CREDIT] = "mis_no_credit",
    [COV_MIS_GARBAGE] = "mis_garbage",
    [COV_MIS_PFC_STORM] = "mis_pfc_storm",
    [COV_MIS_OVERRUN] = "mis_overrun",
    [COV_MIS_START_PAUSED] = "mis_start_paused",
    [COV_MIS_FCP_STALE] = "mis_fcp_stale",
    [COV_MIS_FCP_WILD] = "mis_fcp_wild",
    [COV_MIS_PFC_GARBAGE] = "mis_pfc_garbage",
    [COV_MIS_PFC_ALL] = "mis_pfc_all",
    [COV_MIS_STORM_WD] = "mis_storm_wd",
    [COV_MIS_FRAMING] = "mis_framing",
};

const char *tb_cov_name(tb_cov_t c) { return (unsigned)c < COV_COUNT ? NAMES[c] : "?"; }

static int reg_abr = -1, reg_hi_sent = -1;

static int vlarb_limit_applies(const tb_t *tb) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  return c->mode == LFC_MODE_IB && c->vlarb_high_len > 0 && c->vlarb_high_limit != 255;
}

void tb_cov_pre(tb_t *tb, uint64_t cycle, const lfc_word_t *in) {
  (void)cycle;
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  if (c->mode != LFC_MODE_IB) return;
  if (reg_abr < 0) reg_abr = lfc_reg_find("abr");
  if (reg_hi_sent < 0) reg_hi_sent = lfc_reg_find("hi_sent");
  for (unsigned p = 0; p < c->ports; p++) {
    const lfc_word_t *w = &in[p];
    if (w->kind == LFC_FCP && w->fc_op <= 1 && w->fc_vl < c->classes && reg_abr >= 0 &&
        lfc_switch_reg(tb->sw, (size_t)reg_abr, p, w->fc_vl) != w->fc_fctbs)
      tb->cov[COV_FCP_REPAIR]++;
    if (vlarb_limit_applies(tb) && reg_hi_sent >= 0)
      tb->hi_sent_pre[p] = (uint32_t)lfc_switch_reg(tb->sw, (size_t)reg_hi_sent, p, 0);
  }
}

void tb_cov_post(tb_t *tb, uint64_t cycle, const lfc_word_t *in, const lfc_word_t *out,
                 const lfc_event_t *ev, size_t nev) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  for (size_t i = 0; i < nev; i++) {
    switch (ev[i].kind) {
      case LFC_EV_DROP: {
        static const tb_cov_t by_cause[LFC_DROP_CAUSES] = {
            [LFC_DROP_HEADROOM] = COV_DROP_HEADROOM, [LFC_DROP_SHARED] = COV_DROP_SHARED,
            [LFC_DROP_WATCHDOG] = COV_DROP_WATCHDOG, [LFC_DROP_CREDIT] = COV_DROP_CREDIT,
            [LFC_DROP_VL15] = COV_DROP_VL15,         [LFC_DROP_MALFORMED] = COV_DROP_MALFORMED};
        if (ev[i].cause < LFC_DROP_CAUSES) tb->cov[by_cause[ev[i].cause]]++;
        break;
      }
      case LFC_EV_ECN_MARK: tb->cov[COV_ECN_MARK]++; break;
      case LFC_EV_XOFF: tb->cov[COV_XOFF]++; break;
      case LFC_EV_XON: tb->cov[COV_XON]++; break;
      case LFC_EV_WD_TRIP: {
        tb->cov[COV_WD_TRIP]++;
        /* An endless pause storm must end in a watchdog trip (SPEC §6.8). */
        const tb_misbehave_cfg_t *m = &tb->cfg.mis;
        if (m->storm_port == (int32_t)ev[i].port && cycle >= m->storm_start &&
            cycle - m->storm_start < m->storm_cycles)
          tb->cov[COV_MIS_STORM_WD]++;
        break;
      }
      case LFC_EV_WD_RESTORE: tb->cov[COV_WD_RESTORE]++; break;
      case LFC_EV_RX_MALFORMED: tb->cov[COV_RX_MALFORMED]++; break;
      default: break;
    }
  }
  for (unsigned p = 0; p < c->ports; p++) {
    const lfc_word_t *o = &out[p], *w = &in[p];
    unsigned k = c->speed_div[p];
    tb->tx_words[o->kind & 3u]++;
    /* Outputs (decided from S(t), before this cycle's inputs act). */
    if (o->kind == LFC_DATA && o->sop) {
      if (TB_TAG_SRC(o->tag) == p) tb->cov[COV_HAIRPIN]++;
      if (c->mode == LFC_MODE_IB && o->cls == LFC_VL15) tb->cov[COV_VL15_TX]++;
      if (c->mode == LFC_MODE_IB && o->cls < c->classes) {
        uint32_t cr = (tb->tb_fctbs[p][o->cls] + o->nblk) & 4095u;
        if (((tb->tb_fccl[p][o->cls] - cr) & 4095u) == 0) tb->cov[COV_SEND_RULE_EXACT]++;
        tb->tb_fctbs[p][o->cls] = cr;
        if (vlarb_limit_applies(tb) && reg_hi_sent >= 0) {
          uint32_t lim = 64u * c->vlarb_high_limit;
          if (lim < 1) lim = 1;
          if (tb->hi_sent_pre[p] >= lim &&
              lfc_switch_reg(tb->sw, (size_t)reg_hi_sent, p, 0) == 0)
            tb->cov[COV_VLARB_HIGH_LIMIT]++;
        }
      }
    }
    if (o->kind == LFC_FCP && o->fc_vl < LFC_MAX_CLASSES) {
      if (tb->fcp_seen_out[p][o->fc_vl] && o->fc_fctbs < tb->last_fcp_fctbs_out[p][o->fc_vl])
        tb->cov[COV_CREDIT_WRAP]++;
      tb->fcp_seen_out[p][o->fc_vl] = 1;
      tb->last_fcp_fctbs_out[p][o->fc_vl] = o->fc_fctbs;
    }
    if (o->kind == LFC_PFC) {
      for (unsigned i = 0; i < 8; i++) {
        if (!(o->pfc_en & (1u << i))) continue;
        if (o->pfc_time[i] > 0) {
          if (tb->pfc_out_xoff[p][i]) tb->cov[COV_PFC_REFRESH]++;
          tb->pfc_out_xoff[p][i] = 1;
        } else {
          tb->pfc_out_xoff[p][i] = 0;
        }
      }
    }
    /* Inputs. */
    if (c->mode == LFC_MODE_IB && w->kind == LFC_FCP) {
      if (w->fc_op > 1 || w->fc_vl >= c->classes) {
        tb->cov[COV_FCP_RX_BAD]++;
      } else if (tb->stim[p].bad_fcp_at == cycle + 1) {
        /* A stale or wild FCP injected by the misbehaving partner: its FCTBS going down is not
           the partner's 12-bit counter wrapping, and it is not the partner's last value. */
        tb->tb_fccl[p][w->fc_vl] = w->fc_fccl;
      } else {
        tb->tb_fccl[p][w->fc_vl] = w->fc_fccl;
        if (tb->fcp_seen_in[p][w->fc_vl] && w->fc_fctbs < tb->last_fcp_fctbs_in[p][w->fc_vl])
          tb->cov[COV_CREDIT_WRAP]++;
        tb->fcp_seen_in[p][w->fc_vl] = 1;
        tb->last_fcp_fctbs_in[p][w->fc_vl] = w->fc_fctbs;
      }
    }
    if (c->mode == LFC_MODE_PFC) {
      for (unsigned i = 0; i < c->classes && i < 8; i++) {
        int frame = w->kind == LFC_PFC && (w->pfc_en & (1u << i));
        if (frame) {
          uint64_t q = w->pfc_time[i];
          if (q == 0 && tb->pause_active[p][i] && tb->pause_until[p][i] > cycle)
            tb->cov[COV_RESUME_QUANTA0]++;
          tb->pause_active[p][i] = q > 0;
          tb->pause_until[p][i] = cycle + q * k;
        } else if (tb->pause_active[p][i] && tb->pause_until[p][i] == cycle) {
          tb->cov[COV_QUANTA_EXPIRY]++;
          tb->pause_active[p][i] = 0;
        }
      }
    }
  }
}

void tb_cov_end(tb_t *tb) {
  for (unsigned p = 0; p < tb->cfg.sw.ports; p++) {
    const lfc_port_stats_t *st = lfc_switch_stats(tb->sw, p);
    for (unsigned c = 0; c < LFC_MAX_CLASSES; c++)
      tb->cov[COV_CREDIT_BLOCKED] += st->cls[c].credit_blocked_cycles;
  }
}

int tb_cov_write(const tb_t *tb, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "{\n  \"config\": \"%s\",\n  \"sim\": \"%s\",\n  \"seed\": %u,\n  \"cycles\": %" PRIu64
          ",\n  \"coverage\": {\n", tb->cfg.name, tb->sim, tb->seed, tb->cycle);
  for (unsigned i = 0; i < COV_COUNT; i++)
    fprintf(f, "    \"%s\": %" PRIu64 "%s\n", NAMES[i], tb->cov[i], i + 1 < COV_COUNT ? "," : "");
  fprintf(f, "  }\n}\n");
  return fclose(f) == 0 ? 0 : -1;
}
