"""Copies of this repository's plan for the tests that edit one (no simulator).

The plan is a top plan (blocks/plan.yaml) importing one plan per block (blocks/<block>/plan.yaml). A test that
edits its text gets the top plan with its imports made absolute (:func:`top_text`: every other line as it is, so a
line number counted in the copy is the line the flow must name), adds what it needs with :func:`with_section`, and
writes the copy anywhere; a test that edits data gets the merged plan as one map (:func:`merged`) to dump.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from dlaverif.flow import testplan
from dlaverif.flow.planschema import IMPORTS, read_plan

TOP = testplan.PLAN_PATH


def top_text(path: Path = TOP) -> str:
    """The top plan's text with each ``imports:`` entry an absolute path (a copy elsewhere imports the same files)."""
    text = path.read_text()
    lines = text.splitlines()
    for rel in yaml.safe_load(text).get(IMPORTS) or ():
        at = [i for i, t in enumerate(lines) if t.split("#", 1)[0].strip() == f"- {rel}"]
        assert len(at) == 1, rel
        lines[at[0]] = lines[at[0]].replace(rel, str((path.parent / rel).resolve()), 1)
    return "\n".join(lines) + "\n"


def with_section(text: str, header: str, line: str) -> str:
    """``text`` with ``line`` inserted right after its (only) line ``header`` (after a comment, if any); a top-level
    section the top plan leaves to the blocks' plans (``runs:``, ``builds:``, ...) is added at the end instead."""
    lines = text.splitlines()
    at = [i for i, t in enumerate(lines) if t.split("#", 1)[0].rstrip() == header]
    if not at and not header.startswith(" "):
        return "\n".join([*lines, header, line]) + "\n"
    assert len(at) == 1, header
    return "\n".join(lines[: at[0] + 1] + [line] + lines[at[0] + 1 :]) + "\n"


def merged(path: Path = TOP) -> dict:
    """The plan with every plan it imports merged in, as one map (no ``imports:``): what :func:`testplan.load`
    reads, to edit and dump into one file."""
    data = dict(read_plan(path, testplan.SCHEMA).data)
    data.pop(IMPORTS, None)
    return data
