/*
 * test_star.c - the star testbed's own configuration rules (lfc/star.h, lfc_star_cfg_check):
 * what it adds to the switch's and the nodes' checks. The scoreboard is test_star_scoreboard.c.
 */
#include "testutil.h"

#include <string.h>

#include "lfc/star.h"

enum { PORTS = 4, CLASSES = 2 };

/* The testbed addresses node p as destination p: a route table of the switch is refused, by the
 * check and by lfc_star_create, with a message that says so; the same table is a legal switch
 * configuration on its own. */
static void test_route_table_refused(void **state) {
  (void)state;
  static const uint16_t route[PORTS] = {0, 1, 2, 3};
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, PORTS, CLASSES);
  c.sw.route = route;
  c.sw.route_len = PORTS;
  assert_int_equal(lfc_switch_cfg_check(&c.sw, NULL, 0), 0);
  char err[256] = "";
  assert_int_equal(lfc_star_cfg_check(&c, err, sizeof err), -1);
  assert_string_equal(err, "star: sw.route must be NULL: the testbed addresses node p as dst p");
  memset(err, 0, sizeof err);
  assert_null(lfc_star_create(&c, err, sizeof err));
  assert_non_null(strstr(err, "sw.route must be NULL"));
  c.sw.route = NULL;
  c.sw.route_len = 0;
  assert_int_equal(lfc_star_cfg_check(&c, err, sizeof err), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_route_table_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
