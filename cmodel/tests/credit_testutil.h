/*
 * credit_testutil.h - the IB bench of the credit tests (test_credit_rx.c, test_credit_tx.c,
 * test_rx_framing.c): the configuration and the exact FCP expected on a port in a cycle.
 */
#ifndef LFC_CREDIT_TESTUTIL_H
#define LFC_CREDIT_TESTUTIL_H

#include "testutil.h"

/* An IB switch, `classes` data VLs, store-and-forward, latency 1. At reset every port sends one
 * FCP per VL in cycles 0..classes-1 (§5.5: fcp_timer = 0 at reset, lowest VL first). */
static inline void cfg_ib(lfc_switch_cfg_t *c, uint32_t ports, uint32_t classes) {
  tu_cfg_ib(c, ports, classes);
}

static inline void expect_fcp(const tu_t *t, uint32_t port, uint64_t cycle, uint32_t vl, uint32_t fctbs,
                       uint32_t fccl) {
  lfc_word_t w = tu_out_at(t, port, cycle);
  char buf[160];
  if (w.kind != LFC_FCP || w.fc_vl != vl || w.fc_fctbs != fctbs || w.fc_fccl != fccl ||
      w.fc_op != LFC_FCP_OP_NORMAL) {
    fail_msg("port %u cycle %llu: expected FCP vl=%u fctbs=%u fccl=%u op=0, got %s", port,
             (unsigned long long)cycle, vl, fctbs, fccl, lfc_word_format(&w, buf, sizeof buf));
  }
}

#endif
