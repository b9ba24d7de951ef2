/*
 * fuzz_cli.c - libFuzzer target: lfc-sim's command line (sim/src/cli.h), the calculators'
 * (lfc_calc_parse, calc.h) and the --set overrides it carries (lfc_scenario_set), on arbitrary
 * arguments.
 *
 * An input is a list of arguments separated by newlines or NUL bytes (at most FUZZ_MAX_ARGS),
 * given to cli_parse after argv[0] = "lfc-sim". Then, as lfc-sim would:
 *   - `headroom|credits ...`: lfc_calc_parse, and for valid options the calculation itself;
 *   - a scenario run: a small built-in scenario is loaded from memory and the --seed, --set and
 *     --threads of the command line applied, then lfc_scenario_finish (no file is opened);
 *     with --pcap, the --pcap-links items are chosen on its fabric (pcap_plan, pcapout.h).
 * Besides crashes, leaks and hangs, the target aborts when the error contract is broken: every
 * failure is -1 with a non-empty error of exactly one line that starts with who reports it
 * ("lfc-sim", "--set", or the scenario's name), and what is accepted is within the ranges
 * cli.h promises.
 *
 * Built by sim/fuzz/fuzz.mk with clang (-fsanitize=fuzzer); `make fuzz-sim-cli` runs it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc.h"
#include "cli.h"
#include "pcapout.h"
#include "scenario.h"

#define FUZZ_MAX_ARGS 200u /* more than CLI_MAX_SETS --set options */
#define FUZZ_ERR_LEN 1024u
#define FUZZ_SCENARIO_NAME "fuzz-cli.ini"

/* Four hosts on one switch and a flow: small enough to load in microseconds. */
static const char SCENARIO[] = "[sim]\nduration_us = 2\n"
                               "[topology]\nkind = star\nhosts_per_switch = 4\n"
                               "[traffic.x]\npattern = flow\nsrc = 0\ndst = 1\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts unless err is one non-empty line starting with one of the prefixes. */
static void check_err(const char *what, int rc, const char *err, const char *const *prefixes) {
  int named = 0;
  for (; *prefixes != NULL; prefixes++)
    if (strncmp(err, *prefixes, strlen(*prefixes)) == 0) named = 1;
  if (rc != -1 || err[0] == '\0' || strchr(err, '\n') != NULL || !named) {
    fprintf(stderr, "fuzz_cli: %s: rc %d, error not one line naming its source: '%s'\n", what,
            rc, err);
    abort();
  }
}

static void fail(const char *what) {
  fprintf(stderr, "fuzz_cli: %s\n", what);
  abort();
}

static void run_calc(int argc, char **argv) {
  static const char *const from[] = {"lfc-sim", NULL};
  char err[FUZZ_ERR_LEN];
  memset(err, 'x', sizeof err);
  err[sizeof err - 1u] = '\0';
  lfc_calc_args_t a;
  int rc = lfc_calc_parse(argc, argv, &a, err, sizeof err);
  if (rc != 0) {
    check_err("lfc_calc_parse", rc, err, from);
    return;
  }
  if (a.help) return;
  static const char *const any[] = {"", NULL}; /* the calculators' errors name the field */
  if (a.kind == LFC_CALC_HEADROOM) {
    lfc_headroom_t h;
    rc = lfc_headroom_calc(&a.headroom, &h, err, sizeof err);
    if (rc != 0) check_err("lfc_headroom_calc", rc, err, any);
  } else if (a.kind == LFC_CALC_CREDITS) {
    lfc_credits_t c;
    rc = lfc_credits_calc(&a.credits, &c, err, sizeof err);
    if (rc != 0) check_err("lfc_credits_calc", rc, err, any);
  } else {
    fail("lfc_calc_parse: an unknown calculator accepted");
  }
}

static void run_scenario(const cli_t *cli) {
  static const char *const from[] = {"--set", FUZZ_SCENARIO_NAME, NULL};
  char err[FUZZ_ERR_LEN];
  lfc_scenario_t *sc = calloc(1, sizeof *sc);
  if (sc == NULL) return;
  if (lfc_scenario_load_mem(SCENARIO, sizeof SCENARIO - 1u, FUZZ_SCENARIO_NAME, sc, err,
                            sizeof err) != 0)
    fail("the built-in scenario does not load");
  if (cli->seed_given) sc->seed = cli->seed;
  int rc = 0;
  for (int i = 0; i < cli->nsets && rc == 0; i++) {
    memset(err, 'x', sizeof err);
    err[sizeof err - 1u] = '\0';
    rc = lfc_scenario_set(sc, cli->sets[i], err, sizeof err);
    if (rc != 0) check_err("lfc_scenario_set", rc, err, from);
  }
  if (rc == 0) {
    if (cli->threads > 0) sc->threads = cli->threads;
    memset(err, 'x', sizeof err);
    err[sizeof err - 1u] = '\0';
    rc = lfc_scenario_finish(sc, err, sizeof err);
    if (rc != 0) check_err("lfc_scenario_finish", rc, err, from);
  }
  if (rc == 0 && cli->pcap != NULL) { /* --pcap-links: the items against the built fabric */
    /* Building the fabric checks what only a fabric can (a failed cable that names no cable,
     * found as the fabric is built): those errors name the --set or the scenario. */
    static const char *const pcap_from[] = {"lfc-sim: ", "--set", FUZZ_SCENARIO_NAME, NULL};
    pcap_plan_t pl;
    memset(err, 'x', sizeof err);
    err[sizeof err - 1u] = '\0';
    rc = pcap_plan(sc, cli->pcap_links, cli->pcap_max_mb, &pl, err, sizeof err);
    if (rc != 0) check_err("pcap_plan", rc, err, pcap_from);
    else if (pl.n == 0) fail("pcap_plan: accepted no cable");
    else pcap_plan_free(&pl);
  }
  lfc_scenario_free(sc);
  free(sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* The arguments: a NUL-terminated copy cut at every newline and NUL. */
  char *text = malloc(size + 1u);
  char **argv = malloc((FUZZ_MAX_ARGS + 2u) * sizeof *argv);
  if (text == NULL || argv == NULL) {
    free(text);
    free(argv);
    return 0;
  }
  if (size) memcpy(text, data, size);
  text[size] = '\0';
  int argc = 0;
  argv[argc++] = "lfc-sim";
  char *p = text, *end = text + size;
  while (p < end && argc < (int)FUZZ_MAX_ARGS + 1) {
    char *q = p;
    while (q < end && *q != '\n' && *q != '\0') q++;
    *q = '\0';
    argv[argc++] = p;
    p = q + 1;
  }
  argv[argc] = NULL;

  static const char *const from[] = {"lfc-sim: ", NULL};
  char err[FUZZ_ERR_LEN];
  memset(err, 'x', sizeof err);
  err[sizeof err - 1u] = '\0';
  cli_t cli;
  int rc = cli_parse(argc, argv, 0, &cli, err, sizeof err);
  if (rc != 0) {
    check_err("cli_parse", rc, err, from);
  } else if (cli.action == CLI_CALC) {
    run_calc(argc - 1, argv + 1);
  } else if (cli.action == CLI_RUN) {
    if (cli.path == NULL || cli.nsets < 0 || cli.nsets > CLI_MAX_SETS ||
        cli.threads > SC_MAX_THREADS ||
        (cli.pcap == NULL && (cli.pcap_links != NULL || cli.pcap_max_mb > 0)))
      fail("cli_parse: accepted a run without a scenario or with out-of-range options");
    run_scenario(&cli);
  } else if (cli.action != CLI_HELP && cli.action != CLI_VERSION) {
    fail("cli_parse: an unknown action");
  }
  free(argv);
  free(text);
  return 0;
}
