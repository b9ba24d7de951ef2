/*
 * check_ib.c - the InfiniBand link monitor of lfc/check.h: credit state per VL and direction
 * from the FCPs and data packets seen on a link (IBA vol. 1 §7.9; SPEC §5).
 *
 * For data going A>B on VL v, side A's FCPs (sent A>B) carry its FCTBS, the blocks it has sent
 * on v; side B's FCPs (sent B>A) carry the FCCL, the limit up to which A may send. The monitor
 * counts the blocks it sees go A>B and checks:
 *   - each packet against the send rule of SPEC §5.3 with the last FCCL seen before it. The
 *     sender may not have had that FCCL yet when it started the packet, but FCCL never goes
 *     down (SPEC §5.4), so an FCCL newer than the sender's only allows more: a packet flagged
 *     was sent without credit whatever the delays between sender, receiver and the point of
 *     observation;
 *   - each FCTBS against the count (the sender's FCPs follow its data in order on the link);
 *   - each FCCL against the previous one (it moves forward by at most 2048: FCCL <= ABR + 2048
 *     and ABR never exceeds what the sender was allowed; it never goes back, except by as much
 *     as the sender's FCTBS fell behind the blocks seen, since the receiver sets ABR from it),
 *     and against the blocks sent (the
 *     receiver's ABR cannot exceed the blocks that went past the observation point before its
 *     FCP did, so FCCL - sent <= 2048 in unwrapped counts);
 *   - the time between FCPs of a VL and direction, VL15's rules, the MTU, and the decoders'
 *     verdict on every packet.
 * Counts are learnt from the first FCP of each VL and direction, or known to start at 0
 * (cfg.from_reset).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "check_internal.h"
#include "lfc/wire_ib_data.h"
#include "lfc/wire_ib_fcp.h"

#define VL_SHIFT 4u         /* LRH byte 0: VL in bits 7:4 */
#define VL15_MAD_BYTES 256u /* a MAD, the only payload of VL15 (IBA §13.4 [reading]) */
#define QP0 0u              /* the subnet management QP, VL15's only destination [reading] */
#define BITS_PER_BYTE 8u

static int64_t signed12(uint32_t d) {
  /* d in 0..4095 as a step in -2047..2048 (the half-space of SPEC §5.3). */
  return d > LFC_CREDIT_WINDOW ? (int64_t)d - (int64_t)LFC_CREDIT_MOD : (int64_t)d;
}

static uint32_t other(uint32_t dir) { return dir ^ 1u; }

/* Put FCCL on the base of the unwrapped sent count once both are known: FCCL is within 2048
 * of the blocks sent (above or below), so the nearest value is the right one. */
static void map_fccl(chk_ib_vl_t *s) {
  if (s->fccl_u_known || !s->sent_known || !s->fccl_known) return;
  s->fccl_u = s->sent_u + signed12((uint32_t)(s->fccl - s->fctbs) & LFC_CREDIT_MASK);
  s->fccl_u_known = true;
}

void chk_ib_init(lfc_check_t *c) {
  if (!c->cfg.from_reset) return;
  /* Every counter is 0 at link initialisation (SPEC §5.1): known from the first frame on. */
  for (uint32_t link = 0; link != c->cfg.links; link++) {
    for (uint32_t d = 0; d != LFC_CHECK_DIRS; d++) {
      for (uint32_t v = 0; v != LFC_IB_MAX_VLS; v++) {
        chk_ib_vl_t *s = &c->link[link].ib.vl[d][v];
        s->sent_known = s->fccl_known = s->fccl_u_known = true;
      }
    }
  }
}

static int malformed(lfc_check_t *c, uint32_t dir, uint32_t cls, const char *what,
                     const lfc_wire_error_t *e) {
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  chk_text(exp, "%s the decoder accepts", what);
  chk_text(obs, "%s: %s", lfc_wire_status_name(e->status), e->text);
  return chk_flag(c, dir, LFC_RULE_IB_MALFORMED, cls, exp, obs);
}

static int data_packet(lfc_check_t *c, chk_ib_link_t *l, uint32_t dir, const uint8_t *b,
                       size_t len) {
  int found = 0;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  lfc_ib_pkt_t p;
  lfc_wire_error_t e;
  const lfc_wire_status_t st = lfc_ib_pkt_decode(b, len, &p, &e);
  /* The VL and the blocks are those of the bytes sent, even when a CRC is bad: the sender
   * counted them (SPEC §7.2: the next FCP repairs what the receiver could not). */
  const uint32_t vl = len > 0 ? (uint32_t)(b[0] >> VL_SHIFT) : 0u;
  const uint32_t n = (uint32_t)((len + LFC_BLOCK_BYTES - 1u) / LFC_BLOCK_BYTES);
  if (st != LFC_WIRE_OK)
    found += malformed(c, dir, len > 0 ? vl : LFC_CHECK_NO_CLASS, "a packet", &e);
  if (len == 0) return found;
  if (vl == LFC_VL15) {
    c->cov[COV_VL15]++;
    if (st == LFC_WIRE_OK && p.bth.dqpn != QP0) {
      chk_text(exp, "a VL15 packet goes to QP0 (subnet management)");
      chk_text(obs, "DestQP %" PRIu32, p.bth.dqpn);
      found += chk_flag(c, dir, LFC_RULE_IB_VL15, vl, exp, obs);
    }
    if (st == LFC_WIRE_OK && p.payload_len > VL15_MAD_BYTES) {
      chk_text(exp, "a VL15 payload of at most %u bytes (one MAD)", VL15_MAD_BYTES);
      chk_text(obs, "%zu bytes", p.payload_len);
      found += chk_flag(c, dir, LFC_RULE_IB_VL15, vl, exp, obs);
    }
    return found; /* VL15 has no credits (IBA C7-18) */
  }
  if (vl >= c->cfg.data_vls) {
    chk_text(exp, "data VLs 0..%u", (unsigned)c->cfg.data_vls - 1u);
    chk_text(obs, "a data packet on VL %u", (unsigned)vl);
    found += chk_flag(c, dir, LFC_RULE_IB_VL, vl, exp, obs);
  }
  if (st == LFC_WIRE_OK) {
    if (p.payload_len > c->cfg.mtu_bytes) {
      chk_text(exp, "a payload of at most %u bytes (MTU)", (unsigned)c->cfg.mtu_bytes);
      chk_text(obs, "%zu bytes", p.payload_len);
      found += chk_flag(c, dir, LFC_RULE_IB_MTU, vl, exp, obs);
    } else if (p.payload_len == c->cfg.mtu_bytes) {
      c->cov[COV_MTU_EXACT]++;
    }
  }
  chk_ib_vl_t *s = &l->vl[dir][vl];
  if (s->sent_known) {
    const uint32_t cr = (s->fctbs + n) & LFC_CREDIT_MASK;
    if (s->fccl_known) {
      const uint32_t d = (s->fccl - cr) & LFC_CREDIT_MASK;
      if (d > LFC_CREDIT_WINDOW) {
        s->send_viol++;
        chk_text(exp, "(FCCL - (FCTBS + n)) mod 4096 <= 2048");
        chk_text(obs, "FCCL %u, FCTBS %u, n %u: %u", (unsigned)s->fccl, (unsigned)s->fctbs, n,
                 (unsigned)d);
        found += chk_flag(c, dir, LFC_RULE_IB_SEND, vl, exp, obs);
      } else if (d == 0) {
        c->cov[COV_SEND_EXACT]++;
      } else if (d == LFC_CREDIT_WINDOW) {
        c->cov[COV_SEND_WINDOW]++;
      }
    }
    if (cr < s->fctbs) c->cov[COV_CREDIT_WRAP]++;
    s->fctbs = (uint16_t)cr;
    s->sent_u += n;
  }
  return found;
}

static int flow_control_packet(lfc_check_t *c, chk_ib_link_t *l, uint32_t dir, uint64_t t,
                               const uint8_t *b, size_t len) {
  int found = 0;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  lfc_ib_fcp_t p;
  lfc_wire_error_t e;
  const lfc_wire_status_t st = lfc_ib_fcp_decode(b, len, &p, &e);
  if (st != LFC_WIRE_OK) {
    /* A reserved Op is decoded but ignored (SPEC §5.3); anything else cannot be read. */
    return malformed(c, dir, st == LFC_WIRE_BAD_OPCODE ? p.vl : LFC_CHECK_NO_CLASS, "an FCP", &e);
  }
  if (p.vl == LFC_VL15) {
    chk_text(exp, "no FCP for VL15 (no credits)");
    chk_text(obs, "an FCP for VL15, FCTBS %u FCCL %u", (unsigned)p.fctbs, (unsigned)p.fccl);
    return chk_flag(c, dir, LFC_RULE_IB_VL15, p.vl, exp, obs);
  }
  if (p.vl >= c->cfg.data_vls) {
    chk_text(exp, "FCPs for data VLs 0..%u", (unsigned)c->cfg.data_vls - 1u);
    chk_text(obs, "an FCP for VL %u", (unsigned)p.vl);
    return chk_flag(c, dir, LFC_RULE_IB_VL, p.vl, exp, obs);
  }
  c->cov[COV_FCP]++;
  if (p.op == LFC_FCP_OP_INIT) c->cov[COV_FCP_INIT]++;

  /* The period: FCPs of this VL sent in this direction. */
  chk_ib_vl_t *s = &l->vl[dir][p.vl];
  if (c->fcp_period_ps != 0) {
    const uint64_t since = s->fcp_seen ? s->fcp_last_ps : c->link[c->cur_link].first_ps;
    if ((s->fcp_seen || c->cfg.from_reset) &&
        t - since > c->fcp_period_ps + c->fcp_slack_ps + c->tol_ps) {
      chk_text(exp, "an FCP at least every %" PRIu64 "%s (+%" PRIu64 "%s for one MTU packet)",
               chk_units(c, c->fcp_period_ps), c->label, chk_units(c, c->fcp_slack_ps), c->label);
      chk_text(obs, "%" PRIu64 "%s since the last one", chk_units(c, t - since), c->label);
      found += chk_flag(c, dir, LFC_RULE_IB_FCP_PERIOD, p.vl, exp, obs);
    }
  }
  if (s->fcp_seen && p.fctbs != s->fcp_last_fctbs) c->cov[COV_FCP_ADVANCE]++;
  s->fcp_seen = true;
  s->fcp_last_ps = t;
  s->fcp_last_fctbs = p.fctbs;

  /* FCTBS: the blocks this side sent in this direction. */
  if (s->sent_known) {
    if (p.fctbs != s->fctbs) {
      chk_text(exp, "FCTBS %u: the blocks seen sent on VL %u, mod 4096", (unsigned)s->fctbs,
               (unsigned)p.vl);
      chk_text(obs, "FCTBS %u (%+" PRId64 ")", (unsigned)p.fctbs,
               signed12((uint32_t)(p.fctbs - s->fctbs) & LFC_CREDIT_MASK));
      found += chk_flag(c, dir, LFC_RULE_IB_FCTBS, p.vl, exp, obs);
      /* Follow the sender from here, so that one error is reported once. The receiver follows
       * it too: it sets ABR to this FCTBS, so an FCTBS behind the blocks it received takes its
       * FCCL back by as much, which is the sender's error and not the receiver's. */
      const int64_t step = signed12((uint32_t)(p.fctbs - s->fctbs) & LFC_CREDIT_MASK);
      if (step < 0) s->fccl_back += (uint32_t)-step;
      s->sent_u += step;
      s->fctbs = p.fctbs;
    }
  } else {
    s->sent_known = true;
    s->fctbs = p.fctbs;
    s->sent_u = p.fctbs;
    map_fccl(s);
  }

  /* FCCL: the limit for the data coming the other way. */
  chk_ib_vl_t *r = &l->vl[other(dir)][p.vl];
  if (r->fccl_known) {
    const uint32_t d = (uint32_t)(p.fccl - r->fccl) & LFC_CREDIT_MASK;
    const uint32_t back = d > LFC_CREDIT_WINDOW ? LFC_CREDIT_MOD - d : 0u;
    if (back > 0 && back <= r->fccl_back) {
      r->fccl_back -= back; /* the ABR the sender's short FCTBS gave it (above) */
    } else if (back > 0) {
      chk_text(exp, "FCCL %u + 0..2048, mod 4096 (never backwards)", (unsigned)r->fccl);
      chk_text(obs, "FCCL %u (%+" PRId64 ")", (unsigned)p.fccl, signed12(d));
      found += chk_flag(c, dir, LFC_RULE_IB_FCCL_STEP, p.vl, exp, obs);
    }
    if (p.fccl < r->fccl && d <= LFC_CREDIT_WINDOW) c->cov[COV_CREDIT_WRAP]++;
    r->fccl_u += signed12(d);
    r->fccl = p.fccl;
  } else {
    r->fccl_known = true;
    r->fccl = p.fccl;
    map_fccl(r);
  }
  if (r->fccl_u_known && r->fccl_u - r->sent_u > (int64_t)LFC_CREDIT_WINDOW) {
    chk_text(exp, "FCCL at most 2048 beyond the %u blocks sent (FCTBS) on VL %u",
             (unsigned)r->fctbs, (unsigned)p.vl);
    chk_text(obs, "FCCL %u: %" PRId64 " beyond", (unsigned)p.fccl, r->fccl_u - r->sent_u);
    found += chk_flag(c, dir, LFC_RULE_IB_FCCL_CAP, p.vl, exp, obs);
    /* Reported once: take the advertised limit as it is from here. */
    r->fccl_u = r->sent_u + LFC_CREDIT_WINDOW;
  }
  return found;
}

int chk_ib_frame(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t t_ps, lfc_pcap_rec_t kind,
                 const uint8_t *frame, size_t len) {
  chk_ib_link_t *l = &c->link[link].ib;
  return kind == LFC_PCAP_IB_LINK ? flow_control_packet(c, l, dir, t_ps, frame, len)
                                  : data_packet(c, l, dir, frame, len);
}

int chk_ib_drop(lfc_check_t *c, uint32_t link, uint32_t dir, uint32_t cls) {
  if (cls == LFC_VL15) {
    c->cov[COV_DROP_ALLOWED]++; /* VL15 may drop (SPEC §5.4) */
    return 0;
  }
  const chk_ib_vl_t *s = cls < LFC_IB_MAX_VLS ? &c->link[link].ib.vl[dir][cls] : NULL;
  if (s != NULL && s->send_viol > 0) {
    c->cov[COV_DROP_EXCUSED]++;
    return 0;
  }
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  chk_text(exp, "no drop on a data VL whose sender kept the send rule");
  chk_text(obs, "a packet of VL %u dropped, no ib-send before it", (unsigned)cls);
  return chk_flag(c, dir, LFC_RULE_IB_DROP, cls, exp, obs);
}

int chk_ib_finish(lfc_check_t *c, uint64_t t_ps) {
  if (c->fcp_period_ps == 0) return 0;
  int found = 0;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  for (uint32_t link = 0; link != c->cfg.links; link++) {
    if (!c->link[link].seen) continue;
    for (uint32_t d = 0; d != LFC_CHECK_DIRS; d++) {
      for (uint32_t v = 0; v != c->cfg.data_vls; v++) {
        const chk_ib_vl_t *s = &c->link[link].ib.vl[d][v];
        if (!s->fcp_seen && !c->cfg.from_reset) continue;
        const uint64_t since = s->fcp_seen ? s->fcp_last_ps : c->link[link].first_ps;
        if (t_ps - since <= c->fcp_period_ps + c->fcp_slack_ps + c->tol_ps) continue;
        c->cur_link = link;
        chk_text(exp, "an FCP at least every %" PRIu64 "%s (+%" PRIu64 "%s for one MTU packet)",
                 chk_units(c, c->fcp_period_ps), c->label, chk_units(c, c->fcp_slack_ps), c->label);
        chk_text(obs, "none in the last %" PRIu64 "%s, to the end", chk_units(c, t_ps - since),
                 c->label);
        found += chk_flag(c, d, LFC_RULE_IB_FCP_PERIOD, v, exp, obs);
      }
    }
  }
  return found;
}
