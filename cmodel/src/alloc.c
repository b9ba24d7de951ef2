/*
 * alloc.c - the library's allocations and their fault injector (alloc.h).
 */
#include "alloc.h"

#include <stdlib.h>

/* Per thread, so that tests of several threads do not see each other's injections. The only
   mutable state of the library outside its handles: a test hook, off (0) unless a test sets it. */
static _Thread_local uint64_t countdown; /* allocations until the one that fails; 0 = off */
static _Thread_local int failed;

void lfc_alloc_fail_nth(uint64_t nth) {
  countdown = nth;
  failed = 0;
}

int lfc_alloc_failed(void) { return failed; }

/* Whether this allocation is the one to fail. */
static int inject(void) {
  if (countdown == 0) return 0;
  if (--countdown != 0) return 0;
  failed = 1;
  return 1;
}

void *lfc_malloc(size_t size) { return inject() ? NULL : malloc(size); }

void *lfc_calloc(size_t n, size_t size) { return inject() ? NULL : calloc(n, size); }

void *lfc_realloc(void *ptr, size_t size) { return inject() ? NULL : realloc(ptr, size); }
