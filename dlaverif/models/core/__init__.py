"""Shared pieces of every model: errors, element types, memory images, the format registry."""

from .dtypes import resolve_dtype
from .errors import FormatError, require
from .memimage import MemoryImage, Surface, as_image
from .registry import Format, Option, register, register_family

__all__ = [
    "FormatError",
    "require",
    "resolve_dtype",
    "MemoryImage",
    "Surface",
    "as_image",
    "Format",
    "Option",
    "register",
    "register_family",
]
