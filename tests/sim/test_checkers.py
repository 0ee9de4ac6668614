"""The shared checkers and analysis plumbing without a simulator: the AXI read checker's protocol and footprint
rules over named regions, the stall-pattern convention, and the JobLog subscriber. Oracles are hand-written
addresses and patterns."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from dlaverif.agents import stalls
from dlaverif.agents.analysis import AnalysisPort, JobLog
from dlaverif.agents.axi_mem import Burst
from dlaverif.checkers.axi_read import AxiReadChecker
from dlaverif.footprint import Region, words_of_runs

BW = 32  # 256-bit bus


def ar(addr: int, beats: int, size: int = 5, burst: int = 1) -> Burst:
    return Burst(0, addr, beats - 1, size, burst, cycle=7)


def test_protocol_rules_4kb_arsize_incr():
    c = AxiReadChecker(BW)
    c.write(ar(0x0FE0, 1))  # last word of a page: fine
    c.write(ar(0x1000, 128))  # a whole page: fine
    assert c.take() == []
    c.write(ar(0x0FE0, 2))  # crosses 0x1000
    c.write(ar(0x2000, 1, size=4))  # 16-byte beats on a 32-byte bus
    c.write(ar(0x3000, 1, burst=2))  # WRAP
    v = c.take()
    assert len(v) == 3
    assert "crosses a 4 KB boundary" in v[0] and "0xfe0" in v[0]
    assert "ARSIZE 4" in v[1] and "ARBURST 2" in v[2]


def test_footprint_over_several_named_regions():
    c = AxiReadChecker(BW)
    c.expect([Region("wgs", 0x1000, 0x1010), Region("wmb", 0x2000, 0x2080), Region("weights", 0x3000, 0x3100)])
    c.write(ar(0x1000, 1))  # the WGS word
    c.write(ar(0x2000, 4))  # all of WMB
    c.write(ar(0x3000, 8))  # all of the weights
    assert c.take() == []
    c.write(ar(0x2060, 2))  # one word past WMB's end
    v = c.take()
    assert len(v) == 1 and "outside the job's surfaces" in v[0] and "first at 0x2080" in v[0] and "wmb" in v[0]


def test_strict_region_words_reject_a_gap_word():
    atoms = np.array([0x1000, 0x1040])  # two 32-byte atoms with a one-word gap
    words = words_of_runs(atoms, 32, BW)
    assert words.tolist() == [0x80, 0x82]
    c = AxiReadChecker(BW)
    c.expect([Region("cube", 0x1000, 0x1060, words)])
    c.write(ar(0x1000, 1))
    c.write(ar(0x1040, 1))
    assert c.take() == []
    c.write(ar(0x1000, 3))  # reads the gap word 0x1020
    v = c.take()
    assert len(v) == 1 and "hold no byte the job needs, first at 0x1020" in v[0]


def test_no_read_for_an_illegal_job_nor_after_the_last_job():
    c = AxiReadChecker(BW)
    seen = []
    c.violation_ap.connect(type("S", (), {"write": lambda self, t: seen.append(t)})())
    c.expect_none()
    c.write(ar(0x1000, 1))
    c.expect([Region("cube", 0x1000, 0x2000)])
    c.write(ar(0x1000, 1))
    c.close()
    c.write(ar(0x1000, 1))
    assert len(seen) == 2 and "must not touch memory" in seen[0] and "after the last job" in seen[1]
    assert c.take() == seen


def test_words_of_runs_multi_word_atoms_and_unaligned_starts():
    assert words_of_runs(np.array([0x1010]), 64, BW).tolist() == [0x80, 0x81, 0x82]
    assert words_of_runs(np.array([], np.int64), 64, BW).tolist() == []


def test_stall_profiles_mean_stall_and_are_reproducible():
    assert list(itertools.islice(stalls.profile("every4", np.random.default_rng(0)), 8)) == [1, 0, 0, 0] * 2
    assert list(itertools.islice(stalls.profile("quarter", np.random.default_rng(0)), 4)) == [0, 0, 0, 1]
    assert stalls.profile("none", np.random.default_rng(0)) is None
    a = list(itertools.islice(stalls.profile("random", np.random.default_rng(5)), 4000))
    b = list(itertools.islice(stalls.profile("random", np.random.default_rng(5)), 4000))
    assert a == b and 0.25 < sum(a) / len(a) < 0.35
    burst = list(itertools.islice(stalls.profile("bursty", np.random.default_rng(1)), 2000))
    runs = [len(list(g)) for k, g in itertools.groupby(burst) if k == 1]
    assert max(runs) <= 6 and set(burst) == {0, 1}
    with pytest.raises(ValueError):
        stalls.profile("sometimes", np.random.default_rng(0))


def test_the_held_profile_stalls_its_first_cycles_only_and_is_never_drawn():
    rng = np.random.default_rng(3)
    held = list(itertools.islice(stalls.profile("held", rng), stalls.HELD_CYCLES + 100))
    assert held == [1] * stalls.HELD_CYCLES + [0] * 100
    assert rng.integers(1 << 32) == np.random.default_rng(3).integers(1 << 32)  # no draw from the TB's RNG
    assert "held" not in stalls.PROFILES  # random knobs and the stall covergroups' bins stay as they were


def test_joblog_keeps_each_port_until_take_and_merges_shared_names():
    a, b, v1, v2 = AnalysisPort("a"), AnalysisPort("b"), AnalysisPort("v1"), AnalysisPort("v2")
    log = JobLog(a=a, b=b)
    log.listen("violations", v1)
    log.listen("violations", v2)
    a.write(1)
    b.write("x")
    v1.write("bad1")
    v2.write("bad2")
    assert log.take() == {"a": [1], "b": ["x"], "violations": ["bad1", "bad2"]}
    assert log.take() == {"a": [], "b": [], "violations": []}
    with pytest.raises(TypeError):
        a.connect(object())


def test_region_words_out_of_contract_still_catch_a_gap_word():
    """Region words repeated (against the sorted-unique contract): the checker's bisect shortcut must not clear a
    burst over the gap word 0x81; the numpy path judges it."""
    c = AxiReadChecker(BW)
    c.expect([Region("cube", 0x1000, 0x1060, np.array([0x80, 0x80, 0x82], np.int64))])
    c.write(ar(0x1000, 3))
    v = c.take()
    assert len(v) == 1 and "hold no byte the job needs, first at 0x1020" in v[0]


def test_words_of_runs_above_2_63():
    """AXI_ADDR_W 64 puts surfaces at or above 2**63: word indices from the unsigned address, never a wrapped one."""
    top = np.array([(1 << 64) - 64], np.uint64)
    assert words_of_runs(top, 64, BW).tolist() == [(1 << 59) - 2, (1 << 59) - 1]
    assert words_of_runs(np.array([(1 << 63) + 0x10]), 64, BW).tolist() == [1 << 58, (1 << 58) + 1, (1 << 58) + 2]
    with pytest.raises(ValueError, match="negative addresses"):
        words_of_runs(np.array([-32], np.int64), 32, BW)
    c = AxiReadChecker(BW)
    c.expect([Region("weight", (1 << 64) - 64, 1 << 64, words_of_runs(top, 64, BW))])
    c.write(ar((1 << 64) - 64, 2))
    assert c.take() == []
