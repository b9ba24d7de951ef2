/*
 * test_flat_bad_port.c - every per-port call of the flat API (lfc/flat.h) refuses a port that
 * does not exist even when the field is valid: it returns -1, reads and writes nothing, and
 * lfc_flat_error names the port and the range (a foreign caller's index must never reach the
 * model's arrays).
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "lfc/flat.h"

enum { PORTS = 4 };

static void expect_port_error(const lfc_flat_t *h, int port) {
  char want[64];
  snprintf(want, sizeof want, "port %d does not exist: ports are 0..%d", port, PORTS - 1);
  if (strstr(lfc_flat_error(h), want) == NULL)
    fail_msg("error '%s' does not say '%s'", lfc_flat_error(h), want);
}

static void test_bad_port_valid_field(void **state) {
  (void)state;
  lfc_flat_t *h = lfc_flat_create("switch.mode=pfc; switch.ports=4");
  assert_true(lfc_flat_ok(h));
  const int bad[] = {-1, PORTS, PORTS + 1000};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(lfc_flat_in(h, bad[i], LFC_FLAT_KIND), -1);
    expect_port_error(h, bad[i]);
    assert_int_equal(lfc_flat_out(h, bad[i], LFC_FLAT_KIND), -1);
    expect_port_error(h, bad[i]);
    assert_int_equal(lfc_flat_set_in(h, bad[i], LFC_FLAT_KIND, LFC_DATA), -1);
    expect_port_error(h, bad[i]);
  }
  /* Nothing was written: every port's input is still IDLE. */
  for (int p = 0; p < PORTS; p++) assert_int_equal(lfc_flat_in(h, p, LFC_FLAT_KIND), LFC_IDLE);
  lfc_flat_destroy(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bad_port_valid_field),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
