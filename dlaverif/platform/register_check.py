"""The register tests every reader gets, driven by its register model (``blocks.regmap``, generated from the .rdl).

:func:`check_register_map` is what a verification lead expects of a register block, for any map, with nothing
written per block: the reset value of every register; every register's access type (RW reads back what was written
through its write mask, RO ignores writes, WO reads as 0); byte strobes on a full and on a masked register; every
unmapped offset of the decoded window answers SLVERR on read and on write and changes nothing. START while busy is
the job protocol's (``ReaderTB.mid_job``: a second START at once); :class:`dlaverif.platform.RegisterTestBase` runs one
such job after this check.

Each problem is one line naming the register, its offset, what was written, read and expected.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from cocotbext.axi import AxiResp

from dlaverif.regmap import BlockMap


def _params_problems(regs: BlockMap, value: int, bus_bits: int, addr_bits: int) -> list[str]:
    got = {f.name: (value & f.mask) >> f.lsb for f in regs.registers["PARAMS"].fields}
    out = []
    if got["AXI_DATA_W"] != bus_bits:
        out.append(f"PARAMS 0x{value:08x}: AXI_DATA_W {got['AXI_DATA_W']}, the bus is {bus_bits} bits")
    if got["AXI_ADDR_W"] != addr_bits:
        out.append(f"PARAMS 0x{value:08x}: AXI_ADDR_W {got['AXI_ADDR_W']}, the bus has {addr_bits} address bits")
    if got["MAX_OUTSTANDING"] < 1:
        out.append(f"PARAMS 0x{value:08x}: MAX_OUTSTANDING 0")
    return out


async def check_register_map(
    csr: Any, regs: BlockMap, bus_bits: int, addr_bits: int, rng: np.random.Generator
) -> list[str]:
    """Every register test of the model on an idle block fresh from reset (``csr``: a :class:`CsrAgent`); the
    problems found (empty: all passed). The block is left idle; its RW registers hold random values."""
    problems: list[str] = []
    names = list(regs.registers)

    def row(n: str) -> str:
        return f"{n} (0x{regs.REG[n]:02X}, {regs.access(n)})"

    # ---- reset values
    after_reset = await csr.read_many(names)
    for n in names:
        want = regs.registers[n].reset  # WO registers: 0 (their pulses are not stored); PARAMS: None
        if n == "PARAMS":
            problems += _params_problems(regs, after_reset[n], bus_bits, addr_bits)
        elif want is not None and after_reset[n] != want:
            problems.append(f"{row(n)} reads 0x{after_reset[n]:08x} after reset, expected 0x{want:08x}")

    # ---- access types: all ones, all zeros, then random values into every register (CTRL without START)
    rand = [int(v) for v in rng.integers(0, 1 << 32, len(names), dtype=np.uint64)]
    for pattern in ([0xFFFFFFFF] * len(names), [0] * len(names), rand):
        values = dict(zip(names, pattern))
        values["CTRL"] &= ~regs.ctrl_start
        await csr.write_many(values)
        back = await csr.read_many(names)
        for n in names:
            r = regs.registers[n]
            want = values[n] & r.wmask if r.access == "RW" else 0 if r.access == "WO" else after_reset[n]
            if back[n] != want:
                what = {"RW": "through its write mask", "WO": "(write-only: reads 0)", "RO": "(read-only: unchanged)"}
                problems.append(
                    f"{row(n)}: wrote 0x{values[n]:08x}, read 0x{back[n]:08x}, expected 0x{want:08x} {what[r.access]}"
                )

    # ---- byte strobes: one byte of a full register and of a masked one
    rw = regs.names("RW")
    full = next((n for n in rw if regs.WMASK[n] == 0xFFFFFFFF), None)
    masked = next((n for n in rw if regs.WMASK[n] != 0xFFFFFFFF), None)
    for reg, lane in ((full, 1), (masked, 0)):
        if reg is None:
            continue
        n = reg
        before = await csr.read(n)
        await csr.axil.write(regs.REG[n] + lane, b"\xa5")  # WSTRB: that one byte lane
        want = (before & ~(0xFF << 8 * lane) | 0xA5 << 8 * lane) & regs.WMASK[n]
        got = await csr.read(n)
        if got != want:
            problems.append(
                f"{row(n)}: byte {lane} written 0xa5 over 0x{before:08x}: read 0x{got:08x}, want 0x{want:08x}"
            )

    # ---- unmapped offsets: SLVERR both ways, data 0, and nothing changes
    before_all = await csr.read_many(names)
    for off in regs.unmapped():
        r = await csr.read_resp(off)
        data = int.from_bytes(r.data, "little")
        if r.resp != AxiResp.SLVERR or data != 0:
            problems.append(f"read of unmapped 0x{off:02X}: {r.resp.name} data 0x{data:08x}, expected SLVERR and 0")
        w = await csr.axil.write(off, b"\xff\xff\xff\xff")
        if w.resp != AxiResp.SLVERR:
            problems.append(f"write of unmapped 0x{off:02X}: {w.resp.name}, expected SLVERR")
    after_all = await csr.read_many(names)
    problems += [
        f"{row(n)} changed from 0x{before_all[n]:08x} to 0x{after_all[n]:08x} by writes to unmapped offsets"
        for n in names
        if after_all[n] != before_all[n]
    ]
    problems += csr.violations
    csr.violations = []
    return problems
