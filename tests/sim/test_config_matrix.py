"""The configuration matrix (blocks/plan.yaml ``configs:``, expanded by dlaverif/flow/testplan.py from the RTL's
parameter contracts): every contracted parameter of every matrix top at its minimum and maximum (or waived with a
reason), random draws that follow CONFIG_SEED, illegal configurations refused, the rerun command of a configuration, and
the datasheets' generated parameter blocks up to date."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import yaml

from dlaverif import thirdparty
from dlaverif.flow import contracts, filelists, lintplan, runner, testplan
from tests import plancopy


@pytest.fixture(scope="module")
def plan() -> testplan.Plan:
    return testplan.load()


def test_every_parameter_extreme_is_built_or_waived(plan):
    tops = {c.top for c in plan.configs.values()}
    assert {"axi_rd_engine", "cube_reader", "weight_reader", "pixel_reader"} <= tops
    for top in tops:
        names = {c.name for c in plan.configs.values() if c.top == top}
        for corner in contracts.corners(top):
            key = f"{top}@{corner}"
            assert corner in names or plan.config_waivers.get(key), f"{key} neither built nor waived"
    assert all(len(reason) > 20 for reason in plan.config_waivers.values())


def test_each_configuration_has_a_build_and_a_run_in_the_configs_suite(plan):
    suite = {e.run.name for e in plan.suite(testplan.CONFIG_SUITE).runs}
    for cfg in plan.configs.values():
        assert cfg.run in suite, cfg.key
        run = plan.runs[cfg.run]
        assert run.build.parameters == cfg.parameters and run.build.toplevel == cfg.top
    smoke = {e.run.name for e in plan.suite("smoke").runs}
    assert "axi_rd_engine/config-a12-dw1024" in smoke, (
        "the width bug's configuration (ADDR_W 12, DATA_W 1024) left the smoke suite"
    )
    assert any("@" in name for name in smoke), "no matrix configuration in the smoke suite"


def test_random_draws_follow_the_seed(monkeypatch):
    monkeypatch.setenv(testplan.CONFIG_SEED_VAR, "7")
    a = testplan.load()
    monkeypatch.setenv(testplan.CONFIG_SEED_VAR, "8")
    b = testplan.load()
    ra = {k: c.parameters for k, c in a.configs.items() if c.kind == "random"}
    rb = {k: c.parameters for k, c in b.configs.items() if c.kind == "random"}
    assert ra and all(k.split("@")[1].startswith("r7_") for k in ra)
    assert list(ra.values()) != list(rb.values())
    monkeypatch.setenv(testplan.CONFIG_SEED_VAR, "7")
    assert {k: c.parameters for k, c in testplan.load().configs.items() if c.kind == "random"} == ra
    cfg = next(c for c in a.configs.values() if c.kind == "random")
    assert cfg.rerun("icarus", 5) == f"make sim SIM=icarus SUITE=configs RUN={cfg.run} SEED=5 CONFIG_SEED=7"


def test_an_illegal_configuration_in_the_plan_is_refused(tmp_path: Path):
    raw = plancopy.merged()
    raw["configs"]["tops"]["axi_rd_engine"]["corners"]["too_wide"] = {"DATA_W": 2048}
    bad = tmp_path / "plan.yaml"
    bad.write_text(yaml.safe_dump(raw))
    with pytest.raises(ValueError, match=r"parameter DATA_W = 2048 is outside its contract: 64\.\.1024"):
        testplan.load(bad)


def test_the_datasheets_parameter_blocks_are_generated():
    assert not contracts.docs_problems(), "run: python -m dlaverif.flow.contracts --docs"


def _lint_params() -> list:
    plan = testplan.load()
    return [pytest.param(c, id=c.key) for c in plan.configs.values()]


@pytest.mark.sim
@pytest.mark.parametrize("cfg", _lint_params())
def test_lint_clean_at_the_configuration(cfg):
    """``verilator --lint-only -Wall`` of the top at the configuration, with its assertions bound (DLA_ASSERT): a
    width that only breaks away from the defaults (a truncated constant, a port of the property bundle) is found
    here before any simulation. UNUSEDSIGNAL is off: narrow configurations leave high bits of wide registers
    unused by design (the engine's to4k above a 10-bit burst count at ADDR_W 12, the pixel reader's 32-bit strides
    above AXI_ADDR_W); make lint keeps it on at the defaults. The flags are make lint's (``lintplan.COMMON``),
    coverage flags of the nightly's builds included: they keep a branch that a parameter makes constant and warn
    about it, where a plain lint folds it silently - the nightly of 2026-11-27 lost its build at the draw
    r20261127_1 (255 reads in flight: ``32'(n_reg) <= LIMIT`` in axi4_read_master_props, CMPCONST) while this
    lint passed every corner."""
    runner.check_simulator("verilator")
    props = Path(filelists.PROPS_DIR) / filelists.PROPS_LIST  # with its include folders (blocks/rtl/common/)
    gs = [f"-G{k}={v}" for k, v in cfg.parameters.items()]
    cmd = ["verilator", *lintplan.COMMON, "-Wno-UNUSEDSIGNAL", "--assert", "+define+DLA_ASSERT", "+incdir+props", *gs]
    flist = filelists.top_list(runner.RTL, cfg.top)
    assert flist is not None, f"{cfg.top} has no list in blocks/rtl/"
    cmd += ["-F", str(flist.relative_to(runner.RTL)), "-F", str(props), "--top-module", cfg.top]
    out = subprocess.run(cmd, cwd=runner.RTL, capture_output=True, text=True, env=thirdparty.environment())
    assert out.returncode == 0 and "%Warning" not in out.stderr, f"{cfg.key}:\n{out.stderr[-3000:]}"


def test_the_nightly_runs_the_random_draws_of_its_seed(monkeypatch):
    """configs.nightly: random -- the nightly suite holds every random draw of the seed it was loaded with (and no
    corner: the corners are the configs suite's), each carrying that CONFIG_SEED for its rerun command."""
    monkeypatch.delenv(testplan.CONFIG_SEED_VAR, raising=False)
    night = testplan.load(config_seed=20261126)
    assert night.nightly_draws
    drawn = {c.run for c in night.configs.values() if c.kind == "random"}
    assert len(drawn) == 2 * len({c.top for c in night.configs.values()})  # configs.random: 2 per top
    in_nightly = {e.run.name: e for e in night.suite(testplan.NIGHTLY_SUITE).runs if "@" in e.run.name}
    assert set(in_nightly) == drawn and all("@r20261126_" in r for r in drawn)
    assert {e.env[testplan.CONFIG_SEED_VAR] for e in in_nightly.values()} == {"20261126"}
    other = testplan.load(config_seed=7)
    assert {e.run.name for e in other.suite("nightly").runs if "@" in e.run.name}.isdisjoint(in_nightly)


def test_a_nightly_without_config_seed_draws_from_the_date(monkeypatch, capsys):
    """make regress SUITE=nightly draws its configurations from the night's date and prints the seed; a given
    CONFIG_SEED, or another suite, keeps its draws."""
    import datetime

    from dlaverif.flow.regression.__main__ import draw_tonight

    monkeypatch.delenv(testplan.CONFIG_SEED_VAR, raising=False)
    assert draw_tonight("smoke", datetime.date(2026, 11, 26)) is None
    assert testplan.CONFIG_SEED_VAR not in os.environ
    assert draw_tonight("nightly", datetime.date(2026, 11, 26)) == 20261126
    assert os.environ[testplan.CONFIG_SEED_VAR] == "20261126"
    assert "CONFIG_SEED=20261126" in capsys.readouterr().out
    monkeypatch.setenv(testplan.CONFIG_SEED_VAR, "5")
    assert draw_tonight("nightly", datetime.date(2026, 11, 27)) is None


def test_a_bad_nightly_key_is_refused(tmp_path):
    raw = plancopy.merged()
    raw["configs"]["nightly"] = "corners"
    bad = tmp_path / "plan.yaml"
    bad.write_text(yaml.safe_dump(raw))
    with pytest.raises(ValueError, match="configs.nightly: 'corners'; allowed: random"):
        testplan.load(bad)
