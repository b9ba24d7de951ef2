/*
 * lfc/export.h - LFC_API, the mark of every function of the public API.
 *
 * The library's objects are compiled with -fvisibility=hidden, so liblfc.so exports only the
 * functions marked LFC_API: those declared in the headers of lfc/. The functions the blocks of
 * the model share among themselves stay internal and can change without changing the ABI
 * (scripts/test_abi.sh checks that the exports are exactly the declarations of the lfc/ headers).
 * Needs nothing else, so that lfc/flat.h stays a header of its own.
 */
#ifndef LFC_EXPORT_H
#define LFC_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define LFC_API __attribute__((visibility("default")))
#else
#define LFC_API
#endif

#endif /* LFC_EXPORT_H */
