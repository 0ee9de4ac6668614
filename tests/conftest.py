"""pytest configuration shared by every test folder.

Hypothesis: under CI (``CI`` set, as `.ci/run` runs) the property tests are derandomized so that a run is
reproducible; on a developer's machine they explore new examples every run (and print any failing example).

The ``sim`` marker, enforced: ``pytest -m "not sim"`` must start no simulator. While a test without the marker is
set up, run and torn down (session fixtures it asks for included), every attempt to start one is refused and fails
that test with one line naming the test and the command (:func:`simulator_start`): a simulator or formal tool by its
program name (also as the command of a step of ``dlaverif/executor.py``, behind its guard), ``make`` of a target
that runs one, a Python child running a module of the flow that does, or :func:`dlaverif.flow.runner.build`. The
refusal is recorded too, so a test that catches the exception still fails.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if os.getenv("CI") else "dev")

#: program names (basename of argv[0]) that are simulators or the formal tools
SIMULATORS = frozenset({"verilator", "verilator_bin", "verilator_bin_dbg", "iverilog", "vvp", "yosys", "yosys-smtbmc"})
#: the Makefile's targets that start a simulator or a formal tool (``lint`` runs Verilator)
MAKE_TARGETS = frozenset(
    {"sim", "regress", "mutants", "formal", "formal-quick", "formal-mutants", "test", "test-sim", "lint", "bench"}
)
#: ``python -m`` modules (and their submodules) that start one; the regression's ``report`` only reads a run
FLOW_MODULES = (
    "dlaverif.flow.regression",
    "dlaverif.flow.sim",
    "dlaverif.flow.mutants",
    "dlaverif.flow.formal",
    "tests.bench",
)


def simulator_start(args: Any) -> str | None:
    """The command line of ``args`` (as :class:`subprocess.Popen` takes it) when it starts a simulator, else None."""
    raw: list[Any] = [args] if isinstance(args, str | bytes | os.PathLike) else list(args)
    argv = [os.fsdecode(a) if isinstance(a, bytes | os.PathLike) else str(a) for a in raw]
    if len(argv) == 1 and " " in argv[0]:  # a shell string
        argv = argv[0].split()
    if not argv:
        return None
    if "--guard" in argv and "--" in argv and Path(argv[argv.index("--guard") - 1]).name == "executor.py":
        return simulator_start(argv[argv.index("--") + 1 :])  # a step of dlaverif/executor.py: its guard's command
    line = " ".join(argv)
    name = Path(argv[0]).name
    if name in SIMULATORS:
        return line
    if name in ("make", "gmake") and MAKE_TARGETS & set(argv[1:]):
        return line
    if "-m" in argv[:-1]:
        module = argv[argv.index("-m") + 1]
        rest = argv[argv.index("-m") + 2 :]
        if any(module == m or module.startswith(m + ".") for m in FLOW_MODULES):
            if not (module == "dlaverif.flow.regression" and rest[:1] == ["report"]):
                return line
    return None


class SimulatorRefused(RuntimeError):
    """A test without the ``sim`` marker tried to start a simulator."""


#: the refusals of the running test, one line each
_REFUSED = pytest.StashKey[list[str]]()


def _refusal(item: pytest.Item, command: str) -> str:
    """The one line a refused start fails ``item`` with."""
    return f"{item.nodeid}: starts a simulator without the sim marker: {command}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """Refuse every simulator start while ``item`` (without the ``sim`` marker) is set up, run and torn down."""
    if item.get_closest_marker("sim") is not None:
        yield
        return
    refused: list[str] = []
    item.stash[_REFUSED] = refused
    popen_init = subprocess.Popen.__init__

    def guarded_init(self: subprocess.Popen, args: Any, *rest: Any, **kw: Any) -> None:
        command = simulator_start(args)
        if command is not None:
            refused.append(_refusal(item, command))
            raise SimulatorRefused(refused[-1])
        popen_init(self, args, *rest, **kw)

    def guarded_build(*args: Any, **kw: Any) -> None:
        refused.append(_refusal(item, f"dlaverif.flow.runner.build{tuple(args)!r}"))
        raise SimulatorRefused(refused[-1])

    from dlaverif.flow import runner

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(subprocess.Popen, "__init__", guarded_init)
        mp.setattr(runner, "build", guarded_build)
        yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A phase in which a simulator start was refused fails, with the refusal's line, whatever the test caught."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    refused = item.stash.get(_REFUSED, [])
    if refused and report.when in ("setup", "call") and not report.skipped:
        report.outcome = "failed"
        report.longrepr = refused[0]
