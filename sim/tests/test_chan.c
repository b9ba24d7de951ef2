/*
 * test_chan.c - a channel between two lanes (sim/src/chan.h): entries come out in the order
 * they went in, none lost or seen twice, only once published; nothing is made before the first
 * entry; a chunk the reader has left is taken again, so that a channel holds what is in flight,
 * not all that passed; and a writer and a reader on two threads at once (also under
 * ThreadSanitizer: make test-sim-tsan).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "chan.h"

typedef struct {
  uint64_t seq;
  uint32_t check; /* a function of seq: a torn or stale entry shows */
} entry_t;

static uint32_t check_of(uint64_t seq) { return (uint32_t)(seq * 2654435761u) ^ 0x5a5a5a5au; }

static void put(chan_t *c, uint64_t seq) {
  entry_t *e = chan_put(c);
  assert_non_null(e);
  *e = (entry_t){seq, check_of(seq)};
}

/* Read every visible entry, expecting them from *next on; the count read. */
static uint64_t drain(chan_t *c, uint64_t *next) {
  uint64_t got = 0;
  uint32_t n;
  for (const entry_t *e; (e = chan_peek(c, &n)) != NULL; chan_pop(c, n))
    for (uint32_t i = 0; i < n; i++, got++, (*next)++) {
      assert_int_equal(e[i].seq, *next);
      assert_int_equal(e[i].check, check_of(*next));
    }
  return got;
}

/* Chunks in the writer's list, oldest to the one it writes. */
static uint32_t chunks(const chan_t *c) {
  uint32_t k = 1;
  for (const chan_chunk_t *p = c->oldest; p != c->wcur; p = atomic_load(&p->next)) k++;
  return k;
}

static void published_in_order(void **state) {
  (void)state;
  chan_t c;
  chan_init(&c, sizeof(entry_t));
  uint64_t w = 0, r = 0;
  chan_publish(&c);
  assert_int_equal(drain(&c, &r), 0u);
  assert_null(atomic_load(&c.first)); /* nothing made before the first entry */
  for (; w < 10u; w++) put(&c, w);
  assert_int_equal(drain(&c, &r), 0u); /* written, not published */
  chan_publish(&c);
  assert_int_equal(drain(&c, &r), 10u);
  /* across several chunks, published once at the end: a full chunk is published as it is left */
  for (; w < 10u + 3u * CHAN_CHUNK_ENTRIES + 7u; w++) put(&c, w);
  assert_int_equal(drain(&c, &r), 3u * CHAN_CHUNK_ENTRIES - 10u);
  chan_publish(&c);
  assert_int_equal(drain(&c, &r), 17u);
  assert_int_equal(r, w);
  chan_free(&c);
}

static void chunks_taken_again(void **state) {
  (void)state;
  chan_t c;
  chan_init(&c, sizeof(entry_t));
  uint64_t w = 0, r = 0;
  for (uint32_t round = 0; round < 100u; round++) { /* 100 chunks' worth, read as it goes */
    for (uint32_t i = 0; i < CHAN_CHUNK_ENTRIES; i++) put(&c, w++);
    chan_publish(&c);
    (void)drain(&c, &r);
  }
  assert_int_equal(r, w);
  assert_true(chunks(&c) <= 3u);
  chan_free(&c);
}

/* ---- A writer and a reader at once ---- */

#define TOTAL 2000000u
#define BATCH 37u /* entries a "cycle", then published */

static void *writer(void *arg) {
  chan_t *c = arg;
  for (uint64_t w = 0; w < TOTAL;) {
    for (uint32_t i = 0; i < BATCH && w < TOTAL; i++, w++) {
      entry_t *e = chan_put(c);
      if (e == NULL) abort();
      *e = (entry_t){w, check_of(w)};
    }
    chan_publish(c);
  }
  return NULL;
}

static void two_threads(void **state) {
  (void)state;
  chan_t c;
  chan_init(&c, sizeof(entry_t));
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, writer, &c), 0);
  uint64_t r = 0;
  while (r < TOTAL) (void)drain(&c, &r);
  assert_int_equal(pthread_join(th, NULL), 0);
  assert_int_equal(drain(&c, &r), 0u);
  assert_int_equal(r, TOTAL);
  chan_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(published_in_order),
      cmocka_unit_test(chunks_taken_again),
      cmocka_unit_test(two_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
