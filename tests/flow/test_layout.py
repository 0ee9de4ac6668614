"""The folders keep their promises (docs/architecture.md): the package ``dlaverif`` imports nothing of this
repository's project (``blocks/``, ``examples/``, ``tests/``) and loads no project data; its testbench library does
not import the flow; stimulus does not import checking; the models know nothing of simulators. Read from the import
statements (ast), so a test fails on the import itself, not on what it happens to load. And the package names none of
the project's blocks: what it needs of them is the plan's data (the names are read from the plan)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "dlaverif"
PROJECT = ("blocks", "examples", "tests", "desc_reader_tb", "stream_dma_tb")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the file's package
                pkg = path.relative_to(ROOT).parent.parts[: len(path.relative_to(ROOT).parent.parts) - node.level + 1]
                base = ".".join((*pkg, base) if base else pkg)
            names.add(base)
    return names


def _bad(paths: list[Path], forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    found = {
        str(p.relative_to(ROOT)): sorted(
            n for n in _imports(p) if n.split(".")[0] in forbidden or n.startswith(forbidden)
        )
        for p in paths
    }
    return {k: v for k, v in found.items() if v}


def test_the_package_imports_nothing_of_the_project() -> None:
    assert len(list(PACKAGE.rglob("*.py"))) > 50
    assert not _bad(list(PACKAGE.rglob("*.py")), PROJECT)


def test_the_check_sees_a_package_module_that_imports_a_block() -> None:
    # the checker itself: a module inside the package that imports a block is reported
    probe = PACKAGE / "flow" / "_layout_probe.py"
    probe.write_text("from blocks.cube_reader import tests\nimport dlaverif.models\n")
    try:
        assert _bad([probe], PROJECT) == {"dlaverif/flow/_layout_probe.py": ["blocks.cube_reader"]}
    finally:
        probe.unlink()


def test_importing_the_package_loads_no_project_module() -> None:
    # every library module that imports without a simulator (cocotb is importable outside one) is imported in a
    # fresh interpreter; afterwards no module of the project is loaded
    code = (
        "import sys, importlib, dlaverif\n"
        "for m in ('dlaverif.models', 'dlaverif.platform', 'dlaverif.agents', 'dlaverif.checkers', "
        "'dlaverif.flow.testplan', 'dlaverif.flow.runner', 'dlaverif.thirdparty'):\n"
        "    importlib.import_module(m)\n"
        f"print(sorted(n for n in sys.modules if n.split('.')[0] in {PROJECT!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_the_library_does_not_import_the_flow() -> None:
    # the platform, agents, checkers, fast path and models: what a simulation imports
    lib = [p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] not in ("flow",)]
    assert not _bad(lib, ("dlaverif.flow",))


def test_stimulus_imports_no_checker_scoreboard_env_or_coverage() -> None:
    stimulus = [p for name in ("sequences.py", "items.py", "footprint.py") for p in ROOT.glob(f"*/**/{name}")]
    stimulus = [p for p in stimulus if ".venv" not in p.parts and "sim_build" not in p.parts]
    assert len(stimulus) >= 9
    for p in stimulus:
        for n in _imports(p):
            leaf = n.rsplit(".", 1)[-1]
            assert leaf not in ("scoreboard", "env", "coverage") and not n.startswith("dlaverif.checkers"), (p, n)


def test_the_models_import_no_simulator_nor_testbench() -> None:
    for p in (PACKAGE / "models").rglob("*.py"):
        for n in _imports(p):
            assert not n.startswith(("cocotb", "pyuvm")), (p, n)
            assert not n.startswith("dlaverif.") or n.startswith("dlaverif.models"), (p, n)
            assert n.split(".")[0] not in PROJECT, (p, n)


def _block_names() -> set[str]:
    """The project's blocks as its plan names them: every build's name and top (configurations of the matrix,
    ``<top>@<corner>``, are their top's)."""
    from dlaverif.flow import testplan

    plan = testplan.load()
    return {n for b in plan.builds.values() for n in (b.name, b.toplevel) if "@" not in n}


def _naming(paths: list[Path], names: set[str]) -> dict[str, list[str]]:
    """``path: [line:name, ...]`` of each text file of ``paths`` holding one of ``names`` as a word of its own or of
    an identifier (``_`` separates: ``fcov_<name>.xml`` counts), case-insensitive."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    word = re.compile(rf"(?<![A-Za-z0-9])({alternatives})(?![A-Za-z0-9])", re.IGNORECASE)
    out = {}
    for p in paths:
        try:
            lines = p.read_text().splitlines()
        except UnicodeDecodeError:  # binary package data
            continue
        hits = [f"{i}:{m.group(1)}" for i, line in enumerate(lines, 1) for m in word.finditer(line)]
        if hits:
            out[str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else p.name] = hits
    return out


def _package_files() -> list[Path]:
    return [p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts]


def test_the_package_names_no_block_of_the_plan() -> None:
    # the flow (and the whole package) knows a block only through the plan: its name, files, tests, datasheet and
    # durations are the project's data (blocks/), never a constant, a table or an example of the package
    names = _block_names()
    assert {"cube_reader", "weight_reader", "byte_dma", "cube_reader_hdl"} <= names  # the plan was read, not assumed
    assert len(_package_files()) > 50
    assert _naming(_package_files(), names) == {}


def test_the_block_name_check_sees_a_name_in_code_a_comment_and_an_identifier(tmp_path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "TOPS = {'other': 1}\n# see docs/Cube_Reader.md\nXML = 'fcov_pixel_reader.xml'\nCUBE_READERS = 2\n"
    )
    found = _naming([probe], {"cube_reader", "pixel_reader"})
    assert list(found.values()) == [["2:Cube_Reader", "3:pixel_reader"]]  # CUBE_READERS is another word
