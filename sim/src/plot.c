/*
 * plot.c - gnuplot scripts for occupancy over time, throughput per flow and the pause heat map,
 * written next to the CSV files and run; dot for the deadlock cycle.
 */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(const char *cmd) { return system(cmd) == 0 ? 0 : -1; }

int plot_all(const char *dir, const sim_t *sim, const deadlock_t *dl) {
  /* the series must be on disk before gnuplot reads them */
  if (dl->csv_q) fflush(dl->csv_q);
  if (dl->csv_f) fflush(dl->csv_f);
  char path[1200], cmd[2600];
  snprintf(path, sizeof path, "%s/plots.gp", dir);
  FILE *g = fopen(path, "w");
  if (!g) return -1;
  fprintf(g,
          "set datafile separator ','\nset terminal pngcairo size 1000,600\nunset key\n"
          "set output '%s/occupancy.png'\n"
          "set title 'egress queue occupancy: one row per non-empty queue, colour = blocks'\n"
          "set xlabel 'time (us)'\nset ylabel 'queue: switch*1000 + port*16 + class'\n"
          "set cblabel 'blocks'\n"
          "plot '%s/queues.csv' every ::1 using 1:($2*1000+$3*16+$4):5 with points pt 5 ps 0.6 "
          "palette\n"
          /* points, not lines: the rows of the flows interleave, and a line would break at
             every other flow's row */
          "set output '%s/throughput.png'\nset title 'throughput per flow (per sample)'\n"
          "set ylabel 'Gb/s'\nset key outside\n"
          "plot for [i=0:%u] '%s/flows.csv' every ::1 using 1:($2==i?$4:1/0) with points pt 7 "
          "ps 0.5 title sprintf('flow %%d', i)\nunset key\n"
          "set output '%s/pause_heatmap.png'\nset title 'pause propagation: paused queues per "
          "switch over time'\nset ylabel 'switch'\nunset key\n"
          "plot '%s/queues.csv' every ::1 using 1:2:($6*(1+$7)) with points pt 5 ps 1 palette\n",
          dir, dir, dir, sim->flows.n < 16 ? (sim->flows.n ? sim->flows.n - 1 : 0) : 15, dir, dir,
          dir);
  fclose(g);
  snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>'%s/gnuplot.log'", path, dir);
  if (run(cmd) != 0) return -1;
  if (dl->found) {
    snprintf(path, sizeof path, "%s/deadlock.dot", dir);
    if (deadlock_dot(dl, sim, path) != 0) return -1;
    snprintf(cmd, sizeof cmd, "dot -Tpng '%s' -o '%s/deadlock.png'", path, dir);
    if (run(cmd) != 0) return -1;
  }
  return 0;
}
