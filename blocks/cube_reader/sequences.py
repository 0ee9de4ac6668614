"""Cube-reader sequences: random cubes per layout family, fp16 specials, illegal descriptors, bus errors,
resets in the middle of a job, stalls. Every sequence draws from the test's numpy Generator (ConfigDB "RNG",
seeded from ``cocotb.RANDOM_SEED``), so a run is reproduced by its seed.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from dlaverif.flow import contracts
from dlaverif.models.blocked import MAX_COUNT, BlockedCubeDescriptor, Layout
from dlaverif.platform import Knobs, ReaderSeqBase, config_value, random_knobs

from .atoms import at_atoms, build_max_atom
from .families import Cube, Family
from .footprint import atom_fault_range, first_fault_atom
from .items import CubeItem, Kind

ADDRESS_TAIL = ("high", "cross_half", "top_exact")  # families.pick_base's placements at the ends of the space
FILL_LATENCY = 300  # cycles: above 255 bursts issued one a cycle
LONG_ATOMS = 4096  # the tail's long line of 32-byte atoms: 128 KB, 32 pages


class CubeSeqBase(ReaderSeqBase):
    """Helpers shared by the cube-reader sequences."""

    item_cls = CubeItem
    data_attr = "cube"

    def __init__(self, name: str = "seq", families: Optional[list[Family]] = None, count: Optional[int] = None) -> None:
        super().__init__(name, count)
        self.families: list[Family] = families if families is not None else config_value("FAMILY_OBJS")

    def new_item(self, kind: Kind, data: Optional[Cube]) -> CubeItem:
        """The platform's item, its legal cube programmed in the build's atoms (:func:`at_atoms`): the same bytes
        and geometry, in generic atoms where the layout's are wider than the build's MAX_ATOM_BYTES."""
        item = super().new_item(kind, data)
        if data is not None and kind is not Kind.ILLEGAL:
            item.desc = at_atoms(data.desc, build_max_atom(), self.addr_bits)
        return item

    def draw(self, fam: Family, dtype=None, **kw) -> Cube:
        dtype = dtype if dtype is not None else fam.dtypes[int(self.rng.integers(0, len(fam.dtypes)))]
        return fam.draw(self.rng, dtype, addr_bits=self.addr_bits, **kw)

    async def send_cube(
        self,
        fam: Family,
        knobs: Optional[Knobs] = None,
        nan_to_zero: Optional[bool] = None,
        midjob: Optional[bool] = None,
        **kw,
    ) -> CubeItem:
        cube = self.draw(fam, **kw)
        item = self.new_item(Kind.CUBE, cube)
        item.knobs = knobs if knobs is not None else random_knobs(self.rng)
        item.nan_to_zero = bool(self.rng.random() < 0.3) if nan_to_zero is None else nan_to_zero
        if midjob is None:
            midjob = knobs is None and self.rng.random() < 0.15
        if midjob:
            item.midjob = int(self.rng.integers(0, 2 + cube.desc.num_atoms))
        if cube.desc.elem_bytes == 2 and not cube.desc.fp16 and knobs is None and self.rng.random() < 0.15:
            item.fp16 = True  # integer halves read as fp16: NaN/INF bit patterns are counted (and flushed)
        await self.send(item)
        return item


class CubeSeq(CubeSeqBase):
    """Per family: a directed warm-up over the channel edges and every dtype (no stalls), then ``count``
    random cubes with random timing knobs, then the address-space tail: per family a cube anywhere in the upper
    half of the build's address space (its highest address bit set: above 2**63 at 64 bits), one across the
    middle of the space and one ending on its last byte, then one cube that fills every read slot
    (:meth:`fill_slots`). The tail comes last, so the cubes before it are the ones
    the same seed drew before it existed."""

    async def body(self) -> None:
        for fam in self.families:
            edges = list(fam.edges)
            for i, edge in enumerate(edges):
                dtype = fam.dtypes[i % len(fam.dtypes)]
                await self.send_cube(fam, Knobs(), edge=edge, dtype=dtype, gapped=bool(i % 2))
            for dtype in fam.dtypes[len(edges) :]:
                await self.send_cube(fam, Knobs(), dtype=dtype)
        for _ in range(self.count):
            for fam in self.families:
                size = "medium" if self.rng.random() < 0.5 else "small"
                await self.send_cube(fam, specials=0.02, size=size)
        for where in ADDRESS_TAIL:
            for fam in self.families:
                await self.send_cube(fam, where=where)
        await self.fill_slots()

    async def fill_slots(self) -> None:
        """Every read slot: one-atom lines apart from each other (one one-beat burst each) behind a latency longer
        than the most reads in flight the contract allows (255), so the engine issues until MAX_OUTSTANDING are
        out; then one long packed line over many pages (the synthetic family: any atom size; where it is not in
        the test's families, nothing)."""
        fam = next((f for f in self.families if f.layout is Layout.GENERIC), None)
        if fam is None:
            return
        lines = contracts.build_value("cube_reader", "MAX_OUTSTANDING") + 2  # per channel: 2 x that in all
        for _ in range(50):  # a gapped draw leaves the line stride packed 3 times in 10: draw again
            cube = self.draw(fam, counts=(1, 2, lines, 1), gapped=True)
            if cube.desc.stride_h > cube.desc.atom_bytes:
                break
        item = self.new_item(Kind.CUBE, cube)
        item.knobs = Knobs(latency=FILL_LATENCY)
        await self.send(item)
        # one long packed line in the upper half, read as one run over many 4 KB pages
        await self.send_cube(fam, Knobs(), counts=(1, 1, 1, LONG_ATOMS), atom=32, gapped=False, where="high")


class Fp16Seq(CubeSeqBase):
    """fp16 cubes full of NaN (several payloads, both signs), INF, denormals and zeros, NaN flush on and off,
    and the same bytes with CFG.FP16 clear (nothing counted, nothing flushed)."""

    async def body(self) -> None:
        fams = [f for f in self.families if "float16" in f.dtypes or not f.model]
        for i in range(max(4, self.count)):
            fam = fams[i % len(fams)]
            kw = {"dtype": "float16"} if fam.model else {"dtype": "float16", "elem": 2}
            cube = self.draw(fam, specials=float(self.rng.choice([0.05, 0.3, 1.0])), **kw)
            item = self.new_item(Kind.CUBE, cube)
            item.nan_to_zero = bool(i % 2)
            item.knobs = random_knobs(self.rng)
            if i % 5 == 4:
                item.fp16 = False  # same data, FP16 clear: counters stay 0, NaN passes
            await self.send(item)


def _mutations(
    d: BlockedCubeDescriptor, rng: np.random.Generator, addr_bits: int
) -> list[tuple[str, BlockedCubeDescriptor]]:
    """One or more illegal variants of a legal descriptor per validator rule (register values < 2**32)."""
    a = d.alignment
    out: list[tuple[str, BlockedCubeDescriptor]] = []
    out.append(("layout", d.with_(layout=int(rng.integers(5, 16)))))
    wrong_atoms = [0, 4, 24, 48, 256, 0x120, 0x140]  # 0x120/0x140: low byte is a legal size
    wrong_atoms += {
        Layout.NVDLA_FEATURE: [64, 16],
        Layout.NVDLA_OPERAND: [16, 8],
        Layout.MACE: [32, 4 * d.elem_bytes * 2],
        Layout.ONEDNN: [],
        Layout.GENERIC: [],
    }[Layout(d.layout)]
    out.append(("atom_size", d.with_(atom_bytes=int(rng.choice(wrong_atoms)))))
    wrong_elems = [0, 3, 8, 0x101] + {Layout.NVDLA_FEATURE: [4], Layout.NVDLA_OPERAND: [4], Layout.MACE: [1]}.get(
        Layout(d.layout), []
    )
    out.append(("elem_size", d.with_(elem_bytes=int(rng.choice(wrong_elems)))))
    out.append(
        ("fp16_elem", d.with_(fp16=True, elem_bytes=int(rng.choice([e for e in (1, 4) if e <= d.atom_bytes] or [1]))))
    )
    dim = str(rng.choice(["count_w", "count_h", "count_c", "count_n"]))
    out.append(("count0", d.with_(**{dim: 0})))
    dim = str(rng.choice(["count_w", "count_h", "count_c", "count_n"]))
    out.append(("count_big", d.with_(**{dim: int(rng.choice([MAX_COUNT + 1, 0x10001, 0xFFFFFFFF]))})))
    if a > 1:
        out.append(("align_base", d.with_(base=d.base + int(rng.integers(1, a)))))
        for s in ("stride_h", "stride_c", "stride_n"):
            out.append((f"align_{s}", d.with_(**{s: getattr(d, s) + int(rng.integers(1, a))})))
    # overlap: a repeated dimension with stride 0, or a line longer than its stride
    big = d.with_(count_h=max(2, d.count_h), count_w=max(2, d.count_w))
    out.append(("overlap_line", big.with_(stride_h=(big.count_w - 1) * big.atom_bytes // a * a)))
    out.append(("overlap_zero", d.with_(count_c=max(2, d.count_c), stride_c=0)))
    out.append(("overlap_n", d.with_(count_n=2, stride_n=d.stride_c if d.count_c > 1 else 0)))
    # address overflow at the top of the AXI address space, and a base beyond it
    top = (1 << addr_bits) - d.extent + a * int(rng.integers(1, 4))
    base = top // a * a + a
    if base >= 1 << 64:  # 64 address bits and a cube of about one atom: the highest base BASE_HI:BASE_LO hold
        base = ((1 << 64) - 1) // a * a
    if base + max(d.extent, 1) > 1 << addr_bits:  # (a one-atom cube there ends on the last byte: no overflow)
        out.append(("addr_overflow", d.with_(base=base)))
    beyond = ((1 << addr_bits) + a * int(rng.integers(0, 1 << 20))) // a * a
    if beyond < 1 << 64:  # at 64 address bits no base lies beyond the space: BASE_HI:BASE_LO hold 64 bits
        out.append(("addr_beyond", d.with_(base=beyond)))
    out.append(("addr_base_hi", d.with_(base=(0xFFFFFFFF << 32) // a * a)))
    if Layout(d.layout) in (Layout.NVDLA_FEATURE, Layout.NVDLA_OPERAND):
        # Table 35's 32-byte rule must hold even for an atom smaller than 32 bytes (atom_size + align_base)
        out.append(("nvdla_align32", d.with_(atom_bytes=16, base=d.base // 32 * 32 + 16)))
    out.append(("stride_wrap", d.with_(count_n=2, stride_n=0xFFFFFFFF // a * a)))
    # a few random combinations
    for _ in range(3):
        picks = rng.choice(len(out), size=2, replace=False)
        fields = {}
        for p in picks:
            name, m = out[int(p)]
            fields.update({k: v for k, v in m.__dict__.items() if getattr(d, k) != v})
        out.append(("combo", d.with_(**fields)))
    return out


class IllegalSeq(CubeSeqBase):
    """Illegal descriptors for every validator rule (and combinations), each expecting exactly
    ``desc.error_bits(AXI_ADDR_W)``; a legal cube after every few proves the reader recovers."""

    async def body(self) -> None:
        fams = self.families
        for r in range(max(1, self.count // 4)):
            fam = fams[r % len(fams)]
            legal = self.draw(fam)
            muts = _mutations(legal.desc, self.rng, self.addr_bits)
            for i, (name, bad) in enumerate(muts):
                if not bad.errors(self.addr_bits):
                    continue
                if any(
                    not 0 <= v < 1 << 32
                    for v in (
                        bad.atom_bytes,
                        bad.elem_bytes,
                        bad.count_w,
                        bad.count_h,
                        bad.count_c,
                        bad.count_n,
                        bad.stride_h,
                        bad.stride_c,
                        bad.stride_n,
                    )
                ):
                    continue
                item = self.new_item(Kind.ILLEGAL, legal)
                item.desc = bad
                item.mutation = name
                item.knobs = random_knobs(self.rng)
                await self.send(item)
                if i % 4 == 3:
                    await self.send_cube(fam)
            await self.send_cube(fam)
        # the legal edge of the addr_overflow rule: a cube ending exactly at 2**AXI_ADDR_W - 1, every family
        for fam in fams:
            await self.send_cube(fam, where="top_exact")


class BusErrorSeq(CubeSeqBase):
    """SLVERR and DECERR on the first, a middle and the last atom of random cubes; a clean job follows each."""

    async def body(self) -> None:
        fams = self.families
        i = 0
        for resp in ("SLVERR", "DECERR"):
            for where in ("first", "middle", "last"):
                for _ in range(max(1, self.count // 8)):
                    fam = fams[i % len(fams)]
                    i += 1
                    cube = self.draw(fam, size="medium")
                    for _ in range(8):  # a cube with a real middle
                        if cube.desc.num_atoms >= 4:
                            break
                        cube = self.draw(fam, size="medium")
                    item = self.new_item(Kind.BUS_ERROR, cube)
                    d = item.desc  # as programmed: in the build's atoms
                    assert d is not None, "a bus-error job programs its cube's descriptor"
                    n = d.num_atoms
                    k = {"first": 0, "last": n - 1, "middle": int(self.rng.integers(1, n - 1)) if n > 2 else n // 2}[
                        where
                    ]
                    item.faults = [(*atom_fault_range(d, k, self.bus_bytes, self.rng), resp)]
                    item.fault_atom = first_fault_atom(d, item.faults)
                    item.fault_where = where
                    item.knobs = random_knobs(self.rng)
                    item.nan_to_zero = bool(self.rng.random() < 0.3)
                    await self.send(item)
                    await self.send_cube(fam)


class ResetSeq(CubeSeqBase):
    """Reset asserted at a random cycle of a running job (before the first atom, mid stream); the next job must
    work from a freshly programmed register file."""

    async def body(self) -> None:
        fams = self.families
        for i in range(max(3, self.count // 2)):
            fam = fams[i % len(fams)]
            cube = self.draw(fam, size="medium")
            item = self.new_item(Kind.RESET, cube)
            item.knobs = random_knobs(self.rng)
            est = 30 + cube.desc.num_atoms * max(1, cube.desc.atom_bytes // self.bus_bytes)
            item.reset_after = int(self.rng.integers(1, 8)) if i % 3 == 0 else int(self.rng.integers(8, max(9, est)))
            await self.send(item)
            await self.send_cube(fam)


class StallSeq(CubeSeqBase):
    """Heavy stalls everywhere: long latency, ARREADY/RVALID/TREADY withheld in every pattern."""

    async def body(self) -> None:
        for i in range(max(1, self.count)):
            fam = self.families[i % len(self.families)]
            await self.send_cube(fam, random_knobs(self.rng, heavy=True))


class LargeSeq(CubeSeqBase):
    """Large cubes of every family (many 4 KB pages, long bursts), and for each of n, c, h, w long counts with the
    other counts at 1..3 (many short runs). With ``full``: one cube per dimension at the 65535 maximum."""

    def __init__(self, name: str = "large", full: bool = False, **kw) -> None:
        super().__init__(name, **kw)
        self.full = full

    async def body(self) -> None:
        for fam in self.families:
            await self.send_cube(fam, Knobs(), size="large")
        gen = next(f for f in self.families if f.name == "synthetic.generic")
        for dim in range(4):  # n, c, h, w: one long dimension (count bins 8-63, 64-1023, 1024+), others short
            for lo, hi in ((8, 64), (64, 1024), (1024, 2048)):
                counts = [1, 1, 1, int(self.rng.integers(1, 4))]
                counts[dim] = int(self.rng.integers(lo, hi))
                await self._send_counts(gen, tuple(counts), gapped=bool(self.rng.random() < 0.5))
        for _ in range(2):  # batch strides of 2..4 GB (stride register MSB set), loaded per batch
            cube = gen.draw(self.rng, None, addr_bits=self.addr_bits, huge=True)
            item = self.new_item(Kind.CUBE, cube)
            item.knobs = random_knobs(self.rng)
            await self.send(item)
        if self.full:
            for dim in range(4):
                counts = [1, 1, 1, 1]
                counts[dim] = MAX_COUNT
                await self._send_counts(gen, tuple(counts), gapped=False)

    async def _send_counts(self, fam: Family, counts: tuple, gapped: bool) -> None:
        cube = fam.draw(
            self.rng,
            None,
            addr_bits=self.addr_bits,
            atom=8,
            elem=int(self.rng.choice([1, 2])),
            counts=counts,
            gapped=gapped,
        )
        item = self.new_item(Kind.CUBE, cube)
        item.knobs = random_knobs(self.rng)
        await self.send(item)
