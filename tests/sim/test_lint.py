"""`verilator --lint-only -Wall` over rtl_stubs/ is clean with every module as the top, and Icarus accepts every
file (part of `make test`). One module per file, named as its file: the tops are the files of files.f (the same
list `make lint` walks), packages excepted."""
import subprocess

import pytest

from tb.flow import runner

TOPS = [p.stem for p in runner.rtl_sources() if not p.stem.endswith("_pkg")]


def test_tops_are_the_modules_of_files_f():
    # one module per file, named as its file; the readers and their parts are all linted
    for top in ("cube_reader", "desc_validator", "axi_rd_engine", "axil_regs", "cr_job_ctrl", "cr_run_walker",
                "cr_atom_assembler", "cr_atom_fifo", "cr_fp16_scan", "cr_counters"):
        assert top in TOPS, top
    for path in runner.rtl_sources():
        if path.stem in TOPS:
            text = path.read_text()
            assert text.count("\nmodule ") == 1 and f"\nmodule {path.stem}" in text, path.name
            assert "`timescale" in text, path.name


@pytest.mark.parametrize("top", TOPS)
def test_verilator_lint_clean(top):
    runner.check_simulator("verilator")
    out = subprocess.run(["verilator", "--lint-only", "-Wall", "--timing", "-f", "files.f", "--top-module", top],
                         cwd=runner.RTL, capture_output=True, text=True)
    assert out.returncode == 0 and "%Warning" not in out.stderr, out.stderr


def test_icarus_compiles_everything(tmp_path):
    runner.check_simulator("icarus")
    out = subprocess.run(["iverilog", "-g2012", "-o", str(tmp_path / "all.vvp"), *map(str, runner.rtl_sources())],
                         capture_output=True, text=True)
    assert out.returncode == 0 and not out.stderr.strip(), out.stderr
