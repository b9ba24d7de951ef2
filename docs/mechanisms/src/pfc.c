/*
 * pfc.c - data for docs/mechanisms/pfc.md: priority flow control and the shared buffer
 * (SPEC §6.1-§6.7).
 *
 * pfc.csv: a 3:1 incast on one lossless priority (senders on ports 1..3, receiver on port 0).
 * Per cycle, for the ingress PG (port 1, priority 0): its blocks in reserve, shared pool and
 * headroom (pg_min, pg_shared, pg_hdrm), its xoff state, and the PFC frame the switch sent to
 * the sender in that cycle (1 = XOFF, time > 0; 2 = XON, time 0), plus the thresholds. The
 * headroom is SPEC §11's bound, so the PG must never drop.
 *
 * Usage: pfc OUTDIR
 */
#include "fig.h"

#define PROG "pfc"

#define PFC_PORTS 4u
#define PFC_PG_PORT 1u         /* the PG drawn: ingress port 1 (a sender), priority 0 */
#define PFC_PRIO 0u
#define PFC_MTU 32u            /* blocks */
#define PFC_MIN_NBLK 8u
#define PFC_DELAY 20u          /* cycles, each direction: D of SPEC §11 */
#define PFC_RESERVE 16u        /* blocks per PG */
#define PFC_SHARED 1024u       /* blocks, whole switch */
#define PFC_XOFF_TH 64u        /* static threshold on pg_shared, blocks (SPEC §6.2) */
#define PFC_XON_OFFSET 16u     /* hysteresis, blocks (SPEC §6.5) */
#define PFC_PAUSE_QUANTA 2000u /* quanta in an XOFF; one quantum = one cycle at k = 1 */
#define PFC_REFRESH 1000u      /* cycles between XOFF refreshes (< PFC_PAUSE_QUANTA, SPEC §3.3) */
#define PFC_CYCLES 4000u
#define PFC_SEED 71u

/* SPEC §11 with R = 0, k = 1. */
static uint32_t headroom_bound(void) {
  return 2u * PFC_MTU - 1u + (2u * PFC_DELAY + 2u);
}

int main(int argc, char **argv) {
  const char *dir = fig_outdir(argc, argv, "pfc.csv");
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, LFC_MODE_PFC, PFC_PORTS, 1u);
  cfg.sw.mtu_blocks = PFC_MTU;
  cfg.sw.drr_quantum[0] = PFC_MTU;
  cfg.sw.reserve_blocks = PFC_RESERVE;
  cfg.sw.shared_blocks = PFC_SHARED;
  cfg.sw.headroom_blocks = headroom_bound();
  cfg.sw.xoff_th = PFC_XOFF_TH;
  cfg.sw.xon_offset = PFC_XON_OFFSET;
  cfg.sw.pause_quanta = PFC_PAUSE_QUANTA;
  cfg.sw.refresh_cycles = PFC_REFRESH;
  cfg.nic.mtu_blocks = PFC_MTU;
  cfg.link_delay = PFC_DELAY;
  cfg.traffic.pattern = LFC_TRAFFIC_INCAST;
  cfg.traffic.incast_dst = 0u;
  cfg.traffic.load_permille = 1000u;
  cfg.traffic.min_nblk = PFC_MIN_NBLK;
  cfg.traffic.max_nblk = PFC_MTU;
  cfg.traffic.seed = PFC_SEED;
  char err[256];
  lfc_star_t *star = lfc_star_create(&cfg, err, sizeof err);
  if (star == NULL) fig_die(PROG, "%s", err);
  lfc_switch_t *sw = lfc_star_switch(star);
  size_t r_min = fig_reg(PROG, "pg_min"), r_sh = fig_reg(PROG, "pg_shared");
  size_t r_hd = fig_reg(PROG, "pg_hdrm"), r_xoff = fig_reg(PROG, "xoff");

  FILE *f = fig_csv(PROG, dir, "pfc.csv",
                    "cycle,pg_min,pg_shared,pg_hdrm,pg_total,xoff,frame,drops,reserve,xoff_th,"
                    "xon_offset,headroom,mtu,delay");
  for (uint64_t t = 0; t < PFC_CYCLES; t++) {
    /* S(t): the registers the transmit decision of cycle t reads (SPEC §1.3). */
    uint64_t mn = lfc_switch_reg(sw, r_min, PFC_PG_PORT, PFC_PRIO);
    uint64_t sh = lfc_switch_reg(sw, r_sh, PFC_PG_PORT, PFC_PRIO);
    uint64_t hd = lfc_switch_reg(sw, r_hd, PFC_PG_PORT, PFC_PRIO);
    uint64_t xoff = lfc_switch_reg(sw, r_xoff, PFC_PG_PORT, PFC_PRIO);
    lfc_star_step(star);
    const lfc_word_t *in, *out;
    lfc_star_last_words(star, &in, &out);
    int frame = 0;
    if (out[PFC_PG_PORT].kind == LFC_PFC && (out[PFC_PG_PORT].pfc_en >> PFC_PRIO & 1u))
      frame = out[PFC_PG_PORT].pfc_time[PFC_PRIO] > 0u ? 1 : 2;
    uint64_t drops = 0;
    for (uint32_t p = 0; p < PFC_PORTS; p++)
      for (uint32_t c = 0; c < LFC_DROP_CAUSES; c++)
        drops += lfc_switch_stats(sw, p)->cls[PFC_PRIO].drop_pkts[c];
    fprintf(f,
            "%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
            ",%d,%" PRIu64 ",%u,%u,%u,%u,%u,%u\n",
            t, mn, sh, hd, mn + sh + hd, xoff, frame, drops, PFC_RESERVE, PFC_XOFF_TH,
            PFC_XON_OFFSET, headroom_bound(), PFC_MTU, PFC_DELAY);
  }
  if (lfc_star_score(star)->errors != 0) fig_die(PROG, "scoreboard: %s", lfc_star_error(star));
  fclose(f);
  lfc_star_destroy(star);
  return 0;
}
