/*
 * oracle_nic.h - a reference model of the end node's words and counters (lfc/nic.h,
 * docs/SPEC.md §12.2), kept from the words a test gives the node and the words the node sends,
 * written from the documents, not from nic.c. test_nic_stats.c drives it with random traffic.
 *
 * What it follows:
 *   - transmit (§5.2, §5.3, §6.7, §12.2): packets leave in FIFO order per class; an IB data VL
 *     starts a packet only if the send rule passes (FCTBS counted at the start, FCCL from the
 *     last FCP received, §5.3); a PFC class starts none while paused: a frame received in cycle
 *     t with time q > 0 pauses [t+1+R, t+1+R+q*k), extending a pause still running at t+1+R
 *     (nic.c's documented choice), time 0 cancels at once;
 *   - receive (§7.2, §12.2): a first block with nblk 0, nblk > mtu_blocks or a class the node
 *     does not have is MALFORMED and its blocks are strays; a well-formed packet fits if
 *     n <= rx_blocks - occ (S(t); rx_blocks 0 = unlimited), else it is dropped (CREDIT in IB,
 *     HEADROOM in PFC); each class drains one block in cycles t with t mod drain_div = 0
 *     (reading S(t)), and an admitted packet is charged after that (VL15 never);
 *   - flow-control words sent: an FCP carries the VL's FCTBS and FCCL = ABR + free (§5.4,
 *     2048 free for an unlimited buffer), ABR advancing with every well-formed packet received
 *     on the VL and set by a valid FCP (op NORMAL or INIT, data VL); a PFC frame carries
 *     pause_quanta for the priorities in XOFF and 0 for those in XON, XOFF following §6.5 with
 *     the static thresholds rx_xoff / rx_xon (§12.2);
 *   - counters (nic.h): tx/rx packets and blocks, drops by cause, FCPs and PFC frames sent and
 *     received (a PFC frame in IB mode and an FCP in PFC mode are ignored, not counted), XOFF /
 *     XON entries sent and pause / resume entries received, paused class-cycles,
 *     credit-blocked VL-cycles, and the peak occupancy of any class.
 *
 * A cycle t, in this order: oracle_nic_begin_cycle (the counters that read S(t)), then after
 * lfc_nic_step oracle_nic_check_out (the word the node sent) and oracle_nic_receive (the word it
 * was given). A mismatch fails the cmocka test with the seed and the cycle.
 */
#ifndef LFC_ORACLE_NIC_H
#define LFC_ORACLE_NIC_H

#include <stdbool.h>
#include <stdint.h>

#include "lfc/nic.h"

enum { ORACLE_NIC_FIFO_CAP = 64 }; /* packets the oracle keeps queued per class, at most */

/* The oracle's copy of one class FIFO of the node. */
typedef struct {
  lfc_pkt_t v[ORACLE_NIC_FIFO_CAP];
  uint32_t head, n;
} oracle_fifo_t;

typedef struct {
  lfc_nic_cfg_t cfg;
  bool ib;
  uint64_t seed;        /* of the test's traffic, printed in every failure */
  lfc_nic_stats_t want; /* the counters as the documents define them */
  oracle_fifo_t fifo[LFC_MAX_CLASSES];
  uint32_t fctbs[LFC_MAX_CLASSES], fccl[LFC_MAX_CLASSES], abr[LFC_MAX_CLASSES];
  uint64_t ps[LFC_PFC_MAX_PRIOS], pe[LFC_PFC_MAX_PRIOS]; /* pause [start, end) per class */
  uint32_t occ[LFC_MAX_CLASSES];
  bool xoff[LFC_PFC_MAX_PRIOS];
  bool paused[LFC_PFC_MAX_PRIOS]; /* of S(t), the cycle begun last */
  uint32_t tx_rem;                /* blocks left of the packet the node is sending */
  uint32_t rx_rem;                /* continuation blocks the node expects (its framing, §7.2) */
} oracle_nic_t;

/* A node of configuration cfg at reset; seed is only printed. */
void oracle_nic_init(oracle_nic_t *o, const lfc_nic_cfg_t *cfg, uint64_t seed);
/* The packet was handed to the node (lfc_nic_send returned 0). At most ORACLE_NIC_FIFO_CAP
 * per class. */
void oracle_nic_queue(oracle_nic_t *o, const lfc_pkt_t *p);
/* Queued packets of class cls. */
uint32_t oracle_nic_backlog(const oracle_nic_t *o, uint32_t cls);
/* Cycle t begins: the counters of S(t) (credit-blocked VLs, paused classes). */
void oracle_nic_begin_cycle(oracle_nic_t *o, uint64_t t);
/* The node sent `out` in cycle t: check it against S(t) and account for it. */
void oracle_nic_check_out(oracle_nic_t *o, uint64_t t, const lfc_word_t *out);
/* The node was given `in` in cycle t: steps D, G and E and the drain. sop_in: the test sent
 * it as the first block of a packet; well_formed: that packet is legal (§7.2). Returns whether
 * a packet was admitted (the receive callback must have been called for it). */
bool oracle_nic_receive(oracle_nic_t *o, uint64_t t, const lfc_word_t *in, bool sop_in,
                        bool well_formed);
/* Every counter of lfc_nic_stats and every class backlog equal the oracle's. */
void oracle_nic_check_stats(const oracle_nic_t *o, const lfc_nic_t *nic);

#endif
