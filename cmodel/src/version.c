/*
 * version.c - lfc_version(): the semantic version from the file VERSION at the top of the tree.
 *
 * The build (scripts/install.mk) compiles this file with -DLFC_VERSION_STRING="\"x.y.z\"" read
 * from VERSION, so that the version is written in one place only. A build that forgets the flag
 * stops here rather than producing a library that reports a wrong version.
 */
#include "lfc/version.h"

#ifndef LFC_VERSION_STRING
/* The flag is $(LFC_VERSION_CPPFLAGS) of scripts/install.mk. */
#error "compile with -DLFC_VERSION_STRING='\"x.y.z\"', x.y.z from the file VERSION"
#endif

const char *lfc_version(void) { return LFC_VERSION_STRING; }
