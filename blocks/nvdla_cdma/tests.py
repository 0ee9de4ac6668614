"""NVIDIA's convolution DMA (NV_NVDLA_cdma, nvdla/hw nvdlav1) against the models: every byte it writes into the
convolution buffer compared with ``models.nvdla`` (feature / pixel and the converter) placed by
``models.nvdla.cbuf``, naming bank, entry, half and bytes on a mismatch (blocks/nvdla_cdma/layers.py)."""

from __future__ import annotations

import os
from typing import Optional

import cocotb
import numpy as np
import pyuvm
from pyuvm import uvm_sequencer, uvm_test

from dlaverif.models.nvdla import cbuf
from dlaverif.platform.knobs import Knobs, random_knobs
from dlaverif.platform.reporting import reproduce_command

from . import coverage
from .bench import CdmaBench
from .coverage import PLACED_FORMATS
from .layers import Layer, feature_layer, image_layer, problems, summary, winograd_layer
from .sequences import CONVERTER_OFF, CONVERTER_ON, FeatureLayerSeq, ImageLayerSeq, LayerDriver


class CdmaTestBase(uvm_test):
    """Reset and flush, then :meth:`body`; the CBUF clearing is checked on the way (every entry of both ports
    written with zeros), and every protocol problem an agent reported fails the test. The random tests' sequences
    (blocks/nvdla_cdma/sequences.py) run on :attr:`seqr`, whose driver checks each layer with :meth:`check_layer`."""

    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.driver = LayerDriver("driver", self)

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)

    async def run_phase(self) -> None:
        self.raise_objection()
        self.rng = np.random.default_rng(cocotb.RANDOM_SEED)
        self.bench = bench = CdmaBench(cocotb.top, self.rng)
        await bench.reset()
        self.check_flush()
        self.data_next = self.weight_next = 0
        await self.body()
        assert not bench.violations, "; ".join(bench.violations[:8])
        coverage.export()
        self.logger.info("coverage: %s", ", ".join(f"{n} {p:.0f}%" for n, p in coverage.summary()))
        self.drop_objection()

    def check_flush(self) -> None:
        """After reset the CDMA clears the whole buffer (both ports share the work: NV_NVDLA_CDMA_cvt.v:10240-10249
        and NV_NVDLA_CDMA_wt.v:7392-7404 write one half per cycle, the data port banks 0-7, the weight port banks
        8-15): every byte of every entry written, with zero."""
        flush = self.bench.flush
        written = np.zeros((cbuf.ENTRIES, cbuf.ENTRY_BYTES), bool)
        for w in flush:
            written[w.addr] |= w.mask
        ports = {p: sorted({w.addr for w in flush if w.port == p}) for p in ("data", "weight")}
        self.logger.info(
            "flush: %s",
            ", ".join(f"{p} port {len(a)} entries {a[0]}..{a[-1]}" for p, a in ports.items() if a),
        )
        left = np.flatnonzero(~written.all(axis=1))
        assert left.size == 0, f"the flush left {left.size} entries not fully written, first {cbuf.where(int(left[0]))}"
        assert not any(w.data[w.mask].any() for w in flush), "the flush wrote a non-zero byte"

    async def check_layer(self, layer: Layer, new_split: bool, knobs: Optional[Knobs] = None) -> None:
        """Run ``layer`` under ``knobs`` and compare its writes; a new bank split restarts both buffers at 0."""
        if new_split:
            self.data_next = self.weight_next = 0
        if os.getenv("KNOBS", "").strip() != "random":  # memory timing only where the run asks for it
            knobs = None
        exp = layer.expected(self.data_next, self.weight_next)
        self.logger.info("%s; %s", summary(layer, exp), knobs or "quiet")
        writes = await self.bench.run_layer(layer, knobs)
        found = problems("data", exp.data, [w for w in writes if w.port == "data"])
        found += problems("weight", exp.weight, [w for w in writes if w.port == "weight"])
        self.fail_on(layer, found)
        coverage.sample(layer, self.data_next, knobs)
        self.data_next, self.weight_next = exp.data_next, exp.weight_next

    def fail_on(self, layer: Layer, found: list[str]) -> None:
        """Log every problem of a checked layer with the command that reruns it, and fail on the first."""
        if found:
            self.logger.error("%s: %d problem(s); rerun: %s", layer.name, len(found), reproduce_command())
            for p in found:
                self.logger.error("  %s", p)
        assert not found, f"{layer.name}: {found[0]}"

    async def body(self) -> None:
        raise NotImplementedError


@pyuvm.test(timeout_time=10, timeout_unit="ms")
class ImageLayer(CdmaTestBase):
    """One image layer, T_A8B8G8R8 (4 int8 channels, converter off: the raw bytes as int8), 40 x 3 pixels: each
    line's pixels R, G, B, A back to back from the slice's first entry."""

    async def body(self) -> None:
        await self.check_layer(image_layer("image_a8b8g8r8", self.rng, "T_A8B8G8R8", 3, 40), new_split=True)


@pyuvm.test(timeout_time=10, timeout_unit="ms")
class FeatureLayer(CdmaTestBase):
    """One feature (DC) layer, int8, C=200 (7 atoms: one full 128-byte group and a 3-atom tail per pixel), 8 x 4."""

    async def body(self) -> None:
        await self.check_layer(feature_layer("feature_c200", self.rng, 200, 4, 8), new_split=True)


@pyuvm.test(timeout_time=10, timeout_unit="ms")
class PaddedImageLayer(CdmaTestBase):
    """Image layers with left and right zero padding (D_ZERO_PADDING) of a pad value (D_ZERO_PADDING_VALUE):
    T_A8B8G8R8 40 x 3 with 3 pixels left and 5 right of 0x5AA5 (int8: 0xA5), converter off; T_R16 int16 21 x 2
    with 31 left and 63 right (the fields' maxima) of 0xBEEF; the padding pixels sit before and after each line's
    pixels in the slice (models.nvdla.cbuf.image_slices)."""

    async def body(self) -> None:
        a = image_layer("pad_a8b8g8r8", self.rng, "T_A8B8G8R8", 3, 40, data_banks=2, weight_banks=1)
        a.pad, a.pad_value = (3, 5, 0, 0), 0x5AA5
        await self.check_layer(a, new_split=True)
        b = image_layer("pad_r16", self.rng, "T_R16", 2, 21, data_banks=2, weight_banks=1, group=1)
        b.pad, b.pad_value = (31, 63, 0, 0), 0xBEEF
        await self.check_layer(b, new_split=False)


@pyuvm.test(timeout_time=10, timeout_unit="ms", expect_fail=True)
class CorruptModelIsCaught(CdmaTestBase):
    """expect_fail: the feature layer with one byte of the models' answer flipped (a random valid byte of a random
    entry) must fail, naming that entry."""

    async def check_layer(self, layer: Layer, new_split: bool, knobs: Optional[Knobs] = None) -> None:
        exp = layer.expected(0, 0)
        addrs, data, valid = exp.data
        i = int(self.rng.integers(0, len(addrs)))
        k = int(self.rng.choice(np.flatnonzero(valid[i])))
        data[i, k] ^= 0x5A
        self.logger.info("corrupted entry #%d (%s)", i, cbuf.where(int(addrs[i]), k))
        writes = await self.bench.run_layer(layer)
        found = problems("data", exp.data, [w for w in writes if w.port == "data"])
        self.logger.info("reported: %s", found)
        b, e = cbuf.bank_entry(int(addrs[i]))
        assert found == [] or any(f"bank {b} entry {e} half {k // 64}" in f for f in found), found
        assert not found, f"{layer.name}: {found[0]}"

    async def body(self) -> None:
        await self.check_layer(feature_layer("feature_c200", self.rng, 200, 4, 8), new_split=True)


@pyuvm.test(timeout_time=20, timeout_unit="ms")
class BackToBack(CdmaTestBase):
    """Feature layers back to back through both register groups on one data bank and one weight bank: each layer
    continues where the previous one ended, wrapping around the 256 entries; then a layer on two data banks (a new
    bank split: the pending handshake restarts both buffers at entry 0). Each layer draws memory timing knobs, used
    when KNOBS=random (run nvdla_cdma/random; quiet in nvdla_cdma/directed)."""

    async def body(self) -> None:
        shapes: list[tuple[int, int, int, type]] = [(200, 4, 8, np.int8), (48, 5, 6, np.int16), (40, 9, 11, np.int8)]
        shapes += [(130, 3, 13, np.int8), (96, 4, 16, np.float16), (33, 7, 5, np.int8)]
        for i, (c, h, w, dt) in enumerate(shapes):
            layer = feature_layer(f"b2b_{i}", self.rng, c, h, w, dt, data_banks=1, weight_banks=1, group=i % 2)
            await self.check_layer(layer, new_split=i == 0, knobs=random_knobs(self.rng))
        last = feature_layer("new_split", self.rng, 64, 3, 9, np.int8, data_banks=2, weight_banks=1, group=0)
        await self.check_layer(last, new_split=True)
        stats = self.bench.csc.stats
        self.logger.info("sequencer stand-in: %s", stats)
        assert stats["dat_pending"] == 2 and stats["wt_pending"] == 2, stats


def count() -> int:
    """COUNT: the random layers of a test (default 6)."""
    return int(os.getenv("COUNT", "").strip() or 6)


def closing_count(converter: bool) -> int:
    """Layers of an image test: COUNT, and at least the format x converter bins its sequence can reach (the 28
    placed formats with the converter off; with it on, each of them with one offset and with a mean), so that one
    run closes the cross (the sequence picks unhit bins first: sequences.pick)."""
    return max(count(), len(PLACED_FORMATS) * len(CONVERTER_ON if converter else CONVERTER_OFF))


@pyuvm.test(timeout_time=100, timeout_unit="ms")
class RandomImages(CdmaTestBase):
    """Random image layers back to back on two data banks (sequences.ImageLayerSeq, converter off: raw components
    at their own width: int8, int16 or fp16): a placed format not run yet (coverage-driven; every one in a run),
    widths 1 to 150, heights 1 to 4, random x offsets, MCIF or CVIF; COUNT layers, at least one per format."""

    async def body(self) -> None:
        await ImageLayerSeq("img", self.rng, closing_count(False)).start(self.seqr)


@pyuvm.test(timeout_time=200, timeout_unit="ms")
class RandomConvertedImages(CdmaTestBase):
    """Random image layers with the input converter on (sequences.ImageLayerSeq, converter on: random output
    precision, offset, scale, truncation, sign override, per-channel mean or not), coverage-driven over format x
    converter and precision x converter; COUNT layers, at least one per (format, offset or mean). The expected
    bytes are the pixel model's converter (models.pixel_desc / models.nvdla.pixel.input_convert)."""

    async def body(self) -> None:
        await ImageLayerSeq("cvt", self.rng, closing_count(True), converter=True).start(self.seqr)


@pyuvm.test(timeout_time=50, timeout_unit="ms")
class RandomFeatures(CdmaTestBase):
    """COUNT (default 6) random feature (DC) layers back to back (sequences.FeatureLayerSeq) on as many data banks as
    the largest so far needs: int8, int16 or fp16, awkward channel counts (1 to 300: every tail of 1, 2 or 3 atoms
    and none, unhit tails first), widths 1 to 20, heights 1 to 6, MCIF or CVIF; the wrap around the data buffer and
    new bank splits on the way."""

    async def body(self) -> None:
        await FeatureLayerSeq("dc", self.rng, count()).start(self.seqr)


@pyuvm.test(timeout_time=10, timeout_unit="ms")
class SemiPlanarObserved(CdmaTestBase):
    """Where a 3-channel (semi-planar N444) pixel lands is not in NVIDIA's documents, so the placement model refuses
    it (``cbuf.image_channels``). This test records what the RTL does with one T_Y8___U8V8_N444 layer (converter
    off) and which reading of the documents it matches: Y, U, V packed at 3 bytes a pixel, or padded to 4 channels
    (a zero 4th) as the 4-channel formats are (docs/nvidia_cdma.md, Findings): it is the first, and the test fails
    when that changes."""

    async def body(self) -> None:
        # 32 pixels: one entry a line in both readings (96 or 128 bytes), so D_ENTRY_PER_SLICE is the same
        layer = image_layer("n444", self.rng, "T_Y8___U8V8_N444", 2, 32, data_banks=2, weight_banks=1, eps=1)
        conv = np.asarray(layer.pixel_descriptor().convert(layer.tensor), np.int8)  # (H, W, 3): Y, U, V
        readings = {"3 bytes a pixel": conv, "padded to 4 channels": np.concatenate([conv, 0 * conv[..., :1]], -1)}
        writes = await self.bench.run_layer(layer)
        data = [w for w in writes if w.port == "data"]
        got = {w.addr for w in data}
        self.logger.info("N444: %d data writes to entries %s", len(data), sorted(got))
        matched = []
        for what, px in readings.items():
            flat = px.reshape(px.shape[0], -1).view(np.uint8)
            eps = -(-flat.shape[1] // cbuf.ENTRY_BYTES)
            ent = np.zeros((px.shape[0], eps * cbuf.ENTRY_BYTES), np.uint8)
            ok = np.zeros_like(ent, bool)
            ent[:, : flat.shape[1]], ok[:, : flat.shape[1]] = flat, True
            shape = (px.shape[0], eps, cbuf.ENTRY_BYTES)
            exp = cbuf.place((ent.reshape(shape), ok.reshape(shape)), cbuf.data_buffer(2))
            found = problems("data", exp[:3], data)
            self.logger.info("N444 read as %s (%d entries a slice): %s", what, eps, found[:3] or "every byte matches")
            if not found:
                matched.append(what)
        assert matched == ["3 bytes a pixel"], f"the RTL's N444 placement changed: it matches {matched or 'neither'}"


@pyuvm.test(timeout_time=20, timeout_unit="ms")
class MultiBatchObserved(CdmaTestBase):
    """Where the batches of a multi-batch DC layer (D_BATCH_NUMBER, D_BATCH_STRIDE from models.nvdla.feature.info)
    land is not in NVIDIA's documents (the unit description says only that the atoms of the batches are "loaded
    interlaced" for the atomic operations; D_ENTRY_PER_SLICE is one slice of one cube), so the placement model does
    not place them. This test records which reading the RTL matches, with each batch's slices from
    ``cbuf.feature_slices``: batch after batch, slice h of every batch in turn, or entry by entry across the
    batches. It is the second, for a full 128-byte group a pixel (int8 C=128, 3 batches) and for pixel pairs sharing
    an entry (int16 C=24, 2 batches, the second layer continuing in the buffer); the test fails when that changes
    (docs/nvidia_cdma.md, Findings)."""

    async def body(self) -> None:
        start = 0
        shapes = [("batch3_int8", (3, 128, 2, 5), np.int8), ("batch2_int16", (2, 24, 3, 7), np.int16)]
        for i, (name, (n, c, h, w), dt) in enumerate(shapes):
            half = 1 << (8 * np.dtype(dt).itemsize - 1)
            cube = self.rng.integers(-half, half, (n, c, h, w)).astype(dt)
            per = [cbuf.feature_slices(cube[b]) for b in range(n)]  # each (H, eps, 128)
            eps = per[0][0].shape[1]
            data, ok = np.stack([p[0] for p in per]), np.stack([p[1] for p in per])  # (N, H, eps, 128)
            readings = {
                "batch after batch": (data, ok),
                "slice h of every batch in turn": (data.transpose(1, 0, 2, 3), ok.transpose(1, 0, 2, 3)),
                "entry by entry across the batches": (data.transpose(1, 2, 0, 3), ok.transpose(1, 2, 0, 3)),
            }
            layer = feature_layer(name, self.rng, c, h, w, dt, data_banks=2, weight_banks=1, eps=eps, group=i)
            layer.tensor = cube  # (N, C, H, W): memory and registers from models.nvdla.feature
            writes = await self.bench.run_layer(layer)
            data_w = [wr for wr in writes if wr.port == "data"]
            self.logger.info("%s: %d data writes to %d entries", name, len(data_w), len({wr.addr for wr in data_w}))
            matched = []
            for what, (d, v) in readings.items():
                slices = (d.reshape(-1, eps, cbuf.ENTRY_BYTES), v.reshape(-1, eps, cbuf.ENTRY_BYTES))
                found = problems("data", cbuf.place(slices, cbuf.data_buffer(2), start)[:3], data_w)
                self.logger.info("%s read as %s: %s", name, what, found[:3] or "every byte matches")
                if not found:
                    matched.append(what)
            assert matched == ["slice h of every batch in turn"], (
                f"{name}: the RTL's batch placement changed: {matched}"
            )
            start += n * h * eps


@pyuvm.test(timeout_time=20, timeout_unit="ms")
class WinogradLayers(CdmaTestBase):
    """Winograd layers (D_MISC_CFG.CONV_MODE WINOGRAD, stride 1) back to back: int8 C=40 8 x 4; int16 C=64 8 x 8;
    int16 C=8 6 x 4 with one padding pixel left and right; fp16 C=4 4 x 4 padded 1 on top and 3 below; int8
    C=96 (3 atoms) 5 x 7 padded 2 left 1 right 1 top 0 below; a random pad value each. The data from
    models.nvdla.feature and the weights from the Winograd weight model (nvdla.weight.winograd), placed by
    models.nvdla.cbuf (winograd_slices: 4 x 4 tiles of 8 channel bytes an entry; weights raw)."""

    async def body(self) -> None:
        shapes = [
            (40, 4, 8, np.int8, (0, 0, 0, 0)),
            (64, 8, 8, np.int16, (0, 0, 0, 0)),
            (8, 4, 6, np.int16, (1, 1, 0, 0)),
            (4, 4, 4, np.float16, (0, 0, 1, 3)),
            (96, 7, 5, np.int8, (2, 1, 1, 0)),
        ]
        for i, (c, h, w, dt, pad) in enumerate(shapes):
            layer = winograd_layer(f"wg_{i}_c{c}", self.rng, c, h, w, dt, data_banks=2, weight_banks=2, group=i % 2)
            layer.pad, layer.pad_value = pad, int(self.rng.integers(0, 1 << 16))
            await self.check_layer(layer, new_split=i == 0)
