"""dlaverif.flow.regression.fcov: cocotb-coverage databases written by separate processes (as jobs write them) merge
into hits that add up; goals and the testplan's exclusions decide percentages and holes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dlaverif.flow import testplan
from dlaverif.flow.regression import fcov

WRITER = """
import sys
from cocotb_coverage.coverage import CoverPoint, coverage_db, coverage_section
@coverage_section(CoverPoint("blk.mode", xf=lambda v: v, bins=["a", "b", "c", "d"]),
                  CoverPoint("blk.size", xf=lambda v: len(v), bins=[1, 2, 3]))
def sample(v):
    pass
for v in sys.argv[2].split(","):
    sample(v)
coverage_db.export_to_xml(filename=sys.argv[1])
"""


def _db(path: Path, values: str) -> Path:
    subprocess.run([sys.executable, "-c", WRITER, str(path), values], check=True)
    return path


def test_merged_hits_add_up_across_jobs(tmp_path):
    one = _db(tmp_path / "one.xml", "a,a,b")
    two = _db(tmp_path / "two.xml", "b,ccc")
    groups = {g.name: g for g in fcov.covergroups(fcov.merge([two, one], tmp_path / "m.xml"), testplan.CoveragePlan())}
    assert groups["blk.mode"].bins == {"a": 2, "b": 2, "c": 0, "d": 0}
    assert groups["blk.mode"].holes == ["c", "d"]
    assert groups["blk.mode"].percent == 50.0
    assert groups["blk.size"].bins == {"1": 4, "2": 0, "3": 1}
    assert fcov.total(list(groups.values())) == (4, 7)


def test_the_merge_is_independent_of_the_order_of_the_inputs(tmp_path):
    one = _db(tmp_path / "one.xml", "a,dd")
    two = _db(tmp_path / "two.xml", "c")
    a = fcov.merge([one, two], tmp_path / "a.xml").read_text()
    b = fcov.merge([two, one], tmp_path / "b.xml").read_text()
    assert a == b


def test_exclusions_leave_the_denominator_and_goals_apply(tmp_path):
    m = fcov.merge([_db(tmp_path / "one.xml", "a,b,c")], tmp_path / "m.xml")
    plan = testplan.CoveragePlan(
        goals={"default": 100, "blk.size": 50},
        exclusions=(testplan.Exclusion("blk.mode", "d", "unreachable", "no d here"),),
    )
    groups = {g.name: g for g in fcov.covergroups(m, plan)}
    mode, size = groups["blk.mode"], groups["blk.size"]
    assert (mode.covered, mode.size, mode.percent, mode.met) == (3, 3, 100.0, True)
    assert mode.to_dict()["excluded"] == {"d": {"tag": "unreachable", "reason": "no d here"}}
    assert (size.covered, size.size, size.goal, size.met) == (1, 3, 50.0, False)
    assert size.holes == ["2", "3"]


def test_no_databases_merge_to_nothing(tmp_path):
    assert fcov.merge([], tmp_path / "m.xml") is None
    assert fcov.covergroups(None, testplan.CoveragePlan()) == []
