/*
 * sampler.c - per-sample queue state, occupancy counts and the CSV series (sampler.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "sampler.h"

#include <stdlib.h>
#include <string.h>

int sampler_init(sampler_t *sp, sim_t *sim, const char *csv_dir, char *err, size_t errlen) {
  memset(sp, 0, sizeof *sp);
  sim_view(sim, &sp->view);
  size_t n = SIM_NQ(&sp->view);
  sp->nq = n;
  sp->last_tx = calloc(n, sizeof *sp->last_tx);
  sp->last_blk = calloc(n, sizeof *sp->last_blk);
  sp->blocked = calloc(n, 1);
  sp->occ = calloc(n, sizeof *sp->occ);
  sp->nocc = calloc(n, sizeof *sp->nocc);
  sp->last_rx = calloc(sim_flows(sim)->n + 1u, sizeof *sp->last_rx);
  sp->qlen_reg = lfc_reg_find("qlen");
  if (!sp->last_tx || !sp->last_blk || !sp->blocked || !sp->occ || !sp->nocc || !sp->last_rx) {
    snprintf(err, errlen, "sampler: out of memory (%zu queues, %u flows)", n, sim_flows(sim)->n);
    return -1;
  }
  if (sp->qlen_reg < 0) {
    snprintf(err, errlen, "sampler: the model has no register qlen");
    return -1;
  }
  if (csv_dir) {
    char *q = path_join(csv_dir, "queues.csv"), *f = path_join(csv_dir, "flows.csv");
    int rc = -1;
    if (!q || !f) snprintf(err, errlen, "--csv %s: out of memory", csv_dir);
    else if (outfile_open(&sp->csv_q, q, err, errlen) == 0 &&
             outfile_open(&sp->csv_f, f, err, errlen) == 0)
      rc = 0;
    free(q);
    free(f);
    if (rc != 0) return -1;
    sp->csv = 1;
    fprintf(sp->csv_q.f, "t_us,switch,port,class,qlen_blocks,paused,blocked\n");
    fprintf(sp->csv_f.f, "t_us,flow,rx_bytes,throughput_gbps\n");
  }
  return 0;
}

void sampler_free(sampler_t *sp) {
  if (sp->occ)
    for (size_t q = 0; q < sp->nq; q++) free(sp->occ[q]);
  free(sp->occ);
  free(sp->nocc);
  free(sp->last_tx);
  free(sp->last_blk);
  free(sp->blocked);
  free(sp->last_rx);
  outfile_discard(&sp->csv_q);
  outfile_discard(&sp->csv_f);
  memset(sp, 0, sizeof *sp);
}

/* The run cannot go on (sp->err says why): stop it. */
static void stop(sampler_t *sp, sim_t *sim) {
  sp->failed = 1;
  sim_stop(sim);
}

/* One more sample of queue q at qlen (> 0): the count array grows to qlen + 1. */
static int count_occ(sampler_t *sp, size_t q, uint64_t qlen) {
  if (qlen >= sp->nocc[q]) {
    if (qlen >= UINT32_MAX) return -1;
    uint32_t m = (uint32_t)qlen + 1u;
    uint64_t *no = realloc(sp->occ[q], (size_t)m * sizeof *no);
    if (no == NULL) return -1;
    memset(no + sp->nocc[q], 0, (size_t)(m - sp->nocc[q]) * sizeof *no);
    sp->occ[q] = no;
    sp->nocc[q] = m;
  }
  sp->occ[q][qlen]++;
  return 0;
}

void sampler_sample(sampler_t *sp, sim_t *sim, uint64_t cycle) {
  if (sp->failed) return;
  const topo_t *t = sim_topo(sim);
  double t_us = (double)cycle * sim_cycle_ns(sim) / 1000.0;
  uint32_t classes = sim_scenario(sim)->sw[0].classes;
  for (uint32_t s = 0; s < t->nsw; s++) {
    const lfc_switch_t *sw = sim_switch(sim, s);
    for (uint32_t p = 0; p < t->nports[s]; p++) {
      lfc_port_stats_t st_buf;
      const lfc_port_stats_t *st = sim_port_stats(sim, s, p, &st_buf);
      for (uint32_t c = 0; c < classes; c++) {
        size_t q = SIM_QIDX(&sp->view, s, p, c);
        const lfc_class_stats_t *cs = &st->cls[c];
        uint64_t qlen = lfc_switch_reg(sw, (size_t)sp->qlen_reg, p, c);
        uint64_t blk = cs->paused_cycles + cs->credit_blocked_cycles;
        sp->blocked[q] = qlen > 0 && cs->tx_pkts == sp->last_tx[q] && blk > sp->last_blk[q];
        if (sp->csv && (qlen > 0 || blk > sp->last_blk[q]))
          fprintf(sp->csv_q.f, "%.4f,%u,%u,%u,%llu,%d,%d\n", t_us, s, p, c,
                  (unsigned long long)qlen, blk > sp->last_blk[q], sp->blocked[q]);
        sp->last_tx[q] = cs->tx_pkts;
        sp->last_blk[q] = blk;
        if (qlen > 0 && count_occ(sp, q, qlen) != 0) {
          snprintf(sp->err, sizeof sp->err,
                   "out of memory for the occupancy counts at cycle %llu (queue length %llu)",
                   (unsigned long long)cycle, (unsigned long long)qlen);
          stop(sp, sim);
          return;
        }
      }
    }
  }
  sp->nsamples++;
  if (sp->csv) {
    double dt_ns = (double)sim_scenario(sim)->sample_cycles * sim_cycle_ns(sim);
    for (uint32_t i = 0; i < sim_flows(sim)->n; i++) {
      const flow_t *f = &sim_flows(sim)->f[i];
      fprintf(sp->csv_f.f, "%.4f,%u,%llu,%.3f\n", t_us, i, (unsigned long long)f->rx_bytes,
              (double)(f->rx_bytes - sp->last_rx[i]) * 8.0 / dt_ns);
      sp->last_rx[i] = f->rx_bytes;
    }
    /* a full disk ends the run now, not after the rest of it */
    outfile_t *bad = outfile_failed(&sp->csv_q) ? &sp->csv_q
                         : outfile_failed(&sp->csv_f) ? &sp->csv_f : NULL;
    if (bad) {
      char why[sizeof sp->err - 32];
      outfile_sync(bad, why, sizeof why); /* the flush fails again, with errno */
      snprintf(sp->err, sizeof sp->err, "%s (sample at cycle %llu)", why,
               (unsigned long long)cycle);
      stop(sp, sim);
    }
  }
}

uint64_t sampler_occ_pct(const sampler_t *sp, size_t q, double p) {
  uint64_t n = sp->nsamples;
  if (n == 0 || sp->occ[q] == NULL) return 0;
  uint64_t rank = (uint64_t)(p / 100.0 * (double)n + 0.999999); /* nearest rank */
  if (rank < 1) rank = 1;
  if (rank > n) rank = n;
  uint64_t nonzero = 0;
  for (uint32_t v = 1; v < sp->nocc[q]; v++) nonzero += sp->occ[q][v];
  uint64_t seen = n - nonzero; /* the samples at qlen 0 come first */
  if (rank <= seen) return 0;
  for (uint32_t v = 1; v < sp->nocc[q]; v++) {
    seen += sp->occ[q][v];
    if (rank <= seen) return v;
  }
  return sp->nocc[q] - 1u; /* not reached: the counts sum to n */
}

int sampler_sync(sampler_t *sp, char *err, size_t errlen) {
  if (sp->failed) {
    snprintf(err, errlen, "%s", sp->err);
    return -1;
  }
  if (outfile_sync(&sp->csv_q, err, errlen) != 0 || outfile_sync(&sp->csv_f, err, errlen) != 0) {
    sp->failed = 1;
    snprintf(sp->err, sizeof sp->err, "%s", err);
    return -1;
  }
  return 0;
}

int sampler_close(sampler_t *sp, char *err, size_t errlen) {
  if (sp->failed) {
    outfile_discard(&sp->csv_q);
    outfile_discard(&sp->csv_f);
    snprintf(err, errlen, "%s", sp->err);
    return -1;
  }
  /* both complete before either is put into place: the two files are one result */
  if (outfile_sync(&sp->csv_q, err, errlen) != 0 || outfile_sync(&sp->csv_f, err, errlen) != 0 ||
      outfile_close(&sp->csv_q, err, errlen) != 0) {
    outfile_discard(&sp->csv_q);
    outfile_discard(&sp->csv_f);
    return -1;
  }
  return outfile_close(&sp->csv_f, err, errlen);
}
