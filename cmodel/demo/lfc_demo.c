/*
 * lfc_demo.c - `make run`: an N:1 incast through one switch, with InfiniBand credits (SPEC §5)
 * and with PFC (SPEC §6), side by side, and PFC once more with one MTU less headroom than
 * SPEC §11 asks for, to show where its drops come from.
 *
 * Every run is deterministic from its options; the command that reproduces it is printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/lfc.h"

#define DEMO_DEFAULT_PORTS 9u /* 8 senders -> 1 receiver */
#define DEMO_DEFAULT_CYCLES 200000u
#define DEMO_DEFAULT_DELAY 50u
#define DEMO_DEFAULT_SEED 1u
#define DEMO_MIN_PORTS 3u /* at least two senders */
#define DEMO_MAX_PORTS 64u
#define DEMO_MAX_CYCLES 100000000u
#define DEMO_MTU_BLOCKS 65u         /* 4 KB IB payload + headers, docs/packet-sizes.md */
#define DEMO_VL_BLOCKS 512u         /* IB buffer per (port, VL); also the PFC budget per port */
#define DEMO_NS_PER_CYCLE_X100 512u /* 5.12 ns: one 64-byte block at 100 Gb/s (SPEC §1.2) */
#define DEMO_LINE_GBPS 100u
#define EXIT_USAGE 2

typedef struct {
  uint32_t ports;
  uint64_t cycles;
  uint32_t delay;
  uint64_t seed;
} opts_t;

typedef struct {
  const char *title;
  uint32_t headroom; /* PFC only */
  lfc_score_t score;
  uint64_t rx_blocks_at_dst; /* delivered to the incast destination */
  uint64_t drops[LFC_DROP_CAUSES];
  uint64_t pfc_frames, fcps;
  char error[256];
} column_t;

static void usage(FILE *f) {
  fprintf(f,
          "Usage: lfc-demo [--ports N] [--cycles N] [--delay N] [--seed N]\n"
          "  or:  lfc-demo --help | --version\n"
          "\n"
          "An N:1 incast through one lfc switch at 100 Gb/s (1 cycle = 5.12 ns): every port but\n"
          "the last sends 4 KB packets (65 blocks) at full line rate to the last one, which sends\n"
          "full-size packets back to the senders at full rate. Run three ways: IB credits,\n"
          "PFC with the headroom of docs/SPEC.md §11, and PFC with one MTU less headroom.\n"
          "\n"
          "  --ports N   switch ports, N-1 senders and one receiver (%u..%u, default %u)\n"
          "  --cycles N  cycles to simulate (1..%u, default %u)\n"
          "  --delay N   one-way link delay in cycles (1..%u, default %u)\n"
          "  --seed N    traffic seed (0..2^64-1, default %u)\n"
          "  -h, --help  print this help and exit\n"
          "  --version   print the version of lfc and exit\n"
          "\n"
          "Prints the command that reproduces the run. Exit status: 0 when every scoreboard\n"
          "check passed, 1 otherwise, 2 for a bad option.\n",
          DEMO_MIN_PORTS, DEMO_MAX_PORTS, DEMO_DEFAULT_PORTS, DEMO_MAX_CYCLES,
          DEMO_DEFAULT_CYCLES, LFC_LINK_MAX_DELAY, DEMO_DEFAULT_DELAY, DEMO_DEFAULT_SEED);
}

/* A decimal number in [lo, hi]; on error prints what is wrong and what is allowed. */
static int parse_num(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  char *end = NULL;
  errno = 0;
  if (s == NULL) {
    fprintf(stderr, "lfc-demo: %s needs a value (%" PRIu64 "..%" PRIu64 ")\n", opt, lo, hi);
    return -1;
  }
  unsigned long long v = strtoull(s, &end, 10);
  if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
    fprintf(stderr,
            "lfc-demo: %s '%s' is not allowed: give a whole number in %" PRIu64 "..%" PRIu64 "\n",
            opt, s, lo, hi);
    return -1;
  }
  *out = v;
  return 0;
}

static int parse_args(int argc, char **argv, opts_t *o) {
  o->ports = DEMO_DEFAULT_PORTS;
  o->cycles = DEMO_DEFAULT_CYCLES;
  o->delay = DEMO_DEFAULT_DELAY;
  o->seed = DEMO_DEFAULT_SEED;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    uint64_t x;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      exit(0);
    } else if (strcmp(a, "--version") == 0) {
      printf("lfc-demo (lfc) %s\n", lfc_version());
      exit(0);
    } else if (strcmp(a, "--ports") == 0) {
      if (parse_num(a, v, DEMO_MIN_PORTS, DEMO_MAX_PORTS, &x) != 0) return -1;
      o->ports = (uint32_t)x;
    } else if (strcmp(a, "--cycles") == 0) {
      if (parse_num(a, v, 1u, DEMO_MAX_CYCLES, &x) != 0) return -1;
      o->cycles = x;
    } else if (strcmp(a, "--delay") == 0) {
      if (parse_num(a, v, 1u, LFC_LINK_MAX_DELAY, &x) != 0) return -1;
      o->delay = (uint32_t)x;
    } else if (strcmp(a, "--seed") == 0) {
      if (parse_num(a, v, 0u, UINT64_MAX, &x) != 0) return -1;
      o->seed = x;
    } else {
      fprintf(stderr,
              "lfc-demo: unknown option '%s' (allowed: --ports --cycles --delay --seed "
              "--help --version)\n",
              a);
      return -1;
    }
    i++;
  }
  return 0;
}

/* SPEC §11: headroom that makes a lossless PG drop-free, for k = 1 and R = 0. */
static uint32_t headroom_formula(uint32_t mtu, uint32_t delay) {
  return 2u * mtu - 1u + (2u * delay + 2u);
}

static void base_cfg(lfc_star_cfg_t *cfg, lfc_mode_t mode, const opts_t *o) {
  lfc_star_cfg_default(cfg, mode, o->ports, 1u);
  cfg->sw.mtu_blocks = DEMO_MTU_BLOCKS;
  cfg->nic.mtu_blocks = DEMO_MTU_BLOCKS;
  cfg->link_delay = o->delay;
  lfc_traffic_cfg_t *t = &cfg->traffic;
  t->pattern = LFC_TRAFFIC_HOTSPOT; /* senders -> receiver, and the receiver back to them */
  t->hotspot_pct = 100u;
  t->incast_dst = o->ports - 1u;
  t->load_permille = 1000u;
  t->min_nblk = DEMO_MTU_BLOCKS;
  t->max_nblk = DEMO_MTU_BLOCKS;
  t->class_mask = 1u;
  t->seed = o->seed;
}

static int run_column(column_t *col, const lfc_star_cfg_t *cfg, const opts_t *o) {
  char err[256];
  lfc_star_t *star = lfc_star_create(cfg, err, sizeof err);
  if (star == NULL) {
    fprintf(stderr, "lfc-demo: %s: %s\n", col->title, err);
    return -1;
  }
  lfc_star_run(star, o->cycles);
  col->score = *lfc_star_score(star);
  snprintf(col->error, sizeof col->error, "%s", lfc_star_error(star));
  lfc_switch_t *sw = lfc_star_switch(star);
  for (uint32_t p = 0; p < o->ports; p++) {
    const lfc_port_stats_t *ps = lfc_switch_stats(sw, p);
    const lfc_nic_stats_t *ns = lfc_nic_stats(lfc_star_nic(star, p));
    col->pfc_frames += ps->pfc_tx + ns->pfc_tx;
    col->fcps += ps->fcp_tx + ns->fcp_tx;
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++)
      for (uint32_t d = 0; d < LFC_DROP_CAUSES; d++) col->drops[d] += ps->cls[c].drop_pkts[d];
    for (uint32_t d = 0; d < LFC_DROP_CAUSES; d++) col->drops[d] += ns->drop_pkts[d];
    if (p == o->ports - 1u) col->rx_blocks_at_dst = ns->rx_blocks;
  }
  lfc_star_destroy(star);
  return 0;
}

#define NCOLS 3

static void row_u64(const char *name, const column_t *c, uint64_t (*get)(const column_t *)) {
  printf("%-34s", name);
  for (int i = 0; i < NCOLS; i++) printf(" %20" PRIu64, get(&c[i]));
  printf("\n");
}

static uint64_t g_delivered(const column_t *c) { return c->score.delivered; }
static uint64_t g_bytes_dst(const column_t *c) { return c->rx_blocks_at_dst * LFC_BLOCK_BYTES; }
static uint64_t g_created(const column_t *c) { return c->score.created; }
static uint64_t g_pfc(const column_t *c) { return c->pfc_frames; }
static uint64_t g_fcp(const column_t *c) { return c->fcps; }
static uint64_t g_peak(const column_t *c) { return c->score.max_buffered_blocks; }
static uint64_t g_lat_max(const column_t *c) { return c->score.latency_max; }
static uint64_t g_errors(const column_t *c) { return c->score.errors; }

int main(int argc, char **argv) {
  opts_t o;
  if (parse_args(argc, argv, &o) != 0) return EXIT_USAGE; /* parse_args said why, in one line */
  uint32_t senders = o.ports - 1u;
  uint32_t hdrm = headroom_formula(DEMO_MTU_BLOCKS, o.delay);
  uint32_t budget = DEMO_VL_BLOCKS > hdrm ? DEMO_VL_BLOCKS : hdrm + DEMO_MTU_BLOCKS;
  uint32_t shared = o.ports * (budget - hdrm);

  column_t col[NCOLS];
  memset(col, 0, sizeof col);
  col[0].title = "IB credits";
  col[1].title = "PFC, SPEC 11 headroom";
  col[2].title = "PFC, headroom -1 MTU";
  col[1].headroom = hdrm;
  col[2].headroom = hdrm - DEMO_MTU_BLOCKS;

  printf("lfc %s demonstration: %u:1 incast, %u ports, 100 Gb/s (1 cycle = 5.12 ns)\n",
         lfc_version(), senders, o.ports);
  printf(
      "  packets of %u blocks (4 KB payload), every sender at full load to port %u, which\n"
      "  sends full-size packets back to the senders at full load; link delay %u cycles,\n"
      "  %" PRIu64 " cycles (%.3f ms), seed %" PRIu64 "\n",
      DEMO_MTU_BLOCKS, o.ports - 1u, o.delay, o.cycles, (double)o.cycles * 5.12e-6, o.seed);
  printf(
      "  IB: vl_blocks %u per port.  PFC: per port %u blocks = headroom + shared share;\n"
      "  headroom = 2*mtu - 1 + 2*D + 2 = %u (SPEC 11), shared pool %u, xoff_th %u\n\n",
      budget, budget, hdrm, shared, shared / senders);

  for (int i = 0; i < NCOLS; i++) {
    lfc_star_cfg_t cfg;
    base_cfg(&cfg, i == 0 ? LFC_MODE_IB : LFC_MODE_PFC, &o);
    if (i == 0) {
      cfg.sw.vl_blocks[0] = budget;
    } else {
      cfg.sw.reserve_blocks = 0u;
      cfg.sw.headroom_blocks = col[i].headroom;
      cfg.sw.shared_blocks = shared;
      cfg.sw.xoff_th = shared / senders;
      cfg.sw.drr_quantum[0] = DEMO_MTU_BLOCKS;
    }
    if (run_column(&col[i], &cfg, &o) != 0) return 1;
  }

  printf("%-34s", "");
  for (int i = 0; i < NCOLS; i++) printf(" %20s", col[i].title);
  printf("\n");
  row_u64("packets created", col, g_created);
  row_u64("packets delivered (all nodes)", col, g_delivered);
  row_u64("bytes delivered to the receiver", col, g_bytes_dst);
  printf("%-34s", "receiver goodput, Gb/s");
  for (int i = 0; i < NCOLS; i++)
    printf(" %20.2f", (double)col[i].rx_blocks_at_dst * DEMO_LINE_GBPS / (double)o.cycles);
  printf("\n");
  for (uint32_t d = 0; d < LFC_DROP_CAUSES; d++) {
    char name[64];
    snprintf(name, sizeof name, "drops: %s", lfc_drop_cause_name((lfc_drop_cause_t)d));
    printf("%-34s", name);
    for (int i = 0; i < NCOLS; i++) printf(" %20" PRIu64, col[i].drops[d]);
    printf("\n");
  }
  row_u64("PFC frames sent (switch + nodes)", col, g_pfc);
  row_u64("FCPs sent (switch + nodes)", col, g_fcp);
  row_u64("peak switch buffer, blocks", col, g_peak);
  printf("%-34s", "peak switch buffer, KB");
  for (int i = 0; i < NCOLS; i++)
    printf(" %20" PRIu64, col[i].score.max_buffered_blocks * LFC_BLOCK_BYTES / 1024u);
  printf("\n");
  row_u64("latency max, cycles", col, g_lat_max);
  printf("%-34s", "latency max / mean, us");
  for (int i = 0; i < NCOLS; i++) {
    double mean = col[i].score.delivered
                      ? (double)col[i].score.latency_sum / (double)col[i].score.delivered
                      : 0.0;
    char buf[48];
    snprintf(buf, sizeof buf, "%.2f / %.2f",
             (double)col[i].score.latency_max * DEMO_NS_PER_CYCLE_X100 / 100000.0,
             mean * DEMO_NS_PER_CYCLE_X100 / 100000.0);
    printf(" %20s", buf);
  }
  printf("\n");
  row_u64("scoreboard errors", col, g_errors);
  int bad = 0;
  for (int i = 0; i < NCOLS; i++) {
    if (col[i].error[0] != '\0') {
      printf("  %s: first scoreboard error: %s\n", col[i].title, col[i].error);
      bad = 1;
    }
  }
  printf("\nreproduce: %s --ports %u --cycles %" PRIu64 " --delay %u --seed %" PRIu64 "\n", argv[0],
         o.ports, o.cycles, o.delay, o.seed);
  return bad;
}
