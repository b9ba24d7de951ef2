/*
 * errtext.c - one line of error text into a caller's buffer (errtext.h).
 */
#include "errtext.h"

#include <stdio.h>

void lfc_vsay(char *err, size_t errlen, const char *fmt, va_list ap) {
  if (err == NULL || errlen == 0) return; /* no buffer: the caller wants the status only */
  vsnprintf(err, errlen, fmt, ap);
}

void lfc_say(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lfc_vsay(err, errlen, fmt, ap);
  va_end(ap);
}
