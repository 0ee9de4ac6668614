"""MemoryImage: what a ``pack`` produces and an ``unpack`` consumes.

A format maps a logical tensor to one or more memory *surfaces* (the seed's word:
e.g. the weight, WMB and WGS surfaces of sparse weights, or the two planes of a
semi-planar pixel format). Each surface is a flat run of bytes that starts at an
address with a required alignment (NVDLA Table 35) and includes every padding and
alignment byte the format defines.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Mapping, Union

import numpy as np

from .arith import as_bytes
from .errors import FormatError


@dataclass(frozen=True)
class Surface:
    """One contiguous memory region of a packed format.

    ``data`` is a read-only 1-D ``uint8`` array, ``align`` the start-address alignment in
    bytes the spec requires for it (1 when the spec sets none).
    """

    name: str
    data: np.ndarray
    align: int = 1

    def __post_init__(self) -> None:
        arr = _bytes_array(self.data)
        arr.setflags(write=False)
        object.__setattr__(self, "data", arr)

    @property
    def nbytes(self) -> int:
        return int(self.data.size)

    def tobytes(self) -> bytes:
        return self.data.tobytes()


@dataclass(frozen=True)
class MemoryImage:
    """An ordered set of named surfaces (``MemoryImage.single(...)`` for one-surface formats)."""

    surfaces: tuple[Surface, ...]
    meta: Mapping[str, object] = field(default_factory=dict)

    @staticmethod
    def single(data: np.ndarray, align: int = 1, name: str = "data", **meta: object) -> "MemoryImage":
        return MemoryImage((Surface(name, data, align),), dict(meta))

    @staticmethod
    def of(**surfaces: Union[np.ndarray, Surface]) -> "MemoryImage":
        return MemoryImage(tuple(s if isinstance(s, Surface) else Surface(k, s) for k, s in surfaces.items()))

    def __iter__(self) -> Iterator[Surface]:
        return iter(self.surfaces)

    def __len__(self) -> int:
        return len(self.surfaces)

    def names(self) -> list[str]:
        return [s.name for s in self.surfaces]

    def __getitem__(self, name: str) -> Surface:
        for s in self.surfaces:
            if s.name == name:
                return s
        raise FormatError("image.surface_missing", f"no surface {name!r}; surfaces: {self.names()}")

    def data(self, name: str | None = None) -> np.ndarray:
        """Bytes of surface ``name`` (or of the only surface)."""
        if name is None:
            if len(self.surfaces) != 1:
                raise FormatError("image.ambiguous", f"image has surfaces {self.names()}; name one")
            return self.surfaces[0].data
        return self[name].data

    def tobytes(self) -> bytes:
        """The only surface as bytes (one-surface formats)."""
        return self.data().tobytes()

    @property
    def nbytes(self) -> int:
        return sum(s.nbytes for s in self.surfaces)


ImageLike = Union[MemoryImage, bytes, bytearray, memoryview, np.ndarray, Mapping[str, object]]


def as_image(obj: ImageLike, names: tuple[str, ...] = ("data",)) -> MemoryImage:
    """Accept a MemoryImage, raw bytes/uint8 array (taken as surface ``names[0]``) or a {name: bytes} mapping."""
    if isinstance(obj, MemoryImage):
        return obj
    if isinstance(obj, Mapping):
        return MemoryImage(tuple(Surface(k, _bytes_array(v)) for k, v in obj.items()))
    # Raw bytes are the format's first (main) surface; formats with several surfaces need a mapping.
    return MemoryImage((Surface(names[0], _bytes_array(obj)),))


def _bytes_array(v: object) -> np.ndarray:
    """A new 1-D ``uint8`` array object over the bytes of ``v`` (:func:`~models.core.arith.as_bytes`).

    A C-contiguous ``uint8`` array is not copied, but a new view is returned so that marking it
    read-only never changes the caller's array.
    """
    if isinstance(v, Surface):
        return v.data
    if isinstance(v, np.ndarray) and v.dtype == np.uint8 and v.flags.c_contiguous:
        return v.reshape(-1).view()
    try:
        return np.frombuffer(as_bytes(v), dtype=np.uint8)
    except FormatError as exc:
        raise FormatError("image.type", str(exc)) from None
