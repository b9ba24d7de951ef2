/*
 * test_buffer.c - PFC-mode buffer accounting (docs/SPEC.md §6.1-§6.4): reserve, shared pool and
 * headroom per PG, static and dynamic thresholds, the shared-pool chain across ports in one
 * cycle, the order of freeing, and the HEADROOM and SHARED drop causes.
 *
 * Packets are held in the buffer by a long pipeline latency (§7.2: a packet is charged from its
 * first block until its first block leaves). Register values are read from S(t+1) after the
 * admission in cycle t (§4.1 step E).
 */
#include "testutil.h"
#include "oracle_buffer.h"

#include <string.h>

static void cfg_buf(lfc_switch_cfg_t *c) {
  tu_cfg_pfc(c, 4, 2); /* lossy, shared 65536, xoff_th 65536 */
  c->latency = 1000;   /* store-and-forward: held for 1000 cycles after the last block */
}

static void expect_pg(const tu_t *t, uint32_t p, uint32_t cls, uint64_t min, uint64_t shared,
                      uint64_t hdrm) {
  uint64_t a = tu_reg(t, "pg_min", p, cls), b = tu_reg(t, "pg_shared", p, cls),
           h = tu_reg(t, "pg_hdrm", p, cls);
  if (a != min || b != shared || h != hdrm) {
    fail_msg("PG (%u,%u) at cycle %llu: pg_min/pg_shared/pg_hdrm = %llu/%llu/%llu, expected "
             "%llu/%llu/%llu",
             p, cls, (unsigned long long)tu_now(t), (unsigned long long)a,
             (unsigned long long)b, (unsigned long long)h, (unsigned long long)min,
             (unsigned long long)shared, (unsigned long long)hdrm);
  }
}

static void expect_drop(const tu_t *t, uint64_t cycle, uint32_t port, uint32_t cls,
                        lfc_drop_cause_t cause, uint32_t tag) {
  for (size_t i = 0; i < t->nev; i++) {
    const tu_ev_t *e = &t->ev[i];
    if (e->ev.kind == LFC_EV_DROP && e->ev.tag == tag) {
      if (e->cycle != cycle || e->ev.port != port || e->ev.cls != cls || e->ev.cause != cause) {
        fail_msg("drop of tag 0x%x: cycle %llu port %u cls %u cause %s; expected cycle %llu port "
                 "%u cls %u cause %s",
                 tag, (unsigned long long)e->cycle, e->ev.port, e->ev.cls,
                 lfc_drop_cause_name((lfc_drop_cause_t)e->ev.cause), (unsigned long long)cycle,
                 port, cls, lfc_drop_cause_name(cause));
      }
      return;
    }
  }
  fail_msg("no drop event for tag 0x%x (expected cause %s)", tag, lfc_drop_cause_name(cause));
}

static bool dropped(const tu_t *t, uint32_t tag) {
  for (size_t i = 0; i < t->nev; i++) {
    if (t->ev[i].ev.kind == LFC_EV_DROP && t->ev[i].ev.tag == tag) return true;
  }
  return false;
}

/* SPEC §6.4 steps 1-3: r = min(n, reserve - pg_min) to the reserve, the rest to the shared pool.
 * reserve 4: a 10-block packet gives pg_min 4, pg_shared 6; a 3-block one then all shared (9). */
static void test_admission_reserve_first_then_shared(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.reserve_blocks = 4;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  uint64_t s1 = tu_pkt(t, 0, 1, 10, 3, 1, 0);
  uint64_t s2 = tu_pkt(t, 0, 1, 3, 3, 2, 0);
  tu_run_to(t, s1 + 1);
  expect_pg(t, 0, 1, 4, 6, 0);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 6);
  tu_run_to(t, s2 + 1);
  expect_pg(t, 0, 1, 4, 9, 0);
  expect_pg(t, 0, 0, 0, 0, 0);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 9);
  const lfc_class_stats_t *st = &tu_stats(t, 0)->cls[1];
  assert_int_equal(st->rx_pkts, 2);
  assert_int_equal(st->rx_blocks, 13);
  assert_int_equal(st->peak_pg, 13);
  tu_close(t);
}

/* SPEC §6.4 steps 3-4: when pg_shared + rest > T the whole rest goes to headroom (no split).
 * xoff_th 16: 10 blocks to shared, then 10 more: 20 > 16, so pg_shared 10, pg_hdrm 10. */
static void test_admission_overflow_goes_whole_to_headroom(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.lossless_mask = 0x01;
  c.xoff_th = 16;
  c.headroom_blocks = 100;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 10, 3, 1, 0);
  uint64_t s2 = tu_pkt(t, 0, 0, 10, 3, 2, 0);
  tu_run_to(t, s2 + 1);
  expect_pg(t, 0, 0, 0, 10, 10);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 10);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 0);
  tu_close(t);
}

/* SPEC §6.4 step 5, §10: a lossless PG whose shared share and headroom are both full drops with
 * cause HEADROOM, counted per ingress port and class, and takes nothing from any pool.
 * xoff_th 4, headroom 6 on (port 2, class 1): 4 shared, 6 headroom, then 3 dropped. */
static void test_drop_headroom(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.lossless_mask = 0x02;
  c.xoff_th = 4;
  c.headroom_blocks = 6;
  tu_t *t = tu_open(&c);
  tu_at(t, 2, 2);
  tu_pkt(t, 2, 1, 4, 0, 0xC1, 0);
  tu_pkt(t, 2, 1, 6, 0, 0xC2, 0);
  uint64_t s3 = tu_pkt(t, 2, 1, 3, 0, 0xC3, 0);
  tu_run_to(t, s3 + 4);
  expect_drop(t, s3, 2, 1, LFC_DROP_HEADROOM, 0xC3);
  assert_int_equal(tu_count_ev(t, LFC_EV_DROP, -1, -1, -1), 1);
  expect_pg(t, 2, 1, 0, 4, 6);
  const lfc_class_stats_t *st = &tu_stats(t, 2)->cls[1];
  assert_int_equal(st->drop_pkts[LFC_DROP_HEADROOM], 1);
  assert_int_equal(st->drop_blocks[LFC_DROP_HEADROOM], 3);
  assert_int_equal(st->rx_pkts, 2);
  assert_int_equal(st->rx_blocks, 10);
  assert_int_equal(tu_stats(t, 2)->rx_malformed, 0);
  tu_close(t);
}

/* SPEC §6.4 step 5: a lossy PG over its threshold drops with cause SHARED (no headroom).
 * xoff_th 4 on (port 1, class 0): 4 admitted, then 2 dropped. */
static void test_drop_shared_lossy_threshold(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.xoff_th = 4;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 2);
  tu_pkt(t, 1, 0, 4, 0, 0xD1, 0);
  uint64_t s2 = tu_pkt(t, 1, 0, 2, 0, 0xD2, 0);
  tu_run_to(t, s2 + 3);
  expect_drop(t, s2, 1, 0, LFC_DROP_SHARED, 0xD2);
  expect_pg(t, 1, 0, 0, 4, 0);
  assert_int_equal(tu_stats(t, 1)->cls[0].drop_pkts[LFC_DROP_SHARED], 1);
  assert_int_equal(tu_stats(t, 1)->cls[0].drop_blocks[LFC_DROP_SHARED], 2);
  tu_close(t);
}

/* SPEC §6.4 step 3: the pool itself limits: used + rest <= shared_blocks. shared_blocks 8 and 6
 * used by port 0: 3 more on port 1 (lossy) is dropped SHARED although its PG is empty; 3 on a
 * lossless PG (port 2, class 1) goes to headroom instead. */
static void test_drop_shared_pool_exhausted(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.shared_blocks = 8;
  c.xoff_th = 100;
  c.lossless_mask = 0x02;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 6, 3, 0xE1, 0);
  tu_at(t, 1, 10);
  uint64_t s2 = tu_pkt(t, 1, 0, 3, 3, 0xE2, 0);
  tu_at(t, 2, 20);
  uint64_t s3 = tu_pkt(t, 2, 1, 3, 3, 0xE3, 0);
  tu_run_to(t, s3 + 1);
  expect_drop(t, s2, 1, 0, LFC_DROP_SHARED, 0xE2);
  assert_false(dropped(t, 0xE3));
  expect_pg(t, 2, 1, 0, 0, 3);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 6);
  tu_close(t);
}

/* SPEC §6.4 step 3, §4.1 step E: admissions of one cycle see the shared blocks taken by lower
 * ports in the same cycle (the chain), in ascending port order. shared_blocks 10; ports 0, 1, 2
 * each start a 4-block packet in cycle 5: 4, 8, then 12 > 10: port 2 is the one dropped. */
static void test_shared_pool_chain_ascending_ports(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.shared_blocks = 10;
  c.xoff_th = 100;
  tu_t *t = tu_open(&c);
  for (uint32_t p = 0; p < 3; p++) {
    tu_at(t, p, 5);
    tu_pkt(t, p, 0, 4, 3, 0x10 + p, 0);
  }
  tu_run_to(t, 10);
  assert_false(dropped(t, 0x10));
  assert_false(dropped(t, 0x11));
  expect_drop(t, 5, 2, 0, LFC_DROP_SHARED, 0x12);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 8);
  assert_int_equal(tu_reg(t, "pg_shared", 0, 0) + tu_reg(t, "pg_shared", 1, 0) +
                       tu_reg(t, "pg_shared", 2, 0),
                   8);
  tu_close(t);
}

/* SPEC §6.4 step 3: only admitted packets extend the chain. Sizes 4, 7, 2 in one cycle: port 0
 * takes 4; port 1 needs 4 + 7 = 11 > 10 and is dropped; port 2 sees 4 (not 11): 6 <= 10, admitted. */
static void test_shared_pool_chain_skips_dropped_port(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.shared_blocks = 10;
  c.xoff_th = 100;
  tu_t *t = tu_open(&c);
  static const uint32_t size[3] = {4, 7, 2};
  for (uint32_t p = 0; p < 3; p++) {
    tu_at(t, p, 5);
    tu_pkt(t, p, 0, size[p], 3, 0x20 + p, 0);
  }
  tu_run_to(t, 12);
  assert_false(dropped(t, 0x20));
  expect_drop(t, 5, 1, 0, LFC_DROP_SHARED, 0x21);
  assert_false(dropped(t, 0x22));
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 6);
  tu_close(t);
}

/* SPEC §4.1 ("frees and admissions of one cycle do not see each other"), §6.3: shared_blocks 4,
 * cut-through latency 5. A 4-block packet from port 0 (sop 2) starts on port 3 in 7 and is freed
 * in step B of 7; a 1-block packet arriving on port 1 in 7 still sees shared_used 4 and is dropped,
 * one arriving in 8 is admitted (and leaves port 2 in 8 + 5 = 13). */
static void test_free_and_admission_same_cycle_do_not_see_each_other(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.shared_blocks = 4;
  c.xoff_th = 100;
  c.cut_through = true;
  c.latency = 5;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 4, 3, 0x30, 0);
  tu_at(t, 1, 7);
  tu_pkt(t, 1, 0, 1, 2, 0x31, 0);
  tu_pkt(t, 1, 0, 1, 2, 0x32, 0);
  tu_run_to(t, 20);
  assert_int_equal(tu_find_sop(t, 3, 0x30)->cycle, 7);
  expect_drop(t, 7, 1, 0, LFC_DROP_SHARED, 0x31);
  assert_false(dropped(t, 0x32));
  assert_int_equal(tu_find_sop(t, 2, 0x32)->cycle, 13);
  tu_close(t);
}

/* SPEC §6.3: a PG frees headroom first, then shared, then reserve. reserve 4, xoff_th 8,
 * headroom 10: A (4 blocks) -> reserve, B (8) -> shared, C (3) -> headroom (8 + 3 > 8). When A
 * (4 blocks) leaves: h = min(3, 4) = 3, s = min(8, 1) = 1, m = 0: pg_min 4, pg_shared 7,
 * pg_hdrm 0 (reserve-first would give 0/8/3, shared-first 4/4/3). Store-and-forward latency 12:
 * A ready in 5 + 12 = 17, after C's admission in 14. */
static void test_free_order_headroom_then_shared_then_reserve(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.lossless_mask = 0x01;
  c.reserve_blocks = 4;
  c.xoff_th = 8;
  c.headroom_blocks = 10;
  c.latency = 12;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 4, 1, 0x41, 0);  /* 2..5 */
  tu_pkt(t, 0, 0, 8, 1, 0x42, 0);  /* 6..13 */
  tu_pkt(t, 0, 0, 3, 1, 0x43, 0);  /* 14..16 */
  tu_run_to(t, 17);
  expect_pg(t, 0, 0, 4, 8, 3);
  tu_run_to(t, 18);
  assert_int_equal(tu_find_sop(t, 1, 0x41)->cycle, 17);
  expect_pg(t, 0, 0, 4, 7, 0);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 7);
  tu_close(t);
}

/* SPEC §6.3: several frees of one PG in one cycle apply in ascending egress-port order (= their
 * sum once). PG (0, 0) with reserve 2, xoff_th 2, lossless: A (2 blocks, to port 1) -> reserve,
 * B (2, to port 2) -> shared, C (2, to port 1) -> headroom. Ports 1 and 2 are paused and resumed
 * together, so A and B start in the same cycle 21: port 1 frees 2 from headroom, port 2 then 2
 * from shared: pg_min 2, pg_shared 0, pg_hdrm 0. C (behind A) frees the reserve in 23. */
static void test_two_frees_of_one_pg_in_one_cycle(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.lossless_mask = 0x01;
  c.reserve_blocks = 2;
  c.xoff_th = 2;
  c.headroom_blocks = 10;
  c.cut_through = true;
  c.latency = 1;
  tu_t *t = tu_open(&c);
  tu_at(t, 1, 1);
  tu_pfc(t, 1, 0x01, 65535);
  tu_at(t, 2, 1);
  tu_pfc(t, 2, 0x01, 65535);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 2, 1, 0x71, 0);
  tu_pkt(t, 0, 0, 2, 2, 0x72, 0);
  tu_pkt(t, 0, 0, 2, 1, 0x73, 0);
  tu_at(t, 1, 20);
  tu_pfc(t, 1, 0x01, 0);
  tu_at(t, 2, 20);
  tu_pfc(t, 2, 0x01, 0);
  tu_run_to(t, 21);
  expect_pg(t, 0, 0, 2, 2, 2);
  tu_run_to(t, 22);
  assert_int_equal(tu_find_sop(t, 1, 0x71)->cycle, 21);
  assert_int_equal(tu_find_sop(t, 2, 0x72)->cycle, 21);
  expect_pg(t, 0, 0, 2, 0, 0);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 0);
  tu_run_to(t, 24);
  assert_int_equal(tu_find_sop(t, 1, 0x73)->cycle, 23);
  expect_pg(t, 0, 0, 0, 0, 0);
  tu_close(t);
}

/* SPEC §6.2: dynamic threshold with alpha_log2 = -1: T = floor((shared_blocks - shared_used) / 2).
 * shared_blocks 101: T = 50, so 51 blocks are dropped (SHARED, lossy) and 50 admitted; then on
 * port 1 T = floor(51 / 2) = 25: 26 dropped, 25 admitted. */
static void test_dynamic_threshold_alpha_negative(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.dynamic_th = true;
  c.alpha_log2 = -1;
  c.shared_blocks = 101;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  uint64_t a1 = tu_pkt(t, 0, 0, 51, 3, 0x51, 0);
  tu_pkt(t, 0, 0, 50, 3, 0x52, 0);
  tu_at(t, 1, 120);
  uint64_t b1 = tu_pkt(t, 1, 0, 26, 3, 0x53, 0);
  tu_pkt(t, 1, 0, 25, 3, 0x54, 0);
  tu_run_to(t, 200);
  expect_drop(t, a1, 0, 0, LFC_DROP_SHARED, 0x51);
  assert_false(dropped(t, 0x52));
  expect_drop(t, b1, 1, 0, LFC_DROP_SHARED, 0x53);
  assert_false(dropped(t, 0x54));
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 75);
  tu_close(t);
}

/* SPEC §6.2: alpha_log2 = 1: T = 2 x free. shared_blocks 100: 60 admitted (T 200); then 30 on the
 * same PG: T = 2 x 40 = 80 < 60 + 30, dropped; 20: 80 <= 80 and used 80 <= 100, admitted. */
static void test_dynamic_threshold_alpha_positive(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  cfg_buf(&c);
  c.dynamic_th = true;
  c.alpha_log2 = 1;
  c.shared_blocks = 100;
  tu_t *t = tu_open(&c);
  tu_at(t, 0, 2);
  tu_pkt(t, 0, 0, 60, 3, 0x61, 0);
  uint64_t s2 = tu_pkt(t, 0, 0, 30, 3, 0x62, 0);
  tu_pkt(t, 0, 0, 20, 3, 0x63, 0);
  tu_run_to(t, 150);
  assert_false(dropped(t, 0x61));
  expect_drop(t, s2, 0, 0, LFC_DROP_SHARED, 0x62);
  assert_false(dropped(t, 0x63));
  expect_pg(t, 0, 0, 0, 80, 0);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 80);
  tu_close(t);
}

/* ---- Every-cycle check of §6.3-§6.5 under random traffic ---- */

/* Random traffic into a 4-port, 2-class switch, every cycle checked by the buffer oracle
 * (oracle_buffer.c: §6.2-§6.5 and §10 from S(t)); xorshift32 traffic, seed fixed and printed. */
enum { RP = ORACLE_BUF_PORTS, RC = ORACLE_BUF_CLASSES, RMAX_TAGS = ORACLE_BUF_MAX_TAGS };

static void random_buffer_oracle(bool dynamic, int32_t alpha_log2, uint32_t seed) {
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, RP, RC);
  c.lossless_mask = 0x01;
  c.mtu_blocks = 16;
  for (int i = 0; i < 8; i++) c.drr_quantum[i] = 16;
  c.reserve_blocks = 4;
  c.shared_blocks = 120;
  c.headroom_blocks = 40;
  c.xoff_th = 30;
  c.dynamic_th = dynamic;
  c.alpha_log2 = alpha_log2;
  c.xon_offset = 6;
  c.latency = 3;
  print_message("random buffer oracle: dynamic %d alpha_log2 %d seed 0x%08x\n", dynamic,
                alpha_log2, seed);
  tu_t *t = tu_open(&c);
  static oracle_buf_t o;
  oracle_buf_init(&o, &c);
  oracle_buf_pkt_t *pk = o.pk;
  uint32_t s = seed, ntag = 0;
  uint32_t left[RP] = {0}, cur_tag[RP] = {0};
  for (uint64_t cyc = 0; cyc < 6000; cyc++) {
    oracle_buf_begin(&o, t);
    /* inputs of this cycle */
    lfc_word_t in[RP];
    memset(in, 0, sizeof in);
    for (uint32_t p = 0; p < RP; p++) {
      if (left[p] > 0) {
        const oracle_buf_pkt_t *k = &pk[cur_tag[p]];
        in[p] = tu_data_word(0, left[p] == 1, k->cls, k->nblk, 0, cur_tag[p], 0);
        left[p]--;
      } else if (tu_rand(&s) % 100 < 35 && ntag < RMAX_TAGS) {
        uint32_t n = 1 + tu_rand(&s) % 16, k = tu_rand(&s) % RC, dst = tu_rand(&s) % RP;
        pk[ntag] = (oracle_buf_pkt_t){(uint8_t)p, (uint8_t)k, (uint8_t)n};
        in[p] = tu_data_word(1, n == 1, k, n, dst, ntag, 0);
        cur_tag[p] = ntag++;
        left[p] = n - 1;
      } else if (tu_rand(&s) % 100 < 3) {
        in[p].kind = LFC_PFC;
        in[p].pfc_en = (uint8_t)(tu_rand(&s) & 3u);
        for (int k = 0; k < 2; k++) in[p].pfc_time[k] = (uint16_t)(tu_rand(&s) % 150);
      }
    }
    for (uint32_t p = 0; p < RP; p++) tu_word(t, p, &in[p]);
    tu_step(t);
    oracle_buf_check_step(&o, t, cyc, in);
  }
  /* the traffic must have exercised what is checked */
  print_message("  %llu drops, %llu headroom admissions, %llu xoff transitions\n",
                (unsigned long long)o.drops, (unsigned long long)o.hdrm_seen,
                (unsigned long long)o.xoffs);
  assert_true(o.drops > 0);
  assert_true(o.hdrm_seen > 0);
  assert_true(o.xoffs > 0);
  tu_close(t);
}

/* SPEC §6.2 (static), §6.3-§6.5, §10: the every-cycle oracle with T = xoff_th. */
static void test_random_traffic_buffer_and_xoff_follow_spec_static(void **state) {
  (void)state;
  random_buffer_oracle(false, 0, 0x5EED0001u);
}

/* SPEC §6.2 (dynamic, alpha 1/2 and 2), §6.3-§6.5, §10: the same oracle with T = alpha x free. */
static void test_random_traffic_buffer_and_xoff_follow_spec_dynamic(void **state) {
  (void)state;
  random_buffer_oracle(true, -1, 0x5EED0002u);
  random_buffer_oracle(true, 1, 0x5EED0003u);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_admission_reserve_first_then_shared),
      TU_TEST(test_admission_overflow_goes_whole_to_headroom),
      TU_TEST(test_drop_headroom),
      TU_TEST(test_drop_shared_lossy_threshold),
      TU_TEST(test_drop_shared_pool_exhausted),
      TU_TEST(test_shared_pool_chain_ascending_ports),
      TU_TEST(test_shared_pool_chain_skips_dropped_port),
      TU_TEST(test_free_and_admission_same_cycle_do_not_see_each_other),
      TU_TEST(test_free_order_headroom_then_shared_then_reserve),
      TU_TEST(test_two_frees_of_one_pg_in_one_cycle),
      TU_TEST(test_dynamic_threshold_alpha_negative),
      TU_TEST(test_dynamic_threshold_alpha_positive),
      TU_TEST(test_random_traffic_buffer_and_xoff_follow_spec_static),
      TU_TEST(test_random_traffic_buffer_and_xoff_follow_spec_dynamic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
