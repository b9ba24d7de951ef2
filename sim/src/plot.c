/*
 * plot.c - gnuplot scripts for occupancy over time, throughput per flow and the pause heat map,
 * written next to the PNGs and run; dot for the deadlock cycle.
 *
 * No shell is involved: gnuplot and dot are started with argument vectors (posix_spawnp) and
 * waited for. The directories never appear in the gnuplot script: it reads them as the string
 * variables ARG1 (the CSV directory) and ARG2 (the plot directory) of `gnuplot -c`, which are
 * data, not commands, whatever characters they hold (quotes, newlines). Both are passed as
 * path_literal()s, so that they cannot start with "<" or "|" (gnuplot's pipes to a shell) or
 * "-" (an option of dot). Each PNG is drawn under a temporary name and renamed when its
 * program succeeded.
 */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outfile.h"

extern char **environ;

static const char *const PLOT_PNGS[] = {"occupancy.png", "throughput.png", "pause_heatmap.png"};
#define PLOT_NPNGS (sizeof PLOT_PNGS / sizeof PLOT_PNGS[0])
/* Flows drawn in throughput.png (the legend of more would hide the plot). */
#define PLOT_MAX_FLOWS 16u /* the title below says 16 */
#define NS_PER_US 1000.0

/*
 * Run argv[0] (found on PATH) with argv, stdin from /dev/null, stdout and stderr appended to
 * log (or inherited if NULL); wait for it. 0 if it exited with status 0, else -1 with err.
 */
static int run(char *const argv[], const char *log, char *err, size_t errlen) {
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0) {
    snprintf(err, errlen, "%s: cannot start: out of memory", argv[0]);
    return -1;
  }
  int rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (rc == 0 && log)
    rc = posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (rc == 0 && log) rc = posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  if (rc == 0) rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    snprintf(err, errlen, "%s: cannot start: %s", argv[0], strerror(rc));
    return -1;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      snprintf(err, errlen, "%s: cannot wait for it: %s", argv[0], strerror(errno));
      return -1;
    }
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return 0;
  if (WIFEXITED(st))
    snprintf(err, errlen, "%s failed (exit status %d)%s%s", argv[0], WEXITSTATUS(st),
             log ? "; see " : "", log ? log : "");
  else
    snprintf(err, errlen, "%s failed (signal %d)", argv[0], WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  return -1;
}

/* The switches' names as gnuplot tics at their first rows: ("sw0" 0, "sw1" 40, ...), each
 * switch's rows from base = the rows (ports x classes) of the switches before it. */
static void write_tics(FILE *g, const sim_t *sim, uint32_t per_port) {
  uint32_t base = 0;
  fprintf(g, "(");
  for (uint32_t d = 0; d < sim_topo(sim)->nsw; d++) {
    char n[64];
    fprintf(g, "%s\"%s\" %u", d ? ", " : "", topo_name(sim_topo(sim), d, n, sizeof n),
            per_port ? base : d);
    base += sim_topo(sim)->nports[d] * per_port;
  }
  fprintf(g, ")");
}

/* The gnuplot script. Columns by column(N), not $N: nothing in it is substituted. A queue's row
 * in occupancy.png is base[switch] + port x classes + class, under its switch's name. */
/* The flows drawn in throughput.png: every flow, or the PLOT_MAX_FLOWS that delivered the most
 * (ties by id), as gnuplot words "3 0 7". */
static void write_top_flows(FILE *g, const sim_t *sim) {
  const uint32_t n = sim_flows(sim)->n, show = n < PLOT_MAX_FLOWS ? n : PLOT_MAX_FLOWS;
  uint32_t top[PLOT_MAX_FLOWS];
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; i++) { /* insertion into the short list, largest first */
    const uint64_t b = sim_flows(sim)->f[i].rx_bytes;
    uint32_t j = k < show ? k++ : show;
    if (j == show && (show == 0 || b <= sim_flows(sim)->f[top[show - 1u]].rx_bytes)) continue;
    if (j == show) j = show - 1u;
    while (j > 0 && sim_flows(sim)->f[top[j - 1u]].rx_bytes < b) {
      top[j] = top[j - 1u];
      j--;
    }
    top[j] = i;
  }
  fprintf(g, "flows = \"");
  for (uint32_t i = 0; i < k; i++) fprintf(g, "%s%u", i ? " " : "", top[i]);
  fprintf(g, "\"\n");
}

static void write_script(FILE *g, const sim_t *sim, uint32_t window, uint64_t samples) {
  uint32_t classes = 1;
  for (uint32_t r = 0; r < sim_scenario(sim)->nroles; r++)
    if (sim_scenario(sim)->sw[r].classes > classes) classes = sim_scenario(sim)->sw[r].classes;
  fprintf(g,
          "# lfc-sim --plot: run as  gnuplot -c plots.gp CSV_DIR PLOT_DIR\n"
          "# (the directories are arguments, read as strings; nothing of them is a command)\n"
          "csv = ARG1\nout = ARG2\nclasses = %u\narray base[%u] = [",
          classes, sim_topo(sim)->nsw ? sim_topo(sim)->nsw : 1u);
  for (uint32_t d = 0, b = 0; d < sim_topo(sim)->nsw; d++) {
    fprintf(g, "%s%u", d ? ", " : "", b);
    b += sim_topo(sim)->nports[d] * classes;
  }
  uint32_t rows = 0;
  for (uint32_t d = 0; d < sim_topo(sim)->nsw; d++) rows += sim_topo(sim)->nports[d] * classes;
  fprintf(g, "%s]\n", sim_topo(sim)->nsw ? "" : "0");
  fprintf(g,
          "set datafile separator ','\nset terminal pngcairo size 1000,600\nunset key\n"
          "set output out.'/occupancy.png.tmp'\n"
          "set title 'egress queue occupancy: a row per queue (port x classes + class) under "
          "its switch'\n"
          "set xlabel 'time (us)'\nset ylabel 'switch, then port and class'\nset ytics ");
  write_tics(g, sim, classes);
  fprintf(g,
          "\nset yrange [-0.5:%u.5]\nset grid ytics\nset cblabel 'queue length (64-byte blocks)'\n"
          "plot csv.'/queues.csv' every ::1 "
          "using 1:(base[int(column(2))+1]+column(3)*classes+column(4)):5 with points pt 5 "
          "ps 0.6 palette\n",
          rows ? rows - 1u : 0u);
  fprintf(g,
          /* points, not lines: the rows of the flows interleave, and a line would break at
             every other flow's row */
          "unset grid\nset ytics auto\nset yrange [*:*]\n"
          "set output out.'/throughput.png.tmp'\n");
  write_top_flows(g, sim);
  const uint32_t nflows = sim_flows(sim)->n;
  const char *which = nflows <= PLOT_MAX_FLOWS ? "every flow" : "the 16 flows that delivered most";
  if (window <= 1u || samples == 0u)
    fprintf(g,
            "set title 'throughput per sample: %s, and the total'\n"
            "set ylabel 'Gb/s'\nset key outside\n"
            /* smooth frequency sums the flows' Gb/s of each sample time: the total. A flow's
               rows are read by position (every sample has the F flows in id order), so gnuplot
               keeps only that flow's points: a 1/0 filter keeps every row of the file as an
               undefined point, for each flow drawn (gigabytes for a run of 2000 flows). */
            "plot csv.'/flows.csv' every ::1 using 1:4 smooth frequency with lines lw 2 lc "
            "'black' title 'total', "
            "for [w in flows] csv.'/flows.csv' every %" PRIu32 "::(1 + int(w)) using 1:4 "
            "with points pt 7 ps 0.5 title sprintf('flow %%s', w)\n",
            which, nflows);
  else
    /* --plot-window N: a sample i (1, 2, ... at t = i x S) falls in window floor((i - 1) / N),
       drawn at the window's end; smooth unique takes the mean of a flow's rates there (every
       sample has a row for every flow and the same length S, so that is the window's bytes over
       its time). The total: every row of the window divided by its number of samples, summed
       (smooth frequency), the last window having N mod W of the N samples when that is not 0;
       each point before smoothing is at most one flow's rate, so the y autoscale fits. */
    fprintf(g,
            "W = %" PRIu32 "\nS = %.17g\nN = %" PRIu64 "\n"
            "win(t) = (floor((t / S - 0.5) / W) + 1) * W * S\n"
            "cnt(x) = (k = int(x / (W * S) + 0.5), k * W <= N ? W : N - (k - 1) * W)\n"
            "set title sprintf('throughput, mean over windows of %%d samples (%%g us): %s, and "
            "the total', W, W * S)\n"
            "set ylabel 'Gb/s'\nset key outside\n"
            "plot csv.'/flows.csv' every ::1 using (win(column(1))):(column(4) / cnt(win(column(1)))) "
            "smooth frequency with lines lw 2 lc 'black' title 'total', "
            /* a flow's rows by position (every sample has the F flows in id order), not by a
               1/0 filter: an undefined point splits the data, and smooth unique each piece */
            "for [w in flows] csv.'/flows.csv' every %" PRIu32 "::(1 + int(w)) "
            "using (win(column(1))):4 smooth unique "
            "with linespoints pt 7 ps 0.5 title sprintf('flow %%s', w)\n",
            window, (double)sim_scenario(sim)->sample_cycles * sim_cycle_ns(sim) / NS_PER_US,
            samples, which, nflows);
  fprintf(g,
          "unset key\n"
          "set output out.'/pause_heatmap.png.tmp'\nset title 'pause propagation: paused "
          "queues per switch over time'\nset ylabel 'switch'\nset ytics ");
  write_tics(g, sim, 0);
  /* queues.csv: paused = paused or credit-starved during the sample; blocked = it sent nothing
     in the sample for that reason (docs/sim.md "Files") */
  fprintf(g,
          "\nset yrange [-0.5:%u.5]\nset cbrange [0:2]\n"
          "set cbtics ('sending' 0, 'held' 1, 'stopped' 2)\n"
          "set cblabel 'held back by pause or credit (part of a sample, or all of it)'\n"
          "unset key\n"
          "plot csv.'/queues.csv' every ::1 using 1:2:(column(6)*(1+column(7))) with points "
          "pt 5 ps 1 palette\nunset output\n",
          sim_topo(sim)->nsw ? sim_topo(sim)->nsw - 1u : 0u);
}

/* Rename dir/NAME.tmp to dir/NAME, or remove it (commit = 0). 0 or -1 with err. */
static int settle(const char *dir, const char *name, int commit, char *err, size_t errlen) {
  char *to = path_join(dir, name), *tmp = to ? malloc(strlen(to) + 5u) : NULL;
  int rc = 0;
  if (tmp == NULL) {
    snprintf(err, errlen, "%s: out of memory", dir);
    rc = -1;
  } else {
    snprintf(tmp, strlen(to) + 5u, "%s.tmp", to);
    if (!commit) unlink(tmp);
    else if (rename(tmp, to) != 0) {
      snprintf(err, errlen, "%s: not written: %s", to, strerror(errno));
      unlink(tmp);
      rc = -1;
    }
  }
  free(to);
  free(tmp);
  return rc;
}

static int gnuplot(const char *dir, const char *csv_dir, const sim_t *sim, uint32_t window,
                   uint64_t samples, char *err, size_t errlen) {
  char *gp = path_join(dir, "plots.gp"), *log = path_join(dir, "gnuplot.log");
  char *a1 = path_literal(csv_dir), *a2 = path_literal(dir), *a0 = path_literal(gp ? gp : "");
  int rc = -1;
  if (!gp || !log || !a0 || !a1 || !a2) {
    snprintf(err, errlen, "%s: out of memory", dir);
    goto out;
  }
  outfile_t o;
  if (outfile_open(&o, gp, err, errlen) != 0) goto out;
  write_script(o.f, sim, window, samples);
  if (outfile_close(&o, err, errlen) != 0) goto out;
  char *argv[] = {"gnuplot", "-c", a0, a1, a2, NULL};
  rc = run(argv, log, err, errlen);
  for (size_t i = 0; i < PLOT_NPNGS; i++)
    if (settle(dir, PLOT_PNGS[i], rc == 0, err, errlen) != 0) rc = -1;
out:
  free(gp);
  free(log);
  free(a0);
  free(a1);
  free(a2);
  return rc;
}

static int graphviz(const char *dir, const deadlock_t *dl, char *err, size_t errlen) {
  char *dot = path_join(dir, "deadlock.dot"), *png = path_join(dir, "deadlock.png.tmp");
  char *a0 = path_literal(dot ? dot : ""), *a1 = path_literal(png ? png : "");
  int rc = -1;
  if (!dot || !png || !a0 || !a1) {
    snprintf(err, errlen, "%s: out of memory", dir);
  } else if (deadlock_dot(dl, dot, err, errlen) == 0) {
    char *argv[] = {"dot", "-Tpng", a0, "-o", a1, NULL};
    rc = run(argv, NULL, err, errlen);
    if (settle(dir, "deadlock.png", rc == 0, err, errlen) != 0) rc = -1;
  }
  free(dot);
  free(png);
  free(a0);
  free(a1);
  return rc;
}

int plot_all(const char *dir, const char *csv_dir, const sim_t *sim, const deadlock_t *dl,
             uint32_t window, uint64_t samples, char *err, size_t errlen) {
  if (gnuplot(dir, csv_dir, sim, window, samples, err, errlen) != 0) return -1;
  return dl->found ? graphviz(dir, dl, err, errlen) : 0;
}
