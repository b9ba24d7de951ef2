/*
 * test_deadlock.c - the wait-for graph of sim/src/deadlock.c on wait-for situations set up by
 * hand.
 *
 * deadlock.h: a blocked queue Q (switch s, port p, class c) whose cable leads to switch n, in on
 * port pp and in class c2 after the cable's class map, waits for exactly the egress queues of n
 * that the packets n holds from (pp, c2) are routed to (routes.table[n][dst]), when those are
 * blocked too; a cycle of such waits present at every sample for deadlock_us is a deadlock.
 *
 * The fabric, its route tables and the scenario are real (topology.c, routing.c, scenario.c).
 * The detector reads them through the observer interface (observer.h), which this test fills
 * by hand, linked without engine.c: where each cable leads (topo_peer) with the class maps the
 * test puts on them, the route tables, and as the packets each switch holds a list the test
 * writes (HELD below), with the contract of engine.h sim_view: switch, input port, class after
 * the cable's class map, destination address. Which queues are blocked is the sampler's verdict,
 * passed in as an array, so every situation is exactly what the test says.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "deadlock.h"
#include "observer.h"
#include "routing.h"
#include "scenario.h"
#include "sim_unit.h"
#include "topology.h"

/* ---- what the switches hold: the stand-in for the engine's packet records ---- */

typedef struct {
  uint32_t sw, in_port, cls; /* cls: after the class map of the cable it came in on */
  uint16_t dst;
} held_t;

#define MAX_HELD 32u
static held_t HELD[MAX_HELD];
static uint32_t NHELD;

static void each_held(void *ctx, uint64_t at, sim_held_fn fn, void *fn_ctx) {
  (void)ctx;
  (void)at;
  for (uint32_t i = 0; i < NHELD; i++)
    fn(fn_ctx, HELD[i].sw, HELD[i].in_port, HELD[i].cls, HELD[i].dst);
}

static void hold(uint32_t sw, uint32_t in_port, uint32_t cls, uint16_t dst) {
  assert_true(NHELD < MAX_HELD);
  HELD[NHELD++] = (held_t){sw, in_port, cls, dst};
}

/* ---- a fabric to watch ---- */

/*
 * Ring of 4 switches, 1 host each (ports: 0 the host, 1 towards sw i-1, 2 towards sw i+1), each
 * host's flow routed clockwise two switches on (as ring_deadlock_*.ini): switch j sends the
 * addresses of h(j+1) and h(j+2) on clockwise, port 2. deadlock_us = 1: 1000 ns / 5.12 ns =
 * 195.3, so a cycle must persist 196 cycles.
 */
#define RING_INI                                                                        \
  "[sim]\ndeadlock_us = 1\nstop_on_deadlock = 1\n"                                      \
  "[topology]\nkind = ring\nswitches = 4\nhosts_per_switch = 1\n"                       \
  "[switch]\nclasses = 2\n"                                                             \
  "[routing]\npath = h0 sw0 sw1 sw2 h2\npath = h1 sw1 sw2 sw3 h3\npath = h2 sw2 sw3 sw0 h0\n" \
  "path = h3 sw3 sw0 sw1 h1\n"
#define PERSIST 196u
#define HOST_PORT 0u
#define LEFT 1u  /* in from sw i-1 */
#define RIGHT 2u /* out to sw i+1, clockwise */
#define T0 1000u /* the first sample looked at */

/* Line of 2 switches, 1 host each: sw0 port 2 is joined to sw1 port 1. */
#define LINE_INI                                                                  \
  "[sim]\ndeadlock_us = 1\n"                                                      \
  "[topology]\nkind = line\nswitches = 2\nhosts_per_switch = 1\n"

typedef struct {
  unit_fabric_t f;
  routes_t routes;
  uint8_t (*cmap)[LFC_MAX_CLASSES]; /* per switch port: the class map of its cable out */
  uint32_t stops;                   /* view.stop calls */
  deadlock_t dl;
  uint8_t *blocked;
} watch_t;

/* ---- the observer interface over the fixture ---- */

static int next_hop(void *ctx, uint32_t sw, uint32_t port, uint32_t cls, uint32_t *to,
                    uint32_t *to_port, uint32_t *to_cls) {
  const watch_t *w = ctx;
  int64_t n = topo_peer(&w->f.t, sw, port, to_port);
  if (n < 0 || n >= w->f.t.nsw) return 0;
  *to = (uint32_t)n;
  *to_cls = w->cmap[(size_t)sw * LFC_MAX_PORTS + port][cls];
  return 1;
}

static uint32_t route(void *ctx, uint32_t sw, uint16_t dst) {
  const watch_t *w = ctx;
  return dst < w->routes.len ? w->routes.table[sw][dst] : LFC_MAX_PORTS;
}

static void stop(void *ctx) { ((watch_t *)ctx)->stops++; }

static const char *name(void *ctx, uint32_t node, char *buf, size_t len) {
  return topo_name(&((const watch_t *)ctx)->f.t, node, buf, len);
}

static watch_t *watch_new(const char *ini) {
  watch_t *w = calloc(1, sizeof *w);
  char err[UNIT_ERR_LEN] = "";
  assert_non_null(w);
  w->f = unit_fabric(ini);
  if (routes_build(w->f.sc, &w->f.t, &w->routes, err, sizeof err) != 0)
    fail_msg("routes_build: %s", err);
  uint32_t nsw = w->f.t.nsw;
  w->cmap = malloc((size_t)nsw * LFC_MAX_PORTS * sizeof *w->cmap);
  assert_non_null(w->cmap);
  for (size_t i = 0; i < (size_t)nsw * LFC_MAX_PORTS; i++) /* no maps: every class as it is */
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++) w->cmap[i][c] = (uint8_t)c;
  const sim_view_t view = {w,    nsw,  w->f.sc->cycle_ns, next_hop,      route,
                           each_held, stop, name,             LFC_MAX_PORTS, LFC_MAX_CLASSES};
  if (deadlock_init(&w->dl, w->f.sc, &view, err, sizeof err) != 0)
    fail_msg("deadlock_init: %s", err);
  assert_int_equal(w->dl.persist, PERSIST);
  w->blocked = calloc(w->dl.nq, 1);
  assert_non_null(w->blocked);
  NHELD = 0;
  return w;
}

static void watch_free(watch_t *w) {
  deadlock_free(&w->dl);
  routes_free(&w->routes, w->f.t.nsw);
  free(w->cmap);
  free(w->blocked);
  unit_fabric_free(&w->f);
  free(w);
}

/* Class map on the cable out of (sw, port): class c arrives as map[c]. */
static void class_map(watch_t *w, uint32_t sw, uint32_t port, uint8_t c0, uint8_t c1) {
  uint8_t *map = w->cmap[(size_t)sw * LFC_MAX_PORTS + port];
  map[0] = c0;
  map[1] = c1;
}

static void block(watch_t *w, uint32_t sw, uint32_t port, uint32_t cls) {
  w->blocked[SIM_QIDX(&w->dl.view, sw, port, cls)] = 1;
}

static void unblock(watch_t *w, uint32_t sw, uint32_t port, uint32_t cls) {
  w->blocked[SIM_QIDX(&w->dl.view, sw, port, cls)] = 0;
}

/* The address of host h's first ECMP choice (routing.h: h x ways + choice). */
static uint16_t addr(const watch_t *w, uint32_t h) { return (uint16_t)(h * w->routes.ways); }

static void check(watch_t *w, uint64_t cycle) { deadlock_check(&w->dl, cycle, w->blocked); }

/* The watched cycle is `want` (n queues, each waiting for the next, the last for the first),
   from whichever of them the search started. */
static void assert_cycle(const deadlock_t *dl, const dl_queue_t *want, uint32_t n) {
  assert_int_equal(dl->ncyc, n);
  uint32_t j = 0;
  while (j < n && !(dl->cyc[j].sw == want[0].sw && dl->cyc[j].port == want[0].port &&
                    dl->cyc[j].cls == want[0].cls))
    j++;
  if (j == n) fail_msg("the cycle does not have queue sw%u p%u c%u", want[0].sw, want[0].port, want[0].cls);
  for (uint32_t i = 0; i < n; i++) {
    const dl_queue_t *got = &dl->cyc[(j + i) % n];
    if (got->sw != want[i].sw || got->port != want[i].port || got->cls != want[i].cls)
      fail_msg("queue %u of the cycle: sw%u p%u c%u, want sw%u p%u c%u", i, got->sw, got->port,
               got->cls, want[i].sw, want[i].port, want[i].cls);
  }
}

/* The four clockwise queues of class 0 blocked, and each switch holding, from its left
   neighbour, a packet it sends on clockwise: sw j holds one for h(j+2) (sw j's table sends h(j+1)
   and h(j+2) clockwise). */
static void ring_jam(watch_t *w) {
  for (uint32_t j = 0; j < 4; j++) {
    block(w, j, RIGHT, 0);
    hold(j, LEFT, 0, addr(w, (j + 2u) % 4u));
  }
}

static const dl_queue_t RING_CYCLE[4] = {{0, RIGHT, 0}, {1, RIGHT, 0}, {2, RIGHT, 0}, {3, RIGHT, 0}};

/* ---- the tests ---- */

/* A queue's routes in the fixture: the tables send what ring_jam holds clockwise. */
static void test_deadlock_fixture_routes(void **state) {
  (void)state;
  watch_t *w = watch_new(RING_INI);
  for (uint32_t j = 0; j < 4; j++) {
    assert_int_equal(w->routes.table[j][addr(w, (j + 1u) % 4u)], RIGHT);
    assert_int_equal(w->routes.table[j][addr(w, (j + 2u) % 4u)], RIGHT);
    assert_int_equal(w->routes.table[j][addr(w, j)], HOST_PORT);
  }
  watch_free(w);
}

/*
 * Cycle of 2 (as bounce routing leaves it): line of 2, sw0's queue to sw1 (port 2) and sw1's
 * queue to sw0 (port 1) blocked; sw1 holds from sw0 a packet for h0 (sw1 sends h0 by port 1)
 * and sw0 holds from sw1 one for h1 (by port 2). Found at the first sample, a deadlock once it
 * has lasted 196 cycles: not at T0 + 195, at T0 + 196, formed at T0.
 */
static void test_deadlock_cycle_of_two(void **state) {
  (void)state;
  watch_t *w = watch_new(LINE_INI);
  block(w, 0, 2, 0);
  block(w, 1, 1, 0);
  hold(1, 1, 0, addr(w, 0));
  hold(0, 2, 0, addr(w, 1));
  check(w, T0);
  static const dl_queue_t want[2] = {{0, 2, 0}, {1, 1, 0}};
  assert_cycle(&w->dl, want, 2);
  assert_int_equal(w->dl.first_seen, T0);
  assert_false(w->dl.found);
  check(w, T0 + PERSIST - 1u);
  assert_false(w->dl.found); /* 195 cycles: not yet */
  check(w, T0 + PERSIST);
  assert_true(w->dl.found);
  assert_int_equal(w->dl.found_cycle, T0);
  assert_int_equal(w->stops, 0); /* stop_on_deadlock not set in LINE_INI */
  watch_free(w);
}

/* Cycle of 4: the ring jammed clockwise. Another blocked queue (sw2's host port) is not part of
   it; with stop_on_deadlock the run is stopped. */
static void test_deadlock_cycle_of_four(void **state) {
  (void)state;
  watch_t *w = watch_new(RING_INI);
  ring_jam(w);
  block(w, 2, HOST_PORT, 0);
  check(w, T0);
  assert_cycle(&w->dl, RING_CYCLE, 4);
  check(w, T0 + PERSIST);
  assert_true(w->dl.found);
  assert_int_equal(w->dl.found_cycle, T0);
  assert_int_equal(w->stops, 1);
  watch_free(w);
}

/* A chain is no cycle: sw3's clockwise queue not blocked (sw0 -> sw1 -> sw2 -> sw3 ends there),
   or all four blocked but sw3 holding nothing from sw2 (sw2 waits for nothing). Never found,
   however long it lasts. */
static void test_deadlock_chain_not_reported(void **state) {
  (void)state;
  for (int variant = 0; variant < 2; variant++) {
    watch_t *w = watch_new(RING_INI);
    ring_jam(w);
    if (variant == 0)
      unblock(w, 3, RIGHT, 0);
    else
      NHELD--; /* ring_jam's last packet: sw3's, from sw2 */
    for (uint64_t t = T0; t <= T0 + 4u * PERSIST; t += PERSIST / 4u) {
      check(w, t);
      assert_int_equal(w->dl.ncyc, 0);
      assert_int_equal(w->dl.first_seen, DL_NONE);
    }
    assert_false(w->dl.found);
    watch_free(w);
  }
}

/*
 * The exact rule: every clockwise queue blocked, every host port blocked too, but what each
 * switch holds from its left neighbour is for its own host (sw j holds one for hj, sent by port
 * 0): each clockwise queue waits for the next switch's host queue, whose cable leads to no
 * switch, and no cycle forms (ring_mixed_hops.ini). One packet each for the next hop closes it.
 */
static void test_deadlock_waits_only_for_its_packets_routes(void **state) {
  (void)state;
  watch_t *w = watch_new(RING_INI);
  for (uint32_t j = 0; j < 4; j++) {
    block(w, j, RIGHT, 0);
    block(w, j, HOST_PORT, 0);
    hold(j, LEFT, 0, addr(w, j));
  }
  check(w, T0);
  assert_int_equal(w->dl.ncyc, 0);
  check(w, T0 + PERSIST);
  assert_false(w->dl.found);
  for (uint32_t j = 0; j < 4; j++) hold(j, LEFT, 0, addr(w, (j + 1u) % 4u)); /* clockwise */
  check(w, T0 + 2u * PERSIST);
  assert_cycle(&w->dl, RING_CYCLE, 4);
  watch_free(w);
}

/* A packet held in the other class of the same input does not make a wait: sw1 holds from sw0
   only class 1 packets, so sw0's class 0 queue waits for nothing. */
static void test_deadlock_other_class_no_wait(void **state) {
  (void)state;
  watch_t *w = watch_new(RING_INI);
  ring_jam(w);
  HELD[0 + 1].cls = 1; /* ring_jam's second packet: sw1's, from sw0 */
  block(w, 1, RIGHT, 1);
  check(w, T0);
  assert_int_equal(w->dl.ncyc, 0);
  watch_free(w);
}

/*
 * The detector follows the class maps ([classmap]). A dateline, sw3 -> sw0 = 1, 1: sw0 holds
 * what came from sw3 in class 1 and sends it on from its class 1 queue, which is not blocked:
 * no cycle although the four class 0 queues are. With a second map sw1 -> sw2 = 0, 0 putting
 * class 1 back on 0, the cycle (sw0 p2 c1, sw1 p2 c1, sw2 p2 c0, sw3 p2 c0) crosses both maps;
 * it is found only by following them (sw1's class 1 queue waits for sw2's class 0 input).
 */
static void test_deadlock_follows_class_maps(void **state) {
  (void)state;
  watch_t *w = watch_new(RING_INI);
  class_map(w, 3, RIGHT, 1, 1);
  ring_jam(w);
  HELD[0].cls = 1; /* ring_jam's first packet: sw0's, from sw3, arrived in class 1 */
  check(w, T0);
  assert_int_equal(w->dl.ncyc, 0);
  watch_free(w);

  w = watch_new(RING_INI);
  class_map(w, 3, RIGHT, 1, 1);
  class_map(w, 1, RIGHT, 0, 0);
  static const dl_queue_t want[4] = {{0, RIGHT, 1}, {1, RIGHT, 1}, {2, RIGHT, 0}, {3, RIGHT, 0}};
  for (uint32_t i = 0; i < 4; i++) block(w, want[i].sw, want[i].port, want[i].cls);
  hold(1, LEFT, 1, addr(w, 3)); /* from sw0's class 1 queue, no map: class 1 */
  hold(2, LEFT, 0, addr(w, 0)); /* from sw1's class 1 queue, mapped to 0 */
  hold(3, LEFT, 0, addr(w, 1));
  hold(0, LEFT, 1, addr(w, 2)); /* from sw3's class 0 queue, mapped to 1 */
  check(w, T0);
  assert_cycle(&w->dl, want, 4);
  watch_free(w);
}

/*
 * A deadlock is a cycle present at every sample for deadlock_us: one that breaks (a queue
 * unblocked at T0 + 100) starts again from where it re-forms (T0 + 150), and is reported
 * 196 cycles after that, as formed then.
 */
static void test_deadlock_must_persist(void **state) {
  (void)state;
  watch_t *w = watch_new(RING_INI);
  ring_jam(w);
  check(w, T0);
  assert_int_equal(w->dl.first_seen, T0);
  unblock(w, 1, RIGHT, 0);
  check(w, T0 + 100u);
  assert_int_equal(w->dl.first_seen, DL_NONE);
  block(w, 1, RIGHT, 0);
  check(w, T0 + 150u);
  assert_int_equal(w->dl.first_seen, T0 + 150u);
  check(w, T0 + PERSIST); /* 196 after T0, 46 after it re-formed */
  assert_false(w->dl.found);
  check(w, T0 + 150u + PERSIST - 1u);
  assert_false(w->dl.found);
  check(w, T0 + 150u + PERSIST);
  assert_true(w->dl.found);
  assert_int_equal(w->dl.found_cycle, T0 + 150u);
  /* nothing blocked at all: found stays (the report is made once) */
  memset(w->blocked, 0, w->dl.nq);
  check(w, T0 + 1000u);
  assert_true(w->dl.found);
  watch_free(w);
}

/* The cycle as Graphviz: one "waits for" edge per queue, sw j p2 c0 -> sw j+1 p2 c0. */
static void test_deadlock_dot(void **state) {
  (void)state;
  watch_t *w = watch_new(RING_INI);
  ring_jam(w);
  check(w, T0);
  check(w, T0 + PERSIST);
  assert_true(w->dl.found);
  char dir[] = "/tmp/test_deadlock.XXXXXX", path[64], err[UNIT_ERR_LEN] = "", text[1024];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/cycle.dot", dir);
  assert_int_equal(deadlock_dot(&w->dl, path, err, sizeof err), 0);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  size_t n = fread(text, 1, sizeof text - 1u, f);
  text[n] = '\0';
  fclose(f);
  unlink(path);
  rmdir(dir);
  for (uint32_t j = 0; j < 4; j++) {
    char edge[96];
    snprintf(edge, sizeof edge, "\"sw%u p2 c0\" -> \"sw%u p2 c0\" [label=\"waits for\"];", j,
             (j + 1u) % 4u);
    if (strstr(text, edge) == NULL) fail_msg("no edge %s in\n%s", edge, text);
  }
  assert_non_null(strstr(text, "formed at cycle 1000 (5.120 us)")); /* 1000 x 5.12 ns */
  watch_free(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_deadlock_fixture_routes),
      cmocka_unit_test(test_deadlock_cycle_of_two),
      cmocka_unit_test(test_deadlock_cycle_of_four),
      cmocka_unit_test(test_deadlock_chain_not_reported),
      cmocka_unit_test(test_deadlock_waits_only_for_its_packets_routes),
      cmocka_unit_test(test_deadlock_other_class_no_wait),
      cmocka_unit_test(test_deadlock_follows_class_maps),
      cmocka_unit_test(test_deadlock_must_persist),
      cmocka_unit_test(test_deadlock_dot),
  };
  return cmocka_run_group_tests_name("sim deadlock", tests, NULL, NULL);
}
