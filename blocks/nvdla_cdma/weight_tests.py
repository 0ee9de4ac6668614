"""NVIDIA's convolution DMA's weight path against the weight models: every byte of the weight surface (dense or
compressed) in the weight buffer and of the WMB in bank 15, from ``models.nvdla.weights.dc`` and
``models.nvdla.sparse`` placed by ``models.nvdla.cbuf``, and the per-kernel-group reports to the sequencer against
the kernel groups and the WGS (blocks/nvdla_cdma/weight_layers.py; docs/nvidia_cdma.md, "Weights")."""

from __future__ import annotations

import itertools
import os
from typing import Any, Callable, Optional

import numpy as np
import pyuvm
from pyuvm import uvm_driver, uvm_sequence, uvm_sequence_item, uvm_sequencer

from dlaverif.models.nvdla import cbuf, pixel
from dlaverif.models.nvdla.weights import dc, deconv
from dlaverif.platform.closure import bins, unhit
from dlaverif.platform.knobs import Knobs, random_knobs

from . import coverage
from .format_layers import deconv_set_layer, deconv_set_layers, image_weight_layer, winograd_weight_layer, with_nans
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
            "%s; weights %s %s %s K=%d %s, %s, %d groups, %d weight + %d WMB entries from %d / %d; %s",
            summary(layer, exp),
            layer.weight_format,
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
        if layer.nan_to_zero is not None:  # a NaN layer's count (other layers leave the CSB traffic as it was)
            found += await self.nan_count_problems(layer)
        self.fail_on(layer, found)
        coverage.sample(layer, self.data_next, knobs)
        coverage.sample_weights(layer, self.weight_next, len(exp.weight[0]))
        self.data_next, self.weight_next, self.wmb_next = exp.data_next, exp.weight_next, exp.wmb_next

    async def nan_count_problems(self, layer: WeightLayer) -> list[str]:
        """``D_NAN_INPUT_WEIGHT_NUM`` and ``D_INF_INPUT_WEIGHT_NUM`` of the layer's register group (the producer
        pointer still at it) against the model's counts of NaN and INF weights (``precision.count_nan`` and
        ``count_inf`` of the surface, whether or not the NaNs are flushed)."""
        r, out = self.bench.regs, []
        for reg, want in (
            ("D_NAN_INPUT_WEIGHT_NUM", layer.nan_weights()),
            ("D_INF_INPUT_WEIGHT_NUM", layer.inf_weights()),
        ):
            got = await self.bench.csb.read(r.address(reg))
            self.logger.info("%s: %s %d, the model counts %d", layer.name, reg, got, want)
            if got != want:
                out.append(f"{reg} {got}, the model counts {want}")
        return out


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


@pyuvm.test(timeout_time=60, timeout_unit="ms")
class WmbWraps(WeightTestBase):
    """The WMB wrapping around bank 15: compressed layers on one bank split (one data bank, two weight banks) whose
    mask bits add up to more than the bank's 256 entries, so the WMB continues from entry 255 to entry 0 in the
    middle of the third layer (int8 64x256x3x3: 144 entries; int16 32x160x3x3: 45; int8 48x200x3x3: 85, from entry
    189) and goes on from there in the fourth (fp16). The kernels keep about 5 % of their elements, so the weights
    stay small beside their WMB (docs/nvidia_cdma.md, Weights)."""

    async def body(self) -> None:
        shapes: list[tuple[int, int, int, int, type]] = [
            (64, 256, 3, 3, np.int8),
            (32, 160, 3, 3, np.int16),
            (48, 200, 3, 3, np.int8),
            (16, 64, 2, 2, np.float16),
        ]
        wrapped = []
        for i, (k, c, r, s, dt) in enumerate(shapes):
            kt = draw_kernels(self.rng, (k, c, r, s), dt, 0.05)
            layer = weight_layer(
                f"wmb_{i}",
                self.rng,
                k,
                c,
                r,
                s,
                dt,
                compress=True,
                density="sparse",
                data_banks=1,
                weight_banks=2,
                kernel_tensor=kt,
                group=i % 2,
            )
            start = self.wmb_next if self.split == (1, 2) else 0
            wrapped.append(start + len(layer.expected(0, 0, start).wmb[0]) > cbuf.BANK_ENTRIES)
            await self.check_weight_layer(layer)
        assert wrapped == [False, False, True, False], f"the WMB wraps in the third layer only, not {wrapped}"


# ---------------------------------------------------------------------------------------------- the other formats


@pyuvm.test(timeout_time=40, timeout_unit="ms")
class ImageWeights(WeightTestBase):
    """Image-input weights (``nvdla.weight.image``) with an image of their ``Ci`` channels on the data side
    (converter off, ``D_DATAIN_FORMAT`` PIXEL), back to back on one data bank and two weight banks, at every
    post-extension: T_A8B8G8R8 int8 40 kernels (32 + 8) 3x3, N=1; T_A8B8G8R8 int8 20 kernels 5x7, N=2 (C' = 28,
    a short last row group); T_R8 int8 33 kernels 7x7, N=4 (C' = 7), compressed sparse; T_A16B16G16R16 int16 16
    kernels of 3 channels padded to 4, 5x4, N=4 (C' = 16); T_R16 int16 17 kernels 3x3, N=2, compressed dense;
    T_A16B16G16R16_F fp16 16 kernels 3x3, N=1, compressed with every element kept; T_R16_F fp16 24 kernels 4x2,
    N=4, dense."""

    async def body(self) -> None:
        shapes: list[tuple[str, int, int, int, int, Optional[int], bool, str]] = [
            ("T_A8B8G8R8", 40, 3, 3, 1, None, False, "dense"),
            ("T_A8B8G8R8", 20, 5, 7, 2, None, False, "dense"),
            ("T_R8", 33, 7, 7, 4, None, True, "sparse"),
            ("T_A16B16G16R16", 16, 5, 4, 4, 3, False, "dense"),
            ("T_R16", 17, 3, 3, 2, None, True, "dense"),
            ("T_A16B16G16R16_F", 16, 3, 3, 1, None, True, "full"),
            ("T_R16_F", 24, 4, 2, 4, None, False, "dense"),
        ]
        for i, (fmt, k, r, s, n, c, comp, dens) in enumerate(shapes):
            layer = image_weight_layer(
                f"img_{i}_{fmt}_n{n}",
                self.rng,
                fmt,
                k,
                r,
                s,
                n,
                c=c,
                compress=comp,
                density=dens,
                data_banks=1,
                weight_banks=2,
                group=i % 2,
            )
            await self.check_weight_layer(layer)


@pyuvm.test(timeout_time=40, timeout_unit="ms")
class WinogradWeights(WeightTestBase):
    """Winograd weights (``nvdla.weight.winograd``, stride 1: 3x3 kernels transformed to 4x4x4 cubes, C padded to
    32 bytes) with a Winograd cube on the data side (``D_MISC_CFG.CONV_MODE`` WINOGRAD), back to back on two data
    banks and two weight banks: int8 40 kernels C=40 dense (320 entries); int16 24 kernels C=20 compressed, about a
    third of the kernel planes kept; fp16 16 kernels C=8 compressed, most planes kept, padded 1 left and right; int8
    33 kernels C=64 compressed, every plane kept, padded 1 on top and below (the weight buffer wraps); int16 16
    kernels C=4 dense."""

    async def body(self) -> None:
        shapes: list[tuple[int, int, int, int, type, bool, str, tuple[int, int, int, int]]] = [
            (40, 40, 4, 8, np.int8, False, "dense", (0, 0, 0, 0)),
            (24, 20, 4, 4, np.int16, True, "sparse", (0, 0, 0, 0)),
            (16, 8, 4, 6, np.float16, True, "dense", (1, 1, 0, 0)),
            (33, 64, 2, 4, np.int8, True, "full", (0, 0, 1, 1)),
            (16, 4, 4, 4, np.int16, False, "dense", (0, 0, 0, 0)),
        ]
        for i, (k, c, h, w, dt, comp, dens, pad) in enumerate(shapes):
            layer = winograd_weight_layer(
                f"wgw_{i}_k{k}_c{c}",
                self.rng,
                k,
                c,
                h,
                w,
                dt,
                compress=comp,
                density=dens,
                pad=pad,
                data_banks=2,
                weight_banks=2,
                group=i % 2,
            )
            await self.check_weight_layer(layer)


@pyuvm.test(timeout_time=40, timeout_unit="ms")
class DeconvWeights(WeightTestBase):
    """Deconvolution weights (``nvdla.weight.deconv``): every set of the split is a DC layer of its own, with its
    own weight surface (its kernels rotated 180 degrees), back to back on one data bank and two weight banks: int8
    40 kernels C=20 4x4, stride 2x2 (four 2x2 sets), dense; int16 16 kernels C=70 3x2, stride x 2 y 1 (two 3x1
    sets), compressed dense; fp16 20 kernels C=12 3x3, stride x 3 (three 3x1 sets), compressed with every element
    kept; int8 9 kernels C=33 3x3, stride y 2 (two 2x3 sets, the second with a row of zero taps), dense."""

    async def body(self) -> None:
        shapes: list[tuple[int, int, int, int, type, int, int, bool, str]] = [
            (40, 20, 4, 4, np.int8, 2, 2, False, "dense"),
            (16, 70, 3, 2, np.int16, 2, 1, True, "dense"),
            (20, 12, 3, 3, np.float16, 3, 1, True, "full"),
            (9, 33, 3, 3, np.int8, 1, 2, False, "dense"),
        ]
        n = 0
        for i, (k, c, r, s, dt, sx, sy, comp, dens) in enumerate(shapes):
            kt = draw_kernels(self.rng, (k, c, r, s), dt, DENSITIES[dens])
            for layer in deconv_set_layers(
                f"dcv_{i}", self.rng, kt, sx, sy, compress=comp, density=dens, data_banks=1, weight_banks=2
            ):
                layer.group = n % 2
                n += 1
                await self.check_weight_layer(layer)


@pyuvm.test(timeout_time=40, timeout_unit="ms")
class NanWeights(WeightTestBase):
    """fp16 weights holding NaNs (quiet and signalling, both signs) beside INF, -0, denormals and the largest
    normal, with ``D_NAN_FLUSH_TO_ZERO`` written on every layer: DC dense, flush on (every NaN element +0, the rest
    as it is); DC compressed with every element kept, flush on (the kept NaNs flushed; the WMB, ones, 0xFFFF in
    every 16-bit lane up to its padding, kept: it is a mask, not weights); DC dense, flush off (the NaNs stored as they
    are); image weights (T_A16B16G16R16_F, N=2), flush on; a deconvolution set, compressed dense, flush on; and
    int16 weights whose bit patterns are fp16 NaNs, flush on (kept: the flush is for fp16 only). After each layer
    ``D_NAN_INPUT_WEIGHT_NUM`` and ``D_INF_INPUT_WEIGHT_NUM`` equal the model's counts of NaN and INF weights (0
    for int16). The expected bytes are the model's fp16 rule, ``precision.flush_nan_to_zero`` (docs/nvidia_cdma.md,
    W7)."""

    async def body(self) -> None:
        rng = self.rng
        layers: list[WeightLayer] = []
        kt = with_nans(rng, draw_kernels(rng, (24, 40, 3, 3), np.float16, DENSITIES["dense"]))
        layers.append(weight_layer("nan_0_dc_flush", rng, 24, 40, 3, 3, np.float16, kernel_tensor=kt))
        layers[-1].nan_to_zero = True
        kt = with_nans(rng, draw_kernels(rng, (20, 24, 2, 2), np.float16, DENSITIES["full"]))
        layers.append(
            weight_layer(
                "nan_1_dc_comp_flush", rng, 20, 24, 2, 2, np.float16, compress=True, density="full", kernel_tensor=kt
            )
        )
        layers[-1].nan_to_zero = True
        kt = with_nans(rng, draw_kernels(rng, (16, 33, 3, 3), np.float16, DENSITIES["dense"]))
        layers.append(weight_layer("nan_2_dc_kept", rng, 16, 33, 3, 3, np.float16, kernel_tensor=kt))
        layers[-1].nan_to_zero = False
        kt = with_nans(rng, draw_kernels(rng, (16, 4, 5, 4), np.float16, DENSITIES["dense"]))
        layers.append(image_weight_layer("nan_3_image_flush", rng, "T_A16B16G16R16_F", 16, 5, 4, 2, kernel_tensor=kt))
        layers[-1].nan_to_zero = True
        kt = with_nans(rng, draw_kernels(rng, (18, 20, 2, 4), np.float16, DENSITIES["dense"]))
        layers.append(deconv_set_layers("nan_4_deconv_flush", rng, kt, 2, 1, compress=True)[1])
        layers[-1].nan_to_zero = True
        bits = with_nans(rng, draw_kernels(rng, (16, 20, 1, 1), np.float16, DENSITIES["full"]))
        layers.append(weight_layer("nan_5_int16_flush", rng, 16, 20, dtype=np.int16, kernel_tensor=bits.view(np.int16)))
        layers[-1].nan_to_zero = True
        nans = [(layer.nan_weights(), layer.inf_weights()) for layer in layers]
        assert all(n and i for n, i in nans[:5]) and nans[5] == (0, 0), f"NaN and INF weights per layer {nans}"
        for i, layer in enumerate(layers):
            layer.data_banks, layer.weight_banks, layer.group = 1, 2, i % 2
            await self.check_weight_layer(layer)


# ---------------------------------------------------------------------------------------------- random, as pyuvm


class WeightItem(uvm_sequence_item):
    """One random weight layer and its memory timing."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.layer: Optional[WeightLayer] = None
        self.knobs: Optional[Knobs] = None
        self.error: Optional[BaseException] = None  # what the check raised, re-raised by the sequence


#: the weight cross the random sequence steers by (dlaverif.platform.closure.unhit), and its axes' covergroups
CROSS = "nvdla_cdma.weight_kind_x_precision_x_density"
#: a precision bin's dtype (coverage.PRECISION read backwards)
DTYPE_OF = {p: np.dtype(d) for d, p in coverage.PRECISION.items()}


def drawable(kind: str, dens: str) -> bool:
    """Whether the random sequence draws weights of this kind at this density: every pair but a compressed layer
    with no kept element, which NVIDIA's RTL reads as 256 bytes (docs/nvidia_cdma.md, W1; ZeroWeightsObserved)."""
    return not (kind == "compressed" and dens == "zero")


def reachable() -> list[tuple[str, str, str]]:
    """The bins of the weight cross the sequence can reach (:func:`drawable`)."""
    return [b for b in bins(CROSS) if drawable(b[0], b[2])]


class RandomWeightSeq(uvm_sequence):
    """``count`` random weight layers, coverage-driven: each layer's (kind, precision, density) is a bin of the
    weight cross not hit yet in this simulation (any reachable one once all are), its kernel-group shape (one
    group, whole groups, a shorter last) an unhit ``weight_groups`` bin first, and while ``weight_wrap`` is unhit
    its weight surface fills at least half the weight buffer, so that two layers in a row wrap it. Kernels 1 to
    80 (as the groups bin asks), C from 1 to 150, kernels 1x1 to 3x3 (at most one weight buffer of the current
    split), the density exact (the kernels are redrawn until :func:`coverage.density_of` gives the bin), MCIF or
    CVIF, both register groups; one layer in five draws a bank split of 1-2 data and 2-4 weight banks (new when
    it differs). Each layer draws memory timing knobs (used under KNOBS=random)."""

    #: shapes drawn for a weight surface of half the weight buffer (while the wrap is unhit) before any size will do
    TRIES = 200

    def __init__(self, name: str, rng: np.random.Generator, count: int) -> None:
        super().__init__(name)
        self.rng, self.count = rng, count

    def target(self) -> tuple[str, str, str]:
        """The (kind, precision, density) bin the next layer hits."""
        open_bins = [b for b in unhit(CROSS) if drawable(b[0], b[2])] or reachable()
        return open_bins[int(self.rng.integers(0, len(open_bins)))]

    def kernel_count(self, kpg: int) -> int:
        """Kernels for an unhit ``weight_groups`` bin (any bin once all are hit), at most 80."""
        rng = self.rng
        groups = str(rng.choice(unhit("nvdla_cdma.weight_groups") or ["one", "whole", "partial_last"]))
        if groups == "one":
            return int(rng.integers(1, kpg + 1))
        if groups == "whole":
            return kpg * int(rng.integers(2, 80 // kpg + 1))
        return int(rng.choice([k for k in range(kpg + 1, 81) if k % kpg]))

    def draw(self, i: int, banks: tuple[int, int]) -> WeightLayer:
        rng = self.rng
        kind, prec, dens = self.target()
        dt, compress = DTYPE_OF[prec], kind == "compressed"
        kpg = int(dc.info((1, 1, 1, 1), dt, compress=compress)["kernels_per_group"])
        room = banks[1] * cbuf.BANK_ENTRIES * cbuf.ENTRY_BYTES
        wrap = True in unhit("nvdla_cdma.weight_wrap")
        for t in itertools.count():
            k, c = self.kernel_count(kpg), int(rng.integers(1, 151))
            r, s = int(rng.integers(1, 4)), int(rng.integers(1, 4))
            n = k * c * r * s
            about = n * dt.itemsize * (DENSITIES[dens] if compress else 1)  # the weight surface's bytes, about
            small = wrap and t < self.TRIES and 2 * about < room
            if about > room or (dens in ("sparse", "dense") and n < 4) or small:
                continue
            kt = draw_kernels(rng, (k, c, r, s), dt.type, DENSITIES[dens])
            while coverage.density_of(kt) != dens:  # small tensors miss their class now and then
                kt = draw_kernels(rng, (k, c, r, s), dt.type, DENSITIES[dens])
            kept = np.count_nonzero(kt.view(np.uint8 if dt.itemsize == 1 else np.uint16)) if compress else n
            if kept * dt.itemsize <= room:
                break
        ram = str(rng.choice(["MCIF", "CVIF"]))
        k, c, r, s = kt.shape
        return weight_layer(
            f"rw_{i}_{dt.name}_{'c' if compress else 'd'}_{dens}_k{k}",
            rng,
            k,
            c,
            r,
            s,
            dt.type,
            compress=compress,
            density=dens,
            data_banks=banks[0],
            weight_banks=banks[1],
            kernel_tensor=kt,
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
    """COUNT (default 6) random weight layers from :class:`RandomWeightSeq` on a sequencer and driver, and at least
    one per reachable bin of the weight cross (:func:`reachable`: 21 of its 24), so that one run closes it whatever
    COUNT is (the sequence picks unhit bins first)."""

    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.drv = WeightDriver("drv", self)

    def connect_phase(self) -> None:
        self.drv.seq_item_port.connect(self.seqr.seq_item_export)
        self.drv.check = self.check_weight_layer

    async def body(self) -> None:
        count = max(int(os.getenv("COUNT", "").strip() or 6), len(reachable()))
        await RandomWeightSeq("rw", self.rng, count).start(self.seqr)


# ---------------------------------------------------------------------------------------------- other formats, random

#: the format cross the random format sequence steers by, and the pixel formats of image weights per precision
FORMAT_CROSS = "nvdla_cdma.weight_format_x_kind"
IMAGE_FORMATS = {
    "int8": ("T_A8B8G8R8", "T_R8", "T_B8G8R8A8", "T_A8Y8U8V8"),
    "int16": ("T_R16", "T_A16B16G16R16", "T_R12", "T_A16Y16U16V16"),
    "fp16": ("T_R16_F", "T_A16B16G16R16_F", "T_A16Y16U16V16_F"),
}
#: the most bytes a random format layer's kernels take before compression (a quarter of two weight banks)
FORMAT_BYTES = 16 * 1024


class RandomFormatSeq(uvm_sequence):
    """``count`` random weight layers in the image, Winograd and deconvolution formats (and DC), coverage-driven:
    each layer's (format, kind) is a bin of :data:`FORMAT_CROSS` not hit yet (once all are: image weights while a
    post-extension is unhit, then any), an image layer's post-extension an unhit ``weight_post_extension`` bin first
    (within the model's limits for its ``S * Ci``), and an fp16 layer's NaNs an unhit ``weight_nan`` bin first
    (none, kept, flushed); while a NaN bin is unhit, half the layers that can hold NaNs are fp16. Precision int8,
    int16 or fp16;
    density sparse, dense or full (compressed) and also zero (dense); kernels 1-48; C 1-64 (image: up to the
    format's channels); image kernels 1x1 to 7x7 as the post-extension allows, Winograd 3x3 on a cube whose padded
    sides are multiples of 4, deconvolution kernels 1x1 to 4x4 at strides 1-3 with one set of the split drawn;
    the kernels' bytes at most :data:`FORMAT_BYTES`; MCIF or CVIF; both register groups; one data bank and two
    weight banks throughout, so that the weight buffer and the WMB continue and wrap. Each layer draws memory
    timing knobs (used under KNOBS=random)."""

    def __init__(self, name: str, rng: np.random.Generator, count: int) -> None:
        super().__init__(name)
        self.rng, self.count = rng, count

    def pick(self, covergroup: str, choices: list) -> Any:
        """An unhit bin of ``covergroup`` among ``choices`` (any of them once all are hit)."""
        open_bins = [c for c in choices if c in unhit(covergroup)] or choices
        return open_bins[int(self.rng.integers(0, len(open_bins)))]

    def nans(self, kt: np.ndarray) -> tuple[np.ndarray, Optional[bool]]:
        """fp16 kernels with NaNs (and D_NAN_FLUSH_TO_ZERO written) when an unhit ``weight_nan`` bin asks for it."""
        case = self.pick("nvdla_cdma.weight_nan", ["none", "kept", "flushed"])
        if kt.dtype != np.float16 or case == "none":
            return kt, None
        return with_nans(self.rng, kt, every=int(self.rng.integers(3, 12))), case == "flushed"

    def draw(self, i: int) -> WeightLayer:
        rng = self.rng
        if unhit(FORMAT_CROSS) or not unhit("nvdla_cdma.weight_post_extension"):
            fmt, kind = self.pick(FORMAT_CROSS, bins(FORMAT_CROSS))
        else:  # the cross is closed, a post-extension is not: image weights
            fmt, kind = "image", str(rng.choice(["dense", "compressed"]))
        compress = kind == "compressed"
        nan_open = [b for b in unhit("nvdla_cdma.weight_nan") if b != "none"]
        if nan_open and fmt != "winograd" and rng.random() < 0.5:  # fp16, which can hold NaNs, while a NaN bin is open
            prec = "fp16"
        else:
            prec = str(rng.choice(["int8", "int16", "fp16"]))
        dt = DTYPE_OF[prec]
        dens = str(rng.choice(["sparse", "dense", "full"] + ([] if compress else ["zero"])))
        ram = str(rng.choice(["MCIF", "CVIF"]))
        common: dict[str, Any] = dict(data_banks=1, weight_banks=2, data_ram=ram, weight_ram=ram, group=i % 2)
        name = f"rf_{i}_{fmt}_{prec}_{'c' if compress else 'd'}_{dens}"
        for _ in range(1000):  # shapes until the kernels fit and a compressed surface keeps an element
            k, c = int(rng.integers(1, 49)), int(rng.integers(1, 65))
            layer: WeightLayer
            if fmt == "image":
                pf = str(rng.choice(IMAGE_FORMATS[prec]))
                ci = pixel.get(pf).channels
                n = int(self.pick("nvdla_cdma.weight_post_extension", [1, 2, 4]))
                s_max = min(7, {1: 7, 2: 32 // ci, 4: 16 // ci}[n])
                r, s = int(rng.integers(1, 8)), int(rng.integers(1, s_max + 1))
                kt = draw_kernels(rng, (k, int(rng.integers(1, ci + 1)), r, s), dt.type, DENSITIES[dens])
                kt, flush = self.nans(kt)
                layer = image_weight_layer(
                    f"{name}_{pf}_n{n}",
                    rng,
                    pf,
                    k,
                    r,
                    s,
                    n,
                    compress=compress,
                    density=dens,
                    kernel_tensor=kt,
                    **common,
                )
            elif fmt == "winograd":
                pl, pr, pt, pb = (int(v) for v in rng.integers(0, 3, 4))
                w = 4 * int(rng.integers(1, 3)) - pl - pr
                h = 4 * int(rng.integers(1, 3)) - pt - pb
                if w < 1 or h < 1:
                    continue
                layer = winograd_weight_layer(
                    name, rng, k, c, h, w, dt.type, compress=compress, density=dens, pad=(pl, pr, pt, pb), **common
                )
                flush = None
            else:
                r, s = int(rng.integers(1, 5)), int(rng.integers(1, 5))
                kt = draw_kernels(rng, (k, c, r, s), dt.type, DENSITIES[dens])
                kt, flush = self.nans(kt)
                if fmt == "dc":
                    layer = weight_layer(
                        name, rng, k, c, r, s, dt.type, compress=compress, density=dens, kernel_tensor=kt, **common
                    )
                else:
                    sx, sy = int(rng.integers(1, 4)), int(rng.integers(1, 4))
                    xy = deconv.sets(sx, sy)[int(rng.integers(0, sx * sy))]
                    layer = deconv_set_layer(name, rng, kt, sx, sy, xy, compress, dens, **common)
            layer.nan_to_zero = flush
            if layer.surface("weight").size > FORMAT_BYTES or (compress and not layer.surface("weight").size):
                continue
            return layer
        raise AssertionError(f"{name}: no layer drawn in 1000 shapes")

    async def body(self) -> None:
        for i in range(self.count):
            item = WeightItem(f"rf_{i}")
            await self.start_item(item)
            item.layer = self.draw(i)
            item.knobs = random_knobs(self.rng)
            await self.finish_item(item)
            if item.error is not None:
                raise item.error


@pyuvm.test(timeout_time=80, timeout_unit="ms")
class RandomFormatWeights(WeightTestBase):
    """COUNT (default 6) random layers of :class:`RandomFormatSeq` (image, Winograd, deconvolution and DC weights,
    dense and compressed, fp16 NaNs flushed or kept) on a sequencer and driver, at least 14 (the bins of the
    format x kind cross, the post-extensions and the NaN cases, one a layer), so that one run closes them."""

    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.drv = WeightDriver("drv", self)

    def connect_phase(self) -> None:
        self.drv.seq_item_port.connect(self.seqr.seq_item_export)
        self.drv.check = self.check_weight_layer

    async def body(self) -> None:
        count = max(int(os.getenv("COUNT", "").strip() or 6), 14)
        await RandomFormatSeq("rf", self.rng, count).start(self.seqr)
