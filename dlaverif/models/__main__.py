"""Command line of the reference models: ``python -m dlaverif.models {formats,pack,unpack,info,draw}``.

* ``formats [--json]``: every format name, logical axes, dtypes and options (from the registry).
* ``pack FORMAT -i tensor.npy -o out.bin [--opt key=value ...]``: one-surface formats write one file;
  formats with several surfaces write a folder with one ``<surface>.bin`` each.
* ``unpack FORMAT -i in.bin|folder -o tensor.npy --shape D0,D1,... --dtype NAME [--opt ...]``.
* ``info FORMAT --shape ... --dtype ... [--opt ...]``: sizes, strides, surfaces and alignments as JSON
  (plus the BlockedCubeDescriptor of activation layouts).
* ``draw FORMAT [--shape ... --dtype ...] [--opt ...] -o map.svg|map.png [--view memory|logical]
  [--row atom|line|N] [--range START:END] [--color-by AXIS[/N|/atom]]``: a picture of the format
  (``models.draw``, docs/drawing.md). ``memory`` (default): the memory image as rows of bytes (a 32-byte atom
  per row, or N bytes, or the format's ``line_stride``), one block per surface at its base address (surfaces
  back to back from 0, each at its alignment), every element coloured by a logical coordinate (default: the
  registry example's ``color_by``) and labelled with its logical index; pad, tail, gap and metadata bytes
  hatched grey. ``logical``: the tensor, each element labelled and coloured by its address. Without
  ``--shape`` the registry's example tensor of the format is drawn (``Format.example``). At most
  ``MAX_DRAW_BYTES`` = 4096 bytes of address window (and 4096 elements in the logical view) are drawn: a
  larger image is refused, ``--range START:END`` (addresses, end excluded, hex allowed) draws one window.

Exit statuses: 0 success; 2 for every failure (a rule of a spec broken by the input, ``FormatError``; a
malformed argument; a missing, unreadable or garbage input; any OS error while writing, disk full included),
with one line on stderr. A failed call leaves the disk as it was.

Overwrite rule: the CLI writes only what it produced. An output that is an existing folder is
never written into, replaced or deleted: it is refused (exit 2). The folder of a multi-surface format must
not exist yet. A single output file (one-surface ``pack``, ``unpack``) may replace an existing regular file.
The output's parent folder must exist (nothing is created around the output). Every output is written
under a temporary name in the same folder and renamed into place only when complete.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, NoReturn, Sequence

import numpy as np

from .core.errors import FormatError
from .core.memimage import MemoryImage, Surface
from .core.registry import descriptor, families, format_names, get_format, info, pack, unpack
from .core.validate import check_base


class _UsageError(Exception):
    """A malformed command line (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, status 2 (argparse prints usage too)
        raise _UsageError(message)


def _opts(pairs: Sequence[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise _UsageError(f"--opt wants key=value, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def _shape(text: str) -> tuple[int, ...]:
    try:
        dims = tuple(int(t) for t in text.replace("x", ",").split(",") if t.strip())
    except ValueError:
        raise _UsageError(f"--shape wants comma-separated integers, got {text!r}") from None
    if not dims:
        raise _UsageError("--shape is empty")
    return dims


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.dtype):
        return obj.name
    return obj


def _cmd_formats(args: argparse.Namespace) -> int:
    names = format_names()
    fams = families()
    if args.json:
        doc = {"formats": [get_format(n).describe() for n in names], "families": fams}
        print(json.dumps(_jsonable(doc), indent=2))
        return 0
    for n in names:
        f = get_format(n)
        axes = ",".join(("[" + a + "]") if i < f.optional_leading_axes else a for i, a in enumerate(f.axes))
        opts = " ".join(f"{o.name}={o.default}" for o in f.options)
        print(f"{n:34s} axes {axes:14s} dtypes {'/'.join(f.dtypes):28s} {opts}")
    for prefix, fam in fams.items():
        print(f"{prefix + '<tag>':34s} family: {fam['summary']} e.g. {', '.join(fam['examples'])}")
    return 0


def _write_atomic(path: Path, writer, folder: bool = False) -> None:
    """Write via a temporary sibling and rename (see the overwrite rule in the module docstring).

    ``writer(tmp)`` fills the temporary folder ``tmp`` and returns the file or folder to rename into place.
    """
    path = Path(os.path.abspath(path))
    if path.is_dir() and not path.is_symlink():
        raise _UsageError(f"output {path} is an existing folder; it is never replaced (give a new name)")
    if folder and (path.exists() or path.is_symlink()):
        raise _UsageError(f"output {path} exists; a multi-surface format writes a new folder (give a new name)")
    if not path.parent.is_dir():
        raise _UsageError(f"parent {path.parent} of the output is not an existing folder")
    tmp = Path(tempfile.mkdtemp(prefix=".models-", dir=path.parent))
    try:
        os.replace(writer(tmp), path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _cmd_pack(args: argparse.Namespace) -> int:
    tensor = _load_npy(Path(args.input))
    img = pack(args.format, tensor, **_opts(args.opt))

    def writer(tmp: Path) -> Path:
        if len(img) == 1:
            out = tmp / "out.bin"
            out.write_bytes(img.surfaces[0].tobytes())
            return out
        folder = tmp / "out"
        folder.mkdir()
        for s in img:
            (folder / f"{s.name}.bin").write_bytes(s.tobytes())
        return folder

    _write_atomic(Path(args.output), writer, folder=len(img) > 1)
    return 0


def _load_npy(path: Path) -> np.ndarray:
    if not path.is_file():
        raise FileNotFoundError(f"no such input file: {path}")
    try:
        arr = np.load(path, allow_pickle=False)
    except OSError:
        raise
    except Exception as exc:  # np.load reports garbage as ValueError, EOFError, UnicodeError ... by content
        raise FormatError("cli.npy", f"{path} is not a .npy array file ({type(exc).__name__}: {exc})") from None
    if not isinstance(arr, np.ndarray):
        raise FormatError("cli.npy", f"{path} is an .npz archive, not a .npy array file")
    return arr


def _load_image(path: Path, fmt_surfaces: tuple[str, ...]) -> MemoryImage:
    if path.is_dir():
        files = {p.stem: p for p in sorted(path.glob("*.bin"))}
        if not files:
            raise FormatError("cli.image", f"folder {path} has no .bin surfaces")
        order = [n for n in fmt_surfaces if n in files] + [n for n in files if n not in fmt_surfaces]
        return MemoryImage(tuple(Surface(n, np.fromfile(files[n], dtype=np.uint8)) for n in order))
    if not path.is_file():
        raise FileNotFoundError(f"no such input file: {path}")
    return MemoryImage((Surface(fmt_surfaces[0], np.fromfile(path, dtype=np.uint8)),))


def _cmd_unpack(args: argparse.Namespace) -> int:
    fmt = get_format(args.format)
    img = _load_image(Path(args.input), fmt.surfaces)
    tensor = unpack(args.format, img, _shape(args.shape), args.dtype, **_opts(args.opt))

    def writer(tmp: Path) -> Path:
        out = tmp / "out.npy"
        with open(out, "wb") as fh:
            np.save(fh, tensor, allow_pickle=False)
        return out

    _write_atomic(Path(args.output), writer)
    return 0


def _descriptor_doc(name: str, shape: Sequence[int], dtype: str, base: int, opts: dict) -> Any:
    """The format's descriptor as JSON data: one object, or ``{set: object}`` for deconvolution sets. Compressed
    weights raise ``weight.descriptor_image`` (their sizes come from the packed image, not from the shape), which
    ``info`` reports as ``descriptor_unavailable``."""
    desc = descriptor(name, shape, dtype, base=base, **opts)
    return {k: d.to_dict() for k, d in desc.items()} if isinstance(desc, dict) else desc.to_dict()


def _cmd_info(args: argparse.Namespace) -> int:
    shape, opts = _shape(args.shape), _opts(args.opt)
    check_base(args.base)
    doc = dict(info(args.format, shape, args.dtype, **opts))
    doc["descriptor"], doc["descriptor_unavailable"] = None, None
    try:  # a valid tensor is described even when the RTL cannot read it: info says why instead
        doc["descriptor"] = _descriptor_doc(args.format, shape, args.dtype, args.base, opts)
    except FormatError as exc:
        doc["descriptor_unavailable"] = str(exc)
    print(json.dumps(_jsonable(doc), indent=2))
    return 0


def _range(text: str) -> tuple[int | None, int | None]:
    a, sep, b = text.partition(":")
    try:
        lo = int(a, 0) if a.strip() else None
        hi = int(b, 0) if b.strip() else None
    except ValueError:
        lo = hi = -1
    if (
        not sep
        or (lo is None and hi is None)
        or (lo is not None and lo < 0)
        or (hi is not None and hi < 0)
        or (lo is not None and hi is not None and hi <= lo)
    ):
        raise _UsageError(f"--range wants START:END addresses with 0 <= START < END (hex allowed), got {text!r}")
    return lo, hi


def _cmd_draw(args: argparse.Namespace) -> int:
    from .draw.mapping import color_key, element_map, example_of, image_bytes

    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise _UsageError(f"-o wants a .svg or .png file name, got {args.output!r}")
    fmt = get_format(args.format)
    if args.shape is None:
        if args.dtype is not None:
            raise _UsageError("--dtype needs --shape (without both, the registry's example tensor is drawn)")
        ex = example_of(fmt.name)
        shape, dtype, opts = ex.shape, ex.dtype, {**dict(ex.opts), **_opts(args.opt)}
    else:
        if args.dtype is None:
            raise _UsageError("--shape needs --dtype")
        shape, dtype, opts = _shape(args.shape), args.dtype, _opts(args.opt)
    total = image_bytes(fmt.name, shape, dtype, **opts)  # validates shape/dtype/options before any pack
    row = args.row.strip().lower()
    if row == "atom":
        row_bytes = 32
    elif row == "line":
        row_bytes = info(fmt.name, shape, dtype, **opts).get("line_stride") or 0
        if not row_bytes:
            raise _UsageError(f"{fmt.name} has no line_stride; use --row atom or --row N")
    else:
        try:
            row_bytes = int(row, 0)
        except ValueError:
            raise _UsageError(f"--row wants atom, line or a number of bytes, got {args.row!r}") from None
        if not 1 <= row_bytes <= 256:
            raise _UsageError(f"--row N wants 1 <= N <= 256, got {row_bytes}")
    from .draw.render import MAX_DRAW_BYTES, MAX_DRAW_ELEMENTS, render_logical, render_memory

    lo, hi = _range(args.range) if args.range else (None, None)
    if args.view == "logical" and int(np.prod(shape)) > MAX_DRAW_ELEMENTS:
        raise _UsageError(
            f"the logical view draws at most {MAX_DRAW_ELEMENTS} elements, the tensor has "
            f"{int(np.prod(shape))}; draw a smaller --shape"
        )
    if args.range is None and total > MAX_DRAW_BYTES:
        raise _UsageError(
            f"{fmt.name}: the image is {total} bytes, above the {MAX_DRAW_BYTES} drawn at once; zoom "
            f"with --range START:END (e.g. --range 0:{MAX_DRAW_BYTES})"
        )
    emap = element_map(fmt.name, shape, dtype, **opts)
    end_all = int(emap.byte_address.max()) + 1 if emap.total_bytes else 0
    lo = 0 if lo is None else lo
    hi = end_all if hi is None else min(hi, end_all)
    if hi - lo > MAX_DRAW_BYTES:
        raise _UsageError(
            f"--range {args.range} spans {hi - lo} bytes, above the {MAX_DRAW_BYTES} drawn at once; "
            "give a smaller window"
        )
    if not np.any((emap.byte_address >= lo) & (emap.byte_address < hi)):
        raise _UsageError(f"--range {args.range} holds no byte of the image (addresses 0x0..0x{end_all - 1:x})")
    color_spec = args.color_by or (fmt.example.color_by if fmt.example and fmt.example.color_by else emap.axes[0])
    groups, color_title = color_key(emap, color_spec)

    def writer(tmp: Path) -> Path:
        target = tmp / ("out" + suffix)
        if args.view == "logical":
            render_logical(emap, target, window=(lo, hi))
        else:
            render_memory(emap, groups, color_title, target, row_bytes=row_bytes, window=(lo, hi))
        return target

    _write_atomic(out, writer)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for tests and documentation)."""
    p = _Parser(prog="python -m dlaverif.models", description="Pack, unpack and describe DLA in-memory formats.")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)
    f = sub.add_parser("formats", help="list every format, its axes, dtypes and options")
    f.add_argument("--json", action="store_true", help="machine-readable output")
    f.set_defaults(func=_cmd_formats)
    for name, func, help_ in (
        ("pack", _cmd_pack, "logical tensor (.npy) -> memory image (.bin or folder)"),
        ("unpack", _cmd_unpack, "memory image -> logical tensor (.npy)"),
        ("info", _cmd_info, "sizes, strides, surfaces and alignments as JSON"),
    ):
        s = sub.add_parser(name, help=help_)
        s.add_argument("format", help="format name, see `formats`")
        if name != "info":
            s.add_argument("-i", "--input", required=True)
            s.add_argument("-o", "--output", required=True)
        if name != "pack":
            s.add_argument("--shape", required=True, help="logical shape, e.g. 1,64,56,56")
            s.add_argument("--dtype", required=True, help="int8 | int16 | float16 | float32 | ...")
        if name == "info":
            s.add_argument("--base", type=lambda t: int(t, 0), default=0, help="base address for the descriptor")
        s.add_argument("--opt", action="append", metavar="KEY=VALUE", help="format option (repeatable)")
        s.set_defaults(func=func)
    d = sub.add_parser("draw", help="picture of a format: memory map or logical view (.svg/.png)")
    d.add_argument("format", help="format name, see `formats`")
    d.add_argument("--shape", help="logical shape, e.g. 1,20,2,3 (default: the registry's example)")
    d.add_argument("--dtype", help="element type (with --shape)")
    d.add_argument("--opt", action="append", metavar="KEY=VALUE", help="format option (repeatable)")
    d.add_argument("-o", "--output", required=True, help="picture file, .svg or .png")
    d.add_argument("--view", choices=("memory", "logical"), default="memory")
    d.add_argument("--row", default="atom", help="bytes per row: atom (32), line (the format's line_stride) or N")
    d.add_argument("--range", help="address window START:END to draw (end excluded; hex allowed)")
    d.add_argument("--color-by", dest="color_by", help="AXIS, AXIS/N or AXIS/atom (default per format)")
    d.set_defaults(func=_cmd_draw)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return int(args.func(args))
    except (_UsageError, FormatError, OSError) as exc:
        print("error: " + " ".join(str(exc).split()), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
