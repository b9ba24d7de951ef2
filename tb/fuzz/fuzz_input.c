/*
 * fuzz_input.c - fuzz bytes -> link words (see fuzz_input.h for the byte layout).
 */
#include "fuzz_input.h"

#include <string.h>

/* Widths of the RTL's input ports (SPEC §13): every field is masked to these. */
#define W_CLS_MASK 0xFu
#define W_ECN_MASK 0x3u
#define W_FC_MASK 0xFu
#define W_CNT_MASK 0xFFFu /* 12-bit FCTBS / FCCL (SPEC §5.1) */

/* Byte classes, between packets. */
#define B_IDLE_END 0x80u
#define B_PKT_END 0xC0u
#define B_FC_END 0xE0u
#define B_OTHER_FC_END 0xF0u
/* Inside a packet: bytes below this continue it. */
#define B_CONTINUE_END 0xF0u

/* Tag: bit 31 set (never a tag of the co-simulation's sources), port in 30..24, sequence. */
#define FUZZ_TAG(port, seq) (0x80000000u | (((uint32_t)(port)&0x7Fu) << 24) | ((seq)&0xFFFFFFu))

void fuzz_in_init(fuzz_in_t *f, const uint8_t *data, size_t size, const lfc_switch_cfg_t *cfg) {
  memset(f, 0, sizeof *f);
  f->data = data;
  f->size = size;
  f->ports = cfg->ports;
  f->mode = cfg->mode;
  f->classes = cfg->classes;
  f->drain_left = FUZZ_DRAIN_CYCLES;
}

static int take(fuzz_in_t *f, uint8_t *b) {
  if (f->pos >= f->size) return 0;
  *b = f->data[f->pos++];
  return 1;
}

static int take_n(fuzz_in_t *f, uint8_t *b, size_t n) {
  if (f->size - f->pos < n) {
    f->pos = f->size;
    return 0;
  }
  memcpy(b, f->data + f->pos, n);
  f->pos += n;
  return 1;
}

/* An IB FCP (SPEC §5.5) from 4 bytes: op 0/1 mostly, reserved ops and VLs sometimes. */
static void fcp_word(lfc_word_t *w, const uint8_t y[4]) {
  w->kind = LFC_FCP;
  w->fc_op = (y[0] & 0x80u) ? (uint8_t)((y[0] >> 3) & W_FC_MASK) : (uint8_t)(y[0] & 1u);
  w->fc_vl = (y[0] & 0x40u) ? (uint8_t)((y[0] >> 1) & W_FC_MASK) : (uint8_t)((y[0] >> 1) & 3u);
  uint32_t v = (uint32_t)y[1] | (uint32_t)y[2] << 8 | (uint32_t)y[3] << 16;
  w->fc_fctbs = (uint16_t)(v & W_CNT_MASK);
  w->fc_fccl = (uint16_t)((v >> 12) & W_CNT_MASK);
}

/* A PFC frame (SPEC §6.7) from 4 bytes: any enable vector; each time 0, 1, a value, or 65535,
   in enabled and disabled fields alike. */
static void pfc_word(lfc_word_t *w, const uint8_t y[4]) {
  w->kind = LFC_PFC;
  w->pfc_en = y[0];
  const uint16_t pick[4] = {0u, 1u, (uint16_t)(y[2] | y[3] << 8), 0xFFFFu};
  for (unsigned i = 0; i < 8; i++) w->pfc_time[i] = pick[(y[1] >> ((i % 4) * 2)) & 3u];
}

/* Any word: every field from the bytes. */
static void raw_word(fuzz_in_t *f, unsigned p, lfc_word_t *w, const uint8_t r[6]) {
  w->kind = (uint8_t)(r[0] & 3u);
  w->sop = (uint8_t)((r[0] >> 2) & 1u);
  w->eop = (uint8_t)((r[0] >> 3) & 1u);
  w->ecn = (uint8_t)((r[0] >> 4) & W_ECN_MASK);
  w->cls = (uint8_t)(r[1] & W_CLS_MASK);
  w->fc_op = (uint8_t)(r[1] >> 4);
  w->nblk = r[2];
  w->dst = (uint16_t)(r[3] | r[4] << 8);
  w->fc_vl = (uint8_t)(r[4] & W_FC_MASK);
  w->fc_fctbs = (uint16_t)((r[3] | r[4] << 8) & W_CNT_MASK);
  w->fc_fccl = (uint16_t)((r[4] >> 4 | r[5] << 4) & W_CNT_MASK);
  w->pfc_en = r[5];
  for (unsigned i = 0; i < 8; i++) w->pfc_time[i] = (uint16_t)(r[(i % 6)] << 8 | r[5 - i % 6]);
  w->tag = FUZZ_TAG(p, f->seq[p]++);
}

/* One word of port p, from "between packets" bytes starting with b. 0: bytes used up. */
static int start_word(fuzz_in_t *f, unsigned p, uint8_t b, lfc_word_t *w) {
  uint8_t y[6];
  memset(w, 0, sizeof *w);
  if (b < B_IDLE_END) return 1;
  if (b < B_PKT_END) {
    if (!take(f, &y[0])) return 0;
    w->kind = LFC_DATA;
    w->sop = 1;
    w->nblk = (uint8_t)(1u + (y[0] & 7u));
    w->eop = w->nblk == 1;
    w->cls = (uint8_t)((y[0] >> 3) & 3u);
    w->dst = (uint16_t)((b & 0x3Fu) % (f->ports + 1u));
    w->ecn = (uint8_t)((b >> 4) & W_ECN_MASK);
    w->tag = FUZZ_TAG(p, f->seq[p]++);
    f->cur[p] = *w;
    f->rem[p] = w->nblk - 1u;
    return 1;
  }
  if (b < B_OTHER_FC_END) {
    if (!take_n(f, y, 4)) return 0;
    int own = b < B_FC_END;
    if ((f->mode == LFC_MODE_IB) == own)
      fcp_word(w, y);
    else
      pfc_word(w, y);
    return 1;
  }
  if (!take_n(f, y, 6)) return 0;
  raw_word(f, p, w, y);
  return 1;
}

int fuzz_in_next(fuzz_in_t *f, lfc_word_t *in) {
  if (f->cycle >= FUZZ_MAX_CYCLES) return 0;
  if (f->pos >= f->size) {
    if (f->drain_left == 0) return 0;
    f->drain_left--;
    f->cycle++;
    memset(in, 0, sizeof *in * f->ports);
    return 2;
  }
  for (unsigned p = 0; p < f->ports; p++) {
    uint8_t b = 0;
    memset(&in[p], 0, sizeof in[p]);
    if (!take(f, &b)) continue; /* the rest of this cycle is IDLE */
    if (f->rem[p] > 0 && b < B_CONTINUE_END) {
      in[p] = f->cur[p];
      in[p].sop = 0;
      in[p].eop = f->rem[p] == 1;
      f->rem[p]--;
      continue;
    }
    f->rem[p] = 0;
    if (!start_word(f, p, b, &in[p])) memset(&in[p], 0, sizeof in[p]);
  }
  f->cycle++;
  return 1;
}
