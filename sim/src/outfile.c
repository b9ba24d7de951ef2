/*
 * outfile.c - output files written whole or not at all (outfile.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary names tried before giving up (a stale one from a killed run is left alone). */
#define OUTFILE_TMP_TRIES 100

char *path_join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + 1u + b + 1u);
  if (p == NULL) return NULL;
  memcpy(p, dir, a);
  p[a] = '/';
  memcpy(p + a + 1u, name, b + 1u);
  return p;
}

char *path_literal(const char *path) {
  size_t n = strlen(path);
  int rel = path[0] != '/';
  char *p = malloc(n + (rel ? 2u : 0u) + 1u);
  if (p == NULL) return NULL;
  if (rel) memcpy(p, "./", 2);
  memcpy(p + (rel ? 2u : 0u), path, n + 1u);
  return p;
}

static void fail(char *err, size_t errlen, const char *path, const char *what, int e) {
  if (err && errlen) snprintf(err, errlen, "%s: %s: %s", path, what, strerror(e));
}

int outfile_open(outfile_t *o, const char *path, char *err, size_t errlen) {
  memset(o, 0, sizeof *o);
  size_t n = strlen(path);
  o->path = malloc(n + 1u);
  if (o->path == NULL) {
    fail(err, errlen, path, "cannot open", ENOMEM);
    return -1;
  }
  memcpy(o->path, path, n + 1u);
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) {
      fail(err, errlen, path, "cannot write", EISDIR);
      goto fail;
    }
    o->f = fopen(path, "w"); /* a device or a pipe: nothing to rename onto */
    if (o->f == NULL) {
      fail(err, errlen, path, "cannot open", errno);
      goto fail;
    }
    return 0;
  }
  /* path ".tmp" digits: in the same directory, so that the rename is atomic (same file system) */
  o->tmp = malloc(n + 32u);
  if (o->tmp == NULL) {
    fail(err, errlen, path, "cannot open", ENOMEM);
    goto fail;
  }
  int fd = -1;
  for (int i = 0; i < OUTFILE_TMP_TRIES && fd < 0; i++) {
    snprintf(o->tmp, n + 32u, "%s.tmp%ld.%d", path, (long)getpid(), i);
    fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    fail(err, errlen, path, "cannot create a temporary file beside it", errno);
    goto fail;
  }
  o->f = fdopen(fd, "w");
  if (o->f == NULL) {
    int e = errno;
    close(fd);
    unlink(o->tmp);
    fail(err, errlen, path, "cannot open", e);
    goto fail;
  }
  return 0;
fail:
  free(o->path);
  free(o->tmp);
  memset(o, 0, sizeof *o);
  return -1;
}

int outfile_failed(const outfile_t *o) { return o->f != NULL && ferror(o->f); }

int outfile_sync(outfile_t *o, char *err, size_t errlen) {
  if (o->f == NULL) return 0;
  errno = 0;
  int had_error = ferror(o->f);
  if (fflush(o->f) != 0 || had_error) {
    /* a write failed before (its errno is gone), or the last buffer did */
    fail(err, errlen, o->path, "write failed", errno ? errno : EIO);
    return -1;
  }
  if (o->tmp && fsync(fileno(o->f)) != 0) { /* on disk before it replaces the old file */
    fail(err, errlen, o->path, "write failed", errno);
    return -1;
  }
  return 0;
}

int outfile_close(outfile_t *o, char *err, size_t errlen) {
  if (o->f == NULL) {
    outfile_discard(o);
    return 0;
  }
  int rc = outfile_sync(o, err, errlen);
  if (fclose(o->f) != 0 && rc == 0) {
    fail(err, errlen, o->path, "write failed", errno);
    rc = -1;
  }
  o->f = NULL;
  if (o->tmp) {
    if (rc == 0 && rename(o->tmp, o->path) != 0) {
      fail(err, errlen, o->path, "cannot rename the temporary file into place", errno);
      rc = -1;
    }
    if (rc != 0) unlink(o->tmp);
  }
  outfile_discard(o);
  return rc;
}

void outfile_discard(outfile_t *o) {
  if (o->f) fclose(o->f);
  if (o->f && o->tmp) unlink(o->tmp);
  free(o->path);
  free(o->tmp);
  memset(o, 0, sizeof *o);
}
