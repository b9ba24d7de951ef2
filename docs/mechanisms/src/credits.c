/*
 * credits.c - data for docs/mechanisms/credits.md: InfiniBand credit flow control (SPEC §5).
 *
 * 1. credits.csv: a 3:1 incast (senders on ports 1..3, receiver on port 0) into a receiver
 *    that drains at half line rate. Per cycle: the credits the switch's egress port 0 holds
 *    towards the receiver, (FCCL - FCTBS) mod 4096 (SPEC §5.3), its egress queue, and the
 *    occupancy of the ingress VL buffers (occ, SPEC §5.4) that the senders' credits come from.
 * 2. credits_sweep.csv: one flow (port 1 -> port 0, receiver at line rate) over a long link,
 *    for a range of vl_blocks: throughput against the buffer, to compare with SPEC §11's
 *    "a switch ingress needs" bound (the column bound_blocks).
 *
 * Usage: credits OUTDIR
 */
#include "fig.h"

#define PROG "credits"

/* Experiment 1: incast into a slow receiver. */
#define INCAST_PORTS 4u
#define INCAST_VL 0u
#define INCAST_MTU 32u          /* blocks: small packets keep the picture readable */
#define INCAST_MIN_NBLK 8u
#define INCAST_VL_BLOCKS 128u   /* switch receive buffer per (ingress port, VL) = credits */
#define INCAST_RX_BLOCKS 96u    /* the receiving node's buffer = the switch's credits */
#define INCAST_DRAIN_DIV 2u     /* the receiver drains one block every 2 cycles: half rate */
#define INCAST_DELAY 10u        /* cycles, each direction */
#define INCAST_FCP_PERIOD 256u  /* cycles */
#define INCAST_STOP 1000u       /* the senders stop creating packets here ... */
#define INCAST_CYCLES 8000u     /* ... and the switch has drained well before this */
#define INCAST_SEED 61u

/* Experiment 2: one flow over a long link, vl_blocks swept. */
#define SWEEP_PORTS 2u          /* the incast pattern with 2 ports is one flow 1 -> 0 */
#define SWEEP_MTU 16u
#define SWEEP_DELAY 50u         /* cycles: D of SPEC §11 */
#define SWEEP_LATENCY 1u        /* cycles, store-and-forward (cut_through = 0) */
#define SWEEP_VL_MIN 16u        /* = SWEEP_MTU, the smallest legal vl_blocks (SPEC §3.3) */
#define SWEEP_VL_MAX 256u
#define SWEEP_VL_STEP 8u
#define SWEEP_WARMUP 2000u      /* cycles before throughput is measured */
#define SWEEP_CYCLES 20000u     /* cycles measured */
#define SWEEP_SEED 62u

static uint32_t credits_avail(lfc_switch_t *sw, size_t r_fccl, size_t r_fctbs, uint32_t port) {
  uint64_t fccl = lfc_switch_reg(sw, r_fccl, port, INCAST_VL);
  uint64_t fctbs = lfc_switch_reg(sw, r_fctbs, port, INCAST_VL);
  return (uint32_t)((fccl - fctbs) & LFC_CREDIT_MASK);
}

static void incast(const char *dir) {
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, LFC_MODE_IB, INCAST_PORTS, 1u);
  cfg.sw.mtu_blocks = INCAST_MTU;
  cfg.sw.vl_blocks[INCAST_VL] = INCAST_VL_BLOCKS;
  cfg.sw.fcp_period = INCAST_FCP_PERIOD;
  cfg.nic.mtu_blocks = INCAST_MTU;
  cfg.nic.fcp_period = INCAST_FCP_PERIOD;
  cfg.nic.rx_blocks = INCAST_RX_BLOCKS;
  cfg.nic.drain_div = INCAST_DRAIN_DIV;
  cfg.link_delay = INCAST_DELAY;
  cfg.traffic.pattern = LFC_TRAFFIC_INCAST;
  cfg.traffic.incast_dst = 0u;
  cfg.traffic.load_permille = 1000u;
  cfg.traffic.min_nblk = INCAST_MIN_NBLK;
  cfg.traffic.max_nblk = INCAST_MTU;
  cfg.traffic.stop_cycle = INCAST_STOP;
  cfg.traffic.seed = INCAST_SEED;
  char err[256];
  lfc_star_t *star = lfc_star_create(&cfg, err, sizeof err);
  if (star == NULL) fig_die(PROG, "incast: %s", err);
  lfc_switch_t *sw = lfc_star_switch(star);
  size_t r_fccl = fig_reg(PROG, "fccl"), r_fctbs = fig_reg(PROG, "fctbs");
  size_t r_occ = fig_reg(PROG, "occ"), r_qlen = fig_reg(PROG, "qlen");

  FILE *f = fig_csv(PROG, dir, "credits.csv",
                    "cycle,credits_p0,qlen_p0,occ_p1,occ_p2,occ_p3,vl_blocks,rx_blocks,"
                    "credit_blocked_p0,drops,delivered_blocks");
  for (uint64_t t = 0; t < INCAST_CYCLES; t++) {
    /* Registers of S(t), the state the transmit decision of cycle t reads (SPEC §1.3). */
    uint64_t drops = 0;
    for (uint32_t p = 0; p < INCAST_PORTS; p++) {
      const lfc_port_stats_t *st = lfc_switch_stats(sw, p);
      for (uint32_t c = 0; c < LFC_DROP_CAUSES; c++) drops += st->cls[INCAST_VL].drop_pkts[c];
    }
    uint64_t blocked = lfc_switch_stats(sw, 0u)->cls[INCAST_VL].credit_blocked_cycles;
    fprintf(f, "%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%u,%" PRIu64
               ",%" PRIu64 ",%" PRIu64 "\n",
            t, credits_avail(sw, r_fccl, r_fctbs, 0u), lfc_switch_reg(sw, r_qlen, 0u, INCAST_VL),
            lfc_switch_reg(sw, r_occ, 1u, INCAST_VL), lfc_switch_reg(sw, r_occ, 2u, INCAST_VL),
            lfc_switch_reg(sw, r_occ, 3u, INCAST_VL), INCAST_VL_BLOCKS, INCAST_RX_BLOCKS,
            blocked, drops, lfc_star_score(star)->delivered_blocks);
    lfc_star_step(star);
  }
  if (lfc_star_score(star)->errors != 0) fig_die(PROG, "scoreboard: %s", lfc_star_error(star));
  fclose(f);
  lfc_star_destroy(star);
}

/* SPEC §11, a switch ingress, store-and-forward, k = 1. */
static uint32_t switch_bound(void) {
  return 2u * SWEEP_DELAY + 2u + SWEEP_LATENCY + SWEEP_MTU + SWEEP_MTU + SWEEP_MTU;
}

static void sweep(const char *dir) {
  FILE *f = fig_csv(PROG, dir, "credits_sweep.csv",
                    "vl_blocks,blocks_per_cycle,credit_blocked_cycles,drops,bound_blocks,delay");
  for (uint32_t vl = SWEEP_VL_MIN; vl <= SWEEP_VL_MAX; vl += SWEEP_VL_STEP) {
    lfc_star_cfg_t cfg;
    lfc_star_cfg_default(&cfg, LFC_MODE_IB, SWEEP_PORTS, 1u);
    cfg.sw.mtu_blocks = SWEEP_MTU;
    cfg.sw.latency = SWEEP_LATENCY;
    cfg.sw.vl_blocks[0] = vl;
    cfg.nic.mtu_blocks = SWEEP_MTU;
    cfg.link_delay = SWEEP_DELAY;
    cfg.traffic.pattern = LFC_TRAFFIC_INCAST;
    cfg.traffic.incast_dst = 0u;
    cfg.traffic.load_permille = 1000u;
    cfg.traffic.min_nblk = SWEEP_MTU;
    cfg.traffic.max_nblk = SWEEP_MTU;
    cfg.traffic.seed = SWEEP_SEED;
    char err[256];
    lfc_star_t *star = lfc_star_create(&cfg, err, sizeof err);
    if (star == NULL) fig_die(PROG, "sweep vl_blocks=%u: %s", vl, err);
    lfc_star_run(star, SWEEP_WARMUP);
    uint64_t before = lfc_star_score(star)->delivered_blocks;
    lfc_star_run(star, SWEEP_CYCLES);
    uint64_t got = lfc_star_score(star)->delivered_blocks - before;
    const lfc_port_stats_t *st = lfc_switch_stats(lfc_star_switch(star), 1u);
    uint64_t drops = 0;
    for (uint32_t c = 0; c < LFC_DROP_CAUSES; c++) drops += st->cls[0].drop_pkts[c];
    if (lfc_star_score(star)->errors != 0) fig_die(PROG, "scoreboard: %s", lfc_star_error(star));
    /* The sender (node 1) is what credits hold back: its blocked cycles. */
    uint64_t blocked = lfc_nic_stats(lfc_star_nic(star, 1u))->credit_blocked_cycles;
    fprintf(f, "%u,%.4f,%" PRIu64 ",%" PRIu64 ",%u,%u\n", vl, (double)got / SWEEP_CYCLES,
            blocked, drops, switch_bound(), SWEEP_DELAY);
    lfc_star_destroy(star);
  }
  fclose(f);
}

int main(int argc, char **argv) {
  const char *dir = fig_outdir(argc, argv, "credits.csv and credits_sweep.csv");
  incast(dir);
  sweep(dir);
  return 0;
}
