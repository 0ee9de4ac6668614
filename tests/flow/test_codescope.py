"""dlaverif.flow.codescope and the plan's ``code_coverage`` key: code coverage scores every build's own file list
(any root), leaves third-party RTL out unless the plan opts it in, takes out what it excludes, and resolves code
waivers against the files it scores. The plans and RTL are written here, so the expected sets are known."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dlaverif.fastpath import HDL_SOURCES
from dlaverif.flow import codescope, testplan
from dlaverif.flow.planschema import PlanError


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    """A project root with its own RTL (own.sv, tb_glue.sv) and a vendor tree outside it (v1.v, v2.v)."""
    root, vendor = tmp_path / "proj", tmp_path / "vendor"
    (root / "rtl").mkdir(parents=True)
    vendor.mkdir()
    for f in (root / "rtl" / "own.sv", root / "rtl" / "tb_glue.sv", vendor / "v1.v", vendor / "v2.v"):
        f.write_text("module m;\n  // unreachable\nendmodule\n")
    return root, vendor


def test_own_files_are_scored_third_party_ones_only_when_included(tmp_path):
    root, vendor = _tree(tmp_path)
    files = [root / "rtl" / "own.sv", vendor / "v1.v", vendor / "v2.v"]
    assert codescope.scored(files, (), root, {}) == [root / "rtl" / "own.sv"]
    opted = codescope.scored(files, (codescope.Selection(include=("v1.v",)),), root, {})
    assert opted == [root / "rtl" / "own.sv", vendor / "v1.v"]
    every = codescope.scored(files, (codescope.Selection(include=(f"{vendor}/*",)),), root, {})
    assert every == files


def test_exclude_takes_files_out_and_a_build_selection_comes_after_the_plans(tmp_path):
    root, vendor = _tree(tmp_path)
    files = [root / "rtl" / "own.sv", root / "rtl" / "tb_glue.sv", vendor / "v1.v"]
    plan = codescope.Selection(include=("*.v",), exclude=("rtl/tb_*.sv",))  # a path relative to the root
    build = codescope.Selection(exclude=("v1.v",))
    assert codescope.scored(files, (plan,), root, {}) == [root / "rtl" / "own.sv", vendor / "v1.v"]
    assert codescope.scored(files, (plan, build), root, {}) == [root / "rtl" / "own.sv"]


def test_a_file_under_a_third_party_variable_is_third_party_inside_the_root(tmp_path):
    """``make nvdla`` puts NVIDIA's files inside the checkout: under $NVDLA_HW they are still not ours."""
    root, _ = _tree(tmp_path)
    nv = root / "sim_build" / "nvdla"
    nv.mkdir(parents=True)
    (nv / "NV_x.v").write_text("module NV_x; endmodule\n")
    env = {"NVDLA_HW": str(nv)}
    assert codescope.third_party(nv / "NV_x.v", root, env)
    assert not codescope.third_party(root / "rtl" / "own.sv", root, env)
    include = (codescope.Selection(include=("$NVDLA_HW/*.v",)),)
    assert codescope.scored([nv / "NV_x.v"], include, root, env) == [nv / "NV_x.v"]
    _, vendor = _tree(tmp_path / "other")  # outside the root: a glob of an unset variable opts nothing in
    assert codescope.scored([vendor / "v1.v"], include, root, {}) == []


def test_two_scored_files_of_one_name_are_refused_naming_both(tmp_path):
    a, b = tmp_path / "a" / "x.sv", tmp_path / "b" / "x.sv"
    with pytest.raises(ValueError, match=r"two files named x.sv: .*a/x.sv \(build one\) and .*b/x.sv \(build two\)"):
        codescope.by_name({"one": [a], "two": [b]})
    assert codescope.by_name({"one": [a], "two": [a]}) == {"x.sv": a.resolve()}


def _plan(tmp_path: Path, vendor: Path, coverage: dict, build_extra: dict | None = None) -> Path:
    """A plan whose one build compiles the vendor files (outside the checkout: third-party) by a list."""
    flist = tmp_path / "vendor.f"
    flist.write_text(f"{vendor / 'v1.v'}\n{vendor / 'v2.v'}\n")
    raw = {
        "builds": {"v": {"toplevel": "m", "filelist": str(flist), "properties": "none", **(build_extra or {})}},
        "runs": {"v/run": {"build": "v", "module": "blocks.cube_reader.tests"}},
        "suites": {"sim": {"runs": ["v/run"]}},
        "testpoints": [],
        "coverage": coverage,
    }
    path = tmp_path / "plan.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def test_the_plan_opts_third_party_rtl_in_and_waives_its_unreachable_lines(tmp_path):
    _, vendor = _tree(tmp_path)
    waiver = {"file": "v1.v", "match": "// unreachable", "tag": "unreachable", "reason": "a vendor's dead arm"}
    left_out = testplan.load(_plan(tmp_path, vendor, {"code_waivers": [waiver]}))
    assert left_out.coverage.files == {}
    said = [p for p in testplan.problems(left_out) if p.startswith("code waiver")]
    assert said == [
        "code waiver names v1.v, which code coverage does not score (in no build's file list, or third-party RTL "
        "the plan does not opt in: code_coverage include)"
    ]
    opted = testplan.load(_plan(tmp_path, vendor, {"code_coverage": {"include": ["v1.v"]}, "code_waivers": [waiver]}))
    assert opted.coverage.files == {"v1.v": (vendor / "v1.v").resolve()}
    w = opted.coverage.code_waivers[0]
    assert (w.first, w.last, w.matches) == (2, 2, 1)  # the line holding the match, in the vendor's file
    assert not [p for p in testplan.problems(opted) if p.startswith("code waiver")]


def test_a_build_entry_opts_its_own_files_in_and_out(tmp_path):
    _, vendor = _tree(tmp_path)
    plan = testplan.load(_plan(tmp_path, vendor, {}, {"code_coverage": {"include": ["*.v"], "exclude": ["v2.v"]}}))
    assert plan.coverage.files == {"v1.v": (vendor / "v1.v").resolve()}
    assert plan.builds["v"].options.code_coverage == codescope.Selection(("*.v",), ("v2.v",))


def test_a_misspelt_code_coverage_key_is_one_line(tmp_path):
    _, vendor = _tree(tmp_path)
    with pytest.raises(PlanError, match=r"coverage.code_coverage.includes: unknown key; allowed: include, exclude"):
        testplan.load(_plan(tmp_path, vendor, {"code_coverage": {"includes": ["v1.v"]}}))


def test_our_plan_scores_the_rtl_of_every_build_with_a_list_and_no_property_module():
    """blocks/plan.yaml: the readers' files of blocks/rtl/ and the self-test DMAs' own lists (outside blocks/rtl/);
    never a property module, nor the fast path's testbench HDL."""
    files = testplan.load().coverage.files
    assert {"cube_reader.sv", "weight_reader.sv", "pixel_reader.sv", "axi_rd_engine.sv"} <= set(files)
    assert {"byte_dma.sv", "pin_dma.sv"} <= set(files)
    assert not [n for n, p in files.items() if "props" in p.parts or n.endswith("_props.sv")]
    # by name, not by a path's folders (a checkout may itself live in a folder called fastpath)
    assert not [n for n in files if n in {p.name for p in HDL_SOURCES} or n.endswith("_fastpath.sv")]
