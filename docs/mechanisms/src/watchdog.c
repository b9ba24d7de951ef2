/*
 * watchdog.c - data for docs/mechanisms/watchdog.md: a PFC pause storm and the watchdog
 * (SPEC §6.7, §6.8).
 *
 * A 2-port switch. Port 1: an end node (lfc/nic.h) sending a steady flow of packets to port 0
 * over a link of LINK_DELAY cycles. Port 0: a broken receiver, driven by hand here, that sends
 * nothing but PFC XOFF frames for priority 0, one every STORM_PERIOD cycles from STORM_START to
 * STORM_END, and then falls silent: a pause storm. The switch's watchdog (drop action) trips
 * after wd_detect cycles of continuous pause, discards the queue's packets while the storm
 * lasts, and restores the queue wd_restore cycles after the last pause frame.
 *
 * watchdog.csv: per cycle, for egress queue (port 0, priority 0): pause_timer, wd_cnt,
 * wd_rcnt, wd_storm, qlen; for ingress PG (port 1, priority 0) its occupancy and xoff; the
 * frames received on port 0; cumulative watchdog drops and blocks sent on port 0; trip and
 * restore events.
 *
 * Usage: watchdog OUTDIR
 */
#include "fig.h"

#define PROG "watchdog"

#define WD_PORTS 2u
#define WD_EGRESS 0u            /* the stormed queue: egress port 0 ... */
#define WD_INGRESS 1u           /* ... fed by the sender on port 1 */
#define WD_PRIO 0u
#define WD_MTU 16u              /* blocks */
#define WD_PKT_BLOCKS 16u       /* every packet of the flow */
#define WD_PKT_GAP 40u          /* cycles between packets: 16/40 = 40 % of line rate */
#define LINK_DELAY 10u          /* cycles, sender <-> switch */
#define WD_RESERVE 16u          /* blocks */
#define WD_SHARED 512u          /* blocks */
#define WD_XOFF_TH 64u          /* blocks */
#define WD_DETECT 2000u         /* cycles of continuous pause that trip the watchdog */
#define WD_RESTORE 1500u        /* cycles without a pause frame that restore the queue */
#define STORM_QUANTA 800u       /* quanta in each storm frame (k = 1: cycles) */
#define STORM_PERIOD 400u       /* cycles between storm frames: the pause never lapses */
#define STORM_START 1000u       /* cycle of the first storm frame */
#define STORM_END 9000u         /* no storm frame from here on */
#define WD_CYCLES 13000u

/* SPEC §11 with R = 0, k = 1. */
static uint32_t headroom_bound(void) {
  return 2u * WD_MTU - 1u + (2u * LINK_DELAY + 2u);
}

int main(int argc, char **argv) {
  const char *dir = fig_outdir(argc, argv, "watchdog.csv");
  char err[256];
  lfc_switch_cfg_t sc;
  lfc_switch_cfg_default(&sc, LFC_MODE_PFC, WD_PORTS, 1u);
  sc.mtu_blocks = WD_MTU;
  sc.drr_quantum[0] = WD_MTU;
  sc.reserve_blocks = WD_RESERVE;
  sc.shared_blocks = WD_SHARED;
  sc.xoff_th = WD_XOFF_TH;
  sc.headroom_blocks = headroom_bound();
  sc.wd_enable = true;
  sc.wd_detect = WD_DETECT;
  sc.wd_restore = WD_RESTORE;
  sc.wd_action = LFC_WD_DROP;
  lfc_switch_t *sw = lfc_switch_create(&sc, err, sizeof err);
  if (sw == NULL) fig_die(PROG, "switch: %s", err);
  lfc_nic_cfg_t nc;
  lfc_nic_cfg_default(&nc, LFC_MODE_PFC, 1u);
  nc.mtu_blocks = WD_MTU;
  lfc_nic_t *nic = lfc_nic_create(&nc, err, sizeof err);
  if (nic == NULL) fig_die(PROG, "nic: %s", err);
  lfc_link_t *to_sw = lfc_link_create(LINK_DELAY), *to_nic = lfc_link_create(LINK_DELAY);
  if (to_sw == NULL || to_nic == NULL) fig_die(PROG, "out of memory");

  size_t r_pt = fig_reg(PROG, "pause_timer"), r_cnt = fig_reg(PROG, "wd_cnt");
  size_t r_rcnt = fig_reg(PROG, "wd_rcnt"), r_storm = fig_reg(PROG, "wd_storm");
  size_t r_qlen = fig_reg(PROG, "qlen"), r_xoff = fig_reg(PROG, "xoff");
  size_t r_min = fig_reg(PROG, "pg_min"), r_sh = fig_reg(PROG, "pg_shared");
  size_t r_hd = fig_reg(PROG, "pg_hdrm");

  FILE *f = fig_csv(PROG, dir, "watchdog.csv",
                    "cycle,pause_timer,wd_cnt,wd_rcnt,wd_storm,qlen,pg_total,xoff,rx_pause,"
                    "wd_drops,other_drops,tx_blocks,trip,restore,wd_detect,wd_restore,"
                    "storm_start,storm_end");
  uint32_t tag = 0;
  for (uint64_t t = 0; t < WD_CYCLES; t++) {
    if (t % WD_PKT_GAP == 0u) {
      lfc_pkt_t pkt = {.cls = WD_PRIO, .nblk = WD_PKT_BLOCKS, .ecn = LFC_ECN_NOT_ECT,
                       .dst = WD_EGRESS, .tag = tag++};
      if (lfc_nic_send(nic, &pkt) != 0) fig_die(PROG, "cycle %" PRIu64 ": sender FIFO full", t);
    }
    /* The storm: an XOFF for priority 0 every STORM_PERIOD cycles (SPEC §2, §6.7). */
    lfc_word_t in[WD_PORTS], out[WD_PORTS], nic_out;
    memset(in, 0, sizeof in);
    int rx_pause = t >= STORM_START && t < STORM_END && (t - STORM_START) % STORM_PERIOD == 0u;
    if (rx_pause) {
      in[WD_EGRESS].kind = LFC_PFC;
      in[WD_EGRESS].pfc_en = 1u << WD_PRIO;
      in[WD_EGRESS].pfc_time[WD_PRIO] = STORM_QUANTA;
    }
    in[WD_INGRESS] = *lfc_link_head(to_sw);
    /* S(t) (SPEC §1.3). */
    uint64_t pt = lfc_switch_reg(sw, r_pt, WD_EGRESS, WD_PRIO);
    uint64_t cnt = lfc_switch_reg(sw, r_cnt, WD_EGRESS, WD_PRIO);
    uint64_t rcnt = lfc_switch_reg(sw, r_rcnt, WD_EGRESS, WD_PRIO);
    uint64_t storm = lfc_switch_reg(sw, r_storm, WD_EGRESS, WD_PRIO);
    uint64_t qlen = lfc_switch_reg(sw, r_qlen, WD_EGRESS, WD_PRIO);
    uint64_t pg = lfc_switch_reg(sw, r_min, WD_INGRESS, WD_PRIO) +
                  lfc_switch_reg(sw, r_sh, WD_INGRESS, WD_PRIO) +
                  lfc_switch_reg(sw, r_hd, WD_INGRESS, WD_PRIO);
    uint64_t xoff = lfc_switch_reg(sw, r_xoff, WD_INGRESS, WD_PRIO);

    lfc_switch_step(sw, in, out);
    lfc_nic_step(nic, lfc_link_head(to_nic), &nic_out);
    lfc_link_push(to_nic, &out[WD_INGRESS]);
    lfc_link_push(to_sw, &nic_out);

    int trip = 0, restore = 0;
    const lfc_event_t *ev;
    size_t nev = lfc_switch_events(sw, &ev);
    for (size_t i = 0; i < nev; i++) {
      if (ev[i].port != WD_EGRESS || ev[i].cls != WD_PRIO) continue;
      trip |= ev[i].kind == LFC_EV_WD_TRIP;
      restore |= ev[i].kind == LFC_EV_WD_RESTORE;
    }
    uint64_t wd_drops = 0, other = 0, tx_blocks = lfc_switch_stats(sw, WD_EGRESS)->cls[0].tx_blocks;
    for (uint32_t p = 0; p < WD_PORTS; p++)
      for (uint32_t c = 0; c < LFC_DROP_CAUSES; c++) {
        uint64_t d = lfc_switch_stats(sw, p)->cls[WD_PRIO].drop_pkts[c];
        if (c == LFC_DROP_WATCHDOG) wd_drops += d;
        else other += d;
      }
    fprintf(f,
            "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
            ",%" PRIu64 ",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d,%d,%u,%u,%u,%u\n",
            t, pt, cnt, rcnt, storm, qlen, pg, xoff, rx_pause, wd_drops, other, tx_blocks, trip,
            restore, WD_DETECT, WD_RESTORE, STORM_START, STORM_END);
  }
  fclose(f);
  lfc_link_destroy(to_sw);
  lfc_link_destroy(to_nic);
  lfc_nic_destroy(nic);
  lfc_switch_destroy(sw);
  return 0;
}
