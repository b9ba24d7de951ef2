/*
 * test_word_format.c - lfc_word_format (lfc/types.h), the text of a link word in reports and
 * mismatch messages, in the form lfc/flat.h documents ("DATA sop cls=1 nblk=3 dst=2
 * tag=0x00000007 ecn=2", "FCP vl=0 fctbs=12 fccl=2060", "IDLE"): each kind exactly, the FCP ops
 * named, PFC priorities listed when enabled or non-zero; a short buffer gets a terminated prefix
 * (a one-byte buffer the empty one), a zero-length buffer is left alone.
 */
#include "testutil.h"

#include <string.h>

static void check(const lfc_word_t *w, const char *want) {
  char buf[256];
  memset(buf, 'x', sizeof buf);
  assert_ptr_equal(lfc_word_format(w, buf, sizeof buf), buf);
  assert_string_equal(buf, want);
  char small[8];
  lfc_word_format(w, small, sizeof small);
  assert_int_equal(strlen(small), strlen(want) < sizeof small ? strlen(want) : sizeof small - 1);
  assert_memory_equal(small, want, strlen(small));
  /* "always NUL-terminated": a one-byte buffer holds the empty prefix, a zero-length one is
   * not touched */
  char one[2] = {'x', 'y'};
  assert_ptr_equal(lfc_word_format(w, one, 1), one);
  assert_int_equal(one[0], '\0');
  assert_int_equal(one[1], 'y');
  assert_ptr_equal(lfc_word_format(w, one, 0), one);
  assert_int_equal(one[0], '\0');
  one[0] = 'x';
  lfc_word_format(w, one, 0);
  assert_int_equal(one[0], 'x');
}

static void test_word_format_every_kind(void **state) {
  (void)state;
  lfc_word_t w;
  memset(&w, 0, sizeof w);
  check(&w, "IDLE");
  w = tu_data_word(1, 0, 1, 3, 2, 7, 2);
  check(&w, "DATA sop cls=1 nblk=3 dst=2 tag=0x00000007 ecn=2");
  w = tu_data_word(0, 1, 4, 9, 300, 0xABCDEF01u, 0);
  check(&w, "DATA eop cls=4 nblk=9 dst=300 tag=0xabcdef01 ecn=0");
  memset(&w, 0, sizeof w);
  w.kind = LFC_FCP;
  w.fc_vl = 0;
  w.fc_fctbs = 12;
  w.fc_fccl = 2060;
  check(&w, "FCP vl=0 fctbs=12 fccl=2060");
  w.fc_op = LFC_FCP_OP_INIT;
  w.fc_vl = 14;
  check(&w, "FCP init vl=14 fctbs=12 fccl=2060");
  w.fc_op = 5; /* reserved */
  check(&w, "FCP op? vl=14 fctbs=12 fccl=2060");
  memset(&w, 0, sizeof w);
  w.kind = LFC_PFC;
  w.pfc_en = 0x05;
  w.pfc_time[0] = 100;
  w.pfc_time[3] = 9; /* not enabled but non-zero: shown */
  check(&w, "PFC en=0x05 t0=100 t2=0 t3=9");
  w.kind = 7;
  check(&w, "kind=7?");
  assert_null(lfc_word_format(&w, NULL, 10));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_word_format_every_kind),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
