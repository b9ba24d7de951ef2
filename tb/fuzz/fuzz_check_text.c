/*
 * fuzz_check_text.c - libFuzzer target: lfc_check_create_text (cmodel/src/check.c), the
 * checkers' settings text of lfc/check.h.
 *
 * Input: one byte choosing the mode (its value mod 3: 0 IB, 1 PFC, 2 a mode that does not
 * exist), then the settings (a NUL ends them; an input of the mode byte alone passes NULL).
 * Checked besides crashes and sanitizer findings, against a reference written from lfc/check.h:
 * the settings are items separated by blanks or commas, each key=value with a key of the
 * header's list and a value lfc_parse_int reads within its field (flags 0..1, lossless_mask
 * 0..255, the 32-bit fields 0..2^32-1, the others 0..2^63-1), of at most
 * LFC_CHECK_TEXT_VALUE_MAX characters; then the configuration must be in the ranges of the
 * field comments of lfc_check_cfg_t and of lfc_check_create's messages (links 1..4096,
 * speed_mbps 1..1600000, time_unit_ps >= 1, IB data_vls 1..15 and mtu_bytes 256..4096, PFC
 * mtu_bytes 64..65535 and a reaction budget, durations at most a day):
 *   - NULL exactly when the reference refuses, with err one non-empty line;
 *   - otherwise the checker works and shows the settings it can: a link = links is refused and
 *     links - 1 taken, a time beyond what time_unit_ps can count in picoseconds is refused and
 *     the largest one taken, a frame of the other mode is refused, a violation is kept exactly
 *     when max_kept > 0, every refusal leaves one line in lfc_check_error, finish returns >= 0.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_parse.h"
#include "lfc/check.h"
#include "lfc/parse.h"

#define TARGET "check_text"
#define ERR_LEN 256u
#define MODES 3u
#define SEPARATORS " \t\n,"

/* The ranges lfc/check.h states (lfc_check_cfg_t's comments, lfc_check_create's messages). */
#define REF_MAX_SPEED_MBPS 1600000u
#define REF_IB_MTU_MIN 256u
#define REF_IB_MTU_MAX 4096u
#define REF_ETH_MTU_MIN 64u
#define REF_ETH_MTU_MAX 65535u
#define REF_MAX_DURATION_NS 86400000000000ull /* a day */

typedef enum { K_FLAG, K_U8, K_U32, K_SIZE, K_U64, K_SKEW, K_HEADROOM, K_HEADROOM_P } kind_t;

static const struct {
  const char *name;
  kind_t kind;
} REF_KEYS[] = {
    {"links", K_U32},          {"speed_mbps", K_U32},      {"time_unit_ps", K_U32},
    {"max_kept", K_SIZE},      {"data_vls", K_U32},        {"mtu_bytes", K_U32},
    {"fcp_period_ns", K_U64},  {"from_reset", K_FLAG},     {"lossless_mask", K_U8},
    {"reaction_ns", K_U64},    {"skew_ns", K_SKEW},        {"skew_ns_ab", K_U64},
    {"skew_ns_ba", K_U64},     {"watchdog_ns", K_U64},     {"headroom_bytes", K_HEADROOM},
    {"headroom_bytes_0", K_HEADROOM_P}, {"headroom_bytes_1", K_HEADROOM_P},
    {"headroom_bytes_2", K_HEADROOM_P}, {"headroom_bytes_3", K_HEADROOM_P},
    {"headroom_bytes_4", K_HEADROOM_P}, {"headroom_bytes_5", K_HEADROOM_P},
    {"headroom_bytes_6", K_HEADROOM_P}, {"headroom_bytes_7", K_HEADROOM_P},
    {"eth_fcs", K_FLAG},       {"prio_dscp", K_FLAG},
};
#define REF_KEYS_COUNT (sizeof REF_KEYS / sizeof REF_KEYS[0])

/* IEEE 802.3 Annex 31B's table as lfc/check.h lists it (lfc_check_reaction_quanta). */
static bool ref_has_budget(uint32_t mbps) {
  static const uint32_t SPEEDS[] = {100u,   1000u,   10000u,  25000u,  40000u,
                                    50000u, 100000u, 200000u, 400000u, 800000u};
  for (size_t i = 0; i < sizeof SPEEDS / sizeof SPEEDS[0]; i++)
    if (SPEEDS[i] == mbps) return true;
  return false;
}

/* One item[0..len): true and set in *cfg, or false. */
static bool ref_item(lfc_check_cfg_t *cfg, const char *item, size_t len) {
  const char *eq = memchr(item, '=', len);
  if (eq == NULL) return false;
  const size_t n = (size_t)(eq - item), vlen = len - n - 1u;
  size_t k = 0;
  while (k < REF_KEYS_COUNT &&
         (strlen(REF_KEYS[k].name) != n || memcmp(REF_KEYS[k].name, item, n) != 0))
    k++;
  if (k == REF_KEYS_COUNT || vlen > LFC_CHECK_TEXT_VALUE_MAX) return false;
  const kind_t kind = REF_KEYS[k].kind;
  const int64_t max = kind == K_FLAG ? 1 : kind == K_U8 ? UINT8_MAX
                      : kind == K_U32 || kind == K_SIZE ? (int64_t)UINT32_MAX : INT64_MAX;
  char value[LFC_CHECK_TEXT_VALUE_MAX + 1u];
  memcpy(value, eq + 1, vlen);
  value[vlen] = '\0';
  int64_t v;
  if (lfc_parse_int(value, 0, max, &v) != 0) return false;
  const char *name = REF_KEYS[k].name;
  if (!strcmp(name, "links")) cfg->links = (uint32_t)v;
  else if (!strcmp(name, "speed_mbps")) cfg->speed_mbps = (uint32_t)v;
  else if (!strcmp(name, "time_unit_ps")) cfg->time_unit_ps = (uint32_t)v;
  else if (!strcmp(name, "max_kept")) cfg->max_kept = (size_t)v;
  else if (!strcmp(name, "data_vls")) cfg->data_vls = (uint32_t)v;
  else if (!strcmp(name, "mtu_bytes")) cfg->mtu_bytes = (uint32_t)v;
  else if (!strcmp(name, "fcp_period_ns")) cfg->fcp_period_ns = (uint64_t)v;
  else if (!strcmp(name, "from_reset")) cfg->from_reset = v != 0;
  else if (!strcmp(name, "lossless_mask")) cfg->lossless_mask = (uint8_t)v;
  else if (!strcmp(name, "reaction_ns")) cfg->reaction_ns = (uint64_t)v;
  else if (!strcmp(name, "skew_ns")) cfg->skew_ns[0] = cfg->skew_ns[1] = (uint64_t)v;
  else if (!strcmp(name, "skew_ns_ab")) cfg->skew_ns[LFC_CHECK_AB] = (uint64_t)v;
  else if (!strcmp(name, "skew_ns_ba")) cfg->skew_ns[LFC_CHECK_BA] = (uint64_t)v;
  else if (!strcmp(name, "watchdog_ns")) cfg->watchdog_ns = (uint64_t)v;
  else if (!strcmp(name, "eth_fcs")) cfg->eth_fcs = v != 0;
  else if (!strcmp(name, "prio_dscp")) cfg->prio_dscp = v != 0;
  else if (kind == K_HEADROOM)
    for (unsigned p = 0; p < LFC_PFC_MAX_PRIOS; p++) cfg->headroom_bytes[p] = (uint64_t)v;
  else cfg->headroom_bytes[name[sizeof "headroom_bytes_" - 1u] - '0'] = (uint64_t)v;
  return true;
}

/* The reference: true if the settings make a checker, with its configuration in *cfg. */
static bool ref_create(unsigned mode, const char *s, lfc_check_cfg_t *cfg) {
  lfc_check_cfg_default(cfg, mode == 0 ? LFC_MODE_IB : LFC_MODE_PFC);
  if (mode >= 2u) return false;
  for (const char *p = s ? s : ""; *p;) {
    p += strspn(p, SEPARATORS);
    const size_t len = strcspn(p, SEPARATORS);
    if (len > 0 && !ref_item(cfg, p, len)) return false;
    p += len;
  }
  if (cfg->links < 1u || cfg->links > LFC_CHECK_MAX_LINKS) return false;
  if (cfg->speed_mbps < 1u || cfg->speed_mbps > REF_MAX_SPEED_MBPS) return false;
  if (cfg->time_unit_ps < 1u) return false;
  if (mode == 0) {
    if (cfg->data_vls < 1u || cfg->data_vls > LFC_IB_MAX_VLS) return false;
    if (cfg->mtu_bytes < REF_IB_MTU_MIN || cfg->mtu_bytes > REF_IB_MTU_MAX) return false;
  } else {
    if (cfg->mtu_bytes < REF_ETH_MTU_MIN || cfg->mtu_bytes > REF_ETH_MTU_MAX) return false;
    if (cfg->reaction_ns == 0 && !ref_has_budget(cfg->speed_mbps)) return false;
  }
  const uint64_t d[] = {cfg->fcp_period_ns, cfg->reaction_ns, cfg->skew_ns[0], cfg->skew_ns[1],
                        cfg->watchdog_ns};
  for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
    if (d[i] > REF_MAX_DURATION_NS) return false;
  return true;
}

static void refused_here(lfc_check_t *c, int rc, const char *what) {
  const char *e = lfc_check_error(c);
  if (rc != -1 || e == NULL || e[0] == '\0' || strchr(e, '\n') || lfc_check_frames(c) != 0)
    fuzz_fail(TARGET, "%s: rc %d, error '%s', frames %llu (expected -1, one line, none taken)",
              what, rc, e ? e : "(null)", (unsigned long long)lfc_check_frames(c));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1u) return 0;
  const unsigned mode = data[0] % MODES;
  char *settings = size > 1u ? fuzz_cstring(data + 1, size - 1u) : NULL;
  if (size > 1u && settings == NULL) return 0;
  lfc_check_cfg_t want;
  const bool ok = ref_create(mode, settings, &want);
  char *err = malloc(ERR_LEN); /* exactly ERR_LEN: ASan sees a write past it */
  if (err == NULL) {
    free(settings);
    return 0;
  }
  memset(err, 'x', ERR_LEN); /* a message left unwritten shows */
  err[ERR_LEN - 1u] = '\0';
  lfc_check_t *c = lfc_check_create_text((lfc_mode_t)mode, settings, err, ERR_LEN);
  fuzz_verbose("%s: mode %u: %s %s", TARGET, mode, c ? "created" : "refused", c ? "" : err);
  if ((c != NULL) != ok)
    fuzz_fail(TARGET, "mode %u '%.200s': the reference %s it, but lfc_check_create_text %s "
              "('%s')", mode, settings ? settings : "(NULL)", ok ? "takes" : "refuses",
              c ? "created a checker" : "refused", c ? "" : err);
  if (c == NULL) {
    if (err[0] == '\0' || err[0] == 'x' || strchr(err, '\n'))
      fuzz_fail(TARGET, "refused, but the message is not one line: '%s'", err);
    free(err);
    free(settings);
    return 0;
  }
  /* The checker works, and shows the settings it can. */
  const bool ib = mode == 0;
  const lfc_pcap_rec_t kind = ib ? LFC_PCAP_IB_DATA : LFC_PCAP_ETH;
  static const uint8_t byte = 0;
  refused_here(c, lfc_check_frame(c, want.links, 0, 0, kind, &byte, 1u), "link = links");
  refused_here(c, lfc_check_frame(c, 0, LFC_CHECK_DIRS, 0, kind, &byte, 1u), "direction 2");
  refused_here(c, lfc_check_frame(c, 0, 0, 0, ib ? LFC_PCAP_ETH : LFC_PCAP_IB_LINK, &byte, 1u),
               "a frame of the other mode");
  const uint64_t tmax = UINT64_MAX / want.time_unit_ps;
  if (want.time_unit_ps > 1u)
    refused_here(c, lfc_check_frame(c, 0, 0, tmax + 1u, kind, &byte, 1u),
                 "a time beyond time_unit_ps");
  /* One byte: malformed in either mode. */
  const int v = lfc_check_frame(c, want.links - 1u, 0, tmax, kind, &byte, 1u);
  if (v < 0 || lfc_check_frames(c) != 1u || lfc_check_violations(c) != (uint64_t)v)
    fuzz_fail(TARGET, "a frame on link %u at %llu: %d '%s', frames %llu", want.links - 1u,
              (unsigned long long)tmax, v, lfc_check_error(c),
              (unsigned long long)lfc_check_frames(c));
  if ((lfc_check_violation(c, 0) != NULL) != (want.max_kept > 0 && v > 0))
    fuzz_fail(TARGET, "max_kept %zu, %d violations, but the first is %s", want.max_kept, v,
              lfc_check_violation(c, 0) ? "kept" : "not kept");
  const int fin = lfc_check_finish(c, tmax);
  if (fin < 0) fuzz_fail(TARGET, "finish: %d '%s'", fin, lfc_check_error(c));
  lfc_check_destroy(c);
  free(err);
  free(settings);
  return 0;
}
