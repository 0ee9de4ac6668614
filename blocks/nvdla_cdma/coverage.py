"""Functional coverage of the CDMA block: each layer whose buffer contents matched the models is sampled once
(``tests.CdmaTestBase.check_layer``), with where it started in the data buffer and its memory timing. Written to
``fcov_nvdla_cdma.xml`` in the run folder at the end of each test."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import numpy as np
from cocotb_coverage.coverage import CoverCross, CoverPoint, coverage_db, coverage_section

from dlaverif.models.nvdla import cbuf
from dlaverif.platform.knobs import Knobs

from .layers import PAD_SIDES, PLACED_FORMATS, Layer

XML = "fcov_nvdla_cdma.xml"
PRECISION = {"int8": "int8", "int16": "int16", "float16": "fp16"}  # a feature cube's dtype as a precision


def converter(layer: Layer) -> str:
    """off, on (one offset), or mean (per-channel means instead of the offset)."""
    if not layer.cvt.get("cvt_en", False):
        return "off"
    return "mean" if layer.cvt.get("mean") is not None else "on"


def channel_tail(layer: Layer) -> int:
    """Atoms of a feature pixel's last, shared channel group (0: whole 128-byte groups only)."""
    atoms = -(-layer.tensor.shape[0] * layer.tensor.dtype.itemsize // cbuf.ATOM_BYTES)
    return atoms % cbuf.ATOMS_PER_ENTRY


def pad_side(layer: Layer) -> str:
    """Which sides of an image line carry padding (D_ZERO_PADDING left / right)."""
    left, right = layer.pad[0] > 0, layer.pad[1] > 0
    return PAD_SIDES[left + 2 * right]


def timed(knobs: Optional[Knobs]) -> bool:
    """The layer ran under some memory timing (latency, request stalls or response gaps)."""
    return knobs is not None and (knobs.latency > 0 or knobs.ar_stall != "none" or knobs.r_gap != "none")


_cover = coverage_section(
    CoverPoint("nvdla_cdma.kind", xf=lambda lay, start, k: lay.kind, bins=["image", "feature"]),
    CoverPoint(
        "nvdla_cdma.pixel_format",
        xf=lambda lay, start, k: lay.pixel_format,
        bins=list(PLACED_FORMATS),
    ),
    CoverPoint(
        "nvdla_cdma.precision",
        xf=lambda lay, start, k: lay.precision if lay.kind == "image" else PRECISION[str(lay.tensor.dtype)],
        bins=["int8", "int16", "fp16"],
    ),
    CoverPoint("nvdla_cdma.converter", xf=lambda lay, start, k: converter(lay), bins=["off", "on", "mean"]),
    CoverPoint(
        "nvdla_cdma.channel_tail",
        xf=lambda lay, start, k: channel_tail(lay) if lay.kind == "feature" else None,
        bins=[0, 1, 2, 3],
    ),
    CoverPoint(
        "nvdla_cdma.wrap",
        xf=lambda lay, start, k: start + len(lay.expected(start).data[0]) > lay.data_banks * cbuf.BANK_ENTRIES,
        bins=[False, True],
    ),
    CoverPoint(
        "nvdla_cdma.conv_mode",
        xf=lambda lay, start, k: lay.conv_mode if lay.kind == "feature" else None,
        bins=["DIRECT", "WINOGRAD"],
    ),
    CoverPoint(
        "nvdla_cdma.image_pad",
        xf=lambda lay, start, k: pad_side(lay) if lay.kind == "image" else None,
        bins=list(PAD_SIDES),
    ),
    CoverPoint("nvdla_cdma.ram", xf=lambda lay, start, k: lay.data_ram, bins=["MCIF", "CVIF"]),
    CoverPoint("nvdla_cdma.group", xf=lambda lay, start, k: lay.group, bins=[0, 1]),
    CoverPoint("nvdla_cdma.timing", xf=lambda lay, start, k: timed(k), bins=[False, True]),
    CoverCross("nvdla_cdma.format_x_converter", items=["nvdla_cdma.pixel_format", "nvdla_cdma.converter"]),
    CoverCross("nvdla_cdma.precision_x_converter", items=["nvdla_cdma.precision", "nvdla_cdma.converter"]),
)


@_cover
def sample(layer: Layer, start: int, knobs: Optional[Knobs]) -> None:
    """One checked layer (``start``: its first data buffer entry) into the covergroups."""


def export(directory: Optional[Path] = None) -> Path:
    path = (directory or Path.cwd()) / XML
    coverage_db.export_to_xml(filename=str(path))
    return path


def summary() -> list[tuple[str, float]]:
    """(covergroup, percent) of the block's top-level covergroups."""
    return [
        (name, float(item.cover_percentage))
        for name, item in sorted(coverage_db.items())
        if name.startswith("nvdla_cdma.") and name.count(".") == 1
    ]


# ---------------------------------------------------------------------------------------------- weights


def density_of(kernels: np.ndarray) -> str:
    """The density class of a weight tensor: zero (no element kept), sparse (under half), dense, full; an element is
    kept when any of its bits is set (fp16 -0.0 is kept, as the sparse model keeps it)."""
    nz = float(np.count_nonzero(kernels.view(np.uint8 if kernels.itemsize == 1 else np.uint16)))
    frac = nz / kernels.size
    return "zero" if frac == 0 else "full" if frac == 1 else "sparse" if frac < 0.5 else "dense"


def density(layer: Any) -> str:
    """The density class of a weight layer's kernels (:func:`density_of`)."""
    return density_of(layer.kernel_tensor)


def kernel_groups(layer: Any) -> str:
    """one group, whole groups only, or a shorter last group."""
    kernels = layer.group_kernels()
    if len(kernels) == 1:
        return "one"
    return "whole" if kernels[-1] == kernels[0] else "partial_last"


def nan_case(layer: Any) -> str:
    """none (no NaN weight), kept (NaN weights, D_NAN_FLUSH_TO_ZERO off or not written) or flushed (on)."""
    if not layer.nan_weights():
        return "none"
    return "flushed" if layer.nan_to_zero else "kept"


def post_extension(layer: Any) -> Optional[int]:
    """The post-extension N of an image-weight layer (None for the other formats)."""
    return int(layer.weight_options.get("post_extension", 1)) if layer.weight_format == "image" else None


_cover_weights = coverage_section(
    CoverPoint(
        "nvdla_cdma.weight_kind",
        xf=lambda lay, start, n: "compressed" if lay.compress else "dense",
        bins=["dense", "compressed"],
    ),
    CoverPoint(
        "nvdla_cdma.weight_precision",
        xf=lambda lay, start, n: PRECISION[str(lay.kernel_tensor.dtype)],
        bins=["int8", "int16", "fp16"],
    ),
    CoverPoint(
        "nvdla_cdma.weight_density", xf=lambda lay, start, n: density(lay), bins=["zero", "sparse", "dense", "full"]
    ),
    CoverPoint(
        "nvdla_cdma.weight_groups", xf=lambda lay, start, n: kernel_groups(lay), bins=["one", "whole", "partial_last"]
    ),
    CoverPoint(
        "nvdla_cdma.weight_wrap",
        xf=lambda lay, start, n: start + n > lay.weight_banks * cbuf.BANK_ENTRIES,
        bins=[False, True],
    ),
    CoverCross(
        "nvdla_cdma.weight_kind_x_precision_x_density",
        items=["nvdla_cdma.weight_kind", "nvdla_cdma.weight_precision", "nvdla_cdma.weight_density"],
    ),
    CoverPoint(
        "nvdla_cdma.weight_format",
        xf=lambda lay, start, n: lay.weight_format,
        bins=["dc", "image", "winograd", "deconv"],
    ),
    CoverPoint("nvdla_cdma.weight_post_extension", xf=lambda lay, start, n: post_extension(lay), bins=[1, 2, 4]),
    CoverPoint("nvdla_cdma.weight_nan", xf=lambda lay, start, n: nan_case(lay), bins=["none", "kept", "flushed"]),
    CoverCross("nvdla_cdma.weight_format_x_kind", items=["nvdla_cdma.weight_format", "nvdla_cdma.weight_kind"]),
)


@_cover_weights
def sample_weights(layer: Any, start: int, entries: int) -> None:
    """One checked weight layer (``start``: its first weight buffer entry, ``entries``: how many it wrote)."""
