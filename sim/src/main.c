/*
 * main.c - lfc-sim: run a scenario (docs/sim.md), or the calculators (lfc-sim headroom|credits).
 *
 * Exit status: 0 ran, 1 a finding (scoreboard error, link mismatch), 2 bad input (one line naming
 * file, line, key, value and what is allowed) or a resource refused or short: a fabric above the
 * memory limit, out of memory, an output file that cannot be written (one line naming it).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
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
#include "outfile.h"
#include "engine.h"
#include "estimate.h"
#include "pcapout.h"
#include "plot.h"
#include "results.h"
#include "sampler.h"
#include "scenario.h"
#include "topology.h"
#include "warnings.h"

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
          "  --plot-window N      throughput.png: rates as means over windows of N samples\n"
          "  --seed N             the scenario's seed (same as --set sim.seed=N)\n"
          "  --set SEC.KEY=VALUE  override one scenario key; may be repeated (up to %d)\n"
          "  --progress           show progress on stderr (default when stderr is a terminal):\n"
          "                       the set-up, then the share of simulated time done\n"
          "  --no-progress        do not show progress\n"
          "  --no-warnings        do not print the warnings at load (buffers below what the\n"
          "                       calculators say their cables need; docs/sim.md \"Warnings\")\n"
          "  --threads N          run skip-ahead on N threads, 1..%u (default 1, or [sim] threads);\n"
          "                       the results are the same for any N (docs/sim.md \"Threads\")\n"
          "  --step-all           step every device every cycle instead of skipping ahead (for\n"
          "                       checking that skip-ahead is exact; much slower; one thread)\n"
          "  --digest             print a hash of every result and link word\n"
          "  --flows N            rows of the flow table on stdout (default %u; 0 = every flow)\n"
          "  --sort COLUMN        the flow table's order: id (default), or the largest first by\n"
          "                       bytes, gbps, fct (completion time) or p99 (latency)\n"
          "  --max-memory-mb N    refuse a run whose memory estimate is above N MiB (default:\n"
          "                       three quarters of the physical memory; docs/sim.md \"Memory\")\n"
          "  --estimate           print the memory and time estimate and exit\n"
          "  --pcap DIR           write the words of the links as pcap files into DIR, one per\n"
          "                       cable with both directions: DIR/A.PORT-B.PORT.pcap (Ethernet\n"
          "                       in pfc mode, ERF IB records in ib; docs/sim.md \"Captures\")\n"
          "  --pcap-links LIST    only these cables: node names (their cables) and patterns over\n"
          "                       the cables' names, comma-separated (sw0, 'sw0.*-h*')\n"
          "  --pcap-max-mb N      refuse a run whose pcap files could exceed N MiB (default %u)\n"
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
          "Exit status: 0 ran, 1 a finding (scoreboard error, link mismatch), 2 bad input (one\n"
          "line naming the file, line, key, value and what is allowed) or a resource refused or\n"
          "short (memory above --max-memory-mb or not available, an output file not written).\n",
          CLI_MAX_SETS, SC_MAX_THREADS, CLI_DEFAULT_FLOWS, PCAP_DEFAULT_MAX_MB);
}

static void print_warning(void *ctx, const char *line) {
  (void)ctx;
  fprintf(stderr, "%s\n", line);
}

/* The warnings at load (warnings.h) over the scenario's topology, built for them alone: the
   fabric is built later (or not at all with --estimate), and a topology that cannot be built is
   reported there. */
static void load_warnings(const lfc_scenario_t *sc) {
  topo_t t;
  char err[256];
  if (topo_build(sc, &t, err, sizeof err) != 0) return;
  sim_warnings(sc, &t, print_warning, NULL);
  topo_free(&t);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
  sampler_t *sp;
  deadlock_t *dl;
  pcapout_t *po;       /* --pcap, or NULL */
  int pcap_failed;     /* a pcap write failed: the run stops (like a failed series) */
  char pcap_err[1024];
  int progress;
  double t0, last;
} sample_ctx_t;

static void on_sample(sim_t *sim, uint64_t cycle, void *ctx) {
  sample_ctx_t *c = ctx;
  sampler_sample(c->sp, sim, cycle);
  if (!c->sp->failed) deadlock_check(c->dl, cycle, c->sp->blocked);
  if (c->po != NULL && !c->pcap_failed &&
      pcapout_flush(c->po, cycle, c->pcap_err, sizeof c->pcap_err) != 0) {
    c->pcap_failed = 1;
    sim_stop(sim);
  }
  if (c->progress) {
    double t = now_s();
    if (t - c->last > 0.5) {
      c->last = t;
      fprintf(stderr, "\r  %5.1f%%  %.3f of %.3f us simulated, %.1f s", 100.0 * (double)cycle / (double)sim_end(sim),
              (double)cycle * sim_cycle_ns(sim) / 1000.0,
              (double)sim_end(sim) * sim_cycle_ns(sim) / 1000.0,
              t - c->t0);
    }
  }
}

/* Estimates above these are printed before the run (stderr). */
#define EST_SHOW_BYTES (1ull << 30)
#define EST_SHOW_SECONDS 10.0
#define MIB (1024.0 * 1024.0)

/*
 * The memory estimate (estimate.h) against the limit: --max-memory-mb N, or three quarters of
 * the physical memory. Refused above it: one line with both, nonzero. Printed on stdout with
 * --estimate, on stderr when large or long.
 */
static int check_size(const lfc_scenario_t *sc, uint64_t max_mem_mb, int show, int progress,
                      const pcap_plan_t *pcap) {
  uint64_t limit = sim_default_memory_limit_mb();
  const char *whence = "three quarters of the physical memory; --max-memory-mb N";
  if (max_mem_mb > 0) { /* range-checked by cli_parse */
    limit = max_mem_mb;
    whence = "--max-memory-mb";
  }
  if (progress) fprintf(stderr, "  estimating ...");
  sim_estimate_t e;
  char err[1024];
  int rc = sim_estimate(sc, &e, err, sizeof err);
  if (progress) fprintf(stderr, "\r%60s\r", "");
  if (rc != 0) {
    fprintf(stderr, "%s\n", err);
    return -1;
  }
  if (pcap != NULL) /* the --pcap writers and the words kept between samples */
    e.bytes = e.bytes + pcap->mem_bytes < e.bytes ? UINT64_MAX : e.bytes + pcap->mem_bytes;
  char what[256];
  snprintf(what, sizeof what, "%llu switches, %llu hosts, %llu flows: about %.0f MiB of memory",
           (unsigned long long)e.switches, (unsigned long long)e.hosts,
           (unsigned long long)e.flows, (double)e.bytes / MIB);
  if (limit > 0 && (double)e.bytes / MIB > (double)limit) {
    fprintf(stderr, "lfc-sim: %s: %s, above the limit of %llu MiB (%s)\n", sc->file, what,
            (unsigned long long)limit, whence);
    return -1;
  }
  if (show || e.bytes > EST_SHOW_BYTES || e.setup_seconds + e.seconds > EST_SHOW_SECONDS)
    fprintf(show ? stdout : stderr,
            "%s%s: %s (limit %llu MiB), roughly %.0f s to set up and %.0f s to run\n",
            show ? "" : "lfc-sim: ", sc->file, what, (unsigned long long)limit, e.setup_seconds,
            e.seconds);
  if (show && pcap != NULL)
    printf("%s: --pcap: %u cables, at most %.0f MiB of pcap files (limit %llu MiB)\n", sc->file,
           pcap->n, (double)pcap->max_bytes / MIB, (unsigned long long)pcap->limit_mb);
  return 0;
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
  pcap_plan_t plan; /* --pcap: the cables chosen before the fabric is built */
  memset(&plan, 0, sizeof plan);
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
  if (!cli.no_warnings) load_warnings(&sc);
  if (cli.pcap != NULL &&
      pcap_plan(&sc, cli.pcap_links, cli.pcap_max_mb, &plan, err, sizeof err) != 0)
    goto bad;
  if (check_size(&sc, cli.max_memory_mb, cli.estimate_only, progress,
                 cli.pcap != NULL ? &plan : NULL) != 0) {
    pcap_plan_free(&plan);
    lfc_scenario_free(&sc);
    return EXIT_BAD_INPUT;
  }
  if (cli.estimate_only) {
    pcap_plan_free(&plan);
    lfc_scenario_free(&sc);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : EXIT_BAD_INPUT;
  }
  const char *dirs[3] = {csv, plot, cli.pcap};
  for (int i = 0; i < 3; i++) {
    const char *dir = dirs[i];
    if (dir != NULL && mkdir(dir, 0777) != 0 && access(dir, W_OK) != 0) {
      fprintf(stderr, "lfc-sim: %s: cannot create the output directory\n", dir);
      pcap_plan_free(&plan);
      lfc_scenario_free(&sc);
      return EXIT_BAD_INPUT;
    }
  }
  if (plot && !csv) csv = plot; /* the plots are drawn from the series */
  if (progress) fprintf(stderr, "  building the fabric ...");
  sim_t *sim = sim_create(&sc, err, sizeof err);
  if (progress) fprintf(stderr, "\r%60s\r", "");
  if (sim == NULL) goto bad;
  sampler_t sp;
  deadlock_t dl;
  memset(&dl, 0, sizeof dl); /* deadlock_free below, also when sampler_init fails */
  pcapout_t *po = NULL;
  const char *what = "";
  sim_view_t fabric;
  sim_view(sim, &fabric);
  int ready = sampler_init(&sp, sim, csv, err, sizeof err) == 0 &&
              deadlock_init(&dl, &sc, &fabric, err, sizeof err) == 0;
  if (ready && cli.pcap != NULL) { /* the files are made now: a bad directory fails at once */
    po = pcapout_open(&plan, cli.pcap, sim, err, sizeof err);
    ready = po != NULL;
    what = "--pcap: ";
  }
  if (!ready) {
    fprintf(stderr, "lfc-sim: %s%s\n", what, err);
    sampler_free(&sp);
    deadlock_free(&dl);
    sim_destroy(sim);
    pcap_plan_free(&plan);
    lfc_scenario_free(&sc);
    return EXIT_BAD_INPUT;
  }
  pcap_plan_free(&plan);
  double t0 = now_s();
  static sample_ctx_t sctx; /* its message buffer is large */
  sctx = (sample_ctx_t){.sp = &sp, .dl = &dl, .po = po, .progress = progress, .t0 = t0,
                        .last = t0};
  if (digest) sim_want_digest(sim);
  sim_observe(sim, on_sample, &sctx);
  sim_run(sim);
  double wall = now_s() - t0;
  if (progress) fprintf(stderr, "\r%60s\r", "");
  int rc = 0;
  if (sim_oom(sim) || sp.failed || sctx.pcap_failed) {
    /* the run ended early and its results are incomplete: no output files, nothing printed
       as if it were a result */
    fprintf(stderr, "lfc-sim: %s: run stopped: %s%s\n", sc.file,
            sim_oom(sim) || sp.failed ? "" : "--pcap: ",
            sim_oom(sim) ? sim_error(sim) : sp.failed ? sp.err : sctx.pcap_err);
    rc = EXIT_BAD_INPUT;
    goto out;
  }
  summary_t sum;
  results_summary(sim, &dl, wall, &sum);
  const results_view_t view = {cli.flows_shown, cli.flows_sort};
  results_print(stdout, sim, &dl, &sum, &view);
  if (sim_link_mismatch(sim)) {
    fprintf(stdout, "  LINK MISMATCH %llu: the rebuilt words differ from lfc_link\n",
            (unsigned long long)sim_link_mismatch(sim));
    rc = 1;
  }
  if (sim_errors(sim)) rc = 1;
  if (digest) printf("digest %016llx\n", (unsigned long long)sim_digest(sim));
  /* Output files, each whole or not at all (outfile.h); the first failure is reported and
     the rest are not written. The series are checked first: they were written during the run. */
  if (sampler_sync(&sp, err, sizeof err) != 0) {
    fprintf(stderr, "lfc-sim: --%s: %s\n", csv == plot ? "plot" : "csv", err);
    rc = EXIT_BAD_INPUT;
    goto out;
  }
  if (json && results_json(json, sim, &dl, &sp, &sum, err, sizeof err) != 0) {
    fprintf(stderr, "lfc-sim: --json: %s\n", err);
    rc = EXIT_BAD_INPUT;
    goto out;
  }
  if (sampler_close(&sp, err, sizeof err) != 0) {
    fprintf(stderr, "lfc-sim: --%s: %s\n", csv == plot ? "plot" : "csv", err);
    rc = EXIT_BAD_INPUT;
    goto out;
  }
  if (plot && plot_all(plot, csv, sim, &dl, cli.plot_window, sp.nsamples, err,
                        sizeof err) != 0) {
    fprintf(stderr, "lfc-sim: --plot: %s\n", err);
    rc = EXIT_BAD_INPUT;
    goto out;
  }
  if (!plot && csv && dl.found) {
    char *dot = path_join(csv, "deadlock.dot");
    int bad = dot == NULL || deadlock_dot(&dl, dot, err, sizeof err) != 0;
    if (dot == NULL) snprintf(err, sizeof err, "%s: out of memory", csv);
    free(dot);
    if (bad) {
      fprintf(stderr, "lfc-sim: --csv: %s\n", err);
      rc = EXIT_BAD_INPUT;
      goto out;
    }
  }
  if (po != NULL) {
    pcapout_stats_t ps;
    pcapout_t *p = po;
    po = NULL;
    if (pcapout_close(p, &ps, err, sizeof err) != 0) {
      fprintf(stderr, "lfc-sim: --pcap: %s\n", err);
      rc = EXIT_BAD_INPUT;
      goto out;
    }
    fprintf(stdout, "  pcap: %llu files in %s, %llu frames, %.1f MiB",
            (unsigned long long)ps.files, cli.pcap, (unsigned long long)ps.records,
            (double)ps.bytes / MIB);
    if (ps.lengthened > 0)
      fprintf(stdout, "; %llu one-block packets written as two-block RoCEv2 frames",
              (unsigned long long)ps.lengthened);
    if (ps.unwritable > 0)
      fprintf(stdout, "; %llu words no frame carries, not written",
              (unsigned long long)ps.unwritable);
    fprintf(stdout, "\n");
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  fprintf(stdout, "  peak_rss_mb %.1f, device steps %llu, eq_port_cycles_per_s %.0f\n",
          (double)ru.ru_maxrss / 1024.0, (unsigned long long)sim_steps(sim),
          wall > 0 ? (double)sim_wires(sim) * (double)sim_end(sim) / wall : 0.0);
  uint64_t cycles, alone;
  uint32_t threads = sim_threads(sim, &cycles, &alone);
  if (threads > 1u && cycles > 0)
    fprintf(stdout, "  threads %u: %llu of %llu cycles run by one thread alone (%.0f %%): where "
            "sharing them did not pay, or to measure if it would (docs/sim.md \"Threads\")\n",
            threads, (unsigned long long)alone, (unsigned long long)cycles,
            100.0 * (double)alone / (double)cycles);
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "lfc-sim: standard output: write failed: %s\n", strerror(errno));
    rc = EXIT_BAD_INPUT;
  }
out:
  pcapout_abort(po);
  sampler_free(&sp);
  deadlock_free(&dl);
  sim_destroy(sim);
  lfc_scenario_free(&sc);
  return rc;
bad:
  fprintf(stderr, "%s\n", err);
  pcap_plan_free(&plan);
  lfc_scenario_free(&sc);
  return EXIT_BAD_INPUT;
}
