"""cocotb tests of :class:`dlaverif.agents.clocked.ClockLoop` (the one per-edge callback every default-path agent works
in), on the smallest DUT with a clock (``axi_rd_engine``; its ports are not used).

The loop registers its callback on cocotb's rising-edge trigger instead of running a task, so the properties a
task would have for free are tested here: every edge is seen once and numbered like the analysis ports' cycles,
a sleeping work wakes at the first edge after its trigger, nothing of a test keeps running after it,
and an exception in a work function fails the test.
"""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, Timer

from dlaverif.agents.clocked import ClockLoop

PERIOD = 10


def _start(dut) -> ClockLoop:
    Clock(dut.clk, PERIOD, unit="ns").start(start_high=False)
    dut.rst.value = 1
    # held in reset with its inputs idle: an undriven valid (X on Icarus) is a testbench bug that the engine's
    # bus assertions (blocks/rtl/props/) report
    for name in ("cmd_valid", "stop", "rd_ready", "m_axi_arready", "m_axi_rvalid", "m_axi_rlast"):
        getattr(dut, name).value = 0
    return ClockLoop(dut.clk, PERIOD)


@cocotb.test()
async def every_edge_once_with_its_number(dut) -> None:
    """Two works see the same consecutive cycle numbers, equal to sim time // period at each edge."""
    loop = _start(dut)
    seen: dict[str, list[tuple[int, int]]] = {"a": [], "b": []}

    def work(name):
        def step(cycle: int):
            seen[name].append((cycle, int(get_sim_time("ns") // PERIOD)))

        return step

    await ClockCycles(dut.clk, 3)
    loop.add(work("a"))
    loop.add(work("b"))
    await ClockCycles(dut.clk, 50)
    for name, rows in seen.items():
        cycles = [c for c, _ in rows]
        assert all(c == t for c, t in rows), f"{name}: cycle numbers differ from sim time: {rows[:5]}"
        assert cycles == list(range(cycles[0], cycles[0] + len(cycles))), f"{name}: edges missed or repeated"
        assert len(cycles) >= 49, f"{name}: {len(cycles)} edges in 50 cycles"
    assert seen["a"] == seen["b"]


@cocotb.test()
@cocotb.parametrize(fallback=[False, True])
async def sleeping_work_wakes_at_the_next_edge(dut, fallback: bool) -> None:
    """A work that returns a trigger is not called until it fires, then from the first rising edge after it; the
    loop's own numbering restarts from the simulator's time. ``fallback``: the same with the loop as a task
    awaiting the edge (what it does where cocotb has no ``Trigger._register``)."""
    loop = _start(dut)
    loop._direct = not fallback
    calls: list[int] = []
    sleep_until = Timer(7 * PERIOD + 3, unit="ns")  # fires 3 ns after an edge

    def step(cycle: int):
        calls.append(cycle)
        if len(calls) == 4:
            return sleep_until
        return None

    await ClockCycles(dut.clk, 2)
    loop.add(step)
    await ClockCycles(dut.clk, 21)
    first = calls[0]
    assert calls[:4] == [first, first + 1, first + 2, first + 3], calls
    # asleep from the edge `first + 3`; the timer fires 3 ns after edge `first + 3 + 7`; the next edge follows
    assert calls[4] == first + 3 + 8, f"woke at cycle {calls[4]}, expected {first + 11} (calls {calls})"
    assert calls[4:] == list(range(calls[4], calls[4] + len(calls) - 4))


@cocotb.test()
async def ending_the_test_withdraws_the_work(dut) -> None:
    """At the end of a test cocotb cancels every task the test started, the loop's keeper among them; the keeper
    then withdraws the loop's registrations, so no work of this test is called in the next one. Cancelled here
    as cocotb does (a regression runs each test alone, so the next test cannot be the judge)."""
    loop = _start(dut)
    calls: list[int] = []
    sleeper: list[int] = []
    loop.add(lambda cycle: calls.append(cycle))
    wake = Timer(30 * PERIOD, unit="ns")

    def sleepy(cycle: int) -> Timer:  # sleeps on the timer after its first call
        sleeper.append(cycle)
        return wake

    loop.add(sleepy)
    await ClockCycles(dut.clk, 10)
    assert len(calls) >= 9 and len(sleeper) == 1
    n = len(calls)
    assert loop._keeper is not None, "the loop's keeper runs while works are registered"
    loop._keeper.cancel()
    await ClockCycles(dut.clk, 40)  # past the sleeper's timer as well
    assert len(calls) <= n + 1, f"{len(calls) - n} calls after the keeper was cancelled"
    assert len(sleeper) == 1, "the sleeping work was woken after the keeper was cancelled"


class WorkFailed(Exception):
    pass


@cocotb.test(expect_error=WorkFailed)
async def exception_in_a_work_fails_the_test(dut) -> None:
    """An exception raised by a work function fails the test (it is not lost in a simulator callback)."""
    loop = _start(dut)

    def step(cycle: int):
        raise WorkFailed(f"cycle {cycle}")

    loop.add(step)
    await ClockCycles(dut.clk, 5)
