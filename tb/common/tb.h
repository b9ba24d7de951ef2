/*
 * tb.h - the parts of the co-simulation test (internal to tb/common).
 *
 *   tb_stim.c   traffic sources behind the link partners, misbehaving-peer injection
 *   tb_score.c  scoreboard: every packet delivered once, in order, or dropped with a cause
 *   tb_cov.c    functional coverage of SPEC events, written as JSON
 *   tb_main.c   the arguments and the run; the lockstep itself is tb_check.c (the checker) and
 *               tb_fast.c (the speed seam), through tb_lockstep.h
 *   tb_pcap.c   +pcap=DIR: the words into and out of the switch as pcap files
 *   tb_free.c   +compare=0: the RTL drives the partners, checked end to end, not against the model
 */
#ifndef TB_TB_H
#define TB_TB_H

#include <stdint.h>
#include <stdio.h>

#include "dut.h"
#include "tb_cov_points.h"
#include "lfc/link.h"
#include "lfc/nic.h"
#include "lfc/switch.h"
#include "tb_config.h"

/* ---- deterministic random numbers (splitmix64) ---- */

static inline uint64_t tb_rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static inline uint32_t tb_rng_below(uint64_t *s, uint32_t n) {
  return n ? (uint32_t)(tb_rng_next(s) % n) : 0u;
}

/* ---- tags: who made a packet ---- */

/* A packet's identity: bit 31 injected by the misbehaving-peer logic; bits 30..24 source port;
 * 23..0 sequence number per source. */
#define TB_ID(inj, src, seq) \
  (((inj) ? 0x80000000u : 0u) | (((uint32_t)(src) & 0x7fu) << 24) | ((uint32_t)(seq) & 0xffffffu))
/* The tag a packet carries is its identity times an odd constant mod 2^32 (invertible: the
 * scoreboard multiplies by the inverse). The switch carries the tag without reading it; the
 * identity itself would leave its high bits at 0 in every run (source ports above 15, sequence
 * numbers above 2^20), so an RTL bug that only shows on those bits of the tag path went unseen
 * (make mutants: ib_credit_stress 70, tb/mutants/survivors.md). A product's bit k depends on
 * bits 0..k of the identity, so every tag bit takes both values in any run. 0x9E3779B1 is
 * 2^32 / golden ratio, Knuth's multiplicative hash (TAOCP vol. 3, 6.4). */
#define TB_TAG_MIX   0x9E3779B1u
#define TB_TAG_UNMIX 0x0E8B2F51u /* TB_TAG_MIX * TB_TAG_UNMIX = 1 mod 2^32 */
#define TB_TAG(inj, src, seq) ((uint32_t)(TB_ID(inj, src, seq) * TB_TAG_MIX))
#define TB_TAG_ID(tag) ((uint32_t)((uint32_t)(tag) * TB_TAG_UNMIX))
#define TB_TAG_SRC(tag) ((TB_TAG_ID(tag) >> 24) & 0x7fu)
#define TB_TAG_SEQ(tag) (TB_TAG_ID(tag) & 0xffffffu)
#define TB_TAG_INJ(tag) ((TB_TAG_ID(tag) >> 31) & 1u)
_Static_assert((uint32_t)(TB_TAG_MIX * TB_TAG_UNMIX) == 1u, "TB_TAG_UNMIX inverts TB_TAG_MIX");

/* A tag's identity for reports: "src 3 seq 301", "src 3 injected 5". */
static inline const char *tb_tag_name(uint32_t tag, char *buf, size_t len) {
  snprintf(buf, len, "src %u %s %u", (unsigned)TB_TAG_SRC(tag),
           TB_TAG_INJ(tag) ? "injected" : "seq", (unsigned)TB_TAG_SEQ(tag));
  return buf;
}

/* ---- coverage ---- */

#define TB_COV_ENUM(e, name) e,
typedef enum { TB_COV_POINTS(TB_COV_ENUM) COV_COUNT } tb_cov_t;
#undef TB_COV_ENUM

const char *tb_cov_name(tb_cov_t c);

/* What tb_cov_pre finds in S(t) about a port, for tb_cov_post to judge the word the port sends
   in the same cycle (the edge points of tb_cov_points.h whose outcome is that word). */
typedef struct {
  uint32_t fcp_timer_due;             /* §5.5: data VLs pending by fcp_timer = 0 alone */
  uint32_t fcp_holdoff_due;           /* §5.5: changed data VLs whose hold-off ends now */
  uint32_t grant_free[LFC_MAX_CLASSES]; /* §5.4: vl_blocks - occ of each data VL */
  uint32_t hi_sent;                   /* §5.6 */
  uint8_t hi_pick, lo_pick;           /* §5.6: the high / low table surely has a pick */
  uint8_t refresh_due;                /* §6.6: priorities due by refresh_timer = 0 alone */
  uint8_t drr_edge;                   /* §8.2: TB_DRR_* below */
  uint32_t qlen[8];                   /* §9.1: qlen of each priority */
  uint32_t lfsr;                      /* §9.3 */
} tb_cov_port_t;

/* tb_cov_port_t.drr_edge: the DRR pick of S(t) is decided by deficit[drr_ptr] > 0 at its edge */
enum { TB_DRR_NONE = 0, TB_DRR_DEFICIT_ONE, TB_DRR_DEFICIT_ZERO };

/* ---- the whole test bench state ---- */

typedef struct tb_score_rec tb_score_rec_t;

typedef struct {
  /* one source's records, indexed by sequence number, growing */
  tb_score_rec_t *rec;
  uint32_t count, cap;
} tb_score_src_t;

typedef struct {
  tb_score_src_t src[TB_MAX_PORTS][2]; /* [port][injected] */
  uint8_t rx_rem[TB_MAX_PORTS];        /* framing mirror of §7.2 on the switch inputs */
  uint64_t arrivals[TB_MAX_PORTS];     /* accepted packets per ingress port so far */
  uint64_t *last_arr;                  /* [src][dst][cls]: arrival index of the last delivery */
  /* output framing mirror (§7.4) */
  uint32_t out_rem[TB_MAX_PORTS];
  lfc_word_t out_cur[TB_MAX_PORTS];
  uint32_t fc_streak[TB_MAX_PORTS];   /* slots in a row with a flow-control word sent */
  /* totals */
  uint64_t created, offered, accepted, delivered, delivered_blocks;
  uint64_t discarded; /* accepted, then discarded by the watchdog (also in dropped[WATCHDOG]) */
  uint64_t dropped[LFC_DROP_CAUSES];
} tb_score_t;

typedef struct {
  /* traffic source of one port */
  uint64_t rng;
  uint32_t seq, inj_seq;
  uint64_t acc;         /* permille-blocks of offered load accumulated */
  uint32_t next_nblk;
  int have_pending;
  lfc_pkt_t pending;
  uint32_t burst_left;
  uint32_t burst_phase;
  /* injector on the partner's output */
  int nic_in_pkt;       /* the partner's word stream is inside a packet */
  int storm_due;
  /* overrun: the injected packet being sent, and the partner's words waiting behind it */
  uint32_t inj_left;    /* blocks of the injected packet still to send */
  lfc_word_t inj_word;  /* its first block */
  uint32_t inj_fault_at; /* garbage: the value of inj_left at which a block is misframed (0: none) */
  int inj_fault_sop;     /* that block has sop = 1 (else its eop is inverted) */
  lfc_word_t q[256];    /* the partner's non-IDLE words, in order (at most nblk - 1 < 255) */
  uint32_t q_head, q_len;
  /* the partner's FCPs per VL: the last one and an older one (for stale replays) */
  lfc_word_t fcp_last[LFC_MAX_CLASSES], fcp_old[LFC_MAX_CLASSES];
  uint8_t fcp_have[LFC_MAX_CLASSES];
  uint32_t fcp_count[LFC_MAX_CLASSES];
  uint64_t bad_fcp_at;  /* 1 + the cycle of the last stale or wild FCP injected (0: none) */
  uint32_t edge_fcp_count; /* edge FCPs injected: which edge the next one aims at */
} tb_stim_port_t;

typedef struct {
  tb_cfg_t cfg;
  uint32_t seed;
  uint64_t cycles;
  uint64_t cycle;
  const char *sim;

  lfc_switch_t *sw;
  lfc_nic_t *nic[TB_MAX_PORTS];
  lfc_link_t *up[TB_MAX_PORTS];   /* partner -> switch */
  lfc_link_t *down[TB_MAX_PORTS]; /* switch -> partner */

  tb_stim_port_t stim[TB_MAX_PORTS];
  uint64_t stop_cycle;            /* no new packets from this cycle on */
  uint8_t require[COV_COUNT];     /* 1: coverage point i must be hit ([run] require) */

  tb_score_t score;

  uint64_t cov[COV_COUNT];
  /* coverage helpers */
  uint16_t last_fcp_fctbs_out[TB_MAX_PORTS][LFC_MAX_CLASSES];
  uint16_t last_fcp_fctbs_in[TB_MAX_PORTS][LFC_MAX_CLASSES];
  uint8_t fcp_seen_out[TB_MAX_PORTS][LFC_MAX_CLASSES];
  uint8_t fcp_seen_in[TB_MAX_PORTS][LFC_MAX_CLASSES];
  uint32_t tb_fctbs[TB_MAX_PORTS][LFC_MAX_CLASSES]; /* switch's FCTBS, from its output */
  uint32_t tb_fccl[TB_MAX_PORTS][LFC_MAX_CLASSES];  /* FCCL the switch received */
  uint8_t pfc_out_xoff[TB_MAX_PORTS][8];            /* last time sent > 0 for this priority */
  uint64_t pause_until[TB_MAX_PORTS][8];            /* last cycle the switch's egress is paused */
  uint8_t pause_active[TB_MAX_PORTS][8];
  uint32_t hi_sent_pre[TB_MAX_PORTS];
  int32_t slack_pre[TB_MAX_PORTS];   /* §2.4 slack of S(t), with wire_time = 1 */
  uint32_t tx_rem_pre[TB_MAX_PORTS]; /* tx_rem of S(t), with wire_time = 1 */
  uint32_t pause_timer[TB_MAX_PORTS][8];            /* pause_timer of S(t), PFC (tb_cov_pre) */
  uint32_t pause_timer_prev[TB_MAX_PORTS][8];       /* of S(t - 1) */
  uint64_t tx_words[4];                             /* words the switch sent, by kind */
  tb_cov_port_t cov_pre[TB_MAX_PORTS];              /* S(t) per port, for the word it sends */
} tb_t;

/* tb_stim.c */
int tb_stim_init(tb_t *tb);
/* Offer this cycle's new packets to the partners (before they step). */
void tb_stim_traffic(tb_t *tb, uint64_t cycle);
/* Replace the partner's word `in` on its way into switch port p by an injected one, if the
   configuration asks for it and the partner is between packets. */
void tb_stim_inject(tb_t *tb, uint64_t cycle, unsigned p, lfc_word_t *in);
/* End of run: the configuration's own requirements ([run] require, drained). Returns 0, or -1
   after filling err. Call after tb_cov_end. */
struct tb_err_s;
int tb_stim_end(tb_t *tb, struct tb_err_s *err);

/* tb_score.c */
int tb_score_init(tb_t *tb);
void tb_score_free(tb_t *tb);
/* Record a packet that a source created (before it reaches the switch). */
void tb_score_created(tb_t *tb, unsigned src, const lfc_pkt_t *pkt, uint32_t tag);
/* One cycle of the switch: its inputs, its outputs and the model's events. Returns 0, or -1
   after filling what/port/expected/actual of the first error. */
typedef struct tb_err_s {
  unsigned port;
  char signal[96];
  char expected[160];
  char actual[160];
} tb_err_t;
int tb_score_cycle(tb_t *tb, uint64_t cycle, const lfc_word_t *in, const lfc_word_t *out,
                   const lfc_event_t *ev, size_t nev, tb_err_t *err);
/* End of run: conservation (the packets still inside are the ones the model holds), then the
   lossless checks. */
int tb_score_end(tb_t *tb, tb_err_t *err);
/* The ECN field packet `tag` had when its source made it (before any marking by the switch),
   or -1 for a tag no source made. */
int tb_score_ecn(const tb_t *tb, uint32_t tag);
/* Does the first block w of a packet leaving the switch carry the dst, cls and nblk its source
   made it with? 0 yes; 1 no, -1 no source made its tag: what it should carry in what. */
int tb_score_fields(tb_t *tb, const lfc_word_t *w, char *what, size_t len);
/* The scoreboard's counts, as the first part of the run's "scoreboard:" line (no newline: the
   caller adds what its mode knows). */
void tb_score_print(const tb_score_t *s);

/* tb_cov.c */
/* The size of the head packet of egress queue (p, cls) in the model's S(t), when the registers
   tell it (one packet queued, or all of them of the configuration's one size: [traffic]
   min_nblk = max_nblk and qlen = qpkts x that); 0 when the queue is empty or it is not known. */
uint32_t tb_head_nblk(const tb_t *tb, unsigned p, unsigned cls);
/* Before lfc_switch_step of the cycle: read what coverage needs from S(t). */
void tb_cov_pre(tb_t *tb, uint64_t cycle, const lfc_word_t *in);
void tb_cov_post(tb_t *tb, uint64_t cycle, const lfc_word_t *in, const lfc_word_t *out,
                 const lfc_event_t *ev, size_t nev);
void tb_cov_end(tb_t *tb);
/* Writes the run's coverage as JSON to path (through tb_write_file). Returns 0, or -1 with
   errno set. */
int tb_cov_write(const tb_t *tb, const char *path);
/* Writes the file path with fill(f, arg) (0, or -1 after a failed write): to a temporary name
   in the same directory, renamed into place once every write, the flush and the close
   succeeded, so that a failure leaves the old file or none, never a truncated one. A path that
   exists and is not a regular file (/dev/stdout, /dev/full) is written in place. Returns 0, or
   -1 with errno set. */
int tb_write_file(const char *path, int (*fill)(FILE *, const void *), const void *arg);

/* tb_pcap.c */
typedef struct tb_pcap tb_pcap_t;
/* Open DIR/portP.pcap for every port (temporary names until tb_pcap_close). NULL with err. */
tb_pcap_t *tb_pcap_open(const tb_t *tb, const char *dir, char *err, size_t errlen);
/* The words of cycle t at the switch's ports: in[] into it, out[] out of it. A failed write is
   kept for tb_pcap_close; later cycles are then not written. */
void tb_pcap_cycle(tb_pcap_t *pc, uint64_t t, const lfc_word_t *in, const lfc_word_t *out);
/* Close and rename every file, write DIR/lfc-check.args, print the model's counters per port
   and direction when counters is not 0 (the model ran in lockstep); frees pc. 0, or -1 with err
   (a write that failed, now or earlier): the files are then removed. */
int tb_pcap_close(tb_pcap_t *pc, const tb_t *tb, int counters, char *err, size_t errlen);
/* Remove the temporary files; frees pc. NULL is allowed. */
void tb_pcap_abort(tb_pcap_t *pc);

/* tb_free.c: +compare=0, the RTL driving the partners, not compared with the model */
/* 0 if configuration c can run so, else 2 after one line on stderr. */
int tb_free_check_cfg(const tb_cfg_t *c);
/* Run the RTL (bound and reset) for tb->cycles and then until nothing accepted is inside (at
   most tb->cycles more): the scoreboard of lfc/scoreboard.h, the framing, the partners' drops;
   the words into pcap when not NULL. Prints the findings and the summary lines; *ran is the
   cycles run. Returns 0 pass, 1 findings, 4 an internal error. */
int tb_free_run(tb_t *tb, tb_pcap_t *pcap, uint64_t *ran);

#endif /* TB_TB_H */
