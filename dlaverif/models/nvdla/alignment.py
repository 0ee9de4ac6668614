"""NVDLA Table 35 - requirements of alignment of start address, strides and data size.

Source: seed "Alignment of Start Address and Stride" (Table 35); clarifications 10 (register fields drop the
low 5 bits: 32-byte units) and 12.9 (256-byte start for weights is the safe choice).

Every surface kind is one row of :data:`TABLE_35`. :func:`check` raises :class:`FormatError` naming the
first broken rule (ids ``align.<kind>.<field>``, e.g. ``align.feature.line_stride``) and listing all of them;
:func:`violations` returns the list without raising.

Choices:

* "NA" in the table means "no requirement": a value given for an NA column is accepted (not an error).
* A value that is negative or not an integer breaks the rule of its column whatever the table says.
* The seed's row "PRReLU" is the PReLU row (typo kept out of the kind name: ``prelu``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..core.errors import FormatError

FIELDS: tuple[str, ...] = ("start", "line_stride", "surface_stride", "cube_stride", "size")


@dataclass(frozen=True)
class AlignmentRow:
    """One row of Table 35: required multiples in bytes (``None`` = NA)."""

    kind: str
    title: str
    start: Optional[int]
    line_stride: Optional[int]
    surface_stride: Optional[int]
    cube_stride: Optional[int]
    size: Optional[int]

    def required(self, field: str) -> Optional[int]:
        return getattr(self, field)


#: Table 35, row by row as printed in the seed (``cube_stride`` = "planar/cube stride").
TABLE_35: tuple[AlignmentRow, ...] = (
    AlignmentRow("feature", "Feature data cube", 32, 32, 32, 32, None),
    AlignmentRow("weight", "uncompressed/ compressed weight", 256, None, None, None, 128),
    AlignmentRow("wmb", "WMB", 256, None, None, None, 128),
    AlignmentRow("wgs", "WGS", 256, None, None, None, 128),
    AlignmentRow("pixel", "Pitch linear pixel", 32, 32, None, None, None),
    AlignmentRow("bias", "Bias", 32, 32, 32, None, None),
    AlignmentRow("prelu", "PReLU", 32, None, None, None, None),
    AlignmentRow("bn", "Batch Normalization", 32, None, None, None, None),
    AlignmentRow("eltwise", "Element-wise", 32, 32, None, None, 32),
)

ROWS: dict[str, AlignmentRow] = {r.kind: r for r in TABLE_35}
_ALIASES = {
    "feature_data": "feature",
    "feature_cube": "feature",
    "compressed_weight": "weight",
    "uncompressed_weight": "weight",
    "weights": "weight",
    "pitch_linear_pixel": "pixel",
    "batch_norm": "bn",
    "batch_normalization": "bn",
    "element_wise": "eltwise",
    "ew": "eltwise",
}


@dataclass(frozen=True)
class Violation:
    """One broken rule of Table 35."""

    rule: str
    field: str
    value: object
    required: Optional[int]
    message: str


def row(kind: str) -> AlignmentRow:
    """The Table 35 row of a surface kind (``feature``, ``weight``, ``wmb``, ``wgs``, ``pixel``, ``bias``,
    ``prelu``, ``bn``, ``eltwise``)."""
    key = str(kind).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in ROWS:
        raise FormatError("align.kind", f"unknown surface kind {kind!r}; known: {sorted(ROWS)}")
    return ROWS[key]


def violations(
    kind: str,
    start: Optional[int] = None,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
    cube_stride: Optional[int] = None,
    size: Optional[int] = None,
) -> list[Violation]:
    """Every Table 35 rule broken by the given values (``None`` = not given, not checked)."""
    r = row(kind)
    given = {
        "start": start,
        "line_stride": line_stride,
        "surface_stride": surface_stride,
        "cube_stride": cube_stride,
        "size": size,
    }
    out: list[Violation] = []
    for field in FIELDS:
        value = given[field]
        if value is None:
            continue
        rule = f"align.{r.kind}.{field}"
        need = r.required(field)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            out.append(Violation(rule, field, value, need, f"{r.title}: {field} {value!r} is not an integer"))
            continue
        value = int(value)
        if value < 0:
            out.append(Violation(rule, field, value, need, f"{r.title}: {field} {value} is negative"))
        elif need is not None and value % need:
            out.append(
                Violation(
                    rule,
                    field,
                    value,
                    need,
                    f"{r.title}: {field} {value} (0x{value:x}) is not a multiple of {need} bytes (Table 35)",
                )
            )
    return out


def check(
    kind: str,
    start: Optional[int] = None,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
    cube_stride: Optional[int] = None,
    size: Optional[int] = None,
) -> None:
    """Raise :class:`FormatError` for the first broken Table 35 rule (the message lists all of them)."""
    bad = violations(kind, start, line_stride, surface_stride, cube_stride, size)
    if bad:
        raise FormatError(
            bad[0].rule, "; ".join(f"[{v.rule}] {v.message}" if i else v.message for i, v in enumerate(bad))
        )
