"""The plan's ``blocks:`` section (dlaverif/flow/testplan.py): what the flow needs of a block, as data. No simulator."""

from __future__ import annotations

from dlaverif import thirdparty
from dlaverif.flow import contracts, project, testplan


def test_the_datasheets_that_carry_a_parameter_block_are_the_matrix_tops_with_a_datasheet():
    plan = testplan.load()
    tops = {c.top for c in plan.configs.values()}
    sheets = contracts.datasheets()
    assert set(sheets) == {n for n, b in plan.blocks.items() if b.datasheet} & tops
    assert all(p.is_file() and p.suffix == ".md" for p in sheets.values())


def test_every_build_whose_list_takes_a_variable_has_a_block_root_for_it():
    # a file list's $VAR is a third-party tree: some block of the plan says what it must name
    plan = testplan.load()
    used = {
        var
        for b in plan.builds.values()
        if b.options.filelist is not None
        for var in thirdparty.DEFAULTS
        if f"${var}" in b.options.filelist.read_text() or "${" + var + "}" in b.options.filelist.read_text()
    }
    assert used - {thirdparty.DLA_RTL}, used  # this repository has such a build (NVIDIA's)
    assert used - {thirdparty.DLA_RTL} <= set(plan.roots), used


def test_the_plan_roots_are_the_ones_the_package_uses_until_it_reads_them():
    # TEMPORARY: dlaverif/thirdparty still keeps its own table of defaults (DEFAULTS, GET); until it takes them from
    # the plan's roots, this keeps the two equal (a second copy, checked, not trusted)
    for name, root in testplan.load().roots.items():
        defaults, means = thirdparty.DEFAULTS[name]
        assert means == root.means
        assert [p.resolve() for p in defaults] == [(project.ROOT / d).resolve() for d in root.defaults]
        assert thirdparty.GET.get(name, "") == root.get
