/*
 * test_wire_pcap.c - the pcap writer (lfc/pcap.h, docs/wire-formats.md §6): the file header
 * and record bytes of pcap-savefile(5) with nanosecond timestamps, the ERF record header around
 * IB packets (type 21 data, 25 link), the cycle-to-time conversion, refusals (a bad link type, a
 * record kind the link type cannot hold, a directory that does not exist, a mode that cannot be
 * set), and that a file is only ever seen complete: nothing at the path before close, the old
 * file kept on abort.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* syscall */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <dirent.h>
#include <errno.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "lfc/pcap.h"

/* How many file descriptors this process has open (/proc/self/fd, less the directory's own). */
static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  assert_non_null(d);
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n - 1;
}

static char dir[64];

/* fchmod as the library sees it, to make the temporary file's mode change fail on demand (a
 * file system that refuses it): with fchmod_errno 0 the system call itself. */
static int fchmod_errno;
int fchmod(int fd, mode_t mode) {
  if (fchmod_errno != 0) {
    errno = fchmod_errno;
    return -1;
  }
  return (int)syscall(SYS_fchmod, fd, mode);
}

/* The tests run in the temporary directory, so that a file the writer might create anywhere
 * but where it was told (a relative name) lands there and goes with it, not into the tree. */
static char home[4096];

static int setup(void **state) {
  (void)state;
  strcpy(dir, "/tmp/lfc_pcap_XXXXXX");
  if (getcwd(home, sizeof home) == NULL || mkdtemp(dir) == NULL) return -1;
  return chdir(dir);
}

static int teardown(void **state) {
  (void)state;
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (chdir(home) != 0) return -1;
  return system(cmd) == 0 ? 0 : -1;
}

static size_t slurp(const char *path, uint8_t *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  const size_t n = fread(buf, 1, cap, f);
  fclose(f);
  return n;
}

static uint32_t le32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static size_t entries(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  unsigned n = 0;
  assert_int_equal(fscanf(p, "%u", &n), 1);
  pclose(p);
  return n;
}

static void test_pcap_ethernet_bytes(void **state) {
  (void)state;
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/eth.pcap", dir);
  lfc_pcap_t *p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ETHERNET, err, sizeof err);
  assert_non_null(p);
  assert_int_equal(access(path, F_OK), -1); /* nothing at the path until close */
  const uint8_t frame[3] = {0xAA, 0xBB, 0xCC};
  assert_int_equal(lfc_pcap_write(p, 2500000001ull, LFC_PCAP_ETH, frame, 3, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_write(p, 0, LFC_PCAP_IB_DATA, frame, 3, err, sizeof err), -1);
  assert_non_null(strstr(err, "does not fit link type 1"));
  char tiny[1] = {'x'};
  assert_int_equal(lfc_pcap_write(p, 0, LFC_PCAP_IB_DATA, frame, 3, tiny, sizeof tiny), -1);
  assert_int_equal(tiny[0], '\0');
  assert_int_equal(lfc_pcap_close(p, err, sizeof err), 0);
  uint8_t b[128];
  assert_int_equal(slurp(path, b, sizeof b), 24 + 16 + 3);
  const uint8_t header[24] = {0x4d, 0x3c, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0,    0,
                              0,    0,    0,    0,    0xff, 0xff, 0, 0, 1, 0, 0, 0};
  assert_memory_equal(b, header, sizeof header);
  assert_int_equal(le32(b + 24), 2);          /* seconds */
  assert_int_equal(le32(b + 28), 500000001u); /* nanoseconds */
  assert_int_equal(le32(b + 32), 3);
  assert_int_equal(le32(b + 36), 3);
  assert_memory_equal(b + 40, frame, 3);
  assert_int_equal(entries(), 1); /* no temporary file left */
}

/* The writer builds a record's headers on its stack: fill the stack below the caller with a
 * pattern first, so that a byte of a header it leaves unwritten shows in the file instead of
 * whatever zero happened to be there. */
#define STACK_PAINT_BYTES 4096u
#define STACK_PAINT 0xA5u
static __attribute__((noinline)) void paint_stack(void) {
  volatile uint8_t junk[STACK_PAINT_BYTES];
  for (size_t i = 0; i < sizeof junk; i++) junk[i] = STACK_PAINT;
}

static void test_pcap_erf_bytes(void **state) {
  (void)state;
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/ib.pcap", dir);
  lfc_pcap_t *p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ERF, err, sizeof err);
  assert_non_null(p);
  const uint8_t fcp[6] = {1, 2, 3, 4, 5, 6};
  /* 1.5 s: ERF time 1 second and a fraction of 2^31. */
  paint_stack();
  assert_int_equal(lfc_pcap_write(p, 1500000000ull, LFC_PCAP_IB_LINK, fcp, 6, err, sizeof err),
                   0);
  paint_stack();
  assert_int_equal(lfc_pcap_write(p, 0, LFC_PCAP_IB_DATA, fcp, 6, err, sizeof err), 0);
  assert_int_equal(lfc_pcap_write(p, 0, LFC_PCAP_ETH, fcp, 6, err, sizeof err), -1);
  assert_int_equal(lfc_pcap_close(p, err, sizeof err), 0);
  uint8_t b[256];
  assert_int_equal(slurp(path, b, sizeof b), 24 + 2 * (16 + 16 + 6));
  assert_int_equal(le32(b + 20), 197);
  const uint8_t *r = b + 24;
  assert_int_equal(le32(r + 8), 22);  /* caplen: ERF header + FCP */
  assert_int_equal(le32(r + 12), 22); /* len: the same, nothing was cut */
  const uint8_t *e = r + 16;
  assert_int_equal(le32(e), 0x80000000u); /* fraction */
  assert_int_equal(le32(e + 4), 1);       /* seconds */
  assert_int_equal(e[8], 25);             /* InfiniBand link */
  assert_int_equal(e[9], 0x04);           /* varying length */
  assert_int_equal(e[10] << 8 | e[11], 22); /* rlen */
  assert_int_equal(e[12] << 8 | e[13], 0);  /* lctr: no loss */
  assert_int_equal(e[14] << 8 | e[15], 6);  /* wlen */
  assert_memory_equal(e + 16, fcp, 6);
  assert_int_equal(r[38 + 16 + 8], 21); /* the second record: InfiniBand data */
  assert_int_equal(r[38 + 16 + 12] << 8 | r[38 + 16 + 13], 0); /* its lctr */
}

static void test_pcap_cycle_time(void **state) {
  (void)state;
  assert_int_equal(lfc_pcap_cycle_ns(0, 100), 0);
  assert_int_equal(lfc_pcap_cycle_ns(1, 100), 5);      /* 512 bits at 100 Gb/s = 5.12 ns */
  assert_int_equal(lfc_pcap_cycle_ns(100, 100), 512);
  assert_int_equal(lfc_pcap_cycle_ns(1000, 400), 1280); /* 1.28 ns per cycle at 400G */
}

static void test_pcap_refusals_keep_old_file(void **state) {
  (void)state;
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/old.pcap", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("old", f);
  fclose(f);
  assert_null(lfc_pcap_open(path, 2, err, sizeof err));
  assert_non_null(strstr(err, "link type 2"));
  char tiny[1] = {'x'}; /* room for the terminator only: still a terminated (empty) message */
  assert_null(lfc_pcap_open(path, 2, tiny, sizeof tiny));
  assert_int_equal(tiny[0], '\0');
  assert_null(lfc_pcap_open(path, 2, NULL, 0));
  lfc_pcap_t *p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ETHERNET, err, sizeof err);
  assert_non_null(p);
  const int fds_open = open_fds(); /* the writer's own file among them */
  uint8_t big[LFC_PCAP_SNAPLEN + 1];
  memset(big, 0, sizeof big);
  assert_int_equal(lfc_pcap_write(p, 0, LFC_PCAP_ETH, big, sizeof big, err, sizeof err), -1);
  assert_non_null(strstr(err, "snap length"));
  char tiny2[1] = {'x'};
  assert_int_equal(lfc_pcap_write(p, 0, LFC_PCAP_ETH, big, sizeof big, tiny2, sizeof tiny2), -1);
  assert_int_equal(tiny2[0], '\0');
  lfc_pcap_abort(p);
  assert_int_equal(open_fds(), fds_open - 1); /* abort closed the file it had open */
  uint8_t b[8];
  assert_int_equal(slurp(path, b, sizeof b), 3); /* the old file, untouched */
  assert_memory_equal(b, "old", 3);
  assert_int_equal(entries(), 1);
  char missing[160];
  snprintf(missing, sizeof missing, "%s/no/such/dir/x.pcap", dir);
  assert_null(lfc_pcap_open(missing, LFC_PCAP_LINKTYPE_ERF, err, sizeof err));
  assert_non_null(strstr(err, missing));
  lfc_pcap_abort(NULL);
}

/* The path is a directory: the file is written beside it, but the rename fails; close says so,
 * returns -1 and leaves no temporary file. */
static void test_pcap_close_rename_fails(void **state) {
  (void)state;
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/isdir.pcap", dir);
  assert_int_equal(mkdir(path, 0755), 0);
  char inner[160];
  snprintf(inner, sizeof inner, "%s/keep", path);
  FILE *f = fopen(inner, "w"); /* a non-empty directory: rename(2) cannot replace it */
  assert_non_null(f);
  fclose(f);
  lfc_pcap_t *p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ETHERNET, err, sizeof err);
  assert_non_null(p);
  assert_int_equal(lfc_pcap_close(p, err, sizeof err), -1);
  assert_non_null(strstr(err, "cannot rename"));
  assert_non_null(strstr(err, path));
  assert_int_equal(entries(), 1); /* only the directory */
}

/* A full disk, made with a file-size limit (SIGXFSZ ignored, so writes fail with EFBIG): a write
 * that reaches the disk fails with -1, or, while the data still sits in the stdio buffer, close
 * does. Either way the reason names the path and nothing is left behind. */
static void test_pcap_full_disk(void **state) {
  (void)state;
  enum { LIMIT = 4096, RECORD = 2000 };
  struct rlimit old;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < LIMIT) skip();
  void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
  const struct rlimit small = {LIMIT, old.rlim_max};
  static uint8_t frame[RECORD];
  char path[128], err[256];
  snprintf(path, sizeof path, "%s/full.pcap", dir);
  /* 1: keep writing until a write fails. */
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  lfc_pcap_t *p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ETHERNET, err, sizeof err);
  int rc = 0;
  for (int i = 0; i < 100 && rc == 0; i++) {
    rc = lfc_pcap_write(p, 0, LFC_PCAP_ETH, frame, sizeof frame, err, sizeof err);
  }
  lfc_pcap_abort(p);
  /* 1b: the same with room for the terminator only. */
  p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ETHERNET, err, sizeof err);
  char tiny[1] = {'x'};
  int rc_tiny = 0;
  for (int i = 0; i < 100 && rc_tiny == 0; i++) {
    rc_tiny = lfc_pcap_write(p, 0, LFC_PCAP_ETH, frame, sizeof frame, tiny, sizeof tiny);
  }
  lfc_pcap_abort(p);
  /* 2: three records fit the stdio buffer, not the limit: close fails. */
  p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ETHERNET, err, sizeof err);
  int rc_small = 0;
  for (int i = 0; i < 3; i++) {
    rc_small |= lfc_pcap_write(p, 0, LFC_PCAP_ETH, frame, sizeof frame, NULL, 0);
  }
  char close_err[256];
  const int rc_close = lfc_pcap_close(p, close_err, sizeof close_err);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
  signal(SIGXFSZ, old_handler);
  assert_int_equal(rc, -1);
  assert_non_null(strstr(err, "cannot write"));
  assert_non_null(strstr(err, path));
  assert_int_equal(rc_tiny, -1);
  assert_int_equal(tiny[0], '\0');
  assert_int_equal(rc_small, 0);
  assert_int_equal(rc_close, -1);
  assert_non_null(strstr(close_err, "cannot write"));
  assert_int_equal(entries(), 0); /* no file, no temporary */
}

/* Both directions of a link in one file (docs/wire-formats.md §6): ERF records carry the
 * direction as their capture interface (flags bits 1:0); an Ethernet frame from one side's
 * address cannot be written as the other direction; 247 has no place for direction 1. */
static void test_pcap_directions(void **state) {
  (void)state;
  char path[128], err[256];
  uint8_t mac[6];
  lfc_pcap_side_mac(0x1234, 1, mac);
  const uint8_t want[6] = {0x02, 0x4C, 0x46, 0x12, 0x34, 0x01};
  assert_memory_equal(mac, want, 6);
  assert_int_equal(lfc_pcap_mac_side(mac), 1);
  lfc_pcap_side_mac(0x10005, 0, mac); /* the link's low 16 bits */
  assert_int_equal(mac[3] << 8 | mac[4], 5);
  assert_int_equal(lfc_pcap_mac_side(mac), 0);
  mac[5] = 2;
  assert_int_equal(lfc_pcap_mac_side(mac), -1);
  mac[5] = 0;
  for (unsigned i = 0; i < 3; i++) { /* each byte of the prefix 02-4C-46 is checked */
    uint8_t m[6];
    memcpy(m, mac, sizeof m);
    m[i] ^= 0x10;
    assert_int_equal(lfc_pcap_mac_side(m), -1);
  }

  snprintf(path, sizeof path, "%s/dir.pcap", dir);
  lfc_pcap_t *p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ERF, err, sizeof err);
  assert_non_null(p);
  const uint8_t fcp[6] = {1, 2, 3, 4, 5, 6};
  assert_int_equal(lfc_pcap_write_dir(p, 0, LFC_PCAP_IB_LINK, LFC_PCAP_DIR_BA, fcp, 6, err,
                                      sizeof err), 0);
  assert_int_equal(lfc_pcap_write_dir(p, 0, LFC_PCAP_IB_DATA, LFC_PCAP_DIR_AB, fcp, 6, err,
                                      sizeof err), 0);
  assert_int_equal(lfc_pcap_write_dir(p, 0, LFC_PCAP_IB_DATA, 2, fcp, 6, err, sizeof err), -1);
  assert_non_null(strstr(err, "direction 2"));
  assert_int_equal(lfc_pcap_close(p, err, sizeof err), 0);
  uint8_t b[256];
  assert_int_equal(slurp(path, b, sizeof b), 24 + 2 * (16 + 16 + 6));
  assert_int_equal(b[24 + 16 + 9], 0x04 | 1); /* varying length, interface 1 */
  assert_int_equal(b[24 + 38 + 16 + 9], 0x04);

  snprintf(path, sizeof path, "%s/eth.pcap", dir);
  p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ETHERNET, err, sizeof err);
  uint8_t frame[64] = {0};
  lfc_pcap_side_mac(7, 1, frame + 6); /* the source address: side B */
  assert_int_equal(lfc_pcap_write_dir(p, 0, LFC_PCAP_ETH, LFC_PCAP_DIR_BA, frame, sizeof frame,
                                      err, sizeof err), 0);
  assert_int_equal(lfc_pcap_write_dir(p, 0, LFC_PCAP_ETH, LFC_PCAP_DIR_AB, frame, sizeof frame,
                                      err, sizeof err), -1);
  assert_non_null(strstr(err, "side B's address"));
  lfc_pcap_side_mac(7, 0, frame + 6); /* side A's address written as B's direction */
  assert_int_equal(lfc_pcap_write_dir(p, 0, LFC_PCAP_ETH, LFC_PCAP_DIR_BA, frame, sizeof frame,
                                      err, sizeof err), -1);
  assert_non_null(strstr(err, "side A's address"));
  lfc_pcap_side_mac(7, 1, frame + 6);
  /* the shortest frame that has a source address: 12 bytes; a shorter one has none to check */
  assert_int_equal(lfc_pcap_write_dir(p, 0, LFC_PCAP_ETH, LFC_PCAP_DIR_AB, frame, 12, err,
                                      sizeof err), -1);
  assert_int_equal(lfc_pcap_write_dir(p, 0, LFC_PCAP_ETH, LFC_PCAP_DIR_AB, frame, 11, err,
                                      sizeof err), 0);
  lfc_pcap_abort(p);

  snprintf(path, sizeof path, "%s/ib247.pcap", dir);
  p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_INFINIBAND, err, sizeof err);
  assert_int_equal(lfc_pcap_write_dir(p, 0, LFC_PCAP_IB_LINK, LFC_PCAP_DIR_BA, fcp, 6, err,
                                      sizeof err), -1);
  assert_non_null(strstr(err, "247"));
  assert_int_equal(lfc_pcap_write_dir(p, 0, LFC_PCAP_IB_LINK, LFC_PCAP_DIR_AB, fcp, 6, err,
                                      sizeof err), 0);
  lfc_pcap_abort(p);
  assert_int_equal(entries(), 1);
}

/* lfc/pcap.h: when the temporary file cannot be made into the file (its mode cannot be set),
 * lfc_pcap_open gives NULL with the path and the reason, and leaves nothing behind. */
static void test_pcap_open_mode_refused(void **state) {
  (void)state;
  char path[128], err[256] = "";
  snprintf(path, sizeof path, "%s/mode.pcap", dir);
  const int fds = open_fds();
  fchmod_errno = EPERM;
  lfc_pcap_t *p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ETHERNET, err, sizeof err);
  fchmod_errno = 0;
  assert_null(p);
  assert_non_null(strstr(err, path));
  assert_non_null(strstr(err, strerror(EPERM)));
  assert_int_equal(open_fds(), fds);
  assert_int_equal(entries(), 0); /* no temporary file */
  /* and with the mode allowed again, the same path opens */
  p = lfc_pcap_open(path, LFC_PCAP_LINKTYPE_ETHERNET, err, sizeof err);
  assert_non_null(p);
  assert_int_equal(lfc_pcap_close(p, err, sizeof err), 0);
  assert_int_equal(entries(), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_pcap_ethernet_bytes, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pcap_erf_bytes, setup, teardown),
      cmocka_unit_test(test_pcap_cycle_time),
      cmocka_unit_test_setup_teardown(test_pcap_refusals_keep_old_file, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pcap_close_rename_fails, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pcap_full_disk, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pcap_directions, setup, teardown),
      cmocka_unit_test_setup_teardown(test_pcap_open_mode_refused, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
