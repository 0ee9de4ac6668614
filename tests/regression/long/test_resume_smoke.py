"""The resume demonstration as a test (``LONG_TESTS=1`` only): the smoke suite with two seeds on Verilator,
uninterrupted and interrupted (SIGINT) then resumed with its printed command, gives the same per-job statuses,
functional coverage and code coverage (:mod:`tests.regression.long.resume_smoke`)."""

from __future__ import annotations

import json

import pytest

from . import resume_smoke

pytestmark = pytest.mark.sim


def test_an_interrupted_smoke_regression_resumed_gives_the_uninterrupted_results_and_coverage(tmp_path):
    assert resume_smoke.main(["all", f"--base={tmp_path}", "--seeds=2", "--jobs=1"]) == 0
    c = json.loads((tmp_path / "comparison.json").read_text())
    assert c["jobs"] > 0 and 0 < c["finished_before_the_interrupt"] < c["jobs"]  # really interrupted part-way
    assert all(c["identical"].values()) and not c["differences"]
