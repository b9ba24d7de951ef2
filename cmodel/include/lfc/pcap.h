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
 * lfc_pcap_cycle_ns to turn a model cycle into time at a link speed. Timestamps mark the first
 * bit of each frame. The file is written under a temporary name in the same directory and
 * renamed into place by lfc_pcap_close, so a failure leaves the old file or none, never a
 * truncated one.
 *
 * Both directions of a link in one file (docs/wire-formats.md §6): a link has a side A and a
 * side B; direction 0 is A to B, 1 is B to A.
 *   ERF       the record's capture interface (flags bits 1:0) is the direction, 0 or 1;
 *   Ethernet  the frame's source address says it: lfc's writers give side S of link L the
 *             locally administered address 02-4C-46-LL-LL-0S (lfc_pcap_side_mac); a reader
 *             given other addresses must be told which belong to side A;
 *   247       no direction can be recorded: such a file holds one direction.
 *
 * lfc_pcap_reader_* reads such files back (and any classic pcap of those link types).
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

/* Directions of a link (the same as lfc/check.h's LFC_CHECK_AB and LFC_CHECK_BA). */
#define LFC_PCAP_DIR_AB 0u
#define LFC_PCAP_DIR_BA 1u
#define LFC_ERF_FLAG_IFACE_MASK 0x03u /* ERF flags bits 1:0: the capture interface */

/*
 * lfc_pcap_write with the direction of the record, dir 0 (A to B) or 1 (B to A): for ERF the
 * capture interface of the record; for Ethernet the frame's source address already says it, and
 * a frame whose source is one of lfc_pcap_side_mac's addresses must name the side dir (else -1:
 * the file would contradict itself); link type 247 cannot record it and refuses dir 1.
 */
LFC_API int lfc_pcap_write_dir(lfc_pcap_t *p, uint64_t ts_ns, lfc_pcap_rec_t kind, uint32_t dir,
                               const uint8_t *frame, size_t len, char *err, size_t errlen);

/* The source address lfc's writers give side `side` (0 = A, 1 = B) of link `link` (its low 16
 * bits): 02-4C-46-LL-LL-0S, locally administered ("LF"). */
LFC_API void lfc_pcap_side_mac(uint32_t link, uint32_t side, uint8_t mac[6]);

/* The side (0 or 1) an address of lfc_pcap_side_mac names, or -1 for any other address. */
LFC_API int lfc_pcap_mac_side(const uint8_t mac[6]);

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

/* ---- reading ---- */

typedef struct lfc_pcap_reader lfc_pcap_reader_t;

/* The largest record the reader takes (pcap's customary maximum snap length). */
#define LFC_PCAP_READ_MAX 262144u

/* One record read. data is valid until the next lfc_pcap_reader_next or close. */
typedef struct {
  uint64_t index;      /* 1 for the file's first record */
  uint64_t offset;     /* byte offset of its record header in the file */
  uint64_t ts_ns;      /* microsecond files are scaled to nanoseconds */
  lfc_pcap_rec_t kind; /* Ethernet; ERF by its type; 247 by length (8 bytes or less: a link
                          packet, an FCP) */
  uint32_t iface;      /* ERF: the capture interface, 0..3; else 0 */
  int dir;             /* 0 or 1 as recorded (ERF: iface if 0 or 1; Ethernet: the side of a
                          lfc_pcap_side_mac source address); -1 when the record does not say */
  const uint8_t *data; /* the frame: Ethernet as captured, IB from the LRH or the FCP on */
  size_t len;
} lfc_pcap_record_t;

/*
 * Open a classic pcap file (microsecond or nanosecond, either byte order) of link type 1, 197
 * or 247. NULL with a one-line reason naming the path in err: it cannot be read, it is shorter
 * than the file header, the magic is not pcap's (a pcapng file is named as such), the major
 * version is not 2, or the link type is another.
 */
LFC_API lfc_pcap_reader_t *lfc_pcap_reader_open(const char *path, char *err, size_t errlen);

/* The file's link type (the low 16 bits of the header's field). */
LFC_API uint32_t lfc_pcap_reader_linktype(const lfc_pcap_reader_t *r);

/* The resolution of the file's timestamps in nanoseconds: 1 for a nanosecond file, 1000 for a
 * microsecond one (whose times ts_ns may be up to 999 ns before the true ones). */
LFC_API uint32_t lfc_pcap_reader_resolution_ns(const lfc_pcap_reader_t *r);

/*
 * The next record into *rec: returns 1, or 0 at the end of the file, or -1 with a one-line
 * reason (path, record number and byte offset, what is wrong) for a bad record: truncated
 * (header or data past the end of the file), a captured length over the original (or over
 * LFC_PCAP_READ_MAX), a frame cut by the snap length (the checkers need whole frames), a
 * timestamp fraction out of range, an ERF record that is short, of a type other than 21 or 25,
 * or whose lengths disagree. After -1 the reader returns -1 again.
 */
LFC_API int lfc_pcap_reader_next(lfc_pcap_reader_t *r, lfc_pcap_record_t *rec, char *err,
                                 size_t errlen);

/* Close and free; NULL is allowed. */
LFC_API void lfc_pcap_reader_close(lfc_pcap_reader_t *r);

#ifdef __cplusplus
}
#endif

#endif /* LFC_PCAP_H */
