"""The cocotb example of docs/verify-your-rtl.md: pfc_tx_stub.v watched on its line by lfc's PFC
link checker, and end to end by lfc's scoreboard.

The client sends a frame every GAP cycles, alternating priorities 0 and PAUSED; the link partner
pauses priority PAUSED for QUANTA quanta. A device that honours the pause holds back that
priority's frames until the pause ends; one built with IgnorePause=1 keeps sending them, and the
checker flags the first one started after the reaction budget (pfc-reaction) and every later one
(pfc-tx-paused). The test fails if the checker or the scoreboard found anything.
"""

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

import lfc
from lfc.cocotb import LinkMonitor, ScoreboardMonitor, StreamMonitor

BYTE_PS = 800  # one byte per cycle at 10 Gb/s
SETTINGS = "speed_mbps=10000 time_unit_ps=1"  # times in ps; frames with their FCS
SIDE_A = bytes.fromhex("024c46000000")  # the device
SIDE_B = bytes.fromhex("024c46000001")  # its link partner
ETHERTYPE_LOCAL = 0x88B5  # IEEE 802 local experimental
PAUSED = 3  # the priority the partner pauses
QUANTA = 100  # 100 x 512 bit times: 5.12 us at 10 Gb/s, beyond the 3.43 us reaction budget
PAUSE_AT = 1000  # cycle the partner starts its pause frame
FRAMES = 24
GAP = 500  # cycles from one client frame to the next
SEQ_OFFSET = 18  # the sequence number's place in a tagged frame (after the EtherType)


def client_frame(seq):
    prio = PAUSED if seq % 2 else 0
    payload = seq.to_bytes(4, "big") + bytes(40 + 7 * seq)
    return prio, lfc.eth_frame(SIDE_B, SIDE_A, ETHERTYPE_LOCAL, payload, pcp=prio)


def key(frame):
    """(flow, id) of a client frame for the scoreboard: its priority and sequence number."""
    return frame[14] >> 5, int.from_bytes(frame[SEQ_OFFSET:SEQ_OFFSET + 4], "big")


async def drive(clk, valid, data, last, frame, ready=None):
    """One frame onto a byte stream, one byte per cycle while ready."""
    for i, b in enumerate(frame):
        valid.value, data.value, last.value = 1, b, int(i == len(frame) - 1)
        await RisingEdge(clk)
        while ready is not None and ready.value == 0:
            await RisingEdge(clk)
    valid.value, last.value = 0, 0


async def client(dut):
    for seq in range(FRAMES):
        prio, frame = client_frame(seq)
        dut.s_prio_i.value = prio
        await drive(dut.clk_i, dut.s_valid_i, dut.s_data_i, dut.s_last_i, frame, dut.s_ready_o)
        await ClockCycles(dut.clk_i, GAP)


async def count_held(dut, held):
    """Cycles the client had a byte to give and the device did not take it."""
    while True:
        await RisingEdge(dut.clk_i)
        if dut.s_valid_i.value == 1 and dut.s_ready_o.value == 0:
            held[0] += 1


async def partner(dut):
    await ClockCycles(dut.clk_i, PAUSE_AT)
    pause = lfc.pfc_frame(SIDE_B, {PAUSED: QUANTA})
    await drive(dut.clk_i, dut.rx_valid_i, dut.rx_data_i, dut.rx_last_i, pause)


@cocotb.test()
async def pfc_tx_stub_honours_pauses(dut):
    cocotb.start_soon(Clock(dut.clk_i, BYTE_PS, units="ps").start())
    for s in (dut.s_valid_i, dut.s_last_i, dut.rx_valid_i, dut.rx_last_i):
        s.value = 0
    dut.s_data_i.value, dut.s_prio_i.value, dut.rx_data_i.value = 0, 0, 0
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 4)
    dut.rst_ni.value = 1

    clk = dut.clk_i
    s_in = StreamMonitor(clk, dut.s_valid_i, dut.s_data_i, dut.s_last_i, ready=dut.s_ready_o)
    tx = StreamMonitor(clk, dut.tx_valid_o, dut.tx_data_o, dut.tx_last_o)
    rx = StreamMonitor(clk, dut.rx_valid_i, dut.rx_data_i, dut.rx_last_i)
    link = LinkMonitor(lfc.Checker("pfc", SETTINGS), ab=tx, ba=rx)
    sb = ScoreboardMonitor(lfc.Scoreboard(time_unit_ps=1), key, inputs=[s_in], outputs=[tx])

    held = [0]
    cocotb.start_soon(count_held(dut, held))
    cocotb.start_soon(partner(dut))
    await client(dut)
    await ClockCycles(clk, 4)

    found = link.finish() + sb.finish()
    cov = link.checker.coverage()
    dut._log.info("%d frames on the line, %d pause frame(s), the client held %d cycles, "
                  "coverage: %s", tx.frames, rx.frames, held[0],
                  " ".join(f"{k}={v}" for k, v in cov.items() if v))
    assert found == 0, "\n".join(["lfc found:"] + link.lines() + sb.lines())
    # The run must have exercised the rule: the pause reached the device and held back a frame.
    assert cov["xoff"] == 1 and held[0] > 0 and tx.frames == FRAMES, (cov, held, tx.frames)
