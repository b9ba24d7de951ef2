/*
 * cli.c - lfc-sim's command line (cli.h).
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "lfc/parse.h" /* lfc_parse_int */

#include "estimate.h" /* EST_MAX_MEMORY_MB */
#include "pcapout.h"  /* PCAP_MAX_MAX_MB */
#include "scenario.h" /* SC_MAX_THREADS */

#define CLI_ECHO 60 /* characters of an argument echoed in a message */
#define CLI_OPTIONS                                                                          \
  "--json FILE, --csv DIR, --plot DIR, --plot-window N, --seed N, --set SEC.KEY=VALUE, --threads N, "         \
  "--max-memory-mb N, --estimate, --pcap DIR, --pcap-links LIST, --pcap-max-mb N, "           \
  "--flows N, --sort COLUMN, --progress, --no-progress, --no-warnings, --step-all, --digest, " \
  "--help, --version"

#define CLI_ERR(...)                                       \
  do {                                                     \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
    return -1;                                             \
  } while (0)

/* An integer option through lfc_parse_int: 0, or -1 with the message. */
static int cli_int(const char *flag, const char *v, int64_t lo, int64_t hi, int64_t *out,
                   char *err, size_t errlen) {
  int rc = lfc_parse_int(v, lo, hi, out);
  if (rc == 0) return 0;
  CLI_ERR("lfc-sim: %s %.*s%s: %s; allowed: an integer %lld..%lld (decimal, 0x hex or 0b "
          "binary)", flag, CLI_ECHO, v, strlen(v) > CLI_ECHO ? "..." : "",
          rc == -2 ? "out of range" : "not an integer", (long long)lo, (long long)hi);
}

int cli_parse(int argc, char **argv, int progress_default, cli_t *cli, char *err, size_t errlen) {
  memset(cli, 0, sizeof *cli);
  cli->progress = progress_default;
  cli->flows_shown = CLI_DEFAULT_FLOWS;
  if (argc >= 2 && argv[1] != NULL &&
      (!strcmp(argv[1], "headroom") || !strcmp(argv[1], "credits"))) {
    cli->action = CLI_CALC;
    return 0;
  }
  static const struct {
    const char *flag, *value;
  } with_value[] = {{"--json", "FILE"},   {"--csv", "DIR"},     {"--plot", "DIR"},
                    {"--seed", "N"},      {"--threads", "N"},   {"--set", "SEC.KEY=VALUE"},
                    {"--max-memory-mb", "N"}, {"--pcap", "DIR"}, {"--pcap-links", "LIST"},
                    {"--pcap-max-mb", "N"}, {"--flows", "N"}, {"--sort", "COLUMN"},
                    {"--plot-window", "N"}};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a == NULL) break;
    const char *val = NULL;
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
      if (!strcmp(a, with_value[k].flag)) {
        if (i + 1 >= argc || argv[i + 1] == NULL)
          CLI_ERR("lfc-sim: %s: missing its value; allowed: %s %s", a, a, with_value[k].value);
        val = argv[++i];
      }
    if (!strcmp(a, "--json")) cli->json = val;
    else if (!strcmp(a, "--csv")) cli->csv = val;
    else if (!strcmp(a, "--plot")) cli->plot = val;
    else if (!strcmp(a, "--pcap")) cli->pcap = val;
    else if (!strcmp(a, "--pcap-links")) cli->pcap_links = val;
    else if (!strcmp(a, "--pcap-max-mb")) {
      int64_t n;
      if (cli_int("--pcap-max-mb", val, 1, (int64_t)PCAP_MAX_MAX_MB, &n, err, errlen) != 0)
        return -1;
      cli->pcap_max_mb = (uint64_t)n;
    }
    else if (!strcmp(a, "--plot-window")) {
      int64_t n;
      if (cli_int("--plot-window", val, 1, CLI_MAX_PLOT_WINDOW, &n, err, errlen) != 0) return -1;
      cli->plot_window = (uint32_t)n;
    }
    else if (!strcmp(a, "--flows")) {
      int64_t n;
      if (cli_int("--flows", val, 0, UINT32_MAX, &n, err, errlen) != 0) return -1;
      cli->flows_shown = (uint32_t)n;
    } else if (!strcmp(a, "--sort")) {
      static const char *const names[] = {"id", "bytes", "gbps", "fct", "p99"};
      int found = -1;
      for (int k = 0; k < (int)(sizeof names / sizeof names[0]); k++)
        if (!strcmp(val, names[k])) found = k;
      if (found < 0)
        CLI_ERR("lfc-sim: --sort %.*s%s: not a column; allowed: %s", CLI_ECHO, val,
                strlen(val) > CLI_ECHO ? "..." : "", CLI_SORT_NAMES);
      cli->flows_sort = found;
    }
    else if (!strcmp(a, "--seed")) {
      int64_t s;
      if (cli_int("--seed", val, 0, UINT32_MAX, &s, err, errlen) != 0) return -1;
      cli->seed_given = 1;
      cli->seed = (uint32_t)s;
    } else if (!strcmp(a, "--threads")) {
      int64_t n;
      if (cli_int("--threads", val, 1, SC_MAX_THREADS, &n, err, errlen) != 0) return -1;
      cli->threads = (uint32_t)n;
    } else if (!strcmp(a, "--max-memory-mb")) {
      int64_t n;
      if (cli_int("--max-memory-mb", val, 1, (int64_t)EST_MAX_MEMORY_MB, &n, err, errlen) != 0)
        return -1;
      cli->max_memory_mb = (uint64_t)n;
    } else if (!strcmp(a, "--set")) {
      if (cli->nsets == CLI_MAX_SETS)
        CLI_ERR("lfc-sim: --set %.*s: one too many; allowed: up to %d --set options", CLI_ECHO,
                val, CLI_MAX_SETS);
      cli->sets[cli->nsets++] = val;
    } else if (!strcmp(a, "--progress")) cli->progress = 1;
    else if (!strcmp(a, "--no-progress")) cli->progress = 0;
    else if (!strcmp(a, "--no-warnings")) cli->no_warnings = 1;
    else if (!strcmp(a, "--step-all")) cli->step_all = 1;
    else if (!strcmp(a, "--digest")) cli->digest = 1;
    else if (!strcmp(a, "--estimate")) cli->estimate_only = 1;
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      cli->action = CLI_HELP;
      return 0;
    } else if (!strcmp(a, "--version")) {
      cli->action = CLI_VERSION;
      return 0;
    } else if (a[0] != '-' && cli->path == NULL) cli->path = a;
    else if (a[0] != '-')
      CLI_ERR("lfc-sim: %.*s: a second scenario file (%.*s is the first); allowed: one",
              CLI_ECHO, a, CLI_ECHO, cli->path);
    else
      CLI_ERR("lfc-sim: %.*s: unknown option; allowed: %s", CLI_ECHO, a, CLI_OPTIONS);
  }
  if (cli->path == NULL)
    CLI_ERR("lfc-sim: no scenario file; usage: lfc-sim SCENARIO.ini [OPTION]... or "
            "lfc-sim headroom|credits ... (lfc-sim --help)");
  if (cli->pcap == NULL && (cli->pcap_links != NULL || cli->pcap_max_mb > 0))
    CLI_ERR("lfc-sim: %s: only with --pcap DIR; allowed: --pcap DIR [--pcap-links LIST] "
            "[--pcap-max-mb N]", cli->pcap_links != NULL ? "--pcap-links" : "--pcap-max-mb");
  if (cli->plot_window > 0 && cli->plot == NULL)
    CLI_ERR("lfc-sim: --plot-window: only with --plot DIR; allowed: --plot DIR [--plot-window N]");
  if (cli->pcap != NULL && cli->pcap[0] == '\0')
    CLI_ERR("lfc-sim: --pcap '': an empty directory name; allowed: a directory");
  cli->action = CLI_RUN;
  return 0;
}
