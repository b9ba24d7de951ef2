"""lfc.cocotb - feed liblfc's checkers and scoreboard from a cocotb simulation.

    tx = StreamMonitor(dut.clk_i, dut.tx_valid_o, dut.tx_data_o, dut.tx_last_o)
    rx = StreamMonitor(dut.clk_i, dut.rx_valid_i, dut.rx_data_i, dut.rx_last_i)
    link = LinkMonitor(Checker("pfc", "speed_mbps=10000 time_unit_ps=1 eth_fcs=0"), ab=tx, ba=rx)
    ...
    assert not link.finish(), "\\n".join(link.lines())

A StreamMonitor collects the frames of a byte bus (valid, 8-bit data, last; ready if the bus has
one): a frame is the bytes of the beats from one after a last to the next last. Its time is the
simulation time of the clock edge that sampled its first byte, in the monitor's units ("ps" by
default: give the checker time_unit_ps=1). A LinkMonitor feeds the frames of both directions of a
link to a Checker in the order of their first bytes, as lfc_check_frame needs, and logs each
violation as an error when it is found. A ScoreboardMonitor feeds a Scoreboard from monitors on a
device's inputs and outputs.
"""

import heapq
import logging

import cocotb
from cocotb.triggers import RisingEdge
from cocotb.utils import get_sim_time

from lfc import AB, BA, ETH

__all__ = ["StreamMonitor", "LinkMonitor", "ScoreboardMonitor", "now"]


def now(units="ps"):
    """The simulation time in units, as a whole number (cocotb gives a float)."""
    return round(get_sim_time(units))


class StreamMonitor:
    """The frames of a valid/data/last byte bus, sampled at each rising edge of clock. Each
    callback(time, frame) is called with the time of the frame's first byte and its bytes."""

    def __init__(self, clock, valid, data, last, ready=None, units="ps", name=None):
        self.clock, self.valid, self.data, self.last, self.ready = clock, valid, data, last, ready
        self.units = units
        self.name = name or valid._name
        self.callbacks = []
        self.start = None  # time of the first byte of the frame in progress, or None
        self.frames = 0
        self._task = cocotb.start_soon(self._run())

    def _beat(self):
        return self.valid.value == 1 and (self.ready is None or self.ready.value == 1)

    async def _run(self):
        buf = bytearray()
        while True:
            await RisingEdge(self.clock)
            if not self._beat():
                continue
            if self.start is None:
                self.start = now(self.units)
            buf.append(int(self.data.value))
            if self.last.value == 1:
                t, frame = self.start, bytes(buf)
                self.start = None
                buf.clear()
                self.frames += 1
                for cb in self.callbacks:
                    cb(t, frame)


class LinkMonitor:
    """Both directions of one link into a Checker: ab carries side A's frames (to B), ba side
    B's. Frames are fed in the order they started, both directions merged: a frame that ends
    while the other direction's frame that started earlier is still in progress waits for it.
    Each violation is logged as an error when found (lines() has them all)."""

    def __init__(self, checker, ab, ba, link=0, kind=ETH, log=None):
        self.checker, self.link, self.kind = checker, link, kind
        self.monitors = {AB: ab, BA: ba}
        self.log = log or logging.getLogger(f"lfc.link{link}")
        self._pending = []  # (time, order, dir, frame), a heap
        self._order = 0
        self._reported = 0
        for d, m in self.monitors.items():
            m.callbacks.append(lambda t, f, d=d: self._ended(d, t, f))

    def _ended(self, d, t, frame):
        heapq.heappush(self._pending, (t, self._order, d, frame))
        self._order += 1
        self._flush()

    def _flush(self, final=False):
        while self._pending:
            t = self._pending[0][0]
            if not final and any(m.start is not None and m.start < t
                                 for m in self.monitors.values()):
                return  # a frame that started before it has not ended yet
            _, _, d, frame = heapq.heappop(self._pending)
            self.checker.frame(self.link, d, t, self.kind, frame)
            self._report()

    def _report(self):
        while (v := self.checker.violation(self._reported)) is not None:
            self.log.error("%s", v.line)
            self._reported += 1

    def finish(self, time=None):
        """Feed what is pending (frames cut off by the end are not fed), end the observation at
        time (default now, in the monitors' units) and return the violations found in all."""
        self._flush(final=True)
        units = self.monitors[AB].units
        self.checker.finish(now(units) if time is None else time)
        self._report()
        return self.checker.count()

    def lines(self):
        return self.checker.lines()


class ScoreboardMonitor:
    """A Scoreboard fed by StreamMonitors: each frame seen by an input monitor is accepted, each
    frame seen by an output monitor delivered. key(frame) gives the packet's (flow, id), or None
    for a frame the scoreboard should not count. Each violation is logged as an error."""

    def __init__(self, scoreboard, key, inputs=(), outputs=(), log=None):
        self.sb, self.key = scoreboard, key
        self.log = log or logging.getLogger("lfc.scoreboard")
        self._reported = 0
        self._units = None
        for port, m in enumerate(inputs):
            m.callbacks.append(lambda t, f, p=port: self._accept(t, f, p))
            self._units = m.units
        for port, m in enumerate(outputs):
            m.callbacks.append(lambda t, f, p=port: self._deliver(t, f, p))
            self._units = m.units

    def _accept(self, t, frame, port):
        k = self.key(frame)
        if k is not None:
            self.sb.accept(k[0], k[1], t, port, AB)

    def _deliver(self, t, frame, port):
        k = self.key(frame)
        if k is not None and self.sb.deliver(k[0], k[1], t, port, AB):
            self._report()

    def _report(self):
        lines = self.sb.lines()
        for line in lines[self._reported:]:
            self.log.error("%s", line)
        self._reported = len(lines)

    def finish(self, time=None):
        """The end: what is still outstanding is lost. Returns the violations found in all."""
        self.sb.finish(now(self._units or "ps") if time is None else time)
        self._report()
        return self.sb.count()

    def lines(self):
        return self.sb.lines()
