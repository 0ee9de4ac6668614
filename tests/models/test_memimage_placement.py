"""Surface.base, MemoryImage.placed() and memory(): where every surface of an image lives."""

import numpy as np
import pytest

from dlaverif import models
from dlaverif.models import FormatError, MemoryImage, Surface


def _image() -> MemoryImage:
    return MemoryImage(
        (
            Surface("a", np.arange(100, dtype=np.uint8)),
            Surface("b", np.ones(10, np.uint8), 32),
            Surface("c", np.full(5, 7, np.uint8), 256),
        ),
        {"k": 1},
    )


def test_surfaces_start_at_zero_unless_placed():
    assert [s.base for s in _image()] == [0, 0, 0]
    assert Surface("x", np.zeros(3, np.uint8)).end == 3


@pytest.mark.parametrize("base", [-32, 0x1010, True, 1.0, "0"])
def test_a_base_must_be_a_non_negative_integer_multiple_of_the_alignment(base):
    with pytest.raises(FormatError) as exc:
        Surface("x", np.zeros(4, np.uint8), 32, base)
    assert exc.value.rule == "image.base"


def test_placed_from_one_base_lays_surfaces_back_to_back_each_at_its_alignment():
    img = _image().placed(0x1000)
    # a: 0x1000..0x1064; b: next multiple of 32 = 0x1080..0x108A; c: next multiple of 256 = 0x1100
    assert [(s.name, s.base) for s in img] == [("a", 0x1000), ("b", 0x1080), ("c", 0x1100)]
    assert img.meta == {"k": 1}
    assert [s.base for s in _image()] == [0, 0, 0]  # the original is unchanged


def test_placed_at_explicit_bases_keeps_the_unnamed_ones():
    img = _image().placed(0x4000).placed({"c": 0x200, "a": 0x100})
    assert [s.base for s in img] == [0x100, 0x4080, 0x200]


def test_memory_lists_address_and_bytes_of_every_surface():
    mem = _image().placed(0x1000).memory()
    assert [a for a, _ in mem] == [0x1000, 0x1080, 0x1100]
    assert mem[0][1] == bytes(range(100)) and mem[1][1] == b"\x01" * 10 and mem[2][1] == b"\x07" * 5


@pytest.mark.parametrize(
    "bases, rule",
    [
        ({"b": 0x1008}, "image.base"),
        ({"nope": 0}, "image.surface_missing"),
        ({"a": 0x1000, "b": 0x1060}, "image.overlap"),  # a ends at 0x1064
    ],
)
def test_bad_placements_are_refused(bases, rule):
    with pytest.raises(FormatError) as exc:
        _image().placed(bases)
    assert exc.value.rule == rule


def test_the_first_surface_starts_exactly_at_the_given_base():
    img = models.pack("nvdla.weight.dc", np.ones((1, 16, 1, 1), np.int8))  # 256-byte aligned surfaces
    with pytest.raises(FormatError) as exc:
        img.placed(0x1080)
    assert exc.value.rule == "image.base"


def test_touching_surfaces_and_empty_surfaces_do_not_overlap():
    img = MemoryImage(
        (
            Surface("a", np.zeros(32, np.uint8)),
            Surface("e", np.zeros(0, np.uint8)),
            Surface("b", np.zeros(4, np.uint8), 32),
        )
    )
    assert [s.base for s in img.placed(0)] == [0, 32, 32]


def test_a_packed_image_placed_keeps_its_bytes():
    x = np.arange(24, dtype=np.int8).reshape(1, 2, 3, 4)
    img = models.pack("nvdla.feature", x)
    placed = img.placed(0x2000)
    assert placed["data"].base == 0x2000
    assert placed.tobytes() == img.tobytes()
    np.testing.assert_array_equal(models.unpack("nvdla.feature", placed, x.shape, x.dtype), x)
