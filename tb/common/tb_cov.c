/*
 * tb_cov.c - functional coverage of the SPEC's events, counted per run and written as JSON.
 *
 * Counted from the switch's link words and the model's events (what both sides agree on), with
 * a few register reads of S(t) where the words do not tell (ABR at an FCP, hi_sent). The
 * regression (tb/scripts/regress.sh) adds up the JSON files of all runs and fails if a point
 * was never hit.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tb.h"

#define TB_COV_NAME(e, name) [e] = name,
static const char *const NAMES[COV_COUNT] = {TB_COV_POINTS(TB_COV_NAME)};
#undef TB_COV_NAME

const char *tb_cov_name(tb_cov_t c) { return (unsigned)c < COV_COUNT ? NAMES[c] : "?"; }

static int reg_abr = -1, reg_hi_sent = -1;

/* SPEC §5.1, §5.3: 12-bit credit counters (mod 4096) and the 2048-block window of the send
   rule; the edges of the rule's (fccl - CR) mod 4096 <= 2048. */
#define CREDIT_MASK 4095u
#define CREDIT_WINDOW 2048u
#define SEND_EDGE_SHORT CREDIT_MASK            /* one block short of the credit: held */
#define SEND_EDGE_BEYOND (CREDIT_WINDOW + 1u)  /* one block beyond the window: held */

/* The registers the edge points read from S(t) (SPEC §13.1 names), found once. */
static struct {
  int found;
  int tx_rem, qlen, qpkts, fctbs, fccl, shared_used, pg_shared, pg_hdrm, xoff, pause_timer,
      wd_storm, wd_cnt, wd_rcnt, rx_rem, pg_min;
} R;

static void regs_find(void) {
  if (R.found) return;
  R.tx_rem = lfc_reg_find("tx_rem");
  R.qlen = lfc_reg_find("qlen");
  R.qpkts = lfc_reg_find("qpkts");
  R.fctbs = lfc_reg_find("fctbs");
  R.fccl = lfc_reg_find("fccl");
  R.shared_used = lfc_reg_find("shared_used");
  R.pg_shared = lfc_reg_find("pg_shared");
  R.pg_hdrm = lfc_reg_find("pg_hdrm");
  R.xoff = lfc_reg_find("xoff");
  R.pause_timer = lfc_reg_find("pause_timer");
  R.wd_storm = lfc_reg_find("wd_storm");
  R.wd_cnt = lfc_reg_find("wd_cnt");
  R.wd_rcnt = lfc_reg_find("wd_rcnt");
  R.rx_rem = lfc_reg_find("rx_rem");
  R.pg_min = lfc_reg_find("pg_min");
  R.found = 1;
}

/* A register of S(t); a name the model does not have reads 0 (lfc_reg_find gave -1). */
static uint64_t reg(const tb_t *tb, int r, unsigned p, unsigned cls) {
  return r < 0 ? 0 : lfc_switch_reg(tb->sw, (size_t)r, p, cls);
}

uint32_t tb_head_nblk(const tb_t *tb, unsigned p, unsigned cls) {
  regs_find();
  uint64_t pkts = reg(tb, R.qpkts, p, cls);
  if (pkts == 0) return 0;
  uint64_t blocks = reg(tb, R.qlen, p, cls);
  if (pkts == 1) return (uint32_t)blocks;
  const tb_traffic_cfg_t *t = &tb->cfg.traffic;
  if (t->min_nblk == t->max_nblk && blocks == pkts * t->min_nblk) return t->min_nblk;
  return 0;
}

/* SPEC §6.2: the shared-use threshold T of S(t), computed here from the configuration and
   shared_used, apart from the model's own rule. */
static uint32_t threshold(const tb_t *tb) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  if (!c->dynamic_th) return c->xoff_th;
  uint64_t used = reg(tb, R.shared_used, 0, 0);
  uint64_t free_blocks = used < c->shared_blocks ? c->shared_blocks - used : 0;
  uint64_t t = c->alpha_log2 >= 0 ? free_blocks << c->alpha_log2 : free_blocks >> -c->alpha_log2;
  const uint64_t max20 = (1u << 20) - 1u;
  return (uint32_t)(t > max20 ? max20 : t);
}

/* The edges of the comparisons of SPEC §5.3 (the send rule's false sides), §6.5, §6.7 and §6.8
   in S(t), both sides of each where the other is not an event of its own (tb_cov_points.h). */
static void edges_pre(tb_t *tb, const lfc_word_t *in) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  regs_find();
  if (c->mode == LFC_MODE_IB) {
    for (unsigned p = 0; p < c->ports; p++) {
      if (reg(tb, R.tx_rem, p, 0) != 0) continue; /* busy: no decision on the rule */
      for (unsigned v = 0; v < c->classes; v++) {
        uint32_t n = tb_head_nblk(tb, p, v);
        if (n == 0) continue;
        uint32_t cr = (uint32_t)(reg(tb, R.fctbs, p, v) + n) & CREDIT_MASK;
        uint32_t d = ((uint32_t)reg(tb, R.fccl, p, v) - cr) & CREDIT_MASK;
        if (d == SEND_EDGE_SHORT) tb->cov[COV_SEND_RULE_SHORT]++;
        if (d == SEND_EDGE_BEYOND) tb->cov[COV_SEND_RULE_BEYOND]++;
      }
    }
    return;
  }
  const uint32_t T = threshold(tb);
  /* §6.4: the admission compares of a legal first block arriving now (§7.2; the RTL routes by
     identity), decided in step E from S(t). */
  for (unsigned p = 0; p < c->ports; p++) {
    const lfc_word_t *w = &in[p];
    if (w->kind != LFC_DATA || !w->sop || w->cls >= c->classes || w->nblk == 0 ||
        w->nblk > c->mtu_blocks || w->dst >= c->ports || reg(tb, R.rx_rem, p, 0) != 0)
      continue;
    uint64_t pg_min = reg(tb, R.pg_min, p, w->cls);
    uint64_t room = c->reserve_blocks > pg_min ? c->reserve_blocks - pg_min : 0;
    uint64_t rest = w->nblk - (w->nblk < room ? w->nblk : room);
    if (rest == 0) continue;
    uint64_t sh = reg(tb, R.pg_shared, p, w->cls);
    if (sh + rest == T) tb->cov[COV_ADM_SHARED_EDGE]++;
    if (sh + rest == (uint64_t)T + 1) tb->cov[COV_ADM_SHARED_BEYOND]++;
    if (sh + rest > T && ((c->lossless_mask >> w->cls) & 1u)) {
      uint64_t hd = reg(tb, R.pg_hdrm, p, w->cls);
      if (hd + rest == c->headroom_blocks) tb->cov[COV_ADM_HDRM_EDGE]++;
      if (hd + rest == (uint64_t)c->headroom_blocks + 1) tb->cov[COV_ADM_HDRM_BEYOND]++;
    }
  }
  for (unsigned p = 0; p < c->ports; p++) {
    for (unsigned k = 0; k < c->classes && k < 8; k++) {
      /* §6.5 */
      if ((c->lossless_mask >> k) & 1u) {
        uint64_t sh = reg(tb, R.pg_shared, p, k);
        if (sh > 0 && reg(tb, R.pg_hdrm, p, k) == 0) {
          int edge = 0;
          if (reg(tb, R.xoff, p, k) == 0) {
            if (sh == T) tb->cov[COV_XOFF_EDGE]++, edge = 1;
            if (sh + 1 == T) tb->cov[COV_XOFF_SHORT]++, edge = 1;
          } else {
            if (sh + c->xon_offset == T) tb->cov[COV_XON_EDGE]++, edge = 1;
            if (sh + c->xon_offset == (uint64_t)T + 1) tb->cov[COV_XON_SHORT]++, edge = 1;
          }
          if (edge && c->dynamic_th) tb->cov[COV_DYN_TH_EDGE]++;
        }
      }
      /* §6.7 */
      uint32_t pt = (uint32_t)reg(tb, R.pause_timer, p, k);
      tb->pause_timer_prev[p][k] = tb->pause_timer[p][k];
      tb->pause_timer[p][k] = pt;
      int storm = c->wd_enable && reg(tb, R.wd_storm, p, k) != 0;
      if (pt == 1 && !storm && reg(tb, R.qpkts, p, k) > 0 && reg(tb, R.tx_rem, p, 0) == 0)
        tb->cov[COV_PAUSE_LAST]++;
      /* §6.8 */
      if (!c->wd_enable) continue;
      if (!storm) {
        if (pt > 0 && reg(tb, R.wd_cnt, p, k) + 2 == c->wd_detect)
          tb->cov[COV_WD_DETECT_SHORT]++;
      } else {
        const lfc_word_t *w = &in[p];
        int pause_rx = w->kind == LFC_PFC && ((w->pfc_en >> k) & 1u) && w->pfc_time[k] > 0;
        if (!pause_rx && reg(tb, R.wd_rcnt, p, k) + 2 == c->wd_restore)
          tb->cov[COV_WD_RESTORE_SHORT]++;
      }
    }
  }
}

static int vlarb_limit_applies(const tb_t *tb) {
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  return c->mode == LFC_MODE_IB && c->vlarb_high_len > 0 && c->vlarb_high_limit != 255;
}

void tb_cov_pre(tb_t *tb, uint64_t cycle, const lfc_word_t *in) {
  (void)cycle;
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  edges_pre(tb, in);
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
      /* §6.7: started in the first cycle its pause timer is 0 after 1 in the cycle before */
      if (c->mode == LFC_MODE_PFC && o->cls < 8 && tb->pause_timer[p][o->cls] == 0 &&
          tb->pause_timer_prev[p][o->cls] == 1)
        tb->cov[COV_PAUSE_EXPIRY_START]++;
      if (c->mode == LFC_MODE_IB && o->cls == LFC_VL15) tb->cov[COV_VL15_TX]++;
      if (c->mode == LFC_MODE_IB && o->cls < c->classes) {
        uint32_t cr = (tb->tb_fctbs[p][o->cls] + o->nblk) & CREDIT_MASK;
        uint32_t d = (tb->tb_fccl[p][o->cls] - cr) & CREDIT_MASK;
        if (d == 0) tb->cov[COV_SEND_RULE_EXACT]++;
        if (d == CREDIT_WINDOW) tb->cov[COV_SEND_RULE_WINDOW]++;
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

int tb_write_file(const char *path, int (*fill)(FILE *, const void *), const void *arg) {
  /* A device or pipe (/dev/stdout, /dev/full) cannot be replaced by a rename: written in place. */
  struct stat st;
  int in_place = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
  char tmp[4096];
  if (!in_place) {
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp) {
      errno = ENAMETOOLONG;
      return -1;
    }
  }
  const char *name = in_place ? path : tmp;
  FILE *f = fopen(name, "w");
  if (!f) return -1;
  errno = 0;
  int rc = fill(f, arg);
  if (fflush(f) != 0 || ferror(f)) rc = -1;
  int e = errno;
  if (fclose(f) != 0 && rc == 0) rc = -1, e = errno;
  if (rc == 0 && !in_place && rename(tmp, path) != 0) rc = -1, e = errno;
  if (rc != 0 && !in_place) unlink(tmp);
  errno = rc && !e ? EIO : e;
  return rc;
}

static int cov_fill(FILE *f, const void *arg) {
  const tb_t *tb = arg;
  if (fprintf(f, "{\n  \"config\": \"%s\",\n  \"sim\": \"%s\",\n  \"seed\": %u,\n",
              tb->cfg.name, tb->sim, tb->seed) < 0 ||
      fprintf(f, "  \"cycles\": %" PRIu64 ",\n  \"coverage\": {\n", tb->cycle) < 0)
    return -1;
  for (unsigned i = 0; i < COV_COUNT; i++)
    if (fprintf(f, "    \"%s\": %" PRIu64 "%s\n", NAMES[i], tb->cov[i],
                i + 1 < COV_COUNT ? "," : "") < 0)
      return -1;
  return fprintf(f, "  }\n}\n") < 0 ? -1 : 0;
}

int tb_cov_write(const tb_t *tb, const char *path) { return tb_write_file(path, cov_fill, tb); }
