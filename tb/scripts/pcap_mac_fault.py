#!/usr/bin/env python3
"""tb/scripts/pcap_mac_fault.py - a broken MAC on the switch's side of a co-simulation capture.

    pcap_mac_fault.py KIND IN.pcap OUT.pcap

The RTL's ports carry the link words of SPEC §2: a PFC word has its enable vector and times but
no opcode and no FCS; the bytes of the frame are made by the capture writer (tb/common/tb_pcap.c,
docs/wire-formats.md §6). A MAC that gets them wrong is therefore made here, on the bytes: the
first PFC frame side A (the switch, source address 02-4C-46-LL-LL-00, lfc_pcap_side_mac) sent in
IN gets, for KIND
    opcode  the MAC Control opcode 0x0102 instead of 0x0101 (IEEE 802.1Qbb), its FCS recomputed;
    fcs     its FCS with one bit flipped (IEEE 802.3 clause 3.2.9),
and the file is written to OUT, every other record unchanged. lfc-check must then report an
eth-malformed line for that frame (make test-vip-variants, tb/scripts/vip_variants.sh).

Prints one line naming the record changed. Exit 0; 2 for bad arguments, a file that is not a
classic Ethernet pcap, or one without such a frame.
"""
import struct
import sys
import zlib

MAC_CTRL_ETHERTYPE = 0x8808
OP_PFC = 0x0101
OP_WRONG = 0x0102  # not a MAC Control opcode of IEEE 802.3 Annex 31A that lfc knows
ETH_HDR = 14
FCS_BYTES = 4
LINKTYPE_ETHERNET = 1
SIDE_MAC_OUI = bytes([0x02, 0x4C, 0x46])
SIDE_A = 0
FILE_HDR = 24
REC_HDR = 16
MAGICS = {0xA1B2C3D4, 0xA1B23C4D}


def fail(msg):
    print(f"pcap_mac_fault.py: {msg}", file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) != 4 or argv[1] not in ("opcode", "fcs"):
        fail("usage: pcap_mac_fault.py opcode|fcs IN.pcap OUT.pcap")
    kind, src, dst = argv[1], argv[2], argv[3]
    try:
        with open(src, "rb") as f:
            data = bytearray(f.read())
    except OSError as e:
        fail(f"{src}: {e.strerror}")
    if len(data) < FILE_HDR:
        fail(f"{src}: shorter than a pcap file header")
    endian = None
    for e in ("<", ">"):
        if struct.unpack_from(e + "I", data, 0)[0] in MAGICS:
            endian = e
    if endian is None:
        fail(f"{src}: not a classic pcap file (bad magic)")
    if struct.unpack_from(endian + "I", data, 20)[0] != LINKTYPE_ETHERNET:
        fail(f"{src}: link type is not Ethernet (1)")
    off, rec = FILE_HDR, 0
    while off + REC_HDR <= len(data):
        rec += 1
        incl = struct.unpack_from(endian + "I", data, off + 8)[0]
        frame = off + REC_HDR
        if frame + incl > len(data):
            fail(f"{src}: record {rec} is cut short")
        n = incl
        if n >= ETH_HDR + 2 + FCS_BYTES:
            ethertype, opcode = struct.unpack_from(">HH", data, frame + 12)
            srcmac = bytes(data[frame + 6:frame + 12])
            if (ethertype == MAC_CTRL_ETHERTYPE and opcode == OP_PFC and
                    srcmac[:3] == SIDE_MAC_OUI and srcmac[5] == SIDE_A):
                body = bytes(data[frame:frame + n - FCS_BYTES])
                fcs = struct.unpack_from("<I", data, frame + n - FCS_BYTES)[0]
                if zlib.crc32(body) != fcs:
                    fail(f"{src}: record {rec}: the FCS does not match (a capture without FCS?)")
                if kind == "opcode":
                    struct.pack_into(">H", data, frame + 14, OP_WRONG)
                    struct.pack_into("<I", data, frame + n - FCS_BYTES,
                                     zlib.crc32(bytes(data[frame:frame + n - FCS_BYTES])))
                    what = f"opcode 0x{OP_PFC:04x} -> 0x{OP_WRONG:04x}, FCS recomputed"
                else:
                    data[frame + n - 1] ^= 0x01
                    what = "FCS with its last bit flipped"
                try:
                    with open(dst, "wb") as f:
                        f.write(data)
                except OSError as e:
                    fail(f"{dst}: {e.strerror}")
                print(f"pcap_mac_fault: {src} record {rec} (the switch's first PFC frame): {what}")
                return 0
        off = frame + incl
    fail(f"{src}: no PFC frame from side A (the switch) in it")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
