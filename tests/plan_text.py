"""The project's plan as text that still works when a test writes a changed copy of it elsewhere (``tmp_path``):
its ``imports:`` made absolute, so the copy imports the same block plans (paths in a plan are otherwise relative to
its own file). The line count is kept, so line numbers in messages are the original's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from dlaverif.flow import testplan

_IMPORTS = re.compile(r"^imports:\s*(\[[^\]\n]*\])", re.M)


def copyable_plan(path: Path = testplan.PLAN_PATH) -> str:
    """``path``'s text with the paths of its one-line ``imports: [...]`` made absolute."""

    def absolute(m: re.Match[str]) -> str:
        return "imports: " + json.dumps([str(path.parent / rel) for rel in yaml.safe_load(m.group(1))])

    return _IMPORTS.sub(absolute, path.read_text())
