"""Shared material of the hostile-input suites: every registered format, one valid case per
(format, dtype) found by asking the models' own ``info`` door, and values of every wrong kind."""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from dlaverif import models
from dlaverif.models.core.registry import get_format

ALL_FORMATS: tuple[str, ...] = tuple(models.format_names()) + tuple(
    e for fam in models.families().values() for e in fam["examples"]
)

#: Options without which a format has no exact round trip (Winograd: ``pack`` of raw kernels transforms them).
ROUND_TRIP_OPTS: dict[str, dict] = {"nvdla.weight.winograd": {"transformed": True}}
#: Dimensions tried when searching a valid shape (transformed Winograd wants 4x4 and 32-byte channel rows).
SEARCH_DIMS: dict[str, tuple[int, ...]] = {"nvdla.weight.winograd": (1, 4, 16, 32)}


@lru_cache(maxsize=None)
def valid_cases(name: str) -> tuple[tuple[tuple[int, ...], str], ...]:
    """Smallest valid (shape, dtype) per dtype of ``name`` (dims 1..5; validity decided by the spec rules)."""
    fmt = get_format(name)
    opts = ROUND_TRIP_OPTS.get(name, {})
    out = []
    for dt in fmt.dtypes:
        for rank in range(len(fmt.axes) - fmt.optional_leading_axes, len(fmt.axes) + 1):
            sizes = itertools.product(SEARCH_DIMS.get(name, (1, 2, 3, 4, 5)), repeat=rank)
            hit = next((s for s in sizes if _ok(name, s, dt, opts)), None)
            if hit is not None:
                out.append((hit, dt))
                break
    return tuple(out)


def _ok(name: str, shape: tuple[int, ...], dtype: str, opts: dict) -> bool:
    try:
        models.info(name, shape, dtype, **opts)
        return True
    except models.FormatError:
        return False


def legal_values(name: str, raw: np.ndarray) -> np.ndarray:
    """Random values made legal for formats whose fields are narrower than the container (10-bit pixels
    with a 2-bit alpha: values below 4 fit every field)."""
    get_format(name)  # raises FormatError for an unknown name, as before
    if name.startswith("nvdla.pixel.") and "10" in name and raw.dtype == np.uint16:
        return raw % 4
    return raw


NAN, INF = float("nan"), float("inf")

BAD_NAMES = (5, None, b"nvdla.feature", ["nvdla.feature"], 1.5, "no.such.format", "", "onednn.", "onednn.zz9")

BAD_SHAPES = (
    5,
    "1,2,3",
    None,
    (NAN, 3),
    (INF, 2),
    ("a", 2),
    (2, 1.5),
    (2.0, 2),
    (True, 2),
    (2**40,) * 2,
    (2**40, 1, 1, 1),
    (2**31, 1, 1, 1),
    (-1, 2),
    (0, 2),
    ((1, 2), 3),
    np.ones((2, 2), int),
    (object(), 1),
    (1,) * 9,
    (),
)

BAD_DTYPES = (
    "nope",
    object,
    [("a", "i1"), ("b", "f4")],
    "V3",
    "i1,i1",
    3.5,
    "U4",
    "complex64",
    "bool",
    [("a", "i1", (2,))],
    "S2",
)

#: Values that are wrong for an option of any kind (int, bool, float, str, ints).
BAD_OPTION_VALUES = (
    INF,
    NAN,
    -INF,
    np.zeros(2),
    b"12",
    1.5,
    2**80,
    -(2**80),
    object(),
    [[1]],
    {"a": 1},
    2**64,
    "not a value",
    (INF, INF),
    (1.5, 1.5),
)

BAD_BASES = (None, "0", INF, NAN, 32.5, 2**64, 2**70, -1, True, b"\x00", [0], np.float64(32.0))

BAD_TENSORS = (
    None,
    "text",
    [[1, 2], [3]],
    np.array([object(), 1], dtype=object),
    np.array(["a", "b"]),
    {"a": 1},
    b"\x00\x01",
    np.zeros((2, 2), dtype=[("a", "i1"), ("b", "i1")]),
    np.zeros((2, 2), complex),
    np.zeros((2, 2), "M8[s]"),
)

BAD_IMAGES = (
    None,
    "text",
    5,
    [1, 2, 3],
    np.array([object()], dtype=object),
    {"data": None},
    {"data": "x"},
    {5: b"\x00"},
    b"",
    {"no_such_surface": b"\x00" * 4096},
    np.zeros((0, 3), np.uint16),
)
#: Containers of every kind that are merely short: refused or read, never anything but FormatError.
SHORT_IMAGES = (b"\x00", bytearray(3), memoryview(b"\x00\x01"), np.zeros(1, np.uint8))


def option_names(name: str) -> list[str]:
    return [o.name for o in get_format(name).options]
