"""Per-top RTL file lists (``rtl_stubs/<top>.f`` over ``rtl_stubs/common.f``): the one source of what each top
compiles, for the simulation runner, the testplan (which RTL files a build's results depend on) and lint.

A list names one file per line in compile order; ``-f other.f`` includes another list of the same folder; ``//``
starts a comment. ``common.f`` is what every reader compiles and is not a top of its own.

``python -m tb.flow.filelists lint`` prints ``<list> <module>`` once per module (the first list that compiles it):
``make lint`` lints each module as a top with its list. ``python -m tb.flow.filelists all`` prints every file once,
in compile order (the formal tops around several readers are linted with it); ``props`` prints the property
modules (``props/props.f``), which ``make lint`` adds to every top's list with ``DLA_ASSERT`` defined.
"""

from __future__ import annotations

import sys
from pathlib import Path

COMMON = "common.f"
#: the property modules bound inside the design under ``DLA_ASSERT`` (rtl_stubs/props/prop_macros.svh): every
#: simulation compiles them after the top's list, with that define and this folder on the include path
PROPS_DIR = "props"
PROPS_LIST = "props.f"
ASSERT_DEFINE = "DLA_ASSERT"


def _read(path: Path, seen: tuple[Path, ...] = ()) -> list[str]:
    if path in seen:
        raise ValueError(f"{path.name}: -f includes itself ({' -> '.join(p.name for p in seen)})")
    out: list[str] = []
    tokens = [t for line in path.read_text().splitlines() for t in line.split("//", 1)[0].split()]
    it = iter(tokens)
    for tok in it:
        if tok == "-f":
            out += _read(path.parent / next(it), seen + (path,))
        elif tok.endswith((".sv", ".v")):
            out.append(tok)
        else:
            raise ValueError(f"{path.name}: unknown entry {tok!r}")
    return out


def tops(rtl: Path) -> list[str]:
    """The tops that have a list (every ``*.f`` of ``rtl`` but ``common.f``), sorted."""
    return sorted(p.stem for p in rtl.glob("*.f") if p.name != COMMON)


def sources(rtl: Path, top: str | None = None) -> list[Path]:
    """The files ``top`` compiles, in order; with no top (or a top without a list, such as a fast-path wrapper
    around every reader), every file of every list, each once, in list order."""
    if top is not None and (rtl / f"{top}.f").is_file():
        names = _read(rtl / f"{top}.f")
    else:
        names = [n for t in tops(rtl) for n in _read(rtl / f"{t}.f")]
    unique = list(dict.fromkeys(names))
    return [rtl / n for n in unique]


def props(rtl: Path) -> list[Path]:
    """The property modules (``props/props.f`` of ``rtl``), in compile order: what a simulation adds to a top's
    files, with :data:`ASSERT_DEFINE` defined (their instances in the design are guarded by it)."""
    folder = rtl / PROPS_DIR
    return [folder / n for n in dict.fromkeys(_read(folder / PROPS_LIST))]


def lint_plan(rtl: Path) -> list[tuple[str, str]]:
    """(list, module) for every module, each once: the first top's list that compiles it."""
    plan: dict[str, str] = {}
    for t in tops(rtl):
        for p in sources(rtl, t):
            if not p.stem.endswith("_pkg"):
                plan.setdefault(p.stem, f"{t}.f")
    return [(f, m) for m, f in plan.items()]


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[2] / "rtl_stubs"
    if sys.argv[1:] == ["lint"]:
        for flist, module in lint_plan(root):
            print(flist, module)
    elif sys.argv[1:] == ["all"]:
        print(" ".join(p.name for p in sources(root)))
    elif sys.argv[1:] == ["props"]:
        print(" ".join(str(p.relative_to(root)) for p in props(root)))
    else:
        sys.exit("usage: python -m tb.flow.filelists lint|all|props")
