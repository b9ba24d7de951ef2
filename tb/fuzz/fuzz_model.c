/*
 * fuzz_model.c - fuzz target for the C model alone, built with ASan + UBSan (any finding aborts),
 * checking invariants of docs/SPEC.md every cycle.
 *
 * The first two bytes choose the configuration (mode, 2..4 ports, 1..4 classes, small buffers, so
 * that limits are reached) and whether the partners obey the rules; the rest are the partners'
 * words (fuzz_input.h). An obedient partner sends only well-formed packets that pass the send
 * rule of SPEC §5.3 against the FCCL the switch advertised (IB) and FCPs with its true FCTBS;
 * everything else becomes IDLE. Checked:
 *   - output framing (SPEC §7.4): a packet's blocks in consecutive cycles, sop on the first, eop on
 *     the last, the same descriptor on every block; no block outside a packet;
 *   - every packet leaving was accepted, leaves once, on the port its dst names (§7.1), unchanged
 *     but for an ECN mark of an ECT packet (§9);
 *   - IB: the switch never starts a packet the send rule forbids (§5.3, from its fctbs/fccl
 *     registers of S(t)); a VL never holds more than its buffer (occ <= vl_blocks, §5.4); with
 *     an obedient partner no CREDIT drop (§5.4);
 *   - PFC: shared_used = the sum of pg_shared, within shared_blocks; pg_min <= reserve_blocks;
 *     pg_hdrm <= headroom_blocks (§6.1-§6.4); no pause timer above 65535 quanta (§6.7);
 *   - every drop names a cause that exists and a packet that arrived or was queued.
 * A violation prints one INVARIANT line and aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "lfc/switch.h"

#define IB_WINDOW 2048u   /* SPEC §5.3: the send rule's window */
#define IB_MOD_MASK 4095u /* 12-bit FCTBS/FCCL */
#define MAX_TAGS 65536u   /* packets tracked per input (the decoder's tags are per port) */

typedef struct {
  uint8_t state; /* 0 unknown, 1 accepted, 2 delivered */
  uint8_t cls, nblk, ecn;
  uint16_t dst;
} pkt_t;

static pkt_t *g_pkts; /* [port][seq & (MAX_TAGS / 16 - 1)] */
static int g_reg[8];
enum { R_FCTBS, R_FCCL, R_OCC, R_SHARED_USED, R_PG_MIN, R_PG_SHARED, R_PG_HDRM, R_PAUSE };

static void fail(unsigned cycle, unsigned port, const char *what, unsigned long long a,
                 unsigned long long b) {
  printf("INVARIANT cycle=%u port=%u check=%s value=%llu limit=%llu\n", cycle, port, what, a, b);
  fflush(stdout);
  abort();
}

static pkt_t *pkt_of(uint32_t tag) {
  unsigned port = (tag >> 24) & 0x7Fu;
  if (port >= LFC_MAX_PORTS) return NULL;
  return &g_pkts[port * (MAX_TAGS / LFC_MAX_PORTS) + (tag & (MAX_TAGS / LFC_MAX_PORTS - 1u))];
}

/* The configuration from two bytes: small buffers so that every limit is within reach. */
static int make_cfg(const uint8_t *d, lfc_switch_cfg_t *c) {
  lfc_mode_t mode = (d[0] & 1u) ? LFC_MODE_PFC : LFC_MODE_IB;
  uint32_t ports = 2u + (d[0] >> 1) % 3u, classes = 1u + ((d[0] >> 3) & 3u);
  lfc_switch_cfg_default(c, mode, ports, classes);
  c->mtu_blocks = 6;
  c->latency = 1u + ((d[1] >> 4) & 3u);
  if (mode == LFC_MODE_IB) {
    for (unsigned v = 0; v < LFC_IB_MAX_VLS; v++) c->vl_blocks[v] = 6u + (d[1] & 7u);
    c->vl15_blocks = 2;
    c->fcp_period = 8u + (d[1] & 0x38u);
  } else {
    c->lossless_mask = (uint8_t)((1u << classes) - 1u);
    c->reserve_blocks = d[1] & 1u;
    c->shared_blocks = 12u + (d[1] & 0x0Eu);
    c->headroom_blocks = 12;
    c->xoff_th = 6;
    c->xon_offset = 2;
    c->pause_quanta = 20;
    c->refresh_cycles = 15;
    c->wd_enable = (d[1] & 0x40u) != 0;
    c->wd_detect = 50;
    c->wd_restore = 30;
    c->ecn_mask = c->lossless_mask;
    c->kmin = 2;
    c->kmax = 8;
    for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS; i++) c->drr_quantum[i] = 6;
  }
  char err[256];
  if (lfc_switch_cfg_check(c, err, sizeof err) == 0) return 0;
  /* Every two-byte choice must be a valid configuration, or the target silently tests less. */
  printf("INVARIANT cycle=0 port=0 check=config_rejected (%s)\n", err);
  fflush(stdout);
  abort();
}

/* Obedient partner (IB): keep a packet only if it is well formed and passes the send rule
   against the FCCL the switch last advertised on this VL; FCPs carry the partner's FCTBS. */
typedef struct {
  uint16_t fctbs[LFC_MAX_PORTS][LFC_MAX_CLASSES]; /* blocks the partner sent, mod 4096 */
  uint16_t fccl[LFC_MAX_PORTS][LFC_MAX_CLASSES];  /* FCCL the switch sent (SPEC §5.5) */
  lfc_word_t cur[LFC_MAX_PORTS];                  /* the packet being sent */
  unsigned rem[LFC_MAX_PORTS];                    /* its blocks still to send */
} obey_t;

static void obey(const lfc_switch_cfg_t *c, obey_t *o, fuzz_in_t *f, lfc_word_t *in) {
  for (unsigned p = 0; p < c->ports; p++) {
    lfc_word_t *w = &in[p];
    f->rem[p] = 0; /* the partner sends its packets' blocks itself, without gaps */
    if (o->rem[p]) {
      *w = o->cur[p];
      w->sop = 0;
      w->eop = o->rem[p] == 1;
      o->rem[p]--;
      continue;
    }
    int keep = 0;
    if (w->kind == LFC_DATA && w->sop && w->cls < c->classes && w->dst < c->ports &&
        w->nblk >= 1 && w->nblk <= c->mtu_blocks) {
      uint32_t after = (o->fctbs[p][w->cls] + w->nblk) & IB_MOD_MASK;
      keep = c->mode == LFC_MODE_PFC || ((o->fccl[p][w->cls] - after) & IB_MOD_MASK) <= IB_WINDOW;
      if (keep) {
        if (c->mode == LFC_MODE_IB) o->fctbs[p][w->cls] = (uint16_t)after;
        w->eop = w->nblk == 1;
        o->cur[p] = *w;
        o->rem[p] = w->nblk - 1u;
      }
    } else if (w->kind == LFC_FCP && c->mode == LFC_MODE_IB && w->fc_vl < c->classes) {
      w->fc_op = 0;
      w->fc_fctbs = o->fctbs[p][w->fc_vl];
      keep = 1;
    } else if (w->kind == LFC_PFC && c->mode == LFC_MODE_PFC) {
      keep = 1;
    }
    if (!keep) memset(w, 0, sizeof *w);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  if (!g_pkts) {
    g_pkts = calloc(MAX_TAGS, sizeof *g_pkts);
    static const char *const names[8] = {"fctbs",  "fccl",      "occ",     "shared_used",
                                         "pg_min", "pg_shared", "pg_hdrm", "pause_timer"};
    for (unsigned i = 0; i < 8; i++) g_reg[i] = lfc_reg_find(names[i]);
    if (!g_pkts) abort();
  }
  memset(g_pkts, 0, MAX_TAGS * sizeof *g_pkts);
  lfc_switch_cfg_t cfg;
  if (make_cfg(data, &cfg)) return 0;
  int obedient = (data[1] & 0x80u) != 0;
  char err[256];
  lfc_switch_t *sw = lfc_switch_create(&cfg, err, sizeof err);
  if (!sw) fail(0, 0, "create_failed_after_check", 0, 0);

  fuzz_in_t f;
  fuzz_in_init(&f, data + 2, size - 2, &cfg);
  obey_t ob;
  memset(&ob, 0, sizeof ob);
  lfc_word_t in[LFC_MAX_PORTS], out[LFC_MAX_PORTS], cur[LFC_MAX_PORTS];
  unsigned rem[LFC_MAX_PORTS] = {0};
  uint8_t rx_rem[LFC_MAX_PORTS] = {0};
  unsigned cycle = 0;
  const unsigned P = cfg.ports, C = cfg.classes;
  while (fuzz_in_next(&f, in)) {
    if (obedient) obey(&cfg, &ob, &f, in);
    /* S(t): the send rule's operands, per (port, VL). */
    uint16_t fctbs[LFC_MAX_PORTS][LFC_MAX_CLASSES], fccl[LFC_MAX_PORTS][LFC_MAX_CLASSES];
    if (cfg.mode == LFC_MODE_IB)
      for (unsigned p = 0; p < P; p++)
        for (unsigned v = 0; v < C; v++) {
          fctbs[p][v] = (uint16_t)lfc_switch_reg(sw, (size_t)g_reg[R_FCTBS], p, v);
          fccl[p][v] = (uint16_t)lfc_switch_reg(sw, (size_t)g_reg[R_FCCL], p, v);
        }
    lfc_switch_step(sw, in, out);
    const lfc_event_t *ev;
    size_t nev = lfc_switch_events(sw, &ev);

    /* Arrivals: accepted unless a DROP names them. */
    for (unsigned p = 0; p < P; p++) {
      const lfc_word_t *w = &in[p];
      if (w->kind != LFC_DATA) continue;
      if (rx_rem[p]) {
        rx_rem[p]--;
        continue;
      }
      if (!w->sop) continue;
      const lfc_event_t *d = NULL;
      for (size_t i = 0; i < nev; i++)
        if (ev[i].kind == LFC_EV_DROP && ev[i].port == p && ev[i].tag == w->tag) d = &ev[i];
      pkt_t *k = pkt_of(w->tag);
      if (d) {
        if (obedient && d->cause == LFC_DROP_CREDIT) fail(cycle, p, "credit_drop_obedient", 1, 0);
        if (obedient && d->cause == LFC_DROP_MALFORMED)
          fail(cycle, p, "malformed_drop_obedient", 1, 0);
        rx_rem[p] = d->cause == LFC_DROP_MALFORMED || w->nblk == 0 ? 0 : (uint8_t)(w->nblk - 1);
        continue;
      }
      rx_rem[p] = w->nblk ? (uint8_t)(w->nblk - 1) : 0;
      if (k) *k = (pkt_t){1, w->cls, w->nblk, w->ecn, w->dst};
    }
    for (size_t i = 0; i < nev; i++) {
      if (ev[i].kind != LFC_EV_DROP) continue;
      if (ev[i].cause >= LFC_DROP_CAUSES) fail(cycle, ev[i].port, "drop_cause", ev[i].cause, 5);
      const lfc_word_t *w = &in[ev[i].port];
      int arriving = w->kind == LFC_DATA && w->sop && w->tag == ev[i].tag;
      pkt_t *k = pkt_of(ev[i].tag);
      if (!arriving) {
        if (ev[i].cause != LFC_DROP_WATCHDOG || !k || k->state != 1)
          fail(cycle, ev[i].port, "drop_of_unknown_packet", ev[i].tag, ev[i].cause);
        k->state = 0;
      }
    }
    /* Departures. */
    for (unsigned q = 0; q < P; q++) {
      const lfc_word_t *w = &out[q];
      if (rem[q]) {
        lfc_word_t want = cur[q];
        want.sop = 0;
        want.eop = rem[q] == 1;
        if (!lfc_word_equal(&want, w)) fail(cycle, q, "tx_continuation", w->kind, rem[q]);
        rem[q]--;
        continue;
      }
      if (w->kind != LFC_DATA) continue;
      if (!w->sop) fail(cycle, q, "tx_stray_block", w->tag, 0);
      if (w->nblk == 0 || w->eop != (w->nblk == 1)) fail(cycle, q, "tx_eop", w->nblk, w->eop);
      cur[q] = *w;
      rem[q] = w->nblk - 1u;
      if (cfg.mode == LFC_MODE_IB && w->cls < C) {
        uint32_t after = (fctbs[q][w->cls] + w->nblk) & IB_MOD_MASK;
        uint32_t room = (fccl[q][w->cls] - after) & IB_MOD_MASK;
        if (room > IB_WINDOW) fail(cycle, q, "send_rule", room, IB_WINDOW);
      }
      if (w->cls == LFC_VL15 && cfg.mode == LFC_MODE_IB) continue;
      pkt_t *k = pkt_of(w->tag);
      if (!k || k->state != 1) fail(cycle, q, "tx_not_accepted", w->tag, k ? k->state : 9);
      if (k->dst != q) fail(cycle, q, "tx_wrong_port", k->dst, q);
      if (k->cls != w->cls || k->nblk != w->nblk) fail(cycle, q, "tx_corrupted", w->cls, k->cls);
      int ect = k->ecn == LFC_ECN_ECT0 || k->ecn == LFC_ECN_ECT1;
      if (w->ecn != k->ecn && !(ect && w->ecn == LFC_ECN_CE)) fail(cycle, q, "tx_ecn", w->ecn, k->ecn);
      k->state = 2;
    }
    /* Buffer bounds of S(t+1). */
    if (cfg.mode == LFC_MODE_IB) {
      for (unsigned p = 0; p < P; p++)
        for (unsigned v = 0; v < C; v++) {
          uint64_t occ = lfc_switch_reg(sw, (size_t)g_reg[R_OCC], p, v);
          if (occ > cfg.vl_blocks[v]) fail(cycle, p, "occ_above_vl_blocks", occ, cfg.vl_blocks[v]);
        }
    } else {
      uint64_t sum = 0;
      for (unsigned p = 0; p < P; p++)
        for (unsigned c = 0; c < C; c++) {
          uint64_t mn = lfc_switch_reg(sw, (size_t)g_reg[R_PG_MIN], p, c);
          uint64_t sh = lfc_switch_reg(sw, (size_t)g_reg[R_PG_SHARED], p, c);
          uint64_t hd = lfc_switch_reg(sw, (size_t)g_reg[R_PG_HDRM], p, c);
          uint64_t pt = lfc_switch_reg(sw, (size_t)g_reg[R_PAUSE], p, c);
          sum += sh;
          if (mn > cfg.reserve_blocks) fail(cycle, p, "pg_min_above_reserve", mn, cfg.reserve_blocks);
          if (hd > cfg.headroom_blocks) fail(cycle, p, "pg_hdrm_above_headroom", hd, cfg.headroom_blocks);
          uint64_t pmax = 65535ull * cfg.speed_div[p]; /* quanta of speed_div cycles */
          if (pt > pmax) fail(cycle, p, "pause_timer", pt, pmax);
        }
      uint64_t used = lfc_switch_reg(sw, (size_t)g_reg[R_SHARED_USED], 0, 0);
      if (used != sum) fail(cycle, 0, "shared_used_not_sum_pg_shared", used, sum);
      if (used > cfg.shared_blocks) fail(cycle, 0, "shared_used_above_pool", used, cfg.shared_blocks);
    }
    /* The obedient partner learns the FCCL the switch sends (no link delay here). */
    if (cfg.mode == LFC_MODE_IB)
      for (unsigned p = 0; p < P; p++)
        if (out[p].kind == LFC_FCP && out[p].fc_vl < C) ob.fccl[p][out[p].fc_vl] = out[p].fc_fccl;
    cycle++;
  }
  lfc_switch_destroy(sw);
  return 0;
}
