/*
 * test_switch_config.c - lfc_switch_cfg_check and lfc_switch_cfg_default (cmodel/src/switch.c,
 * docs/SPEC.md §3): defaults, legal ranges and illegal combinations: every illegal value and
 * every combination of §3.3 is rejected with a message naming the parameter(s); the edges of
 * each range are accepted.
 *
 * What the message says is allowed is what the check allows (lfc/switch.h: the message names
 * "the parameter, its value and what is allowed"): for every scalar parameter with a numeric
 * range, an out-of-range value gets "NAME = V is outside LO..HI"; LO and HI themselves are not
 * refused for their range, HI + 1 is, with a message giving the same range, and LO - 1 (when
 * LO > 0) is refused by a message naming the parameter and that value. A PFC priority mask
 * naming a priority >= classes is refused with that priority and the priorities that exist
 * ("priorities are 0..classes-1"), and the largest mask that fits passes; a VL arbitration
 * entry for a VL >= classes is refused with a message naming the data VLs 0..classes-1 (§3.2).
 *
 * The message buffer of the check and of lfc_switch_create: "writes one line to err (if err is
 * not NULL)", bounded by errlen as snprintf is; the result is the same in every case.
 */

#include "testutil.h"
#include "errbuf_testutil.h"

#include <stdio.h>
#include <string.h>

#include "lfc/nic.h"
#include "lfc/star.h"
#include "lfc/flat.h"
#include "lfc/link.h"

/* Check cfg; it must be rejected with a message containing every one of the given names. */
static void expect_rejected(const lfc_switch_cfg_t *cfg, const char *what, const char *name1,
                            const char *name2) {
  char err[512];
  memset(err, 0, sizeof err);
  int rc = lfc_switch_cfg_check(cfg, err, sizeof err);
  if (rc != -1) fail_msg("%s: accepted (rc %d), expected rejection", what, rc);
  if (strstr(err, name1) == NULL) {
    fail_msg("%s: message \"%s\" does not name \"%s\"", what, err, name1);
  }
  if (name2 != NULL && strstr(err, name2) == NULL) {
    fail_msg("%s: message \"%s\" does not name \"%s\"", what, err, name2);
  }
}

static void expect_accepted(const lfc_switch_cfg_t *cfg, const char *what) {
  char err[512] = "";
  int rc = lfc_switch_cfg_check(cfg, err, sizeof err);
  if (rc != 0) fail_msg("%s: rejected: %s", what, err);
}

/* ---- Defaults (SPEC §3.1, §3.2 "default" columns) ---- */

/* SPEC §3.1, §3.2: the PFC-mode defaults. */
static void test_cfg_defaults_match_spec_pfc(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 3);
  assert_int_equal(c.mode, LFC_MODE_PFC);
  assert_int_equal(c.ports, 4);
  assert_int_equal(c.classes, 3);
  for (uint32_t p = 0; p < 4; p++) assert_int_equal(c.speed_div[p], 1);
  assert_int_equal(c.latency, 1);
  assert_false(c.cut_through);
  assert_int_equal(c.mtu_blocks, 65);
  assert_int_equal(c.seed, 1);
  assert_null(c.route);
  assert_int_equal(c.lossless_mask, 0x07); /* all classes */
  assert_int_equal(c.reserve_blocks, 0);
  assert_int_equal(c.shared_blocks, 1024);
  assert_int_equal(c.headroom_blocks, 256);
  assert_false(c.dynamic_th);
  assert_int_equal(c.xoff_th, 128);
  assert_int_equal(c.alpha_log2, 0);
  assert_int_equal(c.xon_offset, 8);
  assert_int_equal(c.pause_quanta, 65535);
  assert_int_equal(c.refresh_cycles, 32768);
  assert_int_equal(c.strict_mask, 0);
  for (uint32_t k = 0; k < 3; k++) assert_int_equal(c.drr_quantum[k], 65); /* = mtu_blocks */
  assert_false(c.wd_enable);
  assert_int_equal(c.wd_detect, 65536);
  assert_int_equal(c.wd_restore, 65536);
  assert_int_equal(c.wd_action, LFC_WD_DROP);
  assert_int_equal(c.ecn_mask, 0);
  assert_int_equal(c.kmin, 16);
  assert_int_equal(c.kmax, 64);
  assert_int_equal(c.pmax, 655);
  expect_accepted(&c, "PFC defaults");
}

/* SPEC §3.2: the IB-mode defaults, including the low table (c, 4) for every class. */
static void test_cfg_defaults_match_spec_ib(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 8, 5);
  assert_int_equal(c.mode, LFC_MODE_IB);
  assert_int_equal(c.ports, 8);
  assert_int_equal(c.classes, 5);
  for (uint32_t v = 0; v < 5; v++) assert_int_equal(c.vl_blocks[v], 256);
  assert_int_equal(c.vl15_blocks, 0);
  assert_int_equal(c.fcp_period, 1024);
  assert_int_equal(c.fcp_holdoff, 0); /* an FCP on every change, as before fcp_holdoff (§5.5) */
  assert_int_equal(c.vlarb_high_len, 0);
  assert_int_equal(c.vlarb_low_len, 5);
  for (uint32_t v = 0; v < 5; v++) {
    assert_int_equal(c.vlarb_low[v].vl, v);
    assert_int_equal(c.vlarb_low[v].weight, 4);
  }
  assert_int_equal(c.vlarb_high_limit, 0);
  expect_accepted(&c, "IB defaults");
}

/* SPEC §3.1, §3.2: the defaults are legal for every class count of each mode (PFC 1..8, IB
 * 1..15) and at the extremes of the port count (2, 64). */
static void test_cfg_defaults_legal_at_extremes(void **state) {
  (void)state;
  static const uint32_t ports[] = {2, 4, 64};
  for (size_t i = 0; i < 3; i++) {
    lfc_switch_cfg_t c;
    char what[64];
    for (uint32_t k = 1; k <= 8; k++) {
      lfc_switch_cfg_default(&c, LFC_MODE_PFC, ports[i], k);
      snprintf(what, sizeof what, "PFC ports %u classes %u", ports[i], k);
      expect_accepted(&c, what);
    }
    for (uint32_t k = 1; k <= 15; k++) {
      lfc_switch_cfg_default(&c, LFC_MODE_IB, ports[i], k);
      snprintf(what, sizeof what, "IB ports %u classes %u", ports[i], k);
      expect_accepted(&c, what);
    }
  }
}

/* ---- Ranges (SPEC §3.1, §3.2): each illegal value rejected, message names the parameter ---- */

typedef struct {
  const char *what;
  lfc_mode_t mode;
  void (*mutate)(lfc_switch_cfg_t *c);
  const char *name;
} range_case_t;

#define MUT(fn, ...) \
  static void fn(lfc_switch_cfg_t *c) { __VA_ARGS__; }

MUT(m_ports_1, c->ports = 1)
MUT(m_ports_65, c->ports = 65)
MUT(m_classes_0, c->classes = 0)
MUT(m_classes_pfc_9, { c->classes = 9; for (int i = 0; i < 8; i++) c->drr_quantum[i] = 65; })
MUT(m_classes_ib_16, c->classes = 16)
MUT(m_speed_div_0, c->speed_div[1] = 0)
MUT(m_speed_div_17, c->speed_div[1] = 17)
MUT(m_latency_0, c->latency = 0)
MUT(m_latency_4096, c->latency = 4096)
MUT(m_mtu_0, c->mtu_blocks = 0)
MUT(m_mtu_256, { c->mtu_blocks = 256; for (int i = 0; i < 8; i++) c->drr_quantum[i] = 300; })
MUT(m_vl_blocks_65536, c->vl_blocks[1] = 65536)
MUT(m_vl15_65536, c->vl15_blocks = 65536)
MUT(m_fcp_period_0, c->fcp_period = 0)
MUT(m_fcp_period_65536, c->fcp_period = 65536)
MUT(m_fcp_holdoff_65536, c->fcp_holdoff = 65536)
MUT(m_vlarb_low_len_65, {
  for (int i = 0; i < 64; i++) c->vlarb_low[i] = (lfc_vlarb_entry_t){(uint8_t)(i % 2), 1};
  c->vlarb_low_len = 65;
})
MUT(m_vlarb_high_len_65, {
  for (int i = 0; i < 64; i++) c->vlarb_high[i] = (lfc_vlarb_entry_t){0, 1};
  c->vlarb_high_len = 65;
})
MUT(m_vlarb_vl_15, {
  c->vlarb_low[2] = (lfc_vlarb_entry_t){15, 1};
  c->vlarb_low_len = 3;
})
MUT(m_vlarb_high_limit_256, c->vlarb_high_limit = 256)
MUT(m_reserve_65536, c->reserve_blocks = 65536)
MUT(m_shared_2p20, c->shared_blocks = 1u << 20)
MUT(m_headroom_65536, c->headroom_blocks = 65536)
MUT(m_xoff_th_2p20, c->xoff_th = 1u << 20)
MUT(m_alpha_m8, { c->dynamic_th = true; c->alpha_log2 = -8; })
MUT(m_alpha_8, { c->dynamic_th = true; c->alpha_log2 = 8; })
MUT(m_xon_offset_65536, c->xon_offset = 65536)
MUT(m_xon_offset_0, c->xon_offset = 0) /* SPEC §3.2: 0 would flap XOFF/XON every cycle */
MUT(m_pause_quanta_65536, c->pause_quanta = 65536)
MUT(m_refresh_0, c->refresh_cycles = 0)
MUT(m_drr_quantum_4096, c->drr_quantum[1] = 4096)
MUT(m_wd_detect_0, { c->wd_enable = true; c->wd_detect = 0; })
MUT(m_wd_detect_2p20, { c->wd_enable = true; c->wd_detect = 1u << 20; })
MUT(m_wd_restore_0, { c->wd_enable = true; c->wd_restore = 0; })
MUT(m_wd_restore_2p20, { c->wd_enable = true; c->wd_restore = 1u << 20; })
MUT(m_wd_action_2, { c->wd_enable = true; c->wd_action = (lfc_wd_action_t)2; })
MUT(m_kmax_2p20, { c->ecn_mask = 1; c->kmax = 1u << 20; })
MUT(m_pmax_65537, { c->ecn_mask = 1; c->pmax = 65537; })
MUT(m_mode_2, c->mode = (lfc_mode_t)2)

static const range_case_t range_cases[] = {
    {"ports = 1", LFC_MODE_PFC, m_ports_1, "ports"},
    {"ports = 65", LFC_MODE_PFC, m_ports_65, "ports"},
    {"classes = 0", LFC_MODE_PFC, m_classes_0, "classes"},
    {"PFC classes = 9", LFC_MODE_PFC, m_classes_pfc_9, "classes"},
    {"IB classes = 16", LFC_MODE_IB, m_classes_ib_16, "classes"},
    {"speed_div = 0", LFC_MODE_PFC, m_speed_div_0, "speed_div"},
    {"speed_div = 17", LFC_MODE_PFC, m_speed_div_17, "speed_div"},
    {"latency = 0", LFC_MODE_PFC, m_latency_0, "latency"},
    {"latency = 4096", LFC_MODE_PFC, m_latency_4096, "latency"},
    {"mtu_blocks = 0", LFC_MODE_PFC, m_mtu_0, "mtu_blocks"},
    {"mtu_blocks = 256", LFC_MODE_PFC, m_mtu_256, "mtu_blocks"},
    {"vl_blocks = 65536", LFC_MODE_IB, m_vl_blocks_65536, "vl_blocks"},
    {"vl15_blocks = 65536", LFC_MODE_IB, m_vl15_65536, "vl15_blocks"},
    {"fcp_period = 0", LFC_MODE_IB, m_fcp_period_0, "fcp_period"},
    {"fcp_period = 65536", LFC_MODE_IB, m_fcp_period_65536, "fcp_period"},
    {"fcp_holdoff = 65536", LFC_MODE_IB, m_fcp_holdoff_65536, "fcp_holdoff"},
    {"vlarb_low 65 entries", LFC_MODE_IB, m_vlarb_low_len_65, "vlarb_low"},
    {"vlarb_high 65 entries", LFC_MODE_IB, m_vlarb_high_len_65, "vlarb_high"},
    {"vlarb entry vl 15", LFC_MODE_IB, m_vlarb_vl_15, "vlarb"},
    {"vlarb_high_limit = 256", LFC_MODE_IB, m_vlarb_high_limit_256, "vlarb_high_limit"},
    {"reserve_blocks = 65536", LFC_MODE_PFC, m_reserve_65536, "reserve_blocks"},
    {"shared_blocks = 2^20", LFC_MODE_PFC, m_shared_2p20, "shared_blocks"},
    {"headroom_blocks = 65536", LFC_MODE_PFC, m_headroom_65536, "headroom_blocks"},
    {"xoff_th = 2^20", LFC_MODE_PFC, m_xoff_th_2p20, "xoff_th"},
    {"alpha_log2 = -8", LFC_MODE_PFC, m_alpha_m8, "alpha_log2"},
    {"alpha_log2 = 8", LFC_MODE_PFC, m_alpha_8, "alpha_log2"},
    {"xon_offset = 65536", LFC_MODE_PFC, m_xon_offset_65536, "xon_offset"},
    {"xon_offset = 0", LFC_MODE_PFC, m_xon_offset_0, "xon_offset"},
    {"pause_quanta = 65536", LFC_MODE_PFC, m_pause_quanta_65536, "pause_quanta"},
    {"refresh_cycles = 0", LFC_MODE_PFC, m_refresh_0, "refresh_cycles"},
    {"drr_quantum = 4096", LFC_MODE_PFC, m_drr_quantum_4096, "drr_quantum"},
    {"wd_detect = 0", LFC_MODE_PFC, m_wd_detect_0, "wd_detect"},
    {"wd_detect = 2^20", LFC_MODE_PFC, m_wd_detect_2p20, "wd_detect"},
    {"wd_restore = 0", LFC_MODE_PFC, m_wd_restore_0, "wd_restore"},
    {"wd_restore = 2^20", LFC_MODE_PFC, m_wd_restore_2p20, "wd_restore"},
    {"wd_action = 2", LFC_MODE_PFC, m_wd_action_2, "wd_action"},
    {"kmax = 2^20", LFC_MODE_PFC, m_kmax_2p20, "kmax"},
    {"pmax = 65537", LFC_MODE_PFC, m_pmax_65537, "pmax"},
    {"mode = 2", LFC_MODE_PFC, m_mode_2, "mode"},
};

/* SPEC §3.1, §3.2: one value just outside each range, each rejected with a message naming it. */
static void test_cfg_each_illegal_range_rejected_naming_parameter(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof range_cases / sizeof range_cases[0]; i++) {
    const range_case_t *rc = &range_cases[i];
    lfc_switch_cfg_t c;
    lfc_switch_cfg_default(&c, rc->mode, 4, 2);
    rc->mutate(&c);
    expect_rejected(&c, rc->what, rc->name, NULL);
  }
}

/* SPEC §3.1, §3.2: the edges of each range are legal. */
static void test_cfg_range_edges_accepted(void **state) {
  (void)state;
  lfc_switch_cfg_t c;

  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 8);
  c.latency = 4095;
  c.mtu_blocks = 255;
  for (int i = 0; i < 8; i++) c.drr_quantum[i] = 255;
  c.drr_quantum[7] = 4095;
  c.speed_div[0] = 16; /* store-and-forward: mixed speeds are legal */
  c.reserve_blocks = 65535;
  c.shared_blocks = (1u << 20) - 1u;
  c.headroom_blocks = 65535;
  c.xoff_th = (1u << 20) - 1u;
  c.xon_offset = 65535;
  c.pause_quanta = 65535;
  c.refresh_cycles = 65534;
  c.lossless_mask = 0xFF;
  c.strict_mask = 0xFF;
  c.ecn_mask = 0xFF;
  c.wd_enable = true;
  c.wd_detect = (1u << 20) - 1u;
  c.wd_restore = 1;
  c.wd_action = LFC_WD_FORWARD;
  c.kmin = 0;
  c.kmax = (1u << 20) - 1u;
  c.pmax = 65536;
  c.seed = 0xFFFFFFFFu;
  expect_accepted(&c, "PFC upper edges");

  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 2, 1);
  c.mtu_blocks = 1;
  c.drr_quantum[0] = 1;
  c.shared_blocks = 1;
  c.xoff_th = 0;
  c.dynamic_th = true;
  c.alpha_log2 = -7;
  c.refresh_cycles = 1;
  c.pause_quanta = 2;
  c.wd_enable = true;
  c.wd_detect = 1;
  c.wd_restore = (1u << 20) - 1u;
  c.pmax = 0;
  c.seed = 0;
  expect_accepted(&c, "PFC lower edges");
  c.alpha_log2 = 7;
  expect_accepted(&c, "alpha_log2 = 7");

  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 15);
  for (int v = 0; v < 15; v++) c.vl_blocks[v] = 65535;
  c.vl_blocks[3] = c.mtu_blocks; /* vl_blocks = mtu_blocks exactly */
  c.vl15_blocks = 65535;
  c.fcp_period = 65535;
  c.fcp_holdoff = 65535;
  c.vlarb_high_limit = 255;
  c.vlarb_low_len = 64;
  for (int i = 0; i < 64; i++) c.vlarb_low[i] = (lfc_vlarb_entry_t){(uint8_t)(i % 15), 255};
  c.vlarb_high_len = 64;
  for (int i = 0; i < 64; i++) c.vlarb_high[i] = (lfc_vlarb_entry_t){14, 0};
  expect_accepted(&c, "IB upper edges");

  lfc_switch_cfg_default(&c, LFC_MODE_IB, 2, 1);
  c.fcp_period = 1;
  c.fcp_holdoff = 65535; /* >= fcp_period: legal, the periodic FCPs alone (§5.5) */
  c.vl15_blocks = 0;
  c.mtu_blocks = 1;
  c.vl_blocks[0] = 1;
  expect_accepted(&c, "IB lower edges");
}

/* ---- Illegal combinations (SPEC §3.3), each with its own message ---- */

/* SPEC §3.3: cut_through = 1 with ports of different speed_div. */
static void test_cfg_cut_through_with_mixed_speed_div_rejected(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.cut_through = true;
  c.speed_div[2] = 4;
  expect_rejected(&c, "cut_through, speed_div 1/4", "cut_through", "speed_div");
  c.cut_through = false;
  expect_accepted(&c, "store-and-forward, speed_div 1/4");
  c.cut_through = true;
  for (int p = 0; p < 4; p++) c.speed_div[p] = 4;
  expect_accepted(&c, "cut_through, all speed_div 4");
}

/* SPEC §3.3: IB vl_blocks[c] < mtu_blocks. */
static void test_cfg_ib_vl_blocks_below_mtu_rejected(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 3);
  c.vl_blocks[2] = 64; /* mtu_blocks 65 */
  expect_rejected(&c, "vl_blocks[2] = 64 < mtu 65", "vl_blocks", "mtu_blocks");
  c.vl_blocks[2] = 65;
  expect_accepted(&c, "vl_blocks[2] = mtu");
}

/* SPEC §3.3: a data VL < classes with no table entry of weight > 0. */
static void test_cfg_ib_data_vl_without_weight_rejected(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 3);
  c.vlarb_low[1].weight = 0; /* VL1 only has a weight-0 entry */
  expect_rejected(&c, "VL1 weight 0 everywhere", "vlarb", NULL);
  /* an entry with weight > 0 in the high table is enough */
  c.vlarb_high[0] = (lfc_vlarb_entry_t){1, 1};
  c.vlarb_high_len = 1;
  expect_accepted(&c, "VL1 weighted in the high table");
  /* an entry beyond the table length does not count */
  c.vlarb_high_len = 0;
  expect_rejected(&c, "VL1 entry beyond vlarb_high_len", "vlarb", NULL);
  /* the first VL as well */
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 3);
  c.vlarb_low[0].weight = 0;
  expect_rejected(&c, "VL0 weight 0 everywhere", "VL 0", NULL);
}

/* SPEC §3.3: a table entry naming a VL >= classes (low and high tables). */
static void test_cfg_ib_vlarb_entry_vl_beyond_classes_rejected(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  c.vlarb_low[2] = (lfc_vlarb_entry_t){2, 4};
  c.vlarb_low_len = 3;
  expect_rejected(&c, "low entry VL 2 with 2 classes", "vlarb_low", NULL);
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  c.vlarb_high[0] = (lfc_vlarb_entry_t){5, 0}; /* even with weight 0 */
  c.vlarb_high_len = 1;
  expect_rejected(&c, "high entry VL 5 with 2 classes", "vlarb_high", NULL);
}

/* SPEC §3.3: PFC lossless_mask / strict_mask / ecn_mask naming a priority >= classes. */
static void test_cfg_pfc_masks_beyond_classes_rejected(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 3);
  c.lossless_mask = 0x08;
  expect_rejected(&c, "lossless_mask bit 3, 3 classes", "lossless_mask", NULL);
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 3);
  c.strict_mask = 0x80;
  expect_rejected(&c, "strict_mask bit 7, 3 classes", "strict_mask", NULL);
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 3);
  c.ecn_mask = 0x0C;
  expect_rejected(&c, "ecn_mask bits 2,3, 3 classes", "ecn_mask", NULL);
  c.ecn_mask = 0x07;
  c.strict_mask = 0x04;
  c.lossless_mask = 0x01;
  expect_accepted(&c, "masks within 3 classes");
}

/* SPEC §3.3: PFC drr_quantum[c] < mtu_blocks. */
static void test_cfg_pfc_drr_quantum_below_mtu_rejected(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.drr_quantum[1] = 64;
  expect_rejected(&c, "drr_quantum[1] = 64 < mtu 65", "drr_quantum", "mtu_blocks");
}

/* SPEC §3.3: PFC refresh_cycles >= pause_quanta (equal included). */
static void test_cfg_pfc_refresh_not_below_pause_quanta_rejected(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.pause_quanta = 100;
  c.refresh_cycles = 100;
  expect_rejected(&c, "refresh = pause_quanta", "refresh_cycles", "pause_quanta");
  c.refresh_cycles = 101;
  expect_rejected(&c, "refresh > pause_quanta", "refresh_cycles", "pause_quanta");
  c.refresh_cycles = 99;
  expect_accepted(&c, "refresh = pause_quanta - 1");
}

/* SPEC §3.3: kmin >= kmax (equal included). */
static void test_cfg_pfc_kmin_not_below_kmax_rejected(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.ecn_mask = 0x01;
  c.kmin = 64;
  c.kmax = 64;
  expect_rejected(&c, "kmin = kmax", "kmin", "kmax");
  c.kmin = 65;
  expect_rejected(&c, "kmin > kmax", "kmin", "kmax");
  c.kmin = 63;
  expect_accepted(&c, "kmin = kmax - 1");
}

/* SPEC §3.3: shared_blocks = 0. */
static void test_cfg_pfc_shared_blocks_zero_rejected(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.shared_blocks = 0;
  expect_rejected(&c, "shared_blocks = 0", "shared_blocks", NULL);
}

/* SPEC §3.3: a route table entry naming a port >= ports. */
static void test_cfg_route_entry_beyond_ports_rejected(void **state) {
  (void)state;
  static const uint8_t bad[5] = {0, 1, 2, 4, 3};
  static const uint8_t good[5] = {0, 1, 2, 3, 3};
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.route = bad;
  c.route_len = 5;
  expect_rejected(&c, "route[3] = 4 with 4 ports", "route", NULL);
  c.route = good;
  expect_accepted(&c, "route within ports");
  /* route_len 1..65536 (dst is 16 bits): one entry is a route, none is not */
  c.route_len = 1;
  expect_accepted(&c, "route_len = 1");
  c.route_len = 0;
  expect_rejected(&c, "route_len = 0 with a table", "route_len", NULL);
}

/* SPEC §3: lfc_switch_create refuses an illegal configuration with the message. */
static void test_cfg_create_rejects_illegal_with_message(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.latency = 0;
  char err[256] = "";
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  assert_null(sw);
  assert_non_null(strstr(err, "latency"));
}

/* SPEC §3 / switch.h: err may be NULL; a short err buffer is truncated and NUL-terminated. */
static void test_cfg_check_null_and_short_error_buffer(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.xon_offset = 70000;
  assert_int_equal(lfc_switch_cfg_check(&c, NULL, 0), -1);
  char err[8];
  memset(err, 'x', sizeof err);
  assert_int_equal(lfc_switch_cfg_check(&c, err, 5), -1);
  assert_true(strlen(err) <= 4);
  assert_int_equal(err[5], 'x'); /* nothing written beyond errlen */
}

/* switch.h: "Fields of the other mode are ignored" - an IB switch with nonsense PFC fields and a
 * PFC switch with nonsense IB fields are legal. */
static void test_cfg_other_mode_fields_ignored(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  c.kmin = 100;
  c.kmax = 10;
  c.refresh_cycles = 65535;
  c.pause_quanta = 1;
  c.shared_blocks = 0;
  expect_accepted(&c, "IB with bad PFC fields");
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.vl_blocks[0] = 0;
  c.vlarb_low_len = 0;
  c.fcp_period = 0;
  c.fcp_holdoff = 65536;
  expect_accepted(&c, "PFC with bad IB fields");
}

/* SPEC §3.4: buffer size. IB: ports * (sum vl_blocks + vl15_blocks). */
static void test_cfg_buffer_blocks_ib(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 3);
  c.vl_blocks[0] = 100;
  c.vl_blocks[1] = 200;
  c.vl_blocks[2] = 300;
  c.vl_blocks[3] = 9999; /* not a class: not counted */
  c.vl15_blocks = 10;
  assert_int_equal(lfc_switch_cfg_buffer_blocks(&c), 4u * (100 + 200 + 300 + 10));
}

/* SPEC §3.4: PFC: ports * classes * reserve + shared + ports * popcount(lossless) * headroom. */
static void test_cfg_buffer_blocks_pfc(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 5, 4);
  c.reserve_blocks = 7;
  c.shared_blocks = 1000;
  c.headroom_blocks = 30;
  c.lossless_mask = 0x0A; /* 2 lossless */
  assert_int_equal(lfc_switch_cfg_buffer_blocks(&c), 5u * 4u * 7u + 1000u + 5u * 2u * 30u);
}

typedef struct {
  const char *name;
  size_t off;
  lfc_mode_t mode;
} field_t;

#define F(n, m) {#n, offsetof(lfc_switch_cfg_t, n), m}

/* The uint32_t parameters (lfc/switch.h) whose check is "NAME = V is outside LO..HI". */
static const field_t FIELDS[] = {
    F(ports, LFC_MODE_IB),           F(latency, LFC_MODE_IB),
    F(mtu_blocks, LFC_MODE_IB),      F(vl15_blocks, LFC_MODE_IB),
    F(fcp_period, LFC_MODE_IB),      F(vlarb_high_limit, LFC_MODE_IB),
    F(fcp_holdoff, LFC_MODE_IB),
    F(classes, LFC_MODE_IB),         F(classes, LFC_MODE_PFC),
    F(reserve_blocks, LFC_MODE_PFC), F(shared_blocks, LFC_MODE_PFC),
    F(headroom_blocks, LFC_MODE_PFC), F(xoff_th, LFC_MODE_PFC),
    F(xon_offset, LFC_MODE_PFC),     F(pause_quanta, LFC_MODE_PFC),
    F(refresh_cycles, LFC_MODE_PFC), F(wd_detect, LFC_MODE_PFC),
    F(wd_restore, LFC_MODE_PFC),     F(kmin, LFC_MODE_PFC),
    F(kmax, LFC_MODE_PFC),           F(pmax, LFC_MODE_PFC),
};

enum { PORTS = 4, CLASSES = 2, HUGE_VALUE = 0x7FFFFFFF };

/* Check cfg with field f set to v: the message ("" if accepted). */
static const char *check_with(const field_t *f, uint32_t v, char *err, size_t len) {
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, f->mode, PORTS, CLASSES);
  c.wd_enable = true; /* so that the watchdog's parameters are judged too */
  memcpy((char *)&c + f->off, &v, sizeof v);
  if (lfc_switch_cfg_check(&c, err, len) == 0) return "";
  return err;
}

/* Does the message refuse field f's value v for its range? */
static bool refused_for_range(const field_t *f, uint32_t v, const char *msg, long long lo,
                              long long hi) {
  char want[128];
  snprintf(want, sizeof want, "%s = %u is outside %lld..%lld", f->name, v, lo, hi);
  return strstr(msg, want) != NULL;
}

static void test_range_messages_match_the_check(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof FIELDS / sizeof FIELDS[0]; i++) {
    const field_t *f = &FIELDS[i];
    char err[256], prefix[64];
    const char *msg = check_with(f, HUGE_VALUE, err, sizeof err);
    snprintf(prefix, sizeof prefix, "%s = %u is outside ", f->name, (uint32_t)HUGE_VALUE);
    const char *at = strstr(msg, prefix);
    if (at == NULL) fail_msg("%s = %u: expected a range message, got '%s'", f->name, HUGE_VALUE, msg);
    long long lo, hi;
    if (sscanf(at + strlen(prefix), "%lld..%lld", &lo, &hi) != 2)
      fail_msg("%s: no LO..HI in '%s'", f->name, msg);
    assert_true(lo >= 0 && lo <= hi && hi < HUGE_VALUE);
    char e2[256];
    if (refused_for_range(f, (uint32_t)hi, check_with(f, (uint32_t)hi, e2, sizeof e2), lo, hi))
      fail_msg("%s: the message allows %lld but the check refuses it: '%s'", f->name, hi, e2);
    if (refused_for_range(f, (uint32_t)lo, check_with(f, (uint32_t)lo, e2, sizeof e2), lo, hi))
      fail_msg("%s: the message allows %lld but the check refuses it: '%s'", f->name, lo, e2);
    if (!refused_for_range(f, (uint32_t)hi + 1u, check_with(f, (uint32_t)hi + 1u, e2, sizeof e2),
                           lo, hi))
      fail_msg("%s: %lld is above the range the message gives, but: '%s'", f->name, hi + 1, e2);
    if (lo > 0) { /* refused, naming the value (some have a message of their own for it) */
      char named[96];
      snprintf(named, sizeof named, "%s = %lld ", f->name, lo - 1);
      if (strstr(check_with(f, (uint32_t)lo - 1u, e2, sizeof e2), named) == NULL)
        fail_msg("%s: %lld is below the range the message gives, but: '%s'", f->name, lo - 1, e2);
    }
  }
}

/* SPEC §3.2: lossless_mask, strict_mask, ecn_mask name priorities 0..classes-1. */
static void test_mask_messages_name_the_priorities(void **state) {
  (void)state;
  for (uint32_t classes = 1; classes < LFC_PFC_MAX_PRIOS; classes++) {
    for (int which = 0; which < 3; which++) {
      static const char *const names[] = {"lossless_mask", "strict_mask", "ecn_mask"};
      lfc_switch_cfg_t c;
      lfc_switch_cfg_default(&c, LFC_MODE_PFC, PORTS, classes);
      uint8_t *mask = which == 0 ? &c.lossless_mask : which == 1 ? &c.strict_mask : &c.ecn_mask;
      *mask = (uint8_t)((1u << classes) - 1u); /* every priority that exists */
      char err[256] = "";
      if (lfc_switch_cfg_check(&c, err, sizeof err) != 0)
        fail_msg("%s = 0x%02x with classes = %u refused: %s", names[which], *mask, classes, err);
      *mask = (uint8_t)(1u << classes | 1u); /* and one that does not */
      assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), -1);
      char want[160];
      snprintf(want, sizeof want,
               "%s = 0x%02x names priority %u, but classes = %u: priorities are 0..%u",
               names[which], *mask, classes, classes, classes - 1u);
      if (strstr(err, want) == NULL) fail_msg("expected '%s', got '%s'", want, err);
    }
  }
}

/* SPEC §3.1: cut-through needs every port at the same speed; whichever port differs, and
 * whether it is port 0 or another, the check refuses it and names the two speeds. */
static void test_cut_through_needs_equal_speeds(void **state) {
  (void)state;
  for (uint32_t odd = 0; odd < PORTS; odd++) {
    lfc_switch_cfg_t c;
    lfc_switch_cfg_default(&c, LFC_MODE_PFC, PORTS, CLASSES);
    c.cut_through = true;
    char err[256] = "";
    assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), 0);
    for (uint32_t p = 0; p < PORTS; p++) c.speed_div[p] = p == odd ? 1 : 2;
    assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), -1);
    char want[96];
    snprintf(want, sizeof want, "speed_div[0] = %u but speed_div[%u] = %u", c.speed_div[0],
             odd == 0 ? 1u : odd, odd == 0 ? 2u : 1u);
    if (strstr(err, want) == NULL) fail_msg("port %u at another speed: expected '%s' in '%s'", odd, want, err);
    c.cut_through = false; /* store-and-forward takes any speeds */
    assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), 0);
  }
}

/* SPEC §3.1: every port's speed_div is checked, port 0 and the last as well: 0 is refused with
 * a message naming the port and the range, whose top is accepted and top + 1 refused. */
static void test_speed_div_checked_on_every_port(void **state) {
  (void)state;
  for (uint32_t p = 0; p < PORTS; p++) {
    lfc_switch_cfg_t c;
    lfc_switch_cfg_default(&c, LFC_MODE_PFC, PORTS, CLASSES);
    c.speed_div[p] = 0;
    char err[256] = "", want[64];
    assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), -1);
    snprintf(want, sizeof want, "speed_div[%u] = 0 is outside 1..", p);
    const char *at = strstr(err, want);
    unsigned hi = 0;
    if (at == NULL || sscanf(at + strlen(want), "%u", &hi) != 1 || hi < 1u)
      fail_msg("speed_div[%u] = 0: expected '%sHI' in '%s'", p, want, err);
    c.speed_div[p] = hi;
    if (lfc_switch_cfg_check(&c, err, sizeof err) != 0)
      fail_msg("speed_div[%u] = %u (the top of the range) refused: %s", p, hi, err);
    c.speed_div[p] = hi + 1u;
    assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), -1);
    snprintf(want, sizeof want, "speed_div[%u] = %u is outside 1..%u", p, hi + 1u, hi);
    if (strstr(err, want) == NULL) fail_msg("expected '%s' in '%s'", want, err);
  }
}

/* A VL arbitration entry naming a VL that IB does not have: the message gives the VLs that exist. */
static void test_vlarb_vl_message(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, PORTS, 4);
  c.vlarb_low[0].vl = LFC_IB_MAX_VLS;
  char err[256] = "";
  assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), -1);
  assert_non_null(strstr(err, "vlarb_low[0].vl = 15 is outside 0..14"));
}


/* lfc/switch.h: lfc_switch_cfg_check and lfc_switch_create, a bad configuration. */
static void test_switch_check_and_create_any_buffer(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.ports = 1;
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_switch_cfg_check(&c, err, errlen), -1), "ports = 1");
  CHECK_ALL_BUFFERS(assert_null(lfc_switch_create(&c, err, errlen)), "ports = 1");
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  c.kmin = c.kmax; /* a combination rule */
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_switch_cfg_check(&c, err, errlen), -1), "kmin");
  CHECK_ALL_BUFFERS(assert_int_equal(lfc_switch_cfg_check(NULL, err, errlen), -1), "NULL");
  /* A legal configuration: 0, and an empty message, not the text of an earlier call, in a
     buffer of any length >= 1 (a caller may print it either way); with NULL a switch. */
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  for (size_t len = 1; len <= 2; len++) {
    char b[BIG];
    fill(b);
    assert_int_equal(lfc_switch_cfg_check(&c, b, len), 0);
    assert_int_equal(b[0], '\0');
    assert_untouched(b, 1);
  }
  assert_int_equal(lfc_switch_cfg_check(&c, NULL, BIG), 0);
  lfc_switch_t *sw = lfc_switch_create(&c, NULL, BIG);
  assert_non_null(sw);
  lfc_switch_destroy(sw);
}

/* A message buffer of length 0 is never written (lfc/switch.h: err may be NULL or errlen 0). */
static void test_error_buffer_of_length_zero(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  char buf[8] = "intact";
  assert_int_equal(lfc_switch_cfg_check(&c, buf, 0), 0);
  assert_string_equal(buf, "intact");
  c.ports = 1; /* invalid */
  assert_int_not_equal(lfc_switch_cfg_check(&c, buf, 0), 0);
  assert_string_equal(buf, "intact");
  assert_int_not_equal(lfc_switch_cfg_check(&c, NULL, 0), 0);
}

static void test_vlarb_vl_beyond_classes_message(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  c.vlarb_low[0].vl = 2;
  c.vlarb_low[0].weight = 4;
  c.vlarb_low_len = 1;
  char err[256] = "";
  assert_int_not_equal(lfc_switch_cfg_check(&c, err, sizeof err), 0);
  if (!strstr(err, "VLs are 0..1")) fail_msg("message \"%s\" lacks \"VLs are 0..1\"", err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      TU_TEST(test_cfg_defaults_match_spec_pfc),
      TU_TEST(test_cfg_defaults_match_spec_ib),
      TU_TEST(test_cfg_defaults_legal_at_extremes),
      TU_TEST(test_cfg_each_illegal_range_rejected_naming_parameter),
      TU_TEST(test_cfg_range_edges_accepted),
      TU_TEST(test_cfg_cut_through_with_mixed_speed_div_rejected),
      TU_TEST(test_cfg_ib_vl_blocks_below_mtu_rejected),
      TU_TEST(test_cfg_ib_data_vl_without_weight_rejected),
      TU_TEST(test_cfg_ib_vlarb_entry_vl_beyond_classes_rejected),
      TU_TEST(test_cfg_pfc_masks_beyond_classes_rejected),
      TU_TEST(test_cfg_pfc_drr_quantum_below_mtu_rejected),
      TU_TEST(test_cfg_pfc_refresh_not_below_pause_quanta_rejected),
      TU_TEST(test_cfg_pfc_kmin_not_below_kmax_rejected),
      TU_TEST(test_cfg_pfc_shared_blocks_zero_rejected),
      TU_TEST(test_cfg_route_entry_beyond_ports_rejected),
      TU_TEST(test_cfg_create_rejects_illegal_with_message),
      TU_TEST(test_cfg_check_null_and_short_error_buffer),
      TU_TEST(test_cfg_other_mode_fields_ignored),
      TU_TEST(test_cfg_buffer_blocks_ib),
      TU_TEST(test_cfg_buffer_blocks_pfc),
      cmocka_unit_test(test_range_messages_match_the_check),
      cmocka_unit_test(test_mask_messages_name_the_priorities),
      cmocka_unit_test(test_speed_div_checked_on_every_port),
      cmocka_unit_test(test_cut_through_needs_equal_speeds),
      cmocka_unit_test(test_vlarb_vl_message),
      cmocka_unit_test(test_switch_check_and_create_any_buffer),
      cmocka_unit_test(test_error_buffer_of_length_zero),
      cmocka_unit_test(test_vlarb_vl_beyond_classes_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
