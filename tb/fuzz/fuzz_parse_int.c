/*
 * fuzz_parse_int.c - libFuzzer target: lfc_parse_int (cmodel/src/config_keys.c), the integer
 * reader of every front end (lfc_switch_cfg_set, the co-simulation's .ini files, lfc-sim's
 * scenarios), on arbitrary text.
 *
 * Checked besides crashes and sanitizer findings:
 *   - against a reference written from the grammar of lfc/switch.h and nothing else:
 *     blanks (space, tab), an optional sign, then 0x/0X hex digits, 0b/0B binary digits or
 *     decimal digits (a leading zero is still decimal), then blanks; its value in 128 bits.
 *     Same verdict (0 / -1 not a number / -2 out of range) and same value, in the full int64_t
 *     range and in a range [min, max] taken from the value itself;
 *   - *out untouched unless 0 is returned;
 *   - round trip: an accepted value printed back in decimal, in hex and in binary (with its sign)
 *     reads as the same value.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_parse.h"
#include "lfc/switch.h"

#define TARGET "parse_int"
/* A value *out never holds after a call that failed. */
#define UNTOUCHED INT64_C(0x5a5a5a5a5a5a5a5a)

/* The reference: 0 with *v (128 bits, saturated far beyond int64_t), or -1 if s is not a number
   of the grammar. */
static int ref_parse(const char *s, __int128 *v) {
  const __int128 cap = (__int128)1 << 100; /* beyond any int64_t: "too large" from here on */
  while (*s == ' ' || *s == '\t') s++;
  int neg = 0;
  if (*s == '+' || *s == '-') neg = *s++ == '-';
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
  } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s += 2;
  }
  __int128 x = 0;
  int digits = 0;
  for (;; s++, digits++) {
    int d;
    if (*s >= '0' && *s <= '9')
      d = *s - '0';
    else if (*s >= 'a' && *s <= 'f')
      d = *s - 'a' + 10;
    else if (*s >= 'A' && *s <= 'F')
      d = *s - 'A' + 10;
    else
      break;
    if (d >= base) break;
    x = x * base + d;
    if (x > cap) x = cap;
  }
  while (*s == ' ' || *s == '\t') s++;
  if (digits == 0 || *s != '\0') return -1;
  *v = neg ? -x : x;
  return 0;
}

/* The verdict lfc_parse_int must give for [min, max]. */
static int ref_verdict(int ref_rc, __int128 v, int64_t min, int64_t max) {
  if (ref_rc) return -1;
  return v < min || v > max ? -2 : 0;
}

static void check_range(const char *s, int ref_rc, __int128 v, int64_t min, int64_t max) {
  int64_t out = UNTOUCHED;
  int rc = lfc_parse_int(s, min, max, &out);
  int want = ref_verdict(ref_rc, v, min, max);
  if (rc != want)
    fuzz_fail(TARGET, "input='%s' range=%" PRId64 "..%" PRId64 " rc=%d expected=%d", s, min, max,
              rc, want);
  if (rc == 0 && (__int128)out != v)
    fuzz_fail(TARGET, "input='%s' value=%" PRId64 " expected a different value", s, out);
  if (rc != 0 && out != UNTOUCHED)
    fuzz_fail(TARGET, "input='%s' rc=%d but *out was written (%" PRId64 ")", s, rc, out);
}

/* v printed in base 2, with its sign, into buf. */
static void print_binary(int64_t v, char *buf, size_t len) {
  uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  char digits[65];
  int n = 0;
  do {
    digits[n++] = (char)('0' + (mag & 1u));
    mag >>= 1;
  } while (mag);
  size_t pos = (size_t)snprintf(buf, len, "%s0b", v < 0 ? "-" : "");
  while (n > 0 && pos + 1u < len) buf[pos++] = digits[--n];
  buf[pos] = '\0';
}

static void round_trip(const char *input, int64_t v) {
  char text[3][80];
  uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  snprintf(text[0], sizeof text[0], "%" PRId64, v);
  snprintf(text[1], sizeof text[1], "%s0x%" PRIx64, v < 0 ? "-" : "", mag);
  print_binary(v, text[2], sizeof text[2]);
  for (int i = 0; i < 3; i++) {
    int64_t back = UNTOUCHED;
    int rc = lfc_parse_int(text[i], INT64_MIN, INT64_MAX, &back);
    if (rc != 0 || back != v)
      fuzz_fail(TARGET, "input='%s' value=%" PRId64 " printed as '%s' reads back rc=%d value=%"
                PRId64, input, v, text[i], rc, back);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *s = fuzz_cstring(data, size);
  if (s == NULL) return 0;
  __int128 v = 0;
  int ref_rc = ref_parse(s, &v);
  check_range(s, ref_rc, v, INT64_MIN, INT64_MAX);
  /* Ranges around the value: its edges, and ranges that just miss it. */
  if (ref_rc == 0 && v >= INT64_MIN && v <= INT64_MAX) {
    int64_t x = (int64_t)v;
    check_range(s, ref_rc, v, x, x);
    if (x < INT64_MAX) check_range(s, ref_rc, v, x + 1, INT64_MAX);
    if (x > INT64_MIN) check_range(s, ref_rc, v, INT64_MIN, x - 1);
    check_range(s, ref_rc, v, 0, 65535); /* a typical key's range */
    round_trip(s, x);
  }
  /* NULL arguments: -1, nothing written. */
  int64_t out = UNTOUCHED;
  if (lfc_parse_int(s, 0, 1, NULL) != -1 || lfc_parse_int(NULL, 0, 1, &out) != -1 ||
      out != UNTOUCHED)
    fuzz_fail(TARGET, "input='%s': a NULL argument is not refused with -1", s);
  free(s);
  return 0;
}
