"""desc_validator alone against the reference model (tb/desc_validator/test_validator.py), both simulators."""
from __future__ import annotations

import os

import pytest

from tb import runner

SEEDS = [int(s) for s in (os.getenv("SEEDS") or "1").split(",") if s.strip()]


@pytest.mark.sim
@pytest.mark.parametrize("sim", runner.SIMULATORS)
def test_desc_validator_random(sim: str) -> None:
    b = runner.build(sim, "desc_validator", "validator", {})
    for seed in SEEDS:
        runner.assert_passed(runner.run(b, "tb.desc_validator.test_validator", seed))
