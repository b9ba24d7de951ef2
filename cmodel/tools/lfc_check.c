/*
 * lfc_check.c - run the protocol checkers of lfc/check.h over pcap captures and print every
 * violation, one line each, then a summary and the coverage (docs/verify-your-rtl.md).
 *
 *   lfc-check [OPTIONS] CAPTURE.pcap [CAPTURE.pcap ...]
 *
 * Each capture is one link (link 0, 1, ... in the order given) and may hold both of its
 * directions: ERF records carry theirs in the capture interface (0 = A>B, 1 = B>A); Ethernet
 * frames by their source address (lfc's own addresses, lfc_pcap_side_mac; else --mac-a, else
 * the first frame's source is side A); a LINKTYPE_INFINIBAND (247) capture is one direction,
 * A>B. The mode comes from the link type (Ethernet: PFC; ERF and 247: IB) unless --mode says.
 * Times are in nanoseconds, or in microseconds ("us") when a capture is a microsecond pcap: the
 * checker allows one unit of error in each time, and such a capture's are up to 999 ns off.
 *
 * Installed as lfc-check (scripts/install.mk).
 *
 * Exit status: 0 no violation; 1 violations found; 2 bad arguments or a capture that cannot be
 * read (truncated, bad magic, an unsupported link type, records out of time order, a frame cut
 * by the snap length), or an output that cannot be written; one line on standard error.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lfc/check.h"
#include "lfc/pcap.h"
#include "lfc/version.h"

#define EXIT_VIOLATION 1
#define EXIT_BAD 2
#define ERRLEN 512u
#define LINE 1024u
#define MAX_MACS 64u
#define MAX_CAPTURES LFC_CHECK_MAX_LINKS
#define MBPS_PER_GBPS 1000u
#define SPEED_DECIMALS 3u /* --speed-gbps to the Mb/s */
#define DEFAULT_MAX_LINES 1000u
#define ETH_SRC_OFFSET 6u
#define ETH_ADDR_BYTES 6u

static const char *prog = "lfc-check";

static void usage(FILE *f) {
  fprintf(f,
          "Usage: lfc-check [OPTIONS] CAPTURE.pcap [CAPTURE.pcap ...]\n"
          "Check the IB credit or PFC pause rules on captured links (docs/verify-your-rtl.md).\n"
          "Each capture is one link, both directions; prints one line per violation, then a\n"
          "summary. Exit 0 clean, 1 violations, 2 bad input.\n"
          "\n"
          "  --mode ib|pfc          the rules (default: from the link type: Ethernet pfc,\n"
          "                         ERF and InfiniBand ib)\n"
          "  --speed-gbps S         line rate, Gb/s (default 100)\n"
          "  --coverage FILE.json   write the coverage of protocol events as JSON\n"
          "  --max-lines N          violations printed (default 1000; all are counted)\n"
          "  --quiet                print the summary only\n"
          "  --mtu BYTES            IB: largest payload (default 4096); PFC: largest frame\n"
          "                         with FCS (default 9238)\n"
          "IB:\n"
          "  --data-vls N           data VLs in use, 1..15 (default 15)\n"
          "  --fcp-period-ns N      an FCP per VL and direction at least this often (default:\n"
          "                         not checked)\n"
          "  --from-reset           the capture starts at link initialisation: counters at 0\n"
          "PFC:\n"
          "  --mac-a MAC            a source address of side A (repeat for several); default:\n"
          "                         lfc's addresses, else the first frame's source is side A\n"
          "  --no-fcs               Ethernet frames were captured without their FCS\n"
          "  --dscp                 priority from the IP DSCP (DSCP >> 3) instead of the PCP\n"
          "  --lossless MASK        lossless priorities, for reported drops (default 0xff)\n"
          "  --reaction-ns N        reaction budget (default: IEEE 802.3 Annex 31B for the speed)\n"
          "  --skew-ns N[,M]        skew for data A>B [and B>A]: 2 x the one-way delay when the\n"
          "                         capture is at the end that sends the pause (default 0)\n"
          "  --watchdog-ns N        the senders' PFC watchdog may ignore a pause this old\n"
          "  --headroom-bytes N     headroom per priority (P=N,... for one each; default: not\n"
          "                         checked)\n"
          "\n"
          "  --help                 print this help and exit\n"
          "  --version              print the version of lfc and exit\n");
}

/* What the program holds while it runs, freed by release() before any exit: so that a bad input
 * ends with nothing left allocated, and a leak checker (LeakSanitizer in the fuzz target of this
 * command line, tb/fuzz/fuzz_check_args.c, which turns exit into a return) sees only real
 * leaks. */
static struct {
  const char **captures;
  lfc_check_t *check;
  lfc_pcap_reader_t *reader;
  char *copy; /* headroom()'s copy of its value */
} held;

static void release(void) {
  free(held.captures);
  lfc_check_destroy(held.check);
  lfc_pcap_reader_close(held.reader);
  free(held.copy);
  memset(&held, 0, sizeof held);
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", prog);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  release(); /* after the message, which may be the checker's own (lfc_check_error) */
  exit(EXIT_BAD);
}

static uint64_t number(const char *opt, const char *s, uint64_t max) {
  char *end;
  errno = 0;
  if (s[0] < '0' || s[0] > '9') die("%s '%s': give a whole number 0..%" PRIu64, opt, s, max);
  const unsigned long long v = strtoull(s, &end, 0);
  if (errno != 0 || *end != '\0' || v > max) {
    die("%s '%s': give a whole number 0..%" PRIu64, opt, s, max);
  }
  return v;
}

/* Gb/s with up to three decimals, as Mb/s. */
static uint32_t speed(const char *s) {
  uint64_t whole = 0, frac = 0;
  unsigned digits = 0;
  const char *p = s;
  bool any = false;
  for (; *p >= '0' && *p <= '9' && whole < 100000u; p++, any = true)
    whole = whole * 10u + (uint64_t)(*p - '0');
  if (*p == '.') {
    for (p++; *p >= '0' && *p <= '9' && digits < SPEED_DECIMALS; p++, digits++, any = true) {
      frac = frac * 10u + (uint64_t)(*p - '0');
    }
  }
  for (; digits < SPEED_DECIMALS; digits++) frac *= 10u;
  const uint64_t mbps = whole * MBPS_PER_GBPS + frac;
  if (!any || *p != '\0' || mbps < 1u || mbps > 1600u * MBPS_PER_GBPS) {
    die("--speed-gbps '%s': give a rate in Gb/s, 0.001..1600, at most 3 decimals", s);
  }
  return (uint32_t)mbps;
}

static void mac(const char *s, uint8_t out[ETH_ADDR_BYTES]) {
  unsigned v[ETH_ADDR_BYTES];
  char sep[ETH_ADDR_BYTES - 1u];
  char tail;
  if (sscanf(s, "%2x%c%2x%c%2x%c%2x%c%2x%c%2x%c", &v[0], &sep[0], &v[1], &sep[1], &v[2], &sep[2],
             &v[3], &sep[3], &v[4], &sep[4], &v[5], &tail) != 11 ||
      strlen(s) != 17u) {
    die("--mac-a '%s': give an address as aa:bb:cc:dd:ee:ff (or with -)", s);
  }
  for (unsigned i = 0; i + 1u < ETH_ADDR_BYTES; i++) {
    if (sep[i] != ':' && sep[i] != '-') die("--mac-a '%s': separate the bytes with : or -", s);
  }
  for (unsigned i = 0; i < ETH_ADDR_BYTES; i++) out[i] = (uint8_t)v[i];
}

static void headroom(const char *s, lfc_check_cfg_t *cfg) {
  if (strchr(s, '=') == NULL) {
    const uint64_t v = number("--headroom-bytes", s, UINT32_MAX);
    for (unsigned p = 0; p < LFC_PFC_MAX_PRIOS; p++) cfg->headroom_bytes[p] = v;
    return;
  }
  char *copy = held.copy = strdup(s);
  if (copy == NULL) die("out of memory");
  char *save = NULL;
  for (char *item = strtok_r(copy, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(item, '=');
    if (eq == NULL || eq == item) {
      die("--headroom-bytes '%s': give N, or P=N,... with priorities 0..7", s);
    }
    *eq = '\0';
    const uint64_t p = number("--headroom-bytes priority", item, LFC_PFC_MAX_PRIOS - 1u);
    cfg->headroom_bytes[p] = number("--headroom-bytes", eq + 1, UINT32_MAX);
  }
  free(copy);
  held.copy = NULL;
}

typedef struct {
  const char *cov_path;
  size_t max_lines;
  bool quiet;
  int mode; /* -1: from the link type */
  uint8_t macs[MAX_MACS][ETH_ADDR_BYTES];
  unsigned nmacs;
  const char **captures;
  unsigned ncaptures;
} opts_t;

static void parse(int argc, char **argv, opts_t *o, lfc_check_cfg_t *cfg) {
  o->mode = -1;
  o->max_lines = DEFAULT_MAX_LINES;
  lfc_check_cfg_default(cfg, LFC_MODE_PFC);
  cfg->mtu_bytes = 0; /* the mode's default, once the mode is known */
  o->captures = held.captures = calloc((size_t)argc, sizeof *o->captures);
  if (o->captures == NULL) die("out of memory");
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDS_VALUE()                                       \
  do {                                                      \
    if (v == NULL) die("%s needs a value (see --help)", a); \
    i++;                                                    \
  } while (0)
    if (strcmp(a, "--help") == 0) {
      release();
      usage(stdout);
      exit(fflush(stdout) == 0 ? 0 : EXIT_BAD);
    } else if (strcmp(a, "--version") == 0) {
      release();
      printf("lfc-check (lfc) %s\n", lfc_version());
      exit(fflush(stdout) == 0 ? 0 : EXIT_BAD);
    } else if (strcmp(a, "--mode") == 0) {
      NEEDS_VALUE();
      if (strcmp(v, "ib") == 0) {
        o->mode = LFC_MODE_IB;
      } else if (strcmp(v, "pfc") == 0) {
        o->mode = LFC_MODE_PFC;
      } else {
        die("--mode '%s': allowed ib or pfc", v);
      }
    } else if (strcmp(a, "--speed-gbps") == 0) {
      NEEDS_VALUE();
      cfg->speed_mbps = speed(v);
    } else if (strcmp(a, "--coverage") == 0) {
      NEEDS_VALUE();
      o->cov_path = v;
    } else if (strcmp(a, "--max-lines") == 0) {
      NEEDS_VALUE();
      o->max_lines = (size_t)number(a, v, 100000000u);
    } else if (strcmp(a, "--quiet") == 0) {
      o->quiet = true;
    } else if (strcmp(a, "--mtu") == 0) {
      NEEDS_VALUE();
      cfg->mtu_bytes = (uint32_t)number(a, v, 65535u);
    } else if (strcmp(a, "--data-vls") == 0) {
      NEEDS_VALUE();
      cfg->data_vls = (uint32_t)number(a, v, 15u);
    } else if (strcmp(a, "--fcp-period-ns") == 0) {
      NEEDS_VALUE();
      cfg->fcp_period_ns = number(a, v, UINT32_MAX);
    } else if (strcmp(a, "--from-reset") == 0) {
      cfg->from_reset = true;
    } else if (strcmp(a, "--mac-a") == 0) {
      NEEDS_VALUE();
      if (o->nmacs == MAX_MACS) die("--mac-a: at most %u addresses", MAX_MACS);
      mac(v, o->macs[o->nmacs++]);
    } else if (strcmp(a, "--no-fcs") == 0) {
      cfg->eth_fcs = false;
    } else if (strcmp(a, "--dscp") == 0) {
      cfg->prio_dscp = true;
    } else if (strcmp(a, "--lossless") == 0) {
      NEEDS_VALUE();
      cfg->lossless_mask = (uint8_t)number(a, v, 0xFFu);
    } else if (strcmp(a, "--reaction-ns") == 0) {
      NEEDS_VALUE();
      cfg->reaction_ns = number(a, v, UINT32_MAX);
    } else if (strcmp(a, "--skew-ns") == 0) {
      NEEDS_VALUE();
      const char *comma = strchr(v, ',');
      if (comma == NULL) {
        cfg->skew_ns[0] = cfg->skew_ns[1] = number(a, v, UINT32_MAX);
      } else {
        char first[32];
        const size_t n = (size_t)(comma - v);
        if (n == 0 || n >= sizeof first) die("--skew-ns '%s': give N or N,M (ns)", v);
        memcpy(first, v, n);
        first[n] = '\0';
        cfg->skew_ns[0] = number(a, first, UINT32_MAX);
        cfg->skew_ns[1] = number(a, comma + 1, UINT32_MAX);
      }
    } else if (strcmp(a, "--watchdog-ns") == 0) {
      NEEDS_VALUE();
      cfg->watchdog_ns = number(a, v, UINT64_MAX / 2000u);
    } else if (strcmp(a, "--headroom-bytes") == 0) {
      NEEDS_VALUE();
      headroom(v, cfg);
    } else if (a[0] == '-' && a[1] != '\0') {
      die("unknown option '%s' (see --help)", a);
    } else {
      o->captures[o->ncaptures++] = a;
    }
#undef NEEDS_VALUE
  }
  if (o->ncaptures == 0) die("no capture given (see --help)");
  if (o->ncaptures > MAX_CAPTURES) die("%u captures, at most %u", o->ncaptures, MAX_CAPTURES);
}

/* The direction of an Ethernet frame by its source address. */
typedef struct {
  bool first_known;
  uint8_t first[ETH_ADDR_BYTES];
} sides_t;

static uint32_t eth_dir(const opts_t *o, sides_t *s, const lfc_pcap_record_t *r) {
  if (r->dir >= 0) return (uint32_t)r->dir;
  if (r->len < ETH_SRC_OFFSET + ETH_ADDR_BYTES) return LFC_CHECK_AB; /* a runt: flagged anyway */
  const uint8_t *src = r->data + ETH_SRC_OFFSET;
  if (o->nmacs > 0) {
    for (unsigned i = 0; i < o->nmacs; i++) {
      if (memcmp(src, o->macs[i], ETH_ADDR_BYTES) == 0) return LFC_CHECK_AB;
    }
    return LFC_CHECK_BA;
  }
  if (!s->first_known) {
    memcpy(s->first, src, ETH_ADDR_BYTES);
    s->first_known = true;
  }
  return memcmp(src, s->first, ETH_ADDR_BYTES) == 0 ? LFC_CHECK_AB : LFC_CHECK_BA;
}

static int write_coverage(const opts_t *o, const lfc_check_t *c, lfc_mode_t mode) {
  /* Written beside the target and renamed into place: whole or not at all. */
  const size_t n = strlen(o->cov_path) + 32u;
  char *tmp = malloc(n);
  if (tmp == NULL) return -1;
  snprintf(tmp, n, "%s.tmp.%ld", o->cov_path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (f == NULL) {
    free(tmp);
    return -1;
  }
  int bad = fprintf(f, "{\n  \"config\": \"") < 0;
  for (unsigned i = 0; i < o->ncaptures && !bad; i++) {
    for (const char *p = o->captures[i]; *p != '\0' && !bad; p++) {
      /* JSON string: escape what must be */
      if (*p == '"' || *p == '\\') bad = fputc('\\', f) == EOF;
      if (!bad) bad = (unsigned char)*p < 0x20u ? fputc('?', f) == EOF : fputc(*p, f) == EOF;
    }
    if (!bad && i + 1u < o->ncaptures) bad = fputc(' ', f) == EOF;
  }
  bad = bad || fprintf(f,
                       "\",\n  \"sim\": \"lfc-check\",\n  \"mode\": \"%s\",\n  \"frames\": %" PRIu64
                       ",\n  \"coverage\": {\n",
                       mode == LFC_MODE_IB ? "ib" : "pfc", lfc_check_frames(c)) < 0;
  size_t last = 0;
  for (size_t i = 0; i < lfc_check_cov_points(); i++) {
    if (lfc_check_cov_in_mode(i, mode)) last = i;
  }
  for (size_t i = 0; i < lfc_check_cov_points() && !bad; i++) {
    if (!lfc_check_cov_in_mode(i, mode)) continue;
    bad = fprintf(f, "    \"%s\": %" PRIu64 "%s\n", lfc_check_cov_name(i), lfc_check_cov(c, i),
                  i == last ? "" : ",") < 0;
  }
  bad = bad || fprintf(f, "  }\n}\n") < 0;
  bad = fflush(f) != 0 || ferror(f) || bad;
  const int e = errno;
  bad = fclose(f) != 0 || bad;
  if (!bad && rename(tmp, o->cov_path) != 0) bad = true;
  if (bad) {
    unlink(tmp);
    errno = e != 0 ? e : EIO;
  }
  free(tmp);
  return bad ? -1 : 0;
}

int main(int argc, char **argv) {
  opts_t o;
  memset(&o, 0, sizeof o);
  lfc_check_cfg_t cfg;
  parse(argc, argv, &o, &cfg);
  char err[ERRLEN];

  /* The checker counts time in the unit of the coarsest capture: a microsecond pcap's times
   * are up to 999 ns early, and the checker allows one unit of error in each time it is given
   * (lfc/check.h), so in nanoseconds it would flag frames that were in fact on time. Every
   * capture's header is read first for that. */
  uint32_t res_ns = 1;
  for (unsigned link = 0; link < o.ncaptures; link++) {
    lfc_pcap_reader_t *r = held.reader = lfc_pcap_reader_open(o.captures[link], err, sizeof err);
    if (r == NULL) die("%s", err);
    if (lfc_pcap_reader_resolution_ns(r) > res_ns) res_ns = lfc_pcap_reader_resolution_ns(r);
    lfc_pcap_reader_close(r);
    held.reader = NULL;
  }

  /* One capture at a time (a reader holds a buffer of the largest record). The mode is given,
   * or the first capture's link type's; every capture must suit it. */
  lfc_check_t *c = NULL;
  lfc_mode_t mode = LFC_MODE_PFC;
  uint64_t end = 0;
  for (unsigned link = 0; link < o.ncaptures; link++) {
    lfc_pcap_reader_t *r = held.reader = lfc_pcap_reader_open(o.captures[link], err, sizeof err);
    if (r == NULL) die("%s", err);
    const uint32_t linktype = lfc_pcap_reader_linktype(r);
    const bool eth = linktype == LFC_PCAP_LINKTYPE_ETHERNET;
    if (o.mode < 0) o.mode = eth ? LFC_MODE_PFC : LFC_MODE_IB;
    if (o.mode != (eth ? LFC_MODE_PFC : LFC_MODE_IB)) {
      die("%s: link type %u holds %s frames, but the mode is %s", o.captures[link],
          (unsigned)linktype, eth ? "Ethernet" : "InfiniBand",
          o.mode == LFC_MODE_IB ? "ib" : "pfc");
    }
    if (c == NULL) {
      mode = (lfc_mode_t)o.mode;
      lfc_check_cfg_t d;
      lfc_check_cfg_default(&d, mode);
      cfg.mode = mode;
      if (cfg.mtu_bytes == 0) cfg.mtu_bytes = d.mtu_bytes;
      cfg.links = o.ncaptures;
      cfg.max_kept = o.max_lines;
      cfg.time_unit_ps = res_ns * LFC_CHECK_NS_PS;
      cfg.time_label = res_ns == 1u ? "ns" : "us";
      c = held.check = lfc_check_create(&cfg, err, sizeof err);
      if (c == NULL) die("%s", err);
    }
    sides_t sides = {0};
    lfc_pcap_record_t rec;
    uint64_t prev = 0;
    int got;
    while ((got = lfc_pcap_reader_next(r, &rec, err, sizeof err)) == 1) {
      if (rec.ts_ns < prev) {
        die("%s: record %" PRIu64 " at byte %" PRIu64 ": time %" PRIu64
            " ns is before the record before it (%" PRIu64
            " ns): give a capture in time order (reordercap IN OUT)",
            o.captures[link], rec.index, rec.offset, rec.ts_ns, prev);
      }
      prev = rec.ts_ns;
      uint32_t dir = LFC_CHECK_AB;
      if (rec.kind == LFC_PCAP_ETH) {
        dir = eth_dir(&o, &sides, &rec);
      } else if (linktype == LFC_PCAP_LINKTYPE_ERF) {
        if (rec.dir < 0) {
          die("%s: record %" PRIu64 " at byte %" PRIu64
              ": ERF interface %u: lfc-check reads interfaces 0 (A>B) and 1 (B>A)",
              o.captures[link], rec.index, rec.offset, (unsigned)rec.iface);
        }
        dir = (uint32_t)rec.dir;
      }
      const uint64_t t = rec.ts_ns / res_ns; /* a nanosecond capture among microsecond ones:
                                                 rounded down, within the unit allowed */
      if (lfc_check_frame(c, link, dir, t, rec.kind, rec.data, rec.len) < 0) {
        die("%s: record %" PRIu64 ": %s", o.captures[link], rec.index, lfc_check_error(c));
      }
      if (t > end) end = t;
    }
    if (got < 0) die("%s", err);
    lfc_pcap_reader_close(r);
    held.reader = NULL;
  }
  if (lfc_check_finish(c, end) < 0) die("%s", lfc_check_error(c));

  /* The coverage file first: a run whose file could not be written prints nothing else. */
  if (o.cov_path != NULL && write_coverage(&o, c, mode) != 0) {
    die("%s: cannot write: %s", o.cov_path, strerror(errno));
  }
  char line[LINE];
  const uint64_t total = lfc_check_violations(c);
  if (!o.quiet) {
    for (size_t i = 0; lfc_check_format(c, i, line, sizeof line) != NULL; i++) puts(line);
    if (total > o.max_lines) {
      printf("... %" PRIu64 " more violations not printed (--max-lines %zu)\n", total - o.max_lines,
             o.max_lines);
    }
  }
  /* The summary: frames, violations by class, coverage. */
  printf("lfc-check: %s mode at %g Gb/s, %u link%s, %" PRIu64 " frames: %" PRIu64 " violation%s",
         mode == LFC_MODE_IB ? "ib" : "pfc", cfg.speed_mbps / (double)MBPS_PER_GBPS, o.ncaptures,
         o.ncaptures == 1 ? "" : "s", lfc_check_frames(c), total, total == 1 ? "" : "s");
  const char *sep = " (";
  for (int r = 0; r < LFC_RULES; r++) {
    const uint64_t n = lfc_check_count(c, (lfc_check_rule_t)r);
    if (n == 0) continue;
    printf("%s%s %" PRIu64, sep, lfc_check_rule_name((lfc_check_rule_t)r), n);
    sep = ", ";
  }
  printf("%s\n", total > 0 ? ")" : "");
  size_t points = 0, hit = 0;
  for (size_t i = 0; i < lfc_check_cov_points(); i++) {
    if (!lfc_check_cov_in_mode(i, mode)) continue;
    points++;
    if (lfc_check_cov(c, i) > 0) hit++;
  }
  printf("coverage: %zu of %zu points hit%s%s\n", hit, points, o.cov_path ? ", " : "",
         o.cov_path ? o.cov_path : "");
  release(); /* the checker and the list of captures */
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "%s: standard output: cannot write: %s\n", prog, strerror(errno));
    return EXIT_BAD;
  }
  return total > 0 ? EXIT_VIOLATION : 0;
}
