/*
 * check.c - the protocol checkers' common part (lfc/check.h): the configuration, the table of
 * rules, the one-line form of a violation, coverage, and the entry points that hand each frame
 * to the IB monitor (check_ib.c) or the PFC monitor (check_pfc.c). The violation log itself is
 * check_log.c, which the monitors use too.
 */
#include "lfc/check.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check_internal.h"
#include "lfc/parse.h"
#include "lfc/wire.h"
#include "lfc/wire_ib_data.h"
#include "errtext.h"

#define DEFAULT_SPEED_MBPS 100000u /* 100 Gb/s */
#define DEFAULT_MAX_KEPT 1000u
#define IB_MTU_MIN 256u /* IBA MTUs: 256, 512, 1024, 2048, 4096 bytes of payload */
#define IB_MTU_MAX 4096u
/* A 9216-byte IP MTU in an 802.1Q-tagged frame with its FCS: 9216 + 14 + 4 + 4. */
#define ETH_DEFAULT_MAX_FRAME 9238u
#define MAX_SPEED_MBPS 1600000u /* 1.6 Tb/s */
#define DSCP_CLASS_SHIFT 3u     /* the class selector: DSCP >> 3 (RFC 2474 §4.2.2) */
#define DSCP_COUNT 64u

/* ---- rules ---- */

typedef struct {
  const char *name, *source, *what;
  unsigned modes;
  const char *cov; /* its coverage point: "viol_" and the name with '_' for '-' */
} rule_info_t;

static const rule_info_t RULES[LFC_RULES] = {
    [LFC_RULE_IB_SEND] = {"ib-send", "SPEC §5.3; IBA vol.1 §7.9 [reading]",
                          "a data packet started although (FCCL - (FCTBS + n)) mod 4096 > 2048: "
                          "sent without credit",
                          CHK_IB, "viol_ib_send"},
    [LFC_RULE_IB_FCTBS] = {"ib-fctbs", "SPEC §5.3, §5.5; IBA vol.1 §7.9 [reading]",
                           "an FCP's FCTBS differs from the blocks seen sent on its VL in its "
                           "direction, mod 4096 (a counting or wrap error)",
                           CHK_IB, "viol_ib_fctbs"},
    [LFC_RULE_IB_FCCL_STEP] = {"ib-fccl-step", "SPEC §5.4",
                               "an FCCL went backwards or moved by more than 2048 from the last "
                               "one of its VL: credit taken back, or the 12-bit arithmetic broke",
                               CHK_IB, "viol_ib_fccl_step"},
    [LFC_RULE_IB_FCCL_CAP] = {"ib-fccl-cap", "SPEC §5.3, §5.4",
                              "an FCCL more than 2048 blocks beyond the blocks sent on its VL: "
                              "the receiver advertised more than ABR + 2048",
                              CHK_IB, "viol_ib_fccl_cap"},
    [LFC_RULE_IB_FCP_PERIOD] = {"ib-fcp-period", "SPEC §5.5; IBA vol.1 §7.9 [reading]",
                                "no FCP for a VL and direction for longer than fcp_period_ns "
                                "plus one MTU packet",
                                CHK_IB, "viol_ib_fcp_period"},
    [LFC_RULE_IB_VL15] = {"ib-vl15", "SPEC §5.1; IBA vol.1 C7-18 [reading]",
                          "VL15 used beyond its rules: an FCP for VL15 (it has no credits), a "
                          "VL15 packet not to QP0, or a VL15 payload over 256 bytes (one MAD)",
                          CHK_IB, "viol_ib_vl15"},
    [LFC_RULE_IB_VL] = {"ib-vl", "SPEC §3.1, §5.3",
                        "a data packet or FCP on a VL at or above data_vls", CHK_IB, "viol_ib_vl"},
    [LFC_RULE_IB_MTU] = {"ib-mtu", "SPEC §3.1 mtu_blocks; IBA vol.1 §7.7 [reading]",
                         "a data packet whose payload is longer than mtu_bytes", CHK_IB,
                         "viol_ib_mtu"},
    [LFC_RULE_IB_MALFORMED] = {"ib-malformed", "docs/wire-formats.md §3, §4; IBA vol.1 §7.7-7.9",
                               "a packet the decoder refuses: a bad VCRC, ICRC or LPCRC, a "
                               "length, version or reserved Op",
                               CHK_IB, "viol_ib_malformed"},
    [LFC_RULE_IB_DROP] = {"ib-drop", "SPEC §5.4, §10",
                          "a receiver dropped a data-VL packet although its peer never broke "
                          "the send rule on that VL",
                          CHK_IB, "viol_ib_drop"},
    [LFC_RULE_PFC_REACTION] = {"pfc-reaction",
                               "IEEE 802.1Qbb; IEEE 802.3 Annex 31B.3.7 [reading]; SPEC §6.7",
                               "a frame of a paused priority started later than the reaction "
                               "budget after the pause reached the sender (the first such frame "
                               "of a pause)",
                               CHK_PFC, "viol_pfc_reaction"},
    [LFC_RULE_PFC_TX_PAUSED] = {"pfc-tx-paused", "IEEE 802.1Qbb; SPEC §6.7",
                                "a further frame of a paused priority started during the same "
                                "pause, after a pfc-reaction",
                                CHK_PFC, "viol_pfc_tx_paused"},
    [LFC_RULE_PFC_REFRESH] = {"pfc-refresh-late", "SPEC §6.6, §3.3",
                              "a receiver sent XOFF again for a priority after its previous "
                              "XOFF had run out: it stayed in XOFF but let the pause lapse",
                              CHK_PFC, "viol_pfc_refresh_late"},
    [LFC_RULE_PFC_HEADROOM] = {"pfc-headroom", "SPEC §11; docs/headroom.md",
                               "more bytes of a priority arrived after the receiver's XOFF than "
                               "headroom_bytes",
                               CHK_PFC, "viol_pfc_headroom"},
    [LFC_RULE_PFC_DROP] = {"pfc-drop", "SPEC §6.4; IEEE 802.1Qbb",
                           "a receiver dropped a packet of a lossless priority although its "
                           "peer never broke a pause of that priority",
                           CHK_PFC, "viol_pfc_drop"},
    [LFC_RULE_ETH_MTU] = {"eth-mtu", "IEEE 802.3 clause 3.2.7 [reading]; configured",
                          "an Ethernet frame longer than mtu_bytes (FCS included)", CHK_PFC,
                          "viol_eth_mtu"},
    [LFC_RULE_ETH_MALFORMED] = {"eth-malformed", "docs/wire-formats.md §2, §5",
                                "a frame the decoders refuse: a bad FCS, a MAC Control frame "
                                "that is not PFC or PAUSE, a RoCEv2 frame with a bad ICRC, "
                                "checksum or length",
                                CHK_PFC, "viol_eth_malformed"},
    [LFC_RULE_SB_LOST] = {"sb-lost", "end-to-end: exactly once",
                          "a packet accepted was neither delivered nor reported dropped", 0,
                          "viol_sb_lost"},
    [LFC_RULE_SB_DUP] = {"sb-duplicate", "end-to-end: exactly once",
                         "a packet was delivered or dropped after it had left already", 0,
                         "viol_sb_duplicate"},
    [LFC_RULE_SB_ORDER] = {"sb-order", "end-to-end: in order per flow",
                           "a packet was delivered while one of its flow accepted before it was "
                           "still outstanding",
                           0, "viol_sb_order"},
    [LFC_RULE_SB_UNKNOWN] = {"sb-unknown", "end-to-end: exactly once",
                             "a packet was delivered or dropped that was never accepted", 0,
                             "viol_sb_unknown"},
    [LFC_RULE_SB_DROP] = {"sb-drop", "end-to-end: allowed drop causes",
                          "a packet was dropped with a cause the test does not allow", 0,
                          "viol_sb_drop"},
};

const char *lfc_check_rule_name(lfc_check_rule_t rule) {
  return (unsigned)rule < LFC_RULES ? RULES[rule].name : "?";
}
const char *lfc_check_rule_source(lfc_check_rule_t rule) {
  return (unsigned)rule < LFC_RULES ? RULES[rule].source : "?";
}
const char *lfc_check_rule_what(lfc_check_rule_t rule) {
  return (unsigned)rule < LFC_RULES ? RULES[rule].what : "?";
}
unsigned chk_rule_modes(size_t rule) { return rule < LFC_RULES ? RULES[rule].modes : 0u; }

/* ---- a violation's one-line form (the log is check_log.c) ---- */

const char *chk_time_label(const char *label, uint32_t unit_ps) {
  if (label != NULL) return label;
  if (unit_ps == LFC_CHECK_NS_PS) return "ns";
  if (unit_ps == 1u) return "ps";
  return "t";
}

char *chk_log_format(const lfc_check_violation_t *v, const char *label, char *buf, size_t len) {
  const unsigned modes = chk_rule_modes(v->rule);
  char cls[sizeof " prio=4294967295"] = ""; /* room for any unsigned */
  if (v->cls != LFC_CHECK_NO_CLASS) {
    snprintf(cls, sizeof cls, " %s=%u", (modes & CHK_PFC) ? "prio" : "vl", (unsigned)v->cls);
  }
  char frame[32] = "";
  if (v->frame != 0) snprintf(frame, sizeof frame, " frame=%" PRIu64, v->frame);
  snprintf(buf, len,
           "time=%" PRIu64
           "%s link=%u dir=%s class=%s rule=\"%s\"%s expected=\"%s\" "
           "observed=\"%s\"%s",
           v->time, label, (unsigned)v->link, v->dir == LFC_CHECK_AB ? "A>B" : "B>A",
           lfc_check_rule_name(v->rule), lfc_check_rule_source(v->rule), cls, v->expected,
           v->observed, frame);
  return buf;
}

/* ---- coverage ---- */

#define CHK_COV_NAME(e, name, modes) [e] = name,
static const char *const COV_NAMES[COV_EVENTS] = {CHK_COV_EVENTS(CHK_COV_NAME)};
#undef CHK_COV_NAME
#define CHK_COV_MODES(e, name, modes) [e] = modes,
static const unsigned COV_MODES[COV_EVENTS] = {CHK_COV_EVENTS(CHK_COV_MODES)};
#undef CHK_COV_MODES

size_t lfc_check_cov_points(void) { return CHK_COV_POINTS; }

const char *lfc_check_cov_name(size_t point) {
  if (point < COV_EVENTS) return COV_NAMES[point];
  if (point >= CHK_COV_POINTS) return NULL;
  return RULES[point - COV_EVENTS].cov;
}

bool lfc_check_cov_in_mode(size_t point, lfc_mode_t mode) {
  if ((unsigned)mode > LFC_MODE_PFC) return false;
  /* Past the events, the rules' points: chk_rule_modes is 0 for the scoreboard's and beyond. */
  const unsigned modes = point < COV_EVENTS ? COV_MODES[point] : chk_rule_modes(point - COV_EVENTS);
  return (modes >> mode) & 1u;
}

uint64_t lfc_check_cov(const lfc_check_t *c, size_t point) {
  return point < CHK_COV_POINTS ? c->cov[point] : 0;
}

/* ---- configuration ---- */

/* IEEE 802.3 Annex 31B.3.7 pause_quanta per speed, as SONiC's buffer_headroom_mellanox.lua and
 * its dynamic-headroom HLD give them (REFERENCES.md §B); 800G is SONiC's own. The standard's text
 * was not at hand: a Cisco book excerpt gives 60 quanta for 10 Gb/s where SONiC has 67. The one
 * table of lfc: the headroom calculator (sim/src/calc.c) takes its defaults from here. */
static const struct {
  uint32_t mbps, quanta;
} REACTION[] = {{100u, 1u},     {1000u, 2u},     {10000u, 67u},   {25000u, 80u},   {40000u, 118u},
                {50000u, 147u}, {100000u, 394u}, {200000u, 453u}, {400000u, 905u}, {800000u, 905u}};

#define REACTION_ROWS (sizeof REACTION / sizeof REACTION[0])

uint32_t lfc_check_reaction_quanta(uint32_t speed_mbps) {
  for (size_t i = 0; i != REACTION_ROWS; i++) {
    if (REACTION[i].mbps == speed_mbps) return REACTION[i].quanta;
  }
  return 0;
}

uint32_t lfc_check_reaction_speed(size_t row) { return row < REACTION_ROWS ? REACTION[row].mbps : 0; }

void lfc_check_cfg_default(lfc_check_cfg_t *cfg, lfc_mode_t mode) {
  memset(cfg, 0, sizeof *cfg);
  cfg->mode = mode;
  cfg->links = 1;
  cfg->speed_mbps = DEFAULT_SPEED_MBPS;
  cfg->time_unit_ps = LFC_CHECK_NS_PS;
  cfg->max_kept = DEFAULT_MAX_KEPT;
  cfg->data_vls = LFC_IB_MAX_VLS;
  cfg->mtu_bytes = mode == LFC_MODE_IB ? IB_MTU_MAX : ETH_DEFAULT_MAX_FRAME;
  cfg->lossless_mask = 0xFFu;
  cfg->eth_fcs = true;
  for (unsigned d = 0; d != DSCP_COUNT; d++)
    cfg->dscp_to_prio[d] = (uint8_t)(d >> DSCP_CLASS_SHIFT);
}

/* The durations of the configuration, in ps, must stay far from overflow: a day is plenty. */
#define MAX_DURATION_NS 86400000000000ull

/* The configuration is legal; else false with the reason. */
static bool cfg_ok(const lfc_check_cfg_t *cfg, char *err, size_t errlen) {
  if (cfg->mode != LFC_MODE_IB && cfg->mode != LFC_MODE_PFC) {
    lfc_say(err, errlen, "check: mode %d, allowed 0 (IB) or 1 (PFC)", (int)cfg->mode);
    return false;
  }
  if (cfg->links < 1 || cfg->links > LFC_CHECK_MAX_LINKS) {
    lfc_say(err, errlen, "check: links %u, allowed 1..%u", (unsigned)cfg->links,
            LFC_CHECK_MAX_LINKS);
    return false;
  }
  if (cfg->speed_mbps < 1 || cfg->speed_mbps > MAX_SPEED_MBPS) {
    lfc_say(err, errlen, "check: speed_mbps %u, allowed 1..%u", (unsigned)cfg->speed_mbps,
            MAX_SPEED_MBPS);
    return false;
  }
  if (cfg->time_unit_ps < 1) {
    lfc_say(err, errlen, "check: time_unit_ps 0, allowed 1 or more (1000 for ns)");
    return false;
  }
  if (cfg->mode == LFC_MODE_IB) {
    if (cfg->data_vls < 1 || cfg->data_vls > LFC_IB_MAX_VLS) {
      lfc_say(err, errlen, "check: data_vls %u, allowed 1..%u", (unsigned)cfg->data_vls,
              LFC_IB_MAX_VLS);
      return false;
    }
    if (cfg->mtu_bytes < IB_MTU_MIN || cfg->mtu_bytes > IB_MTU_MAX) {
      lfc_say(err, errlen, "check: mtu_bytes %u, allowed %u..%u for IB (the payload)",
              (unsigned)cfg->mtu_bytes, IB_MTU_MIN, IB_MTU_MAX);
      return false;
    }
  } else {
    if (cfg->mtu_bytes < LFC_ETH_MIN_FRAME || cfg->mtu_bytes > CHK_ETH_MAX_FRAME) {
      lfc_say(err, errlen, "check: mtu_bytes %u, allowed %u..%u for Ethernet (the frame with FCS)",
              (unsigned)cfg->mtu_bytes, LFC_ETH_MIN_FRAME, CHK_ETH_MAX_FRAME);
      return false;
    }
    for (unsigned d = 0; d != DSCP_COUNT; d++) {
      if (cfg->dscp_to_prio[d] >= LFC_PFC_MAX_PRIOS) {
        lfc_say(err, errlen, "check: dscp_to_prio[%u] %u, allowed 0..7", d,
                (unsigned)cfg->dscp_to_prio[d]);
        return false;
      }
    }
    if (cfg->reaction_ns == 0 && lfc_check_reaction_quanta(cfg->speed_mbps) == 0) {
      char speeds[REACTION_ROWS * 8u] = "";
      for (size_t i = 0, used = 0; i != REACTION_ROWS; i++) {
        used += (size_t)snprintf(speeds + used, sizeof speeds - used, "%s%u", i ? ", " : "",
                                 (unsigned)REACTION[i].mbps);
      }
      lfc_say(err, errlen,
              "check: no IEEE 802.3 Annex 31B reaction budget for %u Mb/s (the table has %s): set "
              "reaction_ns",
              (unsigned)cfg->speed_mbps, speeds);
      return false;
    }
  }
  const struct {
    const char *name;
    uint64_t v;
  } durations[] = {{"fcp_period_ns", cfg->fcp_period_ns},
                   {"reaction_ns", cfg->reaction_ns},
                   {"skew_ns[0]", cfg->skew_ns[0]},
                   {"skew_ns[1]", cfg->skew_ns[1]},
                   {"watchdog_ns", cfg->watchdog_ns}};
  for (size_t i = 0; i != sizeof durations / sizeof durations[0]; i++) {
    if (durations[i].v > MAX_DURATION_NS) {
      lfc_say(err, errlen, "check: %s %" PRIu64 ", allowed 0..%llu (a day)", durations[i].name,
              durations[i].v, MAX_DURATION_NS);
      return false;
    }
  }
  return true;
}

lfc_check_t *lfc_check_create(const lfc_check_cfg_t *cfg, char *err, size_t errlen) {
  if (!cfg_ok(cfg, err, errlen)) return NULL;
  lfc_check_t *c = lfc_calloc(1, sizeof *c);
  if (c == NULL || (c->link = lfc_calloc(cfg->links, sizeof *c->link)) == NULL) {
    lfc_check_destroy(c);
    lfc_say(err, errlen, "check: out of memory for %u links (%zu bytes each)", (unsigned)cfg->links,
            sizeof *c->link);
    return NULL;
  }
  c->cfg = *cfg;
  c->label = chk_time_label(cfg->time_label, cfg->time_unit_ps);
  chk_log_init(&c->log, cfg->max_kept);
  const uint64_t ns = LFC_CHECK_NS_PS;
  c->tol_ps = cfg->time_unit_ps;
  c->fcp_period_ps = cfg->fcp_period_ns * ns;
  /* An FCP goes between packets (SPEC §5.2): it may wait for the largest packet to end. */
  if (cfg->mode == LFC_MODE_IB) {
    c->fcp_slack_ps = chk_bits_ps(c, 8u * lfc_ib_pkt_bytes(true, cfg->mtu_bytes));
  }
  for (unsigned d = 0; d != LFC_CHECK_DIRS; d++) c->skew_ps[d] = cfg->skew_ns[d] * ns;
  c->watchdog_ps = cfg->watchdog_ns * ns;
  c->reaction_ps =
      cfg->reaction_ns != 0
          ? cfg->reaction_ns * ns
          : chk_bits_ps(c, (uint64_t)lfc_check_reaction_quanta(cfg->speed_mbps) * LFC_QUANTUM_BITS);
  if (cfg->mode == LFC_MODE_IB) chk_ib_init(c);
  lfc_say(err, errlen, "%s", "");
  return c;
}

/* ---- configuration from text ---- */

typedef enum { KEY_U32, KEY_U64, KEY_SIZE, KEY_U8, KEY_FLAG, KEY_SKEW, KEY_HEADROOM } key_kind_t;

#define KEY(name, kind, field) \
  { name, kind, offsetof(lfc_check_cfg_t, field) }
#define HEADROOM_KEY(p) KEY("headroom_bytes_" #p, KEY_U64, headroom_bytes[p])
static const struct {
  const char *name;
  key_kind_t kind;
  size_t offset;
} KEYS[] = {
    KEY("links", KEY_U32, links),
    KEY("speed_mbps", KEY_U32, speed_mbps),
    KEY("time_unit_ps", KEY_U32, time_unit_ps),
    KEY("max_kept", KEY_SIZE, max_kept),
    KEY("data_vls", KEY_U32, data_vls),
    KEY("mtu_bytes", KEY_U32, mtu_bytes),
    KEY("fcp_period_ns", KEY_U64, fcp_period_ns),
    KEY("from_reset", KEY_FLAG, from_reset),
    KEY("lossless_mask", KEY_U8, lossless_mask),
    KEY("reaction_ns", KEY_U64, reaction_ns),
    KEY("skew_ns", KEY_SKEW, skew_ns),
    KEY("skew_ns_ab", KEY_U64, skew_ns[LFC_CHECK_AB]),
    KEY("skew_ns_ba", KEY_U64, skew_ns[LFC_CHECK_BA]),
    KEY("watchdog_ns", KEY_U64, watchdog_ns),
    KEY("headroom_bytes", KEY_HEADROOM, headroom_bytes),
    HEADROOM_KEY(0),
    HEADROOM_KEY(1),
    HEADROOM_KEY(2),
    HEADROOM_KEY(3),
    HEADROOM_KEY(4),
    HEADROOM_KEY(5),
    HEADROOM_KEY(6),
    HEADROOM_KEY(7),
    KEY("eth_fcs", KEY_FLAG, eth_fcs),
    KEY("prio_dscp", KEY_FLAG, prio_dscp),
};
#define KEYS_COUNT (sizeof KEYS / sizeof KEYS[0])

#define SETTING_SEPARATORS " \t\n,"

/* Set the key=value of lfc_check_create_text in item[0..len) in *cfg; false with the reason if
 * it cannot. */
static bool set_key(lfc_check_cfg_t *cfg, const char *item, size_t len, char *err, size_t errlen) {
  const char *eq = memchr(item, '=', len);
  if (eq == NULL) {
    lfc_say(err, errlen, "check: setting '%.*s' is not key=value", (int)len, item);
    return false;
  }
  const size_t n = (size_t)(eq - item);
  size_t k = 0;
  while (k != KEYS_COUNT && (strlen(KEYS[k].name) != n || strncmp(KEYS[k].name, item, n) != 0)) {
    k++;
  }
  if (k == KEYS_COUNT) {
    lfc_say(err, errlen, "check: unknown key '%.*s' (lfc/check.h, lfc_check_create_text: the keys)",
            (int)n, item);
    return false;
  }
  const key_kind_t kind = KEYS[k].kind;
  const int64_t max = kind == KEY_FLAG                      ? 1
                      : kind == KEY_U8                      ? UINT8_MAX
                      : kind == KEY_U32 || kind == KEY_SIZE ? (int64_t)UINT32_MAX
                                                            : INT64_MAX;
  char value[LFC_CHECK_TEXT_VALUE_MAX + 1u];
  const size_t vlen = len - n - 1u;
  snprintf(value, sizeof value, "%.*s", (int)vlen, eq + 1);
  int64_t v;
  if (vlen > LFC_CHECK_TEXT_VALUE_MAX || lfc_parse_int(value, 0, max, &v) != 0) {
    lfc_say(err, errlen, "check: %s '%.*s': a whole number 0..%" PRId64, KEYS[k].name, (int)vlen,
            eq + 1, max);
    return false;
  }
  unsigned char *field = (unsigned char *)cfg + KEYS[k].offset;
  switch (kind) {
    case KEY_U32:
      *(uint32_t *)(void *)field = (uint32_t)v;
      break;
    case KEY_U8:
      *field = (uint8_t)v;
      break;
    case KEY_SIZE:
      *(size_t *)(void *)field = (size_t)v;
      break;
    case KEY_FLAG:
      *(bool *)(void *)field = v != 0;
      break;
    case KEY_SKEW:
    case KEY_HEADROOM: {
      const size_t count = kind == KEY_SKEW ? LFC_CHECK_DIRS : LFC_PFC_MAX_PRIOS;
      for (size_t i = 0; i != count; i++) ((uint64_t *)(void *)field)[i] = (uint64_t)v;
      break;
    }
    default:
      *(uint64_t *)(void *)field = (uint64_t)v;
      break; /* KEY_U64 */
  }
  return true;
}

lfc_check_t *lfc_check_create_text(lfc_mode_t mode, const char *settings, char *err,
                                   size_t errlen) {
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, mode);
  /* Read in place: no copy, so nothing to allocate. */
  for (const char *p = settings != NULL ? settings : ""; *p != '\0';) {
    p += strspn(p, SETTING_SEPARATORS);
    const size_t len = strcspn(p, SETTING_SEPARATORS);
    if (len > 0 && !set_key(&cfg, p, len, err, errlen)) return NULL;
    p += len;
  }
  return lfc_check_create(&cfg, err, errlen);
}

void lfc_check_destroy(lfc_check_t *c) {
  if (c == NULL) return;
  chk_log_free(&c->log);
  free(c->link);
  free(c);
}

const char *lfc_check_error(const lfc_check_t *c) { return c->err; }

static int refuse(lfc_check_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(lfc_check_t *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, sizeof c->err, fmt, ap);
  va_end(ap);
  return -1;
}

/* The time into c->cur_ps and c->cur_time; false (with the reason) if it cannot be counted. */
static bool take_time(lfc_check_t *c, uint64_t time) {
  if (time > UINT64_MAX / c->cfg.time_unit_ps) {
    refuse(c, "time %" PRIu64 "%s is too large to count in picoseconds", time, c->label);
    return false;
  }
  c->cur_ps = time * c->cfg.time_unit_ps;
  c->cur_time = time;
  return true;
}

/* What every input on a link checks first; then its violations are of link, at time, of no
 * frame (lfc_check_frame numbers its own). False with the reason if the input is refused. */
static bool begin(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t time) {
  c->err[0] = '\0';
  if (link >= c->cfg.links) {
    refuse(c, "link %u, allowed 0..%u", (unsigned)link, (unsigned)c->cfg.links - 1u);
    return false;
  }
  if (dir >= LFC_CHECK_DIRS) {
    refuse(c, "direction %u, allowed 0 (A>B) or 1 (B>A)", dir);
    return false;
  }
  if (!take_time(c, time)) return false;
  c->cur_frame = 0;
  c->cur_link = link;
  c->cur_dir = dir;
  return true;
}

int lfc_check_frame(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t time, lfc_pcap_rec_t kind,
                    const uint8_t *frame, size_t len) {
  if (!begin(c, link, dir, time)) return -1;
  if (c->finished) return refuse(c, "a frame after lfc_check_finish");
  const bool ib = c->cfg.mode == LFC_MODE_IB;
  if (ib ? (kind != LFC_PCAP_IB_DATA && kind != LFC_PCAP_IB_LINK) : kind != LFC_PCAP_ETH) {
    return refuse(c, "a frame of kind %d in %s mode: allowed %s", (int)kind, ib ? "IB" : "PFC",
                  ib ? "1 (IB data) or 2 (IB link)" : "0 (Ethernet)");
  }
  if (frame == NULL && len > 0) return refuse(c, "no bytes for a frame of %zu", len);
  chk_link_t *l = &c->link[link];
  const uint64_t t = c->cur_ps;
  if (l->seen && t < l->last_ps) {
    return refuse(c,
                  "link %u: time %" PRIu64 "%s is before the previous frame's %" PRIu64
                  "%s: frames of a link must come in order of time",
                  (unsigned)link, time, c->label, chk_units(c, l->last_ps), c->label);
  }
  if (!l->seen) l->first_ps = t;
  l->seen = true;
  l->last_ps = t;
  c->frames++;
  c->cur_frame = ++l->frames;
  return ib ? chk_ib_frame(c, link, dir, t, kind, frame, len)
            : chk_pfc_frame(c, link, dir, t, frame, len);
}

int lfc_check_drop(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t time, uint32_t cls) {
  if (!begin(c, link, dir, time)) return -1;
  const bool ib = c->cfg.mode == LFC_MODE_IB;
  const uint32_t classes = ib ? LFC_MAX_CLASSES : LFC_PFC_MAX_PRIOS;
  if (cls >= classes) {
    return refuse(c, "class %u, allowed 0..%u (%s)", (unsigned)cls, (unsigned)classes - 1u,
                  ib ? "VL; 15 is VL15" : "priority");
  }
  return ib ? chk_ib_drop(c, link, dir, cls) : chk_pfc_drop(c, link, dir, cls);
}

int lfc_check_xoff(lfc_check_t *c, uint32_t link, uint32_t dir, uint64_t time, uint32_t prio,
                   bool xoff) {
  if (!begin(c, link, dir, time)) return -1;
  if (c->cfg.mode != LFC_MODE_PFC) return refuse(c, "an XOFF state in IB mode");
  if (prio >= LFC_PFC_MAX_PRIOS) return refuse(c, "priority %u, allowed 0..7", (unsigned)prio);
  return chk_pfc_xoff(c, link, dir, c->cur_ps, prio, xoff);
}

int lfc_check_finish(lfc_check_t *c, uint64_t time) {
  c->err[0] = '\0';
  if (!take_time(c, time)) return -1;
  for (uint32_t l = 0; l != c->cfg.links; l++) {
    if (c->link[l].seen && c->cur_ps < c->link[l].last_ps) {
      return refuse(c, "finish at %" PRIu64 "%s, before the last frame of link %u at %" PRIu64 "%s",
                    time, c->label, (unsigned)l, chk_units(c, c->link[l].last_ps), c->label);
    }
  }
  if (c->finished) return 0;
  c->finished = true;
  c->cur_frame = 0;
  return c->cfg.mode == LFC_MODE_IB ? chk_ib_finish(c, c->cur_ps) : chk_pfc_finish(c, c->cur_ps);
}

uint64_t lfc_check_violations(const lfc_check_t *c) { return c->log.total; }

uint64_t lfc_check_count(const lfc_check_t *c, lfc_check_rule_t rule) {
  return (unsigned)rule < LFC_RULES ? c->log.by_rule[rule] : 0;
}

uint64_t lfc_check_frames(const lfc_check_t *c) { return c->frames; }

const lfc_check_violation_t *lfc_check_violation(const lfc_check_t *c, size_t i) {
  return i < c->log.n ? &c->log.kept[i] : NULL;
}

char *lfc_check_format(const lfc_check_t *c, size_t i, char *buf, size_t len) {
  const lfc_check_violation_t *v = lfc_check_violation(c, i);
  if (v == NULL || buf == NULL || len == 0) return NULL;
  return chk_log_format(v, c->label, buf, len);
}

uint64_t lfc_check_headroom_max(const lfc_check_t *c, uint32_t link, uint32_t dir, uint32_t prio) {
  if (c->cfg.mode != LFC_MODE_PFC || link >= c->cfg.links || dir >= LFC_CHECK_DIRS ||
      prio >= LFC_PFC_MAX_PRIOS) {
    return 0;
  }
  return c->link[link].pfc.prio[dir][prio].hr_max;
}
