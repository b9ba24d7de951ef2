#!/usr/bin/env python3
"""Read the pcap files lfc-sim --pcap or the co-simulation's PCAP=1 wrote with tshark, and check
that Wireshark's dissectors decode every frame as lfc says it sent it (docs/wire-formats.md §6).

    pcap_out_check.py sim JSON DIR [--quanta-switch Q] [--quanta-host Q] [--ways W] [--require K]
    pcap_out_check.py cosim LOG DIR [--quanta-switch Q] [--quanta-host Q] [--require K]

JSON is lfc-sim's --json output of the same run, LOG the co-simulation's log (its `pcap file=`
lines: the model's counters per port and direction, tb/common/tb_pcap.c). Every frame must
decode without error, carry its direction (the Ethernet source address 02-4C-46-LL-LL-0S, the
ERF capture interface) and only fields lfc writes; per file, direction, kind and class the
counts must equal the model's counters:

  Ethernet  PFC frames (MAC Control opcode 0x0101 to 01-80-C2-00-00-01, FCS good): the frames,
            and per priority with its class-enable bit set the XOFFs (time > 0; the time must be
            the sender's pause_quanta when given) and the XONs (time 0);
            RoCEv2 frames (FCS good, 802.1Q VID 0, UDP port 4791, BTH opcode 4 RC SEND Only,
            DSCP = PCP x 8, to the other side's address): per class (PCP) the packets, and the
            CE-marked (IP ECN 3) ones against the switch's ECN marks;
  ERF (IB)  data packets (ERF type 21): LRH VL = SL = the class, PktLen x 4 + 2 = the packet's
            bytes, BTH opcode 4, DLID / W = the receiving host where it is one; per VL the
            packets; FECN against the ECN marks;
            FCPs (ERF type 25): the fields tshark 4.0 shows (docs/wire-formats.md §7: every
            6-byte FCP is "malformed" to it), the Op as the Info text and the VL/FCCL word as
            the destination "LID: n", whose VL (n >> 12) must be a data VL; the count per
            direction.

Within a direction frames must be in time order and at least the previous frame's slots apart at
the link's speed: a data packet's blocks, less one for a packet of two or more (SPEC §2.4: with
line time its last word may carry two blocks), a control frame one (a one-block packet is
written as a two-block RoCEv2 frame: such a frame counts one block). --require K: at least K frames of each kind the run is to show (PFC and data,
or FCP and data) over all files, so that a run with nothing in it cannot pass.

Exit 0 all agree, 1 a mismatch (one line each, at most 20), 2 bad input or tshark failed.
"""
import argparse
import decimal
import json
import math
import os
import re
import subprocess
import sys

MAX_REPORTS = 20
BLOCK = 64
BITS_PER_BLOCK = 512
ROCE_PORT = 4791
BTH_SEND_ONLY = 4
MAC_CTRL_DST = "01:80:c2:00:00:01"
PFC_OPCODE = 0x0101
SIDE_MAC = re.compile(r"^02:4c:46:([0-9a-f]{2}):([0-9a-f]{2}):0([01])$")
ERF_TYPE_IB, ERF_TYPE_IB_LINK = 21, 25
IB_VCRC = 2
IB_DATA_VLS = 15
PRIOS = 8
TSHARK_PREFS = ["-o", "eth.fcs:Always", "-o", "eth.check_fcs:TRUE"]
# The payload is the tag and zeros: keep the heuristic dissectors of IB payloads away from it.
for _proto in ("rpcordma", "smc", "smb_direct", "nvme-rdma", "lnet", "iser", "infiniband_sdp",
               "fcoib"):
    TSHARK_PREFS += ["--disable-protocol", _proto]
ETH_FIELDS = ["frame.number", "frame.time_epoch", "frame.len", "eth.src", "eth.dst",
              "eth.fcs.status", "_ws.malformed", "macc.opcode", "macc.cbfc.enbv"] + \
             [f"macc.cbfc.pause_time.c{i}" for i in range(PRIOS)] + \
             ["vlan.priority", "vlan.id", "ip.dsfield.dscp", "ip.dsfield.ecn", "udp.dstport",
              "infiniband.bth.opcode"]
IB_FIELDS = ["frame.number", "frame.time_epoch", "frame.len", "erf.flags.cap", "erf.types.type",
             "_ws.malformed", "_ws.col.Protocol", "_ws.col.Info", "_ws.col.Destination",
             "infiniband.lrh.vl", "infiniband.lrh.sl", "infiniband.lrh.dlid",
             "infiniband.lrh.pktlen", "infiniband.bth.opcode", "infiniband.bth"]
BTH_FECN_BYTE, BTH_FECN_BIT = 4, 0x80  # tshark 4.0 has no field of its own for FECN: the BTH bytes


def num(text):
    words = {"true": 1, "false": 0, "set": 1, "not set": 0}
    if text.lower() in words:
        return words[text.lower()]
    return int(text, 0)


class Expect:
    """What the model's counters say crossed one direction of one link."""

    def __init__(self):
        self.packets = None      # total data packets
        self.packets_by = None   # {class: packets}, or None when not counted per class
        self.pfc = None
        self.xoff = None
        self.xoff_by = None
        self.xon = None
        self.xon_by = None
        self.fcps = None
        self.ce_by = None        # {class: ECN marks of the sending switch}, or None
        self.ce_none = False     # the sender never sends CE (an end node)
        self.quanta = None       # the sender's pause_quanta, if known
        self.to_host = None      # the receiving host's index, if it is a host
        self.sender_switch = None  # the sending switch's name, if it is one
        self.receiver_switch = None
        self.block_ns = None     # one block at the link's speed


def load_sim(path, args):
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    ports = {(p["switch"], p["port"], p["class"]): p for p in d["ports"]}
    by_host = {}
    for fl in d["flows"]:
        key = (fl["src"], fl["class"])
        by_host[key] = by_host.get(key, 0) + fl["wire_packets"]
    hosts = {h["host"] for h in d["hosts"]}
    switches = {p["switch"] for p in d["ports"]}
    exp = {}
    for lk in d["links"]:
        e = Expect()
        e.packets, e.pfc, e.xoff, e.xon, e.fcps = (lk["packets"], lk["pfc_frames"], lk["xoff"],
                                                   lk["xon"], lk["fcps"])
        e.block_ns = BITS_PER_BLOCK / lk["speed_gbps"]
        frm, to = lk["from"], lk["to"]
        if frm in switches:
            e.sender_switch = frm
            cls = sorted(c for (s, p, c) in ports if s == frm and p == lk["from_port"])
            e.packets_by = {c: ports[(frm, lk["from_port"], c)]["tx_pkts"] for c in cls}
            e.xoff_by = {c: ports[(frm, lk["from_port"], c)]["pause_tx"] for c in cls}
            e.xon_by = {c: ports[(frm, lk["from_port"], c)]["resume_tx"] for c in cls}
            e.ce_by = {c: ports[(frm, lk["from_port"], c)]["ecn_marks"] for c in cls}
            e.quanta = args.quanta_switch
        elif re.fullmatch(r"h\d+", frm) and frm in hosts:
            n = int(frm[1:])
            e.packets_by = {c: v for (s, c), v in by_host.items() if s == n}
            e.ce_none = True
            e.quanta = args.quanta_host
        if re.fullmatch(r"h\d+", to):
            e.to_host = int(to[1:])
        if to in switches:
            e.receiver_switch = to
        dirn = 0 if lk["dir"] == "A>B" else 1
        exp.setdefault(lk["name"] + ".pcap", {})[dirn] = e
    horizon_ns = (d["summary"]["sim_cycles"] + max(
        (lk["delay_cycles"] for lk in d["links"]), default=0)) * d["scenario"]["cycle_ns"]
    return exp, d["scenario"]["mode"], horizon_ns


def per_class(text):
    return {c: int(v) for c, v in enumerate(text.split(","))}


def load_cosim(path, args):
    exp = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("pcap file="):
                continue
            kv = dict(w.split("=", 1) for w in line.split()[1:])
            e = Expect()
            e.packets_by = per_class(kv["packets"])
            e.packets = sum(e.packets_by.values())
            e.pfc = int(kv["pfc"])
            e.xoff_by = per_class(kv["xoff"])
            e.xoff = sum(e.xoff_by.values())
            e.xon_by = per_class(kv["xon"])
            e.xon = sum(e.xon_by.values())
            e.fcps = int(kv["fcps"])
            if kv["dir"] == "A>B":
                e.ce_by = per_class(kv["ce"])
                e.sender_switch = "switch"
                e.quanta = args.quanta_switch
            else:
                e.receiver_switch = "switch"
                e.quanta = args.quanta_host
            e.block_ns = BITS_PER_BLOCK / 100.0  # tb_pcap.c: 100 Gb/s
            exp.setdefault(kv["file"], {})[0 if kv["dir"] == "A>B" else 1] = e
    if not exp:
        raise ValueError("no 'pcap file=' lines (was the run made with PCAP=1?)")
    return exp, args.mode, None


def tshark(path, fields):
    cmd = ["tshark", "-r", path, "-T", "fields", "-E", "occurrence=f", "-E", "separator=/t"]
    cmd += TSHARK_PREFS
    for c in fields:
        cmd += ["-e", c]
    run = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        bad_input(f"tshark failed on {path}: " + " ".join(run.stderr.split()))
    rows = []
    for line in run.stdout.splitlines():
        row = line.split("\t")
        row += [""] * (len(fields) - len(row))
        rows.append(dict(zip(fields, row)))
    return rows


def ns(text):
    return int(decimal.Decimal(text) * 1000000000)


class Seen:
    def __init__(self):
        self.packets_by = {}
        self.pfc = 0
        self.xoff_by = {}
        self.xon_by = {}
        self.fcps = 0
        self.fcp_vls = set()
        self.ce_by = {}
        self.last = None  # (time, blocks) of the last frame


def add(d, k, n=1):
    d[k] = d.get(k, 0) + n


def check_eth(name, rows, seen, bad, link_no):
    for r in rows:
        where = f"{name} frame {r['frame.number']}"
        m = SIDE_MAC.match(r["eth.src"])
        if not m:
            bad.append(f"{where}: source {r['eth.src']} is not a side address 02:4c:46:..")
            continue
        link = int(m.group(1) + m.group(2), 16)
        if link_no.setdefault(name, link) != link:
            bad.append(f"{where}: link {link} in the source address, the file's is "
                       f"{link_no[name]}")
        side = int(m.group(3))
        s = seen[side]
        if r["_ws.malformed"]:
            bad.append(f"{where}: tshark marks it malformed")
        if r["eth.fcs.status"] != "1":
            bad.append(f"{where}: FCS status {r['eth.fcs.status']!r}, want 1 (good)")
        length = int(r["frame.len"])
        blocks = math.ceil(length / BLOCK)
        if r["macc.opcode"]:
            if num(r["macc.opcode"]) != PFC_OPCODE or r["eth.dst"] != MAC_CTRL_DST:
                bad.append(f"{where}: MAC Control opcode {r['macc.opcode']} to {r['eth.dst']}, "
                           f"want 0x0101 to {MAC_CTRL_DST}")
            s.pfc += 1
            enbv = num(r["macc.cbfc.enbv"])
            for c in range(PRIOS):
                if not enbv >> c & 1:
                    continue
                t = num(r[f"macc.cbfc.pause_time.c{c}"])
                add(s.xoff_by if t > 0 else s.xon_by, c)
                if t > 0 and seen[side].quanta is not None and t != seen[side].quanta:
                    bad.append(f"{where}: priority {c} paused for {t} quanta, the sender's "
                               f"pause_quanta is {seen[side].quanta}")
        elif r["udp.dstport"]:
            pcp = num(r["vlan.priority"]) if r["vlan.priority"] else None
            want_dst = "02:4c:46:%02x:%02x:0%d" % (link >> 8, link & 0xFF, side ^ 1)
            if (pcp is None or num(r["vlan.id"]) != 0 or num(r["udp.dstport"]) != ROCE_PORT or
                    num(r["infiniband.bth.opcode"] or "-1") != BTH_SEND_ONLY or
                    num(r["ip.dsfield.dscp"]) != pcp * 8 or r["eth.dst"] != want_dst):
                bad.append(f"{where}: RoCEv2 fields PCP {r['vlan.priority']!r} VID "
                           f"{r['vlan.id']!r} UDP {r['udp.dstport']} BTH opcode "
                           f"{r['infiniband.bth.opcode']!r} DSCP {r['ip.dsfield.dscp']} to "
                           f"{r['eth.dst']}; want PCP, VID 0, 4791, 4, PCP x 8, {want_dst}")
                continue
            add(s.packets_by, pcp)
            if num(r["ip.dsfield.ecn"]) == 3:
                add(s.ce_by, pcp)
            if length <= 2 * BLOCK:
                blocks = 1  # perhaps a one-block packet, lengthened
        else:
            bad.append(f"{where}: neither PFC nor RoCEv2")
            continue
        spacing(where, ns(r["frame.time_epoch"]), data_slots(blocks), s, bad)


def data_slots(blocks):
    """The fewest slots a data packet of `blocks` blocks takes (SPEC §2.1, §2.4: nblk - mrg)."""
    return max(1, blocks - 1)


def check_ib(name, rows, seen, bad, classes):
    for r in rows:
        where = f"{name} frame {r['frame.number']}"
        if r["erf.flags.cap"] not in ("0", "1"):
            bad.append(f"{where}: ERF capture interface {r['erf.flags.cap']!r}, want 0 or 1")
            continue
        side = int(r["erf.flags.cap"])
        s = seen[side]
        etype = num(r["erf.types.type"]) if r["erf.types.type"] else -1
        if etype == ERF_TYPE_IB_LINK:
            info, dest = r["_ws.col.Info"], r["_ws.col.Destination"]
            m = re.search(r"LID: (\d+)", dest)
            if ("Normal Flow Control" not in info and "Flow Control Init" not in info) or not m:
                bad.append(f"{where}: FCP shown as Info {info!r} Destination {dest!r}")
                continue
            vl = int(m.group(1)) >> 12
            if vl >= (classes or IB_DATA_VLS):
                bad.append(f"{where}: FCP for VL {vl}, not a data VL")
            s.fcps += 1
            s.fcp_vls.add(vl)
            spacing(where, ns(r["frame.time_epoch"]), 1, s, bad)
            continue
        if etype != ERF_TYPE_IB:
            bad.append(f"{where}: ERF type {r['erf.types.type']!r}, want 21 or 25")
            continue
        if r["_ws.malformed"]:
            bad.append(f"{where}: tshark marks a data packet malformed")
        vl, sl = num(r["infiniband.lrh.vl"]), num(r["infiniband.lrh.sl"])
        length = int(r["frame.len"])  # tshark: the packet, the ERF header is its pseudo-header
        pktlen = num(r["infiniband.lrh.pktlen"])
        if vl != sl or pktlen * 4 + IB_VCRC != length or \
                num(r["infiniband.bth.opcode"] or "-1") != BTH_SEND_ONLY:
            bad.append(f"{where}: LRH VL {vl} SL {sl} PktLen {pktlen} for {length} bytes, BTH "
                       f"opcode {r['infiniband.bth.opcode']!r}; want VL = SL, PktLen x 4 + 2, 4")
        if s.to_host is not None and num(r["infiniband.lrh.dlid"]) // s.ways != s.to_host:
            bad.append(f"{where}: DLID {r['infiniband.lrh.dlid']} into host {s.to_host} "
                       f"({s.ways} addresses a host)")
        add(s.packets_by, vl)
        bth = bytes.fromhex(r["infiniband.bth"].replace(":", ""))
        if len(bth) > BTH_FECN_BYTE and bth[BTH_FECN_BYTE] & BTH_FECN_BIT:
            add(s.ce_by, vl)
        spacing(where, ns(r["frame.time_epoch"]), data_slots(math.ceil(length / BLOCK)), s, bad)


def spacing(where, t, slots, s, bad):
    if s.last is not None:
        t0, b0 = s.last
        if t < t0:
            bad.append(f"{where}: at {t} ns, before the frame before it ({t0} ns)")
        elif s.block_ns is not None and t - t0 < b0 * s.block_ns - 1:
            bad.append(f"{where}: {t - t0} ns after a frame of at least {b0} slots in its "
                       f"direction, less than {b0 * s.block_ns:.2f} ns at the link's speed")
    s.last = (t, slots)


def compare(name, dirn, e, s, bad, ce_into):
    tag = f"{name} {'A>B' if dirn == 0 else 'B>A'}"

    def eq(what, got, want):
        if want is not None and got != want:
            bad.append(f"{tag}: {what}: {got} in the file, the model counts {want}")

    eq("data packets", sum(s.packets_by.values()), e.packets)
    if e.packets_by is not None:
        for c in sorted(set(e.packets_by) | set(s.packets_by)):
            eq(f"class {c} packets", s.packets_by.get(c, 0), e.packets_by.get(c, 0))
    eq("PFC frames", s.pfc, e.pfc)
    eq("XOFF priorities", sum(s.xoff_by.values()), e.xoff)
    eq("XON priorities", sum(s.xon_by.values()), e.xon)
    for what, got, want in (("XOFF", s.xoff_by, e.xoff_by), ("XON", s.xon_by, e.xon_by)):
        if want is not None:
            for c in sorted(set(want) | set(got)):
                eq(f"priority {c} {what}s", got.get(c, 0), want.get(c, 0))
    eq("FCPs", s.fcps, e.fcps)
    if e.ce_none:
        eq("CE-marked packets", sum(s.ce_by.values()), 0)
    if e.ce_by is not None:
        for c in sorted(set(e.ce_by) | set(s.ce_by)):
            got, want = s.ce_by.get(c, 0), e.ce_by.get(c, 0)
            if ce_into.get(e.sender_switch, 0) == 0:
                eq(f"class {c} CE-marked packets (the switch's ECN marks)", got, want)
            elif got < want:
                bad.append(f"{tag}: class {c}: {got} CE-marked packets, fewer than the "
                           f"switch's {want} ECN marks")


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments: one line on stderr and exit 2, as every script of scripts/."""

    def error(self, message):
        sys.stderr.write(f"pcap_out_check.py: {message}; usage: pcap_out_check.py sim|cosim "
                         "COUNTS DIR [--quanta-switch Q] [--quanta-host Q] [--ways W] "
                         "[--classes N] [--mode ib|pfc] [--require K]\n")
        sys.exit(2)


def bad_input(message):
    sys.stderr.write(f"pcap_out_check.py: {message}\n")
    sys.exit(2)


def main():
    ap = OneLineParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", choices=["sim", "cosim"])
    ap.add_argument("counts")
    ap.add_argument("dir")
    ap.add_argument("--quanta-switch", type=int)
    ap.add_argument("--quanta-host", type=int)
    ap.add_argument("--ways", type=int, default=1)
    ap.add_argument("--classes", type=int)
    ap.add_argument("--mode", choices=["ib", "pfc"])
    ap.add_argument("--require", type=int, default=1)
    args = ap.parse_args()
    try:
        exp, mode, horizon = (load_sim if args.source == "sim" else load_cosim)(args.counts, args)
    except (OSError, ValueError, KeyError, TypeError) as ex:
        bad_input(f"{args.counts}: {ex}")
    mode = mode or args.mode
    if mode not in ("ib", "pfc"):
        bad_input("the mode is not known: give --mode ib|pfc")
    try:
        files = sorted(f for f in os.listdir(args.dir) if f.endswith(".pcap"))
    except OSError as ex:
        bad_input(f"{args.dir}: {ex.strerror}")
    bad = []
    for extra in sorted(set(files) - set(exp)):
        bad.append(f"{extra}: a file no link of the counts names")
    link_no = {}
    seen_all = {}
    for name in sorted(set(files) & set(exp)):
        seen = {}
        for dirn in (0, 1):
            s = Seen()
            e = exp[name].get(dirn, Expect())
            s.quanta, s.to_host, s.block_ns, s.ways = e.quanta, e.to_host, e.block_ns, args.ways
            seen[dirn] = s
        path = os.path.join(args.dir, name)
        if mode == "pfc":
            check_eth(name, tshark(path, ETH_FIELDS), seen, bad, link_no)
        else:
            check_ib(name, tshark(path, IB_FIELDS), seen, bad, args.classes)
        for dirn in (0, 1):
            if horizon is not None and seen[dirn].last and seen[dirn].last[0] > horizon + 1:
                bad.append(f"{name}: a frame at {seen[dirn].last[0]} ns, after the run and the "
                           f"longest cable delay ({horizon:.0f} ns)")
        seen_all[name] = seen
    # CE frames into each switch: where none arrive, its ECN marks are all the CE it sends
    ce_into = {}
    for name, seen in seen_all.items():
        for dirn, e in exp[name].items():
            if e.receiver_switch is not None:
                add(ce_into, e.receiver_switch, sum(seen[dirn].ce_by.values()))
    totals = {"data": 0, "pfc": 0, "fcp": 0, "ce": 0, "xoff": 0}
    for name, seen in seen_all.items():
        for dirn, e in exp[name].items():
            compare(name, dirn, e, seen[dirn], bad, ce_into)
            s = seen[dirn]
            totals["data"] += sum(s.packets_by.values())
            totals["pfc"] += s.pfc
            totals["fcp"] += s.fcps
            totals["ce"] += sum(s.ce_by.values())
            totals["xoff"] += sum(s.xoff_by.values())
    for name in sorted(set(exp) - set(files)):
        bad.append(f"{name}: no such file in {args.dir}")
    kinds = ("data", "pfc") if mode == "pfc" else ("data", "fcp")
    for k in kinds:
        if totals[k] < args.require:
            bad.append(f"only {totals[k]} {k} frames in all files, fewer than --require "
                       f"{args.require}: the run shows too little to check")
    for line in bad[:MAX_REPORTS]:
        print(f"MISMATCH {line}")
    if len(bad) > MAX_REPORTS:
        print(f"... and {len(bad) - MAX_REPORTS} more")
    print(f"pcap_out_check: {len(seen_all)} files, {totals['data']} data frames "
          f"({totals['ce']} CE), {totals['pfc']} PFC frames ({totals['xoff']} XOFF priorities), "
          f"{totals['fcp']} FCPs, checked against {args.counts}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
