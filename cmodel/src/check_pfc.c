/*
 * check_pfc.c - the priority-flow-control link monitor of lfc/check.h: pause state per priority
 * and direction from the PFC and PAUSE frames seen on a link (IEEE 802.1Qbb; IEEE 802.3
 * clause 31 and Annex 31B; SPEC §6.6, §6.7, §11).
 *
 * A PFC frame sent B>A pauses the data A sends to B. Each pause is looked at from two sides:
 *
 * The paused sender (A). The pause acts on A from the end of the frame plus cfg.skew_ns[A>B]
 * (zero when the observation point is at A; the round trip when it is at B). From then A may still
 * start frames of the priority for the reaction budget (IEEE 802.3 Annex 31B.3.7, per speed; or
 * cfg.reaction_ns): the frames already committed to its MAC. After that, until the pause runs
 * out (time x 512 bit times) or an XON (time 0) reaches A, a frame of the priority that starts
 * is a violation: the first of a pause is a late reaction (pfc-reaction), any later one a
 * transmission during the pause (pfc-tx-paused). A refresh (an XOFF while paused) extends the
 * pause without a new reaction window: A had already stopped. A frame already being sent when
 * the pause arrives is finished (802.1Qbb), so only starts are judged. With cfg.watchdog_ns,
 * frames of a priority paused that long are the sender's watchdog ignoring a storm (SPEC §6.8):
 * counted, not flagged.
 *
 * An ignored XON is not flagged: a sender that does not resume after XON may simply have
 * nothing of that priority to send, and the pause it was under was legal. What the XON does
 * change is that frames after it reaches the sender are allowed again, even if the pause time
 * it cut short had not run out.
 *
 * The pausing receiver (B). While B is in XOFF it must refresh the pause before it runs out
 * (SPEC §6.6: refresh_cycles < pause_quanta). The monitor cannot see B's state, but B's frames
 * show it: an XOFF that comes after B's previous XOFF for the priority has run out, with no XON
 * between, means B stayed in XOFF and let the pause lapse: pfc-refresh-late. (An XON after a
 * lapse is not flagged: B may have left XOFF just before the lapse and sent the XON behind a
 * frame.) Headroom is the data of the priority B receives after sending XOFF, until it sends XON
 * or the pause lapses: counted from the frames seen in the other direction from the XOFF on
 * (and the frame then in progress), it is exact at B's port and undercounts by the bytes in
 * flight when observed elsewhere.
 *
 * A drop reported on a lossless priority is a violation unless the sender broke a pause of that
 * priority before it.
 *
 * Data frames: RoCEv2 frames (UDP port 4791) are decoded in full; other frames have their FCS
 * checked. The priority is the 802.1Q PCP, or with cfg.prio_dscp the DSCP of IP frames mapped by
 * cfg.dscp_to_prio (PCP for other frames). A frame that is malformed is flagged and not
 * otherwise counted: its fields cannot be trusted.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "check_internal.h"
#include "lfc/crc.h"
#include "lfc/wire_pfc.h"
#include "lfc/wire_roce.h"

#define BITS_PER_BYTE 8u
#define PCP_SHIFT 13u /* 802.1Q TCI: PCP in bits 15:13 */
#define IPV4_IHL_MASK 0x0Fu
#define IPV4_PROTO_OFFSET 9u
#define IPV4_TOS_OFFSET 1u
#define IPV6_NEXT_OFFSET 6u
#define IP_VERSION_SHIFT 4u
#define IPV6_TC_LOW_SHIFT 4u
#define DSCP_SHIFT 2u /* DSCP is the traffic class's bits 7:2 (RFC 2474) */
#define UDP_DPORT_OFFSET 2u
#define WORD_BYTES 4u /* IPv4 IHL unit */

static uint32_t other(uint32_t dir) { return dir ^ 1u; }

static uint16_t get16(const uint8_t *p) { return (uint16_t)((unsigned)p[0] << 8 | p[1]); }
static uint32_t get32le(const uint8_t *p) {
  return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t quanta_ps(const lfc_check_t *c, uint32_t q) {
  return chk_bits_ps(c, (uint64_t)q * LFC_QUANTUM_BITS);
}

/* The receiver's view: its XOFF for data direction d ran out at or before t without a refresh
 * or XON. If the receiver's state is reported and it is still in XOFF, that is a late refresh;
 * otherwise the lapse is remembered for the next frame to judge. */
static int expire(lfc_check_t *c, chk_pfc_prio_t *s, uint32_t d, uint32_t prio, uint64_t t) {
  if (!s->xoff || t < s->lapse_ps + c->tol_ps) return 0;
  s->xoff = false;
  s->hr_open = false;
  c->cov[COV_QUANTA_EXPIRY]++;
  if (!s->rx_known) {
    s->lapsed = true;
    s->lapsed_at_ps = s->lapse_ps;
    return 0;
  }
  if (!s->rx_xoff) return 0;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  chk_text(exp, "a refresh before %" PRIu64 "%s, when the XOFF ran out", chk_units(c, s->lapse_ps),
           c->label);
  chk_text(obs, "the receiver was still in XOFF (reported) when it ran out");
  return chk_flag(c, other(d), LFC_RULE_PFC_REFRESH, prio, exp, obs);
}

static int headroom_add(lfc_check_t *c, chk_pfc_prio_t *s, uint32_t dir, uint32_t prio,
                        uint64_t bytes) {
  s->hr_used += bytes;
  if (bytes > 0) c->cov[COV_HEADROOM_USED]++;
  if (s->hr_used > s->hr_max) s->hr_max = s->hr_used;
  const uint64_t room = c->cfg.headroom_bytes[prio];
  if (room == 0 || s->hr_used <= room || s->hr_flagged) return 0;
  s->hr_flagged = true;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  chk_text(exp, "at most %" PRIu64 " bytes of priority %u after the receiver's XOFF", room,
           (unsigned)prio);
  chk_text(obs, "%" PRIu64 " bytes", s->hr_used);
  return chk_flag(c, dir, LFC_RULE_PFC_HEADROOM, prio, exp, obs);
}

/* A PFC or PAUSE frame sent in direction fdir, first bit at t, len bytes. */
static int pause_frame(lfc_check_t *c, chk_pfc_link_t *l, uint32_t fdir, uint64_t t, size_t len,
                       const lfc_pfc_frame_t *pf) {
  int found = 0;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  lfc_word_t w;
  lfc_pfc_to_word(pf, &w); /* PAUSE: every priority, one time (802.3 Annex 31B) */
  if (pf->opcode == LFC_MAC_CTRL_OP_PAUSE) c->cov[COV_PAUSE_8023X]++;
  const uint64_t arrival = t + chk_bits_ps(c, (uint64_t)len * BITS_PER_BYTE);
  const uint32_t d = other(fdir);
  const uint64_t eff = arrival + c->skew_ps[d]; /* when it acts on the sender, as seen here */
  for (uint32_t prio = 0; prio != LFC_PFC_MAX_PRIOS; prio++) {
    if (!((w.pfc_en >> prio) & 1u)) continue;
    chk_pfc_prio_t *s = &l->prio[d][prio];
    const uint32_t q = w.pfc_time[prio];
    found += expire(c, s, d, prio, arrival);
    /* The receiver's view. */
    if (q > 0) {
      if (s->lapsed && s->seen_xon) {
        chk_text(exp, "a refresh before %" PRIu64 "%s, when the last XOFF ran out",
                 chk_units(c, s->lapsed_at_ps), c->label);
        chk_text(obs, "XOFF again %" PRIu64 "%s after it ran out, no XON between",
                 chk_units(c, arrival - s->lapsed_at_ps), c->label);
        found += chk_flag(c, fdir, LFC_RULE_PFC_REFRESH, prio, exp, obs);
      }
      s->lapsed = false;
      c->cov[s->xoff ? COV_REFRESH : COV_XOFF]++;
      s->xoff = true;
      s->lapse_ps = arrival + quanta_ps(c, q);
      if (!s->hr_open) {
        s->hr_open = true;
        s->hr_flagged = false;
        s->hr_used = 0;
        /* A frame still arriving when the XOFF went out lands in headroom too. */
        found += headroom_add(c, s, d, prio, s->last_end_ps > t ? s->last_bytes : 0u);
      }
    } else {
      c->cov[COV_XON]++;
      if (s->xoff) s->seen_xon = true;
      s->xoff = false;
      s->lapsed = false;
      s->hr_open = false;
    }
    /* The sender's view. */
    const bool in_force = s->paused && eff < s->expiry_ps;
    if (q > 0) {
      if (in_force) {
        s->expiry_ps = eff + quanta_ps(c, q); /* a refresh: no new reaction window */
      } else {
        s->paused = true;
        s->ep_start_ps = eff;
        s->react_end_ps = eff + c->reaction_ps;
        s->expiry_ps = eff + quanta_ps(c, q);
        s->reported = false;
        s->wd_counted = false;
      }
    } else if (in_force) {
      s->expiry_ps = eff;
      c->cov[COV_RESUME_XON]++;
    }
  }
  return found;
}

/* A data frame of priority prio sent in direction dir, first bit at t, len bytes with FCS. */
static int data_frame(lfc_check_t *c, chk_pfc_link_t *l, uint32_t dir, uint32_t prio, uint64_t t,
                      size_t len) {
  int found = 0;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  chk_pfc_prio_t *s = &l->prio[dir][prio];
  found += expire(c, s, dir, prio, t);
  /* Each comparison gives the frame the benefit of one time unit (c->tol_ps). */
  if (s->paused && t + c->tol_ps < s->expiry_ps && t >= s->ep_start_ps) {
    const uint64_t into = t - s->ep_start_ps;
    if (t < s->react_end_ps + c->tol_ps) {
      c->cov[COV_REACTION_WINDOW]++;
    } else if (c->watchdog_ps != 0 && into + c->tol_ps >= c->watchdog_ps) {
      if (!s->wd_counted) c->cov[COV_WATCHDOG]++;
      s->wd_counted = true;
    } else {
      s->peer_viol++;
      if (!s->reported) {
        s->reported = true;
        chk_text(exp,
                 "no frame of priority %u started more than %" PRIu64
                 "%s after a pause "
                 "reaches the sender",
                 (unsigned)prio, chk_units(c, c->reaction_ps), c->label);
        chk_text(obs, "started %" PRIu64 "%s after, the pause lasting %" PRIu64 "%s more",
                 chk_units(c, into), c->label, chk_units(c, s->expiry_ps - t), c->label);
        found += chk_flag(c, dir, LFC_RULE_PFC_REACTION, prio, exp, obs);
      } else {
        chk_text(exp, "no frame of priority %u while it is paused", (unsigned)prio);
        chk_text(obs, "started %" PRIu64 "%s into the pause, %" PRIu64 "%s before its end",
                 chk_units(c, into), c->label, chk_units(c, s->expiry_ps - t), c->label);
        found += chk_flag(c, dir, LFC_RULE_PFC_TX_PAUSED, prio, exp, obs);
      }
    }
  }
  if (s->hr_open) found += headroom_add(c, s, dir, prio, len);
  s->last_end_ps = t + chk_bits_ps(c, (uint64_t)len * BITS_PER_BYTE);
  s->last_bytes = len;
  return found;
}

static int malformed(lfc_check_t *c, uint32_t dir, uint32_t prio, const char *what,
                     const char *why) {
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  chk_text(exp, "%s", what);
  chk_text(obs, "%s", why);
  return chk_flag(c, dir, LFC_RULE_ETH_MALFORMED, prio, exp, obs);
}

static int malformed_wire(lfc_check_t *c, uint32_t dir, uint32_t prio, const char *what,
                          const lfc_wire_error_t *e) {
  char why[LFC_CHECK_TEXT];
  chk_text(why, "%s: %s", lfc_wire_status_name(e->status), e->text);
  return malformed(c, dir, prio, what, why);
}

int chk_pfc_frame(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t t, const uint8_t *in,
                  size_t len) {
  chk_pfc_link_t *l = &c->link[link].pfc;
  const uint8_t *b = in;
  size_t n = len;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  if (!c->cfg.eth_fcs) {
    /* Captured without its FCS: give it the one it was sent with, so the decoders apply. */
    if (len > c->cfg.mtu_bytes) {
      chk_text(exp, "a frame of at most %u bytes with FCS", (unsigned)c->cfg.mtu_bytes);
      chk_text(obs, "%zu bytes without FCS", len);
      return chk_flag(c, dir, LFC_RULE_ETH_MTU, LFC_CHECK_NO_CLASS, exp, obs);
    }
    memcpy(c->scratch, in, len);
    const uint32_t fcs = lfc_crc32(in, len);
    for (unsigned i = 0; i != LFC_ETH_FCS_BYTES; i++)
      c->scratch[len + i] = (uint8_t)(fcs >> (8u * i));
    b = c->scratch;
    n = len + LFC_ETH_FCS_BYTES;
  }
  if (n < LFC_ETH_MIN_FRAME) {
    char why[LFC_CHECK_TEXT];
    chk_text(why, "%zu bytes with FCS", n);
    return malformed(c, dir, LFC_CHECK_NO_CLASS, "an Ethernet frame of at least 64 bytes", why);
  }
  uint16_t type = get16(b + 2u * LFC_ETH_ADDR_BYTES);
  size_t off = LFC_ETH_HEADER_BYTES;
  bool tagged = false;
  uint32_t pcp = 0;
  if (type == LFC_ETH_TYPE_VLAN) {
    tagged = true;
    pcp = (uint32_t)(get16(b + LFC_ETH_HEADER_BYTES) >> PCP_SHIFT);
    type = get16(b + LFC_ETH_HEADER_BYTES + LFC_ETH_TYPE_BYTES);
    off += LFC_ETH_VLAN_TAG_BYTES;
  }
  lfc_wire_error_t e;
  if (type == LFC_MAC_CTRL_ETHERTYPE) {
    lfc_pfc_frame_t pf;
    if (lfc_pfc_decode(b, n, &pf, &e) != LFC_WIRE_OK) {
      return malformed_wire(c, dir, LFC_CHECK_NO_CLASS, "a PFC or PAUSE frame", &e);
    }
    return pause_frame(c, l, dir, t, n, &pf);
  }
  /* A data frame: RoCEv2 decoded in full, anything else by its FCS. */
  const size_t body = n - LFC_ETH_FCS_BYTES;
  bool ip = false, roce = false;
  uint32_t dscp = 0;
  if (type == LFC_ETH_TYPE_IPV4 && off + LFC_IPV4_HEADER_BYTES <= body) {
    ip = true;
    dscp = (uint32_t)(b[off + IPV4_TOS_OFFSET] >> DSCP_SHIFT);
    const size_t ihl = (size_t)(b[off] & IPV4_IHL_MASK) * WORD_BYTES;
    const size_t udp = off + ihl;
    roce = b[off + IPV4_PROTO_OFFSET] == LFC_IP_PROTO_UDP && udp + LFC_UDP_HEADER_BYTES <= body &&
           get16(b + udp + UDP_DPORT_OFFSET) == LFC_ROCE_UDP_PORT;
  } else if (type == LFC_ETH_TYPE_IPV6 && off + LFC_IPV6_HEADER_BYTES <= body) {
    ip = true;
    const uint32_t tc = (uint32_t)(b[off] & IPV4_IHL_MASK) << IPV6_TC_LOW_SHIFT |
                        (uint32_t)(b[off + 1u] >> IPV6_TC_LOW_SHIFT);
    dscp = tc >> DSCP_SHIFT;
    const size_t udp = off + LFC_IPV6_HEADER_BYTES;
    roce = b[off + IPV6_NEXT_OFFSET] == LFC_IP_PROTO_UDP && udp + LFC_UDP_HEADER_BYTES <= body &&
           get16(b + udp + UDP_DPORT_OFFSET) == LFC_ROCE_UDP_PORT;
  }
  const uint32_t prio = (c->cfg.prio_dscp && ip) ? c->cfg.dscp_to_prio[dscp] : (tagged ? pcp : 0u);
  if (roce) {
    lfc_roce_pkt_t p;
    if (lfc_roce_decode(b, n, &p, &e) != LFC_WIRE_OK) {
      return malformed_wire(c, dir, prio, "a RoCEv2 frame", &e);
    }
    c->cov[COV_ROCE]++;
  } else {
    const uint32_t fcs = get32le(b + body);
    const uint32_t want = lfc_crc32(b, body);
    if (fcs != want) {
      char why[LFC_CHECK_TEXT];
      chk_text(why, "FCS 0x%08" PRIx32 ", computed 0x%08" PRIx32, fcs, want);
      return malformed(c, dir, prio, "a frame with a good FCS", why);
    }
    c->cov[COV_OTHER_DATA]++;
  }
  int found = 0;
  if (n > c->cfg.mtu_bytes) {
    chk_text(exp, "a frame of at most %u bytes with FCS", (unsigned)c->cfg.mtu_bytes);
    chk_text(obs, "%zu bytes", n);
    found += chk_flag(c, dir, LFC_RULE_ETH_MTU, prio, exp, obs);
  } else if (n == c->cfg.mtu_bytes) {
    c->cov[COV_MTU_EXACT]++;
  }
  return found + data_frame(c, l, dir, prio, t, n);
}

int chk_pfc_drop(lfc_check_t *c, uint32_t link, uint32_t dir, uint32_t cls) {
  if (!((c->cfg.lossless_mask >> cls) & 1u)) {
    c->cov[COV_DROP_ALLOWED]++; /* a lossy priority may drop */
    return 0;
  }
  if (c->link[link].pfc.prio[dir][cls].peer_viol > 0) {
    c->cov[COV_DROP_EXCUSED]++;
    return 0;
  }
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  chk_text(exp, "no drop of lossless priority %u while its sender honours the pauses",
           (unsigned)cls);
  chk_text(obs, "a packet dropped, no pfc-reaction or pfc-tx-paused before it");
  return chk_flag(c, dir, LFC_RULE_PFC_DROP, cls, exp, obs);
}

int chk_pfc_xoff(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t t_ps, uint32_t prio,
                 bool xoff) {
  chk_pfc_prio_t *s = &c->link[link].pfc.prio[dir][prio];
  const int found = expire(c, s, dir, prio, t_ps); /* judged with the state before this change */
  s->rx_known = true;
  s->rx_xoff = xoff;
  s->lapsed = false;
  return found;
}

int chk_pfc_finish(lfc_check_t *c, uint64_t t_ps) {
  int found = 0;
  for (uint32_t link = 0; link != c->cfg.links; link++) {
    c->cur_link = link;
    for (uint32_t d = 0; d != LFC_CHECK_DIRS; d++) {
      for (uint32_t prio = 0; prio != LFC_PFC_MAX_PRIOS; prio++) {
        found += expire(c, &c->link[link].pfc.prio[d][prio], d, prio, t_ps);
      }
    }
  }
  return found;
}
