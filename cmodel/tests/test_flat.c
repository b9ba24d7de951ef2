/*
 * test_flat.c - the FFI facade lfc/flat.h (cmodel/src/flat.c): configuration text, errors, and
 * that stepping through it is stepping the switch (SPEC §13: the stat_* mapping of the model's
 * events); a NULL configuration text; and lfc_word_format (declared in lfc/types.h, defined in
 * flat.c), the text of a link word in reports and mismatch messages, in the form lfc/flat.h
 * documents ("DATA sop cls=1 nblk=3 dst=2 tag=0x00000007 ecn=2", "FCP vl=0 fctbs=12 fccl=2060",
 * "IDLE"): each kind exactly, the FCP ops named, PFC priorities listed when enabled or non-zero;
 * a short buffer gets a terminated prefix (a one-byte buffer the empty one), a zero-length
 * buffer is left alone.
 */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/flat.h"
#include "lfc/switch.h"

#include "testutil.h"
#include "lfc/link.h"
#include "lfc/star.h"

/* Cycles and seed of the random-input comparison with lfc_switch_step. */
#define RANDOM_CYCLES 5000u
#define RANDOM_SEED 12345u

static void assert_contains(const char *text, const char *part) {
  if (strstr(text, part) == NULL) print_error("'%s' does not contain '%s'\n", text, part);
  assert_non_null(strstr(text, part));
}

/* A handle whose creation must fail with a message containing `part`. */
static void expect_config_error(const char *text, const char *part) {
  lfc_flat_t *h = lfc_flat_create(text);
  assert_non_null(h);
  assert_int_equal(lfc_flat_ok(h), 0);
  assert_contains(lfc_flat_error(h), part);
  /* Every call fails and keeps the creation error. */
  assert_int_equal(lfc_flat_step(h), -1);
  assert_int_equal(lfc_flat_out(h, 0, LFC_FLAT_KIND), -1);
  assert_int_equal(lfc_flat_reg(h, 0, 0, 0), -1);
  assert_int_equal(lfc_flat_param(h, "ports", 0), -1);
  assert_int_equal(lfc_flat_reset(h), -1);
  assert_int_equal(lfc_flat_clear_in(h), -1);
  assert_int_equal(lfc_flat_cycle(h), -1);
  assert_int_equal(lfc_flat_stat(h, 0, 0), -1);
  assert_int_equal(lfc_flat_event_count(h), -1);
  assert_int_equal(lfc_flat_event(h, 0, LFC_FLAT_EV_KIND), -1);
  assert_int_equal(lfc_flat_reg_by_name(h, "rx_rem", 0, 0), -1);
  assert_int_equal(lfc_flat_set_in(h, 0, LFC_FLAT_KIND, 0), -1);
  assert_int_equal(lfc_flat_in(h, 0, LFC_FLAT_KIND), -1);
  assert_contains(lfc_flat_error(h), part);
  lfc_flat_destroy(h);
}

static lfc_flat_t *make(const char *text) {
  lfc_flat_t *h = lfc_flat_create(text);
  assert_non_null(h);
  if (!lfc_flat_ok(h)) print_error("create: %s\n", lfc_flat_error(h));
  assert_int_equal(lfc_flat_ok(h), 1);
  return h;
}

static void test_config_errors_name_item_key_and_value(void **state) {
  (void)state;
  expect_config_error("switch.ports=4", "switch.mode is missing");
  expect_config_error("switch.mode=ib; pfc.nope=1", "config item 2: unknown key pfc.nope");
  expect_config_error("switch.mode=ib\nswitch.ports=1", "config item 2: switch.ports = '1'");
  expect_config_error("switch.mode=token", "allowed values: ib, pfc");
  expect_config_error("switch.mode=pfc; switch.mode=ib", "switch.mode given twice");
  /* The shortest items ("a.b=", 4 characters and a separator) all fit the item table: the
     error is the one the items make, never a table too small for them. */
  expect_config_error("a.b=", "switch.mode is missing");
  expect_config_error("a.b=;a.b=", "config item 2: a.b given twice (first as item 1)");
  expect_config_error("a.b=;c.d=;e.f=", "switch.mode is missing");
  expect_config_error("a.b=;c.d=;e.f=;g.h=;i.j=;k.l=", "switch.mode is missing");
  expect_config_error("switch.mode=pfc; kmin=3", "config item 2 'kmin=3': expected section.key");
  expect_config_error("switch.mode=pfc; pfc.kmin", "expected section.key=value");
  /* A combination of SPEC §3.3, judged by lfc_switch_cfg_check. */
  expect_config_error("switch.mode=pfc; pfc.kmin=64; pfc.kmax=16", "config: ");
  /* classes is known when the per-class list is parsed, whatever the order of the items. */
  expect_config_error("ib.vl_blocks=100,100,100; switch.mode=ib; switch.classes=2",
                      "or 2 (one per class)");
  lfc_flat_t *h = lfc_flat_create(NULL);
  assert_int_equal(lfc_flat_ok(h), 0);
  lfc_flat_destroy(h);
  assert_contains(lfc_flat_error(NULL), "NULL handle");
  assert_int_equal(lfc_flat_ok(NULL), 0);
}

static void test_config_text_defaults_and_params(void **state) {
  (void)state;
  lfc_flat_t *h = make(" # a comment item\n switch.speed_div = 1,2,1 ;pfc.ecn_mask=1\n"
                       "switch.mode = pfc;switch.ports=3;;pfc.alpha_log2=-2\n");
  assert_int_equal(lfc_flat_param(h, "mode", 0), LFC_MODE_PFC);
  assert_int_equal(lfc_flat_param(h, "ports", 0), 3);
  assert_int_equal(lfc_flat_param(h, "classes", 0), 2); /* SPEC §3.1 default */
  assert_int_equal(lfc_flat_param(h, "speed_div", 1), 2);
  assert_int_equal(lfc_flat_param(h, "ecn_mask", 0), 1);
  assert_int_equal(lfc_flat_param(h, "mtu_blocks", 0), 65);
  assert_int_equal(lfc_flat_param(h, "drr_quantum", 1), 65); /* default = mtu_blocks */
  assert_int_equal(lfc_flat_param(h, "alpha_log2", 0), 0xfffffffeu);
  assert_int_equal(lfc_flat_param(h, "speed_div", 3), -1);
  assert_contains(lfc_flat_error(h), "speed_div[3]");
  assert_contains(lfc_flat_error(h), "index out of range 0..2");
  assert_int_equal(lfc_flat_param(h, "nope", 0), -1);
  assert_contains(lfc_flat_error(h), "param nope: unknown");
  assert_int_equal(lfc_flat_param(h, "vlarb_low", 0), -1);
  assert_contains(lfc_flat_error(h), "param vlarb_low: a table");
  lfc_flat_destroy(h);
}

static void test_names_and_widths(void **state) {
  (void)state;
  assert_int_equal(lfc_flat_field_count(), LFC_FLAT_FIELDS);
  assert_int_equal(lfc_flat_field_find("tag"), LFC_FLAT_TAG);
  assert_int_equal(lfc_flat_field_find("pfc_time7"), LFC_FLAT_PFC_TIME0 + 7);
  assert_int_equal(lfc_flat_field_find("nope"), -1);
  assert_int_equal(lfc_flat_field_width(LFC_FLAT_FC_FCCL), 12);
  assert_int_equal(lfc_flat_field_width(LFC_FLAT_FIELDS), -1);
  /* SPEC §2: the fields of one port add up to the RTL's bits per port (2+1+1+4+8+16+32+2+4+4+
     12+12+8+128+6+1 = 241). */
  int bits = 0;
  for (int f = 0; f < lfc_flat_field_count(); f++) bits += lfc_flat_field_width(f);
  assert_int_equal(bits, 241);
  assert_int_equal(lfc_flat_field_find("pad"), LFC_FLAT_PAD);
  assert_int_equal(lfc_flat_field_width(LFC_FLAT_MRG), 1);
  assert_string_equal(lfc_flat_stat_name(LFC_FLAT_STAT_WD_DROP), "stat_wd_drop_o");
  assert_int_equal(lfc_flat_stat_width(LFC_FLAT_STAT_DROP_CAUSE), 3);
  assert_string_equal(lfc_flat_stat_name(-1), "");
  /* SPEC §13.1: index 24 is pause_timer, 21 bits, per (port, class), PFC. */
  assert_int_equal(lfc_flat_reg_find("pause_timer"), 24);
  assert_string_equal(lfc_flat_reg_name(24), "pause_timer");
  assert_int_equal(lfc_flat_reg_width(24), 21);
  assert_int_equal(lfc_flat_reg_scope(24), 2);
  assert_int_equal(lfc_flat_reg_mode(24), LFC_MODE_PFC);
  assert_int_equal(lfc_flat_reg_count(), (int)lfc_reg_count());
  assert_int_equal(lfc_flat_reg_width(lfc_flat_reg_count()), -1);
  assert_string_equal(lfc_flat_cause_name(LFC_DROP_MALFORMED), "malformed");
  assert_string_equal(lfc_flat_event_kind_name(LFC_EV_WD_TRIP), "wd_trip");
  assert_string_equal(lfc_flat_event_kind_name(LFC_EV_KINDS), "");
}

static void test_bad_arguments_fail_with_a_reason(void **state) {
  (void)state;
  lfc_flat_t *h = make("switch.mode=ib");
  assert_int_equal(lfc_flat_set_in(h, 0, LFC_FLAT_KIND, 4), -1); /* kind is 2 bits */
  assert_contains(lfc_flat_error(h), "does not fit its 2 bits (0..3)");
  assert_int_equal(lfc_flat_set_in(h, 0, LFC_FLAT_TAG, 0xffffffffu), 0);
  assert_int_equal(lfc_flat_set_in(h, 4, LFC_FLAT_KIND, 1), -1);
  assert_contains(lfc_flat_error(h), "port 4 does not exist: ports are 0..3");
  assert_int_equal(lfc_flat_set_in(h, 0, LFC_FLAT_FIELDS, 1), -1);
  assert_contains(lfc_flat_error(h), "field 23 does not exist");
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STATS, 0), -1);
  assert_int_equal(lfc_flat_event(h, 0, LFC_FLAT_EV_KIND), -1); /* no step yet: no events */
  assert_int_equal(lfc_flat_reg(h, 999, 0, 0), -1);
  assert_int_equal(lfc_flat_reg_by_name(h, "fctbs", 0, 16), -1);
  assert_contains(lfc_flat_error(h), "class 16");
  assert_int_equal(lfc_flat_reg_by_name(h, "nope", 0, 0), -1);
  assert_contains(lfc_flat_error(h), "'nope'");
  assert_string_equal(lfc_flat_format_out(h, 9), "");
  lfc_flat_destroy(h);
  lfc_flat_destroy(NULL);
}

/* xorshift32: the random inputs of the comparison below. */
static uint32_t rnd(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/*
 * Stepping through the facade is lfc_switch_step: random words on every field (legal and not:
 * the model takes any input, SPEC §7.2) give the same outputs, events and registers as a switch
 * built from the same lfc_switch_cfg_t and stepped directly.
 */
static void run_against_switch(const char *text, lfc_mode_t mode) {
  lfc_flat_t *h = make(text);
  lfc_switch_cfg_t cfg;
  lfc_switch_cfg_default(&cfg, mode, 4, 2);
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&cfg, err, sizeof err);
  assert_non_null(sw);
  uint32_t seed = RANDOM_SEED;
  print_message("test_flat: random inputs, seed %u, %u cycles\n", seed, RANDOM_CYCLES);
  lfc_word_t in[4], out[4];
  for (uint32_t t = 0; t < RANDOM_CYCLES; t++) {
    for (int p = 0; p < 4; p++) {
      memset(&in[p], 0, sizeof in[p]);
      /* Mostly well-formed 1-block packets to existing ports, so that queues fill and drain. */
      uint32_t r = rnd(&seed);
      uint32_t kind = r % 8u < 5u ? LFC_DATA : r % 4u;
      assert_int_equal(lfc_flat_set_in(h, p, LFC_FLAT_KIND, kind), 0);
      for (int f = LFC_FLAT_SOP; f < LFC_FLAT_FIELDS; f++) {
        int w = lfc_flat_field_width(f);
        uint32_t v = rnd(&seed);
        if (w < 32) v &= (1u << w) - 1u;
        if (kind == LFC_DATA && (f == LFC_FLAT_SOP || f == LFC_FLAT_EOP)) v = 1;
        if (kind == LFC_DATA && f == LFC_FLAT_NBLK) v = 1;
        if (kind == LFC_DATA && f == LFC_FLAT_CLS) v &= 1u;
        if (kind == LFC_DATA && f == LFC_FLAT_DST) v &= 3u;
        if (kind == LFC_DATA && f == LFC_FLAT_MRG) v = r % 16u == 0u; /* a few malformed (§7.2) */
        assert_int_equal(lfc_flat_set_in(h, p, f, v), 0);
        assert_int_equal(lfc_flat_in(h, p, f), v);
      }
      in[p].kind = (uint8_t)kind;
      in[p].sop = (uint8_t)lfc_flat_in(h, p, LFC_FLAT_SOP);
      in[p].eop = (uint8_t)lfc_flat_in(h, p, LFC_FLAT_EOP);
      in[p].cls = (uint8_t)lfc_flat_in(h, p, LFC_FLAT_CLS);
      in[p].nblk = (uint8_t)lfc_flat_in(h, p, LFC_FLAT_NBLK);
      in[p].dst = (uint16_t)lfc_flat_in(h, p, LFC_FLAT_DST);
      in[p].tag = (uint32_t)lfc_flat_in(h, p, LFC_FLAT_TAG);
      in[p].ecn = (uint8_t)lfc_flat_in(h, p, LFC_FLAT_ECN);
      in[p].fc_op = (uint8_t)lfc_flat_in(h, p, LFC_FLAT_FC_OP);
      in[p].fc_vl = (uint8_t)lfc_flat_in(h, p, LFC_FLAT_FC_VL);
      in[p].fc_fctbs = (uint16_t)lfc_flat_in(h, p, LFC_FLAT_FC_FCTBS);
      in[p].fc_fccl = (uint16_t)lfc_flat_in(h, p, LFC_FLAT_FC_FCCL);
      in[p].pfc_en = (uint8_t)lfc_flat_in(h, p, LFC_FLAT_PFC_EN);
      in[p].pad = (uint8_t)lfc_flat_in(h, p, LFC_FLAT_PAD);
      in[p].mrg = (uint8_t)lfc_flat_in(h, p, LFC_FLAT_MRG);
      for (int i = 0; i < 8; i++)
        in[p].pfc_time[i] = (uint16_t)lfc_flat_in(h, p, LFC_FLAT_PFC_TIME0 + i);
    }
    /* Registers of S(t), before the step. */
    for (int r = 0; r < lfc_flat_reg_count(); r++) {
      uint64_t mask = lfc_flat_reg_width(r) >= 32 ? 0xffffffffu
                                                  : (1ull << lfc_flat_reg_width(r)) - 1u;
      uint32_t p = t % 4u, c = (t / 4u) % 2u;
      assert_int_equal(lfc_flat_reg(h, r, (int)p, (int)c),
                       lfc_switch_reg(sw, (size_t)r, p, c) & mask);
    }
    int64_t n = lfc_flat_step(h);
    lfc_switch_step(sw, in, out);
    const lfc_event_t *ev;
    size_t nev = lfc_switch_events(sw, &ev);
    assert_int_equal(n, (int64_t)nev);
    assert_int_equal(lfc_flat_cycle(h), (int64_t)t + 1);
    for (size_t i = 0; i < nev; i++) {
      assert_int_equal(lfc_flat_event(h, (int)i, LFC_FLAT_EV_KIND), ev[i].kind);
      assert_int_equal(lfc_flat_event(h, (int)i, LFC_FLAT_EV_PORT), ev[i].port);
      assert_int_equal(lfc_flat_event(h, (int)i, LFC_FLAT_EV_CLS), ev[i].cls);
      assert_int_equal(lfc_flat_event(h, (int)i, LFC_FLAT_EV_CAUSE), ev[i].cause);
      assert_int_equal(lfc_flat_event(h, (int)i, LFC_FLAT_EV_TAG), ev[i].tag);
    }
    for (int p = 0; p < 4; p++) {
      assert_int_equal(lfc_flat_out(h, p, LFC_FLAT_KIND), out[p].kind);
      assert_int_equal(lfc_flat_out(h, p, LFC_FLAT_TAG), out[p].tag);
      assert_int_equal(lfc_flat_out(h, p, LFC_FLAT_NBLK), out[p].nblk);
      assert_int_equal(lfc_flat_out(h, p, LFC_FLAT_FC_FCCL), out[p].fc_fccl);
      assert_int_equal(lfc_flat_out(h, p, LFC_FLAT_PFC_EN), out[p].pfc_en);
      assert_int_equal(lfc_flat_out(h, p, LFC_FLAT_PFC_TIME0 + 1), out[p].pfc_time[1]);
      char buf[256];
      assert_string_equal(lfc_flat_format_out(h, p), lfc_word_format(&out[p], buf, sizeof buf));
    }
  }
  /* Reset: cycle 0, inputs IDLE, no outputs. */
  assert_int_equal(lfc_flat_reset(h), 0);
  assert_int_equal(lfc_flat_cycle(h), 0);
  assert_int_equal(lfc_flat_in(h, 0, LFC_FLAT_KIND), 0);
  assert_int_equal(lfc_flat_event_count(h), 0);
  assert_string_equal(lfc_flat_format_events(h), "none");
  lfc_switch_destroy(sw);
  lfc_flat_destroy(h);
}

static void test_step_is_lfc_switch_step_ib(void **state) {
  (void)state;
  run_against_switch("switch.mode=ib", LFC_MODE_IB);
}

static void test_step_is_lfc_switch_step_pfc(void **state) {
  (void)state;
  run_against_switch("switch.mode=pfc", LFC_MODE_PFC);
}

/* One DATA block on port p (SPEC §2). */
static void data(lfc_flat_t *h, int p, uint32_t cls, uint32_t nblk, uint32_t dst, uint32_t tag,
                 int sop, int eop) {
  assert_int_equal(lfc_flat_set_in(h, p, LFC_FLAT_KIND, LFC_DATA), 0);
  assert_int_equal(lfc_flat_set_in(h, p, LFC_FLAT_SOP, (uint32_t)sop), 0);
  assert_int_equal(lfc_flat_set_in(h, p, LFC_FLAT_EOP, (uint32_t)eop), 0);
  assert_int_equal(lfc_flat_set_in(h, p, LFC_FLAT_CLS, cls), 0);
  assert_int_equal(lfc_flat_set_in(h, p, LFC_FLAT_NBLK, nblk), 0);
  assert_int_equal(lfc_flat_set_in(h, p, LFC_FLAT_DST, dst), 0);
  assert_int_equal(lfc_flat_set_in(h, p, LFC_FLAT_TAG, tag), 0);
}

/* SPEC §7.2, §13: a malformed first block is an admission drop on its ingress port; a stray
   continuation block is rx_malformed. */
static void test_stat_malformed_drop_and_stray_block(void **state) {
  (void)state;
  lfc_flat_t *h = make("switch.mode=pfc");
  data(h, 2, 0, 0, 1, 0x77, 1, 1); /* nblk = 0 */
  assert_int_equal(lfc_flat_step(h), 1);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_DROP, 2), 1);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_DROP_CAUSE, 2), LFC_DROP_MALFORMED);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_DROP, 1), 0);
  assert_string_equal(lfc_flat_format_events(h),
                      "drop(port=2 cls=0 cause=malformed tag=0x00000077)");
  data(h, 2, 0, 1, 1, 0x78, 0, 1); /* no packet open, sop = 0 */
  lfc_flat_step(h);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_DROP, 2), 0);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_RX_MALFORMED, 2), 1);
  lfc_flat_destroy(h);
}

/*
 * SPEC §13: stat_ecn_mark_o of egress port p is 1 in the cycle p marks the packet starting there
 * (§9, the ECN_MARK event of that port) and 0 in every other cycle and on every other port. Three
 * ECT(0) packets of class 0 arrive together for port 3 with kmin 0, kmax 1: the queue holds 3
 * blocks when the first starts, above kmax, so it is marked (§9.2); the others follow.
 */
static void test_stat_ecn_mark_is_the_mark_event(void **state) {
  (void)state;
  enum { EGRESS = 3, PACKETS = 3, CYCLES = 20 };
  lfc_flat_t *h = make("switch.mode=pfc; pfc.ecn_mask=1; pfc.kmin=0; pfc.kmax=1");
  for (int p = 0; p < PACKETS; p++) {
    data(h, p, 0, 1, EGRESS, 0x100u + (uint32_t)p, 1, 1);
    assert_int_equal(lfc_flat_set_in(h, p, LFC_FLAT_ECN, LFC_ECN_ECT0), 0);
  }
  int marks = 0;
  for (int t = 0; t < CYCLES; t++) {
    int64_t n = lfc_flat_step(h);
    lfc_flat_clear_in(h);
    int marked[4] = {0};
    for (int i = 0; i < n; i++)
      if (lfc_flat_event(h, i, LFC_FLAT_EV_KIND) == LFC_EV_ECN_MARK)
        marked[lfc_flat_event(h, i, LFC_FLAT_EV_PORT)] = 1;
    for (int p = 0; p < 4; p++) {
      assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_ECN_MARK, p), marked[p]);
      marks += marked[p];
    }
  }
  assert_true(marks >= 1);
  lfc_flat_destroy(h);
}

/*
 * SPEC §6.8 with wd_action = drop: a packet queued for a paused queue is discarded from the queue
 * after the trip (stat_wd_drop_o of the egress (port, class)), a packet arriving afterwards is
 * dropped at admission (stat_drop_o with cause WATCHDOG on its ingress port).
 */
static void test_stat_watchdog_queue_discard_vs_admission_drop(void **state) {
  (void)state;
  enum { DETECT = 20, PAUSE = 65535, EGRESS = 1, INGRESS = 0 };
  char text[256];
  snprintf(text, sizeof text, "switch.mode=pfc; pfc.wd_enable=1; pfc.wd_detect=%d", DETECT);
  lfc_flat_t *h = make(text);
  /* Cycle 0: the peer of port 1 pauses priority 0. */
  lfc_flat_set_in(h, EGRESS, LFC_FLAT_KIND, LFC_PFC);
  lfc_flat_set_in(h, EGRESS, LFC_FLAT_PFC_EN, 1);
  lfc_flat_set_in(h, EGRESS, LFC_FLAT_PFC_TIME0, PAUSE);
  lfc_flat_step(h);
  lfc_flat_clear_in(h);
  assert_int_equal(lfc_flat_reg_by_name(h, "pause_timer", EGRESS, 0), PAUSE);
  /* Cycle 1: a packet for port 1 that will wait in its queue. Its tag is 0, the tag of the
     IDLE words port 1 receives when it is discarded: only the word's kind and sop tell that
     discard from an admission drop. */
  data(h, INGRESS, 0, 1, EGRESS, 0, 1, 1);
  lfc_flat_step(h);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_DROP, INGRESS), 0);
  lfc_flat_clear_in(h);
  int64_t trip = -1, discard = -1;
  for (int t = 2; t < 3 * DETECT && discard < 0; t++) {
    /* Port 1 receives IDLE words with sop set: fields a kind does not use are ignored on
       input (SPEC §2), so they start no packet and the discard stays a discard. */
    lfc_flat_set_in(h, EGRESS, LFC_FLAT_SOP, 1);
    lfc_flat_step(h);
    if (lfc_flat_stat(h, LFC_FLAT_STAT_WD_TRIP, EGRESS) == 1) trip = t;
    if (lfc_flat_stat(h, LFC_FLAT_STAT_WD_DROP, EGRESS) == 1) {
      discard = t;
      assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_DROP, EGRESS), 0);
      assert_int_equal(lfc_flat_event(h, 0, LFC_FLAT_EV_TAG), 0);
      assert_int_equal(lfc_flat_event(h, 0, LFC_FLAT_EV_CAUSE), LFC_DROP_WATCHDOG);
    }
  }
  assert_true(trip > 0);
  assert_true(discard > trip);
  /* Now the queue is in the drop state: an arriving packet for it is dropped at admission. */
  data(h, INGRESS, 0, 1, EGRESS, 0xB, 1, 1);
  lfc_flat_step(h);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_DROP, INGRESS), 1);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_DROP_CAUSE, INGRESS), LFC_DROP_WATCHDOG);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_WD_DROP, INGRESS), 0);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_WD_DROP, EGRESS), 0);
  lfc_flat_destroy(h);
}

/* lfc/flat.h: "Spaces around names and values are ignored": blanks of every kind the text may
 * carry (space, tab, the CR of a CRLF line end) before and after each name and value, alone or
 * mixed; the parameters read back as given. */
static void test_config_blanks_around_names_and_values(void **state) {
  (void)state;
  static const char *const texts[] = {
      "switch.mode=pfc;switch.ports=3;switch.latency=5",
      " switch.mode = pfc ; switch.ports = 3 ; switch.latency = 5 ",
      "\tswitch.mode\t=\tpfc\t;\tswitch.ports\t=\t3\t;\tswitch.latency\t=\t5\t",
      "switch.mode=pfc\r\nswitch.ports=3\r\nswitch.latency=5\r\n",
      "switch.mode=pfc \t\r\nswitch.ports=3\r\t \nswitch.latency=5\t \r",
      "switch.mode=pfc\t \r\nswitch.ports=3 \r\t\nswitch.latency=5\r \t",
  };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    lfc_flat_t *h = make(texts[i]);
    assert_int_equal(lfc_flat_param(h, "mode", 0), LFC_MODE_PFC);
    assert_int_equal(lfc_flat_param(h, "ports", 0), 3);
    assert_int_equal(lfc_flat_param(h, "latency", 0), 5);
    lfc_flat_destroy(h);
  }
}

/* The configuration text has a length limit, stated in its message ("config text longer than N
 * characters"): a text of exactly N characters is read (here a short configuration padded with
 * empty items, which lfc/flat.h says are ignored), one of N + 1 is refused with that message. */
static void test_config_length_limit_is_the_stated_one(void **state) {
  (void)state;
  static const char head[] = "switch.mode=ib";
  const char *prefix = "config text longer than ";
  size_t big = (size_t)1 << 24;
  char *text = malloc(big + 2u);
  assert_non_null(text);
  memcpy(text, head, sizeof head - 1u);
  memset(text + sizeof head - 1u, ';', big - (sizeof head - 1u));
  text[big] = '\0';
  lfc_flat_t *h = lfc_flat_create(text);
  assert_non_null(h);
  assert_int_equal(lfc_flat_ok(h), 0);
  const char *at = strstr(lfc_flat_error(h), prefix);
  unsigned long limit = 0;
  if (at == NULL || sscanf(at + strlen(prefix), "%lu", &limit) != 1 || limit < sizeof head ||
      limit >= big)
    fail_msg("a text of %zu characters: expected '%sN characters', got '%s'", big, prefix,
             lfc_flat_error(h));
  lfc_flat_destroy(h);
  text[limit] = '\0'; /* exactly the limit: read */
  h = make(text);
  lfc_flat_destroy(h);
  text[limit] = ';'; /* one more: refused, with the same limit */
  text[limit + 1u] = '\0';
  char want[96];
  snprintf(want, sizeof want, "%s%lu characters", prefix, limit);
  expect_config_error(text, want);
  free(text);
}

static void test_flat_null_config(void **state) {
  (void)state;
  lfc_flat_t *h = lfc_flat_create(NULL);
  assert_non_null(h);
  assert_false(lfc_flat_ok(h));
  assert_non_null(strstr(lfc_flat_error(h), "NULL"));
  lfc_flat_destroy(h);
}

static void check(const lfc_word_t *w, const char *want) {
  char buf[256];
  memset(buf, 'x', sizeof buf);
  assert_ptr_equal(lfc_word_format(w, buf, sizeof buf), buf);
  assert_string_equal(buf, want);
  char small[8];
  lfc_word_format(w, small, sizeof small);
  assert_int_equal(strlen(small), strlen(want) < sizeof small ? strlen(want) : sizeof small - 1);
  assert_memory_equal(small, want, strlen(small));
  /* "always NUL-terminated": a one-byte buffer holds the empty prefix, a zero-length one is
   * not touched */
  char one[2] = {'x', 'y'};
  assert_ptr_equal(lfc_word_format(w, one, 1), one);
  assert_int_equal(one[0], '\0');
  assert_int_equal(one[1], 'y');
  assert_ptr_equal(lfc_word_format(w, one, 0), one);
  assert_int_equal(one[0], '\0');
  one[0] = 'x';
  lfc_word_format(w, one, 0);
  assert_int_equal(one[0], 'x');
}

static void test_word_format_every_kind(void **state) {
  (void)state;
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  check(&w, "IDLE");
  w = tu_data_word(1, 0, 1, 3, 2, 7, 2);
  check(&w, "DATA sop cls=1 nblk=3 dst=2 tag=0x00000007 ecn=2");
  w = tu_data_word(0, 1, 4, 9, 300, 0xABCDEF01u, 0);
  check(&w, "DATA eop cls=4 nblk=9 dst=300 tag=0xabcdef01 ecn=0");
  memset(&w, 0, sizeof w);
  w.kind = LFC_FCP;
  w.fc_vl = 0;
  w.fc_fctbs = 12;
  w.fc_fccl = 2060;
  check(&w, "FCP vl=0 fctbs=12 fccl=2060");
  w.fc_op = LFC_FCP_OP_INIT;
  w.fc_vl = 14;
  check(&w, "FCP init vl=14 fctbs=12 fccl=2060");
  w.fc_op = 5; /* reserved */
  check(&w, "FCP op? vl=14 fctbs=12 fccl=2060");
  memset(&w, 0, sizeof w);
  w.kind = LFC_PFC;
  w.pfc_en = 0x05;
  w.pfc_time[0] = 100;
  w.pfc_time[3] = 9; /* not enabled but non-zero: shown */
  check(&w, "PFC en=0x05 t0=100 t2=0 t3=9");
  w.kind = 7;
  check(&w, "kind=7?");
  assert_null(lfc_word_format(&w, NULL, 10));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_config_errors_name_item_key_and_value),
      cmocka_unit_test(test_config_text_defaults_and_params),
      cmocka_unit_test(test_names_and_widths),
      cmocka_unit_test(test_bad_arguments_fail_with_a_reason),
      cmocka_unit_test(test_step_is_lfc_switch_step_ib),
      cmocka_unit_test(test_step_is_lfc_switch_step_pfc),
      cmocka_unit_test(test_stat_malformed_drop_and_stray_block),
      cmocka_unit_test(test_stat_ecn_mark_is_the_mark_event),
      cmocka_unit_test(test_stat_watchdog_queue_discard_vs_admission_drop),
      cmocka_unit_test(test_config_length_limit_is_the_stated_one),
      cmocka_unit_test(test_config_blanks_around_names_and_values),
      cmocka_unit_test(test_flat_null_config),
      cmocka_unit_test(test_word_format_every_kind),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
