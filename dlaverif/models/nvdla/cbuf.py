"""NVDLA convolution buffer (CBUF) placement: which bank, entry and 64-byte half of the buffer each byte of a layer
occupies once the convolution DMA (CDMA) has stored it.

Sources (NVIDIA's documentation, nvdla/doc ``doc/hw/v1/ias``; nv_full, the nvdlav1 configuration):

* unit description, "Convolution Buffer": 512 KB in 16 banks of 32 KB; each bank is two 512-bit-wide,
  256-entry SRAMs, so an entry is 128 bytes made of two 64-byte halves (:data:`BANKS`, :data:`BANK_ENTRIES`,
  :data:`ENTRY_BYTES`, :data:`HALF_BYTES`). The banks act as three logical circular buffers (input data, weight,
  WMB); new data gets increasing entry addresses and wraps to zero past the last one. With compressed weights
  bank 15 is the WMB buffer (:data:`WMB_BANK`) and data and weights share banks 0-14.
* programming guide, "Register definition": ``D_ENTRY_PER_SLICE`` is the number of entries one input slice (one
  line ``h`` of the input, all its channels) occupies; ``banks_for_data = ceil(entry_per_slice * H / 256)``;
  ``D_BANK`` gives the banks of data and of weights; ``FETCH_GRAIN``: CDMA waits for
  ``(FETCH_GRAIN + 1) * ENTRY_PER_SLICE`` free entries.
* unit description, "Convolution DMA" and "Direct Convolution": the input is split into 1x1x64-element atomic
  cubes; the in-memory atom is 32 bytes (seed "Feature Data Format"), four of them fill an entry.

What the documents leave open, and the reading this model takes (each one is checked against NVIDIA's RTL by
this project's testbench of the convolution DMA; every difference is written up in ``docs/nvidia_cdma.md``):

* **Feature data (DC)**: a pixel's channels are cut into 128-byte channel groups (four 32-byte atoms, channel
  order as in memory); a slice holds, group by group, one entry per pixel ``w`` for each full group. The last
  group of ``r`` atoms (``r = atoms per pixel mod 4``) is shared: ``4 // r`` pixels per entry (``r = 1``: four
  pixels, one per 32-byte quarter; ``r = 2``: two, one per half; ``r = 3``: one, 96 bytes used), so
  ``entry_per_slice = (atoms // 4) * W + ceil(W / (4 // r))`` (this is the count NVIDIA's compiler programs
  into ``D_ENTRY_PER_SLICE``). Padding channels of the last atom are the memory's bytes (zero in
  ``nvdla.feature`` images).
* **Image input**: a slice is one line of converted pixels, ``channels`` elements each in the output order of
  :mod:`.pixel` (R, G, B, A / Y, U, V, A), pixels back to back from the slice's first entry;
  ``entry_per_slice = ceil((LP + W + RP) * channels * element bytes / 128)``: the unit description ("Convolution
  with Image Input") has the left and right padding and the line's pixels "compactly residing in CBUF entries",
  so ``LP`` padding pixels come first and ``RP`` after the line, every element of them the register's pad value
  (``D_ZERO_PADDING_VALUE``: bits [7:0] for int8 output, [15:0] for int16/fp16). Only 1- and 4-channel formats are
  placed (``cbuf.image_channels``): where a 3-channel (semi-planar) pixel lands is not in the documents; top and
  bottom padding are refused (``cbuf.image_padding``).
* **Winograd data** (``D_MISC_CFG.CONV_MODE`` WINOGRAD, stride 1): the unit description ("Winograd Convolution")
  cuts the input into 4x4x4-element small cubes and the convolution DMA's Winograd engine "has a special fetching
  sequence"; nothing says how the cubes sit in the buffer. The reading taken (and checked against NVIDIA's RTL,
  ``docs/nvidia_cdma.md``): the cube, padded by the Winograd engine (left, right, top, bottom, of the pad value,
  every channel of a padding pixel) and its channels to whole atoms, is cut in bands of 4 lines; a band's entries
  are 4 x 4-pixel tiles of 8 channel bytes (4 int16/fp16 channels: the 4x4x4 cube; 8 int8 channels), channel
  block by channel block, tile by tile along W in each; inside an entry line, pixel, channel.
  ``entry_per_slice = atoms * W_ext / 4``: one padded line's bytes in entries (a band is 4 slices).
* **Weights**: the weight buffer takes the ``weight_banks`` banks after the ``data_banks`` data banks (the
  documents give both counts and the WMB bank, not the order; :func:`weight_buffer`). A weight surface (dense, or
  the compressed one) and a WMB surface are stored as they lie in memory: byte ``i`` of the surface in byte
  ``i mod 128`` of the surface's entry ``i div 128``, entries taken in increasing order of the buffer
  (:func:`surface_entries`); the surfaces are whole entries (Table 35: multiples of 128 bytes). The WGS is not
  stored: the DMA reads it to count a kernel group's entries.
* Each layer's slices follow each other in the data buffer from the entry where the previous layer ended,
  from entry 0 after reset (the circular buffer's rule); :func:`place` takes that start entry. A buffer starts
  again at its entry 0 when its banks change (:func:`restarts`): the data buffer when ``data_banks`` changes, the
  weight buffer when either count changes (its first bank follows the data banks); the WMB goes with the weights.

Every function raises :class:`~dlaverif.models.core.errors.FormatError` naming the broken rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ..core.arith import ceil_div
from ..core.errors import require

BANKS = 16
BANK_ENTRIES = 256
ENTRY_BYTES = 128
HALF_BYTES = 64
HALVES = ENTRY_BYTES // HALF_BYTES
ATOM_BYTES = 32
ATOMS_PER_ENTRY = ENTRY_BYTES // ATOM_BYTES
WMB_BANK = BANKS - 1
ENTRIES = BANKS * BANK_ENTRIES  # 4096: the 12-bit CBUF write address
MAX_PAD_LEFT, MAX_PAD_RIGHT = 31, 63  # D_ZERO_PADDING.PAD_LEFT [4:0], PAD_RIGHT [13:8] (NVIDIA's register description)


def address(bank: int, entry: int) -> int:
    """The CBUF address of ``entry`` of ``bank`` (``bank * 256 + entry``)."""
    require(0 <= bank < BANKS, "cbuf.bank_range", f"bank {bank} outside 0..{BANKS - 1}")
    require(0 <= entry < BANK_ENTRIES, "cbuf.entry_range", f"entry {entry} outside 0..{BANK_ENTRIES - 1}")
    return bank * BANK_ENTRIES + entry


def bank_entry(addr: int) -> tuple[int, int]:
    """(bank, entry within the bank) of a CBUF address."""
    require(0 <= addr < ENTRIES, "cbuf.address_range", f"address {addr} outside 0..{ENTRIES - 1}")
    return addr // BANK_ENTRIES, addr % BANK_ENTRIES


def where(addr: int, byte: int = 0) -> str:
    """``bank b entry e half h byte k`` of byte ``byte`` (0..127) of the entry at CBUF address ``addr``."""
    b, e = bank_entry(addr)
    return f"bank {b} entry {e} half {byte // HALF_BYTES} byte {byte % HALF_BYTES}"


@dataclass(frozen=True)
class CircularBuffer:
    """A logical circular buffer over ``banks`` consecutive banks from ``first_bank``: the ``i``-th entry written
    into it lies at CBUF address ``first_bank * 256 + i mod (banks * 256)``."""

    first_bank: int
    banks: int

    def __post_init__(self) -> None:
        require(self.banks >= 1, "cbuf.banks_min", f"a buffer needs at least one bank, not {self.banks}")
        require(
            0 <= self.first_bank and self.first_bank + self.banks <= BANKS,
            "cbuf.banks_max",
            f"banks {self.first_bank}..{self.first_bank + self.banks - 1} outside 0..{BANKS - 1}",
        )

    @property
    def entries(self) -> int:
        return self.banks * BANK_ENTRIES

    def addresses(self, index: Any) -> np.ndarray:
        """CBUF addresses of buffer entries ``index`` (any int array; wraps)."""
        return self.first_bank * BANK_ENTRIES + np.asarray(index, np.int64) % self.entries


def data_buffer(data_banks: int, compressed: bool = False) -> CircularBuffer:
    """The input data buffer: banks ``0 .. data_banks - 1`` (``D_BANK.DATA_BANK`` is ``data_banks - 1``)."""
    _check_split(data_banks, 0, compressed)
    return CircularBuffer(0, data_banks)


def weight_buffer(data_banks: int, weight_banks: int, compressed: bool = False) -> CircularBuffer:
    """The weight buffer: the ``weight_banks`` banks after the data banks (module docstring: an inferred order)."""
    _check_split(data_banks, weight_banks, compressed)
    return CircularBuffer(data_banks, weight_banks)


def wmb_buffer() -> CircularBuffer:
    """The WMB buffer of compressed weights: bank 15 alone."""
    return CircularBuffer(WMB_BANK, 1)


def _check_split(data_banks: int, weight_banks: int, compressed: bool) -> None:
    usable = WMB_BANK if compressed else BANKS
    require(data_banks >= 1, "cbuf.data_banks_min", f"{data_banks} data banks: at least one")
    require(
        data_banks + weight_banks <= usable,
        "cbuf.banks_sum",
        f"{data_banks} data + {weight_banks} weight banks exceed the {usable} banks "
        + ("left beside the WMB bank" if compressed else "of the buffer"),
    )


# ------------------------------------------------------------------------------------------------ feature (DC)


def _atoms_per_pixel(channels: int, elem_bytes: int) -> int:
    require(channels >= 1, "cbuf.channels_min", f"{channels} channels")
    require(elem_bytes in (1, 2), "cbuf.element_bytes", f"element of {elem_bytes} bytes: 1 or 2")
    return ceil_div(channels * elem_bytes, ATOM_BYTES)


def feature_entries_per_slice(width: int, channels: int, elem_bytes: int) -> int:
    """Entries one line of a feature cube occupies (module docstring); the register holds it minus one
    (:func:`entries_register`)."""
    require(width >= 1, "cbuf.width_min", f"width {width}")
    atoms = _atoms_per_pixel(channels, elem_bytes)
    full, rest = divmod(atoms, ATOMS_PER_ENTRY)
    shared = 0 if rest == 0 else ceil_div(width, ATOMS_PER_ENTRY // rest)
    return full * width + shared


def feature_slices(cube: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The entries of every slice of a feature cube ``(C, H, W)`` (int8, int16 or float16): ``(data, valid)``,
    both ``(H, entry_per_slice, 128)`` (uint8 bytes; bool: the bytes this placement defines)."""
    t = np.asarray(cube)
    require(t.ndim == 3, "cbuf.feature_shape", f"a (C, H, W) cube, not shape {t.shape}")
    require(t.dtype in (np.int8, np.int16, np.float16), "cbuf.feature_dtype", f"dtype {t.dtype}")
    c, h, w = t.shape
    e = t.dtype.itemsize
    atoms = _atoms_per_pixel(c, e)
    full, rest = divmod(atoms, ATOMS_PER_ENTRY)
    eps = feature_entries_per_slice(w, c, e)
    # every pixel's bytes, channels padded with zeros to whole atoms: (H, W, atoms*32)
    padded = np.zeros((atoms * ATOM_BYTES // e, h, w), t.dtype.newbyteorder("<"))
    padded[:c] = t
    pix = np.ascontiguousarray(padded.transpose(1, 2, 0)).view(np.uint8).reshape(h, w, atoms * ATOM_BYTES)
    data = np.zeros((h, eps, ENTRY_BYTES), np.uint8)
    valid = np.zeros((h, eps, ENTRY_BYTES), bool)
    groups = pix[:, :, : full * ENTRY_BYTES].reshape(h, w, full, ENTRY_BYTES).transpose(0, 2, 1, 3)
    data[:, : full * w] = groups.reshape(h, full * w, ENTRY_BYTES)
    valid[:, : full * w] = True
    if rest:
        per = ATOMS_PER_ENTRY // rest  # pixels sharing an entry
        size = rest * ATOM_BYTES
        tail = pix[:, :, full * ENTRY_BYTES :]  # (H, W, size)
        xs = np.arange(w)
        entry = full * w + xs // per
        lo = (xs % per) * size
        cols = lo[:, None] + np.arange(size)[None, :]  # (W, size)
        data[:, entry[:, None], cols] = tail
        valid[:, entry[:, None], cols] = True
    return data, valid


# ------------------------------------------------------------------------------------------------ Winograd (WG)

WG_TILE = 4  # the 4x4 tile of the Winograd data cubes (unit description, "Winograd Convolution")
WG_LANE_BYTES = 8  # channel bytes of one tile position in an entry: 4 x 4 x 8 B = 128 B


def winograd_entries_per_slice(width_ext: int, channels: int, elem_bytes: int) -> int:
    """Entries of one line of the padded cube in Winograd mode: its bytes, every atom of every pixel, in whole
    entries: ``atoms * W_ext * 32 / 128`` (module docstring); ``W_ext`` a multiple of 4."""
    require(width_ext >= WG_TILE and width_ext % WG_TILE == 0, "cbuf.winograd_tile", f"width {width_ext}")
    return _atoms_per_pixel(channels, elem_bytes) * width_ext * ATOM_BYTES // ENTRY_BYTES


def winograd_slices(
    cube: np.ndarray, pad: Sequence[int] = (0, 0, 0, 0), pad_value: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The entries of a feature cube ``(C, H, W)`` in Winograd mode (stride 1): ``(data, valid)``, both
    ``(bands, entries_per_band, 128)``. The cube is padded (``pad`` = left, right, top, bottom pixels of
    :func:`pad_element`, every channel) and its channels to whole atoms (zeros); each band of 4 lines is cut into
    4 x 4-pixel tiles x 8 channel bytes (the unit description's 4x4x4 small cubes of int16/fp16; 4x4x8 of int8),
    one entry each, ordered channel block by channel block and, within one, tile by tile along W; inside an entry
    the bytes go line, pixel, channel (module docstring)."""
    t = np.asarray(cube)
    require(t.ndim == 3, "cbuf.feature_shape", f"a (C, H, W) cube, not shape {t.shape}")
    require(t.dtype in (np.int8, np.int16, np.float16), "cbuf.feature_dtype", f"dtype {t.dtype}")
    c, h, w = t.shape
    left, right, top, bottom = (int(v) for v in pad)
    require(min(left, right, top, bottom) >= 0, "cbuf.winograd_pad", f"negative padding {tuple(pad)}")
    hx, wx = top + h + bottom, left + w + right
    require(hx % WG_TILE == 0 and hx > 0, "cbuf.winograd_tile", f"padded height {hx}: a multiple of {WG_TILE}")
    e = t.dtype.itemsize
    eps = winograd_entries_per_slice(wx, c, e)
    atoms = _atoms_per_pixel(c, e)
    cp = atoms * ATOM_BYTES // e
    full = np.zeros((hx, wx, cp), t.dtype.newbyteorder("<"))
    full[...] = pad_element(pad_value, t.dtype)[0]
    full[top : top + h, left : left + w, :] = 0
    full[top : top + h, left : left + w, :c] = t.transpose(1, 2, 0)
    b = np.ascontiguousarray(full).view(np.uint8).reshape(hx, wx, atoms * ATOM_BYTES)
    lanes = atoms * ATOM_BYTES // WG_LANE_BYTES
    # (band, line in tile, tile, pixel in tile, channel block, lane byte) -> (band, block, tile, line, pixel, byte)
    tiles = b.reshape(hx // WG_TILE, WG_TILE, wx // WG_TILE, WG_TILE, lanes, WG_LANE_BYTES)
    data = np.ascontiguousarray(tiles.transpose(0, 4, 2, 1, 3, 5)).reshape(hx // WG_TILE, 4 * eps, ENTRY_BYTES)
    return data, np.ones(data.shape, bool)


# ------------------------------------------------------------------------------------------------ image input


def image_entries_per_slice(width: int, channels: int, elem_bytes: int, pad_left: int = 0, pad_right: int = 0) -> int:
    """Entries one image line occupies, its left and right padding included:
    ``ceil((LP + W + RP) * channels * element bytes / 128)`` (module docstring)."""
    require(width >= 1, "cbuf.width_min", f"width {width}")
    require(channels in (1, 4), "cbuf.image_channels", f"{channels}-channel pixels: placement not documented")
    require(elem_bytes in (1, 2), "cbuf.element_bytes", f"element of {elem_bytes} bytes: 1 or 2")
    require(
        0 <= pad_left <= MAX_PAD_LEFT and 0 <= pad_right <= MAX_PAD_RIGHT,
        "cbuf.image_pad_range",
        f"padding left {pad_left} right {pad_right}: at most {MAX_PAD_LEFT} and {MAX_PAD_RIGHT} "
        "(D_ZERO_PADDING's 5- and 6-bit fields)",
    )
    return ceil_div((pad_left + width + pad_right) * channels * elem_bytes, ENTRY_BYTES)


def pad_element(value: int, dtype: Any) -> np.ndarray:
    """One padding element of ``dtype`` from ``D_ZERO_PADDING_VALUE.PAD_VALUE`` (NVIDIA's register description:
    bits [7:0] for int8, [15:0] for int16 and fp16, the bits as they are)."""
    dt = np.dtype(dtype)
    require(0 <= value < 1 << 16, "cbuf.pad_value_range", f"pad value {value}: a 16-bit field")
    bits = value & ((1 << (8 * dt.itemsize)) - 1)
    return np.array([bits], np.uint8 if dt.itemsize == 1 else np.uint16).view(dt.newbyteorder("="))


def image_slices(
    pixels: np.ndarray, pad: Sequence[int] = (0, 0, 0, 0), pad_value: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The entries of every slice of a converted image ``(H, W, channels)`` (int8, int16 or float16, channels in
    the output order of :mod:`.pixel`): ``(data, valid)``, both ``(H, entry_per_slice, 128)``. ``pad``: the zero
    padding (left, right, top, bottom) of the layer: ``left`` pixels of ``pad_value`` (:func:`pad_element`, every
    channel) before each line and ``right`` after it, back to back with the line (module docstring); top and bottom
    must be zero (``cbuf.image_padding``: the image engine is given the left and right padding only)."""
    t = np.asarray(pixels)
    require(t.ndim == 3, "cbuf.image_shape", f"an (H, W, channels) image, not shape {t.shape}")
    require(t.dtype in (np.int8, np.int16, np.float16), "cbuf.image_dtype", f"dtype {t.dtype}")
    left, right, top, bottom = (int(v) for v in pad)
    require(not (top or bottom), "cbuf.image_padding", f"top/bottom padding {top}/{bottom}: not the image engine's")
    h, w, ch = t.shape
    e = t.dtype.itemsize
    eps = image_entries_per_slice(w, ch, e, left, right)
    padded = np.empty((h, left + w + right, ch), t.dtype)
    padded[...] = pad_element(pad_value, t.dtype)[0]
    padded[:, left : left + w] = t
    line = np.ascontiguousarray(padded.astype(t.dtype.newbyteorder("<"))).view(np.uint8).reshape(h, -1)
    data = np.zeros((h, eps * ENTRY_BYTES), np.uint8)
    valid = np.zeros((h, eps * ENTRY_BYTES), bool)
    data[:, : line.shape[1]] = line
    valid[:, : line.shape[1]] = True
    return data.reshape(h, eps, ENTRY_BYTES), valid.reshape(h, eps, ENTRY_BYTES)


# ------------------------------------------------------------------------------------------------ weights


def surface_entries(surface: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The entries a weight or WMB surface fills (module docstring): ``(data, valid)``, both ``(n, 1, 128)`` - one
    "slice" of one entry per 128 bytes, for :func:`place` into :func:`weight_buffer` or :func:`wmb_buffer`."""
    raw = np.asarray(surface)
    require(raw.dtype == np.uint8 and raw.ndim == 1, "cbuf.surface_bytes", f"a 1-D uint8 surface, not {raw.dtype}")
    require(
        raw.size % ENTRY_BYTES == 0,
        "cbuf.surface_size",
        f"a surface of {raw.size} bytes is not whole {ENTRY_BYTES}-byte entries (Table 35: a multiple of 128)",
    )
    data = raw.reshape(-1, 1, ENTRY_BYTES)
    return data, np.ones(data.shape, bool)


# ------------------------------------------------------------------------------------------------ a layer in the buffer


def place(
    slices: tuple[np.ndarray, np.ndarray], buffer: CircularBuffer, start: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """A layer's slices (from :func:`feature_slices` / :func:`image_slices`) stored one after the other in
    ``buffer`` from its entry ``start``: ``(addresses, data, valid, next)`` - the CBUF address of each entry in
    write order, its 128 bytes and their valid mask, and the buffer entry where the next layer starts. A layer
    larger than the buffer is refused (``cbuf.layer_fits``): it needs releases in between, and then the later
    entries overwrite the earlier ones (the caller places it in parts)."""
    data, valid = slices
    require(data.shape == valid.shape and data.ndim == 3, "cbuf.slices_shape", f"slices of shape {data.shape}")
    n = data.shape[0] * data.shape[1]
    require(n <= buffer.entries, "cbuf.layer_fits", f"{n} entries do not fit in {buffer.entries}")
    idx = start + np.arange(n)
    return (
        buffer.addresses(idx),
        data.reshape(n, ENTRY_BYTES),
        valid.reshape(n, ENTRY_BYTES),
        int((start + n) % buffer.entries),
    )


def restarts(before: tuple[int, int] | None, after: tuple[int, int]) -> tuple[bool, bool]:
    """Whether the data buffer and the weight buffer (with the WMB) start again at entry 0 for a layer of bank split
    ``after`` = ``(data_banks, weight_banks)`` that follows a layer of split ``before`` (None: the first layer after
    reset): a buffer restarts when its banks change (module docstring)."""
    if before is None:
        return True, True
    return before[0] != after[0], before != after


def entries_register(entries_per_slice: int) -> int:
    """``D_ENTRY_PER_SLICE.ENTRIES``: the count minus one, as every NVDLA size field (``DATAIN_WIDTH`` = W - 1)."""
    require(1 <= entries_per_slice <= ENTRIES, "cbuf.entries_range", f"{entries_per_slice} entries per slice")
    return entries_per_slice - 1


def banks_for(entries: int) -> int:
    """Banks a layer of ``entries`` entries needs (programming guide: ``ceil(entry_per_slice * H / 256)``)."""
    return max(1, ceil_div(entries, BANK_ENTRIES))
