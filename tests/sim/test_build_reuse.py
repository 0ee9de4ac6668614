"""A build directory is reused only for the same build (dlaverif/flow/runner.py): changing a parameter or a define of a
build that keeps its folder recompiles it (shown by running Icarus's ``sim.vvp``, which needs no cocotb), and a
build that failed fails again on both simulators. cocotb's runner decides by source file times alone on Icarus, so
before the build stamp ``make sim`` ran a stale ``sim.vvp`` after a plan entry's parameters changed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from dlaverif.flow import buildopts, runner

pytestmark = pytest.mark.sim

TOP = (
    "`timescale 1ns/1ps\nmodule top #(parameter int P = 0) ();\n"
    "`ifndef TAG\n  `define TAG 0\n`endif\n`ifdef BREAK\n  syntax error here;\n`endif\n"
    '  initial $display("P=%0d TAG=%0d", P, `TAG);\nendmodule\n'
)


@pytest.fixture
def design(tmp_path: Path) -> Path:
    (tmp_path / "top.sv").write_text(TOP)
    (tmp_path / "top.f").write_text("top.sv\n")
    return tmp_path


def options(design: Path, defines: dict[str, object] | None = None) -> buildopts.BuildOptions:
    return buildopts.from_plan(
        "reuse", {"toplevel": "top", "filelist": str(design / "top.f"), "properties": "none", "defines": defines or {}}
    )


def printed(b: runner.Build) -> str:
    """What the compiled design prints at time 0, run without cocotb (Icarus's vvp on the build's sim.vvp)."""
    out = subprocess.run(["vvp", "-n", str(b.build_dir / "sim.vvp")], capture_output=True, text=True, check=True)
    return next(line for line in out.stdout.splitlines() if line.startswith("P="))


def test_icarus_recompiles_when_a_parameter_or_a_define_changes(design: Path) -> None:
    where = design / "build"
    first = runner.build("icarus", "top", "reuse", {"P": 1}, build_dir=where, options=options(design))
    assert printed(first) == "P=1 TAG=0"
    assert printed(runner.build("icarus", "top", "reuse", {"P": 2}, build_dir=where, options=options(design))) == (
        "P=2 TAG=0"
    )
    again = runner.build("icarus", "top", "reuse", {"P": 2}, build_dir=where, options=options(design, {"TAG": 7}))
    assert printed(again) == "P=2 TAG=7"


def test_the_same_build_is_not_compiled_again(design: Path) -> None:
    where = design / "build"
    runner.build("icarus", "top", "reuse", {"P": 3}, build_dir=where, options=options(design))
    made = (where / "sim.vvp").stat().st_mtime_ns
    runner.build("icarus", "top", "reuse", {"P": 3}, build_dir=where, options=options(design))
    assert (where / "sim.vvp").stat().st_mtime_ns == made


@pytest.mark.parametrize("sim", runner.SIMULATORS)
def test_a_failed_build_is_never_reused(sim: str, design: Path) -> None:
    """A build that stops leaves no stamp, so the next build of the same inputs compiles again (and fails again)
    instead of running what an earlier, different build left in the folder. The failure comes from a define, not
    from an edited source, so no file time tells it apart."""
    where = design / "build"
    runner.build(sim, "top", "reuse", {"P": 4}, build_dir=where, options=options(design))
    for _ in range(2):
        with pytest.raises(RuntimeError, match="Command failed"):
            runner.build(sim, "top", "reuse", {"P": 4}, build_dir=where, options=options(design, {"BREAK": 1}))
