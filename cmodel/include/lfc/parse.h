/*
 * lfc/parse.h - the one integer reader of the project: the model's configuration keys, the
 * co-simulation's .ini files, lfc-sim's scenarios and every command line read numbers with it,
 * so that they agree on what a number is. Needs nothing but <stdint.h>.
 */
#ifndef LFC_PARSE_H
#define LFC_PARSE_H

#include "lfc/export.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Read one integer of a configuration value: decimal (a leading zero is still decimal: 010 is
 * ten, not C's octal eight), 0x hex or 0b binary, with an optional sign and blanks around it, as
 * SPEC §3 writes values. Every front end (lfc_switch_cfg_set, the co-simulation's .ini files,
 * lfc-sim's scenarios) reads numbers with this function, so that they agree.
 *
 * Returns 0 with the value in *out; -1 if s is not such a number (empty, other characters,
 * digits missing after 0x/0b); -2 if it is one but outside [min, max] (or outside int64_t).
 * *out is written only when 0 is returned.
 */
LFC_API int lfc_parse_int(const char *s, int64_t min, int64_t max, int64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* LFC_PARSE_H */
