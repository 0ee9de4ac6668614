"""`verilator --lint-only -Wall` over rtl_stubs/ is clean with every module as the top, and Icarus accepts every
file (part of `make test`). One module per file, named as its file: every module is linted as the top with the
first per-top list that compiles it (rtl_stubs/<top>.f: the same plan `make lint` walks), packages excepted."""

import subprocess

import pytest

from tb.flow import filelists, runner

PLAN = dict((module, flist) for flist, module in filelists.lint_plan(runner.RTL))
TOPS = list(PLAN)


def test_every_rtl_file_is_in_a_list_and_every_list_compiles_its_top():
    listed = {p.name for p in runner.rtl_sources()}
    assert listed == {p.name for p in runner.RTL.glob("*.sv")}, (
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
        "cr_job_ctrl",
        "cr_run_walker",
        "cr_atom_assembler",
        "atom_fifo",
        "cr_fp16_scan",
        "job_counters",
    ):
        assert top in TOPS, top
    for path in runner.rtl_sources():
        if path.stem in TOPS:
            text = path.read_text()
            assert text.count("\nmodule ") == 1 and f"\nmodule {path.stem}" in text, path.name
            assert "`timescale" in text, path.name


@pytest.mark.parametrize("top", TOPS)
def test_verilator_lint_clean(top):
    runner.check_simulator("verilator")
    out = subprocess.run(
        ["verilator", "--lint-only", "-Wall", "--timing", "-f", PLAN[top], "--top-module", top],
        cwd=runner.RTL,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0 and "%Warning" not in out.stderr, out.stderr


def test_icarus_compiles_everything(tmp_path):
    runner.check_simulator("icarus")
    out = subprocess.run(
        ["iverilog", "-g2012", "-o", str(tmp_path / "all.vvp"), *map(str, runner.rtl_sources())],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0 and not out.stderr.strip(), out.stderr
