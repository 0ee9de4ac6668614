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


def plan_files(path: Path = TOP) -> list[Path]:
    """The plan and the plans it imports, in the order they merge (depth first)."""
    out = [path]
    for rel in yaml.safe_load(path.read_text()).get(IMPORTS) or ():
        out += plan_files((path.parent / rel).resolve())
    return out


def section_text(text: str, section: str) -> str:
    """The entries of the top-level ``section`` of a plan's text, as written (comments and line breaks kept)."""
    lines = text.splitlines()
    at = [i for i, t in enumerate(lines) if t.split("#", 1)[0].rstrip() == f"{section}:"]
    if not at:
        return ""
    body = []
    for t in lines[at[0] + 1 :]:
        if t and not t.startswith((" ", "#")):  # the next top-level key
            break
        body.append(t)
    return "\n".join(body).rstrip("\n") + "\n"


def flat_text(section: str, path: Path = TOP) -> str:
    """The merged plan as one file, ``section`` last and written as its entries are written in each plan file (in
    merge order), so that a test can edit an entry's text and count the line the flow must name."""
    data = merged(path)
    data.pop(section, None)
    entries = "".join(section_text(p.read_text(), section) for p in plan_files(path))
    return yaml.safe_dump(data, sort_keys=False, width=1000) + f"\n{section}:\n{entries}"
