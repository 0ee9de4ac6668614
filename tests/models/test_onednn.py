"""oneDNN memory descriptors: every example and offset formula of the MKL-DNN article, zero padding,
explicit strides, double blocking, pack/unpack round trips and the registry entry."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.onednn import MemoryDesc, parse_tag

from .onednn_helpers import DTYPES, abc_tags, random_tensor, same_bits, tag_offset_oracle

# The article's activations: batch 2, 16 channels, 5 x 4 spatial.
N, C, H, W = 2, 16, 5, 4


def value(n, c, h, w):  # article: value(n, c, h, w) = n*CHW + c*HW + h*W + w
    return n * C * H * W + c * H * W + h * W + w


def article_tensor():
    return np.fromfunction(value, (N, C, H, W), dtype=np.int64).astype(np.float32)


def grid(*dims):
    return [idx for idx in np.ndindex(*dims)]


# ---------------------------------------------------------------------- article: plain formats
def test_offset_nchw_equals_value_in_the_article_example():
    md = MemoryDesc.from_tag((N, C, H, W), "f32", "nchw")
    for n, c, h, w in grid(N, C, H, W):
        assert md.offset(n, c, h, w) == n * C * H * W + c * H * W + h * W + w == value(n, c, h, w)
    raw = models.pack("onednn.nchw", article_tensor()).tobytes()
    assert np.array_equal(np.frombuffer(raw, np.float32), np.arange(N * C * H * W, dtype=np.float32))


def test_offset_nhwc():
    md = MemoryDesc.from_tag((N, C, H, W), "f32", "nhwc")
    x = article_tensor()
    mem = np.frombuffer(models.pack("onednn.nhwc", x).tobytes(), np.float32)
    for n, c, h, w in grid(N, C, H, W):
        off = n * H * W * C + h * W * C + w * C + c
        assert md.offset(n, c, h, w) == off
        assert mem[off] == value(n, c, h, w)


def test_offset_chwn():
    md = MemoryDesc.from_tag((N, C, H, W), "f32", "chwn")
    x = article_tensor()
    mem = np.frombuffer(models.pack("onednn.chwn", x).tobytes(), np.float32)
    for n, c, h, w in grid(N, C, H, W):
        off = c * H * W * N + h * W * N + w * N + n
        assert md.offset(n, c, h, w) == off
        assert mem[off] == value(n, c, h, w)


def test_plain_formats_are_special_cases_of_strides():
    # article: for NCHW, stride_n = CHW, stride_c = HW, stride_h = W, stride_w = 1
    assert MemoryDesc.from_tag((N, C, H, W), "f32", "nchw").strides == (C * H * W, H * W, W, 1)
    assert MemoryDesc.from_tag((N, C, H, W), "f32", "nhwc").strides == (H * W * C, 1, W * C, C)
    assert MemoryDesc.from_tag((N, C, H, W), "f32", "chwn").strides == (1, H * W * N, W * N, N)


# ---------------------------------------------------------------------- article: blocked nChw8c
@pytest.mark.parametrize("channels", [16, 17])
def test_offset_nChw8c(channels):
    md = MemoryDesc.from_tag((N, channels, H, W), "f32", "nChw8c")
    cp = -(-channels // 8) * 8  # the article's stride_n uses C_padded
    x = np.fromfunction(lambda n, c, h, w: 1 + n * 1000 + c * 50 + h * 7 + w, (N, channels, H, W)).astype(np.float32)
    mem = np.frombuffer(models.pack("onednn.nChw8c", x).tobytes(), np.float32)
    for n, c, h, w in grid(N, channels, H, W):
        off = n * cp * H * W + (c // 8) * H * W * 8 + h * W * 8 + w * 8 + (c % 8)
        assert md.offset(n, c, h, w) == off
        assert mem[off] == x[n, c, h, w]


def test_nChw8c_blocking_structure_of_the_article():
    md = MemoryDesc.from_tag((N, C, H, W), "f32", "nChw8c")
    assert md.strides == (C * H * W, H * W * 8, W * 8, 8)
    assert (md.inner_nblks, md.inner_idxs, md.inner_blks) == (1, (1,), (8,))


def test_article_C17_example_pads_to_24_with_zeros():
    n, h, w = 3, 5, 4
    md = MemoryDesc.from_tag((n, 17, h, w), "f32", "nChw8c")
    assert md.dims == (n, 17, h, w)  # logical dims stay as is
    assert md.padded_dims == (n, 24, h, w)  # C_padded = div_up(17, 8) * 8
    assert md.strides == (24 * h * w, h * w * 8, w * 8, 8)  # stride_n uses C_padded
    assert (md.inner_nblks, md.inner_idxs, md.inner_blks) == (1, (1,), (8,))
    assert md.size == n * 24 * h * w * 4
    x = np.full((n, 17, h, w), -1.5, np.float32)
    mem = np.frombuffer(models.pack("onednn.nChw8c", x).tobytes(), np.float32).reshape(n, 3, h, w, 8)
    assert np.all(mem[:, :2] == -1.5)  # channels 0..15
    assert np.all(mem[:, 2, :, :, 0] == -1.5)  # channel 16
    assert np.all(mem[:, 2, :, :, 1:] == 0)  # channels 17..23: zero padding
    dirty = mem.copy()
    dirty[:, 2, :, :, 1:] = 9.0  # unpack does not read the padding
    assert np.array_equal(models.unpack("onednn.nChw8c", dirty.view(np.uint8), x.shape, "f32"), x)
    info = models.info("onednn.nChw8c", (n, 17, h, w), "f32")
    assert info["padded_dims"] == [n, 24, h, w] and info["size_bytes"] == n * 24 * h * w * 4


# ---------------------------------------------------------------------- explicit strides
def test_user_strides_generic_offset_formula_and_zero_gaps():
    # a (2,3,4,5) sub-tensor of a bigger (2,4,6,7) nchw buffer: strides 168, 42, 7, 1 (article "Strides")
    strides = (4 * 6 * 7, 6 * 7, 7, 1)
    x = np.arange(1, 1 + 2 * 3 * 4 * 5, dtype=np.int32).reshape(2, 3, 4, 5)
    img = models.pack("onednn.nchw", x, strides="168,42,7,1")
    md = MemoryDesc.from_tag(x.shape, "s32", "nchw", strides)
    mem = np.frombuffer(img.tobytes(), np.int32)
    assert mem.size == 2 * 168  # oneDNN size: max(dims[d] * strides[d])
    hit = np.zeros(mem.size, bool)
    for n, c, h, w in grid(*x.shape):
        off = n * strides[0] + c * strides[1] + h * strides[2] + w * strides[3]
        assert md.offset(n, c, h, w) == off and mem[off] == x[n, c, h, w]
        hit[off] = True
    assert np.all(mem[~hit] == 0)  # the bytes between elements are zero
    garbage = mem.copy()
    garbage[~hit] = 0x5A5A5A5A  # ... and ignored by unpack
    assert np.array_equal(models.unpack("onednn.nchw", garbage.view(np.uint8), x.shape, "s32", strides=strides), x)


def test_interleaved_but_disjoint_strides_are_accepted_and_sized_to_the_last_element():
    md = MemoryDesc.from_tag((3, 2), "u8", "ab", strides=(2, 3))  # offsets 0,3,2,5,4,7
    assert sorted(int(v) for v in md.logical_offsets().reshape(-1)) == [0, 2, 3, 4, 5, 7]
    assert md.size == 8
    x = np.arange(1, 7, dtype=np.uint8).reshape(3, 2)
    assert np.array_equal(md.unpack(md.pack(x)), x)


@pytest.mark.parametrize(
    "dims, strides",
    [
        ((2, 3), (1, 1)),  # a(1) and b(0) collide
        ((4, 4), (2, 1)),  # rows overlap
        ((3, 2), (2, 4)),  # (2,0) and (0,1) share offset 4
        ((2, 2, 2), (0, 2, 1)),  # zero stride on a dim of size 2
    ],
)
def test_overlapping_strides_are_format_errors(dims, strides):
    with pytest.raises(FormatError) as exc:
        MemoryDesc.from_tag(dims, "f32", "abc"[: len(dims)], strides)
    assert exc.value.rule == "onednn.overlap"
    with pytest.raises(FormatError):
        models.pack("onednn." + "abc"[: len(dims)], np.zeros(dims, np.float32), strides=strides)


@pytest.mark.parametrize(
    "strides, rule", [((4, -1), "onednn.strides"), ((4,), "onednn.strides"), ((4, 1, 1), "onednn.strides")]
)
def test_bad_stride_lists_are_format_errors(strides, rule):
    with pytest.raises(FormatError) as exc:
        models.info("onednn.ab", (2, 4), "f32", strides=strides)
    assert exc.value.rule == rule


def test_strides_on_a_blocked_tag_move_the_blocks():
    # nChw8c inside a buffer with 2 spare blocks per image: stride_n = (3+2) * H*W*8
    md = MemoryDesc.from_tag((1, 17, 2, 2), "f32", "nChw8c", strides=(5 * 2 * 2 * 8, 2 * 2 * 8, 2 * 8, 8))
    x = np.arange(1, 1 + 17 * 4, dtype=np.float32).reshape(1, 17, 2, 2)
    assert md.offset(0, 16, 1, 1) == 2 * 32 + 1 * 16 + 1 * 8 + 0
    assert np.array_equal(md.unpack(md.pack(x)), x)


# ---------------------------------------------------------------------- double blocking, weights
@pytest.mark.parametrize(
    "tag, abc, dims",
    [
        ("OIhw4i16o4i", "ABcd4b16a4b", (20, 37, 3, 2)),
        ("OIhw16i16o", "ABcd16b16a", (17, 18, 1, 3)),
        ("gOIhw16i16o", "aBCde16c16b", (2, 17, 5, 1, 2)),
        ("Ohwi16o", "Acdb16a", (33, 3, 2, 2)),
        ("ABcd16a16b", "ABcd16a16b", (17, 3, 2, 2)),
        ("aBcd8b", "aBcd8b", (2, 9, 2, 3)),
        ("nCdhw16c", "aBcde16b", (1, 20, 2, 2, 3)),
        ("NChw16n16c", "ABcd16a16b", (3, 17, 2, 1)),
        ("hwigo", "decab", (2, 3, 4, 2, 3)),
    ],
)
def test_offsets_match_an_independent_mixed_radix_oracle(tag, abc, dims):
    md = MemoryDesc.from_tag(dims, "f32", tag)
    for idx in grid(*dims):
        assert md.offset(*idx) == tag_offset_oracle(abc, dims, idx), idx
    full = md.logical_offsets()
    assert all(full[idx] == md.offset(*idx) for idx in grid(*dims)[::7])


def test_OIhw4i16o4i_offset_written_out():
    OC, IC, KH, KW = 20, 37, 3, 2
    md = MemoryDesc.from_tag((OC, IC, KH, KW), "f32", "OIhw4i16o4i")
    ip, op = 48, 32  # 37 -> 48 (4*4 = 16), 20 -> 32
    assert md.padded_dims == (op, ip, KH, KW)
    sw, sh = 256, KW * 256
    si, so = KH * KW * 256, (ip // 16) * KH * KW * 256
    assert md.strides == (so, si, sh, sw)
    for o, i, h, w in grid(OC, IC, KH, KW):
        off = (o // 16) * so + (i // 16) * si + h * sh + w * sw + ((i % 16) // 4) * 64 + (o % 16) * 4 + i % 4
        assert md.offset(o, i, h, w) == off


def test_offsets_reach_into_padding_but_not_beyond():
    md = MemoryDesc.from_tag((1, 17, 1, 1), "f32", "nChw8c")
    assert md.offset(0, 23, 0, 0) == 23
    with pytest.raises(FormatError) as exc:
        md.offset(0, 24, 0, 0)
    assert exc.value.rule == "onednn.index"


# ---------------------------------------------------------------------- round trips and zero padding
@settings(max_examples=50, deadline=None)
@given(tag=abc_tags(), data=st.data())
def test_pack_unpack_round_trip_and_zero_padding(tag, data):
    nd = parse_tag(tag).ndims
    dims = tuple(data.draw(st.lists(st.integers(1, 9), min_size=nd, max_size=nd)))
    dtype = data.draw(st.sampled_from(DTYPES))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = random_tensor(rng, dims, dtype)
    img = models.pack("onednn." + tag, x)
    md = MemoryDesc.from_tag(dims, dtype, tag)
    assert img.nbytes == md.size
    assert same_bits(models.unpack("onednn." + tag, img, dims, dtype), x)
    # every byte of a logical element is 0xFF, every other byte (padding) is zero
    ones = np.full(dims, 0xFF, np.uint8).repeat(np.dtype(dtype).itemsize).view(dtype).reshape(dims)
    raw = models.pack("onednn." + tag, ones).data()
    assert int(np.count_nonzero(raw == 0xFF)) == x.size * np.dtype(dtype).itemsize
    assert int(np.count_nonzero(raw)) == x.size * np.dtype(dtype).itemsize
    # a few elements land where the independent oracle says
    mem = raw.view(np.uint8)
    xb = x.view(np.uint8).reshape(dims + (-1,)) if x.dtype.itemsize > 1 else x.view(np.uint8).reshape(dims + (1,))
    packed = np.asarray(img.data())
    e = np.dtype(dtype).itemsize
    for _ in range(5):
        idx = tuple(int(rng.integers(0, d)) for d in dims)
        off = tag_offset_oracle(tag, dims, idx) * e
        assert bytes(packed[off : off + e]) == bytes(xb[idx])
    assert mem.size == md.size


def test_pack_places_elements_by_the_oracle_slow_loop():
    tag, dims = "ABc4b16a4b", (18, 9, 2)
    x = np.arange(1, 1 + np.prod(dims), dtype=np.int32).reshape(dims)
    mem = np.frombuffer(models.pack("onednn." + tag, x).tobytes(), np.int32)
    expect = np.zeros_like(mem)
    for idx in grid(*dims):
        expect[tag_offset_oracle(tag, dims, idx)] = x[idx]
    assert np.array_equal(mem, expect)


# ---------------------------------------------------------------------- registry entry
@pytest.mark.parametrize(
    "dtype, np_dtype",
    [
        ("f32", np.float32),
        ("f16", np.float16),
        ("bf16", np.uint16),
        ("s8", np.int8),
        ("u8", np.uint8),
        ("s32", np.int32),
    ],
)
def test_data_types(dtype, np_dtype):
    x = random_tensor(np.random.default_rng(1), (1, 5, 2, 3), np_dtype)
    img = models.pack("onednn.nChw4c", x)
    assert img.nbytes == 1 * 8 * 2 * 3 * np.dtype(np_dtype).itemsize
    assert same_bits(models.unpack("onednn.nChw4c", img, x.shape, dtype), x)
    assert models.info("onednn.nChw4c", x.shape, dtype)["data_type"] == dtype


def test_registry_rejects_bad_input():
    with pytest.raises(FormatError) as exc:
        models.pack("onednn.nchw", np.zeros((1, 2, 3, 4), np.float64))
    assert exc.value.rule == "dtype.unsupported"
    with pytest.raises(FormatError) as exc:
        models.pack("onednn.nchw", np.zeros((2, 3, 4), np.float32))
    assert exc.value.rule == "shape.rank"
    with pytest.raises(FormatError) as exc:
        models.unpack("onednn.nChw8c", bytes(100), (1, 17, 2, 2), "f32")
    assert exc.value.rule == "onednn.buffer_size"
    with pytest.raises(FormatError) as exc:
        models.info("onednn.nchw", (1, 2, 3, 4), "f32", strides="1,q")
    assert exc.value.rule == "option.type"


def test_info_is_json_serialisable_and_names_the_blocking():
    import json

    d = models.info("onednn.OIhw4i16o4i", (20, 37, 3, 2), "s8")
    json.dumps(d)
    assert (d["inner_nblks"], d["inner_blks"], d["inner_idxs"]) == (3, [4, 16, 4], [1, 0, 1])
    assert d["abc_tag"] == "ABcd4b16a4b" and d["size_bytes"] == 32 * 48 * 3 * 2
