/*
 * alloc.h - every allocation of the library goes through here (internal to the library).
 *
 * So that the error paths of the constructors can be tested one by one: a test makes exactly the
 * n-th allocation from now fail (lfc_alloc_fail_nth) and checks that the constructor returns
 * NULL, says "out of memory" and frees what it had (LeakSanitizer), for every n until the
 * constructor needs no more allocations than that. SQLite tests its allocation failures the
 * same way. These functions are not exported from the shared library.
 */
#ifndef LFC_ALLOC_H
#define LFC_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* malloc and calloc, unless the fault injector says this one fails (then NULL). */
void *lfc_malloc(size_t size);
void *lfc_calloc(size_t n, size_t size);
/* realloc, the same; on failure ptr is left as it was (C11 7.22.3.5). */
void *lfc_realloc(void *ptr, size_t size);

/*
 * A pool used from a high-water mark (the switch's descriptors): size bytes whose pages cost
 * nothing until touched. Where the system has anonymous mappings, a mapping of its own: a
 * malloc'd block shares huge pages with its neighbours when glibc puts the heap on them
 * (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, docs/sim.md "Speed"), so all of it would be resident.
 * Contents undefined; NULL if out of memory (or injected). Free with lfc_pool_free(p, size).
 */
void *lfc_pool_alloc(size_t size);
void lfc_pool_free(void *p, size_t size);

/* Test hook: the nth allocation from now (1 = the next one) returns NULL, the others succeed;
   0 turns the injector off. Per thread. */
void lfc_alloc_fail_nth(uint64_t nth);

/* Test hook: whether the injected failure has happened since lfc_alloc_fail_nth. */
int lfc_alloc_failed(void);

#endif /* LFC_ALLOC_H */
