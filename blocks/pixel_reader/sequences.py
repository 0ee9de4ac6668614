"""Pixel-reader sequences: every one of the 36 formats by name, random pictures, the converter cross (format x
precision x x-offset edge x saturation), rounding ties, fp16 specials, illegal descriptors (every validator rule
alone, then combinations), bus errors, stalls. Every sequence draws from the test's numpy Generator (ConfigDB
"RNG", seeded from ``cocotb.RANDOM_SEED``), so a run is reproduced by its seed.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

import numpy as np

from dlaverif.flow import contracts
from dlaverif.models.nvdla.pixel import PIXEL_FORMATS
from dlaverif.models.pixel_desc import MAX_DIM, PixelDescriptor
from dlaverif.platform import Knobs, ReaderSeqBase, random_knobs

from . import pictures
from .footprint import pixel_addresses
from .items import Kind, PixelItem
from .pictures import FORMATS, Picture, legal_precisions


class PixelSeqBase(ReaderSeqBase):
    """Helpers shared by the pixel-reader sequences."""

    item_cls = PixelItem
    data_attr = "picture"

    def draw(self, name: str, **kw) -> Picture:
        return pictures.draw(self.rng, name, addr_bits=self.addr_bits, **kw)

    async def send_picture(
        self, name: str, knobs: Optional[Knobs] = None, midjob: Optional[int] = None, **kw
    ) -> PixelItem:
        """A picture of format ``name`` (``kw``: :meth:`draw`'s), random knobs unless given, the mid-job START and
        garbage ``midjob`` cycles in (None: none)."""
        item = self.new_item(Kind.PICTURE, self.draw(name, **kw))
        item.knobs = knobs if knobs is not None else random_knobs(self.rng)
        item.midjob = midjob
        await self.send(item)
        return item


class EveryFormatSeq(PixelSeqBase):
    """Every format by name: a one-pixel picture at x offset 0 and a picture at the largest x offset whose line
    ends inside a 32-byte chunk, precisions rotating over the legal ones, no stalls."""

    async def body(self) -> None:
        for i, name in enumerate(FORMATS):
            precs = legal_precisions(PIXEL_FORMATS[name])
            await self.send_picture(name, Knobs(), h=1, w=1, x_offset="min", precision=precs[i % len(precs)])
            await self.send_picture(
                name,
                Knobs(),
                h=2,
                x_offset="max",
                precision=precs[(i + 1) % len(precs)],
                gap0=1,
                gap1=2,
                converter="saturate",
                style="specials",
            )


FILL_LATENCY = 300  # cycles: above 255 bursts issued one a cycle


class RandomPictureSeq(PixelSeqBase):
    """``count`` random pictures of every format (random geometry, converter and timing knobs); in about one job
    of seven a second START and garbage descriptor writes arrive while the job runs. Then the address-space tail:
    every format once in the upper half of the build's address space (highest address bit set: at or above 2**63
    at 64 bits) and once ending on its last page, then a picture of one-pixel lines that fills every read slot
    (MAX_OUTSTANDING) and one line of the most pixels over 16 pages; last, so that the pictures before it are the
    ones the same seed drew before it existed."""

    async def body(self) -> None:
        for _ in range(self.count):
            for name in FORMATS:
                item = self.new_item(
                    Kind.PICTURE, self.draw(name, style="specials" if self.rng.random() < 0.2 else "random")
                )
                item.knobs = random_knobs(self.rng)
                if self.rng.random() < 0.15:
                    d = item.desc
                    assert d is not None, "a PICTURE item programs its picture's descriptor"
                    item.midjob = int(self.rng.integers(0, 2 + d.width * d.height))
                await self.send(item)
        for where in pictures.PLACES[1:]:
            for name in FORMATS:
                item = self.new_item(Kind.PICTURE, self.draw(name, where=where))
                item.knobs = random_knobs(self.rng)
                await self.send(item)
        # every read slot: one-pixel lines (one one-beat burst each) behind a latency longer than the most reads
        # in flight the contract allows (255), so the engine issues until MAX_OUTSTANDING are out
        slots = contracts.build_value("pixel_reader", "MAX_OUTSTANDING")
        lines = min(2 * slots + 2, (1 << self.addr_bits) // 64)  # 32-byte lines, half the space at most
        await self.send_picture("T_R8", Knobs(latency=FILL_LATENCY), h=lines, w=1, gap0=0)
        # and the longest line (8192 pixels of 8 bytes: 64 KB, 16 pages in one command) in the upper half
        widest = min(MAX_DIM, (1 << self.addr_bits) // 32)  # 8-byte pixels in a quarter of the space at most
        await self.send_picture("T_A16B16G16R16", Knobs(), h=1, w=widest, x_offset=0, where="high")


class CrossSeq(PixelSeqBase):
    """The coverage cross: every format x legal precision x both x-offset ends, with offsets and scales that
    clamp in both directions (fp16 formats: pass-through)."""

    async def body(self) -> None:
        for name in FORMATS:
            for prec in legal_precisions(PIXEL_FORMATS[name]):
                for edge in ("min", "max"):
                    await self.send_picture(
                        name,
                        Knobs(),
                        h=2,
                        w=int(self.rng.integers(6, 17)),
                        x_offset=edge,
                        precision=prec,
                        converter="saturate",
                        style="specials",
                    )


class ConverterSeq(PixelSeqBase):
    """Converter corners on random formats: rounding ties, sign override, per-channel means, CVT_EN = 0, large
    shifts."""

    async def body(self) -> None:
        ints = [n for n in FORMATS if not PIXEL_FORMATS[n].fp16]
        for i in range(max(8, self.count)):
            name = ints[int(self.rng.integers(0, len(ints)))]
            mode = ("ties", "off", "random", "saturate")[i % 4]
            await self.send_picture(name, converter=mode, style="specials" if i % 3 else "random")


class Fp16Seq(PixelSeqBase):
    """fp16 formats with NaN payloads, infinities, denormals, -0.0 and the largest finite values."""

    async def body(self) -> None:
        f16 = [n for n in FORMATS if PIXEL_FORMATS[n].fp16]
        for i in range(max(len(f16), self.count // 2)):
            await self.send_picture(f16[i % len(f16)], style="specials")


def _mutations(d: PixelDescriptor, rng: np.random.Generator, addr_bits: int) -> list[tuple[str, PixelDescriptor]]:
    """Illegal variants of a legal descriptor: each aims at one rule (register values < 2**32)."""
    fmt = d.format
    assert fmt is not None, "mutations start from a legal descriptor (a known format)"
    two = fmt.semi_planar
    rep = dataclasses.replace
    out = [
        ("format", rep(d, format_code=int(rng.integers(36, 64)))),
        ("size", rep(d, width=int(rng.choice([0, MAX_DIM + 1, 0xFFFFFFFF])))),
        ("size", rep(d, height=int(rng.choice([0, MAX_DIM + 1, 0x10000])))),
        ("align_base0", rep(d, base0=d.base0 + int(rng.integers(1, 32)))),
        ("align_stride0", rep(d, line_stride0=d.line_stride0 + int(rng.integers(1, 32)))),
        ("precision", rep(d, out_precision=3)),
    ]
    if fmt.x_offset_max < 31:
        out.append(("x_offset", rep(d, x_offset=int(rng.integers(fmt.x_offset_max + 1, 32)))))
    out.append(("x_offset", rep(d, x_offset=int(rng.choice([32, 0xFFFFFFFF])))))
    if fmt.fp16:
        out.append(("precision/fp16_to_int", rep(d, out_precision=int(rng.integers(0, 2)))))
    else:
        out.append(("precision/cvt_off_width", rep(d, cvt_en=False, out_precision=1 if fmt.component_bits == 8 else 0)))
    need0 = (d.x_offset + d.width) * fmt.planes[0].bpp
    if need0 > 32:
        out.append(("stride_min0", rep(d, line_stride0=(need0 - 1) // 32 * 32)))
    top = (1 << addr_bits) - d.height * d.line_stride0 + 32
    out.append(("addr_overflow", rep(d, base0=top // 32 * 32)))
    out.append(("addr_overflow", rep(d, base0=(0xFFFF0000 << 32))))
    if two:
        out.append(("align_base1", rep(d, base1=d.base1 + int(rng.integers(1, 32)))))
        out.append(("align_stride1", rep(d, line_stride1=d.line_stride1 + int(rng.integers(1, 32)))))
        bpp1 = fmt.planes[1].bpp
        need1 = (d.x_offset * bpp1) % 32 + d.width * bpp1
        if need1 > 32:
            out.append(("stride_min1", rep(d, line_stride1=(need1 - 1) // 32 * 32)))
        out.append(("addr_overflow", rep(d, base1=((1 << addr_bits) - d.height * d.line_stride1 + 64) // 32 * 32)))
    # combinations: two mutations merged
    singles = list(out)
    for _ in range(3):
        a, b = rng.choice(len(singles), size=2, replace=False)
        fields = {k: v for k, v in dataclasses.asdict(singles[int(b)][1]).items() if getattr(d, k) != v}
        fields.update({k: v for k, v in dataclasses.asdict(singles[int(a)][1]).items() if getattr(d, k) != v})
        fields["mean"] = tuple(fields.get("mean", d.mean))
        out.append(("combo", rep(d, **fields)))
    return out


def random_descriptor(rng: np.random.Generator, addr_bits: int) -> PixelDescriptor:
    """A descriptor with every field drawn near its edges (register values < 2**32, bases < 2**64)."""
    code = int(rng.choice([int(rng.integers(0, 36)), int(rng.integers(0, 64))]))
    fmt = PIXEL_FORMATS[FORMATS[code]] if code < 36 else None
    xmax = fmt.x_offset_max if fmt is not None else 31

    def edge(*v: int) -> int:
        return int(rng.choice(v))

    w, h = edge(0, 1, 2, 37, MAX_DIM, MAX_DIM + 1, 0xFFFFFFFF), edge(0, 1, 3, MAX_DIM, MAX_DIM + 1)
    bpp = fmt.planes[0].bpp if fmt is not None else 4
    need = (xmax + max(w, 1)) * bpp

    def stride() -> int:
        return edge(0, 32, need // 32 * 32, -(-need // 32) * 32, need + 1, 0xFFFFFFE0) & 0xFFFFFFFF

    top = 1 << addr_bits

    def base() -> int:
        return edge(0x1000, 0x1010, top - 4096, top - 32, top, 0xFFFFFFFFFFFFFFE0) & ((1 << 64) - 1)

    return PixelDescriptor(
        format_code=code,
        width=w,
        height=h,
        x_offset=edge(0, xmax, xmax + 1, 31, 32),
        base0=base(),
        line_stride0=stride(),
        out_precision=int(rng.integers(0, 4)),
        base1=base(),
        line_stride1=stride(),
        cvt_en=bool(rng.random() < 0.8),
        cvt_truncate=int(rng.integers(0, 64)),
    )


class IllegalSeq(PixelSeqBase):
    """Every validator rule alone (the mutation must break exactly its rule per the model; the precision rule both
    as an fp16 format to an integer output and as CVT_EN = 0 with another output width), then combinations, then
    ``4*count`` random edge-biased descriptors;
    each expects exactly ``desc.errors(AXI_ADDR_W)`` and no bus traffic; a legal picture follows every few."""

    async def body(self) -> None:
        names = list(FORMATS)
        groups = (
            [n for n in names if PIXEL_FORMATS[n].semi_planar],
            [n for n in names if PIXEL_FORMATS[n].fp16],
            names,
        )
        alone: set[str] = set()
        for r in range(max(3, self.count // 2)):
            # rounds rotate over N444 formats (plane-1 rules), fp16 formats (their precision rule) and any format;
            # pictures wide enough that the stride bounds can be broken
            group = groups[r % 3]
            name = group[(r // 3 * 5) % len(group)] if r % 3 < 2 else group[int(self.rng.integers(0, len(group)))]
            legal = self.draw(name, w=int(self.rng.integers(20, 60)), h=int(self.rng.integers(1, 4)))
            for i, (label, bad) in enumerate(_mutations(legal.desc, self.rng, self.addr_bits)):
                rule = label.split("/")[0]
                errs = bad.errors(self.addr_bits)
                if not errs or (rule != "combo" and errs != [rule]):
                    continue
                if rule != "combo":
                    alone.add(label)
                item = self.new_item(Kind.ILLEGAL, legal)
                item.desc = bad
                item.mutation = label if rule != "combo" else "+".join(errs)
                item.knobs = random_knobs(self.rng)
                await self.send(item)
                if i % 5 == 4:
                    await self.send_picture(name)
        missing = (
            set(PixelDescriptor.ERROR_RULES) - {"precision"} | {"precision/fp16_to_int", "precision/cvt_off_width"}
        ) - alone
        assert not missing, f"validator rules never exercised alone: {sorted(missing)}"
        for _ in range(4 * self.count):
            bad = random_descriptor(self.rng, self.addr_bits)
            if not bad.errors(self.addr_bits):
                continue
            item = self.new_item(Kind.ILLEGAL, None)
            item.desc = bad
            item.mutation = "random:" + "+".join(bad.errors(self.addr_bits))
            await self.send(item)
        await self.send_picture(names[int(self.rng.integers(0, len(names)))])


class BusErrorSeq(PixelSeqBase):
    """SLVERR and DECERR on a bus word of plane 0 and (N444) plane 1: the job stops before the first pixel that
    needs it; a clean picture follows each."""

    async def body(self) -> None:
        names = list(FORMATS)
        n444 = [n for n in names if PIXEL_FORMATS[n].semi_planar]
        for i in range(max(4, self.count // 2)):
            for resp in ("SLVERR", "DECERR"):
                for plane in (0, 1):
                    name = n444[i % len(n444)] if plane else names[int(self.rng.integers(0, len(names)))]
                    pic = self.draw(name, h=int(self.rng.integers(1, 5)), w=int(self.rng.integers(8, 70)))
                    item = self.new_item(Kind.BUS_ERROR, pic)
                    addr = pixel_addresses(pic.desc, pic.fmt)[plane].reshape(-1)
                    where = str(self.rng.choice(["first", "middle", "last"]))
                    a = int(addr[{"first": 0, "middle": addr.size // 2, "last": addr.size - 1}[where]])
                    word = a - a % self.bus_bytes
                    item.faults = [(word, word + self.bus_bytes, resp)]
                    item.fault_where = f"plane{plane} {where}"
                    item.knobs = random_knobs(self.rng)
                    await self.send(item)
                    await self.send_picture(name)


class StallSeq(PixelSeqBase):
    """Heavy ARREADY/RVALID/TREADY stalls and long latency on random formats."""

    async def body(self) -> None:
        for _ in range(max(6, self.count)):
            name = FORMATS[int(self.rng.integers(0, len(FORMATS)))]
            await self.send_picture(name, random_knobs(self.rng, heavy=True), h=int(self.rng.integers(1, 5)))


class LargeSeq(PixelSeqBase):
    """The dimension limits: 8192-pixel lines (a whole N444 line buffer of 16-bit Y, 64 KB plane-0 lines split
    at 4 KB), 8192 one-pixel lines."""

    async def body(self) -> None:
        await self.send_picture("T_Y16___V16U16_N444", h=2, w=8192, x_offset="max", gap0=1, gap1=2)
        await self.send_picture("T_Y8___U8V8_N444", h=2, w=8192, x_offset="max")
        await self.send_picture("T_A16B16G16R16", h=1, w=8192, x_offset="max")
        await self.send_picture("T_R8", h=8192, w=1, x_offset="max")


class ResetSeq(PixelSeqBase):
    """Reset at a random cycle of a running picture (validating, reading, streaming); a clean picture follows.
    Last, a reset job whose mid-job writes (a second START, garbage descriptor writes) come after the reset: the
    job protocol finishes them before the job's status is read, so they cannot leak into the next job's
    programming (they did when the pixel reader's driver returned from a reset without waiting for them)."""

    async def body(self) -> None:
        for _ in range(max(4, self.count)):
            name = FORMATS[int(self.rng.integers(0, len(FORMATS)))]
            pic = self.draw(name, h=int(self.rng.integers(1, 6)), w=int(self.rng.integers(8, 80)))
            item = self.new_item(Kind.RESET, pic)
            item.reset_after = int(self.rng.integers(1, pic.desc.width * pic.desc.height + 40))
            item.knobs = random_knobs(self.rng)
            await self.send(item)
            await self.send_picture(name)
        for late in (50, 70, 90):
            item = self.new_item(Kind.RESET, self.draw(FORMATS[0], h=4, w=64))
            item.reset_after, item.midjob, item.knobs = 20, late, Knobs()
            await self.send(item)
            await self.send_picture(FORMATS[0], Knobs(), h=4, w=64)
