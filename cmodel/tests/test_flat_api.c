/*
 * test_flat_api.c - the flat interface (lfc/flat.h, cmodel/src/flat.c) as a binding sees it: the
 * name tables are complete and agree with their lookups, every configuration parameter reads
 * back what the configuration text set (not the default, not a neighbour), and the event text is
 * exactly the events of the step in the documented form. Its edges: every per-port call refuses
 * a port that does not exist even when the field is valid (returns -1, reads and writes nothing,
 * lfc_flat_error names the port and the range: a foreign caller's index must never reach the
 * model's arrays), and lfc_flat_param on the per-class lists of a model with more classes than a
 * list has slots: an IB switch has up to 15 data VLs (vl_blocks has 15 slots), drr_quantum has
 * one slot per PFC priority (8, SPEC §3.2). Index 8 of drr_quantum on an IB model of 9 classes
 * read past the end of the array (found by tb/fuzz/fuzz_flat_cfg.c; its input is
 * tb/fuzz/regress/flat_cfg/ib_9_classes_drr_quantum).
 */

#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "lfc/flat.h"

#include "lfc/switch.h"

static lfc_flat_t *make(const char *text) {
  lfc_flat_t *h = lfc_flat_create(text);
  assert_non_null(h);
  if (!lfc_flat_ok(h)) fail_msg("lfc_flat_create(\"%s\"): %s", text, lfc_flat_error(h));
  return h;
}

/* Names of one table: index 0..n-1 each non-empty and distinct; -1 and n give "". */
static void check_names(const char *what, int n, const char *(*name)(int)) {
  assert_true(n > 0);
  for (int i = 0; i < n; i++) {
    const char *a = name(i);
    if (a == NULL || a[0] == '\0') fail_msg("%s %d has no name", what, i);
    for (int j = 0; j < i; j++)
      if (strcmp(a, name(j)) == 0) fail_msg("%s %d and %d are both '%s'", what, j, i, a);
  }
  assert_string_equal(name(-1), "");
  assert_string_equal(name(n), "");
}

/* lfc/flat.h: "the names and numbers are also readable at run time ... so a binding can build
 * its tables from the library": every table is complete, lookups invert names, bad indices
 * give "" / -1. */
static void test_name_tables_complete_and_consistent(void **state) {
  (void)state;
  check_names("field", lfc_flat_field_count(), lfc_flat_field_name);
  check_names("stat", lfc_flat_stat_count(), lfc_flat_stat_name);
  check_names("register", lfc_flat_reg_count(), lfc_flat_reg_name);
  check_names("drop cause", LFC_DROP_CAUSES, lfc_flat_cause_name);
  check_names("event kind", LFC_EV_KINDS, lfc_flat_event_kind_name);
  for (int f = 0; f < lfc_flat_field_count(); f++) {
    assert_int_equal(lfc_flat_field_find(lfc_flat_field_name(f)), f);
    assert_in_range(lfc_flat_field_width(f), 1, 32);
  }
  for (int s = 0; s < lfc_flat_stat_count(); s++) {
    const char *n = lfc_flat_stat_name(s);
    size_t len = strlen(n);
    /* SPEC §13: the RTL's stat outputs are stat_<what>_o */
    assert_true(strncmp(n, "stat_", 5) == 0 && len > 7 && strcmp(n + len - 2, "_o") == 0);
    int w = lfc_flat_stat_width(s);
    assert_true(w == 1 || w == 3 || w == (int)LFC_MAX_CLASSES);
  }
  assert_int_equal(lfc_flat_stat_width(-1), -1);
  assert_int_equal(lfc_flat_stat_width(lfc_flat_stat_count()), -1);
  assert_int_equal(lfc_flat_field_width(-1), -1);
  for (int r = 0; r < lfc_flat_reg_count(); r++) {
    assert_int_equal(lfc_flat_reg_find(lfc_flat_reg_name(r)), r);
    assert_in_range(lfc_flat_reg_width(r), 1, 32);
    assert_in_range(lfc_flat_reg_scope(r), 0, 2);
    assert_in_range(lfc_flat_reg_mode(r), 0, 2);
  }
  for (int bad = -1; bad <= lfc_flat_reg_count(); bad += lfc_flat_reg_count() + 1) {
    assert_int_equal(lfc_flat_reg_width(bad), -1);
    assert_int_equal(lfc_flat_reg_scope(bad), -1);
    assert_int_equal(lfc_flat_reg_mode(bad), -1);
  }
  assert_int_equal(lfc_flat_reg_find("nope"), -1);
  assert_int_equal(lfc_flat_reg_find(NULL), -1);
  assert_int_equal(lfc_flat_field_find(NULL), -1);
}

typedef struct {
  const char *name; /* lfc_flat_param name */
  int index;
  int64_t value;
} param_t;

/* Every parameter set to a value that is not its default, read back. */
static void check_params(const char *text, const param_t *p, size_t n) {
  lfc_flat_t *h = make(text);
  for (size_t i = 0; i < n; i++) {
    int64_t got = lfc_flat_param(h, p[i].name, p[i].index);
    if (got != p[i].value)
      fail_msg("param %s[%d] = %lld, the text set %lld (%s)", p[i].name, p[i].index,
               (long long)got, (long long)p[i].value, lfc_flat_error(h));
  }
  lfc_flat_destroy(h);
}

/* lfc/flat.h lfc_flat_param: each name reads its own parameter, whole (values above 8 and 16
 * bits), signed alpha_log2 as two's complement, enums and booleans as numbers. */
static void test_every_param_reads_back(void **state) {
  (void)state;
  static const param_t pfc[] = {
      {"mode", 0, LFC_MODE_PFC}, {"ports", 0, 5}, {"classes", 0, 3}, {"latency", 0, 7},
      {"cut_through", 0, 0}, {"mtu_blocks", 0, 200}, {"seed", 0, 123456789},
      {"lossless_mask", 0, 5}, {"reserve_blocks", 0, 301}, {"shared_blocks", 0, 70001},
      {"headroom_blocks", 0, 1402}, {"dynamic_th", 0, 1}, {"xoff_th", 0, 5003},
      {"alpha_log2", 0, 0xFFFFFFFDll}, {"xon_offset", 0, 9}, {"pause_quanta", 0, 40000},
      {"refresh_cycles", 0, 30000}, {"strict_mask", 0, 2}, {"wd_enable", 0, 1},
      {"wd_detect", 0, 100000}, {"wd_restore", 0, 200000}, {"wd_action", 0, LFC_WD_FORWARD},
      {"ecn_mask", 0, 6}, {"kmin", 0, 300}, {"kmax", 0, 60000}, {"pmax", 0, 1000},
      {"speed_div", 0, 1}, {"speed_div", 1, 2}, {"speed_div", 4, 5},
      {"drr_quantum", 0, 250}, {"drr_quantum", 2, 270},
  };
  check_params("switch.mode=pfc; switch.ports=5; switch.classes=3; switch.latency=7;"
               "switch.cut_through=0; switch.mtu_blocks=200; switch.seed=123456789;"
               "switch.speed_div=1,2,3,4,5; pfc.lossless_mask=5; pfc.reserve_blocks=301;"
               "pfc.shared_blocks=70001; pfc.headroom_blocks=1402; pfc.dynamic_th=1;"
               "pfc.xoff_th=5003; pfc.alpha_log2=-3; pfc.xon_offset=9; pfc.pause_quanta=40000;"
               "pfc.refresh_cycles=30000; pfc.strict_mask=2; pfc.drr_quantum=250,260,270;"
               "pfc.wd_enable=1; pfc.wd_detect=100000; pfc.wd_restore=200000;"
               "pfc.wd_action=forward; pfc.ecn_mask=6; pfc.kmin=300; pfc.kmax=60000;"
               "pfc.pmax=1000",
               pfc, sizeof pfc / sizeof pfc[0]);
  static const param_t ib[] = {
      {"mode", 0, LFC_MODE_IB}, {"ports", 0, 3}, {"classes", 0, 4}, {"vl15_blocks", 0, 277},
      {"fcp_period", 0, 1234}, {"vlarb_high_limit", 0, 9}, {"vl_blocks", 0, 300},
      {"vl_blocks", 3, 600}, {"mtu_blocks", 0, 100}, {"latency", 0, 1}, {"cut_through", 0, 1},
  };
  check_params("switch.mode=ib; switch.ports=3; switch.classes=4; switch.mtu_blocks=100;"
               "switch.latency=1; switch.cut_through=1; ib.vl_blocks=300,400,500,600; ib.vl15_blocks=277;"
               "ib.fcp_period=1234; ib.vlarb_high_limit=9",
               ib, sizeof ib / sizeof ib[0]);
  /* Indices are checked per port for speed_div, per class for the class lists. */
  lfc_flat_t *h = make("switch.mode=ib; switch.ports=3; switch.classes=4");
  assert_int_equal(lfc_flat_param(h, "vl_blocks", 4), -1);
  /* the message gives the indices that exist (lfc/flat.h: "what is allowed") */
  assert_non_null(strstr(lfc_flat_error(h), "param vl_blocks[4]: index out of range 0..3"));
  assert_int_equal(lfc_flat_param(h, "vl_blocks", -1), -1);
  assert_int_equal(lfc_flat_param(h, "speed_div", 3), -1);
  assert_non_null(strstr(lfc_flat_error(h), "param speed_div[3]: index out of range 0..2"));
  assert_int_equal(lfc_flat_param(h, "speed_div", 2), 1);
  assert_int_equal(lfc_flat_param(h, NULL, 0), -1);
  lfc_flat_destroy(h);
}

/* The text lfc/flat.h documents for the events of the last step, built from lfc_flat_event. */
static void expected_events(const lfc_flat_t *h, char *buf, size_t len) {
  int64_t n = lfc_flat_event_count(h);
  size_t at = 0;
  buf[0] = '\0';
  if (n == 0) snprintf(buf, len, "none");
  for (int i = 0; i < n; i++) {
    int kind = (int)lfc_flat_event(h, i, LFC_FLAT_EV_KIND);
    at += (size_t)snprintf(buf + at, len - at, "%s%s(port=%lld cls=%lld", i ? " " : "",
                           lfc_flat_event_kind_name(kind),
                           (long long)lfc_flat_event(h, i, LFC_FLAT_EV_PORT),
                           (long long)lfc_flat_event(h, i, LFC_FLAT_EV_CLS));
    if (kind == LFC_EV_DROP)
      at += (size_t)snprintf(
          buf + at, len - at, " cause=%s tag=0x%08llx",
          lfc_flat_cause_name((int)lfc_flat_event(h, i, LFC_FLAT_EV_CAUSE)),
          (unsigned long long)lfc_flat_event(h, i, LFC_FLAT_EV_TAG));
    at += (size_t)snprintf(buf + at, len - at, ")");
    assert_true(at < len);
  }
}

/* lfc/flat.h lfc_flat_format_events: "none", or every event of the step as kind(port= cls=),
 * drops with cause= and tag=, separated by one space; under random PFC traffic into small
 * buffers (drops of several causes, XOFF/XON, ECN marks, malformed blocks). */
static void test_event_text_is_the_events(void **state) {
  (void)state;
  lfc_flat_t *h = make("switch.mode=pfc; switch.ports=4; switch.mtu_blocks=4;"
                       "pfc.lossless_mask=1; pfc.reserve_blocks=2; pfc.shared_blocks=24;"
                       "pfc.headroom_blocks=12; pfc.xoff_th=6; pfc.ecn_mask=3; pfc.kmin=1;"
                       "pfc.kmax=8; pfc.pmax=65536; pfc.drr_quantum=4");
  uint32_t s = 0xF1A7u, left[4] = {0}, tag = 1;
  uint32_t kinds_seen = 0, multi = 0;
  static char want[1 << 14];
  for (int t = 0; t < 4000; t++) {
    for (int p = 0; p < 4; p++) {
      if (left[p] > 0) {
        lfc_flat_set_in(h, p, LFC_FLAT_SOP, 0);
        lfc_flat_set_in(h, p, LFC_FLAT_EOP, left[p] == 1);
        left[p]--;
        continue;
      }
      lfc_flat_set_in(h, p, LFC_FLAT_KIND, LFC_IDLE);
      uint32_t r = tu_rand(&s) % 100;
      if (r < 60) {
        uint32_t n = tu_rand(&s) % 10 == 0 ? 0u : 1u + tu_rand(&s) % 4; /* some malformed */
        lfc_flat_set_in(h, p, LFC_FLAT_KIND, LFC_DATA);
        lfc_flat_set_in(h, p, LFC_FLAT_SOP, tu_rand(&s) % 20 != 0); /* some strays */
        lfc_flat_set_in(h, p, LFC_FLAT_EOP, n <= 1u);
        lfc_flat_set_in(h, p, LFC_FLAT_CLS, tu_rand(&s) % 2);
        lfc_flat_set_in(h, p, LFC_FLAT_NBLK, n);
        lfc_flat_set_in(h, p, LFC_FLAT_DST, (uint32_t)(p == 0 ? 1 : 0)); /* an incast on 0 */
        lfc_flat_set_in(h, p, LFC_FLAT_TAG, tag++);
        lfc_flat_set_in(h, p, LFC_FLAT_ECN, 1 + tu_rand(&s) % 2);
        if (lfc_flat_in(h, p, LFC_FLAT_SOP) == 1 && n > 1u) left[p] = n - 1u;
      }
    }
    int64_t n = lfc_flat_step(h);
    assert_int_equal(n, lfc_flat_event_count(h));
    expected_events(h, want, sizeof want);
    const char *got = lfc_flat_format_events(h);
    if (strcmp(got, want) != 0)
      fail_msg("cycle %d: lfc_flat_format_events gives\n  '%s'\nthe events are\n  '%s'", t, got,
               want);
    for (int i = 0; i < n; i++) kinds_seen |= 1u << lfc_flat_event(h, i, LFC_FLAT_EV_KIND);
    multi += n > 1;
  }
  /* The run produced drops, ECN marks, XOFF, XON and malformed blocks, several at once. */
  assert_int_equal(kinds_seen & 0x4Fu, 0x4Fu);
  assert_true(multi > 10u);
  lfc_flat_destroy(h);
}

/* lfc/flat.h lfc_flat_reset: "back to the reset state: cycle 0, all inputs IDLE (0), outputs and
 * events of 'no step yet'" (lfc_flat_out: 0 before the first step; lfc_flat_stat likewise). */
static void test_reset_clears_inputs_outputs_stats_events(void **state) {
  (void)state;
  lfc_flat_t *h = make("switch.mode=pfc; switch.ports=3");
  /* A malformed first block on port 2 (a drop event, stat_drop_o) while port 0 receives an
     FCP-free PFC frame; then steps until a packet leaves port 1. */
  lfc_flat_set_in(h, 2, LFC_FLAT_KIND, LFC_DATA);
  lfc_flat_set_in(h, 2, LFC_FLAT_SOP, 1);
  lfc_flat_set_in(h, 2, LFC_FLAT_EOP, 1);
  lfc_flat_set_in(h, 2, LFC_FLAT_NBLK, 0);
  lfc_flat_set_in(h, 0, LFC_FLAT_KIND, LFC_DATA);
  lfc_flat_set_in(h, 0, LFC_FLAT_SOP, 1);
  lfc_flat_set_in(h, 0, LFC_FLAT_EOP, 1);
  lfc_flat_set_in(h, 0, LFC_FLAT_NBLK, 1);
  lfc_flat_set_in(h, 0, LFC_FLAT_DST, 1);
  lfc_flat_set_in(h, 0, LFC_FLAT_TAG, 0x77);
  assert_true(lfc_flat_step(h) > 0);
  assert_int_equal(lfc_flat_stat(h, LFC_FLAT_STAT_DROP, 2), 1);
  lfc_flat_clear_in(h);
  int t = 0;
  while (lfc_flat_out(h, 1, LFC_FLAT_KIND) != LFC_DATA && t++ < 100) lfc_flat_step(h);
  assert_int_equal(lfc_flat_out(h, 1, LFC_FLAT_TAG), 0x77);
  lfc_flat_set_in(h, 2, LFC_FLAT_TAG, 5); /* an input left set */
  assert_int_equal(lfc_flat_reset(h), 0);
  assert_int_equal(lfc_flat_cycle(h), 0);
  assert_int_equal(lfc_flat_event_count(h), 0);
  assert_string_equal(lfc_flat_format_events(h), "none");
  for (int p = 0; p < 3; p++) {
    for (int f = 0; f < lfc_flat_field_count(); f++) {
      assert_int_equal(lfc_flat_in(h, p, f), 0);
      if (lfc_flat_out(h, p, f) != 0)
        fail_msg("after the reset, output field %s of port %d is %lld", lfc_flat_field_name(f), p,
                 (long long)lfc_flat_out(h, p, f));
    }
    for (int st = 0; st < lfc_flat_stat_count(); st++) assert_int_equal(lfc_flat_stat(h, st, p), 0);
  }
  lfc_flat_destroy(h);
}

/* lfc/flat.h: a call with an index that does not exist fails, and lfc_flat_error says "what is
 * allowed": the range of the indices that exist, from the tables' own counts. */
static void test_out_of_range_messages_name_what_exists(void **state) {
  (void)state;
  enum { PORTS = 3 };
  lfc_flat_t *h = make("switch.mode=pfc; switch.ports=3; switch.classes=2");
  char want[128];
  int regs = lfc_flat_reg_count(), fields = lfc_flat_field_count(), stats = lfc_flat_stat_count();
  assert_int_equal(lfc_flat_reg(h, regs, 0, 0), -1);
  snprintf(want, sizeof want, "register %d does not exist: registers are 0..%d", regs, regs - 1);
  assert_string_equal(lfc_flat_error(h), want);
  int qlen = lfc_flat_reg_find("qlen"); /* a (port, class) register, SPEC §13.1 */
  assert_true(qlen >= 0);
  assert_int_equal(lfc_flat_reg(h, qlen, 0, LFC_MAX_CLASSES), -1);
  snprintf(want, sizeof want, "register qlen: class %d out of range 0..%d", LFC_MAX_CLASSES,
           LFC_MAX_CLASSES - 1);
  assert_string_equal(lfc_flat_error(h), want);
  assert_true(lfc_flat_reg(h, qlen, PORTS - 1, LFC_MAX_CLASSES - 1) >= 0);
  assert_int_equal(lfc_flat_out(h, PORTS, LFC_FLAT_KIND), -1);
  snprintf(want, sizeof want, "port %d does not exist: ports are 0..%d", PORTS, PORTS - 1);
  assert_string_equal(lfc_flat_error(h), want);
  assert_int_equal(lfc_flat_out(h, 0, fields), -1);
  snprintf(want, sizeof want, "field %d does not exist: fields are 0..%d", fields, fields - 1);
  assert_string_equal(lfc_flat_error(h), want);
  assert_int_equal(lfc_flat_stat(h, stats, 0), -1);
  snprintf(want, sizeof want, "stat %d does not exist: stats are 0..%d", stats, stats - 1);
  assert_string_equal(lfc_flat_error(h), want);
  lfc_flat_destroy(h);
}

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
      cmocka_unit_test(test_name_tables_complete_and_consistent),
      cmocka_unit_test(test_every_param_reads_back),
      cmocka_unit_test(test_event_text_is_the_events),
      cmocka_unit_test(test_reset_clears_inputs_outputs_stats_events),
      cmocka_unit_test(test_out_of_range_messages_name_what_exists),
      cmocka_unit_test(test_bad_port_valid_field),
      cmocka_unit_test(test_drr_quantum_index_beyond_its_slots_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
