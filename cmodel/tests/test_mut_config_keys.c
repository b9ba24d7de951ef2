/*
 * test_mut_config_keys.c - tests that kill mutants of cmodel/src/config_keys.c which the suite
 * let survive (scripts/mutants-c.py, docs/fuzzing.md §3): binary literals, case-insensitive
 * booleans, the "too many values" message, and a per-class list that must not write past its
 * array.
 */
#include "testutil.h"

#include <string.h>

/* "0b..." is binary (mutant: the 'b' looked for at s[2] instead of s[1]). */
static void test_binary_literal(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 3);
  char err[256] = "";
  assert_int_equal(lfc_switch_cfg_set(&c, "pfc", "lossless_mask", "0b101", err, sizeof err), 0);
  assert_int_equal(c.lossless_mask, 5);
  assert_int_equal(lfc_switch_cfg_set(&c, "pfc", "strict_mask", "0B11", err, sizeof err), 0);
  assert_int_equal(c.strict_mask, 3);
}

/* Booleans in any case: "TRUE", "Yes", "ON", "FALSE" (mutants of the A..Z folding bounds; 'A'
   is in FALSE, no boolean word has a 'Z', so that bound's mutant is equivalent). */
static void test_bool_any_case(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  char err[256] = "";
  static const char *const yes[] = {"TRUE", "Yes", "ON", "True", "Z" /* not a word */};
  for (unsigned i = 0; i < 4; i++) {
    c.wd_enable = false;
    assert_int_equal(lfc_switch_cfg_set(&c, "pfc", "wd_enable", yes[i], err, sizeof err), 0);
    assert_true(c.wd_enable);
  }
  assert_int_not_equal(lfc_switch_cfg_set(&c, "pfc", "wd_enable", yes[4], err, sizeof err), 0);
  assert_int_equal(lfc_switch_cfg_set(&c, "pfc", "dynamic_th", "OFF", err, sizeof err), 0);
  assert_false(c.dynamic_th);
  c.dynamic_th = true;
  assert_int_equal(lfc_switch_cfg_set(&c, "pfc", "dynamic_th", "FALSE", err, sizeof err), 0);
  assert_false(c.dynamic_th);
  assert_int_equal(lfc_switch_cfg_set(&c, "pfc", "dynamic_th", "A", err, sizeof err) != 0, 1);
}

/* More values than entries: the message says "more than 64" (mutant of the -3 code); a wrong
 * count says how many were given. */
static void test_too_many_values_message(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 2, 2);
  char err[512] = "";
  const char *many = "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
                     "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1";
  assert_int_not_equal(lfc_switch_cfg_set(&c, "switch", "speed_div", many, err, sizeof err), 0);
  assert_non_null(strstr(err, "more than 64 values given"));
  assert_int_not_equal(lfc_switch_cfg_set(&c, "switch", "speed_div", "1,2,3", err, sizeof err),
                       0);
  assert_non_null(strstr(err, "3 values given"));
}

/* A per-class list fills its array and nothing after it (mutants: i <= cap, i <= n). */
static void test_class_list_stays_in_its_array(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  char err[256] = "";
  c.wd_enable = false;
  c.wd_detect = 1234;
  lfc_switch_cfg_t before = c;
  assert_int_equal(lfc_switch_cfg_set(&c, "pfc", "drr_quantum", "77", err, sizeof err), 0);
  for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS; i++) assert_int_equal(c.drr_quantum[i], 77);
  memcpy(before.drr_quantum, c.drr_quantum, sizeof before.drr_quantum);
  assert_memory_equal(&before, &c, sizeof c);

  /* One value per class: the entries beyond the classes take the first value (mutant: i <= n
     takes one more from the list, past its end). */
  assert_int_equal(lfc_switch_cfg_set(&c, "pfc", "drr_quantum", "55, 66", err, sizeof err), 0);
  assert_int_equal(c.drr_quantum[0], 55);
  assert_int_equal(c.drr_quantum[1], 66);
  for (unsigned i = 2; i < LFC_PFC_MAX_PRIOS; i++) assert_int_equal(c.drr_quantum[i], 55);

  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  before = c;
  assert_int_equal(lfc_switch_cfg_set(&c, "ib", "vl_blocks", "99", err, sizeof err), 0);
  for (unsigned i = 0; i < LFC_IB_MAX_VLS; i++) assert_int_equal(c.vl_blocks[i], 99);
  memcpy(before.vl_blocks, c.vl_blocks, sizeof before.vl_blocks);
  assert_memory_equal(&before, &c, sizeof c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_binary_literal),
      cmocka_unit_test(test_bool_any_case),
      cmocka_unit_test(test_too_many_values_message),
      cmocka_unit_test(test_class_list_stays_in_its_array),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
