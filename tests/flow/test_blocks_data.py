"""The plan's ``blocks:`` section (dlaverif/flow/testplan.py): what the flow needs of a block, as data. No simulator."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from dlaverif import thirdparty
from dlaverif.flow import contracts, project, testplan

ROOT = Path(__file__).resolve().parents[2]


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


def _defaults_in_a_fresh_interpreter(env: dict[str, str]) -> dict[str, list[str]]:
    """``thirdparty.DEFAULTS`` as a fresh interpreter that imports the package (and not the plan) sees it."""
    code = (
        "import json; from dlaverif import thirdparty as t; "
        "print(json.dumps({k: [str(p) for p in v[0]] for k, v in t.DEFAULTS.items()}))"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_the_package_takes_the_third_party_defaults_from_the_plan_roots():
    # one source: each root of the plan (blocks/pdp_rdma/plan.yaml, by hand: NVDLA_HW, make nvdla's copy first) is
    # what the package uses once the plan is loaded; alone, the package knows only its own DLA_RTL
    roots = testplan.load().roots
    assert roots["NVDLA_HW"].defaults[0] == "sim_build/thirdparty/nvdla-hw"
    for name, root in roots.items():
        defaults, means = thirdparty.DEFAULTS[name]
        assert means == root.means
        assert list(defaults) == [project.ROOT / d for d in root.defaults]
        assert thirdparty.GET.get(name, "") == root.get
    alone = {k: v for k, v in os.environ.items() if k != thirdparty.ROOTS_VAR} | {"PYTHONPATH": str(ROOT)}
    assert list(_defaults_in_a_fresh_interpreter(alone)) == [thirdparty.DLA_RTL]


def test_a_simulation_gets_the_declared_roots_without_loading_the_plan():
    # the runner hands the plan's roots to the simulation's environment; a fresh interpreter (as the testbench is)
    # that imports the package with it finds the same defaults
    from dlaverif.flow import runner

    roots = testplan.load().roots
    env = {**os.environ, **{k: v for k, v in runner.simulation_env({}, False).items() if v is not None}}
    child = _defaults_in_a_fresh_interpreter(env)
    assert child["NVDLA_HW"] == [str(project.ROOT / d) for d in roots["NVDLA_HW"].defaults]
