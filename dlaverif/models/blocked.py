"""BlockedCubeDescriptor: the one descriptor every activation layout exports.

NVDLA's feature cube (seed "Feature Data Format": 1x1x32-byte atoms, C' -> W -> H -> C),
NVDLA's per-element SDP operand surfaces (atoms of ElementPerAtom x ComponentsPerElement x
BytesPerComponent bytes), oneDNN's blocked layouts (``nChw8c``: blocks of 8 channels) and MACE's
channel-major image (4-element pixels) are the same idea: *atoms* of ``atom_bytes`` bytes placed by
four strides. Atom ``(n, c, h, w)`` (``c`` counts channel groups, i.e. atoms along C) starts at::

    base + n*stride_n + c*stride_c + h*stride_h + w*atom_bytes

A reader of this descriptor (this repository's cube reader, ``blocks/``) is programmed from it and streams
atoms in the canonical order n -> c -> h -> w (w fastest). :meth:`BlockedCubeDescriptor.errors` is the
reference model of its validator: one rule per error bit, in the
order of :data:`ERROR_RULES`.

Choices written down here (and tested in ``tests/models/test_blocked.py``):

* Register values are checked even when the count of their dimension is 1 (NVDLA firmware and
  C model check the programmed strides whatever the cube size; clarifications section 1).
* Start address and every stride must be a multiple of ``max(atom_bytes, layout alignment)``. The
  layout alignment is 32 bytes for the NVDLA layouts (Table 35: feature data cube, bias/BN/eltwise
  start, line and surface strides) and 1 elsewhere; the atom multiple is this reader's own rule
  (an atom never straddles a bus beat), reported by the same bit.
* Overlap: the dimensions whose count is above 1 are sorted by stride; each stride must be at least
  the extent of all dimensions inside it (``sum((count-1)*stride) + atom_bytes``). This accepts every
  nested layout (NVDLA, oneDNN, MACE, with any gaps) and refuses any descriptor in which two atoms
  share a byte; it also refuses interleavings that happen to be injective, which no layout here uses.
* Address overflow: the last byte of the last atom must lie below ``2**addr_bits``.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Union

import numpy as np

from .core.address import check_end, grid_addresses, grid_span
from .core.arith import as_bytes
from .core.errors import FormatError
from .core.rules import RuleChecked


class Layout(enum.IntEnum):
    """Layout family: selects the per-layout validator rules (atom/element sizes, Table 35 alignment)."""

    GENERIC = 0
    NVDLA_FEATURE = 1
    NVDLA_OPERAND = 2
    ONEDNN = 3
    MACE = 4


#: Validator rules, one error bit each (bit index = position); the ERROR bits of such a reader's register map.
ERROR_RULES: tuple[str, ...] = (
    "layout",  # 0: unknown layout code
    "atom_size",  # 1: atom not a power of two in 8..128, or not allowed by the layout
    "elem_size",  # 2: element size not allowed (1/2/4, <= atom, layout, fp16 needs 2)
    "count",  # 3: a count is 0 or above MAX_COUNT
    "align_base",  # 4: base address alignment
    "align_stride_h",  # 5: line stride alignment
    "align_stride_c",  # 6: surface (channel-group) stride alignment
    "align_stride_n",  # 7: batch stride alignment
    "overlap",  # 8: two atoms share a byte
    "addr_overflow",  # 9: the cube runs past the top of the address space
)

MAX_COUNT = 0xFFFF
ATOM_SIZES = (8, 16, 32, 64, 128)

LAYOUT_ATOMS: dict[Layout, tuple[int, ...]] = {
    Layout.GENERIC: ATOM_SIZES,
    Layout.NVDLA_FEATURE: (32,),
    Layout.NVDLA_OPERAND: (32, 64, 128),
    Layout.ONEDNN: ATOM_SIZES,
    Layout.MACE: (8, 16),
}
LAYOUT_ELEMS: dict[Layout, tuple[int, ...]] = {
    Layout.GENERIC: (1, 2, 4),
    Layout.NVDLA_FEATURE: (1, 2),
    Layout.NVDLA_OPERAND: (1, 2),
    Layout.ONEDNN: (1, 2, 4),
    Layout.MACE: (2, 4),
}
#: Table 35 start/stride alignment per layout (bytes).
LAYOUT_ALIGN: dict[Layout, int] = {
    Layout.GENERIC: 1,
    Layout.NVDLA_FEATURE: 32,
    Layout.NVDLA_OPERAND: 32,
    Layout.ONEDNN: 1,
    Layout.MACE: 1,
}


@dataclass(frozen=True)
class BlockedCubeDescriptor(RuleChecked):
    """Atoms of ``atom_bytes`` bytes placed by four strides (see the module docstring). ``error_bits()``,
    ``validate()`` and ``with_()`` come from :class:`~models.core.rules.RuleChecked`, as for every block's
    descriptor."""

    ERROR_RULES: ClassVar[tuple[str, ...]] = ERROR_RULES
    RULE_PREFIX: ClassVar[str] = "descriptor"

    base: int
    atom_bytes: int
    elem_bytes: int
    count_w: int
    count_h: int
    count_c: int
    count_n: int
    stride_h: int
    stride_c: int
    stride_n: int
    layout: Union[Layout, int] = Layout.GENERIC  # the programmed code: unknown codes are for the validator to refuse
    fp16: bool = False

    # ------------------------------------------------------------------ derived values
    @property
    def stride_w(self) -> int:
        return self.atom_bytes

    @property
    def counts(self) -> tuple[int, int, int, int]:
        """(n, c, h, w) counts in canonical stream order."""
        return (self.count_n, self.count_c, self.count_h, self.count_w)

    @property
    def strides(self) -> tuple[int, int, int, int]:
        """(n, c, h, w) byte strides in canonical stream order."""
        return (self.stride_n, self.stride_c, self.stride_h, self.atom_bytes)

    @property
    def num_atoms(self) -> int:
        return self.count_n * self.count_c * self.count_h * self.count_w

    @property
    def extent(self) -> int:
        """Bytes from ``base`` to one past the last byte of the last atom."""
        return sum((c - 1) * s for c, s in zip(self.counts, self.strides)) + self.atom_bytes

    @property
    def alignment(self) -> int:
        """Required multiple for the base address and every stride (Table 35 and whole atoms)."""
        layout_align = LAYOUT_ALIGN.get(Layout(self.layout), 1) if int(self.layout) in Layout._value2member_map_ else 1
        return max(self.atom_bytes, layout_align, 1)

    def ranges(self) -> dict[str, tuple[int, int]]:
        """``{"cube": (base, extent)}``: the bytes the job may read, as the other descriptors name their surfaces."""
        return {"cube": (self.base, self.extent)}

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["layout"] = Layout(self.layout).name if self.layout in Layout._value2member_map_ else int(self.layout)
        d["num_atoms"] = self.num_atoms
        d["extent"] = self.extent
        return d

    # ------------------------------------------------------------------ validator model
    def errors(self, addr_bits: int = 64, max_atom_bytes: int = ATOM_SIZES[-1]) -> list[str]:
        """Every rule of :data:`ERROR_RULES` this descriptor breaks (the RTL sets all of their bits).

        ``max_atom_bytes``: the widest atom the reader sends (the cube reader's MAX_ATOM_BYTES parameter; its
        stream carries one atom per transfer): a wider atom breaks ``atom_size`` too. This reader's own rule, like
        the atom alignment; found by ``make formal`` on a reader built with 8-byte atoms."""
        bad: list[str] = []
        known_layout = int(self.layout) in Layout._value2member_map_
        layout = Layout(self.layout) if known_layout else None
        if not known_layout:
            bad.append("layout")
        atom_ok = self.atom_bytes in ATOM_SIZES and (layout is None or self.atom_bytes in LAYOUT_ATOMS[layout])
        if layout is Layout.MACE and self.atom_bytes != 4 * self.elem_bytes:
            atom_ok = False
        if self.atom_bytes > max_atom_bytes:
            atom_ok = False
        if not atom_ok:
            bad.append("atom_size")
        elem_ok = (
            self.elem_bytes in (1, 2, 4)
            and self.elem_bytes <= self.atom_bytes
            and (layout is None or self.elem_bytes in LAYOUT_ELEMS[layout])
            and (not self.fp16 or self.elem_bytes == 2)
        )
        if not elem_ok:
            bad.append("elem_size")
        if any(not 1 <= c <= MAX_COUNT for c in self.counts):
            bad.append("count")
        align = self.alignment
        for rule, value in (
            ("align_base", self.base),
            ("align_stride_h", self.stride_h),
            ("align_stride_c", self.stride_c),
            ("align_stride_n", self.stride_n),
        ):
            if value % align:
                bad.append(rule)
        if self._overlaps():
            bad.append("overlap")
        if self.base < 0 or self.base + max(self.extent, 1) > (1 << addr_bits):
            bad.append("addr_overflow")
        return bad

    def _overlaps(self) -> bool:
        dims = sorted((s, c) for c, s in zip(self.counts, self.strides) if c > 1)
        inner = self.atom_bytes
        for stride, count in dims:
            if stride < inner:
                return True
            inner += (count - 1) * stride
        return False

    # ------------------------------------------------------------------ what a reader returns
    def atom_addresses(self) -> np.ndarray:
        """Start address of every atom, shape (n, c, h, w), canonical order when flattened: ``uint64``, exact up to
        ``2**64 - 1`` (:mod:`models.core.address`). FormatError ``image.address_overflow`` ("the image ends above
        2^64") when the last byte of an atom would lie above ``2**64 - 1``, ``image.address_negative`` when an atom
        would start below 0: an address never wraps."""
        return grid_addresses(self.base, self.counts, self.strides, self.atom_bytes, "cube")

    def atom_offsets(self) -> np.ndarray:
        """Start of every atom relative to ``base`` (:meth:`atom_addresses` minus ``base``), shape (n, c, h, w), as
        ``int64``: the index of the atom's first byte in an image that starts at ``base`` (subtracting ``base`` from
        the ``uint64`` addresses and adding an ``int64`` index would compute in float64)."""
        return grid_addresses(0, self.counts, self.strides, self.atom_bytes, "cube").astype(np.int64)

    def coordinates(self) -> np.ndarray:
        """(num_atoms, 4) array of (n, c, h, w) in canonical stream order."""
        grids = np.meshgrid(*(np.arange(c) for c in self.counts), indexing="ij")
        return np.stack([g.reshape(-1) for g in grids], axis=1)

    def gather(self, memory: np.ndarray | bytes, mem_base: int = 0) -> np.ndarray:
        """The atom stream a correct reader returns from ``memory`` (which starts at ``mem_base``):
        a (num_atoms, atom_bytes) uint8 array in canonical order."""
        mem = np.frombuffer(as_bytes(memory), dtype=np.uint8)
        check_end(mem_base, mem.size, "memory")
        if not self.num_atoms:
            return np.zeros((0, max(self.atom_bytes, 0)), np.uint8)
        rel = self.base - mem_base  # Python ints: the atoms' offsets in the image, exact at any address
        lo, hi = grid_span(rel, self.counts, self.strides, self.atom_bytes)
        if lo < 0 or hi > mem.size:
            raise FormatError(
                "descriptor.out_of_image", f"descriptor reaches outside the {mem.size}-byte image at 0x{mem_base:x}"
            )
        starts = grid_addresses(rel, self.counts, self.strides).reshape(-1).astype(np.int64)  # below mem.size
        return mem[starts[:, None] + np.arange(self.atom_bytes)]

    def scatter(self, atoms: np.ndarray, size: int | None = None, fill: int = 0) -> np.ndarray:
        """Inverse of :meth:`gather` for an image starting at ``base``: place atoms into a byte array."""
        size = self.extent if size is None else size
        out = np.full(size, fill, dtype=np.uint8)
        starts = self.atom_offsets().reshape(-1)
        out[starts[:, None] + np.arange(self.atom_bytes)] = np.asarray(atoms, np.uint8).reshape(-1, self.atom_bytes)
        return out
