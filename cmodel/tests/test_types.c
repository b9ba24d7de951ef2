/*
 * test_types.c - lfc_word_equal (lfc/types.h, cmodel/src/types.c): "true when a and b are the same word (all
 * fields)". A word equals itself and a field-by-field copy whose padding bytes differ; a word
 * that differs from it in any one field, by any one bit of that field, does not.
 */

#include "testutil.h"

#include <string.h>
/* A word with every field set to a distinct non-zero value, padding filled with `pad`. */
static void full_word(lfc_word_t *w, int pad) {
  memset(w, pad, sizeof *w);
  w->kind = LFC_PFC;
  w->sop = 1;
  w->eop = 1;
  w->cls = 5;
  w->nblk = 9;
  w->ecn = 2;
  w->pad = 38;
  w->mrg = 1;
  w->dst = 300;
  w->tag = 0x12345678u;
  w->fc_op = 1;
  w->fc_vl = 7;
  w->fc_fctbs = 0x123;
  w->fc_fccl = 0x456;
  w->pfc_en = 0xA5;
  for (uint32_t i = 0; i < LFC_PFC_MAX_PRIOS; i++) w->pfc_time[i] = (uint16_t)(1000u + i);
}

/* Flip bit `bit` of field number f of w (0..14: the scalar fields, 15..22: pfc_time[i]). */
static void flip(lfc_word_t *w, int f, unsigned bit) {
  switch (f) {
    case 0: w->kind ^= (uint8_t)(1u << (bit % 8u)); break;
    case 1: w->sop ^= (uint8_t)(1u << (bit % 8u)); break;
    case 2: w->eop ^= (uint8_t)(1u << (bit % 8u)); break;
    case 3: w->cls ^= (uint8_t)(1u << (bit % 8u)); break;
    case 4: w->nblk ^= (uint8_t)(1u << (bit % 8u)); break;
    case 5: w->ecn ^= (uint8_t)(1u << (bit % 8u)); break;
    case 6: w->dst ^= (uint16_t)(1u << (bit % 16u)); break;
    case 7: w->tag ^= 1u << (bit % 32u); break;
    case 8: w->fc_op ^= (uint8_t)(1u << (bit % 8u)); break;
    case 9: w->fc_vl ^= (uint8_t)(1u << (bit % 8u)); break;
    case 10: w->fc_fctbs ^= (uint16_t)(1u << (bit % 16u)); break;
    case 11: w->fc_fccl ^= (uint16_t)(1u << (bit % 16u)); break;
    case 12: w->pfc_en ^= (uint8_t)(1u << (bit % 8u)); break;
    case 13: w->pad ^= (uint8_t)(1u << (bit % 8u)); break;
    case 14: w->mrg ^= (uint8_t)(1u << (bit % 8u)); break;
    default: w->pfc_time[f - 15] ^= (uint16_t)(1u << (bit % 16u)); break;
  }
}

enum { FIELDS = 15 + LFC_PFC_MAX_PRIOS, BITS = 32 };

static void test_word_equal_all_fields(void **state) {
  (void)state;
  lfc_word_t a, b;
  full_word(&a, 0x00);
  full_word(&b, 0xFF); /* the same fields, other padding */
  assert_true(lfc_word_equal(&a, &a));
  assert_true(lfc_word_equal(&a, &b));
  assert_true(lfc_word_equal(&b, &a));
  for (int f = 0; f < FIELDS; f++) {
    for (unsigned bit = 0; bit < BITS; bit++) {
      lfc_word_t c = a;
      flip(&c, f, bit);
      if (lfc_word_equal(&a, &c) || lfc_word_equal(&c, &a))
        fail_msg("words differing in field %d (bit %u) compare equal", f, bit);
    }
  }
  lfc_word_t z1, z2;
  memset(&z1, 0, sizeof z1);
  memset(&z2, 0, sizeof z2);
  assert_true(lfc_word_equal(&z1, &z2)); /* two IDLE words */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_word_equal_all_fields),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
