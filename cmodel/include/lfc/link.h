/*
 * lfc/link.h - a link of fixed delay (docs/SPEC.md §12.1): the word put in during cycle t comes
 * out during cycle t + delay.
 *
 * Use per cycle: read lfc_link_head() as the receiver's input, step both ends, then
 * lfc_link_push() the transmitter's output.
 */
#ifndef LFC_LINK_H
#define LFC_LINK_H

#include "lfc/export.h"

#include "lfc/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define LFC_LINK_MAX_DELAY 65535u

typedef struct lfc_link lfc_link_t;

/* delay 1..LFC_LINK_MAX_DELAY cycles; NULL if out of range or out of memory. Starts all IDLE. */
LFC_API lfc_link_t *lfc_link_create(uint32_t delay);
/* Free a link; NULL is allowed. */
LFC_API void lfc_link_destroy(lfc_link_t *link);
/* Every word in flight back to IDLE, as at creation. */
LFC_API void lfc_link_reset(lfc_link_t *link);
/* The delay the link was created with, in cycles. */
LFC_API uint32_t lfc_link_delay(const lfc_link_t *link);

/* The word arriving in the current cycle (pushed `delay` cycles ago). */
LFC_API const lfc_word_t *lfc_link_head(const lfc_link_t *link);

/* Put in this cycle's word and move to the next cycle. */
LFC_API void lfc_link_push(lfc_link_t *link, const lfc_word_t *word);

#ifdef __cplusplus
}
#endif

#endif /* LFC_LINK_H */
