/*
 * tb_config.c - tb/configs/<name>.ini -> tb_cfg_t, with libinih.
 *
 * Table-driven: every key is one row of KEYS below (section, name, how to parse it, its range,
 * where it goes). libinih reads the file once into a list of entries (section, key, value, line);
 * the list is then applied twice: the first pass takes [switch] mode/ports/classes so that the
 * SPEC §3 defaults can be filled in (lfc_switch_cfg_default), the second pass takes every key.
 * Collecting first is what lets a key given twice be refused with both lines, and a value go on
 * over indented continuation lines (libinih calls the handler once per line) before it is parsed.
 * Errors name the file, the line, the key, the bad value and what is allowed; the caller exits 2.
 */
#define _POSIX_C_SOURCE 200809L
#include "tb_config.h"
#include "tb_rtl_params.h"
#include "tb_cov_points.h"

#include <errno.h>
#include <stdarg.h>
#include <ini.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef enum {
  K_U32,        /* uint32_t at off, [min, max] */
  K_I32,        /* int32_t at off */
  K_U64,        /* uint64_t at off */
  K_BOOL,       /* bool at off: 0/1/true/false/yes/no */
  K_INT_BOOL,   /* int at off, 0/1 */
  K_TRAFFIC,    /* tb_traffic_mode_t */
  K_LIST_PORT,  /* uint32_t[ports] at off: one value or one per port */
  K_NIC_U32,    /* uint32_t at off within every lfc_nic_cfg_t */
  K_NIC_LIST,   /* uint32_t at off within lfc_nic_cfg_t of each port: one value or per port */
  K_REQUIRE     /* tb_cfg_t.require: a list of coverage point names, checked by tb_stim_init */
} key_kind_t;

typedef struct {
  const char *section;
  const char *name;
  key_kind_t kind;
  int64_t min, max;
  size_t off;
  const char *help; /* for the error message when not a number range */
} key_t_;

#define SW(f) (offsetof(tb_cfg_t, sw) + offsetof(lfc_switch_cfg_t, f))
#define TR(f) (offsetof(tb_cfg_t, traffic) + offsetof(tb_traffic_cfg_t, f))
#define MI(f) (offsetof(tb_cfg_t, mis) + offsetof(tb_misbehave_cfg_t, f))
#define NI(f) offsetof(lfc_nic_cfg_t, f)
#define TB(f) offsetof(tb_cfg_t, f)
#define M20 ((1 << 20) - 1)

static const key_t_ KEYS[] = {
    /* SPEC §12.1 */
    {"link", "delay", K_LIST_PORT, 1, 1000, TB(link_delay), NULL},
    /* SPEC §12.2: the link partners */
    {"nic", "rx_blocks", K_NIC_LIST, 0, 1 << 20, NI(rx_blocks), NULL},
    {"nic", "drain_div", K_NIC_LIST, 0, 65535, NI(drain_div), NULL},
    {"nic", "tx_fifo_pkts", K_NIC_U32, 1, 65536, NI(tx_fifo_pkts), NULL},
    {"nic", "fcp_period", K_NIC_U32, 1, 65535, NI(fcp_period), NULL},
    {"nic", "rx_xoff", K_NIC_U32, 0, 1 << 20, NI(rx_xoff), NULL},
    {"nic", "rx_xon", K_NIC_U32, 0, 1 << 20, NI(rx_xon), NULL},
    {"nic", "pause_quanta", K_NIC_U32, 1, 65535, NI(pause_quanta), NULL},
    {"nic", "refresh_cycles", K_NIC_U32, 1, 65535, NI(refresh_cycles), NULL},
    {"nic", "response_cycles", K_NIC_LIST, 0, 65535, NI(response_cycles), NULL},
    {"nic", "wire_time", K_NIC_U32, 0, 1, NI(wire_time), NULL},
    /* Traffic */
    {"traffic", "pattern", K_TRAFFIC, 0, TB_TRAFFIC_MODES - 1, TR(mode),
     "uniform, incast, hotspot, bursts, permutation"},
    {"traffic", "load", K_U32, 0, 1000, TR(load_permille), NULL},
    {"traffic", "min_nblk", K_U32, 1, 255, TR(min_nblk), NULL},
    {"traffic", "max_nblk", K_U32, 1, 255, TR(max_nblk), NULL},
    {"traffic", "class_mask", K_U32, 1, 0x7fff, TR(class_mask), NULL},
    {"traffic", "incast_dst", K_U32, 0, TB_MAX_PORTS - 1, TR(incast_dst), NULL},
    {"traffic", "hotspot_pct", K_U32, 0, 100, TR(hotspot_pct), NULL},
    {"traffic", "burst_pkts", K_U32, 1, 1024, TR(burst_pkts), NULL},
    {"traffic", "burst_gap", K_U32, 1, 1000000, TR(burst_gap), NULL},
    {"traffic", "ecn_pct", K_U32, 0, 100, TR(ecn_pct), NULL},
    {"traffic", "vl15_permille", K_U32, 0, 1000, TR(vl15_permille), NULL},
    {"traffic", "stop_pct", K_U32, 0, 100, TR(stop_pct), NULL},
    {"traffic", "pad_max", K_U32, 0, 63, TR(pad_max), NULL},
    /* Misbehaving partners */
    {"misbehave", "no_credit_ports", K_U32, 0, 0xffff, MI(no_credit_ports), NULL},
    {"misbehave", "no_credit_permille", K_U32, 0, 1000, MI(no_credit_permille), NULL},
    {"misbehave", "garbage_ports", K_U32, 0, 0xffff, MI(garbage_ports), NULL},
    {"misbehave", "garbage_permille", K_U32, 0, 1000, MI(garbage_permille), NULL},
    {"misbehave", "storm_port", K_I32, -1, TB_MAX_PORTS - 1, MI(storm_port), NULL},
    {"misbehave", "storm_prios", K_U32, 0, 255, MI(storm_prios), NULL},
    {"misbehave", "storm_start", K_U32, 0, UINT32_MAX, MI(storm_start), NULL},
    {"misbehave", "storm_cycles", K_U32, 0, UINT32_MAX, MI(storm_cycles), NULL},
    {"misbehave", "storm_period", K_U32, 1, 65535, MI(storm_period), NULL},
    {"misbehave", "storm_quanta", K_U32, 1, 65535, MI(storm_quanta), NULL},
    {"misbehave", "overrun_ports", K_U32, 0, 0xffff, MI(overrun_ports), NULL},
    {"misbehave", "overrun_permille", K_U32, 0, 1000, MI(overrun_permille), NULL},
    {"misbehave", "overrun_max_nblk", K_U32, 2, 255, MI(overrun_max_nblk), NULL},
    {"misbehave", "fcp_ports", K_U32, 0, 0xffff, MI(fcp_ports), NULL},
    {"misbehave", "fcp_permille", K_U32, 0, 1000, MI(fcp_permille), NULL},
    {"misbehave", "edge_fcp_ports", K_U32, 0, 0xffff, MI(edge_fcp_ports), NULL},
    {"misbehave", "edge_fcp_permille", K_U32, 0, 1000, MI(edge_fcp_permille), NULL},
    {"misbehave", "pfc_ports", K_U32, 0, 0xffff, MI(pfc_ports), NULL},
    {"misbehave", "pfc_permille", K_U32, 0, 1000, MI(pfc_permille), NULL},
    {"misbehave", "bad_mrg_ports", K_U32, 0, 0xffff, MI(bad_mrg_ports), NULL},
    {"misbehave", "bad_mrg_permille", K_U32, 0, 1000, MI(bad_mrg_permille), NULL},
    /* Run */
    {"run", "cycles", K_U64, 1, INT64_MAX, TB(cycles), NULL},
    {"run", "test_cycles", K_U64, 1, INT64_MAX, TB(test_cycles), NULL},
    {"run", "dbg_per_cycle", K_U32, 1, 40, TB(dbg_per_cycle), NULL},
    {"run", "lossless", K_INT_BOOL, 0, 1, TB(lossless), NULL},
    {"run", "fc_streak_limit", K_U32, 0, UINT32_MAX, TB(fc_streak_limit), NULL},
    {"run", "require", K_REQUIRE, 0, 0, TB(require), "coverage point names, comma-separated"},
    {"run", "drained", K_INT_BOOL, 0, 1, TB(drained), NULL},
};
#define NKEYS (sizeof KEYS / sizeof KEYS[0])

static const char *const TRAFFIC_NAMES[TB_TRAFFIC_MODES] = {"uniform", "incast", "hotspot",
                                                            "bursts", "permutation"};

const char *tb_traffic_mode_name(tb_traffic_mode_t mode) {
  return (unsigned)mode < TB_TRAFFIC_MODES ? TRAFFIC_NAMES[mode] : "?";
}

/* Longest value applied, continuation lines included (as lfc_switch_cfg_set's limit). */
#define VALUE_MAX 1024
/* Characters of a value quoted in an error message. */
#define VALUE_ECHO 200

/* One `key = value` of the file, its continuation lines joined on. */
typedef struct {
  char section[64]; /* libinih's limit is 50 */
  char name[64];
  char *value;      /* malloc'd */
  int line;         /* the line of `key = value`, which every message about the key names */
} entry_t;

/* Parser state shared by the reader, the handler and the passes. */
typedef struct {
  FILE *f;
  int line;         /* reading: lines read so far; applying: the line of the entry applied */
  int continuation; /* the line libinih parses now continues the previous key's value */
  int after_key;    /* a key was given since the last [section] (libinih's prev_name) */
  int pass;         /* 1: mode/ports/classes only; 2: everything */
  tb_cfg_t *cfg;
  entry_t *entries; /* in the order of the file */
  size_t n, cap;
  char err[4096]; /* room for the list of every coverage point (require_known) */
  int err_line;
} parse_t;

/* After fgets filled its buffer without a newline: whether the line ends there anyway (end of
   file, or its newline or CR LF is all that is left), reading that newline. */
static int line_ends(FILE *f) {
  int c = getc(f);
  if (c == '\r') c = getc(f);
  if (c == EOF || c == '\n') return 1;
  ungetc(c, f);
  return 0;
}

/* libinih's reader, plus what libinih does not tell the handler: the line number, and whether
   the line is a continuation. libinih (INI_ALLOW_MULTILINE) takes a line that starts with a blank
   and is neither blank nor a comment, after a key and before the next [section], as more of
   that key's value, and calls the handler again with the key's name. A line longer than
   libinih's buffer (num - 1 characters) stops the parse with an error. */
static char *reader(char *str, int num, void *stream) {
  parse_t *ps = stream;
  char *r = fgets(str, num, ps->f);
  if (!r) return NULL;
  ps->line++;
  if (!strchr(str, '\n') && !line_ends(ps->f)) {
    /* libinih would take the rest as a line of its own: a cut comment became an unknown key. */
    if (!ps->err[0]) {
      snprintf(ps->err, sizeof ps->err, "%s:%d: line longer than %d characters (the limit of "
               "libinih); a list may go on over indented lines", ps->cfg->path, ps->line,
               num - 1);
      ps->err_line = ps->line;
    }
    return NULL;
  }
  const char *s = str;
  while (*s == ' ' || *s == '\t') s++;
  int blank = *s == '\0' || *s == '\n' || *s == '\r';
  int comment = *s == ';' || *s == '#';
  ps->continuation = s > str && !blank && !comment && ps->after_key;
  if (!ps->continuation && *s == '[') ps->after_key = 0;
  return r;
}

static int fail(parse_t *ps, const char *section, const char *name, const char *value,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail(parse_t *ps, const char *section, const char *name, const char *value,
                const char *fmt, ...) {
  if (ps->err[0] == '\0') {
    char what[3072];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    /* A value joined from continuation lines can be long: quote its start. */
    int echo = strlen(value) > VALUE_ECHO ? VALUE_ECHO : (int)strlen(value);
    snprintf(ps->err, sizeof ps->err, "%s:%d: [%s] %s = %.*s%s: %s", ps->cfg->path, ps->line,
             section, name, echo, value, value[echo] ? "..." : "", what);
    ps->err_line = ps->line;
  }
  return 0;
}

/* [run] require: every name is a coverage point of tb_cov_points.h. Checked here, not when the
   run starts, so that tb-params check (make's check before a build) refuses a misspelt point
   with its file and line instead of a run never requiring it. */
static const char *const COV_POINT_NAMES[] = {
#define TB_COV_NAME(e, name) name,
    TB_COV_POINTS(TB_COV_NAME)
#undef TB_COV_NAME
};

static int require_known(parse_t *ps, const key_t_ *k, const char *value) {
  char buf[VALUE_MAX];
  snprintf(buf, sizeof buf, "%s", value);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
    size_t i = 0, n = sizeof COV_POINT_NAMES / sizeof COV_POINT_NAMES[0];
    while (i < n && strcmp(COV_POINT_NAMES[i], tok) != 0) i++;
    if (i < n) continue;
    char list[2048];
    size_t used = 0;
    for (i = 0; i < n && used < sizeof list; i++)
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                               COV_POINT_NAMES[i]);
    return fail(ps, k->section, k->name, value, "no coverage point '%.64s'; points: %s", tok,
                list);
  }
  return 1;
}

/* Split a comma-separated list into at most maxn integers. Returns the count or -1/-2. */
static int parse_list(const char *s, int64_t min, int64_t max, int64_t *out, int maxn) {
  char buf[VALUE_MAX];
  snprintf(buf, sizeof buf, "%s", s);
  int n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (n >= maxn) return -3;
    int rc = lfc_parse_int(tok, min, max, &out[n]);
    if (rc) return rc;
    n++;
  }
  return n == 0 ? -1 : n;
}

static int parse_bool(const char *s, int *out) {
  if (!strcasecmp(s, "1") || !strcasecmp(s, "true") || !strcasecmp(s, "yes") ||
      !strcasecmp(s, "on")) {
    *out = 1;
    return 0;
  }
  if (!strcasecmp(s, "0") || !strcasecmp(s, "false") || !strcasecmp(s, "no") ||
      !strcasecmp(s, "off")) {
    *out = 0;
    return 0;
  }
  return -1;
}

static int set_list(parse_t *ps, const key_t_ *k, const char *value, uint32_t count,
                    const char *unit, int64_t *vals) {
  int n = parse_list(value, k->min, k->max, vals, 64);
  if (n == -2 || n == -1)
    return fail(ps, k->section, k->name, value,
                "expected one integer in %" PRId64 "..%" PRId64 " or a comma-separated list of "
                "%u of them (one per %s)", k->min, k->max, count, unit);
  if (n != 1 && (uint32_t)n != count)
    return fail(ps, k->section, k->name, value,
                "%d values given; expected 1 (for every %s) or %u (one per %s)", n < 0 ? 64 : n,
                unit, count, unit);
  return n;
}

static int apply(parse_t *ps, const key_t_ *k, const char *value) {
  tb_cfg_t *c = ps->cfg;
  char *base = (char *)c;
  int64_t v;
  int64_t vals[64];
  int b, n;
  switch (k->kind) {
    case K_U32:
    case K_I32:
    case K_U64:
      if (lfc_parse_int(value, k->min, k->max, &v))
        return fail(ps, k->section, k->name, value, "expected an integer in %" PRId64 "..%" PRId64,
                    k->min, k->max);
      if (k->kind == K_U32) *(uint32_t *)(base + k->off) = (uint32_t)v;
      if (k->kind == K_I32) *(int32_t *)(base + k->off) = (int32_t)v;
      if (k->kind == K_U64) *(uint64_t *)(base + k->off) = (uint64_t)v;
      return 1;
    case K_BOOL:
    case K_INT_BOOL:
      if (parse_bool(value, &b))
        return fail(ps, k->section, k->name, value, "expected 0 or 1 (or true/false, yes/no)");
      if (k->kind == K_BOOL)
        *(bool *)(base + k->off) = b != 0;
      else
        *(int *)(base + k->off) = b;
      return 1;
    case K_TRAFFIC:
      for (int i = 0; i < TB_TRAFFIC_MODES; i++)
        if (!strcasecmp(value, TRAFFIC_NAMES[i])) {
          c->traffic.mode = (tb_traffic_mode_t)i;
          return 1;
        }
      return fail(ps, k->section, k->name, value, "allowed values: %s", k->help);
    case K_LIST_PORT:
      n = set_list(ps, k, value, c->sw.ports, "port", vals);
      if (n <= 0) return 0;
      for (uint32_t p = 0; p < TB_MAX_PORTS; p++)
        ((uint32_t *)(base + k->off))[p] =
            (uint32_t)(n == 1 ? vals[0] : (p < (uint32_t)n ? vals[p] : vals[0]));
      return 1;
    case K_NIC_U32:
      if (lfc_parse_int(value, k->min, k->max, &v))
        return fail(ps, k->section, k->name, value, "expected an integer in %" PRId64 "..%" PRId64,
                    k->min, k->max);
      for (uint32_t p = 0; p < TB_MAX_PORTS; p++)
        *(uint32_t *)((char *)&c->nic[p] + k->off) = (uint32_t)v;
      return 1;
    case K_NIC_LIST:
      n = set_list(ps, k, value, c->sw.ports, "port", vals);
      if (n <= 0) return 0;
      for (uint32_t p = 0; p < TB_MAX_PORTS; p++)
        *(uint32_t *)((char *)&c->nic[p] + k->off) =
            (uint32_t)(n == 1 ? vals[0] : (p < (uint32_t)n ? vals[p] : vals[0]));
      return 1;
    case K_REQUIRE:
      if (strlen(value) >= sizeof c->require)
        return fail(ps, k->section, k->name, value, "longer than %zu characters",
                    sizeof c->require - 1);
      if (!require_known(ps, k, value)) return 0;
      snprintf(c->require, sizeof c->require, "%s", value);
      c->require_line = ps->line;
      return 1;
  }
  return fail(ps, k->section, k->name, value, "internal: unknown key kind");
}

/* Apply one entry (section, name, value) in the current pass; its line is ps->line. */
static int apply_key(parse_t *ps, const char *section, const char *name, const char *value) {
  if (strlen(value) >= VALUE_MAX)
    return fail(ps, section, name, value, "value longer than %d characters", VALUE_MAX - 1);
  /* The switch's own parameters (SPEC §3): the model's table, lfc_switch_cfg_set. Pass 1 takes
     mode, ports and classes, on which the defaults and the per-port/per-class lists depend. */
  if (lfc_switch_cfg_keys(section, NULL, 0) > 0) {
    bool dims = !strcmp(section, "switch") &&
                (!strcmp(name, "mode") || !strcmp(name, "ports") || !strcmp(name, "classes"));
    if (ps->pass == 1 && !dims) return 1;
    /* The RTL has fewer ports than the model (LFC_MAX_PORTS): say what this program allows,
       for 1 as for 17. */
    int64_t v;
    if (!strcmp(section, "switch") && !strcmp(name, "ports") &&
        lfc_parse_int(value, 2, TB_MAX_PORTS, &v) != 0)
      return fail(ps, section, name, value, "expected an integer in 2..%u (the RTL has 2..%u "
                  "ports)", TB_MAX_PORTS, TB_MAX_PORTS);
    char err[1024];
    if (lfc_switch_cfg_set(&ps->cfg->sw, section, name, value, err, sizeof err) != 0)
      return fail(ps, section, name, value, "%s", err);
    return 1;
  }
  const key_t_ *k = NULL;
  int section_known = 0;
  for (size_t i = 0; i < NKEYS; i++) {
    if (strcmp(KEYS[i].section, section) != 0) continue;
    section_known = 1;
    if (strcmp(KEYS[i].name, name) == 0) k = &KEYS[i];
  }
  if (!section_known) {
    if (ps->pass == 1) return 1; /* reported in pass 2 */
    return fail(ps, section, name, value,
                "unknown section [%s]; sections: switch, ib, pfc, link, nic, traffic, "
                "misbehave, run", section);
  }
  if (!k) {
    if (ps->pass == 1) return 1;
    char keys[1024] = "";
    for (size_t i = 0; i < NKEYS; i++) {
      if (strcmp(KEYS[i].section, section) != 0) continue;
      if (keys[0]) strncat(keys, ", ", sizeof keys - strlen(keys) - 1);
      strncat(keys, KEYS[i].name, sizeof keys - strlen(keys) - 1);
    }
    return fail(ps, section, name, value, "unknown key; keys of [%s]: %s", section, keys);
  }
  if (ps->pass == 1) {
    if (strcmp(section, "switch") != 0) return 1;
    if (strcmp(name, "mode") && strcmp(name, "ports") && strcmp(name, "classes")) return 1;
  }
  return apply(ps, k, value);
}

/* libinih's handler: collect the entries. A continuation line extends the previous entry. */
static int handler(void *user, const char *section, const char *name, const char *value) {
  parse_t *ps = user;
  if (ps->err[0]) return 1; /* report only the first error */
  if (ps->continuation && ps->n > 0) {
    /* Joined with a comma, so that a list goes on over lines with or without a trailing one. */
    entry_t *e = &ps->entries[ps->n - 1];
    size_t have = strlen(e->value), add = strlen(value);
    int comma = have > 0 && e->value[have - 1] != ',';
    char *v = realloc(e->value, have + (size_t)comma + add + 1);
    if (!v) return fail(ps, section, name, value, "out of memory");
    if (comma) v[have++] = ',';
    memcpy(v + have, value, add + 1);
    e->value = v;
    return 1;
  }
  ps->after_key = 1;
  for (size_t i = 0; i < ps->n; i++)
    if (!strcmp(ps->entries[i].section, section) && !strcmp(ps->entries[i].name, name))
      return fail(ps, section, name, value, "given twice (first on line %d)",
                  ps->entries[i].line);
  if (ps->n == ps->cap) {
    size_t cap = ps->cap ? 2 * ps->cap : 64;
    entry_t *e = realloc(ps->entries, cap * sizeof *e);
    if (!e) return fail(ps, section, name, value, "out of memory");
    ps->entries = e;
    ps->cap = cap;
  }
  entry_t *e = &ps->entries[ps->n];
  snprintf(e->section, sizeof e->section, "%s", section);
  snprintf(e->name, sizeof e->name, "%s", name);
  e->line = ps->line;
  e->value = strdup(value);
  if (!e->value) return fail(ps, section, name, value, "out of memory");
  ps->n++;
  return 1;
}

/* Read the file into ps->entries. */
static int read_file(parse_t *ps) {
  ps->f = fopen(ps->cfg->path, "r");
  if (!ps->f) {
    fprintf(stderr, "%s: cannot open: %s\n", ps->cfg->path, strerror(errno));
    return 2;
  }
  /* fopen opens a directory for reading; its first read fails, which fgets reports as the end
     of an empty file: tb-params check tb/configs passed and the run took the defaults. */
  struct stat st;
  if (fstat(fileno(ps->f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(ps->f);
    fprintf(stderr, "%s: is a directory, not a configuration file\n", ps->cfg->path);
    return 2;
  }
  ps->line = 0;
  int rc = ini_parse_stream(reader, ps, handler, ps);
  int read_error = ferror(ps->f) ? (errno ? errno : EIO) : 0;
  fclose(ps->f);
  if (read_error) {
    fprintf(stderr, "%s: cannot read: %s\n", ps->cfg->path, strerror(read_error));
    return 2;
  }
  /* libinih goes on after a syntax error and returns the first one's line: the earlier of the
     two errors is the one to report. */
  if (rc != 0 && (!ps->err[0] || rc < ps->err_line)) {
    fprintf(stderr, "%s:%d: syntax error (expected [section] or key = value)\n", ps->cfg->path,
            rc);
    return 2;
  }
  if (ps->err[0]) {
    fprintf(stderr, "%s\n", ps->err);
    return 2;
  }
  return 0;
}

/* Apply every entry, in the order of the file, for one pass. */
static int run_pass(parse_t *ps, int pass) {
  ps->pass = pass;
  for (size_t i = 0; i < ps->n && !ps->err[0]; i++) {
    const entry_t *e = &ps->entries[i];
    ps->line = e->line;
    apply_key(ps, e->section, e->name, e->value);
  }
  if (ps->err[0]) {
    fprintf(stderr, "%s\n", ps->err);
    return 2;
  }
  return 0;
}

static int cfg_fail(const tb_cfg_t *c, const char *msg) {
  fprintf(stderr, "%s: %s\n", c->path, msg);
  return 2;
}

/* The line of [section] name in the file; 0 when it was not given (its default is used). */
static int line_of(const parse_t *ps, const char *section, const char *name) {
  for (size_t i = 0; i < ps->n; i++)
    if (!strcmp(ps->entries[i].section, section) && !strcmp(ps->entries[i].name, name))
      return ps->entries[i].line;
  return 0;
}

/* The first line that is known: the key a rule blames, else the other key it involves. */
static int either(int a, int b) { return a ? a : b; }

/* A rule that involves several keys failed: "file:LINE: msg" on the line of the key it blames
   (the caller's choice), or "file: msg" when none of its keys is in the file. */
static int rule_fail(const parse_t *ps, int line, const char *msg) {
  if (line == 0) return cfg_fail(ps->cfg, msg);
  fprintf(stderr, "%s:%d: %s\n", ps->cfg->path, line, msg);
  return 2;
}

/* The line for a message of lfc_switch_cfg_check or lfc_nic_cfg_check, which name the
   parameter first ("vl_blocks[2] = 10 is below mtu_blocks = 65", "vlarb_high_len = ..."): the
   first word of msg that is a key given in one of the sections (NULL-terminated). */
static int line_in_message(const parse_t *ps, const char *msg, const char *const *sections) {
  const char *w = msg;
  while (*w) {
    size_t len = strspn(w, "abcdefghijklmnopqrstuvwxyz0123456789_");
    if (len > 0 && len < 64) {
      char word[64];
      memcpy(word, w, len);
      word[len] = '\0';
      if (len > 4 && !strcmp(word + len - 4, "_len")) word[len - 4] = '\0';
      for (const char *const *sec = sections; *sec; sec++) {
        int line = line_of(ps, *sec, word);
        if (line) return line;
      }
    }
    w += len ? len : 1;
  }
  return 0;
}

/* Everything of tb_config_load but the setting up and the freeing of the entries. */
static int load(parse_t *ps) {
  tb_cfg_t *cfg = ps->cfg;
  int rc = read_file(ps);
  if (rc) return rc;
  cfg->sw.mode = LFC_MODE_IB;
  cfg->sw.ports = 4;
  cfg->sw.classes = 2;
  rc = run_pass(ps, 1);
  if (rc) return rc;
  lfc_mode_t mode = cfg->sw.mode;
  uint32_t ports = cfg->sw.ports, classes = cfg->sw.classes;
  uint32_t max_classes = mode == LFC_MODE_IB ? LFC_IB_MAX_VLS : LFC_PFC_MAX_PRIOS;
  if (classes > max_classes) {
    char m[200];
    snprintf(m, sizeof m, "[switch] classes = %u: allowed 1..%u in %s mode", classes,
             max_classes, mode == LFC_MODE_IB ? "ib" : "pfc");
    return rule_fail(ps, line_of(ps, "switch", "classes"), m);
  }

  /* Defaults: the SPEC §3 ones for the switch, SPEC §12.2 for the partners, and ours. */
  lfc_switch_cfg_default(&cfg->sw, mode, ports, classes);
  for (uint32_t p = 0; p < TB_MAX_PORTS; p++) {
    cfg->link_delay[p] = 1;
    lfc_nic_cfg_default(&cfg->nic[p], mode, classes);
  }
  cfg->traffic.mode = TB_TRAFFIC_UNIFORM;
  cfg->traffic.load_permille = 500;
  cfg->traffic.min_nblk = 1;
  cfg->traffic.max_nblk = 8;
  cfg->traffic.class_mask = (1u << classes) - 1u;
  cfg->traffic.incast_dst = 0;
  cfg->traffic.hotspot_pct = 50;
  cfg->traffic.burst_pkts = 8;
  cfg->traffic.burst_gap = 200;
  cfg->traffic.ecn_pct = 0;
  cfg->traffic.vl15_permille = 0;
  cfg->traffic.stop_pct = 80;
  cfg->mis.storm_port = -1;
  cfg->mis.storm_period = 32;
  cfg->mis.storm_quanta = 65535;
  cfg->mis.overrun_max_nblk = 8;
  cfg->cycles = 20000;
  cfg->test_cycles = 3000;
  cfg->dbg_per_cycle = 4;
  cfg->lossless = 0;
  cfg->fc_streak_limit = 1000;

  rc = run_pass(ps, 2);
  if (rc) return rc;
  if (cfg->sw.mode != mode || cfg->sw.ports != ports || cfg->sw.classes != classes)
    return cfg_fail(cfg, "internal: [switch] mode/ports/classes changed between passes");

  /* Rules that involve several keys. */
  char err[512], m[700];
  const tb_traffic_cfg_t *t = &cfg->traffic;
  if (t->min_nblk > t->max_nblk) {
    snprintf(m, sizeof m, "[traffic] min_nblk = %u is above max_nblk = %u", t->min_nblk,
             t->max_nblk);
    return rule_fail(ps, either(line_of(ps, "traffic", "min_nblk"),
                                line_of(ps, "traffic", "max_nblk")), m);
  }
  if (t->max_nblk > cfg->sw.mtu_blocks) {
    snprintf(m, sizeof m, "[traffic] max_nblk = %u is above [switch] mtu_blocks = %u",
             t->max_nblk, cfg->sw.mtu_blocks);
    return rule_fail(ps, either(line_of(ps, "traffic", "max_nblk"),
                                line_of(ps, "switch", "mtu_blocks")), m);
  }
  if (t->class_mask >> classes) {
    snprintf(m, sizeof m, "[traffic] class_mask = 0x%x names a class >= classes = %u",
             t->class_mask, classes);
    return rule_fail(ps, either(line_of(ps, "traffic", "class_mask"),
                                line_of(ps, "switch", "classes")), m);
  }
  if (t->incast_dst >= ports) {
    snprintf(m, sizeof m, "[traffic] incast_dst = %u: allowed 0..%u (ports - 1)", t->incast_dst,
             ports - 1);
    return rule_fail(ps, either(line_of(ps, "traffic", "incast_dst"),
                                line_of(ps, "switch", "ports")), m);
  }
  if (t->vl15_permille && (mode != LFC_MODE_IB || cfg->sw.vl15_blocks == 0))
    return rule_fail(ps, line_of(ps, "traffic", "vl15_permille"),
                     "[traffic] vl15_permille > 0 needs [switch] mode = ib and [ib] "
                     "vl15_blocks > 0");
  const tb_misbehave_cfg_t *mi = &cfg->mis;
  if ((mi->no_credit_ports | mi->garbage_ports | mi->overrun_ports | mi->fcp_ports |
       mi->pfc_ports | mi->edge_fcp_ports | mi->bad_mrg_ports) >> ports) {
    /* The line of the first mask that names a port beyond ports. */
    const struct {
      const char *name;
      uint32_t mask;
    } masks[] = {{"no_credit_ports", mi->no_credit_ports}, {"garbage_ports", mi->garbage_ports},
                 {"overrun_ports", mi->overrun_ports},     {"fcp_ports", mi->fcp_ports},
                 {"pfc_ports", mi->pfc_ports},
                 {"edge_fcp_ports", mi->edge_fcp_ports},
                 {"bad_mrg_ports", mi->bad_mrg_ports}};
    int line = 0;
    for (size_t i = 0; i < sizeof masks / sizeof masks[0] && !line; i++)
      if (masks[i].mask >> ports) line = line_of(ps, "misbehave", masks[i].name);
    snprintf(m, sizeof m, "[misbehave] no_credit_ports/garbage_ports/overrun_ports/fcp_ports/"
             "pfc_ports/edge_fcp_ports/bad_mrg_ports name a port >= ports = %u", ports);
    return rule_fail(ps, either(line, line_of(ps, "switch", "ports")), m);
  }
  if (mi->overrun_ports && mi->overrun_max_nblk > cfg->sw.mtu_blocks) {
    snprintf(m, sizeof m, "[misbehave] overrun_max_nblk = %u is above [switch] mtu_blocks = %u",
             mi->overrun_max_nblk, cfg->sw.mtu_blocks);
    return rule_fail(ps, either(line_of(ps, "misbehave", "overrun_max_nblk"),
                                line_of(ps, "switch", "mtu_blocks")), m);
  }
  /* The overrun queue keeps the order of the partner's words but drops its IDLE words to catch
     up, so the partner's packets stay contiguous only where every cycle is a slot. */
  for (uint32_t p = 0; p < ports; p++)
    if (((mi->overrun_ports >> p) & 1u) && cfg->sw.speed_div[p] != 1) {
      snprintf(m, sizeof m, "[misbehave] overrun_ports = 0x%x: port %u has speed_div %u; "
               "overrun needs speed_div 1", mi->overrun_ports, p, cfg->sw.speed_div[p]);
      return rule_fail(ps, either(line_of(ps, "misbehave", "overrun_ports"),
                                  line_of(ps, "switch", "speed_div")), m);
    }
  if (mi->fcp_ports && mode != LFC_MODE_IB)
    return rule_fail(ps, line_of(ps, "misbehave", "fcp_ports"),
                     "[misbehave] fcp_ports needs [switch] mode = ib");
  if (mi->edge_fcp_ports && mode != LFC_MODE_IB)
    return rule_fail(ps, line_of(ps, "misbehave", "edge_fcp_ports"),
                     "[misbehave] edge_fcp_ports needs [switch] mode = ib");
  if (cfg->mis.storm_port >= (int32_t)ports) {
    snprintf(m, sizeof m, "[misbehave] storm_port = %d: allowed -1 (none) or 0..%u",
             cfg->mis.storm_port, ports - 1);
    return rule_fail(ps, line_of(ps, "misbehave", "storm_port"), m);
  }
  if (cfg->mis.storm_port >= 0 && mode != LFC_MODE_PFC)
    return rule_fail(ps, line_of(ps, "misbehave", "storm_port"),
                     "[misbehave] storm_port needs [switch] mode = pfc");
  if (cfg->mis.storm_prios >> classes) {
    snprintf(m, sizeof m, "[misbehave] storm_prios = 0x%x names a priority >= classes = %u",
             cfg->mis.storm_prios, classes);
    return rule_fail(ps, either(line_of(ps, "misbehave", "storm_prios"),
                                line_of(ps, "switch", "classes")), m);
  }
  if (lfc_switch_cfg_check(&cfg->sw, err, sizeof err) != 0) {
    static const char *const sw_sections[] = {"switch", "ib", "pfc", NULL};
    snprintf(m, sizeof m, "switch configuration rejected by lfc_switch_cfg_check: %s", err);
    return rule_fail(ps, either(line_in_message(ps, err, sw_sections),
                                either(line_of(ps, "switch", "classes"),
                                       line_of(ps, "switch", "ports"))), m);
  }
  for (uint32_t p = 0; p < ports; p++) {
    lfc_nic_cfg_t *n = &cfg->nic[p];
    n->mode = mode;
    n->classes = classes;
    n->speed_div = cfg->sw.speed_div[p];
    n->mtu_blocks = cfg->sw.mtu_blocks;
    if (lfc_nic_cfg_check(n, err, sizeof err) != 0) {
      static const char *const nic_sections[] = {"nic", "switch", "pfc", "ib", NULL};
      snprintf(m, sizeof m, "[nic] partner of port %u rejected by lfc_nic_cfg_check: %s", p, err);
      return rule_fail(ps, line_in_message(ps, err, nic_sections), m);
    }
  }
  return 0;
}

int tb_config_load(const char *path, tb_cfg_t *cfg) {
  memset(cfg, 0, sizeof *cfg);
  snprintf(cfg->path, sizeof cfg->path, "%s", path);
  const char *slash = strrchr(path, '/');
  snprintf(cfg->name, sizeof cfg->name, "%s", slash ? slash + 1 : path);
  char *dot = strrchr(cfg->name, '.');
  if (dot && !strcmp(dot, ".ini")) *dot = '\0';

  parse_t ps;
  memset(&ps, 0, sizeof ps);
  ps.cfg = cfg;
  int rc = load(&ps);
  for (size_t i = 0; i < ps.n; i++) free(ps.entries[i].value);
  free(ps.entries);
  return rc;
}

/* ---- RTL parameters (SPEC §13) ---- */

typedef struct {
  char *buf;
  size_t len, used;
  int overflow;
  const char *sim, *top;
} pbuf_t;

static void param(pbuf_t *b, const char *name, const char *value) {
  int n;
  if (!strcmp(b->sim, "verilator"))
    n = snprintf(b->buf + b->used, b->len - b->used, "%s-G%s=%s", b->used ? " " : "", name, value);
  else
    n = snprintf(b->buf + b->used, b->len - b->used, "%s-P%s.%s=%s", b->used ? " " : "", b->top,
                 name, value);
  if (n < 0 || (size_t)n >= b->len - b->used) {
    b->overflow = 1;
    return;
  }
  b->used += (size_t)n;
}

static void param_u(pbuf_t *b, const char *name, uint64_t v) {
  char s[32];
  snprintf(s, sizeof s, "%" PRIu64, v);
  param(b, name, s);
}

/* A value of a parameter declared with a width: a sized literal, so that Verilator's -Wall
   sees no width change. */
static void param_sized(pbuf_t *b, const char *name, uint64_t v, unsigned bits) {
  char s[48];
  snprintf(s, sizeof s, "%u'h%" PRIx64, bits, v);
  param(b, name, s);
}

/* A packed vector of `count` fields of `width` bits, field 0 in the low bits, as a sized hex
   literal: "<bits>'h<digits>". */
static void param_packed(pbuf_t *b, const char *name, const uint32_t *vals, unsigned count,
                         unsigned width) {
  unsigned bits = count * width;
  unsigned digits = (bits + 3) / 4;
  char s[1200];
  int pos = snprintf(s, sizeof s, "%u'h", bits);
  for (int d = (int)digits - 1; d >= 0; d--) {
    unsigned nib = 0;
    for (unsigned i = 0; i < 4; i++) {
      unsigned bit = (unsigned)d * 4 + i;
      if (bit >= bits) break;
      unsigned f = bit / width, fb = bit % width;
      if ((vals[f] >> fb) & 1u) nib |= 1u << i;
    }
    s[pos++] = "0123456789abcdef"[nib];
  }
  s[pos] = '\0';
  param(b, name, s);
}

/* The integer value of a scalar field of the model's configuration (tb_rtl_params.h's kind). */
static int64_t field_int(const lfc_switch_cfg_t *s, const tb_rtl_param_t *p) {
  const char *f = (const char *)s + p->off;
  switch (p->kind) {
    case 'b': return *(const uint8_t *)f;
    case 'i': return *(const int32_t *)f;
    case 'B': return *(const bool *)f ? 1 : 0;
    case 'e': return (int64_t)(*(const int *)f); /* lfc_mode_t, lfc_wd_action_t: 0 or 1 */
    default: return *(const uint32_t *)f;
  }
}

/* lfc_switch's parameters, in the order and encoding of tables/params.toml (tb_rtl_params.h). */
int tb_config_rtl_params(const tb_cfg_t *cfg, const char *sim, const char *top, char *buf,
                         size_t len) {
  if (strcmp(sim, "verilator") && strcmp(sim, "icarus")) return -1;
  pbuf_t b = {buf, len, 0, 0, sim, top};
  buf[0] = '\0';
  const lfc_switch_cfg_t *s = &cfg->sw;
  uint32_t v[LFC_VLARB_MAX_ENTRIES];
  for (size_t i = 0; i < TB_RTL_PARAM_COUNT; i++) {
    const tb_rtl_param_t *p = &TB_RTL_PARAMS[i];
    const char *f = (const char *)s + p->off;
    switch (p->enc) {
      case TB_RTL_INT: {
        /* Signed values as a plain (possibly negative) decimal. */
        char d[32];
        snprintf(d, sizeof d, "%" PRId64, field_int(s, p));
        param(&b, p->name, d);
        break;
      }
      case TB_RTL_SIZED:
        param_sized(&b, p->name, (uint64_t)field_int(s, p), p->bits);
        break;
      case TB_RTL_LIST: /* every slot, unused ones as configured or defaulted */
        for (unsigned k = 0; k < p->fields; k++) v[k] = ((const uint32_t *)f)[k];
        param_packed(&b, p->name, v, p->fields, p->bits);
        break;
      case TB_RTL_PORTS: /* every port of the RTL; ports beyond Ports: 1 */
        for (unsigned k = 0; k < p->fields; k++)
          v[k] = k < s->ports ? ((const uint8_t *)f)[k] : 1;
        param_packed(&b, p->name, v, p->fields, p->bits);
        break;
      case TB_RTL_VLARB: { /* {vl[3:0], weight[7:0]} per entry, beyond the length 0 */
        const lfc_vlarb_entry_t *e = (const lfc_vlarb_entry_t *)f;
        uint32_t n = *(const uint32_t *)((const char *)s + p->len_off);
        for (unsigned k = 0; k < p->fields; k++)
          v[k] = k < n ? ((uint32_t)e[k].vl << 8) | e[k].weight : 0;
        param_u(&b, p->len_name, n);
        param_packed(&b, p->name, v, p->fields, p->bits);
        break;
      }
    }
  }
  return b.overflow ? -1 : 0;
}

uint32_t tb_config_params_id(const tb_cfg_t *cfg) {
  /* FNV-1a, 32 bits (Fowler, Noll, Vo): offset basis and prime of the published algorithm. */
  const uint32_t fnv_basis = 2166136261u, fnv_prime = 16777619u;
  static char buf[16384];
  if (tb_config_rtl_params(cfg, "verilator", "", buf, sizeof buf)) return 0;
  uint32_t h = fnv_basis;
  for (const char *c = buf; *c; c++) h = (h ^ (uint8_t)*c) * fnv_prime;
  return h ? h : 1u;
}
