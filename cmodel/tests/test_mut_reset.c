/*
 * test_mut_reset.c - the reset state (SPEC §13.1: every register's reset value), after
 * lfc_switch_create and again after lfc_switch_reset following traffic. Kills mutants of the
 * reset functions (e.g. watchdog.c: a queue born tripped; nic.c: FCP bookkeeping kept across a
 * reset of a link partner) that the suite let survive
 * (scripts/mutants-c.py, docs/fuzzing.md §3).
 */
#include "testutil.h"

#include <string.h>

#include "lfc/nic.h"

/* Registers whose reset value is 0 in both modes (SPEC §13.1). */
static const char *const ZERO_AT_RESET[] = {
    "shared_used", "rx_rem", "tx_rem", "qlen", "qpkts", "pg_min", "pg_shared", "pg_hdrm",
    "xoff", "pfc_pend", "pause_timer", "wd_storm", "wd_cnt", "wd_rcnt", "occ", "abr",
    "fctbs"};

static void check_zero(const lfc_switch_t *sw, const lfc_switch_cfg_t *c, const char *when) {
  for (size_t i = 0; i < sizeof ZERO_AT_RESET / sizeof ZERO_AT_RESET[0]; i++) {
    int r = lfc_reg_find(ZERO_AT_RESET[i]);
    assert_true(r >= 0);
    const lfc_reg_info_t *ri = lfc_reg_info((size_t)r);
    if (ri->mode != 2 && ri->mode != (uint8_t)c->mode) continue;
    for (uint32_t p = 0; p < c->ports; p++)
      for (uint32_t k = 0; k < c->classes; k++) {
        uint64_t v = lfc_switch_reg(sw, (size_t)r, p, k);
        if (v != 0)
          fail_msg("%s: %s[port %u, class %u] = %llu, reset value 0", when, ri->name, p, k,
                   (unsigned long long)v);
      }
  }
}

/* Some traffic into every port: packets of every class, all to port 0 (an incast), so that
   queues hold packets when the switch is reset. */
static void traffic(lfc_switch_t *sw, const lfc_switch_cfg_t *c, unsigned cycles) {
  lfc_word_t in[LFC_MAX_PORTS], out[LFC_MAX_PORTS];
  for (unsigned t = 0; t < cycles; t++) {
    memset(in, 0, sizeof in);
    for (uint32_t p = 0; p < c->ports; p++) {
      lfc_word_t *w = &in[p];
      w->kind = LFC_DATA;
      w->sop = w->eop = 1;
      w->nblk = 1;
      w->cls = (uint8_t)((t + p) % c->classes);
      w->dst = 0;
      w->tag = (p << 24) | t;
    }
    lfc_switch_step(sw, in, out);
  }
}

static void reset_state(lfc_mode_t mode) {
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, mode, 4, 3);
  if (mode == LFC_MODE_PFC) {
    c.wd_enable = true;
    c.wd_detect = 20;
    c.wd_restore = 20;
  }
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  assert_non_null(sw);
  check_zero(sw, &c, "after create");
  traffic(sw, &c, 200);
  lfc_switch_reset(sw);
  check_zero(sw, &c, "after reset");
  /* And it behaves like a new switch: the same outputs for the same inputs. */
  lfc_switch_t *fresh = lfc_switch_create(&c, err, sizeof err);
  assert_non_null(fresh);
  lfc_word_t in[LFC_MAX_PORTS], o1[LFC_MAX_PORTS], o2[LFC_MAX_PORTS];
  for (unsigned t = 0; t < 300; t++) {
    memset(in, 0, sizeof in);
    in[t % c.ports].kind = LFC_DATA;
    in[t % c.ports].sop = in[t % c.ports].eop = 1;
    in[t % c.ports].nblk = 1;
    in[t % c.ports].cls = (uint8_t)(t % c.classes);
    in[t % c.ports].dst = (uint16_t)((t / 3) % c.ports);
    in[t % c.ports].tag = t;
    lfc_switch_step(sw, in, o1);
    lfc_switch_step(fresh, in, o2);
    for (uint32_t p = 0; p < c.ports; p++)
      if (!lfc_word_equal(&o1[p], &o2[p])) fail_msg("cycle %u port %u: reset != new", t, p);
  }
  lfc_switch_destroy(fresh);
  lfc_switch_destroy(sw);
}

/* A reset returns every packet descriptor: a switch filled to the last block, reset, can be filled
   to the last block again (and again), holding as many packets each time. IB, because a port
   without an FCP from its partner has no credit (SPEC §5.3), so nothing leaves: every (port, VL)
   fills to vl_blocks with one-block packets sent regardless of credit. */
static void test_reset_returns_every_descriptor(void **state) {
  (void)state;
  enum { PORTS = 3, CLASSES = 2, VL_BLOCKS = 64, ROUNDS = 3 };
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, PORTS, CLASSES);
  c.mtu_blocks = 1;
  for (uint32_t v = 0; v < CLASSES; v++) c.vl_blocks[v] = VL_BLOCKS;
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  if (sw == NULL) fail_msg("%s", err);
  const unsigned cycles = 2u * CLASSES * VL_BLOCKS; /* one packet per port and cycle */
  int occ = lfc_reg_find("occ");
  assert_true(occ >= 0);
  for (unsigned round = 0; round < ROUNDS; round++) {
    traffic(sw, &c, cycles);
    for (uint32_t p = 0; p < PORTS; p++)
      for (uint32_t v = 0; v < CLASSES; v++)
        assert_int_equal(lfc_switch_reg(sw, (size_t)occ, p, v), VL_BLOCKS);
    lfc_switch_reset(sw);
  }
  lfc_switch_destroy(sw);
}

static void test_reset_state_pfc(void **state) {
  (void)state;
  reset_state(LFC_MODE_PFC);
}

static void test_reset_state_ib(void **state) {
  (void)state;
  reset_state(LFC_MODE_IB);
}

/* One run of an IB link partner: packets of both VLs to send, credit granted by FCPs arriving
   from the switch side; its output words into out[cycles]. */
static void nic_run(lfc_nic_t *n, lfc_word_t *out, unsigned cycles) {
  for (unsigned i = 0; i < 6; i++) {
    lfc_pkt_t pk = {.cls = (uint8_t)(i % 2), .nblk = (uint8_t)(1 + i % 3), .dst = 0, .tag = i};
    assert_int_equal(lfc_nic_send(n, &pk), 0);
  }
  for (unsigned t = 0; t < cycles; t++) {
    lfc_word_t in;
    memset(&in, 0, sizeof in);
    if (t % 4 == 0) {
      in.kind = LFC_FCP;
      in.fc_vl = (uint8_t)((t / 4) % 2);
      in.fc_fccl = 64;
    }
    lfc_nic_step(n, &in, &out[t]);
  }
}

/* A partner after lfc_nic_reset behaves like a new one (its FCP bookkeeping too). */
static void test_nic_reset_is_new(void **state) {
  (void)state;
  enum { CYCLES = 120 };
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_IB, 2);
  c.mtu_blocks = 8;
  c.rx_blocks = 16;
  c.fcp_period = 10;
  char err[256];
  lfc_nic_t *used = lfc_nic_create(&c, err, sizeof err);
  lfc_nic_t *fresh = lfc_nic_create(&c, err, sizeof err);
  assert_non_null(used);
  assert_non_null(fresh);
  static lfc_word_t a[CYCLES], b[CYCLES];
  nic_run(used, a, CYCLES);
  lfc_nic_reset(used);
  nic_run(used, a, CYCLES);
  nic_run(fresh, b, CYCLES);
  for (unsigned t = 0; t < CYCLES; t++)
    if (!lfc_word_equal(&a[t], &b[t])) fail_msg("cycle %u: the reset partner differs from a new one", t);
  lfc_nic_destroy(used);
  lfc_nic_destroy(fresh);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reset_state_pfc),
      cmocka_unit_test(test_reset_returns_every_descriptor),
      cmocka_unit_test(test_reset_state_ib),
      cmocka_unit_test(test_nic_reset_is_new),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
