#!/usr/bin/env python3
"""tb/fuzz/make_check_seeds.py - write the captures and seeds of the lfc-check fuzz targets
(committed; docs/fuzzing.md §5):

  tb/fuzz/check_fixtures/NAME.pcap  small captures: the model's links (lfc_wire_gen --model-*
                                    --link), random frames with broken ones (--eth, --ib-erf,
                                    --ib-247), and broken files (truncated, bad magic, pcapng,
                                    another link type, records out of time order, microsecond
                                    big-endian); fuzz_check_args reads them as "@NAME"
  tb/fuzz/corpus/check_pcap/        a settings byte + each capture (fuzz_check_pcap.c)
  tb/fuzz/corpus/check_text/        a mode byte + settings text (fuzz_check_text.c)
  tb/fuzz/corpus/check_args/        lfc-check command lines, one argument per line

Every capture is cut to at most BUDGET bytes, so that it fits libFuzzer's -max_len of 4096 with
its settings byte: whole records of the generated file (from its start, or from the first pause
for the capture with a slow end node, so that its violations are in it).

  python3 tb/fuzz/make_check_seeds.py build/tools/lfc_wire_gen
"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "check_fixtures")
BUDGET = 3800  # bytes of a capture (libFuzzer -max_len 4096, tb/fuzz/run.sh)
FILE_HDR = 24
REC_HDR = 16
LINK = "1"  # a sender of the model's incast: the switch pauses it
ETHERTYPE_MAC_CONTROL = 0x8808


def records(data):
    """The file header and the records (header + bytes) of a little-endian pcap."""
    out, off = [], FILE_HDR
    while off + REC_HDR <= len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        out.append(data[off:off + REC_HDR + incl])
        off += REC_HDR + incl
    return data[:FILE_HDR], out


def cut(data, start=0, small_first=False):
    """Whole records from record `start` on, as many as fit in BUDGET: the first ones, or with
    small_first the smallest ones, in their order (a PFC capture stays clean without some of its
    data frames; an IB one would not: the FCTBS counts every block)."""
    hdr, recs = records(data)
    recs = list(enumerate(recs))[start:]
    if small_first:
        recs.sort(key=lambda ir: (len(ir[1]), ir[0]))
    size, keep = len(hdr), []
    for i, r in recs:
        if size + len(r) > BUDGET:
            if small_first:
                continue
            break
        size += len(r)
        keep.append((i, r))
    return hdr + b"".join(r for _, r in sorted(keep))


def first_pause_from_a(data):
    """The index of the first MAC Control frame from side A (lfc_pcap_side_mac: byte 5 is 0)."""
    _, recs = records(data)
    for i, r in enumerate(recs):
        f = r[REC_HDR:]
        if len(f) >= 14 and struct.unpack_from(">H", f, 12)[0] == ETHERTYPE_MAC_CONTROL \
                and f[11] == 0:
            return i
    return 0


def big_endian_us(data):
    """The same capture as a microsecond pcap written big-endian."""
    hdr, recs = records(data)
    magic, major, minor, zone, sigfigs, snap, lt = struct.unpack("<IHHiIII", hdr)
    out = bytearray(struct.pack(">IHHiIII", 0xA1B2C3D4, major, minor, zone, sigfigs, snap, lt))
    for r in recs:
        sec, ns, incl, orig = struct.unpack_from("<IIII", r)
        out += struct.pack(">IIII", sec, ns // 1000, incl, orig) + r[REC_HDR:]
    return bytes(out)


def swap_two(data):
    """The second and third records swapped: times out of order."""
    hdr, recs = records(data)
    if len(recs) >= 3:
        recs[1], recs[2] = recs[2], recs[1]
    return hdr + b"".join(recs)


def generate(gen, tmp, name, *args):
    pcap = os.path.join(tmp, name + ".pcap")
    subprocess.run([gen, *args, pcap, os.path.join(tmp, name + ".exp")], check=True,
                   stdout=subprocess.DEVNULL)
    with open(pcap, "rb") as f:
        return f.read()


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: make_check_seeds.py LFC_WIRE_GEN\n")
        return 2
    gen = sys.argv[1]
    caps = {}
    with tempfile.TemporaryDirectory() as tmp:
        pfc = generate(gen, tmp, "pfc", "--model-pfc", "--link", LINK, "--cycles", "3000")
        ib = generate(gen, tmp, "ib", "--model-ib", "--link", LINK, "--cycles", "400")
        slow = generate(gen, tmp, "slow", "--model-pfc", "--link", LINK, "--cycles", "3000",
                        "--response-cycles", "1000")
        caps["pfc"] = cut(pfc, small_first=True)
        caps["ib"] = cut(ib)
        caps["pfc-slow"] = cut(slow, first_pause_from_a(slow), small_first=True)
        caps["eth"] = cut(generate(gen, tmp, "eth", "--eth", "--count", "4"))
        caps["erf"] = cut(generate(gen, tmp, "erf", "--ib-erf", "--count", "3"))
        caps["ib247"] = cut(generate(gen, tmp, "ib247", "--ib-247", "--count", "3"))
    caps["truncated"] = caps["ib"][:-3]
    caps["text"] = b"hello, this is not a capture but text\n"
    caps["pcapng"] = bytes.fromhex("0a0d0d0a1c0000004d3c2b1a01000000ffffffffffffffff1c000000")
    # A classic pcap header of link type 105 (IEEE 802.11).
    caps["wifi"] = struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 105)
    caps["unordered"] = swap_two(caps["pfc"])
    caps["pfc-us-be"] = big_endian_us(caps["pfc"])
    for name, data in caps.items():
        write(os.path.join(FIXTURES, name + ".pcap"), data)
        # fuzz_check_pcap: the settings byte (bits 1:0 mode, 2 two links, 3 and 4 variants,
        # 5 few kept, 6 alternating directions, 7 slower link)
        for setting in (0x00, 0x3C, 0xC3):
            write(os.path.join(HERE, "corpus", "check_pcap", f"{name}-{setting:02x}"),
                  bytes([setting]) + data)
    texts = [
        (0, ""),
        (0, "links=2 data_vls=2 from_reset=1 fcp_period_ns=5300"),
        (0, "mtu_bytes=256,max_kept=0,time_unit_ps=5120"),
        (1, "speed_mbps=25000 lossless_mask=0x0f skew_ns=100 watchdog_ns=1000000"),
        (1, "headroom_bytes=2000, headroom_bytes_3=0b101 skew_ns_ab=10 skew_ns_ba=20"),
        (1, "eth_fcs=0\tprio_dscp=1 reaction_ns=0 speed_mbps=56000"),
        (1, "links=4096 mtu_bytes=65535 time_unit_ps=1"),
        (0, "links=0"),
        (0, "bogus=1"),
        (1, "mtu_bytes"),
        (2, "links=1"),
    ]
    for i, (mode, text) in enumerate(texts):
        write(os.path.join(HERE, "corpus", "check_text", f"t{i:02d}"),
              bytes([mode]) + text.encode())
    args = [
        ["@pfc"],
        ["@ib", "--from-reset", "--data-vls", "2", "--fcp-period-ns", "5300"],
        ["@pfc-slow", "--max-lines", "5"],
        ["--quiet", "@pfc", "@pfc-us-be"],
        ["--mode", "pfc", "@ib"],
        ["--coverage", "cov.json", "@pfc"],
        ["--coverage", "no/such/dir/c.json", "@ib"],
        ["--speed-gbps", "25", "--reaction-ns", "3000", "--skew-ns", "10,20", "@pfc-slow"],
        ["--mac-a", "02:4c:46:00:01:00", "--no-fcs", "--dscp", "@eth"],
        ["--headroom-bytes", "0=100,3=200", "--watchdog-ns", "5000", "@pfc"],
        ["--lossless", "0x0f", "--mtu", "1500", "@pfc"],
        ["@erf", "@ib247"],
        ["@truncated"],
        ["@text"],
        ["@pcapng"],
        ["@wifi"],
        ["@unordered"],
        ["@missing"],
        ["--bogus", "@pfc"],
        ["--help"],
        ["--version"],
        [],
    ]
    for i, a in enumerate(args):
        write(os.path.join(HERE, "corpus", "check_args", f"a{i:02d}"), "\n".join(a).encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
