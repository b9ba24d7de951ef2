/*
 * deadlock.c - the sampler: wait-for graph cycles (deadlock.h), occupancy samples, CSV series.
 */
#define _POSIX_C_SOURCE 200809L
#include "deadlock.h"

#include <stdlib.h>
#include <string.h>

#define QIDX(sim, s, p, c) (((size_t)(s) * LFC_MAX_PORTS + (p)) * LFC_MAX_CLASSES + (c))

int deadlock_init(deadlock_t *dl, sim_t *sim, const char *csv_dir, char *err, size_t errlen) {
  memset(dl, 0, sizeof *dl);
  size_t n = (size_t)sim->topo.nsw * LFC_MAX_PORTS * LFC_MAX_CLASSES;
  dl->last_tx = calloc(n, sizeof *dl->last_tx);
  dl->last_blk = calloc(n, sizeof *dl->last_blk);
  dl->blocked = calloc(n, 1);
  dl->cyc = calloc(n, sizeof *dl->cyc);
  dl->occ = calloc(n, sizeof *dl->occ);
  dl->nq = n;
  dl->last_rx = calloc(sim->flows.n + 1u, sizeof *dl->last_rx);
  dl->first_seen = SIM_NEVER;
  dl->persist = sc_ns_to_cycles(sim->sc, sim->sc->deadlock_us * 1000.0);
  dl->qlen_reg = lfc_reg_find("qlen");
  if (!dl->last_tx || !dl->last_blk || !dl->blocked || !dl->cyc || !dl->occ || !dl->last_rx ||
      dl->qlen_reg < 0) {
    if (err && errlen) snprintf(err, errlen, "deadlock detector: out of memory");
    return -1;
  }
  if (csv_dir) {
    char path[1024];
    snprintf(path, sizeof path, "%s/queues.csv", csv_dir);
    dl->csv_q = fopen(path, "w");
    snprintf(path, sizeof path, "%s/flows.csv", csv_dir);
    dl->csv_f = fopen(path, "w");
    if (!dl->csv_q || !dl->csv_f) {
      if (err && errlen) snprintf(err, errlen, "--csv %s: cannot write %s", csv_dir, path);
      return -1;
    }
    fprintf(dl->csv_q, "t_us,switch,port,class,qlen_blocks,paused,blocked\n");
    fprintf(dl->csv_f, "t_us,flow,rx_bytes,throughput_gbps\n");
  }
  return 0;
}

void deadlock_free(deadlock_t *dl) {
  if (dl->occ)
    for (size_t q = 0; q < dl->nq; q++) free(dl->occ[q]);
  free(dl->last_tx);
  free(dl->last_blk);
  free(dl->blocked);
  free(dl->cyc);
  free(dl->last_rx);
  if (dl->csv_q) fclose(dl->csv_q);
  if (dl->csv_f) fclose(dl->csv_f);
  free(dl->occ);
  memset(dl, 0, sizeof *dl);
}

/* Depth-first search for a cycle among blocked queues; fills dl->cyc. */
typedef struct {
  const sim_t *sim;
  deadlock_t *dl;
  uint8_t *color; /* 0 white, 1 on stack, 2 done */
  size_t *stack;
  uint32_t depth;
} dfs_t;

static int dfs(dfs_t *x, size_t q) {
  const topo_t *t = &x->sim->topo;
  x->color[q] = 1;
  x->stack[x->depth++] = q;
  uint32_t s = (uint32_t)(q / (LFC_MAX_PORTS * LFC_MAX_CLASSES));
  uint32_t p = (uint32_t)(q / LFC_MAX_CLASSES % LFC_MAX_PORTS), c = (uint32_t)(q % LFC_MAX_CLASSES);
  uint32_t pp;
  int64_t n = topo_peer(t, s, p, &pp);
  if (n >= 0 && n < t->nsw) {
    uint32_t wi = x->sim->dev[s].out_wire[p];
    uint32_t c2 = wi != UINT32_MAX && x->sim->wire[wi].has_map ? x->sim->wire[wi].cmap[c] : c;
    for (uint32_t p2 = 0; p2 < t->nports[n]; p2++) {
      size_t q2 = QIDX(x->sim, n, p2, c2);
      if (!x->dl->blocked[q2] || p2 == pp) continue;
      if (x->color[q2] == 1) { /* found: the stack from q2 up */
        uint32_t i = x->depth;
        while (i > 0 && x->stack[i - 1] != q2) i--;
        x->dl->ncyc = 0;
        for (uint32_t j = i - 1; j < x->depth; j++) {
          size_t z = x->stack[j];
          x->dl->cyc[x->dl->ncyc++] = (dl_queue_t){
              (uint32_t)(z / (LFC_MAX_PORTS * LFC_MAX_CLASSES)),
              (uint32_t)(z / LFC_MAX_CLASSES % LFC_MAX_PORTS), (uint32_t)(z % LFC_MAX_CLASSES)};
        }
        return 1;
      }
      if (x->color[q2] == 0 && dfs(x, q2)) return 1;
    }
  }
  x->depth--;
  x->color[q] = 2;
  return 0;
}

static int still_blocked(const deadlock_t *dl) {
  for (uint32_t i = 0; i < dl->ncyc; i++)
    if (!dl->blocked[QIDX(0, dl->cyc[i].sw, dl->cyc[i].port, dl->cyc[i].cls)]) return 0;
  return dl->ncyc > 0;
}

void deadlock_sample(sim_t *sim, uint64_t cycle, void *ctx) {
  deadlock_t *dl = ctx;
  const topo_t *t = &sim->topo;
  double t_us = (double)cycle * sim->cycle_ns / 1000.0;
  uint32_t classes = sim->sc->sw[0].classes;
  int grow = dl->nsamples == dl->capsamples;
  if (grow) dl->capsamples = dl->capsamples ? dl->capsamples * 2 : 64;
  for (uint32_t s = 0; s < t->nsw; s++) {
    lfc_switch_t *sw = sim->dev[s].sw;
    for (uint32_t p = 0; p < t->nports[s]; p++) {
      const lfc_port_stats_t *st = lfc_switch_stats(sw, p);
      for (uint32_t c = 0; c < classes; c++) {
        size_t q = QIDX(sim, s, p, c);
        const lfc_class_stats_t *cs = &st->cls[c];
        uint64_t qlen = lfc_switch_reg(sw, (size_t)dl->qlen_reg, p, c);
        uint64_t blk = cs->paused_cycles + cs->credit_blocked_cycles;
        dl->blocked[q] = qlen > 0 && cs->tx_pkts == dl->last_tx[q] && blk > dl->last_blk[q];
        if (dl->csv_q && (qlen > 0 || blk > dl->last_blk[q]))
          fprintf(dl->csv_q, "%.4f,%u,%u,%u,%llu,%d,%d\n", t_us, s, p, c, (unsigned long long)qlen,
                  blk > dl->last_blk[q], dl->blocked[q]);
        dl->last_tx[q] = cs->tx_pkts;
        dl->last_blk[q] = blk;
        if (dl->occ[q] == NULL || grow) {
          uint32_t *no = realloc(dl->occ[q], dl->capsamples * sizeof *no);
          if (no == NULL) continue;
          if (dl->occ[q] == NULL)
            for (uint32_t i = 0; i < dl->nsamples; i++) no[i] = 0;
          dl->occ[q] = no;
        }
        dl->occ[q][dl->nsamples] = (uint32_t)qlen;
      }
    }
  }
  dl->nsamples++;
  if (dl->csv_f) {
    double dt_ns = (double)sim->sample_every * sim->cycle_ns;
    for (uint32_t i = 0; i < sim->flows.n; i++) {
      const flow_t *f = &sim->flows.f[i];
      fprintf(dl->csv_f, "%.4f,%u,%llu,%.3f\n", t_us, i, (unsigned long long)f->rx_bytes,
              (double)(f->rx_bytes - dl->last_rx[i]) * 8.0 / dt_ns);
      dl->last_rx[i] = f->rx_bytes;
    }
  }
  if (dl->found) return;
  if (dl->first_seen != SIM_NEVER && still_blocked(dl)) {
    if (cycle - dl->first_seen >= dl->persist) {
      dl->found = 1;
      dl->found_cycle = dl->first_seen;
      if (sim->sc->stop_on_deadlock) sim->stop = 1;
    }
    return;
  }
  dl->first_seen = SIM_NEVER;
  dl->ncyc = 0;
  size_t n = (size_t)t->nsw * LFC_MAX_PORTS * LFC_MAX_CLASSES;
  dfs_t x = {sim, dl, calloc(n, 1), calloc(n, sizeof(size_t)), 0};
  if (x.color && x.stack)
    for (size_t q = 0; q < n; q++)
      if (dl->blocked[q] && x.color[q] == 0 && dfs(&x, q)) {
        dl->first_seen = cycle;
        break;
      }
  free(x.color);
  free(x.stack);
}

int deadlock_dot(const deadlock_t *dl, const sim_t *sim, const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  char a[64], b[64];
  fprintf(f, "digraph deadlock {\n  label=\"wait-for cycle formed at cycle %llu (%.3f us)\";\n"
             "  node [shape=box, style=filled, fillcolor=\"#f4cccc\"];\n",
          (unsigned long long)dl->found_cycle, (double)dl->found_cycle * sim->cycle_ns / 1000.0);
  for (uint32_t i = 0; i < dl->ncyc; i++) {
    const dl_queue_t *x = &dl->cyc[i], *y = &dl->cyc[(i + 1) % dl->ncyc];
    fprintf(f, "  \"%s p%u c%u\" -> \"%s p%u c%u\" [label=\"waits for\"];\n",
            topo_name(&sim->topo, x->sw, a, sizeof a), x->port, x->cls,
            topo_name(&sim->topo, y->sw, b, sizeof b), y->port, y->cls);
  }
  fprintf(f, "}\n");
  return fclose(f) == 0 ? 0 : -1;
}
