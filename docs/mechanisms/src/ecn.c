/*
 * ecn.c - data for docs/mechanisms/ecn.md: ECN marking by WRED on the egress queue (SPEC §9).
 *
 * A bursty 3:1 incast of ECN-capable packets (ECT(0)) keeps the egress queue towards port 0
 * anywhere between empty and well above kmax. For every packet that starts on that queue, the
 * queue length the marking decision reads (qlen in S(t), which includes the packet, SPEC §9.1)
 * and whether the packet left marked CE.
 *
 * ecn.csv:      one row per queue-length bin: packets started, packets marked, the measured
 *               fraction and the probability SPEC §9.2 gives for the bin's packets.
 * ecn_pkts.csv: one row per packet (qlen, marked), for the checks.
 *
 * Usage: ecn OUTDIR
 */
#include "fig.h"

#define PROG "ecn"

#define ECN_PORTS 4u
#define ECN_EGRESS 0u          /* the queue drawn: egress port 0, priority 0 */
#define ECN_PRIO 0u
#define ECN_MTU 16u            /* blocks: small packets sample the queue length finely */
#define ECN_MIN_NBLK 4u
#define ECN_DELAY 5u           /* cycles */
#define ECN_KMIN 40u           /* blocks */
#define ECN_KMAX 200u          /* blocks */
#define ECN_PMAX 16384u        /* 2^-16 units: 25 % at kmax */
#define ECN_P_ONE 65536.0      /* pmax units per probability 1 */
#define ECN_XOFF_TH 160u       /* blocks: per-PG shared threshold, high enough for long queues */
#define ECN_SHARED 2048u       /* blocks */
#define ECN_LOAD 330u          /* permille per sender: 3 x 0.33 = 0.99 of the egress */
#define ECN_BURST 12u          /* packets per burst: on/off traffic spreads the queue length */
#define ECN_CYCLES 600000u
#define ECN_BIN 10u            /* blocks per queue-length bin; divides ECN_KMIN and ECN_KMAX */
#define ECN_MAX_Q 400u         /* bins cover 0..ECN_MAX_Q; longer queues go in the last bin */
#define ECN_NBINS (ECN_MAX_Q / ECN_BIN + 1u)
#define ECN_SEED 81u

/* SPEC §9.2 as a probability, for a queue of q blocks. */
static double wred(uint64_t q) {
  if (q <= ECN_KMIN) return 0.0;
  if (q > ECN_KMAX) return 1.0;
  return ECN_PMAX / ECN_P_ONE * (double)(q - ECN_KMIN) / (double)(ECN_KMAX - ECN_KMIN);
}

int main(int argc, char **argv) {
  const char *dir = fig_outdir(argc, argv, "ecn.csv and ecn_pkts.csv");
  lfc_star_cfg_t cfg;
  lfc_star_cfg_default(&cfg, LFC_MODE_PFC, ECN_PORTS, 1u);
  cfg.sw.mtu_blocks = ECN_MTU;
  cfg.sw.drr_quantum[0] = ECN_MTU;
  cfg.sw.shared_blocks = ECN_SHARED;
  cfg.sw.xoff_th = ECN_XOFF_TH;
  cfg.sw.ecn_mask = 1u << ECN_PRIO;
  cfg.sw.kmin = ECN_KMIN;
  cfg.sw.kmax = ECN_KMAX;
  cfg.sw.pmax = ECN_PMAX;
  cfg.nic.mtu_blocks = ECN_MTU;
  cfg.link_delay = ECN_DELAY;
  cfg.traffic.pattern = LFC_TRAFFIC_INCAST;
  cfg.traffic.incast_dst = ECN_EGRESS;
  cfg.traffic.load_permille = ECN_LOAD;
  cfg.traffic.burst_pkts = ECN_BURST;
  cfg.traffic.min_nblk = ECN_MIN_NBLK;
  cfg.traffic.max_nblk = ECN_MTU;
  cfg.traffic.ecn_capable_pct = 100u;
  cfg.traffic.seed = ECN_SEED;
  char err[256];
  lfc_star_t *star = lfc_star_create(&cfg, err, sizeof err);
  if (star == NULL) fig_die(PROG, "%s", err);
  lfc_switch_t *sw = lfc_star_switch(star);
  size_t r_qlen = fig_reg(PROG, "qlen");

  static uint64_t started[ECN_NBINS], marked[ECN_NBINS];
  static double expect[ECN_NBINS]; /* sum of each packet's probability */
  FILE *pk = fig_csv(PROG, dir, "ecn_pkts.csv", "cycle,qlen,marked,kmin,kmax,pmax");
  for (uint64_t t = 0; t < ECN_CYCLES; t++) {
    uint64_t q = lfc_switch_reg(sw, r_qlen, ECN_EGRESS, ECN_PRIO); /* S(t), SPEC §9.1 */
    lfc_star_step(star);
    const lfc_word_t *in, *out;
    lfc_star_last_words(star, &in, &out);
    const lfc_word_t *w = &out[ECN_EGRESS];
    if (w->kind != LFC_DATA || !w->sop || w->cls != ECN_PRIO) continue;
    int m = w->ecn == LFC_ECN_CE;
    /* Bin b holds q in (b * ECN_BIN, (b + 1) * ECN_BIN], so kmin and kmax are bin edges. */
    uint64_t b = q == 0u ? 0u : (q - 1u) / ECN_BIN;
    if (b >= ECN_NBINS) b = ECN_NBINS - 1u;
    started[b]++;
    marked[b] += (uint64_t)m;
    expect[b] += wred(q);
    fprintf(pk, "%" PRIu64 ",%" PRIu64 ",%d,%u,%u,%u\n", t, q, m, ECN_KMIN, ECN_KMAX, ECN_PMAX);
  }
  fclose(pk);
  if (lfc_star_score(star)->errors != 0) fig_die(PROG, "scoreboard: %s", lfc_star_error(star));
  /* The switch's own count must agree with the marks seen on the wire. */
  uint64_t total = 0;
  for (uint32_t b = 0; b < ECN_NBINS; b++) total += marked[b];
  uint64_t counted = lfc_switch_stats(sw, ECN_EGRESS)->cls[ECN_PRIO].ecn_mark;
  if (counted != total)
    fig_die(PROG, "ecn_mark counter %" PRIu64 " != %" PRIu64 " CE packets seen", counted, total);

  FILE *f = fig_csv(PROG, dir, "ecn.csv",
                    "qlen_lo,qlen_hi,qlen_mid,started,marked,fraction,expected,kmin,kmax,pmax");
  for (uint32_t b = 0; b < ECN_NBINS; b++) {
    if (started[b] == 0) continue;
    uint32_t lo = b == 0u ? 0u : b * ECN_BIN + 1u, hi = (b + 1u) * ECN_BIN;
    fprintf(f, "%u,%u,%.1f,%" PRIu64 ",%" PRIu64 ",%.5f,%.5f,%u,%u,%u\n", lo, hi,
            (lo + hi) / 2.0, started[b], marked[b],
            (double)marked[b] / (double)started[b], expect[b] / (double)started[b], ECN_KMIN,
            ECN_KMAX, ECN_PMAX);
  }
  fclose(f);
  lfc_star_destroy(star);
  return 0;
}
