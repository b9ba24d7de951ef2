"""Tests of the lfc Python binding (python/lfc): the checker flags a broken link and only then,
refused input raises with the library's line, the scoreboard and the pcap reader work through
ctypes. Plain unittest; `make test-python` runs it with LFC_LIB=build/liblfc.so.
"""

import os
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

import lfc

SIDE_A = bytes.fromhex("024c46000000")  # lfc_pcap_side_mac(0, 0)
SIDE_B = bytes.fromhex("024c46000001")
DST = bytes.fromhex("020000000099")
ETHERTYPE_LOCAL = 0x88B5  # IEEE 802 local experimental
PRIO = 3
QUANTA = 100
SPEED_MBPS = 10000
PS_PER_QUANTUM = 512 * 100  # 512 bit times of 100 ps at 10 Gb/s
REACTION_PS = 200_000
PFC_SETTINGS = f"speed_mbps={SPEED_MBPS} time_unit_ps=1 reaction_ns={REACTION_PS // 1000}"


def data(pcp, tag=0):
    return lfc.eth_frame(DST, SIDE_A, ETHERTYPE_LOCAL, tag.to_bytes(4, "big"), pcp=pcp)


class TestFrames(unittest.TestCase):
    def test_eth_frame_fcs_is_ieee_crc32(self):
        f = data(PRIO)
        self.assertEqual(len(f), 64)
        self.assertEqual(f[-4:], zlib.crc32(f[:-4]).to_bytes(4, "little"))
        self.assertEqual(f[14] >> 5, PRIO)  # the 802.1Q PCP

    def test_pfc_frame_layout(self):
        f = lfc.pfc_frame(SIDE_B, {PRIO: QUANTA})
        self.assertEqual(f[:6], bytes.fromhex("0180c2000001"))
        self.assertEqual(f[12:18], bytes.fromhex("88080101") + bytes([0, 1 << PRIO]))
        self.assertEqual(int.from_bytes(f[18 + 2 * PRIO:20 + 2 * PRIO], "big"), QUANTA)
        self.assertEqual(len(lfc.pfc_frame(SIDE_B, {0: 0}, fcs=False)), 60)
        with self.assertRaises(lfc.LfcError):
            lfc.pfc_frame(SIDE_B, {8: 1})


class TestChecker(unittest.TestCase):
    def paused_link(self, late_ps):
        """B pauses priority PRIO at 0; A starts a frame of it late_ps after the pause ends
        arriving (64 bytes at 10 Gb/s = 51.2 ns)."""
        c = lfc.Checker("pfc", PFC_SETTINGS)
        self.assertEqual(c.frame(0, lfc.AB, 0, lfc.ETH, data(0)), 0)
        self.assertEqual(c.frame(0, lfc.BA, 100_000, lfc.ETH, lfc.pfc_frame(SIDE_B, {PRIO: QUANTA})), 0)
        arrival = 100_000 + 64 * 8 * 100
        return c, c.frame(0, lfc.AB, arrival + late_ps, lfc.ETH, data(PRIO))

    def test_frame_within_reaction_budget_is_clean(self):
        c, n = self.paused_link(REACTION_PS - 1000)
        self.assertEqual(n, 0)
        self.assertEqual(c.finish(10**9), 0)
        self.assertEqual(c.violations, [])
        self.assertEqual(c.coverage()["reaction_window"], 1)

    def test_frame_during_pause_gives_the_violation(self):
        c, n = self.paused_link(REACTION_PS + 1000)
        self.assertEqual(n, 1)
        (v,) = c.violations
        self.assertEqual((v.rule, v.link, v.dir, v.cls, v.frame), ("pfc-reaction", 0, lfc.AB, PRIO, 3))
        self.assertTrue(v.line.startswith("time=352200ps link=0 dir=A>B class=pfc-reaction "), v.line)
        self.assertIn("started 201000ps after", v.line)
        self.assertEqual(c.count("pfc-reaction"), 1)
        self.assertEqual(c.count(), 1)
        self.assertEqual(c.lines(), [v.line])
        self.assertEqual(c.coverage()["viol_pfc_reaction"], 1)

    def test_other_priority_may_send_during_the_pause(self):
        c = lfc.Checker("pfc", PFC_SETTINGS)
        c.frame(0, lfc.BA, 0, lfc.ETH, lfc.pfc_frame(SIDE_B, {PRIO: QUANTA}))
        self.assertEqual(c.frame(0, lfc.AB, 1_000_000, lfc.ETH, data(PRIO + 1)), 0)
        self.assertEqual(c.frames, 2)

    def test_frame_after_the_pause_ran_out_is_clean(self):
        c, n = self.paused_link(QUANTA * PS_PER_QUANTUM + 1000)
        self.assertEqual(n, 0)

    def test_broken_fcs_is_malformed(self):
        c = lfc.Checker("pfc", PFC_SETTINGS)
        f = bytearray(data(PRIO))
        f[20] ^= 1
        self.assertEqual(c.frame(0, lfc.AB, 0, lfc.ETH, bytes(f)), 1)
        self.assertEqual(c.violations[0].rule, "eth-malformed")

    def test_frames_without_fcs(self):
        c = lfc.Checker("pfc", PFC_SETTINGS + " eth_fcs=0")
        self.assertEqual(c.frame(0, lfc.AB, 0, lfc.ETH, data(PRIO)[:-4]), 0)
        self.assertEqual(c.coverage()["other_data_frame"], 1)

    def test_refused_input_raises_with_the_reason(self):
        c = lfc.Checker("pfc", {"speed_mbps": SPEED_MBPS, "time_unit_ps": 1, "links": 2})
        c.frame(1, lfc.AB, 1000, lfc.ETH, data(0))
        with self.assertRaisesRegex(lfc.LfcError, "before"):
            c.frame(1, lfc.AB, 999, lfc.ETH, data(0))
        with self.assertRaisesRegex(lfc.LfcError, "link"):
            c.frame(2, lfc.AB, 2000, lfc.ETH, data(0))
        with self.assertRaisesRegex(lfc.LfcError, "kind|mode"):
            c.frame(0, lfc.AB, 2000, lfc.IB_LINK, bytes(6))
        self.assertEqual(c.frames, 1)

    def test_bad_settings_raise_with_the_reason(self):
        with self.assertRaisesRegex(lfc.LfcError, "unknown key 'speed'"):
            lfc.Checker("pfc", "speed=100")
        with self.assertRaisesRegex(lfc.LfcError, "data_vls"):
            lfc.Checker("ib", "data_vls=16")
        with self.assertRaisesRegex(lfc.LfcError, "ib or pfc"):
            lfc.Checker("ethernet")

    def test_ib_drop_without_credit_violation_is_flagged(self):
        c = lfc.Checker("ib", "from_reset=1 data_vls=1")
        self.assertEqual(c.drop(0, lfc.AB, 10, 0), 1)
        self.assertEqual(c.violations[0].rule, "ib-drop")
        cov = c.coverage()  # the points of IB mode only
        self.assertEqual((cov["viol_ib_drop"], cov["fcp"]), (1, 0))
        self.assertNotIn("xoff", cov)


class TestScoreboard(unittest.TestCase):
    def test_order_lost_and_allowed_drops(self):
        sb = lfc.Scoreboard(allowed_drops=["shared"])
        for i in range(4):
            sb.accept(7, i, 10 * i)
        self.assertEqual(sb.deliver(7, 0, 100), 0)
        self.assertEqual(sb.deliver(7, 2, 110), 1)  # 1 is still outstanding: out of order
        self.assertEqual(sb.drop(7, 1, 120, "shared"), 0)
        self.assertEqual(sb.finish(200), 1)  # 3 never left
        rules = [v.rule for v in sb.violations]
        self.assertEqual(rules, ["sb-order", "sb-lost"])
        st = sb.stats()
        self.assertEqual((st["accepted"], st["delivered"], st["lost"]), (4, 2, 1))
        self.assertEqual(st["dropped"]["shared"], 1)
        self.assertEqual((st["latency_min"], st["latency_max"]), (90, 100))  # 2: 110 - 20

    def test_drop_not_allowed(self):
        sb = lfc.Scoreboard()
        sb.accept(1, 1, 0)
        self.assertEqual(sb.drop(1, 1, 5, "headroom"), 1)
        self.assertIn("class=sb-drop", sb.lines()[0])
        with self.assertRaisesRegex(lfc.LfcError, "one of headroom, shared"):
            sb.drop(1, 2, 6, "full")

    def test_max_outstanding_refuses(self):
        sb = lfc.Scoreboard(max_outstanding=1)
        sb.accept(1, 1, 0)
        with self.assertRaises(lfc.LfcError):
            sb.accept(1, 2, 0)


def write_pcap(path, records, magic=0xA1B23C4D):
    """A classic nanosecond pcap of link type 1: records are (time_ns, frame)."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", magic, 2, 4, 0, 0, 65535, 1))
        for t, frame in records:
            f.write(struct.pack("<IIII", t // 10**9, t % 10**9, len(frame), len(frame)))
            f.write(frame)


class TestReader(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "link.pcap")

    def tearDown(self):
        self.tmp.cleanup()

    def test_capture_through_the_checker(self):
        pause = lfc.pfc_frame(SIDE_B, {PRIO: QUANTA})
        late = data(PRIO, tag=1)
        write_pcap(self.path, [(100, pause), (2000, late)])
        c = lfc.Checker("pfc", f"speed_mbps={SPEED_MBPS} reaction_ns=500")
        with lfc.Reader(self.path) as r:
            self.assertEqual(r.linktype, 1)
            recs = list(r)
        self.assertEqual([(x.index, x.time_ns, x.kind, x.dir) for x in recs],
                         [(1, 100, lfc.ETH, lfc.BA), (2, 2000, lfc.ETH, lfc.AB)])
        self.assertEqual(recs[1].data, late)
        for x in recs:
            c.frame(0, x.dir, x.time_ns, x.kind, x.data)
        self.assertEqual([v.rule for v in c.violations], ["pfc-reaction"])
        self.assertIn("time=2000ns", c.lines()[0])

    def test_bad_file_raises_one_line(self):
        with open(self.path, "wb") as f:
            f.write(b"\x0a\x0d\x0d\x0a" + bytes(28))
        with self.assertRaisesRegex(lfc.LfcError, "pcapng"):
            lfc.Reader(self.path)
        write_pcap(self.path, [(0, data(0))])
        with open(self.path, "ab") as f:
            f.write(struct.pack("<IIII", 0, 5, 64, 64) + bytes(10))  # cut short
        with self.assertRaisesRegex(lfc.LfcError, "record 2"):
            list(lfc.Reader(self.path))


class TestLoading(unittest.TestCase):
    def test_missing_library_is_named(self):
        env = dict(os.environ, LFC_LIB="/nonexistent/liblfc.so")
        r = subprocess.run([sys.executable, "-c", "import lfc; lfc.Checker('pfc')"], env=env,
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("liblfc not found", r.stderr)
        self.assertIn("/nonexistent/liblfc.so (no such file)", r.stderr)


if __name__ == "__main__":
    unittest.main()
