"""Which project the flow works on: its testplan, the folder the plan's relative paths start from, its RTL folder,
where builds and reports go. The one place that knows, so that the flow is usable from any project;
:mod:`dlaverif.flow.runner`, :mod:`dlaverif.flow.testplan` and :mod:`dlaverif.flow.buildopts` take their paths from
here, and so does everything built on them (``make sim``, ``make regress``, ``make mutants``). The package itself
knows no project: a project says where its things are, in one of two ways, first match wins:

* ``TESTPLAN=<its plan>`` in the environment (a make variable of its Makefile, set by the shipped
  ``dlaverif/flow/project.mk`` as in ``examples/desc_reader/``): the plan's relative paths (file lists, property
  lists, include folders) start from the plan's folder, which is also the project's root: its cocotb test modules
  are imported from there, and its output goes to ``<root>/sim_build/``.
* a ``[tool.dlaverif]`` table in the nearest ``pyproject.toml``: of the current folder or one above it, else of the
  checkout this package runs from (an editable install or a source tree, as this repository's). Its ``plan`` is
  the plan (relative to the ``pyproject.toml``'s folder, which is the project's root) and its optional ``rtl`` the
  folder of per-top file lists (``<folder>/<top>.f`` over ``common/common.f``, :mod:`dlaverif.flow.filelists`) that
  a build compiles when its plan entry names no file list, and that ``make mutants`` copies to edit. This
  repository declares its blocks there (``plan = "blocks/plan.yaml"``, ``rtl = "blocks/rtl"``).

With neither, the plan is ``testplan.yaml`` of the current folder (the name the examples use). A project that
declares no ``rtl`` folder names a file list in each build (its RTL folder is ``<root>/rtl``, read for per-top
lists only when it has subfolders of them). ``SIM_BUILD=<folder>`` puts the output elsewhere, for any project.
Relative values of the variables are taken from the current folder.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Optional

#: where this package lives: a checkout (source tree or editable install), or site-packages when installed
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
#: the table of a project's pyproject.toml that declares it
TABLE = "dlaverif"
#: the plan's name when nothing else says where it is
DEFAULT_PLAN = "testplan.yaml"


def _path_from_env(name: str) -> Path | None:
    text = os.environ.get(name, "").strip()
    return Path(text).resolve() if text else None


def _table(pyproject: Path) -> Optional[dict[str, Any]]:
    """``[tool.dlaverif]`` of ``pyproject`` when it has one with a ``plan``; a file that cannot be read as TOML
    declares nothing (it may be any project's)."""
    try:
        table = tomllib.loads(pyproject.read_text()).get("tool", {}).get(TABLE)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return table if isinstance(table, dict) and isinstance(table.get("plan"), str) else None


def declared(start: Path, checkout: Optional[Path] = PACKAGE_ROOT) -> Optional[tuple[Path, dict[str, Any]]]:
    """(folder, table) of the nearest ``pyproject.toml`` with a ``[tool.dlaverif]`` table: ``start`` or a folder
    above it, else ``checkout`` (the one this package runs from); None when there is none."""
    for folder in (start, *start.parents, *([checkout] if checkout else [])):
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and (table := _table(pyproject)) is not None:
            return folder, table
    return None


_ENV_PLAN = _path_from_env("TESTPLAN")
_DECLARED = None if _ENV_PLAN is not None else declared(Path.cwd())

#: the testplan every flow command reads
PLAN = _ENV_PLAN or (_DECLARED[0] / _DECLARED[1]["plan"] if _DECLARED else Path.cwd() / DEFAULT_PLAN).resolve()
#: the project's root: the plan's relative paths start here, its test modules are imported from here
ROOT = _DECLARED[0] if _DECLARED else PLAN.parent
#: build and run output (one folder per simulator and build), reports
SIM_BUILD = _path_from_env("SIM_BUILD") or ROOT / "sim_build"
#: whether the project declares an RTL folder (``rtl`` of its table): ``make mutants`` edits a copy of it; without
#: one, a mutant edits the files of the builds' own lists (:mod:`dlaverif.flow.mutants`)
RTL_DECLARED = bool(_DECLARED and isinstance(_DECLARED[1].get("rtl"), str))
#: the project's per-top file lists: the RTL a build compiles when its plan entry names no file list
RTL = (ROOT / _DECLARED[1]["rtl"]).resolve() if _DECLARED and RTL_DECLARED else ROOT / "rtl"
