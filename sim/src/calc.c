/*
 * calc.c - the headroom and credit calculators (docs/SPEC.md §11, §5.3; docs/calculators.md).
 *
 * Physical units become lfc's units like this (SPEC §1): one cycle is the time of one 64-byte
 * block (512 bits) at the port's speed, so k = 1; one PFC pause quantum (512 bit times) is one
 * cycle; the cable delay in cycles is rounded up (never underestimated) and is at least 1
 * (SPEC §12.1: a link of delay 1 is a wire between two registers).
 */
#include "calc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lfc/check.h" /* lfc_check_reaction_quanta: the Annex 31B table */
#include "lfc/parse.h" /* lfc_parse_int: the project's one integer reader */
#include "lfc/types.h"
#include "lfc/wire_ib_data.h" /* header sizes */

#define CALC_EXIT_OK 0
#define CALC_EXIT_USAGE 2
#define CALC_BITS_PER_BLOCK (LFC_BLOCK_BYTES * 8u) /* 512 */
#define CALC_PS_PER_NS 1000u
#define CALC_MM_PER_M 1000u
#define CALC_MBPS_PER_GBPS 1000u
#define CALC_DEFAULT_CELL_BYTES LFC_BLOCK_BYTES
#define CALC_XOFF_REACTION_BLOCKS 2u /* SPEC §11: counters registered, then the frame's slot */
#define CALC_FIXED_DECIMALS 3u       /* Gb/s and metres are read with up to 3 decimals */
#define CALC_PCT 100.0
#define CALC_IB_MTU_PAYLOAD_MAX 4096u /* IBA vol. 1: the largest of the MTUs 256..4096 */

/* The peer's default response: IEEE 802.3 Annex 31B.3.7's pause_quanta per speed, from the
 * library's table (lfc_check_reaction_quanta, lfc/check.h: the values SONiC tabulates, not
 * checked against the standard's text; the command line says so whenever it uses one). A speed
 * the table has no row for (2.5, 56, 1600 Gb/s: lfc-sim accepts any speed of its range) gets the
 * longer response time of the two rows either side (the one row past either end of the table),
 * converted to quanta at its own speed and rounded up: the table's times do not grow or shrink
 * monotonically with speed (10 Gb/s 3430 ns, 25 Gb/s 1638 ns, 100 Gb/s 2017 ns), so the longer
 * of the neighbours is the conservative choice for headroom; past 800 Gb/s the 800 Gb/s time is
 * kept, an extrapolation the output names. */

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0u); }

uint64_t lfc_headroom_blocks(uint32_t mtu_blocks, uint64_t delay, uint64_t response, uint32_t k) {
  if (k == 0u) k = 1u;
  return 2u * (uint64_t)mtu_blocks - 1u + ceil_div(2u * delay + response + 2u, k);
}

uint64_t lfc_credit_blocks(uint32_t mtu_blocks, uint64_t delay, uint32_t k) {
  if (k == 0u) k = 1u;
  return ceil_div(2u * delay + 2u, k) + mtu_blocks;
}

uint64_t lfc_credit_blocks_switch(uint32_t mtu_blocks, uint64_t delay, uint64_t latency,
                                  int cut_through, uint32_t k) {
  if (k == 0u) k = 1u;
  uint64_t mtu_cycles = (uint64_t)mtu_blocks * k;
  uint64_t held = latency + (cut_through ? 0u : mtu_cycles); /* first block in to first out */
  return ceil_div(2u * delay + 2u + held + mtu_cycles, k) + mtu_blocks;
}

uint64_t lfc_headroom_blocks_line(uint64_t h, uint32_t mtu_blocks) {
  if (mtu_blocks < 2u) return h;
  return h + 1u + ceil_div(h, mtu_blocks - 1u);
}

uint64_t lfc_credit_blocks_holdoff(uint64_t c, uint32_t fcp_holdoff, uint32_t k) {
  if (k == 0u) k = 1u;
  return c + ceil_div(fcp_holdoff, k);
}

uint64_t lfc_flow_hold_blocks(uint32_t mtu_blocks, uint64_t latency, int cut_through, uint32_t k) {
  if (k == 0u) k = 1u;
  return ceil_div(latency, k) + mtu_blocks + (cut_through ? 1u : (uint64_t)mtu_blocks);
}

/* Row r's response time is longer than row s's: quanta_r / mbps_r > quanta_s / mbps_s, compared
 * by cross-multiplying (exact in 64 bits: quanta < 2^16, Mb/s < 2^32). */
static int row_slower(size_t r, size_t s) {
  return (uint64_t)lfc_check_reaction_quanta(lfc_check_reaction_speed(r)) *
             lfc_check_reaction_speed(s) >
         (uint64_t)lfc_check_reaction_quanta(lfc_check_reaction_speed(s)) *
             lfc_check_reaction_speed(r);
}

int lfc_calc_default_quanta(uint32_t speed_mbps, uint32_t *quanta, uint32_t *row_mbps) {
  if (speed_mbps == 0u) return -1;
  const uint32_t q = lfc_check_reaction_quanta(speed_mbps);
  if (q != 0u) {
    *quanta = q;
    if (row_mbps != NULL) *row_mbps = speed_mbps;
    return 0;
  }
  /* No row: the rows either side (the table is sorted by speed), or the one row at an end. */
  size_t rows = 0, above = 0;
  while (lfc_check_reaction_speed(rows) != 0u) rows++;
  while (above != rows && lfc_check_reaction_speed(above) < speed_mbps) above++;
  size_t row = above == rows ? rows - 1u : above;
  if (above != 0u && above != rows && row_slower(above - 1u, above)) row = above - 1u;
  /* The same time at this speed: quanta scale with the bit rate; rounded up, so never shorter. */
  const uint32_t row_speed = lfc_check_reaction_speed(row);
  const uint64_t bits = (uint64_t)lfc_check_reaction_quanta(row_speed) * speed_mbps;
  const uint64_t derived = bits / row_speed + (bits % row_speed != 0u);
  *quanta = derived > LFC_CALC_MAX_QUANTA ? LFC_CALC_MAX_QUANTA : (uint32_t)derived;
  if (row_mbps != NULL) *row_mbps = row_speed;
  return 1;
}

/* A speed in Mb/s as text in Gb/s ("100", "2.5", "0.1"). */
static void fmt_gbps(char *buf, size_t len, uint32_t mbps) {
  if (mbps % CALC_MBPS_PER_GBPS == 0u)
    snprintf(buf, len, "%" PRIu32, mbps / CALC_MBPS_PER_GBPS);
  else
    snprintf(buf, len, "%g", (double)mbps / CALC_MBPS_PER_GBPS);
}

/* The speeds of the Annex 31B table, in Gb/s, for error messages. */
static void fmt_known_speeds(char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; lfc_check_reaction_speed(i) != 0u && used < len; i++) {
    char g[32];
    fmt_gbps(g, sizeof g, lfc_check_reaction_speed(i));
    int n = snprintf(buf + used, len - used, "%s%s", i ? " " : "", g);
    if (n < 0) break;
    used += (size_t)n;
  }
}

/* Speed, cable, MTU: the inputs both calculators share. */
static int check_link(uint32_t speed_mbps, uint32_t cable_mm, uint32_t mtu_bytes, char *err,
                      size_t errlen) {
  if (speed_mbps < LFC_CALC_MIN_SPEED_MBPS || speed_mbps > LFC_CALC_MAX_SPEED_MBPS) {
    snprintf(err, errlen, "speed %" PRIu32 " Mb/s is not allowed: give 0.001..3200 Gb/s",
             speed_mbps);
    return -1;
  }
  if (cable_mm > LFC_CALC_MAX_CABLE_MM) {
    snprintf(err, errlen, "cable %" PRIu32 " mm is not allowed: give 0..10000 m", cable_mm);
    return -1;
  }
  if (mtu_bytes < LFC_CALC_MIN_MTU_BYTES || mtu_bytes > LFC_CALC_MAX_MTU_BYTES) {
    snprintf(err, errlen, "MTU %" PRIu32 " bytes is not allowed: give %u..%u bytes", mtu_bytes,
             LFC_CALC_MIN_MTU_BYTES, LFC_CALC_MAX_MTU_BYTES);
    return -1;
  }
  return 0;
}

/*
 * One-way cable delay in cycles: cable_ns / cycle_ns rounded up, at least 1. In integers:
 * cable_ps = cable_mm * 5 (5 ns/m), cycle_ps = 512 * 10^6 / speed_mbps, so
 * D = ceil(cable_mm * 5 * speed_mbps / (512 * 10^6)).
 */
static uint64_t cable_delay_cycles(uint32_t speed_mbps, uint32_t cable_mm) {
  uint64_t num = (uint64_t)cable_mm * LFC_CALC_CABLE_NS_PER_M * speed_mbps;
  uint64_t den = (uint64_t)CALC_BITS_PER_BLOCK * CALC_MM_PER_M * CALC_MBPS_PER_GBPS;
  uint64_t d = ceil_div(num, den);
  return d < 1u ? 1u : d;
}

static double cycle_ns_of(uint32_t speed_mbps) {
  return (double)CALC_BITS_PER_BLOCK * CALC_MBPS_PER_GBPS / (double)speed_mbps;
}

static double cable_ns_of(uint32_t cable_mm) {
  return (double)cable_mm * LFC_CALC_CABLE_NS_PER_M / CALC_MM_PER_M;
}

int lfc_headroom_calc(const lfc_headroom_in_t *in, lfc_headroom_t *out, char *err,
                      size_t errlen) {
  memset(out, 0, sizeof *out);
  if (check_link(in->speed_mbps, in->cable_mm, in->mtu_bytes, err, errlen) != 0) return -1;
  uint32_t cell = in->cell_bytes ? in->cell_bytes : CALC_DEFAULT_CELL_BYTES;
  if (cell > LFC_CALC_MAX_CELL_BYTES) {
    snprintf(err, errlen, "cell %" PRIu32 " bytes is not allowed: give 1..%u bytes", cell,
             LFC_CALC_MAX_CELL_BYTES);
    return -1;
  }
  uint32_t quanta = in->response_quanta;
  out->response_default = !in->response_given;
  if (!in->response_given &&
      lfc_calc_default_quanta(in->speed_mbps, &quanta, &out->response_row_mbps) < 0) {
    snprintf(err, errlen, "no default response time for 0 Mb/s: give --response-quanta 0..%u",
             LFC_CALC_MAX_QUANTA);
    return -1;
  }
  if (quanta > LFC_CALC_MAX_QUANTA) {
    snprintf(err, errlen, "response %" PRIu32 " quanta is not allowed: give 0..%u", quanta,
             LFC_CALC_MAX_QUANTA);
    return -1;
  }
  out->cycle_ns = cycle_ns_of(in->speed_mbps);
  out->cable_ns = cable_ns_of(in->cable_mm);
  out->delay_cycles = cable_delay_cycles(in->speed_mbps, in->cable_mm);
  out->mtu_blocks = (uint32_t)ceil_div(in->mtu_bytes, LFC_BLOCK_BYTES);
  out->response_quanta = quanta;
  out->response_cycles = quanta; /* one quantum = 512 bit times = one block time (SPEC §1.1) */
  out->our_mtu_blocks = out->mtu_blocks;
  out->peer_mtu_blocks = out->mtu_blocks - 1u;
  out->cable_blocks = 2u * out->delay_cycles;
  out->response_blocks = out->response_cycles;
  out->reaction_blocks = CALC_XOFF_REACTION_BLOCKS;
  out->headroom_blocks = out->our_mtu_blocks + out->peer_mtu_blocks + out->cable_blocks +
                         out->response_blocks + out->reaction_blocks;
  out->headroom_bytes = out->headroom_blocks * LFC_BLOCK_BYTES;
  out->cell_bytes = cell;
  out->headroom_cells = ceil_div(out->headroom_bytes, cell);
  return 0;
}

int lfc_credits_calc(const lfc_credits_in_t *in, lfc_credits_t *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  uint32_t mtu = in->mtu_bytes ? in->mtu_bytes : LFC_CALC_IB_MTU_BYTES;
  if (check_link(in->speed_mbps, in->cable_mm, mtu, err, errlen) != 0) return -1;
  if (in->latency_ps > LFC_CALC_MAX_LATENCY_PS) {
    snprintf(err, errlen, "latency %" PRIu32 " ps is not allowed: give 0..100000 ns",
             in->latency_ps);
    return -1;
  }
  out->cycle_ns = cycle_ns_of(in->speed_mbps);
  out->cable_ns = cable_ns_of(in->cable_mm);
  out->delay_cycles = cable_delay_cycles(in->speed_mbps, in->cable_mm);
  out->mtu_blocks = (uint32_t)ceil_div(mtu, LFC_BLOCK_BYTES);
  out->rtt_blocks = 2u * out->delay_cycles + 2u;
  out->need_blocks = out->rtt_blocks + out->mtu_blocks;
  out->need_bytes = out->need_blocks * LFC_BLOCK_BYTES;
  /* Latency in cycles, rounded up: ceil(latency_ps * speed_mbps / (512 * 10^6)); SPEC §3.1
   * allows 1..4095, so at least 1. */
  uint64_t lat = ceil_div((uint64_t)in->latency_ps * in->speed_mbps,
                          (uint64_t)CALC_BITS_PER_BLOCK * CALC_PS_PER_NS * CALC_MBPS_PER_GBPS);
  out->latency_cycles = lat < 1u ? 1u : lat;
  out->saf_blocks = in->cut_through ? 0u : out->mtu_blocks;
  out->fcp_wait_blocks = out->mtu_blocks;
  out->need_switch_blocks =
      out->need_blocks + out->latency_cycles + out->saf_blocks + out->fcp_wait_blocks;
  out->need_switch_bytes = out->need_switch_blocks * LFC_BLOCK_BYTES;
  out->window_blocks = LFC_CREDIT_WINDOW;
  out->window_limits = out->need_blocks > out->window_blocks;
  out->window_limits_switch = out->need_switch_blocks > out->window_blocks;
  /* At most one window of blocks per credit round trip. */
  double pct = CALC_PCT * (double)out->window_blocks / (double)out->rtt_blocks;
  out->max_rate_pct = pct > CALC_PCT ? CALC_PCT : pct;
  return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* The command line                                                                          */
/* ---------------------------------------------------------------------------------------- */

static void headroom_usage(FILE *f) {
  fprintf(f,
          "usage: lfc-sim headroom --speed-gbps S --cable-m L --mtu M [--response-quanta Q]\n"
          "                        [--cell B]\n"
          "\n"
          "The smallest PFC headroom per lossless priority group that never drops, per\n"
          "docs/SPEC.md §11: 2*mtu-1 + 2*D + R + 2 blocks of 64 bytes, with D the one-way cable\n"
          "delay and R the peer's response time in block times at the link speed. Prints each\n"
          "term in blocks, bytes and ns, the total in cells, and the XOFF point.\n"
          "\n"
          "  --speed-gbps S       link speed in Gb/s, 0.001..3200 (up to 3 decimals, e.g. 2.5)\n"
          "  --cable-m L          cable length in metres, 0..10000 (up to 3 decimals);\n"
          "                       %u ns/m propagation\n"
          "  --mtu M              largest frame in bytes, %u..%u (rounded up to 64-byte blocks)\n"
          "  --response-quanta Q  peer response time in pause quanta (512 bit times), 0..%u;\n"
          "                       default: IEEE 802.3 Annex 31B for the speed (0.1 1 10 25 40\n"
          "                       50 100 200 400 800 Gb/s; values as tabulated by SONiC, not\n"
          "                       checked against the standard); another speed takes the\n"
          "                       longer time of the rows either side, in its own quanta\n"
          "  --cell B             buffer cell size in bytes for the cell count, 1..%u\n"
          "                       (default 64, lfc's block)\n"
          "  --help               this text\n"
          "\n"
          "Bad or missing values: one line on stderr, exit status 2.\n",
          LFC_CALC_CABLE_NS_PER_M, LFC_CALC_MIN_MTU_BYTES, LFC_CALC_MAX_MTU_BYTES,
          LFC_CALC_MAX_QUANTA, LFC_CALC_MAX_CELL_BYTES);
}

static void credits_usage(FILE *f) {
  fprintf(f,
          "usage: lfc-sim credits --speed-gbps S --cable-m L [--mtu M] [--latency-ns T]\n"
          "                       [--cut-through]\n"
          "\n"
          "The per-VL receive buffer, in 64-byte IB credits, that keeps a link at line rate:\n"
          "bandwidth x round trip, 2*D + 2 blocks, plus one MTU packet (docs/SPEC.md §11) for\n"
          "an end node; for an lfc switch ingress also the time a packet stays charged in the\n"
          "switch and an FCP waiting behind a packet. Says whether the 2048-block credit\n"
          "window of SPEC §5.3 caps either.\n"
          "\n"
          "  --speed-gbps S   link speed in Gb/s, 0.001..3200 (up to 3 decimals)\n"
          "  --cable-m L      cable length in metres, 0..10000 (up to 3 decimals); %u ns/m\n"
          "  --mtu M          largest packet in bytes with headers, %u..%u (default %u: a\n"
          "                   4096-byte payload, 65 blocks, docs/packet-sizes.md)\n"
          "  --latency-ns T   the switch's pipeline latency in ns, 0..100000 (default 0,\n"
          "                   counted as the minimum of 1 cycle, SPEC §3.1)\n"
          "  --cut-through    the switch forwards cut-through (default store-and-forward)\n"
          "  --help           this text\n"
          "\n"
          "Bad or missing values: one line on stderr, exit status 2.\n",
          LFC_CALC_CABLE_NS_PER_M, LFC_CALC_MIN_MTU_BYTES, LFC_CALC_MAX_MTU_BYTES,
          LFC_CALC_IB_MTU_BYTES);
}

/* What is wrong with a number (parse_fixed, parse_uint; lfc_parse_int's -1 and -2). */
#define CALC_NUM_SYNTAX (-1)   /* not a number */
#define CALC_NUM_RANGE (-2)    /* outside the allowed range (negative too) */
#define CALC_NUM_DECIMALS (-3) /* more decimals than CALC_FIXED_DECIMALS */

/*
 * A non-negative decimal with up to CALC_FIXED_DECIMALS decimals, scaled by 10^decimals
 * ("2.5" -> 2500), into [lo, hi] (scaled). Returns 0 or a CALC_NUM_ error. Read by hand rather
 * than with strtod: no exponent, hex float, NaN or infinity, and no rounding of 0.0001.
 */
static int parse_fixed(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  uint64_t v = 0;
  unsigned frac = 0;
  int dot = 0, digits = 0, negative = *s == '-', large = 0;
  for (const char *p = s + negative; *p != '\0'; p++) {
    if (*p == '.' && !dot) {
      dot = 1;
      continue;
    }
    if (*p < '0' || *p > '9') return CALC_NUM_SYNTAX;
    if (dot && ++frac > CALC_FIXED_DECIMALS) return CALC_NUM_DECIMALS;
    if (v > UINT32_MAX) large = 1; /* far beyond every range here */
    else v = v * 10u + (uint64_t)(*p - '0');
    digits++;
  }
  if (digits == 0) return CALC_NUM_SYNTAX;
  for (; frac < CALC_FIXED_DECIMALS; frac++) v *= 10u;
  if (negative || large || v < lo || v > hi) return CALC_NUM_RANGE;
  *out = v;
  return 0;
}

/* A whole number in [lo, hi], read by lfc_parse_int like every integer of lfc-sim's command
   line and scenarios (decimal, 0x hex, 0b binary; nothing after it). Returns 0 or a CALC_NUM_
   error. */
static int parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  int64_t v;
  int rc = lfc_parse_int(s, (int64_t)lo, (int64_t)hi, &v);
  if (rc != 0) return rc == -2 ? CALC_NUM_RANGE : CALC_NUM_SYNTAX;
  *out = (uint64_t)v;
  return 0;
}

typedef enum {
  OPT_SPEED,
  OPT_CABLE,
  OPT_MTU,
  OPT_QUANTA,
  OPT_CELL,
  OPT_LATENCY,
  OPT_CUT_THROUGH,
  OPT_COUNT
} opt_id_t;

typedef struct {
  const char *name;
  int fixed;          /* 1: decimal with 3 decimals, 0: whole number, -1: a flag (no value) */
  uint64_t lo, hi;    /* allowed range, scaled like the value */
  const char *allowed; /* the range as the user writes it */
} opt_def_t;

static const opt_def_t OPTS[OPT_COUNT] = {
    [OPT_SPEED] = {"--speed-gbps", 1, LFC_CALC_MIN_SPEED_MBPS, LFC_CALC_MAX_SPEED_MBPS,
                   "a speed in Gb/s, 0.001..3200, up to 3 decimals"},
    [OPT_CABLE] = {"--cable-m", 1, 0u, LFC_CALC_MAX_CABLE_MM,
                   "a length in metres, 0..10000, up to 3 decimals"},
    [OPT_MTU] = {"--mtu", 0, LFC_CALC_MIN_MTU_BYTES, LFC_CALC_MAX_MTU_BYTES,
                 "a whole number of bytes, 64..16320"},
    [OPT_QUANTA] = {"--response-quanta", 0, 0u, LFC_CALC_MAX_QUANTA,
                    "a whole number of pause quanta, 0..65535"},
    [OPT_CELL] = {"--cell", 0, 1u, LFC_CALC_MAX_CELL_BYTES, "a whole number of bytes, 1..65536"},
    [OPT_LATENCY] = {"--latency-ns", 1, 0u, LFC_CALC_MAX_LATENCY_PS,
                     "a time in ns, 0..100000, up to 3 decimals"},
    [OPT_CUT_THROUGH] = {"--cut-through", -1, 0u, 0u, "no value"},
};

typedef struct {
  int given[OPT_COUNT];
  uint64_t val[OPT_COUNT];
} opt_vals_t;

#define CALC_ERR(...)                                      \
  do {                                                     \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
    return -1;                                             \
  } while (0)

/*
 * Parses argv[1..] into v, accepting the options whose bits are set in `allowed`. Returns 0,
 * 1 for --help, or -1 with one line in err.
 */
static int parse_opts(const char *prog, int argc, char **argv, unsigned allowed, opt_vals_t *v,
                      char *err, size_t errlen) {
  memset(v, 0, sizeof *v);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) return 1;
    const char *eq = strchr(a, '=');
    size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
    int id = -1;
    for (int o = 0; o < OPT_COUNT; o++)
      if ((allowed & (1u << o)) && strlen(OPTS[o].name) == nlen &&
          strncmp(a, OPTS[o].name, nlen) == 0)
        id = o;
    if (id < 0) {
      char names[256];
      size_t used = 0;
      names[0] = '\0';
      for (int o = 0; o < OPT_COUNT; o++)
        if (allowed & (1u << o)) {
          int n = snprintf(names + used, sizeof names - used, "%s ", OPTS[o].name);
          if (n > 0 && (size_t)n < sizeof names - used) used += (size_t)n;
        }
      CALC_ERR("%s: unknown option '%.60s' (allowed: %s--help)", prog, a, names);
    }
    const opt_def_t *d = &OPTS[id];
    if (d->fixed < 0) {
      if (eq) CALC_ERR("%s: %s takes no value (not '%.60s')", prog, d->name, eq + 1);
      v->given[id] = 1;
      continue;
    }
    const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
    if (val == NULL) CALC_ERR("%s: %s needs a value: %s", prog, d->name, d->allowed);
    if (v->given[id]) CALC_ERR("%s: %s given twice: give it once", prog, d->name);
    int rc = d->fixed ? parse_fixed(val, d->lo, d->hi, &v->val[id])
                      : parse_uint(val, d->lo, d->hi, &v->val[id]);
    if (rc != 0)
      CALC_ERR("%s: %s '%.60s' is not allowed: %s; give %s", prog, d->name, val,
               rc == CALC_NUM_RANGE      ? "out of range"
               : rc == CALC_NUM_DECIMALS ? "too many decimals"
               : d->fixed                ? "not a number"
                                         : "not a whole number",
               d->allowed);
    v->given[id] = 1;
  }
  return 0;
}

static int require(const char *prog, const opt_vals_t *v, opt_id_t id, char *err,
                   size_t errlen) {
  if (v->given[id]) return 0;
  CALC_ERR("%s: %s is required: %s (try --help)", prog, OPTS[id].name, OPTS[id].allowed);
}

int lfc_calc_parse(int argc, char **argv, lfc_calc_args_t *a, char *err, size_t errlen) {
  memset(a, 0, sizeof *a);
  if (argc < 1 || argv[0] == NULL)
    CALC_ERR("lfc-sim: no calculator named: give headroom or credits");
  opt_vals_t v;
  if (strcmp(argv[0], "headroom") == 0) {
    const char *prog = "lfc-sim headroom";
    unsigned allowed = (1u << OPT_SPEED) | (1u << OPT_CABLE) | (1u << OPT_MTU) |
                       (1u << OPT_QUANTA) | (1u << OPT_CELL);
    a->kind = LFC_CALC_HEADROOM;
    int rc = parse_opts(prog, argc, argv, allowed, &v, err, errlen);
    if (rc == 1) a->help = 1;
    if (rc != 0) return rc < 0 ? -1 : 0;
    if (require(prog, &v, OPT_SPEED, err, errlen) || require(prog, &v, OPT_CABLE, err, errlen) ||
        require(prog, &v, OPT_MTU, err, errlen))
      return -1;
    a->headroom = (lfc_headroom_in_t){
        .speed_mbps = (uint32_t)v.val[OPT_SPEED],
        .cable_mm = (uint32_t)v.val[OPT_CABLE],
        .mtu_bytes = (uint32_t)v.val[OPT_MTU],
        .response_given = v.given[OPT_QUANTA],
        .response_quanta = (uint32_t)v.val[OPT_QUANTA],
        .cell_bytes = v.given[OPT_CELL] ? (uint32_t)v.val[OPT_CELL] : CALC_DEFAULT_CELL_BYTES,
    };
    return 0;
  }
  if (strcmp(argv[0], "credits") == 0) {
    const char *prog = "lfc-sim credits";
    unsigned allowed = (1u << OPT_SPEED) | (1u << OPT_CABLE) | (1u << OPT_MTU) |
                       (1u << OPT_LATENCY) | (1u << OPT_CUT_THROUGH);
    a->kind = LFC_CALC_CREDITS;
    int rc = parse_opts(prog, argc, argv, allowed, &v, err, errlen);
    if (rc == 1) a->help = 1;
    if (rc != 0) return rc < 0 ? -1 : 0;
    if (require(prog, &v, OPT_SPEED, err, errlen) || require(prog, &v, OPT_CABLE, err, errlen))
      return -1;
    a->credits = (lfc_credits_in_t){
        .speed_mbps = (uint32_t)v.val[OPT_SPEED],
        .cable_mm = (uint32_t)v.val[OPT_CABLE],
        .mtu_bytes = v.given[OPT_MTU] ? (uint32_t)v.val[OPT_MTU] : LFC_CALC_IB_MTU_BYTES,
        .latency_ps = (uint32_t)v.val[OPT_LATENCY],
        .cut_through = v.given[OPT_CUT_THROUGH],
    };
    return 0;
  }
  CALC_ERR("lfc-sim: unknown calculator '%.60s': give headroom or credits", argv[0]);
}

/* One row of the breakdown: blocks, bytes and time at the link speed. */
static void term_row(const char *name, uint64_t blocks, double cycle_ns) {
  printf("  %-50s %8" PRIu64 " %10" PRIu64 " %11.1f\n", name, blocks, blocks * LFC_BLOCK_BYTES,
         (double)blocks * cycle_ns);
}

static void print_cable(const char *speed, double cycle_ns, double cable_ns, uint64_t d) {
  printf("  one cycle = one 64-byte block at %s Gb/s: %.3f ns (SPEC §1)\n", speed, cycle_ns);
  printf("  cable one way: %.1f ns at %u ns/m = D = %" PRIu64
         " cycles (rounded up, at least 1)\n",
         cable_ns, LFC_CALC_CABLE_NS_PER_M, d);
}

/* The start of the scenario lines to paste (docs/sim.md, lfc-sim's own keys): the link as given,
 * the MTU in blocks and block time (wire_time = 0, the condition of SPEC §11's figures; lfc-sim's
 * default line time needs more, docs/sim.md "Warnings"); the caller adds its figure and its
 * other conditions. lfc-sim turns speed and metres into cycles as the calculators do, so the
 * figures hold there. */
static void print_scenario_link(const char *speed, uint32_t cable_mm, uint32_t mtu_blocks) {
  printf("\n  for lfc-sim (scenario keys, docs/sim.md):\n"
         "  ; the figure's conditions: block time, no host jitter, no FCP hold-off\n"
         "  [link]\n  speed_gbps = %s\n"
         "  cable_m = %g\n  [switch]\n  mtu_blocks = %" PRIu32 "\n  wire_time = 0\n",
         speed, (double)cable_mm / CALC_MM_PER_M, mtu_blocks);
}

static int headroom_cli(const lfc_headroom_in_t *inp) {
  const char *prog = "lfc-sim headroom";
  lfc_headroom_in_t in = *inp;
  lfc_headroom_t h;
  char err[256];
  if (lfc_headroom_calc(&in, &h, err, sizeof err) != 0) {
    fprintf(stderr, "%s: %s\n", prog, err);
    return CALC_EXIT_USAGE;
  }
  char speed[32];
  fmt_gbps(speed, sizeof speed, in.speed_mbps);
  printf("PFC headroom: %s Gb/s, %g m cable, MTU %" PRIu32 " bytes (%" PRIu32
         " blocks), peer response %" PRIu32 " quanta\n",
         speed, (double)in.cable_mm / CALC_MM_PER_M, in.mtu_bytes, h.mtu_blocks,
         h.response_quanta);
  print_cable(speed, h.cycle_ns, h.cable_ns, h.delay_cycles);
  if (h.response_default && h.response_row_mbps == in.speed_mbps)
    printf("  peer response: %" PRIu32 " quanta, the IEEE 802.3 Annex 31B.3.7 default for %s "
           "Gb/s\n    as tabulated by SONiC; UNVERIFIED against the standard's text "
           "(override: --response-quanta)\n",
           h.response_quanta, speed);
  else if (h.response_default) {
    char row[32], known[128];
    fmt_gbps(row, sizeof row, h.response_row_mbps);
    fmt_known_speeds(known, sizeof known);
    printf("  peer response: %" PRIu32 " quanta, DERIVED: the Annex 31B table (%s Gb/s) has no "
           "row for %s Gb/s;\n    the %s Gb/s row's time (%" PRIu32 " quanta there), the longer "
           "of the neighbours%s,\n    as quanta at %s Gb/s, rounded up; UNVERIFIED (override: "
           "--response-quanta)\n",
           h.response_quanta, known, speed, row,
           lfc_check_reaction_quanta(h.response_row_mbps),
           in.speed_mbps > h.response_row_mbps ? " (extrapolated past the table's end)" : "",
           speed);
  } else
    printf("  peer response: %" PRIu32 " quanta (--response-quanta)\n", h.response_quanta);
  printf("\n  %-50s %8s %10s %11s\n", "term (SPEC §11)", "blocks", "bytes", "ns");
  term_row("MTU, our side: XOFF waits behind our frame", h.our_mtu_blocks, h.cycle_ns);
  term_row("MTU, peer side: its last frame, after block 1", h.peer_mtu_blocks, h.cycle_ns);
  term_row("cable round trip, 2 x D", h.cable_blocks, h.cycle_ns);
  term_row("peer response time, R", h.response_blocks, h.cycle_ns);
  term_row("XOFF decision and PFC frame (counters, slot)", h.reaction_blocks, h.cycle_ns);
  term_row("headroom = 2*mtu - 1 + 2*D + R + 2", h.headroom_blocks, h.cycle_ns);
  printf("\n  headroom: %" PRIu64 " blocks = %" PRIu64 " bytes = %" PRIu64 " cells of %" PRIu32
         " bytes\n",
         h.headroom_blocks, h.headroom_bytes, h.headroom_cells, h.cell_bytes);
  printf("  xoff: send XOFF while at least %" PRIu64 " bytes (%" PRIu64
         " cells) of the PG's buffer are free\n",
         h.headroom_bytes, h.headroom_cells);
  printf("        (xoff threshold = PG buffer - %" PRIu64 " bytes; SONiC's BUFFER_PROFILE xoff)\n",
         h.headroom_bytes);
  print_scenario_link(speed, in.cable_mm, h.mtu_blocks);
  printf("  [host]\n  response_ns = %.3f\n  response_jitter_ns = 0\n  [pfc]\n"
         "  headroom_blocks = %" PRIu64 "%s\n",
         (double)h.response_cycles * h.cycle_ns, h.headroom_blocks,
         h.headroom_blocks > UINT16_MAX ? "  ; exceeds the 0..65535 range of SPEC §3.2" : "");
  printf("  not included: MAC/PHY and gearbox delays, cell-size waste of small packets "
         "(docs/calculators.md)\n");
  return CALC_EXIT_OK;
}

static int credits_cli(const lfc_credits_in_t *inp) {
  const char *prog = "lfc-sim credits";
  lfc_credits_in_t in = *inp;
  lfc_credits_t c;
  char err[256];
  if (lfc_credits_calc(&in, &c, err, sizeof err) != 0) {
    fprintf(stderr, "%s: %s\n", prog, err);
    return CALC_EXIT_USAGE;
  }
  char speed[32];
  fmt_gbps(speed, sizeof speed, in.speed_mbps);
  printf("IB credits per VL: %s Gb/s, %g m cable, MTU %" PRIu32 " bytes (%" PRIu32 " blocks)\n",
         speed, (double)in.cable_mm / CALC_MM_PER_M, in.mtu_bytes, c.mtu_blocks);
  print_cable(speed, c.cycle_ns, c.cable_ns, c.delay_cycles);
  printf("\n  %-50s %8s %10s %11s\n", "term", "credits", "bytes", "ns");
  term_row("credit round trip, 2 x D + 2", c.rtt_blocks, c.cycle_ns);
  term_row("one MTU packet", c.mtu_blocks, c.cycle_ns);
  term_row("end node (frees a packet as it arrives)", c.need_blocks, c.cycle_ns);
  term_row("switch pipeline latency (at least 1 cycle)", c.latency_cycles, c.cycle_ns);
  term_row(in.cut_through ? "store-and-forward: no (--cut-through)"
                          : "store-and-forward: packet held until complete",
           c.saf_blocks, c.cycle_ns);
  term_row("FCP waiting behind a packet the other way", c.fcp_wait_blocks, c.cycle_ns);
  term_row("lfc switch ingress", c.need_switch_blocks, c.cycle_ns);
  printf("\n  per-VL buffer for line rate: %" PRIu64 " credits (%" PRIu64
         " bytes) at an end node (SPEC §11),\n    %" PRIu64 " credits (%" PRIu64
         " bytes) at an lfc switch ingress\n",
         c.need_blocks, c.need_bytes, c.need_switch_blocks, c.need_switch_bytes);
  if (c.window_limits_switch)
    printf("  credit window (SPEC §5.3): %" PRIu32 " credits LIMITS %s: at most %.1f%% of line "
           "rate\n    (%" PRIu32 " credits per %" PRIu64
           "-cycle round trip; a buffer beyond %" PRIu32 " credits is never used)\n",
           c.window_blocks, c.window_limits ? "this link" : "a switch ingress (not an end node)",
           c.max_rate_pct, c.window_blocks, c.rtt_blocks, c.window_blocks);
  else
    printf("  credit window (SPEC §5.3): %" PRIu32 " credits, does not limit this link\n",
           c.window_blocks);
  /* The largest packet InfiniBand allows: a 4096-byte payload (IBA vol. 1: MTUs 256..4096)
     with every header a plain packet can carry, GRH included. */
  const uint32_t ib_max = CALC_IB_MTU_PAYLOAD_MAX + LFC_IB_LRH_BYTES + LFC_IB_GRH_BYTES +
                          LFC_IB_BTH_BYTES + LFC_IB_ICRC_BYTES + LFC_IB_VCRC_BYTES;
  if (in.mtu_bytes > ib_max)
    printf("  note: %" PRIu32 " bytes is beyond InfiniBand's largest packet: %u bytes of payload "
           "at most\n        (%" PRIu32 " with LRH, GRH, BTH, ICRC and VCRC); the figures are "
           "for a link that allows it\n",
           in.mtu_bytes, CALC_IB_MTU_PAYLOAD_MAX, ib_max);
  print_scenario_link(speed, in.cable_mm, c.mtu_blocks);
  printf("  latency_ns = %.3f\n  [ib]\n  fcp_holdoff = 0\n  vl_blocks = %" PRIu64
         "\n  [host]\n  rx_blocks = %" PRIu64 "\n",
         (double)c.latency_cycles * c.cycle_ns,
         c.window_limits_switch ? (uint64_t)c.window_blocks : c.need_switch_blocks,
         c.window_limits ? (uint64_t)c.window_blocks : c.need_blocks);
  return CALC_EXIT_OK;
}

int lfc_calc_main(int argc, char **argv) {
  lfc_calc_args_t a;
  char err[512];
  if (lfc_calc_parse(argc, argv, &a, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    return CALC_EXIT_USAGE;
  }
  if (a.help) {
    if (a.kind == LFC_CALC_HEADROOM)
      headroom_usage(stdout);
    else
      credits_usage(stdout);
    return CALC_EXIT_OK;
  }
  return a.kind == LFC_CALC_HEADROOM ? headroom_cli(&a.headroom) : credits_cli(&a.credits);
}

#ifdef LFC_CALC_STANDALONE
/*
 * `lfc-calc headroom ...` / `lfc-calc credits ...`: the calculators on their own, for the tests
 * of sim/calc.mk (lfc-sim dispatches to lfc_calc_main the same way).
 */
int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "lfc-calc: give headroom or credits, then its options (--help)\n");
    return CALC_EXIT_USAGE;
  }
  return lfc_calc_main(argc - 1, argv + 1);
}
#endif
