/*
 * pcap.c - classic pcap writer with nanosecond timestamps, Ethernet, ERF and InfiniBand link
 * types (lfc/pcap.h; file format: the pcap man page pcap-savefile(5) and draft-ietf-opsawg-pcap;
 * ERF record: Endace ERF types reference, wiretap/erf_record.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "lfc/pcap.h"
#include "alloc.h"
#include "errtext.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCAP_MAGIC_NS 0xA1B23C4Du
#define PCAP_VERSION_MAJOR 2u
#define PCAP_VERSION_MINOR 4u
#define PCAP_FILE_HEADER_BYTES 24u
#define PCAP_RECORD_HEADER_BYTES 16u
#define NS_PER_S 1000000000ull
#define BITS_PER_CYCLE 512ull /* one 64-byte block (SPEC §1.1) */
#define ERF_FLAG_VLEN 0x04u   /* varying-length record: no padding to 8 bytes */
#define ERF_FRACTION_BITS 32u
#define TMP_SUFFIX ".XXXXXX"
#define FILE_MODE 0666 /* before the umask, as fopen would create it */

struct lfc_pcap {
  FILE *f;
  uint32_t linktype;
  char *path;
  char *tmp;
};

static void put_le16(uint8_t *b, uint16_t v) {
  b[0] = (uint8_t)v;
  b[1] = (uint8_t)(v >> 8);
}
static void put_le32(uint8_t *b, uint32_t v) {
  for (unsigned i = 0; i < 4u; i++) b[i] = (uint8_t)(v >> (8u * i));
}
static void put_le64(uint8_t *b, uint64_t v) {
  for (unsigned i = 0; i < 8u; i++) b[i] = (uint8_t)(v >> (8u * i));
}
static void put_be16(uint8_t *b, uint16_t v) {
  b[0] = (uint8_t)(v >> 8);
  b[1] = (uint8_t)v;
}

static void say(char *err, size_t errlen, const char *fmt, const char *path, const char *what) {
  if (err != NULL && errlen > 0) snprintf(err, errlen, fmt, path, what);
}

static void destroy(lfc_pcap_t *p) {
  free(p->path);
  free(p->tmp);
  free(p);
}

lfc_pcap_t *lfc_pcap_open(const char *path, uint32_t linktype, char *err, size_t errlen) {
  if (linktype != LFC_PCAP_LINKTYPE_ETHERNET && linktype != LFC_PCAP_LINKTYPE_ERF &&
      linktype != LFC_PCAP_LINKTYPE_INFINIBAND) {
    if (err != NULL && errlen > 0) {
      snprintf(err, errlen, "%s: link type %u, allowed 1 (Ethernet), 197 (ERF), 247 (InfiniBand)",
               path, (unsigned)linktype);
    }
    return NULL;
  }
  lfc_pcap_t *p = lfc_calloc(1, sizeof *p);
  if (p == NULL) {
    say(err, errlen, "%s: %s", path, strerror(ENOMEM));
    return NULL;
  }
  p->linktype = linktype;
  p->path = strdup(path);
  p->tmp = lfc_malloc(strlen(path) + sizeof TMP_SUFFIX);
  if (p->path == NULL || p->tmp == NULL) {
    say(err, errlen, "%s: %s", path, strerror(ENOMEM));
    destroy(p);
    return NULL;
  }
  strcpy(p->tmp, path);
  strcat(p->tmp, TMP_SUFFIX);
  const int fd = mkstemp(p->tmp);
  if (fd < 0) {
    say(err, errlen, "%s: cannot create a temporary file beside it: %s", path, strerror(errno));
    destroy(p);
    return NULL;
  }
  /* mkstemp creates the file 0600; give it the mode fopen would. */
  const mode_t mask = umask(0);
  umask(mask);
  p->f = fchmod(fd, FILE_MODE & ~mask) == 0 ? fdopen(fd, "wb") : NULL;
  if (p->f == NULL) {
    say(err, errlen, "%s: %s", path, strerror(errno));
    close(fd);
    unlink(p->tmp);
    destroy(p);
    return NULL;
  }
  uint8_t h[PCAP_FILE_HEADER_BYTES];
  put_le32(h, PCAP_MAGIC_NS);
  put_le16(h + 4, PCAP_VERSION_MAJOR);
  put_le16(h + 6, PCAP_VERSION_MINOR);
  put_le32(h + 8, 0);  /* thiszone: UTC */
  put_le32(h + 12, 0); /* sigfigs */
  put_le32(h + 16, LFC_PCAP_SNAPLEN);
  put_le32(h + 20, linktype);
  if (fwrite(h, 1, sizeof h, p->f) != sizeof h) {
    say(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    lfc_pcap_abort(p);
    return NULL;
  }
  return p;
}

static int kind_fits(uint32_t linktype, lfc_pcap_rec_t kind) {
  if (linktype == LFC_PCAP_LINKTYPE_ETHERNET) return kind == LFC_PCAP_ETH;
  return kind == LFC_PCAP_IB_DATA || kind == LFC_PCAP_IB_LINK;
}

/* The convention of lfc_pcap_side_mac: 02-4C-46 ("LF", locally administered), link, side. */
#define SIDE_MAC_OUI0 0x02u
#define SIDE_MAC_OUI1 0x4Cu
#define SIDE_MAC_OUI2 0x46u
#define SIDE_MAC_LINK_HI 3u
#define SIDE_MAC_LINK_LO 4u
#define SIDE_MAC_SIDE 5u
#define ETH_SRC_OFFSET 6u
#define ETH_ADDR_BYTES 6u

void lfc_pcap_side_mac(uint32_t link, uint32_t side, uint8_t mac[6]) {
  mac[0] = SIDE_MAC_OUI0;
  mac[1] = SIDE_MAC_OUI1;
  mac[2] = SIDE_MAC_OUI2;
  mac[SIDE_MAC_LINK_HI] = (uint8_t)(link >> 8);
  mac[SIDE_MAC_LINK_LO] = (uint8_t)link;
  mac[SIDE_MAC_SIDE] = (uint8_t)(side & 1u);
}

int lfc_pcap_mac_side(const uint8_t mac[6]) {
  if (mac[0] != SIDE_MAC_OUI0 || mac[1] != SIDE_MAC_OUI1 || mac[2] != SIDE_MAC_OUI2 ||
      mac[SIDE_MAC_SIDE] > 1u) {
    return -1;
  }
  return mac[SIDE_MAC_SIDE];
}

int lfc_pcap_write(lfc_pcap_t *p, uint64_t ts_ns, lfc_pcap_rec_t kind, const uint8_t *frame,
                   size_t len, char *err, size_t errlen) {
  return lfc_pcap_write_dir(p, ts_ns, kind, LFC_PCAP_DIR_AB, frame, len, err, errlen);
}

int lfc_pcap_write_dir(lfc_pcap_t *p, uint64_t ts_ns, lfc_pcap_rec_t kind, uint32_t dir,
                       const uint8_t *frame, size_t len, char *err, size_t errlen) {
  if (dir > LFC_PCAP_DIR_BA) {
    lfc_say(err, errlen, "%s: direction %u, allowed 0 (A to B) or 1 (B to A)", p->path,
            (unsigned)dir);
    return -1;
  }
  if (p->linktype == LFC_PCAP_LINKTYPE_INFINIBAND && dir != LFC_PCAP_DIR_AB) {
    lfc_say(err, errlen, "%s: link type 247 cannot record direction 1: write ERF (197)", p->path);
    return -1;
  }
  if (p->linktype == LFC_PCAP_LINKTYPE_ETHERNET && len >= ETH_SRC_OFFSET + ETH_ADDR_BYTES) {
    const int side = lfc_pcap_mac_side(frame + ETH_SRC_OFFSET);
    if (side >= 0 && (uint32_t)side != dir) {
      lfc_say(err, errlen, "%s: a frame from side %c's address written as direction %u", p->path,
              side == 0 ? 'A' : 'B', (unsigned)dir);
      return -1;
    }
  }
  if (!kind_fits(p->linktype, kind)) {
    if (err != NULL && errlen > 0) {
      snprintf(err, errlen, "%s: a record of kind %d does not fit link type %u", p->path,
               (int)kind, (unsigned)p->linktype);
    }
    return -1;
  }
  const size_t erf = p->linktype == LFC_PCAP_LINKTYPE_ERF ? LFC_ERF_HEADER_BYTES : 0u;
  if (len + erf > LFC_PCAP_SNAPLEN) {
    if (err != NULL && errlen > 0) {
      snprintf(err, errlen, "%s: a record of %zu bytes exceeds the snap length %u", p->path,
               len + erf, LFC_PCAP_SNAPLEN);
    }
    return -1;
  }
  const uint64_t sec = ts_ns / NS_PER_S;
  const uint64_t ns = ts_ns % NS_PER_S;
  uint8_t h[PCAP_RECORD_HEADER_BYTES + LFC_ERF_HEADER_BYTES];
  put_le32(h, (uint32_t)sec);
  put_le32(h + 4, (uint32_t)ns);
  put_le32(h + 8, (uint32_t)(len + erf));
  put_le32(h + 12, (uint32_t)(len + erf));
  if (erf != 0) {
    /* ERF timestamp: little-endian 32.32 fixed point seconds. */
    uint8_t *e = h + PCAP_RECORD_HEADER_BYTES;
    put_le64(e, sec << ERF_FRACTION_BITS | (ns << ERF_FRACTION_BITS) / NS_PER_S);
    e[8] = kind == LFC_PCAP_IB_LINK ? LFC_ERF_TYPE_INFINIBAND_LINK : LFC_ERF_TYPE_INFINIBAND;
    e[9] = (uint8_t)(ERF_FLAG_VLEN | (dir & LFC_ERF_FLAG_IFACE_MASK)); /* interface = direction */
    put_be16(e + 10, (uint16_t)(len + erf)); /* rlen: the record with its header */
    put_be16(e + 12, 0);                     /* lctr: no loss */
    put_be16(e + 14, (uint16_t)len);         /* wlen */
  }
  const size_t hl = PCAP_RECORD_HEADER_BYTES + erf;
  if (fwrite(h, 1, hl, p->f) != hl || fwrite(frame, 1, len, p->f) != len) {
    if (err != NULL && errlen > 0) {
      snprintf(err, errlen, "%s: cannot write: %s", p->path, strerror(errno));
    }
    return -1;
  }
  return 0;
}

int lfc_pcap_close(lfc_pcap_t *p, char *err, size_t errlen) {
  FILE *f = p->f;
  p->f = NULL;
  const int flushed = fflush(f);
  const int flush_errno = errno;
  if (fclose(f) != 0 || flushed != 0) {
    say(err, errlen, "%s: cannot write: %s", p->path,
        strerror(flushed != 0 ? flush_errno : errno));
    unlink(p->tmp);
    destroy(p);
    return -1;
  }
  if (rename(p->tmp, p->path) != 0) {
    say(err, errlen, "%s: cannot rename the temporary file into place: %s", p->path,
        strerror(errno));
    unlink(p->tmp);
    destroy(p);
    return -1;
  }
  destroy(p);
  return 0;
}

void lfc_pcap_abort(lfc_pcap_t *p) {
  if (p == NULL) return;
  if (p->f != NULL) fclose(p->f);
  unlink(p->tmp);
  destroy(p);
}

uint64_t lfc_pcap_cycle_ns(uint64_t cycle, uint32_t link_gbps) {
  /* bits / (Gb/s) = ns; whole nanoseconds, rounded down. */
  return cycle * BITS_PER_CYCLE / link_gbps;
}
