"""NVDLA SDP operand surfaces: bias, PReLU, batch-normalization and element-wise data, and the SDP converter.

Sources: seed "Bias Data Format", "PRELU Data Format", "Batch Normalization Data Format", "Element-Wise Data
Format" (Fig. 18-27), the BytesPerAtom formula and Table 35; clarifications 8 (which win over the seed),
1.6 (operands shared by all batches), 2.3 last item (SDP CVT) and 10 (register fields).

Formats and logical tensors (components ALU first, MUL second, on a LEADING axis so ``t[0]`` is the ALU operand
and ``t[1]`` the MUL operand):

==================== ================= ========================== ====================================
format               axes              components                 DATA_USE / DATA_MODE
==================== ================= ========================== ====================================
nvdla.bias.channel   C                 1 (ALU)                    ALU / per-kernel (1x1xC)
nvdla.prelu          C                 1 (MUL, MUL_PRELU=1)       MUL / per-kernel (1x1xC)
nvdla.bn             component(2), C   2: [0]=ALU add, [1]=MUL    BOTH / per-kernel (1x1xC)
nvdla.bias.element   C, H, W           1 (ALU)                    ALU / per-element (W x H x C)
nvdla.eltwise        [component,] C,H,W 1 (3-D tensor) or 2 (4-D)  ALU or MUL / BOTH, per-element
==================== ================= ========================== ====================================

Element types: ``int8`` (1-byte components), ``int16`` or ``float16`` (2-byte components). Layout
(clarifications 8): elements per group ``epg`` = 32 if PROC_PRECISION is int8 else 16; bytes per element =
components x bytes per component; BytesPerAtom = epg x bytes per element (32, 64 or 128). Components of one
element are adjacent, ALU at the lower address. Per-channel: one run of ``ceil(C/epg)`` atoms from the base,
channel c at ``c*bytes_per_element``. Per-element: element (w, h, c) at
``(c div epg)*surface_stride + h*line_stride + w*BytesPerAtom + (c mod epg)*bytes_per_element``.

Choices (tested in ``tests/models/test_nvdla_sdp.py``):

* ``data_size`` (bytes per component, the DATA_SIZE register) must equal the dtype's width
  (``sdp.data_size``); default: the dtype's width. ``proc_precision`` defaults to the dtype's precision
  (int8 -> int8, int16 -> int16, float16 -> fp16); an int16 tensor with ``proc_precision='int8'`` is the
  seed's "2 bytes per element with INT8" case (epg 32, atom 64).
* fp16 operands go with fp16 processing only, and fp16 processing with fp16 operands only (DOC programming
  guide: int16 data in integer pipelines, fp16 in fp16 pipelines), rule ``sdp.operand_precision``.
* int16/fp16 processing needs TWO_BYTE data for every operand, rule ``sdp.two_byte_required``: the C model
  asserts it for NRDMA/ERDMA (clarifications 8), and a 1-byte operand in 16-channel groups would make a
  16-byte atom, while BytesPerAtom is always 32, 64 or 128. So the seed's "1 byte or 2 bytes" choice exists for
  int8 processing only (1 byte, or the "2 bytes per element with INT8" case).
* Per-channel images are ``ceil(C/epg)*BytesPerAtom`` bytes (what the DMA reads), padding zero; ``info`` also
  gives ``compiler_bytes = C*bytes_per_element`` (what NVIDIA's compiler allocates). Unpack needs the whole
  DMA read (``sdp.buffer_size`` otherwise), like the per-element and pixel readers.
* Per-element strides default to packed (``line_stride = W*BytesPerAtom``, ``surface_stride = H*line_stride``);
  they are 32-byte register values (Table 35 ``align.bias.*`` / ``align.eltwise.line_stride``; the eltwise
  surface stride register is also in 32-byte units, ``sdp.surface_stride_align``), must hold a line
  (``sdp.line_stride_min``) and a surface (``sdp.surface_stride_min``), and for W=H=1 the surface stride must
  equal BytesPerAtom (C model assertion, ``sdp.surface_stride_1x1``). The image spans whole surfaces
  (``surfaces*surface_stride`` bytes, like ``nvdla.feature``); ``info['extent_bytes']`` is the end of the last
  atom, and unpack accepts any buffer reaching it.
* Per-element descriptors have ``count_n = 1`` and ``stride_n = 0``: the C model shares one operand cube
  among all batches (clarifications 1.6). The descriptor validator's own rule that strides are multiples of
  the atom is stricter than the hardware's 32-byte rule; packed strides always satisfy it.
* PReLU per element (clarifications 8 allow it) has the layout of ``nvdla.bias.element``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Optional, Sequence

import numpy as np

from ..blocked import BlockedCubeDescriptor, Layout
from ..core.address import check_ranges
from ..core.arith import ceil_div
from ..core.errors import require
from ..core.memimage import MemoryImage
from ..core.registry import Example, Format, Option, register
from . import alignment
from .feature import cube_extent, le, place_atoms, take_atoms
from .precision import check_conversion, int_to_fp16, normalize_precision, round_shift, saturate, to_fp16

MAX_DIM = 8192
START_ALIGN = 32
DATA_USE = {"MUL": 0, "ALU": 1, "BOTH": 2}
_DTYPE_PROC = {"int8": "int8", "int16": "int16", "float16": "fp16"}


@dataclass(frozen=True)
class OperandKind:
    name: str
    table35: str  # Table 35 row
    per_element: bool
    components: Optional[int]  # fixed count, or None = 1 or 2 (element-wise)
    data_use: Optional[str]  # register DATA_USE, None = ALU or MUL (user's choice)


KINDS: dict[str, OperandKind] = {
    k.name: k
    for k in (
        OperandKind("nvdla.bias.channel", "bias", False, 1, "ALU"),
        OperandKind("nvdla.prelu", "prelu", False, 1, "MUL"),
        OperandKind("nvdla.bn", "bn", False, 2, "BOTH"),
        OperandKind("nvdla.bias.element", "bias", True, 1, "ALU"),
        OperandKind("nvdla.eltwise", "eltwise", True, None, None),
    )
}


@dataclass(frozen=True)
class OperandGeometry:
    kind: OperandKind
    c: int
    h: int
    w: int
    components: int
    bpc: int  # bytes per component (DATA_SIZE)
    proc: str  # PROC_PRECISION
    line_stride: int  # per-element only (0 for per-channel)
    surface_stride: int  # per-element only (0 for per-channel)

    @property
    def epg(self) -> int:
        return 32 if self.proc == "int8" else 16

    @property
    def bytes_per_element(self) -> int:
        return self.components * self.bpc

    @property
    def atom(self) -> int:
        """BytesPerAtom = ElementPerAtom x ComponentsPerElement x BytesPerComponent."""
        return self.epg * self.bytes_per_element

    @property
    def surfaces(self) -> int:
        return ceil_div(self.c, self.epg)

    @property
    def nbytes(self) -> int:
        """Image size: the whole 1x1xC run (per-channel) or whole surfaces (per-element)."""
        if not self.kind.per_element:
            return self.surfaces * self.atom
        return self.surfaces * self.surface_stride

    @property
    def extent(self) -> int:
        """One past the last byte of the last atom."""
        if not self.kind.per_element:
            return self.nbytes
        return cube_extent(
            (1, self.surfaces, self.h, self.w), (0, self.surface_stride, self.line_stride, self.atom), self.atom
        )

    def byte_offset(self, c: Any, h: Any = 0, w: Any = 0, component: Any = 0) -> np.ndarray:
        """Byte offset of component ``component`` of element (c, h, w) from the surface base; vectorized."""
        c, h, w, k = (np.asarray(v, dtype=np.int64) for v in (c, h, w, component))
        base = (
            (c // self.epg) * self.surface_stride + h * self.line_stride + w * self.atom
            if self.kind.per_element
            else (c // self.epg) * self.atom
        )
        return base + (c % self.epg) * self.bytes_per_element + k * self.bpc


def _split_shape(kind: OperandKind, shape: Sequence[int]) -> tuple[int, int, int, int]:
    """(components, C, H, W) from a logical shape."""
    shape = tuple(int(d) for d in shape)
    if kind.per_element:
        if len(shape) == 3:
            return (1,) + shape
        require(
            len(shape) == 4 and shape[0] in (1, 2),
            "sdp.components",
            f"{kind.name}: shape {shape}: the leading component axis must be 1 or 2 (ALU, MUL)",
        )
        require(
            kind.components is None or shape[0] == kind.components,
            "sdp.components",
            f"{kind.name}: {shape[0]} components; this operand has {kind.components}",
        )
        return shape  # type: ignore[return-value]  # rank checked above
    if kind.components == 2:
        require(
            len(shape) == 2 and shape[0] == 2,
            "sdp.components",
            f"{kind.name}: shape {shape} must be (2, C): [0] = ALU operand, [1] = MUL operand",
        )
        return (2, shape[1], 1, 1)
    require(len(shape) == 1, "shape.rank", f"{kind.name}: shape {shape} is not (C,)")
    return (1, shape[0], 1, 1)


def geometry(
    kind: OperandKind,
    shape: Sequence[int],
    dtype: Any,
    data_size: Optional[int] = None,
    proc_precision: Optional[str] = None,
    components: Optional[int] = None,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
) -> OperandGeometry:
    """Check an operand surface against the rules in the module docstring and return its geometry."""
    dt = np.dtype(dtype)
    require(
        dt.name in _DTYPE_PROC, "dtype.unsupported", f"{kind.name}: element type {dt.name} is not int8/int16/float16"
    )
    k, c, h, w = _split_shape(kind, shape)
    if components is not None:
        require(
            int(components) == k,
            "sdp.components",
            f"{kind.name}: components={components} but the tensor has {k} (leading axis of shape {tuple(shape)})",
        )
    for axis, v in (("C", c), ("H", h), ("W", w)):
        require(1 <= v <= MAX_DIM, "sdp.max_dim", f"{kind.name}: {axis}={v} outside 1..{MAX_DIM}")
    bpc = dt.itemsize
    if data_size is not None:
        require(
            int(data_size) == bpc,
            "sdp.data_size",
            f"{kind.name}: data_size={data_size} bytes per component but dtype {dt.name} has {bpc}",
        )
    proc = _DTYPE_PROC[dt.name] if proc_precision is None else normalize_precision(proc_precision)
    require(
        (proc == "fp16") == (dt == np.float16),
        "sdp.operand_precision",
        f"{kind.name}: {dt.name} operands with PROC_PRECISION {proc}: fp16 operands go with fp16 processing only",
    )
    require(
        proc == "int8" or bpc == 2,
        "sdp.two_byte_required",
        f"{kind.name}: PROC_PRECISION {proc} needs TWO_BYTE data, got {bpc}-byte components",
    )
    g = OperandGeometry(kind, c, h, w, k, bpc, proc, 0, 0)
    if not kind.per_element:
        require(
            line_stride is None and surface_stride is None,
            "sdp.stride_unused",
            f"{kind.name}: per-channel data has no line/surface stride",
        )
        return g
    ls = w * g.atom if line_stride is None else int(line_stride)
    alignment.check(kind.table35, line_stride=ls)
    require(
        ls >= w * g.atom,
        "sdp.line_stride_min",
        f"{kind.name}: line_stride {ls} < W*BytesPerAtom = {w}*{g.atom} = {w * g.atom}",
    )
    ss = h * ls if surface_stride is None else int(surface_stride)
    alignment.check(kind.table35, surface_stride=ss)
    require(
        ss >= 0 and ss % 32 == 0,
        "sdp.surface_stride_align",
        f"{kind.name}: surface_stride {ss} is not a multiple of 32 (register in 32-byte units)",
    )
    require(
        ss >= h * ls,
        "sdp.surface_stride_min",
        f"{kind.name}: surface_stride {ss} < H*line_stride = {h}*{ls} = {h * ls}",
    )
    if w == 1 and h == 1:
        require(
            ss == g.atom,
            "sdp.surface_stride_1x1",
            f"{kind.name}: W=H=1 needs surface_stride == BytesPerAtom = {g.atom} (C model), got {ss}",
        )
    g = OperandGeometry(kind, c, h, w, k, bpc, proc, ls, ss)
    alignment.check(kind.table35, size=g.nbytes)
    return g


def pack(
    kind: OperandKind,
    tensor: np.ndarray,
    data_size: Optional[int] = None,
    proc_precision: Optional[str] = None,
    components: Optional[int] = None,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
) -> MemoryImage:
    """Pack operand data (axes in the module docstring) into its surface (``data``, 32-byte aligned)."""
    t = np.asarray(tensor)
    g = geometry(kind, t.shape, t.dtype, data_size, proc_precision, components, line_stride, surface_stride)
    x = t.reshape(g.components, g.c, g.h, g.w).transpose(1, 2, 3, 0)  # (C, H, W, K)
    padded = np.zeros((g.surfaces * g.epg, g.h, g.w, g.components), dtype=le(t.dtype))
    padded[: g.c] = x
    if not kind.per_element:
        return MemoryImage.single(np.ascontiguousarray(padded).view(np.uint8).reshape(-1), align=START_ALIGN)
    atoms = padded.reshape(g.surfaces, g.epg, g.h, g.w, g.components).transpose(0, 2, 3, 1, 4)
    atoms = np.ascontiguousarray(atoms).view(np.uint8).reshape(1, g.surfaces, g.h, g.w, g.atom)
    return MemoryImage.single(place_atoms(atoms, (0, g.surface_stride, g.line_stride), g.nbytes), align=START_ALIGN)


def unpack(
    kind: OperandKind,
    image: MemoryImage,
    shape: Sequence[int],
    dtype: Any,
    data_size: Optional[int] = None,
    proc_precision: Optional[str] = None,
    components: Optional[int] = None,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
) -> np.ndarray:
    """Read operand data back; ``FormatError('sdp.buffer_size')`` if the image is too short."""
    dt = np.dtype(dtype)
    g = geometry(kind, shape, dt, data_size, proc_precision, components, line_stride, surface_stride)
    data = np.asarray(image.data("data"), dtype=np.uint8)
    if kind.per_element:
        atoms = take_atoms(
            data, (1, g.surfaces, g.h, g.w), (0, g.surface_stride, g.line_stride), g.atom, "sdp.buffer_size", kind.name
        )[0]  # (S, H, W, atom)
        vals = np.ascontiguousarray(atoms).view(le(dt)).reshape(g.surfaces, g.h, g.w, g.epg, g.components)
        vals = vals.transpose(0, 3, 1, 2, 4).reshape(g.surfaces * g.epg, g.h, g.w, g.components)
    else:
        need = g.nbytes  # the DMA reads whole atoms: ceil(C/epg) of them (clarifications 8)
        require(
            data.size >= need,
            "sdp.buffer_size",
            f"{kind.name}: buffer of {data.size} bytes is shorter than the {need} bytes the DMA reads "
            f"({g.surfaces} atoms of {g.atom})",
        )
        vals = np.ascontiguousarray(data[:need]).view(le(dt)).reshape(g.surfaces * g.epg, 1, 1, g.components)
    out = vals[: g.c].transpose(3, 0, 1, 2).astype(dt)  # (K, C, H, W)
    return out.reshape(tuple(int(d) for d in shape))


def info(
    kind: OperandKind,
    shape: Sequence[int],
    dtype: Any,
    data_size: Optional[int] = None,
    proc_precision: Optional[str] = None,
    components: Optional[int] = None,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
) -> dict:
    """Sizes, atom, strides and the RDMA register values of an operand surface."""
    dt = np.dtype(dtype)
    g = geometry(kind, shape, dt, data_size, proc_precision, components, line_stride, surface_stride)
    use = kind.data_use or ("BOTH" if g.components == 2 else None)
    regs: dict[str, Any] = {
        "DATA_USE": DATA_USE[use] if use else None,
        "DATA_SIZE": g.bpc - 1,
        "DATA_MODE": int(kind.per_element),
    }
    if kind.name == "nvdla.prelu":
        regs["MUL_PRELU"] = 1
    if kind.per_element:
        regs.update(LINE_STRIDE=g.line_stride, SURFACE_STRIDE=g.surface_stride)
    out: dict[str, Any] = {
        "format": kind.name,
        "shape": [int(d) for d in shape],
        "dtype": dt.name,
        "proc_precision": g.proc,
        "data_size": g.bpc,
        "components": g.components,
        "component_order": ["ALU", "MUL"] if g.components == 2 else [use or "ALU|MUL"],
        "data_use": use or "ALU|MUL",
        "per_element": kind.per_element,
        "elements_per_atom": g.epg,
        "bytes_per_element": g.bytes_per_element,
        "bytes_per_atom": g.atom,
        "surfaces_count": g.surfaces,
        "bytes": g.nbytes,
        "extent_bytes": g.extent,
        "alignment": {"start": START_ALIGN},
        "surfaces": [{"name": "data", "bytes": g.nbytes, "align": START_ALIGN}],
        "registers": regs,
    }
    if kind.per_element:
        out.update(
            line_stride=g.line_stride,
            surface_stride=g.surface_stride,
            line_packed=g.line_stride == g.w * g.atom,
            surf_packed=g.surface_stride == g.h * g.w * g.atom,
        )
        out["alignment"].update(line_stride=32, surface_stride=32)
    else:
        out["compiler_bytes"] = g.c * g.bytes_per_element
    return out


def descriptor(
    kind: OperandKind,
    shape: Sequence[int],
    dtype: Any,
    base: int = 0,
    data_size: Optional[int] = None,
    proc_precision: Optional[str] = None,
    components: Optional[int] = None,
    line_stride: Optional[int] = None,
    surface_stride: Optional[int] = None,
) -> BlockedCubeDescriptor:
    """Per-element operand cube as a :class:`BlockedCubeDescriptor` (``Layout.NVDLA_OPERAND``, atom =
    BytesPerAtom, element = one component)."""
    dt = np.dtype(dtype)
    g = geometry(kind, shape, dt, data_size, proc_precision, components, line_stride, surface_stride)
    alignment.check(kind.table35, start=int(base))
    desc = BlockedCubeDescriptor(
        base=int(base),
        atom_bytes=g.atom,
        elem_bytes=g.bpc,
        count_w=g.w,
        count_h=g.h,
        count_c=g.surfaces,
        count_n=1,
        stride_h=g.line_stride,
        stride_c=g.surface_stride,
        stride_n=0,
        layout=Layout.NVDLA_OPERAND,
        fp16=(dt == np.float16),
    )
    check_ranges(desc.ranges())
    return desc


# ----------------------------------------------------------------------------------------------------------
# per-layer operands (registers) and the SDP converter (Equation 3)


def per_layer_operand(value: float, proc_precision: str) -> int:
    """16-bit register value of a per-layer operand (bias, BN or element-wise value held in a register, e.g.
    ``D_DP_BS_ALU_SRC_VALUE``): two's complement int16 for int8/int16 processing (``sdp.layer_value_range``
    outside -32768..32767), fp16 bits for fp16 processing (RNE, saturated to +-65504)."""
    proc = normalize_precision(proc_precision)
    if proc == "fp16":
        return int(to_fp16(np.float64(value)).view(np.uint16))
    require(float(value).is_integer(), "sdp.layer_value_type", f"per-layer {proc} operand {value!r} is not an integer")
    v = int(value)
    require(-32768 <= v <= 32767, "sdp.layer_value_range", f"per-layer operand {v} outside the 16-bit register")
    return v & 0xFFFF


per_layer_bias = per_layer_operand


def sdp_convert(x: np.ndarray, out_precision: str, offset: int = 0, scale: int = 1, shift: int = 0) -> np.ndarray:
    """Equation 3 as SDP's converter does it (clarifications 2.3, last item): ``y = sat_out(round_half_away(
    (x - offset) * scale / 2**shift))`` with ``offset`` signed 32-bit (``D_CVT_OFFSET``), ``scale`` signed 16-bit
    (``D_CVT_SCALE``), ``shift`` 0..63 (``D_CVT_SHIFT``). ``x`` is int8 or int16; the conversion must be valid
    in Table 30; fp16 output uses the int -> fp16 rule (RNE, +-65504). Vectorized."""
    v = np.asarray(x)
    require(v.dtype in (np.int8, np.int16), "sdp.cvt_dtype", f"Equation 3 converts int8/int16 data, got {v.dtype}")
    out = normalize_precision(out_precision)
    check_conversion("sdp", v.dtype.name, out)
    require(-(1 << 31) <= int(offset) < (1 << 31), "sdp.cvt_offset_range", f"CVT_OFFSET {offset} is not signed 32-bit")
    require(-(1 << 15) <= int(scale) < (1 << 15), "sdp.cvt_scale_range", f"CVT_SCALE {scale} is not signed 16-bit")
    require(0 <= int(shift) <= 63, "sdp.cvt_shift_range", f"CVT_SHIFT {shift} outside 0..63")
    y = round_shift((v.astype(np.int64) - int(offset)) * int(scale), int(shift))
    return int_to_fp16(y) if out == "fp16" else saturate(y, out)


# ----------------------------------------------------------------------------------------------------------
# registration

_EXAMPLE_SHAPES = {1: (20,), 2: (2, 20), 3: (20, 2, 3), 4: (2, 20, 2, 3)}


def _register(kind: OperandKind, axes: tuple[str, ...], optional: int, summary: str) -> Format:
    opts = [
        Option(
            "data_size", "int", None, "DATA_SIZE: bytes per component (1 or 2); default the dtype's", choices=(1, 2)
        ),
        Option(
            "proc_precision",
            "str",
            None,
            "SDP PROC_PRECISION int8/int16/fp16; default the dtype's",
            choices=("int8", "int16", "fp16"),
        ),
    ]
    if kind.components is None:
        opts.append(
            Option(
                "components", "int", None, "1 (ALU or MUL) or 2 (BOTH); default from the tensor rank", choices=(1, 2)
            )
        )
    if kind.per_element:
        opts += [
            Option("line_stride", "int", None, "bytes, multiple of 32; default W*BytesPerAtom"),
            Option("surface_stride", "int", None, "bytes, multiple of 32; default H*line_stride"),
        ]
    return register(
        Format(
            name=kind.name,
            axes=axes,
            optional_leading_axes=optional,
            dtypes=("int8", "int16", "float16"),
            pack=partial(pack, kind),
            unpack=partial(unpack, kind),
            info=partial(info, kind),
            descriptor=partial(descriptor, kind) if kind.per_element else None,
            options=tuple(opts),
            summary=summary,
            spec=(
                "seed 'Bias/PRELU/Batch Normalization/Element-Wise Data Format', BytesPerAtom, Table 35; "
                "clarifications 8"
            ),
            example=Example(
                _EXAMPLE_SHAPES[len(axes)], "int16", color_by="component" if axes[0] == "component" else "C"
            ),
        )
    )


FORMATS: dict[str, Format] = {
    "nvdla.bias.channel": _register(
        KINDS["nvdla.bias.channel"], ("C",), 0, "NVDLA per-channel bias (1x1xC, ALU operand)"
    ),
    "nvdla.prelu": _register(KINDS["nvdla.prelu"], ("C",), 0, "NVDLA per-channel PReLU slope (1x1xC, MUL operand)"),
    "nvdla.bn": _register(
        KINDS["nvdla.bn"], ("component", "C"), 0, "NVDLA per-channel batch-norm pairs (1x1xC, ALU then MUL interleaved)"
    ),
    "nvdla.bias.element": _register(
        KINDS["nvdla.bias.element"], ("C", "H", "W"), 0, "NVDLA per-element bias (W x H x C cube of BytesPerAtom atoms)"
    ),
    "nvdla.eltwise": _register(
        KINDS["nvdla.eltwise"],
        ("component", "C", "H", "W"),
        1,
        "NVDLA element-wise operand (W x H x C, one component or ALU+MUL pairs)",
    ),
}
