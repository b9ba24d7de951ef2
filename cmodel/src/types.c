/*
 * types.c - helpers for the link word and the drop causes (lfc/types.h, SPEC §2, §10).
 */
#include "lfc/types.h"

#include <stdio.h>

const char *lfc_drop_cause_name(lfc_drop_cause_t cause) {
  static const char *const names[LFC_DROP_CAUSES] = {
      [LFC_DROP_HEADROOM] = "headroom", [LFC_DROP_SHARED] = "shared",
      [LFC_DROP_WATCHDOG] = "watchdog", [LFC_DROP_CREDIT] = "credit",
      [LFC_DROP_VL15] = "vl15",         [LFC_DROP_MALFORMED] = "malformed",
  };
  return (unsigned)cause < LFC_DROP_CAUSES ? names[cause] : "unknown";
}

/* Field by field, so that padding bytes never matter. */
bool lfc_word_equal(const lfc_word_t *a, const lfc_word_t *b) {
  if (a->kind != b->kind || a->sop != b->sop || a->eop != b->eop || a->cls != b->cls ||
      a->nblk != b->nblk || a->ecn != b->ecn || a->pad != b->pad || a->mrg != b->mrg ||
      a->dst != b->dst || a->tag != b->tag ||
      a->fc_op != b->fc_op || a->fc_vl != b->fc_vl || a->fc_fctbs != b->fc_fctbs ||
      a->fc_fccl != b->fc_fccl || a->pfc_en != b->pfc_en)
    return false;
  for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS; i++)
    if (a->pfc_time[i] != b->pfc_time[i]) return false;
  return true;
}

char *lfc_word_format(const lfc_word_t *w, char *buf, size_t len) {
  if (buf == NULL || len == 0) return buf;
  switch (w->kind) { /* every case writes buf: snprintf with len >= 1 terminates it */
  case LFC_IDLE:
    snprintf(buf, len, "IDLE");
    break;
  case LFC_DATA:
  {
    int n = snprintf(buf, len, "DATA%s%s cls=%u nblk=%u dst=%u tag=0x%08x ecn=%u",
                     w->sop ? " sop" : "", w->eop ? " eop" : "", (unsigned)w->cls,
                     (unsigned)w->nblk, (unsigned)w->dst, (unsigned)w->tag, (unsigned)w->ecn);
    /* SPEC §2.4 fields, only when set: a word of 0.2 reads as before */
    if (n >= 0 && (size_t)n < len && (w->pad != 0 || w->mrg != 0))
      snprintf(buf + n, len - (size_t)n, " pad=%u%s", (unsigned)w->pad, w->mrg ? " mrg" : "");
    break;
  }
  case LFC_FCP:
    snprintf(buf, len, "FCP%s vl=%u fctbs=%u fccl=%u",
             w->fc_op == LFC_FCP_OP_NORMAL ? "" : (w->fc_op == LFC_FCP_OP_INIT ? " init" : " op?"),
             (unsigned)w->fc_vl, (unsigned)w->fc_fctbs, (unsigned)w->fc_fccl);
    break;
  case LFC_PFC: {
    int n = snprintf(buf, len, "PFC en=0x%02x", (unsigned)w->pfc_en);
    for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS && n >= 0 && (size_t)n < len; i++)
      if (w->pfc_en & (1u << i) || w->pfc_time[i] != 0)
        n += snprintf(buf + n, len - (size_t)n, " t%u=%u", i, (unsigned)w->pfc_time[i]);
    break;
  }
  default:
    snprintf(buf, len, "kind=%u?", (unsigned)w->kind);
    break;
  }
  return buf;
}
