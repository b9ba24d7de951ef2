/*
 * dut_pack.c - the packed layout of dut.h: a port's link word and stat_* pulses as 32-bit words
 * (the layout is documented in dut.h; tb/verilator/cosim_top.sh builds the same bits in Verilog).
 * Field widths are those of the ports of lfc_switch (SPEC §13, §2).
 */
#include <string.h>

#include "dut.h"

/* Field widths in bits (SPEC §2, §13). */
#define W_KIND 2u
#define W_CLS 4u
#define W_ECN 2u
#define W_PAD 6u /* SPEC §2, §2.4 */
#define W_MRG 1u
#define W_FC_OP 4u
#define W_FC_VL 4u
#define W_FC_CNT 12u /* FCTBS and FCCL */
#define W_CAUSE 3u

/* Bit positions within the words (dut.h). */
#define W0_SOP 2u
#define W0_EOP 3u
#define W0_CLS 4u
#define W0_NBLK 8u
#define W0_DST 16u
#define W2_FCCL 12u
#define W2_PFC_EN 24u
#define W3_FC_OP 2u
#define W3_FC_VL 6u
#define W3_PAD 10u
#define W3_MRG 16u
#define W_PFC 4u /* first word of the pause times */
#define S_DROP_CAUSE 1u
#define S_ECN_MARK 4u
#define S_RX_MALFORMED 5u
#define HI16 16u /* the upper half-word */

#define MASK(w) ((1u << (w)) - 1u)

int dut_pack_word(const lfc_word_t *w, uint32_t *o) {
  /* Bits above a field's width: the RTL's port cannot show them, so such a word never matches
     bytewise (the caller then compares field by field, which reports the difference). */
  uint32_t over = (uint32_t)(w->kind >> W_KIND) | (uint32_t)(w->sop >> 1) |
                  (uint32_t)(w->eop >> 1) | (uint32_t)(w->cls >> W_CLS) |
                  (uint32_t)(w->ecn >> W_ECN) | (uint32_t)(w->pad >> W_PAD) |
                  (uint32_t)(w->mrg >> W_MRG) | (uint32_t)(w->fc_op >> W_FC_OP) |
                  (uint32_t)(w->fc_vl >> W_FC_VL) | (uint32_t)(w->fc_fctbs >> W_FC_CNT) |
                  (uint32_t)(w->fc_fccl >> W_FC_CNT);
  o[0] = (w->kind & MASK(W_KIND)) | (uint32_t)(w->sop & 1u) << W0_SOP |
         (uint32_t)(w->eop & 1u) << W0_EOP | (uint32_t)(w->cls & MASK(W_CLS)) << W0_CLS |
         (uint32_t)w->nblk << W0_NBLK | (uint32_t)w->dst << W0_DST;
  o[1] = w->tag;
  o[2] = (w->fc_fctbs & MASK(W_FC_CNT)) | (uint32_t)(w->fc_fccl & MASK(W_FC_CNT)) << W2_FCCL |
         (uint32_t)w->pfc_en << W2_PFC_EN;
  o[3] = (w->ecn & MASK(W_ECN)) | (uint32_t)(w->fc_op & MASK(W_FC_OP)) << W3_FC_OP |
         (uint32_t)(w->fc_vl & MASK(W_FC_VL)) << W3_FC_VL |
         (uint32_t)(w->pad & MASK(W_PAD)) << W3_PAD | (uint32_t)(w->mrg & MASK(W_MRG)) << W3_MRG;
  for (unsigned i = 0; i < DUT_RX_WORDS - W_PFC; i++)
    o[W_PFC + i] = w->pfc_time[2 * i] | (uint32_t)w->pfc_time[2 * i + 1] << HI16;
  return over == 0;
}

void dut_unpack_word(const uint32_t *o, lfc_word_t *w) {
  *w = (lfc_word_t){0};
  w->kind = (uint8_t)(o[0] & MASK(W_KIND));
  w->sop = (uint8_t)(o[0] >> W0_SOP & 1u);
  w->eop = (uint8_t)(o[0] >> W0_EOP & 1u);
  w->cls = (uint8_t)(o[0] >> W0_CLS & MASK(W_CLS));
  w->nblk = (uint8_t)(o[0] >> W0_NBLK);
  w->dst = (uint16_t)(o[0] >> W0_DST);
  w->tag = o[1];
  w->fc_fctbs = (uint16_t)(o[2] & MASK(W_FC_CNT));
  w->fc_fccl = (uint16_t)(o[2] >> W2_FCCL & MASK(W_FC_CNT));
  w->pfc_en = (uint8_t)(o[2] >> W2_PFC_EN);
  w->ecn = (uint8_t)(o[3] & MASK(W_ECN));
  w->fc_op = (uint8_t)(o[3] >> W3_FC_OP & MASK(W_FC_OP));
  w->fc_vl = (uint8_t)(o[3] >> W3_FC_VL & MASK(W_FC_VL));
  w->pad = (uint8_t)(o[3] >> W3_PAD & MASK(W_PAD));
  w->mrg = (uint8_t)(o[3] >> W3_MRG & MASK(W_MRG));
  for (unsigned i = 0; i < DUT_RX_WORDS - W_PFC; i++) {
    w->pfc_time[2 * i] = (uint16_t)o[W_PFC + i];
    w->pfc_time[2 * i + 1] = (uint16_t)(o[W_PFC + i] >> HI16);
  }
}

int dut_pack_stat(const dut_stat_t *s, unsigned p, uint32_t *o) {
  uint32_t over = (uint32_t)(s->drop[p] >> 1) | (uint32_t)(s->drop_cause[p] >> W_CAUSE) |
                  (uint32_t)(s->ecn_mark[p] >> 1) | (uint32_t)(s->rx_malformed[p] >> 1);
  /* The port shows the cause only with a drop (dut.h): a cause without one is no difference. */
  uint32_t cause = s->drop[p] ? (s->drop_cause[p] & MASK(W_CAUSE)) : 0u;
  o[0] = (s->drop[p] & 1u) | cause << S_DROP_CAUSE | (uint32_t)(s->ecn_mark[p] & 1u) << S_ECN_MARK |
         (uint32_t)(s->rx_malformed[p] & 1u) << S_RX_MALFORMED | (uint32_t)s->wd_drop[p] << HI16;
  o[1] = s->xoff[p] | (uint32_t)s->xon[p] << HI16;
  o[2] = s->wd_trip[p] | (uint32_t)s->wd_restore[p] << HI16;
  return over == 0;
}

void dut_unpack_stat(const uint32_t *o, unsigned p, dut_stat_t *s) {
  s->drop[p] = (uint8_t)(o[0] & 1u);
  s->drop_cause[p] = (uint8_t)(o[0] >> S_DROP_CAUSE & MASK(W_CAUSE));
  s->ecn_mark[p] = (uint8_t)(o[0] >> S_ECN_MARK & 1u);
  s->rx_malformed[p] = (uint8_t)(o[0] >> S_RX_MALFORMED & 1u);
  s->wd_drop[p] = (uint16_t)(o[0] >> HI16);
  s->xoff[p] = (uint16_t)o[1];
  s->xon[p] = (uint16_t)(o[1] >> HI16);
  s->wd_trip[p] = (uint16_t)o[2];
  s->wd_restore[p] = (uint16_t)(o[2] >> HI16);
}

const char *const dut_word_field_name[DUT_WORD_FIELDS] = {
    "tx_kind_o",        "tx_sop_o",         "tx_eop_o",         "tx_cls_o",
    "tx_nblk_o",        "tx_dst_o",         "tx_tag_o",         "tx_ecn_o",
    "tx_pad_o",         "tx_mrg_o",         "tx_fc_op_o",       "tx_fc_vl_o",       "tx_fc_fctbs_o",    "tx_fc_fccl_o",
    "tx_pfc_en_o",      "tx_pfc_time_o[0]", "tx_pfc_time_o[1]", "tx_pfc_time_o[2]",
    "tx_pfc_time_o[3]", "tx_pfc_time_o[4]", "tx_pfc_time_o[5]", "tx_pfc_time_o[6]",
    "tx_pfc_time_o[7]"};

/* The first field of dut_word_field_name that is a pause time. */
#define F_PFC_TIME 15u

uint64_t dut_word_field(const lfc_word_t *w, unsigned i) {
  switch (i) {
    case 0: return w->kind;
    case 1: return w->sop;
    case 2: return w->eop;
    case 3: return w->cls;
    case 4: return w->nblk;
    case 5: return w->dst;
    case 6: return w->tag;
    case 7: return w->ecn;
    case 8: return w->pad;
    case 9: return w->mrg;
    case 10: return w->fc_op;
    case 11: return w->fc_vl;
    case 12: return w->fc_fctbs;
    case 13: return w->fc_fccl;
    case 14: return w->pfc_en;
    default: return w->pfc_time[i - F_PFC_TIME];
  }
}

/* One field of a word at its widest: the fields of dut_pack_word, in the order of lfc_word_t. */
static int field_max(lfc_word_t *w, unsigned f) {
  switch (f) {
    case 0: w->kind = MASK(W_KIND); return 1;
    case 1: w->sop = 1; return 1;
    case 2: w->eop = 1; return 1;
    case 3: w->cls = MASK(W_CLS); return 1;
    case 4: w->nblk = UINT8_MAX; return 1;
    case 5: w->ecn = MASK(W_ECN); return 1;
    case 6: w->dst = UINT16_MAX; return 1;
    case 7: w->tag = UINT32_MAX; return 1;
    case 8: w->fc_op = MASK(W_FC_OP); return 1;
    case 9: w->fc_vl = MASK(W_FC_VL); return 1;
    case 10: w->fc_fctbs = MASK(W_FC_CNT); return 1;
    case 11: w->fc_fccl = MASK(W_FC_CNT); return 1;
    case 12: w->pfc_en = UINT8_MAX; return 1;
    case 13: w->pad = MASK(W_PAD); return 1;
    case 14: w->mrg = MASK(W_MRG); return 1;
    default:
      if (f - F_PFC_TIME >= LFC_PFC_MAX_PRIOS) return 0;
      w->pfc_time[f - F_PFC_TIME] = UINT16_MAX;
      return 1;
  }
}

int dut_pack_check(void) {
  /* Every field on its own round-trips, and no two fields share a bit: the bytewise comparison
     of packed words then sees every difference of every field. */
  uint32_t used[DUT_RX_WORDS] = {0};
  for (unsigned f = 0;; f++) {
    lfc_word_t w = {0}, back;
    if (!field_max(&w, f)) break;
    uint32_t o[DUT_RX_WORDS];
    if (!dut_pack_word(&w, o)) return -1;
    dut_unpack_word(o, &back);
    if (!lfc_word_equal(&w, &back)) return -1;
    for (unsigned i = 0; i < DUT_RX_WORDS; i++) {
      if (used[i] & o[i]) return -1;
      used[i] |= o[i];
    }
  }
  /* The stat_* pulses likewise, port 0 with every bit set (a cause needs a drop). */
  dut_stat_t s = {0}, back = {0};
  s.drop[0] = 1;
  s.drop_cause[0] = MASK(W_CAUSE);
  s.ecn_mark[0] = 1;
  s.rx_malformed[0] = 1;
  s.wd_drop[0] = s.xoff[0] = s.xon[0] = s.wd_trip[0] = s.wd_restore[0] = UINT16_MAX;
  uint32_t o[DUT_OUT_WORDS - DUT_TX_WORDS];
  if (!dut_pack_stat(&s, 0, o)) return -1;
  dut_unpack_stat(o, 0, &back);
  return memcmp(&s, &back, sizeof s) == 0 ? 0 : -1;
}
