/*
 * test_event_fields.c - the events of lfc_switch_events (lfc/switch.h) under random traffic
 * that produces every kind: each event names a port and class that exist, a drop names a cause
 * and the tag of a packet that arrived, an ECN mark the tag of a packet that left, and the other
 * kinds carry no cause and no tag (0, so that a consumer comparing events field by field, as the
 * golden traces and the co-simulation do, sees only what the kind defines); the events of a
 * cycle come in the documented order: by kind, then port, then class.
 */
#include "testutil.h"

#include <string.h>

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_event_fields_drop_action),
      cmocka_unit_test(test_event_fields_forward_action),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
