"""tb/testplan.yaml is consistent: every test of every run's module is in a testpoint, every testpoint has a test,
every name it uses exists (tests, runs, builds, suites, covergroups). No simulator needed."""
from __future__ import annotations

import pytest
from cocotb_coverage.coverage import coverage_db

from tb import testplan
from tb.cube_reader import coverage as cube_cov
from tb.cube_reader.families import available_families


def covergroup_names() -> set[str]:
    cube_cov._build(available_families())
    return {name for name in coverage_db if name.count(".") == 1}


def test_the_plan_has_no_problems():
    plan = testplan.load()
    assert testplan.problems(plan, covergroup_names()) == []


def test_the_self_check_fails_on_an_unplanned_test_and_an_empty_testpoint(tmp_path):
    text = testplan.PLAN_PATH.read_text()
    # drop the only testpoint of the validator test, and add a testpoint with no test
    text = text.replace('tests: ["desc_validator.test_validator::random_descriptors_match_the_model"]', "tests: []")
    text = text.replace("testpoints:\n", "testpoints:\n  - {name: orphan, tests: [\"cube_reader.tests::NoSuchTest\"]}\n", 1)
    p = tmp_path / "plan.yaml"
    p.write_text(text)
    probs = testplan.problems(testplan.load(p))
    assert "test desc_validator.test_validator::random_descriptors_match_the_model is in no testpoint" in probs
    assert "testpoint validator_alone has no test" in probs
    assert "testpoint orphan names cube_reader.tests::NoSuchTest, which no run's module defines" in probs


def test_a_run_subset_naming_a_missing_test_is_reported(tmp_path):
    text = testplan.PLAN_PATH.read_text().replace("tests: [packed_nvdla_int8,", "tests: [packed_nvdla_int8_renamed,")
    p = tmp_path / "plan.yaml"
    p.write_text(text)
    probs = testplan.problems(testplan.load(p))
    assert any("packed_nvdla_int8_renamed" in x and "does not define" in x for x in probs), probs


def test_module_tests_finds_cocotb_and_pyuvm_tests():
    assert "bus_utilization" in testplan.module_tests("tb.cube_reader.test_directed")
    assert "RandomCubeTest" in testplan.module_tests("tb.cube_reader.tests")
    assert "_OneCube" not in testplan.module_tests("tb.cube_reader.tests")


@pytest.mark.parametrize("name", testplan.SUITE_NAMES)
def test_every_suite_has_runs(name):
    assert testplan.load().suite(name).runs
