/*
 * scenario.c - INI scenario -> lfc_scenario_t, with libinih (docs/sim.md lists every key).
 *
 * libinih calls handler() per line of a key. Our reader hands it the text line by line and
 * counts lines, so every message names file:line. The handler only collects the entries (a key
 * given twice is refused, continuation lines are joined on); they are then applied in the
 * order of the text. Keys of the simulator are parsed at once; switch parameters
 * ([switch], [ib], [pfc] and the per-role [switch.ROLE], [ib.ROLE], [pfc.ROLE]) are kept as
 * entries and applied by lfc_scenario_finish through lfc_switch_cfg_set, once the topology says
 * how many ports each role has (SPEC §3: ports first, then the defaults, then the rest).
 */
#define _POSIX_C_SOURCE 200809L
#include "scenario.h"

#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "calc.h"
#include "lfc/link.h"
#include "topology.h"

#define SC_MAX_HOSTS 65536u
#define SC_MAX_LINE_ECHO 60 /* characters of a value echoed in a message */
#define SC_DEFAULT_SEED 1u
#define SC_DEFAULT_SPEED_GBPS 100.0
#define SC_DEFAULT_CABLE_M 2.0
#define SC_NS_PER_M 5.0 /* propagation in fibre and copper, ~0.66 c */
#define SC_BITS_PER_CYCLE 512.0 /* SPEC §1.1 */
#define SC_DEFAULT_PACKET_BYTES 4096u
#define SC_DEFAULT_ECMP 16u
#define SC_AE_SPEEDUP 8.0 /* an aggregation engine takes 8 ports' worth of data at once */
/* A host applies a pause up to this late beyond response_ns (SPEC §12.2): two cycles at 100 Gb/s,
 * the order of a MAC-to-scheduler clock crossing [reading: 802.3 Annex 31B bounds only the
 * maximum reaction]. Without any, senders that start in one cycle lock their phases under PFC
 * (docs/validation, the incast section). */
#define SC_DEFAULT_RESPONSE_JITTER_NS 10.24
#define SC_FCP_HOLDOFF_MTUS 2u /* fcp_holdoff default: two MTU packets' time (docs/sim.md) */
#define SC_DEFAULT_CHUNK_BYTES 65536u /* in-network aggregation pipelines 64 KB chunks */
#define SC_MAX_TOPO_SWITCHES 4096u
#define SC_MAX_U16 0xFFFFu          /* 16-bit switch parameters (SPEC §3) */
#define SC_MAX_COUNTER20 0xFFFFFu   /* 20-bit ones: xoff_th, shared_blocks */
#define SC_HOST_XON_GAP 8u          /* a host's default rx_xon: this far below rx_xoff (the
                                       switch's xon_offset default, SPEC §3.2) */

/* A `key = value` kept as text: the switch entries of a scenario (applied by
   lfc_scenario_finish), and while a file is read every key of it (pending, below). */
struct sc_entry {
  char *section, *key, *value;
  char *file; /* NULL while pending */
  int line;   /* of `key = value`, which every message about the key names */
};

typedef struct {
  const char *p, *end;
  int next_line;
} reader_t;

/* A pending entry is one `key = value` of the text, its continuation lines joined on. The
   whole text is read into these before any is applied, so that a key given twice is refused
   with both lines and a value may go on over indented lines (libinih calls the handler once per
   line). */

typedef struct {
  lfc_scenario_t *sc;
  const char *file;
  int line; /* reading: of the line libinih parses; applying: of the entry applied */
  char *err;
  size_t errlen;
  int failed;
  int err_line;     /* the line of the first error while reading (0: none) */
  int continuation; /* the line libinih parses continues the previous key's value */
  int after_key;    /* a key was given since the last [section] (libinih's prev_name) */
  reader_t rd;
  struct sc_entry *pend; /* in the order of the text */
  size_t npend, cappend;
} ctx_t;

/* ---- Names ---- */

static const char *const TOPO_NAMES[TOPO_KINDS] = {"line",       "ring",     "star",
                                                    "leaf_spine", "fat_tree", "rail"};
static const char *const PAT_NAMES[PAT_KINDS] = {
    "flow",           "uniform",        "permutation", "incast", "all_to_all",
    "ring_allreduce", "tree_allreduce", "sharp",       "ddp",    "poisson"};
/* pattern ddp's collectives, by their own pattern: ring_allreduce, tree_allreduce, sharp */
#define COLL_KINDS 3
static const char *const COLL_NAMES[COLL_KINDS] = {"ring", "tree", "sharp"};
static const sc_pattern_t COLL_PATTERNS[COLL_KINDS] = {PAT_RING_ALLREDUCE, PAT_TREE_ALLREDUCE,
                                                        PAT_SHARP};
static const char *const ROUTE_NAMES[ROUTE_KINDS] = {"shortest", "updown"};

const char *sc_topo_name(sc_topo_kind_t t) { return t < TOPO_KINDS ? TOPO_NAMES[t] : "?"; }
const char *sc_pattern_name(sc_pattern_t p) { return p < PAT_KINDS ? PAT_NAMES[p] : "?"; }

const char *sc_collective_name(sc_pattern_t p) {
  for (int i = 0; i < COLL_KINDS; i++)
    if (COLL_PATTERNS[i] == p) return COLL_NAMES[i];
  return "?";
}

double sc_group_compute_us(const sc_group_t *g) {
  return g->pattern == PAT_DDP ? g->forward_us + g->backward_us : g->compute_us;
}

uint64_t sc_us_to_cycles(const lfc_scenario_t *sc, double us) {
  return (uint64_t)llround(us * 1000.0 / sc->cycle_ns);
}

uint64_t sc_ns_to_cycles(const lfc_scenario_t *sc, double ns) {
  double c = ceil(ns / sc->cycle_ns - 1e-9);
  return c < 1.0 ? 1u : (uint64_t)c;
}

/* ---- Errors ---- */

/* The one style of every message about a key: "file:line: [section] key = value: <fmt>". An
   override has no line (line 0, file "--set"): "--set: [section] key = value: ...". A key that
   was not given (value NULL) is named without a value: "file:line: [section] key: ...". A
   warning has "warning: " after the place (tag), like a compiler's. */
static void vmsg_tag(char *err, size_t errlen, const char *file, uint32_t line, const char *tag,
                     const char *section, const char *key, const char *value, const char *fmt,
                     va_list ap) {
  if (err == NULL || errlen == 0) return;
  char where[300];
  if (line > 0)
    snprintf(where, sizeof where, "%s:%u: %s[%s]", file, line, tag, section);
  else
    snprintf(where, sizeof where, "%s: %s[%s]", file, tag, section);
  int n = value != NULL
              ? snprintf(err, errlen, "%s %s = %.*s: ", where, key, SC_MAX_LINE_ECHO, value)
              : snprintf(err, errlen, "%s %s: ", where, key);
  if (n < 0 || (size_t)n >= errlen) return;
  vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
}

static void vmsg(char *err, size_t errlen, const char *file, uint32_t line, const char *section,
                 const char *key, const char *value, const char *fmt, va_list ap) {
  vmsg_tag(err, errlen, file, line, "", section, key, value, fmt, ap);
}

static int failf(ctx_t *c, const char *section, const char *key, const char *value,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* vmsg at the line being applied; keeps the first error only. Returns 0 (libinih). */
static int failf(ctx_t *c, const char *section, const char *key, const char *value,
                 const char *fmt, ...) {
  if (c->failed) return 0;
  c->failed = 1;
  c->err_line = c->line;
  va_list ap;
  va_start(ap, fmt);
  vmsg(c->err, c->errlen, c->file, c->line > 0 ? (uint32_t)c->line : 0u, section, key, value,
       fmt, ap);
  va_end(ap);
  return 0;
}

/* The line to keep for a key applied now: its line in the file, or SC_LINE_SET (--set). */
static uint32_t here(const ctx_t *c) { return c->line > 0 ? (uint32_t)c->line : SC_LINE_SET; }

void sc_key_error(const lfc_scenario_t *sc, uint32_t line, const char *section, const char *key,
                  const char *value, char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg(err, errlen, line == SC_LINE_SET ? "--set" : sc->file, line == SC_LINE_SET ? 0u : line,
       section, key, value, fmt, ap);
  va_end(ap);
}

void sc_key_warning(const lfc_scenario_t *sc, uint32_t line, const char *section,
                    const char *key, const char *value, char *msg, size_t len, const char *fmt,
                    ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg_tag(msg, len, line == SC_LINE_SET ? "--set" : sc->file, line == SC_LINE_SET ? 0u : line,
           "warning: ", section, key, value, fmt, ap);
  va_end(ap);
}

/* ---- Value parsers: 0 ok, -1 bad (the caller reports with what is allowed) ---- */

/* lfc_parse_int, the model's reader: decimal (never octal), 0x hex, 0b binary, as tb/configs
   and the [switch]/[ib]/[pfc] keys here. Every maximum of a scenario key is below 2^63. */
static int parse_u64(const char *v, uint64_t min, uint64_t max, uint64_t *out) {
  int64_t x;
  if (lfc_parse_int(v, (int64_t)min, (int64_t)max, &x) != 0) return -1;
  *out = (uint64_t)x;
  return 0;
}

static int parse_u32(const char *v, uint32_t min, uint32_t max, uint32_t *out) {
  uint64_t x;
  if (parse_u64(v, min, max, &x) != 0) return -1;
  *out = (uint32_t)x;
  return 0;
}

static int parse_f(const char *v, double min, double max, double *out) {
  char *end;
  if (*v == '\0') return -1;
  double x = strtod(v, &end);
  while (*end == ' ' || *end == '\t') end++;
  if (*end != '\0' || !isfinite(x) || x < min || x > max) return -1;
  *out = x;
  return 0;
}

/* Pattern poisson's `sizes`: "BYTES:WEIGHT, ..." (1..SC_MAX_SIZES entries, BYTES 1..2^40 as
   lfc_parse_int reads it, WEIGHT a number > 0; the weights need not sum to 1). */
static int parse_sizes(const char *v, sc_group_t *g) {
  uint32_t n = 0;
  const char *p = v;
  while (*p != '\0') {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    char item[64], *colon;
    if (n == SC_MAX_SIZES || len >= sizeof item) return -1;
    memcpy(item, p, len);
    item[len] = '\0';
    colon = strchr(item, ':');
    if (colon == NULL) return -1;
    *colon = '\0';
    char *b = item, *w = colon + 1;
    while (*b == ' ' || *b == '\t') b++;
    for (char *e = colon; e > b && (e[-1] == ' ' || e[-1] == '\t');) *--e = '\0';
    while (*w == ' ' || *w == '\t') w++;
    if (parse_u64(b, 1, 1ull << 40, &g->size_bytes[n]) != 0 ||
        parse_f(w, 1e-9, 1e9, &g->size_weight[n]) != 0)
      return -1;
    n++;
    if (comma == NULL) break;
    p = comma + 1;
  }
  if (n == 0) return -1;
  g->nsizes = n;
  return 0;
}

double sc_group_mean_size(const sc_group_t *g) {
  double sw = 0, s = 0;
  for (uint32_t i = 0; i < g->nsizes; i++) {
    sw += g->size_weight[i];
    s += g->size_weight[i] * (double)g->size_bytes[i];
  }
  return sw > 0 ? s / sw : 0;
}

static int parse_bool(const char *v, int *out) {
  if (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on"))
    *out = 1;
  else if (!strcmp(v, "0") || !strcasecmp(v, "no") || !strcasecmp(v, "false") ||
           !strcasecmp(v, "off"))
    *out = 0;
  else
    return -1;
  return 0;
}

static int parse_enum(const char *v, const char *const *names, int n, int *out) {
  for (int i = 0; i < n; i++)
    if (!strcmp(v, names[i])) {
      *out = i;
      return 0;
    }
  return -1;
}

static void enum_list(const char *const *names, int n, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used < len; i++) {
    int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
    if (w < 0) break;
    used += (size_t)w;
  }
}

/* "0-7, 9, 12-13" -> a new host list. */
static int parse_hosts(const char *v, uint32_t **out, uint32_t *n) {
  uint32_t cap = 16, cnt = 0;
  uint32_t *list = malloc(cap * sizeof *list);
  if (list == NULL) return -1;
  const char *p = v;
  for (;;) {
    while (*p == ' ' || *p == '\t') p++;
    char *end;
    if (*p < '0' || *p > '9') goto bad;
    unsigned long a = strtoul(p, &end, 10), b = a;
    p = end;
    if (*p == '-') {
      p++;
      if (*p < '0' || *p > '9') goto bad;
      b = strtoul(p, &end, 10);
      p = end;
    }
    if (a > b || b >= SC_MAX_HOSTS) goto bad;
    for (unsigned long h = a; h <= b; h++) {
      if (cnt == SC_MAX_HOSTS) goto bad;
      if (cnt == cap) {
        cap *= 2;
        uint32_t *nl = realloc(list, cap * sizeof *list);
        if (nl == NULL) goto bad;
        list = nl;
      }
      list[cnt++] = (uint32_t)h;
    }
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '\0') break;
    if (*p != ',') goto bad;
    p++;
  }
  free(*out);
  *out = list;
  *n = cnt;
  return 0;
bad:
  free(list);
  return -1;
}

/* ---- Sections ---- */

/* The group of a [traffic] or [traffic.NAME] section ([traffic] is the group "main"), made on
   its first key; NULL if SC_MAX_GROUPS are made. The caller has checked the name's length. */
static sc_group_t *group_for(lfc_scenario_t *sc, const char *name) {
  for (uint32_t i = 0; i < sc->ngroups; i++)
    if (!strcmp(sc->groups[i].name, name)) return &sc->groups[i];
  if (sc->ngroups == SC_MAX_GROUPS) return NULL;
  sc_group_t *g = &sc->groups[sc->ngroups++];
  memset(g, 0, sizeof *g);
  snprintf(g->name, sizeof g->name, "%s", name);
  g->pattern = PAT_FLOW;
  g->packet_bytes = SC_DEFAULT_PACKET_BYTES;
  g->load_ppm = 1000000u;
  g->chunk_bytes = SC_DEFAULT_CHUNK_BYTES;
  g->collective = PAT_RING_ALLREDUCE;
  g->steps = 1;
  g->buckets = 1;
  g->overlap = 1;
  return g;
}

#define BAD(...) return failf(c, section, key, value, __VA_ARGS__)
#define U32(field, lo, hi)                                                              \
  do {                                                                                  \
    if (parse_u32(value, lo, hi, &(field)) != 0) BAD("allowed: an integer %u..%u", (unsigned)(lo), \
                                                     (unsigned)(hi));                   \
    return 1;                                                                           \
  } while (0)
#define F64(field, lo, hi)                                                           \
  do {                                                                               \
    if (parse_f(value, lo, hi, &(field)) != 0) BAD("allowed: a number %g..%g", (double)(lo), \
                                                   (double)(hi));                    \
    return 1;                                                                        \
  } while (0)
#define BOOL(field)                                                          \
  do {                                                                       \
    if (parse_bool(value, &(field)) != 0) BAD("allowed: 0, 1, yes, no, true, false"); \
    return 1;                                                                \
  } while (0)
#define ENUM(field, names, n, type)                          \
  do {                                                       \
    int e_;                                                  \
    if (parse_enum(value, names, n, &e_) != 0) {             \
      char l_[256];                                          \
      enum_list(names, n, l_, sizeof l_);                    \
      BAD("allowed: %s", l_);                                \
    }                                                        \
    field = (type)e_;                                        \
    return 1;                                                \
  } while (0)
#define UNKNOWN(keys) BAD("unknown key; allowed keys of this section: %s", keys)

static int sim_key(ctx_t *c, const char *section, const char *key, const char *value) {
  lfc_scenario_t *sc = c->sc;
  if (!strcmp(key, "duration_us")) F64(sc->duration_us, 0.001, 1e7);
  if (!strcmp(key, "seed")) {
    uint64_t s;
    if (parse_u64(value, 0, UINT32_MAX, &s) != 0) BAD("allowed: an integer 0..4294967295");
    sc->seed = s;
    return 1;
  }
  if (!strcmp(key, "step_all")) BOOL(sc->step_all);
  if (!strcmp(key, "sample_us")) F64(sc->sample_us, 0.001, 1e7);
  if (!strcmp(key, "deadlock_us")) F64(sc->deadlock_us, 0.001, 1e7);
  if (!strcmp(key, "stop_on_deadlock")) BOOL(sc->stop_on_deadlock);
  if (!strcmp(key, "threads")) U32(sc->threads, 1u, SC_MAX_THREADS);
  UNKNOWN("duration_us, seed, step_all, sample_us, deadlock_us, stop_on_deadlock, threads");
}

static int topology_key(ctx_t *c, const char *section, const char *key, const char *value) {
  lfc_scenario_t *sc = c->sc;
  if (!strcmp(key, "kind")) ENUM(sc->topo, TOPO_NAMES, TOPO_KINDS, sc_topo_kind_t);
  if (!strcmp(key, "switches")) U32(sc->switches, 1, SC_MAX_TOPO_SWITCHES);
  if (!strcmp(key, "hosts_per_switch")) U32(sc->hosts_per_switch, 0, LFC_MAX_PORTS);
  if (!strcmp(key, "leaves")) U32(sc->leaves, 1, LFC_MAX_PORTS);
  if (!strcmp(key, "spines")) U32(sc->spines, 1, LFC_MAX_PORTS);
  if (!strcmp(key, "hosts_per_leaf")) U32(sc->hosts_per_leaf, 1, LFC_MAX_PORTS);
  if (!strcmp(key, "spine_links")) U32(sc->spine_links, 1, LFC_MAX_PORTS);
  if (!strcmp(key, "oversubscription")) {
    double o;
    if (parse_f(value, 0.01, 64.0, &o) != 0 || sc->spines == 0)
      BAD("allowed: a ratio 0.01..64 of host ports to uplinks per leaf, after spines is set");
    sc->hosts_per_leaf = (uint32_t)lround(o * sc->spines * (sc->spine_links ? sc->spine_links : 1));
    if (sc->hosts_per_leaf < 1) sc->hosts_per_leaf = 1;
    return 1;
  }
  if (!strcmp(key, "k")) {
    if (parse_u32(value, 2, LFC_MAX_PORTS, &sc->k) != 0 || sc->k % 2u != 0)
      BAD("allowed: an even integer 2..%u", LFC_MAX_PORTS);
    return 1;
  }
  if (!strcmp(key, "rails")) U32(sc->rails, 1, LFC_MAX_PORTS);
  if (!strcmp(key, "servers")) U32(sc->servers, 1, LFC_MAX_PORTS);
  if (!strcmp(key, "failed_links")) {
    sc->nfailed = 0;
    sc->failed_line = here(c);
    const char *p = value;
    while (*p) {
      while (*p == ' ' || *p == ',') p++;
      if (!*p) break;
      if (sc->nfailed == SC_MAX_FAILED) BAD("allowed: at most %u links", SC_MAX_FAILED);
      sc_failed_t *f = &sc->failed[sc->nfailed];
      size_t la = strcspn(p, "-, ");
      if (la == 0 || la >= SC_NAME_LEN || p[la] != '-') BAD("allowed: NODE-NODE, ... (e.g. leaf0-spine1)");
      memcpy(f->a, p, la);
      f->a[la] = '\0';
      p += la + 1;
      size_t lb = strcspn(p, ", ");
      if (lb == 0 || lb >= SC_NAME_LEN) BAD("allowed: NODE-NODE, ... (e.g. leaf0-spine1)");
      memcpy(f->b, p, lb);
      f->b[lb] = '\0';
      p += lb;
      sc->nfailed++;
    }
    return 1;
  }
  UNKNOWN("kind, switches, hosts_per_switch, leaves, spines, hosts_per_leaf, spine_links, "
          "oversubscription, k, rails, servers, failed_links");
}

static int link_key(ctx_t *c, const char *section, const char *key, const char *value) {
  lfc_scenario_t *sc = c->sc;
  if (!strcmp(key, "speed_gbps")) F64(sc->speed_gbps, 1.0, 3200.0);
  if (!strcmp(key, "host_speed_gbps")) F64(sc->given.host_speed_gbps, 1.0, 3200.0);
  if (!strcmp(key, "ae_speed_gbps")) F64(sc->given.ae_speed_gbps, 1.0, 25600.0);
  if (!strcmp(key, "cable_m")) F64(sc->cable_m, 0.0, 10000.0);
  if (!strcmp(key, "host_cable_m")) F64(sc->given.host_cable_m, 0.0, 10000.0);
  UNKNOWN("speed_gbps, host_speed_gbps, ae_speed_gbps, cable_m, host_cable_m");
}

static int host_key(ctx_t *c, const char *section, const char *key, const char *value) {
  lfc_scenario_t *sc = c->sc;
  lfc_nic_cfg_t *n = &sc->nic;
  if (!strcmp(key, "rx_blocks")) {
    sc->rx_blocks_line = here(c);
    U32(n->rx_blocks, 0, 1u << 24);
  }
  if (!strcmp(key, "rx_xoff")) {
    sc->rx_xoff_line = here(c);
    U32(n->rx_xoff, 0, 1u << 24);
  }
  if (!strcmp(key, "rx_xon")) {
    sc->rx_xon_line = here(c);
    U32(n->rx_xon, 0, 1u << 24);
  }
  if (!strcmp(key, "tx_fifo_pkts")) U32(n->tx_fifo_pkts, 1, 65536);
  if (!strcmp(key, "response_ns")) F64(sc->response_ns, 0.0, 1e6);
  if (!strcmp(key, "response_jitter_ns")) F64(sc->response_jitter_ns, 0.0, 1e6);
  if (!strcmp(key, "drain_gbps")) F64(sc->drain_gbps, 0.0, 3200.0);
  UNKNOWN("rx_blocks, rx_xoff, rx_xon, tx_fifo_pkts, response_ns, response_jitter_ns, drain_gbps");
}

static int dcqcn_key(ctx_t *c, const char *section, const char *key, const char *value) {
  lfc_scenario_t *sc = c->sc;
  if (!strcmp(key, "g")) F64(sc->dcqcn_g, 0.0, 1.0);
  if (!strcmp(key, "rai_gbps")) F64(sc->dcqcn_rai_gbps, 0.0, 3200.0);
  if (!strcmp(key, "rhai_gbps")) F64(sc->dcqcn_rhai_gbps, 0.0, 3200.0);
  if (!strcmp(key, "timer_us")) F64(sc->dcqcn_timer_us, 0.01, 1e6);
  if (!strcmp(key, "alpha_us")) F64(sc->dcqcn_alpha_us, 0.01, 1e6);
  if (!strcmp(key, "byte_counter_kb")) U32(sc->dcqcn_byte_counter_kb, 0, 1u << 30);
  if (!strcmp(key, "f")) U32(sc->dcqcn_f, 0, 1000);
  if (!strcmp(key, "cnp_us")) F64(sc->dcqcn_cnp_us, 0.0, 1e6);
  if (!strcmp(key, "cnp_delay_us")) F64(sc->dcqcn_cnp_delay_us, 0.001, 1e4);
  if (!strcmp(key, "min_gbps")) F64(sc->dcqcn_min_gbps, 0.001, 3200.0);
  if (!strcmp(key, "decrease_us")) F64(sc->dcqcn_decrease_us, 0.01, 1e6);
  if (!strcmp(key, "clamp_target")) BOOL(sc->dcqcn_clamp_target);
  UNKNOWN("g, rai_gbps, rhai_gbps, timer_us, alpha_us, byte_counter_kb, f, cnp_us, "
          "cnp_delay_us, min_gbps, decrease_us, clamp_target");
}

static int classmap_key(ctx_t *c, const char *section, const char *key, const char *value) {
  lfc_scenario_t *sc = c->sc;
  const char *dash = strchr(key, '-');
  size_t la = dash ? (size_t)(dash - key) : 0;
  if (dash == NULL || la == 0 || la >= SC_NAME_LEN || strlen(dash + 1) == 0 ||
      strlen(dash + 1) >= SC_NAME_LEN)
    BAD("allowed keys: FROM-TO, two adjacent switches (e.g. sw3-sw0)");
  if (sc->nclassmaps == SC_MAX_CLASSMAPS) BAD("allowed: at most %u class maps", SC_MAX_CLASSMAPS);
  sc_classmap_t *m = &sc->classmaps[sc->nclassmaps];
  memset(m, 0, sizeof *m);
  memcpy(m->from, key, la);
  snprintf(m->to, sizeof m->to, "%s", dash + 1);
  m->line = (uint32_t)c->line;
  const char *p = value;
  for (;;) {
    while (*p == ' ' || *p == '\t') p++;
    char *end;
    if (*p < '0' || *p > '9' || m->n == LFC_IB_MAX_VLS) goto bad;
    unsigned long v = strtoul(p, &end, 10);
    if (v >= LFC_IB_MAX_VLS) goto bad;
    m->map[m->n++] = (uint8_t)v;
    p = end;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '\0') break;
    if (*p != ',') goto bad;
    p++;
  }
  sc->nclassmaps++;
  return 1;
bad:
  BAD("allowed: the new class of class 0, 1, ... in order, e.g. 1, 0 (each 0..%u)",
      LFC_IB_MAX_VLS - 1);
}

static int routing_key(ctx_t *c, const char *section, const char *key, const char *value) {
  lfc_scenario_t *sc = c->sc;
  if (!strcmp(key, "algorithm")) ENUM(sc->route, ROUTE_NAMES, ROUTE_KINDS, sc_route_kind_t);
  if (!strcmp(key, "ecmp")) U32(sc->ecmp_ways, 1, 256);
  if (!strcmp(key, "adaptive")) BOOL(sc->adaptive);
  if (!strcmp(key, "path")) {
    if (sc->npaths == SC_MAX_PATHS) BAD("allowed: at most %u paths", SC_MAX_PATHS);
    sc_path_t *pa = &sc->paths[sc->npaths];
    memset(pa, 0, sizeof *pa);
    pa->line = (uint32_t)c->line;
    const char *p = value;
    for (;;) {
      while (*p == ' ' || *p == '\t') p++;
      if (!*p) break;
      size_t l = strcspn(p, " \t");
      if (l >= SC_NAME_LEN || pa->n == SC_MAX_PATH_NODES)
        BAD("allowed: up to %u node names (host, switches, host), each shorter than %u",
            SC_MAX_PATH_NODES, SC_NAME_LEN);
      memcpy(pa->nodes[pa->n], p, l);
      pa->nodes[pa->n][l] = '\0';
      pa->n++;
      p += l;
    }
    if (pa->n < 3) BAD("allowed: hostA switch ... hostB (at least one switch)");
    sc->npaths++;
    return 1;
  }
  UNKNOWN("algorithm, ecmp, adaptive, path");
}

static int traffic_key(ctx_t *c, const char *section, const char *key, const char *value) {
  /* The name is kept in a fixed field: a longer one is refused rather than cut, so that two
     names that differ only after the limit never become one group. [traffic.main] would be
     the group of [traffic]. */
  const char *name = section[strlen("traffic")] == '.' ? section + strlen("traffic.") : "main";
  size_t nl = strlen(name);
  if (nl == 0 || nl >= SC_NAME_LEN || (section[strlen("traffic")] == '.' && !strcmp(name, "main")))
    BAD("the section name traffic.%.*s; allowed: [traffic] or [traffic.NAME] with a NAME of "
        "1..%u characters other than main", SC_MAX_LINE_ECHO, name, SC_NAME_LEN - 1u);
  sc_group_t *g = group_for(c->sc, name);
  if (g == NULL) BAD("allowed: at most %u [traffic.NAME] sections", SC_MAX_GROUPS);
  if (g->line[GK_SECTION] == 0) g->line[GK_SECTION] = here(c);
  static const struct {
    const char *key;
    sc_gkey_t k;
  } kept[] = {{"pattern", GK_PATTERN}, {"src", GK_SRC},         {"hosts", GK_SRC},
              {"dst", GK_DST},         {"class", GK_CLASS},     {"bytes", GK_BYTES},
              {"packet_bytes", GK_PACKET_BYTES},                {"start_us", GK_START},
              {"stop_us", GK_STOP},    {"on_us", GK_ON},        {"off_us", GK_OFF},
              {"compute_us", GK_COMPUTE},                       {"collective", GK_COLLECTIVE},
              {"steps", GK_STEPS},     {"buckets", GK_BUCKETS}, {"bucket_bytes", GK_BUCKET_BYTES},
              {"forward_us", GK_FORWARD},                       {"backward_us", GK_BACKWARD},
              {"overlap", GK_OVERLAP}, {"sizes", GK_SIZES}};
  for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
    if (strcmp(key, kept[i].key) != 0) continue;
    uint32_t was = g->line[kept[i].k];
    if (kept[i].k == GK_SRC && was != 0 && was != SC_LINE_SET && c->line > 0)
      BAD("src and hosts are one key, given twice (first on line %u); allowed: one of them", was);
    g->line[kept[i].k] = here(c);
  }
  if (!strcmp(key, "pattern")) ENUM(g->pattern, PAT_NAMES, PAT_KINDS, sc_pattern_t);
  if (!strcmp(key, "src") || !strcmp(key, "hosts")) {
    if (parse_hosts(value, &g->src, &g->nsrc) != 0)
      BAD("allowed: host numbers and ranges below %u, e.g. 0-7, 9", SC_MAX_HOSTS);
    return 1;
  }
  if (!strcmp(key, "dst")) U32(g->dst, 0, SC_MAX_HOSTS - 1);
  if (!strcmp(key, "class")) U32(g->cls, 0, LFC_IB_MAX_VLS - 1);
  if (!strcmp(key, "bytes")) {
    uint64_t b;
    if (parse_u64(value, 0, 1ull << 40, &b) != 0) BAD("allowed: an integer 0..2^40 (0 = until stop)");
    g->bytes = b;
    return 1;
  }
  if (!strcmp(key, "packet_bytes")) U32(g->packet_bytes, 1, LFC_MAX_NBLK * LFC_BLOCK_BYTES);
  if (!strcmp(key, "load")) {
    double l;
    if (parse_f(value, 1e-6, 1.0, &l) != 0) BAD("allowed: a fraction of line rate 0.000001..1");
    g->load_ppm = (uint32_t)lround(l * 1e6);
    return 1;
  }
  if (!strcmp(key, "start_us")) F64(g->start_us, 0.0, 1e7);
  if (!strcmp(key, "stop_us")) F64(g->stop_us, 0.0, 1e7);
  if (!strcmp(key, "on_us")) F64(g->on_us, 0.0, 1e7);
  if (!strcmp(key, "off_us")) F64(g->off_us, 0.0, 1e7);
  if (!strcmp(key, "ecn")) BOOL(g->ecn);
  if (!strcmp(key, "dcqcn")) BOOL(g->dcqcn);
  if (!strcmp(key, "chunk_bytes")) U32(g->chunk_bytes, LFC_BLOCK_BYTES, 1u << 30);
  if (!strcmp(key, "compute_us")) F64(g->compute_us, 0.0, 1e9);
  if (!strcmp(key, "collective")) {
    int e;
    if (parse_enum(value, COLL_NAMES, COLL_KINDS, &e) != 0) BAD("allowed: ring, tree, sharp");
    g->collective = COLL_PATTERNS[e];
    return 1;
  }
  if (!strcmp(key, "steps")) U32(g->steps, 1, SC_MAX_DDP_ALLREDUCES);
  if (!strcmp(key, "buckets")) U32(g->buckets, 1, SC_MAX_DDP_ALLREDUCES);
  if (!strcmp(key, "bucket_bytes")) {
    uint64_t b;
    if (parse_u64(value, 1, 1ull << 40, &b) != 0) BAD("allowed: an integer 1..2^40");
    g->bucket_bytes = b;
    return 1;
  }
  if (!strcmp(key, "forward_us")) F64(g->forward_us, 0.0, 1e7);
  if (!strcmp(key, "backward_us")) F64(g->backward_us, 0.0, 1e7);
  if (!strcmp(key, "overlap")) BOOL(g->overlap);
  if (!strcmp(key, "sizes")) {
    if (parse_sizes(value, g) != 0)
      BAD("allowed: 1..%u entries BYTES:WEIGHT separated by commas, BYTES 1..2^40 and WEIGHT a "
          "number above 0, e.g. 4096:0.5, 65536:0.3, 1048576:0.2", SC_MAX_SIZES);
    return 1;
  }
  UNKNOWN("pattern, src, dst, class, bytes, packet_bytes, load, start_us, stop_us, on_us, "
          "off_us, ecn, dcqcn, chunk_bytes, compute_us, collective, steps, buckets, "
          "bucket_bytes, forward_us, backward_us, overlap, sizes");
}

/* Switch sections: [switch], [ib], [pfc], and [switch.ROLE], [ib.ROLE], [pfc.ROLE]. */
static int is_switch_section(const char *s) {
  static const char *const base[] = {"switch", "ib", "pfc"};
  for (size_t i = 0; i < 3; i++) {
    size_t l = strlen(base[i]);
    if (!strncmp(s, base[i], l) && (s[l] == '\0' || s[l] == '.')) return 1;
  }
  return 0;
}

static char *dupstr(const char *s) {
  size_t l = strlen(s) + 1;
  char *d = malloc(l);
  if (d) memcpy(d, s, l);
  return d;
}

/* One more entry at the end of *v (*n entries, *cap allocated), its text copied (file NULL:
   none). 0, or -1 out of memory (nothing added). */
static int entry_push(struct sc_entry **v, size_t *n, size_t *cap, const char *section,
                      const char *key, const char *value, const char *file, int line) {
  if (*n == *cap) {
    size_t c = *cap ? *cap * 2 : 16;
    struct sc_entry *nv = realloc(*v, c * sizeof *nv);
    if (nv == NULL) return -1;
    *v = nv;
    *cap = c;
  }
  struct sc_entry *e = &(*v)[*n];
  *e = (struct sc_entry){dupstr(section), dupstr(key), dupstr(value),
                         file ? dupstr(file) : NULL, line};
  if (!e->section || !e->key || !e->value || (file && !e->file)) {
    free(e->section);
    free(e->key);
    free(e->value);
    free(e->file);
    return -1;
  }
  (*n)++;
  return 0;
}

/* Free n entries and their array. */
static void entries_free(struct sc_entry *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i].section);
    free(v[i].key);
    free(v[i].value);
    free(v[i].file);
  }
  free(v);
}

static int add_entry(ctx_t *c, const char *section, const char *key, const char *value) {
  lfc_scenario_t *sc = c->sc;
  if (entry_push(&sc->entries, &sc->nentries, &sc->capentries, section, key, value, c->file,
                 c->line) != 0)
    BAD("out of memory");
  return 1;
}

static int dispatch(ctx_t *c, const char *section, const char *key, const char *value) {
  if (!strcmp(section, "sim")) return sim_key(c, section, key, value);
  if (!strcmp(section, "topology")) return topology_key(c, section, key, value);
  if (!strcmp(section, "link")) return link_key(c, section, key, value);
  if (!strcmp(section, "host")) return host_key(c, section, key, value);
  if (!strcmp(section, "dcqcn")) return dcqcn_key(c, section, key, value);
  if (!strcmp(section, "routing")) return routing_key(c, section, key, value);
  if (!strcmp(section, "classmap")) return classmap_key(c, section, key, value);
  if (!strncmp(section, "traffic", 7) && (section[7] == '\0' || section[7] == '.'))
    return traffic_key(c, section, key, value);
  if (is_switch_section(section)) return add_entry(c, section, key, value);
  return failf(c, section, key, value,
               "unknown section; allowed: sim, topology, link, switch, ib, pfc, switch.ROLE, "
               "ib.ROLE, pfc.ROLE, host, dcqcn, routing, classmap, traffic, traffic.NAME");
}

/* A key that may be given more than once, each time adding one more (docs/sim.md). */
static int repeatable(const char *section, const char *key) {
  return !strcmp(section, "routing") && !strcmp(key, "path");
}

/* libinih's handler: collect the entries. A continuation line extends the previous entry. */
static int handler(void *user, const char *section, const char *key, const char *value) {
  ctx_t *c = user;
  if (c->failed) return 1; /* report the first error only */
  if (c->continuation && c->npend > 0) {
    /* A path's nodes are separated by blanks, every other list by commas: joined so that a list
       goes on over lines with or without a trailing comma. */
    struct sc_entry *e = &c->pend[c->npend - 1];
    char sep = repeatable(e->section, e->key) ? ' ' : ',';
    size_t have = strlen(e->value), add = strlen(value);
    int join = have > 0 && e->value[have - 1] != sep;
    char *v = realloc(e->value, have + (size_t)join + add + 1);
    if (v == NULL) return failf(c, section, key, value, "out of memory");
    if (join) v[have++] = sep;
    memcpy(v + have, value, add + 1);
    e->value = v;
    return 1;
  }
  c->after_key = 1;
  if (!repeatable(section, key))
    for (size_t i = 0; i < c->npend; i++)
      if (!strcmp(c->pend[i].section, section) && !strcmp(c->pend[i].key, key))
        return failf(c, section, key, value, "given twice (first on line %d); --set overrides "
                     "a key of the file", c->pend[i].line);
  if (entry_push(&c->pend, &c->npend, &c->cappend, section, key, value, NULL, c->line) != 0)
    return failf(c, section, key, value, "out of memory");
  return 1;
}

/* libinih's reader over the text in memory, plus what libinih does not tell the handler: the
   line number, and whether the line is a continuation. libinih (INI_ALLOW_MULTILINE) takes a
   line that starts with a blank and is neither blank nor a comment, after a key and before the
   next [section], as more of that key's value. A line longer than libinih's buffer (num - 1
   characters) stops the parse: libinih would take its rest as a line of its own. */
static char *reader(char *str, int num, void *stream) {
  ctx_t *c = stream;
  reader_t *r = &c->rd;
  if (r->p >= r->end || num < 2) return NULL;
  int i = 0, newline = 0;
  c->line = r->next_line;
  while (i < num - 1 && r->p < r->end) {
    char ch = *r->p++;
    str[i++] = ch;
    if (ch == '\n') {
      r->next_line++;
      newline = 1;
      break;
    }
  }
  str[i] = '\0';
  if (!newline && r->p < r->end) {
    /* Full buffer: the line may still end here (its newline or CR LF is all that is next). */
    if (*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n') r->p++;
    if (*r->p == '\n') {
      r->p++;
      r->next_line++;
    } else {
      if (!c->failed && c->err && c->errlen)
        snprintf(c->err, c->errlen, "%s:%d: line longer than %d characters (the limit of "
                 "libinih); a list may go on over indented lines", c->file, c->line, num - 1);
      c->failed = 1;
      c->err_line = c->line;
      return NULL;
    }
  }
  const char *s = str;
  while (*s == ' ' || *s == '\t') s++;
  int blank = *s == '\0' || *s == '\n' || *s == '\r';
  int comment = *s == ';' || *s == '#';
  c->continuation = s > str && !blank && !comment && c->after_key;
  if (!c->continuation && *s == '[') c->after_key = 0;
  return str;
}

static void free_pending(ctx_t *c) {
  entries_free(c->pend, c->npend);
  c->pend = NULL;
  c->npend = c->cappend = 0;
}

/* ---- Defaults, load, overrides ---- */

static void defaults(lfc_scenario_t *sc) {
  memset(sc, 0, sizeof *sc);
  sc->duration_us = 10.0;
  sc->seed = SC_DEFAULT_SEED;
  sc->sample_us = 1.0;
  sc->deadlock_us = 5.0;
  sc->threads = 1;
  sc->topo = TOPO_STAR;
  sc->switches = 1;
  sc->hosts_per_switch = 4;
  sc->leaves = 2;
  sc->spines = 2;
  sc->hosts_per_leaf = 2;
  sc->spine_links = 1;
  sc->k = 4;
  sc->rails = 2;
  sc->servers = 2;
  sc->speed_gbps = SC_DEFAULT_SPEED_GBPS;
  sc->given.host_speed_gbps = 0.0; /* = speed_gbps */
  sc->cable_m = SC_DEFAULT_CABLE_M;
  sc->given.host_cable_m = -1.0; /* = cable_m */
  sc->given.ae_speed_gbps = 0.0; /* = SC_AE_SPEEDUP x speed_gbps */
  lfc_nic_cfg_default(&sc->nic, LFC_MODE_PFC, 1);
  sc->response_jitter_ns = SC_DEFAULT_RESPONSE_JITTER_NS;
  /* DCQCN defaults, as deployed (docs/sim.md "DCQCN" has the sources): g = 1/256 (Zhu et al.,
     SIGCOMM 2015; the authors' ns-3 model); alpha updated every 1 us (NVIDIA DCE_TCP_RTT);
     the rate checked for a decrease every 4 us (ns-3 model RateDecreaseInterval, NVIDIA
     rate_reduce_monitor_period); at most one CNP per flow per 4 us (NVIDIA
     min_time_between_cnps); rate-increase timer 300 us (NVIDIA rpg_time_reset); byte counter
     10 MB and F = 5 (paper); R_AI 5 Mb/s, R_HAI 50 Mb/s, R_min 100 Mb/s and no target clamp
     before a timer increase (ns-3 model defaults). The CNP's way back is a scenario choice. */
  sc->dcqcn_g = 1.0 / 256.0;
  sc->dcqcn_rai_gbps = 0.005;
  sc->dcqcn_rhai_gbps = 0.05;
  sc->dcqcn_timer_us = 300.0;
  sc->dcqcn_alpha_us = 1.0;
  sc->dcqcn_byte_counter_kb = 10u * 1024u;
  sc->dcqcn_f = 5;
  sc->dcqcn_cnp_us = 4.0;
  sc->dcqcn_cnp_delay_us = 1.0;
  sc->dcqcn_min_gbps = 0.1;
  sc->dcqcn_decrease_us = 4.0;
  sc->dcqcn_clamp_target = 0;
  sc->route = ROUTE_SHORTEST;
  sc->ecmp_ways = SC_DEFAULT_ECMP;
  sc->adaptive = 0;
}

static int parse_text(lfc_scenario_t *sc, const char *text, size_t len, const char *name,
                      char *err, size_t errlen) {
  ctx_t c = {.sc = sc, .file = name, .err = err, .errlen = errlen,
             .rd = {text, text + len, 1}};
  int rc = ini_parse_stream(reader, &c, handler, &c);
  /* libinih goes on after a syntax error and returns the first one's line: the earlier of that
     and an error of ours while reading is the one to report. */
  if (rc != 0 && (!c.failed || (rc > 0 && rc < c.err_line))) {
    c.line = rc > 0 ? rc : c.line;
    if (err && errlen)
      snprintf(err, errlen, "%s:%d: syntax error: allowed: [section], key = value, ; comment",
               name, c.line);
    c.failed = 1;
  }
  for (size_t i = 0; i < c.npend && !c.failed; i++) {
    c.line = c.pend[i].line;
    dispatch(&c, c.pend[i].section, c.pend[i].key, c.pend[i].value);
  }
  free_pending(&c);
  return c.failed ? -1 : 0;
}

int lfc_scenario_load_mem(const char *text, size_t len, const char *name, lfc_scenario_t *sc,
                          char *err, size_t errlen) {
  defaults(sc);
  snprintf(sc->file, sizeof sc->file, "%s", name ? name : "<memory>");
  if (parse_text(sc, text, len, sc->file, err, errlen) != 0) return -1;
  return lfc_scenario_finish(sc, err, errlen);
}

int lfc_scenario_load(const char *path, lfc_scenario_t *sc, char *err, size_t errlen) {
  defaults(sc);
  snprintf(sc->file, sizeof sc->file, "%s", path);
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    if (err && errlen) snprintf(err, errlen, "%s: cannot open the scenario file", path);
    return -1;
  }
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  while (buf != NULL) {
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (len < cap) break;
    char *nb = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
    if (nb == NULL) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  fclose(f);
  if (buf == NULL) {
    if (err && errlen) snprintf(err, errlen, "%s: too large or out of memory", path);
    return -1;
  }
  int rc = parse_text(sc, buf, len, sc->file, err, errlen);
  free(buf);
  if (rc != 0) return -1;
  return lfc_scenario_finish(sc, err, errlen);
}

int lfc_scenario_set(lfc_scenario_t *sc, const char *assignment, char *err, size_t errlen) {
  ctx_t c = {.sc = sc, .file = "--set", .err = err, .errlen = errlen};
  const char *eq = strchr(assignment, '=');
  const char *dot = eq ? memchr(assignment, '.', (size_t)(eq - assignment)) : NULL;
  /* the key is after the last dot before '=' (sections may contain dots: switch.leaf) */
  for (const char *q = dot; q != NULL && q < eq; q = memchr(q + 1, '.', (size_t)(eq - q - 1)))
    dot = q;
  if (eq == NULL || dot == NULL || dot == assignment || dot + 1 == eq) {
    if (err && errlen)
      snprintf(err, errlen, "--set %.*s: allowed: section.key=value", SC_MAX_LINE_ECHO,
               assignment);
    return -1;
  }
  char section[64], key[64];
  size_t ls = (size_t)(dot - assignment), lk = (size_t)(eq - dot - 1);
  if (ls >= sizeof section || lk >= sizeof key) {
    if (err && errlen) snprintf(err, errlen, "--set: section or key too long");
    return -1;
  }
  memcpy(section, assignment, ls);
  section[ls] = '\0';
  memcpy(key, dot + 1, lk);
  key[lk] = '\0';
  dispatch(&c, section, key, eq + 1);
  return c.failed ? -1 : 0;
}

void lfc_scenario_free(lfc_scenario_t *sc) {
  if (sc == NULL) return;
  for (uint32_t i = 0; i < sc->ngroups && i < SC_MAX_GROUPS; i++) {
    free(sc->groups[i].src);
    sc->groups[i].src = NULL;
  }
  entries_free(sc->entries, sc->nentries);
  sc->entries = NULL;
  sc->nentries = sc->capentries = 0;
}

/* ---- Resolve ---- */

/* Apply the switch entries of `base` ("switch", "ib", "pfc") or "base.ROLE" to cfg. */
static int apply_entries(lfc_scenario_t *sc, uint32_t role, const char *rname, int pass,
                         char *err, size_t errlen) {
  lfc_switch_cfg_t *cfg = &sc->sw[role];
  for (int scope = 0; scope < 2; scope++) /* the global sections first, then the role's */
    for (size_t i = 0; i < sc->nentries; i++) {
      const struct sc_entry *e = &sc->entries[i];
      const char *dot = strchr(e->section, '.');
      if (scope == 0 && dot != NULL) continue;
      if (scope == 1 && (dot == NULL || strcmp(dot + 1, rname) != 0)) continue;
      char base[16];
      size_t bl = dot ? (size_t)(dot - e->section) : strlen(e->section);
      if (bl >= sizeof base) continue;
      memcpy(base, e->section, bl);
      base[bl] = '\0';
      int is_first = !strcmp(base, "switch") && (!strcmp(e->key, "mode") || !strcmp(e->key, "classes"));
      if (pass == 0 && !is_first) continue;
      if (pass == 1 && is_first) continue;
      ctx_t c = {.sc = sc, .file = e->file, .line = e->line, .err = err, .errlen = errlen};
      if (!strcmp(base, "switch") && !strcmp(e->key, "ports")) {
        failf(&c, e->section, e->key, e->value,
              "the topology sets the port count (a %s switch has %u); allowed: leave it out",
              rname, sc->radix[role]);
        return -1;
      }
      if (!strcmp(base, "switch") && !strcmp(e->key, "latency_ns")) {
        double ns;
        if (parse_f(e->value, 0.0, 1e6, &ns) != 0) {
          failf(&c, e->section, e->key, e->value, "allowed: a number of ns 0..1e6");
          return -1;
        }
        sc->latency_ns[role] = ns;
        continue;
      }
      char msg[512];
      int rc = lfc_switch_cfg_set(cfg, base, e->key, e->value, msg, sizeof msg);
      if (rc != 0) {
        if (rc == 1 && !strcmp(base, "switch")) {
          char *semi = strstr(msg, "keys of [switch]: ");
          failf(&c, e->section, e->key, e->value, "unknown key; allowed: latency_ns, %s",
                semi ? semi + strlen("keys of [switch]: ") : msg);
        } else {
          failf(&c, e->section, e->key, e->value, "%s", msg);
        }
        return -1;
      }
    }
  return 0;
}

/*
 * The entry that set `key` of `base` ("switch", "ib", "pfc") for role `rname`: the last one applied
 * (apply_entries: the global sections, then the role's), or NULL if the key was not given.
 */
static const struct sc_entry *given(const lfc_scenario_t *sc, const char *rname, const char *base,
                                    const char *key) {
  const struct sc_entry *last = NULL;
  size_t bl = strlen(base);
  for (int scope = 0; scope < 2; scope++)
    for (size_t i = 0; i < sc->nentries; i++) {
      const struct sc_entry *e = &sc->entries[i];
      if (strncmp(e->section, base, bl) != 0 || strcmp(e->key, key) != 0) continue;
      const char *rest = e->section + bl;
      if ((scope == 0 && *rest == '\0') || (scope == 1 && *rest == '.' && !strcmp(rest + 1, rname)))
        last = e;
    }
  return last;
}

int sc_switch_key(const lfc_scenario_t *sc, uint32_t role, const char *base, const char *key,
                  uint32_t *line, const char **section, const char **value) {
  const struct sc_entry *e = role < sc->nroles ? given(sc, sc->role_name[role], base, key) : NULL;
  if (e == NULL) return 0;
  *line = e->line > 0 ? (uint32_t)e->line : SC_LINE_SET;
  *section = e->section;
  *value = e->value;
  return 1;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/*
 * The switch parameters whose SPEC §3 default lfc-sim replaces by one that follows the scenario,
 * where the scenario does not give them (docs/sim.md "Defaults that follow the scenario"): never
 * below the SPEC default `spec`, and clamped to the parameter's range. `response` is the hosts'
 * reaction time to a pause in cycles (SPEC §12.2), `host_k` their speed divider (a flow's pace).
 *  - drr_quantum = mtu_blocks (SPEC §3.2: the quantum follows the MTU);
 *  - xoff_th = one flow's hold with store-and-forward (lfc_flow_hold_blocks), times the
 *    aggregation engine's fan-in F (at most one child per other port: ports - 1) on a switch
 *    with one, whose results to F children share the AE port's ingress PG;
 *  - shared_blocks: room for that threshold, twice on a switch with an AE (its results and its
 *    children's inputs at once);
 *  - headroom_blocks: the headroom calculator's figure (SPEC §11, lfc_headroom_blocks) for the
 *    role's slowest-to-react cable;
 *  - vl_blocks: the credit loop of the role's longest cable (lfc_credit_blocks_switch), and on
 *    a switch with an AE its F flows' hold;
 *  - wire_time = 1: frames take their bytes on the real link (SPEC §2.4);
 *  - fcp_holdoff = SC_FCP_HOLDOFF_MTUS x mtu_blocks: FCPs coalesced over a few packets (§5.5),
 *    which the credit loop then covers too (vl_blocks: + fcp_holdoff / k);
 *  - with wire_time, headroom_blocks covers the idle gap slot and the merged packets (§11).
 */
static void follow_scenario(lfc_scenario_t *sc, uint32_t r, const char *rname,
                            const lfc_switch_cfg_t *spec, uint64_t response, uint32_t host_k) {
  lfc_switch_cfg_t *cfg = &sc->sw[r];
  uint32_t mtu = cfg->mtu_blocks;
  topo_cable_t cab[TOPO_PEERS];
  uint32_t ncab = topo_role_cables(sc, r, cab);
  uint64_t fan_in = topo_has_ae(sc) ? sc->radix[r] - 1u : 1u;
  uint64_t hold = lfc_flow_hold_blocks(mtu, cfg->latency, 0, host_k) * fan_in;
  if (given(sc, rname, "switch", "wire_time") == NULL) cfg->wire_time = true;
  if (given(sc, rname, "ib", "fcp_holdoff") == NULL)
    cfg->fcp_holdoff = (uint32_t)max_u64(spec->fcp_holdoff, SC_FCP_HOLDOFF_MTUS * mtu);
  if (given(sc, rname, "pfc", "drr_quantum") == NULL)
    for (uint32_t c = 0; c < LFC_PFC_MAX_PRIOS; c++) cfg->drr_quantum[c] = mtu;
  if (given(sc, rname, "pfc", "xoff_th") == NULL)
    cfg->xoff_th = (uint32_t)max_u64(spec->xoff_th, hold < SC_MAX_COUNTER20 ? hold : SC_MAX_COUNTER20);
  if (given(sc, rname, "pfc", "shared_blocks") == NULL) {
    uint64_t want = hold * (topo_has_ae(sc) ? 2u : 1u);
    cfg->shared_blocks =
        (uint32_t)max_u64(spec->shared_blocks, want < SC_MAX_COUNTER20 ? want : SC_MAX_COUNTER20);
  }
  uint64_t headroom = spec->headroom_blocks, credits = spec->vl_blocks[0];
  for (uint32_t i = 0; i < ncab; i++) {
    uint64_t resp = cab[i].peer == TOPO_PEER_SWITCH ? 0u : response; /* lfc switches: R = 0 */
    uint32_t k = cab[i].speed_div;
    uint64_t h = lfc_headroom_blocks(mtu, cab[i].delay, resp, k);
    if (cfg->wire_time) h = lfc_headroom_blocks_line(h, mtu); /* the gap slot, merged packets */
    headroom = max_u64(headroom, h);
    uint64_t c = lfc_credit_blocks_switch(mtu, cab[i].delay, cfg->latency, (int)cfg->cut_through, k);
    credits = max_u64(credits, lfc_credit_blocks_holdoff(c, cfg->fcp_holdoff, k));
  }
  if (topo_has_ae(sc)) credits = max_u64(credits, hold);
  if (given(sc, rname, "pfc", "headroom_blocks") == NULL)
    cfg->headroom_blocks = (uint32_t)(headroom < SC_MAX_U16 ? headroom : SC_MAX_U16);
  if (given(sc, rname, "ib", "vl_blocks") == NULL)
    for (uint32_t c = 0; c < LFC_IB_MAX_VLS; c++)
      cfg->vl_blocks[c] = (uint32_t)(credits < SC_MAX_U16 ? credits : SC_MAX_U16);
}

#define FERR(...)                                           \
  do {                                                      \
    if (err && errlen) snprintf(err, errlen, __VA_ARGS__);  \
    return -1;                                              \
  } while (0)

/* A message about key k of group g, at the line it was given (keys not given: at the group's
   first line, without a value). */
#define GFAIL(k, key, value, ...)                                                          \
  do {                                                                                     \
    uint32_t l_ = g->line[k] != 0 ? g->line[k] : g->line[GK_SECTION];                       \
    char s_[SC_NAME_LEN + 16];                                                             \
    snprintf(s_, sizeof s_, "traffic.%s", g->name);                                        \
    sc_key_error(sc, l_, !strcmp(g->name, "main") ? "traffic" : s_, key,                  \
                 g->line[k] != 0 ? (value) : NULL, err, errlen, __VA_ARGS__);              \
    goto bad;                                                                              \
  } while (0)

static int is_collective(sc_pattern_t p) {
  return p == PAT_RING_ALLREDUCE || p == PAT_TREE_ALLREDUCE || p == PAT_SHARP;
}

/* The checks of one traffic group that need the host count, classes and MTU but no fabric:
   every contradiction that would otherwise run as something else (a flow that never sends, a
   host sending to itself) or crash (uniform over one host). */
static int check_group(const lfc_scenario_t *sc, const sc_group_t *g, uint64_t hosts,
                       uint32_t classes, uint32_t mtu, char *err, size_t errlen) {
  char v[64];
  uint8_t *seen = calloc((size_t)hosts, 1);
  if (seen == NULL) {
    if (err && errlen) snprintf(err, errlen, "%s: out of memory", sc->file);
    return -1;
  }
  const char *pat = sc_pattern_name(g->pattern);
  if (g->nsrc == 0)
    GFAIL(GK_SRC, "src", NULL, "missing; allowed: host numbers and ranges, e.g. 0-7%s",
          g->pattern == PAT_FLOW ? " (pattern flow: one host)" : "");
  for (uint32_t j = 0; j < g->nsrc; j++) {
    if (g->src[j] >= hosts)
      GFAIL(GK_SRC, "src", NULL, "host %u does not exist; allowed: 0..%llu", g->src[j],
            (unsigned long long)hosts - 1);
    if (seen[g->src[j]])
      GFAIL(GK_SRC, "src", NULL, "host %u listed twice; allowed: each host once (one more "
            "flow from a host: another [traffic.NAME])", g->src[j]);
    seen[g->src[j]] = 1;
  }
  if (g->pattern == PAT_FLOW && g->nsrc != 1)
    GFAIL(GK_SRC, "src", NULL, "%u hosts; allowed: pattern flow has exactly one source host",
          g->nsrc);
  snprintf(v, sizeof v, "%u", g->dst);
  if (g->dst >= hosts)
    GFAIL(GK_DST, "dst", v, "no such host; allowed: 0..%llu", (unsigned long long)hosts - 1);
  if ((g->pattern == PAT_FLOW || g->pattern == PAT_INCAST) && g->line[GK_DST] == 0)
    GFAIL(GK_DST, "dst", v, "missing; allowed: the host that pattern %s sends to, 0..%llu",
          pat, (unsigned long long)hosts - 1);
  if ((g->pattern == PAT_FLOW || g->pattern == PAT_INCAST) && seen[g->dst])
    GFAIL(GK_DST, "dst", v, "host %u is also a source; allowed: a host not in src (a host "
          "does not send to itself)", g->dst);
  if ((g->pattern == PAT_PERMUTATION || g->pattern == PAT_ALL_TO_ALL) && g->nsrc < 2)
    GFAIL(GK_SRC, "src", NULL, "%u host; allowed: 2 or more hosts for pattern %s (a host "
          "does not send to itself)", g->nsrc, pat);
  if (g->pattern == PAT_UNIFORM && hosts < 2)
    GFAIL(GK_PATTERN, "pattern", pat, "the topology has %llu host; allowed: 2 or more hosts "
          "(each packet goes to another host)", (unsigned long long)hosts);
  snprintf(v, sizeof v, "%u", g->cls);
  if (g->cls >= classes)
    GFAIL(GK_CLASS, "class", v, "allowed: 0..%u (switch classes)", classes - 1);
  snprintf(v, sizeof v, "%u", g->packet_bytes);
  if ((g->packet_bytes + LFC_BLOCK_BYTES - 1) / LFC_BLOCK_BYTES > mtu)
    GFAIL(GK_PACKET_BYTES, "packet_bytes", v, "allowed: 1..%u (mtu_blocks %u x 64)",
          mtu * LFC_BLOCK_BYTES, mtu);
  snprintf(v, sizeof v, "%llu", (unsigned long long)g->bytes);
  if (is_collective(g->pattern) && g->bytes == 0)
    GFAIL(GK_BYTES, "bytes", v, "allowed: more than 0 for pattern %s (the vector)", pat);
  if ((is_collective(g->pattern) || g->pattern == PAT_DDP) && g->nsrc < 2)
    GFAIL(GK_SRC, "src", NULL, "%u host; allowed: 2 or more hosts for pattern %s", g->nsrc,
          pat);
  if (g->pattern == PAT_DDP) {
    snprintf(v, sizeof v, "%llu", (unsigned long long)g->bytes);
    if (g->line[GK_BYTES] != 0)
      GFAIL(GK_BYTES, "bytes", v, "pattern ddp all-reduces buckets; allowed: bucket_bytes (the "
            "vector of one bucket) and buckets instead of bytes");
    if (g->line[GK_BUCKET_BYTES] == 0)
      GFAIL(GK_BUCKET_BYTES, "bucket_bytes", NULL, "missing; allowed: the bytes of one gradient "
            "bucket, 1..2^40, for pattern ddp");
    snprintf(v, sizeof v, "%g", g->compute_us);
    if (g->line[GK_COMPUTE] != 0)
      GFAIL(GK_COMPUTE, "compute_us", v, "pattern ddp computes forward_us + backward_us per "
            "step; allowed: forward_us and backward_us instead");
    snprintf(v, sizeof v, "%u", g->buckets);
    if ((uint64_t)g->steps * g->buckets > SC_MAX_DDP_ALLREDUCES)
      GFAIL(GK_BUCKETS, "buckets", v, "steps %u x buckets %u all-reductions; allowed: at most %u",
            g->steps, g->buckets, SC_MAX_DDP_ALLREDUCES);
  } else {
    static const struct {
      sc_gkey_t k;
      const char *key;
    } ddp_only[] = {{GK_COLLECTIVE, "collective"}, {GK_STEPS, "steps"},
                    {GK_BUCKETS, "buckets"},       {GK_BUCKET_BYTES, "bucket_bytes"},
                    {GK_FORWARD, "forward_us"},    {GK_BACKWARD, "backward_us"},
                    {GK_OVERLAP, "overlap"}};
    for (size_t i = 0; i < sizeof ddp_only / sizeof ddp_only[0]; i++)
      if (g->line[ddp_only[i].k] != 0)
        GFAIL(ddp_only[i].k, ddp_only[i].key, NULL, "pattern %s; allowed: only with pattern ddp",
              pat);
  }
  if (g->pattern == PAT_POISSON) {
    if (g->line[GK_SIZES] == 0)
      GFAIL(GK_SIZES, "sizes", NULL, "missing; allowed: the flow sizes of pattern poisson, "
            "BYTES:WEIGHT, ..., e.g. 4096:0.5, 65536:0.3, 1048576:0.2");
    if (g->line[GK_BYTES] != 0)
      GFAIL(GK_BYTES, "bytes", v, "pattern poisson draws each flow's bytes from sizes; allowed: "
            "sizes (no bytes)");
    if (g->nsrc < 2)
      GFAIL(GK_SRC, "src", NULL, "%u host; allowed: 2 or more hosts for pattern poisson (a "
            "flow goes to another of them)", g->nsrc);
    /* flows expected: per source, the run's sending time x load x line rate / mean size */
    double stop = g->stop_us > 0 && g->stop_us < sc->duration_us ? g->stop_us : sc->duration_us;
    double bytes_per_us = sc->host_speed_gbps * 1000.0 / 8.0 * (double)g->load_ppm / 1e6;
    double expect = g->nsrc * (stop - g->start_us) * bytes_per_us / sc_group_mean_size(g);
    if (expect > SC_MAX_POISSON_FLOWS) {
      snprintf(v, sizeof v, "%g", (double)g->load_ppm / 1e6);
      GFAIL(GK_SIZES, "sizes", NULL, "about %.0f flows expected over the run (%u hosts, load %s, "
            "mean size %.0f bytes); allowed: at most %u: a shorter run, fewer hosts, a lower "
            "load or larger flows", expect, g->nsrc, v, sc_group_mean_size(g),
            SC_MAX_POISSON_FLOWS);
    }
  } else if (g->line[GK_SIZES] != 0) {
    GFAIL(GK_SIZES, "sizes", NULL, "pattern %s; allowed: only with pattern poisson", pat);
  }
  snprintf(v, sizeof v, "%g", g->start_us);
  if (g->start_us >= sc->duration_us)
    GFAIL(GK_START, "start_us", v, "not before the end of the run (duration_us = %g): the "
          "group would never send; allowed: less than duration_us", sc->duration_us);
  snprintf(v, sizeof v, "%g", g->stop_us);
  if (g->stop_us > 0 && g->stop_us <= g->start_us)
    GFAIL(GK_STOP, "stop_us", v, "not after start_us = %g; allowed: 0 (the end of the run) or "
          "more than start_us", g->start_us);
  snprintf(v, sizeof v, "%g", g->off_us);
  if (g->off_us > 0 && g->on_us <= 0)
    GFAIL(GK_OFF, "off_us", v, "bursts with on_us = 0; allowed: on_us > 0 with off_us > 0, or "
          "off_us = 0 (always on)");
  free(seen);
  return 0;
bad:
  free(seen);
  return -1;
}

static uint32_t speed_div(double fastest, double speed) {
  return (uint32_t)lround(fastest / speed);
}

/*
 * The defaults that follow other keys, decided here once for every reader (topology, traffic,
 * engine, results): the hosts' links and the aggregation engines' follow the switches' links
 * where not given, and the clock follows the fastest link (SPEC §1.2). Then the speeds'
 * dividers must be whole numbers 1..16.
 */
static int resolve_links(lfc_scenario_t *sc, char *err, size_t errlen) {
  const char *f = sc->file;
  sc->host_speed_gbps = sc->given.host_speed_gbps > 0 ? sc->given.host_speed_gbps : sc->speed_gbps;
  sc->host_cable_m = sc->given.host_cable_m >= 0 ? sc->given.host_cable_m : sc->cable_m;
  sc->ae_speed_gbps = !topo_has_ae(sc)                 ? 0.0
                      : sc->given.ae_speed_gbps > 0 ? sc->given.ae_speed_gbps
                                                      : SC_AE_SPEEDUP * sc->speed_gbps;
  double fastest = sc->speed_gbps > sc->host_speed_gbps ? sc->speed_gbps : sc->host_speed_gbps;
  sc->fastest_gbps = fastest = sc->ae_speed_gbps > fastest ? sc->ae_speed_gbps : fastest;
  sc->cycle_ns = SC_BITS_PER_CYCLE / fastest;
  double speeds[3] = {sc->speed_gbps, sc->host_speed_gbps,
                      sc->ae_speed_gbps > 0 ? sc->ae_speed_gbps : fastest};
  for (int i = 0; i < 3; i++) {
    double div = fastest / speeds[i];
    if (fabs(div - lround(div)) > 1e-6 || lround(div) > 16)
      FERR("%s: [link] speed_gbps = %g, host_speed_gbps = %g, ae_speed_gbps = %g: the fastest "
           "must be 1..16 times each, a whole number (SPEC §1.2 speed_div)", f, sc->speed_gbps,
           sc->host_speed_gbps, sc->ae_speed_gbps);
  }
  sc->sw_div = speed_div(fastest, sc->speed_gbps);
  sc->host_div = speed_div(fastest, sc->host_speed_gbps);
  sc->ae_div = speed_div(fastest, speeds[2]);
  sc->end_cycle = (uint64_t)(sc->duration_us * 1000.0 / sc->cycle_ns + 0.5);
  if (sc->end_cycle < 1) sc->end_cycle = 1;
  sc->sample_cycles = sc_ns_to_cycles(sc, sc->sample_us * 1000.0);
  return 0;
}

/*
 * Every cable's delay in cycles is 1 or more (the lookahead of skip-ahead, SPEC §12.1) and, with
 * [sim] step_all, at most what lfc_link holds (LFC_LINK_MAX_DELAY): known from the cable lengths
 * and the clock, for each kind of cable a role has (topo_role_cables), without the fabric.
 */
static int check_cables(const lfc_scenario_t *sc, char *err, size_t errlen) {
  static const char *const KEY[TOPO_PEERS] = {[TOPO_PEER_HOST] = "host_cable_m",
                                              [TOPO_PEER_SWITCH] = "cable_m",
                                              [TOPO_PEER_AE] = "ae_speed_gbps"};
  uint32_t most = sc->step_all ? LFC_LINK_MAX_DELAY : UINT32_MAX;
  for (uint32_t r = 0; r < sc->nroles; r++) {
    topo_cable_t cab[TOPO_PEERS];
    uint32_t ncab = topo_role_cables(sc, r, cab);
    for (uint32_t i = 0; i < ncab; i++) {
      if (cab[i].delay >= 1u && cab[i].delay <= most) continue;
      topo_peer_t k = cab[i].peer == TOPO_PEER_HOST && sc->given.host_cable_m < 0
                          ? TOPO_PEER_SWITCH /* the hosts' cables follow cable_m */
                          : cab[i].peer;
      double v = k == TOPO_PEER_HOST ? sc->host_cable_m
                 : k == TOPO_PEER_AE ? sc->ae_speed_gbps
                                     : sc->cable_m;
      FERR("%s: [link] %s = %g: a delay of %u cycles of %.3f ns; allowed: 1..%u cycles%s", sc->file,
           KEY[k], v, cab[i].delay, sc->cycle_ns, most,
           sc->step_all ? " with step_all (lfc_link)" : "");
    }
  }
  return 0;
}

int lfc_scenario_finish(lfc_scenario_t *sc, char *err, size_t errlen) {
  const char *f = sc->file;
  const char *names[SC_MAX_ROLES];
  uint64_t hosts;
  sc->nroles = topo_roles(sc, names, sc->radix, &hosts, err, errlen);
  if (sc->nroles == 0) return -1;
  if (resolve_links(sc, err, errlen) != 0) return -1;
  if (check_cables(sc, err, errlen) != 0) return -1;
  /* [routing] adaptive reads an egress queue's registers of the model (engine.c ar_choose) */
  if (sc->adaptive && (lfc_reg_find("qlen") < 0 || lfc_reg_find("tx_rem") < 0))
    FERR("%s: [routing] adaptive: the model has no register qlen or tx_rem", f);
  double fastest = sc->fastest_gbps;
  for (size_t i = 0; i < sc->nentries; i++) { /* [switch.ROLE]: a role this topology has */
    const struct sc_entry *e = &sc->entries[i];
    const char *dot = strchr(e->section, '.');
    int known = dot == NULL;
    for (uint32_t r = 0; r < sc->nroles && !known; r++) known = !strcmp(dot + 1, names[r]);
    if (!known) {
      char roles[64];
      enum_list(names, (int)sc->nroles, roles, sizeof roles);
      ctx_t c = {.sc = sc, .file = e->file, .line = e->line, .err = err, .errlen = errlen};
      failf(&c, e->section, e->key, e->value, "a %s topology has no switch role %s; allowed "
            "roles: %s", sc_topo_name(sc->topo), dot + 1, roles);
      return -1;
    }
  }
  double cyc = sc->cycle_ns;
  uint64_t response = sc->response_ns > 0 ? sc_ns_to_cycles(sc, sc->response_ns) : 0u;
  if (sc->response_jitter_ns > 0) response += sc_ns_to_cycles(sc, sc->response_jitter_ns);
  uint32_t host_k = sc->host_div;
  for (uint32_t r = 0; r < sc->nroles; r++) {
    sc->role_name[r] = names[r];
    sc->latency_ns[r] = 0.0;
    lfc_switch_cfg_default(&sc->sw[r], LFC_MODE_PFC, sc->radix[r], 2);
    if (apply_entries(sc, r, names[r], 0, err, errlen) != 0) return -1;
    lfc_mode_t mode = sc->sw[r].mode;
    uint32_t classes = sc->sw[r].classes;
    lfc_switch_cfg_default(&sc->sw[r], mode, sc->radix[r], classes);
    const lfc_switch_cfg_t spec = sc->sw[r]; /* the SPEC §3 defaults */
    sc->sw[r].seed = (uint32_t)(sc->seed * 2654435761u + r + 1u); /* per-switch below too */
    if (apply_entries(sc, r, names[r], 1, err, errlen) != 0) return -1;
    if (sc->latency_ns[r] > 0.0) {
      double c = ceil(sc->latency_ns[r] / cyc - 1e-9);
      if (c < 1 || c > 4095)
        FERR("%s: [switch] latency_ns = %g is %g cycles of %.3f ns; allowed: 1..4095 cycles", f,
             sc->latency_ns[r], c, cyc);
      sc->sw[r].latency = (uint32_t)c;
    }
    follow_scenario(sc, r, names[r], &spec, response, host_k);
    char msg[512];
    if (lfc_switch_cfg_check(&sc->sw[r], msg, sizeof msg) != 0)
      FERR("%s: [switch.%s]: %s", f, names[r], msg);
    if (sc->sw[r].mode != sc->sw[0].mode || sc->sw[r].classes != sc->sw[0].classes)
      FERR("%s: [switch.%s] mode/classes differ from [switch.%s]; allowed: one mode and class "
           "count for the whole fabric", f, names[r], names[0]);
  }
  const lfc_switch_cfg_t *sw0 = &sc->sw[0];
  uint32_t mtu = 255;
  for (uint32_t r = 0; r < sc->nroles; r++)
    if (sc->sw[r].mtu_blocks < mtu) mtu = sc->sw[r].mtu_blocks;
  lfc_nic_cfg_t *n = &sc->nic;
  n->mode = sw0->mode;
  n->classes = sw0->classes;
  n->mtu_blocks = mtu;
  n->fcp_period = sw0->mode == LFC_MODE_IB ? sw0->fcp_period : n->fcp_period;
  n->fcp_holdoff = sw0->mode == LFC_MODE_IB ? sw0->fcp_holdoff : 0u; /* as the switches (§5.5) */
  n->wire_time = sw0->wire_time; /* the hosts' links as the switches' (SPEC §2.4, §12.2) */
  if (sw0->mode == LFC_MODE_PFC) {
    n->pause_quanta = sw0->pause_quanta;
    n->refresh_cycles = sw0->refresh_cycles;
    if (n->rx_blocks > 0 && sc->rx_xoff_line == 0) {
      /* XOFF with the headroom calculator's figure still free for the switch's packets in
         flight (SPEC §11; a switch reacts at once: R = 0); a buffer smaller than that pauses
         at two MTUs below full as before, and warnings.c says it is short. Derived again by
         every finish (an override may change the buffer or the cable), unless given. */
      topo_cable_t cab[TOPO_PEERS];
      uint64_t need = 2u * (uint64_t)mtu;
      if (topo_role_cables(sc, 0, cab) > 0 && cab[0].peer == TOPO_PEER_HOST) {
        need = lfc_headroom_blocks(mtu, cab[0].delay, 0, cab[0].speed_div);
        if (n->wire_time) need = lfc_headroom_blocks_line(need, mtu); /* as warnings.c */
      }
      if (n->rx_blocks <= need) need = 2u * (uint64_t)mtu;
      n->rx_xoff = n->rx_blocks > need ? n->rx_blocks - (uint32_t)need : n->rx_blocks;
      if (sc->rx_xon_line == 0)
        n->rx_xon = n->rx_xoff > SC_HOST_XON_GAP ? n->rx_xoff - SC_HOST_XON_GAP : 0;
    }
  }
  n->response_cycles = sc->response_ns > 0 ? (uint32_t)sc_ns_to_cycles(sc, sc->response_ns) : 0;
  n->response_jitter =
      sc->response_jitter_ns > 0 ? (uint32_t)sc_ns_to_cycles(sc, sc->response_jitter_ns) : 0;
  n->drain_div = sc->drain_gbps > 0 ? (uint32_t)lround(fastest / sc->drain_gbps) : 0;
  if (sc->drain_gbps > 0 && n->drain_div < 1) n->drain_div = 1;
  n->speed_div = 1;
  char msg[512];
  if (lfc_nic_cfg_check(n, msg, sizeof msg) != 0) FERR("%s: [host]: %s", f, msg);
  for (uint32_t i = 0; i < sc->nclassmaps; i++) {
    const sc_classmap_t *m = &sc->classmaps[i];
    if (m->n > sw0->classes)
      FERR("%s:%u: [classmap] %s-%s: %u classes listed; allowed: at most %u (switch classes)",
           f, m->line, m->from, m->to, m->n, sw0->classes);
    for (uint32_t j = 0; j < i && sw0->mode == LFC_MODE_IB; j++)
      if (!strcmp(m->from, sc->classmaps[j].to) && !strcmp(m->to, sc->classmaps[j].from))
        FERR("%s:%u: [classmap] %s-%s: the cable of %s-%s (line %u); allowed in ib mode: one "
             "map per cable, which applies both ways (SPEC §5.5)", f, m->line, m->from, m->to,
             sc->classmaps[j].from, sc->classmaps[j].to, sc->classmaps[j].line);
    for (uint32_t c = 0; c < sw0->classes; c++) { /* classes not listed keep their class */
      uint32_t to = c < m->n ? m->map[c] : c;
      if (to >= sw0->classes)
        FERR("%s:%u: [classmap] %s-%s: class %u -> %u; allowed: classes 0..%u (switch "
             "classes)", f, m->line, m->from, m->to, c, to, sw0->classes - 1);
      uint32_t back = to < m->n ? m->map[to] : to;
      if (sw0->mode == LFC_MODE_IB && back != c)
        FERR("%s:%u: [classmap] %s-%s: class %u -> %u -> %u; allowed in ib mode: a map that is "
             "its own inverse (e.g. 1, 0), applied both ways: an FCP carries one VL for both "
             "directions (SPEC §5.5)", f, m->line, m->from, m->to, c, to, back);
    }
  }
  for (uint32_t i = 0; i < sc->ngroups; i++) {
    sc_group_t *g = &sc->groups[i];
    if (g->pattern == PAT_DDP && g->line[GK_BYTES] == 0) /* the gradient of a step */
      g->bytes = g->bucket_bytes * g->buckets;
    if (check_group(sc, g, hosts, sw0->classes, mtu, err, errlen) != 0) return -1;
  }
  return 0;
}
