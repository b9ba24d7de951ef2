/*
 * test_flat_param_bounds.c - lfc_flat_param on the per-class lists of a model with more
 * classes than a list has slots: an IB switch has up to 15 data VLs (vl_blocks has 15 slots),
 * drr_quantum has one slot per PFC priority (8, SPEC §3.2). Index 8 of drr_quantum on an IB
 * model of 9 classes read past the end of the array (found by tb/fuzz/fuzz_flat_cfg.c; its input
 * is tb/fuzz/regress/flat_cfg/ib_9_classes_drr_quantum).
 */
#include "testutil.h"

#include <string.h>

#include "lfc/flat.h"
#include "lfc/switch.h"

/* SPEC §3.2: drr_quantum has a slot per PFC priority; vl_blocks a slot per data VL. */
static void test_drr_quantum_index_beyond_its_slots_is_refused(void **state) {
  (void)state;
  lfc_flat_t *h = lfc_flat_create("switch.mode=ib; switch.classes=9; ib.vl_blocks=100");
  assert_non_null(h);
  if (!lfc_flat_ok(h)) fail_msg("lfc_flat_create: %s", lfc_flat_error(h));
  /* Every class has a VL buffer. */
  for (int i = 0; i < 9; i++) assert_int_equal(lfc_flat_param(h, "vl_blocks", i), 100);
  /* drr_quantum: slots 0..7 read, index 8 (a class, but no slot) is refused with its range. */
  assert_true(lfc_flat_param(h, "drr_quantum", 7) >= 1);
  assert_int_equal(lfc_flat_param(h, "drr_quantum", 8), -1);
  assert_non_null(strstr(lfc_flat_error(h), "0..7"));
  assert_int_equal(lfc_flat_param(h, "drr_quantum", 14), -1);
  lfc_flat_destroy(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_drr_quantum_index_beyond_its_slots_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
