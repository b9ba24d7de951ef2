/*
 * sampler.h - what is recorded at every sample cycle (every [sim] sample_us): the state of each
 * egress queue (switch, port, class; arrays indexed by observer.h SIM_QIDX) for the deadlock
 * detector (deadlock.h), its occupancy for the percentiles, and the --csv time series.
 *
 * Memory does not grow with simulated time (docs/sim.md "Memory"): occupancy is kept per queue
 * as a count of samples per queue length (qlen is an integer bounded by the switch's buffer),
 * grown only to the largest qlen seen, which gives the same nearest-rank percentiles as the
 * samples themselves; the series go to the CSV files as they are taken.
 */
#ifndef LFC_SIM_SAMPLER_H
#define LFC_SIM_SAMPLER_H

#include <stdint.h>

#include "engine.h"
#include "outfile.h"


typedef struct {
  sim_view_t view; /* the shape of the per-queue arrays: SIM_QIDX(&view, ...) */
  size_t nq;       /* SIM_NQ(&view) */
  int qlen_reg;
  /* per queue at the last sample */
  uint64_t *last_tx, *last_blk;
  uint8_t *blocked; /* holds data, started nothing, and was paused or credit-starved */
  /* occupancy: per queue, samples by qlen for qlen 1..nocc[q]-1 (occ[q][0] unused: the
     samples at 0 are nsamples minus the others); NULL until the queue is first non-empty */
  uint64_t **occ;
  uint32_t *nocc;
  uint64_t nsamples;
  /* time series (--csv), committed by sampler_close */
  int csv;
  outfile_t csv_q, csv_f;
  uint64_t *last_rx; /* per flow, for the throughput series */
  /* set when the sampler stopped the run: out of memory or a failed CSV write; err says why */
  int failed;
  char err[512];
} sampler_t;

/* Allocate for sim's fabric; open csv_dir/queues.csv and flows.csv (temporary names) if
 * csv_dir. 0, or -1 with err (sampler_free it then). */
int sampler_init(sampler_t *sp, sim_t *sim, const char *csv_dir, char *err, size_t errlen);

/* Take a sample at cycle: blocked[], occupancy, CSV rows. On a failure (memory, a CSV write)
 * sets failed and err and stops the run (sim_stop). */
void sampler_sample(sampler_t *sp, sim_t *sim, uint64_t cycle);

/* The nearest-rank percentile p in [0, 100] of queue q's occupancy samples, in blocks. */
uint64_t sampler_occ_pct(const sampler_t *sp, size_t q, double p);

/* Check every CSV write so far (before other outputs are put into place). 0, or -1 with err
 * (failed is then set). */
int sampler_sync(sampler_t *sp, char *err, size_t errlen);

/* Put the CSV files into place (discarded if the run failed). 0, or -1 with err. */
int sampler_close(sampler_t *sp, char *err, size_t errlen);

void sampler_free(sampler_t *sp);

#endif /* LFC_SIM_SAMPLER_H */
