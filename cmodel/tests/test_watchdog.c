/*
 * test_watchdog.c - the PFC watchdog (docs/SPEC.md §6.8): detection after exactly wd_detect
 * paused cycles, restoration after wd_restore cycles without pause frames, the drop and forward
 * actions, and the WATCHDOG drop cause.
 *
 * Counting (§6.8, step H reads S(t)): a pause frame received in t0 makes cycles t0+1, t0+2, ...
 * paused; after cycle t0+j, wd_cnt = j; the trip happens in the cycle where wd_cnt + 1 >= wd_detect,
 * i.e. cycle t0 + wd_detect (event in that cycle, wd_storm = 1 from S(t0 + wd_detect + 1)).
 * In storm, wd_rcnt = j - 1 in cycle t_trip + j; restore in cycle t_trip + wd_restore.
 */
#include "testutil.h"
#include "oracle_watchdog.h"

#include <string.h>

enum { T0 = 5, DETECT = 20, RESTORE = 10 };

static void cfg_wd(lfc_switch_cfg_t *c, lfc_wd_action_t action) {
  tu_cfg_pfc(c, 2, 2);
  c->cut_through = true;
  c->wd_enable = true;
  c->wd_detect = DETECT;
  c->wd_restore = RESTORE;
  c->wd_action = action;
}

/* SPEC §6.8: the trip comes after exactly wd_detect paused cycles, not one earlier: no event and
 * wd_storm 0 through cycle T0 + DETECT - 1; the event (port 1, class 0) in T0 + DETECT. The queue is
 * empty: it trips whether or not it holds data. */
static void test_watchdog_trips_exactly_after_wd_detect(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_wd(&c, LFC_WD_DROP);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, T0);
  tu_pfc(t, 1, 0x01, 1000);
  tu_run_to(t, T0 + DETECT); /* cycles 0 .. T0+DETECT-1 done */
  assert_int_equal(tu_count_ev(t, LFC_EV_WD_TRIP, -1, -1, -1), 0);
  assert_int_equal(tu_reg(t, "wd_storm", 1, 0), 0);
  assert_int_equal(tu_reg(t, "wd_cnt", 1, 0), DETECT - 1);
  tu_step(t); /* cycle T0 + DETECT */
  const tu_ev_t *e = tu_find_ev(t, LFC_EV_WD_TRIP, -1, -1, -1);
  assert_non_null(e);
  assert_int_equal(e->cycle, T0 + DETECT);
  assert_int_equal(e->ev.port, 1);
  assert_int_equal(e->ev.cls, 0);
  assert_int_equal(tu_reg(t, "wd_storm", 1, 0), 1);
  assert_int_equal(tu_reg(t, "wd_storm", 1, 1), 0);
  /* the trip cycle still counts: wd_cnt = min(DETECT - 1 + 1, DETECT); wd_rcnt <= 0 */
  assert_int_equal(tu_reg(t, "wd_cnt", 1, 0), DETECT);
  assert_int_equal(tu_reg(t, "wd_rcnt", 1, 0), 0);
  tu_run(t, 3); /* in storm wd_cnt is not updated; wd_rcnt counts */
  assert_int_equal(tu_reg(t, "wd_cnt", 1, 0), DETECT);
  assert_int_equal(tu_reg(t, "wd_rcnt", 1, 0), 3);
  assert_int_equal(tu_stats(t, 1)->cls[0].wd_trip, 1);
  tu_close(t);
}

/* SPEC §6.8: the boundary in pause length: a pause of exactly wd_detect quanta (k = 1) covers
 * wd_detect cycles and trips in its last one (T0 + DETECT); one quantum less never trips. */
static void test_watchdog_pause_of_exactly_wd_detect_trips(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_wd(&c, LFC_WD_DROP);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, T0);
  tu_pfc(t, 1, 0x01, DETECT);
  tu_run_to(t, 100);
  assert_int_equal(tu_count_ev(t, LFC_EV_WD_TRIP, -1, -1, -1), 1);
  assert_int_equal(tu_find_ev(t, LFC_EV_WD_TRIP, -1, -1, -1)->cycle, T0 + DETECT);
  tu_close(t);
  t = tu_open(&c);
  tu_at(t, 1, T0);
  tu_pfc(t, 1, 0x01, DETECT - 1);
  tu_run_to(t, 100);
  assert_int_equal(tu_count_ev(t, LFC_EV_WD_TRIP, -1, -1, -1), 0);
  tu_close(t);
}

/* SPEC §6.8 with §6.7: the watchdog counts cycles, a pause counts quanta of k cycles. All ports
 * k = 4: q 10 in cycle 8 pauses 9..48 (40 cycles); wd_detect 30 trips in 8 + 30 = 38. */
static void test_watchdog_counts_cycles_with_speed_div(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_wd(&c, LFC_WD_DROP);
  c.cut_through = false;
  c.speed_div[0] = c.speed_div[1] = 4;
  c.wd_detect = 30;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 8);
  tu_pfc(t, 1, 0x01, 10);
  tu_run_to(t, 100);
  assert_int_equal(tu_count_ev(t, LFC_EV_WD_TRIP, -1, -1, -1), 1);
  assert_int_equal(tu_find_ev(t, LFC_EV_WD_TRIP, -1, -1, -1)->cycle, 38);
  tu_close(t);
}

/* SPEC §6.8: restore after wd_restore cycles without a pause frame: event in T0 + DETECT + RESTORE
 * (not one earlier), wd_storm and wd_cnt 0 afterwards. The pause (1000 quanta) is still running,
 * so the queue trips again DETECT cycles later, in T0 + 2 DETECT + RESTORE. */
static void test_watchdog_restores_after_wd_restore_and_retrips(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_wd(&c, LFC_WD_DROP);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, T0);
  tu_pfc(t, 1, 0x01, 1000);
  const uint64_t trip = T0 + DETECT, restore = trip + RESTORE;
  tu_run_to(t, restore);
  assert_int_equal(tu_count_ev(t, LFC_EV_WD_RESTORE, -1, -1, -1), 0);
  assert_int_equal(tu_reg(t, "wd_storm", 1, 0), 1);
  assert_int_equal(tu_reg(t, "wd_rcnt", 1, 0), RESTORE - 1);
  tu_step(t);
  const tu_ev_t *e = tu_find_ev(t, LFC_EV_WD_RESTORE, -1, -1, -1);
  assert_non_null(e);
  assert_int_equal(e->cycle, restore);
  assert_int_equal(e->ev.port, 1);
  assert_int_equal(e->ev.cls, 0);
  assert_int_equal(tu_reg(t, "wd_storm", 1, 0), 0);
  assert_int_equal(tu_reg(t, "wd_cnt", 1, 0), 0);
  tu_run_to(t, restore + DETECT + 5);
  assert_int_equal(tu_count_ev(t, LFC_EV_WD_TRIP, 1, 0, -1), 2);
  assert_int_equal(t->ev[t->nev - 1].ev.kind, LFC_EV_WD_TRIP);
  assert_int_equal(t->ev[t->nev - 1].cycle, restore + DETECT);
  assert_int_equal(tu_stats(t, 1)->cls[0].wd_restore, 1);
  tu_close(t);
}

/* SPEC §6.8: in storm a received pause frame (time > 0) resets wd_rcnt. Frames every 5 cycles up to
 * cycle 60 hold the restore off; it comes RESTORE cycles after the last one, in 70. */
static void test_watchdog_restore_held_off_by_pause_frames(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_wd(&c, LFC_WD_DROP);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, T0);
  tu_pfc(t, 1, 0x01, 1000);
  for (uint64_t k = 30; k <= 60; k += 5) {
    tu_at(t, 1, k);
    tu_pfc(t, 1, 0x01, 1000);
  }
  tu_run_to(t, 75);
  assert_int_equal(tu_count_ev(t, LFC_EV_WD_RESTORE, -1, -1, -1), 1);
  assert_int_equal(tu_find_ev(t, LFC_EV_WD_RESTORE, -1, -1, -1)->cycle, 60 + RESTORE);
  tu_close(t);
}

/* SPEC §6.8: a pause gap resets the detection count. Paused 6..15 (q 10 in 5), unpaused in 16,
 * paused again from 17 (q 15 in 16, renewed by q 100 in 31): 10 + 15 paused cycles never trip, the
 * trip comes after 20 consecutive ones, 17..36, in cycle 36. */
static void test_watchdog_count_resets_when_unpaused(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_wd(&c, LFC_WD_DROP);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 5);
  tu_pfc(t, 1, 0x01, 10);
  tu_at(t, 1, 16);
  tu_pfc(t, 1, 0x01, 15);
  tu_at(t, 1, 31);
  tu_pfc(t, 1, 0x01, 100);
  tu_run_to(t, 17);
  assert_int_equal(tu_reg(t, "wd_cnt", 1, 0), 0);
  tu_run_to(t, 50);
  assert_int_equal(tu_count_ev(t, LFC_EV_WD_TRIP, -1, -1, -1), 1);
  assert_int_equal(tu_find_ev(t, LFC_EV_WD_TRIP, -1, -1, -1)->cycle, 36);
  tu_close(t);
}

/* SPEC §6.8 (drop action), §6.3, §10: from the storm on, the queue's head packet is discarded in
 * every cycle (step C), counted by egress port with cause WATCHDOG, its blocks freed. Three packets
 * (1, 1 and 3 blocks) queued behind the pause are discarded in cycles trip+1, +2, +3; nothing is
 * transmitted. */
static void test_watchdog_drop_discards_head_each_cycle(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_wd(&c, LFC_WD_DROP);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, T0);
  tu_pfc(t, 1, 0x01, 1000);
  tu_at(t, 0, T0 + 1);
  tu_pkt(t, 0, 0, 1, 1, 100, 0);
  tu_pkt(t, 0, 0, 1, 1, 101, 0);
  tu_pkt(t, 0, 0, 3, 1, 102, 0);
  const uint64_t trip = T0 + DETECT;
  tu_run_to(t, trip + 1);
  assert_int_equal(tu_reg(t, "qpkts", 1, 0), 3);
  assert_int_equal(tu_reg(t, "pg_shared", 0, 0), 5);
  tu_run_to(t, trip + 10);
  size_t k = 0;
  for (size_t i = 0; i < t->nev; i++) {
    const tu_ev_t *e = &t->ev[i];
    if (e->ev.kind != LFC_EV_DROP) continue;
    assert_int_equal(e->cycle, trip + 1 + k);
    assert_int_equal(e->ev.port, 1);
    assert_int_equal(e->ev.cls, 0);
    assert_int_equal(e->ev.cause, LFC_DROP_WATCHDOG);
    assert_int_equal(e->ev.tag, 100 + k);
    k++;
  }
  assert_int_equal(k, 3);
  assert_int_equal(tu_count_out(t, 1, LFC_DATA, 0, trip + 10), 0);
  const lfc_class_stats_t *st = &tu_stats(t, 1)->cls[0];
  assert_int_equal(st->drop_pkts[LFC_DROP_WATCHDOG], 3);
  assert_int_equal(st->drop_blocks[LFC_DROP_WATCHDOG], 5);
  assert_int_equal(tu_reg(t, "pg_shared", 0, 0), 0);
  assert_int_equal(tu_reg(t, "qlen", 1, 0), 0);
  tu_close(t);
}

/* SPEC §6.4, §6.8: a packet arriving for a queue in the drop state is dropped at admission with
 * cause WATCHDOG (an admission drop: the event names the ingress port); another class of the same
 * egress is unaffected. */
static void test_watchdog_drop_at_admission(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_wd(&c, LFC_WD_DROP);
  c.wd_restore = 1000;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, T0);
  tu_pfc(t, 1, 0x01, 1000);
  tu_at(t, 0, 30);
  tu_pkt(t, 0, 0, 2, 1, 200, 0);
  tu_pkt(t, 0, 1, 1, 1, 201, 0);
  tu_run_to(t, 40);
  const tu_ev_t *e = tu_find_ev(t, LFC_EV_DROP, -1, -1, -1);
  assert_non_null(e);
  assert_int_equal(e->cycle, 30);
  assert_int_equal(e->ev.port, 0);
  assert_int_equal(e->ev.cls, 0);
  assert_int_equal(e->ev.cause, LFC_DROP_WATCHDOG);
  assert_int_equal(e->ev.tag, 200);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 1);
  assert_int_equal(tu_reg(t, "pg_shared", 0, 0), 0);
  assert_int_equal(tu_stats(t, 0)->cls[0].rx_pkts, 0);
  /* counted once, under WATCHDOG (which port's counters hold an admission-time WATCHDOG drop is
   * not pinned here: see the report) */
  assert_int_equal(tu_stats(t, 0)->cls[0].drop_pkts[LFC_DROP_WATCHDOG] +
                       tu_stats(t, 1)->cls[0].drop_pkts[LFC_DROP_WATCHDOG],
                   1);
  assert_int_equal(tu_find_sop(t, 1, 201)->cycle, 33); /* sop 32, latency 1 */
  tu_close(t);
}

/* SPEC §6.8 (forward action): in storm the queue ignores its pause and is scheduled: packets held
 * by the pause leave from cycle trip + 1, one per cycle; nothing is dropped. */
static void test_watchdog_forward_ignores_pause(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_wd(&c, LFC_WD_FORWARD);
  tu_t *t = tu_open(&c);
  tu_at(t, 1, T0);
  tu_pfc(t, 1, 0x01, 1000);
  tu_at(t, 0, T0 + 1);
  for (uint32_t i = 0; i < 3; i++) tu_pkt(t, 0, 0, 1, 1, 300 + i, 0);
  const uint64_t trip = T0 + DETECT;
  tu_run_to(t, trip + 10);
  for (uint32_t i = 0; i < 3; i++) {
    const tu_out_t *o = tu_find_sop(t, 1, 300 + i);
    assert_non_null(o);
    assert_int_equal(o->cycle, trip + 1 + i);
  }
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 0);
  tu_close(t);
}

/* SPEC §6.8: with wd_enable = 0 nothing trips, however long the pause. */
static void test_watchdog_disabled_never_trips(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_wd(&c, LFC_WD_DROP);
  c.wd_enable = false;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, T0);
  tu_pfc(t, 1, 0x01, 1000);
  tu_at(t, 0, T0 + 1);
  tu_pkt(t, 0, 0, 1, 1, 400, 0);
  tu_run_to(t, 200);
  assert_int_equal(tu_count_ev(t, LFC_EV_WD_TRIP, -1, -1, -1), 0);
  assert_int_equal(tu_reg(t, "wd_storm", 1, 0), 0);
  assert_null(tu_find_sop(t, 1, 400));
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 0);
  tu_close(t);
}

/* ---- Every-cycle check of §6.7-§6.8 under random traffic ---- */

enum { WP = ORACLE_WD_PORTS, WC = ORACLE_WD_CLASSES };

/* Random pause frames (time 0..30, sometimes 0 = resume) and packets, every cycle checked by the
 * watchdog oracle (oracle_watchdog.c: §6.7, §6.8 and §8.1 from S(t)). */
static void random_watchdog_oracle(lfc_wd_action_t action, uint32_t seed) {
  print_message("random watchdog oracle: action %s seed 0x%08x\n",
                action == LFC_WD_DROP ? "drop" : "forward", seed);
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, WP, WC);
  c.cut_through = true;
  c.mtu_blocks = 4;
  for (int i = 0; i < 8; i++) c.drr_quantum[i] = 4;
  c.wd_enable = true;
  c.wd_detect = 12;
  c.wd_restore = 7;
  c.wd_action = action;
  tu_t *t = tu_open(&c);
  oracle_wd_t o;
  oracle_wd_init(&o, &c);
  uint32_t s = seed, left[WP] = {0}, tag = 1;
  lfc_word_t cur[WP];
  memset(cur, 0, sizeof cur);
  for (uint64_t cyc = 0; cyc < 6000; cyc++) {
    oracle_wd_begin(&o, t);
    lfc_word_t in[WP];
    memset(in, 0, sizeof in);
    for (uint32_t p = 0; p < WP; p++) {
      if (left[p] > 0) {
        in[p] = cur[p];
        in[p].sop = 0;
        in[p].eop = left[p] == 1;
        left[p]--;
      } else if (tu_rand(&s) % 100 < 12) {
        in[p].kind = LFC_PFC;
        in[p].pfc_en = (uint8_t)(tu_rand(&s) & 3u);
        for (int k = 0; k < WC; k++) in[p].pfc_time[k] = (uint16_t)(tu_rand(&s) % 4 ? tu_rand(&s) % 31 : 0);
      } else if (tu_rand(&s) % 100 < 30) {
        uint32_t n = 1 + tu_rand(&s) % 4;
        in[p] = tu_data_word(1, n == 1, tu_rand(&s) % WC, n, tu_rand(&s) % WP, tag++, 0);
        cur[p] = in[p];
        left[p] = n - 1;
      }
    }
    for (uint32_t p = 0; p < WP; p++) tu_word(t, p, &in[p]);
    tu_step(t);
    oracle_wd_check_step(&o, t, cyc, in);
  }
  print_message("  %llu trips, %llu restores, %llu discards\n", (unsigned long long)o.trips,
                (unsigned long long)o.restores, (unsigned long long)o.discards);
  assert_true(o.trips > 5 && o.restores > 5);
  if (action == LFC_WD_DROP) assert_true(o.discards > 0);
  tu_close(t);
}

/* SPEC §6.7, §6.8, §8.1: the every-cycle oracle, drop action. */
static void test_random_traffic_watchdog_follows_spec_drop(void **state) {
  (void)state;
  random_watchdog_oracle(LFC_WD_DROP, 0x0DD0C0DEu);
}

/* SPEC §6.7, §6.8, §8.1: the every-cycle oracle, forward action. */
static void test_random_traffic_watchdog_follows_spec_forward(void **state) {
  (void)state;
  random_watchdog_oracle(LFC_WD_FORWARD, 0xF0F0BEEFu);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_watchdog_trips_exactly_after_wd_detect),
      TU_TEST(test_watchdog_pause_of_exactly_wd_detect_trips),
      TU_TEST(test_watchdog_counts_cycles_with_speed_div),
      TU_TEST(test_watchdog_restores_after_wd_restore_and_retrips),
      TU_TEST(test_watchdog_restore_held_off_by_pause_frames),
      TU_TEST(test_watchdog_count_resets_when_unpaused),
      TU_TEST(test_watchdog_drop_discards_head_each_cycle),
      TU_TEST(test_watchdog_drop_at_admission),
      TU_TEST(test_watchdog_forward_ignores_pause),
      TU_TEST(test_watchdog_disabled_never_trips),
      TU_TEST(test_random_traffic_watchdog_follows_spec_drop),
      TU_TEST(test_random_traffic_watchdog_follows_spec_forward),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
