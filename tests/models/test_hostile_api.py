"""The Python API only ever raises FormatError, never hands back wrong bytes,
and never allocates an image above the documented size limit (models.core.validate.MAX_SURFACE_BYTES)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.core import validate
from dlaverif.models.core.registry import get_format

from .hostile_cases import (
    ALL_FORMATS,
    BAD_BASES,
    BAD_DTYPES,
    BAD_IMAGES,
    BAD_NAMES,
    BAD_OPTION_VALUES,
    BAD_SHAPES,
    BAD_TENSORS,
    ROUND_TRIP_OPTS,
    SHORT_IMAGES,
    legal_values,
    option_names,
    valid_cases,
)


def only_format_error(call, *args, **kwargs):
    """Run ``call``; any exception other than FormatError fails the test. Returns the FormatError or None."""
    try:
        call(*args, **kwargs)
    except FormatError as exc:
        return exc
    return None


def test_all_66_formats_and_family_members_are_exercised():
    assert len(ALL_FORMATS) == 66
    assert all(valid_cases(n) for n in ALL_FORMATS), [n for n in ALL_FORMATS if not valid_cases(n)]


# ------------------------------------------------------------------ the numbered hostile examples
def test_issue14_example1_byte_order_gives_identical_bytes():
    x = np.arange(6, dtype="<u2").reshape(2, 3) * 257 + 1
    assert models.pack("onednn.ba", x.astype(">u2")).tobytes() == models.pack("onednn.ba", x).tobytes()
    # written by hand: onednn.ba of a 2x3 tensor stores column-major, little-endian elements
    assert models.pack("onednn.ba", x).tobytes() == b"".join(int(v).to_bytes(2, "little") for v in x.T.reshape(-1))


@pytest.mark.parametrize(
    "call",
    [
        lambda: models.info("nvdla.bn", (float("nan"), 3), "int8"),  # type: ignore[arg-type]  # a wrong type on purpose
        lambda: models.info("nvdla.bn", 3, "int8"),  # type: ignore[arg-type]  # a wrong type on purpose
        lambda: models.info("nvdla.bn", "2,3", "int8"),  # type: ignore[arg-type]  # a wrong type on purpose
        lambda: models.info("nvdla.bn", (2, 3), "int8", data_size=float("inf")),
        lambda: models.info("onednn.ba", (2, 3), "f32", strides=(float("inf"),) * 2),
        lambda: models.descriptor(
            "nvdla.feature",
            (1, 1, 1, 1),
            "int8",
            base=None,  # type: ignore[arg-type]  # a wrong type on purpose
        ),
        lambda: models.descriptor(
            "nvdla.feature",
            (1, 1, 1, 1),
            "int8",
            base="0",  # type: ignore[arg-type]  # a wrong type on purpose
        ),
        lambda: models.descriptor(
            "nvdla.feature",
            (1, 1, 1, 1),
            "int8",
            base=float("inf"),  # type: ignore[arg-type]  # a wrong type on purpose
        ),
        lambda: models.info(5, (1, 2, 1), "int8"),  # type: ignore[arg-type]  # a wrong type on purpose
        lambda: models.info("nvdla.bn", (2, 3), [("a", "i1"), ("b", "zz")]),
        lambda: models.pack("nvdla.bn", [[1, 2], [3]]),  # type: ignore[arg-type]  # a wrong type on purpose
        lambda: models.pack("nvdla.bn", np.array([[object()] * 3] * 2)),
        lambda: models.unpack("nvdla.bn", np.array([object()] * 64), (2, 3), "int8"),
        lambda: models.info("nvdla.weight.dc", (2**40, 1, 1, 1), "int8"),
        lambda: models.unpack("nvdla.weight.dc", b"\x00", (2**31, 1, 1, 1), "int8"),
        lambda: models.info("nvdla.bn", (2, 1.5), "int8"),  # type: ignore[arg-type]  # a wrong type on purpose
        lambda: models.info("onednn.ba", (2, 3), "f32", strides=(1.5, 1.5)),
        lambda: models.descriptor(
            "nvdla.feature",
            (1, 1, 1, 1),
            "int8",
            base=32.5,  # type: ignore[arg-type]  # a wrong type on purpose
        ),
        lambda: models.descriptor("nvdla.feature", (1, 1, 1, 1), "int8", base=2**64),
        lambda: models.info("nvdla.feature", (1, 1, 1, 1), "int8", line_stride=b"32"),
        lambda: models.pack("nvdla.feature", np.zeros((1, 1, 2, 2), np.int8), line_stride=2**40),
    ],
)
def test_issue14_examples_4_and_5_raise_format_error(call):
    with pytest.raises(FormatError):
        call()


def test_size_limit_refuses_before_allocating():
    with pytest.raises(FormatError, match="size.limit"):
        models.info("nvdla.weight.dc", (2**40, 1, 1, 1), "int8")
    with pytest.raises(FormatError, match="size.limit"):
        models.pack("nvdla.feature", np.zeros((1, 1, 2, 2), np.int8), line_stride=2**40)
    # just under the limit by option, but the image it implies is above it
    with pytest.raises(FormatError, match="size.limit"):
        models.info("nvdla.feature", (1, 96, 4, 1), "int8", surface_stride=2**29, line_stride=32)


@pytest.mark.parametrize("name", ALL_FORMATS)
def test_every_surface_of_every_format_is_guarded(name, monkeypatch):
    """With the limit lowered below the smallest image, every valid call is refused by the size check."""
    shape, dt = valid_cases(name)[0]
    opts = ROUND_TRIP_OPTS.get(name, {})
    x = np.zeros(shape, dt)
    monkeypatch.setattr(validate, "MAX_SURFACE_BYTES", 0)
    for call in (
        lambda: models.pack(name, x, **opts),
        lambda: models.info(name, shape, dt, **opts),
        lambda: models.unpack(name, b"", shape, dt, **opts),
    ):
        with pytest.raises(FormatError, match="size.limit"):
            call()


# ------------------------------------------------------------------ every wrong kind, every format
@pytest.mark.parametrize("name", ALL_FORMATS)
def test_bad_arguments_raise_format_error(name):
    shape, dt = valid_cases(name)[0]
    x = np.zeros(shape, dt)
    img = models.pack(name, x, **ROUND_TRIP_OPTS.get(name, {}))
    calls = []
    for bad in BAD_SHAPES:
        calls += [
            lambda b=bad: models.info(name, b, dt),
            lambda b=bad: models.unpack(name, img, b, dt),
            lambda b=bad: models.descriptor(name, b, dt),
        ]
    for bad in BAD_DTYPES:
        calls += [
            lambda b=bad: models.info(name, shape, b),
            lambda b=bad: models.unpack(name, img, shape, b),
            lambda b=bad: models.pack(
                name, x.astype(b) if isinstance(b, str) and b not in ("nope", "U4", "S2", "V3") else object()
            ),
        ]
    for opt in option_names(name) + ["no_such_option"]:
        kind = get_format(name).option(opt).kind if opt != "no_such_option" else "none"
        for bad in BAD_OPTION_VALUES + (("not a value",) if kind == "none" else ()):
            if kind == "str" and isinstance(bad, str):
                continue
            calls += [
                lambda o=opt, b=bad: models.info(name, shape, dt, **{o: b}),
                lambda o=opt, b=bad: models.pack(name, x, **{o: b}),
            ]
    for bad in BAD_BASES:
        calls.append(lambda b=bad: models.descriptor(name, shape, dt, base=b))
    for bad in BAD_TENSORS:
        calls.append(lambda b=bad: models.pack(name, b))
    for bad in BAD_IMAGES:
        calls.append(lambda b=bad: models.unpack(name, b, shape, dt, **ROUND_TRIP_OPTS.get(name, {})))
    for bad in BAD_NAMES:
        calls += [lambda b=bad: models.info(b, shape, dt), lambda b=bad: models.pack(b, x)]
    unraised = [i for i, c in enumerate(calls) if only_format_error(c) is None]
    assert not unraised, f"{len(unraised)} bad calls accepted, first index {unraised[0]}"


garbage = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.binary(max_size=6),
    st.lists(st.one_of(st.integers(-3, 2**33), st.floats(), st.text(max_size=2)), max_size=5).map(tuple),
    st.sampled_from(BAD_SHAPES + BAD_DTYPES + BAD_OPTION_VALUES + BAD_BASES + BAD_TENSORS + BAD_IMAGES + SHORT_IMAGES),
)


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(ALL_FORMATS), data=st.data())
def test_random_garbage_only_ever_raises_format_error(name, data):
    """Any argument of any kind in any position: the call succeeds or raises FormatError, nothing else."""
    shape, dt = valid_cases(name)[0]
    opts = {
        o: data.draw(garbage)
        for o in data.draw(st.lists(st.sampled_from(option_names(name) or ["x"]), max_size=2, unique=True))
    }
    which = data.draw(st.sampled_from(("pack", "unpack", "info", "descriptor")))
    g = data.draw(garbage)
    slot = data.draw(st.integers(0, 3))
    args = {
        "pack": [name, np.zeros(shape, dt)],
        "unpack": [name, bytes(64), shape, dt],
        "info": [name, shape, dt],
        "descriptor": [name, shape, dt],
    }[which]
    args[min(slot, len(args) - 1)] = g
    if which == "descriptor" and data.draw(st.booleans()):
        opts["base"] = data.draw(garbage)
    only_format_error(getattr(models, which), *args, **opts)


# ------------------------------------------------------------------ same values, same bytes
def _views(x: np.ndarray, how: str) -> np.ndarray:
    """The same logical values as ``x`` held differently: byte order, memory order, strided views."""
    if how == "swapped":
        return x.astype(x.dtype.newbyteorder("S"))
    if how == "fortran":
        return np.asfortranarray(x)
    if how == "strided":  # every other element of a bigger buffer
        big = np.zeros(tuple(2 * d for d in x.shape), x.dtype)
        big[tuple(slice(None, None, 2) for _ in x.shape)] = x
        return big[tuple(slice(None, None, 2) for _ in x.shape)]
    if how == "reversed":  # negative strides
        big = x[tuple(slice(None, None, -1) for _ in x.shape)].copy()
        return big[tuple(slice(None, None, -1) for _ in x.shape)]
    return x


def _containers(img: models.MemoryImage, which: str):
    if which == "image":
        return img
    if which == "dict":
        return {s.name: s.tobytes() for s in img}
    if len(img) != 1:
        return {s.name: (bytearray(s.tobytes()) if which == "bytearray" else s.data.copy()) for s in img}
    raw = img.tobytes()
    return {
        "bytes": raw,
        "bytearray": bytearray(raw),
        "memoryview": memoryview(raw),
        "uint8": np.frombuffer(raw, np.uint8).copy(),
    }[which]


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(ALL_FORMATS), data=st.data())
def test_valid_input_round_trips_bit_for_bit_whatever_its_order_and_container(name, data):
    shape, dt = data.draw(st.sampled_from(valid_cases(name)))
    opts = ROUND_TRIP_OPTS.get(name, {})
    d = np.dtype(dt)
    raw = np.frombuffer(
        data.draw(st.binary(min_size=d.itemsize * int(np.prod(shape)), max_size=d.itemsize * int(np.prod(shape)))), d
    ).reshape(shape)
    x = legal_values(name, raw.copy())
    try:
        ref = models.pack(name, x, **opts)
    except FormatError:  # a value rule of the format (e.g. fp16 NaN for Winograd): nothing to round-trip
        return
    how = data.draw(st.sampled_from(("swapped", "fortran", "strided", "reversed")))
    held = _views(x, how)
    got = models.pack(name, held, **opts)
    assert [(s.name, s.tobytes()) for s in got] == [(s.name, s.tobytes()) for s in ref], how
    which = data.draw(st.sampled_from(("image", "dict", "bytes", "bytearray", "memoryview", "uint8")))
    y = models.unpack(name, _containers(ref, which), shape, d.newbyteorder("S") if how == "swapped" else d, **opts)
    assert y.tobytes() == x.tobytes(), (how, which)
    assert y.dtype.isnative and y.flags.writeable and y.flags.c_contiguous and y.flags.owndata
    y.reshape(-1)[0:1] = 0  # the caller owns it: writing does not touch the image
    assert got.tobytes() == ref.tobytes() if len(ref) == 1 else True


@pytest.mark.parametrize("name", ALL_FORMATS)
def test_unpack_returns_writable_native_owned_arrays_in_every_format(name):
    for shape, dt in valid_cases(name):
        opts = ROUND_TRIP_OPTS.get(name, {})
        img = models.pack(name, np.ones(shape, dt), **opts)
        for source in (img, {s.name: s.tobytes() for s in img}):
            y = models.unpack(name, source, shape, np.dtype(dt).newbyteorder(">"), **opts)
            assert y.flags.writeable and y.flags.owndata and y.dtype.isnative and y.dtype == np.dtype(dt)
            assert np.array_equal(y, np.ones(shape, dt))


def test_caller_arrays_are_never_made_read_only():
    raw = np.zeros(64, np.uint8)
    models.unpack("nvdla.feature", raw, (1, 1, 1, 1), "int8")
    assert raw.flags.writeable
