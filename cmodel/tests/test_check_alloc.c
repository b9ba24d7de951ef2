/*
 * test_check_alloc.c - lfc_check_create when memory is short (lfc/check.h: NULL with one line):
 * the per-link state of 4096 links (about 8 MB) cannot be had with 1 MB of address space to
 * spare, the checker itself can; it must say so, name the links, and free what it had
 * (LeakSanitizer in scripts/mutants-c.py). Memory is made short by lowering RLIMIT_AS, as
 * test_alloc.c does for the switch; skipped under AddressSanitizer and valgrind, whose
 * memory does not live under such a limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "lfc/check.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LFC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LFC_ASAN 1
#endif
#endif

enum { MARGIN_BYTES = 1 << 20, PAGE_BYTES = 4096, PROBE_FACTOR = 4 };

#ifndef LFC_ASAN
static unsigned long long vm_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  if (f == NULL) return 0;
  if (fscanf(f, "%llu", &pages) != 1) pages = 0;
  fclose(f);
  return pages * PAGE_BYTES;
}

/* Does an address-space limit of the current size + margin make a larger allocation fail? */
static int limit_enforced(unsigned long long margin) {
  struct rlimit old, lim;
  if (getrlimit(RLIMIT_AS, &old) != 0) return 0;
  lim = old;
  lim.rlim_cur = (rlim_t)(vm_bytes() + margin);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur) return 0;
  if (setrlimit(RLIMIT_AS, &lim) != 0) return 0;
  void *volatile p = malloc(PROBE_FACTOR * margin);
  const int restored = setrlimit(RLIMIT_AS, &old);
  const int enforced = p == NULL && !RUNNING_ON_VALGRIND;
  free(p);
  return restored == 0 && enforced;
}
#endif

static void test_create_out_of_memory(void **state) {
  (void)state;
#ifdef LFC_ASAN
  skip();
#else
  const lfc_mode_t modes[] = {LFC_MODE_IB, LFC_MODE_PFC};
  for (int m = 0; m < 2; m++) {
    lfc_check_cfg_t cfg;
    lfc_check_cfg_default(&cfg, modes[m]);
    cfg.links = LFC_CHECK_MAX_LINKS; /* about 2 KB each */
    if (!limit_enforced(MARGIN_BYTES)) skip();
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    struct rlimit lim = old;
    lim.rlim_cur = (rlim_t)(vm_bytes() + MARGIN_BYTES);
    char err[256] = "";
    assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
    lfc_check_t *c = lfc_check_create(&cfg, err, sizeof err);
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
    if (c != NULL) {
      lfc_check_destroy(c);
      fail_msg("%u links were had within 1 MB more address space", LFC_CHECK_MAX_LINKS);
    }
    printf("  %s\n", err);
    assert_non_null(strstr(err, "check: out of memory for 4096 links ("));
    /* With the memory back, the same configuration works. */
    c = lfc_check_create(&cfg, err, sizeof err);
    assert_non_null(c);
    lfc_check_destroy(c);
  }
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_create_out_of_memory)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
