"""nvdla.feature against the seed ("Feature Data Format") and clarifications 1: worked examples, an explicit
slow-loop address oracle, hypothesis round trips, the descriptor's atom stream and every strict error."""

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dlaverif import models
from dlaverif.models import FormatError
from dlaverif.models.blocked import Layout

F = "nvdla.feature"


def oracle_image(x, line_stride=None, surface_stride=None, batch_stride=None):
    """Byte image by the clarifications' address formula, one element at a time (small tensors only)."""
    if x.ndim == 3:
        x = x[None]
    n_, c_, h_, w_ = x.shape
    e = x.dtype.itemsize
    epa = 32 // e
    s_ = -(-c_ // epa)
    ls = w_ * 32 if line_stride is None else line_stride
    ss = h_ * ls if surface_stride is None else surface_stride
    bs = s_ * ss if batch_stride is None else batch_stride
    size = (n_ - 1) * bs + s_ * ss  # whole surfaces
    img = bytearray(size)
    for n in range(n_):
        for c in range(c_):
            for h in range(h_):
                for w in range(w_):
                    addr = n * bs + (c // epa) * ss + h * ls + w * 32 + (c % epa) * e
                    img[addr : addr + e] = x[n, c, h, w].astype(x.dtype.newbyteorder("<")).tobytes()
    return bytes(img)


def test_worked_example_int16_w3_h2_c20_element_at_byte_354():
    # clarifications 1.2: int16, W=3, H=2, C=20, packed LS=96, SS=192: (w=2,h=1,c=17) -> 192+96+64+2 = 354
    x = np.zeros((20, 2, 3), np.int16)
    x[17, 1, 2] = 0x1234
    img = models.pack(F, x).tobytes()
    assert len(img) == 2 * 192
    assert img[354:356] == b"\x34\x12"
    assert img.count(0) == len(img) - 2
    inf = models.info(F, x.shape, "int16")
    assert (inf["line_stride"], inf["surface_stride"], inf["surfaces_count"]) == (96, 192, 2)
    assert inf["elements_per_atom"] == 16


def test_int8_atom_holds_32_channels_and_int16_16():
    # clarifications 1.1/1.4: same 32-byte atom, 32 vs 16 channels; channel index grows with the address
    x8 = np.arange(40, dtype=np.int8).reshape(40, 1, 1)
    img8 = models.pack(F, x8).tobytes()
    assert img8[:32] == bytes(range(32)) and img8[32:40] == bytes(range(32, 40)) and img8[40:] == bytes(24)
    x16 = np.arange(20, dtype=np.int16).reshape(20, 1, 1) + 0x100
    img16 = models.pack(F, x16).tobytes()
    assert img16[:4] == b"\x00\x01\x01\x01" and img16[32:34] == b"\x10\x01"


def test_one_by_one_by_c_is_the_contiguous_channel_vector():
    # seed: a 1x1xC surface-packed cube can be treated as (C/32)x1x32: same bytes as the C vector, padded
    x = np.arange(-50, 50, dtype=np.int16).reshape(100, 1, 1)
    img = models.pack(F, x).tobytes()
    assert img == x.reshape(-1).astype("<i2").tobytes() + bytes(7 * 32 - 200)
    inf = models.info(F, x.shape, "int16")
    assert inf["one_by_one_packed"] and inf["line_packed"] and inf["surf_packed"]
    assert any("1x1xC" in n for n in inf["notes"])
    assert not models.info(F, x.shape, "int16", surface_stride=64)["one_by_one_packed"]


@pytest.mark.parametrize(
    "shape, dtype, opts",
    [
        ((3, 2, 4), "int8", {}),
        ((33, 2, 3), "int8", {"line_stride": 128}),
        ((20, 2, 3), "int16", {"line_stride": 128, "surface_stride": 320}),
        ((2, 17, 3, 2), "float16", {"batch_stride": 32 * 2 * 3 * 2 + 96}),
        ((3, 5, 1, 1), "int16", {}),
        ((1, 64, 3, 4), "int8", {"surface_stride": 384 + 64}),
    ],
)
def test_pack_matches_slow_address_oracle(shape, dtype, opts):
    rng = np.random.default_rng(1)
    x = rng.integers(0, 256, size=int(np.prod(shape)) * np.dtype(dtype).itemsize, dtype=np.uint8)
    x = x.view(dtype).reshape(shape)
    if dtype == "float16":
        x = np.where(np.isnan(x), np.float16(1.5), x)
    img = models.pack(F, x, **opts)
    assert img.tobytes() == oracle_image(x, **opts)
    assert img["data"].align == 32
    back = models.unpack(F, img, shape, dtype, **opts)
    assert back.view(np.uint8).tobytes() == x.view(np.uint8).tobytes()


def test_fp16_padding_is_positive_zero_never_nan():
    x = np.full((3, 1, 2), np.float16(-2.0))
    b = np.frombuffer(models.pack(F, x).tobytes(), "<u2").reshape(2, 16)
    assert (b[:, :3] == 0xC000).all() and (b[:, 3:] == 0).all()


def test_sizes_follow_the_formulas():
    # packed: N*S*H*W*32; strided: image (N-1)BS + S*SS, extent (N-1)BS + (S-1)SS + (H-1)LS + W*32
    inf = models.info(F, (3, 70, 5, 7), "int8")
    assert inf["bytes"] == 3 * 3 * 5 * 7 * 32 == inf["extent_bytes"]
    inf = models.info(F, (2, 40, 3, 5), "int16", line_stride=192, surface_stride=640, batch_stride=2048)
    json.dumps(inf)  # JSON-serialisable for the CLI
    assert inf["extent_bytes"] == 2048 + 2 * 640 + 2 * 192 + 5 * 32
    assert inf["bytes"] == 2048 + 3 * 640
    assert not inf["line_packed"] and not inf["surf_packed"]
    assert inf["registers"]["BATCHES"] == 1 and inf["registers"]["LINE_PACKED"] == 0


def test_packed_flags_as_firmware_sets_them():
    inf = models.info(F, (16, 4, 5), "int16")
    assert (inf["line_packed"], inf["surf_packed"]) == (True, True)
    inf = models.info(F, (16, 4, 5), "int16", surface_stride=4 * 5 * 32 + 32)
    assert (inf["line_packed"], inf["surf_packed"]) == (True, False)
    inf = models.info(F, (16, 4, 5), "int16", line_stride=192)
    assert (inf["line_packed"], inf["surf_packed"]) == (False, False)


def test_descriptor_fields_and_gather_reproduce_the_atoms():
    x = (np.arange(2 * 37 * 3 * 2) % 251 - 125).astype(np.int8).reshape(2, 37, 3, 2)
    opts = dict(line_stride=96, surface_stride=320, batch_stride=704)
    d = models.descriptor(F, x.shape, "int8", base=0x2000, **opts)
    assert (d.atom_bytes, d.elem_bytes, d.count_w, d.count_h, d.count_c, d.count_n) == (32, 1, 2, 3, 2, 2)
    assert (d.stride_h, d.stride_c, d.stride_n, d.layout, d.fp16) == (96, 320, 704, Layout.NVDLA_FEATURE, False)
    assert d.errors() == []
    atoms = d.gather(models.pack(F, x, **opts).data(), mem_base=0x2000)
    # independent expectation: canonical n -> c(surface) -> h -> w, each atom = 32 channels (zero padded)
    padded = np.zeros((2, 64, 3, 2), np.int8)
    padded[:, :37] = x
    expect = [
        padded[n, s * 32 : (s + 1) * 32, h, w].tobytes()
        for n in range(2)
        for s in range(2)
        for h in range(3)
        for w in range(2)
    ]
    assert [a.tobytes() for a in atoms] == expect
    assert models.descriptor(F, (5, 1, 1), "float16").fp16


@settings(max_examples=40, deadline=None)
@given(
    n=st.one_of(st.none(), st.integers(1, 3)),
    c=st.integers(1, 70),
    h=st.integers(1, 5),
    w=st.integers(1, 6),
    dtype=st.sampled_from(["int8", "int16", "float16"]),
    pad_l=st.integers(0, 3),
    pad_s=st.integers(0, 3),
    pad_b=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_round_trip_and_descriptor_property(n, c, h, w, dtype, pad_l, pad_s, pad_b, seed):
    shape = (c, h, w) if n is None else (n, c, h, w)
    nb = int(np.prod(shape)) * np.dtype(dtype).itemsize
    x = np.random.default_rng(seed).integers(0, 256, nb, dtype=np.uint8).view(dtype).reshape(shape)
    ls = w * 32 + 32 * pad_l
    ss = h * ls + 32 * pad_s
    s = -(-c // (32 // np.dtype(dtype).itemsize))
    bs = s * ss + 32 * pad_b
    img = models.pack(F, x, line_stride=ls, surface_stride=ss, batch_stride=bs)
    back = models.unpack(F, img, shape, dtype, line_stride=ls, surface_stride=ss, batch_stride=bs)
    assert back.shape == x.shape and back.tobytes() == x.tobytes()
    d = models.descriptor(F, shape, dtype, base=0, line_stride=ls, surface_stride=ss, batch_stride=bs)
    inf = models.info(F, shape, dtype, line_stride=ls, surface_stride=ss, batch_stride=bs)
    assert d.errors() == [] and d.extent == inf["extent_bytes"] and img.nbytes == inf["bytes"]
    assert d.gather(img.data()).shape == (d.num_atoms, 32)
    # a buffer that ends with the last atom is enough to read the cube back
    short = img.data()[: d.extent]
    assert (
        models.unpack(F, short, shape, dtype, line_stride=ls, surface_stride=ss, batch_stride=bs).tobytes()
        == x.tobytes()
    )


@pytest.mark.parametrize(
    "shape, opts, rule",
    [
        ((16, 2, 3), dict(line_stride=112), "align.feature.line_stride"),
        ((16, 2, 3), dict(line_stride=64), "feature.line_stride_min"),
        ((16, 1, 3), dict(line_stride=64), "feature.line_stride_min"),  # checked even for H=1
        ((16, 2, 3), dict(surface_stride=200), "align.feature.surface_stride"),
        ((16, 2, 3), dict(surface_stride=160), "feature.surface_stride_min"),
        ((2, 40, 2, 3), dict(batch_stride=100), "align.feature.cube_stride"),
        ((2, 40, 2, 3), dict(batch_stride=192), "feature.batch_stride_min"),  # 2 surfaces x 192 needed
        ((16, 2, 3), dict(line_stride=-32), "align.feature.line_stride"),
        ((8193, 1, 1), {}, "feature.max_dim"),
        ((1, 8193, 1), {}, "feature.max_dim"),
        ((33, 4, 1, 1), {}, "feature.max_batch"),
        ((16, 2), {}, "shape.rank"),
        ((0, 2, 2), {}, "shape.empty"),
    ],
)
def test_strict_errors_name_the_rule(shape, opts, rule):
    with pytest.raises(FormatError) as exc:
        models.info(F, shape, "int8", **opts)
    assert exc.value.rule == rule and rule in str(exc.value)


def test_batch_stride_is_free_for_one_batch_but_still_aligned():
    # C model checks BATCH_STRIDE >= SURF_STRIDE*surfaces only when N > 1 (clarifications 1.6)
    assert models.info(F, (1, 16, 2, 3), "int8", batch_stride=0)["batch_stride"] == 0
    with pytest.raises(FormatError, match="align.feature.cube_stride"):
        models.info(F, (1, 16, 2, 3), "int8", batch_stride=16)


def test_unpack_refuses_short_buffer_and_wrong_dtype():
    x = np.ones((20, 2, 3), np.int16)
    data = models.pack(F, x).data()
    with pytest.raises(FormatError) as exc:
        models.unpack(F, data[:-1], x.shape, "int16")
    assert exc.value.rule == "feature.buffer_size"
    with pytest.raises(FormatError) as exc:
        models.pack(F, x.astype(np.float32))
    assert exc.value.rule == "dtype.unsupported"
    with pytest.raises(FormatError) as exc:
        models.descriptor(F, x.shape, "int16", base=0x1010)
    assert exc.value.rule == "align.feature.start"


def test_unpack_reads_only_valid_channels():
    # padding bytes may hold anything (seed); unpack ignores them
    x = np.arange(3, dtype=np.int8).reshape(3, 1, 1)
    raw = bytearray(models.pack(F, x).tobytes())
    raw[3:] = b"\xff" * 29
    assert models.unpack(F, bytes(raw), (3, 1, 1), "int8").tolist() == [[[0]], [[1]], [[2]]]
