/*
 * plot.h - --plot DIR: PNGs drawn by gnuplot from the --csv series, and the deadlock graph by
 * Graphviz dot (both Debian packages).
 */
#ifndef LFC_SIM_PLOT_H
#define LFC_SIM_PLOT_H

#include "deadlock.h"
#include "engine.h"

int plot_all(const char *dir, const sim_t *sim, const deadlock_t *dl);

#endif /* LFC_SIM_PLOT_H */
