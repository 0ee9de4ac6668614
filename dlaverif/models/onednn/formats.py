"""Registry entries of the oneDNN family (``onednn.<tag>``) and the BlockedCubeDescriptor export.

Every tag the parser accepts (:mod:`models.onednn.tags`) is a format named ``onednn.<tag>``, resolved
on demand. Axes are the tag's logical dims in logical order, uppercase (``onednn.nChw8c``: N, C, H, W;
``onednn.aBcd8b``: A, B, C, D). Data types f32, f16, bf16 (raw uint16 bits), s8, u8, s32. Option
``strides`` (element strides of the outer blocks, logical order) replaces the dense strides, e.g. for a
sub-tensor inside a bigger buffer (seed, "Strides").

Descriptor export (4-D activations: tags with letters n, c, h, w, or a, b, c, d read with
oneDNN's activation meaning ``nchw = abcd``). The reader streams atoms n -> c -> h -> w with the w
stride fixed to one atom (``dlaverif/models/blocked.py``), so:

* **one inner block on c** (``nChw8c``, ``nChw16c``, ``nChw4c``, ``aBcd8b`` ...): an atom is one channel
  block of one pixel, ``block * elem`` bytes; ``count_c = C_padded / block``; strides from the
  descriptor. The w stride must be one block (true for nChw<b>c; else ``onednn.descriptor``).
* **plain, channels innermost** (``nhwc``): a pixel's channels are a run of ``C*elem`` bytes. The atom is
  the largest power of two <= 128 that divides ``C*elem`` (it must be >= 8): ``C*elem`` itself when it
  is a power of two in 8..128, else the run is cut into ``k = C*elem/atom`` equal atoms. Pixels of a row
  are back to back, so a row is ``W*k`` atoms in a row: ``count_w = W*k``, ``count_c = 1``,
  ``count_h = H``, ``count_n = N`` (``stride_c`` is set to one atom; its count is 1). Requires c stride 1
  and w stride C (dense pixels) unless W = 1.
* **plain, w innermost** (``nchw``): an atom holds consecutive w elements of ONE channel. The atom is the
  largest power of two <= 128 dividing ``W*elem`` (>= 8): ``count_w = W*elem/atom``, ``count_c = C``
  (stride = c stride), ``count_h = H``, ``count_n = N``. Requires w stride 1.
* anything else (other orders, several blocks, atoms that are not a power of two in 8..128, strides
  that are not whole atoms or that overlap) is a ``FormatError``; the descriptor is validated by
  :meth:`BlockedCubeDescriptor.validate`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..blocked import BlockedCubeDescriptor, Layout
from ..core.address import check_ranges
from ..core.errors import FormatError
from ..core.memimage import MemoryImage
from ..core.registry import Example, Format, Option, register_family
from .desc import ONEDNN_DTYPES, MemoryDesc
from .tags import ParsedTag, parse_tag

SPEC = "MKL-DNN 1.0 'Understanding Memory Formats' (shared/seeds/002_9432e89d0574fb50.txt)"
DTYPES = tuple(ONEDNN_DTYPES)  # float32, float16, uint16 (bf16 bits), int8, uint8, int32
EXAMPLES = (
    "onednn.nchw",
    "onednn.nhwc",
    "onednn.chwn",
    "onednn.nChw8c",
    "onednn.nChw16c",
    "onednn.nCdhw16c",
    "onednn.OIhw16i16o",
    "onednn.OIhw4i16o4i",
    "onednn.gOIhw16i16o",
    "onednn.Ohwi16o",
    "onednn.aBcd8b",
    "onednn.ABcd16a16b",
    "onednn.abcd",
    "onednn.ba",
)


def memory_desc(
    tag: str | ParsedTag, shape: tuple[int, ...], dtype: Any, strides: tuple[int, ...] | None = None
) -> MemoryDesc:
    """The :class:`MemoryDesc` of ``tag`` for a tensor of ``shape`` (optionally with explicit strides)."""
    return MemoryDesc.from_tag(shape, dtype, tag, strides)


def _pow2_atom(run_bytes: int) -> int:
    """Largest power of two <= 128 dividing ``run_bytes``."""
    atom = 128
    while atom > 1 and run_bytes % atom:
        atom //= 2
    return atom


def descriptor_for(md: MemoryDesc, pt: ParsedTag, base: int = 0) -> BlockedCubeDescriptor:
    """Export ``md`` (a 4-D activation layout) as a BlockedCubeDescriptor (rules in the module docstring)."""
    if pt.ndims != 4 or pt.alphabet not in ("activations", "abc"):
        raise FormatError(
            "onednn.descriptor",
            f"onednn.{pt.tag}: only 4-D activation tags (n,c,h,w / a,b,c,d) export a BlockedCubeDescriptor",
        )
    N, C, H, W = md.dims
    sn, sc, sh, sw = md.strides
    e = md.elem_bytes
    common: dict[str, Any] = dict(base=int(base), elem_bytes=e, layout=Layout.ONEDNN, fp16=md.dtype == np.float16)
    name = f"onednn.{pt.tag}"
    if md.inner_nblks:
        if md.inner_idxs != (1,):
            raise FormatError(
                "onednn.descriptor",
                f"{name}: the cube reader serves one inner block on c only, "
                f"got blocks {md.inner_blks} on dims {md.inner_idxs}",
            )
        b = md.inner_blks[0]
        atom = b * e
        if W > 1 and sw != b:
            raise FormatError(
                "onednn.descriptor",
                f"{name}: w stride {sw} elements is not one channel block ({b}); the reader's w stride is one atom",
            )
        desc = BlockedCubeDescriptor(
            atom_bytes=atom,
            count_w=W,
            count_h=H,
            count_c=md.outer_counts[1],
            count_n=N,
            stride_h=sh * e,
            stride_c=sc * e,
            stride_n=sn * e,
            **common,
        )
    elif pt.outer[-1] == 1:  # channels innermost (nhwc / acdb)
        run = C * e
        atom = _pow2_atom(run)
        if atom < 8:
            raise FormatError(
                "onednn.descriptor",
                f"{name}: a pixel's channel run of {run} bytes (C={C} x {e} B) is not "
                "a whole number of 8..128-byte power-of-two atoms",
            )
        if sc != 1 or (W > 1 and sw != C):
            raise FormatError(
                "onednn.descriptor",
                f"{name}: strides {md.strides} do not keep a row's channels back to back (want c stride 1, w stride C)",
            )
        desc = BlockedCubeDescriptor(
            atom_bytes=atom,
            count_w=W * run // atom,
            count_h=H,
            count_c=1,
            count_n=N,
            stride_h=sh * e,
            stride_c=atom,
            stride_n=sn * e,
            **common,
        )
    elif pt.outer[-1] == 3:  # w innermost (nchw / abcd)
        run = W * e
        atom = _pow2_atom(run)
        if atom < 8:
            raise FormatError(
                "onednn.descriptor",
                f"{name}: a row of W={W} x {e} B = {run} bytes is not a whole number of 8..128-byte power-of-two atoms",
            )
        if sw != 1:
            raise FormatError("onednn.descriptor", f"{name}: w stride {sw} is not 1; an atom must hold consecutive w")
        desc = BlockedCubeDescriptor(
            atom_bytes=atom,
            count_w=run // atom,
            count_h=H,
            count_c=C,
            count_n=N,
            stride_h=sh * e,
            stride_c=sc * e,
            stride_n=sn * e,
            **common,
        )
    else:
        raise FormatError("onednn.descriptor", f"{name}: neither c nor w is innermost; no atom of the cube reader fits")
    check_ranges(desc.ranges())
    return desc.validate()


def _example(pt: ParsedTag) -> Example:
    """A small tensor of any tag: 2 along plain dims; a blocked dim one and a half times its block product (so
    the last block is padded, as in the seed's nChw8c figure); coloured by the innermost blocked dim's blocks."""
    blk = {i: 1 for i in range(pt.ndims)}
    for size, idx in zip(pt.inner_blks, pt.inner_idxs):
        blk[idx] *= size
    padded = math.prod(2 * b for b in blk.values())  # blocked dims padded to 2 blocks, plain ones 2
    plain = 2 if padded <= 1024 else 1  # a readable map (models.draw draws at most 4096 bytes)
    shape = tuple(b + max(b // 2, 1) if b > 1 else plain for b in blk.values())
    if not pt.inner_blks:
        return Example(shape, "int8", color_by=pt.axes[0])
    inner = pt.inner_idxs[-1]
    return Example(shape, "int8", color_by=f"{pt.axes[inner]}/{blk[inner]}")


def _resolve(tag: str) -> Format:
    pt = parse_tag(tag)  # FormatError "onednn.tag" when malformed
    name = f"onednn.{tag}"

    def pack(tensor: np.ndarray, strides: tuple[int, ...] | None = None) -> MemoryImage:
        md = memory_desc(pt, tensor.shape, tensor.dtype, strides)
        return MemoryImage.single(md.pack(tensor), format=name, **md.to_dict())

    def unpack(
        image: MemoryImage, shape: tuple[int, ...], dtype: np.dtype, strides: tuple[int, ...] | None = None
    ) -> np.ndarray:
        return memory_desc(pt, shape, dtype, strides).unpack(image.data("data"))

    def info(shape: tuple[int, ...], dtype: np.dtype, strides: tuple[int, ...] | None = None) -> dict:
        md = memory_desc(pt, shape, dtype, strides)
        d = md.to_dict()
        d.update(
            format=name,
            abc_tag=pt.abc,
            logical_dims="".join(pt.letters),
            spec=SPEC,
            surfaces=[{"name": "data", "bytes": md.size, "align": 1}],
        )
        return d

    def descriptor(
        shape: tuple[int, ...], dtype: np.dtype, base: int = 0, strides: tuple[int, ...] | None = None
    ) -> BlockedCubeDescriptor:
        return descriptor_for(memory_desc(pt, shape, dtype, strides), pt, base)

    exportable = pt.ndims == 4 and pt.alphabet in ("activations", "abc")
    return Format(
        name=name,
        axes=pt.axes,
        dtypes=DTYPES,
        pack=pack,
        unpack=unpack,
        info=info,
        options=(
            Option(
                "strides",
                "ints",
                None,
                "element strides of the outer blocks in logical order "
                f"({','.join(pt.axes)}); default: dense for the tag",
            ),
        ),
        descriptor=descriptor if exportable else None,
        summary=f"oneDNN tag {tag} (= {pt.abc}), logical dims {','.join(pt.axes)}"
        + (
            f", inner blocks {list(zip(pt.inner_blks, (pt.letters[i] for i in pt.inner_idxs)))}"
            if pt.inner_blks
            else ""
        ),
        spec=SPEC,
        example=_example(pt),
    )


register_family(
    "onednn.",
    _resolve,
    examples=EXAMPLES,
    summary="oneDNN/MKL-DNN memory format tag, parsed generically (plain, strided, blocked, double-blocked)",
)
