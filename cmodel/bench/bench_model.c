/*
 * bench_model.c - model throughput: a star testbed (lfc/star.h) with uniform random traffic,
 * run for a number of cycles after a warm-up; prints one JSON object with the wall-clock rate in
 * port-cycles per second. scripts/bench.sh runs it for each configuration, and once more under
 * callgrind (--toggle-collect=bench_measured_run) to count instructions per port-cycle.
 *
 *   bench_model --ports N --classes N --load PERMILLE --mode ib|pfc --cycles N [--warmup N]
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lfc/lfc.h"

#define EXIT_USAGE 2
#define BENCH_SEED 2024u
#define BENCH_MTU 65u
#define BENCH_IB_VL_BLOCKS 256u
#define BENCH_PFC_RESERVE 16u
#define BENCH_PFC_SHARED_PER_PORT 512u
#define BENCH_SHARED_MAX ((1u << 20) - 1u)

static int num(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
  char *end = NULL;
  if (s == NULL || s[0] < '0' || s[0] > '9') return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end != '\0' || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

/* The measured cycles, in a function of their own so that callgrind can count just them. */
__attribute__((noinline)) void bench_measured_run(lfc_star_t *star, uint64_t cycles);
__attribute__((noinline)) void bench_measured_run(lfc_star_t *star, uint64_t cycles) {
  lfc_star_run(star, cycles);
}

int main(int argc, char **argv) {
  uint64_t ports = 32, classes = 8, load = 1000, cycles = 100000, warmup = 20000;
  lfc_mode_t mode = LFC_MODE_PFC;
  for (int i = 1; i < argc; i += 2) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int bad = 0;
    if (strcmp(a, "--ports") == 0)
      bad = num(v, 2, LFC_MAX_PORTS, &ports);
    else if (strcmp(a, "--classes") == 0)
      bad = num(v, 1, LFC_IB_MAX_VLS, &classes);
    else if (strcmp(a, "--load") == 0)
      bad = num(v, 1, 1000, &load);
    else if (strcmp(a, "--cycles") == 0)
      bad = num(v, 1, UINT64_MAX, &cycles);
    else if (strcmp(a, "--warmup") == 0)
      bad = num(v, 0, UINT64_MAX, &warmup);
    else if (strcmp(a, "--mode") == 0 && v != NULL && strcmp(v, "ib") == 0)
      mode = LFC_MODE_IB;
    else if (strcmp(a, "--mode") == 0 && v != NULL && strcmp(v, "pfc") == 0)
      mode = LFC_MODE_PFC;
    else
      bad = -1;
    if (bad != 0) {
      fprintf(stderr,
              "bench_model: bad option '%s %s' (allowed: --ports 2..64 --classes N "
              "--load 1..1000 --mode ib|pfc --cycles N [--warmup N])\n",
              a, v ? v : "");
      return EXIT_USAGE;
    }
  }
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, mode, (uint32_t)ports, (uint32_t)classes);
  cfg.traffic.pattern = LFC_TRAFFIC_UNIFORM;
  cfg.traffic.load_permille = (uint32_t)load;
  cfg.traffic.min_nblk = 1;
  cfg.traffic.max_nblk = BENCH_MTU;
  cfg.traffic.seed = BENCH_SEED;
  if (mode == LFC_MODE_IB) {
    for (uint32_t c = 0; c < classes; c++) cfg.sw.vl_blocks[c] = BENCH_IB_VL_BLOCKS;
  } else {
    uint64_t shared = ports * BENCH_PFC_SHARED_PER_PORT;
    cfg.sw.reserve_blocks = BENCH_PFC_RESERVE;
    cfg.sw.shared_blocks = (uint32_t)(shared < BENCH_SHARED_MAX ? shared : BENCH_SHARED_MAX);
    cfg.sw.headroom_blocks = 2u * BENCH_MTU - 1u + 2u * cfg.link_delay + 2u; /* SPEC §11 */
    cfg.sw.dynamic_th = true;
    cfg.sw.ecn_mask = (uint8_t)((1u << classes) - 1u);
    cfg.traffic.ecn_capable_pct = 50;
  }
  char err[256];
  lfc_star_t *star = lfc_star_create(&cfg, err, sizeof err);
  if (star == NULL) {
    fprintf(stderr, "bench_model: %s\n", err);
    return 1;
  }
  lfc_star_run(star, warmup);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  bench_measured_run(star, cycles);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  const lfc_score_t *s = lfc_star_score(star);
  printf("{\"ports\": %" PRIu64 ", \"classes\": %" PRIu64 ", \"load\": %" PRIu64
         ", \"mode\": \"%s\", \"cycles\": %" PRIu64
         ", \"seconds\": %.6f, "
         "\"port_cycles_per_s\": %.0f, \"delivered\": %" PRIu64 ", \"errors\": %" PRIu64 "}\n",
         ports, classes, load, mode == LFC_MODE_IB ? "ib" : "pfc", cycles, secs,
         secs > 0 ? (double)(ports * cycles) / secs : 0.0, s->delivered, s->errors);
  int rc = s->errors == 0 ? 0 : 1;
  if (rc) fprintf(stderr, "bench_model: scoreboard: %s\n", lfc_star_error(star));
  lfc_star_destroy(star);
  return rc;
}
