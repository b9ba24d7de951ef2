/*
 * test_regs.c - the register interface (cmodel/src/regs.c, docs/SPEC.md §13.1): the register
 * table is the SPEC's, names that do not exist are not found, every register reads its reset
 * value after lfc_switch_create in both modes (§5.1, §6.1, §13.1), and a register of a port or
 * class that does not exist reads 0.
 */

#include "testutil.h"

#include <string.h>

#include "lfc/flat.h"
#include "lfc/link.h"
#include "lfc/star.h"

/* ---- Registers (§13.1) ---- */

typedef struct {
  const char *name;
  int idx;
  int width;
  int scope;
  int mode;
} reg_row_t;

/* SPEC §13.1: names, indices, widths, scopes and modes of the register table. */
static void test_register_table_matches_spec(void **state) {
  (void)state;
  enum { S = LFC_SCOPE_SWITCH, P = LFC_SCOPE_PORT, PC = LFC_SCOPE_PORT_CLASS };
  enum { IB = LFC_MODE_IB, PF = LFC_MODE_PFC, BOTH = 2 };
  static const reg_row_t rows[] = {
      {"shared_used", 0, 20, S, PF},     {"rx_rem", 1, 8, P, BOTH},
      {"tx_rem", 2, 8, P, BOTH},         {"drr_ptr", 3, 3, P, PF},
      {"hi_idx", 4, 6, P, IB},           {"lo_idx", 5, 6, P, IB},
      {"hi_rem", 6, 8, P, IB},           {"lo_rem", 7, 8, P, IB},
      {"hi_sent", 8, 16, P, IB},         {"lfsr", 9, 32, P, PF},
      {"occ15", 10, 16, P, IB},          {"fctbs", 11, 12, PC, IB},
      {"fccl", 12, 12, PC, IB},          {"abr", 13, 12, PC, IB},
      {"occ", 14, 16, PC, IB},           {"fcp_sent_fctbs", 15, 12, PC, IB},
      {"fcp_sent_fccl", 16, 12, PC, IB}, {"fcp_timer", 17, 16, PC, IB},
      {"pg_min", 18, 16, PC, PF},        {"pg_shared", 19, 20, PC, PF},
      {"pg_hdrm", 20, 16, PC, PF},       {"xoff", 21, 1, PC, PF},
      {"pfc_pend", 22, 1, PC, PF},       {"refresh_timer", 23, 16, PC, PF},
      {"pause_timer", 24, 21, PC, PF},   {"wd_storm", 25, 1, PC, PF},
      {"wd_cnt", 26, 20, PC, PF},        {"wd_rcnt", 27, 20, PC, PF},
      {"deficit", 28, 16, PC, PF},       {"qlen", 29, 20, PC, BOTH},
      {"qpkts", 30, 20, PC, BOTH},
  };
  assert_true(lfc_reg_count() >= 31);
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    const reg_row_t *r = &rows[i];
    if (lfc_reg_find(r->name) != r->idx) {
      fail_msg("lfc_reg_find(\"%s\") = %d, SPEC §13.1 says %d", r->name, lfc_reg_find(r->name),
               r->idx);
    }
    const lfc_reg_info_t *info = lfc_reg_info((size_t)r->idx);
    assert_non_null(info);
    assert_string_equal(info->name, r->name);
    if (info->width != r->width || info->scope != r->scope || info->mode != r->mode) {
      fail_msg("register %s: width/scope/mode %u/%u/%u, SPEC §13.1 says %d/%d/%d", r->name,
               info->width, info->scope, info->mode, r->width, r->scope, r->mode);
    }
  }
  assert_int_equal(lfc_reg_find("no_such_register"), -1);
}

static const char *const ib_regs[] = {"hi_idx", "lo_idx", "hi_rem", "lo_rem", "hi_sent",
                                      "occ15", "fctbs", "fccl", "abr", "occ", "fcp_sent_fctbs",
                                      "fcp_sent_fccl", "fcp_timer"};
static const char *const pfc_regs[] = {"shared_used", "drr_ptr", "lfsr", "pg_min", "pg_shared",
                                       "pg_hdrm", "xoff", "pfc_pend", "refresh_timer",
                                       "pause_timer", "wd_storm", "wd_cnt", "wd_rcnt", "deficit"};

/* SPEC §5.1, §5.6, §7: the IB reset values (all 0, fcp_timer 0 = every VL pending) on every port
 * and VL; the PFC registers read 0 in IB mode (§13.1). */
static void test_reset_values_ib(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_ib(&c, 3, 4);
  c.vl15_blocks = 16;
  tu_t *t = tu_open(&c);
  assert_int_equal(lfc_switch_cycle(t->sw), 0);
  for (uint32_t p = 0; p < 3; p++) {
    for (uint32_t v = 0; v < 4; v++) {
      for (size_t i = 0; i < sizeof ib_regs / sizeof ib_regs[0]; i++) {
        if (tu_reg(t, ib_regs[i], p, v) != 0) fail_msg("%s(%u,%u) not 0 at reset", ib_regs[i], p, v);
      }
      for (size_t i = 0; i < sizeof pfc_regs / sizeof pfc_regs[0]; i++) {
        if (tu_reg(t, pfc_regs[i], p, v) != 0) fail_msg("PFC register %s reads non-0 in IB", pfc_regs[i]);
      }
      assert_int_equal(tu_reg(t, "qlen", p, v), 0);
      assert_int_equal(tu_reg(t, "qpkts", p, v), 0);
    }
    assert_int_equal(tu_reg(t, "qlen", p, 15), 0);
    assert_int_equal(tu_reg(t, "rx_rem", p, 0), 0);
    assert_int_equal(tu_reg(t, "tx_rem", p, 0), 0);
  }
  tu_close(t);
}

/* SPEC §6.1, §6.7, §6.8, §8.2, §9.3: the PFC reset values: every counter 0, drr_ptr = classes - 1,
 * lfsr = seed XOR 0x9E3779B9 (p + 1); the IB registers read 0 in PFC mode (§13.1). */
static void test_reset_values_pfc(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, 3, 5);
  c.seed = 7;
  c.wd_enable = true;
  tu_t *t = tu_open(&c);
  assert_int_equal(tu_reg(t, "shared_used", 0, 0), 0);
  for (uint32_t p = 0; p < 3; p++) {
    assert_int_equal(tu_reg(t, "drr_ptr", p, 0), 4);
    assert_int_equal(tu_reg(t, "lfsr", p, 0), 7u ^ (uint32_t)(0x9E3779B9u * (p + 1u)));
    for (uint32_t k = 0; k < 5; k++) {
      for (size_t i = 3; i < sizeof pfc_regs / sizeof pfc_regs[0]; i++) {
        if (tu_reg(t, pfc_regs[i], p, k) != 0) fail_msg("%s(%u,%u) not 0 at reset", pfc_regs[i], p, k);
      }
      for (size_t i = 0; i < sizeof ib_regs / sizeof ib_regs[0]; i++) {
        if (tu_reg(t, ib_regs[i], p, k) != 0) fail_msg("IB register %s reads non-0 in PFC", ib_regs[i]);
      }
    }
  }
  tu_close(t);
}

static void test_lookup_of_unknown_names(void **state) {
  (void)state;
  assert_int_equal(lfc_reg_find(NULL), -1);
  assert_int_equal(lfc_reg_find("no_such_register"), -1);
  assert_int_equal(lfc_reg_find(lfc_reg_info(0)->name), 0);
  assert_int_equal(lfc_flat_field_find("no_such_field"), -1);
  assert_string_equal(lfc_flat_field_name(-1), "");
  assert_string_equal(lfc_flat_field_name(lfc_flat_field_count()), "");
  assert_int_equal(lfc_flat_field_width(lfc_flat_field_count()), -1);
}

/* A register of a port or class that does not exist reads 0 (lfc/switch.h). */
static void test_register_of_missing_port_reads_zero(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 2, 2);
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  assert_non_null(sw);
  int lfsr = lfc_reg_find("lfsr"); /* per port, non-zero from reset (the seed, SPEC §9.3) */
  assert_true(lfsr >= 0);
  assert_int_not_equal(lfc_switch_reg(sw, (size_t)lfsr, 1, 0), 0);
  assert_int_equal(lfc_switch_reg(sw, (size_t)lfsr, 2, 0), 0);
  assert_int_equal(lfc_switch_reg(sw, (size_t)lfsr, 200, 0), 0);
  assert_int_equal(lfc_switch_reg(sw, lfc_reg_count(), 0, 0), 0);
  /* A per-port register ignores the class, however large (lfc/switch.h); a per-class one of a
     class beyond the model's reads 0. */
  assert_int_equal(lfc_reg_info((size_t)lfsr)->scope, LFC_SCOPE_PORT);
  assert_int_equal(lfc_switch_reg(sw, (size_t)lfsr, 1, LFC_MAX_CLASSES),
                   lfc_switch_reg(sw, (size_t)lfsr, 1, 0));
  assert_int_equal(lfc_switch_reg(sw, (size_t)lfsr, 1, UINT32_MAX),
                   lfc_switch_reg(sw, (size_t)lfsr, 1, 0));
  int pg_min = lfc_reg_find("pg_min");
  assert_true(pg_min >= 0);
  assert_int_equal(lfc_reg_info((size_t)pg_min)->scope, LFC_SCOPE_PORT_CLASS);
  assert_int_equal(lfc_switch_reg(sw, (size_t)pg_min, 1, LFC_MAX_CLASSES), 0);
  /* lfc_switch_stats: NULL for a port that does not exist, the first one past the last included. */
  assert_non_null(lfc_switch_stats(sw, 1));
  assert_null(lfc_switch_stats(sw, 2));
  lfc_switch_destroy(sw);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_register_table_matches_spec),
      TU_TEST(test_reset_values_ib),
      TU_TEST(test_reset_values_pfc),
      cmocka_unit_test(test_lookup_of_unknown_names),
      cmocka_unit_test(test_register_of_missing_port_reads_zero),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
