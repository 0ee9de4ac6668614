"""The layers NVIDIA's convolution DMA is given, and what each must leave in the convolution buffer, from the
models only: the memory images from ``models.nvdla.feature`` / ``models.nvdla.pixel`` (and the converter), the
register values from their ``info()``, the buffer placement from ``models.nvdla.cbuf``.

A layer holds its data (a feature cube or an image) and a dense weight surface (raw bytes, a whole number of
128-byte entries: the weight buffer receives them in address order, ``models.nvdla.cbuf`` docstring).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from dlaverif.models import pixel_desc
from dlaverif.models.nvdla import cbuf, feature, pixel
from dlaverif.models.nvdla.weights import winograd as wg_weights
from dlaverif.thirdparty.nvdla_rdl import RdlMap

GAP = 256  # bytes between the surfaces of a layer (more than the memory agent's guard band)
PRECISION = {np.dtype(np.int8): "INT8", np.dtype(np.int16): "INT16", np.dtype(np.float16): "FP16"}
#: a precision's name (the converter's output, a feature cube's) and its element type
DTYPES: dict[str, type] = {"int8": np.int8, "int16": np.int16, "fp16": np.float16}


@dataclass
class Expected:
    """What one layer leaves in the buffer: per port, the CBUF address of each entry written (in order), its bytes
    and the mask of the bytes the models define."""

    data: tuple[np.ndarray, np.ndarray, np.ndarray]  # addresses, (n, 128) bytes, (n, 128) valid
    weight: tuple[np.ndarray, np.ndarray, np.ndarray]
    data_next: int  # the data buffer entry where the next layer starts
    weight_next: int


@dataclass
class Layer:
    """One hardware layer of the CDMA (DC or image input), dense weights."""

    name: str
    kind: str  # "feature" or "image"
    tensor: np.ndarray  # feature: (C, H, W) int8/int16/float16; image: (H, W, channels) raw components
    pixel_format: str = ""  # image: the T_* name
    x_offset: int = 0  # image: PIXEL_X_OFFSET (pixels before the ROI in its first 32 bytes)
    cvt: dict = field(default_factory=dict)  # image: the converter (models.pixel_desc.descriptor's keywords)
    eps: Optional[int] = None  # entries per slice where the placement model gives none (an observation test's)
    precision: str = "int8"  # image: the converter's output precision
    data_base: int = 0x10000
    weight_base: int = 0x80000
    data_ram: str = "MCIF"
    weight_ram: str = "MCIF"
    data_banks: int = 4
    weight_banks: int = 2
    kernels: int = 16
    weights: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint8))
    group: int = 0
    pad: tuple[int, int, int, int] = (0, 0, 0, 0)  # zero padding left, right, top, bottom (D_ZERO_PADDING)
    pad_value: int = 0  # D_ZERO_PADDING_VALUE.PAD_VALUE (16 bits)
    conv_mode: str = "DIRECT"  # D_MISC_CFG.CONV_MODE: DIRECT or WINOGRAD (a feature layer)

    # ------------------------------------------------------------------ what the models say
    def memory(self) -> list[tuple[int, np.ndarray]]:
        """(base, bytes) of every surface the layer reads."""
        if self.kind == "feature":
            return [(self.data_base, feature.pack(self.tensor).data()), (self.weight_base, self.weights)]
        img = pixel.pack(pixel.get(self.pixel_format), self.tensor, x_offset=self.x_offset)
        d = self.pixel_descriptor()
        bases = (d.base0, d.base1)
        return [(bases[i], s.data) for i, s in enumerate(img.surfaces)] + [(self.weight_base, self.weights)]

    def info(self) -> dict:
        if self.kind == "feature":
            return feature.info(self.tensor.shape, self.tensor.dtype)
        return pixel.info(pixel.get(self.pixel_format), self.tensor.shape, self.tensor.dtype, x_offset=self.x_offset)

    def out_dtype(self) -> np.dtype:
        if self.kind == "feature":
            return self.tensor.dtype
        return np.dtype(DTYPES[self.precision])

    def slices(self) -> tuple[np.ndarray, np.ndarray]:
        if self.kind == "feature" and self.conv_mode == "WINOGRAD":
            return cbuf.winograd_slices(self.tensor, self.pad, self.pad_value)
        if self.kind == "feature":
            return cbuf.feature_slices(self.tensor)
        converted = self.pixel_descriptor().convert(self.tensor)
        return cbuf.image_slices(np.asarray(converted, self.out_dtype()), self.pad, self.pad_value)

    def pixel_descriptor(self) -> pixel_desc.PixelDescriptor:
        """The image's converter and ROI as the pixel model describes them (converter off unless ``cvt`` says)."""
        fmt = pixel.get(self.pixel_format)
        # plane 1 a gap after plane 0: the memory's guard bands around each surface must not cover the other
        info = self.info()
        base1 = self.data_base + info["surfaces"][0]["bytes"] + GAP if fmt.semi_planar else None
        return pixel_desc.descriptor(
            fmt,
            self.tensor.shape,
            self.tensor.dtype,
            base=self.data_base,
            base1=base1,
            x_offset=self.x_offset,
            out_precision=self.precision,
            **{"cvt_en": False, **self.cvt},
        )

    def entries_per_slice(self) -> int:
        """D_ENTRY_PER_SLICE's count: one slice's entries (Winograd: one padded line's, a band holding 4)."""
        if self.eps is not None:
            return self.eps
        if self.conv_mode == "WINOGRAD":
            c, _, w = self.tensor.shape
            return cbuf.winograd_entries_per_slice(self.pad[0] + w + self.pad[1], c, self.tensor.dtype.itemsize)
        return int(self.slices()[0].shape[1])

    def expected(self, data_start: int = 0, weight_start: int = 0) -> Expected:
        d_addr, d_data, d_valid, d_next = cbuf.place(self.slices(), cbuf.data_buffer(self.data_banks), data_start)
        w_addr, w_data, w_valid, w_next = cbuf.place(
            cbuf.surface_entries(self.weights), cbuf.weight_buffer(self.data_banks, self.weight_banks), weight_start
        )
        return Expected((d_addr, d_data, d_valid), (w_addr, w_data, w_valid), d_next, w_next)

    # ------------------------------------------------------------------ NVIDIA's registers
    def registers(self, r: RdlMap) -> dict[str, int]:
        """The layer's register values, every field by name through NVIDIA's map, every value from a model."""
        inf = self.info()
        regs = inf["registers"]
        e = self.out_dtype()
        proc = r.enum("D_MISC_CFG", "PROC_PRECISION", PRECISION[e])
        image = self.kind == "image"
        # IN_PRECISION: the data in memory (an image: its format's precision class, Table 33, which info gives);
        # PROC_PRECISION: what goes into the buffer (the converter's output)
        prec = r.enum("D_MISC_CFG", "IN_PRECISION", inf["precision"].upper()) if image else proc
        eps = self.entries_per_slice()
        out = {
            "D_MISC_CFG": r.value(
                "D_MISC_CFG",
                CONV_MODE=r.enum("D_MISC_CFG", "CONV_MODE", self.conv_mode),
                IN_PRECISION=prec,
                PROC_PRECISION=proc,
            ),
            "D_DATAIN_FORMAT": r.value(
                "D_DATAIN_FORMAT",
                DATAIN_FORMAT=r.enum("D_DATAIN_FORMAT", "DATAIN_FORMAT", "PIXEL" if image else "FEATURE"),
                PIXEL_FORMAT=regs.get("PIXEL_FORMAT", 0),
                PIXEL_MAPPING=regs.get("PIXEL_MAPPING", 0),
                PIXEL_SIGN_OVERRIDE=int(self.pixel_descriptor().sign_override) if image else 0,
            ),
            "D_DATAIN_SIZE_0": r.value("D_DATAIN_SIZE_0", DATAIN_WIDTH=regs["WIDTH"], DATAIN_HEIGHT=regs["HEIGHT"]),
            "D_DATAIN_SIZE_1": r.value("D_DATAIN_SIZE_1", DATAIN_CHANNEL=regs["CHANNEL"]),
            "D_DATAIN_SIZE_EXT_0": r.value(
                "D_DATAIN_SIZE_EXT_0",
                DATAIN_WIDTH_EXT=regs["WIDTH"] + self.pad[0] + self.pad[1],
                DATAIN_HEIGHT_EXT=regs["HEIGHT"] + self.pad[2] + self.pad[3],
            ),
            "D_PIXEL_OFFSET": r.value(
                "D_PIXEL_OFFSET",
                PIXEL_X_OFFSET=regs.get("PIXEL_X_OFFSET", 0),
                PIXEL_Y_OFFSET=regs.get("PIXEL_Y_OFFSET", 0),
            ),
            "D_DAIN_RAM_TYPE": r.value(
                "D_DAIN_RAM_TYPE", DATAIN_RAM_TYPE=r.enum("D_DAIN_RAM_TYPE", "DATAIN_RAM_TYPE", self.data_ram)
            ),
            "D_DAIN_ADDR_HIGH_0": r.value("D_DAIN_ADDR_HIGH_0", DATAIN_ADDR_HIGH_0=self.data_base >> 32),
            "D_DAIN_ADDR_LOW_0": r.value("D_DAIN_ADDR_LOW_0", DATAIN_ADDR_LOW_0=self.data_base & 0xFFFFFFFF),
            "D_LINE_STRIDE": r.value("D_LINE_STRIDE", LINE_STRIDE=regs["LINE_STRIDE"]),
            **(self.plane1_registers(r) if "LINE_UV_STRIDE" in regs else {}),
            "D_SURF_STRIDE": r.value("D_SURF_STRIDE", SURF_STRIDE=regs.get("SURF_STRIDE", 0)),
            "D_DAIN_MAP": r.value(
                "D_DAIN_MAP", LINE_PACKED=regs.get("LINE_PACKED", 0), SURF_PACKED=regs.get("SURF_PACKED", 0)
            ),
            "D_BATCH_NUMBER": r.value("D_BATCH_NUMBER", BATCHES=regs.get("BATCHES", 0)),
            "D_BATCH_STRIDE": r.value("D_BATCH_STRIDE", BATCH_STRIDE=regs.get("BATCH_STRIDE", 0)),
            "D_ENTRY_PER_SLICE": r.value("D_ENTRY_PER_SLICE", ENTRIES=cbuf.entries_register(eps)),
            "D_FETCH_GRAIN": r.value("D_FETCH_GRAIN", GRAINS=0),
            **self.weight_registers(r),
            **(self.converter_registers(r) if image else {}),
            "D_CONV_STRIDE": r.value("D_CONV_STRIDE", CONV_X_STRIDE=0, CONV_Y_STRIDE=0),
            "D_ZERO_PADDING": r.value(
                "D_ZERO_PADDING",
                **dict(zip(("PAD_LEFT", "PAD_RIGHT", "PAD_TOP", "PAD_BOTTOM"), self.pad)),
            ),
            "D_ZERO_PADDING_VALUE": r.value("D_ZERO_PADDING_VALUE", PAD_VALUE=self.pad_value),
            "D_BANK": r.value("D_BANK", DATA_BANK=self.data_banks - 1, WEIGHT_BANK=self.weight_banks - 1),
        }
        return out

    def weight_registers(self, r: RdlMap) -> dict[str, int]:
        """The weight fields of a dense surface of raw bytes: ``kernels`` kernels of equal size, read from MCIF or
        CVIF at ``weight_base`` (a weight layer of the weight models overrides it: weight_layers.py)."""
        bpk = self.weights.size // self.kernels
        return {
            "D_WEIGHT_FORMAT": r.value(
                "D_WEIGHT_FORMAT", WEIGHT_FORMAT=r.enum("D_WEIGHT_FORMAT", "WEIGHT_FORMAT", "UNCOMPRESSED")
            ),
            "D_WEIGHT_SIZE_0": r.value("D_WEIGHT_SIZE_0", BYTE_PER_KERNEL=bpk - 1),
            "D_WEIGHT_SIZE_1": r.value("D_WEIGHT_SIZE_1", WEIGHT_KERNEL=self.kernels - 1),
            "D_WEIGHT_RAM_TYPE": r.value(
                "D_WEIGHT_RAM_TYPE", WEIGHT_RAM_TYPE=r.enum("D_WEIGHT_RAM_TYPE", "WEIGHT_RAM_TYPE", self.weight_ram)
            ),
            "D_WEIGHT_ADDR_HIGH": r.value("D_WEIGHT_ADDR_HIGH", WEIGHT_ADDR_HIGH=self.weight_base >> 32),
            "D_WEIGHT_ADDR_LOW": r.value("D_WEIGHT_ADDR_LOW", WEIGHT_ADDR_LOW=self.weight_base & 0xFFFFFFFF),
            "D_WEIGHT_BYTES": r.value("D_WEIGHT_BYTES", WEIGHT_BYTES=self.weights.size),
        }

    def plane1_registers(self, r: RdlMap) -> dict[str, int]:
        """The chroma plane of a semi-planar image: its base (the pixel model's, after plane 0) and line stride."""
        d = self.pixel_descriptor()
        return {
            "D_DAIN_ADDR_HIGH_1": r.value("D_DAIN_ADDR_HIGH_1", DATAIN_ADDR_HIGH_1=d.base1 >> 32),
            "D_DAIN_ADDR_LOW_1": r.value("D_DAIN_ADDR_LOW_1", DATAIN_ADDR_LOW_1=d.base1 & 0xFFFFFFFF),
            "D_LINE_UV_STRIDE": r.value("D_LINE_UV_STRIDE", UV_LINE_STRIDE=d.line_stride1),
        }

    def converter_registers(self, r: RdlMap) -> dict[str, int]:
        """D_CVT_* and D_MEAN_* from the pixel model's descriptor (signed 16-bit fields as two's complement)."""
        d = self.pixel_descriptor()
        on = "ENABLE" if d.cvt_en else "DISABLE"
        m = [v & 0xFFFF for v in d.mean]
        return {
            "D_CVT_CFG": r.value("D_CVT_CFG", CVT_EN=r.enum("D_CVT_CFG", "CVT_EN", on), CVT_TRUNCATE=d.cvt_truncate),
            "D_CVT_OFFSET": r.value("D_CVT_OFFSET", CVT_OFFSET=d.cvt_offset & 0xFFFF),
            "D_CVT_SCALE": r.value("D_CVT_SCALE", CVT_SCALE=d.cvt_scale & 0xFFFF),
            "D_MEAN_FORMAT": r.value(
                "D_MEAN_FORMAT",
                MEAN_FORMAT=r.enum("D_MEAN_FORMAT", "MEAN_FORMAT", "ENABLE" if d.mean_en else "DISABLE"),
            ),
            "D_MEAN_GLOBAL_0": r.value("D_MEAN_GLOBAL_0", MEAN_RY=m[0], MEAN_GU=m[1]),
            "D_MEAN_GLOBAL_1": r.value("D_MEAN_GLOBAL_1", MEAN_BV=m[2], MEAN_AX=m[3]),
        }


def dense_weights(rng: np.random.Generator, kernels: int, bytes_per_kernel: int) -> np.ndarray:
    """Random raw bytes of a dense weight surface of ``kernels`` kernels (the whole surface a multiple of 128 bytes,
    as the weight formats pad it: clarifications 3)."""
    n = kernels * bytes_per_kernel
    assert n % cbuf.ENTRY_BYTES == 0, f"{kernels} kernels of {bytes_per_kernel} bytes are not whole entries"
    return rng.integers(0, 256, n, dtype=np.uint8)


def random_cube(rng: np.random.Generator, c: int, h: int, w: int, dtype: np.dtype) -> np.ndarray:
    """A random (C, H, W) feature cube: normal fp16 values, or integers over the whole range of an int type."""
    if dtype == np.float16:
        return rng.standard_normal((c, h, w)).astype(np.float16)
    half = 1 << (8 * dtype.itemsize - 1)
    return rng.integers(-half, half, (c, h, w)).astype(dtype)


def feature_layer(
    name: str, rng: np.random.Generator, c: int, h: int, w: int, dtype: type = np.int8, **kw: object
) -> Layer:
    """A DC layer of a random (C, H, W) cube and 16 kernels of ``8 * ceil(C * e / 8)`` random bytes (whole
    entries)."""
    dt = np.dtype(dtype)
    t = random_cube(rng, c, h, w, dt)
    kernels = 16
    bpk = 8 * -(-c * dt.itemsize // 8)
    return Layer(name, "feature", t, weights=dense_weights(rng, kernels, bpk), kernels=kernels, **kw)  # type: ignore[arg-type]


#: the converter's output precision with the converter off: the component's own width (models.nvdla.pixel)
RAW_PRECISION = {"int8": "int8", "int16": "int16", "fp16": "fp16"}


def winograd_layer(
    name: str, rng: np.random.Generator, c: int, h: int, w: int, dtype: type = np.int8, **kw: object
) -> Layer:
    """A Winograd layer (stride 1) of a random (C, H, W) cube and 16 random 3x3 kernels laid out by the Winograd
    weight model (``nvdla.weight.winograd``: transformed, 4x4x4 cubes, padded to 128 bytes)."""
    layer = feature_layer(name, rng, c, h, w, dtype, **kw)
    dt = np.dtype(dtype)
    if dt == np.float16:
        g = rng.standard_normal((16, c, 3, 3)).astype(np.float16)
    else:
        g = rng.integers(-20, 21, (16, c, 3, 3)).astype(dt)
    layer.conv_mode = "WINOGRAD"
    layer.weights = np.asarray(wg_weights.pack(g).surfaces[0].data, np.uint8)
    return layer


def image_layer(name: str, rng: np.random.Generator, fmt: str, h: int, w: int, **kw: object) -> Layer:
    """An image layer of random raw components of ``fmt`` (its first dtype: uint8, uint16 or float16; packed 10-bit
    fields within 10 bits, alpha within 2), converter off, 16 kernels of 128 random bytes."""
    f = pixel.get(fmt)
    shape = (h, w, f.channels)
    if f.fp16:
        t = rng.standard_normal(shape).astype(np.float16)
    elif f.packed10:
        t = rng.integers(0, np.array([1024, 1024, 1024, 4]), shape).astype(np.uint16)
    else:
        dt = np.dtype(f.dtypes[0])
        t = rng.integers(0, 1 << (8 * dt.itemsize), shape).astype(dt)
    return Layer(
        name,
        "image",
        t,
        pixel_format=fmt,
        precision=RAW_PRECISION[f.precision],
        weights=dense_weights(rng, 16, 128),
        kernels=16,
        **kw,  # type: ignore[arg-type]
    )


def problems(port: str, want: tuple[np.ndarray, np.ndarray, np.ndarray], writes: list, limit: int = 8) -> list[str]:
    """Byte-for-byte comparison of a layer's writes on ``port`` with the expected entries: every expected byte
    written with its value, no write outside the expected entries. Each problem names bank, entry, half, bytes."""
    addrs, data, valid = want
    got = np.zeros((cbuf.ENTRIES, cbuf.ENTRY_BYTES), np.uint8)
    written = np.zeros((cbuf.ENTRIES, cbuf.ENTRY_BYTES), bool)
    for wr in writes:
        got[wr.addr][wr.mask] = wr.data[wr.mask]
        written[wr.addr] |= wr.mask
    out: list[str] = []
    expected_at = set(int(a) for a in addrs)
    for a in sorted({wr.addr for wr in writes} - expected_at)[:limit]:
        out.append(f"{port}: write to {cbuf.where(a)}: no byte of this layer belongs there")
    for i, a in enumerate(addrs):
        a = int(a)
        missing = valid[i] & ~written[a]
        wrong = valid[i] & written[a] & (got[a] != data[i])
        for what, where in (("not written", missing), ("differs", wrong)):
            idx = np.flatnonzero(where)
            if idx.size == 0:
                continue
            for half in sorted({int(k) // cbuf.HALF_BYTES for k in idx}):
                ks = [int(k) for k in idx if int(k) // cbuf.HALF_BYTES == half]
                lo = ks[0] % cbuf.HALF_BYTES
                b, e = cbuf.bank_entry(a)
                detail = ""
                if what == "differs":
                    g, x = got[a, ks[:4]].tobytes().hex(), data[i, ks[:4]].tobytes().hex()
                    detail = f": got {g} expected {x} (first 4)"
                out.append(
                    f"{port}: entry #{i} bank {b} entry {e} half {half} bytes {lo}..{ks[-1] % cbuf.HALF_BYTES} "
                    f"({len(ks)} bytes) {what}{detail}"
                )
                if len(out) >= limit:
                    return out
    return out


def summary(layer: Layer, exp: Optional[Expected] = None) -> str:
    e = exp or layer.expected()
    return (
        f"{layer.name}: {layer.kind} {layer.pixel_format or layer.tensor.dtype} shape {layer.tensor.shape}, "
        f"{layer.entries_per_slice()} entries/slice, {len(e.data[0])} data entries, {len(e.weight[0])} weight entries"
        + (f", {layer.conv_mode.lower()}" if layer.conv_mode != "DIRECT" else "")
        + (f", padding (l, r, t, b) {layer.pad} of 0x{layer.pad_value:04x}" if any(layer.pad) else "")
    )
