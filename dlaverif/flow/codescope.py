"""Which RTL files code coverage scores (``make regress``, ``make report``): the files of every testplan build's own
file list, from any root, less the RTL the project did not write unless the plan opts it in.

A build's files are its design list's sources (``builds.<name>.filelist``, else ``blocks/rtl/<folder>/<top>.f``; a
top without a list, such as the fast-path wrapper, compiles every list of ``blocks/rtl/``): never its property list
(``properties:``), whose modules are checkers, not design. Of those, a file is *third-party* when it lies outside the
project's root (:data:`dlaverif.flow.project.ROOT`) or under a variable of :data:`dlaverif.thirdparty.DEFAULTS`
(``$NVDLA_HW``, ``$DLA_RTL``): third-party files are left out unless the plan asks for them. The plan says so with
the ``code_coverage`` key, ``{include: [globs], exclude: [globs]}``, in its ``coverage:`` section (every build) and in
a build entry (that build's files only, after the section's): ``include`` adds the files of the build's list it
matches, third-party or not, ``exclude`` takes out the files it matches. A glob matches a file's name, its path
relative to the project's root or its absolute path, and may start with a variable of
:data:`dlaverif.thirdparty.DEFAULTS` (``$NVDLA_HW/vmod/nvdla/pdp/*.v``). A file scored by any build is scored.

Files are keyed by name (a regression may compile a copy of the RTL elsewhere, ``RTL=``, whose coverage records
carry the copy's paths); two scored files of one name are refused with one line naming both.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping, Optional

from dlaverif import thirdparty
from dlaverif.flow import filelists, project
from dlaverif.flow.planschema import Fields, Scalar, Seq

#: ``code_coverage:`` of the plan's ``coverage:`` section and of a build entry
SCHEMA = Fields({"include": Seq(Scalar("str")), "exclude": Seq(Scalar("str"))})
_VAR = re.compile(r"^\$(?:\{(\w+)\}|(\w+))")


@dataclass(frozen=True)
class Selection:
    """A ``code_coverage`` entry: globs of files to score (``include``) and to leave out (``exclude``)."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()


def selection(raw: Optional[Mapping]) -> Selection:
    """The :class:`Selection` of a checked ``code_coverage`` entry (None: the empty one)."""
    raw = raw or {}
    return Selection(tuple(str(g) for g in raw.get("include") or ()), tuple(str(g) for g in raw.get("exclude") or ()))


def design_files(toplevel: str, filelist: Optional[Path], rtl: Path = project.RTL) -> list[Path]:
    """The design files a build of ``toplevel`` compiles: ``filelist``'s sources, else its list in ``rtl``, else every
    list of ``rtl`` (a top without a list). Raises ValueError as :func:`dlaverif.flow.filelists.parse` does."""
    if filelist is not None:
        return filelists.parse(filelist).sources
    return filelists.sources(rtl, toplevel)


def third_party(path: Path, root: Path = project.ROOT, env: Optional[Mapping[str, str]] = None) -> bool:
    """Whether ``path`` is RTL the project did not write: outside ``root``, or under a variable of
    :data:`dlaverif.thirdparty.DEFAULTS` (its value in ``env``, default the environment with its defaults)."""
    path = Path(path).resolve()
    if not path.is_relative_to(root.resolve()):
        return True
    values = thirdparty.environment(env)
    return any(name in values and path.is_relative_to(Path(values[name]).resolve()) for name in thirdparty.DEFAULTS)


def _expand(glob: str, env: Mapping[str, str]) -> str:
    """A glob with its leading ``$VAR`` (a variable of :data:`dlaverif.thirdparty.DEFAULTS`) replaced by its value;
    an unset one is left as written (it matches nothing)."""
    m = _VAR.match(glob)
    if m is None or (m.group(1) or m.group(2)) not in env:
        return glob
    return str(Path(env[m.group(1) or m.group(2)]).resolve()) + glob[m.end() :]


def matches(path: Path, glob: str, root: Path = project.ROOT, env: Optional[Mapping[str, str]] = None) -> bool:
    """Whether ``glob`` names ``path``: its name, its path relative to ``root`` or its absolute path."""
    path = Path(path).resolve()
    pattern = _expand(glob, thirdparty.environment(env))
    names = [path.name, str(path)]
    if path.is_relative_to(root.resolve()):
        names.append(path.relative_to(root.resolve()).as_posix())
    return any(fnmatch.fnmatchcase(n, pattern) for n in names)


def scored(
    files: Iterable[Path],
    selections: Iterable[Selection],
    root: Path = project.ROOT,
    env: Optional[Mapping[str, str]] = None,
) -> list[Path]:
    """Of one build's ``files``, those code coverage scores: the project's own, then each selection in turn (the
    plan's, then the build's) adding what its ``include`` matches and taking out what its ``exclude`` matches."""
    chosen = {Path(f): not third_party(f, root, env) for f in files}
    for sel in selections:
        for f in chosen:
            if any(matches(f, g, root, env) for g in sel.include):
                chosen[f] = True
            if any(matches(f, g, root, env) for g in sel.exclude):
                chosen[f] = False
    return [f for f, keep in chosen.items() if keep]


def by_name(per_build: Mapping[str, Iterable[Path]]) -> dict[str, Path]:
    """The scored files of every build (build name -> its scored files) by file name; ValueError when two files of one
    name would be scored (their coverage records could not be told apart)."""
    out: dict[str, Path] = {}
    owner: dict[str, str] = {}
    for build, files in per_build.items():
        for f in files:
            f = Path(f).resolve()
            if f.name in out and out[f.name] != f:
                raise ValueError(
                    f"code coverage scores two files named {f.name}: {out[f.name]} (build {owner[f.name]}) and {f} "
                    f"(build {build}); leave one out with code_coverage: {{exclude: [...]}}"
                )
            out.setdefault(f.name, f)
            owner.setdefault(f.name, build)
    return out
