"""Table 35 (alignment of start address, strides and data size), transcribed from the seed, and the checker."""

import numpy as np
import pytest

from dlaverif.models import FormatError
from dlaverif.models.nvdla import alignment

NA = None
# kind: (start, line stride, surface stride, planar/cube stride, data size) as printed in Table 35
TABLE_35 = {
    "feature": (32, 32, 32, 32, NA),
    "weight": (256, NA, NA, NA, 128),
    "wmb": (256, NA, NA, NA, 128),
    "wgs": (256, NA, NA, NA, 128),
    "pixel": (32, 32, NA, NA, NA),
    "bias": (32, 32, 32, NA, NA),
    "prelu": (32, NA, NA, NA, NA),
    "bn": (32, NA, NA, NA, NA),
    "eltwise": (32, 32, NA, NA, 32),
}
FIELDS = ("start", "line_stride", "surface_stride", "cube_stride", "size")


def test_table_35_rows():
    assert {r.kind: tuple(r.required(f) for f in FIELDS) for r in alignment.TABLE_35} == TABLE_35


@pytest.mark.parametrize("kind", sorted(TABLE_35))
def test_each_rule_is_named_and_aligned_values_pass(kind):
    reqs = TABLE_35[kind]
    good = {f: (r or 1) * 3 for f, r in zip(FIELDS, reqs)}
    alignment.check(kind, **good)
    assert alignment.violations(kind, **good) == []
    for field, req in zip(FIELDS, reqs):
        bad = dict(good, **{field: good[field] + 16})  # 16 is below every alignment in the table
        if req is None:
            alignment.check(kind, **bad)  # NA: no requirement
            continue
        with pytest.raises(FormatError) as exc:
            alignment.check(kind, **bad)
        assert exc.value.rule == f"align.{kind}.{field}"
        assert str(req) in str(exc.value)


def test_violations_lists_every_broken_rule():
    v = alignment.violations("feature", start=0x1010, line_stride=100, surface_stride=64, cube_stride=8, size=3)
    assert [x.rule for x in v] == ["align.feature.start", "align.feature.line_stride", "align.feature.cube_stride"]
    assert v[0].value == 0x1010 and v[0].required == 32
    with pytest.raises(FormatError) as exc:
        alignment.check("feature", 0x1010, line_stride=100)
    assert exc.value.rule == "align.feature.start" and "align.feature.line_stride" in str(exc.value)


def test_weight_surfaces_need_256_byte_start_and_128_byte_size():
    alignment.check("weight", 0x100, size=896)
    with pytest.raises(FormatError, match=r"align\.weight\.start"):
        alignment.check("weight", 0x80)
    with pytest.raises(FormatError, match=r"align\.wmb\.size"):
        alignment.check("wmb", 0, size=64)
    with pytest.raises(FormatError, match=r"align\.wgs\.size"):
        alignment.check("wgs", 0, size=4)


def test_negative_non_integer_and_unknown_kind():
    assert [v.rule for v in alignment.violations("bn", start=-32)] == ["align.bn.start"]
    assert [v.rule for v in alignment.violations("prelu", start=32.0)] == ["align.prelu.start"]
    assert alignment.violations("prelu", start=np.int64(64)) == []
    with pytest.raises(FormatError) as exc:
        alignment.check("winograd", 0)
    assert exc.value.rule == "align.kind"
    assert alignment.row("compressed_weight").kind == "weight"
    assert alignment.row("Element_Wise").kind == "eltwise"
