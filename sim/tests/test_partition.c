/*
 * test_partition.c - how sim/src/partition.c splits a fabric's devices into lanes (threads).
 *
 * partition.h promises contiguous runs of about equal weight (a node's ports) in an order that
 * keeps neighbours together. Checked here: every device gets exactly one lane, 0..nlanes-1;
 * every lane's ports are within one device's ports of total / nlanes (the bound partition.h
 * states, worked out there); the same fabric gives the same split, however often and in
 * whatever order it is asked; one lane holds everything; and on a k = 4 fat tree two lanes
 * take two whole pods each, so that only core cables cross between them (partition.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "partition.h"
#include "scenario.h"
#include "sim_unit.h"
#include "topology.h"

#define NO_LANE UINT32_MAX
#define MAX_LANES 16u

/* The split of f into nlanes lanes: lane[node], every entry set (checked). */
static uint32_t *split(const topo_t *t, uint32_t nlanes) {
  uint32_t *lane = malloc(t->nnodes * sizeof *lane);
  assert_non_null(lane);
  for (uint32_t v = 0; v < t->nnodes; v++) lane[v] = NO_LANE;
  assert_int_equal(partition_nodes(t, nlanes, lane), 0);
  for (uint32_t v = 0; v < t->nnodes; v++) assert_true(lane[v] < nlanes); /* one lane each */
  return lane;
}

/*
 * The bound of partition.h: lane l's ports W_l satisfy |N W_l - T| <= N w_max (T all ports, N
 * lanes, w_max the most ports of one device). Also the lanes' ports add up to T (no device
 * counted twice or left out).
 */
static void check_balance(const topo_t *t, uint32_t nlanes) {
  uint32_t *lane = split(t, nlanes);
  uint64_t w[MAX_LANES] = {0}, total = 0, wmax = 0;
  for (uint32_t v = 0; v < t->nnodes; v++) {
    w[lane[v]] += t->nports[v];
    total += t->nports[v];
    if (t->nports[v] > wmax) wmax = t->nports[v];
  }
  uint64_t sum = 0;
  for (uint32_t l = 0; l < nlanes; l++) {
    sum += w[l];
    uint64_t nw = (uint64_t)nlanes * w[l];
    uint64_t off = nw > total ? nw - total : total - nw;
    if (off > (uint64_t)nlanes * wmax)
      fail_msg("%u lanes: lane %u has %llu of %llu ports; allowed %llu / %u +- %llu", nlanes, l,
               (unsigned long long)w[l], (unsigned long long)total, (unsigned long long)total,
               nlanes, (unsigned long long)wmax);
  }
  assert_int_equal(sum, total);
  free(lane);
}

static const char *const FABRICS[] = {
    "[topology]\nkind = fat_tree\nk = 4\n",
    "[topology]\nkind = fat_tree\nk = 8\n",
    "[topology]\nkind = leaf_spine\nleaves = 6\nspines = 3\nhosts_per_leaf = 5\nspine_links = 2\n",
    "[topology]\nkind = ring\nswitches = 9\nhosts_per_switch = 2\n",
    "[topology]\nkind = rail\nrails = 4\nservers = 5\nspines = 2\n",
    "[topology]\nkind = star\nhosts_per_switch = 3\n",
    "[topology]\nkind = leaf_spine\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n"
    "[traffic]\npattern = sharp\nsrc = 0-3\nbytes = 65536\n",
    /* a line cut in three: parts that reach each other over no cable */
    "[topology]\nkind = line\nswitches = 3\nhosts_per_switch = 1\nfailed_links = sw0-sw1, "
    "sw1-sw2\n",
    /* a device no endpoint reaches: spine1 with both its cables failed (partition.c puts it
       last) */
    "[topology]\nkind = leaf_spine\nleaves = 2\nspines = 2\nhosts_per_leaf = 1\n"
    "failed_links = leaf0-spine1, leaf1-spine1\n",
};

/* Every fabric, 1 to 16 lanes (more lanes than the star's 4 devices too). */
static void test_partition_every_device_one_lane_balanced(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof FABRICS / sizeof FABRICS[0]; i++) {
    unit_fabric_t f = unit_fabric(FABRICS[i]);
    for (uint32_t n = 1; n <= MAX_LANES; n++) check_balance(&f.t, n);
    unit_fabric_free(&f);
  }
}

/* k = 4: 16 hosts of 1 port, 20 switches of 4: T = 96; 2 lanes of 48 each (in the order hosts,
   edges and aggs of pods 0-1 (8 + 16 + 16 = 40), then the 4 cores at the middle, 2 of them
   (8) before it: no device straddles 48). */
static void test_partition_fat_tree_k4_exact_halves(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric(FABRICS[0]);
  uint32_t *lane = split(&f.t, 2), w[2] = {0};
  for (uint32_t v = 0; v < f.t.nnodes; v++) w[lane[v]] += f.t.nports[v];
  assert_int_equal(w[0], 48);
  assert_int_equal(w[1], 48);
  assert_int_equal(lane[f.t.nsw - 4], 0); /* core0 and core1 in lane 0 */
  assert_int_equal(lane[f.t.nsw - 3], 0);
  assert_int_equal(lane[f.t.nsw - 2], 1); /* core2 and core3 in lane 1 */
  assert_int_equal(lane[f.t.nsw - 1], 1);
  free(lane);
  unit_fabric_free(&f);
}

/*
 * k = 4, 2 lanes: pods stay whole (every host-edge and edge-agg cable within one lane) and the
 * only cables between lanes are core cables: each core has one cable to each of the 4 pods, 2
 * of them into the other lane's pods: 4 cores x 2 = 8 of the 48 cables cross.
 */
static void test_partition_fat_tree_pods_whole(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric(FABRICS[0]);
  const topo_t *t = &f.t;
  uint32_t *lane = split(t, 2), crossing = 0;
  for (uint32_t l = 0; l < t->nlinks; l++) {
    const topo_link_t *k = &t->links[l];
    if (lane[k->a] == lane[k->b]) continue;
    crossing++;
    int core = (k->a < t->nsw && t->role[k->a] == 2) || (k->b < t->nsw && t->role[k->b] == 2);
    assert_true(core); /* only a core cable crosses */
  }
  assert_int_equal(crossing, 8);
  for (uint32_t pod = 0; pod < 4; pod++) /* hosts 4 pod .. 4 pod + 3 in one lane */
    for (uint32_t h = 1; h < 4; h++)
      assert_int_equal(lane[t->nsw + 4 * pod + h], lane[t->nsw + 4 * pod]);
  assert_int_not_equal(lane[t->nsw + 0], lane[t->nsw + 15]); /* the first and last pod apart */
  free(lane);
  unit_fabric_free(&f);
}

/* The same fabric, the same split: twice in a row, after other splits, and from a fabric built
   again from the same text. */
static void test_partition_deterministic(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof FABRICS / sizeof FABRICS[0]; i++) {
    unit_fabric_t f = unit_fabric(FABRICS[i]), g = unit_fabric(FABRICS[i]);
    for (uint32_t n = 1; n <= MAX_LANES; n++) {
      uint32_t *a = split(&f.t, n), *other = split(&f.t, MAX_LANES + 1u - n);
      uint32_t *b = split(&f.t, n), *c = split(&g.t, n);
      assert_memory_equal(a, b, f.t.nnodes * sizeof *a);
      assert_memory_equal(a, c, f.t.nnodes * sizeof *a);
      free(a);
      free(b);
      free(c);
      free(other);
    }
    unit_fabric_free(&f);
    unit_fabric_free(&g);
  }
}

/* One lane: every device in lane 0. */
static void test_partition_one_lane_holds_all(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof FABRICS / sizeof FABRICS[0]; i++) {
    unit_fabric_t f = unit_fabric(FABRICS[i]);
    uint32_t *lane = split(&f.t, 1);
    for (uint32_t v = 0; v < f.t.nnodes; v++) assert_int_equal(lane[v], 0);
    free(lane);
    unit_fabric_free(&f);
  }
}

/* Runs are contiguous in the order partition.c gives the endpoints: endpoint i's lane never
   decreases with i on fabrics whose switches all have endpoints below them in that order
   (a ring of 9 cut into 3 lanes: hosts 0-5, 6-11, 12-17 in lanes 0, 1, 2). */
static void test_partition_ring_lanes_in_host_order(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric(FABRICS[3]);
  const topo_t *t = &f.t;
  uint32_t *lane = split(t, 3);
  /* 9 switches of 4 ports, 18 hosts: T = 54, 18 a lane; sw i sits at its hosts' mean 2i + 0.5 */
  for (uint32_t h = 0; h < t->nhosts; h++) assert_int_equal(lane[t->nsw + h], h / 6u);
  for (uint32_t s = 0; s < t->nsw; s++) assert_int_equal(lane[s], s / 3u);
  free(lane);
  unit_fabric_free(&f);
}

/*
 * A device goes to the lane its middle falls in. Line of 2 switches of 4 hosts: switches of 6
 * ports, hosts of 1, T = 20. In order (positions: host i at i, sw0 at 1.5, sw1 at 5.5): h0
 * [0,1), h1 [1,2), sw0 [2,8), h2..h5 [8,12), sw1 [12,18), h6 [18,19), h7 [19,20). Three lanes
 * of 20/3 = 6.67: sw0's middle 5 is in lane 0, h2..h5 (8.5..11.5) in lane 1, sw1's middle 15 in
 * lane 2: ports 8, 4, 8. (Cut at the devices' starts instead, sw1 at 12 would fall in lane 1:
 * 8, 10, 2.)
 */
static void test_partition_device_goes_where_its_middle_is(void **state) {
  (void)state;
  unit_fabric_t f = unit_fabric("[topology]\nkind = line\nswitches = 2\nhosts_per_switch = 4\n");
  const topo_t *t = &f.t;
  uint32_t *lane = split(t, 3);
  static const uint32_t want_host[8] = {0, 0, 1, 1, 1, 1, 2, 2};
  assert_int_equal(lane[0], 0); /* sw0 */
  assert_int_equal(lane[1], 2); /* sw1 */
  for (uint32_t h = 0; h < 8; h++) assert_int_equal(lane[t->nsw + h], want_host[h]);
  free(lane);
  unit_fabric_free(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_partition_every_device_one_lane_balanced),
      cmocka_unit_test(test_partition_fat_tree_k4_exact_halves),
      cmocka_unit_test(test_partition_fat_tree_pods_whole),
      cmocka_unit_test(test_partition_deterministic),
      cmocka_unit_test(test_partition_one_lane_holds_all),
      cmocka_unit_test(test_partition_ring_lanes_in_host_order),
      cmocka_unit_test(test_partition_device_goes_where_its_middle_is),
  };
  return cmocka_run_group_tests_name("sim partition", tests, NULL, NULL);
}
