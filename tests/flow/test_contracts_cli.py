"""``python -m dlaverif.flow.contracts``: a top it does not know (or an option it does not take) is one line, exit 2,
never a traceback; a known top prints its parameter table."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dlaverif.flow.contracts", *args], capture_output=True, text=True)


@pytest.mark.parametrize("arg", ["--help", "no_such_top"])
def test_an_unknown_argument_is_one_line_and_exit_2(arg):
    done = _run(arg)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"contracts: {arg!r}: not a top with a datasheet")


def test_a_known_top_prints_its_parameter_table():
    done = _run("cube_reader")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == ["cube_reader", "| parameter | default | legal range |"]
