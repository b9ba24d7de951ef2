/*
 * event_log.c - the events of one cycle (SPEC §13): capacity, push, order. See event_log.h.
 */
#include "event_log.h"
#include "alloc.h"

#include <assert.h>
#include <stdlib.h>

/* Events one port can produce in a cycle (SPEC §13: one per stat pulse): an admission drop, an
   ECN mark and rx_malformed, and per class a watchdog discard, an xoff/xon and a trip/restore
   (PFC: only the configured classes have a PG, a pause and a watchdog, SPEC §6). */
#define EVENTS_PER_PORT 3u
#define EVENTS_PER_CLASS 3u

/* The most events one cycle can produce. */
static size_t event_capacity(uint32_t ports, uint32_t classes) {
  return (size_t)ports * (EVENTS_PER_PORT + EVENTS_PER_CLASS * classes);
}

int lfc_event_log_init(lfc_event_log_t *log, uint32_t ports, uint32_t classes) {
  log->count = 0;
  log->cap = event_capacity(ports, classes);
  log->ev = lfc_calloc(log->cap, sizeof *log->ev);
  if (log->ev == NULL) {
    log->cap = 0;
    return -1;
  }
  return 0;
}

void lfc_event_log_free(lfc_event_log_t *log) {
  free(log->ev);
  log->ev = NULL;
  log->count = log->cap = 0;
}

void lfc_event_push(lfc_event_log_t *log, uint8_t kind, uint32_t port, uint32_t cls,
                    uint8_t cause, uint32_t tag) {
  assert(log->count < log->cap);
  if (log->count >= log->cap) return;
  lfc_event_t *e = &log->ev[log->count++];
  e->kind = kind;
  e->port = (uint8_t)port;
  e->cls = (uint8_t)cls;
  e->cause = cause;
  e->tag = tag;
}

static uint32_t event_key(const lfc_event_t *e) {
  return (uint32_t)e->kind << 16 | (uint32_t)e->port << 8 | e->cls;
}

/* Stable insertion sort: events are produced nearly in that order. */
void lfc_event_log_sort(lfc_event_log_t *log) {
  for (size_t i = 1; i < log->count; i++) {
    lfc_event_t e = log->ev[i];
    uint32_t key = event_key(&e);
    size_t j = i;
    while (j > 0 && event_key(&log->ev[j - 1]) > key) {
      log->ev[j] = log->ev[j - 1];
      j--;
    }
    log->ev[j] = e;
  }
}
