/*
 * fuzz_check_pcap.c - libFuzzer target: the pcap reader (cmodel/src/pcap_read.c,
 * lfc_pcap_reader_*) and the protocol checkers it feeds (lfc/check.h: lfc_check_frame, finish,
 * format), the way lfc-check uses them.
 *
 * Input: one byte of settings, then the bytes of a pcap file, written to a temporary file of
 * this process (the reader takes a path). The settings byte:
 *   bits 1:0  the checker's mode: 0 or 1 from the link type (Ethernet PFC, else IB), 2 IB,
 *             3 PFC (a capture of the other mode then has each frame refused)
 *   bit 2     two links, the records alternating between them; else one
 *   bit 3     IB: from_reset, data_vls 2; PFC: frames without FCS, DSCP priorities
 *   bit 4     IB: fcp_period_ns 5300; PFC: a 10 us watchdog, 2000 bytes of headroom
 *   bit 5     max_kept 3 (violations counted beyond those kept)
 *   bit 6     a record that does not say its direction alternates A>B, B>A (else A>B)
 *   bit 7     25 Gb/s (else 100)
 *
 * Checked besides crashes and sanitizer findings, from the contracts of lfc/pcap.h and
 * lfc/check.h:
 *   - the reader agrees with a reference reader of the input bytes written from lfc/pcap.h (and
 *     pcap-savefile(5), the ERF record header): the same verdict on the file header, then record
 *     by record the same result (1, 0, -1) and, for a record, its index, offset, time, kind,
 *     interface, direction and bytes; dir is -1, 0 or 1 and len at most LFC_PCAP_READ_MAX;
 *   - a refusal (NULL or -1) is one non-empty line naming the path; after -1 the reader keeps
 *     returning -1;
 *   - lfc_check_frame returns -1 exactly for the refusals lfc/check.h lists (direction out of
 *     range, a kind of the other mode, a time before the link's previous frame or too large to
 *     count in picoseconds, a frame after finish); lfc_check_error is then one line and every
 *     count (frames, violations, per rule, coverage, kept) is unchanged; otherwise the frames
 *     grow by one and the violations by what it returned;
 *   - finish before the last frame is -1 the same way; at the last frame it is >= 0;
 *   - every kept violation formats (lfc_check_format) to one line, also cut short into a small
 *     buffer; kept = min(violations, max_kept); fields in range.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_parse.h"
#include "lfc/check.h"
#include "lfc/pcap.h"

#define TARGET "check_pcap"
#define ERR_LEN 512u
#define LINE_LEN 1024u
#define PATH_LEN 512u

/* The settings byte. */
#define SET_MODE_MASK 0x03u
#define SET_MODE_IB 2u
#define SET_MODE_PFC 3u
#define SET_TWO_LINKS 0x04u
#define SET_VARIANT_A 0x08u
#define SET_VARIANT_B 0x10u
#define SET_FEW_KEPT 0x20u
#define SET_ALT_DIR 0x40u
#define SET_SLOW 0x80u
#define FEW_KEPT 3u
#define FCP_PERIOD_NS 5300u
#define WATCHDOG_NS 10000u
#define HEADROOM_BYTES 2000u
#define SLOW_MBPS 25000u
#define SMALL_DATA_VLS 2u

/* pcap-savefile(5): the file and record headers, the magics. */
#define REF_MAGIC_US 0xA1B2C3D4u
#define REF_MAGIC_NS 0xA1B23C4Du
#define REF_MAGIC_PCAPNG 0x0A0D0D0Au
#define REF_FILE_HDR 24u
#define REF_REC_HDR 16u
#define REF_NS_PER_S 1000000000ull
#define REF_US_PER_S 1000000ull
#define REF_NS_PER_US 1000u
#define REF_ERF_EXT 8u
#define REF_ETH_SRC 6u
#define REF_IB_LINK_MAX 8u

static char fuzz_path[PATH_LEN];

static void remove_file(void) {
  if (fuzz_path[0]) unlink(fuzz_path);
}

/* The temporary file of this process, made once. */
static int make_path(void) {
  if (fuzz_path[0]) return 0;
  const char *dir = getenv("TMPDIR");
  if (dir == NULL || dir[0] == '\0') dir = "/tmp";
  snprintf(fuzz_path, sizeof fuzz_path, "%s/lfc-fuzz-check-pcap-%ld.pcap", dir, (long)getpid());
  atexit(remove_file);
  /* A path that is not there: refused with one line naming it. */
  char missing[PATH_LEN + 16u], err[ERR_LEN];
  snprintf(missing, sizeof missing, "%s.missing", fuzz_path);
  if (lfc_pcap_reader_open(missing, err, sizeof err) != NULL || !strstr(err, missing) ||
      strchr(err, '\n'))
    fuzz_fail(TARGET, "opening a missing file: '%s'", err);
  return 0;
}

static int write_file(const uint8_t *data, size_t size) {
  FILE *f = fopen(fuzz_path, "wb");
  if (f == NULL) return -1;
  const int bad = size > 0 && fwrite(data, 1, size, f) != size;
  return fclose(f) != 0 || bad ? -1 : 0;
}

/* ---- the reference reader, over the bytes in memory ---- */

typedef struct {
  const uint8_t *b;
  size_t n, off;
  bool swap, nano, failed;
  uint32_t linktype;
  uint64_t index;
} ref_t;

static uint32_t ref32(const ref_t *r, const uint8_t *p) {
  return r->swap ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                 : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}
static uint32_t ref16(const ref_t *r, const uint8_t *p) {
  return r->swap ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

/* 0, or -1 if the reader must refuse the file header. */
static int ref_open(ref_t *r, const uint8_t *b, size_t n) {
  memset(r, 0, sizeof *r);
  r->b = b;
  r->n = n;
  if (n < REF_FILE_HDR) return -1;
  r->swap = false;
  uint32_t m = ref32(r, b);
  if (m != REF_MAGIC_US && m != REF_MAGIC_NS) {
    r->swap = true;
    m = ref32(r, b);
    if (m != REF_MAGIC_US && m != REF_MAGIC_NS) return -1;
  }
  r->nano = m == REF_MAGIC_NS;
  if (ref16(r, b + 4) != 2u) return -1;
  r->linktype = ref32(r, b + 20) & 0xFFFFu;
  if (r->linktype != LFC_PCAP_LINKTYPE_ETHERNET && r->linktype != LFC_PCAP_LINKTYPE_ERF &&
      r->linktype != LFC_PCAP_LINKTYPE_INFINIBAND)
    return -1;
  r->off = REF_FILE_HDR;
  return 0;
}

static int ref_bad(ref_t *r) {
  r->failed = true;
  return -1;
}

static int ref_next(ref_t *r, lfc_pcap_record_t *rec) {
  memset(rec, 0, sizeof *rec);
  if (r->failed) return -1;
  if (r->off == r->n) return 0;
  r->index++;
  rec->index = r->index;
  rec->offset = r->off;
  if (r->n - r->off < REF_REC_HDR) return ref_bad(r);
  const uint8_t *h = r->b + r->off;
  const uint32_t sec = ref32(r, h), frac = ref32(r, h + 4), incl = ref32(r, h + 8),
                 orig = ref32(r, h + 12);
  if (frac >= (r->nano ? REF_NS_PER_S : REF_US_PER_S)) return ref_bad(r);
  if (incl > LFC_PCAP_READ_MAX || incl != orig) return ref_bad(r);
  if (r->n - r->off - REF_REC_HDR < incl) return ref_bad(r);
  const uint8_t *d = h + REF_REC_HDR;
  r->off += REF_REC_HDR + incl;
  rec->ts_ns = (uint64_t)sec * REF_NS_PER_S + (r->nano ? frac : (uint64_t)frac * REF_NS_PER_US);
  rec->dir = -1;
  switch (r->linktype) {
    case LFC_PCAP_LINKTYPE_ETHERNET:
      rec->kind = LFC_PCAP_ETH;
      /* lfc_pcap_side_mac's addresses: 02-4C-46-LL-LL-0S, S the side */
      if (incl >= REF_ETH_SRC + 6u && d[REF_ETH_SRC] == 0x02 && d[REF_ETH_SRC + 1] == 0x4C &&
          d[REF_ETH_SRC + 2] == 0x46 && d[REF_ETH_SRC + 5] <= 1u)
        rec->dir = d[REF_ETH_SRC + 5];
      rec->data = d;
      rec->len = incl;
      return 1;
    case LFC_PCAP_LINKTYPE_INFINIBAND:
      rec->kind = incl <= REF_IB_LINK_MAX ? LFC_PCAP_IB_LINK : LFC_PCAP_IB_DATA;
      rec->data = d;
      rec->len = incl;
      return 1;
    default: { /* ERF: type, flags, rlen, lctr, wlen after the 8-byte timestamp */
      if (incl < LFC_ERF_HEADER_BYTES) return ref_bad(r);
      size_t hdr = LFC_ERF_HEADER_BYTES;
      for (bool more = (d[8] & 0x80u) != 0; more; hdr += REF_ERF_EXT) {
        if (hdr + REF_ERF_EXT > incl) return ref_bad(r);
        more = (d[hdr] & 0x80u) != 0;
      }
      const unsigned type = d[8] & 0x7Fu;
      const size_t rlen = (size_t)d[10] << 8 | d[11], wlen = (size_t)d[14] << 8 | d[15];
      if (type != LFC_ERF_TYPE_INFINIBAND && type != LFC_ERF_TYPE_INFINIBAND_LINK)
        return ref_bad(r);
      if (rlen < hdr || rlen > incl || wlen > rlen - hdr) return ref_bad(r);
      rec->kind = type == LFC_ERF_TYPE_INFINIBAND_LINK ? LFC_PCAP_IB_LINK : LFC_PCAP_IB_DATA;
      rec->iface = d[9] & LFC_ERF_FLAG_IFACE_MASK;
      rec->dir = rec->iface <= 1u ? (int)rec->iface : -1;
      rec->data = d + hdr;
      rec->len = wlen;
      return 1;
    }
  }
}

/* ---- the checker's counts, to compare around a refusal ---- */

typedef struct {
  uint64_t frames, violations, rule[LFC_RULES];
  uint64_t cov[256];
  size_t kept;
} counts_t;

static size_t kept_of(const lfc_check_t *c) {
  size_t i = 0;
  while (lfc_check_violation(c, i) != NULL) i++;
  return i;
}

static void counts(const lfc_check_t *c, counts_t *k) {
  memset(k, 0, sizeof *k);
  k->frames = lfc_check_frames(c);
  k->violations = lfc_check_violations(c);
  for (int r = 0; r < LFC_RULES; r++) k->rule[r] = lfc_check_count(c, (lfc_check_rule_t)r);
  for (size_t p = 0; p < lfc_check_cov_points() && p < 256u; p++) k->cov[p] = lfc_check_cov(c, p);
  k->kept = kept_of(c);
}

static void one_line_error(const lfc_check_t *c, const char *what) {
  const char *e = lfc_check_error(c);
  if (e == NULL || e[0] == '\0' || strchr(e, '\n'))
    fuzz_fail(TARGET, "%s: -1, but lfc_check_error is not one line: '%s'", what, e ? e : "(null)");
}

static void unchanged(const lfc_check_t *c, const counts_t *before, const char *what) {
  counts_t now;
  counts(c, &now);
  if (memcmp(&now, before, sizeof now) != 0)
    fuzz_fail(TARGET, "%s: refused (%s), but the counts changed (frames %llu -> %llu, "
              "violations %llu -> %llu)", what, lfc_check_error(c),
              (unsigned long long)before->frames, (unsigned long long)now.frames,
              (unsigned long long)before->violations, (unsigned long long)now.violations);
}

static void reader_refusal(const char *err, const char *what) {
  if (err[0] == '\0' || strchr(err, '\n') || strstr(err, fuzz_path) == NULL)
    fuzz_fail(TARGET, "%s: refused, but not one line naming the path: '%s'", what, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1u || make_path() != 0) return 0;
  const unsigned set = data[0];
  const uint8_t *file = data + 1;
  const size_t fsize = size - 1u;
  if (write_file(file, fsize) != 0) return 0;

  ref_t ref;
  const int ref_ok = ref_open(&ref, file, fsize);
  char *err = malloc(ERR_LEN); /* exactly ERR_LEN: ASan sees a write past it */
  if (err == NULL) return 0;
  err[0] = '\0';
  lfc_pcap_reader_t *r = lfc_pcap_reader_open(fuzz_path, err, ERR_LEN);
  fuzz_verbose("%s: open %s %s", TARGET, r ? "ok" : "refused", r ? "" : err);
  if ((r != NULL) != (ref_ok == 0))
    fuzz_fail(TARGET, "the file header (%zu bytes) is %s, but the reader %s: '%s'", fsize,
              ref_ok == 0 ? "good" : "bad", r ? "opened it" : "refused it", r ? "" : err);
  if (r == NULL) {
    reader_refusal(err, "open");
    free(err);
    return 0;
  }
  if (lfc_pcap_reader_linktype(r) != ref.linktype)
    fuzz_fail(TARGET, "link type %u, the header says %u", (unsigned)lfc_pcap_reader_linktype(r),
              (unsigned)ref.linktype);

  /* The checker, as the settings byte says. */
  const unsigned mset = set & SET_MODE_MASK;
  const bool eth = ref.linktype == LFC_PCAP_LINKTYPE_ETHERNET;
  const lfc_mode_t mode = mset == SET_MODE_IB    ? LFC_MODE_IB
                          : mset == SET_MODE_PFC ? LFC_MODE_PFC
                          : eth                  ? LFC_MODE_PFC
                                                 : LFC_MODE_IB;
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, mode);
  cfg.links = (set & SET_TWO_LINKS) ? 2u : 1u;
  if (set & SET_FEW_KEPT) cfg.max_kept = FEW_KEPT;
  if (set & SET_SLOW) cfg.speed_mbps = SLOW_MBPS;
  if (mode == LFC_MODE_IB) {
    if (set & SET_VARIANT_A) {
      cfg.from_reset = true;
      cfg.data_vls = SMALL_DATA_VLS;
    }
    if (set & SET_VARIANT_B) cfg.fcp_period_ns = FCP_PERIOD_NS;
  } else {
    if (set & SET_VARIANT_A) {
      cfg.eth_fcs = false;
      cfg.prio_dscp = true;
    }
    if (set & SET_VARIANT_B) {
      cfg.watchdog_ns = WATCHDOG_NS;
      for (unsigned p = 0; p < LFC_PFC_MAX_PRIOS; p++) cfg.headroom_bytes[p] = HEADROOM_BYTES;
    }
  }
  char cerr[ERR_LEN];
  lfc_check_t *c = lfc_check_create(&cfg, cerr, sizeof cerr);
  if (c == NULL) fuzz_fail(TARGET, "a configuration of the settings byte refused: %s", cerr);

  const uint64_t unit = cfg.time_unit_ps;
  bool seen[2] = {false, false};
  uint64_t last_ps[2] = {0, 0};
  uint64_t end = 0; /* the time of the last frame accepted, in the checker's unit */
  bool any = false;
  lfc_pcap_record_t rec, want;
  int got;
  counts_t before, after;
  for (;;) {
    memset(&rec, 0xA5, sizeof rec); /* a field left unset shows */
    got = lfc_pcap_reader_next(r, &rec, err, ERR_LEN);
    const int ref_got = ref_next(&ref, &want);
    if (got != ref_got)
      fuzz_fail(TARGET, "record %llu at byte %llu: the reader returns %d, the reference %d "
                "('%s')", (unsigned long long)want.index, (unsigned long long)want.offset, got,
                ref_got, got < 0 ? err : "");
    if (got != 1) break;
    if (rec.dir < -1 || rec.dir > 1 || rec.len > LFC_PCAP_READ_MAX)
      fuzz_fail(TARGET, "record %llu: dir %d, len %zu", (unsigned long long)rec.index, rec.dir,
                rec.len);
    if (rec.index != want.index || rec.offset != want.offset || rec.ts_ns != want.ts_ns ||
        rec.kind != want.kind || rec.iface != want.iface || rec.dir != want.dir ||
        rec.len != want.len || (rec.len > 0 && memcmp(rec.data, want.data, rec.len) != 0))
      fuzz_fail(TARGET, "record %llu at byte %llu: read as index %llu offset %llu ts %llu kind "
                "%d iface %u dir %d len %zu; the reference: ts %llu kind %d iface %u dir %d "
                "len %zu", (unsigned long long)want.index, (unsigned long long)want.offset,
                (unsigned long long)rec.index, (unsigned long long)rec.offset,
                (unsigned long long)rec.ts_ns, (int)rec.kind, (unsigned)rec.iface, rec.dir,
                rec.len, (unsigned long long)want.ts_ns, (int)want.kind, (unsigned)want.iface,
                want.dir, want.len);

    /* Into the checker, as lfc-check does: a record that does not say its direction is A>B
       (or alternates); an ERF interface 2 or 3 is given as it is (refused). */
    const uint32_t link = (uint32_t)((rec.index - 1u) % cfg.links);
    uint32_t dir = rec.dir >= 0 ? (uint32_t)rec.dir : 0u;
    if (rec.dir < 0 && ref.linktype == LFC_PCAP_LINKTYPE_ERF) dir = rec.iface;
    else if (rec.dir < 0 && (set & SET_ALT_DIR)) dir = (uint32_t)(rec.index & 1u);
    const bool kind_ok = mode == LFC_MODE_IB ? rec.kind != LFC_PCAP_ETH : rec.kind == LFC_PCAP_ETH;
    const bool too_large = rec.ts_ns > UINT64_MAX / unit;
    const bool refuse = dir > 1u || !kind_ok || too_large ||
                        (seen[link] && rec.ts_ns * unit < last_ps[link]);
    counts(c, &before);
    const int v = lfc_check_frame(c, link, dir, rec.ts_ns, rec.kind, rec.data, rec.len);
    fuzz_verbose("%s: record %llu link %u dir %u kind %d len %zu: %d %s", TARGET,
                 (unsigned long long)rec.index, link, dir, (int)rec.kind, rec.len, v,
                 v < 0 ? lfc_check_error(c) : "");
    if (v < -1) fuzz_fail(TARGET, "lfc_check_frame returned %d", v);
    if ((v == -1) != refuse)
      fuzz_fail(TARGET, "record %llu (link %u dir %u kind %d ts %llu): lfc_check_frame %d, but "
                "it should %s ('%s')", (unsigned long long)rec.index, link, dir, (int)rec.kind,
                (unsigned long long)rec.ts_ns, v, refuse ? "be refused" : "be taken",
                lfc_check_error(c));
    if (v == -1) {
      one_line_error(c, "lfc_check_frame");
      unchanged(c, &before, "lfc_check_frame");
      continue;
    }
    counts(c, &after);
    if (after.frames != before.frames + 1u ||
        after.violations != before.violations + (uint64_t)v)
      fuzz_fail(TARGET, "record %llu: lfc_check_frame %d, but frames %llu -> %llu, violations "
                "%llu -> %llu", (unsigned long long)rec.index, v,
                (unsigned long long)before.frames, (unsigned long long)after.frames,
                (unsigned long long)before.violations, (unsigned long long)after.violations);
    seen[link] = true;
    last_ps[link] = rec.ts_ns * unit;
    if (!any || rec.ts_ns > end) end = rec.ts_ns;
    any = true;
  }
  if (got < 0) {
    reader_refusal(err, "lfc_pcap_reader_next");
    for (int again = 0; again < 2; again++) {
      err[0] = '\0';
      if (lfc_pcap_reader_next(r, &rec, err, ERR_LEN) != -1)
        fuzz_fail(TARGET, "after -1 the reader did not return -1 again");
      reader_refusal(err, "lfc_pcap_reader_next after -1");
    }
  }
  lfc_pcap_reader_close(r);

  /* The end: before the last frame refused, at it checked. */
  if (any && end > 0) {
    counts(c, &before);
    if (lfc_check_finish(c, end - 1u) != -1)
      fuzz_fail(TARGET, "finish at %llu, before the last frame at %llu, not refused",
                (unsigned long long)(end - 1u), (unsigned long long)end);
    one_line_error(c, "lfc_check_finish");
    unchanged(c, &before, "lfc_check_finish");
  }
  counts(c, &before);
  const int fin = lfc_check_finish(c, end);
  if (fin < 0) fuzz_fail(TARGET, "finish at the last frame (%llu): %d '%s'",
                         (unsigned long long)end, fin, lfc_check_error(c));
  counts(c, &after);
  if (after.violations != before.violations + (uint64_t)fin)
    fuzz_fail(TARGET, "finish returned %d, but violations %llu -> %llu", fin,
              (unsigned long long)before.violations, (unsigned long long)after.violations);
  /* A frame after the end is refused. */
  static const uint8_t one = 0;
  counts(c, &before);
  if (lfc_check_frame(c, 0, 0, end, mode == LFC_MODE_IB ? LFC_PCAP_IB_DATA : LFC_PCAP_ETH, &one,
                      1u) != -1)
    fuzz_fail(TARGET, "a frame after finish was taken");
  one_line_error(c, "a frame after finish");
  unchanged(c, &before, "a frame after finish");

  /* Every kept violation formats to one line, whole or cut short. */
  const uint64_t total = lfc_check_violations(c);
  const size_t kept = kept_of(c);
  const uint64_t want_kept = total < cfg.max_kept ? total : cfg.max_kept;
  if (kept != want_kept)
    fuzz_fail(TARGET, "%zu violations kept of %llu, max_kept %zu", kept,
              (unsigned long long)total, cfg.max_kept);
  char line[LINE_LEN];
  for (size_t i = 0; i < kept; i++) {
    const lfc_check_violation_t *vi = lfc_check_violation(c, i);
    if (vi->link >= cfg.links || vi->dir > 1u || (unsigned)vi->rule >= LFC_RULES ||
        (vi->cls != LFC_CHECK_NO_CLASS && vi->cls >= LFC_MAX_CLASSES) || vi->time > end)
      fuzz_fail(TARGET, "violation %zu: link %u dir %u rule %d class %u time %llu", i,
                (unsigned)vi->link, (unsigned)vi->dir, (int)vi->rule, (unsigned)vi->cls,
                (unsigned long long)vi->time);
    if (lfc_check_format(c, i, line, sizeof line) != line || line[0] == '\0' ||
        strchr(line, '\n') || strncmp(line, "time=", 5) != 0 || strlen(line) + 1u >= sizeof line)
      fuzz_fail(TARGET, "violation %zu formats to '%s'", i, line);
    const size_t small = 1u + i % 24u;
    char *cut = malloc(small); /* exactly small: ASan sees a write past it */
    if (cut == NULL) break;
    if (lfc_check_format(c, i, cut, small) != cut || strlen(cut) + 1u > small ||
        strncmp(cut, line, small - 1u) != 0)
      fuzz_fail(TARGET, "violation %zu formats into %zu bytes as '%s'", i, small, cut);
    free(cut);
  }
  if (lfc_check_format(c, kept, line, sizeof line) != NULL)
    fuzz_fail(TARGET, "violation %zu formats, but only %zu are kept", kept, kept);
  lfc_check_destroy(c);
  free(err);
  return 0;
}
