"""A thin job harness over the shared cube-reader TB for directed tests: random bytes around a descriptor's
footprint, one job through ``CubeReaderTB.run_job`` (the pyuvm driver's code), the transactions the monitors
published during it, and the oracles the directed tests share (exact burst list, atom stream, status registers).
Used by ``test_directed.py`` and ``test_latency.py``.
"""

from __future__ import annotations

import cocotb
import numpy as np

from dlaverif.agents.stream import payload
from dlaverif.models.blocked import BlockedCubeDescriptor, Layout
from dlaverif.models.core.arith import ceil_div
from dlaverif.models.core.fp16 import fp16_classes
from dlaverif.platform import Knobs
from dlaverif.regmap import JobStatus

from .atoms import at_atoms
from .env import CubeReaderTB
from .items import CubeItem, Kind
from .registers import REGS
from .scoreboard import decode_user


class Directed:
    """The shared TB plus one subscriber of its ports, and the oracles of the directed tests."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.tb = CubeReaderTB(dut, np.random.default_rng(cocotb.RANDOM_SEED))
        self.log = self.tb.observe()
        self.bw = self.tb.bus_bytes
        self.aw = self.tb.addr_bits
        self.max_atom = len(dut.m_axis_tdata) // 8  # the build's MAX_ATOM_BYTES: one atom per stream transfer
        self.csr = self.tb.csr
        self.seen: dict[str, list] = {}

    def fitted(self, d: BlockedCubeDescriptor) -> BlockedCubeDescriptor:
        """``d`` at the build's atoms (:func:`at_atoms`), logged when it had to change."""
        fit = at_atoms(d, self.max_atom, self.aw)
        if fit is not d:
            self.dut._log.info(
                "%d-byte atoms at MAX_ATOM_BYTES %d: the same cube in generic %d-byte atoms",
                d.atom_bytes,
                self.max_atom,
                fit.atom_bytes,
            )
        return fit

    async def reg(self, name: str) -> int:
        return await self.csr.read(name)

    def load(self, d: BlockedCubeDescriptor, rng: np.random.Generator, guard: int = 256) -> tuple[int, np.ndarray]:
        """Random bytes over the descriptor's footprint (gaps included), 0xA5 guard bands around it."""
        img = rng.integers(0, 256, size=d.extent, dtype=np.uint8)
        self.tb.mem.load(d.base, img, guard=guard)
        return d.base, img

    async def run(
        self,
        d: BlockedCubeDescriptor,
        nan_to_zero: bool = False,
        knobs: Knobs | None = None,
        faults=(),
        kind: Kind = Kind.CUBE,
    ) -> JobStatus:
        """One job through the shared driver code; the monitors' transactions land in ``self.seen``."""
        item = CubeItem("directed")
        item.kind, item.desc, item.nan_to_zero = kind, d, nan_to_zero
        item.knobs = knobs or Knobs()
        item.faults = list(faults)
        self.log.take()
        await self.tb.run_job(item)
        self.seen = self.log.take()
        res = item.response()
        assert res.status.done, f"no DONE: {res.status}"
        assert not res.csr_violations, res.csr_violations
        return res.status

    @property
    def ars(self):
        return self.seen["ar"]

    def check_ars(self) -> None:
        assert not self.seen["violations"], f"protocol/footprint violations: {self.seen['violations'][:3]}"

    def expected_bursts(self, d: BlockedCubeDescriptor) -> list[tuple[int, int]]:
        """(address, arlen) of every burst: maximal contiguous runs of atoms split at 4 KB and 256 beats."""
        addrs = [int(a) for a in d.atom_addresses().reshape(-1)]
        runs, start, end = [], addrs[0], addrs[0] + d.atom_bytes
        for a in addrs[1:]:
            if a == end:
                end += d.atom_bytes
            else:
                runs.append((start, end))
                start, end = a, a + d.atom_bytes
        runs.append((start, end))
        bursts = []
        for s, e in runs:
            addr = s // self.bw * self.bw
            beats = ceil_div(e, self.bw) - s // self.bw
            while beats:
                n = min(beats, 256, (4096 - addr % 4096) // self.bw)
                bursts.append((addr, n - 1))
                addr += n * self.bw
                beats -= n
        return bursts

    @staticmethod
    def expected_atoms(
        d: BlockedCubeDescriptor, img: np.ndarray, img_base: int, nan_to_zero: bool = False
    ) -> tuple[np.ndarray, int, int]:
        exp = d.gather(img, img_base).copy()
        nan = inf = 0
        if d.fp16:
            v = exp.view("<u2")
            is_nan, is_inf = fp16_classes(v)
            nan, inf = int(is_nan.sum()), int(is_inf.sum())
            if nan_to_zero:
                v[is_nan] = 0
        return exp, nan, inf

    def check_stream(self, d: BlockedCubeDescriptor, exp: np.ndarray, count: int | None = None) -> None:
        """The first ``count`` atoms (all by default) arrived, in order, with their keep/user/last."""
        n = d.num_atoms if count is None else count
        atoms = self.seen["out"]
        assert len(atoms) == n, f"{len(atoms)} atoms received, want {n}"
        if not n:
            return
        data, sizes = payload(atoms)
        assert (sizes == d.atom_bytes).all(), "TKEEP does not cover exactly one atom"
        got = data.reshape(-1, d.atom_bytes)
        if not np.array_equal(got, exp[:n]):
            i = int(np.argwhere((got != exp[:n]).any(axis=1))[0][0])
            raise AssertionError(
                f"atom {i} coord {decode_user(atoms[i].user)}: got {got[i].tobytes().hex()} "
                f"want {exp[i].tobytes().hex()}"
            )
        coords = d.coordinates()[:n]
        for i, (t, want) in enumerate(zip(atoms, coords)):
            assert decode_user(t.user) == tuple(int(v) for v in want), (
                f"atom {i}: tuser {decode_user(t.user)}, want {tuple(int(v) for v in want)}"
            )
            want_last = count is None and i == n - 1
            assert t.last == want_last, f"atom {i}: tlast {int(t.last)}, want {int(want_last)}"

    async def check_good_job(
        self,
        d: BlockedCubeDescriptor,
        img: np.ndarray,
        img_base: int,
        nan_to_zero: bool = False,
        knobs: Knobs | None = None,
    ) -> JobStatus:
        st = await self.run(d, nan_to_zero, knobs)
        exp, nan, inf = self.expected_atoms(d, img, img_base, nan_to_zero)
        assert st.error == 0, f"ERROR {st.error:#x} ({REGS.decode_errors(st.error)}) on a legal job"
        assert st.status == REGS.status_done, f"STATUS {st.status:#x}"
        self.check_stream(d, exp)
        self.check_ars()
        bursts = self.expected_bursts(d)
        got = [(a.addr, a.len) for a in self.ars]
        assert got == bursts, (
            f"bursts {[(hex(a), n) for a, n in got][:8]}.., want {[(hex(a), n) for a, n in bursts][:8]}.."
        )
        n_beats = sum(n + 1 for _, n in bursts)
        assert len(self.seen["r"]) == n_beats, f"{len(self.seen['r'])} R beats, want {n_beats}"
        assert st.beats == n_beats, f"BEATS {st.beats}, want {n_beats}"
        assert st.atoms_sent == d.num_atoms, f"ATOMS_SENT {st.atoms_sent}, want {d.num_atoms}"
        assert (st.nan_count, st.inf_count) == (nan, inf), f"NAN/INF {st.nan_count}/{st.inf_count}, want {nan}/{inf}"
        assert st.cycles >= n_beats, f"CYCLES {st.cycles} < beats {n_beats}"
        return st


async def setup(dut) -> Directed:
    t = Directed(dut)
    await t.tb.reset()
    return t


def nvdla_feature(
    w: int,
    h: int,
    groups: int,
    n: int = 1,
    base: int = 0x10000,
    line_gap: int = 0,
    surf_gap: int = 0,
    batch_gap: int = 0,
    elem: int = 1,
    fp16: bool = False,
) -> BlockedCubeDescriptor:
    """An NVDLA feature cube (32-byte atoms) of ``w`` x ``h`` x ``groups`` channel groups x ``n``, with gaps after
    each line, surface and batch."""
    sh = w * 32 + line_gap
    sc = h * sh + surf_gap
    return BlockedCubeDescriptor(
        base, 32, elem, w, h, groups, n, sh, sc, groups * sc + batch_gap, Layout.NVDLA_FEATURE, fp16
    )


def rng_for(test: str) -> np.random.Generator:
    return np.random.default_rng([cocotb.RANDOM_SEED & 0xFFFFFFFF, sum(map(ord, test))])
