/*
 * errbuf_testutil.h - checking the message buffer of a call that reports errors as lfc/switch.h
 * documents them: "writes one line to err (if err is not NULL)", bounded by errlen as snprintf
 * is. CHECK_ALL_BUFFERS runs a failing call with err NULL (errlen 0 and > 0), errlen 0 with a
 * buffer, a short buffer and a full one; the tests of switch.c, config_keys.c, nic.c and star.c
 * use it.
 */
#ifndef LFC_ERRBUF_TESTUTIL_H
#define LFC_ERRBUF_TESTUTIL_H

#include <string.h>

#include "testutil.h"

enum { BIG = 256, SHORT = 8, CANARY = 0x5A };

/* A buffer of BIG bytes filled with CANARY. */
static inline void fill(char *b) { memset(b, CANARY, BIG); }

/* Every byte from `from` on still holds CANARY. */
static inline void assert_untouched(const char *b, size_t from) {
  for (size_t i = from; i < BIG; i++)
    if ((unsigned char)b[i] != CANARY) fail_msg("byte %zu of the message buffer was written", i);
}

/* The four ways to pass a buffer, for a call that fails: err NULL with errlen 0 and with errlen
 * > 0, errlen 0 with a buffer, a short buffer; the full message for comparison. */
#define CHECK_ALL_BUFFERS(call_with, full_has)                                        \
  do {                                                                                \
    char b_[BIG];                                                                     \
    char *err;                                                                        \
    size_t errlen;                                                                    \
    err = NULL;                                                                       \
    errlen = 0;                                                                       \
    call_with;                                                                        \
    err = NULL;                                                                       \
    errlen = BIG;                                                                     \
    call_with;                                                                        \
    fill(b_);                                                                         \
    err = b_;                                                                         \
    errlen = 0;                                                                       \
    call_with;                                                                        \
    assert_untouched(b_, 0);                                                          \
    fill(b_);                                                                         \
    errlen = SHORT;                                                                   \
    call_with;                                                                        \
    assert_int_equal(strlen(b_), SHORT - 1);                                          \
    assert_untouched(b_, SHORT);                                                      \
    char short_[SHORT];                                                               \
    memcpy(short_, b_, SHORT);                                                        \
    fill(b_);                                                                         \
    errlen = BIG;                                                                     \
    call_with;                                                                        \
    assert_true(strlen(b_) > SHORT);                                                  \
    assert_memory_equal(short_, b_, SHORT - 1); /* the start of the same message */   \
    assert_non_null(strstr(b_, full_has));                                            \
  } while (0)

#endif
