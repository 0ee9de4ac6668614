"""The read engine at any legal configuration: the configuration matrix's smoke test of the engine.

``test_engine`` (the directed tests) assumes the defaults' room: commands anywhere in a 1 MB memory, 128 slots.
These tests fit every configuration of the engine's parameter contract instead: commands stay inside the address
space of ``ADDR_W`` bits (4 KB at 12 bits) and inside ``LEN_W`` bits of length, and the checks take the build's
``MAX_OUTSTANDING`` and ``MAX_BURST`` (``PARAM_<name>``, exported by dlaverif/flow/runner.py; else the RTL defaults):
random commands in its first MB and commands at the ends of the whole space (long ones over many pages with the
highest address bit set, the last byte of the space, its middle), every beat and its side information against
the oracle of ``test_engine``, the AXI rules of every AR (ARSIZE,
INCR, 4 KB), ARLEN + 1 <= MAX_BURST, never more than MAX_OUTSTANDING bursts in flight and that limit reached,
``stop`` with every slot in flight drained.
"""

from __future__ import annotations

import os
import random

import cocotb
import numpy as np
from cocotb.triggers import ReadOnly, RisingEdge

from blocks.axi_rd_engine.test_engine import MAX_OUTSTANDING, MEM, EngineTB, in_flight
from dlaverif import placement
from dlaverif.platform.reach import write_record


def _param(name: str, default: int) -> int:
    return int(os.getenv(f"PARAM_{name}") or default)


def space(dut) -> int:
    """Bytes the random commands may address: the engine's address space, at most ``MEM`` (the bytes the
    testbench fills with random data up front)."""
    return min(1 << len(dut.cmd_addr), MEM)


LONG_BEATS = 8192  # the long corner command: 8192 bus words (32 pages at 128 bits, 1 MB at 1024 bits)


def corner_cmds(rng: random.Random, bw: int, addr_bits: int, longest: int) -> list[tuple[int, int]]:
    """Commands at the ends of the whole ``addr_bits``-bit space (``dlaverif.placement``): a long one of up to
    :data:`LONG_BEATS` bus words (many 4 KB pages; megabytes on a wide bus, where ``LEN_W`` allows) with the
    highest address bit set (above 2**63 at 64 bits), one ending on the space's last byte and one across its
    middle, unaligned."""
    top = 1 << addr_bits
    long = min(longest, top // 2, LONG_BEATS * bw - rng.randint(0, bw - 1))
    short = min(longest, top // 4, rng.randint(1, 3 * 4096))
    rng_np = np.random.default_rng(rng.randrange(1 << 32))
    return [
        (placement.upper_half(rng_np, long, addr_bits, 1), long),
        (top - short, short),
        (top // 2 - short // 2, short),
    ]


def max_len(dut) -> int:
    return (1 << len(dut.cmd_len)) - 1


def legal_cmds(rng: random.Random, n: int, bw: int, room: int, longest: int) -> list[tuple[int, int]]:
    """``n`` random byte-granular commands inside ``room`` bytes, at most ``longest`` bytes each: short ones, a
    bus word and its neighbours, long ones, and runs ending just past a 4 KB boundary."""
    cmds = []
    for _ in range(n):
        length = rng.choice([1, 2, bw - 1, bw, bw + 1, rng.randint(1, 300), rng.randint(1, 9000)])
        length = max(1, min(length, longest, room))
        pages = room // 4096
        near4k = 4096 * rng.randint(1, pages - 1) - rng.randint(1, 64) if pages > 1 else 0
        addr = rng.choice([rng.randrange(0, room - length + 1), near4k])
        addr = min(addr, room - length)
        cmds.append((addr, length))
    return cmds


async def watch(tb: EngineTB, worst: list[int]) -> None:
    """The most bursts in flight seen, every cycle."""
    while True:
        await RisingEdge(tb.dut.clk)
        await ReadOnly()
        worst[0] = max(worst[0], in_flight(tb))


def check_bursts(tb: EngineTB) -> None:
    tb.check_ars()
    limit = _param("MAX_BURST", 256)
    long = [a for a in tb.ars if a.beats > limit]
    assert not long, f"{len(long)} bursts longer than MAX_BURST {limit}: first {long[0]}"


@cocotb.test(timeout_time=50, timeout_unit="ms")
@cocotb.parametrize(ready=[1.0, 0.4])
async def config_commands(dut, ready):
    """Random commands that fit the configuration, back to back: every beat exact, every AR legal."""
    tb = EngineTB(dut, cocotb.RANDOM_SEED, size=None)
    await tb.start(ready)
    worst = [0]
    cocotb.start_soon(watch(tb, worst))
    cmds = legal_cmds(tb.rng, 30, tb.bw, space(dut), max_len(dut))
    corners = corner_cmds(tb.rng, tb.bw, len(dut.cmd_addr), max_len(dut))
    for addr, length in corners:  # random data where they read (the sparse memory holds only what is written)
        tb.mem.mem.write(addr, tb.rng.randbytes(length))
    cmds += corners
    for c in cmds:
        await tb.send(*c)
    await tb.idle(limit=400_000)
    want = tb.expected(cmds)
    assert len(tb.beats) == len(want), f"{len(tb.beats)} beats, want {len(want)}"
    for i, (g, w) in enumerate(zip(tb.beats, want)):
        assert g == w, f"beat {i}: (addr, first, last, lo, hi, resp) {g[:6]} want {w[:6]}" + (
            " (data differs)" if g[:6] == w[:6] else ""
        )
    check_bursts(tb)
    assert worst[0] <= MAX_OUTSTANDING, f"{worst[0]} bursts in flight, MAX_OUTSTANDING {MAX_OUTSTANDING}"
    write_record(tb.reach, f"config_commands_ready{ready}")


@cocotb.test(timeout_time=50, timeout_unit="ms")
async def config_slots(dut):
    """One-beat commands against a stalled client: exactly MAX_OUTSTANDING bursts go out; then stop drains them
    all, and the next command is exact."""
    tb = EngineTB(dut, cocotb.RANDOM_SEED)
    await tb.reset()
    room = space(dut)
    n = 2 * MAX_OUTSTANDING
    cmds = [((i * tb.bw) % room, 1) for i in range(n)]
    tb.ready_p = 0.0

    async def sender() -> None:
        for c in cmds:
            await tb.send(*c)

    task = cocotb.start_soon(sender())
    for _ in range(20 * MAX_OUTSTANDING + 40):
        await RisingEdge(dut.clk)
    await ReadOnly()
    assert tb.r_fires == 0 and len(tb.ars) == MAX_OUTSTANDING, (
        f"{len(tb.ars)} bursts issued with none returned, MAX_OUTSTANDING {MAX_OUTSTANDING}"
    )
    await RisingEdge(dut.clk)
    task.cancel()
    dut.cmd_valid.value = 0
    dut.stop.value = 1
    await tb.idle()
    dut.stop.value = 0
    assert tb.offered_while_stopped == 0, f"{tb.offered_while_stopped} beats offered while stopped"
    assert tb.r_fires == sum(a.beats for a in tb.ars), "outstanding beats not drained"
    tb.beats.clear()
    length = min(700, max_len(dut))
    last = (room - length - 3, length)
    tb.ready_p = 1.0
    await tb.send(*last)
    await tb.idle()
    assert tb.beats == tb.expected([last])
    check_bursts(tb)
    write_record(tb.reach, "config_slots")
