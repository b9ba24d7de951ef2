/*
 * fuzz_scenario.c - libFuzzer target: the scenario parser of lfc-sim (sim/src/scenario.h) on
 * arbitrary bytes: no input may make it crash, leak or hang.
 *
 * Each input is loaded with lfc_scenario_load_mem and freed with lfc_scenario_free, under
 * AddressSanitizer and UndefinedBehaviorSanitizer. Besides crashes, leaks and hangs (libFuzzer's
 * -timeout), the target checks the error contract of scenario.h and aborts if it is broken:
 * a rejected input yields a non-empty error of exactly one line, "NAME:..." (it names the file).
 *
 * Built by sim/fuzz/fuzz.mk with clang (-fsanitize=fuzzer); `make fuzz` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

#define FUZZ_NAME "fuzz.ini"
#define FUZZ_ERR_LEN 512u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* A heap copy of exactly size bytes, so ASan sees any read past the end of the input
   * (the parser must not expect a terminating NUL). */
  char *text = malloc(size ? size : 1u);
  if (text == NULL) return 0;
  if (size) memcpy(text, data, size);
  lfc_scenario_t *sc = calloc(1, sizeof *sc);
  if (sc == NULL) {
    free(text);
    return 0;
  }
  char err[FUZZ_ERR_LEN];
  memset(err, 'x', sizeof err); /* so an error left unset is seen below */
  err[sizeof err - 1u] = '\0';
  int rc = lfc_scenario_load_mem(text, size, FUZZ_NAME, sc, err, sizeof err);
  if (rc != 0) {
    if (rc != -1 || err[0] == '\0' || strchr(err, '\n') != NULL ||
        strncmp(err, FUZZ_NAME ":", strlen(FUZZ_NAME ":")) != 0) {
      fprintf(stderr, "fuzz_scenario: rc %d, error not one line naming the file: '%s'\n", rc,
              err);
      abort();
    }
  }
  lfc_scenario_free(sc);
  free(sc);
  free(text);
  return 0;
}
