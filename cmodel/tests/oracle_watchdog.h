/*
 * oracle_watchdog.h - a reference model of the pause timers and the PFC watchdog of a switch
 * (docs/SPEC.md §6.7, §6.8, §8.1), written from the SPEC rules, not from pfc_rx.c or
 * watchdog.c. test_watchdog.c drives it with random pause frames and packets.
 *
 * Before every step the oracle reads S(t) through the register API (pause_timer, wd_storm,
 * wd_cnt, wd_rcnt, qpkts); after it, with the frames of cycle t, it checks pause_timer' (§6.7),
 * and for each queue wd_storm', wd_cnt', wd_rcnt' with the trip / restore events (§6.8); with
 * the drop action a queue in storm with packets loses exactly its head in the cycle (WATCHDOG
 * drop at the egress port); a packet starts only on a queue not paused (or in storm with the
 * forward action) and never on a queue in the drop state (§8.1). A mismatch fails the cmocka
 * test with the cycle and what the SPEC gives.
 */
#ifndef LFC_ORACLE_WATCHDOG_H
#define LFC_ORACLE_WATCHDOG_H

#include <stdint.h>

#include "testutil.h"

/* The switch the oracle follows: ports and classes. */
enum { ORACLE_WD_PORTS = 3, ORACLE_WD_CLASSES = 2 };

typedef struct {
  lfc_switch_cfg_t cfg;
  size_t r_pt, r_st, r_cnt, r_rc, r_qp; /* register indices */
  /* S(t), read before the step */
  uint64_t pt[ORACLE_WD_PORTS][ORACLE_WD_CLASSES], st[ORACLE_WD_PORTS][ORACLE_WD_CLASSES],
      cnt[ORACLE_WD_PORTS][ORACLE_WD_CLASSES], rc[ORACLE_WD_PORTS][ORACLE_WD_CLASSES],
      qp[ORACLE_WD_PORTS][ORACLE_WD_CLASSES];
  /* what the run exercised */
  uint64_t trips, restores, discards;
} oracle_wd_t;

/* Follow a switch of configuration cfg (ORACLE_WD_PORTS ports, ORACLE_WD_CLASSES classes). */
void oracle_wd_init(oracle_wd_t *o, const lfc_switch_cfg_t *cfg);
/* Cycle begins: read S(t) of the bench's switch. */
void oracle_wd_begin(oracle_wd_t *o, const tu_t *t);
/* The bench stepped cycle cyc with the input words in[]: check the packets that started,
 * S(t+1) of every queue and the events of the cycle. */
void oracle_wd_check_step(oracle_wd_t *o, const tu_t *t, uint64_t cyc,
                          const lfc_word_t in[ORACLE_WD_PORTS]);

#endif
