"""The rerun command a failing test prints (dlaverif/platform/reporting.py) names the parameters of the build it ran on,
whatever the block calls them (the flow passes each as ``PARAM_<name>``): no parameter name of ours is looked for."""

from __future__ import annotations

import os

import cocotb
import pytest

from dlaverif.flow import testplan
from dlaverif.platform import reporting


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for k in list(os.environ):
        if k.startswith("PARAM_") or k in (
            "COUNT",
            "COUNT_SCALE",
            "LARGE",
            "PLAN_SUITE",
            "PLAN_RUN",
            "CONFIG_SEED",
            "SUITE",
            "RUN",
        ):
            monkeypatch.delenv(k)
    monkeypatch.setenv("COCOTB_RANDOM_SEED", "7")
    monkeypatch.setattr(cocotb, "SIM_NAME", "Icarus Verilog", raising=False)  # set by cocotb inside a simulator
    return monkeypatch


def test_a_foreign_builds_parameters_are_in_the_rerun_command(env: pytest.MonkeyPatch) -> None:
    env.setenv("PARAM_EARLY_FIN", "1")
    env.setenv("PARAM_DW", "128")
    env.setenv("PLAN_SUITE", "smoke")
    env.setenv("PLAN_RUN", "pin_dma/early-fin-issued")
    cmd = reporting.reproduce_command()
    assert cmd.startswith("make sim SUITE=smoke RUN=pin_dma/early-fin-issued SIM=icarus "), cmd
    assert "SEED=7" in cmd and cmd.endswith("(the build with DW=128, EARLY_FIN=1)"), cmd


def test_a_build_at_its_defaults_prints_no_parameters(env: pytest.MonkeyPatch) -> None:
    cmd = reporting.reproduce_command()
    assert "build with" not in cmd and cmd.endswith("SEED=7"), cmd


def test_a_configuration_tests_rerun_command_rebuilds_that_configuration(env: pytest.MonkeyPatch) -> None:
    """Every run of the configuration matrix carries its suite, run and (a random draw) its CONFIG_SEED, so the
    command a failing test prints selects exactly that configuration's build (``make sim`` builds it)."""
    plan = testplan.load()
    entries = {e.run.name: e for e in plan.suite(testplan.CONFIG_SUITE).runs}
    cfg = next(c for c in plan.configs.values() if c.kind == "random")
    for k, v in {**entries[cfg.run].environment(3), "PARAM_AXI_ADDR_W": "12"}.items():
        env.setenv(k, v)
    cmd = reporting.reproduce_command()
    assert cmd.startswith(f"make sim SUITE=configs RUN={cfg.run} SIM=icarus "), cmd
    assert f"CONFIG_SEED={cfg.seed}" in cmd and "(the build with AXI_ADDR_W=12)" in cmd, cmd
    assert testplan.select(plan, "configs", cfg.run)[0][0].run.build.parameters == cfg.parameters


def test_the_suite_and_run_a_make_command_selected_are_in_the_rerun_command(env: pytest.MonkeyPatch) -> None:
    """``make sim SUITE=drained`` (make exports SUITE and RUN to the simulation): the rerun line names them without a
    PLAN_SUITE or PLAN_RUN set by hand; a plan entry's own PLAN_RUN still wins."""
    env.setenv("SUITE", "drained")
    cmd = reporting.reproduce_command()
    assert cmd.startswith("make sim SUITE=drained SIM=icarus TESTCASE="), cmd
    env.setenv("RUN", "stream_dma/drained")
    assert reporting.reproduce_command().startswith("make sim SUITE=drained RUN=stream_dma/drained SIM=icarus "), cmd
    env.setenv("PLAN_RUN", "stream_dma/other")
    assert " RUN=stream_dma/other " in reporting.reproduce_command()
