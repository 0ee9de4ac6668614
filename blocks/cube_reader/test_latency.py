"""Cube-reader bus utilization against memory latency, on the env's ``CubeReaderTB``.

Utilization = AXI data beats / cycles of the job (the BEATS and CYCLES registers: START to DONE); the output
streams at most one atom per cycle, so atoms / cycles is the fraction of that limit reached (``of_limit``: equal
to the utilization when every atom takes one beat, as on the 256-bit bus). The cubes are
4096 int8 NVDLA feature atoms of 32 bytes (:data:`LAYOUTS`). Every job is also checked for correctness: ERROR 0,
every atom in order and equal to ``BlockedCubeDescriptor.gather`` over the loaded bytes, and no violation from
the memory agent's AR monitor (4 KB, INCR, footprint).

* ``one_atom_lines_latency32``: in ``make test`` (``tests/sim/test_latency.py``): at latency 32 on one-atom
  lines, >= 0.95 of the one-atom-per-transfer limit (one atom = one beat: utilization >= 0.95);
* ``bus_error_with_all_slots_in_flight`` / ``reset_with_all_slots_in_flight`` (also in ``make test``): a SLVERR or
  DECERR beat, and a reset, while every read slot is in flight (one-atom lines, latency 200);
* ``latency_table``: the whole table for ``make bench`` (``tests/bench/latency.py``), written as JSON to
  ``$LATENCY_JSON``; it asserts only correctness, never a bound.
"""

from __future__ import annotations

import json
import os

import cocotb
import numpy as np
from cocotb.triggers import ClockCycles

from dlaverif.models.blocked import BlockedCubeDescriptor
from dlaverif.platform import Knobs

from .footprint import cube_regions
from .harness import Directed, nvdla_feature, setup
from .registers import BUS_DECERR, BUS_SLVERR, program

ATOM = 32
BASE = 0x40000
LATENCIES = (0, 8, 32, 128)
# name -> (W, H, channel groups, gap after each line in bytes); 4096 atoms each
LAYOUTS = {
    "one_atom_lines": (1, 64, 64, ATOM),
    "eight_atom_lines": (8, 16, 32, ATOM),
    "packed": (32, 32, 4, 0),
}


def cube(layout: str) -> BlockedCubeDescriptor:
    w, h, groups, gap = LAYOUTS[layout]
    return nvdla_feature(w, h, groups, n=1, base=BASE, line_gap=gap)


def streamed(t: Directed) -> np.ndarray:
    return np.frombuffer(b"".join(b.data[:ATOM] for b in t.seen["out"]), np.uint8).reshape(-1, ATOM)


async def measure(t: Directed, layout: str, latency: int) -> dict:
    """One job of ``layout`` at ``latency``: its utilization, after checking that it read the right bytes."""
    d = cube(layout)
    _, img = t.load(d, t.tb.rng)
    st = await t.run(d, knobs=Knobs(latency=latency))
    where = f"{layout} at latency {latency}"
    assert st.error == 0, f"{where}: {st}"
    assert not t.seen["violations"], f"{where}: {t.seen['violations'][:4]}"
    got = streamed(t)
    assert got.shape[0] == d.num_atoms, f"{where}: {got.shape[0]} atoms, want {d.num_atoms}"
    assert np.array_equal(got, d.gather(img, d.base)), f"{where}: atom data differs from the model"
    return {
        "layout": layout,
        "latency": latency,
        "bus_bits": t.bw * 8,
        "beats": st.beats,
        "cycles": st.cycles,
        "utilization": st.beats / st.cycles,
        "of_limit": d.num_atoms / st.cycles,
    }


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def one_atom_lines_latency32(dut):
    """Target: one-atom lines at latency 32 keep >= 95 % of the output limit busy."""
    t = await setup(dut)
    row = await measure(t, "one_atom_lines", 32)
    dut._log.info(
        "one-atom lines, latency 32: %d beats in %d cycles = %.4f", row["beats"], row["cycles"], row["utilization"]
    )
    assert row["beats"] == cube("one_atom_lines").num_atoms, f"{row['beats']} beats for one-beat atoms"
    assert row["utilization"] >= 0.95, f"utilization {row['utilization']:.4f} < 0.95"


async def fill_slots(t: Directed, d: BlockedCubeDescriptor, latency: int = 200, faults: tuple = ()) -> np.ndarray:
    """Start a one-atom-line job at ``latency`` and return once the reader has as many reads in flight as it
    will ever have (latency > slots: the engine's limit, PARAMS[23:16]); returns the loaded image."""
    _, img = t.load(d, t.tb.rng)
    t.tb.apply_knobs(Knobs(latency=latency))
    t.tb.mem.clear_faults()
    for lo, hi, resp in faults:
        t.tb.mem.inject(lo, hi, resp)
    t.tb.reads.expect(cube_regions(d, t.bw))
    slots = (await t.csr.read("PARAMS") >> 16) & 0xFF
    await program(t.csr, d)
    t.log.take()
    await t.csr.start()
    mem = t.tb.mem
    for _ in range(2 * latency):
        await ClockCycles(t.dut.clk, 1)
        if mem.inflight_beats >= slots:
            break
    assert mem.inflight_beats == slots, f"{mem.inflight_beats} reads in flight, PARAMS says {slots}"
    return img


@cocotb.test(timeout_time=20, timeout_unit="ms")
@cocotb.parametrize(resp=["SLVERR", "DECERR"])
async def bus_error_with_all_slots_in_flight(dut, resp):
    """An error beat right after every slot filled: the first error is reported (its bit only), the reader
    stops issuing, drains what is in flight (the memory agent ends idle), streams only atoms before the bad
    one, and the next job is exact."""
    t = await setup(dut)
    d = cube("one_atom_lines")
    addrs = d.atom_addresses().reshape(-1)
    bad = 200  # past the first MAX_OUTSTANDING atoms: its read is issued once slots free up
    other = "DECERR" if resp == "SLVERR" else "SLVERR"
    faults = ((int(addrs[bad]), int(addrs[bad]) + ATOM, resp), (int(addrs[bad + 3]), int(addrs[bad + 3]) + ATOM, other))
    img = await fill_slots(t, d, faults=faults)
    mem = t.tb.mem
    slots = mem.inflight_beats
    done, _ = await t.csr.wait_done(20_000 + d.num_atoms * 210)
    st = await t.csr.read_status(done)
    t.seen = t.log.take()
    want = BUS_SLVERR if resp == "SLVERR" else BUS_DECERR
    assert st.done and st.error == want, f"{st}: want ERROR {want:#x} (the first error only)"
    assert not t.seen["violations"], t.seen["violations"][:4]
    assert mem.idle(), f"{mem.inflight_beats} beats still in flight after DONE: not drained"
    issued = sum(b.beats for b in t.seen["ar"])
    assert st.beats == issued == len(t.seen["r"]), f"BEATS {st.beats}, {issued} beats issued: not drained"
    assert issued <= bad + 1 + slots + 2, f"{issued} reads issued, error at read {bad}: issue did not stop"
    got = streamed(t)
    assert np.array_equal(got, d.gather(img, d.base)[:bad]), f"{len(got)} atoms streamed, want the first {bad}"
    await measure(t, "one_atom_lines", 128)


@cocotb.test(timeout_time=20, timeout_unit="ms")
async def reset_with_all_slots_in_flight(dut):
    """Reset while every slot is in flight: no read after it, registers cleared, the next job is exact."""
    t = await setup(dut)
    d = cube("one_atom_lines")
    await fill_slots(t, d)
    await t.tb.reset()
    t.tb.reads.expect_none()  # nothing may be read after the reset
    t.log.take()
    await ClockCycles(t.dut.clk, 200)
    after = t.log.take()
    assert not after["ar"] and not after["violations"], (after["ar"][:2], after["violations"][:4])
    st = await t.csr.read_status()
    assert st.status == 0 and st.atoms_sent == 0, f"registers not cleared by reset: {st}"
    await measure(t, "one_atom_lines", 128)


@cocotb.test(timeout_time=200, timeout_unit="ms")
async def latency_table(dut):
    """Every layout at every latency; rows to ``$LATENCY_JSON`` (make bench). Asserts correctness only."""
    t = await setup(dut)
    rows = []
    for layout in LAYOUTS:
        for latency in LATENCIES:
            rows.append(await measure(t, layout, latency))
            dut._log.info("%s latency %d: %.4f", layout, latency, rows[-1]["utilization"])
    out = os.getenv("LATENCY_JSON")
    if out:
        with open(out, "w") as f:
            json.dump(rows, f, indent=2)
