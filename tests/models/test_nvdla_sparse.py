"""Sparse weight compression (seed "Sparse Compression option", Fig. 17; clarifications §7)."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.nvdla import sparse

from .nvdla_weight_helpers import FAST, bits, densities, random_weights, round_up, seeds


def oracle_compress(dense: bytes, e: int, sizes: list[int]):
    """Bit-by-bit: WMB LSB-first, kept elements back to back, WGS = exact bytes per group; 128-B padding."""
    n = sum(sizes)
    elems = [dense[i * e : (i + 1) * e] for i in range(n)]
    wmb = bytearray(round_up((n + 7) // 8, 128))
    weight = bytearray()
    wgs = bytearray()
    i = 0
    for size in sizes:
        kept = 0
        for _ in range(size):
            if any(elems[i]):
                wmb[i // 8] |= 1 << (i % 8)
                weight += elems[i]
                kept += 1
            i += 1
        wgs += (kept * e).to_bytes(4, "little")
    weight += bytes(round_up(len(weight), 128) - len(weight))
    wgs += bytes(round_up(len(wgs), 128) - len(wgs))
    return bytes(weight), bytes(wmb), bytes(wgs)


def test_clarification_7_example_int8_one_group():
    dense = bytes([0, 5, 0, 0, 7, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9])
    weight, wmb, wgs = sparse.compress(dense, 1, 16)
    assert wmb[:2].tolist() == [0x32, 0x80] and wmb.size == 128 and not wmb[2:].any()
    assert weight[:4].tolist() == [0x05, 0x07, 0x01, 0x09] and weight.size == 128 and not weight[4:].any()
    assert wgs[:4].view("<u4")[0] == 4
    assert wgs.size == 128 and not wgs[4:].any()  # Table 35: WGS data size aligned to 128 B
    assert sparse.decompress(weight, wmb, wgs, 1, 16, 16).tobytes() == dense


def test_clarification_7_example_through_the_dc_format():
    # int8 DC weights with 16 kernels of 1x1x1: the stream is k0..k15 -> the same single group of 16.
    t = np.array([0, 5, 0, 0, 7, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9], np.int8).reshape(16, 1, 1, 1)
    img = models.pack("nvdla.weight.dc", t, compress=True)
    assert img.names() == ["weight", "wmb", "wgs"]
    assert img["wmb"].data[:2].tolist() == [0x32, 0x80]
    assert img["weight"].data[:5].tolist() == [5, 7, 1, 9, 0]
    assert img["wgs"].data[:4].view("<u4")[0] == 4
    assert img.meta["D_WEIGHT_FORMAT"] == 1 and img.meta["D_WEIGHT_BYTES"] == 128 and img.meta["D_WMB_BYTES"] == 128
    assert np.array_equal(models.unpack("nvdla.weight.dc", img, t.shape, "int8", compress=True), t)


def test_wmb_is_continuous_across_groups_and_msb_first_is_not_used():
    # two groups of 5 int8 elements: group 1 starts at bit 5 of byte 0
    dense = bytes([1, 0, 0, 0, 0, 0, 2, 0, 0, 3])
    weight, wmb, wgs = sparse.compress(dense, 1, [5, 5])
    assert wmb[:2].tolist() == [0b01000001, 0b10]  # bits 0, 6, 9
    assert wgs[:8].view("<u4").tolist() == [1, 2]
    assert weight[:3].tolist() == [1, 2, 3]


def test_one_bit_per_two_byte_element_and_negative_zero_is_kept():
    # int16 0x0100 has a zero low byte but is non-zero; fp16 -0 (0x8000) is kept (bits not all zero).
    dense = np.array([0x0100, 0, 0x8000, 0, 0, 0x0001], "<u2").view(np.uint8).tobytes()
    weight, wmb, wgs = sparse.compress(dense, 2, 6)
    assert wmb[0] == 0b100101
    assert weight[:6].tolist() == [0x00, 0x01, 0x00, 0x80, 0x01, 0x00]
    assert wgs[:4].view("<u4")[0] == 6
    t = np.array([-0.0, 0.0, 1.0], np.float16).reshape(3, 1, 1, 1)
    img = models.pack("nvdla.weight.dc", t, compress=True)
    assert img["wmb"].data[0] == 0b101
    back = models.unpack("nvdla.weight.dc", img, t.shape, "float16", compress=True)
    assert bits(back).tolist() == bits(t).tolist()  # -0 survives bit-exactly


@given(n=st.integers(1, 300), e=st.sampled_from([1, 2]), group=st.integers(1, 70), density=densities, seed=seeds)
@FAST
def test_compress_matches_the_bit_loop_oracle_and_round_trips(n, e, group, density, seed):
    rng = np.random.default_rng(seed)
    raw = rng.integers(1, 256, n * e).astype(np.uint8)
    raw.reshape(n, e)[rng.random(n) >= density] = 0
    raw.reshape(n, e)[rng.random(n) < 0.2, 0] = 0  # partly zero elements stay non-zero
    dense = raw.tobytes()
    sizes = [group] * (n // group) + ([n % group] if n % group else [])
    got = sparse.compress(dense, e, group)
    want = oracle_compress(dense, e, sizes)
    assert tuple(a.tobytes() for a in got) == want
    assert tuple(a.tobytes() for a in sparse.compress(dense, e, sizes)) == want
    assert sparse.decompress(*got, e, group, n * e).tobytes() == dense
    # padded dense surface with explicit group sizes
    padded = dense + bytes(round_up(len(dense), 128) - len(dense))
    got2 = sparse.compress(padded, e, sizes)
    assert tuple(a.tobytes() for a in got2) == want
    assert sparse.decompress(*got2, e, sizes, len(padded)).tobytes() == padded


@given(
    K=st.sampled_from([1, 15, 16, 17, 33, 40]),
    C=st.sampled_from([1, 63, 65]),
    RS=st.integers(1, 3),
    dtype=st.sampled_from(["int8", "int16", "float16"]),
    density=densities,
    seed=seeds,
)
@FAST
def test_wgs_counts_the_non_zero_weights_of_each_kernel_group(K, C, RS, dtype, density, seed):
    t = random_weights(seed, (K, C, RS, RS), dtype, density)
    img = models.pack("nvdla.weight.dc", t, compress=True)
    kpg = 32 if dtype == "int8" else 16
    e = t.dtype.itemsize
    nz = bits(t) != 0
    groups = -(-K // kpg)
    want = [int(nz[g * kpg : (g + 1) * kpg].sum()) * e for g in range(groups)]
    wgs = img["wgs"].data
    assert wgs[: 4 * groups].view("<u4").tolist() == want
    assert img["wgs"].nbytes == round_up(4 * groups, 128) and not wgs[4 * groups :].any()
    assert int(np.unpackbits(img["wmb"].data).sum()) == int(nz.sum())
    assert img["weight"].nbytes == round_up(sum(want), 128) == img.meta["D_WEIGHT_BYTES"]
    assert img["wmb"].nbytes == round_up(-(-t.size // 8), 128) == img.meta["D_WMB_BYTES"]


def _example():
    dense = bytes([0, 5, 0, 0, 7, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9] * 3)
    return dense, sparse.compress(dense, 1, 16)


@pytest.mark.parametrize(
    "mutate,rule",
    [
        (lambda w, m, g: (w, m, np.concatenate([[5], g[1:]]).astype(np.uint8)), "sparse.wgs_mismatch"),
        (lambda w, m, g: (w, m[:5], g), "sparse.wmb_length"),
        (lambda w, m, g: (w, np.concatenate([m[:6], [1], m[7:]]).astype(np.uint8), g), "sparse.wmb_padding"),
        (lambda w, m, g: (w, m, g[:8]), "sparse.wgs_length"),
        (lambda w, m, g: (w[:11], m, g), "sparse.weight_length"),
        (lambda w, m, g: (w, np.concatenate([[0x33], m[1:]]).astype(np.uint8), g), "sparse.wgs_mismatch"),
    ],
)
def test_decompress_rejects_corrupt_surfaces(mutate, rule):
    dense, (w, m, g) = _example()
    with pytest.raises(FormatError) as ei:
        sparse.decompress(*mutate(w, m, g), 1, 16, len(dense))
    assert ei.value.rule == rule


def test_decompress_and_compress_reject_bad_parameters():
    dense, (w, m, g) = _example()
    with pytest.raises(FormatError) as ei:
        sparse.decompress(w, m, g, 3, 16, len(dense))
    assert ei.value.rule == "sparse.elem_bytes"
    with pytest.raises(FormatError) as ei:
        sparse.decompress(w, m, g, 2, 16, 47)
    assert ei.value.rule == "sparse.dense_size"
    with pytest.raises(FormatError) as ei:
        sparse.decompress(w, m, g, 1, [16, 16, 17], len(dense))
    assert ei.value.rule == "sparse.group_elems"
    with pytest.raises(FormatError) as ei:
        sparse.compress(dense + b"\x01", 1, [16, 16, 16])
    assert ei.value.rule == "sparse.trailing_nonzero"
    with pytest.raises(FormatError) as ei:
        sparse.compress(dense[:-1] + b"\x00\x00", 2, 8)
    assert ei.value.rule == "sparse.dense_size"
    with pytest.raises(FormatError) as ei:
        sparse.compress(dense, 1, 0)
    assert ei.value.rule == "sparse.group_elems"


def test_corrupt_wgs_in_an_image_is_reported_through_unpack():
    t = np.arange(1, 33, dtype=np.int16).reshape(2, 16, 1, 1)
    img = models.pack("nvdla.weight.dc", t, compress=True)
    wgs = img["wgs"].data.copy()
    wgs[0] += 2
    bad = {"weight": img["weight"].data, "wmb": img["wmb"].data, "wgs": wgs}
    with pytest.raises(FormatError) as ei:
        models.unpack("nvdla.weight.dc", bad, t.shape, "int16", compress=True)
    assert ei.value.rule == "sparse.wgs_mismatch" and "WGS[0] = 66" in str(ei.value)
