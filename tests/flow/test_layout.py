"""The folders keep their promises (docs/architecture.md): the testbench library does not import the flow, stimulus
does not import checking, and the models know nothing of simulators. Read from the import statements (ast)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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


def test_the_library_does_not_import_the_flow() -> None:
    # a block's mutant catalogue is flow data that lives with its block: it may use the flow's Mutant type
    bad = {
        str(p.relative_to(ROOT)): sorted(n for n in _imports(p) if n.startswith("tb.flow"))
        for p in (ROOT / "tb").rglob("*.py")
        if "flow" not in p.relative_to(ROOT / "tb").parts and p.name != "mutants.py"
    }
    assert not {k: v for k, v in bad.items() if v}


def test_stimulus_imports_no_checker_scoreboard_env_or_coverage() -> None:
    stimulus = [p for name in ("sequences.py", "items.py", "footprint.py") for p in (ROOT / "tb").rglob(name)]
    assert len(stimulus) >= 9
    for p in stimulus:
        for n in _imports(p):
            leaf = n.rsplit(".", 1)[-1]
            assert leaf not in ("scoreboard", "env", "coverage") and not n.startswith("tb.checkers"), (p, n)


def test_the_models_import_no_simulator_nor_testbench() -> None:
    for p in (ROOT / "models").rglob("*.py"):
        for n in _imports(p):
            assert not n.startswith(("cocotb", "pyuvm", "tb")), (p, n)
