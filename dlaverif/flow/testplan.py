"""The testplan as data: ``blocks/plan.yaml`` read into builds, runs, suites and testpoints.

The one list of what runs where: ``make sim`` (``dlaverif.flow.sim``), ``make mutants`` (``dlaverif.flow.mutants``),
``make test`` (``tests/sim/test_suites.py``) and the regression report all take their runs from a named suite here.
:func:`problems` is the plan's self-check (``tests/sim/test_testplan.py``): every test of every run's module is in a
testpoint, every testpoint has tests, and every name (test, run, build, covergroup) exists.

Tests are found without a simulator as cocotb finds them (:func:`module_tests`): each run's module is imported and its
cocotb test objects named, whatever declared them (``@cocotb.test``, ``@pyuvm.test``, ``dlaverif.platform.declare``).
"""

from __future__ import annotations

import dataclasses
import datetime
import fnmatch
import importlib
import os
import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

from dlaverif import thirdparty
from dlaverif.flow import buildopts, codescope, contracts, filelists, formalplan, project
from dlaverif.flow.buildopts import BuildOptions
from dlaverif.flow.planschema import Either, Fields, Names, PlanError, Ref, Refusal, Scalar, Seq, read_plan
from dlaverif.platform import reach

PLAN_PATH = project.PLAN  # blocks/plan.yaml, or a user project's TESTPLAN= (dlaverif.flow.project)
RTL_DIR = project.RTL
SUITE_NAMES = ("smoke", "sim", "nightly", "mutants")
CONFIG_SUITE = "configs"  # every configuration of the matrix (configs:): corners and random draws
CONFIG_SEED_VAR = "CONFIG_SEED"  # the seed of the random draws (default: the plan's configs.seed)
NIGHTLY_SUITE = "nightly"  # configs.nightly: random puts the matrix's random draws here, drawn anew each night
EXCLUSION_TAGS = ("unreachable", "unsupported", "low_risk")
DEFAULT_GOAL = 100.0

# ------------------------------------------------------------------------------------------------ the schema
# Every key of every section of a plan, its type, whether it is required and its allowed values, checked when the
# plan is loaded (dlaverif.flow.planschema.read), before anything else reads it: an unknown key, a wrong type or a
# name of a build or run that the plan does not define is refused with one line (file:line: key.path: what is allowed).
_STRS = Seq(Scalar("str"))
MODULE_NAME = r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*"  # an importable module's dotted name
_ENV = Names(Scalar("any"))  # environment variables of a run: NAME -> value
_NAMES = Either((Scalar("str"), _STRS))  # one name or a list of them
RUN_SCHEMA = Fields(
    {
        "build": Ref("builds", "build"),
        "module": Scalar("str"),
        "tests": _STRS,
        "env": _ENV,
        "artifacts": _STRS,
    },
    required=("build", "module"),
)
SUITE_SCHEMA = Fields(
    {
        "count": Scalar("int"),
        "reseeds": Scalar("int"),
        "runs": Seq(Either((Ref("runs", "run"), Fields({"run": Ref("runs", "run"), "env": _ENV}, required=("run",))))),
    },
    required=("runs",),
)
TESTPOINT_SCHEMA = Fields(
    {
        "name": Scalar("str"),
        "desc": Scalar("str"),
        "stimulus": Scalar("str"),
        "checks": Scalar("str"),
        "tests": _STRS,
        "covergroups": _STRS,
    },
    required=("name",),
)
# a tag outside EXCLUSION_TAGS and a missing reason are the self-check's (problems()), which names the entry
_WAIVED = {"tag": Scalar("str"), "reason": Scalar("str")}
COVERAGE_SCHEMA = Fields(
    {
        "goals": Names(Scalar("number")),
        "line_goal": Scalar("number"),
        "exclusions": Seq(
            Fields({"covergroup": Scalar("str"), "bin": Scalar("str"), **_WAIVED}, required=("covergroup", "bin"))
        ),
        "code_waivers": Seq(
            Fields(
                {
                    "file": Scalar("str"),
                    "match": Scalar("str"),
                    "lines": Either((Scalar("int"), Seq(Scalar("int")))),
                    **_WAIVED,
                },
                required=("file",),
                one_of=("match", "lines"),
            )
        ),
        "code_coverage": codescope.SCHEMA,  # third-party RTL in, any RTL out, for every build (codescope)
    }
)
_EXTREME = Either((Scalar("int"), Scalar("str", ("min", "max"))))  # a parameter of a corner: a number, min or max
CONFIG_TOP_SCHEMA = Fields(
    {
        "run": Ref("runs", "run"),
        "corners": Names(Names(_EXTREME)),
        "waive": Names(Scalar("str")),
        "smoke": _STRS,
        # per parameter a maximum, or [low, high] (null: the contract's bound)
        "limits": Names(Either((Scalar("int"), Seq(Scalar("bound"))))),
        "env": _ENV,
        "formal": _NAMES,
        "formal_at": Names(
            Fields(
                {"sets": _NAMES, "depth": Names(Scalar("int")), "unchecked": _NAMES, "why": Scalar("str")},
                required=("why",),
            )
        ),
        # queues inside the DUT (dlaverif.platform.reach.Probe): name -> the path of its occupancy count below the
        # HDL top and the parameter expression of its depth; the report's configuration axis judges each
        "occupancy": Names(Fields({"path": Scalar("str"), "depth": Scalar("str")}, required=("path", "depth"))),
        # a reach limit (most_in_flight) the RTL cannot reach at some configurations: the expression of parameters
        # that bounds it there and why; the report shows the cut limit as a waiver and judges the bound
        "reach_bounds": Names(Fields({"bound": Scalar("str"), "why": Scalar("str")}, required=("bound", "why"))),
        # a read client's beats (dlaverif.platform.reach.Probe with lo/hi): name -> the paths of its beat handshake
        # (1 when a beat is taken), its first and last byte lane, and the lane count; the axis wants a one-lane beat
        # and a beat of every lane
        "beat_lanes": Names(
            Fields(
                {"fire": Scalar("str"), "lo": Scalar("str"), "hi": Scalar("str"), "lanes": Scalar("str")},
                required=("fire", "lo", "hi", "lanes"),
            )
        ),
    },
    required=("run",),
)
CONFIGS_SCHEMA = Fields(
    {
        "seed": Scalar("int"),
        "random": Scalar("int"),
        "count": Scalar("int"),
        "nightly": Scalar("str", ("random",)),
        "tops": Names(CONFIG_TOP_SCHEMA),
    }
)
#: a block of the project (``blocks.<name>``): what the flow links to and needs of it, as data, so that no module of
#: the flow names a block. ``datasheet``: its document (from the project's root); the datasheet of a top of the
#: configuration matrix carries that top's generated parameter block (dlaverif.flow.contracts). ``roots``: the
#: variables its file lists take third-party trees from (``$NVDLA_HW``): what each must name (``means``), where to
#: look when it is not set (``defaults``, first found first), how to get the files (``get``) and the pin of them that
#: ``python -m dlaverif.flow.fetchroot <VAR>`` fetches into the first default (``lock``, from the project's root).
ROOT_VAR = r"[A-Z_][A-Z0-9_]*"
ROOT_SCHEMA = Fields(
    {"means": Scalar("str"), "defaults": _STRS, "get": Scalar("str"), "lock": Scalar("str")}, required=("means",)
)
BLOCK_SCHEMA = Fields(
    {
        "datasheet": Scalar(
            "str", pattern=r"\S+\.md", means="a Markdown file from the project's root (docs/<block>.md)"
        ),
        "roots": Names(ROOT_SCHEMA),
    }
)
SCHEMA = Fields(
    {
        "builds": Names(buildopts.SCHEMA),
        "runs": Names(RUN_SCHEMA),
        "suites": Names(SUITE_SCHEMA),
        "testpoints": Seq(TESTPOINT_SCHEMA),
        "coverage": COVERAGE_SCHEMA,
        "configs": CONFIGS_SCHEMA,
        # the plan files this one imports (paths from this file's folder; planschema.read_plan merges them)
        "imports": Seq(Scalar("str", pattern=r".+\.ya?ml", means="a plan file (a .yaml path)")),
        # the mutant catalogues (Plan.mutants: YAML files, paths from the project root; dlaverif.flow.mutation)
        "mutants": Seq(Scalar("str", pattern=r".+\.ya?ml", means="a mutant catalogue file (a .yaml path)")),
        "blocks": Names(BLOCK_SCHEMA),
        # make formal's property sets, by name (dlaverif/flow/formalplan.py: one self-contained entry per set)
        "formal": Names(formalplan.SCHEMA),
        # catalogues of mutants that only make formal-mutants applies (same format as mutants:; paths from the root)
        "formal_mutants": Seq(Scalar("str", pattern=r".+\.ya?ml", means="a mutant catalogue file (a .yaml path)")),
    },
    required=("builds", "runs", "suites", "testpoints"),
)


@dataclass(frozen=True)
class PlannedBuild:
    name: str
    toplevel: str
    parameters: dict
    rtl: Optional[frozenset[str]]  # RTL files the build's results depend on (its file list; None: all of blocks/rtl/)
    options: BuildOptions = field(default_factory=BuildOptions)  # its file list, defines, flags, waivers, properties
    missing: Optional[str] = (
        None  # third-party RTL not found: the one line saying what to set (dlaverif.thirdparty.hint)
    )


@dataclass(frozen=True)
class Run:
    name: str
    build: PlannedBuild
    module: str
    tests: tuple[str, ...] = ()  # a subset of the module's tests (empty: all of them)
    env: dict = field(default_factory=dict)
    artifacts: tuple[str, ...] = ()  # files each run must leave in its run folder

    @property
    def block(self) -> str:
        return self.name.split("/", 1)[0]

    def expected_tests(self) -> set[str]:
        return set(self.tests) if self.tests else set(module_tests(self.module))


@dataclass(frozen=True)
class SuiteRun:
    run: Run
    env: dict  # the run's env, then the suite entry's env (a COUNT here is fixed)

    def environment(self, count: int | str) -> dict:
        """Variables of this run: COUNT (the suite's or the user's) unless the run fixes it, then its own env."""
        return {"COUNT": str(count), **self.env}


@dataclass(frozen=True)
class Suite:
    name: str
    count: int
    reseeds: int
    runs: tuple[SuiteRun, ...]


@dataclass(frozen=True)
class Testpoint:
    name: str
    desc: str
    stimulus: str
    checks: str
    tests: tuple[str, ...]
    covergroups: tuple[str, ...]


@dataclass(frozen=True)
class Exclusion:
    """A functional-coverage bin (``bin`` is a glob over the bin's printed value) left out of its covergroup."""

    covergroup: str
    bin: str
    tag: str  # one of EXCLUSION_TAGS
    reason: str


@dataclass(frozen=True)
class CodeWaiver:
    """RTL lines (``first``..``last`` of ``file``, a file code coverage scores: :attr:`CoveragePlan.files`) left out of
    code coverage. In the plan a waiver names its line by text (``match``: a piece of the line that occurs on exactly
    one line of the file), so an RTL edit that moves the line moves the waiver, and one that removes or duplicates it
    is reported."""

    file: str
    first: int
    last: int
    tag: str
    reason: str
    match: str = ""
    matches: int = 1  # lines of the file holding ``match`` (must be 1)

    def covers(self, file: str, line: int) -> bool:
        return Path(file).name == self.file and self.first <= line <= self.last


@dataclass(frozen=True)
class CoveragePlan:
    """The ``coverage:`` section: goals (percent of bins per covergroup), exclusions and code waivers; ``files``: the
    RTL files code coverage scores, by name (every build's own list, third-party RTL only where the plan opts it in:
    :mod:`dlaverif.flow.codescope`)."""

    goals: dict = field(default_factory=dict)
    exclusions: tuple[Exclusion, ...] = ()
    code_waivers: tuple[CodeWaiver, ...] = ()
    line_goal: float = 90.0  # percent of the scored RTL lines (after waivers)
    files: dict[str, Path] = field(default_factory=dict)

    def goal(self, covergroup: str) -> float:
        return float(self.goals.get(covergroup, self.goals.get("default", DEFAULT_GOAL)))


@dataclass(frozen=True)
class Configuration:
    """One configuration of the matrix: ``top`` with ``parameters`` (the contracted ones it sets; the others at
    their defaults), named ``name`` (a corner's name, or ``r<seed>_<i>`` for a random draw of ``seed``)."""

    top: str
    name: str
    parameters: dict
    kind: str  # "corner" (generated from a contract or written in the plan) or "random"
    run: str  # the run at this configuration
    formal: tuple[str, ...] = ()  # the property sets make formal CONFIG=<top>@<name> runs (none: no formal here)
    seed: Optional[int] = None  # the CONFIG_SEED of a random draw
    formal_depth: dict = field(default_factory=dict)  # set -> its BMC depth at this configuration (else the set's)
    formal_why: str = ""  # why this configuration's formal differs from the top's (configs.<top>.formal_at)
    formal_unchecked: tuple[str, ...] = ()  # property modules whose assertions its sets leave out (formal_at)

    @property
    def key(self) -> str:
        return f"{self.top}@{self.name}"

    def rerun(self, sim: str = "verilator", seed: object = 1) -> str:
        """The one command that rebuilds and reruns this configuration."""
        cfg_seed = f" {CONFIG_SEED_VAR}={self.seed}" if self.seed is not None else ""
        return f"make sim SIM={sim} SUITE={CONFIG_SUITE} RUN={self.run} SEED={seed}{cfg_seed}"


@dataclass(frozen=True)
class Root:
    """A variable a block's file lists take a third-party tree from (``blocks.<name>.roots``)."""

    name: str  # NVDLA_HW
    means: str  # what it must name: a checkout of nvdla/hw (branch nvdlav1)
    defaults: tuple[str, ...] = ()  # where to look when it is not set, first found first (from the project's root)
    get: str = ""  # how to get the files (a make target), when there is a way
    lock: str = ""  # the pin of its files that dlaverif.flow.fetchroot fetches (from the project's root)


@dataclass(frozen=True)
class Block:
    """A block of the project (``blocks:``): what the flow links to and needs of it."""

    name: str
    datasheet: Optional[str] = None  # its document, from the project's root
    roots: tuple[Root, ...] = ()


@dataclass(frozen=True)
class Plan:
    builds: dict
    runs: dict
    suites: dict
    testpoints: tuple[Testpoint, ...]
    coverage: CoveragePlan = field(default_factory=CoveragePlan)
    configs: dict = field(default_factory=dict)  # Configuration.key -> Configuration
    config_seed: Optional[int] = None
    config_waivers: dict = field(default_factory=dict)  # <top>@<corner> left out of the matrix -> the reason
    nightly_draws: bool = False  # configs.nightly: random (the nightly suite runs the random draws)
    mutants: tuple[str, ...] = ()  # the modules of the mutant catalogues (each defines MUTANTS), in run order
    formal: dict = field(default_factory=dict)  # make formal's property sets: name -> formalplan.Proof, in plan order
    formal_mutants: tuple[str, ...] = ()  # catalogue files of the formal-only mutants (make formal-mutants)
    blocks: dict = field(default_factory=dict)  # name -> Block
    reach_bounds: dict = field(default_factory=dict)  # top -> limit -> ReachBound (configs.tops.<top>.reach_bounds)

    @property
    def roots(self) -> dict[str, Root]:
        """Every block's third-party variables: name -> :class:`Root` (one definition each, checked at load)."""
        return {r.name: r for b in self.blocks.values() for r in b.roots}

    def config_of_run(self, run: str) -> Optional[Configuration]:
        return next((c for c in self.configs.values() if c.run == run), None)

    def suite(self, name: str) -> Suite:
        if name not in self.suites:
            raise KeyError(f"no suite {name!r} in {PLAN_PATH.name}; suites: {', '.join(self.suites)}")
        return self.suites[name]


def _strs(values) -> dict:
    return {str(k): str(v) for k, v in (values or {}).items()}


def code_files(builds: dict, raw: Optional[dict]) -> dict[str, Path]:
    """The RTL files code coverage scores, by name: of each build's design list, the project's own files and the
    third-party ones the plan opts in (``coverage.code_coverage``, then the build's ``code_coverage``;
    :mod:`dlaverif.flow.codescope`). A build whose third-party RTL is not found here scores nothing."""
    plan_wide = codescope.selection(raw)
    per_build = {}
    for b in builds.values():
        if b.missing is not None:
            continue
        files = codescope.design_files(b.toplevel, b.options.filelist, RTL_DIR)
        per_build[b.name] = codescope.scored(files, (plan_wide, b.options.code_coverage))
    return codescope.by_name(per_build)


def build_rtl(toplevel: str, filelist: Optional[Path] = None) -> Optional[frozenset[str]]:
    """The RTL files a build of ``toplevel`` depends on (by name): its ``filelist`` when the plan names one, else
    its list ``blocks/rtl/<folder>/<toplevel>.f``; None (all of blocks/rtl/) for a top without one (the fast-path
    wrapper around every reader)."""
    if filelist is not None:
        return frozenset(p.name for p in filelists.parse(filelist).sources)
    if filelists.top_list(RTL_DIR, toplevel) is None:
        return None
    return frozenset(p.name for p in filelists.sources(RTL_DIR, toplevel))


@dataclass(frozen=True)
class ReachBound:
    """``configs.tops.<top>.reach_bounds.<limit>``: the RTL bounds ``limit`` (one of :data:`REACH_LIMITS` or the
    name of one of the top's occupancy probes) by ``bound`` (an expression of the top's parameters) for the reason
    ``why``; where the bound is below the parameter's own limit (a queue's depth), the report judges the bound and
    shows the cut as a waiver."""

    limit: str
    bound: str
    why: str


#: the limits a reach bound may cut (dlaverif.platform.reach.limits); a top's occupancy probes may be cut too (by name)
REACH_LIMITS = ("top_bit", "most_in_flight")


def _reach_data(raw: Optional[dict]) -> tuple[dict, dict]:
    """Per top of ``configs.tops``: its occupancy and beat-lanes probes (``reach.Probe``, checked) and its reach
    bounds."""
    probes: dict[str, tuple[reach.Probe, ...]] = {}
    bounds: dict[str, dict[str, ReachBound]] = {}
    for top, spec in ((raw or {}).get("tops") or {}).items():
        where = f"configs.tops.{top}.occupancy"
        probes[str(top)] = tuple(
            reach.Probe(str(n), str(p["path"]), str(p["depth"])).check(where)
            for n, p in (spec.get("occupancy") or {}).items()
        ) + tuple(
            reach.Probe(str(n), str(p["fire"]), str(p["lanes"]), str(p["lo"]), str(p["hi"])).check(
                f"configs.tops.{top}.beat_lanes"
            )
            for n, p in (spec.get("beat_lanes") or {}).items()
        )
        queues = tuple(str(n) for n in (spec.get("occupancy") or {}))
        for limit, b in (spec.get("reach_bounds") or {}).items():
            if limit not in REACH_LIMITS + queues:
                allowed = ", ".join(REACH_LIMITS + queues)
                raise ValueError(f"configs.tops.{top}.reach_bounds: {limit!r}; allowed: {allowed}")
            why = " ".join(str(b["why"]).split())
            bounds.setdefault(str(top), {})[str(limit)] = ReachBound(str(limit), str(b["bound"]), why)
    return probes, bounds


def _build(name: str, raw: object, probes: dict[str, tuple[reach.Probe, ...]] | None = None) -> PlannedBuild:
    """Build ``name`` of the plan; ``probes``: the occupancy probes per top (a fast-path build, whose HDL top is a
    wrapper, takes none)."""
    opts = buildopts.from_plan(name, raw)
    assert isinstance(raw, dict)  # from_plan refused anything else
    found = (probes or {}).get(str(raw["toplevel"]), ())
    if found and opts.fastpath is None:
        opts = dataclasses.replace(opts, probes=found)
    params = raw.get("parameters") or {}
    if not isinstance(params, dict):
        raise ValueError(f"builds.{name}.parameters: a map of NAME to value, not {params!r}")
    top = str(raw["toplevel"])
    try:
        rtl = build_rtl(top, opts.filelist)
    except ValueError as e:
        hint = thirdparty.missing(e)
        if hint is None:
            raise
        return PlannedBuild(name, top, dict(params), frozenset(), opts, missing=hint)
    gone = thirdparty.absent(filelists.parse(opts.filelist).sources) if opts.filelist is not None else None
    return PlannedBuild(name, top, dict(params), rtl, opts, missing=gone)


def load(path: Path = PLAN_PATH, config_seed: Optional[int] = None) -> Plan:
    """Read and cross-link the plan (a name that does not exist raises ValueError). ``config_seed``: the seed of the
    configuration matrix's random draws (default: ``CONFIG_SEED`` in the environment, else the plan's)."""
    doc = read_plan(Path(path), SCHEMA, "a map with builds, runs, suites and testpoints")
    try:
        return _load(doc.data, config_seed, doc.where)
    except Refusal:  # the plan's own line, or a make variable's (CONFIG_SEED)
        raise
    except ValueError as exc:  # a value the schema allows that the flow does not (a cross-link): one line
        raise PlanError(f"{doc.file}: {_one_line(exc)}") from None
    except (KeyError, TypeError) as exc:  # the same, found by a lookup: still one line, never a traceback
        raise PlanError(f"{doc.file}: {type(exc).__name__}: {_one_line(exc)}") from None


def _one_line(exc: Exception) -> str:
    """An exception's message on one line."""
    return " ".join(str(exc).split())


def _load(raw: dict, config_seed: Optional[int], where: Callable[..., str]) -> Plan:
    """The plan of checked data ``raw`` (:func:`load`); ``where(*key path)``: ``file:line`` of an entry. Its blocks'
    third-party roots are declared to :mod:`dlaverif.thirdparty` first: the builds' file lists take their trees."""
    blocks = _blocks(raw.get("blocks") or {}, where)
    thirdparty.declare(
        (r.name, [project.ROOT / d for d in r.defaults], r.means, r.get) for b in blocks.values() for r in b.roots
    )
    try:
        probes, reach_bounds = _reach_data(raw.get("configs"))
    except ValueError as exc:
        raise PlanError(f"{where('configs')}: {_one_line(exc)}") from None
    builds = {}
    for n, b in (raw["builds"] or {}).items():
        try:
            builds[n] = _build(n, b, probes)
        except ValueError as exc:
            raise PlanError(f"{where('builds', str(n))}: {_one_line(exc)}") from None
    runs = {}
    for n, r in (raw["runs"] or {}).items():
        if r["build"] not in builds:
            raise ValueError(f"run {n}: no build {r['build']!r}")
        runs[n] = Run(
            n,
            builds[r["build"]],
            r["module"],
            tuple(r.get("tests") or ()),
            _strs(r.get("env")),
            tuple(r.get("artifacts") or ()),
        )
    suites = {}
    for n, s in (raw["suites"] or {}).items():
        entries = []
        for e in s["runs"] or ():
            e = {"run": e} if isinstance(e, str) else e
            if e["run"] not in runs:
                raise ValueError(f"suite {n}: no run {e['run']!r}")
            run = runs[e["run"]]
            entries.append(SuiteRun(run, {**run.env, **_strs(e.get("env"))}))
        suites[n] = Suite(n, int(s.get("count", 8)), int(s.get("reseeds", 1)), tuple(entries))
    try:
        configs, config_seed, config_waivers = _configs(raw.get("configs"), builds, runs, suites, config_seed)
    except Refusal:  # CONFIG_SEED: the make variable's own line
        raise
    except ValueError as exc:
        raise PlanError(f"{where('configs')}: {_one_line(exc)}") from None
    tps = tuple(
        Testpoint(
            t["name"],
            " ".join(str(t.get("desc", "")).split()),
            str(t.get("stimulus", "")),
            str(t.get("checks", "")),
            tuple(t.get("tests") or ()),
            tuple(t.get("covergroups") or ()),
        )
        for t in raw["testpoints"] or ()
    )
    nightly_draws = (raw.get("configs") or {}).get("nightly") == "random"
    cov_raw = raw.get("coverage") or {}
    try:
        scored = code_files(builds, cov_raw.get("code_coverage"))
    except ValueError as exc:
        raise PlanError(f"{where('coverage')}: {_one_line(exc)}") from None
    cov = _coverage(cov_raw, scored)
    catalogues = tuple(str(m) for m in raw.get("mutants") or ())
    proofs = {}
    for n, f in (raw.get("formal") or {}).items():
        try:
            proofs[str(n)] = formalplan.proof(str(n), f, project.ROOT, builds)
        except ValueError as exc:
            raise PlanError(f"{where('formal', str(n))}: {_one_line(exc)}") from None
    formal_only = tuple(str(m) for m in raw.get("formal_mutants") or ())
    return Plan(
        builds,
        runs,
        suites,
        tps,
        cov,
        configs,
        config_seed,
        config_waivers,
        nightly_draws,
        catalogues,
        proofs,
        formal_only,
        blocks,
        reach_bounds,
    )


def _blocks(raw: dict, where: Callable[..., str]) -> dict[str, Block]:
    """The ``blocks:`` section: a datasheet must exist (from the project's root), a root variable is an environment
    variable's name and is defined by one block only."""
    out: dict[str, Block] = {}
    seen: dict[str, str] = {}
    for name, b in raw.items():
        b = b or {}
        sheet = b.get("datasheet")
        if sheet is not None and not (project.ROOT / str(sheet)).is_file():
            raise PlanError(f"{where('blocks', str(name), 'datasheet')}: blocks.{name}.datasheet: no file {sheet}")
        roots = []
        for var, r in (b.get("roots") or {}).items():
            at = where("blocks", str(name), "roots", str(var))
            if not re.fullmatch(ROOT_VAR, str(var)):
                raise PlanError(f"{at}: blocks.{name}.roots.{var}: not a variable name ({ROOT_VAR})")
            if var in seen:
                raise PlanError(f"{at}: blocks.{name}.roots.{var}: already a root of block {seen[var]}")
            seen[str(var)] = str(name)
            roots.append(
                Root(
                    str(var),
                    " ".join(str(r["means"]).split()),
                    tuple(r.get("defaults") or ()),
                    str(r.get("get", "")),
                    str(r.get("lock", "")),
                )
            )
        out[str(name)] = Block(str(name), None if sheet is None else str(sheet), tuple(roots))
    return out


def night_seed(today: datetime.date) -> int:
    """The ``CONFIG_SEED`` of a nightly regression started without one (``configs.nightly: random``): the date as
    ``YYYYMMDD``, so each night draws other legal configurations, and the number is easy to read back from a report
    or a log (a second run the same day draws the same ones; ``CONFIG_SEED=`` chooses)."""
    return int(today.strftime("%Y%m%d"))


def top_folder(build: PlannedBuild) -> Path:
    """The folder the contracts of ``build``'s top are read from (:mod:`dlaverif.flow.contracts`): that of the file
    ``<top>.sv`` of its own list when the plan names one (a user's RTL, any root), else blocks/rtl/."""
    if build.options.filelist is not None:
        for src in filelists.parse(build.options.filelist).sources:
            if src.name == f"{build.toplevel}.sv":
                return src.parent
    return RTL_DIR


def _formal(top: str, spec: dict, names: set[str]) -> Callable[[str], dict]:
    """``configs.<top>.formal`` (a property set's name or a list of them) and ``formal_at`` (per configuration:
    ``sets`` instead of the top's, ``depth`` {set: BMC depth} below the set's own, ``unchecked`` property modules
    whose assertions are left out there, and ``why``, required) as a function of the configuration's name -> the
    :class:`Configuration` fields ``formal``, ``formal_depth``, ``formal_unchecked``, ``formal_why``. The set and
    module names are checked by the formal flow (dlaverif.flow.formal), which owns them."""

    def names_of(v: str | list | None) -> tuple[str, ...]:
        return (v,) if isinstance(v, str) else tuple(str(x) for x in (v or ()))

    sets = names_of(spec.get("formal"))
    at = {str(k): v or {} for k, v in (spec.get("formal_at") or {}).items()}
    for name, o in at.items():
        if name not in names:
            raise ValueError(f"configs.{top}.formal_at: no configuration {name!r}")
        if set(o) - {"sets", "depth", "unchecked", "why"} or not str(o.get("why", "")).strip():
            raise ValueError(
                f"configs.{top}.formal_at.{name}: only sets, depth, unchecked and why, and why is required"
            )
        if not isinstance(o.get("depth") or {}, dict):
            raise ValueError(f"configs.{top}.formal_at.{name}.depth: a map of property set to BMC depth")

    def of(name: str) -> dict:
        o = at.get(name, {})
        return {
            "formal": names_of(o.get("sets")) or sets,
            "formal_depth": {str(k): int(v) for k, v in (o.get("depth") or {}).items()},
            "formal_unchecked": names_of(o.get("unchecked")),
            "formal_why": " ".join(str(o.get("why", "")).split()),
        }

    return of


def _configs(
    raw: Optional[dict], builds: dict, runs: dict, suites: dict, config_seed: Optional[int] = None
) -> tuple[dict, Optional[int], dict]:
    """Expand the configuration matrix (``configs:``) into builds ``<top>@<config>``, runs ``<run>@<config>`` (the
    top's template run at that configuration), the ``configs`` suite (every configuration) and the smoke suite's
    share (each top's ``smoke`` corners). The ranges come from the RTL's contracts (dlaverif.flow.contracts): each
    contracted parameter alone at its minimum and maximum, then the plan's named corners (``min``/``max``/numbers),
    then ``random`` legal draws per top from the seed (``config_seed``, else ``CONFIG_SEED`` in the environment, else
    ``seed``). ``nightly: random`` adds every random draw to the nightly suite too (random legal
    configurations per nightly; the regression draws them from the night's date, :func:`night_seed`)."""
    if not raw:
        return {}, None, {}
    if raw.get("nightly") not in (None, "random"):
        raise ValueError(f"configs.nightly: {raw['nightly']!r}; allowed: random (or leave it out)")
    from dlaverif.flow.regression import settings  # the make variables' one checker (it imports this module)

    env_seed = os.environ.get(CONFIG_SEED_VAR, "").strip()
    if config_seed is None and env_seed:
        config_seed = settings.whole(CONFIG_SEED_VAR, env_seed, 0)
    seed = config_seed if config_seed is not None else int(raw.get("seed", 1))
    n_random = int(raw.get("random", 0))
    out: dict[str, Configuration] = {}
    waivers: dict[str, str] = {}
    matrix: list[SuiteRun] = []
    smoke: list[SuiteRun] = []
    drawn: list[SuiteRun] = []
    for top, spec in (raw.get("tops") or {}).items():
        if spec["run"] not in runs:
            raise ValueError(f"configs.{top}: no run {spec['run']!r}")
        template: Run = runs[spec["run"]]
        if template.build.toplevel != top:
            raise ValueError(f"configs.{top}: run {template.name} builds {template.build.toplevel}")
        points: list[tuple[str, dict, str, Optional[int]]] = []
        rtl = top_folder(template.build)  # where the top's module is: blocks/rtl/, or a user's own RTL
        points += [(n, p, "corner", None) for n, p in contracts.corners(top, rtl).items()]
        for n, corner in (spec.get("corners") or {}).items():
            points.append((str(n), contracts.configuration(top, corner, rtl), "corner", None))
        waived = {str(k): " ".join(str(v).split()) for k, v in (spec.get("waive") or {}).items()}
        unknown = set(waived) - {p[0] for p in points}
        if unknown or not all(waived.values()):
            raise ValueError(f"configs.{top}.waive: no corner {sorted(unknown)} or a waiver without a reason")
        waivers.update({f"{top}@{k}": v for k, v in waived.items()})
        points = [p for p in points if p[0] not in waived]
        rng = random.Random(f"{seed}/{top}")
        ranges = {str(k): v if isinstance(v, list) else [None, v] for k, v in (spec.get("limits") or {}).items()}
        points += [(f"r{seed}_{i}", contracts.draw(top, rng, ranges, rtl), "random", seed) for i in range(n_random)]
        formal = _formal(top, spec, {p[0] for p in points})
        for name, params, kind, cseed in points:
            bad = contracts.violations(top, params, rtl)
            if bad:
                raise ValueError(f"configs.{top}.{name} is illegal: {'; '.join(bad)}")
            bname, rname = f"{top}@{name}", f"{template.name}@{name}"
            if bname in out:
                raise ValueError(f"configs.{top}: configuration {name} defined twice")
            base = template.build
            builds[bname] = PlannedBuild(bname, top, params, base.rtl, base.options)
            runs[rname] = Run(rname, builds[bname], template.module, template.tests, template.env, template.artifacts)
            out[bname] = Configuration(top, name, params, kind, rname, seed=cseed, **formal(name))
            # a failing test's own rerun command (dlaverif.platform.reporting.reproduce_command) names this suite and
            # run (and the seed of a random draw): the one command that rebuilds and reruns this configuration
            where = {
                "PLAN_SUITE": CONFIG_SUITE,
                "PLAN_RUN": rname,
                **({CONFIG_SEED_VAR: str(cseed)} if cseed is not None else {}),
            }
            entry = SuiteRun(runs[rname], {**template.env, **_strs(spec.get("env")), **where})
            matrix.append(entry)
            if kind == "random":
                drawn.append(entry)
            if name in (spec.get("smoke") or ()):
                smoke.append(entry)
        unknown = set(spec.get("smoke") or ()) - {p[0] for p in points}
        if unknown:
            raise ValueError(f"configs.{top}.smoke names no configuration {sorted(unknown)}")
    count = int(raw.get("count", 1))
    defaults = [SuiteRun(runs[s["run"]], dict(runs[s["run"]].env)) for s in (raw.get("tops") or {}).values()]
    suites[CONFIG_SUITE] = Suite(CONFIG_SUITE, count, 1, tuple(defaults + matrix))
    for name, extra in (("smoke", smoke), (NIGHTLY_SUITE, drawn if raw.get("nightly") else [])):
        if name in suites and extra:
            s = suites[name]
            suites[name] = Suite(s.name, s.count, s.reseeds, s.runs + tuple(extra))
    return out, seed, waivers


def _coverage(raw: dict, files: dict[str, Path]) -> CoveragePlan:
    excl = tuple(
        Exclusion(
            str(e["covergroup"]), str(e["bin"]), str(e.get("tag", "")), " ".join(str(e.get("reason", "")).split())
        )
        for e in raw.get("exclusions") or ()
    )
    waivers = []
    for w in raw.get("code_waivers") or ():
        tag, reason = str(w.get("tag", "")), " ".join(str(w.get("reason", "")).split())
        if "match" in w:
            path = files.get(str(w["file"]))
            text = path.read_text().splitlines() if path is not None else []
            hits = [i + 1 for i, line in enumerate(text) if str(w["match"]) in line]
            first = hits[0] if len(hits) == 1 else 0
            waivers.append(CodeWaiver(str(w["file"]), first, first, tag, reason, str(w["match"]), len(hits)))
            continue
        lines = w["lines"] if isinstance(w["lines"], list) else [w["lines"], w["lines"]]
        waivers.append(CodeWaiver(str(w["file"]), int(lines[0]), int(lines[-1]), tag, reason))
    goals = {str(k): float(v) for k, v in (raw.get("goals") or {}).items()}
    return CoveragePlan(goals, excl, tuple(waivers), float(raw.get("line_goal", 90.0)), dict(files))


@lru_cache(maxsize=None)
def module_tests(module: str) -> tuple[str, ...]:
    """Names of the cocotb tests a module defines, in its order, found as cocotb finds them: the module is imported
    (no simulator needed: cocotb and pyuvm import outside one, and a test module only defines tests when imported)
    and its cocotb test objects are read from its namespace, as ``cocotb.regression.RegressionManager.discover_tests``
    reads them - ``@cocotb.test`` functions, ``@pyuvm.test`` classes and the tests the platform declares as data
    (``dlaverif.platform.declare``), each by the name cocotb runs it under. So a test is declared once, in its module,
    whatever declares it; the plan names it and this finds it. A module that cannot be imported is one line."""
    from cocotb.regression import Test, TestGenerator  # the flow needs cocotb only when it asks a module

    try:
        mod = importlib.import_module(module)
    except Exception as exc:  # ImportError, or a module refusing its environment (a bad COMPLETION=, ...)
        raise ValueError(f"test module {module} cannot be imported: {type(exc).__name__}: {_one_line(exc)}") from None
    return tuple(obj.name for obj in vars(mod).values() if isinstance(obj, (Test, TestGenerator)))


def test_id(module: str, test: str) -> str:
    """``blocks.<block>.tests`` + ``<Test>`` -> ``<block>.tests::<Test>`` (the plan's name of a test)."""
    return f"{module.removeprefix('blocks.')}::{test}"


def all_test_ids(plan: Plan) -> dict[str, str]:
    """Every test of every module a run uses: id -> module."""
    return {test_id(r.module, t): r.module for r in plan.runs.values() for t in module_tests(r.module)}


def testpoints_of(plan: Plan, module: str, test: str) -> list[str]:
    tid = test_id(module, test.split("/", 1)[0])
    return [tp.name for tp in plan.testpoints if tid in tp.tests]


def problems(plan: Plan, covergroups: Optional[set[str]] = None) -> list[str]:
    """Everything wrong with the plan; ``covergroups``: the names the coverage models define (checked if given)."""
    out: list[str] = []
    ids = all_test_ids(plan)
    planned = {t for tp in plan.testpoints for t in tp.tests}
    out += [f"test {t} is in no testpoint" for t in sorted(set(ids) - planned)]
    out += [f"testpoint {tp.name} has no test" for tp in plan.testpoints if not tp.tests]
    out += [
        f"testpoint {tp.name} names {t}, which no run's module defines"
        for tp in plan.testpoints
        for t in tp.tests
        if t not in ids
    ]
    names = [tp.name for tp in plan.testpoints]
    out += [f"testpoint {n} defined twice" for n in sorted({n for n in names if names.count(n) > 1})]
    for r in plan.runs.values():
        missing = set(r.tests) - set(module_tests(r.module))
        out += [f"run {r.name} lists {t}, which {r.module} does not define" for t in sorted(missing)]
    used = {e.run.name for s in plan.suites.values() for e in s.runs}
    out += [f"run {n} is in no suite" for n in sorted(set(plan.runs) - used)]
    out += [f"suite {n} is missing" for n in SUITE_NAMES if n not in plan.suites]
    if NIGHTLY_SUITE in plan.suites:  # the sign-off suite: its report must not list a testpoint as untested
        nightly = {test_id(e.run.module, t) for e, tests in select(plan, NIGHTLY_SUITE) for t in tests}
        out += [
            f"testpoint {tp.name} has no test in suite {NIGHTLY_SUITE}"
            for tp in plan.testpoints
            if not ids.keys().isdisjoint(tp.tests) and nightly.isdisjoint(tp.tests)  # naming no real test: above
        ]
    cov = plan.coverage
    for what, name, tag, reason in [
        ("exclusion", f"{e.covergroup}/{e.bin}", e.tag, e.reason) for e in cov.exclusions
    ] + [("code waiver", f"{w.file}:{w.first}-{w.last}", w.tag, w.reason) for w in cov.code_waivers]:
        if tag not in EXCLUSION_TAGS:
            out.append(f"{what} {name} has tag {tag!r}, not one of {', '.join(EXCLUSION_TAGS)}")
        if not reason:
            out.append(f"{what} {name} gives no reason")
    out += [
        f"code waiver names {w.file}, which code coverage does not score (in no build's file list, or third-party "
        "RTL the plan does not opt in: code_coverage include)"
        for w in cov.code_waivers
        if w.file not in cov.files
    ]
    out += [
        f"code waiver of {w.file} matches {w.matches} lines with {w.match!r} (must be exactly one)"
        for w in cov.code_waivers
        if w.file in cov.files and w.match and w.matches != 1
    ]
    if covergroups is not None:
        out += [
            f"testpoint {tp.name} names covergroup {c}, which no coverage model defines"
            for tp in plan.testpoints
            for c in tp.covergroups
            if c not in covergroups
        ]
        out += [
            f"exclusion names covergroup {e.covergroup}, which no coverage model defines"
            for e in cov.exclusions
            if e.covergroup not in covergroups
        ]
        out += [
            f"coverage goal names covergroup {g}, which no coverage model defines"
            for g in cov.goals
            if g != "default" and g not in covergroups
        ]
    return out


# ---------------------------------------------------------------------------- selection (make sim, make regress)
class SelectionError(ValueError):
    """A ``SUITE=``, ``RUN=`` or ``TESTS=`` value that names nothing in the plan; ``variable`` is the make
    variable, the message is the one line the user sees."""

    def __init__(self, variable: str, message: str) -> None:
        super().__init__(message)
        self.variable = variable


def split_names(text: Optional[str]) -> list[str]:
    """``"a, b,,c"`` -> ``["a", "b", "c"]`` (the comma-separated lists of ``RUN=`` and ``TESTS=``)."""
    return [p.strip() for p in (text or "").split(",") if p.strip()]


def test_matches(run: str, test: str, pattern: str) -> bool:
    """``TESTS=`` pattern: a glob over ``run::test`` or over the test name alone."""
    return fnmatch.fnmatchcase(f"{run}::{test}", pattern) or fnmatch.fnmatchcase(test, pattern)


def select(
    plan: Plan, suite: str, runs: Optional[str] = None, tests: Optional[str] = None
) -> list[tuple[SuiteRun, list[str]]]:
    """The runs of ``suite`` (only those named exactly in ``runs``, comma-separated, when given) with their tests
    (only those matching a ``tests`` pattern when given), in the suite's order, runs left with no test dropped.
    The one selection of ``make sim`` and ``make regress``: a suite, run or pattern that selects nothing, or a run
    whose test module does not import, raises :class:`SelectionError` instead of being ignored."""
    if suite not in plan.suites:
        raise SelectionError("SUITE", f"SUITE={suite}: no such suite; allowed: {', '.join(plan.suites)}")
    entries = plan.suites[suite].runs
    names = {e.run.name for e in entries}
    wanted_runs = split_names(runs)
    unknown = [r for r in wanted_runs if r not in names]
    if unknown:
        raise SelectionError(
            "RUN", f"RUN={','.join(unknown)}: not a run of suite {suite}; allowed: {', '.join(sorted(names))}"
        )
    if wanted_runs:
        entries = tuple(e for e in entries if e.run.name in wanted_runs)
    patterns = split_names(tests)
    out = []
    for e in entries:
        try:
            tests_of_run = e.run.expected_tests()
        except ValueError as exc:  # its module does not import here (its environment refused, a name missing)
            raise SelectionError("RUN", f"run {e.run.name}: {exc}") from None
        chosen = sorted(
            t for t in tests_of_run if not patterns or any(test_matches(e.run.name, t, p) for p in patterns)
        )
        if chosen:
            out.append((e, chosen))
    unmatched = [p for p in patterns if not any(test_matches(e.run.name, t, p) for e, ts in out for t in ts)]
    if unmatched:
        where = f"runs {','.join(wanted_runs)} of suite {suite}" if wanted_runs else f"suite {suite}"
        raise SelectionError(
            "TESTS", f"TESTS={','.join(unmatched)}: matches no test of {where} (globs over run::test or a test name)"
        )
    return out
