/*
 * routing.c - shortest-path ECMP and up*-down* route tables, and explicit paths.
 *
 * Shortest: a breadth-first search from every destination switch over the working cables gives
 * each switch its distance; the next hops of a switch are the neighbours one step closer.
 * Up*-down* (Schroeder et al., "Autonet", 1991): switches are ranked by (BFS level from the root,
 * id); a hop towards a lower rank is "up". A legal route is some up hops, then only down hops,
 * which leaves no cycle in the channel dependency graph. With per-destination tables a switch
 * that can reach the destination by down hops only always does so (so a packet that arrived by a
 * down hop never needs to go up); the others go up towards the closest such switch.
 *
 * ECMP: switch s deals the `ways` addresses of a destination out to its n equal-cost next hops
 * in turn, in an order of the addresses of its own (a hash of (s, c)) from a starting hop of its
 * own (a hash of s): every next hop gets ways / n of them, give or take one, and the orders of
 * two switches on a path are unrelated, so the addresses that one switch sends to a neighbour
 * are spread over all of that neighbour's next hops too. (A hash of (s, c) modulo n, as before,
 * left some next hops without an address, so that no flow ever took them: with the default 16
 * ways, 3 of the 64 edge and aggregation switches of a k = 8 fat tree had one of their 4 uplinks
 * unused, and 49 of 64 switches with 8 equal-cost next hops one or more of them.)
 */
#include "routing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INF UINT32_MAX

/* Odd multipliers that spread consecutive integers over 32 bits before sim_mix32. */
#define ECMP_MUL_WAY 0x9E3779B1u
#define ECMP_MUL_SW 0x85EBCA6Bu
#define ECMP_MUL_START 0xC2B2AE35u

typedef struct {
  uint32_t key;
  uint16_t way;
} deal_t;

static int by_key(const void *a, const void *b) {
  const deal_t *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->way < y->way ? -1 : x->way > y->way;
}

/* ECMP (file comment): turn[s * ways + c] = the place of address c in switch s's order;
   address c then takes next hop (turn + start(s)) mod n of n. */
static void ecmp_turns(uint32_t nsw, uint32_t ways, uint16_t *turn, deal_t *scratch) {
  for (uint32_t s = 0; s < nsw; s++) {
    for (uint32_t c = 0; c < ways; c++)
      scratch[c] = (deal_t){sim_mix32(c * ECMP_MUL_WAY ^ (s + 1u) * ECMP_MUL_SW), (uint16_t)c};
    qsort(scratch, ways, sizeof *scratch, by_key);
    for (uint32_t i = 0; i < ways; i++) turn[(size_t)s * ways + scratch[i].way] = (uint16_t)i;
  }
}

static uint32_t ecmp_start(uint32_t s) { return sim_mix32((s + 1u) * ECMP_MUL_START); }

typedef struct {
  uint32_t *dist, *d1, *queue, *rank;
  route_port_t *cand; /* ports */
} work_t;

static int is_up(const work_t *w, uint32_t from, uint32_t to) { return w->rank[to] < w->rank[from]; }

static void bfs(const topo_t *t, uint32_t root, uint32_t *dist, uint32_t *queue) {
  for (uint32_t s = 0; s < t->nsw; s++) dist[s] = INF;
  uint32_t head = 0, tail = 0;
  dist[root] = 0;
  queue[tail++] = root;
  while (head < tail) {
    uint32_t s = queue[head++];
    for (uint32_t p = 0; p < t->nports[s]; p++) {
      uint32_t pp;
      int64_t n = topo_peer(t, s, p, &pp);
      if (n < 0 || n >= t->nsw || dist[n] != INF) continue;
      dist[n] = dist[s] + 1u;
      queue[tail++] = (uint32_t)n;
    }
  }
}

/* Up*-down* distances to dst switch d: d1 by down hops only, dist (d0) allowing ups first. */
static void updown(const topo_t *t, const work_t *w, uint32_t d) {
  uint32_t *d1 = w->d1, *d0 = w->dist, *q = w->queue;
  for (uint32_t s = 0; s < t->nsw; s++) d1[s] = INF;
  uint32_t head = 0, tail = 0;
  d1[d] = 0;
  q[tail++] = d;
  while (head < tail) { /* s -> n is down: reach n's predecessors s that are above it */
    uint32_t n = q[head++];
    for (uint32_t p = 0; p < t->nports[n]; p++) {
      uint32_t pp;
      int64_t s = topo_peer(t, n, p, &pp);
      if (s < 0 || s >= t->nsw || d1[s] != INF || is_up(w, (uint32_t)s, n)) continue;
      d1[s] = d1[n] + 1u;
      q[tail++] = (uint32_t)s;
    }
  }
  for (uint32_t s = 0; s < t->nsw; s++) d0[s] = d1[s];
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t s = 0; s < t->nsw; s++)
      for (uint32_t p = 0; p < t->nports[s]; p++) {
        uint32_t pp;
        int64_t n = topo_peer(t, s, p, &pp);
        if (n < 0 || n >= t->nsw || !is_up(w, s, (uint32_t)n) || d0[n] == INF) continue;
        if (d1[s] == INF && d0[n] + 1u < d0[s]) {
          d0[s] = d0[n] + 1u;
          changed = 1;
        }
      }
  }
}

static int path_error(const lfc_scenario_t *sc, const sc_path_t *pa, const char *what, char *err,
                      size_t errlen) {
  if (err && errlen) {
    char nodes[512] = "";
    size_t used = 0;
    for (uint32_t i = 0; i < pa->n && used < sizeof nodes; i++)
      used += (size_t)snprintf(nodes + used, sizeof nodes - used, "%s%s", i ? " " : "", pa->nodes[i]);
    snprintf(err, errlen, "%s:%u: [routing] path = %s: %s", sc->file, pa->line, nodes, what);
  }
  return -1;
}

/* The port of s that leads to n (first working one), or -1. */
static int port_to(const topo_t *t, uint32_t s, uint32_t n) {
  for (uint32_t p = 0; p < t->nports[s]; p++) {
    uint32_t pp;
    if (topo_peer(t, s, p, &pp) == (int64_t)n) return (int)p;
  }
  return -1;
}

/* A route table entry an explicit path set: switch sw sends destination host h to node next. */
typedef struct {
  uint32_t sw, h, next, line;
} set_entry_t;

static int explicit_paths(const lfc_scenario_t *sc, const topo_t *t, routes_t *r, char *err,
                          size_t errlen) {
  /* A table has one port per destination (SPEC §7.1): two paths (or one path twice through a
     switch) that send the same destination different ways would leave only the last. */
  set_entry_t set[SC_MAX_PATHS * SC_MAX_PATH_NODES]; /* 16 KB */
  uint32_t nset = 0;
  for (uint32_t i = 0; i < sc->npaths; i++) {
    const sc_path_t *pa = &sc->paths[i];
    int64_t id[SC_MAX_PATH_NODES];
    for (uint32_t j = 0; j < pa->n; j++) {
      id[j] = topo_find(t, pa->nodes[j]);
      if (id[j] < 0) {
        char m[128];
        snprintf(m, sizeof m, "no node named %s; allowed: h<N> and switch names like %s0", pa->nodes[j],
                 t->role_name[0]);
        return path_error(sc, pa, m, err, errlen);
      }
      int host = id[j] >= t->nsw;
      if (host != (j == 0 || j + 1 == pa->n))
        return path_error(sc, pa, "allowed: a host, then switches, then a host", err, errlen);
    }
    uint32_t h = (uint32_t)id[pa->n - 1] - t->nsw;
    for (uint32_t j = 0; j + 1 < pa->n; j++) {
      int p = port_to(t, (uint32_t)id[j], (uint32_t)id[j + 1]);
      if (p < 0) {
        char m[128];
        snprintf(m, sizeof m, "%s and %s are not joined by a working cable", pa->nodes[j],
                 pa->nodes[j + 1]);
        return path_error(sc, pa, m, err, errlen);
      }
      if (j == 0) continue;
      for (uint32_t e = 0; e < nset; e++)
        if (set[e].sw == (uint32_t)id[j] && set[e].h == h && set[e].next != (uint32_t)id[j + 1]) {
          char m[320], at[32], other[48];
          if (set[e].line == pa->line)
            snprintf(at, sizeof at, "this path, earlier,");
          else
            snprintf(at, sizeof at, "the path on line %u", set[e].line);
          snprintf(m, sizeof m, "%s sends %s on to %s, but %s sends it to %s; allowed: paths "
                   "that agree on each switch (one port per destination, SPEC §7.1)",
                   pa->nodes[j], pa->nodes[pa->n - 1], pa->nodes[j + 1], at,
                   topo_name(t, set[e].next, other, sizeof other));
          return path_error(sc, pa, m, err, errlen);
        }
      if (nset < sizeof set / sizeof set[0])
        set[nset++] = (set_entry_t){(uint32_t)id[j], h, (uint32_t)id[j + 1], pa->line};
      route_port_t *tab = r->table[id[j]];
      for (uint32_t c = 0; c < r->ways; c++) tab[h * r->ways + c] = (route_port_t)p;
    }
  }
  return 0;
}

uint32_t routes_ways(const lfc_scenario_t *sc, uint32_t nendpoints) {
  uint32_t ways = sc->ecmp_ways;
  while (ways > 1u && (uint64_t)nendpoints * ways > TOPO_MAX_ENDPOINTS) ways--;
  return ways;
}

/* FNV-1a (Fowler, Noll, Vo) of a table's entries. */
static uint64_t table_hash(const route_port_t *tab, uint32_t len) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint32_t i = 0; i < len; i++) h = (h ^ tab[i]) * 0x100000001b3ull;
  return h;
}

/* A switch whose table equals an earlier switch's uses that one (a fat tree's core switches
 * have one port per pod and so the same table: a fifth of a k = 16 fat tree's 10 MB). The
 * tables are only read from here on (the switches', SPEC §7.1, and the engine's). 0, or -1 out
 * of memory (nothing shared then). */
static int share_tables(routes_t *r, uint32_t nsw) {
  uint64_t *h = malloc((size_t)nsw * sizeof *h);
  r->shared = calloc(nsw, 1);
  if (h == NULL || r->shared == NULL) {
    free(h);
    return -1;
  }
  for (uint32_t s = 0; s < nsw; s++) {
    h[s] = table_hash(r->table[s], r->len);
    for (uint32_t b = 0; b < s; b++)
      if (!r->shared[b] && h[b] == h[s] &&
          memcmp(r->table[b], r->table[s], (size_t)r->len * sizeof **r->table) == 0) {
        free(r->table[s]);
        r->table[s] = r->table[b];
        r->shared[s] = 1;
        break;
      }
  }
  free(h);
  return 0;
}

int routes_build(const lfc_scenario_t *sc, const topo_t *t, routes_t *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  uint32_t ways = routes_ways(sc, t->nendpoints);
  r->ways = ways;
  r->len = t->nendpoints * ways;
  r->table = calloc(t->nsw, sizeof *r->table);
  r->reach = calloc((size_t)t->nsw * t->nendpoints, 1);
  work_t w = {calloc(t->nsw, 4), calloc(t->nsw, 4), calloc(t->nsw, 4), calloc(t->nsw, 4),
              calloc(LFC_MAX_PORTS, sizeof(route_port_t))};
  uint32_t *hs = NULL, *hs_first = NULL;
  uint16_t *turn = calloc((size_t)t->nsw * ways, sizeof *turn);
  deal_t *deal = calloc(ways, sizeof *deal);
  int ok = turn && deal && r->table && r->reach && w.dist && w.d1 && w.queue && w.rank && w.cand;
  for (uint32_t s = 0; ok && s < t->nsw; s++) {
    r->table[s] = calloc(r->len, sizeof **r->table);
    ok = r->table[s] != NULL;
  }
  if (!ok) {
    if (err && errlen) snprintf(err, errlen, "routing: out of memory");
    goto fail;
  }
  /* the hosts of each switch, ascending (hs[hs_first[d] .. hs_first[d+1]-1]) */
  hs = calloc(t->nendpoints + 1u, sizeof *hs);
  hs_first = calloc(t->nsw + 2u, sizeof *hs_first);
  if (!hs || !hs_first) {
    if (err && errlen) snprintf(err, errlen, "routing: out of memory");
    goto fail;
  }
  for (uint32_t h = 0; h < t->nendpoints; h++) hs_first[t->host_sw[h] + 2u]++;
  for (uint32_t d = 0; d < t->nsw; d++) hs_first[d + 2u] += hs_first[d + 1u];
  for (uint32_t h = 0; h < t->nendpoints; h++) hs[hs_first[t->host_sw[h] + 1u]++] = h;
  ecmp_turns(t->nsw, ways, turn, deal);
  if (sc->route == ROUTE_UPDOWN) { /* root: the first switch of the top role */
    uint32_t root = 0;
    for (uint32_t s = 0; s < t->nsw; s++)
      if (t->role[s] > t->role[root]) {
        root = s;
        break;
      }
    for (uint32_t s = t->nsw; s-- > 0;)
      if (t->role[s] == t->role[t->nsw - 1] && t->index[s] == 0) root = s;
    bfs(t, root, w.rank, w.queue);
    for (uint32_t s = 0; s < t->nsw; s++) /* rank: (level, id), lower = higher up */
      w.rank[s] = w.rank[s] == INF ? INF : w.rank[s] * t->nsw + s;
  }
  for (uint32_t d = 0; d < t->nsw; d++) {
    if (sc->route == ROUTE_UPDOWN)
      updown(t, &w, d);
    else
      bfs(t, d, w.dist, w.queue);
    for (uint32_t s = 0; s < t->nsw; s++) {
      if (w.dist[s] == INF) continue;
      uint32_t nc = 0;
      int down_only = sc->route == ROUTE_UPDOWN && w.d1[s] != INF;
      for (uint32_t p = 0; p < t->nports[s] && s != d; p++) {
        uint32_t pp;
        int64_t n = topo_peer(t, s, p, &pp);
        if (n < 0 || n >= t->nsw) continue;
        if (sc->route == ROUTE_UPDOWN) {
          if (down_only ? (is_up(&w, s, (uint32_t)n) || w.d1[n] + 1u != w.d1[s])
                        : (!is_up(&w, s, (uint32_t)n) || w.dist[n] + 1u != w.dist[s]))
            continue;
        } else if (w.dist[n] + 1u != w.dist[s]) {
          continue;
        }
        w.cand[nc++] = (route_port_t)p;
      }
      uint32_t start = nc > 0 ? ecmp_start(s) % nc : 0u;
      for (uint32_t i = hs_first[d]; i < hs_first[d + 1u]; i++) {
        uint32_t h = hs[i];
        r->reach[(size_t)s * t->nendpoints + h] = 1;
        for (uint32_t c = 0; c < ways; c++)
          r->table[s][h * ways + c] =
              s == d ? (route_port_t)t->host_port[h]
                     : w.cand[(turn[(size_t)s * ways + c] + start) % nc];
      }
    }
  }
  if (explicit_paths(sc, t, r, err, errlen) != 0) goto fail;
  if (share_tables(r, t->nsw) != 0) {
    if (err && errlen) snprintf(err, errlen, "routing: out of memory");
    goto fail;
  }
  free(w.dist), free(w.d1), free(w.queue), free(w.rank), free(w.cand), free(hs), free(hs_first);
  free(turn), free(deal);
  return 0;
fail:
  free(w.dist), free(w.d1), free(w.queue), free(w.rank), free(w.cand), free(hs), free(hs_first);
  free(turn), free(deal);
  routes_free(r, t->nsw);
  return -1;
}

void routes_free(routes_t *r, uint32_t nsw) {
  if (r->table)
    for (uint32_t s = 0; s < nsw; s++)
      if (r->shared == NULL || !r->shared[s]) free(r->table[s]);
  free(r->table);
  free(r->shared);
  free(r->reach);
  memset(r, 0, sizeof *r);
}
