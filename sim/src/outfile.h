/*
 * outfile.h - output files that are written whole or not at all (--json, --csv, --plot).
 *
 * A regular file (or one that does not exist yet) is written under a temporary name in the
 * same directory and renamed into place when it is complete and every write succeeded, so a
 * failure leaves the old file or none, never a truncated one. A path that exists and is not a
 * regular file (a device such as /dev/stdout or /dev/full, a pipe) cannot be replaced by a
 * rename: it is written directly, and its writes are checked the same way.
 *
 * Errors are returned as one line in err naming the path and the cause (strerror); nothing is
 * printed here.
 */
#ifndef LFC_SIM_OUTFILE_H
#define LFC_SIM_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
  FILE *f;    /* write with stdio; errors are caught by outfile_close (ferror, fflush, fclose) */
  char *path; /* the destination (owned) */
  char *tmp;  /* the temporary name (owned), NULL when writing directly */
} outfile_t;

/* Open path for writing. 0, or -1 with err (o is then closed: outfile_close/discard are
 * no-ops on it). */
int outfile_open(outfile_t *o, const char *path, char *err, size_t errlen);

/* True if a write to the file has failed so far (for long series: stop early). */
int outfile_failed(const outfile_t *o);

/* Flush and check every write so far (and fsync a temporary): after 0, outfile_close fails
 * only if the rename does. 0, or -1 with err. */
int outfile_sync(outfile_t *o, char *err, size_t errlen);

/* Flush, check every write, close, and rename the temporary into place. 0, or -1 with err;
 * on failure the temporary is removed and the destination left as it was. Frees o's names;
 * a closed (or never opened, zeroed) o gives 0. */
int outfile_close(outfile_t *o, char *err, size_t errlen);

/* Give up: close and remove the temporary (a direct write is only closed). */
void outfile_discard(outfile_t *o);

/* dir "/" name, allocated (the caller frees); NULL if out of memory. No fixed-size buffer:
 * a long path is never cut. */
char *path_join(const char *dir, const char *name);

/* A path that programs will not read as anything but a file name: a relative path gets "./"
 * in front, so that it cannot start with "-" (an option of dot), "<" or "|" (a pipe to a
 * shell command in gnuplot's plot and set output). Allocated; NULL if out of memory. */
char *path_literal(const char *path);

#endif /* LFC_SIM_OUTFILE_H */
