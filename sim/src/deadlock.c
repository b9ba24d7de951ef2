/*
 * deadlock.c - wait-for graph cycles among blocked egress queues (deadlock.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "deadlock.h"

#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "sampler.h"

int deadlock_init(deadlock_t *dl, const sim_t *sim, char *err, size_t errlen) {
  memset(dl, 0, sizeof *dl);
  size_t n = (size_t)sim->topo.nsw * LFC_MAX_PORTS * LFC_MAX_CLASSES;
  dl->nq = n;
  dl->cyc = calloc(n, sizeof *dl->cyc);
  dl->color = calloc(n, 1);
  dl->stack = calloc(n, sizeof *dl->stack);
  dl->first_seen = SIM_NEVER;
  dl->persist = sc_ns_to_cycles(sim->sc, sim->sc->deadlock_us * 1000.0);
  if (!dl->cyc || !dl->color || !dl->stack) {
    snprintf(err, errlen, "deadlock detector: out of memory (%zu queues)", n);
    return -1;
  }
  return 0;
}

void deadlock_free(deadlock_t *dl) {
  free(dl->cyc);
  free(dl->color);
  free(dl->stack);
  memset(dl, 0, sizeof *dl);
}

/* Depth-first search for a cycle among blocked queues; fills dl->cyc. */
typedef struct {
  const sim_t *sim;
  deadlock_t *dl;
  const uint8_t *blocked;
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
      size_t q2 = SAMPLER_QIDX(n, p2, c2);
      if (!x->blocked[q2] || p2 == pp) continue;
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

static int still_blocked(const deadlock_t *dl, const uint8_t *blocked) {
  for (uint32_t i = 0; i < dl->ncyc; i++)
    if (!blocked[SAMPLER_QIDX(dl->cyc[i].sw, dl->cyc[i].port, dl->cyc[i].cls)]) return 0;
  return dl->ncyc > 0;
}

void deadlock_check(deadlock_t *dl, sim_t *sim, uint64_t cycle, const uint8_t *blocked) {
  if (dl->found) return;
  if (dl->first_seen != SIM_NEVER && still_blocked(dl, blocked)) {
    if (cycle - dl->first_seen >= dl->persist) {
      dl->found = 1;
      dl->found_cycle = dl->first_seen;
      if (sim->sc->stop_on_deadlock) sim->stop = 1;
    }
    return;
  }
  dl->first_seen = SIM_NEVER;
  dl->ncyc = 0;
  memset(dl->color, 0, dl->nq);
  dfs_t x = {sim, dl, blocked, dl->color, dl->stack, 0};
  for (size_t q = 0; q < dl->nq; q++)
    if (blocked[q] && x.color[q] == 0 && dfs(&x, q)) {
      dl->first_seen = cycle;
      break;
    }
}

int deadlock_dot(const deadlock_t *dl, const sim_t *sim, const char *path, char *err,
                 size_t errlen) {
  outfile_t o;
  if (outfile_open(&o, path, err, errlen) != 0) return -1;
  FILE *f = o.f;
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
  return outfile_close(&o, err, errlen);
}
