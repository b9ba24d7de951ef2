/*
 * fuzz_flat_cfg.c - libFuzzer target: the configuration text of the flat API, lfc_flat_create
 * (cmodel/src/flat.c: items "section.key=value" separated by ';' or newlines), and through it
 * every setter of cmodel/src/config_keys.c (lfc_switch_cfg_set: integers, booleans, enums,
 * per-port and per-class lists, VL arbitration tables) and lfc_switch_cfg_check. The DPI-C
 * package, the cocotb model and scripts read configurations this way.
 *
 * Checked besides crashes, leaks and sanitizer findings:
 *   - rejected: lfc_flat_error is one non-empty line, and the handle refuses to step;
 *   - accepted: the model steps; every index of the per-port and per-class parameters reads
 *     a value inside the list, -1 outside, and nothing outside the model's arrays; and a round
 *     trip: every parameter read back with lfc_flat_param, written out again as configuration text (each key of lfc_switch_cfg_keys
 *     that lfc_flat_param knows), makes a model with the same value of every parameter. The VL
 *     arbitration tables have no reader in the flat API and are not part of the round trip.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_parse.h"
#include "lfc/flat.h"
#include "lfc/switch.h"

#define TARGET "flat_cfg"
/* Cycles an accepted model is stepped. */
#define STEP_CYCLES 4
/* Room for the configuration text of every parameter (about 40 keys, lists of 16 ports or 15
   classes). */
#define TEXT_MAX 8192u
#define NAMES_MAX 1024u

static const char *const SECTIONS[] = {"switch", "ib", "pfc"};

/* Per-port or per-class parameters: how many values name has (its ports or classes, at most
   its slots: drr_quantum has one per PFC priority, SPEC §3.2); 0 for the other parameters. */
static int list_len(lfc_flat_t *h, const char *name) {
  int64_t classes = lfc_flat_param(h, "classes", 0);
  if (!strcmp(name, "speed_div")) return (int)lfc_flat_param(h, "ports", 0);
  if (!strcmp(name, "vl_blocks")) return (int)classes;
  if (!strcmp(name, "drr_quantum"))
    return (int)(classes > LFC_PFC_MAX_PRIOS ? LFC_PFC_MAX_PRIOS : classes);
  return 0;
}

/* Every index of a list parameter, and the ones just outside: a value (>= 0) inside, -1 with
   an error outside, and no read outside the model's arrays (ASan, UBSan). */
static void check_list_bounds(lfc_flat_t *h) {
  static const char *const LISTS[] = {"speed_div", "vl_blocks", "drr_quantum"};
  for (size_t k = 0; k < sizeof LISTS / sizeof LISTS[0]; k++) {
    int n = list_len(h, LISTS[k]);
    for (int i = -1; i <= (int)LFC_IB_MAX_VLS; i++) {
      int64_t v = lfc_flat_param(h, LISTS[k], i);
      if (i >= 0 && i < n ? v < 0 : v != -1)
        fuzz_fail(TARGET, "param %s[%d] = %" PRId64 " with %d values", LISTS[k], i, v, n);
    }
  }
}

/* name's value as configuration text; 0, or -1 if lfc_flat_param does not know name or it
   cannot be written (drr_quantum of a model with more classes than it has slots). */
static int value_text(lfc_flat_t *h, const char *name, char *buf, size_t len) {
  int n = list_len(h, name);
  if (!strcmp(name, "drr_quantum") && lfc_flat_param(h, "classes", 0) > LFC_PFC_MAX_PRIOS)
    return -1;
  if (n > 0) {
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
      int64_t v = lfc_flat_param(h, name, i);
      if (v < 0) fuzz_fail(TARGET, "param %s[%d] of an accepted model: %s", name, i,
                           lfc_flat_error(h));
      used += (size_t)snprintf(buf + used, len - used, "%s%" PRId64, i ? "," : "", v);
      if (used >= len) fuzz_fail(TARGET, "param %s: text too long", name);
    }
    return 0;
  }
  int64_t v = lfc_flat_param(h, name, 0);
  if (v < 0) return -1; /* no parameter values are negative: alpha_log2 comes in 32 bits */
  if (!strcmp(name, "mode"))
    snprintf(buf, len, "%s", v == LFC_MODE_PFC ? "pfc" : "ib");
  else if (!strcmp(name, "wd_action"))
    snprintf(buf, len, "%s", v == LFC_WD_FORWARD ? "forward" : "drop");
  else if (!strcmp(name, "alpha_log2"))
    snprintf(buf, len, "%" PRId32, (int32_t)(uint32_t)v);
  else
    snprintf(buf, len, "%" PRId64, v);
  return 0;
}

/* Every parameter lfc_flat_param knows, as configuration text; and the number of them. */
static int config_text(lfc_flat_t *h, char *text, size_t len) {
  size_t used = 0;
  int count = 0;
  text[0] = '\0';
  for (size_t s = 0; s < sizeof SECTIONS / sizeof SECTIONS[0]; s++) {
    char names[NAMES_MAX];
    lfc_switch_cfg_keys(SECTIONS[s], names, sizeof names);
    char *save = NULL;
    for (char *name = strtok_r(names, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
      char value[256];
      if (value_text(h, name, value, sizeof value) != 0) continue;
      used += (size_t)snprintf(text + used, len - used, "%s.%s=%s\n", SECTIONS[s], name, value);
      if (used >= len) fuzz_fail(TARGET, "configuration text longer than %zu", len);
      count++;
    }
  }
  return count;
}

static void check_round_trip(lfc_flat_t *h, const char *input) {
  static char text[TEXT_MAX];
  config_text(h, text, sizeof text);
  lfc_flat_t *h2 = lfc_flat_create(text);
  if (h2 == NULL) return; /* out of memory */
  if (!lfc_flat_ok(h2))
    fuzz_fail(TARGET, "input '%s' accepted, but its parameters written out are rejected: %s "
              "(text: %s)", input, lfc_flat_error(h2), text);
  for (size_t s = 0; s < sizeof SECTIONS / sizeof SECTIONS[0]; s++) {
    char names[NAMES_MAX];
    lfc_switch_cfg_keys(SECTIONS[s], names, sizeof names);
    char *save = NULL;
    for (char *name = strtok_r(names, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
      char a[256], b[256];
      if (value_text(h, name, a, sizeof a) != 0) continue;
      if (value_text(h2, name, b, sizeof b) != 0 || strcmp(a, b) != 0)
        fuzz_fail(TARGET, "input '%s': %s = %s, but %s after the round trip", input, name, a, b);
    }
  }
  lfc_flat_destroy(h2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_cstring(data, size);
  if (text == NULL) return 0;
  lfc_flat_t *h = lfc_flat_create(text);
  if (h == NULL) { /* out of memory */
    free(text);
    return 0;
  }
  fuzz_verbose("%s: ok %d %s", TARGET, lfc_flat_ok(h), lfc_flat_error(h));
  if (!lfc_flat_ok(h)) {
    const char *e = lfc_flat_error(h);
    if (e[0] == '\0' || strchr(e, '\n') != NULL)
      fuzz_fail(TARGET, "rejected, but the error is not one line: '%s'", e);
    if (lfc_flat_step(h) != -1)
      fuzz_fail(TARGET, "a handle without a model steps");
  } else {
    for (int t = 0; t < STEP_CYCLES; t++)
      if (lfc_flat_step(h) < 0)
        fuzz_fail(TARGET, "accepted, but cycle %d fails: %s", t, lfc_flat_error(h));
    check_list_bounds(h);
    check_round_trip(h, text);
  }
  lfc_flat_destroy(h);
  free(text);
  return 0;
}
