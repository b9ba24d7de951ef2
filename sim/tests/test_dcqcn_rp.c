/*
 * test_dcqcn_rp.c - the DCQCN reaction and notification points of sim/src/dcqcn.c, one test
 * per rule of dcqcn.h, with the expected values worked out here from those rules (never from
 * dcqcn.c): the rate falls at most once per decrease interval, the target follows the rate
 * only after a timer increase (or always with clamp_target), alpha on its own timer, F steps
 * of fast recovery, one additive, then hyper increase; and the state after one catch_up to a
 * cycle equals the state after a catch_up in every cycle (what skip-ahead == stepping rests on).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dcqcn.h"

/* Small round numbers in cycles: the rules, not the units, are under test. */
#define DEC 10u      /* rate-decrease interval */
#define ALPHA 7u     /* alpha period */
#define TIMER 100u   /* rate-increase timer */
#define DELAY 3u     /* CNP delay */
#define EPS 1e-12

/* dcqcn_cfg (not under test: the tests build dcqcn_cfg_t directly) converts with the
   scenario's clock; linked without scenario.c, this stands in and must never be called. */
uint64_t sc_ns_to_cycles(const lfc_scenario_t *sc, double ns) {
  (void)sc;
  (void)ns;
  fail_msg("sc_ns_to_cycles called: the test builds its configurations directly");
  return 0;
}

static dcqcn_cfg_t cfg(int clamp) {
  dcqcn_cfg_t c;
  memset(&c, 0, sizeof c);
  c.g = 1.0 / 16.0;
  c.rai = 0.01;
  c.rhai = 0.1;
  c.min_rate = 0.001;
  c.alpha_cycles = ALPHA;
  c.timer_cycles = TIMER;
  c.dec_cycles = DEC;
  c.cnp_gap = 1; /* every marked packet makes a CNP */
  c.cnp_delay = DELAY;
  c.byte_counter = 0;
  c.f = 5;
  c.clamp_target = clamp;
  c.queue_cap = (uint32_t)(c.cnp_delay / c.cnp_gap + 2u);
  return c;
}

static void flow_new(const dcqcn_cfg_t *c, flow_t *f) {
  memset(f, 0, sizeof *f);
  assert_int_equal(dcqcn_init(c, f), 0);
}

/* The first CNP (marked at 0, at the RP at DELAY) sets alpha = 1 and starts the decrease
   checks at DELAY + k DEC; two more CNPs before the first check change nothing more: one cut
   by alpha/2 = 1/2 at DELAY + DEC. The model before this one cut three times (to 1/8). */
static void test_dcqcn_cnps_of_one_interval_cut_once(void **state) {
  (void)state;
  dcqcn_cfg_t c = cfg(0);
  flow_t f;
  flow_new(&c, &f);
  dcqcn_on_ce(&c, &f, 0);
  dcqcn_on_ce(&c, &f, 2);
  dcqcn_on_ce(&c, &f, 4);
  dcqcn_catch_up(&c, &f, DELAY + DEC - 1u);
  assert_true(f.dc_rc == 1.0);
  dcqcn_catch_up(&c, &f, DELAY + DEC);
  /* alpha at the check: 1, updated at DELAY + ALPHA = 10 < 13 with the CNPs of 5 and 7:
     (1 - g) 1 + g = 1 */
  assert_true(fabs(f.dc_rc - 0.5) < EPS);
  assert_true(f.dc_rt == 1.0); /* no timer increase yet: no clamp */
  assert_int_equal(f.dc_cnps, 3);
  free(f.dc_cnp);
}

/* A CNP arriving between checks waits for the next check of the grid DELAY + k DEC. */
static void test_dcqcn_decrease_on_the_check_grid(void **state) {
  (void)state;
  dcqcn_cfg_t c = cfg(0);
  flow_t f;
  flow_new(&c, &f);
  dcqcn_on_ce(&c, &f, 0);            /* at the RP at 3; cut at 13 */
  dcqcn_catch_up(&c, &f, 20);
  double r1 = f.dc_rc;
  dcqcn_on_ce(&c, &f, 21);           /* at the RP at 24; next check at 33 */
  dcqcn_catch_up(&c, &f, 32);
  assert_true(f.dc_rc == r1);
  dcqcn_catch_up(&c, &f, 33);
  assert_true(f.dc_rc < r1);
  free(f.dc_cnp);
}

/* Without clamp_target the target follows the rate only if a timer increase came since the
   last decrease; with it, at every decrease. */
static double target_after_two_cuts(int clamp) {
  dcqcn_cfg_t c = cfg(clamp);
  flow_t f;
  flow_new(&c, &f);
  dcqcn_on_ce(&c, &f, 0);  /* at the RP at 3, cut at 13 */
  dcqcn_on_ce(&c, &f, 15); /* at 18, cut at 23: no timer event between the cuts */
  dcqcn_catch_up(&c, &f, 23);
  double rt = f.dc_rt;
  assert_true(f.dc_rc < 0.5); /* both cuts happened */
  free(f.dc_cnp);
  return rt;
}

static void test_dcqcn_target_kept_within_an_episode(void **state) {
  (void)state;
  /* the first cut at 13 with alpha = 1 - g (the update at 10 saw no CNP after the first):
     R_C = 1 - (1 - g)/2; clamp_target makes that the target at the second cut */
  double g = cfg(0).g;
  assert_true(target_after_two_cuts(0) == 1.0);
  assert_true(fabs(target_after_two_cuts(1) - (1.0 - (1.0 - g) / 2.0)) < EPS);
}

static void test_dcqcn_target_follows_after_a_timer_increase(void **state) {
  (void)state;
  dcqcn_cfg_t c = cfg(0);
  flow_t f;
  flow_new(&c, &f);
  dcqcn_on_ce(&c, &f, 0);   /* cut at 13 by alpha = 1 - g (updated at 10); timer at 113 */
  dcqcn_catch_up(&c, &f, 113);
  double rc = f.dc_rc;      /* fast recovery: halfway from the cut rate to R_T = 1 */
  assert_true(fabs(rc - (1.0 + (1.0 - (1.0 - c.g) / 2.0)) / 2.0) < EPS);
  dcqcn_on_ce(&c, &f, 114);                     /* at 117, cut at the check of 123 */
  dcqcn_catch_up(&c, &f, 123);
  assert_true(f.dc_rt == rc);
  assert_true(f.dc_rc < rc);
  free(f.dc_cnp);
}

/* alpha: each period (1 - g) alpha, plus g if a CNP arrived in it. First CNP at 3: alpha = 1,
   updates at 10, 17, 24, ... A CNP at 14 (marked at 11) counts for the update at 17. */
static void test_dcqcn_alpha_on_its_own_timer(void **state) {
  (void)state;
  dcqcn_cfg_t c = cfg(0);
  flow_t f;
  flow_new(&c, &f);
  double g = c.g;
  dcqcn_on_ce(&c, &f, 0);
  dcqcn_catch_up(&c, &f, 10);
  assert_true(fabs(f.dc_alpha - (1.0 - g)) < EPS);
  dcqcn_on_ce(&c, &f, 11);
  dcqcn_catch_up(&c, &f, 17);
  double a = (1.0 - g) * (1.0 - g) + g;
  assert_true(fabs(f.dc_alpha - a) < EPS);
  dcqcn_catch_up(&c, &f, 24);
  assert_true(fabs(f.dc_alpha - (1.0 - g) * a) < EPS);
  free(f.dc_cnp);
}

/* After one cut: F timer events of fast recovery (R_T unchanged), one additive (R_T += rai),
   then hyper (R_T += rhai each), R_C halfway to R_T each time. */
static void test_dcqcn_stages_fast_additive_hyper(void **state) {
  (void)state;
  dcqcn_cfg_t c = cfg(0);
  c.min_rate = 0.0;
  flow_t f;
  flow_new(&c, &f);
  dcqcn_on_ce(&c, &f, 0);
  dcqcn_catch_up(&c, &f, 13);
  /* force a low target so that the increases are visible below line rate */
  f.dc_rt = 0.2;
  f.dc_rc = 0.1;
  double rt = 0.2, rc = 0.1;
  for (uint32_t i = 0; i < c.f + 3u; i++) {
    dcqcn_catch_up(&c, &f, 13u + (i + 1u) * TIMER);
    if (i == c.f) rt += c.rai;
    if (i > c.f) rt += c.rhai;
    rc = (rt + rc) / 2.0;
    assert_true(fabs(f.dc_rt - rt) < EPS);
    assert_true(fabs(f.dc_rc - rc) < EPS);
  }
  free(f.dc_cnp);
}

/* The NP makes at most one CNP per cnp_gap. */
static void test_dcqcn_np_gap(void **state) {
  (void)state;
  dcqcn_cfg_t c = cfg(0);
  c.cnp_gap = 5;
  c.queue_cap = (uint32_t)(c.cnp_delay / c.cnp_gap + 2u);
  flow_t f;
  flow_new(&c, &f);
  for (uint64_t t = 0; t < 10; t++) dcqcn_on_ce(&c, &f, t); /* CNPs made at 0 and 5 */
  dcqcn_catch_up(&c, &f, 100);
  assert_int_equal(f.dc_cnps, 2);
  free(f.dc_cnp);
}

/* Skip-ahead: the state after one catch_up to T equals that after a catch_up in every cycle,
   over random marks (fixed seed) and sends with the byte counter on. */
static void test_dcqcn_catch_up_once_equals_every_cycle(void **state) {
  (void)state;
  dcqcn_cfg_t c = cfg(0);
  c.byte_counter = 3000;
  flow_t a, b;
  flow_new(&c, &a);
  flow_new(&c, &b);
  uint64_t rng = 12345u;
  for (uint64_t t = 0; t < 20000; t++) {
    rng = rng * 6364136223846793005u + 1442695040888963407u;
    uint32_t r = (uint32_t)(rng >> 33);
    dcqcn_catch_up(&c, &b, t); /* b: every cycle */
    if (r % 17u == 0) {        /* a send */
      dcqcn_catch_up(&c, &a, t);
      dcqcn_on_send(&c, &a, 1024);
      dcqcn_on_send(&c, &b, 1024);
    }
    if (r % 61u == 0 && (t / 2000u) % 2u == 0) { /* marks in bursts */
      dcqcn_on_ce(&c, &a, t);
      dcqcn_on_ce(&c, &b, t);
    }
  }
  dcqcn_catch_up(&c, &a, 20000);
  dcqcn_catch_up(&c, &b, 20000);
  assert_true(a.dc_cnps > 10);
  assert_true(a.dc_rc == b.dc_rc && a.dc_rt == b.dc_rt && a.dc_alpha == b.dc_alpha);
  assert_int_equal(a.rate_ppm, b.rate_ppm);
  assert_int_equal(a.dc_tstage, b.dc_tstage);
  assert_int_equal(a.dc_bstage, b.dc_bstage);
  assert_int_equal(a.dc_inc_at, b.dc_inc_at);
  assert_int_equal(a.dc_dec_at, b.dc_dec_at);
  assert_int_equal(a.dc_alpha_at, b.dc_alpha_at);
  free(a.dc_cnp);
  free(b.dc_cnp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dcqcn_cnps_of_one_interval_cut_once),
      cmocka_unit_test(test_dcqcn_decrease_on_the_check_grid),
      cmocka_unit_test(test_dcqcn_target_kept_within_an_episode),
      cmocka_unit_test(test_dcqcn_target_follows_after_a_timer_increase),
      cmocka_unit_test(test_dcqcn_alpha_on_its_own_timer),
      cmocka_unit_test(test_dcqcn_stages_fast_additive_hyper),
      cmocka_unit_test(test_dcqcn_np_gap),
      cmocka_unit_test(test_dcqcn_catch_up_once_equals_every_cycle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
