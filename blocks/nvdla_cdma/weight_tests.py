"""NVIDIA's convolution DMA's weight path against the weight models: every byte of the weight surface (dense or
compressed) in the weight buffer and of the WMB in bank 15, from ``models.nvdla.weights.dc`` and
``models.nvdla.sparse`` placed by ``models.nvdla.cbuf``, and the per-kernel-group reports to the sequencer against
the kernel groups and the WGS (blocks/nvdla_cdma/weight_layers.py; docs/nvidia_cdma.md, "Weights")."""

from __future__ import annotations

import os
from typing import Any, Callable, Optional

import numpy as np
import pyuvm
from pyuvm import uvm_driver, uvm_sequence, uvm_sequence_item, uvm_sequencer

from dlaverif.models.nvdla import cbuf
from dlaverif.platform.knobs import Knobs, random_knobs

from . import coverage
from .layers import problems, summary
from .tests import CdmaTestBase
from .weight_layers import DENSITIES, WeightLayer, draw_kernels, weight_layer


def report_problems(
    layer: WeightLayer, reports: list[tuple[int, ...]], entries: int, wmb_entries: int, exact: bool = False
) -> list[str]:
    """The layer's reports to the sequencer (kernels, weight entries, WMB entries per update) against the weight
    model: one report per kernel group with that group's kernels; after each group, at least the whole entries that
    group and the ones before it need (dense: their sizes; compressed: their WGS values and mask bits), exactly
    those when ``exact``; and all of them together exactly the entries written (``entries``, ``wmb_entries``).

    A group is reported once all it needs is in the buffer, together with whatever else has arrived by then (the
    WMB and the weights are fetched side by side), so under memory timing a report may run ahead of the need:
    ``exact`` is for dense weights under quiet timing only, where the weights are the only thing fetched."""
    kernels, needs = layer.group_kernels(), layer.group_needs()
    got_k = [r[0] for r in reports]
    if got_k != kernels:
        return [f"{layer.name}: reported kernels per group {got_k}, the model's groups have {kernels}"]
    out = []
    cum_w = np.cumsum([r[1] for r in reports])
    cum_m = np.cumsum([r[2] for r in reports])
    for g, ((nw, nm), w, m) in enumerate(zip(needs, cum_w, cum_m)):
        if w < nw or m < nm or (exact and (w, m) != (nw, nm)):
            out.append(
                f"{layer.name}: after group {g}: {w} weight / {m} WMB entries reported, it needs "
                f"{'exactly' if exact else 'at least'} {nw} / {nm}"
            )
    if (int(cum_w[-1]), int(cum_m[-1])) != (entries, wmb_entries):
        out.append(
            f"{layer.name}: {int(cum_w[-1])} weight / {int(cum_m[-1])} WMB entries reported in all, "
            f"{entries} / {wmb_entries} written"
        )
    return out


class WeightTestBase(CdmaTestBase):
    """A test of weight layers: reset and flush (:class:`CdmaTestBase`), then :meth:`check_weight_layer` per layer."""

    split: Optional[tuple[int, int]] = None  # the last layer's (data banks, weight banks); None after reset

    async def check_weight_layer(self, layer: WeightLayer, knobs: Optional[Knobs] = None) -> None:
        """Run ``layer`` and compare both ports' writes and the sequencer reports with the models. A buffer whose
        banks changed since the last layer (all of them after reset) restarts at its first entry (``cbuf.restarts``:
        the data buffer; the weight buffer with the WMB)."""
        split = (layer.data_banks, layer.weight_banks)
        data_again, weight_again = cbuf.restarts(self.split, split)
        self.split = split
        if data_again:
            self.data_next = 0
        if weight_again:
            self.weight_next = self.wmb_next = 0
        if os.getenv("KNOBS", "").strip() != "random":
            knobs = None
        exp = layer.expected(self.data_next, self.weight_next, self.wmb_next)
        inf = layer.weight_info
        self.logger.info(
            "%s; weights %s %s K=%d %s, %s, %d groups, %d weight + %d WMB entries from %d / %d; %s",
            summary(layer, exp),
            inf["dtype"],
            "x".join(map(str, layer.kernel_tensor.shape)),
            layer.kernel_tensor.shape[0],
            "compressed" if layer.compress else "dense",
            layer.density,
            inf["groups"],
            len(exp.weight[0]),
            len(exp.wmb[0]),
            self.weight_next,
            self.wmb_next,
            knobs or "quiet",
        )
        first = len(self.bench.csc.reported["wt"])
        writes = await self.bench.run_layer(layer, knobs)
        found = problems("data", exp.data, [w for w in writes if w.port == "data"])
        found += problems("weight", exp.weight_port(), [w for w in writes if w.port == "weight"])
        reports = self.bench.csc.reported["wt"][first:]
        self.logger.info(
            "%s: reports (kernels, entries, WMB entries) %s; needs %s", layer.name, reports, layer.group_needs()
        )
        exact = knobs is None and not layer.compress
        found += report_problems(layer, reports, len(exp.weight[0]), len(exp.wmb[0]), exact)
        self.fail_on(layer, found)
        coverage.sample(layer, self.data_next, knobs)
        coverage.sample_weights(layer, self.weight_next, len(exp.weight[0]))
        self.data_next, self.weight_next, self.wmb_next = exp.data_next, exp.weight_next, exp.wmb_next


@pyuvm.test(timeout_time=20, timeout_unit="ms")
class DenseWeights(WeightTestBase):
    """Dense direct-convolution weights, back to back on one data bank and one weight bank: int8 (40 kernels: a
    full group of 32 and a group of 8; C=20, 3x3), int16 (32 kernels: two whole groups of 16; C=70: a 64-element
    C' block and a 6-element one), fp16 (16 kernels: one group; C=33, 2x2), int8 again (40 kernels, C=64, 3x3:
    180 entries from entry 125, so the weight buffer wraps), int16 kernels that are all zero, and last a layer on
    two weight banks: a new split of the weight banks alone, where the weight buffer starts again at its first
    entry and the data buffer goes on (``cbuf.restarts``)."""

    async def body(self) -> None:
        shapes: list[tuple[int, int, int, int, type, str]] = [
            (40, 20, 3, 3, np.int8, "dense"),
            (32, 70, 1, 1, np.int16, "sparse"),
            (16, 33, 2, 2, np.float16, "full"),
            (40, 64, 3, 3, np.int8, "dense"),
            (8, 16, 1, 1, np.int16, "zero"),
            (24, 48, 2, 2, np.int8, "dense"),
        ]
        for i, (k, c, r, s, dt, dens) in enumerate(shapes):
            banks = 1 if i < len(shapes) - 1 else 2
            layer = weight_layer(
                f"dense_{i}", self.rng, k, c, r, s, dt, density=dens, data_banks=1, weight_banks=banks, group=i % 2
            )
            await self.check_weight_layer(layer)


@pyuvm.test(timeout_time=40, timeout_unit="ms")
class CompressedWeights(WeightTestBase):
    """Compressed weights (WMB in bank 15, the compressed surface in the weight buffer, a WGS value per kernel
    group) at every density (sparse, dense, every element kept, and a first kernel group with no element kept: a
    WGS of 0) and kernel counts of one, one full group, a partial last group and three groups, in int8, int16 and
    fp16, back to back (the weight buffer and the WMB continue across layers; the weight buffer wraps). The last
    layer keeps every element of three groups, so its weights (eight times its WMB) arrive last and each group's
    report follows its WGS alone. A whole layer without a
    kept element is :class:`ZeroWeightsObserved`'s."""

    async def body(self) -> None:
        layers: list[tuple[str, int, int, int, int, type]] = [
            ("sparse", 45, 24, 3, 3, np.int8),
            ("full", 32, 16, 2, 2, np.int8),
            ("dense", 1, 100, 1, 1, np.int8),
            ("zero", 40, 16, 1, 1, np.int8),  # group 0 all zero, group 1 sparse (below)
            ("sparse", 40, 70, 1, 1, np.int16),  # three groups: 16, 16, 8
            ("dense", 17, 30, 2, 1, np.float16),
            ("full", 16, 8, 3, 3, np.float16),
            ("full", 80, 32, 3, 3, np.int8),  # 3 groups, weights 8x the WMB; 180 entries: the weight bank wraps
        ]
        for i, (dens, k, c, r, s, dt) in enumerate(layers):
            kt = None
            if dens == "zero":
                kt = draw_kernels(self.rng, (k, c, r, s), dt, DENSITIES["sparse"])
                kt[:32] = 0
            layer = weight_layer(
                f"comp_{i}_{dens}",
                self.rng,
                k,
                c,
                r,
                s,
                dt,
                compress=True,
                density=dens,
                data_banks=1,
                weight_banks=1,
                kernel_tensor=kt,
                group=i % 2,
            )
            await self.check_weight_layer(layer)


@pyuvm.test(timeout_time=10, timeout_unit="ms")
class ZeroWeightsObserved(WeightTestBase):
    """A compressed layer without one kept element: the weight model's compressed surface is empty (0 bytes,
    ``D_WEIGHT_BYTES`` 0; models/weight_desc.py takes that as legal) and its WMB all zeros. NVIDIA's RTL still
    reads one request of 256 bytes at ``D_WEIGHT_ADDR`` and stores them in two weight-buffer entries
    (docs/nvidia_cdma.md, Weights, findings). This test pins that: the WMB checked byte for byte, the weight buffer
    holding the 256 bytes that lie at the weight address (a marker pattern put there by the test) and the reports
    counting those two entries. It fails when the behaviour changes."""

    async def body(self) -> None:
        kt = np.zeros((40, 16, 1, 1), np.int8)
        layer = weight_layer(
            "all_zero",
            self.rng,
            40,
            16,
            dtype=np.int8,
            compress=True,
            density="zero",
            data_banks=1,
            weight_banks=2,
            kernel_tensor=kt,
        )
        assert layer.surface("weight").size == 0 and not layer.surface("wmb").any()
        marker = (np.arange(256) * 7 + 3).astype(np.uint8)
        self.bench.mem.load(layer.bases()["weight"], marker)
        exp = layer.expected(0, 0, 0)
        first = len(self.bench.csc.reported["wt"])
        writes = await self.bench.run_layer(layer)
        wt = [w for w in writes if w.port == "weight"]
        found = problems("data", exp.data, [w for w in writes if w.port == "data"])
        found += problems("wmb", exp.wmb, [w for w in wt if w.addr >= cbuf.WMB_BANK * cbuf.BANK_ENTRIES])
        seen = cbuf.place(cbuf.surface_entries(marker), cbuf.weight_buffer(1, 2, compressed=True))
        found += problems("weight", seen[:3], [w for w in wt if w.addr < cbuf.WMB_BANK * cbuf.BANK_ENTRIES])
        reports = self.bench.csc.reported["wt"][first:]
        self.logger.info("all-zero compressed layer: reports %s; problems %s", reports, found or "none")
        assert not found, found[0]
        assert sum(r[1] for r in reports) == 2 and sum(r[2] for r in reports) == 1, reports


# ---------------------------------------------------------------------------------------------- random, as pyuvm


class WeightItem(uvm_sequence_item):
    """One random weight layer and its memory timing."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.layer: Optional[WeightLayer] = None
        self.knobs: Optional[Knobs] = None
        self.error: Optional[BaseException] = None  # what the check raised, re-raised by the sequence


class RandomWeightSeq(uvm_sequence):
    """``count`` random weight layers: int8/int16/fp16, dense or compressed, a density of :data:`DENSITIES`, 1 to
    80 kernels, C from 1 to 150, kernels 1x1 to 3x3 (at most one weight buffer of the current split), MCIF or
    CVIF, both register groups; one layer in five draws a bank split of 1-2 data and 2-4 weight banks (new when
    it differs). Each
    layer draws memory timing knobs (used under KNOBS=random)."""

    def __init__(self, name: str, rng: np.random.Generator, count: int) -> None:
        super().__init__(name)
        self.rng, self.count = rng, count

    def draw(self, i: int, banks: tuple[int, int]) -> WeightLayer:
        rng = self.rng
        dt = [np.int8, np.int16, np.float16][int(rng.integers(0, 3))]
        e = np.dtype(dt).itemsize
        while True:
            k, c = int(rng.integers(1, 81)), int(rng.integers(1, 151))
            r, s = int(rng.integers(1, 4)), int(rng.integers(1, 4))
            if k * c * r * s * e <= banks[1] * cbuf.BANK_ENTRIES * cbuf.ENTRY_BYTES:
                break
        compress = bool(rng.integers(0, 2))
        # a compressed layer with no kept element is outside what NVIDIA's RTL handles (ZeroWeightsObserved)
        dens = str(rng.choice([d for d in DENSITIES if not (compress and d == "zero")]))
        ram = str(rng.choice(["MCIF", "CVIF"]))
        return weight_layer(
            f"rw_{i}_{np.dtype(dt).name}_{'c' if compress else 'd'}_{dens}_k{k}",
            rng,
            k,
            c,
            r,
            s,
            dt,
            compress=compress,
            density=dens,
            data_banks=banks[0],
            weight_banks=banks[1],
            data_ram=ram,
            weight_ram=ram,
            group=i % 2,
        )

    async def body(self) -> None:
        banks = (1, 2)
        for i in range(self.count):
            item = WeightItem(f"rw_{i}")
            await self.start_item(item)
            if i > 0 and self.rng.random() < 0.2:
                banks = (int(self.rng.integers(1, 3)), int(self.rng.integers(2, 5)))
            item.layer = self.draw(i, banks)
            item.knobs = random_knobs(self.rng)
            await self.finish_item(item)
            if item.error is not None:
                raise item.error


class WeightDriver(uvm_driver):
    """Hands each item to ``check`` (the test's :meth:`WeightTestBase.check_weight_layer`): program, run, compare."""

    check: Callable[[WeightLayer, Optional[Knobs]], Any]

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            try:
                await self.check(item.layer, item.knobs)
            except AssertionError as exc:  # the sequence re-raises it: the test fails with the check's message
                item.error = exc
            self.seq_item_port.item_done()


@pyuvm.test(timeout_time=80, timeout_unit="ms")
class RandomWeights(WeightTestBase):
    """COUNT (default 6) random weight layers from :class:`RandomWeightSeq` on a sequencer and driver."""

    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.drv = WeightDriver("drv", self)

    def connect_phase(self) -> None:
        self.drv.seq_item_port.connect(self.seqr.seq_item_export)
        self.drv.check = self.check_weight_layer

    async def body(self) -> None:
        count = int(os.getenv("COUNT", "").strip() or 6)
        await RandomWeightSeq("rw", self.rng, count).start(self.seqr)
