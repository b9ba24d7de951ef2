/*
 * tb_pcap.c - +pcap=DIR (make cosim PCAP=1): the words into and out of the switch, every port,
 * as pcap files through lfc/pcap_link.h (docs/wire-formats.md §6, tb/README.md "Captures").
 *
 * DIR/portP.pcap holds port P's link: side A is the switch (the RTL), side B its link partner;
 * direction A>B is the words out of the RTL, B>A the words into it (after the misbehaviour
 * injected in front of it), both at the cycle they cross the RTL's port. In the lockstep only
 * cycles in which the RTL and the model agreed are written (the consumer calls tb_pcap_cycle
 * after the comparison), so a failed run's files end before its mismatch; with +compare=0
 * (tb_free.c) every cycle the RTL ran. The co-simulation has no link speed: one cycle is 512
 * bits at TB_PCAP_GBPS. DIR/lfc-check.args gives the lfc-check options of each file.
 *
 * At the end (of a lockstep run: +compare=0 has no model to count) it prints, per port and
 * direction, what the model's counters say crossed the port
 * (lfc_switch_stats, SPEC §10: sent for A>B; received for B>A, the packets admitted or dropped
 * at admission, which leaves out the watchdog's drops), for a reader of the files to compare:
 *   pcap file=port0.pcap port=0 dir=A>B packets=N,N.. pfc=N xoff=N,N.. xon=N,N.. fcps=N ce=N,N..
 * (per class where there is a comma list; ce only for A>B: the switch's ECN marks). A run with
 * misbehaving partners or the watchdog on sends words the counters do not show this way.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/pcap.h"
#include "lfc/pcap_link.h"
#include "tb.h"

#define TB_PCAP_GBPS 100u /* the time of a cycle in the files */
#define TB_PCAP_DIRS 2u
#define TB_PCAP_PATH 4096u

struct tb_pcap {
  unsigned ports;
  char dir[TB_PCAP_PATH];
  lfc_pcap_link_t *w[TB_MAX_PORTS];
  int failed;
  char err[512];
};

tb_pcap_t *tb_pcap_open(const tb_t *tb, const char *dir, char *err, size_t errlen) {
  tb_pcap_t *pc = calloc(1, sizeof *pc);
  if (pc == NULL) {
    snprintf(err, errlen, "%s: out of memory", dir);
    return NULL;
  }
  pc->ports = tb->cfg.sw.ports;
  if (snprintf(pc->dir, sizeof pc->dir, "%s", dir) >= (int)sizeof pc->dir) {
    snprintf(err, errlen, "%.200s...: the path is too long", dir);
    free(pc);
    return NULL;
  }
  for (unsigned p = 0; p < pc->ports; p++) {
    char path[TB_PCAP_PATH];
    if (snprintf(path, sizeof path, "%s/port%u.pcap", dir, p) >= (int)sizeof path) {
      snprintf(err, errlen, "%.200s...: the path is too long", dir);
      tb_pcap_abort(pc);
      return NULL;
    }
    const lfc_pcap_link_cfg_t cfg = {tb->cfg.sw.mode, p};
    pc->w[p] = lfc_pcap_link_open(path, &cfg, err, errlen);
    if (pc->w[p] == NULL) {
      tb_pcap_abort(pc);
      return NULL;
    }
  }
  return pc;
}

void tb_pcap_cycle(tb_pcap_t *pc, uint64_t t, const lfc_word_t *in, const lfc_word_t *out) {
  if (pc->failed) return;
  const uint64_t ns = lfc_pcap_cycle_ns(t, TB_PCAP_GBPS);
  for (unsigned p = 0; p < pc->ports; p++) {
    /* A>B first at the same time: the order lfc-sim's files have */
    const lfc_word_t *w[TB_PCAP_DIRS] = {&out[p], &in[p]};
    for (uint32_t d = 0; d < TB_PCAP_DIRS; d++) {
      if (w[d]->kind == LFC_IDLE) continue;
      /* a packet's source port is in its tag (tb.h); the address space of dst is the ports */
      const uint16_t src = w[d]->kind == LFC_DATA ? (uint16_t)TB_TAG_SRC(w[d]->tag) : 0u;
      if (lfc_pcap_link_word(pc->w[p], ns, d, w[d], src, pc->err, sizeof pc->err) != 0) {
        pc->failed = 1;
        return;
      }
    }
  }
}

/* One comma list of a per-class counter. */
static void per_class(FILE *o, const char *name, const lfc_port_stats_t *st, unsigned classes,
                      size_t offset) {
  fprintf(o, " %s=", name);
  for (unsigned c = 0; c < classes; c++) {
    const uint64_t *v = (const uint64_t *)((const char *)&st->cls[c] + offset);
    fprintf(o, "%s%llu", c ? "," : "", (unsigned long long)*v);
  }
}

/* Picoseconds of a cycle in the files, and nanoseconds of n cycles rounded down (as the
   files' times are: lfc_pcap_cycle_ns). */
#define TB_PCAP_CYCLE_PS (512000u / TB_PCAP_GBPS)
#define TB_PS_PER_NS 1000u
static uint64_t cycles_ns(uint64_t n) { return n * TB_PCAP_CYCLE_PS / TB_PS_PER_NS; }

/* DIR/lfc-check.args: per file, the lfc-check options that fit how the co-simulation took it
 * (docs/verify-your-rtl.md §6, the same form as lfc-sim's, docs/sim.md): the mode and the
 * port's speed (one 512-bit slot every speed_div cycles of 5.12 ns). IB: --from-reset (the files
 * start at the RTL's reset, every counter 0, SPEC §5.1), the data VLs of the configuration, and
 * the FCP period of the slower of the switch and the partner (SPEC §5.5) and a slot of the port
 * (an FCP waits for one), rounded up. PFC: the lossless
 * priorities; a skew of 0 for the switch's data and the round trip of the link for the partner's
 * (the files are taken at the switch's port, side A: a pause from A is seen as it leaves, B's
 * data as it arrives), rounded down as the times are; the switch's watchdog with the action
 * forward (SPEC §6.8), which sends through a pause as old as its detection time (the action drop
 * discards instead: nothing to excuse). */
static int args_fill(FILE *o, const void *arg) {
  const tb_t *tb = arg;
  const lfc_switch_cfg_t *s = &tb->cfg.sw;
  for (unsigned p = 0; p < s->ports; p++) {
    const unsigned k = s->speed_div[p] ? s->speed_div[p] : 1u;
    const unsigned mbps = TB_PCAP_GBPS * 1000u / k;
    if (fprintf(o, "port%u.pcap --mode %s --speed-gbps %u.%03u", p,
                s->mode == LFC_MODE_IB ? "ib" : "pfc", mbps / 1000u, mbps % 1000u) < 0)
      return -1;
    if (s->mode == LFC_MODE_IB) {
      const uint32_t period = s->fcp_period > tb->cfg.nic[p].fcp_period
                                  ? s->fcp_period : tb->cfg.nic[p].fcp_period;
      if (fprintf(o, " --from-reset --data-vls %u --fcp-period-ns %llu", s->classes,
                  (unsigned long long)(cycles_ns((uint64_t)period + k) + 1u)) < 0)
        return -1;
    } else {
      if (fprintf(o, " --lossless 0x%02x --skew-ns 0,%llu", s->lossless_mask,
                  (unsigned long long)cycles_ns(2u * (uint64_t)tb->cfg.link_delay[p])) < 0)
        return -1;
      if (s->wd_enable && s->wd_action == LFC_WD_FORWARD &&
          fprintf(o, " --watchdog-ns %llu", (unsigned long long)cycles_ns(s->wd_detect)) < 0)
        return -1;
    }
    if (fputc('\n', o) == EOF) return -1;
  }
  return 0;
}

int tb_pcap_close(tb_pcap_t *pc, const tb_t *tb, int counters, char *err, size_t errlen) {
  if (pc->failed) {
    snprintf(err, errlen, "%s", pc->err);
    tb_pcap_abort(pc);
    return -1;
  }
  const unsigned classes = tb->cfg.sw.classes;
  uint64_t lengthened = 0, unwritable = 0, records = 0;
  for (unsigned p = 0; p < pc->ports; p++) {
    const lfc_pcap_link_stats_t *ls = lfc_pcap_link_stats(pc->w[p]);
    lengthened += ls->lengthened;
    unwritable += ls->unwritable;
    records += ls->records;
    lfc_pcap_link_t *w = pc->w[p];
    pc->w[p] = NULL;
    if (lfc_pcap_link_close(w, err, errlen) != 0) {
      tb_pcap_abort(pc);
      return -1;
    }
    if (!counters) continue;
    const lfc_port_stats_t *st = lfc_switch_stats(tb->sw, p);
    printf("pcap file=port%u.pcap port=%u dir=A>B", p, p);
    per_class(stdout, "packets", st, classes, offsetof(lfc_class_stats_t, tx_pkts));
    printf(" pfc=%llu", (unsigned long long)st->pfc_tx);
    per_class(stdout, "xoff", st, classes, offsetof(lfc_class_stats_t, xoff_tx));
    per_class(stdout, "xon", st, classes, offsetof(lfc_class_stats_t, xon_tx));
    printf(" fcps=%llu", (unsigned long long)st->fcp_tx);
    per_class(stdout, "ce", st, classes, offsetof(lfc_class_stats_t, ecn_mark));
    printf("\npcap file=port%u.pcap port=%u dir=B>A packets=", p, p);
    for (unsigned c = 0; c < classes; c++) { /* admitted, or dropped at admission (SPEC §10) */
      uint64_t n = st->cls[c].rx_pkts;
      for (unsigned k = 0; k < LFC_DROP_CAUSES; k++)
        if (k != LFC_DROP_WATCHDOG) n += st->cls[c].drop_pkts[k];
      printf("%s%llu", c ? "," : "", (unsigned long long)n);
    }
    printf(" pfc=%llu", (unsigned long long)st->pfc_rx);
    per_class(stdout, "xoff", st, classes, offsetof(lfc_class_stats_t, pause_rx));
    per_class(stdout, "xon", st, classes, offsetof(lfc_class_stats_t, resume_rx));
    printf(" fcps=%llu\n", (unsigned long long)st->fcp_rx);
  }
  char args[TB_PCAP_PATH + 32];
  snprintf(args, sizeof args, "%s/lfc-check.args", pc->dir);
  if (tb_write_file(args, args_fill, tb) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", args, strerror(errno));
    free(pc);
    return -1;
  }
  printf("pcap: %u files, %llu frames; %llu one-block packets written as two-block RoCEv2 "
         "frames; %llu words no frame carries, not written\n",
         pc->ports, (unsigned long long)records, (unsigned long long)lengthened,
         (unsigned long long)unwritable);
  free(pc);
  return 0;
}

void tb_pcap_abort(tb_pcap_t *pc) {
  if (pc == NULL) return;
  for (unsigned p = 0; p < pc->ports; p++) lfc_pcap_link_abort(pc->w[p]);
  free(pc);
}
