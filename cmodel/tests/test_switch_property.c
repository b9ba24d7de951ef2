/*
 * test_switch_property.c - properties of the switch over random traffic through the star testbed
 * (lfc/star.h), with fixed seeds printed in the log:
 *
 *   (a) IB (SPEC §5): whatever the buffer size (mtu_blocks .. beyond 2048), port speeds and
 *       traffic, nothing is ever dropped, the scoreboard sees every packet delivered once, in
 *       order and unmodified, and no (port, VL) ever holds more than vl_blocks (§10 invariants).
 *   (b) PFC (SPEC §6, §11): in an N:1 incast of maximum-size packets at full load, a lossless PG
 *       with the §11 headroom never drops; with one MTU less it does.
 *
 * (b) needs traffic from the incast destination back to the senders: in a pure incast the
 * switch's transmitters toward the senders are idle, so its PFC frames leave at once and the
 * mtu_blocks·k term of §11 (a frame waiting behind a packet that has just started) never occurs;
 * the senders' packets then need only mtu_blocks·ceil((2D + R + 3)/(mtu_blocks·k)) blocks.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lfc/lfc.h"
#define PROP_IB_CYCLES 1000000u
#define PROP_PFC_CYCLES 200000u
#define MTU 65u

static lfc_star_t *make_star(const lfc_star_cfg_t *cfg) {
  char err[256] = "";
  lfc_star_t *star = lfc_star_create(cfg, err, sizeof err);
  if (star == NULL) fail_msg("lfc_star_create: %s", err);
  return star;
}

/* Drops of one cause, summed over the switch's ports and classes and over the nodes. */
static uint64_t drops(lfc_star_t *star, uint32_t ports, lfc_drop_cause_t cause) {
  uint64_t n = 0;
  for (uint32_t p = 0; p < ports; p++) {
    const lfc_port_stats_t *ps = lfc_switch_stats(lfc_star_switch(star), p);
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) n += ps->cls[c].drop_pkts[cause];
    n += lfc_nic_stats(lfc_star_nic(star, p))->drop_pkts[cause];
  }
  return n;
}

static void check_scoreboard(lfc_star_t *star, const char *name) {
  const lfc_score_t *s = lfc_star_score(star);
  if (s->errors != 0)
    fail_msg("%s: %llu scoreboard errors, first: %s", name, (unsigned long long)s->errors,
             lfc_star_error(star));
  assert_true(s->delivered + s->dropped <= s->created);
}

/* The largest of `prev` and the blocks the switch holds now, from its registers (SPEC §13.1):
 * IB occ, or PFC pg_min + pg_shared + pg_hdrm, over every port and class. */
static uint64_t max_held(const lfc_switch_t *sw, uint32_t ports, uint32_t classes, uint64_t prev) {
  static const char *const names[] = {"occ", "pg_min", "pg_shared", "pg_hdrm"};
  uint64_t sum = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    int r = lfc_reg_find(names[i]);
    assert_true(r >= 0);
    for (uint32_t p = 0; p < ports; p++)
      for (uint32_t c = 0; c < classes; c++) sum += lfc_switch_reg(sw, (size_t)r, p, c);
  }
  return sum > prev ? sum : prev;
}

/* ---- (a) IB: lossless for every buffer size and speed ---- */

typedef struct {
  const char *name;
  uint32_t ports, classes;
  uint32_t vl_blocks[3];
  uint8_t speed[8];
  uint32_t delay;
  lfc_traffic_pattern_t pattern;
  uint32_t load;
  uint64_t seed;
} ib_case_t;

static const ib_case_t IB_CASES[] = {
    {"ib uniform, vl_blocks = mtu",
     6,
     2,
     {MTU, MTU, 0},
     {1, 1, 1, 1, 1, 1},
     1,
     LFC_TRAFFIC_UNIFORM,
     1000,
     101},
    {"ib uniform, mixed sizes and speeds",
     6,
     3,
     {MTU, 200, 2100},
     {1, 2, 4, 1, 3, 1},
     7,
     LFC_TRAFFIC_UNIFORM,
     900,
     102},
    {"ib incast, vl_blocks 2100 > 2048, long links",
     5,
     1,
     {2100, 0, 0},
     {1, 1, 1, 1, 1},
     40,
     LFC_TRAFFIC_INCAST,
     1000,
     103},
    {"ib incast, vl_blocks = mtu, mixed speeds",
     5,
     2,
     {MTU, MTU, 0},
     {2, 1, 1, 4, 1},
     3,
     LFC_TRAFFIC_INCAST,
     1000,
     104},
};

static void run_ib_case(const ib_case_t *tc) {
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, LFC_MODE_IB, tc->ports, tc->classes);
  for (uint32_t c = 0; c < tc->classes; c++) cfg.sw.vl_blocks[c] = tc->vl_blocks[c];
  for (uint32_t p = 0; p < tc->ports; p++) cfg.sw.speed_div[p] = tc->speed[p];
  cfg.link_delay = tc->delay;
  cfg.traffic.pattern = tc->pattern;
  cfg.traffic.incast_dst = tc->ports - 1u;
  cfg.traffic.load_permille = tc->load;
  cfg.traffic.seed = tc->seed;
  print_message("  %s: %u ports, seed %llu, %u cycles\n", tc->name, tc->ports,
                (unsigned long long)tc->seed, PROP_IB_CYCLES);
  lfc_star_t *star = make_star(&cfg);
  lfc_switch_t *sw = lfc_star_switch(star);
  int occ = lfc_reg_find("occ");
  assert_true(occ >= 0);
  const uint32_t sampled[2] = {0u, tc->ports - 1u};
  uint64_t max_sum = 0;
  for (uint32_t t = 0; t < PROP_IB_CYCLES; t++) {
    lfc_star_step(star);
    for (uint32_t i = 0; i < 2; i++)
      for (uint32_t c = 0; c < tc->classes; c++) {
        uint64_t v = lfc_switch_reg(sw, (size_t)occ, sampled[i], c);
        if (v > tc->vl_blocks[c])
          fail_msg("%s: cycle %u: occ of port %u VL %u = %llu > vl_blocks %u", tc->name, t,
                   sampled[i], c, (unsigned long long)v, tc->vl_blocks[c]);
      }
    if (tc == &IB_CASES[0]) max_sum = max_held(sw, tc->ports, tc->classes, max_sum);
  }
  /* The scoreboard's exact accounting of held blocks agrees with the registers. */
  if (tc == &IB_CASES[0]) assert_int_equal(lfc_star_score(star)->max_buffered_blocks, max_sum);
  for (uint32_t d = 0; d < LFC_DROP_CAUSES; d++)
    if (drops(star, tc->ports, (lfc_drop_cause_t)d) != 0)
      fail_msg("%s: %llu drops with cause %s", tc->name,
               (unsigned long long)drops(star, tc->ports, (lfc_drop_cause_t)d),
               lfc_drop_cause_name((lfc_drop_cause_t)d));
  uint64_t total_buffer = 0;
  for (uint32_t p = 0; p < tc->ports; p++) {
    const lfc_port_stats_t *ps = lfc_switch_stats(sw, p);
    for (uint32_t c = 0; c < tc->classes; c++) {
      assert_true(ps->cls[c].peak_pg <= tc->vl_blocks[c]);
      total_buffer += tc->vl_blocks[c];
    }
  }
  check_scoreboard(star, tc->name);
  const lfc_score_t *s = lfc_star_score(star);
  assert_int_equal(s->dropped, 0);
  assert_true(s->max_buffered_blocks <= total_buffer);
  /* Traffic flowed: at least a third of what one link can carry over the run. */
  assert_true(s->delivered_blocks > PROP_IB_CYCLES / 3u);
  print_message(
      "    delivered %llu packets (%llu blocks), peak buffer %llu blocks, "
      "max latency %llu cycles\n",
      (unsigned long long)s->delivered, (unsigned long long)s->delivered_blocks,
      (unsigned long long)s->max_buffered_blocks, (unsigned long long)s->latency_max);
  lfc_star_destroy(star);
}

/* SPEC §5.3, §5.4, §10: no drops, no CREDIT drops in particular, occ <= vl_blocks. */
static void test_ib_random_traffic_is_lossless(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof IB_CASES / sizeof IB_CASES[0]; i++) run_ib_case(&IB_CASES[i]);
}

/* ---- (b) PFC: the headroom of SPEC §11 is enough, one MTU less is not ---- */

typedef struct {
  uint32_t ports, delay, k, response, mtu;
  uint64_t seed;
} pfc_case_t;

static const pfc_case_t PFC_CASES[] = {
    {5, 10, 1, 0, MTU, 201}, {5, 10, 2, 0, MTU, 202}, {5, 10, 1, 20, MTU, 203},
    {9, 50, 1, 0, MTU, 204}, {5, 31, 3, 9, MTU, 205}, {5, 10, 1, 0, 32, 206},
};

/* SPEC §11 */
static uint32_t headroom_formula(const pfc_case_t *pc) {
  uint32_t w = 2u * pc->delay + pc->response + 2u;
  return 2u * pc->mtu - 1u + (w + pc->k - 1u) / pc->k;
}

/* Runs the incast with the given headroom; returns HEADROOM drops. Any other drop fails. */
static uint64_t run_pfc_incast(const pfc_case_t *pc, uint32_t headroom, uint32_t min_nblk) {
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, LFC_MODE_PFC, pc->ports, 1);
  cfg.sw.mtu_blocks = pc->mtu;
  cfg.nic.mtu_blocks = pc->mtu;
  cfg.sw.drr_quantum[0] = pc->mtu;
  for (uint32_t p = 0; p < pc->ports; p++) cfg.sw.speed_div[p] = (uint8_t)pc->k;
  cfg.nic.response_cycles = pc->response;
  cfg.link_delay = pc->delay;
  cfg.sw.headroom_blocks = headroom;
  cfg.sw.reserve_blocks = 0;
  cfg.sw.xoff_th = 300;
  cfg.sw.shared_blocks = 300u * pc->ports;   /* every PG can reach xoff_th */
  cfg.traffic.pattern = LFC_TRAFFIC_HOTSPOT; /* senders -> incast_dst, and back */
  cfg.traffic.hotspot_pct = 100;
  cfg.traffic.incast_dst = pc->ports - 1u;
  cfg.traffic.load_permille = 1000;
  cfg.traffic.min_nblk = min_nblk;
  cfg.traffic.max_nblk = pc->mtu;
  cfg.traffic.seed = pc->seed;
  lfc_star_t *star = make_star(&cfg);
  uint64_t max_sum = 0;
  bool regs = pc == &PFC_CASES[0]; /* cross-check the scoreboard with the registers once */
  for (uint32_t t = 0; t < PROP_PFC_CYCLES; t++) {
    lfc_star_step(star);
    if (regs) max_sum = max_held(lfc_star_switch(star), pc->ports, 1, max_sum);
  }
  if (regs) assert_int_equal(lfc_star_score(star)->max_buffered_blocks, max_sum);
  char name[128];
  snprintf(name, sizeof name, "pfc incast ports %u D %u k %u R %u mtu %u headroom %u seed %llu",
           pc->ports, pc->delay, pc->k, pc->response, pc->mtu, headroom,
           (unsigned long long)pc->seed);
  check_scoreboard(star, name);
  for (uint32_t d = 0; d < LFC_DROP_CAUSES; d++)
    if (d != LFC_DROP_HEADROOM && drops(star, pc->ports, (lfc_drop_cause_t)d) != 0)
      fail_msg("%s: drops with cause %s", name, lfc_drop_cause_name((lfc_drop_cause_t)d));
  uint64_t n = drops(star, pc->ports, LFC_DROP_HEADROOM);
  assert_int_equal(lfc_star_score(star)->dropped, n);
  assert_true(lfc_star_score(star)->delivered_blocks > PROP_PFC_CYCLES / (2u * pc->k));
  print_message("  %s: %llu headroom drops\n", name, (unsigned long long)n);
  lfc_star_destroy(star);
  return n;
}

/* SPEC §11: zero HEADROOM drops with the formula's headroom, for maximum-size packets. */
static void test_pfc_incast_formula_headroom_is_lossless(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof PFC_CASES / sizeof PFC_CASES[0]; i++) {
    const pfc_case_t *pc = &PFC_CASES[i];
    assert_int_equal(run_pfc_incast(pc, headroom_formula(pc), pc->mtu), 0);
  }
}

/* SPEC §11: also with packets of every size (the case the formula's bound is written for). */
static void test_pfc_incast_formula_headroom_mixed_sizes(void **state) {
  (void)state;
  for (size_t i = 0; i < 3; i++) {
    const pfc_case_t *pc = &PFC_CASES[i];
    assert_int_equal(run_pfc_incast(pc, headroom_formula(pc), 1), 0);
  }
}

/* SPEC §11: one MTU less headroom drops (cause HEADROOM). */
static void test_pfc_incast_headroom_one_mtu_short_drops(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof PFC_CASES / sizeof PFC_CASES[0]; i++) {
    const pfc_case_t *pc = &PFC_CASES[i];
    assert_true(run_pfc_incast(pc, headroom_formula(pc) - pc->mtu, pc->mtu) > 0u);
  }
}

/* ---- The testbed itself (lfc/star.h) ---- */

/* lfc_star_cfg_check: each bad value is named in one line. */
static void test_star_cfg_errors(void **state) {
  (void)state;
  char err[256];
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, LFC_MODE_PFC, 4, 2);
  assert_int_equal(lfc_star_cfg_check(&cfg, err, sizeof err), 0);
  cfg.traffic.class_mask = 0x4; /* class 2 of 2 */
  assert_int_equal(lfc_star_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "class_mask = 0x4"));
  lfc_star_cfg_default(&cfg, LFC_MODE_IB, 4, 2);
  cfg.traffic.min_nblk = 10;
  cfg.traffic.max_nblk = 9;
  assert_int_equal(lfc_star_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "min_nblk = 10"));
  lfc_star_cfg_default(&cfg, LFC_MODE_IB, 4, 2);
  cfg.traffic.load_permille = 0;
  assert_int_equal(lfc_star_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "load_permille = 0"));
  lfc_star_cfg_default(&cfg, LFC_MODE_IB, 4, 2);
  cfg.traffic.incast_dst = 4;
  assert_int_equal(lfc_star_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "incast_dst = 4"));
  lfc_star_cfg_default(&cfg, LFC_MODE_IB, 4, 2);
  cfg.nic.classes = 3;
  assert_int_equal(lfc_star_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "nic.classes = 3"));
  cfg.nic.classes = 2;
  cfg.sw.ports = 65;
  assert_int_equal(lfc_star_cfg_check(&cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "switch: "));
  assert_null(lfc_star_create(&cfg, err, sizeof err));
}

/* star.h: the same configuration gives the same run; the source's token clock is exact. */
static void test_star_deterministic_and_exact_load(void **state) {
  (void)state;
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, LFC_MODE_PFC, 4, 2);
  cfg.traffic.load_permille = 300;
  cfg.traffic.min_nblk = 8;
  cfg.traffic.max_nblk = 8;
  cfg.traffic.seed = 77;
  lfc_score_t first;
  for (int run = 0; run < 2; run++) {
    lfc_star_t *star = make_star(&cfg);
    lfc_star_run(star, 80000);
    check_scoreboard(star, "exact load");
    const lfc_score_t *s = lfc_star_score(star);
    /* One packet every 8 * 1000 / 300 cycles, exactly: ceil(80000 * 300 / 8000) per node. */
    assert_int_equal(s->created, 4u * 3000u);
    if (run == 0)
      first = *s;
    else
      assert_memory_equal(&first, s, sizeof first);
    lfc_star_destroy(star);
  }
  cfg.traffic.seed = 78;
  lfc_star_t *star = make_star(&cfg);
  lfc_star_run(star, 80000);
  assert_true(lfc_star_score(star)->latency_sum != first.latency_sum);
  lfc_star_destroy(star);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_star_cfg_errors),
      cmocka_unit_test(test_star_deterministic_and_exact_load),
      cmocka_unit_test(test_ib_random_traffic_is_lossless),
      cmocka_unit_test(test_pfc_incast_formula_headroom_is_lossless),
      cmocka_unit_test(test_pfc_incast_formula_headroom_mixed_sizes),
      cmocka_unit_test(test_pfc_incast_headroom_one_mtu_short_drops),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
