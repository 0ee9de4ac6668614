"""nvdla.weight.dc: seed Fig. 13, clarifications §3 worked example, two slow-loop oracles, sizes, round trips."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.nvdla.weights import dc

from .nvdla_weight_helpers import FAST, bits, densities, dtypes, le_bytes, random_weights, round_up, seeds

NAME = "nvdla.weight.dc"


def oracle_offsets(t: np.ndarray) -> bytes:
    """Clarifications §3 offset formula, element by element."""
    K, C, R, S = t.shape
    e = t.dtype.itemsize
    kpg = 32 if e == 1 else 16
    out = bytearray(round_up(K * C * R * S * e, 128))
    for k in range(K):
        g, kk = divmod(k, kpg)
        Kg = min(kpg, K - g * kpg)
        for c in range(C):
            b = c // 64
            cw = min(64, C - 64 * b)
            for h in range(R):
                for w in range(S):
                    off = g * kpg * R * S * C + b * R * S * Kg * 64 + (h * S + w) * Kg * cw + kk * cw + c % 64
                    out[off * e : (off + 1) * e] = le_bytes(t[k, c, h, w])
    return bytes(out)


def oracle_scan(t: np.ndarray) -> bytes:
    """Seed prose: groups back to back; in a group scan C' -> K -> W -> H -> C (W before H), 128-B tail."""
    K, C, R, S = t.shape
    e = t.dtype.itemsize
    kpg = 32 if e == 1 else 16
    out = bytearray()
    for g0 in range(0, K, kpg):
        for c0 in range(0, C, 64):
            for h in range(R):
                for w in range(S):
                    for k in range(g0, min(g0 + kpg, K)):
                        for c in range(c0, min(c0 + 64, C)):
                            out += le_bytes(t[k, c, h, w])
    out += bytes(round_up(len(out), 128) - len(out))
    return bytes(out)


def test_clarification_3_worked_example_fp16_k3_c70_r1_s2():
    K, C, R, S = 3, 70, 1, 2
    t = np.zeros((K, C, R, S), np.float16)
    for k in range(K):
        for c in range(C):
            for w in range(S):
                t[k, c, 0, w] = (k * C + c) * S + w  # < 420: exact in fp16
    img = models.pack(NAME, t)
    assert img.names() == ["weight"]
    data = img["weight"].data
    assert data.size == 896 and img["weight"].align == 256
    got = data[:840].view("<f2").astype(int)
    want = []
    for w in (0, 1):  # [k0 c0-63, k1 c0-63, k2 c0-63] at w0, then at w1
        for k in range(3):
            want += [(k * C + c) * S + w for c in range(64)]
    for w in (0, 1):  # then [k0 c64-69, k1 .., k2 ..] at w0, then at w1
        for k in range(3):
            want += [(k * C + c) * S + w for c in range(64, 70)]
    assert len(want) == 420
    assert got.tolist() == want
    assert not data[840:].any()
    inf = models.info(NAME, t.shape, "float16")
    assert (inf["bytes"], inf["padded_bytes"], inf["weight_bytes"]) == (840, 896, 896)
    assert inf["byte_per_kernel"] == 1 * 2 * 70 * 2
    assert inf["registers"]["D_WEIGHT_SIZE_0.BYTE_PER_KERNEL"] == 279
    assert inf["registers"]["D_WEIGHT_SIZE_1.WEIGHT_KERNEL"] == 2
    assert img.meta["D_WEIGHT_BYTES"] == 896


def test_seed_fig13_cube_order_3x3x192B_int16_group():
    """Fig. 13: 16 kernels of 3x3x192 B (96 int16 ch) -> K0_00 K1_00 .. K15_00 K0_01 .. K15_17."""
    K, C, R, S = 16, 96, 3, 3
    k, c, h, w = np.meshgrid(np.arange(K), np.arange(C), np.arange(R), np.arange(S), indexing="ij")
    cube = (c // 64) * 9 + h * 3 + w  # cube number 00..17, W along the numbers
    t = (k * 1000 + cube * 10 + (c % 64 > 31)).astype(np.int16)
    data = models.pack(NAME, t)["weight"].data.view("<i2")
    pos = 0
    labels = []
    for j in range(18):
        for kk in range(16):
            n = 64 if j < 9 else 32  # second C' block holds 96-64 = 32 channels
            chunk = data[pos : pos + n]
            assert set((chunk // 10).tolist()) == {kk * 100 + j}, (j, kk)
            labels.append(f"K{kk}_{j:02d}")
            pos += n
    assert labels[:3] == ["K0_00", "K1_00", "K2_00"] and labels[15:17] == ["K15_00", "K0_01"]
    assert labels[-1] == "K15_17"
    assert pos == 16 * 9 * 96 and pos * 2 % 128 == 0


@given(
    K=st.sampled_from([1, 2, 15, 16, 17, 33]),
    C=st.sampled_from([1, 3, 63, 64, 65, 130]),
    R=st.integers(1, 2),
    S=st.integers(1, 3),
    dtype=dtypes,
    seed=seeds,
)
@FAST
def test_pack_matches_both_slow_oracles(K, C, R, S, dtype, seed):
    t = random_weights(seed, (K, C, R, S), dtype)
    got = models.pack(NAME, t).tobytes()
    assert got == oracle_offsets(t)
    assert got == oracle_scan(t)


@given(
    K=st.sampled_from([1, 15, 16, 17, 31, 32, 33, 65]),
    C=st.sampled_from([1, 63, 64, 65, 130]),
    R=st.integers(1, 3),
    S=st.integers(1, 3),
    dtype=dtypes,
    density=densities,
    compress=st.booleans(),
    seed=seeds,
)
@FAST
def test_round_trip(K, C, R, S, dtype, density, compress, seed):
    t = random_weights(seed, (K, C, R, S), dtype, density)
    img = models.pack(NAME, t, compress=compress)
    back = models.unpack(NAME, img, t.shape, dtype, compress=compress)
    assert back.dtype == t.dtype and back.shape == t.shape
    assert np.array_equal(bits(back), bits(t))
    inf = models.info(NAME, t.shape, dtype, compress=compress)
    if compress:
        assert img.names() == ["weight", "wmb", "wgs"]
        assert all(s.nbytes % 128 == 0 and s.align == 256 for s in img)
        assert img["wmb"].nbytes == inf["wmb_bytes"] and img["wgs"].nbytes == inf["wgs_bytes"]
        assert img["weight"].nbytes <= inf["weight_bytes_max"]
    else:
        assert img["weight"].nbytes == inf["padded_bytes"]


@pytest.mark.parametrize(
    "K,C,R,S,dtype",
    [
        (1, 1, 1, 1, "int8"),
        (33, 65, 3, 2, "int8"),
        (17, 130, 1, 3, "int16"),
        (16, 64, 3, 3, "float16"),
        (64, 3, 7, 7, "int8"),
    ],
)
def test_sizes_follow_the_formulas(K, C, R, S, dtype):
    e = 1 if dtype == "int8" else 2
    kpg = 32 if dtype == "int8" else 16
    inf = models.info(NAME, (K, C, R, S), dtype)
    assert inf["elem_bytes"] == e and inf["kernels_per_group"] == kpg
    assert inf["groups"] == -(-K // kpg)
    assert inf["byte_per_kernel"] == R * S * C * e
    assert inf["bytes"] == K * R * S * C * e
    assert inf["padded_bytes"] == round_up(K * R * S * C * e, 128)
    assert inf["weight_bytes"] == inf["registers"]["D_WEIGHT_BYTES"] == inf["padded_bytes"]
    assert inf["alignment"] == 256
    assert sum(inf["group_elements"]) == K * R * S * C
    assert inf["registers"]["D_WEIGHT_SIZE_0.BYTE_PER_KERNEL"] == R * S * C * e - 1
    assert inf["registers"]["D_WEIGHT_FORMAT"] == 0
    img = models.pack(NAME, np.ones((K, C, R, S), dtype))
    assert img["weight"].nbytes == inf["padded_bytes"]


def test_big_endian_input_is_stored_little_endian():
    t = np.arange(-40, 40, dtype=np.int16).reshape(4, 5, 2, 2)
    img = models.pack(NAME, t.astype(">i2"))
    assert img.tobytes() == models.pack(NAME, t).tobytes()
    assert img["weight"].data[:2].tolist() == [(-40) & 0xFF, 0xFF]  # k0 c0 (h0, w0) = -40, low byte first


def test_groups_are_back_to_back_without_gaps():
    # int8, 33 kernels: group 0 = 32 kernels, group 1 = 1 kernel, starting right after group 0.
    t = np.zeros((33, 5, 1, 1), np.int8)
    t[32] = 7
    data = models.pack(NAME, t)["weight"].data
    assert not data[: 32 * 5].any()
    assert data[32 * 5 : 33 * 5].tolist() == [7] * 5
    assert data.size == 256 and not data[165:].any()


def test_bad_inputs_raise_format_error_naming_the_rule():
    t = np.zeros((2, 3, 3, 3), np.int8)
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, t.astype(np.float32))
    assert ei.value.rule == "dtype.unsupported"
    with pytest.raises(FormatError) as ei:
        dc.pack(t.astype(np.int32))
    assert ei.value.rule == "weight.dtype" and "int32" in str(ei.value)
    with pytest.raises(FormatError) as ei:
        models.pack(NAME, t, post_extension=2)
    assert ei.value.rule == "dc.post_extension" and "Table 34" in str(ei.value)
    with pytest.raises(FormatError) as ei:
        dc.pack(t[0])
    assert ei.value.rule == "weight.shape"
    img = models.pack(NAME, t)
    with pytest.raises(FormatError) as ei:
        models.unpack(NAME, img["weight"].data[:50], t.shape, "int8")
    assert ei.value.rule == "weight.surface_size" and "50 bytes" in str(ei.value)
    with pytest.raises(FormatError) as ei:  # a bigger tensor than the surface holds
        models.unpack(NAME, img, (20, 3, 3, 3), "int8")
    assert ei.value.rule == "weight.surface_size"
    cimg = models.pack(NAME, t + 1, compress=True)
    with pytest.raises(FormatError) as ei:  # uncompressed read of a compressed image
        models.unpack(NAME, cimg, t.shape, "int8")
    assert ei.value.rule == "weight.compress_mismatch"
    with pytest.raises(FormatError) as ei:  # compressed read of an uncompressed image
        models.unpack(NAME, img, t.shape, "int8", compress=True)
    assert ei.value.rule == "image.surface_missing"


def test_compressed_pack_of_256x256x3x3_int16_sizes():
    """The benchmark case (speed is measured by `make bench`, not asserted here)."""
    t = random_weights(7, (256, 256, 3, 3), "int16", 0.5)
    img = models.pack(NAME, t, compress=True)
    assert np.array_equal(models.unpack(NAME, img, t.shape, "int16", compress=True), t)
    assert img["wmb"].nbytes == round_up(256 * 256 * 9 // 8, 128)
