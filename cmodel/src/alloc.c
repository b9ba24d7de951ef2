/*
 * alloc.c - the library's allocations and their fault injector (alloc.h).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (glibc) */
#include "alloc.h"

#include <stdlib.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#endif

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

void *lfc_pool_alloc(size_t size) {
  if (inject()) return NULL;
#ifdef MAP_ANONYMOUS
  if (size == 0) return malloc(1); /* mmap refuses 0 bytes */
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
#else
  return malloc(size);
#endif
}

void lfc_pool_free(void *p, size_t size) {
  if (p == NULL) return;
#ifdef MAP_ANONYMOUS
  if (size == 0) {
    free(p);
    return;
  }
  munmap(p, size);
#else
  (void)size;
  free(p);
#endif
}
