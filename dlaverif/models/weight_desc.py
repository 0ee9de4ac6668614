"""WeightSurfaceDescriptor: what a weight reader (dense or sparse-decompressing) is programmed with.

NVDLA stores convolution weights either dense (one weight surface) or sparse-compressed in three
surfaces (seed "Sparse Compression option", Fig. 17, Table 35; clarifications
``nvdla-clarifications.md`` section 7): the compressed weights, the WMB (one mask bit per element,
LSB first, one continuous stream across kernel groups) and the WGS (one little-endian uint32 per
kernel group). Either way the reader delivers the *dense* mapped stream, split into kernel groups.
Every weight format (``nvdla.weight.dc``, ``.image``, ``.winograd``, ``.deconv``; with and without
``compress=True``) exports this descriptor through ``models.descriptor(...)``; the deconvolution
format exports one per set.

Register fields (stored) and derived values (properties):

* ``compressed``: WEIGHT_FORMAT, 0 dense / 1 compressed (CDMA ``D_WEIGHT_FORMAT``).
* ``elem_bytes``: 1 (int8) or 2 (int16/fp16).
* ``groups``: kernel groups; ``group_bytes``: dense bytes of every group but the last (with one
  group, the bytes of that group); ``last_group_bytes``: dense bytes of the last group.
* ``weight_base``/``weight_bytes``, ``wmb_base``/``wmb_bytes``, ``wgs_base``/``wgs_bytes``: surface
  addresses and sizes. ``weight_bytes`` is the size of the weight surface actually fetched (the
  C model's ``D_WEIGHT_BYTES``: the 128-byte padded compressed size when compressed, clarifications
  section 7 and 12.4). The WMB/WGS fields are 0 and ignored for dense weights.
* derived: ``dense_bytes`` (total dense bytes, TOTAL_DENSE_BYTES), ``dense_elems``, ``group_elems``,
  ``last_group_elems``.

:meth:`WeightSurfaceDescriptor.errors` is the reference model of the weight reader's validator:
one rule per error bit, bit ``i`` = ``ERROR_RULES[i]``:

====  ==================  ==========================================================================
bit   rule                broken when
====  ==================  ==========================================================================
0     ``elem_size``       ``elem_bytes`` is not 1 or 2 (seed "Precision Type": int8, int16, fp16)
1     ``groups``          ``groups`` is 0 or above ``MAX_GROUPS`` (16-bit register)
2     ``group_size``      ``group_bytes`` or ``last_group_bytes`` is 0 or not a whole number of
                          elements, or ``last_group_bytes > group_bytes``
3     ``total_overflow``  ``group_bytes`` or ``dense_bytes`` = (groups-1)*group_bytes +
                          last_group_bytes is above ``MAX_DENSE_BYTES`` (32-bit total and counters)
4     ``align_weight``    weight base not a multiple of 256 (Table 35)
5     ``align_wmb``       compressed, WMB base not a multiple of 256 (Table 35)
6     ``align_wgs``       compressed, WGS base not a multiple of 256 (Table 35)
7     ``size_weight``     weight size not a multiple of 128 (Table 35); dense: also smaller than
                          ``dense_bytes`` (the surface must hold the dense stream)
8     ``size_wmb``        compressed, WMB size not a multiple of 128 (Table 35) or holding fewer than
                          one bit per dense element (``8*wmb_bytes < dense_elems``)
9     ``size_wgs``        compressed, WGS size not a multiple of 128 (Table 35) or holding fewer than
                          one 4-byte entry per group (``wgs_bytes < 4*groups``)
10    ``addr_overflow``   a base is negative or a surface the job reads runs past ``2**addr_bits``
====  ==================  ==========================================================================

Choices written down here (tested in ``tests/models/test_weight_desc.py``):

* Start alignment 256 bytes for all three surfaces: Table 35 rows "weight", "WMB", "WGS", read from
  :data:`models.nvdla.alignment.ROWS` (firmware accepts 32, clarifications section 7 and 12.9: 256
  satisfies everything).
* Dense weights use the weight surface only: the WMB/WGS rules are not checked then (the reader
  takes the mask as all ones and reads neither surface), and ``ranges()`` names the weight surface only.
* The lower bounds of rules 7-9 depend on the counts; they are checked only when rules 0-3 hold,
  so one broken count sets its own bit and no other (the RTL gates them the same way).
* A compressed weight surface of 0 bytes is legal (every element zero: the model's surface is empty).
  Whether the compressed data fits the surface, and whether a WGS entry equals popcount(WMB of its
  group) x ``elem_bytes``, depend on the surfaces' contents: they are run-time checks of the reader,
  not validator rules.
* Surfaces are not checked against each other for overlap (the reader's specification has no such rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

from .core.errors import FormatError
from .core.memimage import MemoryImage
from .core.rules import RuleChecked
from .nvdla.alignment import ROWS

#: Validator rules, one error bit each (bit index = position).
ERROR_RULES: tuple[str, ...] = (
    "elem_size",  # 0
    "groups",  # 1
    "group_size",  # 2
    "total_overflow",  # 3
    "align_weight",  # 4
    "align_wmb",  # 5
    "align_wgs",  # 6
    "size_weight",  # 7
    "size_wmb",  # 8
    "size_wgs",  # 9
    "addr_overflow",  # 10
)

ELEM_SIZES = (1, 2)
MAX_GROUPS = 0xFFFF
MAX_DENSE_BYTES = 0xFFFF_FFFF
#: Table 35 rows of the weight, WMB and WGS surfaces: start alignment and data-size multiple.
START_ALIGN: dict[str, int] = {
    s: int(ROWS[s].start)  # type: ignore[arg-type]  # these Table 35 rows have a start
    for s in ("weight", "wmb", "wgs")
}
SIZE_ALIGN: dict[str, int] = {
    s: int(ROWS[s].size)  # type: ignore[arg-type]  # these Table 35 rows have a size
    for s in ("weight", "wmb", "wgs")
}
#: Bytes per WGS entry (one little-endian uint32 per kernel group).
WGS_ENTRY_BYTES = 4
#: Surface names of one weight stream as ``pack`` names them: weight, then WMB and WGS when compressed.
SURFACE_NAMES: tuple[str, str, str] = ("weight", "wmb", "wgs")


@dataclass(frozen=True)
class WeightSurfaceDescriptor(RuleChecked):
    """Registers of a weight reader job (see the module docstring for fields and rules)."""

    ERROR_RULES: ClassVar[tuple[str, ...]] = ERROR_RULES
    RULE_PREFIX: ClassVar[str] = "weight_desc"

    compressed: bool
    elem_bytes: int
    groups: int
    group_bytes: int
    last_group_bytes: int
    weight_base: int
    weight_bytes: int
    wmb_base: int = 0
    wmb_bytes: int = 0
    wgs_base: int = 0
    wgs_bytes: int = 0

    # ------------------------------------------------------------------ derived values
    @property
    def dense_bytes(self) -> int:
        """Total dense bytes the reader delivers: ``(groups-1)*group_bytes + last_group_bytes``."""
        return max(self.groups - 1, 0) * self.group_bytes + self.last_group_bytes

    @property
    def dense_elems(self) -> int:
        return self.dense_bytes // self.elem_bytes if self.elem_bytes in ELEM_SIZES else 0

    @property
    def group_elems(self) -> int:
        return self.group_bytes // self.elem_bytes if self.elem_bytes in ELEM_SIZES else 0

    @property
    def last_group_elems(self) -> int:
        return self.last_group_bytes // self.elem_bytes if self.elem_bytes in ELEM_SIZES else 0

    def ranges(self) -> dict[str, tuple[int, int]]:
        """``{surface: (base, bytes)}`` of every surface the job may read (for footprint checks)."""
        out = {"weight": (self.weight_base, self.weight_bytes)}
        if self.compressed:
            out["wmb"] = (self.wmb_base, self.wmb_bytes)
            out["wgs"] = (self.wgs_base, self.wgs_bytes)
        return out

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["dense_bytes"] = self.dense_bytes
        return d

    # ------------------------------------------------------------------ built from a packed image
    @staticmethod
    def from_image(
        image: MemoryImage, elem_bytes: int, group_elems: Sequence[int], names: Sequence[str] = SURFACE_NAMES
    ) -> "WeightSurfaceDescriptor":
        """The descriptor of a packed (and placed) weight image: bases and sizes from its surfaces.

        ``group_elems``: dense elements per kernel group (every group but the last equal, as the
        weight formats group kernels). ``names``: the surfaces of this stream, weight first; the
        image is compressed when it holds ``names[1]`` (the WMB). Place the image first
        (``image.placed(base)``): bases are read from the surfaces.
        """
        sizes = [int(g) for g in group_elems]
        if not sizes or any(g != sizes[0] for g in sizes[:-1]):
            raise FormatError(
                "weight_desc.group_elems", f"kernel groups {sizes[:4]}... are not equal groups with a last one"
            )
        present = image.names()
        compressed = len(names) == 3 and names[1] in present
        weight = image[names[0]]
        extra: dict[str, int] = {}
        if compressed:
            wmb, wgs = image[names[1]], image[names[2]]
            extra = dict(wmb_base=wmb.base, wmb_bytes=wmb.nbytes, wgs_base=wgs.base, wgs_bytes=wgs.nbytes)
        return WeightSurfaceDescriptor(
            compressed=compressed,
            elem_bytes=int(elem_bytes),
            groups=len(sizes),
            group_bytes=sizes[0] * int(elem_bytes),
            last_group_bytes=sizes[-1] * int(elem_bytes),
            weight_base=weight.base,
            weight_bytes=weight.nbytes,
            **extra,
        )

    # ------------------------------------------------------------------ validator model
    def errors(self, addr_bits: int = 64) -> list[str]:
        """Every rule of :data:`ERROR_RULES` this descriptor breaks (the RTL sets all of their bits)."""
        bad: list[str] = []
        e = self.elem_bytes
        if e not in ELEM_SIZES:
            bad.append("elem_size")
        if not 1 <= self.groups <= MAX_GROUPS:
            bad.append("groups")
        whole = e not in ELEM_SIZES or (self.group_bytes % e == 0 and self.last_group_bytes % e == 0)
        if self.group_bytes < 1 or self.last_group_bytes < 1 or self.last_group_bytes > self.group_bytes or not whole:
            bad.append("group_size")
        if self.group_bytes > MAX_DENSE_BYTES or self.dense_bytes > MAX_DENSE_BYTES:
            bad.append("total_overflow")
        counts_ok = not bad
        c = self.compressed
        for surface, base, used in (
            ("weight", self.weight_base, True),
            ("wmb", self.wmb_base, c),
            ("wgs", self.wgs_base, c),
        ):
            if used and base % START_ALIGN[surface]:
                bad.append("align_" + surface)
        if self.weight_bytes % SIZE_ALIGN["weight"] or (counts_ok and not c and self.weight_bytes < self.dense_bytes):
            bad.append("size_weight")
        if c and (self.wmb_bytes % SIZE_ALIGN["wmb"] or (counts_ok and 8 * self.wmb_bytes < self.dense_elems)):
            bad.append("size_wmb")
        if c and (self.wgs_bytes % SIZE_ALIGN["wgs"] or (counts_ok and self.wgs_bytes < WGS_ENTRY_BYTES * self.groups)):
            bad.append("size_wgs")
        top = 1 << addr_bits
        if any(base < 0 or size < 0 or base + size > top for base, size in self.ranges().values()):
            bad.append("addr_overflow")
        return bad
