/*
 * pcap_link.c - one link's words, both directions, as a pcap file of real frames
 * (lfc/pcap_link.h; docs/wire-formats.md §6). No encoder of its own: every frame is made by the
 * codecs' lfc_*_from_word and encoders (docs/wire-formats.md §8).
 */
#include "lfc/pcap_link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "lfc/pcap.h"
#include "lfc/wire_ib_data.h"
#include "lfc/wire_ib_fcp.h"
#include "lfc/wire_pfc.h"
#include "lfc/wire_roce.h"
#include "errtext.h"

#define LINK_DIRS 2u
#define FRAME_MAX (LFC_MAX_NBLK * LFC_BLOCK_BYTES) /* the longest packet a word describes */
#define PCAP_FILE_HEADER_BYTES 24u                 /* pcap-savefile(5) */
#define PCAP_RECORD_HEADER_BYTES 16u
#define ROCE_MIN_NBLK 2u     /* the shortest RoCEv2 frame that carries the tag (§8) */
#define IPV4_NET 10u         /* 10.0.0.0/16 (RFC 1918) holds the 16-bit addresses */
#define IPV4_TTL 64u
#define UDP_SRC_BASE 0xC000u /* RFC 6335 dynamic ports: 49152 + the source's low 14 bits */
#define UDP_SRC_MASK 0x3FFFu
#define BTH_RC_SEND_ONLY 0x04u /* IBA Table 38 */
#define BTH_PKEY_DEFAULT 0xFFFFu

struct lfc_pcap_link {
  lfc_pcap_t *pcap;
  lfc_mode_t mode;
  uint32_t linktype;
  uint8_t mac[LINK_DIRS][LFC_ETH_ADDR_BYTES]; /* side A's, side B's (lfc_pcap_side_mac) */
  uint32_t psn[LINK_DIRS];
  lfc_roce_map_t map;
  lfc_pcap_link_stats_t st;
  uint8_t payload[FRAME_MAX];
  uint8_t frame[FRAME_MAX];
};

lfc_pcap_link_t *lfc_pcap_link_open(const char *path, const lfc_pcap_link_cfg_t *cfg,
                                    char *err, size_t errlen) {
  if (cfg->mode != LFC_MODE_IB && cfg->mode != LFC_MODE_PFC) {
    lfc_say(err, errlen, "%s: mode %d, allowed 0 (IB) or 1 (PFC)", path, (int)cfg->mode);
    return NULL;
  }
  lfc_pcap_link_t *l = lfc_calloc(1, sizeof *l);
  if (l == NULL) {
    lfc_say(err, errlen, "%s: out of memory", path);
    return NULL;
  }
  l->mode = cfg->mode;
  l->linktype = cfg->mode == LFC_MODE_PFC ? LFC_PCAP_LINKTYPE_ETHERNET : LFC_PCAP_LINKTYPE_ERF;
  for (uint32_t s = 0; s < LINK_DIRS; s++) lfc_pcap_side_mac(cfg->link, s, l->mac[s]);
  lfc_roce_map_default(&l->map, LFC_ROCE_PRIO_PCP);
  l->pcap = lfc_pcap_open(path, l->linktype, err, errlen);
  if (l->pcap == NULL) {
    free(l);
    return NULL;
  }
  l->st.bytes = PCAP_FILE_HEADER_BYTES;
  return l;
}

/* The frame of a DATA word in l->frame: its length and record kind, or 0 if no frame carries
 * it; *lengthened when a one-block packet became a two-block frame. */
static size_t data_frame(lfc_pcap_link_t *l, uint32_t dir, const lfc_word_t *w, uint16_t src,
                         lfc_pcap_rec_t *kind, int *lengthened) {
  /* Designated initializers: every field not named is 0 (SE, M, TVer, BECN, A; no GRH). */
  const lfc_ib_bth_t bth = {.opcode = BTH_RC_SEND_ONLY,
                            .pkey = BTH_PKEY_DEFAULT,
                            .dqpn = LFC_PCAP_LINK_QPN,
                            .psn = l->psn[dir] & LFC_IB_QPN_MASK};
  if (l->mode == LFC_MODE_IB) {
    const lfc_ib_pkt_t tmpl = {.slid = src, .bth = bth};
    lfc_ib_pkt_t p = {.has_grh = false}; /* filled by lfc_ib_pkt_from_word */
    if (lfc_ib_pkt_from_word(w, &tmpl, &p, l->payload, sizeof l->payload, NULL) != LFC_WIRE_OK) {
      return 0;
    }
    *kind = LFC_PCAP_IB_DATA;
    return lfc_ib_pkt_encode(&p, l->frame, sizeof l->frame, NULL);
  }
  lfc_word_t ww = *w;
  *lengthened = ww.nblk == 1u; /* nblk 0 stays 0: the codec refuses it */
  if (*lengthened) { /* the shortest frame of two blocks: headers, trailers and the tag */
    ww.nblk = ROCE_MIN_NBLK;
    ww.pad = LFC_BLOCK_BYTES - 1u;
  }
  lfc_roce_pkt_t tmpl = {.has_vlan = true, /* VID 0: priority tagged (IEEE 802.1Q) */
                         .ttl = IPV4_TTL,
                         .src_ip = {IPV4_NET, 0, (uint8_t)(src >> 8), (uint8_t)src},
                         .dst_ip = {IPV4_NET}, /* low 16 bits: the word's dst (from_word) */
                         .udp_src = (uint16_t)(UDP_SRC_BASE | (src & UDP_SRC_MASK)),
                         .bth = bth};
  memcpy(tmpl.src_mac, l->mac[dir], LFC_ETH_ADDR_BYTES);
  memcpy(tmpl.dst_mac, l->mac[dir ^ 1u], LFC_ETH_ADDR_BYTES);
  lfc_roce_pkt_t p = {.has_vlan = false}; /* filled by lfc_roce_from_word */
  if (lfc_roce_from_word(&ww, &l->map, &tmpl, &p, l->payload, sizeof l->payload, NULL) !=
      LFC_WIRE_OK) {
    return 0;
  }
  *kind = LFC_PCAP_ETH;
  return lfc_roce_encode(&p, l->frame, sizeof l->frame, NULL);
}

int lfc_pcap_link_word(lfc_pcap_link_t *l, uint64_t ts_ns, uint32_t dir, const lfc_word_t *w,
                       uint16_t src, char *err, size_t errlen) {
  if (dir >= LINK_DIRS) {
    lfc_say(err, errlen, "direction %u, allowed 0 (side A sends) or 1 (side B sends)",
            (unsigned)dir);
    return -1;
  }
  if (w->kind == LFC_IDLE || (w->kind == LFC_DATA && !w->sop)) return 0;
  size_t len = 0;
  lfc_pcap_rec_t kind = LFC_PCAP_ETH;
  uint64_t *count = NULL;
  int lengthened = 0;
  if (w->kind == LFC_DATA) {
    len = data_frame(l, dir, w, src, &kind, &lengthened);
    count = &l->st.data[dir];
  } else if (w->kind == LFC_PFC && l->mode == LFC_MODE_PFC) {
    lfc_pfc_frame_t f;
    if (lfc_pfc_from_word(w, l->mac[dir], &f, NULL) == LFC_WIRE_OK) {
      len = lfc_pfc_encode(&f, l->frame, sizeof l->frame, NULL);
    }
    count = &l->st.pfc[dir];
  } else if (w->kind == LFC_FCP && l->mode == LFC_MODE_IB) {
    lfc_ib_fcp_t p;
    if (lfc_ib_fcp_from_word(w, &p, NULL) == LFC_WIRE_OK) {
      len = lfc_ib_fcp_encode(&p, l->frame, sizeof l->frame, NULL);
    }
    kind = LFC_PCAP_IB_LINK;
    count = &l->st.fcp[dir];
  }
  if (len == 0) {
    l->st.unwritable++;
    return 0;
  }
  if (lfc_pcap_write_dir(l->pcap, ts_ns, kind, dir, l->frame, len, err, errlen) != 0) return -1;
  if (w->kind == LFC_DATA) l->psn[dir]++;
  if (lengthened) l->st.lengthened++;
  (*count)++;
  l->st.records++;
  l->st.bytes += PCAP_RECORD_HEADER_BYTES + len +
                 (l->linktype == LFC_PCAP_LINKTYPE_ERF ? LFC_ERF_HEADER_BYTES : 0u);
  return 0;
}

const lfc_pcap_link_stats_t *lfc_pcap_link_stats(const lfc_pcap_link_t *l) { return &l->st; }

int lfc_pcap_link_close(lfc_pcap_link_t *l, char *err, size_t errlen) {
  const int rc = lfc_pcap_close(l->pcap, err, errlen);
  free(l);
  return rc;
}

void lfc_pcap_link_abort(lfc_pcap_link_t *l) {
  if (l == NULL) return;
  lfc_pcap_abort(l->pcap);
  free(l);
}
