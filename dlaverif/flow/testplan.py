"""The testplan as data: ``blocks/plan.yaml`` read into builds, runs, suites and testpoints.

The one list of what runs where: ``make sim`` (``dlaverif.flow.sim``), ``make mutants`` (``dlaverif.flow.mutants``),
``make test`` (``tests/sim/test_suites.py``) and the regression report all take their runs from a named suite here.
:func:`problems` is the plan's self-check (``tests/sim/test_testplan.py``): every test of every run's module is in a
testpoint, every testpoint has tests, and every name (test, run, build, covergroup) exists.

Tests are found without a simulator by reading each cocotb module's source (:func:`module_tests`): functions
decorated with ``@cocotb.test`` and classes decorated with ``@pyuvm.test``.
"""

from __future__ import annotations

import ast
import datetime
import fnmatch
import importlib.util
import os
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

from dlaverif import thirdparty
from dlaverif.flow import buildopts, contracts, filelists, project
from dlaverif.flow.buildopts import BuildOptions
from dlaverif.flow.planschema import Either, Fields, Names, PlanError, Ref, Refusal, Scalar, Seq, read_plan

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
        None  # third-party RTL not found: the one line saying what to set (dlaverif/thirdparty/__init__.py)
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
    """RTL lines (``first``..``last`` of ``file`` under blocks/rtl/) left out of code coverage. In the plan a waiver
    names its line by text (``match``: a piece of the line that occurs on exactly one line of the file), so an RTL
    edit that moves the line moves the waiver, and one that removes or duplicates it is reported."""

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
    """The ``coverage:`` section: goals (percent of bins per covergroup), exclusions and code waivers."""

    goals: dict = field(default_factory=dict)
    exclusions: tuple[Exclusion, ...] = ()
    code_waivers: tuple[CodeWaiver, ...] = ()
    line_goal: float = 90.0  # percent of blocks/rtl/ lines (after waivers)

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

    def config_of_run(self, run: str) -> Optional[Configuration]:
        return next((c for c in self.configs.values() if c.run == run), None)

    def suite(self, name: str) -> Suite:
        if name not in self.suites:
            raise KeyError(f"no suite {name!r} in {PLAN_PATH.name}; suites: {', '.join(self.suites)}")
        return self.suites[name]


def _strs(values) -> dict:
    return {str(k): str(v) for k, v in (values or {}).items()}


def _rtl_file(name: str, rtl: Path = RTL_DIR) -> Optional[Path]:
    """The RTL file a code waiver names (by file name, in its subfolder of blocks/rtl/), or None if there is none."""
    try:
        return filelists.locate(rtl, name)
    except ValueError:
        return None


def build_rtl(toplevel: str, filelist: Optional[Path] = None) -> Optional[frozenset[str]]:
    """The RTL files a build of ``toplevel`` depends on (by name): its ``filelist`` when the plan names one, else
    its list ``blocks/rtl/<folder>/<toplevel>.f``; None (all of blocks/rtl/) for a top without one (the fast-path
    wrapper around every reader)."""
    if filelist is not None:
        return frozenset(p.name for p in filelists.parse(filelist).sources)
    if filelists.top_list(RTL_DIR, toplevel) is None:
        return None
    return frozenset(p.name for p in filelists.sources(RTL_DIR, toplevel))


def _build(name: str, raw: object) -> PlannedBuild:
    opts = buildopts.from_plan(name, raw)
    assert isinstance(raw, dict)  # from_plan refused anything else
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
    """The plan of checked data ``raw`` (:func:`load`); ``where(*key path)``: ``file:line`` of an entry."""
    builds = {}
    for n, b in (raw["builds"] or {}).items():
        try:
            builds[n] = _build(n, b)
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
    cov = _coverage(raw.get("coverage") or {})
    catalogues = tuple(str(m) for m in raw.get("mutants") or ())
    return Plan(builds, runs, suites, tps, cov, configs, config_seed, config_waivers, nightly_draws, catalogues)


def night_seed(today: datetime.date) -> int:
    """The ``CONFIG_SEED`` of a nightly regression started without one (``configs.nightly: random``): the date as
    ``YYYYMMDD``, so each night draws other legal configurations, and the number is easy to read back from a report
    or a log (a second run the same day draws the same ones; ``CONFIG_SEED=`` chooses)."""
    return int(today.strftime("%Y%m%d"))


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
        points += [(n, p, "corner", None) for n, p in contracts.corners(top).items()]
        for n, corner in (spec.get("corners") or {}).items():
            points.append((str(n), contracts.configuration(top, corner), "corner", None))
        waived = {str(k): " ".join(str(v).split()) for k, v in (spec.get("waive") or {}).items()}
        unknown = set(waived) - {p[0] for p in points}
        if unknown or not all(waived.values()):
            raise ValueError(f"configs.{top}.waive: no corner {sorted(unknown)} or a waiver without a reason")
        waivers.update({f"{top}@{k}": v for k, v in waived.items()})
        points = [p for p in points if p[0] not in waived]
        rng = random.Random(f"{seed}/{top}")
        ranges = {str(k): v if isinstance(v, list) else [None, v] for k, v in (spec.get("limits") or {}).items()}
        points += [(f"r{seed}_{i}", contracts.draw(top, rng, ranges), "random", seed) for i in range(n_random)]
        formal = _formal(top, spec, {p[0] for p in points})
        for name, params, kind, cseed in points:
            bad = contracts.violations(top, params)
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


def _coverage(raw: dict) -> CoveragePlan:
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
            path = _rtl_file(str(w["file"]))
            text = path.read_text().splitlines() if path is not None else []
            hits = [i + 1 for i, line in enumerate(text) if str(w["match"]) in line]
            first = hits[0] if len(hits) == 1 else 0
            waivers.append(CodeWaiver(str(w["file"]), first, first, tag, reason, str(w["match"]), len(hits)))
            continue
        lines = w["lines"] if isinstance(w["lines"], list) else [w["lines"], w["lines"]]
        waivers.append(CodeWaiver(str(w["file"]), int(lines[0]), int(lines[-1]), tag, reason))
    goals = {str(k): float(v) for k, v in (raw.get("goals") or {}).items()}
    return CoveragePlan(goals, excl, tuple(waivers), float(raw.get("line_goal", 90.0)))


@lru_cache(maxsize=None)
def module_tests(module: str) -> tuple[str, ...]:
    """Names of the cocotb tests a module defines (``@cocotb.test`` functions, ``@pyuvm.test`` classes)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise ValueError(f"test module {module} not found")
    tree = ast.parse(Path(spec.origin).read_text())
    out = []
    for node in tree.body:
        declared = _declared_tests(node)
        if declared:
            out += declared
            continue
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for dec in node.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            if (
                isinstance(target, ast.Attribute)
                and target.attr == "test"
                and isinstance(target.value, ast.Name)
                and target.value.id in ("cocotb", "pyuvm")
            ):
                out.append(node.name)
    return tuple(out)


#: tests as data (dlaverif/platform/declare.py): its calls and, for a call declaring fixed names, the constant naming
#: them
DECLARE_PY = Path(__file__).resolve().parents[1] / "platform" / "declare.py"
DECLARATIONS = {
    "declare_sequence_tests": None,
    "declare_scoreboard_selftests": "SELFTESTS",
    "declare_register_test": "REGISTER_TESTS",
}


@lru_cache(maxsize=None)
def _constant(name: str) -> tuple[str, ...]:
    """A module-level constant of dlaverif/platform/declare.py, read without importing it (it imports cocotb)."""
    for node in ast.parse(DECLARE_PY.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise ValueError(f"{DECLARE_PY}: no constant {name}")


def _declared_tests(node: ast.stmt) -> list[str]:
    """The tests a module-level ``declare_*(...)`` call of dlaverif/platform/declare.py declares (tests as data): the
    keyword arguments' names, or the fixed names of the call."""
    call = node.value if isinstance(node, ast.Expr) else None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.func.id not in DECLARATIONS:
        return []
    fixed = DECLARATIONS[call.func.id]
    return list(_constant(fixed)) if fixed is not None else [k.arg for k in call.keywords if k.arg is not None]


def test_id(module: str, test: str) -> str:
    """``blocks.cube_reader.tests`` + ``RandomCubeTest`` -> ``cube_reader.tests::RandomCubeTest``."""
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
    rtl = RTL_DIR
    out += [
        f"code waiver names {w.file}, which is not in blocks/rtl/"
        for w in cov.code_waivers
        if _rtl_file(w.file, rtl) is None
    ]
    out += [
        f"code waiver of {w.file} matches {w.matches} lines with {w.match!r} (must be exactly one)"
        for w in cov.code_waivers
        if _rtl_file(w.file, rtl) is not None and w.match and w.matches != 1
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
    The one selection of ``make sim`` and ``make regress``: a suite, run or pattern that selects nothing raises
    :class:`SelectionError` instead of being ignored."""
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
        chosen = sorted(
            t for t in e.run.expected_tests() if not patterns or any(test_matches(e.run.name, t, p) for p in patterns)
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
