"""MACE reference models: the OpenCL buffer <-> image mappings (registers ``mace.image.*`` on import).

Spec: seed 001 "OpenCL Image Storage Layout" with ``shared/spec/mace-clarifications.md``; see
:mod:`models.mace.image` for the mappings and the choices made.
"""

from .image import (
    KINDS,
    buffer_to_image,
    cdiv4,
    channel_major_descriptor,
    image_array,
    image_shape,
    image_size,
    image_to_buffer,
    valid_mask,
)

__all__ = [
    "KINDS",
    "buffer_to_image",
    "image_to_buffer",
    "image_array",
    "image_size",
    "image_shape",
    "valid_mask",
    "cdiv4",
    "channel_major_descriptor",
]
