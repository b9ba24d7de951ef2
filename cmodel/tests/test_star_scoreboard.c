/*
 * test_star_scoreboard.c - the star testbed's scoreboard (lfc/star.h) with ECN marking and
 * drops: "delivered packets must arrive once, unmodified but for ECN marking" (an ECT packet the
 * switch marked CE, SPEC §9, is not an error), and "every packet the sources created is exactly
 * one of: waiting in a node, in flight, delivered, or dropped (with a counted cause)": after the
 * sources stop and the fabric drains, created = delivered + dropped, and dropped is the sum of
 * the drop counters of the switch and the nodes (drops at the switch and at the nodes).
 */
#include "testutil.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "lfc/star.h"

/* The out-of-memory test lowers RLIMIT_AS, which AddressSanitizer's shadow memory and valgrind
 * do not keep to (as test_alloc.c): skipped under both. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LFC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LFC_ASAN 1
#endif
#endif

enum {
  PORTS = 4,
  CLASSES = 2,
  SEND_CYCLES = 20000,
  DRAIN_CYCLES = 30000,
};

/* Drops counted by the switch (every cause, every class) and by the end nodes. */
static uint64_t counted_drops(lfc_star_t *st) {
  uint64_t n = 0;
  lfc_switch_t *sw = lfc_star_switch(st);
  for (uint32_t p = 0; p < PORTS; p++) {
    const lfc_port_stats_t *s = lfc_switch_stats(sw, p);
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++)
      for (int k = 0; k < LFC_DROP_CAUSES; k++) n += s->cls[c].drop_pkts[k];
    const lfc_nic_stats_t *ns = lfc_nic_stats(lfc_star_nic(st, p));
    for (int k = 0; k < LFC_DROP_CAUSES; k++) n += ns->drop_pkts[k];
  }
  return n;
}

static uint64_t ecn_marks(lfc_star_t *st) {
  uint64_t n = 0;
  for (uint32_t p = 0; p < PORTS; p++)
    for (uint32_t c = 0; c < LFC_MAX_CLASSES; c++)
      n += lfc_switch_stats(lfc_star_switch(st), p)->cls[c].ecn_mark;
  return n;
}

/* A star testbed of c, run for cycles; fails the test if it cannot be built or its scoreboard
 * found an error (out of order, duplicated, lost). The caller destroys it. */
static lfc_star_t *run_star(const lfc_star_cfg_t *c, uint64_t cycles) {
  char err[256] = "";
  lfc_star_t *st = lfc_star_create(c, err, sizeof err);
  if (st == NULL) fail_msg("lfc_star_create: %s", err);
  lfc_star_run(st, cycles);
  if (lfc_star_score(st)->errors != 0) fail_msg("scoreboard: %s", lfc_star_error(st));
  return st;
}

/* An incast of ECT traffic into a switch that marks early (SPEC §9) and, on the lossy class,
 * drops: no scoreboard error, marks and drops happened, and every packet is accounted for. */
static void test_incast_with_ecn_marks_and_drops_accounted(void **state) {
  (void)state;
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, PORTS, CLASSES);
  c.sw.lossless_mask = 0x1; /* class 1 lossy: it drops */
  c.sw.ecn_mask = 0x3;
  c.sw.kmin = 4;
  c.sw.kmax = 40;
  c.sw.pmax = 65536; /* mark with certainty above kmax */
  c.sw.shared_blocks = 400;
  c.traffic.pattern = LFC_TRAFFIC_INCAST;
  c.traffic.incast_dst = 0;
  c.traffic.load_permille = 900;
  c.traffic.min_nblk = 1;
  c.traffic.max_nblk = 8;
  c.traffic.class_mask = 0x3;
  c.traffic.ecn_capable_pct = 100;
  c.traffic.stop_cycle = SEND_CYCLES;
  c.traffic.seed = 42;
  lfc_star_t *st = run_star(&c, SEND_CYCLES + DRAIN_CYCLES);
  const lfc_score_t *s = lfc_star_score(st);
  assert_string_equal(lfc_star_error(st), "");
  assert_true(ecn_marks(st) > 100u);
  assert_true(s->dropped > 0u);
  assert_true(s->delivered > 1000u);
  assert_int_equal(s->created, s->delivered + s->dropped);
  assert_int_equal(s->dropped, counted_drops(st));
  lfc_star_destroy(st);
}

/* The same in IB mode (credits: lossless, no marks, no drops): everything is delivered. */
static void test_ib_incast_everything_delivered(void **state) {
  (void)state;
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_IB, PORTS, CLASSES);
  c.traffic.pattern = LFC_TRAFFIC_INCAST;
  c.traffic.load_permille = 500; /* 1.5 times what port 0 can take: credits hold it back */
  c.traffic.max_nblk = 8;
  c.traffic.class_mask = 0x3;
  c.traffic.stop_cycle = SEND_CYCLES;
  c.traffic.seed = 43;
  lfc_star_t *st = run_star(&c, SEND_CYCLES + 2u * DRAIN_CYCLES);
  const lfc_score_t *s = lfc_star_score(st);
  assert_true(s->created > 1000u);
  assert_int_equal(s->dropped, 0);
  assert_int_equal(counted_drops(st), 0);
  assert_int_equal(s->created, s->delivered);
  lfc_star_destroy(st);
}

/* lfc/star.h: latency is counted from the cycle the source node sends a packet's first block to
 * the cycle its first block is received. At a load far below any port's rate (1 % of one-block
 * packets, uniform) nothing waits, so every packet takes the path alone: two links of
 * LINK_DELAY and the switch, a few cycles whenever in the run it was sent. */
static void test_latency_at_low_load_is_the_path(void **state) {
  (void)state;
  enum { LINK_DELAY = 3, LOW_LOAD = 10, RUN = 5000, PATH_BOUND = 4 * LINK_DELAY + 8 };
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, PORTS, CLASSES);
  c.link_delay = LINK_DELAY;
  c.traffic.pattern = LFC_TRAFFIC_UNIFORM;
  c.traffic.load_permille = LOW_LOAD;
  c.traffic.min_nblk = c.traffic.max_nblk = 1;
  c.traffic.stop_cycle = RUN - 1000u;
  c.traffic.seed = 47;
  lfc_star_t *st = run_star(&c, RUN);
  const lfc_score_t *s = lfc_star_score(st);
  assert_true(s->delivered > 100u);
  assert_int_equal(s->created, s->delivered);
  assert_true(s->latency_max >= 2u * LINK_DELAY && s->latency_max <= PATH_BOUND);
  assert_true(s->latency_sum >= s->delivered * 2u * LINK_DELAY);
  assert_true(s->latency_sum <= s->delivered * s->latency_max);
  lfc_star_destroy(st);
}

/* End nodes with a small receive buffer and almost no headroom above their XOFF threshold drop
 * packets themselves (SPEC §12.2, cause HEADROOM at the node): those count as dropped too. */
static void test_node_drops_accounted(void **state) {
  (void)state;
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, PORTS, CLASSES);
  c.nic.mtu_blocks = 8;
  c.nic.rx_blocks = 20;
  c.nic.rx_xoff = 19; /* one block of headroom: what is in flight when XOFF goes out is lost */
  c.nic.rx_xon = 10;
  c.nic.drain_div = 3;
  c.nic.pause_quanta = 100;
  c.nic.refresh_cycles = 50;
  c.link_delay = 5;
  c.traffic.pattern = LFC_TRAFFIC_UNIFORM;
  c.traffic.load_permille = 800;
  c.traffic.max_nblk = 8;
  c.traffic.class_mask = 0x3;
  c.traffic.stop_cycle = SEND_CYCLES;
  c.traffic.seed = 44;
  lfc_star_t *st = run_star(&c, SEND_CYCLES + 2u * DRAIN_CYCLES);
  const lfc_score_t *s = lfc_star_score(st);
  uint64_t node_drops = 0;
  for (uint32_t p = 0; p < PORTS; p++)
    node_drops += lfc_nic_stats(lfc_star_nic(st, p))->drop_pkts[LFC_DROP_HEADROOM];
  assert_true(node_drops > 10u);
  assert_true(s->delivered > 1000u);
  assert_int_equal(s->created, s->delivered + s->dropped);
  assert_int_equal(s->dropped, counted_drops(st));
  lfc_star_destroy(st);
}

/* A deep shared pool and an incast of one-block packets: each source has thousands of packets
 * outstanding at once (far more than the scoreboard's first window, which then grows), and
 * after the drain every one is accounted for, in order, none lost. */
static void test_deep_buffer_many_outstanding(void **state) {
  (void)state;
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, PORTS, 1);
  c.sw.lossless_mask = 0;   /* lossy: no pauses hold the sources back */
  c.sw.dynamic_th = false;
  c.sw.shared_blocks = 60000;
  c.sw.xoff_th = 60000;     /* one PG may take the whole pool */
  c.traffic.pattern = LFC_TRAFFIC_INCAST;
  c.traffic.load_permille = 1000;
  c.traffic.min_nblk = 1;
  c.traffic.max_nblk = 1;
  c.traffic.stop_cycle = 15000; /* 3 senders into one port: the backlog grows 2 blocks/cycle */
  c.traffic.seed = 45;
  lfc_star_t *st = run_star(&c, 15000u + 40000u);
  const lfc_score_t *s = lfc_star_score(st);
  assert_true(s->max_buffered_blocks > 3u * 4096u); /* > 4096 per source at the peak */
  assert_int_equal(s->dropped, 0);
  assert_int_equal(s->created, s->delivered);
  lfc_star_destroy(st);
}

/* lfc/star.h: a packet the sources did not create is a scoreboard error ("unknown tags"), and
 * lfc_star_error gives the first error as text: the cycle, where it was seen, the tag. A node
 * is handed a stray packet (source PORTS in the tag's top byte, one past the last node) on an
 * almost idle testbed: it is an error where the node sends it, again where the switch receives
 * it and so on, and the text stays that of the first. */
static void test_stray_packet_is_a_scoreboard_error(void **state) {
  (void)state;
  enum { STRAY_TAG = (uint32_t)PORTS << 24, FROM = 1, TO = 2, RUN_CYCLES = 200 };
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, PORTS, CLASSES);
  c.traffic.stop_cycle = 1; /* the sources' packets of cycle 0 only */
  char err[256] = "";
  lfc_star_t *st = lfc_star_create(&c, err, sizeof err);
  if (st == NULL) fail_msg("lfc_star_create: %s", err);
  const lfc_pkt_t stray = {
      .cls = 0, .nblk = 2, .ecn = LFC_ECN_NOT_ECT, .dst = TO, .tag = STRAY_TAG};
  /* lfc_star_nic: node p of ports 0..PORTS-1, NULL past the last (star.c) */
  for (uint32_t p = 0; p < PORTS; p++) assert_non_null(lfc_star_nic(st, p));
  assert_null(lfc_star_nic(st, PORTS));
  assert_null(lfc_star_nic(st, UINT32_MAX));
  assert_int_equal(lfc_nic_send(lfc_star_nic(st, FROM), &stray), 0);
  lfc_star_run(st, RUN_CYCLES);
  const lfc_score_t *s = lfc_star_score(st);
  assert_int_equal(s->delivered, s->created); /* the stray one is not counted */
  assert_true(s->errors >= 2u); /* seen leaving its node, then again on the way */
  /* Queued before the first step, it leaves its node in cycle 0. */
  assert_string_equal(lfc_star_error(st),
                      "cycle 0: node output: tag 0x04000000 belongs to no packet outstanding "
                      "(already delivered or dropped, or never sent)");
  lfc_star_destroy(st);
}

#ifndef LFC_ASAN
/* This process's address-space size in bytes (/proc/self/statm, first field, in pages). */
static unsigned long long vm_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  if (f == NULL) return 0;
  if (fscanf(f, "%llu", &pages) != 1) pages = 0;
  fclose(f);
  return pages * 4096u;
}
#endif

/* lfc/star.h: "every packet the sources created is exactly one of: waiting, in flight,
 * delivered, or dropped", also when the scoreboard cannot grow its record of a source's
 * outstanding packets: the packet it cannot record is not created (an error says "out of
 * memory for the scoreboard"), none is recorded over another. The incast of
 * test_deep_buffer_many_outstanding, with the address space held to a little above its use
 * while the backlog grows (the records outgrow their first allocations), then given back for
 * the drain: created = delivered, and every error is the out-of-memory one. */
static void test_scoreboard_out_of_memory_creates_nothing(void **state) {
  (void)state;
#ifdef LFC_ASAN
  skip();
#else
  enum { MARGIN_BYTES = 64 << 10, SEND = 30000, DRAIN = 60000, STEP = 1000 };
  if (RUNNING_ON_VALGRIND) skip();
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, PORTS, 1);
  c.sw.lossless_mask = 0;
  c.sw.dynamic_th = false;
  c.sw.shared_blocks = 60000;
  c.sw.xoff_th = 60000;
  c.traffic.pattern = LFC_TRAFFIC_INCAST;
  c.traffic.load_permille = 1000;
  c.traffic.min_nblk = 1;
  c.traffic.max_nblk = 1;
  c.traffic.stop_cycle = SEND;
  c.traffic.seed = 46;
  char err[256] = "";
  lfc_star_t *st = lfc_star_create(&c, err, sizeof err);
  if (st == NULL) fail_msg("lfc_star_create: %s", err);
  struct rlimit old, lim;
  assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
  lim = old;
  lim.rlim_cur = (rlim_t)(vm_bytes() + MARGIN_BYTES);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur) {
    lfc_star_destroy(st);
    skip(); /* already lower */
  }
  assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
  for (uint32_t t = 0; t < SEND && lfc_star_score(st)->errors == 0; t += STEP)
    lfc_star_run(st, STEP);
  uint64_t at = lfc_star_cycle(st);
  assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
  const lfc_score_t *s = lfc_star_score(st);
  if (s->errors == 0) { /* the allocator found room after all: nothing to test here */
    lfc_star_destroy(st);
    skip();
  }
  uint64_t oom_errors = s->errors;
  lfc_star_run(st, SEND + DRAIN - at);
  char want[64];
  snprintf(want, sizeof want, ": out of memory for the scoreboard");
  if (strstr(lfc_star_error(st), want) == NULL)
    fail_msg("expected the first error to be '...%s', got '%s'", want, lfc_star_error(st));
  assert_int_equal(s->errors, oom_errors); /* nothing else went wrong after */
  assert_true(s->created > 3u * 4096u);
  assert_int_equal(s->dropped, 0);
  assert_int_equal(s->created, s->delivered);
  lfc_star_destroy(st);
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_incast_with_ecn_marks_and_drops_accounted),
      cmocka_unit_test(test_ib_incast_everything_delivered),
      cmocka_unit_test(test_node_drops_accounted),
      cmocka_unit_test(test_latency_at_low_load_is_the_path),
      cmocka_unit_test(test_deep_buffer_many_outstanding),
      cmocka_unit_test(test_stray_packet_is_a_scoreboard_error),
      cmocka_unit_test(test_scoreboard_out_of_memory_creates_nothing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
