"""Shared pieces of every model: errors, element types, memory images, the format registry."""
from .dtypes import dtype_name, resolve_dtype
from .errors import FormatError, require
from .memimage import MemoryImage, Surface, as_image
from .registry import Format, Option, register, register_family

__all__ = ["FormatError", "require", "resolve_dtype", "dtype_name", "MemoryImage", "Surface", "as_image",
           "Format", "Option", "register", "register_family"]
