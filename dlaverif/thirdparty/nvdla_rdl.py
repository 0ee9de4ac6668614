"""NVIDIA-style register descriptions (``spec/manual/*.rdl`` of nvdla/hw, or a user's own ``.rdl`` in that style) as
register maps of the testbench.

NVIDIA wrote them in Ordt's older SystemRDL dialect; systemrdl-compiler (SystemRDL 2.0) accepts them after two
mechanical fixes, applied here to a copy in the caller's build folder (the given file is never edited):

1. the values of the user property ``spec_access`` (declared ``type = string``) are written bare (``spec_access =
   r;``): they are quoted;
2. the root ``addrmap { ... } addrmap_NVDLA;`` has no type name: it is given one (``addrmap addrmap_NVDLA_t``) and
   instantiated as the root.

:func:`load` compiles any such file (a path) into an :class:`RdlMap` (register byte addresses and fields, as the
compiler elaborates them), the fixed copy written under ``out`` (default: the current folder, which in a simulation
is the run's folder inside the user's build folder). :func:`manual` names NVIDIA's file of a unit in ``$NVDLA_HW``;
:class:`RdlFile` is a register file loaded when called (a :class:`dlaverif.platform.binding.CsbControl`'s ``regs``).
``python -m dlaverif.thirdparty.nvdla_rdl [--out DIR] NAME_OR_PATH...`` (``make regs``) writes the fixed copies and a
JSON table of each beside, and prints one line per map (or one line saying what to set when ``NVDLA_HW`` is not
found).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional, Union

from dlaverif import thirdparty

#: where NVIDIA keeps a unit's register description in a checkout of nvdla/hw (``$NVDLA_HW``)
MANUAL = Path("spec") / "manual"

_BARE_ACCESS = re.compile(r"(\bspec_access\s*=\s*)([^;\"\s]+)\s*;")
_ROOT_OPEN = re.compile(r"^addrmap\s*\{", re.M)
_ROOT_CLOSE = re.compile(r"^\}\s*(\w+)\s*;", re.M)


class RdlError(Exception):
    """An NVIDIA description that does not compile, even after the two fixes."""


def fix_dialect(text: str) -> str:
    """The two mechanical fixes (module docstring) of Ordt's dialect; anything else is left as NVIDIA wrote it."""
    text = _BARE_ACCESS.sub(r'\1"\2";', text)
    opening = _ROOT_OPEN.search(text)
    closing = _ROOT_CLOSE.search(text, opening.end()) if opening is not None else None
    if opening is None or closing is None:
        return text
    name = closing.group(1)
    body = text[opening.end() : closing.start()]
    return f"{text[: opening.start()]}addrmap {name}_t {{{body}}};{text[closing.end() :]}"


@dataclass(frozen=True)
class RdlField:
    lsb: int
    width: int
    sw: str  # r, rw, w, ...
    reset: int
    enum: tuple[tuple[str, int], ...] = ()  # its encoding (member, value), if the .rdl gives one


@dataclass(frozen=True)
class RdlMap:
    """Registers of one block: name -> (byte address, fields); a :class:`dlaverif.platform.binding.RegisterMap`."""

    name: str
    source: str
    registers: dict[str, tuple[int, dict[str, RdlField]]]

    def address(self, reg: str) -> int:
        try:
            return self.registers[reg][0]
        except KeyError:
            raise KeyError(f"{self.name}: no register {reg!r} in {self.source}") from None

    def fields(self, reg: str) -> dict[str, RdlField]:
        return self.registers[reg][1]

    def value(self, reg: str, **fields: int) -> int:
        """The register's value with these fields (the others 0); a value wider than its field is an error."""
        out = 0
        known = self.fields(reg)
        for name, v in fields.items():
            if name not in known:
                raise KeyError(f"{self.name}.{reg}: no field {name!r} (fields: {', '.join(known)})")
            f = known[name]
            if not 0 <= int(v) < 1 << f.width:
                raise ValueError(f"{self.name}.{reg}.{name}: {v} does not fit in {f.width} bits")
            out |= int(v) << f.lsb
        return out

    def enum(self, reg: str, field: str, member: str) -> int:
        """The value of ``member`` of the field's encoding (``D_DATA_FORMAT``, ``INPUT_DATA``, ``INT8`` -> 0)."""
        enc = dict(self.fields(reg)[field].enum)
        if member not in enc:
            raise KeyError(f"{self.name}.{reg}.{field}: no member {member!r} (members: {', '.join(enc)})")
        return enc[member]

    def writable_mask(self, reg: str) -> int:
        return sum(((1 << f.width) - 1) << f.lsb for f in self.fields(reg).values() if "w" in f.sw)

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "source": self.source,
            "registers": {
                r: {"address": a, "fields": {n: vars(f) for n, f in fs.items()}}
                for r, (a, fs) in self.registers.items()
            },
        }


def _reset(value: object) -> int:
    """A field's reset value (0 when the .rdl gives none or a reference)."""
    return value if isinstance(value, int) else 0


def _compile(path: Path, name: str, out: Path) -> RdlMap:
    from systemrdl import RDLCompileError, RDLCompiler
    from systemrdl.node import FieldNode, RegNode

    fixed = out / path.name
    fixed.parent.mkdir(parents=True, exist_ok=True)
    fixed.write_text(fix_dialect(path.read_text()))
    rdlc = RDLCompiler()
    try:
        rdlc.compile_file(str(fixed))
        root = rdlc.elaborate()
    except RDLCompileError as e:
        raise RdlError(f"{path}: does not compile after the two dialect fixes (copy: {fixed}): {e}") from None
    regs: dict[str, tuple[int, dict[str, RdlField]]] = {}
    for node in root.top.descendants():
        if isinstance(node, RegNode):
            fields = {}
            for f in node.fields():
                assert isinstance(f, FieldNode)
                sw = f.get_property("sw").name
                encode = f.get_property("encode")
                enum = tuple((m.name, int(m.value)) for m in encode) if encode is not None else ()
                fields[f.inst_name] = RdlField(f.lsb, f.width, sw, _reset(f.get_property("reset")), enum)
            regs[node.inst_name] = (node.absolute_address, fields)
    return RdlMap(name, str(path), regs)


def manual(unit: str) -> Path:
    """NVIDIA's register description of ``unit`` (the name of its ``.rdl`` in ``spec/manual/``) in ``$NVDLA_HW`` (or
    its defaults, as the project's plan declares them: :data:`dlaverif.thirdparty.DEFAULTS`); RdlError with one line
    when there is none."""
    env = thirdparty.environment()
    if thirdparty.NVDLA_HW not in env:
        raise RdlError(thirdparty.hint(thirdparty.NVDLA_HW))
    # NVDLA_HW's defaults may each hold some units' files: the first that has this one (thirdparty.located)
    src = Path(thirdparty.located(thirdparty.NVDLA_HW, env[thirdparty.NVDLA_HW], f"/{MANUAL / unit}.rdl"))
    if not src.is_file():
        raise RdlError(f"{src} does not exist: NVDLA_HW={env[thirdparty.NVDLA_HW]} is not a checkout of nvdla/hw")
    return src


@lru_cache(maxsize=None)
def _load(path: Path, out: Path) -> RdlMap:
    if not path.is_file():
        raise RdlError(f"{path}: no such register description")
    return _compile(path, path.stem, out)


def load(path: Union[str, Path], out: Union[str, Path, None] = None) -> RdlMap:
    """The register map of the NVIDIA-style ``.rdl`` at ``path`` (named after the file), its fixed copy written in
    ``out`` (default: the current folder); compiled once per (path, out). RdlError with one line when it cannot be."""
    return _load(Path(path).resolve(), Path(out if out is not None else Path.cwd()).resolve())


@dataclass(frozen=True)
class RdlFile:
    """A register file loaded when called: ``unit`` names NVIDIA's description in ``$NVDLA_HW`` (:func:`manual`),
    ``path`` any other file (a user's own); ``out`` the folder for the fixed copy (default: the current folder)."""

    unit: Optional[str] = None
    path: Optional[str] = None
    out: Optional[str] = None

    def __call__(self) -> RdlMap:
        if (self.unit is None) == (self.path is None):
            raise ValueError("an RdlFile names either NVIDIA's unit or a path")
        return load(manual(self.unit) if self.unit is not None else Path(str(self.path)), self.out)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m dlaverif.thirdparty.nvdla_rdl", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="sim_build/regs/nvdla", help="folder of the fixed copies and their JSON tables")
    ap.add_argument(
        "rdl", nargs="+", help="a unit of $NVDLA_HW/spec/manual (its .rdl file name without .rdl) or an .rdl path"
    )
    args = ap.parse_args(argv)
    out = Path(args.out)
    for what in args.rdl:
        try:
            m = load(what if what.endswith(".rdl") else manual(what), out)
        except RdlError as e:
            print(f"nvdla registers: {e}")
            return 0  # the rest of make regs stands without NVIDIA's files
        table = out / f"{m.name}.json"
        table.write_text(json.dumps(m.to_json(), indent=1) + "\n")
        print(f"nvdla registers: {len(m.registers)} registers of {m.source} -> {table}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
