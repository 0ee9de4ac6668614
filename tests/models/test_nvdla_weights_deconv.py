"""nvdla.weight.deconv: clarifications §6 example (3x3, stride 2), slow-loop oracle, per-set compression,
round trips."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.nvdla.weights import deconv

from .nvdla_weight_helpers import FAST, bits, densities, dtypes, le_bytes, random_weights, round_up, seeds

NAME = "nvdla.weight.deconv"


def oracle(t: np.ndarray, sx: int, sy: int) -> dict[str, bytes]:
    """Slow loops: per set (y outer, x inner) the DC scan of the set with h and w running backwards."""
    K, C, R, S = t.shape
    e = t.dtype.itemsize
    kpg = 32 if e == 1 else 16
    rp, sp = -(-R // sy), -(-S // sx)
    out = {}
    for y in range(sy):
        for x in range(sx):
            buf = bytearray()
            for g0 in range(0, K, kpg):
                for c0 in range(0, C, 64):
                    for r in reversed(range(rp)):
                        for s in reversed(range(sp)):
                            for k in range(g0, min(g0 + kpg, K)):
                                for c in range(c0, min(c0 + 64, C)):
                                    ww, hh = x + s * sx, y + r * sy
                                    v = t[k, c, hh, ww] if hh < R and ww < S else t.dtype.type(0)
                                    buf += le_bytes(v)
            out[f"set_x{x}_y{y}"] = bytes(buf + bytes(round_up(len(buf), 128) - len(buf)))
    return out


def test_clarification_6_example_3x3_stride2_tap_order():
    t = np.zeros((1, 1, 3, 3), np.int8)
    for h in range(3):
        for w in range(3):
            t[0, 0, h, w] = 10 * (w + 1) + (h + 1)  # tap (w, h) -> "w+1 h+1", never 0
    tap = lambda w, h: 10 * (w + 1) + (h + 1)  # noqa: E731  (mirrors the fill loop above)
    img = models.pack(NAME, t, stride_x=2, stride_y=2)
    assert img.names() == ["set_x0_y0", "set_x1_y0", "set_x0_y1", "set_x1_y1"]
    want = {
        "set_x0_y0": [tap(2, 2), tap(0, 2), tap(2, 0), tap(0, 0)],
        "set_x1_y0": [0, tap(1, 2), 0, tap(1, 0)],
        "set_x0_y1": [0, 0, tap(2, 1), tap(0, 1)],
        "set_x1_y1": [0, 0, 0, tap(1, 1)],
    }
    for name, taps in want.items():
        s = img[name]
        assert s.data[:4].tolist() == taps, name
        assert s.nbytes == 128 and s.align == 256 and not s.data[4:].any()
        assert img.meta["sets"][name]["D_WEIGHT_SIZE_0.BYTE_PER_KERNEL"] == 3
    inf = models.info(NAME, t.shape, "int8", stride_x=2, stride_y=2)
    assert inf["set_shape"] == [1, 1, 2, 2] and inf["n_sets"] == 4 and inf["set_order"] == list(want)
    assert inf["byte_per_kernel"] == 4 and inf["padded_bytes"] == 4 * 128


@given(
    K=st.sampled_from([1, 15, 16, 17, 33]),
    C=st.sampled_from([1, 63, 64, 65]),
    R=st.integers(1, 5),
    S=st.integers(1, 5),
    sx=st.integers(1, 3),
    sy=st.integers(1, 3),
    dtype=dtypes,
    seed=seeds,
)
@FAST
def test_pack_matches_slow_oracle(K, C, R, S, sx, sy, dtype, seed):
    t = random_weights(seed, (K, C, R, S), dtype)
    img = models.pack(NAME, t, stride_x=sx, stride_y=sy)
    want = oracle(t, sx, sy)
    assert img.names() == list(want)
    assert {s.name: s.tobytes() for s in img} == want


@given(
    K=st.sampled_from([1, 15, 16, 17, 33]),
    C=st.sampled_from([1, 63, 65, 130]),
    R=st.integers(1, 5),
    S=st.integers(1, 5),
    sx=st.integers(1, 4),
    sy=st.integers(1, 4),
    dtype=dtypes,
    density=densities,
    compress=st.booleans(),
    seed=seeds,
)
@FAST
def test_round_trip(K, C, R, S, sx, sy, dtype, density, compress, seed):
    t = random_weights(seed, (K, C, R, S), dtype, density)
    img = models.pack(NAME, t, stride_x=sx, stride_y=sy, compress=compress)
    back = models.unpack(NAME, img, t.shape, dtype, stride_x=sx, stride_y=sy, compress=compress)
    assert np.array_equal(bits(back), bits(t))
    inf = models.info(NAME, t.shape, dtype, stride_x=sx, stride_y=sy, compress=compress)
    assert [s["name"] for s in inf["surfaces"]] == img.names()
    rp, sp = -(-R // sy), -(-S // sx)
    assert inf["byte_per_kernel"] == rp * sp * C * t.dtype.itemsize


def test_compression_is_per_set():
    t = np.zeros((2, 1, 2, 2), np.int16)
    t[:, 0, 0, 0] = [3, 0]  # set (0,0) holds tap (0,0) only: 1 non-zero weight
    t[:, 0, 1, 1] = [4, 5]  # set (1,1): 2 non-zero weights
    img = models.pack(NAME, t, stride_x=2, stride_y=2, compress=True)
    assert img.names() == [f"set_x{x}_y{y}.{s}" for y in range(2) for x in range(2) for s in ("weight", "wmb", "wgs")]
    assert img["set_x0_y0.wgs"].data[:4].view("<u4")[0] == 2
    assert img["set_x1_y1.wgs"].data[:4].view("<u4")[0] == 4
    assert img["set_x1_y0.wgs"].data[:4].view("<u4")[0] == 0
    assert img["set_x1_y1.weight"].data[:4].view("<i2").tolist() == [4, 5]
    assert img["set_x1_y1.wmb"].data[0] == 0b11
    assert img.meta["sets"]["set_x1_y1"]["D_WEIGHT_FORMAT"] == 1


def test_bad_inputs_raise_format_error():
    t = np.zeros((1, 1, 3, 3), np.int8)
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, t, stride_x=2, post_extension=2)
    assert ei.value.rule == "deconv.post_extension" and "Table 34" in str(ei.value)
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, t, stride_y=0)
    assert ei.value.rule == "deconv.stride"
    with pytest.raises(FormatError) as ei:
        deconv.pack(t.astype(np.float64))
    assert ei.value.rule == "weight.dtype"
    img = models.pack(NAME, t, stride_x=2, stride_y=2)
    partial = {s.name: s.data for s in img if s.name != "set_x1_y1"}
    with pytest.raises(FormatError) as ei:
        models.unpack(NAME, partial, t.shape, "int8", stride_x=2, stride_y=2)
    assert ei.value.rule == "image.surface_missing" and "set_x1_y1" in str(ei.value)
    short = {s.name: s.data[:2] for s in img}
    with pytest.raises(FormatError) as ei:
        models.unpack(NAME, short, t.shape, "int8", stride_x=2, stride_y=2)
    assert ei.value.rule == "weight.surface_size"
