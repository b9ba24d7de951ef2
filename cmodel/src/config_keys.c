/*
 * config_keys.c - the switch parameters of SPEC §3 by name, from text.
 *
 * Every front end (the co-simulation's .ini files, the fabric simulator's scenarios, the flat
 * FFI facade for ctypes and DPI-C) sets parameters with the same names, ranges and error
 * messages: one table here, so that a parameter added to the SPEC is added once.
 *
 * The ranges are the SPEC §3 tables' per-parameter ranges; combinations (e.g. vl_blocks >=
 * mtu_blocks) are lfc_switch_cfg_check's job, not this file's.
 */
/* strtok_r is POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/parse.h"
#include "lfc/switch.h"
#include "config_keys.h"
#include "errtext.h"
#include "params_table.h"

typedef enum {
  K_U32,        /* uint32_t field, [min, max] */
  K_U8,         /* uint8_t field (bit masks), [min, max] */
  K_I32,        /* int32_t field */
  K_BOOL,       /* bool field: 0/1, true/false, yes/no, on/off */
  K_MODE,       /* lfc_mode_t: ib | pfc */
  K_WD_ACTION,  /* lfc_wd_action_t: drop | forward */
  K_SPEED_DIV,  /* uint8_t speed_div[ports]: one value for every port, or one per port */
  K_CLASS_LIST, /* uint32_t[classes]: one value for every class, or one per class */
  K_VLARB       /* "vl:weight, vl:weight, ..." or "none": vlarb_high or vlarb_low */
} kind_t;

typedef struct {
  const char *section;
  const char *name;
  kind_t kind;
  int64_t min, max;
  size_t off;
} key_t_;

#define F(f) offsetof(lfc_switch_cfg_t, f)
/* A VL arbitration entry's weight is 8 bits (SPEC §5.6). */
#define MAX8 255

/* The keys, their kinds and ranges: tables/params.toml, through params_table.h. */
#define KEY_ROW(section, key, kind, min, max) {section, #key, kind, min, max, F(key)},
static const key_t_ KEYS[] = {LFC_PARAM_KEYS(KEY_ROW)};
#undef KEY_ROW
#define NKEYS (sizeof KEYS / sizeof KEYS[0])

/* Longest value text we look at; a longer value is an error, not a truncation. */
#define VALUE_MAX 1024

static int failf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int failf(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lfc_vsay(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

static const char *skip_space(const char *s) {
  while (*s == ' ' || *s == '\t') s++;
  return s;
}

static int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

/* By hand rather than strtoll: strtoll's base 0 reads a leading zero as octal (010 was 8 and 09
   refused), and no base of strtoll takes 0b. */
int lfc_parse_int(const char *s, int64_t min, int64_t max, int64_t *out) {
  if (!s || !out) return -1;
  s = skip_space(s);
  int negative = *s == '-';
  if (*s == '-' || *s == '+') s++;
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s += 2;
  }
  /* The magnitude, up to 2^63 (the magnitude of INT64_MIN); beyond that only "too large". */
  const uint64_t limit = (uint64_t)1 << 63;
  uint64_t mag = 0;
  int digits = 0, too_large = 0;
  for (; digit_value(*s) < base; s++, digits++) {
    uint64_t d = (uint64_t)digit_value(*s);
    if (mag > (limit - d) / (uint64_t)base)
      too_large = 1;
    else
      mag = mag * (uint64_t)base + d;
  }
  if (digits == 0 || *skip_space(s) != '\0') return -1;
  if (too_large || (!negative && mag == limit)) return -2;
  int64_t v = negative ? (mag == limit ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
  if (v < min || v > max) return -2;
  *out = v;
  return 0;
}

/* Whether the len characters at s spell one of words, ignoring ASCII case. */
static bool word_is(const char *s, size_t len, const char *const *words) {
  for (; *words; words++) {
    size_t i = 0;
    while (i < len && (*words)[i] != '\0' &&
           (s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]) == (*words)[i])
      i++;
    if (i == len && (*words)[i] == '\0') return true;
  }
  return false;
}

/* One word, surrounded by optional blanks: 1/true/yes/on or 0/false/no/off, any case. The word is
   compared in place, so no length limit applies to what is refused. */
static int parse_bool(const char *s, int *out) {
  static const char *const yes[] = {"1", "true", "yes", "on", NULL};
  static const char *const no[] = {"0", "false", "no", "off", NULL};
  s = skip_space(s);
  size_t n = 0;
  while (s[n] && s[n] != ' ' && s[n] != '\t') n++;
  if (*skip_space(s + n) != '\0') return -1;
  if (word_is(s, n, yes)) return *out = 1, 0;
  if (word_is(s, n, no)) return *out = 0, 0;
  return -1;
}

/* Split value at commas into at most maxn integers in [min, max]. Returns the count, or -1 (an
   element that is not such an integer, or no element at all; its text in bad), -3 (more than
   maxn). */
static int parse_list(const char *value, int64_t min, int64_t max, int64_t *out, int maxn,
                      char *bad, size_t badlen) {
  char buf[VALUE_MAX];
  snprintf(buf, sizeof buf, "%s", value);
  int n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (n >= maxn) return -3;
    int rc = lfc_parse_int(tok, min, max, &out[n]);
    if (rc) {
      snprintf(bad, badlen, "%s", skip_space(tok));
      return -1;
    }
    n++;
  }
  if (n == 0) {
    snprintf(bad, badlen, "%s", value);
    return -1;
  }
  return n;
}

/* A per-port or per-class list: one value for all, or exactly `count`. Returns the count given
   (1 or count) or -1 with the message written. */
static int set_list(const key_t_ *k, const char *value, uint32_t count, uint32_t cap,
                    const char *unit, int64_t *vals, char *err, size_t errlen) {
  char bad[64] = "";
  int n = parse_list(value, k->min, k->max, vals, (int)cap, bad, sizeof bad);
  if (n == -1)
    return failf(err, errlen,
                 "'%s' is not an integer in %" PRId64 "..%" PRId64 "; expected one value for "
                 "every %s or a comma-separated list of %u (one per %s)",
                 bad, k->min, k->max, unit, count, unit);
  if (n == -3)
    return failf(err, errlen, "more than %u values given; expected 1 (for every %s) or %u (one "
                 "per %s)", cap, unit, count, unit);
  if (n != 1 && (uint32_t)n != count)
    return failf(err, errlen, "%d values given; expected 1 (for every %s) or %u (one per %s)", n,
                 unit, count, unit);
  return n;
}

static int parse_vlarb(const char *value, lfc_vlarb_entry_t *tab, uint32_t *len, char *err,
                       size_t errlen) {
  char buf[VALUE_MAX];
  const char *v = skip_space(value);
  /* An empty value or "none" is an empty table (SPEC §5.6: 0 entries allowed). */
  if (*v == '\0' || strcmp(v, "none") == 0) {
    *len = 0;
    return 0;
  }
  snprintf(buf, sizeof buf, "%s", v);
  lfc_vlarb_entry_t tmp[LFC_VLARB_MAX_ENTRIES];
  uint32_t n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *colon = strchr(tok, ':');
    int64_t vl, w;
    if (!colon)
      return failf(err, errlen, "entry '%s' is not vl:weight (vl 0..%u, weight 0..%d)",
                   skip_space(tok), LFC_IB_MAX_VLS - 1, MAX8);
    *colon = '\0';
    if (lfc_parse_int(tok, 0, LFC_IB_MAX_VLS - 1, &vl) ||
        lfc_parse_int(colon + 1, 0, MAX8, &w))
      return failf(err, errlen, "entry '%s:%s': expected vl 0..%u and weight 0..%d",
                   skip_space(tok), skip_space(colon + 1), LFC_IB_MAX_VLS - 1, MAX8);
    if (n >= LFC_VLARB_MAX_ENTRIES)
      return failf(err, errlen, "more than %u entries", LFC_VLARB_MAX_ENTRIES);
    tmp[n].vl = (uint8_t)vl;
    tmp[n].weight = (uint8_t)w;
    n++;
  }
  memcpy(tab, tmp, n * sizeof tmp[0]);
  *len = n;
  return 0;
}

static int apply(lfc_switch_cfg_t *cfg, const key_t_ *k, const char *value, char *err,
                 size_t errlen) {
  char *base = (char *)cfg;
  int64_t v;
  int64_t vals[LFC_MAX_PORTS];
  int b, n;
  switch (k->kind) {
    case K_U32:
    case K_U8:
    case K_I32:
      if (lfc_parse_int(value, k->min, k->max, &v))
        return failf(err, errlen, "expected an integer in %" PRId64 "..%" PRId64, k->min,
                     k->max);
      if (k->kind == K_U32) *(uint32_t *)(base + k->off) = (uint32_t)v;
      if (k->kind == K_U8) *(uint8_t *)(base + k->off) = (uint8_t)v;
      if (k->kind == K_I32) *(int32_t *)(base + k->off) = (int32_t)v;
      return 0;
    case K_BOOL:
      if (parse_bool(value, &b))
        return failf(err, errlen, "expected 0 or 1 (or true/false, yes/no, on/off)");
      *(bool *)(base + k->off) = b != 0;
      return 0;
    case K_MODE: {
      const char *s = skip_space(value);
      if (strcmp(s, "ib") == 0)
        cfg->mode = LFC_MODE_IB;
      else if (strcmp(s, "pfc") == 0)
        cfg->mode = LFC_MODE_PFC;
      else
        return failf(err, errlen, "allowed values: ib, pfc");
      return 0;
    }
    case K_WD_ACTION: {
      const char *s = skip_space(value);
      if (strcmp(s, "drop") == 0)
        cfg->wd_action = LFC_WD_DROP;
      else if (strcmp(s, "forward") == 0)
        cfg->wd_action = LFC_WD_FORWARD;
      else
        return failf(err, errlen, "allowed values: drop, forward");
      return 0;
    }
    case K_SPEED_DIV:
      n = set_list(k, value, cfg->ports, LFC_MAX_PORTS, "port", vals, err, errlen);
      if (n < 0) return -1;
      for (uint32_t p = 0; p < LFC_MAX_PORTS; p++)
        cfg->speed_div[p] = (uint8_t)(n == 1 ? vals[0] : (p < (uint32_t)n ? vals[p] : 1));
      return 0;
    case K_CLASS_LIST: {
      /* vl_blocks has a slot per data VL, drr_quantum one per priority (SPEC §3.2). */
      uint32_t cap = k->off == F(vl_blocks) ? LFC_IB_MAX_VLS : LFC_PFC_MAX_PRIOS;
      if (cfg->classes > cap)
        return failf(err, errlen, "classes = %u, but this parameter has %u entries at most",
                     cfg->classes, cap);
      n = set_list(k, value, cfg->classes, cap, "class", vals, err, errlen);
      if (n < 0) return -1;
      for (uint32_t i = 0; i < cap; i++)
        ((uint32_t *)(base + k->off))[i] =
            (uint32_t)(n == 1 ? vals[0] : (i < (uint32_t)n ? vals[i] : vals[0]));
      return 0;
    }
    case K_VLARB:
      if (k->off == F(vlarb_high))
        return parse_vlarb(value, cfg->vlarb_high, &cfg->vlarb_high_len, err, errlen);
      return parse_vlarb(value, cfg->vlarb_low, &cfg->vlarb_low_len, err, errlen);
  }
  return failf(err, errlen, "internal error: unknown kind of key");
}

size_t lfc_switch_cfg_keys(const char *section, char *buf, size_t len) {
  size_t count = 0, used = 0;
  if (buf && len) buf[0] = '\0';
  for (size_t i = 0; i < NKEYS; i++) {
    if (section && strcmp(KEYS[i].section, section) != 0) continue;
    if (buf && len) { /* snprintf stops one short of len - used and ends the text: used < len */
      snprintf(buf + used, len - used, "%s%s", count ? ", " : "", KEYS[i].name);
      used += strlen(buf + used);
    }
    count++;
  }
  return count;
}

int lfc_switch_cfg_set(lfc_switch_cfg_t *cfg, const char *section, const char *key,
                       const char *value, char *err, size_t errlen) {
  if (!cfg || !section || !key || !value)
    return failf(err, errlen, "internal error: NULL argument");
  /* The key first: an unknown key is 1 (not a switch parameter) whatever its value. */
  for (size_t i = 0; i < NKEYS; i++) {
    if (strcmp(KEYS[i].section, section) != 0 || strcmp(KEYS[i].name, key) != 0) continue;
    if (strlen(value) >= VALUE_MAX)
      return failf(err, errlen, "value longer than %d characters", VALUE_MAX - 1);
    return apply(cfg, &KEYS[i], value, err, errlen);
  }
  char keys[VALUE_MAX];
  if (lfc_switch_cfg_keys(section, keys, sizeof keys) == 0)
    failf(err, errlen, "unknown section [%s]; switch parameters are in [switch], [ib], [pfc]",
          section);
  else
    failf(err, errlen, "unknown key '%s'; keys of [%s]: %s", key, section, keys);
  return 1;
}

int lfc_switch_cfg_get(const lfc_switch_cfg_t *cfg, const char *key, int index, int64_t *out,
                       uint32_t *count) {
  const key_t_ *k = NULL;
  for (size_t i = 0; i < NKEYS && key; i++)
    if (strcmp(KEYS[i].name, key) == 0) k = &KEYS[i];
  if (!cfg || !k || !out) return -1;
  const char *f = (const char *)cfg + k->off;
  uint32_t n;
  switch (k->kind) {
    case K_U32: *out = *(const uint32_t *)f; return 0;
    case K_U8: *out = *(const uint8_t *)f; return 0;
    case K_I32: *out = (int64_t)(uint32_t)(*(const int32_t *)f); return 0; /* 32-bit two's
                                                                                 complement */
    case K_BOOL: *out = *(const bool *)f ? 1 : 0; return 0;
    case K_MODE: *out = (int64_t)cfg->mode; return 0;
    case K_WD_ACTION: *out = (int64_t)cfg->wd_action; return 0;
    case K_SPEED_DIV:
    case K_CLASS_LIST:
      n = k->kind == K_SPEED_DIV ? cfg->ports : cfg->classes;
      /* drr_quantum has a slot per PFC priority (8), fewer than an IB switch's classes (up to 15
         data VLs, SPEC §3.2): its index stops at the last slot. */
      if (k->off == F(drr_quantum) && n > LFC_PFC_MAX_PRIOS) n = LFC_PFC_MAX_PRIOS;
      if (count) *count = n;
      if (index < 0 || (uint32_t)index >= n) return -2;
      *out = k->kind == K_SPEED_DIV ? (int64_t)((const uint8_t *)f)[index]
                                    : (int64_t)((const uint32_t *)f)[index];
      return 0;
    case K_VLARB: return -3; /* a table, not a value */
  }
  return -1;
}
