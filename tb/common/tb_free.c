/*
 * tb_free.c - +compare=0 (make cosim COMPARE=0): the RTL with the stimulus and link partners of
 * the lockstep, and nothing comparing it with the C model.
 *
 * In the lockstep (tb_main.c) the partners are fed the model's words: the C side never reads
 * the RTL, and an RTL that differs from the model in a single cycle stops the run. Here the
 * RTL's own words go onto the links, so the partners (lfc_nic, SPEC §12.2) obey the credits and
 * pauses the RTL sends, whatever its latency, arbitration or rate of flow-control words: a
 * design that is not cycle-equal to the model runs as it would in a network. The model is
 * created with the rest of the C side but never stepped; the stimulus reads from it only to aim
 * [misbehave] edge_fcp_*, which is refused here (tb_free_check_cfg).
 *
 * Checked without the model's timing (docs/verify-your-rtl.md §6):
 *   - end to end, through lfc/scoreboard.h: a packet whose first block enters a switch port and
 *     is not dropped there (stat_drop_o in that cycle, with its stat_drop_cause_o) is accepted;
 *     it must leave once, on the port its dst names (identity route, SPEC §7.1; the flow is
 *     source port, destination and class, so a packet on another port is sb-unknown), in order
 *     within its flow (SPEC §7.3, §7.4); a drop whose cause is not allowed is sb-drop (with
 *     [run] lossless = 1: CREDIT and HEADROOM); a packet still inside at the end is sb-lost;
 *   - a packet leaves with the fields it was created with (dst, class, nblk), its ECN as sent
 *     or CE for an ECN-capable one (SPEC §9), in contiguous slots of its port with sop and eop
 *     as SPEC §7.4 says (tx-framing, tx-fields);
 *   - stat_drop_o only for a packet arriving on its port (tx-stat);
 *   - no x or z bit on an output (Icarus);
 *   - [run] lossless = 1: no partner dropped a packet (the switch sent beyond its credit or
 *     through a pause; partner-drop).
 * After the configured cycles the run goes on, with no new traffic (the sources stop at [traffic]
 * stop_pct), until no accepted packet is inside, for at most a quarter of the cycles more, so
 * that a longer pipeline is not taken for a loss. A packet still inside then is lost (sb-lost)
 * if the configuration says it ends empty ([run] drained = 1), or if a port is stuck: it holds
 * packets and started none for that quarter of the cycles (tx-stuck, a deadlock); otherwise (the
 * partners of an oversubscribed port still hold packets, and the switch with them) it is
 * counted, not judged, and a packet lost inside shows as sb-order when a later one of its flow
 * leaves. With the
 * watchdog's action "drop" the scoreboard is off: stat_wd_drop_o names a queue, not the packet
 * discarded from it. The protocol on each link is lfc-check's to judge, over the PCAP=1
 * files (tb_pcap.c writes lfc-check.args beside them).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lfc/scoreboard.h"
#include "tb.h"

/* Violations printed in full; all are counted. */
#define FREE_MAX_LINES 20u
/* The flow of a packet: source port, destination, class (lfc/scoreboard.h's key). */
#define FREE_FLOW(src, dst, cls) \
  (((uint64_t)(src) << 32) | ((uint64_t)(uint16_t)(dst) << 8) | ((uint64_t)(cls) & 0xffu))
/* Direction of the scoreboard's records: into the switch (B>A), out of it (A>B). */
#define FREE_IN LFC_CHECK_BA
#define FREE_OUT LFC_CHECK_AB
/* The drain after the run: at most tb->cycles / FREE_DRAIN_DIV cycles. */
#define FREE_DRAIN_DIV 4u
/* The time of a cycle for lfc/scoreboard.h's messages: one 512-bit block at 100 Gb/s. */
#define FREE_GBPS_MBPS 100000u

typedef struct {
  tb_t *tb;
  lfc_sb_t *sb;      /* NULL: the scoreboard is off */
  uint64_t failures; /* the test bench's own findings (tx-framing, ...), printed as they come */
  uint8_t rx_rem[TB_MAX_PORTS];  /* framing mirror of SPEC §7.2 on the switch's inputs */
  uint32_t out_rem[TB_MAX_PORTS]; /* blocks still to come of the packet each port sends */
  lfc_word_t out_cur[TB_MAX_PORTS];
  int64_t held[TB_MAX_PORTS];     /* accepted for each egress port, not yet delivered */
  uint64_t last_tx[TB_MAX_PORTS]; /* the last cycle each port started a packet */
} free_t;

int tb_free_check_cfg(const tb_cfg_t *c) {
  if (c->mis.edge_fcp_ports && c->mis.edge_fcp_permille) {
    fprintf(stderr, "cosim: +compare=0: %s: [misbehave] edge_fcp_* aims its FCPs from the "
                    "model's registers, which a run without the model does not have; "
                    "configurations without it are allowed\n", c->path);
    return 2;
  }
  return 0;
}

/* One finding of the test bench itself, in the form of lfc-check's lines. */
static void finding(free_t *f, uint64_t t, unsigned port, unsigned dir, const char *cls,
                    const char *expected, const char *observed) {
  f->failures++;
  if (f->failures <= FREE_MAX_LINES)
    printf("VIOLATION time=%" PRIu64 "cyc link=%u dir=%s class=%s expected=\"%s\" "
           "observed=\"%s\"\n", t, port, dir == FREE_OUT ? "A>B" : "B>A", cls, expected,
           observed);
}

/* The words into the switch in cycle t and its drop pulses: acceptances and drops. */
static void score_in(free_t *f, uint64_t t, const lfc_word_t *in, const dut_stat_t *st) {
  tb_t *tb = f->tb;
  tb_score_t *s = &tb->score;
  char a[224], b[160];
  for (unsigned p = 0; p < tb->cfg.sw.ports; p++) {
    const lfc_word_t *w = &in[p];
    int arrival = 0;
    if (w->kind == LFC_DATA) {
      if (f->rx_rem[p] > 0) {
        f->rx_rem[p]--;
      } else if (w->sop) {
        arrival = 1;
      }
    }
    if (!arrival) {
      if (st->drop[p]) {
        snprintf(a, sizeof a, "stat_drop_o cause %u with %s", st->drop_cause[p],
                 lfc_word_format(w, b, sizeof b));
        finding(f, t, p, FREE_IN, "tx-stat", "a drop only of a packet arriving on its port", a);
      }
      continue;
    }
    s->offered++;
    const uint64_t flow = FREE_FLOW(TB_TAG_SRC(w->tag), w->dst, w->cls);
    const uint64_t id = TB_TAG_ID(w->tag);
    if (f->sb && lfc_sb_accept(f->sb, flow, id, t, p, FREE_IN) != 0)
      finding(f, t, p, FREE_IN, "sb-refused", "the scoreboard records the packet",
              lfc_sb_error(f->sb));
    if (st->drop[p]) {
      const unsigned cause = st->drop_cause[p];
      if (cause < LFC_DROP_CAUSES) s->dropped[cause]++;
      if (f->sb) (void)lfc_sb_drop(f->sb, flow, id, t, p, FREE_IN, (lfc_drop_cause_t)cause);
      /* the words still to come: nblk - 1 - mrg (SPEC §2.1, §7.2) */
      f->rx_rem[p] = cause == LFC_DROP_MALFORMED || w->nblk <= w->mrg
                         ? 0
                         : (uint8_t)(w->nblk - 1u - w->mrg);
    } else {
      s->accepted++;
      f->rx_rem[p] = w->nblk > w->mrg ? (uint8_t)(w->nblk - 1u - w->mrg) : 0;
      if (w->dst < tb->cfg.sw.ports) f->held[w->dst]++;
    }
  }
}

/* The words out of the switch in cycle t: framing (SPEC §7.4), fields, deliveries. */
static void score_out(free_t *f, uint64_t t, const lfc_word_t *out) {
  tb_t *tb = f->tb;
  tb_score_t *s = &tb->score;
  char a[160], b[160];
  for (unsigned q = 0; q < tb->cfg.sw.ports; q++) {
    const lfc_word_t *w = &out[q];
    const unsigned k = tb->cfg.sw.speed_div[q];
    if (f->out_rem[q] > 0) {
      if (t % k != 0) {
        if (w->kind != LFC_IDLE)
          finding(f, t, q, FREE_OUT, "tx-framing", "IDLE between the slots of the port",
                  lfc_word_format(w, a, sizeof a));
        continue;
      }
      lfc_word_t want = f->out_cur[q];
      want.sop = 0;
      want.eop = f->out_rem[q] == 1;
      if (!lfc_word_equal(&want, w))
        finding(f, t, q, FREE_OUT, "tx-framing", lfc_word_format(&want, b, sizeof b),
                lfc_word_format(w, a, sizeof a));
      f->out_rem[q]--;
      continue;
    }
    if (w->kind != LFC_DATA) continue;
    if (!w->sop || t % k != 0 || w->eop != (w->nblk - w->mrg == 1) ||
        (w->mrg && (w->nblk < 2 || !tb->cfg.sw.wire_time))) {
      finding(f, t, q, FREE_OUT, "tx-framing",
              "a packet starts in a slot of its port with sop, eop on its last word, mrg only "
              "with nblk >= 2 and wire_time = 1",
              lfc_word_format(w, a, sizeof a));
      continue;
    }
    int differs = tb_score_fields(tb, w, b, sizeof b);
    const int ecn = tb_score_ecn(tb, w->tag);
    if (differs == 0 && ecn >= 0 && w->ecn != ecn &&
        !(w->ecn == LFC_ECN_CE && (ecn == LFC_ECN_ECT0 || ecn == LFC_ECN_ECT1))) {
      snprintf(b, sizeof b, "ecn=%d, or CE for an ECN-capable packet (SPEC §9)", ecn);
      differs = 1;
    }
    /* An unknown tag is the scoreboard's sb-unknown when it runs. */
    if (differs > 0 || (differs < 0 && !f->sb))
      finding(f, t, q, FREE_OUT, "tx-fields", b, lfc_word_format(w, a, sizeof a));
    if (f->sb)
      (void)lfc_sb_deliver(f->sb, FREE_FLOW(TB_TAG_SRC(w->tag), q, w->cls), TB_TAG_ID(w->tag), t,
                           q, FREE_OUT);
    s->delivered++;
    s->delivered_blocks += w->nblk;
    f->held[q]--;
    f->last_tx[q] = t;
    f->out_rem[q] = w->nblk > w->mrg ? w->nblk - 1u - w->mrg : 0u;
    f->out_cur[q] = *w;
  }
}

/* The pauses the switch has sent, for the stimulus's choice of a paused class (tb_stim.c). */
static void note_pauses(tb_t *tb, const lfc_word_t *out) {
  for (unsigned p = 0; p < tb->cfg.sw.ports; p++) {
    const lfc_word_t *w = &out[p];
    tb->tx_words[w->kind & 3u]++;
    if (w->kind != LFC_PFC) continue;
    for (unsigned i = 0; i < LFC_PFC_MAX_PRIOS; i++)
      if (w->pfc_en & (1u << i)) tb->pfc_out_xoff[p][i] = w->pfc_time[i] > 0;
  }
}

static uint64_t outstanding(const free_t *f) {
  if (!f->sb) return 0;
  lfc_sb_stats_t st;
  lfc_sb_stats(f->sb, &st);
  return st.outstanding;
}

int tb_free_run(tb_t *tb, tb_pcap_t *pcap, uint64_t *ran) {
  static free_t fs; /* large; one run per process */
  free_t *f = &fs;
  memset(f, 0, sizeof *f);
  f->tb = tb;
  const unsigned ports = tb->cfg.sw.ports;
  const int wd_discards = tb->cfg.sw.wd_enable && tb->cfg.sw.wd_action == LFC_WD_DROP;
  if (!wd_discards) {
    lfc_sb_cfg_t sc;
    lfc_sb_cfg_default(&sc);
    sc.allowed_drops = (1u << LFC_DROP_CAUSES) - 1u;
    if (tb->cfg.lossless)
      sc.allowed_drops &= ~((1u << LFC_DROP_CREDIT) | (1u << LFC_DROP_HEADROOM));
    sc.time_unit_ps = (uint32_t)LFC_CHECK_CYCLE_PS(FREE_GBPS_MBPS);
    sc.time_label = "cyc";
    char err[256];
    f->sb = lfc_sb_create(&sc, err, sizeof err);
    if (!f->sb) {
      fprintf(stderr, "cosim: +compare=0: the scoreboard: %s\n", err);
      return 4;
    }
  }

  static lfc_word_t in[TB_MAX_PORTS], out[TB_MAX_PORTS], nic_in[TB_MAX_PORTS];
  dut_stat_t st;
  char xz_name[128];
  unsigned xz_port = 0;
  /* The drain: until nothing accepted is inside, at most a quarter of the run more. */
  const uint64_t last = tb->cycles + tb->cycles / FREE_DRAIN_DIV;
  uint64_t t = 0;
  dut_set_dbg(0, 0, 0);
  for (; t < last; t++) {
    if (t >= tb->cycles && outstanding(f) == 0) break;
    tb->cycle = t;
    tb_stim_traffic(tb, t);
    for (unsigned p = 0; p < ports; p++) {
      in[p] = *lfc_link_head(tb->up[p]);
      tb_stim_inject(tb, t, p, &in[p]);
      nic_in[p] = *lfc_link_head(tb->down[p]);
      dut_set_rx(p, &in[p]);
    }
    dut_settle();
    for (unsigned p = 0; p < ports; p++) dut_get_tx(p, &out[p]);
    dut_get_stat(&st);
    if (dut_get_xz(xz_name, sizeof xz_name, &xz_port)) {
      finding(f, t, xz_port, FREE_OUT, "tx-xz", "0/1 on every output", xz_name);
      break;
    }
    score_in(f, t, in, &st);
    if (f->sb == NULL) {
      /* accepted packets go uncounted out of the queues: only the framing and fields */
    } else {
      for (unsigned p = 0; p < ports; p++)
        if (st.wd_drop[p])
          finding(f, t, p, FREE_OUT, "tx-stat", "no watchdog discard (wd_action forward)",
                  "stat_wd_drop_o");
    }
    score_out(f, t, out);
    note_pauses(tb, out);
    if (pcap) tb_pcap_cycle(pcap, t, in, out);
    for (unsigned p = 0; p < ports; p++) {
      lfc_word_t no;
      lfc_nic_step(tb->nic[p], &nic_in[p], &no);
      lfc_link_push(tb->up[p], &no);
      lfc_link_push(tb->down[p], &out[p]);
    }
    dut_clock();
  }
  *ran = t;
  tb->cycle = t;

  /* The end. A port that holds packets and started none in the drain's length of cycles is
     stuck (tx-stuck); what is still inside is then lost, as it is where the configuration
     drains. Partners must not have dropped (lossless). */
  uint64_t sb_viol = 0, inside = outstanding(f);
  int stuck = 0;
  const uint64_t window = tb->cycles / FREE_DRAIN_DIV;
  char a[160];
  for (unsigned q = 0; q < ports && f->sb; q++) {
    if (f->held[q] <= 0 || t - f->last_tx[q] < window) continue;
    stuck = 1;
    snprintf(a, sizeof a, "%" PRId64 " packets for port %u inside, none started since cycle %"
             PRIu64, f->held[q], q, f->last_tx[q]);
    finding(f, t, q, FREE_OUT, "tx-stuck", "progress: a packet started at least once in "
            "the drain's length of cycles while packets for the port are inside", a);
  }
  if (f->sb) {
    if (tb->cfg.drained || inside == 0 || stuck) (void)lfc_sb_finish(f->sb, t);
    sb_viol = lfc_sb_violations(f->sb);
    char line[512];
    for (size_t i = 0; i < FREE_MAX_LINES && lfc_sb_format(f->sb, i, line, sizeof line); i++)
      printf("VIOLATION %s\n", line);
    if (sb_viol > FREE_MAX_LINES)
      printf("  ... %" PRIu64 " more scoreboard violations not printed\n",
             sb_viol - FREE_MAX_LINES);
  }
  if (tb->cfg.lossless) {
    for (unsigned p = 0; p < ports; p++) {
      const lfc_nic_stats_t *ns = lfc_nic_stats(tb->nic[p]);
      uint64_t n = 0;
      for (unsigned i = 0; i < LFC_DROP_CAUSES; i++) n += ns->drop_pkts[i];
      if (n == 0) continue;
      snprintf(a, sizeof a, "%" PRIu64 " packets dropped by the partner of port %u", n, p);
      finding(f, t, p, FREE_OUT, "partner-drop", "no drop at a link partner (lossless = 1)", a);
    }
  }
  if (f->failures > FREE_MAX_LINES)
    printf("  ... %" PRIu64 " more test bench findings not printed\n",
           f->failures - FREE_MAX_LINES);

  tb_score_print(&tb->score);
  if (f->sb) {
    lfc_sb_stats_t ss;
    lfc_sb_stats(f->sb, &ss);
    printf(" lost=%" PRIu64 " latency=%" PRIu64 "..%" PRIu64 " (mean %.1f) cycles; "
           "violations=%" PRIu64 "; ran %" PRIu64 " cycles (%" PRIu64 " to drain)", ss.lost,
           ss.latency_min, ss.latency_max, ss.latency_mean, sb_viol, t,
           t > tb->cycles ? t - tb->cycles : 0);
    if (inside && !tb->cfg.drained && !stuck)
      printf("; still-in-switch=%" PRIu64 " at the end, not judged lost (no [run] drained = 1, "
             "every port still sending)", inside);
    printf("\n");
  } else {
    printf("; end to end off: the watchdog discards queued packets and stat_wd_drop_o names "
           "none (framing and fields checked)\n");
  }
  printf("switch sent: %" PRIu64 " data blocks, %" PRIu64 " FCPs, %" PRIu64 " PFC frames\n",
         tb->tx_words[LFC_DATA], tb->tx_words[LFC_FCP], tb->tx_words[LFC_PFC]);
  const uint64_t total = f->failures + sb_viol;
  lfc_sb_destroy(f->sb);
  f->sb = NULL;
  if (total) {
    printf("FAIL sim=%s config=%s seed=%u cycles=%" PRIu64 " compare=0: %" PRIu64
           " violations (the RTL was not compared with the model)\n",
           tb->sim, tb->cfg.name, tb->seed, t, total);
    return 1;
  }
  return 0;
}
