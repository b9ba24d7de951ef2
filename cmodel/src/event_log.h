/*
 * event_log.h - the events of one cycle (SPEC §13), internal to the library.
 *
 * The blocks (pfc_gen.c, port_tx.c, rx_framing.c, watchdog.c) append to the log as they apply
 * the next state; the switch clears it at the start of a cycle, sorts it at the end and hands it
 * out by lfc_switch_events. The log knows nothing of the switch, so the blocks depend on it and
 * not on switch.c.
 */
#ifndef LFC_EVENT_LOG_H
#define LFC_EVENT_LOG_H

#include "lfc/switch.h"

#include <stddef.h>
#include <stdint.h>

typedef struct lfc_event_log {
  lfc_event_t *ev;  /* cap entries, the first count of them this cycle's events */
  size_t count, cap;
} lfc_event_log_t;

/* Allocates room for the most events one cycle of a switch with `ports` ports and `classes`
   data classes can produce. Returns 0, or -1 if out of memory (the log is then empty and may
   be freed). */
int lfc_event_log_init(lfc_event_log_t *log, uint32_t ports, uint32_t classes);

/* Frees the entries; the log is empty afterwards. NULL entries are fine. */
void lfc_event_log_free(lfc_event_log_t *log);

/* Forgets the events of the last cycle. */
static inline void lfc_event_log_clear(lfc_event_log_t *log) { log->count = 0; }

/* Appends one event (fields as in lfc_event_t). The capacity covers every cycle (SPEC §13: one
   event per stat pulse), so a full log is a bug: asserted, and the event dropped without
   asserts. */
void lfc_event_push(lfc_event_log_t *log, uint8_t kind, uint32_t port, uint32_t cls,
                    uint8_t cause, uint32_t tag);

/* Orders the events by (kind, port, class), keeping the order of equal ones (SPEC §13). */
void lfc_event_log_sort(lfc_event_log_t *log);

#endif /* LFC_EVENT_LOG_H */
