/*
 * fig.h - what the figure programs of docs/mechanisms/ share: open the CSV they write, look a
 * register up by its SPEC §13.1 name, and stop with a message when something is wrong.
 *
 * Each program runs one deterministic experiment on liblfc through its public API
 * (lfc/lfc.h) and writes CSV files into the directory named by its only argument.
 * scripts/doc-figures.sh plots them and checks the facts the pages claim.
 */
#ifndef DOC_FIG_H
#define DOC_FIG_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lfc/lfc.h"

#define FIG_EXIT_USAGE 2
#define FIG_PATH_LEN 1024

static inline void fig_die(const char *prog, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", prog);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(1);
}

/* The output directory: the program's only argument. */
static inline const char *fig_outdir(int argc, char **argv, const char *what) {
  if (argc != 2 || argv[1][0] == '-') {
    fprintf(stderr, "usage: %s OUTDIR\n  writes %s into OUTDIR (which must exist)\n", argv[0],
            what);
    exit(FIG_EXIT_USAGE);
  }
  return argv[1];
}

/* Open OUTDIR/NAME for writing and put the header line in. */
static inline FILE *fig_csv(const char *prog, const char *dir, const char *name,
                            const char *header) {
  char path[FIG_PATH_LEN];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    fprintf(stderr, "%s: cannot write %s: OUTDIR must be an existing, writable directory\n", prog,
            path);
    exit(FIG_EXIT_USAGE);
  }
  fprintf(f, "%s\n", header);
  return f;
}

/* Register index by name (SPEC §13.1); a name the library does not know is a bug here. */
static inline size_t fig_reg(const char *prog, const char *name) {
  int r = lfc_reg_find(name);
  if (r < 0) fig_die(prog, "liblfc has no register named '%s'", name);
  return (size_t)r;
}

#endif /* DOC_FIG_H */
