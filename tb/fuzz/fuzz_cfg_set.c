/*
 * fuzz_cfg_set.c - libFuzzer target: lfc_switch_cfg_set (cmodel/src/config_keys.c), the one
 * setter of the switch's parameters by name from text, called directly: the input's three lines
 * are the section, the key and the value (the value as long as the input allows, with ';', '#'
 * and blanks that the .ini and flat front ends would have cut off before).
 *
 * The configuration it changes is the SPEC §3 default of IB with 15 classes for section "ib",
 * of PFC with 8 classes for "pfc", and of IB with 4 ports and 2 classes otherwise. Checked
 * besides crashes and sanitizer findings, from the contract in lfc/switch.h:
 *   - the result is 0 (set), 1 (not a switch parameter) or -1 (bad value), with a message of one
 *     non-empty line unless 0;
 *   - cfg is unchanged unless 0 is returned;
 *   - 1 exactly when lfc_switch_cfg_keys does not list the key in the section;
 *   - setting the same value again changes nothing more.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_parse.h"
#include "lfc/switch.h"

#define TARGET "cfg_set"
#define ERR_LEN 1024u
#define NAMES_MAX 1024u
#define PORTS_MAX_CFG 16u

/* 1 if section lists key (lfc_switch_cfg_keys, comma-separated). */
static int listed(const char *section, const char *key) {
  char names[NAMES_MAX];
  lfc_switch_cfg_keys(section, names, sizeof names);
  char *save = NULL;
  for (char *n = strtok_r(names, ", ", &save); n; n = strtok_r(NULL, ", ", &save))
    if (!strcmp(n, key)) return 1;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *argv[FUZZ_MAX_ARGS + 2];
  int argc = fuzz_argv(data, size, TARGET, argv);
  if (argc < 0) return 0;
  if (argc != 4) { /* exactly section, key, value */
    fuzz_argv_free(argc, argv);
    return 0;
  }
  const char *section = argv[1], *key = argv[2], *value = argv[3];
  static lfc_switch_cfg_t cfg, before;
  if (!strcmp(section, "ib"))
    lfc_switch_cfg_default(&cfg, LFC_MODE_IB, PORTS_MAX_CFG, LFC_IB_MAX_VLS);
  else if (!strcmp(section, "pfc"))
    lfc_switch_cfg_default(&cfg, LFC_MODE_PFC, PORTS_MAX_CFG, LFC_PFC_MAX_PRIOS);
  else
    lfc_switch_cfg_default(&cfg, LFC_MODE_IB, 4u, 2u);
  memcpy(&before, &cfg, sizeof cfg);

  char err[ERR_LEN];
  memset(err, 'x', sizeof err); /* an error left unset shows */
  err[sizeof err - 1u] = '\0';
  int rc = lfc_switch_cfg_set(&cfg, section, key, value, err, sizeof err);
  fuzz_verbose("%s: rc %d %s", TARGET, rc, rc ? err : "");
  if (rc != 0 && rc != 1 && rc != -1) fuzz_fail(TARGET, "rc %d (allowed 0, 1, -1)", rc);
  if (rc != 0) {
    if (err[0] == '\0' || err[0] == 'x' || strchr(err, '\n'))
      fuzz_fail(TARGET, "[%s] %s: rc %d, but the message is not one line: '%s'", section, key,
                rc, err);
    if (memcmp(&cfg, &before, sizeof cfg) != 0)
      fuzz_fail(TARGET, "[%s] %s = '%s': rc %d, but cfg was changed", section, key, value, rc);
  }
  if ((rc == 1) == listed(section, key))
    fuzz_fail(TARGET, "[%s] %s: rc %d, but lfc_switch_cfg_keys %s it", section, key, rc,
              rc == 1 ? "lists" : "does not list");
  if (rc == 0) {
    memcpy(&before, &cfg, sizeof cfg);
    int rc2 = lfc_switch_cfg_set(&cfg, section, key, value, err, sizeof err);
    if (rc2 != 0 || memcmp(&cfg, &before, sizeof cfg) != 0)
      fuzz_fail(TARGET, "[%s] %s = '%s' set twice: rc %d, or the second changed cfg", section,
                key, value, rc2);
  }
  fuzz_argv_free(argc, argv);
  return 0;
}
