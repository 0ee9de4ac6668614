"""Plans that import plans (``imports:``, as OpenTitan's ``import_cfgs``) and mutant catalogues as data: what a merged
plan holds, where its refusals point, and the catalogue file's schema (dlaverif.flow.planschema.read_plan,
dlaverif.flow.mutation.load_catalogue)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlaverif.flow import testplan
from dlaverif.flow.mutation import Edit, Mutant, load_catalogue
from dlaverif.flow.planschema import PlanError

TOP = """\
imports: [blk/plan.yaml]
suites:
  smoke: {runs: [r]}
testpoints:
  - {name: top_tp, desc: d, tests: []}
"""
BLOCK = """\
builds:
  b: {toplevel: cube_reader}
runs:
  r: {build: b, module: blocks.cube_reader.test_directed}
testpoints:
  - {name: blk_tp, desc: d, tests: []}
"""


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root / next(iter(files))


def test_an_imported_plan_adds_its_builds_runs_and_testpoints_and_the_importer_may_name_them(tmp_path):
    plan = testplan.load(_write(tmp_path, {"top.yaml": TOP, "blk/plan.yaml": BLOCK}))
    assert list(plan.builds) == ["b"] and plan.builds["b"].toplevel == "cube_reader"
    assert [sr.run.name for sr in plan.suites["smoke"].runs] == ["r"]  # a suite of the top names a block's run
    assert [t.name for t in plan.testpoints] == ["top_tp", "blk_tp"]  # lists joined in import order


def test_nested_imports_are_relative_to_the_importing_file(tmp_path):
    mid = "imports: [../leaf/plan.yaml]\n" + BLOCK.replace("b: {toplevel", "b2: {toplevel").replace(
        "r: {build: b,", "r2: {build: b2,"
    ).replace("blk_tp", "mid_tp")
    leaf = BLOCK.replace("blk_tp", "leaf_tp")
    plan = testplan.load(
        _write(
            tmp_path, {"top.yaml": TOP.replace("blk/plan", "mid/plan"), "mid/plan.yaml": mid, "leaf/plan.yaml": leaf}
        )
    )
    assert set(plan.runs) == {"r", "r2"}
    assert [t.name for t in plan.testpoints] == ["top_tp", "mid_tp", "leaf_tp"]


def test_a_name_defined_in_two_plans_is_one_line_naming_both_places(tmp_path):
    top = TOP.replace("suites:", "builds:\n  b: {toplevel: weight_reader}\nsuites:")
    with pytest.raises(PlanError) as exc:
        testplan.load(_write(tmp_path, {"top.yaml": top, "blk/plan.yaml": BLOCK}))
    assert str(exc.value) == f"{tmp_path}/blk/plan.yaml:2: builds.b: defined again (first at {tmp_path}/top.yaml:3)"


def test_a_single_value_given_in_two_plans_is_refused(tmp_path):
    top = TOP + "configs: {seed: 1}\n"
    block = BLOCK + "configs: {seed: 2}\n"
    with pytest.raises(PlanError) as exc:
        testplan.load(_write(tmp_path, {"top.yaml": top, "blk/plan.yaml": block}))
    assert str(exc.value) == f"{tmp_path}/blk/plan.yaml:7: configs.seed: given again (first at {tmp_path}/top.yaml:6)"


def test_a_refusal_inside_an_imported_plan_names_that_file_and_line(tmp_path):
    block = BLOCK.replace("r: {build: b,", "r: {build: nob,")
    with pytest.raises(PlanError) as exc:
        testplan.load(_write(tmp_path, {"top.yaml": TOP, "blk/plan.yaml": block}))
    assert str(exc.value).startswith(f"{tmp_path}/blk/plan.yaml:4: runs.r.build: unknown build 'nob'; allowed: b")


@pytest.mark.parametrize(
    "files, said",
    [
        ({"top.yaml": TOP}, "top.yaml:1: imports: no plan file blk/plan.yaml (looked for {root}/blk/plan.yaml)"),
        (
            {"top.yaml": TOP, "blk/plan.yaml": "imports: [../top.yaml]\n" + BLOCK},
            "blk/plan.yaml:1: {root}/top.yaml is imported twice or in a cycle (first by the command line)",
        ),
        (
            {"top.yaml": TOP.replace("[blk/plan.yaml]", "[blk/plan.yaml, blk/plan.yaml]"), "blk/plan.yaml": BLOCK},
            "top.yaml:1: {root}/blk/plan.yaml is imported twice or in a cycle (first by {root}/top.yaml:1)",
        ),
        (
            {"top.yaml": "imports: [blk/plan.yaml]\n", "blk/plan.yaml": "builds: {}\n"},
            "top.yaml: missing key runs, suites, testpoints in it and the plans it imports "
            "(required: builds, runs, suites, testpoints)",
        ),
        ({"top.yaml": "imports: blk/plan.yaml\n" + TOP[26:]}, "top.yaml:1: imports: expected a list of strings"),
    ],
    ids=["missing", "cycle", "twice", "required keys of the whole", "not a list"],
)
def test_a_broken_import_is_one_line(tmp_path, files, said):
    with pytest.raises(PlanError) as exc:
        testplan.load(_write(tmp_path, files))
    assert str(exc.value).startswith(f"{tmp_path}/" + said.format(root=tmp_path))


CATALOGUE = """\
mutants:
  - name: one_edit
    family: off-by-one
    bug: one beat short
    file: a.sv
    old: "x <= y;"
    new: "x <= y - 1;"
  - name: two_edits
    family: wrong stride
    bug: both pointers move by the line, not the surface
    edits:
      - {file: a.sv, old: p, new: q}
      - {file: b.sv, old: r, new: s}
    root: NVDLA_HW
"""


def test_a_catalogue_file_reads_into_mutants_in_its_order(tmp_path):
    p = tmp_path / "m.yaml"
    p.write_text(CATALOGUE)
    assert load_catalogue(p) == (
        Mutant("one_edit", "off-by-one", "one beat short", (Edit("a.sv", "x <= y;", "x <= y - 1;"),)),
        Mutant(
            "two_edits",
            "wrong stride",
            "both pointers move by the line, not the surface",
            (Edit("a.sv", "p", "q"), Edit("b.sv", "r", "s")),
            "NVDLA_HW",
        ),
    )


@pytest.mark.parametrize(
    "change, said",
    [
        (("    bug: one beat short\n", "    bugs: one beat short\n"), "m.yaml:4: mutants[0].bugs: unknown key"),
        (('    new: "x <= y - 1;"\n', ""), "m.yaml:2: mutant one_edit: an edit needs file, old and new"),
        (
            ("    root: NVDLA_HW\n", "    file: c.sv\n"),
            "m.yaml:8: mutant two_edits: one edit (file, old, new) or edits",
        ),
        (("    edits:\n", "    edit:\n"), "m.yaml:11: mutants[1].edit: unknown key; allowed: "),
        (("  - name: one_edit\n", "  - name: one edit\n"), "m.yaml:2: mutants[0].name: expected an identifier"),
    ],
    ids=["typo", "half an edit", "both forms", "no edit", "bad name"],
)
def test_a_broken_catalogue_is_one_line_at_its_line(tmp_path, change, said):
    p = tmp_path / "m.yaml"
    p.write_text(CATALOGUE.replace(*change))
    with pytest.raises(PlanError) as exc:
        load_catalogue(p)
    assert str(exc.value).startswith(f"{tmp_path}/{said}")


def test_the_projects_catalogues_name_each_mutant_once():
    from dlaverif.flow import mutants

    names = [m.name for m in mutants.catalogue()]
    assert len(names) == len(set(names)) == 81  # 60 of our blocks and the PDP, 6 corner mutants, 15 of the CDMA
