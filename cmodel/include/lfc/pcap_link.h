/*
 * lfc/pcap_link.h - the words of one link, both directions, as a pcap file of real frames
 * (docs/wire-formats.md §6, "A link's words"). lfc-sim --pcap and the co-simulation's PCAP=1
 * write their links with it.
 *
 * Each SPEC §2 link word becomes its frame through the codecs' lfc_*_from_word
 * (docs/wire-formats.md §8), the link's mode picks the link type:
 *
 *   PFC mode, LINKTYPE_ETHERNET (1):
 *     PFC word   an 802.1Qbb frame (lfc_pfc_from_word), from its side's address
 *     DATA word  a RoCEv2 frame over IPv4 (lfc_roce_from_word), at its first block: priority
 *                tagged (802.1Q, VID 0) with PCP = class and DSCP = class x 8 (the default map,
 *                lfc_roce_map_default), ECN = the word's, UDP to 4791, BTH RC SEND Only; from
 *                its side's address to the other side's; IP addresses 10.0.H.L where H.L is the
 *                16-bit address (destination: the word's dst; source: the caller's src). A
 *                one-block packet cannot carry the RoCEv2 headers and its tag: it is written as
 *                a two-block frame and counted in `lengthened`.
 *   IB mode, LINKTYPE_ERF (197):
 *     DATA word  an IB data packet (lfc_ib_pkt_from_word) in an ERF record of type 21: VL = SL =
 *                class, DLID = dst, SLID = the caller's src, FECN = CE, BTH RC SEND Only
 *     FCP word   the 6-byte flow-control packet (lfc_ib_fcp_from_word) in an ERF record of
 *                type 25
 *
 * A link has a side A and a side B; direction 0 is what A sends, 1 what B sends (lfc/pcap.h):
 * ERF records carry it as their capture interface, Ethernet frames as their source address
 * lfc_pcap_side_mac(link, side). Both directions share the BTH's P_Key (0xFFFF) and DestQP
 * (LFC_PCAP_LINK_QPN); the PSN counts the data packets of each direction from 0.
 *
 * IDLE words and the blocks after a packet's first are not written: a packet is one frame, at
 * its first block. A word no frame of the link type carries (a PFC word on an IB link, an FCP
 * on an Ethernet one, a DATA word whose nblk or class the codec refuses) is not written either;
 * it is counted in `unwritable`.
 */
#ifndef LFC_PCAP_LINK_H
#define LFC_PCAP_LINK_H

#include "lfc/export.h"

#include <stddef.h>
#include <stdint.h>

#include "lfc/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LFC_PCAP_LINK_QPN 0x100u /* the BTH DestQP of every data packet */

typedef struct lfc_pcap_link lfc_pcap_link_t;

typedef struct {
  lfc_mode_t mode; /* LFC_MODE_PFC: Ethernet frames; LFC_MODE_IB: IB packets in ERF records */
  uint32_t link;   /* the link's number: its sides' addresses (lfc_pcap_side_mac, low 16 bits) */
} lfc_pcap_link_cfg_t;

/* What a link's file holds so far. */
typedef struct {
  uint64_t records;    /* frames written */
  uint64_t bytes;      /* the file's bytes: its header, the record headers and the frames */
  uint64_t data[2];    /* data packets, per direction */
  uint64_t pfc[2];     /* PFC frames, per direction */
  uint64_t fcp[2];     /* FCPs, per direction */
  uint64_t lengthened; /* one-block packets written as two-block RoCEv2 frames */
  uint64_t unwritable; /* words no frame of the link type carries: not written */
} lfc_pcap_link_stats_t;

/*
 * Start the file of one link, to become `path` on lfc_pcap_link_close (lfc_pcap_open: under a
 * temporary name until then). Returns the writer, or NULL with one line in err (a mode other
 * than IB or PFC, out of memory, or lfc_pcap_open's reason).
 */
LFC_API lfc_pcap_link_t *lfc_pcap_link_open(const char *path, const lfc_pcap_link_cfg_t *cfg,
                                            char *err, size_t errlen);

/*
 * Word w, sent by side dir (0: A, 1: B), at ts_ns nanoseconds (lfc_pcap_cycle_ns): written as
 * its frame, or nothing for IDLE, a packet's later blocks and a word no frame carries (above).
 * src is the address the packet came from (its SLID or source IP; the address space of w->dst),
 * used for DATA words only. Returns 0, or -1 with err when dir is not 0 or 1 or the write fails
 * (the writer can then only be aborted).
 */
LFC_API int lfc_pcap_link_word(lfc_pcap_link_t *l, uint64_t ts_ns, uint32_t dir,
                               const lfc_word_t *w, uint16_t src, char *err, size_t errlen);

/* The counts so far (valid until the next call on l). */
LFC_API const lfc_pcap_link_stats_t *lfc_pcap_link_stats(const lfc_pcap_link_t *l);

/* Close the file and rename it into place; frees l. 0, or -1 with err (lfc_pcap_close). */
LFC_API int lfc_pcap_link_close(lfc_pcap_link_t *l, char *err, size_t errlen);

/* Give up: the temporary file is removed and `path` left as it was; frees l. NULL is allowed. */
LFC_API void lfc_pcap_link_abort(lfc_pcap_link_t *l);

#ifdef __cplusplus
}
#endif

#endif /* LFC_PCAP_LINK_H */
