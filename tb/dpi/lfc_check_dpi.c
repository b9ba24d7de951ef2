/*
 * lfc_check_dpi.c - the little C that tb/dpi/lfc_check_pkg.sv needs around lfc/check.h
 * (docs/verify-your-rtl.md, "SystemVerilog (DPI-C)").
 *
 * The package imports most of lfc/check.h directly (lfc_check_frame, _finish, _violations, ...:
 * handles, integers and a fixed-size byte array cross DPI-C as they are). Only what a DPI-C import
 * cannot call is here: functions that write into a caller's buffer (the reason a checker could
 * not be made, a violation's line) or take a size_t index. Each returns its text in a buffer of
 * this file, per thread, which the simulator copies when the import returns (IEEE 1800-2017
 * §35.5.6: a returned string is the caller's to copy). No checking logic: lfc/check.h has it.
 * Compiled with gcc (C11) and linked into the Verilated model, as tb/dpi/lfc_dpi.c.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "lfc/check.h"

#define ERR_CHARS 512u  /* a create_text error: one line */
#define LINE_CHARS 1024u /* a violation: lfc_check_format's line */

static _Thread_local char create_err[ERR_CHARS];
static _Thread_local char line[LINE_CHARS];

/* A checker of mode "ib" or "pfc" from lfc_check_create_text's settings, or NULL: the reason is
 * then lfc_check_dpi_create_error(). */
void *lfc_check_dpi_create(const char *mode, const char *settings) {
  lfc_mode_t m;
  if (strcmp(mode, "ib") == 0) {
    m = LFC_MODE_IB;
  } else if (strcmp(mode, "pfc") == 0) {
    m = LFC_MODE_PFC;
  } else {
    snprintf(create_err, ERR_CHARS, "check: mode '%s': ib or pfc", mode);
    return NULL;
  }
  create_err[0] = '\0';
  return lfc_check_create_text(m, settings, create_err, ERR_CHARS);
}

/* Why the last lfc_check_dpi_create of this thread returned NULL, or "". */
const char *lfc_check_dpi_create_error(void) { return create_err; }

/* The i-th violation kept, as one line (lfc_check_format), or "" when there is none. */
const char *lfc_check_dpi_format(void *c, int i) {
  if (i < 0 || lfc_check_format(c, (size_t)i, line, LINE_CHARS) == NULL) return "";
  return line;
}

/* Functional coverage (lfc_check_cov_*) with int indices. */
int lfc_check_dpi_cov_points(void) { return (int)lfc_check_cov_points(); }

const char *lfc_check_dpi_cov_name(int point) {
  const char *name = point < 0 ? NULL : lfc_check_cov_name((size_t)point);
  return name != NULL ? name : "";
}

/* The count of point, or -1 when the point is not counted in the checker's mode. */
int64_t lfc_check_dpi_cov(void *c, int point, int mode_pfc) {
  if (point < 0 || !lfc_check_cov_in_mode((size_t)point, mode_pfc ? LFC_MODE_PFC : LFC_MODE_IB)) {
    return -1;
  }
  return (int64_t)lfc_check_cov(c, (size_t)point);
}
