"""Weight-reader sequences: random weight sets of every format, precision and sparsity pattern, illegal
descriptors, run-time corruptions, bus errors and resets in the middle of a job. Every sequence draws from the
test's numpy Generator (ConfigDB "RNG", seeded from ``cocotb.RANDOM_SEED``), so a run is reproduced by its seed.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial
from typing import Callable, Optional

import numpy as np

from dlaverif import placement
from dlaverif.flow import contracts
from dlaverif.models.weight_desc import MAX_GROUPS, WeightSurfaceDescriptor
from dlaverif.platform import Knobs, ReaderSeqBase, random_knobs

from .footprint import needed_bytes, word_in
from .items import CORRUPTIONS, Kind, WeightItem, truncated
from .weights import FAMILIES, MASKS, PRECISIONS, WeightSet, draw, draw_at, draw_synthetic

LOG = logging.getLogger("cocotb.regression.weight_reader")

#: draws of a smaller weight set before a job that does not fit the build's address space gives up
FIT_ATTEMPTS = 64


class WeightSeqBase(ReaderSeqBase):
    """Helpers shared by the weight-reader sequences."""

    item_cls = WeightItem
    data_attr = "ws"

    def new_item(self, kind: Kind, ws: Optional[WeightSet], knobs: Optional[Knobs] = None) -> WeightItem:
        """A weight job (``ws``: None for a descriptor without weights) with ``knobs``, random ones unless given."""
        item = super().new_item(kind, ws)
        item.knobs = knobs if knobs is not None else random_knobs(self.rng)
        return item

    def draw(
        self, family: Optional[str] = None, dtype: Optional[str] = None, mask: Optional[str] = None, **kw
    ) -> WeightSet:
        family = family or str(self.rng.choice(list(FAMILIES)))
        dtype = dtype or str(self.rng.choice(PRECISIONS))
        mask = mask or str(self.rng.choice(MASKS))
        shape = {k: v for k, v in kw.items() if k not in ("kernels", "channels", "small")}
        return self.fitting(
            lambda: draw(self.rng, family, dtype, mask, self.addr_bits, **kw),
            lambda: draw(self.rng, family, dtype, mask, self.addr_bits, small=True, **shape),
        )

    def fitting(self, make: Callable[[], WeightSet], smaller: Callable[[], WeightSet]) -> WeightSet:
        """``make()``; where its weight set is larger than the build's address space (``placement.DoesNotFit``:
        4 KB at ``AXI_ADDR_W`` 12), ``smaller()`` drawn until one fits (the same family, precision and pattern
        with a small random shape; logged, so a test at a narrow configuration says what it ran instead)."""
        try:
            return make()
        except placement.DoesNotFit as exc:
            for _ in range(FIT_ATTEMPTS):
                try:
                    ws = smaller()
                except placement.DoesNotFit:
                    continue
                LOG.info("%s: a smaller set instead (shape %s, %d groups)", exc, ws.shape, len(ws.group_elems))
                return ws
            raise

    async def send_weights(self, knobs: Optional[Knobs] = None, midjob: Optional[int] = None, **kw) -> WeightItem:
        """A weight set (``kw``: :meth:`draw`'s), with the mid-job START and garbage ``midjob`` cycles in (None:
        none)."""
        item = self.new_item(Kind.WEIGHTS, self.draw(**kw), knobs)
        item.midjob = midjob
        await self.send(item)
        return item


class WeightSeq(WeightSeqBase):
    """Per weight format family and precision: ``count`` random weight sets (random sparsity pattern, kernel and
    channel counts around the group and block edges, random timing knobs); the first ones of each pair sweep the
    sparsity patterns in order, with small shapes and no stalls."""

    async def body(self) -> None:
        for family in FAMILIES:
            for dtype in PRECISIONS:
                for i in range(self.count):
                    if i < len(MASKS) and self.count > 1:
                        await self.send_weights(Knobs(), family=family, dtype=dtype, mask=MASKS[i], small=True)
                    else:
                        await self.send_weights(family=family, dtype=dtype)
        await self.fill_data_queue()

    async def fill_data_queue(self) -> None:
        """Last (the sets before it are what the same seed drew before it existed): a dense weight set of more
        beats than the build's DATA_DEPTH (``contracts.build_value``) behind a latency longer than DATA_DEPTH
        cycles, so that the reader reserves its weight-data queue to the last entry (beats in flight = DATA_DEPTH)
        or reaches MAX_OUTSTANDING bursts first; where the space is too small for such a set, the largest drawn."""
        depth = contracts.build_value("weight_reader", "DATA_DEPTH")
        need = (depth + 64) * self.bus_bytes
        for kernels in (8, 16, 32, 64, 128, 128, 128):  # the smallest set that is large enough
            ws = self.draw(family="dc", dtype="int8", mask="dense", kernels=kernels, channels=128)
            if ws.desc.dense_bytes >= need:
                break
        await self.send(self.new_item(Kind.WEIGHTS, ws, Knobs(latency=depth + 76)))


class EdgeSeq(WeightSeqBase):
    """Kernel counts 1, 15, 16, 17, 31, 32, 33 and many groups, channels around 64, every pattern once; raw streams
    whose groups start inside a WMB byte and inside a transfer (every precision and pattern); raw streams of one
    non-zero element per group and more groups than one WGS beat holds, whose first weight-data read stops inside a
    bus word (coverage ``data_read_start``)."""

    async def body(self) -> None:
        for dtype in PRECISIONS:
            for mask in MASKS:
                synthetic = partial(draw_synthetic, self.rng, dtype, mask, self.addr_bits)
                ws = self.fitting(synthetic, synthetic)  # its sizes are random: a redraw is the smaller set
                item = self.new_item(Kind.WEIGHTS, ws, Knobs())
                await self.send(item)
        for k in (1, 15, 16, 17, 31, 32, 33, 97):
            for dtype in PRECISIONS:
                await self.send_weights(
                    Knobs(),
                    family="dc",
                    dtype=dtype,
                    kernels=k,
                    channels=int(self.rng.choice([63, 64, 65])),
                    small=True,
                )
        for mask in MASKS:
            await self.send_weights(family=str(self.rng.choice(list(FAMILIES))), mask=mask, small=True)
        # The weight-data read limit is the WGS sum received so far: at a latency longer than the issue of every
        # WGS and WMB read, the first weight-data read goes when the first WGS beat (bus bytes / 4 entries) is in,
        # and one non-zero element per group makes its sum a quarter or half of a bus word: the next piece starts
        # inside a word (wr_fetch.sv)
        for dtype in PRECISIONS:
            ws = self.fitting(partial(self._one_per_group, dtype, 300), partial(self._one_per_group, dtype, 32))
            await self.send(self.new_item(Kind.WEIGHTS, ws, Knobs(latency=64)))

    def _one_per_group(self, dtype: str, most: int) -> WeightSet:
        """A raw stream of bus bytes + 1 groups of 8..most-1 elements with one non-zero element each."""
        g_elems = int(self.rng.integers(8, most))
        return draw_synthetic(
            self.rng, dtype, "one_per_group", self.addr_bits, g_elems=g_elems, groups=self.bus_bytes + 1
        )


#: mutations of a legal descriptor that break one validator rule each (``rule/128``: the 128-byte size multiple)
def _mutations(d: WeightSurfaceDescriptor, addr_bits: int, rng: np.random.Generator) -> dict[str, dict]:
    e = d.elem_bytes
    top = 1 << addr_bits
    m = {
        "elem_size": dict(elem_bytes=int(rng.choice([0, 3, 4, 0xFFFFFFFF]))),
        "groups": dict(groups=0),
        "group_size": dict(last_group_bytes=d.group_bytes + e) if rng.random() < 0.5 else dict(group_bytes=0),
        "total_overflow": dict(groups=3, group_bytes=0xFFFFFFFE, last_group_bytes=2),
        "align_weight": dict(weight_base=d.weight_base ^ 128),
        "size_weight/128": dict(weight_bytes=d.weight_bytes + 64),
        "addr_overflow": dict(weight_base=top - 256, weight_bytes=max(d.weight_bytes, 512)),
    }
    if not d.compressed:
        m["size_weight"] = dict(weight_bytes=d.weight_bytes - 128) if d.weight_bytes >= 128 else {}
    if d.compressed:
        m.update(
            {
                "align_wmb": dict(wmb_base=d.wmb_base ^ 64),
                "align_wgs": dict(wgs_base=d.wgs_base ^ 32),
                "size_wmb": dict(wmb_bytes=0),
                "size_wmb/128": dict(wmb_bytes=d.wmb_bytes + 32),
                "size_wgs": dict(wgs_bytes=0),
                "size_wgs/128": dict(wgs_bytes=d.wgs_bytes + 4),
            }
        )
    return m


class IllegalSeq(WeightSeqBase):
    """Each validator rule broken alone (dense and compressed), then random combinations; a legal job after each
    rule."""

    async def body(self) -> None:
        for comp in (False, True):
            ws = self.draw(mask="dense" if not comp else "uniform_0.5", small=True)
            for rule, fields in _mutations(ws.desc, self.addr_bits, self.rng).items():
                item = self.new_item(Kind.ILLEGAL, None, Knobs())
                item.desc = replace(ws.desc, **fields)
                item.mutation = rule
                await self.send(item)
            await self.send_weights(Knobs(), small=True)
        for _ in range(max(4, self.count)):
            ws = self.draw(small=True)
            muts = _mutations(ws.desc, self.addr_bits, self.rng)
            pick = self.rng.choice(list(muts), size=int(self.rng.integers(2, 4)), replace=False)
            fields = {}
            for r in pick:
                fields.update(muts[str(r)])
            item = self.new_item(Kind.ILLEGAL, None, Knobs())
            item.desc = replace(ws.desc, **fields)
            item.mutation = "+".join(str(r) for r in pick)
            await self.send(item)


class CorruptSeq(WeightSeqBase):
    """Each run-time corruption (a flipped WMB bit, a WGS entry off by one element either way, a weight surface
    one 128-byte unit too short) on compressed weights with data in them; a clean job after each."""

    async def body(self) -> None:
        for i in range(max(2, self.count)):
            for what in CORRUPTIONS:
                ws = self.draw(
                    mask=str(self.rng.choice(["uniform_0.5", "uniform_0.95", "all_ones", "natural"])), small=i == 0
                )
                item = self.new_item(Kind.CORRUPT, ws, Knobs() if i == 0 else None)
                item.mutation = what
                d = ws.desc
                n = int(sum(ws.group_elems))
                if what == "wmb_bit_flip":
                    p = int(self.rng.integers(0, n))
                    wmb = ws.image["wmb"].data.copy()
                    wmb[p // 8] ^= np.uint8(1 << (p % 8))
                    item.surface_override["wmb"] = wmb
                    item.corrupt_group = int(np.searchsorted(np.cumsum(ws.group_elems), p, side="right"))
                elif what.startswith("wgs_"):
                    wgs = ws.image["wgs"].data.copy()
                    vals = wgs[: 4 * d.groups].view("<u4")
                    g = int(self.rng.integers(0, d.groups))
                    down = what == "wgs_minus_one" and vals[g] >= d.elem_bytes
                    vals[g] = vals[g] - d.elem_bytes if down else vals[g] + d.elem_bytes
                    item.mutation = "wgs_minus_one" if down else "wgs_plus_one"
                    item.surface_override["wgs"] = wgs
                    item.corrupt_group = g
                else:
                    need = int(ws.wgs_values().sum())
                    if need == 0:
                        continue
                    item.desc = truncated(d, need)
                await self.send(item)
                await self.send_weights(Knobs(), small=True)


class BusErrorSeq(WeightSeqBase):
    """SLVERR and DECERR on a bus word each surface must be read from; a clean job after each."""

    async def body(self) -> None:
        for i in range(max(1, self.count // 2)):
            for surface in ("weight", "wmb", "wgs"):
                for resp in ("SLVERR", "DECERR"):
                    ws = self.draw(
                        mask="dense"
                        if surface == "weight" and self.rng.random() < 0.3
                        else str(self.rng.choice(["uniform_0.5", "all_ones", "natural"])),
                        small=True,
                    )
                    item = self.new_item(Kind.BUS_ERROR, ws, Knobs() if i == 0 else None)
                    if surface not in ws.desc.ranges() or needed_bytes(ws, ws.desc)[surface] == 0:
                        continue
                    base = ws.desc.ranges()[surface][0]
                    lo, hi = word_in(base, needed_bytes(ws, ws.desc)[surface], self.bus_bytes, self.rng)
                    item.faults = [(lo, hi, resp)]
                    item.fault_surface = surface
                    await self.send(item)
                    await self.send_weights(Knobs(), small=True)


class ResetSeq(WeightSeqBase):
    """Reset at a random cycle of a running job (validation, first reads, streaming); a clean job after each."""

    async def body(self) -> None:
        for _ in range(max(3, self.count)):
            ws = self.draw(small=True)
            item = self.new_item(Kind.RESET, ws)
            item.reset_after = int(self.rng.integers(1, 40 + ws.desc.dense_bytes // self.bus_bytes))
            await self.send(item)
            await self.send_weights(Knobs(), small=True)


class StallSeq(WeightSeqBase):
    """Heavy ARREADY/RVALID/TREADY stalls and long read latency on every family."""

    async def body(self) -> None:
        for family in FAMILIES:
            for _ in range(max(1, self.count // 2)):
                await self.send_weights(random_knobs(self.rng, heavy=True), family=family)


class QueueFillSeq(WeightSeqBase):
    """Compressed raw int8 streams sized to the build's queues (``contracts.build_value``; groups of one bus word
    of elements), so that every queue of the reader reaches its depth and the reads in flight approach the sum of
    the streams' reservations at every configuration (wr_fetch.sv, wr_wgs_unpack.sv):

    1. density 0.5 under 50 % TREADY backpressure at latency 0: the expander takes about half a group per cycle
       while the reads and the WGS unpacker (one entry per cycle) go faster, so the entry queue fills
       (ENT_DEPTH), then the WGS beat queue behind it (WGS_DEPTH beats of bus bytes / 4 entries), the WMB and the
       weight-data queues; the set holds ENT_DEPTH groups twice over, the WGS and WMB queues' groups and a margin,
       so its end comes after every queue is full;
    2. no backpressure at a latency longer than the data queue takes to drain (4 x DATA_DEPTH + 64 cycles): every
       stream is limited by its reservation (beats queued or in flight <= depth), so the one whose queue holds the
       fewest groups keeps all of its reads in flight and the others only part; the density that makes the data
       queue hold as many groups as the smaller of the WMB and WGS queues (:meth:`balanced_density`) puts all
       three streams at their reservation at once (at the defaults 0.625: 8 WGS + 8 WMB + 40 data reads);
    3. one dense stream of two bus words and a byte: a beat of one byte lane.
    """

    async def body(self) -> None:
        depth = {n: contracts.build_value("weight_reader", n) for n in ("DATA_DEPTH", "WMB_DEPTH", "WGS_DEPTH")}
        ent = contracts.build_value("weight_reader", "ENT_DEPTH")
        g_elems = self.bus_bytes  # int8: one output transfer per group where OUT_DATA_W = AXI_DATA_W
        wmb_groups = depth["WMB_DEPTH"] * self.bus_bytes * 8 // g_elems
        wgs_groups = depth["WGS_DEPTH"] * self.bus_bytes // 4
        groups = min(65535, 2 * ent + wgs_groups + wmb_groups + 512)
        density = self.balanced_density(depth["DATA_DEPTH"], min(wmb_groups, wgs_groups), g_elems)
        fitted = []
        for mask, knobs in (
            ("uniform_0.5", Knobs(backpressure="half")),
            (f"uniform_{density:g}", Knobs(latency=4 * depth["DATA_DEPTH"] + 64)),
        ):
            fill = partial(draw_synthetic, self.rng, "int8", mask, self.addr_bits, True, g_elems)

            def smaller(fill: Callable[..., WeightSet] = fill) -> WeightSet:
                return fill(int(self.rng.integers(2, 17)))

            ws = self.fitting(partial(fill, groups), smaller)
            fitted.append(len(ws.group_elems) == groups)
            await self.send(self.new_item(Kind.WEIGHTS, ws, knobs))
        # the narrowest beat: a dense stream of two bus words and one byte, read as one piece whose last beat uses
        # only the first byte lane (the two before it every lane)
        one = partial(draw_synthetic, self.rng, "int8", "dense", self.addr_bits, False, 2 * self.bus_bytes + 1, 1)
        await self.send(self.new_item(Kind.WEIGHTS, self.fitting(one, one), Knobs()))
        ahead = ent + wgs_groups  # groups whose WGS entries can be in before the expander starts the first
        if ahead * g_elems // 2 < depth["DATA_DEPTH"] * self.bus_bytes:
            await self.fill_the_data_queue(depth["DATA_DEPTH"], ahead)
        space = 1 << self.addr_bits
        if space // self.bus_bytes - 1 < max(depth.values()):
            await self.fill_the_space(space)
        elif not fitted[0]:
            await self.fill_held(depth, ent + wgs_groups)

    async def fill_held(self, depth: dict[str, int], ahead: int) -> None:
        """Where the first set does not fit the address space (a random draw's 20-bit space with 2868 entries),
        a set of density 0.5 sized to the queues alone, output held: ``ahead`` + 64 groups (every entry and WGS
        beat queued behind the held expander, and more WGS to read), each of the fewest int8 elements (a
        multiple of 8) whose WMB fills WMB_DEPTH + 2 bus words and whose ``ahead`` groups announce 2 x
        (DATA_DEPTH + 2) bus words of data. Left out when even that does not fit."""
        groups = min(MAX_GROUPS, ahead + 64)
        least = max(
            -(-8 * (depth["WMB_DEPTH"] + 2) * self.bus_bytes // groups),  # WMB bits of the groups
            -(-4 * (depth["DATA_DEPTH"] + 2) * self.bus_bytes // max(1, groups - 64)),  # their data at 0.5, twice
            8,
        )
        g_elems = 8 * -(-least // 8)
        try:
            ws = draw_synthetic(self.rng, "int8", "uniform_0.5", self.addr_bits, True, g_elems, groups)
        except placement.DoesNotFit as exc:
            LOG.info("%s: no held fill", exc)
            return
        await self.send(self.new_item(Kind.WEIGHTS, ws, Knobs(backpressure="held")))

    async def fill_the_data_queue(self, data_depth: int, ahead: int) -> None:
        """Where the entry and WGS queues hold too few groups of the first set for the weight data they announce
        to fill the data queue (the data stream reads only up to the WGS sum received: DATA_DEPTH 1024 at the
        default 512 entries and 32 WGS beats, a one-entry queue at the default 160 data beats), a set of
        all-ones int8 groups large enough that ``ahead`` of them hold twice DATA_DEPTH + 2 bus words, with the
        output stalled for its first ``stalls.HELD_CYCLES`` cycles: the entry, WGS and data queues fill to
        their reservations while the expander, which took its window's beats, waits."""
        mult = -(-2 * (data_depth + 2) // ahead)
        g_elems = mult * self.bus_bytes
        groups = min(MAX_GROUPS, ahead + -(-(data_depth + 2) // mult) + 64)
        fill = partial(draw_synthetic, self.rng, "int8", "all_ones", self.addr_bits, True, g_elems)

        def smaller() -> WeightSet:
            return fill(int(self.rng.integers(2, 17)))

        ws = self.fitting(partial(fill, groups), smaller)
        await self.send(self.new_item(Kind.WEIGHTS, ws, Knobs(backpressure="held")))
        if data_depth % 4 and ahead >= data_depth + 8:
            await self.fill_to_the_beat(data_depth)

    async def fill_to_the_beat(self, data_depth: int) -> None:
        """A DATA_DEPTH that is not a multiple of the 4-beat chunks is reached only with a piece shorter than a
        chunk: sets of DATA_DEPTH + j whole bus words (j = 0..7, one-word all-ones int8 groups, every WGS entry
        in before the output moves), output held - the last piece ends the set, and the set that is exactly
        DATA_DEPTH words more than the expander took before the hold stopped it fills the queue to the beat."""
        for j in range(8):
            try:
                ws = draw_synthetic(self.rng, "int8", "all_ones", self.addr_bits, True, self.bus_bytes, data_depth + j)
            except placement.DoesNotFit as exc:  # a space too small for DATA_DEPTH words and their WMB and WGS
                LOG.info("%s: no set of DATA_DEPTH + %d words", exc, j)
                return
            await self.send(self.new_item(Kind.WEIGHTS, ws, Knobs(backpressure="held")))

    async def fill_the_space(self, space: int) -> None:
        """Where the address space holds fewer bus words than a queue (4 KB at ``AXI_ADDR_W`` 12), two sets that
        span all of it, without the guard bands of the random placement (:func:`~.weights.draw_at`):

        - a dense int8 stream of one-element groups (where the space has at most 32768 bytes) from address 0 to
          the top, at a 256-cycle latency (a read of every chunk of the space in flight, where the data queue
          holds them) with the output held: every bus word of the space is queued but the ones the expander's
          window took at the start (the data queue's reach bound in blocks/weight_reader/plan.yaml);
        - an all-zero compressed int8 stream whose WGS and WMB are the whole space, in the same (zero) bytes:
          space / 4 groups of 8 x space / groups elements, so the WGS and WMB streams read every chunk of the
          space with all of their reads in flight at a 64-cycle latency, and with the output held the entry
          queue fills, then the WGS and WMB queues behind it.
        """
        one = max(1, space >> 15)  # one-element groups, up to 32768 of them (GROUPS is 16 bits)
        dense = draw_at(self.rng, "int8", "dense", False, one, space // one, {"weight": 0})
        await self.send(self.new_item(Kind.WEIGHTS, dense, Knobs(latency=256, backpressure="held")))
        groups = min(space // 4, MAX_GROUPS)
        zero = draw_at(
            self.rng, "int8", "all_zero", True, 8 * space // groups, groups, {"weight": 0, "wmb": 0, "wgs": 0}
        )
        await self.send(self.new_item(Kind.WEIGHTS, zero, Knobs(latency=64, backpressure="held")))

    def balanced_density(self, data_depth: int, groups: int, g_elems: int) -> float:
        """The density at which ``data_depth`` bus words of compressed int8 data hold ``groups`` groups of
        ``g_elems`` elements (clamped to 0.05 .. 1, rounded to 3 digits)."""
        return round(min(1.0, max(0.05, data_depth * self.bus_bytes / (groups * g_elems))), 3)
