/*
 * main.c - lfc-sim: run a scenario (docs/sim.md), or the calculators (lfc-sim headroom|credits).
 *
 * Exit status: 0 ran, 2 bad input (one line naming file, line, key, value and what is allowed),
 * 1 an internal failure (scoreboard error, out of memory).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lfc/version.h"

#include "cli.h"
#include "deadlock.h"
#include "engine.h"
#include "plot.h"
#include "results.h"
#include "scenario.h"

#if defined(__has_include)
#if __has_include("calc.h")
#include "calc.h"
#define HAVE_CALC 1
#endif
#endif

#define EXIT_BAD_INPUT 2

static void usage(FILE *o) {
  fprintf(o,
          "Usage: lfc-sim SCENARIO.ini [OPTION]...\n"
          "       lfc-sim headroom --speed-gbps S --cable-m L --mtu M [--response-quanta Q]\n"
          "                        [--cell B]\n"
          "       lfc-sim credits --speed-gbps S --cable-m L [--mtu M] [--latency-ns T]\n"
          "                       [--cut-through]\n"
          "Simulate a fabric of lfc switches (the C model co-simulated against the RTL), end nodes\n"
          "and links, described by SCENARIO.ini (docs/sim.md); or compute PFC headroom or IB\n"
          "credits (lfc-sim headroom --help, lfc-sim credits --help; docs/calculators.md).\n"
          "\n"
          "Options:\n"
          "  --json FILE          write the results as JSON (schema: docs/sim-json.md)\n"
          "  --csv DIR            write time series as CSV files into DIR\n"
          "  --plot DIR           draw PNG plots with gnuplot into DIR (implies the CSV files)\n"
          "  --seed N             the scenario's seed (same as --set sim.seed=N)\n"
          "  --set SEC.KEY=VALUE  override one scenario key; may be repeated (up to %d)\n"
          "  --progress           show progress on stderr (default when stderr is a terminal)\n"
          "  --no-progress        do not show progress\n"
          "  --threads N          run skip-ahead on N threads, 1..%u (default 1, or [sim] threads);\n"
          "                       the results are the same for any N (docs/sim.md \"Threads\")\n"
          "  --step-all           step every device every cycle instead of skipping ahead (for\n"
          "                       checking that skip-ahead is exact; much slower; one thread)\n"
          "  --digest             print a hash of every result and link word\n"
          "  -h, --help           this text\n"
          "  --version            the version of lfc\n"
          "\n"
          "Calculator options (see lfc-sim headroom --help, lfc-sim credits --help):\n"
          "  --speed-gbps S       link speed in Gb/s\n"
          "  --cable-m L          cable length in metres\n"
          "  --mtu M              largest frame in bytes\n"
          "  --response-quanta Q  peer response time in pause quanta (headroom)\n"
          "  --cell B             buffer cell size in bytes (headroom)\n"
          "  --latency-ns T       the switch's pipeline latency in ns (credits)\n"
          "  --cut-through        the switch forwards cut-through (credits)\n"
          "\n"
          "Environment: GLIBC_TUNABLES=glibc.malloc.hugetlb=1 puts the model's state on 2 MB\n"
          "pages: a large fabric (hundreds of switches) runs about 20 %% faster (docs/sim.md).\n"
          "\n"
          "Exit status: 0 ran, 1 internal failure, 2 bad input (one line naming the file, line,\n"
          "key, value and what is allowed).\n",
          CLI_MAX_SETS, SC_MAX_THREADS);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
  deadlock_t *dl;
  int progress;
  double t0, last;
} sample_ctx_t;

static void on_sample(sim_t *sim, uint64_t cycle, void *ctx) {
  sample_ctx_t *c = ctx;
  deadlock_sample(sim, cycle, c->dl);
  if (c->progress) {
    double t = now_s();
    if (t - c->last > 0.5) {
      c->last = t;
      fprintf(stderr, "\r  %5.1f%%  %.3f of %.3f us simulated, %.1f s", 100.0 * (double)cycle / (double)sim->end,
              (double)cycle * sim->cycle_ns / 1000.0, (double)sim->end * sim->cycle_ns / 1000.0,
              t - c->t0);
    }
  }
}

int main(int argc, char **argv) {
  char err[1024];
  cli_t cli;
  if (cli_parse(argc, argv, isatty(2), &cli, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    return EXIT_BAD_INPUT;
  }
  if (cli.action == CLI_CALC) {
#ifdef HAVE_CALC
    return lfc_calc_main(argc - 1, argv + 1); /* argv[0] = the calculator */
#else
    fprintf(stderr, "lfc-sim: %s: the calculators are not built in\n", argv[1]);
    return EXIT_BAD_INPUT;
#endif
  }
  if (cli.action == CLI_HELP) {
    usage(stdout);
    return 0;
  }
  if (cli.action == CLI_VERSION) {
    printf("lfc-sim (lfc) %s\n", lfc_version());
    return 0;
  }
  const char *path = cli.path, *json = cli.json, *csv = cli.csv, *plot = cli.plot;
  int progress = cli.progress, step_all = cli.step_all, digest = cli.digest;
  lfc_scenario_t sc;
  if (lfc_scenario_load(path, &sc, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    lfc_scenario_free(&sc);
    return EXIT_BAD_INPUT;
  }
  if (cli.seed_given) sc.seed = cli.seed; /* as --set sim.seed=N before the --set options */
  for (int i = 0; i < cli.nsets; i++)
    if (lfc_scenario_set(&sc, cli.sets[i], err, sizeof err) != 0) goto bad;
  if (cli.threads > 0) sc.threads = cli.threads;
  if (step_all) sc.step_all = 1;
  if (lfc_scenario_finish(&sc, err, sizeof err) != 0) goto bad;
  const char *dirs[2] = {csv, plot};
  for (int i = 0; i < 2; i++) {
    const char *dir = dirs[i];
    if (dir != NULL && mkdir(dir, 0777) != 0 && access(dir, W_OK) != 0) {
      fprintf(stderr, "lfc-sim: %s: cannot create the output directory\n", dir);
      lfc_scenario_free(&sc);
      return EXIT_BAD_INPUT;
    }
  }
  if (plot && !csv) csv = plot; /* the plots are drawn from the series */
  sim_t sim;
  if (sim_create(&sim, &sc, err, sizeof err) != 0) goto bad;
  deadlock_t dl;
  if (deadlock_init(&dl, &sim, csv, err, sizeof err) != 0) {
    deadlock_free(&dl);
    sim_destroy(&sim);
    goto bad;
  }
  double t0 = now_s();
  sample_ctx_t sctx = {&dl, progress, t0, t0};
  sim.want_digest = digest;
  sim.sample_fn = on_sample;
  sim.sample_ctx = &sctx;
  sim_run(&sim);
  double wall = now_s() - t0;
  if (progress) fprintf(stderr, "\r%60s\r", "");
  summary_t sum;
  results_summary(&sim, &dl, wall, &sum);
  results_print(stdout, &sim, &dl, &sum);
  int rc = 0;
  if (sim.link_mismatch) {
    fprintf(stdout, "  LINK MISMATCH %llu: the rebuilt words differ from lfc_link\n",
            (unsigned long long)sim.link_mismatch);
    rc = 1;
  }
  if (sim.errors) rc = 1;
  if (digest) printf("digest %016llx\n", (unsigned long long)sim_digest(&sim));
  if (json && results_json(json, &sim, &dl, &sum) != 0) {
    fprintf(stderr, "lfc-sim: --json %s: cannot write\n", json);
    rc = EXIT_BAD_INPUT;
  }
  if (plot && plot_all(plot, &sim, &dl) != 0) {
    fprintf(stderr, "lfc-sim: --plot %s: gnuplot or dot failed\n", plot);
    rc = 1;
  } else if (dl.found && (plot || csv)) {
    char dot[1100];
    snprintf(dot, sizeof dot, "%s/deadlock.dot", plot ? plot : csv);
    deadlock_dot(&dl, &sim, dot);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  fprintf(stdout, "  peak_rss_mb %.1f, device steps %llu, eq_port_cycles_per_s %.0f\n",
          (double)ru.ru_maxrss / 1024.0, (unsigned long long)sim.steps,
          wall > 0 ? (double)sim.nwire * (double)sim.end / wall : 0.0);
  deadlock_free(&dl);
  sim_destroy(&sim);
  lfc_scenario_free(&sc);
  return rc;
bad:
  fprintf(stderr, "%s\n", err);
  lfc_scenario_free(&sc);
  return EXIT_BAD_INPUT;
}
