/*
 * config_keys.h - the key table of config_keys.c (tables/params.toml), for the library's other
 * readers of parameters by name. Internal: not part of the public API.
 */
#ifndef LFC_CONFIG_KEYS_H
#define LFC_CONFIG_KEYS_H

#include <stdint.h>

#include "lfc/switch.h"

/*
 * The value of parameter `key` of cfg (the names of lfc_switch_cfg_set): an integer as the
 * field holds it (bool 0/1, mode and wd_action their enum values, alpha_log2 as 32-bit two's
 * complement); a per-port or per-class list's element `index` (index is ignored otherwise).
 * Returns 0 with *out set; -1 for a name that is not a parameter; -2 for an index outside the
 * list, with its length in *count (may be NULL): ports for speed_div, classes for vl_blocks, at
 * most 8 for drr_quantum (one slot per priority); -3 for a table (vlarb_high, vlarb_low), which
 * has no one value.
 */
int lfc_switch_cfg_get(const lfc_switch_cfg_t *cfg, const char *key, int index, int64_t *out,
                       uint32_t *count);

#endif /* LFC_CONFIG_KEYS_H */
