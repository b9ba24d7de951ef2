/*
 * tb_score.c - the scoreboard of the co-simulation.
 *
 * It watches the switch's link words, not the model's internals: every packet a source created is
 * offered to the switch (its first block on a switch input), then either dropped in that cycle
 * (a DROP event with its tag) or accepted; an accepted packet later either leaves the switch once,
 * on the port its dst names (identity route, SPEC §7.1), with the fields it came in with (ECN
 * possibly marked CE in the cycle the mark event says, SPEC §9), in order per (source,
 * destination, class), or is discarded by the watchdog (SPEC §6.8). The output framing of SPEC
 * §7.4 (contiguous slots, sop/eop, the same descriptor on every block) is checked too.
 * At the end, the packets accepted and neither delivered nor discarded must be the packets the
 * model holds (conservation: a packet lost silently is caught even in a run that does not drain).
 * The model and the RTL are compared word for word elsewhere; this checks both against the SPEC.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tb.h"

enum { ST_NONE = 0, ST_CREATED, ST_ACCEPTED, ST_DROPPED, ST_DELIVERED };

struct tb_score_rec {
  uint64_t arr; /* arrival index at its ingress port */
  uint16_t dst;
  uint8_t cls, nblk, ecn, pad, state, cause;
};

static const char *state_name(unsigned s) {
  static const char *const n[] = {"unknown", "created", "accepted", "dropped", "delivered"};
  return s < 5 ? n[s] : "?";
}

int tb_score_init(tb_t *tb) {
  tb_score_t *s = &tb->score;
  memset(s, 0, sizeof *s);
  unsigned n = tb->cfg.sw.ports;
  s->last_arr = calloc((size_t)n * n * LFC_MAX_CLASSES, sizeof *s->last_arr);
  return s->last_arr ? 0 : -1;
}

void tb_score_free(tb_t *tb) {
  tb_score_t *s = &tb->score;
  for (unsigned p = 0; p < TB_MAX_PORTS; p++)
    for (unsigned i = 0; i < 2; i++) free(s->src[p][i].rec);
  free(s->last_arr);
  memset(s, 0, sizeof *s);
}

static tb_score_rec_t *lookup(tb_t *tb, uint32_t tag) {
  unsigned src = TB_TAG_SRC(tag), inj = TB_TAG_INJ(tag);
  uint32_t seq = TB_TAG_SEQ(tag);
  if (src >= tb->cfg.sw.ports) return NULL;
  tb_score_src_t *ss = &tb->score.src[src][inj];
  if (seq >= ss->count || ss->rec[seq].state == ST_NONE) return NULL;
  return &ss->rec[seq];
}

int tb_score_ecn(const tb_t *tb, uint32_t tag) {
  unsigned src = TB_TAG_SRC(tag), inj = TB_TAG_INJ(tag);
  uint32_t seq = TB_TAG_SEQ(tag);
  if (src >= tb->cfg.sw.ports) return -1;
  const tb_score_src_t *ss = &tb->score.src[src][inj];
  if (seq >= ss->count || ss->rec[seq].state == ST_NONE) return -1;
  return ss->rec[seq].ecn;
}

void tb_score_created(tb_t *tb, unsigned src, const lfc_pkt_t *pkt, uint32_t tag) {
  tb_score_src_t *ss = &tb->score.src[src][TB_TAG_INJ(tag)];
  uint32_t seq = TB_TAG_SEQ(tag);
  if (seq >= ss->cap) {
    uint32_t cap = ss->cap ? ss->cap * 2 : 4096;
    while (cap <= seq) cap *= 2;
    tb_score_rec_t *r = realloc(ss->rec, (size_t)cap * sizeof *r);
    if (!r) abort();
    memset(r + ss->cap, 0, (size_t)(cap - ss->cap) * sizeof *r);
    ss->rec = r;
    ss->cap = cap;
  }
  if (seq >= ss->count) ss->count = seq + 1;
  tb_score_rec_t *r = &ss->rec[seq];
  r->state = ST_CREATED;
  r->dst = pkt->dst;
  r->cls = pkt->cls;
  r->nblk = pkt->nblk;
  r->ecn = pkt->ecn;
  r->pad = pkt->pad;
  tb->score.created++;
}

static int err(tb_err_t *e, unsigned port, const char *signal, const char *exp, const char *act) {
  e->port = port;
  snprintf(e->signal, sizeof e->signal, "scoreboard.%s", signal);
  snprintf(e->expected, sizeof e->expected, "%s", exp);
  snprintf(e->actual, sizeof e->actual, "%s", act);
  return -1;
}

/* err() with the word w as the actual value: formatted only when there is an error, since the
   checks run for every packet sent. */
static int werr(tb_err_t *e, unsigned port, const char *signal, const char *exp,
                const lfc_word_t *w) {
  char a[160], t[64];
  lfc_word_format(w, a, sizeof a);
  if (w->kind == LFC_DATA)
    snprintf(a + strlen(a), sizeof a - strlen(a), " (tag: %s)", tb_tag_name(w->tag, t, sizeof t));
  return err(e, port, signal, exp, a);
}

void tb_score_print(const tb_score_t *s) {
  uint64_t drops = 0;
  for (unsigned i = 0; i < LFC_DROP_CAUSES; i++) drops += s->dropped[i];
  printf("scoreboard: created=%" PRIu64 " offered=%" PRIu64 " accepted=%" PRIu64
         " delivered=%" PRIu64 " (%" PRIu64 " blocks) dropped=%" PRIu64,
         s->created, s->offered, s->accepted, s->delivered, s->delivered_blocks, drops);
  for (unsigned i = 0; i < LFC_DROP_CAUSES; i++)
    if (s->dropped[i])
      printf(" %s=%" PRIu64, lfc_drop_cause_name((lfc_drop_cause_t)i), s->dropped[i]);
}

static int fields_differ(const tb_score_rec_t *r, const lfc_word_t *w, char *what, size_t len) {
  if (r->cls != w->cls || r->nblk != w->nblk || r->dst != w->dst || r->pad != w->pad) {
    snprintf(what, len, "cls=%u nblk=%u dst=%u pad=%u", r->cls, r->nblk, r->dst, r->pad);
    return 1;
  }
  return 0;
}

int tb_score_fields(tb_t *tb, const lfc_word_t *w, char *what, size_t len) {
  const tb_score_rec_t *r = lookup(tb, w->tag);
  if (!r) {
    snprintf(what, len, "a tag a source created");
    return -1;
  }
  return fields_differ(r, w, what, len);
}

int tb_score_cycle(tb_t *tb, uint64_t cycle, const lfc_word_t *in, const lfc_word_t *out,
                   const lfc_event_t *ev, size_t nev, tb_err_t *e) {
  tb_score_t *s = &tb->score;
  const lfc_switch_cfg_t *c = &tb->cfg.sw;
  unsigned ports = c->ports;
  uint8_t matched[256] = {0};
  char a[160], b[160], t[64];

  /* 1. Packets arriving: accepted unless a DROP event names them (SPEC §5.4, §6.4, §7.2). */
  for (unsigned p = 0; p < ports; p++) {
    const lfc_word_t *w = &in[p];
    if (w->kind != LFC_DATA) continue;
    if (s->rx_rem[p] > 0) {
      s->rx_rem[p]--;
      continue;
    }
    if (!w->sop) continue; /* a stray continuation: discarded, rx_malformed */
    s->offered++;
    tb_score_rec_t *r = lookup(tb, w->tag);
    if (!r) {
      snprintf(a, sizeof a, "tag=0x%08x (%s)", w->tag, tb_tag_name(w->tag, t, sizeof t));
      return err(e, p, "input_unknown_tag", "a tag the sources created", a);
    }
    if (r->state != ST_CREATED) {
      snprintf(a, sizeof a, "tag=0x%08x (%s) already %s", w->tag, tb_tag_name(w->tag, t, sizeof t),
               state_name(r->state));
      return err(e, p, "input_duplicate", "a packet offered once", a);
    }
    if (fields_differ(r, w, b, sizeof b)) {
      lfc_word_format(w, a, sizeof a);
      return err(e, p, "input_corrupted", b, a);
    }
    int dropped = 0;
    for (size_t i = 0; i < nev && i < sizeof matched; i++) {
      if (ev[i].kind == LFC_EV_DROP && ev[i].port == p && ev[i].tag == w->tag) {
        matched[i] = 1;
        r->state = ST_DROPPED;
        r->cause = ev[i].cause;
        if (ev[i].cause < LFC_DROP_CAUSES) s->dropped[ev[i].cause]++;
        dropped = 1;
        /* the words still to come: nblk - 1 - mrg (SPEC §2.1, §7.2) */
        s->rx_rem[p] = ev[i].cause == LFC_DROP_MALFORMED || w->nblk <= w->mrg
                           ? 0
                           : (uint8_t)(w->nblk - 1u - w->mrg);
        break;
      }
    }
    if (!dropped) {
      r->state = ST_ACCEPTED;
      r->arr = s->arrivals[p]++;
      s->accepted++;
      s->rx_rem[p] = w->nblk > w->mrg ? (uint8_t)(w->nblk - 1u - w->mrg) : 0;
    }
  }

  /* 2. Watchdog discards from egress queues (SPEC §6.8): packets that were accepted. */
  for (size_t i = 0; i < nev && i < sizeof matched; i++) {
    if (ev[i].kind != LFC_EV_DROP || matched[i]) continue;
    tb_score_rec_t *r = lookup(tb, ev[i].tag);
    snprintf(a, sizeof a, "drop cause=%s tag=0x%08x (%s) cls=%u (%s)",
             lfc_drop_cause_name((lfc_drop_cause_t)ev[i].cause), ev[i].tag,
             tb_tag_name(ev[i].tag, t, sizeof t), ev[i].cls,
             r ? state_name(r->state) : "unknown tag");
    if (ev[i].cause != LFC_DROP_WATCHDOG)
      return err(e, ev[i].port, "drop_without_arrival",
                 "an admission drop names the packet arriving on its port", a);
    if (!r || r->state != ST_ACCEPTED)
      return err(e, ev[i].port, "discard_not_queued", "a watchdog discard of a queued packet", a);
    r->state = ST_DROPPED;
    r->cause = LFC_DROP_WATCHDOG;
    s->dropped[LFC_DROP_WATCHDOG]++;
    s->discarded++;
  }

  /* 3. Packets leaving (SPEC §7.4): framing, destination, fields, once, in order. */
  for (unsigned q = 0; q < ports; q++) {
    const lfc_word_t *w = &out[q];
    unsigned k = c->speed_div[q];
    if (s->out_rem[q] > 0) {
      if (cycle % k != 0) {
        if (w->kind != LFC_IDLE) {
          lfc_word_format(w, a, sizeof a);
          return err(e, q, "tx_outside_slot", "IDLE between slots", a);
        }
        continue;
      }
      lfc_word_t want = s->out_cur[q];
      want.sop = 0;
      want.eop = s->out_rem[q] == 1;
      if (!lfc_word_equal(&want, w)) {
        lfc_word_format(&want, b, sizeof b);
        lfc_word_format(w, a, sizeof a);
        return err(e, q, "tx_continuation", b, a);
      }
      s->out_rem[q]--;
      continue;
    }
    /* Progress: a port that sends nothing but flow-control words, slot after slot, while it
       holds packets starves them (SPEC §5.2 step 3 puts FCP/PFC words before data). */
    if (cycle % k == 0) {
      if (w->kind == LFC_FCP || w->kind == LFC_PFC)
        s->fc_streak[q]++;
      else
        s->fc_streak[q] = 0;
      uint32_t lim = tb->cfg.fc_streak_limit;
      if (lim && s->fc_streak[q] >= lim && s->fc_streak[q] % lim == 0) {
        static int qpkts_reg = -2;
        if (qpkts_reg == -2) qpkts_reg = lfc_reg_find("qpkts");
        uint64_t held = 0;
        for (unsigned cl = 0; cl < LFC_MAX_CLASSES && qpkts_reg >= 0; cl++)
          held += lfc_switch_reg(tb->sw, (size_t)qpkts_reg, q, cl);
        if (held) {
          snprintf(a, sizeof a, "%u slots in a row of FCP/PFC words, %" PRIu64
                   " packets queued (last: %s)", s->fc_streak[q], held,
                   lfc_word_format(w, b, sizeof b));
          snprintf(b, sizeof b, "a data block within %u slots while packets are queued "
                   "([run] fc_streak_limit)", lim);
          return err(e, q, "fc_livelock", b, a);
        }
      }
    }
    if (w->kind != LFC_DATA) continue;
    if (!w->sop) return werr(e, q, "tx_stray_block", "a first block (sop)", w);
    if (cycle % k != 0) return werr(e, q, "tx_outside_slot", "a packet starting in a slot", w);
    tb_score_rec_t *r = lookup(tb, w->tag);
    if (!r) return werr(e, q, "tx_unknown_tag", "a tag that entered the switch", w);
    if (r->state != ST_ACCEPTED) {
      snprintf(b, sizeof b, "an accepted packet, not one %s", state_name(r->state));
      return werr(e, q, r->state == ST_DELIVERED ? "tx_duplicate" : "tx_not_accepted", b, w);
    }
    if (r->dst != q) {
      snprintf(b, sizeof b, "egress port %u (dst)", r->dst);
      return werr(e, q, "tx_wrong_port", b, w);
    }
    if (fields_differ(r, w, b, sizeof b)) return werr(e, q, "tx_corrupted", b, w);
    int marked = 0;
    for (size_t i = 0; i < nev; i++)
      if (ev[i].kind == LFC_EV_ECN_MARK && ev[i].port == q) marked = 1;
    uint8_t want_ecn = marked ? LFC_ECN_CE : r->ecn;
    if (marked && !(r->ecn == LFC_ECN_ECT0 || r->ecn == LFC_ECN_ECT1))
      return werr(e, q, "ecn_mark_not_ect", "marks only of ECT(0)/ECT(1) packets", w);
    if (w->ecn != want_ecn) {
      snprintf(b, sizeof b, "ecn=%u (sent %u%s)", want_ecn, r->ecn, marked ? ", marked" : "");
      return werr(e, q, "tx_ecn", b, w);
    }
    /* SPEC §2.1, §2.4: mrg only on packets of two blocks or more, and only from a port that
       charges line time; the packet then takes nblk - 1 words. */
    if (w->mrg && (w->nblk < 2 || !c->wire_time))
      return werr(e, q, "tx_mrg", "mrg only with nblk >= 2 and wire_time = 1", w);
    if (w->eop != (w->nblk - w->mrg == 1))
      return werr(e, q, "tx_eop", "eop on the last word only", w);
    unsigned src = TB_TAG_SRC(w->tag);
    uint64_t *last = &s->last_arr[((size_t)src * ports + q) * LFC_MAX_CLASSES + (w->cls & 15u)];
    if (r->arr + 1 <= *last) {
      snprintf(b, sizeof b, "arrival index > %" PRIu64 " (in order per src,dst,cls)", *last - 1);
      lfc_word_format(w, a, sizeof a);
      snprintf(a + strlen(a), sizeof a - strlen(a), " arrival index %" PRIu64, r->arr);
      return err(e, q, "tx_reordered", b, a);
    }
    *last = r->arr + 1;
    r->state = ST_DELIVERED;
    s->delivered++;
    s->delivered_blocks += w->nblk;
    s->out_rem[q] = w->nblk > w->mrg ? w->nblk - 1u - w->mrg : 0u;
    s->out_cur[q] = *w;
  }
  return 0;
}

int tb_score_end(tb_t *tb, tb_err_t *e) {
  const tb_score_t *s = &tb->score;
  char a[160], b[160];
  /* Conservation: an accepted packet that was neither delivered (its first block out) nor
     discarded is still in the switch, so the model must hold exactly that many: admitted and not
     yet dequeued (SPEC §7.2-§7.4, §4.1 B; lfc_switch_held). The lockstep only compares the RTL
     with the model, so a packet both lose would otherwise pass; the RTL's state is the
     model's, so one check covers both. */
  uint64_t inside = s->accepted - s->delivered - s->discarded;
  lfc_held_t h;
  uint64_t held = lfc_switch_held(tb->sw, &h);
  if (inside != held) {
    snprintf(b, sizeof b, "still-in-switch = packets the model holds: %" PRIu64 " (receiving %"
             PRIu64 ", pipeline %" PRIu64 ", queued %" PRIu64 ")", held, h.receiving, h.pipeline,
             h.queued);
    snprintf(a, sizeof a, "still-in-switch=%" PRIu64 " (accepted %" PRIu64 ", delivered %" PRIu64
             ", discarded %" PRIu64 ")", inside, s->accepted, s->delivered, s->discarded);
    return err(e, 0, "conservation", b, a);
  }
  if (tb->cfg.lossless) {
    uint64_t nic_drops = 0;
    unsigned worst = 0;
    for (unsigned p = 0; p < tb->cfg.sw.ports; p++) {
      const lfc_nic_stats_t *ns = lfc_nic_stats(tb->nic[p]);
      for (unsigned i = 0; i < LFC_DROP_CAUSES; i++) {
        if (ns->drop_pkts[i]) worst = p;
        nic_drops += ns->drop_pkts[i];
      }
    }
    if (s->dropped[LFC_DROP_CREDIT] || s->dropped[LFC_DROP_HEADROOM]) {
      snprintf(a, sizeof a, "credit drops %" PRIu64 ", headroom drops %" PRIu64,
               s->dropped[LFC_DROP_CREDIT], s->dropped[LFC_DROP_HEADROOM]);
      return err(e, 0, "lossless", "no CREDIT or HEADROOM drop in the switch (lossless = 1)", a);
    }
    if (nic_drops) {
      snprintf(a, sizeof a, "%" PRIu64 " packets dropped by link partners (e.g. port %u)",
               nic_drops, worst);
      return err(e, worst, "lossless_partner", "no drop at a link partner (lossless = 1)", a);
    }
  }
  return 0;
}
