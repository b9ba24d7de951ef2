/*
 * partition.c - devices to lanes (partition.h).
 *
 * Positions by breadth-first levels from the endpoints: level 0 is every endpoint, at its own
 * index; a node first reached at level l + 1 sits at the mean position of its neighbours of
 * level l. In a fat tree (Al-Fares et al. 2008) that puts pods in host order with each core
 * switch in the middle, so two lanes get half the pods and half the core switches each and
 * only core links cross between them. Nodes no endpoint reaches go last.
 */
#include "partition.h"

#include <stdlib.h>

#define UNREACHED UINT32_MAX

typedef struct {
  double pos;
  uint32_t node;
} place_t;

static int by_place(const void *a, const void *b) {
  const place_t *x = a, *y = b;
  if (x->pos != y->pos) return x->pos < y->pos ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

int partition_nodes(const topo_t *t, uint32_t nlanes, uint32_t *lane) {
  uint32_t n = t->nnodes;
  uint32_t *level = malloc(n * sizeof *level), *fifo = malloc(n * sizeof *fifo);
  place_t *pl = malloc(n * sizeof *pl);
  if (!level || !fifo || !pl) {
    free(level);
    free(fifo);
    free(pl);
    return -1;
  }
  uint32_t head = 0, tail = 0;
  for (uint32_t v = 0; v < n; v++) {
    level[v] = v >= t->nsw ? 0u : UNREACHED;
    pl[v] = (place_t){v >= t->nsw ? (double)(v - t->nsw) : 0.0, v};
    if (v >= t->nsw) fifo[tail++] = v;
  }
  while (head < tail) { /* level by level: a node's position is final when it is queued */
    uint32_t v = fifo[head++];
    for (uint32_t p = 0; p < t->nports[v]; p++) {
      uint32_t pp;
      int64_t u = topo_peer(t, v, p, &pp);
      if (u < 0 || level[u] != UNREACHED) continue;
      level[u] = level[v] + 1u;
      fifo[tail++] = (uint32_t)u;
      double sum = 0.0;
      uint32_t cnt = 0;
      for (uint32_t q = 0; q < t->nports[u]; q++) { /* its neighbours one level nearer */
        int64_t w = topo_peer(t, (uint32_t)u, q, &pp);
        if (w >= 0 && level[w] == level[v]) {
          sum += pl[w].pos;
          cnt++;
        }
      }
      pl[u].pos = sum / (double)cnt; /* cnt >= 1: v is one */
    }
  }
  for (uint32_t v = 0; v < n; v++)
    if (level[v] == UNREACHED) pl[v].pos = (double)n + (double)v;
  qsort(pl, n, sizeof *pl, by_place);
  uint64_t total = 0, run = 0;
  for (uint32_t v = 0; v < n; v++) total += t->nports[v];
  for (uint32_t i = 0; i < n; i++) { /* lane = the share of the weight before the node's middle */
    uint32_t v = pl[i].node;
    uint64_t mid2 = 2u * run + t->nports[v];
    uint64_t l = mid2 * nlanes / (2u * (total > 0 ? total : 1u));
    lane[v] = (uint32_t)(l < nlanes ? l : nlanes - 1u);
    run += t->nports[v];
  }
  free(level);
  free(fifo);
  free(pl);
  return 0;
}
