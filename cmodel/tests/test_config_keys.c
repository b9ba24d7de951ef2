/*
 * test_config_keys.c - lfc_switch_cfg_set: every SPEC §3 parameter settable by name from text,
 * ranges enforced per parameter, lists per port/class, and errors that say what is allowed and
 * leave the configuration unchanged.
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

static lfc_switch_cfg_t pfc_cfg(uint32_t ports, uint32_t classes) {
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, ports, classes);
  return c;
}

/* Set and require success. */
static void set_ok(lfc_switch_cfg_t *c, const char *sec, const char *key, const char *val) {
  char err[256] = "";
  int rc = lfc_switch_cfg_set(c, sec, key, val, err, sizeof err);
  if (rc != 0) fail_msg("[%s] %s = %s: rc %d: %s", sec, key, val, rc, err);
}

/* Set and require rc, with err containing `needle`, and the configuration unchanged. */
static void set_bad(lfc_switch_cfg_t *c, const char *sec, const char *key, const char *val,
                    int want_rc, const char *needle) {
  char err[512] = "";
  lfc_switch_cfg_t before = *c;
  int rc = lfc_switch_cfg_set(c, sec, key, val, err, sizeof err);
  if (rc != want_rc) fail_msg("[%s] %s = %s: rc %d, expected %d", sec, key, val, rc, want_rc);
  if (strstr(err, needle) == NULL)
    fail_msg("[%s] %s = %s: message \"%s\" lacks \"%s\"", sec, key, val, err, needle);
  if (memcmp(&before, c, sizeof before) != 0)
    fail_msg("[%s] %s = %s: a rejected value changed the configuration", sec, key, val);
}

static void test_scalars_of_each_kind(void **state) {
  (void)state;
  lfc_switch_cfg_t c = pfc_cfg(4, 2);
  set_ok(&c, "switch", "latency", "0x20");
  assert_int_equal(c.latency, 32);
  set_ok(&c, "switch", "cut_through", " yes ");
  assert_true(c.cut_through);
  set_ok(&c, "switch", "cut_through", "OFF");
  assert_false(c.cut_through);
  set_ok(&c, "pfc", "lossless_mask", "0b101");
  assert_int_equal(c.lossless_mask, 5);
  set_ok(&c, "pfc", "alpha_log2", "-3");
  assert_int_equal(c.alpha_log2, -3);
  set_ok(&c, "pfc", "wd_action", "forward");
  assert_int_equal(c.wd_action, LFC_WD_FORWARD);
  set_ok(&c, "switch", "mode", "ib");
  assert_int_equal(c.mode, LFC_MODE_IB);
  set_ok(&c, "pfc", "pmax", "65536");
  assert_int_equal(c.pmax, 65536);
}

/* The edges of a range are accepted, one past them rejected, naming the range. */
static void test_range_edges(void **state) {
  (void)state;
  lfc_switch_cfg_t c = pfc_cfg(4, 2);
  set_ok(&c, "switch", "mtu_blocks", "1");
  set_ok(&c, "switch", "mtu_blocks", "255");
  set_bad(&c, "switch", "mtu_blocks", "256", -1, "1..255");
  set_bad(&c, "switch", "mtu_blocks", "0", -1, "1..255");
  set_ok(&c, "pfc", "xon_offset", "1");
  set_bad(&c, "pfc", "xon_offset", "0", -1, "1..65535");
  set_bad(&c, "pfc", "alpha_log2", "8", -1, "-7..7");
  set_bad(&c, "switch", "latency", "12abc", -1, "integer");
  set_bad(&c, "switch", "latency", "", -1, "integer");
  set_bad(&c, "switch", "cut_through", "maybe", -1, "true/false");
  set_bad(&c, "switch", "mode", "ethernet", -1, "ib, pfc");
}

static void test_lists_one_or_per_entry(void **state) {
  (void)state;
  lfc_switch_cfg_t c = pfc_cfg(4, 3);
  set_ok(&c, "switch", "speed_div", "2");
  for (uint32_t p = 0; p < 4; p++) assert_int_equal(c.speed_div[p], 2);
  set_ok(&c, "switch", "speed_div", "1, 2,3 ,4");
  assert_int_equal(c.speed_div[0], 1);
  assert_int_equal(c.speed_div[3], 4);
  set_bad(&c, "switch", "speed_div", "1,2", -1, "one per port");
  set_bad(&c, "switch", "speed_div", "1,2,17,1", -1, "'17'");
  set_ok(&c, "pfc", "drr_quantum", "100,200,300");
  assert_int_equal(c.drr_quantum[2], 300);
  set_bad(&c, "pfc", "drr_quantum", "100,200", -1, "one per class");
}

static void test_vlarb_tables(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 4);
  set_ok(&c, "ib", "vlarb_high", "0:10, 3:255");
  assert_int_equal(c.vlarb_high_len, 2);
  assert_int_equal(c.vlarb_high[1].vl, 3);
  assert_int_equal(c.vlarb_high[1].weight, 255);
  set_ok(&c, "ib", "vlarb_high", "none");
  assert_int_equal(c.vlarb_high_len, 0);
  set_bad(&c, "ib", "vlarb_low", "0:10, 15:1", -1, "vl 0..14");
  set_bad(&c, "ib", "vlarb_low", "0-10", -1, "vl:weight");
  set_ok(&c, "ib", "vl_blocks", "300,301,302,303");
  assert_int_equal(c.vl_blocks[3], 303);
}

static void test_unknown_keys_and_sections(void **state) {
  (void)state;
  lfc_switch_cfg_t c = pfc_cfg(4, 2);
  set_bad(&c, "pfc", "xoff", "10", 1, "keys of [pfc]: lossless_mask");
  set_bad(&c, "traffic", "load", "10", 1, "unknown section [traffic]");
  char keys[1024];
  assert_int_equal(lfc_switch_cfg_keys("switch", keys, sizeof keys), 8);
  assert_string_equal(keys,
                      "mode, ports, classes, speed_div, latency, cut_through, mtu_blocks, seed");
  assert_int_equal(lfc_switch_cfg_keys("nosuch", NULL, 0), 0);
}

/* A configuration built only from text equals the same one built in C, and passes the check. */
static void test_text_config_matches_c(void **state) {
  (void)state;
  lfc_switch_cfg_t want = pfc_cfg(8, 2);
  want.xoff_th = 96;
  want.headroom_blocks = 40;
  want.ecn_mask = 1;
  want.kmin = 10;
  want.kmax = 50;
  lfc_switch_cfg_t got = pfc_cfg(8, 2);
  set_ok(&got, "pfc", "xoff_th", "96");
  set_ok(&got, "pfc", "headroom_blocks", "40");
  set_ok(&got, "pfc", "ecn_mask", "1");
  set_ok(&got, "pfc", "kmin", "10");
  set_ok(&got, "pfc", "kmax", "50");
  assert_memory_equal(&want, &got, sizeof want);
  char err[256] = "";
  assert_int_equal(lfc_switch_cfg_check(&got, err, sizeof err), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalars_of_each_kind),
      cmocka_unit_test(test_range_edges),
      cmocka_unit_test(test_lists_one_or_per_entry),
      cmocka_unit_test(test_vlarb_tables),
      cmocka_unit_test(test_unknown_keys_and_sections),
      cmocka_unit_test(test_text_config_matches_c),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
