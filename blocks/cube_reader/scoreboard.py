"""Cube-reader scoreboard: every job against the numpy models.

Expected values come only from the models: the atom stream is ``desc.gather(image, base)``
(:class:`models.blocked.BlockedCubeDescriptor`), coordinates are ``desc.coordinates()``, error bits are
``desc.error_bits(AXI_ADDR_W)`` for illegal descriptors, and the fp16 NaN/INF counts are a numpy count over
the expected atoms. For model-backed cubes the streamed atoms are also put back into an image and
``models.unpack`` must return the original tensor (the stream carries the tensor, not just bytes).

A mismatch report names the format and shape, the atom's (n, c, h, w), the byte address of the atom and of
the first differing byte, expected and actual bytes in hex, and the command that reproduces the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from dlaverif import models
from dlaverif.agents.stream import payload
from dlaverif.models.core.fp16 import fp16_classes as _fp16_masks
from dlaverif.platform import (
    Expectation,
    JobScoreboard,
    bus_problems,
    hex_bytes as _hex,
    job_problems,
    sent_problems,
    status_problems,
    unit_rows,
    unit_stream_problems,
)
from dlaverif.platform.mismatch_map import DiffRows

from .atoms import build_max_atom
from .footprint import first_fault_atom
from .items import CubeItem, Kind
from .registers import ERRORS, REGS


def fp16_classes(atoms: np.ndarray, elem_bytes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per element of (k, atom_bytes) uint8 atoms viewed as little-endian fp16: (is_nan, is_inf, halves)."""
    h = np.ascontiguousarray(atoms).view("<u2").reshape(atoms.shape[0], -1)
    nan, inf = _fp16_masks(h)
    return nan, inf, h


@dataclass
class Expected(Expectation):
    """The model's answer for one job."""

    atoms: np.ndarray  # (k, atom_bytes) uint8, after NaN flushing when enabled
    coords: np.ndarray  # (k, 4) n, c, h, w
    addrs: np.ndarray  # (k,) atom start addresses
    nan: np.ndarray  # (k,) NaN elements per atom (0 when CFG.FP16 is clear)
    inf: np.ndarray  # (k,) INF elements per atom
    error: int  # ERROR register
    max_atoms: int  # atoms allowed on the stream (a prefix of `atoms`)
    exact: bool  # True: exactly `max_atoms` atoms, the last with TLAST


def expected_for(item: CubeItem, addr_bits: int) -> Expected:
    """What a correct reader does with ``item`` (from the models only)."""
    d = item.desc
    assert d is not None, "every cube job programs a descriptor"
    if item.kind is Kind.ILLEGAL:
        atoms = np.zeros((0, max(d.atom_bytes, 0)), np.uint8)
        error = d.error_word(d.errors(addr_bits, max_atom_bytes=build_max_atom()))
        return Expected.nothing(error, atoms=atoms, coords=np.zeros((0, 4), np.int64))
    cube = item.cube
    assert cube is not None, "every legal cube job (CUBE, BUS_ERROR, RESET) has its cube"
    atoms = cube.gather(d).copy()
    coords = d.coordinates()
    addrs = d.atom_addresses().reshape(-1)
    k = atoms.shape[0]
    nan = inf = np.zeros(k, np.int64)
    if item.use_fp16() and d.elem_bytes == 2:
        is_nan, is_inf, h = fp16_classes(atoms, d.elem_bytes)
        nan, inf = is_nan.sum(axis=1), is_inf.sum(axis=1)
        if item.nan_to_zero:
            h[is_nan] = 0
            atoms = h.view(np.uint8).reshape(k, d.atom_bytes)
    error, max_atoms, exact = 0, k, True
    if item.kind is Kind.BUS_ERROR:
        error = ERRORS.of_faults(item.faults)
        first = first_fault_atom(d, item.faults)
        max_atoms, exact = (first if first is not None else k), False
    elif item.kind is Kind.RESET:
        exact = False
    return Expected(atoms, coords, addrs, nan, inf, error, max_atoms, exact)


def decode_user(user: int) -> tuple[int, int, int, int]:
    """The cube reader's TUSER[63:0] = {n, c, h, w}, 16 bits each."""
    return ((user >> 48) & 0xFFFF, (user >> 32) & 0xFFFF, (user >> 16) & 0xFFFF, user & 0xFFFF)


class CubeScoreboard(JobScoreboard):
    """Checks each finished cube job against the models (the pairing with the monitors' transactions, the
    reporting and the end-of-test checks are the platform's ``JobScoreboard``)."""

    counted = "atoms"

    def expected(self, item: CubeItem) -> Expected:
        return expected_for(item, self.addr_bits)

    def details(self, item: CubeItem) -> list[str]:
        return [f"desc: {item.desc}", f"knobs: {item.knobs} nan_to_zero={item.nan_to_zero}"]

    def diff_rows(self, item: CubeItem, exp: Expected) -> Optional[DiffRows]:
        return atom_rows(item, exp)

    # ---------------------------------------------------------------- checks
    def compare(self, item: CubeItem, exp: Expected) -> list[str]:
        return job_problems(item, exp, "atom", REGS, self._check_done, self._reset_prefix)

    def _check_done(self, item: CubeItem, exp: Expected) -> list[str]:
        res = item.response()
        st = res.status
        out = status_problems(st, REGS, exp.error)
        # --- the stream
        out += self._check_stream(item, exp)
        n = len(res.beats)
        self.units_checked += n
        out += sent_problems(st, "ATOMS_SENT", n, "atom", item.kind is Kind.CUBE)
        k = min(n, exp.max_atoms)
        want_nan, want_inf = int(exp.nan[:k].sum()), int(exp.inf[:k].sum())
        if st.nan_count != want_nan or st.inf_count != want_inf:
            out.append(
                f"NAN_COUNT={st.nan_count} INF_COUNT={st.inf_count}, model counts NaN={want_nan} INF={want_inf} "
                f"in the {k} atoms sent (CFG.FP16={int(item.use_fp16())})"
            )
        # --- bus side
        out += bus_problems(
            res, st.beats, item.kind is Kind.ILLEGAL, item.kind is Kind.CUBE, item.kind is Kind.BUS_ERROR
        )
        out += res.violations
        if not out and item.kind is Kind.CUBE and item.cube is not None and item.desc == item.cube.desc:
            out += self._check_unpack(item, exp)  # a cube sent in the build's narrower atoms is no model's layout
        return out

    def _check_stream(self, item: CubeItem, exp: Expected) -> list[str]:
        beats = item.response().beats
        d = item.desc
        assert d is not None, "every cube job programs a descriptor"

        def report(i: int, j: int, got: np.ndarray, differ: int) -> tuple[list[str], list[str]]:
            a = int(exp.addrs[i])
            n_, c_, h_, w_ = (int(v) for v in exp.coords[i])
            fmt = (item.cube.fmt or f"synthetic/{item.cube.layout.name}") if item.cube else "?"
            head = (
                f"atom #{i} of {exp.max_atoms} (n,c,h,w)=({n_},{c_},{h_},{w_}) @0x{a:x} differs "
                f"first at byte {j} @0x{a + j:x}: expected 0x{exp.atoms[i, j]:02x}, actual 0x{got[i, j]:02x} "
                f"({differ} atom(s) differ) [{fmt} {item.cube.dtype if item.cube else ''}]"
            )
            return [head], [f"expected: {_hex(exp.atoms[i], j)}", f"actual:   {_hex(got[i], j)}"]

        return unit_stream_problems(
            beats,
            "atom",
            "n,c,h,w",
            (48, 32, 16, 0),
            exp,
            exp.atoms,
            exp.max_atoms,
            d.atom_bytes,
            lambda i: f" {tuple(exp.coords[i])}",
            report,
        )

    def _reset_prefix(self, item: CubeItem, exp: Expected) -> list[str]:
        """Whatever crossed the stream before the reset must be a correct prefix."""
        k = min(len(item.response().beats), exp.max_atoms)
        pre = Expected(exp.atoms, exp.coords, exp.addrs, exp.nan, exp.inf, 0, k, False)
        return [p for p in self._check_stream(item, pre) if "TLAST" not in p]

    def _check_unpack(self, item: CubeItem, exp: Expected) -> list[str]:
        """Put the streamed atoms back at their addresses and ``models.unpack`` them: the tensor must return."""
        cube = item.cube
        if cube is None or cube.fmt is None or cube.tensor is None:
            return []
        d = item.desc
        assert d is not None, "every cube job programs a descriptor"
        got = payload(item.response().beats)[0].reshape(-1, d.atom_bytes)
        img = np.zeros(cube.image.size, np.uint8)
        offs = d.atom_offsets().reshape(-1)[:, None] + np.arange(d.atom_bytes)[None, :]
        img[offs] = got
        back = models.unpack(cube.fmt, img, cube.shape, cube.dtype, **cube.opts)
        want = cube.tensor
        if item.nan_to_zero and item.use_fp16() and want.dtype.itemsize == 2:
            # CFG.FP16 + NAN_TO_ZERO: every 2-byte element with a NaN bit pattern leaves as 0x0000 (int16 too)
            bits = np.ascontiguousarray(want).view("<u2").copy()
            bits[_fp16_masks(bits)[0]] = 0
            want = bits.view(want.dtype)
        a = np.ascontiguousarray(back).view(np.uint8)
        b = np.ascontiguousarray(want).view(np.uint8)
        if back.shape != want.shape or not np.array_equal(a, b):
            where = np.argwhere(
                np.ascontiguousarray(back).view(f"u{want.itemsize}")
                != np.ascontiguousarray(want).view(f"u{want.itemsize}")
            )
            at = tuple(int(v) for v in where[0]) if where.size else "?"
            return [f"models.unpack of the streamed atoms does not give the tensor back: first difference at {at}"]
        return []


def atom_rows(item: CubeItem, exp: Expected) -> Optional[DiffRows]:
    """The mismatch map's rows: the atoms of the output stream in stream order (the ones the model allows), each
    labelled with its (n, c, h, w) and address; a byte by its atom, byte and element index and address. None when
    no atom is comparable (nothing sent, or a transfer of the wrong size)."""
    d = item.desc
    if d is None:
        return None
    eb = max(int(d.elem_bytes), 1)

    def where(i: int) -> str:
        return "(n,c,h,w)=({},{},{},{})".format(*(int(v) for v in exp.coords[i]))

    return unit_rows(
        item,
        "atom",
        exp.atoms,
        exp.max_atoms,
        d.atom_bytes,
        lambda i: f"atom #{i} {where(i)} @0x{int(exp.addrs[i]):x}",
        lambda i, j: f"atom #{i} {where(i)} byte {j} (element {j // eb}) @0x{int(exp.addrs[i]) + j:x}",
    )
