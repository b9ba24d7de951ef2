/*
 * link.c - a link of fixed delay (docs/SPEC.md §12.1): the word a transmitter puts out in cycle t
 * is the receiver's input in cycle t + delay.
 *
 * A ring of `delay` words. The slot at `pos` holds the word pushed `delay` cycles ago: it is the
 * head of the current cycle, and the push of this cycle overwrites it and moves on.
 */
#include "lfc/link.h"
#include "alloc.h"

#include <stdlib.h>
#include <string.h>

struct lfc_link {
  uint32_t delay;
  uint32_t pos;     /* next slot to read (head) and then to write */
  lfc_word_t *ring; /* delay words */
};

lfc_link_t *lfc_link_create(uint32_t delay) {
  if (delay < 1u || delay > LFC_LINK_MAX_DELAY) return NULL;
  lfc_link_t *link = lfc_calloc(1, sizeof *link);
  if (link == NULL) return NULL;
  link->ring = lfc_calloc(delay, sizeof *link->ring);
  if (link->ring == NULL) {
    free(link);
    return NULL;
  }
  link->delay = delay;
  return link;
}

void lfc_link_destroy(lfc_link_t *link) {
  if (link == NULL) return;
  free(link->ring);
  free(link);
}

void lfc_link_reset(lfc_link_t *link) {
  memset(link->ring, 0, (size_t)link->delay * sizeof *link->ring);
  link->pos = 0;
}

uint32_t lfc_link_delay(const lfc_link_t *link) { return link->delay; }

const lfc_word_t *lfc_link_head(const lfc_link_t *link) { return &link->ring[link->pos]; }

void lfc_link_push(lfc_link_t *link, const lfc_word_t *word) {
  link->ring[link->pos] = *word;
  link->pos = link->pos + 1u == link->delay ? 0u : link->pos + 1u;
}
