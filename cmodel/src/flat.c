/*
 * flat.c - the switch model behind a handle and plain integers (lfc/flat.h), for ctypes and
 * DPI-C. A thin layer: configuration text goes through lfc_switch_cfg_set, cycles through
 * lfc_switch_step, and the only thing computed here is the RTL's view of the model's events
 * (the stat_*_o outputs of SPEC §13), the same mapping as tb/common/tb_main.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/flat.h"
#include "lfc/switch.h"
#include "alloc.h"
#include "config_keys.h"
#include "params_table.h"

/* Longest message kept for lfc_flat_error. */
#define FLAT_ERR_LEN 512u
/* Text buffer of the format functions: every event of a cycle of the largest switch fits
   (one event is at most ~60 characters). */
#define FLAT_TEXT_LEN 16384u
/* SPEC §2: pfc_time has one 16-bit time per priority. */
#define PFC_TIME_BITS 16
/* The debug port dbg_val_o is 32 bits wide (SPEC §13). */
#define DBG_VAL_BITS 32u
/* Longest configuration text accepted (it is copied once to be split). */
#define FLAT_CFG_MAX (1u << 20)

struct lfc_flat {
  lfc_switch_t *sw; /* NULL when creation failed */
  lfc_switch_cfg_t cfg;
  uint32_t ports;
  lfc_word_t in[LFC_MAX_PORTS];
  lfc_word_t out[LFC_MAX_PORTS];
  uint32_t stat[LFC_FLAT_STATS][LFC_MAX_PORTS];
  const lfc_event_t *ev; /* events of the last step, owned by sw */
  size_t nev;
  int rx_rem_reg; /* index of register rx_rem (SPEC §7.2) */
  char err[FLAT_ERR_LEN];
  char text[FLAT_TEXT_LEN];
};

/* ---- names and widths ---- */

static const char *const FIELD_NAMES[LFC_FLAT_FIELDS] = {
    "kind",      "sop",       "eop",       "cls",       "nblk",      "dst",
    "tag",       "ecn",       "fc_op",     "fc_vl",     "fc_fctbs",  "fc_fccl",
    "pfc_en",    "pfc_time0", "pfc_time1", "pfc_time2", "pfc_time3", "pfc_time4",
    "pfc_time5", "pfc_time6", "pfc_time7", "pad",       "mrg"};
/* SPEC §2 field widths. */
static const int FIELD_WIDTHS[LFC_FLAT_FIELDS] = {2, 1, 1, 4, 8, 16, 32, 2, 4, 4, 12, 12, 8,
                                                  16, 16, 16, 16, 16, 16, 16, 16, 6, 1};

static const char *const STAT_NAMES[LFC_FLAT_STATS] = {
    "stat_drop_o", "stat_drop_cause_o", "stat_wd_drop_o",    "stat_ecn_mark_o",
    "stat_xoff_o", "stat_xon_o",        "stat_wd_trip_o",    "stat_wd_restore_o",
    "stat_rx_malformed_o"};
/* SPEC §13: per-port widths of the stat outputs (16 = one bit per class). */
static const int STAT_WIDTHS[LFC_FLAT_STATS] = {1, 3, 16, 1, 16, 16, 16, 16, 1};

static const char *const EVENT_NAMES[LFC_EV_KINDS] = {
    "drop", "ecn_mark", "xoff", "xon", "wd_trip", "wd_restore", "rx_malformed"};

int lfc_flat_field_count(void) { return LFC_FLAT_FIELDS; }

const char *lfc_flat_field_name(int field) {
  return field >= 0 && field < LFC_FLAT_FIELDS ? FIELD_NAMES[field] : "";
}

int lfc_flat_field_width(int field) {
  return field >= 0 && field < LFC_FLAT_FIELDS ? FIELD_WIDTHS[field] : -1;
}

int lfc_flat_field_find(const char *name) {
  for (int i = 0; name && i < LFC_FLAT_FIELDS; i++)
    if (strcmp(name, FIELD_NAMES[i]) == 0) return i;
  return -1;
}

int lfc_flat_stat_count(void) { return LFC_FLAT_STATS; }

const char *lfc_flat_stat_name(int stat) {
  return stat >= 0 && stat < LFC_FLAT_STATS ? STAT_NAMES[stat] : "";
}

int lfc_flat_stat_width(int stat) {
  return stat >= 0 && stat < LFC_FLAT_STATS ? STAT_WIDTHS[stat] : -1;
}

int lfc_flat_reg_count(void) { return (int)lfc_reg_count(); }

static const lfc_reg_info_t *reg_info(int reg) {
  return reg >= 0 && (size_t)reg < lfc_reg_count() ? lfc_reg_info((size_t)reg) : NULL;
}

const char *lfc_flat_reg_name(int reg) {
  const lfc_reg_info_t *ri = reg_info(reg);
  return ri ? ri->name : "";
}

int lfc_flat_reg_width(int reg) {
  const lfc_reg_info_t *ri = reg_info(reg);
  return ri ? ri->width : -1;
}

int lfc_flat_reg_scope(int reg) {
  const lfc_reg_info_t *ri = reg_info(reg);
  return ri ? ri->scope : -1;
}

int lfc_flat_reg_mode(int reg) {
  const lfc_reg_info_t *ri = reg_info(reg);
  return ri ? ri->mode : -1;
}

int lfc_flat_reg_find(const char *name) { return name ? lfc_reg_find(name) : -1; }

const char *lfc_flat_cause_name(int cause) {
  return cause >= 0 && cause < LFC_DROP_CAUSES ? lfc_drop_cause_name((lfc_drop_cause_t)cause)
                                               : "";
}

const char *lfc_flat_event_kind_name(int kind) {
  return kind >= 0 && kind < LFC_EV_KINDS ? EVENT_NAMES[kind] : "";
}

/* ---- errors ---- */

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int fail(const lfc_flat_t *hc, const char *fmt, ...) {
  /* The handle's error text is the one thing a const accessor may write: a failed read still
     says why. */
  lfc_flat_t *h = (lfc_flat_t *)hc;
  if (h) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->err, sizeof h->err, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Whether h holds a model; if not, the reason is in h's error (unless h is NULL). */
static bool has_model(const lfc_flat_t *h) {
  if (h == NULL) return false;
  if (h->sw != NULL) return true;
  /* Keep the creation error: it is the one that explains this failure. */
  if (h->err[0] == '\0') fail(h, "no model: lfc_flat_create failed");
  return false;
}

static int check_port(const lfc_flat_t *h, int port) {
  if (!has_model(h)) return -1;
  if (port < 0 || (uint32_t)port >= h->ports)
    return fail(h, "port %d does not exist: ports are 0..%u", port, h->ports - 1u);
  return 0;
}

const char *lfc_flat_error(const lfc_flat_t *h) {
  return h ? h->err : "no model (NULL handle; out of memory?)";
}

int lfc_flat_ok(const lfc_flat_t *h) { return h != NULL && h->sw != NULL; }

/* ---- configuration text ---- */

typedef struct {
  char *section, *key, *value;
  unsigned item; /* 1-based position in the text, for messages */
} item_t;

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\r') s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
  return s;
}

/* Split buf (modified in place) into items; returns how many, or -1 with the error in h. */
static int split_items(lfc_flat_t *h, char *buf, item_t *items, size_t cap) {
  int n = 0;
  unsigned pos = 0;
  char *p = buf;
  while (p) {
    char *end = strpbrk(p, "\n;");
    if (end) *end = '\0';
    char *it = trim(p);
    p = end ? end + 1 : NULL;
    pos++;
    if (*it == '\0' || *it == '#') continue;
    char *eq = strchr(it, '=');
    char *dot = strchr(it, '.');
    if (eq == NULL || dot == NULL || dot > eq)
      return fail(h, "config item %u '%s': expected section.key=value (sections switch, ib, pfc)",
                  pos, it);
    *eq = '\0';
    *dot = '\0';
    if ((size_t)n == cap) return fail(h, "config item %u: too many items", pos);
    items[n] = (item_t){trim(it), trim(dot + 1), trim(eq + 1), pos};
    for (int j = 0; j < n; j++)
      if (!strcmp(items[j].section, items[n].section) && !strcmp(items[j].key, items[n].key))
        return fail(h, "config item %u: %s.%s given twice (first as item %u)", pos,
                    items[n].section, items[n].key, items[j].item);
    n++;
  }
  return n;
}

static int is_key(const item_t *it, const char *section, const char *key) {
  return !strcmp(it->section, section) && !strcmp(it->key, key);
}

/* The first three parameters decide the defaults of all others (lfc_switch_cfg_default). */
static int is_base_key(const item_t *it) {
  return is_key(it, "switch", "mode") || is_key(it, "switch", "ports") ||
         is_key(it, "switch", "classes");
}

static int set_item(lfc_flat_t *h, lfc_switch_cfg_t *cfg, const item_t *it) {
  char e[FLAT_ERR_LEN];
  int rc = lfc_switch_cfg_set(cfg, it->section, it->key, it->value, e, sizeof e);
  if (rc == 0) return 0;
  if (rc > 0)
    return fail(h, "config item %u: unknown key %s.%s: %s", it->item, it->section, it->key, e);
  return fail(h, "config item %u: %s.%s = '%s': %s", it->item, it->section, it->key, it->value,
              e);
}

static int parse_config(lfc_flat_t *h, const char *text) {
  size_t len = strlen(text);
  if (len > FLAT_CFG_MAX) return fail(h, "config text longer than %u characters", FLAT_CFG_MAX);
  /* Every item needs at least "a.b=" (4 characters) and a separator. */
  size_t cap = len / 5u + 1u;
  char *buf = lfc_malloc(len + 1u);
  item_t *items = lfc_calloc(cap, sizeof *items);
  int rc = -1;
  if (buf == NULL || items == NULL) {
    fail(h, "out of memory");
    goto out;
  }
  memcpy(buf, text, len + 1u);
  int n = split_items(h, buf, items, cap);
  if (n < 0) goto out;

  /* Pass 1: mode, ports, classes, each checked by lfc_switch_cfg_set on a scratch cfg. */
  lfc_switch_cfg_t base = {.ports = LFC_P_PORTS_DEFAULT, /* SPEC §3.1, tables/params.toml */
                           .classes = LFC_P_CLASSES_DEFAULT};
  int have_mode = 0;
  for (int i = 0; i < n; i++) {
    if (!is_base_key(&items[i])) continue;
    if (set_item(h, &base, &items[i])) goto out;
    have_mode |= is_key(&items[i], "switch", "mode");
  }
  if (!have_mode) {
    fail(h, "config: switch.mode is missing (allowed: switch.mode=ib, switch.mode=pfc)");
    goto out;
  }
  lfc_switch_cfg_default(&h->cfg, base.mode, base.ports, base.classes);

  /* Pass 2: everything else, on top of the defaults. */
  for (int i = 0; i < n; i++)
    if (!is_base_key(&items[i]) && set_item(h, &h->cfg, &items[i])) goto out;
  char e[FLAT_ERR_LEN];
  if (lfc_switch_cfg_check(&h->cfg, e, sizeof e)) {
    fail(h, "config: %s", e);
    goto out;
  }
  rc = 0;
out:
  free(buf);
  free(items);
  return rc;
}

/* ---- life cycle ---- */

static void clear_outputs(lfc_flat_t *h) {
  memset(h->out, 0, sizeof h->out);
  memset(h->stat, 0, sizeof h->stat);
  h->ev = NULL;
  h->nev = 0;
}

lfc_flat_t *lfc_flat_create(const char *config) {
  lfc_flat_t *h = lfc_calloc(1, sizeof *h);
  if (h == NULL) return NULL;
  h->rx_rem_reg = lfc_reg_find("rx_rem");
  if (config == NULL) {
    fail(h, "config: no text (NULL)");
    return h;
  }
  if (parse_config(h, config)) return h;
  char e[FLAT_ERR_LEN];
  h->sw = lfc_switch_create(&h->cfg, e, sizeof e);
  if (h->sw == NULL) {
    fail(h, "lfc_switch_create: %s", e);
    return h;
  }
  h->ports = h->cfg.ports;
  return h;
}

void lfc_flat_destroy(lfc_flat_t *h) {
  if (h == NULL) return;
  lfc_switch_destroy(h->sw);
  free(h);
}

int lfc_flat_reset(lfc_flat_t *h) {
  if (!has_model(h)) return -1;
  lfc_switch_reset(h->sw);
  memset(h->in, 0, sizeof h->in);
  clear_outputs(h);
  return 0;
}

int64_t lfc_flat_param(const lfc_flat_t *h, const char *name, int index) {
  if (!has_model(h)) return -1;
  if (name == NULL) return fail(h, "param: no name (NULL)");
  /* The key table of lfc_switch_cfg_set (tables/params.toml) says where each value is. */
  int64_t v;
  uint32_t n = 0;
  int rc = lfc_switch_cfg_get(&h->cfg, name, index, &v, &n);
  if (rc == 0) return v;
  if (rc == -2)
    return fail(h, "param %s[%d]: index out of range 0..%u", name, index, n - 1u);
  if (rc == -3) return fail(h, "param %s: a table of vl:weight entries, not one value", name);
  return fail(h, "param %s: unknown (see lfc/flat.h for the names)", name);
}

/* ---- one cycle ---- */

static uint32_t word_get(const lfc_word_t *w, int field) {
  switch (field) {
    case LFC_FLAT_KIND: return w->kind;
    case LFC_FLAT_SOP: return w->sop;
    case LFC_FLAT_EOP: return w->eop;
    case LFC_FLAT_CLS: return w->cls;
    case LFC_FLAT_NBLK: return w->nblk;
    case LFC_FLAT_DST: return w->dst;
    case LFC_FLAT_TAG: return w->tag;
    case LFC_FLAT_ECN: return w->ecn;
    case LFC_FLAT_FC_OP: return w->fc_op;
    case LFC_FLAT_FC_VL: return w->fc_vl;
    case LFC_FLAT_FC_FCTBS: return w->fc_fctbs;
    case LFC_FLAT_FC_FCCL: return w->fc_fccl;
    case LFC_FLAT_PFC_EN: return w->pfc_en;
    case LFC_FLAT_PAD: return w->pad;
    case LFC_FLAT_MRG: return w->mrg;
    default: return w->pfc_time[field - LFC_FLAT_PFC_TIME0];
  }
}

/* v fits the field (checked by the caller). */
static void word_set(lfc_word_t *w, int field, uint32_t v) {
  switch (field) {
    case LFC_FLAT_KIND: w->kind = (uint8_t)v; break;
    case LFC_FLAT_SOP: w->sop = (uint8_t)v; break;
    case LFC_FLAT_EOP: w->eop = (uint8_t)v; break;
    case LFC_FLAT_CLS: w->cls = (uint8_t)v; break;
    case LFC_FLAT_NBLK: w->nblk = (uint8_t)v; break;
    case LFC_FLAT_DST: w->dst = (uint16_t)v; break;
    case LFC_FLAT_TAG: w->tag = v; break;
    case LFC_FLAT_ECN: w->ecn = (uint8_t)v; break;
    case LFC_FLAT_FC_OP: w->fc_op = (uint8_t)v; break;
    case LFC_FLAT_FC_VL: w->fc_vl = (uint8_t)v; break;
    case LFC_FLAT_FC_FCTBS: w->fc_fctbs = (uint16_t)v; break;
    case LFC_FLAT_FC_FCCL: w->fc_fccl = (uint16_t)v; break;
    case LFC_FLAT_PFC_EN: w->pfc_en = (uint8_t)v; break;
    case LFC_FLAT_PAD: w->pad = (uint8_t)v; break;
    case LFC_FLAT_MRG: w->mrg = (uint8_t)v; break;
    default: w->pfc_time[field - LFC_FLAT_PFC_TIME0] = (uint16_t)v; break;
  }
}

static int check_field(const lfc_flat_t *h, int field) {
  if (field < 0 || field >= LFC_FLAT_FIELDS)
    return fail(h, "field %d does not exist: fields are 0..%d", field, LFC_FLAT_FIELDS - 1);
  return 0;
}

int lfc_flat_set_in(lfc_flat_t *h, int port, int field, uint32_t value) {
  if (check_port(h, port) || check_field(h, field)) return -1;
  int w = lfc_flat_field_width(field);
  if (w < 32 && (value >> w) != 0)
    return fail(h, "port %d field %s = %u does not fit its %d bits (0..%u)", port,
                FIELD_NAMES[field], value, w, (1u << w) - 1u);
  word_set(&h->in[port], field, value);
  return 0;
}

int lfc_flat_clear_in(lfc_flat_t *h) {
  if (!has_model(h)) return -1;
  memset(h->in, 0, sizeof h->in);
  return 0;
}

int64_t lfc_flat_in(const lfc_flat_t *h, int port, int field) {
  if (check_port(h, port) || check_field(h, field)) return -1;
  return word_get(&h->in[port], field);
}

/*
 * The RTL's stat_* of the cycle from the model's events (SPEC §13). A WATCHDOG drop is an
 * admission drop (stat_drop_o) when it names the packet starting on that port in this cycle:
 * a DATA sop word while no packet was open (rx_rem = 0 in S(t), SPEC §7.2) with the same tag;
 * otherwise it is a discard from egress queue (port, cls) (stat_wd_drop_o, SPEC §6.8).
 */
static void map_stats(lfc_flat_t *h, const uint8_t *rx_idle) {
  memset(h->stat, 0, sizeof h->stat);
  for (size_t i = 0; i < h->nev; i++) {
    const lfc_event_t *e = &h->ev[i];
    uint32_t p = e->port;
    uint32_t bit = 1u << (e->cls & (LFC_MAX_CLASSES - 1u));
    if (p >= h->ports) continue;
    switch (e->kind) {
      case LFC_EV_DROP: {
        const lfc_word_t *w = &h->in[p];
        int admission = w->kind == LFC_DATA && w->sop && rx_idle[p] && w->tag == e->tag;
        if (e->cause == LFC_DROP_WATCHDOG && !admission) {
          h->stat[LFC_FLAT_STAT_WD_DROP][p] |= bit;
        } else {
          h->stat[LFC_FLAT_STAT_DROP][p] = 1;
          h->stat[LFC_FLAT_STAT_DROP_CAUSE][p] = e->cause;
        }
        break;
      }
      case LFC_EV_ECN_MARK: h->stat[LFC_FLAT_STAT_ECN_MARK][p] = 1; break;
      case LFC_EV_XOFF: h->stat[LFC_FLAT_STAT_XOFF][p] |= bit; break;
      case LFC_EV_XON: h->stat[LFC_FLAT_STAT_XON][p] |= bit; break;
      case LFC_EV_WD_TRIP: h->stat[LFC_FLAT_STAT_WD_TRIP][p] |= bit; break;
      case LFC_EV_WD_RESTORE: h->stat[LFC_FLAT_STAT_WD_RESTORE][p] |= bit; break;
      case LFC_EV_RX_MALFORMED: h->stat[LFC_FLAT_STAT_RX_MALFORMED][p] = 1; break;
      default: break;
    }
  }
}

int64_t lfc_flat_step(lfc_flat_t *h) {
  if (!has_model(h)) return -1;
  uint8_t rx_idle[LFC_MAX_PORTS];
  for (uint32_t p = 0; p < h->ports; p++)
    rx_idle[p] = lfc_switch_reg(h->sw, (size_t)h->rx_rem_reg, p, 0) == 0;
  lfc_switch_step(h->sw, h->in, h->out);
  h->nev = lfc_switch_events(h->sw, &h->ev);
  map_stats(h, rx_idle);
  return (int64_t)h->nev;
}

int64_t lfc_flat_cycle(const lfc_flat_t *h) {
  if (!has_model(h)) return -1;
  return (int64_t)lfc_switch_cycle(h->sw);
}

int64_t lfc_flat_out(const lfc_flat_t *h, int port, int field) {
  if (check_port(h, port) || check_field(h, field)) return -1;
  return word_get(&h->out[port], field);
}

int64_t lfc_flat_stat(const lfc_flat_t *h, int stat, int port) {
  if (check_port(h, port)) return -1;
  if (stat < 0 || stat >= LFC_FLAT_STATS)
    return fail(h, "stat %d does not exist: stats are 0..%d", stat, LFC_FLAT_STATS - 1);
  return h->stat[stat][port];
}

int64_t lfc_flat_event_count(const lfc_flat_t *h) {
  if (!has_model(h)) return -1;
  return (int64_t)h->nev;
}

int64_t lfc_flat_event(const lfc_flat_t *h, int i, int item) {
  if (!has_model(h)) return -1;
  if (i < 0 || (size_t)i >= h->nev)
    return fail(h, "event %d does not exist: the last step had %zu", i, h->nev);
  const lfc_event_t *e = &h->ev[i];
  switch (item) {
    case LFC_FLAT_EV_KIND: return e->kind;
    case LFC_FLAT_EV_PORT: return e->port;
    case LFC_FLAT_EV_CLS: return e->cls;
    case LFC_FLAT_EV_CAUSE: return e->cause;
    case LFC_FLAT_EV_TAG: return e->tag;
    default:
      return fail(h, "event item %d does not exist: items are 0..%d", item,
                  LFC_FLAT_EV_ITEMS - 1);
  }
}

int64_t lfc_flat_reg(const lfc_flat_t *h, int reg, int port, int cls) {
  if (!has_model(h)) return -1;
  const lfc_reg_info_t *ri = reg_info(reg);
  if (ri == NULL)
    return fail(h, "register %d does not exist: registers are 0..%d", reg,
                lfc_flat_reg_count() - 1);
  if (ri->scope != LFC_SCOPE_SWITCH && check_port(h, port)) return -1;
  if (ri->scope == LFC_SCOPE_PORT_CLASS && (cls < 0 || (uint32_t)cls >= LFC_MAX_CLASSES))
    return fail(h, "register %s: class %d out of range 0..%u", ri->name, cls,
                LFC_MAX_CLASSES - 1u);
  unsigned w = ri->width < DBG_VAL_BITS ? ri->width : DBG_VAL_BITS;
  uint64_t mask = (1ull << w) - 1u;
  return (int64_t)(lfc_switch_reg(h->sw, (size_t)reg, (uint32_t)port, (uint32_t)cls) & mask);
}

int64_t lfc_flat_reg_by_name(const lfc_flat_t *h, const char *name, int port, int cls) {
  if (!has_model(h)) return -1;
  int r = lfc_flat_reg_find(name);
  if (r < 0) return fail(h, "register '%s' does not exist (SPEC §13.1)", name ? name : "(NULL)");
  return lfc_flat_reg(h, r, port, cls);
}

/* ---- text ---- */

const char *lfc_flat_format_in(lfc_flat_t *h, int port) {
  if (check_port(h, port)) return "";
  return lfc_word_format(&h->in[port], h->text, sizeof h->text);
}

const char *lfc_flat_format_out(lfc_flat_t *h, int port) {
  if (check_port(h, port)) return "";
  return lfc_word_format(&h->out[port], h->text, sizeof h->text);
}

const char *lfc_flat_format_events(lfc_flat_t *h) {
  if (!has_model(h)) return "";
  size_t n = 0, cap = sizeof h->text;
  h->text[0] = '\0';
  if (h->nev == 0) snprintf(h->text, cap, "none");
  for (size_t i = 0; i < h->nev && n < cap; i++) {
    const lfc_event_t *e = &h->ev[i];
    int k = snprintf(h->text + n, cap - n, "%s%s(port=%u cls=%u", i ? " " : "",
                     lfc_flat_event_kind_name(e->kind), e->port, e->cls);
    if (k > 0) n += (size_t)k;
    if (e->kind == LFC_EV_DROP && n < cap) {
      k = snprintf(h->text + n, cap - n, " cause=%s tag=0x%08x", lfc_flat_cause_name(e->cause),
                   e->tag);
      if (k > 0) n += (size_t)k;
    }
    if (n < cap) {
      k = snprintf(h->text + n, cap - n, ")");
      if (k > 0) n += (size_t)k;
    }
  }
  return h->text;
}
