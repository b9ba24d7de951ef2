/*
 * chan.c - a channel's chunks (chan.h): made, taken again once read, freed.
 */
#include "chan.h"

#include <stdlib.h>

static chan_chunk_t *chunk_new(uint32_t esz) {
  chan_chunk_t *k = malloc(sizeof *k + (size_t)CHAN_CHUNK_ENTRIES * esz);
  if (k == NULL) return NULL;
  atomic_init(&k->n, 0u);
  atomic_init(&k->next, NULL);
  atomic_init(&k->read, 0);
  return k;
}

void chan_init(chan_t *c, uint32_t esz) {
  atomic_init(&c->first, NULL);
  c->wcur = c->oldest = c->rcur = NULL;
  c->esz = esz;
  c->wn = c->pub = CHAN_CHUNK_ENTRIES; /* full: the first entry makes the first chunk */
  c->rn = 0;
  c->oom = 0;
}

void chan_free(chan_t *c) {
  for (chan_chunk_t *k = c->oldest, *nx; k != NULL; k = nx) {
    nx = atomic_load_explicit(&k->next, memory_order_relaxed);
    free(k);
  }
  c->wcur = c->oldest = c->rcur = NULL;
}

/* The oldest chunk if the reader has left it (it then only writes chunks after it), else a
 * new one; linked after wcur once its entries are published, or, the first, as `first`. */
int chan_grow(chan_t *c) {
  chan_chunk_t *k = c->oldest;
  if (k != NULL && k != c->wcur && atomic_load_explicit(&k->read, memory_order_acquire)) {
    c->oldest = atomic_load_explicit(&k->next, memory_order_relaxed);
    atomic_store_explicit(&k->n, 0u, memory_order_relaxed);
    atomic_store_explicit(&k->next, NULL, memory_order_relaxed);
    atomic_store_explicit(&k->read, 0, memory_order_relaxed);
  } else if ((k = chunk_new(c->esz)) == NULL) {
    c->oom = 1;
    return -1;
  }
  if (c->wcur == NULL) {
    c->oldest = k;
    atomic_store_explicit(&c->first, k, memory_order_release);
  } else {
    chan_publish(c);
    atomic_store_explicit(&c->wcur->next, k, memory_order_release);
  }
  c->wcur = k;
  c->wn = c->pub = 0;
  return 0;
}
