/*
 * test_alloc.c - the constructors when memory runs out (cmodel/src/alloc.c is the fault
 * injector; lfc/switch.h: "Returns NULL, with the message in err"): every constructor returns
 * NULL (or, for lfc_flat_create, a handle without a model), says "out of memory", and frees what
 * it had already allocated (LeakSanitizer fails the binary on a leak under `make test-asan` and
 * scripts/mutants-c.py).
 *
 * Two ways of running out:
 *   - a real address-space limit (RLIMIT_AS) a little above what the process uses, for the
 *     largest allocations of lfc_switch_create, lfc_link_create, lfc_nic_create and
 *     lfc_flat_create; the limit is restored before any assertion. Under AddressSanitizer, whose
 *     shadow memory does not live under such a limit, those tests are skipped;
 *   - alloc.h's injector, which fails every allocation of every constructor in turn, so the
 *     small allocations are reached too.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "testutil.h"

#include "lfc/flat.h"
#include "lfc/link.h"
#include "lfc/nic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "../src/alloc.h"
#include "lfc/check.h"
#include "lfc/pcap.h"
#include "lfc/pcap_link.h"
#include "lfc/scoreboard.h"
#include "lfc/star.h"
#include <unistd.h>

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

/* More allocations than any constructor here makes: the loops below stop at the first n that no
   longer fails, and this bound only keeps a broken injector from looping forever. */
enum { MAX_ALLOCS = 10000 };

/* Each allocation point, one at a time: create() is called with the n-th allocation failing,
   check() judges the failed result and must free it; returns how many points were exercised. */
typedef void *(*create_fn)(void *arg, char *err, size_t errlen);
typedef void (*destroy_fn)(void *obj);

static unsigned each_failure(create_fn create, destroy_fn destroy, void *arg, const char *needle) {
  unsigned n;
  for (n = 1; n < MAX_ALLOCS; n++) {
    char err[256] = "";
    lfc_alloc_fail_nth(n);
    void *obj = create(arg, err, sizeof err);
    int failed = lfc_alloc_failed();
    lfc_alloc_fail_nth(0);
    if (!failed) { /* n is past the last allocation: the object was made */
      assert_non_null(obj);
      destroy(obj);
      break;
    }
    if (obj != NULL) {
      destroy(obj);
      fail_msg("allocation %u failed, yet the constructor returned an object", n);
    }
    if (strstr(err, needle) == NULL) fail_msg("allocation %u: message '%s' lacks '%s'", n, err, needle);
    /* The same failure with err NULL, allowed whatever errlen says, and with room for the
       terminator only: an empty message, as snprintf leaves it (lfc/switch.h, lfc/star.h). */
    lfc_alloc_fail_nth(n);
    obj = create(arg, NULL, sizeof err);
    lfc_alloc_fail_nth(0);
    if (obj != NULL) fail_msg("allocation %u failed with err NULL, yet an object came back", n);
    char tiny[1] = {'x'};
    lfc_alloc_fail_nth(n);
    obj = create(arg, tiny, sizeof tiny);
    lfc_alloc_fail_nth(0);
    if (obj != NULL) fail_msg("allocation %u failed with a 1-byte err, yet an object came back", n);
    if (tiny[0] != '\0') fail_msg("allocation %u: a 1-byte err was left unterminated", n);
  }
  assert_true(n < MAX_ALLOCS);
  return n - 1u;
}

static void *switch_create(void *arg, char *err, size_t errlen) {
  return lfc_switch_create(arg, err, errlen);
}
static void switch_destroy(void *obj) { lfc_switch_destroy(obj); }

static void test_switch_each_allocation(void **state) {
  (void)state;
  lfc_switch_cfg_t c;
  lfc_switch_cfg_default(&c, LFC_MODE_PFC, 4, 2);
  unsigned pfc = each_failure(switch_create, switch_destroy, &c, "out of memory");
  lfc_switch_cfg_default(&c, LFC_MODE_IB, 4, 2);
  unsigned ib = each_failure(switch_create, switch_destroy, &c, "out of memory");
  /* The switch, its per-port arrays, the pipeline ring, the descriptor pool, the event log. */
  assert_true(pfc >= 6u);
  assert_int_equal(pfc, ib);
}

static void *nic_create(void *arg, char *err, size_t errlen) {
  return lfc_nic_create(arg, err, errlen);
}
static void nic_destroy(void *obj) { lfc_nic_destroy(obj); }

static void test_nic_each_allocation(void **state) {
  (void)state;
  lfc_nic_cfg_t c;
  lfc_nic_cfg_default(&c, LFC_MODE_PFC, 2);
  assert_true(each_failure(nic_create, nic_destroy, &c, "out of memory") >= 2u);
}

static void *link_create(void *arg, char *err, size_t errlen) {
  (void)err;
  (void)errlen;
  lfc_link_t *l = lfc_link_create(*(uint32_t *)arg);
  if (l == NULL && err != NULL) snprintf(err, errlen, "out of memory"); /* NULL says it */
  return l;
}
static void link_destroy(void *obj) { lfc_link_destroy(obj); }

static void test_link_each_allocation(void **state) {
  (void)state;
  uint32_t delay = 5;
  assert_int_equal(each_failure(link_create, link_destroy, &delay, "out of memory"), 2u);
}

/* lfc/flat.h: NULL only when the handle itself cannot be had; a handle without a model when a
   later allocation fails, with the reason in lfc_flat_error. */
static void *flat_create(void *arg, char *err, size_t errlen) {
  lfc_flat_t *h = lfc_flat_create(arg);
  if (h == NULL) {
    if (err != NULL) snprintf(err, errlen, "out of memory (no handle)");
    return NULL;
  }
  if (lfc_flat_ok(h)) return h;
  if (err != NULL) snprintf(err, errlen, "%s", lfc_flat_error(h));
  lfc_flat_destroy(h);
  return NULL;
}
static void flat_destroy(void *obj) { lfc_flat_destroy(obj); }

static void test_flat_each_allocation(void **state) {
  (void)state;
  char text[] = "switch.mode=pfc; switch.ports=4; pfc.ecn_mask=1";
  assert_true(each_failure(flat_create, flat_destroy, text, "out of memory") >= 10u);
}

static void *star_create(void *arg, char *err, size_t errlen) {
  return lfc_star_create(arg, err, errlen);
}
static void star_destroy(void *obj) { lfc_star_destroy(obj); }

static void test_star_each_allocation(void **state) {
  (void)state;
  lfc_star_cfg_t c;
  lfc_star_cfg_default(&c, LFC_MODE_PFC, 3, 2);
  unsigned pfc = each_failure(star_create, star_destroy, &c, "out of memory");
  lfc_star_cfg_default(&c, LFC_MODE_IB, 3, 2);
  unsigned ib = each_failure(star_create, star_destroy, &c, "out of memory");
  /* The star's arrays, the switch's, and per node a NIC, two links, a burst and a window. */
  assert_true(pfc > 9u + 8u + 3u * 4u);
  assert_int_equal(pfc, ib);
}

/* lfc/pcap.h: NULL with the reason; nothing is left on disk, not even the temporary file. */
static char pcap_dir[] = "/tmp/lfc-alloc-XXXXXX";
static char pcap_path[sizeof pcap_dir + 16];

static void *pcap_create(void *arg, char *err, size_t errlen) {
  (void)arg;
  return lfc_pcap_open(pcap_path, LFC_PCAP_LINKTYPE_ETHERNET, err, errlen);
}
static void pcap_destroy(void *obj) {
  char err[256];
  assert_int_equal(lfc_pcap_close(obj, err, sizeof err), 0);
}

static void test_pcap_each_allocation(void **state) {
  (void)state;
  assert_non_null(mkdtemp(pcap_dir));
  snprintf(pcap_path, sizeof pcap_path, "%s/a.pcap", pcap_dir);
  char needle[128];
  snprintf(needle, sizeof needle, "%s: ", pcap_path);
  assert_true(each_failure(pcap_create, pcap_destroy, NULL, needle) >= 2u);
  assert_int_equal(unlink(pcap_path), 0); /* the last, successful open wrote it */
  assert_int_equal(rmdir(pcap_dir), 0);  /* no temporary file of a failed open is left */
}

/* lfc/pcap_link.h: the same, for the link's writer around the pcap file. */
static void *pcap_link_create(void *arg, char *err, size_t errlen) {
  (void)arg;
  const lfc_pcap_link_cfg_t cfg = {LFC_MODE_IB, 0};
  return lfc_pcap_link_open(pcap_path, &cfg, err, errlen);
}
static void pcap_link_destroy(void *obj) {
  char err[256];
  assert_int_equal(lfc_pcap_link_close(obj, err, sizeof err), 0);
}

static void test_pcap_link_each_allocation(void **state) {
  (void)state;
  strcpy(pcap_dir, "/tmp/lfc-alloc-XXXXXX");
  assert_non_null(mkdtemp(pcap_dir));
  snprintf(pcap_path, sizeof pcap_path, "%s/l.pcap", pcap_dir);
  char needle[128];
  snprintf(needle, sizeof needle, "%s: ", pcap_path);
  /* the writer, then lfc_pcap_open's */
  assert_true(each_failure(pcap_link_create, pcap_link_destroy, NULL, needle) >= 3u);
  /* room for the terminator only: still a terminated (empty) message; none at all: no write */
  const lfc_pcap_link_cfg_t cfg = {LFC_MODE_PFC, 0};
  char tiny[1] = {'x'};
  lfc_alloc_fail_nth(1);
  assert_null(lfc_pcap_link_open(pcap_path, &cfg, tiny, sizeof tiny));
  lfc_alloc_fail_nth(0);
  assert_int_equal(tiny[0], '\0');
  lfc_alloc_fail_nth(1);
  assert_null(lfc_pcap_link_open(pcap_path, &cfg, NULL, 0));
  lfc_alloc_fail_nth(0);
  assert_int_equal(unlink(pcap_path), 0);
  assert_int_equal(rmdir(pcap_dir), 0);
}

static void *check_create(void *arg, char *err, size_t errlen) {
  return lfc_check_create(arg, err, errlen);
}
static void check_destroy(void *obj) { lfc_check_destroy(obj); }

static void test_check_each_allocation(void **state) {
  (void)state;
  lfc_check_cfg_t c;
  lfc_check_cfg_default(&c, LFC_MODE_PFC);
  c.links = 3;
  assert_int_equal(each_failure(check_create, check_destroy, &c, "out of memory"), 2u);
  lfc_check_cfg_default(&c, LFC_MODE_IB);
  assert_int_equal(each_failure(check_create, check_destroy, &c, "out of memory"), 2u);
}

/* A violation log that cannot grow still counts every violation (lfc/check.h: all are counted,
   max_kept kept): the frame that could not be kept is counted, and the next one is kept. */
static void test_check_log_grows_or_counts(void **state) {
  (void)state;
  char err[256];
  lfc_check_t *c = lfc_check_create_text(LFC_MODE_PFC, "links=1", err, sizeof err);
  assert_non_null(c);
  static const uint8_t runt[4] = {0};
  lfc_alloc_fail_nth(1);
  int v = lfc_check_frame(c, 0, 0, 10, LFC_PCAP_ETH, runt, sizeof runt);
  int failed = lfc_alloc_failed();
  lfc_alloc_fail_nth(0);
  assert_true(failed);
  assert_true(v >= 1);
  assert_int_equal(lfc_check_violations(c), (uint64_t)v);
  assert_null(lfc_check_violation(c, 0)); /* counted, not kept */
  assert_true(lfc_check_frame(c, 0, 0, 20, LFC_PCAP_ETH, runt, sizeof runt) >= 1);
  assert_non_null(lfc_check_violation(c, 0));
  lfc_check_destroy(c);
}

static void *sb_create(void *arg, char *err, size_t errlen) {
  return lfc_sb_create(arg, err, errlen);
}
static void sb_destroy(void *obj) { lfc_sb_destroy(obj); }

static void test_sb_each_allocation(void **state) {
  (void)state;
  lfc_sb_cfg_t c;
  lfc_sb_cfg_default(&c);
  assert_int_equal(each_failure(sb_create, sb_destroy, &c, "out of memory"), 2u);
  /* A packet that cannot be recorded is refused, not lost silently (lfc/scoreboard.h). */
  char err[256];
  lfc_sb_t *sb = lfc_sb_create(&c, err, sizeof err);
  assert_non_null(sb);
  lfc_alloc_fail_nth(1);
  assert_int_equal(lfc_sb_accept(sb, 7, 1, 0, 0, 0), -1);
  lfc_alloc_fail_nth(0);
  assert_non_null(strstr(lfc_sb_error(sb), "out of memory"));
  assert_int_equal(lfc_sb_accept(sb, 7, 1, 0, 0, 0), 0);
  assert_int_equal(lfc_sb_deliver(sb, 7, 1, 5, 0, 1), 0);
  assert_int_equal(lfc_sb_finish(sb, 10), 0);
  lfc_sb_destroy(sb);
}

/* lfc_pcap_reader_open: one allocation; its failure names the path. */
static void *reader_create(void *arg, char *err, size_t errlen) {
  return lfc_pcap_reader_open(arg, err, errlen);
}
static void reader_destroy(void *obj) { lfc_pcap_reader_close(obj); }

static void test_pcap_reader_each_allocation(void **state) {
  (void)state;
  strcpy(pcap_dir, "/tmp/lfc-alloc-XXXXXX");
  assert_non_null(mkdtemp(pcap_dir));
  snprintf(pcap_path, sizeof pcap_path, "%s/r.pcap", pcap_dir);
  char err[256];
  lfc_pcap_t *w = lfc_pcap_open(pcap_path, LFC_PCAP_LINKTYPE_ERF, err, sizeof err);
  assert_non_null(w);
  assert_int_equal(lfc_pcap_close(w, err, sizeof err), 0);
  char needle[128];
  snprintf(needle, sizeof needle, "%s: out of memory", pcap_path);
  assert_int_equal(each_failure(reader_create, reader_destroy, pcap_path, needle), 1u);
  assert_int_equal(unlink(pcap_path), 0);
  assert_int_equal(rmdir(pcap_dir), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_switch_create_out_of_memory),
      cmocka_unit_test(test_link_create_out_of_memory),
      cmocka_unit_test(test_nic_create_out_of_memory),
      cmocka_unit_test(test_flat_create_out_of_memory),
      cmocka_unit_test(test_switch_each_allocation), cmocka_unit_test(test_nic_each_allocation),
      cmocka_unit_test(test_link_each_allocation),   cmocka_unit_test(test_flat_each_allocation),
      cmocka_unit_test(test_star_each_allocation),   cmocka_unit_test(test_pcap_each_allocation),
      cmocka_unit_test(test_check_each_allocation), cmocka_unit_test(test_check_log_grows_or_counts),
      cmocka_unit_test(test_sb_each_allocation), cmocka_unit_test(test_pcap_reader_each_allocation),
      cmocka_unit_test(test_pcap_link_each_allocation),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
