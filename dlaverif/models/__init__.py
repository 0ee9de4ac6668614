"""Bit-exact numpy reference models of DLA in-memory formats (NVDLA, oneDNN/MKL-DNN, MACE).

A format is a function from a logical tensor to a memory image, and back. Every format is
registered once (:mod:`models.core.registry`) and reached by name::

    from dlaverif import models
    img = models.pack("nvdla.feature", x, line_stride=256)      # -> MemoryImage
    y = models.unpack("nvdla.feature", img, x.shape, x.dtype, line_stride=256)
    models.info("nvdla.feature", x.shape, "int8")               # sizes, strides, alignments
    models.descriptor("onednn.nChw16c", (1, 17, 4, 4), "f32")   # BlockedCubeDescriptor
    models.descriptor("nvdla.weight.dc", w.shape, "int8", base=0x10000)  # WeightSurfaceDescriptor
    models.descriptor("nvdla.pixel.T_R8", (4, 8, 1), "uint8", base=0x2000)  # PixelDescriptor

Input that breaks a rule of a spec raises :class:`FormatError` (a ``ValueError``) naming the rule.
This package imports numpy only; it knows nothing of simulators.
"""

from .blocked import BlockedCubeDescriptor, Layout
from .core import FormatError, MemoryImage, Surface
from .core.registry import descriptor, families, format_names, get_format, info, pack, unpack
from .pixel_desc import PixelDescriptor
from .weight_desc import WeightSurfaceDescriptor

__all__ = [
    "FormatError",
    "MemoryImage",
    "Surface",
    "BlockedCubeDescriptor",
    "Layout",
    "WeightSurfaceDescriptor",
    "PixelDescriptor",
    "pack",
    "unpack",
    "info",
    "descriptor",
    "get_format",
    "format_names",
    "families",
]
