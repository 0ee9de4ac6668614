"""The rerun command a failing test prints (tb/platform/reporting.py) names the parameters of the build it ran on,
whatever the block calls them (the flow passes each as ``PARAM_<name>``): no parameter name of ours is looked for."""

from __future__ import annotations

import os

import cocotb
import pytest

from tb.platform import reporting


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for k in list(os.environ):
        if k.startswith("PARAM_") or k in ("COUNT", "COUNT_SCALE", "LARGE", "PLAN_SUITE", "PLAN_RUN"):
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
