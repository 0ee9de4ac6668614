"""NVDLA sparse weight compression: weight mask bits (WMB), compressed weights, weight group sizes (WGS).

Spec: NVDLA seed "Sparse Compression option" (Fig. 17), Table 35; clarifications
``nvdla-clarifications.md`` section 7 (which wins where it is sharper than the seed) and §12.3/§12.4.

Input is the fully mapped *uncompressed* weight surface of any of the four weight formats (after
pre-/post-extension, Winograd transform or deconvolution split), read as a stream of ELEMENTS in
address order (1 byte int8, 2 bytes little-endian int16/fp16), split into kernel groups.

* **WMB**: one bit per element for every precision; bit ``n`` of the stream is bit ``n mod 8`` of
  byte ``n div 8`` (LSB-first, v1 C model and RTL; NVIDIA's v2 generator is MSB-first and is not
  followed, clarifications §7 conflict note). 1 = element kept, 0 = element dropped. The bit
  stream is continuous across kernel groups (a group may start mid-byte). Surface zero-padded to
  a multiple of 128 B.
* **Compressed weights**: the kept elements back to back, continuous across groups, zero-padded
  to a multiple of 128 B.
* **WGS**: one little-endian uint32 per kernel group = the exact number of compressed bytes of
  that group (kept elements x element bytes; the C-model semantics, clarifications §7 — not the
  128-B-rounded cumulative variant of NVIDIA's v2 generator, §12.3). The WGS surface is zero-padded
  to a multiple of 128 B as Table 35 requires for its data size (firmware only needs a multiple of
  4; the padding entries are zero and ignored by :func:`decompress`).

Choice on "zero": an element is dropped when ALL its bits are zero. fp16 ``-0.0`` (0x8000) is
therefore KEPT (its mask bit is 1), so compression is bit-exact for every input. The hardware
re-inserts dropped elements as +0, so a producer *may* drop -0 (clarifications §7); this model
does not.

All operations are vectorised (``np.packbits``/``np.unpackbits`` with ``bitorder="little"``,
cumulative sums, boolean masks).
"""

from __future__ import annotations

from typing import Any, Sequence, Union

import numpy as np

from ..core.arith import as_uint8, ceil_div, round_up
from ..core.errors import FormatError, require

#: Every WMB, compressed-weight and WGS surface is a multiple of 128 bytes (Table 35).
SIZE_ALIGN = 128

GroupElems = Union[int, Sequence[int]]

__all__ = ["compress", "decompress", "wmb_bytes", "wgs_bytes", "SIZE_ALIGN"]


def wmb_bytes(n_elems: int) -> int:
    """Size of the WMB surface for a stream of ``n_elems`` elements (one bit each, padded to 128 B)."""
    return round_up(ceil_div(n_elems, 8), SIZE_ALIGN)


def wgs_bytes(n_groups: int) -> int:
    """Size of the WGS surface for ``n_groups`` kernel groups (4 B each, padded to 128 B, Table 35)."""
    return round_up(4 * int(n_groups), SIZE_ALIGN)


def _as_bytes(buf: Any, what: str) -> np.ndarray:
    try:
        return as_uint8(buf)
    except FormatError as exc:
        raise FormatError("sparse.buffer_type", f"{what}: {exc}") from None


def _check_elem_bytes(elem_bytes: int) -> int:
    require(
        isinstance(elem_bytes, (int, np.integer)) and int(elem_bytes) in (1, 2),
        "sparse.elem_bytes",
        f"element size {elem_bytes!r} bytes is not 1 (int8) or 2 (int16/fp16)",
    )
    return int(elem_bytes)


def _group_sizes(group_elems: GroupElems, n_elems: int) -> np.ndarray:
    """Per-group element counts.

    An int ``g`` means groups of ``g`` elements covering all ``n_elems`` elements, the last one
    shorter when ``g`` does not divide ``n_elems`` (so pass the UNPADDED stream with an int). A
    sequence gives every group's size explicitly (a shorter last kernel group); the groups cover
    the first ``sum(sizes)`` elements.
    """
    if isinstance(group_elems, (int, np.integer)) and not isinstance(group_elems, bool):
        g = int(group_elems)
        require(g >= 1, "sparse.group_elems", f"group size {g} elements must be >= 1")
        full, rest = divmod(n_elems, g)
        return np.array([g] * full + ([rest] if rest else []), dtype=np.int64)
    try:
        sizes = np.array([int(v) for v in group_elems], dtype=np.int64)  # type: ignore[union-attr]  # int returns above
    except (TypeError, ValueError) as exc:
        raise FormatError("sparse.group_elems", f"group sizes {group_elems!r} are not integers") from exc
    require(
        sizes.size == 0 or int(sizes.min()) >= 1,
        "sparse.group_elems",
        f"every group needs >= 1 element, got sizes {sizes.tolist()[:8]}...",
    )
    require(
        int(sizes.sum()) <= n_elems,
        "sparse.group_elems",
        f"groups cover {int(sizes.sum())} elements but the dense stream has only {n_elems}",
    )
    return sizes


def _elements(raw: np.ndarray, e: int) -> np.ndarray:
    return raw.view(np.uint8 if e == 1 else np.dtype("<u2"))


def compress(
    dense_surface_bytes: Any, elem_bytes: int, group_elems: GroupElems
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Compress a mapped weight stream into ``(weight, wmb, wgs)`` byte arrays (clarifications §7).

    ``dense_surface_bytes``: the uncompressed surface (bytes or uint8 array); its length must be a
    multiple of ``elem_bytes``. ``group_elems``: elements per kernel group, an int (every group,
    last one shorter; pass the unpadded stream) or a sequence of per-group counts. Elements after
    the last group (the 128-B padding of a padded surface) must be zero, else FormatError
    ``sparse.trailing_nonzero`` (they would be lost).

    Returns three uint8 arrays, each zero-padded to a multiple of 128 B: the compressed weights
    (kept elements back to back), the WMB (LSB-first, one bit per element) and the WGS (one
    little-endian uint32 per group = exact compressed bytes of that group).
    """
    e = _check_elem_bytes(elem_bytes)
    raw = _as_bytes(dense_surface_bytes, "dense surface")
    require(
        raw.size % e == 0,
        "sparse.dense_size",
        f"dense surface of {raw.size} bytes is not a whole number of {e}-byte elements",
    )
    elems = _elements(raw, e)
    sizes = _group_sizes(group_elems, elems.size)
    n = int(sizes.sum())
    require(
        not np.any(elems[n:]),
        "sparse.trailing_nonzero",
        f"elements after the last group (index >= {n}) must be zero padding",
    )
    mask = elems[:n] != 0  # all bits zero -> dropped; fp16 -0 (0x8000) is kept
    wmb = np.zeros(wmb_bytes(n), dtype=np.uint8)
    packed = np.packbits(mask, bitorder="little")
    wmb[: packed.size] = packed
    kept = raw[: n * e].reshape(n, e)[mask].reshape(-1)
    weight = np.zeros(round_up(kept.size, SIZE_ALIGN), dtype=np.uint8)
    weight[: kept.size] = kept
    cs = np.concatenate((np.zeros(1, dtype=np.int64), np.cumsum(mask, dtype=np.int64)))
    ends = np.cumsum(sizes)
    counts = (cs[ends] - cs[ends - sizes]) * e
    wgs = np.zeros(wgs_bytes(sizes.size), dtype=np.uint8)
    wgs[: 4 * sizes.size] = counts.astype("<u4").view(np.uint8)
    return weight, wmb, wgs


def decompress(
    weight: Any, wmb: Any, wgs: Any, elem_bytes: int, group_elems: GroupElems, dense_bytes: int
) -> np.ndarray:
    """Rebuild the uncompressed surface (``dense_bytes`` bytes, uint8) from the three surfaces.

    ``group_elems`` as in :func:`compress`; with an int the groups cover ``dense_bytes/elem_bytes``
    elements. Elements of the dense surface after the last group are zero. Consistency rules
    checked (FormatError naming the rule and the values):

    * ``sparse.dense_size``: ``dense_bytes`` is a whole number of elements;
    * ``sparse.wmb_length``: the WMB holds at least one bit per element;
    * ``sparse.wmb_padding``: WMB bits after the last element are zero (seed: "adding 0 bits");
    * ``sparse.wgs_length``: the WGS holds one uint32 per group;
    * ``sparse.wgs_mismatch``: WGS[g] == popcount of group g's WMB bits x element bytes;
    * ``sparse.weight_length``: the weight surface holds every kept element.
    """
    e = _check_elem_bytes(elem_bytes)
    w_raw = _as_bytes(weight, "weight surface")
    m_raw = _as_bytes(wmb, "WMB surface")
    g_raw = _as_bytes(wgs, "WGS surface")
    require(
        isinstance(dense_bytes, (int, np.integer)) and int(dense_bytes) >= 0 and int(dense_bytes) % e == 0,
        "sparse.dense_size",
        f"dense size {dense_bytes!r} bytes is not a whole number of {e}-byte elements",
    )
    n_dense = int(dense_bytes) // e
    sizes = _group_sizes(group_elems, n_dense)
    n = int(sizes.sum())
    need_wmb = ceil_div(n, 8)
    require(m_raw.size >= need_wmb, "sparse.wmb_length", f"WMB has {m_raw.size} bytes, {n} elements need {need_wmb}")
    bits = np.unpackbits(m_raw, bitorder="little")
    extra = np.flatnonzero(bits[n:])
    if extra.size:
        raise FormatError(
            "sparse.wmb_padding",
            f"WMB bit {n + int(extra[0])} is set but the stream has only {n} elements (padding bits must be 0)",
        )
    mask = bits[:n].astype(bool)
    require(
        g_raw.size >= 4 * sizes.size,
        "sparse.wgs_length",
        f"WGS has {g_raw.size} bytes, {sizes.size} kernel groups need {4 * sizes.size}",
    )
    wgs_vals = g_raw[: 4 * sizes.size].view("<u4").astype(np.int64)
    cs = np.concatenate((np.zeros(1, dtype=np.int64), np.cumsum(mask, dtype=np.int64)))
    ends = np.cumsum(sizes)
    counts = (cs[ends] - cs[ends - sizes]) * e
    bad = np.flatnonzero(counts != wgs_vals)
    if bad.size:
        g = int(bad[0])
        raise FormatError(
            "sparse.wgs_mismatch",
            f"WGS[{g}] = {int(wgs_vals[g])} bytes but group {g}'s WMB bits keep "
            f"{int(counts[g]) // e} elements = {int(counts[g])} bytes",
        )
    kept = int(cs[-1])
    require(
        w_raw.size >= kept * e,
        "sparse.weight_length",
        f"compressed weight surface has {w_raw.size} bytes, the WMB keeps {kept} elements = {kept * e} bytes",
    )
    out = np.zeros((n_dense, e), dtype=np.uint8)
    out[:n][mask] = w_raw[: kept * e].reshape(kept, e)
    return out.reshape(-1)
