"""The one list of system packages (dlaverif/flow/sysdeps.sh): a machine without them gets one line naming the command
that installs everything, within seconds, and nothing else happens."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "dlaverif" / "flow" / "sysdeps.sh"


def _bare_path(tmp_path: Path, keep: tuple[str, ...]) -> str:
    """A PATH holding only ``keep`` (symlinks to the real tools): every other command looks missing."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in keep:
        real = shutil.which(tool)
        assert real, tool
        (bin_dir / tool).symlink_to(real)
    return str(bin_dir)


def test_missing_packages_give_one_line_naming_the_install_command(tmp_path: Path) -> None:
    path = _bare_path(tmp_path, ("bash", "python3", "id", "cat"))
    t0 = time.monotonic()
    out = subprocess.run([str(SCRIPT), "check"], capture_output=True, text=True, env={**os.environ, "PATH": path})
    took = time.monotonic() - t0
    assert out.returncode == 2, out
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and out.stdout == "", out
    assert "sudo make setup" in lines[0]
    missing = lines[0].split(":", 1)[1].split("--")[0].split()
    assert {"g++", "make", "iverilog", "yosys", "chromium"} <= set(missing), missing
    assert took < 10, took  # the "within 10 seconds": one probe per package, no package manager call


def test_the_list_names_each_package_once_and_every_probe_kind_is_known() -> None:
    names = subprocess.run([str(SCRIPT), "list"], capture_output=True, text=True, check=True).stdout.split()
    assert len(names) == len(set(names)) and {"iverilog", "g++", "python3-venv", "verilator", "lcov"} <= set(names)
    text = SCRIPT.read_text()
    body = text.split("PACKAGES='", 1)[1].split("'", 1)[0]
    for row in filter(str.strip, body.splitlines()):
        assert row.split()[1].split(":", 1)[0] in ("cmd", "file", "py"), row


def test_ci_and_the_makefile_use_the_one_list() -> None:
    root = SCRIPT.parents[2]
    assert "dlaverif/flow/sysdeps.sh install" in (root / ".ci" / "run").read_text()
    assert "apt-get" not in (root / ".ci" / "run").read_text()  # no second list of packages
    assert "dlaverif/flow/sysdeps.sh ensure" in (root / "Makefile").read_text()
