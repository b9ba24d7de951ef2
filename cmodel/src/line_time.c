/*
 * line_time.c - the line time of a transmitter (SPEC §2.4): register slack and the merge flag.
 *
 * slack is kept as the value the last frame wrote (l->slack) and the first slot after that
 * frame (l->end). Slot end is then either an idle gap (slack < 0: slack + 64 afterwards) or an
 * idle slot (slack becomes 0), and every later idle slot leaves 0: so slack in S(t) follows from
 * t alone, and a transmitter with nothing to send costs nothing per slot.
 */
#include "line_time.h"

#include "lfc/types.h"

int lfc_line_slack(const lfc_line_t *l, uint64_t t, uint32_t k) {
  if (t <= l->end) return l->slack; /* slot end not yet taken */
  if (l->slack < 0 && t <= l->end + k) return l->slack + (int)LFC_BLOCK_BYTES; /* after the gap */
  return 0; /* an idle slot has passed */
}

bool lfc_line_gap(const lfc_line_t *l, uint64_t t) { return t == l->end && l->slack < 0; }

uint64_t lfc_line_first_slot(const lfc_line_t *l, uint64_t free, uint32_t k) {
  return l->slack < 0 && free <= l->end ? l->end + k : free;
}

static inline int min_int(int a, int b) { return a < b ? a : b; }

/* v of §2.4: what the packet leaves of the slots it needs, before a merge. */
static int packet_v(const lfc_line_t *l, uint64_t t, uint32_t k, uint32_t pad, bool ib) {
  int e = ib ? 0 : (int)LFC_ETH_LINE_OVERHEAD_BYTES;
  return lfc_line_slack(l, t, k) + (int)pad - e;
}

uint8_t lfc_line_mrg(const lfc_line_t *l, uint64_t t, uint32_t k, uint32_t nblk, uint32_t pad,
                     bool ib) {
  return nblk >= 2u && packet_v(l, t, k, pad, ib) >= (int)LFC_BLOCK_BYTES;
}

void lfc_line_data(lfc_line_t *l, uint64_t t, uint32_t k, uint32_t nblk, uint32_t pad, bool ib,
                   uint8_t mrg) {
  int v = packet_v(l, t, k, pad, ib) - (mrg ? (int)LFC_BLOCK_BYTES : 0);
  l->slack = (int8_t)min_int(v, LFC_LINE_SLACK_MAX);
  l->end = t + (uint64_t)(nblk - mrg) * k;
}

void lfc_line_ctrl(lfc_line_t *l, uint64_t t, uint32_t k, uint32_t line_bytes) {
  int v = lfc_line_slack(l, t, k) + (int)LFC_BLOCK_BYTES - (int)line_bytes;
  l->slack = (int8_t)min_int(v, LFC_LINE_SLACK_MAX);
  l->end = t + k;
}
