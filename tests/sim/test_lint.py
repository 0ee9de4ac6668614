"""`verilator --lint-only -Wall` over rtl_stubs/ is clean, and Icarus accepts every file (part of `make test`)."""
import subprocess

import pytest

from tb import runner

TOPS = ("cube_reader", "desc_validator", "axi_rd_engine")


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
