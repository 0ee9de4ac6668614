"""Per-top RTL file lists (``blocks/rtl/<folder>/<top>.f`` over ``blocks/rtl/common/common.f``, or a list anywhere
that a testplan build names by path): the one source of what each top compiles, for the simulation runner, the
testplan (which RTL files a build's results depend on) and lint.

A list is read as the simulators read their ``-f`` files: one entry per whitespace-separated token, ``//`` starts
a comment. Entries:

- a source file of any extension (``.sv``, ``.v``, ``.vh``, ``.svh``, ...): a path relative to the folder of the list
  that names it (or absolute);
- ``-f other.f`` or ``-F other.f``: include another list, relative to the including list's folder (our lists write
  ``-F``: Verilator reads an ``-f`` list's paths relative to its working folder, an ``-F`` list's relative to the list);
- ``+incdir+<dir>[+<dir>...]`` and ``+define+NAME[=value][+...]``: include folders and defines;
- ``-y <dir>``, ``-v <file>``, ``+libext+<.ext>[+...]``: library folders, library files and their extensions (passed
  through to Verilator as such and to Icarus as ``-y``, ``-l``, ``-Y``);
- ``$VAR`` and ``${VAR}`` anywhere in an entry are taken from the environment; an unset variable is an error that
  names it and the list.

The RTL folder holds one subfolder per reader (``<block>/``), the shared
parts (``common/``), the property modules (``props/``) and the register sources (``regs/``); a top's list lives
next to its files, so ``<top>.f`` is found in whichever subfolder holds it (one per top). ``common.f`` is what every
reader compiles and is not a top of its own.

``make lint`` lints each module as a top with the first list that compiles it (:func:`lint_plan`), and the
property modules and formal tops over every file (:func:`compiled` with no top): :mod:`dlaverif.flow.lintplan` writes
those lines; ``python -m dlaverif.flow.filelists`` prints the (list, module) pairs.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from dlaverif import thirdparty
from dlaverif.flow import project

COMMON = "common.f"
#: the property modules bound inside the design under ``DLA_ASSERT`` (dlaverif/hdl/props/prop_macros.svh): every
#: simulation compiles them after the top's list, with that define and this folder on the include path
PROPS_DIR = "props"
PROPS_LIST = "props.f"
ASSERT_DEFINE = "DLA_ASSERT"
#: the root module a property list defines (``DLA_PROPS_ROOT_BEGIN``, dlaverif/hdl/props/axi4_read_master_bind.svh) to
#: reach a design it cannot be bound into: on a simulator without SystemVerilog ``bind`` (Icarus 11) the flow
#: elaborates it beside the top
PROPS_ROOT = "dla_props_root"


_VAR = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


@dataclass
class FileList:
    """What a list (with the lists it includes) gives the compiler, paths resolved against each list's folder."""

    sources: list[Path] = field(default_factory=list)
    incdirs: list[Path] = field(default_factory=list)
    defines: dict[str, str] = field(default_factory=dict)
    libdirs: list[Path] = field(default_factory=list)  # -y
    libfiles: list[Path] = field(default_factory=list)  # -v
    libexts: list[str] = field(default_factory=list)  # +libext+

    def compile_args(self, sim: str) -> list[str]:
        """The library options (``-y``, ``-v``, ``+libext+``) in ``sim``'s spelling; sources, include folders and
        defines go through the cocotb runner's own arguments."""
        out: list[str] = []
        for d in self.libdirs:
            out += ["-y", str(d)]
        for f in self.libfiles:
            out += ["-v" if sim == "verilator" else "-l", str(f)]
        if self.libexts:
            out += ["+libext+" + "+".join(self.libexts)] if sim == "verilator" else [f"-Y{e}" for e in self.libexts]
        return out


def _expand(token: str, where: Path, env: Mapping[str, str]) -> str:
    def one(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        if name not in env:
            raise ValueError(f"{where}: ${name} is not set in the environment")
        return env[name]

    m = _VAR.search(token)
    if m is not None and (m.group(1) or m.group(2)) in thirdparty.DEFAULTS and not _VAR.search(token, m.end()):
        name = m.group(1) or m.group(2)
        if name not in env:
            raise ValueError(f"{where}: ${name} is not set in the environment")
        # a path under a variable with defaults: found in whichever default holds it (thirdparty.located)
        return token[: m.start()] + thirdparty.located(name, env[name], token[m.end() :])
    return _VAR.sub(one, token)


def _plus(tok: str, prefix: str) -> list[str]:
    return [p for p in tok[len(prefix) :].split("+") if p]


def parse(path: Path, env: Mapping[str, str] | None = None) -> FileList:
    """Read the list ``path`` (and the lists it includes) as a simulator would; ``env``: the variables for ``$VAR``
    (default: the process environment, with the defaults of :func:`dlaverif.thirdparty.environment`). Raises
    ValueError naming the list on an unknown option, a missing argument, an unset variable or a list that includes
    itself."""
    out = FileList()
    _parse(Path(path), thirdparty.environment() if env is None else env, (), out)
    out.sources = list(dict.fromkeys(out.sources))
    return out


def _parse(path: Path, env: Mapping[str, str], seen: tuple[Path, ...], out: FileList) -> None:
    if path.resolve() in seen:
        raise ValueError(f"{path.name}: -f includes itself ({' -> '.join(p.name for p in seen)} -> {path.name})")
    if not path.is_file():
        raise ValueError(f"file list {path} does not exist")
    seen = seen + (path.resolve(),)
    tokens = [_expand(t, path, env) for line in path.read_text().splitlines() for t in line.split("//", 1)[0].split()]
    here = path.parent

    def at(name: str) -> Path:
        return Path(os.path.normpath(here / name))  # an absolute name stays absolute; ``../`` folded as -f does

    it = iter(tokens)
    for tok in it:
        if tok in ("-f", "-F", "-y", "-v"):
            arg = next(it, None)
            if arg is None:
                raise ValueError(f"{path}: {tok} without its argument")
            if tok in ("-f", "-F"):
                _parse(at(arg), env, seen, out)
            elif tok == "-y":
                out.libdirs.append(at(arg))
            else:
                out.libfiles.append(at(arg))
        elif tok.startswith("+incdir+"):
            out.incdirs += [at(d) for d in _plus(tok, "+incdir+")]
        elif tok.startswith("+define+"):
            for d in _plus(tok, "+define+"):
                name, _, value = d.partition("=")
                out.defines[name] = value or "1"
        elif tok.startswith("+libext+"):
            out.libexts += _plus(tok, "+libext+")
        elif tok.startswith(("-", "+")):
            raise ValueError(f"{path}: unknown option {tok!r} (known: -f, -y, -v, +incdir+, +define+, +libext+)")
        else:
            out.sources.append(at(tok))


def _read(path: Path) -> list[Path]:
    return parse(path).sources


def _top_lists(rtl: Path) -> dict[str, Path]:
    """Every top's list of ``rtl`` by top name: the ``*.f`` of its subfolders but ``common.f`` and ``props.f``."""
    found = sorted(p for p in rtl.glob("*/*.f") if p.name not in (COMMON, PROPS_LIST))
    return {p.stem: p for p in found}


def top_list(rtl: Path, top: str) -> Path | None:
    """The list of ``top`` (``rtl/<folder>/<top>.f``), or None when the top has none."""
    return _top_lists(rtl).get(top)


def locate(rtl: Path, name: str) -> Path:
    """The file ``name`` (a bare file name such as ``<top>.sv``, or a path relative to ``rtl``) in the RTL
    folder ``rtl``: a bare name is looked up in the subfolders (each file name is used once in the tree). Raises
    ValueError naming ``name`` and ``rtl`` when it is not there."""
    if "/" in name:
        found = [rtl / name] if (rtl / name).is_file() else []
    else:
        found = sorted(rtl.glob(f"*/{name}")) + ([rtl / name] if (rtl / name).is_file() else [])
    if len(found) != 1:
        raise ValueError(f"{name}: {'no file' if not found else 'several files'} of that name in {rtl}")
    return found[0]


def tops(rtl: Path) -> list[str]:
    """The tops that have a list (every ``*/*.f`` of ``rtl`` but ``common.f`` and ``props.f``), sorted."""
    return sorted(_top_lists(rtl))


def compiled(rtl: Path, top: str | None = None) -> FileList:
    """What ``top`` compiles: its list's files in order and include folders; with no top (or a top without a list,
    such as a fast-path wrapper around every reader), those of every list, each once, in list order."""
    lists = _top_lists(rtl)
    chosen = [lists[top]] if top is not None and top in lists else [lists[t] for t in sorted(lists)]
    parsed = [parse(p) for p in chosen]
    return FileList(
        sources=list(dict.fromkeys(p for fl in parsed for p in fl.sources)),
        incdirs=list(dict.fromkeys(d for fl in parsed for d in fl.incdirs)),
    )


def sources(rtl: Path, top: str | None = None) -> list[Path]:
    """The files ``top`` compiles, in order (:func:`compiled`)."""
    return compiled(rtl, top).sources


def include_dirs(rtl: Path, top: str | None = None) -> list[Path]:
    """The include folders (``+incdir+``) of what ``top`` compiles (:func:`compiled`): a tool given
    :func:`sources` as plain files needs them beside (``-I`` for Icarus and Yosys), the port groups of
    ``common/axi_ports.svh`` for one."""
    return compiled(rtl, top).incdirs


def props(rtl: Path) -> list[Path]:
    """The property modules (``props/props.f`` of ``rtl``), in compile order: what a simulation adds to a top's
    files, with :data:`ASSERT_DEFINE` defined (their instances in the design are guarded by it)."""
    return _read(rtl / PROPS_DIR / PROPS_LIST)


def defines_props_root(sources: list[Path]) -> bool:
    """Whether a property list's files open :data:`PROPS_ROOT` (a binding by port prefix onto a design it does not
    instantiate itself)."""
    return any("`DLA_PROPS_ROOT_BEGIN" in p.read_text() for p in sources if p.suffix == ".sv")


def lint_plan(rtl: Path) -> list[tuple[str, str]]:
    """(list, module) for every module, each once: the first top's list that compiles it (relative to ``rtl``)."""
    plan: dict[str, str] = {}
    for _, flist in sorted(_top_lists(rtl).items()):
        for p in _read(flist):
            if not p.stem.endswith("_pkg"):
                plan.setdefault(p.stem, flist.relative_to(rtl).as_posix())
    return [(f, m) for m, f in plan.items()]


if __name__ == "__main__":
    for flist, module in lint_plan(project.RTL):
        print(flist, module)
