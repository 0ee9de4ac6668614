"""A testplan build's own compile and run options (``builds.<name>`` in blocks/plan.yaml), for RTL we did not
write: where its file list is, its defines, include folders, per-simulator arguments, lint waivers, which
property set binds into it and which of its files code coverage scores (:mod:`dlaverif.flow.codescope`). Read by
:mod:`dlaverif.flow.testplan`, applied by :func:`dlaverif.flow.runner.build` and by ``make lint``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from dlaverif.flow import codescope, fastpath as wrapper, project
from dlaverif.flow.planschema import Fields, Names, Scalar, Seq
from dlaverif.platform.reach import Probe

ROOT = project.ROOT  # relative paths of a plan entry start here (dlaverif.flow.project)
SIMS = ("verilator", "icarus")
_ARGS = Fields({sim: Seq(Scalar("str")) for sim in SIMS})  # per simulator: its arguments
#: a build entry of the plan (``builds.<name>``), checked when the plan is loaded (dlaverif.flow.planschema): its keys,
#: their types, ``toplevel`` required; anything else is refused with one line naming it
SCHEMA = Fields(
    {
        "toplevel": Scalar("str"),
        "parameters": Names(Scalar("any")),
        "filelist": Scalar("str"),
        "defines": Names(Scalar("any")),
        "include_dirs": Seq(Scalar("str")),
        "compile_args": _ARGS,
        "sim_args": _ARGS,
        "lint_waivers": Seq(Scalar("str")),
        "properties": Scalar("str"),
        "code_coverage": codescope.SCHEMA,
        "fastpath": wrapper.SCHEMA,  # the reader's ports and widths: the fast path's wrapper is the HDL top
    },
    required=("toplevel",),
)
KEYS = tuple(SCHEMA.keys)  # the keys a build may give
NO_PROPERTIES = "none"


@dataclass(frozen=True)
class BuildOptions:
    """``filelist``: the build's list (None: ``<rtl>/<toplevel>.f``); ``properties``: the property list bound into
    the design under DLA_ASSERT (None: the RTL folder's ``props/props.f``; ``"none"``: no property set, and the
    build compiles without assertions)."""

    filelist: Optional[Path] = None
    defines: dict[str, str] = field(default_factory=dict)
    include_dirs: tuple[Path, ...] = ()
    compile_args: dict[str, tuple[str, ...]] = field(default_factory=dict)  # simulator -> arguments
    sim_args: dict[str, tuple[str, ...]] = field(default_factory=dict)
    lint_waivers: tuple[str, ...] = ()  # Verilator warning names: -Wno-<name> for this build
    properties: Optional[str] = None
    code_coverage: codescope.Selection = field(default_factory=codescope.Selection)  # after the plan's (codescope)
    fastpath: Optional[wrapper.FastPath] = None  # the build runs on the fast path (dlaverif.flow.fastpath)
    # the top's occupancy probes (configs.tops.<top>.occupancy, dlaverif.platform.reach): readable on Verilator too,
    # handed to the simulation
    probes: tuple[Probe, ...] = ()

    @property
    def assertions(self) -> bool:
        return self.properties != NO_PROPERTIES

    def waiver_args(self) -> list[str]:
        return [f"-Wno-{w}" for w in self.lint_waivers]


def _path(text: object) -> Path:
    p = Path(str(text))
    return p if p.is_absolute() else ROOT / p


def _per_sim(where: str, key: str, raw: object) -> dict[str, tuple[str, ...]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict) or set(raw) - set(SIMS):
        raise ValueError(f"{where}.{key}: a map of {' / '.join(SIMS)} to argument lists, not {raw!r}")
    out = {}
    for sim, args in raw.items():
        if not isinstance(args, list):
            raise ValueError(f"{where}.{key}.{sim}: a list of arguments, not {args!r}")
        out[str(sim)] = tuple(str(a) for a in args)
    return out


def _list(where: str, key: str, raw: object) -> list:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ValueError(f"{where}.{key}: a list, not {raw!r}")
    return raw


def from_plan(name: str, raw: object) -> BuildOptions:
    """The options of build ``name`` from its plan entry; ValueError (one line) on an unknown key or a bad value."""
    where = f"builds.{name}"
    if not isinstance(raw, dict) or "toplevel" not in raw:
        raise ValueError(f"{where}: a map with at least a toplevel, not {raw!r}")
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise ValueError(f"{where}: unknown key {', '.join(map(str, unknown))} (known: {', '.join(KEYS)})")
    flist = raw.get("filelist")
    if flist is not None and not _path(flist).is_file():
        raise ValueError(f"{where}.filelist: {flist} does not exist")
    defines = raw.get("defines") or {}
    if not isinstance(defines, dict):
        raise ValueError(f"{where}.defines: a map of NAME to value, not {defines!r}")
    props = raw.get("properties")
    if props is not None and str(props) != NO_PROPERTIES and not _path(props).is_file():
        raise ValueError(f"{where}.properties: {props} is neither {NO_PROPERTIES!r} nor a property list")
    return BuildOptions(
        filelist=_path(flist) if flist is not None else None,
        defines={str(k): str(v) for k, v in defines.items()},
        include_dirs=tuple(_path(d) for d in _list(where, "include_dirs", raw.get("include_dirs"))),
        compile_args=_per_sim(where, "compile_args", raw.get("compile_args")),
        sim_args=_per_sim(where, "sim_args", raw.get("sim_args")),
        lint_waivers=tuple(str(w) for w in _list(where, "lint_waivers", raw.get("lint_waivers"))),
        properties=None if props is None else str(props),
        code_coverage=codescope.selection(raw.get("code_coverage")),
        fastpath=None
        if raw.get("fastpath") is None
        else wrapper.from_plan(f"{where}.fastpath", raw["fastpath"], raw.get("parameters") or {}),
    )
