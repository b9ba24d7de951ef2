/*
 * wire.c - status names and error reporting shared by the wire codecs (lfc/wire.h).
 */
#include "wire_internal.h"

#include <stdarg.h>
#include <stdio.h>

#include "lfc/crc.h"

static const char *const status_names[LFC_WIRE_STATUS_COUNT] = {
    [LFC_WIRE_OK] = "ok",
    [LFC_WIRE_SHORT] = "short",
    [LFC_WIRE_BAD_FCS] = "bad-fcs",
    [LFC_WIRE_BAD_LPCRC] = "bad-lpcrc",
    [LFC_WIRE_BAD_VCRC] = "bad-vcrc",
    [LFC_WIRE_BAD_ICRC] = "bad-icrc",
    [LFC_WIRE_BAD_CHECKSUM] = "bad-checksum",
    [LFC_WIRE_BAD_ADDRESS] = "bad-address",
    [LFC_WIRE_BAD_ETHERTYPE] = "bad-ethertype",
    [LFC_WIRE_BAD_OPCODE] = "bad-opcode",
    [LFC_WIRE_BAD_VERSION] = "bad-version",
    [LFC_WIRE_BAD_LENGTH] = "bad-length",
    [LFC_WIRE_BAD_PROTOCOL] = "bad-protocol",
    [LFC_WIRE_BAD_PORT] = "bad-port",
    [LFC_WIRE_RESERVED] = "reserved",
    [LFC_WIRE_BAD_FIELD] = "bad-field",
    [LFC_WIRE_NO_ROOM] = "no-room",
};

const char *lfc_wire_status_name(lfc_wire_status_t status) {
  if ((unsigned)status >= LFC_WIRE_STATUS_COUNT) return "unknown";
  return status_names[status];
}

lfc_wire_status_t wire_fail(lfc_wire_error_t *err, lfc_wire_status_t status, size_t offset,
                            const char *fmt, ...) {
  if (err != NULL) {
    err->status = status;
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->text, sizeof err->text, fmt, ap);
    va_end(ap);
  }
  return status;
}

lfc_wire_status_t wire_ok(lfc_wire_error_t *err) {
  if (err != NULL) {
    err->status = LFC_WIRE_OK;
    err->offset = 0;
    err->text[0] = '\0';
  }
  return LFC_WIRE_OK;
}

lfc_wire_status_t wire_check_fcs(const uint8_t *frame, size_t len, lfc_wire_error_t *err) {
  const size_t body = len - LFC_ETH_FCS_BYTES;
  const uint32_t want = lfc_crc32(frame, body);
  const uint32_t got = wire_get32le(frame + body);
  if (want != got) {
    return wire_fail(err, LFC_WIRE_BAD_FCS, body, "FCS 0x%08x, computed 0x%08x", (unsigned)got,
                     (unsigned)want);
  }
  return LFC_WIRE_OK;
}

void wire_put_fcs(uint8_t *frame, size_t len) {
  wire_put32le(frame + len, lfc_crc32(frame, len));
}
