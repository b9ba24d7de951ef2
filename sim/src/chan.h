/*
 * chan.h - a channel: what one lane's steps send another, in the order they were sent
 * (docs/sim.md "Threads"). One thread at a time writes it (whichever steps the sending lane) and
 * one reads it (whichever steps the receiving lane); they may run at once.
 *
 * Entries go into chunks of CHAN_CHUNK_ENTRIES. The writer makes its entries visible with
 * chan_publish (one release store, at the end of a cycle's steps, before the lane publishes how
 * far it has stepped); the reader sees them with an acquire load. A chunk the reader has left is
 * marked read, and the writer takes it again for a new chunk, so that a channel holds about
 * what is in flight between the lanes, not a run's worth. A channel makes its first chunk at its
 * first entry: of a run's lanes x lanes channels, those between lanes that share no link and no
 * flow stay empty. C11 atomics.
 */
#ifndef LFC_SIM_CHAN_H
#define LFC_SIM_CHAN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Entries a chunk: large enough that a chunk is rarely changed in a cycle. */
#define CHAN_CHUNK_ENTRIES 1024u

typedef struct chan_chunk {
  _Atomic uint32_t n;                   /* entries published */
  _Atomic(struct chan_chunk *) next;    /* the next chunk, once this one is full */
  atomic_int read;                      /* the reader has left it: the writer may take it again */
  _Alignas(16) unsigned char v[];       /* CHAN_CHUNK_ENTRIES entries of esz bytes */
} chan_chunk_t;

typedef struct {
  _Alignas(64) _Atomic(chan_chunk_t *) first; /* the first chunk: NULL before the first entry */
  /* ---- the writer's ---- */
  _Alignas(64) chan_chunk_t *wcur; /* the chunk being written (NULL before the first entry) */
  chan_chunk_t *oldest;            /* the oldest chunk not yet taken again */
  uint32_t wn;                     /* entries written in wcur */
  uint32_t pub;                    /* of them published (wcur->n) */
  uint32_t esz;                    /* bytes an entry */
  int oom;                         /* a chunk could not be made: the entry was not written */
  /* ---- the reader's ---- */
  _Alignas(64) chan_chunk_t *rcur; /* the chunk being read */
  uint32_t rn;                     /* entries read in it */
} chan_t;

/* An empty channel of entries of esz bytes. */
void chan_init(chan_t *c, uint32_t esz);
/* Free its chunks (no thread uses it any more). */
void chan_free(chan_t *c);
/* The writer's next chunk, wcur full or none yet (chan.c). */
int chan_grow(chan_t *c);

/* The writer: a place for the next entry, NULL out of memory (c->oom set). */
static inline void *chan_put(chan_t *c) {
  if (c->wn == CHAN_CHUNK_ENTRIES && chan_grow(c) != 0) return NULL;
  return c->wcur->v + (size_t)c->wn++ * c->esz;
}

/* The writer: make the entries written so far visible to the reader. */
static inline void chan_publish(chan_t *c) {
  if (c->pub == c->wn) return; /* no store: the reader's line stays as it is (and none yet) */
  c->pub = c->wn;
  atomic_store_explicit(&c->wcur->n, c->wn, memory_order_release);
}

/* The reader: the visible entries that follow in one chunk, *n of them from the returned one
 * (NULL: none yet). */
static inline const void *chan_peek(chan_t *c, uint32_t *n) {
  if (c->rcur == NULL && (c->rcur = atomic_load_explicit(&c->first, memory_order_acquire)) == NULL)
    return NULL;
  for (;;) {
    chan_chunk_t *k = c->rcur;
    uint32_t kn = atomic_load_explicit(&k->n, memory_order_acquire);
    if (c->rn < kn) {
      *n = kn - c->rn;
      return k->v + (size_t)c->rn * c->esz;
    }
    chan_chunk_t *nx = atomic_load_explicit(&k->next, memory_order_acquire);
    if (nx == NULL) return NULL;
    /* the writer published k's last entries before linking nx: read them first */
    if (c->rn < atomic_load_explicit(&k->n, memory_order_acquire)) continue;
    c->rcur = nx;
    c->rn = 0;
    atomic_store_explicit(&k->read, 1, memory_order_release);
  }
}

/* The reader: past n entries of those chan_peek returned. */
static inline void chan_pop(chan_t *c, uint32_t n) { c->rn += n; }

#endif /* LFC_SIM_CHAN_H */
