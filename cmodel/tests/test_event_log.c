/*
 * test_event_log.c - the events of lfc_switch_events (lfc/switch.h) under random traffic
 * that produces every kind: each event names a port and class that exist, a drop names a cause
 * and the tag of a packet that arrived, an ECN mark the tag of a packet that left, and the other
 * kinds carry no cause and no tag (0, so that a consumer comparing events field by field, as the
 * golden traces and the co-simulation do, sees only what the kind defines; rx_malformed, a
 * port's event, carries class 0 too); the events of a cycle come in the documented order: by
 * kind, then port, then class. And the event log is never cut short in silence: a push beyond
 * its capacity stops the model (an assertion).
 */

#include "testutil.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
/* White box: the capacity of the event log and the push the step's parts use. */
#include "../src/lfc_internal.h"

enum { PORTS = 4, CLASSES = 2, CYCLES = 20000, MAX_TAGS = 1 << 16 };

static void run(lfc_wd_action_t action, uint32_t seed) {
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, PORTS, CLASSES);
  c.mtu_blocks = 4;
  c.lossless_mask = 0x1;
  c.reserve_blocks = 2;
  c.shared_blocks = 40;
  c.headroom_blocks = 16;
  c.xoff_th = 8;
  c.ecn_mask = 0x3;
  c.kmin = 2;
  c.kmax = 10;
  c.wd_enable = true;
  c.wd_detect = 50;
  c.wd_restore = 30;
  c.wd_action = action;
  for (uint32_t k = 0; k < CLASSES; k++) c.drr_quantum[k] = 4;
  char err[256] = "";
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  if (sw == NULL) fail_msg("lfc_switch_create: %s", err);
  static uint8_t arrived[MAX_TAGS], left_sw[MAX_TAGS];
  memset(arrived, 0, sizeof arrived);
  memset(left_sw, 0, sizeof left_sw);
  uint32_t s = seed, left[PORTS] = {0}, tag = 1;
  lfc_word_t cur[PORTS], in[PORTS], out[PORTS];
  memset(cur, 0, sizeof cur);
  uint32_t kinds = 0;
  for (uint32_t t = 0; t < CYCLES && tag < MAX_TAGS - PORTS; t++) {
    memset(in, 0, sizeof in);
    for (uint32_t p = 0; p < PORTS; p++) {
      if (left[p] > 0) {
        in[p] = cur[p];
        in[p].sop = 0;
        in[p].eop = left[p] == 1;
        left[p]--;
        continue;
      }
      uint32_t r = tu_rand(&s) % 100;
      if (r < 4) { /* pause frames, long ones too: storms for the watchdog */
        in[p].kind = LFC_PFC;
        in[p].pfc_en = (uint8_t)(tu_rand(&s) & 3u);
        for (uint32_t k = 0; k < CLASSES; k++)
          in[p].pfc_time[k] = (uint16_t)(tu_rand(&s) % 3 == 0 ? 0 : tu_rand(&s) % 200);
      } else if (r < 60) {
        uint32_t n = tu_rand(&s) % 16 == 0 ? 0u : 1u + tu_rand(&s) % 4; /* some malformed */
        in[p] = tu_data_word(tu_rand(&s) % 24 != 0, n <= 1u, tu_rand(&s) % CLASSES, n,
                             p == 0 ? 1u : 0u, tag, 1u + tu_rand(&s) % 2u);
        arrived[tag] = 1;
        tag++;
        cur[p] = in[p];
        if (in[p].sop && n > 1u) left[p] = n - 1u;
      }
    }
    lfc_switch_step(sw, in, out);
    for (uint32_t p = 0; p < PORTS; p++)
      if (out[p].kind == LFC_DATA && out[p].sop && out[p].tag < MAX_TAGS) left_sw[out[p].tag] = 1;
    const lfc_event_t *ev;
    size_t n = lfc_switch_events(sw, &ev);
    for (size_t i = 0; i < n; i++) {
      const lfc_event_t *e = &ev[i];
      kinds |= 1u << e->kind;
      if (e->kind >= LFC_EV_KINDS || e->port >= PORTS || e->cls >= CLASSES)
        fail_msg("cycle %u event %zu: kind %u port %u cls %u out of range", t, i, e->kind,
                 e->port, e->cls);
      if (i > 0) {
        const lfc_event_t *d = &ev[i - 1];
        uint32_t a = (uint32_t)d->kind << 16 | (uint32_t)d->port << 8 | d->cls;
        uint32_t b = (uint32_t)e->kind << 16 | (uint32_t)e->port << 8 | e->cls;
        if (a > b) fail_msg("cycle %u: events %zu and %zu out of order", t, i - 1, i);
      }
      switch (e->kind) {
        case LFC_EV_DROP:
          assert_true(e->cause < LFC_DROP_CAUSES);
          if (e->tag == 0 || e->tag >= MAX_TAGS || !arrived[e->tag])
            fail_msg("cycle %u: a drop of tag %u, which never arrived", t, e->tag);
          break;
        case LFC_EV_ECN_MARK:
          assert_int_equal(e->cause, 0);
          if (e->tag >= MAX_TAGS || !left_sw[e->tag])
            fail_msg("cycle %u: an ECN mark of tag %u, which did not leave", t, e->tag);
          break;
        case LFC_EV_RX_MALFORMED: /* a port's event (SPEC §13: one stat bit per port) */
          if (e->cls != 0 || e->cause != 0 || e->tag != 0)
            fail_msg("cycle %u: rx_malformed carries cls %u cause %u tag %u", t, e->cls,
                     e->cause, e->tag);
          break;
        default:
          if (e->cause != 0 || e->tag != 0)
            fail_msg("cycle %u: event kind %u carries cause %u tag %u", t, e->kind, e->cause,
                     e->tag);
      }
    }
  }
  /* Every kind happened (rx_malformed: stray blocks; drops of several causes). */
  assert_int_equal(kinds, (1u << LFC_EV_KINDS) - 1u);
  lfc_switch_destroy(sw);
}

static void test_event_fields_drop_action(void **state) {
  (void)state;
  run(LFC_WD_DROP, 0xE7E7u);
}

static void test_event_fields_forward_action(void **state) {
  (void)state;
  run(LFC_WD_FORWARD, 0x7E7Eu);
}

/*
 * SPEC §10, §13: the events of a cycle correspond one to one to the RTL's stat_* pulses, so an
 * event must never be lost. The log holds the most a cycle can produce; it fills to exactly its
 * capacity, and a push beyond it stops the model (assert) rather than dropping the event. In a
 * child process, since the expected outcome is an abort.
 */
static void test_event_log_full_stops_the_model(void **state) {
  (void)state;
#ifdef NDEBUG
  skip(); /* the assertion is compiled out */
#else
  lfc_switch_cfg_t c;
  tu_cfg_pfc(&c, PORTS, CLASSES);
  char err[256] = "";
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  if (sw == NULL) fail_msg("lfc_switch_create: %s", err);
  size_t cap = sw->events.cap;
  assert_true(cap >= (size_t)PORTS * (1u + CLASSES));
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) { /* exit 0: full log as expected and the push beyond it returned */
    if (freopen("/dev/null", "w", stderr) == NULL) _exit(3);
    for (size_t i = 0; i < cap; i++)
      lfc_event_push(&sw->events, LFC_EV_DROP, (uint32_t)(i % PORTS), 0, LFC_DROP_SHARED, (uint32_t)i);
    const lfc_event_t *ev;
    if (lfc_switch_events(sw, &ev) != cap || ev[cap - 1].tag != (uint32_t)(cap - 1)) _exit(2);
    lfc_event_push(&sw->events, LFC_EV_DROP, 0, 0, LFC_DROP_SHARED, 0xFFFFu);
    _exit(0);
  }
  int st = 0;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  lfc_switch_destroy(sw);
  if (!(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT))
    fail_msg("a push beyond the %zu events of the log: expected an abort, got %s %d", cap,
             WIFSIGNALED(st) ? "signal" : "exit", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_event_fields_drop_action),
      cmocka_unit_test(test_event_fields_forward_action),
      cmocka_unit_test(test_event_log_full_stops_the_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
