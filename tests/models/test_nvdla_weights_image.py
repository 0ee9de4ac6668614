"""nvdla.weight.image: seed Fig. 14 and Fig. 16, clarifications §4 examples, limits, oracle, round trips."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.nvdla.weights import groups, image

from .nvdla_weight_helpers import FAST, bits, densities, dtypes, le_bytes, random_weights, round_up, seeds

NAME = "nvdla.weight.image"


def oracle(t: np.ndarray, ci: int, n: int) -> bytes:
    """Slow loops: pad to Ci, pre-extend (c' = w*Ci + c), then post-extension N (N=1: DC with 64-blocks)."""
    K, C, R, S = t.shape
    e = t.dtype.itemsize
    kpg = 32 if e == 1 else 16
    cp = S * ci
    ext = {}
    for k in range(K):
        for h in range(R):
            for w in range(S):
                for c in range(ci):
                    ext[k, w * ci + c, h] = t[k, c, h, w] if c < C else t.dtype.type(0)
    out = bytearray()
    for g0 in range(0, K, kpg):
        ks = range(g0, min(g0 + kpg, K))
        if n == 1:
            for c0 in range(0, cp, 64):
                for h in range(R):
                    for k in ks:
                        for c in range(c0, min(c0 + 64, cp)):
                            out += le_bytes(ext[k, c, h])
        else:
            for r0 in range(0, R, n):
                for k in ks:
                    for h in range(r0, min(r0 + n, R)):
                        for c in range(cp):
                            out += le_bytes(ext[k, c, h])
    return bytes(out + bytes(round_up(len(out), 128) - len(out)))


def test_seed_fig14_5x5x3_int16_pre_extends_to_1x5x15():
    # Fig. 14 numbers: every channel plane holds 5*h + w (rows 0-4, 5-9, ..., 20-24).
    h, w = np.meshgrid(np.arange(5), np.arange(5), indexing="ij")
    t = np.broadcast_to((5 * h + w).astype(np.int16), (1, 3, 5, 5)).copy()
    ext = image.pre_extend(t)
    assert ext.shape == (1, 15, 5, 1)  # 1x5x15, not the prose's "3x5x15" (clar. §4.1)
    assert ext[0, :, 0, 0].tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    assert ext[0, :, 4, 0].tolist() == [20, 20, 20, 21, 21, 21, 22, 22, 22, 23, 23, 23, 24, 24, 24]
    # distinguishable channels: row r holds w0(c0,c1,c2), w1(c0..2), ..., w4(c0..2)
    t2 = t + (100 * np.arange(3, dtype=np.int16))[None, :, None, None]
    ext2 = image.pre_extend(t2)
    assert ext2[0, :, 1, 0].tolist() == [5, 105, 205, 6, 106, 206, 7, 107, 207, 8, 108, 208, 9, 109, 209]
    img = models.pack(NAME, t2)
    data = img["weight"].data
    assert data.size == 256  # 5*15*2 = 150 B -> 256
    rows = data[:150].view("<i2").reshape(5, 15)  # one kernel, one C' block: row after row
    assert rows[3].tolist() == [15, 115, 215, 16, 116, 216, 17, 117, 217, 18, 118, 218, 19, 119, 219]
    assert not data[150:].any()
    inf = models.info(NAME, t2.shape, "int16")
    assert inf["extended_shape"] == [1, 15, 5, 1] and inf["byte_per_kernel"] == 150
    assert inf["registers"]["D_WEIGHT_SIZE_0.BYTE_PER_KERNEL"] == 149


def test_four_channel_image_pads_kernels_to_1x5x20():
    t = np.ones((2, 3, 5, 5), np.int16)
    ext = image.pre_extend(t, channels=4)
    assert ext.shape == (2, 20, 5, 1)
    assert ext[0, :, 0, 0].tolist() == [1, 1, 1, 0] * 5
    assert models.info(NAME, t.shape, "int16", channels=4)["byte_per_kernel"] == 5 * 20 * 2
    back = models.unpack(NAME, models.pack(NAME, t, channels=4), t.shape, "int16", channels=4)
    assert np.array_equal(back, t)


def test_clarification_4_2_example_int16_r3_c12_n2():
    """int16, R=3, C'=12 (S=4, Ci=3), N=2, 16 kernels: k0 r0 r1, k1 r0 r1, ..., k15; then k0 r2, ..., k15 r2."""
    K, C, R, S = 16, 3, 3, 4
    t = np.zeros((K, C, R, S), np.int16)
    for k in range(K):
        for r in range(R):
            for w in range(S):
                for c in range(C):
                    t[k, c, r, w] = k * 1000 + r * 100 + w * 3 + c  # = k*1000 + r*100 + c'
    data = models.pack(NAME, t, post_extension=2)["weight"].data.view("<i2")
    want = []
    for k in range(16):
        for r in (0, 1):
            want += [k * 1000 + r * 100 + cp for cp in range(12)]
    for k in range(16):
        want += [k * 1000 + 200 + cp for cp in range(12)]
    assert data[: len(want)].tolist() == want
    assert data.size * 2 == round_up(16 * 3 * 12 * 2, 128)


def test_seed_fig16_order_drawn_on_a_3x3_kernel():
    """Fig. 16: K0_00 K0_03 K1_00 K1_03 ... K15_00 K15_03 K0_01 K0_04 ... K15_02 K15_05 K0_06 K1_06 ... K15_08."""
    off = groups.row_group_offsets(16, 1, 3, 3, 16, 2)  # cells numbered row-major: 00,01,02 = row 0
    order = [""] * off.size
    for k in range(16):
        for h in range(3):
            for w in range(3):
                order[off[k, 0, h, w]] = f"K{k}_{h * 3 + w:02d}"
    assert order[:4] == ["K0_00", "K0_03", "K1_00", "K1_03"]
    assert order[30:36] == ["K15_00", "K15_03", "K0_01", "K0_04", "K1_01", "K1_04"]
    assert order[94:99] == ["K15_02", "K15_05", "K0_06", "K1_06", "K2_06"]
    assert order[111:114] == ["K15_06", "K0_07", "K1_07"] and order[-1] == "K15_08"


@pytest.mark.parametrize("N,R,limit", [(2, 5, 32), (4, 6, 16), (4, 3, 16), (2, 1, 32)])
def test_post_extension_partial_last_row_group_matches_oracle(N, R, limit):
    t = random_weights(N * 10 + R, (20, 4, R, limit // 4), "int8", 0.7)
    assert models.pack(NAME, t, post_extension=N).tobytes() == oracle(t, 4, N)


@given(
    K=st.sampled_from([1, 15, 16, 17, 33]),
    C=st.integers(1, 4),
    extra=st.booleans(),
    R=st.integers(1, 5),
    S=st.sampled_from([1, 2, 3, 5, 16, 17]),
    N=st.sampled_from([1, 2, 4]),
    dtype=dtypes,
    seed=seeds,
)
@FAST
def test_pack_matches_slow_oracle(K, C, extra, R, S, N, dtype, seed):
    ci = {1: 1, 2: 3, 3: 3, 4: 4}[C] if not extra or C == 4 else 4
    if N > 1 and S * ci > {2: 32, 4: 16}[N]:
        N = 1
    t = random_weights(seed, (K, C, R, S), dtype)
    assert models.pack(NAME, t, channels=ci, post_extension=N).tobytes() == oracle(t, ci, N)


@given(
    K=st.sampled_from([1, 15, 16, 17, 33]),
    C=st.sampled_from([1, 3, 4]),
    R=st.integers(1, 7),
    S=st.integers(1, 4),
    N=st.sampled_from([1, 2, 4]),
    dtype=dtypes,
    density=densities,
    compress=st.booleans(),
    seed=seeds,
)
@FAST
def test_round_trip(K, C, R, S, N, dtype, density, compress, seed):
    if N > 1 and S * C > {2: 32, 4: 16}[N]:
        N = 1
    t = random_weights(seed, (K, C, R, S), dtype, density)
    img = models.pack(NAME, t, post_extension=N, compress=compress)
    back = models.unpack(NAME, img, t.shape, dtype, post_extension=N, compress=compress)
    assert np.array_equal(bits(back), bits(t))
    inf = models.info(NAME, t.shape, dtype, post_extension=N, compress=compress)
    assert inf["bytes"] == K * R * S * C * t.dtype.itemsize
    assert inf["registers"]["D_POST_Y_EXTENSION.Y_EXTENSION"] == {1: 0, 2: 1, 4: 2}[N]
    if not compress:
        assert img["weight"].nbytes == inf["padded_bytes"]


@pytest.mark.parametrize("compress", [False, True])
def test_registers_name_pixel_input(compress):
    """Image weights serve a layer whose data is an image: D_DATAIN_FORMAT.DATAIN_FORMAT is PIXEL, 1 in NVIDIA's
    NVDLA_CDMA.rdl (FEATURE is 0), in info() and in the packed image's meta alike."""
    t = np.arange(2 * 4 * 3 * 3, dtype=np.int8).reshape(2, 4, 3, 3)
    inf = models.info(NAME, t.shape, np.int8, post_extension=2, compress=compress)
    assert inf["registers"]["D_DATAIN_FORMAT.DATAIN_FORMAT"] == 1
    assert models.pack(NAME, t, post_extension=2, compress=compress).meta["D_DATAIN_FORMAT.DATAIN_FORMAT"] == 1


def test_limits_and_bad_options_raise_format_error():
    t3 = np.zeros((4, 3, 3, 11), np.int8)  # C' = 33
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, t3, post_extension=2)
    assert ei.value.rule == "image.post_extension_c_limit" and "33" in str(ei.value)
    models.pack(NAME, t3[..., :10], post_extension=2)  # C' = 30 is fine
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((4, 3, 3, 6), np.int16), post_extension=4)  # C' = 18 > 16
    assert ei.value.rule == "image.post_extension_c_limit"
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((4, 4, 3, 2), np.int16), post_extension=4, stride_x=5)  # 5*4 > 16
    assert ei.value.rule == "image.post_extension_stride_limit"
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((1, 4, 3, 3), np.int8), channels=3)
    assert ei.value.rule == "image.channels" and "C=4" in str(ei.value)
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((1, 2, 3, 3), np.int8))  # default Ci = C = 2: no such image
    assert ei.value.rule == "image.channels"
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((1, 5, 3, 3), np.int8), channels=5)
    assert ei.value.rule == "image.channels"
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, np.zeros((1, 3, 3, 3), np.int8), post_extension=3)
    assert ei.value.rule == "option.choice"
    with pytest.raises(FormatError) as ei:
        image.pack(np.zeros((1, 3, 3, 3), np.int8), post_extension=3)
    assert ei.value.rule == "image.post_extension"
    with pytest.raises(FormatError) as ei:
        image.pack(np.zeros((1, 3, 3, 3), np.uint8))
    assert ei.value.rule == "weight.dtype"
    img = models.pack(NAME, np.ones((2, 3, 3, 3), np.int16))
    with pytest.raises(FormatError) as ei:
        models.unpack(NAME, img["weight"].data[:100], (2, 3, 3, 3), "int16")
    assert ei.value.rule == "weight.surface_size"
