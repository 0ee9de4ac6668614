"""docs/verify_your_reader.md cannot go stale: every command of its ``sh`` blocks runs from the repository root and
exits 0, and every line of the ``text`` block right after it appears in its output (whitespace aside). Its ``shell``
blocks are what a user types in their own project: tests/flow/test_example.py runs them in a copy of the example
(:func:`commands` with ``lang="shell"``)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "verify_your_reader.md"
BLOCK = re.compile(r"```(\w+)\n(.*?)```\n", re.S)


def commands(text: str, lang: str = "sh") -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for each ``lang`` block, with the ``text`` block that directly follows it."""
    blocks = [(m.group(1), m.group(2), m.start(), m.end()) for m in BLOCK.finditer(text)]
    out = []
    for i, (kind, body, _, end) in enumerate(blocks):
        if kind != lang:
            continue
        expect: list[str] = []
        if i + 1 < len(blocks) and blocks[i + 1][0] == "text" and not text[end : blocks[i + 1][2]].strip():
            expect = [line for line in blocks[i + 1][1].splitlines() if line.strip()]
        out.append((body.strip(), expect))
    return out


def squash(text: str) -> str:
    return " ".join(text.split())


def test_the_guide_has_commands_with_their_output():
    found = commands(GUIDE.read_text())
    assert len(found) >= 2 and all(expect for _, expect in found), found


@pytest.mark.parametrize("command, expect", commands(GUIDE.read_text()), ids=lambda v: str(v)[:40])
def test_a_command_of_the_guide_runs_and_prints_what_the_guide_shows(command, expect):
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (command, done.stdout[-3000:], done.stderr[-3000:])
    lines = [squash(line) for line in done.stdout.splitlines()]
    for want in expect:
        assert any(squash(want) in line for line in lines), (want, done.stdout[-3000:])
