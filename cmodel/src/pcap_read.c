/*
 * pcap_read.c - the classic pcap reader of lfc/pcap.h: file and record headers of
 * pcap-savefile(5) / draft-ietf-opsawg-pcap, in microseconds or nanoseconds and either byte
 * order; Ethernet, ERF (the record header of the Endace ERF types reference, extension headers
 * skipped) and InfiniBand link types. Every length is checked against the file before it is
 * used, and every refusal says where and why in one line.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "lfc/pcap.h"
#include "errtext.h"

#define MAGIC_US 0xA1B2C3D4u
#define MAGIC_NS 0xA1B23C4Du
#define MAGIC_PCAPNG 0x0A0D0D0Au /* the section header block type, a palindrome */
#define VERSION_MAJOR 2u
#define FILE_HEADER_BYTES 24u
#define RECORD_HEADER_BYTES 16u
#define LINKTYPE_MASK 0xFFFFu /* the rest of the field carries FCS information */
#define NS_PER_US 1000u
#define NS_PER_S 1000000000u
#define US_PER_S 1000000u
#define ERF_TYPE_MASK 0x7Fu
#define ERF_EXT_FLAG 0x80u   /* type bit 7: an extension header follows */
#define ERF_EXT_BYTES 8u     /* each extension header; bit 7 of its first byte: another */
#define IB_LINK_MAX_BYTES 8u /* an FCP is 6 bytes, 8 with tshark's padding (wire-formats §3) */
#define ETH_SRC_OFFSET 6u
#define ETH_SRC_END 12u
#define PATH_TEXT 4096u /* of a path, for messages */

/* One allocation: the record buffer of the largest record and the path (for messages; a longer
 * one is cut) are part of it. */
struct lfc_pcap_reader {
  FILE *f;
  bool swap, nano, failed;
  uint32_t linktype;
  uint64_t index, offset;
  uint8_t buf[LFC_PCAP_READ_MAX];
  char path[PATH_TEXT];
};

static uint32_t rd32(const uint8_t *b, bool swap) {
  const uint32_t v =
      (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return swap ? ((v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24)) : v;
}
static uint16_t rd16(const uint8_t *b, bool swap) {
  const uint16_t v = (uint16_t)(b[0] | b[1] << 8);
  return swap ? (uint16_t)(v >> 8 | v << 8) : v;
}
static uint16_t be16(const uint8_t *b) { return (uint16_t)(b[0] << 8 | b[1]); }

void lfc_pcap_reader_close(lfc_pcap_reader_t *r) {
  if (r == NULL) return;
  if (r->f != NULL) fclose(r->f);
  free(r);
}

lfc_pcap_reader_t *lfc_pcap_reader_open(const char *path, char *err, size_t errlen) {
  lfc_pcap_reader_t *r = lfc_calloc(1, sizeof *r);
  if (r == NULL) {
    lfc_say(err, errlen, "%s: out of memory", path);
    return NULL;
  }
  snprintf(r->path, sizeof r->path, "%s", path);
  r->f = fopen(path, "rb");
  if (r->f == NULL) {
    lfc_say(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    lfc_pcap_reader_close(r);
    return NULL;
  }
  uint8_t h[FILE_HEADER_BYTES];
  const size_t got = fread(h, 1, sizeof h, r->f);
  if (got >= sizeof(uint32_t) && rd32(h, false) == MAGIC_PCAPNG) {
    lfc_say(err, errlen, "%s: a pcapng file; give a classic pcap (editcap -F pcap IN OUT)", path);
    lfc_pcap_reader_close(r);
    return NULL;
  }
  if (got < sizeof h) {
    lfc_say(err, errlen, "%s: truncated: %zu bytes, a pcap file header is %u", path, got,
            FILE_HEADER_BYTES);
    lfc_pcap_reader_close(r);
    return NULL;
  }
  const uint32_t magic = rd32(h, false);
  if (magic == MAGIC_US || magic == MAGIC_NS) {
    r->swap = false;
  } else if (rd32(h, true) == MAGIC_US || rd32(h, true) == MAGIC_NS) {
    r->swap = true;
  } else {
    lfc_say(err, errlen,
            "%s: bad magic 0x%08" PRIx32
            ": not a pcap file (allowed 0xa1b2c3d4 or 0xa1b23c4d, "
            "either byte order)",
            path, magic);
    lfc_pcap_reader_close(r);
    return NULL;
  }
  r->nano = rd32(h, r->swap) == MAGIC_NS;
  const unsigned major = rd16(h + 4, r->swap), minor = rd16(h + 6, r->swap);
  if (major != VERSION_MAJOR) {
    lfc_say(err, errlen, "%s: pcap version %u.%u, allowed 2.x", path, major, minor);
    lfc_pcap_reader_close(r);
    return NULL;
  }
  r->linktype = rd32(h + 20, r->swap) & LINKTYPE_MASK;
  if (r->linktype != LFC_PCAP_LINKTYPE_ETHERNET && r->linktype != LFC_PCAP_LINKTYPE_ERF &&
      r->linktype != LFC_PCAP_LINKTYPE_INFINIBAND) {
    lfc_say(err, errlen,
            "%s: link type %" PRIu32 ", allowed 1 (Ethernet), 197 (ERF), 247 (InfiniBand)", path,
            r->linktype);
    lfc_pcap_reader_close(r);
    return NULL;
  }
  r->offset = FILE_HEADER_BYTES;
  return r;
}

uint32_t lfc_pcap_reader_linktype(const lfc_pcap_reader_t *r) { return r->linktype; }

uint32_t lfc_pcap_reader_resolution_ns(const lfc_pcap_reader_t *r) {
  return r->nano ? 1u : NS_PER_US;
}

static int bad(lfc_pcap_reader_t *r, char *err, size_t errlen, uint64_t at, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int bad(lfc_pcap_reader_t *r, char *err, size_t errlen, uint64_t at, const char *fmt, ...) {
  char what[192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  lfc_say(err, errlen, "%s: record %" PRIu64 " at byte %" PRIu64 ": %s", r->path, r->index, at,
          what);
  r->failed = true;
  return -1;
}

/* The ERF record in r->buf[0..len): the packet after the header, its type and interface. */
static int erf_record(lfc_pcap_reader_t *r, lfc_pcap_record_t *rec, size_t len, char *err,
                      size_t errlen) {
  const uint8_t *e = r->buf;
  if (len < LFC_ERF_HEADER_BYTES) {
    return bad(r, err, errlen, rec->offset, "an ERF record of %zu bytes, its header is %u", len,
               LFC_ERF_HEADER_BYTES);
  }
  const unsigned type = e[8] & ERF_TYPE_MASK;
  const unsigned flags = e[9];
  const size_t rlen = be16(e + 10), wlen = be16(e + 14);
  size_t hdr = LFC_ERF_HEADER_BYTES;
  for (bool more = (e[8] & ERF_EXT_FLAG) != 0; more; hdr += ERF_EXT_BYTES) {
    if (hdr + ERF_EXT_BYTES > len) {
      return bad(r, err, errlen, rec->offset,
                 "ERF extension headers run past the record (%zu "
                 "bytes)",
                 len);
    }
    more = (e[hdr] & ERF_EXT_FLAG) != 0;
  }
  if (type != LFC_ERF_TYPE_INFINIBAND && type != LFC_ERF_TYPE_INFINIBAND_LINK) {
    return bad(r, err, errlen, rec->offset,
               "ERF type %u, allowed %u (InfiniBand) and %u "
               "(InfiniBand link)",
               type, LFC_ERF_TYPE_INFINIBAND, LFC_ERF_TYPE_INFINIBAND_LINK);
  }
  if (rlen < hdr || rlen > len) {
    return bad(r, err, errlen, rec->offset,
               "ERF rlen %zu, the record holds %zu bytes from a "
               "header of %zu",
               rlen, len, hdr);
  }
  if (wlen > rlen - hdr) {
    return bad(r, err, errlen, rec->offset,
               "ERF wlen %zu but %zu bytes captured: the checkers "
               "need whole packets",
               wlen, rlen - hdr);
  }
  rec->kind = type == LFC_ERF_TYPE_INFINIBAND_LINK ? LFC_PCAP_IB_LINK : LFC_PCAP_IB_DATA;
  rec->iface = flags & LFC_ERF_FLAG_IFACE_MASK;
  rec->dir = rec->iface <= LFC_PCAP_DIR_BA ? (int)rec->iface : -1;
  rec->data = e + hdr;
  rec->len = wlen; /* the packet; any padding of a fixed-length record is not part of it */
  return 1;
}

int lfc_pcap_reader_next(lfc_pcap_reader_t *r, lfc_pcap_record_t *rec, char *err, size_t errlen) {
  if (r->failed) {
    lfc_say(err, errlen, "%s: reading stopped at an earlier error", r->path);
    return -1;
  }
  memset(rec, 0, sizeof *rec);
  uint8_t h[RECORD_HEADER_BYTES];
  const size_t got = fread(h, 1, sizeof h, r->f);
  r->index++;
  rec->index = r->index;
  rec->offset = r->offset;
  if (got == 0 && feof(r->f)) {
    r->index--;
    return 0;
  }
  if (got < sizeof h) {
    if (ferror(r->f)) return bad(r, err, errlen, r->offset, "cannot read: %s", strerror(errno));
    return bad(r, err, errlen, r->offset,
               "truncated: a record header is %u bytes, the file has "
               "%zu",
               RECORD_HEADER_BYTES, got);
  }
  const uint32_t sec = rd32(h, r->swap), frac = rd32(h + 4, r->swap);
  const uint32_t incl = rd32(h + 8, r->swap), orig = rd32(h + 12, r->swap);
  if (frac >= (r->nano ? NS_PER_S : US_PER_S)) {
    return bad(r, err, errlen, r->offset, "timestamp fraction %" PRIu32 " is not below %u", frac,
               r->nano ? NS_PER_S : US_PER_S);
  }
  if (incl > LFC_PCAP_READ_MAX) {
    return bad(r, err, errlen, r->offset, "captured length %" PRIu32 " exceeds %u", incl,
               LFC_PCAP_READ_MAX);
  }
  if (incl > orig) {
    return bad(r, err, errlen, r->offset,
               "captured length %" PRIu32
               " exceeds the original "
               "length %" PRIu32,
               incl, orig);
  }
  if (incl < orig) {
    return bad(r, err, errlen, r->offset,
               "%" PRIu32 " of %" PRIu32
               " bytes captured (snap "
               "length): the checkers need whole frames",
               incl, orig);
  }
  const size_t data = fread(r->buf, 1, incl, r->f);
  if (data < incl) {
    if (ferror(r->f)) return bad(r, err, errlen, r->offset, "cannot read: %s", strerror(errno));
    return bad(r, err, errlen, r->offset,
               "truncated: %" PRIu32
               " bytes announced, the file has "
               "%zu",
               incl, data);
  }
  r->offset += RECORD_HEADER_BYTES + incl;
  rec->ts_ns = (uint64_t)sec * NS_PER_S + (r->nano ? frac : (uint64_t)frac * NS_PER_US);
  rec->dir = -1;
  if (r->linktype == LFC_PCAP_LINKTYPE_ERF) return erf_record(r, rec, incl, err, errlen);
  rec->data = r->buf;
  rec->len = incl;
  if (r->linktype == LFC_PCAP_LINKTYPE_ETHERNET) {
    rec->kind = LFC_PCAP_ETH;
    if (incl >= ETH_SRC_END) rec->dir = lfc_pcap_mac_side(r->buf + ETH_SRC_OFFSET);
  } else {
    rec->kind = incl <= IB_LINK_MAX_BYTES ? LFC_PCAP_IB_LINK : LFC_PCAP_IB_DATA;
  }
  return 1;
}
