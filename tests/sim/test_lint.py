"""`verilator --lint-only -Wall` over blocks/rtl/ is clean with every module as the top, and Icarus accepts every
file (part of `make test`). One module per file, named as its file: every module is linted as the top with the
first per-top list that compiles it (blocks/rtl/<folder>/<top>.f: the same plan `make lint` walks), packages excepted.
`make lint` also lints each property module and formal top of blocks/rtl/props/ with --assert, and each testplan
build with its own file list (dlaverif/flow/lintplan.py) by its top, defines and waivers: these tests run its lines."""

import functools
import shutil
import subprocess
from pathlib import Path

import pytest

from dlaverif.flow import buildopts, filelists, lintplan, runner, testplan

PLAN = dict((module, flist) for flist, module in filelists.lint_plan(runner.RTL))
TOPS = list(PLAN)
PROPS_TOPS = sorted(p.stem for p in (runner.RTL / filelists.PROPS_DIR).glob("*.sv"))


def top_of(args: list[str]) -> str:
    return args[args.index("--top-module") + 1]


@functools.cache
def make_lint_lines() -> list[list[str]]:
    """make lint's lines over this checkout, computed once for the tests that run them (0.4 s a call)."""
    return lintplan.targets()


def foreign_tops(plan: testplan.Plan) -> set[str]:
    """The toplevels of the testplan builds that name their own file list (RTL we did not write)."""
    return {b.toplevel for b in plan.builds.values() if b.options.filelist is not None}


def test_every_rtl_file_is_in_a_list_and_every_list_compiles_its_top():
    listed = {p.name for p in runner.rtl_sources()}
    assert listed == {p.name for p in runner.RTL.glob("*/*.sv") if p.parent.name != filelists.PROPS_DIR}, (
        "an RTL file in no <top>.f (or a list naming a file that does not exist)"
    )
    for top in filelists.tops(runner.RTL):
        names = [p.stem for p in runner.rtl_sources(top=top)]
        assert names[-1] == top and len(names) == len(set(names)), (top, names)


def test_tops_are_the_modules_of_the_lists():
    # one module per file, named as its file; the readers and their parts are all linted
    for top in (
        "cube_reader",
        "cr_desc_validator",
        "axi_rd_engine",
        "axil_regs",
        "reader_shell",
        "job_ctrl",
        "cr_run_walker",
        "cr_atom_assembler",
        "atom_fifo",
        "cr_fp16_scan",
        "reader_counters",
    ):
        assert top in TOPS, top
    for path in runner.rtl_sources():
        if path.stem in TOPS:
            text = path.read_text()
            assert text.count("\nmodule ") == 1 and f"\nmodule {path.stem}" in text, path.name
            assert "`timescale" in text, path.name


@pytest.mark.sim
@pytest.mark.parametrize("top", TOPS)
def test_verilator_lint_clean(top):
    # the lines make lint runs for this module (with and without its assertions bound): one flag list
    lines = [a for a in make_lint_lines() if top_of(a) == top and "-y" not in a]
    assert len(lines) == 2, lines
    for args in lines:
        out = lint(args)
        assert out.returncode == 0 and "%Warning" not in out.stderr, out.stderr


@pytest.mark.sim
@pytest.mark.parametrize("top", PROPS_TOPS)
def test_each_property_module_and_formal_top_lints_clean_with_the_regressions_flags(top):
    (args,) = [a for a in make_lint_lines() if top_of(a) == top]
    assert "--assert" in args and all(f in args for f in lintplan.COMMON), args
    out = lint(args)
    assert out.returncode == 0 and "%Warning" not in out.stderr, out.stderr


@pytest.mark.sim
def test_a_warning_in_a_property_module_fails_make_lint(tmp_path):
    # a copy of blocks/rtl/ whose reader_props gains an unused signal: its make-lint line must fail on it
    rtl = tmp_path / "rtl"
    shutil.copytree(runner.RTL, rtl, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    props = rtl / filelists.PROPS_DIR / "reader_props.sv"
    text = props.read_text()
    at = text.index("\n);", text.index("module reader_props")) + 3
    props.write_text(text[:at] + "\n  logic never_read;\n" + text[at:])
    (args,) = [a for a in lintplan.targets(rtl=rtl) if top_of(a) == "reader_props"]
    out = lint(args)
    assert out.returncode != 0 and "never_read" in out.stderr, out.stderr


@pytest.mark.sim
def test_icarus_compiles_everything(tmp_path):
    runner.check_simulator("icarus")
    out = subprocess.run(
        [
            "iverilog",
            "-g2012",
            "-o",
            str(tmp_path / "all.vvp"),
            *[f"-I{d}" for d in filelists.include_dirs(runner.RTL)],
            *map(str, runner.rtl_sources()),
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0 and not out.stderr.strip(), out.stderr


def lint(args: list[str]) -> subprocess.CompletedProcess[str]:
    runner.check_simulator("verilator")
    return subprocess.run(["verilator", *args], capture_output=True, text=True)


def test_make_lint_covers_every_module_with_and_without_assertions_and_each_foreign_build_by_its_top(
    foreign_build: testplan.PlannedBuild,
) -> None:
    plan = testplan.load()
    targets = lintplan.targets(plan)
    tops = [top_of(a) for a in targets]
    for module in PLAN:  # ours: each module twice, the second time with DLA_ASSERT and the property modules
        ours = [a for a, t in zip(targets, tops) if t == module and str(runner.RTL) in a[-3]]
        assert len(ours) == 2 and "+define+DLA_ASSERT=1" in ours[1] and "--assert" not in ours[0], module
    foreign = foreign_tops(plan)
    assert foreign_build.toplevel in tops
    # a file of a foreign list is no module of its own: byte_dma.sv is linted as byte_dma, the top a build names
    listed = {Path(p).stem for p in runner.design_files(foreign_build.toplevel, foreign_build.options)[0].sources}
    assert foreign_build.toplevel in listed and set(tops) & listed <= foreign, set(tops) & listed


@pytest.mark.sim
def test_the_foreign_builds_lint_clean(foreign_build: testplan.PlannedBuild) -> None:
    lines = [a for a in make_lint_lines() if top_of(a) == foreign_build.toplevel]
    assert lines, foreign_build.name
    for args in lines:
        out = lint(args)
        assert out.returncode == 0 and "%Warning" not in out.stderr, (args, out.stderr)


@pytest.mark.sim
def test_a_builds_lint_waiver_reaches_make_lint(tmp_path):
    (tmp_path / "t.sv").write_text(
        "`timescale 1ns/1ps\nmodule t(input logic [7:0] a, output logic [3:0] y);\n  assign y = a;\nendmodule\n"
    )
    (tmp_path / "t.f").write_text("t.sv\n")

    def plan(waivers: list[str]) -> testplan.Plan:
        raw = {"toplevel": "t", "filelist": str(tmp_path / "t.f"), "properties": "none", "lint_waivers": waivers}
        b = testplan.PlannedBuild("t", "t", {}, None, buildopts.from_plan("t", raw))
        return testplan.Plan({"t": b}, {}, {}, ())

    waived = lintplan.targets(plan(["WIDTHTRUNC", "UNUSEDSIGNAL"]))[-1]
    assert lint(waived).returncode == 0, lint(waived).stderr
    bare = lintplan.targets(plan([]))[-1]
    out = lint(bare)
    assert out.returncode != 0 and "%Warning-WIDTHTRUNC" in out.stderr, out.stderr
