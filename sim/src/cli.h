/*
 * cli.h - the command line of lfc-sim (docs/sim.md), parsed without printing or exiting: main.c
 * decides what to print, and the fuzz target (sim/fuzz/fuzz_cli.c) drives it with any argv.
 *
 * Every number on the command line is read by lfc_parse_int, the reader of the scenario keys
 * and of `--set` (decimal, 0x hex, 0b binary; nothing after the number), and range-checked; a
 * bad option gives one line naming it, what is wrong and what is allowed.
 */
#ifndef LFC_SIM_CLI_H
#define LFC_SIM_CLI_H

#include <stddef.h>
#include <stdint.h>

#define CLI_MAX_SETS 64 /* --set options */

typedef enum {
  CLI_RUN = 0, /* run the scenario `path` */
  CLI_HELP,    /* -h, --help: print the usage */
  CLI_VERSION, /* --version */
  CLI_CALC     /* `lfc-sim headroom|credits ...`: argv[1..] is lfc_calc_main's (calc.h) */
} cli_action_t;

typedef struct {
  cli_action_t action;
  const char *path;                /* the scenario file */
  const char *json, *csv, *plot;   /* NULL: not given */
  const char *sets[CLI_MAX_SETS];  /* "section.key=value", in order; checked when applied */
  int nsets;
  int seed_given;
  uint32_t seed;                   /* --seed: applied before the --set options */
  uint32_t threads;                /* --threads, 1..SC_MAX_THREADS; 0: not given */
  int progress, step_all, digest;
  int no_warnings;                 /* --no-warnings: the load warnings (warnings.h) not printed */
  uint64_t max_memory_mb;          /* --max-memory-mb, 1..EST_MAX_MEMORY_MB (estimate.h); 0: not given */
  int estimate_only;               /* --estimate: print the size estimate and stop */
  const char *pcap;                /* --pcap DIR: the links as pcap files (pcapout.h); NULL: no */
  const char *pcap_links;          /* --pcap-links LIST; NULL: every working cable */
  uint64_t pcap_max_mb;            /* --pcap-max-mb, 1..PCAP_MAX_MAX_MB; 0: not given */
  uint32_t flows_shown;            /* --flows N: rows of the flow table; 0 = every flow */
  int flows_sort;                  /* --sort COLUMN: a cli_sort_t */
  uint32_t plot_window;            /* --plot-window N: throughput.png's rates averaged over N
                                      samples; 0: not given (one sample) */
} cli_t;

/*
 * Parses argv (argv[0] the program) into *cli; the strings stay argv's. progress_default is the
 * progress display without --progress/--no-progress (main: whether stderr is a terminal).
 * Returns 0, or -1 with one line in err ("lfc-sim: --threads 0: ..."). The first of -h/--help,
 * --version wins over everything after it, as the options are read in order.
 */
/* The flow table's order on stdout (--sort): by id, or the largest first. */
typedef enum { CLI_SORT_ID, CLI_SORT_BYTES, CLI_SORT_GBPS, CLI_SORT_FCT, CLI_SORT_P99 } cli_sort_t;
#define CLI_SORT_NAMES "id, bytes, gbps, fct, p99"
#define CLI_DEFAULT_FLOWS 16u /* rows of the flow table without --flows */
#define CLI_MAX_PLOT_WINDOW 1000000 /* --plot-window: samples per averaging window */

int cli_parse(int argc, char **argv, int progress_default, cli_t *cli, char *err, size_t errlen);

#endif /* LFC_SIM_CLI_H */
