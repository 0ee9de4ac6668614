"""MACE OpenCL image layouts: every worked example of mace-clarifications.md sections 4-9, the
coordinate relations of the tables (slow-loop oracle written from the clarifications), zero padding,
round trips and errors."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.mace import buffer_to_image, image_array, image_size, image_to_buffer, valid_mask


def cdiv4(n):
    return (n + 3) // 4


def E4(shape):
    """Buffer whose element (a, b, c, d) is 1 + 1000a + 100b + 10c + d (never 0, so padding shows)."""
    return np.fromfunction(lambda a, b, c, d: 1 + 1000 * a + 100 * b + 10 * c + d, shape).astype(np.float32)


def e(a, b, c, d):
    return 1 + 1000 * a + 100 * b + 10 * c + d


def px(img, x, y):
    return [float(v) for v in img[y, x]]


# ---------------------------------------------------------------------- slow-loop oracle (clarifications)
def oracle_image(buf, kind):
    """Image (height, width, 4) filled pixel by pixel from the relations of clarifications 4-9."""
    if kind == "channel_major":
        N, H, W, C = buf.shape
        width, height = W * cdiv4(C), N * H
    elif kind == "height_major":
        N, H, W, C = buf.shape
        width, height = W * C, N * cdiv4(H)
    elif kind == "width_major":
        N, H, W, C = buf.shape
        width, height = cdiv4(W) * C, N * H
    elif kind == "conv_filter":
        H, W, OC, IC = buf.shape
        width, height = 4 * cdiv4(IC), H * W * cdiv4(OC)
    elif kind == "dw_filter":
        H, W, IC, M = buf.shape
        width, height = H * W * M, cdiv4(IC)
    else:
        (L,) = buf.shape
        width, height = cdiv4(L), 1
    img = np.full((height, width, 4), np.nan, buf.dtype)
    for y in range(height):
        for x in range(width):
            for k in range(4):
                v = 0.0
                if kind == "channel_major":
                    n, h, w, c = y // H, y % H, x % W, 4 * (x // W) + k
                    if c < C:
                        v = buf[n, h, w, c]
                elif kind == "height_major":
                    Hb = cdiv4(H)
                    n, h, w, c = y // Hb, 4 * (y % Hb) + k, x % W, x // W
                    if h < H:
                        v = buf[n, h, w, c]
                elif kind == "width_major":
                    Wb = cdiv4(W)
                    n, h, w, c = y // H, y % H, 4 * (x % Wb) + k, x // Wb
                    if w < W:
                        v = buf[n, h, w, c]
                elif kind == "conv_filter":
                    g, t = y // (H * W), y % (H * W)
                    h, w, o, i = t // W, t % W, 4 * g + k, x
                    if o < OC and i < IC:  # columns x >= IC: zero (our documented choice)
                        v = buf[h, w, o, i]
                elif kind == "dw_filter":
                    h, w, i = x // W, x % W, 4 * y + k
                    if i < IC:
                        v = buf[h, w, i, 0]
                else:
                    if 4 * x + k < L:
                        v = buf[4 * x + k]
                img[y, x, k] = v
    return img


SHAPES = {
    "channel_major": st.tuples(st.integers(1, 3), st.integers(1, 6), st.integers(1, 6), st.integers(1, 10)),
    "height_major": st.tuples(st.integers(1, 3), st.integers(1, 10), st.integers(1, 5), st.integers(1, 5)),
    "width_major": st.tuples(st.integers(1, 3), st.integers(1, 5), st.integers(1, 10), st.integers(1, 5)),
    "conv_filter": st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 10), st.integers(1, 10)),
    "dw_filter": st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 10), st.just(1)),
    "arg1d": st.tuples(st.integers(1, 40)),
}
KINDS = list(SHAPES)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_relations_match_the_slow_loop_oracle(kind, data):
    shape = data.draw(SHAPES[kind])
    dtype = data.draw(st.sampled_from([np.float32, np.float16]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    buf = (rng.standard_normal(shape) * 1000).astype(dtype)
    img = buffer_to_image(buf, kind)
    assert img.dtype == dtype
    assert np.array_equal(img, oracle_image(buf, kind))
    # the registry's MemoryImage holds exactly these bytes, row-major (y, x, lane)
    mi = models.pack("mace.image." + kind, buf)
    assert mi.tobytes() == img.tobytes()
    assert np.array_equal(image_array(mi, dtype), img)
    assert np.array_equal(models.unpack("mace.image." + kind, mi, shape, dtype), buf)
    assert np.array_equal(image_to_buffer(img, kind, shape), buf)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_every_element_once_and_every_padding_lane_zero(kind, data):
    shape = data.draw(SHAPES[kind])
    buf = np.arange(1, 1 + int(np.prod(shape)), dtype=np.float32).reshape(shape)
    img = buffer_to_image(buf, kind)
    mask = valid_mask(kind, shape)
    assert np.all(img[~mask] == 0)
    assert np.array_equal(np.sort(img[mask]), buf.reshape(-1))  # a bijection onto the valid lanes
    dirty = img.copy()
    dirty[~mask] = -7.0  # unpack ignores padding lanes
    assert np.array_equal(image_to_buffer(dirty, kind, shape), buf)
    w, h = image_size(kind, shape)
    assert img.shape == (h, w, 4)


@pytest.mark.parametrize(
    "kind, shape, size",
    [
        # seed tables, [width, height]
        ("channel_major", (2, 3, 5, 6), [5 * ((6 + 3) // 4), 2 * 3]),
        ("height_major", (2, 6, 5, 3), [5 * 3, 2 * ((6 + 3) // 4)]),
        ("width_major", (2, 3, 6, 5), [((6 + 3) // 4) * 5, 2 * 3]),
        ("conv_filter", (3, 2, 9, 5), [8, 3 * 2 * ((9 + 3) // 4)]),
        ("dw_filter", (3, 2, 9, 1), [3 * 2 * 1, (9 + 3) // 4]),
        ("arg1d", (9,), [(9 + 3) // 4, 1]),
    ],
)
def test_image_sizes_of_the_seed_tables(kind, shape, size):
    assert list(image_size(kind, shape)) == size
    d = models.info("mace.image." + kind, shape, "float16")
    assert d["image_size"] == size and d["surfaces"][0]["bytes"] == size[0] * size[1] * 4 * 2


# ---------------------------------------------------------------------- worked examples, sections 4-9
def test_section4_channel_major_example():
    buf = E4((1, 2, 3, 5))
    img = buffer_to_image(buf, "channel_major")
    assert img.shape == (2, 6, 4)  # image 6 x 2
    assert px(img, 0, 0) == [e(0, 0, 0, 0), e(0, 0, 0, 1), e(0, 0, 0, 2), e(0, 0, 0, 3)]
    assert px(img, 2, 0) == [e(0, 0, 2, 0), e(0, 0, 2, 1), e(0, 0, 2, 2), e(0, 0, 2, 3)]
    assert px(img, 3, 0) == [e(0, 0, 0, 4), 0, 0, 0]
    assert px(img, 5, 1) == [e(0, 1, 2, 4), 0, 0, 0]


def test_section5_height_major_example_1():
    img = buffer_to_image(E4((1, 2, 3, 5)), "height_major")
    assert img.shape == (1, 15, 4)  # image 15 x 1
    assert px(img, 0, 0) == [e(0, 0, 0, 0), e(0, 1, 0, 0), 0, 0]
    assert px(img, 4, 0) == [e(0, 0, 1, 1), e(0, 1, 1, 1), 0, 0]
    assert px(img, 14, 0) == [e(0, 0, 2, 4), e(0, 1, 2, 4), 0, 0]


def test_section5_height_major_example_2_and_the_wrong_seed_relation():
    buf = E4((2, 5, 2, 2))
    img = buffer_to_image(buf, "height_major")
    assert img.shape == (4, 4, 4)  # Hb = 2, image 4 x 4
    assert px(img, 0, 1) == [e(0, 4, 0, 0), 0, 0, 0]
    assert px(img, 0, 2) == [e(1, 0, 0, 0), e(1, 1, 0, 0), e(1, 2, 0, 0), e(1, 3, 0, 0)]
    assert px(img, 2, 3) == [e(1, 4, 0, 1), 0, 0, 0]
    # the seed's relation (n = j % N, h = j/H*4 + k) would put n=1, h=0..3 at (x=0, y=1): not what MACE does
    N, H, W = 2, 5, 2
    seed = [buf[1 % N, (1 // H) * 4 + k, 0 % W, 0 // W] for k in range(4)]
    assert px(img, 0, 1) != [float(v) for v in seed]


def test_section6_width_major_examples():
    img = buffer_to_image(E4((1, 2, 3, 5)), "width_major")
    assert img.shape == (2, 5, 4)  # Wb = 1, image 5 x 2
    assert px(img, 0, 0) == [e(0, 0, 0, 0), e(0, 0, 1, 0), e(0, 0, 2, 0), 0]
    assert px(img, 4, 1) == [e(0, 1, 0, 4), e(0, 1, 1, 4), e(0, 1, 2, 4), 0]
    img = buffer_to_image(E4((1, 2, 5, 2)), "width_major")
    assert img.shape == (2, 4, 4)  # Wb = 2, image 4 x 2
    assert px(img, 1, 0) == [e(0, 0, 4, 0), 0, 0, 0]
    assert px(img, 2, 0) == [e(0, 0, 0, 1), e(0, 0, 1, 1), e(0, 0, 2, 1), e(0, 0, 3, 1)]
    # (the seed's relation would read c = 0, w = 8..11 at x = 2: out of range; the clarified one is used)


def test_section7a_conv_filter_example_with_zero_pad_columns():
    buf = E4((1, 2, 5, 3))  # HWOI, H=1, W=2, O=5, I=3
    img = buffer_to_image(buf, "conv_filter")
    assert img.shape == (4, 4, 4)  # image 4 x 4 (width RoundUp4(3) = 4)
    assert px(img, 0, 0) == [e(0, 0, 0, 0), e(0, 0, 1, 0), e(0, 0, 2, 0), e(0, 0, 3, 0)]
    assert px(img, 2, 1) == [e(0, 1, 0, 2), e(0, 1, 1, 2), e(0, 1, 2, 2), e(0, 1, 3, 2)]
    assert px(img, 1, 2) == [e(0, 0, 4, 1), 0, 0, 0]
    # pad column x = 3: the seed-era kernel holds flat elements 3, 6, 9, 12 / 15 / past-the-end there;
    # this model writes zeros (documented choice, clarifications 7a and 11)
    flat = buf.reshape(-1)
    assert [flat[3], flat[6], flat[9], flat[12]] == [e(0, 0, 1, 0), e(0, 0, 2, 0), e(0, 0, 3, 0), e(0, 0, 4, 0)]
    assert np.all(img[:, 3] == 0)
    # unpack ignores the pad columns
    dirty = img.copy()
    dirty[:, 3] = 7.0
    assert np.array_equal(image_to_buffer(dirty, "conv_filter", buf.shape), buf)


def test_section7b_master_oihw_example_is_our_image_without_pad_columns():
    oihw = E4((5, 3, 1, 2))  # O=5, I=3, H=1, W=2 ; E(o,i,h,w)
    img = buffer_to_image(oihw.transpose(2, 3, 0, 1), "conv_filter")[:, :3]  # HWOI, fixed width I
    assert img.shape == (4, 3, 4)  # image 3 x 4
    assert px(img, 0, 0) == [e(0, 0, 0, 0), e(1, 0, 0, 0), e(2, 0, 0, 0), e(3, 0, 0, 0)]
    assert px(img, 2, 3) == [e(4, 2, 0, 1), 0, 0, 0]


def test_section8_depthwise_examples():
    img = buffer_to_image(E4((2, 2, 5, 1)), "dw_filter")  # HWIM, H=2, W=2, I=5, M=1
    assert img.shape == (2, 4, 4)  # image 4 x 2
    assert px(img, 0, 0) == [e(0, 0, 0, 0), e(0, 0, 1, 0), e(0, 0, 2, 0), e(0, 0, 3, 0)]
    assert px(img, 3, 0) == [e(1, 1, 0, 0), e(1, 1, 1, 0), e(1, 1, 2, 0), e(1, 1, 3, 0)]
    assert px(img, 1, 1) == [e(0, 1, 4, 0), 0, 0, 0]
    mihw = E4((1, 5, 2, 2))  # master MIHW: same geometry with the new axis order
    img = buffer_to_image(mihw.transpose(2, 3, 1, 0), "dw_filter")
    assert px(img, 1, 0) == [e(0, 0, 0, 1), e(0, 1, 0, 1), e(0, 2, 0, 1), e(0, 3, 0, 1)]


def test_section8_multiplier_above_one_is_refused():
    with pytest.raises(FormatError) as exc:
        models.pack("mace.image.dw_filter", np.ones((3, 3, 4, 2), np.float32))
    assert exc.value.rule == "mace.dw_multiplier"
    with pytest.raises(FormatError) as exc:
        image_size("dw_filter", (3, 3, 4, 3))
    assert exc.value.rule == "mace.dw_multiplier"


def test_section9_argument_example():
    img = buffer_to_image(np.array([1, 2, 3, 4, 5], np.float32), "arg1d")
    assert img.shape == (1, 2, 4)
    assert px(img, 0, 0) == [1, 2, 3, 4] and px(img, 1, 0) == [5, 0, 0, 0]


# ---------------------------------------------------------------------- dtypes, errors
def test_float16_image_bytes():
    buf = np.arange(1, 1 + 2 * 3 * 5, dtype=np.float16).reshape(1, 2, 3, 5)
    mi = models.pack("mace.image.channel_major", buf)
    assert mi.nbytes == 6 * 2 * 4 * 2
    assert mi.meta["image_shape"] == (2, 6, 4)
    # pixel (x=3, y=0) = E(0,0,0,4) 0 0 0 at byte ((0*6)+3)*8
    assert np.frombuffer(mi.tobytes()[24:32], np.float16).tolist() == [buf[0, 0, 0, 4], 0, 0, 0]


def test_bad_input_is_a_format_error():
    with pytest.raises(FormatError) as exc:
        models.pack("mace.image.channel_major", np.ones((1, 2, 2, 2), np.int8))
    assert exc.value.rule == "dtype.unsupported"
    with pytest.raises(FormatError) as exc:
        models.unpack("mace.image.channel_major", bytes(10), (1, 2, 2, 2), "float32")
    assert exc.value.rule == "mace.image_size"
    with pytest.raises(FormatError) as exc:
        image_to_buffer(np.zeros((2, 2, 4), np.float32), "channel_major", (1, 2, 3, 5))
    assert exc.value.rule == "mace.image_shape"
    with pytest.raises(FormatError) as exc:
        buffer_to_image(np.ones((2, 2), np.float32), "arg1d")
    assert exc.value.rule == "mace.shape"
    with pytest.raises(FormatError) as exc:
        buffer_to_image(np.ones(4, np.float32), "rgba")
    assert exc.value.rule == "mace.kind"
    with pytest.raises(FormatError) as exc:
        models.descriptor("mace.image.height_major", (1, 2, 2, 2), "float32")
    assert exc.value.rule == "descriptor.none"
