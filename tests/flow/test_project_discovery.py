"""A project says where its plan and RTL are (dlaverif/flow/project.py): ``TESTPLAN=``, else ``[tool.dlaverif]`` of
the nearest pyproject.toml (the current folder up, then the checkout the package runs from), else testplan.yaml of
the current folder. The package itself names no path of this repository's project."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from dlaverif.flow import project

ROOT = Path(__file__).resolve().parents[2]
SHOW = "from dlaverif.flow import project as p; print(p.PLAN, p.ROOT, p.RTL, p.RTL_DECLARED, sep='\\n')"


def _where(cwd: Path, **env: str) -> list[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("TESTPLAN", "SIM_BUILD")}
    done = subprocess.run(
        [sys.executable, "-c", SHOW], cwd=cwd, env={**base, "PYTHONPATH": str(ROOT), **env},
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return done.stdout.split("\n")[:4]


def _project(tmp_path: Path, table: str) -> Path:
    (tmp_path / "hw" / "sub").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "x"\n\n[tool.dlaverif]\n{table}\n')
    return tmp_path


def test_this_repository_declares_its_blocks_in_its_pyproject() -> None:
    assert _where(ROOT) == [str(ROOT / "blocks" / "plan.yaml"), str(ROOT), str(ROOT / "blocks" / "rtl"), "True"]


def test_a_project_table_is_found_from_a_folder_below_it(tmp_path: Path) -> None:
    mine = _project(tmp_path, 'plan = "plans/top.yaml"\nrtl = "hw"')
    assert _where(mine / "hw" / "sub") == [str(mine / "plans" / "top.yaml"), str(mine), str(mine / "hw"), "True"]


def test_a_table_without_rtl_leaves_the_builds_lists_to_be_mutated(tmp_path: Path) -> None:
    mine = _project(tmp_path, 'plan = "testplan.yaml"')
    assert _where(mine) == [str(mine / "testplan.yaml"), str(mine), str(mine / "rtl"), "False"]


def test_testplan_in_the_environment_wins_over_a_table(tmp_path: Path) -> None:
    mine = _project(tmp_path, 'plan = "plans/top.yaml"\nrtl = "hw"')
    other = tmp_path / "other" / "testplan.yaml"
    assert _where(mine, TESTPLAN=str(other)) == [str(other), str(other.parent), str(other.parent / "rtl"), "False"]


def test_a_pyproject_that_is_not_toml_or_has_no_plan_declares_nothing(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "pyproject.toml").write_text("[tool.dlaverif\nplan = ")
    (tmp_path / "a" / "pyproject.toml").write_text('[tool.dlaverif]\nrtl = "hw"\n')
    assert project.declared(tmp_path / "a" / "b", checkout=None) is None
    (tmp_path / "pyproject.toml").write_text('[tool.dlaverif]\nplan = "p.yaml"\n')
    found = project.declared(tmp_path / "a" / "b", checkout=None)
    assert found is not None and found[0] == tmp_path and found[1]["plan"] == "p.yaml"


def test_the_package_names_no_path_of_this_repositorys_project() -> None:
    # the project's folders (blocks/, its docs/) come from its pyproject.toml and its plan, never from the package
    joined = re.compile(r"""/\s*["'](blocks|docs)["']""")
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in sorted((ROOT / "dlaverif").rglob("*.py"))
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if joined.search(line)
    ]
    assert found == []
