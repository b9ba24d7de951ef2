/*
 * test_config_keys.c - lfc_switch_cfg_set (cmodel/src/config_keys.c): every SPEC §3 parameter
 * settable by name from text, ranges enforced per parameter, lists per port/class, and errors
 * that say what is allowed and leave the configuration unchanged; binary literals,
 * case-insensitive booleans, the "too many values" message, a per-class list that must not write
 * past its array, NULL arguments, and the message buffer at any length.
 */

#include "testutil.h"
#include "errbuf_testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/flat.h"
#include "lfc/link.h"
#include "lfc/star.h"
#include "lfc/nic.h"

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
  /* SPEC §3: pause_quanta is 1..65535 (0 would be an XON); 1 is in range, but no refresh period
     (1..65535 cycles) is below a 1-quantum pause, so the check names the refresh rule. */
  set_ok(&c, "pfc", "pause_quanta", "1");
  set_bad(&c, "pfc", "pause_quanta", "0", -1, "1..65535");
  {
    lfc_switch_cfg_t q = c;
    q.refresh_cycles = 1;
    char cerr[256] = "";
    assert_int_equal(lfc_switch_cfg_check(&q, cerr, sizeof cerr), -1);
    if (strstr(cerr, "refresh_cycles = 1 is not below pause_quanta = 1") == NULL)
      fail_msg("pause_quanta = 1: '%s'", cerr);
  }
  set_bad(&c, "pfc", "xon_offset", "0", -1, "1..65535");
  set_bad(&c, "pfc", "alpha_log2", "8", -1, "-7..7");
  set_bad(&c, "switch", "latency", "12abc", -1, "integer");
  set_bad(&c, "switch", "latency", "", -1, "integer");
  {
    char longv[1100];
    memset(longv, '1', sizeof longv - 1u);
    longv[sizeof longv - 1u] = '\0';
    set_bad(&c, "switch", "latency", longv, -1, "value longer than 1023 characters");
    /* An unknown key is "not a switch parameter" (1) whatever the value, a long one included. */
    char err[256] = "";
    assert_int_equal(lfc_switch_cfg_set(&c, "ibx", "cut_through", longv, err, sizeof err), 1);
    assert_non_null(strstr(err, "unknown section [ibx]"));
  }
  set_bad(&c, "switch", "cut_through", "maybe", -1, "true/false");
  set_bad(&c, "switch", "mode", "ethernet", -1, "ib, pfc");
}

/* A boolean is one whole word in any case: a prefix, an extension, a second word or a long value
   that starts with a true word is refused, whatever its length. */
static void test_bool_words_whole(void **state) {
  (void)state;
  lfc_switch_cfg_t c = pfc_cfg(4, 2);
  set_ok(&c, "switch", "cut_through", "\tTrUe\t");
  assert_true(c.cut_through);
  set_ok(&c, "switch", "cut_through", "0");
  assert_false(c.cut_through);
  static const char *const bad[] = {"t",        "tru",         "truee",           "yes no",
                                    "onon",     "of",          "offf",            "1 1",
                                    "yesyesyes", "true.......", "on_____________", "false_________x",
                                    "truetruetruetruetrue", NULL};
  for (const char *const *b = bad; *b; b++) set_bad(&c, "switch", "cut_through", *b, -1, "true/false");
  /* No word at all is refused too. Each value is an exact-size heap copy, so that a look past its
     terminator (the word's end is searched from the first character on) fails under
     AddressSanitizer. */
  static const char *const none[] = {"", " ", "\t \t", NULL};
  for (const char *const *b = none; *b; b++) {
    const size_t n = strlen(*b) + 1u;
    char *v = malloc(n);
    assert_non_null(v);
    memcpy(v, *b, n);
    set_bad(&c, "switch", "cut_through", v, -1, "true/false");
    free(v);
  }
}

/* The VL arbitration table's messages give the ranges an entry may take. */
static void test_vlarb_entry_messages(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 4);
  set_bad(&c, "ib", "vlarb_high", "3", -1, "entry '3' is not vl:weight (vl 0..14, weight 0..255)");
  set_bad(&c, "ib", "vlarb_high", "0:1, 15:4", -1,
          "entry '15:4': expected vl 0..14 and weight 0..255");
  set_bad(&c, "ib", "vlarb_low", "1:256", -1, "entry '1:256': expected vl 0..14 and weight 0..255");
  set_ok(&c, "ib", "vlarb_low", "14:255, 0:0");
  assert_int_equal(c.vlarb_low_len, 2);
  assert_int_equal(c.vlarb_low[1].vl, 0);
  assert_int_equal(c.vlarb_low[1].weight, 0);
}

static void test_lists_one_or_per_entry(void **state) {
  (void)state;
  lfc_switch_cfg_t c = pfc_cfg(4, 3);
  /* A list with no element at all: the same message as a bad element, quoting the value. */
  set_bad(&c, "switch", "speed_div", ",,", -1, "',,' is not an integer in 1..");
  set_bad(&c, "switch", "speed_div", " , ", -1, "'' is not an integer in 1..");
  set_bad(&c, "switch", "speed_div", "1,x", -1, "'x' is not an integer in 1..");
  set_bad(&c, "switch", "speed_div", "1,0", -1, "'0' is not an integer in 1..");
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
  assert_int_equal(lfc_switch_cfg_keys("switch", keys, sizeof keys), 9);
  assert_string_equal(keys, "mode, ports, classes, speed_div, latency, cut_through, mtu_blocks, "
                            "wire_time, seed");
  assert_int_equal(lfc_switch_cfg_keys("nosuch", NULL, 0), 0);
}

/* A buffer too short for the list holds its first len - 1 characters, whatever len is, and the
   count is still every key. */
static void test_keys_list_truncated(void **state) {
  (void)state;
  char full[4096], part[4096];
  size_t n = lfc_switch_cfg_keys(NULL, full, sizeof full);
  size_t flen = strlen(full);
  assert_true(flen > 0 && flen + 1 < sizeof full);
  for (size_t len = 1; len <= flen + 1; len++) {
    memset(part, 'x', sizeof part);
    assert_int_equal(lfc_switch_cfg_keys(NULL, part, len), n);
    assert_int_equal(strlen(part), len - 1);
    assert_memory_equal(part, full, len - 1);
    for (size_t i = len; i < sizeof part; i++) assert_int_equal(part[i], 'x'); /* nothing beyond */
  }
}

/* SPEC §3 values are decimal, 0x hex or 0b binary: a leading zero is a decimal digit, not a C
   octal prefix (010 was read as 8 and 09 refused). */
static void test_leading_zero_is_decimal(void **state) {
  (void)state;
  lfc_switch_cfg_t c = pfc_cfg(4, 2);
  set_ok(&c, "switch", "latency", "010");
  assert_int_equal(c.latency, 10);
  set_ok(&c, "switch", "latency", "09");
  assert_int_equal(c.latency, 9);
  set_ok(&c, "pfc", "alpha_log2", "-07");
  assert_int_equal(c.alpha_log2, -7);
  set_ok(&c, "switch", "speed_div", "01, 02, 010, 016");
  assert_int_equal(c.speed_div[2], 10);
  assert_int_equal(c.speed_div[3], 16);
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 10);
  set_ok(&c, "ib", "vlarb_low", "09:010");
  assert_int_equal(c.vlarb_low[0].vl, 9);
  assert_int_equal(c.vlarb_low[0].weight, 10);
}

/* lfc_parse_int, the one integer reader of every front end: its forms, its edges, its two
   kinds of failure, and *out untouched on failure. */
static void test_parse_int_forms(void **state) {
  (void)state;
  static const struct {
    const char *text;
    int64_t want;
  } good[] = {
      {"0", 0},          {"010", 10},        {"09", 9},           {"  42\t", 42},
      {"+7", 7},         {"-007", -7},       {"0x1F", 31},        {"0X0a", 10},
      {"0b101", 5},      {"-0B11", -3},      {"00", 0},           {"1099511627776", 1LL << 40},
      {"9223372036854775807", INT64_MAX},    {"-9223372036854775808", INT64_MIN},
  };
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    int64_t v = 12345;
    int rc = lfc_parse_int(good[i].text, INT64_MIN, INT64_MAX, &v);
    if (rc != 0 || v != good[i].want)
      fail_msg("'%s': rc %d, value %lld, expected %lld", good[i].text, rc, (long long)v,
               (long long)good[i].want);
  }
  static const char *const not_numbers[] = {"", "  ", "-", "+", "0x", "0b", "0b2", "0x1g",
                                            "12abc", "1 2", "- 1", "1.5", "1e3", "ten", "--1"};
  for (size_t i = 0; i < sizeof not_numbers / sizeof not_numbers[0]; i++) {
    int64_t v = 12345;
    int rc = lfc_parse_int(not_numbers[i], INT64_MIN, INT64_MAX, &v);
    if (rc != -1 || v != 12345)
      fail_msg("'%s': rc %d, value %lld; expected -1, untouched", not_numbers[i], rc,
               (long long)v);
  }
  int64_t v = 12345;
  assert_int_equal(lfc_parse_int("9223372036854775808", INT64_MIN, INT64_MAX, &v), -2);
  assert_int_equal(lfc_parse_int("-9223372036854775809", INT64_MIN, INT64_MAX, &v), -2);
  assert_int_equal(lfc_parse_int("99999999999999999999999", INT64_MIN, INT64_MAX, &v), -2);
  assert_int_equal(lfc_parse_int("017", 0, 16, &v), -2);
  assert_int_equal(lfc_parse_int("-1", 0, 16, &v), -2);
  assert_int_equal(v, 12345);
  assert_int_equal(lfc_parse_int("016", 0, 16, &v), 0);
  assert_int_equal(v, 16);
  assert_int_equal(lfc_parse_int(NULL, 0, 16, &v), -1);
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


/* lfc/switch.h: lfc_switch_cfg_set, a bad value (-1) and an unknown key (1). */
static void test_switch_cfg_set_any_buffer(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  lfc_switch_cfg_t before = c;
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_switch_cfg_set(&c, "switch", "ports", "1", err, errlen), -1),
                    "expected an integer");
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_switch_cfg_set(&c, "pfc", "nope", "1", err, errlen), 1),
                    "nope");
  assert_memory_equal(&c, &before, sizeof c); /* unchanged unless 0 is returned */
  assert_int_equal(lfc_switch_cfg_set(&c, "switch", "ports", "5", NULL, BIG), 0);
  assert_int_equal(c.ports, 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalars_of_each_kind),
      cmocka_unit_test(test_range_edges),
      cmocka_unit_test(test_bool_words_whole),
      cmocka_unit_test(test_vlarb_entry_messages),
      cmocka_unit_test(test_leading_zero_is_decimal),
      cmocka_unit_test(test_parse_int_forms),
      cmocka_unit_test(test_lists_one_or_per_entry),
      cmocka_unit_test(test_vlarb_tables),
      cmocka_unit_test(test_unknown_keys_and_sections),
      cmocka_unit_test(test_keys_list_truncated),
      cmocka_unit_test(test_text_config_matches_c),
      cmocka_unit_test(test_binary_literal),
      cmocka_unit_test(test_bool_any_case),
      cmocka_unit_test(test_too_many_values_message),
      cmocka_unit_test(test_class_list_stays_in_its_array),
      cmocka_unit_test(test_cfg_set_null_arguments),
      cmocka_unit_test(test_switch_cfg_set_any_buffer),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
