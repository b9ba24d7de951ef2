/*
 * scoreboard.c - the end-to-end scoreboard of lfc/scoreboard.h: a FIFO of outstanding packets
 * per flow, found by an open-addressing hash of the flow key; a delivery must match the head of
 * its flow's FIFO. Violations go to the log of check.c and print like the checkers'.
 */
#include "lfc/scoreboard.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check_internal.h"

#define DEFAULT_MAX_KEPT 1000u
#define FLOWS_INITIAL 64u               /* hash slots, a power of two */
#define QUEUE_INITIAL 8u                /* packets per flow FIFO, a power of two */
#define HASH_MULT 0x9E3779B97F4A7C15ull /* Fibonacci hashing (Knuth, TAOCP vol. 3 §6.4) */

typedef struct {
  uint64_t id, time;
  uint32_t link, dir;
} sb_pkt_t;

typedef struct {
  bool used;
  uint64_t flow;
  sb_pkt_t *q; /* ring of cap entries, n from head */
  size_t head, n, cap;
  uint64_t recent[LFC_SB_RECENT]; /* ids retired last, for naming duplicates */
  unsigned recent_n, recent_next;
} sb_flow_t;

struct lfc_sb {
  lfc_sb_cfg_t cfg;
  const char *label;
  chk_log_t log;
  sb_flow_t *flows;
  size_t slots, used;
  lfc_sb_stats_t st;
  uint64_t lat_sum;
  char err[CHK_ERR_TEXT];
};

void lfc_sb_cfg_default(lfc_sb_cfg_t *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->time_unit_ps = LFC_CHECK_NS_PS;
  cfg->max_kept = DEFAULT_MAX_KEPT;
}

lfc_sb_t *lfc_sb_create(const lfc_sb_cfg_t *cfg, char *err, size_t errlen) {
  if (cfg->time_unit_ps < 1) {
    if (err != NULL) {
      snprintf(err, errlen, "scoreboard: time_unit_ps 0, allowed 1 or more (1000 for ns)");
    }
    return NULL;
  }
  lfc_sb_t *sb = lfc_calloc(1, sizeof *sb);
  sb_flow_t *flows = sb != NULL ? lfc_calloc(FLOWS_INITIAL, sizeof *flows) : NULL;
  if (flows == NULL) {
    free(sb);
    if (err != NULL) snprintf(err, errlen, "scoreboard: out of memory");
    return NULL;
  }
  sb->cfg = *cfg;
  sb->label = chk_time_label(cfg->time_label, cfg->time_unit_ps);
  chk_log_init(&sb->log, cfg->max_kept);
  sb->flows = flows;
  sb->slots = FLOWS_INITIAL;
  if (err != NULL) snprintf(err, errlen, "%s", "");
  return sb;
}

void lfc_sb_destroy(lfc_sb_t *sb) {
  if (sb == NULL) return;
  for (size_t i = 0; i != sb->slots; i++) free(sb->flows[i].q);
  free(sb->flows);
  chk_log_free(&sb->log);
  free(sb);
}

const char *lfc_sb_error(const lfc_sb_t *sb) { return sb->err; }

static size_t slot_of(uint64_t flow, size_t slots) {
  return (size_t)((flow * HASH_MULT) >> 32) & (slots - 1u);
}

static sb_flow_t *find(const lfc_sb_t *sb, uint64_t flow) {
  for (size_t i = slot_of(flow, sb->slots);; i = (i + 1u) & (sb->slots - 1u)) {
    sb_flow_t *f = &sb->flows[i];
    if (!f->used) return NULL;
    if (f->flow == flow) return f;
  }
}

/* The flow's record, made if new; NULL if memory ran out. */
static sb_flow_t *get(lfc_sb_t *sb, uint64_t flow) {
  sb_flow_t *f = find(sb, flow);
  if (f != NULL) return f;
  if (2u * (sb->used + 1u) > sb->slots) {
    /* Keep the table at most half full, so that probes stay short. */
    const size_t slots = sb->slots * 2u;
    sb_flow_t *t = lfc_calloc(slots, sizeof *t);
    if (t == NULL) return NULL;
    for (size_t i = 0; i != sb->slots; i++) {
      if (!sb->flows[i].used) continue;
      size_t j = slot_of(sb->flows[i].flow, slots);
      while (t[j].used) j = (j + 1u) & (slots - 1u);
      t[j] = sb->flows[i];
    }
    free(sb->flows);
    sb->flows = t;
    sb->slots = slots;
  }
  size_t i = slot_of(flow, sb->slots);
  while (sb->flows[i].used) i = (i + 1u) & (sb->slots - 1u);
  f = &sb->flows[i];
  memset(f, 0, sizeof *f);
  f->used = true;
  f->flow = flow;
  sb->used++;
  sb->st.flows++;
  return f;
}

static sb_pkt_t *at(const sb_flow_t *f, size_t k) { return &f->q[(f->head + k) & (f->cap - 1u)]; }

static bool push(sb_flow_t *f, const sb_pkt_t *p) {
  if (f->n == f->cap) {
    const size_t cap = f->cap == 0 ? QUEUE_INITIAL : f->cap * 2u;
    sb_pkt_t *q = lfc_malloc(cap * sizeof *q);
    if (q == NULL) return false;
    for (size_t k = 0; k != f->n; k++) q[k] = *at(f, k);
    free(f->q);
    f->q = q;
    f->cap = cap;
    f->head = 0;
  }
  *at(f, f->n) = *p;
  f->n++;
  return true;
}

/* Take out the k-th outstanding packet, keeping the order of the others. */
static sb_pkt_t take(sb_flow_t *f, size_t k) {
  const sb_pkt_t p = *at(f, k);
  if (k == 0) {
    f->head = (f->head + 1u) & (f->cap - 1u);
  } else {
    for (size_t j = k; j + 1u != f->n; j++) *at(f, j) = *at(f, j + 1u);
  }
  f->n--;
  f->recent[f->recent_next] = p.id;
  f->recent_next = (f->recent_next + 1u) % LFC_SB_RECENT;
  if (f->recent_n < LFC_SB_RECENT) f->recent_n++;
  return p;
}

/* Index of id among the flow's outstanding packets, or f->n. */
static size_t position(const sb_flow_t *f, uint64_t id) {
  size_t k = 0;
  while (k < f->n && at(f, k)->id != id) k++;
  return k;
}

static bool recent(const sb_flow_t *f, uint64_t id) {
  for (unsigned k = 0; k != f->recent_n; k++) {
    if (f->recent[k] == id) return true;
  }
  return false;
}

static int flag(lfc_sb_t *sb, uint64_t time, uint32_t link, uint32_t dir, lfc_check_rule_t rule,
                const char *expected, const char *observed) {
  chk_log_add(&sb->log, time, 0, link, dir, rule, LFC_CHECK_NO_CLASS, expected, observed);
  return 1;
}

/* A packet that is not outstanding was delivered or dropped: a duplicate or an unknown. */
static int stray(lfc_sb_t *sb, const sb_flow_t *f, uint64_t flow, uint64_t id, uint64_t time,
                 uint32_t link, uint32_t dir, const char *what) {
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  const bool dup = f != NULL && recent(f, id);
  chk_text(exp, "%s", dup ? "each packet leaves once" : "only packets accepted leave");
  chk_text(obs, "flow 0x%" PRIx64 " id %" PRIu64 " %s %s", flow, id, what,
           dup ? "again" : "but never accepted");
  return flag(sb, time, link, dir, dup ? LFC_RULE_SB_DUP : LFC_RULE_SB_UNKNOWN, exp, obs);
}

int lfc_sb_accept(lfc_sb_t *sb, uint64_t flow, uint64_t id, uint64_t time, uint32_t link,
                  uint32_t dir) {
  sb->err[0] = '\0';
  if (sb->cfg.max_outstanding != 0 && sb->st.outstanding >= sb->cfg.max_outstanding) {
    snprintf(sb->err, sizeof sb->err,
             "scoreboard: %" PRIu64 " packets outstanding already, the limit (max_outstanding)",
             sb->st.outstanding);
    return -1;
  }
  sb_flow_t *f = get(sb, flow);
  const sb_pkt_t p = {.id = id, .time = time, .link = link, .dir = dir};
  if (f == NULL || !push(f, &p)) {
    snprintf(sb->err, sizeof sb->err,
             "scoreboard: out of memory with %" PRIu64 " packets outstanding", sb->st.outstanding);
    return -1;
  }
  sb->st.accepted++;
  sb->st.outstanding++;
  return 0;
}

int lfc_sb_deliver(lfc_sb_t *sb, uint64_t flow, uint64_t id, uint64_t time, uint32_t link,
                   uint32_t dir) {
  sb->err[0] = '\0';
  sb_flow_t *f = find(sb, flow);
  const size_t k = f != NULL ? position(f, id) : 0;
  if (f == NULL || k == f->n) return stray(sb, f, flow, id, time, link, dir, "delivered");
  const uint64_t first = at(f, 0)->id, first_time = at(f, 0)->time;
  const sb_pkt_t p = take(f, k);
  sb->st.outstanding--;
  sb->st.delivered++;
  const uint64_t lat = time >= p.time ? time - p.time : 0;
  if (sb->st.latency_count == 0 || lat < sb->st.latency_min) sb->st.latency_min = lat;
  if (lat > sb->st.latency_max) sb->st.latency_max = lat;
  sb->st.latency_count++;
  sb->lat_sum += lat;
  if (k == 0) return 0;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  chk_text(exp, "flow 0x%" PRIx64 " id %" PRIu64 " first (accepted at %" PRIu64 "%s)", flow, first,
           first_time, sb->label);
  chk_text(obs, "id %" PRIu64 ", accepted %zu packets after it", id, k);
  return flag(sb, time, link, dir, LFC_RULE_SB_ORDER, exp, obs);
}

int lfc_sb_drop(lfc_sb_t *sb, uint64_t flow, uint64_t id, uint64_t time, uint32_t link,
                uint32_t dir, lfc_drop_cause_t cause) {
  sb->err[0] = '\0';
  sb_flow_t *f = find(sb, flow);
  const size_t k = f != NULL ? position(f, id) : 0;
  if (f == NULL || k == f->n) return stray(sb, f, flow, id, time, link, dir, "dropped");
  take(f, k);
  sb->st.outstanding--;
  const bool known = (unsigned)cause < LFC_DROP_CAUSES;
  if (known) {
    sb->st.dropped[cause]++;
  } else {
    sb->st.dropped_other++;
  }
  if (known && ((sb->cfg.allowed_drops >> cause) & 1u)) return 0;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  chk_text(exp, "drops only for causes in the mask 0x%" PRIx32, sb->cfg.allowed_drops);
  chk_text(obs, "flow 0x%" PRIx64 " id %" PRIu64 " dropped: %s (%d)", flow, id,
           known ? lfc_drop_cause_name(cause) : "unknown cause", (int)cause);
  return flag(sb, time, link, dir, LFC_RULE_SB_DROP, exp, obs);
}

uint64_t lfc_sb_finish(lfc_sb_t *sb, uint64_t time) {
  uint64_t lost = 0;
  char exp[LFC_CHECK_TEXT], obs[LFC_CHECK_TEXT];
  for (size_t i = 0; i != sb->slots; i++) {
    sb_flow_t *f = &sb->flows[i];
    if (!f->used) continue;
    while (f->n > 0) {
      const sb_pkt_t p = take(f, 0);
      chk_text(exp, "each packet accepted is delivered or dropped");
      chk_text(obs, "flow 0x%" PRIx64 " id %" PRIu64 " outstanding since %" PRIu64 "%s", f->flow,
               p.id, p.time, sb->label);
      flag(sb, time, p.link, p.dir, LFC_RULE_SB_LOST, exp, obs);
      lost++;
    }
  }
  sb->st.outstanding = 0;
  sb->st.lost += lost;
  return lost;
}

void lfc_sb_stats(const lfc_sb_t *sb, lfc_sb_stats_t *st) {
  *st = sb->st;
  st->latency_mean = st->latency_count ? (double)sb->lat_sum / (double)st->latency_count : 0.0;
}

uint64_t lfc_sb_violations(const lfc_sb_t *sb) { return sb->log.total; }

uint64_t lfc_sb_count(const lfc_sb_t *sb, lfc_check_rule_t rule) {
  return (unsigned)rule < LFC_RULES ? sb->log.by_rule[rule] : 0;
}

const lfc_check_violation_t *lfc_sb_violation(const lfc_sb_t *sb, size_t i) {
  return i < sb->log.n ? &sb->log.kept[i] : NULL;
}

char *lfc_sb_format(const lfc_sb_t *sb, size_t i, char *buf, size_t len) {
  const lfc_check_violation_t *v = lfc_sb_violation(sb, i);
  if (v == NULL || buf == NULL || len == 0) return NULL;
  return chk_log_format(v, sb->label, buf, len);
}
