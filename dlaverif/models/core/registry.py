"""The format registry: every format is registered once, and the CLI, the tests, the
drawings and the testbench all find it here (ARCHITECTURE.md, "registered once").

A format module describes itself with :class:`Format` and calls :func:`register`.
Families whose members are parsed from the name (oneDNN tags: ``onednn.nChw16c``)
register a resolver with :func:`register_family` instead of listing every member.

Calling conventions of the callables a :class:`Format` carries (options arrive already
checked, converted and completed with their defaults):

* ``pack(tensor, **opts) -> MemoryImage``
* ``unpack(image: MemoryImage, shape: tuple[int, ...], dtype: np.dtype, **opts) -> np.ndarray``
* ``info(shape, dtype, **opts) -> dict`` (JSON-serialisable: sizes, strides, surfaces, alignments)
* ``descriptor(shape, dtype, base=0, **opts, **params)``: the block descriptor a reader is programmed
  from: a ``BlockedCubeDescriptor`` (activation layouts), a ``WeightSurfaceDescriptor`` (weights) or
  a ``PixelDescriptor`` (pixel formats). ``params`` are the keyword arguments named in
  ``Format.descriptor_params``: values that are not format options (the packed image of compressed
  weights, the pixel converter's registers).
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Optional, Sequence

import numpy as np

from .dtypes import resolve_dtype
from .errors import FormatError
from .memimage import ImageLike, MemoryImage, as_image
from .validate import (
    as_int,
    as_tensor,
    check_base,
    check_dims,
    check_magnitude,
    check_name,
    check_sizes,
    check_tensor_bytes,
    native,
    owned,
    surface_sizes,
)


def _parse_bool(text: str) -> bool:
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"not a boolean: {text!r}")


def _parse_int(text: str) -> int:
    return int(text.strip(), 0)


def _parse_ints(text: str) -> tuple[int, ...]:
    return tuple(int(t, 0) for t in text.replace("x", ",").split(",") if t.strip())


_PARSERS: dict[str, Callable[[str], Any]] = {
    "int": _parse_int,
    "bool": _parse_bool,
    "str": str,
    "float": float,
    "ints": _parse_ints,
}


def _to_int(value: Any, what: str) -> int:
    return check_magnitude(as_int(value, what), what)


def _to_bool(value: Any, what: str) -> bool:
    if isinstance(value, (bool, np.bool_)) or (
        not isinstance(value, float) and value in (0, 1) and not isinstance(value, (np.ndarray, str, bytes))
    ):
        return bool(value)
    raise TypeError(f"not a boolean: {value!r:.60}")


def _to_float(value: Any, what: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"not a number: {value!r:.60}")
    if not math.isfinite(float(value)):
        raise ValueError(f"not finite: {value!r}")
    return float(value)


def _to_str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"not a str: {type(value).__name__}")
    return value


def _to_ints(value: Any, what: str) -> tuple[int, ...]:
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"not a sequence of integers: {value!r:.60}")
    return tuple(_to_int(v, f"{what}[{i}]") for i, v in enumerate(value))


#: Python value -> option value, per kind: the one place option values are checked (models.core.validate).
_CONVERTERS: dict[str, Callable[[Any, str], Any]] = {
    "int": _to_int,
    "bool": _to_bool,
    "float": _to_float,
    "str": _to_str,
    "ints": _to_ints,
}


@dataclass(frozen=True)
class Option:
    """One format option, named with the spec's words in snake case.

    ``kind`` is one of ``int``, ``bool``, ``str``, ``float``, ``ints`` (comma-separated list).
    ``default`` of ``None`` means "derived" (e.g. a packed stride) unless ``required``.
    """

    name: str
    kind: str
    default: Any = None
    help: str = ""
    choices: Optional[tuple[Any, ...]] = None
    required: bool = False

    def convert(self, value: Any, fmt: str) -> Any:
        """Convert a CLI string or Python value to this option's type, checking choices."""
        if value is None:
            return None
        what = f"{fmt}: option {self.name}"
        try:
            if isinstance(value, str) and self.kind != "str":
                value = _PARSERS[self.kind](value)
            value = _CONVERTERS[self.kind](value, what)
        except FormatError:
            raise
        except (ValueError, TypeError, OverflowError) as exc:
            raise FormatError("option.type", f"{what}={value!r:.60} is not of type {self.kind} ({exc})") from None
        if self.choices is not None and value not in self.choices:
            raise FormatError(
                "option.choice", f"{fmt}: option {self.name}={value!r} is not one of {list(self.choices)}"
            )
        return value


@dataclass(frozen=True)
class Example:
    """A small valid tensor of a format, the one the drawings (``python -m dlaverif.models draw``) and the tests use
    when no shape is given: ``shape``, ``dtype``, format ``opts`` (CLI strings or Python values) and
    ``color_by``, the logical coordinate the memory map colours by (``AXIS`` or ``AXIS/N``: groups of N along
    AXIS; ``AXIS/atom``: groups of one 32-byte atom's worth of elements, 32 // element bytes).
    ``probe_max``: for formats whose elements are bit fields narrower than the dtype (packed 10-bit pixels), the
    largest value of each index of the last axis; the drawings then probe with 0 and that value."""

    shape: tuple[int, ...]
    dtype: str
    opts: tuple[tuple[str, Any], ...] = ()
    color_by: str = ""
    probe_max: tuple[int, ...] = ()


@dataclass(frozen=True)
class Format:
    """A registered format: a function from a logical tensor to a memory image, and back."""

    name: str
    axes: tuple[str, ...]
    dtypes: tuple[str, ...]
    pack: Callable[..., MemoryImage]
    unpack: Callable[..., np.ndarray]
    info: Callable[..., dict]
    options: tuple[Option, ...] = ()
    descriptor: Optional[Callable[..., Any]] = None
    descriptor_params: tuple[str, ...] = ()
    surfaces: tuple[str, ...] = ("data",)
    optional_leading_axes: int = 0
    summary: str = ""
    spec: str = ""
    example: Optional[Example] = None

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise FormatError(
            "option.unknown", f"{self.name}: unknown option {name!r}; known: {[o.name for o in self.options]}"
        )

    def resolve_options(self, opts: Mapping[str, Any]) -> dict[str, Any]:
        """Check names and types of ``opts`` and fill in defaults."""
        out: dict[str, Any] = {}
        for key, value in opts.items():
            if not isinstance(key, str):
                raise FormatError("option.unknown", f"{self.name}: option names are str, got {key!r:.60}")
            out[key] = self.option(key).convert(value, self.name)
        for o in self.options:
            if o.name not in out or out[o.name] is None:
                if o.required:
                    raise FormatError("option.required", f"{self.name}: option {o.name} is required")
                out.setdefault(o.name, o.default)
                if out[o.name] is None:
                    out[o.name] = o.default
        return out

    def check_dtype(self, dtype: Any) -> np.dtype:
        dt = resolve_dtype(dtype)
        if dt.fields is not None or dt.subdtype is not None:
            raise FormatError(
                "dtype.unsupported", f"{self.name}: element type {dt} is structured; valid: {list(self.dtypes)}"
            )
        if dt.name not in self.dtypes:
            raise FormatError(
                "dtype.unsupported", f"{self.name}: element type {dt.name} is not valid; valid: {list(self.dtypes)}"
            )
        return dt

    def check_shape(self, shape: object, itemsize: int = 1) -> tuple[int, ...]:
        """Rank, positive integer dims, and the tensor under the size limit (``models.core.validate``)."""
        shape = check_dims(shape)
        lo, hi = len(self.axes) - self.optional_leading_axes, len(self.axes)
        if not lo <= len(shape) <= hi:
            want = f"{lo}..{hi}" if lo != hi else f"{hi}"
            raise FormatError(
                "shape.rank", f"{self.name}: shape {shape} has rank {len(shape)}, want {want} axes {self.axes}"
            )
        if any(d <= 0 for d in shape):
            raise FormatError("shape.empty", f"{self.name}: every dimension must be >= 1, got {shape}")
        check_tensor_bytes(shape, itemsize)
        return shape

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "axes": list(self.axes),
            "optional_leading_axes": self.optional_leading_axes,
            "dtypes": list(self.dtypes),
            "surfaces": list(self.surfaces),
            "options": [
                {
                    "name": o.name,
                    "kind": o.kind,
                    "default": o.default,
                    "choices": list(o.choices) if o.choices else None,
                    "required": o.required,
                    "help": o.help,
                }
                for o in self.options
            ],
            "descriptor": self.descriptor is not None,
            "summary": self.summary,
            "spec": self.spec,
            "example": None
            if self.example is None
            else {
                "shape": list(self.example.shape),
                "dtype": self.example.dtype,
                "opts": dict(self.example.opts),
                "color_by": self.example.color_by,
            },
        }


@dataclass
class _Family:
    prefix: str
    resolve: Callable[[str], Format]
    examples: tuple[str, ...]
    summary: str
    cache: dict[str, Format] = field(default_factory=dict)


_FORMATS: dict[str, Format] = {}
_FAMILIES: dict[str, _Family] = {}
_PROVIDERS = ("dlaverif.models.nvdla", "dlaverif.models.onednn", "dlaverif.models.mace")
_loaded = False


def register(fmt: Format) -> Format:
    """Register ``fmt`` under its name (a name may be registered once)."""
    if fmt.name in _FORMATS:
        raise RuntimeError(f"format {fmt.name} registered twice")
    _FORMATS[fmt.name] = fmt
    return fmt


def register_family(prefix: str, resolve: Callable[[str], Format], examples: Iterable[str], summary: str = "") -> None:
    """Register formats named ``prefix + suffix`` built on demand by ``resolve(suffix)``."""
    _FAMILIES[prefix] = _Family(prefix, resolve, tuple(examples), summary)


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for mod in _PROVIDERS:
            importlib.import_module(mod)


def get_format(name: str) -> Format:
    """Look a format up by name (``nvdla.feature``, ``onednn.nChw16c``, ``mace.image.arg1d`` ...)."""
    _load()
    if name in _FORMATS:
        return _FORMATS[name]
    for prefix, fam in _FAMILIES.items():
        if name.startswith(prefix) and len(name) > len(prefix):
            if name not in fam.cache:
                fam.cache[name] = fam.resolve(name[len(prefix) :])
            return fam.cache[name]
    raise FormatError(
        "format.unknown", f"unknown format {name!r}; run `python -m dlaverif.models formats` for the list"
    )


def format_names() -> list[str]:
    """Names of every registered format (families are listed by their examples)."""
    _load()
    return sorted(_FORMATS)


def families() -> dict[str, dict[str, Any]]:
    _load()
    return {p: {"examples": list(f.examples), "summary": f.summary} for p, f in _FAMILIES.items()}


def _door(
    name: object, shape: object, dtype: Any, opts: Mapping[str, Any]
) -> tuple[Format, tuple[int, ...], np.dtype, dict[str, Any], dict]:
    """The one validation door (:mod:`models.core.validate`): every argument checked, and every surface
    sized with Python ints against ``MAX_SURFACE_BYTES``, before any work."""
    fmt = get_format(check_name(name))
    dt = fmt.check_dtype(dtype).newbyteorder("=")  # formats see native types only
    shp = fmt.check_shape(shape, dt.itemsize)
    resolved = fmt.resolve_options(opts)
    about = _guarded(fmt.info, shp, dt, **resolved)
    check_sizes(fmt.name, surface_sizes(about))
    return fmt, shp, dt, resolved, about


def _guarded(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a format callable; arithmetic that still overflows becomes a ``FormatError`` (``size.limit``)."""
    try:
        return call(*args, **kwargs)
    except (OverflowError, MemoryError) as exc:
        raise FormatError("size.limit", f"sizes overflow ({type(exc).__name__}: {exc})") from None


def pack(name: str, tensor: np.ndarray, **opts: Any) -> MemoryImage:
    """Pack a logical tensor into the memory image of format ``name``.

    Any byte order, memory order or strided view of the same values gives the same image.
    """
    arr = as_tensor(tensor)
    fmt, _, dt, resolved, _ = _door(name, arr.shape, arr.dtype, opts)
    return _guarded(fmt.pack, native(arr), **resolved)


def unpack(name: str, image: ImageLike, shape: Sequence[int], dtype: Any, **opts: Any) -> np.ndarray:
    """Read the logical tensor of ``shape`` and ``dtype`` back from a memory image of format ``name``.

    Returns a new, writable, C-ordered array in native byte order that the caller owns.
    """
    fmt, shp, dt, resolved, _ = _door(name, shape, dtype, opts)
    img = as_image(image, fmt.surfaces)
    return owned(_guarded(fmt.unpack, img, shp, dt, **resolved), dt)


def info(name: str, shape: Sequence[int], dtype: Any, **opts: Any) -> dict:
    """Sizes, strides, surfaces and alignments of format ``name`` for a tensor of ``shape``/``dtype``."""
    return _door(name, shape, dtype, opts)[4]


def descriptor(name: str, shape: Sequence[int], dtype: Any, base: int = 0, **opts: Any):
    """The descriptor a reader of format ``name`` is programmed from (see the module docstring): ``opts`` are
    format options, checked by the validation door, except the names in ``Format.descriptor_params`` (the packed
    ``image`` of compressed weights, the pixel converter's registers), which the descriptor itself checks."""
    fmt = get_format(check_name(name))
    if fmt.descriptor is None:
        raise FormatError("descriptor.none", f"{name} exports no descriptor")
    b = check_base(base)
    params = {k: opts.pop(k) for k in fmt.descriptor_params if k in opts}
    _, shp, dt, resolved, _ = _door(name, shape, dtype, opts)  # the door looks up the same (cached) format
    return fmt.descriptor(shp, dt, base=b, **resolved, **params)
