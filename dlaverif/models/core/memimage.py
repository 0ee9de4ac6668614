"""MemoryImage: what a ``pack`` produces and an ``unpack`` consumes.

A format maps a logical tensor to one or more memory *surfaces* (the seed's word:
e.g. the weight, WMB and WGS surfaces of sparse weights, or the two planes of a
semi-planar pixel format). Each surface is a flat run of bytes that starts at an
address with a required alignment (NVDLA Table 35) and includes every padding and
alignment byte the format defines.

Where surfaces live: every :class:`Surface` carries its ``base`` address (0 unless placed).
``pack`` returns an image at base 0; :meth:`MemoryImage.placed` lays it out in memory (back to back
from one base, each surface at the next multiple of its alignment, or at explicit bases) and
:meth:`MemoryImage.memory` lists ``(address, bytes)`` pairs ready to load into a memory model.
Choice: placed surfaces must not share a byte (``image.overlap``); a base must be a non-negative
integer and a multiple of the surface's ``align`` (``image.base``); a surface's last byte must lie at or below
``2**64 - 1``, the top of the 64-bit address space (``image.address_overflow``, "the image ends above 2^64";
:mod:`models.core.address`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterator, Mapping, Sequence, Union

import numpy as np

from .address import check_end
from .arith import as_bytes, round_up
from .errors import FormatError


@dataclass(frozen=True)
class Surface:
    """One contiguous memory region of a packed format.

    ``data`` is a read-only 1-D ``uint8`` array, ``align`` the start-address alignment in
    bytes the spec requires for it (1 when the spec sets none), ``base`` the address of its
    first byte (a non-negative multiple of ``align``; FormatError ``image.base`` otherwise), such that its last
    byte lies at or below ``2**64 - 1`` (FormatError ``image.address_overflow`` otherwise).
    """

    name: str
    data: np.ndarray
    align: int = 1
    base: int = 0

    def __post_init__(self) -> None:
        arr = _bytes_array(self.data)
        arr.setflags(write=False)
        object.__setattr__(self, "data", arr)
        base = self.base
        if (
            isinstance(base, (bool, np.bool_))
            or not isinstance(base, (int, np.integer))
            or base < 0
            or base % max(int(self.align), 1)
        ):
            raise FormatError(
                "image.base",
                f"surface {self.name!r}: base {base!r} is not a non-negative "
                f"integer multiple of its {self.align}-byte alignment",
            )
        check_end(int(base), arr.size, f"surface {self.name!r}")
        object.__setattr__(self, "base", int(base))

    @property
    def nbytes(self) -> int:
        return int(self.data.size)

    @property
    def end(self) -> int:
        """One past the address of the last byte."""
        return self.base + self.nbytes

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

    def placed(self, bases: Union[int, Mapping[str, int]]) -> "MemoryImage":
        """The same image with its surfaces at addresses.

        An ``int``: the first surface at ``bases`` (which must suit its alignment), every next surface
        at the first multiple of its own alignment after the end of the previous one (in surface order).
        A mapping ``{name: base}``: those surfaces at those bases, the others keep theirs. FormatError
        ``image.base`` for a misaligned or negative base, ``image.surface_missing`` for an unknown name,
        ``image.overlap`` when two surfaces would share a byte.
        """
        if isinstance(bases, Mapping):
            for name in bases:
                self[name]  # raises image.surface_missing
            new = {s.name: bases.get(s.name, s.base) for s in self.surfaces}
        else:
            starts = back_to_back([s.nbytes for s in self.surfaces], [s.align for s in self.surfaces], bases)
            new = {s.name: b for s, b in zip(self.surfaces, starts)}
        image = MemoryImage(tuple(replace(s, base=new[s.name]) for s in self.surfaces), self.meta)
        image._check_overlap()
        return image

    def _check_overlap(self) -> None:
        spans = sorted((s.base, s.end, s.name) for s in self.surfaces if s.nbytes)
        for (_, end0, name0), (start1, _, name1) in zip(spans, spans[1:]):
            if start1 < end0:
                raise FormatError(
                    "image.overlap", f"surfaces {name0!r} and {name1!r} share bytes (0x{start1:x} < 0x{end0:x})"
                )

    def memory(self) -> list[tuple[int, bytes]]:
        """``(address, bytes)`` of every surface, in surface order (what a memory model loads)."""
        return [(s.base, s.tobytes()) for s in self.surfaces]


def back_to_back(sizes: Sequence[int], aligns: Sequence[int], base: int) -> list[int]:
    """Start addresses of regions of ``sizes`` bytes laid out in order from ``base``: the first at
    ``base``, each next one at the first multiple of its alignment at or after the previous end."""
    starts: list[int] = []
    cursor = int(base)
    for i, (size, align) in enumerate(zip(sizes, aligns)):
        start = cursor if i == 0 else round_up(cursor, max(int(align), 1))
        starts.append(start)
        cursor = start + int(size)
    return starts


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
