"""The CBUF placement model (dlaverif.models.nvdla.cbuf): buffer geometry, circular buffers, entries per slice and the
bytes of each entry for feature data (DC) and image input. Expected values are written out by hand from the unit
description and the programming guide (the module docstring), never computed by the model."""

import numpy as np
import pytest

from dlaverif.models import FormatError
from dlaverif.models.nvdla import cbuf


def test_geometry_of_nv_full():
    # 512 KB: 16 banks of 256 entries of 128 bytes, each entry two 64-byte halves
    assert cbuf.BANKS * cbuf.BANK_ENTRIES * cbuf.ENTRY_BYTES == 512 * 1024
    assert (cbuf.HALF_BYTES, cbuf.HALVES, cbuf.WMB_BANK) == (64, 2, 15)


def test_address_and_its_inverse():
    assert cbuf.address(0, 0) == 0
    assert cbuf.address(3, 5) == 773
    assert cbuf.address(15, 255) == 4095
    assert cbuf.bank_entry(773) == (3, 5)
    assert cbuf.where(773, 70) == "bank 3 entry 5 half 1 byte 6"
    for bad in ((16, 0), (0, 256), (-1, 0)):
        with pytest.raises(FormatError):
            cbuf.address(*bad)
    with pytest.raises(FormatError) as e:
        cbuf.bank_entry(4096)
    assert e.value.rule == "cbuf.address_range"


def test_circular_buffers_wrap_inside_their_banks():
    data = cbuf.data_buffer(2)
    assert data.entries == 512
    assert list(data.addresses([0, 511, 512, 513])) == [0, 511, 0, 1]
    wt = cbuf.weight_buffer(2, 3)
    assert list(wt.addresses([0, 767, 768])) == [512, 1279, 512]
    assert list(cbuf.wmb_buffer().addresses([0, 255, 256])) == [3840, 4095, 3840]


def test_bank_split_rules():
    cbuf.weight_buffer(10, 6)  # all 16 banks without compression
    with pytest.raises(FormatError) as e:
        cbuf.weight_buffer(10, 6, compressed=True)  # bank 15 is the WMB's
    assert e.value.rule == "cbuf.banks_sum"
    cbuf.weight_buffer(10, 5, compressed=True)
    with pytest.raises(FormatError) as e:
        cbuf.data_buffer(0)
    assert e.value.rule == "cbuf.data_banks_min"


@pytest.mark.parametrize(
    "w, c, e, eps",
    [
        (8, 200, 1, 16),  # 7 atoms: one full group (8 entries) + 3-atom tail, one pixel an entry (8)
        (8, 64, 1, 4),  # 2 atoms: two pixels an entry
        (5, 32, 1, 2),  # 1 atom: four pixels an entry, ceil(5/4)
        (3, 128, 1, 3),  # exactly one group
        (3, 129, 1, 4),  # 5 atoms: 3 + ceil(3/4)
        (2, 48, 2, 2),  # int16: 96 bytes = 3 atoms
        (1, 1, 2, 1),
        (7, 256, 2, 28),  # int16: 512 bytes = 4 groups
    ],
)
def test_feature_entries_per_slice(w, c, e, eps):
    assert cbuf.feature_entries_per_slice(w, c, e) == eps
    assert cbuf.entries_register(eps) == eps - 1


def test_feature_slices_two_pixels_share_an_entry():
    c, w = 40, 3  # H = 1; 40 int8 channels: 2 atoms per pixel, two pixels an entry
    cube = (np.arange(c)[:, None, None] + 50 * np.arange(w)[None, None, :]).astype(np.int8)
    data, valid = cbuf.feature_slices(cube)
    assert data.shape == valid.shape == (1, 2, 128)
    want = np.zeros((2, 128), np.uint8)
    ok = np.zeros((2, 128), bool)
    for x in range(w):
        entry, at = divmod(x, 2)
        for ch in range(c):
            want[entry, at * 64 + ch] = (ch + 50 * x) & 0xFF
        ok[entry, at * 64 : at * 64 + 64] = True  # channels 40..63 are the atom's zero padding
    assert (data[0] == want).all() and (valid[0] == ok).all()
    assert not valid[0, 1, 64:].any()  # the second half of the last entry holds nothing


def test_feature_slices_full_group_then_quarters():
    c, h, w = 130, 2, 2  # 5 atoms: one full group per pixel, then a 1-atom tail, four pixels an entry
    cube = (np.arange(c)[:, None, None] + 3 * np.arange(h)[None, :, None] + 7 * np.arange(w)).astype(np.int8)
    data, valid = cbuf.feature_slices(cube)
    assert data.shape == (2, 3, 128)
    for y in range(h):
        for x in range(w):
            assert list(data[y, x]) == [(ch + 3 * y + 7 * x) & 0xFF for ch in range(128)]
            assert valid[y, x].all()
            tail = data[y, 2, x * 32 : x * 32 + 32]
            assert list(tail[:2]) == [(128 + 3 * y + 7 * x) & 0xFF, (129 + 3 * y + 7 * x) & 0xFF]
            assert not tail[2:].any() and valid[y, 2, x * 32 : x * 32 + 32].all()
        assert not valid[y, 2, 64:].any()


def test_feature_slices_int16_little_endian():
    cube = np.array([[[0x1234]], [[-2]]], np.int16)  # C=2, H=1, W=1: one atom
    data, valid = cbuf.feature_slices(cube)
    assert list(data[0, 0, :4]) == [0x34, 0x12, 0xFE, 0xFF]
    assert valid[0, 0, :32].all() and not valid[0, 0, 32:].any()


def test_image_slices_pixels_back_to_back():
    h, w = 2, 40  # 4 int8 channels: 160 bytes a line, two entries
    img = (np.arange(h * w * 4).reshape(h, w, 4) % 251).astype(np.int8)
    data, valid = cbuf.image_slices(img)
    assert cbuf.image_entries_per_slice(w, 4, 1) == 2
    assert data.shape == (2, 2, 128)
    flat = data.reshape(2, 256)
    for y in range(h):
        assert list(flat[y, :160]) == [v % 251 for v in range(y * 160, y * 160 + 160)]
    assert valid.reshape(2, 256)[:, :160].all() and not valid.reshape(2, 256)[:, 160:].any()


def test_image_refuses_what_the_documents_leave_open():
    with pytest.raises(FormatError) as e:
        cbuf.image_slices(np.zeros((1, 4, 3), np.int8))
    assert e.value.rule == "cbuf.image_channels"
    with pytest.raises(FormatError) as e:
        cbuf.image_slices(np.zeros((1, 4, 1), np.int8), pad=(0, 0, 1, 0))
    assert e.value.rule == "cbuf.image_padding"
    with pytest.raises(FormatError) as e:
        cbuf.image_slices(np.zeros((1, 4, 1), np.int8), pad=(32, 0, 0, 0))
    assert e.value.rule == "cbuf.image_pad_range"


def test_image_padding_sits_before_and_after_the_line():
    # 1 channel int8, W=3, 2 pixels left and 1 right of pad value 0x1A7 (int8 keeps bits 7:0: 0xA7)
    img = np.array([[[1], [2], [3]]], np.int8)
    data, valid = cbuf.image_slices(img, pad=(2, 1, 0, 0), pad_value=0x1A7)
    assert data.shape == (1, 1, 128)
    assert list(data[0, 0, :6]) == [0xA7, 0xA7, 1, 2, 3, 0xA7]
    assert valid[0, 0, :6].all() and not valid[0, 0, 6:].any()


def test_image_padding_int16_four_channels_and_entries():
    # 4 channels int16 (8 bytes a pixel), W=15, 1 left and 1 right: 17 pixels, 136 bytes, two entries
    img = np.full((1, 15, 4), 0x0102, np.int16)
    data, valid = cbuf.image_slices(img, pad=(1, 1, 0, 0), pad_value=0xBEEF)
    assert cbuf.image_entries_per_slice(15, 4, 2, 1, 1) == 2
    flat, ok = data.reshape(256), valid.reshape(256)
    assert list(flat[:8]) == [0xEF, 0xBE] * 4  # the left pixel, little-endian
    assert list(flat[8:10]) == [0x02, 0x01]  # the first real element
    assert list(flat[128:136]) == [0xEF, 0xBE] * 4  # the right pixel: bytes 128..135, the second entry
    assert ok[:136].all() and not ok[136:].any()


def test_image_padding_fp16_value_is_the_raw_bits():
    img = np.zeros((1, 1, 1), np.float16)
    data, _ = cbuf.image_slices(img, pad=(1, 0, 0, 0), pad_value=0x3C00)  # 1.0 in fp16
    assert list(data[0, 0, :4]) == [0x00, 0x3C, 0x00, 0x00]


def test_place_wraps_and_says_where_the_next_layer_starts():
    data = np.arange(10 * 128, dtype=np.int64).astype(np.uint8).reshape(5, 2, 128)
    valid = np.ones_like(data, bool)
    addrs, d, v, nxt = cbuf.place((data, valid), cbuf.data_buffer(1), start=250)
    assert list(addrs) == [250, 251, 252, 253, 254, 255, 0, 1, 2, 3]
    assert nxt == 4
    assert (d[6] == data[3, 0]).all() and v.all()
    with pytest.raises(FormatError) as e:
        cbuf.place((np.zeros((300, 1, 128), np.uint8), np.zeros((300, 1, 128), bool)), cbuf.data_buffer(1))
    assert e.value.rule == "cbuf.layer_fits"


def test_surface_entries_in_address_order():
    # 256 bytes of a weight surface: bytes 0..127 are entry 0, bytes 128..255 entry 1, byte i at i mod 128
    surface = (np.arange(256) % 251).astype(np.uint8)
    data, valid = cbuf.surface_entries(surface)
    assert data.shape == (2, 1, 128) and valid.all()
    assert data[0, 0, 0] == 0 and data[0, 0, 127] == 127
    assert data[1, 0, 0] == 128 and data[1, 0, 122] == 250 and data[1, 0, 123] == 0 and data[1, 0, 127] == 4


def test_weight_surface_placed_after_the_data_banks_and_wmb_in_bank_15():
    # 3 data banks, 2 weight banks: the weight buffer is banks 3-4 (addresses 768..1279), so its entry 511 is
    # address 1279 and the next entry wraps to 768; the WMB buffer is bank 15 (3840..4095) and wraps to 3840
    three = np.zeros(3 * 128, np.uint8)
    three[128] = 7
    addrs, d, _, nxt = cbuf.place(cbuf.surface_entries(three), cbuf.weight_buffer(3, 2, compressed=True), 511)
    assert list(addrs) == [1279, 768, 769] and nxt == 2 and d[1, 0] == 7
    addrs, _, _, nxt = cbuf.place(cbuf.surface_entries(three), cbuf.wmb_buffer(), 255)
    assert list(addrs) == [4095, 3840, 3841] and nxt == 2


def test_surface_entries_refuses_partial_entries():
    with pytest.raises(FormatError) as e:
        cbuf.surface_entries(np.zeros(200, np.uint8))
    assert e.value.rule == "cbuf.surface_size"
    with pytest.raises(FormatError) as e:
        cbuf.surface_entries(np.zeros(128, np.int16))
    assert e.value.rule == "cbuf.surface_bytes"


def test_a_buffer_restarts_when_its_banks_change():
    assert cbuf.restarts(None, (1, 2)) == (True, True)  # after reset both start at entry 0
    assert cbuf.restarts((1, 2), (1, 2)) == (False, False)  # same split: both continue
    assert cbuf.restarts((1, 2), (1, 3)) == (False, True)  # banks 0..0 unchanged; weights were 1-2, now 1-3
    assert cbuf.restarts((1, 2), (2, 1)) == (True, True)  # data banks 0-1; weights now bank 2 only


def test_winograd_int16_one_tile_one_channel_block_an_entry():
    # C=4 int16: one atom (16 channels), so 4 blocks of 4 channels; W=H=4: one tile, one band, 4 entries
    cube = np.array([[[100 * c + 10 * y + x for x in range(4)] for y in range(4)] for c in range(4)], np.int16)
    data, valid = cbuf.winograd_slices(cube)
    assert cbuf.winograd_entries_per_slice(4, 4, 2) == 1
    assert data.shape == (1, 4, 128) and valid.all()
    e0 = data[0, 0]
    for y in range(4):
        for x in range(4):
            for c in range(4):
                at = (y * 4 + x) * 8 + c * 2
                assert int(e0[at]) | int(e0[at + 1]) << 8 == 100 * c + 10 * y + x
    assert not data[0, 1:].any()  # channels 4..15: the atom's zero padding


def test_winograd_int8_tiles_along_w_inside_a_channel_block():
    # C=8 int8 (one atom: 4 blocks of 8 channels), W=8: two tiles; entry 1 is block 0, tile 1 (pixels 4..7)
    cube = (np.arange(8 * 4 * 8).reshape(8, 4, 8) % 127).astype(np.int8)
    data, _ = cbuf.winograd_slices(cube)
    assert data.shape == (1, 8, 128) and cbuf.winograd_entries_per_slice(8, 8, 1) == 2
    for y in range(4):
        for x in range(4):
            for c in range(8):
                assert data[0, 1, (y * 4 + x) * 8 + c] == (c * 32 + y * 8 + 4 + x) % 127
    assert not data[0, 2:].any()


def test_winograd_padding_fills_every_channel_of_a_padding_pixel():
    # C=1 int8, 3 x 2, padding left 1 right 1 top 0 bottom 1: 4 x 4; pad value 0x1FF keeps 0xFF for int8
    cube = np.array([[[1, 2], [3, 4], [5, 6]]], np.int8)
    data, _ = cbuf.winograd_slices(cube, pad=(1, 1, 0, 1), pad_value=0x1FF)
    e0 = data[0, 0].reshape(4, 4, 8)  # line, pixel, channel byte
    assert list(e0[0, :, 0]) == [0xFF, 1, 2, 0xFF]
    assert list(e0[2, :, 0]) == [0xFF, 5, 6, 0xFF]
    assert (e0[3] == 0xFF).all() and (e0[:, 0] == 0xFF).all()  # a padding pixel: all 8 channel bytes
    assert not e0[0, 1, 1:].any()  # a real pixel's padding channels stay zero


def test_winograd_refuses_what_is_not_whole_tiles():
    with pytest.raises(FormatError) as e:
        cbuf.winograd_slices(np.zeros((1, 5, 4), np.int8))
    assert e.value.rule == "cbuf.winograd_tile"
    with pytest.raises(FormatError) as e:
        cbuf.winograd_slices(np.zeros((1, 4, 6), np.int8))
    assert e.value.rule == "cbuf.winograd_tile"
