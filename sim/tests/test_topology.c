/*
 * test_topology.c - the fabric graph of sim/src/topology.c, from scenarios read as text.
 *
 * The counts are worked out here from docs/sim.md ("Scenario files": the kinds and their keys;
 * "Port layout"; "In-network aggregation": one more port per switch, joined to its engine),
 * never from topology.c: for each kind the switches, hosts, cables and ports per role, and on
 * every fabric that each cable joins two ports that exist, each port at most once, and that the
 * port table names the cable back. Names round-trip (topo_name, topo_find). Cable delays and
 * speed dividers follow docs/sim.md [link]: one cycle = 512 bits at the fastest link, delay =
 * ceil(5 ns/m x length / cycle), at least 1, speed_div = fastest / speed. failed_links marks the
 * cables named and no other, and a pair is failed at most as often as cables join it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "scenario.h"
#include "sim_unit.h"
#include "topology.h"

#define NAME_LEN 64u

/* ---- what holds on every fabric ---- */

/*
 * Every cable joins two existing ports of two different nodes, every port carries at most one
 * cable, the port table names each cable at both of its ends (and no port names a cable that
 * does not end there), and each endpoint's (switch, port) is the switch end of its own cable.
 * Returns the number of ports with a cable (2 per cable when all this holds).
 */
static uint32_t check_wiring(const topo_t *t) {
  uint32_t used = 0;
  uint8_t *seen = calloc((size_t)t->nnodes * LFC_MAX_PORTS, 1);
  assert_non_null(seen);
  for (uint32_t l = 0; l < t->nlinks; l++) {
    const topo_link_t *k = &t->links[l];
    assert_true(k->a < t->nnodes && k->b < t->nnodes); /* two nodes that exist */
    assert_true(k->a != k->b);                          /* no cable loops back to its node */
    assert_true(k->pa < t->nports[k->a] && k->pb < t->nports[k->b]); /* ports that exist */
    size_t ia = (size_t)k->a * LFC_MAX_PORTS + k->pa, ib = (size_t)k->b * LFC_MAX_PORTS + k->pb;
    assert_int_equal(seen[ia]++, 0); /* each port joined at most once */
    assert_int_equal(seen[ib]++, 0);
    assert_int_equal(t->port_link[ia], (int32_t)l); /* the port table names it at both ends */
    assert_int_equal(t->port_link[ib], (int32_t)l);
  }
  for (uint32_t v = 0; v < t->nnodes; v++)
    for (uint32_t p = 0; p < LFC_MAX_PORTS; p++) {
      size_t i = (size_t)v * LFC_MAX_PORTS + p;
      /* a port without a cable has none in the table, including ports past the node's count */
      if (!seen[i]) assert_int_equal(t->port_link[i], -1);
      used += seen[i];
    }
  for (uint32_t e = 0; e < t->nendpoints; e++) {
    const topo_link_t *k = unit_cable(t, t->host_sw[e], t->host_port[e]);
    assert_non_null(k); /* the endpoint's (switch, port) has a cable, to the endpoint itself */
    uint32_t peer = k->a == t->host_sw[e] && k->pa == t->host_port[e] ? k->b : k->a;
    assert_int_equal(peer, t->nsw + e);
    assert_int_equal(t->nports[t->nsw + e], 1); /* an endpoint has one port */
  }
  free(seen);
  return used;
}

/* The ports of role `role`'s switches, which must all have the same count. */
static uint32_t role_ports(const topo_t *t, uint32_t role) {
  uint32_t n = 0;
  for (uint32_t s = 0; s < t->nsw; s++)
    if (t->role[s] == role) {
      if (n == 0) n = t->nports[s];
      assert_int_equal(t->nports[s], n);
    }
  return n;
}

static uint32_t role_count(const topo_t *t, uint32_t role) {
  uint32_t n = 0;
  for (uint32_t s = 0; s < t->nsw; s++) n += t->role[s] == role;
  return n;
}

/* The node at the other end of (node, port); fails if the port has no working cable. */
static uint32_t peer_of(const topo_t *t, uint32_t node, uint32_t port, uint32_t *pport) {
  int64_t n = topo_peer(t, node, port, pport);
  assert_true(n >= 0);
  return (uint32_t)n;
}

static uint32_t node(const topo_t *t, const char *name) {
  int64_t n = topo_find(t, name);
  if (n < 0) fail_msg("topo_find(%s): no such node", name);
  return (uint32_t)n;
}

/* ---- the kinds ---- */

/* star, 6 hosts: one switch of 6 ports, 6 hosts, 6 cables, host p on port p. */
static void test_topology_star_counts(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric("[topology]\nkind = star\nhosts_per_switch = 6\n");
  const topo_t *t = &f.t;
  assert_int_equal(t->nsw, 1);
  assert_int_equal(t->nhosts, 6);
  assert_int_equal(t->nae, 0);
  assert_int_equal(t->nnodes, 7);           /* 1 switch + 6 hosts */
  assert_int_equal(t->nlinks, 6);           /* one cable per host */
  assert_int_equal(t->nports[0], 6);        /* radix = hosts_per_switch */
  assert_int_equal(check_wiring(t), 12);    /* 6 cables x 2 ends: every switch port used */
  uint32_t pp;
  assert_int_equal(peer_of(t, 0, 4, &pp), 1 + 4); /* port 4 -> h4 = node nsw + 4 */
  assert_int_equal(pp, 0);
  unit_fabric_free(&f);
}

/* line of 3 switches, 2 hosts each: radix H + 2 = 4, 6 host cables + 2 between switches; the
   ends of the line leave their outward port (sw0's port H, sw2's port H + 1) without a cable. */
static void test_topology_line_counts_and_layout(void **state) {
  (void)state;
  unit_fabric_t f =
      unit_fabric("[topology]\nkind = line\nswitches = 3\nhosts_per_switch = 2\n");
  const topo_t *t = &f.t;
  assert_int_equal(t->nsw, 3);
  assert_int_equal(t->nhosts, 6);          /* 3 x 2 */
  assert_int_equal(t->nlinks, 6 + 2);      /* hosts + (switches - 1) */
  assert_int_equal(role_ports(t, 0), 4);   /* 2 hosts + left + right */
  assert_int_equal(check_wiring(t), 16);   /* 8 cables x 2 ends */
  assert_null(unit_cable(t, 0, 2));        /* sw0 has no left neighbour */
  assert_null(unit_cable(t, 2, 3));        /* sw2 has no right neighbour */
  uint32_t pp;
  assert_int_equal(peer_of(t, 1, 2, &pp), 0); /* sw1 port H = 2 goes left to sw0 ... */
  assert_int_equal(pp, 3);                    /* ... arriving on sw0's port H + 1 = 3 */
  assert_int_equal(peer_of(t, 1, 3, &pp), 2); /* sw1 port 3 goes right to sw2, port 2 */
  assert_int_equal(pp, 2);
  assert_int_equal(t->host_sw[3], 1);   /* h3 is the second host of sw1 ... */
  assert_int_equal(t->host_port[3], 1); /* ... on its port 1 */
  unit_fabric_free(&f);
}

/* A line of one switch has no switch neighbours: radix H, not H + 2. */
static void test_topology_line_of_one_has_no_switch_ports(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric("[topology]\nkind = line\nswitches = 1\nhosts_per_switch = 3\n");
  assert_int_equal(f.t.nports[0], 3);
  assert_int_equal(f.t.nlinks, 3);
  assert_int_equal(check_wiring(&f.t), 6); /* every port used */
  unit_fabric_free(&f);
}

/* ring of 4, 1 host each: radix 3, 4 host cables + 4 around, every port used; sw3's right
   port (H + 1 = 2) closes the ring on sw0's left port (H = 1). A ring of 2 is refused. */
static void test_topology_ring_counts(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric("[topology]\nkind = ring\nswitches = 4\nhosts_per_switch = 1\n");
  const topo_t *t = &f.t;
  assert_int_equal(t->nsw, 4);
  assert_int_equal(t->nhosts, 4);
  assert_int_equal(t->nlinks, 8);         /* 4 host cables + 4 ring cables */
  assert_int_equal(role_ports(t, 0), 3);  /* 1 host + 2 neighbours */
  assert_int_equal(check_wiring(t), 16);  /* 4 x 3 switch ports + 4 host ports: all used */
  uint32_t pp;
  assert_int_equal(peer_of(t, 3, 2, &pp), 0);
  assert_int_equal(pp, 1);
  unit_fabric_free(&f);

  lfc_scenario_t sc;
  char err[UNIT_ERR_LEN] = "";
  const char *ini = "[topology]\nkind = ring\nswitches = 2\nhosts_per_switch = 1\n";
  assert_int_equal(lfc_scenario_load_mem(ini, strlen(ini), "r.ini", &sc, err, sizeof err), -1);
  assert_non_null(strstr(err, "a ring needs 3 or more")); /* refused at load, with the rule */
  lfc_scenario_free(&sc);
}

/* leaf-spine, 4 leaves of 3 hosts, 2 spines, 2 cables per leaf-spine pair: leaf radix
   3 + 2 x 2 = 7, spine radix 4 x 2 = 8; cables 12 (hosts) + 4 x 2 x 2 = 28. Leaf l's port
   H + j m + i goes to spine j's port l m + i (docs/sim.md "Port layout"). */
static void test_topology_leaf_spine_counts_and_layout(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric("[topology]\nkind = leaf_spine\nleaves = 4\nspines = 2\n"
                                "hosts_per_leaf = 3\nspine_links = 2\n");
  const topo_t *t = &f.t;
  assert_int_equal(role_count(t, 0), 4);
  assert_int_equal(role_count(t, 1), 2);
  assert_int_equal(t->nhosts, 12);
  assert_int_equal(t->nlinks, 28);
  assert_int_equal(role_ports(t, 0), 7);
  assert_int_equal(role_ports(t, 1), 8);
  assert_int_equal(check_wiring(t), 56); /* 4 x 7 + 2 x 8 = 44 switch ports + 12 host ports */
  uint32_t pp;
  /* leaf2, spine 1, its second cable (i = 1): port 3 + 1 x 2 + 1 = 6 -> spine1 port 2 x 2 + 1 */
  assert_int_equal(peer_of(t, node(t, "leaf2"), 6, &pp), node(t, "spine1"));
  assert_int_equal(pp, 5);
  unit_fabric_free(&f);
}

/*
 * Fat tree of k-port switches (Al-Fares et al. 2008): k pods of k/2 edge and k/2 aggregation
 * switches, (k/2)^2 core switches, k^3/4 hosts; cables: k^3/4 to hosts, k x (k/2)^2 edge-agg,
 * as many agg-core: 3 k^3/4 in all, and every port of every switch used (5k^2/4 switches x k
 * ports = k^3/4 host ends + 2 x k^3/2 switch ends). Each core switch has one cable to each pod.
 */
static void check_fat_tree(uint32_t k) {
  char ini[128];
  snprintf(ini, sizeof ini, "[topology]\nkind = fat_tree\nk = %u\n", k);
  unit_fabric_t f = unit_fabric(ini);
  const topo_t *t = &f.t;
  uint32_t h = k / 2u;
  assert_int_equal(role_count(t, 0), k * h); /* edge */
  assert_int_equal(role_count(t, 1), k * h); /* agg */
  assert_int_equal(role_count(t, 2), h * h); /* core */
  assert_int_equal(t->nhosts, k * k * k / 4u);
  assert_int_equal(t->nlinks, 3u * k * k * k / 4u);
  for (uint32_t r = 0; r < 3; r++) assert_int_equal(role_ports(t, r), k);
  assert_int_equal(check_wiring(t), 2u * t->nlinks);
  assert_int_equal(check_wiring(t), t->nsw * k + t->nhosts); /* no port left over */
  /* core switch c reaches pod p on its port p, through an agg of that pod (agg index / h = p) */
  for (uint32_t s = 0; s < t->nsw; s++) {
    if (t->role[s] != 2) continue;
    for (uint32_t p = 0; p < k; p++) {
      uint32_t pp, a = peer_of(t, s, p, &pp);
      assert_true(a < t->nsw && t->role[a] == 1);
      assert_int_equal(t->index[a] / h, p);
    }
  }
  /* Al-Fares et al.: agg j of every pod joins the j-th group of k/2 cores, core j h + c on its
     port h + c */
  for (uint32_t s = 0; s < t->nsw; s++) {
    if (t->role[s] != 1) continue;
    uint32_t j = t->index[s] % h;
    for (uint32_t c = 0; c < h; c++) {
      uint32_t pp, core = peer_of(t, s, h + c, &pp);
      assert_int_equal(t->role[core], 2);
      assert_int_equal(t->index[core], j * h + c);
    }
  }
  unit_fabric_free(&f);
}

/* k = 4: 8 edge, 8 agg, 4 core, 16 hosts, 48 cables. k = 8: 32, 32, 16, 128 hosts, 384. */
static void test_topology_fat_tree_k4_counts(void **state) {
  (void)state;
  check_fat_tree(4);
}

static void test_topology_fat_tree_k8_counts(void **state) {
  (void)state;
  check_fat_tree(8);
}

/* rail-optimized, 4 rails, 3 servers, 2 spines: leaf (rail) radix 3 servers + 2 spines = 5,
   spine radix 4 rails; 12 hosts (NIC r of server s is host s R + r, on leaf r port s), cables
   12 + 4 x 2 = 20. */
static void test_topology_rail_counts_and_layout(void **state) {
  (void)state;
  unit_fabric_t f =
      unit_fabric("[topology]\nkind = rail\nrails = 4\nservers = 3\nspines = 2\n");
  const topo_t *t = &f.t;
  assert_int_equal(role_count(t, 0), 4);
  assert_int_equal(role_count(t, 1), 2);
  assert_int_equal(t->nhosts, 12);
  assert_int_equal(t->nlinks, 20);
  assert_int_equal(role_ports(t, 0), 5);
  assert_int_equal(role_ports(t, 1), 4);
  assert_int_equal(check_wiring(t), 40); /* every port used: 4 x 5 + 2 x 4 + 12 */
  assert_int_equal(t->host_sw[2 * 4 + 1], node(t, "leaf1")); /* server 2, NIC 1: h9 on leaf1 */
  assert_int_equal(t->host_port[2 * 4 + 1], 2);              /* ... port 2 */
  uint32_t pp;
  assert_int_equal(peer_of(t, node(t, "leaf3"), 3 + 1, &pp), node(t, "spine1")); /* port S + j */
  assert_int_equal(pp, 3);                                                       /* spine port r */
  unit_fabric_free(&f);
}

/*
 * A sharp group adds an aggregation engine per switch: leaf-spine 2 leaves of 2 hosts, 2
 * spines: leaf radix 2 + 2 + 1 = 5, spine 2 + 1 = 3; 8 endpoints, 4 hosts then 4 AEs; cables
 * 4 (hosts) + 4 (leaf-spine) + 4 (AEs). Each AE (node nsw + nhosts + s) hangs on its switch's last port, one cycle
 * away, named "ae.<switch>". The AEs' 8 x 100 Gb/s is the fastest link: one cycle is
 * 512 / 800 = 0.64 ns, so the 2 m cables take ceil(10 / 0.64) = 16 cycles and the 100 Gb/s
 * links have speed_div 800 / 100 = 8, the AE's 1.
 */
static void test_topology_aggregation_engines(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric("[topology]\nkind = leaf_spine\nleaves = 2\nspines = 2\n"
                                "hosts_per_leaf = 2\nspine_links = 1\n"
                                "[traffic]\npattern = sharp\nsrc = 0-3\nbytes = 65536\n");
  const topo_t *t = &f.t;
  assert_int_equal(t->nsw, 4);
  assert_int_equal(t->nhosts, 4);
  assert_int_equal(t->nae, 4);        /* one per switch */
  assert_int_equal(t->nendpoints, 8); /* hosts, then AEs */
  assert_int_equal(t->nnodes, 12);
  assert_int_equal(t->nlinks, 12);
  assert_int_equal(role_ports(t, 0), 5);
  assert_int_equal(role_ports(t, 1), 3);
  assert_int_equal(check_wiring(t), 24); /* every port used */
  for (uint32_t s = 0; s < t->nsw; s++) {
    uint32_t ae = t->nsw + t->nhosts + s, pp;
    assert_int_equal(peer_of(t, s, t->nports[s] - 1u, &pp), ae); /* the switch's last port */
    const topo_link_t *k = unit_cable(t, s, t->nports[s] - 1u);
    assert_int_equal(k->delay, 1);     /* inside the switch: one cycle */
    assert_int_equal(k->speed_div, 1); /* the fastest link */
    assert_int_equal(t->host_sw[t->nhosts + s], s);
  }
  char buf[NAME_LEN];
  assert_string_equal(topo_name(t, 4 + 4 + 3, buf, sizeof buf), "ae.spine1"); /* AE of sw 3 */
  const topo_link_t *up = unit_cable(t, node(t, "leaf0"), 2); /* leaf0's first spine cable */
  assert_int_equal(up->delay, 16);
  assert_int_equal(up->speed_div, 8);
  const topo_link_t *down = unit_cable(t, node(t, "leaf0"), 0); /* to h0 */
  assert_int_equal(down->delay, 16);
  assert_int_equal(down->speed_div, 8);
  unit_fabric_free(&f);
}

/* ---- names ---- */

/* Every switch and host name leads back to its node; AE names are not for topo_find (no path
   or failed link names an AE). */
static void check_names(const char *ini) {
  unit_fabric_t f = unit_fabric(ini);
  const topo_t *t = &f.t;
  char buf[NAME_LEN];
  for (uint32_t v = 0; v < t->nsw + t->nhosts; v++)
    assert_int_equal(topo_find(t, topo_name(t, v, buf, sizeof buf)), (int64_t)v);
  for (uint32_t v = t->nsw + t->nhosts; v < t->nnodes; v++)
    assert_int_equal(topo_find(t, topo_name(t, v, buf, sizeof buf)), -1);
  unit_fabric_free(&f);
}

static void test_topology_names_round_trip(void **state) {
  (void)state;
  check_names("[topology]\nkind = fat_tree\nk = 4\n");
  check_names("[topology]\nkind = ring\nswitches = 12\nhosts_per_switch = 1\n");
  check_names("[topology]\nkind = rail\nrails = 2\nservers = 11\nspines = 11\n");
  check_names("[topology]\nkind = leaf_spine\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n"
              "[traffic]\npattern = sharp\nsrc = 0-3\nbytes = 65536\n");
}

/* Names that are not nodes: beyond the counts, another topology's roles, trailing text. */
static void test_topology_find_refuses_other_names(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric("[topology]\nkind = fat_tree\nk = 4\n");
  const topo_t *t = &f.t;
  char buf[NAME_LEN];
  assert_int_equal(topo_find(t, "h15"), t->nsw + 15); /* the last of 16 hosts */
  assert_int_equal(topo_find(t, "h16"), -1);          /* one past it */
  assert_int_equal(topo_find(t, "core3"), 8 + 8 + 3); /* the last of (k/2)^2 = 4 cores */
  assert_int_equal(topo_find(t, "core4"), -1);
  assert_int_equal(topo_find(t, "spine0"), -1); /* a leaf-spine role */
  assert_int_equal(topo_find(t, "edge"), -1);   /* no number */
  assert_int_equal(topo_find(t, "edge1x"), -1);
  assert_int_equal(topo_find(t, "h1 "), -1);
  assert_int_equal(topo_find(t, "h99999999999999999999999"), -1);
  assert_int_equal(topo_find(t, ""), -1);
  assert_string_equal(topo_name(t, 8 + 5, buf, sizeof buf), "agg5"); /* switch 13 */
  /* cable names: side A is the lower tier's switch (topology.h) */
  uint32_t l = (uint32_t)t->port_link[(size_t)node(t, "edge1") * LFC_MAX_PORTS + 3];
  assert_string_equal(topo_link_name(t, l, buf, sizeof buf), "edge1.3-agg1.1");
  unit_fabric_free(&f);
}

/* ---- delays and speeds (docs/sim.md [link]) ---- */

/* The delay of every switch-to-switch and every host cable of a line of 2 switches, 1 host each,
   with the [link] keys given. */
static void line_delays(const char *link, uint32_t *sw_delay, uint32_t *sw_div,
                        uint32_t *host_delay, uint32_t *host_div) {
  char ini[256];
  snprintf(ini, sizeof ini,
           "[topology]\nkind = line\nswitches = 2\nhosts_per_switch = 1\n[link]\n%s", link);
  unit_fabric_t f = unit_fabric(ini);
  const topo_t *t = &f.t;
  *sw_delay = *sw_div = *host_delay = *host_div = 0;
  for (uint32_t l = 0; l < t->nlinks; l++) {
    const topo_link_t *k = &t->links[l];
    int host = k->a >= t->nsw || k->b >= t->nsw;
    uint32_t *d = host ? host_delay : sw_delay, *v = host ? host_div : sw_div;
    if (*d == 0) *d = k->delay, *v = k->speed_div;
    assert_int_equal(k->delay, *d);    /* the same for every cable of its kind */
    assert_int_equal(k->speed_div, *v);
  }
  unit_fabric_free(&f);
}

static void test_topology_cable_delay_from_length(void **state) {
  (void)state;
  uint32_t d, k, hd, hk;
  /* 100 Gb/s: 5.12 ns a cycle. The default 2 m: 10 ns -> ceil(1.95) = 2. */
  line_delays("", &d, &k, &hd, &hk);
  assert_int_equal(d, 2);
  assert_int_equal(hd, 2);
  assert_int_equal(k, 1);
  assert_int_equal(hk, 1);
  /* 10.24 m: 51.2 ns, exactly 10 cycles: not rounded up to 11 */
  line_delays("cable_m = 10.24\n", &d, &k, &hd, &hk);
  assert_int_equal(d, 10);
  /* 10.25 m: 51.25 ns = 10.01 cycles -> 11 */
  line_delays("cable_m = 10.25\n", &d, &k, &hd, &hk);
  assert_int_equal(d, 11);
  /* 0 m: at least one cycle (SPEC §12.1) */
  line_delays("cable_m = 0\n", &d, &k, &hd, &hk);
  assert_int_equal(d, 1);
  assert_int_equal(hd, 1); /* host_cable_m follows cable_m */
  /* host cables of 100 m: 500 ns / 5.12 = 97.66 -> 98; the switch cable keeps 2 m */
  line_delays("host_cable_m = 100\n", &d, &k, &hd, &hk);
  assert_int_equal(d, 2);
  assert_int_equal(hd, 98);
}

static void test_topology_speed_div_from_the_fastest_link(void **state) {
  (void)state;
  uint32_t d, k, hd, hk;
  /* hosts at 25 of 100 Gb/s: speed_div 100 / 25 = 4; the cycle stays 5.12 ns */
  line_delays("host_speed_gbps = 25\n", &d, &k, &hd, &hk);
  assert_int_equal(k, 1);
  assert_int_equal(hk, 4);
  assert_int_equal(d, 2);
  /* hosts at 400: they are the fastest, one cycle is 512 / 400 = 1.28 ns; the switches' 100 Gb/s
     has speed_div 4 and their 2 m (10 ns) take ceil(7.81) = 8 cycles */
  line_delays("host_speed_gbps = 400\n", &d, &k, &hd, &hk);
  assert_int_equal(k, 4);
  assert_int_equal(hk, 1);
  assert_int_equal(d, 8);
  assert_int_equal(hd, 8);
}

/* topo_role_cables (the defaults that follow the links, scenario.c) describes the cables
   topo_build makes: the same peers, delays and dividers, per role. */
static void test_topology_role_cables_match_the_fabric(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric("[topology]\nkind = leaf_spine\nleaves = 2\nspines = 2\n"
                                "hosts_per_leaf = 2\nspine_links = 1\n"
                                "[link]\nhost_speed_gbps = 50\nhost_cable_m = 30\ncable_m = 7\n"
                                "[traffic]\npattern = sharp\nsrc = 0-3\nbytes = 65536\n");
  const topo_t *t = &f.t;
  for (uint32_t role = 0; role < 2; role++) {
    topo_cable_t c[TOPO_PEERS];
    uint32_t n = topo_role_cables(f.sc, role, c);
    assert_int_equal(n, role == 0 ? 3 : 2); /* leaf: host, switch, AE; spine: switch, AE */
    /* the AEs' 800 Gb/s is the fastest: 0.64 ns a cycle. Hosts: 150 ns = 234.4 -> 235 cycles,
       800 / 50 = 16; switches: 35 ns = 54.7 -> 55, 800 / 100 = 8; AE: 1 cycle, 1 */
    const topo_cable_t *sw = &c[role == 0 ? 1 : 0], *ae = &c[role == 0 ? 2 : 1];
    if (role == 0) {
      assert_int_equal(c[0].peer, TOPO_PEER_HOST);
      assert_int_equal(c[0].delay, 235);
      assert_int_equal(c[0].speed_div, 16);
    }
    assert_int_equal(sw->peer, TOPO_PEER_SWITCH);
    assert_int_equal(sw->delay, 55);
    assert_int_equal(sw->speed_div, 8);
    assert_int_equal(ae->peer, TOPO_PEER_AE);
    assert_int_equal(ae->delay, 1);
    assert_int_equal(ae->speed_div, 1);
    uint32_t found[TOPO_PEERS] = {0};
    for (uint32_t s = 0; s < t->nsw; s++) {
      if (t->role[s] != role) continue;
      for (uint32_t p = 0; p < t->nports[s]; p++) {
        const topo_link_t *k = unit_cable(t, s, p);
        uint32_t peer = k->a == s ? k->b : k->a;
        topo_peer_t kind = peer < t->nsw                ? TOPO_PEER_SWITCH
                           : peer < t->nsw + t->nhosts ? TOPO_PEER_HOST
                                                        : TOPO_PEER_AE;
        uint32_t i = 0;
        while (i < n && c[i].peer != kind) i++;
        assert_true(i < n); /* a kind of cable the role's list has */
        assert_int_equal(k->delay, c[i].delay);
        assert_int_equal(k->speed_div, c[i].speed_div);
        found[i]++;
      }
    }
    for (uint32_t i = 0; i < n; i++) assert_true(found[i] > 0); /* and no kind it lacks */
  }
  unit_fabric_free(&f);
}

/* ---- failed links ---- */

static uint32_t failed_count(const topo_t *t) {
  uint32_t n = 0;
  for (uint32_t l = 0; l < t->nlinks; l++) n += t->links[l].failed;
  return n;
}

/* leaf0-spine1 of a leaf-spine with 2 cables per pair: the first of them fails, not the second;
   topo_peer sees no cable at either end of the failed one. Named twice, both fail. */
static void test_topology_failed_links_marked(void **state) {
  (void)state;
  const char *base = "[topology]\nkind = leaf_spine\nleaves = 2\nspines = 2\nhosts_per_leaf = 1\n"
                     "spine_links = 2\nfailed_links = leaf0-spine1%s\n";
  char ini[256];
  snprintf(ini, sizeof ini, base, "");
  unit_fabric_t f = unit_fabric(ini);
  const topo_t *t = &f.t;
  assert_int_equal(failed_count(t), 1);
  /* leaf0 ports: h0 on 0, spine0 on 1 and 2, spine1 on 3 and 4 (H + j m + i) */
  const topo_link_t *k = unit_cable(t, 0, 3);
  assert_true(k->failed);
  uint32_t pp;
  assert_int_equal(topo_peer(t, 0, 3, &pp), -1);
  assert_int_equal(topo_peer(t, k->b, k->pb, &pp), -1); /* seen from spine1 too */
  assert_int_equal(topo_peer(t, 0, 4, &pp), node(t, "spine1")); /* the second cable works */
  uint32_t *comp = topo_components(t);
  assert_non_null(comp);
  for (uint32_t v = 0; v < t->nnodes; v++) assert_int_equal(comp[v], 0); /* still one part */
  free(comp);
  unit_fabric_free(&f);

  snprintf(ini, sizeof ini, base, ", spine1-leaf0"); /* either order names the pair */
  f = unit_fabric(ini);
  assert_int_equal(failed_count(&f.t), 2);
  assert_true(unit_cable(&f.t, 0, 3)->failed && unit_cable(&f.t, 0, 4)->failed);
  unit_fabric_free(&f);
}

/* A ring of 4 with sw0-sw1 and sw2-sw3 failed falls into {sw0, sw3, h0, h3} and
   {sw1, sw2, h1, h2}. */
static void test_topology_failed_links_split_the_ring(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric("[topology]\nkind = ring\nswitches = 4\nhosts_per_switch = 1\n"
                                "failed_links = sw0-sw1, sw3-sw2\n");
  const topo_t *t = &f.t;
  assert_int_equal(failed_count(t), 2);
  uint32_t *comp = topo_components(t);
  assert_non_null(comp);
  uint32_t h0 = t->nsw, h1 = t->nsw + 1, h2 = t->nsw + 2, h3 = t->nsw + 3;
  assert_int_equal(comp[0], comp[3]);
  assert_int_equal(comp[0], comp[h0]);
  assert_int_equal(comp[0], comp[h3]);
  assert_int_equal(comp[1], comp[2]);
  assert_int_equal(comp[1], comp[h1]);
  assert_int_equal(comp[1], comp[h2]);
  assert_int_not_equal(comp[0], comp[1]);
  free(comp);
  unit_fabric_free(&f);
}

/* A pair no cable joins, or named more often than cables join it: refused, naming the key. */
static void test_topology_failed_links_refused(void **state) {
  (void)state;
  const char *bad[] = {
      "[topology]\nkind = ring\nswitches = 4\nhosts_per_switch = 1\nfailed_links = sw0-sw2\n",
      "[topology]\nkind = ring\nswitches = 4\nhosts_per_switch = 1\nfailed_links = sw0-sw1, "
      "sw1-sw0\n",
      "[topology]\nkind = ring\nswitches = 4\nhosts_per_switch = 1\nfailed_links = sw0-sw9\n"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    lfc_scenario_t *sc = unit_scenario(bad[i]);
    topo_t t;
    char err[UNIT_ERR_LEN] = "";
    assert_int_equal(topo_build(sc, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "failed_links"));
    assert_non_null(strstr(err, "no such cable"));
    unit_scenario_free(sc);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_topology_star_counts),
      cmocka_unit_test(test_topology_line_counts_and_layout),
      cmocka_unit_test(test_topology_line_of_one_has_no_switch_ports),
      cmocka_unit_test(test_topology_ring_counts),
      cmocka_unit_test(test_topology_leaf_spine_counts_and_layout),
      cmocka_unit_test(test_topology_fat_tree_k4_counts),
      cmocka_unit_test(test_topology_fat_tree_k8_counts),
      cmocka_unit_test(test_topology_rail_counts_and_layout),
      cmocka_unit_test(test_topology_aggregation_engines),
      cmocka_unit_test(test_topology_names_round_trip),
      cmocka_unit_test(test_topology_find_refuses_other_names),
      cmocka_unit_test(test_topology_cable_delay_from_length),
      cmocka_unit_test(test_topology_speed_div_from_the_fastest_link),
      cmocka_unit_test(test_topology_role_cables_match_the_fabric),
      cmocka_unit_test(test_topology_failed_links_marked),
      cmocka_unit_test(test_topology_failed_links_split_the_ring),
      cmocka_unit_test(test_topology_failed_links_refused),
  };
  return cmocka_run_group_tests_name("sim topology", tests, NULL, NULL);
}
