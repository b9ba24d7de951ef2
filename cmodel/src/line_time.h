/*
 * line_time.h - the line time of a transmitter (SPEC §2.4), shared by the switch's ports
 * (port_tx.c) and the end node (nic.c).
 *
 * A transmitter with wire_time = 1 charges each frame its bytes on the real link: a packet may
 * take one slot fewer than its blocks (its last word then carries two blocks, mrg) and an
 * Ethernet frame's preamble and gap may add an idle slot. With wire_time = 0 none of this is
 * called and every word takes one slot.
 */
#ifndef LFC_LINE_TIME_H
#define LFC_LINE_TIME_H

#include <stdbool.h>
#include <stdint.h>

#include "lfc/types.h"

#define LFC_LINE_SLACK_MAX 127  /* bytes carried at most into the next frame (SPEC §2.4) */
#define LFC_LINE_SLACK_MIN (-20) /* the most a frame owes: an Ethernet frame's overhead */
#define LFC_FCP_LINE_BYTES 6u      /* IBA vol. 1 §7.9.4: an FCP with its LPCRC */
#define LFC_PFC_LINE_BYTES (64u + LFC_ETH_LINE_OVERHEAD_BYTES) /* 802.1Qbb: a minimum frame */

/*
 * The register slack of §2.4, kept lazily: slack as written by the last frame, and end, the
 * first slot after that frame's last word. The idle slots after end, which §2.4 lets change
 * slack, are not visited: lfc_line_slack derives slack in S(t) from these two and t.
 */
typedef struct {
  uint64_t end;
  int8_t slack;
} lfc_line_t;

/* slack in S(t) (the value of register slack, SPEC §13.1); k is the port's speed divider. */
int lfc_line_slack(const lfc_line_t *l, uint64_t t, uint32_t k);

/* True when slot t is an idle gap (§5.2 step 2a): the last frame still owes the wire bytes. */
bool lfc_line_gap(const lfc_line_t *l, uint64_t t);

/* The first slot >= free (a slot, after the packet in flight) at which a frame may start. */
uint64_t lfc_line_first_slot(const lfc_line_t *l, uint64_t free, uint32_t k);

/* The merge flag of a packet of nblk blocks and pad bytes starting in slot t (§2.4); ib: mode. */
uint8_t lfc_line_mrg(const lfc_line_t *l, uint64_t t, uint32_t k, uint32_t nblk, uint32_t pad,
                     bool ib);

/* Step B: a packet of nblk blocks, pad, merge flag mrg starts in slot t. */
void lfc_line_data(lfc_line_t *l, uint64_t t, uint32_t k, uint32_t nblk, uint32_t pad, bool ib,
                   uint8_t mrg);

/* Step B: a control word of line_bytes (LFC_FCP_LINE_BYTES, LFC_PFC_LINE_BYTES) in slot t. */
void lfc_line_ctrl(lfc_line_t *l, uint64_t t, uint32_t k, uint32_t line_bytes);

#endif /* LFC_LINE_TIME_H */
