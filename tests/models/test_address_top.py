"""Every format at the top of the 64-bit address space: just below 2**63, at and above 2**63, ending exactly on the
last byte (``2**64 - 1``) and one byte past it (refused with ``image.address_overflow``).

AXI addresses are up to 64 bits wide (the readers' ``AXI_ADDR_W`` 64), where numpy's ``int64`` overflows. The
oracles here are Python integers computed from the spec's address formulas (the feature cube's
``base + n*stride_n + c*stride_c + h*stride_h + w*atom``) or the same image at base 0 shifted by the base: never
the code under test at the same base.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from dlaverif import models
from dlaverif.models import FormatError, MemoryImage, Surface
from dlaverif.models.core.address import check_end, check_span, grid_addresses, offset_addresses
from dlaverif.models.core.registry import get_format

from .hostile_cases import ALL_FORMATS, ROUND_TRIP_OPTS, valid_cases

TOP = 1 << 64
HALF = 1 << 63
ROOT = Path(__file__).resolve().parents[2]


def _refused_past(exc: pytest.ExceptionInfo, base: int) -> None:
    """The refusal of a base one alignment above the highest that fits: the image ends above 2**64, or (a small
    image whose highest base is the last alignment step) the base itself is 2**64, outside the space."""
    if base >= TOP:
        assert exc.value.rule == "base.range", exc.value
    else:
        _overflow(exc)


def _overflow(exc: pytest.ExceptionInfo) -> None:
    """The refusal this suite expects: the rule and the words of the message."""
    assert exc.value.rule == "image.address_overflow", exc.value
    assert "the image ends above 2^64" in str(exc.value)


def _bases(span: int, align: int) -> dict[str, int]:
    """The bases every family is tried at: below, at and above 2**63, and the highest aligned base (ending
    exactly on the last byte of the space when ``span`` is a multiple of ``align``)."""
    return {
        "below_2_63": HALF - 4 * align,  # straddles 2**63 when the image is longer than 4 alignments
        "at_2_63": HALF,
        "above_2_63": HALF + 3 * align,
        "top": (TOP - span) // align * align,
    }


# ---------------------------------------------------------------------------------------------- the helper
def test_check_span_takes_the_last_byte_and_refuses_one_past():
    check_span(TOP - 1, TOP)  # the last byte of the space
    assert check_end(TOP - 32, 32) == TOP
    check_span(0, 0)
    with pytest.raises(FormatError) as exc:
        check_span(TOP - 1, TOP + 1)
    _overflow(exc)
    with pytest.raises(FormatError) as exc:
        check_end(TOP, 0)  # an empty range at 2**64 starts at no address
    _overflow(exc)
    with pytest.raises(FormatError) as exc:
        check_span(-1, 4)
    assert exc.value.rule == "image.address_negative"


@settings(max_examples=200, deadline=None)
@given(
    counts=st.lists(st.integers(1, 4), min_size=1, max_size=4),
    strides=st.lists(st.integers(-(1 << 62), 1 << 62), min_size=4, max_size=4),
    nbytes=st.integers(1, 128),
    where=st.integers(0, TOP),
)
def test_grid_addresses_equal_python_ints_anywhere_in_the_space(counts, strides, nbytes, where):
    """Any strides, of either sign: every address exactly the Python-int sum, or the grid refused when a run would
    leave the space (the same sums decide which)."""
    strides = strides[: len(counts)]
    offsets = {idx: sum(i * s for i, s in zip(idx, strides)) for idx in itertools.product(*map(range, counts))}
    lo, hi = min(offsets.values()), max(offsets.values()) + nbytes
    if hi - lo > TOP:
        with pytest.raises(FormatError):
            grid_addresses(-lo, counts, strides, nbytes)
        return
    base = -lo + where % (TOP - (hi - lo) + 1)  # the lowest run from 0 to the highest that fits
    got = grid_addresses(base, counts, strides, nbytes)
    assert got.dtype == np.uint64 and got.shape == tuple(counts)
    assert {idx: int(got[idx]) for idx in offsets} == {idx: base + off for idx, off in offsets.items()}
    with pytest.raises(FormatError) as exc:
        grid_addresses(base + TOP - (base + hi), counts, strides, nbytes + 1)  # the highest run one byte longer
    _overflow(exc)
    with pytest.raises(FormatError) as exc:
        grid_addresses(-lo - 1, counts, strides, nbytes)
    assert exc.value.rule == "image.address_negative"


def test_offset_addresses_from_signed_and_unsigned_offsets():
    off = np.array([-64, 0, 31], np.int64)
    assert offset_addresses(HALF, off).tolist() == [HALF - 64, HALF, HALF + 31]
    assert offset_addresses(TOP - 32, np.array([0], np.uint64), 32).tolist() == [TOP - 32]
    with pytest.raises(FormatError) as exc:
        offset_addresses(TOP - 32, np.array([0, 1], np.int64), 32)
    _overflow(exc)
    with pytest.raises(FormatError):
        offset_addresses(32, np.array([-33], np.int64))


# ---------------------------------------------------------------------------------------------- blocked cubes
#: (format, shape, dtype, options) of every layout that exports a BlockedCubeDescriptor
BLOCKED = [
    ("nvdla.feature", (1, 20, 3, 2), "int16", {"line_stride": 96}),
    ("nvdla.feature", (2, 9, 2, 3), "int8", {}),
    ("nvdla.bias.element", (17, 2, 3), "int16", {}),
    ("nvdla.eltwise", (2, 9, 2, 3), "int8", {}),
    ("onednn.nChw16c", (1, 17, 5, 4), "f32", {}),
    ("onednn.nhwc", (2, 4, 2, 8), "f32", {}),
    ("onednn.nchw", (1, 5, 4, 8), "f32", {}),
    ("mace.image.channel_major", (2, 3, 4, 5), "float32", {}),
]


def _tensor(shape: tuple[int, ...], dtype: str, seed: int = 0) -> np.ndarray:
    """Distinct-ish values of any model dtype (bit patterns for floats: no NaN, exact)."""
    dt = np.dtype(models.core.resolve_dtype(dtype))
    n = int(np.prod(shape))
    raw = np.random.default_rng(seed).integers(0, 1 << 7, n * dt.itemsize, dtype=np.uint8)
    return raw.view(dt).reshape(shape)


def _slow_addresses(d) -> dict[tuple[int, int, int, int], int]:
    """The spec's formula with Python ints: base + n*stride_n + c*stride_c + h*stride_h + w*atom."""
    return {
        (n, c, h, w): d.base + n * d.stride_n + c * d.stride_c + h * d.stride_h + w * d.atom_bytes
        for n, c, h, w in itertools.product(*map(range, d.counts))
    }


@pytest.mark.parametrize("name, shape, dtype, opts", BLOCKED, ids=[f"{b[0]}-{b[1]}" for b in BLOCKED])
def test_blocked_layouts_at_the_top_of_the_space(name, shape, dtype, opts):
    x = _tensor(shape, dtype)
    image = models.pack(name, x, **opts)
    d0 = models.descriptor(name, shape, dtype, base=0, **opts)
    span = max(d0.extent, image.nbytes)
    data = image.data()
    at0 = d0.gather(data, 0)
    for where, base in _bases(span, d0.alignment).items():
        d = models.descriptor(name, shape, dtype, base=base, **opts)
        addrs = d.atom_addresses()
        assert addrs.dtype == np.uint64, where
        assert {k: int(addrs[k]) for k in _slow_addresses(d)} == _slow_addresses(d), where
        offsets = d.atom_offsets()
        assert offsets.dtype == np.int64, where
        assert {k: int(offsets[k]) for k in _slow_addresses(d)} == {k: a - base for k, a in _slow_addresses(d).items()}
        assert d.errors(64) == [], where  # the RTL validator's model accepts it at 64 address bits
        placed = image.placed(base)
        assert placed.memory() == [(base, data.tobytes())]
        assert np.array_equal(d.gather(placed.data(), base), at0), where  # the same atoms as at base 0
        assert np.array_equal(models.unpack(name, placed, shape, dtype, **opts), x), where
    top = _bases(span, d0.alignment)["top"]
    if span % d0.alignment == 0:
        assert top + span == TOP  # the last byte of the image is the last byte of the space
    past = (TOP - d0.extent) // d0.alignment * d0.alignment + d0.alignment  # the cube itself, not its padded image
    with pytest.raises(FormatError) as exc:
        models.descriptor(name, shape, dtype, base=past, **opts)
    _refused_past(exc, past)
    with pytest.raises(FormatError) as exc:
        d0.with_(base=TOP - d0.extent + 1).atom_addresses()  # one byte past, alignment aside: no wrap
    _overflow(exc)


def test_a_feature_cube_ends_exactly_on_the_last_byte():
    """The failing case of the random test: a cube whose last atom is the last 32 bytes of the 64-bit space."""
    d0 = models.descriptor("nvdla.feature", (1, 20, 3, 2), "int16")
    d = models.descriptor("nvdla.feature", (1, 20, 3, 2), "int16", base=TOP - d0.extent)
    assert int(d.atom_addresses().reshape(-1)[-1]) == TOP - 32
    img = models.pack("nvdla.feature", _tensor((1, 20, 3, 2), "int16")).placed(TOP - d0.extent)
    assert img.surfaces[0].end == TOP


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(BLOCKED), where=st.integers(0, TOP))
def test_blocked_relative_layout_is_the_layout_at_base_0_shifted(case, where):
    """Bases drawn across [0, 2**64 - extent]: the addresses minus the base (Python ints) are those at base 0."""
    name, shape, dtype, opts = case
    d0 = models.descriptor(name, shape, dtype, **opts)
    base = where % (TOP - d0.extent + 1) // d0.alignment * d0.alignment
    d = models.descriptor(name, shape, dtype, base=base, **opts)
    rel = [int(a) - base for a in d.atom_addresses().reshape(-1)]
    assert rel == [int(a) for a in d0.atom_addresses().reshape(-1)]
    assert rel == [a for a in _slow_addresses(d0).values()]


# ---------------------------------------------------------------------------------------------- every format
PLACED = [(name, shape, dtype) for name in ALL_FORMATS for shape, dtype in valid_cases(name)[:1]]


def _exports(name: str, shape: tuple[int, ...], dtype: str) -> bool:
    """Whether ``name`` exports a descriptor for this shape (oneDNN's plain rows must fill whole atoms)."""
    if get_format(name).descriptor is None:
        return False
    try:
        models.descriptor(name, shape, dtype)
    except FormatError:
        return False
    return True


DESCRIBED = [p for p in PLACED if _exports(*p)]


def _ranges(desc) -> dict[str, tuple[int, int]]:
    """``ranges()`` of a descriptor, or of every set of a deconvolution's ``{set: descriptor}``."""
    if isinstance(desc, dict):
        return {f"{k}.{n}": r for k, d in desc.items() for n, r in d.ranges().items()}
    return desc.ranges()


def test_the_descriptor_cases_cover_every_descriptor_family():
    names = {n for n, _, _ in DESCRIBED}
    assert {"nvdla.feature", "nvdla.eltwise", "nvdla.weight.dc", "nvdla.weight.deconv", "nvdla.pixel.T_R8"} <= names
    assert {"nvdla.pixel.T_Y8___U8V8_N444", "onednn.nChw16c", "mace.image.channel_major"} <= names


def _small_values(shape: tuple[int, ...], dtype: str, seed: int) -> np.ndarray:
    """Values 0..3 of ``dtype``: they fit every field of every format (2-bit alpha fields included)."""
    dt = np.dtype(models.core.resolve_dtype(dtype))
    return np.random.default_rng(seed).integers(0, 4, shape).astype(dt)


@pytest.mark.parametrize("name, shape, dtype", PLACED, ids=[p[0] for p in PLACED])
def test_every_format_packs_and_unpacks_placed_at_the_top(name, shape, dtype):
    """pack, MemoryImage.placed and unpack of every registered format at the bases of :func:`_bases`; one
    alignment further than the highest base is refused."""
    opts = ROUND_TRIP_OPTS.get(name, {})
    x = _small_values(shape, dtype, seed=len(name))
    image = models.pack(name, x, **opts)
    x = models.unpack(name, image, shape, dtype, **opts)  # the values the format keeps (pixel fields, fp16)
    at0 = image.placed(0).memory()
    span = max(a + len(b) for a, b in at0)
    align = max(max(s.align, 1) for s in image.surfaces)
    for where, base in _bases(span, align).items():
        placed = image.placed(base)
        assert placed.memory() == [(a + base, b) for a, b in at0], where
        assert np.array_equal(models.unpack(name, placed, shape, dtype, **opts), x), where
    past = _bases(span, align)["top"] + align
    with pytest.raises(FormatError) as exc:
        image.placed(past)
    if past >= TOP:
        assert exc.value.rule == "image.address_overflow"  # a surface of a placed image starts at no address
    else:
        _overflow(exc)


@pytest.mark.parametrize("name, shape, dtype", DESCRIBED, ids=[p[0] for p in DESCRIBED])
def test_every_descriptor_at_the_top_is_the_one_at_0_shifted(name, shape, dtype):
    """The ranges of every exported descriptor (cube, weight surfaces, pixel planes) at each base are those at base
    0 plus the base (256: a multiple of every start alignment), and the validator's model accepts them; one step
    past the highest base is refused."""
    opts = {k: v for k, v in ROUND_TRIP_OPTS.get(name, {}).items() if k != "transformed"}
    r0 = _ranges(models.descriptor(name, shape, dtype, **opts))
    span = max(b + s for b, s in r0.values())
    for where, base in _bases(span, 256).items():
        d = models.descriptor(name, shape, dtype, base=base, **opts)
        assert _ranges(d) == {k: (b + base, s) for k, (b, s) in r0.items()}, where
        assert all(one.errors(64) == [] for one in (d.values() if isinstance(d, dict) else [d])), where
    past = _bases(span, 256)["top"] + 256
    with pytest.raises(FormatError) as exc:
        models.descriptor(name, shape, dtype, base=past, **opts)
    _refused_past(exc, past)


# ---------------------------------------------------------------------------------------------- sparse weights
@pytest.mark.parametrize("name", ["nvdla.weight.dc", "nvdla.weight.image", "nvdla.weight.winograd"])
def test_compressed_weights_at_the_top(name):
    """Weight, WMB and WGS surfaces back to back from the base (256-byte aligned): at the top the WGS ends exactly
    on the last byte; the descriptor's bases are the placed image's; one more 256 bytes is refused."""
    shape = {"nvdla.weight.image": (2, 3, 3, 3), "nvdla.weight.winograd": (2, 32, 4, 4)}.get(name, (3, 5, 3, 3))
    extra = {"nvdla.weight.image": {"channels": 3}, "nvdla.weight.winograd": {"transformed": True}}.get(name, {})
    w = (np.arange(int(np.prod(shape))) % 7 - 3).astype(np.int8).reshape(shape)
    w[..., 0] = 0  # zeros to compress
    image = models.pack(name, w, compress=True, **extra)
    r0 = models.descriptor(name, shape, "int8", compress=True, image=image, **extra).ranges()
    assert set(r0) == {"weight", "wmb", "wgs"}
    span = max(b + s for b, s in r0.values())
    padded = sum(-(-s.nbytes // 256) * 256 for s in image.surfaces)
    for where, base in _bases(padded, 256).items():
        d = models.descriptor(name, shape, "int8", base=base, compress=True, image=image, **extra)
        assert d.ranges() == {k: (b + base, s) for k, (b, s) in r0.items()}, where
        assert d.errors(64) == [], where
        placed = image.placed(base)
        assert {s.name: s.base for s in placed} == {k: b for k, (b, _) in d.ranges().items()}
        assert np.array_equal(models.unpack(name, placed, shape, "int8", compress=True, **extra), w)
    top = _bases(padded, 256)["top"]
    assert top + span == TOP or span % 256  # the WGS ends on the last byte when its size is whole 256s
    with pytest.raises(FormatError) as exc:
        models.descriptor(name, shape, "int8", base=top + 256, compress=True, image=image, **extra)
    _refused_past(exc, top + 256)


# ---------------------------------------------------------------------------------------------- surfaces, CLI
def test_a_surface_ending_on_the_last_byte_is_accepted_one_byte_more_is_refused():
    assert Surface("x", np.zeros(64, np.uint8), 32, TOP - 64).end == TOP
    with pytest.raises(FormatError) as exc:
        Surface("x", np.zeros(65, np.uint8), 32, TOP - 64)
    _overflow(exc)
    img = MemoryImage((Surface("a", np.arange(40, dtype=np.uint8)), Surface("b", np.ones(32, np.uint8), 32)))
    # a at 2**64 - 96 (40 bytes), b at the next multiple of 32: 2**64 - 32, ending on the last byte
    assert img.placed(TOP - 96).memory() == [(TOP - 96, bytes(range(40))), (TOP - 32, bytes([1]) * 32)]
    with pytest.raises(FormatError) as exc:
        img.placed(TOP - 64)  # a ends at 2**64 - 24: b would start at 2**64
    _overflow(exc)
    with pytest.raises(FormatError) as exc:
        img.placed({"b": TOP - 16})
    assert exc.value.rule == "image.base"  # misaligned comes first
    with pytest.raises(FormatError) as exc:
        img.placed({"a": TOP - 39})
    _overflow(exc)


def _cli(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dlaverif.models", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def test_info_cli_at_the_top_and_one_past():
    args = ("info", "nvdla.feature", "--shape", "1,20,3,2", "--dtype", "int16")
    extent = 2 * 3 * 2 * 32  # two surfaces of 3 lines of 2 atoms
    out = _cli(*args, "--base", hex(TOP - extent))
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)["descriptor"]
    assert d["base"] == TOP - extent and d["extent"] == extent
    # one atom higher: the tensor is still described, and info says why no reader can be programmed for it (as for
    # every descriptor the models refuse)
    out = _cli(*args, "--base", hex(TOP - extent + 32))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["descriptor"] is None
    assert "[image.address_overflow] the image ends above 2^64" in doc["descriptor_unavailable"]


@settings(max_examples=150, deadline=None)
@given(
    surfaces=st.lists(st.tuples(st.integers(0, 300), st.sampled_from([1, 2, 32, 128, 256])), min_size=1, max_size=4),
    where=st.integers(0, TOP),
)
@example(surfaces=[(256, 256)], where=TOP - 1)  # ends exactly on the last byte
@example(surfaces=[(64, 32), (40, 256)], where=TOP - 1)  # the second surface would start at 2**64
@example(surfaces=[(32, 32), (33, 1)], where=TOP - 1)  # the second surface one byte past
def test_placed_anywhere_is_the_layout_at_0_shifted_or_refused(surfaces, where):
    """Surfaces of random sizes and alignments placed from a base drawn across the whole space (a multiple of the
    largest alignment): each at its base-0 position plus the base while the last byte fits, else refused with
    image.address_overflow, decided by Python ints."""
    img = MemoryImage(tuple(Surface(f"s{i}", np.zeros(n, np.uint8), a) for i, (n, a) in enumerate(surfaces)))
    align = max(a for _, a in surfaces)
    base = where // align * align
    starts, cursor = [], 0
    for i, (n, a) in enumerate(surfaces):  # back to back from 0: each at the next multiple of its alignment
        start = cursor if i == 0 else -(-cursor // a) * a
        starts.append(start)
        cursor = start + n
    fits = all(base + s + n <= TOP and base + s < TOP for s, (n, _) in zip(starts, surfaces))
    if fits:
        assert [s.base for s in img.placed(base)] == [base + s for s in starts]
    else:
        with pytest.raises(FormatError) as exc:
            img.placed(base)
        _overflow(exc)
