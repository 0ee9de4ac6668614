"""No issue-tracker references in the code, RTL, YAML, docs or Makefile: a user of this repository has no tracker,
so a comment or a doc says what the code does and why (or the measured fact it cites), never which ticket asked for
it. A reference is what ``git grep -nE "\\b[Ii]ssues? #?[0-9]+\\b"`` finds; the files searched are every file of the
checkout that git tracks or would track (not ignored) of the types in :data:`PATHSPECS`.

:data:`ALLOWED` lists the files that still hold references, each with how many lines: they are being edited
elsewhere and are cleaned when that work is merged, after which it is emptied. Any other file with a reference, or
more such lines in an allowed file, fails the test."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the file types searched, as git pathspecs
PATHSPECS = ("*.py", "*.sv", "*.svh", "*.yaml", "*.md", "Makefile")
#: a tracker reference: the word issue or issues (capitalized or not), an optional ``#``, a number
REFERENCE = re.compile(r"\b[Ii]ssues? #?[0-9]+\b")
#: files that still hold references -> the most lines with one they may have (only ever lowered, then emptied)
ALLOWED: dict[str, int] = {}


def searched_files(root: Path) -> list[str]:
    """The files of ``root``'s checkout, tracked or untracked but not ignored, of the types of :data:`PATHSPECS`."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", *PATHSPECS],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout
    return sorted({name for name in out.decode().split("\0") if name and (root / name).is_file()})


def references(root: Path, names: list[str]) -> dict[str, list[int]]:
    """File -> the line numbers (from 1) that hold a tracker reference, for every file of ``names`` that has one."""
    found: dict[str, list[int]] = {}
    for name in names:
        text = (root / name).read_text(encoding="utf-8", errors="replace")
        lines = [i for i, line in enumerate(text.splitlines(), 1) if REFERENCE.search(line)]
        if lines:
            found[name] = lines
    return found


def unexpected(found: dict[str, list[int]], allowed: dict[str, int]) -> list[str]:
    """One line per file of ``found`` that is not allowed its references: ``file:line, line, ...``."""
    return [
        f"{name}:{', '.join(map(str, lines))}"
        for name, lines in sorted(found.items())
        if len(lines) > allowed.get(name, 0)
    ]


def test_no_file_outside_the_allow_list_names_an_issue() -> None:
    names = searched_files(ROOT)
    assert "dlaverif/flow/runner.py" in names and "README.md" in names and "Makefile" in names
    bad = unexpected(references(ROOT, names), ALLOWED)
    assert not bad, "issue-tracker references (say what the code does and why instead):\n" + "\n".join(bad)


def test_the_check_fails_on_a_new_reference(tmp_path: Path) -> None:
    # a throw-away checkout: one clean file, one that cites a ticket, one of a type that is not searched
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "clean.py").write_text('"""Reads in flight: by Little\'s law 128 hide a latency of 128."""\n')
    (tmp_path / "docs").mkdir()
    ticket = "iss" + "ue 49"  # split so that this file itself holds no reference
    (tmp_path / "docs" / "new.md").write_text(f"# New\n\nAs {ticket} asks.\nAnd Iss{'ues'} #7 too.\n")
    (tmp_path / "notes.txt").write_text(f"{ticket}\n")
    names = searched_files(tmp_path)
    assert names == ["clean.py", "docs/new.md"]
    assert unexpected(references(tmp_path, names), {}) == ["docs/new.md:3, 4"]
    assert unexpected(references(tmp_path, names), {"docs/new.md": 1}) == ["docs/new.md:3, 4"]
    assert unexpected(references(tmp_path, names), {"docs/new.md": 2}) == []


def test_the_pattern_matches_what_git_grep_matches() -> None:
    word = "iss" + "ue"  # split so that this file itself holds no reference
    hits = [f"{word} 12", f"I{word[1:]} 23:", f"{word}s 15 and 23", f"I{word[1:]}s #3", f"({word} 32's bug)"]
    misses = ["issue", "tissue 12", "issue12x", "an issue with 12 bits", "issued 3"]
    assert all(REFERENCE.search(h) for h in hits)
    assert not any(REFERENCE.search(m) for m in misses)
