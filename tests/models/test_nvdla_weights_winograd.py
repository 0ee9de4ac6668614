"""nvdla.weight.winograd: clarifications §5 examples, seed Fig. 15 order, rounding/saturation, oracle, round trips."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.nvdla.weights import winograd

from .nvdla_weight_helpers import FAST, bits, densities, dtypes, le_bytes, random_weights, round_up, seeds

NAME = "nvdla.weight.winograd"
# The seed's matrix, written out again with exact fractions.
GM = [
    [Fraction(1), Fraction(0), Fraction(0)],
    [Fraction(1, 2), Fraction(1, 2), Fraction(1, 2)],
    [Fraction(1, 2), Fraction(-1, 2), Fraction(1, 2)],
    [Fraction(0), Fraction(0), Fraction(1)],
]


def exact_u(g3):
    """U = G g G^T by explicit sums over exact fractions."""
    return [
        [sum(GM[i][a] * Fraction(float(g3[a][b])) * GM[j][b] for a in range(3) for b in range(3)) for j in range(4)]
        for i in range(4)
    ]


def oracle_layout(u: np.ndarray) -> bytes:
    """Phase 2 by loops: per kernel group, per 4-channel block, per kernel, cube idx = (h*4+w)*4 + c."""
    K, cext = u.shape[:2]
    kpg = 32 if u.dtype.itemsize == 1 else 16
    out = bytearray()
    for g0 in range(0, K, kpg):
        for cb in range(0, cext, 4):
            for k in range(g0, min(g0 + kpg, K)):
                for h in range(4):
                    for w in range(4):
                        for c in range(cb, cb + 4):
                            out += le_bytes(u[k, c, h, w])
    return bytes(out + bytes(round_up(len(out), 128) - len(out)))


def test_clarification_5_g_0_to_8_first_row():
    g = np.arange(9, dtype=np.int16).reshape(1, 1, 3, 3)
    u = winograd.transform_exact(winograd.extend(g))
    assert u[0, 0, 0].tolist() == [0, 1.5, 0.5, 2]
    assert u.shape == (1, 16, 4, 4) and not u[0, 1:].any()  # C padded 1 -> 16 (32 B)
    want = exact_u(np.arange(9).reshape(3, 3))
    assert [[Fraction(v) for v in row] for row in u[0, 0].tolist()] == want
    cases = {"trunc": [0, 1, 0, 2], "nearest_even": [0, 2, 0, 2], "half_away": [0, 2, 1, 2], "compiler": [0, 1, 0, 2]}
    for rounding, row in cases.items():
        img = models.pack(NAME, g, rounding=rounding)
        back = models.unpack(NAME, img, g.shape, "int16", rounding=rounding)
        assert back.shape == (1, 16, 4, 4) and back.dtype == np.int16
        assert back[0, 0, 0].tolist() == row, rounding
        assert np.array_equal(back, winograd.transform(g, rounding=rounding))


def test_clarification_5_extension_5x5_24ch_int16_stride2_to_3x3x128():
    K, C = 2, 24
    g = (np.arange(K * C * 25).reshape(K, C, 5, 5) % 30000 + 1).astype(np.int16)
    ext = winograd.extend(g, stride_x=2, stride_y=2)
    assert ext.shape == (K, 128, 3, 3)  # 24 ch -> 32 (64 B) -> 3x3x128 (256 B)
    for k in range(K):
        for cn in range(128):
            blk, c = divmod(cn, 32)
            dy, dx = divmod(blk, 2)
            for y in range(3):
                for x in range(3):
                    hh, ww = 2 * y + dy, 2 * x + dx
                    want = g[k, c, hh, ww] if c < C and hh < 5 and ww < 5 else 0
                    assert ext[k, cn, y, x] == want, (k, cn, y, x)
    assert ext[0, 32, 0, 0] == g[0, 0, 0, 1]  # ch 32..63 come from odd columns
    inf = models.info(NAME, g.shape, "int16", stride_x=2, stride_y=2)
    assert inf["padded_channels"] == 32 and inf["extended_channels"] == 128
    assert inf["byte_per_kernel"] == 4 * 4 * 128 * 2 and inf["cube_bytes"] == 128
    assert inf["transformed_shape"] == [K, 128, 4, 4]


def test_seed_fig15_cube_order_k0_00_to_k15_31():
    """Fig. 15 memory: K0_00 K1_00 ... K15_00 ... K14_08 K15_08 ... K15_31 (32 cubes of 4 ch per kernel)."""
    K, cext = 16, 128
    k, c, h, w = np.meshgrid(np.arange(K), np.arange(cext), np.arange(4), np.arange(4), indexing="ij")
    u = (k * 100 + c // 4).astype(np.int16)
    data = models.pack(NAME, u, transformed=True)["weight"].data.view("<i2").reshape(-1, 64)
    labels = [f"K{v // 100}_{v % 100:02d}" for v in data[:, 0].tolist()]
    assert all(len(set(row.tolist())) == 1 for row in data)
    assert labels[:2] == ["K0_00", "K1_00"] and labels[15] == "K15_00"
    assert labels[8 * 16 + 14 : 8 * 16 + 16] == ["K14_08", "K15_08"] and labels[-1] == "K15_31"
    assert len(labels) == 16 * 32
    # inside a cube: idx = (h*4 + w)*4 + c
    u2 = (h * 1000 + w * 100 + c).astype(np.int16)
    cube0 = models.pack(NAME, u2, transformed=True)["weight"].data.view("<i2")[:64]
    assert cube0.tolist() == [hh * 1000 + ww * 100 + cc for hh in range(4) for ww in range(4) for cc in range(4)]


@given(
    K=st.sampled_from([1, 15, 16, 17, 33]),
    C=st.sampled_from([1, 3, 16, 17, 33]),
    stride=st.sampled_from([(1, 1), (2, 1), (1, 2), (2, 2), (3, 2)]),
    dtype=dtypes,
    seed=seeds,
)
@FAST
def test_pack_matches_oracles(K, C, stride, dtype, seed):
    sx, sy = stride
    R, S = 3 * sy - (seed % sy), 3 * sx - (seed // 7 % sx)  # any size that extends to 3x3
    g = random_weights(seed, (K, C, R, S), dtype, finite=True)
    u = winograd.transform(g, sx, sy)
    assert models.pack(NAME, g, stride_x=sx, stride_y=sy).tobytes() == oracle_layout(u)
    if K == 1 and C <= 3:  # exact transform of every 3x3 plane
        e = winograd.extend(g, sx, sy)
        for cn in range(e.shape[1]):
            want = exact_u(e[0, cn].astype(np.float64))
            assert [[Fraction(v) for v in row] for row in winograd.transform_exact(e)[0, cn].tolist()] == want


def test_rounding_modes_on_fp16_ties_and_saturation():
    # U[0,1] = (g00 + g01 + g02) / 2: 1024.5 is a tie between fp16 1024 and 1025; 1025.5 between 1025 and 1026.
    def u01(g00, g01, rounding):
        g = np.zeros((1, 1, 3, 3), np.float16)
        g[0, 0, 0, :2] = g00, g01
        return float(winograd.transform(g, rounding=rounding)[0, 0, 0, 1])

    assert [u01(1025, 1024, m) for m in ("nearest_even", "half_away", "trunc")] == [1024, 1025, 1024]
    assert [u01(1025, 1026, m) for m in ("nearest_even", "half_away", "trunc")] == [1026, 1026, 1025]
    assert [u01(-1025, -1024, m) for m in ("nearest_even", "half_away", "trunc")] == [-1024, -1025, -1024]
    assert u01(1025, 1024, "compiler") == 1025  # fp16: half_away (clarifications §5)
    # int: -1.5 -> trunc -1, nearest_even -2, half_away -2; 2.5 -> 2, 2, 3
    g = np.zeros((1, 1, 3, 3), np.int8)
    g[0, 0, 0, :] = [-1, -1, -1]  # U[0,1] = -1.5
    g[0, 0, 2, :] = [2, 1, 2]  # U[3,1] = 2.5
    for mode, want in {"trunc": (-1, 2), "nearest_even": (-2, 2), "half_away": (-2, 3), "compiler": (-1, 2)}.items():
        u = winograd.transform(g, rounding=mode)
        assert (u[0, 0, 0, 1], u[0, 0, 3, 1]) == want, mode
    # saturation: U[1,1] = 9/4 * g
    assert winograd.transform(np.full((1, 1, 3, 3), 127, np.int8))[0, 0, 1, 1] == 127
    assert winograd.transform(np.full((1, 1, 3, 3), -128, np.int8))[0, 0, 1, 1] == -128
    assert winograd.transform(np.full((1, 1, 3, 3), 32767, np.int16))[0, 0, 1, 1] == 32767
    assert winograd.transform(np.full((1, 1, 3, 3), 65504, np.float16))[0, 0, 1, 1] == 65504
    assert winograd.transform(np.full((1, 1, 3, 3), -65504, np.float16))[0, 0, 1, 1] == -65504


@given(
    K=st.sampled_from([1, 15, 16, 17, 33]),
    C=st.sampled_from([1, 15, 16, 17, 40]),
    dtype=dtypes,
    density=densities,
    compress=st.booleans(),
    rounding=st.sampled_from(winograd.ROUNDINGS),
    seed=seeds,
)
@FAST
def test_round_trip_returns_the_transformed_tensor(K, C, dtype, density, compress, rounding, seed):
    g = random_weights(seed, (K, C, 3, 3), dtype, density, finite=True)
    img = models.pack(NAME, g, compress=compress, rounding=rounding)
    back = models.unpack(NAME, img, g.shape, dtype, compress=compress, rounding=rounding)
    assert np.array_equal(bits(back), bits(winograd.transform(g, rounding=rounding)))
    # transformed=True: the layout alone round-trips any U exactly (NaN/-0 bit patterns too)
    u = random_weights(seed + 1, back.shape, dtype, density)
    img2 = models.pack(NAME, u, transformed=True, compress=compress)
    assert np.array_equal(bits(models.unpack(NAME, img2, u.shape, dtype, transformed=True, compress=compress)), bits(u))
    inf = models.info(NAME, g.shape, dtype, compress=compress)
    if not compress:
        assert img["weight"].nbytes == inf["padded_bytes"] == round_up(K * 16 * back.shape[1] * g.dtype.itemsize, 128)
    else:
        assert img["wmb"].nbytes == inf["wmb_bytes"]


def test_bad_inputs_raise_format_error():
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((1, 1, 5, 5), np.int8))  # stride 1 keeps 5x5
    assert ei.value.rule == "winograd.kernel_3x3" and "5x5" in str(ei.value)
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((1, 1, 3, 3), np.int8), stride_x=2)  # 3x3 stride 2 -> 3x2
    assert ei.value.rule == "winograd.kernel_3x3"
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((1, 1, 3, 3), np.int8), post_extension=2)
    assert ei.value.rule == "winograd.post_extension" and "Table 34" in str(ei.value)
    g = np.zeros((1, 1, 3, 3), np.float16)
    g[0, 0, 1, 1] = np.nan
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, g)
    assert ei.value.rule == "winograd.non_finite"
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((1, 16, 3, 3), np.int16), transformed=True)
    assert ei.value.rule == "winograd.transformed_shape"
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((1, 8, 4, 4), np.int16), transformed=True)  # 16 B, not 32 B
    assert ei.value.rule == "winograd.transformed_shape"
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((1, 1, 3, 3), np.int8), rounding="up")
    assert ei.value.rule == "option.choice"
    with pytest.raises(FormatError) as ei:
        winograd.pack(np.zeros((1, 1, 3, 3), np.float32))
    assert ei.value.rule == "weight.dtype"
    img = models.pack(NAME, np.ones((1, 1, 3, 3), np.int16))
    with pytest.raises(FormatError) as ei:
        models.unpack(NAME, img["weight"].data[:256], (1, 1, 3, 3), "int16")
    assert ei.value.rule == "weight.surface_size"
