/*
 * test_wire_model.c - the model's own link words as real frames (docs/wire-formats.md §8): a
 * star testbed (lfc/star.h) runs InfiniBand and PFC/ECN traffic hard enough to produce flow
 * control and marking; every word on every switch port, in and out, is turned into its frame
 * (IB data packet or FCP; RoCEv2 or PFC), encoded, decoded, and mapped back, and must come back
 * as the same word, but for its pad: the model's packets fill their last block (pad 0), which no
 * IB or RoCEv2 packet can (their lengths are 2 mod 4), so the frame is 2 bytes short of it and
 * comes back with pad 2 (wt_frame_pad, docs/wire-formats.md §8). What a frame cannot carry is
 * refused with a reason: a 1-block RoCEv2 packet (headers and the 4-byte tag exceed 64 bytes),
 * and IB's ECT codepoints (IB has only FECN).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lfc/star.h"
#include "lfc/wire_ib_data.h"
#include "lfc/wire_ib_fcp.h"
#include "lfc/wire_pfc.h"
#include "lfc/wire_roce.h"
#include "wire_testutil.h"

#define PORTS 4u
#define CLASSES 2u
#define CYCLES 20000u
#define BUF 20000u

typedef struct {
  unsigned data, fcp, pfc, ce, refused;
} seen_t;

static void round_trip_ib(const lfc_word_t *w, seen_t *seen) {
  static uint8_t payload[BUF], frame[BUF];
  lfc_wire_error_t err;
  lfc_word_t back;
  if (w->kind == LFC_FCP) {
    lfc_ib_fcp_t p, q;
    uint8_t b[LFC_IB_FCP_BYTES];
    assert_int_equal(lfc_ib_fcp_from_word(w, &p, &err), LFC_WIRE_OK);
    assert_int_equal(lfc_ib_fcp_encode(&p, b, sizeof b, &err), sizeof b);
    assert_int_equal(lfc_ib_fcp_decode(b, sizeof b, &q, &err), LFC_WIRE_OK);
    lfc_ib_fcp_to_word(&q, &back);
    assert_memory_equal(&back, w, sizeof back);
    seen->fcp++;
    return;
  }
  if (w->kind != LFC_DATA || !w->sop) return;
  lfc_ib_pkt_t p, q;
  assert_int_equal(lfc_ib_pkt_from_word(w, NULL, &p, payload, sizeof payload, &err), LFC_WIRE_OK);
  const size_t len = lfc_ib_pkt_encode(&p, frame, sizeof frame, &err);
  assert_int_equal((len + 63u) / 64u, w->nblk);
  assert_int_equal(lfc_ib_pkt_decode(frame, len, &q, &err), LFC_WIRE_OK);
  assert_int_equal(lfc_ib_pkt_to_word(&q, &back, &err), LFC_WIRE_OK);
  lfc_word_t want = *w;
  want.ecn = w->ecn == LFC_ECN_CE ? LFC_ECN_CE : LFC_ECN_NOT_ECT; /* FECN only */
  want.pad = wt_frame_pad(w->nblk, w->pad, (uint32_t)lfc_ib_pkt_bytes(false, 0));
  assert_memory_equal(&back, &want, sizeof back);
  seen->data++;
  seen->ce += w->ecn == LFC_ECN_CE;
}

static void round_trip_roce(const lfc_word_t *w, const lfc_roce_map_t *m,
                            const lfc_roce_pkt_t *tmpl, seen_t *seen) {
  static uint8_t payload[BUF], frame[BUF];
  lfc_wire_error_t err;
  lfc_word_t back;
  if (w->kind == LFC_PFC) {
    static const uint8_t src[6] = {0x02, 0, 0, 0, 0, 0x01};
    lfc_pfc_frame_t f, g;
    uint8_t b[LFC_PFC_FRAME_BYTES];
    assert_int_equal(lfc_pfc_from_word(w, src, &f, &err), LFC_WIRE_OK);
    assert_int_equal(lfc_pfc_encode(&f, b, sizeof b, &err), sizeof b);
    assert_int_equal(lfc_pfc_decode(b, sizeof b, &g, &err), LFC_WIRE_OK);
    lfc_pfc_to_word(&g, &back);
    assert_memory_equal(&back, w, sizeof back);
    seen->pfc++;
    return;
  }
  if (w->kind != LFC_DATA || !w->sop) return;
  lfc_roce_pkt_t p, q;
  const lfc_wire_status_t st = lfc_roce_from_word(w, m, tmpl, &p, payload, sizeof payload, &err);
  if (w->nblk == 1u) { /* 64 bytes hold the headers but not the 4-byte tag */
    assert_int_equal(st, LFC_WIRE_BAD_FIELD);
    seen->refused++;
    return;
  }
  assert_int_equal(st, LFC_WIRE_OK);
  const size_t len = lfc_roce_encode(&p, frame, sizeof frame, &err);
  assert_int_equal((len + 63u) / 64u, w->nblk);
  assert_int_equal(lfc_roce_decode(frame, len, &q, &err), LFC_WIRE_OK);
  assert_int_equal(lfc_roce_to_word(&q, m, &back, &err), LFC_WIRE_OK);
  lfc_word_t want = *w;
  want.pad = wt_frame_pad(w->nblk, w->pad,
                          (uint32_t)lfc_roce_frame_bytes(tmpl->has_vlan, tmpl->ipv6, 4) - 4u);
  assert_memory_equal(&back, &want, sizeof back);
  seen->data++;
  seen->ce += w->ecn == LFC_ECN_CE;
}

static lfc_star_t *open_star(lfc_mode_t mode) {
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, mode, PORTS, CLASSES);
  cfg.traffic.pattern = LFC_TRAFFIC_INCAST; /* 3:1 into one port: pauses and credits run out */
  cfg.traffic.load_permille = 1000u;
  cfg.traffic.ecn_capable_pct = mode == LFC_MODE_PFC ? 80u : 0u;
  cfg.traffic.seed = 7u;
  if (mode == LFC_MODE_PFC) { /* mark early, so that CE packets cross the links (SPEC §9) */
    cfg.sw.ecn_mask = (1u << CLASSES) - 1u;
    cfg.sw.kmin = 8u;
    cfg.sw.kmax = 64u;
    cfg.sw.pmax = 32768u;
  }
  char err[256];
  lfc_star_t *s = lfc_star_create(&cfg, err, sizeof err);
  if (s == NULL) fail_msg("%s", err);
  return s;
}

static void test_model_ib_words_as_frames(void **state) {
  (void)state;
  lfc_star_t *s = open_star(LFC_MODE_IB);
  seen_t seen = {0, 0, 0, 0, 0};
  for (unsigned c = 0; c < CYCLES; c++) {
    lfc_star_step(s);
    const lfc_word_t *in, *out;
    lfc_star_last_words(s, &in, &out);
    for (unsigned p = 0; p < PORTS; p++) {
      round_trip_ib(&in[p], &seen);
      round_trip_ib(&out[p], &seen);
    }
  }
  lfc_star_destroy(s);
  print_message("IB: %u packets, %u FCPs as frames\n", seen.data, seen.fcp);
  assert_true(seen.data > 100u);
  assert_true(seen.fcp > 100u);
}

static void test_model_pfc_words_as_frames(void **state) {
  (void)state;
  lfc_roce_pkt_t tagged, v6;
  memset(&tagged, 0, sizeof tagged);
  tagged.has_vlan = true;
  tagged.vid = 100;
  tagged.ttl = 64;
  tagged.bth.opcode = 0x04;
  tagged.bth.pkey = 0xFFFF;
  v6 = tagged;
  v6.has_vlan = false;
  v6.ipv6 = true;
  lfc_roce_map_t by_pcp, by_dscp;
  lfc_roce_map_default(&by_pcp, LFC_ROCE_PRIO_PCP);
  lfc_roce_map_default(&by_dscp, LFC_ROCE_PRIO_DSCP);
  lfc_star_t *s = open_star(LFC_MODE_PFC);
  seen_t seen = {0, 0, 0, 0, 0};
  for (unsigned c = 0; c < CYCLES; c++) {
    lfc_star_step(s);
    const lfc_word_t *in, *out;
    lfc_star_last_words(s, &in, &out);
    for (unsigned p = 0; p < PORTS; p++) {
      round_trip_roce(&in[p], &by_pcp, &tagged, &seen);
      round_trip_roce(&out[p], &by_dscp, &v6, &seen);
    }
  }
  lfc_star_destroy(s);
  print_message("PFC: %u packets (%u CE), %u PFC frames, %u one-block packets refused\n",
                seen.data, seen.ce, seen.pfc, seen.refused);
  assert_true(seen.data > 100u);
  assert_true(seen.pfc > 10u);
  assert_true(seen.ce > 0u);
  assert_true(seen.refused > 0u);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_model_ib_words_as_frames),
      cmocka_unit_test(test_model_pfc_words_as_frames),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
