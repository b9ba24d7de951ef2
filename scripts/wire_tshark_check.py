#!/usr/bin/env python3
"""Compare what tshark decodes from a pcap with what lfc_wire_gen says each frame holds.

    wire_tshark_check.py eth|ib PCAP EXPECT

EXPECT (written by cmodel/tools/lfc_wire_gen.c): one line per frame, the frame number then
tab-separated field=value pairs named as tshark names them, and decode=STATUS, liblfc's own
decode of the frame. Every listed field must be shown by tshark with the same value (for the
_ws.col.* columns: contain the text given). A frame
that liblfc refuses must be flagged: eth, by tshark itself (eth.fcs.status 0, or the MAC
Control "unknown opcode" expert item); ib, by the liblfc decoder (tshark 4.0 checks neither
LPCRC nor VCRC: docs/wire-formats.md §7). tshark 4.0 marks IB flow-control packets malformed
(all 6-byte ones; 8-byte records whose FCTBS bits 1:0 are 2 or 3) and then shows only the Op and
the VL/FCCL word, which EXPECT lists for those; that is reported, and any other frame marked
malformed is a failure.

Exit 0 all agree, 1 a mismatch (each one line: frame, field, expected, shown), 2 bad input.
"""
import subprocess
import sys

# Every Ethernet frame carries its FCS, and tshark is to check it.
TSHARK_PREFS = ["-o", "eth.fcs:Always", "-o", "eth.check_fcs:TRUE"]
# The payloads are random bytes: keep the heuristic dissectors that guess at an IB payload's
# protocol (RPC over RDMA, iSER, ...) from taking one and calling it malformed.
for _proto in ("rpcordma", "smc", "smb_direct", "nvme-rdma", "lnet", "iser", "infiniband_sdp",
               "fcoib"):
    TSHARK_PREFS += ["--disable-protocol", _proto]
FLAGS = ["eth.fcs.status", "macc.opcode.unknown", "_ws.malformed", "_ws.col.Protocol"]
MAX_REPORTS = 20


def read_expect(path):
    frames = {}
    with open(path, encoding="ascii") as f:
        for lineno, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            try:
                num = int(parts[0])
                fields = dict(p.split("=", 1) for p in parts[1:])
            except ValueError:
                sys.exit(f"{path}:{lineno}: not 'N<TAB>field=value...': {line.strip()!r}")
            frames[num] = fields
    if not frames:
        sys.exit(f"{path}: no frames")
    return frames


def value(text):
    """A tshark field value as a number (decimal, 0x hex, or a boolean word)."""
    words = {"true": 1, "false": 0, "set": 1, "not set": 0}
    if text.lower() in words:
        return words[text.lower()]
    return int(text, 0)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("eth", "ib"):
        sys.exit("usage: wire_tshark_check.py eth|ib PCAP EXPECT")
    kind, pcap, expect_path = sys.argv[1:]
    expect = read_expect(expect_path)
    names = sorted({k for f in expect.values() for k in f if k != "decode"})
    cols = ["frame.number"] + names + FLAGS
    cmd = ["tshark", "-r", pcap, "-T", "fields", "-E", "occurrence=f", "-E", "separator=/t"]
    cmd += TSHARK_PREFS
    for c in cols:
        cmd += ["-e", c]
    run = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        print(f"tshark failed on {pcap}: {run.stderr.strip()}")
        return 1
    shown = {}
    for line in run.stdout.splitlines():
        row = line.split("\t")
        row += [""] * (len(cols) - len(row))
        shown[int(row[0])] = dict(zip(cols, row))

    bad = []
    checked = 0
    malformed_fcp = 0
    flagged_by_tshark = flagged_by_lfc = 0
    for num, fields in sorted(expect.items()):
        got = shown.get(num)
        if got is None:
            bad.append(f"frame {num}: in {expect_path} but not in tshark's output")
            continue
        for name, want in fields.items():
            if name == "decode":
                continue
            text = got.get(name, "")
            if name.startswith("_ws.col."):
                ok = want in text
            else:
                try:
                    ok = text != "" and value(text) == int(want)
                except ValueError:
                    ok = False
            if not ok:
                bad.append(f"frame {num}: {name} expected {want}, tshark shows {text!r}")
            checked += 1
        decode = fields["decode"]
        malformed = got["_ws.malformed"] != ""
        is_fcp = "InfiniBand Link" in got["_ws.col.Protocol"]
        if is_fcp and malformed:
            malformed_fcp += 1
        elif malformed:
            bad.append(f"frame {num}: tshark marks it malformed")
        tshark_flag = got["eth.fcs.status"] == "0" or got["macc.opcode.unknown"] != ""
        if decode == "ok":
            if tshark_flag:
                bad.append(f"frame {num}: liblfc decodes it, tshark flags it")
        elif kind == "eth":
            if not tshark_flag:
                bad.append(f"frame {num}: liblfc says {decode}, tshark does not flag it")
            flagged_by_tshark += 1
        else:
            flagged_by_lfc += 1  # lfc_wire_gen already checked the decoder's status
    extra = sorted(set(shown) - set(expect))
    if extra:
        bad.append(f"tshark shows frames {extra[:5]} that {expect_path} does not list")

    for line in bad[:MAX_REPORTS]:
        print(f"MISMATCH {pcap}: {line}")
    if len(bad) > MAX_REPORTS:
        print(f"... and {len(bad) - MAX_REPORTS} more")
    print(f"{kind}: {len(expect)} frames, {checked} fields compared with tshark, "
          f"{flagged_by_tshark} broken frames flagged by tshark, {flagged_by_lfc} by liblfc"
          + (f"; tshark marks {malformed_fcp} IB flow-control packets malformed (known "
             "limit)" if malformed_fcp else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
