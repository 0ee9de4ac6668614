"""Parameter contracts (blocks/rtl/common/param_contract.sv): an out-of-range parameter on any top stops the
build with the one line ``parameter <NAME> = <value> is outside its contract: <range>`` on Verilator (at
elaboration), Icarus (vvp stops at time 0, before any test) and Yosys (at hierarchy); the defaults elaborate on all
three. The illegal values are drawn from the contracts themselves (dlaverif/flow/contracts.py: just below the minimum,
just above the maximum, or a non-power of two inside the range), from a printed seed; the matrix's legal draws
are checked legal by the same reader, and the flows' own check prints the RTL's line."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from dlaverif import thirdparty
from dlaverif.flow import contracts, filelists, runner, testplan

#: every top of the testplan and the shared blocks that are tops of formal sets or lint
TOPS = (
    "axi_rd_engine",
    "cube_reader",
    "weight_reader",
    "pixel_reader",
    "cr_desc_validator",
    "sdp_ram",
    "sync_fifo",
    "atom_fifo",
    "axil_regs",
)
SEED = int(os.getenv("CONFIG_SEED") or testplan.load().config_seed or 32)
LINT = dict((module, flist) for flist, module in filelists.lint_plan(runner.RTL))


def _illegal(top: str) -> tuple[str, dict[str, int]]:
    line, params = contracts.illegal(top, random.Random(f"{SEED}/{top}/illegal"))
    print(f"CONFIG_SEED={SEED}: {top} {params} -> {line!r}")
    return line, params


def _files(top: str) -> list[Path]:
    return filelists.sources(runner.RTL, Path(LINT[top]).stem)


def _includes(rtl: Path, top: str) -> list[str]:
    """``-I`` options for the include folders of the top's list in ``rtl`` (Icarus and Yosys spell them alike)."""
    return [f"-I{d}" for d in filelists.include_dirs(rtl, Path(LINT[top]).stem)]


def verilator(top: str, params: dict[str, int]) -> subprocess.CompletedProcess:
    runner.check_simulator("verilator")
    gs = [f"-G{k}={v}" for k, v in params.items()]
    cmd = ["verilator", "--lint-only", "-Wno-fatal", "--timing", *gs, "-F", LINT[top], "--top-module", top]
    return subprocess.run(cmd, cwd=runner.RTL, capture_output=True, text=True, env=thirdparty.environment())


def icarus(top: str, params: dict[str, int], tmp: Path) -> subprocess.CompletedProcess:
    runner.check_simulator("icarus")
    ps = [f"-P{top}.{k}={v}" for k, v in params.items()]
    out = tmp / "sim.vvp"
    c = subprocess.run(
        ["iverilog", "-g2012", "-s", top, *ps, "-o", str(out), *_includes(runner.RTL, top), *map(str, _files(top))],
        capture_output=True,
        text=True,
    )
    if c.returncode != 0:
        return c
    return subprocess.run(["vvp", "-n", str(out)], capture_output=True, text=True, timeout=60)


def yosys(top: str, params: dict[str, int], tmp: Path) -> tuple[int, str]:
    """(status, log) of Yosys reading the top's files (deferred), setting ``params`` and elaborating."""
    if shutil.which("yosys") is None:
        pytest.fail("yosys not installed (make setup)")
    from dlaverif.flow.formal import yosys_rewrite

    copy = tmp / "rtl"
    shutil.copytree(runner.RTL, copy)
    yosys_rewrite(copy)
    srcs = " ".join(str(copy / p.relative_to(runner.RTL)) for p in _files(top))
    ch = "".join(f"chparam -set {k} {v} {top}; " for k, v in params.items())
    log = tmp / "yosys.log"
    y = subprocess.run(
        [
            "yosys",
            "-q",
            "-l",
            str(log),
            "-p",
            f"read_verilog -sv -defer {' '.join(_includes(copy, top))} {srcs}; {ch}hierarchy -top {top}",
        ],
        capture_output=True,
        text=True,
    )
    return y.returncode, log.read_text() if log.exists() else y.stdout + y.stderr


@pytest.mark.parametrize("top", TOPS)
def test_contracts_are_stated(top):
    # every top states at least one contract, each names a parameter of its header
    cs = contracts.contracts(top)
    assert cs, f"{top} states no parameter contract"
    names = {n for n, _ in contracts.default_expressions(top)}
    assert {c.name for c in cs} <= names, f"{top}: a contract names no header parameter"
    assert not contracts.violations(top), f"{top}: its defaults break its own contract"


@pytest.mark.sim
@pytest.mark.parametrize("top", TOPS)
def test_verilator_refuses_an_illegal_parameter(top):
    line, params = _illegal(top)
    bad = verilator(top, params)
    assert bad.returncode != 0, f"Verilator accepted {params}"
    hits = [x for x in bad.stderr.splitlines() if line in x]
    assert len(hits) == 1, f"want one line {line!r}, got:\n{bad.stderr[-3000:]}"
    ok = verilator(top, {})
    assert ok.returncode == 0, ok.stderr[-3000:]


@pytest.mark.sim
@pytest.mark.parametrize("top", TOPS)
def test_icarus_refuses_an_illegal_parameter(top):
    line, params = _illegal(top)
    with tempfile.TemporaryDirectory() as tmp:
        bad = icarus(top, params, Path(tmp))
        text = bad.stdout + bad.stderr
        assert bad.returncode != 0, f"Icarus accepted {params}:\n{text[-2000:]}"
        # Icarus runs every initial block: the top's line comes first; a value passed down to a block with a
        # contract of its own (a reader's AXI_ADDR_W as the engine's ADDR_W, sync_fifo's W as sdp_ram's) adds that
        # block's line, with the same value
        lines = [x for x in text.splitlines() if "outside its contract" in x]
        value = f" = {next(iter(params.values()))} is outside"
        assert lines and lines[0] == line and all(value in x for x in lines), f"want {line!r}, got:\n{text[-3000:]}"
        ok = icarus(top, {}, Path(tmp))
        assert ok.returncode == 0 and "outside its contract" not in ok.stdout, ok.stdout[-2000:] + ok.stderr


@pytest.mark.sim
@pytest.mark.parametrize("top", TOPS)
def test_yosys_refuses_an_illegal_parameter(top):
    line, params = _illegal(top)
    with tempfile.TemporaryDirectory() as tmp:
        status, log = yosys(top, params, Path(tmp) / "bad")
        assert status != 0, f"Yosys accepted {params}"
        assert line in log and "ERROR" in log, f"want {line!r}, got:\n{log[-3000:]}"
        status, log = yosys(top, {}, Path(tmp) / "ok")
        assert status == 0, log[-3000:]


def test_every_planned_configuration_is_legal_and_the_contracts_refuse_illegal_draws():
    plan = testplan.load()
    assert plan.configs, "the testplan has no configuration matrix"
    for cfg in plan.configs.values():
        assert not contracts.violations(cfg.top, cfg.parameters), cfg.key
    rng = random.Random(SEED)
    for top in {c.top for c in plan.configs.values()}:
        for _ in range(20):
            line, params = contracts.illegal(top, rng)
            assert line in contracts.violations(top, params), (top, params)  # a dependent default may add its own
            legal = contracts.draw(top, rng)
            assert not contracts.violations(top, legal), (top, legal)
