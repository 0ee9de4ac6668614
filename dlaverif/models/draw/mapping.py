"""Element-to-address mapping of any registered format, derived from the format's own ``pack`` (no drawing).

The one mechanism behind ``python -m dlaverif.models draw``: :func:`element_map` packs a few *probe* tensors and reads
which bytes of the memory image each logical element owns. Nothing here restates a format's layout: a format
whose ``pack`` is right is drawn right, whatever the spec section (NVDLA seed "Feature Data Format" Fig. 10/11,
"Basic Weight for Direct Convolution" Fig. 13, image-weight pre-extension Fig. 14, pixel planes Table 33; MACE
image layouts; oneDNN blocked layouts of seed 002).

Probes (bit-plane group testing). Two element values ``V0`` and ``V1`` whose bit patterns are complements
(so every bit of every byte an element owns differs between them, whatever sub-byte field the format keeps):

* ``base``: every element ``V0``; ``all``: every element ``V1``. A byte that differs is owned by some element;
  one that does not is padding, an alignment tail, a gap or metadata that does not depend on the values.
* for each bit ``b`` of the flat element index: ``one_b`` = ``V1`` where bit b of the index is 1, and its
  complement ``zero_b``. A byte owned by one element changes in exactly one of the two; its owner's index is
  the sum of ``2**b`` over the ``one_b`` that change it. A byte that changes in both is *shared* by several
  elements (packed 10-bit pixels, or a value transform such as Winograd's U = G g G^T).

Cost: ``2 * ceil(log2(n)) + 2`` packs of the tensor (26 for 4096 elements), all vectorized numpy.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ..core.errors import FormatError
from ..core.memimage import MemoryImage
from ..core.registry import Example, get_format, info, pack
from ..core.validate import surface_sizes

#: Byte kinds of :attr:`ElementMap.byte_kind`.
ELEMENT, PAD, TAIL, META, SHARED = 0, 1, 2, 3, 4
KIND_NAMES = {ELEMENT: "element", PAD: "pad", TAIL: "tail", META: "meta", SHARED: "shared"}

#: Owner codes of :attr:`ElementMap.byte_owner` for bytes no single element owns.
NO_OWNER, SHARED_OWNER = -1, -2

#: Largest tensor (elements) whose map is computed: each probe packs the whole tensor.
MAX_MAP_ELEMENTS = 1 << 20

# Bit patterns of V0 per element size; V1 = ~V0. Both are finite floats when read as float16/float32
# (1.0 and -3.99..), and non-zero, so sparse compression keeps every element.
_V0_BITS = {1: 0x11, 2: 0x3C00, 4: 0x3F800000, 8: 0x3FF0000000000000}


@dataclass(frozen=True)
class SurfaceSpan:
    """One surface of the image as drawn: its name, base address (surfaces placed back to back from 0, each at
    its alignment, :meth:`MemoryImage.placed`), size and alignment."""

    name: str
    base: int
    nbytes: int
    align: int

    @property
    def end(self) -> int:
        return self.base + self.nbytes


@dataclass(frozen=True)
class ElementMap:
    """Where every logical element of a tensor lives in a format's memory image.

    ``byte_*`` arrays cover the surfaces' bytes in surface order (their concatenation):
    ``byte_address`` (absolute), ``byte_surface`` (index into ``surfaces``), ``byte_owner`` (flat C-order
    element index, ``NO_OWNER`` or ``SHARED_OWNER``), ``byte_kind`` (``ELEMENT``, ``PAD``, ``TAIL``, ``META``,
    ``SHARED``); ``byte_owner_lo``/``byte_owner_hi`` the lowest/highest flat index a shared byte may belong to
    (the owner's index bits common to its sharers, the others 0 / 1; equal to the owner for owned bytes, -1 for
    bytes of no element). ``address`` has the tensor's shape: the absolute address of the lowest byte each element owns
    (-1 when it owns none, e.g. an element only seen through shared bytes); ``nbytes`` how many bytes it owns.
    """

    format: str
    shape: tuple[int, ...]
    dtype: np.dtype
    axes: tuple[str, ...]
    opts: Mapping[str, Any]
    surfaces: tuple[SurfaceSpan, ...]
    byte_address: np.ndarray
    byte_surface: np.ndarray
    byte_owner: np.ndarray
    byte_kind: np.ndarray
    byte_owner_lo: np.ndarray
    byte_owner_hi: np.ndarray
    address: np.ndarray
    nbytes: np.ndarray

    @property
    def total_bytes(self) -> int:
        return int(self.byte_address.size)

    def coords(self, flat: np.ndarray) -> tuple[np.ndarray, ...]:
        """Logical coordinates (one array per axis) of flat element indices."""
        return np.unravel_index(np.asarray(flat, dtype=np.int64), self.shape)


def axes_of(name: str, rank: int) -> tuple[str, ...]:
    """The logical axis names of a ``rank``-D tensor of format ``name`` (optional leading axes dropped)."""
    fmt = get_format(name)
    return tuple(fmt.axes[len(fmt.axes) - rank :])


def example_of(name: str) -> Example:
    """The registry's small example tensor of format ``name`` (``Format.example``)."""
    fmt = get_format(name)
    if fmt.example is None:
        raise FormatError("draw.example", f"{name} has no example shape in the registry; give --shape and --dtype")
    return fmt.example


def image_bytes(name: str, shape: Sequence[int], dtype: Any, **opts: Any) -> int:
    """Bytes of the image of ``shape`` (from ``info``, nothing packed): what a memory map would draw."""
    return sum(surface_sizes(info(name, shape, dtype, **opts)).values())


def _probe_values(dtype: np.dtype, shape: tuple[int, ...], probe_max: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    if probe_max:  # bit-field elements (Example.probe_max): 0 and all ones of the field, per last-axis index
        hi = np.broadcast_to(np.asarray(probe_max, dtype=np.int64)[: shape[-1]], shape)
        return np.zeros(shape, dtype=dtype), hi.astype(dtype)
    e = dtype.itemsize
    if e not in _V0_BITS:
        raise FormatError("draw.dtype", f"cannot probe {e}-byte elements")
    ut = np.dtype(f"<u{e}")
    v0 = np.array([_V0_BITS[e]], dtype=ut)
    v1 = ~v0
    return v0.view(dtype.newbyteorder("<")).astype(dtype), v1.view(dtype.newbyteorder("<")).astype(dtype)


def _flat_bytes(img: MemoryImage) -> np.ndarray:
    return np.concatenate([s.data for s in img.surfaces]) if len(img) else np.zeros(0, np.uint8)


def _layout(img: MemoryImage) -> tuple[tuple[str, int], ...]:
    return tuple((s.name, s.nbytes) for s in img.surfaces)


def element_map(name: str, shape: Sequence[int], dtype: Any, **opts: Any) -> ElementMap:
    """The element-to-address mapping of format ``name`` for a tensor of ``shape``/``dtype`` and format ``opts``
    (see the module docstring for the method). FormatError for an invalid tensor (the registry's checks),
    ``draw.too_many`` above :data:`MAX_MAP_ELEMENTS`, ``draw.unstable`` when the image's surfaces change with
    the element values (the probes would not be comparable)."""
    fmt = get_format(name)
    dt = fmt.check_dtype(dtype).newbyteorder("=")
    shp = fmt.check_shape(shape, dt.itemsize)
    n = math.prod(shp)
    if n > MAX_MAP_ELEMENTS:
        raise FormatError("draw.too_many", f"{name}: {n} elements; a map is computed for at most {MAX_MAP_ELEMENTS}")
    v0, v1 = _probe_values(dt, shp, fmt.example.probe_max if fmt.example is not None else ())
    idx = np.arange(n, dtype=np.int64).reshape(shp)

    def probe(mask: np.ndarray) -> np.ndarray:
        img = pack(name, np.where(mask, v1, v0).astype(dt), **opts)
        if _layout(img) != layout:
            raise FormatError("draw.unstable", f"{name}: the surfaces change with the element values; no map")
        return _flat_bytes(img)

    base_img = pack(name, np.broadcast_to(v0, shp).astype(dt), **opts)
    layout = _layout(base_img)
    base = _flat_bytes(base_img)
    changed_any = probe(np.ones(shp, dtype=bool)) != base
    lo = np.zeros(base.size, dtype=np.int64)  # owner index bits certainly 1
    hi = np.zeros(base.size, dtype=np.int64)  # ... or possibly 1 (differing among the sharers)
    shared = np.zeros(base.size, dtype=bool)
    for b in range(max(1, (n - 1).bit_length())):
        bit = ((idx >> b) & 1).astype(bool)
        one = probe(bit) != base
        zero = probe(~bit) != base
        lo |= (one & ~zero).astype(np.int64) << b
        hi |= one.astype(np.int64) << b
        shared |= one & zero
    owner = np.where(changed_any & ~shared, lo, np.where(shared, SHARED_OWNER, NO_OWNER))
    lo, hi = np.where(changed_any, lo, NO_OWNER), np.where(changed_any, hi, NO_OWNER)

    placed = base_img.placed(0)
    spans = tuple(SurfaceSpan(s.name, s.base, s.nbytes, max(int(s.align), 1)) for s in placed.surfaces)
    sizes = [s.nbytes for s in spans]
    surf = np.repeat(np.arange(len(spans), dtype=np.int64), sizes)
    starts = np.cumsum([0] + sizes[:-1]).astype(np.int64)
    offset_in = np.arange(base.size, dtype=np.int64) - starts[surf] if base.size else np.zeros(0, np.int64)
    address = np.array([s.base for s in spans], dtype=np.int64)[surf] + offset_in if base.size else offset_in

    kind = np.full(base.size, PAD, dtype=np.int8)
    kind[owner >= 0] = ELEMENT
    kind[owner == SHARED_OWNER] = SHARED
    for i in range(len(spans)):  # per surface (a handful): after the last element byte = tail; none at all = meta
        sel = surf == i
        data = np.flatnonzero(sel & (owner != NO_OWNER))
        if data.size == 0:
            kind[sel] = META
        else:
            kind[sel & (np.arange(base.size) > data[-1])] = TAIL

    own = owner >= 0
    first = np.full(n, -1, dtype=np.int64)
    # lowest address per owner: visit bytes from high to low address so the lowest is written last
    order = np.argsort(address[own], kind="stable")[::-1]
    first[owner[own][order]] = address[own][order]
    count = np.bincount(owner[own], minlength=n).astype(np.int64)
    sh = np.flatnonzero(owner == SHARED_OWNER)
    if sh.size:  # elements owning no byte alone (bit fields): the lowest shared byte that may hold them
        span = hi[sh] - lo[sh] + 1
        elems = np.repeat(lo[sh], span) + (np.arange(span.sum()) - np.repeat(np.cumsum(span) - span, span))
        addrs = np.repeat(address[sh], span)
        best = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(best, elems, addrs)
        first = np.where((first < 0) & (best < np.iinfo(np.int64).max), best, first)
    return ElementMap(
        format=name,
        shape=shp,
        dtype=dt,
        axes=axes_of(name, len(shp)),
        opts=dict(opts),
        surfaces=spans,
        byte_address=address,
        byte_surface=surf,
        byte_owner=owner,
        byte_kind=kind,
        byte_owner_lo=lo,
        byte_owner_hi=hi,
        address=first.reshape(shp),
        nbytes=count.reshape(shp),
    )


_COLOR_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z_0-9]*)\s*(?:/\s*(atom|\d+))?\s*$")


def color_key(emap: ElementMap, spec: str) -> tuple[np.ndarray, str]:
    """Per-element colour group (tensor-shaped ints) for ``spec``: ``AXIS`` (the coordinate), ``AXIS/N`` (groups
    of N along AXIS) or ``AXIS/atom`` (groups of 32 // element bytes: NVDLA channel groups of an atom, kernel
    groups of DC weights, seed "Feature Data Format" and "Basic Weight for Direct Convolution"). Axis names are
    case-insensitive. Returns the groups and a legend title such as ``C/16``."""
    m = _COLOR_RE.match(spec)
    names = {a.lower(): i for i, a in enumerate(emap.axes)}
    if not m or m.group(1).lower() not in names:
        raise FormatError(
            "draw.color_by",
            f"--color-by wants AXIS, AXIS/N or AXIS/atom with AXIS one of {list(emap.axes)}, got {spec!r}",
        )
    ax = names[m.group(1).lower()]
    group = m.group(2)
    size = 1 if group is None else (32 // emap.dtype.itemsize if group == "atom" else int(group))
    if size < 1:
        raise FormatError("draw.color_by", f"--color-by group size must be >= 1, got {spec!r}")
    coord = np.indices(emap.shape, dtype=np.int64)[ax]
    title = emap.axes[ax] if size == 1 else f"{emap.axes[ax]}/{size}"
    return coord // size, title
