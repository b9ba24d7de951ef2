"""partner - the link partner of one switch port, in Python, as a cocotb user would write one.

A simplified end node of SPEC §12.2 behind a link of delay 1 (SPEC §12.1): it sees the word the
switch sent in cycle t-1 when it decides its word of cycle t.

Transmit: random packets (class, length, destination, ECN codepoint, pad) at a given load, each
sent in consecutive slots of the port (SPEC §1.2, §2.1), a packet of two blocks or more merging
its last two into one word (mrg, SPEC §2.4) with `mrg_permille`; flow-control words only between
packets. A
packet starts only when the switch allows it: IB, the send rule of SPEC §5.3 on the credit limit
of the switch's last FCP; PFC, the priority is not paused by the switch's last PFC frame (SPEC
§6.7).

Flow control towards the switch: IB, a receive buffer of `rx_blocks` per VL that drains one block
every `drain_div` cycles and is advertised by FCPs (SPEC §5.4, §5.5) on change and periodically;
PFC, random pause frames (XOFF with a random time, or XON) so that the switch's egress queues
stop and fill, which makes it pause its own peers in turn.
"""

import random

IDLE, DATA, FCP, PFC = 0, 1, 2, 3
CREDIT_MOD = 4096  # SPEC §5.1: 12-bit credit counters
CREDIT_WINDOW = 2048  # SPEC §5.3: the half-space send rule
PFC_PRIOS = 8  # 802.1Qbb
ECN_CODEPOINTS = (0, 1, 2)  # Not-ECT, ECT(1), ECT(0) (RFC 3168 §5): CE is the switch's to set
PERMILLE = 1000
PAD_MAX = 63  # SPEC §2: pad is 6 bits


class Partner:
    """One port's peer. step(t, switch_word) returns the word (dict of flat.h field names)."""

    def __init__(self, port, ports, mode, classes, speed_div, mtu_blocks, rng, load=500,
                 min_nblk=1, max_nblk=16, rx_blocks=128, drain_div=2, fcp_period=256,
                 pause_permille=4, max_pause=400, mrg_permille=200):
        self.port = port
        self.ports = ports
        self.ib = mode == 0
        self.classes = classes
        self.k = speed_div
        self.rng = rng
        self.load = load
        self.min_nblk = min(min_nblk, mtu_blocks)
        self.max_nblk = min(max_nblk, mtu_blocks)
        self.seq = 0
        self.mrg_permille = mrg_permille
        self.cur = None  # the packet being sent: (fields, words left)
        self.pending = None  # the next packet, waiting for credit or the end of a pause
        # IB transmit: FCTBS we sent, FCCL the switch gave us (SPEC §5.1).
        self.fctbs = [0] * classes
        self.fccl = [0] * classes
        # IB receive: our ABR and buffer occupancy per VL, the FCPs we sent.
        self.rx_blocks = rx_blocks
        self.drain_div = drain_div
        self.fcp_period = fcp_period
        self.abr = [0] * classes
        self.occ = [0] * classes
        self.sent_fccl = [None] * classes
        self.fcp_timer = [0] * classes
        # PFC: the cycle until which each priority is paused by the switch.
        self.paused_until = [0] * PFC_PRIOS
        self.pause_permille = pause_permille
        self.max_pause = max_pause
        self.delivered = 0

    # ---- what the switch sent us ----

    def _receive(self, t, w):
        kind = w["kind"]
        if kind == DATA and w["sop"] and self.ib and w["cls"] < self.classes:
            vl = w["cls"]
            self.abr[vl] = (self.abr[vl] + w["nblk"]) % CREDIT_MOD
            self.occ[vl] += w["nblk"]
        if kind == DATA and w["sop"]:
            self.delivered += 1
        if kind == FCP and self.ib and w["fc_vl"] < self.classes:
            vl = w["fc_vl"]
            self.fccl[vl] = w["fc_fccl"]
            self.abr[vl] = w["fc_fctbs"]
        if kind == PFC and not self.ib:
            for c in range(PFC_PRIOS):
                if (w["pfc_en"] >> c) & 1:
                    # SPEC §6.7: q quanta of k cycles each; q = 0 resumes.
                    self.paused_until[c] = t + w[f"pfc_time{c}"] * self.k

    def _advertised(self, vl):
        """SPEC §5.4: FCCL = ABR + min(free, 2048)."""
        free = max(self.rx_blocks - self.occ[vl], 0)
        return (self.abr[vl] + min(free, CREDIT_WINDOW)) % CREDIT_MOD

    # ---- what we send ----

    def _flow_control(self, t):
        if self.ib:
            for vl in range(self.classes):
                fccl = self._advertised(vl)
                if self.sent_fccl[vl] != fccl or self.fcp_timer[vl] == 0:
                    self.sent_fccl[vl] = fccl
                    self.fcp_timer[vl] = self.fcp_period
                    return {"kind": FCP, "fc_op": 0, "fc_vl": vl, "fc_fctbs": self.fctbs[vl],
                            "fc_fccl": fccl}
            return None
        if self.rng.randrange(PERMILLE) < self.pause_permille:
            en = self.rng.randrange(1, 1 << self.classes)
            w = {"kind": PFC, "pfc_en": en}
            for c in range(self.classes):
                if (en >> c) & 1:
                    # Mostly short pauses, some resumes (time 0).
                    w[f"pfc_time{c}"] = self.rng.choice((0, self.rng.randrange(1, self.max_pause)))
            return w
        return None

    def _may_start(self, t, cls, nblk):
        if self.ib:
            cr = (self.fctbs[cls] + nblk) % CREDIT_MOD
            return (self.fccl[cls] - cr) % CREDIT_MOD <= CREDIT_WINDOW
        return t >= self.paused_until[cls]

    def _new_packet(self):
        self.seq += 1
        nblk = self.rng.randint(self.min_nblk, self.max_nblk)
        mrg = 1 if nblk >= 2 and self.rng.randrange(PERMILLE) < self.mrg_permille else 0
        return {"kind": DATA, "cls": self.rng.randrange(self.classes), "nblk": nblk,
                "dst": self.rng.randrange(self.ports), "ecn": self.rng.choice(ECN_CODEPOINTS),
                "pad": self.rng.randint(0, PAD_MAX), "mrg": mrg,
                # Unique per port: the port in the top byte, a sequence number below.
                "tag": (self.port << 24) | (self.seq & 0xFFFFFF)}, nblk

    def step(self, t, switch_word):
        """The word we put on the link in cycle t, given the switch's word of cycle t-1."""
        self._receive(t, switch_word)
        if self.ib:
            for vl in range(self.classes):
                self.fcp_timer[vl] = max(self.fcp_timer[vl] - 1, 0)
                if self.drain_div and t % self.drain_div == 0 and self.occ[vl] > 0:
                    self.occ[vl] -= 1
        if t % self.k != 0:
            return {"kind": IDLE}
        if self.cur is not None:  # SPEC §2.1: a packet's blocks go out in consecutive slots
            pkt, left = self.cur
            return self._block(pkt, left)
        fc = self._flow_control(t)
        if fc is not None:
            return fc
        if self.rng.randrange(PERMILLE) >= self.load:
            return {"kind": IDLE}
        if self.pending is None:
            self.pending = self._new_packet()
        pkt, nblk = self.pending
        if not self._may_start(t, pkt["cls"], nblk):
            return {"kind": IDLE}
        self.pending = None
        if self.ib:
            self.fctbs[pkt["cls"]] = (self.fctbs[pkt["cls"]] + nblk) % CREDIT_MOD
        return self._block(pkt, nblk - pkt["mrg"])

    def _block(self, pkt, left):
        """The next word of pkt, `left` words of it still to send (nblk - mrg at its start)."""
        w = dict(pkt)
        w["sop"] = 1 if left == pkt["nblk"] - pkt["mrg"] else 0
        w["eop"] = 1 if left == 1 else 0
        self.cur = (pkt, left - 1) if left > 1 else None
        return w
