/*
 * test_alloc_failure.c - lfc_switch_create when memory is short (lfc/switch.h: "Returns NULL,
 * with the message in err"): it returns NULL, says "out of memory" and how large a buffer it
 * tried, and frees what it had already allocated (scripts/mutants-c.py links the tests with
 * LeakSanitizer, which fails the binary on a leak); the same for lfc_link_create,
 * lfc_nic_create and lfc_flat_create.
 *
 * Memory is made short by lowering this process's address-space limit (RLIMIT_AS) to a little
 * above what it uses, then asking for a legal switch whose descriptor pool alone is larger than
 * that margin; the limit is restored before any assertion. Under AddressSanitizer, whose shadow
 * memory does not live under such a limit, the test is skipped.
 */
#include "testutil.h"

#include "lfc/flat.h"
#include "lfc/link.h"
#include "lfc/nic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* Valgrind (make memcheck) manages the address space itself and does not keep to RLIMIT_AS
 * reliably: these tests are skipped under it (its header comes with the valgrind package). */
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

enum {
  MARGIN_BYTES = 64 << 20, /* room above the current use: small allocations still succeed */
  PAGE_BYTES = 4096,
};

#ifndef LFC_ASAN
/* This process's address-space size in bytes (/proc/self/statm, first field, in pages). */
static unsigned long long vm_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long pages = 0;
  if (f == NULL) return 0;
  if (fscanf(f, "%llu", &pages) != 1) pages = 0;
  fclose(f);
  return pages * PAGE_BYTES;
}

/* Does lowering RLIMIT_AS to the current size + margin make an allocation of PROBE_FACTOR x
 * margin fail here (and are we not under valgrind)? If not, these tests have nothing to check
 * and are skipped. */
enum { PROBE_FACTOR = 4 };
static int limit_enforced(unsigned long long margin) {
  struct rlimit old, lim;
  if (getrlimit(RLIMIT_AS, &old) != 0) return 0;
  lim = old;
  lim.rlim_cur = (rlim_t)(vm_bytes() + margin);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur) return 0; /* already lower */
  if (setrlimit(RLIMIT_AS, &lim) != 0) return 0;
  void *volatile p = malloc(PROBE_FACTOR * margin); /* volatile: the call is not elided */
  int restored = setrlimit(RLIMIT_AS, &old);
  int enforced = p == NULL && !RUNNING_ON_VALGRIND;
  free(p);
  return restored == 0 && enforced;
}

/* A legal IB switch whose buffer (SPEC §3.4) needs far more than MARGIN_BYTES of descriptors:
 * 64 ports x 15 VLs x 65535 blocks. */
static void big_switch(lfc_switch_cfg_t *c) {
  lfc_switch_cfg_default(c, LFC_MODE_IB, LFC_MAX_PORTS, 15);
  for (uint32_t v = 0; v < 15; v++) c->vl_blocks[v] = 65535;
}
#endif

static void test_switch_create_out_of_memory(void **state) {
  (void)state;
#ifdef LFC_ASAN
  skip();
#else
  lfc_switch_cfg_t c;
  big_switch(&c);
  char err[256] = "";
  assert_int_equal(lfc_switch_cfg_check(&c, err, sizeof err), 0);
  unsigned long long blocks = (unsigned long long)lfc_switch_cfg_buffer_blocks(&c);
  assert_true(blocks * 16u > 4ull * MARGIN_BYTES); /* a descriptor is more than 16 bytes */
  if (!limit_enforced(MARGIN_BYTES)) skip();

  struct rlimit old;
  assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
  unsigned long long vm = vm_bytes();
  assert_true(vm > 0);
  struct rlimit lim = old;
  lim.rlim_cur = (rlim_t)(vm + MARGIN_BYTES);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur) skip(); /* already lower */
  assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
  lfc_switch_t *sw = lfc_switch_create(&c, err, sizeof err);
  int restored = setrlimit(RLIMIT_AS, &old);
  assert_int_equal(restored, 0);
  if (sw != NULL) { /* the allocator found the room after all: nothing to test here */
    lfc_switch_destroy(sw);
    fail_msg("a switch of %llu blocks was created within %d MB more address space", blocks,
             MARGIN_BYTES >> 20);
  }
  assert_non_null(strstr(err, "out of memory"));
  char want[64];
  snprintf(want, sizeof want, "%llu blocks", blocks);
  assert_non_null(strstr(err, want));
  /* The same without a message buffer: NULL, no crash. */
  assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
  sw = lfc_switch_create(&c, NULL, sizeof err);
  restored = setrlimit(RLIMIT_AS, &old);
  assert_int_equal(restored, 0);
  assert_null(sw);
  /* With the memory back, the same configuration works. */
  sw = lfc_switch_create(&c, err, sizeof err);
  if (sw == NULL) fail_msg("lfc_switch_create: %s", err);
  lfc_switch_destroy(sw);
#endif
}

/* lfc/link.h: "NULL if out of range or out of memory". A link of the longest delay needs a
 * ring of 65535 words (megabytes); with 1 MB of address space to spare the ring cannot be
 * had, the small link header can: the header is freed (LeakSanitizer) and NULL returned. */
static void test_link_create_out_of_memory(void **state) {
  (void)state;
#ifdef LFC_ASAN
  skip();
#else
  enum { LINK_MARGIN_BYTES = 1 << 20 };
  assert_true((unsigned long long)LFC_LINK_MAX_DELAY * sizeof(lfc_word_t) > 2u * LINK_MARGIN_BYTES);
  if (!limit_enforced(LINK_MARGIN_BYTES)) skip();
  struct rlimit old;
  assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
  struct rlimit lim = old;
  lim.rlim_cur = (rlim_t)(vm_bytes() + LINK_MARGIN_BYTES);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur) skip();
  assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
  lfc_link_t *link = lfc_link_create(LFC_LINK_MAX_DELAY);
  int restored = setrlimit(RLIMIT_AS, &old);
  assert_int_equal(restored, 0);
  if (link != NULL) {
    lfc_link_destroy(link);
    fail_msg("a link of delay %u was created within 1 MB more address space", LFC_LINK_MAX_DELAY);
  }
  link = lfc_link_create(LFC_LINK_MAX_DELAY); /* with the memory back */
  assert_non_null(link);
  lfc_link_destroy(link);
#endif
}

/* lfc/nic.h: lfc_nic_create "returns NULL, with the message in err" when memory is short. The
 * largest node (IB, 15 VLs and VL15, FIFOs of 65536 packets each) needs megabytes of FIFO
 * space; with 1 MB of address space to spare the FIFOs cannot be had, the node's own state can:
 * that is freed (LeakSanitizer), NULL returned and "out of memory" said. */
static void test_nic_create_out_of_memory(void **state) {
  (void)state;
#ifdef LFC_ASAN
  skip();
#else
  enum { NIC_MARGIN_BYTES = 1 << 20, NIC_VLS = 15, NIC_FIFO_PKTS = 65536 };
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_IB, NIC_VLS);
  c.tx_fifo_pkts = NIC_FIFO_PKTS;
  char err[256] = "";
  assert_int_equal(lfc_nic_cfg_check(&c, err, sizeof err), 0);
  /* a queued packet is more than 4 bytes (class, blocks, destination, tag) */
  assert_true((NIC_VLS + 1ull) * NIC_FIFO_PKTS * 4u > 2ull * NIC_MARGIN_BYTES);
  if (!limit_enforced(NIC_MARGIN_BYTES)) skip();
  struct rlimit old;
  assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
  struct rlimit lim = old;
  lim.rlim_cur = (rlim_t)(vm_bytes() + NIC_MARGIN_BYTES);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur) skip();
  assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
  lfc_nic_t *nic = lfc_nic_create(&c, err, sizeof err);
  int restored = setrlimit(RLIMIT_AS, &old);
  assert_int_equal(restored, 0);
  if (nic != NULL) {
    lfc_nic_destroy(nic);
    fail_msg("a node with FIFOs of %u packets was created within 1 MB more address space",
             NIC_FIFO_PKTS);
  }
  assert_non_null(strstr(err, "out of memory"));
  nic = lfc_nic_create(&c, err, sizeof err); /* with the memory back */
  if (nic == NULL) fail_msg("lfc_nic_create: %s", err);
  lfc_nic_destroy(nic);
#endif
}

/* lfc/flat.h: when the text is right but the switch cannot be made, the handle holds no model
 * and lfc_flat_error says why: "lfc_switch_create: out of memory (buffer of N blocks)". */
static void test_flat_create_out_of_memory(void **state) {
  (void)state;
#ifdef LFC_ASAN
  skip();
#else
  static const char text[] =
      "switch.mode=ib; switch.ports=64; switch.classes=15;"
      "ib.vl_blocks=65535,65535,65535,65535,65535,65535,65535,65535,65535,65535,65535,65535,"
      "65535,65535,65535";
  lfc_switch_cfg_t c;
  big_switch(&c);
  unsigned long long blocks = (unsigned long long)lfc_switch_cfg_buffer_blocks(&c);
  if (!limit_enforced(MARGIN_BYTES)) skip();
  struct rlimit old;
  assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
  struct rlimit lim = old;
  lim.rlim_cur = (rlim_t)(vm_bytes() + MARGIN_BYTES);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur) skip();
  assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
  lfc_flat_t *h = lfc_flat_create(text);
  int restored = setrlimit(RLIMIT_AS, &old);
  assert_int_equal(restored, 0);
  assert_non_null(h); /* the handle itself is small */
  int ok = lfc_flat_ok(h);
  char want[96];
  snprintf(want, sizeof want, "lfc_switch_create: out of memory (buffer of %llu blocks)", blocks);
  if (ok || strcmp(lfc_flat_error(h), want) != 0) {
    char got[256];
    snprintf(got, sizeof got, "%s", ok ? "a model" : lfc_flat_error(h));
    lfc_flat_destroy(h);
    fail_msg("expected '%s', got '%s'", want, got);
  }
  lfc_flat_destroy(h);
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_switch_create_out_of_memory),
      cmocka_unit_test(test_link_create_out_of_memory),
      cmocka_unit_test(test_nic_create_out_of_memory),
      cmocka_unit_test(test_flat_create_out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
