/*
 * check_log.c - the violation log of the protocol checkers and the scoreboard (check_internal.h),
 * and what the two link monitors (check_ib.c, check_pfc.c) record with it: a violation of the
 * frame being checked, and the checker's times in picoseconds and in the user's unit.
 *
 * Apart from check.c so that the monitors depend on the log and not on check.c, which hands
 * them the frames: check.c -> check_ib.c, check_pfc.c -> check_log.c (docs/cmodel-layers.md).
 * The log's one-line form stays with the table of rules it names, in check.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check_internal.h"

/* ---- the violation log ---- */

void chk_text(char out[LFC_CHECK_TEXT], const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out, LFC_CHECK_TEXT, fmt, ap);
  va_end(ap);
}

void chk_log_init(chk_log_t *log, size_t max_kept) {
  memset(log, 0, sizeof *log);
  log->max = max_kept;
}

void chk_log_free(chk_log_t *log) {
  free(log->kept);
  log->kept = NULL;
  log->n = log->cap = 0;
}

void chk_log_add(chk_log_t *log, uint64_t time, uint64_t frame, uint32_t link, uint32_t dir,
                 lfc_check_rule_t rule, uint32_t cls, const char *expected, const char *observed) {
  log->total++;
  if ((unsigned)rule < LFC_RULES) log->by_rule[rule]++;
  if (log->n >= log->max) return;
  if (log->n == log->cap) {
    /* Grow geometrically up to max: the log is kept whole or not at all, never torn. */
    size_t cap = log->cap == 0 ? 16u : log->cap * 2u;
    if (cap > log->max) cap = log->max;
    lfc_check_violation_t *k = lfc_realloc(log->kept, cap * sizeof *k);
    if (k == NULL) return; /* counted, not kept */
    log->kept = k;
    log->cap = cap;
  }
  lfc_check_violation_t *v = &log->kept[log->n++];
  memset(v, 0, sizeof *v);
  v->time = time;
  v->frame = frame;
  v->link = link;
  v->dir = dir;
  v->rule = rule;
  v->cls = cls;
  snprintf(v->expected, sizeof v->expected, "%s", expected);
  snprintf(v->observed, sizeof v->observed, "%s", observed);
}

/* ---- what the monitors record, and their times ---- */

int chk_flag(lfc_check_t *c, uint32_t dir, lfc_check_rule_t rule, uint32_t cls,
             const char *expected, const char *observed) {
  chk_log_add(&c->log, c->cur_time, c->cur_frame, c->cur_link, dir, rule, cls, expected, observed);
  if ((unsigned)rule < CHK_CHECKER_RULES) c->cov[COV_EVENTS + rule]++;
  return 1;
}

uint64_t chk_bits_ps(const lfc_check_t *c, uint64_t bits) {
  return bits * CHK_PS_PER_US / c->cfg.speed_mbps;
}

uint64_t chk_units(const lfc_check_t *c, uint64_t t_ps) { return t_ps / c->cfg.time_unit_ps; }
