/*
 * errtext.h - one line of error text into a caller's buffer (internal to the library).
 *
 * The library's functions that can refuse their input take (char *err, size_t errlen) and write
 * their one-line reason there. err may be NULL and errlen 0: then nothing is written.
 */
#ifndef LFC_ERRTEXT_H
#define LFC_ERRTEXT_H

#include <stdarg.h>
#include <stddef.h>

void lfc_say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void lfc_vsay(char *err, size_t errlen, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif /* LFC_ERRTEXT_H */
