"""blocks/plan.yaml is consistent: every test of every run's module is in a testpoint, every testpoint has a test,
every name it uses exists (tests, runs, builds, suites, covergroups). No simulator needed."""

from __future__ import annotations

import dataclasses

import pytest
import yaml
from cocotb_coverage.coverage import coverage_db

from blocks.cube_reader import coverage as cube_cov
from blocks.cube_reader.families import available_families
from blocks.nvdla_cdma import coverage as cdma_cov  # noqa: F401  (its covergroups register on import)
from blocks.pdp_rdma import env as pdp_env
from blocks.pixel_reader import coverage as pixel_cov
from blocks.weight_reader import coverage as weight_cov
from dlaverif.flow import filelists, testplan
from tests import plancopy


def covergroup_names() -> set[str]:
    cube_cov._build(available_families())
    weight_cov._build()
    pixel_cov._build()
    pdp_env.PdpCoverage.covergroups(pdp_env.BINDING.control.groups)  # type: ignore[union-attr]  # a CsbControl
    return {name for name in coverage_db if name.count(".") == 1}


def test_the_plan_has_no_problems():
    plan = testplan.load()
    assert testplan.problems(plan, covergroup_names()) == []


TOY_MODULE = """
import cocotb
import pyuvm


@cocotb.test()
async def first(dut):
    pass


@cocotb.test()
async def second(dut):
    pass


@pyuvm.test()
class UvmTest(pyuvm.uvm_test):
    pass


class _Helper(pyuvm.uvm_test):
    pass
"""


def toy_plan(tmp_path, monkeypatch, edit=None) -> testplan.Plan:
    """A plan of a block the flow has never seen (its own module of tests, build, runs and suites), edited by
    ``edit(raw)``: the mechanism under test, with no block of ours named."""
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "toy_block_tests.py").write_text(TOY_MODULE)
    raw = {
        "builds": {"toy": {"toplevel": "toy_top", "parameters": {"WIDTH": 8}}},
        "runs": {
            "toy/all": {"build": "toy", "module": "toy_block_tests"},
            "toy/some": {"build": "toy", "module": "toy_block_tests", "tests": ["first"]},
        },
        "suites": {n: {"runs": ["toy/all", "toy/some"]} for n in testplan.SUITE_NAMES},
        "testpoints": [
            {"name": "basics", "tests": ["toy_block_tests::first", "toy_block_tests::second"]},
            {"name": "uvm", "tests": ["toy_block_tests::UvmTest"]},
        ],
    }
    if edit is not None:
        edit(raw)
    p = tmp_path / "plan.yaml"
    p.write_text(yaml.safe_dump(raw))
    return testplan.load(p)


def test_a_consistent_plan_of_any_block_has_no_problems(tmp_path, monkeypatch):
    plan = toy_plan(tmp_path, monkeypatch)
    assert testplan.problems(plan) == []
    assert plan.runs["toy/some"].expected_tests() == {"first"}
    assert plan.builds["toy"].parameters == {"WIDTH": 8} and plan.builds["toy"].rtl is None


def test_the_self_check_fails_on_an_unplanned_test_and_an_empty_testpoint(tmp_path, monkeypatch):
    def edit(raw):
        raw["testpoints"][1]["tests"] = []  # UvmTest is now in no testpoint, and "uvm" has no test
        raw["testpoints"].append({"name": "orphan", "tests": ["toy_block_tests::NoSuchTest"]})

    probs = testplan.problems(toy_plan(tmp_path, monkeypatch, edit))
    assert "test toy_block_tests::UvmTest is in no testpoint" in probs
    assert "testpoint uvm has no test" in probs
    assert "testpoint orphan names toy_block_tests::NoSuchTest, which no run's module defines" in probs
    assert len(probs) == 3, probs


def test_a_run_subset_naming_a_missing_test_is_reported(tmp_path, monkeypatch):
    def edit(raw):
        raw["runs"]["toy/some"]["tests"] = ["first_renamed"]

    probs = testplan.problems(toy_plan(tmp_path, monkeypatch, edit))
    assert probs == ["run toy/some lists first_renamed, which toy_block_tests does not define"], probs


def test_a_run_in_no_suite_and_a_missing_suite_are_reported(tmp_path, monkeypatch):
    def edit(raw):
        raw["runs"]["toy/unused"] = {"build": "toy", "module": "toy_block_tests"}
        del raw["suites"]["nightly"]

    probs = testplan.problems(toy_plan(tmp_path, monkeypatch, edit))
    assert probs == ["run toy/unused is in no suite", "suite nightly is missing"], probs


def test_a_testpoint_the_nightly_never_runs_is_reported(tmp_path, monkeypatch):
    """The nightly is the sign-off suite: a testpoint none of whose tests it runs is a plan problem (the Icarus
    nightly of 2026-11-27 reported foreign_reader as untested); one of its tests in the nightly is enough."""

    def edit(raw):
        raw["suites"]["nightly"]["runs"] = ["toy/some"]  # runs `first` only: `uvm` (UvmTest) is never run

    probs = testplan.problems(toy_plan(tmp_path, monkeypatch, edit))
    assert probs == ["testpoint uvm has no test in suite nightly"], probs


def test_module_tests_finds_cocotb_and_pyuvm_tests(tmp_path, monkeypatch):
    toy_plan(tmp_path, monkeypatch)
    assert testplan.module_tests("toy_block_tests") == ("first", "second", "UvmTest")


DATA_MODULE = """
import cocotb

# tests made by a call at import, from data (as dlaverif.platform.declare makes them): no def in the source names them
for _name in ("made_one", "made_two"):
    async def _body(dut):
        pass
    globals()["__" + _name] = cocotb.test(name=_name)(_body)


@cocotb.test()
@cocotb.parametrize(width=[8, 16])
async def swept(dut, width):
    pass
"""


def test_module_tests_finds_tests_declared_as_data_by_the_name_cocotb_runs(tmp_path, monkeypatch):
    # the flow asks the imported module, as cocotb's discovery does: a test made by a call is found; a parametrized
    # test is one name (cocotb runs it as swept/width=8, swept/width=16; the plan names the test)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "toy_data_tests.py").write_text(DATA_MODULE)
    assert testplan.module_tests("toy_data_tests") == ("made_one", "made_two", "swept")


def test_a_test_module_that_does_not_import_is_one_line(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "toy_broken_tests.py").write_text("import cocotb\nraise ValueError('COMPLETION=sometimes:\\n no')\n")
    with pytest.raises(ValueError) as exc:
        testplan.module_tests("toy_broken_tests")
    assert str(exc.value) == "test module toy_broken_tests cannot be imported: ValueError: COMPLETION=sometimes: no"
    with pytest.raises(ValueError, match="test module toy_no_such_tests cannot be imported: ModuleNotFoundError"):
        testplan.module_tests("toy_no_such_tests")


def test_a_run_whose_module_does_not_import_is_a_selection_error_naming_the_run(tmp_path, monkeypatch):
    # make sim / make regress print it as their one line and exit 2, before any build
    def edit(raw):
        raw["runs"]["toy/broken"] = {"build": "toy", "module": "toy_refusing_tests"}
        raw["suites"]["sim"]["runs"].append("toy/broken")

    plan = toy_plan(tmp_path, monkeypatch, edit)
    (tmp_path / "toy_refusing_tests.py").write_text("raise ValueError('COMPLETION=sometimes: not a completion')\n")
    assert [e.run.name for e, _ in testplan.select(plan, "sim", "toy/all")] == ["toy/all"]  # not imported unless run
    with pytest.raises(testplan.SelectionError) as exc:
        testplan.select(plan, "sim")
    assert exc.value.variable == "RUN"
    assert str(exc.value) == (
        "run toy/broken: test module toy_refusing_tests cannot be imported: ValueError: COMPLETION=sometimes: not a "
        "completion"
    )


@pytest.mark.parametrize("name", testplan.SUITE_NAMES)
def test_every_suite_has_runs(name):
    assert testplan.load().suite(name).runs


# our blocks' content: the exclusions and waivers name our covergroups and blocks/rtl/ files
def test_coverage_exclusions_and_waivers_need_a_known_tag_a_reason_and_existing_names(tmp_path):
    raw = plancopy.merged()
    raw["coverage"]["exclusions"] = [
        {"covergroup": "cube_reader.count_n", "bin": "max", "tag": "unreachable", "reason": "65535 batches need 64 GB"},
        {"covergroup": "cube_reader.count_n", "bin": "1024-65534", "tag": "wontfix", "reason": "slow"},
        {"covergroup": "cube_reader.latency", "bin": "long", "tag": "low_risk"},
        {"covergroup": "cube_reader.nosuch", "bin": "x", "tag": "unsupported", "reason": "gone"},
    ]
    raw["coverage"]["code_waivers"] = [
        {"file": "cube_reader.sv", "lines": [10, 12], "tag": "unreachable", "reason": "default arm of a full case"},
        {"file": "nosuch.sv", "lines": 3, "tag": "low_risk", "reason": "x"},
        {"file": "cr_desc_validator.sv", "match": "endcase", "tag": "low_risk", "reason": "matches several lines"},
        {"file": "cr_desc_validator.sv", "match": "default: state <= S_IDLE;", "tag": "unreachable", "reason": "arm"},
    ]
    text = yaml.safe_dump(raw)
    p = tmp_path / "plan.yaml"
    p.write_text(text)
    plan = testplan.load(p)
    probs = testplan.problems(plan, covergroup_names())
    assert (
        "exclusion cube_reader.count_n/1024-65534 has tag 'wontfix', not one of unreachable, unsupported, low_risk"
        in probs
    )
    assert "exclusion cube_reader.latency/long gives no reason" in probs
    assert "exclusion names covergroup cube_reader.nosuch, which no coverage model defines" in probs
    assert any(p.startswith("code waiver names nosuch.sv, which code coverage does not score") for p in probs), probs
    assert any(p.startswith("code waiver of cr_desc_validator.sv matches") and "'endcase'" in p for p in probs), probs
    assert len(probs) == 5, probs  # the well-formed entries are accepted
    w = plan.coverage.code_waivers[0]
    assert (w.first, w.last) == (10, 12) and w.covers("cube_reader.sv", 11) and not w.covers("cube_reader.sv", 13)
    assert plan.coverage.code_waivers[1].first == plan.coverage.code_waivers[1].last == 3
    rtl_lines = (testplan.RTL_DIR / "cube_reader" / "cr_desc_validator.sv").read_text().splitlines()
    line = rtl_lines.index(next(text for text in rtl_lines if "default: state <= S_IDLE;" in text)) + 1
    w = plan.coverage.code_waivers[3]
    assert (w.first, w.last) == (line, line) and w.covers("cube_reader/cr_desc_validator.sv", line)


def test_coverage_goals_default_and_per_covergroup():
    cov = testplan.CoveragePlan(goals={"default": 95, "blk.kind": 100})
    assert cov.goal("blk.kind") == 100 and cov.goal("blk.layout") == 95
    assert testplan.CoveragePlan().goal("x") == testplan.DEFAULT_GOAL


def test_the_new_covergroups_are_in_the_plan():
    planned = {c for tp in testplan.load().testpoints for c in tp.covergroups}
    for name in ("ar_4k_split", "burst_beats", "error_alone", "error_together", "axi_resp"):
        assert f"cube_reader.{name}" in planned


@pytest.mark.parametrize(
    "entry, message",
    [
        (
            "{toplevel: t, lint_waiver: [WIDTH]}",
            "builds.bad.lint_waiver: unknown key; allowed: toplevel, parameters, filelist, defines, include_dirs, "
            "compile_args, sim_args, lint_waivers, properties, code_coverage, fastpath (did you mean 'lint_waivers'?)",
        ),
        ("{toplevel: t, filelist: no/such.f}", "builds.bad.filelist: no/such.f does not exist"),
        (
            "{toplevel: t, compile_args: {xcelium: [-x]}}",
            "builds.bad.compile_args.xcelium: unknown key; allowed: verilator, icarus",
        ),
        ("{toplevel: t, sim_args: {icarus: -x}}", "builds.bad.sim_args.icarus: expected a list of strings, not '-x'"),
        (
            "{toplevel: t, properties: nosuch.f}",
            "builds.bad.properties: nosuch.f is neither 'none' nor a property list",
        ),
        ("{parameters: {W: 1}}", "builds.bad: missing key toplevel (required: toplevel)"),
    ],
)
def test_a_bad_build_entry_is_refused_with_one_line_naming_it(tmp_path, entry, message):
    """The line is ``<file>:<line of the entry>: <key path>: <what>`` (dlaverif.flow.planschema), whether the schema
    refuses it (a key, a type) or the build's own check (a file that does not exist)."""
    text = plancopy.with_section(plancopy.top_text(), "builds:", f"  bad: {entry}")
    line = text.splitlines().index(f"  bad: {entry}") + 1
    p = tmp_path / "plan.yaml"
    p.write_text(text)
    with pytest.raises(ValueError) as exc:
        testplan.load(p)
    assert str(exc.value) == f"{p}:{line}: {message}"


def test_a_build_by_file_list_depends_on_that_lists_files_and_carries_its_options(foreign_build):
    plan = testplan.load()
    b = foreign_build
    assert b.options.filelist is not None
    assert b.rtl == frozenset(p.name for p in filelists.parse(b.options.filelist).sources), b
    assert not b.options.assertions or b.options.properties, b
    ours = [b for b in plan.builds.values() if b.options.filelist is None and b.rtl is not None]
    # ours give no option but, for the fast path, its declaration (dlaverif/flow/fastpath.py), and the occupancy
    # probes of their top (configs.tops.<top>.occupancy)
    plain = testplan.BuildOptions()
    assert ours and all(dataclasses.replace(b.options, fastpath=None, probes=()) == plain for b in ours)
    assert any(b.options.fastpath is not None for b in ours)
    assert any(b.options.probes for b in ours) and not any(b.options.probes and b.options.fastpath for b in ours)
