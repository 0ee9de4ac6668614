"""The CDMA block's random layers as pyuvm sequences: one item a layer (:class:`LayerItem`), run by
:class:`LayerDriver` through the test's ``check_layer`` (tests.CdmaTestBase).

* :class:`ImageLayerSeq`: image layers of the placed pixel formats, the input converter an option (off: raw
  components at their own width; on: random output precision, offset, scale, truncation, sign override, and the
  per-channel mean or not). Coverage-driven: each layer's format, converter and output precision are picked from
  the bins of ``nvdla_cdma.format_x_converter`` and ``nvdla_cdma.precision_x_converter`` not hit yet in this
  simulation (coverage.unhit), so the sequence closes the format x converter cross it can reach.
* :class:`FeatureLayerSeq`: feature cubes, int8/int16/fp16, awkward channel counts (every tail of 0-3 atoms,
  the unhit ones first), direct (DC) or Winograd with padding, wrap and new bank splits on the way.

Every layer draws memory timing knobs (used where the run sets KNOBS=random) and a register group.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from pyuvm import uvm_driver, uvm_sequence, uvm_sequence_item

from dlaverif.models.nvdla import cbuf, pixel
from dlaverif.platform.knobs import Knobs, random_knobs

from . import coverage
from .coverage import PLACED_FORMATS
from .layers import DTYPES, Layer, feature_layer, image_layer, winograd_layer

#: the converter bins a sequence with the converter on aims at, and the one with it off
CONVERTER_ON = ("on", "mean")
CONVERTER_OFF = ("off",)
#: the output precisions the precision tables allow with the converter on (integer pixels; fp16 pixels: fp16)
OUT_PRECISIONS = tuple(DTYPES)
#: right padding kept within this many bytes of the format's pixels: NVIDIA's RTL allows at most 9 read bursts of
#: right padding (its own assertion, NV_NVDLA_CDMA_IMG_ctrl.v:5206), which the documents do not say; 8-byte pixels
#: with 59 or more padding pixels break it (docs/nvidia_cdma.md, Findings)
RIGHT_PAD_BYTES = 224
#: the feature sequence's weight banks: room for the largest Winograd surface it draws (16 kernels of 3x3 int16,
#: C=300: 1216 entries), so that only the data banks change the bank split
WEIGHT_BANKS = 5


class LayerItem(uvm_sequence_item):
    """One layer for the DUT: the layer, whether it starts a new bank split (both buffers restart at entry 0), its
    memory timing; after the driver: the error its check raised, if any."""

    def __init__(self, name: str, layer: Layer, new_split: bool, knobs: Optional[Knobs]) -> None:
        super().__init__(name)
        self.layer, self.new_split, self.knobs = layer, new_split, knobs
        self.error: Optional[BaseException] = None


class LayerDriver(uvm_driver):
    """Runs each item with its parent test's ``check_layer`` (program, run, compare every byte, sample coverage);
    an error is handed back on the item, and :meth:`LayerSeqBase.send` raises it in the test's own coroutine."""

    async def run_phase(self) -> None:
        test: Any = self.get_parent()
        while True:
            item = await self.seq_item_port.get_next_item()
            try:
                await test.check_layer(item.layer, item.new_split, item.knobs)
            except Exception as e:  # handed to the sequence, which fails the test with it
                item.error = e
            self.seq_item_port.item_done()


class LayerSeqBase(uvm_sequence):
    """``count`` random layers from ``rng``; :meth:`send` runs one and raises its check's error."""

    def __init__(self, name: str, rng: np.random.Generator, count: int) -> None:
        super().__init__(name)
        self.rng, self.count = rng, count

    async def send(self, layer: Layer, new_split: bool) -> None:
        item = LayerItem(layer.name, layer, new_split, random_knobs(self.rng))
        await self.start_item(item)
        await self.finish_item(item)
        if item.error is not None:
            raise item.error


def pick(rng: np.random.Generator, candidates: list[tuple[str, str, str]]) -> tuple[str, str, str]:
    """The (format, converter, precision) to run next: of ``candidates``, one that hits the most bins not hit yet
    (format x converter, precision x converter, the format), ties broken at random."""
    fxc = set(coverage.unhit("nvdla_cdma.format_x_converter"))
    pxc = set(coverage.unhit("nvdla_cdma.precision_x_converter"))
    fmts = set(coverage.unhit("nvdla_cdma.pixel_format"))
    score = np.array([2 * ((f, c) in fxc) + ((p, c) in pxc) + (f in fmts) for f, c, p in candidates])
    best = np.flatnonzero(score == score.max())
    return candidates[int(rng.choice(best))]


def random_converter(rng: np.random.Generator, mean: bool) -> dict:
    """Random converter registers: offset, scale (signed 16-bit), truncate, sign override, and a mean per channel
    instead of the offset when ``mean``."""
    cvt: dict[str, object] = {
        "cvt_en": True,
        "sign_override": bool(rng.integers(0, 2)),
        "cvt_offset": int(rng.integers(-(1 << 15), 1 << 15)) if rng.random() < 0.3 else int(rng.integers(-300, 300)),
        "cvt_scale": int(rng.integers(-(1 << 15), 1 << 15)) if rng.random() < 0.3 else int(rng.integers(-8, 9)),
        "cvt_truncate": int(rng.integers(0, 64)) if rng.random() < 0.3 else int(rng.integers(0, 6)),
    }
    if mean:
        cvt["mean"] = [int(v) for v in rng.integers(-(1 << 15), 1 << 15, 4)]
    return cvt


class ImageLayerSeq(LayerSeqBase):
    """``count`` image layers back to back on two data banks, each a coverage-driven (format, converter, output
    precision) (:func:`pick`); converter off: widths 1 to 150, heights 1 to 4; on: widths 1 to 99, heights 1 to 3;
    random x offsets, left/right padding of a random pad value (:meth:`padding`), MCIF or CVIF, the register groups
    in turn."""

    def __init__(self, name: str, rng: np.random.Generator, count: int, converter: bool = False) -> None:
        super().__init__(name, rng, count)
        self.converter = converter

    def candidates(self) -> list[tuple[str, str, str]]:
        out = []
        for fmt in PLACED_FORMATS:
            f = pixel.get(fmt)
            if not self.converter:
                out.append((fmt, "off", f.precision))
                continue
            for c in CONVERTER_ON:
                out += [(fmt, c, p) for p in (("fp16",) if f.fp16 else OUT_PRECISIONS)]
        return out

    def padding(self, fmt: pixel.PixelFormat) -> tuple[tuple[int, int, int, int], int]:
        """Left and right padding (the image engine's; an unhit ``nvdla_cdma.image_pad`` bin first): none, left
        (1-31 pixels), right (1-63 pixels, at most :data:`RIGHT_PAD_BYTES` of the format's pixels) or both, and a
        random 16-bit pad value."""
        side = str(self.rng.choice(coverage.unhit("nvdla_cdma.image_pad") or list(coverage.PAD_SIDES)))
        most_right = min(cbuf.MAX_PAD_RIGHT, RIGHT_PAD_BYTES // fmt.planes[0].bpp)
        left = int(self.rng.integers(1, cbuf.MAX_PAD_LEFT + 1)) if side in ("left", "both") else 0
        right = int(self.rng.integers(1, most_right + 1)) if side in ("right", "both") else 0
        return (left, right, 0, 0), int(self.rng.integers(0, 1 << 16))

    async def body(self) -> None:
        tag = "cvt" if self.converter else "img"
        for i in range(self.count):
            fmt, conv, precision = pick(self.rng, self.candidates())
            f = pixel.get(fmt)
            big = not self.converter
            layer = image_layer(
                f"{tag}_{i}_{fmt}" + (f"_{precision}" if self.converter else ""),
                self.rng,
                fmt,
                int(self.rng.integers(1, 5 if big else 4)),
                int(self.rng.integers(1, 151 if big else 100)),
                x_offset=int(self.rng.integers(0, f.x_offset_max + 1)),
                data_banks=2,
                weight_banks=1,
                group=i % 2,
            )
            ram = str(self.rng.choice(["MCIF", "CVIF"]))
            layer.data_ram = layer.weight_ram = ram
            layer.pad, layer.pad_value = self.padding(f)
            if self.converter:
                layer.precision, layer.cvt = precision, random_converter(self.rng, conv == "mean")
                self.logger.info("%s: converter %s", layer.name, layer.cvt)
            if any(layer.pad):
                self.logger.info("%s: padding %s of 0x%04x", layer.name, layer.pad[:2], layer.pad_value)
            await self.send(layer, new_split=i == 0)


class FeatureLayerSeq(LayerSeqBase):
    """``count`` feature layers back to back on as many data banks as the largest so far needs: int8, int16 or fp16,
    channel counts 1 to 300 with a channel tail of 0-3 atoms (an unhit tail first); direct (DC: widths 1 to 20,
    heights 1 to 6) or, one in three and an unhit mode first, Winograd (:meth:`winograd`); MCIF or CVIF; the wrap
    around the data buffer and new bank splits on the way."""

    def channels(self, dtype: type) -> int:
        """A channel count 1..300 whose tail (atoms of the last 128-byte group) is not hit yet, if any is left."""
        e = np.dtype(dtype).itemsize
        tails = coverage.unhit("nvdla_cdma.channel_tail") or [0, 1, 2, 3]
        tail = int(self.rng.choice(tails))
        atoms = [a for a in range(1, -(-300 * e // cbuf.ATOM_BYTES) + 1) if a % cbuf.ATOMS_PER_ENTRY == tail]
        a = int(self.rng.choice(atoms))
        per_atom = cbuf.ATOM_BYTES // e
        return int(self.rng.integers((a - 1) * per_atom + 1, min(a * per_atom, 300) + 1))

    def winograd(self, i: int, dt: type, c: int) -> Layer:
        """A Winograd layer (stride 1): padded sizes of 1-4 tiles of 4 across and 1-2 down, 0-3 padding pixels on
        each side (at least one real pixel), a random pad value."""
        wx, hx = 4 * int(self.rng.integers(1, 5)), 4 * int(self.rng.integers(1, 3))
        left, right = (int(v) for v in self.rng.integers(0, min(3, wx - 1) + 1, 2))
        top, bottom = (int(v) for v in self.rng.integers(0, min(3, hx - 1) + 1, 2))
        right, bottom = min(right, wx - 1 - left), min(bottom, hx - 1 - top)
        w, h = wx - left - right, hx - top - bottom
        layer = winograd_layer(f"wg_{i}_c{c}", self.rng, c, h, w, dt, weight_banks=WEIGHT_BANKS)
        layer.pad, layer.pad_value = (left, right, top, bottom), int(self.rng.integers(0, 1 << 16))
        return layer

    async def body(self) -> None:
        banks, fresh = 1, True
        for i in range(self.count):
            dt = DTYPES[str(self.rng.choice(list(DTYPES)))]
            c = self.channels(dt)
            mode = str(self.rng.choice(coverage.unhit("nvdla_cdma.conv_mode") or ["DIRECT", "DIRECT", "WINOGRAD"]))
            if mode == "WINOGRAD":
                layer = self.winograd(i, dt, c)
            else:
                h, w = int(self.rng.integers(1, 7)), int(self.rng.integers(1, 21))
                layer = feature_layer(f"dc_{i}_c{c}", self.rng, c, h, w, dt, weight_banks=WEIGHT_BANKS)
            layer.data_banks = banks
            data = layer.slices()[0]
            need = cbuf.banks_for(data.shape[0] * data.shape[1])  # programming guide: banks for the whole layer
            if need > banks:
                banks, fresh = need, True  # a new bank split
                layer.data_banks = banks
            ram = str(self.rng.choice(["MCIF", "CVIF"]))
            layer.data_ram, layer.weight_ram, layer.group = ram, ram, i % 2
            await self.send(layer, new_split=fresh)
            fresh = False
