"""cr_desc_validator on its own: thousands of random descriptors, each error word compared with the reference
model ``models.blocked.BlockedCubeDescriptor.errors(ADDR_W, max_atom_bytes=MAX_ATOM_BYTES)`` (the build's parameters).

Fields are drawn around the rules' edges: legal and illegal layout codes, atom and element sizes; counts of 0,
1, 65535, 65536 and 2**32-1; nested strides with and without gaps in NVDLA (h < c < n) and MACE (c < h < n)
order, strides one atom short (overlap), misaligned by a few bytes, zero, or random 32-bit values; bases
aligned, misaligned, ending exactly at the top of the ADDR_W address space, one alignment step past it, or
beyond 2**ADDR_W (up to the 64-bit base port: none is beyond at ADDR_W 64). The test also checks that every
rule was seen both broken and kept, so a generator that stopped reaching a rule would fail rather than pass
quietly.

``COUNT`` (environment) scales the number of descriptors (COUNT x 250; default 8 -> 2000).
"""

from __future__ import annotations

import os

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

from dlaverif.models.blocked import ERROR_RULES, BlockedCubeDescriptor

ADDR_W = int(os.getenv("PARAM_ADDR_W") or 40)
MAX_ATOM_BYTES = int(os.getenv("PARAM_MAX_ATOM_BYTES") or 128)  # a build for narrower atoms refuses wider ones
LEGAL_ATOMS = {0: (8, 16, 32, 64, 128), 1: (32,), 2: (32, 64, 128), 3: (8, 16, 32, 64, 128), 4: (8, 16)}
LEGAL_ELEMS = {0: (1, 2, 4), 1: (1, 2), 2: (1, 2), 3: (1, 2, 4), 4: (2, 4)}
U32 = (1 << 32) - 1
BASE_W = 64  # bits of the validator's base port (cr_desc_validator.sv: the descriptor's 64-bit base)


def _count(rng: np.random.Generator) -> int:
    return int(
        rng.choice(
            [1, 1, 2, 3, 4, 7, 17, 255, 65535, 65536, 0, U32],
            p=[0.2, 0.1, 0.15, 0.1, 0.1, 0.08, 0.08, 0.05, 0.05, 0.03, 0.04, 0.02],
        )
    )


def draw(rng: np.random.Generator) -> BlockedCubeDescriptor:
    """One random descriptor near the validator's rule boundaries."""
    layout = int(rng.choice([0, 1, 2, 3, 4, 5, 9, 15], p=[0.15, 0.2, 0.2, 0.15, 0.2, 0.04, 0.03, 0.03]))
    lay = layout if layout <= 4 else 0
    elem = int(rng.choice(LEGAL_ELEMS[lay])) if rng.random() < 0.9 else int(rng.choice([0, 3, 8, 1, 2, 4]))
    if lay == 4 and rng.random() < 0.8:
        atom = 4 * elem
    elif rng.random() < 0.88:
        atom = int(rng.choice(LEGAL_ATOMS[lay]))
    else:
        atom = int(rng.choice([0, 4, 24, 48, 96, 256, 8, 16, 32, 64, 128]))
    fp16 = bool(rng.random() < 0.25)
    cw, ch, cc, cn = (_count(rng) for _ in range(4))
    align = max(atom, 32 if layout in (1, 2) else 1, 1)

    def gap() -> int:
        return int(rng.choice([0, 0, align, 2 * align, 5 * align]))

    line = cw * atom + gap()
    if rng.random() < 0.5:  # NVDLA / oneDNN order: w < h < c < n
        sh = line
        sc = ch * sh + gap()
        sn = cc * sc + gap()
    else:  # MACE order: w < c < h < n
        sc = line
        sh = cc * sc + gap()
        sn = ch * sh + gap()
    strides = [sh, sc, sn]
    for i in range(3):
        r = rng.random()
        if r < 0.06:
            strides[i] -= atom  # one atom short: overlaps when that count > 1
        elif r < 0.12:
            strides[i] += int(rng.integers(1, 32))  # misaligned
        elif r < 0.15:
            strides[i] = 0
        elif r < 0.18:
            strides[i] = int(rng.integers(0, U32 + 1))
    sh, sc, sn = (min(max(s, 0), U32) for s in strides)
    d = BlockedCubeDescriptor(0, atom, elem, cw, ch, cc, cn, sh, sc, sn, layout, fp16)
    top = (1 << ADDR_W) - max(d.extent, 1)
    r = rng.random()
    if r < 0.55 or top < 0:
        base = int(rng.integers(0, max(1, min(top, 1 << 36)) + 1)) // align * align
    elif r < 0.65:
        base = top // align * align  # ends on (or just below) the last byte
    elif r < 0.72:
        base = top // align * align + align  # one step past the top
    elif r < 0.8 and ADDR_W < BASE_W:  # a base beyond the address space (the 64-bit port holds none at 64 bits)
        base = int(rng.integers(1 << ADDR_W, 1 << BASE_W, dtype=np.uint64)) // align * align
    else:
        base = int(rng.integers(0, 1 << 36)) // align * align + int(rng.integers(1, 32))  # misaligned
    return d.with_(base=max(0, min(base, (1 << BASE_W) - 1)))


async def check(dut, d: BlockedCubeDescriptor) -> int:
    """Drive one descriptor, wait for done, return the error word."""
    for name in ("base", "count_w", "count_h", "count_c", "count_n", "stride_h", "stride_c", "stride_n"):
        getattr(dut, name).value = getattr(d, name)
    dut.atom_bytes.value = d.atom_bytes
    dut.elem_bytes.value = d.elem_bytes
    dut.layout.value = int(d.layout)
    dut.fp16.value = int(d.fp16)
    dut.start.value = 1
    await RisingEdge(dut.clk)
    dut.start.value = 0
    for _ in range(200):
        await RisingEdge(dut.clk)
        await ReadOnly()
        if int(dut.done.value):
            return int(dut.errors.value)
    raise AssertionError(f"validator never finished for {d}")


@cocotb.test()
async def random_descriptors_match_the_model(dut):
    rng = np.random.default_rng(cocotb.RANDOM_SEED)
    n = 250 * int(os.getenv("COUNT") or 8)
    dut._log.info("cr_desc_validator: %d random descriptors, ADDR_W=%d, seed %d", n, ADDR_W, cocotb.RANDOM_SEED)
    Clock(dut.clk, 10, unit="ns").start()
    dut.start.value = 0
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    await RisingEdge(dut.clk)
    broken = np.zeros(len(ERROR_RULES), int)
    kept = np.zeros(len(ERROR_RULES), int)
    bad: list[str] = []
    for i in range(n):
        d = draw(rng)
        want = sum(1 << ERROR_RULES.index(r) for r in d.errors(ADDR_W, max_atom_bytes=MAX_ATOM_BYTES))
        got = await check(dut, d)
        await RisingEdge(dut.clk)
        for b in range(len(ERROR_RULES)):
            (broken if want >> b & 1 else kept)[b] += 1
        if got != want:

            def names(w: int) -> list[str]:
                return [r for b, r in enumerate(ERROR_RULES) if w >> b & 1]

            bad.append(f"#{i}: errors 0x{got:03x} {names(got)}, model 0x{want:03x} {names(want)} for {d}")
    for rule, nb, nk in zip(ERROR_RULES, broken, kept):
        dut._log.info("rule %-15s broken %5d  kept %5d", rule, nb, nk)
    assert not bad, f"{len(bad)} of {n} descriptors disagree with the model (seed {cocotb.RANDOM_SEED}):\n" + "\n".join(
        bad[:8]
    )
    unseen = [r for r, nb, nk in zip(ERROR_RULES, broken, kept) if nb == 0 or nk == 0]
    assert not unseen, f"rules never seen both broken and kept: {unseen}"
