/*
 * check_internal.h - what the protocol checkers share (check.c, check_log.c, check_ib.c,
 * check_pfc.c, scoreboard.c): the violation log, the coverage points, the checker's state. Not
 * installed: the public API is lfc/check.h and lfc/scoreboard.h.
 */
#ifndef LFC_CHECK_INTERNAL_H
#define LFC_CHECK_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lfc/check.h"
#include "lfc/wire.h"

#define CHK_ERR_TEXT 256u
#define CHK_PS_PER_US 1000000ull /* bits * 10^6 / (Mb/s) = picoseconds */

/* ---- the violation log (check_log.c; its one-line form, check.c) ---- */

typedef struct {
  lfc_check_violation_t *kept;
  size_t n, cap, max;
  uint64_t total;
  uint64_t by_rule[LFC_RULES];
} chk_log_t;

void chk_log_init(chk_log_t *log, size_t max_kept);
void chk_log_free(chk_log_t *log);
/* Record a violation; expected and observed are printf formats each with its own arguments,
 * given pre-formatted by the caller (chk_text). Keeps it if there is room (and memory). */
void chk_log_add(chk_log_t *log, uint64_t time, uint64_t frame, uint32_t link, uint32_t dir,
                 lfc_check_rule_t rule, uint32_t cls, const char *expected, const char *observed);
/* The line of lfc_check_format for v. */
char *chk_log_format(const lfc_check_violation_t *v, const char *label, char *buf, size_t len);
/* The label printed after times: cfg's, or the default for unit_ps. */
const char *chk_time_label(const char *label, uint32_t unit_ps);

/* snprintf into a text of LFC_CHECK_TEXT. */
void chk_text(char out[LFC_CHECK_TEXT], const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- coverage points: X(ENUM, "name", modes) ---- */

#define CHK_IB (1u << LFC_MODE_IB)
#define CHK_PFC (1u << LFC_MODE_PFC)

/* clang-format off */
#define CHK_COV_EVENTS(X) \
  /* IB: FCTBS or FCCL passed 4095 and started again at 0 (SPEC §5.1) */ \
  X(COV_CREDIT_WRAP, "credit_wrap", CHK_IB) \
  /* a packet used the last credit: (FCCL - CR) mod 4096 = 0 (SPEC §5.3) */ \
  X(COV_SEND_EXACT, "send_rule_exact", CHK_IB) \
  /* a packet started with the whole window: (FCCL - CR) mod 4096 = 2048 */ \
  X(COV_SEND_WINDOW, "send_rule_window", CHK_IB) \
  /* an FCP taken (SPEC §5.3, §5.4), one with Op 1 (flow-control init) */ \
  X(COV_FCP, "fcp", CHK_IB) \
  X(COV_FCP_INIT, "fcp_init", CHK_IB) \
  /* an FCP whose FCTBS moved since the last one of its VL and direction (data between) */ \
  X(COV_FCP_ADVANCE, "fcp_advance", CHK_IB) \
  /* a VL15 packet (IBA C7-18), a payload of exactly the MTU */ \
  X(COV_VL15, "vl15", CHK_IB) \
  X(COV_MTU_EXACT, "mtu_exact", CHK_IB | CHK_PFC) \
  /* a drop reported that is allowed: VL15 or lossy; one excused by the peer's violation */ \
  X(COV_DROP_ALLOWED, "drop_allowed", CHK_IB | CHK_PFC) \
  X(COV_DROP_EXCUSED, "drop_excused", CHK_IB | CHK_PFC) \
  /* PFC: an XOFF (time > 0) for a priority not paused; an XON (time 0) */ \
  X(COV_XOFF, "xoff", CHK_PFC) \
  X(COV_XON, "xon", CHK_PFC) \
  /* an XOFF for a priority still paused (refresh, SPEC §6.6) */ \
  X(COV_REFRESH, "pfc_refresh", CHK_PFC) \
  /* a pause lapsed: its quanta ran out without XON or refresh (SPEC §6.7) */ \
  X(COV_QUANTA_EXPIRY, "quanta_expiry", CHK_PFC) \
  /* an XON ended a pause before its quanta ran out */ \
  X(COV_RESUME_XON, "resume_quanta0", CHK_PFC) \
  /* an 802.3x PAUSE frame (all priorities) */ \
  X(COV_PAUSE_8023X, "pause_8023x", CHK_PFC) \
  /* a frame of a paused priority started within the reaction budget (allowed) */ \
  X(COV_REACTION_WINDOW, "reaction_window", CHK_PFC) \
  /* a frame of a priority paused longer than watchdog_ns: the sender's watchdog (SPEC §6.8) */ \
  X(COV_WATCHDOG, "watchdog", CHK_PFC) \
  /* bytes received after an XOFF (headroom used, SPEC §11) */ \
  X(COV_HEADROOM_USED, "headroom_used", CHK_PFC) \
  /* a RoCEv2 frame, another data frame */ \
  X(COV_ROCE, "roce_frame", CHK_PFC) \
  X(COV_OTHER_DATA, "other_data_frame", CHK_PFC)
/* clang-format on */

#define CHK_COV_ENUM(e, name, modes) e,
typedef enum { CHK_COV_EVENTS(CHK_COV_ENUM) COV_EVENTS } chk_cov_t;
#undef CHK_COV_ENUM

/* The coverage points: the events, then one "viol_<rule>" per rule of the checkers (the
 * scoreboard's rules are not counted here). */
#define CHK_CHECKER_RULES LFC_RULE_SB_LOST
#define CHK_COV_POINTS (COV_EVENTS + CHK_CHECKER_RULES)

/* Modes a rule belongs to (CHK_IB, CHK_PFC; 0 for the scoreboard's). */
unsigned chk_rule_modes(size_t rule);

/* ---- the checker ---- */

/* IB state per (link, data direction, VL). "Data direction d" is the direction of the data
 * packets; the FCTBS in FCPs sent in direction d describes them, the FCCL for them comes in FCPs
 * sent the other way. */
typedef struct {
  bool sent_known;   /* fctbs is the sender's FCTBS */
  uint16_t fctbs;    /* blocks sent, mod 4096 */
  int64_t sent_u;    /* the same, unwrapped (any base) */
  bool fccl_known;   /* fccl is the last FCCL the receiver sent */
  uint16_t fccl;
  bool fccl_u_known; /* fccl_u is on the base of sent_u */
  int64_t fccl_u;
  uint64_t send_viol; /* IB-SEND found on this VL and direction */
  uint32_t fccl_back; /* blocks the receiver's FCCL may still step back: the sender's FCTBS fell
                         that far behind the blocks seen (IB-FCTBS), and the receiver takes its
                         ABR from FCTBS (SPEC §5.4), so its FCCL drops with it */
  /* FCPs sent in this direction for this VL */
  bool fcp_seen;
  uint64_t fcp_last_ps;
  uint16_t fcp_last_fctbs;
} chk_ib_vl_t;

typedef struct {
  chk_ib_vl_t vl[LFC_CHECK_DIRS][LFC_IB_MAX_VLS];
} chk_ib_link_t;

/* PFC state per (link, data direction, priority): the pauses of that data, which are sent in the
 * other direction. Two views: the paused sender's (times shifted by skew, for the reaction and
 * pause checks) and the pausing receiver's (its own frames, for refresh and headroom). */
typedef struct {
  /* sender's view */
  bool paused;
  uint64_t ep_start_ps; /* the pause (episode) began to act on the sender */
  uint64_t react_end_ps;
  uint64_t expiry_ps;
  bool reported;        /* a PFC-REACTION was reported in this episode */
  bool wd_counted;
  uint64_t peer_viol;   /* PFC-REACTION and -TX-PAUSED on this priority and direction */
  /* receiver's view */
  bool xoff;            /* its last frame for the priority was an XOFF, not yet lapsed */
  uint64_t lapse_ps;    /* when that XOFF's quanta run out, at the arrival of the frame */
  bool lapsed;          /* the XOFF lapsed and no frame for the priority came since */
  uint64_t lapsed_at_ps;
  bool seen_xon;        /* it has ended a pause with XON before: it uses XON, not timeouts */
  bool rx_known;        /* its XOFF state is reported (lfc_check_xoff) */
  bool rx_xoff;
  /* headroom: bytes of data seen after the receiver's XOFF, until XON or lapse */
  bool hr_open;
  bool hr_flagged;
  uint64_t hr_used, hr_max;
  /* the last data frame of the priority: if it was still arriving when an XOFF went out, it
   * counts as headroom too */
  uint64_t last_end_ps;
  uint64_t last_bytes;
} chk_pfc_prio_t;

typedef struct {
  chk_pfc_prio_t prio[LFC_CHECK_DIRS][LFC_PFC_MAX_PRIOS];
} chk_pfc_link_t;

/* One link: one allocation for all of them, so that running out of memory has one place. */
typedef struct {
  uint64_t first_ps, last_ps; /* its first and last frame: frames of a link come in order */
  uint64_t frames;            /* frames fed: a violation names its frame by this count */
  bool seen;
  union {
    chk_ib_link_t ib;
    chk_pfc_link_t pfc;
  };
} chk_link_t;

#define CHK_ETH_MAX_FRAME 65535u /* pcap's snap length */

struct lfc_check {
  lfc_check_cfg_t cfg;
  const char *label;
  chk_log_t log;
  uint64_t cov[CHK_COV_POINTS];
  uint64_t frames;
  bool finished;
  char err[CHK_ERR_TEXT];
  chk_link_t *link; /* cfg.links of them */
  /* an Ethernet frame with its FCS appended (cfg.eth_fcs = false) */
  uint8_t scratch[CHK_ETH_MAX_FRAME + LFC_ETH_FCS_BYTES];
  /* durations in picoseconds, from the configuration; tol_ps: one time unit, how far a time
   * given in whole units may be from the true one (a rule is broken only by more) */
  uint64_t tol_ps;
  uint64_t reaction_ps, skew_ps[LFC_CHECK_DIRS], watchdog_ps, fcp_period_ps, fcp_slack_ps;
  /* the frame being checked, for the violations it shows; cur_ps is cur_time in ps */
  uint64_t cur_time, cur_ps, cur_frame;
  uint32_t cur_link, cur_dir;
};

/* (check_log.c) Picoseconds on the wire for bits at the checker's speed. */
uint64_t chk_bits_ps(const lfc_check_t *c, uint64_t bits);
/* Record a violation of the frame being checked (cur_*), at dir and cls. Returns 1. */
int chk_flag(lfc_check_t *c, uint32_t dir, lfc_check_rule_t rule, uint32_t cls,
             const char *expected, const char *observed);
/* The time t (ps) in the user's unit, for texts. */
uint64_t chk_units(const lfc_check_t *c, uint64_t t_ps);

/* The two monitors: they return the violations found. */
void chk_ib_init(lfc_check_t *c);
int chk_ib_frame(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t t_ps, lfc_pcap_rec_t kind,
                 const uint8_t *frame, size_t len);
int chk_ib_drop(lfc_check_t *c, uint32_t link, uint32_t dir, uint32_t cls);
int chk_ib_finish(lfc_check_t *c, uint64_t t_ps);
int chk_pfc_frame(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t t_ps,
                  const uint8_t *frame, size_t len);
int chk_pfc_drop(lfc_check_t *c, uint32_t link, uint32_t dir, uint32_t cls);
int chk_pfc_xoff(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t t_ps, uint32_t prio,
                 bool xoff);
int chk_pfc_finish(lfc_check_t *c, uint64_t t_ps);

#endif /* LFC_CHECK_INTERNAL_H */
