/*
 * test_mut_errors.c - error paths that mutants changed without the suite noticing
 * (scripts/mutants-c.py, docs/fuzzing.md §3): lookups of names that do not exist, a NULL
 * configuration text, registers of ports that do not exist, a message buffer of length 0, and the
 * link delay range of the star testbed.
 */
#include "testutil.h"

#include <string.h>

#include "lfc/flat.h"
#include "lfc/link.h"
#include "lfc/star.h"

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

/* lfc_switch_cfg_set with any one argument NULL: refused with a message, no crash. */
static void test_cfg_set_null_arguments(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 2, 2);
  const char *args[3] = {"switch", "latency", "3"};
  for (int null_at = -1; null_at < 3; null_at++) {
    const char *a[3] = {args[0], args[1], args[2]};
    if (null_at >= 0) a[null_at] = NULL;
    char err[128] = "";
    int rc = lfc_switch_cfg_set(null_at == -1 ? NULL : &c, a[0], a[1], a[2], err, sizeof err);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err, "NULL argument"));
  }
  assert_int_equal(lfc_switch_cfg_set(&c, args[0], args[1], args[2], NULL, 0), 0);
  assert_int_equal(c.latency, 3);
}

/* A message buffer of length 0 is never written (lfc/switch.h: err may be NULL or errlen 0). */
static void test_error_buffer_of_length_zero(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  char buf[8] = "intact";
  assert_int_equal(lfc_switch_cfg_check(&c, buf, 0), 0);
  assert_string_equal(buf, "intact");
  c.ports = 1; /* invalid */
  assert_int_not_equal(lfc_switch_cfg_check(&c, buf, 0), 0);
  assert_string_equal(buf, "intact");
  assert_int_not_equal(lfc_switch_cfg_check(&c, NULL, 0), 0);
}

static void test_flat_null_config(void **state) {
  (void)state;
  lfc_flat_t *h = lfc_flat_create(NULL);
  assert_non_null(h);
  assert_false(lfc_flat_ok(h));
  assert_non_null(strstr(lfc_flat_error(h), "NULL"));
  lfc_flat_destroy(h);
}

static void test_star_link_delay_range(void **state) {
  (void)state;
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_IB, 4, 2);
  char err[256] = "";
  assert_int_equal(lfc_star_cfg_check(&c, err, sizeof err), 0);
  c.link_delay = 0;
  assert_int_not_equal(lfc_star_cfg_check(&c, err, sizeof err), 0);
  assert_non_null(strstr(err, "link_delay"));
  c.link_delay = LFC_LINK_MAX_DELAY + 1u;
  assert_int_not_equal(lfc_star_cfg_check(&c, err, sizeof err), 0);
  c.link_delay = LFC_LINK_MAX_DELAY;
  assert_int_equal(lfc_star_cfg_check(&c, err, sizeof err), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lookup_of_unknown_names),
      cmocka_unit_test(test_register_of_missing_port_reads_zero),
      cmocka_unit_test(test_error_buffer_of_length_zero),
      cmocka_unit_test(test_cfg_set_null_arguments),
      cmocka_unit_test(test_flat_null_config),
      cmocka_unit_test(test_star_link_delay_range),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
