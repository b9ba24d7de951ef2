/*
 * lfc/version.h - the version of the library, as a semantic version "MAJOR.MINOR.PATCH"
 * (https://semver.org). The one place it is written is the file VERSION at the top of the
 * source tree; the build passes it to src/version.c, pkg-config reports it (lfc.pc) and the
 * shared library's soname carries its MAJOR part (liblfc.so.MAJOR).
 */
#ifndef LFC_VERSION_H
#define LFC_VERSION_H

#include "lfc/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The version of the library linked in (not of the headers compiled against), e.g. "0.2.0".
 * A static string owned by the library: never NULL, never freed. Programs print it for
 * --version; a program can compare it with `pkg-config --modversion lfc`.
 */
LFC_API const char *lfc_version(void);

#ifdef __cplusplus
}
#endif

#endif /* LFC_VERSION_H */
