/*
 * plot.h - --plot DIR: PNGs drawn by gnuplot from the --csv series, and the deadlock graph by
 * Graphviz dot (both Debian packages).
 */
#ifndef LFC_SIM_PLOT_H
#define LFC_SIM_PLOT_H

#include <stddef.h>

#include "deadlock.h"
#include "engine.h"

/*
 * Write DIR/plots.gp and run gnuplot on it (its messages in DIR/gnuplot.log), reading the
 * series in csv_dir (complete on disk): DIR/occupancy.png, throughput.png, pause_heatmap.png;
 * after a deadlock also DIR/deadlock.dot and deadlock.png by dot. throughput.png's rates are
 * averaged over windows of `window` samples ([sim] sample_us each; 0 or 1: every sample) of the
 * `samples` the series holds. No shell is run. 0, or -1 with a one-line err naming the file or
 * the program that failed.
 */
int plot_all(const char *dir, const char *csv_dir, const sim_t *sim, const deadlock_t *dl,
             uint32_t window, uint64_t samples, char *err, size_t errlen);

#endif /* LFC_SIM_PLOT_H */
