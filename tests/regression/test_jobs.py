"""dlaverif.flow.regression.jobs: the jobs of a suite come from the testplan, seeds and shards are deterministic, shards
partition the jobs and are balanced by the recorded durations. No simulator needed."""

from __future__ import annotations

import pytest

from dlaverif.flow import testplan
from dlaverif.flow.regression import jobs

PLAN = testplan.load()


def test_a_suite_expands_to_every_test_of_every_run_for_every_seed():
    js = jobs.expand(PLAN, "smoke", ["verilator"], [4, 9])
    expected = {(e.run.name, t) for e in PLAN.suite("smoke").runs for t in e.run.expected_tests()}
    assert {(j.run, j.test) for j in js} == expected
    assert len(js) == 2 * len(expected)
    assert {j.seed for j in js} == {4, 9}
    assert js == sorted(js)


def test_counts_come_from_the_suite_unless_a_run_fixes_them():
    js = jobs.expand(PLAN, "nightly", ["verilator"], [1])
    assert {j.count for j in js if j.run == "cr_desc_validator/random"} == {"40"}  # fixed by the suite entry
    assert PLAN.suite("nightly").count not in (8, 40, 3)  # distinct from the others here
    assert {j.count for j in js if j.run == "cube_reader/uvm"} == {str(PLAN.suite("nightly").count)}  # the suite's
    assert {
        j.count for j in jobs.expand(PLAN, "nightly", ["verilator"], [1], count="3") if j.run == "cube_reader/uvm"
    } == {"3"}


def test_tests_filter_matches_run_test_globs_and_plain_names():
    js = jobs.expand(PLAN, "smoke", ["icarus"], [1], tests="axi_rd_engine/directed::stop_*,RegisterTest")
    assert {(j.run, j.test) for j in js} == {
        ("axi_rd_engine/directed", t) for t in ("stop_drains", "stop_with_all_slots_in_flight")
    } | {
        ("cube_reader/uvm", "RegisterTest"),
        ("cube_reader/uvm-fast", "RegisterTest"),
        ("cube_reader/config@one_in_flight_narrow_bus", "RegisterTest"),  # the matrix's smoke corner
        ("weight_reader/uvm", "RegisterTest"),
        ("weight_reader/uvm-fast", "RegisterTest"),
        ("pixel_reader/uvm-short", "RegisterTest"),
        ("pixel_reader/uvm-fast-short", "RegisterTest"),
    }


def test_seeds():
    assert jobs.parse_seeds("3", "", 20) == [1, 2, 3]
    assert jobs.parse_seeds("", "", 20) == list(range(1, 21))
    assert jobs.parse_seeds("5", "7, 11,2", 1) == [7, 11, 2]
    with pytest.raises(ValueError):
        jobs.parse_seeds("", "4,4", 1)
    with pytest.raises(ValueError):
        jobs.parse_seeds("0", "", 1)


def test_shard_parsing():
    assert jobs.parse_shard("2/3") == (2, 3)
    assert jobs.parse_shard("") == (1, 1)
    for bad in ("0/2", "3/2", "1-2", "x"):
        with pytest.raises(ValueError):
            jobs.parse_shard(bad)


def test_shards_partition_the_jobs_deterministically():
    js = jobs.expand(PLAN, "nightly", ["verilator"], [1, 2, 3])
    parts = [jobs.shard(js, i, 4, {}) for i in range(1, 5)]
    assert sorted(j for p in parts for j in p) == js  # every job once
    shuffled = list(reversed(js))
    assert [sorted(jobs.shard(shuffled, i, 4, {})) for i in range(1, 5)] == parts  # order of the input is irrelevant
    assert all(parts)


def test_shards_are_balanced_by_recorded_durations():
    js = [jobs.Job("verilator", "r", f"t{i}", 1, "8") for i in range(6)]
    # one long test and five short ones: the long one gets a shard to itself
    durations = {
        "verilator:r:t0": jobs.Duration(100.0),
        **{f"verilator:r:t{i}": jobs.Duration(10.0) for i in range(1, 6)},
    }
    a, b = jobs.shard(js, 1, 2, durations), jobs.shard(js, 2, 2, durations)
    assert [j.test for j in a] == ["t0"]
    assert [j.test for j in b] == ["t1", "t2", "t3", "t4", "t5"]
