"""BlockedCubeDescriptor exports of the oneDNN and MACE activation layouts: the atom stream a reader
gathers from the packed memory equals the atoms cut from the tensor by hand (slow loops here)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dlaverif import models
from dlaverif.models import FormatError, Layout

from .onednn_helpers import random_tensor


def atoms_nChwbc(x, b):
    """Atom (n, cg, h, w) = channels cg*b .. cg*b+b-1 of pixel (n, h, w), zero past C."""
    N, C, H, W = x.shape
    out = []
    for n in range(N):
        for cg in range(-(-C // b)):
            for h in range(H):
                for w in range(W):
                    blk = np.zeros(b, x.dtype)
                    cs = range(cg * b, min(C, cg * b + b))
                    blk[: len(cs)] = [x[n, c, h, w] for c in cs]
                    out.append(blk.tobytes())
    return out


def atoms_nhwc(x, atom):
    """Rows of pixels (channels back to back) cut into atom-sized pieces, n -> h -> row order."""
    N, C, H, W = x.shape
    out = []
    for n in range(N):
        for h in range(H):
            row = b"".join(np.array([x[n, c, h, w] for c in range(C)], x.dtype).tobytes() for w in range(W))
            out += [row[i : i + atom] for i in range(0, len(row), atom)]
    return out


def atoms_nchw(x, atom):
    """Each channel's row (consecutive w) cut into atoms, n -> c -> h order."""
    N, C, H, W = x.shape
    out = []
    for n in range(N):
        for c in range(C):
            for h in range(H):
                row = np.array([x[n, c, h, w] for w in range(W)], x.dtype).tobytes()
                out += [row[i : i + atom] for i in range(0, len(row), atom)]
    return out


def atoms_mace(x):
    """Channel-major pixels: atom (n, cg, h, w) = E(n, h, w, 4cg .. 4cg+3), zero past C."""
    N, H, W, C = x.shape
    out = []
    for n in range(N):
        for cg in range(-(-C // 4)):
            for h in range(H):
                for w in range(W):
                    px = np.zeros(4, x.dtype)
                    for k in range(4):
                        if 4 * cg + k < C:
                            px[k] = x[n, h, w, 4 * cg + k]
                    out.append(px.tobytes())
    return out


def stream(fmt, x, base=0x4000, **opts):
    d = models.descriptor(fmt, x.shape, x.dtype, base=base, **opts)
    img = models.pack(fmt, x, **opts)
    got = d.gather(img.data(), mem_base=base)
    return d, [bytes(r) for r in got]


# ---------------------------------------------------------------------- oneDNN blocked channels
@pytest.mark.parametrize(
    "tag, b, dtype, atom",
    [
        ("nChw8c", 8, np.float32, 32),
        ("nChw16c", 16, np.float32, 64),
        ("nChw4c", 4, np.float32, 16),
        ("nChw16c", 16, np.float16, 32),
        ("nChw16c", 16, np.uint16, 32),
        ("nChw32c", 32, np.int8, 32),
        ("nChw8c", 8, np.int32, 32),
        ("aBcd8b", 8, np.float32, 32),
        ("nChw16c", 16, np.uint8, 16),
    ],
)
@settings(max_examples=10, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 2), st.integers(1, 40), st.integers(1, 4), st.integers(1, 5)),
    seed=st.integers(0, 2**32 - 1),
)
def test_blocked_channel_tags(tag, b, dtype, atom, shape, seed):
    x = random_tensor(np.random.default_rng(seed), shape, dtype)
    d, got = stream("onednn." + tag, x)
    N, C, H, W = shape
    assert (d.atom_bytes, d.count_w, d.count_h, d.count_c, d.count_n) == (atom, W, H, -(-C // b), N)
    assert d.layout == Layout.ONEDNN and d.fp16 == (np.dtype(dtype) == np.float16)
    assert got == atoms_nChwbc(x, b)


def test_article_C17_descriptor_strides():
    d = models.descriptor("onednn.nChw8c", (2, 17, 5, 4), "f32", base=0x1000)
    # element strides n = C_padded*H*W, C = H*W*8, h = W*8, w = 8; times 4 bytes
    assert (d.stride_n, d.stride_c, d.stride_h, d.atom_bytes) == (24 * 20 * 4, 20 * 8 * 4, 4 * 8 * 4, 8 * 4)
    assert d.count_c == 3 and d.base == 0x1000


# ---------------------------------------------------------------------- oneDNN plain nhwc / nchw
@pytest.mark.parametrize(
    "C, dtype, atom",
    [
        (2, np.float32, 8),
        (4, np.float32, 16),
        (8, np.float32, 32),
        (32, np.float32, 128),
        (16, np.int8, 16),
        (64, np.float16, 128),
        (6, np.float32, 8),  # 24 B = 3 atoms of 8
        (48, np.float32, 64),  # 192 B = 3 atoms of 64
        (40, np.float32, 32),  # 160 B = 5 atoms of 32
        (256, np.int8, 128),  # 2 atoms of 128
    ],
)
def test_nhwc(C, dtype, atom):
    x = random_tensor(np.random.default_rng(C), (2, C, 3, 5), dtype)
    d, got = stream("onednn.nhwc", x)
    k = C * np.dtype(dtype).itemsize // atom
    assert (d.atom_bytes, d.count_w, d.count_h, d.count_c, d.count_n) == (atom, 5 * k, 3, 1, 2)
    assert got == atoms_nhwc(x, atom)


@pytest.mark.parametrize(
    "W, dtype, atom",
    [
        (2, np.float32, 8),
        (8, np.float32, 32),
        (32, np.float32, 128),
        (56, np.float32, 32),
        (224, np.float32, 128),
        (16, np.int8, 16),
        (12, np.float16, 8),
        (6, np.float32, 8),
    ],
)
def test_nchw(W, dtype, atom):
    x = random_tensor(np.random.default_rng(W), (2, 3, 2, W), dtype)
    d, got = stream("onednn.nchw", x)
    count_w = W * np.dtype(dtype).itemsize // atom
    assert (d.atom_bytes, d.count_w, d.count_h, d.count_c, d.count_n) == (atom, count_w, 2, 3, 2)
    assert got == atoms_nchw(x, atom)


def test_strided_nchw_sub_tensor():
    # (1,3,2,8) f32 window in a (1,4,4,16) buffer: strides 256, 64, 16, 1 elements
    x = random_tensor(np.random.default_rng(5), (1, 3, 2, 8), np.float32)
    d, got = stream("onednn.nchw", x, strides=(256, 64, 16, 1))
    assert (d.atom_bytes, d.stride_h, d.stride_c, d.count_w) == (32, 64, 256, 1)
    assert got == atoms_nchw(x, 32)


@pytest.mark.parametrize(
    "fmt, shape, dtype, opts, rule",
    [
        ("onednn.nChw4c", (1, 8, 2, 2), "s8", {}, "descriptor.atom_size"),  # 4-byte atoms
        ("onednn.nhwc", (1, 3, 2, 2), "f32", {}, "onednn.descriptor"),  # 12 B run
        ("onednn.nhwc", (1, 1, 2, 2), "f32", {}, "onednn.descriptor"),  # 4 B run
        ("onednn.nchw", (1, 2, 2, 5), "f32", {}, "onednn.descriptor"),  # 20 B row
        ("onednn.chwn", (2, 8, 2, 2), "f32", {}, "onednn.descriptor"),  # n innermost
        ("onednn.ABcd16a16b", (16, 16, 2, 2), "f32", {}, "onednn.descriptor"),  # two blocks
        ("onednn.nhwC8c", (1, 16, 2, 2), "f32", {}, "onednn.descriptor"),  # w stride is not one block
        ("onednn.nhwc", (1, 16, 2, 2), "f32", {"strides": (2048, 1, 256, 32)}, "onednn.descriptor"),  # gaps in a row
        ("onednn.nChw8c", (1, 8, 2, 2), "f32", {"base": 0x1010}, "descriptor.align_base"),
        (
            "onednn.nChw8c",
            (1, 8, 2, 2),
            "f32",
            {"strides": (128, 32, 20, 8)},
            "descriptor.align_stride_h",
        ),  # 80 B lines
        ("onednn.nChw8c", (1, 8, 2, 2), "f32", {"strides": (128, 32, 12, 8)}, "onednn.overlap"),  # rows overlap
        ("onednn.OIhw16i16o", (16, 16, 1, 1), "f32", {}, "descriptor.none"),  # weights
        ("onednn.nCdhw16c", (1, 16, 1, 1, 1), "f32", {}, "descriptor.none"),  # 5-D
    ],
)
def test_layouts_no_reader_can_serve_are_format_errors(fmt, shape, dtype, opts, rule):
    opts = dict(opts)
    base = opts.pop("base", 0)
    with pytest.raises(FormatError) as exc:
        models.descriptor(fmt, shape, dtype, base=base, **opts)
    assert exc.value.rule == rule


# ---------------------------------------------------------------------- MACE channel-major image
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@settings(max_examples=15, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 3), st.integers(1, 5), st.integers(1, 6), st.integers(1, 11)),
    seed=st.integers(0, 2**32 - 1),
)
def test_mace_channel_major(dtype, shape, seed):
    x = random_tensor(np.random.default_rng(seed), shape, dtype)
    N, H, W, C = shape
    a = 4 * np.dtype(dtype).itemsize
    cb = (C + 3) // 4
    d, got = stream("mace.image.channel_major", x, base=0x800)
    assert (d.atom_bytes, d.count_w, d.count_c, d.count_h, d.count_n) == (a, W, cb, H, N)
    assert (d.stride_c, d.stride_h, d.stride_n) == (W * a, W * cb * a, H * W * cb * a)
    assert d.layout == Layout.MACE and d.fp16 == (np.dtype(dtype) == np.float16)
    assert got == atoms_mace(x)
