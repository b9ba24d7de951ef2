/* verify_example.c - the example of docs/verify-your-rtl.md: an IB link watched from reset.
 * Side B grants 10 credits on VL 0; side A sends 8 blocks, then 4 more: the second packet has
 * no credit. Build: cc verify_example.c $(pkg-config --cflags --libs lfc) */
#include <stdio.h>
#include <string.h>

#include "lfc/check.h"
#include "lfc/wire_ib_data.h"
#include "lfc/wire_ib_fcp.h"

/* A data packet of n 64-byte blocks on VL vl (payload 64n - 28 bytes, no GRH). */
static size_t packet(uint8_t *buf, size_t cap, unsigned vl, unsigned n) {
  static uint8_t payload[4096];
  lfc_ib_pkt_t p;
  memset(&p, 0, sizeof p);
  p.vl = (uint8_t)vl;
  p.dlid = 1;
  p.slid = 2;
  p.bth.opcode = 0x04; /* RC SEND only */
  p.bth.pkey = 0xFFFF;
  p.bth.dqpn = 0x100;
  p.payload = payload;
  p.payload_len = 64u * n - 28u;
  return lfc_ib_pkt_encode(&p, buf, cap, NULL);
}

int main(void) {
  lfc_check_cfg_t cfg;
  lfc_check_cfg_default(&cfg, LFC_MODE_IB);
  cfg.from_reset = true; /* every FCTBS and FCCL starts at 0 */
  cfg.data_vls = 1;
  char err[256];
  lfc_check_t *c = lfc_check_create(&cfg, err, sizeof err);
  if (c == NULL) {
    fprintf(stderr, "%s\n", err);
    return 2;
  }
  uint8_t b[4200];
  const lfc_ib_fcp_t grant = {.op = 0, .vl = 0, .fctbs = 0, .fccl = 10};
  size_t len = lfc_ib_fcp_encode(&grant, b, sizeof b, NULL);
  lfc_check_frame(c, 0, LFC_CHECK_BA, 100, LFC_PCAP_IB_LINK, b, len); /* B: FCCL 10 */
  len = packet(b, sizeof b, 0, 8);
  lfc_check_frame(c, 0, LFC_CHECK_AB, 200, LFC_PCAP_IB_DATA, b, len); /* A: 8 blocks */
  len = packet(b, sizeof b, 0, 4);
  lfc_check_frame(c, 0, LFC_CHECK_AB, 300, LFC_PCAP_IB_DATA, b, len); /* A: 4 more */
  lfc_check_finish(c, 300);

  char line[512];
  for (size_t i = 0; lfc_check_format(c, i, line, sizeof line) != NULL; i++) puts(line);
  printf("%llu violation(s)\n", (unsigned long long)lfc_check_violations(c));
  const int rc = lfc_check_violations(c) > 0 ? 1 : 0;
  lfc_check_destroy(c);
  return rc;
}
