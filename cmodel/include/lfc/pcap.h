/*
 * lfc/pcap.h - classic pcap files of wire frames, for Wireshark/tshark (docs/wire-formats.md §6).
 *
 * A file holds one link type:
 *   LFC_PCAP_LINKTYPE_ETHERNET (1)     PFC, PAUSE and RoCEv2 frames, FCS included
 *   LFC_PCAP_LINKTYPE_ERF (197)        IB packets in Endace ERF records: type 21 (InfiniBand)
 *                                      for data packets, 25 (InfiniBand link) for FCPs. The one
 *                                      tshark 4.0 reads (docs/wire-formats.md §7).
 *   LFC_PCAP_LINKTYPE_INFINIBAND (247) IB packets bare (the link-layer type registered for IB;
 *                                      tshark 4.0 does not dissect it)
 *
 * Timestamps are nanoseconds (the nanosecond pcap magic 0xA1B23C4D, written little-endian); use
 * lfc_pcap_cycle_ns to turn a model cycle into time at a link speed. The file is written under a
 * temporary name in the same directory and renamed into place by lfc_pcap_close, so a failure
 * leaves the old file or none, never a truncated one.
 */
#ifndef LFC_PCAP_H
#define LFC_PCAP_H

#include "lfc/export.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LFC_PCAP_LINKTYPE_ETHERNET 1u
#define LFC_PCAP_LINKTYPE_ERF 197u
#define LFC_PCAP_LINKTYPE_INFINIBAND 247u
#define LFC_PCAP_SNAPLEN 65535u
#define LFC_ERF_TYPE_INFINIBAND 21u      /* wiretap/erf_record.h */
#define LFC_ERF_TYPE_INFINIBAND_LINK 25u
#define LFC_ERF_HEADER_BYTES 16u

/* What one record holds; it must suit the file's link type. */
typedef enum {
  LFC_PCAP_ETH = 0,     /* an Ethernet frame: LINKTYPE_ETHERNET */
  LFC_PCAP_IB_DATA = 1, /* an IB data packet, LRH..VCRC: ERF or INFINIBAND */
  LFC_PCAP_IB_LINK = 2  /* an IB link packet (FCP): ERF or INFINIBAND */
} lfc_pcap_rec_t;

typedef struct lfc_pcap lfc_pcap_t;

/*
 * Start a pcap file that will become `path` on lfc_pcap_close. Returns the writer, or NULL with
 * a one-line reason naming the path in err[0..errlen) (bad link type, cannot create, cannot
 * write the header). The caller owns the writer until close or abort.
 */
LFC_API lfc_pcap_t *lfc_pcap_open(const char *path, uint32_t linktype, char *err, size_t errlen);

/*
 * Append one record of len bytes (at most LFC_PCAP_SNAPLEN) at time ts_ns. Returns 0, or -1
 * with the reason in err: a record kind the link type cannot hold, an oversize frame, or a
 * failed write. After a failure the writer can only be aborted.
 */
LFC_API int lfc_pcap_write(lfc_pcap_t *p, uint64_t ts_ns, lfc_pcap_rec_t kind, const uint8_t *frame,
                   size_t len, char *err, size_t errlen);

/*
 * Flush, close and rename the file into place; frees p. Returns 0, or -1 with the reason in err
 * (the temporary file is then removed and `path` left as it was).
 */
LFC_API int lfc_pcap_close(lfc_pcap_t *p, char *err, size_t errlen);

/* Close and remove the temporary file, leaving `path` as it was; frees p. NULL is allowed. */
LFC_API void lfc_pcap_abort(lfc_pcap_t *p);

/* The time of the start of cycle `cycle` on a link of link_gbps Gb/s, in nanoseconds: one cycle
 * is one 64-byte block, 512 bit times (SPEC §1). link_gbps must be > 0. */
LFC_API uint64_t lfc_pcap_cycle_ns(uint64_t cycle, uint32_t link_gbps);

#ifdef __cplusplus
}
#endif

#endif /* LFC_PCAP_H */
