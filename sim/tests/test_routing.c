/*
 * test_routing.c - the route tables of sim/src/routing.c, followed hop by hop.
 *
 * Each property is checked against an oracle computed here from the fabric alone (never from
 * routing.c): breadth-first switch distances for shortest paths, a ranking of the switches by
 * (BFS level from the first switch of the top role, id) for up*-down* (docs/sim.md "Routing";
 * Schroeder et al., "Autonet", 1991), and the channel dependency graph of the routes (Dally &
 * Seitz 1987: channel A -> channel B when some route takes B right after A) with a cycle
 * search. Properties: every (switch, destination address) entry leads to its endpoint, by the
 * shortest way where routing is shortest, without a loop; ECMP spreads a host's `ecmp`
 * addresses over every equal-cost uplink of a fat tree; up*-down* routes never go up after
 * going down and leave the dependency graph acyclic where shortest paths on a ring do not;
 * explicit paths are honoured; failed cables are never taken.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "routing.h"
#include "scenario.h"
#include "sim_unit.h"
#include "topology.h"

#define UNREACHED UINT32_MAX

typedef struct {
  unit_fabric_t f;
  routes_t r;
} routed_t;

static routed_t routed(const char *ini) {
  routed_t x;
  char err[UNIT_ERR_LEN] = "";
  x.f = unit_fabric(ini);
  if (routes_build(x.f.sc, &x.f.t, &x.r, err, sizeof err) != 0)
    fail_msg("routes_build: %s\n%s", err, ini);
  return x;
}

static void routed_free(routed_t *x) {
  routes_free(&x->r, x->f.t.nsw);
  unit_fabric_free(&x->f);
}

/* ---- oracles ---- */

/* Switch-to-switch hop counts over working cables: dist[a * nsw + b], UNREACHED if none. */
static uint32_t *switch_distances(const topo_t *t) {
  uint32_t n = t->nsw, *dist = malloc((size_t)n * n * sizeof *dist), *q = malloc(n * sizeof *q);
  assert_non_null(dist);
  assert_non_null(q);
  for (uint32_t a = 0; a < n; a++) {
    uint32_t *d = &dist[(size_t)a * n], head = 0, tail = 0;
    for (uint32_t b = 0; b < n; b++) d[b] = UNREACHED;
    d[a] = 0;
    q[tail++] = a;
    while (head < tail) {
      uint32_t s = q[head++], pp;
      for (uint32_t p = 0; p < t->nports[s]; p++) {
        int64_t v = topo_peer(t, s, p, &pp);
        if (v < 0 || v >= t->nsw || d[v] != UNREACHED) continue;
        d[v] = d[s] + 1u;
        q[tail++] = (uint32_t)v;
      }
    }
  }
  free(q);
  return dist;
}

/* A route followed from switch s for destination address dst: the switches it visits (s
   first) and the egress port it takes at each, up to the endpoint. */
typedef struct {
  uint32_t sw[64], port[64];
  uint32_t n;   /* switches visited */
  uint32_t end; /* the node it ends at */
} walk_t;

/* Follow the tables from s; fails the test on a dead port or a loop (more switch hops than
   switches: some switch was visited twice with the same destination, so it never ends). */
static walk_t follow(const routed_t *x, uint32_t s, uint32_t dst) {
  const topo_t *t = &x->f.t;
  walk_t w = {.n = 0};
  uint32_t v = s;
  while (v < t->nsw) {
    if (w.n > t->nsw || w.n >= sizeof w.sw / sizeof w.sw[0])
      fail_msg("route from switch %u to address %u loops (%u hops)", s, dst, w.n);
    uint32_t p = x->r.table[v][dst], pp;
    int64_t next = topo_peer(t, v, p, &pp);
    if (next < 0)
      fail_msg("route from switch %u to address %u: switch %u sends it to port %u, which has "
               "no working cable", s, dst, v, p);
    w.sw[w.n] = v;
    w.port[w.n++] = p;
    v = (uint32_t)next;
  }
  w.end = v;
  return w;
}

/*
 * Every entry of every switch whose destination it can reach leads to that destination's
 * endpoint, and reach[] agrees with the BFS oracle. With `shortest`, the route takes exactly
 * the BFS distance to the endpoint's switch, plus its last hop. Returns the most switch-to-
 * switch hops of any route (the diameter the routes use).
 */
static uint32_t check_routes_arrive(const routed_t *x, int shortest) {
  const topo_t *t = &x->f.t;
  uint32_t *dist = switch_distances(t), longest = 0;
  for (uint32_t s = 0; s < t->nsw; s++)
    for (uint32_t e = 0; e < t->nendpoints; e++) {
      uint32_t d = dist[(size_t)s * t->nsw + t->host_sw[e]];
      int reach = x->r.reach[(size_t)s * t->nendpoints + e];
      assert_int_equal(reach, d != UNREACHED); /* reachable exactly where a path exists */
      if (!reach) continue;
      for (uint32_t c = 0; c < x->r.ways; c++) {
        walk_t w = follow(x, s, e * x->r.ways + c);
        assert_int_equal(w.end, t->nsw + e);                /* it arrives, at that endpoint */
        if (shortest) assert_int_equal(w.n - 1u, d);        /* by a shortest way */
        if (w.n - 1u > longest) longest = w.n - 1u;
      }
    }
  free(dist);
  return longest;
}

/*
 * The channel dependency graph of the routes packets can take (Dally & Seitz 1987): channels
 * are (switch, egress port), and channel A -> B when a packet sent by some endpoint to some
 * address leaves by A and then by B. Returns 1 if it has a cycle (depth-first search).
 */
typedef struct {
  uint8_t *edge; /* nch x nch adjacency */
  uint8_t *color;
  uint32_t nch;
} cdg_t;

static int cdg_dfs(cdg_t *g, uint32_t a) {
  g->color[a] = 1; /* on the stack */
  for (uint32_t b = 0; b < g->nch; b++) {
    if (!g->edge[(size_t)a * g->nch + b]) continue;
    if (g->color[b] == 1 || (g->color[b] == 0 && cdg_dfs(g, b))) return 1;
  }
  g->color[a] = 2;
  return 0;
}

static int channel_dependencies_cyclic(const routed_t *x) {
  const topo_t *t = &x->f.t;
  cdg_t g = {NULL, NULL, t->nsw * LFC_MAX_PORTS};
  g.edge = calloc((size_t)g.nch * g.nch, 1);
  g.color = calloc(g.nch, 1);
  assert_non_null(g.edge);
  assert_non_null(g.color);
  for (uint32_t src = 0; src < t->nendpoints; src++)
    for (uint32_t dst = 0; dst < x->r.len; dst++) {
      uint32_t s = t->host_sw[src];
      if (dst / x->r.ways == src || !x->r.reach[(size_t)s * t->nendpoints + dst / x->r.ways])
        continue;
      walk_t w = follow(x, s, dst);
      for (uint32_t i = 0; i + 1 < w.n; i++)
        g.edge[(size_t)(w.sw[i] * LFC_MAX_PORTS + w.port[i]) * g.nch +
               w.sw[i + 1] * LFC_MAX_PORTS + w.port[i + 1]] = 1;
    }
  int cyclic = 0;
  for (uint32_t a = 0; a < g.nch && !cyclic; a++)
    if (g.color[a] == 0) cyclic = cdg_dfs(&g, a);
  free(g.edge);
  free(g.color);
  return cyclic;
}

/* Up*-down* ranks (docs/sim.md "Routing"): BFS level from the first switch (index 0) of the
   top role, then id; a hop to a lower rank is up. UNREACHED for switches the root cannot reach. */
static uint64_t *updown_ranks(const topo_t *t) {
  uint32_t top = 0, root = 0;
  for (uint32_t s = 0; s < t->nsw; s++)
    if (t->role[s] > top) top = t->role[s];
  while (!(t->role[root] == top && t->index[root] == 0)) root++;
  uint32_t *dist = switch_distances(t);
  uint64_t *rank = malloc(t->nsw * sizeof *rank);
  assert_non_null(rank);
  for (uint32_t s = 0; s < t->nsw; s++) {
    uint32_t d = dist[(size_t)root * t->nsw + s];
    rank[s] = d == UNREACHED ? UINT64_MAX : (uint64_t)d * t->nsw + s;
  }
  free(dist);
  return rank;
}

/* No route of any switch to any address takes an up hop after a down hop. Returns the number
   of routes that went up and then down (so that a caller can tell the rule was exercised). */
static uint32_t check_updown(const routed_t *x) {
  const topo_t *t = &x->f.t;
  uint64_t *rank = updown_ranks(t);
  uint32_t up_then_down = 0;
  for (uint32_t s = 0; s < t->nsw; s++)
    for (uint32_t dst = 0; dst < x->r.len; dst++) {
      if (!x->r.reach[(size_t)s * t->nendpoints + dst / x->r.ways]) continue;
      walk_t w = follow(x, s, dst);
      int down = 0, up = 0;
      for (uint32_t i = 0; i + 1 < w.n; i++) {
        int is_up = rank[w.sw[i + 1]] < rank[w.sw[i]];
        if (is_up && down)
          fail_msg("updown: the route from switch %u to address %u goes up at switch %u after "
                   "going down", s, dst, w.sw[i]);
        up |= is_up;
        down |= !is_up;
      }
      up_then_down += up && down;
    }
  free(rank);
  return up_then_down;
}

/* ---- shortest paths ---- */

/* Fat tree k = 4: every route arrives by a shortest way; the longest, between pods, is 4
   switch hops (edge, agg, core, agg, edge). */
static void test_routing_fat_tree_routes_arrive_shortest(void **state) {
  (void)state;
  routed_t x = routed("[topology]\nkind = fat_tree\nk = 4\n");
  assert_int_equal(x.r.ways, 16);                  /* the default ecmp */
  assert_int_equal(x.r.len, 16u * 16u);            /* 16 hosts x 16 addresses */
  assert_int_equal(check_routes_arrive(&x, 1), 4); /* the fat tree's diameter */
  routed_free(&x);
}

/* The other kinds: ring of 7 (diameter 3), line of 5 (4), leaf-spine (2), rail (2: a NIC of
   another rail goes leaf, spine, leaf), leaf-spine with engines (the AEs are destinations too:
   2 hops between the leaves' engines, spine engines 1 from the leaves). */
static void test_routing_other_kinds_arrive_shortest(void **state) {
  (void)state;
  static const struct {
    const char *ini;
    uint32_t diameter;
  } cases[] = {
      {"[topology]\nkind = ring\nswitches = 7\nhosts_per_switch = 2\n", 3},
      {"[topology]\nkind = line\nswitches = 5\nhosts_per_switch = 1\n", 4},
      {"[topology]\nkind = leaf_spine\nleaves = 3\nspines = 2\nhosts_per_leaf = 2\n"
       "spine_links = 2\n", 2},
      {"[topology]\nkind = rail\nrails = 4\nservers = 2\nspines = 2\n", 2},
      {"[topology]\nkind = leaf_spine\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n"
       "[traffic]\npattern = sharp\nsrc = 0-3\nbytes = 65536\n", 2},
      {"[topology]\nkind = star\nhosts_per_switch = 5\n", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    routed_t x = routed(cases[i].ini);
    assert_int_equal(check_routes_arrive(&x, 1), cases[i].diameter);
    routed_free(&x);
  }
}

/* The 16-bit destination field (SPEC §2) bounds hosts x ways: k = 8's 128 hosts keep 16 ways
   (2048 addresses); a line of 100 switches of 50 hosts,
   5000 hosts, gets 65536 / 5000 = 13. */
static void test_routing_ways_fit_16_bits(void **state) {
  (void)state;
  routed_t x = routed("[topology]\nkind = fat_tree\nk = 8\n");
  assert_int_equal(x.r.ways, 16);
  routed_free(&x);
  lfc_scenario_t *sc =
      unit_scenario("[topology]\nkind = line\nswitches = 100\nhosts_per_switch = 50\n");
  topo_t t;
  routes_t r;
  char err[UNIT_ERR_LEN];
  assert_int_equal(topo_build(sc, &t, err, sizeof err), 0);
  assert_int_equal(routes_build(sc, &t, &r, err, sizeof err), 0);
  assert_int_equal(r.ways, 13);         /* 5000 x 13 = 65000 <= 65536 < 5000 x 14 */
  assert_int_equal(r.len, 5000u * 13u);
  routes_free(&r, t.nsw);
  topo_free(&t);
  unit_scenario_free(sc);
}

/*
 * ECMP on a fat tree of k-port switches: for a host in another pod, an edge switch has k/2
 * equal-cost uplinks (ports k/2..k-1, its aggs) and an agg k/2 (ports k/2..k-1, its cores).
 * The host's `ways` addresses must use every one of them, evenly, at every such switch; within
 * the host's pod but under another edge, an edge switch's k/2 uplinks likewise. k = 4: 2
 * uplinks, k = 8: 4, with the default 16 ways: 8 and 4 addresses each.
 */
static void check_ecmp_spreads(uint32_t k) {
  char ini[64];
  snprintf(ini, sizeof ini, "[topology]\nkind = fat_tree\nk = %u\n", k);
  routed_t x = routed(ini);
  const topo_t *t = &x.f.t;
  uint32_t h = k / 2u, checked = 0;
  for (uint32_t s = 0; s < t->nsw; s++) {
    if (t->role[s] == 2) continue; /* a core switch has one way to each pod */
    uint32_t pod = t->index[s] / h;
    for (uint32_t e = 0; e < t->nhosts; e++) {
      uint32_t epod = e / (h * h), esw = e / h; /* the host's pod and edge switch */
      int up = t->role[s] == 0 ? esw != s : epod != pod; /* it must go up from s */
      if (!up) continue;
      uint32_t per_port[LFC_MAX_PORTS] = {0};
      for (uint32_t c = 0; c < x.r.ways; c++) per_port[x.r.table[s][e * x.r.ways + c]]++;
      for (uint32_t p = 0; p < k; p++) {
        /* ports 0..h-1 lead down, h..k-1 up; each uplink takes ways / (k/2) addresses: 16 / 2 =
           8 (k = 4), 16 / 4 = 4 (k = 8) */
        uint32_t want = p < h ? 0u : x.r.ways / h;
        if (per_port[p] != want)
          fail_msg("k = %u: switch %u sends %u of the %u addresses of h%u by port %u; want %u "
                   "(the ways spread evenly over the %u uplinks)", k, s, per_port[p], x.r.ways,
                   e, p, want, h);
      }
      checked++;
    }
  }
  /* edges: k^2/2 switches x (k^3/4 - k/2) hosts; aggs: k^2/2 x (k^3/4 - k^2/4) */
  uint32_t hosts = k * k * k / 4u;
  assert_int_equal(checked, k * h * (hosts - h) + k * h * (hosts - h * h));
  routed_free(&x);
}

static void test_routing_ecmp_uses_every_uplink_k4(void **state) {
  (void)state;
  check_ecmp_spreads(4);
}

static void test_routing_ecmp_uses_every_uplink_k8(void **state) {
  (void)state;
  check_ecmp_spreads(8);
}

/*
 * The addresses one switch sends to a neighbour are spread over that neighbour's next hops too
 * (no polarisation): fat tree k = 4, from each edge switch to each host of another pod, the 16
 * addresses go up through both aggs (8 each) and on through all 4 cores (each agg's 8 over its
 * 2 cores). A switch order that only rotated the addresses would keep one core per agg.
 */
static void test_routing_ecmp_reaches_every_core(void **state) {
  (void)state;
  routed_t x = routed("[topology]\nkind = fat_tree\nk = 4\n");
  const topo_t *t = &x.f.t;
  for (uint32_t s = 0; s < 8; s++)     /* edges */
    for (uint32_t e = 0; e < 16; e++) { /* hosts: 4 per pod, edge s in pod s / 2 */
      if (e / 4u == s / 2u) continue;
      uint32_t cores = 0;
      for (uint32_t c = 0; c < x.r.ways; c++) {
        walk_t w = follow(&x, s, e * x.r.ways + c);
        assert_int_equal(w.n, 5);               /* edge, agg, core, agg, edge */
        assert_int_equal(t->role[w.sw[2]], 2); /* the third switch is a core */
        cores |= 1u << t->index[w.sw[2]];
      }
      assert_int_equal(cores, 0xf); /* core0..core3 */
    }
  routed_free(&x);
}

/*
 * Switches with equal tables share one, and only those (routes_free frees each once: ASan's
 * leak and double-free checks in the sanitizer build). Fat tree k = 4: the 4 cores have one
 * port per pod and the same table; edges and aggs differ (their hosts, their ECMP order).
 */
static void test_routing_equal_tables_shared(void **state) {
  (void)state;
  routed_t x = routed("[topology]\nkind = fat_tree\nk = 4\n");
  const topo_t *t = &x.f.t;
  size_t bytes = (size_t)x.r.len * sizeof **x.r.table;
  uint32_t shared = 0;
  for (uint32_t a = 0; a < t->nsw; a++) {
    shared += x.r.shared[a];
    for (uint32_t b = 0; b < a; b++) {
      int equal = memcmp(x.r.table[a], x.r.table[b], bytes) == 0;
      assert_int_equal(x.r.table[a] == x.r.table[b], equal);
      assert_int_equal(equal, t->role[a] == 2 && t->role[b] == 2); /* cores alone */
    }
  }
  assert_int_equal(shared, 3); /* core1..core3 use core0's */
  routed_free(&x);
}

/* ---- up*-down* ---- */

static void test_routing_updown_never_down_then_up(void **state) {
  (void)state;
  static const char *const cases[] = {
      "[topology]\nkind = ring\nswitches = 5\nhosts_per_switch = 1\n[routing]\n"
      "algorithm = updown\n",
      "[topology]\nkind = fat_tree\nk = 4\nfailed_links = edge0-agg0, agg3-core2, agg4-core0\n"
      "[routing]\nalgorithm = updown\n",
      "[topology]\nkind = leaf_spine\nleaves = 4\nspines = 3\nhosts_per_leaf = 1\n"
      "failed_links = leaf0-spine0, leaf1-spine1\n[routing]\nalgorithm = updown\n",
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    routed_t x = routed(cases[i]);
    check_routes_arrive(&x, 0);
    /* every fabric here has routes through the root's side: up, then down */
    assert_true(check_updown(&x) > 0);
    routed_free(&x);
  }
}

/*
 * Ring of 5, one host per switch: shortest paths send a host two switches away the same way
 * round as every other (no ties on an odd ring), so sw0 -> sw1 -> sw2, sw1 -> sw2 -> sw3, ...
 * close a cycle of 5 channel dependencies. Up*-down* from sw0 leaves none. A fat tree's shortest
 * paths (up, then down) have none either.
 */
static void test_routing_channel_dependency_cycles(void **state) {
  (void)state;
  const char *ring = "[topology]\nkind = ring\nswitches = 5\nhosts_per_switch = 1\n";
  routed_t x = routed(ring);
  assert_true(channel_dependencies_cyclic(&x));
  routed_free(&x);
  char ini[256];
  snprintf(ini, sizeof ini, "%s[routing]\nalgorithm = updown\n", ring);
  x = routed(ini);
  assert_false(channel_dependencies_cyclic(&x));
  routed_free(&x);
  x = routed("[topology]\nkind = fat_tree\nk = 4\n");
  assert_false(channel_dependencies_cyclic(&x));
  routed_free(&x);
}

/* ---- explicit paths ---- */

/*
 * Ring of 4: path = h0 sw0 sw1 sw2 h2 sends every address of h2 from sw0 to sw1 (its port
 * H + 1 = 2) and from sw1 to sw2 (port 2), though sw0 -> sw3 -> sw2 is as short; sw2 hands it
 * to its host (port 0). The entries for other destinations are those of the same ring without
 * the path. Explicit clockwise paths around the whole ring close a dependency cycle (the ring
 * deadlock scenarios).
 */
static void test_routing_explicit_path_honoured(void **state) {
  (void)state;
  const char *ring = "[topology]\nkind = ring\nswitches = 4\nhosts_per_switch = 1\n";
  char ini[512];
  snprintf(ini, sizeof ini, "%s[routing]\npath = h0 sw0 sw1 sw2 h2\n", ring);
  routed_t x = routed(ini), plain = routed(ring);
  uint32_t ways = x.r.ways, h2 = 2;
  for (uint32_t c = 0; c < ways; c++) {
    assert_int_equal(x.r.table[0][h2 * ways + c], 2); /* sw0 -> sw1 */
    assert_int_equal(x.r.table[1][h2 * ways + c], 2); /* sw1 -> sw2 */
    assert_int_equal(x.r.table[2][h2 * ways + c], 0); /* sw2 -> h2 */
  }
  uint32_t differ = 0;
  for (uint32_t s = 0; s < 4; s++)
    for (uint32_t d = 0; d < x.r.len; d++) {
      if (d / ways == h2 && s <= 1) {
        differ += x.r.table[s][d] != plain.r.table[s][d];
        continue;
      }
      assert_int_equal(x.r.table[s][d], plain.r.table[s][d]); /* everything else unchanged */
    }
  /* without the path, sw0 hashes h2's 16 addresses over both ways round (sw1 one of them) */
  assert_true(differ > 0);
  routed_free(&x);
  routed_free(&plain);

  snprintf(ini, sizeof ini,
           "%s[routing]\nalgorithm = updown\npath = h0 sw0 sw1 sw2 h2\npath = h1 sw1 sw2 sw3 h3\n"
           "path = h2 sw2 sw3 sw0 h0\npath = h3 sw3 sw0 sw1 h1\n", ring);
  x = routed(ini);
  assert_true(channel_dependencies_cyclic(&x)); /* the paths override up*-down* */
  routed_free(&x);
}

/* Two paths that send one destination two ways from one switch: refused, naming both. */
static void test_routing_explicit_paths_must_agree(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric("[topology]\nkind = ring\nswitches = 4\nhosts_per_switch = 1\n"
                                "[routing]\npath = h0 sw0 sw1 sw2 h2\npath = h1 sw1 sw0 sw3 sw2 "
                                "h2\n");
  routes_t r;
  char err[UNIT_ERR_LEN] = "";
  assert_int_equal(routes_build(f.sc, &f.t, &r, err, sizeof err), -1);
  assert_non_null(strstr(err, "unit.ini:7: [routing] path = h1 sw1 sw0 sw3 sw2 h2"));
  assert_non_null(strstr(err, "sw1 sends h2 on to sw0, but the path on line 6 sends it to sw2"));
  unit_fabric_free(&f);
}

/* ---- failed links ---- */

/*
 * Leaf-spine, 3 leaves, 2 spines, with leaf0-spine0 failed: leaf0 reaches the other leaves
 * only through spine1 (port H + 1 = 2 of its 3), and spine0 reaches leaf0's host through
 * another leaf and spine1 (4 hops to the host: spine0, leaf1, spine1, leaf0). No route takes the
 * failed cable: follow() fails on a port whose cable failed.
 */
static void test_routing_failed_link_avoided(void **state) {
  (void)state;
  static const char *const algorithms[] = {"shortest", "updown"};
  for (size_t i = 0; i < 2; i++) {
    char ini[256];
    snprintf(ini, sizeof ini,
             "[topology]\nkind = leaf_spine\nleaves = 3\nspines = 2\nhosts_per_leaf = 1\n"
             "failed_links = leaf0-spine0\n[routing]\nalgorithm = %s\n", algorithms[i]);
    routed_t x = routed(ini);
    const topo_t *t = &x.f.t;
    check_routes_arrive(&x, i == 0);
    uint32_t spine0 = 3, h0 = 0;
    for (uint32_t e = 1; e < t->nhosts; e++)
      for (uint32_t c = 0; c < x.r.ways; c++)
        assert_int_equal(x.r.table[0][e * x.r.ways + c], 2); /* leaf0: spine1 only */
    for (uint32_t c = 0; c < x.r.ways; c++) {
      walk_t w = follow(&x, spine0, h0 * x.r.ways + c);
      assert_int_equal(w.n, 4); /* spine0, leaf1 or leaf2, spine1, leaf0 */
      assert_int_equal(w.sw[2], 4);
      assert_int_equal(w.sw[3], 0);
    }
    routed_free(&x);
  }
}

/* Two failed cables cut a ring of 4 in two: each half reaches its own hosts and no other's. */
static void test_routing_failed_links_unreachable(void **state) {
  (void)state;
  routed_t x = routed("[topology]\nkind = ring\nswitches = 4\nhosts_per_switch = 1\n"
                      "failed_links = sw0-sw1, sw2-sw3\n");
  const topo_t *t = &x.f.t;
  check_routes_arrive(&x, 1); /* reach[] = a path exists, checked there */
  assert_true(x.r.reach[0 * t->nendpoints + 3]);  /* sw0 reaches h3 (sw0 - sw3) */
  assert_false(x.r.reach[0 * t->nendpoints + 1]); /* but not h1 */
  routed_free(&x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_routing_fat_tree_routes_arrive_shortest),
      cmocka_unit_test(test_routing_other_kinds_arrive_shortest),
      cmocka_unit_test(test_routing_ways_fit_16_bits),
      cmocka_unit_test(test_routing_ecmp_uses_every_uplink_k4),
      cmocka_unit_test(test_routing_ecmp_uses_every_uplink_k8),
      cmocka_unit_test(test_routing_ecmp_reaches_every_core),
      cmocka_unit_test(test_routing_equal_tables_shared),
      cmocka_unit_test(test_routing_updown_never_down_then_up),
      cmocka_unit_test(test_routing_channel_dependency_cycles),
      cmocka_unit_test(test_routing_explicit_path_honoured),
      cmocka_unit_test(test_routing_explicit_paths_must_agree),
      cmocka_unit_test(test_routing_failed_link_avoided),
      cmocka_unit_test(test_routing_failed_links_unreachable),
  };
  return cmocka_run_group_tests_name("sim routing", tests, NULL, NULL);
}
