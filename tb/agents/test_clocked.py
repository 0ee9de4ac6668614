"""cocotb tests of :class:`tb.agents.clocked.ClockLoop` (the one per-edge callback every default-path agent works
in), on the smallest DUT with a clock (``axi_rd_engine``; its ports are not used).

The loop registers its callback on cocotb's rising-edge trigger instead of running a task, so the properties a
task would have for free are tested here: every edge is seen once and numbered like the analysis ports' cycles,
a sleeping work wakes at the first edge after its trigger, nothing of a test keeps running in the next test,
and an exception in a work function fails the test.
"""
from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, RisingEdge, Timer

from tb.agents.clocked import ClockLoop

PERIOD = 10
_leftover: list[int] = []      # cycles seen by the work of test 3, which must stop when that test ends


def _start(dut) -> ClockLoop:
    Clock(dut.clk, PERIOD, unit="ns").start(start_high=False)
    dut.rst.value = 1
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
async def sleeping_work_wakes_at_the_next_edge(dut) -> None:
    """A work that returns a trigger is not called until it fires, then from the first rising edge after it; the
    loop's own numbering restarts from the simulator's time."""
    loop = _start(dut)
    calls: list[int] = []
    sleep_until = Timer(7 * PERIOD + 3, unit="ns")          # fires 3 ns after an edge

    def step(cycle: int):
        calls.append(cycle)
        if len(calls) == 4:
            return sleep_until
        return None
    await ClockCycles(dut.clk, 2)
    loop.add(step)
    await RisingEdge(dut.clk)
    first = calls[0]
    await ClockCycles(dut.clk, 20)
    assert calls[:4] == [first, first + 1, first + 2, first + 3], calls
    # asleep from the edge `first + 3`; the timer fires 3 ns after edge `first + 3 + 7`; the next edge follows
    assert calls[4] == first + 3 + 8, f"woke at cycle {calls[4]}, expected {first + 11} (calls {calls})"
    assert calls[4:] == list(range(calls[4], calls[4] + len(calls) - 4))


@cocotb.test()
async def a_test_leaves_no_work_running_1(dut) -> None:
    """The first half: a work that would run forever is left registered when the test ends."""
    loop = _start(dut)
    loop.add(lambda cycle: _leftover.append(cycle))
    await ClockCycles(dut.clk, 10)
    assert len(_leftover) >= 9


@cocotb.test()
async def a_test_leaves_no_work_running_2(dut) -> None:
    """The second half: the previous test's work is not called any more (its registration was withdrawn)."""
    Clock(dut.clk, PERIOD, unit="ns").start(start_high=False)
    before = len(_leftover)
    assert before >= 9, "run the whole module: the first half did not run"
    await ClockCycles(dut.clk, 20)
    assert len(_leftover) == before, f"{len(_leftover) - before} calls of the previous test's work in this test"


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
